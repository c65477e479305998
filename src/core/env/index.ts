import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDelimited } from './csvLoader';
import { FIRST_DISTINCT_VALUES } from './columnStats';
import { loadDocument } from './documentLoader';
import { loadJson, loadJsonLines } from './jsonLoader';
import { loadParquet } from './parquetLoader';
import { report, type LoadedTable, type LoaderContext } from './loaderContext';
import { folderQualifiedBaseNames, NameAllocator } from './naming';
import { quoteIdent } from '../text/sql';
import { profileDocument, profileTable } from './profile';
import { loadSqlite } from './sqliteLoader';
import { ImageDatabase } from './sqlJs';
import type { Database } from 'sql.js';
import { MAX_TABLE_COLUMNS } from './tableWriter';
import { encodingNote, inspectTextFile, looksBinaryText } from './textEncoding';
import { loadXlsx } from './xlsxLoader';
import { DataFolderError, type DataDocument, type DataEnvironment, type EnvironmentProfile, type FileDiagnostic, type FileRecord, type LoadOptions } from './types';

export * from './types';

export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;
/** Folders never loaded: TOFFEE's own run data and dependencies (hidden folders are skipped too). */
const SKIPPED_FOLDERS = new Set(['.toffee', 'node_modules']);
/** TOFFEE's own settings in a data folder: read by the tools they configure, never loaded as data. */
export const TOFFEE_SETTINGS_FILES = new Set(['toffee.config.json', 'toffee.semantics.json']);

const KIND_BY_EXTENSION: Record<string, FileRecord['kind']> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.sqlite': 'sqlite',
  '.sqlite3': 'sqlite',
  '.db': 'sqlite',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.parquet': 'parquet',
  '.pq': 'parquet',
  '.md': 'markdown',
  '.markdown': 'markdown',
  // R Markdown and Quarto: Markdown with code chunks, how R packages and reports document their data.
  '.rmd': 'markdown',
  '.qmd': 'markdown',
  '.txt': 'text',
  '.rst': 'text',
  // R's help pages (`data.Rd`): an R package documents its data sets' columns in them.
  '.rd': 'text',
  // NLS Investigator's codebook of a survey extract (NLSY79, NLSY97): plain text, a block per variable.
  '.cdb': 'text',
};

/** Binary formats: their bytes are not checked for text. */
const BINARY_KINDS = new Set<FileRecord['kind']>(['sqlite', 'xlsx', 'parquet', 'other']);

export function fileKindOf(file: string): FileRecord['kind'] {
  return KIND_BY_EXTENSION[path.extname(file).toLowerCase()] ?? 'other';
}

/** Why a folder or link could not be walked, in plain words. */
function walkErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'a loop of symbolic links';
  if (code === 'ENOENT') return 'it no longer exists';
  return code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Files under `root` (relative, forward slashes, sorted), skipping hidden entries, `.toffee/` and `node_modules/`.
 * A sub-folder that cannot be read, a broken link, a link loop and a linked folder (not followed: links can form
 * loops) are reported through `onProblem` and the walk goes on; only an unreadable `root` is an error.
 */
export async function listDataFiles(root: string, onProblem?: (diagnostic: FileDiagnostic) => void): Promise<string[]> {
  const files: string[] = [];
  const problem = (file: string, severity: FileDiagnostic['severity'], message: string) => onProblem?.({ file, severity, message });
  const realRoot = await fs.promises.realpath(root).catch(() => path.resolve(root));
  const visit = async (relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      if (!relative) throw new DataFolderError(`Cannot read the folder ${root}: ${walkErrorText(error)}`);
      problem(`${relative}/`, 'warning', `Cannot read this folder (${walkErrorText(error)}); the files in it were not loaded.`);
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
      if (relative === '' && TOFFEE_SETTINGS_FILES.has(entry.name)) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(child);
      else if (entry.isFile()) files.push(child);
      else if (entry.isSymbolicLink()) {
        const absolute = path.join(root, child);
        let stat: fs.Stats;
        try {
          stat = await fs.promises.stat(absolute);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const target = await fs.promises.readlink(absolute).catch(() => '?');
          problem(child, 'warning', code === 'ENOENT'
            ? `Broken symbolic link (to ${target}, which does not exist); skipped.`
            : `Symbolic link that cannot be followed (${walkErrorText(error)}, via ${target}); skipped.`);
          continue;
        }
        if (stat.isFile()) files.push(child);
        else if (stat.isDirectory()) {
          // Linked folders are not followed (they can form cycles); say so, and name a loop as one.
          const real = await fs.promises.realpath(absolute).catch(() => '');
          const here = path.join(realRoot, relative);
          const loop = real !== '' && (here === real || here.startsWith(real + path.sep));
          problem(child, loop ? 'warning' : 'info', loop
            ? `Symbolic link to a folder above it (${real}): a loop; not followed.`
            : 'Linked folder; not followed (links can form loops). Link or copy its files into the folder to load them.');
        }
      }
    }
  };
  await visit('');
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** SHA-256 (hex) of a file, streamed. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

