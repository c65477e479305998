/**
 * Queue mode on BullMQ + Redis: the names, the Redis connection, and what travels through Redis (a run's spec,
 * one job per task, a job's result), validated with zod at each end.
 */
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { CostModelJson } from '../lcm/index';
import type { RunEventInput } from '../store/events';
import type { TaskSpec } from '../taskpool/types';

/** BullMQ key prefix and queue name; the run specs and rate-limit keys share the prefix. */
export const KEY_PREFIX = 'toffee';
export const TASK_QUEUE = 'tasks';

export function runSpecKey(runId: string): string {
  return `${KEY_PREFIX}:run:${runId}`;
}

export function collectedKey(runId: string): string {
  return `${KEY_PREFIX}:run:${runId}:collected`;
}

/** The set of runs enqueued (for `toffee status` without a run id). */
export const RUNS_KEY = `${KEY_PREFIX}:runs`;

/** One job per task; the id makes enqueueing idempotent (BullMQ ignores an add with an existing job id). */
export function taskJobId(runId: string, taskId: string): string {
  return `${runId}|${taskId}`.replace(/:/g, '_');
}

/** An ioredis connection as BullMQ wants it (blocking commands: no per-request retry limit). */
export function connectRedis(url: string): Redis {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a Redis URL: '${url}' (e.g. redis://127.0.0.1:6379)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Error(`not a Redis URL: '${url}' (redis:// or rediss://)`);
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

/** Fails with a clear message when Redis cannot be reached within `ms`. */
export async function checkRedis(redis: Redis, url: string, ms = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`cannot reach Redis at ${url} within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What every worker needs to explore a run's tasks exactly as a single process would. */
export interface RunSpec {
  runId: string;
  /** The data folder; a worker must see it at this path (or map it with --folder). */
  folder: string;
  runDir: string;
  seed: number;
  budgetUsd: number;
  maxK: number;
  maxDepth: number;
  targetAdmitted: number;
  minQuality: number;
  providers: string[];
  /** Requests per minute per provider id, shared by all workers. */
  requestsPerMinute: Record<string, number>;
  /** Tokens per minute per provider id, shared by all workers (a spec without it: none). */
  tokensPerMinute?: Record<string, number>;
  /** The run-start snapshot every task explores from. */
  costModel: CostModelJson;
  /** The environment's cost model file, updated by the collector when the run completes (null: none). */
  environmentCostModel: string | null;
  /**
   * The run's tasks, re-explored questions included (the collector raises it when a revision adds one).
   */
  tasks: number;
  /** The one-step revision after each task's first exploration, run by the collector (a spec without it: rules). */
  revise: QueueRevise;
}

/** Queue mode revises by the rules or not at all (a reviser model would need the workers' providers in the collector). */
export type QueueRevise = 'rules' | 'off';

export const runSpecSchema = z.looseObject({
  runId: z.string().min(1),
  folder: z.string().min(1),
  runDir: z.string().min(1),
  seed: z.number().int(),
  budgetUsd: z.number().positive(),
  maxK: z.number().int().positive(),
  maxDepth: z.number().int().positive(),
  targetAdmitted: z.number().int().positive(),
  minQuality: z.number().min(0).max(1),
  providers: z.array(z.string().min(1)).min(1),
  requestsPerMinute: z.record(z.string(), z.number().positive()),
  tokensPerMinute: z.record(z.string(), z.number().positive()).optional(),
  costModel: z.looseObject({ schema: z.literal('toffee-lcm') }),
  environmentCostModel: z.string().nullable(),
  tasks: z.number().int().nonnegative(),
  revise: z.enum(['rules', 'off']).default('rules'),
});

export function parseRunSpec(text: string | null, runId: string): RunSpec {
  if (text === null) throw new Error(`run ${runId} is not in this Redis (enqueue it with toffee enqueue)`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`run ${runId}: its spec in Redis is not JSON (${(error as Error).message})`);
  }
  const parsed = runSpecSchema.safeParse(value);
  if (!parsed.success) throw new Error(`run ${runId}: invalid spec in Redis: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data as unknown as RunSpec;
}

export interface TaskJobData {
  runId: string;
  taskId: string;
  /** The task's place in the pool. */
  poolIndex: number;
  task: TaskSpec;
}

export const taskJobDataSchema = z.looseObject({
  runId: z.string().min(1),
  taskId: z.string().min(1),
  poolIndex: z.number().int().nonnegative(),
  task: z.looseObject({ id: z.string().min(1), question: z.string(), evidence: z.array(z.unknown()) }),
});

/** A finished task: its events in the order a single process writes them, ending with task/finished. */
export interface TaskJobResult {
  taskId: string;
  worker: string;
  events: RunEventInput[];
}

export const taskJobResultSchema = z.looseObject({
  taskId: z.string().min(1),
  worker: z.string(),
  events: z.array(z.looseObject({ type: z.string() })).min(1),
});
