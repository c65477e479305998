/**
 * The LLM judge for a rubric's `text` criteria. Part of verification only: it sees the task's anchors, reference
 * evidence and answer key, which the agent never sees. It reads the trajectory as the agent did (each
 * observation's text comes from the one observation renderer) and answers with a JSON verdict. A failed or
 * unparseable call leaves the criterion unjudged, with the reason noted; it never throws into the search.
 */
import { capText, renderTable } from '../agent/render';
import type { AgentStep } from '../agent/types';
import { OFFLINE_SIM_PROVIDER_ID } from '../sim/models';
import type { LlmProvider } from '../llm/types';
import type { EvidenceGraph } from '../taskpool/graph';
import type { RubricCriterion, TaskSpec } from '../taskpool/types';
import { qualityOf, rubricResultOf, verifyTrajectory, type CriterionResult, type RubricResult, type Verification } from './verifier';

export interface RubricJudge {
  provider: LlmProvider;
  model: string;
  /** The task pool's evidence graph: anchors are shown with their facts when it is given. */
  graph?: EvidenceGraph;
}

/** Whether a judge is configured and may run (the offline simulated models never judge). */
export function judgeAvailable(judge: RubricJudge | undefined): judge is RubricJudge {
  return judge !== undefined && judge.provider.id !== OFFLINE_SIM_PROVIDER_ID;
}

const MAX_OBSERVATION_CHARS = 1500;

/** The trajectory as the judge reads it: thought, tool call and the rendered observation of every step. */
export function renderTrajectoryForJudge(steps: readonly AgentStep[]): string {
  return steps
    .map((step, i) => {
      const lines = [`Step ${i + 1}:`];
      if (step.thought.trim()) lines.push(`Thought: ${capText(step.thought.trim(), 500)}`);
      if (step.toolCall) lines.push(`Call: ${step.toolCall.name}(${capText(step.toolCall.arguments, 1000)})`);
      lines.push(`Observation:\n${capText(step.observation.text, MAX_OBSERVATION_CHARS)}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

function anchorLines(criterion: RubricCriterion, graph: EvidenceGraph | undefined): string[] {
  const nodes = new Map((graph?.nodes ?? []).map((n) => [n.id, n]));
  return criterion.anchors.map((id) => {
    const node = nodes.get(id);
    if (!node) return `- ${id}`;
    const facts = Object.entries(node.facts).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}=${String(v)}`);
    return `- ${id}${facts.length ? ` (${facts.join(', ')})` : ''}`;
  });
}

/** The judge's prompt for one criterion. */
export function judgePrompt(task: TaskSpec, criterion: RubricCriterion, steps: readonly AgentStep[], final: { answer: string; explanation: string } | undefined, graph?: EvidenceGraph): string {
  const instruction = criterion.check.kind === 'text' ? criterion.check.instruction : criterion.description;
  const evidence = task.evidence.map((e, i) => {
    const result = e.result ? `\n${renderTable(e.result.columns, e.result.rows, { limits: { maxRows: 10 } })}` : '';
    return `${i + 1}. ${e.purpose}\n${e.tool === 'run_sql' ? 'SQL' : 'Python'}: ${capText(e.code, 1000)}${result}`;
  });
  return [
    `Question the agent was given: ${task.question}`,
    '',
    `Criterion (${criterion.polarity}): ${criterion.description}`,
    `Instruction: ${instruction}`,
    'Anchors (what the criterion rests on):',
    ...(criterion.anchors.length ? anchorLines(criterion, graph) : ['- (none)']),
    '',
    `Reference answer: ${JSON.stringify(task.answer)}`,
    'Reference solution:',
    ...evidence,
    '',
    'Trajectory:',
    renderTrajectoryForJudge(steps),
    '',
    `Final answer: ${final ? final.answer : '(none)'}`,
    `Explanation: ${final ? final.explanation || '(none)' : '(none)'}`,
  ].join('\n');
}

const SYSTEM = [
  'You grade one criterion of a rubric against a data agent\'s trajectory.',
  'Judge only the criterion, using the anchors and the reference solution as ground truth.',
  'Reply with JSON only: {"satisfied": true or false, "reason": "one sentence"}.',
].join(' ');

/** Reads a verdict from a reply: a JSON object, possibly fenced or surrounded by text; undefined when there is none. */
export function parseVerdict(reply: string | null | undefined): { satisfied: boolean; reason: string } | undefined {
  if (!reply) return undefined;
  const text = reply.replace(/```(?:json)?/gi, '');
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const raw = record.satisfied;
  const satisfied = raw === true || raw === 'true' ? true : raw === false || raw === 'false' ? false : undefined;
  if (satisfied === undefined) return undefined;
  return { satisfied, reason: typeof record.reason === 'string' ? record.reason.slice(0, 500) : '' };
}

/** Judges every text criterion of a rubric result; returns the updated result and what the calls cost. */
export async function judgeRubric(
  task: TaskSpec,
  steps: readonly AgentStep[],
  rubric: RubricResult,
  judge: RubricJudge,
  signal?: AbortSignal,
): Promise<{ rubric: RubricResult; costUsd: number; calls: number }> {
  const last = steps[steps.length - 1];
  const final = last && last.observation.ok && last.observation.data.kind === 'final' ? last.observation.data : undefined;
  let costUsd = 0;
  let calls = 0;
  const criteria: CriterionResult[] = [];
  for (const result of rubric.criteria) {
    const criterion = task.rubric?.find((c) => c.id === result.id);
    if (result.kind !== 'text' || !criterion) {
      criteria.push(result);
      continue;
    }
    try {
      calls++;
      const completion = await judge.provider.complete({
        model: judge.model,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: judgePrompt(task, criterion, steps, final, judge.graph) },
        ],
        maxTokens: 300,
        signal,
      });
      costUsd += completion.costUsd;
      const verdict = parseVerdict(completion.message.content);
      criteria.push(
        verdict
          ? { ...result, holds: verdict.satisfied, note: `judge: ${verdict.reason || (verdict.satisfied ? 'satisfied' : 'not satisfied')}` }
          : { ...result, holds: null, note: `unjudged: the judge's reply had no verdict (${capText((completion.message.content ?? '').trim(), 120)})` },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      criteria.push({ ...result, holds: null, note: `unjudged: the judge call failed (${error instanceof Error ? error.message : String(error)})` });
    }
  }
  return { rubric: rubricResultOf(criteria), costUsd, calls };
}

/** verifyTrajectory, then the judge on the text criteria (when one is available), with quality recomputed. */
export async function verifyTrajectoryJudged(
  task: TaskSpec,
  steps: readonly AgentStep[],
  judge: RubricJudge | undefined,
  signal?: AbortSignal,
): Promise<{ verification: Verification; costUsd: number; calls: number }> {
  const verification = verifyTrajectory(task, steps);
  if (!judgeAvailable(judge) || !verification.rubric || !verification.rubric.criteria.some((c) => c.kind === 'text')) {
    return { verification, costUsd: 0, calls: 0 };
  }
  const judged = await judgeRubric(task, steps, verification.rubric, judge, signal);
  const rubric = judged.rubric;
  return {
    verification: { ...verification, rubric, quality: qualityOf(verification.verified, verification.coverage, verification.stepSuccessRate, rubric, verification.grounding?.penalised ?? 0) },
    costUsd: judged.costUsd,
    calls: judged.calls,
  };
}
