/**
 * The statistics, cohort and funnel compositions on real data: the bundled sample and three public fixtures. Every
 * SQL step is re-executed with sql.js on the environment image; every Python step's statistic is recomputed here,
 * in TypeScript, from rows sql.js reads, by the method the question states; each question passes the lint; and a
 * fixture without the shape a composition needs yields none of its tasks.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from 'sql.js';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { loadSqlJs } from '../../src/core/env/sqlJs';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { cohortFamilies, decimalsFor, fitLine, rankCorrelationIsSignal, slopeIsSignal, statisticsFamilies, tCritical } from '../../src/core/taskpool/families/index';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool, type TaskPoolResult } from '../../src/core/taskpool/pool';
import { reviewTaskByRules } from '../../src/core/taskpool/revise';
import type { AnswerKey, EvidenceStep, TaskSpec } from '../../src/core/taskpool/types';
import { materialize, publicFixture, PUBLIC_FIXTURES } from '../support/publicFixtures';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const families = [...statisticsFamilies, ...cohortFamilies];

interface Opened {
  session: AgentSession;
  pool: TaskPoolResult;
  /** The valid tasks, selected or not. */
  tasks: TaskSpec[];
  db: Database;
}

async function open(folder: string): Promise<Opened> {
  const session = await openAgentSession(folder);
  const pool = await buildTaskPool(session.toolContext, { families, max: 60 });
  const SQL = await loadSqlJs();
  return { session, pool, tasks: [...pool.tasks, ...pool.unselected], db: new SQL.Database(session.env.image) };
}

function rows(db: Database, sql: string): unknown[][] {
  const result = db.exec(sql);
  return result.length === 0 ? [] : result[result.length - 1].values;
}

const value = (key: AnswerKey | undefined) => (key?.type === 'number' ? key.value : key?.type === 'string' ? key.value : undefined);

function near(actual: number, key: AnswerKey | undefined, what: string): void {
  assert.ok(key?.type === 'number', `${what}: a number key`);
  assert.ok(Math.abs(actual - key.value) <= key.tolerance + 1e-9 * Math.abs(actual), `${what}: computed ${actual}, key ${key.value} ± ${key.tolerance}`);
}

/** The query a Python step reads through `read_all(...)`. */
function pythonQuery(step: EvidenceStep): string {
  const m = /read_all\((".*")\)$/m.exec(step.code);
  assert.ok(m, `a Python step that reads its rows: ${step.code.slice(0, 80)}`);
  return JSON.parse(m[1]) as string;
}

// ---- statistics written out here, independently of the Python the tasks carry -------------------------------------

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function ols(xs: number[], ys: number[]): { slope: number; intercept: number } {
  const mx = mean(xs);
  const my = mean(ys);
  const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return { slope, intercept: my - slope * mx };
}

