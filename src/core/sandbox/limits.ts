import type { SandboxLimits } from './types';

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_ROWS = 1000;

/** Limits with defaults applied; nonsense values (0, negative, NaN) fall back to the defaults. */
export function resolveLimits(limits: SandboxLimits): Required<SandboxLimits> {
  const positive = (value: number | undefined, fallback: number): number =>
    value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
  return { timeoutMs: positive(limits.timeoutMs, DEFAULT_TIMEOUT_MS), maxRows: positive(limits.maxRows, DEFAULT_MAX_ROWS) };
}

/** Runs tasks one at a time in call order; a failing task does not block the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
