/**
 * A run folder `.toffee/runs/<runId>/` and its append-only event log.
 *
 * Durability contract: an event is durable when `append` (or `appendMany`, for the whole batch) returns — its
 * line was written with `fs.writeSync` and the file `fs.fsyncSync`'d. A crash can leave only a torn last
 * line (an append that had not returned); it is reported as a warning and truncated away when the run is next
 * opened for writing. Nothing before it is lost. Everything else in the folder (tasks.jsonl,
 * trajectories.jsonl) is derived from the events and can always be regenerated.
 *
 * One writer at a time (`events.lock`); any number of readers, in this process (`onEvent`) or others (`tail`).
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  encodeEvent,
  EVENT_FORMAT_VERSION,
  isKnownEvent,
  validateEventInput,
  type RunConfig,
  type RunEvent,
  type RunEventInput,
  type StoredRunEvent,
  type UnknownRunEvent,
} from './events';
import { iterateEventLog, scanEventLogSync, type LogIssue } from './eventLog';
import { fsyncDirectory, writeFileAtomic } from '../text/atomicFile';
import { assertValidRunId, newRunId, readRunMeta, RUN_FILES, RUN_FORMAT_VERSION, runsDir, type RunMeta } from './runFolder';
import { applyEvent, rebuildState, type RunState } from './runState';
import { derivedFilesAhead } from './resumeCheck';
import { renderSnapshots } from './snapshots';
import { acquireWriterLock, type LockInfo, type WriterLock } from './writerLock';

/** The syscalls that make an append durable; injectable so tests can observe (or fail) them. */
export interface DurableFileOps {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
}

const nodeFileOps: DurableFileOps = {
  writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length),
  fsyncSync: (fd) => fs.fsyncSync(fd),
};

export interface RunStoreOptions {
  /** Clock for event timestamps (tests pass a fixed one). */
  now?: () => Date;
  fileOps?: DurableFileOps;
  /** Rewrite tasks.jsonl / trajectories.jsonl after task/finished, run/finished and curation events (default true). */
  autoSnapshots?: boolean;
  /** Called when an onEvent listener throws; the append itself has succeeded regardless. */
  onListenerError?: (error: unknown, event: RunEvent) => void;
}

export interface OpenOptions extends RunStoreOptions {
  /** Take the writer lock, repair a torn tail, allow appends (default false: a read-only snapshot). */
  writable?: boolean;
  /** Take the lock even from a live writer (only when the user knows it is gone). */
  breakLock?: boolean;
}

export interface CreateRunMeta {
  dataFolder: string;
  /** Given by tests or a caller that needs a deterministic id; otherwise a sortable unique id is made. */
  runId?: string;
  seed?: number;
  config?: RunConfig;
  toolVersion?: string;
}

/** What a new run folder holds when it first appears (see createInDir). */
export interface InitialRunContent {
  /** Events after run/started (e.g. the task pool's task/added). */
  events?: readonly RunEventInput[];
  /** Other files by name (e.g. the run-start cost model), written before the folder appears. */
  files?: Readonly<Record<string, string>>;
}

export interface RecoveryReport {
  /** Problems found in the log at open (torn tail, corrupt lines with their line numbers, seq gaps). */
  issues: LogIssue[];
  /** Bytes of a torn last line removed (writable opens only). */
  truncatedBytes: number;
  /** The dead writer whose stale lock was taken over. */
  tookOverFrom?: LockInfo;
  /**
   * What tasks.jsonl / trajectories.jsonl (or the cost model snapshots) hold that the log does not: the log lost
   * events. A writable store then leaves the derived files as they are, never replacing them with less.
   */
  derivedFilesAhead?: string[];
}

export interface ReadResult {
  events: RunEvent[];
  /** Events of a newer version or unknown type: kept, not interpreted. */
  unknownEvents: UnknownRunEvent[];
  issues: LogIssue[];
  lastSeq: number;
}

export type RunEventListener = (event: RunEvent) => void;

