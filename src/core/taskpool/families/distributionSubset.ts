/**
 * Distribution, then subset: a threshold read from a measure's distribution (its 90th percentile), then a share or a
 * comparison for the rows above it. The question states the percentile's definition, so an agent can reproduce the
 * threshold exactly: nearest-rank in SQL (the ceil(0.9·n)-th smallest of the n values), or Python's
 * `statistics.quantiles(values, n=10, method='inclusive')[-1]`.
 *
 * Over-represented category (4 steps):
 *   1. the 90th percentile (nearest-rank)           → the threshold
 *   2. rows above it                                → their number
 *   3. per category, its share above ÷ its share overall → the most over-represented category (a clear leader,
 *                                                     ≥ 20% over its overall share, a one-sample z-test of the
 *                                                     proportion |z| ≥ 2, at least 5 rows above)
 *   4. that category's share of the rows above      → the answer, in percent
 * Top decile against the rest, by a second measure (4 steps; Python's quantile where Python is there):
 *   1. the 90th percentile of the first measure     → the threshold
 *   2. the second measure's average above it        → a number
 *   3. its average for the rest                     → a number
 *   4. the difference, in percent of the rest's     → the answer (Welch's t of the two groups |t| ≥ 2, |Δ| ≥ 5%)
 * Concentration of an additive measure (3 steps): threshold, rows above, their share of the total.
 *
 * Rejected: ties at the cut-off (fewer than 5% of the rows, or fewer than 10 rows, strictly above it), measures of
 * fewer than 20 distinct values, coordinates, and populations that a category's NULLs (or a join) would change.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { DEFAULT_MAX_ROWS } from '../../sandbox/limits';
import type { TaskSpec } from '../types';
import {
  constructedLink,
  confidentlyAdditive,
  aggregateOf,
  clearLeader,
  derivedPair,
  distinctGroupingName,
  groupingsOf,
  isCoordinate,
  isFlag,
  measures,
  num,
  pluralWords,
  q,
  readsClean,
  query,
  rowsNoun,
  tableMention,
  sourceOf,
  sqlLiteral,
  taskTables,
  TaskProgram,
  type FamilyContext,
  type TaskFamily,
  columnPhrase,
  measureName,
  semanticsOf,
  isAboveIts,
  mostlyOneValue,
} from './kit';

const MIN_ROWS = 100;
const MIN_DISTINCT = 20;
/** Rows strictly above the threshold, at least: fewer mean ties at the cut-off. */
const MIN_ABOVE_SHARE = 0.05;
const MIN_ABOVE_ROWS = 10;
/** A category's rows above the threshold, at least, for its share there to mean something. */
const MIN_CATEGORY_ABOVE = 5;
const MIN_LIFT = 1.2;
const MIN_DIFFERENCE_PCT = 5;
const PER_TABLE = 2;

// The method by the name an analyst knows, precise enough to reproduce the cut: the nearest-rank method (the smallest
// value with nine tenths of the values at or below it), or linear interpolation between the closest ranks (Excel's
// PERCENTILE.INC, numpy's default, Python's statistics.quantiles with method='inclusive'), which the agent's code may use.
const NEAREST_RANK = 'by the nearest-rank method';
const PYTHON_QUANTILE = "by linear interpolation between the closest ranks, as Excel's PERCENTILE.INC";

