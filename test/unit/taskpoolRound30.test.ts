/**
 * The task pool after a blind review of the forty-fifth set's pools (round 30, r30a): a quantity in each row's own
 * physical unit (EIA's `total_fuel_consumption_quantity` beside `fuel_unit`: barrels, mcf, short tons) is neither
 * summed nor averaged nor correlated, its `_mmbtu` twin is, written "(MMBtu)"; a value and its corrected version, equal
 * on many rows, are not correlated; isotope ratios keep their notation (δ13C, δ15N); a filter is never a value that
 * says "not determined" (`ND`), nor a rate of an outcome most rows do not know; a per-mil delta is compared in per mil,
 * not in percent; a record's words keyed by a three-letter language code are named by the record
 * ("vernacular names", not "engs"); media are files; genera are genera; a parent named by its one name or title is
 * named so ("the team 'FC RB Salzburg'", not "the team whose title is …"); a person named by a column `classified_by` is
 * a classifier; entries every record holds as many of are not counted. (The tests read the data of the forty-fifth
 * set and of sport.db.)
 */
import * as assert from 'node:assert/strict';
import { humanize, inRowUnits, measures, noun, saysNotKnown } from '../../src/core/taskpool/families/kit';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { ColumnProfile, TableProfile } from '../../src/core/env/types';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the blind review of the round-30 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('asks nothing of EIA\'s quantities in physical units, and names its MMBtu figures so', async () => {
    const { context, session } = await env('eia923-puerto-rico-generation-parquet');
    const names = measures(context, tableOf(context, 'pr_gen_fuel_annual')).map((c) => c.name);
    assert.ok(!names.includes('total_fuel_consumption_quantity') && !names.includes('electric_fuel_consumption_quantity'), names.join(', '));
    assert.ok(names.includes('total_fuel_consumption_mmbtu') && names.includes('total_net_generation_mwh'), names.join(', '));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) {
      assert.doesNotMatch(task.question, /consumption quantity|physical units/i, task.question);
      assert.doesNotMatch(task.question, /\bmmbtu\b/, task.question);
    }
    assert.ok(pool.tasks.some((t) => /\(MMBtu\)/.test(t.question)), 'some question names a figure in MMBtu');
  });

  it('keeps the isotopes\' notation, correlates no value with its corrected version, and filters on no "not determined"', async () => {
    const { session } = await env('iys-goa2019-stable-isotopes-xlsx');
    const pool = await buildTaskPool(session.toolContext);
    const all = [...pool.tasks, ...pool.unselected];
    assert.ok(all.some((t) => /δ13C|δ15N/.test(t.question)), 'isotope ratios are asked about');
    for (const task of all) {
      assert.doesNotMatch(task.question, /ẟ|13craw|15n\b/, task.question);
      assert.doesNotMatch(task.question, /δ13C raw.*δ13C lipid corrected|δ13C lipid corrected.*δ13C raw/, `${task.question}: a value and its corrected version`);
      assert.doesNotMatch(task.question, /'ND'|sex 'Male'|sex 'Female'/, `${task.question}: most specimens' sex is not determined`);
      assert.doesNotMatch(task.question, /By what percentage is their average δ/, `${task.question}: a per-mil delta has no true zero`);
      assert.doesNotMatch(task.question, /genuses/, task.question);
      assert.deepEqual(lintQuestion(task.question), [], task.question);
    }
  });

  it('names Camtrap DP\'s vernacular names and media files as such', async () => {
    const { session } = await env('tdwg-camtrap-mica-csv');
    const pool = await buildTaskPool(session.toolContext);
    const all = [...pool.tasks, ...pool.unselected];
    for (const task of all) assert.doesNotMatch(task.question, /\bengs?\b|\bmedias\b/, task.question);
    assert.ok(all.some((t) => /vernacular names/.test(t.question)), 'the English vernacular names group the observations');
  });

  it('names sport.db\'s teams and countries by their titles, not "whose title is"', async () => {
    const { session } = await env('opensport-sportdb-football-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    const all = [...pool.tasks, ...pool.unselected];
    for (const task of all) assert.doesNotMatch(task.question, /whose title is/, task.question);
    assert.ok(all.some((t) => /belong to the (team|country|event) '/.test(t.question)), all.map((t) => t.question).join('\n'));
  });

  it('counts no nested entries that every record holds as many of (a STAC item\'s three JSON links), and names Camtrap DP\'s classifier', async () => {
    const { session } = await env('planetarycomputer-naip-stac-items-ndjson');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(task.question, /application\/json/, task.question);
    const camtrap = await env('tdwg-camtrap-mica-csv');
    const tasks = (await buildTaskPool(camtrap.session.toolContext)).tasks;
    for (const task of tasks) assert.doesNotMatch(task.question, /classified by/, task.question);
  });

  it('words the names and values it met: isotopes, media, genera, "not determined", a unit column', () => {
    assert.equal(humanize('ẟ13CRAW'), 'δ13C raw');
    assert.equal(humanize('ẟ13Clipid_corrected'), 'δ13C lipid corrected');
    assert.equal(humanize('δ37Cl'), 'δ37Cl');
    assert.equal(humanize('delta_t'), 'delta t', 'a word, no isotope');
    assert.equal(noun('media', 'many'), 'media files');
    assert.equal(noun('media', 1), 'media file');
    assert.equal(noun('genus', 'many'), 'genera');
    assert.equal(noun('genera', 1), 'genus');
    for (const v of ['ND', 'Unknown', 'not determined', 'U']) assert.ok(saysNotKnown(v), v);
    for (const v of ['NDVI', 'North Dakota', 'Male', 0]) assert.ok(!saysNotKnown(v), String(v));
    const col = (name: string, type: ColumnProfile['type'], distinctCount: number): ColumnProfile => ({ name, originalName: name, type, distinctCount, nullFraction: 0, samples: [] }) as unknown as ColumnProfile;
    const table = { name: 'fuel', rowCount: 100, columns: [col('fuel_unit', 'text', 4), col('fuel_quantity', 'real', 80), col('fuel_mmbtu', 'real', 90), col('plants', 'integer', 30)] } as unknown as TableProfile;
    assert.ok(inRowUnits(table, table.columns[1]), 'a quantity beside the unit column');
    assert.ok(!inRowUnits(table, table.columns[2]), 'in MMBtu on every row');
    assert.ok(!inRowUnits(table, table.columns[3]), 'a count of plants');
  });
});
