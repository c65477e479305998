/**
 * The task pool after reading the forty-fourth set's pools (round 29): the right ascension and declination of a
 * catalogue of the sky are positions, no measures; an export's record key (`recordid`) names no thing its rows are; a
 * total row is read by its word where the rows beside it have suppressed figures (the Scottish Government's `x`), and a
 * total in a column with no header is named by its label; every question is linted as the pool will state it, total
 * rows said; the rows of a panel (one per entity a month) are not counted as a change. (The tests read the data of the forty-fourth set.)
 */
import * as assert from 'node:assert/strict';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { measures, rowsNoun } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after reading the round-29 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('asks nothing of OpenNGC\'s right ascension and declination, positions on the sky, and keeps its magnitudes and sizes', async () => {
    const { context, session } = await env('pyongc-ngc-ic-catalogue-sqlite');
    const names = measures(context, tableOf(context, 'objects')).map((c) => c.name);
    assert.ok(!names.includes('ra') && !names.includes('dec'), names.join(', '));
    assert.ok(names.includes('majax') && names.includes('bmag'), names.join(', '));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\b(ra|dec)\b/, task.question);
  });

  it('counts no rows of a panel over its months (SNCF\'s TGV axes each month, 5 then 6) as a change', async () => {
    const { session } = await env('sncf-train-regularity-csv');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(task.question, /increase in the number of rows/, task.question);
  });

  it('calls the SNCF stations no "recordids": a record\'s key names no thing', async () => {
    const { context } = await env('sncf-station-footfall-json');
    const table = context.profile.tables.find((t) => !t.parent)!;
    assert.doesNotMatch(rowsNoun(context, table), /record/);
  });

  it('reads the police divisions\' Total by its word beside suppressed counts, and states every total row within the lint', async () => {
    const { context, session } = await env('scotgov-suspected-drug-deaths-xlsx');
    const division = context.profile.tables.find((t) => t.name.endsWith('_a_police_division'))!;
    assert.deepEqual((context.semantics.totalRows ?? []).find((r) => r.table === division.name)?.values, ['Total']);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.deepEqual(lintQuestion(task.question), [], task.question);
    const eia = await env('eia-international-hydro-europe-csv');
    const energy = await buildTaskPool(eia.session.toolContext);
    for (const task of energy.tasks) {
      assert.deepEqual(lintQuestion(task.question), [], task.question);
      assert.doesNotMatch(task.question, /column 2/, task.question);
    }
  });
});
