/**
 * The webview's side of the protocol: posts intents with counter request ids, validates what the host sends, and
 * keeps the run's view model (the shared reducer) with patch-sequence checking and resync on a gap.
 */
import {
  asWireEvents,
  parseHostMessage,
  PatchSequencer,
  PROTOCOL_VERSION,
  assertNever,
  type HostMessage,
  type PoolProgressView,
  type SessionInfo,
  type WebviewMessage,
} from '../../src/shared/protocol';
import { applyRunEvents, createRunView, emptyDelta, type RunView, type ViewDelta } from '../../src/shared/runView';
import { acquireApi, type VsCodeApi } from './vscodeApi';

/** View state that survives the panel being hidden (VS Code's getState/setState); parsed defensively on restore. */
export interface PersistedViewState {
  /** The run shown, so the host can restore the panel after a window reload. */
  runDir?: string;
  taskId?: string;
  nodeId?: string;
  trajectoryId?: string;
}

export interface RequestOutcome {
  requestId: string;
  ok: boolean;
  message?: string;
}

type DeltaListener = (delta: ViewDelta, reset: boolean) => void;

export class RunClient {
  view: RunView = createRunView();
  info: SessionInfo | undefined;
  /** Bumped on every change; React reads it through useSyncExternalStore. */
  version = 0;
  /**
   * Bumped per area a change touched, so memoised parts of the app re-render only when their data changed (the
   * view is updated in place; a 50-node patch should not re-render the trajectory list).
   */
  revisions = { tasks: 0, trajectories: 0, budget: 0 };
  lastOutcome: RequestOutcome | undefined;
  notice: { level: string; message: string } | undefined;
  /** The task pool's build, while the run has no tasks yet (session/pool). */
  pool: PoolProgressView | undefined;
  private readonly sequencer = new PatchSequencer();
  private readonly listeners = new Set<() => void>();
  private readonly deltaListeners = new Set<DeltaListener>();
  private nextRequest = 1;
  private readonly pending = new Map<string, string>();

  constructor(private readonly api: VsCodeApi) {}

  start(): void {
    window.addEventListener('message', (event: MessageEvent) => this.receive(event.data));
    this.post({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
  }

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }

  /** Sends a request intent; returns its id (for cancel). */
  request(build: (requestId: string) => WebviewMessage & { requestId: string }): string {
    const requestId = `r${this.nextRequest++}`;
    const message = build(requestId);
    this.pending.set(requestId, message.type);
    this.post(message);
    this.changed();
    return requestId;
  }

  cancel(requestId: string): void {
    if (this.pending.has(requestId)) this.post({ type: 'request/cancel', requestId });
  }

  isPending(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  loadState(): PersistedViewState {
    const raw = this.api.getState();
    if (!raw || typeof raw !== 'object') return {};
    const fields = raw as Record<string, unknown>;
    const pick = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
    return { runDir: pick('runDir'), taskId: pick('taskId'), nodeId: pick('nodeId'), trajectoryId: pick('trajectoryId') };
  }

  saveState(state: PersistedViewState): void {
    this.api.setState(state);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  onDelta(listener: DeltaListener): () => void {
    this.deltaListeners.add(listener);
    return () => this.deltaListeners.delete(listener);
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  receive(raw: unknown): void {
    // Phase marks (received → parsed → reduced, then app-committed and tree-drawn) for npm run bench:webview.
    performance.mark('toffee:received');
    const parsed = parseHostMessage(raw);
    if (!parsed.ok) {
      console.warn(`TOFFEE: ignored an invalid message from the host: ${parsed.error}`);
      return;
    }
    performance.mark('toffee:parsed');
    this.handle(parsed.message);
  }

  private handle(message: HostMessage): void {
    switch (message.type) {
      case 'session/snapshot': {
        this.view = createRunView();
        const delta = applyRunEvents(this.view, asWireEvents(message.events));
        this.sequencer.snapshot(message.patchSeq);
        this.info = message.info;
        this.pool = message.pool;
        performance.mark('toffee:reduced');
        this.revisions = { tasks: this.revisions.tasks + 1, trajectories: this.revisions.trajectories + 1, budget: this.revisions.budget + 1 };
        for (const listener of this.deltaListeners) listener(delta, true);
        this.changed();
        return;
      }
      case 'session/patch': {
        const verdict = this.sequencer.accept(message.patchSeq);
        if (verdict === 'gap') {
          this.post({ type: 'session/resync', lastPatchSeq: this.sequencer.lastPatchSeq });
          return;
        }
        if (verdict === 'stale') return;
        const delta = applyRunEvents(this.view, asWireEvents(message.events), emptyDelta());
        performance.mark('toffee:reduced');
        this.revisions = {
          tasks: this.revisions.tasks + (delta.tasksChanged || delta.addedNodes.length ? 1 : 0),
          trajectories: this.revisions.trajectories + (delta.trajectoriesChanged ? 1 : 0),
          budget: this.revisions.budget + (delta.budgetChanged ? 1 : 0),
        };
        for (const listener of this.deltaListeners) listener(delta, false);
        this.changed();
        return;
      }
      case 'session/info':
        this.info = message.info;
        this.changed();
        return;
      case 'request/result':
        this.pending.delete(message.requestId);
        this.lastOutcome = { requestId: message.requestId, ok: message.ok, message: message.message };
        this.changed();
        return;
      case 'session/notice':
        this.notice = { level: message.level, message: message.message };
        this.changed();
        return;
      case 'session/pool':
        this.pool = message.pool;
        this.changed();
        return;
      default:
        assertNever(message);
    }
  }
}

export function createRunClient(): RunClient {
  return new RunClient(acquireApi());
}
