/**
 * Orchestration of a synthesis run: environment → task pool → explorer over the tasks → run store.
 * Every task explores from the run-start snapshot of the learned cost model (scale/exploreTask.ts), so a task's
 * exploration does not depend on the others and a run is deterministic for a seed in any execution mode
 * (single process, shards, queue workers); each task's delta is merged into the run's model in task order and
 * saved after the task, and the store's id-keyed events make a resumed task's replay idempotent.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from './agent/session';
import type { ToolContext } from './agent/tools';
import { PrefixCache, freshPythonRunner, type PrefixCacheStats } from './explorer/prefixCache';
import { DEFAULT_CLEANING } from './explorer/verifier';
import type { EnvironmentProfile } from './env/types';
import { choiceFromOption, CostModelWriter, costModelOrigin, resolveCostModelLocation, type CostModelOrigin } from './lcm/location';
import { runsDir } from './store/runFolder';
import { buildDefaultArms, createPriceCostEstimator, loadCostModel, saveCostModel, serializeCostModel, LearnedCostModel, type ArmConfig, type LcmOptions } from './lcm/index';
import { createSimulatedProvider } from './llm/sim/simulatedProvider';
import type { LlmProvider, ModelSpec } from './llm/types';
import type { RunEventInput } from './store/events';
import { RunStore } from './store/RunStore';
import { readRunMeta } from './store/runFolder';
import { resumePlan } from './store/runState';
import { assertResumable } from './store/resumeCheck';
import { modelsConfig, type RecordedProvider } from './store/runProviders';
import { assertSpendBounded } from './llm/spendBound';
import { CallGuard, type ProviderFailureTally, type RunStop } from './explorer/callGuard';
import { buildTaskPool, rejectionsByReason, type TaskPoolOptions } from './taskpool/pool';
import { readContaminationReferences } from './benchenv/contamination';
import type { TaskSpec } from './taskpool/types';
import type { EvidenceGraph } from './taskpool/graph';
import { buildStructuralGraph } from './taskpool/graph';
import type { ReviserModel } from './taskpool/revise';
import { awaitsRevision, emptyRevisionTally, exploredFromRun, reviseIntoRun, type ReviseOptions, type RevisionTally } from './explorer/revision';
import { exploreTask } from './scale/exploreTask';
import { formatShard, inShard, type Shard } from './scale/shard';
import { taskReplayFilter } from './scale/taskEvents';
import { RUN_COST_MODEL_FILE, RUN_COST_MODEL_START_FILE } from './scale/runCostModel';

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
  /**
   * Where the cost model is kept: a file; null: a fresh, unsaved model; default: the environment's under the data
   * folder, written back only when the run folder is inside the data folder (see lcm/location.ts).
   */
  costModelFile?: string | null;
  minQuality?: number;
  /**
   * Cap on the run's model calls. Needed when a model has no price (its calls count as $0, so the budget cannot
   * stop them); a resume keeps the run's cap unless it is given a new one.
   */
  maxCalls?: number;
  /** How each provider was set up (never keys), recorded in run.json so a resume can rebuild it (the CLI does). */
  providerSettings?: RecordedProvider[];
  maxK?: number;
  maxDepth?: number;
  targetAdmitted?: number;
  signal?: AbortSignal;
  /** One line per task, for stderr. */
  onProgress?: (line: string) => void;
  /** The task pool's build as counts (families, candidates, valid), for a UI; a new run only. */
  onPoolProgress?: TaskPoolOptions['onPoolProgress'];
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
   * Only the tasks of this shard (by task id, see scale/shard.ts). A sharded run reads the environment's cost
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
  /** Model calls that failed in this process (the provider gave up after its retries), with the last message. */
  modelCallFailures: ProviderFailureTally;
  /** Why the run stopped before its tasks were done: its model calls all failed, or the --max-calls cap. */
  stopped?: RunStop;
  /** The cost model the run started from (and where its learning goes). */
  costModelOrigin: CostModelOrigin;
}

