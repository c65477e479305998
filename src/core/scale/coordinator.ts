/**
 * The coordinator side of queue mode: `toffee enqueue` creates the run folder exactly as a single-process run
 * would (task pool, run-start cost model), publishes the run's spec and one BullMQ job per task; `toffee collect`
 * (also run by enqueue unless told not to) streams finished tasks from Redis into that one run store, so the
 * explorer panel and `toffee export` read the same files a single-process run writes. The collector also runs each
 * task's one-step revision, from the task's events as the store has them, and enqueues a changed question as a
 * new task, as the single-process loop explores it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { openAgentSession, type AgentSession } from '../agent/session';
import { awaitsRevision, emptyRevisionTally, exploredFromRun, reviseIntoRun, runTaskOrder, type RevisionTally } from '../run/revision';
import { DEFAULT_CLEANING, type CleaningOptions } from '../explorer/verifier';
import { saveCostModel, type CostModelJson } from '../lcm/index';
import { resolveCostModelLocation } from '../lcm/location';
import type { LlmProvider } from '../llm/types';
import { synthesize } from '../run/synthesize';
import type { RunEventInput } from '../store/events';
import { assertResumable } from '../store/resumeCheck';
import { RunStore } from '../store/RunStore';
import { buildStructuralGraph } from '../taskpool/graph';
import type { TaskSpec } from '../taskpool/types';
import { appendFinishedTask, type AppendOutcome } from '../run/taskEvents';
import { environmentHash, foldTaskDeltas, readRunStartModel, RUN_COST_MODEL_FILE, RUN_COST_MODEL_START_FILE } from '../run/runCostModel';
import {
  KEY_PREFIX,
  RUNS_KEY,
  TASK_QUEUE,
  collectedKey,
  parseRunSpec,
  runSpecKey,
  taskJobId,
  taskJobResultSchema,
  type QueueRevise,
  type RunSpec,
  type TaskJobData,
} from './queue';

/** Failed attempts before a job is left failed (each retry waits 2^n seconds). */
export const JOB_ATTEMPTS = 4;

export interface EnqueueOptions {
  folder: string;
  redis: Redis;
  tasks?: number;
  budgetUsd?: number;
  seed?: number;
  minQuality?: number;
  outDir?: string;
  /** Providers as the workers will build them (model lists are taken from them). */
  providers: LlmProvider[];
  requestsPerMinute?: Record<string, number>;
  tokensPerMinute?: Record<string, number>;
  /** The one-step revision the collector runs after each task's first exploration (default rules). */
  revise?: QueueRevise;
  onProgress?: (line: string) => void;
}

export interface EnqueuedRun {
  runId: string;
  runDir: string;
  tasks: number;
}

function jobOptions(jobId: string) {
  return { jobId, attempts: JOB_ATTEMPTS, backoff: { type: 'exponential' as const, delay: 1000 }, removeOnComplete: false, removeOnFail: false };
}

export function openTaskQueue(redis: Redis): Queue {
  return new Queue(TASK_QUEUE, { connection: redis, prefix: KEY_PREFIX });
}

export async function enqueueRun(options: EnqueueOptions): Promise<EnqueuedRun> {
  const folder = path.resolve(options.folder);
  const session = await openAgentSession(folder);
  let summary;
  let environmentCostModel: string | null;
  try {
    summary = await synthesize({
      folder,
      session,
      tasks: options.tasks,
      budgetUsd: options.budgetUsd,
      seed: options.seed,
      minQuality: options.minQuality,
      outDir: options.outDir,
      providers: options.providers,
      prepareOnly: true,
      onProgress: options.onProgress,
    });
    // As synthesize does: the environment's model is written back only when the run folder is in the data folder.
    environmentCostModel = resolveCostModelLocation('environment', { dataFolder: folder, envHash: environmentHash(session.env.profile), runDir: summary.runDir }).writeTo ?? null;
  } finally {
    await session.dispose();
  }
  return publishRun({ runDir: summary.runDir, redis: options.redis, requestsPerMinute: options.requestsPerMinute, tokensPerMinute: options.tokensPerMinute, environmentCostModel, revise: options.revise, onProgress: options.onProgress });
}

