import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { sqlWasmPath } from '../../src/core/assets';
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

/** Deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
