/**
 * Orchestration of a synthesis run: environment → task pool → explorer over the tasks → run store.
 * Tasks run one at a time so the learned cost model's updates, and therefore the run, are deterministic for a
 * seed; the model is saved after each task, so a resumed run replays an interrupted task exactly (same model
 * state, same seed) and the store's id-keyed events make the replay idempotent.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from './agent/session';
import type { ToolContext } from './agent/tools';
import { PrefixCache, freshPythonRunner, type PrefixCacheStats } from './explorer/prefixCache';
import { costModelPolicy, createStepEnvironment, runSearch, type SearchResult } from './explorer/search';
import { DEFAULT_CLEANING } from './explorer/verifier';
import type { EnvironmentProfile } from './env/types';
import { buildDefaultArms, costModelPath, createPriceCostEstimator, loadCostModel, saveCostModel, LearnedCostModel, type ArmConfig, type LcmOptions } from './lcm/index';
import { createSimulatedProvider } from './llm/sim/simulatedProvider';
import type { LlmProvider, ModelSpec } from './llm/types';
import type { RunEventInput } from './store/events';
import { RunStore } from './store/RunStore';
import { resumePlan } from './store/runState';
import { buildTaskPool, rejectionsByReason } from './taskpool/pool';
import { readContaminationReferences } from './benchenv/contamination';
import type { TaskSpec } from './taskpool/types';
import type { EvidenceGraph } from './taskpool/graph';

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
}

function recordedSettings(resumeDir: string | undefined): Partial<RunSettings> {
  if (!resumeDir) return {};
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(path.resolve(resumeDir), 'run.json'), 'utf8')) as { config?: Partial<RunSettings> };
    const config = meta.config ?? {};
    const pick: Partial<RunSettings> = {};
    for (const key of ['budgetUsd', 'maxK', 'maxDepth', 'targetAdmitted', 'minQuality'] as const) {
      if (typeof config[key] === 'number') pick[key] = config[key];
    }
    return pick;
  } catch {
    return {};
  }
}

async function synthesizeWith(session: AgentSession, folder: string, callerOptions: SynthesizeOptions, progress: (line: string) => void): Promise<SynthesisSummary> {
  const options: SynthesizeOptions = { ...callerOptions, ...recordedSettings(callerOptions.resumeDir) };
  const budgetUsd = options.budgetUsd ?? 0.05;
  if (!(budgetUsd > 0)) throw new RangeError(`the budget per task must be a positive number of USD, got ${budgetUsd}`);
  const providers = options.providers ?? [createSimulatedProvider()];
  const models: ModelSpec[] = (await Promise.all(providers.map((p) => p.listModels()))).flat();
  if (models.length === 0) throw new Error('no models: the providers offered none');

  // The cost model: one per environment, learning across runs.
  const arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
  const lcmOptions = { estimateCostUsd: createPriceCostEstimator(models) };
  const modelFile = options.costModelFile === undefined ? costModelPath(folder, environmentHash(session.env.profile)) : options.costModelFile;
  let costModel: LearnedCostModel;
  let costModelWarnings: string[] = [];
  if (modelFile) {
    const loaded = await loadCostModel(modelFile, arms, lcmOptions);
    costModel = loaded.model;
    costModelWarnings = loaded.warnings;
    for (const w of loaded.warnings) progress(w);
  } else {
    costModel = new LearnedCostModel(arms, lcmOptions);
  }
  // The run: new, or resumed from its folder.
  let store: RunStore;
  let tasks: TaskSpec[];
  let seed: number;
  let spentBefore = new Map<string, number>();
  // A new run shows the judge the evidence graph's facts for the anchors; a resumed one has only the node ids.
  let graph: EvidenceGraph | undefined;
  let finished = new Set<string>();
  if (options.resumeDir) {
    store = RunStore.open(path.resolve(options.resumeDir), { writable: true });
    const plan = resumePlan(store.state);
    tasks = [...store.state.tasks.values()];
    seed = store.state.started?.seed ?? options.seed ?? 1;
    spentBefore = plan.spentUsdByTask;
    finished = plan.finishedTaskIds;
    const snapshot = await restoreRunCostModel(store, arms, lcmOptions);
    if (snapshot.model) costModel = snapshot.model;
    else progress(snapshot.warning);
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
    });
    tasks = pool.tasks;
    graph = pool.graph;
    if (tasks.length === 0) {
      const why = [...pool.notes, ...Object.entries(rejectionsByReason(pool.rejected)).map(([reason, n]) => `${n} rejected: ${reason}`)];
      throw new Error(`no tasks could be built for ${folder}${why.length ? `: ${why.join('; ')}` : ': the task families found nothing to ask'}`);
    }
    const config = { costModelUpdates: costModel.updates, budgetUsd, tasks: tasks.length, maxK: options.maxK ?? 3, maxDepth: options.maxDepth ?? 10, targetAdmitted: options.targetAdmitted ?? 3, minQuality: options.minQuality ?? DEFAULT_CLEANING.minQuality, providers: providers.map((p) => p.id) };
    store = options.outDir
      ? RunStore.createInDir(path.resolve(options.outDir), { dataFolder: folder, seed, config })
      : RunStore.create(folder, { dataFolder: folder, seed, config });
    store.appendMany(tasks.map((task) => ({ type: 'task/added', task })));
    await saveRunCostModel(store, costModel);
  }

  const policy = costModelPolicy(costModel);
  const toolContext = explorerToolContext(session);
  const cache = new PrefixCache(toolContext);
  const cleaning = { ...DEFAULT_CLEANING, ...(options.minQuality !== undefined ? { minQuality: options.minQuality } : {}) };

  let cancelled = false;
  let modelCalls = 0;
  let expansions = 0;
  let searchMs = 0;
  let providerLatencyMs = 0;
  try {
    options.onStore?.(store);
    for (const [i, task] of tasks.entries()) {
      if (finished.has(task.id)) continue;
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      const nodesBefore = store.state.nodes.get(task.id);
      let credit = spentBefore.get(task.id) ?? 0;
      const onEvents = (events: RunEventInput[]) => {
        // A resumed task replays deterministically: what was already written is ignored by id, and the spend
        // already on the ledger is not written twice.
        const replayed = nodesBefore !== undefined && events.filter((e) => e.type === 'node/added').every((e) => nodesBefore.has((e as { nodeId: string }).nodeId));
        const batch: RunEventInput[] = [];
        for (const event of events) {
          if (event.type === 'budget/spent' && credit > 0) {
            const kept = event.costUsd - credit;
            credit = Math.max(0, credit - event.costUsd);
            if (kept > 1e-12) batch.push({ ...event, costUsd: kept });
            continue;
          }
          if ((event.type === 'lcm/decision' || event.type === 'trajectory/rejected') && replayed) continue;
          batch.push(event);
        }
        if (batch.length > 0) store.appendMany(batch);
      };
      const environment = createStepEnvironment({ task, providers, models, toolContext, prefixCache: cache, seed });
      const result: SearchResult = await runSearch(task, environment, policy, {
        budgetUsd,
        maxK: options.maxK,
        maxDepth: options.maxDepth,
        targetAdmitted: options.targetAdmitted,
        cleaning,
        judge: options.judge ? { ...options.judge, graph } : undefined,
        signal: options.signal,
        onEvents,
      });
      modelCalls += result.calls;
      expansions += result.expansions;
      searchMs += result.elapsedMs;
      providerLatencyMs += result.tree.nodes.reduce((s, n) => s + (n.step?.latencyMs ?? 0), 0);
      if (result.stopReason === 'cancelled') {
        cancelled = true;
        progress(`[${i + 1}/${tasks.length}] ${task.id}: cancelled`);
        break;
      }
      const stats = cache.stats();
      // The run's own model snapshot first: a resume must restart the next task from exactly this state.
      await saveRunCostModel(store, costModel);
      store.append({ type: 'task/finished', taskId: task.id, reason: result.stopReason, bestQuality: result.bestQuality, expansions: result.expansions, spentUsd: result.spentUsd, prefix: stats, costModelUpdates: costModel.updates });
      if (modelFile) await saveCostModel(modelFile, costModel);
      progress(
        `[${i + 1}/${tasks.length}] ${task.id}: ${result.admitted.length} admitted (${result.admitted.filter((t) => t.hasRepair).length} with a repair), best quality ${result.bestQuality.toFixed(2)}, $${result.spentUsd.toFixed(4)}, ${result.tree.size} nodes, ${result.stopReason}`,
      );
    }
    const summary = summarize(store, tasks.length, cancelled, cache.stats(), { modelCalls, expansions, searchMs, providerLatencyMs, costModelWarnings });
    if (!cancelled) store.append({ type: 'run/finished', summary });
    return summary;
  } finally {
    store.close();
  }
}

const RUN_COST_MODEL = 'costModel.json';
const RUN_COST_MODEL_PREVIOUS = 'costModel.prev.json';

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
  counts: { modelCalls: number; expansions: number; searchMs: number; providerLatencyMs: number; costModelWarnings: string[] },
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
  };
}
