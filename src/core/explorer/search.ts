/**
 * MCTS over real execution: tree data (tree.ts), pure policies (policy.ts), a step runner that proposes and
 * executes one step (stepRunner.ts), and the loop below with budget, seed and AbortSignal passed in. The loop is
 * a few named phases over a SearchState: select a leaf, choose its configs, expand (each config proposes one child
 * whose tool call runs in the sandbox, through the shared prefix cache), evaluate the children (final answers are
 * verified and admitted or rejected by the cleaning filters; rewards flow back up the path and into the policy),
 * and emit the expansion's events, built once from what the phases returned.
 */
import { runWave, waveSizes, type ExpansionSchedule } from './waves';
import { repairedErrorIndices } from '../agent/steps';
import type { AgentState, AgentStep } from '../agent/types';
import { buildFeatures } from '../lcm/features';
import type { ArmConfig, StateFeatures } from '../lcm/types';
import type { RunEventInput } from '../store/events';
import type { TaskSpec } from '../taskpool/types';
import {
  affordableWidth,
  answeredWrongElsewhere,
  expectedLength,
  nodeValue,
  operatorsAt,
  outcomeKey,
  resultKey,
  selectChild,
  settled,
  stateKey,
  widenCandidate,
  WIDEN_CAP,
  type ExpansionChoice,
  type ExpansionPolicy,
} from './policy';
import { canonicalCall } from './prefixCache';
import { stepRecord } from './stepRecord';
import { providerFailureStep, type StepRunner } from './stepRunner';
import { SearchTree, TreeNode, meanValue } from './tree';
import {
  CleaningOptions,
  DEFAULT_CLEANING,
  RejectionReason,
  Verification,
  cleaningRejection,
  DEPTH_PER_STEP,
  analyticState,
  attemptedLastStep,
} from './verifier';
import { verifyTrajectoryJudged, type RubricJudge } from './judge';
import { matchesAnswer } from '../taskpool/answer';

// ---------------------------------------------------------------- what a search takes and gives

export interface TrajectoryRecord {
  trajectoryId: string;
  taskId: string;
  nodeIndices: number[];
  steps: AgentStep[];
  verification: Verification;
  hasRepair: boolean;
  costUsd: number;
}

export interface SearchOptions {
  budgetUsd: number;
  maxDepth?: number;
  maxK?: number;
  /** Stop after this many expansions (default 200). */
  maxExpansions?: number;
  /** Stop after this many model calls (default: no cap; the budget bounds them when every model has a price). */
  maxCalls?: number;
  /** Stop once this many trajectories are admitted (default 3). */
  targetAdmitted?: number;
  cPuct?: number;
  /** Expand every error node once while a quarter of the budget is left (default true). */
  repairErrors?: boolean;
  cleaning?: CleaningOptions;
  /** An LLM judge for the rubric's text criteria (verification only; default none: they stay unjudged). */
  judge?: RubricJudge;
  signal?: AbortSignal;
  /** Receives each expansion's events as one batch (for one fsync in the run store). */
  onEvents?: (events: RunEventInput[]) => void;
  /** An expansion's configs one after another (default), requested in waves, or all at once (waves.ts). */
  expansionSchedule?: ExpansionSchedule;
}

export type SearchStopReason = 'solved' | 'budget' | 'exhausted' | 'expansions' | 'calls' | 'cancelled';

export interface SearchResult {
  tree: SearchTree;
  admitted: TrajectoryRecord[];
  rejected: Array<{ trajectoryId: string; reason: RejectionReason }>;
  spentUsd: number;
  /** Model calls made (one per child). */
  calls: number;
  expansions: number;
  stopReason: SearchStopReason;
  bestQuality: number;
  /** Wall time of the search minus nothing: the simulated provider does not sleep, so this is compute time. */
  elapsedMs: number;
}

// ---------------------------------------------------------------- the loop, in phases

