/**
 * Trajectories from a run folder: the store's read-only rebuild, each admitted trajectory's steps taken from
 * the `trajectory/admitted` payload's `steps` (the explorer records every step there) or, failing that, by
 * walking `nodePath` through the `node/added` payloads (`step`, else the top-level thought/toolCall/summary).
 * The store keeps each observation's rendered text, not its structured data, so `observation.data` is rebuilt
 * from the text (tables parsed back with the renderer's own parser); the exports only read the text.
 */
import { parseRenderedTable } from '../agent/render';
import type { Observation, ObservationData } from '../agent/tools';
import type { AgentStep, StepConfig } from '../agent/types';
import { FULL_CONTEXT } from '../agent/types';
import type { ToolCallRequest, Usage } from '../llm/types';
import { derivedFilesAhead } from '../store/resumeCheck';
import { RunStore } from '../store/RunStore';
import type { NodeState, RunState, TrajectoryState } from '../store/runState';
import type { ExportRubricResult, ExportTrajectory } from './types';

export interface RunTrajectories {
  runId: string;
  dataFolder: string;
  trajectories: ExportTrajectory[];
  /** Plain-words problems: a trajectory whose task or steps could not be found, truncated observations, a damaged log. */
  warnings: string[];
  state: RunState;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toolCallOf(value: unknown): ToolCallRequest | undefined {
  if (!isRecord(value) || typeof value.name !== 'string') return undefined;
  return { id: typeof value.id === 'string' ? value.id : '', name: value.name, arguments: typeof value.arguments === 'string' ? value.arguments : JSON.stringify(value.arguments ?? {}) };
}

function observationData(ok: boolean, tool: string, text: string, call: ToolCallRequest | undefined): ObservationData {
  if (!ok) return { kind: 'error', message: text.replace(/^Error: /, '') };
  if (tool === 'final_answer' && call) {
    try {
      const args = JSON.parse(call.arguments) as { answer?: unknown; explanation?: unknown };
      return { kind: 'final', answer: String(args.answer ?? ''), explanation: String(args.explanation ?? '') };
    } catch {
      // fall through: recorded as text
    }
  }
  if (tool === 'run_sql') {
    const table = parseRenderedTable(text);
    if (table) return { kind: 'rows', columns: table.columns, rows: table.rows, truncated: /truncated\)$/m.test(text) };
  }
  return { kind: 'stdout', stdout: text };
}

function stepConfigOf(value: unknown): StepConfig {
  const c = isRecord(value) ? value : {};
  return {
    provider: typeof c.provider === 'string' ? c.provider : 'unknown',
    model: typeof c.model === 'string' ? c.model : 'unknown',
    contextLength: isRecord(c.contextLength) ? (c.contextLength as unknown as StepConfig['contextLength']) : FULL_CONTEXT,
    reasoningEffort: c.reasoningEffort === 'low' || c.reasoningEffort === 'medium' || c.reasoningEffort === 'high' ? c.reasoningEffort : undefined,
    simulated: c.simulated === true,
  };
}

/** One recorded step (the explorer's `stepRecord`, or a node payload's own fields) as an AgentStep. */
export function stepFromRecord(record: Record<string, unknown>, index: number, fallback?: NodeState): AgentStep {
  const call = toolCallOf(record.toolCall ?? fallback?.toolCall);
  const obs = isRecord(record.observation) ? record.observation : {};
  const text = typeof obs.text === 'string' ? obs.text : typeof fallback?.observationSummary === 'string' ? fallback.observationSummary : '';
  const ok = typeof obs.ok === 'boolean' ? obs.ok : fallback?.ok === true || (fallback?.status !== 'error' && !text.startsWith('Error:'));
  const tool = typeof obs.tool === 'string' ? obs.tool : call?.name ?? '(none)';
  const usage: Usage = isRecord(record.usage)
    ? { prompt: Number(record.usage.prompt) || 0, completion: Number(record.usage.completion) || 0 }
    : { prompt: fallback?.tokens?.prompt ?? 0, completion: fallback?.tokens?.completion ?? 0 };
  const observation: Observation = { ok, tool, data: observationData(ok, tool, text, call), text, elapsedMs: 0 };
  if (typeof obs.errorKind === 'string') observation.errorKind = obs.errorKind as Observation['errorKind'];
  return {
    index: typeof record.index === 'number' ? record.index : index,
    thought: typeof record.thought === 'string' ? record.thought : typeof fallback?.thought === 'string' ? fallback.thought : '',
    toolCall: call,
    observation,
    usage,
    costUsd: typeof record.costUsd === 'number' ? record.costUsd : fallback?.costUsd ?? 0,
    latencyMs: typeof record.latencyMs === 'number' ? record.latencyMs : fallback?.latencyMs ?? 0,
    config: stepConfigOf(record.config ?? fallback?.config),
    promptTokensEstimate: 0,
    droppedSteps: 0,
  };
}

