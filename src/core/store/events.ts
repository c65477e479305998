/**
 * The run's event vocabulary: every line of `events.jsonl` is one `RunEvent`, an envelope
 * `{ v: 1, seq, ts, type, ...payload }`. Payloads are loose objects: the explorer and webview may add fields
 * without a store change, and unknown fields survive a read → write round trip. Unknown event types (or a newer
 * envelope version) are kept as `UnknownRunEvent` and skipped by the state reducer, never fatal.
 */
import { z } from 'zod';
import type { TaskSpec } from '../taskpool/types';

export const EVENT_FORMAT_VERSION = 1;

/** Node statuses shared by the explorer and the webview's colours. */
export const NODE_STATUSES = ['open', 'error', 'repaired', 'terminal', 'verified', 'pruned', 'accepted'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

export interface TokenCounts {
  prompt?: number;
  completion?: number;
  total?: number;
}

export interface RunStartedPayload {
  runId: string;
  dataFolder: string;
  seed?: number;
  config?: unknown;
  toolVersion?: string;
  [extra: string]: unknown;
}

/** Written by whoever reopens a run after a crash or a stop, before continuing it. */
export interface RunResumedPayload {
  pid?: number;
  /** What the reopen repaired (torn bytes dropped), for the record. */
  truncatedBytes?: number;
  [extra: string]: unknown;
}

export interface TaskAddedPayload {
  task: TaskSpec;
  [extra: string]: unknown;
}

export interface NodeAddedPayload {
  taskId: string;
  nodeId: string;
  /** null for a root. */
  parentId: string | null;
  status: NodeStatus | string;
  depth?: number;
  thought?: string;
  toolCall?: unknown;
  /** The configuration that produced the edge into this node (provider, model, context length, effort, operator). */
  config?: unknown;
  costUsd?: number;
  tokens?: TokenCounts;
  latencyMs?: number;
  observationSummary?: string;
  [extra: string]: unknown;
}

export interface NodeUpdatedPayload {
  taskId: string;
  nodeId: string;
  status?: NodeStatus | string;
  visits?: number;
  value?: number;
  reward?: number;
  [extra: string]: unknown;
}

export interface LcmDecisionPayload {
  taskId: string;
  /** The node being expanded. */
  nodeId?: string;
  k: number;
  arms?: unknown[];
  mu?: number | number[];
  sigma?: number | number[];
  [extra: string]: unknown;
}

export interface TrajectoryAdmittedPayload {
  /** Deterministic ids make re-admission after a resume idempotent: a repeated id is ignored by the reducer. */
  trajectoryId: string;
  taskId: string;
  /** Node ids from the root to the terminal node. */
  nodePath: string[];
  quality: number;
  verified: boolean;
  answer?: unknown;
  hasRepair?: boolean;
  tags?: string[];
  [extra: string]: unknown;
}

export interface TrajectoryRejectedPayload {
  taskId: string;
  reason: string;
  trajectoryId?: string;
  [extra: string]: unknown;
}

export interface CurationPayload {
  trajectoryId: string;
  note?: string;
  [extra: string]: unknown;
}

/** The spend ledger: the only events that count toward `RunState.spend` (node costs are informational). */
export interface BudgetSpentPayload {
  costUsd: number;
  taskId?: string;
  tokens?: TokenCounts;
  calls?: number;
  [extra: string]: unknown;
}

export interface TaskFinishedPayload {
  taskId: string;
  /** Why the search stopped. A cancelled task should not be marked finished, so a resume picks it up again. */
  reason: 'solved' | 'budget' | 'exhausted' | 'failed' | string;
  bestQuality?: number;
  [extra: string]: unknown;
}

/** The one-step revision of a task after its first exploration: what the reviser found and changed. */
export interface TaskRevisedPayload {
  taskId: string;
  outcome: 'kept' | 'revised' | 'rejected';
  reviser: string;
  findings: Array<{ check: string; detail: string }>;
  /** Field by field, before and after. */
  diff: Array<{ field: string; before: unknown; after: unknown }>;
  /** The task as it stands after the revision (absent when kept). */
  task?: TaskSpec;
  /** When the question changed: the id of the new task explored in its place. */
  revisedTaskId?: string;
  action?: 're-explored' | 're-scored' | 'none';
  /** Admitted trajectories re-scored after a rubric-only change (zero model calls). */
  rescored?: Array<{ trajectoryId: string; qualityBefore: number; quality: number; verified: boolean; admitted: boolean; rubric?: unknown }>;
  modelCalls?: number;
  [extra: string]: unknown;
}

/**
 * Written when a run stops because its user cancelled it (the CLI's Ctrl-C, the extension's Cancel): the run is
 * not finished and can be resumed; readers show it as cancelled rather than as a crash.
 */
export interface RunCancelledPayload {
  /** Tasks finished when it stopped. */
  tasksFinished?: number;
  reason?: string;
  [extra: string]: unknown;
}

export interface RunFinishedPayload {
  summary?: unknown;
  [extra: string]: unknown;
}

export interface RunErrorPayload {
  message: string;
  taskId?: string;
  fatal?: boolean;
  [extra: string]: unknown;
}

/** type → payload; the one table both the TypeScript types and the zod schemas follow. */
export interface RunEventPayloads {
  'run/started': RunStartedPayload;
  'run/resumed': RunResumedPayload;
  'task/added': TaskAddedPayload;
  'node/added': NodeAddedPayload;
  'node/updated': NodeUpdatedPayload;
  'lcm/decision': LcmDecisionPayload;
  'trajectory/admitted': TrajectoryAdmittedPayload;
  'trajectory/rejected': TrajectoryRejectedPayload;
  'curation/accepted': CurationPayload;
  'curation/pruned': CurationPayload;
  'budget/spent': BudgetSpentPayload;
  'task/finished': TaskFinishedPayload;
  'task/revised': TaskRevisedPayload;
  'run/finished': RunFinishedPayload;
  'run/cancelled': RunCancelledPayload;
  'run/error': RunErrorPayload;
}

export type RunEventType = keyof RunEventPayloads;

export interface EventEnvelope {
  v: typeof EVENT_FORMAT_VERSION;
  /** 1-based, gap-free within a run folder. */
  seq: number;
  /** ISO 8601 time the store wrote it. */
  ts: string;
}

/** What a caller appends: the type and payload; the store assigns v, seq and ts. */
export type RunEventInput = { [K in RunEventType]: { type: K } & RunEventPayloads[K] }[RunEventType];
export type RunEventOf<K extends RunEventType> = EventEnvelope & { type: K } & RunEventPayloads[K];
export type RunEvent = { [K in RunEventType]: RunEventOf<K> }[RunEventType];

/** An event this version does not understand (a newer type or envelope version): kept, not interpreted. */
export interface UnknownRunEvent {
  v: number;
  seq: number;
  ts: string;
  type: string;
  unknown: true;
  /** The line as stored, so a copy (merge, export) can write it back unchanged. */
  raw: Record<string, unknown>;
}

export type StoredRunEvent = RunEvent | UnknownRunEvent;

export function isKnownEvent(event: StoredRunEvent): event is RunEvent {
  return !('unknown' in event && event.unknown === true);
}

// ---- zod schemas (validation at both ends: on append and on read) ----

const finiteNumber = z.number().finite();
const nonNegative = finiteNumber.nonnegative();
const id = z.string().min(1);
const tokens = z.looseObject({ prompt: nonNegative.optional(), completion: nonNegative.optional(), total: nonNegative.optional() });

/** TaskSpec checked for what the store and a resumer rely on; the rest is the task pool's business. */
const taskSpecSchema = z.looseObject({
  id,
  family: z.string(),
  question: z.string(),
  answer: z.looseObject({ type: z.string() }),
  evidence: z.array(z.unknown()),
  difficulty: z.looseObject({}),
  tables: z.array(z.string()),
});

const payloadSchemas = {
  'run/started': z.looseObject({
    runId: id,
    dataFolder: z.string(),
    seed: finiteNumber.optional(),
    config: z.unknown().optional(),
    toolVersion: z.string().optional(),
  }),
  'run/resumed': z.looseObject({ pid: z.number().int().optional(), truncatedBytes: nonNegative.optional() }),
  'task/added': z.looseObject({ task: taskSpecSchema }),
  'node/added': z.looseObject({
    taskId: id,
    nodeId: id,
    parentId: id.nullable(),
    status: z.string().min(1),
    depth: z.number().int().nonnegative().optional(),
    thought: z.string().optional(),
    toolCall: z.unknown().optional(),
    config: z.unknown().optional(),
    costUsd: nonNegative.optional(),
    tokens: tokens.optional(),
    latencyMs: nonNegative.optional(),
    observationSummary: z.string().optional(),
  }),
  'node/updated': z.looseObject({
    taskId: id,
    nodeId: id,
    status: z.string().min(1).optional(),
    visits: z.number().int().nonnegative().optional(),
    value: finiteNumber.optional(),
    reward: finiteNumber.optional(),
  }),
  'lcm/decision': z.looseObject({
    taskId: id,
    nodeId: id.optional(),
    k: z.number().int().nonnegative(),
    arms: z.array(z.unknown()).optional(),
    mu: z.union([finiteNumber, z.array(finiteNumber)]).optional(),
    sigma: z.union([finiteNumber, z.array(finiteNumber)]).optional(),
  }),
  'trajectory/admitted': z.looseObject({
    trajectoryId: id,
    taskId: id,
    nodePath: z.array(id),
    quality: finiteNumber.min(0).max(1),
    verified: z.boolean(),
    answer: z.unknown().optional(),
    hasRepair: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
  }),
  'trajectory/rejected': z.looseObject({ taskId: id, reason: z.string().min(1), trajectoryId: id.optional() }),
  'curation/accepted': z.looseObject({ trajectoryId: id, note: z.string().optional() }),
  'curation/pruned': z.looseObject({ trajectoryId: id, note: z.string().optional() }),
  'budget/spent': z.looseObject({
    costUsd: nonNegative,
    taskId: id.optional(),
    tokens: tokens.optional(),
    calls: z.number().int().nonnegative().optional(),
  }),
  'task/finished': z.looseObject({ taskId: id, reason: z.string().min(1), bestQuality: finiteNumber.optional() }),
  'task/revised': z.looseObject({
    taskId: id,
    outcome: z.enum(['kept', 'revised', 'rejected']),
    reviser: z.string().min(1),
    findings: z.array(z.looseObject({ check: z.string(), detail: z.string() })),
    diff: z.array(z.looseObject({ field: z.string().min(1), before: z.unknown(), after: z.unknown() })),
    task: taskSpecSchema.optional(),
    revisedTaskId: id.optional(),
    action: z.enum(['re-explored', 're-scored', 'none']).optional(),
    rescored: z
      .array(z.looseObject({ trajectoryId: id, qualityBefore: finiteNumber, quality: finiteNumber.min(0).max(1), verified: z.boolean(), admitted: z.boolean(), rubric: z.unknown().optional() }))
      .optional(),
    modelCalls: z.number().int().nonnegative().optional(),
  }),
  'run/finished': z.looseObject({ summary: z.unknown().optional() }),
  'run/cancelled': z.looseObject({ tasksFinished: z.number().int().nonnegative().optional(), reason: z.string().optional() }),
  'run/error': z.looseObject({ message: z.string(), taskId: id.optional(), fatal: z.boolean().optional() }),
} satisfies Record<RunEventType, z.ZodType>;

export const RUN_EVENT_TYPES = Object.keys(payloadSchemas) as RunEventType[];

export function isRunEventType(type: string): type is RunEventType {
  return Object.prototype.hasOwnProperty.call(payloadSchemas, type);
}

const envelopeSchema = z.looseObject({
  v: z.number().int().positive(),
  seq: z.number().int().positive(),
  ts: z.iso.datetime({ offset: true }),
  type: z.string().min(1),
});

export class EventValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventValidationError';
  }
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(event)'}: ${issue.message}`)
    .join('; ');
}

