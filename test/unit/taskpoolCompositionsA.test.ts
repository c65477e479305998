/**
 * The attribution, partition and distribution-subset compositions on real data: the retail sample, the football
 * seasons (30 partition files), the Portal permits (9 yearly files) and the WRI power plants (132 country files).
 * Every step's sub-answer is re-executed with the sqlite3 CLI on the environment image (an engine apart from the
 * sandbox's sql.js; a Python step's quantile is recomputed here), the final answers are recomputed from the raw
 * rows (the football CSVs themselves for the partition tasks), every question passes the lint, and data without
 * the needed shape — or with a degenerate one, built here — gives no task.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { attributionFamily } from '../../src/core/taskpool/families/attribution';
import { distributionSubsetFamily } from '../../src/core/taskpool/families/distributionSubset';
import { compositionFamilies } from '../../src/core/taskpool/families/index';
import { partitionsFamily } from '../../src/core/taskpool/families/partitions';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool, type TaskPoolResult } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { sqlite3Rows } from '../support/sqlite3';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sampleDir = path.join(repoRoot, 'media', 'samples', 'retail');
const publicData = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'public', name, 'data');
const families = [attributionFamily, partitionsFamily, distributionSubsetFamily];

/** Python's statistics.quantiles(data, n=10, method='inclusive')[-1], as its source computes it. */
function inclusiveP90(values: number[]): number {
  const data = [...values].sort((a, b) => a - b);
  const m = data.length - 1;
  const j = Math.floor((9 * m) / 10);
  const delta = 9 * m - j * 10;
  return (data[j] * (10 - delta) + data[j + 1] * delta) / 10;
}

/** The nearest-rank 90th percentile: the ceil(0.9n)-th smallest value. */
function nearestRankP90(values: number[]): number {
  const data = [...values].sort((a, b) => a - b);
  return data[Math.ceil(0.9 * data.length) - 1];
}

/** Each step's sub-answer against sqlite3's own execution of that step (a Python step's quantile recomputed here). */
function assertStepsReexecute(tasks: TaskSpec[], dbFile: string): void {
  for (const task of tasks) {
    for (const [index, step] of task.evidence.entries()) {
      const key = step.subAnswer!.key;
      let stated: string;
      if (step.tool === 'run_sql') {
        const rows = sqlite3Rows(dbFile, step.code);
        stated = key.type === 'list' ? rows.map((r) => String(r[0])).join(', ') : String(rows[0]?.[0]);
      } else {
        assert.match(step.code, /statistics\.quantiles\(values, n=10, method='inclusive'\)\[-1\]/);
        const query = JSON.parse(/^query = (".*")$/m.exec(step.code)![1]) as string;
        stated = String(inclusiveP90(sqlite3Rows(dbFile, query).map((r) => Number(r[0]))));
      }
      assert.ok(matchesAnswer(key, stated), `${task.id} step ${index + 1} (${step.subAnswer!.label}): sqlite3 says ${stated}, key ${JSON.stringify(key)}`);
    }
    assert.deepEqual(task.answer, task.evidence[task.evidence.length - 1].subAnswer!.key);
  }
}

function assertWellFormed(tasks: TaskSpec[]): void {
  for (const task of tasks) {
    assert.deepEqual(lintQuestion(task.question), [], `${task.id}: ${task.question}`);
    assert.ok(task.evidence.length >= 3 && task.evidence.length <= 4, `${task.id} has ${task.evidence.length} steps`);
    assert.equal(task.program?.composition, task.family);
    assert.equal(task.program?.steps, task.evidence.length);
    assert.equal(task.validation?.status, 'valid', `${task.id}: ${task.validation?.reasons.join('; ')}`);
    // Steps chain: every step after the first uses an earlier one, and the literal values it carries are in its code.
    for (const [index, step] of task.evidence.entries()) {
      assert.ok(step.subAnswer && step.subAnswer.label.trim() !== '');
      for (const used of step.uses ?? []) assert.ok(used < index);
      for (const value of step.subAnswer.carries ?? []) assert.ok(step.code.includes(value), `${task.id} step ${index + 1} carries ${value} but its code lacks it`);
    }
    assert.ok(task.evidence.slice(1).some((s) => (s.uses ?? []).length > 0), `${task.id}: no step uses an earlier one`);
    // The answer value is not in the question.
    if (task.answer.type === 'number') assert.ok(!task.question.includes(String(task.answer.value)), task.question);
  }
}