export interface PublishOptions {
  /** A prepared run folder: its tasks added, its settings in run.json, its run-start cost model saved. */
  runDir: string;
  redis: Redis;
  requestsPerMinute?: Record<string, number>;
  tokensPerMinute?: Record<string, number>;
  /** The environment's cost model file the collector updates when the run completes (null: none). */
  environmentCostModel: string | null;
  revise?: QueueRevise;
  onProgress?: (line: string) => void;
}

/** The search settings a prepared run records in its run.json; a folder without them cannot be enqueued. */
function searchSettings(store: RunStore): Pick<RunSpec, 'budgetUsd' | 'maxK' | 'maxDepth' | 'targetAdmitted' | 'minQuality' | 'providers'> {
  const { budgetUsd, maxK, maxDepth, targetAdmitted, minQuality, providers } = store.state.started?.config ?? {};
  if (budgetUsd === undefined || maxK === undefined || maxDepth === undefined || targetAdmitted === undefined || minQuality === undefined || providers === undefined) {
    throw new Error(`${store.runDir} was not prepared by toffee enqueue: its run.json lacks the search settings (budget, K, depth, target, quality, providers)`);
  }
  return { budgetUsd, maxK, maxDepth, targetAdmitted, minQuality, providers };
}

/** Publishes a prepared run folder to Redis: the run's spec and one job per task, in the run's task order. */
export async function publishRun(options: PublishOptions): Promise<EnqueuedRun> {
  const store = RunStore.open(path.resolve(options.runDir));
  const config = searchSettings(store);
  const order = runTaskOrder(store.state);
  const tasks = order.map((id) => store.state.tasks.get(id)!);
  const spec: RunSpec = {
    runId: store.runId,
    folder: path.resolve(store.state.started?.dataFolder ?? ''),
    runDir: store.runDir,
    seed: store.state.started?.seed ?? 1,
    ...config,
    requestsPerMinute: options.requestsPerMinute ?? {},
    ...(options.tokensPerMinute && Object.keys(options.tokensPerMinute).length ? { tokensPerMinute: options.tokensPerMinute } : {}),
    costModel: JSON.parse(fs.readFileSync(path.join(store.runDir, RUN_COST_MODEL_START_FILE), 'utf8')) as CostModelJson,
    environmentCostModel: options.environmentCostModel,
    tasks: tasks.length,
    revise: options.revise ?? 'rules',
  };
  // Run ids come from the run folder's name: refuse to reuse one this Redis already has (its jobs would collide).
  if ((await options.redis.set(runSpecKey(spec.runId), JSON.stringify(spec), 'NX')) !== 'OK') {
    throw new Error(`a run with the id ${spec.runId} is already enqueued in this Redis; give the run folder another name (--out)`);
  }
  await options.redis.sadd(RUNS_KEY, spec.runId);
  const queue = openTaskQueue(options.redis);
  try {
    await queue.addBulk(tasks.map((task, poolIndex) => ({ name: 'task', data: taskJobData(spec.runId, task, poolIndex), opts: jobOptions(taskJobId(spec.runId, task.id)) })));
  } finally {
    await queue.close();
  }
  options.onProgress?.(`enqueued ${tasks.length} task(s) of run ${spec.runId}`);
  return { runId: spec.runId, runDir: store.runDir, tasks: tasks.length };
}

function taskJobData(runId: string, task: TaskSpec, poolIndex: number): TaskJobData {
  return { runId, taskId: task.id, poolIndex, task };
}

export interface CollectOptions {
  runDir: string;
  redis: Redis;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** Poll interval, ms (default 300). */
  pollMs?: number;
}

