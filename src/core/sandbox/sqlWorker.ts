// Sandbox worker entry (built by esbuild into dist/sqlWorker.js): one read-only sql.js database over the
// environment image, answering one query at a time. The main thread terminates it on timeout.
import { parentPort, workerData } from 'node:worker_threads';
import { ReadOnlyDatabase, sqliteMessage } from './sqlEngine';
import type { SqlWorkerData, WorkerReply, WorkerRequest } from './protocol';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('sqlWorker must run in a worker thread');
  const { image, wasmPath } = workerData as SqlWorkerData;
  const started = performance.now();
  let db: ReadOnlyDatabase;
  try {
    db = await ReadOnlyDatabase.open(image, wasmPath);
  } catch (e) {
    port.postMessage({ type: 'startupError', message: `cannot open the environment image: ${sqliteMessage(e)}` } satisfies WorkerReply);
    return;
  }
  port.on('message', (request: WorkerRequest) => {
    if (request.type !== 'run') return;
    const outcome = db.run(request.code, request.maxRows);
    port.postMessage({ type: 'result', id: request.id, outcome } satisfies WorkerReply);
  });
  port.postMessage({ type: 'ready', startupMs: performance.now() - started } satisfies WorkerReply);
}

void main();
