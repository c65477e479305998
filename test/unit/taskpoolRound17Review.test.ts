/**
 * The task pool after the blind question reviews of round 17 (the twenty-fifth and twenty-sixth sets' pools): no
 * Python in a question, an hour's column by its hour, files of different counters never pooled, a counter's file
 * of one row a day counted in days, a classification's stacked levels kept at the finest, a nested array a form
 * saved with empty items never counted, a key that is no noun never pluralised, a JSON file's "data" called records.
 * (The tests read the data of the held-out set; none reads its column labels.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the round-17 question reviews', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('asks the cycle counters about the count at an hour of a counter\'s days, never pooled over counters, and counts no counter-days', async () => {
    const { context, session } = await env('openinnovations-cycle-counts-partitions');
    const file = context.profile.tables.find((t) => /38c1/.test(t.name))!;
    assert.equal(columnPhrase(context, file.name, file.columns.find((c) => c.originalName === '07:00')!), 'count at 07:00');
    assert.equal(rowsNoun(context, file), 'days');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\b\d\d \d\d\b/, task.question);
      assert.doesNotMatch(task.question, /number of daily records/, task.question);
      // Correlations, outliers and percentiles over the union of six counters mix the counters.
      if (/correlation|standard deviations|percentile/.test(task.question)) assert.doesNotMatch(task.question, /view 'all_cycles'/, task.question);
    }
  });

  it('still pools files that each hold many things (a continent\'s countries): one population split by continent', async () => {
    const { session } = await env('swcarpentry-gapminder-gdp-partitions');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 2, `${pool.tasks.length} tasks`);
  });

  it('keeps BLS occupations at the detailed level and says so, and never writes Python into a question', async () => {
    const { context, session } = await env('bls-oews-national-wages-xlsx');
    const levels = context.semantics.totalRows?.find((t) => t.column === 'o_group');
    assert.equal(levels?.keep, 'detailed');
    assert.equal(levels?.levels, 'classes');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.match(task.question, /Keep only the rows whose SOC occupation level is 'detailed'/, task.question);
      assert.doesNotMatch(task.question, /statistics\.quantiles|EMP PRSE|o group/, task.question);
    }
  });

  it('counts no empty entries of a bibliography\'s nested arrays, calls its top-level items records, and pluralises no key that is no noun', async () => {
    const { context, session } = await env('ubbochum-hoe-bibliography-json');
    assert.equal(rowsNoun(context, tableOf(context, 'data')), 'records');
    assert.equal(rowsNoun(context, tableOf(context, 'data_is_part_of')), 'entries');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /is part ofs|title translateds|geographics|the table 'data'/, task.question);
      // 20 of 83 person entries are a form's empty defaults: no statistic over counts of them.
      assert.ok(!(task.family === 'stats-zscore' && /'person' entries|'corporation' entries|'geographic' entries|'keyword' entries/.test(task.question)), task.question);
    }
  });
});
