/**
 * One run in a single process, of the whole task pool or of one shard: open it (a new run builds its task pool and
 * saves its run-start cost model; a resumed one reads both from its folder), explore its tasks one after another
 * through the per-task unit (exploreTask.ts), revise each task once after its exploration (revision.ts), and sum
 * it up.
 *
 * Every task explores from the run-start snapshot of the learned cost model, so a task's exploration does not
 * depend on the others and a run is deterministic for a seed in every mode (single process, shards, queue
 * workers). The run's own model is that snapshot plus the finished tasks' deltas in task order (foldTaskDeltas):
 * the loop applies each delta as its task finishes, and a resume folds them from the log, as `toffee merge` and
 * the queue collector do. The store's id-keyed events make a resumed task's replay idempotent.
 */
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../agent/session';
import type { ToolContext } from '../agent/tools';
import { PrefixCache, type PrefixCacheStats } from '../explorer/prefixCache';
import { DEFAULT_CLEANING, type CleaningOptions } from '../explorer/verifier';
import { buildDefaultArms, createPriceCostEstimator, loadCostModel, saveCostModel, LearnedCostModel, type ArmConfig, type LcmOptions } from '../lcm/index';
import { createSimulatedProvider } from '../sim/simulatedProvider';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { RunConfig } from '../store/events';
import { RunStore } from '../store/RunStore';
import { readRunMeta } from '../store/runFolder';
import { resumePlan } from '../store/runState';
import { buildTaskPool, rejectionsByReason } from '../taskpool/pool';
import { readContaminationReferences } from '../benchenv/contamination';
import type { TaskSpec } from '../taskpool/types';
import type { EvidenceGraph } from '../taskpool/graph';
import { buildStructuralGraph } from '../taskpool/graph';
import type { ReviserModel } from '../taskpool/revise';
import { awaitsRevision, emptyRevisionTally, exploredFromRun, reviseIntoRun, runTaskOrder, type ReviseOptions, type RevisionTally } from './revision';
import { explorerToolContext, exploreTask, type TaskExploration } from './exploreTask';
import { formatShard, inShard, type Shard } from './shard';
import { taskReplayFilter } from './taskEvents';
import { environmentCostModelPath, foldTaskDeltas, RUN_COST_MODEL_FILE, RUN_COST_MODEL_START_FILE, writeRunCostModels } from './runCostModel';

export interface SynthesizeOptions {
  /** The data folder. */
  folder: string;
  /** Tasks to explore (default 8), picked round-robin across task families. */
  tasks?: number;
  /** USD per task (default 0.05). */
  budgetUsd?: number;
  /** Providers whose models form the cost model's arms (default: the offline simulated models). */
  providers?: LlmProvider[];
  seed?: number;
  /** Run folder to create (default `<folder>/.toffee/runs/<runId>`). */
  outDir?: string;
  /** An existing run folder to resume instead of starting a new run. */
  resumeDir?: string;
  /** Where the cost model is kept; null: a fresh, unsaved model (default: per environment under the folder). */
  costModelFile?: string | null;
  minQuality?: number;
  maxK?: number;
  maxDepth?: number;
  targetAdmitted?: number;
  signal?: AbortSignal;
  /** One line per task, for stderr. */
  onProgress?: (line: string) => void;
  /**
   * Called once the run's store is open. The store stays the run's one writer until the run ends (it is closed
   * then); the extension appends curation events through it while the run goes on.
   */
  onStore?: (store: RunStore) => void;
  /** An already open session on `folder` (tests, benchmarks); not disposed here. */
  session?: AgentSession;
  /** An LLM judge for the rubric's text criteria (default none; the offline simulated models never judge). */
  judge?: { provider: LlmProvider; model: string };
  /** The one-step revision after each task's first exploration: by the rules (default), a model, or off. */
  revise?: 'rules' | 'off' | ReviserModel;
  /**
   * Only the tasks of this shard (by task id, see shard.ts). A sharded run reads the environment's cost
   * model at its start but does not write it back (the shards' deltas are merged by `toffee merge`).
   */
  shard?: Shard;
  /** Create the run folder (task pool, run-start cost model) and return without exploring (queue mode enqueues it). */
  prepareOnly?: boolean;
}

