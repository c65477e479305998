/** Messages between the sandboxes (main thread) and their workers. Plain data: structured-clone safe. */
import type { SqlOutcome } from './sqlEngine';

export interface SqlWorkerData {
  image: Uint8Array;
  wasmPath: string;
}

export interface PythonWorkerData {
  image: Uint8Array;
  wasmPath: string;
  pyodideDir: string;
  /** Row cap for the `sql()` helper inside Python. */
  maxRows: number;
  /** Shared Int32Array(1): writing 2 (SIGINT) raises KeyboardInterrupt in running Python code. */
  interruptBuffer: SharedArrayBuffer;
}

export type WorkerRequest = { type: 'run'; id: number; code: string; maxRows: number };

export interface PythonOutcome {
  ok: boolean;
  /** Captured stdout and stderr, interleaved as written, plus the traceback on error. */
  stdout: string;
  error?: string;
  /** True when the error was the KeyboardInterrupt the timeout raised. */
  interrupted?: boolean;
  /** Pyodide itself failed; the sandbox terminates this worker. */
  fatal?: boolean;
  /** Size of Pyodide's WebAssembly memory after the call (it never shrinks). */
  heapBytes?: number;
}

export type WorkerReply =
  | { type: 'ready'; startupMs: number; heapBytes?: number }
  | { type: 'startupError'; message: string }
  | { type: 'result'; id: number; outcome: SqlOutcome | PythonOutcome };
