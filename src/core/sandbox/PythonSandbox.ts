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
 * Pyodide's WebAssembly memory grows and never shrinks: after a memory bomb (stopped by a MemoryError or the
 * timeout) the peak stays resident in the worker. Past this size the worker is recycled after the call, so the
 * memory goes back to the system; the next call starts a fresh runtime.
 */
export const DEFAULT_RECYCLE_ABOVE_BYTES = 512 * 1024 * 1024;

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
  private readonly recycleAboveBytes: number;
  private disposed = false;
  /** Workers recycled because their memory stayed above the limit; for tests and diagnostics. */
  recycles = 0;

  constructor(image: Uint8Array, limits: SandboxLimits & { recycleAboveBytes?: number } = {}) {
    const resolved = resolveLimits(limits);
    this.timeoutMs = resolved.timeoutMs;
    this.recycleAboveBytes = limits.recycleAboveBytes ?? DEFAULT_RECYCLE_ABOVE_BYTES;
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
          const { ok, error, fatal } = outcome.value;
          let stdout = outcome.value.stdout;
          if (fatal) await this.worker.stop('the Python runtime failed');
          else if (await this.recycleIfLarge(outcome.value)) stdout += this.recycleNote(outcome.value);
          if (ok) return { ok, stdout, elapsedMs: elapsed() };
          return { ok, stdout, error, errorKind: fatal ? 'internal' : 'python', elapsedMs: elapsed() };
        }
        case 'timeout':
          await this.recycleIfLarge(outcome.late);
          return { ok: false, errorKind: 'timeout', error: `timeout: the code ran longer than ${this.timeoutMs} ms and was stopped`, elapsedMs: elapsed() };
        case 'cancelled':
          await this.recycleIfLarge(outcome.late);
          return { ok: false, errorKind: 'cancelled', error: 'cancelled: the code was stopped', elapsedMs: elapsed() };
        case 'failed':
          return { ok: false, errorKind: 'internal', error: outcome.message, elapsedMs: elapsed() };
      }
    });
  }

  /** Ends the worker when its memory stayed above the limit after a call; true when it did. */
  private async recycleIfLarge(outcome: PythonOutcome | undefined): Promise<boolean> {
    if (!outcome || outcome.heapBytes === undefined || outcome.heapBytes <= this.recycleAboveBytes) return false;
    this.recycles++;
    await this.worker.stop('recycled to release its memory');
    return true;
  }

  private recycleNote(outcome: PythonOutcome): string {
    const mib = Math.round((outcome.heapBytes ?? 0) / 2 ** 20);
    return `\nnote: Python's memory grew to ${mib} MiB, so the runtime was restarted to release it; the next call starts without the variables defined so far.\n`;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.worker.stop();
  }
}
