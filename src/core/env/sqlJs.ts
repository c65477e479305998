import * as fs from 'node:fs';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { sqlWasmPath } from '../assets';

let sqlJs: Promise<SqlJsStatic> | undefined;
let sqlJsModule: SqlJsStatic | undefined;

/** The parts of the WebAssembly API used here (this project's typings have no DOM library). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
/** Emscripten's hook for instantiating the module oneself (not in sql.js's typings of the config). */
interface InstantiateWasmHook {
  instantiateWasm(imports: unknown, receiveInstance: (instance: WasmInstance) => void): object;
}
const wasm = (globalThis as unknown as {
  WebAssembly: {
    instantiate(bytes: Uint8Array, imports: unknown): Promise<{ instance: WasmInstance }>;
    Memory: abstract new (...args: never[]) => WasmMemory;
  };
}).WebAssembly;
let wasmMemory: WasmMemory | undefined;

/** The sql.js module, initialised once per thread. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  if (!sqlJs) {
    // sql.js does not export its WebAssembly memory; instantiating the module ourselves (Emscripten's documented
    // `instantiateWasm` hook) lets `BulkStatement` bind values straight from that memory.
    let failInstantiation: (error: unknown) => void = () => undefined;
    const instantiationFailed = new Promise<never>((_, reject) => (failInstantiation = reject));
    const hook: InstantiateWasmHook = {
      instantiateWasm(imports, receiveInstance) {
        fs.promises
          .readFile(sqlWasmPath())
          .then((bytes) => wasm.instantiate(bytes, imports))
          .then(({ instance }) => {
            wasmMemory = Object.values(instance.exports).find((e): e is WasmMemory => e instanceof wasm.Memory);
            receiveInstance(instance);
          })
          .catch(failInstantiation);
        return {}; // the exports arrive through receiveInstance
      },
    };
    const loading = initSqlJs(hook as unknown as Parameters<typeof initSqlJs>[0]);
    sqlJs = Promise.race([loading, instantiationFailed]);
    sqlJs.then(
      (module) => (sqlJsModule = module),
      () => (sqlJs = undefined), // let a later call retry
    );
  }
  return sqlJs;
}

/** The MEMFS file name sql.js keeps a database in (not in its typings, but a stable public field). */
export function memfsFileName(db: Database): string {
  return (db as unknown as { filename: string }).filename;
}

let emptyImage: Uint8Array | undefined;

/** Byte offsets in the SQLite file header (https://www.sqlite.org/fileformat.html#the_database_header). */
const HEADER_CHANGE_COUNTER = 24;
const HEADER_PAGE_COUNT = 28;

/**
 * The database a data environment is built in, and the image it becomes.
 *
 * sql.js keeps a database in an emscripten MEMFS file. Left to itself, that file grows by 12.5% at a time, copying
 * itself each time, and `export()` then copies every page once more into a new buffer; on a 1M-row CSV those
 * fresh copies (page faults, zeroing, garbage collection) were most of the load time. Here the file is instead
 * one buffer we own: a resizable ArrayBuffer as large as the estimated image, handed to MEMFS without a copy (see
 * `ownedFileData`). SQLite trusts the page count in the file header, so the untouched room after the last page is
 * free; pages are written into it in place, and the finished image is that same buffer shrunk to the pages.
 * Should MEMFS ever copy the buffer or outgrow it (an estimate too small), `takeImage()` falls back to `export()`.
 */
export class ImageDatabase {
  private closed = false;

  private constructor(
    readonly db: Database,
    /** The MEMFS file's own bytes, or undefined when MEMFS made its own copy. */
    private readonly file: ResizableArrayBuffer | undefined,
  ) {}

  static async create(reserveBytes: number): Promise<ImageDatabase> {
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
    const size = Math.max(reserveBytes, emptyImage.length);
    const buffer = new (ArrayBuffer as unknown as ResizableArrayBufferConstructor)(size, { maxByteLength: size });
    const view = new Uint8Array(buffer);
    view.set(emptyImage);
    const db = new SQL.Database(ownedFileData(view));
    // A write to page 1 bumps the header's change counter: seeing it in our buffer proves MEMFS writes there.
    const counterBefore = readUint32(view, HEADER_CHANGE_COUNTER);
    db.run('PRAGMA user_version = 0');
    const owned = readUint32(view, HEADER_CHANGE_COUNTER) !== counterBefore;
    return new ImageDatabase(db, owned ? buffer : undefined);
  }

