/**
 * SQL, then Python statistics (standard library only): SQL aggregates the data, Python computes a statistic from
 * it, and a last step interprets or compares. Six kinds, each only where the semantic profile allows it:
 *
 *   trend           total per complete year (or month) → least-squares slope → the line's value for the next period
 *                   (kept when the slope passes a t-test at p < 0.05, two-sided, n − 2 degrees of freedom)
 *   spearman        pairs counted → Pearson r → Spearman ρ (average ranks) → ρ − r
 *                   (kept when ρ passes the t-test of a correlation and differs from r by ≥ 0.05)
 *   z-score         total per group (5–50 groups) → the group furthest from the mean → population SD → its z
 *                   (kept when |z| ≥ 1.5 and the group is clearly the furthest)
 *   moving-average  total per complete month → the highest 3-month trailing moving average → its month
 *   growth          total per complete year → the highest year-over-year growth → its year (a clear top year)
 *   effect-size     mean per group of a flag or 2-valued dimension (≥ 10 rows each) → difference → pooled SD →
 *                   Cohen's d (kept when |d| ≥ 0.2)
 *
 * Python reads its rows through `sql()` in pages (the sandbox caps a result at its row limit), and reads them
 * compressed where it can (`GROUP BY value` with a count), so it stays far inside the sandbox's time limit.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { DEFAULT_MAX_ROWS } from '../../sandbox/limits';
import { pearson } from '../../semantics/relationships';
import { lintQuestion } from '../lint';
import type { TaskSpec } from '../types';
import {
  averageRankSql,
  constructedLink,
  decidingMeasures,
  pearsonSql,
  additivityOf,
  aggregateOf,
  clearLeader,
  coverageChanges,
  cutOfTime,
  derivedPair,
  sameChildCount,
  fullPeriods,
  groupingName,
  groupingsOf,
  measureName,
  measures,
  humanize,
  num,
  pythonTextStep,
  q,
  query,
  things,
  semanticsOf,
  sourceOf,
  sqlLiteral,
  taskTables,
  TaskProgram,
  timeColumns,
  type FamilyContext,
  type Grouping,
  type TaskFamily,
  type TimeColumn,
  flagMark,
  knownWords,
  rowsCount,
  columnPhrase,
  NOT_KNOWN_CATEGORY,
} from './kit';

const COMPOSITION = 'sql-python-statistics';
/** Above this Pearson's r between the groups' totals and their row counts, a z-score of totals only restates the counts. */
const MAX_TOTAL_COUNT_R = 0.9;

/** "Round to 2 decimals." / "Round to the nearest whole number." */
const rounding = (decimals: number) => (decimals === 0 ? 'Round to the nearest whole number.' : `Round to ${decimals} decimals.`);

/** The question, when it passes the lint (a name that reads badly in it drops the candidate). */
const linted = (question: string) => (lintQuestion(question).length === 0 ? question : undefined);

// ---- statistics the generator checks before it writes a task ---------------------------------------------------

/** Two-sided 5% critical values of Student's t by degrees of freedom (1–30); beyond, the value of the band below. */
const T_CRITICAL = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** The t a statistic must reach for p < 0.05 (two-sided) at `df` degrees of freedom (rounded towards fewer df). */
export function tCritical(df: number): number {
  if (df < 1) return Infinity;
  if (df <= 30) return T_CRITICAL[Math.floor(df) - 1];
  return df < 40 ? 2.042 : df < 60 ? 2.021 : df < 120 ? 2.0 : 1.98;
}

export interface LineFit {
  slope: number;
  intercept: number;
  /** Student's t of the slope: slope / its standard error. */
  t: number;
  n: number;
}

/** Ordinary least squares of y on x. */
export function fitLine(xs: number[], ys: number[]): LineFit {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) ** 2;
    sxy += (xs[i] - mx) * (ys[i] - my);
  }
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i] - intercept - slope * xs[i]) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  return { slope, intercept, t: se === 0 ? (slope === 0 ? 0 : Infinity) : slope / se, n };
}

/** A slope that is more than noise: the t-test of the slope at p < 0.05 over at least 5 points. */
export function slopeIsSignal(fit: LineFit): boolean {
  return fit.n >= 5 && Number.isFinite(fit.slope) && fit.slope !== 0 && Math.abs(fit.t) >= tCritical(fit.n - 2);
}

/** A rank correlation that is more than noise: |ρ| ≥ 0.1 and its t (ρ √((n − 2) / (1 − ρ²))) at p < 0.05. */
export function rankCorrelationIsSignal(rho: number, n: number): boolean {
  if (!Number.isFinite(rho) || n < 30 || Math.abs(rho) >= 1 || Math.abs(rho) < 0.1) return false;
  return Math.abs(rho * Math.sqrt((n - 2) / (1 - rho * rho))) >= tCritical(n - 2);
}

/**
 * Decimals that keep at least three significant digits of a value (2 at least, 6 at most); none for values of a
 * million or more, where a cent is below the precision the sums themselves carry.
 */
export function decimalsFor(value: number): number {
  if (!Number.isFinite(value) || value === 0) return 2;
  if (Math.abs(value) >= 1e6) return 0;
  return Math.min(6, Math.max(2, 2 - Math.floor(Math.log10(Math.abs(value)))));
}

// ---- Python text -----------------------------------------------------------------------------------------------

/**
 * Python that defines `read_all(query)`: every row of a query as a list of tuples, read in pages of the sandbox's
 * row cap (a stable ORDER BY in the query makes OFFSET exact); it stops at an empty page, so a lower cap only
 * costs more pages.
 */
const READ_ALL = [
  'def read_all(query):',
  `    page = ${DEFAULT_MAX_ROWS}`,
  '    rows = []',
  '    while True:',
  '        _, batch = sql_columns(f"{query} LIMIT {page} OFFSET {len(rows)}")',
  '        if not batch:',
  '            return rows',
  '        rows += [tuple(r) for r in batch]',
];

const py = (lines: string[]) => [...READ_ALL, ...lines].join('\n');

