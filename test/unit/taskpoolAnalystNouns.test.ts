/**
 * Round-4 review faults on the fourth public set (openapc-sweden, ourairports-runways, periodic-table-json,
 * mirovision-eurovision, pixarfilms-sqlite), none of which the phrasing rules were written on: files named by a
 * cut-up year ("3 files, one per kth"), column names pasted as nouns ("Cohen's d for euro", "latitude deg"), flags
 * as category nouns ("which lighted"), rows misnamed ("sources" for elements), groupings by per-row ids.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, groupingName, groupings, groupingsOf, isCoordinate, measures, rowName, things, valuePhrase } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { poolMix } from '../../src/core/taskpool/report';
import { nearUniqueColumns, repetitionKey } from '../../src/core/taskpool/repetition';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: nouns an analyst would write, on data the rules never saw', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('names files split by year as one per year, never by a part of the name the year was cut from', async () => {
    const openapc = (await env('openapc-sweden')).context;
    const yearly = openapc.semantics.partitions.filter((p) => p.tables.every((t) => /_20\d\d_enriched\.csv$/.test(t.file)));
    assert.ok(yearly.length >= 10, `the institutions' yearly files: ${openapc.semantics.partitions.map((p) => `${p.name}/${p.key}`).join(', ')}`);
    for (const p of yearly) {
      assert.equal(p.key, 'year', `${p.name}: ${p.why}`);
      for (const t of p.tables) assert.match(t.value, /^20\d\d$/, `${p.name}: ${t.file} → ${t.value}`);
      assert.doesNotMatch(p.view ?? '', /_202_/, `${p.view}: no cut-up year in the view's name`);
    }
    const dpc = (await env('dpc-covid-italy')).context;
    const daily = dpc.semantics.partitions.find((p) => p.tables.some((t) => /regioni-2020\d{4}\.csv$/.test(t.file)));
    assert.ok(daily, dpc.semantics.partitions.map((p) => p.name).join(', '));
    assert.equal(daily.key, 'date', `daily bulletins are one per date, not one per 'regioni': ${daily.why}`);
    const pool = await buildTaskPool((await env('openapc-sweden')).session.toolContext);
    const compared = pool.tasks.filter((t) => t.family === 'partition-compare');
    assert.ok(compared.length > 0, 'partition comparisons remain');
    for (const t of compared) {
      assert.match(t.question, /^Across the \d+ files, one per year, which year/, t.question);
      assert.doesNotMatch(t.question, /one per (apc|kth|bth|ki)\b|which (apc|kth|bth)\b/, t.question);
    }
  });

  it('groups by no per-row id (a PubMed Central id beside its NA placeholder), and the pool report says why', async () => {
    const opened = await env('openapc-sweden');
    const openapc = opened.context;
    const ungrouped = await nearUniqueColumns(openapc.profile, openapc.sql);
    const ids = ungrouped.filter((u) => /^(pmcid|pmid|ut|doi)$/.test(u.column));
    assert.ok(ids.length >= 5, `per-article ids found: ${ungrouped.map((u) => `${u.table}.${u.column}`).join(', ')}`);
    for (const u of ungrouped) assert.match(u.why, /hold a value no other row holds/);
    // A real category of the same tables repeats: publishers, licences, the hybrid flag stay groupings.
    // (In a file of 15 articles from 12 publishers the publisher does not repeat either, and is left out there.)
    const large = (u: { table: string }) => (openapc.profile.tables.find((t) => t.name === u.table)?.rowCount ?? 0) >= 200;
    const categories = ungrouped.filter((u) => large(u) && /^(publisher|license_ref|is_hybrid|period)$/.test(u.column));
    assert.deepEqual(categories, [], 'publishers, licences and the hybrid flag of the large tables repeat');
    assert.ok(!ungrouped.some((u) => /^(is_hybrid|period|doaj|indexed_in_crossref)$/.test(u.column)), 'flags and years always repeat');
    const context = { ...openapc, ungrouped: new Map(ungrouped.map((u) => [repetitionKey(u.table, u.column), u.why])) };
    // (Tables under 10 rows make no tasks; in one of 10, an id beside 9 NAs is a 9-to-1 split any group-size rule drops.)
    for (const table of openapc.profile.tables.filter((t) => t.rowCount >= 20)) {
      const names = groupings(context, table).map((c) => c.name);
      assert.ok(!names.some((n) => /^(pmcid|pmid|ut)$/.test(n)), `${table.name}: ${names.join(', ')}`);
    }
    // A parent's column repeats over the child's rows (each department's name over its employees), and a town
    // only one author lives in is a thin category, not an id: both stay groupings.
    const hr = (await env('oracle-hr')).context;
    const hrUngrouped = new Map((await nearUniqueColumns(hr.profile, hr.sql)).map((u) => [repetitionKey(u.table, u.column), u.why]));
    const employees = hr.profile.tables.find((t) => /^employees$/i.test(t.name))!;
    assert.ok(groupingsOf({ ...hr, ungrouped: hrUngrouped }, employees).some((g) => g.column.name === 'department_name'), 'employees by department name');
    const pubs = (await env('mssql-pubs')).context;
    assert.ok(!(await nearUniqueColumns(pubs.profile, pubs.sql)).some((u) => u.column === 'city'), 'authors by city');
    const pool = await buildTaskPool(opened.session.toolContext);
    for (const t of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(t.question, /pubmed central id|web of science record id|\bpmcid\b/i, t.question);
    const mix = poolMix(pool, openapc.profile);
    assert.ok(mix.ungrouped.some((u) => u.column === 'pmcid'), 'the report names the ids it did not group by');
  });

  it("names a measure by its unit, expands abbreviations, and takes no coordinate with a unit as a measure ('euro', 'latitude deg', 'length ft')", async () => {
    const openapc = (await env('openapc-sweden')).context;
    const view = openapc.profile.tables.find((t) => t.kind === 'view' && t.columns.some((c) => c.name === 'euro'))!;
    assert.equal(columnPhrase(openapc, view.name, view.columns.find((c) => c.name === 'euro')!), 'amount in euros');
    const airports = (await env('ourairports-runways')).context;
    const runways = tableOf(airports, 'runways');
    const navaids = tableOf(airports, 'navaids');
    const col = (t: typeof runways, n: string) => t.columns.find((c) => c.name === n)!;
    assert.equal(columnPhrase(airports, 'runways', col(runways, 'length_ft')), 'length (ft)');
    assert.equal(columnPhrase(airports, 'navaids', col(navaids, 'frequency_khz')), 'frequency (kHz)');
    assert.equal(columnPhrase(airports, 'navaids', col(navaids, 'magnetic_variation_deg')), 'magnetic variation (degrees)');
    assert.ok(isCoordinate(col(navaids, 'latitude_deg')) && isCoordinate(col(navaids, 'longitude_deg')));
    const names = measures(airports, navaids).map((c) => c.name);
    assert.ok(!names.includes('latitude_deg') && !names.includes('longitude_deg'), names.join(', '));
    const pool = await buildTaskPool((await env('ourairports-runways')).session.toolContext);
    for (const t of pool.tasks) assert.doesNotMatch(t.question, /\b(latitude|longitude) deg\b|\blength ft\b|\bfrequency khz\b/, t.question);
  });

  it("names a yes/no flag as a value, never as a category noun ('which lighted', 'whose is hybrid is')", async () => {
    const airports = (await env('ourairports-runways')).context;
    const runways = tableOf(airports, 'runways');
    const lighted = runways.columns.find((c) => c.name === 'lighted')!;
    assert.equal(valuePhrase(airports, 'runways', lighted), "'lighted' value");
    assert.equal(groupingName({ column: lighted, table: runways, ref: 'c."lighted"' }, airports), "'lighted' value");
    for (const name of ['openapc-sweden', 'ourairports-runways']) {
      const pool = await buildTaskPool((await env(name)).session.toolContext);
      for (const t of [...pool.tasks, ...pool.unselected]) {
        assert.doesNotMatch(t.question, /\bwhich (lighted|closed)\b|\blighteds\b|\bwhose (is hybrid|indexed in crossref|lighted|closed) is\b|with is hybrid '/i, t.question);
        if (t.family === 'distribution-subset') assert.doesNotMatch(t.question, /Which '[^']+' value is most over-represented/, t.question);
      }
    }
  });

  it("names no row after a key of URLs: the elements of a periodic table are rows of the table, not 'sources'", async () => {
    const periodic = (await env('periodic-table-json')).context;
    for (const t of periodic.profile.tables.filter((x) => x.columns.some((c) => c.name === 'source'))) {
      // Neither the URL column (`source`) nor the one-sentence `summary` names an element: rows of the table.
      assert.equal(rowName(periodic, t), undefined, t.name);
      assert.match(things(periodic, t, 'many'), /^rows in (the table '|\S+\.(csv|json)$)/, t.name);
    }
    const pool = await buildTaskPool((await env('periodic-table-json')).session.toolContext);
    for (const t of pool.tasks) assert.doesNotMatch(t.question, /\b(sources|summaries)\b/, t.question);
  });
});
