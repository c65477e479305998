/**
 * MCTS over real execution. Tree data (tree.ts), pure policies (selection, expansion configs), a step runner
 * that proposes and executes one step, and the loop below with budget, seed and AbortSignal passed in.
 * Each expansion asks the policy (the learned cost model, or a fixed config) for K configs; each proposes one
 * child whose tool call runs in the sandbox (through the shared prefix cache); rewards flow back up the path
 * and into the cost model. Final answers are verified and admitted or rejected by the cleaning filters.
 */
import { runStep } from '../agent/episode';
import { renderError } from '../agent/render';
import { repairedErrorIndices } from '../agent/steps';
import { stepRecord } from './stepRecord';
import type { ToolContext } from '../agent/tools';
import { AgentState, AgentStep, FULL_CONTEXT } from '../agent/types';
import { armId as idOfArm } from '../lcm/arms';
import { buildFeatures } from '../lcm/features';
import type { LearnedCostModel } from '../lcm/LearnedCostModel';
import type { ArmConfig, Decision, Operator, StateFeatures } from '../lcm/types';
import { simulationContext } from '../llm/sim/simulatedProvider';
import { OFFLINE_SIM_PROVIDER_ID } from '../llm/sim/models';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { NodeStatus, RunEventInput } from '../store/events';
import type { TaskSpec } from '../taskpool/types';
import { PrefixCache, canonicalCall } from './prefixCache';
import { SearchTree, TreeNode, meanValue } from './tree';
import {
  CleaningOptions,
  DEFAULT_CLEANING,
  RejectionReason,
  Verification,
  cleaningRejection,
  coveredEvidence,
} from './verifier';
import { verifyTrajectoryJudged, type RubricJudge } from './judge';
import { matchesAnswer } from '../taskpool/answer';

// ---------------------------------------------------------------- the step runner

/** Proposes and executes one step from a state with a config; never throws for tool problems. */
export interface StepRunner {
  step(input: { state: AgentState; arm: ArmConfig; attempt: number; prefixKeys: string[]; signal?: AbortSignal }): Promise<AgentStep>;
}

export interface StepRunnerOptions {
  task: TaskSpec;
  providers: readonly LlmProvider[];
  models: readonly ModelSpec[];
  toolContext: ToolContext;
  /** Tool calls go through it when given (the explorer); baselines execute directly. */
  prefixCache?: PrefixCache;
  seed: number;
}

export function agentConfigOf(arm: ArmConfig): { contextLength: AgentStep['config']['contextLength'] } {
  return { contextLength: arm.contextLength === 'full' ? FULL_CONTEXT : { mode: 'last-k', k: arm.lastK ?? 4 } };
}

/**
 * Steps through `runStep` (the agent's one prompt → completion → tool call → observation), so every provider,
 * real or simulated, sees exactly the prompt `toffee ask` sends. Simulated models get the task as their script.
 */
export function createStepRunner(options: StepRunnerOptions): StepRunner {
  const byId = new Map(options.providers.map((p) => [p.id, p]));
  return {
    async step({ state, arm, attempt, prefixKeys, signal }) {
      const provider = byId.get(arm.provider);
      if (!provider) throw new Error(`no provider '${arm.provider}' for arm ${idOfArm(arm)}`);
      const spec = options.models.find((m) => m.provider === arm.provider && m.id === arm.model);
      const cache = options.prefixCache;
      return runStep({
        state,
        config: { provider, model: arm.model, reasoningEffort: arm.reasoningEffort, simulated: spec?.simulated ?? false, ...agentConfigOf(arm) },
        toolContext: options.toolContext,
        simulation: provider.id === OFFLINE_SIM_PROVIDER_ID ? simulationContext(options.task, options.seed, attempt) : undefined,
        signal,
        execute: cache ? async (call) => (await cache.execute(options.task.id, prefixKeys, call, signal)).observation : undefined,
      });
    },
  };
}

// ---------------------------------------------------------------- policies

export interface NodeContext {
  features: StateFeatures;
  remainingBudgetUsd: number;
  maxK: number;
  operators: Operator[];
  excludeArmIds: string[];
}

