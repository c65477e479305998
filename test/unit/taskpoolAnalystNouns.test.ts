/**
 * Round-4 review faults on the fourth public set (openapc-sweden, ourairports-runways, periodic-table-json,
 * mirovision-eurovision, pixarfilms-sqlite), none of which the phrasing rules were written on: files named by a
 * cut-up year ("3 files, one per kth"), column names pasted as nouns ("Cohen's d for euro", "latitude deg"), flags
 * as category nouns ("which lighted"), rows misnamed ("sources" for elements), groupings by per-row ids.
 */
import * as assert from 'node:assert/strict';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

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
      assert.match(t.question, /files, one per year\), which year/, t.question);
      assert.doesNotMatch(t.question, /one per (apc|kth|bth|ki)\b|which (apc|kth|bth)\b/, t.question);
    }
  });
});
