import * as path from 'node:path';
import { sqlWasmPath } from '../assets';
import { SandboxWorker, type CallOutcome } from './SandboxWorker';
import type { SqlOutcome } from './sqlEngine';
import type { SqlWorkerData } from './protocol';
import type { SandboxLimits, ToolResult } from './types';
import { SerialQueue, resolveLimits } from './limits';

/** Opening the image in a fresh worker; a large image takes a while, and it is not the query's time. */
const SQL_STARTUP_TIMEOUT_MS = 60_000;

/**
 * Read-only SQL over an environment image, in a worker thread (sql.js). Writes are refused by a statement guard
 * and by `PRAGMA query_only`; a query that overruns its timeout (or whose signal aborts) is stopped by
 * terminating the worker, and a fresh one is started right away for the next query. Calls run one at a time.
 */
export class SqlSandbox {
  private readonly worker: SandboxWorker<SqlOutcome>;
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  private readonly maxRows: number;
  private disposed = false;

  constructor(image: Uint8Array, limits: SandboxLimits = {}) {
    ({ timeoutMs: this.timeoutMs, maxRows: this.maxRows } = resolveLimits(limits));
    const wasmPath = sqlWasmPath();
    this.worker = new SandboxWorker<SqlOutcome>({
      script: path.join(__dirname, 'sqlWorker.js'),
      workerData: (): SqlWorkerData => ({ image, wasmPath }),
      startupTimeoutMs: SQL_STARTUP_TIMEOUT_MS,
    });
  }

  /** Workers started so far (1 + one per stopped query); for tests and diagnostics. */
  get spawnCount(): number {
    return this.worker.spawnCount;
  }

  run(query: string, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    return this.queue.enqueue(async () => {
      const started = performance.now();
      if (this.disposed) return disposedResult(started);
      const outcome = await this.worker.call(query, this.maxRows, this.timeoutMs, options.signal);
      if ((outcome.kind === 'timeout' || outcome.kind === 'cancelled') && !this.disposed) {
        // Respawn now, so the next query does not pay for it; a failure here surfaces on that query.
        this.worker.start().catch(() => undefined);
      }
      return toToolResult(outcome, started, this.timeoutMs);
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.worker.stop();
  }
}

function toToolResult(outcome: CallOutcome<SqlOutcome>, started: number, timeoutMs: number): ToolResult {
  const elapsedMs = Math.round(performance.now() - started);
  switch (outcome.kind) {
    case 'done':
      return { ...outcome.value, elapsedMs };
    case 'timeout':
      return { ok: false, errorKind: 'timeout', error: `timeout: the query ran longer than ${timeoutMs} ms and was stopped`, elapsedMs };
    case 'cancelled':
      return { ok: false, errorKind: 'cancelled', error: 'cancelled: the query was stopped', elapsedMs };
    case 'failed':
      return { ok: false, errorKind: 'internal', error: outcome.message, elapsedMs };
  }
}

function disposedResult(started: number): ToolResult {
  return { ok: false, errorKind: 'internal', error: 'the sandbox was disposed', elapsedMs: Math.round(performance.now() - started) };
}


