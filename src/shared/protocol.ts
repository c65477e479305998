/**
 * The host ↔ explorer-webview protocol. Both ends parse every message with these zod schemas and drop what does
 * not parse. The host owns the run; the webview holds view state and sends intents.
 *
 * Flow: the webview posts `webview/ready`; the host answers with `session/snapshot` (every event so far) and
 * then `session/patch` messages whose `patchSeq` counts up from the snapshot's. A webview that sees a gap (a
 * hidden webview drops messages) posts `session/resync` and gets a fresh snapshot; the host also sends one
 * whenever the panel becomes visible. Intents carry a `requestId` (a counter, unique per webview) that the
 * `request/result` echoes; `request/cancel` withdraws a request not yet carried out.
 */
import { z } from 'zod';
import type { WireEvent } from './runView';

export const PROTOCOL_VERSION = 1;

/** The store's envelope of a run event: v and seq positive integers, ts and type strings. */
function isWireEnvelope(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  const positiveInteger = (field: unknown) => typeof field === 'number' && Number.isInteger(field) && field > 0;
  return positiveInteger(event.v) && positiveInteger(event.seq) && typeof event.ts === 'string' && typeof event.type === 'string' && event.type.length > 0;
}

const ENVELOPE_RULE = 'a run event needs v and seq (positive integers), ts (a string) and type (a non-empty string)';

/**
 * The run events of a snapshot or patch: each one's envelope checked, the payload left loose (the reducer reads
 * fields defensively). One check over the array rather than z.array(z.looseObject(…)): a snapshot carries tens
 * of thousands of events, and per-element schemas copied every one of them (0.5–1 s for 33,000 events in jitless
 * mode, which the CSP requires). The error names the first bad event.
 */
export const wireEventsSchema = z.custom<WireEvent[]>((value) => Array.isArray(value) && value.every(isWireEnvelope), {
  error: (issue) => {
    if (!Array.isArray(issue.input)) return 'expected an array of run events';
    const index = issue.input.findIndex((event) => !isWireEnvelope(event));
    return `event ${index}: ${ENVELOPE_RULE}`;
  },
});

/** What the panel knows about the run besides its events. */
export const sessionInfoSchema = z.object({
  runDir: z.string(),
  runId: z.string(),
  /** Whether curation can be written now; when not, `readOnlyReason` says why in plain words. */
  canCurate: z.boolean(),
  readOnlyReason: z.string().optional(),
  /** A live writer (CLI or this window) is appending. */
  live: z.boolean(),
  /** A synthesis in this window writes the run and can be stopped from the panel (`run/stop`). */
  canStop: z.boolean().optional(),
});

/**
 * How far the task pool's build is, before the run's first event: the panel opens when a synthesis starts and
 * shows this until the tasks arrive. The counts are core's `PoolProgress`; `outcome` ends a build that made no run.
 */
export const poolProgressSchema = z.object({
  phase: z.enum(['loading', 'families', 'validating', 'selected']),
  familiesDone: z.number().int().nonnegative(),
  familiesTotal: z.number().int().nonnegative(),
  candidates: z.number().int().nonnegative(),
  checked: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
  selected: z.number().int().nonnegative().optional(),
  /** The data folder the pool is built from. */
  folder: z.string().optional(),
  outcome: z.enum(['cancelled', 'failed']).optional(),
  message: z.string().optional(),
});

const requestId = z.string().min(1).max(64);
const trajectoryId = z.string().min(1);

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session/snapshot'),
    protocolVersion: z.literal(PROTOCOL_VERSION),
    /** The next patch has `patchSeq + 1`. */
    patchSeq: z.number().int().nonnegative(),
    info: sessionInfoSchema,
    events: wireEventsSchema,
    pool: poolProgressSchema.optional(),
  }),
  z.object({
    type: z.literal('session/patch'),
    patchSeq: z.number().int().positive(),
    events: wireEventsSchema,
  }),
  z.object({ type: z.literal('session/info'), info: sessionInfoSchema }),
  z.object({
    type: z.literal('request/result'),
    requestId,
    ok: z.boolean(),
    cancelled: z.boolean().optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('session/notice'), level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  z.object({ type: z.literal('session/pool'), pool: poolProgressSchema }),
]);

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('webview/ready'), protocolVersion: z.number().int() }),
  /** The webview saw a patch gap; `lastPatchSeq` is the last one it applied. */
  z.object({ type: z.literal('session/resync'), lastPatchSeq: z.number().int().nonnegative() }),
  z.object({ type: z.literal('curation/accept'), requestId, trajectoryId, note: z.string().max(2000).optional() }),
  z.object({ type: z.literal('curation/prune'), requestId, trajectoryId, note: z.string().max(2000).optional() }),
  z.object({ type: z.literal('request/cancel'), requestId }),
  /** Export the run's trajectories (the host asks where and how, as "TOFFEE: Export Trajectories" does). */
  z.object({ type: z.literal('run/export'), requestId }),
  /** Stop the synthesis writing the run (only when `canStop`). */
  z.object({ type: z.literal('run/stop'), requestId }),
]);

export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export type PoolProgressView = z.infer<typeof poolProgressSchema>;
export type HostMessage = z.infer<typeof hostMessageSchema>;
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;
export type WebviewRequest = Extract<WebviewMessage, { requestId: string }>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(message)'}: ${issue.message}`)
    .join('; ');
}

export function parseHostMessage(value: unknown): ParseResult<HostMessage> {
  const result = hostMessageSchema.safeParse(value);
  return result.success ? { ok: true, message: result.data } : { ok: false, error: describe(result.error) };
}

export function parseWebviewMessage(value: unknown): ParseResult<WebviewMessage> {
  const result = webviewMessageSchema.safeParse(value);
  return result.success ? { ok: true, message: result.data } : { ok: false, error: describe(result.error) };
}

/** Narrows a parsed wire event to the reducer's input type (the schema guarantees the envelope). */
export function asWireEvents(events: readonly WireEvent[]): WireEvent[] {
  return events as WireEvent[];
}

/** Exhaustiveness guard for message switches: a new message type that is not handled fails to compile. */
export function assertNever(value: never, what = 'message'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}

/**
 * Tracks patch sequence numbers on the receiving end: `accept` says whether a patch continues the stream; a gap
 * (or a repeat) means the webview must ask for a resync and ignore patches until the next snapshot.
 */
export class PatchSequencer {
  private last = -1;
  private waitingForSnapshot = true;

  get lastPatchSeq(): number {
    return Math.max(this.last, 0);
  }

  get awaitingSnapshot(): boolean {
    return this.waitingForSnapshot;
  }

  snapshot(patchSeq: number): void {
    this.last = patchSeq;
    this.waitingForSnapshot = false;
  }

  /** 'apply' for the next patch in order, 'stale' for one the snapshot already covered, 'gap' otherwise. */
  accept(patchSeq: number): 'apply' | 'stale' | 'gap' {
    if (this.waitingForSnapshot) return 'stale';
    if (patchSeq === this.last + 1) {
      this.last = patchSeq;
      return 'apply';
    }
    if (patchSeq <= this.last) return 'stale';
    this.waitingForSnapshot = true;
    return 'gap';
  }
}
