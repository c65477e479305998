import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Redis } from 'ioredis';
import { collectRun, enqueueRun, queueStatus, type CollectSummary } from '../../core/scale/coordinator';
import { checkRedis, connectRedis } from '../../core/scale/queue';
import { withLatencyEndpoint } from '../../core/scale/rateLimit';
import { startWorker } from '../../core/scale/worker';
import { CliError, folderArgument, parseCommandArgs, resolveRunDir, type CliCommand } from '../command';
import { positiveFlag, providersFromFlags } from './synthesize';
import { PROVIDER_FLAG_OPTIONS, PROVIDER_FLAG_USAGE } from '../providers';

const PROVIDER_OPTIONS = PROVIDER_FLAG_USAGE;

const providerFlags = PROVIDER_FLAG_OPTIONS;

async function withRedis<T>(url: string | undefined, usage: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  if (!url) throw new CliError(`--redis URL is required (e.g. redis://127.0.0.1:6379)\n${usage}`, 2);
  let redis: Redis;
  try {
    redis = connectRedis(url);
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
  redis.on('error', () => {});
  try {
    await checkRedis(redis, url);
    return await use(redis);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(error instanceof Error ? error.message : String(error));
  } finally {
    redis.disconnect();
  }
}

function formatCollect(s: CollectSummary): string {
  return [
    `Run ${s.runId}${s.cancelled ? ' (collector stopped; run toffee collect to continue)' : ''}`,
    `  folder:                  ${s.runDir}`,
    `  tasks:                   ${s.tasksFinished}/${s.tasks} finished${s.failed.length ? `, ${s.failed.length} failed: ${s.failed.join(', ')}` : ''}`,
    `  duplicate results:       ${s.duplicates} (ignored)`,
    `  cost:                    $${s.costUsd.toFixed(4)}`,
    `  verified trajectories:   ${s.verifiedTrajectories} (mean quality ${s.meanQuality.toFixed(3)})`,
    `  revision:                ${s.revisions.revised} revised (${s.revisions.reExplored} re-explored, ${s.revisions.reScored} trajectories re-scored), ${s.revisions.rejected} rejected, ${s.revisions.kept} kept by this collector — toffee revisions <runDir> lists them`,
  ].join('\n');
}

async function collectWithSignal(redis: Redis, runDir: string, json: boolean): Promise<number> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  try {
    const summary = await collectRun({ runDir, redis, signal: controller.signal, onProgress: (line) => process.stderr.write(`${line}\n`) });
    console.log(json ? JSON.stringify(summary, null, 2) : formatCollect(summary));
    return summary.cancelled ? 130 : summary.failed.length > 0 ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigint);
  }
}

/** `--requests-per-minute R` or `--tokens-per-minute T`: the same limit for every provider. */
function perMinute(flag: 'requests-per-minute' | 'tokens-per-minute', text: string | undefined, providers: string[]): Record<string, number> {
  if (text === undefined) return {};
  const limit = positiveFlag(flag, text, 0);
  return Object.fromEntries(providers.map((id) => [id, limit]));
}

const ENQUEUE_USAGE = `Usage: toffee enqueue <folder> --redis URL [options]

Queue mode: builds the task pool, creates the run folder (as toffee synthesize would) and enqueues one BullMQ job
per task in Redis for toffee worker processes; then collects the finished tasks into the run folder until the run
is done (toffee collect continues an interrupted collection). Workers must see the data folder at the same path.

Options:
  --redis URL              Redis, e.g. redis://127.0.0.1:6379 (required)
  --tasks N                tasks (default 8)
  --budget USD             budget per task (default 0.05)
  --seed S                 default 1
  --min-quality Q          admission threshold, 0..1 (default 0.9)
  --out DIR                run folder to create (default <folder>/.toffee/runs/<runId>)
  --requests-per-minute R  model requests per minute per provider, shared by all workers
  --tokens-per-minute T    model tokens per minute per provider (prompt + completion allowance, settled with
                           each reply's usage), shared by all workers
  --revise R               one-step revision after each task's first exploration, run by the collector:
                           rules (default, offline) or off (a reviser model: toffee synthesize --revise model:M)
  --no-wait                enqueue and return without collecting
  --json                   print the summary as JSON
${PROVIDER_OPTIONS}`;

