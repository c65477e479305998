import type { Database } from 'sql.js';
import type { ColumnOrigin, ColumnType } from './types';
import type { DateLayout } from './typeInference';
import { quoteIdent } from '../text/sql';
import { BulkStatement } from './sqlJs';
import { TableStatisticsAccumulator, type TableStatistics } from './columnStats';
import { sqlTypeOf } from './typeInference';

export interface ColumnSpec {
  name: string;
  originalName: string;
  type: ColumnType;
  /** Where the column sits in its source file (spreadsheets, Parquet). */
  origin?: ColumnOrigin;
  /** For date and datetime columns read from text: the layout the file writes (values are stored in ISO form). */
  layout?: DateLayout;
  /** The layout in words, as the profile shows it (`M/D/YYYY`). */
  layoutName?: string;
  /** The unit the file wrote beside each value and the loader took off (`%` for `90.6%`, stored as 90.6). */
  unit?: string;
}

/** SQLite's limit on columns per table (SQLITE_MAX_COLUMN as sql.js is built). */
export const MAX_TABLE_COLUMNS = 2000;

/** Creates a table with declared types from inferred ones and returns a row inserter. */
export function createTable(db: Database, table: string, columns: ColumnSpec[]): TableInserter {
  const columnSql = columns.map((c) => `${quoteIdent(c.name)} ${sqlTypeOf(c.type)}`).join(', ');
  db.run(`CREATE TABLE ${quoteIdent(table)} (${columnSql})`);
  return new TableInserter(db, table, columns);
}

/**
 * Inserts rows in batches through multi-row prepared statements: each statement execution has a fixed cost
 * (bind, step, reset, crossing into WebAssembly), so many rows per execution is markedly faster than one.
 * It also gathers the columns' statistics from the rows it inserts (`statistics()`), so the profile need not read
 * the table again.
 */
export class TableInserter {
  private readonly batchRows: number;
  private readonly batchStatement: BulkStatement;
  private readonly pending: Array<string | number | null>;
  private readonly columnCount: number;
  private readonly accumulator: TableStatisticsAccumulator;
  private pendingRows = 0;
  rowCount = 0;

  constructor(
    private readonly db: Database,
    private readonly table: string,
    columns: ReadonlyArray<Pick<ColumnSpec, 'name' | 'type'>>,
  ) {
    this.columnCount = columns.length;
    this.accumulator = new TableStatisticsAccumulator(columns);
    const columnCount = this.columnCount;
    // SQLite allows 32766 parameters per statement; ~2000 per batch keeps statements small.
    this.batchRows = Math.max(1, Math.min(256, Math.floor(2000 / Math.max(1, columnCount))));
    this.batchStatement = new BulkStatement(db, this.insertSql(this.batchRows), this.batchRows * columnCount);
    this.pending = new Array(this.batchRows * columnCount);
  }

  private insertSql(rows: number): string {
    const row = `(${new Array(this.columnCount).fill('?').join(', ')})`;
    return `INSERT INTO ${quoteIdent(this.table)} VALUES ${new Array(rows).fill(row).join(', ')}`;
  }

  /** Queues one row (the array may be reused by the caller). */
  insert(values: ReadonlyArray<string | number | null>): void {
    const offset = this.pendingRows * this.columnCount;
    for (let c = 0; c < this.columnCount; c++) this.pending[offset + c] = values[c];
    this.accumulator.add(values);
    this.rowCount++;
    if (++this.pendingRows === this.batchRows) {
      this.batchStatement.run(this.pending);
      this.pendingRows = 0;
    }
  }

  /** Writes the rows still queued and frees the statements. */
  finish(): void {
    try {
      if (this.pendingRows > 0) {
        const last = new BulkStatement(this.db, this.insertSql(this.pendingRows), this.pendingRows * this.columnCount);
        try {
          last.run(this.pending);
        } finally {
          last.free();
        }
        this.pendingRows = 0;
      }
    } finally {
      this.batchStatement.free();
    }
  }

  /** The statistics of every row inserted so far: what the profile reads instead of querying the table. */
  statistics(): TableStatistics {
    return this.accumulator.result();
  }

  /** Frees the statements without writing queued rows (the caller is rolling back). */
  dispose(): void {
    this.batchStatement.free();
  }
}

/** One table of a source too wide for one: its name and columns (the link column first, for the parts after the first). */
export interface TablePart {
  name: string;
  columns: ColumnSpec[];
}

/** Rows in, whatever tables they go to. */
export interface RowSink {
  readonly rowCount: number;
  insert(values: ReadonlyArray<string | number | null>): void;
  finish(): void;
  dispose(): void;
  /** The statistics of the rows inserted so far, one per table the rows go to (in the parts' order). */
  statistics(): TableStatistics[];
}

/**
 * How a source with `columns` is stored: one table, or — over SQLite's limit — parts of at most 1,999 source
 * columns, each with `_row_id` (the row number, 1-based) so the parts join back into the source's rows.
 */
export function planTableParts(name: string, columns: ColumnSpec[], allocateName: (base: string) => string): { parts: TablePart[]; linkColumn?: string } {
  if (columns.length <= MAX_TABLE_COLUMNS) return { parts: [{ name, columns }] };
  const taken = new Set(columns.map((c) => c.name.toLowerCase()));
  let linkColumn = '_row_id';
  while (taken.has(linkColumn)) linkColumn = `_${linkColumn}`;
  const link: ColumnSpec = { name: linkColumn, originalName: '(row number)', type: 'integer' };
  const width = MAX_TABLE_COLUMNS - 1;
  const parts: TablePart[] = [];
  for (let start = 0, k = 1; start < columns.length; start += width, k++) {
    parts.push({ name: k === 1 ? name : allocateName(`${name}_part${k}`), columns: [link, ...columns.slice(start, start + width)] });
  }
  return { parts, linkColumn };
}

/** Creates the parts' tables; the sink takes full-width source rows and writes each part's slice with the row number. */
export function createTableParts(db: Database, parts: TablePart[], linked: boolean): RowSink {
  if (!linked) {
    const inserter = createTable(db, parts[0].name, parts[0].columns);
    return {
      get rowCount() {
        return inserter.rowCount;
      },
      insert: (values) => inserter.insert(values),
      finish: () => inserter.finish(),
      dispose: () => inserter.dispose(),
      statistics: () => [inserter.statistics()],
    };
  }
  const inserters = parts.map((part) => createTable(db, part.name, part.columns));
  const slices = parts.map((part, k) => ({ start: parts.slice(0, k).reduce((n, p) => n + p.columns.length - 1, 0), width: part.columns.length - 1 }));
  const buffers = parts.map((part) => new Array<string | number | null>(part.columns.length));
  let rows = 0;
  return {
    get rowCount() {
      return rows;
    },
    insert(values) {
      rows++;
      for (let k = 0; k < inserters.length; k++) {
        const buffer = buffers[k];
        buffer[0] = rows;
        const { start, width } = slices[k];
        for (let c = 0; c < width; c++) buffer[c + 1] = values[start + c] ?? null;
        inserters[k].insert(buffer);
      }
    },
    finish() {
      for (const inserter of inserters) inserter.finish();
    },
    dispose() {
      for (const inserter of inserters) inserter.dispose();
    },
    statistics() {
      return inserters.map((inserter) => inserter.statistics());
    },
  };
}