/** What one search holds between its phases. */
interface SearchState {
  task: TaskSpec;
  runner: StepRunner;
  policy: ExpansionPolicy;
  options: SearchOptions;
  settings: { maxDepth: number; maxK: number; maxExpansions: number; targetAdmitted: number; cPuct: number; cleaning: CleaningOptions };
  tree: SearchTree;
  admitted: TrajectoryRecord[];
  rejected: SearchResult['rejected'];
  spentUsd: number;
  calls: number;
  expansions: number;
  /** Per node, the canonical calls on its path: the prefix cache's key. */
  prefixKeys: Map<number, string[]>;
  /** States widening found nothing affordable or untried for. */
  unwidenable: Set<number>;
  /** Nodes by the query result they saw (resultKey), for transpositions. */
  results: Map<string, number[]>;
}

/** Where the next expansion goes: a leaf (a widened state, a repair, or the end of a PUCT descent). */
type Selection = { stop: SearchStopReason } | { again: true } | { leaf: TreeNode; widening: boolean };

/** The configs chosen for a leaf, narrowed to what the budget (and the cap on model calls) can carry, with the features they were chosen for. */
interface ArmChoice extends ExpansionChoice {
  features: StateFeatures;
  /** Set when the cap on model calls, not the budget, narrowed the choice. */
  narrowedByCalls?: boolean;
}

/** The children one expansion added, in the order they ran, and why it stopped before the last config. */
interface Expansion {
  children: TreeNode[];
  /** Set when a child repeated an outcome (or answered wrongly) and the configs still queued did not run. */
  stoppedAfter?: { ran: number; why: string };
  costUsd: number;
  tokens: { prompt: number; completion: number };
}

/** What evaluating an expansion's children decided: each final answer admitted or rejected. */
interface Evaluation {
  verdicts: Array<{ admitted: TrajectoryRecord } | { rejected: { trajectoryId: string; reason: RejectionReason; quality: number } }>;
  /** The judge's spend on this expansion, call by call. */
  judgeUsd: number[];
}

/** Runs MCTS for one task until solved, out of budget or expansions, exhausted, or cancelled. */
export async function runSearch(task: TaskSpec, runner: StepRunner, policy: ExpansionPolicy, options: SearchOptions): Promise<SearchResult> {
  const started = Date.now();
  const s = newSearchState(task, runner, policy, options);
  const emit = options.onEvents ?? (() => {});
  emit([{ type: 'node/added', taskId: task.id, nodeId: s.tree.root.id, parentId: null, status: 'open', depth: 0 }]);
  let stopReason: SearchStopReason;
  while (true) {
    const selection = selectLeaf(s);
    if ('stop' in selection) {
      stopReason = selection.stop;
      break;
    }
    if ('again' in selection) continue;
    const { leaf, widening } = selection;
    const choice = chooseArms(s, leaf, widening);
    if (choice.arms.length === 0) {
      const stop = closeDeadEnd(s, leaf, widening);
      emit(deadEndEvents(s, leaf, choice, stop));
      if (stop) {
        stopReason = stop;
        break;
      }
      continue;
    }
    const expansion = await expand(s, leaf, choice);
    const evaluation = await evaluate(s, leaf, choice, expansion);
    emit(expansionEvents(s, leaf, choice, expansion, evaluation));
  }
  const bestQuality = s.admitted.reduce((best, t) => Math.max(best, t.verification.quality), 0);
  return { tree: s.tree, admitted: s.admitted, rejected: s.rejected, spentUsd: s.spentUsd, calls: s.calls, expansions: s.expansions, stopReason, bestQuality, elapsedMs: Date.now() - started };
}

export { DEPTH_PER_STEP };

function newSearchState(task: TaskSpec, runner: StepRunner, policy: ExpansionPolicy, options: SearchOptions): SearchState {
  return {
    task,
    runner,
    policy,
    options,
    settings: {
      // The depth for a one-step task; a task program gets two more per further step (a query and its discovery).
      maxDepth: (options.maxDepth ?? 10) + DEPTH_PER_STEP * Math.max(0, task.evidence.length - 1),
      maxK: options.maxK ?? 3,
      maxExpansions: options.maxExpansions ?? 200,
      targetAdmitted: options.targetAdmitted ?? 3,
      cPuct: options.cPuct ?? 1,
      cleaning: options.cleaning ?? DEFAULT_CLEANING,
    },
    tree: new SearchTree({ question: task.question, taskId: task.id }),
    admitted: [],
    rejected: [],
    spentUsd: 0,
    calls: 0,
    expansions: 0,
    prefixKeys: new Map([[0, []]]),
    unwidenable: new Set(),
    results: new Map(),
  };
}

