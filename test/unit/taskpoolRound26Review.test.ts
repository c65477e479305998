/**
 * The task pool after the blind review of the forty-first set's pools (round 26): a value of a registry's records
 * ('All' genders, one trial open to all) is no total row; total rows marked in several columns are left out in one
 * clause; glued and coded names read as words (`numdocksavailable` → "number of docks available", `Min Delay` →
 * "delay in minutes", `age_y` → "age in years", `A&E`); stations named by their code are "stations"; a measure that
 * holds another (a streetcar's gap and its delay) or adds up to it with a third (free docks, bikes and capacity) is no
 * pair to correlate or split; figures of several indicators in one column and the cells of a reference grid are no
 * sample; direction codes spelled with and without a slash are not grouped as written; a drill-down says its two shares without "there" and "within it" chained. (The
 * tests read the data of the forty-first set.)
 */
import * as assert from 'node:assert/strict';
import { constructedLink, humanize, measures, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { exclusionSentence } from '../../src/core/taskpool/totals';
import { mixedOrGridMeasures } from '../../src/core/taskpool/referenceGrids';
import { environments, openFiles } from '../support/familyContexts';

describe('task pool: after reading the round-26 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);
  type Context = Awaited<ReturnType<typeof env>>['context'];
  const tableOf = (context: Context, pattern: RegExp) => context.profile.tables.find((t) => pattern.test(t.name))!;
  const columnOf = (context: Context, pattern: RegExp, name: string) => tableOf(context, pattern).columns.find((c) => c.name === name)!;

  it('reads glued, coded and abbreviated names as words', () => {
    assert.equal(humanize('numdocksavailable'), 'num docks available');
    assert.equal(humanize('stationcode'), 'station code');
    assert.equal(humanize('Min Delay'), 'delay in minutes');
    assert.equal(humanize('Min Gap'), 'gap in minutes');
    assert.equal(humanize('age_y'), 'age in years');
    assert.equal(humanize('Emergency_Admissions_via_A&E_Type_1'), 'emergency admissions via A&E type 1');
    assert.equal(humanize('unavailable'), 'unavailable');
    assert.equal(humanize('barcode'), 'barcode');
  });

  it("leaves no trial out as a total: 'All' genders is one trial's eligibility", async () => {
    const { context, session } = await env('clinicaltrialsgov-registry-tsv');
    assert.deepEqual((context.semantics.totalRows ?? []).map((t) => `${t.column}: ${t.values.join(", ")}`), []);
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /which total other rows/, task.question);
    // The drill-down without "there" and "within it" chained, and a singular in -s with its 's.
    const drill = pool.tasks.find((t) => t.family === 'drill-down');
    assert.ok(drill, 'a drill-down by status and phase');
    assert.match(drill.question, /^Take the status with the highest number of search results, and within it the phase with the most search results\. By how many percentage points does that phase's share of the status's search results exceed its share across all statuses/, drill.question);
  });

  it("says NHS England's total rows once, though three columns mark them", async () => {
    const { context, session } = await env('nhse-ae-attendances-monthly-partitions');
    const pool = await buildTaskPool(session.toolContext);
    const said = pool.tasks.filter((t) => /Leave out/.test(t.question));
    assert.ok(said.length > 0, 'some task leaves the total rows out');
    for (const task of said) {
      assert.match(task.question, /Leave out the rows marked '[^']+' or '[^']+' in the [a-z ,]+ and [a-z ]+, which total other rows\./, task.question);
      assert.doesNotMatch(task.question, /and those whose/, task.question);
      assert.doesNotMatch(task.question, /a&e/, task.question);
    }
    assert.ok(context.semantics.partitions.length > 0);
  });

  it('states one set of rows marked in several columns once, and different rows in clauses of their own', () => {
    const rows = (column: string, values: string[], count: number) => ({ table: 't', column, values, rows: count, evidence: 'word' as const, confidence: 0.4, grouping: [], why: '' });
    assert.equal(exclusionSentence([rows('org_code', ['Total'], 12), rows('org_name', ['Total'], 12)]), "Leave out the rows marked 'Total' in the org code and org name, which total other rows.");
    assert.equal(exclusionSentence([rows('region', ['All regions'], 3), rows('sex', ['All'], 5)]), "Leave out the rows whose region is 'All regions' and those whose sex is 'All', which total other rows.");
  });

  it("names Vélib's stations, never correlates free docks with capacity (bikes + docks = capacity), and says OUI as a mark", async () => {
    const { context, session } = await env('paris-velib-station-availability-json');
    const t = tableOf(context, /^velib/);
    assert.equal(rowsNoun(context, t), 'stations');
    const column = (name: string) => t.columns.find((c) => c.name === name)!;
    assert.equal(await constructedLink(context, t, column('fields.capacity'), column('fields.numdocksavailable')), true);
    assert.equal(await constructedLink(context, t, column('fields.capacity'), column('fields.ebike')), false, 'bigger stations hold more e-bikes: a finding, not a sum');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /velib-disponibilite|numdocksavailable|numbikesavailable|'OUI'|'NON'/, task.question);
      assert.ok(!/capacity/.test(task.question) || !/docks available/.test(task.question), task.question);
    }
  });

  it("never pairs a streetcar's delay with its gap, and groups no direction spelled with and without a slash", async () => {
    const { context, session } = await env('ttc-streetcar-delays-xlsx');
    const feb = tableOf(context, /feb_2019$/);
    assert.equal(await constructedLink(context, feb, columnOf(context, /feb_2019$/, 'min_delay'), columnOf(context, /feb_2019$/, 'min_gap')), true, 'r = 0.98, the gap all but never below the delay');
    const nov = tableOf(context, /nov_2019$/);
    assert.equal(await constructedLink(context, nov, columnOf(context, /nov_2019$/, 'delay'), columnOf(context, /nov_2019$/, 'gap')), true, 'r = 0.54 by a few outliers; by rank the two move together');
    const jan = tableOf(context, /jan_2019$/);
    assert.equal(await constructedLink(context, jan, columnOf(context, /jan_2019$/, 'min_delay'), columnOf(context, /jan_2019$/, 'min_gap')), true, 'r = 0.74, the gap at least the delay on 96% of rows');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 8, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.ok(!/\bdelay\b/.test(task.question) || !/\bgap\b/.test(task.question), task.question);
      assert.doesNotMatch(task.question, /\bmin (delay|gap)\b|' sheet\b.*' sheet|, 2019 '/, task.question);
    }
    // April writes directions as 'E/B', 'EB' and 'eb': no grouping by them as written.
    const apr = pool.tasks.filter((t) => t.tables.some((name) => /apr_2019$/.test(name)));
    for (const task of apr) assert.doesNotMatch(task.question, /\bdirection\b/, task.question);
  });

  it("asks no statistic over the cells of KiGGS's reference grids, nor pools percentiles of five indicators", async () => {
    const { context, session } = await env('rki-kiggs-carotid-percentiles-csv');
    const pool = await buildTaskPool(session.toolContext);
    assert.deepEqual(
      pool.tasks.map((t) => t.question),
      [],
      'every table is a grid of age × height by sex (and indicator), its cells no sample',
    );
    const found = await mixedOrGridMeasures(context.profile, context.semantics, context.sql);
    assert.deepEqual([...new Set(found.filter((f) => /reference grid/.test(f.why)).map((f) => f.view))].length, 2);
    assert.ok(found.some((f) => f.column === 'p50' && /5 indicator values/.test(f.why)), 'P50 of cimt (about 0.5 mm) and of Ep (about 50 kPa) pooled');
  });

  it("keeps Zurich's vehicles by fuel a quantity split by a category, not figures of several indicators", async () => {
    const { context } = await env('zh-decarb-monitoring');
    const found = await mixedOrGridMeasures(context.profile, context.semantics, context.sql);
    assert.deepEqual(found.map((f) => `${f.view}.${f.column}`), [], 'Benzin, Diesel and Wasserstoff cars add up to all cars');
  });

  it('reads a sample of people measured, some alike in sex, age and height, as no grid', async () => {
    // 240 people: ages 20–59 and heights 150–194 by 1 cm, two of every sex × age × height drawn twice.
    const lines = ['person,sex,age,height,weight'];
    for (let i = 0; i < 240; i++) lines.push(`p${i},${i % 2 ? 'f' : 'm'},${20 + ((i * 7) % 40)},${150 + ((i * 11) % 45)},${55 + ((i * 13) % 40) + (i % 7) / 10}`);
    for (let i = 0; i < 20; i++) lines.push(`q${i},${i % 2 ? 'f' : 'm'},${20 + ((i * 7) % 40)},${150 + ((i * 11) % 45)},${60 + i / 10}`);
    const opened = await openFiles({ 'people.csv': lines.join('\n') + '\n' });
    try {
      const found = await mixedOrGridMeasures(opened.context.profile, opened.context.semantics, opened.context.sql);
      assert.deepEqual(found, []);
      assert.ok(measures(opened.context, opened.context.profile.tables[0]).some((c) => c.name === 'weight'));
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });
});
