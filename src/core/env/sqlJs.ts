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