function pearson(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Ranks 1..n, tied values given the mean of the ranks they span. */
function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function nextPeriod(p: string, grain: 'year' | 'month'): string {
  if (grain === 'year') return String(Number(p) + 1);
  const [y, m] = p.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The periods the question names: "from A to B", or every period in the data less the partial ones it lists. */
function periodsOfQuestion(question: string, present: string[]): string[] {
  const range = /from (\d{4}(?:-\d{2})?) to (\d{4}(?:-\d{2})?)/.exec(question);
  if (range) return present.filter((p) => p >= range[1] && p <= range[2]);
  const left = /leaving out the partial (?:years?|months?) ([^.]+?)\./.exec(question);
  const out = new Set(left ? left[1].split(/, | and /) : []);
  return present.filter((p) => !out.has(p));
}

describe('task pool compositions: SQL then Python statistics, cohorts and funnels', function () {
  this.timeout(900_000);
  const opened = new Map<string, Opened>();
  const cleanups: Array<() => void> = [];

  before(async () => {
    opened.set('sample', await open(path.join(repoRoot, 'media', 'samples', 'retail')));
    const orders = await materialize(publicFixture('oracle-customer-orders'));
    cleanups.push(orders.cleanup);
    opened.set('oracle-customer-orders', await open(orders.root));
    opened.set('vega-us-budget', await open(path.join(PUBLIC_FIXTURES, 'vega-us-budget', 'data')));
  });

  after(async () => {
    for (const o of opened.values()) {
      o.db.close();
      await o.session.dispose();
    }
    for (const c of cleanups) c();
  });

  const all = () => [...opened.entries()].flatMap(([name, o]) => o.tasks.map((task) => ({ name, task, o })));
  const ofFamily = (family: string) => all().filter((x) => x.task.family === family);

  it('builds each composition where the data has its shape, and the pool keeps them all', () => {
    const made = (name: string) => new Set(opened.get(name)!.tasks.map((t) => t.family));
    for (const family of ['stats-trend', 'stats-moving-average', 'stats-zscore', 'stats-spearman', 'stats-effect-size', 'cohort-retention', 'funnel']) assert.ok(made('sample').has(family), `the sample has a ${family} task`);
    for (const family of ['cohort-retention', 'funnel', 'stats-trend']) assert.ok(made('oracle-customer-orders').has(family), `oracle-customer-orders has a ${family} task`);
    for (const family of ['stats-trend', 'stats-growth', 'stats-spearman', 'stats-zscore']) assert.ok(made('vega-us-budget').has(family), `vega-us-budget has a ${family} task`);
    // Every candidate passes the pool's replay of every step; only near-duplicates of a kept task are dropped.
    for (const [name, o] of opened) {
      for (const r of o.pool.rejected) assert.ok(r.reasons.every((reason) => reason.startsWith('near-duplicate')), `${name}: ${r.question} rejected: ${r.reasons.join('; ')}`);
    }
  });

  it('makes programs of 3–5 executed steps, each with a sub-answer, later steps using earlier ones, in lint-clean questions', () => {
    for (const { name, task } of all()) {
      assert.ok(task.evidence.length >= 3 && task.evidence.length <= 5, `${name} ${task.family}: ${task.evidence.length} steps`);
      assert.equal(task.program?.steps, task.evidence.length);
      assert.ok(task.evidence.every((s) => s.subAnswer && s.subAnswer.label.length > 0), `${task.id}: a sub-answer per step`);
      assert.ok(task.evidence.slice(1).every((s) => (s.uses ?? []).length > 0), `${task.id}: every later step uses an earlier one`);
      assert.deepEqual(task.answer, task.evidence[task.evidence.length - 1].subAnswer!.key);
      assert.deepEqual(lintQuestion(task.question), [], `${name}: ${task.question}`);
      if (task.family.startsWith('stats-')) assert.ok(task.evidence.some((s) => s.tool === 'run_python'), `${task.id}: a Python step`);
      const text = value(task.answer);
      if (typeof text === 'string' && text.length >= 3) assert.ok(!task.question.includes(text), `${task.question} gives away ${text}`);
    }
  });

  it('re-executes every SQL step with sql.js to its sub-answer', () => {
    for (const { task, o } of all()) {
      for (const [i, step] of task.evidence.entries()) {
        if (step.tool !== 'run_sql') continue;
        const result = rows(o.db, step.code);
        assert.ok(result.length > 0, `${task.id} step ${i + 1} returns rows`);
        assert.ok(matchesAnswer(step.subAnswer!.key, String(result[0][0])), `${task.id} step ${i + 1}: ${String(result[0][0])} vs ${JSON.stringify(step.subAnswer!.key)}`);
      }
    }
  });

  it('trend: the least-squares slope and the projection, recomputed from raw rows over the periods the question names', () => {
    const tasks = ofFamily('stats-trend');
    assert.ok(tasks.length >= 2);
    for (const { task, o } of tasks) {
      const grain = /months numbered/.test(task.question) ? 'month' : 'year';
      const sql = pythonQuery(task.evidence[1]);
      const series = rows(o.db, sql).map((r) => [String(r[0]), Number(r[1])] as const);
      const named = periodsOfQuestion(task.question, series.map((s) => s[0]));
      assert.deepEqual(series.map((s) => s[0]), named, 'the Python step reads exactly the periods the question names');
      const xs = grain === 'year' ? series.map((s) => Number(s[0])) : series.map((_, i) => i + 1);
      const fit = ols(xs, series.map((s) => s[1]));
      near(fit.slope, task.evidence[1].subAnswer!.key, `${task.id} slope`);
      const target = /give for (\d{4}(?:-\d{2})?)\?/.exec(task.question)![1];
      assert.equal(target, nextPeriod(series[series.length - 1][0], grain));
      near(fit.intercept + fit.slope * (grain === 'year' ? Number(target) : xs.length + 1), task.answer, `${task.id} projection`);
      // The slope the task rests on passes the t-test of the slope (p < 0.05).
      assert.ok(slopeIsSignal(fitLine(xs, series.map((s) => s[1]))));
    }
  });

  it('trend: the rules reviser keeps every projection as built — the period it names is in the code, and a Python constant is no threshold', async () => {
    const tasks = ofFamily('stats-trend');
    assert.ok(tasks.some(({ task }) => /year as x/.test(task.question)), 'a yearly trend');
    for (const { task, o } of tasks) {
      const target = /give for (\d{4}(?:-\d{2})?)\?/.exec(task.question)![1];
      assert.ok(task.evidence[task.evidence.length - 1].code.includes(target), `${task.id}: the projection's code names ${target}`);
      const review = await reviewTaskByRules({ task, profile: o.session.env.profile, graph: o.pool.graph, context: o.session.toolContext, paths: [] });
      assert.equal(review.decision, 'keep', `${task.id}: ${JSON.stringify(review.findings)}`);
    }
  });

  it('growth and moving average: the top year and the peak month, recomputed from raw rows', () => {
    const growth = ofFamily('stats-growth');
    const moving = ofFamily('stats-moving-average');
    assert.ok(growth.length >= 1 && moving.length >= 1);
    for (const { task, o } of [...growth, ...moving]) {
      const grain = task.family === 'stats-growth' ? 'year' : 'month';
      const sql = pythonQuery(task.evidence[1]);
      const series = rows(o.db, sql).map((r) => [String(r[0]), Number(r[1])] as const);
      // Every period of the table, complete or not: the question names the ones it leaves out (or none).
      const [, period, table, date] = /^SELECT (.+?) AS (?:year|month), .+? FROM ("[^"]+") WHERE (.+?) IS NOT NULL AND /.exec(sql)!;
      const present = rows(o.db, `SELECT DISTINCT ${period} FROM ${table} WHERE ${date} IS NOT NULL ORDER BY 1`).map((r) => String(r[0]));
      assert.deepEqual(series.map((s) => s[0]), periodsOfQuestion(task.question, present), task.question);
      // Consecutive periods: "the year before" and "the two months before" are the rows before.
      for (let i = 1; i < series.length; i++) assert.equal(series[i][0], nextPeriod(series[i - 1][0], grain));
      const scored =
        grain === 'year'
          ? series.slice(1).map((s, i) => [s[0], (100 * (s[1] - series[i][1])) / series[i][1]] as const)
          : series.slice(2).map((s, i) => [s[0], (series[i][1] + series[i + 1][1] + s[1]) / 3] as const);
      const top = [...scored].sort((a, b) => b[1] - a[1])[0];
      near(top[1], task.evidence[1].subAnswer!.key, `${task.id} top value`);
      assert.equal(value(task.answer), top[0], `${task.id}: ${task.question}`);
    }
  });

  it('z-score: the furthest group and its z (population SD), recomputed from the group totals', () => {
    const tasks = ofFamily('stats-zscore');
    assert.ok(tasks.length >= 3);
    for (const { task, o } of tasks) {
      const totals = rows(o.db, pythonQuery(task.evidence[1])).map((r) => [r[0], Number(r[1])] as const);
      const m = mean(totals.map((t) => t[1]));
      const sd = Math.sqrt(mean(totals.map((t) => (t[1] - m) ** 2)));
      const furthest = [...totals].sort((a, b) => Math.abs(b[1] - m) - Math.abs(a[1] - m))[0];
      assert.equal(String(furthest[0]), value(task.evidence[0].subAnswer!.key));
      near(sd, task.evidence[1].subAnswer!.key, `${task.id} sd`);
      near((furthest[1] - m) / sd, task.answer, `${task.id} z`);
      assert.ok(Math.abs((furthest[1] - m) / sd) >= 1.5);
    }
  });

  it('Spearman: Pearson, Spearman (average ranks) and their difference, recomputed from the raw pairs', () => {
    const tasks = ofFamily('stats-spearman');
    assert.ok(tasks.length >= 2);
    for (const { task, o } of tasks) {
      // The Python step reads (x, y, count) groups; expand them and compute over the rows themselves.
      const groups = rows(o.db, pythonQuery(task.evidence[1]));
      const xs: number[] = [];
      const ys: number[] = [];
      for (const [x, y, k] of groups) for (let i = 0; i < Number(k); i++) (xs.push(Number(x)), ys.push(Number(y)));
      assert.equal(xs.length, value(task.evidence[0].subAnswer!.key));
      const r = pearson(xs, ys);
      const rho = pearson(ranks(xs), ranks(ys));
      near(r, task.evidence[1].subAnswer!.key, `${task.id} r`);
      near(rho, task.evidence[2].subAnswer!.key, `${task.id} rho`);
      near(rho - r, task.answer, `${task.id} rho - r`);
      assert.ok(rankCorrelationIsSignal(rho, xs.length) && Math.abs(rho - r) >= 0.05 - 1e-4);
    }
  });

  it("effect size: Cohen's d with the pooled sample SD, recomputed from the two groups' rows", () => {
    const tasks = ofFamily('stats-effect-size');
    assert.ok(tasks.length >= 2);
    for (const { task, o } of tasks) {
      const byGroup = new Map<string, number[]>();
      for (const [g, x, k] of rows(o.db, pythonQuery(task.evidence[1]))) for (let i = 0; i < Number(k); i++) byGroup.set(String(g), [...(byGroup.get(String(g)) ?? []), Number(x)]);
      assert.equal(byGroup.size, 2);
      const [a, b] = [...byGroup.values()].sort((p, q) => mean(q) - mean(p));
      assert.ok(a.length >= 10 && b.length >= 10);
      const variance = (xs: number[]) => xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1);
      const pooled = Math.sqrt(((a.length - 1) * variance(a) + (b.length - 1) * variance(b)) / (a.length + b.length - 2));
      near(mean(a), task.evidence[0].subAnswer!.key, `${task.id} higher mean`);
      near(mean(a) - mean(b), task.evidence[1].subAnswer!.key, `${task.id} difference`);
      near(pooled, task.evidence[2].subAnswer!.key, `${task.id} pooled sd`);
      near((mean(a) - mean(b)) / pooled, task.answer, `${task.id} d`);
      assert.ok(Math.abs(task.answer.type === 'number' ? task.answer.value : 0) >= 0.2);
    }
  });

  it('cohort retention: recomputed from the raw events by the definitions the question states', () => {
    const tasks = ofFamily('cohort-retention');
    assert.ok(tasks.length >= 3, `cohort tasks: ${tasks.length}`);
    for (const { task, o } of tasks) {
      // The table, entity and time column, as the first step's SQL reads them.
      const m = /SELECT "([^"]+)" AS entity, MIN\("([^"]+)"\) AS first_at FROM "([^"]+)"/.exec(task.evidence[0].code);
      assert.ok(m, task.evidence[0].code);
      const [, entity, time, table] = m;
      const events = new Map<string, string[]>();
      for (const [e, t] of rows(o.db, `SELECT "${entity}", "${time}" FROM "${table}" WHERE "${entity}" IS NOT NULL AND "${time}" IS NOT NULL`)) events.set(String(e), [...(events.get(String(e)) ?? []), String(t)]);
      const [, from, to] = /from (\d{4}-\d{2}) to (\d{4}-\d{2})/.exec(task.question)!;
      const minimum = Number(/at least (\d+)/.exec(task.question)![1]);
      const window = /within (\d+) days/.exec(task.question);
      const day = (t: string) => Date.parse(`${t.replace(' ', 'T').slice(0, 19)}Z`) / 86_400_000;
      const cohorts = new Map<string, { size: number; retained: number }>();
      for (const times of events.values()) {
        const sorted = [...times].sort();
        const first = sorted[0];
        const cohort = first.slice(0, 7);
        if (cohort < from || cohort > to) continue;
        const next = nextPeriod(cohort, 'month');
        const back = window ? sorted.some((t) => t > first && day(t) - day(first) <= Number(window[1])) : sorted.some((t) => t.slice(0, 7) === next);
        const c = cohorts.get(cohort) ?? { size: 0, retained: 0 };
        c.size++;
        if (back) c.retained++;
        cohorts.set(cohort, c);
      }
      const kept = [...cohorts.entries()].filter(([, c]) => c.size >= minimum);
      const pooled = (100 * kept.reduce((s, [, c]) => s + c.retained, 0)) / kept.reduce((s, [, c]) => s + c.size, 0);
      const best = [...kept].sort((a, b) => b[1].retained / b[1].size - a[1].retained / a[1].size)[0];
      near(pooled, task.evidence[1].subAnswer!.key, `${task.id} pooled`);
      assert.equal(value(task.evidence[2].subAnswer!.key), best[0]);
      near((100 * best[1].retained) / best[1].size - pooled, task.answer, `${task.id} gap`);
    }
  });

  it('funnel: the stage with the largest drop-off, recomputed from the statuses in the order the question gives', () => {
    const tasks = ofFamily('funnel');
    assert.ok(tasks.length >= 2);
    for (const { task, o } of tasks) {
      const [, statusSql, table] = /SUM\(CASE WHEN c\."([^"]+)" IN .* FROM "([^"]+)" AS c/.exec(task.evidence[0].code)!;
      // "(all orders, then 'a', 'b', 'c')" or "('a', then 'b', 'c')": the stages in the order the question gives.
      const inside = /as a funnel \(([^)]*)\)/.exec(task.question)![1];
      const stages = [...inside.matchAll(/'([^']+)'/g)].map((x) => x[1]);
      const entry = !inside.startsWith('all ');
      const statuses = rows(o.db, `SELECT "${statusSql}" FROM "${table}" WHERE "${statusSql}" IS NOT NULL`).map((r) => String(r[0]));
      // Reached stage k: the status is stage k or later; without an entry status every row enters first.
      const chain = entry ? stages : ['(entry)', ...stages];
      const reached = chain.map((_, k) => (k === 0 ? statuses.length : statuses.filter((s) => stages.indexOf(s) >= stages.indexOf(chain[k])).length));
      const drops = chain.slice(1).map((stage, i) => [stage, (100 * (reached[i] - reached[i + 1])) / reached[i]] as const);
      const worst = [...drops].sort((a, b) => b[1] - a[1])[0];
      near((100 * reached[reached.length - 1]) / statuses.length, task.evidence[0].subAnswer!.key, `${task.id} conversion`);
      assert.equal(value(task.evidence[1].subAnswer!.key), worst[0]);
      near(worst[1], task.evidence[2].subAnswer!.key, `${task.id} worst drop-off`);
    }
  });

  it('yields no task where the data lacks the shape: no time or events in Minard, unknown statuses are no funnel', async () => {
    const minard = await openAgentSession(path.join(PUBLIC_FIXTURES, 'stdlib-minard', 'data'));
    try {
      const pool = await buildTaskPool(minard.toolContext, { families });
      const made = new Set(pool.tasks.map((t) => t.family));
      for (const family of ['stats-trend', 'stats-growth', 'stats-moving-average', 'cohort-retention', 'funnel']) {
        assert.ok(!made.has(family), `no ${family} task on Minard's data (no dates, no events)`);
        assert.match(pool.families.find((f) => f.id === family)!.note ?? '', /none of what it needs/);
      }
    } finally {
      await minard.dispose();
    }
    // A status with a value outside the lifecycle vocabulary ('on hold') is not read as a funnel; customers who
    // never come back make no retention signal.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-compositions-'));
    const lines = ['ticket_id,customer_id,opened_at,status,amount'];
    for (let i = 0; i < 400; i++) {
      const status = ['open', 'on hold', 'closed', 'closed'][i % 4];
      lines.push(`T${i},C${i % 100},2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}T10:00:00,${status},${(i * 7) % 50}`);
    }
    fs.writeFileSync(path.join(dir, 'tickets.csv'), lines.join('\n'));
    const tickets = await openAgentSession(dir);
    try {
      const pool = await buildTaskPool(tickets.toolContext, { families: cohortFamilies });
      assert.ok(!pool.tasks.some((t) => t.family === 'funnel'), 'no funnel over a status with an unknown stage');
    } finally {
      await tickets.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tests of signal: t critical values, the slope test, rank correlations and rounding', () => {
    assert.equal(tCritical(1), 12.706);
    assert.equal(tCritical(10), 2.228);
    assert.equal(tCritical(1000), 1.98);
    assert.ok(tCritical(45) >= 2.0 && tCritical(45) <= 2.021);
    // A clean line passes; a flat series with noise does not.
    assert.ok(slopeIsSignal(fitLine([1, 2, 3, 4, 5, 6], [10, 12, 13.9, 16.2, 18, 20.1])));
    assert.ok(!slopeIsSignal(fitLine([1, 2, 3, 4, 5, 6], [10, 12, 9, 11, 10, 12])));
    assert.ok(!slopeIsSignal(fitLine([1, 2, 3, 4], [1, 2, 3, 4])), 'four points are too few');
    const fit = fitLine([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    assert.ok(Math.abs(fit.slope - 0.6) < 1e-12 && Math.abs(fit.intercept - 2.2) < 1e-12);
    assert.ok(rankCorrelationIsSignal(0.5, 40));
    assert.ok(!rankCorrelationIsSignal(0.2, 40), 't = 1.26 at 38 df');
    assert.ok(!rankCorrelationIsSignal(0.05, 10_000), 'a tiny correlation is no signal however many pairs');
    assert.equal(decimalsFor(614.01), 2);
    assert.equal(decimalsFor(0.00123), 5);
    assert.equal(decimalsFor(12_973_617_048_245), 0);
  });
});