/** The judge's and the reviser's models (they are called too, so they need a price like the arms' models). */
async function helperModelSpecs(options: SynthesizeOptions): Promise<ModelSpec[]> {
  const helpers = [options.judge, options.revise === 'rules' || options.revise === 'off' ? undefined : options.revise].filter((h): h is { provider: LlmProvider; model: string } => !!h);
  const specs = await Promise.all(helpers.map(async (h) => (await h.provider.listModels()).filter((m) => m.id === h.model)));
  return specs.flat();
}

/** A short stable hash of an environment's shape: the cost model is kept per environment. */
export function environmentHash(profile: EnvironmentProfile): string {
  const shape = profile.tables.map((t) => `${t.name}:${t.rowCount}:${t.columns.map((c) => `${c.name}/${c.type}`).join(',')}`).join('|');
  return createHash('sha256').update(shape).digest('hex').slice(0, 16);
}

/** The tool context the explorer uses: the session's, with every Python call in a clean namespace. */
export function explorerToolContext(session: AgentSession): ToolContext {
  return { ...session.toolContext, python: freshPythonRunner(session.python) };
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
interface RunSettings {
  budgetUsd: number;
  maxK: number;
  maxDepth: number;
  targetAdmitted: number;
  minQuality: number;
  maxCalls: number;
}

function recordedSettings(resumeDir: string | undefined): Partial<RunSettings> {
  if (!resumeDir) return {};
  try {
    const config = (readRunMeta(path.resolve(resumeDir)).config ?? {}) as Partial<RunSettings>;
    const pick: Partial<RunSettings> = {};
    for (const key of ['budgetUsd', 'maxK', 'maxDepth', 'targetAdmitted', 'minQuality', 'maxCalls'] as const) {
      if (typeof config[key] === 'number') pick[key] = config[key];
    }
    return pick;
  } catch {
    return {};
  }
}

async function synthesizeWith(session: AgentSession, folder: string, callerOptions: SynthesizeOptions, progress: (line: string) => void): Promise<SynthesisSummary> {
  const recorded = recordedSettings(callerOptions.resumeDir);
  // A cap on calls is the caller's to raise on a resume; the search settings are the run's.
  if (callerOptions.maxCalls !== undefined) delete recorded.maxCalls;
  const options: SynthesizeOptions = { ...callerOptions, ...recorded };
  const budgetUsd = options.budgetUsd ?? 0.05;
  if (!(budgetUsd > 0)) throw new RangeError(`the budget per task must be a positive number of USD, got ${budgetUsd}`);
  const providers = options.providers ?? [createSimulatedProvider()];
  const models: ModelSpec[] = (await Promise.all(providers.map((p) => p.listModels()))).flat();
  if (models.length === 0) throw new Error('no models: the providers offered none');
  assertSpendBounded([...models, ...(await helperModelSpecs(options))], options.maxCalls);

  // The cost model: one per environment, learning across runs.
  const arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
  const lcmOptions = { estimateCostUsd: createPriceCostEstimator(models) };
  // Where it comes from and where its learning goes (never into the data folder when the output is elsewhere).
  const location = resolveCostModelLocation(choiceFromOption(options.costModelFile), { dataFolder: folder, envHash: environmentHash(session.env.profile), runDir: path.resolve(options.resumeDir ?? options.outDir ?? runsDir(folder)) });
  let costModel: LearnedCostModel;
  let costModelWarnings: string[] = [];
  let trainedByRuns: string[] = [];
  // Every task explores from this snapshot; the run's model (costModel) accumulates the tasks' deltas.
  let runStartModel: LearnedCostModel | undefined;
  if (location.readFrom) {
    const loaded = await loadCostModel(location.readFrom, arms, lcmOptions);
    costModel = loaded.model;
    costModelWarnings = loaded.warnings;
    trainedByRuns = loaded.trainedByRuns;
    for (const w of loaded.warnings) progress(w);
  } else {
    costModel = new LearnedCostModel(arms, lcmOptions);
  }
  // The run: new, or resumed from its folder.
  let store: RunStore;
  let tasks: TaskSpec[];
  let seed: number;
  // A new run shows the judge the evidence graph's facts for the anchors; a resumed one has only the node ids.
  let graph: EvidenceGraph | undefined;
  let finished = new Set<string>();
  let origin = costModelOrigin(location, { trainedByRuns, updates: costModel.updates });
  if (options.resumeDir) {
    // Held against run.json, the derived files and the cost model snapshots before anything is written.
    for (const warning of assertResumable(path.resolve(options.resumeDir), { providers, models })) progress(warning);
    store = RunStore.open(path.resolve(options.resumeDir), { writable: true });
    origin = (store.state.started?.config as { costModel?: CostModelOrigin } | undefined)?.costModel ?? costModelOrigin(location, { trainedByRuns, updates: costModel.updates }, store.runId);
    const plan = resumePlan(store.state);
    tasks = [...store.state.tasks.values()];
    seed = store.state.started?.seed ?? options.seed ?? 1;
    finished = plan.finishedTaskIds;
    const snapshot = await restoreRunCostModel(store, arms, lcmOptions);
    if (snapshot.model) costModel = snapshot.model;
    else progress(snapshot.warning);
    const start = await loadCostModel(path.join(store.runDir, RUN_COST_MODEL_START), arms, lcmOptions);
    if (start.restored) runStartModel = start.model;
    else progress('the run folder has no run-start cost model snapshot (a run from an older version); the resumed tasks explore from the current model');
    store.append({ type: 'run/resumed', pid: process.pid, truncatedBytes: store.recovery.truncatedBytes, costModelUpdates: costModel.updates });
    progress(`resuming ${store.runId}: ${finished.size}/${tasks.length} tasks finished, ${plan.admittedTrajectoryIds.size} trajectories admitted`);
  } else {
    seed = options.seed ?? 1;
    progress('building the task pool…');
    const pool = await buildTaskPool(session.toolContext, {
      max: options.tasks ?? 8,
      seed,
      contamination: readContaminationReferences(folder),
      signal: options.signal,
      onProgress: progress,
      onPoolProgress: options.onPoolProgress,
    });
    tasks = pool.tasks.filter((task) => inShard(task.id, options.shard));
    graph = pool.graph;
    if (pool.tasks.length === 0) {
      const why = [...pool.notes, ...Object.entries(rejectionsByReason(pool.rejected)).map(([reason, n]) => `${n} rejected: ${reason}`)];
      throw new Error(`no tasks could be built for ${folder}${why.length ? `: ${why.join('; ')}` : ': the task families found nothing to ask'}`);
    }
    const config = { costModelUpdates: costModel.updates, budgetUsd, tasks: tasks.length, maxK: options.maxK ?? 3, maxDepth: options.maxDepth ?? 10, targetAdmitted: options.targetAdmitted ?? 3, minQuality: options.minQuality ?? DEFAULT_CLEANING.minQuality, ...modelsConfig(providers, models, options.providerSettings), ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}), costModel: origin, ...(options.shard ? { shard: formatShard(options.shard), poolTasks: pool.tasks.length } : {}) };
    // The folder appears with its task pool and run-start cost model, or not at all (a kill while it is made).
    // A shard's tasks keep their place in the whole pool: `toffee merge` restores the pool order from it.
    const initial = {
      events: tasks.map((task): RunEventInput => ({ type: 'task/added', task, ...(options.shard ? { poolIndex: pool.tasks.indexOf(task) } : {}) })),
      files: { [RUN_COST_MODEL_START]: serializeCostModel(costModel), [RUN_COST_MODEL]: serializeCostModel(costModel) },
    };
    store = options.outDir
      ? RunStore.createInDir(path.resolve(options.outDir), { dataFolder: folder, seed, config }, {}, initial)
      : RunStore.create(folder, { dataFolder: folder, seed, config }, {}, initial);
  }
  runStartModel ??= costModel.clone();
  const sharded = !!options.shard || !!(store.state.started?.config as { shard?: unknown } | undefined)?.shard;
  const modelWriter = new CostModelWriter(sharded ? { ...location, writeTo: undefined } : location, trainedByRuns, store.runId, progress);
  const toolContext = explorerToolContext(session);
  const cache = new PrefixCache(toolContext);
  const cleaning = { ...DEFAULT_CLEANING, ...(options.minQuality !== undefined ? { minQuality: options.minQuality } : {}) };

  let cancelled = false;
  let modelCalls = 0;
  let expansions = 0;
  let searchMs = 0;
  let providerLatencyMs = 0;
  const revisions = emptyRevisionTally();
  const calls = new CallGuard(options.maxCalls, store.state.spend.calls);
  const counts = () => ({ modelCalls, expansions, searchMs, providerLatencyMs, costModelWarnings, revisions, calls, origin });
  try {
    if (options.prepareOnly) return summarize(store, tasks.length, false, cache.stats(), counts());
    options.onStore?.(store);
    // One revision per task; a changed question joins the loop as a new task (explored, never revised again).
    const revise = async (task: TaskSpec, result: ReviseOptions['result']) => {
      const revision = await reviseIntoRun(store, revisions, { task, result, context: session.toolContext, graph: graph ?? buildStructuralGraph(session.env.profile, session.toolContext.documents), cleaning, reviser: options.revise === 'rules' || options.revise === 'off' ? undefined : options.revise, signal: options.signal });
      if (revision.reexplore) tasks.push(revision.reexplore);
      progress(revision.line);
    };
    const toRevise = (task: TaskSpec) => options.revise !== 'off' && awaitsRevision(store.state, task);
    for (const [i, task] of tasks.entries()) {
      if (finished.has(task.id)) {
        // A crash between task/finished and task/revised: the exploration is in the log, so it is revised from there.
        if (toRevise(task) && !options.signal?.aborted) await revise(task, exploredFromRun(store.state, task.id));
        continue;
      }
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      if (calls.exhausted()) break;
      // A resumed task replays deterministically: what was already written is ignored by id, and the spend
      // already on the ledger is not written twice.
      const replay = taskReplayFilter(store, task.id);
      const onEvents = (events: RunEventInput[]) => {
        const batch = replay(events);
        if (batch.length > 0) store.appendMany(batch);
      };
      const exploration = await exploreTask(task, {
        providers,
        models,
        toolContext,
        prefixCache: cache,
        seed,
        runStartModel,
        budgetUsd,
        maxCalls: calls.callsLeft(),
        maxK: options.maxK,
        maxDepth: options.maxDepth,
        targetAdmitted: options.targetAdmitted,
        cleaning,
        judge: options.judge ? { ...options.judge, graph } : undefined,
      }, { signal: options.signal, onEvents });
      const result = exploration.result;
      modelCalls += result.calls;
      expansions += result.expansions;
      searchMs += result.elapsedMs;
      providerLatencyMs += exploration.providerLatencyMs;
      if (result.stopReason === 'cancelled') {
        cancelled = true;
        progress(`[${i + 1}/${tasks.length}] ${task.id}: cancelled`);
        break;
      }
      const stop = calls.afterTask(task.id, result);
      if (stop) {
        progress(`[${i + 1}/${tasks.length}] ${task.id}: ${stop.message}`);
        break;
      }
      const stats = cache.stats();
      for (const w of costModel.applyDelta(exploration.costModelDelta)) progress(w);
      // The run's own model snapshot first: a resume must restart the next task from exactly this state.
      await saveRunCostModel(store, costModel);
      store.append({ type: 'task/finished', taskId: task.id, reason: result.stopReason, bestQuality: result.bestQuality, expansions: result.expansions, spentUsd: result.spentUsd, prefix: stats, costModelUpdates: costModel.updates, costModelDelta: exploration.costModelDelta });
      await modelWriter.save(costModel);
      progress(
        `[${i + 1}/${tasks.length}] ${task.id}: ${result.admitted.length} admitted (${result.admitted.filter((t) => t.hasRepair).length} with a repair), best quality ${result.bestQuality.toFixed(2)}, $${result.spentUsd.toFixed(4)}, ${result.tree.size} nodes, ${result.stopReason}`,
      );
      if (toRevise(task)) await revise(task, result);
    }
    if (calls.stop && !cancelled) progress(calls.stop.message);
    const summary = summarize(store, tasks.length, cancelled, cache.stats(), counts());
    if (cancelled) store.append({ type: 'run/cancelled', tasksFinished: store.state.finishedTasks.size });
    else if (!calls.stop) store.append({ type: 'run/finished', summary });
    return summary;
  } finally {
    store.close();
  }
}

