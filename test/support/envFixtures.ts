import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { sqlWasmPath } from '../../src/core/assets';
import { loadEnvironment, type LoadOptions } from '../../src/core/env/index';
import type { DataEnvironment } from '../../src/core/env/types';
import type { SqlValue } from 'sql.js';

/** A temporary folder filled with the given files (string or bytes), removed by `cleanup()`. */
export function makeFolder(files: Record<string, string | Buffer>): { root: string; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-env-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Loads a temporary folder of the given files as a data environment; the folder is removed after loading. */
export async function loadFiles(files: Record<string, string | Buffer>, options: LoadOptions = {}): Promise<DataEnvironment> {
  const folder = makeFolder(files);
  try {
    return await loadEnvironment(folder.root, options);
  } finally {
    folder.cleanup();
  }
}

/** Runs a query against an environment image and returns its rows. */
export async function queryImage(image: Uint8Array, sql: string): Promise<SqlValue[][]> {
  const SQL = await initSqlJs({ locateFile: () => sqlWasmPath() });
  const db = new SQL.Database(image);
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}

