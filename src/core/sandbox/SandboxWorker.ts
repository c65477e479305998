import { Worker } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './protocol';

/** How one call to a sandbox worker ended. */
export type CallOutcome<T> =
  | { kind: 'done'; value: T }
  /** `late`: what the interrupted code answered after the limit (the worker was kept), if it answered. */
  | { kind: 'timeout'; late?: T }
  | { kind: 'cancelled'; late?: T }
  /** The worker failed to start, crashed, or was disposed: `message` says which. */
  | { kind: 'failed'; message: string };

export interface SandboxWorkerOptions {
  /** Absolute path of the worker script (dist/*.js or tsc output). */
  script: string;
  /** Built on every spawn (the image is sent again to each new worker). */
  workerData: () => unknown;
  /** Loading the runtime and the image is not the query's time; it has its own, generous limit. */
  startupTimeoutMs: number;
  /**
   * Asks running code to stop without killing the worker (Pyodide's interrupt buffer). When the worker answers
   * within `interruptGraceMs`, it is kept (and its state with it); otherwise it is terminated.
   */
  interrupt?: { request: () => void; graceMs: number };
}

interface Pending {
  id: number;
  settle: (reply: Extract<WorkerReply, { type: 'result' }> | { type: 'gone'; message: string }) => void;
}

const STDERR_TAIL_CHARS = 2000;

/**
 * One worker thread that a sandbox talks to: lazy spawn with a startup handshake, one call at a time with a
 * timeout and an AbortSignal, terminate (after an optional interrupt) when a call overruns, respawn on the
 * next call. The worker is unref'd, so an idle sandbox never keeps a process alive; callers still dispose.
 */
export class SandboxWorker<T> {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  private stderrTail = '';
  /** Workers spawned so far (1 + respawns). */
  spawnCount = 0;
  /** Startup time of the current worker as measured inside it (runtime + image load), in ms. */
  lastStartupMs: number | undefined;

  constructor(private readonly options: SandboxWorkerOptions) {}

  /** Spawns the worker unless one is running or starting; resolves when it is ready. */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData(),
      // No secrets in the sandbox: the worker's process.env starts empty.
      env: {},
      stdout: true,
      stderr: true,
    });
    this.worker = worker;
    this.spawnCount++;
    this.stderrTail = '';
    worker.unref();
    worker.stdout.resume(); // Drained and dropped: sandboxed code's output is captured per call inside the worker.
    worker.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the sandbox did not start within ${this.options.startupTimeoutMs} ms`));
        void this.stop();
      }, this.options.startupTimeoutMs);
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') {
          clearTimeout(timer);
          this.lastStartupMs = reply.startupMs;
          resolve();
        } else if (reply.type === 'startupError') {
          clearTimeout(timer);
          reject(new Error(reply.message));
          void this.stop();
        } else if (reply.type === 'result' && this.pending?.id === reply.id) {
          this.pending.settle(reply);
        }
      });
      worker.on('error', (e) => {
        this.stderrTail = (this.stderrTail + `\n${e.stack ?? e.message}`).slice(-STDERR_TAIL_CHARS);
      });
      worker.on('exit', (code) => {
        clearTimeout(timer);
        // Stopped while starting (disposed before it was ready): the call waiting for it ends, it does not hang.
        if (this.worker !== worker) {
          reject(new Error('the sandbox was disposed'));
          return;
        }
        const message = `the sandbox worker stopped unexpectedly (exit code ${code})${this.describeStderr()}`;
        reject(new Error(message));
        this.forget();
        this.pending?.settle({ type: 'gone', message });
      });
    });
    // A failed start must not be cached: the next call spawns afresh.
    this.ready.catch(() => {
      if (this.worker === worker || !this.worker) this.forget();
    });
    return this.ready;
  }

  /** Runs one request. Never rejects. */
  async call(code: string, maxRows: number, timeoutMs: number, signal?: AbortSignal): Promise<CallOutcome<T>> {
    if (signal?.aborted) return { kind: 'cancelled' };
    try {
      const started = await raceAbort(this.start(), signal);
      if (!started) return { kind: 'cancelled' };
    } catch (e) {
      return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
    const worker = this.worker;
    if (!worker) return { kind: 'failed', message: 'the sandbox worker stopped during startup' };
    const id = this.nextId++;
    return new Promise<CallOutcome<T>>((resolve) => {
      let stopping: 'timeout' | 'cancelled' | undefined;
      let graceTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: CallOutcome<T>): void => {
        clearTimeout(timer);
        clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        if (this.pending?.id === id) this.pending = undefined;
        resolve(outcome);
      };
      const overrun = (why: 'timeout' | 'cancelled'): void => {
        if (stopping) return;
        stopping = why;
        const interrupt = this.options.interrupt;
        if (interrupt) {
          interrupt.request();
          graceTimer = setTimeout(() => {
            void this.stop();
            finish({ kind: why });
          }, interrupt.graceMs);
        } else {
          void this.stop();
          finish({ kind: why });
        }
      };
      const onAbort = (): void => overrun('cancelled');
      const timer = setTimeout(() => overrun('timeout'), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        id,
        settle: (reply) => {
          if (reply.type === 'gone') finish(stopping ? { kind: stopping } : { kind: 'failed', message: reply.message });
          // A result that arrives after an overrun is the interrupted code's: the call still timed out.
          else finish(stopping ? { kind: stopping, late: reply.outcome as T } : { kind: 'done', value: reply.outcome as T });
        },
      };
      worker.postMessage({ type: 'run', id, code, maxRows } satisfies WorkerRequest);
    });
  }

  /** Terminates the worker (if any); a pending call ends as failed with `reason`. */
  async stop(reason = 'the sandbox was disposed'): Promise<void> {
    const worker = this.worker;
    const pending = this.pending;
    this.forget();
    pending?.settle({ type: 'gone', message: reason });
    if (worker) await worker.terminate();
  }

  private forget(): void {
    this.worker = undefined;
    this.ready = undefined;
    this.lastStartupMs = undefined;
  }

  private describeStderr(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `: ${tail}` : '';
  }
}

/** Resolves true when `promise` settles first, false when `signal` aborts first; rejects with the promise. */
async function raceAbort(promise: Promise<void>, signal?: AbortSignal): Promise<boolean> {
  if (!signal) {
    await promise;
    return true;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.then(() => true as const), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