export interface SynthesisSummary {
  runId: string;
  runDir: string;
  tasks: number;
  tasksFinished: number;
  cancelled: boolean;
  costUsd: number;
  /** Admitted (verified and cleaned) trajectories in the run. */
  verifiedTrajectories: number;
  meanQuality: number;
  trajectoriesWithRepair: number;
  rejectionsByReason: Record<string, number>;
  /** Tool calls the explorer requested in this process, and those served by the prefix cache. */
  toolCalls: number;
  toolExecutionsSaved: number;
  sandboxMsSaved: number;
  prefix: PrefixCacheStats;
  modelCalls: number;
  expansions: number;
  /** Node expansions per second of search time (the simulated provider never sleeps: no provider latency). */
  expansionsPerSecond: number;
  /** Simulated provider latency the searches would have waited, ms (reported, not slept). */
  providerLatencyMs: number;
  costModelWarnings: string[];
  /** One-step revisions after exploration (this process). */
  revisions: RevisionTally;
}

export async function synthesize(options: SynthesizeOptions): Promise<SynthesisSummary> {
  const progress = options.onProgress ?? (() => {});
  const folder = path.resolve(options.folder);
  const session = options.session ?? (await openAgentSession(folder));
  try {
    return await synthesizeWith(session, folder, options, progress);
  } finally {
    if (!options.session) await session.dispose();
  }
}

/** The search settings a run was started with; a resume must use them, whatever its caller passes. */
type RunSettings = Pick<Required<RunConfig>, 'budgetUsd' | 'maxK' | 'maxDepth' | 'targetAdmitted' | 'minQuality'>;

function recordedSettings(resumeDir: string | undefined): Partial<RunSettings> {
  if (!resumeDir) return {};
  try {
    const config = readRunMeta(path.resolve(resumeDir)).config ?? {};
    const pick: Partial<RunSettings> = {};
    for (const key of ['budgetUsd', 'maxK', 'maxDepth', 'targetAdmitted', 'minQuality'] as const) {
      if (typeof config[key] === 'number') pick[key] = config[key];
    }
    return pick;
  } catch {
    return {};
  }
}

/** What a run explores with: the providers, their models, the cost model's arms, the budget. */
interface RunModels {
  providers: LlmProvider[];
  models: ModelSpec[];
  arms: ArmConfig[];
  lcmOptions: LcmOptions;
  budgetUsd: number;
}

/** A run opened for exploring. */
interface OpenRun {
  store: RunStore;
  /** In run order; a revision appends the changed question it re-explores. */
  tasks: TaskSpec[];
  seed: number;
  /** Tasks the log already has finished (a resumed run). */
  finished: Set<string>;
  /** The evidence graph a new run built its pool from; a resumed run's judge and reviser get the structural graph. */
  graph?: EvidenceGraph;
  /** The snapshot every task explores from (never modified). */
  runStartModel: LearnedCostModel;
  /** The run's model: the run-start snapshot plus the finished tasks' deltas, in task order. */
  costModel: LearnedCostModel;
  costModelWarnings: string[];
  /** Where the environment's model is saved after each task; null for a shard or an unsaved model. */
  environmentModelFile: string | null;
}

/** What the loop counts, for the summary. */
interface RunTally {
  cancelled: boolean;
  modelCalls: number;
  expansions: number;
  searchMs: number;
  providerLatencyMs: number;
  revisions: RevisionTally;
}

async function synthesizeWith(session: AgentSession, folder: string, callerOptions: SynthesizeOptions, progress: (line: string) => void): Promise<SynthesisSummary> {
  const options: SynthesizeOptions = { ...callerOptions, ...recordedSettings(callerOptions.resumeDir) };
  const models = await runModels(options);
  const run = options.resumeDir ? await resumeRun(session, folder, options, models, progress) : await startRun(session, folder, options, models, progress);
  const toolContext = explorerToolContext(session);
  const cache = new PrefixCache(toolContext);
  const tally: RunTally = { cancelled: false, modelCalls: 0, expansions: 0, searchMs: 0, providerLatencyMs: 0, revisions: emptyRevisionTally() };
  try {
    if (options.prepareOnly) return summarize(run, cache.stats(), tally);
    options.onStore?.(run.store);
    await exploreRun({ run, session, options, models, toolContext, cache, tally, progress });
    const summary = summarize(run, cache.stats(), tally);
    if (!tally.cancelled) run.store.append({ type: 'run/finished', summary });
    return summary;
  } finally {
    run.store.close();
  }
}

