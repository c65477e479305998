import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { PythonSandbox } from '../../src/core/sandbox';

async function buildImage(): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, city TEXT);
    INSERT INTO customers VALUES (1, 'Ada', 'Lyon'), (2, 'Bo', 'Oslo'), (3, 'Cy', 'Lyon');
    CREATE TABLE events (n INTEGER);
    WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1500) INSERT INTO events SELECT i FROM c;
  `);
  const image = db.export();
  db.close();
  return image;
}

/** Everything under `dir`, for before/after comparisons. */
function listTree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('PythonSandbox', function () {
  this.timeout(120_000);
  let image: Uint8Array;
  let sandbox: PythonSandbox;
  let coldStartWallMs = 0;

  before(async () => {
    image = await buildImage();
    sandbox = new PythonSandbox(image, { timeoutMs: 2000, maxRows: 1000 });
  });
  after(async () => {
    await sandbox.dispose();
  });

  it('starts lazily on the first call and captures stdout', async () => {
    assert.equal(sandbox.spawnCount, 0);
    const started = performance.now();
    const result = await sandbox.run('print("hello"); print(6 * 7)');
    coldStartWallMs = performance.now() - started;
    assert.equal(result.ok, true, result.error);
    assert.equal(result.stdout, 'hello\n42\n');
    assert.equal(sandbox.spawnCount, 1);
    console.log(`      Pyodide cold start: ${coldStartWallMs.toFixed(0)} ms (first call, wall), ${sandbox.startupMs?.toFixed(0)} ms inside the worker`);
  });

  it('resets output per call, keeps globals like notebook cells, echoes a final expression', async () => {
    assert.equal((await sandbox.run('total = 10\nprint("set")')).stdout, 'set\n');
    const next = await sandbox.run('total + 5');
    assert.equal(next.stdout, '15\n');
    const stderr = await sandbox.run('import sys\nprint("out")\nprint("err", file=sys.stderr)');
    assert.equal(stderr.stdout, 'out\nerr\n');
  });

  it('turns exceptions into errorKind python with the last traceback line', async () => {
    const result = await sandbox.run('def f(x):\n    return 1 / x\n\nf(0)');
    assert.equal(result.ok, false);
    assert.equal(result.errorKind, 'python');
    assert.equal(result.error, 'ZeroDivisionError: division by zero');
    assert.match(result.stdout ?? '', /^Traceback \(most recent call last\):\n {2}File "<cell>", line 4, in <module>/);
    assert.match(result.stdout ?? '', /line 2, in f/);
    const syntax = await sandbox.run('x = (1,');
    assert.equal(syntax.errorKind, 'python');
    assert.match(syntax.error ?? '', /^SyntaxError: /);
    const name = await sandbox.run('print("before")\nundefined_name');
    assert.equal(name.error, "NameError: name 'undefined_name' is not defined");
    assert.match(name.stdout ?? '', /^before\n/);
  });

  it('reads the environment with sql() and sql_columns()', async () => {
    const rows = await sandbox.run('rows = sql("SELECT name, city FROM customers WHERE city = \'Lyon\' ORDER BY id")\nprint(rows)');
    assert.equal(rows.stdout, "[{'name': 'Ada', 'city': 'Lyon'}, {'name': 'Cy', 'city': 'Lyon'}]\n");
    const columns = await sandbox.run('cols, data = sql_columns("SELECT id, id FROM customers ORDER BY id")\nprint(cols, data)');
    assert.equal(columns.stdout, "['id', 'id'] [[1, 1], [2, 2], [3, 3]]\n");
    const statistics = await sandbox.run('import statistics\nstatistics.mean(r["n"] for r in sql("SELECT n FROM events LIMIT 100"))');
    assert.equal(statistics.stdout, '50.5\n');
  });

  it('caps sql() rows and warns on stderr', async () => {
    const result = await sandbox.run('print(len(sql("SELECT n FROM events")))');
    assert.equal(result.stdout, 'warning: sql() returned only the first 1000 rows (row cap)\n1000\n');
  });

  it('raises SqlError for refused or failing SQL, catchable in Python', async () => {
    const refused = await sandbox.run('sql("DROP TABLE customers")');
    assert.equal(refused.errorKind, 'python');
    assert.equal(refused.error, 'SqlError: refused: the SQL sandbox is read-only (DROP is not allowed)');
    const failing = await sandbox.run('try:\n    sql("SELECT nope FROM customers")\nexcept SqlError as e:\n    print("caught:", e)');
    assert.equal(failing.stdout, 'caught: no such column: nope\n');
    const write = await sandbox.run('sql("WITH x AS (SELECT 1) INSERT INTO customers (id) SELECT 9 FROM x")');
    assert.match(write.error ?? '', /^SqlError: refused/);
    assert.equal((await sandbox.run('len(sql("SELECT * FROM customers"))')).stdout, '3\n');
  });

  it('stops `while True: pass` within timeout + 1 s, and the next call works', async () => {
    const started = performance.now();
    const result = await sandbox.run('while True: pass');
    const wall = performance.now() - started;
    assert.equal(result.errorKind, 'timeout');
    assert.match(result.error ?? '', /timeout: the code ran longer than 2000 ms/);
    assert.ok(wall >= 2000 && wall < 3000, `stopped after ${wall.toFixed(0)} ms`);
    const next = await sandbox.run('print("alive")');
    assert.equal(next.stdout, 'alive\n');
  });

  it('kills code that swallows the interrupt, and starts afresh on the next call', async () => {
    const spawns = sandbox.spawnCount;
    const started = performance.now();
    const result = await sandbox.run('while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass');
    const wall = performance.now() - started;
    assert.equal(result.errorKind, 'timeout');
    assert.ok(wall < 3000, `stopped after ${wall.toFixed(0)} ms`);
    const next = await sandbox.run('print("fresh", "total" in globals())');
    assert.equal(next.stdout, 'fresh False\n');
    assert.equal(sandbox.spawnCount, spawns + 1);
  });

  it('cancels on an AbortSignal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await sandbox.run('while True: pass', { signal: controller.signal });
    assert.equal(result.errorKind, 'cancelled');
    assert.equal((await sandbox.run('print(1)')).stdout, '1\n');
  });

  it('has no network: urllib, sockets and fetch fail cleanly', async () => {
    const urllib = await sandbox.run('import urllib.request\nurllib.request.urlopen("http://example.com", timeout=2).read()');
    assert.equal(urllib.errorKind, 'python');
    assert.match(urllib.error ?? '', /Error/);
    const socket = await sandbox.run('import socket\nsocket.create_connection(("1.1.1.1", 80), timeout=2)');
    assert.equal(socket.errorKind, 'python');
    assert.match(socket.error ?? '', /^OSError/);
    const js = await sandbox.run('import js\njs.fetch');
    assert.equal(js.errorKind, 'python');
    assert.match(js.error ?? '', /AttributeError/);
    assert.equal((await sandbox.run('print("still fine")')).stdout, 'still fine\n');
  });

  it('has the stdlib only: no package installs or loads', async () => {
    const micropip = await sandbox.run('import micropip');
    assert.match(micropip.error ?? '', /ModuleNotFoundError/);
    const numpy = await sandbox.run('import numpy');
    assert.match(numpy.error ?? '', /ModuleNotFoundError/);
    const load = await sandbox.run('import pyodide_js\npyodide_js.loadPackage("numpy")');
    assert.equal(load.errorKind, 'python');
    assert.match(load.error ?? '', /not available in the TOFFEE sandbox/);
  });

  it('cannot reach the host: processes, JS escapes, env secrets', async () => {
    process.env.TOFFEE_TEST_SECRET = 'sk-should-not-leak';
    const own = new PythonSandbox(image, { timeoutMs: 5000 });
    try {
      const env = await own.run('import os\nprint(os.environ.get("TOFFEE_TEST_SECRET"), sorted(os.environ))');
      assert.equal(env.ok, true, env.error);
      assert.doesNotMatch(env.stdout ?? '', /sk-should-not-leak/);
      const system = await own.run('import os\nos.system("echo hacked")');
      assert.match(system.error ?? '', /running programs is not available/);
      const subprocess = await own.run('import subprocess\nsubprocess.run(["ls"])');
      assert.equal(subprocess.errorKind, 'python');
      const escape = await own.run('import pyodide_js\npyodide_js.constructor.constructor("return process.getBuiltinModule(\'fs\')")()');
      assert.equal(escape.errorKind, 'python');
      assert.match(escape.error ?? '', /not available in the TOFFEE sandbox/);
      const mount = await own.run('import pyodide_js\npyodide_js.mountNodeFS("/host", "/")');
      assert.match(mount.error ?? '', /not available in the TOFFEE sandbox/);
      const hostRead = await own.run('import pyodide_js\npyodide_js._api.loadBinaryFile("/etc/hostname")');
      assert.match(hostRead.error ?? '', /loadBinaryFile is not available in the TOFFEE sandbox/);
      // ctypes reaches Emscripten's emscripten_run_script (JS eval), and eval'd code could import() node:fs.
      const marker = path.join(os.tmpdir(), `toffee-sandbox-escape-${process.pid}`).replace(/\\/g, '/');
      const script = `import('node:fs').then((fs) => fs.writeFileSync('${marker}', 'x'))`;
      const ctypes = await own.run(`import ctypes\nctypes.CDLL(None).emscripten_run_script(${JSON.stringify(script)}.encode())\nctypes.CDLL(None).emscripten_run_script_int(b"6*7")`);
      assert.equal(ctypes.ok, true, ctypes.error);
      assert.equal(ctypes.stdout, 'error: running JS code is not available in the TOFFEE sandbox\n'.repeat(2) + '0\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(fs.existsSync(marker), false, 'JS code ran outside the sandbox');
      const stdin = await own.run('input()');
      assert.equal(stdin.errorKind, 'python');
      assert.equal((await own.run('print("ok")')).stdout, 'ok\n');
    } finally {
      delete process.env.TOFFEE_TEST_SECRET;
      await own.dispose();
    }
  });

  it('never touches the real file system', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-sandbox-fs-'));
    try {
      fs.writeFileSync(path.join(dir, 'real.csv'), 'a,b\n1,2\n');
      const beforeTmp = listTree(dir);
      const beforeCwd = fs.readdirSync(process.cwd()).sort();
      const target = path.join(dir, 'written-by-python.txt').replace(/\\/g, '/');
      const write = await sandbox.run(
        `import os\nos.makedirs(${JSON.stringify(dir)}, exist_ok=True)\nopen(${JSON.stringify(target)}, "w").write("x")\nopen("out.csv", "w").write("y")\nprint(open(${JSON.stringify(target)}).read(), os.getcwd())`,
      );
      // Writes land in Pyodide's in-memory file system, nowhere on disk.
      assert.equal(write.ok, true, write.error);
      assert.equal(write.stdout, 'x /home/pyodide\n');
      assert.equal(fs.existsSync(target), false);
      assert.deepEqual(listTree(dir), beforeTmp);
      assert.deepEqual(fs.readdirSync(process.cwd()).sort(), beforeCwd);
      const read = await sandbox.run(`open(${JSON.stringify(path.join(dir, 'real.csv').replace(/\\/g, '/'))}).read()`);
      assert.equal(read.errorKind, 'python');
      assert.match(read.error ?? '', /^FileNotFoundError/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('survives SystemExit and os._exit: the next call gets a fresh runtime', async () => {
    const exit = await sandbox.run('import sys\nsys.exit(3)');
    assert.deepEqual([exit.errorKind, exit.error], ['python', 'SystemExit: 3']);
    const spawns = sandbox.spawnCount;
    const hardExit = await sandbox.run('import os\nos._exit(7)');
    assert.equal(hardExit.errorKind, 'internal');
    assert.match(hardExit.error ?? '', /the Python runtime failed/);
    const next = await sandbox.run('print("back")');
    assert.equal(next.stdout, 'back\n', next.error);
    assert.equal(sandbox.spawnCount, spawns + 1);
  });

  it('lets no callback outlive its cell: a js.setTimeout or asyncio task that would exit never runs', async () => {
    const spawns = sandbox.spawnCount;
    assert.equal((await sandbox.run('kept = "still here"')).ok, true);
    const timer = await sandbox.run('import js\ndef boom():\n    raise SystemExit(3)\njs.setTimeout(boom, 20)\nprint("scheduled")');
    assert.equal(timer.stdout, 'scheduled\n');
    const task = await sandbox.run('import asyncio, os\nasync def later():\n    await asyncio.sleep(0.02)\n    os._exit(5)\nasyncio.ensure_future(later())\nprint("queued")');
    assert.equal(task.stdout, 'queued\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await sandbox.run('print(kept)');
    assert.equal(next.stdout, 'still here\n', next.error);
    assert.equal(sandbox.spawnCount, spawns, 'the same worker: nothing ran after the cells returned');
  });

  it('releases a memory bomb\'s memory: the worker is recycled when its heap stays large after a timeout or a big cell', async () => {
    const small = new PythonSandbox(image, { timeoutMs: 1500, recycleAboveBytes: 96 * 1024 * 1024 });
    try {
      const bomb = await small.run('hoard = []\nwhile True:\n    hoard.append(bytearray(8 * 10**6))');
      assert.equal(bomb.errorKind, 'timeout');
      // Stopped by the interrupt with its heap large, the worker is recycled; on a slow machine the interrupt can
      // miss its 500 ms grace and the worker is killed instead. Either way the next call runs in a new worker.
      const afterBomb = small.recycles;
      assert.ok(afterBomb <= 1, `${afterBomb} recycles`);
      const big = await small.run('block = bytearray(150 * 10**6)\nprint(len(block))');
      assert.equal(big.ok, true, big.error);
      assert.match(big.stdout ?? '', /^150000000\n\nnote: Python's memory grew to \d+ MiB, so the runtime was restarted to release it/);
      assert.equal(small.recycles, afterBomb + 1);
      const after = await small.run('print("fresh")');
      assert.equal(after.stdout, 'fresh\n');
      assert.equal(small.spawnCount, 3);
    } finally {
      await small.dispose();
    }
  });

  it('answers after dispose with an error', async () => {
    const short = new PythonSandbox(image);
    await short.dispose();
    const result = await short.run('print(1)');
    assert.equal(result.errorKind, 'internal');
    assert.equal(short.spawnCount, 0);
  });
});
