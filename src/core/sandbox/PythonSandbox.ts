import * as path from 'node:path';
import { pyodideDir, sqlWasmPath } from '../assets';
import { SandboxWorker } from './SandboxWorker';
import type { PythonOutcome, PythonWorkerData } from './protocol';
import type { SandboxLimits, ToolResult } from './types';
import { SerialQueue, resolveLimits } from './limits';

/** Pyodide's cold start (WASM + stdlib) plus the image; measured at ~3–7 s on a busy 2-core machine. */
const PYTHON_STARTUP_TIMEOUT_MS = 120_000;
/** After a timeout, how long running code gets to stop at the KeyboardInterrupt before the worker is killed. */
const INTERRUPT_GRACE_MS = 500;
const SIGINT = 2;

/**
 * Python (Pyodide, stdlib only, offline) in a worker thread, started lazily on the first call. Code can call
 * `sql(query)` (list of dicts) or `sql_columns(query)` ((columns, rows)) to read the environment's tables.
 *
 * Globals persist across the calls of one sandbox, like notebook cells, until a timeout kills the worker.
 * On timeout or abort, a KeyboardInterrupt is raised in the running code first (the worker and its globals
 * survive when the code stops within 500 ms); otherwise the worker is terminated and the next call starts a
 * fresh one. stdout and stderr are captured per call.
 */
export class PythonSandbox {
  private readonly worker: SandboxWorker<PythonOutcome>;
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  private disposed = false;

  constructor(image: Uint8Array, limits: SandboxLimits = {}) {
    const resolved = resolveLimits(limits);
    this.timeoutMs = resolved.timeoutMs;
    const wasmPath = sqlWasmPath();
    const runtimeDir = pyodideDir();
    let interruptFlag = new Int32Array(new SharedArrayBuffer(4));
    this.worker = new SandboxWorker<PythonOutcome>({
      script: path.join(__dirname, 'pythonWorker.js'),
      workerData: (): PythonWorkerData => {
        // A fresh flag per worker: a killed worker's flag must not interrupt its successor.
        interruptFlag = new Int32Array(new SharedArrayBuffer(4));
        return { image, wasmPath, pyodideDir: runtimeDir, maxRows: resolved.maxRows, interruptBuffer: interruptFlag.buffer as SharedArrayBuffer };
      },
      startupTimeoutMs: PYTHON_STARTUP_TIMEOUT_MS,
      interrupt: { request: () => Atomics.store(interruptFlag, 0, SIGINT), graceMs: INTERRUPT_GRACE_MS },
    });
  }

  /** Workers started so far; for tests and diagnostics. */
  get spawnCount(): number {
    return this.worker.spawnCount;
  }

  /** Cold start of the current worker (Pyodide + image), in ms, once it has started. */
  get startupMs(): number | undefined {
    return this.worker.lastStartupMs;
  }

  run(code: string, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    return this.queue.enqueue(async () => {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      if (this.disposed) return { ok: false, errorKind: 'internal', error: 'the sandbox was disposed', elapsedMs: elapsed() };
      // maxRows travels in workerData (the sql() helper's cap); the per-call field is unused for Python.
      const outcome = await this.worker.call(code, 0, this.timeoutMs, options.signal);
      switch (outcome.kind) {
        case 'done': {
          const { ok, stdout, error, fatal } = outcome.value;
          if (ok) return { ok, stdout, elapsedMs: elapsed() };
          if (fatal) await this.worker.stop('the Python runtime failed');
          return { ok, stdout, error, errorKind: fatal ? 'internal' : 'python', elapsedMs: elapsed() };
        }
        case 'timeout':
          return { ok: false, errorKind: 'timeout', error: `timeout: the code ran longer than ${this.timeoutMs} ms and was stopped`, elapsedMs: elapsed() };
        case 'cancelled':
          return { ok: false, errorKind: 'cancelled', error: 'cancelled: the code was stopped', elapsedMs: elapsed() };
        case 'failed':
          return { ok: false, errorKind: 'internal', error: outcome.message, elapsedMs: elapsed() };
      }
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.worker.stop();
  }
}