async function loadFile(context: LoaderContext, kind: FileRecord['kind']): Promise<void> {
  switch (kind) {
    case 'csv':
    case 'tsv':
      return loadDelimited(context, kind === 'tsv');
    case 'json':
      return loadJson(context);
    case 'jsonl':
      return loadJsonLines(context);
    case 'sqlite':
      return loadSqlite(context, await fs.promises.readFile(context.absolutePath));
    case 'xlsx':
      return loadXlsx(context);
    case 'parquet':
      return loadParquet(context);
    case 'markdown':
    case 'text':
      return loadDocument(context, kind === 'markdown');
    case 'other':
      report(context, 'info', 'Not a supported data file type; skipped.');
      return;
  }
}

/** Room to reserve for the image: about the size of the tabular files that will be loaded (capped). */
function estimateImageBytes(files: string[], sizes: ReadonlyMap<string, number>, maxFileBytes: number): number {
  let total = 0;
  for (const file of files) {
    const kind = fileKindOf(file);
    if (kind === 'markdown' || kind === 'text' || kind === 'other') continue;
    const size = Math.max(0, sizes.get(file) ?? 0);
    if (size <= maxFileBytes) total += size;
  }
  return Math.min(Math.ceil(total * 1.1) + (1 << 20), 1 << 30);
}

/** Kinds whose tables are named after the file (a database names its own tables). */
const NAMED_BY_FILE = new Set<FileRecord['kind']>(['csv', 'tsv', 'json', 'jsonl', 'xlsx', 'parquet']);

/**
 * Files that are copies of an earlier file of the folder — the same name and the same bytes (the same CSV downloaded
 * into two folders) — each mapped to that first file, with the hash. Files of different names are never copies (two
 * partitions that hold only their header, say). Only files whose name and size another file shares are hashed.
 */
async function findDuplicates(root: string, files: string[], sizes: ReadonlyMap<string, number>, maxFileBytes: number, signal?: AbortSignal): Promise<Map<string, { original: string; sha256: string }>> {
  const bySize = new Map<string, string[]>();
  for (const file of files) {
    const size = sizes.get(file) ?? -1;
    if (size <= 0 || size > maxFileBytes || fileKindOf(file) === 'other') continue;
    const key = `${size}/${(file.split('/').pop() ?? file).toLowerCase()}`;
    bySize.set(key, [...(bySize.get(key) ?? []), file]);
  }
  const duplicates = new Map<string, { original: string; sha256: string }>();
  for (const group of bySize.values()) {
    if (group.length < 2) continue;
    const firstByHash = new Map<string, string>();
    for (const file of group) {
      signal?.throwIfAborted();
      const sha256 = await sha256Of(path.join(root, ...file.split('/'))).catch(() => '');
      if (sha256 === '') continue;
      const original = firstByHash.get(sha256);
      if (original) duplicates.set(file, { original, sha256 });
      else firstByHash.set(sha256, file);
    }
  }
  return duplicates;
}

/**
 * Loads a folder into a data environment: every table in one SQLite image (built with sql.js in this thread),
 * documents, a profile, and one diagnostic per problem. A bad file never stops the load; an abort does.
 */
