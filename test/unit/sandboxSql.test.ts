import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import initSqlJs from 'sql.js';
import { SqlSandbox } from '../../src/core/sandbox';
import { unlinkedCrossJoin } from '../../src/core/sandbox/crossJoinGuard';

const INFINITE_QUERY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/** A small environment image made with sql.js directly: orders (2500 rows), a blob table, a big integer. */
async function buildImage(): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount REAL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
      INSERT INTO orders SELECT i, 'c' || (i % 7), i * 1.5 FROM n;
    CREATE TABLE files (name TEXT, content BLOB, size INTEGER);
    INSERT INTO files VALUES ('small', x'00ff10', 3), ('big', zeroblob(40), 40), ('empty', x'', 0);
    CREATE TABLE numbers (n INTEGER);
    INSERT INTO numbers VALUES (9007199254740993), (42), (-9007199254740993);
    CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 3000;
  `);
  const image = db.export();
  db.close();
  return image;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('SqlSandbox', function () {
  this.timeout(60_000);
  let image: Uint8Array;
  let sandbox: SqlSandbox;

  before(async () => {
    image = await buildImage();
    sandbox = new SqlSandbox(image, { timeoutMs: 1000 });
  });
  after(async () => {
    await sandbox.dispose();
  });

  it('returns columns and rows of a read', async () => {
    const result = await sandbox.run('SELECT customer, count(*) AS n FROM orders GROUP BY customer ORDER BY customer LIMIT 2');
    assert.equal(result.ok, true, result.error);
    assert.deepEqual(result.columns, ['customer', 'n']);
    assert.deepEqual(result.rows, [['c0', 357], ['c1', 358]]);
    assert.equal(result.truncated, false);
  });

  it('reads views and returns the last statement\'s result when several', async () => {
    const result = await sandbox.run('SELECT 1 AS a; SELECT count(*) AS n FROM big_orders');
    assert.deepEqual(result.columns, ['n']);
    assert.deepEqual(result.rows, [[500]]);
  });

  it('caps rows at 1000 by default and flags the cut', async () => {
    const all = await sandbox.run('SELECT id FROM orders ORDER BY id');
    assert.equal(all.rows?.length, 1000);
    assert.equal(all.truncated, true);
    assert.deepEqual(all.rows?.[999], [1000]);
    const exact = await sandbox.run('SELECT id FROM orders LIMIT 1000');
    assert.equal(exact.rows?.length, 1000);
    assert.equal(exact.truncated, false);
    const small = new SqlSandbox(image, { maxRows: 10 });
    try {
      const capped = await small.run('SELECT * FROM orders');
      assert.equal(capped.rows?.length, 10);
      assert.equal(capped.truncated, true);
    } finally {
      await small.dispose();
    }
  });

  it('gives SQLite\'s own error text', async () => {
    const noColumn = await sandbox.run('SELECT nope FROM orders');
    assert.deepEqual([noColumn.ok, noColumn.errorKind, noColumn.error], [false, 'sql', 'no such column: nope']);
    const noTable = await sandbox.run('SELECT * FROM missing');
    assert.equal(noTable.error, 'no such table: missing');
    const syntax = await sandbox.run('SELECT FROM WHERE');
    assert.equal(syntax.errorKind, 'sql');
    assert.match(syntax.error ?? '', /syntax error/);
  });

  it('renders blobs and 64-bit integers safely', async () => {
    const blobs = await sandbox.run('SELECT name, content FROM files ORDER BY size');
    assert.deepEqual(blobs.rows, [
      ['empty', '<blob 0 bytes>'],
      ['small', '<blob 3 bytes: 00ff10>'],
      ['big', `<blob 40 bytes: ${'00'.repeat(16)}…>`],
    ]);
    const numbers = await sandbox.run('SELECT n FROM numbers');
    assert.deepEqual(numbers.rows, [['9007199254740993'], [42], ['-9007199254740993']]);
    // Everything in a result survives JSON (results are stored in events.jsonl).
    assert.deepEqual(JSON.parse(JSON.stringify(numbers.rows)), numbers.rows);
  });

  it('refuses every write with a clear error and leaves the data as it was', async () => {
    for (const sql of [
      'DROP TABLE orders',
      'INSERT INTO orders VALUES (9999, \'x\', 1)',
      'UPDATE orders SET amount = 0',
      'DELETE FROM orders',
      'CREATE TABLE x (a)',
      "ATTACH DATABASE ':memory:' AS other",
      'PRAGMA query_only = OFF',
      'PRAGMA user_version = 3',
      'WITH x AS (SELECT 1) INSERT INTO orders (id) SELECT 10000 FROM x',
      '/* */ DROP TABLE orders',
      'SELECT 1; DROP TABLE orders',
    ]) {
      const result = await sandbox.run(sql);
      assert.equal(result.ok, false, sql);
      assert.equal(result.errorKind, 'refused', sql);
      assert.match(result.error ?? '', /^refused: the SQL sandbox is read-only \(.+ is not allowed\)$/, sql);
    }
    const count = await sandbox.run('SELECT count(*) FROM orders');
    assert.deepEqual(count.rows, [[2500]]);
  });

  it('lets comment and string tricks that only read through', async () => {
    assert.deepEqual((await sandbox.run('SELECT 1; -- DROP')).rows, [[1]]);
    assert.deepEqual((await sandbox.run("SELECT 'DROP TABLE x'")).rows, [['DROP TABLE x']]);
  });

  it('has query_only switched on inside the worker, the second wall behind the guard', async () => {
    const pragma = await sandbox.run('PRAGMA query_only');
    assert.deepEqual(pragma.rows, [[1]]);
  });

  it('answers an unlinked cross join of large tables with an error naming them, without running it', async () => {
    const spawned = sandbox.spawnCount;
    const refused = await sandbox.run('SELECT a.customer, COUNT(*) FROM orders AS a JOIN orders b GROUP BY 1');
    assert.equal(refused.ok, false);
    assert.equal(refused.errorKind, 'sql', 'a mistake the agent can repair, not a refusal');
    assert.match(refused.error!, /pairs every row of orders \(2,500 rows\) with every row of orders \(2,500 rows\): 6,250,000 combinations/);
    assert.equal(sandbox.spawnCount, spawned, 'no timeout, no new worker');
    const linked = await sandbox.run('SELECT COUNT(*) AS n FROM orders AS a JOIN orders b ON b.id = a.id');
    assert.deepEqual(linked.rows, [[2500]]);
    const small = await sandbox.run('SELECT COUNT(*) AS n FROM files, numbers');
    assert.deepEqual(small.rows, [[9]], 'a small product runs as written');
    const quoted = await sandbox.run(`SELECT COUNT(*) FROM "orders" "a" CROSS JOIN "orders" AS "b" WHERE a.customer = 'c1'`);
    assert.match(quoted.error ?? '', /6,250,000 combinations/, 'a literal comparison does not link two tables');
  });

  it('lets a linked or range join through, whatever its size (the guard reads the query as well as the plan)', () => {
    const plan = [
      { id: 2, parent: 0, detail: 'SCAN a' },
      { id: 4, parent: 0, detail: 'SCAN b' },
    ];
    const rows = (table: string) => (table === 'orders' ? 2500 : undefined);
    assert.ok(unlinkedCrossJoin('SELECT * FROM orders a JOIN orders b', plan, rows));
    assert.equal(unlinkedCrossJoin('SELECT * FROM orders a JOIN orders b WHERE b.amount BETWEEN a.amount AND a.amount + 1', plan, rows), undefined);
    assert.equal(unlinkedCrossJoin('SELECT * FROM orders a, orders b WHERE a.amount < b.amount', plan, rows), undefined);
    assert.equal(unlinkedCrossJoin('SELECT * FROM orders a JOIN orders b USING (customer)', plan, rows), undefined);
    assert.equal(unlinkedCrossJoin('SELECT * FROM orders a JOIN t b', plan, rows), undefined, 'a name that is no table (a CTE) has no known size');
    assert.equal(unlinkedCrossJoin("SELECT * FROM orders a JOIN orders b WHERE a.customer = 'x = y'", plan, rows)?.combinations, 6_250_000);
    // One alias in two subqueries: the k-th scan of t0 is its k-th appearance (here the large table, then the small).
    const union = 'SELECT t1.customer, t0.amount FROM orders AS t0 JOIN orders AS t1 UNION ALL SELECT t0.n, 1 FROM numbers AS t0';
    const unionPlan = [
      { id: 6, parent: 5, detail: 'SCAN t1' },
      { id: 8, parent: 5, detail: 'SCAN t0' },
      { id: 20, parent: 19, detail: 'SCAN t0' },
    ];
    const sizes = (table: string) => ({ orders: 2500, numbers: 3 })[table];
    assert.equal(unlinkedCrossJoin(union, unionPlan, sizes)?.combinations, 6_250_000);
  });

  it('stops an infinite WITH RECURSIVE at its timeout, and the next query works in a fresh worker', async () => {
    const spawnsBefore = sandbox.spawnCount;
    const result = await sandbox.run(INFINITE_QUERY);
    assert.equal(result.errorKind, 'timeout');
    assert.match(result.error ?? '', /timeout: the query ran longer than 1000 ms/);
    assert.ok(result.elapsedMs >= 1000, `the query was stopped before its timeout, after ${result.elapsedMs} ms`);
    const next = await sandbox.run('SELECT count(*) FROM orders');
    assert.deepEqual(next.rows, [[2500]]);
    assert.equal(sandbox.spawnCount, spawnsBefore + 1);
  });

  it('uses a 5 s timeout by default', async () => {
    const defaults = new SqlSandbox(image);
    try {
      assert.equal((await defaults.run('SELECT 1')).ok, true);
      const result = await defaults.run(INFINITE_QUERY);
      assert.equal(result.errorKind, 'timeout');
      assert.match(result.error ?? '', /longer than 5000 ms/);
      assert.ok(result.elapsedMs >= 5000, `the query was stopped before its timeout, after ${result.elapsedMs} ms`);
      assert.deepEqual((await defaults.run('SELECT 2')).rows, [[2]]);
    } finally {
      await defaults.dispose();
    }
  });

  it('cancels on an AbortSignal like a timeout', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const spawnsBefore = sandbox.spawnCount;
    const result = await sandbox.run(INFINITE_QUERY, { signal: controller.signal });
    // Cancelled, not timed out: the abort, not the 1000 ms timeout, stopped the worker (and a fresh one took over).
    assert.equal(result.errorKind, 'cancelled');
    assert.match(result.error ?? '', /^cancelled: /);
    assert.equal(sandbox.spawnCount, spawnsBefore + 1);
    assert.equal((await sandbox.run('SELECT 3')).ok, true);
    const already = await sandbox.run('SELECT 4', { signal: AbortSignal.abort() });
    assert.equal(already.errorKind, 'cancelled');
  });

  it('runs concurrent calls one at a time, in order', async () => {
    const results = await Promise.all([
      sandbox.run(INFINITE_QUERY),
      sandbox.run('SELECT 5 AS five'),
      sandbox.run('DROP TABLE orders'),
      sandbox.run('SELECT count(*) FROM files'),
    ]);
    assert.deepEqual(results.map((r) => r.errorKind ?? 'ok'), ['timeout', 'ok', 'refused', 'ok']);
    assert.deepEqual(results[1].rows, [[5]]);
    assert.deepEqual(results[3].rows, [[3]]);
  });

  it('never changes the image it was given', async () => {
    const before = sha256(image);
    const own = new SqlSandbox(image);
    await own.run('SELECT * FROM orders');
    await own.run('DROP TABLE orders');
    await own.dispose();
    assert.equal(sha256(image), before);
  });

  it('reports a corrupt image as an error result, not a crash', async () => {
    const corrupt = new SqlSandbox(new Uint8Array(Buffer.from('SQLite format 3\0 this is not really a database'.repeat(50))));
    try {
      const result = await corrupt.run('SELECT 1');
      assert.equal(result.ok, false);
      assert.equal(result.errorKind, 'internal');
      assert.match(result.error ?? '', /cannot open the environment image/);
    } finally {
      await corrupt.dispose();
    }
  });

  it('answers a query sent while the worker starts with an error when disposed before it is ready', async () => {
    const starting = new SqlSandbox(image);
    const pending = starting.run('SELECT 1');
    // The call is waiting for the worker to start (a loaded machine takes longer than the 300 ms below).
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(starting.spawnCount, 1);
    await starting.dispose();
    const result = await pending;
    assert.equal(result.ok, false);
    assert.match(result.error ?? '', /disposed/);
  });

  it('answers after dispose with an error instead of hanging', async () => {
    const short = new SqlSandbox(image);
    const pending = short.run(INFINITE_QUERY);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await short.dispose();
    const result = await pending;
    assert.equal(result.ok, false);
    assert.equal((await short.run('SELECT 1')).error, 'the sandbox was disposed');
  });
});
