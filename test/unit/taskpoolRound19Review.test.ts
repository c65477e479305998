/**
 * The task pool after the blind question review of round 19 (the twenty-eighth set's pool): an `all` among categories
 * is an answer, not a total row; a table of the properties of another table's things names its rows as those things;
 * yes/no answers written with comments are not grouped as written; rows under one JSON path, and the files of a
 * partition, are named in words; a sort key is no grouping and a confidence bound no measure. (The tests read the data
 * of the twenty-eighth set, measured blind before these changes; none reads its column labels.)
 */
import * as assert from 'node:assert/strict';
import { confidenceBound, rowsNoun, tablePlace } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the round-19 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('keeps the languages whose person allowed is "all", calls the rows of core_properties languages, and groups by no commented y/n answer', async () => {
    const { context, session } = await env('hoehn-nominal-person-sqlite');
    assert.deepEqual((context.semantics.totalRows ?? []).filter((r) => r.table === 'core_properties'), [], 'no total row in a table of categories alone');
    assert.equal(rowsNoun(context, tableOf(context, 'core_properties')), 'languages');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /which total other rows|core properties|article properties/, task.question);
      assert.doesNotMatch(task.question, /definite article|demonstrative w article|nominal person w article|ppdc|person third available/i, task.question);
    }
    assert.ok(pool.ungrouped.some((u) => u.column === 'definite_article' && /comments/.test(u.why)));
  });

  it('calls the EDGAR arrays filings, dated by their filing date, and the City of London searches the rows of all 12 monthly files', async () => {
    const edgar = await env('edgartools-sec-submissions-json');
    assert.equal(rowsNoun(edgar.context, tableOf(edgar.context, 'company_submission')), 'filings');
    const filings = await buildTaskPool(edgar.session.toolContext);
    assert.ok(filings.tasks.some((t) => /\bfilings\b/.test(t.question)));
    for (const task of filings.tasks) assert.doesNotMatch(task.question, /company_submission|filings recent|filings\.recent/, task.question);
    const police = await env('policeuk-cityoflondon-stop-search-partitions');
    const view = police.context.profile.tables.find((t) => police.context.semantics.partitions.some((p) => p.view === t.name))!;
    assert.equal(tablePlace(police.context, view), 'all 12 monthly files');
    const searches = await buildTaskPool(police.session.toolContext);
    for (const task of searches.tasks) assert.doesNotMatch(task.question, /the view '/, task.question);
  });

  it('names the Hakai surveys by their files\' words, never "hakais", and HSE\'s columns by the headers its workbook shows', async () => {
    const hakai = await env('hakai-seagrass-surveys-csv');
    const density = tableOf(hakai.context, 'seagrass_density_survey');
    assert.notEqual(rowsNoun(hakai.context, density), 'hakais');
    assert.equal(tablePlace(hakai.context, density), 'the seagrass density survey');
    const surveys = await buildTaskPool(hakai.session.toolContext);
    for (const task of surveys.tasks) assert.doesNotMatch(task.question, /hakais|\.csv\b/, task.question);
    // (A question that must say which of the two surveys it reads opens on the survey's words, not its file.)
    assert.ok(surveys.tasks.some((t) => /^In the seagrass (habitat|density) survey, /.test(t.question)), surveys.tasks.map((t) => t.question).join('\n'));
    const hse = await env('hse-lfs-workplace-injuries-region-xlsx');
    const table1 = tableOf(hse.context, 'lfsinjreg_table_1');
    const cil = table1.columns.find((c) => c.name === 'cil')!;
    assert.ok(confidenceBound(cil, hse.context.semantics.columns.find((c) => c.table === table1.name && c.column === 'cil')?.description?.value));
    // Great Britain, its three countries and England's nine regions overlap: the rows are kept at the regions.
    assert.equal((hse.context.semantics.totalRows ?? []).find((r) => r.table === table1.name)?.keep, 'Region');
    const injuries = await buildTaskPool(hse.session.toolContext);
    for (const task of injuries.tasks) {
      assert.match(task.question, /Keep only the rows whose level is 'Region'/, task.question);
      assert.doesNotMatch(task.question, /\b(cil|ciu|central)\b|C\.I\./, task.question);
      assert.doesNotMatch(task.question, /\bwhich sort\b|for each sort\b/, task.question);
    }
  });
});
