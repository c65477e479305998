/**
 * A per-provider request rate limit, the one queue mode and a single process share. Each request first reserves
 * the next evenly spaced slot (`max(now, next)`, then `next += interval`), then, right before it starts, is
 * admitted by a sliding-window log (at most rpm/60 starts in any window), so the endpoint never sees more than the
 * limit whatever the timers do. A 429 pushes the next slot forward for every request under the limiter: the whole
 * run backs off.
 *
 * Where the slots and the log live is the ledger: in this process (MemoryLedger, for the tasks in flight of one
 * run) or on a Redis server shared by the queue's workers (scale/rateLimit.ts, the same three operations as Lua
 * scripts on the Redis clock).
 */
import { LlmError } from './errors';
import { keepScript, type CompletionRequest, type LlmProvider } from './types';

/** The limiter's state; every operation is atomic and returns a wait in ms. */
export interface RateLimitLedger {
  /** Reserves the next slot `intervalMs` after the last; resolves to the wait until it. */
  reserve(intervalMs: number): Promise<number>;
  /** Admits a start when fewer than `limit` lie in the last `windowMs`; else resolves to the wait (> 0) and admits nothing. */
  admit(limit: number, windowMs: number, member: string): Promise<number>;
  /** No slot starts before `ms` from now. */
  pause(ms: number): Promise<void>;
}

/** The sliding window of the admission log, ms (longer for limits under one request a second). */
const WINDOW_MS = 1000;
/**
 * Added to the admission window: a request admitted by the ledger reaches the server a little later, and by a
 * varying delay (process scheduling, the network), so two admissions just over one window apart can arrive less
 * than one window apart. Admitting against window + guard keeps the server's view under the limit for arrival
 * jitter up to the guard, at the price of a rate of perWindow per (window + guard) when the limit binds.
 */
const ARRIVAL_GUARD_MS = 200;

export class RequestRateLimiter {
  private readonly intervalMs: number;
  /** Requests admitted per windowMs. */
  private readonly perWindow: number;
  /** The admission window: one second (or one request's share of a minute) plus ARRIVAL_GUARD_MS. */
  private readonly windowMs: number;
  private sequence = 0;

  /** `requestsPerMinute` > 0; every user of one ledger must use the same rate. */
  constructor(
    private readonly ledger: RateLimitLedger,
    requestsPerMinute: number,
  ) {
    if (!(requestsPerMinute > 0)) throw new RangeError(`requestsPerMinute must be positive, got ${requestsPerMinute}`);
    const windowMs = requestsPerMinute >= 60_000 / WINDOW_MS ? WINDOW_MS : 60_000 / requestsPerMinute;
    this.perWindow = Math.max(1, Math.floor((requestsPerMinute * windowMs) / 60_000));
    this.windowMs = windowMs + ARRIVAL_GUARD_MS;
    // Spacing that matches the guarded window, so the reservations do not bunch up at the admission log.
    this.intervalMs = this.windowMs / this.perWindow;
  }

  /**
   * Waits for this request's slot: first an evenly spaced reservation (smooths the requests), then, right before
   * the request starts, admission by the sliding-window log.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled before it was sent.', false);
    const waitMs = await this.ledger.reserve(this.intervalMs);
    if (waitMs > 0) await waitForLimit(waitMs, signal);
    const member = `${process.pid}:${++this.sequence}:${Math.random()}`;
    for (;;) {
      const retryMs = await this.ledger.admit(this.perWindow, this.windowMs, member);
      if (retryMs <= 0) return;
      await waitForLimit(retryMs, signal);
    }
  }

  /** Nobody under this limiter starts a request for `ms` from now. */
  async pause(ms: number): Promise<void> {
    await this.ledger.pause(Math.max(0, ms));
  }
}

/** The ledger of one process: the tasks in flight of a run share it. */
export class MemoryLedger implements RateLimitLedger {
  private nextAt = 0;
  private readonly log: number[] = [];

  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {}

