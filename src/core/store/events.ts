/**
 * The run's events as the store reads and writes them: the vocabulary (./vocabulary.ts, import-free, shared with
 * the webview's side) bound to the engine's own task and cost-model types, and the zod schemas that check every
 * event on append and on read. Payloads are loose objects for the schemas: fields a newer writer adds survive a
 * read → write round trip. Unknown event types (or a newer envelope version) are kept as `UnknownRunEvent` and
 * skipped by the state reducer, never fatal.
 */
import { z } from 'zod';
import type { CostModelDelta } from '../lcm/LearnedCostModel';
import type { TaskSpec } from '../taskpool/types';
import {
  EVENT_FORMAT_VERSION,
  NODE_STATUSES,
  RUN_EVENT_TYPES,
  isRunEventType,
  type AnyEvent,
  type EventOf,
  type EventPayloads,
  type RunEventType,
  type TaskAddedPayload as TaskAddedOf,
  type TaskFinishedPayload as TaskFinishedOf,
  type TaskRevisedPayload as TaskRevisedOf,
} from './vocabulary';

export { EVENT_FORMAT_VERSION, NODE_STATUSES, RUN_EVENT_TYPES, isRunEventType };
export type {
  BudgetSpentPayload,
  CurationPayload,
  DecisionCandidate,
  EventEnvelope,
  LcmDecisionPayload,
  NodeAddedPayload,
  NodeStatus,
  NodeUpdatedPayload,
  PrefixStatsRecord,
  RubricRecord,
  RunConfig,
  RunCancelledPayload,
  RunErrorPayload,
  RunEventType,
  RunFinishedPayload,
  RunResumedPayload,
  RunStartedPayload,
  StepConfigRecord,
  StepRecord,
  TokenCounts,
  ToolCallRecord,
  TrajectoryAdmittedPayload,
  TrajectoryRejectedPayload,
} from './vocabulary';

export type TaskAddedPayload = TaskAddedOf<TaskSpec>;
export type TaskFinishedPayload = TaskFinishedOf<CostModelDelta>;
export type TaskRevisedPayload = TaskRevisedOf<TaskSpec>;

/** type → payload, with the engine's task and cost-model delta. */
export type RunEventPayloads = EventPayloads<TaskSpec, CostModelDelta>;

/** What a caller appends: the type and payload; the store assigns v, seq and ts. */
export type RunEventInput = { [K in RunEventType]: { type: K } & RunEventPayloads[K] }[RunEventType];
export type RunEventOf<K extends RunEventType> = EventOf<K, RunEventPayloads>;
export type RunEvent = AnyEvent<RunEventPayloads>;

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
    status: z.enum(NODE_STATUSES),
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
    status: z.enum(NODE_STATUSES).optional(),
    visits: z.number().int().nonnegative().optional(),
    value: finiteNumber.optional(),
    reward: finiteNumber.optional(),
  }),
  'lcm/decision': z.looseObject({
    taskId: id,
    nodeId: id.optional(),
    k: z.number().int().nonnegative(),
    arms: z.array(z.string()).optional(),
    mu: z.array(finiteNumber).optional(),
    sigma: z.array(finiteNumber).optional(),
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
