/**
 * Measures a statistic over a table's rows would mix or misread, found once per pool:
 *
 * - **Figures of several indicators in one column.** A long table with an indicator column (`indicator`: `cimt`, `Ep`,
 *   `beta`, …; a `parameter`, an `analyte`, a `metric`) holds, in each value column (`P50`, `P75`), figures of
 *   as many quantities, in their own units: the averages per indicator an order of magnitude apart. Pooled, a percentile
 *   or a correlation mixes units (the round-26 review: three meaningless questions on RKI's percentile table).
 * - **The cells of a reference grid.** A table of model outputs or reference values over a grid (RKI's KiGGS
 *   percentiles: one row per sex × age × height) is keyed by its grid's coordinates, numbers of few values (`ageY` 14
 *   to 43, `height` 150 to 195 by 5). Its rows are the grid's cells, not a sample: a correlation of age with height
 *   is the grid's shape, and a mean or a percentile of a fitted parameter over the cells weighs no one. Such a table is
 *   read by lookups, not by statistics over its rows (the same review: ten of ten questions on it meaningless).
 *
 * The pool keeps these measures out of the families that take a statistic over a table's rows, as it does a
 * partition's measures on different scales (partScales.ts).
 */
import type { CodeRunner } from '../agent/tools';
import type { ColumnProfile, EnvironmentProfile, TableProfile } from '../env/types';
import type { SemanticProfile } from '../semantics/types';
import { nameTokens } from '../semantics/lexicon';
import { quoteIdent as q } from '../text/sql';
import type { PartScale } from './partScales';

/**
 * Words naming a column that says which quantity a long table's row holds. (Not `variable` or `measure`, which as often
 * name the category a quantity is split by: Zurich's vehicles by fuel, `variable` Benzin, Diesel, Wasserstoff, whose
 * averages are far apart and whose sum is all vehicles.)
 */
const INDICATOR_WORDS = new Set(['indicator', 'parameter', 'param', 'analyte', 'metric', 'statistic', 'quantity', 'determinand']);
/** How far apart (as a ratio) the indicators' averages of one column are when they are different quantities. */
const SCALE_RATIO = 10;
/** Values a grid's coordinate takes, at most. */
const MAX_AXIS_VALUES = 60;
/** Share of a grid's cells its rows must fill. */
const MIN_DENSITY = 0.25;
/** Coordinates of a grid, at most, beside its categories. */
const MAX_AXES = 3;

export async function mixedOrGridMeasures(profile: EnvironmentProfile, semantics: SemanticProfile, sql: CodeRunner, signal?: AbortSignal): Promise<PartScale[]> {
  const found: PartScale[] = [];
  const roleOf = (table: TableProfile, column: ColumnProfile) => semantics.columns.find((c) => c.table === table.name && c.column === column.name)?.role.value;
  const run = async (text: string) => {
    const result = await sql.run(text, { signal });
    return result.ok ? (result.rows ?? []) : [];
  };
  for (const table of profile.tables) {
    if (table.rowCount < 50) continue;
    const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && roleOf(table, c) === 'measure');
    if (numeric.length === 0) continue;
    const t = q(table.name);
    // Figures of several indicators in one column.
    const indicator = table.columns.find((c) => c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 50 && nameTokens(c.originalName || c.name).some((w) => INDICATOR_WORDS.has(w)));
    const mixed = new Set<string>();
    if (indicator) {
      for (const column of numeric) {
        const means = (await run(`SELECT ${q(indicator.name)}, AVG(ABS(${q(column.name)})) FROM ${t} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1`)).map((r) => ({ value: String(r[0]), mean: Number(r[1]) })).filter((m) => Number.isFinite(m.mean) && m.mean > 0);
        if (means.length < 2) continue;
        const low = means.reduce((a, b) => (b.mean < a.mean ? b : a));
        const high = means.reduce((a, b) => (b.mean > a.mean ? b : a));
        if (high.mean < SCALE_RATIO * low.mean) continue;
        mixed.add(column.name);
        found.push({ view: table.name, column: column.name, why: `its rows hold figures of ${means.length} ${indicator.name} values (averaging ${round(low.mean)} for ${low.value} to ${round(high.mean)} for ${high.value}): pooled, its rows mix quantities` });
      }
    }
    // The cells of a reference grid: categories and a few numeric coordinates that key every row, beside measures of
    // many values (the grid's outputs).
    const categories = table.columns.filter((c) => c.distinctCount >= 1 && c.distinctCount <= 50 && c.nullFraction === 0 && ['dimension', 'flag', 'ordinal'].includes(roleOf(table, c) ?? ''));
    const candidates = numeric.filter((c) => c.nullFraction < 0.5 && c.distinctCount >= 3 && c.distinctCount <= MAX_AXIS_VALUES && c.distinctCount < table.rowCount / 3).sort((a, b) => a.distinctCount - b.distinctCount).slice(0, 6);
    // (A grid fills its cells: a quarter of them at least. A few rows of a survey are keyed by chance by any numbers.)
    const cells = (columns: ColumnProfile[]) => columns.reduce((n, c) => n * Math.max(1, c.distinctCount), 1);
    const keys = async (columns: ColumnProfile[]) => table.rowCount >= MIN_DENSITY * cells(columns) && Number((await run(`SELECT COUNT(*) FROM (SELECT 1 FROM ${t} GROUP BY ${columns.map((c) => q(c.name)).join(', ')})`))[0]?.[0] ?? 0) === table.rowCount;
    // The fewest coordinates (two or three, the fewest values first) that, with the categories, key every row.
    let axes: ColumnProfile[] | undefined;
    for (const size of [2, 3]) {
      for (const set of subsets(candidates, size)) {
        if (await keys([...categories, ...set])) {
          axes = set;
          break;
        }
      }
      if (axes) break;
    }
    if (!axes) continue;
    const chosen = axes;
    const outputs = numeric.filter((c) => !chosen.includes(c) && c.distinctCount >= 0.5 * table.rowCount);
    if (outputs.length === 0) continue;
    const grid = axes.map((a) => a.originalName || a.name).join(' × ');
    for (const column of numeric) {
      if (mixed.has(column.name)) continue;
      found.push({ view: table.name, column: column.name, why: `the table is a reference grid over ${grid}${categories.length > 0 ? ` and ${categories.map((c) => c.originalName || c.name).join(', ')}` : ''}, one row per cell: its rows are no sample to take statistics over` });
    }
  }
  return found;
}

/** The subsets of `items` of `size` items, in order. */
function subsets<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  const found: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of subsets(items.slice(i + 1), size - 1)) found.push([item, ...rest]);
  });
  return found;
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : String(Math.round(x * 1000) / 1000));
