import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Database, SqlValue } from 'sql.js';
import { compareCodePoints, TableStatisticsAccumulator, type TableStatistics } from '../../src/core/env/columnStats';
import { loadEnvironment } from '../../src/core/env/index';
import type { LoadedTable } from '../../src/core/env/loaderContext';
import { profileTable } from '../../src/core/env/profile';
import { loadSqlJs } from '../../src/core/env/sqlJs';
import { createTable, type ColumnSpec } from '../../src/core/env/tableWriter';
import type { ColumnType, EnvironmentDraft, TableProfile } from '../../src/core/env/types';
import { quoteIdent as q } from '../../src/core/text/sql';
import { makeFolder } from '../support/envFixtures';
import { mulberry32 } from '../support/random';

/** SQLite's own answer for a column: count, count(DISTINCT), min, max and the first 13 distinct values. */
function sqliteStats(db: Database, table: string, column: string): { nonNull: number; distinct: number; min: SqlValue; max: SqlValue; first: SqlValue[] } {
  const [nonNull, distinct, min, max] = db.exec(`SELECT count(${q(column)}), count(DISTINCT ${q(column)}), min(${q(column)}), max(${q(column)}) FROM ${q(table)}`)[0].values[0];
  const first = (db.exec(`SELECT DISTINCT ${q(column)} FROM ${q(table)} WHERE ${q(column)} IS NOT NULL LIMIT 13`)[0]?.values ?? []).map((r) => r[0]);
  return { nonNull: Number(nonNull), distinct: Number(distinct), min, max, first };
}

/** Every column the loader counted agrees with SQLite; returns the columns it gave up on. */
function assertStatisticsMatch(db: Database, table: string, statistics: TableStatistics, types: ReadonlyMap<string, ColumnType>): string[] {
  const [rowCount] = db.exec(`SELECT count(*) FROM ${q(table)}`)[0].values[0];
  assert.equal(statistics.rowCount, Number(rowCount), `${table}: row count`);
  const givenUp: string[] = [];
  for (const { name, stats } of statistics.columns) {
    if (!stats) {
      givenUp.push(name);
      continue;
    }
    const expected = sqliteStats(db, table, name);
    const where = `${table}.${name}`;
    assert.equal(stats.nonNull, expected.nonNull, `${where}: count`);
    if (stats.distinct !== undefined) assert.equal(stats.distinct, expected.distinct, `${where}: count(DISTINCT)`);
    if (types.get(name) !== 'text') {
      assert.deepEqual(stats.min ?? null, expected.min, `${where}: min`);
      assert.deepEqual(stats.max ?? null, expected.max, `${where}: max`);
    }
    assert.deepEqual(stats.first, expected.first, `${where}: first distinct values`);
  }
  return givenUp;
}

/** A table profile's input as the loader left it, without its statistics: profileTable then asks SQLite for everything. */
function withoutStatistics(table: TableProfile): LoadedTable {
  const loaded: LoadedTable = { name: table.name, originalName: table.originalName, sourceFile: table.sourceFile, kind: table.kind };
  // What the loader left out of the file, and what the file writes before and after its table, are no statistics: they stay.
  if (table.droppedColumns) loaded.droppedColumns = table.droppedColumns;
  if (table.preamble) loaded.preamble = table.preamble;
  if (table.rowsLeftOutBelow) loaded.rowsLeftOutBelow = table.rowsLeftOutBelow;
  if (!/\.(sqlite3?|db)$/i.test(table.sourceFile) && table.kind === 'table') {
    loaded.columns = table.columns.map((c) => {
      const spec: ColumnSpec = { name: c.name, originalName: c.originalName, type: c.type };
      if (c.origin) spec.origin = c.origin;
      if (c.dateLayout) spec.layoutName = c.dateLayout;
      if (c.unit) spec.unit = c.unit;
      return spec;
    });
  }
  if (table.parent) loaded.parent = table.parent;
  if (table.foreignKeys) loaded.foreignKeys = table.foreignKeys;
  if (table.viewSql) loaded.viewSql = table.viewSql;
  return loaded;
}

