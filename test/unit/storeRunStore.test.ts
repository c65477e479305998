import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  EventValidationError,
  isKnownEvent,
  listRuns,
  newRunId,
  readRun,
  rebuildState,
  renderSnapshots,
  resumePlan,
  RunLockedError,
  RunStore,
  unfinishedTasks,
  type RunEvent,
  type RunEventInput,
} from '../../src/core/store';
import type { TaskSpec } from '../../src/core/taskpool/types';

const STORE_MODULE = path.resolve(__dirname, '../../src/core/store/index.js');

function makeTask(id: string): TaskSpec {
  return {
    id,
    family: 'top-k-by-group',
    question: `Which region has the highest revenue? (${id})`,
    answer: { type: 'string', value: 'West' },
    evidence: [{ tool: 'run_sql', code: 'SELECT region, SUM(amount) FROM orders GROUP BY 1', purpose: 'sum by region' }],
    difficulty: { steps: 1, tables: 1, joins: 0, aggregation: true, window: false, python: false, level: 'easy' },
    tables: ['orders'],
  };
}

function fixedClock(start = Date.parse('2026-01-02T03:04:05.000Z')): () => Date {
  let tick = 0;
  return () => new Date(start + 1000 * tick++);
}

/** A small but complete run: two tasks, a tree with an error and a repair, admissions, curation, spend. */
function scriptedEvents(): RunEventInput[] {
  return [
    { type: 'task/added', task: makeTask('t1') },
    { type: 'task/added', task: makeTask('t2') },
    { type: 'node/added', taskId: 't1', nodeId: 'n0', parentId: null, status: 'open', depth: 0 },
    // A field a newer explorer adds survives the round trip (the schemas are loose).
    {
      type: 'node/added',
      taskId: 't1',
      nodeId: 'n1',
      parentId: 'n0',
      status: 'error',
      depth: 1,
      toolCall: { id: 'c1', name: 'run_sql', arguments: JSON.stringify({ query: 'SELECT reigon FROM orders' }) },
      config: { provider: 'offline-sim', model: 'sim-small', contextLength: { mode: 'full' }, simulated: true },
      costUsd: 0.0012,
      tokens: { prompt: 800, completion: 40 },
      latencyMs: 310,
      observationSummary: 'no such column: reigon',
      operatorHint: 'explorer-owned extra field',
    } as RunEventInput,
    { type: 'lcm/decision', taskId: 't1', nodeId: 'n1', k: 2, arms: ['offline-sim/sim-small/full/repair', 'offline-sim/sim-large/full/repair'], mu: [0.4, 0.6], sigma: [0.2, 0.1] },
    { type: 'node/added', taskId: 't1', nodeId: 'n2', parentId: 'n1', status: 'repaired', depth: 2, costUsd: 0.002 },
    { type: 'node/added', taskId: 't1', nodeId: 'n3', parentId: 'n2', status: 'terminal', depth: 3 },
    { type: 'node/updated', taskId: 't1', nodeId: 'n3', status: 'verified', visits: 3, value: 0.9, reward: 1 },
    { type: 'node/updated', taskId: 't1', nodeId: 'n0', visits: 4, value: 0.7 },
    { type: 'budget/spent', taskId: 't1', costUsd: 0.0032, tokens: { prompt: 1600, completion: 90 }, calls: 3 },
    {
      type: 'trajectory/admitted',
      trajectoryId: 't1/n3',
      taskId: 't1',
      nodePath: ['n0', 'n1', 'n2', 'n3'],
      quality: 0.95,
      verified: true,
      answer: 'West',
      hasRepair: true,
      tags: ['repaired-error'],
    },
    { type: 'trajectory/rejected', taskId: 't1', reason: 'premature-answer' },
    { type: 'task/finished', taskId: 't1', reason: 'solved', bestQuality: 0.95 },
    { type: 'node/added', taskId: 't2', nodeId: 'n0', parentId: null, status: 'open' },
    { type: 'budget/spent', taskId: 't2', costUsd: 0.001, calls: 1 },
    { type: 'curation/pruned', trajectoryId: 't1/n3', note: 'too long' },
    { type: 'curation/accepted', trajectoryId: 't1/n3' },
    // A resumed task re-adding what it already wrote: ignored, not duplicated.
    { type: 'task/added', task: makeTask('t1') },
    { type: 'trajectory/admitted', trajectoryId: 't1/n3', taskId: 't1', nodePath: ['n0'], quality: 0.1, verified: false },
    { type: 'run/error', message: 'provider timed out', taskId: 't2' },
  ];
}

