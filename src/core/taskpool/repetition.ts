/**
 * A grouping must repeat: a column whose values each belong to one row (a per-article id such as a PubMed Central id
 * or a Web of Science record id, often beside a placeholder like 'NA' on the rows without one) has few enough
 * distinct values to look like a category in a small table, yet "its leading pubmed central id" names one row, not a
 * group. Measured once per pool, before the families choose their groupings; each column left out keeps its reason
 * for the pool report.
 */
import type { EnvironmentProfile } from '../env/types';
import type { CodeRunner } from '../agent/tools';
import { quoteIdent as q } from '../text/sql';

/** Share of the rows (outside the most common value) holding a value no other row holds, above which a column is no grouping. */
export const MAX_SINGLETON_SHARE = 0.5;

export interface UngroupedColumn {
  table: string;
  column: string;
  why: string;
}

/** The key `groupings` looks a column up by. */
export const repetitionKey = (table: string, column: string) => `${table}\u0000${column}`;

/**
 * The columns of 2–50 distinct values (the groupings' range), written mostly with digits, whose rows, apart from the
 * most common value, mostly hold a value of their own: near-unique per-row ids, not dimensions.
 */
export async function nearUniqueColumns(profile: EnvironmentProfile, sql: CodeRunner, signal?: AbortSignal): Promise<UngroupedColumn[]> {
  const found: UngroupedColumn[] = [];
  for (const table of profile.tables) {
    if (table.rowCount < 10) continue;
    for (const column of table.columns) {
      if (column.distinctCount < 2 || column.distinctCount > 50 || column.nullFraction >= 0.5 || column.type === 'real' || column.binary) continue;
      const c = q(column.name);
      const result = await sql.run(
        `SELECT SUM(n) AS rows_with_value, MAX(n) AS top, SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END) AS singletons, AVG(CASE WHEN CAST(v AS TEXT) GLOB '*[0-9]*' THEN 1.0 ELSE 0.0 END) AS coded FROM (SELECT ${c} AS v, COUNT(*) AS n FROM ${q(table.name)} WHERE ${c} IS NOT NULL GROUP BY ${c})`,
        { signal },
      );
      const row = result.ok ? result.rows?.[0] : undefined;
      if (!row) continue;
      const [rows, top, singletons, coded] = row.map((v) => Number(v));
      // An id is written with digits (PMC11951386, ut:000702141200005, 10.1000/xyz); a town or a publisher that only
      // one row names in a small table is a thin category, not an id.
      if (!(coded > 0.5)) continue;
      // The most common value may be a placeholder ('NA', '0') on the rows without an id: the rest decide.
      const rest = rows - top;
      const singles = top === 1 ? singletons - 1 : singletons;
      if (rest >= 2 && singles / rest > MAX_SINGLETON_SHARE) {
        found.push({ table: table.name, column: column.name, why: `no grouping: ${singles} of the ${rest} rows outside its most common value hold a value no other row holds (a per-row id, not a category)` });
      }
    }
  }
  return found;
}

/** A value as its spellings share it: lower case, without spaces (a no-break space too), slashes, dots or hyphens. */
export function spellingKey(column: string): string {
  return `replace(replace(replace(replace(lower(trim(replace(${column}, char(160), ' '))), '/', ''), '.', ''), '-', ''), ' ', '')`;
}

/**
 * The text columns of 2–50 distinct values whose values are written several ways — differing only in letter case or
 * in surrounding spaces, the no-break space a spreadsheet leaves included (`Offshore` and `offshore`, `'A'` and
 * `'A\u00a0'`): grouped or filtered as written, an answer depends on a cleaning the question does not state, so no
 * family but the cleaning one groups by them.
 */
export async function spelledSeveralWays(profile: EnvironmentProfile, sql: CodeRunner, signal?: AbortSignal): Promise<UngroupedColumn[]> {
  const found: UngroupedColumn[] = [];
  for (const table of profile.tables) {
    for (const column of table.columns) {
      if (column.type !== 'text' || column.distinctCount < 2 || column.distinctCount > 50 || column.nullFraction >= 0.5) continue;
      const c = q(column.name);
      // (…or in the punctuation between letters, `E/B`, `EB` and `eb` for eastbound: one direction written three ways.)
      const result = await sql.run(`SELECT COUNT(DISTINCT ${c}), COUNT(DISTINCT ${spellingKey(c)}) FROM ${q(table.name)} WHERE ${c} IS NOT NULL`, { signal });
      const row = result.ok ? result.rows?.[0] : undefined;
      if (!row) continue;
      const [written, meant] = row.map((v) => Number(v));
      if (meant < written) found.push({ table: table.name, column: column.name, why: `no grouping as written: its ${written} values are ${meant} written several ways (letter case, spaces or punctuation), which a question would have to say how to merge` });
    }
  }
  return found;
}