export async function loadEnvironment(root: string, options: LoadOptions = {}): Promise<DataEnvironment> {
  const absoluteRoot = path.resolve(root);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const signal = options.signal;
  signal?.throwIfAborted();
  const stat = await fs.promises.stat(absoluteRoot).catch((error: unknown) => {
    throw new DataFolderError(`Cannot read the folder ${absoluteRoot}: ${walkErrorText(error)}`);
  });
  if (!stat.isDirectory()) throw new DataFolderError(`Not a folder: ${absoluteRoot}`);
  const walkProblems: FileDiagnostic[] = [];
  const files = await listDataFiles(absoluteRoot, (d) => walkProblems.push(d));
  const sizes = new Map<string, number>();
  for (const file of files) sizes.set(file, (await fs.promises.stat(path.join(absoluteRoot, ...file.split('/'))).catch(() => undefined))?.size ?? -1);
  const duplicates = await findDuplicates(absoluteRoot, files, sizes, maxFileBytes, signal);
  const baseNames = folderQualifiedBaseNames(files.filter((file) => !duplicates.has(file) && NAMED_BY_FILE.has(fileKindOf(file))));

  const imageDb = await ImageDatabase.create(estimateImageBytes(files, sizes, maxFileBytes));
  const db = imageDb.db;
  try {
    // The image is rebuilt from the source files every time, so durability is not needed; a memory journal
    // keeps per-file savepoints working.
    db.run('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY');
    const names = new NameAllocator();
    const tables: LoadedTable[] = [];
    const documents: DataDocument[] = [];
    const diagnostics: FileDiagnostic[] = [...walkProblems];
    const records: FileRecord[] = [];

    for (let index = 0; index < files.length; index++) {
      signal?.throwIfAborted();
      const file = files[index];
      options.onProgress?.({ file, done: index, total: files.length });
      const absolutePath = path.join(absoluteRoot, ...file.split('/'));
      const kind = fileKindOf(file);
      const record: FileRecord = { file, sizeBytes: 0, sha256: '', kind, produced: [] };
      records.push(record);
      const context: LoaderContext = {
        db,
        names,
        file,
        baseName: baseNames.get(file),
        absolutePath,
        sizeBytes: 0,
        head: Buffer.alloc(0),
        signal,
        tables,
        documents,
        diagnostics,
      };
      const tablesBefore = tables.length;
      const documentsBefore = documents.length;
      try {
        record.sizeBytes = context.sizeBytes = (await fs.promises.stat(absolutePath)).size;
        if (record.sizeBytes > maxFileBytes) {
          report(context, 'warning', `File is ${record.sizeBytes} bytes, over the ${maxFileBytes}-byte limit per file; skipped.`);
          continue;
        }
        const duplicate = duplicates.get(file);
        if (duplicate) {
          record.sha256 = duplicate.sha256;
          record.duplicateOf = duplicate.original;
          const first = records.find((r) => r.file === duplicate.original);
          const loaded = first && first.produced.length > 0 ? `, as ${first.produced.join(', ')}` : '';
          report(context, 'info', `The same bytes as ${duplicate.original} (${record.sizeBytes} bytes, SHA-256 ${duplicate.sha256.slice(0, 12)}…): loaded once, from ${duplicate.original}${loaded}; this copy is not loaded again.`);
          continue;
        }
        if (BINARY_KINDS.has(kind)) record.sha256 = await sha256Of(absolutePath);
        else {
          // The whole file's encoding, found while it is hashed: a latin-1 byte on the last line counts too.
          const inspected = await inspectTextFile(absolutePath);
          record.sha256 = inspected.sha256;
          if (record.sizeBytes > 0 && looksBinaryText(inspected.report)) {
            report(context, 'error', `This ${kind} file holds binary data, not text; skipped.`);
            continue;
          }
          context.encoding = inspected.report.encoding;
          record.encoding = inspected.report.encoding;
          const note = encodingNote(inspected.report);
          if (note) report(context, note.severity, note.message, note.line);
        }
        context.head = await readHead(absolutePath);
        if (kind === 'sqlite') {
          // ATTACH/DETACH cannot run inside a transaction; the SQLite loader keeps one transaction per table.
          await loadFile(context, kind);
        } else {
          db.run('SAVEPOINT toffee_file'); // one transaction per file, undone if the file fails half-way
          try {
            await loadFile(context, kind);
            db.run('RELEASE toffee_file');
          } catch (e) {
            db.run('ROLLBACK TO toffee_file');
            db.run('RELEASE toffee_file');
            throw e;
          }
        }
      } catch (e) {
        if (isAbort(e, signal)) throw e;
        tables.length = tablesBefore;
        documents.length = documentsBefore;
        const message = e instanceof Error ? e.message : String(e);
        // SQLite's words name neither the limit nor a way out.
        const hint = /too many columns/.test(message) ? ` (SQLite allows ${MAX_TABLE_COLUMNS} columns per table; CSV files wider than that are split into linked tables, so saving this one as CSV loads it)` : '';
        report(context, 'error', `Could not load: ${message}${hint}`);
      }
      record.produced = [...tables.slice(tablesBefore).map((t) => t.name), ...documents.slice(documentsBefore).map((d) => d.name)];
      if (context.leftOut && context.leftOut.length > 0) record.leftOut = context.leftOut;
    }
    // The last progress event: every file is committed to the image; profiling follows.
    options.onProgress?.({ file: '', done: files.length, total: files.length });

    signal?.throwIfAborted();
    const shadowed = shadowViews(db, tables);
    let profile: EnvironmentProfile;
    try {
      profile = {
        root: absoluteRoot,
        files: records,
        tables: tables.map((table) => profileTable(db, table)),
        documents: documents.map(profileDocument),
        diagnostics,
      };
      if (options.beforeImage) {
        options.beforeImage(db, {
          profile,
          documents,
          addView(name, select, sourceFile, originalName, types) {
            if (names.has(name)) return `the name ${name} is taken`;
            try {
              db.run(`CREATE VIEW ${quoteIdent(name)} AS ${select}`);
            } catch (e) {
              return e instanceof Error ? e.message : String(e);
            }
            names.allocate(name);
            const view: LoadedTable = { name, originalName, sourceFile, kind: 'view', viewSql: select };
            if (types) {
              const declared = db.exec(`PRAGMA table_info(${quoteIdent(name)})`)[0]?.values.map((row) => String(row[1])) ?? [];
              view.columns = declared.map((column) => ({ name: column, originalName: column, type: types[column] ?? 'text' }));
            }
            const viewProfile = profileTable(db, view);
            profile.tables.push(viewProfile);
            return viewProfile;
          },
          firstDistinct(table, column, limit) {
            if (limit > FIRST_DISTINCT_VALUES) return undefined;
            const stats = tables.find((t) => t.name === table)?.statistics?.columns.find((c) => c.name === column)?.stats;
            return stats?.first.slice(0, limit);
          },
        });
      }
    } finally {
      for (const name of shadowed) db.run(`DROP TABLE IF EXISTS temp.${quoteIdent(name)}`);
    }
    return { root: absoluteRoot, image: imageDb.takeImage(), documents, profile };
  } finally {
    imageDb.close();
  }
}

/** Views of a SQLite file read once for profiling, at most this many rows (larger ones are queried as they are). */
const MAX_SHADOW_ROWS = 200_000;

/**
 * A SQLite file's views are queried once per statistic while the environment is profiled and its meaning read; a view
 * that joins eleven tables with correlated subqueries (half a second a query) made that minutes. Each is read once
 * into a temporary table of the same name, which SQLite resolves before the view (the temp schema comes first), and
 * dropped (by the caller) before the image is taken: the image keeps the views as they are. Returns the names shadowed.
 */
function shadowViews(db: Database, tables: readonly LoadedTable[]): string[] {
  const shadowed: string[] = [];
  for (const table of tables) {
    if (table.kind !== 'view') continue;
    try {
      const rows = Number(db.exec(`SELECT COUNT(*) FROM main.${quoteIdent(table.name)}`)[0]?.values[0][0] ?? 0);
      if (rows > MAX_SHADOW_ROWS) continue;
      db.run(`CREATE TEMP TABLE ${quoteIdent(table.name)} AS SELECT * FROM main.${quoteIdent(table.name)}`);
      shadowed.push(table.name);
    } catch {
      // A view that fails to run is profiled as it is (and fails there, with its diagnostic).
    }
  }
  return shadowed;
}

