/**
 * The task pool on the lessons of round 15's blind question reviews (the twentieth and twenty-first sets): rows named
 * as their data names them (a key the dictionary calls "School number" makes them schools; a wide sheet's rows are its
 * one-per-row label), columns phrased as an analyst writes them ("GDP per capita in 1952", "deaths of workers"), and
 * no question on a meaningless pair: two tables' row numbers, a segment inside one sub-segment, a figure in mixed
 * units, the bounds of an interval, one series in two years.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, derivedPair, humanize, measures, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, openFiles, tableOf } from '../support/familyContexts';

describe('task pool: rows and columns named as their data names them (round 15 reviews)', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('calls the California samples\' rows schools, as the help page calls their key ("School number"), not apistrats', async () => {
    const { context } = await env('survey-ca-schools-api-sqlite');
    for (const table of ['apistrat', 'apiclus2']) assert.equal(rowsNoun(context, tableOf(context, table), 'many'), 'schools', table);
  });

  it('reads the RMP accident file by its name, not its folder, its deaths as deaths of workers, and groups nothing by a unit code', async () => {
    const { context, session } = await env('dataliberation-rmp-accidents-csv');
    const accidents = tableOf(context, 'output_accidents');
    assert.equal(rowsNoun(context, accidents, 'many'), 'accidents');
    assert.equal(columnPhrase(context, 'output_accidents', columnOf(context, 'output_accidents', 'deaths_workers')), 'deaths of workers');
    // Wind speeds in mph and in knots (a unit code per row) pool into nothing.
    assert.ok(!measures(context, accidents).some((c) => c.name === 'wind_speed'), 'wind_speed is in several units');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /wind speed unit|output accidents/i, task.question);
  });

  it('reads the Casco Bay sheets: communities are the rows, a year\'s column is what the sheet holds that year', async () => {
    const { context } = await env('cbep-maine-cso-xlsx');
    const events = tableOf(context, 't_2019_report_data_events_2019');
    assert.equal(rowsNoun(context, events, 'many'), 'communities');
    assert.equal(columnPhrase(context, events.name, columnOf(context, events.name, 't_1988')), 'number of events in 1988');
  });

  it('reads Gapminder\'s wide files: countries, "GDP per capita in 1952", files by continent, and no correlation of one series with itself a year later', async () => {
    const { context } = await env('swcarpentry-gapminder-gdp-partitions');
    const view = context.semantics.partitions[0];
    assert.equal(view.key, 'continent');
    const all = tableOf(context, view.view!);
    assert.equal(rowsNoun(context, all, 'many'), 'countries');
    assert.equal(columnPhrase(context, all.name, columnOf(context, all.name, 'gdp_percap_1952')), 'GDP per capita in 1952');
    assert.ok(derivedPair(context, { table: all.name, column: 'gdp_percap_1967' }, { table: all.name, column: 'gdp_percap_1972' }));
  });

  it('asks the World Cup tables nothing joined on two tables\' row numbers, and no drill-down into one tournament\'s only match', async () => {
    const { context, session } = await env('fjelstul-worldcup-csv');
    assert.ok(!context.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === 'key_id'), 'key_id numbers rows; it joins nothing');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.ok(!JSON.stringify(task.program ?? {}).includes('"key_id" = '), `joined on key_id: ${task.question}`);
      assert.doesNotMatch(task.question, /as team id|team name with the highest|Take the match with the highest .* leading tournament/i, task.question);
    }
  });

  it('takes no genomic start or end as a measure', async () => {
    const { context } = await env('bioc-hg19-knowngene-txdb-sqlite');
    const names = measures(context, tableOf(context, 'transcript')).map((c) => c.name);
    assert.ok(!names.includes('tx_start') && !names.includes('tx_end'), names.join(', '));
  });
});

describe('task pool: round 15\'s phrasing stays off its look-alikes', function () {
  this.timeout(120_000);

  it('keeps a plural acronym, a count named plainly, and a figure with one unit', async () => {
    assert.equal(humanize('OIAs_Published'), 'OIAs published');
    const lines = ['deaths,wind_speed,speed_unit,region'];
    for (let i = 0; i < 30; i++) lines.push([i % 7, 10 + ((i * 13) % 40), 'mph', ['North', 'South', 'East'][i % 3]].join(','));
    const opened = await openFiles({ 'storms.csv': lines.join('\n') + '\n' });
    try {
      const { context } = opened;
      assert.equal(columnPhrase(context, 'storms', columnOf(context, 'storms', 'deaths')), 'deaths');
      // `speed_unit` is no unit column of `wind_speed` (its name is not wind_speed's) and has one value.
      assert.ok(measures(context, tableOf(context, 'storms')).some((c) => c.name === 'wind_speed'));
    } finally {
      await opened.session.dispose();
    }
  });
});