/**
 * Selection, or why the search stops: once every branch has ended, the most promising open state is widened;
 * otherwise an unrepaired error first while the budget allows (repairs teach recovery), then a repaired branch
 * still open, else a PUCT descent to a node without children.
 */
function selectLeaf(s: SearchState): Selection {
  const { options, settings, tree } = s;
  if (options.signal?.aborted) return { stop: 'cancelled' };
  const remaining = options.budgetUsd - s.spentUsd;
  // Repairs get a quarter of the budget at most: below it, the search finishes what it has.
  const repairs = options.repairErrors !== false && remaining >= 0.25 * options.budgetUsd;
  // A repaired error whose branch is still open is worth finishing: such trajectories teach recovery.
  const repairedBranch = repairs && !s.admitted.some((t) => t.hasRepair) ? tree.nodes.find((n) => n.status === 'repaired' && !n.closed) : undefined;
  if (s.admitted.length >= settings.targetAdmitted && !repairedBranch) return { stop: 'solved' };
  if (s.expansions >= settings.maxExpansions) return { stop: 'expansions' };
  if (options.maxCalls !== undefined && s.calls >= options.maxCalls) return { stop: 'calls' };
  if (remaining <= 0) return { stop: 'budget' };
  if (tree.root.closed) {
    // Progressive widening: every branch ended but budget is left, so the most promising open state gets another
    // child from a config not yet tried there.
    const widen = widenCandidate(tree, settings.maxDepth, settings.maxK, s.unwidenable);
    if (!widen) return { stop: 'exhausted' };
    for (const index of tree.pathTo(widen.index)) tree.node(index).closed = false;
    return { leaf: widen, widening: true };
  }
  const repairTarget = repairs ? tree.nodes.find((n) => n.status === 'error' && !n.closed && n.childIndices.length === 0) : undefined;
  let leaf = repairTarget ?? repairedBranch ?? tree.root;
  while (leaf.childIndices.length > 0) {
    if (tryAgainHere(s, leaf)) return { leaf, widening: true };
    const next = selectChild(tree, leaf, settings.cPuct);
    if (!next) break;
    leaf = next;
  }
  if (leaf.childIndices.length > 0) {
    // Every child closed but the node was not marked: close it and look again.
    leaf.closed = true;
    tree.closeUpward(leaf.index);
    return { again: true };
  }
  return { leaf, widening: false };
}

/**
 * A state whose next step went wrong in every branch so far — each child is below a wrong intermediate (a sub-answer
 * reported with wrong figures) or an answer given before the path attempted the program's last step — gets another
 * config here before the search descends into those branches: the step is worth trying again from this state, and
 * nothing below a wrong intermediate is admitted unless a later step there corrects it. Such a state is left open
 * when a premature answer ends its branch (evaluate), so the descent reaches it.
 */
function tryAgainHere(s: SearchState, node: TreeNode): boolean {
  const { tree, settings } = s;
  if (node.closed || node.contradicted || s.unwidenable.has(node.index) || node.depth >= settings.maxDepth) return false;
  if (node.childIndices.length >= WIDEN_CAP * settings.maxK || settled(tree, node)) return false;
  const children = node.childIndices.map((index) => tree.node(index));
  const wentWrong = (child: TreeNode) => child.contradicted === true || child.premature === true;
  return children.some(wentWrong) && children.every((child) => wentWrong(child) || child.closed);
}