export class RunStore {
  readonly eventsPath: string;
  readonly state: RunState;
  readonly recovery: RecoveryReport;
  private readonly fileOps: DurableFileOps;
  private readonly now: () => Date;
  private readonly autoSnapshots: boolean;
  private readonly listeners = new Set<RunEventListener>();
  private fd: number | undefined;
  /** Bytes of whole lines in the log: where a failed write is cut back to. */
  private logBytes: number;
  private lock: WriterLock | undefined;
  /** Set when a write or fsync failed: the log's durable end is unknown, so no further appends. */
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    readonly runDir: string,
    readonly meta: RunMeta,
    state: RunState,
    recovery: RecoveryReport,
    private readonly options: RunStoreOptions,
    writer?: { fd: number; lock: WriterLock; logBytes: number },
  ) {
    this.eventsPath = path.join(runDir, RUN_FILES.events);
    this.state = state;
    this.recovery = recovery;
    this.fileOps = options.fileOps ?? nodeFileOps;
    this.now = options.now ?? (() => new Date());
    this.autoSnapshots = options.autoSnapshots ?? true;
    this.fd = writer?.fd;
    this.lock = writer?.lock;
    this.logBytes = writer?.logBytes ?? 0;
  }

  /** Creates `<root>/.toffee/runs/<runId>/` and writes run.json and the first event (run/started). */
  static create(root: string, meta: CreateRunMeta, options: RunStoreOptions = {}, initial: InitialRunContent = {}): RunStore {
    const runId = meta.runId ?? newRunId((options.now ?? (() => new Date()))());
    assertValidRunId(runId);
    fs.mkdirSync(runsDir(root), { recursive: true });
    return RunStore.createInDir(path.join(runsDir(root), runId), { ...meta, runId }, options, initial);
  }

  /**
   * Creates a run in an explicit, not yet existing folder (e.g. the CLI's `--out DIR`). The folder appears whole:
   * run.json, the log (run/started, then `initial.events`) and `initial.files` are written and fsync'd in a hidden
   * staging folder beside it, which is then renamed into place. A crash before the rename leaves no run folder (only
   * the hidden staging folder); after it, a run whose task pool is recorded.
   */
  static createInDir(runDir: string, meta: CreateRunMeta, options: RunStoreOptions = {}, initial: InitialRunContent = {}): RunStore {
    const runId = meta.runId ?? path.basename(runDir);
    assertValidRunId(runId);
    const parent = path.dirname(runDir);
    fs.mkdirSync(parent, { recursive: true });
    const exists = () => new Error(`run folder already exists: ${runDir} (open it to resume, or choose another run id)`);
    if (fs.existsSync(runDir)) throw exists();
    const now = options.now ?? (() => new Date());
    const runMeta: RunMeta = {
      formatVersion: RUN_FORMAT_VERSION,
      runId,
      createdAt: now().toISOString(),
      dataFolder: path.resolve(meta.dataFolder),
      ...(meta.seed !== undefined ? { seed: meta.seed } : {}),
      ...(meta.config !== undefined ? { config: meta.config } : {}),
      toolVersion: meta.toolVersion ?? 'unknown',
    };
    const started: RunEventInput = {
      type: 'run/started',
      runId,
      dataFolder: runMeta.dataFolder,
      ...(runMeta.seed !== undefined ? { seed: runMeta.seed } : {}),
      ...(runMeta.config !== undefined ? { config: runMeta.config } : {}),
      toolVersion: runMeta.toolVersion,
    };
    const inputs = [started, ...(initial.events ?? [])];
    for (const input of inputs) validateEventInput(input);
    const ts = now().toISOString();
    const log = inputs.map((input, index) => encodeEvent({ ...input, v: EVENT_FORMAT_VERSION, seq: index + 1, ts } as RunEvent)).join('');
    const staging = path.join(parent, `.${path.basename(runDir)}.creating-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
    fs.mkdirSync(staging);
    try {
      writeFileAtomic(path.join(staging, RUN_FILES.meta), JSON.stringify(runMeta, null, 2) + '\n');
      writeFileAtomic(path.join(staging, RUN_FILES.events), log);
      for (const [name, content] of Object.entries(initial.files ?? {})) {
        if (path.basename(name) !== name || Object.values(RUN_FILES).includes(name as never)) throw new Error(`not a file name a run may start with: ${name}`);
        writeFileAtomic(path.join(staging, name), content);
      }
      fsyncDirectory(staging);
      try {
        fs.renameSync(staging, runDir);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw code === 'EEXIST' || code === 'ENOTEMPTY' ? exists() : error;
      }
      fsyncDirectory(parent);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    return RunStore.open(runDir, { ...options, writable: true });
  }

  /**
   * Opens an existing run. Read-only by default (a snapshot of the state at open). With `writable: true` it
   * takes the writer lock (a dead writer's stale lock is taken over; a live one is refused with RunLockedError),
   * truncates a torn last line, and continues the sequence where the log ends.
   */
  static open(runDir: string, options: OpenOptions = {}): RunStore {
    const meta = readRunMeta(runDir);
    const eventsPath = path.join(runDir, RUN_FILES.events);
    if (!options.writable) {
      const scan = fs.existsSync(eventsPath) ? scanEventLogSync(eventsPath) : undefined;
      const state = rebuildState(scan?.events ?? []);
      return new RunStore(runDir, meta, state, { issues: scan?.issues ?? [], truncatedBytes: 0 }, options);
    }
    const lock = acquireWriterLock(path.join(runDir, RUN_FILES.lock), { breakLock: options.breakLock });
    let fd: number | undefined;
    try {
      // Scan only after holding the lock: no one else can be appending now.
      fd = fs.openSync(eventsPath, 'a');
      const scan = scanEventLogSync(eventsPath);
      let truncatedBytes = 0;
      if (scan.fileBytes > scan.validBytes) {
        fs.ftruncateSync(fd, scan.validBytes);
        fs.fsyncSync(fd);
        truncatedBytes = scan.fileBytes - scan.validBytes;
      }
      const state = rebuildState(scan.events);
      const ahead = derivedFilesAhead(runDir, state);
      const recovery: RecoveryReport = { issues: scan.issues, truncatedBytes, tookOverFrom: lock.tookOverFrom, ...(ahead.length ? { derivedFilesAhead: ahead } : {}) };
      return new RunStore(runDir, meta, state, recovery, options, { fd, lock, logBytes: scan.validBytes });
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      lock.release();
      throw error;
    }
  }

  get runId(): string {
    return this.meta.runId;
  }

  get writable(): boolean {
    return this.fd !== undefined && !this.closed;
  }

  get lastSeq(): number {
    return this.state.lastSeq;
  }

  /** Appends one event; it is on disk (fsync'd) when this returns. Returns the stored event (seq, ts). */
  append(input: RunEventInput): RunEvent {
    return this.appendMany([input])[0];
  }

  /**
   * Appends a batch with one write and one fsync: cheaper, and all-or-torn-suffix on a crash (a crash mid-batch
   * keeps the batch's complete lines, which are valid events in order). Durable when this returns.
   */
  appendMany(inputs: readonly RunEventInput[]): RunEvent[] {
    const fd = this.writerFd();
    if (inputs.length === 0) return [];
    for (const input of inputs) validateEventInput(input);
    const ts = this.now().toISOString();
    const events = inputs.map(
      (input, index) => ({ ...input, v: EVENT_FORMAT_VERSION, seq: this.state.lastSeq + 1 + index, ts }) as RunEvent,
    );
    const data = Buffer.from(events.map(encodeEvent).join(''), 'utf8');
    const sizeBefore = this.logBytes;
    try {
      let written = 0;
      while (written < data.length) written += this.fileOps.writeSync(fd, data, written, data.length - written);
    } catch (error) {
      // Leave no partial line behind for the next append to glue onto.
      try {
        fs.ftruncateSync(fd, sizeBefore);
      } catch {
        this.failure = error as Error;
      }
      throw error;
    }
    try {
      this.fileOps.fsyncSync(fd);
    } catch (error) {
      // After a failed fsync the kernel may have dropped the dirty pages: durability of this log is unknown.
      this.failure = error as Error;
      throw error;
    }
    this.logBytes += data.length;
    for (const event of events) applyEvent(this.state, event);
    for (const event of events) this.emit(event);
    if (this.autoSnapshots && events.some((event) => SNAPSHOT_TRIGGERS.has(event.type))) this.writeSnapshots();
    return events;
  }

  /** In-process live consumers (the host forwarding to the webview). Called after the event is durable. */
  onEvent(listener: RunEventListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Re-reads the log from disk (every durable event, also those another writer added since open). */
  read(): ReadResult {
    if (!fs.existsSync(this.eventsPath)) return { events: [], unknownEvents: [], issues: [], lastSeq: 0 };
    return splitKnown(scanEventLogSync(this.eventsPath));
  }

  /** Streams the log from disk; unknown events are included (check `isKnownEvent`). */
  events(onIssue?: (issue: LogIssue) => void): AsyncGenerator<StoredRunEvent> {
    return iterateEventLog(this.eventsPath, onIssue);
  }

  [Symbol.asyncIterator](): AsyncGenerator<StoredRunEvent> {
    return this.events();
  }

  /** The state computed from scratch from the events on disk (the incremental `state` must equal it). */
  rebuild(): RunState {
    const scan = scanEventLogSync(this.eventsPath);
    return rebuildState(scan.events);
  }

  /** Writes tasks.jsonl and trajectories.jsonl from the current state (atomic temp + rename each). */
  writeSnapshots(): void {
    this.writerFd();
    // The log lost events the derived files still hold: they may be the last copy, so they stay.
    if (this.recovery.derivedFilesAhead) return;
    const snapshots = renderSnapshots(this.state);
    writeFileAtomic(path.join(this.runDir, RUN_FILES.tasks), snapshots.tasks);
    writeFileAtomic(path.join(this.runDir, RUN_FILES.trajectories), snapshots.trajectories);
  }

  /** Writes the derived files (if writable) and releases the lock. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    try {
      if (this.fd !== undefined && !this.failure) this.writeSnapshots();
    } finally {
      this.closed = true;
      this.listeners.clear();
      if (this.fd !== undefined) fs.closeSync(this.fd);
      this.fd = undefined;
      this.lock?.release();
      this.lock = undefined;
    }
  }

  private writerFd(): number {
    if (this.closed) throw new Error(`run store ${this.runId} is closed`);
    if (this.fd === undefined) throw new Error(`run ${this.runId} was opened read-only; open it with { writable: true }`);
    if (this.failure) throw new Error(`run ${this.runId}: an earlier write failed (${this.failure.message}); reopen the run`);
    return this.fd;
  }

  private emit(event: RunEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.onListenerError?.(error, event);
      }
    }
  }
}

const SNAPSHOT_TRIGGERS = new Set<string>(['task/finished', 'task/revised', 'run/finished', 'curation/accepted', 'curation/pruned']);

function splitKnown(scan: { events: StoredRunEvent[]; issues: LogIssue[]; lastSeq: number }): ReadResult {
  const events: RunEvent[] = [];
  const unknownEvents: UnknownRunEvent[] = [];
  for (const event of scan.events) {
    if (isKnownEvent(event)) events.push(event);
    else unknownEvents.push(event);
  }
  return { events, unknownEvents, issues: scan.issues, lastSeq: scan.lastSeq };
}

/** Reads a run folder without opening a store. */
export function readRun(runDir: string): ReadResult & { meta: RunMeta } {
  const meta = readRunMeta(runDir);
  const eventsPath = path.join(runDir, RUN_FILES.events);
  if (!fs.existsSync(eventsPath)) return { meta, events: [], unknownEvents: [], issues: [], lastSeq: 0 };
  return { meta, ...splitKnown(scanEventLogSync(eventsPath)) };
}
