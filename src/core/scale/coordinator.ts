/**
 * The coordinator side of queue mode: `toffee enqueue` creates the run folder exactly as a single-process run
 * would (task pool, run-start cost model), publishes the run's spec and one BullMQ job per task; `toffee collect`
 * (also run by enqueue unless told not to) streams finished tasks from Redis into that one run store, so the
 * explorer panel and `toffee export` read the same files a single-process run writes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { openAgentSession } from '../agent/session';
import { costModelPath, saveCostModel, type CostModelJson } from '../lcm/index';
import type { LlmProvider } from '../llm/types';
import { environmentHash, synthesize } from '../pipeline';
import type { RunEventInput } from '../store/events';
import { RunStore } from '../store/RunStore';
import { appendFinishedTask } from './taskEvents';
import { foldTaskDeltas, readRunStartModel, RUN_COST_MODEL_FILE } from './runCostModel';
import {
  KEY_PREFIX,
  RUNS_KEY,
  TASK_QUEUE,
  collectedKey,
  parseRunSpec,
  runSpecKey,
  taskJobId,
  taskJobResultSchema,
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
  let environmentCostModel: string;
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
    environmentCostModel = costModelPath(folder, environmentHash(session.env.profile));
  } finally {
    await session.dispose();
  }
  const store = RunStore.open(summary.runDir);
  const config = (store.state.started?.config ?? {}) as Record<string, unknown>;
  const tasks = [...store.state.tasks.values()];
  const spec: RunSpec = {
    runId: store.runId,
    folder,
    runDir: store.runDir,
    seed: store.state.started?.seed ?? options.seed ?? 1,
    budgetUsd: config.budgetUsd as number,
    maxK: config.maxK as number,
    maxDepth: config.maxDepth as number,
    targetAdmitted: config.targetAdmitted as number,
    minQuality: config.minQuality as number,
    providers: config.providers as string[],
    requestsPerMinute: options.requestsPerMinute ?? {},
    costModel: JSON.parse(fs.readFileSync(path.join(store.runDir, 'costModel.start.json'), 'utf8')) as CostModelJson,
    environmentCostModel,
    tasks: tasks.length,
  };
  // Run ids come from the run folder's name: refuse to reuse one this Redis already has (its jobs would collide).
  if ((await options.redis.set(runSpecKey(spec.runId), JSON.stringify(spec), 'NX')) !== 'OK') {
    throw new Error(`a run with the id ${spec.runId} is already enqueued in this Redis; give the run folder another name (--out)`);
  }
  await options.redis.sadd(RUNS_KEY, spec.runId);
  const queue = openTaskQueue(options.redis);
  try {
    await queue.addBulk(
      tasks.map((task, poolIndex) => {
        const data: TaskJobData = { runId: spec.runId, taskId: task.id, poolIndex, task };
        return { name: 'task', data, opts: jobOptions(taskJobId(spec.runId, task.id)) };
      }),
    );
  } finally {
    await queue.close();
  }
  options.onProgress?.(`enqueued ${tasks.length} task(s) of run ${spec.runId}`);
  return { runId: spec.runId, runDir: store.runDir, tasks: tasks.length };
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
}

/**
 * Streams finished tasks into the run store until every task is finished, failed for good, or the signal
 * aborts. Resumable: finished tasks are in the store, so a restarted collector skips them; jobs missing from
 * Redis are enqueued again and failed ones retried once at start.
 */