/** Choosing K configs for the leaf from the policy, no wider than the budget can carry to an answer. */
function chooseArms(s: SearchState, leaf: TreeNode, widening: boolean): ArmChoice {
  const { task, options, settings, tree } = s;
  const remaining = options.budgetUsd - s.spentUsd;
  const steps = tree.stepsTo(leaf.index);
  const features = buildFeatures({
    depth: leaf.depth,
    maxDepth: settings.maxDepth,
    progress: leaf.progress,
    schemaCoverage: schemaCoverage(task, steps),
    recentErrors: steps.slice(-3).filter((step) => !step.observation.ok).length,
    lastStepError: leaf.step !== undefined && !leaf.step.observation.ok,
    remainingBudgetFraction: options.budgetUsd > 0 ? remaining / options.budgetUsd : 0,
    difficulty: task.difficulty.level,
  });
  const triedArms = widening ? leaf.childIndices.map((c) => tree.node(c).armId).filter((id): id is string => id !== undefined) : [];
  const choice = s.policy.choose({ features, remainingBudgetUsd: remaining, maxK: widening ? 1 : settings.maxK, operators: operatorsAt(leaf), excludeArmIds: triedArms });
  // Each child still needs the rest of a path: branch only as wide as the budget can carry them all to an answer.
  const affordable = affordableWidth(choice.expectedCosts, remaining, Math.max(1, expectedLength(s.admitted) - leaf.depth));
  // Nor wider than the model calls the cap leaves.
  const width = options.maxCalls === undefined ? affordable : Math.min(affordable, options.maxCalls - s.calls);
  return { ...narrowedTo(choice, width), features, ...(width < affordable ? { narrowedByCalls: true } : {}) };
}

/** The first `width` of a choice, priors renormalised. */
function narrowedTo(choice: ExpansionChoice, width: number): ExpansionChoice {
  if (width >= choice.arms.length) return choice;
  const total = choice.priors.slice(0, width).reduce((a, b) => a + b, 0) || 1;
  return {
    arms: choice.arms.slice(0, width),
    armIds: choice.armIds.slice(0, width),
    priors: choice.priors.slice(0, width).map((p) => p / total),
    expectedCosts: choice.expectedCosts.slice(0, width),
    decision: choice.decision,
  };
}

/** Share of the task's tables whose schema the path has read. */
function schemaCoverage(task: TaskSpec, steps: readonly AgentStep[]): number {
  if (task.tables.length === 0) return 1;
  const seen = new Set<string>();
  for (const s of steps) {
    if (!s.observation.ok) continue;
    if (s.observation.data.kind === 'schema') seen.add(s.observation.data.table.toLowerCase());
  }
  return task.tables.filter((t) => seen.has(t.toLowerCase())).length / task.tables.length;
}

/** Nothing affordable (or untried) from the leaf: its branch is done; at the root, so is the search. */
function closeDeadEnd(s: SearchState, leaf: TreeNode, widening: boolean): SearchStopReason | undefined {
  if (widening) s.unwidenable.add(leaf.index);
  leaf.closed = true;
  if (leaf.index === 0) return 'budget';
  leaf.status = leaf.status === 'open' ? 'pruned' : leaf.status;
  s.tree.closeUpward(leaf.index);
  return undefined;
}

/**
 * Expansion: each chosen config proposes and executes one step from the leaf's state, a child each. Once a
 * config repeats an outcome already seen from this state (the same call and observation, or the same final
 * answer), or answers wrongly, the configs still queued would most likely repeat it too, so the expansion stops.
 */
