import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRun, rebuildState, RunStore } from '../../src/core/store';

const STORE_MODULE = path.resolve(__dirname, '../../src/core/store/index.js');

/**
 * A miniature resumable synthesis: per task, task/added, six node appends (one fsync each), one 0.5 MB batch
 * (so SIGKILL can land inside a large write and tear it), an admitted trajectory, task/finished. On a rerun it
 * resumes from the store's state: finished tasks are skipped, admitted trajectories not re-admitted. Every
 * event whose append returned is acknowledged on stdout.
 */
const CHILD = `
const fs = require('fs');
const { RunStore, resumePlan } = require(process.argv[1]);
const runDir = process.argv[2];
const totalTasks = Number(process.argv[3]);
const hugeBatch = process.argv[4] === 'huge';
const ack = (event) => fs.writeSync(1, 'ack ' + event.seq + ' ' + event.type + ' ' + (event.trajectoryId || event.nodeId || event.taskId || '') + '\\n');
// The marker goes out just before a large write() starts, so the parent's SIGKILL lands inside it.
const fileOps = {
  writeSync: (fd, buffer, offset, length) => {
    if (length > 8 * 1024 * 1024) fs.writeSync(1, 'big\\n');
    return fs.writeSync(fd, buffer, offset, length);
  },
  fsyncSync: (fd) => fs.fsyncSync(fd),
};
let store;
if (fs.existsSync(runDir)) {
  store = RunStore.open(runDir, { writable: true, fileOps });
  ack(store.append({ type: 'run/resumed', pid: process.pid, truncatedBytes: store.recovery.truncatedBytes }));
} else {
  store = RunStore.createInDir(runDir, { dataFolder: runDir, seed: 1 }, { fileOps });
}
const plan = resumePlan(store.state);
if (hugeBatch) {
  // One 16 MB write: the parent kills on the marker, so the kill usually lands inside the write() and tears it.
  const huge = 'y'.repeat(1024 * 1024);
  ack(store.appendMany(Array.from({ length: 16 }, (_, k) => ({ type: 'run/error', message: 'padding ' + k, huge })))[15]);
}
const blob = 'x'.repeat(128 * 1024);
for (let t = 0; t < totalTasks; t++) {
  const taskId = 'task-' + t;
  if (plan.finishedTaskIds.has(taskId)) continue;
  if (!store.state.tasks.has(taskId)) {
    ack(store.append({ type: 'task/added', task: { id: taskId, family: 'f', question: 'q' + t, answer: { type: 'number', value: t, tolerance: 0 }, evidence: [], difficulty: {}, tables: [] } }));
  }
  for (let n = 0; n < 6; n++) {
    ack(store.append({ type: 'node/added', taskId, nodeId: 'n' + n, parentId: n ? 'n' + (n - 1) : null, status: n === 5 ? 'verified' : 'open', costUsd: 0.001 }));
  }
  const batch = store.appendMany([0, 1, 2, 3].map((k) => ({ type: 'node/updated', taskId, nodeId: 'n' + k, visits: k + 1, blob })));
  ack(batch[batch.length - 1]);
  const trajectoryId = taskId + '/n5';
  if (!store.state.trajectories.has(trajectoryId)) {
    ack(store.append({ type: 'trajectory/admitted', trajectoryId, taskId, nodePath: ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'], quality: 0.9, verified: true }));
  }
  ack(store.append({ type: 'task/finished', taskId, reason: 'solved' }));
}
if (store.state.status !== 'finished') ack(store.append({ type: 'run/finished' }));
store.close();
fs.writeSync(1, 'done\\n');
`;

interface Ack {
  seq: number;
  type: string;
  key: string;
}

