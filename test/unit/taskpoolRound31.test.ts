/**
 * The task pool after a blind review of the forty-sixth set's pools (round 31, r31a): files whose part has no name of
 * its own but a column naming it (`country` in each jurisdiction's file) are compared by that column; a running total
 * named so (`reg_count_cumu`) and the two ends of a range (`reg_lb`, `reg_ub`) are no measures to average, correlate or
 * count outliers of; the rest of a percentile split says it takes only rows with a value; one value written two ways is
 * asked as "which is it"; a sheet that is one edition of a table (a survey year) is named in every question of it; the
 * rows are named by what they are (samples keyed `#SampleID`, the cats of `cats_uk_reference`, the monthly records
 * of each file); a rate's outcome left unrecorded is left out of its denominator, and said so. (The tests read the data
 * of the forty-sixth set.)
 */
import * as assert from 'node:assert/strict';
import { measures, things } from '../../src/core/taskpool/families/kit';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the blind review of the round-31 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('compares the charity registers by country, and asks nothing of running totals or of a range\'s ends', async () => {
    const { context, session } = await env('charity-covid19-registrations-partitions');
    const view = context.profile.tables.find((t) => t.kind === 'view' && context.semantics.partitions.some((p) => p.view === t.name))!;
    const names = measures(context, view).map((c) => c.name);
    for (const name of ['reg_count_cumu', 'reg_excess_cumu_per', 'reg_lb', 'reg_ub']) assert.ok(!names.includes(name), `${name} in ${names.join(', ')}`);
    assert.ok(names.includes('reg_count'), names.join(', '));
    assert.equal(things(context, view, 'many'), 'monthly records');
    const pool = await buildTaskPool(session.toolContext);
    const compared = pool.tasks.filter((t) => t.family === 'partition-compare');
    assert.ok(compared.length > 0, 'the files are compared');
    for (const task of compared) {
      assert.match(task.question, /one per country/, task.question);
      assert.match(task.question, /Give the country as the files write it/, task.question);
    }
    for (const task of [...pool.tasks, ...pool.unselected]) {
      assert.doesNotMatch(task.question, /cumu|\(lb\)|\breg lb\b|\breg ub\b/, task.question);
      assert.doesNotMatch(task.question, /part of its name that differs/, task.question);
      assert.deepEqual(lintQuestion(task.question), [], task.question);
    }
  });

  it('names the LPI\'s survey year in every question, and finds no key of one year in another', async () => {
    const { session } = await env('worldbank-lpi-2007-2018-xlsx');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) {
      assert.match(task.question, /the '(2007|2010|2012|2014|2016|2018)' sheet/, task.question);
      assert.doesNotMatch(task.question, /does not exist among/, task.question);
      assert.doesNotMatch(task.question, /sheet.*the '\d{4}' sheet.*the '\d{4}' sheet/, `${task.question}: named twice`);
    }
  });

  it('calls the EMP rows samples and the cats cats, leaves unrecorded outcomes out of a rate, and says the rest of a split has a value', async () => {
    const emp = await env('emp-microbiome-sample-metadata-tsv');
    assert.equal(things(emp.context, tableOf(emp.context, 'emp_qiime_mapping_subset_2k'), 'many'), 'samples');
    const pool = await buildTaskPool(emp.session.toolContext);
    const split = [...pool.tasks, ...pool.unselected].filter((t) => /higher than that of the other samples/.test(t.question));
    for (const task of split) {
      const measure = /whose (.+?) (?:is|are) above/.exec(task.question)?.[1];
      if (measure && /elevation|depth/.test(measure)) assert.match(task.question, /the other samples with a known/, task.question);
    }
    const primer = [...pool.tasks, ...pool.unselected].filter((t) => /linker primer sequence value/.test(t.question) && /written in more than one way/.test(t.question));
    for (const task of primer) assert.match(task.question, /^One linker primer sequence value/, `${task.question}: one value alone has variants`);
    const cats = await env('movebank-pet-cats-uk-csv');
    assert.equal(things(cats.context, tableOf(cats.context, 'cats_uk_reference'), 'many'), 'cats');
    const catPool = await buildTaskPool(cats.session.toolContext);
    const rates = [...catPool.tasks, ...catPool.unselected].filter((t) => t.family === 'conditional-rate');
    assert.ok(rates.length > 0, 'a conditional rate is asked');
    for (const task of rates) {
      // `hunt` and `food_other` are NA for some cats: the rate is over the cats whose outcome is recorded, and says so.
      const target = /CASE WHEN "([^"]+)"/.exec(task.evidence.map((s) => s.code).join('\n'))?.[1] ?? '';
      const column = cats.context.profile.tables[0].columns.find((c) => c.name === target)!;
      if (column.nullFraction === 0) continue;
      assert.ok(task.evidence.some((s) => s.code.includes(`"${target}" IS NOT NULL`)), `${task.question}: over the cats whose ${target} is recorded`);
      assert.match(task.question, /with .+ unrecorded are left out/, task.question);
    }
  });
});