export const distributionSubsetFamily: TaskFamily = {
  id: 'distribution-subset',
  description: "A threshold from a measure's distribution (its 90th percentile), then a share or a comparison for the rows above it.",
  needs: 'a table of at least 100 rows with a measure of at least 20 distinct values, and a grouping of 2–50 values or a second measure',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context, MIN_ROWS)) {
      if (tasks.length >= context.maxPerFamily) break;
      const ms = measures(context, table).filter((m) => m.distinctCount >= MIN_DISTINCT && !isCoordinate(m));
      // At most one task of each shape per table, and PER_TABLE in all, so the family spreads over tables.
      const done = new Set<string>();
      for (const measure of ms) {
        if (done.size >= PER_TABLE || tasks.length >= context.maxPerFamily) break;
        const threshold = await nearestRank(context, table, measure);
        if (!threshold) continue;
        const shapes: Array<[string, () => Promise<TaskSpec | undefined>]> = [
          ['over-represented', () => mostOverRepresented(context, table, measure, threshold)],
          ['top-against-rest', () => topAgainstRest(context, table, measure, ms)],
          ['concentration', () => concentration(context, table, measure, threshold)],
        ];
        for (const [shape, make] of shapes) {
          if (done.has(shape) || done.size >= PER_TABLE || tasks.length >= context.maxPerFamily) continue;
          const task = await make();
          if (task) {
            tasks.push(task);
            done.add(shape);
            break;
          }
        }
      }
    }
    return tasks;
  },
};

interface Threshold {
  value: number;
  /** Rows with a value, and rows strictly above the threshold. */
  n: number;
  above: number;
}

const nearestRankSql = (table: TableProfile, measure: ColumnProfile) => {
  const t = q(table.name);
  const m = q(measure.name);
  // The k-th smallest with k = ceil(0.9n), in integers (0.9 · n in floating point can land just above an integer),
  // written with the question's own 90 (and 100), so an agent that copies it writes nothing the question does not show.
  return `SELECT p90 FROM (SELECT ${m} AS p90, ROW_NUMBER() OVER (ORDER BY ${m}) AS k, COUNT(*) OVER () AS n FROM ${t} WHERE ${m} IS NOT NULL) WHERE 100 * k >= 90 * n ORDER BY k LIMIT 1`;
};

/** The nearest-rank 90th percentile, when the rows above it are a real top slice (no pile of ties at the cut-off). */
async function nearestRank(context: FamilyContext, table: TableProfile, measure: ColumnProfile): Promise<Threshold | undefined> {
  // (A measure zero on most rows has a 90th percentile of 0: "above it" is "not zero", no top slice.)
  if (await mostlyOneValue(context, table, measure)) return undefined;
  const rows = await query(context, nearestRankSql(table, measure));
  const value = rows?.[0]?.[0];
  if (typeof value !== 'number' && typeof value !== 'bigint') return undefined;
  return sliceAbove(context, table, measure, num(value));
}

async function sliceAbove(context: FamilyContext, table: TableProfile, measure: ColumnProfile, value: number): Promise<Threshold | undefined> {
  const m = q(measure.name);
  const rows = await query(context, `SELECT COUNT(*), SUM(CASE WHEN ${m} > ${value} THEN 1 ELSE 0 END) FROM ${q(table.name)} WHERE ${m} IS NOT NULL`);
  const n = num(rows?.[0]?.[0]);
  const above = num(rows?.[0]?.[1]);
  if (!(n >= MIN_ROWS) || above < MIN_ABOVE_ROWS || above < MIN_ABOVE_SHARE * n) return undefined;
  return { value, n, above };
}

/** Step 1 in SQL: the nearest-rank 90th percentile. */
async function thresholdStep(program: TaskProgram, table: TableProfile, measure: ColumnProfile, name: string) {
  return program.sql(nearestRankSql(table, measure), `the 90th percentile of ${name} (${NEAREST_RANK})`, { label: `the 90th percentile of ${name} (nearest-rank)`, reading: { kind: 'number' } });
}

