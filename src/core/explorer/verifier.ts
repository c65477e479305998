/**
 * The deterministic verifier, trajectory quality and cleaning filters. Verification is separate from
 * execution: it reads the task's answer key, evidence anchors and rubric, which the agent never sees.
 */
import { repairedErrorIndices, stepCode } from '../agent/steps';
import { answerDependsOnUngrounded, auditGrounding, type GroundingSources, type StepGrounding, type UngroundedItem } from '../agent/grounding';
import type { AgentStep } from '../agent/types';
import { codeSimilarity } from '../sim/history';
import { matchesAnswer, normalizeText, numbersIn, statesAnswer } from '../taskpool/answer';
import type { EvidenceStep, RubricCriterion, TaskSpec } from '../taskpool/types';
import { containsWord } from '../text/regex';
import { checkIntermediate, checkIntermediates, describeContradiction, type IntermediateCheck } from './intermediates';

function cellText(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  return normalizeText(String(value ?? ''));
}

/** Whether an observation reproduces an evidence step's recorded result (same first rows, cell by cell). */
function reproducesResult(step: AgentStep, evidence: EvidenceStep): boolean {
  const expected = evidence.result;
  if (!expected || expected.rows.length === 0) return false;
  const data = step.observation.data;
  if (data.kind === 'rows') {
    if (data.rows.length < expected.rows.length) return false;
    return expected.rows.every((row, r) => row.length === data.rows[r].length && row.every((cell, c) => cellText(cell) === cellText(data.rows[r][c])));
  }
  if (data.kind === 'stdout') {
    // Python evidence records its printed values; each must appear in the output.
    const out = normalizeText(data.stdout);
    return expected.rows.every((row) => row.every((cell) => out.includes(cellText(cell))));
  }
  return false;
}

/**
 * Which evidence steps a path's successful steps reproduce: by result when the evidence recorded one, else by
 * code similarity (the same threshold the simulated models' progress uses).
 */
export function coveredEvidence(task: TaskSpec, steps: readonly AgentStep[]): Set<number> {
  const covered = new Set<number>();
  for (const step of steps) {
    if (!step.observation.ok) continue;
    const code = stepCode(step);
    if (code === undefined) continue;
    task.evidence.forEach((evidence, index) => {
      if (covered.has(index) || evidence.tool !== step.toolCall?.name) return;
      if (reproducesResult(step, evidence) || codeSimilarity(code, evidence.code) >= 0.55) covered.add(index);
    });
  }
  return covered;
}

/** How far a path has got with the task program, by the results it reached (`analyticState`). */
export interface AnalyticState {
  /** 0..1: program steps reached, less those whose sub-answer the path reports with wrong figures. */
  progress: number;
  /** The path reports a sub-answer with wrong figures (and never with the right ones): every answer below is rejected as off a wrong intermediate. */
  contradicted: boolean;
}

/**
 * Analytic progress of a path: the share of the task program's steps whose result the path has really reached. A
 * step with a sub-answer counts when a step of the path reports it with the reference's figures
 * (`checkIntermediate`), or reproduces the step's recorded result without contradicting it, and costs one when the
 * path reports it only with wrong figures; a step with a recorded result and no sub-answer (the last, whose key is
 * the answer) counts when a step reproduces that result; a step with neither counts by code similarity, as evidence
 * coverage does. Unlike coverage, a query that only looks like the reference (the same CTE with the wrong join key)
 * earns nothing: the search's reward for open states and the cost model's learning both read this, so a config
 * whose queries return wrong figures is not rewarded for them.
 */
