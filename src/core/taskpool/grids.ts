/**
 * Tables whose rows are the cells of a grid: one row per series (a station and a pollutant, a budget category) and
 * period (a year, a baseline date), holding a value. Counting such rows counts the grid — how many series and
 * periods the file happens to cover — not anything in the world (a blind review of round 9 found "the number of
 * rows per category" and "the change in rows from 2018 to 2019" on such tables meaningless). The pool measures
 * them once; the families that count rows leave them out and still sum or average their values.
 *
 * A grid: a key of at most six columns, none an identifier or a flag (an id makes rows entities or events; a row
 * number does not), at least one a period (a day, week, month, quarter, year or hour of the day, not a moment) and a series column or a second period,
 * unique over the rows, and dense — the rows fill at least half of the series × periods the key spans (events keyed
 * by a city and a date by chance do not).
 */
import type { CodeRunner } from '../agent/tools';
import type { EnvironmentProfile, TableProfile } from '../env/types';
import type { SemanticProfile } from '../semantics/types';
import { quoteIdent as q } from '../text/sql';

export interface GridTable {
  table: string;
  /** The key columns, series first, then periods. */
  key: string[];
  why: string;
}

/** Tables larger than this are not tested (each test is a DISTINCT over the table). */
const MAX_ROWS = 200_000;
/** Candidate key columns tried, at most (the fewest distinct values first). */
const MAX_CANDIDATES = 7;
const MAX_KEY = 6;
/** Share of series × periods the rows must fill. */
const MIN_DENSITY = 0.5;
/** Rows a key of two periods alone needs. */
const MIN_PERIOD_PAIRS = 50;

// An hour of the day indexes the cells of a day × hour grid (hourly counts) as a period does.
const PERIOD_GRAINS = new Set(['day', 'week', 'month', 'quarter', 'year', 'hour-of-day']);

export async function gridTables(profile: EnvironmentProfile, semantics: SemanticProfile, sql: CodeRunner, signal?: AbortSignal): Promise<GridTable[]> {
  const found: GridTable[] = [];
  for (const table of profile.tables) {
    if (table.rowCount < 20 || table.rowCount > MAX_ROWS) continue;
    const grid = await gridOf(table, semantics, sql, signal);
    if (grid) found.push(grid);
  }
  return found;
}

async function gridOf(table: TableProfile, semantics: SemanticProfile, sql: CodeRunner, signal?: AbortSignal): Promise<GridTable | undefined> {
  const roleOf = (column: string) => semantics.columns.find((c) => c.table === table.name && c.column === column);
  // An identifier unique per row makes the rows entities or events, which are counted as such.
  // A row number (`instant`, the record index) numbers the cells; it makes them nothing else.
  if (table.columns.some((c) => c.candidateKey && roleOf(c.name)?.role.value === 'identifier' && roleOf(c.name)?.identifier !== 'row-index')) return undefined;
  if (!table.columns.some((c) => roleOf(c.name)?.role.value === 'measure')) return undefined;
  const regular = await regularSeries(table, semantics, sql, signal);
  if (regular) return regular;
  const isPeriod = (name: string) => {
    const s = roleOf(name);
    return s?.role.value === 'time' && s.time !== undefined && PERIOD_GRAINS.has(s.time.grain);
  };
  const candidates = table.columns
    // (A region empty on the national rows of an official table still indexes its regional rows: NULL is one of its values.)
    .filter((c) => c.distinctCount >= 2 && c.distinctCount < table.rowCount && c.nullFraction < 0.5)
    // Flags mark cells (a spring baseline), they do not index them.
    .filter((c) => ['dimension', 'geo', 'ordinal'].includes(roleOf(c.name)?.role.value ?? '') || isPeriod(c.name))
    .sort((a, b) => a.distinctCount - b.distinctCount);
  const count = async (columns: string[]): Promise<number | undefined> => {
    const result = await sql.run(`SELECT COUNT(*) FROM (SELECT DISTINCT ${columns.map(q).join(', ')} FROM ${q(table.name)})`, { signal });
    return result.ok ? Number(result.rows?.[0]?.[0]) : undefined;
  };
  // A name beside its code (`country_name` beside `country_code`, as many values, one for one) indexes nothing more:
  // it is left out, so the few candidates tried are different ones.
  const kept: typeof candidates = [];
  for (const c of candidates) {
    if (kept.length >= MAX_CANDIDATES) break;
    let twin = false;
    for (const k of kept) {
      if (k.distinctCount === c.distinctCount && (await count([k.name, c.name])) === c.distinctCount) {
        twin = true;
        break;
      }
    }
    if (!twin) kept.push(c);
  }
  candidates.splice(0, candidates.length, ...kept);
  if (!candidates.some((c) => isPeriod(c.name))) return undefined;
  for (let size = 2; size <= MAX_KEY; size++) {
    for (const key of combinations(candidates.map((c) => c.name), size)) {
      const periods = key.filter(isPeriod);
      const series = key.filter((k) => !isPeriod(k));
      // Periods alone index a grid too when there are two (a projection made at a date, for a later year).
      if (periods.length === 0 || (series.length === 0 && periods.length < 2)) continue;
      // The product of the distinct counts must reach the rows before a key can be unique.
      const product = key.reduce((p, k) => p * (table.columns.find((c) => c.name === k)?.distinctCount ?? 1), 1);
      if (product < table.rowCount) continue;
      if ((await count(key)) !== table.rowCount) continue;
      const seriesCount = series.length > 0 ? await count(series) : 1;
      const periodCount = await count(periods);
      if (!seriesCount || !periodCount) continue;
      // Dense: the series fill most of their periods. Two periods alone (a projection made at a date for a later year)
      // fill a band of their product, not the product: there, a unique pair over enough rows is the grid.
      if (series.length > 0 ? table.rowCount < MIN_DENSITY * seriesCount * periodCount : table.rowCount < MIN_PERIOD_PAIRS) continue;
      return {
        table: table.name,
        key: [...series, ...periods],
        why: `one row per ${[...series, ...periods].join(' × ')} (${seriesCount} series × ${periodCount} periods, ${table.rowCount} rows): its row counts are the grid's coverage`,
      };
    }
  }
  return undefined;
}