export interface CollectSummary {
  runId: string;
  runDir: string;
  /** The run's tasks, re-explored questions included. */
  tasks: number;
  tasksFinished: number;
  /** Results for a task already in the run store (a retried or duplicated job): ignored. */
  duplicates: number;
  /** Tasks whose job failed all its attempts. */
  failed: string[];
  cancelled: boolean;
  costUsd: number;
  verifiedTrajectories: number;
  meanQuality: number;
  /** One-step revisions this collector ran. */
  revisions: RevisionTally;
}

/**
 * Streams finished tasks into the run store, revising each once as it arrives, until every task (re-explored
 * questions included) is finished, failed for good, or the signal aborts. Resumable: finished tasks are in the
 * store, so a restarted collector skips them and revises those a stop left unrevised; jobs missing from Redis
 * are enqueued again and failed ones retried once at start.
 */
/** A collection in progress: the run's store and queue, and what it has counted. */
interface Collector {
  options: CollectOptions;
  store: RunStore;
  queue: Queue;
  runId: string;
  spec: RunSpec;
  cleaning: CleaningOptions;
  revisions: RevisionTally;
  duplicates: number;
  failed: Map<string, string>;
  /** Tasks whose failure is already in the run's log. */
  reported: Set<string>;
  /** Opened on the first revision: a collection with nothing to revise never loads the environment. */
  session?: Promise<AgentSession>;
  progress: (line: string) => void;
}

export async function collectRun(options: CollectOptions): Promise<CollectSummary> {
  // Held against run.json and the derived files before anything is written, as a resume is.
  for (const warning of assertResumable(path.resolve(options.runDir))) options.onProgress?.(warning);
  const store = RunStore.open(path.resolve(options.runDir), { writable: true });
  const queue = openTaskQueue(options.redis);
  let c: Collector | undefined;
  try {
    const spec = parseRunSpec(await options.redis.get(runSpecKey(store.runId)), store.runId);
    c = { options, store, queue, runId: store.runId, spec, cleaning: { ...DEFAULT_CLEANING, minQuality: spec.minQuality }, revisions: emptyRevisionTally(), duplicates: 0, failed: new Map(), reported: new Set(), progress: options.onProgress ?? (() => {}) };
    // A stop between a task's events and its revision: the task is revised from the store now, as a resumed run does.
    for (const taskId of runTaskOrder(store.state)) if (store.state.finishedTasks.has(taskId)) await reviseCollected(c, taskId);
    // Every unfinished task has a live job: missing ones are added again, failed ones retried.
    for (const taskId of runTaskOrder(store.state)) if (!store.state.finishedTasks.has(taskId)) await ensureJob(c, store.state.tasks.get(taskId)!);
    let cancelled = false;
    // The total grows when a revision adds a question to explore.
    while (store.state.finishedTasks.size + c.failed.size < store.state.tasks.size) {
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      const progressed = await collectCompleted(c);
      await noteFailed(c);
      if (!progressed) await sleep(options.pollMs ?? 300, options.signal);
    }
    // Stopped after the last task's events but before its revision: the run is not finished yet.
    if (options.signal?.aborted && spec.revise !== 'off' && [...store.state.finishedTasks.keys()].some((id) => awaitsRevision(store.state, store.state.tasks.get(id)!))) cancelled = true;
    return await finishCollection(c, cancelled);
  } finally {
    await queue.close();
    store.close();
    if (c?.session) await (await c.session.catch(() => undefined))?.dispose();
  }
}

/** A live job for an unfinished task: added when missing (the id makes a second add a no-op), retried when failed. */
async function ensureJob(c: Collector, task: TaskSpec): Promise<void> {
  const jobId = taskJobId(c.runId, task.id);
  const job = await c.queue.getJob(jobId);
  if (!job) await c.queue.add('task', taskJobData(c.runId, task, runTaskOrder(c.store.state).indexOf(task.id)), jobOptions(jobId));
  else if ((await job.getState()) === 'failed') await job.retry('failed');
}

