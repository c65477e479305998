/**
 * A queue worker: takes task jobs from BullMQ, explores each exactly as a single process would (from the run's
 * run-start cost model, with the run's seed and settings) and returns the task's events as the job's result.
 * Requests go through a per-provider rate limit shared by all workers in Redis; a 429 backs off the whole queue
 * (BullMQ's queue.rateLimit) and puts the task back without counting an attempt. A worker killed mid-task
 * leaves its job's lock to expire; BullMQ's stalled-job check moves the job back to the queue for another worker.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { openAgentSession, type AgentSession } from '../agent/session';
import type { ToolContext } from '../agent/tools';
import { providerFailures } from '../explorer/callGuard';
import { PrefixCache } from '../explorer/prefixCache';
import { DEFAULT_CLEANING } from '../explorer/verifier';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../lcm/index';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { RunEventInput } from '../store/events';
import type { TaskSpec } from '../taskpool/types';
import { explorerToolContext, exploreTask } from '../run/exploreTask';
import { KEY_PREFIX, TASK_QUEUE, parseRunSpec, runSpecKey, taskJobDataSchema, type RunSpec, type TaskJobResult } from './queue';
import { SharedRateLimiter, rateLimitKey, withSharedRateLimit, withSharedTokenLimit } from './rateLimit';

export interface WorkerOptions {
  redis: Redis;
  /** A second connection for BullMQ's blocking reads. */
  blockingRedis: Redis;
  /** The worker's providers (their API keys stay on the worker); ids must cover the runs' providers. */
  providers: LlmProvider[];
  concurrency?: number;
  /** A job whose worker has not renewed its lock for this long is stalled and re-queued (default 30 s). */
  lockMs?: number;
  /** Maps a run's data folder to where this worker sees it. */
  folderFor?: (runFolder: string) => string;
  onLog?: (line: string) => void;
}

interface RunContext {
  spec: RunSpec;
  models: ModelSpec[];
  runStartModel: LearnedCostModel;
  session: AgentSession;
  toolContext: ToolContext;
  cache: PrefixCache;
}

export interface RunningWorker {
  worker: Worker;
  /** Waits for the jobs in progress and releases everything. */
  close(): Promise<void>;
}

/** What a worker keeps between jobs: one agent session per data folder, one context per run. */
interface WorkerState {
  options: WorkerOptions;
  name: string;
  queue: Queue;
  byId: Map<string, LlmProvider>;
  sessions: Map<string, Promise<AgentSession>>;
  runs: Map<string, Promise<RunContext>>;
  log: (line: string) => void;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const w: WorkerState = {
    options,
    name: `${os.hostname()}:${process.pid}`,
    queue: new Queue(TASK_QUEUE, { connection: options.redis, prefix: KEY_PREFIX }),
    byId: new Map(options.providers.map((p) => [p.id, p])),
    sessions: new Map(),
    runs: new Map(),
    log: options.onLog ?? (() => {}),
  };
  const lockDuration = options.lockMs ?? 30_000;
  const worker = new Worker(TASK_QUEUE, (job: Job) => processJob(w, job), {
    connection: options.blockingRedis,
    prefix: KEY_PREFIX,
    concurrency: options.concurrency ?? 1,
    lockDuration,
    stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
    maxStalledCount: 3,
    // Manual back-off (queue.rateLimit after a 429) needs a limiter; this one does not bind by itself.
    limiter: { max: 1_000_000, duration: 1000 },
    autorun: true,
  });
  worker.on('failed', (job, error) => w.log(`${job?.data?.taskId ?? job?.id}: attempt failed: ${error.message}`));
  worker.on('error', (error) => w.log(`worker error: ${error.message}`));
  // With a fixed data folder the environment is opened before the first job, not during it.
  if (options.folderFor) await sessionFor(w, path.resolve(options.folderFor('')));
  await worker.waitUntilReady();
  w.log(`worker ${w.name} ready (concurrency ${options.concurrency ?? 1})`);
  return {
    worker,
    async close() {
      await worker.close();
      await w.queue.close();
      for (const session of w.sessions.values()) await (await session.catch(() => undefined))?.dispose();
    },
  };
}

/** One session per data folder, opened on first use (a failed open is forgotten, so the next job tries again). */
function sessionFor(w: WorkerState, folder: string): Promise<AgentSession> {
  let session = w.sessions.get(folder);
  if (!session) {
    session = openAgentSession(folder);
    w.sessions.set(folder, session);
    session.catch(() => w.sessions.delete(folder));
  }
  return session;
}

/** The run's spec, models, run-start cost model, session and prefix cache, read once per run. */
function runFor(w: WorkerState, runId: string): Promise<RunContext> {
  let context = w.runs.get(runId);
  if (!context) {
    context = openRunContext(w, runId);
    w.runs.set(runId, context);
    context.catch(() => w.runs.delete(runId));
  }
  return context;
}

