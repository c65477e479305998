/**
 * The one-step revision after a task's first exploration (GraphForge's execution-conditioned revision), as the
 * pipeline runs it: collect the explorer's paths to a final answer, ask the reviser, apply its patch, and follow
 * up — a changed question (normalised hash) makes a new task that is explored again; a change to the rubric's
 * bindings or the answer key re-scores the admitted trajectories with the deterministic verifier, without a
 * single model call. Every review is a `task/revised` event with the before/after diff.
 */
import type { ToolContext } from '../agent/tools';
import type { NodeState, RunState } from '../store/runState';
import type { RunEventInput } from '../store/events';
import type { RunStore } from '../store/RunStore';
import type { EvidenceGraph } from '../taskpool/graph';
import type { ExploredPath, ReviserModel } from '../taskpool/revise';
import { applyTaskPatch, questionHash, reviewTask } from '../taskpool/revise';
import type { FieldChange, TaskRevisionRecord, TaskSpec } from '../taskpool/types';
import type { SearchResult, TrajectoryRecord } from '../explorer/search';
import { nodeStep, stepsOf } from '../explorer/stepRecord';
import type { CleaningOptions, Verification } from '../explorer/verifier';
import { cleaningRejection, qualityOf, rubricResultOf, verifyTrajectory } from '../explorer/verifier';

/** A trajectory re-scored after a rubric-only revision. */
export interface RescoredTrajectory {
  trajectoryId: string;
  qualityBefore: number;
  quality: number;
  verified: boolean;
  /** Still passes the cleaning filters (admission) under the revised rubric and answer key. */
  admitted: boolean;
  rejection?: string;
  rubric: Verification['rubric'] | null;
}

export interface RevisionResult {
  outcome: 'kept' | 'revised' | 'rejected';
  /** Set when the question changed: the new task, to be explored next. */
  reexplore?: TaskSpec;
  rescored: RescoredTrajectory[];
  diff: FieldChange[];
  /** Provider calls the revision made (the LLM reviser's one call; re-scoring makes none). */
  modelCalls: number;
  costUsd: number;
  /** The event(s) to append, in order. */
  events: RunEventInput[];
  line: string;
}

/** An admitted trajectory as re-scoring reads it: its steps and its verification's quality and rubric. */
export interface AdmittedTrajectory {
  trajectoryId: string;
  steps: TrajectoryRecord['steps'];
  verification: Pick<Verification, 'quality' | 'rubric'>;
}

/**
 * What a revision reads of a task's exploration: every path to a final answer, and the admitted trajectories.
 * The pipeline takes it from the search just run, or (on a resume) from the run's events.
 */
export interface ExploredTask {
  paths: ExploredPath[];
  admitted: AdmittedTrajectory[];
}

export interface ReviseOptions {
  task: TaskSpec;
  result: Pick<SearchResult, 'tree' | 'admitted' | 'rejected'> | ExploredTask;
  context: ToolContext;
  graph: EvidenceGraph;
  cleaning: CleaningOptions;
  reviser?: ReviserModel;
  signal?: AbortSignal;
}

/** Every path of the search tree that ends in a final answer, admitted or not. */
export function exploredPaths(taskId: string, result: Pick<SearchResult, 'tree' | 'admitted'>): ExploredPath[] {
  const admitted = new Set(result.admitted.map((t) => t.trajectoryId));
  const paths: ExploredPath[] = [];
  for (const node of result.tree.nodes) {
    const data = node.step?.observation.ok ? node.step.observation.data : undefined;
    if (!data || data.kind !== 'final') continue;
    const trajectoryId = `${taskId}/${node.id}`;
    paths.push({ trajectoryId, steps: result.tree.stepsTo(node.index), answer: data.answer, verified: node.verified === true, admitted: admitted.has(trajectoryId) });
  }
  return paths;
}

/**
 * A finished task's exploration as its run's events recorded it, for a revision that did not happen before a crash:
 * the paths to a final answer walked through the `node/added` payloads, and the admitted trajectories still standing.
 */
