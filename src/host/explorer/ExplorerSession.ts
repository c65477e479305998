/**
 * One open run in the explorer panel, without vscode: follows the run's events.jsonl (tail), keeps the events
 * and the view model, posts a snapshot on ready / resync / visibility and batched, sequence-numbered patches in
 * between (at most one per `patchIntervalMs`), and carries out curation intents by appending events to the run
 * under the store's writer lock. The panel wraps it; tests drive it directly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRun, RunLockedError, RunStore, RUN_FILES, tail, type LockInfo, type StoredRunEvent } from '../../core/store';
import { isProcessAlive } from '../../core/store/writerLock';
import {
  assertNever,
  parseWebviewMessage,
  PROTOCOL_VERSION,
  type HostMessage,
  type PoolProgressView,
  type SessionInfo,
  type WebviewMessage,
  type WebviewRequest,
} from '../../shared/protocol';
import { applyRunEvents, createRunView, type RunView, type WireEvent } from '../../shared/runView';
import { canStopRun, liveRunStore, onLiveRunsChanged, stopRun } from './liveRuns';

export interface ExplorerSessionOptions {
  runDir: string;
  /** Delivers a message to the webview (VS Code's `webview.postMessage`). */
  post: (message: HostMessage) => unknown;
  /**
   * The run's writer when this process is running it (curation then appends through it). Without one, the
   * session looks up a synthesis running on the run in this process (liveRuns.ts) at each curation.
   */
  liveStore?: RunStore;
  /** Minimum time between patches (default 250 ms: at most 4 patches a second). */
  patchIntervalMs?: number;
  /** Tail polling interval (default 250 ms). */
  pollMs?: number;
  /** Check for a writer that died this often (default DEFAULT_LIVENESS_MS). */
  livenessMs?: number;
  log?: (message: string) => void;
  /**
   * The run folder does not exist yet: a synthesis is building its task pool (shown with `setPool`). The session
   * follows the folder from its first event once it appears.
   */
  pending?: boolean;
  /** Carries out the panel's Export button ("TOFFEE: Export Trajectories" on this run); says what it did. */
  exportRun?: () => Promise<{ ok: boolean; message: string }>;
  /** Run events that change what the Runs view shows (state, tasks finished, curation), as they are followed. */
  onRunEvents?: (types: string[]) => void;
}

/** Events after which the Runs view's line for the run is out of date. */
const RUN_SUMMARY_EVENTS = new Set(['run/started', 'run/resumed', 'run/cancelled', 'run/finished', 'task/finished', 'trajectory/admitted', 'curation/accepted', 'curation/pruned']);

export const DEFAULT_PATCH_INTERVAL_MS = 250;
/** How often a run written by another process is checked for a writer that died (default 3 s). */
export const DEFAULT_LIVENESS_MS = 3000;

function toWire(event: StoredRunEvent): WireEvent {
  if ('unknown' in event && event.unknown === true) return { v: event.v, seq: event.seq, ts: event.ts, type: event.type };
  return event as unknown as WireEvent;
}

function describeHolder(holder: LockInfo | undefined): string {
  if (!holder) return 'another TOFFEE process';
  if (holder.pid === process.pid) return 'a synthesis running in this window';
  const since = holder.acquiredAt ? `, since ${holder.acquiredAt}` : '';
  return `another TOFFEE process (pid ${holder.pid} on ${holder.hostname}${since})`;
}

export class ExplorerSession {
  readonly runDir: string;
  readonly view: RunView = createRunView();
  private readonly events: WireEvent[] = [];
  private pending: WireEvent[] = [];
  private patchSeq = 0;
  private ready = false;
  private lastFlushAt = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly abort = new AbortController();
  private readonly cancelled = new Set<string>();
  private curationQueue: Promise<void> = Promise.resolve();
  private readonly patchIntervalMs: number;
  private disposed = false;
  /** Resolves when the tail loop has ended (after dispose). */
  readonly tailDone: Promise<void>;
  private readonly stopWatchingLiveRuns: () => void;

  constructor(private readonly options: ExplorerSessionOptions) {
    this.runDir = path.resolve(options.runDir);
    this.patchIntervalMs = options.patchIntervalMs ?? DEFAULT_PATCH_INTERVAL_MS;
    // What is on disk now, synchronously, so the first snapshot is complete; then follow the file. A pending run
    // has nothing on disk yet: the tail waits for its events file.
    let lastSeq = 0;
    if (!options.pending || fs.existsSync(path.join(this.runDir, RUN_FILES.meta))) {
      const initial = readRun(this.runDir);
      for (const issue of initial.issues) options.log?.(`run ${this.runDir}: ${issue.message}`);
      const stored: StoredRunEvent[] = [...initial.events, ...initial.unknownEvents].sort((a, b) => a.seq - b.seq);
      this.ingest(stored.map(toWire), false);
      lastSeq = initial.lastSeq;
    }
    this.tailDone = this.follow(lastSeq + 1);
    // A synthesis on this run starting or ending in this window changes who may curate, and how.
    this.stopWatchingLiveRuns = onLiveRunsChanged((runDir) => {
      if (runDir === this.runDir && this.ready) this.post({ type: 'session/info', info: this.info() });
    });
    // A writer in another process can die without a word (a kill, a crash): its lock stays behind, so whether it
    // still runs is checked now and then, and the panel told when it stopped (the run is interrupted then).
    this.livenessTimer = setInterval(() => this.checkLiveness(), options.livenessMs ?? DEFAULT_LIVENESS_MS);
    this.livenessTimer.unref?.();
  }

