/** Types of the learned cost model (LCM): arms, state features, decisions. Everything here is plain JSON. */
import type { ReasoningEffort } from '../llm/types';

/**
 * What a config is asked to do at an MCTS expansion step:
 * - `explore`: propose the next tool call (schema discovery, a query, a Python step) from this node;
 * - `refine`: improve or check the current partial result (fix a join, narrow a filter, verify a number);
 * - `repair`: respond to the error observation at this node (diagnose, then a corrected call);
 * - `answer`: commit a `final_answer` from what the trajectory has established.
 * The explorer restricts operators per node (e.g. only `repair`/`explore` after an error) via `DecideOptions.operators`.
 */
export type Operator = 'explore' | 'refine' | 'repair' | 'answer';
export const OPERATORS: readonly Operator[] = ['explore', 'refine', 'repair', 'answer'];

/** How much of the trajectory the config sees: all of it, or only the last `lastK` steps (plus task and schema). */
export type ContextLength = 'full' | 'last-k';

/** One arm of the bandit: an LLM configuration plus an operator. */
export interface ArmConfig {
  model: string;
  provider: string;
  contextLength: ContextLength;
  /** Required (a positive integer) when contextLength is 'last-k'. */
  lastK?: number;
  /** Only for models that support it. */
  reasoningEffort?: ReasoningEffort;
  operator: Operator;
}

/** The raw state of a search node, as the explorer knows it. */
export interface StateInput {
  /** Tool calls from the root to this node. */
  depth: number;
  /** The explorer's maximum depth, used to scale depth to 0..1. */
  maxDepth: number;
  /** Coverage of the task's evidence anchors by executed steps, 0..1. */
  progress: number;
  /** Share of the task's tables whose schema the trajectory has discovered, 0..1. */
  schemaCoverage: number;
  /** Error observations among the last `recentWindow` steps. */
  recentErrors: number;
  /** Steps counted by recentErrors (default 3). */
  recentWindow?: number;
  /** Whether this node's own observation is an error. */
  lastStepError: boolean;
  /** Task budget left / task budget, 0..1. */
  remainingBudgetFraction: number;
  /** Task difficulty, 0..1, or the task pool's level (easy = 0, medium = 0.5, hard = 1). */
  difficulty: number | 'easy' | 'medium' | 'hard';
}

/** A state's fixed-length feature vector (every entry in [0, 1]; entry 0 is the bias) and what it was built from. */
export interface StateFeatures {
  /** Same order as FEATURE_NAMES. */
  vector: number[];
  input: StateInput;
}

/** One arm's evaluation at a decision. */
export interface ArmScore {
  armId: string;
  arm: ArmConfig;
  /** Predicted reward θᵀx. */
  mu: number;
  /** Exploration bonus α·√(xᵀA⁻¹x). */
  sigma: number;
  /** Expected cost of one step with this arm, USD. */
  expectedCostUsd: number;
  /** costWeight · expectedCost / remaining budget, subtracted from μ + σ. */
  costPenalty: number;
  /** μ + σ − costPenalty (−Infinity is never used; excluded arms keep their computed score). */
  score: number;
  /** Updates this arm has received. */
  pulls: number;
  /** Why the arm could not be chosen, when it could not. */
  excluded?: 'unaffordable' | 'operator-not-allowed' | 'excluded-by-caller';
}

/** What the cost model decided for one expansion step; plain JSON for the events log and the UI. */
export interface Decision {
  /** Sequence number of this decision within the model's lifetime (persisted). */
  index: number;
  /** Every arm: eligible ones by score (best first), then excluded ones by score. */
  arms: ArmScore[];
  /** The K configs that should each propose one child for the node, best first. */
  chosen: ArmConfig[];
  chosenArmIds: string[];
  K: number;
  /** How K came about, in plain words. */
  kReason: string;
  /** Eligible arms whose upper score reaches the best arm's lower bound (the disagreement count). */
  overlapping: number;
  /** K allowed by the budget fraction alone. */
  budgetCapK: number;
  remainingBudgetUsd: number;
  features: StateFeatures;
}

/** Options of one decision. */
export interface DecideOptions {
  /** USD left in the task's budget; arms whose expected step cost exceeds it are excluded. */
  remainingBudgetUsd: number;
  /** Most children this node may get. */
  maxK: number;
  /** Operators that make sense at this node (default: all). */
  operators?: readonly Operator[];
  /** Arms the caller rules out (e.g. a provider that just failed). */
  excludeArmIds?: readonly string[];
}
