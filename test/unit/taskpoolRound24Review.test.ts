/**
 * The task pool after reading the pools of the thirty-eighth and thirty-ninth sets (round 24): a statistics office's
 * sheets under different titles are no two sources of one figure; a seasonally adjusted series is computed from its
 * raw twin, and a balance rounded to tens from the flows it nets; a placeholder (`-`) is no value to ask about; a
 * record's file attachments (pictures, their sizes and thumbnails' widths) are no data; the loader's row numbers refer
 * to no other table. Then what the blind review of those pools found: codebook descriptions read into short names, a
 * presence flag by its reading, a climate normal never summed, a total never related to a figure of its kind, no
 * outliers or top decile of a mostly-zero count, "the month before" only where that month is there, a day's map of
 * counts not counted by its entries, a file named in words. (The tests read the data of sets measured blind before
 * these changes.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, derivedPair, flagMark, humanize, quotable, rowsCount, rowsNoun, tablePlace } from '../../src/core/taskpool/families/kit';
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
      assert.doesNotMatch(task.question, /\b(N?SA)\b/, 'NSA and SA said in words');
      if (/'Table \d' sheet/.test(task.question)) assert.match(task.question, /the table in the 'Table \d' sheet \(not the summary rows below it\)/, task.question);
    }
  });

  it("asks nothing of Karuna's picture attachments, and joins no monthly web log to a table by the loader's row numbers", async () => {
    const { context, session } = await env('karuna2020-covid-relief-json');
    const pictures = context.semantics.tables.filter((t) => /pictures$/.test(t.table));
    assert.ok(pictures.length >= 2 && pictures.every((t) => t.metadata), pictures.map((t) => t.table).join(', '));
    assert.ok(!context.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === '_row_id'));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /entries in the '[^']+' entries|browser maps|country maps|\bt_2020_0\d/, task.question);
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

  it('names the sandgrouse columns by their codebook in words, a presence flag by its reading, and sums no climate normal', async () => {
    const { context, session } = await env('valerio-iberian-sandgrouse-csv');
    const phrase = (table: string, name: string) => columnPhrase(context, table, context.profile.tables.find((t) => t.name === table)!.columns.find((c) => c.name === name)!);
    assert.equal(phrase('p_alchata_status', 'np'), 'number of patches', '"Number of patches (NP) of …"');
    assert.equal(phrase('p_orientalis_presence_absence', 'bio12'), 'annual precipitation', '"Bioclimatic variable Bio12: annual precipitation."');
    assert.equal(phrase('p_orientalis_presence_absence', 'glcm_v'), 'variance of NDVI-based GLCM texture');
    assert.equal(phrase('p_orientalis_presence_absence', 'gpp'), 'MODIS gross primary productivity', 'no "; proxy for …"');
    const point = (column: string) => ({ table: 'p_orientalis_presence_absence', column });
    assert.ok(derivedPair(context, point('ndvi'), point('red')), '"Normalized Difference Vegetation Index from RED and NIR"');
    assert.ok(derivedPair(context, point('glcm_v'), point('ndvi')), '"NDVI-based GLCM texture: variance"');
    assert.ok(!derivedPair(context, point('red'), point('nir')));
    assert.ok(!derivedPair(context, point('lst'), point('ndvi')));
    const pa = context.profile.tables.find((t) => t.name === 'p_orientalis_presence_absence')!.columns.find((c) => c.name === 'pa')!;
    assert.equal(flagMark(context, 'p_orientalis_presence_absence', pa, 1), 'marked as presence');
    assert.equal(flagMark(context, 'p_orientalis_presence_absence', pa, 0), 'marked as absence');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /total annual precipitation|bioclimatic variable/i, task.question);
  });

  it("relates no total to a figure of its kind, asks nothing of a mostly-zero count's outliers, and names a file in words", async () => {
    const lighthouse = await env('lighthouse-vaccinating-undocumented-csv');
    const main = lighthouse.context.profile.tables.find((t) => t.name === 'main_data')!;
    const named = (n: string) => main.columns.find((c) => c.originalName === n)!.name;
    assert.ok(derivedPair(lighthouse.context, { table: main.name, column: named('Total Score') }, { table: main.name, column: named('Undocumented Access') }));
    assert.ok(!derivedPair(lighthouse.context, { table: main.name, column: named('Undocumented Access') }, { table: main.name, column: named('Marginalized Access') }));
    const documents = lighthouse.context.profile.tables.find((t) => t.name === 'list_of_documents_used_for_national_scorecards')!;
    assert.equal(tablePlace(lighthouse.context, documents), 'the list of documents used for national scorecards');
    const nowcasts = await env('reichlab-variant-nowcasts-parquet');
    const pool = await buildTaskPool(nowcasts.session.toolContext);
    for (const task of pool.tasks) assert.ok(!['outlier', 'distribution-subset'].includes(task.family) || !/oracle value|observation/.test(task.question), task.question);
  });

  it("compares a month only with the month before it, and counts no entries of a day's map of counts", async () => {
    const zurich = await env('openzh-ogd-web-analytics-partitions');
    const pool = await buildTaskPool(zurich.session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /over the month before/, `${task.question} (October 2020 is missing)`);
    const karuna = await env('karuna2020-covid-relief-json');
    const statuses = karuna.context.profile.tables.find((t) => t.name === 't_2020_04_sum_response_status_map')!;
    assert.equal(rowsCount(karuna.context, statuses), false, 'each entry is a tally of requests');
  });

  it("calls Spearfish's rows permits, after the number each has, and its cost approximate an approximate cost", async () => {
    const { context } = await env('spearfish-building-permits-csv');
    const view = context.profile.tables.find((t) => t.kind === 'view')!;
    assert.equal(rowsNoun(context, view), 'permits', 'permit_number: 355 numbers over 356 rows');
    assert.equal(columnPhrase(context, view.name, view.columns.find((c) => c.name === 'cost_approximate')!), 'approximate cost');
    assert.equal(humanize('budget_revised'), 'budget revised', 'humanize keeps the order; the phrase puts the adjective first');
    // (…but a number written short, Oxford's `Trans No`, names no rows: "trans" is an abbreviation.)
    const oxford = await env('oxford-council-expenditure-partitions');
    const payments = oxford.context.profile.tables.find((t) => t.kind === 'view')!;
    assert.notEqual(rowsNoun(oxford.context, payments), 'trans');
  });

  it('groups no citing case by the page it starts on', async () => {
    const { session } = await env('cap-caselaw-dc-cases-json');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 2, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /first page/, task.question);
  });
});
