import * as assert from 'node:assert/strict';
import type { AgentStep } from '../../src/core/agent/types';
import { repairedErrorIndices } from '../../src/core/agent/steps';
import { DEFAULT_CLEANING, cleaningRejection, coveredEvidence, scoreRubric, verifyTrajectory } from '../../src/core/explorer/verifier';
import type { TaskSpec } from '../../src/core/taskpool/types';

let n = 0;
function step(tool: string, args: Record<string, unknown>, data: AgentStep['observation']['data'] | 'error'): AgentStep {
  const ok = data !== 'error';
  return {
    index: n++,
    thought: '',
    toolCall: { id: `c${n}`, name: tool, arguments: JSON.stringify(args) },
    observation: ok
      ? { ok: true, tool, args, data, text: 'ok', elapsedMs: 1 }
      : { ok: false, tool, args, data: { kind: 'error', message: 'no such column: amt' }, text: 'Error: no such column: amt', errorKind: 'sql', elapsedMs: 1 },
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
    { id: 'c1', polarity: 'positive', weight: 1, description: 'uses orders', anchors: [], check: { kind: 'uses_table', table: 'orders' } },
    { id: 'c2', polarity: 'positive', weight: 1, description: 'joins on customer id', anchors: [], check: { kind: 'joins_on', left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } } },
    { id: 'c3', polarity: 'positive', weight: 2, description: 'says South', anchors: [], check: { kind: 'final_value', answer: { type: 'string', value: 'South' } } },
    { id: 'c4', polarity: 'negative', weight: 1, description: 'uses the confuser table', anchors: [], check: { kind: 'uses_table', table: 'returns' } },
    { id: 'c5', polarity: 'positive', weight: 1, description: 'explains well', anchors: [], check: { kind: 'text', instruction: 'explains' } },
  ],
};

const rows = (r: unknown[][]): AgentStep['observation']['data'] => ({ kind: 'rows', columns: ['region', 'revenue'], rows: r, truncated: false });
const final = (answer: string): AgentStep['observation']['data'] => ({ kind: 'final', answer, explanation: 'summed shipped revenue per region' });

describe('explorer: verifier, quality and cleaning', () => {
  it('verifies the answer, covers the evidence by its result and scores the rubric mechanically', () => {
    const steps = [step('describe_table', { table: 'orders' }, { kind: 'schema', table: 'orders', columns: [] }), step('run_sql', { query }, rows([['South', 1234.5]])), step('final_answer', { answer: 'South' }, final('South'))];
    const v = verifyTrajectory(task, steps);
    assert.equal(v.verified, true);
    assert.equal(v.coverage, 1);
    assert.equal(v.stepSuccessRate, 1);
    assert.equal(v.rubric?.score, 1);
    assert.equal(v.rubric?.unjudged, 1, 'the text criterion waits for an LLM judge');
    assert.equal(v.quality, 1);
    assert.equal(cleaningRejection(steps, v), undefined);
  });

  it('never rates a wrong answer above 0.4 and rejects it as unverified', () => {
    const steps = [step('run_sql', { query }, rows([['South', 1234.5]])), step('final_answer', { answer: 'North' }, final('North'))];
    const v = verifyTrajectory(task, steps);
    assert.equal(v.verified, false);
    assert.ok(v.quality <= 0.4);
    assert.equal(cleaningRejection(steps, v), 'unverified');
  });

  it('does not count a repaired error as a failure, and detects the repair', () => {
    const steps = [step('run_sql', { query: query.replace('amount', 'amt') }, 'error'), step('run_sql', { query }, rows([['South', 1234.5]])), step('final_answer', { answer: 'South' }, final('South'))];
    assert.deepEqual(repairedErrorIndices(steps), [0]);
    const v = verifyTrajectory(task, steps);
    assert.equal(v.repairedErrors, 1);
    assert.equal(v.stepSuccessRate, 1);
    assert.equal(cleaningRejection(steps, v), undefined);
  });

  it('covers evidence by result even when the code differs', () => {
    const other = 'SELECT c.region, ROUND(SUM(o.amount), 1) AS revenue FROM customers c, orders o WHERE c.customer_id = o.customer_id GROUP BY 1 ORDER BY revenue DESC LIMIT 3';
    assert.equal(coveredEvidence(task, [step('run_sql', { query: other }, rows([['South', 1234.5], ['North', 900]]))]).size, 1);
    assert.equal(coveredEvidence(task, [step('run_sql', { query: 'SELECT 1' }, rows([['North', 1]]))]).size, 0);
  });

  it('penalises negative rubric criteria that hold', () => {
    const steps = [step('run_sql', { query: `${query} -- and returns` }, rows([['South', 1234.5]])), step('run_sql', { query: 'SELECT * FROM returns' }, rows([['x', 1]])), step('final_answer', { answer: 'South' }, final('South'))];
    const rubric = scoreRubric(task.rubric!, steps, { answer: 'South', explanation: '' });
    assert.equal(rubric.criteria.find((c) => c.id === 'c4')?.holds, true);
    assert.equal(rubric.score, 0.75, '(1 + 1 + 2 − 1) / 4: the unjudged text criterion does not count');
  });

  it('rejects by reason: repeated calls, too many calls, failures, truncation, premature answers', () => {
    const good = step('run_sql', { query }, rows([['South', 1234.5]]));
    const answer = step('final_answer', { answer: 'South' }, final('South'));
    const check = (steps: AgentStep[]) => cleaningRejection(steps, verifyTrajectory(task, steps), DEFAULT_CLEANING);
    assert.equal(check([good, { ...good, index: 9 }, answer]), 'repeated-call');
    const many = Array.from({ length: 12 }, (_, i) => step('run_sql', { query: `SELECT ${i}` }, rows([[i, i]])));
    assert.equal(check([good, ...many, answer]), 'too-many-calls');
    const failures = [step('read_document', { name: 'x' }, 'error'), step('describe_table', { table: 'nope' }, 'error')];
    assert.equal(check([...failures, good, answer]), 'failure-rate');
    const truncated = step('sample_rows', { table: 'orders' }, { kind: 'rows', columns: ['a'], rows: [[1]], truncated: true });
    assert.equal(check([truncated, good, answer]), 'truncated-observation');
    assert.equal(check([step('list_tables', {}, { kind: 'tables', tables: [] }), answer]), 'premature-answer');
    assert.equal(check([good]), 'no-answer');
  });
});
