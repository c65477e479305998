import { strict as assert } from 'node:assert';
import { EndpointLimiter, Semaphore, TokenBucket, endpointKey, forgetEndpointLimiter, sharedEndpointLimiter } from '../../src/core/llm/endpointLimiter';
import { LlmError } from '../../src/core/llm/errors';
import { abortableSleep, fullJitterBackoffMs, isRetryableStatus, parseRetryAfterMs } from '../../src/core/llm/retryPolicy';

describe('llm: retry policy', () => {
  it('full jitter stays within [0, min(max, base·2^attempt)] and grows with the attempt', () => {
    const options = { baseMs: 100, maxMs: 1_000 };
    assert.equal(fullJitterBackoffMs(0, options, () => 0.999999), 99);
    assert.equal(fullJitterBackoffMs(2, options, () => 0.5), 200);
    assert.equal(fullJitterBackoffMs(10, options, () => 0.999999), 999);
    assert.equal(fullJitterBackoffMs(3, options, () => 0), 0);
    let seed = 7;
    const lcg = (): number => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let attempt = 0; attempt < 8; attempt++) {
      for (let i = 0; i < 50; i++) {
        const wait = fullJitterBackoffMs(attempt, options, lcg);
        assert.ok(wait >= 0 && wait < Math.min(1_000, 100 * 2 ** attempt));
      }
    }
  });

  it('retries 408, 409, 429 and 5xx only', () => {
    assert.deepEqual([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus), [408, 409, 429, 500, 502, 503]);
  });

  it('parses Retry-After as seconds, as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '2' }), now), 2_000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '0.5' }), now), 500);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now), 7_000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), 0);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '3', 'retry-after-ms': '250' }), now), 250);
    assert.equal(parseRetryAfterMs({ 'Retry-After': '4' }, now), 4_000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '-1' }), now), undefined);
    assert.equal(parseRetryAfterMs(undefined, now), undefined);
  });

  it('abortableSleep rejects as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(abortableSleep(5_000, controller.signal));
    assert.ok(Date.now() - started < 1_000);
  });
});

describe('llm: endpoint limits', () => {
  it('a semaphore never grants more than its limit and skips cancelled waiters', async () => {
    const semaphore = new Semaphore(2);
    const r1 = await semaphore.acquire();
    const r2 = await semaphore.acquire();
    const controller = new AbortController();
    const cancelledWaiter = semaphore.acquire(controller.signal);
    let thirdGranted = false;
    const third = semaphore.acquire().then((release) => {
      thirdGranted = true;
      return release;
    });
    assert.equal(semaphore.inFlight, 2);
    assert.equal(semaphore.queued, 2);
    controller.abort();
    await assert.rejects(cancelledWaiter, (error: unknown) => error instanceof LlmError && error.kind === 'cancelled');
    assert.equal(semaphore.queued, 1);
    r1();
    r1(); // releasing twice must not free two slots
    const r3 = await third;
    assert.ok(thirdGranted);
    assert.equal(semaphore.inFlight, 2);
    r2();
    r3();
    assert.equal(semaphore.inFlight, 0);
  });

  it('a token bucket spaces takes at the configured rate and refunds a cancelled take', async () => {
    const bucket = new TokenBucket(1_200, 1); // 20 per second → 50 ms apart
    const started = Date.now();
    await bucket.take();
    await bucket.take();
    await bucket.take();
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 90 && elapsed < 400, `elapsed ${elapsed}`);
    const controller = new AbortController();
    const waiting = bucket.take(controller.signal);
    controller.abort();
    await assert.rejects(waiting);
    const t0 = Date.now();
    await bucket.take();
    assert.ok(Date.now() - t0 < 120, 'the cancelled take kept its token');
  });

  it('a pause (from Retry-After) holds every taker', async () => {
    const bucket = new TokenBucket(0, 1);
    bucket.pauseUntil(Date.now() + 80);
    const started = Date.now();
    await bucket.take();
    assert.ok(Date.now() - started >= 70);
  });

  it('providers on one base URL share one limiter and the stricter limits win', () => {
    const url = 'http://Example.test:9999/v1/';
    forgetEndpointLimiter(url);
    const a = sharedEndpointLimiter(url, { concurrency: 8, requestsPerMinute: 0 });
    const b = sharedEndpointLimiter('http://example.test:9999/v1', { concurrency: 3, requestsPerMinute: 120 });
    assert.equal(a, b);
    assert.deepEqual(a.currentLimits, { concurrency: 3, requestsPerMinute: 120, burst: 1 });
    sharedEndpointLimiter(url, {});
    assert.deepEqual(a.currentLimits, { concurrency: 3, requestsPerMinute: 120, burst: 1 });
    assert.equal(endpointKey('https://API.openai.com/v1/'), 'https://api.openai.com/v1');
    forgetEndpointLimiter(url);
    assert.notEqual(sharedEndpointLimiter(url, {}), a);
    forgetEndpointLimiter(url);
  });

  it('acquire returns the slot when the rate wait is cancelled', async () => {
    const limiter = new EndpointLimiter({ concurrency: 1, requestsPerMinute: 60 });
    const release = await limiter.acquire();
    release();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal); // next token is ~1 s away
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(waiting);
    assert.equal(limiter.semaphore.inFlight, 0);
  });
});
