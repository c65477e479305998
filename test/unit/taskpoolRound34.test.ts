/**
 * The task pool on the forty-ninth set (round 34): a fiscal year's outlays to each period's end are a total so far,
 * which no task averages or sums across a file of reporting periods (a title's `ytd_sales` in one snapshot still adds
 * up); a data dictionary written as a crosswalk, `N/A` where an element is in no such file, is read as the codebook
 * it is, so no task counts its rows; a network log's abbreviations are written out ("connection state", "protocol").
 * After r34b: a questionnaire's item code is no part of the item's name ("OKR familiarity", not "b5 okr familiarity");
 * no drill-down into a sub-segment that lies inside its segment, no z-score of a blank group or of one group beside
 * others all equal; a daily file over a panel of places counts place-days. (The tests read the data of the forty-ninth and fiftieth sets, SAFI and the pubs database.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, measures, runningTotal } from '../../src/core/taskpool/families/kit';
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

  it('names a questionnaire\'s items by their words, acronyms as the codebook writes them', async () => {
    const safi = await env('datacarpentry-safi-json');
    const t = safi.context.profile.tables.find((x) => x.columns.some((c) => c.name === 'a01_interview_date'))!;
    assert.equal(columnPhrase(safi.context, t.name, t.columns.find((c) => c.name === 'a01_interview_date')!), 'interview date');
    const survey = await env('vaezi-nsm-expert-survey-csv');
    const s = survey.context.profile.tables[0];
    assert.equal(columnPhrase(survey.context, s.name, s.columns.find((c) => c.name === 'b5_okr_familiarity')!), 'OKR familiarity');
    // (A chemical formula before a code, `H2O_d2H`, is no item code.)
    const nla = await env('epa-nla-water-isotopes-xlsx');
    const iso = nla.context.profile.tables.find((x) => x.columns.some((c) => /^h2o_d2h$/i.test(c.name)));
    if (iso) assert.notEqual(columnPhrase(nla.context, iso.name, iso.columns.find((c) => /^h2o_d2h$/i.test(c.name))!), 'd2h');
  });

  it('drills into no sub-segment that lies inside its segment, takes no z-score fixed by blanks or ties, and counts a daily panel\'s rows as place-days', async () => {
    for (const name of ['imd-cloud-cover-parquet', 'cathub-co2r-copper-facets-sqlite']) {
      const { session } = await env(name);
      const pool = await buildTaskPool(session.toolContext);
      // (IMD's daily file of forecast points' cover: its rows are place-days, not "rows in cloud-cover-daily.parquet".)
      if (name === 'imd-cloud-cover-parquet') {
        const questions = [...pool.tasks, ...pool.unselected].map((t) => t.question);
        assert.ok(questions.some((q) => /\bplace-days\b/.test(q)), questions.join('\n'));
        for (const q of questions) assert.doesNotMatch(q, /cloud-cover-daily\.parquet/, q);
      }
      for (const task of [...pool.tasks, ...pool.unselected]) {
        const composition = task.program?.composition;
        if (task.family === 'drill-down') {
          const [a, b] = [task.evidence[0].subAnswer?.key, task.evidence[1].subAnswer?.key];
          const top = a?.type === 'string' ? a.value : undefined;
          const inner = b?.type === 'string' ? b.value : undefined;
          assert.ok(!(name === 'imd-cloud-cover-parquet' && top === 'UTTAR PRADESH' && inner === 'EAST UTTAR PRADESH'), task.question);
        }
        if (task.family === 'stats-zscore' || composition === 'stats-zscore') {
          const rows = task.evidence[0].result?.rows ?? [];
          assert.ok(!rows.some((r) => typeof r[0] === 'string' && r[0].trim() === ''), `${name}: a blank group: ${task.question}`);
          assert.ok(new Set(rows.slice(1).map((r) => Number(r[1]))).size > 1, `${name}: the others all equal: ${task.question}`);
        }
      }
    }
  });
});