async function mostOverRepresented(context: FamilyContext, table: TableProfile, measure: ColumnProfile, threshold: Threshold): Promise<TaskSpec | undefined> {
  // "Which lighted is most over-represented": a yes/no flag splits the rows in two, it is no category to pick from.
  const groups = groupingsOf(context, table, { min: 2, max: 50 }).filter((g) => !isFlag(context, g.table.name, g.column));
  const m = `c.${q(measure.name)}`;
  const name = measureName(context, table.name, measure);
  const rowsWord = rowsNoun(context, table, 'many');
  for (const group of groups) {
    let source: { from: string; tables: string[] };
    try {
      source = sourceOf(table, group);
    } catch {
      continue;
    }
    const base = `SELECT ${group.ref} AS grp, CASE WHEN ${m} > ${threshold.value} THEN 1 ELSE 0 END AS above FROM ${source.from} WHERE ${m} IS NOT NULL AND ${group.ref} IS NOT NULL`;
    // The population must be the rows the threshold was read from: a category's NULLs or a join would change it.
    const population = await query(context, `SELECT COUNT(*), SUM(above) FROM (${base})`);
    if (num(population?.[0]?.[0]) !== threshold.n || num(population?.[0]?.[1]) !== threshold.above) continue;
    const groupName = distinctGroupingName(group, groups, context);
    const program = new TaskProgram(context, 'distribution-subset');
    const first = await thresholdStep(program, table, measure, name);
    if (!first || first.key.type !== 'number' || first.key.value !== threshold.value) return undefined;
    const P = String(threshold.value);
    const second = await program.sql(`SELECT COUNT(*) AS above FROM ${q(table.name)} WHERE ${q(measure.name)} > ${P}`, `the ${rowsWord} whose ${name} is above ${P}`, {
      label: `the number of ${rowsWord} whose ${name} ${isAboveIts(name)} 90th percentile`,
      reading: { kind: 'number' },
      uses: [0],
      carries: [P],
    });
    if (!second) return undefined;
    const lift = `(1.0 * SUM(above) / (SELECT SUM(above) FROM base)) / (1.0 * COUNT(*) / (SELECT COUNT(*) FROM base))`;
    const third = await program.sql(
      `WITH base AS (${base}) SELECT grp AS ${q(group.column.name)}, ROUND(${lift}, 4) AS over_representation, SUM(above) AS above, COUNT(*) AS n FROM base GROUP BY grp HAVING SUM(above) >= ${MIN_CATEGORY_ABOVE} ORDER BY ${lift} DESC, 1`,
      `per ${groupName}: its share of the ${rowsWord} above ${P} divided by its share of all ${rowsWord}, highest first`,
      { label: `the ${groupName} most over-represented among the ${rowsWord} above the 90th percentile of ${name}`, reading: { kind: 'string' }, uses: [0, 1], carries: [P] },
    );
    if (!third || third.rows.length < 2 || !clearLeader(third.rows)) continue;
    const [topName, topLift, topAbove, topAll] = third.rows[0];
    const p0 = num(topAll) / threshold.n;
    const z = (num(topAbove) / threshold.above - p0) / Math.sqrt((p0 * (1 - p0)) / threshold.above);
    if (num(topLift) < MIN_LIFT || !(z >= 2)) continue;
    const top = topName as string | number;
    const fourth = await program.sql(
      `SELECT ROUND(100.0 * SUM(CASE WHEN ${group.ref} = ${sqlLiteral(top)} THEN 1 ELSE 0 END) / COUNT(*), 2) AS share_pct FROM ${source.from} WHERE ${m} > ${P}`,
      `the share of the ${rowsWord} above ${P} whose ${groupName} is ${top}, in percent`,
      { label: `the share of the ${rowsWord} above the 90th percentile of ${name} whose ${groupName} is ${top}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 2], carries: [P, String(top)] },
    );
    if (!fourth || fourth.key.type !== 'number' || !(fourth.key.value > 0 && fourth.key.value < 100)) continue;
    // (Said plainly: the ratio of two shares, and the few a ratio needs.)
    const question = `Take the ${rowsWord}${tableMention(context, table)} whose ${name} ${isAboveIts(name)} 90th percentile (${NEAREST_RANK}). Which ${groupName} is most over-represented among them (the highest ratio of its share of them to its share of all ${rowsWord}${measure.nullFraction > 0 ? ` with a known ${name}` : ''}; ${pluralWords(groupName)} with at least ${MIN_CATEGORY_ABOVE} of them), and what percentage of them does it make up? Round to 2 decimals.`;
    const task = program.task({
      family: 'distribution-subset',
      parameters: { kind: 'over-represented', table: table.name, measure: measure.name, group: `${group.table.name}.${group.column.name}` },
      question,
      tables: source.tables,
      dependency: 'conditional-rate',
      needs: distributionSubsetFamily.needs,
    });
    if (readsClean(context, task)) return task;
  }
  return undefined;
}

/** Python: every value of the measure (read in pages past the sandbox's row cap), then its inclusive 90th percentile. */
function quantileCode(table: TableProfile, measure: ColumnProfile): string {
  const m = q(measure.name);
  const valuesSql = `SELECT ${m} FROM ${q(table.name)} WHERE ${m} IS NOT NULL ORDER BY ${m}`;
  return [
    'import statistics',
    `query = ${JSON.stringify(valuesSql)}`,
    `page = ${DEFAULT_MAX_ROWS}`,
    'rows = []',
    'while True:',
    '    batch = sql(query + f" LIMIT {page} OFFSET {len(rows)}")',
    '    rows += batch',
    '    if len(batch) < page:',
    '        break',
    'values = [float(next(iter(r.values())) if isinstance(r, dict) else r[0]) for r in rows]',
    "print(statistics.quantiles(values, n=10, method='inclusive')[-1])",
  ].join('\n');
}

/**
 * Python's `statistics.quantiles(values, n=10, method='inclusive')[-1]`, computed as its source does: with m = n − 1
 * and (j, δ) = divmod(9m, 10), (x[j]·(10 − δ) + x[j+1]·δ) / 10 over the sorted values.
 */
async function inclusiveQuantile(context: FamilyContext, table: TableProfile, measure: ColumnProfile): Promise<number | undefined> {
  const t = q(table.name);
  const m = q(measure.name);
  const count = num((await query(context, `SELECT COUNT(*) FROM ${t} WHERE ${m} IS NOT NULL`))?.[0]?.[0]);
  if (!(count >= 2)) return undefined;
  const j = Math.floor((9 * (count - 1)) / 10);
  const delta = 9 * (count - 1) - 10 * j;
  const rows = await query(context, `SELECT ${m} FROM ${t} WHERE ${m} IS NOT NULL ORDER BY ${m} LIMIT 2 OFFSET ${j}`);
  if (!rows || rows.length < 2) return undefined;
  return (num(rows[0][0]) * (10 - delta) + num(rows[1][0]) * delta) / 10;
}

/** Welch's t of two groups from their counts, means and population variances. */
function welchT(a: { n: number; mean: number; variance: number }, b: { n: number; mean: number; variance: number }): number {
  if (a.n < 2 || b.n < 2) return 0;
  const sa = (a.variance * a.n) / (a.n - 1);
  const sb = (b.variance * b.n) / (b.n - 1);
  const se = Math.sqrt(sa / a.n + sb / b.n);
  return se > 0 ? (a.mean - b.mean) / se : 0;
}

async function topAgainstRest(context: FamilyContext, table: TableProfile, measure: ColumnProfile, all: ColumnProfile[]): Promise<TaskSpec | undefined> {
  const t = q(table.name);
  const m = q(measure.name);
  const name = measureName(context, table.name, measure);
  const rowsWord = rowsNoun(context, table, 'many');
  const others = all.filter((y) => y !== measure && !derivedPair(context, { table: table.name, column: measure.name }, { table: table.name, column: y.name }));
  if (others.length === 0) return undefined;
  // The threshold is found first without running Python (the quantile from the two order statistics it
  // interpolates); the task's one Python step must then print that very value.
  const python = context.python !== undefined;
  const probe = python ? await inclusiveQuantile(context, table, measure) : (await nearestRank(context, table, measure))?.value;
  if (probe === undefined) return undefined;
  const P = String(probe);
  const threshold = await sliceAbove(context, table, measure, probe);
  if (!threshold) return undefined;
  // An interpolated quantile a rounding away from a stored value (0.00999… beside 0.01 on 58 rows of precipitation,
  // nine in ten of them 0): which rows lie "above" it turns on the last bit of a float, not on the data.
  if (python) {
    const near = await query(context, `SELECT COUNT(*) FROM ${t} WHERE ${m} IS NOT NULL AND ${m} <> ${P} AND ABS(${m} - ${P}) <= 1e-9 * MAX(1, ABS(${P}))`);
    if (num(near?.[0]?.[0]) > 0) return undefined;
  }
  for (const other of others) {
    const y = q(other.name);
    const yName = measureName(context, table.name, other);
    const stats = await query(
      context,
      `SELECT ${m} > ${P} AS top, COUNT(*), AVG(${y}), AVG(${y} * ${y}) - AVG(${y}) * AVG(${y}) FROM ${t} WHERE ${m} IS NOT NULL AND ${y} IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    // The comparison is over the rows the threshold was read from: every one of them has the second measure.
    if (!stats || stats.length !== 2 || num(stats[0][1]) + num(stats[1][1]) !== threshold.n) continue;
    // (Not a measure the first nearly holds, a streetcar's gap beside its delay: the top of one is the top of the other.)
    if (await constructedLink(context, table, measure, other)) continue;
    const [rest, top] = stats.map((r) => ({ n: num(r[1]), mean: num(r[2]), variance: Math.max(0, num(r[3])) }));
    if (top.n < MIN_ABOVE_ROWS || Math.abs(welchT(top, rest)) < 2) continue;
    // A temperature in degrees has no true zero: "20% warmer" means nothing, so it is compared in degrees.
    // (Nor has an isotope ratio in delta notation, δ15N in per mil against a standard: compared in per mil.)
    const otherFacts = semanticsOf(context, table.name, other.name);
    const delta = /^\s*[δẟ]\d/u.test(other.originalName || other.name) || /delta notation|per mil|‰/i.test(otherFacts?.description?.value ?? '');
    const interval = otherFacts?.unit?.value.kind === 'temperature' || delta;
    const percent = typeof other.min === 'number' && other.min >= 0 && rest.mean > 0 && !interval;
    if (percent && Math.abs((100 * (top.mean - rest.mean)) / rest.mean) < MIN_DIFFERENCE_PCT) continue;
    const both = `${m} IS NOT NULL AND ${y} IS NOT NULL`;
    const attempt = new TaskProgram(context, 'distribution-subset');
    const again = python
      ? await attempt.python(quantileCode(table, measure), `the 90th percentile of ${name} (Python's statistics.quantiles, method 'inclusive')`, { label: `the 90th percentile of ${name} (statistics.quantiles, inclusive)`, reading: { kind: 'printed-number' } })
      : await thresholdStep(attempt, table, measure, name);
    if (!again || again.key.type !== 'number' || String(again.key.value) !== P) return undefined;
    const above = await attempt.sql(`SELECT ROUND(AVG(${y}), 4) AS average_above, COUNT(*) AS n FROM ${t} WHERE ${both} AND ${m} > ${P}`, `the average ${yName} of the ${rowsWord} whose ${name} is above ${P}`, {
      label: `the average ${yName} of the ${rowsWord} above the 90th percentile of ${name}`,
      reading: { kind: 'number', decimals: 4 },
      uses: [0],
      carries: [P],
    });
    if (!above) continue;
    const below = await attempt.sql(`SELECT ROUND(AVG(${y}), 4) AS average_rest, COUNT(*) AS n FROM ${t} WHERE ${both} AND ${m} <= ${P}`, `the average ${yName} of the other ${rowsWord}`, {
      label: `the average ${yName} of the ${rowsWord} at or below the 90th percentile of ${name}`,
      reading: { kind: 'number', decimals: 4 },
      uses: [0],
      carries: [P],
    });
    if (!below) continue;
    const aTop = `AVG(CASE WHEN ${m} > ${P} THEN ${y} END)`;
    const aRest = `AVG(CASE WHEN ${m} <= ${P} THEN ${y} END)`;
    const difference = await attempt.sql(
      `SELECT ${percent ? `ROUND(100.0 * (${aTop} - ${aRest}) / ${aRest}, 2) AS difference_pct` : `ROUND(${aTop} - ${aRest}, 2) AS difference`} FROM ${t} WHERE ${both}`,
      `how much the average ${yName} above the threshold differs from the rest's${percent ? ', in percent of the rest' : ''}`,
      { label: `the difference between the two average ${yName} values${percent ? ', in percent' : ''}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1, 2], carries: [P] },
    );
    if (!difference || difference.key.type !== 'number' || difference.key.value === 0) continue;
    const cut = python ? PYTHON_QUANTILE : NEAREST_RANK;
    // (Rows with no value of the first measure are neither above nor below its percentile: "the other rows" would take them in.)
    // (Only where such rows have the second measure: where they have neither, "the other rows" with its average are these.)
    const unplaced = measure.nullFraction > 0 ? await query(context, `SELECT COUNT(*) FROM ${t} WHERE ${m} IS NULL AND ${y} IS NOT NULL`) : undefined;
    const theRest = num(unplaced?.[0]?.[0]) > 0 ? `the other ${rowsWord} with a known ${name}` : `the other ${rowsWord}`;
    const ask = percent ? `By what percentage is their average ${yName} higher than that of ${theRest} (negative if lower)?` : `By how much is their average ${yName} higher than that of ${theRest} (negative if lower)?`;
    const question = `Take the ${rowsWord}${tableMention(context, table)} whose ${name} ${isAboveIts(name)} 90th percentile (${cut}). ${ask} Round to 2 decimals.`;
    const task = attempt.task({
      family: 'distribution-subset',
      parameters: { kind: 'top-against-rest', table: table.name, measure: measure.name, other: other.name, python },
      question,
      tables: [table.name],
      dependency: 'group-contrast',
      needs: distributionSubsetFamily.needs,
    });
    if (readsClean(context, task)) return task;
  }
  return undefined;
}

async function concentration(context: FamilyContext, table: TableProfile, measure: ColumnProfile, threshold: Threshold): Promise<TaskSpec | undefined> {
  if (!confidentlyAdditive(context, table.name, measure.name) || typeof measure.min !== 'number' || measure.min < 0) return undefined;
  const t = q(table.name);
  const m = q(measure.name);
  const name = measureName(context, table.name, measure);
  const rowsWord = rowsNoun(context, table, 'many');
  const total = aggregateOf(context, table.name, measure).phrase;
  const program = new TaskProgram(context, 'distribution-subset');
  const first = await thresholdStep(program, table, measure, name);
  if (!first || first.key.type !== 'number' || first.key.value !== threshold.value) return undefined;
  const P = String(threshold.value);
  const second = await program.sql(`SELECT COUNT(*) AS above FROM ${t} WHERE ${m} > ${P}`, `the ${rowsWord} whose ${name} is above ${P}`, {
    label: `the number of ${rowsWord} whose ${name} ${isAboveIts(name)} 90th percentile`,
    reading: { kind: 'number' },
    uses: [0],
    carries: [P],
  });
  if (!second) return undefined;
  const third = await program.sql(
    `SELECT ROUND(100.0 * SUM(CASE WHEN ${m} > ${P} THEN ${m} ELSE 0 END) / SUM(${m}), 2) AS share_pct FROM ${t} WHERE ${m} IS NOT NULL`,
    `the share of the ${total} held by the ${rowsWord} above ${P}, in percent`,
    { label: `the share of the ${total} held by the ${rowsWord} above the 90th percentile of ${name}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [P] },
  );
  // Above the 90th percentile the rows hold more than their share of rows; the answer says how much more.
  if (!third || third.key.type !== 'number' || !(third.key.value > (100 * threshold.above) / threshold.n + MIN_DIFFERENCE_PCT && third.key.value < 100)) return undefined;
  const question = `What percentage of the ${total} comes from the ${rowsWord}${tableMention(context, table)} whose ${name} ${isAboveIts(name)} 90th percentile (${NEAREST_RANK})? Round to 2 decimals.`;
  const task = program.task({
    family: 'distribution-subset',
    parameters: { kind: 'concentration', table: table.name, measure: measure.name },
    question,
    tables: [table.name],
    dependency: 'outlier',
    needs: distributionSubsetFamily.needs,
  });
  return readsClean(context, task) ? task : undefined;
}