export async function collectRun(options: CollectOptions): Promise<CollectSummary> {
  const progress = options.onProgress ?? (() => {});
  const store = RunStore.open(path.resolve(options.runDir), { writable: true });
  const queue = openTaskQueue(options.redis);
  const runId = store.runId;
  let duplicates = 0;
  const failed = new Map<string, string>();
  let cancelled = false;
  try {
    const spec = parseRunSpec(await options.redis.get(runSpecKey(runId)), runId);
    const order = [...store.state.tasks.keys()];
    const poolIndex = new Map(order.map((id, i) => [id, i]));
    // Every unfinished task has a live job: missing ones are added again, failed ones retried.
    for (const task of store.state.tasks.values()) {
      if (store.state.finishedTasks.has(task.id)) continue;
      const jobId = taskJobId(runId, task.id);
      const job = await queue.getJob(jobId);
      if (!job) {
        const data: TaskJobData = { runId, taskId: task.id, poolIndex: poolIndex.get(task.id)!, task };
        await queue.add('task', data, jobOptions(jobId));
      } else if ((await job.getState()) === 'failed') {
        await job.retry('failed');
      }
    }
    const total = order.length;
    const reported = new Set<string>();
    while (store.state.finishedTasks.size + failed.size < total) {
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      let progressed = false;
      for (const job of await queue.getJobs(['completed'], 0, -1, true)) {
        if (!job || (job.data as { runId?: string })?.runId !== runId) continue;
        const parsed = taskJobResultSchema.safeParse(job.returnvalue);
        const taskId = (job.data as { taskId: string }).taskId;
        if (!parsed.success || parsed.data.taskId !== taskId || !store.state.tasks.has(taskId)) {
          store.append({ type: 'run/error', taskId, message: `job ${job.id} returned an invalid result; the task is run again`, fatal: false });
          await job.remove();
          await queue.add('task', job.data, jobOptions(job.id!));
          continue;
        }
        let outcome;
        try {
          outcome = appendFinishedTask(store, taskId, parsed.data.events as unknown as RunEventInput[]);
        } catch (error) {
          store.append({ type: 'run/error', taskId, message: `job ${job.id}'s events were rejected (${(error as Error).message}); the task is run again`, fatal: false });
          await job.remove();
          await queue.add('task', job.data, jobOptions(job.id!));
          continue;
        }
        if (outcome === 'duplicate') duplicates++;
        else {
          await options.redis.incr(collectedKey(runId));
          const finished = store.state.finishedTasks.get(taskId) as { bestQuality?: number; reason?: string } | undefined;
          progress(`[${store.state.finishedTasks.size}/${total}] ${taskId}: ${finished?.reason ?? 'finished'}, best quality ${(finished?.bestQuality ?? 0).toFixed(2)} (worker ${parsed.data.worker})`);
        }
        await job.remove();
        progressed = true;
      }
      for (const job of await queue.getJobs(['failed'], 0, -1, true)) {
        if (!job || (job.data as { runId?: string })?.runId !== runId) continue;
        const taskId = (job.data as { taskId: string }).taskId;
        if (store.state.finishedTasks.has(taskId) || failed.has(taskId)) continue;
        failed.set(taskId, job.failedReason ?? 'failed');
        if (!reported.has(taskId)) {
          reported.add(taskId);
          store.append({ type: 'run/error', taskId, message: `task failed after ${job.attemptsMade} attempt(s): ${job.failedReason ?? 'unknown error'}`, fatal: false });
          progress(`${taskId}: failed after ${job.attemptsMade} attempt(s): ${job.failedReason}`);
        }
      }
      if (!progressed) await sleep(options.pollMs ?? 300, options.signal);
    }
    const start = readRunStartModel(store.runDir);
    const { model, warnings } = foldTaskDeltas(start, store.state, order);
    for (const w of warnings) progress(w);
    await saveCostModel(path.join(store.runDir, RUN_COST_MODEL_FILE), model);
    const summary = collectSummary(store, total, duplicates, [...failed.keys()], cancelled);
    if (!cancelled && failed.size === 0) {
      if (spec.environmentCostModel) await saveCostModel(spec.environmentCostModel, model);
      store.append({ type: 'run/finished', summary: { ...summary, mode: 'queue', collector: `${os.hostname()}:${process.pid}` } });
    }
    return summary;
  } finally {
    await queue.close();
    store.close();
  }
}

function collectSummary(store: RunStore, tasks: number, duplicates: number, failed: string[], cancelled: boolean): CollectSummary {
  const trajectories = [...store.state.trajectories.values()];
  return {
    runId: store.runId,
    runDir: store.runDir,
    tasks,
    tasksFinished: store.state.finishedTasks.size,
    duplicates,
    failed,
    cancelled,
    costUsd: store.state.spend.totalUsd,
    verifiedTrajectories: trajectories.length,
    meanQuality: trajectories.length ? trajectories.reduce((s, t) => s + t.quality, 0) / trajectories.length : 0,
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
