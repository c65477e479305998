import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../../src/core/lcm/index';
import { OFFLINE_SIM_PROVIDER_ID } from '../../src/core/sim/models';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import type { TaskCounts } from '../../src/core/run/inFlight';
import { writeRunCostModels } from '../../src/core/run/runCostModel';
import { synthesize } from '../../src/core/run/synthesize';
import { explorationLengthEstimate } from '../../src/core/run/taskLength';
import { withLatencyEndpoint } from '../../src/core/scale/rateLimit';
import { readRun, RunStore } from '../../src/core/store/RunStore';
import { rebuildState, type RunState } from '../../src/core/store/runState';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { MockOpenAiServer, type MockBehaviour } from '../support/mockOpenAiServer';
import { addOrdersArchive, ordersMeanTask, plantAmbiguous, plantWrongAnchor } from './revisionPlants';

const SAMPLE = path.resolve(__dirname, '../../..', 'media', 'samples', 'retail');
const SEED = 7;

function stateOf(runDir: string): RunState {
  return rebuildState(readRun(runDir).events);
}

/** Per admitted trajectory its task, tool calls, answer and quality: what must not depend on C. */
function canonicalTrajectories(runDir: string): unknown[] {
  return fs
    .readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { trajectoryId: string; taskId: string; answer: unknown; quality: number; steps: Array<{ toolCall?: { name: string; arguments: string } }> })
    .map((t) => ({ id: t.trajectoryId, task: t.taskId, answer: t.answer, quality: t.quality, calls: t.steps.map((s) => (s.toolCall ? [s.toolCall.name, s.toolCall.arguments] : null)) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The run's tasks in the order the log added them (a re-explored question included) and their revision outcomes. */
function tasksAndRevisions(runDir: string): unknown {
  const state = stateOf(runDir);
  return { tasks: [...state.tasks.keys()], revisions: [...state.revisions].map(([id, r]) => [id, r.outcome, r.action ?? null, r.revisedTaskId ?? null]).sort() };
}

/** The most tasks that had begun writing nodes and not yet finished, at any point of the log. */
function mostTasksOpenInLog(runDir: string): number {
  const open = new Set<string>();
  let most = 0;
  for (const e of readRun(runDir).events) {
    if (e.type === 'node/added') open.add(e.taskId);
    if (e.type === 'task/finished') open.delete(e.taskId);
    most = Math.max(most, open.size);
  }
  return most;
}

describe('run: tasks in flight give the sequential run', function () {
  this.timeout(600_000);
  let scratch: string;
  let folder: string;
  let session: AgentSession;
  let tasks: TaskSpec[];
  const runs = new Map<number, string>();

  /** A run folder with the given tasks and a fresh run-start model; synthesize resumes it. */
  async function preparedRun(name: string): Promise<string> {
    const runDir = path.join(scratch, name);
    const store = RunStore.createInDir(runDir, { dataFolder: folder, seed: SEED, config: { costModelUpdates: 0, budgetUsd: 0.05, maxK: 3, maxDepth: 10, targetAdmitted: 2, minQuality: 0.9, providers: [OFFLINE_SIM_PROVIDER_ID] } });
    store.appendMany(tasks.map((task) => ({ type: 'task/added' as const, task })));
    store.close();
    const models = await createSimulatedProvider().listModels();
    const model = new LearnedCostModel(buildDefaultArms(models, { operators: ['explore', 'repair'] }), { estimateCostUsd: createPriceCostEstimator(models) });
    await writeRunCostModels(runDir, model, model);
    return runDir;
  }

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-inflight-'));
    folder = path.join(scratch, 'data');
    fs.cpSync(SAMPLE, folder, { recursive: true, filter: (src) => !src.includes(`${path.sep}.toffee`) });
    await addOrdersArchive(folder, scratch);
    session = await openAgentSession(folder);
    const pool = await buildTaskPool(session.toolContext, { max: 7, seed: SEED });
    // A question that does not name its table while orders_archive answers it too: its revision appends a new
    // task, so the run's task list grows while tasks are in flight.
    const ambiguous = plantAmbiguous(await ordersMeanTask(session.toolContext, pool.graph, pool.tasks[0]));
    assert.ok(ambiguous, 'the orders task can be planted as ambiguous');
    const anchored = pool.tasks.find((t) => plantWrongAnchor(t, session.env.profile));
    assert.ok(anchored, 'a pool task can be planted with a wrong anchor');
    tasks = pool.tasks.map((t) => (t === anchored ? plantWrongAnchor(t, session.env.profile)! : t));
    tasks.splice(2, 0, ambiguous);
  });
  after(async () => {
    await session?.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('the same trajectories, answers, spend, tasks, revisions and cost model for C = 1, 4 and 8, and with the longest tasks first', async () => {
    const counts = new Map<number, TaskCounts[]>();
    // C = -4: four at once, the longest first (a run key of its own).
    for (const c of [1, 4, 8, -4]) {
      const runDir = await preparedRun(`c${c}`);
      const seen: TaskCounts[] = [];
      const summary = await synthesize({ folder, resumeDir: runDir, costModelFile: null, session, concurrency: Math.abs(c), ...(c < 0 ? { startOrder: 'longest-first' as const } : {}), onTasks: (n) => seen.push(n) });
      assert.equal(summary.cancelled, false);
      assert.ok(summary.revisions.reExplored >= 1, `C = ${c}: the planted question was revised into a new task`);
      assert.equal(summary.tasksFinished, tasks.length + summary.revisions.reExplored, `C = ${c}: every task and each re-explored question finished`);
      runs.set(c, runDir);
      counts.set(c, seen);
    }
    const reference = runs.get(1)!;
    assert.ok(canonicalTrajectories(reference).length > tasks.length, 'the reference run admitted trajectories');
    for (const c of [4, 8, -4]) {
      const runDir = runs.get(c)!;
      assert.deepEqual(canonicalTrajectories(runDir), canonicalTrajectories(reference), `C = ${c}: trajectories`);
      assert.equal(stateOf(runDir).spend.totalUsd.toFixed(12), stateOf(reference).spend.totalUsd.toFixed(12), `C = ${c}: spend`);
      assert.deepEqual([...stateOf(runDir).spend.byTaskUsd].sort(), [...stateOf(reference).spend.byTaskUsd].sort(), `C = ${c}: spend per task`);
      assert.deepEqual(tasksAndRevisions(runDir), tasksAndRevisions(reference), `C = ${c}: tasks in the same order, the same revisions`);
      assert.equal(fs.readFileSync(path.join(runDir, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(reference, 'costModel.json'), 'utf8'), `C = ${c}: cost model, byte for byte`);
      assert.equal(stateOf(runDir).duplicatesIgnored, 0);
    }
    // The runs did differ in how they ran: one task at a time, then several at once, interleaved in the log.
    assert.equal(mostTasksOpenInLog(reference), 1);
    assert.ok(mostTasksOpenInLog(runs.get(4)!) >= 2, `C = 4 interleaved tasks (${mostTasksOpenInLog(runs.get(4)!)})`);
    assert.equal(Math.max(...counts.get(1)!.map((n) => n.inFlight)), 1);
    assert.equal(Math.max(...counts.get(4)!.map((n) => n.inFlight)), 4);
    assert.equal(Math.max(...counts.get(8)!.map((n) => n.inFlight)), 8);
    // Longest first: the first four tasks to write a node are the four longest by the estimate (ties in run order),
    // where run order starts tasks 0..3.
    const byEstimate = tasks.map((t, i) => ({ id: t.id, i, e: explorationLengthEstimate(t) })).sort((a, b) => b.e - a.e || a.i - b.i);
    const firstFour = (runDir: string) => new Set(readRun(runDir).events.filter((e) => e.type === 'node/added').map((e) => e.taskId).filter((id, k, all) => all.indexOf(id) === k).slice(0, 4));
    assert.deepEqual(firstFour(runs.get(-4)!), new Set(byEstimate.slice(0, 4).map((t) => t.id)));
    assert.deepEqual(firstFour(runs.get(4)!), new Set(tasks.slice(0, 4).map((t) => t.id)));
    assert.notDeepEqual(firstFour(runs.get(-4)!), firstFour(runs.get(4)!), 'the planted pool has longer tasks after its first four');
    const last = counts.get(8)!.at(-1)!;
    assert.deepEqual(last, { done: stateOf(reference).finishedTasks.size, inFlight: 0, queued: 0 });
  });

  it('cancel during a C = 8 run against the mock server closes every request; --resume completes it with nothing lost', async () => {
    let hang = false;
    // Until `hang`, every completion waits 30 ms at the server; after it, requests are held open until the client
    // gives up: the run can only stop by aborting them.
    const behaviour: MockBehaviour = { kind: 'fromRequest', respond: () => (hang ? { kind: 'hang' } : { kind: 'text', content: 'ok', delayMs: 30 }) };
    const mock = await MockOpenAiServer.start({ defaultBehaviour: behaviour });
    try {
      const providers = [withLatencyEndpoint(createSimulatedProvider(), mock.baseUrl)];
      const runDir = await preparedRun('cancelled');
      const abort = new AbortController();
      let aborted = false;
      const watch = setInterval(() => {
        if (!hang && mock.chatRequests.length >= 40) hang = true;
        if (hang && !aborted && mock.inFlight >= 8) {
          aborted = true;
          abort.abort();
        }
      }, 5);
      let first;
      try {
        first = await synthesize({ folder, resumeDir: runDir, costModelFile: null, session, providers, concurrency: 8, signal: abort.signal });
      } finally {
        clearInterval(watch);
      }
      assert.ok(aborted, 'eight requests were held open at once, then the run was cancelled');
      assert.equal(first.cancelled, true);
      assert.ok(first.tasksFinished < stateOf(runs.get(1)!).finishedTasks.size, `cancelled before the end (${first.tasksFinished} finished)`);
      // Every held request was aborted by the client: none is left open at the server.
      for (let i = 0; i < 50 && mock.inFlight > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(mock.inFlight, 0, 'no request left open');
      const requestsAtCancel = mock.chatRequests.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(mock.chatRequests.length, requestsAtCancel, 'nothing was sent after the cancel');
      const admittedBefore = [...stateOf(runDir).trajectories.keys()];

      hang = false;
      const resumed = await synthesize({ folder, resumeDir: runDir, costModelFile: null, session, providers, concurrency: 8 });
      assert.equal(resumed.cancelled, false);
      assert.equal(resumed.tasksFinished, stateOf(runs.get(1)!).finishedTasks.size);
      const reference = runs.get(1);
      assert.ok(reference, 'the equality test ran first');
      const after = stateOf(runDir);
      for (const id of admittedBefore) assert.ok(after.trajectories.has(id), `${id} kept`);
      assert.deepEqual(canonicalTrajectories(runDir), canonicalTrajectories(reference));
      assert.equal(after.spend.totalUsd.toFixed(12), stateOf(reference).spend.totalUsd.toFixed(12), 'spend: nothing paid twice');
      assert.deepEqual(tasksAndRevisions(runDir), tasksAndRevisions(reference));
      assert.equal(fs.readFileSync(path.join(runDir, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(reference, 'costModel.json'), 'utf8'));
      const finished = readRun(runDir).events.filter((e) => e.type === 'task/finished').map((e) => (e as { taskId: string }).taskId);
      assert.equal(new Set(finished).size, finished.length, 'each task finished once');
    } finally {
      await mock.close();
    }
  });
});
