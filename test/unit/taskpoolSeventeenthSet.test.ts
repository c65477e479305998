/**
 * The task pool on the seventeenth set's lessons: an official statistics table whose counts sit beside the GSS
 * symbols (`z`, `x`, `c`) takes statistics of those counts; its rows — one per year, place, phase and sex, the region
 * empty on the national rows — are the cells of a grid, never counted; a name after a publisher's prefix (`t_pupils`)
 * reads as its guidance says ("number of pupils").
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, measures } from '../../src/core/taskpool/families/kit';
import { gridTables } from '../../src/core/taskpool/grids';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, openFiles, tableOf } from '../support/familyContexts';

describe('task pool: official statistics tables with symbols, grids with empty regions, prefixed names (the seventeenth set)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads the DfE tables: counts beside z and x are measures, the tables are grids, their names read as the guidance says', async () => {
    const { context, session } = await env('dfe-uk-education-training-csv');
    for (const [table, column] of [['uk_pupils', 't_pupils'], ['uk_teachers', 't_fte_teachers'], ['uk_expenditure', 't_expenditure_millions']]) {
      assert.ok(measures(context, tableOf(context, table)).some((c) => c.name === column), `${table}.${column} is a measure tasks use`);
    }
    assert.equal(columnPhrase(context, 'uk_pupils', columnOf(context, 'uk_pupils', 't_pupils')), 'number of pupils');
    assert.equal(columnPhrase(context, 'uk_teachers', columnOf(context, 'uk_teachers', 't_fte_teachers')), 'full-time equivalent number of teachers');
    const { profile, sql } = session.toolContext;
    const grids = (await gridTables(profile, session.env.semantics, sql)).map((g) => g.table).sort();
    // (uk_pupils gives single ages for one year only: it fills 49% of its series × years, below the half a grid needs.)
    for (const table of ['uk_schools', 'uk_teachers']) assert.ok(grids.includes(table), `${table} is a grid: ${grids.join(', ')}`);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\bnumber of rows\b|\bhow many rows (belong|have)\b/i, task.question);
      assert.doesNotMatch(task.question, /\bt (pupils|schools|fte teachers)\b/, task.question);
    }
  });

  it('keeps a column named with a short word before an underscore (`is_active`, `a_b_test`) as its words, and an undocumented prefix as written', async () => {
    const lines = ['t_visits,is_active,region'];
    for (let i = 0; i < 30; i++) lines.push([100 + ((i * 37) % 90), i % 2 === 0 ? 'yes' : 'no', ['North', 'South', 'East'][i % 3]].join(','));
    const opened = await openFiles({ 'site.csv': lines.join('\n') + '\n' });
    try {
      const { context } = opened;
      assert.equal(columnPhrase(context, 'site', columnOf(context, 'site', 't_visits')), 't visits', 'no guidance: the words as written');
      assert.equal(columnPhrase(context, 'site', columnOf(context, 'site', 'is_active')), 'is active');
    } finally {
      await opened.session.dispose();
    }
  });
});

describe('task pool: the blind reviews of round 14 (seventeenth and eighteenth sets)', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('pools no concentration over sixty chemicals, drills into no model nested in its maker, and reads nested JSON by its last part', async () => {
    const tox = await env('usgs-toxeval-owc-xlsx');
    const data = tableOf(tox.context, 'owc_data_from_sup_data');
    assert.deepEqual(measures(tox.context, data).map((c) => c.name), [], 'a value per chemical: sixty quantities');
    const flights = await env('dittodb-nycflights-sqlite');
    const pool = await buildTaskPool(flights.session.toolContext);
    for (const task of pool.tasks.filter((t) => t.family === 'drill-down')) assert.doesNotMatch(task.question, /manufacturer .* leading model/, task.question);
    const classics = await env('corgis-classics-json');
    assert.equal(columnPhrase(classics.context, 'classics', columnOf(classics.context, 'classics', 'metadata.downloads')), 'downloads');
    assert.equal(columnPhrase(classics.context, 'classics', columnOf(classics.context, 'classics', 'metrics.difficulty.gunning_fog')), 'gunning fog');
  });

  it('matches no two tables of the Commons Library database on their own ids', async () => {
    const { session } = await env('ukparliament-psephology-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks.filter((t) => t.family === 'reconciliation')) assert.doesNotMatch(task.question, / on id\b/, task.question);
  });
});
