/**
 * The document-metric, cross-source and clean-aggregate compositions on real data: the bundled sample and public
 * fixtures. Every step's sub-answer is checked against sqlite3's own execution of the step (an engine independent of
 * the sandbox's sql.js), the questions pass the lint, the quantities are checked against SQL written here from the
 * data's own description, and data without the needed shape yields no task.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession } from '../../src/core/agent/session';
import type { AgentSession } from '../../src/core/agent/session';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { cleanAggregateFamily, crossSourceFamily, documentMetricFamily, type TaskFamily } from '../../src/core/taskpool/families/index';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { statedAnswer } from '../../src/core/taskpool/validate';
import { materialize, publicFixture, PUBLIC_FIXTURES } from '../support/publicFixtures';
import { sqlite3Rows } from '../support/sqlite3';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sampleDir = path.join(repoRoot, 'media', 'samples', 'retail');
const families = [documentMetricFamily, crossSourceFamily, cleanAggregateFamily];

/** An environment opened on a folder, with its image written out for sqlite3, and the three families' pool. */
interface Opened {
  session: AgentSession;
  db: string;
  tasks: TaskSpec[];
  rejected: number;
  cleanup: () => Promise<void>;
}

async function open(root: string, removeRoot?: () => void): Promise<Opened> {
  const session = await openAgentSession(root);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-compositions-b-'));
  const db = path.join(dir, 'image.sqlite');
  fs.writeFileSync(db, session.env.image);
  const result = await buildTaskPool(session.toolContext, { families, max: 60 });
  return {
    session,
    db,
    tasks: [...result.tasks, ...result.unselected],
    rejected: result.rejected.length,
    async cleanup() {
      await session.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
      removeRoot?.();
    },
  };
}

/** A copy of a vendored data folder (fixtures not registered for `materialize`), removed afterwards. */
function copied(name: string): { root: string; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `toffee-${name}-`));
  fs.cpSync(path.join(PUBLIC_FIXTURES, name, 'data'), root, { recursive: true });
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const of = (opened: Opened, family: TaskFamily) => opened.tasks.filter((t) => t.family === family.id);

/** Every step of every task re-executed by sqlite3: each sub-answer is what its step states; the last is the key. */
function assertStepsReplay(tasks: TaskSpec[], db: string): void {
  for (const task of tasks) {
    for (const [i, step] of task.evidence.entries()) {
      assert.equal(step.tool, 'run_sql', `${task.id} step ${i + 1} is SQL`);
      const rows = sqlite3Rows(db, step.code);
      const key = step.subAnswer!.key;
      const stated = statedAnswer(key, [], rows);
      assert.ok(matchesAnswer(key, stated), `${task.id} step ${i + 1} (${step.subAnswer!.label}): sqlite3 says '${stated}', key ${JSON.stringify(key)}`);
    }
    assert.deepEqual(task.answer, task.evidence[task.evidence.length - 1].subAnswer!.key);
  }
}

/** A program of 3–4 steps, each with a label, later steps using earlier ones; questions lint-clean. */
function assertWellFormed(tasks: TaskSpec[], composition: string): void {
  for (const task of tasks) {
    assert.equal(task.program?.composition, composition, task.id);
    assert.ok(task.evidence.length >= 3 && task.evidence.length <= 4, `${task.id} has ${task.evidence.length} steps`);
    assert.equal(task.program!.steps, task.evidence.length);
    for (const step of task.evidence) assert.ok(step.subAnswer && step.subAnswer.label.length > 10, `${task.id}: a step without a labelled sub-answer`);
    assert.ok(task.evidence.slice(1).some((s) => (s.uses ?? []).length > 0), `${task.id}: no step uses an earlier one`);
    for (const step of task.evidence) for (const used of step.uses ?? []) assert.ok(used < task.evidence.indexOf(step), `${task.id}: a step uses a later one`);
    assert.deepEqual(lintQuestion(task.question), [], `${task.id}: ${task.question}`);
  }
}