async function expand(s: SearchState, leaf: TreeNode, choice: ArmChoice): Promise<Expansion> {
  const { task, options, tree } = s;
  leaf.features = choice.features;
  leaf.decision = choice.decision;
  s.expansions++;
  const state = tree.stateAt(leaf.index);
  const parentKeys = s.prefixKeys.get(leaf.index) ?? [];
  const expansion: Expansion = { children: [], costUsd: 0, tokens: { prompt: 0, completion: 0 } };
  const seenOutcomes = new Set(leaf.childIndices.map((index) => outcomeKey(tree.node(index).step)).filter((k) => k !== undefined));
  // Attempt numbers as one after another: the tree's size before the expansion plus the config's place in it.
  const firstAttempt = tree.size;
  let next = 0;
  waves: for (const size of waveSizes(choice.arms.length, options.expansionSchedule)) {
    if (options.signal?.aborted) break;
    const steps = await runWave(next, size, (i) => stepOrFailure(s, state, choice.arms[i], parentKeys, firstAttempt + i));
    let stop = false;
    for (const step of steps) {
      const i = next++;
      if (!step) break waves;
      s.calls++;
      expansion.costUsd += step.costUsd;
      expansion.tokens.prompt += step.usage.prompt;
      expansion.tokens.completion += step.usage.completion;
      const child = tree.addChild(leaf.index, step, choice.arms[i], choice.armIds[i], choice.priors[i] ?? 1 / choice.arms.length);
      s.prefixKeys.set(child.index, step.toolCall ? [...parentKeys, canonicalCall(step.toolCall)] : parentKeys);
      expansion.children.push(child);
      if (stop) continue; // the rest of a wave that ran: its children are kept, the stop rule has spoken
      const outcome = outcomeKey(step);
      const wrongAnswer = step.observation.ok && step.observation.data.kind === 'final' && !matchesAnswer(task.answer, step.observation.data.answer);
      if ((outcome !== undefined && seenOutcomes.has(outcome)) || wrongAnswer) {
        stop = true;
        if (i + 1 < choice.arms.length) {
          const repeated = step.observation.ok && step.observation.data.kind === 'final' ? 'answer' : 'call and observation';
          const why = wrongAnswer ? `${choice.armIds[i]} answered wrongly from this state, and the configs queued would read the same result` : `${choice.armIds[i]} repeated a sibling's ${repeated}`;
          expansion.stoppedAfter = { ran: i + 1, why };
        }
        continue;
      }
      if (outcome !== undefined) seenOutcomes.add(outcome);
    }
    if (stop) {
      // In waves, the configs after the one that stopped the expansion may all have run already.
      if (expansion.stoppedAfter && next >= choice.arms.length) expansion.stoppedAfter = undefined;
      else if (expansion.stoppedAfter) expansion.stoppedAfter.ran = next;
      break;
    }
  }
  s.spentUsd += expansion.costUsd;
  return expansion;
}

