/**
 * The task pool after the blind review of the forty-second set's pools (round 27): a value qualified by its own column
 * of comparison marks (NUBASE's half-lives and branching ratios beside `…_relation` of '=', '<', '~') is no sample to
 * average or correlate, and the marks are no grouping; a group that says its value is not known (`NK`) makes a
 * z-score over the groups two questions; a partition's file column is not asked beside the files' own column of the
 * same values (`source_ecoregion` and `ecoregion`); a duration's unit at the end of its name reads "in seconds"; one
 * series of ERS's long table of costs (a region's figure per line item and year, five units in one `Value`) is asked,
 * by region, with its unit and without the U.S. total; no z-score of totals that follow the groups' row counts. (The
 * tests read the data of the forty-second set.)
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { seriesFamily } from '../../src/core/taskpool/families/index';
import { comparisonMarks, groupings, humanize, measures, NOT_KNOWN_CATEGORY } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments } from '../support/familyContexts';

describe('task pool: after reading the round-27 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('reads a duration whose unit ends its name as "in seconds", and nothing else so', () => {
    assert.equal(humanize('dwell_time_seconds'), 'dwell time in seconds');
    assert.equal(humanize('route_direction_headway_seconds'), 'route direction headway in seconds');
    assert.equal(humanize('total_seconds'), 'total seconds');
    assert.equal(humanize('seconds'), 'seconds');
    assert.ok(NOT_KNOWN_CATEGORY.test('NK') && NOT_KNOWN_CATEGORY.test('Unknown') && !NOT_KNOWN_CATEGORY.test('NKO'));
  });

  it('asks nothing of NUBASE values qualified as bounds, and groups by no qualifier', async () => {
    const { context, session } = await env('nubase2016-nuclides-sqlite');
    const decays = context.profile.tables.find((t) => t.name === 'decays')!;
    assert.ok(comparisonMarks(decays.columns.find((c) => c.name === 'branching_relation')!));
    const asked = measures(context, decays).map((c) => c.name);
    for (const name of ['half_life', 'half_life_error', 'branching', 'branching_error']) assert.ok(!asked.includes(name), `${name} among ${asked.join(', ')}`);
    assert.ok(!groupings(context, decays).some((c) => /_relation$/.test(c.name)));
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\bhalf life\b|\bbranching\b/i, task.question);
      for (const step of task.evidence) assert.doesNotMatch(step.code, /half_life|branching/, step.code);
    }
  });

  it("groups the JRC landings by the files' own ecoregion, and ranks no vessel length among groups that hold 'NK'", async () => {
    const { context, session } = await env('jrc-fdi-ecoregion-landings-partitions');
    const view = context.profile.tables.find((t) => context.semantics.partitions.some((p) => p.view === t.name))!;
    const grouped = groupings(context, view).map((c) => c.name);
    assert.ok(grouped.includes('ecoregion') && !grouped.includes('source_ecoregion'), grouped.join(', '));
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /source ecoregion/, task.question);
      if (task.family === 'stats-zscore') assert.doesNotMatch(task.question, /for each vessel length/, task.question);
    }
  });

  it("asks one series of ERS's costs by region: its unit said, the U.S. total left out, a survey base no key, every sub-answer what sqlite3 computes", async () => {
    const { session } = await env('usda-ers-corn-costs-returns-xlsx');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-ers-'));
    try {
      const db = path.join(dir, 'image.sqlite');
      fs.writeFileSync(db, session.env.image);
      const pool = await buildTaskPool(session.toolContext, { families: [seriesFamily] });
      const tasks = [...pool.tasks, ...pool.unselected].filter((t) => t.family === 'one-series');
      assert.ok(tasks.length > 0, JSON.stringify(pool.families));
      for (const task of tasks) {
        assert.match(task.question, /keep the series with item '[^']+' \(in [a-z ]+\), leaving out 'U\.S\. total'\./, task.question);
        assert.doesNotMatch(task.question, /item2|survey|Value|Region/, task.question);
        for (const step of task.evidence) {
          const out = execFileSync('sqlite3', ['-json', '-readonly', db, step.code], { encoding: 'utf8' });
          const rows = out.trim() === '' ? [] : (JSON.parse(out) as Array<Record<string, unknown>>).map((row) => Object.values(row));
          const key = step.subAnswer!.key;
          const first = rows[0]?.[key.type === 'number' ? rows[0].length - 1 : 0];
          assert.ok(matchesAnswer(key, String(first)), `${step.code} → ${JSON.stringify(rows.slice(0, 2))} vs ${JSON.stringify(key)}`);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ranks no provider by the total duration of its runs, which follows how many runs it has (llmonitor)", async () => {
    const { session } = await env('llmonitor-llm-benchmark-jsonl');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 3, `${pool.tasks.length} tasks`);
    for (const task of [...pool.tasks, ...pool.unselected]) if (task.family === 'stats-zscore') assert.doesNotMatch(task.question, /total duration for each/, task.question);
  });
});
