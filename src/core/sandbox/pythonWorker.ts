// Sandbox worker entry (built by esbuild into dist/pythonWorker.js): Pyodide, offline from its own folder,
// stdlib only, with a `sql()` helper over its own read-only sql.js database of the environment image.
//
// Pyodide runs in this thread's JS realm, and Python can reach JS objects through its FFI, so after loading we
// take away what JS code here could use to touch the machine: module loading (child_process backs os.system,
// ws backs socket), eval (ctypes reaches emscripten_run_script), the Function constructors reachable from any JS
// object, process.getBuiltinModule/binding/dlopen/kill, fetch, host-file-system mounts, Pyodide's loaders of
// host files and packages, and stdin. The worker's env is empty. This is capability removal inside one
// process, not an OS-level jail; the probes in test/unit/sandboxPython.test.ts are the known escape routes.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import { ReadOnlyDatabase, sqliteMessage } from './sqlEngine';
import type { PythonOutcome, PythonWorkerData, WorkerReply, WorkerRequest } from './protocol';

/** Output kept per call; the rest is cut with a note (a runaway print loop must not flood the host). */
const MAX_OUTPUT_CHARS = 100_000;

/** Python side of the sandbox: the `sql()` helpers and the cell runner. Runs once per worker. */
const PRELUDE = String.raw`
import json as _json, sys, traceback
from pyodide.code import eval_code
import _toffee_bridge

class SqlError(Exception):
    """A query the sandbox refused or SQLite rejected; the message says why."""

def _query(query):
    if not isinstance(query, str):
        raise TypeError("sql() takes the query text as a string")
    result = _json.loads(_toffee_bridge.query(query))
    if not result["ok"]:
        raise SqlError(result["error"])
    if result.get("truncated"):
        print(f"warning: sql() returned only the first {len(result['rows'])} rows (row cap)", file=sys.stderr)
    return result["columns"], result["rows"]

def sql(query):
    """Runs a read-only SQL query on the environment's tables; returns a list of dicts, one per row."""
    columns, rows = _query(query)
    return [dict(zip(columns, row)) for row in rows]

def sql_columns(query):
    """Like sql(), but returns (columns, rows) with each row a list (keeps duplicate column names)."""
    return _query(query)

user_namespace = {"__name__": "__main__", "sql": sql, "sql_columns": sql_columns, "SqlError": SqlError}

def run_cell(code):
    """Runs one call's code in the persistent namespace; echoes a final expression's repr like a notebook."""
    try:
        value = eval_code(code, user_namespace, filename="<cell>")
        if value is not None:
            print(repr(value))
        return None
    except BaseException as error:
        tb = error.__traceback__
        # Drop Pyodide's own frames above the user's code.
        while tb is not None and tb.tb_frame.f_code.co_filename != "<cell>":
            tb = tb.tb_next
        text = "".join(traceback.format_exception(type(error), error, tb))
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        return [text, last, isinstance(error, KeyboardInterrupt)]
    finally:
        sys.stdout.flush()
        sys.stderr.flush()

import os as _os, posix as _posix

def _no_processes(*args, **kwargs):
    raise OSError("running programs is not available in the TOFFEE sandbox")

_os.system = _posix.system = _no_processes
_os.urandom(1)  # Emscripten loads node:crypto lazily on first use: do it before module loading is closed.
`;

/** Collects one call's stdout and stderr in the order written, up to MAX_OUTPUT_CHARS. */
class OutputCapture {
  private parts: string[] = [];
  private size = 0;
  private cut = false;
  private readonly decoders = { out: new TextDecoder(), err: new TextDecoder() };

  write(stream: 'out' | 'err', bytes: Uint8Array): number {
    this.append(this.decoders[stream].decode(bytes, { stream: true }));
    return bytes.length;
  }

  append(text: string): void {
    if (this.cut || !text) return;
    const room = MAX_OUTPUT_CHARS - this.size;
    if (text.length > room) {
      this.parts.push(text.slice(0, room), `\n… output cut at ${MAX_OUTPUT_CHARS} characters\n`);
      this.cut = true;
    } else this.parts.push(text);
    this.size += text.length;
  }

  take(): string {
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.cut = false;
    return text;
  }
}

/**
 * Timers exist only while a cell runs. Python reaches them through `js.setTimeout` and through asyncio (Pyodide's
 * event loop schedules with the global setTimeout / setImmediate); a callback left behind would run after the
 * cell returned — between calls, or inside the next one — and could raise SystemExit there and take the worker
 * down. So every timer a cell made is cleared when it returns, and none can be made between cells (a microtask
 * left by a cell runs after it).
 */