/** Weighted mean, variance and ranks over (value, count) rows: what the Python steps share. */
const WEIGHTED = [
  'def average_ranks(values, counts):',
  '    # Rank of each distinct value, ties given their average rank (1-based).',
  '    order = sorted(set(values))',
  '    total = {}',
  '    for v, k in zip(values, counts):',
  '        total[v] = total.get(v, 0) + k',
  '    rank, seen = {}, 0',
  '    for v in order:',
  '        rank[v] = seen + (total[v] + 1) / 2',
  '        seen += total[v]',
  '    return [rank[v] for v in values]',
  'def pearson(xs, ys, ks):',
  '    n = sum(ks)',
  '    mx = sum(x * k for x, k in zip(xs, ks)) / n',
  '    my = sum(y * k for y, k in zip(ys, ks)) / n',
  '    sxy = sum((x - mx) * (y - my) * k for x, y, k in zip(xs, ys, ks))',
  '    sxx = sum((x - mx) ** 2 * k for x, k in zip(xs, ks))',
  '    syy = sum((y - my) ** 2 * k for y, k in zip(ys, ks))',
  '    return sxy / math.sqrt(sxx * syy)',
];

// ---- what the kinds are built from -----------------------------------------------------------------------------

/** A total per period over the complete, consecutive periods of a table. */
interface Series {
  table: TableProfile;
  time: TimeColumn;
  grain: 'year' | 'month';
  /** `SUM("amount")` or `COUNT(*)`. */
  value: string;
  /** "total revenue", "number of rentals". */
  what: string;
  measure?: ColumnProfile;
  /** The complete periods, in order ('2013', … or '2023-01', …). */
  periods: string[];
  /** Periods in the data left out as partial. */
  partial: string[];
  /** The time column as a question names it ("filing date"). */
  timePhrase: string;
  totals: number[];
  /** `strftime('%Y', <date>)`. */
  period: string;
}

const nextPeriod = (p: string, grain: 'year' | 'month') => {
  if (grain === 'year') return String(Number(p) + 1);
  const [y, m] = p.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

const grainWord = (grain: 'year' | 'month', count: 'one' | 'many') => (grain === 'year' ? (count === 'one' ? 'year' : 'years') : count === 'one' ? 'month' : 'months');

/** The measures a series or a group total adds up: additive measures, then the rows themselves (for dated events). */
function totals(context: FamilyContext, table: TableProfile, options: { counts: boolean }): Array<{ value: (alias: string) => string; what: string; measure?: ColumnProfile }> {
  const found: Array<{ value: (alias: string) => string; what: string; measure?: ColumnProfile }> = measures(context, table, { additiveOnly: true })
    .slice(0, 2)
    .map((m) => ({ value: (alias: string) => `SUM(${alias}${q(m.name)})`, what: aggregateOf(context, table.name, m).phrase, measure: m }));
  if (options.counts && rowsCount(context, table)) found.push({ value: () => 'COUNT(*)', what: `number of ${things(context, table, 'many')}` });
  return found;
}

/**
 * Whether counting a table's rows per period counts events: the rows are dated to a day or a moment and are things
 * with a key (orders, rentals), not one measurement per day (a weather table has no key).
 */
const datesEvents = (context: FamilyContext, table: TableProfile, time: TimeColumn) =>
  (time.grain === 'day' || time.grain === 'datetime') && table.columns.some((c) => c !== time.column && semanticsOf(context, table.name, c.name)?.role.value === 'identifier');

/** The series of a table's totals over its complete consecutive periods (at least `min`), or undefined. */
async function seriesOf(context: FamilyContext, table: TableProfile, time: TimeColumn, grain: 'year' | 'month', total: { value: (alias: string) => string; what: string; measure?: ColumnProfile }, min: number): Promise<Series | undefined> {
  if (grain === 'month' && time.grain === 'year') return undefined;
  const full = await fullPeriods(context, table, time, grain);
  if (full.length < min) return undefined;
  const period = `strftime('${grain === 'year' ? '%Y' : '%Y-%m'}', ${time.date})`;
  const t = q(table.name);
  const rows = await query(context, `SELECT ${period} AS period, ${total.value('')} AS total, COUNT(*) AS n FROM ${t} WHERE ${time.date} IS NOT NULL GROUP BY 1 ORDER BY 1`);
  if (!rows) return undefined;
  const fullSet = new Set(full);
  const present = rows.filter((r) => r[0] !== null).map((r) => String(r[0]));
  // The complete periods must be consecutive: a gap (a missing or partial period between complete ones) would make
  // "the next period" and "year over year" say something else.
  for (let i = 1; i < full.length; i++) if (nextPeriod(full[i - 1], grain) !== full[i]) return undefined;
  const partial = present.filter((p) => !fullSet.has(p));
  // A partition's union view pools its files: where the files reporting change from period to period, a pooled total
  // follows the coverage, not the quantity.
  if (await coverageChanges(context, table, period, full, total.measure)) return undefined;
  const values = rows.filter((r) => fullSet.has(String(r[0]))).map((r) => num(r[1]));
  if (values.length !== full.length || values.some((v) => !Number.isFinite(v))) return undefined;
  // A table of one row a period (a budget's sheet, one row a year): its figure of a year is that row's, no total of
  // several, "the ocean sink", not "the total ocean sink" nor "the sum of totals".
  const what = total.measure && rows.every((r) => Number(r[2]) === 1) ? columnPhrase(context, table.name, total.measure) : total.what;
  return { table, time, grain, value: total.value(''), what, measure: total.measure, periods: full, partial, totals: values, period, timePhrase: columnPhrase(context, table.name, time.column) };
}

/** Candidate series of the task tables: each table's first time column that yields one, per total. */
async function allSeries(context: FamilyContext, grain: 'year' | 'month', min: number): Promise<Series[]> {
  const found: Series[] = [];
  for (const table of taskTables(context)) {
    for (const time of timeColumns(context, table)) {
      let made = false;
      for (const total of totals(context, table, { counts: datesEvents(context, table, time) })) {
        const s = await seriesOf(context, table, time, grain, total, min);
        if (s) {
          found.push(s);
          made = true;
        }
      }
      if (made) break;
    }
  }
  return found;
}

/** The rows of a series as SQL: one row per complete period, `period` and `total`. */
function seriesSql(s: Series, order: string): string {
  const first = sqlLiteral(s.periods[0]);
  const last = sqlLiteral(s.periods[s.periods.length - 1]);
  return `SELECT ${s.period} AS ${s.grain}, ${s.value} AS total FROM ${q(s.table.name)} WHERE ${s.time.date} IS NOT NULL AND ${s.period} BETWEEN ${first} AND ${last} GROUP BY 1 ORDER BY ${order}`;
}

/** "the partial years 2012 and 2020 left out" / "" (when every period in the data is complete). */
function partialClause(s: Series): string {
  if (s.partial.length === 0) return '';
  const list = s.partial.length === 1 ? s.partial[0] : `${s.partial.slice(0, -1).join(', ')} and ${s.partial[s.partial.length - 1]}`;
  return `leaving out the partial ${grainWord(s.grain, s.partial.length === 1 ? 'one' : 'many')} ${list}`;
}

const timeName = (s: Series) => s.time.column.originalName || s.time.column.name;
const seriesParameters = (s: Series, kind: string) => ({ kind, table: s.table.name, time: s.time.column.name, grain: s.grain, measure: s.measure?.name ?? null });

/** Step 1 of the series kinds: the totals of the complete periods, highest first; the peak period is the sub-answer. */
async function peakStep(program: TaskProgram, s: Series) {
  const first = await program.sql(`SELECT ${s.grain}, ROUND(total, 2) AS total FROM (${seriesSql(s, `1`)}) ORDER BY total DESC, ${s.grain}`, `${s.what} per complete ${grainWord(s.grain, 'one')} (by ${humanTime(s)}), highest first`, {
    label: `the complete ${grainWord(s.grain, 'one')} with the highest ${s.what}`,
    reading: { kind: 'string' },
  });
  if (!first || !clearLeader(first.rows, 1, 0.01)) return undefined;
  return first;
}

const humanTime = (s: Series) => s.timePhrase;

/** " (by ordered at)" where the table has several time columns, so the question says which one dates the rows. */
const byTime = (context: FamilyContext, s: Series) => (timeColumns(context, s.table).length > 1 && humanTime(s) !== s.grain ? ` (by ${humanTime(s)})` : '');

// ---- trend: a least-squares slope, then the line's value for the next period ----------------------------------

export const statisticsTrendFamily: TaskFamily = {
  id: 'stats-trend',
  description: 'A least-squares line through the total per complete year (or month), and the value it gives for the next period.',
  needs: 'an additive measure (or dated events to count) over at least 5 consecutive complete years or 12 complete months, with a slope that passes a t-test',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    const candidates = [...(await allSeries(context, 'year', 5)), ...(await allSeries(context, 'month', 12))];
    const used = new Set<string>();
    for (const s of candidates) {
      if (tasks.length >= context.maxPerFamily) break;
      if (used.has(`${s.table.name}:${s.grain}`)) continue;
      const xs = s.periods.map((_, i) => i + 1);
      const fit = fitLine(xs, s.totals);
      if (!slopeIsSignal(fit)) continue;
      const task = await trend(context, s, fit);
      if (task) {
        tasks.push(task);
        used.add(`${s.table.name}:${s.grain}`);
      }
    }
    return tasks;
  },
};