export function exploredFromRun(state: RunState, taskId: string): ExploredTask {
  const nodes = state.nodes.get(taskId) ?? new Map<string, NodeState>();
  const warnings: string[] = [];
  const paths: ExploredPath[] = [];
  const admittedIds = new Set<string>();
  const admitted: AdmittedTrajectory[] = [];
  for (const t of state.trajectories.values()) {
    if (t.taskId !== taskId || state.revokedTrajectories.has(t.trajectoryId)) continue;
    const steps = stepsOf(t, nodes, warnings);
    if (!steps) continue;
    admittedIds.add(t.trajectoryId);
    const rubric = (t.rubric ?? undefined) as Verification['rubric'];
    admitted.push({ trajectoryId: t.trajectoryId, steps, verification: { quality: t.quality, rubric } });
  }
  for (const node of nodes.values()) {
    if (node.parentId === null) continue;
    const last = nodeStep(node, 0);
    if (!last.observation.ok || last.observation.data.kind !== 'final') continue;
    const chain: NodeState[] = [];
    for (let at: NodeState | undefined = node; at && at.parentId !== null; at = nodes.get(at.parentId)) chain.unshift(at);
    const steps = chain.map((n, i) => nodeStep(n, i));
    const trajectoryId = `${taskId}/${node.nodeId}`;
    paths.push({ trajectoryId, steps, answer: last.observation.data.answer, verified: node.status === 'verified', admitted: admittedIds.has(trajectoryId) });
  }
  return { paths, admitted };
}

/** Re-scores an admitted trajectory against a revised task (deterministic; an earlier judge's text verdicts are kept). */
export function rescore(task: TaskSpec, record: AdmittedTrajectory, cleaning: CleaningOptions): RescoredTrajectory {
  let verification = verifyTrajectory(task, record.steps);
  const judged = new Map((record.verification.rubric?.criteria ?? []).filter((c) => c.kind === 'text' && c.holds !== null).map((c) => [c.id, c]));
  if (verification.rubric && judged.size > 0) {
    const criteria = verification.rubric.criteria.map((c) => (c.kind === 'text' && judged.has(c.id) ? { ...c, holds: judged.get(c.id)!.holds, note: judged.get(c.id)!.note } : c));
    const rubric = rubricResultOf(criteria);
    verification = { ...verification, rubric, quality: qualityOf(verification.verified, verification.coverage, verification.stepSuccessRate, rubric, verification.grounding?.penalised ?? 0) };
  }
  const rejection = cleaningRejection(record.steps, verification, cleaning, task.evidence.length);
  return {
    trajectoryId: record.trajectoryId,
    qualityBefore: record.verification.quality,
    quality: verification.quality,
    verified: verification.verified,
    admitted: rejection === undefined,
    rejection,
    rubric: verification.rubric ?? null,
  };
}

/** Reviews an explored task once and works out what follows; the caller appends `events` and explores `reexplore`. */
export async function reviseExploredTask(options: ReviseOptions): Promise<RevisionResult> {
  const { task } = options;
  const explored: ExploredTask = 'paths' in options.result ? options.result : { paths: exploredPaths(task.id, options.result), admitted: options.result.admitted };
  const paths = explored.paths;
  const outcome = await reviewTask({ task, profile: options.context.profile, graph: options.graph, context: options.context, paths }, options.reviser, options.signal);
  const { review } = outcome;
  const base = { modelCalls: outcome.modelCalls, costUsd: outcome.costUsd };
  const findings = review.findings;
  if (review.decision === 'keep') {
    return { ...base, outcome: 'kept', rescored: [], diff: [], events: [{ type: 'task/revised', taskId: task.id, outcome: 'kept', reviser: outcome.reviser, findings, diff: [], notes: outcome.notes, modelCalls: outcome.modelCalls }], line: `${task.id}: revision kept the task` };
  }
  if (review.decision === 'reject') {
    const reason = `rejected by revision: ${review.reason ?? findings[findings.length - 1]?.detail ?? 'cannot be fixed'}`;
    const revision: TaskRevisionRecord = { of: task.id, outcome: 'rejected', reviser: outcome.reviser, findings, diff: [], action: 'none', reason };
    const rejected: TaskSpec = { ...task, validation: rejectedValidation(task, reason), revision };
    return {
      ...base,
      outcome: 'rejected',
      rescored: [],
      diff: [],
      events: [{ type: 'task/revised', taskId: task.id, outcome: 'rejected', reviser: outcome.reviser, findings, diff: [], task: rejected, notes: outcome.notes, modelCalls: outcome.modelCalls }],
      line: `${task.id}: rejected by revision (${reason.slice(21)})`,
    };
  }
  const applied = applyTaskPatch(task, review.patch);
  const diff = applied.diff;
  if (diff.length === 0) {
    return { ...base, outcome: 'kept', rescored: [], diff, events: [{ type: 'task/revised', taskId: task.id, outcome: 'kept', reviser: outcome.reviser, findings, diff, notes: outcome.notes, modelCalls: outcome.modelCalls }], line: `${task.id}: revision changed nothing` };
  }
  if (questionHash(applied.task.question) !== questionHash(task.question)) {
    // A new question is a new task: it gets its own id and exploration; the original is kept, superseded.
    const revisedId = `${task.id}-r1`;
    const revision: TaskRevisionRecord = { of: task.id, outcome: 'revised', reviser: outcome.reviser, findings, diff, action: 're-explored' };
    const revised: TaskSpec = { ...applied.task, id: revisedId, revision };
    const superseded: TaskSpec = { ...task, validation: rejectedValidation(task, `superseded by its revision ${revisedId}`), revision: { ...revision, reason: `superseded by ${revisedId}` } };
    return {
      ...base,
      outcome: 'revised',
      reexplore: revised,
      rescored: [],
      diff,
      events: [
        { type: 'task/revised', taskId: task.id, outcome: 'revised', reviser: outcome.reviser, findings, diff, task: superseded, revisedTaskId: revisedId, action: 're-explored', notes: outcome.notes, modelCalls: outcome.modelCalls },
        { type: 'task/added', task: revised },
      ],
      line: `${task.id}: revised (${diff.map((d) => d.field).join(', ')}); the new question is explored as ${revisedId}`,
    };
  }
  const revision: TaskRevisionRecord = { of: task.id, outcome: 'revised', reviser: outcome.reviser, findings, diff, action: 're-scored' };
  const revised: TaskSpec = { ...applied.task, revision };
  // Rubric bindings (or the answer key) changed, not the question: the paths stay valid, only their scores move.
  const rescored = explored.admitted.map((record) => rescore(revised, record, options.cleaning));
  return {
    ...base,
    outcome: 'revised',
    rescored,
    diff,
    events: [{ type: 'task/revised', taskId: task.id, outcome: 'revised', reviser: outcome.reviser, findings, diff, task: revised, action: 're-scored', rescored, notes: outcome.notes, modelCalls: outcome.modelCalls }],
    line: `${task.id}: revised (${diff.map((d) => d.field).join(', ')}); ${rescored.length} trajectories re-scored without model calls, ${rescored.filter((r) => !r.admitted).length} no longer admitted`,
  };
}

