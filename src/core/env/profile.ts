import type { Database, SqlValue } from 'sql.js';
import type { LoadedTable } from './loaderContext';
import { quoteIdent } from '../text/sql';
import type { ColumnProfile, ColumnType, DataDocument, DocumentProfile, TableProfile } from './types';

/** Column type from a declared SQL type, by SQLite's affinity rules plus the date/boolean names people use. */
export function columnTypeFromDeclared(declared: string): ColumnType | undefined {
  const type = declared.toUpperCase();
  if (type === '') return undefined;
  if (type.includes('BOOL')) return 'boolean';
  // SQL Server's money types hold amounts; `bit` is its boolean.
  if (type.includes('MONEY') || type.includes('CURRENCY')) return 'real';
  if (type === 'BIT') return 'boolean';
  if (type.includes('DATETIME') || type.includes('TIMESTAMP')) return 'datetime';
  if (type.includes('DATE')) return 'date';
  if (type.includes('INT')) return 'integer';
  if (type.includes('CHAR') || type.includes('CLOB') || type.includes('TEXT') || type.includes('BLOB')) return 'text';
  if (type.includes('REAL') || type.includes('FLOA') || type.includes('DOUB') || type.includes('NUM') || type.includes('DEC')) return 'real';
  return 'text';
}

/** For undeclared columns (views, expressions): the storage class all non-null values share, else text. */
function columnTypeFromData(db: Database, table: string, column: string): ColumnType {
  const result = db.exec(`SELECT DISTINCT typeof(${column}) FROM ${table} WHERE ${column} IS NOT NULL LIMIT 3`)[0];
  const classes = (result?.values ?? []).map((row) => String(row[0]));
  if (classes.length === 1 && classes[0] === 'integer') return 'integer';
  if (classes.length > 0 && classes.every((c) => c === 'integer' || c === 'real')) return 'real';
  return 'text';
}

function asSample(value: SqlValue): string | number {
  if (value instanceof Uint8Array) return `<blob ${value.length} bytes>`;
  return value as string | number;
}

/** Rows read to estimate a column's cardinality before choosing how to count its distinct values. */
const CARDINALITY_PROBE_ROWS = 10000;

/**
 * Distinct non-null count as an SQL expression. count(DISTINCT) builds a temporary B-tree, fast for numbers and
 * for few distinct values; for many distinct strings a GROUP BY (SQLite's sorter) measured 2–3× faster, so a
 * probe of the first rows picks between them.
 */
function distinctSql(db: Database, table: string, column: string, type: ColumnType): string {
  if (type === 'integer' || type === 'real' || type === 'boolean') return `count(DISTINCT ${column})`;
  const probe = db.exec(
    `SELECT count(${column}), count(DISTINCT ${column}) FROM (SELECT ${column} FROM ${table} LIMIT ${CARDINALITY_PROBE_ROWS})`,
  )[0].values[0];
  const nonNull = Number(probe[0]);
  if (nonNull < CARDINALITY_PROBE_ROWS / 2 || Number(probe[1]) < nonNull / 2) return `count(DISTINCT ${column})`;
  const result = db.exec(`SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column})`)[0];
  return String(Number(result.values[0][0]));
}

/** Profiles one table or view with a single aggregate query plus a sample query per column. */
const AGGREGATES_PER_SCAN = 1000;

