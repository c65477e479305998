import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentStep } from '../../src/core/agent/types';
import { judgeAvailable, parseVerdict, verifyTrajectoryJudged } from '../../src/core/explorer/judge';
import { verifyTrajectory } from '../../src/core/explorer/verifier';
import { forgetCapabilities } from '../../src/core/llm/capabilities';
import { forgetEndpointLimiter } from '../../src/core/llm/endpointLimiter';
import { createOpenAiProvider } from '../../src/core/llm/openaiProvider';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import type { EvidenceGraph } from '../../src/core/taskpool/graph';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { synthesizeCommand } from '../../src/cli/commands/synthesize';
import { synthesize } from '../../src/core/run/synthesize';
import { MockOpenAiServer } from '../support/mockOpenAiServer';
import { writeShopFolder } from './agentFixture';

let n = 0;
function step(tool: string, args: Record<string, unknown>, data: AgentStep['observation']['data'], text: string): AgentStep {
  return {
    index: n++,
    thought: 'checking the revenue per region',
    toolCall: { id: `c${n}`, name: tool, arguments: JSON.stringify(args) },
    observation: { ok: true, tool, args, data, text, elapsedMs: 1 },
    usage: { prompt: 1, completion: 1 },
    costUsd: 0.001,
    latencyMs: 1,
    config: { provider: 'p', model: 'm', contextLength: { mode: 'full' }, simulated: true },
    promptTokensEstimate: 1,
    droppedSteps: 0,
  };
}

const query = 'SELECT region, SUM(amount) FROM orders JOIN customers ON orders.customer_id = customers.customer_id GROUP BY region ORDER BY 2 DESC LIMIT 1';
const task: TaskSpec = {
  id: 't1',
  family: 'group-contrast',
  question: 'Which region has the highest revenue?',
  answer: { type: 'string', value: 'South' },
  evidence: [{ tool: 'run_sql', code: query, purpose: 'revenue per region', result: { columns: ['region', 'SUM(amount)'], rows: [['South', 1234.5]] } }],
  difficulty: { steps: 1, tables: 2, joins: 1, aggregation: true, window: false, python: false, level: 'medium' },
  tables: ['orders', 'customers'],
  rubric: [
    { id: 'c1', polarity: 'positive', weight: 0.4, description: "final answer is 'South'", anchors: ['table:orders'], check: { kind: 'final_value', answer: { type: 'string', value: 'South' } } },
    { id: 'c2', polarity: 'positive', weight: 0.5, description: 'joins on customer id', anchors: [], check: { kind: 'joins_on', left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } } },
    {
      id: 'c3',
      polarity: 'positive',
      weight: 0.1,
      description: 'explains how the answer was computed',
      anchors: ['table:orders', 'column:orders.amount'],
      check: { kind: 'text', instruction: 'The explanation names the tables and the computation that produced the answer.' },
    },
  ],
};
const graph: EvidenceGraph = {
  nodes: [
    { id: 'table:orders', kind: 'table', label: 'orders', facts: { rows: 4812, columns: 6 } },
    { id: 'column:orders.amount', kind: 'column', label: 'orders.amount', facts: { type: 'real', nullFraction: 0 } },
  ],
  edges: [],
};

const trajectory = (): AgentStep[] => [
  step('run_sql', { query }, { kind: 'rows', columns: ['region', 'revenue'], rows: [['South', 1234.5]], truncated: false }, 'region | revenue\nSouth | 1234.5\n(1 row)'),
  step('final_answer', { answer: 'South' }, { kind: 'final', answer: 'South', explanation: 'summed orders.amount per region over orders joined to customers' }, 'Final answer: South'),
];

