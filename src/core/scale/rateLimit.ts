/**
 * A request rate limit per provider shared by every worker through Redis. BullMQ's own limiter counts jobs
 * (here: whole tasks, each many model requests), so the requests themselves are spaced by one Redis key per
 * provider: each request atomically reserves the next free slot (`max(now, next)`, then `next += 60000 / rpm`)
 * on the Redis server's clock, and is then admitted by a sliding-window log (at most rpm/60 starts in any second,
 * on the Redis clock), so the pool never exceeds the limit whatever the workers' clocks and timers do. A 429 pushes the slot forward for everybody (the whole pool backs off); the queue itself is
 * paused with BullMQ's `queue.rateLimit` by the worker.
 */
import type { Redis } from 'ioredis';
import { LlmError } from '../llm/errors';
import type { CompletionRequest, LlmProvider } from '../llm/types';

const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nextAt)
redis.call('SET', KEYS[1], tostring(at + interval), 'PX', math.ceil(at + interval - now) + 60000)
return tostring(at - now)
`;

/** Sliding-window log: admits a start only while fewer than ARGV[1] starts lie in the last ARGV[2] ms. */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window) + 1000)
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(math.max(1, tonumber(oldest[2]) + window - now))
`;

const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(nextAt, now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], tostring(at), 'PX', math.ceil(at - now) + 60000)
return tostring(at - now)
`;

/** The sliding window of the admission log, ms (longer for limits under one request a second). */
const WINDOW_MS = 1000;
/**
 * Added to the admission window: a request admitted on the Redis clock reaches the server a little later, and by
 * a varying delay (process scheduling, the network), so two admissions just over one window apart can arrive less
 * than one window apart. Admitting against window + guard keeps the server's view under the limit for arrival
 * jitter up to the guard, at the price of a rate of perWindow per (window + guard) when the limit binds.
 */
const ARRIVAL_GUARD_MS = 200;

export function rateLimitKey(prefix: string, providerId: string): string {
  return `${prefix}:ratelimit:${providerId}`;
}

export class SharedRateLimiter {
  private readonly intervalMs: number;
  /** Requests admitted per windowMs. */
  private readonly perWindow: number;
  /** The admission window: one second (or one request's share of a minute) plus ARRIVAL_GUARD_MS. */
  private readonly windowMs: number;
  private sequence = 0;

  /** `requestsPerMinute` > 0; the same key and rate must be used by every worker. */
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
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
   * Waits for this request's slot: first an evenly spaced reservation (smooths the pool's requests), then,
   * right before the request starts, admission by the sliding-window log, which holds the rate within any
   * window of one minute / requestsPerMinute × window-size however late a worker's timer fired.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled before it was sent.', false);
    const waitMs = Number(await this.redis.eval(RESERVE, 1, this.key, String(this.intervalMs)));
    if (waitMs > 0) await sleep(waitMs, signal);
    const member = `${process.pid}:${++this.sequence}:${Math.random()}`;
    for (;;) {
      const retryMs = Number(await this.redis.eval(ADMIT, 1, `${this.key}:log`, String(this.perWindow), String(this.windowMs), member));
      if (retryMs <= 0) return;
      await sleep(retryMs, signal);
    }
  }

  /** Nobody sharing the key starts a request for `ms` from now. */
  async pause(ms: number): Promise<void> {
    await this.redis.eval(PAUSE, 1, this.key, String(Math.max(0, ms)));
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError('cancelled', 'The model request was cancelled while waiting for the shared rate limit.', false));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.ceil(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The provider with every request under the shared limiter. A rate-limit error (after the provider's own
 * retries) pauses the limiter for its Retry-After (default 1 s) and is reported to `onRateLimited` (the worker
 * backs the queue off and puts the task back), then rethrown.
 */
export function withSharedRateLimit(provider: LlmProvider, limiter: SharedRateLimiter, onRateLimited: (retryAfterMs: number) => void): LlmProvider {
  return {
    id: provider.id,
    listModels: () => provider.listModels(),
    async complete(request: CompletionRequest) {
      await limiter.acquire(request.signal);
      try {
        return await provider.complete(request);
      } catch (error) {
        if (error instanceof LlmError && error.kind === 'rate_limit') {
          const ms = error.retryAfterMs ?? 1000;
          await limiter.pause(ms);
          onRateLimited(ms);
        }
        throw error;
      }
    },
  };
}

/**
 * For the queue benchmark: the offline simulated models with a real network round trip. Each completion first
 * POSTs an OpenAI-style chat request to `endpoint` (a server with a fixed latency that logs what it receives),
 * so the workload is latency-bound and the request rate is observed at a server; the reply itself comes from
 * the simulation, so the output stays the seeded offline-sim output. A 429 from the endpoint is a rate-limit error.
 */
export function withLatencyEndpoint(provider: LlmProvider, endpoint: string): LlmProvider {
  const url = `${endpoint.replace(/\/+$/, '')}/chat/completions`;
  return {
    id: provider.id,
    listModels: () => provider.listModels(),
    async complete(request: CompletionRequest) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: request.model, messages: [{ role: 'user', content: 'ping' }] }),
        signal: request.signal,
      });
      await response.arrayBuffer();
      if (response.status === 429) {
        const after = Number(response.headers.get('retry-after'));
        throw new LlmError('rate_limit', `The endpoint ${endpoint} is rate limiting requests (HTTP 429).`, true, { status: 429, retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : undefined });
      }
      if (!response.ok) throw new LlmError('server', `The latency endpoint ${endpoint} answered HTTP ${response.status}.`, true, { status: response.status });
      return provider.complete(request);
    },
  };
}
