import * as assert from 'node:assert/strict';
import { LlmError } from '../../src/core/llm/errors';
import { inProcessRateLimits, MemoryLedger, RequestRateLimiter, withInProcessRateLimits, withRequestRateLimit } from '../../src/core/llm/requestRateLimit';
import type { Completion, CompletionRequest, LlmProvider } from '../../src/core/llm/types';

/** A provider that records when each request started and answers at once (or with the scripted errors first). */
function recordingProvider(id: string, errors: LlmError[] = []): LlmProvider & { starts: number[] } {
  const starts: number[] = [];
  return {
    id,
    starts,
    listModels: async () => [],
    async complete(_request: CompletionRequest): Promise<Completion> {
      starts.push(Date.now());
      const error = errors.shift();
      if (error) throw error;
      return { text: 'ok', toolCalls: [], usage: { prompt: 1, completion: 1 }, latencyMs: 0, costUsd: 0 } as unknown as Completion;
    },
  };
}

const request = (signal?: AbortSignal): CompletionRequest => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal }) as unknown as CompletionRequest;

describe('llm: the request rate limit in one process', () => {
  it('the memory ledger spaces reservations, admits at most the limit per window, and a pause moves every slot', async () => {
    let now = 1000;
    const ledger = new MemoryLedger(() => now);
    assert.equal(await ledger.reserve(100), 0);
    assert.equal(await ledger.reserve(100), 100);
    assert.equal(await ledger.reserve(100), 200);
    now = 1050;
    assert.equal(await ledger.reserve(100), 250, 'slots queue up behind each other');
    for (let i = 0; i < 3; i++) assert.equal(await ledger.admit(3, 1000, `m${i}`), 0);
    const wait = await ledger.admit(3, 1000, 'm3');
    assert.equal(wait, 1000, 'the fourth start waits until the oldest leaves the window');
    now = 2050;
    assert.equal(await ledger.admit(3, 1000, 'm3'), 0, 'admitted once the oldest left');
    await ledger.pause(5000);
    assert.equal(await ledger.reserve(100), 5000, 'a pause holds the next slot');
  });

  it('never starts more than the limit in any window, across concurrent callers', async () => {
    const provider = recordingProvider('p');
    const [limited] = withInProcessRateLimits([provider], { p: 1200 }); // 20 per second
    await Promise.all(Array.from({ length: 30 }, () => limited.complete(request())));
    const starts = [...provider.starts].sort((a, b) => a - b);
    // The limiter admits 20 per 1.2 s (window + arrival guard): never more than 20 in any 1 s.
    for (let i = 0; i + 20 < starts.length; i++) assert.ok(starts[i + 20] - starts[i] >= 1000, `starts ${i} and ${i + 20} lie ${starts[i + 20] - starts[i]} ms apart`);
  });

  it('a 429 pauses every request under the limiter for its Retry-After and is sent again', async () => {
    const rateLimited = new LlmError('rate_limit', 'slow down', true, { status: 429, retryAfterMs: 300 });
    const provider = recordingProvider('p', [rateLimited]);
    const pauses: number[] = [];
    const limiter = new RequestRateLimiter(new MemoryLedger(), 60_000);
    const limited = withRequestRateLimit(provider, limiter, { retries: 2, onRateLimited: (ms) => pauses.push(ms) });
    const first = limited.complete(request());
    await new Promise((resolve) => setTimeout(resolve, 20));
    const rejectedAt = provider.starts[0];
    const second = limited.complete(request());
    await Promise.all([first, second]);
    assert.deepEqual(pauses, [300]);
    assert.equal(provider.starts.length, 3, 'the rate-limited request was sent again');
    for (const start of provider.starts.slice(1)) assert.ok(start - rejectedAt >= 290, `a request started ${start - rejectedAt} ms after the 429, inside its Retry-After`);
  });

  it('without retries a 429 is rethrown (queue mode puts the task back); a cancelled wait rejects at once', async () => {
    const provider = recordingProvider('p', [new LlmError('rate_limit', 'slow down', true, { status: 429, retryAfterMs: 10_000 })]);
    const limited = withRequestRateLimit(provider, new RequestRateLimiter(new MemoryLedger(), 60_000));
    await assert.rejects(limited.complete(request()), (e: unknown) => e instanceof LlmError && e.kind === 'rate_limit');
    const abort = new AbortController();
    const waiting = limited.complete(request(abort.signal));
    abort.abort();
    await assert.rejects(waiting, (e: unknown) => e instanceof LlmError && e.kind === 'cancelled');
    assert.equal(provider.starts.length, 1, 'the cancelled request was never sent');
  });

  it("one limiter per provider id: the arms', the judge's and the reviser's requests to one endpoint share its limit and its 429 pause", async () => {
    // Three provider objects for one endpoint (as a run's arm provider, its judge and its reviser are).
    const rateLimited = new LlmError('rate_limit', 'slow down', true, { status: 429, retryAfterMs: 400 });
    const arm = recordingProvider('endpoint');
    const judge = recordingProvider('endpoint', [rateLimited]);
    const reviser = recordingProvider('endpoint');
    const other = recordingProvider('elsewhere');
    const pauses: number[] = [];
    const limited = inProcessRateLimits({ endpoint: 600, elsewhere: 600 }, { retries: 1, onRateLimited: (ms) => pauses.push(ms) }); // 10 per second each
    const [la, lj, lr, lo] = [arm, judge, reviser, other].map(limited);
    // The judge's first request gets the 429; everything under the endpoint's limiter waits out its Retry-After.
    const judged = lj.complete(request());
    await new Promise((resolve) => setTimeout(resolve, 30));
    const rejectedAt = judge.starts[0];
    await Promise.all([judged, ...Array.from({ length: 10 }, (_, i) => [la, lr][i % 2].complete(request())), ...Array.from({ length: 10 }, () => lo.complete(request()))]);
    assert.deepEqual(pauses, [400]);
    const endpoint = [...arm.starts, ...judge.starts, ...reviser.starts].sort((a, b) => a - b);
    assert.equal(endpoint.length, 12, "ten requests, the judge's and its retry");
    for (const start of endpoint.slice(1)) assert.ok(start - rejectedAt >= 390, `a request to the endpoint started ${start - rejectedAt} ms after the judge's 429`);
    // Together they keep the endpoint's one limit: never more than 10 in any 1 s window.
    for (let i = 0; i + 10 < endpoint.length; i++) assert.ok(endpoint[i + 10] - endpoint[i] >= 1000, `starts ${i} and ${i + 10} lie ${endpoint[i + 10] - endpoint[i]} ms apart`);
    // Another endpoint has a limiter of its own: the 429 did not pause it.
    assert.ok(Math.min(...other.starts) - rejectedAt < 390, 'the other endpoint was not paused');
  });

  it('leaves providers without a limit as they are', () => {
    const a = recordingProvider('a');
    const b = recordingProvider('b');
    const [la, lb] = withInProcessRateLimits([a, b], { a: 60 });
    assert.notEqual(la, a);
    assert.equal(lb, b);
  });
});