export function analyticState(task: TaskSpec, steps: readonly AgentStep[]): AnalyticState {
  if (task.evidence.length === 0) return { progress: 1, contradicted: false };
  const ok = steps.filter((s) => s.observation.ok && s.toolCall !== undefined);
  let reached = 0;
  let contradicted = false;
  task.evidence.forEach((evidence, index) => {
    const sameTool = ok.filter((s) => s.toolCall?.name === evidence.tool);
    if (evidence.subAnswer) {
      const check = checkIntermediate(evidence, index, evidence.subAnswer.key, sameTool);
      if (check.agrees || (!check.contradicted && sameTool.some((s) => reproducesResult(s, evidence)))) reached++;
      else if (check.contradicted) {
        reached--;
        contradicted = true;
      }
    } else if (evidence.result && evidence.result.rows.length > 0) {
      if (sameTool.some((s) => reproducesResult(s, evidence))) reached++;
    } else if (sameTool.some((s) => codeSimilarity(stepCode(s) ?? '', evidence.code) >= 0.55)) reached++;
  });
  return { progress: Math.max(0, reached) / task.evidence.length, contradicted };
}

/** The progress part of `analyticState`. */
export function analyticProgress(task: TaskSpec, steps: readonly AgentStep[]): number {
  return analyticState(task, steps).progress;
}

/**
 * Whether a path has attempted the task program's last step (its code is the step's, by the coverage threshold, or
 * it reproduces the step's result). An answer given before that is premature: it says nothing about how the results
 * seen so far read, only that the agent stopped early.
 */
export function attemptedLastStep(task: TaskSpec, steps: readonly AgentStep[]): boolean {
  const last = task.evidence.length - 1;
  if (last < 0) return true;
  const evidence = task.evidence[last];
  return steps.some((step) => {
    const code = stepCode(step);
    if (!step.observation.ok || code === undefined || step.toolCall?.name !== evidence.tool) return false;
    if (reproducesResult(step, evidence)) return true;
    // A step that reproduces an earlier program step's result was that step (a Python step that repeats the one before
    // it and adds a line is as like the one as the other by its code).
    if (task.evidence.some((other, i) => i !== last && other.tool === evidence.tool && reproducesResult(step, other))) return false;
    // Otherwise it is the attempt at the program step its code is most like: the steps of one program often share a
    // CTE, so a query for step 2 is also "similar" to step 3 by the threshold alone.
    const similarity = codeSimilarity(code, evidence.code);
    return similarity >= 0.55 && task.evidence.every((other, i) => i === last || other.tool !== evidence.tool || codeSimilarity(code, other.code) <= similarity);
  });
}

export function evidenceCoverage(task: TaskSpec, steps: readonly AgentStep[]): number {
  return task.evidence.length === 0 ? 1 : coveredEvidence(task, steps).size / task.evidence.length;
}

export interface CriterionResult {
  id: string;
  kind: string;
  /** null: not judged (a text criterion without an LLM judge). */
  holds: boolean | null;
  weight: number;
  polarity: 'positive' | 'negative';
  /** For text criteria: the LLM judge's reason, or why the criterion stayed unjudged. */
  note?: string;
}

export interface RubricResult {
  /** 0..1 over the judged criteria; null when none could be judged. */
  score: number | null;
  criteria: CriterionResult[];
  unjudged: number;
}

/**
 * The schema the trajectory ran against, when the scorer knows it: a named table or column counts only when it
 * resolves to a real one. SQLite reads a double-quoted name that is not a column as a string literal, so a step
 * can "mention" a column that does not exist and still succeed; this closes that gap.
 */
export interface RubricEnvironment {
  /** The table's columns, or undefined when there is no such table. */
  columnsOf(table: string): readonly string[] | undefined;
}

/**
 * Checks the rubric's mechanical criteria against the trajectory; text criteria stay unjudged offline. With the
 * task's `evidence`, a sub-answer criterion also checks the figures of the step that reports it
 * (`checkIntermediate`): a step that names the right value with the wrong figures does not reach it.
 */