async function poolOf(folder: string): Promise<{ session: AgentSession; result: TaskPoolResult; db: string }> {
  const session = await openAgentSession(folder);
  const result = await buildTaskPool(session.toolContext, { max: 60, families });
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-compA-')), 'image.sqlite');
  fs.writeFileSync(db, session.env.image);
  return { session, result, db };
}

const byFamily = (result: TaskPoolResult, id: string) => [...result.tasks, ...result.unselected].filter((t) => t.family === id);

describe('compositions: attribution, partitions, distribution then subset', function () {
  this.timeout(600_000);

  it('are listed among the compositions', () => {
    for (const family of families) assert.ok(compositionFamilies.includes(family), family.id);
  });

  describe('on the retail sample', () => {
    let env: Awaited<ReturnType<typeof poolOf>>;
    before(async () => {
      env = await poolOf(sampleDir);
    });
    after(async () => {
      await env?.session.dispose();
      if (env) fs.rmSync(path.dirname(env.db), { recursive: true, force: true });
    });

    it('builds attribution and distribution tasks whose every step sqlite3 reproduces; no partition task without partitions', () => {
      const attribution = byFamily(env.result, 'attribution');
      const distribution = byFamily(env.result, 'distribution-subset');
      assert.ok(attribution.length >= 2, `${attribution.length} attribution tasks`);
      assert.ok(distribution.length >= 2, `${distribution.length} distribution tasks`);
      assertWellFormed([...attribution, ...distribution]);
      assertStepsReexecute([...attribution, ...distribution], env.db);
      const partitions = env.result.families.find((f) => f.id === 'partition-compare')!;
      assert.equal(partitions.candidates, 0);
      assert.match(partitions.note ?? '', /partitioned dataset/);
    });

    it('attributes the change in order totals between the last two complete years, recomputed from the raw orders', () => {
      const task = byFamily(env.result, 'attribution').find((t) => t.evidence[0].code.includes('"orders"') && /"ordered_at"/.test(t.evidence[0].code))!;
      assert.ok(task, 'no attribution task over the orders');
      assert.equal(task.evidence.length, 4);
      assert.match(task.question, /two latest calendar years \(by ordered at\) with orders in all 12 months/);
      const rows = sqlite3Rows(env.db, 'SELECT ordered_at, order_total, channel FROM orders') as Array<[string, number | null, string | null]>;
      const months = new Map<string, Set<string>>();
      for (const [at] of rows) if (at) months.set(at.slice(0, 4), new Set([...(months.get(at.slice(0, 4)) ?? []), at.slice(5, 7)]));
      const full = [...months].filter(([, m]) => m.size === 12).map(([y]) => y).sort();
      const [y1, y2] = full.slice(-2);
      assert.deepEqual(task.evidence[0].subAnswer!.key, { type: 'list', values: [y2, y1], ordered: true });
      const change = new Map<string, number>();
      let total = 0;
      for (const [at, value, channel] of rows) {
        if (!at || value === null) continue;
        const sign = at.startsWith(y2) ? 1 : at.startsWith(y1) ? -1 : 0;
        total += sign * value;
        if (channel !== null) change.set(channel, (change.get(channel) ?? 0) + sign * value);
      }
      const ranked = [...change].sort((a, b) => Math.sign(total) * (b[1] - a[1]));
      assert.equal((task.evidence[2].subAnswer!.key as { value: string }).value, ranked[0][0]);
      assert.ok(matchesAnswer(task.answer, String((100 * ranked[0][1]) / total)), `${JSON.stringify(task.answer)} vs ${(100 * ranked[0][1]) / total}`);
    });

    it('reads the 90th percentile as the question defines it, and the subset answers from the raw values', () => {
      for (const task of byFamily(env.result, 'distribution-subset')) {
        const first = task.evidence[0];
        const text = first.tool === 'run_sql' ? first.code : (JSON.parse(/^query = (".*")$/m.exec(first.code)![1]) as string);
        const measure = /ORDER BY ("[^"]+")/.exec(text)![1];
        const table = /FROM ("[^"]+")/.exec(text)![1];
        const values = sqlite3Rows(env.db, `SELECT ${measure} FROM ${table} WHERE ${measure} IS NOT NULL`).map((r) => Number(r[0]));
        const threshold = first.tool === 'run_python' ? inclusiveP90(values) : nearestRankP90(values);
        if (first.tool === 'run_python') assert.match(task.question, /by linear interpolation between the closest ranks, as Excel's PERCENTILE\.INC/);
        else assert.match(task.question, /by the nearest-rank method/);
        assert.ok(matchesAnswer(first.subAnswer!.key, String(threshold)), `${task.id}: threshold ${threshold} vs ${JSON.stringify(first.subAnswer!.key)}`);
        const above = values.filter((v) => v > threshold);
        assert.ok(above.length >= 0.05 * values.length && above.length <= 0.11 * values.length, `${task.id}: ${above.length} of ${values.length} above`);
        if (task.program!.steps === 3) {
          // Concentration: the share of the total held by the rows above.
          const share = (100 * above.reduce((s, v) => s + v, 0)) / values.reduce((s, v) => s + v, 0);
          assert.ok(matchesAnswer(task.answer, String(share)), `${task.id}: ${JSON.stringify(task.answer)} vs ${share}`);
        }
      }
    });
  });

  describe('on the football seasons (30 partition files)', () => {
    let env: Awaited<ReturnType<typeof poolOf>>;
    before(async () => {
      env = await poolOf(publicData('football-premier-league'));
    });
    after(async () => {
      await env?.session.dispose();
      if (env) fs.rmSync(path.dirname(env.db), { recursive: true, force: true });
    });

    /** The season files themselves: season → rows of FTHG and the match month, read without TOFFEE. */
    function seasons(): Map<string, Array<{ fthg: number; month: string }>> {
      const dir = publicData('football-premier-league');
      const found = new Map<string, Array<{ fthg: number; month: string }>>();
      for (const file of fs.readdirSync(dir).filter((f) => /^season-\d{4}\.csv$/.test(f))) {
        const [header, ...lines] = fs.readFileSync(path.join(dir, file), 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
        const cols = header.split(',');
        const rows = lines.map((l) => l.split(',')).map((c) => ({ fthg: Number(c[cols.indexOf('FTHG')]), month: c[cols.indexOf('Date')].slice(5, 7) }));
        found.set(file.slice(7, 11), rows);
      }
      return found;
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

    it('compares the seasons against the whole and against their own normal, as the CSV files say', () => {
      const tasks = byFamily(env.result, 'partition-compare');
      assertWellFormed(tasks);
      assertStepsReexecute(tasks, env.db);
      const files = seasons();
      assert.equal(files.size, 30);
      const whole = tasks.find((t) => t.evidence.length === 3 && /average full time home team goals, and/.test(t.question))!;
      assert.ok(whole, `no season task against the whole: ${tasks.map((t) => t.question).join(' | ')}`);
      const averages = [...files].map(([season, rows]) => [season, mean(rows.map((r) => r.fthg))] as const).sort((a, b) => b[1] - a[1]);
      const overall = mean([...files.values()].flat().map((r) => r.fthg));
      assert.deepEqual(whole.evidence[0].subAnswer!.key, { type: 'string', value: averages[0][0] });
      assert.ok(matchesAnswer(whole.evidence[1].subAnswer!.key, String(overall)));
      assert.ok(matchesAnswer(whole.answer, String((100 * (averages[0][1] - overall)) / overall)));
      assert.match(whole.question, /Across the 30 files, one per season, which season has the highest average full time home team goals/);

      const normal = tasks.find((t) => t.evidence.length === 4)!;
      assert.ok(normal, 'no season task against its own normal');
      const month = /strftime\('%m', "date"\) = '(\d\d)'/.exec(normal.evidence[1].code)![1];
      const deviations = [...files]
        .map(([season, rows]) => [season, mean(rows.filter((r) => r.month === month).map((r) => r.fthg)) - mean(rows.map((r) => r.fthg))] as const)
        .sort((a, b) => b[1] - a[1]);
      assert.deepEqual(normal.evidence[2].subAnswer!.key, { type: 'string', value: deviations[0][0] });
      assert.ok(matchesAnswer(normal.answer, String(deviations[0][1])), `${JSON.stringify(normal.answer)} vs ${deviations[0][1]}`);
    });

    it('finds no attribution: no calendar year or month of the seasons is complete', () => {
      const attribution = env.result.families.find((f) => f.id === 'attribution')!;
      assert.equal(attribution.candidates, 0);
    });
  });

  for (const [name, files] of [
    ['portal-permits', 9],
    ['wri-power-plants', 132],
  ] as const) {
    describe(`on ${name} (${files} partition files)`, () => {
      let env: Awaited<ReturnType<typeof poolOf>>;
      before(async () => {
        env = await poolOf(publicData(name));
      });
      after(async () => {
        await env?.session.dispose();
        if (env) fs.rmSync(path.dirname(env.db), { recursive: true, force: true });
      });

      it('builds partition tasks over the union view whose every step sqlite3 reproduces, and every task of the three is sound', () => {
        const partitions = byFamily(env.result, 'partition-compare');
        assert.ok(partitions.length >= 1, `no partition task on ${name}`);
        for (const task of partitions) assert.match(task.question, new RegExp(`^Across the ${files} files`));
        const all = [...env.result.tasks, ...env.result.unselected];
        assertWellFormed(all);
        assertStepsReexecute(all, env.db);
      });
    });
  }

  describe('on data built to be degenerate', () => {
    let dir: string;
    afterEach(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Two complete years of monthly sales per region, from a function of (year, month, region). */
    function salesFolder(amount: (year: number, month: number, region: string) => number): string {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-compA-sales-'));
      const lines = ['sale_id,sold_on,region,amount'];
      let id = 1;
      for (const year of [2022, 2023]) {
        for (let month = 1; month <= 12; month++) {
          for (const region of ['North', 'South', 'East', 'West']) {
            for (const day of [3, 11, 19]) lines.push(`${id++},${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')},${region},${amount(year, month, region).toFixed(2)}`);
          }
        }
      }
      fs.writeFileSync(path.join(dir, 'sales.csv'), lines.join('\n') + '\n');
      return dir;
    }

    async function attributionOf(folder: string): Promise<TaskSpec[]> {
      const session = await openAgentSession(folder);
      try {
        return (await buildTaskPool(session.toolContext, { max: 60, families: [attributionFamily] })).tasks;
      } finally {
        await session.dispose();
      }
    }

    it('attribution: no task when the total does not change, a share where the regions move together, the own change where they offset', async () => {
      const wobble = (month: number, region: string) => 100 + month * 3 + region.length * 7;
      assert.deepEqual(await attributionOf(salesFolder((_, month, region) => wobble(month, region))), []);
      fs.rmSync(dir, { recursive: true, force: true });

      const together = await attributionOf(salesFolder((year, month, region) => wobble(month, region) + (year === 2023 ? { North: 30, South: 10, East: 5, West: 2 }[region]! : 0)));
      assert.equal(together.length, 1);
      assert.match(together[0].question, /what percentage of the total change is its own change/);
      assert.deepEqual(together[0].evidence[2].subAnswer!.key, { type: 'string', value: 'North' });
      assert.ok(matchesAnswer(together[0].answer, String((100 * 30) / 47)), JSON.stringify(together[0].answer));
      fs.rmSync(dir, { recursive: true, force: true });

      // North +30 per sale, South −20: North's "share" would be 150% of the +20 change, so its own change is asked.
      const offset = await attributionOf(salesFolder((year, month, region) => wobble(month, region) + (year === 2023 ? { North: 30, South: -20, East: 5, West: 5 }[region]! : 0)));
      assert.equal(offset.length, 1);
      assert.match(offset[0].question, /by how much did its own (sum of amounts|total \w+ amount) change\?/);
      assert.ok(matchesAnswer(offset[0].answer, String(30 * 36)), JSON.stringify(offset[0].answer));
    });

    it('distribution: no threshold task when the top decile is a pile of ties at the cut-off', async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-compA-ties-'));
      const lines = ['item_id,segment,weight_kg'];
      for (let i = 1; i <= 200; i++) lines.push(`${i},${['a', 'b', 'c'][i % 3]},${i <= 30 ? i : 100}`);
      fs.writeFileSync(path.join(dir, 'items.csv'), lines.join('\n') + '\n');
      const session = await openAgentSession(dir);
      try {
        // A measure of 31 values, so it is the tie at the cut-off (the 90th percentile is 100, nothing lies above) that rejects it.
        const weight = session.env.semantics.columns.find((c) => c.table === 'items' && c.column === 'weight_kg')!;
        assert.equal(weight.role.value, 'measure');
        const result = await buildTaskPool(session.toolContext, { max: 60, families: [distributionSubsetFamily] });
        assert.deepEqual(result.tasks, []);
        assert.equal(result.families[0].candidates, 0);
      } finally {
        await session.dispose();
      }
    });
  });
});