/** Checks a caller's event before it is written; throws EventValidationError naming the field. */
export function validateEventInput(input: RunEventInput): void {
  const type = (input as { type?: unknown }).type;
  if (typeof type !== 'string' || !isRunEventType(type)) {
    throw new EventValidationError(`unknown event type ${JSON.stringify(type)}; known: ${RUN_EVENT_TYPES.join(', ')}`);
  }
  const result = payloadSchemas[type].safeParse(input);
  if (!result.success) throw new EventValidationError(`invalid ${type} event: ${describeZodError(result.error)}`);
}

/**
 * Interprets one stored JSON value. Throws EventValidationError when the envelope is broken or a known type's
 * payload is invalid; returns an UnknownRunEvent for types (or envelope versions) this code does not know.
 */
export function decodeEvent(value: unknown): StoredRunEvent {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) throw new EventValidationError(`not a run event: ${describeZodError(envelope.error)}`);
  const { v, seq, ts, type } = envelope.data;
  if (v !== EVENT_FORMAT_VERSION || !isRunEventType(type)) {
    return { v, seq, ts, type, unknown: true, raw: value as Record<string, unknown> };
  }
  const payload = payloadSchemas[type].safeParse(value);
  if (!payload.success) throw new EventValidationError(`invalid ${type} event: ${describeZodError(payload.error)}`);
  return value as RunEvent;
}

/** One line of events.jsonl, newline included. Envelope keys come first so the file is easy to read. */
export function encodeEvent(event: StoredRunEvent): string {
  if (!isKnownEvent(event)) return JSON.stringify(event.raw) + '\n';
  const { v, seq, ts, type, ...payload } = event;
  return JSON.stringify({ v, seq, ts, type, ...payload }) + '\n';
}