async function trend(context: FamilyContext, s: Series, fit: LineFit): Promise<TaskSpec | undefined> {
  const program = new TaskProgram(context, COMPOSITION);
  if (!(await peakStep(program, s))) return undefined;
  const next = nextPeriod(s.periods[s.periods.length - 1], s.grain);
  const projection = fit.intercept + fit.slope * (s.periods.length + 1);
  const slopeDecimals = decimalsFor(fit.slope);
  const decimals = decimalsFor(projection);
  // x is the period's position (1, 2, …): for years, the year itself gives the same slope and the same projection.
  const x = s.grain === 'year' ? 'xs = [int(r[0]) for r in rows]' : 'xs = list(range(1, len(rows) + 1))';
  const fitLines = [
    'import math',
    `rows = read_all(${JSON.stringify(seriesSql(s, '1'))})`,
    x,
    'ys = [float(r[1]) for r in rows]',
    'n = len(xs)',
    'mx = sum(xs) / n',
    'my = sum(ys) / n',
    'slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)',
    'intercept = my - slope * mx',
  ];
  const per = grainWord(s.grain, 'one');
  const slope = await program.python(py([...fitLines, `print(round(slope, ${slopeDecimals}))`]), `Fit a least-squares line to the ${s.what} per ${per} in Python; its slope`, {
    label: `the least-squares slope of the ${s.what} per ${per}`,
    reading: { kind: 'printed-number', decimals: slopeDecimals },
    uses: [0],
  });
  if (!slope || slope.key.type !== 'number' || Math.abs(slope.key.value - fit.slope) > 0.5 * 10 ** -slopeDecimals + 1e-9 * Math.abs(fit.slope)) return undefined;
  // The period the question names is written in the code (a year as itself, a month by its position and name).
  const nextX = s.grain === 'year' ? String(next) : `n + 1  # ${next}`;
  const projected = await program.python(py([...fitLines, `x_next = ${nextX}`, `print(round(intercept + slope * x_next, ${decimals}))`]), `The fitted line's value for ${next}`, {
    label: `the value the line gives for ${next}`,
    reading: { kind: 'printed-number', decimals },
    uses: [0, 1],
  });
  if (!projected || projected.key.type !== 'number' || Math.abs(projected.key.value - projection) > Math.max(0.5 * 10 ** -decimals, 1e-9 * Math.abs(projection))) return undefined;

  const first = s.periods[0];
  const last = s.periods[s.periods.length - 1];
  const xWords = s.grain === 'year' ? 'year as x' : `months numbered 1, 2, … from ${first}`;
  const question = `Fit an ordinary least-squares line (${xWords}) to the ${s.what} per ${per}${byTime(context, s)} over the complete ${grainWord(s.grain, 'many')} from ${first} to ${last}. What value does the line give for ${next}? ${rounding(decimals)}`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsTrendFamily.id, parameters: seriesParameters(s, 'trend'), question, tables: [s.table.name], dependency: 'change-over-time', needs: statisticsTrendFamily.needs });
}

// ---- year-over-year growth: the year that grew the most -------------------------------------------------------

