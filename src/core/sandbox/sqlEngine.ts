/**
 * sql.js over an environment image, read-only, with a row cap. Runs inside the sandbox workers (the SQL worker
 * and the Python worker's `sql()` helper), never on the extension host's or CLI's main thread.
 */
import * as fs from 'node:fs';
import initSqlJs from 'sql.js';
import type { Database } from 'sql.js';
import { crossJoinMessage, unlinkedCrossJoin, type PlanRow } from './crossJoinGuard';
import { checkReadOnly } from './sqlGuard';
import { quoteIdent } from '../text/sql';

/** What one query gives back; crosses the worker boundary, so plain JSON-safe values only. */
export interface SqlOutcome {
  ok: boolean;
  columns?: string[];
  rows?: SqlCell[][];
  truncated?: boolean;
  error?: string;
  errorKind?: 'sql' | 'refused';
}

export type SqlCell = string | number | null;

/** Blobs are shown as a short marker with their first bytes in hex; the agent sees text, never raw bytes. */
const BLOB_PREVIEW_BYTES = 16;

/** Turns a sql.js value into a JSON- and structured-clone-safe cell. */
export function renderCell(value: unknown): SqlCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    // Exact when it fits a double, otherwise the decimal text (no silent precision loss).
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) {
    const hex = Buffer.from(value.subarray(0, BLOB_PREVIEW_BYTES)).toString('hex');
    const more = value.length > BLOB_PREVIEW_BYTES ? '…' : '';
    return `<blob ${value.length} bytes${value.length ? `: ${hex}${more}` : ''}>`;
  }
  return String(value);
}

export class ReadOnlyDatabase {
  /** Row counts of the image's tables, read on first use (lower-case name → rows). */
  private tableRows: Map<string, { name: string; rows?: number }> | undefined;

  private constructor(private readonly db: Database) {}

  /** Opens `image` (SQLite database bytes) with sql.js's WASM from `wasmPath`. Throws on a corrupt image. */
  static async open(image: Uint8Array, wasmPath: string): Promise<ReadOnlyDatabase> {
    const wasmBinary = fs.readFileSync(wasmPath);
    // The bytes are handed over directly: no path lookup relative to the bundle. (@types/sql.js lacks wasmBinary.)
    const SQL = await initSqlJs({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) } as unknown as Parameters<typeof initSqlJs>[0]);
    const db = new SQL.Database(image);
    try {
      // Reading the schema makes a corrupt or non-SQLite image fail here, not on the first query.
      db.exec('SELECT count(*) FROM sqlite_schema');
      // Second wall behind the statement guard: SQLite itself refuses every write (also `WITH … INSERT`).
      db.exec('PRAGMA query_only = ON');
    } catch (e) {
      db.close();
      throw e;
    }
    return new ReadOnlyDatabase(db);
  }

  /** Runs `query`; errors come back as values. Several statements: the last one's result is returned. */
  run(query: string, maxRows: number): SqlOutcome {
    const verdict = checkReadOnly(query);
    if (!verdict.ok) return { ok: false, error: verdict.reason, errorKind: verdict.kind === 'refused' ? 'refused' : 'sql' };
    const crossJoin = verdict.statements === 1 ? this.crossJoin(query) : undefined;
    if (crossJoin) return { ok: false, error: crossJoin, errorKind: 'sql' };
    let columns: string[] = [];
    let rows: SqlCell[][] = [];
    let truncated = false;
    try {
      for (const statement of this.db.iterateStatements(query)) {
        try {
          columns = statement.getColumnNames();
          rows = [];
          truncated = false;
          // Stop stepping at the cap: a huge result is never materialised.
          while (statement.step()) {
            if (rows.length >= maxRows) {
              truncated = true;
              break;
            }
            // useBigInt: 64-bit integers arrive exact (the typings predate the option).
            const values = (statement.get as (params: null, config: { useBigInt: boolean }) => unknown[])(null, { useBigInt: true });
            rows.push(values.map(renderCell));
          }
        } finally {
          statement.free();
        }
      }
    } catch (e) {
      return { ok: false, error: sqliteMessage(e), errorKind: 'sql' };
    }
    return { ok: true, columns, rows, truncated };
  }

  close(): void {
    this.db.close();
  }

  /** The cross-join guard's error for `query` (one statement), or undefined when SQLite's plan links its tables. */
  private crossJoin(query: string): string | undefined {
    let plan: PlanRow[];
    try {
      const result = this.db.exec(`EXPLAIN QUERY PLAN ${query}`)[0];
      plan = (result?.values ?? []).map((row) => ({ id: Number(row[0]), parent: Number(row[1]), detail: String(row[3]) }));
    } catch {
      return undefined; // Not a query SQLite can plan: running it gives the real error.
    }
    if (plan.filter((row) => row.detail.startsWith('SCAN ')).length < 2) return undefined;
    const join = unlinkedCrossJoin(query, plan, (table) => this.rowsOf(table));
    return join ? crossJoinMessage(join) : undefined;
  }

  private rowsOf(table: string): number | undefined {
    if (!this.tableRows) {
      const names = this.db.exec("SELECT name FROM sqlite_schema WHERE type = 'table'")[0]?.values ?? [];
      this.tableRows = new Map(names.map(([name]) => [String(name).toLowerCase(), { name: String(name) }]));
    }
    const entry = this.tableRows.get(table.toLowerCase());
    if (!entry) return undefined;
    entry.rows ??= Number(this.db.exec(`SELECT COUNT(*) FROM ${quoteIdent(entry.name)}`)[0].values[0][0]);
    return entry.rows;
  }
}

/** SQLite's own error text (sql.js throws Error objects whose message is sqlite3_errmsg). */
export function sqliteMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
