/**
 * The task pool after the blind question review of round 22 (the thirty-fourth set's pool): a regional project in a
 * table of projects, each with its own key, is one record, not a total of the others; a partition's view is named by
 * its files ("all 12 monthly files"), its month read from file names such as `April 2025 Revenue for Portal_csv.csv`;
 * rows that copy each other are cleaned only where the copies are an artefact (not the items of a record's list, nor
 * records whose telling detail is withheld); a part is never correlated with its whole, nor shares of one whole with
 * each other; children that every parent has as many of are not counted; a nested list's items are its entries.
 * (The tests read the data of the thirty-fourth set, measured blind before these changes.)
 */
import * as assert from 'node:assert/strict';
import { derivedPair, tablePlace, things } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

describe('task pool: after the round-22 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads the World Bank projects as records: no regional project left out as a total, no list items deduplicated, no part against its whole', async () => {
    const { context, session } = await env('worldbank-projects-json');
    assert.ok(!(context.semantics.totalRows ?? []).some((t) => t.values.includes('Africa')), 'a multi-country project is no total row');
    const projects = context.profile.tables.find((t) => t.name === 'world_bank_projects')!;
    assert.ok(derivedPair(context, { table: projects.name, column: 'totalcommamt' }, { table: projects.name, column: 'idacommamt' }), 'IDA commitment is part of the total');
    assert.ok(derivedPair(context, { table: projects.name, column: 'sector1_percent' }, { table: projects.name, column: 'sector3_percent' }), 'two shares of one whole');
    const percents = context.profile.tables.find((t) => t.parent && t.originalName === 'majorsector_percent')!;
    assert.equal(things(context, percents, 'many'), "'majorsector_percent' entries in world_bank_projects.json");
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 10, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /which total other rows|Leave out the rows whose countryshortname/, task.question);
      assert.doesNotMatch(task.question, /count exact duplicate rows once/i, task.question);
      assert.doesNotMatch(task.question, /majorsector percents|namecodes|rows in the '/, task.question);
    }
  });

  it('names the ONRR files by month, leaves their withheld-location copies alone, and never writes the view\'s name', async () => {
    const { context, session } = await env('onrr-monthly-revenue-partitions');
    const partition = context.semantics.partitions[0];
    assert.equal(partition.key, 'month');
    assert.ok(partition.tables.some((t) => t.value === '2025-04' && /^April 2025/.test(t.file)));
    const view = context.profile.tables.find((t) => t.name === partition.view)!;
    assert.equal(tablePlace(context, view), 'all 12 monthly files');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 8, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /portal_csv_all/, task.question);
      assert.doesNotMatch(task.question, /duplicate rows/, task.question);
    }
    assert.ok(pool.tasks.some((t) => /all 12 monthly files/.test(t.question)));
    assert.ok(pool.tasks.some((t) => /Give the month as YYYY-MM/.test(t.question)));
  });

  it('asks no count of the two destinations every tram route has', async () => {
    const { session } = await env('tramhunter-melbourne-trams-sqlite');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /destinations belong to/, task.question);
  });
});
