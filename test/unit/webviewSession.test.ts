import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRun, RUN_FILES, RunStore } from '../../src/core/store';
import { synthesize } from '../../src/core/run/synthesize';
import { ExplorerSession } from '../../src/host/explorer/ExplorerSession';
import { registerLiveRun, registerRunStopper } from '../../src/host/explorer/liveRuns';
import { PROTOCOL_VERSION, type HostMessage } from '../../src/shared/protocol';
import { writeShopFolder } from './agentFixture';
import { TaskStreamGenerator, writeGeneratedRun } from '../support/runEvents';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('webview: explorer session (host side)', function () {
  this.timeout(30000);
  let dir: string;
  const sessions: ExplorerSession[] = [];
  const stores: RunStore[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-session-'));
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) {
      session.dispose();
      await session.tailDone;
    }
    for (const store of stores.splice(0)) store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(runDir: string, options: Partial<ConstructorParameters<typeof ExplorerSession>[0]> = {}) {
    const posted: HostMessage[] = [];
    const session = new ExplorerSession({ runDir, post: (m) => posted.push(m), pollMs: 20, patchIntervalMs: 100, ...options });
    sessions.push(session);
    return { session, posted };
  }

  it('posts nothing before ready, then a snapshot of every event; invalid messages are dropped', () => {
    const runDir = path.join(dir, 'run');
    writeGeneratedRun(runDir, { tasks: 2, nodesPerTask: 30, finish: true });
    const logged: string[] = [];
    const { session, posted } = open(runDir, { log: (m) => logged.push(m) });
    assert.equal(posted.length, 0);
    session.handleMessage({ type: 'curation/accept', trajectoryId: 'x' });
    session.handleMessage({ type: 'no/such' });
    assert.equal(logged.filter((m) => /invalid message/.test(m)).length, 2);
    session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const snapshot = posted[0];
    assert.equal(snapshot.type, 'session/snapshot');
    if (snapshot.type !== 'session/snapshot') return;
    const onDisk = readRun(runDir);
    assert.equal(snapshot.events.length, onDisk.events.length);
    assert.deepEqual(snapshot.events.map((e) => e.seq), onDisk.events.map((e) => e.seq));
    assert.equal(snapshot.patchSeq, 0);
    assert.equal(snapshot.info.canCurate, true);
    assert.equal(snapshot.info.live, false);
    // resync → a fresh full snapshot
    session.handleMessage({ type: 'session/resync', lastPatchSeq: 0 });
    assert.equal(posted[1].type, 'session/snapshot');
  });

  it('follows a growing run with batched, gap-free patches (at most one per interval) and loses no event', async () => {
    const runDir = path.join(dir, 'live');
    const writer = RunStore.createInDir(runDir, { dataFolder: dir });
    stores.push(writer);
    const generator = new TaskStreamGenerator(0, 300, 4);
    writer.appendMany(generator.next());
    const { session, posted } = open(runDir);
    session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const started = Date.now();
    while (!generator.done) {
      writer.appendMany(generator.next());
      await sleep(3);
    }
    writer.append({ type: 'run/finished' });
    const elapsed = Date.now() - started;
    const lastSeq = writer.lastSeq;
    await waitFor('all events as patches', () => {
      const patches = posted.filter((m) => m.type === 'session/patch');
      const last = patches[patches.length - 1];
      return last && last.type === 'session/patch' && last.events[last.events.length - 1].seq === lastSeq;
    });
    const snapshot = posted[0];
    assert.equal(snapshot.type, 'session/snapshot');
    const patches = posted.filter((m): m is Extract<HostMessage, { type: 'session/patch' }> => m.type === 'session/patch');
    patches.forEach((p, i) => assert.equal(p.patchSeq, i + 1));
    const seqs = [...(snapshot.type === 'session/snapshot' ? snapshot.events : []), ...patches.flatMap((p) => p.events)].map((e) => e.seq);
    assert.deepEqual(seqs, Array.from({ length: lastSeq }, (_, i) => i + 1));
    assert.ok(patches.length >= 2, 'a live run arrives in several patches');
    assert.ok(patches.length <= Math.ceil((elapsed + 1500) / 100) + 1, `${patches.length} patches in ${elapsed} ms exceeds one per 100 ms`);
    assert.equal(session.view.status, 'finished');
  });

  it('appends accept / prune to the run, answers with the request id, and the event comes back as a patch', async () => {
    const runDir = path.join(dir, 'done');
    writeGeneratedRun(runDir, { tasks: 1, nodesPerTask: 120, finish: true });
    const { session, posted } = open(runDir);
    session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const [first, second] = session.view.trajectoryOrder;
    assert.ok(first && second);
    session.handleMessage({ type: 'curation/accept', requestId: 'r1', trajectoryId: first });
    session.handleMessage({ type: 'curation/prune', requestId: 'r2', trajectoryId: second, note: 'wrong join' });
    session.handleMessage({ type: 'curation/accept', requestId: 'r3', trajectoryId: 'task-000/nope' });
    session.handleMessage({ type: 'curation/accept', requestId: 'r4', trajectoryId: second });
    session.handleMessage({ type: 'request/cancel', requestId: 'r4' });
    await session.idle();
    const results = posted.filter((m): m is Extract<HostMessage, { type: 'request/result' }> => m.type === 'request/result');
    assert.deepEqual(
      results.map((r) => [r.requestId, r.ok, r.cancelled ?? false]),
      [['r1', true, false], ['r2', true, false], ['r3', false, false], ['r4', false, true]],
    );
    assert.match(results[2].message ?? '', /No trajectory/);
    const onDisk = readRun(runDir).events.filter((e) => e.type.startsWith('curation/'));
    assert.deepEqual(onDisk.map((e) => [e.type, (e as { trajectoryId: string }).trajectoryId]), [['curation/accepted', first], ['curation/pruned', second]]);
    // Derived file that export reads carries the decisions.
    const exported = fs.readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { trajectoryId: string; curation?: string });
    assert.equal(exported.find((t) => t.trajectoryId === first)?.curation, 'accepted');
    const patchedEvents = () => posted.flatMap((m) => (m.type === 'session/patch' ? m.events : []));
    await waitFor('curation patches', () => patchedEvents().length >= 2);
    assert.equal(session.view.trajectories[second].curation, 'pruned');
    const patched = patchedEvents();
    assert.deepEqual(patched.map((e) => e.type), ['curation/accepted', 'curation/pruned']);
  });

  it('says plainly that another process holds the run and refuses curation; a live in-process store is used directly', async () => {
    const runDir = path.join(dir, 'held');
    writeGeneratedRun(runDir, { tasks: 1, nodesPerTask: 100 });
    // Another live process (our parent, e.g. a CLI) holds the writer lock.
    const lockPath = path.join(runDir, 'events.lock');
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, hostname: os.hostname(), token: 'cli', acquiredAt: '2026-01-01T00:00:00.000Z' }));
    const { session, posted } = open(runDir);
    session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const snapshot = posted[0];
    assert.ok(snapshot.type === 'session/snapshot');
    assert.equal(snapshot.info.canCurate, false);
    assert.match(snapshot.info.readOnlyReason ?? '', new RegExp(`being written by another TOFFEE process \\(pid ${process.ppid}`));
    const trajectoryId = session.view.trajectoryOrder[0];
    session.handleMessage({ type: 'curation/accept', requestId: 'r1', trajectoryId });
    await session.idle();
    const result = posted.find((m) => m.type === 'request/result');
    assert.ok(result && result.type === 'request/result');
    assert.equal(result.ok, false);
    assert.match(result.message ?? '', /Not saved: this run is being written by another TOFFEE process/);
    assert.equal(readRun(runDir).events.filter((e) => e.type.startsWith('curation/')).length, 0);

    // The run's writer in this process (an in-window synthesis): curation goes through it.
    fs.rmSync(lockPath);
    const store = RunStore.open(runDir, { writable: true });
    stores.push(store);
    const { session: heldSession, posted: heldPosted } = open(runDir);
    heldSession.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const heldSnapshot = heldPosted[0];
    assert.ok(heldSnapshot.type === 'session/snapshot');
    assert.match(heldSnapshot.info.readOnlyReason ?? '', /a synthesis running in this window/);
    const { session: liveSession, posted: livePosted } = open(runDir, { liveStore: store });
    liveSession.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const liveSnapshot = livePosted[0];
    assert.ok(liveSnapshot.type === 'session/snapshot' && liveSnapshot.info.canCurate && liveSnapshot.info.live);
    liveSession.handleMessage({ type: 'curation/accept', requestId: 'r9', trajectoryId });
    await liveSession.idle();
    assert.ok(livePosted.some((m) => m.type === 'request/result' && m.ok));
    assert.equal(store.state.trajectories.get(trajectoryId)?.curation, 'accepted');
  });

  it("curates live while a synthesis in this process runs: through the pipeline's own store, one writer", async function () {
    this.timeout(240000);
    const folder = writeShopFolder();
    const runDir = path.join(dir, 'live-run');
    let unregister: (() => void) | undefined;
    let live: { session: ExplorerSession; posted: HostMessage[] } | undefined;
    let curatedId: string | undefined;
    try {
      await synthesize({
        folder,
        // Enough tasks that one admits a trajectory with more still to run (the pool opens with multi-step
        // programs, which admit nothing at this budget on the small shop folder).
        tasks: 5,
        budgetUsd: 0.03,
        seed: 5,
        outDir: runDir,
        costModelFile: null,
        // What the extension's synthesis command does: the panel's session finds the running store.
        onStore: (store) => {
          unregister = registerLiveRun(store);
          live = open(runDir);
          live.session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
        },
        // After a task finishes (more to come), accept the first admitted trajectory the panel has seen.
        onProgress: () => {
          const trajectoryId = live?.session.view.trajectoryOrder[0];
          if (!live || curatedId || !trajectoryId) return;
          curatedId = trajectoryId;
          live.session.handleMessage({ type: 'curation/accept', requestId: 'r1', trajectoryId });
        },
      });
    } finally {
      unregister?.();
      fs.rmSync(folder, { recursive: true, force: true });
    }
    assert.ok(live && curatedId, 'the panel saw an admitted trajectory while the run went on');
    await live.session.idle();
    const snapshot = live.posted.find((m) => m.type === 'session/snapshot');
    assert.ok(snapshot?.type === 'session/snapshot' && snapshot.info.canCurate && snapshot.info.live, 'curation is offered while the run goes on');
    const result = live.posted.find((m) => m.type === 'request/result');
    assert.ok(result?.type === 'request/result');
    assert.equal(result.ok, true, result.message);
    const events = readRun(runDir).events;
    const accepted = events.find((e) => e.type === 'curation/accepted');
    const finished = events.find((e) => e.type === 'run/finished');
    assert.ok(accepted && finished, 'the run finished and holds the curation');
    assert.ok(accepted.seq < finished.seq, `accepted at seq ${accepted.seq}, while the run went on (finished at ${finished.seq})`);
    const reader = RunStore.open(runDir);
    stores.push(reader);
    assert.equal(reader.state.trajectories.get(curatedId)?.curation, 'accepted');
    // The run's end is announced: curation stays possible, now through a writer of the panel's own.
    const lastInfo = live.posted.filter((m) => m.type === 'session/info').at(-1);
    assert.ok(lastInfo?.type === 'session/info' && lastInfo.info.canCurate && !lastInfo.info.live);
  });

  it('opens on a run not created yet: the pool, then the run from its first event; Stop and Export answer', async () => {
    const runDir = path.join(dir, 'pending');
    let stopped = 0;
    const unregister = registerRunStopper(runDir, () => stopped++);
    const changes: string[][] = [];
    const { session, posted } = open(runDir, {
      pending: true,
      exportRun: async () => ({ ok: true, message: 'Exported 3 examples.' }),
      onRunEvents: (types) => changes.push(types),
    });
    session.setPool({ phase: 'families', familiesDone: 2, familiesTotal: 10, candidates: 7, checked: 0, valid: 0, rejected: 0 });
    session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const snapshot = posted[0];
    assert.equal(snapshot.type, 'session/snapshot');
    if (snapshot.type !== 'session/snapshot') return;
    assert.equal(snapshot.events.length, 0);
    assert.equal(snapshot.pool?.candidates, 7, 'the snapshot carries the pool so far');
    assert.equal(snapshot.info.canStop, true);
    assert.equal(snapshot.info.live, true);
    session.setPool({ phase: 'validating', familiesDone: 10, familiesTotal: 10, candidates: 30, checked: 5, valid: 4, rejected: 1 });
    assert.deepEqual(posted.at(-1), { type: 'session/pool', pool: { phase: 'validating', familiesDone: 10, familiesTotal: 10, candidates: 30, checked: 5, valid: 4, rejected: 1 } });
    // The run appears: its events arrive as patches, and state events reach onRunEvents.
    const { store } = writeGeneratedRun(runDir, { tasks: 1, nodesPerTask: 10, keepOpen: true });
    stores.push(store);
    store.append({ type: 'run/cancelled', tasksFinished: 1 });
    await waitFor('the run to be followed', () => (session.view.status === 'cancelled' ? true : undefined));
    assert.ok(changes.flat().includes('run/started') && changes.flat().includes('run/cancelled'), `run changes: ${changes.join(' | ')}`);
    session.handleMessage({ type: 'run/stop', requestId: 'r1' });
    assert.equal(stopped, 1);
    assert.deepEqual(posted.find((m) => m.type === 'request/result' && m.requestId === 'r1'), { type: 'request/result', requestId: 'r1', ok: true, message: 'Stopping the synthesis…' });
    unregister();
    session.handleMessage({ type: 'run/stop', requestId: 'r2' });
    assert.equal(stopped, 1, 'nothing to stop once the synthesis ended');
    session.handleMessage({ type: 'run/export', requestId: 'r3' });
    await waitFor('the export answer', () => posted.find((m) => m.type === 'request/result' && m.requestId === 'r3'));
    assert.deepEqual(posted.find((m) => m.type === 'request/result' && m.requestId === 'r3'), { type: 'request/result', requestId: 'r3', ok: true, message: 'Exported 3 examples.' });
  });

  it('tells the panel when a writer in another process dies without a word (its lock left behind)', async () => {
    const runDir = path.join(dir, 'orphaned');
    writeGeneratedRun(runDir, { tasks: 1, nodesPerTask: 8 });
    const writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(path.join(runDir, RUN_FILES.lock), JSON.stringify({ pid: writer.pid, hostname: os.hostname(), acquiredAt: new Date().toISOString() }));
      const changes: string[][] = [];
      const { session, posted } = open(runDir, { livenessMs: 30, onRunEvents: (types) => changes.push(types) });
      session.handleMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
      const first = posted[0];
      assert.ok(first.type === 'session/snapshot' && first.info.live && !first.info.canCurate, 'another live process writes it');
      await sleep(100);
      writer.kill('SIGKILL');
      await new Promise((resolve) => writer.once('exit', resolve));
      const info = await waitFor('the panel to hear the writer is gone', () => posted.find((m) => m.type === 'session/info' && !m.info.live));
      assert.ok(info.type === 'session/info' && info.info.canCurate, 'curation is possible again');
      assert.deepEqual(changes.at(-1), ['writer/stopped'], 'the Runs view hears of it too');
    } finally {
      writer.kill('SIGKILL');
    }
  });
});
