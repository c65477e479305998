import * as assert from 'node:assert/strict';
import { runEpisode, runStep } from '../../src/core/agent/episode';
import { OMITTED_NOTE_PREFIX, buildPrompt } from '../../src/core/agent/prompt';
import { estimateTokens } from '../../src/core/llm/tokens';
import type { AgentSession } from '../../src/core/agent/session';
import type { AgentStep } from '../../src/core/agent/types';
import { parseContextLength } from '../../src/core/agent/types';
import { LlmError } from '../../src/core/llm/errors';
import type { Completion, CompletionRequest, LlmProvider } from '../../src/core/llm/types';
import { openShop } from './agentFixture';

/** A provider that replays a script of tool calls and records what it was sent. */
function scripted(script: Array<{ name: string; arguments: string; content?: string } | 'text' | 'fail'>): LlmProvider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  let i = 0;
  return {
    id: 'scripted',
    requests,
    async listModels() {
      return [{ id: 'script-1', provider: 'scripted', inputPerMTok: 1, outputPerMTok: 2, contextWindow: 100_000, supportsTools: true, supportsReasoningEffort: false, simulated: false }];
    },
    async complete(request): Promise<Completion> {
      requests.push(request);
      const next = script[i++];
      if (next === 'fail') throw new LlmError('server', 'The endpoint failed (500).', true, { status: 500 });
      const toolCalls = next === 'text' || next === undefined ? [] : [{ id: `c${i}`, name: next.name, arguments: next.arguments }];
      return {
        message: { content: next === 'text' ? 'I think the answer is 7.' : next?.content ?? null, toolCalls },
        usage: { prompt: 100, completion: 10 },
        costUsd: 0.001,
        latencyMs: 50,
      };
    },
  };
}