const RUN_COST_MODEL = RUN_COST_MODEL_FILE;
const RUN_COST_MODEL_PREVIOUS = 'costModel.prev.json';
/** The model every task of the run explores from. */
const RUN_COST_MODEL_START = RUN_COST_MODEL_START_FILE;

/** Keeps the current and the previous snapshot in the run folder (a crash can fall between save and event). */
async function saveRunCostModel(store: RunStore, model: LearnedCostModel): Promise<void> {
  const current = path.join(store.runDir, RUN_COST_MODEL);
  if (fs.existsSync(current)) fs.renameSync(current, path.join(store.runDir, RUN_COST_MODEL_PREVIOUS));
  await saveCostModel(current, model);
}

/** The snapshot whose update count matches the last finished task (or the run's start). */
async function restoreRunCostModel(store: RunStore, arms: ArmConfig[], lcmOptions: LcmOptions): Promise<{ model?: LearnedCostModel; warning: string }> {
  const finished = [...store.state.finishedTasks.values()].sort((a, b) => a.seq - b.seq);
  const last = finished[finished.length - 1] as { costModelUpdates?: unknown } | undefined;
  const startConfig = store.state.started?.config as { costModelUpdates?: unknown } | undefined;
  const expected = last ? last.costModelUpdates : startConfig?.costModelUpdates;
  for (const name of [RUN_COST_MODEL, RUN_COST_MODEL_PREVIOUS]) {
    const loaded = await loadCostModel(path.join(store.runDir, name), arms, lcmOptions);
    if (loaded.restored && loaded.model.updates === expected) return { model: loaded.model, warning: '' };
  }
  return { warning: `the run folder has no cost model snapshot with ${String(expected)} updates; the resumed tasks may explore differently than the interrupted run would have` };
}

