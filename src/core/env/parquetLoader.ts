import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { decompress as decompressZstd } from 'fzstd';
import { parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, Compressors, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { report, tableBaseName, type LoaderContext } from './loaderContext';
import { columnNamesFromHeaders } from './naming';
import { createTable, type ColumnSpec } from './tableWriter';
import type { ColumnType } from './types';

/**
 * Loads a Parquet file into one table, one row group at a time (only that group's decoded columns are in memory):
 * column types come from the Parquet physical and logical types, not from guessing; nested columns (lists,
 * structs, maps) are stored as JSON text. Uncompressed, Snappy (hyparquet), GZIP and Brotli (node:zlib) files are
 * read, and ZSTD (fzstd, a JavaScript decoder: node:zlib has ZSTD only from Node 22.15); other codecs (LZ4, LZO) get a
 * diagnostic.
 */

const MAGIC = 'PAR1';

/** Decompressors for the codecs hyparquet does not decode itself: node:zlib's, and fzstd for ZSTD (node:zlib has it only from Node 22.15). */
function zlibCompressors(): Compressors {
  const compressors: Compressors = {
    GZIP: (input) => new Uint8Array(zlib.unzipSync(input)),
    BROTLI: (input) => new Uint8Array(zlib.brotliDecompressSync(input)),
  };
  // The page header gives the decompressed size, so fzstd writes into a buffer of exactly that length.
  compressors.ZSTD = (input, outputLength) => decompressZstd(input, new Uint8Array(outputLength));
  return compressors;
}

const COMPRESSORS = zlibCompressors();
const READABLE_CODECS = new Set(['UNCOMPRESSED', 'SNAPPY', ...Object.keys(COMPRESSORS)]);

/** Reads byte ranges of an open file on demand: hyparquet fetches the footer, then each column chunk it needs. */
function fileAsyncBuffer(handle: fs.promises.FileHandle, byteLength: number): AsyncBuffer {
  return {
    byteLength,
    async slice(start: number, end: number = byteLength): Promise<ArrayBuffer> {
      const length = Math.max(0, Math.min(end, byteLength) - start);
      const buffer = new ArrayBuffer(length);
      const view = new Uint8Array(buffer);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(view, read, length - read, start + read);
        if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${start + read}`);
        read += bytesRead;
      }
      return buffer;
    },
  };
}

/** ISO text for an instant: seconds precision when whole, else milliseconds; always UTC ("Z"). */
function isoInstant(millis: number): string | null {
  if (!Number.isFinite(millis) || Math.abs(millis) > 8.64e15) return null;
  const iso = new Date(millis).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/** Dates and timestamps decoded straight to the ISO text the image stores (no Date objects per cell). */
const ISO_PARSERS = {
  dateFromDays: (days: number) => {
    const millis = days * 86400000;
    return Number.isFinite(millis) && Math.abs(millis) <= 8.64e15 ? new Date(millis).toISOString().slice(0, 10) : null;
  },
  timestampFromMilliseconds: (millis: bigint) => isoInstant(Number(millis)),
  timestampFromMicroseconds: (micros: bigint) => isoInstant(Number(micros / 1000n)),
  timestampFromNanoseconds: (nanos: bigint) => isoInstant(Number(nanos / 1000000n)),
  // Keep JSON columns as the text they hold; parsing and re-serializing would only cost time.
  jsonFromBytes: (bytes: Uint8Array) => (bytes ? new TextDecoder().decode(bytes) : null),
};

/** The source's type in words, e.g. "INT64", "DATE", "TIMESTAMP(MICROS)", "DECIMAL(10,2)", "STRUCT". */
export function parquetTypeName(node: SchemaTree): string {
  const element = node.element;
  const logical = element.logical_type;
  if (node.children.length > 0) {
    if (logical?.type === 'LIST' || element.converted_type === 'LIST') return 'LIST';
    if (logical?.type === 'MAP' || element.converted_type === 'MAP') return 'MAP';
    return 'STRUCT';
  }
  if (element.repetition_type === 'REPEATED') return `REPEATED ${element.type ?? ''}`.trim();
  if (logical) {
    switch (logical.type) {
      case 'DECIMAL':
        return `DECIMAL(${logical.precision},${logical.scale})`;
      case 'TIMESTAMP':
      case 'TIME':
        return `${logical.type}(${logical.unit})`;
      case 'INTEGER':
        return `${logical.isSigned ? 'INT' : 'UINT'}${logical.bitWidth}`;
      default:
        return logical.type;
    }
  }
  if (element.converted_type === 'DECIMAL') return `DECIMAL(${element.precision ?? '?'},${element.scale ?? 0})`;
  return element.converted_type ?? element.type ?? 'UNKNOWN';
}

/** The image's column type for a top-level Parquet column. */
export function columnTypeOfParquet(node: SchemaTree): ColumnType {
  const element: SchemaElement = node.element;
  if (node.children.length > 0 || element.repetition_type === 'REPEATED') return 'text';
  const logical = element.logical_type?.type;
  const converted = element.converted_type;
  if (logical === 'DATE' || converted === 'DATE') return 'date';
  if (logical === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS' || element.type === 'INT96') return 'datetime';
  if (logical === 'TIME' || converted === 'TIME_MILLIS' || converted === 'TIME_MICROS') return 'text';
  if (logical === 'DECIMAL' || converted === 'DECIMAL' || logical === 'FLOAT16') return 'real';
  if (logical === 'STRING' || logical === 'ENUM' || logical === 'JSON' || logical === 'UUID' || converted === 'UTF8' || converted === 'ENUM' || converted === 'JSON') {
    return 'text';
  }
  switch (element.type) {
    case 'BOOLEAN':
      return 'boolean';
    case 'INT32':
    case 'INT64':
      return 'integer';
    case 'FLOAT':
    case 'DOUBLE':
      return 'real';
    default:
      return 'text';
  }
}

/** Time of day from a TIME column's integer (millis for INT32, micros or nanos for INT64). */
function timeOfDay(value: number | bigint, unit: string): string {
  const perSecond = unit === 'NANOS' ? 1e9 : unit === 'MICROS' ? 1e6 : 1e3;
  const total = Number(value) / perSecond;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  const seconds = total % 60;
  const whole = Number.isInteger(seconds) ? pad(seconds) : seconds.toFixed(3).padStart(6, '0');
  return `${pad(total / 3600)}:${pad((total / 60) % 60)}:${whole}`;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** Converts one decoded Parquet value to what the image stores for a column of `type`. */
function cellToSql(value: unknown, type: ColumnType, timeUnit: string | undefined): string | number | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
      return typeof value === 'number' ? value : String(value);
    case 'real':
      return typeof value === 'number' ? (Number.isNaN(value) ? null : value) : Number(value);
    case 'boolean':
      return value ? 1 : 0;
    case 'date':
    case 'datetime':
      if (typeof value === 'string') return value;
      return value instanceof Date ? isoInstant(value.getTime()) : String(value);
    case 'text':
      if (typeof value === 'string') return value;
      if (timeUnit !== undefined && (typeof value === 'number' || typeof value === 'bigint')) return timeOfDay(value, timeUnit);
      if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
      if (typeof value === 'object') return JSON.stringify(value, jsonReplacer);
      return String(value);
  }
}

function timeUnitOf(node: SchemaTree): string | undefined {
  const element = node.element;
  if (element.logical_type?.type === 'TIME') return element.logical_type.unit;
  if (element.converted_type === 'TIME_MILLIS') return 'MILLIS';
  if (element.converted_type === 'TIME_MICROS') return 'MICROS';
  return undefined;
}

async function readMetadata(context: LoaderContext, file: AsyncBuffer): Promise<FileMetaData | undefined> {
  const head = context.head.subarray(0, 4).toString('latin1');
  if (context.sizeBytes < 12 || head !== MAGIC) {
    report(context, 'error', 'Not a Parquet file (it does not start with the PAR1 magic bytes).');
    return undefined;
  }
  const tail = Buffer.from(await file.slice(context.sizeBytes - 4, context.sizeBytes)).toString('latin1');
  if (tail !== MAGIC) {
    report(context, 'error', 'Bad Parquet footer: the file does not end with PAR1 (truncated or still being written).');
    return undefined;
  }
  try {
    return await parquetMetadataAsync(file, { parsers: ISO_PARSERS });
  } catch (e) {
    report(context, 'error', `Bad Parquet footer: the file metadata cannot be read (${e instanceof Error ? e.message : String(e)}).`);
    return undefined;
  }
}

export async function loadParquet(context: LoaderContext): Promise<void> {
  if (context.sizeBytes === 0) {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  const handle = await fs.promises.open(context.absolutePath, 'r');
  try {
    const file = fileAsyncBuffer(handle, context.sizeBytes);
    const metadata = await readMetadata(context, file);
    if (!metadata) return;
    const codecs = new Set(metadata.row_groups.flatMap((group) => group.columns.map((chunk) => chunk.meta_data?.codec ?? 'UNCOMPRESSED')));
    const unreadable = [...codecs].filter((codec) => !READABLE_CODECS.has(codec));
    if (unreadable.length > 0) {
      report(
        context,
        'error',
        `Compressed with ${unreadable.join(', ')}, which TOFFEE's Parquet reader does not support (it reads ${[...READABLE_CODECS].join(', ')}).`,
      );
      return;
    }
    const schema = parquetSchema(metadata);
    const nodes = schema.children;
    if (nodes.length === 0) {
      report(context, 'warning', 'The Parquet file has no columns.');
      return;
    }
    const fileName = context.file.split('/').pop() ?? context.file;
    const names = columnNamesFromHeaders(nodes.map((node) => node.element.name));
    const columns: ColumnSpec[] = nodes.map((node, i) => ({
      ...names[i],
      type: columnTypeOfParquet(node),
      origin: { file: context.file, path: node.path.join('.'), sourceType: parquetTypeName(node), label: `${fileName} › ${node.element.name}` },
    }));
    const timeUnits = nodes.map(timeUnitOf);
    const columnIndex = new Map(nodes.map((node, i) => [node.element.name, i]));
    const tableName = context.names.allocate(tableBaseName(context));
    const inserter = createTable(context.db, tableName, columns);
    try {
      const values: Array<string | number | null> = new Array(columns.length);
      let groupStart = 0;
      for (const group of metadata.row_groups) {
        context.signal?.throwIfAborted();
        const groupRows = Number(group.num_rows);
        const data: Array<Array<{ start: number; values: ArrayLike<unknown> }>> = nodes.map(() => []);
        await parquetRead({
          file,
          metadata,
          rowStart: groupStart,
          rowEnd: groupStart + groupRows,
          parsers: ISO_PARSERS,
          compressors: COMPRESSORS,
          onChunk(chunk) {
            const at = columnIndex.get(chunk.columnName);
            if (at !== undefined) data[at].push({ start: chunk.rowStart - groupStart, values: chunk.columnData });
          },
        });
        // Each column arrives as one or more pieces covering the group; walk them side by side.
        const cursors = data.map(() => ({ piece: 0 }));
        for (let row = 0; row < groupRows; row++) {
          for (let c = 0; c < columns.length; c++) {
            const pieces = data[c];
            const cursor = cursors[c];
            while (cursor.piece < pieces.length && row >= pieces[cursor.piece].start + pieces[cursor.piece].values.length) cursor.piece++;
            const piece = pieces[cursor.piece];
            const value = piece && row >= piece.start ? piece.values[row - piece.start] : null;
            values[c] = cellToSql(value, columns[c].type, timeUnits[c]);
          }
          inserter.insert(values);
        }
        groupStart += groupRows;
      }
      inserter.finish();
    } catch (e) {
      inserter.dispose();
      throw e;
    }
    context.tables.push({ name: tableName, originalName: fileName, sourceFile: context.file, kind: 'table', columns, statistics: inserter.statistics() });
    if (metadata.row_groups.length === 0) report(context, 'info', 'The Parquet file has no row groups (no rows).');
  } finally {
    await handle.close();
  }
}
