/**
 * The task pool after reading the pools of the thirty-eighth and thirty-ninth sets (round 24): a statistics office's
 * sheets under different titles are no two sources of one figure; a seasonally adjusted series is computed from its
 * raw twin, and a balance rounded to tens from the flows it nets; a placeholder (`-`) is no value to ask about; a
 * record's file attachments (pictures, their sizes and thumbnails' widths) are no data; the loader's row numbers refer
 * to no other table. (The tests read the data of sets measured blind before these changes.)
 */
import * as assert from 'node:assert/strict';
import { derivedPair, quotable } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

describe('task pool: after reading the round-24 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reconciles no two ONS sheets under different titles, and relates no series to its adjusted twin or a balance to its flows', async () => {
    const { context, session } = await env('ons-overseas-travel-monthly-xlsx');
    assert.ok(derivedPair(context, { table: 'overseas_visits_table_1', column: 'all_visits_nsa' }, { table: 'overseas_visits_table_1', column: 'all_visits_sa' }));
    assert.ok(derivedPair(context, { table: 'overseas_visits_table_5', column: 'balance_nsa' }, { table: 'overseas_visits_table_5', column: 'uk_residents_visits_abroad_expenditure_nsa' }));
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.notEqual(task.family, 'cross-source', task.question);
      assert.doesNotMatch(task.question, /\b(\w[\w' ]*) NSA\b.*\b\1 SA\b/, task.question);
      assert.doesNotMatch(task.question, /column [12]\b/, task.question);
    }
  });

  it("asks nothing of Karuna's picture attachments, and joins no monthly web log to a table by the loader's row numbers", async () => {
    const { context, session } = await env('karuna2020-covid-relief-json');
    const pictures = context.semantics.tables.filter((t) => /pictures$/.test(t.table));
    assert.ok(pictures.length >= 2 && pictures.every((t) => t.metadata), pictures.map((t) => t.table).join(', '));
    assert.ok(!context.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === '_row_id'));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /picture|thumbnail/i, task.question);
      assert.ok(!task.tables.some((t) => /pictures$/.test(t)), task.question);
    }
  });

  it('quotes no placeholder for a missing value', async () => {
    for (const mark of ['-', '--', '?', '..', '(x)', '(z)']) assert.equal(quotable(mark), false, mark);
    for (const value of ['Greece', 'A-1', '(1)', '0', 'C++']) assert.equal(quotable(value), true, value);
    const { session } = await env('lighthouse-vaccinating-undocumented-csv');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /'-'|'--'/, task.question);
  });
});
