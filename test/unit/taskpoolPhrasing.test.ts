import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tasksCommand } from '../../src/cli/commands/tasks';
import { forgetCapabilities } from '../../src/core/llm/capabilities';
import { forgetEndpointLimiter } from '../../src/core/llm/endpointLimiter';
import { createOpenAiProvider } from '../../src/core/llm/openaiProvider';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import { answerLeak, phraseTask, phrasingPrompt, requiredLiterals } from '../../src/core/taskpool/phrasing';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { MockOpenAiServer } from '../support/mockOpenAiServer';

const TEMPLATE = "What is the cancellation rate of orders in region 'North' with more than 100 units?";

function rateTask(): TaskSpec {
  return {
    id: 'conditional-rate:orders:north',
    family: 'conditional-rate',
    question: TEMPLATE,
    answer: { type: 'number', value: 0.853, tolerance: 0.005 },
    evidence: [
      {
        tool: 'run_sql',
        code: "SELECT AVG(status = 'cancelled') FROM orders JOIN customers USING (customer_id) WHERE region = 'North' AND units > 100",
        purpose: 'cancellation rate under the filter',
        result: { columns: ['rate'], rows: [[0.853]] },
      },
    ],
    difficulty: { steps: 1, tables: 2, joins: 1, aggregation: true, window: false, python: false, level: 'medium' },
    tables: ['orders', 'customers'],
    anchors: ['table:orders', 'table:customers', 'column:orders.units', 'column:customers.region'],
    validation: { status: 'valid', reasons: [], evidenceStable: true, replayed: true, noDataCheck: 'skipped' },
  };
}

