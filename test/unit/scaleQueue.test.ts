import * as assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../../src/core/lcm/index';
import { OFFLINE_SIM_PROVIDER_ID } from '../../src/core/sim/models';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import { synthesize } from '../../src/core/run/synthesize';
import { collectRun, publishRun } from '../../src/core/scale/coordinator';
import { connectRedis, parseRunSpec, runSpecKey } from '../../src/core/scale/queue';
import { writeRunCostModels } from '../../src/core/run/runCostModel';
import { startWorker, type RunningWorker } from '../../src/core/scale/worker';
import { readRun, RunStore } from '../../src/core/store/RunStore';
import { rebuildState, type RunState } from '../../src/core/store/runState';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { MockOpenAiServer } from '../support/mockOpenAiServer';
import { startRedis, type TestRedis } from '../support/redisServer';
import { addOrdersArchive, ordersMeanTask, plantAmbiguous, plantWrongAnchor } from './revisionPlants';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'media', 'samples', 'retail');
const TASKS = '3';
const SEED = '7';

/** What must not depend on the execution mode: per admitted trajectory its task, tool calls, answer and quality. */
function canonicalTrajectories(runDir: string): unknown[] {
  return fs
    .readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { trajectoryId: string; taskId: string; answer: unknown; quality: number; steps: Array<{ toolCall?: { name: string; arguments: string } }> })
    .map((t) => ({ id: t.trajectoryId, task: t.taskId, answer: t.answer, quality: t.quality, calls: t.steps.map((s) => (s.toolCall ? [s.toolCall.name, s.toolCall.arguments] : null)) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function stateOf(runDir: string): RunState {
  return rebuildState(readRun(runDir).events);
}

function finishedCounts(runDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of readRun(runDir).events) if (e.type === 'task/finished') counts.set(e.taskId, (counts.get(e.taskId) ?? 0) + 1);
  return counts;
}

/** A private copy of the sample: each run writes its environment cost model under the data folder. */
function sampleCopy(scratch: string, name: string): string {
  const dir = path.join(scratch, name);
  fs.cpSync(SAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.toffee`) });
  return dir;
}

describe('scale-out: queue mode and shards give the single-process output', function () {
  this.timeout(300_000);
  let scratch: string;
  let single: string;
  let redis: TestRedis | undefined;
  const children: ChildProcess[] = [];

  before(async () => {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-scale-'));
    redis = await startRedis();
    single = path.join(scratch, 'single');
    await run(process.execPath, [CLI, 'synthesize', sampleCopy(scratch, 'data-single'), '--tasks', TASKS, '--seed', SEED, '--out', single]);
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await redis?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('a coordinator and three worker processes, one SIGKILLed mid-task: every task once, same trajectories and cost model', async () => {
    const data = sampleCopy(scratch, 'data-queue');
    const out = path.join(scratch, 'queued');
    const logs: string[] = ['', '', ''];
    const worker = (i: number) => {
      const child = spawn(process.execPath, [CLI, 'worker', '--redis', redis!.url, '--lock-seconds', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr!.on('data', (chunk: Buffer) => (logs[i] += chunk.toString()));
      children.push(child);
      return child;
    };
    const workers = [worker(0), worker(1), worker(2)];
    // Kill worker 0 as soon as it has started a task (it has not finished it: no result line yet).
    let killedTask: string | undefined;
    const killed = new Promise<void>((resolve) => {
      const watch = setInterval(() => {
        const started = /(\S+): exploring/.exec(logs[0]);
        if (started) {
          clearInterval(watch);
          killedTask = started[1];
          workers[0].kill('SIGKILL');
          resolve();
        }
      }, 5);
    });
    const coordinator = run(process.execPath, [CLI, 'enqueue', data, '--redis', redis!.url, '--tasks', TASKS, '--seed', SEED, '--out', out, '--json'], { maxBuffer: 16 << 20 });
    await killed;
    const { stdout } = await coordinator;
    const summary = JSON.parse(stdout) as { tasks: number; tasksFinished: number; duplicates: number; failed: string[] };
    for (const w of workers.slice(1)) w.kill('SIGTERM');

    assert.ok(killedTask, 'worker 0 started a task');
    assert.doesNotMatch(logs[0], new RegExp(`${killedTask}: \\d+ admitted`), 'worker 0 was killed before it finished its task');
    assert.equal(summary.tasks, Number(TASKS));
    assert.equal(summary.tasksFinished, Number(TASKS));
    assert.deepEqual(summary.failed, []);
    const counts = finishedCounts(out);
    assert.equal(counts.size, Number(TASKS));
    for (const [taskId, n] of counts) assert.equal(n, 1, `${taskId} finished once`);
    const killedBy = readRun(out).events.find((e) => e.type === 'task/finished' && e.taskId === killedTask) as { worker?: string } | undefined;
    assert.ok(killedBy?.worker && !killedBy.worker.endsWith(`:${workers[0].pid}`), 'another worker finished the killed task');
    assert.equal(stateOf(out).duplicatesIgnored, 0);
    assert.deepEqual(canonicalTrajectories(out), canonicalTrajectories(single));
    assert.ok(canonicalTrajectories(single).length > 0);
    assert.equal(stateOf(out).spend.totalUsd.toFixed(10), stateOf(single).spend.totalUsd.toFixed(10));
    assert.equal(fs.readFileSync(path.join(out, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(single, 'costModel.json'), 'utf8'));

    const status = await run(process.execPath, [CLI, 'status', '--redis', redis!.url, '--json']);
    const parsed = JSON.parse(status.stdout) as { runs: Array<{ runId: string; collected: number; tasks: number }> };
    assert.deepEqual(parsed.runs.map((r) => [r.runId, r.collected, r.tasks]), [['queued', Number(TASKS), Number(TASKS)]]);
  });

  it('a 429 backs the queue off and puts the task back; the run still equals the single-process one', async () => {
    const mock = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'text', content: 'ok' } });
    mock.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } });
    const data = sampleCopy(scratch, 'data-429');
    const out = path.join(scratch, 'limited');
    let log = '';
    const child = spawn(process.execPath, [CLI, 'worker', '--redis', redis!.url, '--latency-endpoint', mock.baseUrl, '--folder', data], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    children.push(child);
    try {
      const { stdout } = await run(process.execPath, [CLI, 'enqueue', data, '--redis', redis!.url, '--tasks', TASKS, '--seed', SEED, '--out', out, '--requests-per-minute', '6000', '--json'], { maxBuffer: 16 << 20 });
      assert.equal(JSON.parse(stdout).tasksFinished, Number(TASKS));
    } finally {
      child.kill('SIGTERM');
      await mock.close();
    }
    assert.equal(mock.chatRequests[0].answeredWith, 'error');
    assert.match(log, /rate limited; the queue backs off 1000 ms/);
    for (const [taskId, n] of finishedCounts(out)) assert.equal(n, 1, `${taskId} finished once`);
    assert.deepEqual(canonicalTrajectories(out), canonicalTrajectories(single));
  });

  it('three shards merged: the same trajectories, spend and cost model; a shard re-run skips its finished tasks', async () => {
    const data = sampleCopy(scratch, 'data-shards');
    const shards = ['0/3', '1/3', '2/3'].map((s, i) => ({ s, dir: path.join(scratch, `shard${i}`) }));
    await Promise.all(shards.map(({ s, dir }) => run(process.execPath, [CLI, 'synthesize', data, '--tasks', TASKS, '--seed', SEED, '--shard', s, '--out', dir])));
    const taskSets = shards.map(({ dir }) => [...stateOf(dir).tasks.keys()]);
    assert.equal(new Set(taskSets.flat()).size, taskSets.flat().length, 'shards are disjoint');
    assert.equal(taskSets.flat().length, Number(TASKS));

    const before = readRun(shards[0].dir).events.length;
    await run(process.execPath, [CLI, 'synthesize', data, '--tasks', TASKS, '--seed', SEED, '--shard', shards[0].s, '--out', shards[0].dir]);
    const again = readRun(shards[0].dir);
    assert.equal(again.events.filter((e) => e.type === 'node/added').length, stateOf(shards[0].dir).nodeCount);
    assert.ok(again.events.slice(before).every((e) => e.type.startsWith('run/')), 'the re-run explored nothing again');

    const merged = path.join(scratch, 'merged');
    const { stdout } = await run(process.execPath, [CLI, 'merge', merged, ...shards.map((s) => s.dir), '--json']);
    assert.deepEqual(JSON.parse(stdout).duplicateTasks, []);
    assert.deepEqual(canonicalTrajectories(merged), canonicalTrajectories(single));
    assert.equal(stateOf(merged).spend.totalUsd.toFixed(10), stateOf(single).spend.totalUsd.toFixed(10));
    assert.equal(fs.readFileSync(path.join(merged, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(single, 'costModel.json'), 'utf8'));

    // The same shard twice is a duplicate: detected, kept once.
    const dup = await run(process.execPath, [CLI, 'merge', path.join(scratch, 'merged-dup'), shards[0].dir, ...shards.map((s) => s.dir), '--json']);
    assert.deepEqual(JSON.parse(dup.stdout).duplicateTasks.sort(), taskSets[0].sort());
    assert.deepEqual(canonicalTrajectories(path.join(scratch, 'merged-dup')), canonicalTrajectories(single));
  });
});

// A trajectory the collector re-scores after a rubric-only revision is read back from the run; its document reads
// and searches are rebuilt as the tool rendered them (stepRecord.ts), so it is scored as in a single process.
describe('queue mode revises each task once, as the single-process pipeline does', function () {
  this.timeout(300_000);
  let scratch: string;
  let folder: string;
  let session: AgentSession;
  let tasks: TaskSpec[];
  let ambiguous: TaskSpec;
  let single: string;
  let redis: TestRedis | undefined;
  const connections: Redis[] = [];

  /** A run folder as `enqueue` prepares one, with the given tasks (a plant among them) and a fresh run-start model. */
  async function preparedRun(name: string): Promise<string> {
    const runDir = path.join(scratch, name);
    const store = RunStore.createInDir(runDir, { dataFolder: folder, seed: 7, config: { costModelUpdates: 0, budgetUsd: 0.05, maxK: 3, maxDepth: 10, targetAdmitted: 2, minQuality: 0.9, providers: [OFFLINE_SIM_PROVIDER_ID] } });
    store.appendMany(tasks.map((task) => ({ type: 'task/added' as const, task })));
    store.close();
    const models = await createSimulatedProvider().listModels();
    const model = new LearnedCostModel(buildDefaultArms(models, { operators: ['explore', 'repair'] }), { estimateCostUsd: createPriceCostEstimator(models) });
    await writeRunCostModels(runDir, model, model);
    return runDir;
  }

  function connect(): Redis {
    const connection = connectRedis(redis!.url);
    connections.push(connection);
    return connection;
  }

  /** Two in-process workers (so tasks finish out of pool order); closed by the caller. */
  async function workers(): Promise<RunningWorker[]> {
    return Promise.all([0, 1].map(() => startWorker({ redis: connect(), blockingRedis: connect(), providers: [createSimulatedProvider()], lockMs: 5000 })));
  }

  /** Per task its revision outcome, action and new task id: what must not depend on the execution mode. */
  function revisionOutcomes(runDir: string): Record<string, unknown> {
    const state = stateOf(runDir);
    return Object.fromEntries([...state.revisions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, r]) => [id, [r.outcome, r.action ?? null, r.revisedTaskId ?? null]]));
  }

  function revisedCounts(runDir: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of readRun(runDir).events) if (e.type === 'task/revised') counts.set(e.taskId, (counts.get(e.taskId) ?? 0) + 1);
    return counts;
  }

  /** The queue run's output equals the single-process run's: tasks, revisions, admitted trajectories, cost model. */
  function assertSameAsSingle(runDir: string): void {
    const queued = stateOf(runDir);
    const reference = stateOf(single);
    assert.deepEqual([...queued.tasks.keys()].sort(), [...reference.tasks.keys()].sort());
    assert.deepEqual([...queued.finishedTasks.keys()].sort(), [...reference.finishedTasks.keys()].sort());
    assert.deepEqual(revisionOutcomes(runDir), revisionOutcomes(single));
    const admitted = (s: RunState) => [...s.trajectories.values()].map((t) => [t.trajectoryId, t.quality]).sort();
    assert.deepEqual(admitted(queued), admitted(reference));
    assert.equal(fs.readFileSync(path.join(runDir, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(single, 'costModel.json'), 'utf8'));
    for (const [taskId, n] of finishedCounts(runDir)) assert.equal(n, 1, `${taskId} finished once`);
    const revised = revisedCounts(runDir);
    for (const taskId of queued.tasks.keys()) assert.equal(revised.get(taskId) ?? 0, taskId.endsWith('-r1') ? 0 : 1, `${taskId}: one revision, none for a re-explored question`);
  }

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-scale-revise-'));
    folder = sampleCopy(scratch, 'data');
    await addOrdersArchive(folder, scratch);
    session = await openAgentSession(folder);
    const pool = await buildTaskPool(session.toolContext, { max: 3, seed: 7 });
    // A question that does not name its table while orders_archive answers it too: revision rewrites it (a new task).
    ambiguous = plantAmbiguous(await ordersMeanTask(session.toolContext, pool.graph, pool.tasks[0]))!;
    assert.ok(ambiguous, 'the orders task can be planted as ambiguous');
    // A rubric anchor on a column the evidence never reads: revision fixes it and re-scores the trajectories.
    // A single-step task (the pool puts multi-step programs first; a short one is explored to admission surely).
    const anchored = [...pool.tasks].sort((a, b) => a.evidence.length - b.evidence.length).find((t) => plantWrongAnchor(t, session.env.profile));
    assert.ok(anchored, 'a pool task can be planted with a wrong anchor');
    tasks = [ambiguous, ...pool.tasks.map((t) => (t === anchored ? plantWrongAnchor(t, session.env.profile)! : t))];
    redis = await startRedis();
    single = await preparedRun('single');
    const summary = await synthesize({ folder, resumeDir: single, costModelFile: null, session });
    assert.equal(summary.revisions.reExplored, 1, JSON.stringify(summary.revisions));
    assert.ok(summary.revisions.reScored > 0, JSON.stringify(summary.revisions));
    assert.ok(stateOf(single).finishedTasks.has(`${ambiguous.id}-r1`), 'the single-process run explored the revised question');
  });
  after(async () => {
    for (const connection of connections) connection.disconnect();
    await session?.dispose();
    await redis?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('the collector revises finished tasks and enqueues a changed question: the same tasks and revisions as one process', async () => {
    const runDir = await preparedRun('queued');
    const coordinator = connect();
    await publishRun({ runDir, redis: coordinator, environmentCostModel: null });
    const running = await workers();
    try {
      const summary = await collectRun({ runDir, redis: coordinator, pollMs: 50 });
      assert.equal(summary.cancelled, false);
      assert.equal(summary.tasks, tasks.length + 1, 'the re-explored question counts in the total');
      assert.equal(summary.tasksFinished, tasks.length + 1);
      assert.equal(summary.revisions.reExplored, 1);
      assert.ok(summary.revisions.reScored > 0, 'a rubric-only revision re-scores the trajectories the collector wrote');
      assert.equal(summary.duplicates, 0);
    } finally {
      await Promise.all(running.map((w) => w.close()));
    }
    assertSameAsSingle(runDir);
    const spec = parseRunSpec(await coordinator.get(runSpecKey(path.basename(runDir))), path.basename(runDir));
    assert.equal(spec.tasks, tasks.length + 1, 'status shows the re-explored question');
  });

  it('a collector stopped after a task finished but before its revision: the restarted one revises it exactly once', async () => {
    const runDir = await preparedRun('restarted');
    const coordinator = connect();
    await publishRun({ runDir, redis: coordinator, environmentCostModel: null });
    const running = await workers();
    try {
      const stop = new AbortController();
      const first = await collectRun({
        runDir,
        redis: coordinator,
        pollMs: 50,
        signal: stop.signal,
        // The line a collector writes once a task's events are in the store, before it revises the task.
        onProgress: (line) => {
          if (line.startsWith('[') && line.includes(` ${ambiguous.id}: `)) stop.abort();
        },
      });
      assert.equal(first.cancelled, true);
      const stopped = stateOf(runDir);
      assert.ok(stopped.finishedTasks.has(ambiguous.id), 'the task finished before the stop');
      assert.equal(stopped.revisions.has(ambiguous.id), false, 'and was not revised');
      assert.equal(stopped.tasks.has(`${ambiguous.id}-r1`), false);

      const second = await collectRun({ runDir, redis: coordinator, pollMs: 50 });
      assert.equal(second.cancelled, false);
      assert.equal(second.tasksFinished, tasks.length + 1);
      assert.equal(second.duplicates, 0);
    } finally {
      await Promise.all(running.map((w) => w.close()));
    }
    assertSameAsSingle(runDir);
    const revisedAfterRestart = readRun(runDir).events.find((e) => e.type === 'task/revised' && e.taskId === ambiguous.id)!;
    const finishedBefore = readRun(runDir).events.find((e) => e.type === 'task/finished' && e.taskId === ambiguous.id)!;
    assert.ok(revisedAfterRestart.seq > finishedBefore.seq);
    // A third collector finds nothing to revise or explore.
    const before = readRun(runDir).events.filter((e) => e.type !== 'run/finished').length;
    await collectRun({ runDir, redis: coordinator, pollMs: 50 });
    assert.equal(readRun(runDir).events.filter((e) => e.type !== 'run/finished').length, before);
  });
});
