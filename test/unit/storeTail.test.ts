import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isKnownEvent, readRun, RunStore, tail, type LogIssue, type StoredRunEvent } from '../../src/core/store';

const STORE_MODULE = path.resolve(__dirname, '../../src/core/store/index.js');

/** Another process writing a run slowly: single appends and batches, then run/finished. */
const WRITER = `
const { RunStore } = require(process.argv[1]);
const store = RunStore.createInDir(process.argv[2], { dataFolder: process.argv[2] });
let i = 0;
const timer = setInterval(() => {
  if (i < 30) {
    store.append({ type: 'node/added', taskId: 't', nodeId: 'n' + i, parentId: i ? 'n' + (i - 1) : null, status: 'open' });
  } else if (i < 35) {
    store.appendMany([{ type: 'budget/spent', costUsd: 0.01 }, { type: 'node/updated', taskId: 't', nodeId: 'n' + (i - 30), visits: 2 }]);
  } else {
    clearInterval(timer);
    store.append({ type: 'run/finished' });
    store.close();
  }
  i++;
}, 15);
`;

async function collect(iterable: AsyncIterable<StoredRunEvent>, limit = Infinity): Promise<StoredRunEvent[]> {
  const events: StoredRunEvent[] = [];
  for await (const event of iterable) {
    events.push(event);
    if (events.length >= limit) break;
  }
  return events;
}

function nextEvent(iterator: AsyncIterator<StoredRunEvent>, ms: number): Promise<StoredRunEvent | 'timeout'> {
  return Promise.race([
    iterator.next().then((result) => (result.done ? 'timeout' : result.value) as StoredRunEvent | 'timeout'),
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms)),
  ]);
}

describe('store: tail', function () {
  this.timeout(60000);
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-store-tail-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('follows a run written by another process from before it exists until run/finished', async () => {
    const runDir = path.join(root, 'live-run');
    const issues: LogIssue[] = [];
    // A failing run must not leave the tail polling forever (mocha would never exit).
    const controller = new AbortController();
    // Start following before the writer has created anything.
    const following = collect(
      tail(runDir, { stopAtRunFinished: true, pollMs: 50, signal: controller.signal, onIssue: (issue) => issues.push(issue) }),
    );
    const writer = spawn(process.execPath, ['-e', WRITER, STORE_MODULE, runDir], { stdio: ['ignore', 'inherit', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => writer.on('exit', resolve));
    let seen: StoredRunEvent[];
    try {
      assert.equal(await exited, 0, 'the writer process succeeded');
      // The writer is done: everything is on disk, so the tail must reach run/finished promptly.
      const timer = setTimeout(() => controller.abort(), 10000);
      seen = await following;
      clearTimeout(timer);
    } finally {
      controller.abort();
    }
    const onDisk = readRun(runDir);
    assert.deepEqual(issues, []);
    assert.deepEqual(seen, onDisk.events, 'the tail saw exactly the events on disk, in order');
    assert.equal(seen.length, 1 + 30 + 10 + 1);
    assert.equal(seen.at(-1)!.type, 'run/finished');

    // A late consumer resyncing from a seq gets the rest only (inclusive), then stops at run/finished.
    const resync = await collect(tail(runDir, { fromSeq: 40, stopAtRunFinished: true }));
    assert.deepEqual(resync.map((event) => event.seq), [40, 41, 42]);
  });

  it('holds back a half-written line, survives torn-tail truncation by a resuming writer, and stops on abort', async () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'partial' });
    store.close();
    const eventsPath = store.eventsPath;
    const controller = new AbortController();
    const issues: LogIssue[] = [];
    const iterator = tail(store.runDir, { signal: controller.signal, pollMs: 30, onIssue: (issue) => issues.push(issue) })[
      Symbol.asyncIterator
    ]();
    try {
      const first = await nextEvent(iterator, 5000);
      assert.ok(first !== 'timeout' && first.type === 'run/started');

      // Half a line: not delivered until its newline arrives.
      const line = JSON.stringify({ v: 1, seq: 2, ts: new Date().toISOString(), type: 'budget/spent', costUsd: 2 }) + '\n';
      fs.appendFileSync(eventsPath, line.slice(0, 25));
      const pending = iterator.next();
      const early = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('timeout'), 300))]);
      assert.equal(early, 'timeout');
      fs.appendFileSync(eventsPath, line.slice(25));
      const second = (await pending).value as StoredRunEvent;
      assert.equal(second.seq, 2);
      assert.ok(isKnownEvent(second) && second.type === 'budget/spent' && second.costUsd === 2);

      // A crash leaves a torn line; the resuming writer truncates it and appends seq 3. The tail must deliver
      // that event cleanly, not glue it onto the torn bytes.
      // (A pending next() keeps the generator polling, so it does read and hold the torn bytes.)
      const thirdPending = nextEvent(iterator, 5000);
      fs.appendFileSync(eventsPath, '{"v":1,"seq":3,"ts":"2025-01-01T00:00:00.000Z","type":"budget/sp');
      await new Promise((resolve) => setTimeout(resolve, 150));
      const writer = RunStore.open(store.runDir, { writable: true });
      writer.append({ type: 'run/error', message: 'resumed after crash' });
      writer.close();
      const third = await thirdPending;
      assert.ok(third !== 'timeout', 'the event after truncation is delivered');
      assert.equal(third.seq, 3);
      assert.ok(isKnownEvent(third) && third.type === 'run/error');
      assert.deepEqual(issues, []);

      const waiting = iterator.next();
      controller.abort();
      assert.equal((await waiting).done, true, 'abort ends the iteration');
    } finally {
      controller.abort();
    }
  });
});