/** One step from a state with a config; a provider that throws yields a provider-failure step; undefined when cancelled. */
async function stepOrFailure(s: SearchState, state: AgentState, arm: ArmConfig, prefixKeys: string[], attempt: number): Promise<AgentStep | undefined> {
  const signal = s.options.signal;
  try {
    return await s.runner.step({ state, arm, attempt, prefixKeys, signal });
  } catch (error) {
    if (signal?.aborted) return undefined;
    return providerFailureStep(state.steps.length, arm, `the provider failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Evaluation of each child, in the order they ran: a final answer is verified (and judged) and admitted or
 * rejected; an error stays open for a repair; copies of a sibling's state, transpositions of a result already
 * answered wrongly, and nodes at the depth limit close. Rewards flow back up the path and into the policy.
 */
async function evaluate(s: SearchState, leaf: TreeNode, choice: ArmChoice, expansion: Expansion): Promise<Evaluation> {
  const { tree } = s;
  const evaluation: Evaluation = { verdicts: [], judgeUsd: [] };
  // Siblings that made the same tool call and saw the same observation are one analysis state: the first (best
  // prior) keeps the branch, the others close at once so the budget is not split across copies of one state (on a
  // fresh cost model, K = 3 at the root otherwise grows three identical schema subtrees).
  const siblingStates = new Set(leaf.childIndices.filter((i) => !expansion.children.some((c) => c.index === i)).map((i) => stateKey(tree.node(i).step)));
  for (const child of expansion.children) {
    const step = child.step!;
    const key = stateKey(step);
    const duplicate = key !== undefined && siblingStates.has(key);
    if (key !== undefined) siblingStates.add(key);
    const path = tree.stepsTo(child.index);
    ({ progress: child.progress, contradicted: child.contradicted } = analyticState(s.task, path));
    if (step.observation.ok && step.observation.data.kind === 'final') evaluation.verdicts.push(await verdictOn(s, child, path, evaluation));
    else if (!step.observation.ok) {
      child.status = 'error';
      if (step.observation.tool === '(provider)') child.closed = true;
    }
    closeIfSettled(s, child, duplicate);
    const result = resultKey(step);
    if (result !== undefined) s.results.set(result, [...(s.results.get(result) ?? []), child.index]);
    child.reward = nodeValue(child);
    // A failed step whose child succeeds with the same tool was repaired.
    if (leaf.status === 'error' && step.observation.ok && step.toolCall?.name === leaf.step?.toolCall?.name) leaf.status = 'repaired';
    s.policy.learn(child.armId!, choice.features, child.reward, step.costUsd);
    tree.backpropagate(child.index, child.reward);
    // A premature answer ends its branch but not its parent's: the state it answered from stays open to continue.
    if (child.closed && !child.premature) tree.closeUpward(child.index);
  }
  if (expansion.children.length === 0) {
    leaf.closed = true;
    tree.closeUpward(leaf.index);
  }
  return evaluation;
}

/** A final answer verified (and judged; the judge's calls are spent on this expansion) and admitted or rejected. */
async function verdictOn(s: SearchState, child: TreeNode, path: AgentStep[], evaluation: Evaluation): Promise<Evaluation['verdicts'][number]> {
  const { task } = s;
  const judged = await verifyTrajectoryJudged(task, path, s.options.judge, s.options.signal);
  const verification = judged.verification;
  s.spentUsd += judged.costUsd;
  evaluation.judgeUsd.push(judged.costUsd);
  child.verified = verification.verified;
  child.quality = verification.quality;
  child.closed = true;
  child.status = verification.verified ? 'verified' : 'terminal';
  const trajectoryId = `${task.id}/${child.id}`;
  const reason = cleaningRejection(path, verification, s.settings.cleaning, task.evidence.length);
  child.admitted = reason === undefined;
  child.premature = !attemptedLastStep(task, path);
  if (reason !== undefined) {
    s.rejected.push({ trajectoryId, reason });
    return { rejected: { trajectoryId, reason, quality: verification.quality } };
  }
  const record: TrajectoryRecord = {
    trajectoryId,
    taskId: task.id,
    nodeIndices: s.tree.pathTo(child.index),
    steps: path,
    verification,
    hasRepair: repairedErrorIndices(path).length > 0,
    costUsd: path.reduce((sum, p) => sum + p.costUsd, 0),
  };
  s.admitted.push(record);
  return { admitted: record };
}

/** A child that is not final closes at the depth limit, as a copy of a sibling's state, or as a known-bad transposition. */
function closeIfSettled(s: SearchState, child: TreeNode, duplicate: boolean): void {
  if (!child.closed && child.depth >= s.settings.maxDepth) {
    child.closed = true;
    child.status = child.status === 'error' ? 'error' : 'pruned';
  }
  if (!child.closed && duplicate) {
    child.closed = true;
    child.status = 'pruned';
  }
  if (!child.closed && answeredWrongElsewhere(s.tree, child, s.results)) {
    // Another path reached the same result and every answer read off it was wrong: answering here again would most
    // likely repeat that answer, so the budget goes to other queries instead.
    child.closed = true;
    child.status = 'pruned';
  }
}

// ---------------------------------------------------------------- the events a phase decided

function statusPayload(taskId: string, node: TreeNode): RunEventInput {
  return { type: 'node/updated', taskId, nodeId: node.id, status: node.status, visits: node.visits, value: round(meanValue(node)), reward: round(node.reward) };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The cost model's decision as carried out: the configs that ran, and why the rest did not. */
function decisionEvents(task: TaskSpec, leaf: TreeNode, choice: ArmChoice, stoppedAfter?: Expansion['stoppedAfter']): RunEventInput[] {
  const decision = choice.decision;
  if (!decision) return [];
  const ran = stoppedAfter?.ran ?? choice.arms.length;
  const armIds = choice.armIds.slice(0, ran);
  const chosen = armIds.map((id) => decision.arms.find((a) => a.armId === id)!);
  const narrowedBy = choice.narrowedByCalls ? 'by the cap on model calls' : 'so each child can still reach an answer';
  let kReason = choice.arms.length < decision.K ? `${decision.kReason}; narrowed to ${choice.arms.length} ${narrowedBy}` : decision.kReason;
  if (stoppedAfter) kReason = `${kReason}; stopped after ${ran}: ${stoppedAfter.why}`;
  return [
    {
      type: 'lcm/decision',
      taskId: task.id,
      nodeId: leaf.id,
      k: ran,
      modelK: decision.K,
      arms: armIds,
      mu: chosen.map((a) => round(a.mu)),
      sigma: chosen.map((a) => round(a.sigma)),
      kReason,
      index: decision.index,
      candidates: decision.arms.slice(0, 8).map((a) => ({ armId: a.armId, mu: round(a.mu), sigma: round(a.sigma), cost: a.expectedCostUsd, score: round(a.score), excluded: a.excluded ?? null })),
    },
  ];
}

function deadEndEvents(s: SearchState, leaf: TreeNode, choice: ArmChoice, stop: SearchStopReason | undefined): RunEventInput[] {
  return [...decisionEvents(s.task, leaf, choice), ...(stop ? [] : [statusPayload(s.task.id, leaf)])];
}

/** One expansion's events, in the order the panel and the store read them. */
function expansionEvents(s: SearchState, leaf: TreeNode, choice: ArmChoice, expansion: Expansion, evaluation: Evaluation): RunEventInput[] {
  const { task, tree } = s;
  const costUsd = evaluation.judgeUsd.reduce((sum, usd) => sum + usd, expansion.costUsd);
  const { prompt, completion } = expansion.tokens;
  return [
    ...decisionEvents(task, leaf, choice, expansion.stoppedAfter),
    ...expansion.children.map((child) => nodeAddedEvent(task, leaf, child)),
    ...tree.pathTo(leaf.index).map((index) => statusPayload(task.id, tree.node(index))),
    ...(costUsd > 0 || expansion.children.length > 0
      ? [{ type: 'budget/spent' as const, taskId: task.id, costUsd, calls: expansion.children.length, tokens: { prompt, completion, total: prompt + completion } }]
      : []),
    ...evaluation.verdicts.map((verdict): RunEventInput =>
      'admitted' in verdict ? admittedEvent(task, tree, verdict.admitted) : { type: 'trajectory/rejected', taskId: task.id, ...verdict.rejected },
    ),
  ];
}

function nodeAddedEvent(task: TaskSpec, leaf: TreeNode, child: TreeNode): RunEventInput {
  const step = child.step!;
  return {
    type: 'node/added',
    taskId: task.id,
    nodeId: child.id,
    parentId: leaf.id,
    status: child.status,
    depth: child.depth,
    thought: step.thought,
    toolCall: step.toolCall ?? null,
    config: { ...step.config, operator: child.arm?.operator, armId: child.armId },
    costUsd: step.costUsd,
    tokens: { prompt: step.usage.prompt, completion: step.usage.completion, total: step.usage.prompt + step.usage.completion },
    latencyMs: step.latencyMs,
    observationSummary: step.observation.text.slice(0, 400),
    ok: step.observation.ok,
    reward: round(child.reward),
    prior: round(child.prior),
    step: stepRecord(step),
  };
}

function admittedEvent(task: TaskSpec, tree: SearchTree, record: TrajectoryRecord): RunEventInput {
  const v = record.verification;
  const tags = [task.family, task.difficulty.level];
  if (record.hasRepair) tags.push('repair');
  const models = [...new Set(record.steps.map((s) => `${s.config.provider}/${s.config.model}`))];
  return {
    type: 'trajectory/admitted',
    trajectoryId: record.trajectoryId,
    taskId: task.id,
    nodePath: record.nodeIndices.map((i) => tree.node(i).id),
    quality: v.quality,
    verified: v.verified,
    answer: v.answer,
    hasRepair: record.hasRepair,
    tags,
    question: task.question,
    family: task.family,
    coverage: v.coverage,
    stepSuccessRate: v.stepSuccessRate,
    repairedErrors: v.repairedErrors,
    rubric: v.rubric ?? null,
    models,
    simulated: record.steps.every((s) => s.config.simulated),
    costUsd: round(record.costUsd),
    steps: record.steps.map(stepRecord),
  };
}
