/**
 * The task pool after the blind question review of round 21 (the thirty-second set's pool) and a reading of the
 * thirty-first set's: one unit over another at a name's end reads "(mg/kg)"; a codebook sheet whose labels name the
 * columns (`abbr`: `Bulk Density`, `WHC`, `NO₃-N`) describes them, is asked nothing itself, and its labels keep their
 * capitals and subscripts; a table whose estimates are each in their own row's unit keeps its other measures; sums of
 * a few small whole numbers that agree three times make no total rows. (The tests read the data of the thirty-first and
 * thirty-second sets, measured blind before these changes; none reads their column labels.)
 */
import * as assert from 'node:assert/strict';
import { columnPhrase, taskTables } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the round-21 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads the soil workbook\'s Data Dictionary as a codebook: its labels name the columns, with their capitals, and it is asked nothing', async () => {
    const { context, session } = await env('wsda-washi-soil-samples-xlsx');
    const dictionary = context.semantics.tables.find((t) => t.table === 'template_data_dictionary');
    assert.ok(dictionary?.metadata, 'the Data Dictionary sheet is a codebook');
    assert.ok(!taskTables(context).some((t) => t.name === 'template_data_dictionary'));
    const data = tableOf(context, 'template_data');
    const phrase = (name: string) => columnPhrase(context, 'template_data', data.columns.find((c) => c.name === name)!);
    assert.equal(phrase('nitrate_n_mg_kg'), 'NO₃-N');
    assert.equal(phrase('whc_in_ft'), 'WHC');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /Data Dictionary|measurement group/, task.question);
      assert.doesNotMatch(task.question, /no₃-n|\bwhc\b/, task.question);
    }
  });

  it('names a unit over a unit at a name\'s end as a reader writes it', async () => {
    const { context } = await env('zomer-resprouting-shrubs-csv');
    const starch = tableOf(context, 'data_root_nsc').columns.find((c) => c.name === 'starch')!;
    assert.equal(columnPhrase(context, 'data_root_nsc', { ...starch, name: 'nitrate_n_mg_kg', originalName: 'nitrate_n_mg_kg' }), 'nitrate n (mg/kg)');
    assert.equal(columnPhrase(context, 'data_root_nsc', { ...starch, name: 'soil_bulk_g_cm3', originalName: 'soil_bulk_g_cm3' }), 'soil bulk (g/cm³)');
    assert.equal(columnPhrase(context, 'data_root_nsc', { ...starch, name: 'dry_material_g', originalName: 'dry_material_g' }), 'dry material (g)');
  });

  it('keeps Stock SMART\'s assessments, leaving out the estimates in each row\'s own unit, and reads no basis of a biomass as a total row', async () => {
    const { context, session } = await env('noaa-stocksmart-assessment-summary-xlsx');
    const table = 'assessment_summary_data_assessment_report';
    assert.ok(taskTables(context).some((t) => t.name === table), 'the assessments are asked about');
    assert.ok(!(context.semantics.totalRows ?? []).some((t) => t.column === 'b_basis'), 'Total Stock Biomass is a basis, not a total of other rows');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\bestimated (f|b)\b|\bmsy\b(?! unit)/i, task.question);
      assert.doesNotMatch(task.question, /which total other rows/, task.question);
    }
  });
});
