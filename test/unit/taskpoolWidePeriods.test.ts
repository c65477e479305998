/**
 * A wide table, one column per period and one row per thing (the Scottish Government's quarterly drug deaths by police
 * division and by age band; the EIA's hydroelectricity by country and year): the row that rose most, the period of its
 * peak, the peak over the start. Every step's sub-answer is checked against sqlite3's own execution of the step; the
 * period columns are no measures of their own for the other families.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadEnvironment } from '../../src/core/env/index';
import { filterUngrounded } from '../../src/core/export/grounding';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { synthesize } from '../../src/core/run/synthesize';
import { periodColumns, periodOfHeader } from '../../src/core/semantics/periods';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { measures, widePeriodsFamily } from '../../src/core/taskpool/families/index';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, openEnvironment, openFiles, tableOf } from '../support/familyContexts';
import { materialize, publicFixture } from '../support/publicFixtures';
import { sqlite3Rows } from '../support/sqlite3';

describe('task pool: a wide table of one column per period', function () {
  this.timeout(300_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads headers that name a year, a quarter or a month, and nothing else', () => {
    assert.deepEqual(periodOfHeader('1980'), { label: '1980', order: 1980 * 12, grain: 'year' });
    assert.deepEqual(periodOfHeader('2017 January to March'), { label: 'Q1 2017', order: 2017 * 12, grain: 'quarter' });
    assert.equal(periodOfHeader('2017 October to December')?.label, 'Q4 2017');
    assert.equal(periodOfHeader('2020 Q3')?.label, 'Q3 2020');
    assert.equal(periodOfHeader('2019 May')?.grain, 'month');
    for (const h of ['2017 Total', '1980s', 'Year', '2019 January to April', 'population 2019', '12345']) assert.equal(periodOfHeader(h), undefined, h);
  });

  for (const name of ['scotgov-suspected-drug-deaths-xlsx', 'eia-international-hydro-europe-csv']) {
    it(`asks ${name} how far the peak of the row that rose most stood above its start, each step what sqlite3 computes`, async () => {
      const opened = await openEnvironment(name);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-wide-'));
      try {
        const db = path.join(dir, 'image.sqlite');
        fs.writeFileSync(db, opened.session.env.image);
        const pool = await buildTaskPool(opened.session.toolContext, { families: [widePeriodsFamily] });
        const tasks = [...pool.tasks, ...pool.unselected].filter((t) => t.family === 'wide-periods');
        assert.ok(tasks.length >= 2, JSON.stringify(pool.families));
        for (const task of tasks) {
          assert.deepEqual(lintQuestion(task.question), [], task.question);
          assert.match(task.question, /, take the (police division|age band|country) with the largest absolute rise from (Q[1-4] )?\d{4} to (Q[1-4] )?\d{4}: by what percentage was its highest (quarter|year) above/, task.question);
          // The total row (`Total`, `Europe` among the countries) is no row that rose: it is left out, and said so.
          assert.match(task.question, /Leave out the row (whose .* is|labelled) '[^']+', which totals other rows\./, task.question);
          assert.equal(task.evidence.length, 3);
          for (const step of task.evidence) {
            const rows = sqlite3Rows(db, step.code);
            const key = step.subAnswer!.key;
            const first = rows[0]?.[key.type === 'number' ? rows[0].length - 1 : 0];
            assert.ok(matchesAnswer(key, String(first)), `${step.code} → ${JSON.stringify(rows.slice(0, 2))} vs ${JSON.stringify(key)}`);
            assert.doesNotMatch(String(first), /^(Total|Europe)$/i);
          }
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await opened.session.dispose();
        opened.cleanup();
      }
    });
  }

  it('admits, within the default budget, trajectories of every wide-periods task whose steps use only what was shown', async () => {
    const folder = await materialize(publicFixture('scotgov-suspected-drug-deaths-xlsx'));
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-wide-run-'));
    const runDir = path.join(work, 'run');
    try {
      await synthesize({ folder: folder.root, outDir: runDir, costModelFile: null, seed: 1 });
      const { trajectories } = trajectoriesFromRun(runDir);
      const tasks = new Set(trajectories.filter((t) => t.task.family === 'wide-periods').map((t) => t.task.id));
      assert.equal(tasks.size, 2, 'both sheets of divisions and of age bands');
      const env = await loadEnvironment(folder.root);
      const { report } = filterUngrounded(trajectories, { profile: env.profile, documents: env.documents }, true);
      assert.deepEqual(report.literals.map((l) => l.text), [], 'no literal a step used before anything showed it');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
      folder.cleanup();
    }
  });

  it('gives the other families no period column as a measure of its own', async () => {
    const { context } = await env('scotgov-suspected-drug-deaths-xlsx');
    const division = context.profile.tables.find((t) => t.name.endsWith('_a_police_division'))!;
    assert.equal(periodColumns(division).length, 28);
    assert.deepEqual(measures(context, tableOf(context, division.name)).map((c) => c.name), []);
  });

  it('asks nothing of a table with a few year columns, or of one whose rows no column names', async () => {
    const few = ['region,2019,2020,2021', ...['North', 'South', 'East', 'West', 'Centre', 'Coast'].map((r, i) => `${r},${10 + i},${12 + i * 2},${15 + i * 3}`)];
    const unnamed = ['code,2015,2016,2017,2018,2019,2020', ...Array.from({ length: 8 }, (_, i) => `${100 + i},${i},${i + 2},${i * 2},${i + 5},${i * 3},${i + 9}`)];
    const opened = await openFiles({ 'few.csv': few.join('\n') + '\n', 'unnamed.csv': unnamed.join('\n') + '\n' });
    try {
      const pool = await buildTaskPool(opened.session.toolContext, { families: [widePeriodsFamily] });
      assert.deepEqual([...pool.tasks, ...pool.unselected].filter((t) => t.family === 'wide-periods').map((t) => t.question), []);
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });
});