export interface ExpansionChoice {
  arms: ArmConfig[];
  armIds: string[];
  /** PUCT priors of the children, summing to 1. */
  priors: number[];
  /** Expected USD cost of one step with each chosen arm (0 when unknown). */
  expectedCosts: number[];
  decision?: Decision;
}

/** Chooses the configs that expand a node, and learns from the children's rewards. */
export interface ExpansionPolicy {
  readonly name: string;
  choose(context: NodeContext): ExpansionChoice;
  learn(armId: string, features: StateFeatures, reward: number, costUsd: number): void;
}

/** TOFFEE: the learned cost model picks K configs per node; its scores are the PUCT priors. */
export function costModelPolicy(model: LearnedCostModel): ExpansionPolicy {
  return {
    name: 'toffee',
    choose(context) {
      const decision = model.decide(context.features, {
        remainingBudgetUsd: context.remainingBudgetUsd,
        maxK: context.maxK,
        operators: context.operators,
        excludeArmIds: context.excludeArmIds,
      });
      const chosen = decision.arms.filter((a) => decision.chosenArmIds.includes(a.armId));
      return { arms: decision.chosen, armIds: decision.chosenArmIds, priors: softmax(chosen.map((a) => a.score), 0.2), expectedCosts: chosen.map((a) => a.expectedCostUsd), decision };
    },
    learn(armId, features, reward, costUsd) {
      model.update(armId, features, reward, costUsd);
    },
  };
}

/** The no-cost-model ablation: one fixed config, K samples per node (distinct by their attempt seed). */
export function fixedConfigPolicy(arm: ArmConfig, k: number, estimateCostUsd?: (arm: ArmConfig, features: StateFeatures) => number | undefined): ExpansionPolicy {
  // Observed step costs blended with the price prior as two pseudo-observations, as the cost model does.
  let observedSum = 0;
  let observed = 0;
  return {
    name: 'fixed',
    choose(context) {
      const config = { ...arm, operator: context.operators[0] };
      const prior = estimateCostUsd?.(config, context.features);
      const cost = prior === undefined ? (observed ? observedSum / observed : 0) : (2 * prior + observedSum) / (2 + observed);
      // Like the cost model's arms, a config whose expected step cost exceeds the remaining budget is not used.
      const width = cost > context.remainingBudgetUsd ? 0 : Math.max(0, Math.min(k, context.maxK));
      return {
        arms: Array.from({ length: width }, () => ({ ...config })),
        armIds: Array.from({ length: width }, () => idOfArm(config)),
        priors: Array.from({ length: width }, () => 1 / Math.max(1, width)),
        expectedCosts: Array.from({ length: width }, () => cost),
      };
    },
    learn(_armId, _features, _reward, costUsd) {
      observedSum += costUsd;
      observed++;
    },
  };
}

function softmax(scores: number[], temperature: number): number[] {
  if (scores.length === 0) return [];
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp((s - max) / temperature));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** PUCT: mean value + c · prior · √N(parent) / (1 + N(child)). Pure; ties go to the older child. */
export function selectChild(tree: SearchTree, parent: TreeNode, cPuct: number): TreeNode | undefined {
  let best: TreeNode | undefined;
  let bestScore = -Infinity;
  for (const index of parent.childIndices) {
    const child = tree.node(index);
    if (child.closed) continue;
    const score = meanValue(child) + cPuct * child.prior * Math.sqrt(Math.max(1, parent.visits)) / (1 + child.visits);
    if (score > bestScore) {
      best = child;
      bestScore = score;
    }
  }
  return best;
}

/** Which operators make sense at a node: repair after an error, otherwise explore. */
export function operatorsAt(node: TreeNode): Operator[] {
  return node.step && !node.step.observation.ok ? ['repair'] : ['explore'];
}

/**
 * The state to widen once every branch has ended: a non-final, non-provider-failure node below the max depth
 * with fewer than WIDEN_CAP·maxK children whose next step is not settled, highest mean value first (ties: the
 * older node). Pure.
 */