/** A failed step repaired by the next one with the same tool — the explorer's (and verifier's) definition. */
export function repairedStepIndexes(steps: readonly AgentStep[]): number[] {
  const out: number[] = [];
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    if (!step.observation.ok && next && next.observation.ok && next.toolCall?.name === step.toolCall?.name) out.push(step.index);
  });
  return out;
}

/** An admitted trajectory's steps: its recorded `steps`, else its node path walked through the `node/added` payloads. */
export function stepsOf(trajectory: TrajectoryState, nodes: Map<string, NodeState> | undefined, warnings: string[]): AgentStep[] | undefined {
  if (Array.isArray(trajectory.steps) && trajectory.steps.every(isRecord)) {
    return (trajectory.steps as Record<string, unknown>[]).map((record, i) => stepFromRecord(record, i));
  }
  if (!nodes) return undefined;
  const steps: AgentStep[] = [];
  for (const nodeId of trajectory.nodePath) {
    const node = nodes.get(nodeId);
    if (!node) {
      warnings.push(`${trajectory.trajectoryId}: node ${nodeId} of its path is not in the log`);
      return undefined;
    }
    if (node.parentId === null && node.toolCall === undefined && node.step === undefined) continue; // the root: no step
    const record = isRecord(node.step) ? node.step : {};
    if (!isRecord(node.step)) warnings.push(`${trajectory.trajectoryId}: node ${nodeId} has no step record; its observation is the 400-character summary`);
    steps.push(stepFromRecord(record, steps.length, node));
  }
  return steps;
}

function finalAnswerOf(steps: AgentStep[]): ExportTrajectory['finalAnswer'] {
  for (let i = steps.length - 1; i >= 0; i--) {
    const data = steps[i].observation.data;
    if (steps[i].observation.ok && data.kind === 'final') return { answer: data.answer, explanation: data.explanation };
  }
  return undefined;
}

/** Reads a run folder (never writes it) and returns its admitted trajectories with curation. */
export function trajectoriesFromRun(runDir: string): RunTrajectories {
  const store = RunStore.open(runDir);
  try {
    const state = store.state;
    // The messages name the file and line already.
    const warnings: string[] = store.recovery.issues.map((issue) => issue.message);
    // A log that lost events exports less than the run produced: say so (the derived files still hold it).
    for (const problem of derivedFilesAhead(runDir, state)) warnings.push(`events.jsonl has lost events: ${problem}`);
    const trajectories: ExportTrajectory[] = [];
    for (const t of state.trajectories.values()) {
      const task = state.tasks.get(t.taskId);
      if (!task) {
        warnings.push(`${t.trajectoryId}: its task ${t.taskId} is not in the log; skipped`);
        continue;
      }
      if (task.validation?.status === 'rejected') {
        // Rejected (or superseded) by the revision after exploration: its trajectories answer a faulty task.
        warnings.push(`${t.trajectoryId}: its task ${t.taskId} was ${task.revision?.reason ?? 'rejected'}; skipped`);
        continue;
      }
      const steps = stepsOf(t, state.nodes.get(t.taskId), warnings);
      if (!steps || steps.length === 0) {
        warnings.push(`${t.trajectoryId}: no steps could be read; skipped`);
        continue;
      }
      trajectories.push({
        trajectoryId: t.trajectoryId,
        runId: store.runId,
        task,
        steps,
        finalAnswer: finalAnswerOf(steps),
        quality: t.quality,
        verified: t.verified,
        hasRepair: t.hasRepair ?? repairedStepIndexes(steps).length > 0,
        repairedStepIndexes: repairedStepIndexes(steps),
        curation: t.curation,
        rubric: isRecord(t.rubric) ? (t.rubric as ExportRubricResult) : null,
        simulated: steps.every((s) => s.config.simulated),
      });
    }
    return { runId: store.runId, dataFolder: store.meta.dataFolder, trajectories, warnings, state };
  } finally {
    store.close();
  }
}
