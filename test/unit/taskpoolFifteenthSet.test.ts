/**
 * The task pool on the fifteenth set's lessons: a price whose unit is given per row (per pound, per 46 kg, per litre)
 * takes no statistic across units; a drill-down ends by comparing the leader's share in the top segment with its
 * share everywhere; headers written in capitals read as words.
 */
import * as assert from 'node:assert/strict';
import { humanize, measures, unitsPerRow } from '../../src/core/taskpool/families/kit';
import { partScales } from '../../src/core/taskpool/partScales';
import { repetitionKey } from '../../src/core/taskpool/repetition';
import { drillDownFamily } from '../../src/core/taskpool/families/drillDown';
import { columnOf, environments, openFiles, tableOf } from '../support/familyContexts';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { tableLabel } from '../../src/core/taskpool/revise';

describe('task pool: units per row, drill-downs against the whole, words in capitals (the fifteenth set)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('takes no statistic of WFP food prices across their units (pound, 46 kg, litre…)', async () => {
    const { context } = await env('wfp-food-prices-csv');
    const prices = tableOf(context, 'wfp_food_prices_nic');
    assert.equal(unitsPerRow(prices, columnOf(context, 'wfp_food_prices_nic', 'price'))?.name, 'unit');
    assert.deepEqual(measures(context, prices).map((c) => c.name), []);
  });

  it('keeps the measures of a table whose `unit` column names no units (an army unit), and those of a table in one unit', async () => {
    const lines = ['unit,budget'];
    const units = ['1st Battalion', '2nd Battalion', 'Signals Company', 'Field Hospital'];
    for (let i = 0; i < 40; i++) lines.push([units[i % 4], (2000 + ((i * 53) % 700)).toFixed(2)].join(','));
    const market = ['commodity,unit,price'];
    for (let i = 0; i < 40; i++) market.push([['Rice', 'Beans', 'Maize'][i % 3], 'KG', (1 + ((i * 7) % 13) / 10).toFixed(2)].join(','));
    const opened = await openFiles({ 'units.csv': lines.join('\n') + '\n', 'market.csv': market.join('\n') + '\n' });
    try {
      const { context } = opened;
      assert.equal(unitsPerRow(tableOf(context, 'units'), columnOf(context, 'units', 'budget')), undefined);
      assert.ok(measures(context, tableOf(context, 'units')).some((c) => c.name === 'budget'));
      assert.deepEqual(measures(context, tableOf(context, 'market')).map((c) => c.name), ['price'], 'one unit throughout: nothing mixed');
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });

  it('drills down to the leader of the top segment, then compares its share there with its share everywhere', async () => {
    const lines = ['region,channel,sales'];
    // The North sells most; within it, Online leads with far more than its share elsewhere.
    for (let i = 0; i < 60; i++) lines.push(['North', i % 4 === 0 ? 'Store' : 'Online', 100 + (i % 7)].join(','));
    for (let i = 0; i < 40; i++) lines.push(['South', i % 3 === 0 ? 'Online' : 'Store', 90 + (i % 5)].join(','));
    for (let i = 0; i < 30; i++) lines.push(['West', i % 2 === 0 ? 'Online' : 'Phone', 80 + (i % 3)].join(','));
    const opened = await openFiles({ 'sales.csv': lines.join('\n') + '\n' });
    try {
      const tasks = await drillDownFamily.generate(opened.context);
      const task = tasks.find((t) => t.evidence.length === 5);
      assert.ok(task, tasks.map((t) => t.question).join('\n'));
      assert.match(task.question, /share across all regions/);
      const [, , within, overall, gap] = task.evidence.map((s) => s.subAnswer?.key);
      assert.ok(within?.type === 'number' && overall?.type === 'number' && gap?.type === 'number');
      assert.ok(Math.abs(gap.value - (within.value - overall.value)) < 0.011, `${gap.value} = ${within.value} − ${overall.value}`);
      assert.equal(task.answer.type === 'number' && task.answer.value, gap.value);
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });

  it('pools no measure over a partition view whose files are different reservoirs, of whatever scale', async () => {
    const files: Record<string, string> = {};
    const sizes: Record<string, number> = { small: 50, mid: 900, large: 2000 };
    for (const [name, size] of Object.entries(sizes)) {
      const lines = ['date,storage,outflow'];
      for (let d = 1; d <= 28; d++) lines.push([`2020-02-${String(d).padStart(2, '0')}`, (size * (1 + (d % 5) / 20)).toFixed(1), (10 + ((d * 7) % 9) + size / 500).toFixed(2)].join(','));
      files[`reservoir_${name}.csv`] = lines.join('\n') + '\n';
    }
    const opened = await openFiles(files);
    try {
      const { context, session } = opened;
      const partition = context.semantics.partitions.find((p) => p.view);
      assert.ok(partition?.view, JSON.stringify(context.semantics.partitions));
      const scales = await partScales(context.profile, context.semantics, session.toolContext.sql);
      // Files of three reservoirs are three series: none of their measures is pooled over the view's rows, outflows of
      // like scale included (round 17: pooled, a correlation is between the series as much as within).
      assert.deepEqual(scales.map((s) => s.column).sort(), ['outflow', 'storage']);
      assert.match(scales.find((s) => s.column === 'storage')!.why, /^its files are 3 different reservoirs \(averages 5\d(\.\d+)? at small to 2,\d{3} at large\): pooled, its rows mix them$/);
      const withScales = { ...context, partScales: new Map(scales.map((s) => [repetitionKey(s.view, s.column), s.why])) };
      const view = tableOf(context, partition.view);
      assert.deepEqual(measures(withScales, view).map((c) => c.name), []);
      assert.ok(measures(withScales, view, { perPart: true }).some((c) => c.name === 'storage'), 'compared file by file');
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });

  it('never names the keys the loader made for nested JSON arrays, and calls a nested array by the name the file gives it', async () => {
    const { context, session } = await env('datacarpentry-safi-json');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(task.question, /\brow ids?\b|parent row|_row_id/i, task.question);
    const nested = context.profile.tables.find((t) => t.parent && t.originalName === 'F_items');
    assert.ok(nested);
    assert.equal(tableLabel(nested.name, context.profile), "the 'F_items' entries in SAFI.json");
  });

  it('reads headers written in capitals as the words they are, keeps acronyms, and says a JSON key under name or id as a kind of name or id', () => {
    assert.equal(humanize('STATE'), 'state');
    assert.equal(humanize('PARTY'), 'party');
    assert.equal(humanize('TOTAL VOTES'), 'total votes');
    assert.equal(humanize('GDP'), 'GDP');
    assert.equal(humanize('FTHG'), 'FTHG');
    assert.equal(humanize('NASA'), 'NASA');
    // Flattened JSON keys under a record's name or id object.
    assert.equal(humanize('name.last'), 'last name');
    assert.equal(humanize('id.bioguide'), 'bioguide ID');
    assert.equal(humanize('address.city'), 'address city');
  });
});