async function openRunContext(w: WorkerState, runId: string): Promise<RunContext> {
  const spec = parseRunSpec(await w.options.redis.get(runSpecKey(runId)), runId);
  const missing = spec.providers.filter((id) => !w.byId.has(id));
  if (missing.length > 0) throw new Error(`run ${runId} needs provider(s) ${missing.join(', ')}; this worker has ${[...w.byId.keys()].join(', ')}`);
  const providers = spec.providers.map((id) => w.byId.get(id)!);
  const models = (await Promise.all(providers.map((p) => p.listModels()))).flat();
  const arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
  const loaded = LearnedCostModel.fromJSON(spec.costModel, arms, { estimateCostUsd: createPriceCostEstimator(models) });
  if (loaded.warnings.length > 0) throw new Error(`run ${runId}: its run-start cost model does not fit this worker's models (${loaded.warnings.join('; ')})`);
  const folder = path.resolve(w.options.folderFor ? w.options.folderFor(spec.folder) : spec.folder);
  const session = await sessionFor(w, folder);
  const toolContext = explorerToolContext(session);
  return { spec, models, runStartModel: loaded.model, session, toolContext, cache: new PrefixCache(toolContext) };
}

/**
 * One task job through the per-task unit, with the run's seed and settings; its events (ending with task/finished)
 * are the job's result. A 429 backs the whole queue off and puts the task back without counting an attempt.
 */
async function processJob(w: WorkerState, job: Job): Promise<TaskJobResult> {
  const parsed = taskJobDataSchema.safeParse(job.data);
  if (!parsed.success) throw new Error(`job ${job.id} has invalid data: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const { runId, taskId } = parsed.data;
  const task = parsed.data.task as unknown as TaskSpec;
  const context = await runFor(w, runId);
  const { spec } = context;
  const controller = new AbortController();
  let rateLimitedMs: number | undefined;
  const providers = rateLimitedProviders(w, spec, (ms) => {
    rateLimitedMs = Math.max(rateLimitedMs ?? 0, ms);
    controller.abort();
  });
  const events: RunEventInput[] = [];
  w.log(`${taskId}: exploring (job ${job.id}, attempt ${job.attemptsMade + 1})`);
  const exploration = await exploreTask(
    task,
    {
      providers,
      models: context.models,
      toolContext: context.toolContext,
      prefixCache: context.cache,
      seed: spec.seed,
      runStartModel: context.runStartModel,
      budgetUsd: spec.budgetUsd,
      maxK: spec.maxK,
      maxDepth: spec.maxDepth,
      targetAdmitted: spec.targetAdmitted,
      cleaning: { ...DEFAULT_CLEANING, minQuality: spec.minQuality },
    },
    { signal: controller.signal, onEvents: (batch) => events.push(...batch) },
  );
  const result = exploration.result;
  if (rateLimitedMs !== undefined) {
    w.log(`${taskId}: rate limited; the queue backs off ${rateLimitedMs} ms and the task goes back to the queue`);
    await w.queue.rateLimit(rateLimitedMs);
    throw Worker.RateLimitError();
  }
  if (result.stopReason === 'cancelled') throw new Error(`${taskId}: exploration was cancelled`);
  // A task whose model calls all failed explored nothing: the job fails (and is retried) with the endpoint's words.
  const failures = providerFailures(result);
  if (failures.calls > 0 && failures.failed >= failures.calls) throw new Error(`${taskId}: every model call failed (${failures.failed}): ${failures.lastMessage ?? 'no message'}`);
  events.push({ type: 'task/finished', taskId, reason: result.stopReason, bestQuality: result.bestQuality, expansions: result.expansions, spentUsd: result.spentUsd, costModelDelta: exploration.costModelDelta, worker: w.name });
  w.log(`${taskId}: ${result.admitted.length} admitted, best quality ${result.bestQuality.toFixed(2)}, ${result.stopReason}`);
  return { taskId, worker: w.name, events };
}

/** The run's providers, each behind the rate limit its run asked for (shared by all workers in Redis). */
function rateLimitedProviders(w: WorkerState, spec: RunSpec, onRateLimited: (ms: number) => void): LlmProvider[] {
  return spec.providers.map((id) => {
    const provider = w.byId.get(id)!;
    const rpm = spec.requestsPerMinute[id];
    const tpm = spec.tokensPerMinute?.[id];
    const key = rateLimitKey(KEY_PREFIX, id);
    const requestLimited = rpm ? withSharedRateLimit(provider, new SharedRateLimiter(w.options.redis, key, rpm), onRateLimited) : provider;
    return tpm ? withSharedTokenLimit(requestLimited, w.options.redis, key, tpm) : requestLimited;
  });
}
