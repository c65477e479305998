import type { Database } from 'sql.js';
import { tableBaseNameFromFile, type NameAllocator } from './naming';
import type { TableStatistics } from './columnStats';
import type { ColumnSpec } from './tableWriter';
import type { TextEncoding } from './textEncoding';
import type { DataDocument, FileDiagnostic, LeftOutTable, Severity, TableProfile } from './types';

/** A table or view a loader put in the image, with what the loader knows about it beyond the schema. */
export interface LoadedTable {
  name: string;
  originalName: string;
  sourceFile: string;
  kind: 'table' | 'view';
  /** Inferred column types (CSV, JSON); absent when the profile should read them from the schema (SQLite). */
  columns?: ColumnSpec[];
  parent?: TableProfile['parent'];
  foreignKeys?: TableProfile['foreignKeys'];
  viewSql?: string;
  /** Column statistics the loader gathered while inserting the rows (`TableInserter.statistics()`); the profile uses them. */
  statistics?: TableStatistics;
  /** Columns of the file left out as empty and unnamed, by the names they would have had (`column_27`). */
  droppedColumns?: string[];
  /** The lines a file writes before its table (a title, notes, a legend of its columns), as the file writes them. */
  preamble?: string[];
  /** Rows under the table the loader left out (summaries and notes after a blank row): how many. */
  rowsLeftOutBelow?: number;
}

/** What every loader gets for one file. */
export interface LoaderContext {
  db: Database;
  names: NameAllocator;
  /** Path relative to the root, forward slashes. */
  file: string;
  /** The base of the names of the tables the file becomes (`international_carrier` where two folders hold a `carrier.csv`); the file's base name when absent. */
  baseName?: string;
  absolutePath: string;
  sizeBytes: number;
  /** The first bytes of the file (up to 64 KiB), already read for sniffing. */
  head: Buffer;
  /** Text files: the encoding found for the whole file (see textEncoding.ts); read the file through it. */
  encoding?: TextEncoding;
  signal?: AbortSignal;
  tables: LoadedTable[];
  documents: DataDocument[];
  diagnostics: FileDiagnostic[];
  /** Tables of the file the loader leaves out on purpose (the file's record lists them). */
  leftOut?: LeftOutTable[];
}

export function report(context: LoaderContext, severity: Severity, message: string, line?: number): void {
  context.diagnostics.push(line === undefined ? { file: context.file, severity, message } : { file: context.file, severity, message, line });
}

/** Up to `limit` numbers as "3, 7, 12 and 4 more". */
export function listLines(lines: number[], total: number, limit = 10): string {
  const shown = lines.slice(0, limit).join(', ');
  return total > limit ? `${shown} and ${total - limit} more` : shown;
}

/** The base of the names of a file's tables: the one chosen for the whole folder, else the file's own base name. */
export function tableBaseName(context: LoaderContext): string {
  return context.baseName ?? tableBaseNameFromFile(context.file);
}

/** 0-based column indexes as 1-based positions with runs joined: `columns 27–65`, `column 4`. */
export function positions(indexes: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < indexes.length; i++) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    runs.push(j > i ? `${indexes[i] + 1}–${indexes[j] + 1}` : `${indexes[i] + 1}`);
    i = j;
  }
  return `${indexes.length === 1 ? 'column' : 'columns'} ${runs.join(', ')}`;
}