  private readonly livenessTimer: ReturnType<typeof setInterval>;
  private lastLive: boolean | undefined;

  private checkLiveness(): void {
    if (!this.ready || this.disposed) return;
    const live = this.info().live;
    if (this.lastLive !== undefined && live !== this.lastLive) {
      this.post({ type: 'session/info', info: this.info() });
      this.options.onRunEvents?.(['writer/stopped']);
    }
    this.lastLive = live;
  }

  get runId(): string {
    return this.view.runId ?? path.basename(this.runDir);
  }

  /** Every event received so far (the snapshot's content). */
  get eventCount(): number {
    return this.events.length;
  }

  private async follow(fromSeq: number): Promise<void> {
    try {
      for await (const event of tail(this.runDir, {
        fromSeq,
        signal: this.abort.signal,
        pollMs: this.options.pollMs,
        onIssue: (issue) => this.options.log?.(`run ${this.runDir}: ${issue.message}`),
      })) {
        this.ingest([toWire(event)], true);
      }
    } catch (error) {
      if (!this.disposed) this.post({ type: 'session/notice', level: 'error', message: `Stopped following the run: ${(error as Error).message}` });
    }
  }

  private ingest(events: WireEvent[], live: boolean): void {
    const fresh = events.filter((e) => e.seq > this.view.lastSeq);
    if (!fresh.length) return;
    this.events.push(...fresh);
    applyRunEvents(this.view, fresh);
    if (!live) return;
    this.pending.push(...fresh);
    if (fresh.some((e) => e.type === 'run/finished' || e.type === 'run/resumed' || e.type === 'run/cancelled')) this.postInfoSoon = true;
    const changes = fresh.map((e) => e.type).filter((type) => RUN_SUMMARY_EVENTS.has(type));
    if (changes.length) this.options.onRunEvents?.([...new Set(changes)]);
    this.scheduleFlush();
  }

  /** The task pool's build, while the run folder does not exist yet (and its outcome when no run came of it). */
  private poolProgress: PoolProgressView | undefined;

  get pool(): PoolProgressView | undefined {
    return this.poolProgress;
  }

  setPool(pool: PoolProgressView): void {
    this.poolProgress = pool;
    if (this.ready) this.post({ type: 'session/pool', pool });
  }

  /** A message for the panel's banner (a failure of the synthesis, say). */
  notice(level: 'info' | 'warning' | 'error', message: string): void {
    if (this.ready) this.post({ type: 'session/notice', level, message });
  }

  /** Tells the webview who may curate or stop the run now (after a synthesis here starts or ends). */
  postInfo(): void {
    if (this.ready) this.post({ type: 'session/info', info: this.info() });
  }

  private postInfoSoon = false;

  private scheduleFlush(): void {
    if (this.flushTimer || this.disposed) return;
    const wait = Math.max(0, this.lastFlushAt + this.patchIntervalMs - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, wait);
  }

  /** Sends pending events as one patch now (the timer calls it; tests may too). */
  flush(): void {
    this.lastFlushAt = Date.now();
    if (!this.pending.length) return;
    const events = this.pending;
    this.pending = [];
    // Before ready the webview cannot receive; its snapshot will contain these events.
    if (!this.ready) return;
    this.patchSeq++;
    this.post({ type: 'session/patch', patchSeq: this.patchSeq, events });
    if (this.postInfoSoon) {
      this.postInfoSoon = false;
      this.post({ type: 'session/info', info: this.info() });
    }
  }

  /** Everything so far; patches continue from here. Called on ready, resync and when the panel becomes visible. */
  sendSnapshot(): void {
    if (!this.ready) return;
    this.pending = [];
    this.post({ type: 'session/snapshot', protocolVersion: PROTOCOL_VERSION, patchSeq: this.patchSeq, info: this.info(), events: this.events.slice(), ...(this.poolProgress ? { pool: this.poolProgress } : {}) });
  }

  /** The webview was disposed or hidden without retained context: nothing is posted until it is ready again. */
  webviewGone(): void {
    this.ready = false;
  }

  /** The run's one writer in this process, if a synthesis here is writing it. */
  private liveStore(): RunStore | undefined {
    const given = this.options.liveStore;
    return given?.writable ? given : liveRunStore(this.runDir);
  }

