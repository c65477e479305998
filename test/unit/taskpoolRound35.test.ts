/**
 * The task pool after the question reviews of round 35 (r35a on the fifty-first set, r35b on the fifty-second): two
 * files of a partition are "both yearly files", not "all 2 yearly files"; a question of one sheet of a workbook of
 * several names the sheet where its measure has a name any sheet might use ("the total"); a series of one row a year
 * is "the ocean sink", not "the total ocean sink" nor "the sum of totals"; a file named with a publisher's acronym
 * before its plural (`TDF_Riders_History`) has riders for rows; a BigQuery schema file asks nothing; no task
 * correlates a mean with a column it averages. (The tests read the data of the fifty-first and fifty-second sets.)
 */
import * as assert from 'node:assert/strict';
import { rowName } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { reviewTaskByRules } from '../../src/core/taskpool/revise';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: round 35', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('says "both yearly files" of two, and asks nothing of a BigQuery schema', async () => {
    const grants = await env('govuk-government-grant-schemes-csv');
    const pool = await buildTaskPool(grants.session.toolContext);
    const questions = [...pool.tasks, ...pool.unselected].map((t) => t.question);
    assert.ok(questions.some((q) => /\bboth yearly files\b/.test(q)), questions.join('\n'));
    for (const q of questions) {
      assert.doesNotMatch(q, /\ball 2 \w+ files\b/, q);
      assert.doesNotMatch(q, /both yearly files, in both yearly files/i, q);
    }
    const bikes = await env('glaredb-austin-bikeshare-stations-ndjson');
    const stations = await buildTaskPool(bikes.session.toolContext);
    for (const task of [...stations.tasks, ...stations.unselected]) assert.doesNotMatch(task.question, /bq-schema/, task.question);
  });

  it('names the sheet of "the total", calls a yearly row\'s figure by its name, and correlates no mean with a column it averages', async () => {
    const { context, session } = await env('gcp-global-carbon-budget-2018-xlsx');
    const averaged = context.semantics.columns.find((c) => c.table === 'global_carbon_budget_2018v1_0_ocean_sink' && c.column === 'gcb')?.derivedFrom?.columns ?? [];
    assert.equal(averaged.length, 7);
    const pool = await buildTaskPool(session.toolContext);
    const tasks = [...pool.tasks, ...pool.unselected];
    for (const task of tasks) {
      assert.doesNotMatch(task.question, /\bsum of totals\b|\bthe total (GCB|H&N|ocean sink|land sink|fossil fuel and industry) per year\b|\bgrowth of the total (GCB|H&N|ocean sink|land sink|fossil fuel and industry)\b/, task.question);
      if (/\bthe total\b(?! \w)/.test(task.question) || /\bthe total change\b/.test(task.question)) assert.match(task.question, /' sheet\b/, task.question);
      // (A data product beside the models, Rödenbeck's, is no input of the mean: its correlation with it is a question.)
      const code = task.evidence.map((e) => e.code).join('\n');
      const ocean = task.tables.includes('global_carbon_budget_2018v1_0_ocean_sink') && /correlation/i.test(task.question) && /\bgcb\b/.test(code) && averaged.some((m) => new RegExp(`\\b${m}\\b`).test(code));
      assert.ok(!ocean, `the ocean sink's GCB is the mean of its models: ${task.question}`);
    }
  });

  it('keeps questions whose file names hold years, and whose examples show a value as the data writes it', async () => {
    // (The reviser had read `government-grant-schemes-2013-14.csv` as stating -2013 and -14, and "(e.g. '-1,535,000')"
    // as a threshold, and rejected 5 of 8 tasks.)
    const { session } = await env('govuk-government-grant-schemes-csv');
    const pool = await buildTaskPool(session.toolContext);
    const asked = pool.tasks.filter((t) => /\.csv\b|e\.g\. '/.test(t.question));
    assert.ok(asked.length >= 3, pool.tasks.map((t) => t.question).join('\n'));
    for (const task of asked) {
      const review = await reviewTaskByRules({ task, profile: session.env.profile, graph: pool.graph, context: session.toolContext, paths: [] });
      assert.notEqual(review.decision, 'reject', `${task.question}: ${review.reason}`);
    }
  });

  it('calls the rows of a file named with an acronym before its plural by the plural', async () => {
    const { context } = await env('letourdataset-tour-de-france-csv');
    assert.equal(rowName(context, tableOf(context, 'tdf_riders_history')), 'riders');
    assert.equal(rowName(context, tableOf(context, 'tdff_riders_history')), 'riders');
  });
});
