import { strict as assert } from 'node:assert';
import * as util from 'node:util';
import { forgetCapabilities } from '../../src/core/llm/capabilities';
import { forgetEndpointLimiter } from '../../src/core/llm/endpointLimiter';
import { LlmError, parseToolArguments } from '../../src/core/llm/errors';
import { createOpenAiProvider, type OpenAiProviderOptions } from '../../src/core/llm/openaiProvider';
import type { ChatMessage, ToolDefinition } from '../../src/core/llm/types';
import { MockOpenAiServer } from '../support/mockOpenAiServer';

const KEY = 'sk-test-0123456789abcdefSECRETSECRET';

const runSql: ToolDefinition = {
  type: 'function',
  function: {
    name: 'run_sql',
    description: 'Run a read-only SQL query.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
  },
};
const listTables: ToolDefinition = {
  type: 'function',
  function: { name: 'list_tables', description: 'List tables.', parameters: { type: 'object', properties: {} } },
};

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are a data agent.' },
  { role: 'user', content: 'How many orders are there?' },
];

async function expectLlmError(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LlmError, `expected LlmError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('llm: OpenAI-compatible provider through the real openai client and a mock server', function () {
  this.timeout(20_000);
  let server: MockOpenAiServer;
  let logs: string[];

  const provider = (extra: Partial<OpenAiProviderOptions> = {}) =>
    createOpenAiProvider({
      id: 'mock',
      baseUrl: server.baseUrl,
      apiKey: KEY,
      backoffBaseMs: 5,
      backoffMaxMs: 40,
      timeoutMs: 5_000,
      log: (line) => logs.push(line),
      ...extra,
    });

  beforeEach(async () => {
    server = await MockOpenAiServer.start({ models: ['gpt-4o-mini', 'mystery-model'] });
    logs = [];
  });

  afterEach(async () => {
    forgetEndpointLimiter(server.baseUrl);
    forgetCapabilities(server.baseUrl);
    await server.close();
  });

  it('returns text, usage with cached and reasoning tokens, and cost from the price table', async () => {
    server.enqueue({ kind: 'text', content: 'There are 42 orders.', usage: { prompt: 1000, completion: 200, cached: 400, reasoning: 50 }, delayMs: 30 });
    const completion = await provider().complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.equal(completion.message.content, 'There are 42 orders.');
    assert.deepEqual(completion.message.toolCalls, []);
    assert.deepEqual(completion.usage, { prompt: 1000, completion: 200, cached: 400, reasoning: 50 });
    // gpt-4o-mini: $0.15 in, $0.075 cached in, $0.60 out per MTok → (600·0.15 + 400·0.075 + 200·0.6) / 1e6
    assert.ok(Math.abs(completion.costUsd - 240e-6) < 1e-12, `cost ${completion.costUsd}`);
    assert.ok(completion.latencyMs >= 25, `latency ${completion.latencyMs}`);
    assert.equal(completion.attempts, 1);
    assert.equal(completion.finishReason, 'stop');
    const sent = server.chatRequests[0].body!;
    assert.equal(sent.model, 'gpt-4o-mini');
    assert.deepEqual(sent.messages, [
      { role: 'system', content: 'You are a data agent.' },
      { role: 'user', content: 'How many orders are there?' },
    ]);
  });

  it('sends tools and extra headers; the key travels only in the Authorization header', async () => {
    server.enqueue({ kind: 'toolCalls', calls: [{ id: 'call_a', name: 'run_sql', arguments: '{"query":"SELECT COUNT(*) FROM orders"}' }] });
    const completion = await provider({ headers: { 'HTTP-Referer': 'https://toffee.example', 'X-Title': 'TOFFEE' } }).complete({
      model: 'gpt-4.1-mini',
      messages: conversation,
      tools: [runSql],
      maxTokens: 300,
    });
    assert.deepEqual(completion.message.toolCalls, [{ id: 'call_a', name: 'run_sql', arguments: '{"query":"SELECT COUNT(*) FROM orders"}' }]);
    assert.equal(completion.toolProtocol, 'native');
    const request = server.chatRequests[0];
    assert.equal(request.headers['http-referer'], 'https://toffee.example');
    assert.equal(request.headers['x-title'], 'TOFFEE');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    for (const [name, value] of Object.entries(request.headers)) {
      if (name !== 'authorization') assert.ok(!String(value).includes(KEY), `key leaked in header ${name}`);
    }
    assert.ok(!request.rawBody.includes(KEY), 'key leaked in the body');
    assert.equal((request.body!.tools as unknown[]).length, 1);
    assert.equal(request.body!.max_tokens, 300);
    assert.equal(request.body!.reasoning_effort, undefined);
  });

  it('replays history with assistant tool calls and tool results in wire format', async () => {
    const history: ChatMessage[] = [
      ...conversation,
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'list_tables', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'call_1', content: 'orders, customers' },
    ];
    await provider().complete({ model: 'gpt-4o', messages: history, tools: [runSql, listTables] });
    const messages = server.chatRequests[0].body!.messages as Array<Record<string, unknown>>;
    assert.deepEqual(messages[2], {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_tables', arguments: '{}' } }],
    });
    assert.deepEqual(messages[3], { role: 'tool', tool_call_id: 'call_1', content: 'orders, customers' });
  });

  it('assembles streamed tool-call deltas (two calls, 3-char fragments) and the final usage chunk', async () => {
    await server.close();
    server = await MockOpenAiServer.start({ streamFragmentSize: 3 });
    const args1 = '{"query":"SELECT region, SUM(amount) FROM orders GROUP BY region"}';
    const args2 = '{}';
    server.enqueue({
      kind: 'toolCalls',
      content: 'Let me check.',
      calls: [
        { id: 'call_s1', name: 'run_sql', arguments: args1 },
        { id: 'call_s2', name: 'list_tables', arguments: args2 },
      ],
      usage: { prompt: 321, completion: 45, cached: 100 },
    });
    const completion = await provider({ stream: true }).complete({ model: 'gpt-4o', messages: conversation, tools: [runSql, listTables] });
    assert.equal(completion.message.content, 'Let me check.');
    assert.deepEqual(completion.message.toolCalls, [
      { id: 'call_s1', name: 'run_sql', arguments: args1 },
      { id: 'call_s2', name: 'list_tables', arguments: args2 },
    ]);
    assert.deepEqual(completion.usage, { prompt: 321, completion: 45, cached: 100 });
    assert.equal(completion.finishReason, 'tool_calls');
    const body = server.chatRequests[0].body!;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
  });

  it('retries a 429 storm within limits and succeeds', async () => {
    for (let i = 0; i < 3; i++) server.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '20' } });
    server.enqueue({ kind: 'text', content: 'finally' });
    const completion = await provider({ maxRetries: 4 }).complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.equal(completion.message.content, 'finally');
    assert.equal(completion.attempts, 4);
    assert.equal(server.chatRequests.length, 4);
    assert.equal(logs.filter((line) => line.includes('rate_limit')).length, 3);
  });

  it('gives up on an endless 429 storm with rate_limit after maxRetries', async () => {
    server = server.enqueue(...Array.from({ length: 10 }, () => ({ kind: 'error' as const, status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '10' } })));
    const error = await expectLlmError(provider({ maxRetries: 2 }).complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.retryable, true);
    assert.equal(error.attempts, 3);
    assert.equal(error.status, 429);
    assert.match(error.message, /rate limiting/);
    assert.match(error.message, /Gave up after 3 attempts/);
    assert.equal(server.chatRequests.length, 3);
  });

  it('honours Retry-After in seconds, and in milliseconds', async () => {
    server.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } }, { kind: 'error', status: 429, headers: { 'retry-after-ms': '250' } }, { kind: 'text', content: 'ok' });
    const waits: number[] = [];
    const completion = await provider({ backoffBaseMs: 1, random: () => 0, sleep: async (ms) => void waits.push(ms) }).complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.deepEqual(waits, [1_000, 250]);
    assert.equal(completion.attempts, 3);
    assert.equal(server.chatRequests.length, 3);
  });

  it('caps a long Retry-After at maxRetryAfterMs', async () => {
    server.enqueue({ kind: 'error', status: 503, headers: { 'retry-after': '3600' } }, { kind: 'text', content: 'ok' });
    const waits: number[] = [];
    await provider({ backoffBaseMs: 1, maxRetryAfterMs: 150, random: () => 0, sleep: async (ms) => void waits.push(ms) }).complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.deepEqual(waits, [150]);
  });

  it('retries a 500 then succeeds; does not retry a 400', async () => {
    server.enqueue({ kind: 'error', status: 500, message: 'upstream exploded' }, { kind: 'text', content: 'recovered' });
    const completion = await provider().complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.equal(completion.message.content, 'recovered');
    assert.equal(completion.attempts, 2);

    server.enqueue({ kind: 'error', status: 400, message: 'messages: field required' });
    const error = await expectLlmError(provider().complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(error.kind, 'bad_request');
    assert.equal(error.retryable, false);
    assert.match(error.message, /field required/);
    assert.equal(server.chatRequests.length, 3);
  });

  it('times out a hung endpoint per attempt, retrying within limits', async () => {
    server.enqueue({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const error = await expectLlmError(provider({ timeoutMs: 200, maxRetries: 1 }).complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /did not answer within 200 ms\. Gave up after 2 attempts/);
    assert.equal(error.attempts, 2);
    assert.equal(server.chatRequests.length, 2, 'each attempt was sent, and each timed out (the server never answers)');
  });

  it('times out a stream that stalls after its headers', async () => {
    server.enqueue({
      kind: 'custom',
      handle: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] })}\n\n`);
      },
    });
    const error = await expectLlmError(provider({ stream: true, timeoutMs: 250, maxRetries: 0 }).complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(error.kind, 'timeout');
  });

  it('stops a cancelled in-flight request promptly and rejects queued ones without sending them', async () => {
    server.enqueue({ kind: 'hang' });
    const llm = provider({ concurrency: 1, timeoutMs: 10_000 });
    const inFlight = new AbortController();
    const queued = new AbortController();
    const first = llm.complete({ model: 'gpt-4o-mini', messages: conversation, signal: inFlight.signal });
    const second = llm.complete({ model: 'gpt-4o-mini', messages: conversation, signal: queued.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(server.chatRequests.length, 1, 'the second request must wait for the slot');
    queued.abort();
    const queuedError = await expectLlmError(second);
    assert.equal(queuedError.kind, 'cancelled');
    inFlight.abort();
    const error = await expectLlmError(first);
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.retryable, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(server.chatRequests.length, 1, 'the queued request was sent after all');
  });

  it('cancels a stream mid-reply instead of returning the partial text', async () => {
    server.enqueue({
      kind: 'custom',
      handle: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'partial' }, finish_reason: null }] })}\n\n`);
      },
    });
    const controller = new AbortController();
    const pending = provider({ stream: true }).complete({ model: 'gpt-4o-mini', messages: conversation, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    // The server never ends the stream: only the cancellation can settle the call.
    const error = await expectLlmError(pending);
    assert.equal(error.kind, 'cancelled');
  });

  it('cancels while waiting to retry', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const waits: number[] = [];
    const sleepUntilCancelled = (ms: number, signal?: AbortSignal) => {
      waits.push(ms);
      return new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const pending = provider({ sleep: sleepUntilCancelled }).complete({ model: 'gpt-4o-mini', messages: conversation, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await expectLlmError(pending);
    assert.equal(error.kind, 'cancelled');
    assert.match(error.message, /while waiting to retry/);
    assert.equal(waits.length, 1, 'it was waiting for the Retry-After');
    assert.equal(server.chatRequests.length, 1);
  });

  it('keeps malformed tool arguments as-is; parseToolArguments makes them a typed error', async () => {
    server.enqueue({ kind: 'toolCalls', calls: [{ id: 'call_bad', name: 'run_sql', arguments: '{"query": "SELECT * FROM orders' }] });
    const completion = await provider().complete({ model: 'gpt-4o', messages: conversation, tools: [runSql] });
    const [call] = completion.message.toolCalls;
    assert.equal(call.arguments, '{"query": "SELECT * FROM orders');
    const parsed = parseToolArguments(call);
    assert.equal(parsed.ok, false);
    if (!parsed.ok) {
      assert.equal(parsed.error.kind, 'malformed_tool_arguments');
      assert.match(parsed.error.message, /run_sql/);
    }
  });

  it('falls back to the JSON-in-text tool protocol when the endpoint rejects tools, and remembers it', async () => {
    server.rejectTools = true;
    server.enqueue(
      { kind: 'text', content: 'I will count them.\n```json\n{"tool": "run_sql", "arguments": {"query": "SELECT COUNT(*) FROM orders"}}\n```' },
      { kind: 'text', content: "{'tool': 'list_tables', 'arguments': {},}" },
    );
    const llm = provider();
    const model = 'local-llama';
    const first = await llm.complete({ model, messages: conversation, tools: [runSql, listTables] });
    assert.equal(first.toolProtocol, 'json-text');
    assert.equal(first.message.content, 'I will count them.');
    assert.equal(first.message.toolCalls.length, 1);
    assert.equal(first.message.toolCalls[0].name, 'run_sql');
    assert.deepEqual(JSON.parse(first.message.toolCalls[0].arguments), { query: 'SELECT COUNT(*) FROM orders' });
    assert.ok(first.warnings?.some((w) => /JSON-in-text/.test(w)));
    const [rejected, fallback] = server.chatRequests;
    assert.equal(rejected.answeredWith, 'rejectTools');
    assert.equal(fallback.body!.tools, undefined);
    const system = (fallback.body!.messages as Array<{ role: string; content: string }>)[0];
    assert.equal(system.role, 'system');
    assert.match(system.content, /run_sql/);
    assert.match(system.content, /```json/);

    // The capability is cached: the next call goes straight to JSON-in-text, and tolerant parsing handles quotes/commas.
    const second = await llm.complete({ model, messages: conversation, tools: [runSql, listTables] });
    assert.equal(server.chatRequests.length, 3);
    assert.equal(second.message.toolCalls[0].name, 'list_tables');
    assert.equal(second.message.toolCalls[0].arguments, '{}');
    // A call written as text gets its id from its turn in the conversation, not from what the process did before:
    // the same conversation, the same id (the second reply answers the same first turn as the first one did).
    assert.equal(first.message.toolCalls[0].id, 'call_t1_1');
    assert.equal(second.message.toolCalls[0].id, 'call_t1_1');
    server.enqueue({ kind: 'text', content: '{"tool": "run_sql", "arguments": {"query": "SELECT 1"}}' });
    const later = [...conversation, { role: 'assistant' as const, content: null, toolCalls: first.message.toolCalls }, { role: 'tool' as const, toolCallId: 'call_t1_1', content: '3000' }];
    const third = await llm.complete({ model, messages: later, tools: [runSql, listTables] });
    assert.equal(third.message.toolCalls[0].id, 'call_t2_1');
  });

  it('probes capabilities once per endpoint and model', async () => {
    server.rejectTools = true;
    server.rejectReasoningEffort = true;
    const llm = provider();
    assert.deepEqual(await llm.probeCapabilities('mystery-model'), { nativeTools: false, reasoningEffort: false });
    const afterFirst = server.chatRequests.length;
    assert.equal(afterFirst, 2);
    assert.deepEqual(await llm.probeCapabilities('mystery-model'), { nativeTools: false, reasoningEffort: false });
    assert.equal(server.chatRequests.length, afterFirst, 'the probe result was not cached');

    server.rejectTools = false;
    server.rejectReasoningEffort = false;
    assert.deepEqual(await llm.probeCapabilities('other-model'), { nativeTools: true, reasoningEffort: true });
  });

  it('retries without reasoning_effort when the endpoint rejects it', async () => {
    server.rejectReasoningEffort = true;
    const completion = await provider().complete({ model: 'some-open-model', messages: conversation, reasoningEffort: 'high' });
    assert.equal(completion.message.content, 'ok');
    assert.ok(completion.warnings?.some((w) => /reasoning_effort/.test(w)));
    const [withEffort, without] = server.chatRequests;
    assert.equal(withEffort.body!.reasoning_effort, 'high');
    assert.equal(without.body!.reasoning_effort, undefined);
  });

  it('sends reasoning_effort and max_completion_tokens to reasoning models', async () => {
    await provider().complete({ model: 'o4-mini', messages: conversation, reasoningEffort: 'low', maxTokens: 500 });
    const body = server.chatRequests[0].body!;
    assert.equal(body.reasoning_effort, 'low');
    assert.equal(body.max_completion_tokens, 500);
    assert.equal(body.max_tokens, undefined);
  });

  it('never exceeds the per-endpoint concurrency limit, shared by providers on the same base URL', async () => {
    const a = provider({ concurrency: 3 });
    const b = provider({ concurrency: 2 });
    for (let i = 0; i < 8; i++) server.enqueue({ kind: 'text', content: `r${i}`, delayMs: 60 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).complete({ model: 'gpt-4o-mini', messages: conversation })),
    );
    assert.equal(results.length, 8);
    assert.equal(server.maxConcurrent, 2);
    assert.equal(server.chatRequests.length, 8);
  });

  it('spaces requests with the token bucket (requests per minute)', async () => {
    const llm = provider({ requestsPerMinute: 600, concurrency: 10 }); // one token per 100 ms, burst 1
    await Promise.all(Array.from({ length: 4 }, () => llm.complete({ model: 'gpt-4o-mini', messages: conversation })));
    const times = server.chatRequests.map((r) => r.receivedAt).sort((x, y) => x - y);
    // Arrival at the server jitters by a few ms; the schedule is: request i no earlier than i·100 ms after the first.
    for (let i = 1; i < times.length; i++) {
      assert.ok(times[i] - times[0] >= i * 100 - 25, `request ${i} arrived ${times[i] - times[0]} ms after the first`);
    }
  });

  it('never leaks the API key: an auth error echoing it, the logs, inspect and JSON of the error', async () => {
    server.enqueue(
      { kind: 'error', status: 500, message: `upstream said: bad key ${KEY}` },
      { kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}. Also tried sk-test-0***************************CRET.`, code: 'invalid_api_key' },
    );
    const error = await expectLlmError(provider().complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(error.kind, 'auth');
    assert.equal(error.retryable, false);
    assert.match(error.message, /rejected the API key/);
    const surfaces = [error.message, error.stack ?? '', error.detail ?? '', util.inspect(error), JSON.stringify(error), ...logs];
    for (const text of surfaces) {
      assert.ok(!text.includes(KEY), `key leaked: ${text}`);
      assert.ok(!text.includes(KEY.slice(-8)), `key tail leaked: ${text}`);
    }
    assert.ok(logs.length >= 1, 'the 500 retry should have been logged');
    assert.match(error.message, /\[redacted\]/);
  });

  it('reports a missing key plainly without sending anything', async () => {
    const llm = createOpenAiProvider({ baseUrl: 'https://api.example.invalid/v1', apiKeyEnv: 'TOFFEE_TEST_NO_SUCH_KEY', env: {} });
    const error = await expectLlmError(llm.complete({ model: 'gpt-4o', messages: conversation }));
    assert.equal(error.kind, 'auth');
    assert.match(error.message, /TOFFEE_TEST_NO_SUCH_KEY/);
  });

  it('reads the key from the named environment variable', async () => {
    const llm = createOpenAiProvider({ baseUrl: server.baseUrl, apiKeyEnv: 'MY_GATEWAY_KEY', env: { MY_GATEWAY_KEY: KEY } });
    await llm.complete({ model: 'gpt-4o-mini', messages: conversation });
    assert.equal(server.chatRequests[0].headers.authorization, `Bearer ${KEY}`);
  });

  it('classifies quota, a non-JSON body and an unreachable endpoint', async () => {
    server.enqueue({ kind: 'error', status: 429, message: 'You exceeded your current quota, please check your plan and billing details.', code: 'insufficient_quota' });
    const quota = await expectLlmError(provider().complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(quota.kind, 'quota');
    assert.equal(server.chatRequests.length, 1, 'quota errors must not be retried');

    server.enqueue({ kind: 'garbage', body: '<html>gateway</html>' }, { kind: 'garbage', body: 'nope' });
    const garbage = await expectLlmError(provider({ maxRetries: 1 }).complete({ model: 'gpt-4o-mini', messages: conversation }));
    assert.equal(garbage.kind, 'bad_response');

    const closedUrl = server.baseUrl;
    await server.close();
    const unreachable = await expectLlmError(
      createOpenAiProvider({ baseUrl: closedUrl, apiKey: KEY, maxRetries: 1, backoffBaseMs: 1 }).complete({ model: 'gpt-4o-mini', messages: conversation }),
    );
    assert.equal(unreachable.kind, 'network');
    assert.equal(unreachable.attempts, 2);
    server = await MockOpenAiServer.start();
  });

  it('prices unknown models at zero with a warning, and estimates usage when the server omits it', async () => {
    server.enqueue({ kind: 'text', content: 'twelve chars', usage: null });
    const completion = await provider().complete({ model: 'mystery-model', messages: conversation });
    assert.equal(completion.costUsd, 0);
    assert.ok(completion.warnings?.some((w) => /No price is known/.test(w)));
    assert.ok(completion.warnings?.some((w) => /estimated/.test(w)));
    assert.equal(completion.usage.completion, 3);
    assert.ok(completion.usage.prompt > 0);
  });

  it('lists models from /models with their specs, or from the configured list', async () => {
    const listed = await provider().listModels();
    assert.deepEqual(listed.map((m) => m.id), ['gpt-4o-mini', 'mystery-model']);
    assert.equal(listed[0].inputPerMTok, 0.15);
    assert.equal(listed[0].provider, 'mock');
    assert.equal(listed[0].simulated, false);
    const configured = await provider({ models: ['o3'] }).listModels();
    assert.equal(configured[0].supportsReasoningEffort, true);
  });
});
