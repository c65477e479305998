import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEnvironment } from '../../src/core/env/index';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { loadFiles, makeFolder, queryImage } from '../support/envFixtures';
import { mulberry32 } from '../support/random';

const load = loadFiles;

function tableOf(env: DataEnvironment, name: string): TableProfile {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `table ${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
}

function columnTypes(table: TableProfile): Record<string, string> {
  return Object.fromEntries(table.columns.map((c) => [c.name, c.type]));
}

describe('env: CSV and TSV', () => {
  it('reads a UTF-8 BOM, infers types, stores empty cells as NULL and profiles the columns', async () => {
    const csv =
      '\uFEFFid,name,price,qty,day,at,active,code\n' +
      '1,Ann,2.5,3,2024-01-05,2024-01-05T10:00:00,true,007\n' +
      '2,Bob,,4,2024-02-01,2024-02-01 11:30,FALSE,010\n' +
      '3,,7,,2023-12-31,2023-12-31T23:59:59Z,True,\n';
    const env = await load({ 'orders.csv': csv });
    const orders = tableOf(env, 'orders');
    assert.deepEqual(columnTypes(orders), {
      id: 'integer',
      name: 'text',
      price: 'real',
      qty: 'integer',
      day: 'date',
      at: 'datetime',
      active: 'boolean',
      code: 'text',
    });
    assert.equal(orders.rowCount, 3);
    assert.equal(orders.sourceFile, 'orders.csv');
    assert.equal(orders.originalName, 'orders.csv');
    const price = orders.columns.find((c) => c.name === 'price')!;
    assert.equal(price.nullFraction, 1 / 3);
    assert.equal(price.min, 2.5);
    assert.equal(price.max, 7);
    assert.equal(price.distinctCount, 2);
    const id = orders.columns.find((c) => c.name === 'id')!;
    assert.equal(id.candidateKey, true);
    assert.deepEqual(id.samples, [1, 2, 3]);
    assert.equal(orders.columns.find((c) => c.name === 'qty')!.candidateKey, false);
    const day = orders.columns.find((c) => c.name === 'day')!;
    assert.equal(day.min, '2023-12-31');
    assert.equal(day.max, '2024-02-01');
    const rows = await queryImage(env.image, 'SELECT id, name, price, active, code, typeof(price), typeof(qty) FROM orders ORDER BY id');
    assert.deepEqual(rows, [
      [1, 'Ann', 2.5, 1, '007', 'real', 'integer'],
      [2, 'Bob', null, 0, '010', 'null', 'integer'],
      [3, null, 7, 1, null, 'real', 'null'],
    ]);
    assert.deepEqual(env.profile.diagnostics, []);
  });

  for (const [label, delimiter] of [
    ['semicolons', ';'],
    ['tabs', '\t'],
    ['pipes', '|'],
  ] as const) {
    it(`sniffs ${label} as the delimiter`, async () => {
      const lines = [['city', 'amount', 'note'], ['Lyon', '1,5', 'a, b'], ['Nice', '2,25', 'c']];
      const env = await load({ 'data.csv': lines.map((l) => l.join(delimiter)).join('\n') + '\n' });
      const data = tableOf(env, 'data');
      assert.deepEqual(
        data.columns.map((c) => c.name),
        ['city', 'amount', 'note'],
      );
      assert.equal(data.rowCount, 2);
      assert.deepEqual(await queryImage(env.image, 'SELECT note FROM data ORDER BY city'), [['a, b'], ['c']]);
    });
  }

  it('loads .tsv files as tab-separated even when commas dominate', async () => {
    const env = await load({ 'm.tsv': 'a\tb\n1,2,3\t4\n' });
    assert.deepEqual(await queryImage(env.image, 'SELECT a, b FROM m'), [['1,2,3', 4]]);
  });

  it('keeps quoted fields with embedded newlines and reports later lines correctly', async () => {
    const csv = 'id,comment\n1,"first line\nsecond line"\n2,"x"\n3,ok,extra\n';
    const env = await load({ 'c.csv': csv });
    assert.deepEqual(await queryImage(env.image, 'SELECT comment FROM c WHERE id = 1'), [['first line\nsecond line']]);
    assert.equal(tableOf(env, 'c').rowCount, 3);
    const [diagnostic] = env.profile.diagnostics;
    assert.equal(diagnostic.line, 5, JSON.stringify(env.profile.diagnostics));
  });

  it('pads and trims ragged rows and reports them once with their line numbers', async () => {
    const csv = 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n';
    const env = await load({ 'r.csv': csv });
    assert.deepEqual(await queryImage(env.image, 'SELECT a, b, c FROM r'), [
      [1, 2, 3],
      [4, 5, null],
      [6, 7, 8],
      [10, 11, 12],
    ]);
    assert.equal(env.profile.diagnostics.length, 1);
    const diagnostic = env.profile.diagnostics[0];
    assert.equal(diagnostic.severity, 'warning');
    assert.equal(diagnostic.line, 3);
    assert.match(diagnostic.message, /^2 row\(s\)/);
    assert.match(diagnostic.message, /Lines: 3, 4\./);
  });

  it('reports an unterminated quote with the line it starts on and still loads the rows before it', async () => {
    const csv = 'id,text\n1,fine\n2,"never closed\n3,lost\n4,lost too\n';
    const env = await load({ 'q.csv': csv });
    const quote = env.profile.diagnostics.find((d) => /Unterminated/.test(d.message));
    assert.ok(quote, JSON.stringify(env.profile.diagnostics));
    assert.equal(quote.line, 3);
    const rows = await queryImage(env.image, 'SELECT id FROM q ORDER BY id');
    assert.deepEqual(rows.slice(0, 2), [[1], [2]]);
  });

  it('gives a diagnostic for an empty file and for a header-only file makes an empty table', async () => {
    const env = await load({ 'empty.csv': '', 'blank.csv': '\n\n  \n', 'header.csv': 'a,b\n' });
    const empty = env.profile.diagnostics.filter((d) => /Empty file/.test(d.message)).map((d) => d.file).sort();
    assert.deepEqual(empty, ['blank.csv', 'empty.csv']);
    assert.deepEqual(env.profile.tables.map((t) => [t.name, t.rowCount]), [['header', 0]]);
  });

  it('refuses random bytes named .csv with a diagnostic instead of a garbage table', async () => {
    const random = mulberry32(7);
    const bytes = Buffer.from(Array.from({ length: 20000 }, () => Math.floor(random() * 256)));
    const env = await load({ 'noise.csv': bytes, 'ok.csv': 'x\n1\n' });
    assert.deepEqual(env.profile.tables.map((t) => t.name), ['ok']);
    const diagnostic = env.profile.diagnostics.find((d) => d.file === 'noise.csv');
    assert.equal(diagnostic?.severity, 'error');
    assert.match(diagnostic!.message, /binary/);
  });

  it('de-duplicates and names blank headers', async () => {
    const env = await load({ 'h.csv': 'Name,name,,Order ID\na,b,c,d\n' });
    const table = tableOf(env, 'h');
    assert.deepEqual(
      table.columns.map((c) => [c.name, c.originalName]),
      [
        ['name', 'Name'],
        ['name_2', 'name'],
        ['column_3', ''],
        ['order_id', 'Order ID'],
      ],
    );
  });
});

describe('env: type inference edge cases', () => {
  async function typesOf(csv: string): Promise<Record<string, string>> {
    return columnTypes(tableOf(await load({ 't.csv': csv }), 't'));
  }

  it('applies one type per column, or text when any value disagrees', async () => {
    const types = await typesOf(
      [
        'ints_reals,int_text,zip,dates_times,bad_date,bools,neg,sci,big,blank,spaces',
        '1,1,02134,2024-01-01,2024-13-01,TRUE,-5,1e3,123456789012345678, , 42 ',
        '2.5,abc,12345,2024-01-02T03:04:05,2024-01-02,no,-0.5,2.5E-2,1, ,7',
      ].join('\n'),
    );
    assert.deepEqual(types, {
      ints_reals: 'real',
      int_text: 'text',
      zip: 'text',
      dates_times: 'datetime',
      bad_date: 'text',
      bools: 'text',
      neg: 'real',
      sci: 'real',
      big: 'integer',
      blank: 'text',
      spaces: 'integer',
    });
  });

  it('rebuilds the table when a value past the first 64 KiB changes a column type', async () => {
    const rows = ['id,code,score'];
    for (let i = 1; i <= 20000; i++) rows.push(`${i},${i},${i}`);
    rows.push('20001,X07,2.5');
    const env = await load({ 'late.csv': rows.join('\n') + '\n' });
    const late = tableOf(env, 'late');
    assert.deepEqual(columnTypes(late), { id: 'integer', code: 'text', score: 'real' });
    assert.equal(late.rowCount, 20001);
    assert.deepEqual(await queryImage(env.image, 'SELECT code, typeof(code), score FROM late WHERE id IN (1, 20001) ORDER BY id'), [
      ['1', 'text', 1],
      ['X07', 'text', 2.5],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT typeof(score), count(*) FROM late GROUP BY 1'), [['real', 20001]]);
  });

  it('reads slashed YYYY/MM/DD dates and datetimes (CSV and JSON) as dates, stored in ISO form for SQLite date functions', async () => {
    const env = await load({
      'slashed.csv': 'day,at,mixed,bad\n2001/01/31,2001/01/01 06:55,2001/01-02,2001/13/01\n2001/02/01,2001/02/28 23:05:09,2001-01-03,2001/02/01\n',
      'flights.json': JSON.stringify([{ at: '2001/01/01 01:10', delay: -19 }, { at: '2001/03/31 23:59', delay: 4 }]),
    });
    assert.deepEqual(columnTypes(tableOf(env, 'slashed')), { day: 'date', at: 'datetime', mixed: 'text', bad: 'text' });
    assert.deepEqual(columnTypes(tableOf(env, 'flights')), { at: 'datetime', delay: 'integer' });
    assert.deepEqual(await queryImage(env.image, "SELECT day, at, strftime('%Y-%m', at), julianday(at) - julianday(day) > 0, mixed, bad FROM slashed ORDER BY day"), [
      ['2001-01-31', '2001-01-01 06:55', '2001-01', 0, '2001/01-02', '2001/13/01'],
      ['2001-02-01', '2001-02-28 23:05:09', '2001-02', 1, '2001-01-03', '2001/02/01'],
    ]);
    assert.deepEqual(await queryImage(env.image, "SELECT at, strftime('%H', at) FROM flights ORDER BY at"), [
      ['2001-01-01 01:10', '01'],
      ['2001-03-31 23:59', '23'],
    ]);
  });

  it('stores 18-digit integers exactly', async () => {
    const env = await load({ 'big.csv': 'n\n123456789012345678\n-987654321098765432\n' });
    assert.deepEqual(await queryImage(env.image, "SELECT CAST(n AS TEXT), typeof(n) FROM big ORDER BY n"), [
      ['-987654321098765432', 'integer'],
      ['123456789012345678', 'integer'],
    ]);
  });
});

describe('env: JSON and JSONL', () => {
  it('flattens nested objects into dotted columns and arrays of objects into linked child tables', async () => {
    const stores = {
      stores: [
        { id: 1, address: { city: 'Oslo', geo: { lat: 59.9 } }, tags: ['a', 'b'], staff: [{ name: 'Kari' }, { name: 'Ola' }] },
        { id: 2, address: { city: 'Bergen', geo: { lat: 60.4 } }, tags: [], staff: [{ name: 'Per', since: '2020-01-01' }] },
      ],
    };
    const env = await load({ 'stores.json': JSON.stringify(stores) });
    const parent = tableOf(env, 'stores');
    assert.equal(parent.originalName, 'stores.json#stores');
    assert.deepEqual(
      parent.columns.map((c) => [c.name, c.type]),
      [
        ['_row_id', 'integer'],
        ['id', 'integer'],
        ['address.city', 'text'],
        ['address.geo.lat', 'real'],
        ['tags', 'text'],
      ],
    );
    const child = tableOf(env, 'stores_staff');
    assert.deepEqual(child.parent, { table: 'stores', column: '_parent_row_id' });
    assert.equal(child.rowCount, 3);
    assert.equal(child.columns.find((c) => c.name === 'since')?.type, 'date');
    const joined = await queryImage(
      env.image,
      'SELECT s."address.city", c.name FROM stores s JOIN stores_staff c ON c._parent_row_id = s._row_id ORDER BY c.name',
    );
    assert.deepEqual(joined, [
      ['Oslo', 'Kari'],
      ['Oslo', 'Ola'],
      ['Bergen', 'Per'],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT tags FROM stores ORDER BY id'), [['["a","b"]'], ['[]']]);
  });

  it('loads a top-level array of records and a single top-level record', async () => {
    const env = await load({
      'list.json': JSON.stringify([{ a: 1, ok: true }, { a: 2, ok: false, extra: 'x' }]),
      'one.json': JSON.stringify({ name: 'cfg', version: 3 }),
    });
    assert.deepEqual(await queryImage(env.image, 'SELECT a, ok, extra FROM list ORDER BY a'), [
      [1, 1, null],
      [2, 0, 'x'],
    ]);
    assert.equal(columnTypes(tableOf(env, 'list')).ok, 'boolean');
    assert.deepEqual(await queryImage(env.image, 'SELECT name, version FROM one'), [['cfg', 3]]);
  });

  it('reports truncated JSON with a line number', async () => {
    const env = await load({ 't.json': '[\n  {"a": 1},\n  {"a": 2},\n  {"a": ' });
    assert.equal(env.profile.tables.length, 0);
    const [diagnostic] = env.profile.diagnostics;
    assert.equal(diagnostic.severity, 'error');
    assert.match(diagnostic.message, /Truncated JSON at line 4/);
    assert.equal(diagnostic.line, 4);
  });

  it('survives 10,000-deep nesting without a stack overflow', async () => {
    const depth = 10000;
    const deep = '{"id": 1, "tree": ' + '{"child": '.repeat(depth) + '1' + '}'.repeat(depth) + '}';
    const env = await load({ 'deep.json': deep, 'deep_arrays.json': '['.repeat(depth) + ']'.repeat(depth) });
    const table = tableOf(env, 'deep');
    assert.equal(table.rowCount, 1);
    assert.ok(env.profile.diagnostics.some((d) => d.file === 'deep.json' && /nested/.test(d.message)), JSON.stringify(env.profile.diagnostics));
    assert.ok(table.columns.length < 40);
  });

  it('loads JSONL and reports bad lines once with their numbers', async () => {
    const jsonl = ['{"id": 1, "v": "a"}', 'not json', '', '{"id": 2, "v": "b"}', '[1,2]', '{"id": 3, "v": "c"', '{"id": 4, "v": "d"}'].join('\n');
    const env = await load({ 'events.jsonl': jsonl });
    assert.equal(tableOf(env, 'events').rowCount, 3);
    assert.equal(env.profile.diagnostics.length, 1);
    const [diagnostic] = env.profile.diagnostics;
    assert.equal(diagnostic.line, 2);
    assert.match(diagnostic.message, /3 line\(s\).*lines 2, 5, 6\./);
  });
});

describe('env: SQLite files', () => {
  function sqlite3(database: string, sql: string): string {
    return execFileSync('sqlite3', [database, sql], { encoding: 'utf8' });
  }

  it('copies every table and view with the same row counts as the sqlite3 CLI reports', async () => {
    const folder = makeFolder({ 'orders.csv': 'id,total\n1,5\n' });
    try {
      const database = path.join(folder.root, 'shop.sqlite');
      sqlite3(
        database,
        `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, joined DATE, score REAL);
         CREATE TABLE "order items" (order_id INTEGER, sku TEXT, qty INTEGER, photo BLOB);
         CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total REAL);
         CREATE TABLE audit (note TEXT);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
           INSERT INTO customers SELECT i, 'c' || i, CASE WHEN i % 7 = 0 THEN NULL ELSE date('2024-01-01', '+' || i || ' days') END, i * 0.5 FROM n;
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1234)
           INSERT INTO "order items" SELECT i % 300, 'S' || (i % 17), i % 5, CASE WHEN i % 3 = 0 THEN randomblob(16) END FROM n;
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
           INSERT INTO orders SELECT i, i % 500 + 1, NULL FROM n;
         CREATE VIEW big_customers AS SELECT * FROM customers WHERE score > 100;
         CREATE VIEW "item counts" AS SELECT sku, count(*) AS n FROM "order items" GROUP BY sku;
         CREATE VIEW customer_orders AS SELECT c.name, o.id FROM customers c JOIN orders o ON o.customer_id = c.id;`,
      );
      const expected = new Map<string, number>();
      const names = sqlite3(database, "SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name").trim().split('\n');
      for (const name of names) expected.set(name, Number(sqlite3(database, `SELECT count(*) FROM "${name}"`).trim()));
      assert.equal(expected.size, 7);

      const env = await loadEnvironment(folder.root);
      const fromShop = env.profile.tables.filter((t) => t.sourceFile === 'shop.sqlite');
      assert.deepEqual(fromShop.map((t) => t.originalName).sort(), [...expected.keys()].sort());
      for (const table of fromShop) assert.equal(table.rowCount, expected.get(table.originalName), table.originalName);
      // Counted again in the image itself, not only in the profile.
      for (const table of fromShop) {
        const [[count]] = await queryImage(env.image, `SELECT count(*) FROM "${table.name}"`);
        assert.equal(count, expected.get(table.originalName));
      }

      const byOriginal = new Map(fromShop.map((t) => [t.originalName, t]));
      assert.equal(byOriginal.get('order items')!.name, 'order_items');
      assert.equal(byOriginal.get('orders')!.name, 'orders_2', 'orders.csv sorts first and keeps "orders"');
      assert.equal(byOriginal.get('big_customers')!.kind, 'view');
      // Profiled from a copy read once (env/index.ts, shadowViews): the image keeps the view itself, and the profile its declared types.
      assert.deepEqual(await queryImage(env.image, "SELECT type FROM sqlite_master WHERE name = 'big_customers'"), [['view']]);
      assert.deepEqual(await queryImage(env.image, "SELECT count(*) FROM sqlite_temp_master"), [[0]]);
      assert.equal(byOriginal.get('big_customers')!.columns.find((c) => c.name === 'id')!.declaredType, 'INTEGER');
      assert.equal(byOriginal.get('item counts')!.kind, 'table', 'reads a renamed table: materialized');
      assert.equal(byOriginal.get('customer_orders')!.kind, 'table', 'reads renamed "orders": materialized');
      const infos = env.profile.diagnostics.filter((d) => d.severity === 'info' && /materialized/.test(d.message));
      assert.equal(infos.length, 2);
      assert.deepEqual(columnTypes(byOriginal.get('customers')!), { id: 'integer', name: 'text', joined: 'date', score: 'real' });
      assert.equal(byOriginal.get('customers')!.columns.find((c) => c.name === 'joined')!.nullFraction, 71 / 500);
      const blobs = await queryImage(env.image, 'SELECT count(*), sum(length(photo)) FROM order_items WHERE typeof(photo) = \'blob\'');
      assert.deepEqual(blobs, [[411, 411 * 16]]);
      assert.deepEqual(await queryImage(env.image, "SELECT sql LIKE '%PRIMARY KEY%' FROM sqlite_master WHERE name = 'customers'"), [[1]]);
    } finally {
      folder.cleanup();
    }
  });

  it('loads a full-text index as the text it holds, leaves out one over another table, and never loads shadow tables', async () => {
    const folder = makeFolder({});
    try {
      const database = path.join(folder.root, 'notes.sqlite');
      sqlite3(
        database,
        `CREATE TABLE trips (id INTEGER PRIMARY KEY, route TEXT, passengers TEXT);
         INSERT INTO trips VALUES (1, 'CRW-MGW', 'Ann, Bob'), (2, 'CRW-HTS-CRW', 'Cy');
         CREATE VIRTUAL TABLE trips_fts USING fts5(route, passengers, content='trips', content_rowid='id');
         INSERT INTO trips_fts(trips_fts) VALUES ('rebuild');
         CREATE VIRTUAL TABLE "memo index" USING fts5(title, "body text" UNINDEXED, tokenize = 'porter');
         INSERT INTO "memo index" VALUES ('Fuel', 'Prices rose'), ('Crew', 'Two pilots'), ('Fleet', NULL);
         CREATE VIRTUAL TABLE legacy USING fts4(heading, summary);
         INSERT INTO legacy VALUES ('a', 'first'), ('b', 'second');`,
      );
      const env = await loadEnvironment(folder.root);
      assert.deepEqual(env.profile.diagnostics.filter((d) => d.severity !== 'info'), [], 'no error for a module this SQLite lacks');
      const names = env.profile.tables.map((t) => t.originalName).sort();
      assert.deepEqual(names, ['legacy', 'memo index', 'trips']);
      const memo = tableOf(env, 'memo_index');
      assert.deepEqual(memo.columns.map((c) => c.originalName), ['title', 'body text']);
      assert.deepEqual(await queryImage(env.image, 'SELECT title, "body text" FROM memo_index'), [['Fuel', 'Prices rose'], ['Crew', 'Two pilots'], ['Fleet', null]]);
      assert.deepEqual(await queryImage(env.image, 'SELECT heading, summary FROM legacy'), [['a', 'first'], ['b', 'second']]);
      const record = env.profile.files.find((f) => f.file === 'notes.sqlite')!;
      const leftOut = new Map((record.leftOut ?? []).map((l) => [l.table, l.why]));
      assert.match(leftOut.get('trips_fts') ?? '', /text that table 'trips' holds/);
      for (const shadow of ['trips_fts_data', 'trips_fts_idx', 'trips_fts_config', 'trips_fts_docsize', 'memo index_content', 'legacy_segdir', 'legacy_stat']) {
        assert.match(leftOut.get(shadow) ?? '', /internal table of the fts[45] virtual table/, shadow);
      }
      assert.ok(env.profile.diagnostics.some((d) => d.severity === 'info' && /'trips_fts' \(fts5\) left out/.test(d.message)));
    } finally {
      folder.cleanup();
    }
  });

  it('reports a corrupt database and a .db file that is not SQLite', async () => {
    const folder = makeFolder({});
    try {
      const good = path.join(folder.root, 'good.sqlite');
      execFileSync('sqlite3', [good, 'CREATE TABLE t (a); INSERT INTO t VALUES (1);']);
      const bytes = fs.readFileSync(good);
      const corrupt = Buffer.concat([bytes.subarray(0, 100), randomBytes(bytes.length - 100)]);
      fs.writeFileSync(path.join(folder.root, 'corrupt.sqlite'), corrupt);
      fs.writeFileSync(path.join(folder.root, 'notes.db'), 'just some text');
      fs.rmSync(good);
      const env = await loadEnvironment(folder.root);
      assert.equal(env.profile.tables.length, 0);
      const errors = env.profile.diagnostics.filter((d) => d.severity === 'error').map((d) => d.file).sort();
      assert.deepEqual(errors, ['corrupt.sqlite', 'notes.db']);
    } finally {
      folder.cleanup();
    }
  });
});

describe('env: documents, naming, skip rules, limits', () => {
  it('makes documents with titles and sections from Markdown and text', async () => {
    const markdown = 'Intro text.\n\n# Business Rules\n\nRevenue is net.\n\n## Returns\n\nWithin 30 days.\n\n```\n# not a heading\n```\n';
    const env = await load({ 'docs/rules.md': markdown, 'readme.txt': 'plain words' });
    const rules = env.documents.find((d) => d.name === 'docs/rules.md')!;
    assert.equal(rules.title, 'Business Rules');
    assert.deepEqual(
      rules.sections.map((s) => [s.heading, s.level]),
      [
        ['', 0],
        ['Business Rules', 1],
        ['Returns', 2],
      ],
    );
    assert.match(rules.sections[2].text, /# not a heading/);
    const profile = env.profile.documents.find((d) => d.name === 'docs/rules.md')!;
    assert.deepEqual(profile.headings, ['Business Rules', 'Returns']);
    assert.equal(profile.sizeBytes, Buffer.byteLength(markdown));
    assert.equal(env.documents.find((d) => d.name === 'readme.txt')!.title, 'readme');
  });

  it('derives stable, safe, unique table names from file names', async () => {
    const env = await load({
      'Sales Q1 (final).csv': 'a\n1\n',
      'b/orders.csv': 'a\n1\n',
      'a/orders.csv': 'a\n2\n',
      'order.csv': 'a\n1\n',
      '2024.csv': 'a\n1\n',
    });
    const names = Object.fromEntries(env.profile.tables.map((t) => [t.sourceFile, t.name]));
    assert.deepEqual(names, {
      '2024.csv': 't_2024',
      'Sales Q1 (final).csv': 'sales_q1_final',
      // The same file name in two folders: each name says which folder.
      'a/orders.csv': 'a_orders',
      'b/orders.csv': 'b_orders',
      'order.csv': 'order_',
    });
    assert.deepEqual(await queryImage(env.image, 'SELECT a FROM a_orders'), [[2]]);
  });

  it('skips .toffee/, node_modules/ and hidden files and folders', async () => {
    const env = await load({
      'keep.csv': 'a\n1\n',
      '.toffee/runs/x.csv': 'a\n1\n',
      'node_modules/p/data.csv': 'a\n1\n',
      '.hidden/data.csv': 'a\n1\n',
      'sub/.secret.csv': 'a\n1\n',
      'sub/deeper/kept.csv': 'a\n1\n',
    });
    assert.deepEqual(env.profile.files.map((f) => f.file), ['keep.csv', 'sub/deeper/kept.csv']);
  });

  it('skips files over the size cap with a diagnostic and records SHA-256 per file', async () => {
    const content = 'a,b\n1,2\n';
    const env = await load({ 'small.csv': content, 'large.csv': 'a\n' + '1\n'.repeat(100) }, { maxFileBytes: 50 });
    assert.deepEqual(env.profile.tables.map((t) => t.name), ['small']);
    const cap = env.profile.diagnostics.find((d) => d.file === 'large.csv')!;
    assert.equal(cap.severity, 'warning');
    assert.match(cap.message, /limit/);
    const small = env.profile.files.find((f) => f.file === 'small.csv')!;
    assert.equal(small.sha256, createHash('sha256').update(content).digest('hex'));
    assert.deepEqual(small.produced, ['small']);
    assert.equal(small.kind, 'csv');
  });

  it('stops with an AbortError when aborted, and reports progress', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`f${i}.csv`] = 'a\n1\n';
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      load(files, {
        signal: controller.signal,
        onProgress: (event: { file: string }) => {
          seen.push(event.file);
          if (seen.length === 2) controller.abort();
        },
      }),
      (error: Error) => error.name === 'AbortError',
    );
    assert.deepEqual(seen, ['f0.csv', 'f1.csv']);
  });

  it('stops streaming a large CSV soon after an abort', async function () {
    this.timeout(120000);
    const lines = ['a,b,c'];
    for (let i = 0; i < 600000; i++) lines.push(`${i},x${i % 97},${i * 0.5}`);
    const folder = makeFolder({ 'big.csv': lines.join('\n') });
    try {
      const controller = new AbortController();
      let abortedAt = 0;
      const started = Date.now();
      const loading = loadEnvironment(folder.root, {
        signal: controller.signal,
        onProgress: (event) => {
          if (event.done === 0)
            setTimeout(() => {
              abortedAt = Date.now();
              controller.abort();
            }, 150);
        },
      });
      await assert.rejects(loading, (error: Error) => error.name === 'AbortError');
      assert.ok(abortedAt > started, 'the abort fired during the load');
      assert.ok(Date.now() - abortedAt < 5000, `stopped ${Date.now() - abortedAt} ms after the abort`);
    } finally {
      folder.cleanup();
    }
  });

  it('loads a 50 MB CSV fully with the right row count', async function () {
    this.timeout(240000);
    const folder = makeFolder({});
    try {
      const random = mulberry32(42);
      const file = path.join(folder.root, 'large.csv');
      const out = fs.openSync(file, 'w');
      fs.writeSync(out, 'id,city,amount,day,flag,comment\n');
      const cities = ['Oslo', 'Lyon', 'São Paulo', 'Kyoto', '"Quoted, city"'];
      let rows = 0;
      let bytes = 0;
      while (bytes < 50 * 1024 * 1024) {
        const lines: string[] = [];
        for (let i = 0; i < 10000; i++) {
          rows++;
          const comment = random() < 0.01 ? '"multi\nline"' : `c${Math.floor(random() * 1e6)}`;
          lines.push(`${rows},${cities[rows % 5]},${(random() * 1000).toFixed(2)},2024-0${1 + (rows % 9)}-1${rows % 10},${rows % 2 === 0},${comment}`);
        }
        const chunk = lines.join('\n') + '\n';
        bytes += Buffer.byteLength(chunk);
        fs.writeSync(out, chunk);
      }
      fs.closeSync(out);
      const env = await loadEnvironment(folder.root);
      const table = tableOf(env, 'large');
      assert.equal(table.rowCount, rows);
      assert.deepEqual(columnTypes(table), { id: 'integer', city: 'text', amount: 'real', day: 'date', flag: 'boolean', comment: 'text' });
      assert.deepEqual(env.profile.diagnostics, []);
      assert.deepEqual(await queryImage(env.image, 'SELECT max(id), count(DISTINCT city) FROM large'), [[rows, 5]]);
    } finally {
      folder.cleanup();
    }
  });
});