function rejectedValidation(task: TaskSpec, reason: string): NonNullable<TaskSpec['validation']> {
  const v = task.validation ?? { status: 'valid' as const, reasons: [], evidenceStable: true, replayed: true, noDataCheck: 'skipped' as const };
  return { ...v, status: 'rejected', reasons: [...v.reasons, reason] };
}

/** Revision counts for a run's summary. */
export interface RevisionTally {
  kept: number;
  revised: number;
  rejected: number;
  reExplored: number;
  reScored: number;
  /** Provider calls revisions made (0 offline; re-scoring never calls a model). */
  modelCalls: number;
}

export const emptyRevisionTally = (): RevisionTally => ({ kept: 0, revised: 0, rejected: 0, reExplored: 0, reScored: 0, modelCalls: 0 });

export function tallyRevision(tally: RevisionTally, revision: RevisionResult): void {
  tally[revision.outcome]++;
  if (revision.reexplore) tally.reExplored++;
  tally.reScored += revision.rescored.length;
  tally.modelCalls += revision.modelCalls;
}

/**
 * Whether a task still gets its one revision: a re-explored question (a revision itself) never does, nor a task
 * the run's log already has a `task/revised` for (a resumed run, a restarted queue collector).
 */
export function awaitsRevision(state: RunState, task: TaskSpec): boolean {
  return !task.revision && !state.revisions.has(task.id);
}

/**
 * Reviews an explored task and writes the revision into its run: the events appended, the tally counted. The
 * single-process pipeline and the queue collector both revise through here; each explores `reexplore` its own way.
 */
export async function reviseIntoRun(store: RunStore, tally: RevisionTally, options: ReviseOptions): Promise<RevisionResult> {
  const revision = await reviseExploredTask(options);
  store.appendMany(revision.events);
  tallyRevision(tally, revision);
  return revision;
}

/**
 * A run's tasks in the order a single process explores them: the pool's, then each re-explored question after
 * the ones before it, in the order of the tasks they revise. A queue collector revises in the order jobs finish,
 * so it orders by this (job pool indices, the cost model's fold) to stay independent of the workers' timing.
 */
export function runTaskOrder(state: RunState): string[] {
  const ids = [...state.tasks.keys()];
  const origin = (id: string) => {
    const of = state.tasks.get(id)!.revision?.of;
    return of !== undefined && of !== id ? of : undefined;
  };
  const pool = ids.filter((id) => origin(id) === undefined);
  const place = new Map(pool.map((id, i) => [id, i]));
  const reexplored = ids.filter((id) => origin(id) !== undefined).sort((a, b) => (place.get(origin(a)!) ?? Infinity) - (place.get(origin(b)!) ?? Infinity));
  return [...pool, ...reexplored];
}
