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
import { setMaxListeners } from 'node:events';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../agent/session';
import type { ToolContext } from '../agent/tools';
import { PrefixCache, type PrefixCacheStats } from '../explorer/prefixCache';
import { DEFAULT_CLEANING, type CleaningOptions } from '../explorer/verifier';
import { EXPANSION_SCHEDULES, type ExpansionSchedule } from '../explorer/waves';
import { CallGuard, type ProviderFailureTally, type RunStop } from '../explorer/callGuard';
import { buildDefaultArms, createPriceCostEstimator, loadCostModel, saveCostModel, serializeCostModel, LearnedCostModel, type ArmConfig, type LcmOptions } from '../lcm/index';
import { choiceFromOption, CostModelWriter, costModelOrigin, resolveCostModelLocation, type CostModelLocation, type CostModelOrigin } from '../lcm/location';
import { createSimulatedProvider } from '../sim/simulatedProvider';
import { assertSpendBounded } from '../llm/spendBound';
import { inProcessRateLimits } from '../llm/requestRateLimit';
import { inProcessTokenLimits } from '../llm/tokenRateLimit';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { RunConfig, RunEventInput } from '../store/events';
import { assertResumable } from '../store/resumeCheck';
import { RunStore } from '../store/RunStore';
import { readRunMeta, runsDir } from '../store/runFolder';
import { modelsConfig, type RecordedProvider } from '../store/runProviders';
import { resumePlan } from '../store/runState';
import { buildTaskPool, rejectionsByReason, type TaskPoolOptions } from '../taskpool/pool';
import { readContaminationReferences } from '../benchenv/contamination';
import type { TaskSpec } from '../taskpool/types';
import type { EvidenceGraph } from '../taskpool/graph';
import { buildStructuralGraph } from '../taskpool/graph';
import type { ReviserModel } from '../taskpool/revise';
import { awaitsRevision, emptyRevisionTally, exploredFromRun, reviseIntoRun, runTaskOrder, type ReviseOptions, type RevisionTally } from './revision';
import { explorerToolContext, exploreTask, type TaskExploration } from './exploreTask';
import { formatShard, inShard, type Shard } from './shard';
import { taskReplayFilter } from './taskEvents';
import { exploreInFlight, type TaskCounts } from './inFlight';
import { explorationLengthEstimate } from './taskLength';
import { environmentHash, foldTaskDeltas, RUN_COST_MODEL_FILE, RUN_COST_MODEL_START_FILE } from './runCostModel';

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
   * Only the tasks of this shard (by task id, see shard.ts). A sharded run reads the environment's cost
   * model at its start but does not write it back (the shards' deltas are merged by `toffee merge`).
   */
  shard?: Shard;
  /** Create the run folder (task pool, run-start cost model) and return without exploring (queue mode enqueues it). */
  prepareOnly?: boolean;
  /**
   * Tasks explored at once in this process (default 1). The run's results do not depend on it: tasks end in run
   * order (inFlight.ts); only the interleaving of events in events.jsonl does.
   */
  concurrency?: number;
  /**
   * Which task starts in a free slot when C > 1: the next in run order (default), or the longest of those not yet
   * started by an estimate from the task program (run/taskLength.ts). Wall time only: commits stay in run order, so
   * the results are the same either way.
   */
  startOrder?: 'run' | 'longest-first';
  /** An expansion's configs one after another (default), in waves or all at once (explorer/waves.ts); a resume keeps the run's. */
  expansionSchedule?: ExpansionSchedule;
  /**
   * Requests per minute per provider id, across every task in flight (the request rate limiter queue mode uses,
   * on an in-process ledger). A 429 backs every request off for its Retry-After and is sent again.
   */
  requestsPerMinute?: Readonly<Record<string, number>>;
  /**
   * Tokens per minute per provider id, across every task in flight (llm/tokenRateLimit.ts: a request's estimate
   * is taken before it starts and settled with its reply's usage).
   */
  tokensPerMinute?: Readonly<Record<string, number>>;
  /** Tasks done / exploring / waiting, whenever a task starts or ends (the extension's status bar). */
  onTasks?: (counts: TaskCounts) => void;
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
type RunSettings = Pick<Required<RunConfig>, 'budgetUsd' | 'maxK' | 'maxDepth' | 'targetAdmitted' | 'minQuality' | 'maxCalls' | 'expansionSchedule'>;

function recordedSettings(resumeDir: string | undefined): Partial<RunSettings> {
  if (!resumeDir) return {};
  try {
    const config = readRunMeta(path.resolve(resumeDir)).config ?? {};
    const pick: Partial<RunSettings> = {};
    for (const key of ['budgetUsd', 'maxK', 'maxDepth', 'targetAdmitted', 'minQuality', 'maxCalls'] as const) {
      if (typeof config[key] === 'number') pick[key] = config[key];
    }
    // A schedule this version does not know (a hand-edited run.json) resumes one after another, as the default does.
    pick.expansionSchedule = EXPANSION_SCHEDULES.includes(config.expansionSchedule as ExpansionSchedule) ? config.expansionSchedule : 'sequential';
    return pick;
  } catch {
    return {};
  }
}

/** How often one request rate-limited by the endpoint is sent again (after the backoff) before it fails its step. */
const RATE_LIMIT_RETRIES = 8;

/** What a run explores with: the providers, their models, the cost model's arms, the budget. */
interface RunModels {
  providers: LlmProvider[];
  models: ModelSpec[];
  arms: ArmConfig[];
  lcmOptions: LcmOptions;
  budgetUsd: number;
  /** The judge and the reviser model, if any, under the same request limits as the arms' providers. */
  judge?: { provider: LlmProvider; model: string };
  reviser?: ReviserModel;
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
  /** What the run started from, as its run.json records it. */
  costModelOrigin: CostModelOrigin;
  /** Saves the run's model where its learning goes after each task (nowhere for a shard, a fresh or an outside run). */
  modelWriter: CostModelWriter;
}

/** What the loop counts, for the summary. */
interface RunTally {
  cancelled: boolean;
  modelCalls: number;
  expansions: number;
  searchMs: number;
  providerLatencyMs: number;
  revisions: RevisionTally;
  /** The cap on model calls and the stop when a task's calls all failed, across tasks. */
  calls: CallGuard;
}

async function synthesizeWith(session: AgentSession, folder: string, callerOptions: SynthesizeOptions, progress: (line: string) => void): Promise<SynthesisSummary> {
  const recorded = recordedSettings(callerOptions.resumeDir);
  // A cap on calls is the caller's to raise on a resume; the search settings are the run's.
  if (callerOptions.maxCalls !== undefined) delete recorded.maxCalls;
  const options: SynthesizeOptions = { ...callerOptions, ...recorded };
  const models = await runModels(options, progress);
  const run = options.resumeDir ? await resumeRun(session, folder, options, models, progress) : await startRun(session, folder, options, models, progress);
  const toolContext = explorerToolContext(session);
  const cache = new PrefixCache(toolContext);
  const calls = new CallGuard(options.maxCalls, run.store.state.spend.calls);
  const tally: RunTally = { cancelled: false, modelCalls: 0, expansions: 0, searchMs: 0, providerLatencyMs: 0, revisions: emptyRevisionTally(), calls };
  try {
    if (options.prepareOnly) return summarize(run, cache.stats(), tally);
    options.onStore?.(run.store);
    await exploreRun({ run, session, options, models, toolContext, cache, tally, progress });
    if (calls.stop && !tally.cancelled) progress(calls.stop.message);
    const summary = summarize(run, cache.stats(), tally);
    if (tally.cancelled) run.store.append({ type: 'run/cancelled', tasksFinished: run.store.state.finishedTasks.size });
    else if (!calls.stop) run.store.append({ type: 'run/finished', summary });
    return summary;
  } finally {
    run.store.close();
  }
}

async function runModels(options: SynthesizeOptions, progress: (line: string) => void): Promise<RunModels> {
  const budgetUsd = options.budgetUsd ?? 0.05;
  if (!(budgetUsd > 0)) throw new RangeError(`the budget per task must be a positive number of USD, got ${budgetUsd}`);
  const onRateLimited = (ms: number) => progress(`rate limited; every request backs off ${ms} ms`);
  // One limiter per provider id for every request of the run: the arms', the judge's and the reviser's.
  const requestLimited = inProcessRateLimits(options.requestsPerMinute ?? {}, { onRateLimited, retries: RATE_LIMIT_RETRIES });
  const tokenLimited = inProcessTokenLimits(options.tokensPerMinute ?? {});
  // The token limit outside: a request waits for its tokens before it takes a request slot.
  const limited = (provider: LlmProvider) => tokenLimited(requestLimited(provider));
  const providers = (options.providers ?? [createSimulatedProvider()]).map(limited);
  const judge = options.judge ? { ...options.judge, provider: limited(options.judge.provider) } : undefined;
  const reviser = options.revise === undefined || options.revise === 'rules' || options.revise === 'off' ? undefined : { ...options.revise, provider: limited(options.revise.provider) };
  const models: ModelSpec[] = (await Promise.all(providers.map((p) => p.listModels()))).flat();
  if (models.length === 0) throw new Error('no models: the providers offered none');
  assertSpendBounded([...models, ...(await helperModelSpecs(options))], options.maxCalls);
  return { providers, models, arms: buildDefaultArms(models, { operators: ['explore', 'repair'] }), lcmOptions: { estimateCostUsd: createPriceCostEstimator(models) }, budgetUsd, judge, reviser };
}

/** The judge's and the reviser's models (they are called too, so they need a price like the arms' models). */
async function helperModelSpecs(options: SynthesizeOptions): Promise<ModelSpec[]> {
  const helpers = [options.judge, options.revise === 'rules' || options.revise === 'off' ? undefined : options.revise].filter((h): h is { provider: LlmProvider; model: string } => !!h);
  const specs = await Promise.all(helpers.map(async (h) => (await h.provider.listModels()).filter((m) => m.id === h.model)));
  return specs.flat();
}

/** The cost model a run starts from, where it was read and where the run's learning goes. */
interface StartingModel {
  location: CostModelLocation;
  model: LearnedCostModel;
  warnings: string[];
  /** Earlier runs whose learning the model holds, as its file records them. */
  trainedByRuns: string[];
}

/**
 * The environment's cost model (one per environment, learning across runs), a file, or a fresh one: where it comes
 * from and where its learning goes (never into the data folder when the run folder is elsewhere; lcm/location.ts).
 */
async function startingModel(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void): Promise<StartingModel> {
  const runDir = path.resolve(options.resumeDir ?? options.outDir ?? runsDir(folder));
  const location = resolveCostModelLocation(choiceFromOption(options.costModelFile), { dataFolder: folder, envHash: environmentHash(session.env.profile), runDir });
  if (!location.readFrom) return { location, model: new LearnedCostModel(models.arms, models.lcmOptions), warnings: [], trainedByRuns: [] };
  const loaded = await loadCostModel(location.readFrom, models.arms, models.lcmOptions);
  for (const w of loaded.warnings) progress(w);
  return { location, model: loaded.model, warnings: loaded.warnings, trainedByRuns: loaded.trainedByRuns };
}

/** Saves the run's model where its learning goes; a shard's learning goes nowhere but its folder (`toffee merge` folds the shards). */
function modelWriterFor(environment: StartingModel, store: RunStore, sharded: boolean, progress: (line: string) => void): CostModelWriter {
  const location = sharded ? { ...environment.location, writeTo: undefined } : environment.location;
  return new CostModelWriter(location, environment.trainedByRuns, store.runId, progress);
}

/** A new run: the task pool (or a shard of it), the run folder, and the run-start snapshot of the environment's model. */
async function startRun(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void): Promise<OpenRun> {
  const environment = await startingModel(session, folder, options, models, progress);
  const seed = options.seed ?? 1;
  progress('building the task pool…');
  const pool = await buildTaskPool(session.toolContext, {
    max: options.tasks ?? 8,
    seed,
    contamination: readContaminationReferences(folder),
    signal: options.signal,
    onProgress: progress,
    onPoolProgress: options.onPoolProgress,
  });
  const tasks = pool.tasks.filter((task) => inShard(task.id, options.shard));
  if (pool.tasks.length === 0) {
    const why = [...pool.notes, ...Object.entries(rejectionsByReason(pool.rejected)).map(([reason, n]) => `${n} rejected: ${reason}`)];
    throw new Error(`no tasks could be built for ${folder}${why.length ? `: ${why.join('; ')}` : ': the task families found nothing to ask'}`);
  }
  const costModel = environment.model;
  const origin = costModelOrigin(environment.location, { trainedByRuns: environment.trainedByRuns, updates: costModel.updates });
  const config: RunConfig = {
    costModelUpdates: costModel.updates,
    budgetUsd: models.budgetUsd,
    tasks: tasks.length,
    maxK: options.maxK ?? 3,
    maxDepth: options.maxDepth ?? 10,
    targetAdmitted: options.targetAdmitted ?? 3,
    minQuality: options.minQuality ?? DEFAULT_CLEANING.minQuality,
    ...(options.expansionSchedule && options.expansionSchedule !== 'sequential' ? { expansionSchedule: options.expansionSchedule } : {}),
    ...modelsConfig(models.providers, models.models, options.providerSettings),
    ...(options.maxCalls !== undefined ? { maxCalls: options.maxCalls } : {}),
    costModel: origin,
    ...(options.shard ? { shard: formatShard(options.shard), poolTasks: pool.tasks.length } : {}),
  };
  // The folder appears with its task pool and run-start cost model, or not at all (a kill while it is made).
  // A shard's tasks keep their place in the whole pool: `toffee merge` restores the pool order from it.
  const initial = {
    events: tasks.map((task): RunEventInput => ({ type: 'task/added', task, ...(options.shard ? { poolIndex: pool.tasks.indexOf(task) } : {}) })),
    files: { [RUN_COST_MODEL_START_FILE]: serializeCostModel(costModel), [RUN_COST_MODEL_FILE]: serializeCostModel(costModel) },
  };
  const store = options.outDir
    ? RunStore.createInDir(path.resolve(options.outDir), { dataFolder: folder, seed, config }, {}, initial)
    : RunStore.create(folder, { dataFolder: folder, seed, config }, {}, initial);
  // A shard reads the environment's model at its start but does not write it back (`toffee merge` folds the shards).
  const modelWriter = modelWriterFor(environment, store, !!options.shard, progress);
  const runStartModel = costModel.clone();
  return { store, tasks, seed, finished: new Set(), graph: pool.graph, runStartModel, costModel, costModelWarnings: environment.warnings, costModelOrigin: origin, modelWriter };
}

/** A run continued from its folder: its tasks and settings as recorded, its model folded from the log. */
async function resumeRun(session: AgentSession, folder: string, options: SynthesizeOptions, models: RunModels, progress: (line: string) => void): Promise<OpenRun> {
  const environment = await startingModel(session, folder, options, models, progress);
  // Held against run.json, the derived files and the cost model snapshots before anything is written.
  for (const warning of assertResumable(path.resolve(options.resumeDir!), { providers: models.providers, models: models.models })) progress(warning);
  const store = RunStore.open(path.resolve(options.resumeDir!), { writable: true });
  const origin = store.state.started?.config?.costModel ?? costModelOrigin(environment.location, { trainedByRuns: environment.trainedByRuns, updates: environment.model.updates }, store.runId);
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
  const modelWriter = modelWriterFor(environment, store, !!store.state.started?.config?.shard, progress);
  return {
    store,
    tasks: order.map((id) => store.state.tasks.get(id)!),
    seed: store.state.started?.seed ?? options.seed ?? 1,
    finished: plan.finishedTaskIds,
    runStartModel,
    costModel,
    costModelWarnings,
    costModelOrigin: origin,
    modelWriter,
  };
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

/**
 * Explores the run's tasks (a revision may append one), up to `concurrency` at a time, and ends each in run order
 * (inFlight.ts): its delta, task/finished and one revision; stops when cancelled.
 */
async function exploreRun(x: Exploring): Promise<void> {
  const cleaning: CleaningOptions = { ...DEFAULT_CLEANING, ...(x.options.minQuality !== undefined ? { minQuality: x.options.minQuality } : {}) };
  // One task failing stops the others (they see this signal abort), then the failure is thrown.
  const stop = new AbortController();
  // Every request of every task in flight listens on it (Node warns past 10 listeners by default).
  const concurrency = runConcurrency(x);
  setMaxListeners(Math.max(10, 16 * concurrency), stop.signal);
  const onAbort = () => stop.abort();
  x.options.signal?.addEventListener('abort', onAbort, { once: true });
  if (x.options.signal?.aborted) stop.abort();
  type Explored = { kind: 'logged' } | { kind: 'explored'; exploration: TaskExploration };
  try {
    await exploreInFlight<Explored>({
      concurrency,
      count: () => x.run.tasks.length,
      // Longest first: by the estimate (a task already finished in the log has nothing to explore: it goes first).
      ...(x.options.startOrder === 'longest-first'
        ? { estimate: (i: number) => (x.run.finished.has(x.run.tasks[i].id) ? Infinity : explorationLengthEstimate(x.run.tasks[i])) }
        : {}),
      // The cap on calls, reached: nothing new starts (with a cap the tasks run one after another).
      stopped: () => stop.signal.aborted || x.tally.calls.exhausted(),
      onCounts: x.options.onTasks,
      explore: async (i) => {
        const task = x.run.tasks[i];
        if (x.run.finished.has(task.id)) return { kind: 'logged' };
        try {
          return { kind: 'explored', exploration: await exploreOne(x, cleaning, task, stop.signal) };
        } catch (error) {
          stop.abort();
          throw error;
        }
      },
      commit: async (i, explored) => {
        const task = x.run.tasks[i];
        if (explored.kind === 'logged') {
          // A crash between task/finished and task/revised: the exploration is in the log, so it is revised from there.
          if (!stop.signal.aborted) await reviseOnce(x, cleaning, task, () => exploredFromRun(x.run.store.state, task.id));
          return true;
        }
        const { exploration } = explored;
        if (exploration.result.stopReason === 'cancelled') {
          x.progress(`[${i + 1}/${x.run.tasks.length}] ${task.id}: cancelled`);
          return false;
        }
        // Its model calls all failed, or the cap on them is reached: the task is not finished and the run stops.
        const runStop = x.tally.calls.afterTask(task.id, exploration.result);
        if (runStop) {
          x.progress(`[${i + 1}/${x.run.tasks.length}] ${task.id}: ${runStop.message}`);
          stop.abort();
          return false;
        }
        await finishTask(x, task, exploration);
        const result = exploration.result;
        x.progress(
          `[${i + 1}/${x.run.tasks.length}] ${task.id}: ${result.admitted.length} admitted (${result.admitted.filter((t) => t.hasRepair).length} with a repair), best quality ${result.bestQuality.toFixed(2)}, $${result.spentUsd.toFixed(4)}, ${result.tree.size} nodes, ${result.stopReason}`,
        );
        await reviseOnce(x, cleaning, task, () => result);
        return true;
      },
    });
  } finally {
    x.options.signal?.removeEventListener('abort', onAbort);
  }
  if (x.options.signal?.aborted && x.run.tasks.some((t) => !x.run.store.state.finishedTasks.has(t.id))) x.tally.cancelled = true;
}

/**
 * Tasks in flight for the run. A cap on model calls (--max-calls) gives each task what the tasks before it left,
 * so with a cap the tasks run one after another.
 */
function runConcurrency(x: Exploring): number {
  const wanted = Math.max(1, Math.floor(x.options.concurrency ?? 1));
  if (wanted > 1 && x.options.maxCalls !== undefined) {
    x.progress(`a cap on model calls (--max-calls) runs the tasks one after another, not ${wanted} at once`);
    return 1;
  }
  return wanted;
}

/** One task through the per-task unit; a resumed task's replay writes only what the log does not have yet. */
async function exploreOne(x: Exploring, cleaning: CleaningOptions, task: TaskSpec, signal: AbortSignal): Promise<TaskExploration> {
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
      maxCalls: x.tally.calls.callsLeft(),
      maxK: options.maxK,
      maxDepth: options.maxDepth,
      targetAdmitted: options.targetAdmitted,
      cleaning,
      judge: models.judge ? { ...models.judge, graph: run.graph } : undefined,
      expansionSchedule: options.expansionSchedule,
    },
    {
      signal,
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
  await run.modelWriter.save(run.costModel);
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
    reviser: x.models.reviser,
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
    modelCallFailures: { ...tally.calls.failures },
    costModelOrigin: run.costModelOrigin,
    ...(tally.calls.stop ? { stopped: tally.calls.stop } : {}),
  };
}