export const statisticsGrowthFamily: TaskFamily = {
  id: 'stats-growth',
  description: 'The year-over-year growth of a total over complete years, computed in Python, and the year that grew the most.',
  needs: 'an additive measure (or dated events to count) with positive totals over at least 4 consecutive complete years, and a clear top year of growth',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    const used = new Set<string>();
    for (const s of await allSeries(context, 'year', 4)) {
      if (tasks.length >= context.maxPerFamily) break;
      if (used.has(s.table.name) || s.totals.some((v) => v <= 0) || s.partial.length > 3) continue;
      const growth = s.totals.slice(1).map((v, i) => (100 * (v - s.totals[i])) / s.totals[i]);
      const sorted = [...growth].sort((a, b) => b - a);
      // A clear top year: at least half a percentage point ahead of the next, and growth rather than the least decline.
      if (sorted[0] <= 0 || sorted[0] - sorted[1] < 0.5) continue;
      const task = await growthTask(context, s, growth);
      if (task) {
        tasks.push(task);
        used.add(s.table.name);
      }
    }
    return tasks;
  },
};

async function growthTask(context: FamilyContext, s: Series, growth: number[]): Promise<TaskSpec | undefined> {
  const program = new TaskProgram(context, COMPOSITION);
  if (!(await peakStep(program, s))) return undefined;
  const lines = [
    `rows = read_all(${JSON.stringify(seriesSql(s, '1'))})`,
    'growth = {}',
    'for (prev_year, prev), (year, total) in zip(rows, rows[1:]):',
    '    growth[year] = 100 * (float(total) - float(prev)) / float(prev)',
    'best = max(growth, key=lambda y: (growth[y], y))',
  ];
  const top = Math.max(...growth);
  const highest = await program.python(py([...lines, 'print(round(growth[best], 2))']), `Year-over-year growth of the ${s.what} in Python; the highest, in percent`, {
    label: `the highest year-over-year growth of the ${s.what}, in percent`,
    reading: { kind: 'printed-number', decimals: 2 },
    uses: [0],
  });
  if (!highest || highest.key.type !== 'number' || Math.abs(highest.key.value - top) > 0.006) return undefined;
  const year = await pythonTextStep(program, context, py([...lines, 'print(best)']), 'The year with the highest year-over-year growth', { label: `the year with the highest year-over-year growth of the ${s.what}`, uses: [0, 1] });
  if (!year || year.value !== s.periods[growth.indexOf(top) + 1]) return undefined;
  if (year.value === s.periods[s.periods.length - 1]) return undefined; // the last year, which the stated range gives away
  // The range the evidence reads (BETWEEN its first and last period), stated so the agent can write it from the question.
  const over = `from ${s.periods[0]} to ${s.periods[s.periods.length - 1]}${partialClause(s) ? ` (${partialClause(s)})` : ''}`;
  const question = `Compute the year-over-year growth of the ${s.what}${byTime(context, s)}, in percent of the year before, ${over}. Which year grew the most?`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsGrowthFamily.id, parameters: seriesParameters(s, 'growth'), question, tables: [s.table.name], dependency: 'change-over-time', needs: statisticsGrowthFamily.needs });
}

// ---- moving average: the month the 3-month moving average peaks ----------------------------------------------

export const statisticsMovingAverageFamily: TaskFamily = {
  id: 'stats-moving-average',
  description: 'A 3-month trailing moving average of a monthly total over complete months, computed in Python, and the month it peaks.',
  needs: 'an additive measure (or dated events to count) over at least 8 consecutive complete months, with a clear peak of the moving average',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    const used = new Set<string>();
    for (const s of await allSeries(context, 'month', 8)) {
      if (tasks.length >= context.maxPerFamily) break;
      if (used.has(s.table.name) || s.partial.length > 3) continue;
      const ma = s.totals.slice(2).map((_, i) => (s.totals[i] + s.totals[i + 1] + s.totals[i + 2]) / 3);
      const sorted = [...ma].sort((a, b) => b - a);
      if (!(sorted[0] > 0) || sorted[0] - sorted[1] < 0.01 * sorted[0]) continue;
      const task = await movingAverage(context, s, ma);
      if (task) {
        tasks.push(task);
        used.add(s.table.name);
      }
    }
    return tasks;
  },
};

async function movingAverage(context: FamilyContext, s: Series, ma: number[]): Promise<TaskSpec | undefined> {
  const program = new TaskProgram(context, COMPOSITION);
  if (!(await peakStep(program, s))) return undefined;
  const lines = [
    `rows = read_all(${JSON.stringify(seriesSql(s, '1'))})`,
    'months = [r[0] for r in rows]',
    'totals = [float(r[1]) for r in rows]',
    '# Trailing 3-month moving average: each month with the two before it (from the third month on).',
    'ma = {months[i]: (totals[i - 2] + totals[i - 1] + totals[i]) / 3 for i in range(2, len(totals))}',
    'peak = max(ma, key=lambda m: (ma[m], m))',
  ];
  const top = Math.max(...ma);
  const decimals = decimalsFor(top);
  const highest = await program.python(py([...lines, `print(round(ma[peak], ${decimals}))`]), `3-month trailing moving average of the ${s.what} in Python; its highest value`, {
    label: `the highest 3-month moving average of the ${s.what}`,
    reading: { kind: 'printed-number', decimals },
    uses: [0],
  });
  if (!highest || highest.key.type !== 'number' || Math.abs(highest.key.value - top) > Math.max(0.5 * 10 ** -decimals, 1e-9 * top)) return undefined;
  const month = await pythonTextStep(program, context, py([...lines, 'print(peak)']), 'The month at which the moving average peaks', { label: `the month at which the 3-month moving average of the ${s.what} peaks`, uses: [0, 1] });
  if (!month || month.value !== s.periods[ma.indexOf(top) + 2]) return undefined;
  // A peak at the last month is only "the latest", and the range the question states would give it away.
  if (month.value === s.periods[s.periods.length - 1]) return undefined;
  const over = `from ${s.periods[0]} to ${s.periods[s.periods.length - 1]}${partialClause(s) ? ` (${partialClause(s)})` : ''}`;
  const question = `Take the ${s.what} per calendar month${byTime(context, s)} ${over}. Using a trailing 3-month moving average (each month averaged with the previous two), in which month does the moving average peak? Answer as YYYY-MM.`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsMovingAverageFamily.id, parameters: seriesParameters(s, 'moving-average'), question, tables: [s.table.name], dependency: 'change-over-time', needs: statisticsMovingAverageFamily.needs });
}

// ---- z-scores: the group furthest from the mean of groups -----------------------------------------------------