/**
 * Loads a folder and, in the image before it is taken, profiles every table again the slow way (SQL only), and
 * checks the loader's first distinct values against SELECT DISTINCT. Returns how many columns used the fast path.
 */
async function assertSameProfileBothWays(root: string): Promise<{ tables: number; fastColumns: number }> {
  let checked = { tables: 0, fastColumns: 0 };
  await loadEnvironment(root, {
    beforeImage(db: Database, draft: EnvironmentDraft) {
      checked = { tables: 0, fastColumns: 0 };
      for (const table of draft.profile.tables) {
        assert.deepEqual(table, profileTable(db, withoutStatistics(table)), `${table.name}: the profile with and without the loader's statistics`);
        checked.tables++;
        for (const column of table.columns) {
          const first = draft.firstDistinct?.(table.name, column.name, 13);
          if (!first) continue;
          checked.fastColumns++;
          assert.deepEqual(first, sqliteStats(db, table.name, column.name).first, `${table.name}.${column.name}: first distinct values`);
        }
      }
    },
  });
  return checked;
}

const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * 3000 rows of a CSV with the cases that differ between what a loader passes and what SQLite stores: NULLs and NA
 * markers, integers longer than 15 digits (some beyond 2^53, where neighbours share a double), reals written as
 * integers (3, 3.0 and 3.00 are one REAL value), -0, dates written padded and not (one ISO value), datetimes,
 * month-first dates, duplicates, a unique key, codes with leading zeros, non-ASCII text and an empty column; and a
 * column that looks like integers until its last chunk, so the table is rebuilt in a second pass.
 */
