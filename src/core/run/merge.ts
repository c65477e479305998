/**
 * `toffee merge`: combines the run folders of a sharded run (or any runs of the same data folder, seed and
 * settings) into one run folder: tasks in pool order, each finished task's events once, the spend ledger, and
 * the cost model (run-start snapshot + every task's delta in pool order, as a single process computes it).
 * A task found in several inputs is a duplicate: the first finished copy is kept and the others are reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isKnownEvent, type RunConfig, type RunEvent, type RunEventInput } from '../store/events';
import { RunStore } from '../store/RunStore';
import type { TaskSpec } from '../taskpool/types';
import { appendFinishedTask, taskIdOf } from './taskEvents';
import { foldTaskDeltas, readRunStartModel, writeRunCostModels, RUN_COST_MODEL_START_FILE } from './runCostModel';

export interface MergeSummary {
  runId: string;
  runDir: string;
  inputs: number;
  tasks: number;
  tasksFinished: number;
  /** Task ids found finished in more than one input (kept once). */
  duplicateTasks: string[];
  /** Tasks no input finished (resume the merged run to explore them). */
  unfinishedTasks: number;
  costUsd: number;
  verifiedTrajectories: number;
  warnings: string[];
}

interface Source {
  dir: string;
  store: RunStore;
  events: RunEvent[];
}

const SETTINGS = ['budgetUsd', 'maxK', 'maxDepth', 'targetAdmitted', 'minQuality'] as const;

export async function mergeRuns(outDir: string, runDirs: readonly string[]): Promise<MergeSummary> {
  if (runDirs.length === 0) throw new Error('merge needs at least one run folder');
  const out = path.resolve(outDir);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new Error(`${outDir} exists and is not empty`);
  const warnings: string[] = [];
  const sources = runDirs.map((dir) => openSource(dir, warnings));
  try {
    checkPartsOfOneRun(sources, warnings);
    const { ordered, duplicateTasks } = chooseTasks(sources);
    const first = sources[0].store;
    const config: RunConfig = { ...first.state.started?.config, tasks: ordered.length, mergedFrom: sources.map((s) => s.store.runId) };
    delete config.shard;
    delete config.poolTasks;
    const store = RunStore.createInDir(out, { dataFolder: first.meta.dataFolder, seed: first.state.started?.seed, config });
    try {
      store.appendMany(ordered.map(({ task }) => ({ type: 'task/added' as const, task })));
      for (const { task, source, finished } of ordered) if (finished) appendFinishedTask(store, task.id, taskEventsOf(source, task.id));
      const start = readRunStartModel(first.runDir);
      const { model, warnings: foldWarnings } = foldTaskDeltas(start, store.state, ordered.map((o) => o.task.id));
      warnings.push(...foldWarnings);
      await writeRunCostModels(store.runDir, start, model);
      const summary: MergeSummary = {
        runId: store.runId,
        runDir: store.runDir,
        inputs: sources.length,
        tasks: ordered.length,
        tasksFinished: store.state.finishedTasks.size,
        duplicateTasks,
        unfinishedTasks: ordered.length - store.state.finishedTasks.size,
        costUsd: store.state.spend.totalUsd,
        verifiedTrajectories: store.state.trajectories.size,
        warnings,
      };
      if (summary.unfinishedTasks === 0) store.append({ type: 'run/finished', summary: { ...summary, mode: 'merge' } });
      return summary;
    } finally {
      store.close();
    }
  } finally {
    for (const source of sources) source.store.close();
  }
}

function openSource(dir: string, warnings: string[]): Source {
  const store = RunStore.open(path.resolve(dir));
  const read = store.read();
  if (read.issues.some((i) => i.kind !== 'torn-tail')) warnings.push(`${dir}: ${read.issues.length} problem(s) in events.jsonl; the readable events are merged`);
  for (const issue of read.issues) warnings.push(`${dir}: ${issue.message}`);
  return { dir, store, events: read.events };
}

/** Refuses inputs with another seed or search settings; warns about another data folder or run-start model. */
function checkPartsOfOneRun(sources: readonly Source[], warnings: string[]): void {
  const first = sources[0];
  const firstConfig = first.store.state.started?.config ?? {};
  for (const source of sources.slice(1)) {
    const config = source.store.state.started?.config ?? {};
    if (source.store.state.started?.seed !== first.store.state.started?.seed) throw new Error(`${source.dir} has seed ${source.store.state.started?.seed}, ${first.dir} has ${first.store.state.started?.seed}: not parts of one run`);
    const differing = SETTINGS.filter((k) => JSON.stringify(config[k]) !== JSON.stringify(firstConfig[k]));
    if (differing.length > 0) throw new Error(`${source.dir} differs from ${first.dir} in ${differing.join(', ')}: not parts of one run`);
    if (path.resolve(source.store.meta.dataFolder) !== path.resolve(first.store.meta.dataFolder)) warnings.push(`${source.dir} was run on ${source.store.meta.dataFolder}, ${first.dir} on ${first.store.meta.dataFolder}`);
    const startA = readFileOr(path.join(first.store.runDir, RUN_COST_MODEL_START_FILE));
    const startB = readFileOr(path.join(source.store.runDir, RUN_COST_MODEL_START_FILE));
    if (startA !== startB) warnings.push(`${source.dir} started from a different cost model than ${first.dir}: the merged run is not what one process would have produced`);
  }
}

/** Tasks in pool order (a shard records each task's poolIndex), each from the first input that finished it. */
function chooseTasks(sources: readonly Source[]): { ordered: Array<{ task: TaskSpec; poolIndex: number; source: Source; finished: boolean }>; duplicateTasks: string[] } {
  const chosen = new Map<string, { task: TaskSpec; poolIndex: number; source: Source; finished: boolean }>();
  const duplicateTasks: string[] = [];
  let fallbackIndex = 0;
  for (const source of sources) {
    const poolIndexById = new Map<string, number>();
    for (const event of source.events) if (event.type === 'task/added' && typeof event.poolIndex === 'number') poolIndexById.set(event.task.id, event.poolIndex);
    for (const task of source.store.state.tasks.values()) {
      const finished = source.store.state.finishedTasks.has(task.id);
      const previous = chosen.get(task.id);
      const poolIndex = poolIndexById.get(task.id) ?? previous?.poolIndex ?? 1e9 + fallbackIndex++;
      if (previous) {
        if (previous.finished && finished) duplicateTasks.push(task.id);
        if (previous.finished || !finished) continue;
      }
      chosen.set(task.id, { task, poolIndex, source, finished });
    }
  }
  return { ordered: [...chosen.values()].sort((a, b) => a.poolIndex - b.poolIndex), duplicateTasks };
}

/** A finished task's events in an input, as they were appended (run-level events other than errors left out). */
function taskEventsOf(source: Source, taskId: string): RunEventInput[] {
  const trajectoryTask = new Map([...source.store.state.trajectories.values()].map((t) => [t.trajectoryId, t.taskId]));
  const events: RunEventInput[] = [];
  for (const event of source.events) {
    if (!isKnownEvent(event) || event.type === 'task/added' || (event.type.startsWith('run/') && event.type !== 'run/error')) continue;
    if (taskIdOf(event, trajectoryTask) !== taskId) continue;
    const { v: _v, seq: _seq, ts: _ts, ...input } = event;
    events.push(input as RunEventInput);
  }
  return events;
}

function readFileOr(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