/** Fewer groups make a standard deviation of a handful of numbers. */
const MIN_Z_GROUPS = 5;
const MIN_Z = 1.5;
/** Rows per group on average, at least. */
const MIN_ROWS_PER_GROUP = 5;
/** The groups' totals must spread by at least this share of their mean (population SD ÷ mean). */
const MIN_RELATIVE_SPREAD = 0.05;

export const statisticsZScoreFamily: TaskFamily = {
  id: 'stats-zscore',
  description: "The group whose total is furthest from the mean of the groups' totals, and its z-score (population SD), computed in Python.",
  needs: 'an additive measure (or rows to count) over a grouping of 5–50 values, with one group at least 1.5 standard deviations from the mean',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      let made = false;
      for (const g of groupingsOf(context, table, { min: MIN_Z_GROUPS, max: 50 })) {
        if (made) break;
        for (const total of totals(context, table, { counts: true })) {
          const task = await zScore(context, table, g, total);
          if (task) {
            tasks.push(task);
            made = true;
            break;
          }
        }
      }
      // A table of rates, prices or incomes per row and nothing to add up (small areas' average household incomes):
      // each group's average, and the group whose average stands out.
      for (const g of made ? [] : groupingsOf(context, table, { min: MIN_Z_GROUPS, max: 50 })) {
        if (made) break;
        for (const average of averages(context, table)) {
          const task = await zScore(context, table, g, average);
          if (task) {
            tasks.push(task);
            made = true;
            break;
          }
        }
      }
    }
    return tasks;
  },
};

/**
 * Whether the groups of `ref` span different numbers of periods of the table's coarsest time column (years, seasons,
 * months: 3 to 200 of them), the most at least twice the fewest.
 */
async function unevenPeriods(context: FamilyContext, table: TableProfile, from: string, ref: string): Promise<boolean> {
  const time = table.columns
    .filter((c) => semanticsOf(context, table.name, c.name)?.role.value === 'time' && c.distinctCount >= 3 && c.distinctCount <= 200 && c.nullFraction < 0.1)
    .sort((a, b) => a.distinctCount - b.distinctCount)[0];
  if (!time) return false;
  const spans = await query(context, `SELECT COUNT(DISTINCT c.${q(time.name)}) FROM ${from} WHERE ${ref} IS NOT NULL GROUP BY ${ref}`);
  const counts = (spans ?? []).map((r) => num(r[0])).filter((n) => n > 0);
  return counts.length >= 2 && Math.max(...counts) >= 2 * Math.min(...counts);
}

/** The averages a group of rows has where nothing adds up: the mean of a non-additive measure per group. */
function averages(context: FamilyContext, table: TableProfile): Array<{ value: (alias: string) => string; what: string; measure?: ColumnProfile; statistic: 'average' }> {
  return measures(context, table)
    .filter((m) => additivityOf(context, table.name, m.name) === 'non-additive')
    .slice(0, 2)
    .map((m) => ({ value: (alias: string) => `AVG(${alias}${q(m.name)})`, what: aggregateOf(context, table.name, m).phrase, measure: m, statistic: 'average' as const }));
}

async function zScore(context: FamilyContext, table: TableProfile, g: Grouping, total: { value: (alias: string) => string; what: string; measure?: ColumnProfile; statistic?: 'average' }): Promise<TaskSpec | undefined> {
  // (The word for each group's figure: its total, or its average where nothing adds up.)
  const figure = total.statistic ?? 'total';
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, g);
  } catch {
    return undefined;
  }
  // (Not over the levels of an ordered scale, a seismic intensity 1 … 7: its levels are no peer groups, and its lowest
  // is the most frequent by the nature of the scale, so the group "furthest from the mean" is fixed before the data.)
  if (semanticsOf(context, g.table.name, g.column.name)?.role.value === 'ordinal') return undefined;
  const gName = groupingName(g, context);
  // The files of a partition totalled over periods of unequal length (one station's 1,191 months beside another's
  // 768): their totals follow how long each reported, not the quantity.
  // (A column one value per file, `location` beside the view's `part`, is the same grouping.)
  const partition = context.semantics.partitions.find((p) => p.view === table.name && (p.key === g.column.name || g.column.distinctCount <= p.tables.length));
  if (partition && total.measure) {
    const spans = await query(context, `SELECT COUNT(${q(total.measure.name)}) FROM ${q(table.name)} GROUP BY ${q(g.column.name)}`);
    const counts = (spans ?? []).map((r) => num(r[0])).filter((n) => n > 0);
    if (counts.length === 0 || Math.max(...counts) > 1.1 * Math.min(...counts)) return undefined;
  }
  // Groups that cover different numbers of periods (EWF's division names, each used for 1 to 7 seasons; clubs in the
  // league for 3 to 7): their totals follow how long each group was there, not the quantity.
  if (figure === 'total' && (await unevenPeriods(context, table, source.from, g.ref))) return undefined;
  // A flag's name ("is independent") does not read as a group to rank.
  if (/^(is|has|was|can) /.test(gName)) return undefined;
  // Children counted by their parent's group, where every parent has as many: the parents counted again.
  if (!total.measure && g.via && (await sameChildCount(context, g.via))) return undefined;
  const value = total.value('c.');
  const perGroup = `SELECT ${g.ref} AS grp, ${value} AS total, COUNT(*) AS n FROM ${source.from} WHERE ${g.ref} IS NOT NULL GROUP BY ${g.ref}`;
  const rowsName = 'rows';
  const program = new TaskProgram(context, COMPOSITION);
  const first = await program.sql(
    `SELECT grp AS ${q(g.column.name)}, ROUND(total, 2) AS total, ROUND(ABS(total - AVG(total) OVER ()), 2) AS distance_from_mean, n AS ${q(rowsName)} FROM (${perGroup}) ORDER BY ABS(total - AVG(total) OVER ()) DESC, grp`,
    `${total.what} per ${gName}, furthest from the mean of the ${gName} ${figure}s first`,
    { label: `the ${gName} whose ${total.what} is furthest from the mean of all ${gName} ${figure}s`, reading: { kind: 'string' } },
  );
  if (!first || first.rows.length < MIN_Z_GROUPS || !clearLeader(first.rows, 2, 0.05)) return undefined;
  // Groups of a row or two (a name per person) make a "total" that is a single record.
  if (first.rows.reduce((sum, r) => sum + num(r[3]), 0) < MIN_ROWS_PER_GROUP * first.rows.length) return undefined;
  // Totals of a measure that follow how many rows each group has (the total duration of each provider's runs, r ≥ 0.9
  // with its number of runs): the z-score says which group ran most, which the count of rows says plainly.
  if (total.measure && figure === 'total' && first.rows.length >= 3 && pearson(first.rows.map((r) => num(r[1])), first.rows.map((r) => num(r[3]))) >= MAX_TOTAL_COUNT_R) return undefined;
  // A group that says its value is not known (a vessel length `NK`): whether it counts among the groups decides the
  // mean, so the question would have two readings.
  // (…and so does a group of blank names, IMD's places of no state, offshore points: a state or not?)
  if (first.rows.some((r) => typeof r[0] === 'string' && (NOT_KNOWN_CATEGORY.test(r[0].trim()) || r[0].trim() === ''))) return undefined;
  const group = first.rows[0][0] as string | number;
  const values = first.rows.map((r) => num(r[1]));
  // The others all equal (four facets of 187 rows each, one of 133, a balanced design short of some): the odd one's
  // z-score is fixed by their number, |z| = 2 for five, whatever the totals.
  if (new Set(values.slice(1)).size === 1) return undefined;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  if (!(sd > 0) || Math.abs((num(first.rows[0][1]) - mean) / sd) < MIN_Z) return undefined;
  // Totals that all but agree (13 regions of 52 rows and one of 51, a complete grid short of one row): the z-score of
  // the odd one out is large and says only how the table is laid out.
  if (sd < MIN_RELATIVE_SPREAD * Math.abs(mean)) return undefined;

  const lines = [
    'import statistics',
    `rows = read_all(${JSON.stringify(`${perGroup} ORDER BY 1`)})`,
    'totals = {r[0]: float(r[1]) for r in rows}',
    'mean = statistics.fmean(totals.values())',
    'sd = statistics.pstdev(totals.values())',
  ];
  const sdDecimals = decimalsFor(sd);
  const spread = await program.python(py([...lines, `print(round(sd, ${sdDecimals}))`]), `The population standard deviation of the ${gName} ${figure}s, in Python`, {
    label: `the population standard deviation of the ${total.what} across ${gName} values`,
    reading: { kind: 'printed-number', decimals: sdDecimals },
    uses: [0],
  });
  if (!spread) return undefined;
  const z = await program.python(py([...lines, `print(round((totals[${pyLiteral(group)}] - mean) / sd, 2))`]), `The z-score of the ${gName} ${group}`, {
    label: `the z-score of the ${gName} ${group}`,
    reading: { kind: 'printed-number', decimals: 2 },
    uses: [0, 1],
    carries: [String(group)],
  });
  if (!z || z.key.type !== 'number' || Math.abs(z.key.value) < MIN_Z) return undefined;
  const question = `Compute the ${total.what} for each ${gName}. For the ${gName} whose ${figure} lies furthest from the mean of these ${figure}s, what is its z-score (using the population standard deviation of the ${figure}s; negative below the mean)? Round to 2 decimals.`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsZScoreFamily.id, parameters: { kind: 'z-score', table: table.name, group: `${g.table.name}.${g.column.name}`, measure: total.measure?.name ?? null }, question, tables: source.tables, dependency: 'outlier', needs: statisticsZScoreFamily.needs });
}

