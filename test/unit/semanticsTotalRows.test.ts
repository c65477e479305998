/**
 * Total rows beside their parts (a review of generated questions: 21 of 102 summed 'Total Domestic' with the airlines
 * or named a total row the leader). On real public data: a roll-up view's STORE / STATUS / GRAND TOTAL rows, the World
 * Bank's 'World' beside the countries — found by their sums, not their words — and labels that merely contain the word
 * (a company 'Total Care Matters Limited', a surname 'Overall', 'IDA total' whose sum the data does not bear out) left
 * alone. The pool reads such a table without its total rows in every step and says so in the question.
 */
import * as assert from 'node:assert/strict';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { exclusionSentence, statingTotalRows, withoutTotalRows } from '../../src/core/taskpool/totals';
import type { TotalRows } from '../../src/core/semantics/types';
import { environments } from '../support/familyContexts';
import { makeFolder } from '../support/envFixtures';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';

describe('total rows: rows that total the other rows of their table', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it("finds a roll-up view's store, status and grand totals by their sums", async () => {
    const { context } = await env('oracle-customer-orders');
    const found = (context.semantics.totalRows ?? []).find((t) => t.table === 'store_orders');
    assert.ok(found, JSON.stringify(context.semantics.totalRows));
    assert.equal(found.column, 'total');
    assert.deepEqual([...found.values].sort(), ['GRAND TOTAL', 'STATUS TOTAL', 'STORE TOTAL']);
    assert.equal(found.evidence, 'sum-of-rest');
    assert.ok(found.confidence >= 0.9);
    assert.match(found.why, /'STATUS TOTAL': order_count, total_sales equal the sum of the other rows of its order_status/);
    assert.match(found.why, /'GRAND TOTAL': order_count, total_sales equal the sum of the other rows of the table/);
    assert.equal(found.rows, 27);
  });

  it("finds the World Bank's 'World' beside the countries of each year, and its regions and income groups by name, and not 'IDA total', whose sums do not hold", async () => {
    const { context } = await env('datahub-country-indicators');
    const gdp = (context.semantics.totalRows ?? []).find((t) => t.table === 'gdp');
    assert.ok(gdp, JSON.stringify(context.semantics.totalRows));
    assert.equal(gdp.column, 'country_name');
    assert.equal(gdp.values[0], 'World');
    for (const group of ['East Asia & Pacific', 'European Union', 'High income', 'Sub-Saharan Africa', 'OECD members']) assert.ok(gdp.values.includes(group), group);
    assert.ok(!gdp.values.some((v) => ['France', 'Kenya', 'Japan'].includes(v)), gdp.values.join(', '));
    assert.equal(gdp.evidence, 'largest');
    assert.match(gdp.why, /name groups of countries, among the countries of country_name/);
    assert.deepEqual(gdp.grouping, ['year']);
    assert.match(gdp.why, /'World': value at least every other row's and at most their sum of its year \(\d+ groups\)/);
    for (const t of context.semantics.totalRows ?? []) assert.ok(!t.values.includes('IDA total'), t.why);
  });

  it('leaves labels that merely contain the word alone: a company, a surname, columns named total', async () => {
    for (const name of ['ofsted-childrens-homes', 'lahman-baseball', 'covidcaremap-capacity', 'vega-us-budget']) {
      const { context } = await env(name);
      assert.deepEqual(context.semantics.totalRows, [], `${name}: ${JSON.stringify(context.semantics.totalRows)}`);
    }
    // ofsted's owners include 'Total Care Matters Limited', lahman's surnames 'Overall'; covidcaremap names columns
    // 'Total Hospital Beds': none is a row that totals others.
  });

  it('reads a table without its total rows through a common table expression of its own name', () => {
    const totals: TotalRows[] = [{ table: 'gdp', column: 'country_name', values: ['World', "Cote d'Ivoire total"], rows: 3, evidence: 'largest', confidence: 0.6, grouping: ['year'], why: '' }];
    assert.equal(withoutTotalRows('SELECT COUNT(*) FROM "gdp" AS c', totals), `WITH "gdp" AS (SELECT * FROM main."gdp" WHERE ("country_name" IS NULL OR "country_name" NOT IN ('World', 'Cote d''Ivoire total'))) SELECT COUNT(*) FROM "gdp" AS c`);
    assert.equal(withoutTotalRows('WITH s AS (SELECT 1) SELECT * FROM s JOIN "gdp" ON 1', totals), `WITH "gdp" AS (SELECT * FROM main."gdp" WHERE ("country_name" IS NULL OR "country_name" NOT IN ('World', 'Cote d''Ivoire total'))), s AS (SELECT 1) SELECT * FROM s JOIN "gdp" ON 1`);
    // Other tables, a column of the same name, and SQL already filtered stay as they are.
    assert.equal(withoutTotalRows('SELECT "gdp" FROM "other"', totals), 'SELECT "gdp" FROM "other"');
    const once = withoutTotalRows('SELECT * FROM "gdp"', totals);
    assert.equal(withoutTotalRows(once, totals), once);
    assert.equal(exclusionSentence(totals), "Leave out the rows whose country name is 'World' or 'Cote d'Ivoire total', which total other rows.");
    const task = { question: 'Which country had the highest GDP in 2010?', evidence: [{ tool: 'run_sql' as const, code: once, purpose: '' }] };
    assert.equal(statingTotalRows(task, totals), "Which country had the highest GDP in 2010? Leave out the rows whose country name is 'World' or 'Cote d'Ivoire total', which total other rows.");
    assert.equal(statingTotalRows({ ...task, question: statingTotalRows(task, totals) }, totals), statingTotalRows(task, totals), 'said once');
    // Labels of two columns are two clauses: 'Total' of a fund and 'total' of a kind are no one list.
    const two: TotalRows[] = [{ ...totals[0], column: 'fund', values: ['Total'] }, { ...totals[0], column: 'kind', values: ['total'] }];
    assert.equal(exclusionSentence(two), "Leave out the rows whose fund is 'Total' and those whose kind is 'total', which total other rows.");
  });

  it("asks every question over the World Bank tables without the 'World' rows, and says so", async () => {
    const { context, session } = await env('datahub-country-indicators');
    const totals = context.semantics.totalRows ?? [];
    const result = await buildTaskPool(session.toolContext);
    const tasks = [...result.tasks, ...result.unselected];
    const over = tasks.filter((t) => t.tables.some((name) => totals.some((x) => x.table === name)));
    assert.ok(over.length >= 1, tasks.map((t) => `${t.tables.join(',')}: ${t.question}`).join('\n'));
    for (const task of over) {
      assert.match(task.question, /Leave out the rows whose country name (is 'World'(, '[^']+')*( or '[^']+')?|is a group of countries \(\d+, such as 'World', '[^']+' and '[^']+'\)), which total other rows\./, task.question);
      assert.equal(task.question.split('Leave out').length, 2, `stated once: ${task.question}`);
      for (const step of task.evidence.filter((s) => s.tool === 'run_sql' && /FROM "(gdp|population)"/.test(s.code))) {
        assert.match(step.code, /^WITH "(gdp|population)" AS \(SELECT \* FROM main\."(gdp|population)" WHERE \("country_name" IS NULL OR "country_name" NOT IN \('/, step.code);
      }
    }
    // The reference answers leave the rows out: the rows a count question counts are the table's less its total rows
    // (an outlier count; gdp's rows are a country × year grid, whose own number no question counts).
    const counting = over.find((t) => /(number of|how many) rows in gdp\.csv/i.test(t.question) && t.evidence.length === 1);
    assert.ok(counting, over.map((t) => t.question).join('\n'));
    {
      const all = await session.toolContext.sql.run(counting.evidence[0].code.replace(/ WHERE \("country_name" IS NULL OR "country_name" NOT IN \([^)]*\)\)/, ''), {});
      assert.notDeepEqual(all.rows, counting.evidence[0].result?.rows, `the total rows change the answer: ${counting.evidence[0].code} → ${JSON.stringify(all.rows)}`);
    }
    // No answer names a total row.
    for (const task of over) {
      const answer = task.answer;
      const named = answer.type === 'string' ? [answer.value] : answer.type === 'list' ? answer.values : [];
      assert.ok(!named.some((v) => totals.some((t) => t.values.includes(v))), task.question);
    }
  });
});

describe('total rows: groups of countries among countries', function () {
  this.timeout(60_000);

  it('sets apart the world, continents, unions and regions less some countries from a column of countries, and nothing from a column of other things', async () => {
    const countries = ['France', 'Germany', 'Italy', 'Spain', 'Kenya', 'Nigeria', 'Japan', 'India', 'Brazil', 'Chile', 'Canada', 'Mexico'];
    const groups = ['World', 'Africa', 'Europe', 'EU-27', 'Asia (excl. China & India)', 'High-income countries', 'OECD'];
    const lines = ['country,year,emissions'];
    for (const year of [2018, 2019]) for (const place of [...countries, ...groups]) lines.push([`"${place}"`, year, (10 + place.length * 3.7 + year - 2018).toFixed(1)].join(','));
    const teams = ['country_club,region,members'];
    for (let i = 0; i < 30; i++) teams.push([`Club ${i}`, ['Europe', 'Africa', 'Asia'][i % 3], 20 + i].join(','));
    const folder = makeFolder({ 'emissions.csv': lines.join('\n') + '\n', 'clubs.csv': teams.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const found = (env.semantics.totalRows ?? []).find((t) => t.table === 'emissions' && t.column === 'country');
      assert.ok(found, JSON.stringify(env.semantics.totalRows));
      assert.deepEqual([...found.values].sort(), [...groups].sort());
      assert.equal(found.rows, groups.length * 2);
      assert.ok(!(env.semantics.totalRows ?? []).some((t) => t.table === 'clubs'), 'regions of clubs are no groups among countries');
    } finally {
      folder.cleanup();
    }
  });
});
