import * as assert from 'node:assert/strict';
import { BulkStatement, ImageDatabase, loadSqlJs } from '../../src/core/env/sqlJs';
import { createTable } from '../../src/core/env/tableWriter';

type Value = string | number | null;

/** Every row of `table` in an image, read back through a fresh sql.js database. */
async function rowsOf(image: Uint8Array, sql: string): Promise<Value[][]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(image);
  try {
    return (db.exec(sql)[0]?.values ?? []) as Value[][];
  } finally {
    db.close();
  }
}

describe('env: the image database and bulk inserts', () => {
  it('binds text (non-ASCII, empty, embedded NUL), NULL, int32, larger integers and reals exactly', async () => {
    const image = await ImageDatabase.create(1 << 20);
    const rows: Value[][] = [
      ['plain', 1, 2.5],
      ['naïve café', -2147483648, 1e-7],
      ['東京 😀 mixed', 2147483647, -0.0001],
      ['', 2 ** 40, 123456789.125],
      [null, null, null],
      ['a\u0000b', -(2 ** 40), 3],
      ['x'.repeat(5000) + 'é', 0, Number.MAX_VALUE],
    ];
    try {
      image.db.run('CREATE TABLE t (s TEXT, i INTEGER, r REAL)');
      const statement = new BulkStatement(image.db, 'INSERT INTO t VALUES ' + rows.map(() => '(?, ?, ?)').join(', '), rows.length * 3);
      try {
        statement.run(rows.flat());
        statement.run(rows.flat()); // a second execution reuses the buffer and the statement
      } finally {
        statement.free();
      }
      const bytes = image.takeImage();
      const back = await rowsOf(bytes, 'SELECT s, i, r, typeof(i), length(CAST(s AS BLOB)) FROM t ORDER BY rowid');
      assert.equal(back.length, rows.length * 2);
      for (let r = 0; r < back.length; r++) {
        const [s, i, real, iType, byteLength] = back[r];
        const expected = rows[r % rows.length];
        assert.equal(s, expected[0]);
        assert.equal(i, expected[1]);
        assert.equal(real, expected[2]);
        if (expected[1] !== null) assert.equal(iType, 'integer');
        if (typeof expected[0] === 'string') assert.equal(byteLength, Buffer.byteLength(expected[0]));
      }
    } finally {
      image.close();
    }
  });

  it('reports SQLite’s own error for a failed insert and stays usable', async () => {
    const image = await ImageDatabase.create(1 << 20);
    try {
      image.db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
      const statement = new BulkStatement(image.db, 'INSERT INTO t VALUES (?, ?)', 2);
      try {
        statement.run([1, 'one']);
        assert.throws(() => statement.run([2, null]), /NOT NULL constraint failed: t\.v/);
        assert.throws(() => statement.run([1, 'again']), /UNIQUE constraint failed: t\.id/);
        statement.run([2, 'two']);
      } finally {
        statement.free();
      }
      assert.deepEqual(await rowsOf(image.takeImage(), 'SELECT id, v FROM t ORDER BY id'), [
        [1, 'one'],
        [2, 'two'],
      ]);
    } finally {
      image.close();
    }
  });

  for (const [label, reserve, inPlace] of [
    ['the reserved buffer', 32 << 20, true],
    ['an estimate far too small (MEMFS outgrows the buffer; export() takes over)', 8192, false],
  ] as const) {
    it(`gives a complete image of exactly its pages, built in ${label}`, async () => {
      const image = await ImageDatabase.create(reserve);
      try {
        const columns = [
          { name: 'id', originalName: 'id', type: 'integer' as const },
          { name: 'label', originalName: 'label', type: 'text' as const },
        ];
        image.db.run('SAVEPOINT build');
        const inserter = createTable(image.db, 'items', columns);
        for (let id = 1; id <= 50_000; id++) inserter.insert([id, id % 7 === 0 ? null : `item ${id} · ${'ü'.repeat(id % 5)}`]);
        inserter.finish();
        image.db.run('RELEASE build');
        const pages = Number(image.db.exec('PRAGMA page_count')[0].values[0][0]) * Number(image.db.exec('PRAGMA page_size')[0].values[0][0]);
        const bytes = image.takeImage();
        assert.equal(bytes.length, pages);
        assert.equal(bytes.buffer.byteLength, pages, 'the image owns exactly its pages (workers get a copy of the whole buffer)');
        // The reserved buffer, shrunk, is the image (no copy); export()'s copy is a plain ArrayBuffer.
        assert.equal((bytes.buffer as ArrayBuffer & { resizable?: boolean }).resizable === true, inPlace);
        const [[count, nulls, checksum]] = await rowsOf(bytes, 'SELECT count(*), count(*) - count(label), sum(length(label)) FROM items');
        assert.equal(count, 50_000);
        assert.equal(nulls, Math.floor(50_000 / 7));
        let expected = 0;
        for (let id = 1; id <= 50_000; id++) if (id % 7 !== 0) expected += `item ${id} · ${'ü'.repeat(id % 5)}`.length;
        assert.equal(checksum, expected);
        assert.deepEqual(await rowsOf(bytes, 'PRAGMA integrity_check'), [['ok']]);
      } finally {
        image.close();
      }
    });
  }
});