describe('explorer: LLM judge for text rubric criteria', function () {
  this.timeout(30_000);
  let server: MockOpenAiServer;
  const judge = () => ({
    provider: createOpenAiProvider({ id: 'mock', baseUrl: server.baseUrl, apiKey: 'sk-test-judge', maxRetries: 0, backoffBaseMs: 1, backoffMaxMs: 2, timeoutMs: 5_000, models: ['gpt-4o-mini'] }),
    model: 'gpt-4o-mini',
    graph,
  });

  beforeEach(async () => {
    server = await MockOpenAiServer.start();
  });
  afterEach(async () => {
    forgetEndpointLimiter(server.baseUrl);
    forgetCapabilities(server.baseUrl);
    await server.close();
  });

  it('without a judge the text criterion stays unjudged and the score covers the mechanical criteria', () => {
    const v = verifyTrajectory(task, trajectory());
    assert.equal(v.rubric?.unjudged, 1);
    assert.equal(v.rubric?.score, 1, '(0.4 + 0.5) / 0.9');
  });

  it('a satisfied verdict counts the criterion; an unsatisfied one lowers the rubric score and the quality', async () => {
    server.enqueue({ kind: 'text', content: '```json\n{"satisfied": true, "reason": "names orders, customers and the sum"}\n```' });
    const yes = await verifyTrajectoryJudged(task, trajectory(), judge());
    const c3 = yes.verification.rubric!.criteria.find((c) => c.id === 'c3')!;
    assert.equal(c3.holds, true);
    assert.match(c3.note ?? '', /names orders, customers/);
    assert.equal(yes.verification.rubric!.unjudged, 0);
    assert.equal(yes.verification.rubric!.score, 1);
    assert.equal(yes.calls, 1);
    assert.ok(yes.costUsd > 0, 'the judge call is priced');

    server.enqueue({ kind: 'text', content: 'Verdict: {"satisfied": false, "reason": "the explanation never names the join"}' });
    const no = await verifyTrajectoryJudged(task, trajectory(), judge());
    assert.equal(no.verification.rubric!.criteria.find((c) => c.id === 'c3')!.holds, false);
    assert.equal(no.verification.rubric!.score, 0.9, '(0.4 + 0.5) / 1.0');
    assert.ok(no.verification.quality < yes.verification.quality, `${no.verification.quality} < ${yes.verification.quality}`);

    // The judge saw the criterion, its anchors with their graph facts, the rendered observations and the final answer.
    const prompt = (server.chatRequests[0].body!.messages as Array<{ content: string }>)[1].content;
    assert.match(prompt, /Instruction: The explanation names the tables/);
    assert.match(prompt, /table:orders \(rows=4812, columns=6\)/);
    assert.match(prompt, /column:orders\.amount \(type=real/);
    assert.ok(prompt.includes('region | revenue\nSouth | 1234.5\n(1 row)'), 'observations as rendered for the agent');
    assert.match(prompt, /Explanation: summed orders\.amount per region/);
  });

  it('a garbage verdict, a non-JSON body or a 500 leaves the criterion unjudged without throwing', async () => {
    const mechanical = verifyTrajectory(task, trajectory());
    server.enqueue({ kind: 'text', content: 'I think it is mostly fine.' }, { kind: 'garbage', body: '<html>oops' }, { kind: 'error', status: 500 });
    for (const expected of [/had no verdict/, /call failed/, /call failed/]) {
      const result = await verifyTrajectoryJudged(task, trajectory(), judge());
      const c3 = result.verification.rubric!.criteria.find((c) => c.id === 'c3')!;
      assert.equal(c3.holds, null);
      assert.match(c3.note ?? '', expected);
      assert.equal(result.verification.rubric!.unjudged, 1);
      assert.equal(result.verification.rubric!.score, mechanical.rubric!.score);
      assert.equal(result.verification.quality, mechanical.quality, 'an unjudged criterion neither helps nor blocks admission');
    }
  });

  it('the offline simulated models never judge', async () => {
    const sim = { provider: createSimulatedProvider(), model: 'sim-large' };
    assert.equal(judgeAvailable(sim), false);
    const result = await verifyTrajectoryJudged(task, trajectory(), sim);
    assert.equal(result.calls, 0);
    assert.equal(result.verification.rubric!.unjudged, 1);
  });

  it('synthesize({ judge }) judges the text criterion of every admitted trajectory, with the graph facts', async function () {
    this.timeout(240_000);
    const folder = writeShopFolder();
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-judge-'));
    const mock = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'text', content: '{"satisfied": true, "reason": "judged by the mock"}' } });
    try {
      const provider = createOpenAiProvider({ id: 'mock', baseUrl: mock.baseUrl, apiKey: 'sk-test-judge', maxRetries: 0, timeoutMs: 5_000, models: ['gpt-4o-mini'] });
      const model = 'gpt-4o-mini';
      const outDir = path.join(scratch, 'run');
      const summary = await synthesize({ folder, tasks: 4, budgetUsd: 0.05, seed: 3, outDir, costModelFile: null, judge: { provider, model } });
      assert.ok(summary.verifiedTrajectories >= 1);
      const lines = fs.readFileSync(path.join(outDir, 'trajectories.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.ok(lines.length >= 1);
      for (const record of lines) {
        const criteria = (record.rubric?.criteria ?? record.verification?.rubric?.criteria) as Array<{ kind: string; holds: boolean | null; note?: string }>;
        const text = criteria.filter((c) => c.kind === 'text');
        assert.ok(text.length >= 1);
        for (const c of text) {
          assert.equal(c.holds, true);
          assert.match(c.note ?? '', /judged by the mock/);
        }
      }
      assert.ok(mock.chatRequests.length >= lines.length, 'one judge call per verified final answer at least');
      const prompt = (mock.chatRequests[0].body!.messages as Array<{ content: string }>)[1].content;
      assert.match(prompt, /table:\w+ \(rows=\d+/, 'anchors carry the evidence graph facts');
    } finally {
      forgetEndpointLimiter(mock.baseUrl);
      forgetCapabilities(mock.baseUrl);
      await mock.close();
      fs.rmSync(folder, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('`toffee synthesize --judge-model` refuses the offline simulated provider clearly', async () => {
    const folder = writeShopFolder();
    try {
      await assert.rejects(synthesizeCommand.run([folder, '--judge-model', 'gpt-4o-mini']), /--judge-model needs --provider openai/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('parses verdicts defensively', () => {
    assert.deepEqual(parseVerdict('{"satisfied":"false","reason":1}'), { satisfied: false, reason: '' });
    assert.equal(parseVerdict('{"satisfied": "maybe"}'), undefined);
    assert.equal(parseVerdict('{satisfied: true}'), undefined);
    assert.equal(parseVerdict(null), undefined);
  });
});
