/**
 * `npm run bench:queue`: queue-mode throughput with a latency-bound provider. Workers are separate
 * `toffee worker` processes with the offline simulated models plus a real HTTP round trip per completion to the
 * mock OpenAI-compatible server, which answers after a fixed latency and logs when each request arrived.
 * Prints tasks per minute for 1, 2 and 4 workers with a shared rate limit too high to bind, the 4-vs-1 speed-up
 * (target ≥ 3×), then 4 workers under a binding limit: the most requests the server saw in any 1-second window
 * against the configured limit (target: never above it). Always exits 0; the MET/NOT MET lines say how it went.
 *
 *   node out/scripts/benchQueue.js [--tasks N] [--latency-ms MS] [--limit-rpm R]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createSimulatedProvider } from '../src/core/sim/index';
import { collectRun, enqueueRun } from '../src/core/scale/coordinator';
import { connectRedis } from '../src/core/scale/queue';
import { MockOpenAiServer } from '../test/support/mockOpenAiServer';
import { startRedis } from '../test/support/redisServer';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'media', 'samples', 'retail');

interface Measurement {
  workers: number;
  rpm: number;
  seconds: number;
  tasks: number;
  tasksPerMinute: number;
  requests: number;
  meanPerSecond: number;
  maxInAnySecond: number;
}

function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

async function startWorkers(count: number, redisUrl: string, endpoint: string, folder: string): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      new Promise<ChildProcess>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'worker', '--redis', redisUrl, '--latency-endpoint', endpoint, '--folder', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
        let log = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          if (/ready/.test(log)) resolve(child);
        });
        child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${log}`)));
      }),
    ),
  );
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
    if (w.exitCode !== null) return resolve();
    w.removeAllListeners('exit');
    w.once('exit', () => resolve());
    w.kill('SIGTERM');
  })));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tasks: { type: 'string', default: '12' }, 'latency-ms': { type: 'string', default: '300' }, 'limit-rpm': { type: 'string', default: '480' } } });
  const tasks = Number(values.tasks);
  const latencyMs = Number(values['latency-ms']);
  const limitRpm = Number(values['limit-rpm']);
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-queue-'));
  const redisServer = await startRedis();
  const mock = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'text', content: 'ok', delayMs: latencyMs } });
  const redis = connectRedis(redisServer.url);
  let runs = 0;
  const measure = async (workerCount: number, rpm: number): Promise<Measurement> => {
    // Every run starts from a fresh cost model (same exploration, same requests); workers open the folder before
    // the clock starts, so the figures are the steady-state throughput.
    const data = path.join(scratch, `data${runs}`);
    fs.cpSync(SAMPLE, data, { recursive: true, filter: (src) => !src.includes(`${path.sep}.toffee`) });
    const workers = await startWorkers(workerCount, redisServer.url, mock.baseUrl, data);
    try {
      const run = await enqueueRun({ folder: data, redis, tasks, seed: 1, outDir: path.join(scratch, `run${runs++}`), providers: [createSimulatedProvider()], requestsPerMinute: { 'offline-sim': rpm } });
      const from = mock.chatRequests.length;
      const started = Date.now();
      const summary = await collectRun({ runDir: run.runDir, redis, pollMs: 50 });
      const seconds = (Date.now() - started) / 1000;
      const times = mock.chatRequests.slice(from).map((r) => r.receivedAt);
      if (summary.tasksFinished !== run.tasks) throw new Error(`only ${summary.tasksFinished}/${run.tasks} tasks finished`);
      return { workers: workerCount, rpm, seconds, tasks: run.tasks, tasksPerMinute: (60 * run.tasks) / seconds, requests: times.length, meanPerSecond: times.length / seconds, maxInAnySecond: maxInWindow(times, 1000) };
    } finally {
      await stopWorkers(workers);
    }
  };
  const line = (m: Measurement) =>
    `${String(m.workers).padStart(7)}  ${String(m.rpm / 60).padStart(10)}  ${m.seconds.toFixed(1).padStart(7)}  ${m.tasksPerMinute.toFixed(1).padStart(9)}  ${String(m.requests).padStart(8)}  ${m.meanPerSecond.toFixed(1).padStart(9)}  ${String(m.maxInAnySecond).padStart(11)}`;
  try {
    console.log(`queue bench: ${tasks} tasks of media/samples/retail per run, offline-sim + ${latencyMs} ms per request at the mock server; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
    console.log('workers  limit req/s  seconds  tasks/min  requests  mean req/s  max req in 1 s');
    const free = 60_000; // 1000 requests/s: never binds here
    const results: Measurement[] = [];
    for (const w of [1, 2, 4]) {
      const m = await measure(w, free);
      results.push(m);
      console.log(line(m));
    }
    const bound = await measure(4, limitRpm);
    console.log(line(bound));
    const speedup = results[2].tasksPerMinute / results[0].tasksPerMinute;
    const limitPerSecond = limitRpm / 60;
    console.log(`speed-up 4 vs 1 worker (limit not binding): ${speedup.toFixed(2)}× (2 vs 1: ${(results[1].tasksPerMinute / results[0].tasksPerMinute).toFixed(2)}×)`);
    console.log(`4 workers under a ${limitPerSecond} req/s limit: ${bound.tasksPerMinute.toFixed(1)} tasks/min (${(bound.tasksPerMinute / results[2].tasksPerMinute).toFixed(2)}× the unbound 4-worker rate), mean ${bound.meanPerSecond.toFixed(2)} req/s, at most ${bound.maxInAnySecond} requests in any 1 s window`);
    console.log(`${speedup >= 3 ? 'MET    ' : 'NOT MET'} 4 workers ≥ 3× the throughput of 1 while the limit does not bind (${speedup.toFixed(2)}×)`);
    console.log(`${bound.maxInAnySecond <= limitPerSecond ? 'MET    ' : 'NOT MET'} the server never saw more than the configured ${limitPerSecond} req/s (max ${bound.maxInAnySecond} in any 1 s window)`);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    redis.disconnect();
    await mock.close();
    await redisServer.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack ?? error.message : String(error));
  process.exit(1);
});