  /**
   * Closes the database and returns its image. Call it with no transaction open; the database is unusable after.
   */
  takeImage(): Uint8Array {
    if (this.closed) throw new Error('The image was already taken.');
    const pageCount = Number(this.db.exec('PRAGMA page_count')[0].values[0][0]);
    const bytes = pageCount * Number(this.db.exec('PRAGMA page_size')[0].values[0][0]);
    const file = this.file;
    // If the pages outgrew the buffer, MEMFS moved the file to a new one; then ours is stale.
    if (!file || bytes > file.byteLength || readUint32(new Uint8Array(file), HEADER_PAGE_COUNT) !== pageCount) {
      try {
        return this.db.export();
      } finally {
        this.close();
      }
    }
    this.close(); // MEMFS lets go of the file; nothing writes to the buffer any more
    file.resize(bytes);
    return new Uint8Array(file);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

/**
 * `view` dressed so that MEMFS keeps it as the file's storage instead of copying it: sql.js creates the file with
 * `FS.createDataFile`, whose MEMFS write stores `data.slice(…)` of a new file's first write. A `slice` of the whole
 * view that returns the view itself makes that store the view. Any other slice behaves as usual.
 */
function ownedFileData(view: Uint8Array): Uint8Array {
  const slice = view.slice.bind(view);
  Object.defineProperty(view, 'slice', {
    configurable: true,
    value: (start?: number, end?: number) => ((start ?? 0) === 0 && (end ?? view.length) === view.length ? view : slice(start, end)),
  });
  return view;
}

/** Resizable ArrayBuffers (ES2024, in Node since 20) beyond this project's ES2022 typings. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
type ResizableArrayBufferConstructor = new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

function readUint32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
}

/** SQLite C functions sql.js exports from its WebAssembly module (raw, no argument conversion). */
interface SqliteExports {
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _sqlite3_prepare_v2(db: number, sql: number, sqlBytes: number, statementOut: number, tailOut: number): number;
  _sqlite3_bind_text(statement: number, index: number, text: number, bytes: number, destructor: number): number;
  _sqlite3_bind_double(statement: number, index: number, value: number): number;
  _sqlite3_bind_int(statement: number, index: number, value: number): number;
  _sqlite3_bind_blob(statement: number, index: number, blob: number, bytes: number, destructor: number): number;
  _sqlite3_step(statement: number): number;
  _sqlite3_reset(statement: number): number;
  _sqlite3_finalize(statement: number): number;
  stringToNewUTF8(text: string): number;
}

const SQLITE_OK = 0;
const SQLITE_DONE = 101;
/** sqlite3_bind_text's destructor argument: the bytes stay valid until the next bind or reset. */
const SQLITE_STATIC = 0;

/**
 * A prepared statement driven through SQLite's C API, for statements run many times with many parameters
 * (bulk inserts). sql.js's own `Statement.bind` encodes each string in JavaScript, mallocs and frees it, and crosses
 * into WebAssembly through a converting wrapper per value; here every string of one execution is UTF-8 encoded
 * natively into one reused buffer in the module's memory and bound in place.
 */
export class BulkStatement {
  private readonly sqlite: SqliteExports;
  private readonly handle: number;
  private readonly encoder = new TextEncoder();
  private text = 0;
  private textCapacity = 0;
  private readonly textOffsets: Int32Array;
  private readonly textParts: string[] = [];

  constructor(
    private readonly db: Database,
    sql: string,
    /** Parameters per execution. */
    readonly parameterCount: number,
  ) {
    this.sqlite = sqliteExports();
    const sqlPointer = this.sqlite.stringToNewUTF8(sql);
    const out = this.sqlite._malloc(4);
    try {
      this.check(this.sqlite._sqlite3_prepare_v2(rawHandle(db), sqlPointer, -1, out, 0));
      this.handle = new DataView(memory().buffer).getInt32(out, true);
    } finally {
      this.sqlite._free(out);
      this.sqlite._free(sqlPointer);
    }
    this.textOffsets = new Int32Array(parameterCount + 1);
  }

  /** Binds `values[0 … parameterCount)` (numbers, strings, null) and runs the statement once. */
  run(values: ReadonlyArray<string | number | null>): void {
    const sqlite = this.sqlite;
    const statement = this.handle;
    const count = this.parameterCount;
    // Every string of this execution, joined: one native UTF-8 encoding instead of one per value.
    const parts = this.textParts;
    const offsets = this.textOffsets;
    parts.length = 0;
    let chars = 0;
    for (let i = 0; i < count; i++) {
      const value = values[i];
      if (typeof value === 'string') {
        parts.push(value);
        chars += value.length;
      }
    }
    let ascii = true;
    if (parts.length > 0) {
      this.reserveText(chars * 3); // UTF-8 needs at most 3 bytes per UTF-16 unit
      const heap = new Uint8Array(memory().buffer, this.text, this.textCapacity);
      const joined = parts.length === 1 ? parts[0] : parts.join('');
      ascii = this.encoder.encodeInto(joined, heap).written === joined.length;
      if (ascii) {
        let at = 0;
        for (let p = 0; p < parts.length; p++) {
          offsets[p] = at;
          at += parts[p].length;
        }
        offsets[parts.length] = at;
      } else {
        // Some character took more than one byte: encode value by value to learn where each one starts.
        let at = 0;
        for (let p = 0; p < parts.length; p++) {
          offsets[p] = at;
          at += this.encoder.encodeInto(parts[p], heap.subarray(at)).written;
        }
        offsets[parts.length] = at;
      }
    }
    let part = 0;
    for (let i = 0; i < count; i++) {
      const value = values[i];
      let rc: number;
      if (value === null || value === undefined) rc = sqlite._sqlite3_bind_blob(statement, i + 1, 0, 0, SQLITE_STATIC); // a NULL pointer binds NULL
      else if (typeof value === 'number') rc = (value | 0) === value ? sqlite._sqlite3_bind_int(statement, i + 1, value) : sqlite._sqlite3_bind_double(statement, i + 1, value);
      else {
        const start = offsets[part];
        rc = sqlite._sqlite3_bind_text(statement, i + 1, this.text + start, offsets[++part] - start, SQLITE_STATIC);
      }
      if (rc !== SQLITE_OK) this.check(rc);
    }
    const stepped = sqlite._sqlite3_step(statement);
    const reset = sqlite._sqlite3_reset(statement);
    if (stepped !== SQLITE_DONE) this.check(reset === SQLITE_OK ? stepped : reset);
  }

  /** Finalizes the statement and frees its buffer. */
  free(): void {
    this.sqlite._sqlite3_finalize(this.handle);
    if (this.text) this.sqlite._free(this.text);
    this.text = 0;
  }

  private reserveText(bytes: number): void {
    if (bytes <= this.textCapacity) return;
    if (this.text) this.sqlite._free(this.text);
    const capacity = Math.max(bytes, this.textCapacity * 2, 4096);
    this.text = this.sqlite._malloc(capacity);
    if (!this.text) throw new Error(`SQLite could not allocate ${capacity} bytes for a batch of values.`);
    this.textCapacity = capacity;
  }

  /** Throws SQLite's own error message for a failed call. */
  private check(rc: number): void {
    if (rc === SQLITE_OK) return;
    (this.db as unknown as { handleError(rc: number): void }).handleError(rc);
    throw new Error(`SQLite error ${rc}`);
  }
}

function sqliteExports(): SqliteExports {
  if (!sqlJsModule) throw new Error('sql.js is not loaded yet (await loadSqlJs() first).');
  return sqlJsModule as unknown as SqliteExports;
}

function memory(): WasmMemory {
  if (!wasmMemory) throw new Error('The sql.js WebAssembly memory was not found.');
  return wasmMemory;
}

/** The sqlite3* behind a sql.js Database (its `db` field). */
function rawHandle(db: Database): number {
  return (db as unknown as { db: number }).db;
}
