/** What a folder of data files becomes: one SQLite image, a document store, a profile, and diagnostics. */

export type Severity = 'error' | 'warning' | 'info';

/** The data folder itself cannot be loaded (missing, not a folder, unreadable): the message says why, no more. */
export class DataFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

/** One problem with one input file. Loading never stops for it. */
export interface FileDiagnostic {
  /** Path relative to the environment root, with forward slashes. */
  file: string;
  severity: Severity;
  message: string;
  /** 1-based line number in the file, when the problem has one. */
  line?: number;
}

export type ColumnType = 'integer' | 'real' | 'text' | 'date' | 'datetime' | 'boolean';

/**
 * Where a column's values sit in its source file, so a rubric anchor or a UI can point at
 * "workbook › sheet › column". Set by the spreadsheet and Parquet loaders.
 */
export interface ColumnOrigin {
  /** Source file, relative to the environment root. */
  file: string;
  /** Worksheet name, for spreadsheets. */
  sheet?: string;
  /** The group label a two-line header puts over the column's name (CSV exports of spreadsheets). */
  group?: string;
  /** Header cell(s) in A1 notation, e.g. "B3", or "B2:B3" for a two-row header. */
  headerCells?: string;
  /** Data cells in A1 notation, e.g. "B4:B120" (spreadsheets). */
  range?: string;
  /** Column path in the source schema (Parquet). */
  path?: string;
  /** Logical type in the source, e.g. "INT64", "DATE", "TIMESTAMP(MICROS)", "DECIMAL(10,2)" (Parquet). */
  sourceType?: string;
  /** "workbook › sheet › column" (spreadsheets) or "file › column" (Parquet). */
  label: string;
  /** The header a workbook shows people above an Excel table's own header row ("Averaged estimated incidence (thousands) 95% C.I. lower" over `cil`). */
  shownHeader?: string;
}

export interface ColumnProfile {
  /** SQL column name in the image. */
  name: string;
  /** Name as it appeared in the source (header cell, JSON path, SQLite column). */
  originalName: string;
  type: ColumnType;
  nullFraction: number;
  distinctCount: number;
  /** For integer, real, date and datetime columns. */
  min?: number | string;
  max?: number | string;
  /** Up to three distinct non-null values, as they are stored. */
  samples: Array<string | number>;
  /** Non-null and unique over all rows. */
  candidateKey: boolean;
  /** Sheet/cell or schema origin, for loaders that know it (XLSX, Parquet). */
  origin?: ColumnOrigin;
  /** Date and datetime columns read from text: the layout the file writes (`M/D/YYYY`); values are stored in ISO form. */
  dateLayout?: string;
  /** Numbers the file wrote with a unit the loader took off: `%` for `90.6%` (stored as 90.6). */
  unit?: string;
  /** The type a database file declares for the column (`VARCHAR(45)`, `BLOB`), when it declares one. */
  declaredType?: string;
  /** Some stored values are binary (BLOBs). */
  binary?: boolean;
}

/** A foreign key a database file declares, in the environment's table and column names. */
export interface DeclaredForeignKey {
  columns: string[];
  table: string;
  references: string[];
}

export interface TableProfile {
  /** Stable, safe, unique SQL name in the image. */
  name: string;
  /** Name in the source: file name, SQLite table name, or JSON path. */
  originalName: string;
  /** Path relative to the environment root. */
  sourceFile: string;
  kind: 'table' | 'view';
  rowCount: number;
  columns: ColumnProfile[];
  /** For child tables made from arrays of objects in JSON: the parent table and the linking column. */
  parent?: { table: string; column: string };
  /** The primary key a database file declares. */
  primaryKey?: string[];
  /** Foreign keys a database file declares. */
  foreignKeys?: DeclaredForeignKey[];
  /** For views: the SELECT they are defined by. */
  viewSql?: string;
  /** Columns of the file left out as empty and unnamed (no header, no value), by the names they would have had (`column_27`). */
  droppedColumns?: string[];
  /**
   * What a file writes before its table: a CSV's lines (a station's name, a legend `wdsp: - Mean Wind Speed (knot)`;
   * line k of the file is `preamble[k - 1]`), a sheet's title rows ("Percentage of Popular Vote Received by State").
   */
  preamble?: string[];
  /**
   * Rows under the table that the loader left out (a statistics office's "Year to date" and "% change" lines and
   * footnotes, after a blank row): how many. A reader of the sheet sees them below the table.
   */
  rowsLeftOutBelow?: number;
}

export interface DocumentSection {
  heading: string;
  /** Markdown heading level (1–6); 0 for text before the first heading. */
  level: number;
  text: string;
}

export interface DataDocument {
  /** Unique name the agent uses to read it (file path relative to the root). */
  name: string;
  sourceFile: string;
  title: string;
  sizeBytes: number;
  sections: DocumentSection[];
}

export interface DocumentProfile {
  name: string;
  sourceFile: string;
  title: string;
  sizeBytes: number;
  headings: string[];
}

export interface FileRecord {
  file: string;
  sizeBytes: number;
  sha256: string;
  kind: 'csv' | 'tsv' | 'json' | 'jsonl' | 'sqlite' | 'xlsx' | 'parquet' | 'markdown' | 'text' | 'other';
  /** Tables and documents that came from this file. */
  produced: string[];
  /** Text files: the character encoding they were read in ('utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1'). */
  encoding?: string;
  /** The file holds the same bytes as this earlier one, which was loaded instead (a copy is not loaded twice). */
  duplicateOf?: string;
  /** Tables of the file left out on purpose, with why (a full-text index and the internal tables of its module). */
  leftOut?: LeftOutTable[];
}

export interface LeftOutTable {
  /** The name in the file. */
  table: string;
  why: string;
}

export interface EnvironmentProfile {
  root: string;
  files: FileRecord[];
  tables: TableProfile[];
  documents: DocumentProfile[];
  diagnostics: FileDiagnostic[];
}

export interface DataEnvironment {
  /** Absolute path of the folder. */
  root: string;
  /** The whole environment as one SQLite database file (bytes), the sandboxes' input. */
  image: Uint8Array;
  documents: DataDocument[];
  profile: EnvironmentProfile;
}

export interface LoadOptions {
  /** Files larger than this are skipped with a diagnostic. Default 512 MiB. */
  maxFileBytes?: number;
  signal?: AbortSignal;
  /** Progress for UIs: called as files are read. */
  onProgress?: (event: { file: string; done: number; total: number }) => void;
  /**
   * Called once every file is loaded and profiled, before the image is taken: a later stage (the semantic layer)
   * reads the image database directly and may add views to it (`draft.addView`), which are profiled like the rest.
   */
  beforeImage?: (db: import('sql.js').Database, draft: EnvironmentDraft) => void;
}

/** The environment as it stands before its image is taken. */
export interface EnvironmentDraft {
  profile: EnvironmentProfile;
  documents: DataDocument[];
  /**
   * Creates a view in the image and profiles it; returns its profile (or an error message). `types` gives the
   * columns' types where the view's own declaration would not (a UNION of files that each typed a column alone).
   */
  addView(name: string, select: string, sourceFile: string, originalName: string, types?: Record<string, ColumnType>): TableProfile | string;
  /**
   * The first `limit` distinct non-null values of a column, in row order — what
   * `SELECT DISTINCT column FROM table WHERE column IS NOT NULL LIMIT limit` returns — from the statistics the loader
   * gathered while inserting the rows; undefined where it gathered none (database files, views) or `limit` is over
   * what it keeps (13).
   */
  firstDistinct?(table: string, column: string, limit: number): Array<string | number> | undefined;
}
