/**
 * What the Data Environment view reads from the environment's SQLite image beyond the profile: the primary keys a
 * SQLite source declared, the columns stored as binary (BLOB), and the first rows of a table for its preview.
 * No vscode import (unit-tested). The semantic layer will carry roles such as "binary" and "identifier"; until
 * the profile has them, the view asks the image.
 */
import type { Database } from 'sql.js';
import { loadSqlJs } from '../core/env/sqlJs';
import type { EnvironmentProfile } from '../core/env/types';
import { quoteIdent as quote } from '../core/text/sql';

export interface EnvironmentFacts {
  /** Per table, the columns of the primary key its source declared (SQLite), in key order. */
  primaryKeys: Map<string, string[]>;
  /** `table.column` for columns whose values are stored as BLOBs. */
  binaryColumns: Set<string>;
}

async function withImage<T>(image: Uint8Array, read: (db: Database) => T): Promise<T> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(image);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export async function readEnvironmentFacts(image: Uint8Array, profile: EnvironmentProfile): Promise<EnvironmentFacts> {
  return withImage(image, (db) => {
    const facts: EnvironmentFacts = { primaryKeys: new Map(), binaryColumns: new Set() };
    for (const table of profile.tables) {
      const info = db.exec(`PRAGMA table_info(${quote(table.name)})`)[0];
      if (!info) continue;
      const at = (column: string) => info.columns.indexOf(column);
      const keys = info.values
        .map((row) => ({ name: String(row[at('name')]), type: String(row[at('type')] ?? '').toUpperCase(), pk: Number(row[at('pk')]) }))
        .sort((a, b) => a.pk - b.pk);
      const declared = keys.filter((c) => c.pk > 0).map((c) => c.name);
      if (declared.length) facts.primaryKeys.set(table.name, declared);
      for (const column of table.columns) {
        const declaredType = keys.find((c) => c.name === column.name)?.type ?? '';
        // The storage class of the first value tells what is stored whatever the declared type (one row read).
        const first = db.exec(`SELECT typeof(${quote(column.name)}) FROM ${quote(table.name)} WHERE ${quote(column.name)} IS NOT NULL LIMIT 1`)[0];
        const storage = first ? String(first.values[0][0]) : undefined;
        if (storage === 'blob' || (storage === undefined && declaredType.includes('BLOB'))) facts.binaryColumns.add(`${table.name}.${column.name}`);
      }
    }
    return facts;
  });
}

export interface TablePreview {
  table: string;
  columns: string[];
  /** Values as text: NULL as null, BLOBs as "<N bytes>". */
  rows: Array<Array<string | null>>;
  totalRows: number;
}

/** The first `limit` rows of a table, in the table's order. */
export async function previewTable(image: Uint8Array, table: string, limit = 200): Promise<TablePreview> {
  return withImage(image, (db) => {
    const total = Number(db.exec(`SELECT count(*) FROM ${quote(table)}`)[0]?.values[0][0] ?? 0);
    const result = db.exec(`SELECT * FROM ${quote(table)} LIMIT ${Math.max(0, Math.floor(limit))}`)[0];
    const columns = result?.columns ?? (db.exec(`PRAGMA table_info(${quote(table)})`)[0]?.values.map((row) => String(row[1])) ?? []);
    const rows = (result?.values ?? []).map((row) => row.map((value) => (value === null ? null : value instanceof Uint8Array ? `<${value.length} bytes>` : String(value))));
    return { table, columns, rows, totalRows: total };
  });
}
