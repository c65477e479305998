/**
 * Columns whose rows per value the layout fixes, not the world. A seat within a parent — judge `J1`…`J9`, each
 * once on every panel's rows — has as many rows as there are panels with that seat; a partition's file key that
 * names no attribute (`part` for files a.tsv … e.tsv) has as many rows as each file has. Counting rows by either
 * counts the layout; the task pool groups by neither.
 */
import type { Database } from 'sql.js';
import type { TableProfile } from '../env/types';
import { quoteIdent as q } from '../text/sql';
import type { ColumnSemantics, LayoutColumn, Partition } from './types';

const SLOT_ROLES = new Set(['dimension', 'ordinal', 'identifier', 'flag']);
const PARENT_ROLES = new Set(['identifier']);
const MIN_PARENTS = 10;

/**
 * Seats within a parent: a column of 2–50 values that never repeats within one value of an identifier whose values
 * mostly have several rows (the pair is unique, ten or more parents have two seats or more).
 */
function findSlots(db: Database, table: TableProfile, semantics: readonly ColumnSemantics[]): LayoutColumn[] {
  const role = (name: string) => semantics.find((s) => s.column === name)?.role.value ?? '';
  const slots = table.columns.filter((c) => c.type !== 'real' && c.distinctCount >= 2 && c.distinctCount <= 50 && c.distinctCount * 2 <= table.rowCount && c.nullFraction < 0.5 && SLOT_ROLES.has(role(c.name)));
  const parents = table.columns.filter((c) => c.type !== 'real' && c.nullFraction < 0.5 && PARENT_ROLES.has(role(c.name)) && c.distinctCount >= MIN_PARENTS && c.distinctCount <= table.rowCount / 2);
  const found: LayoutColumn[] = [];
  for (const slot of slots) {
    for (const parent of parents) {
      // Seats most parents have: a parent's rows number about half the seats at least (judges: 8 rows per aspect of 9 seats).
      if (parent === slot || table.rowCount / parent.distinctCount < 0.4 * slot.distinctCount) continue;
      const p = q(parent.name);
      const x = q(slot.name);
      let counts: number[];
      let row: unknown[] | undefined;
      try {
        // Rows, distinct (parent, seat) pairs and parents with several rows; then each seat's parents among those.
        const r = `SELECT ${p} AS p, ${x} AS x FROM ${q(table.name)} WHERE ${p} IS NOT NULL AND ${x} IS NOT NULL`;
        row = db.exec(`SELECT COUNT(*), COUNT(DISTINCT p || char(31) || x), (SELECT COUNT(*) FROM (SELECT 1 FROM (${r}) GROUP BY p HAVING COUNT(*) > 1)) FROM (${r})`)[0]?.values[0];
        counts = (db.exec(`SELECT COUNT(DISTINCT p) FROM (${r}) WHERE p IN (SELECT p FROM (${r}) GROUP BY p HAVING COUNT(*) > 1) GROUP BY x`)[0]?.values ?? []).map((v) => Number(v[0])).sort((a, b) => b - a);
      } catch {
        continue;
      }
      const [rows, pairs, several] = (row ?? []).map(Number);
      if (!row || rows === 0 || pairs !== rows || several < MIN_PARENTS) continue;
      // Seats nearly every parent has (J1 … J5 on every panel): its median seat is on 90% of the parents. A store
      // that stocks a product is no seat of it: the median store stocks far fewer than all products.
      const median = counts[Math.floor((counts.length - 1) / 2)] ?? 0;
      if (median < 0.9 * several) continue;
      found.push({ table: table.name, column: slot.name, kind: 'slot', why: `each ${parent.name} has at most one row per ${slot.name} (${several} of them several): ${slot.name} is a seat within it, its rows per value the number of ${parent.name} values with that seat` });
      break;
    }
  }
  return found;
}

/** A partition key that says only which file a row came from (`part`): its rows per value are the files' lengths. */
function fileParts(partitions: readonly Partition[], tables: readonly TableProfile[]): LayoutColumn[] {
  const found: LayoutColumn[] = [];
  for (const p of partitions) {
    if (!p.view || p.key !== 'part') continue;
    const view = tables.find((t) => t.name === p.view);
    // The view names its key column `part`, or `source_part` when a file has a column of that name.
    const column = view?.columns.find((c) => c.name === 'part' || c.name === 'source_part');
    if (view && column) found.push({ table: view.name, column: column.name, kind: 'file-part', why: `${p.view}.${column.name} says which of ${p.tables.length} files a row came from, named by nothing but their order: rows per value are the files' lengths` });
  }
  return found;
}

/**
 * A column that says which kind of record a row is, where the kinds have columns of their own: an aspect of a
 * skating score is an element (base value and GOE filled, no factor) or a component (a factor, no base value). A
 * measure of both kinds means something else in each (element points, a 0–10 mark), and each kind's share of the rows
 * is the records' structure: no task compares or counts across it. Both sides must own a column (two or more in all),
 * so a status whose 'cancelled' rows alone have a reason is no kind.
 */
function findRowKinds(db: Database, table: TableProfile, semantics: readonly ColumnSemantics[]): LayoutColumn[] {
  const role = (name: string) => semantics.find((s) => s.column === name)?.role.value ?? '';
  const kinds = table.columns.filter((c) => c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 12 && c.nullFraction === 0 && role(c.name) === 'dimension');
  const partly = table.columns.filter((c) => c.nullFraction > 0.02 && c.nullFraction < 0.98);
  if (partly.length < 2) return [];
  const found: LayoutColumn[] = [];
  for (const kind of kinds) {
    const others = partly.filter((c) => c !== kind);
    let rows: unknown[][];
    try {
      rows = db.exec(`SELECT COUNT(*), ${others.map((c) => `COUNT(${q(c.name)})`).join(', ')} FROM ${q(table.name)} GROUP BY ${q(kind.name)} HAVING COUNT(*) >= 10`)[0]?.values ?? [];
    } catch {
      continue;
    }
    if (rows.length < 2) continue;
    // Two kinds that each own a column: filled on 90% of its rows or more, empty on every row of the other kind.
    const filled = others.map((_, i) => rows.map((r) => Number(r[i + 1]) / Number(r[0])));
    const owns = (a: number, b: number) => others.filter((_, i) => filled[i][a] >= 0.9 && filled[i][b] === 0).map((c) => c.name);
    let pair: [string[], string[]] | undefined;
    for (let a = 0; a < rows.length && !pair; a++) {
      for (let b = a + 1; b < rows.length && !pair; b++) {
        const [ownA, ownB] = [owns(a, b), owns(b, a)];
        if (ownA.length > 0 && ownB.length > 0) pair = [ownA, ownB];
      }
    }
    if (!pair) continue;
    const owning = pair;
    found.push({ table: table.name, column: kind.name, kind: 'row-kind', why: `${kind.name} tells kinds of rows apart that fill different columns (${owning[0].join(', ')} in one, ${owning[1].join(', ')} in another): a measure of both kinds means something else in each` });
  }
  return found;
}

export function findLayoutColumns(db: Database, tables: readonly TableProfile[], semanticsOf: (table: string) => readonly ColumnSemantics[], partitions: readonly Partition[]): LayoutColumn[] {
  const found = fileParts(partitions, tables);
  for (const table of tables) if (table.rowCount >= 20) found.push(...findSlots(db, table, semanticsOf(table.name)), ...findRowKinds(db, table, semanticsOf(table.name)));
  return found;
}