  async reserve(intervalMs: number): Promise<number> {
    const now = this.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + intervalMs;
    return at - now;
  }

  async admit(limit: number, windowMs: number, _member?: string): Promise<number> {
    const now = this.now();
    while (this.log.length > 0 && this.log[0] <= now - windowMs) this.log.shift();
    if (this.log.length < limit) {
      this.log.push(now);
      return 0;
    }
    return Math.max(1, this.log[0] + windowMs - now);
  }

  async pause(ms: number): Promise<void> {
    this.nextAt = Math.max(this.nextAt, this.now() + ms);
  }
}

export interface RateLimitedOptions {
  /** Told of every 429 (after the provider's own retries) with the pause it set. */
  onRateLimited?: (retryAfterMs: number) => void;
  /**
   * How often a rate-limited request is sent again after the pause (default 0: rethrown, as queue mode wants,
   * where the worker puts the task back). A single process retries, so a 429 changes no result.
   */
  retries?: number;
}

/**
 * The provider with every request under the limiter. A rate-limit error pauses the limiter for its Retry-After
 * (default 1 s), for every request under it, is reported, and is retried up to `retries` times, else rethrown.
 */
export function withRequestRateLimit(provider: LlmProvider, limiter: RequestRateLimiter, options: RateLimitedOptions = {}): LlmProvider {
  const retries = Math.max(0, Math.floor(options.retries ?? 0));
  return keepScript(provider, {
    id: provider.id,
    listModels: () => provider.listModels(),
    async complete(request: CompletionRequest) {
      for (let attempt = 0; ; attempt++) {
        await limiter.acquire(request.signal);
        try {
          return await provider.complete(request);
        } catch (error) {
          if (!(error instanceof LlmError && error.kind === 'rate_limit')) throw error;
          const ms = error.retryAfterMs ?? 1000;
          await limiter.pause(ms);
          options.onRateLimited?.(ms);
          if (attempt >= retries || request.signal?.aborted) throw error;
        }
      }
    },
  }, (bound) => withRequestRateLimit(bound, limiter, options));
}

/**
 * The in-process limits of a run: one limiter per provider id that has a limit, shared by every provider object
 * with that id — the arms' providers, the judge's and the reviser's — so all of a run's requests to one endpoint
 * count against its one limit, and a 429 to any of them backs all of them off. A provider without a limit is
 * returned unchanged.
 */
export function inProcessRateLimits(requestsPerMinute: Readonly<Record<string, number>>, options: RateLimitedOptions = {}): (provider: LlmProvider) => LlmProvider {
  const limiters = new Map<string, RequestRateLimiter>();
  return (provider) => {
    const rpm = requestsPerMinute[provider.id];
    if (!(rpm && rpm > 0)) return provider;
    let limiter = limiters.get(provider.id);
    if (!limiter) limiters.set(provider.id, (limiter = new RequestRateLimiter(new MemoryLedger(), rpm)));
    return withRequestRateLimit(provider, limiter, options);
  };
}

/** One in-process limiter per provider id that has a limit; the others unchanged. */
export function withInProcessRateLimits(providers: readonly LlmProvider[], requestsPerMinute: Readonly<Record<string, number>>, options: RateLimitedOptions = {}): LlmProvider[] {
  return providers.map(inProcessRateLimits(requestsPerMinute, options));
}

/** Waits `ms`; an abort (before or during the wait) rejects with a cancellation that says `what` was awaited. */
export function waitForLimit(ms: number, signal: AbortSignal | undefined, what = 'the rate limit'): Promise<void> {
  const cancelled = () => new LlmError('cancelled', `The model request was cancelled while waiting for ${what}.`, false);
  // The signal may have aborted while the ledger answered: an abort event already fired is never heard again.
  if (signal?.aborted) return Promise.reject(cancelled());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.ceil(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
