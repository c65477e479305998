import * as assert from 'node:assert/strict';
import { checkReadOnly } from '../../src/core/sandbox/sqlGuard';

function refusedReason(sql: string): string {
  const verdict = checkReadOnly(sql);
  assert.equal(verdict.ok, false, `expected refusal: ${sql}`);
  return verdict.ok ? '' : verdict.reason;
}

describe('sandbox SQL guard (read-only statement check)', () => {
  it('lets reads through', () => {
    for (const sql of [
      'SELECT 1',
      'select * from "orders" where note = \'x\'',
      'WITH t AS (SELECT 1 AS a) SELECT a FROM t',
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT * FROM c',
      'WITH a AS MATERIALIZED (SELECT 1), b(x) AS (SELECT 2) SELECT * FROM a, b',
      'VALUES (1, 2), (3, 4)',
      'EXPLAIN QUERY PLAN SELECT * FROM t',
      'PRAGMA table_info(orders)',
      'PRAGMA main.table_xinfo("order items")',
      'PRAGMA index_list(orders)',
      'PRAGMA foreign_key_list(orders)',
      'PRAGMA user_version',
      'SELECT replace(name, \'a\', \'b\') FROM t',
      '  -- leading comment\n SELECT 1',
    ]) {
      assert.deepEqual(checkReadOnly(sql).ok, true, sql);
    }
  });

  it('refuses writes and schema changes, naming the statement', () => {
    assert.equal(refusedReason('DROP TABLE orders'), 'refused: the SQL sandbox is read-only (DROP is not allowed)');
    for (const [sql, word] of [
      ['INSERT INTO t VALUES (1)', 'INSERT'],
      ['update t set a = 1', 'UPDATE'],
      ['DELETE FROM t', 'DELETE'],
      ['REPLACE INTO t VALUES (1)', 'REPLACE'],
      ['CREATE TABLE x(a)', 'CREATE'],
      ['CREATE TEMP TABLE x AS SELECT 1', 'CREATE'],
      ['ALTER TABLE t ADD COLUMN b', 'ALTER'],
      ["ATTACH DATABASE '/etc/passwd' AS p", 'ATTACH'],
      ['DETACH p', 'DETACH'],
      ['VACUUM INTO \'/tmp/copy.db\'', 'VACUUM'],
      ['BEGIN', 'BEGIN'],
      ['ANALYZE', 'ANALYZE'],
      ['REINDEX', 'REINDEX'],
    ]) {
      assert.match(refusedReason(sql), new RegExp(`\\(${word} is not allowed\\)`), sql);
    }
  });

  it('refuses PRAGMA writes and unknown PRAGMAs', () => {
    assert.match(refusedReason('PRAGMA query_only = OFF'), /PRAGMA query_only = … is not allowed/);
    assert.match(refusedReason('PRAGMA user_version = 7'), /not allowed/);
    assert.match(refusedReason('PRAGMA user_version(7)'), /PRAGMA user_version\(…\) is not allowed/);
    assert.match(refusedReason('PRAGMA main.journal_mode = WAL'), /not allowed/);
    assert.match(refusedReason('PRAGMA writable_schema'), /PRAGMA writable_schema is not allowed/);
  });

  it('refuses a write behind WITH or EXPLAIN', () => {
    assert.match(refusedReason('WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x'), /WITH … INSERT is not allowed/);
    assert.match(refusedReason('WITH x(a) AS (SELECT 1), y AS (SELECT 2) DELETE FROM t'), /WITH … DELETE/);
    assert.match(refusedReason('EXPLAIN DROP TABLE t'), /DROP is not allowed/);
  });

  it('is not fooled by comments, literals or statement splitting', () => {
    assert.equal(checkReadOnly('SELECT 1; -- DROP TABLE x').ok, true);
    assert.equal(checkReadOnly("SELECT 'DROP TABLE x'").ok, true);
    assert.equal(checkReadOnly("SELECT 'it''s; DROP TABLE x'").ok, true);
    assert.equal(checkReadOnly('SELECT "a;DROP" FROM [x;DELETE] /* ; DROP */').ok, true);
    assert.match(refusedReason('/* */ DROP TABLE x'), /DROP/);
    assert.match(refusedReason('-- just a comment\nDROP TABLE x'), /DROP/);
    assert.match(refusedReason('SELECT 1; DROP TABLE x'), /DROP/);
    assert.match(refusedReason('SELECT 1;DELETE FROM t;'), /DELETE/);
    assert.match(refusedReason("SELECT x'00';INSERT INTO t VALUES (1)"), /INSERT/);
  });

  it('reports an empty query as empty, not as a refusal', () => {
    for (const sql of ['', '   ', '-- nothing', '/* nothing */ ;']) {
      const verdict = checkReadOnly(sql);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.equal(verdict.kind, 'empty', sql);
    }
  });

  it('refuses statements that do not start with a keyword', () => {
    assert.match(refusedReason('(SELECT 1)'), /only runs SELECT/);
  });
});