/** Steps of a regular series in words. */
const STEPS: Record<number, string> = { 60: 'minute', 900: 'quarter of an hour', 1800: 'half hour', 3600: 'hour', 86_400: 'day', 604_800: 'week' };

/**
 * A regular series: one row per moment of a fixed step (an hourly reading, a daily record), its time column unique
 * and at least 95% of its rows one step after the row before. Its rows per month are the month's hours or days:
 * the calendar, not anything in the world (a blind review of round 11 found "the change in the number of rows from
 * November to December" of an hourly file attributed to its data sources).
 */
async function regularSeries(table: TableProfile, semantics: SemanticProfile, sql: CodeRunner, signal?: AbortSignal): Promise<GridTable | undefined> {
  if (table.rowCount < 48) return undefined;
  const time = table.columns.find((c) => {
    const s = semantics.columns.find((x) => x.table === table.name && x.column === c.name);
    return s?.role.value === 'time' && (s.time?.storage === 'iso-date' || s.time?.storage === 'iso-datetime') && c.distinctCount === table.rowCount && c.nullFraction === 0;
  });
  if (!time) return undefined;
  const t = q(time.name);
  const result = await sql.run(`SELECT d, COUNT(*) FROM (SELECT CAST(strftime('%s', ${t}) AS INTEGER) - LAG(CAST(strftime('%s', ${t}) AS INTEGER)) OVER (ORDER BY ${t}) AS d FROM ${q(table.name)}) WHERE d IS NOT NULL GROUP BY d ORDER BY 2 DESC LIMIT 1`, { signal });
  const step = Number(result.rows?.[0]?.[0]);
  const steps = Number(result.rows?.[0]?.[1]);
  if (!result.ok || !(step > 0) || steps < 0.95 * (table.rowCount - 1)) return undefined;
  const every = STEPS[step] ?? `${step} seconds`;
  return { table: table.name, key: [time.name], why: `one row per ${every} of ${time.name} (${steps} of ${table.rowCount - 1} steps alike): its row counts per period are the calendar's` };
}

function* combinations<T>(items: readonly T[], size: number, start = 0, chosen: T[] = []): Generator<T[]> {
  if (chosen.length === size) {
    yield [...chosen];
    return;
  }
  for (let i = start; i < items.length; i++) {
    chosen.push(items[i]);
    yield* combinations(items, size, i + 1, chosen);
    chosen.pop();
  }
}

/** Share of a nested array's items that are empty for its row count to be left alone. */
const MAX_EMPTY_SHARE = 0.1;

/**
 * Items of a nested JSON array that a form saved empty (a bibliography's `person` entries `{"name": "", "role": ""}`,
 * one per record whether it has an author or not): where a tenth of the items or more hold nothing but their keys,
 * counting items counts the form's defaults, so no family counts them (a blind review of round 17 found such counts
 * meaningless). Their filled items' values are still asked about.
 */
export async function emptyEntryTables(profile: EnvironmentProfile, sql: CodeRunner, signal?: AbortSignal): Promise<GridTable[]> {
  const found: GridTable[] = [];
  for (const table of profile.tables) {
    if (!table.parent || table.rowCount === 0 || table.rowCount > MAX_ROWS) continue;
    const values = table.columns.filter((c) => !c.name.startsWith('_'));
    if (values.length === 0) continue;
    // (An empty list or an empty string in one, `[]`, `[""]`, is as empty.)
    const empty = values.map((c) => `(${q(c.name)} IS NULL OR TRIM(CAST(${q(c.name)} AS TEXT)) IN ('', '[]', '[""]', '{}', 'null'))`).join(' AND ');
    const result = await sql.run(`SELECT COUNT(*) FROM ${q(table.name)} WHERE ${empty}`, { signal });
    const n = result.ok ? Number(result.rows?.[0]?.[0] ?? 0) : 0;
    if (n >= MAX_EMPTY_SHARE * table.rowCount) found.push({ table: table.name, key: [], why: `${n} of its ${table.rowCount} items hold nothing but their keys: counted, they count a form's empty defaults` });
  }
  return found;
}
