/**
 * The task pool on the forty-eighth set (round 33): a survey's columns named by its codebook ("racial/ethnic cohort
 * from screener" for `R0214700`), never grouped by an answer whose values hold the codebook's codes for no answer
 * (-4 valid skip, -5 non-interview); earthquakes dated by a day's part beside the year are events, not country-years;
 * a JSON key of three letters that is no word (`int`) names no rows, a list of places recurring across records holds
 * entries, not places, and a name of clipped parts nothing spells out (`en_ttl`) is quoted; a survey's ratings are
 * averaged by group once the codes its codebook gives for no answer are left out (clean, then aggregate).
 * (The tests read the data of the forty-eighth set.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, groupings, things } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: the forty-eighth set', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('names a survey\'s columns by its codebook and groups by no answer holding codes for no answer', async () => {
    const { context, session } = await env('bls-nlsy79-risk-attitudes-csv');
    const t = tableOf(context, 'nlsy79_supplement');
    const column = (name: string) => t.columns.find((c) => c.name === name)!;
    assert.equal(columnPhrase(context, t.name, column('r0214700')), "racial/ethnic cohort from screener");
    assert.equal(columnPhrase(context, t.name, column('t4093500')), 'respondent interviewed in 2010');
    const names = groupings(context, t).map((c) => c.name);
    assert.ok(names.includes('r0214700') && names.includes('r0214800'), names.join(', '));
    assert.ok(!names.includes('t4093500'), 'its -4 and -5 are no answers');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /t4093500|'respondent interviewed/, task.question);
    // Ratings of 0 to 10 averaged by group once the codebook's -1 … -5 are left out, each step checked by hand here.
    const coded = [...pool.tasks, ...pool.unselected].filter((t) => t.program?.composition === 'clean-aggregate');
    assert.ok(coded.length >= 1, 'a clean-then-aggregate task over the coded answers');
    for (const task of coded) {
      assert.equal(task.evidence.length, 3);
      assert.deepEqual(task.documents?.map((d) => d.document), ['NLSY79_supplement.cdb']);
      assert.match(task.question, /\(-1, -2, -4, -5\)/);
      const measure = String((task.evidence[0].code.match(/c\."(\w+)" IN/) ?? [])[1]);
      const group = String((task.evidence[1].code.match(/SELECT c\."(\w+)"/) ?? [])[1]);
      const rows = (sql: string) => session.toolContext.sql.run(sql).then((r) => r.rows ?? []);
      const noAnswer = await rows(`SELECT COUNT(*) FROM nlsy79_supplement WHERE "${measure}" < 0`);
      assert.equal(task.evidence[0].subAnswer?.key.type === 'number' && task.evidence[0].subAnswer.key.value, Number(noAnswer[0][0]), 'every negative value is a code for no answer');
      const byGroup = await rows(`SELECT "${group}", AVG("${measure}") FROM nlsy79_supplement WHERE "${measure}" >= 0 GROUP BY 1 ORDER BY 2 DESC`);
      const all = await rows(`SELECT AVG("${measure}") FROM nlsy79_supplement WHERE "${measure}" >= 0`);
      assert.equal(task.answer.type, 'number');
      if (task.answer.type === 'number') assert.ok(Math.abs(task.answer.value - (Number(byGroup[0][1]) - Number(all[0][0]))) < 0.006, `${task.answer.value} vs ${Number(byGroup[0][1]) - Number(all[0][0])}`);
    }
  });

  it('names earthquakes dated by their parts as earthquakes, and JMA\'s clipped keys as codes', async () => {
    const ncei = (await env('ncei-significant-earthquakes-tsv')).context;
    assert.equal(things(ncei, tableOf(ncei, 'earthquakes'), 'many'), 'earthquakes');
    const jma = (await env('jma-earthquake-list-json')).context;
    assert.notEqual(things(jma, tableOf(jma, 'jma_bosai_quake_data_list_int'), 'many'), 'ints');
    assert.equal(things(jma, tableOf(jma, 'jma_bosai_quake_data_list_int_city'), 'many'), 'city entries', 'a city recurs in many reports: its entries are counted, not cities');
    const list = tableOf(jma, 'jma_bosai_quake_data_list');
    assert.equal(columnPhrase(jma, list.name, list.columns.find((c) => c.name === 'en_ttl')!), "'en_ttl'");
  });
});
