import type { Database } from 'sql.js';
import type { ColumnOrigin, ColumnType } from './types';
import type { DateLayout } from './typeInference';
import { quoteIdent } from '../text/sql';
import { BulkStatement } from './sqlJs';
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
}



/** Creates a table with declared types from inferred ones and returns a row inserter. */
export function createTable(db: Database, table: string, columns: ColumnSpec[]): TableInserter {
  const columnSql = columns.map((c) => `${quoteIdent(c.name)} ${sqlTypeOf(c.type)}`).join(', ');
  db.run(`CREATE TABLE ${quoteIdent(table)} (${columnSql})`);
  return new TableInserter(db, table, columns.length);
}

/**
 * Inserts rows in batches through multi-row prepared statements: each statement execution has a fixed cost
 * (bind, step, reset, crossing into WebAssembly), so many rows per execution is markedly faster than one.
 */
export class TableInserter {
  private readonly batchRows: number;
  private readonly batchStatement: BulkStatement;
  private readonly pending: Array<string | number | null>;
  private pendingRows = 0;
  rowCount = 0;

  constructor(
    private readonly db: Database,
    private readonly table: string,
    private readonly columnCount: number,
  ) {
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

  /** Frees the statements without writing queued rows (the caller is rolling back). */
  dispose(): void {
    this.batchStatement.free();
  }
}
