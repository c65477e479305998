/** Backoff and Retry-After arithmetic for the providers' own retry layer (the SDK's is switched off). */

export interface BackoffOptions {
  /** First retry waits up to this long (full jitter); doubles each attempt. */
  baseMs: number;
  /** Upper bound of any computed backoff. */
  maxMs: number;
}

/** "Full jitter" (AWS architecture blog): uniform in [0, min(max, base·2^attempt)], attempt counted from 0. */
export function fullJitterBackoffMs(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt));
  return Math.floor(random() * ceiling);
}

/** HTTP statuses worth retrying: request timeout, conflict/lock, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined> | undefined | null;

function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait a server asked for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an HTTP date.
 * Undefined when absent or unparseable; never negative.
 */
export function parseRetryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const millis = readHeader(headers, 'retry-after-ms');
  if (millis !== undefined && millis.trim() !== '') {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = readHeader(headers, 'retry-after');
  if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Resolve after `ms`, or reject with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
