import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { main } from '../../src/cli/main';
import { NO_SIMULATION_MESSAGE } from '../../src/core/sim/simulatedProvider';
import { MockOpenAiServer } from '../support/mockOpenAiServer';
import { writeShopFolder } from './agentFixture';

/** Runs the CLI in-process and captures what it prints. */
async function runCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...args: unknown[]) => void out.push(args.map(String).join(' '));
  console.error = (...args: unknown[]) => void err.push(args.map(String).join(' '));
  try {
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('toffee ask', function () {
  this.timeout(120_000);
  let dir: string;
  let server: MockOpenAiServer;
  const KEY = 'sk-test-ask-0123456789abcdef';
  before(async () => {
    dir = writeShopFolder();
    server = await MockOpenAiServer.start({ models: ['gpt-4o-mini'] });
    process.env.TOFFEE_ASK_TEST_KEY = KEY;
  });
  after(async () => {
    delete process.env.TOFFEE_ASK_TEST_KEY;
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs an episode against an OpenAI-compatible endpoint through the real client and prints each step', async () => {
    server.enqueue(
      { kind: 'toolCalls', content: 'First, the tables.', calls: [{ id: 'call_1', name: 'list_tables', arguments: '{}' }], usage: { prompt: 900, completion: 20 } },
      { kind: 'toolCalls', calls: [{ id: 'call_2', name: 'run_sql', arguments: '{"query":"SELECT COUNT(*) AS cancelled FROM orders WHERE status = \'cancelled\'"}' }], usage: { prompt: 1000, completion: 30 } },
      { kind: 'toolCalls', calls: [{ id: 'call_3', name: 'run_sql', arguments: '{"query": "SELECT nope FROM orders"' }], usage: { prompt: 1100, completion: 10 } },
      { kind: 'toolCalls', calls: [{ id: 'call_4', name: 'final_answer', arguments: '{"answer":"see above","explanation":"Counted cancelled orders."}' }], usage: { prompt: 1200, completion: 15 } },
    );
    const result = await runCli(['ask', dir, 'How many orders were cancelled?', '--base-url', server.baseUrl, '--api-key-env', 'TOFFEE_ASK_TEST_KEY', '--model', 'gpt-4o-mini']);
    assert.equal(result.code, 0, result.err);
    const out = result.out;
    assert.match(out, /Question: How many orders were cancelled\?/);
    assert.match(out, /Step 1 · gpt-4o-mini · 900\+20 tok/);
    assert.match(out, /thought: First, the tables\./);
    assert.match(out, /call: list_tables \{\}/);
    assert.match(out, /orders \| 240 \| 6 \| orders\.csv/);
    // Step 2's observation is the real count from the sandbox.
    const step2 = out.slice(out.indexOf('Step 2'), out.indexOf('Step 3'));
    const count = Number(/cancelled\n\s+(\d+)\n/.exec(step2)?.[1]);
    assert.ok(count > 0 && count < 240, step2);
    // Malformed arguments from the endpoint become an error observation and the episode goes on.
    assert.match(out, /Step 3 [\s\S]*observation \(error\):\n\s+Error: The model called tool "run_sql" with arguments that are not valid JSON/);
    assert.match(out, /Answer: see above/);
    assert.match(out, /Totals: 4 steps \(1 errors\) · 4200 prompt \+ 75 completion tokens/);
    // The endpoint saw the tools, the key, and the observations fed back as tool messages.
    const requests = server.chatRequests;
    assert.equal(requests.length, 4);
    assert.equal(requests[0].headers.authorization, `Bearer ${KEY}`);
    const tools = (requests[0].body?.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(tools.includes('run_sql') && tools.includes('final_answer'));
    const lastMessages = requests[3].body?.messages as Array<{ role: string; content: string; tool_call_id?: string }>;
    const toolReplies = lastMessages.filter((m) => m.role === 'tool');
    assert.deepEqual(toolReplies.map((m) => m.tool_call_id), ['call_1', 'call_2', 'call_3']);
    assert.match(toolReplies[1].content, new RegExp(`^cancelled\\n${count}\\n\\(1 row\\)$`));
    assert.ok(!out.includes(KEY) && !result.err.includes(KEY));
  });

  it('offline-sim declines a free question in one line with a non-zero exit', async () => {
    const result = await runCli(['ask', dir, 'How many orders?', '--provider', 'offline-sim', '--model', 'sim-small']);
    assert.notEqual(result.code, 0);
    assert.equal(result.err.trim().split('\n').length, 1);
    assert.equal(result.err.trim(), `toffee ask: ${NO_SIMULATION_MESSAGE}`);
  });

  it('rejects bad options with a usage error', async () => {
    assert.equal((await runCli(['ask', dir])).code, 2);
    assert.equal((await runCli(['ask', dir, 'q', '--max-steps', 'zero'])).code, 2);
    assert.equal((await runCli(['ask', dir, 'q', '--provider', 'nope'])).code, 2);
    const missing = await runCli(['ask', `${dir}-missing`, 'q']);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /not a folder/);
  });
});
