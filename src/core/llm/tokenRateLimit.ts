/**
 * A per-provider tokens-per-minute limit, beside the request limit of requestRateLimit.ts (endpoints limit both:
 * OpenAI-compatible gateways count a request's prompt tokens and its completion allowance when it starts). A
 * token bucket that holds at most a minute's tokens and refills evenly: before a request starts it takes the
 * request's estimate (the prompt's estimated tokens and its `maxTokens`, or COMPLETION_RESERVE without one), waiting
 * until the bucket holds that many; when the reply says what it used, the difference is settled (given back, or
 * taken, so the bucket may go below zero and the next requests wait). A request larger than a minute's tokens
 * waits for a full bucket and then goes alone, so it is never refused for good.
 *
 * Where the bucket lives is the ledger: in this process (MemoryTokenLedger, for the tasks in flight of one run) or
 * on the Redis server shared by the queue's workers (scale/rateLimit.ts, the same two operations as Lua scripts on
 * the Redis clock).
 */
import { LlmError } from './errors';
import { waitForLimit } from './requestRateLimit';
import { estimateMessagesTokens } from './tokens';
import { keepScript, type CompletionRequest, type LlmProvider } from './types';

/** The bucket's state; every operation is atomic. */
export interface TokenLedger {
  /**
   * Takes `tokens` from a bucket of `perMinute` capacity refilled at `perMinute` a minute, if it holds
   * min(tokens, perMinute) now: resolves to 0. Else resolves to the wait (ms, > 0) until it will, and takes nothing.
   */
  take(tokens: number, perMinute: number): Promise<number>;
  /** Puts `tokens` back (a negative number takes them), never above the capacity. */
  settle(tokens: number, perMinute: number): Promise<void>;
}

/** Completion tokens reserved for a request that sets no `maxTokens` (settled against the reply's usage). */
export const COMPLETION_RESERVE = 1024;

/** The tokens a request is expected to count against the limit before it starts. */
export function requestTokenEstimate(request: CompletionRequest): number {
  return estimateMessagesTokens(request.messages, request.tools) + (request.maxTokens ?? COMPLETION_RESERVE);
}

/** The ledger of one process: the tasks in flight of a run share it. */
export class MemoryTokenLedger implements TokenLedger {
  private level: number | undefined;
  private at = 0;

  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {}

  private refill(perMinute: number): number {
    const now = this.now();
    this.level = this.level === undefined ? perMinute : Math.min(perMinute, this.level + ((now - this.at) * perMinute) / 60_000);
    this.at = now;
    return this.level;
  }

  async take(tokens: number, perMinute: number): Promise<number> {
    const level = this.refill(perMinute);
    const needed = Math.min(tokens, perMinute);
    if (level >= needed) {
      this.level = level - tokens;
      return 0;
    }
    return Math.max(1, Math.ceil(((needed - level) * 60_000) / perMinute));
  }

  async settle(tokens: number, perMinute: number): Promise<void> {
    this.level = Math.min(perMinute, this.refill(perMinute) + tokens);
  }
}

export class TokenRateLimiter {
  /** `tokensPerMinute` > 0; every user of one ledger must use the same rate. */
  constructor(
    private readonly ledger: TokenLedger,
    private readonly tokensPerMinute: number,
  ) {
    if (!(tokensPerMinute > 0)) throw new RangeError(`tokensPerMinute must be positive, got ${tokensPerMinute}`);
  }

  /** Waits until `tokens` can be taken, and takes them. */
  async acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled while waiting for the token limit.', false);
      const waitMs = await this.ledger.take(tokens, this.tokensPerMinute);
      if (waitMs <= 0) return;
      await waitForLimit(waitMs, signal, 'the token limit');
    }
  }

  /** After the reply (or a failure): `reserved` was taken, `used` is what the endpoint counted. */
  async settle(reserved: number, used: number): Promise<void> {
    if (reserved !== used) await this.ledger.settle(reserved - used, this.tokensPerMinute);
  }
}

/**
 * The provider with every request under the token limiter: the estimate is taken before the request starts and
 * settled with the reply's usage; a request that fails gives its estimate back (a failed request is not what the
 * limit counts; a 429 is retried by the request limiter inside, under the same reservation).
 */
export function withTokenRateLimit(provider: LlmProvider, limiter: TokenRateLimiter): LlmProvider {
  return keepScript(provider, {
    id: provider.id,
    listModels: () => provider.listModels(),
    async complete(request: CompletionRequest) {
      const reserved = requestTokenEstimate(request);
      await limiter.acquire(reserved, request.signal);
      let used = 0;
      try {
        const completion = await provider.complete(request);
        used = completion.usage.prompt + completion.usage.completion;
        return completion;
      } finally {
        await limiter.settle(reserved, used);
      }
    },
  }, (bound) => withTokenRateLimit(bound, limiter));
}

/**
 * The in-process token limits of a run: one limiter per provider id that has a limit, shared by every provider
 * object with that id (the arms', the judge's, the reviser's). A provider without a limit is returned unchanged.
 */
export function inProcessTokenLimits(tokensPerMinute: Readonly<Record<string, number>>): (provider: LlmProvider) => LlmProvider {
  const limiters = new Map<string, TokenRateLimiter>();
  return (provider) => {
    const tpm = tokensPerMinute[provider.id];
    if (!(tpm && tpm > 0)) return provider;
    let limiter = limiters.get(provider.id);
    if (!limiter) limiters.set(provider.id, (limiter = new TokenRateLimiter(new MemoryTokenLedger(), tpm)));
    return withTokenRateLimit(provider, limiter);
  };
}
