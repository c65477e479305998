/**
 * The same data twice. Twin tables: two files of one view (a CSV export and a workbook sheet with the same columns
 * and rows) — a question over one is a question over the other, so tasks are asked over one of them. Twin columns: a
 * code and the name it abbreviates in one table (`country_name_short` "DNK" ↔ `country_name` "Denmark"), each
 * value of one going with one value of the other — grouping by either groups alike, and the name reads as words.
 */
import type { Database } from 'sql.js';
import type { TableProfile } from '../env/types';
import { quoteIdent as q } from '../text/sql';
import type { ColumnSemantics, TwinColumns, TwinTables } from './types';

/** The share of rows two twins may differ in (a value one source leaves empty and the other writes `NA`, a rounding). */
const DIFFERING_SHARE = 0.2;
const MAX_TWIN_ROWS = 200_000;

/** A column name as two exports of one table may spell it: `image.title` and `image_title` alike. */
const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** The columns two tables share by name (normalized), as pairs; undefined when they share under 80% of either's. */
function sharedColumns(a: TableProfile, b: TableProfile): Array<[string, string]> | undefined {
  const inB = new Map(b.columns.map((c) => [normal(c.name), c.name]));
  const pairs = a.columns.flatMap((c): Array<[string, string]> => (inB.has(normal(c.name)) ? [[c.name, inB.get(normal(c.name))!]] : []));
  return pairs.length >= 2 && pairs.length >= 0.8 * a.columns.length && pairs.length >= 0.8 * b.columns.length ? pairs : undefined;
}

/** Rows of `a` not in `b` (as sets of rows over the shared columns), or undefined when the query fails. */
function rowsMissing(db: Database, a: TableProfile, b: TableProfile, pairs: Array<[string, string]>): number | undefined {
  try {
    const row = db.exec(`SELECT COUNT(*) FROM (SELECT ${pairs.map(([x]) => q(x)).join(', ')} FROM ${q(a.name)} EXCEPT SELECT ${pairs.map(([, y]) => q(y)).join(', ')} FROM ${q(b.name)})`)[0]?.values[0];
    return row ? Number(row[0]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tables with the same columns (by name, 80% of each at least: a JSON export may spell `image.title` where the CSV
 * writes `image_title`, or add a column) and the same rows on them, grouped: the first of each group in the environment's
 * order is kept (the order files were read in), the others are its copies.
 */
export function findTwinTables(db: Database, tables: readonly TableProfile[]): TwinTables[] {
  const candidates = tables.filter((t) => t.kind === 'table' && t.rowCount >= 2 && t.rowCount <= MAX_TWIN_ROWS && t.columns.length >= 2);
  const found: TwinTables[] = [];
  const taken = new Set<string>();
  for (const [i, kept] of candidates.entries()) {
    if (taken.has(kept.name)) continue;
    const copies: string[] = [];
    for (const other of candidates.slice(i + 1)) {
      const shared = taken.has(other.name) || other.rowCount !== kept.rowCount ? undefined : sharedColumns(kept, other);
      if (!shared) continue;
      // A column one export writes otherwise on every row (a list as `[2, 8]` and `[2,8]`) says nothing about the rows:
      // the rows are compared on the columns whose values agree, 80% of the shared ones at least.
      const pairs = shared.filter((pair) => rowsMissing(db, kept, other, [pair]) === 0 && rowsMissing(db, other, kept, [[pair[1], pair[0]]]) === 0);
      if (pairs.length < 2 || pairs.length < 0.8 * shared.length) continue;
      const one = rowsMissing(db, kept, other, pairs);
      const two = one === undefined ? undefined : rowsMissing(db, other, kept, pairs.map(([x, y]): [string, string] => [y, x]));
      if (one === undefined || two === undefined || Math.max(one, two) > DIFFERING_SHARE * kept.rowCount) continue;
      copies.push(other.name);
      taken.add(other.name);
    }
    if (copies.length > 0) found.push({ kept: kept.name, copies, why: `${[kept.name, ...copies].join(' and ')} have the same columns and the same ${kept.rowCount} rows: one table saved twice` });
  }
  return found;
}

const TWIN_ROLES = new Set(['dimension', 'geo', 'identifier', 'text', 'ordinal']);
const MAX_TWIN_VALUES = 500;

/**
 * Pairs of text columns of one table, each value on two rows or more on average (groupings, not a list's names),
 * that determine each other (as many distinct values each, and as many distinct
 * pairs), where one spells its values as words and the other as short codes (`DNK`, `con`): the code is the copy.
 */
export function findTwinColumns(db: Database, tables: readonly TableProfile[], semanticsOf: (table: string) => readonly ColumnSemantics[]): TwinColumns[] {
  const found: TwinColumns[] = [];
  for (const table of tables) {
    if (table.rowCount < 10) continue;
    const semantics = semanticsOf(table.name);
    const texts = table.columns.filter((c) => c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= MAX_TWIN_VALUES && c.distinctCount * 2 <= table.rowCount && c.nullFraction < 0.5 && TWIN_ROLES.has(semantics.find((s) => s.column === c.name)?.role.value ?? ''));
    const copies = new Set<string>();
    for (const [i, a] of texts.entries()) {
      for (const b of texts.slice(i + 1)) {
        if (a.distinctCount !== b.distinctCount || copies.has(a.name) || copies.has(b.name)) continue;
        let row: unknown[] | undefined;
        try {
          row = db.exec(`SELECT COUNT(DISTINCT ${q(a.name)} || char(31) || ${q(b.name)}), AVG(LENGTH(${q(a.name)})), AVG(LENGTH(${q(b.name)})), SUM(${q(a.name)} LIKE '% %'), SUM(${q(b.name)} LIKE '% %'), SUM(${q(a.name)} GLOB '*[0-9]*'), SUM(${q(b.name)} GLOB '*[0-9]*'), COUNT(*) FROM ${q(table.name)} WHERE ${q(a.name)} IS NOT NULL AND ${q(b.name)} IS NOT NULL`)[0]?.values[0];
        } catch {
          continue;
        }
        if (!row || Number(row[0]) !== a.distinctCount) continue;
        const [lengthA, lengthB] = [Number(row[1]), Number(row[2])];
        // The code is the shorter spelling, without spaces, at most about half as long as the name.
        const [name, code, codeLength, nameLength, codeSpaces, codeDigits, nameDigits] = lengthA >= lengthB ? [a, b, lengthB, lengthA, Number(row[4]), Number(row[6]), Number(row[5])] : [b, a, lengthA, lengthB, Number(row[3]), Number(row[5]), Number(row[6])];
        // (…or a code of letters and digits beside names written without any, a statistics office's area code
        // `E12000001` beside `North East`.)
        const alphanumeric = codeDigits === Number(row[7]) && nameDigits === 0 && codeLength <= 12;
        if (codeSpaces > 0 || (!alphanumeric && (codeLength > 6 || codeLength > 0.6 * nameLength))) continue;
        copies.add(code.name);
        found.push({ table: table.name, kept: name.name, copy: code.name, why: `each ${code.name} value goes with one ${name.name} value and back (${a.distinctCount} of each): ${code.name} is ${name.name} as a code` });
      }
    }
  }
  return found;
}
