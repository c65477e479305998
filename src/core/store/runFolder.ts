/**
 * The run folder layout `<root>/.toffee/runs/<runId>/`, run ids, `run.json`, and the list of past runs with
 * summaries.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { scanEventLogSync } from './eventLog';
import type { RunConfig } from './events';
import { rebuildState } from './runState';
import { isProcessAlive } from './writerLock';

export const RUN_FORMAT_VERSION = 1;
export const RUN_FILES = {
  meta: 'run.json',
  events: 'events.jsonl',
  lock: 'events.lock',
  tasks: 'tasks.jsonl',
  trajectories: 'trajectories.jsonl',
} as const;

export function runsDir(root: string): string {
  return path.join(root, '.toffee', 'runs');
}

/** Sortable and unique: UTC time to the millisecond, then 6 random hex digits. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', ''); // 20261129T195450123Z
  return `${stamp}-${crypto.randomBytes(3).toString('hex')}`;
}

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function assertValidRunId(runId: string): void {
  if (!RUN_ID_PATTERN.test(runId) || runId.includes('..')) {
    throw new Error(`invalid run id ${JSON.stringify(runId)}: use letters, digits, '.', '_' and '-' (max 128)`);
  }
}

export interface RunMeta {
  formatVersion: number;
  runId: string;
  createdAt: string;
  /** The data environment's folder (absolute). */
  dataFolder: string;
  seed?: number;
  /** The run's configuration as the caller chose it (providers, budget, tasks…); never API keys. */
  config?: RunConfig;
  toolVersion: string;
}

export const runMetaSchema = z.looseObject({
  formatVersion: z.number().int().positive(),
  runId: z.string().min(1),
  createdAt: z.string().min(1),
  dataFolder: z.string(),
  seed: z.number().finite().optional(),
  config: z.unknown().optional(),
  toolVersion: z.string(),
});

/** Whether `dir` holds a run (its run.json); says nothing about whether the run is readable. */
export function isRunFolder(dir: string): boolean {
  return fs.existsSync(path.join(dir, RUN_FILES.meta));
}

export function readRunMeta(runDir: string): RunMeta {
  const metaPath = path.join(runDir, RUN_FILES.meta);
  let text: string;
  try {
    text = fs.readFileSync(metaPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`not a run folder: ${metaPath} is missing`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${metaPath} is not valid JSON: ${(error as Error).message}`);
  }
  const result = runMetaSchema.safeParse(parsed);
  if (!result.success) throw new Error(`${metaPath} is not a run description: ${result.error.issues[0]?.message}`);
  return result.data as RunMeta;
}

export interface RunSummary {
  runId: string;
  runDir: string;
  createdAt?: string;
  dataFolder?: string;
  seed?: number;
  /**
   * 'running' = a live writer holds the lock; 'cancelled' = stopped by its user (run/cancelled last);
   * 'interrupted' = no live writer and neither run/finished nor run/cancelled (a crash or a kill).
   */
  status: 'running' | 'finished' | 'cancelled' | 'interrupted' | 'unreadable';
  tasks: number;
  finishedTasks: number;
  nodes: number;
  admittedTrajectories: number;
  acceptedTrajectories: number;
  prunedTrajectories: number;
  spentUsd: number;
  lastSeq: number;
  lastEventAt?: string;
  /** Problems found reading the run (torn tail, corrupt lines), as messages. */
  problems: string[];
}

function lockHolderAlive(runDir: string): boolean {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(runDir, RUN_FILES.lock), 'utf8')) as { pid?: unknown };
    return typeof info.pid === 'number' && isProcessAlive(info.pid);
  } catch {
    return false;
  }
}

export function summarizeRun(runDir: string): RunSummary {
  const runId = path.basename(runDir);
  const empty: RunSummary = {
    runId,
    runDir,
    status: 'unreadable',
    tasks: 0,
    finishedTasks: 0,
    nodes: 0,
    admittedTrajectories: 0,
    acceptedTrajectories: 0,
    prunedTrajectories: 0,
    spentUsd: 0,
    lastSeq: 0,
    problems: [],
  };
  let meta: RunMeta;
  try {
    meta = readRunMeta(runDir);
  } catch (error) {
    return { ...empty, problems: [(error as Error).message] };
  }
  const base = { ...empty, runId: meta.runId, createdAt: meta.createdAt, dataFolder: meta.dataFolder, seed: meta.seed };
  let scan;
  try {
    scan = scanEventLogSync(path.join(runDir, RUN_FILES.events));
  } catch (error) {
    return { ...base, problems: [`cannot read events: ${(error as Error).message}`] };
  }
  const state = rebuildState(scan.events);
  const trajectories = [...state.trajectories.values()];
  const live = lockHolderAlive(runDir);
  return {
    ...base,
    status: live ? 'running' : state.status === 'finished' || state.status === 'cancelled' ? state.status : 'interrupted',
    tasks: state.tasks.size,
    finishedTasks: state.finishedTasks.size,
    nodes: state.nodeCount,
    admittedTrajectories: trajectories.length,
    acceptedTrajectories: trajectories.filter((t) => t.curation === 'accepted').length,
    prunedTrajectories: trajectories.filter((t) => t.curation === 'pruned').length,
    spentUsd: state.spend.totalUsd,
    lastSeq: state.lastSeq,
    lastEventAt: state.lastTs,
    problems: scan.issues.map((issue) => issue.message),
  };
}

/** Runs under `<root>/.toffee/runs`, newest first; a folder that is not a readable run is listed as 'unreadable'. */
export function listRuns(root: string): RunSummary[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(runsDir(root), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    // Hidden folders are runs still being created (see RunStore.createInDir), or left by a crash while they were.
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => summarizeRun(path.join(runsDir(root), entry.name)))
    .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.runId.localeCompare(a.runId));
}