/** Runs the child; kills it with SIGKILL after `killAfterAcks` acknowledgements (undefined: let it finish). */
function runChild(runDir: string, totalTasks: number, killAfterAcks: number | 'big' | undefined): Promise<{ acks: Ack[]; done: boolean; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, STORE_MODULE, runDir, String(totalTasks), killAfterAcks === 'big' ? 'huge' : ''], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Ack[] = [];
    let done = false;
    let killed = false;
    let buffered = '';
    let stderr = '';
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
    child.stdout!.on('data', (data: Buffer) => {
      buffered += data.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line === 'done') done = true;
        if (line === 'big' && killAfterAcks === 'big' && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
        const match = /^ack (\d+) (\S+) ?(.*)$/.exec(line);
        if (match) acks.push({ seq: Number(match[1]), type: match[2], key: match[3] });
        if (!killed && typeof killAfterAcks === 'number' && acks.length >= killAfterAcks) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve({ acks, done, killed });
      else reject(new Error(`child failed (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

function keyOf(event: { type: string }): string {
  const fields = event as { trajectoryId?: string; nodeId?: string; taskId?: string };
  return String(fields.trajectoryId ?? fields.nodeId ?? fields.taskId ?? '');
}

describe('store: crash safety (SIGKILL mid-run, then resume)', function () {
  this.timeout(180000);
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-store-crash-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged event, truncates torn tails, and resumes to an idempotent, complete run', async () => {
    const runDir = path.join(root, 'run');
    const totalTasks = 16;
    // Kill points spread across task boundaries and large batches; the last round runs to completion.
    // 'big': kill on the marker printed just before a 16 MB batch write, to tear it for real.
    const killPoints: (number | 'big')[] = [5, 'big', 23, 41, 'big', 12, 60, 'big', 33, 17, 'big', 48];
    const allAcks: Ack[] = [];
    let kills = 0;
    let rounds = 0;
    let finished = false;
    for (const killAfter of [...killPoints, undefined]) {
      rounds++;
      const { acks, done, killed } = await runChild(runDir, totalTasks, killAfter);
      allAcks.push(...acks);
      if (killed) kills++;
      // After every round, every acknowledged event is on disk with the content that was acknowledged.
      const read = readRun(runDir);
      const bySeq = new Map(read.events.map((event) => [event.seq, event]));
      for (const ack of allAcks) {
        const event = bySeq.get(ack.seq);
        assert.ok(event, `acknowledged seq ${ack.seq} (${ack.type}) missing after round ${rounds}`);
        assert.equal(event.type, ack.type);
        assert.equal(keyOf(event), ack.key);
      }
      assert.deepEqual(
        read.events.map((event) => event.seq),
        Array.from({ length: read.events.length }, (_, i) => i + 1),
        'gap-free',
      );
      assert.ok(read.issues.every((issue) => issue.kind === 'torn-tail'), JSON.stringify(read.issues));
      if (done) {
        finished = true;
        break;
      }
    }
    assert.ok(finished, 'the final round completes the run');
    assert.ok(kills >= 5, `the child was killed mid-run (${kills} kills)`);

    const read = readRun(runDir);
    assert.deepEqual(read.issues, [], 'the last resume repaired every torn tail');
    const state = rebuildState(read.events);
    assert.equal(state.status, 'finished');
    assert.equal(state.tasks.size, totalTasks);
    assert.equal(state.finishedTasks.size, totalTasks);
    assert.equal(state.trajectories.size, totalTasks);
    // Idempotent resume: the resumer never re-admitted a trajectory or re-finished a task.
    assert.equal(read.events.filter((event) => event.type === 'trajectory/admitted').length, totalTasks);
    assert.equal(read.events.filter((event) => event.type === 'task/finished').length, totalTasks);
    const resumed = read.events.filter((event) => event.type === 'run/resumed');
    assert.equal(resumed.length, rounds - 1);
    const truncations = resumed.filter((event) => event.type === 'run/resumed' && (event.truncatedBytes ?? 0) > 0).length;
    console.log(
      `      ${kills} SIGKILLs, ${allAcks.length} acknowledged events all present; ` +
        `${truncations} resumes truncated a torn tail; ${read.lastSeq} events, ${(fs.statSync(path.join(runDir, 'events.jsonl')).size / 1e6).toFixed(1)} MB`,
    );
    assert.ok(!fs.existsSync(path.join(runDir, 'events.lock')));

    // A further writer continues the sequence.
    const store = RunStore.open(runDir, { writable: true });
    try {
      assert.equal(store.append({ type: 'curation/accepted', trajectoryId: 'task-0/n5' }).seq, read.lastSeq + 1);
    } finally {
      store.close();
    }
  });
});
