/**
 * The task pool after the blind question review of round 20 (the twenty-ninth set's pool): a name's written form after
 * it (`state_ab`) is the thing; a nested column that ranks its parent (`categories.secondary`) is "secondary category";
 * the files of a partition named by a dataset's long name are "all 5 files"; weighted sums (deuterium excess) and counts
 * of yes/no columns are never split or correlated by their own parts; children counted by a parent's group where every
 * parent has as many are not ranked; a total of whole numbers is not rounded. (The tests read the data of the
 * twenty-ninth set, measured blind before these changes; none reads its column labels.)
 */
import * as assert from 'node:assert/strict';
import { derivedPair, editedStamp, isAboveIts, tablePlace, timeColumns } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf } from '../support/familyContexts';

describe('task pool: after the round-20 question review', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('says "state" for state_ab and "all 5 files" for the AEC partition, and rounds no total of votes', async () => {
    const { context, session } = await env('aec-house-first-preferences-partitions');
    const view = context.profile.tables.find((t) => context.semantics.partitions.some((p) => p.view === t.name))!;
    assert.equal(tablePlace(context, view), 'all 5 files');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bstate ab\b|\bparty ab\b|files by house/, task.question);
    const totals = pool.tasks.filter((t) => /^What is the total .* votes of/.test(t.question));
    assert.ok(totals.length >= 1, 'a total of votes is asked');
    for (const task of totals) assert.doesNotMatch(task.question, /Round to 2 decimals/, task.question);
    assert.ok(pool.tasks.some((t) => /\bstate\b/.test(t.question)));
  });

  it('names the CMS categories "secondary category" and ranks no count of the two links every record has', async () => {
    const { session } = await env('cernopendata-cms-2010-records-json');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.some((t) => /secondary categor/.test(t.question)));
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /categories secondar/, task.question);
      assert.doesNotMatch(task.question, /number of (links|container images) for each/, task.question);
    }
  });

  it('never pairs deuterium excess with the isotopes it is computed from, nor the number of topics with one topic', async () => {
    const epa = await env('epa-nla-water-isotopes-xlsx');
    const sheet = tableOf(epa.context, 'nla_water_isotope_data_2007_2017_nla_12_water_isotopes');
    assert.ok(derivedPair(epa.context, { table: sheet.name, column: 'd_excess' }, { table: sheet.name, column: 'h2_o_d2_h' }));
    const ngdc = await env('ngdc-steam-role-choice-csv');
    const topics = tableOf(ngdc.context, 'gdc_topics_deidentified');
    assert.ok(derivedPair(ngdc.context, { table: topics.name, column: 'n_fields' }, { table: topics.name, column: 'biological' }));
    const pool = await buildTaskPool(ngdc.session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /marked '(biological|chemical|physical|earth and space|dat)'.*number of fields named/i, task.question);
  });

  it('dates no row by when its record was last edited (SatNOGS\'s `updated`)', async () => {
    assert.ok(editedStamp('updated') && editedStamp('last_modified') && editedStamp('date_modified') && editedStamp('updatedAt'));
    assert.ok(!editedStamp('date') && !editedStamp('created') && !editedStamp('launch_date') && !editedStamp('last_seen'));
    const { context } = await env('satnogs-transmitters-json');
    const transmitters = tableOf(context, 'transmitters');
    assert.deepEqual(timeColumns(context, transmitters).map((t) => t.column.name).filter(editedStamp), []);
  });

  it('agrees the verb with the head noun of a measure', () => {
    assert.equal(isAboveIts('absent votes'), 'are above their');
    assert.equal(isAboveIts('number of events'), 'is above its');
    assert.equal(isAboveIts('file size'), 'is above its');
  });
});