function confineTimers(): { startCell(): void; endCell(): number } {
  const global = globalThis as Record<string, unknown>;
  const real = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
    setImmediate: globalThis.setImmediate,
    clearImmediate: globalThis.clearImmediate,
  };
  const live = new Map<unknown, 'timeout' | 'interval' | 'immediate'>();
  let running = false;
  const track = <A extends unknown[]>(kind: 'timeout' | 'interval' | 'immediate', schedule: (callback: (...args: A) => void, ...rest: unknown[]) => unknown) =>
    (callback: (...args: A) => void, ...rest: unknown[]): unknown => {
      if (!running || typeof callback !== 'function') return undefined;
      let handle: unknown;
      const wrapped = (...args: A) => {
        if (kind !== 'interval') live.delete(handle);
        callback(...args);
      };
      handle = schedule(wrapped, ...rest);
      live.set(handle, kind);
      return handle;
    };
  const untrack = (clear: (handle: never) => void) => (handle: unknown): void => {
    live.delete(handle);
    if (handle !== undefined) clear(handle as never);
  };
  global.setTimeout = track('timeout', real.setTimeout as never);
  global.setInterval = track('interval', real.setInterval as never);
  global.setImmediate = track('immediate', real.setImmediate as never);
  global.clearTimeout = untrack(real.clearTimeout as never);
  global.clearInterval = untrack(real.clearInterval as never);
  global.clearImmediate = untrack(real.clearImmediate as never);
  return {
    startCell() {
      running = true;
    },
    endCell() {
      running = false;
      const cleared = live.size;
      for (const [handle, kind] of live) {
        if (kind === 'timeout') real.clearTimeout(handle as never);
        else if (kind === 'interval') real.clearInterval(handle as never);
        else real.clearImmediate(handle as never);
      }
      live.clear();
      return cleared;
    },
  };
}

/** Bytes of Pyodide's WebAssembly memory: it grows and never shrinks, so a memory bomb's peak stays resident. */
function wasmHeapBytes(pyodide: PyodideAPI): number {
  const module = (pyodide as unknown as { _module: { HEAP8?: Int8Array } })._module;
  return module.HEAP8?.buffer.byteLength ?? 0;
}

function blocked(what: string): () => never {
  return () => {
    throw new Error(`${what} is not available in the TOFFEE sandbox`);
  };
}

