/**
 * Round-7 review faults on the seventh set (motus, corpora, statsmodels, mosaic), read and mended in round 8: names
 * cut short pasted as nouns ("recv deps", "ts start", "their batche", "average invest"), "the value of value", rows
 * counted by the file they came from, compass bearings averaged.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, groupWords, humanize, isCircular, isFileKey, isPictureSize, measures, noun } from '../../src/core/taskpool/families/kit';
import { tablesNamingPhrase } from '../../src/core/taskpool/revise';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, tableOf } from '../support/familyContexts';

describe('task pool: names cut short written out, and what no question counts or averages (the seventh set)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('writes database abbreviations out as words, the end of a span first, and keeps codes and acronyms', () => {
    assert.equal(humanize('recvDeps'), 'receiver deps');
    assert.equal(humanize('projBatch'), 'project batch');
    assert.equal(humanize('tsStart'), 'start timestamp');
    assert.equal(humanize('order_dt'), 'order date');
    assert.equal(humanize('magType'), 'magnitude type');
    assert.equal(humanize('FOD1P'), 'FOD1P');
    // A code alone stays a code: `avg` or `tot` alone say nothing a reader can check.
    assert.equal(humanize('avg'), 'avg');
    assert.equal(noun('batches', 'one'), 'batch');
    assert.equal(noun('boxes', 'one'), 'box');
    assert.equal(noun('caches', 'one'), 'cache');
    assert.equal(noun('movies', 'one'), 'movie');
    assert.equal(humanize('bytes_recv'), 'bytes received');
    // Abbreviations of two meanings stay as written: `curr` (current, currency), `dist` (distance, district).
    assert.equal(humanize('curr_code'), 'curr code');
    assert.equal(humanize('dist_name'), 'dist name');
    assert.equal(humanize('temp_orders'), 'temp orders');
    assert.equal(humanize('max_temp'), 'max temperature');
    assert.equal(noun('recvDeps', 'many'), 'receiver deps');
    assert.equal(tablesNamingPhrase(['recvDeps']), "In the table 'recvDeps', ");
    assert.equal(tablesNamingPhrase(['orders']), 'In the orders table, ');
    // A survey export's question numbers and section letters are no words (round-9 review of the ninth set).
    assert.equal(humanize('B05_memb_age'), 'member age');
    assert.equal(humanize('D12_harvst_amount'), 'harvest amount');
    assert.equal(humanize('D_crops'), 'crops');
    assert.equal(humanize('gps:Altitude'), 'gps altitude');
    // A quarter, a half-year, a percentile, a coordinate and a count keep their letter.
    assert.equal(humanize('Q1_sales'), 'Q1 sales');
    assert.equal(humanize('H2_revenue'), 'H2 revenue');
    assert.equal(humanize('P98_value'), 'P98 value');
    assert.equal(humanize('X_coord'), 'x coord');
    assert.equal(humanize('N_cases'), 'n cases');
    // A name said by an adjective is grouped by that name: "which scientific name", not "which scientific".
    assert.equal(groupWords('scientific name'), 'scientific name');
    assert.equal(groupWords('country name'), 'country');
  });

  it('says "the value", never "the value of value", and writes a short name that stands for one word as that word', async () => {
    const { context, session } = await env('statsmodels-macro-investment');
    assert.equal(columnPhrase(context, 'unemp', columnOf(context, 'unemp', 'value')), 'value');
    assert.equal(columnPhrase(context, 'macrodata', columnOf(context, 'macrodata', 'infl')), 'inflation');
    // `pop` is a population as often as a popularity: it stays as written.
    assert.equal(columnPhrase(context, 'macrodata', columnOf(context, 'macrodata', 'pop')), 'pop');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bvalue of (value|rate)\b/, task.question);
  });

  it('reads a scale after a name as the scale (`market_cap_b`: billions), and takes no picture\'s pixel size as a measure', async () => {
    const sp500 = (await env('datahub-sp500-companies')).context;
    const scatter = sp500.profile.tables.find((t) => t.columns.some((c) => c.name === 'market_cap_b'));
    assert.ok(scatter);
    // (Its descriptor says "Market capitalisation in USD billions": `cap` is spelled as it does.)
    assert.equal(columnPhrase(sp500, scatter.name, columnOf(sp500, scatter.name, 'market_cap_b')), 'market capitalisation (billions)');
    const movies = (await env('wikipedia-movies-json')).context;
    const sized = movies.profile.tables.flatMap((t) => t.columns.filter((c) => /thumbnail_(width|height)/.test(c.name)).map((c) => ({ t, c })));
    assert.ok(sized.length > 0);
    for (const { t, c } of sized) {
      assert.ok(isPictureSize(c), c.name);
      assert.ok(!measures(movies, t).includes(c), `${t.name}.${c.name}`);
    }
  });

  it('takes no angle on a circle as a measure: a bearing averaged or ranked by percentile says nothing', async () => {
    const { context } = await env('motus-wildlife-sqlite');
    const antDeps = tableOf(context, 'antDeps');
    for (const name of ['bearing', 'polarization1']) assert.ok(isCircular(columnOf(context, 'antDeps', name)), name);
    // Polarization 0–90° does not go round.
    assert.ok(!isCircular(columnOf(context, 'antDeps', 'polarization2')));
    // An angle that does not go round (a launch angle of −20…60°) or a machine's bearing temperature is no circle.
    const column = (name: string, min: number, max: number) => ({ name, originalName: name, type: 'real', nullFraction: 0, distinctCount: 50, samples: [], candidateKey: false, min, max }) as unknown as Parameters<typeof isCircular>[0];
    assert.ok(!isCircular(column('launch_angle', -20, 60)));
    assert.ok(isCircular(column('wind_direction', 0, 359)));
    assert.ok(!isPictureSize(column('image_count', 0, 40)));
    assert.ok(isPictureSize(column('thumbnail_width', 50, 320)));
    assert.deepEqual(measures(context, antDeps).filter(isCircular).map((c) => c.name), []);
  });

  it('counts no rows by the file they came from: a partition of lists asks nothing of its file key', async () => {
    const opened = await env('corpora-saints-societies-json');
    const partition = opened.context.semantics.partitions.find((p) => p.view !== undefined);
    assert.ok(partition?.view);
    assert.ok(isFileKey(opened.context, partition.view, partition.key));
    const pool = await buildTaskPool(opened.session.toolContext);
    for (const task of pool.tasks) {
      if (!task.tables.includes(partition.view)) continue;
      assert.doesNotMatch(task.question, new RegExp(`(have|highest number of .*) ${partition.key} '`, 'i'), task.question);
      assert.doesNotMatch(task.question, new RegExp(`take the ${partition.key} with the highest number`, 'i'), task.question);
    }
  });
});