  info(): SessionInfo {
    const base = { runDir: this.runDir, runId: this.runId, ...(canStopRun(this.runDir) ? { canStop: true } : {}) };
    if (this.liveStore()) return { ...base, canCurate: true, live: true };
    // Building the task pool in this window: nothing to curate yet, but the run is live.
    if (base.canStop) return { ...base, canCurate: false, live: true, readOnlyReason: 'The task pool is being built; trajectories follow.' };
    const holder = this.liveLockHolder();
    if (holder) {
      return {
        ...base,
        canCurate: false,
        live: true,
        readOnlyReason: `This run is being written by ${describeHolder(holder)}. Accept and prune are saved once it finishes; stop it or wait, then try again.`,
      };
    }
    return { ...base, canCurate: true, live: false };
  }

  private liveLockHolder(): LockInfo | undefined {
    try {
      const holder = JSON.parse(fs.readFileSync(path.join(this.runDir, RUN_FILES.lock), 'utf8')) as LockInfo;
      return typeof holder.pid === 'number' && isProcessAlive(holder.pid) ? holder : undefined;
    } catch {
      return undefined;
    }
  }

  /** Entry point for everything the webview posts; invalid messages are logged and dropped. */
  handleMessage(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.options.log?.(`explorer webview sent an invalid message (${parsed.error}); ignored`);
      return;
    }
    this.dispatch(parsed.message);
  }

  private dispatch(message: WebviewMessage): void {
    switch (message.type) {
      case 'webview/ready':
        if (message.protocolVersion !== PROTOCOL_VERSION) {
          this.options.log?.(`explorer webview speaks protocol ${message.protocolVersion}, host ${PROTOCOL_VERSION}`);
        }
        this.ready = true;
        this.sendSnapshot();
        return;
      case 'session/resync':
        this.sendSnapshot();
        return;
      case 'curation/accept':
      case 'curation/prune':
        this.enqueueCuration(message);
        return;
      case 'request/cancel':
        this.cancelled.add(message.requestId);
        return;
      case 'run/stop': {
        const stopped = stopRun(this.runDir);
        this.post({ type: 'request/result', requestId: message.requestId, ok: stopped, message: stopped ? 'Stopping the synthesis…' : 'No synthesis in this window writes this run.' });
        return;
      }
      case 'run/export':
        void this.runExport(message.requestId);
        return;
      default:
        assertNever(message);
    }
  }

  private async runExport(requestId: string): Promise<void> {
    if (!this.options.exportRun) {
      this.post({ type: 'request/result', requestId, ok: false, message: 'Export is not available here.' });
      return;
    }
    try {
      const outcome = await this.options.exportRun();
      this.post({ type: 'request/result', requestId, ok: outcome.ok, message: outcome.message });
    } catch (error) {
      this.post({ type: 'request/result', requestId, ok: false, message: `Export failed: ${(error as Error).message}` });
    }
  }

  /** Curation runs one at a time, after the current turn, so a cancel posted right after still counts. */
  private enqueueCuration(request: Extract<WebviewRequest, { type: 'curation/accept' | 'curation/prune' }>): void {
    this.curationQueue = this.curationQueue.then(
      () =>
        new Promise<void>((resolve) => {
          setImmediate(() => {
            this.curate(request);
            resolve();
          });
        }),
    );
  }

  /** Resolves when every queued curation request has been answered. */
  idle(): Promise<void> {
    return this.curationQueue;
  }

  private curate(request: Extract<WebviewRequest, { type: 'curation/accept' | 'curation/prune' }>): void {
    const reply = (ok: boolean, message?: string, cancelled?: boolean) =>
      this.post({ type: 'request/result', requestId: request.requestId, ok, ...(message ? { message } : {}), ...(cancelled ? { cancelled } : {}) });
    if (this.cancelled.delete(request.requestId)) return reply(false, 'cancelled', true);
    const trajectory = this.view.trajectories[request.trajectoryId];
    if (!trajectory) return reply(false, `No trajectory ${request.trajectoryId} in this run.`);
    const type = request.type === 'curation/accept' ? 'curation/accepted' : 'curation/pruned';
    const event = { type, trajectoryId: request.trajectoryId, ...(request.note ? { note: request.note } : {}) } as const;
    try {
      const live = this.liveStore();
      if (live) {
        live.append(event);
      } else {
        const store = RunStore.open(this.runDir, { writable: true });
        try {
          store.append(event);
        } finally {
          store.close();
        }
      }
    } catch (error) {
      if (error instanceof RunLockedError) {
        this.post({ type: 'session/info', info: this.info() });
        return reply(false, `Not saved: this run is being written by ${describeHolder(error.holder)}. Stop it or wait until it finishes, then try again.`);
      }
      return reply(false, `Not saved: ${(error as Error).message}`);
    }
    // The appended event comes back through the tail as a patch; push it out without waiting for the poll.
    reply(true, type === 'curation/accepted' ? 'Accepted.' : 'Pruned.');
  }

  private post(message: HostMessage): void {
    if (this.disposed) return;
    try {
      void this.options.post(message);
    } catch (error) {
      this.options.log?.(`posting to the explorer webview failed: ${(error as Error).message}`);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.abort.abort();
    this.stopWatchingLiveRuns();
    clearInterval(this.livenessTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }
}