export function widenCandidate(tree: SearchTree, maxDepth: number, maxK: number, skip: ReadonlySet<number> = new Set()): TreeNode | undefined {
  let best: TreeNode | undefined;
  for (const node of tree.nodes) {
    if (skip.has(node.index)) continue;
    if (node.quality !== undefined || node.depth >= maxDepth || node.childIndices.length >= WIDEN_CAP * maxK) continue;
    if (node.step && node.step.observation.tool === '(provider)') continue;
    if (node.index !== 0 && node.childIndices.length === 0) continue;
    if (settled(tree, node)) continue;
    if (!best || meanValue(node) > meanValue(best)) best = node;
  }
  return best;
}

/** Children that must all agree before a state counts as settled. */
export const SETTLED_AGREEMENT = 3;

/** Wrong final answers, and nothing else, after which a state is not read again. */
export const WRONG_READINGS = 2;

/** A state is widened to at most WIDEN_CAP·maxK children (the configs not yet tried there run out first, usually). */
export const WIDEN_CAP = 4;

/**
 * Whether widening a state would most likely buy copies. Configs agree on what follows it when at least
 * SETTLED_AGREEMENT children exist and all made the same call with the same observation, or gave the same final
 * answer (schema discovery, the answer read off a result). A state whose children differ, or whose children wrote
 * queries (where a stronger config may not repeat a weaker one's mistake), stays open. A state followed only by
 * WRONG_READINGS or more wrong final answers is settled too. Pure.
 */
export function settled(tree: SearchTree, node: TreeNode): boolean {
  const children = node.childIndices.map((index) => tree.node(index));
  // A result two configs have read, both wrongly: the mistake is in the result, not in the reading.
  if (children.length >= WRONG_READINGS && children.every((c) => c.quality !== undefined && !c.verified)) return true;
  if (node.childIndices.length < SETTLED_AGREEMENT) return false;
  const steps = children.map((child) => child.step);
  // Query code is where configs differ in skill: three configs making one mistake do not settle what a fourth writes.
  if (steps.some((step) => resultKey(step) !== undefined)) return false;
  const keys = new Set(steps.map((step, i) => outcomeKey(step) ?? `#${node.childIndices[i]}`));
  return keys.size === 1;
}

/** A successful query step's tool and result as the model saw it; undefined for other steps. */
function resultKey(step: AgentStep | undefined): string | undefined {
  if (!step?.observation.ok || (step.observation.tool !== 'run_sql' && step.observation.tool !== 'run_python')) return undefined;
  return `${step.observation.tool}\u0000${step.observation.text}`;
}

/**
 * Whether another node saw the same query result as `node`, and was followed only by final answers, all wrong: a
 * transposition whose answering is already known to fail. Pure.
 */
export function answeredWrongElsewhere(tree: SearchTree, node: TreeNode, results: ReadonlyMap<string, readonly number[]>): boolean {
  const key = resultKey(node.step);
  if (key === undefined) return false;
  return (results.get(key) ?? []).some((index) => {
    if (index === node.index) return false;
    const children = tree.node(index).childIndices.map((c) => tree.node(c));
    return children.length > 0 && children.every((c) => c.quality !== undefined && !c.verified);
  });
}

/** What a step led to, for agreement among siblings: its analysis state, or its final answer. */
function outcomeKey(step: AgentStep | undefined): string | undefined {
  return stateKey(step) ?? finalKey(step);
}