export function profileTable(db: Database, loaded: LoadedTable): TableProfile {
  const table = quoteIdent(loaded.name);
  const info = db.exec(`PRAGMA table_info(${table})`)[0];
  const nameAt = info.columns.indexOf('name');
  const typeAt = info.columns.indexOf('type');
  const pkAt = info.columns.indexOf('pk');
  const columns = info.values.map((row) => {
    const name = String(row[nameAt]);
    const inferred = loaded.columns?.find((c) => c.name === name);
    const quoted = quoteIdent(name);
    const declared = String(row[typeAt] ?? '');
    return {
      name,
      quoted,
      originalName: inferred?.originalName ?? name,
      type: inferred?.type ?? columnTypeFromDeclared(declared) ?? columnTypeFromData(db, table, quoted),
      origin: inferred?.origin,
      layoutName: inferred?.layoutName,
      // Loaders that infer types declare their own (INTEGER, DATE…); only a database file's declaration says something.
      declared: inferred ? undefined : declared || undefined,
      pk: Number(row[pkAt] ?? 0),
    };
  });
  const ranged = (type: ColumnType) => type === 'integer' || type === 'real' || type === 'date' || type === 'datetime';
  const aggregates = ['count(*)'];
  for (const column of columns) {
    aggregates.push(`count(${column.quoted})`, distinctSql(db, table, column.quoted, column.type));
    if (ranged(column.type)) aggregates.push(`min(${column.quoted})`, `max(${column.quoted})`);
  }
  // A result row holds at most 2,000 values in SQLite: a wide table's aggregates are read in several scans.
  const values: SqlValue[] = [];
  for (let start = 0; start < aggregates.length; start += AGGREGATES_PER_SCAN) {
    values.push(...db.exec(`SELECT ${aggregates.slice(start, start + AGGREGATES_PER_SCAN).join(', ')} FROM ${table}`)[0].values[0]);
  }
  const rowCount = Number(values[0]);
  let at = 1;
  const columnProfiles: ColumnProfile[] = columns.map((column) => {
    const nonNull = Number(values[at++]);
    const distinctCount = Number(values[at++]);
    const profile: ColumnProfile = {
      name: column.name,
      originalName: column.originalName,
      type: column.type,
      nullFraction: rowCount === 0 ? 0 : (rowCount - nonNull) / rowCount,
      distinctCount,
      samples: [],
      candidateKey: rowCount > 0 && nonNull === rowCount && distinctCount === rowCount,
    };
    if (column.origin) profile.origin = column.origin;
    if (column.layoutName) profile.dateLayout = column.layoutName;
    if (column.declared) profile.declaredType = column.declared;
    if (ranged(column.type)) {
      const min = values[at++];
      const max = values[at++];
      if (min !== null && !(min instanceof Uint8Array)) profile.min = min;
      if (max !== null && !(max instanceof Uint8Array)) profile.max = max;
    }
    const samples = db.exec(`SELECT DISTINCT ${column.quoted} FROM ${table} WHERE ${column.quoted} IS NOT NULL LIMIT 3`)[0];
    profile.samples = (samples?.values ?? []).map((row) => asSample(row[0]));
    if ((samples?.values ?? []).some((row) => row[0] instanceof Uint8Array)) profile.binary = true;
    return profile;
  });
  const keyColumns = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const profile: TableProfile = {
    name: loaded.name,
    originalName: loaded.originalName,
    sourceFile: loaded.sourceFile,
    kind: loaded.kind,
    rowCount,
    columns: columnProfiles,
  };
  if (loaded.parent) profile.parent = loaded.parent;
  if (keyColumns.length > 0 && loaded.kind === 'table' && !loaded.columns) profile.primaryKey = keyColumns.map((c) => c.name);
  if (loaded.foreignKeys) profile.foreignKeys = loaded.foreignKeys.map((key) => ({ ...key, references: key.references.some((r) => r === '') ? primaryKeyOf(db, key.table) ?? key.references : key.references }));
  if (loaded.viewSql) profile.viewSql = loaded.viewSql;
  return profile;
}

/** A table's declared primary key columns, in order. */
function primaryKeyOf(db: Database, table: string): string[] | undefined {
  const info = db.exec(`PRAGMA table_info(${quoteIdent(table)})`)[0];
  if (!info) return undefined;
  const keys = info.values.filter((row) => Number(row[info.columns.indexOf('pk')]) > 0).sort((a, b) => Number(a[info.columns.indexOf('pk')]) - Number(b[info.columns.indexOf('pk')]));
  return keys.length > 0 ? keys.map((row) => String(row[info.columns.indexOf('name')])) : undefined;
}

export function profileDocument(document: DataDocument): DocumentProfile {
  return {
    name: document.name,
    sourceFile: document.sourceFile,
    title: document.title,
    sizeBytes: document.sizeBytes,
    headings: document.sections.filter((s) => s.level > 0).map((s) => s.heading),
  };
}