export function scoreRubric(rubric: readonly RubricCriterion[], steps: readonly AgentStep[], finalAnswer: { answer: string; explanation: string } | undefined, environment?: RubricEnvironment, evidence?: readonly EvidenceStep[]): RubricResult {
  const okSteps = steps.filter((s) => s.observation.ok);
  const texts = okSteps.map((s) => {
    const args = s.observation.args ?? {};
    return [stepCode(s) ?? '', typeof args.table === 'string' ? args.table : ''].join(' ');
  });
  const anyText = (predicate: (text: string) => boolean) => texts.some(predicate);
  const answerText = finalAnswer ? `${finalAnswer.answer} ${finalAnswer.explanation}` : '';
  const realTable = (table: string) => !environment || environment.columnsOf(table) !== undefined;
  const realColumn = (table: string, column: string) => !environment || (environment.columnsOf(table) ?? []).some((c) => c.toLowerCase() === column.toLowerCase());
  const criteria = rubric.map((criterion): CriterionResult => {
    const check = criterion.check;
    let holds: boolean | null;
    let note: string | undefined;
    switch (check.kind) {
      case 'uses_table':
        holds = realTable(check.table) && anyText((t) => containsWord(t, check.table));
        break;
      case 'uses_column':
        holds = realColumn(check.table, check.column) && anyText((t) => containsWord(t, check.column) && containsWord(t, check.table));
        break;
      case 'joins_on':
        holds = realColumn(check.left.table, check.left.column) && realColumn(check.right.table, check.right.column) && okSteps.some((s) => {
          const code = stepCode(s) ?? '';
          return /\bjoin\b|merge|zip\(/i.test(code) && containsWord(code, check.left.column) && containsWord(code, check.right.column);
        });
        break;
      case 'final_value':
        holds = finalAnswer !== undefined && matchesAnswer(check.answer, finalAnswer.answer);
        break;
      case 'reports_values': {
        const said = normalizeText(answerText);
        holds = finalAnswer !== undefined && check.values.every((v) => said.includes(normalizeText(v)));
        break;
      }
      case 'uses_document':
        holds = okSteps.some((s) => {
          if (s.toolCall?.name !== 'read_document' && s.toolCall?.name !== 'search_documents') return false;
          const data = s.observation.data;
          if (data.kind === 'document') return normalizeText(data.document) === normalizeText(check.document) && (!check.section || normalizeText(data.section ?? '').includes(normalizeText(check.section)));
          if (data.kind === 'search') return data.hits.some((h) => normalizeText(h.document) === normalizeText(check.document));
          return false;
        });
        break;
      case 'uses_parameter':
        holds = okSteps.some((s) => numbersIn(stepCode(s) ?? '').some((n) => Math.abs(n - check.value) <= 1e-9 * Math.max(1, Math.abs(check.value))));
        break;
      case 'sub_answer': {
        const reported = evidence?.[check.step] ? checkIntermediate(evidence[check.step], check.step, check.answer, steps) : undefined;
        if (reported?.contradicted) {
          holds = false;
          note = describeContradiction(reported, check.answer);
        } else {
          holds = reported?.agrees || okSteps.some((s) => statesAnswer(check.answer, s.observation.text)) || (finalAnswer !== undefined && statesAnswer(check.answer, answerText));
        }
        break;
      }
      case 'text':
        holds = null;
        break;
    }
    return { id: criterion.id, kind: check.kind, holds, weight: criterion.weight, polarity: criterion.polarity, ...(note ? { note } : {}) };
  });
  return rubricResultOf(criteria);
}

/** The rubric score over the criteria that were judged (mechanically or by the LLM judge). */
export function rubricResultOf(criteria: CriterionResult[]): RubricResult {
  const judged = criteria.filter((c) => c.holds !== null);
  const positiveTotal = judged.filter((c) => c.polarity === 'positive').reduce((s, c) => s + Math.abs(c.weight), 0);
  let score: number | null = null;
  if (judged.length > 0) {
    const earned = judged.filter((c) => c.polarity === 'positive' && c.holds).reduce((s, c) => s + Math.abs(c.weight), 0);
    const lost = judged.filter((c) => c.polarity === 'negative' && c.holds).reduce((s, c) => s + Math.abs(c.weight), 0);
    score = positiveTotal > 0 ? Math.max(0, Math.min(1, (earned - lost) / positiveTotal)) : lost > 0 ? 0 : 1;
  }
  return { score, criteria, unjudged: criteria.length - judged.length };
}

export interface Verification {
  /** The final answer matches the answer key. */
  verified: boolean;
  answer?: string;
  /** Evidence anchors reproduced, 0..1. */
  coverage: number;
  /** Successful steps among those not repaired, 0..1. */
  stepSuccessRate: number;
  repairedErrors: number;
  rubric?: RubricResult;
  /** The grounding audit of the path; absent when its steps were not audited (steps read back from a run). */
  grounding?: TrajectoryGrounding;
  /** Sub-answers of the task program that the path's own steps report with figures other than the reference's (absent on a verification read back from a run written before the check). */
  wrongIntermediates?: IntermediateCheck[];
  /** 0..1. */
  quality: number;
}

/** A path's grounding audit, summed up: what the quality penalty and the export's cleaning filter read. */
export interface TrajectoryGrounding {
  /** The steps with ungrounded items (by step index). */
  steps: Array<{ step: number; ok: boolean; ungrounded: UngroundedItem[] }>;
  /** Distinct ungrounded items (kind and text) in steps that succeeded: what the quality penalty counts. */
  penalised: number;
  /** The ungrounded literals the final answer depends on (`answerDependsOnUngrounded`). */
  answerDependsOn: Array<UngroundedItem & { step: number }>;
}

/**
 * The grounding of a path: audited afresh against `sources` when given, else read from the audit `runStep`
 * recorded on each step; undefined when neither is there.
 */
export function trajectoryGrounding(steps: readonly AgentStep[], sources?: GroundingSources): TrajectoryGrounding | undefined {
  if (!sources && !steps.some((s) => s.grounding !== undefined)) return undefined;
  const audits: Array<StepGrounding | undefined> = sources ? auditGrounding(steps, sources) : steps.map((s) => s.grounding);
  const withItems = steps
    .map((s, i) => ({ step: s.index, ok: s.observation.ok, ungrounded: audits[i]?.ungrounded ?? [] }))
    .filter((s) => s.ungrounded.length > 0);
  return {
    steps: withItems,
    penalised: new Set(withItems.filter((s) => s.ok).flatMap((s) => s.ungrounded.map((u) => `${u.kind}\u0000${u.text.toLowerCase()}`))).size,
    answerDependsOn: answerDependsOnUngrounded(steps, audits),
  };
}

/** Weights of the quality score: the verified answer dominates; evidence, clean execution and rubric refine it. */
export const QUALITY_WEIGHTS = { answer: 0.5, coverage: 0.25, success: 0.15, rubric: 0.1 } as const;

/**
 * The grounding penalty, subtracted from the weighted score: per distinct ungrounded table, column or literal in the
 * steps that succeeded (an invented name in a failed step already costs through the failure and its repair; one
 * invented value reused in three queries is one invention), capped. One invented threshold takes a perfect
 * trajectory to 0.95 — still admitted, ranked below a grounded sibling, and left
 * out of exports when the answer depends on it; four or more cost the cap, 0.2.
 */
export const GROUNDING_PENALTY = { perItem: 0.05, max: 0.2 } as const;

export interface VerifyOptions {
  /** Audit the steps' grounding against these sources instead of reading the audit recorded on each step. */
  grounding?: GroundingSources;
}

/** Verifies a path that ends (or not) in a final answer and scores its quality. */
export function verifyTrajectory(task: TaskSpec, steps: readonly AgentStep[], options: VerifyOptions = {}): Verification {
  const last = steps[steps.length - 1];
  const final = last && last.observation.ok && last.observation.data.kind === 'final' ? last.observation.data : undefined;
  const verified = final !== undefined && matchesAnswer(task.answer, final.answer);
  const coverage = evidenceCoverage(task, steps);
  const repaired = repairedErrorIndices(steps);
  const counted = steps.length - repaired.length;
  const failures = steps.filter((s, i) => !s.observation.ok && !repaired.includes(i)).length;
  const stepSuccessRate = counted > 0 ? (counted - failures) / counted : 0;
  const rubric = task.rubric && task.rubric.length > 0 ? scoreRubric(task.rubric, steps, final, undefined, task.evidence) : undefined;
  const grounding = trajectoryGrounding(steps, options.grounding);
  return {
    verified,
    answer: final?.answer,
    coverage,
    stepSuccessRate,
    repairedErrors: repaired.length,
    rubric,
    grounding,
    wrongIntermediates: checkIntermediates(task.evidence, steps).filter((c) => c.contradicted),
    quality: qualityOf(verified, coverage, stepSuccessRate, rubric, grounding?.penalised ?? 0),
  };
}

/** The quality score from its parts (also recomputed after an LLM judge fills in text criteria). */
export function qualityOf(verified: boolean, coverage: number, stepSuccessRate: number, rubric: RubricResult | undefined, ungrounded = 0): number {
  const rubricScore = rubric?.score ?? coverage;
  const w = QUALITY_WEIGHTS;
  const penalty = Math.min(GROUNDING_PENALTY.max, GROUNDING_PENALTY.perItem * ungrounded);
  const raw = Math.max(0, (verified ? w.answer : 0) + w.coverage * coverage + w.success * stepSuccessRate + w.rubric * rubricScore - penalty);
  // An unverified answer can never look good, however tidy the path.
  return round(verified ? raw : Math.min(raw, 0.4));
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

export interface CleaningOptions {
  /** Admission threshold on quality (default 0.9). */
  minQuality: number;
  /** Most tool calls a trajectory may have (default 12). */
  maxToolCalls: number;
  /** Highest share of failed steps, repaired ones not counted (default 0.34). */
  maxFailureRate: number;
  /** Lowest evidence coverage at the answer; below it a (lucky) answer is premature (default 0.5). */
  minCoverageAtAnswer: number;
}

export const DEFAULT_CLEANING: CleaningOptions = { minQuality: 0.9, maxToolCalls: 12, maxFailureRate: 0.34, minCoverageAtAnswer: 0.5 };

export type RejectionReason =
  | 'no-answer'
  | 'unverified'
  | 'repeated-call'
  | 'too-many-calls'
  | 'failure-rate'
  | 'truncated-observation'
  | 'premature-answer'
  | 'wrong-intermediate'
  | 'low-quality';

/** The first cleaning filter a trajectory fails, or undefined when it is admitted. */
/** Tool calls a task program's each further step needs: its query, and the discovery before it (a describe, a lookup). */
export const DEPTH_PER_STEP = 2;

/**
 * Why a trajectory is not admitted, or undefined. `programSteps` is the task program's length: the call limit grows
 * with it as the search's depth does (`DEPTH_PER_STEP` more per further step), or a 4-step program could reach its
 * answer only with the calls a one-step task is allowed.
 */
export function cleaningRejection(steps: readonly AgentStep[], verification: Verification, options: CleaningOptions = DEFAULT_CLEANING, programSteps = 1): RejectionReason | undefined {
  if (verification.answer === undefined) return 'no-answer';
  if (!verification.verified) return 'unverified';
  const seen = new Set<string>();
  for (const step of steps) {
    if (!step.toolCall || !step.observation.ok) continue;
    const key = `${step.toolCall.name}\u0000${step.toolCall.arguments}`;
    if (seen.has(key)) return 'repeated-call';
    seen.add(key);
  }
  if (steps.length > options.maxToolCalls + DEPTH_PER_STEP * Math.max(0, programSteps - 1)) return 'too-many-calls';
  if (1 - verification.stepSuccessRate > options.maxFailureRate) return 'failure-rate';
  if (steps.some((s) => s.observation.ok && 'truncated' in s.observation.data && s.observation.data.truncated === true)) return 'truncated-observation';
  if (verification.coverage < options.minCoverageAtAnswer) return 'premature-answer';
  // The answer matches, but a step on the way reports a sub-answer with figures the reference does not have: the
  // answer does not follow from what the trajectory showed.
  if ((verification.wrongIntermediates ?? []).length > 0) return 'wrong-intermediate';
  if (verification.quality < options.minQuality) return 'low-quality';
  return undefined;
}
