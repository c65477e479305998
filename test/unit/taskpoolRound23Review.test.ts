/**
 * The task pool after the blind question review of round 23 (the thirty-fifth and thirty-sixth sets' pools): rows of
 * what no entity holds (BEIS's local authority 'Unallocated') are left out and said to be so; the sister sheets of a
 * workbook (a sheet per year) are asked each question once, and are no two sources to reconcile; a unit run onto a
 * column's name is written as a unit, "No. of" as "number of". (The tests read the data of sets measured blind before
 * these changes.)
 */
import * as assert from 'node:assert/strict';
import { humanize } from '../../src/core/taskpool/families/kit';
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

  it('writes a unit run onto a name as a unit, and "No. of" as "number of"', () => {
    assert.equal(humanize('height_m'), 'height (m)');
    assert.equal(humanize('weight_kg'), 'weight (kg)');
    assert.equal(humanize('consumption_gwh'), 'consumption (GWh)');
    assert.equal(humanize('No. of Term'), 'number of term');
    assert.equal(humanize('m'), 'm');
    assert.equal(humanize('unit_price'), 'unit price');
  });
});
