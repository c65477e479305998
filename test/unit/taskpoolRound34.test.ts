/**
 * The task pool on the forty-ninth set (round 34): a fiscal year's outlays to each period's end are a total so far,
 * which no task averages or sums across a file of reporting periods (a title's `ytd_sales` in one snapshot still adds
 * up); a data dictionary written as a crosswalk, `N/A` where an element is in no such file, is read as the codebook
 * it is, so no task counts its rows; a network log's abbreviations are written out ("connection state", "protocol").
 * (The tests read the data of the forty-ninth set and the pubs database.)
 */
import * as assert from 'node:assert/strict';
import { measures, runningTotal } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: the forty-ninth set', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('takes no statistic of outlays to the period\'s end, and none of the data dictionary\'s rows', async () => {
    const { context, session } = await env('usaspending-award-account-funding-csv');
    const t = tableOf(context, 'contract_unknown_federal_account_funding_1');
    assert.ok(runningTotal(context, t.name, 'gross_outlay_amount_fyb_to_period_end'));
    assert.ok(!measures(context, t).some((c) => c.name === 'gross_outlay_amount_fyb_to_period_end'));
    assert.ok(context.semantics.tables.find((s) => s.table === 'data_dictionary_crosswalk_public')?.metadata, 'the crosswalk is a codebook');
    assert.ok(context.semantics.dictionary.filter((e) => e.codebook === 'data_dictionary_crosswalk_public').length >= 50);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) {
      assert.ok(!task.tables.includes('data_dictionary_crosswalk_public'), task.question);
      assert.ok(!task.evidence.some((s) => s.code.includes('gross_outlay_amount_fyb_to_period_end')), task.question);
    }
  });

  it('keeps a snapshot\'s year-to-date sales a measure, and writes a log\'s abbreviations out', async () => {
    const pubs = await env('mssql-pubs');
    assert.ok(!runningTotal(pubs.context, 'titles', 'ytd_sales'), 'one snapshot of titles: no periods to repeat over');
    const zeek = await env('zui-zeek-network-logs-ndjson');
    const pool = await buildTaskPool(zeek.session.toolContext);
    const questions = [...pool.tasks, ...pool.unselected].map((t) => t.question);
    assert.ok(questions.some((q) => /connection state/.test(q)), questions.join('\n'));
    for (const q of questions) assert.doesNotMatch(q, /\bconn state\b|\bproto\b|\bpkts\b/, q);
  });
});