describe('compositions: document metric, cross-source reconciliation, clean then aggregate', function () {
  this.timeout(240000);

  describe('the bundled retail sample', () => {
    let env: Opened;
    before(async () => {
      env = await open(sampleDir);
    });
    after(async () => env?.cleanup());

    it('computes the document rules per group: late orders against the on-time target, low stock, the cancellation rate, VIP customers', () => {
      const tasks = of(env, documentMetricFamily);
      assert.ok(tasks.length >= 4, `${tasks.length} document-metric tasks`);
      assertWellFormed(tasks, 'document-metric');
      assertStepsReplay(tasks, env.db);
      for (const task of tasks) {
        assert.equal(task.documents?.length, 1);
        const { document, section } = task.documents![0];
        assert.equal(document, 'business_rules.md');
        // The question names the section; the agent reads the rule's parameter there.
        assert.ok(task.question.includes(`"${section}"`), task.question);
        assert.doesNotMatch(task.question, /\b(5 days|95|2,?000)\b/, task.question);
      }
      const late = tasks.find((t) => t.documents![0].section === 'Late orders');
      assert.ok(late, 'no late-order task');
      assert.equal(late.evidence.length, 4);
      // Independently: each store's on-time share among shipped orders, the store with the most late orders, its gap to 95 %.
      const stores = sqlite3Rows(
        env.db,
        `SELECT s.name, 100.0 * AVG(julianday(o.shipped_at) - julianday(o.ordered_at) > 5) AS late FROM orders o JOIN stores s ON s.store_id = o.store_id WHERE o.shipped_at IS NOT NULL GROUP BY s.name ORDER BY late DESC`,
      );
      assert.equal(late.evidence[1].subAnswer!.key.type === 'string' && late.evidence[1].subAnswer!.key.value, stores[0][0]);
      assert.ok(late.answer.type === 'number' && Math.abs(late.answer.value - (100 - Number(stores[0][1]) - 95)) < 0.01, JSON.stringify(late.answer));
      const rate = tasks.find((t) => t.documents![0].section === 'Cancellation rate');
      assert.ok(rate, 'no cancellation-rate task');
      const overall = sqlite3Rows(env.db, `SELECT ROUND(100.0 * AVG(status = 'cancelled'), 2) FROM orders`);
      assert.ok(matchesAnswer(rate.evidence[0].subAnswer!.key, String(overall[0][0])));
      const vip = tasks.find((t) => t.documents![0].section === 'Customers');
      assert.ok(vip, 'no VIP task');
      assert.ok(vip.tables.includes('customers') && vip.tables.includes('returns'), vip.tables.join(', '));
    });

    it('reconciles order totals with their lines and stock levels with their movements, and finds where they disagree most', () => {
      const tasks = of(env, crossSourceFamily);
      assertWellFormed(tasks, 'reconciliation');
      assertStepsReplay(tasks, env.db);
      const orders = tasks.find((t) => /order total/.test(t.question));
      assert.ok(orders, 'no order-total task');
      const mismatched = sqlite3Rows(
        env.db,
        `SELECT COUNT(*) FROM (SELECT o.order_id, o.order_total - SUM(i.quantity * i.unit_price * (1 - i.discount)) AS d FROM orders o JOIN order_items i ON i.order_id = o.order_id GROUP BY o.order_id) WHERE ABS(d) > 0.01`,
      );
      assert.ok(matchesAnswer(orders.evidence[0].subAnswer!.key, String(mismatched[0][0])));
      const stock = tasks.find((t) => /on hand/.test(t.question));
      assert.ok(stock, 'no stock-level task');
      const discrepancies = sqlite3Rows(
        env.db,
        `SELECT COUNT(*), SUM(ABS(l.on_hand - COALESCE(m.q, 0))) FROM stock_levels l LEFT JOIN (SELECT warehouse_id, product_id, SUM(quantity) AS q FROM stock_movements GROUP BY 1, 2) m ON m.warehouse_id = l.warehouse_id AND m.product_id = l.product_id WHERE l.on_hand <> COALESCE(m.q, 0)`,
      );
      assert.ok(matchesAnswer(stock.evidence[0].subAnswer!.key, String(discrepancies[0][0])));
      assert.ok(matchesAnswer(stock.evidence[1].subAnswer!.key, String(discrepancies[0][1])));
      // Order items and returns share (order, product) and a quantity, but are two kinds of rows: never paired.
      assert.ok(!tasks.some((t) => t.tables.includes('returns')), 'order items paired with returns');
    });

    it('finds nothing to clean in the sample (no numbers as text, spellings or exact copies) and makes no task of it', () => {
      assert.equal(of(env, cleanAggregateFamily).length, 0);
    });
  });

  describe('the sample without its business rules', () => {
    it('has no document to read, so no document-metric task', async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-no-rules-'));
      for (const file of fs.readdirSync(sampleDir)) if (!file.endsWith(".md") && fs.statSync(path.join(sampleDir, file)).isFile()) fs.copyFileSync(path.join(sampleDir, file), path.join(root, file));
      const env = await open(root, () => fs.rmSync(root, { recursive: true, force: true }));
      try {
        assert.equal(of(env, documentMetricFamily).length, 0);
      } finally {
        await env.cleanup();
      }
    });
  });

  describe('public fixtures', () => {
    it('economist-big-mac: the same country-dates in the source and index files, mismatches and missing rows quantified', async () => {
      const folder = copied('economist-big-mac');
      const env = await open(folder.root, folder.cleanup);
      try {
        const tasks = of(env, crossSourceFamily);
        assert.ok(tasks.length >= 2, `${tasks.length} cross-source tasks`);
        assertWellFormed(tasks, 'reconciliation');
        assertStepsReplay(tasks, env.db);
        // Local prices are each in their country's currency: their differences do not add up across rows (the review's
        // "totals of differences not comparable across countries"), so no task sums them.
        assert.ok(!tasks.some((t) => /local price|dollar ex/.test(t.question)), tasks.map((t) => t.question).join('\n'));
        // The rows one source lacks are counted, and the count replays.
        const missing = tasks.find((t) => /no matching row/.test(t.question));
        assert.ok(missing, 'a task on the rows one source lacks');
        // A partition's member files are not paired with their own union view.
        assert.ok(!tasks.some((t) => t.tables.includes('big_mac_index_all')));
      } finally {
        await env.cleanup();
      }
    });

    it('vega-gapminder: the files agree on every shared value, so the reconciliation is of rows one file lacks', async () => {
      const m = await materialize(publicFixture('vega-gapminder'));
      const env = await open(m.root, m.cleanup);
      try {
        const tasks = of(env, crossSourceFamily);
        assertWellFormed(tasks, 'reconciliation');
        assertStepsReplay(tasks, env.db);
        assert.ok(tasks.length >= 1 && tasks.every((t) => !/differ by more than/.test(t.question)), tasks.map((t) => t.question).join('\n'));
        const missing = sqlite3Rows(env.db, `SELECT g.year, COUNT(*) FROM gapminder g LEFT JOIN countries c ON c.country = g.country AND c.year = g.year WHERE c.country IS NULL GROUP BY 1 ORDER BY 2 DESC`);
        const coverage = tasks.find((t) => t.tables[0] === 'gapminder');
        assert.ok(coverage, 'no coverage task for gapminder');
        assert.ok(matchesAnswer(coverage.answer, String(missing[0][0])));
      } finally {
        await env.cleanup();
      }
    });

    it('vega-weather: the Seattle days of both files are identical, so there is nothing to reconcile; no documents, no metric', async () => {
      const m = await materialize(publicFixture('vega-weather'));
      const env = await open(m.root, m.cleanup);
      try {
        const identical = sqlite3Rows(env.db, `SELECT COUNT(*), SUM(w.temp_max <> s.temp_max OR w.precipitation <> s.precipitation OR w.wind <> s.wind) FROM weather w JOIN seattle_weather s ON s.date = w.date WHERE w.location = 'Seattle'`);
        assert.deepEqual(identical[0].map(Number), [1461, 0]);
        assert.equal(of(env, crossSourceFamily).length, 0);
        assert.equal(of(env, documentMetricFamily).length, 0);
        assert.equal(of(env, cleanAggregateFamily).length, 0);
      } finally {
        await env.cleanup();
      }
    });

    it('vega-us-budget: amounts written "-566,000" are read as numbers before they are summed, which changes the answer', async () => {
      const m = await materialize(publicFixture('vega-us-budget'));
      const env = await open(m.root, m.cleanup);
      try {
        const tasks = of(env, cleanAggregateFamily);
        assert.ok(tasks.length >= 1, 'no clean-aggregate task');
        assertWellFormed(tasks, 'clean-aggregate');
        assertStepsReplay(tasks, env.db);
        const budget = tasks.find((t) => /thousands separators/.test(t.question))!;
        assert.ok(budget, 'no numbers-as-text task');
        const column = String((budget.evidence[0].code.match(/WHERE "([^"]+)" IS NOT NULL/) ?? [])[1]);
        const group = String((budget.evidence[1].code.match(/^SELECT c\."([^"]+)"/) ?? [])[1]);
        // Summed where the profile knows the amounts add up, averaged where it only assumes it: the task says which.
        const fn = /ROUND\(AVG\(/.test(budget.evidence[1].code) ? 'AVG' : 'SUM';
        const cleaned = sqlite3Rows(env.db, `SELECT "${group}", ${fn}(CAST(REPLACE("${column}", ',', '') AS REAL)) AS t FROM budget GROUP BY 1 ORDER BY t DESC`);
        const naive = sqlite3Rows(env.db, `SELECT "${group}", ${fn}("${column}") AS t FROM budget GROUP BY 1 ORDER BY t DESC`);
        assert.ok(matchesAnswer(budget.evidence[1].subAnswer!.key, String(cleaned[0][0])));
        const answerOf = (rows: unknown[][]) => (budget.answer.type === 'number' && /share/.test(budget.question) ? (100 * Number(rows[0][1])) / rows.reduce((s, r) => s + Number(r[1]), 0) : Number(rows[0][1]));
        assert.ok(matchesAnswer(budget.answer, String(answerOf(cleaned))), `${JSON.stringify(budget.answer)} vs ${answerOf(cleaned)}`);
        assert.ok(!matchesAnswer(budget.answer, String(answerOf(naive))), 'the uncleaned sum gives the same answer');
      } finally {
        await env.cleanup();
      }
    });

    it('vega-flights and pudding-cetaceans: a value spelled two ways is counted over both spellings', async () => {
      for (const name of ['vega-flights', 'pudding-cetaceans']) {
        const folder = name === 'vega-flights' ? await materialize(publicFixture(name)) : copied(name);
        const env = await open(folder.root, folder.cleanup);
        try {
          const tasks = of(env, cleanAggregateFamily);
          assert.ok(tasks.length >= 1, `${name}: no clean-aggregate task`);
          assertWellFormed(tasks, 'clean-aggregate');
          assertStepsReplay(tasks, env.db);
          for (const task of tasks.filter((t) => /written in more than one way/.test(t.question))) {
            const value = task.evidence[1].subAnswer!.key;
            assert.equal(value.type, 'string');
            const table = task.tables[0];
            const column = String((task.evidence[0].code.match(/COUNT\(DISTINCT "([^"]+)"\)/) ?? [])[1]);
            const spellings = sqlite3Rows(env.db, `SELECT "${column}", COUNT(*) FROM "${table}" WHERE lower(trim("${column}")) = '${(value as { value: string }).value.replace(/'/g, "''")}' GROUP BY 1`);
            assert.ok(spellings.length >= 2, `${name}: ${JSON.stringify(spellings)}`);
            const merged = spellings.reduce((s, r) => s + Number(r[1]), 0);
            assert.ok(matchesAnswer(task.answer, String(merged)));
            assert.ok(spellings.every((r) => Number(r[1]) < merged), 'no single spelling gives the merged count');
          }
        } finally {
          await env.cleanup();
        }
      }
    });

    it('stdlib-minard: clean data without documents or a second source yields none of the three', async () => {
      const m = await materialize(publicFixture('stdlib-minard'));
      const env = await open(m.root, m.cleanup);
      try {
        assert.equal(env.tasks.length, 0, env.tasks.map((t) => t.question).join('\n'));
      } finally {
        await env.cleanup();
      }
    });
  });
});
