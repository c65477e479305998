/**
 * The task pool on the twenty-fifth set, read in round 17: a column named by a maturity alone (`3 Yr` of daily
 * Treasury rates) is asked about as the table's figure for that span ("3-year rate"), the rows of a table of daily
 * rates are days, and no yield is summed; a look-alike table of rates with several rows per date keeps its noun.
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, openFiles, tableOf } from '../support/familyContexts';

describe('task pool: the twenty-fifth set (round 17)', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('asks the Treasury yield curves about the 3-year rate of days, and never sums a rate', async () => {
    const { context, session } = await env('ustreasury-par-yield-curve-partitions');
    const view = context.semantics.partitions[0].view!;
    assert.equal(columnPhrase(context, view, columnOf(context, view, 't_3_yr')), '3-year rate');
    assert.equal(columnPhrase(context, view, columnOf(context, view, 't_1_5_mo')), '1.5-month rate');
    assert.equal(rowsNoun(context, tableOf(context, view)), 'days');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\b\d+ (year|yr|mo)\b(?!s)/i, task.question);
      assert.doesNotMatch(task.question, /total [\d.]+-(year|month) rate/i, task.question);
      for (const step of task.evidence) assert.doesNotMatch(step.code, /SUM\("t_\d/, step.code);
    }
  });

  it('calls the school finance rows school districts and asks nothing of the undocumented codes c14 and c25', async () => {
    const { context, session } = await env('kaggledbqa-student-math-score-sqlite');
    assert.equal(rowsNoun(context, tableOf(context, 'FINREV_FED_17')), 'school districts');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 2, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bc\d\d\b|rows in the table 'FINREV_FED_17'/, task.question);
  });

  it('joins the CJEU judges\' biographies by the judge\'s id, never by a name label, asks no question twice, and averages no German register code', async () => {
    const judges = await env('cjeujudges-cjeu-judges-csv');
    const pool = await buildTaskPool(judges.session.toolContext);
    const questions = pool.tasks.map((t) => t.question);
    assert.equal(new Set(questions).size, questions.length, questions.join('\n'));
    for (const task of pool.tasks) for (const step of task.evidence) assert.doesNotMatch(step.code, /ON [^=]*_label" = /, step.code);
    const register = await env('destatis-gemeindeverzeichnis-ndjson');
    const regions = await buildTaskPool(register.session.toolContext);
    for (const task of regions.tasks) assert.doesNotMatch(task.question, /average (ebene|type|typ) nummer/i, task.question);
  });

  it('keeps the noun of a table of rates with several rows per date (one per currency)', async () => {
    const lines = ['date,currency,rate'];
    const currencies = ['EUR', 'GBP', 'JPY'];
    for (let d = 1; d <= 28; d++) for (const c of currencies) lines.push(`2024-02-${String(d).padStart(2, '0')},${c},${(1 + d / 100).toFixed(3)}`);
    const opened = await openFiles({ 'exchange_rates.csv': lines.join('\n') + '\n' });
    try {
      assert.equal(rowsNoun(opened.context, tableOf(opened.context, 'exchange_rates')), 'exchange rates');
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });
});
