import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { sqlWasmPath } from '../assets';

let sqlJs: Promise<SqlJsStatic> | undefined;

/** The sql.js module, initialised once per thread. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlJs) {
    sqlJs = initSqlJs({ locateFile: () => sqlWasmPath() });
    sqlJs.catch(() => {
      sqlJs = undefined; // let a later call retry
    });
  }
  return sqlJs;
}

/** The MEMFS file name sql.js keeps a database in (not in its typings, but a stable public field). */
export function memfsFileName(db: Database): string {
  return (db as unknown as { filename: string }).filename;
}

let emptyImage: Uint8Array | undefined;

/**
 * A new, empty database whose in-memory file already has room for about `reserveBytes`.
 * sql.js keeps the database in an emscripten MEMFS file that grows by 12.5% at a time, copying itself and
 * churning the garbage collector; for a 1M-row CSV that was over half of the load time. SQLite trusts the page
 * count in the file header, so zero bytes after the last page are free room, and export() returns only the pages.
 */
export async function createImageDatabase(reserveBytes: number): Promise<Database> {
  const SQL = await loadSqlJs();
  if (!emptyImage) {
    const template = new SQL.Database();
    try {
      template.run('VACUUM'); // writes the header, so the page count in it is valid
      emptyImage = template.export();
    } finally {
      template.close();
    }
  }
  if (reserveBytes <= emptyImage.length) return new SQL.Database(emptyImage);
  const padded = new Uint8Array(reserveBytes);
  padded.set(emptyImage);
  return new SQL.Database(padded);
}
