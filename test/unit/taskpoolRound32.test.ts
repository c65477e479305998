/**
 * The task pool after a blind review of the forty-seventh set's pools (round 32, r32a): rows named by what they are,
 * not by their file, sheet or table (`gene_table` holds genes; `sample.jsonl` apps keyed `appid`; `nest_success`
 * nests; a file of each country at each month's end country-months); a region's total run into one word (`EurTotal`,
 * `ForeignAll`) left out beside the countries it totals; a measure with a code for a value not known (`-9` among
 * distances) asked nothing of; and a description in another language never used as a column's English name.
 * (The tests read the data of the forty-seventh set.)
 */
import * as assert from 'node:assert/strict';
import { englishWords, measures, things, writtenOut } from '../../src/core/taskpool/families/kit';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the blind review of the round-32 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('names rows by what they are: genes, interactions, complexes, apps, nests, country-months', async () => {
    const cpdb = (await env('cellphonedb-ligand-receptor-sqlite')).context;
    assert.equal(things(cpdb, tableOf(cpdb, 'gene_table'), 'many'), 'genes');
    assert.equal(things(cpdb, tableOf(cpdb, 'interaction_table'), 'many'), 'interactions');
    assert.equal(things(cpdb, tableOf(cpdb, 'complex_table'), 'many'), 'complexes', 'its `comments_complex` is no count of complexes');
    assert.equal(things(cpdb, tableOf(cpdb, 'multidata_table'), 'one'), 'multidata record', 'no "multidatas"');
    const steam = (await env('crawlora-steam-catalog-jsonl')).context;
    assert.equal(things(steam, tableOf(steam, 'sample'), 'many'), 'apps', '`appid`, one per row');
    const birds = (await env('weecology-everglades-wading-birds-csv')).context;
    assert.equal(things(birds, tableOf(birds, 'nest_success'), 'many'), 'nests', '`nest_number` on each row');
    const frb = (await env('frb-cross-border-securities-positions-csv')).context;
    assert.equal(things(frb, tableOf(frb, 'bertaut_judson_positions_liabs_2021'), 'many'), 'country-months');
    assert.equal(things(frb, tableOf(frb, 'bertaut_judson_positions_liabs_2021'), 'one'), 'country-month');
  });

  it('leaves the Federal Reserve\'s regional totals out beside the countries, and says so', async () => {
    const { context, session } = await env('frb-cross-border-securities-positions-csv');
    const totals = (context.semantics.totalRows ?? []).find((t) => t.column === 'country_name');
    for (const label of ['Total', 'EurTotal', 'AsiaTotal', 'ForeignAll', 'FOI_All_Countries', 'LATotal']) assert.ok(totals?.values.includes(label), `${label} in ${totals?.values.join(', ')}`);
    for (const country of ['Belgium', 'Japan', 'UK', 'Cayman']) assert.ok(!totals?.values.includes(country), country);
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) {
      assert.match(task.question, /Leave out the rows whose country name is .*'EurTotal'/, task.question);
      assert.doesNotMatch(task.question, /bertaut_judson/, task.question);
      assert.deepEqual(lintQuestion(task.question), [], task.question);
    }
  });

  it('asks nothing of a distance written -9 where not known, and never names a column by its Swedish description', async () => {
    const { context, session } = await env('slu-sers-electrofishing-sites-xlsx');
    const t = tableOf(context, 'lista_elfiskelokaler_svenskt_elfiskeregister_220503_lokaluppgifter_elfiskelokaler');
    const names = measures(context, t).map((c) => c.name);
    for (const name of ['avstupp', 'avstner']) {
      assert.ok(!names.includes(name), `${name} in ${names.join(', ')}`);
      const codes = context.semantics.columns.find((c) => c.table === t.name && c.column === name)?.missingCodes;
      assert.deepEqual(codes?.map((m) => m.value), [-9]);
      assert.ok(codes![0].rows > 0);
    }
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) {
      assert.ok(englishWords(task.question), task.question);
      assert.doesNotMatch(task.question, /\b(avstupp|avstner|ykoorvdr|ykoorlok|xkoorlok)\b/i, task.question);
    }
  });

  it('groups by no column that packs sets of sources in one cell (I2D, IMEx,IntAct, I2D,IMEx,InnateDB-All)', async () => {
    const { session } = await env('cellphonedb-ligand-receptor-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(task.question, /annotation strateg/i, task.question);
    assert.ok(pool.ungrouped.some((u) => u.table === 'interaction_table' && u.column === 'annotation_strategy' && /pack several/.test(u.why)), JSON.stringify(pool.ungrouped));
  });

  it('writes out a statistics office\'s abbreviations and a bound after its figure', function () {
    assert.deepEqual(writtenOut(['agcy', 'adj', 'net', 'flow']), ['agency', 'adjusted', 'net', 'flow']);
    assert.deepEqual(writtenOut(['owners', 'min']), ['minimum', 'owners']);
    assert.deepEqual(writtenOut(['temp', 'max']), ['maximum', 'temperature']);
  });

  it('reads English as English and Swedish, German or Spanish as not', function () {
    assert.equal(englishWords('height above sea level in metres'), true);
    assert.equal(englishWords('Höjd över havet i meter'), false);
    assert.equal(englishWords('Anzahl der Züge pro Tag'), false);
    assert.equal(englishWords('número de trenes del día'), false);
  });
});
