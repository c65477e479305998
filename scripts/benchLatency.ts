/**
 * `npm run bench:latency`: one process against a latency-bound provider. The offline simulated models make a real
 * HTTP round trip per completion to the mock OpenAI-compatible server (a fixed latency; it logs when each request
 * arrived), so the wall time is what a user with a real endpoint waits, while the output stays the seeded
 * offline-sim output. Prints, for the sample's tasks:
 *   - wall time, trajectories per minute, requests and quality for `toffee synthesize` with C = 1, 4, 8 tasks in
 *     flight (the C = 8 run's trajectories, spend and cost model are checked equal to C = 1's);
 *   - C = 8 with the longest tasks started first (the same results, another start order);
 *   - the same with parallel expansion in waves and all at once (C = 8), and what each costs or saves in spend and
 *     wall time;
 *   - the task pool's build time (serial, the same at any C), the speed-up of exploring alone, and the critical
 *     path: the requests each task waits on one after another;
 *   - best-of-5 run the way a simple async script would: every task's 5 attempts at once, each a linear episode
 *     with a fifth of the task's budget;
 *   - C = 12 with waves under a binding limit (default 8 requests/s): the most requests the server saw in any 1 s;
 *   - a cancel during a C = 8 run: how long until every request in flight was closed at the server.
 * Always exits 0; the MET/NOT MET lines say how it went.
 *
 *   node out/scripts/benchLatency.js [--tasks N] [--latency-ms MS] [--limit-rps R] [--budget USD] [--runs NAME,…] [--keep]
 *
 * `--runs` measures only some of the runs (c1, c4, c8, longest, waves, best-of-5, bound, cancel; default all) and
 * prints only the comparisons whose runs it measured: a quicker look at one figure. `--keep` keeps the run folders.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { openAgentSession, type AgentSession } from '../src/core/agent/session';
import { runEpisodes } from '../src/core/explorer/baselines';
import { waveSizes, type ExpansionSchedule } from '../src/core/explorer/waves';
import { createStepRunner } from '../src/core/explorer/stepRunner';
import { createPriceCostEstimator, type ArmConfig, type StateFeatures } from '../src/core/lcm/index';
import { createSimulatedProvider } from '../src/core/sim/index';
import type { LlmProvider } from '../src/core/llm/types';
import { explorerToolContext } from '../src/core/run/exploreTask';
import { synthesize, type SynthesizeOptions } from '../src/core/run/synthesize';
import { withLatencyEndpoint } from '../src/core/scale/rateLimit';
import { readRun } from '../src/core/store/RunStore';
import { rebuildState, type RunState } from '../src/core/store/runState';
import type { TaskSpec } from '../src/core/taskpool/types';
import { MockOpenAiServer } from '../test/support/mockOpenAiServer';

const ROOT = path.resolve(__dirname, '../..');
const SAMPLE = path.join(ROOT, 'media', 'samples', 'retail');

interface Measurement {
  label: string;
  seconds: number;
  tasks: number;
  trajectories: number;
  trajectoriesPerMinute: number;
  /** Mean over tasks of the best admitted trajectory's quality (0 for a task without one). */
  quality: number;
  spentUsd: number;
  requests: number;
  meanPerSecond: number;
  maxInAnySecond: number;
  runDir?: string;
  startedAt?: number;
  /** When the run folder appeared (its first event): the task pool is built, exploration starts. */
  exploringAt?: number;
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

/**
 * Seconds from `startedAt` until the run's mean best quality over `tasks` tasks (0 for a task with nothing admitted
 * yet) first reached `target`, read from the admitted trajectories' timestamps; undefined if it never did.
 */
function secondsToQuality(runDir: string, startedAt: number, tasks: number, target: number): number | undefined {
  const best = new Map<string, number>();
  for (const e of readRun(runDir).events) {
    if (e.type !== 'trajectory/admitted') continue;
    const event = e as unknown as { taskId: string; quality: number; ts: string };
    best.set(event.taskId, Math.max(best.get(event.taskId) ?? 0, event.quality));
    const mean = [...best.values()].reduce((a, b) => a + b, 0) / tasks;
    if (mean >= target - 1e-9) return (Date.parse(event.ts) - startedAt) / 1000;
  }
  return undefined;
}

