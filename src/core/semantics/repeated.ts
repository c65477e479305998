/**
 * Values of a parent repeated on its children's rows: a measure whose value one key of its table fixes (every party
 * row of one election carries the chamber size, every election row of one party its left–right position). Summing
 * or averaging it over the rows counts each parent once per child — the chamber sizes of a country's elections
 * weighted by how many parties stood — so tasks aggregate it over the parents, or in the parent's own table.
 */
import type { Database } from 'sql.js';
import type { TableProfile } from '../env/types';
import { quoteIdent as q } from '../text/sql';
import type { ColumnSemantics, RepeatedValue } from './types';

/** Keys tried per table, and the share of multi-row parents whose value may differ (data-entry slips). */
const MAX_KEYS = 8;
const SLIP_SHARE = 0.01;
const MIN_MULTI_PARENTS = 10;
/**
 * On a large table, the rows read: about ROW_LIMIT rows in SAMPLE_BLOCKS runs spread over the whole table, so a
 * value that changes late in a table sorted by month still shows; a view (no rowid) gives its first rows. Whether a
 * key fixes a value shows on such a sample, and loading must stay fast — grouping all of a million rows by a key
 * took 1.6 s of a 1.9 s semantic profile.
 */
const ROW_LIMIT = 100_000;
const SAMPLE_BLOCKS = 20;

/** The rows a check reads: the table, or on a large one an even sample of ROW_LIMIT rows. */
function rowsOf(db: Database, table: TableProfile): string {
  if (table.rowCount <= ROW_LIMIT) return q(table.name);
  if (table.viewSql) return `(SELECT * FROM ${q(table.name)} LIMIT ${ROW_LIMIT})`;
  // Blocks of consecutive rows spread over the table's rowids, read by ranges: a `rowid % n` filter reads every row.
  let first = 1;
  let last = table.rowCount;
  try {
    // Two lookups at the ends of the rowid tree (MIN and MAX together in one SELECT would read every row).
    const ends = db.exec(`SELECT (SELECT rowid FROM ${q(table.name)} ORDER BY rowid LIMIT 1), (SELECT rowid FROM ${q(table.name)} ORDER BY rowid DESC LIMIT 1)`)[0]?.values[0];
    if (ends && ends[0] !== null) [first, last] = [Number(ends[0]), Number(ends[1])];
  } catch {
    return `(SELECT * FROM ${q(table.name)} LIMIT ${ROW_LIMIT})`;
  }
  const stride = Math.floor((last - first + 1) / SAMPLE_BLOCKS);
  const size = Math.max(1, Math.floor((ROW_LIMIT / table.rowCount) * stride));
  const ranges = Array.from({ length: SAMPLE_BLOCKS }, (_, i) => `rowid BETWEEN ${first + i * stride} AND ${first + i * stride + size - 1}`);
  return `(SELECT * FROM ${q(table.name)} WHERE ${ranges.join(' OR ')})`;
}

const KEY_ROLES = new Set(['identifier', 'dimension', 'geo', 'time', 'ordinal']);

/** The columns that may be a parent's key: repeated values (2 or more rows each on average), mostly filled, not real numbers. */
function candidateKeys(table: TableProfile, semantics: readonly ColumnSemantics[]): TableProfile['columns'] {
  const role = (name: string) => semantics.find((s) => s.column === name)?.role.value;
  return table.columns
    .filter((c) => c.type !== 'real' && c.nullFraction < 0.5 && c.distinctCount >= 2 && c.distinctCount <= table.rowCount / 2 && KEY_ROLES.has(role(c.name) ?? ''))
    .sort((a, b) => (role(a.name) === 'identifier' ? 0 : 1) - (role(b.name) === 'identifier' ? 0 : 1) || b.distinctCount - a.distinctCount)
    .slice(0, MAX_KEYS);
}

/** Whether the rows of most parents with several rows differ in some column (else the key's rows are one row copied). */
function rowsDiffer(db: Database, table: TableProfile, key: TableProfile['columns'][number]): boolean {
  const others = table.columns.filter((c) => c !== key);
  if (others.length === 0) return false;
  const signature = others.map((c) => `IFNULL(${q(c.name)}, '')`).join(` || char(31) || `);
  try {
    const row = db.exec(`SELECT SUM(n > 1), SUM(n > 1 AND w > 1) FROM (SELECT COUNT(*) AS n, COUNT(DISTINCT ${signature}) AS w FROM ${rowsOf(db, table)} WHERE ${q(key.name)} IS NOT NULL GROUP BY ${q(key.name)})`)[0]?.values[0];
    return row !== undefined && Number(row[0]) > 0 && Number(row[1]) >= 0.9 * Number(row[0]);
  } catch {
    return false;
  }
}

/**
 * The measures of a table whose value one key fixes: on every parent with two or more rows (at least ten such
 * parents, a third of them), the rows agree, while the rows themselves differ (another column varies within the
 * parent: not duplicated rows). Each measure is given its coarsest such key (a value fixed by the country is the
 * country's, even though each election of it repeats it too).
 */
export function findRepeatedValues(db: Database, tables: readonly TableProfile[], semanticsOf: (table: string) => readonly ColumnSemantics[]): RepeatedValue[] {
  const found: RepeatedValue[] = [];
  for (const table of tables) {
    if (table.rowCount < 20) continue;
    const semantics = semanticsOf(table.name);
    const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount >= 3 && semantics.find((s) => s.column === c.name)?.role.value === 'measure');
    if (numeric.length === 0) continue;
    const best = new Map<string, RepeatedValue>();
    for (const key of candidateKeys(table, semantics)) {
      // A value one key fixes has at most as many distinct values as the key.
      const measures = numeric.filter((m) => m.distinctCount <= key.distinctCount);
      if (measures.length === 0) continue;
      const inner = [`COUNT(*) AS n`, ...measures.flatMap((m, i) => [`COUNT(${q(m.name)}) AS c${i}`, `COUNT(DISTINCT ${q(m.name)}) AS d${i}`])];
      const outer = measures.flatMap((_, i) => [`SUM(c${i} > 0)`, `SUM(c${i} > 1)`, `SUM(c${i} > 1 AND d${i} > 1)`]);
      let row: unknown[] | undefined;
      try {
        row = db.exec(`SELECT ${outer.join(', ')} FROM (SELECT ${inner.join(', ')} FROM ${rowsOf(db, table)} WHERE ${q(key.name)} IS NOT NULL GROUP BY ${q(key.name)})`)[0]?.values[0];
      } catch {
        continue;
      }
      if (!row) continue;
      const fixed: Array<{ m: (typeof measures)[number]; parents: number; several: number; differing: number }> = [];
      measures.forEach((m, i) => {
        const parents = Number(row![3 * i]);
        const several = Number(row![1 + 3 * i]);
        const differing = Number(row![2 + 3 * i]);
        if (several < MIN_MULTI_PARENTS || several < parents / 3 || differing > SLIP_SHARE * several) return;
        const previous = best.get(m.name);
        if (previous && previous.parents <= parents) return;
        fixed.push({ m, parents, several, differing });
      });
      if (fixed.length === 0 || !rowsDiffer(db, table, key)) continue;
      for (const { m, parents, several, differing } of fixed) {
        const slips = differing > 0 ? ` (all but ${differing})` : '';
        best.set(m.name, { table: table.name, column: m.name, parent: key.name, parents, why: `one ${m.name} per ${key.name}: the ${several} ${key.name} values with several rows each repeat one value on all their rows${slips}` });
      }
    }
    found.push(...best.values());
  }
  return found;
}
