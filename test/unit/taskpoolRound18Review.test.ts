/**
 * The task pool after the blind question review of round 18 (the twenty-seventh set's pool): counts of days of each
 * kind are not compared across rows observed for different numbers of days, a crosswalk of names or codes is not
 * counted as things, a total of four parts or more is no partner of its parts, a workbook that stacks tables per
 * sheet gives tasks. (The tests read the data of the held-out set; none reads its column labels.)
 */
import * as assert from 'node:assert/strict';
import { flagMark, rowsNoun, unevenCoverage } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import { makeFolder } from '../support/envFixtures';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the round-18 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads EPA\'s days with an AQI as the sum of its six kinds of day, and compares no count of days across counties monitored for 2 to 366 days', async () => {
    const { context, session } = await env('epa-aqi-by-county-partitions');
    const sums = context.semantics.relationships.filter((r) => r.kind === 'derived-column' && r.column === 'days_with_aqi' && r.from.length === 6);
    assert.ok(sums.length >= 5, `${sums.length} files where days with an AQI is a sum of six`);
    const view = context.profile.tables.find((t) => context.semantics.partitions.some((p) => p.view === t.name))!;
    const uneven = unevenCoverage(context, view);
    for (const name of ['days_with_aqi', 'good_days', 'moderate_days', 'hazardous_days', 'days_ozone']) assert.ok(uneven.has(name), name);
    assert.ok(!uneven.has('median_aqi'));
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    // Counts of days only as a share of the days observed, pooled per year.
    for (const task of pool.tasks) if (!/pooling each year's days with AQI/.test(task.question)) assert.doesNotMatch(task.question, /\bdays\b/, task.question);
    const share = pool.tasks.find((t) => /highest share of them that were moderate days/.test(t.question));
    assert.ok(share, 'a year compared by its share of moderate days');
    assert.equal(share.answer.type === 'number' ? share.answer.value : undefined, 2.46);
  });

  it('reads mySociety\'s lookups of names and codes as crosswalks and its councils as local authorities at several levels: no spellings counted, no area summed', async () => {
    const { context, session } = await env('mysociety-uk-local-authorities-csv');
    for (const name of ['lookup_name_to_registry', 'lookup_gss_to_registry']) assert.equal(context.semantics.tables.find((t) => t.table === name)?.kind.value, 'bridge', name);
    const councils = tableOf(context, 'uk_local_authorities_current');
    assert.equal(councils.rowCount, 470);
    // Districts name their county, members their combined authority and old councils their successors (one cell may
    // name two, `CBD,WAF`), by the table's own key: rows at several levels.
    assert.deepEqual(context.semantics.tables.find((t) => t.table === councils.name)?.nested?.columns, ['replaced_by', 'county_la', 'combined_authority']);
    assert.equal(rowsNoun(context, councils), 'local authorities');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /total area|uk_local_authorities_current/, task.question);
      if (task.family === 'join-key') continue;
      assert.doesNotMatch(task.question, /number of rows in lookup|rows in lookup_(name|gss)/, task.question);
      assert.doesNotMatch(task.question, /coordinate/, task.question);
    }
  });

  it('says no trap is "marked" or "not marked" by NEON\'s quality flag of three values (0, 1, 2)', async () => {
    const { context, session } = await env('neon-ordway-mammals-sqlite');
    const traps = tableOf(context, 'traps');
    const qf = traps.columns.find((c) => c.name === 'duplicateTrapCoordinateQF')!;
    assert.equal(context.semantics.columns.find((c) => c.table === 'traps' && c.column === qf.name)?.role.value, 'flag');
    assert.equal(flagMark(context, traps.name, qf, 0), undefined);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /marked 'duplicate trap coordinate/i, task.question);
  });

  it('finds tasks in HMRC\'s workbook, whose sheets stack three tables each', async () => {
    const { session } = await env('hmrc-tobacco-bulletin-xlsx');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
  });

  it('finds a population that is the sum of four age bands, calls a table of spellings by key a crosswalk and a table of amounts by key none', async () => {
    const lines = ['region,age_0_15,age_16_39,age_40_64,age_65_plus,population'];
    for (let i = 0; i < 30; i++) {
      const parts = [1000 + 37 * i, 2000 + 53 * i, 1500 + 41 * i, 700 + 29 * ((i * 7) % 11)];
      lines.push([`R${i}`, ...parts, parts.reduce((t, x) => t + x, 0)].join(','));
    }
    const payments = ['region,amount'];
    for (let i = 0; i < 60; i++) payments.push([`R${i % 30}`, 100 + ((i * 37) % 91)].join(','));
    const names = ['region,spelling'];
    for (let i = 0; i < 60; i++) names.push([`R${i % 30}`, `Region ${i % 30}${i >= 30 ? ' (old)' : ''}`].join(','));
    const folder = makeFolder({ 'regions.csv': lines.join('\n') + '\n', 'payments.csv': payments.join('\n') + '\n', 'region_names.csv': names.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const sum = env.semantics.relationships.find((r) => r.kind === 'derived-column' && r.column === 'population');
      assert.ok(sum && sum.kind === 'derived-column' && sum.from.length === 4, 'population is the sum of its four bands');
      assert.notEqual(env.semantics.tables.find((t) => t.table === 'payments')?.kind.value, 'bridge');
      assert.equal(env.semantics.tables.find((t) => t.table === 'region_names')?.kind.value, 'bridge');
      // Codes of another table's rows are no levels of this one.
      assert.deepEqual(env.semantics.tables.filter((t) => t.nested).map((t) => t.table), []);
    } finally {
      folder.cleanup();
    }
  });
});