describe('taskpool: question phrasing by the configured model', function () {
  this.timeout(120_000);
  let server: MockOpenAiServer;
  const model = () => ({
    provider: createOpenAiProvider({ id: 'mock', baseUrl: server.baseUrl, apiKey: 'sk-test-phrasing', maxRetries: 0, backoffBaseMs: 1, backoffMaxMs: 2, timeoutMs: 5_000, models: ['gpt-4o-mini'] }),
    model: 'gpt-4o-mini',
  });

  beforeEach(async () => {
    server = await MockOpenAiServer.start();
  });
  afterEach(async () => {
    forgetEndpointLimiter(server.baseUrl);
    forgetCapabilities(server.baseUrl);
    await server.close();
  });

  it('uses a grounded rewrite that keeps the literals, and never shows the model the answer', async () => {
    const rewrite = "Among orders of more than 100 units from customers in 'North', what share ended up cancelled?";
    server.enqueue({ kind: 'text', content: `Question: "${rewrite}"` });
    const task = rateTask();
    const record = await phraseTask(task, model());
    assert.equal(record.source, 'llm', record.reason);
    assert.equal(task.question, rewrite);
    assert.equal(task.validation?.phrasing?.templateQuestion, TEMPLATE);
    assert.equal(task.validation?.phrasing?.model, 'gpt-4o-mini');
    const sent = server.chatRequests[0].rawBody;
    assert.ok(sent.includes("region = 'North' AND units > 100"), 'the evidence SQL (with its filters) is in the prompt');
    assert.ok(sent.includes('customers.region'), 'the anchored columns are in the prompt');
    assert.ok(!sent.includes('0.853'), 'neither the answer key nor the evidence results reach the model');
  });

  it('rejects a rewrite that leaks the answer (also as a percentage) and keeps the template with the reason', async () => {
    const leaking = "What share of 'North' orders with more than 100 units were cancelled (about 85.1%)?";
    server.enqueue({ kind: 'text', content: leaking });
    const task = rateTask();
    const record = await phraseTask(task, model());
    assert.equal(record.source, 'template');
    assert.match(record.reason, /answer leakage/);
    assert.equal(record.rejectedRewrite, leaking);
    assert.equal(task.question, TEMPLATE);
    assert.deepEqual(task.validation?.phrasing, record);
  });

  it('rejects a rewrite that drops a quoted value or a threshold', async () => {
    server.enqueue({ kind: 'text', content: "What share of orders in 'North' were cancelled?" });
    const dropped = await phraseTask(rateTask(), model());
    assert.equal(dropped.source, 'template');
    assert.match(dropped.reason, /dropped the number 100/);
    server.enqueue({ kind: 'text', content: 'What share of orders with more than 100 units were cancelled in that region?' });
    const droppedQuote = await phraseTask(rateTask(), model());
    assert.equal(droppedQuote.source, 'template');
    assert.match(droppedQuote.reason, /dropped the literal 'North'/);
  });

  it('falls back to the template on a 500, on a non-JSON body and on an empty or multi-line reply', async () => {
    server.enqueue({ kind: 'error', status: 500 });
    const failed = await phraseTask(rateTask(), model());
    assert.equal(failed.source, 'template');
    assert.match(failed.reason, /model call failed \(server/);
    server.enqueue({ kind: 'garbage', body: '<html>not json' });
    const garbage = await phraseTask(rateTask(), model());
    assert.equal(garbage.source, 'template');
    assert.match(garbage.reason, /model call failed/);
    server.enqueue({ kind: 'text', content: 'Sure! Here it is:\nWhat share of orders…' });
    const chatty = await phraseTask(rateTask(), model());
    assert.equal(chatty.source, 'template');
    assert.match(chatty.reason, /not a single line/);
  });

  it('offline (no model, or the simulated models) uses the template and says so, without any call', async () => {
    const none = rateTask();
    assert.equal((await phraseTask(none, undefined)).source, 'template');
    assert.match(none.validation!.phrasing!.reason, /no model configured/);
    const sim = rateTask();
    const record = await phraseTask(sim, { provider: createSimulatedProvider(), model: 'sim-small' });
    assert.equal(record.source, 'template');
    assert.match(record.reason, /offline simulated/);
    assert.equal(server.chatRequests.length, 0);
  });

  it('shows the model a multi-step program with what earlier steps found masked, never the values', () => {
    const task: TaskSpec = {
      ...rateTask(),
      question: 'Take the region with the highest total revenue. Within it, what percentage of the total revenue comes from its leading category? Round to 2 decimals.',
      answer: { type: 'number', value: 41.2, tolerance: 0.005 },
      evidence: [
        { tool: 'run_sql', code: 'SELECT region, SUM(revenue) FROM orders GROUP BY region ORDER BY 2 DESC', purpose: 'total revenue per region', subAnswer: { label: 'the region with the highest total revenue', key: { type: 'string', value: 'Northwest' } } },
        { tool: 'run_sql', code: "SELECT category, SUM(revenue) FROM orders WHERE region = 'Northwest' GROUP BY category ORDER BY 2 DESC", purpose: 'total revenue per category within the region Northwest', uses: [0], subAnswer: { label: 'the category with the highest total revenue within the region Northwest', key: { type: 'string', value: 'Garden' }, carries: ['Northwest'] } },
        { tool: 'run_sql', code: "SELECT 100.0 * SUM(CASE WHEN category = 'Garden' THEN revenue END) / SUM(revenue) FROM orders WHERE region = 'Northwest'", purpose: "the category Garden's share of the revenue of the region Northwest", uses: [0, 1], subAnswer: { label: "the share of the region Northwest's revenue from Garden", key: { type: 'number', value: 41.2, tolerance: 0.005 }, carries: ['Northwest', 'Garden'] } },
      ],
    };
    const prompt = phrasingPrompt(task);
    assert.ok(!/Northwest|Garden|41\.2/.test(prompt), prompt);
    assert.match(prompt, /<an earlier result>|<the result of step 1>/);
    assert.match(prompt, /^1\. total revenue per region — finds the region with the highest total revenue$/m);
  });

  it('finds string and list answers and ignores values the template already states', () => {
    assert.match(answerLeak({ type: 'string', value: 'South' }, 'Which region, South perhaps, earns the most?', 'Which region earns the most?') ?? '', /South/);
    assert.equal(answerLeak({ type: 'string', value: 'South' }, 'Which region earns the most in the southern quarter?', 'Which region earns the most?'), undefined);
    assert.equal(answerLeak({ type: 'number', value: 100, tolerance: 0 }, 'How many orders exceed 100 units?', 'How many orders have more than 100 units?'), undefined);
    // A number the template holds is no leak, also where it reads as the answer in percent (2% ≈ 0 ± 0.05)…
    assert.equal(answerLeak({ type: 'number', value: 0, tolerance: 0.05 }, 'By what % did campaigns change? Give 2 decimals.', 'By what percentage did campaigns change? Round to 2 decimals.'), undefined);
    // …but one the template does not hold is.
    assert.match(answerLeak({ type: 'number', value: 0, tolerance: 0.05 }, 'Did campaigns change by 2%? Round to 2 decimals.', 'By what percentage did campaigns change?') ?? '', /states the answer value 2/);
    assert.match(answerLeak({ type: 'list', values: ['Ana', 'Bo'], ordered: true }, 'Name the top 2 customers, e.g. Ana', 'Top 2 customers by revenue?') ?? '', /Ana/);
    assert.deepEqual(requiredLiterals(TEMPLATE), { quoted: ['North'], numbers: [100] });
  });

  it('`toffee tasks --provider openai --base-url` phrases the selected tasks and records every fallback', async () => {
    const repoRoot = path.resolve(__dirname, '..', '..', '..');
    const sample = path.join(repoRoot, 'media', 'samples', 'retail');
    // The no-data check gets a non-answer; every phrasing request gets its own template back, reworded, except
    // every second task's, which gets a chatty two-line reply (a 200, so no retry muddles the count).
    let phrasingCalls = 0;
    const seen = new Map<string, number>();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-phrasing-'));
    const mock = await MockOpenAiServer.start({
      defaultBehaviour: {
        kind: 'custom',
        handle: (request, response) => {
          const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string }>;
          const system = messages[0]?.content ?? '';
          let content = 'I do not know.';
          if (system.includes('rewrite template questions')) {
            phrasingCalls++;
            const template = /Template question: (.*)/.exec(messages[1].content)?.[1] ?? '';
            if (!seen.has(template)) seen.set(template, seen.size);
            content = seen.get(template)! % 2 === 1
              ? `Sure! Here is a rewrite:\n${template}`
              : `As an analyst I'd like to know: ${template.charAt(0).toLowerCase()}${template.slice(1)}`;
          }
          const body = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } });
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(body);
        },
      },
    });
    const out = path.join(scratch, 'tasks.jsonl');
    const logs: string[] = [];
    const original = { log: console.log, error: console.error };
    process.env.TOFFEE_PHRASING_TEST_KEY = 'sk-test-phrasing';
    console.log = (...args: unknown[]) => logs.push(args.join(' '));
    console.error = () => {};
    try {
      const code = await tasksCommand.run([sample, '--max', '4', '--out', out, '--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', mock.baseUrl, '--api-key-env', 'TOFFEE_PHRASING_TEST_KEY']);
      assert.equal(code, 0);
    } finally {
      console.log = original.log;
      console.error = original.error;
      delete process.env.TOFFEE_PHRASING_TEST_KEY;
      forgetEndpointLimiter(mock.baseUrl);
      forgetCapabilities(mock.baseUrl);
      await mock.close();
    }
    try {
      const tasks = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TaskSpec);
      assert.equal(tasks.length, 4);
      assert.equal(phrasingCalls, 4, 'one phrasing call per selected task');
      const llm = tasks.filter((t) => t.validation?.phrasing?.source === 'llm');
      const template = tasks.filter((t) => t.validation?.phrasing?.source === 'template');
      assert.ok(llm.length >= 1 && template.length >= 1, JSON.stringify(tasks.map((t) => t.validation?.phrasing)));
      for (const t of llm) {
        assert.match(t.question, /^As an analyst I'd like to know: /);
        assert.ok(t.validation!.phrasing!.templateQuestion && t.question.toLowerCase().includes(t.validation!.phrasing!.templateQuestion.slice(1).toLowerCase()));
      }
      for (const t of template) assert.match(t.validation!.phrasing!.reason, /not a single line/);
      assert.ok(tasks.every((t) => t.validation?.noDataCheck === 'passed'), 'the same provider ran the no-data check');
      assert.match(logs.join('\n'), new RegExp(`Questions: ${llm.length} phrased by the model, ${template.length} deterministic templates`));
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
