import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { loadFiles, queryImage } from '../support/envFixtures';

const load = loadFiles;

function tableOf(env: DataEnvironment, name: string): TableProfile {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `table ${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
}

const ROWS = 10;
const BIG_ID = 2n ** 60n + 7n; // beyond a double's exact range: must arrive exactly

/** Ten orders in three row groups (4 + 4 + 2), with logical types, nulls, a decimal, a JSON and a list column. */
function ordersParquet(codec: 'SNAPPY' | 'GZIP' | 'LZ4_RAW' = 'SNAPPY'): Buffer {
  const ids = Array.from({ length: ROWS }, (_, i) => (i === ROWS - 1 ? BIG_ID : BigInt(i + 1)));
  const names = Array.from({ length: ROWS }, (_, i) => (i === 3 ? null : `customer ${i + 1}`));
  const prices = Array.from({ length: ROWS }, (_, i) => (i === 5 ? null : 1.5 * (i + 1)));
  const days = Array.from({ length: ROWS }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i * 10)));
  const times = Array.from({ length: ROWS }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i, 8, 30, i)));
  const active = Array.from({ length: ROWS }, (_, i) => i % 2 === 0);
  const amounts = Array.from({ length: ROWS }, (_, i) => 10 + i + 0.25);
  const tags = Array.from({ length: ROWS }, (_, i) => ({ rank: i, vip: i > 7 }));
  const scores = Array.from({ length: ROWS }, (_, i) => (i === 2 ? null : [i, i * 2]));
  const schema = [
    { name: 'root', num_children: 9 },
    { name: 'Order ID', type: 'INT64', repetition_type: 'REQUIRED' },
    { name: 'customer', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'price', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    { name: 'day', type: 'INT32', converted_type: 'DATE', repetition_type: 'OPTIONAL' },
    { name: 'ordered_at', type: 'INT64', converted_type: 'TIMESTAMP_MICROS', repetition_type: 'OPTIONAL' },
    { name: 'active', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
    { name: 'amount', type: 'INT64', converted_type: 'DECIMAL', precision: 10, scale: 2, repetition_type: 'OPTIONAL' },
    { name: 'tags', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' },
    { name: 'scores', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
  ];
  const bytes = parquetWriteBuffer({
    // The writer's schema type is its own copy of hyparquet's; the literal above matches it.
    schema: schema as never,
    rowGroupSize: 4,
    codec,
    // GZIP really compresses; LZ4_RAW pages are left as they are: only the codec name matters to that test.
    compressors: { GZIP: (bytes: Uint8Array) => new Uint8Array(zlib.gzipSync(bytes)), LZ4_RAW: (bytes: Uint8Array) => bytes },
    columnData: [
      { name: 'Order ID', data: ids },
      { name: 'customer', data: names },
      { name: 'price', data: prices },
      { name: 'day', data: days },
      { name: 'ordered_at', data: times },
      { name: 'active', data: active },
      { name: 'amount', data: amounts },
      { name: 'tags', data: tags },
      { name: 'scores', data: scores },
    ],
  });
  return Buffer.from(bytes);
}

describe('env: Parquet', () => {
  it('loads every row group with column types from the Parquet logical types', async () => {
    const env = await load({ 'orders.parquet': ordersParquet() });
    const orders = tableOf(env, 'orders');
    assert.equal(orders.rowCount, ROWS);
    assert.deepEqual(
      orders.columns.map((c) => [c.name, c.originalName, c.type, c.origin?.sourceType]),
      [
        ['order_id', 'Order ID', 'integer', 'INT64'],
        ['customer', 'customer', 'text', 'UTF8'],
        ['price', 'price', 'real', 'DOUBLE'],
        ['day', 'day', 'date', 'DATE'],
        ['ordered_at', 'ordered_at', 'datetime', 'TIMESTAMP_MICROS'],
        ['active', 'active', 'boolean', 'BOOLEAN'],
        ['amount', 'amount', 'real', 'DECIMAL(10,2)'],
        ['tags', 'tags', 'text', 'JSON'],
        ['scores', 'scores', 'text', 'LIST'],
      ],
    );
    assert.equal(orders.columns[0].origin?.label, 'orders.parquet › Order ID');
    assert.deepEqual(env.profile.diagnostics, []);
    const rows = await queryImage(
      env.image,
      'SELECT order_id, customer, price, day, ordered_at, active, amount, tags, scores FROM orders ORDER BY rowid',
    );
    assert.equal(rows.length, ROWS);
    assert.deepEqual(rows[0], [1, 'customer 1', 1.5, '2024-01-01', '2024-01-01T08:30:00Z', 1, 10.25, '{"rank":0,"vip":false}', '[0,0]']);
    assert.deepEqual(rows[2].slice(0, 2), [3, 'customer 3']);
    assert.equal(rows[2][8], null);
    assert.equal(rows[3][1], null); // null name in the first row group
    assert.equal(rows[5][2], null); // null price in the second row group
    assert.deepEqual(rows[8].slice(3, 7), ['2024-03-21', '2024-01-09T08:30:08Z', 1, 18.25]);
    // The last row sits in the third row group; its id is exact in SQLite, as text in JS to avoid rounding.
    const exact = await queryImage(env.image, `SELECT CAST(order_id AS TEXT), typeof(order_id) FROM orders WHERE active = 0 AND price > 14`);
    assert.deepEqual(exact, [[String(BIG_ID), 'integer']]);
    const day = orders.columns.find((c) => c.name === 'day')!;
    assert.equal(day.min, '2024-01-01');
    assert.equal(day.max, '2024-03-31');
  });

  it('reads GZIP-compressed files and names a codec it cannot read', async () => {
    const env = await load({ 'gzip.parquet': ordersParquet('GZIP'), 'lz4.parquet': ordersParquet('LZ4_RAW') });
    assert.deepEqual(
      env.profile.tables.map((t) => [t.name, t.rowCount]),
      [['gzip', ROWS]],
    );
    assert.deepEqual(await queryImage(env.image, 'SELECT sum(amount), count(customer) FROM gzip'), [[147.5, 9]]);
    assert.equal(env.profile.diagnostics.length, 1);
    assert.equal(env.profile.diagnostics[0].file, 'lz4.parquet');
    assert.match(env.profile.diagnostics[0].message, /Compressed with LZ4_RAW, which TOFFEE's Parquet reader does not support \(it reads UNCOMPRESSED, SNAPPY, GZIP, BROTLI/);
  });

  it('reads ZSTD-compressed files as a real writer makes them (the vendored KPTCL load curve)', async () => {
    const file = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'kptcl-load-curve-parquet', 'data', 'data', 'kptcl.parquet');
    const env = await load({ 'kptcl.parquet': fs.readFileSync(file) });
    assert.deepEqual(env.profile.diagnostics, []);
    assert.deepEqual(env.profile.tables.map((t) => [t.name, t.rowCount]), [['kptcl', 135774]]);
    // Every column decoded: no NULL crept in where a page failed to decompress.
    const [[rows, first, last]] = await queryImage(env.image, 'SELECT count(*), min(report_date), max(report_date) FROM kptcl');
    assert.equal(rows, 135774);
    assert.match(String(first), /^2011-/);
    assert.match(String(last), /^2026-/);
  });

  it('gives a diagnostic for a bad footer, a truncated file and a file that is not Parquet', async () => {
    const good = ordersParquet();
    const badFooter = Buffer.from(good);
    // Keep PAR1 at both ends but make the footer length point outside the file.
    badFooter.writeUInt32LE(good.length * 4, good.length - 8);
    const garbledMetadata = Buffer.from(good);
    const footerLength = good.readUInt32LE(good.length - 8);
    garbledMetadata.fill(0xff, good.length - 8 - footerLength, good.length - 8);
    const env = await load({
      'bad_footer.parquet': badFooter,
      'garbled.parquet': garbledMetadata,
      'cut.parquet': good.subarray(0, good.length - 100),
      'text.parquet': 'a,b\n1,2\n',
      'ok.parquet': good,
    });
    const messageOf = (file: string) => {
      const found = env.profile.diagnostics.filter((d) => d.file === file);
      assert.equal(found.length, 1, `one diagnostic for ${file}: ${JSON.stringify(env.profile.diagnostics)}`);
      assert.equal(found[0].severity, 'error');
      return found[0].message;
    };
    assert.match(messageOf('bad_footer.parquet'), /Bad Parquet footer: the file metadata cannot be read/);
    assert.match(messageOf('garbled.parquet'), /Bad Parquet footer|Could not load/);
    assert.match(messageOf('cut.parquet'), /does not end with PAR1/);
    assert.match(messageOf('text.parquet'), /Not a Parquet file/);
    assert.deepEqual(
      env.profile.tables.map((t) => [t.name, t.rowCount]),
      [['ok', ROWS]],
    );
  });
});
