/**
 * A request rate limit (and a tokens-per-minute limit) per provider shared by every worker through Redis. BullMQ's own limiter counts jobs
 * (here: whole tasks, each many model requests), so the requests themselves are spaced by the request rate
 * limiter of llm/requestRateLimit.ts (the one a single process uses for its tasks in flight) on a Redis ledger,
 * one key per provider: slots and the sliding-window admission log live on the Redis server's clock, so the pool
 * never exceeds the limit whatever the workers' clocks and timers do. A 429 pushes the slot forward for everybody
 * (the whole pool backs off); the queue itself is paused with BullMQ's `queue.rateLimit` by the worker.
 */
import type { Redis } from 'ioredis';
import { LlmError } from '../llm/errors';
import { RequestRateLimiter, withRequestRateLimit, type RateLimitLedger } from '../llm/requestRateLimit';
import { TokenRateLimiter, withTokenRateLimit, type TokenLedger } from '../llm/tokenRateLimit';
import { keepScript, type CompletionRequest, type LlmProvider } from '../llm/types';

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

export function rateLimitKey(prefix: string, providerId: string): string {
  return `${prefix}:ratelimit:${providerId}`;
}

/** The limiter's slots and admission log on the Redis server, shared by every worker (on the Redis clock). */
export class RedisLedger implements RateLimitLedger {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async reserve(intervalMs: number): Promise<number> {
    return Number(await this.redis.eval(RESERVE, 1, this.key, String(intervalMs)));
  }

  async admit(limit: number, windowMs: number, member: string): Promise<number> {
    return Number(await this.redis.eval(ADMIT, 1, `${this.key}:log`, String(limit), String(windowMs), member));
  }

  async pause(ms: number): Promise<void> {
    await this.redis.eval(PAUSE, 1, this.key, String(Math.max(0, ms)));
  }
}

/** The token bucket (llm/tokenRateLimit.ts) on the Redis clock: refills, then takes ARGV[1] if it holds min(ARGV[1], capacity). */
const TAKE_TOKENS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local tokens = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local level = tonumber(redis.call('HGET', KEYS[1], 'level') or tostring(capacity))
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or tostring(now))
level = math.min(capacity, level + (now - at) * capacity / 60000)
local needed = math.min(tokens, capacity)
local wait = 0
if level >= needed then
  level = level - tokens
else
  wait = math.max(1, math.ceil((needed - level) * 60000 / capacity))
end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
return tostring(wait)
`;

/** Puts ARGV[1] tokens back (negative: takes them), never above the capacity ARGV[2]. */
const SETTLE_TOKENS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local capacity = tonumber(ARGV[2])
local level = tonumber(redis.call('HGET', KEYS[1], 'level') or tostring(capacity))
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or tostring(now))
level = math.min(capacity, level + (now - at) * capacity / 60000 + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
return 'OK'
`;

/** The token bucket of a tokens-per-minute limit on the Redis server, shared by every worker. */
export class RedisTokenLedger implements TokenLedger {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async take(tokens: number, perMinute: number): Promise<number> {
    return Number(await this.redis.eval(TAKE_TOKENS, 1, `${this.key}:tokens`, String(tokens), String(perMinute)));
  }

  async settle(tokens: number, perMinute: number): Promise<void> {
    await this.redis.eval(SETTLE_TOKENS, 1, `${this.key}:tokens`, String(tokens), String(perMinute));
  }
}

/** The request rate limiter (llm/requestRateLimit.ts) on a Redis ledger: one limit for the whole worker pool. */
export class SharedRateLimiter extends RequestRateLimiter {
  /** `requestsPerMinute` > 0; the same key and rate must be used by every worker. */
  constructor(redis: Redis, key: string, requestsPerMinute: number) {
    super(new RedisLedger(redis, key), requestsPerMinute);
  }
}

/**
 * The provider with every request under the shared limiter. A rate-limit error (after the provider's own
 * retries) pauses the limiter for its Retry-After (default 1 s) and is reported to `onRateLimited` (the worker
 * backs the queue off and puts the task back), then rethrown.
 */
export function withSharedRateLimit(provider: LlmProvider, limiter: SharedRateLimiter, onRateLimited: (retryAfterMs: number) => void): LlmProvider {
  return withRequestRateLimit(provider, limiter, { onRateLimited });
}

/** The provider under the pool's shared tokens-per-minute limit (the same key and rate for every worker). */
export function withSharedTokenLimit(provider: LlmProvider, redis: Redis, key: string, tokensPerMinute: number): LlmProvider {
  return withTokenRateLimit(provider, new TokenRateLimiter(new RedisTokenLedger(redis, key), tokensPerMinute));
}

/**
 * For the queue benchmark: the offline simulated models with a real network round trip. Each completion first
 * POSTs an OpenAI-style chat request to `endpoint` (a server with a fixed latency that logs what it receives),
 * so the workload is latency-bound and the request rate is observed at a server; the reply itself comes from
 * the simulation, so the output stays the seeded offline-sim output. A 429 from the endpoint is a rate-limit error.
 */
export function withLatencyEndpoint(provider: LlmProvider, endpoint: string): LlmProvider {
  const url = `${endpoint.replace(/\/+$/, '')}/chat/completions`;
  return keepScript(provider, {
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
  }, (bound) => withLatencyEndpoint(bound, endpoint));
}