/**
 * Per task, the requests it waited on one after another (round trips): to its first admitted trajectory, and in
 * all. One after another an expansion of c configs is c round trips; in waves, one per wave (explorer/waves.ts).
 * With enough slots, a task cannot end sooner than its round trips × the latency: the run's critical path.
 */
function roundTrips(runDir: string, schedule: ExpansionSchedule): Map<string, { toFirstAdmitted?: number; total: number }> {
  const tasks = new Map<string, { toFirstAdmitted?: number; total: number }>();
  for (const e of readRun(runDir).events) {
    const taskId = (e as { taskId?: string }).taskId;
    if (!taskId) continue;
    const t = tasks.get(taskId) ?? { total: 0 };
    tasks.set(taskId, t);
    if (e.type === 'budget/spent') t.total += waveSizes((e as unknown as { calls: number }).calls, schedule).length;
    if (e.type === 'trajectory/admitted') t.toFirstAdmitted ??= t.total;
  }
  return tasks;
}

function stateOf(runDir: string): RunState {
  return rebuildState(readRun(runDir).events);
}

/** What must be equal whatever C: per admitted trajectory its task, tool calls, answer and quality; spend; cost model. */
function runDigest(runDir: string): string {
  const trajectories = fs
    .readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { trajectoryId: string; answer: unknown; quality: number; steps: Array<{ toolCall?: { arguments: string } }> })
    .map((t) => [t.trajectoryId, t.answer, t.quality, t.steps.map((s) => s.toolCall?.arguments ?? null)])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  return JSON.stringify([trajectories, stateOf(runDir).spend.totalUsd.toFixed(12), fs.readFileSync(path.join(runDir, 'costModel.json'), 'utf8')]);
}