describe('store: RunStore', function () {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-store-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('makes sortable, unique run ids and the documented folder layout', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add(newRunId(new Date(Date.parse('2026-05-01T00:00:00Z') + i)));
    assert.equal(ids.size, 200);
    const sorted = [...ids].sort();
    assert.equal(sorted[0].slice(0, 19), '20260501T000000000Z');
    assert.match(sorted[199], /^20260501T000000199Z-[0-9a-f]{6}$/);

    const store = RunStore.create(root, { dataFolder: root, seed: 7, config: { tasks: 2 }, toolVersion: '0.1.0' });
    try {
      assert.equal(store.runDir, path.join(root, '.toffee', 'runs', store.runId));
      const meta = JSON.parse(fs.readFileSync(path.join(store.runDir, 'run.json'), 'utf8'));
      assert.deepEqual(
        { runId: meta.runId, seed: meta.seed, config: meta.config, toolVersion: meta.toolVersion, dataFolder: meta.dataFolder },
        { runId: store.runId, seed: 7, config: { tasks: 2 }, toolVersion: '0.1.0', dataFolder: root },
      );
      assert.ok(fs.existsSync(path.join(store.runDir, 'events.lock')));
      const first = readRun(store.runDir).events[0];
      assert.equal(first.type, 'run/started');
      assert.equal(first.seq, 1);
    } finally {
      store.close();
    }
    assert.ok(!fs.existsSync(path.join(store.runDir, 'events.lock')), 'close releases the lock');
    assert.throws(() => RunStore.create(root, { dataFolder: root, runId: store.runId }), /already exists/);
    assert.throws(() => RunStore.create(root, { dataFolder: root, runId: '../escape' }), /invalid run id/);
  });

  it('round-trips events: envelope, payload, extra fields, unknown types kept and skipped', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'rt', toolVersion: 'test' }, { now: fixedClock() });
    const appended = store.appendMany(scriptedEvents());
    store.close();

    const eventsPath = path.join(store.runDir, 'events.jsonl');
    // A newer version wrote an event type this one does not know.
    fs.appendFileSync(eventsPath, JSON.stringify({ v: 1, seq: appended.length + 2, ts: '2026-01-02T03:05:00.000Z', type: 'prefix/hit', calls: 3 }) + '\n');
    fs.appendFileSync(eventsPath, JSON.stringify({ v: 2, seq: appended.length + 3, ts: '2026-01-02T03:05:01.000Z', type: 'node/added', shape: 'new' }) + '\n');

    const result = readRun(store.runDir);
    assert.deepEqual(result.issues, []);
    assert.equal(result.events.length, appended.length + 1);
    assert.deepEqual(result.events.slice(1), appended);
    const node = result.events.find((event) => event.type === 'node/added' && event.nodeId === 'n1');
    assert.ok(node && node.type === 'node/added');
    assert.equal((node as unknown as Record<string, unknown>).operatorHint, 'explorer-owned extra field');
    assert.equal(node.ts, '2026-01-02T03:04:07.000Z', 'createdAt, run/started, then the batch: one clock reading each');
    assert.deepEqual(
      result.unknownEvents.map((event) => [event.type, event.v, event.seq]),
      [
        ['prefix/hit', 1, appended.length + 2],
        ['node/added', 2, appended.length + 3],
      ],
    );
    assert.equal(result.lastSeq, appended.length + 3);

    const state = RunStore.open(store.runDir).state;
    assert.equal(state.unknownEvents, 2);
    assert.equal(state.lastSeq, appended.length + 3);
    assert.equal(state.nodeCount, 5, 'the v2 node/added is not interpreted');
  });

  it('rejects an invalid event with a clear error and writes nothing', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'bad' });
    try {
      const sizeBefore = fs.statSync(store.eventsPath).size;
      assert.throws(
        () => store.append({ type: 'trajectory/admitted', trajectoryId: 'x', taskId: 't', nodePath: [], quality: 1.5, verified: true }),
        (error: unknown) => error instanceof EventValidationError && /quality/.test(error.message),
      );
      assert.throws(() => store.append({ type: 'nope/never' } as unknown as RunEventInput), /unknown event type "nope\/never"/);
      // A batch with one bad event writes none of it.
      assert.throws(() => store.appendMany([{ type: 'run/finished' }, { type: 'node/updated', taskId: '', nodeId: 'n' }]), /taskId/);
      assert.equal(fs.statSync(store.eventsPath).size, sizeBefore);
      assert.equal(store.append({ type: 'run/finished' }).seq, 2);
    } finally {
      store.close();
    }
  });

  it('keeps seq gap-free across close and reopen, and continues the state', () => {
    const created = RunStore.create(root, { dataFolder: root, runId: 'seq' });
    const runDir = created.runDir;
    assert.throws(() => RunStore.open(runDir, { writable: true }), /already open for writing in this process/);
    created.close();
    for (let round = 0; round < 3; round++) {
      const store = RunStore.open(runDir, { writable: true });
      const before = store.lastSeq;
      const events = store.appendMany([{ type: 'task/added', task: makeTask(`r${round}`) }, { type: 'budget/spent', costUsd: 0.5 }]);
      store.append({ type: 'budget/spent', costUsd: 0.25, taskId: `r${round}` });
      assert.deepEqual(events.map((event) => event.seq), [before + 1, before + 2]);
      store.close();
    }
    const seqs = readRun(runDir).events.map((event) => event.seq);
    assert.deepEqual(seqs, Array.from({ length: 10 }, (_, index) => index + 1));
    const state = RunStore.open(runDir).state;
    assert.equal(state.tasks.size, 3);
    assert.equal(state.spend.totalUsd, 2.25);
  });

  it('honours the durability contract: write then fsync before append returns, one fsync per batch', () => {
    const calls: string[] = [];
    const fileOps = {
      writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number) => {
        calls.push('write');
        return fs.writeSync(fd, buffer, offset, length);
      },
      fsyncSync: (fd: number) => {
        calls.push('fsync');
        fs.fsyncSync(fd);
      },
    };
    const store = RunStore.create(root, { dataFolder: root, runId: 'durable' }, { fileOps });
    try {
      calls.length = 0;
      for (let i = 0; i < 5; i++) {
        const event = store.append({ type: 'budget/spent', costUsd: i });
        // Visible through an independent read the moment append returns.
        const onDisk = fs.readFileSync(store.eventsPath, 'utf8').trimEnd().split('\n').pop()!;
        assert.equal(JSON.parse(onDisk).seq, event.seq);
      }
      assert.deepEqual(calls, Array(5).fill(['write', 'fsync']).flat());
      calls.length = 0;
      store.appendMany(Array.from({ length: 50 }, (_, i): RunEventInput => ({ type: 'budget/spent', costUsd: i })));
      assert.deepEqual(calls, ['write', 'fsync']);
    } finally {
      store.close();
    }

    // A failed fsync is not swallowed: the append throws and the store refuses further appends.
    const failing = {
      writeSync: fileOps.writeSync,
      fsyncSync: () => {
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
    };
    const runDir = path.join(root, 'failing');
    fs.mkdirSync(runDir);
    fs.writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({ formatVersion: 1, runId: 'failing', createdAt: 'x', dataFolder: root, toolVersion: 't' }));
    fs.writeFileSync(path.join(runDir, 'events.jsonl'), '');
    const broken = RunStore.open(runDir, { writable: true, fileOps: failing });
    try {
      assert.throws(() => broken.append({ type: 'run/finished' }), /EIO/);
      assert.throws(() => broken.append({ type: 'run/finished' }), /an earlier write failed/);
      assert.equal(broken.lastSeq, 0, 'an event whose fsync failed is not applied to the state');
    } finally {
      broken.close();
    }
  });

  it('detects a torn last line, keeps everything before it, truncates it on the next writable open', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'torn' });
    store.appendMany(scriptedEvents());
    const lastSeq = store.lastSeq;
    store.close();
    const eventsPath = store.eventsPath;
    const goodBytes = fs.statSync(eventsPath).size;
    fs.appendFileSync(eventsPath, `{"v":1,"seq":${lastSeq + 1},"ts":"2026-01-01T00:00:00.000Z","type":"node/add`);

    const readOnly = RunStore.open(store.runDir);
    assert.equal(readOnly.state.lastSeq, lastSeq);
    assert.equal(readOnly.recovery.issues.length, 1);
    const [issue] = readOnly.recovery.issues;
    assert.equal(issue.kind, 'torn-tail');
    assert.equal(issue.severity, 'warning');
    assert.equal(issue.line, lastSeq + 1);
    assert.ok(fs.statSync(eventsPath).size > goodBytes, 'a read-only open does not modify the log');

    const tornBytes = fs.statSync(eventsPath).size - goodBytes;
    const writer = RunStore.open(store.runDir, { writable: true });
    try {
      assert.equal(writer.recovery.truncatedBytes, tornBytes);
      assert.equal(fs.statSync(eventsPath).size, goodBytes);
      assert.equal(writer.append({ type: 'run/finished' }).seq, lastSeq + 1);
    } finally {
      writer.close();
    }
    const after = readRun(store.runDir);
    assert.deepEqual(after.issues, []);
    assert.deepEqual(after.events.map((event) => event.seq), Array.from({ length: lastSeq + 1 }, (_, i) => i + 1));
  });

  it('reports a corrupt middle line with its line number and rebuilds from the rest', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'corrupt' });
    store.appendMany(scriptedEvents());
    store.close();
    const lines = fs.readFileSync(store.eventsPath, 'utf8').split('\n');
    const victim = lines.findIndex((line) => line.includes('"nodeId":"n2"') && line.includes('node/added'));
    lines[victim] = lines[victim].slice(0, 60) + '#garbage#';
    lines[victim + 2] = JSON.stringify({ v: 1, seq: victim + 3, ts: '2026-01-01T00:00:00.000Z', type: 'node/updated', taskId: 't1' }); // nodeId missing
    fs.writeFileSync(store.eventsPath, lines.join('\n'));

    const result = readRun(store.runDir);
    assert.deepEqual(
      result.issues.map((issue) => [issue.kind, issue.line, issue.severity]),
      [
        ['corrupt-line', victim + 1, 'error'],
        ['seq-gap', victim + 2, 'warning'],
        ['corrupt-line', victim + 3, 'error'],
        ['seq-gap', victim + 4, 'warning'],
      ],
    );
    assert.match(result.issues[0].message, new RegExp(`line ${victim + 1}: corrupt event`));
    assert.match(result.issues[2].message, /nodeId/);
    const state = rebuildState(result.events);
    assert.ok(!state.nodes.get('t1')!.has('n2'));
    assert.ok(state.nodes.get('t1')!.has('n3'), 'events after the corrupt line still count');
    assert.equal(state.trajectories.get('t1/n3')?.curation, 'accepted');

    // A writer continues after the last good seq; the corrupt lines stay reported, nothing is rewritten.
    const writer = RunStore.open(store.runDir, { writable: true });
    try {
      assert.equal(writer.recovery.truncatedBytes, 0);
      assert.equal(writer.append({ type: 'run/finished' }).seq, result.lastSeq + 1);
    } finally {
      writer.close();
    }
  });

  it('rebuild() from the log equals the state kept incrementally, and resume needs are derivable', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'rebuild', seed: 3 });
    try {
      for (const input of scriptedEvents()) store.append(input);
      const rebuilt = store.rebuild();
      assert.deepEqual(rebuilt, store.state);
      assert.deepEqual(RunStore.open(store.runDir).state, store.state);

      const state = store.state;
      assert.deepEqual([...state.tasks.keys()], ['t1', 't2']);
      assert.equal(state.duplicatesIgnored, 2);
      assert.equal(state.nodes.get('t1')!.get('n3')!.status, 'verified');
      assert.equal(state.nodes.get('t1')!.get('n3')!.visits, 3);
      assert.equal(state.nodes.get('t1')!.get('n0')!.status, 'open', 'an update without a status keeps it');
      assert.equal(state.trajectories.size, 1);
      const trajectory = state.trajectories.get('t1/n3')!;
      assert.equal(trajectory.quality, 0.95, 'the first admission wins');
      assert.equal(trajectory.curation, 'accepted');
      assert.equal(trajectory.curationNote, undefined);
      assert.equal(state.rejections.get('premature-answer'), 1);
      assert.ok(Math.abs(state.spend.totalUsd - 0.0042) < 1e-12);
      assert.equal(state.spend.calls, 4);
      assert.equal(state.spend.promptTokens, 1600);
      assert.equal(state.decisions.length, 1);
      assert.equal(state.errors[0].message, 'provider timed out');
      assert.deepEqual(unfinishedTasks(state).map((task) => task.id), ['t2']);
      const plan = resumePlan(state);
      assert.deepEqual(plan.tasksToRun.map((task) => task.id), ['t2']);
      assert.deepEqual([...plan.admittedTrajectoryIds], ['t1/n3']);
      assert.equal(plan.spentUsdByTask.get('t2'), 0.001);
      assert.equal(plan.alreadyFinished, false);
    } finally {
      store.close();
    }
  });

  it('writes tasks.jsonl and trajectories.jsonl that regenerate identically from the events', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'derived' });
    store.appendMany(scriptedEvents());
    store.close();
    const tasksText = fs.readFileSync(path.join(store.runDir, 'tasks.jsonl'), 'utf8');
    const trajectoriesText = fs.readFileSync(path.join(store.runDir, 'trajectories.jsonl'), 'utf8');
    assert.deepEqual(tasksText.trimEnd().split('\n').map((line) => JSON.parse(line).id), ['t1', 't2']);
    const [trajectory] = trajectoriesText.trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.equal(trajectory.trajectoryId, 't1/n3');
    assert.equal(trajectory.curation, 'accepted');
    assert.deepEqual(trajectory.nodePath, ['n0', 'n1', 'n2', 'n3']);

    // Delete them; regenerate from events alone (another process, no store state).
    fs.rmSync(path.join(store.runDir, 'tasks.jsonl'));
    fs.rmSync(path.join(store.runDir, 'trajectories.jsonl'));
    const regenerated = renderSnapshots(rebuildState(readRun(store.runDir).events));
    assert.equal(regenerated.tasks, tasksText);
    assert.equal(regenerated.trajectories, trajectoriesText);
    const writer = RunStore.open(store.runDir, { writable: true });
    writer.close();
    assert.equal(fs.readFileSync(path.join(store.runDir, 'trajectories.jsonl'), 'utf8'), trajectoriesText);
    assert.deepEqual(fs.readdirSync(store.runDir).filter((name) => name.includes('.tmp-')), [], 'no temp files left');
  });

  it('delivers appended events to onEvent listeners after they are durable; a throwing listener does not break appends', () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'listen' }, { onListenerError: (error) => errors.push(error) });
    const errors: unknown[] = [];
    const seen: RunEvent[] = [];
    const subscription = store.onEvent((event) => {
      const lastLine = fs.readFileSync(store.eventsPath, 'utf8').trimEnd().split('\n').pop()!;
      assert.ok(JSON.parse(lastLine).seq >= event.seq);
      seen.push(event);
    });
    store.onEvent(() => {
      throw new Error('listener bug');
    });
    store.appendMany([{ type: 'task/added', task: makeTask('a') }, { type: 'budget/spent', costUsd: 1 }]);
    subscription.dispose();
    store.append({ type: 'run/finished' });
    store.close();
    assert.deepEqual(seen.map((event) => event.seq), [2, 3]);
    assert.equal(errors.length, 3);
  });

  it('lists runs with summaries, newest first, including an unreadable folder', () => {
    const older = RunStore.create(root, { dataFolder: root }, { now: () => new Date('2026-01-01T00:00:00Z') });
    older.appendMany(scriptedEvents());
    older.append({ type: 'run/finished' });
    older.close();
    const newer = RunStore.create(root, { dataFolder: root }, { now: () => new Date('2026-02-01T00:00:00Z') });
    newer.append({ type: 'task/added', task: makeTask('only') });
    fs.mkdirSync(path.join(root, '.toffee', 'runs', 'junk'));
    try {
      const runs = listRuns(root);
      assert.deepEqual(runs.map((run) => run.runId), [newer.runId, older.runId, 'junk']);
      assert.equal(runs[0].status, 'running', 'a live writer holds the newer run');
      assert.equal(runs[0].tasks, 1);
      assert.equal(runs[1].status, 'finished');
      assert.equal(runs[1].admittedTrajectories, 1);
      assert.equal(runs[1].acceptedTrajectories, 1);
      assert.equal(runs[1].finishedTasks, 1);
      assert.equal(runs[1].nodes, 5);
      assert.ok(runs[1].spentUsd > 0.004);
      assert.equal(runs[2].status, 'unreadable');
      assert.match(runs[2].problems[0], /run\.json is missing/);
    } finally {
      newer.close();
    }
    assert.equal(listRuns(root)[0].status, 'interrupted');
    assert.deepEqual(listRuns(path.join(root, 'nothing-here')), []);
  });

  describe('writer lock', () => {
    let holder: ChildProcess | undefined;
    afterEach(() => {
      if (holder && holder.exitCode === null) holder.kill('SIGKILL');
      holder = undefined;
    });

    it('takes over a stale lock left by a dead process', () => {
      const store = RunStore.create(root, { dataFolder: root, runId: 'stale' });
      store.close();
      // A real pid that is certainly dead: a child that has exited.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const deadPid = Number(dead.stdout);
      assert.ok(deadPid > 0);
      const lockPath = path.join(store.runDir, 'events.lock');
      fs.writeFileSync(lockPath, JSON.stringify({ pid: deadPid, hostname: os.hostname(), token: 'dead', acquiredAt: 'then' }));
      const writer = RunStore.open(store.runDir, { writable: true });
      try {
        assert.equal(writer.recovery.tookOverFrom?.pid, deadPid);
        assert.equal(JSON.parse(fs.readFileSync(lockPath, 'utf8')).pid, process.pid);
        assert.equal(writer.append({ type: 'run/finished' }).seq, 2);
      } finally {
        writer.close();
      }
      assert.ok(!fs.existsSync(lockPath));
      assert.deepEqual(fs.readdirSync(store.runDir).filter((name) => name.includes('stale-')), []);
    });

    it('refuses a lock held by a live process, then opens once it is gone', async () => {
      const store = RunStore.create(root, { dataFolder: root, runId: 'live' });
      store.close();
      const script = `
        const { RunStore } = require(process.argv[1]);
        const store = RunStore.open(process.argv[2], { writable: true });
        store.append({ type: 'budget/spent', costUsd: 1 });
        process.stdout.write('locked\\n');
        setInterval(() => {}, 1000);
      `;
      holder = spawn(process.execPath, ['-e', script, STORE_MODULE, store.runDir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        holder!.stdout!.on('data', (data: Buffer) => data.toString().includes('locked') && resolve());
        holder!.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
      });
      assert.throws(
        () => RunStore.open(store.runDir, { writable: true }),
        (error: unknown) =>
          error instanceof RunLockedError && error.holder?.pid === holder!.pid && /live process \d+/.test(error.message),
      );
      // Reading a locked run is always allowed.
      assert.equal(RunStore.open(store.runDir).state.spend.totalUsd, 1);
      const exited = new Promise((resolve) => holder!.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      const writer = RunStore.open(store.runDir, { writable: true });
      try {
        assert.equal(writer.recovery.tookOverFrom?.pid, holder.pid);
        assert.equal(writer.append({ type: 'run/finished' }).seq, 3);
      } finally {
        writer.close();
      }
    });
  });

  it('measures append throughput (fsync per event vs batched)', function () {
    this.timeout(120000);
    const store = RunStore.create(root, { dataFolder: root, runId: 'throughput' }, { autoSnapshots: false });
    try {
      const event = (i: number): RunEventInput => ({
        type: 'node/added',
        taskId: 't1',
        nodeId: `n${i}`,
        parentId: i === 0 ? null : `n${i - 1}`,
        status: 'open',
        costUsd: 0.001,
        tokens: { prompt: 900, completion: 60 },
        observationSummary: 'region | revenue\nWest | 1200.5\nEast | 980.25',
      });
      const single = 300;
      let start = process.hrtime.bigint();
      for (let i = 0; i < single; i++) store.append(event(i));
      const perEventSeconds = Number(process.hrtime.bigint() - start) / 1e9;
      const batches = 100;
      const batchSize = 50;
      start = process.hrtime.bigint();
      for (let b = 0; b < batches; b++) {
        store.appendMany(Array.from({ length: batchSize }, (_, i) => event(single + b * batchSize + i)));
      }
      const batchedSeconds = Number(process.hrtime.bigint() - start) / 1e9;
      const perEventRate = single / perEventSeconds;
      const batchedRate = (batches * batchSize) / batchedSeconds;
      console.log(
        `      append throughput: ${perEventRate.toFixed(0)} events/s with fsync per event; ` +
          `${batchedRate.toFixed(0)} events/s batched (${batchSize}/fsync)`,
      );
      assert.equal(store.lastSeq, 1 + single + batches * batchSize);
      assert.ok(batchedRate > perEventRate, 'batching amortises fsync');
    } finally {
      store.close();
    }
  });

  it('streams events asynchronously from disk in order', async () => {
    const store = RunStore.create(root, { dataFolder: root, runId: 'iterate' });
    try {
      store.appendMany(scriptedEvents());
      const seqs: number[] = [];
      for await (const event of store) {
        assert.ok(isKnownEvent(event));
        seqs.push(event.seq);
      }
      assert.deepEqual(seqs, Array.from({ length: store.lastSeq }, (_, i) => i + 1));
    } finally {
      store.close();
    }
  });
});