export const enqueueCommand: CliCommand = {
  name: 'enqueue',
  summary: 'Queue mode: build the task pool and enqueue one job per task in Redis, then collect the results',
  usage: ENQUEUE_USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      redis: { type: 'string' },
      tasks: { type: 'string' },
      budget: { type: 'string' },
      seed: { type: 'string' },
      'min-quality': { type: 'string' },
      out: { type: 'string' },
      'requests-per-minute': { type: 'string' },
      'tokens-per-minute': { type: 'string' },
      revise: { type: 'string', default: 'rules' },
      'no-wait': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      ...providerFlags,
    }, ENQUEUE_USAGE);
    const folder = folderArgument(positionals, ENQUEUE_USAGE);
    if (values.out && fs.existsSync(values.out) && fs.readdirSync(values.out).length > 0) throw new CliError(`--out ${values.out} exists and is not empty`);
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, not '${values.seed}'`, 2);
    const minQuality = values['min-quality'] === undefined ? undefined : Number(values['min-quality']);
    if (minQuality !== undefined && !(minQuality >= 0 && minQuality <= 1)) throw new CliError(`--min-quality must be between 0 and 1, not '${values['min-quality']}'`, 2);
    const revise = values.revise;
    // A reviser model would be called by the collector, which has no providers (their keys stay on the workers).
    if (revise?.startsWith('model:')) throw new CliError('--revise model:M is not supported in queue mode: the collector revises by the rules (or use toffee synthesize --revise model:M)', 2);
    if (revise !== 'rules' && revise !== 'off') throw new CliError(`--revise must be rules or off, not '${revise}'`, 2);
    const providers = providersFromFlags(values);
    const rpm = perMinute('requests-per-minute', values['requests-per-minute'], providers.map((p) => p.id));
    const tpm = perMinute('tokens-per-minute', values['tokens-per-minute'], providers.map((p) => p.id));
    return withRedis(values.redis, ENQUEUE_USAGE, async (redis) => {
      const run = await enqueueRun({
        folder,
        redis,
        tasks: positiveFlag('tasks', values.tasks, 8, true),
        budgetUsd: positiveFlag('budget', values.budget, 0.05),
        seed,
        minQuality,
        outDir: values.out,
        providers,
        requestsPerMinute: rpm,
        tokensPerMinute: tpm,
        revise,
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      if (values['no-wait']) {
        console.log(values.json ? JSON.stringify(run, null, 2) : `Run ${run.runId}: ${run.tasks} task(s) enqueued\n  folder: ${run.runDir}\n  collect with: toffee collect ${run.runDir} --redis ${values.redis}`);
        return 0;
      }
      return collectWithSignal(redis, run.runDir, values.json);
    });
  },
};

const COLLECT_USAGE = `Usage: toffee collect <runDir> --redis URL [--json]