async function runModels(options: SynthesizeOptions): Promise<RunModels> {
  const budgetUsd = options.budgetUsd ?? 0.05;
  if (!(budgetUsd > 0)) throw new RangeError(`the budget per task must be a positive number of USD, got ${budgetUsd}`);
  const providers = options.providers ?? [createSimulatedProvider()];
  const models: ModelSpec[] = (await Promise.all(providers.map((p) => p.listModels()))).flat();
  if (models.length === 0) throw new Error('no models: the providers offered none');
  return { providers, models, arms: buildDefaultArms(models, { operators: ['explore', 'repair'] }), lcmOptions: { estimateCostUsd: createPriceCostEstimator(models) }, budgetUsd };
}

/** The environment's cost model (one per environment, learning across runs), or a fresh one when none is kept. */
async function environmentModel(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void) {
  const file = options.costModelFile === undefined ? environmentCostModelPath(folder, session.env.profile) : options.costModelFile;
  if (!file) return { file, model: new LearnedCostModel(models.arms, models.lcmOptions), warnings: [] };
  const loaded = await loadCostModel(file, models.arms, models.lcmOptions);
  for (const w of loaded.warnings) progress(w);
  return { file, model: loaded.model, warnings: loaded.warnings };
}

/** A new run: the task pool (or a shard of it), the run folder, and the run-start snapshot of the environment's model. */
async function startRun(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void): Promise<OpenRun> {
  const environment = await environmentModel(session, folder, options, models, progress);
  const seed = options.seed ?? 1;
  progress('building the task pool…');
  const pool = await buildTaskPool(session.toolContext, { max: options.tasks ?? 8, seed, contamination: readContaminationReferences(folder), signal: options.signal, onProgress: progress });
  const tasks = pool.tasks.filter((task) => inShard(task.id, options.shard));
  if (pool.tasks.length === 0) {
    const why = [...pool.notes, ...Object.entries(rejectionsByReason(pool.rejected)).map(([reason, n]) => `${n} rejected: ${reason}`)];
    throw new Error(`no tasks could be built for ${folder}${why.length ? `: ${why.join('; ')}` : ': the task families found nothing to ask'}`);
  }
  const costModel = environment.model;
  const config: RunConfig = {
    costModelUpdates: costModel.updates,
    budgetUsd: models.budgetUsd,
    tasks: tasks.length,
    maxK: options.maxK ?? 3,
    maxDepth: options.maxDepth ?? 10,
    targetAdmitted: options.targetAdmitted ?? 3,
    minQuality: options.minQuality ?? DEFAULT_CLEANING.minQuality,
    providers: models.providers.map((p) => p.id),
    ...(options.shard ? { shard: formatShard(options.shard), poolTasks: pool.tasks.length } : {}),
  };
  const store = options.outDir ? RunStore.createInDir(path.resolve(options.outDir), { dataFolder: folder, seed, config }) : RunStore.create(folder, { dataFolder: folder, seed, config });
  // A shard's tasks keep their place in the whole pool: `toffee merge` restores the pool order from it.
  store.appendMany(tasks.map((task) => ({ type: 'task/added' as const, task, ...(options.shard ? { poolIndex: pool.tasks.indexOf(task) } : {}) })));
  const runStartModel = costModel.clone();
  await writeRunCostModels(store.runDir, runStartModel, costModel);
  // A shard reads the environment's model at its start but does not write it back (`toffee merge` folds the shards).
  const environmentModelFile = options.shard ? null : environment.file;
  return { store, tasks, seed, finished: new Set(), graph: pool.graph, runStartModel, costModel, costModelWarnings: environment.warnings, environmentModelFile };
}