/** One cell's items, where it packs several (`IMEx,IntAct`, `a; b`, `x|y`): each short, none with a run of spaces. */
function packedItems(value: string): string[] | undefined {
  if (!/^[^,;|\s][^,;|]*([,;|]\s?[^,;|\s][^,;|]*)+$/.test(value)) return undefined;
  const items = value.split(/[,;|]\s?/).map((p) => p.trim());
  return items.every((p) => p.length > 0 && p.length <= 30 && !/\s{2}/.test(p)) ? items : undefined;
}

/**
 * Text columns of 2–50 values that pack sets of items in one cell, items that also stand alone as values
 * (CellPhoneDB's `annotation_strategy` 'I2D', 'IMEx,IntAct', 'I2D,IMEx,InnateDB-All'): a row counted under its set is
 * not counted under each item, so "which source has the most" has two answers. No family groups by them.
 */
export async function packedSets(profile: EnvironmentProfile, sql: CodeRunner, signal?: AbortSignal): Promise<UngroupedColumn[]> {
  const found: UngroupedColumn[] = [];
  for (const table of profile.tables) {
    for (const column of table.columns) {
      if (column.type !== 'text' || column.distinctCount < 3 || column.distinctCount > 50 || column.nullFraction >= 0.5) continue;
      const result = await sql.run(`SELECT DISTINCT TRIM(${q(column.name)}) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL LIMIT 51`, { signal });
      const values = result.ok ? (result.rows ?? []).map((r) => String(r[0])) : [];
      const packed = values.map((v) => ({ v, items: packedItems(v) })).filter((p) => p.items !== undefined);
      if (packed.length < 2) continue;
      const alone = new Set(values.filter((v) => packedItems(v) === undefined));
      const shared = packed.filter((p) => p.items!.filter((i) => alone.has(i)).length >= 2);
      if (shared.length >= 2) found.push({ table: table.name, column: column.name, why: `no grouping: ${shared.length} of its values pack several others in one cell ('${shared[0].v}'), so a row counted under its set is not counted under each` });
    }
  }
  return found;
}

/** Cells that say a value is not known (`NA`, `N/A`, `NULL` written out, as R and spreadsheets export them). */
const NOT_KNOWN_SQL = "('NA', 'na', 'N/A', 'n/a', '#N/A', 'NULL', 'null', 'NaN', '<NA>')";
/** Share of the rows holding such a mark above which a column is no grouping. */
export const MAX_NOT_KNOWN_SHARE = 0.05;

/**
 * Text columns of 2–50 values where 5% or more of the rows write the value as not known (`NA`): a tide state blank on
 * 58% of the surveys makes every known state look over-represented, and whether the `NA` rows count in a share's base
 * decides the answer. No family groups or filters by them.
 */
export async function mostlyNotKnown(profile: EnvironmentProfile, sql: CodeRunner, signal?: AbortSignal): Promise<UngroupedColumn[]> {
  const found: UngroupedColumn[] = [];
  for (const table of profile.tables) {
    for (const column of table.columns) {
      if (column.type !== 'text' || column.distinctCount < 2 || column.distinctCount > 50 || column.nullFraction >= 0.5) continue;
      const c = q(column.name);
      const result = await sql.run(`SELECT COUNT(*), SUM(CASE WHEN TRIM(${c}) IN ${NOT_KNOWN_SQL} THEN 1 ELSE 0 END) FROM ${q(table.name)} WHERE ${c} IS NOT NULL`, { signal });
      const row = result.ok ? result.rows?.[0] : undefined;
      if (!row) continue;
      const [rows, marked] = row.map((v) => Number(v));
      if (rows > 0 && marked >= MAX_NOT_KNOWN_SHARE * rows) found.push({ table: table.name, column: column.name, why: `no grouping: ${marked} of its ${rows} rows write it as not known ('NA'), and whether they count in a share's base decides the answer` });
    }
  }
  return found;
}