/** The task's one revision, from its events in the store (the collector has no search tree); a new question is enqueued. */
async function reviseCollected(c: Collector, taskId: string): Promise<void> {
  const { store, spec, options } = c;
  const task = store.state.tasks.get(taskId);
  if (spec.revise === 'off' || !task || !awaitsRevision(store.state, task) || options.signal?.aborted) return;
  if (!c.session && !fs.existsSync(spec.folder)) throw new Error(`the collector revises the run's tasks on its data folder, ${spec.folder}, which it cannot see (collect where the run was enqueued)`);
  c.session ??= openAgentSession(spec.folder);
  const { env, toolContext } = await c.session;
  const revision = await reviseIntoRun(store, c.revisions, { task, result: exploredFromRun(store.state, taskId), context: toolContext, graph: buildStructuralGraph(env.profile, toolContext.documents), cleaning: c.cleaning, signal: options.signal });
  c.progress(revision.line);
  if (revision.reexplore) {
    await ensureJob(c, revision.reexplore);
    // `toffee status` shows the run's tasks from its spec: the new question counts.
    await options.redis.set(runSpecKey(c.runId), JSON.stringify({ ...spec, tasks: store.state.tasks.size }));
  }
}

/** Completed jobs' events into the store, each task once, then its revision; whether any job was taken. */
async function collectCompleted(c: Collector): Promise<boolean> {
  const { store, queue, options } = c;
  let progressed = false;
  for (const job of await queue.getJobs(['completed'], 0, -1, true)) {
    if (options.signal?.aborted) break;
    if (!job || (job.data as { runId?: string })?.runId !== c.runId) continue;
    const parsed = taskJobResultSchema.safeParse(job.returnvalue);
    const taskId = (job.data as { taskId: string }).taskId;
    const outcome = parsed.success && parsed.data.taskId === taskId && store.state.tasks.has(taskId) ? appendResult(store, taskId, parsed.data.events as unknown as RunEventInput[], `job ${job.id}`) : { problem: `job ${job.id} returned an invalid result` };
    if (typeof outcome === 'object') {
      store.append({ type: 'run/error', taskId, message: `${outcome.problem}; the task is run again`, fatal: false });
      await job.remove();
      await queue.add('task', job.data, jobOptions(job.id!));
      continue;
    }
    if (outcome === 'duplicate') c.duplicates++;
    else {
      await options.redis.incr(collectedKey(c.runId));
      const finished = store.state.finishedTasks.get(taskId);
      c.progress(`[${store.state.finishedTasks.size}/${store.state.tasks.size}] ${taskId}: ${finished?.reason ?? 'finished'}, best quality ${(finished?.bestQuality ?? 0).toFixed(2)} (worker ${parsed.data!.worker})`);
    }
    await job.remove();
    await reviseCollected(c, taskId);
    progressed = true;
  }
  return progressed;
}

/** Appends a job's events ('appended' or 'duplicate'), or says why the store rejected them. */
function appendResult(store: RunStore, taskId: string, events: RunEventInput[], job: string): AppendOutcome | { problem: string } {
  try {
    return appendFinishedTask(store, taskId, events);
  } catch (error) {
    return { problem: `${job}'s events were rejected (${(error as Error).message})` };
  }
}

/** Tasks whose job failed all its attempts: counted, and written to the run's log once. */
async function noteFailed(c: Collector): Promise<void> {
  const { store } = c;
  for (const job of await c.queue.getJobs(['failed'], 0, -1, true)) {
    if (!job || (job.data as { runId?: string })?.runId !== c.runId) continue;
    const taskId = (job.data as { taskId: string }).taskId;
    if (store.state.finishedTasks.has(taskId) || c.failed.has(taskId)) continue;
    c.failed.set(taskId, job.failedReason ?? 'failed');
    if (c.reported.has(taskId)) continue;
    c.reported.add(taskId);
    store.append({ type: 'run/error', taskId, message: `task failed after ${job.attemptsMade} attempt(s): ${job.failedReason ?? 'unknown error'}`, fatal: false });
    c.progress(`${taskId}: failed after ${job.attemptsMade} attempt(s): ${job.failedReason}`);
  }
}