function lockDown(pyodide: PyodideAPI, output: OutputCapture): void {
  const global = globalThis as Record<string, unknown>;
  // Emscripten's emscripten_run_script* (reachable through ctypes) and EM_JS loading eval strings, and eval'd
  // code could import() Node modules past the require() wall. Calls to the global eval now do nothing.
  const refuseEval = (): undefined => {
    output.append('error: running JS code is not available in the TOFFEE sandbox\n');
    return undefined;
  };
  Object.defineProperty(global, 'eval', { value: refuseEval, configurable: false, writable: false });
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'navigator']) {
    try {
      delete global[name];
    } catch {
      // Non-configurable in this Node version: overwritten below instead.
    }
    if (name in global) Object.defineProperty(global, name, { value: undefined, configurable: false, writable: false });
  }
  const proc = process as unknown as Record<string, unknown>;
  for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'kill', 'openStdin', 'setuid', 'setgid', 'chdir']) {
    Object.defineProperty(proc, name, { value: blocked(`process.${name}`), configurable: false, writable: false });
  }
  // Closes require() for everything in this thread (also Emscripten's lazy require('child_process') / ('ws')).
  // Emscripten's system() calls require('child_process') with no error handling, so it gets a stand-in that
  // reports "command not found" instead of an exception that would be fatal to Pyodide.
  const Module = createRequire(__filename)('node:module') as { _load: unknown };
  const refuseLoad = blocked('loading Node modules');
  const noProcesses = { spawnSync: () => ({ status: 127, signal: null }) };
  const load = (request: unknown): unknown => (String(request).replace(/^node:/, '') === 'child_process' ? noProcesses : refuseLoad());
  Object.defineProperty(Module, '_load', { value: load, configurable: false, writable: false });
  // JS objects reach the Function constructors through `.constructor.constructor`; Pyodide itself never does.
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const kind of functionKinds) {
    Object.defineProperty(Object.getPrototypeOf(kind), 'constructor', { value: blocked('constructing JS code'), configurable: false, writable: false });
  }
  const emscripten = (pyodide as unknown as { _module: Record<string, unknown> })._module;
  const nodefs = emscripten.NODEFS as Record<string, unknown> | undefined;
  if (nodefs) nodefs.mount = blocked('mounting the host file system');
  delete emscripten.NODEFS;
  delete (pyodide.FS as unknown as { filesystems: Record<string, unknown> }).filesystems.NODEFS;
  // Reads process stdin directly (Python's own input() is refused by pyodide.setStdin({ error: true })).
  delete emscripten.FS_stdin_getChar;
  const api = pyodide as unknown as Record<string, unknown>;
  for (const name of ['mountNodeFS', 'mountNativeFS', 'loadPackage', 'loadPackagesFromImports']) {
    if (name in api) api[name] = blocked(`pyodide.${name}`);
  }
  // Internal loaders that read host files by path (loadBinaryFile) or load packages and dynamic libraries.
  const internals = (pyodide as unknown as { _api: Record<string, unknown> })._api;
  for (const name of ['loadBinaryFile', 'loadDynlib', 'package_loader', 'loadScript']) {
    if (name in internals) internals[name] = blocked(`pyodide._api.${name}`);
  }
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('pythonWorker must run in a worker thread');
  const data = workerData as PythonWorkerData;
  const started = performance.now();
  const output = new OutputCapture();
  let runCell: PyProxy;
  let interruptFlag: Int32Array;
  let timers: ReturnType<typeof confineTimers>;
  let heapBytes: () => number;
  try {
    const db = await ReadOnlyDatabase.open(data.image, data.wasmPath);
    // Pyodide is external to the bundle: required from its folder (dist/pyodide or node_modules/pyodide).
    const { loadPyodide } = createRequire(__filename)(path.join(data.pyodideDir, 'pyodide.js')) as typeof import('pyodide');
    const pyodide = await loadPyodide({
      indexURL: data.pyodideDir + path.sep,
      // Python's `js` module sees only timers (asyncio needs them), not this thread's globals; looked up at call
      // time, so they are the confined ones once confineTimers() is in place.
      jsglobals: {
        setTimeout: (...args: Parameters<typeof setTimeout>) => globalThis.setTimeout(...args),
        clearTimeout: (handle: Parameters<typeof clearTimeout>[0]) => globalThis.clearTimeout(handle),
      },
      env: { HOME: '/home/pyodide' },
      stdout: (text: string) => output.append(`${text}\n`),
      stderr: (text: string) => output.append(`${text}\n`),
    });
    pyodide.setStdout({ write: (bytes: Uint8Array) => output.write('out', bytes) });
    pyodide.setStderr({ write: (bytes: Uint8Array) => output.write('err', bytes) });
    interruptFlag = new Int32Array(data.interruptBuffer);
    pyodide.setInterruptBuffer(interruptFlag);
    pyodide.registerJsModule('_toffee_bridge', {
      query: (query: string): string => {
        try {
          return JSON.stringify(db.run(String(query), data.maxRows));
        } catch (e) {
          return JSON.stringify({ ok: false, error: sqliteMessage(e) });
        }
      },
    });
    const preludeScope = pyodide.toPy({}) as PyProxy & { get(name: string): PyProxy };
    pyodide.runPython(PRELUDE, { globals: preludeScope, filename: '<toffee>' });
    runCell = preludeScope.get('run_cell');
    pyodide.setStdin({ error: true });
    lockDown(pyodide, output);
    timers = confineTimers();
    heapBytes = () => wasmHeapBytes(pyodide);
    output.take(); // Startup chatter is nobody's call output.
  } catch (e) {
    port.postMessage({ type: 'startupError', message: `cannot start Python: ${sqliteMessage(e)}` } satisfies WorkerReply);
    return;
  }

  port.on('message', (request: WorkerRequest) => {
    if (request.type !== 'run') return;
    Atomics.store(interruptFlag, 0, 0);
    let outcome: PythonOutcome;
    timers.startCell();
    try {
      const failure = (runCell as unknown as (code: string) => PyProxy | undefined)(request.code);
      if (failure === undefined || failure === null) {
        outcome = { ok: true, stdout: output.take() };
      } else {
        const [traceback, last, interrupted] = failure.toJs() as [string, string, boolean];
        failure.destroy();
        output.append(traceback);
        outcome = { ok: false, stdout: output.take(), error: last, interrupted };
      }
    } catch (e) {
      // Only Pyodide itself failing lands here (user errors are caught in run_cell; os._exit() does too). It may
      // be unusable now: the sandbox terminates this worker and the next call starts a fresh one.
      outcome = { ok: false, stdout: output.take(), error: `the Python runtime failed: ${sqliteMessage(e)}`, fatal: true };
    } finally {
      timers.endCell();
    }
    outcome.heapBytes = heapBytes();
    port.postMessage({ type: 'result', id: request.id, outcome } satisfies WorkerReply);
  });
  port.postMessage({ type: 'ready', startupMs: performance.now() - started, heapBytes: heapBytes() } satisfies WorkerReply);
}

void main();