/** A run continued from its folder: its tasks and settings as recorded, its model folded from the log. */
async function resumeRun(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void): Promise<OpenRun> {
  const environment = await environmentModel(session, folder, options, models, progress);
  const store = RunStore.open(path.resolve(options.resumeDir!), { writable: true });
  const plan = resumePlan(store.state);
  const order = runTaskOrder(store.state);
  const start = await loadCostModel(path.join(store.runDir, RUN_COST_MODEL_START_FILE), models.arms, models.lcmOptions);
  let runStartModel: LearnedCostModel;
  let costModel: LearnedCostModel;
  const costModelWarnings = [...environment.warnings];
  if (start.restored) {
    runStartModel = start.model;
    const folded = foldTaskDeltas(start.model, store.state, order);
    costModel = folded.model;
    costModelWarnings.push(...folded.warnings);
    for (const w of folded.warnings) progress(w);
  } else {
    // A run from a version without a run-start snapshot: its last saved model, else the environment's.
    const saved = await loadCostModel(path.join(store.runDir, RUN_COST_MODEL_FILE), models.arms, models.lcmOptions);
    costModel = saved.restored ? saved.model : environment.model;
    runStartModel = costModel.clone();
    progress('the run folder has no run-start cost model snapshot (a run from an older version); the resumed tasks explore from its last saved model');
  }
  store.append({ type: 'run/resumed', pid: process.pid, truncatedBytes: store.recovery.truncatedBytes, costModelUpdates: costModel.updates });
  progress(`resuming ${store.runId}: ${plan.finishedTaskIds.size}/${order.length} tasks finished, ${plan.admittedTrajectoryIds.size} trajectories admitted`);
  const environmentModelFile = store.state.started?.config?.shard ? null : environment.file;
  return { store, tasks: order.map((id) => store.state.tasks.get(id)!), seed: store.state.started?.seed ?? options.seed ?? 1, finished: plan.finishedTaskIds, runStartModel, costModel, costModelWarnings, environmentModelFile };
}

/** Everything the loop over a run's tasks reads and counts. */
interface Exploring {
  run: OpenRun;
  session: AgentSession;
  options: SynthesizeOptions;
  models: RunModels;
  /** The explorer's tool context, and the prefix cache its calls go through. */
  toolContext: ToolContext;
  cache: PrefixCache;
  tally: RunTally;
  progress: (line: string) => void;
}

/** Explores the run's tasks in order (a revision may append one), revising each once; stops when cancelled. */
async function exploreRun(x: Exploring): Promise<void> {
  const cleaning: CleaningOptions = { ...DEFAULT_CLEANING, ...(x.options.minQuality !== undefined ? { minQuality: x.options.minQuality } : {}) };
  for (const [i, task] of x.run.tasks.entries()) {
    if (x.run.finished.has(task.id)) {
      // A crash between task/finished and task/revised: the exploration is in the log, so it is revised from there.
      if (!x.options.signal?.aborted) await reviseOnce(x, cleaning, task, () => exploredFromRun(x.run.store.state, task.id));
      continue;
    }
    if (x.options.signal?.aborted) {
      x.tally.cancelled = true;
      break;
    }
    const exploration = await exploreOne(x, cleaning, task);
    if (exploration.result.stopReason === 'cancelled') {
      x.tally.cancelled = true;
      x.progress(`[${i + 1}/${x.run.tasks.length}] ${task.id}: cancelled`);
      break;
    }
    await finishTask(x, task, exploration);
    const result = exploration.result;
    x.progress(
      `[${i + 1}/${x.run.tasks.length}] ${task.id}: ${result.admitted.length} admitted (${result.admitted.filter((t) => t.hasRepair).length} with a repair), best quality ${result.bestQuality.toFixed(2)}, $${result.spentUsd.toFixed(4)}, ${result.tree.size} nodes, ${result.stopReason}`,
    );
    await reviseOnce(x, cleaning, task, () => result);
  }
}

