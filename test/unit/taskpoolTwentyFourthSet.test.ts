/**
 * The task pool on the twenty-fourth set, read in round 16: a workbook that stores its figures as text still gets
 * tasks, a project-wide codebook is no task table, a salary on rows of occupations and regions is never summed, a
 * wide table's `year_2012` is what the table holds in 2012, `NA` is no value to filter by, and two measures of one
 * fish's length are no correlation.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, derivedPair, quotable, rowsNoun, spelledFrom, taskTables } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, tableOf } from '../support/familyContexts';

describe('task pool: the twenty-fourth set (round 16)', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('asks the Norwegian food table about its nutrients, which the workbook stores as text', async () => {
    const { context, session } = await env('matvaretabellen-2024-xlsx');
    const foods = context.profile.tables.find((t) => t.originalName === 'Matvarer')!;
    assert.equal(foods.columns.find((c) => c.name === 'fett_g')?.type, 'real');
    // A code with a leading zero stays text.
    assert.equal(foods.columns.find((c) => c.name === 'matvare_id')?.type, 'text');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    assert.ok(pool.tasks.some((t) => /fett \(g\)|vann \(g\)/i.test(t.question)), pool.tasks.map((t) => t.question).join('\n'));
  });

  it('asks nothing of the salmon program\'s data dictionary, and does not correlate a fish\'s standard length with its fork length', async () => {
    const { context, session } = await env('hakai-juvenile-salmon-csv');
    assert.ok(!taskTables(context).some((t) => t.name === 'data_dictionary'));
    assert.ok(derivedPair(context, { table: 'fish_lab_data', column: 'standard_length' }, { table: 'fish_lab_data', column: 'fork_length' }));
    assert.ok(!derivedPair(context, { table: 'ysi', column: 'temperature_1m' }, { table: 'ysi', column: 'salinity_1m' }));
    const pool = await buildTaskPool(session.toolContext);
    // A tide state written 'NA' on most surveys groups nothing: every known state would look over-represented.
    assert.ok(pool.ungrouped.some((u) => u.table === 'survey_data' && u.column === 'tide_state'), JSON.stringify(pool.ungrouped));
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /data_dictionary|is 'NA'|\bprecip\b|tide state/, task.question);
      assert.doesNotMatch(task.question, /"y" = young/i, task.question);
      // No precipitation leads within a zone when 'none' is 701 of 782 surveys: it leads everywhere.
      assert.doesNotMatch(task.question, /the precipitation that has the most/, task.question);
      // 350 of the 357 'irregular' dissections have no lice collection protocol: no rate by protocol.
      assert.doesNotMatch(task.question, /lice collection protocol has the highest share/, task.question);
    }
  });

  it('never sums the advertised salaries of occupations by region, and reads `year_2012` as the employment the table holds', async () => {
    const { context, session } = await env('burningglass-uk-jobs-csv');
    assert.equal(columnPhrase(context, 'historical_employment', columnOf(context, 'historical_employment', 'year_2012')), 'historical employment in 2012');
    assert.equal(tableOf(context, 'occupation_data').name, 'occupation_data');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /total reg salary|average year in/i, task.question);
  });

  it('keeps the Burning Glass occupations at one level of geography (LEPplus), as the levels overlap, and says so', async () => {
    const { context, session } = await env('burningglass-uk-jobs-csv');
    const levels = context.semantics.totalRows?.find((t) => t.table === 'occupation_data' && t.evidence === 'other-levels');
    assert.ok(levels, JSON.stringify(context.semantics.totalRows));
    assert.equal(levels.column, 'geography_type');
    assert.equal(levels.keep, 'LEPplus');
    assert.deepEqual([...levels.values].sort(), ['Country', 'Nation', 'Region']);
    const pool = await buildTaskPool(session.toolContext);
    const onOccupations = pool.tasks.filter((t) => t.tables.includes('occupation_data'));
    assert.ok(onOccupations.length > 0);
    for (const task of onOccupations) {
      assert.match(task.question, /Keep only the rows whose geography type is 'LEPplus'/, task.question);
      // 'UK Total' is at the Country level, left out with it: no second sentence for it.
      assert.doesNotMatch(task.question, /UK Total/, task.question);
    }
  });

  it('leaves out the OIA statistics\' sector subtotals (agency type NA, each the sum of its sector\'s agencies at the period end)', async () => {
    const { context, session } = await env('nzpsc-oia-statistics-xlsx');
    const subtotals = context.semantics.totalRows?.find((t) => t.column === 'agency_type');
    assert.ok(subtotals, JSON.stringify(context.semantics.totalRows));
    assert.deepEqual(subtotals.values, ['NA']);
    assert.equal(subtotals.rows, 96);
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) assert.match(task.question, /Leave out the rows whose agency type is 'NA', which total other rows\./, task.question);
  });

  it('names the rows as the data does: counties (a name beside a five-digit FIPS), surveys and fish (the dictionary\'s "ID assigned to each survey"), no "cresses", no "matvarers"', async () => {
    const nc = (await env('sf-nc-sids-sqlite')).context;
    assert.equal(rowsNoun(nc, nc.profile.tables.find((t) => t.name === 'nc_sqlite')!, 'many'), 'counties');
    const salmon = (await env('hakai-juvenile-salmon-csv')).context;
    assert.equal(rowsNoun(salmon, salmon.profile.tables.find((t) => t.name === 'survey_data')!, 'many'), 'surveys');
    // The field records are the fish ("ID assigned to each fish"); the lab records' key is described as no one's ID.
    assert.equal(rowsNoun(salmon, salmon.profile.tables.find((t) => t.name === 'fish_field_data')!, 'many'), 'fish');
    assert.equal(rowsNoun(salmon, salmon.profile.tables.find((t) => t.name === 'fish_lab_data')!, 'many'), 'rows');
    const food = (await env('matvaretabellen-2024-xlsx')).context;
    for (const t of food.profile.tables) assert.doesNotMatch(rowsNoun(food, t, 'many'), /matvare/, t.name);
  });

  it('asks NOAA\'s six stations no pooled trend, growth or z-score over months and years they do not all report, and no "25 days" of monthly records', async () => {
    const { session } = await env('noaa-gsom-cities-partitions');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) {
      assert.ok(!['stats-trend', 'stats-growth', 'stats-zscore', 'stats-moving-average'].includes(task.family), `${task.family}: ${task.question}`);
      assert.doesNotMatch(task.question, /at least 25 days/, task.question);
      // The README writes DSND's and DSNW's line alike ("Number days with snow depth >= 25 millimeters"): named by their codes, they stay two.
      assert.doesNotMatch(task.question, /number days with snow depth/i, task.question);
    }
  });

  it('asks no z-score of the rows per region of a complete region × occupation grid (13 regions of 52 rows, one of 51)', async () => {
    const { session } = await env('burningglass-uk-jobs-csv');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /number of rows in full_time_percent\.csv for each nation region/, task.question);
  });

  it('groups the sludge samples by no household answer written NA on many households, reached through a key or not (chemicals: 19 of 41 NA)', async () => {
    const { session } = await env('openwashdata-fecal-sludge-csv');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /chemicals/, task.question);
  });

  it('spells a name\'s short words as its own description does (Burning Glass\'s dictionary), and leaves words alone', async () => {
    assert.deepEqual(spelledFrom('Location Quotient - Measure of Job Posting Density relative to employment', ['lq']), ['location', 'quotient']);
    assert.deepEqual(spelledFrom('Geography-specific  Job Postings asking for entry-level (2 years of experience or fewer) and Higher education levels in 2015', ['demand', 'entry', 'he']), ['demand', 'entry', 'higher', 'education']);
    assert.deepEqual(spelledFrom('Regional Advertised Salaries for Job Postings in 2015', ['reg', 'salary']), ['regional', 'salary']);
    assert.deepEqual(spelledFrom('Name of the site, as named on nautical charts', ['site', 'name']), ['site', 'name']);
    assert.deepEqual(spelledFrom(undefined, ['lq']), ['lq']);
    const { context } = await env('burningglass-uk-jobs-csv');
    assert.equal(columnPhrase(context, 'occupation_data', columnOf(context, 'occupation_data', 'lq')), 'location quotient');
  });

  it('calls no XrayDB rows after the sources its documents cite (Chantler, Waasmaier, Keski-Rahkonen and Krause)', async () => {
    const { context } = await env('xraydb-xray-reference-sqlite');
    for (const name of ['Chantler', 'Waasmaier', 'KeskiRahkonen_Krause']) {
      const table = context.profile.tables.find((t) => t.originalName === name)!;
      assert.equal(rowsNoun(context, table, 'many'), 'rows', name);
    }
    assert.equal(rowsNoun(context, tableOf(context, 'elements'), 'many'), 'elements');
  });

  it('names Electron\'s npm package by its name, not by a description that opens with "for"', async () => {
    const { session } = await env('electron-releases-json');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /for packages published to npm/, task.question);
  });

  it('quotes no "not known" mark as a value', () => {
    for (const mark of ['NA', 'N/A', 'null', 'NaN']) assert.equal(quotable(mark), false, mark);
    for (const value of ['None', 'Na', 'Y', 'Okisollo Channel']) assert.equal(quotable(value), true, value);
  });
});