/** The run's cost model folded in the single process's order, whichever order the workers finished in; run/finished when complete. */
async function finishCollection(c: Collector, cancelled: boolean): Promise<CollectSummary> {
  const { store } = c;
  const start = readRunStartModel(store.runDir);
  const { model, warnings } = foldTaskDeltas(start, store.state, runTaskOrder(store.state));
  for (const w of warnings) c.progress(w);
  await saveCostModel(path.join(store.runDir, RUN_COST_MODEL_FILE), model);
  const summary = collectSummary(store, c.duplicates, [...c.failed.keys()], cancelled, c.revisions);
  if (!cancelled && c.failed.size === 0) {
    if (c.spec.environmentCostModel) await saveCostModel(c.spec.environmentCostModel, model);
    store.append({ type: 'run/finished', summary: { ...summary, mode: 'queue', collector: `${os.hostname()}:${process.pid}` } });
  } else if (cancelled) {
    store.append({ type: 'run/cancelled', tasksFinished: store.state.finishedTasks.size, reason: 'the collection was stopped; toffee collect continues it' });
  }
  return summary;
}

function collectSummary(store: RunStore, duplicates: number, failed: string[], cancelled: boolean, revisions: RevisionTally): CollectSummary {
  const trajectories = [...store.state.trajectories.values()];
  return {
    runId: store.runId,
    runDir: store.runDir,
    tasks: store.state.tasks.size,
    tasksFinished: store.state.finishedTasks.size,
    duplicates,
    failed,
    cancelled,
    costUsd: store.state.spend.totalUsd,
    verifiedTrajectories: trajectories.length,
    meanQuality: trajectories.length ? trajectories.reduce((s, t) => s + t.quality, 0) / trajectories.length : 0,
    revisions,
  };
}

export interface QueueStatus {
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number; prioritized: number };
  workers: number;
  /** ms the whole queue is still backed off after a 429 (0: not). */
  rateLimitedForMs: number;
  runs: Array<{ runId: string; runDir: string; tasks: number; collected: number; active: number; waiting: number; failed: number }>;
}

export async function queueStatus(redis: Redis, runId?: string): Promise<QueueStatus> {
  const queue = openTaskQueue(redis);
  try {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized');
    const workers = (await queue.getWorkers()).length;
    const rateLimitedForMs = Math.max(0, await queue.getRateLimitTtl());
    const ids = runId ? [runId] : (await redis.smembers(RUNS_KEY)).sort();
    const byRun = new Map<string, { active: number; waiting: number; failed: number }>();
    for (const [state, key] of [['active', 'active'], ['wait', 'waiting'], ['delayed', 'waiting'], ['failed', 'failed']] as const) {
      for (const job of await queue.getJobs([state], 0, -1, true)) {
        const id = (job?.data as { runId?: string } | undefined)?.runId;
        if (!id) continue;
        const entry = byRun.get(id) ?? { active: 0, waiting: 0, failed: 0 };
        entry[key]++;
        byRun.set(id, entry);
      }
    }
    const runs = [];
    for (const id of ids) {
      const spec = parseRunSpec(await redis.get(runSpecKey(id)), id);
      const collected = Number((await redis.get(collectedKey(id))) ?? 0);
      runs.push({ runId: id, runDir: spec.runDir, tasks: spec.tasks, collected, ...(byRun.get(id) ?? { active: 0, waiting: 0, failed: 0 }) });
    }
    return {
      queue: { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0, completed: counts.completed ?? 0, prioritized: counts.prioritized ?? 0 },
      workers,
      rateLimitedForMs,
      runs,
    };
  } finally {
    await queue.close();
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
