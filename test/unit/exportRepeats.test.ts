/** Repeated calls: a trajectory that runs a call again for the same observation is left out where its task has one that does not. */
import * as assert from 'node:assert/strict';
import type { AgentStep } from '../../src/core/agent/types';
import { dropRepeats, firstRepeat } from '../../src/core/export/repeats';
import type { ExportTrajectory } from '../../src/core/export/types';
import type { TaskSpec } from '../../src/core/taskpool/types';

function step(name: string, args: Record<string, unknown>, text: string): AgentStep {
  return {
    index: 0,
    thought: '',
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

const vip = (alias: boolean) => step('run_sql', { query: alias ? 'SELECT COUNT(*) AS matching FROM (SELECT t1.customer_id FROM customers t1)' : 'SELECT COUNT(*) AS matching FROM (SELECT customer_id FROM customers)' }, 'matching\n57\n(1 row)');
const answer = step('final_answer', { answer: '57' }, 'Final answer: 57');

function trajectory(id: string, taskId: string, steps: AgentStep[]): ExportTrajectory {
  return { trajectoryId: id, runId: 'r', task: { id: taskId } as TaskSpec, steps, quality: 1, verified: true, hasRepair: false, repairedStepIndexes: [], simulated: true };
}

describe('export: repeated calls', () => {
  it('finds a step that sees again what an earlier step saw, however its call is written', () => {
    assert.equal(firstRepeat([step('list_tables', {}, 'table\nt\n(1 row)'), vip(true), vip(false), answer]), 2);
    assert.equal(firstRepeat([vip(true), step('run_sql', { query: 'SELECT COUNT(*) AS matching FROM orders' }, 'matching\n58\n(1 row)'), answer]), -1);
    // An error seen twice is a failed attempt, not knowledge redone; answers are never repeats.
    assert.equal(firstRepeat([step('run_sql', { query: 'SELECT x' }, 'Error: no such column: x'), step('run_sql', { query: 'SELECT x' }, 'Error: no such column: x'), answer, answer]), -1);
    // Two different checks that both find nothing (no rows, a single 0) repeat no work.
    const none = (query: string) => step('run_sql', { query }, 'n\n0\n(1 row)');
    assert.equal(firstRepeat([none('SELECT COUNT(*) AS n FROM orders WHERE total < 0'), none('SELECT COUNT(*) AS n FROM returns WHERE qty < 0'), answer]), -1);
    // The same check run twice does, whatever it found.
    assert.equal(firstRepeat([none('SELECT COUNT(*) AS n FROM orders WHERE total < 0'), none('select count(*) as n from orders where total < 0'), answer]), 1);
  });

  it('leaves a repeating trajectory out only where its task has one that does not, and reports it', () => {
    const repeating = trajectory('a/1', 'a', [vip(true), vip(false), answer]);
    const clean = trajectory('a/2', 'a', [vip(true), answer]);
    const onlyRepeating = trajectory('b/1', 'b', [vip(true), vip(false), answer]);
    const { kept, report } = dropRepeats([repeating, clean, onlyRepeating], true);
    assert.deepEqual(kept.map((t) => t.trajectoryId), ['a/2', 'b/1']);
    assert.equal(report.withRepeats, 2);
    assert.deepEqual(report.dropped, [{ trajectoryId: 'a/1', taskId: 'a', step: 1, tool: 'run_sql' }]);
    assert.equal(dropRepeats([repeating, clean], false).kept.length, 2);
    // Only for one as good: a better trajectory with a repeat stays, and so does one a curator accepted.
    const better = { ...trajectory('c/1', 'c', [vip(true), vip(false), answer]), quality: 1 };
    const worse = { ...trajectory('c/2', 'c', [vip(true), answer]), quality: 0.4, verified: false };
    const accepted = { ...trajectory('a/3', 'a', [vip(true), vip(false), answer]), curation: 'accepted' as const };
    assert.deepEqual(dropRepeats([better, worse, accepted, clean], true).kept.map((t) => t.trajectoryId), ['c/1', 'c/2', 'a/3', 'a/2']);
  });
});
