import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliError } from '../../src/cli/command';
import { formatResultTable, sqlCommand } from '../../src/cli/commands/sql';

/** Runs the command in-process, collecting what it prints. */
async function runSql(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...args: unknown[]) => out.push(args.join(' '));
  console.error = (...args: unknown[]) => err.push(args.join(' '));
  try {
    const code = await sqlCommand.run(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function expectCliError(argv: string[], pattern: RegExp, exitCode = 1): Promise<void> {
  await assert.rejects(runSql(argv), (e: unknown) => {
    assert.ok(e instanceof CliError, String(e));
    assert.match(e.message, pattern);
    assert.equal(e.exitCode, exitCode);
    return true;
  });
}

describe('toffee sql (CLI)', function () {
  this.timeout(60_000);
  let folder: string;

  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-sql-cli-'));
    fs.writeFileSync(path.join(folder, 'orders.csv'), 'id,customer,amount\n1,Ada,3.5\n2,Bo,\n3,"Cy, Jr",10\n');
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('prints a readable table', async () => {
    const { code, out } = await runSql([folder, 'SELECT id, customer, amount FROM orders ORDER BY id']);
    assert.equal(code, 0);
    assert.equal(out, ['id  customer  amount', '--  --------  ------', ' 1  Ada          3.5', ' 2  Bo          NULL', ' 3  Cy, Jr        10', '(3 rows)'].join('\n'));
  });

  it('prints JSON with columns, rows and truncated, honouring --max-rows', async () => {
    const { code, out } = await runSql([folder, 'SELECT id FROM orders ORDER BY id', '--json', '--max-rows', '2']);
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), { columns: ['id'], rows: [[1], [2]], truncated: true });
  });

  it('fails with a one-line reason on refusal, SQL error and timeout', async () => {
    await expectCliError([folder, 'DROP TABLE orders'], /^refused: the SQL sandbox is read-only \(DROP is not allowed\)$/);
    await expectCliError([folder, 'SELECT nope FROM orders'], /^no such column: nope$/);
    const started = performance.now();
    await expectCliError([folder, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', '--timeout', '300'], /^timeout: the query ran longer than 300 ms/);
    assert.ok(performance.now() - started < 10_000);
  });

  it("queries the views the profile lists: a partition's union of files", async () => {
    const parts = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-sql-cli-parts-'));
    try {
      for (const [year, amount] of [['2021', 4], ['2022', 5], ['2023', 6]]) fs.writeFileSync(path.join(parts, `sales_${year}.csv`), `store,amount\nA,${amount}\nB,1\n`);
      const { code, out } = await runSql([parts, 'SELECT year, SUM(amount) AS total FROM sales_all GROUP BY year ORDER BY year', '--json']);
      assert.equal(code, 0);
      assert.deepEqual(JSON.parse(out).rows, [['2021', 5], ['2022', 6], ['2023', 7]]);
    } finally {
      fs.rmSync(parts, { recursive: true, force: true });
    }
  });

  it('rejects bad arguments with exit code 2', async () => {
    await expectCliError([folder], /expected a folder and one quoted query/, 2);
    await expectCliError([folder, 'SELECT 1', '--timeout', '0'], /--timeout must be a positive integer/, 2);
    await expectCliError([folder, 'SELECT 1', '--max-rows', 'x'], /--max-rows must be a positive integer/, 2);
    await expectCliError([path.join(folder, 'missing'), 'SELECT 1'], /^not a folder/);
  });

  it('exits promptly as a process (the sandbox worker is disposed)', () => {
    const main = path.join(__dirname, '..', '..', 'src', 'cli', 'main.js');
    const started = performance.now();
    const ok = spawnSync(process.execPath, [main, 'sql', folder, 'SELECT count(*) AS n FROM orders', '--json'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { columns: ['n'], rows: [[3]], truncated: false });
    const failed = spawnSync(process.execPath, [main, 'sql', folder, 'DELETE FROM orders'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(failed.status, 1);
    assert.equal(failed.stderr.trim(), 'toffee sql: refused: the SQL sandbox is read-only (DELETE is not allowed)');
    assert.ok(performance.now() - started < 30_000);
  });

  it('formats blobs markers, long text and an empty result', () => {
    const table = formatResultTable({ columns: ['b', 'note'], rows: [['<blob 3 bytes: 00ff10>', 'x'.repeat(100)]], truncated: false });
    assert.match(table, /<blob 3 bytes: 00ff10>/);
    assert.match(table, /x{59}…/);
    assert.equal(formatResultTable({ columns: ['a'], rows: [], truncated: false }), 'a\n-\n(0 rows)');
  });
});
