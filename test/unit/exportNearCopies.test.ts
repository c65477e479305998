/** Near-copy signatures: what counts as wording (whitespace, keyword case, table aliases, thoughts, explanations) and what does not. */
import * as assert from 'node:assert/strict';
import type { AgentStep } from '../../src/core/agent/types';
import { normaliseSql, stepSignature } from '../../src/core/export/nearCopies';

function step(name: string, args: Record<string, unknown>, text: string, thought = ''): AgentStep {
  return {
    index: 0,
    thought,
    toolCall: { id: 'c', name, arguments: JSON.stringify(args) },
    observation: { ok: !text.startsWith('Error:'), tool: name, data: { kind: 'stdout', stdout: text }, text, elapsedMs: 0 },
    usage: { prompt: 0, completion: 0 },
    costUsd: 0,
    latencyMs: 0,
    config: { provider: 'p', model: 'm', contextLength: { mode: 'full' }, simulated: true },
    promptTokensEstimate: 0,
    droppedSteps: 0,
  };
}

describe('export: near-copy signatures', () => {
  it('treats whitespace, keyword case and table aliases as wording', () => {
    const a = 'SELECT c.region, SUM(o.amount) AS revenue\nFROM customers c JOIN orders o ON o.customer_id = c.customer_id\nGROUP BY c.region';
    const b = 'select customers.region, sum(orders.amount) as revenue from customers join orders on orders.customer_id = customers.customer_id group by customers.region';
    assert.equal(normaliseSql(a), normaliseSql(b));
    assert.notEqual(normaliseSql(a), normaliseSql(a.replace('SUM', 'AVG')), 'a different aggregate is a different query');
    assert.notEqual(normaliseSql("SELECT 1 FROM t WHERE s = 'A'"), normaliseSql("SELECT 1 FROM t WHERE s = 'a'"), 'string values keep their case');
    // A query the grammar rejects still compares by its tokens.
    assert.equal(normaliseSql('SELECT  x ,FROM t'), normaliseSql('select x, from   t'));
  });

  it('ignores thoughts and the final answer’s explanation, not calls, observations or the answer', () => {
    const rows = 'n\n6\n(1 row)';
    const base = stepSignature(step('run_sql', { query: 'SELECT COUNT(*) AS n FROM t' }, rows, 'Let me count.'));
    assert.equal(stepSignature(step('run_sql', { query: 'select count(*) as n from t' }, rows, 'Counting the rows now.')), base);
    assert.notEqual(stepSignature(step('run_sql', { query: 'SELECT COUNT(*) AS n FROM t' }, 'n\n7\n(1 row)')), base, 'another observation');
    assert.equal(
      stepSignature(step('final_answer', { answer: '6', explanation: 'Counted the rows.' }, 'Final answer: 6')),
      stepSignature(step('final_answer', { answer: '6', explanation: 'There are six rows in t.' }, 'Final answer: 6')),
    );
    assert.notEqual(stepSignature(step('final_answer', { answer: '6' }, 'Final answer: 6')), stepSignature(step('final_answer', { answer: '7' }, 'Final answer: 7')));
    assert.equal(stepSignature(step('describe_table', { table: 'orders' }, 'x')), stepSignature(step('describe_table', { table: 'orders' }, 'x', 'other words')));
  });
});
