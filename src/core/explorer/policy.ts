/**
 * The search's policies and rules, all pure: which configs expand a node (the learned cost model, or one fixed
 * config), PUCT selection, where to widen, when a state is settled, how wide the budget lets a node branch, what a
 * node is worth, and when two steps lead to the same state.
 */
import type { AgentStep } from '../agent/types';
import { armId as idOfArm } from '../lcm/arms';
import type { LearnedCostModel } from '../lcm/LearnedCostModel';
import type { ArmConfig, Decision, Operator, StateFeatures } from '../lcm/types';
import { canonicalCall } from './prefixCache';
import { SearchTree, TreeNode, meanValue } from './tree';

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
 * with fewer than WIDEN_CAP·maxK children, not below a wrong intermediate, whose next step is not settled, highest
 * mean value first (ties: the older node). Pure.
 */
export function widenCandidate(tree: SearchTree, maxDepth: number, maxK: number, skip: ReadonlySet<number> = new Set()): TreeNode | undefined {
  let best: TreeNode | undefined;
  for (const node of tree.nodes) {
    if (skip.has(node.index)) continue;
    if (node.quality !== undefined || node.depth >= maxDepth || node.childIndices.length >= WIDEN_CAP * maxK) continue;
    if (node.step && node.step.observation.tool === '(provider)') continue;
    if (node.index !== 0 && node.childIndices.length === 0) continue;
    // Below a wrong intermediate every answer is rejected: the budget goes to states before it.
    if (node.contradicted || settled(tree, node)) continue;
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
  if (children.length >= WRONG_READINGS && children.every(wrongReading)) return true;
  if (node.childIndices.length < SETTLED_AGREEMENT) return false;
  // The last SETTLED_AGREEMENT children each repeated an earlier sibling's outcome (the same call and observation,
  // or the same answer): widening buys copies, whichever configs are left — queries included.
  const outcomes = children.map((child) => outcomeKey(child.step));
  const repeats = (i: number) => outcomes[i] !== undefined && outcomes.slice(0, i).includes(outcomes[i]);
  if (children.slice(-SETTLED_AGREEMENT).every((_, j) => repeats(children.length - SETTLED_AGREEMENT + j))) return true;
  const steps = children.map((child) => child.step);
  // Query code is where configs differ in skill: three configs making one mistake do not settle what a fourth writes.
  if (steps.some((step) => resultKey(step) !== undefined)) return false;
  const keys = new Set(steps.map((step, i) => outcomeKey(step) ?? `#${node.childIndices[i]}`));
  return keys.size === 1;
}

/**
 * A wrong final answer read off the state before it: a reading of the last step's result gone wrong. A premature
 * answer (given before the path attempted the program's last step) is not one — the state it left may be an
 * intermediate result the path was right to reach, whose next step is a query, not an answer; nor is a right answer
 * the cleaning filters rejected for its path (a wrong intermediate, a repeated call): the reading was right.
 */
function wrongReading(node: TreeNode): boolean {
  return node.quality !== undefined && !node.verified && !node.premature;
}

/** A successful query step's tool and result as the model saw it; undefined for other steps. */
export function resultKey(step: AgentStep | undefined): string | undefined {
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
    return children.length > 0 && children.every(wrongReading);
  });
}

/** What a step led to, for agreement among siblings: its analysis state, or its final answer. */
export function outcomeKey(step: AgentStep | undefined): string | undefined {
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
 * A node's value in 0..1: a final answer is worth its quality when its trajectory is admitted (0 when wrong or
 * rejected by the cleaning filters: no training data came of it); an open state is worth its analytic progress,
 * less when its own step failed, and nothing below a sub-answer reported with wrong figures. Open states stay below
 * 0.8, so an admitted answer wins.
 */
export function nodeValue(node: TreeNode): number {
  if (node.quality !== undefined) return node.admitted ? node.quality : 0;
  // A state below a sub-answer reported with wrong figures leads to no admitted answer (unless redone on the path).
  if (node.contradicted) return 0;
  const failed = node.step !== undefined && !node.step.observation.ok;
  return Math.max(0, Math.min(0.8, 0.2 + 0.6 * node.progress - (failed ? 0.15 : 0)));
}

/** The analysis state a non-final step leads to, as its canonical call plus observation; undefined for answers. */
export function stateKey(step: AgentStep | undefined): string | undefined {
  if (!step?.toolCall || (step.observation.ok && step.observation.data.kind === 'final')) return undefined;
  return `${canonicalCall(step.toolCall)}\u0000${step.observation.ok ? 'ok' : 'error'}\u0000${step.observation.text}`;
}
