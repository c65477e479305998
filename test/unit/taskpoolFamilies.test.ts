import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession } from '../../src/core/agent/session';
import type { AgentSession } from '../../src/core/agent/session';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { buildStarterTasks, starterFamilies, taskId } from '../../src/core/taskpool/families/index';
import { words } from '../../src/core/text/words';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { SqlSandbox } from '../../src/core/sandbox/index';
import { openShop } from './agentFixture';

function pearson(pairs: Array<[number, number]>): number {
  const n = pairs.length;
  const mx = pairs.reduce((s, p) => s + p[0], 0) / n;
  const my = pairs.reduce((s, p) => s + p[1], 0) / n;
  let cov = 0;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of pairs) {
    cov += (x - mx) * (y - my);
    sx += (x - mx) ** 2;
    sy += (y - my) ** 2;
  }
  return cov / Math.sqrt(sx * sy);
}

describe('answer matching', () => {
  it('reads numbers, names and lists leniently but strictly on value', () => {
    assert.ok(matchesAnswer({ type: 'number', value: 1234.5, tolerance: 0.01 }, '$1,234.50 in total'));
    assert.ok(!matchesAnswer({ type: 'number', value: 1234.5, tolerance: 0.01 }, '1234.6'));
    assert.ok(!matchesAnswer({ type: 'number', value: 3, tolerance: 0.5 }, 'unknown'));
    assert.ok(matchesAnswer({ type: 'string', value: 'North' }, ' "north". '));
    assert.ok(!matchesAnswer({ type: 'string', value: 'North' }, 'North-East'));
    assert.ok(matchesAnswer({ type: 'list', values: ['A', 'B', 'C'], ordered: true }, '1. A\n2. B\n3. C'));
    assert.ok(!matchesAnswer({ type: 'list', values: ['A', 'B', 'C'], ordered: true }, 'B, A, C'));
    assert.ok(matchesAnswer({ type: 'list', values: ['A', 'B', 'C'], ordered: false }, 'B, A and C'));
  });
});

describe('starter task families', function () {
  this.timeout(180_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let session: AgentSession;
  let tasks: TaskSpec[];
  before(async () => {
    shop = await openShop();
    session = shop.session;
    tasks = await buildStarterTasks(session.env, { sql: session.sql, python: session.python });
  });
  after(async () => shop?.close());

  it('builds tasks of every family with stable ids and a difficulty per shape', async () => {
    const families = new Set(tasks.map((t) => t.family));
    assert.deepEqual([...families].sort(), starterFamilies.map((f) => f.id).sort());
    const again = await buildStarterTasks(session.env, { sql: session.sql, python: session.python });
    assert.deepEqual(again.map((t) => t.id), tasks.map((t) => t.id));
    assert.deepEqual(again.map((t) => t.answer), tasks.map((t) => t.answer));
    assert.equal(new Set(tasks.map((t) => t.id)).size, tasks.length);
    const level = (family: string) => tasks.find((t) => t.family === family)!.difficulty.level;
    assert.equal(level('filtered-aggregate'), 'easy');
    assert.equal(level('group-contrast'), 'medium');
    assert.equal(level('join-top-k'), 'hard');
    assert.equal(level('python-correlation'), 'hard');
    const join = tasks.find((t) => t.family === 'join-top-k')!;
    assert.equal(join.difficulty.joins, 1);
    assert.equal(join.tables.length, 2);
    assert.equal(taskId('x', { a: 1 }), taskId('x', { a: 1 }));
    assert.notEqual(taskId('x', { a: 1 }), taskId('x', { a: 2 }));
    assert.equal(words('order_totalUsd'), 'order total usd');
  });

  it('phrases questions from column names without leaking the answer', () => {
    for (const task of tasks) {
      assert.match(task.question, /\?( Round to \d decimals\.| List them from highest to lowest\.)?$/);
      const answerText = task.answer.type === 'number' ? String(task.answer.value) : task.answer.type === 'string' ? task.answer.value : '';
      if (answerText.length > 2) assert.ok(!task.question.includes(answerText), `${task.question} leaks ${answerText}`);
    }
    const group = tasks.find((t) => t.family === 'group-contrast')!;
    assert.match(group.question, /^Among orders, which (region|segment|status) has the highest average (order amount|quantity|discount) \(counting only (regions|segments|statuses) with at least 5 orders\)\?$/);
  });

  it('has answer keys that an independent execution of the evidence reproduces', async () => {
    const independent = new SqlSandbox(session.env.image);
    try {
      for (const task of tasks) {
        const sqlSteps = task.evidence.filter((e) => e.tool === 'run_sql');
        for (const step of sqlSteps) {
          const result = await independent.run(step.code);
          assert.ok(result.ok, `${task.id}: ${result.error}`);
          assert.deepEqual(result.rows!.slice(0, step.result!.rows.length), step.result!.rows);
        }
        const last = task.evidence[task.evidence.length - 1];
        if (last.tool === 'run_sql') {
          const rows = (await independent.run(last.code)).rows!;
          const stated = task.answer.type === 'list' ? rows.map((r) => String(r[0])).join(', ') : String(rows[0][0]);
          assert.ok(matchesAnswer(task.answer, stated), `${task.id}: ${stated} vs ${JSON.stringify(task.answer)}`);
        } else {
          // The Python step's answer against a JavaScript Pearson r over the same rows.
          const query = /^query = (".*")$/m.exec(last.code)![1];
          const rows = (await independent.run(JSON.parse(query))).rows as Array<[number, number]>;
          const r = pearson(rows.map(([x, y]) => [Number(x), Number(y)]));
          assert.ok(task.answer.type === 'number' && Math.abs(task.answer.value - r) < 1e-4, `${task.id}: ${JSON.stringify(task.answer)} vs ${r}`);
        }
      }
    } finally {
      await independent.dispose();
    }
  });

  it('degrades to fewer tasks on a table with no numbers, and skips Python families without Python', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-'));
    const lines = ['name,colour'];
    for (let i = 0; i < 30; i++) lines.push(`item${i},${['red', 'green', 'blue'][i % 3]}`);
    fs.writeFileSync(path.join(dir, 'items.csv'), lines.join('\n'));
    const small = await openAgentSession(dir);
    try {
      const only = await buildStarterTasks(small.env, { sql: small.sql, python: small.python });
      assert.deepEqual(only.map((t) => t.family), ['filtered-aggregate']);
      assert.match(only[0].question, /^How many items have colour '(red|green|blue)'\?$/);
      assert.equal(only[0].answer.type === 'number' && only[0].answer.value, 10);
    } finally {
      await small.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const noPython = await buildStarterTasks(session.env, { sql: session.sql });
    assert.ok(!noPython.some((t) => t.family === 'python-correlation'));
    assert.ok(noPython.length > 0);
  });
});
