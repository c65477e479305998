import type { Database, SqlValue } from 'sql.js';
import type { ColumnStatistics } from './columnStats';
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

/**
 * A column declared as numbers (`Groups REAL`) whose every value is stored as text (`All_Stands`: SQLite keeps what
 * its affinity cannot convert) holds text, whatever the declaration says. Other declarations stand.
 */
function declaredButText(db: Database, table: string, column: string, declared: ColumnType | undefined): ColumnType | undefined {
  if (declared !== 'integer' && declared !== 'real') return declared;
  // (Read on the first thousand values, so a large table is not scanned once more per numeric column.)
  const classes = (db.exec(`SELECT DISTINCT c FROM (SELECT typeof(${column}) AS c FROM ${table} WHERE ${column} IS NOT NULL LIMIT 1000)`)[0]?.values ?? []).map((row) => String(row[0]));
  return classes.length > 0 && classes.every((c) => c === 'text' || c === 'blob') ? 'text' : declared;
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

/** Distinct values a column profile shows. */
const SAMPLE_COUNT = 3;

/** How far below the row count a hashed distinct count must be for no hash collision to matter to a key. */
const HASHED_KEY_SLACK = 8;

/**
 * The loader's statistics of each column (by position, names checked), where it gathered them. A distinct count
 * taken from 64-bit hashes that comes out just below the row count of a column without NULLs is left to SQLite:
 * only there could a collision (which lowers a count) turn a key into a non-key.
 */
function loaderStatistics(loaded: LoadedTable, names: readonly string[]): Array<ColumnStatistics | undefined> {
  const statistics = loaded.statistics;
  const columns = statistics?.columns;
  if (!statistics || !columns || columns.length !== names.length || columns.some((c, i) => c.name !== names[i])) return names.map(() => undefined);
  return columns.map(({ stats }) => {
    if (!stats?.hashed || stats.distinct === undefined) return stats;
    const rows = statistics.rowCount;
    const nearKey = stats.nonNull === rows && stats.distinct < rows && stats.distinct + HASHED_KEY_SLACK >= rows;
    return nearKey ? { ...stats, distinct: undefined } : stats;
  });
}

/** Aggregates per scan: a result row holds at most 2,000 values in SQLite, so a wide table's are read in several scans. */
const AGGREGATES_PER_SCAN = 1000;

/**
 * Profiles one table or view: row count, and per column the null fraction, distinct count, min/max (numbers and
 * dates) and up to three samples. Where the loader gathered a column's statistics while inserting the rows
 * (`LoadedTable.statistics`), they are used as they are — they equal what SQLite answers for the stored values; the
 * rest comes from one aggregate query (a scan per 1,000 aggregates) plus a sample query per column.
 */
export function profileTable(db: Database, loaded: LoadedTable): TableProfile {
  const table = quoteIdent(loaded.name);
  const info = db.exec(`PRAGMA main.table_info(${table})`)[0];
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
      type: inferred?.type ?? declaredButText(db, table, quoted, columnTypeFromDeclared(declared)) ?? columnTypeFromData(db, table, quoted),
      origin: inferred?.origin,
      layoutName: inferred?.layoutName,
      unit: inferred?.unit,
      // Loaders that infer types declare their own (INTEGER, DATE…); only a database file's declaration says something.
      declared: inferred ? undefined : declared || undefined,
      pk: Number(row[pkAt] ?? 0),
    };
  });
  const ranged = (type: ColumnType) => type === 'integer' || type === 'real' || type === 'date' || type === 'datetime';
  const statistics = loaderStatistics(loaded, columns.map((c) => c.name));
  // What the loader did not gather is asked of SQLite.
  const aggregates: string[] = [];
  const ask = (sql: string) => aggregates.push(sql) - 1;
  const rowCountAt = loaded.statistics && statistics.every((s) => s !== undefined) ? -1 : ask('count(*)');
  const asked = columns.map((column, i) => {
    const stats = statistics[i];
    const nonNullAt = stats ? -1 : ask(`count(${column.quoted})`);
    const distinctAt = stats?.distinct !== undefined ? -1 : ask(distinctSql(db, table, column.quoted, column.type));
    const rangeAt = !stats && ranged(column.type) ? ask(`min(${column.quoted})`) : -1;
    if (rangeAt !== -1) ask(`max(${column.quoted})`);
    return { nonNullAt, distinctAt, rangeAt };
  });
  const values: SqlValue[] = [];
  for (let start = 0; start < aggregates.length; start += AGGREGATES_PER_SCAN) {
    values.push(...db.exec(`SELECT ${aggregates.slice(start, start + AGGREGATES_PER_SCAN).join(', ')} FROM ${table}`)[0].values[0]);
  }
  const rowCount = rowCountAt === -1 ? loaded.statistics!.rowCount : Number(values[rowCountAt]);
  const columnProfiles: ColumnProfile[] = columns.map((column, i) => {
    const stats = statistics[i];
    const { nonNullAt, distinctAt, rangeAt } = asked[i];
    const nonNull = stats ? stats.nonNull : Number(values[nonNullAt]);
    const distinctCount = distinctAt === -1 ? stats!.distinct! : Number(values[distinctAt]);
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
    if (column.unit) profile.unit = column.unit;
    if (column.declared) profile.declaredType = column.declared;
    if (ranged(column.type)) {
      const min = stats ? stats.min ?? null : values[rangeAt];
      const max = stats ? stats.max ?? null : values[rangeAt + 1];
      if (min !== null && !(min instanceof Uint8Array)) profile.min = min;
      if (max !== null && !(max instanceof Uint8Array)) profile.max = max;
    }
    if (stats) {
      // The loader gives up a column with any value that is not a number or a string (a blob), so no sample is binary.
      profile.samples = stats.first.slice(0, SAMPLE_COUNT);
    } else {
      const samples = db.exec(`SELECT DISTINCT ${column.quoted} FROM ${table} WHERE ${column.quoted} IS NOT NULL LIMIT ${SAMPLE_COUNT}`)[0];
      profile.samples = (samples?.values ?? []).map((row) => asSample(row[0]));
      if ((samples?.values ?? []).some((row) => row[0] instanceof Uint8Array)) profile.binary = true;
    }
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
  if (loaded.droppedColumns && loaded.droppedColumns.length > 0) profile.droppedColumns = loaded.droppedColumns;
  if (loaded.preamble && loaded.preamble.length > 0) profile.preamble = loaded.preamble;
  if (loaded.rowsLeftOutBelow) profile.rowsLeftOutBelow = loaded.rowsLeftOutBelow;
  return profile;
}

/** A table's declared primary key columns, in order. */
function primaryKeyOf(db: Database, table: string): string[] | undefined {
  const info = db.exec(`PRAGMA main.table_info(${quoteIdent(table)})`)[0];
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