function edgeCaseCsv(rows: number): string {
  const random = mulberry32(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const lines = ['id,big_id,amount,qty,day,stamp,us_day,member,zip,name,empty,late_text'];
  for (let i = 1; i <= rows; i++) {
    const big = pick(['9007199254740992', '9007199254740993', '9007199254740994', '123456789012345678', '-123456789012345678', '1234567890123456', String(1e15 + Math.floor(random() * 50))]);
    const amount = pick(['3', '3.0', '3.00', '-0', '0', 'NA', '', '1e3', '1000', (random() * 100).toFixed(2), '0.1', '.5']);
    const qty = pick(['1', '2', '-7', 'N/A', '', 'null', '42', String(Math.floor(random() * 1000))]);
    const d = 1 + Math.floor(random() * 28);
    const m = 1 + Math.floor(random() * 12);
    const day = pick([`2014-${m}-${d}`, `2014-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`, 'NA', '']);
    const stamp = pick([`2020-0${1 + (i % 9)}-1${i % 10} 0${i % 10}:1${i % 6}:00`, `2020-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:1${i % 6}:00`, '']);
    const usDay = `${m}/${d}/20${10 + (i % 12)}`;
    const member = pick(['true', 'false', 'TRUE', '', 'NA']);
    const zip = pick(['007', '0420', '10115', '', '00000']);
    const name = pick(['Zoë', '😀 smile', '\uE000private', ' padded ', 'padded', 'NA', 'na', 'Straße', '日本', 'a,b', 'say "hi"', `user ${i % 300}`]);
    const late = i > rows - 5 ? 'text now' : String(i % 97);
    lines.push([String(i), big, amount, qty, day, stamp, usDay, member, zip, name, '', late].map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

/** Records with nested arrays (child tables), unsafe integers (real), booleans, dates, objects and nulls. */
function edgeCaseJson(rows: number): string {
  const random = mulberry32(11);
  return JSON.stringify(
    Array.from({ length: rows }, (_, i) => ({
      key: i,
      huge: i % 3 === 0 ? 2 ** 60 + i * 4096 : i % 3 === 1 ? -0 : 0.5,
      flag: i % 4 === 0 ? null : i % 2 === 0,
      when: i % 5 === 0 ? null : `2021-${String(1 + (i % 12)).padStart(2, '0')}-0${1 + (i % 9)}`,
      label: i % 7 === 0 ? '' : `label ${Math.floor(random() * 40)}`,
      meta: i % 2 === 0 ? { a: i % 3 } : 'plain',
      items: Array.from({ length: i % 3 }, (_, k) => ({ sku: `S-${(i * 7 + k) % 50}`, price: k + 0.25 })),
    })),
  );
}

async function edgeCaseXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sales');
  sheet.addRow(['region', 'units', 'price', 'sold_on', 'note']);
  for (let i = 0; i < 300; i++) {
    sheet.addRow([['North', 'South', 'East', 'Wëst'][i % 4], i % 17 === 0 ? null : i % 25, i % 9 === 0 ? 3 : 2.5 + (i % 7), new Date(Date.UTC(2022, i % 12, 1 + (i % 27))), i % 2 ? `n${i % 30}` : null]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function edgeCaseParquet(): Buffer {
  const rows = 500;
  const bytes = parquetWriteBuffer({
    schema: [
      { name: 'root', num_children: 4 },
      { name: 'id', type: 'INT64', repetition_type: 'REQUIRED' },
      { name: 'code', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'value', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
      { name: 'day', type: 'INT32', converted_type: 'DATE', repetition_type: 'OPTIONAL' },
    ] as never,
    rowGroupSize: 128,
    columnData: [
      // Beyond 2^53: stored exactly as 64-bit integers, two of them one double apart.
      { name: 'id', data: Array.from({ length: rows }, (_, i) => (i < 2 ? 2n ** 62n + BigInt(i) : BigInt(i % 400))) },
      { name: 'code', data: Array.from({ length: rows }, (_, i) => (i % 10 === 0 ? null : `C${i % 60}`)) },
      { name: 'value', data: Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? null : i % 5 === 0 ? NaN : (i % 40) / 4)) },
      { name: 'day', data: Array.from({ length: rows }, (_, i) => (i % 11 === 0 ? null : new Date(Date.UTC(2023, 0, 1 + (i % 90))))) },
    ],
  });
  return Buffer.from(bytes);
}

describe('column statistics gathered while loading', () => {
  it('equal SQLite’s count, count(DISTINCT), min, max and first values on CSV, JSON, XLSX and Parquet edge cases, and the profile is the same without them', async () => {
    const folder = makeFolder({
      'orders.csv': edgeCaseCsv(3000),
      'records.json': edgeCaseJson(400),
      'sales.xlsx': await edgeCaseXlsx(),
      'measures.parquet': edgeCaseParquet(),
    });
    try {
      const checked = await assertSameProfileBothWays(folder.root);
      assert.ok(checked.tables >= 5, `tables checked: ${checked.tables}`);
      // Nearly every column took the fast path (the NaN-free ones; none is given up here).
      assert.ok(checked.fastColumns >= 30, `columns from the loader's statistics: ${checked.fastColumns}`);
      const env = await loadEnvironment(folder.root);
      const orders = env.profile.tables.find((t) => t.name === 'orders')!;
      const column = (name: string) => orders.columns.find((c) => c.name === name)!;
      // The cases are really there: a rebuilt table (late_text is text), exact big integers, one REAL 3.
      assert.equal(column('late_text').type, 'text');
      assert.equal(column('big_id').type, 'integer');
      assert.equal(column('big_id').distinctCount >= 7, true);
      assert.equal(column('id').candidateKey, true);
      assert.equal(column('amount').type, 'real');
      assert.equal(column('day').type, 'date');
      assert.equal(column('empty').nullFraction, 1);
    } finally {
      folder.cleanup();
    }
  });

  it('are kept per part of a CSV too wide for one table, and the parts profile the same without them', async () => {
    const width = 2050;
    const header = Array.from({ length: width }, (_, c) => `c${c}`).join(',');
    const lines = Array.from({ length: 40 }, (_, r) => Array.from({ length: width }, (_, c) => (c % 3 === 0 ? String(r * c) : c % 3 === 1 ? `v${(r + c) % 7}` : r % 5 === 0 ? '' : (r / 4).toFixed(2))).join(','));
    const folder = makeFolder({ 'wide.csv': [header, ...lines].join('\n') + '\n' });
    try {
      const checked = await assertSameProfileBothWays(folder.root);
      assert.equal(checked.tables, 2, 'two linked parts');
      // Every column of both parts, the link column of each included.
      assert.equal(checked.fastColumns, width + 2);
    } finally {
      folder.cleanup();
    }
  });

  it('equal SQLite’s answers for values a column’s affinity converts, and give up a column whose stored form is not predictable', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      const columns: ColumnSpec[] = [
        { name: 'i', originalName: 'i', type: 'integer' },
        { name: 'r', originalName: 'r', type: 'real' },
        { name: 'd', originalName: 'd', type: 'date' },
        { name: 't', originalName: 't', type: 'text' },
        { name: 'b', originalName: 'b', type: 'boolean' },
        { name: 'text_number', originalName: 'text_number', type: 'text' },
        { name: 'int_plus', originalName: 'int_plus', type: 'integer' },
        { name: 'lone', originalName: 'lone', type: 'text' },
        { name: 'nul', originalName: 'nul', type: 'text' },
      ];
      const inserter = createTable(db, 'edge', columns);
      const rows: Array<Array<string | number | null>> = [
        // i: numbers and digit strings (2^53 and 2^53 + 1 are one double apart, two integers); r: NaN is NULL, -0 is 0.
        [1, 3, '2020-01-01', 'a', 1, 'x', '5', 'ok', 'n'],
        ['9007199254740992', 3.0, '2020-01-01 10:00', 'A', 0, 'y', '6', 'ok', 'n'],
        ['9007199254740993', NaN, '2019-12-31', 'é', 1, 'z', '7', '\ud800', 'a\u0000b'],
        ['-9223372036854775808', -0, null, '\uE000', null, 3, '+8', 'ok', 'n'],
        [null, Infinity, 'zzz', '😀', 1, 'x', '9', 'ok', 'n'],
        ['0', -Infinity, '2020-01-01', 'a', 0, 'x', '10', 'ok', 'm'],
        [-0, 1e300, '', '', 1, 'x', '11', 'ok', 'n'],
      ];
      for (const row of rows) inserter.insert(row);
      inserter.finish();
      const types = new Map(columns.map((c) => [c.name, c.type]));
      const givenUp = assertStatisticsMatch(db, 'edge', inserter.statistics(), types);
      // A number in a TEXT column (SQLite formats it), a '+8' into INTEGER (converted or not, SQLite decides), a lone surrogate, a NUL.
      assert.deepEqual(givenUp.sort(), ['int_plus', 'lone', 'nul', 'text_number']);
      const i = inserter.statistics().columns.find((c) => c.name === 'i')!.stats!;
      assert.equal(i.distinct, 5, 'two integers that share a double stay two');
    } finally {
      db.close();
    }
  });

  it('stay exact for many distinct values, and leave the distinct count to SQLite when the sets outgrow their budget', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      const columns: ColumnSpec[] = [
        { name: 'n', originalName: 'n', type: 'real' },
        { name: 's', originalName: 's', type: 'text' },
        { name: 'few', originalName: 'few', type: 'text' },
      ];
      const inserter = createTable(db, 'many', columns);
      const small = new TableStatisticsAccumulator(columns, 64 * 1024);
      const random = mulberry32(3);
      for (let row = 0; row < 50000; row++) {
        // Repeats as well as new values; strings that share hashes' low bits and long common prefixes.
        const n = Math.floor(random() * 30000) / 7;
        const values = [n, `value-${Math.floor(random() * 40000)}-${'x'.repeat(row % 5)}`, ['p', 'q', 'r'][row % 3]];
        inserter.insert(values);
        small.add(values);
      }
      inserter.finish();
      const types = new Map(columns.map((c) => [c.name, c.type]));
      assert.deepEqual(assertStatisticsMatch(db, 'many', inserter.statistics(), types), []);
      const budgeted = small.result();
      assert.deepEqual(assertStatisticsMatch(db, 'many', budgeted, types), []);
      const counted = budgeted.columns.filter((c) => c.stats?.distinct !== undefined).map((c) => c.name);
      assert.deepEqual(counted, ['few'], 'the large sets were dropped, the small one kept');
      // The profile then counts those columns itself and comes out the same.
      const loaded: LoadedTable = { name: 'many', originalName: 'many', sourceFile: 'many.csv', kind: 'table', columns };
      const slow = profileTable(db, loaded);
      assert.deepEqual(profileTable(db, { ...loaded, statistics: budgeted }), slow);
      assert.deepEqual(profileTable(db, { ...loaded, statistics: inserter.statistics() }), slow);
    } finally {
      db.close();
    }
  });

  it('count values that only ever rise without sorting, and still exactly when one falls back late', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      const columns: ColumnSpec[] = [
        { name: 'id', originalName: 'id', type: 'integer' },
        { name: 'stamp', originalName: 'stamp', type: 'datetime' },
        { name: 'id_back', originalName: 'id_back', type: 'integer' },
        { name: 'stamp_back', originalName: 'stamp_back', type: 'text' },
        { name: 'stamp_repeat', originalName: 'stamp_repeat', type: 'text' },
      ];
      const inserter = createTable(db, 'rising', columns);
      const rows = 6000;
      const stampOf = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 60000).toISOString().slice(0, 19).replace('T', ' ');
      for (let i = 0; i < rows; i++) {
        // The *_back columns rise until their last row, which repeats an early value (one fewer distinct) or goes below.
        const last = i === rows - 1;
        inserter.insert([i + 1, stampOf(i), last ? 18 : i * 2, last ? stampOf(5) : stampOf(i), stampOf(Math.floor(i / 2))]);
      }
      inserter.finish();
      const statistics = inserter.statistics();
      const types = new Map(columns.map((c) => [c.name, c.type]));
      assert.deepEqual(assertStatisticsMatch(db, 'rising', statistics, types), []);
      const stats = (name: string) => statistics.columns.find((c) => c.name === name)!.stats!;
      assert.equal(stats('id').distinct, rows);
      assert.equal(stats('stamp').distinct, rows);
      assert.equal(stats('stamp').hashed, undefined, 'rising strings are counted exactly, not by hash');
      assert.equal(stats('id_back').distinct, rows - 1);
      assert.equal(stats('stamp_back').distinct, rows - 1);
      assert.equal(stats('stamp_back').hashed, true);
      assert.equal(stats('stamp_repeat').distinct, rows / 2);
    } finally {
      db.close();
    }
  });

  it('leave a hashed distinct count just below the row count to SQLite, so a hash collision cannot hide a key', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      const columns: ColumnSpec[] = [{ name: 'code', originalName: 'code', type: 'text' }];
      const inserter = createTable(db, 'codes', columns);
      for (let i = 0; i < 5000; i++) inserter.insert([`code-${i}`]);
      inserter.finish();
      const statistics = inserter.statistics();
      const stats = statistics.columns[0].stats!;
      assert.equal(stats.hashed, true, 'past the small set, strings are counted by hash');
      assert.equal(stats.distinct, 5000);
      const loaded: LoadedTable = { name: 'codes', originalName: 'codes', sourceFile: 'codes.csv', kind: 'table', columns };
      // As if two codes had shared a 64-bit hash: one fewer. The profile recounts and still finds the key.
      const collided: TableStatistics = { ...statistics, columns: [{ name: 'code', stats: { ...stats, distinct: 4999 } }] };
      const profile = profileTable(db, { ...loaded, statistics: collided });
      assert.equal(profile.columns[0].distinctCount, 5000);
      assert.equal(profile.columns[0].candidateKey, true);
      assert.deepEqual(profile, profileTable(db, loaded));
    } finally {
      db.close();
    }
  });

  it('order text by code point, as SQLite orders UTF-8 bytes', () => {
    const words = ['\uE000', '😀', 'a', 'é', 'ab', '', '\uFFFF', '𝒳'];
    const byBytes = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual([...words].sort(compareCodePoints), byBytes);
  });

  it('give the same profiles on every public fixture with and without the fast path', async function () {
    this.timeout(240000);
    const fixtures = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public');
    let fast = 0;
    const names = fs.readdirSync(fixtures).filter((name) => fs.existsSync(path.join(fixtures, name, 'data')));
    assert.ok(names.length >= 20, `public fixtures: ${names.length}`);
    for (const name of names) fast += (await assertSameProfileBothWays(path.join(fixtures, name, 'data'))).fastColumns;
    assert.ok(fast > 300, `columns from the loader's statistics: ${fast}`);
  });
});
