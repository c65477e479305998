/**
 * The task pool after the question reviews of round 36 (r36a on the fifty-second set, r36b on the fifty-third, r36c on
 * the fifty-fourth): a column named by one run-together word its dictionary entry spells out (UCI's `Medu`, "mother's
 * education") is called by the entry, its codes and asides cut, its possessive kept; a file named for people and a
 * short qualifier (`student-mat`) holds those people; files that vary by station and year are not "station code
 * files"; a value beside a key of measures is pooled by no family; Cohen's d asks for the larger mean minus the
 * smaller, whatever the groups are called. (The tests read the data of those sets.)
 */
import * as assert from 'node:assert/strict';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

describe('task pool: round 36', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('calls UCI\'s coded columns by their dictionary\'s words and its rows students', async () => {
    const { session } = await env('uci-student-performance-csv');
    const pool = await buildTaskPool(session.toolContext);
    const questions = [...pool.tasks, ...pool.unselected].map((t) => t.question);
    assert.ok(questions.some((q) => /\bmother's (education|job)\b/.test(q)), questions.join('\n'));
    assert.ok(questions.some((q) => /\bstudents\b/.test(q)), questions.join('\n'));
    for (const q of questions) {
      assert.doesNotMatch(q, /\b(medu|fedu|mjob|fjob)\b/i, q);
      assert.doesNotMatch(q, /"at_home"|\bnominal\b|\bnumeric:/, q);
      assert.doesNotMatch(q, /\brows in student-(mat|por)\.csv\b/, q);
      assert.doesNotMatch(q, /the higher group's mean minus the lower group's/, q);
    }
  });

  it('names no station in files that vary by station and year, and pools no value of three measures', async () => {
    const nerrs = await env('nerrs-apalachicola-nutrients-csv');
    assert.equal(nerrs.context.semantics.partitions[0]?.key, 'part');
    const pool = await buildTaskPool(nerrs.session.toolContext);
    for (const task of [...pool.tasks, ...pool.unselected]) assert.doesNotMatch(task.question, /station code files|one per station code/, task.question);
    const nyc = await env('nyc-ehdp-adult-asthma-json');
    const asthma = await buildTaskPool(nyc.session.toolContext);
    for (const task of [...asthma.tasks, ...asthma.unselected]) {
      const code = task.evidence.map((e) => e.code).join('\n');
      assert.ok(!(task.tables.includes('t_18') && /\b(AVG|SUM)\s*\(\s*"?value"?\s*\)/i.test(code)), `a number and two percentages pooled: ${task.question}`);
    }
  });
});
