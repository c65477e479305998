/**
 * The quality-vs-budget benchmark: TOFFEE (MCTS + learned cost model), MCTS with one fixed config (no cost
 * model), best-of-5 and single-shot, on the same tasks, providers, verifier and cleaning filters, per budget and
 * seed. A task's score is the best quality among its admitted trajectories; when none was admitted, the
 * verifier's quality of the best path the method ended (a search tree's leaves, every episode, finished or stopped
 * by the budget), at most UNADMITTED_CREDIT_MAX: the verifier's quality counts the evidence steps reproduced, the
 * task program's sub-answers reached (checked by their figures) and the grounding penalty, so a method that got two
 * of four steps right is told apart from one that got nowhere, and neither from an admitted trajectory.
 */
import type { ToolContext } from '../agent/tools';
import { armId, buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../lcm/index';
import type { ArmConfig, StateFeatures } from '../lcm/types';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { TaskSpec } from '../taskpool/types';
import { runEpisodes } from './baselines';
import type { TrajectoryRecord } from './search';
import type { SearchTree } from './tree';
import { verifyTrajectory, type Verification } from './verifier';
import { PrefixCache } from './prefixCache';
import { costModelPolicy, fixedConfigPolicy } from './policy';
import { runSearch } from './search';
import { createStepRunner } from './stepRunner';

export const BENCH_METHODS = ['toffee', 'toffee-no-lcm', 'best-of-5', 'single-shot'] as const;
export type BenchMethod = (typeof BENCH_METHODS)[number];

export interface BenchOptions {
  tasks: readonly TaskSpec[];
  toolContext: ToolContext;
  providers: readonly LlmProvider[];
  budgetsUsd: readonly number[];
  methods?: readonly BenchMethod[];
  seeds?: readonly number[];
  /** The one config of the baselines and the no-cost-model ablation (default sim-medium, full, medium effort). */
  baselineArm?: ArmConfig;
  /** Children per node of the no-cost-model ablation (default 2). */
  fixedK?: number;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

export interface BenchCell {
  method: BenchMethod;
  budgetUsd: number;
  /** Per seed: mean over tasks of the best admitted quality. */
  qualityBySeed: number[];
  meanQuality: number;
  /** Half-width of the 95% confidence interval over seeds (Student t). */
  qualityCi95: number;
  /** Share of tasks with an admitted (verified) trajectory, mean over seeds. */
  verifiedRate: number;
  verifiedRateCi95: number;
  /** Mean USD actually spent per task. */
  meanSpentUsd: number;
  /** Admitted trajectories containing a repaired error / admitted trajectories. */
  repairShare: number;
  /** Admitted trajectories per task, mean over seeds. */
  admittedPerTask: number;
  /** Mean over admitted trajectories of the steps that succeeded with an ungrounded table, column or literal. */
  ungroundedSteps: number;
  /** Mean over admitted trajectories of the repaired errors. */
  repairedErrors: number;
  /** Share of the task program's sub-answers the scored path of each task reaches (over tasks that have any). */
  subAnswersReached: number;
  /** Final answers that matched the key but were rejected as 'wrong-intermediate', per task. */
  wrongIntermediatePerTask: number;
  expansions: number;
  searchMs: number;
}

export interface BenchResult {
  cells: BenchCell[];
  tasks: number;
  seeds: number[];
  budgetsUsd: number[];
  methods: BenchMethod[];
  baselineArm: string;
  /** Node expansions per second of TOFFEE search time (no provider latency: simulated providers do not sleep). */
  toffeeExpansionsPerSecond: number;
  toolCalls: number;
  toolExecutionsSaved: number;
}

const T95: Record<number, number> = { 1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262 };

export function meanAndCi(values: readonly number[]): { mean: number; ci95: number } {
  const n = values.length;
  if (n === 0) return { mean: 0, ci95: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, ci95: 0 };
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  return { mean, ci95: (T95[n - 1] ?? 1.96) * Math.sqrt(variance / n) };
}

/** What every cell of a benchmark shares. */
interface Bench {
  options: BenchOptions;
  models: ModelSpec[];
  baselineArm: ArmConfig;
  arms: ArmConfig[];
  estimate: ReturnType<typeof createPriceCostEstimator>;
}

/**
 * The most a task scores without an admitted trajectory: the verifier's cap on an unverified path's quality, which
 * also holds a verified path the cleaning filters rejected (it is no training data either).
 */
export const UNADMITTED_CREDIT_MAX = 0.4;

/** A cell's running sums, in the order its runs finish. */
interface CellTally {
  qualityBySeed: number[];
  verifiedBySeed: number[];
  spent: number;
  admitted: number;
  repairs: number;
  repairedErrors: number;
  ungroundedSteps: number;
  subReached: number;
  subTotal: number;
  wrongIntermediate: number;
  expansions: number;
  searchMs: number;
  toolCalls: number;
  toolSaved: number;
}

export async function runBenchmark(options: BenchOptions): Promise<BenchResult> {
  const methods = [...(options.methods ?? BENCH_METHODS)];
  const seeds = [...(options.seeds ?? [1, 2, 3])];
  const progress = options.onProgress ?? (() => {});
  const models: ModelSpec[] = (await Promise.all(options.providers.map((p) => p.listModels()))).flat();
  const baselineArm: ArmConfig = options.baselineArm ?? { provider: 'offline-sim', model: 'sim-medium', contextLength: 'full', reasoningEffort: 'medium', operator: 'explore' };
  const bench: Bench = { options, models, baselineArm, arms: buildDefaultArms(models, { operators: ['explore', 'repair'] }), estimate: createPriceCostEstimator(models) };
  const cells: BenchCell[] = [];
  const toffee = { expansions: 0, ms: 0, toolCalls: 0, toolSaved: 0 };
  for (const method of methods) {
    for (const budgetUsd of options.budgetsUsd) {
      const tally: CellTally = { qualityBySeed: [], verifiedBySeed: [], spent: 0, admitted: 0, repairs: 0, repairedErrors: 0, ungroundedSteps: 0, subReached: 0, subTotal: 0, wrongIntermediate: 0, expansions: 0, searchMs: 0, toolCalls: 0, toolSaved: 0 };
      for (const seed of seeds) await benchSeed(bench, method, budgetUsd, seed, tally);
      if (method === 'toffee') {
        toffee.expansions += tally.expansions;
        toffee.ms += tally.searchMs;
        toffee.toolCalls += tally.toolCalls;
        toffee.toolSaved += tally.toolSaved;
      }
      const cell = benchCell(method, budgetUsd, tally, seeds.length * options.tasks.length);
      cells.push(cell);
      progress(`${method} @ $${budgetUsd}: quality ${cell.meanQuality.toFixed(3)} ± ${cell.qualityCi95.toFixed(3)}, verified ${(100 * cell.verifiedRate).toFixed(0)}%, spent $${cell.meanSpentUsd.toFixed(4)}/task`);
    }
  }
  return {
    cells,
    tasks: options.tasks.length,
    seeds,
    budgetsUsd: [...options.budgetsUsd],
    methods,
    baselineArm: armId(baselineArm),
    toffeeExpansionsPerSecond: toffee.ms > 0 ? toffee.expansions / (toffee.ms / 1000) : 0,
    toolCalls: toffee.toolCalls,
    toolExecutionsSaved: toffee.toolSaved,
  };
}

/**
 * One (method, budget, seed) over every task, fresh like a run: every task explores from the run-start snapshot
 * of the cost model (so a task's exploration does not depend on which tasks ran before it, as in a sharded or
 * queue-mode run), and each task's learning is merged into the run's model in task order.
 */
async function benchSeed(bench: Bench, method: BenchMethod, budgetUsd: number, seed: number, tally: CellTally): Promise<void> {
  const { options } = bench;
  if (options.signal?.aborted) throw new Error('the benchmark was cancelled');
  const costModel = new LearnedCostModel(bench.arms, { estimateCostUsd: bench.estimate });
  const runStart = costModel.clone();
  const cache = new PrefixCache(options.toolContext);
  let qualitySum = 0;
  let verified = 0;
  for (const task of options.tasks) {
    const withCache = method === 'toffee' || method === 'toffee-no-lcm';
    const runner = createStepRunner({ task, providers: options.providers, models: bench.models, toolContext: options.toolContext, prefixCache: withCache ? cache : undefined, seed });
    let admitted: TrajectoryRecord[];
    let unadmitted: Verification[];
    let rejected: Array<{ reason: string }>;
    if (withCache) {
      const taskModel = runStart.clone();
      const policy = method === 'toffee' ? costModelPolicy(taskModel) : fixedConfigPolicy(bench.baselineArm, options.fixedK ?? 2, bench.estimate);
      const result = await runSearch(task, runner, policy, { budgetUsd, signal: options.signal });
      costModel.applyDelta(taskModel.deltaFrom(runStart));
      ({ admitted, rejected } = result);
      unadmitted = endedPaths(task, result.tree, admitted);
      tally.spent += result.spentUsd;
      tally.expansions += result.expansions;
      tally.searchMs += result.elapsedMs;
    } else {
      const estimateStepCostUsd = (depth: number) => bench.estimate(bench.baselineArm, { vector: [], input: { depth } } as unknown as StateFeatures);
      const result = await runEpisodes(task, runner, bench.baselineArm, { episodes: method === 'best-of-5' ? 5 : 1, budgetUsd, signal: options.signal, estimateStepCostUsd });
      ({ admitted, rejected } = result);
      unadmitted = result.unadmitted;
      tally.spent += result.spentUsd;
      tally.searchMs += result.elapsedMs;
    }
    const bestAdmitted = admitted.reduce<TrajectoryRecord | undefined>((b, t) => (!b || t.verification.quality > b.verification.quality ? t : b), undefined);
    const bestOther = unadmitted.reduce<Verification | undefined>((b, v) => (!b || v.quality > b.quality ? v : b), undefined);
    const scored = bestAdmitted?.verification ?? bestOther;
    qualitySum += bestAdmitted ? bestAdmitted.verification.quality : Math.min(UNADMITTED_CREDIT_MAX, bestOther?.quality ?? 0);
    const subs = task.rubric?.filter((c) => c.check.kind === 'sub_answer').map((c) => c.id) ?? [];
    if (subs.length > 0) {
      tally.subTotal += subs.length;
      tally.subReached += scored?.rubric?.criteria.filter((c) => subs.includes(c.id) && c.holds).length ?? 0;
    }
    if (admitted.length > 0) verified++;
    tally.admitted += admitted.length;
    tally.repairs += admitted.filter((t) => t.hasRepair).length;
    tally.repairedErrors += admitted.reduce((s, t) => s + t.verification.repairedErrors, 0);
    tally.ungroundedSteps += admitted.reduce((s, t) => s + (t.verification.grounding?.steps.filter((g) => g.ok).length ?? 0), 0);
    tally.wrongIntermediate += rejected.filter((r) => r.reason === 'wrong-intermediate').length;
  }
  const stats = cache.stats();
  tally.toolCalls += stats.requests;
  tally.toolSaved += stats.prefixHits + stats.callHits;
  tally.qualityBySeed.push(qualitySum / Math.max(1, options.tasks.length));
  tally.verifiedBySeed.push(verified / Math.max(1, options.tasks.length));
}

/** The verifications of the paths a search ended without admitting them: its tree's leaves (final or not) outside the admitted trajectories. */
function endedPaths(task: TaskSpec, tree: SearchTree, admitted: readonly TrajectoryRecord[]): Verification[] {
  const admittedLeaves = new Set(admitted.map((t) => t.nodeIndices[t.nodeIndices.length - 1]));
  return tree.nodes.filter((n) => n.step && n.childIndices.length === 0 && !admittedLeaves.has(n.index)).map((n) => verifyTrajectory(task, tree.stepsTo(n.index)));
}

function benchCell(method: BenchMethod, budgetUsd: number, tally: CellTally, runs: number): BenchCell {
  const q = meanAndCi(tally.qualityBySeed);
  const v = meanAndCi(tally.verifiedBySeed);
  return {
    method,
    budgetUsd,
    qualityBySeed: tally.qualityBySeed,
    meanQuality: q.mean,
    qualityCi95: q.ci95,
    verifiedRate: v.mean,
    verifiedRateCi95: v.ci95,
    meanSpentUsd: tally.spent / Math.max(1, runs),
    repairShare: tally.admitted > 0 ? tally.repairs / tally.admitted : 0,
    admittedPerTask: tally.admitted / Math.max(1, runs),
    ungroundedSteps: tally.admitted > 0 ? tally.ungroundedSteps / tally.admitted : 0,
    repairedErrors: tally.admitted > 0 ? tally.repairedErrors / tally.admitted : 0,
    subAnswersReached: tally.subTotal > 0 ? tally.subReached / tally.subTotal : 0,
    wrongIntermediatePerTask: tally.wrongIntermediate / Math.max(1, runs),
    expansions: tally.expansions,
    searchMs: tally.searchMs,
  };
}

/**
 * Quality differences within ε are ties. Near the ceiling a method scoring 0.9997 against 1.000 has not lost: one
 * task in a few hundred differs by a rounding of its rubric. ε is fixed rather than the seeds' confidence interval:
 * with 3 seeds a CI95 half-width is often 0.2–0.4 and would call nearly everything a tie; the checks print, for each
 * difference, whether it lies within the CI95 of the difference (√(ci₁² + ci₂²)), so the spread stays visible.
 */
export const QUALITY_EPSILON = 0.005;

/** Half-width of the 95% confidence interval of the difference of two cells' mean qualities (independent seeds). */
export function differenceCi95(a: BenchCell, b: BenchCell): number {
  return Math.hypot(a.qualityCi95, b.qualityCi95);
}

/** The smallest budget at which a method's mean quality reaches `quality` (within ε), or undefined. */
export function budgetToReach(result: BenchResult, method: BenchMethod, quality: number, epsilon = QUALITY_EPSILON): number | undefined {
  return result.cells
    .filter((c) => c.method === method && c.meanQuality >= quality - epsilon)
    .map((c) => c.budgetUsd)
    .sort((a, b) => a - b)[0];
}

/**
 * The issue's targets, computed (not asserted) from a result, with ties judged by ε. "toffee ≥ X" holds at a budget
 * unless toffee is below X by more than ε; "toffee > X" needs toffee above X by more than ε, or both within ε of the
 * ceiling (1.0), where neither can improve.
 */
export function benchChecks(result: BenchResult): Array<{ check: string; met: boolean; detail: string }> {
  const cell = (m: BenchMethod, b: number) => result.cells.find((c) => c.method === m && c.budgetUsd === b);
  const checks: Array<{ check: string; met: boolean; detail: string }> = [];
  for (const [other, strict] of [['best-of-5', false], ['single-shot', false], ['toffee-no-lcm', true]] as const) {
    if (!result.methods.includes(other) || !result.methods.includes('toffee')) continue;
    const failing: string[] = [];
    const ties: number[] = [];
    const withinSpread: number[] = [];
    const eps = QUALITY_EPSILON;
    for (const b of result.budgetsUsd) {
      const t = cell('toffee', b)!;
      const o = cell(other, b)!;
      const diff = t.meanQuality - o.meanQuality;
      const atCeiling = t.meanQuality >= 1 - eps && o.meanQuality >= 1 - eps;
      const ok = strict ? diff > eps || (diff >= -eps && atCeiling) : diff >= -eps;
      if (!ok) failing.push(`$${b} (${t.meanQuality.toFixed(4)} vs ${o.meanQuality.toFixed(4)})`);
      else if (Math.abs(diff) <= eps) ties.push(b);
      if (Math.abs(diff) > eps && Math.abs(diff) <= differenceCi95(t, o)) withinSpread.push(b);
    }
    const notes = [
      ties.length ? `tied within ε at $${ties.join(', $')}` : '',
      withinSpread.length ? `difference within the seeds' CI95 at $${withinSpread.join(', $')}` : '',
    ].filter(Boolean);
    checks.push({
      check: `toffee ${strict ? '>' : '≥'} ${other} at every budget (ties within ε=${eps})`,
      met: failing.length === 0,
      detail: `${failing.length ? `not at ${failing.join('; ')}` : 'all budgets'}${notes.length ? `; ${notes.join('; ')}` : ''}`,
    });
  }
  // The benchmark must still tell methods apart: at the middle budget neither baseline is at the admission bar.
  const middle = middleBudget(result);
  const baselines = (['single-shot', 'best-of-5'] as const).filter((m) => result.methods.includes(m));
  if (middle !== undefined && baselines.length > 0) {
    const at = baselines.map((m) => ({ m, q: cell(m, middle)!.meanQuality }));
    checks.push({
      check: `${baselines.join(' and ')} below ${DISCRIMINATION_CEILING} at the middle budget ($${middle})`,
      met: at.every((x) => x.q < DISCRIMINATION_CEILING),
      detail: at.map((x) => `${x.m} ${x.q.toFixed(4)}`).join(', '),
    });
  }
  if (result.methods.includes('best-of-5') && result.methods.includes('toffee')) {
    const bestCells = result.cells.filter((c) => c.method === 'best-of-5');
    const bestQuality = Math.max(...bestCells.map((c) => c.meanQuality));
    const bestBudget = budgetToReach(result, 'best-of-5', bestQuality, 0)!;
    const toffeeBudget = budgetToReach(result, 'toffee', bestQuality);
    const ratio = toffeeBudget === undefined ? undefined : toffeeBudget / bestBudget;
    checks.push({
      check: `toffee reaches best-of-5's best quality (within ε=${QUALITY_EPSILON}) with ≤ 60% of its budget`,
      met: ratio !== undefined && ratio <= 0.6,
      detail: `best-of-5 best ${bestQuality.toFixed(4)} at $${bestBudget}; toffee reaches it at ${toffeeBudget === undefined ? 'no budget tried' : `$${toffeeBudget} (${(100 * ratio!).toFixed(0)}%)`}${spendNote(result, bestBudget, toffeeBudget)}`,
    });
  }
  return checks;
}

/** The quality below which a baseline leaves the benchmark room to tell methods apart (the admission bar). */
export const DISCRIMINATION_CEILING = 0.9;

/** The middle of the budgets tried (the lower middle of an even count), in ascending order. */
export function middleBudget(result: Pick<BenchResult, 'budgetsUsd'>): number | undefined {
  const sorted = [...result.budgetsUsd].sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The same comparison in USD actually spent per task at those budgets (budgets are caps; spend is what was used). */
function spendNote(result: BenchResult, bestBudget: number, toffeeBudget: number | undefined): string {
  if (toffeeBudget === undefined) return '';
  const spentAt = (m: BenchMethod, b: number) => result.cells.find((c) => c.method === m && c.budgetUsd === b)?.meanSpentUsd ?? 0;
  const best = spentAt('best-of-5', bestBudget);
  const toffee = spentAt('toffee', toffeeBudget);
  return best > 0 ? `; spent per task $${toffee.toFixed(4)} vs $${best.toFixed(4)} (${((100 * toffee) / best).toFixed(0)}%)` : '';
}
