/**
 * The task pool after the blind question review of round 23 (the thirty-fifth and thirty-sixth sets' pools): rows of
 * what no entity holds (BEIS's local authority 'Unallocated') are left out and said to be so; the sister sheets of a
 * workbook (a sheet per year) are asked each question once, and are no two sources to reconcile; a unit run onto a
 * column's name is written as a unit, "No. of" as "number of". (The tests read the data of sets measured blind before
 * these changes.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, derivedPair, humanize } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

describe('task pool: after the round-23 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it("leaves BEIS's unallocated gas out, asks each question of its seven year sheets once, and reconciles no two years", async () => {
    const { context, session } = await env('beis-subnational-gas-consumption-xlsx');
    const unallocated = (context.semantics.totalRows ?? []).filter((t) => t.evidence === 'unallocated');
    assert.ok(unallocated.length >= 7, 'one per year sheet');
    assert.ok(unallocated.every((t) => t.column === 'local_authority' && t.values.includes('Unallocated')));
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    const sheetless = pool.tasks.map((t) => t.question.replace(/\bthe '[^']+' sheet\b/g, 'the · sheet'));
    assert.equal(new Set(sheetless).size, sheetless.length, 'no question asked again over another sheet');
    assert.ok(pool.rejected.some((r) => r.reasons.includes('the same question over another sheet of the workbook')));
    for (const task of pool.tasks) {
      assert.equal(task.family === 'cross-source', false, task.question);
      if (/local authorit/.test(task.question)) assert.match(task.question, /'Unallocated', which belong to no local authority/, task.question);
    }
  });

  it("relates no UMBS column to one its dictionary says it is computed from: a volume from a length, a biomass from a count", async () => {
    const { context, session } = await env('umbs-ltreb-forest-plots-csv');
    assert.ok(derivedPair(context, { table: 'cwd', column: 'length' }, { table: 'cwd', column: 'estimated_volume_tapered' }));
    assert.ok(derivedPair(context, { table: 'saplings', column: 'biomass' }, { table: 'saplings', column: 'count' }));
    assert.ok(!derivedPair(context, { table: 'cwd', column: 'length' }, { table: 'cwd', column: 'density' }));
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\blength\b.*\bestimated volume tapered\b|\bestimated volume tapered\b.*\blength\b/, task.question);
      assert.doesNotMatch(task.question, /\bsapling count\b.*\bbiomass\b|\bbiomass\b.*\bsapling count\b/, task.question);
    }
  });

  it('reads "No. of Term" as one name, not as a path whose leaf is "of Term"', async () => {
    const { context } = await env('prsindia-loksabha-activity-json');
    const table = context.profile.tables.find((t) => t.columns.some((c) => c.originalName === 'No. of Term'))!;
    const column = table.columns.find((c) => c.originalName === 'No. of Term')!;
    assert.equal(columnPhrase(context, table.name, column), 'number of term');
  });

  it('writes metres after a length as a unit: "height (m)"', async () => {
    const { context } = await env('scbi-forestgeo-tree-heights-csv');
    const table = context.profile.tables.find((t) => t.name === 'scbi_tree_heights')!;
    assert.equal(columnPhrase(context, table.name, table.columns.find((c) => c.name === 'height_m')!), 'height (m)');
  });

  it('writes "No. of" as "number of", and keeps other names as they were', () => {
    assert.equal(humanize('No. of Term'), 'number of term');
    assert.equal(humanize('no_of_visits'), 'number of visits');
    assert.equal(humanize('unit_price'), 'unit price');
  });
});
