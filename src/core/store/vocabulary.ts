/**
 * The run's event vocabulary: what each line of `events.jsonl` says. Every event is an envelope
 * `{ v, seq, ts, type }` and a typed payload; this file names the types, the node statuses and every payload's
 * fields, as the explorer, the pipeline, the queue and the extension write them.
 *
 * It imports nothing, so the engine (core/store's zod schemas, the reducers, the writers) and the webview's side
 * (src/shared) read one contract. Two payload fields hold the engine's own structures, which the webview never
 * reads: the task (`Task`, the task pool's TaskSpec in core) and a task's cost-model delta (`Delta`, the learned
 * cost model's); they are type parameters here, bound by core/store/events.ts.
 */

export const EVENT_FORMAT_VERSION = 1;

/** A node's state in the search tree, as the explorer marks it and the panel colours it. */
export const NODE_STATUSES = ['open', 'error', 'repaired', 'terminal', 'verified', 'pruned', 'accepted'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export const RUN_EVENT_TYPES = [
  'run/started',
  'run/resumed',
  'task/added',
  'node/added',
  'node/updated',
  'lcm/decision',
  'trajectory/admitted',
  'trajectory/rejected',
  'curation/accepted',
  'curation/pruned',
  'budget/spent',
  'task/finished',
  'task/revised',
  'run/finished',
  'run/cancelled',
  'run/error',
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

export function isRunEventType(type: string): type is RunEventType {
  return (RUN_EVENT_TYPES as readonly string[]).includes(type);
}

export interface EventEnvelope {
  v: typeof EVENT_FORMAT_VERSION;
  /** 1-based, gap-free within a run folder. */
  seq: number;
  /** ISO 8601 time the store wrote it. */
  ts: string;
}

// ---- the records payloads carry ----

/** What the store and the panel read of a task; the task pool's TaskSpec has these and more. */
export interface TaskRecord {
  id: string;
  family: string;
  question: string;
  answer: { type: string };
  evidence: unknown[];
  difficulty: object;
  tables: string[];
}

export interface TokenCounts {
  prompt?: number;
  completion?: number;
  total?: number;
}

/** A tool call as the model made it: `arguments` is the JSON text exactly as produced (it may be malformed). */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

/** Who produced a step: the provider/model configuration the cost model chose. */
export interface StepConfigRecord {
  provider: string;
  model: string;
  contextLength: { mode: 'full' } | { mode: 'last-k'; k: number };
  reasoningEffort?: 'low' | 'medium' | 'high';
  simulated: boolean;
}

/** One step as the explorer records it (agent/stepRecord.ts writes and reads it). */
export interface StepRecord {
  index: number;
  thought: string;
  toolCall: ToolCallRecord | null;
  /** The observation as the model read it; `text` is the agent's renderer's output (pipe tables for rows). */
  observation: { ok: boolean; tool: string; text: string; errorKind?: string };
  usage: { prompt: number; completion: number; cached?: number; reasoning?: number };
  costUsd: number;
  latencyMs: number;
  config: StepConfigRecord;
  /** The step's grounding audit (agent/grounding.ts): names and literals nothing the agent was shown contains. */
  grounding?: { ungrounded: Array<{ kind: string; text: string; why: string }> };
}

/** What a run was started with; a resume and the queue's workers use the same settings. */
export interface RunConfig {
  /** The cost model's update count at the run's start. */
  costModelUpdates?: number;
  budgetUsd?: number;
  tasks?: number;
  maxK?: number;
  maxDepth?: number;
  targetAdmitted?: number;
  minQuality?: number;
  /** How an expansion's configs are requested: one after another (absent), in waves or all at once (explorer/waves.ts). */
  expansionSchedule?: 'sequential' | 'waves' | 'parallel';
  /** Provider ids whose models form the cost model's arms. */
  providers?: string[];
  /** `provider/model` of every arm model (store/runProviders.ts). */
  models?: string[];
  /** How each provider was set up (never a key), so a resume can rebuild it. */
  providerSettings?: RecordedProvider[];
  /** The cap on the run's model calls (`--max-calls`). */
  maxCalls?: number;
  /** The cost model the run started from and where its learning goes (lcm/location.ts writes it). */
  costModel?: CostModelOriginRecord;
  /** `i/N` for one shard of a sharded run. */
  shard?: string;
  /** A shard's whole task pool size. */
  poolTasks?: number;
  /** The run ids a `toffee merge` combined. */
  mergedFrom?: string[];
}

/** One provider as a run records it: what rebuilds it, and the CLI flags that do (set by the CLI). */
export interface RecordedProvider {
  /** Provider id (`offline-sim`, `openai`, a toffee.config.json provider name…). */
  id: string;
  /** The `--provider` value that rebuilds it (a config provider name, `openai`, `offline-sim`). */
  provider?: string;
  baseUrl?: string;
  models?: string[];
  /** The environment variable that holds its key (the key itself is never recorded). */
  apiKeyEnv?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Price overrides given with --price (USD per million tokens). */
  prices?: Record<string, { inputPerMTok: number; outputPerMTok: number }>;
  /** The flags that rebuild it, e.g. `--provider openai --base-url http://… --models a,b`. */
  flags?: string;
}

/** What a run's cost model started from, as lcm/location.ts's CostModelOrigin records it. */
export interface CostModelOriginRecord {
  source: 'environment' | 'fresh' | 'file';
  file?: string;
  /** Earlier runs whose learning the starting model holds. */
  trainedByRuns: number;
  /** Updates in the starting model. */
  updates: number;
  /** Where this run's learning is written, or why it is not. */
  writtenTo?: string;
  notWrittenBecause?: string;
}

/** A rubric's score for one trajectory (explorer/verifier.ts scores it). */
export interface RubricRecord {
  score: number | null;
  criteria: Array<{ id: string; kind: string; holds: boolean | null; weight: number; polarity: 'positive' | 'negative'; note?: string }>;
  unjudged: number;
}

/** The prefix cache's counters at a task's end. */
export interface PrefixStatsRecord {
  requests: number;
  executions: number;
  prefixHits: number;
  callHits: number;
  savedElapsedMs: number;
  trieNodes: number;
  sharedNodes: number;
}

// ---- payloads, by event type ----

export interface RunStartedPayload {
  runId: string;
  dataFolder: string;
  seed?: number;
  config?: RunConfig;
  toolVersion?: string;
}

/** Written by whoever reopens a run after a crash or a stop, before continuing it. */
export interface RunResumedPayload {
  pid?: number;
  /** What the reopen repaired (torn bytes dropped), for the record. */
  truncatedBytes?: number;
  costModelUpdates?: number;
}

export interface TaskAddedPayload<Task extends TaskRecord = TaskRecord> {
  task: Task;
  /** A shard's task keeps its place in the whole pool: `toffee merge` restores the pool order from it. */
  poolIndex?: number;
}

export interface NodeAddedPayload {
  taskId: string;
  nodeId: string;
  /** null for a root. */
  parentId: string | null;
  status: NodeStatus;
  depth?: number;
  thought?: string;
  toolCall?: ToolCallRecord | null;
  /** The configuration that produced the edge into this node, and the cost model's arm. */
  config?: StepConfigRecord & { operator?: string; armId?: string };
  costUsd?: number;
  tokens?: TokenCounts;
  latencyMs?: number;
  /** The observation's text, cut to 400 characters. */
  observationSummary?: string;
  ok?: boolean;
  reward?: number;
  /** The PUCT prior the node got from its expansion. */
  prior?: number;
  /** The whole step, observation text uncut. */
  step?: StepRecord;
}

export interface NodeUpdatedPayload {
  taskId: string;
  nodeId: string;
  status?: NodeStatus;
  visits?: number;
  value?: number;
  reward?: number;
}

/** One candidate the cost model scored at a decision (the eight best). */
export interface DecisionCandidate {
  armId: string;
  mu: number;
  sigma: number;
  cost: number;
  score: number;
  /** Why the arm was not eligible (over budget, tried already), or null. */
  excluded: string | null;
}

/** The cost model's choice at one expansion, as carried out. */
export interface LcmDecisionPayload {
  taskId: string;
  /** The node being expanded. */
  nodeId?: string;
  /** Configs that ran. */
  k: number;
  /** The width the cost model chose before the budget narrowed it or the expansion stopped early. */
  modelK?: number;
  /** Arm ids, one per config that ran, best first. */
  arms?: string[];
  mu?: number[];
  sigma?: number[];
  /** Why this width, in plain words. */
  kReason?: string;
  /** The cost model's decision counter. */
  index?: number;
  candidates?: DecisionCandidate[];
}

export interface TrajectoryAdmittedPayload {
  /** Deterministic ids make re-admission after a resume idempotent: a repeated id is ignored by the reducer. */
  trajectoryId: string;
  taskId: string;
  /** Node ids from the root to the terminal node. */
  nodePath: string[];
  quality: number;
  verified: boolean;
  answer?: string;
  hasRepair?: boolean;
  tags?: string[];
  question?: string;
  family?: string;
  /** Evidence anchors reproduced, 0..1. */
  coverage?: number;
  stepSuccessRate?: number;
  repairedErrors?: number;
  rubric?: RubricRecord | null;
  /** `provider/model` of the steps. */
  models?: string[];
  simulated?: boolean;
  costUsd?: number;
  steps?: StepRecord[];
}

export interface TrajectoryRejectedPayload {
  taskId: string;
  reason: string;
  trajectoryId?: string;
  quality?: number;
}

export interface CurationPayload {
  trajectoryId: string;
  note?: string;
}

/** The spend ledger: the only events that count toward a run's spend (node costs are informational). */
export interface BudgetSpentPayload {
  costUsd: number;
  taskId?: string;
  tokens?: TokenCounts;
  calls?: number;
}

export interface TaskFinishedPayload<Delta = unknown> {
  taskId: string;
  /** Why the search stopped. A cancelled task is not marked finished, so a resume picks it up again. */
  reason: string;
  bestQuality?: number;
  expansions?: number;
  spentUsd?: number;
  prefix?: PrefixStatsRecord;
  /** The run's cost model's update count after this task's delta (single-process runs). */
  costModelUpdates?: number;
  /** What the task's exploration taught the cost model, from the run-start snapshot. */
  costModelDelta?: Delta;
  /** The queue worker that explored it (`host:pid`). */
  worker?: string;
}

/** The one-step revision of a task after its first exploration: what the reviser found and changed. */
export interface TaskRevisedPayload<Task extends TaskRecord = TaskRecord> {
  taskId: string;
  outcome: 'kept' | 'revised' | 'rejected';
  reviser: string;
  findings: Array<{ check: string; detail: string }>;
  /** Field by field, before and after. */
  diff: Array<{ field: string; before: unknown; after: unknown }>;
  /** The task as it stands after the revision (absent when kept). */
  task?: Task;
  /** When the question changed: the id of the new task explored in its place. */
  revisedTaskId?: string;
  action?: 're-explored' | 're-scored' | 'none';
  /** Admitted trajectories re-scored after a rubric-only change (zero model calls). */
  rescored?: Array<{ trajectoryId: string; qualityBefore: number; quality: number; verified: boolean; admitted: boolean; rubric?: RubricRecord | null }>;
  notes?: string[];
  modelCalls?: number;
}

export interface RunFinishedPayload {
  /** The mode's summary (a single process's, the queue collector's or a merge's), for the record. */
  summary?: object;
}

/**
 * Written when a run stops because its user cancelled it (the CLI's Ctrl-C, the extension's Cancel): the run is
 * not finished and can be resumed; readers show it as cancelled rather than as a crash.
 */
export interface RunCancelledPayload {
  /** Tasks finished when it stopped. */
  tasksFinished?: number;
  reason?: string;
}

export interface RunErrorPayload {
  message: string;
  taskId?: string;
  fatal?: boolean;
}

/** type → payload: the one table the TypeScript types and the store's zod schemas follow. */
export interface EventPayloads<Task extends TaskRecord = TaskRecord, Delta = unknown> {
  'run/started': RunStartedPayload;
  'run/resumed': RunResumedPayload;
  'task/added': TaskAddedPayload<Task>;
  'node/added': NodeAddedPayload;
  'node/updated': NodeUpdatedPayload;
  'lcm/decision': LcmDecisionPayload;
  'trajectory/admitted': TrajectoryAdmittedPayload;
  'trajectory/rejected': TrajectoryRejectedPayload;
  'curation/accepted': CurationPayload;
  'curation/pruned': CurationPayload;
  'budget/spent': BudgetSpentPayload;
  'task/finished': TaskFinishedPayload<Delta>;
  'task/revised': TaskRevisedPayload<Task>;
  'run/finished': RunFinishedPayload;
  'run/cancelled': RunCancelledPayload;
  'run/error': RunErrorPayload;
}

/** A stored event of one type. */
export type EventOf<K extends RunEventType, P extends EventPayloads<TaskRecord, unknown> = EventPayloads> = EventEnvelope & { type: K } & P[K];

/** Any known stored event. */
export type AnyEvent<P extends EventPayloads<TaskRecord, unknown> = EventPayloads> = { [K in RunEventType]: EventOf<K, P> }[RunEventType];