/** A value as a Python literal (the key of a dict read from SQL rows). */
function pyLiteral(value: unknown): string {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : JSON.stringify(String(value));
}

// ---- Spearman: the rank correlation against the linear one ----------------------------------------------------

/** Distinct value pairs Python reads at most (each page re-runs the grouping; this stays far inside the time limit). */
const MAX_PAIRS = 20000;

export const statisticsSpearmanFamily: TaskFamily = {
  id: 'stats-spearman',
  description: 'The Spearman rank correlation between two measures against their Pearson correlation, computed in Python.',
  needs: 'two measures of one table that are not computed one from the other, with a rank correlation that passes a t-test and differs from the Pearson correlation by at least 0.05',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context, 30)) {
      if (tasks.length >= context.maxPerFamily) break;
      // The table's pair whose rank correlation departs most from its linear one, measured in SQL first (average
      // ranks by window functions); Python then computes both again, and must agree.
      const ms = measures(context, table).slice(0, 6);
      let best: { a: ColumnProfile; b: ColumnProfile; r: number; rho: number } | undefined;
      for (let i = 0; i < ms.length; i++) {
        for (let j = i + 1; j < ms.length; j++) {
          if (derivedPair(context, { table: table.name, column: ms[i].name }, { table: table.name, column: ms[j].name })) continue;
          const found = await correlationsOf(context, table, ms[i], ms[j]);
          // (Both positive: with a negative link, Spearman's minus Pearson's points the other way than "stronger"; the
          // construction checked last, on a pair that would be chosen.)
          if (found && found.r > 0 && found.rho > 0 && rankCorrelationIsSignal(found.rho, found.n) && Math.abs(found.rho - found.r) >= MIN_RANK_GAP && (!best || Math.abs(found.rho - found.r) > Math.abs(best.rho - best.r)) && !(await constructedLink(context, table, ms[i], ms[j]))) best = { a: ms[i], b: ms[j], ...found };
        }
      }
      if (!best) continue;
      const task = await spearman(context, table, best.a, best.b, best);
      if (task) tasks.push(task);
    }
    return tasks;
  },
};

/** How far Spearman's ρ must be from Pearson's r for the comparison to say something. */
const MIN_RANK_GAP = 0.05;


/** Pearson's r and Spearman's ρ (average ranks) of two columns in SQL, with the number of pairs; undefined for too many distinct pairs. */
async function correlationsOf(context: FamilyContext, table: TableProfile, a: ColumnProfile, b: ColumnProfile): Promise<{ r: number; rho: number; n: number } | undefined> {
  const t = q(table.name);
  const [x, y] = [q(a.name), q(b.name)];
  const both = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
  const shape = await query(context, `SELECT COUNT(*), (SELECT COUNT(*) FROM (SELECT 1 FROM ${t} WHERE ${both} GROUP BY ${x}, ${y})) FROM ${t} WHERE ${both}`);
  if (!shape || num(shape[0][0]) < 30 || num(shape[0][1]) > MAX_PAIRS) return undefined;
  const rows = await query(context, `SELECT ${pearsonSql('x', 'y')}, ${pearsonSql('rx', 'ry')}, COUNT(*) FROM (SELECT 1.0 * ${x} AS x, 1.0 * ${y} AS y, ${averageRankSql(x)} AS rx, ${averageRankSql(y)} AS ry FROM ${t} WHERE ${both})`);
  const [r, rho, n] = (rows?.[0] ?? []).map(num);
  return Number.isFinite(r) && Number.isFinite(rho) ? { r, rho, n } : undefined;
}

