/**
 * The task pool after reading the pools of the fortieth set (round 25): files named by a span of three months and a year
 * are quarters, and payments on a day are no "daily records"; a category's description and a JSON value's translation
 * are named as the category and the value; a place is grouped by its name, not its code; a confidence interval's width
 * and the logarithm of another column are not asked about; a rate per 100,000 is said so. (The tests read the data of
 * the fortieth set, measured blind before these changes.) Then what the blind review of those pools found: a dump's files
 * named by a noun between a namespace and a part number (`KNS_Query-000224`) hold those things, "queries"; where nothing
 * adds up, the group whose average stands out (a z-score of averages) is a question of several steps; a column named only
 * `Number` that no rule read as a count is no measure; a group's share is of its own rows, and a minimum that leaves no
 * group out is not said.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, groupings, logOfColumn, measures, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { queryImage } from '../support/envFixtures';
import { environments } from '../support/familyContexts';

describe('task pool: after reading the round-25 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);
  const columnOf = (context: Awaited<ReturnType<typeof env>>['context'], table: string, name: string) => context.profile.tables.find((t) => t.name === table)!.columns.find((c) => c.name === name)!;

  it("names Oxford's quarterly files by quarter, and its payments no daily records", async () => {
    const { context, session } = await env('oxford-council-expenditure-partitions');
    const partition = context.semantics.partitions[0];
    assert.equal(partition.key, 'quarter');
    const view = context.profile.tables.find((t) => t.name === partition.view)!;
    assert.doesNotMatch(rowsNoun(context, view), /daily/);
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bover\s+files\b|\bdaily records?\b|\bovers\b/, task.question);
    // A quarter's share of its own payments, with no minimum that leaves no quarter out (1,220 payments or more each).
    const rate = pool.tasks.find((t) => t.family === 'group-rate');
    if (rate) {
      assert.match(rate.question, /highest share of its rows/, rate.question);
      assert.doesNotMatch(rate.question, /at least 10/, rate.question);
    }
  });

  it("names the Knesset's described categories and the Nobel Prize's translated values as a reader says them", async () => {
    const knesset = await env('knesset-parliament-activity-jsonl');
    assert.equal(columnPhrase(knesset.context, 'kns_secondary_law_000225', columnOf(knesset.context, 'kns_secondary_law_000225', 'completion_cause_desc')), 'completion cause');
    // A dump's files named by a noun after a namespace and before a part number, one row per bare `Id`: those things.
    const tableOf = (name: string) => knesset.context.profile.tables.find((t) => t.name === name)!;
    assert.equal(rowsNoun(knesset.context, tableOf('kns_query_000224')), 'queries');
    assert.equal(rowsNoun(knesset.context, tableOf('kns_committee_session_000225')), 'committee sessions');
    // A session's `Number` (3 to 893) says which session: nothing averages it.
    assert.ok(!measures(knesset.context, tableOf('kns_committee_session_000225')).some((c) => c.name === 'number'));
    const nobel = await env('nobelprize-prizes-json');
    assert.equal(columnPhrase(nobel.context, 'nobel_prizes', columnOf(nobel.context, 'nobel_prizes', 'category.en')), 'category');
    assert.equal(columnPhrase(nobel.context, 'nobel_prizes_laureates', columnOf(nobel.context, 'nobel_prizes_laureates', 'known_name.no_')), 'known name in Norwegian');
    const pool = await buildTaskPool(nobel.session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\b(desc|en|se|no)\b '/, task.question);
  });

  it('groups ONS small areas by region name, never by the code beside it, and asks nothing of a confidence interval', async () => {
    const { context, session } = await env('ons-msoa-household-income-xlsx');
    const t = context.profile.tables.find((x) => x.name === 'local_authority_ons_income_total_annual_income')!;
    const grouped = groupings(context, t).map((c) => c.name);
    assert.ok(grouped.includes('region_name'), grouped.join(', '));
    assert.ok(!grouped.includes('region_code'), grouped.join(', '));
    assert.deepEqual(measures(context, t).map((c) => c.name), ['total_annual_income']);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /region code|confidence (interval|limit)|region name/, task.question);
      assert.doesNotMatch(task.question, /'E1\d{7}'/, task.question);
    }
  });

  it("finds the region whose small areas' average income stands out, where nothing adds up: a z-score of averages, checked by hand", async () => {
    const { session } = await env('ons-msoa-household-income-xlsx');
    const pool = await buildTaskPool(session.toolContext);
    const task = pool.tasks.find((t) => t.family === 'stats-zscore' && /average total annual income/.test(t.question));
    assert.ok(task, pool.tasks.map((t) => t.question).join('\n'));
    assert.match(task.question, /whose average lies furthest from the mean of these averages/);
    const rows = await queryImage(session.env.image, 'SELECT region_name, AVG(total_annual_income) FROM local_authority_ons_income_total_annual_income WHERE region_name IS NOT NULL GROUP BY 1');
    const averages = rows.map((r) => Number(r[1]));
    const mean = averages.reduce((a, b) => a + b, 0) / averages.length;
    const sd = Math.sqrt(averages.reduce((a, b) => a + (b - mean) ** 2, 0) / averages.length);
    const furthest = averages.reduce((best, v) => (Math.abs(v - mean) > Math.abs(best - mean) ? v : best));
    assert.equal(task.answer.type, 'number');
    assert.equal(task.answer.type === 'number' && task.answer.value, Math.round(((furthest - mean) / sd) * 100) / 100);
  });

  it("asks nothing of Destatis's logarithms of its own rates, and says a rate per 100,000", async () => {
    const { context, session } = await env('destatis-germany-mortality-hospital-costs-csv');
    const data = context.profile.tables.find((x) => x.name === 'data')!;
    assert.ok(logOfColumn(data, columnOf(context, 'data', 'log_overall_costs_100k')));
    assert.ok(!measures(context, data).some((c) => /^log_/.test(c.name)));
    assert.match(columnPhrase(context, 'data', columnOf(context, 'data', 'overall_mort_100k')), /mortality per 100,000/);
    // (`CVD_` beside `cancer_`, `resp_` and `overall_` says which mortality: no namespace to drop.)
    assert.equal(columnPhrase(context, 'data', columnOf(context, 'data', 'cvd_mort_100k')), 'CVD mortality per 100,000');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\blog\b|\b100k\b|\bmort\b/, task.question);
  });
});
