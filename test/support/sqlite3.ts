/**
 * The sqlite3 shell's own answer to a query, for tests that check a task's steps against an engine TOFFEE does not
 * ship: each row's values in column order ([] when the query returns nothing).
 */
import { execFileSync } from 'node:child_process';

export function sqlite3Rows(dbFile: string, sql: string): unknown[][] {
  const out = execFileSync('sqlite3', ['-json', '-readonly', dbFile, sql], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (out.trim() === '') return [];
  return (JSON.parse(out) as Array<Record<string, unknown>>).map((row) => Object.values(row));
}