Queue mode: writes the finished tasks of an enqueued run from Redis into its run folder (events.jsonl,
trajectories.jsonl: the files a single-process run writes) until every task is finished or failed for good.
Each finished task gets the one-step revision toffee synthesize runs (the run's --revise setting); a changed
question is enqueued as a new task. Safe to stop and run again: tasks already in the folder are skipped (and
revised if the stop came before their revision), missing jobs re-enqueued, failed ones retried.`;

export const collectCommand: CliCommand = {
  name: 'collect',
  summary: 'Queue mode: stream an enqueued run\'s finished tasks from Redis into its run folder',
  usage: COLLECT_USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { redis: { type: 'string' }, json: { type: 'boolean', default: false } }, COLLECT_USAGE);
    const runDir = folderArgument(positionals, COLLECT_USAGE);
    resolveRunDir(runDir);
    return withRedis(values.redis, COLLECT_USAGE, (redis) => collectWithSignal(redis, runDir, values.json));
  },
};

const WORKER_USAGE = `Usage: toffee worker --redis URL [options]

Queue mode: explores tasks from the Redis queue until stopped (SIGINT/SIGTERM: finishes the tasks in progress).
Each task explores exactly as in a single-process run with the run's seed, so the output does not depend on
which worker ran it. A worker killed mid-task loses nothing: its task is re-queued once its lock expires.

Options:
  --redis URL              Redis, e.g. redis://127.0.0.1:6379 (required)
  --concurrency C          tasks at once in this process (default 1)
  --lock-seconds S         a task whose worker stops renewing its lock for S seconds is re-queued (default 30)
  --folder DIR             where this worker sees the runs' data folder (default: the path enqueue recorded);
                           opened at start
  --latency-endpoint URL   benchmark aid: offline-sim with a real round trip to URL before each completion
${PROVIDER_OPTIONS}`;

export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'Queue mode: run task jobs from Redis (shared rate limits, retries, stalled-job recovery)',
  usage: WORKER_USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, {
      redis: { type: 'string' },
      concurrency: { type: 'string' },
      'lock-seconds': { type: 'string' },
      folder: { type: 'string' },
      'latency-endpoint': { type: 'string' },
      ...providerFlags,
    }, WORKER_USAGE);
    if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}'\n${WORKER_USAGE}`, 2);
    let providers = providersFromFlags(values);
    const endpoint = values['latency-endpoint'];
    if (endpoint) providers = providers.map((p) => withLatencyEndpoint(p, endpoint));
    const folder = values.folder ? path.resolve(values.folder) : undefined;
    if (folder && !fs.existsSync(folder)) throw new CliError(`not a folder: ${values.folder}`);
    const concurrency = positiveFlag('concurrency', values.concurrency, 1, true);
    const lockMs = positiveFlag('lock-seconds', values['lock-seconds'], 30) * 1000;
    if (!values.redis) throw new CliError(`--redis URL is required\n${WORKER_USAGE}`, 2);
    let blocking: Redis;
    try {
      blocking = connectRedis(values.redis);
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    blocking.on('error', () => {});
    try {
      return await withRedis(values.redis, WORKER_USAGE, async (redis) => {
        const running = await startWorker({
          redis,
          blockingRedis: blocking,
          providers,
          concurrency,
          lockMs,
          folderFor: folder ? () => folder : undefined,
          onLog: (line) => process.stderr.write(`${line}\n`),
        });
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        process.stderr.write('stopping: finishing the tasks in progress\n');
        await running.close();
        return 0;
      });
    } finally {
      blocking.disconnect();
    }
  },
};

const STATUS_USAGE = `Usage: toffee status --redis URL [--run ID] [--json]

Queue mode: the task queue (waiting, active, delayed, failed), the workers connected, a 429 back-off in force,
and per run its tasks collected into the run folder.`;

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'Queue mode: progress of the queue, its workers and the enqueued runs',
  usage: STATUS_USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { redis: { type: 'string' }, run: { type: 'string' }, json: { type: 'boolean', default: false } }, STATUS_USAGE);
    if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}'\n${STATUS_USAGE}`, 2);
    return withRedis(values.redis, STATUS_USAGE, async (redis) => {
      const status = await queueStatus(redis, values.run);
      if (values.json) {
        console.log(JSON.stringify(status, null, 2));
        return 0;
      }
      const q = status.queue;
      const lines = [
        `queue: ${q.waiting + q.prioritized} waiting, ${q.active} active, ${q.delayed} delayed (retry back-off), ${q.failed} failed, ${q.completed} completed not yet collected`,
        `workers: ${status.workers}${status.rateLimitedForMs > 0 ? `; rate limited (429) for another ${status.rateLimitedForMs} ms` : ''}`,
      ];
      for (const r of status.runs) lines.push(`run ${r.runId}: ${r.collected}/${r.tasks} tasks collected, ${r.active} running, ${r.waiting} waiting, ${r.failed} failed — ${r.runDir}`);
      if (status.runs.length === 0) lines.push('no runs enqueued');
      console.log(lines.join('\n'));
      return 0;
    });
  },
};