function summarize(
  store: RunStore,
  taskCount: number,
  cancelled: boolean,
  prefix: PrefixCacheStats,
  counts: { modelCalls: number; expansions: number; searchMs: number; providerLatencyMs: number; costModelWarnings: string[]; revisions: RevisionTally; calls: CallGuard; origin: CostModelOrigin },
): SynthesisSummary {
  const state = store.state;
  const trajectories = [...state.trajectories.values()];
  const saved = prefix.prefixHits + prefix.callHits;
  return {
    runId: store.runId,
    runDir: store.runDir,
    tasks: taskCount,
    tasksFinished: state.finishedTasks.size,
    cancelled,
    costUsd: state.spend.totalUsd,
    verifiedTrajectories: trajectories.length,
    meanQuality: trajectories.length ? trajectories.reduce((s, t) => s + t.quality, 0) / trajectories.length : 0,
    trajectoriesWithRepair: trajectories.filter((t) => t.hasRepair).length,
    rejectionsByReason: Object.fromEntries(state.rejections),
    toolCalls: prefix.requests,
    toolExecutionsSaved: saved,
    sandboxMsSaved: prefix.savedElapsedMs,
    prefix,
    modelCalls: counts.modelCalls,
    expansions: counts.expansions,
    expansionsPerSecond: counts.searchMs > 0 ? counts.expansions / (counts.searchMs / 1000) : 0,
    providerLatencyMs: counts.providerLatencyMs,
    costModelWarnings: counts.costModelWarnings,
    revisions: counts.revisions,
    modelCallFailures: { ...counts.calls.failures },
    costModelOrigin: counts.origin,
    ...(counts.calls.stop ? { stopped: counts.calls.stop } : {}),
  };
}
