import * as assert from 'node:assert/strict';
import { LlmError } from '../../src/core/llm/errors';
import { COMPLETION_RESERVE, inProcessTokenLimits, MemoryTokenLedger, requestTokenEstimate, TokenRateLimiter, withTokenRateLimit, type TokenLedger } from '../../src/core/llm/tokenRateLimit';
import { estimateMessagesTokens } from '../../src/core/llm/tokens';
import type { Completion, CompletionRequest, LlmProvider } from '../../src/core/llm/types';
import { RedisTokenLedger } from '../../src/core/scale/rateLimit';
import { connectRedis } from '../../src/core/scale/queue';
import { startRedis, type TestRedis } from '../support/redisServer';

/** A provider that answers with the given usage (or throws the scripted errors first), recording each request. */
function usageProvider(id: string, usage: { prompt: number; completion: number }, errors: Error[] = []): LlmProvider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    id,
    requests,
    listModels: async () => [],
    async complete(request: CompletionRequest): Promise<Completion> {
      requests.push(request);
      const error = errors.shift();
      if (error) throw error;
      return { message: { content: 'ok', toolCalls: [] }, usage, latencyMs: 0, costUsd: 0 };
    },
  };
}

/** A ledger that records what is taken and settled and answers the scripted waits before taking. */
function recordingLedger(waits: number[] = []): TokenLedger & { taken: number[]; settled: number[] } {
  const taken: number[] = [];
  const settled: number[] = [];
  return {
    taken,
    settled,
    async take(tokens) {
      const wait = waits.shift() ?? 0;
      if (wait > 0) return wait;
      taken.push(tokens);
      return 0;
    },
    async settle(tokens) {
      settled.push(tokens);
    },
  };
}

const request = (content: string, maxTokens?: number, signal?: AbortSignal): CompletionRequest => ({ model: 'm', messages: [{ role: 'user', content }], ...(maxTokens ? { maxTokens } : {}), signal });

describe('llm: the tokens-per-minute limit', () => {
  it('the memory bucket holds a minute of tokens, refills evenly, and settles both ways', async () => {
    let now = 0;
    const ledger = new MemoryTokenLedger(() => now);
    assert.equal(await ledger.take(4000, 6000), 0, 'a full bucket to start with');
    assert.equal(await ledger.take(3000, 6000), 10_000, '2,000 left: 1,000 more tokens at 100 a second');
    now = 10_000;
    assert.equal(await ledger.take(3000, 6000), 0, 'refilled to 3,000 after 10 s');
    await ledger.settle(2500, 6000);
    assert.equal(await ledger.take(2500, 6000), 0, 'a reply that used less gave its tokens back');
    await ledger.settle(-1200, 6000);
    assert.equal(await ledger.take(1, 6000), 12_010, 'a reply that used more took them: the bucket is below zero');
    now = 1_000_000;
    assert.equal(await ledger.take(9000, 6000), 0, 'a request over a minute of tokens goes when the bucket is full');
    assert.equal(await ledger.take(6000, 6000), 90_000, 'and the next waits until it is full again');
    await ledger.settle(1_000_000, 6000);
    assert.equal(await ledger.take(6000, 6000), 0, 'settling never fills the bucket over its capacity');
    assert.equal(await ledger.take(1, 6000), 10, 'the bucket was capped at 6,000');
  });

  it('takes the request estimate before it starts and settles it with the reply usage', async () => {
    const ledger = recordingLedger();
    const provider = usageProvider('p', { prompt: 30, completion: 70 });
    const limited = withTokenRateLimit(provider, new TokenRateLimiter(ledger, 10_000));
    await limited.complete(request('How many orders were placed in March?', 500));
    const estimate = estimateMessagesTokens([{ role: 'user', content: 'How many orders were placed in March?' }]) + 500;
    assert.deepEqual(ledger.taken, [estimate]);
    assert.deepEqual(ledger.settled, [estimate - 100], 'the tokens the reply did not use go back');
    assert.equal(requestTokenEstimate(request('x')), estimateMessagesTokens([{ role: 'user', content: 'x' }]) + COMPLETION_RESERVE, 'without maxTokens a completion allowance is reserved');
  });

  it('waits while the bucket is short, gives back all of a failed request, and stops waiting when cancelled', async () => {
    const ledger = recordingLedger([15, 15]);
    const failing = usageProvider('p', { prompt: 1, completion: 1 }, [new LlmError('server', 'down', true)]);
    const limited = withTokenRateLimit(failing, new TokenRateLimiter(ledger, 10_000));
    const started = Date.now();
    await assert.rejects(limited.complete(request('hi', 100)), /down/);
    assert.ok(Date.now() - started >= 25, 'it waited the two answers of the ledger');
    assert.equal(failing.requests.length, 1);
    assert.deepEqual(ledger.settled, ledger.taken, 'a failed request counted nothing');

    const slow = recordingLedger([60_000]);
    const abort = new AbortController();
    const waiting = withTokenRateLimit(usageProvider('p', { prompt: 1, completion: 1 }), new TokenRateLimiter(slow, 10_000)).complete(request('hi', 100, abort.signal));
    setTimeout(() => abort.abort(), 10);
    await assert.rejects(waiting, (error: unknown) => error instanceof LlmError && error.kind === 'cancelled');
    assert.deepEqual(slow.taken, [], 'a cancelled request took nothing');
  });

  it('one bucket per provider id for every provider object with it; providers without a limit are unchanged', async () => {
    const limit = inProcessTokenLimits({ a: 1000 });
    const a1 = usageProvider('a', { prompt: 400, completion: 400 });
    const a2 = usageProvider('a', { prompt: 400, completion: 400 });
    const b = usageProvider('b', { prompt: 1, completion: 1 });
    assert.equal(limit(b), b);
    const [la1, la2] = [limit(a1), limit(a2)];
    await la1.complete(request('x', 200));
    // 1,000 a minute, 800 used: the second provider object with id 'a' must wait for the same bucket.
    const abort = new AbortController();
    const second = la2.complete(request('x', 800, abort.signal));
    setTimeout(() => abort.abort(), 30);
    await assert.rejects(second, (error: unknown) => error instanceof LlmError && error.kind === 'cancelled');
    assert.equal(a2.requests.length, 0, 'the shared bucket held the second request back');
  });

  describe('on Redis (queue mode)', function () {
    this.timeout(30_000);
    let redis: TestRedis;
    before(async () => {
      redis = await startRedis();
    });
    after(async () => redis?.stop());

    it('the same bucket on the Redis clock: takes, waits, settles', async () => {
      const client = connectRedis(redis.url);
      try {
        const ledger = new RedisTokenLedger(client, 'test:ratelimit:p');
        assert.equal(await ledger.take(5000, 6000), 0);
        const wait = await ledger.take(3000, 6000);
        // 1,000 left (plus what refilled since, at 100 a second): about 20 s until 3,000.
        assert.ok(wait > 19_000 && wait <= 20_000, `waits ${wait} ms`);
        await ledger.settle(4000, 6000);
        assert.equal(await ledger.take(3000, 6000), 0, 'given back');
        await ledger.settle(100_000, 6000);
        assert.equal(await ledger.take(6000, 6000), 0, 'capped at a minute of tokens, and full');
        assert.ok((await ledger.take(600, 6000)) > 5000, 'empty again');
      } finally {
        client.disconnect();
      }
    });
  });
});