/** The runs `--runs` can choose from, in the order they are measured. */
const RUN_NAMES = ['c1', 'c4', 'c8', 'longest', 'waves', 'parallel', 'best-of-5', 'bound', 'cancel'];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tasks: { type: 'string', default: '12' }, 'latency-ms': { type: 'string', default: '1000' }, 'limit-rps': { type: 'string', default: '8' }, budget: { type: 'string', default: '0.05' }, runs: { type: 'string', default: RUN_NAMES.join(',') }, keep: { type: 'boolean', default: false } } });
  const wanted = new Set(values.runs.split(',').map((r) => r.trim()));
  for (const r of wanted) if (!RUN_NAMES.includes(r)) throw new Error(`--runs: unknown run '${r}' (known: ${RUN_NAMES.join(', ')})`);
  const taskCount = Number(values.tasks);
  const latencyMs = Number(values['latency-ms']);
  const limitRps = Number(values['limit-rps']);
  const budgetUsd = Number(values.budget);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-latency-'));
  const mock = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'text', content: 'ok', delayMs: latencyMs } });
  const folder = path.join(scratch, 'data');
  fs.cpSync(SAMPLE, folder, { recursive: true, filter: (src) => !src.includes(`${path.sep}.toffee`) });
  // One session for every measurement (opened before any clock starts); every run starts from a fresh cost model.
  const session = await openAgentSession(folder);
  const providers: LlmProvider[] = [withLatencyEndpoint(createSimulatedProvider(), mock.baseUrl)];
  let runs = 0;
  const requestTimes = (from: number) => mock.chatRequests.slice(from).map((r) => r.receivedAt);

  const measureRun = async (label: string, extra: Partial<SynthesizeOptions>): Promise<Measurement> => {
    const outDir = path.join(scratch, `run${runs++}`);
    const from = mock.chatRequests.length;
    const started = Date.now();
    const summary = await synthesize({ folder, session, tasks: taskCount, seed: 1, budgetUsd, outDir, costModelFile: null, providers, ...extra });
    const seconds = (Date.now() - started) / 1000;
    const state = stateOf(outDir);
    const best = [...state.finishedTasks.values()].map((f) => f.bestQuality ?? 0);
    const times = requestTimes(from);
    const exploringAt = Date.parse(readRun(outDir).events[0].ts);
    return {
      label,
      seconds,
      tasks: summary.tasksFinished,
      trajectories: summary.verifiedTrajectories,
      trajectoriesPerMinute: (60 * summary.verifiedTrajectories) / seconds,
      quality: best.reduce((a, b) => a + b, 0) / Math.max(1, best.length),
      spentUsd: summary.costUsd,
      requests: times.length,
      meanPerSecond: times.length / seconds,
      maxInAnySecond: maxInWindow(times, 1000),
      runDir: outDir,
      startedAt: started,
      exploringAt,
    };
  };

  /** Best-of-5 as a simple async script: every task's 5 attempts at once, each a linear episode with 1/5 of the budget. */
  const measureBestOf5 = async (tasks: TaskSpec[]): Promise<Measurement> => {
    const models = await createSimulatedProvider().listModels();
    const arm: ArmConfig = { provider: 'offline-sim', model: 'sim-medium', contextLength: 'full', reasoningEffort: 'medium', operator: 'explore' };
    const estimate = createPriceCostEstimator(models);
    const estimateStepCostUsd = (depth: number) => estimate(arm, { vector: [], input: { depth } } as unknown as StateFeatures);
    const toolContext = explorerToolContext(session);
    const from = mock.chatRequests.length;
    const started = Date.now();
    const perTask = await Promise.all(
      tasks.map(async (task) => {
        const runner = createStepRunner({ task, providers, models, toolContext, seed: 1 });
        const attempts = await Promise.all(
          Array.from({ length: 5 }, (_, k) => runEpisodes(task, runner, arm, { episodes: 1, firstEpisode: k, budgetUsd: budgetUsd / 5, estimateStepCostUsd })),
        );
        return { best: Math.max(0, ...attempts.map((a) => a.bestQuality)), admitted: attempts.reduce((n, a) => n + a.admitted.length, 0), spent: attempts.reduce((s, a) => s + a.spentUsd, 0) };
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const times = requestTimes(from);
    const trajectories = perTask.reduce((n, t) => n + t.admitted, 0);
    return {
      label: 'best-of-5 (all attempts at once)',
      seconds,
      tasks: tasks.length,
      trajectories,
      trajectoriesPerMinute: (60 * trajectories) / seconds,
      quality: perTask.reduce((s, t) => s + t.best, 0) / Math.max(1, perTask.length),
      spentUsd: perTask.reduce((s, t) => s + t.spent, 0),
      requests: times.length,
      meanPerSecond: times.length / seconds,
      maxInAnySecond: maxInWindow(times, 1000),
    };
  };

  /** A C = 8 run cancelled once every task slot waits on a request: ms from the abort until none is open at the server. */
  const measureCancel = async (): Promise<{ closedMs: number; returnedMs: number; inFlightAtAbort: number }> => {
    const abort = new AbortController();
    let abortedAt = 0;
    let inFlightAtAbort = 0;
    let closedMs = -1;
    const watch = setInterval(() => {
      if (!abortedAt && mock.inFlight >= Math.min(8, taskCount)) {
        inFlightAtAbort = mock.inFlight;
        abortedAt = Date.now();
        abort.abort();
      }
      if (abortedAt && closedMs < 0 && mock.inFlight === 0) closedMs = Date.now() - abortedAt;
    }, 2);
    try {
      await synthesize({ folder, session, tasks: taskCount, seed: 1, budgetUsd, outDir: path.join(scratch, `run${runs++}`), costModelFile: null, providers, concurrency: 8, signal: abort.signal });
      if (!abortedAt) throw new Error('the cancel measurement never saw its requests in flight');
      const returnedMs = Date.now() - abortedAt;
      while (closedMs < 0) await new Promise((resolve) => setTimeout(resolve, 5));
      return { closedMs, returnedMs, inFlightAtAbort };
    } finally {
      clearInterval(watch);
    }
  };

  const line = (m: Measurement) =>
    `${m.label.padEnd(34)} ${m.seconds.toFixed(1).padStart(7)}  ${String(m.trajectories).padStart(5)}  ${m.trajectoriesPerMinute.toFixed(1).padStart(8)}  ${m.quality.toFixed(3).padStart(7)}  ${m.spentUsd.toFixed(4).padStart(8)}  ${String(m.requests).padStart(8)}  ${m.meanPerSecond.toFixed(1).padStart(6)}  ${String(m.maxInAnySecond).padStart(6)}`;
  try {
    console.log(`latency bench: ${taskCount} tasks of media/samples/retail, offline-sim + ${latencyMs} ms per request at the mock server, $${budgetUsd}/task; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
    console.log(`${'run'.padEnd(34)} ${'seconds'.padStart(7)}  ${'traj'.padStart(5)}  ${'traj/min'.padStart(8)}  ${'quality'.padStart(7)}  ${'spent $'.padStart(8)}  ${'requests'.padStart(8)}  ${'req/s'.padStart(6)}  ${'max/1s'.padStart(6)}`);
    const runs = new Map<string, Measurement>();
    const measure = async (name: string, label: string, extra: Partial<SynthesizeOptions>) => {
      if (!wanted.has(name)) return;
      const m = await measureRun(label, extra);
      runs.set(name, m);
      console.log(line(m));
    };
    await measure('c1', 'toffee C = 1', { concurrency: 1 });
    await measure('c4', 'toffee C = 4', { concurrency: 4 });
    await measure('c8', 'toffee C = 8', { concurrency: 8 });
    await measure('longest', 'toffee C = 8, longest first', { concurrency: 8, startOrder: 'longest-first' });
    await measure('waves', 'toffee C = 8, expansion waves', { concurrency: 8, expansionSchedule: 'waves' });
    await measure('parallel', 'toffee C = 8, expansion at once', { concurrency: 8, expansionSchedule: 'parallel' });
    let bestOf5: Measurement | undefined;
    if (wanted.has('best-of-5')) {
      // The script is handed the task pool a TOFFEE run built (the pool is the same whatever the run).
      const built = [...runs.values()][0] ?? (await measureRun('toffee C = 8 (for its task pool)', { concurrency: 8 }));
      const tasks = [...stateOf(built.runDir!).tasks.values()].slice(0, taskCount);
      bestOf5 = await measureBestOf5(tasks);
      console.log(line(bestOf5));
    }
    await measure('bound', `toffee C = 12, waves, ${limitRps} req/s`, { concurrency: 12, expansionSchedule: 'waves', requestsPerMinute: { 'offline-sim': limitRps * 60 } });
    const cancel = wanted.has('cancel') ? await measureCancel() : undefined;

    const met = (ok: boolean) => (ok ? 'MET    ' : 'NOT MET');
    const fmt = (seconds: number | undefined) => (seconds === undefined ? 'never' : `${seconds.toFixed(1)} s`);
    const c1 = runs.get('c1');
    const c4 = runs.get('c4');
    const c8 = runs.get('c8');
    const longest = runs.get('longest');
    const waves = runs.get('waves');
    const parallel = runs.get('parallel');
    const bound = runs.get('bound');
    // Building the task pool is the same serial work at any C (it makes no model requests): the share of the wall
    // time that tasks in flight cannot shorten.
    const poolSeconds = (m: Measurement) => (m.exploringAt! - m.startedAt!) / 1000;
    const exploring = (m: Measurement) => m.seconds - poolSeconds(m);
    if (c1 && c8) {
      const speedup = c1.seconds / c8.seconds;
      const others = [c8, c4, longest].filter((m): m is Measurement => m !== undefined);
      const same = others.every((m) => runDigest(m.runDir!) === runDigest(c1.runDir!));
      console.log(
        `speed-up C = 8 vs C = 1: ${speedup.toFixed(2)}×${c4 ? ` (C = 4: ${(c1.seconds / c4.seconds).toFixed(2)}×)` : ''}${longest ? `, C = 8 longest first: ${(c1.seconds / longest.seconds).toFixed(2)}×` : ''}; ${others.map((m) => m.label).join(', ')} give ${same ? 'the same' : 'DIFFERENT'} trajectories, spend and cost model as C = 1`,
      );
      console.log(`task pool built in ${[c1, c8].map((m) => poolSeconds(m).toFixed(1)).join(' / ')} s (C = 1 / 8); exploring alone: C = 1 ${exploring(c1).toFixed(1)} s, C = 8 ${exploring(c8).toFixed(1)} s (${(exploring(c1) / exploring(c8)).toFixed(2)}×)`);
      console.log(`${met(speedup >= 5)} C = 8 at least 5× faster than C = 1 (${speedup.toFixed(2)}×)`);
    }
    for (const m of [waves, parallel]) {
      if (!c8 || !m) continue;
      console.log(
        `${m === waves ? 'expansion waves' : 'expansion at once'} (C = 8): ${m.seconds.toFixed(1)} s vs ${c8.seconds.toFixed(1)} s one after another (${(100 * (1 - m.seconds / c8.seconds)).toFixed(0)}% less wall time), spend $${m.spentUsd.toFixed(4)} vs $${c8.spentUsd.toFixed(4)} (${(100 * (m.spentUsd / c8.spentUsd - 1)).toFixed(1)}% more), ${m.requests} vs ${c8.requests} requests, quality ${m.quality.toFixed(3)} vs ${c8.quality.toFixed(3)}`,
      );
    }
    if (bestOf5) {
      // Time to best-of-5's quality: when the run's mean best quality over its tasks first reached the script's. The
      // script is handed the task pool TOFFEE built (its clock starts after it), so TOFFEE's is read from the moment
      // its pool was built too; from the run's start it is printed beside it.
      const target = bestOf5.quality;
      const reach = (m: Measurement) => secondsToQuality(m.runDir!, m.exploringAt!, taskCount, target);
      const fromStart = (m: Measurement) => {
        const s = reach(m);
        return s === undefined ? undefined : s + poolSeconds(m);
      };
      const toffeeRuns = [c1, c4, c8, longest, waves, parallel, bound].filter((m): m is Measurement => m !== undefined);
      console.log(`time to best-of-5's quality ${target.toFixed(3)} (best-of-5 took ${bestOf5.seconds.toFixed(1)} s on the built pool), from the pool built (from the run's start): ${toffeeRuns.map((m) => `${m.label} ${fmt(reach(m))} (${fmt(fromStart(m))})`).join('; ')}`);
      const c8Runs = [c8, longest, waves, parallel].filter((m): m is Measurement => m !== undefined);
      const c8Reach = c8Runs.map(reach).filter((s): s is number => s !== undefined);
      const c8Best = c8Reach.length ? Math.min(...c8Reach) : undefined;
      if (c8Runs.length) console.log(`${met(c8Best !== undefined && c8Best < bestOf5.seconds)} TOFFEE C = 8 reaches best-of-5's quality (${target.toFixed(3)}) in less wall time, both on the built pool (${fmt(c8Best)} vs ${bestOf5.seconds.toFixed(1)} s); at its end ${Math.max(...c8Runs.map((m) => m.quality)).toFixed(3)}`);
    }
    for (const [m, schedule] of [[c8, 'sequential'], [waves, 'waves'], [parallel, 'parallel']] as const) {
      if (!m) continue;
      const trips = [...roundTrips(m.runDir!, schedule).values()];
      const first = trips.map((t) => t.toFirstAdmitted).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
      console.log(
        `critical path, ${m.label}: the longest task waits on ${Math.max(...trips.map((t) => t.total))} requests one after another (all tasks: ${trips.reduce((n, t) => n + t.total, 0)}); round trips to each task's first admitted trajectory, fastest first: ${first.join(', ')} (${trips.length - first.length} never); best-of-5's episodes are at most 10 steps`,
      );
    }
    if (bound) {
      console.log(`under ${limitRps} req/s: mean ${bound.meanPerSecond.toFixed(2)} req/s, at most ${bound.maxInAnySecond} requests in any 1 s window at the server`);
      console.log(`${met(bound.maxInAnySecond <= limitRps)} the server never saw more than ${limitRps} req/s (max ${bound.maxInAnySecond} in any 1 s window)`);
    }
    if (cancel) {
      console.log(`cancel during C = 8 with ${cancel.inFlightAtAbort} requests in flight: all closed at the server ${cancel.closedMs} ms after the abort; synthesize returned after ${cancel.returnedMs} ms`);
      console.log(`${met(cancel.closedMs <= 2000)} a cancel closes every request in flight within 2 s (${cancel.closedMs} ms)`);
    }
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await session.dispose();
    await mock.close();
    if (values.keep) console.log(`run folders kept in ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack ?? error.message : String(error));
  process.exit(1);
});
