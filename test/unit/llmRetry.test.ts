import { strict as assert } from 'node:assert';
import { LlmError } from '../../src/core/llm/errors';
import { retryWaitMs, withRetry } from '../../src/core/llm/retry';
import type { Completion, CompletionRequest, LlmProvider, ModelSpec } from '../../src/core/llm/types';
import { lmErrorToLlmError } from '../../src/core/llm/vscodeLmMapping';

const MODEL = 'Copilot GPT-4o';
const request: CompletionRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'How many orders?' }] };

/** A VS Code chat model that fails as VS Code reports it (LanguageModelError code + message), then answers. */
class FailingLmModel implements LlmProvider {
  readonly id = 'vscode-lm';
  calls = 0;
  constructor(private readonly failures: Array<{ code?: string; message: string }>) {}
  async listModels(): Promise<ModelSpec[]> {
    return [];
  }
  async complete(_request: CompletionRequest): Promise<Completion> {
    const failure = this.failures[this.calls++];
    // VsCodeLmProvider maps every vscode.LanguageModelError through the core mapping before it leaves the host.
    if (failure) throw lmErrorToLlmError(failure.code, failure.message, MODEL);
    return { message: { content: 'There are 3000 orders.', toolCalls: [] }, usage: { prompt: 10, completion: 6 }, costUsd: 0, latencyMs: 5 };
  }
}

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('llm: retry with backoff wraps any provider', () => {
  it('retries a rate-limited VS Code model with full-jitter backoff and succeeds', async () => {
    const model = new FailingLmModel([{ message: 'Request failed: 429 Too Many Requests' }, { message: 'rate limit exceeded, retry later' }]);
    const { waits, sleep } = recorder();
    const logs: string[] = [];
    const provider = withRetry(model, { backoff: { baseMs: 100, maxMs: 1_000 }, random: () => 0.5, sleep, log: (line) => logs.push(line) });
    const completion = await provider.complete(request);
    assert.equal(completion.message.content, 'There are 3000 orders.');
    assert.equal(completion.attempts, 3);
    assert.equal(model.calls, 3);
    // Full jitter: uniform in [0, base·2^attempt]; with the RNG at 0.5, half of 100 then of 200.
    assert.deepEqual(waits, [50, 100]);
    assert.deepEqual(logs, ['gpt-4o: rate_limit; retry 1/4 in 50 ms', 'gpt-4o: rate_limit; retry 2/4 in 100 ms']);
  });

  it('retries a server failure but never a consent, quota or missing-model error', async () => {
    const flaky = new FailingLmModel([{ message: 'connection reset by peer' }]);
    assert.equal((await withRetry(flaky, { sleep: recorder().sleep }).complete(request)).attempts, 2);
    for (const code of ['NoPermissions', 'Blocked', 'NotFound']) {
      const model = new FailingLmModel([{ code, message: 'no' }]);
      const { waits, sleep } = recorder();
      await assert.rejects(withRetry(model, { sleep }).complete(request), (error: LlmError) => error.retryable === false);
      assert.equal(model.calls, 1, `${code} is not retried`);
      assert.deepEqual(waits, []);
    }
  });

  it('gives up after maxRetries with the last error, saying how many attempts were made', async () => {
    const model = new FailingLmModel(Array.from({ length: 10 }, () => ({ message: '429 Too Many Requests' })));
    const { waits, sleep } = recorder();
    await assert.rejects(withRetry(model, { maxRetries: 2, backoff: { baseMs: 10, maxMs: 15 }, random: () => 0.999, sleep }).complete(request), (error: LlmError) => {
      assert.equal(error.kind, 'rate_limit');
      assert.equal(error.attempts, 3);
      assert.match(error.message, /rate limiting requests\. Gave up after 3 attempts\./);
      return true;
    });
    assert.equal(model.calls, 3);
    assert.deepEqual(waits, [9, 14], 'the backoff doubles and is capped');
  });

  it('waits what the server asked for (capped, lightly jittered) and tells the provider first', () => {
    const asked: number[] = [];
    const options = { backoff: { baseMs: 500, maxMs: 30_000 }, maxRetryAfterMs: 2_000, random: () => 0.5, onRetryAfter: (ms: number) => asked.push(ms) };
    const limited = (retryAfterMs: number) => new LlmError('rate_limit', 'slow down', true, { status: 429, retryAfterMs });
    assert.equal(retryWaitMs(limited(1_000), 0, options), 1_250);
    assert.equal(retryWaitMs(limited(3_600_000), 3, options), 2_250);
    assert.deepEqual(asked, [1_250, 2_250]);
  });

  it('stops waiting when the request is cancelled', async () => {
    const model = new FailingLmModel([{ message: '429' }, { message: '429' }]);
    const controller = new AbortController();
    const sleep = (_ms: number, signal?: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')));
        controller.abort();
      });
    await assert.rejects(withRetry(model, { sleep }).complete({ ...request, signal: controller.signal }), (error: LlmError) => error.kind === 'cancelled' && error.attempts === 1);
    assert.equal(model.calls, 1);
  });

  it('keeps the provider\'s id, model list and own members', async () => {
    const base = Object.assign(new FailingLmModel([]), { baseUrl: 'http://localhost:1/v1' });
    const wrapped = withRetry(base);
    assert.equal(wrapped.id, 'vscode-lm');
    assert.equal(wrapped.baseUrl, 'http://localhost:1/v1');
    assert.deepEqual(await wrapped.listModels(), []);
    assert.equal((await wrapped.complete(request)).attempts, 1);
  });
});
