/**
 * One series of a long table (OECD's household indicators: a `Value` per country and year, its quantity named in
 * `MEASURE`, `SUBJECT` and `INDICATOR`): the table answers nothing across all its rows, but one series does. Every
 * step's sub-answer is checked against sqlite3's own execution of the step.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { seriesFamily } from '../../src/core/taskpool/families/index';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { openFiles, openEnvironment } from '../support/familyContexts';
import { sqlite3Rows } from '../support/sqlite3';

describe('task pool: one series of a long table of several (OECD household indicators)', function () {
  this.timeout(300_000);

  it('names the series, leaves out groups of countries, and every sub-answer is what sqlite3 computes', async () => {
    const opened = await openEnvironment('oecd-household-indicators');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-series-'));
    try {
      const db = path.join(dir, 'image.sqlite');
      fs.writeFileSync(db, opened.session.env.image);
      const pool = await buildTaskPool(opened.session.toolContext, { families: [seriesFamily] });
      const tasks = [...pool.tasks, ...pool.unselected].filter((t) => t.family === 'one-series');
      assert.ok(tasks.length > 0, JSON.stringify(pool.families));
      for (const task of tasks) {
        assert.match(task.question, /keep the series with [A-Za-z ]+ '[^']+'/, task.question);
        // OECD-Europe, the euro area and the EU beside the countries: parts and wholes are not ranked together.
        assert.match(task.question, /leaving out the \d+ groups of countries/, task.question);
        assert.deepEqual(lintQuestion(task.question), [], task.question);
        assert.equal(task.evidence.length, 3);
        const leader = task.evidence[1];
        assert.ok(leader.code.includes("NOT IN ('"), 'the groups are left out of the ranking');
        for (const step of task.evidence) {
          const rows = sqlite3Rows(db, step.code);
          const key = step.subAnswer!.key;
          const first = rows[0]?.[key.type === 'number' ? rows[0].length - 1 : 0];
          assert.ok(matchesAnswer(key, String(first)), `${step.code} → ${JSON.stringify(rows.slice(0, 2))} vs ${JSON.stringify(key)}`);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await opened.session.dispose();
      opened.cleanup();
    }
  });

  it('asks nothing of a long table without years, or of one whose value column holds one quantity', async () => {
    const weekly = ['location,measure,week,value'];
    const single = ['location,measure,year,value'];
    const places = ['Adria', 'Brava', 'Cora', 'Dunmore', 'Elm', 'Fenwick'];
    places.forEach((place, p) => {
      for (let i = 0; i < 14; i++) {
        weekly.push([place, i % 2 ? 'admissions' : 'share', `2024-W${String(i + 1).padStart(2, '0')}`, 10 + p * 3 + i].join(','));
        single.push([place, 'admissions', 2005 + i, 100 + p * 40 + i * (p + 1)].join(','));
      }
    });
    const opened = await openFiles({ 'weekly.csv': weekly.join('\n') + '\n', 'single.csv': single.join('\n') + '\n' });
    try {
      const pool = await buildTaskPool(opened.session.toolContext, { families: [seriesFamily] });
      assert.deepEqual([...pool.tasks, ...pool.unselected].filter((t) => t.family === 'one-series').map((t) => t.question), []);
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });
});