async function spearman(context: FamilyContext, table: TableProfile, a: ColumnProfile, b: ColumnProfile, sqlSide: { r: number; rho: number }): Promise<TaskSpec | undefined> {
  const t = q(table.name);
  const [x, y] = [q(a.name), q(b.name)];
  const both = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
  const aName = measureName(context, table.name, a);
  const bName = measureName(context, table.name, b);
  const rows = things(context, table, 'many');
  const program = new TaskProgram(context, COMPOSITION);
  const counted = await program.sql(`SELECT COUNT(*) AS pairs FROM ${t} WHERE ${both}`, `Count the ${rows} where both ${aName} and ${bName} are known`, { label: `the number of ${rows} with both ${aName} and ${bName}`, reading: { kind: 'number' } });
  if (!counted || counted.key.type !== 'number') return undefined;
  const n = counted.key.value;
  const lines = [
    'import math',
    ...WEIGHTED,
    `rows = read_all(${JSON.stringify(`SELECT ${x}, ${y}, COUNT(*) AS k FROM ${t} WHERE ${both} GROUP BY ${x}, ${y} ORDER BY ${x}, ${y}`)})`,
    'xs = [float(r[0]) for r in rows]',
    'ys = [float(r[1]) for r in rows]',
    'ks = [int(r[2]) for r in rows]',
  ];
  const pearson = await program.python(py([...lines, 'print(round(pearson(xs, ys, ks), 4))']), `The Pearson correlation of ${aName} and ${bName}, in Python`, { label: `the Pearson correlation of ${aName} and ${bName}`, reading: { kind: 'printed-number', decimals: 4 }, uses: [0] });
  if (!pearson || pearson.key.type !== 'number' || Math.abs(pearson.key.value - sqlSide.r) > 0.001) return undefined;
  const rhoLine = 'rho = pearson(average_ranks(xs, ks), average_ranks(ys, ks), ks)';
  const rho = await program.python(py([...lines, rhoLine, 'print(round(rho, 4))']), `The Spearman rank correlation of ${aName} and ${bName} (average ranks for ties), in Python`, {
    label: `the Spearman rank correlation of ${aName} and ${bName}`,
    reading: { kind: 'printed-number', decimals: 4 },
    uses: [0],
  });
  // Python's ρ must agree with the SQL one, and still be a signal that departs from r.
  if (!rho || rho.key.type !== 'number' || Math.abs(rho.key.value - sqlSide.rho) > 0.001 || !rankCorrelationIsSignal(rho.key.value, n) || Math.abs(rho.key.value - pearson.key.value) < MIN_RANK_GAP) return undefined;
  const gap = await program.python(py([...lines, rhoLine, 'r = pearson(xs, ys, ks)', 'print(round(rho - r, 4))']), 'Spearman minus Pearson', { label: `how much the Spearman correlation exceeds the Pearson correlation`, reading: { kind: 'printed-number', decimals: 4 }, uses: [1, 2] });
  if (!gap) return undefined;
  const question = `Is the link between ${aName} and ${bName} stronger by rank than in a straight line (a curved or outlier-driven relation)? Across the ${rows} where both are known, compute Spearman's rank correlation (ties given their average rank) and Pearson's correlation, and give Spearman's minus Pearson's, rounded to 4 decimals.`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsSpearmanFamily.id, parameters: { kind: 'spearman', table: table.name, a: a.name, b: b.name }, question, tables: [table.name], dependency: 'correlation', needs: statisticsSpearmanFamily.needs });
}

// ---- effect size: Cohen's d between the two groups of a flag ---------------------------------------------------

const MIN_GROUP_ROWS = 10;
const MIN_EFFECT = 0.2;

export const statisticsEffectSizeFamily: TaskFamily = {
  id: 'stats-effect-size',
  description: "The difference of a measure's mean between the two groups of a flag or 2-valued dimension, and its effect size (Cohen's d, pooled SD), computed in Python.",
  needs: 'a measure and a flag or 2-valued dimension with at least 10 rows in each group, and |d| ≥ 0.2',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context, 2 * MIN_GROUP_ROWS)) {
      if (tasks.length >= context.maxPerFamily) break;
      // The largest effect of the table's (flag, measure) pairs, measured in SQL before any Python runs.
      let best: { g: Grouping; m: ColumnProfile; d: number } | undefined;
      for (const g of groupingsOf(context, table, { min: 2, max: 2 })) {
        // Historical against projected years is a cut of the time axis, not two kinds of row.
        if (await cutOfTime(context, table, g)) continue;
        // (Nor a flag a measure decides, alone or less another: a win is a goal difference above 0, goals for above
        // goals against.)
        const deciding = await measuresDeciding(context, table, g);
        for (const m of measures(context, table).slice(0, 6)) {
          if (g.table.name === table.name && derivedPair(context, { table: table.name, column: g.column.name }, { table: table.name, column: m.name })) continue;
          if (deciding.has(m.name)) continue;
          const d = await effectOf(context, table, g, m);
          if (d !== undefined && Math.abs(d) >= MIN_EFFECT && (!best || Math.abs(d) > Math.abs(best.d))) best = { g, m, d };
        }
      }
      if (!best) continue;
      const task = await effectSize(context, table, best.g, best.m, best.d);
      if (task) tasks.push(task);
    }
    return tasks;
  },
};

/** The measures whose ranges, alone or less another, are the flag's two groups (`decidingMeasures`): comparing the groups by them finds the cut. */
async function measuresDeciding(context: FamilyContext, table: TableProfile, g: Grouping): Promise<Set<string>> {
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, g);
  } catch {
    return new Set();
  }
  return decidingMeasures(context, source.from, g.ref, measures(context, table), 'c.');
}