describe('agent prompt and episode', function () {
  this.timeout(120_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let session: AgentSession;
  let orders: string;
  before(async () => {
    shop = await openShop();
    session = shop.session;
    orders = session.env.profile.tables.find((t) => t.sourceFile === 'orders.csv')!.name;
  });
  after(async () => shop?.close());

  it('runs a linear episode to final_answer, feeding observations back as tool messages', async () => {
    const provider = scripted([
      { name: 'list_tables', arguments: '{}', content: 'Let me look around.' },
      { name: 'run_sql', arguments: JSON.stringify({ query: `SELECT COUNT(*) AS n FROM ${orders} WHERE status = 'cancelled'` }) },
      { name: 'final_answer', arguments: '{"answer":"x","explanation":"from the count"}' },
    ]);
    const steps: AgentStep[] = [];
    const result = await runEpisode({ task: { question: 'How many orders were cancelled?' }, config: { provider, model: 'script-1' }, toolContext: session.toolContext, onStep: (s) => steps.push(s) });
    assert.equal(result.stopReason, 'final_answer');
    assert.equal(result.steps.length, 3);
    assert.equal(steps.length, 3);
    assert.equal(result.steps[0].thought, 'Let me look around.');
    assert.equal(result.steps[0].config.simulated, false);
    assert.deepEqual(result.totals.usage, { prompt: 300, completion: 30 });
    assert.ok(Math.abs(result.totals.costUsd - 0.003) < 1e-12);
    // The third request holds the question, both earlier calls, and their observations.
    const third = provider.requests[2];
    assert.equal(third.messages[0].role, 'system');
    assert.match(third.messages[0].content as string, new RegExp(`- ${orders} \\(240 rows\\): order_id int`));
    assert.equal(third.messages[1].content, 'Question: How many orders were cancelled?');
    const toolMessages = third.messages.filter((m) => m.role === 'tool');
    assert.equal(toolMessages.length, 2);
    assert.equal(toolMessages[1].content, result.steps[1].observation.text);
    assert.ok(third.tools && third.tools.length === 8);
    assert.equal(result.state.finalAnswer?.explanation, 'from the count');
  });

  it('keeps going after bad calls and stops at max steps', async () => {
    const provider = scripted([
      { name: 'run_sql', arguments: '{"query": SELECT' },
      'text',
      { name: 'describe_table', arguments: '{"table":"nope"}' },
      { name: 'list_tables', arguments: '{}' },
    ]);
    const result = await runEpisode({ task: { question: 'q' }, config: { provider, model: 'script-1' }, toolContext: session.toolContext, maxSteps: 4 });
    assert.equal(result.stopReason, 'max_steps');
    assert.deepEqual(result.steps.map((s) => s.observation.ok), [false, false, false, true]);
    assert.equal(result.steps[0].observation.errorKind, 'malformed_arguments');
    assert.match(result.steps[1].observation.text, /^Error: no tool call was made/);
    assert.equal(result.totals.errorSteps, 3);
    // A text-only reply is answered with a user message, so the history stays valid for the API.
    const last = provider.requests[3].messages;
    assert.ok(last.some((m) => m.role === 'user' && m.content.startsWith('Error: no tool call')));
  });

  it('reports a provider failure and an abort as stop reasons', async () => {
    const failed = await runEpisode({ task: { question: 'q' }, config: { provider: scripted(['fail']), model: 'script-1' }, toolContext: session.toolContext });
    assert.equal(failed.stopReason, 'provider_error');
    assert.equal(failed.errorKind, 'server');
    const controller = new AbortController();
    controller.abort();
    const aborted = await runEpisode({ task: { question: 'q' }, config: { provider: scripted([]), model: 'script-1' }, toolContext: session.toolContext, signal: controller.signal });
    assert.equal(aborted.stopReason, 'aborted');
  });

  it('truncates history to the last k steps with a note of what was dropped', async () => {
    const provider = scripted([
      { name: 'list_tables', arguments: '{}' },
      { name: 'describe_table', arguments: JSON.stringify({ table: orders }) },
      { name: 'run_sql', arguments: JSON.stringify({ query: `SELECT nope FROM ${orders}` }) },
      { name: 'run_sql', arguments: JSON.stringify({ query: `SELECT COUNT(*) FROM ${orders}` }) },
    ]);
    const episode = await runEpisode({ task: { question: 'q' }, config: { provider, model: 'script-1' }, toolContext: session.toolContext, maxSteps: 4 });
    const state = episode.state;
    const full = buildPrompt({ question: 'q', profile: session.env.profile, history: state.steps, contextLength: parseContextLength('full')! });
    const short = buildPrompt({ question: 'q', profile: session.env.profile, history: state.steps, contextLength: parseContextLength('last-1')! });
    assert.equal(full.droppedSteps, 0);
    assert.equal(short.droppedSteps, 3);
    assert.equal(full.messages.length, 2 + 8);
    assert.equal(short.messages.length, 2 + 1 + 2);
    const note = short.messages[2].content as string;
    assert.ok(note.startsWith(OMITTED_NOTE_PREFIX));
    assert.match(note, /3 earlier steps omitted/);
    assert.match(note, /#0 list_tables \[ok\]/);
    assert.match(note, /#2 run_sql \[error\] \{"query":"SELECT nope/);
    assert.ok(short.estimatedTokens < full.estimatedTokens, `${short.estimatedTokens} < ${full.estimatedTokens}`);
    assert.equal(estimateTokens('abcdefgh'), 2);
    // runStep sends the truncated prompt and records the drop.
    const step = await runStep({ state, config: { provider: scripted([{ name: 'list_tables', arguments: '{}' }]), model: 'script-1', contextLength: { mode: 'last-k', k: 2 } }, toolContext: session.toolContext });
    assert.equal(step.droppedSteps, 2);
    assert.equal(step.index, 4);
  });

  it('parses context length settings', () => {
    assert.deepEqual(parseContextLength('full'), { mode: 'full' });
    assert.deepEqual(parseContextLength('last-3'), { mode: 'last-k', k: 3 });
    assert.equal(parseContextLength('last-0'), undefined);
    assert.equal(parseContextLength('everything'), undefined);
  });
});