/** A final answer's normalised text, or undefined for other steps. */
function finalKey(step: AgentStep | undefined): string | undefined {
  if (!step?.observation.ok || step.observation.data.kind !== 'final') return undefined;
  return `\u0001${step.observation.text.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/** Steps a path is expected to take: the mean length of the trajectories admitted so far, else 6. */
export function expectedLength(admitted: readonly { steps: readonly unknown[] }[]): number {
  if (admitted.length === 0) return DEFAULT_PATH_LENGTH;
  return admitted.reduce((s, t) => s + t.steps.length, 0) / admitted.length;
}

/** A typical data-agent path: discovery, two or three queries, the answer. */
export const DEFAULT_PATH_LENGTH = 6;

/**
 * How many of the chosen children (best first) the budget can carry to an answer: the first always, then each
 * while the children's expected steps still to go fit the remaining budget. Pure.
 */
export function affordableWidth(expectedCosts: readonly number[], remainingUsd: number, stepsToGo: number): number {
  if (expectedCosts.length <= 1) return expectedCosts.length;
  let total = 0;
  let width = 0;
  for (const cost of expectedCosts) {
    total += cost * stepsToGo;
    if (width >= 1 && total > remainingUsd) break;
    width++;
  }
  return width;
}

// ---------------------------------------------------------------- values and rewards

/**
 * A node's value in 0..1: a final answer is worth its quality (0 when wrong); an open state is worth its
 * analytic progress, less when its own step failed. Open states stay below 0.8, so a verified answer wins.
 */
export function nodeValue(node: TreeNode): number {
  if (node.quality !== undefined) return node.verified ? node.quality : 0;
  const failed = node.step !== undefined && !node.step.observation.ok;
  return Math.max(0, Math.min(0.8, 0.2 + 0.6 * node.progress - (failed ? 0.15 : 0)));
}

// ---------------------------------------------------------------- the loop

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
}

export type SearchStopReason = 'solved' | 'budget' | 'exhausted' | 'expansions' | 'cancelled';

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

function schemaCoverage(task: TaskSpec, steps: readonly AgentStep[]): number {
  if (task.tables.length === 0) return 1;
  const seen = new Set<string>();
  for (const s of steps) {
    if (!s.observation.ok) continue;
    if (s.observation.data.kind === 'schema') seen.add(s.observation.data.table.toLowerCase());
  }
  return task.tables.filter((t) => seen.has(t.toLowerCase())).length / task.tables.length;
}

function statusPayload(taskId: string, node: TreeNode): RunEventInput {
  return { type: 'node/updated', taskId, nodeId: node.id, status: node.status, visits: node.visits, value: round(meanValue(node)), reward: round(node.reward) };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function providerFailureStep(index: number, arm: ArmConfig, message: string): AgentStep {
  return {
    index,
    thought: '',
    observation: { ok: false, tool: '(provider)', data: { kind: 'error', message }, text: renderError(message), errorKind: 'unavailable', elapsedMs: 0 },
    usage: { prompt: 0, completion: 0 },
    costUsd: 0,
    latencyMs: 0,
    config: { provider: arm.provider, model: arm.model, ...agentConfigOf(arm), reasoningEffort: arm.reasoningEffort, simulated: false },
    promptTokensEstimate: 0,
    droppedSteps: 0,
  };
}

/** The analysis state a non-final step leads to, as its canonical call plus observation; undefined for answers. */
function stateKey(step: AgentStep | undefined): string | undefined {
  if (!step?.toolCall || (step.observation.ok && step.observation.data.kind === 'final')) return undefined;
  return `${canonicalCall(step.toolCall)}\u0000${step.observation.ok ? 'ok' : 'error'}\u0000${step.observation.text}`;
}

/** Runs MCTS for one task until solved, out of budget or expansions, exhausted, or cancelled. */
export async function runSearch(task: TaskSpec, runner: StepRunner, policy: ExpansionPolicy, options: SearchOptions): Promise<SearchResult> {
  const started = Date.now();
  const maxDepth = options.maxDepth ?? 10;
  const maxK = options.maxK ?? 3;
  const maxExpansions = options.maxExpansions ?? 200;
  const targetAdmitted = options.targetAdmitted ?? 3;
  const cPuct = options.cPuct ?? 1;
  const cleaning = options.cleaning ?? DEFAULT_CLEANING;
  const emit = options.onEvents ?? (() => {});
  const tree = new SearchTree({ question: task.question, taskId: task.id });
  const admitted: TrajectoryRecord[] = [];
  const rejected: SearchResult['rejected'] = [];
  let spentUsd = 0;
  let calls = 0;
  let expansions = 0;
  let stopReason: SearchStopReason = 'exhausted';
  const prefixKeys = new Map<number, string[]>([[0, []]]);
  const unwidenable = new Set<number>();
  /** Nodes by the query result they saw (resultKey), for transpositions. */
  const results = new Map<string, number[]>();

  emit([{ type: 'node/added', taskId: task.id, nodeId: tree.root.id, parentId: null, status: 'open', depth: 0 }]);

  while (true) {
    if (options.signal?.aborted) {
      stopReason = 'cancelled';
      break;
    }
    const remainingNow = options.budgetUsd - spentUsd;
    // A repaired error whose branch is still open is worth finishing: such trajectories teach recovery.
    const repairedBranch = options.repairErrors === false || admitted.some((t) => t.hasRepair) || remainingNow < 0.25 * options.budgetUsd
      ? undefined
      : tree.nodes.find((n) => n.status === 'repaired' && !n.closed);
    if (admitted.length >= targetAdmitted && !repairedBranch) {
      stopReason = 'solved';
      break;
    }
    if (expansions >= maxExpansions) {
      stopReason = 'expansions';
      break;
    }
    const remaining = options.budgetUsd - spentUsd;
    if (remaining <= 0) {
      stopReason = 'budget';
      break;
    }
    let widen: TreeNode | undefined;
    if (tree.root.closed) {
      // Progressive widening: every branch ended but budget is left, so give the most promising open state
      // another child from a config not yet tried there.
      widen = widenCandidate(tree, maxDepth, maxK, unwidenable);
      if (!widen) {
        stopReason = 'exhausted';
        break;
      }
      for (const index of tree.pathTo(widen.index)) tree.node(index).closed = false;
    }

    // Selection: an unrepaired error first while the budget allows (repairs teach recovery), else descend by
    // PUCT to a node without children.
    let leaf = tree.root;
    const repairTarget = options.repairErrors === false || remaining < 0.25 * options.budgetUsd
      ? undefined
      : tree.nodes.find((n) => n.status === 'error' && !n.closed && n.childIndices.length === 0);
    if (widen) leaf = widen;
    else if (repairTarget) leaf = repairTarget;
    else if (repairedBranch) leaf = repairedBranch;
    while (!widen && leaf.childIndices.length > 0) {
      const next = selectChild(tree, leaf, cPuct);
      if (!next) break;
      leaf = next;
    }
    if (!widen && leaf.childIndices.length > 0) {
      // Every child closed but the node was not marked: close it and look again.
      leaf.closed = true;
      tree.closeUpward(leaf.index);
      continue;
    }

    // Expansion: K configs from the policy.
    const steps = tree.stepsTo(leaf.index);
    const recent = steps.slice(-3);
    const features = buildFeatures({
      depth: leaf.depth,
      maxDepth,
      progress: leaf.progress,
      schemaCoverage: schemaCoverage(task, steps),
      recentErrors: recent.filter((s) => !s.observation.ok).length,
      lastStepError: leaf.step !== undefined && !leaf.step.observation.ok,
      remainingBudgetFraction: options.budgetUsd > 0 ? remaining / options.budgetUsd : 0,
      difficulty: task.difficulty.level,
    });
    const triedArms = widen ? leaf.childIndices.map((c) => tree.node(c).armId).filter((id): id is string => id !== undefined) : [];
    const choice = policy.choose({ features, remainingBudgetUsd: remaining, maxK: widen ? 1 : maxK, operators: operatorsAt(leaf), excludeArmIds: triedArms });
    const width = affordableWidth(choice.expectedCosts, remaining, Math.max(1, expectedLength(admitted) - leaf.depth));
    if (width < choice.arms.length) {
      // Do not branch wider than the budget can carry to an answer: each child still needs the rest of a path.
      choice.arms = choice.arms.slice(0, width);
      choice.armIds = choice.armIds.slice(0, width);
      const total = choice.priors.slice(0, width).reduce((a, b) => a + b, 0) || 1;
      choice.priors = choice.priors.slice(0, width).map((p) => p / total);
      choice.expectedCosts = choice.expectedCosts.slice(0, width);
    }
    const events: RunEventInput[] = [];
    let decisionEvent: Extract<RunEventInput, { type: 'lcm/decision' }> | undefined;
    if (choice.decision) {
      const chosen = choice.armIds.map((id) => choice.decision!.arms.find((a) => a.armId === id)!);
      events.push(decisionEvent = {
        type: 'lcm/decision',
        taskId: task.id,
        nodeId: leaf.id,
        k: choice.arms.length,
        modelK: choice.decision.K,
        arms: choice.armIds,
        mu: chosen.map((a) => round(a.mu)),
        sigma: chosen.map((a) => round(a.sigma)),
        kReason: choice.arms.length < choice.decision.K ? `${choice.decision.kReason}; narrowed to ${choice.arms.length} so each child can still reach an answer` : choice.decision.kReason,
        index: choice.decision.index,
        candidates: choice.decision.arms.slice(0, 8).map((a) => ({ armId: a.armId, mu: round(a.mu), sigma: round(a.sigma), cost: a.expectedCostUsd, score: round(a.score), excluded: a.excluded ?? null })),
      });
    }
    if (choice.arms.length === 0) {
      // Nothing affordable (or untried) from here: this branch is done.
      if (widen) unwidenable.add(leaf.index);
      leaf.closed = true;
      if (leaf.index === 0) {
        stopReason = 'budget';
        emit(events);
        break;
      }
      leaf.status = leaf.status === 'open' ? 'pruned' : leaf.status;
      tree.closeUpward(leaf.index);
      events.push(statusPayload(task.id, leaf));
      emit(events);
      continue;
    }
    leaf.features = features;
    leaf.decision = choice.decision;
    expansions++;

    const state = tree.stateAt(leaf.index);
    const parentKeys = prefixKeys.get(leaf.index) ?? [];
    let expansionCost = 0;
    const tokens = { prompt: 0, completion: 0 };
    const children: TreeNode[] = [];
    // Outcomes already seen from this state: once a config repeats one (the same call and observation, or the same
    // final answer), the configs still queued would most likely repeat it too, so the expansion stops there.
    const seenOutcomes = new Set(leaf.childIndices.map((index) => outcomeKey(tree.node(index).step)).filter((k) => k !== undefined));
    for (let i = 0; i < choice.arms.length; i++) {
      if (options.signal?.aborted) break;
      const arm = choice.arms[i];
      const attempt = tree.size;
      let step: AgentStep;
      try {
        step = await runner.step({ state, arm, attempt, prefixKeys: parentKeys, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted) break;
        step = providerFailureStep(state.steps.length, arm, `the provider failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      calls++;
      expansionCost += step.costUsd;
      tokens.prompt += step.usage.prompt;
      tokens.completion += step.usage.completion;
      const child = tree.addChild(leaf.index, step, arm, choice.armIds[i], choice.priors[i] ?? 1 / choice.arms.length);
      prefixKeys.set(child.index, step.toolCall ? [...parentKeys, canonicalCall(step.toolCall)] : parentKeys);
      children.push(child);
      const outcome = outcomeKey(step);
      const wrongAnswer = step.observation.ok && step.observation.data.kind === 'final' && !matchesAnswer(task.answer, step.observation.data.answer);
      if ((outcome !== undefined && seenOutcomes.has(outcome)) || wrongAnswer) {
        if (decisionEvent && i + 1 < choice.arms.length) {
          // The decision as carried out: the configs that ran, and why the rest did not.
          const ran = i + 1;
          Object.assign(decisionEvent, {
            k: ran,
            arms: choice.armIds.slice(0, ran),
            mu: (decisionEvent.mu as number[]).slice(0, ran),
            sigma: (decisionEvent.sigma as number[]).slice(0, ran),
            kReason: `${decisionEvent.kReason}; stopped after ${ran}: ${wrongAnswer ? `${choice.armIds[i]} answered wrongly from this state, and the configs queued would read the same result` : `${choice.armIds[i]} repeated a sibling's ${step.observation.ok && step.observation.data.kind === 'final' ? 'answer' : 'call and observation'}`}`,
          });
        }
        break;
      }
      if (outcome !== undefined) seenOutcomes.add(outcome);
    }
    spentUsd += expansionCost;

    // Evaluation of each child. Siblings that made the same tool call and saw the same observation are one analysis
    // state: the first (best prior) keeps the branch, the others close at once so the budget is not split across
    // copies of one state (on a fresh cost model, K = 3 at the root otherwise grows three identical schema subtrees).
    const trajectoryEvents: RunEventInput[] = [];
    const siblingStates = new Set(leaf.childIndices.filter((i) => !children.some((c) => c.index === i)).map((i) => stateKey(tree.node(i).step)));
    for (const child of children) {
      const step = child.step!;
      const key = stateKey(step);
      const duplicate = key !== undefined && siblingStates.has(key);
      if (key !== undefined) siblingStates.add(key);
      const path = tree.stepsTo(child.index);
      child.progress = task.evidence.length ? coveredEvidence(task, path).size / task.evidence.length : 1;
      const isFinal = step.observation.ok && step.observation.data.kind === 'final';
      if (isFinal) {
        const judged = await verifyTrajectoryJudged(task, path, options.judge, options.signal);
        const verification = judged.verification;
        // The judge's calls are spent on this expansion too.
        spentUsd += judged.costUsd;
        expansionCost += judged.costUsd;
        child.verified = verification.verified;
        child.quality = verification.quality;
        child.closed = true;
        child.status = verification.verified ? 'verified' : 'terminal';
        const trajectoryId = `${task.id}/${child.id}`;
        const reason = cleaningRejection(path, verification, cleaning);
        const nodeIndices = tree.pathTo(child.index);
        const hasRepair = repairedErrorIndices(path).length > 0;
        if (reason === undefined) {
          const record: TrajectoryRecord = { trajectoryId, taskId: task.id, nodeIndices, steps: path, verification, hasRepair, costUsd: path.reduce((s, p) => s + p.costUsd, 0) };
          admitted.push(record);
          trajectoryEvents.push(admittedEvent(task, tree, record));
        } else {
          rejected.push({ trajectoryId, reason });
          trajectoryEvents.push({ type: 'trajectory/rejected', taskId: task.id, trajectoryId, reason, quality: verification.quality });
        }
      } else if (!step.observation.ok) {
        child.status = 'error';
        if (step.observation.tool === '(provider)') child.closed = true;
      }
      if (!child.closed && child.depth >= maxDepth) {
        child.closed = true;
        child.status = child.status === 'error' ? 'error' : 'pruned';
      }
      if (!child.closed && duplicate) {
        child.closed = true;
        child.status = 'pruned';
      }
      if (!child.closed && answeredWrongElsewhere(tree, child, results)) {
        // Another path reached the same result and every answer read off it was wrong: answering here again would
        // most likely repeat that answer, so the budget goes to other queries instead.
        child.closed = true;
        child.status = 'pruned';
      }
      const result = resultKey(step);
      if (result !== undefined) results.set(result, [...(results.get(result) ?? []), child.index]);
      child.reward = nodeValue(child);
      // A failed step whose child succeeds with the same tool was repaired.
      if (leaf.status === 'error' && step.observation.ok && step.toolCall?.name === leaf.step?.toolCall?.name) leaf.status = 'repaired';
      policy.learn(child.armId!, features, child.reward, step.costUsd);
      tree.backpropagate(child.index, child.reward);
      if (child.closed) tree.closeUpward(child.index);
      events.push({
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
      });
    }
    if (children.length === 0) {
      leaf.closed = true;
      tree.closeUpward(leaf.index);
    }
    for (const index of tree.pathTo(leaf.index)) events.push(statusPayload(task.id, tree.node(index)));
    if (expansionCost > 0 || children.length > 0) {
      events.push({ type: 'budget/spent', taskId: task.id, costUsd: expansionCost, calls: children.length, tokens: { ...tokens, total: tokens.prompt + tokens.completion } });
    }
    events.push(...trajectoryEvents);
    emit(events);
  }

  const bestQuality = admitted.reduce((best, t) => Math.max(best, t.verification.quality), 0);
  return { tree, admitted, rejected, spentUsd, calls, expansions, stopReason, bestQuality, elapsedMs: Date.now() - started };
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

/** Node statuses in use, re-exported for consumers that colour nodes. */
export type { NodeStatus };