/** Cohen's d (higher mean minus lower, pooled sample SD) from SQL moments, or undefined for a group under 10 rows. */
async function effectOf(context: FamilyContext, table: TableProfile, g: Grouping, m: ColumnProfile): Promise<number | undefined> {
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, g);
  } catch {
    return undefined;
  }
  const x = `c.${q(m.name)}`;
  const rows = await query(context, `SELECT COUNT(*), AVG(${x}), AVG(${x} * ${x}) FROM ${source.from} WHERE ${g.ref} IS NOT NULL AND ${x} IS NOT NULL GROUP BY ${g.ref} ORDER BY 2 DESC`);
  if (!rows || rows.length !== 2 || rows.some((r) => num(r[0]) < MIN_GROUP_ROWS)) return undefined;
  const [n1, n2] = rows.map((r) => num(r[0]));
  const variance = (r: unknown[]) => ((num(r[2]) - num(r[1]) ** 2) * num(r[0])) / (num(r[0]) - 1);
  // A group whose every value is the same (a ratio fixed at 1 for one fuel) is a constant, not a distribution.
  if (rows.some((r) => variance(r) <= 1e-12 * Math.max(1, num(r[1]) ** 2))) return undefined;
  const pooled = Math.sqrt(((n1 - 1) * variance(rows[0]) + (n2 - 1) * variance(rows[1])) / (n1 + n2 - 2));
  return pooled > 0 ? (num(rows[0][1]) - num(rows[1][1])) / pooled : undefined;
}

async function effectSize(context: FamilyContext, table: TableProfile, g: Grouping, m: ColumnProfile, d: number): Promise<TaskSpec | undefined> {
  const source = sourceOf(table, g);
  const x = `c.${q(m.name)}`;
  const gName = groupingName(g, context);
  const mName = measureName(context, table.name, m);
  const rows = things(context, table, 'many');
  const program = new TaskProgram(context, COMPOSITION);
  const known = `${g.ref} IS NOT NULL AND ${x} IS NOT NULL`;
  // The higher group's mean is the sub-answer (a number): a flag's value as SQL renders it (0/1) is not what a file may write.
  const first = await program.sql(
    `SELECT ROUND(AVG(${x}), 4) AS mean_${m.name.replace(/\W/g, '_')}, ${g.ref} AS ${q(g.column.name)}, COUNT(*) AS n FROM ${source.from} WHERE ${known} GROUP BY ${g.ref} ORDER BY AVG(${x}) DESC`,
    `${rows} and average ${mName} per ${gName}, higher mean first`,
    { label: `the higher of the two ${gName} groups' average ${mName}`, reading: { kind: 'number', decimals: 4 } },
  );
  if (!first || first.rows.length !== 2 || first.rows.some((r) => num(r[2]) < MIN_GROUP_ROWS) || num(first.rows[0][0]) === num(first.rows[1][0])) return undefined;
  const [high, low] = [first.rows[0][1] as string | number, first.rows[1][1] as string | number];
  const lines = [
    'import math',
    `rows = read_all(${JSON.stringify(`SELECT ${g.ref} AS grp, ${x} AS x, COUNT(*) AS k FROM ${source.from} WHERE ${known} GROUP BY 1, 2 ORDER BY 1, 2`)})`,
    'groups = {}',
    'for grp, x, k in rows:',
    '    groups.setdefault(grp, []).append((float(x), int(k)))',
    'def moments(pairs):',
    '    n = sum(k for _, k in pairs)',
    '    mean = sum(x * k for x, k in pairs) / n',
    '    var = sum((x - mean) ** 2 * k for x, k in pairs) / (n - 1)',
    '    return n, mean, var',
    `n1, m1, v1 = moments(groups[${pyLiteral(high)}])`,
    `n2, m2, v2 = moments(groups[${pyLiteral(low)}])`,
    'diff = m1 - m2',
    'pooled = math.sqrt(((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2))',
  ];
  const diffDecimals = decimalsFor(num(first.rows[0][0]) - num(first.rows[1][0]));
  const diff = await program.python(py([...lines, `print(round(diff, ${diffDecimals}))`]), `The difference of the mean ${mName} between ${gName} ${high} and ${low}, in Python`, {
    label: `how much higher the average ${mName} is for ${gName} ${high} than for ${low}`,
    reading: { kind: 'printed-number', decimals: diffDecimals },
    uses: [0],
    carries: [String(high), String(low)],
  });
  if (!diff) return undefined;
  const pooledSd = await program.python(py([...lines, `print(round(pooled, ${diffDecimals + 1}))`]), `The pooled sample standard deviation of ${mName} over the two groups`, {
    label: `the pooled standard deviation of ${mName}`,
    reading: { kind: 'printed-number', decimals: diffDecimals + 1 },
    uses: [0],
  });
  if (!pooledSd) return undefined;
  const effect = await program.python(py([...lines, 'print(round(diff / pooled, 2))']), "Cohen's d: the difference over the pooled standard deviation", { label: `Cohen's d of ${mName} between ${gName} ${high} and ${low}`, reading: { kind: 'printed-number', decimals: 2 }, uses: [1, 2] });
  if (!effect || effect.key.type !== 'number' || Math.abs(effect.key.value) < MIN_EFFECT || Math.abs(effect.key.value - d) > 0.01) return undefined;
  // A flag splits its rows into those it marks and the others, whatever code the file writes for yes.
  const marked = flagMark(context, g.table.name, g.column, 1);
  const split = marked ? `into those ${marked} and those not` : `by ${gName} (${g.column.type === 'boolean' ? 'true or false' : `${quoted(high)} and ${quoted(low)}`})`;
  const question = `Split the ${rows} ${split}, keeping those with ${knownWords(mName)}. What is Cohen's d for ${mName}: the larger of the two groups' means minus the smaller, over the pooled sample standard deviation (n − 1 in each group)? Round to 2 decimals.`;
  if (!linted(question)) return undefined;
  return program.task({ family: statisticsEffectSizeFamily.id, parameters: { kind: 'effect-size', table: table.name, group: `${g.table.name}.${g.column.name}`, measure: m.name }, question, tables: source.tables, dependency: 'group-contrast', needs: statisticsEffectSizeFamily.needs });
}

const quoted = (v: unknown) => `'${String(v)}'`;

/** The statistics compositions, in the order the pool runs them. */
export const statisticsFamilies: TaskFamily[] = [statisticsTrendFamily, statisticsGrowthFamily, statisticsMovingAverageFamily, statisticsZScoreFamily, statisticsSpearmanFamily, statisticsEffectSizeFamily];