/** One task through the per-task unit; a resumed task's replay writes only what the log does not have yet. */
async function exploreOne(x: Exploring, cleaning: CleaningOptions, task: TaskSpec): Promise<TaskExploration> {
  const { options, run, models } = x;
  // A resumed task replays deterministically: what was already written is ignored by id, and the spend already on
  // the ledger is not written twice.
  const replay = taskReplayFilter(run.store, task.id);
  const exploration = await exploreTask(
    task,
    {
      providers: models.providers,
      models: models.models,
      toolContext: x.toolContext,
      prefixCache: x.cache,
      seed: run.seed,
      runStartModel: run.runStartModel,
      budgetUsd: models.budgetUsd,
      maxK: options.maxK,
      maxDepth: options.maxDepth,
      targetAdmitted: options.targetAdmitted,
      cleaning,
      judge: options.judge ? { ...options.judge, graph: run.graph } : undefined,
    },
    {
      signal: options.signal,
      onEvents: (events) => {
        const batch = replay(events);
        if (batch.length > 0) run.store.appendMany(batch);
      },
    },
  );
  const result = exploration.result;
  x.tally.modelCalls += result.calls;
  x.tally.expansions += result.expansions;
  x.tally.searchMs += result.elapsedMs;
  x.tally.providerLatencyMs += exploration.providerLatencyMs;
  return exploration;
}

/** A task's delta joins the run's model, its task/finished is written, and the models are saved. */
async function finishTask(x: Exploring, task: TaskSpec, exploration: TaskExploration): Promise<void> {
  const { run } = x;
  const result = exploration.result;
  const prefix = x.cache.stats();
  for (const w of run.costModel.applyDelta(exploration.costModelDelta)) x.progress(w);
  run.store.append({ type: 'task/finished', taskId: task.id, reason: result.stopReason, bestQuality: result.bestQuality, expansions: result.expansions, spentUsd: result.spentUsd, prefix, costModelUpdates: run.costModel.updates, costModelDelta: exploration.costModelDelta });
  // The saved model is what the log's deltas fold to (a resume folds them again, whatever this file holds).
  await saveCostModel(path.join(run.store.runDir, RUN_COST_MODEL_FILE), run.costModel);
  if (run.environmentModelFile) await saveCostModel(run.environmentModelFile, run.costModel);
}

/**
 * A task's one revision after its first exploration, unless it had it (or is a revision itself); a changed
 * question joins the run's tasks, explored and never revised again.
 */
async function reviseOnce(x: Exploring, cleaning: CleaningOptions, task: TaskSpec, explored: () => ReviseOptions['result']): Promise<void> {
  const { run, session, options } = x;
  if (options.revise === 'off' || !awaitsRevision(run.store.state, task)) return;
  const revision = await reviseIntoRun(run.store, x.tally.revisions, {
    task,
    result: explored(),
    context: session.toolContext,
    graph: run.graph ?? buildStructuralGraph(session.env.profile, session.toolContext.documents),
    cleaning,
    reviser: options.revise === 'rules' ? undefined : options.revise,
    signal: options.signal,
  });
  if (revision.reexplore) run.tasks.push(revision.reexplore);
  x.progress(revision.line);
}

function summarize(run: OpenRun, prefix: PrefixCacheStats, tally: RunTally): SynthesisSummary {
  const { store } = run;
  const state = store.state;
  const trajectories = [...state.trajectories.values()];
  const saved = prefix.prefixHits + prefix.callHits;
  return {
    runId: store.runId,
    runDir: store.runDir,
    tasks: run.tasks.length,
    tasksFinished: state.finishedTasks.size,
    cancelled: tally.cancelled,
    costUsd: state.spend.totalUsd,
    verifiedTrajectories: trajectories.length,
    meanQuality: trajectories.length ? trajectories.reduce((s, t) => s + t.quality, 0) / trajectories.length : 0,
    trajectoriesWithRepair: trajectories.filter((t) => t.hasRepair).length,
    rejectionsByReason: Object.fromEntries(state.rejections),
    toolCalls: prefix.requests,
    toolExecutionsSaved: saved,
    sandboxMsSaved: prefix.savedElapsedMs,
    prefix,
    modelCalls: tally.modelCalls,
    expansions: tally.expansions,
    expansionsPerSecond: tally.searchMs > 0 ? tally.expansions / (tally.searchMs / 1000) : 0,
    providerLatencyMs: tally.providerLatencyMs,
    costModelWarnings: run.costModelWarnings,
    revisions: tally.revisions,
  };
}
