/**
 * The learned cost model (TOFFEE's LCM): a disjoint LinUCB bandit over LLM configs × operators. Per arm a ridge
 * regression of the step reward on the node's state features (A = λI + Σ x xᵀ, b = Σ r x, θ = A⁻¹ b), kept with
 * Sherman–Morrison rank-1 updates of A⁻¹. An arm scores μ + σ − cost term, with μ = θᵀx, σ = α √(xᵀA⁻¹x) and the
 * cost term = costWeight · expected step cost / remaining budget, so cheap arms win as the budget runs out.
 * The branch width K is the number of arms that still disagree with the best one (their upper score reaches the
 * best arm's lower bound), capped by maxK and narrowed by the budget fraction. Fully deterministic: no randomness.
 */
import { armId as idOfArm, validateArm } from './arms';
import { FEATURE_DIMENSION, FEATURE_NAMES } from './features';
import {
  addOuterProduct,
  dot,
  inverseResidual,
  invert,
  matVec,
  scaledIdentity,
  shermanMorrisonUpdate,
} from './linalg';
import { OPERATORS, type ArmConfig, type ArmScore, type Decision, type DecideOptions, type StateFeatures } from './types';

export interface LcmOptions {
  /** Exploration weight α of σ (default 0.5). */
  alpha?: number;
  /** Ridge regularisation λ (default 1). A loaded model keeps the λ it was trained with. */
  lambda?: number;
  /** Weight of the cost term against rewards in 0..1 (default 1). */
  costWeight?: number;
  /**
   * A-priori USD cost of one step with this arm (e.g. typical tokens × the model's price, see
   * createPriceCostEstimator). Blended with the arm's observed costs as `costPriorWeight` pseudo-observations.
   */
  estimateCostUsd?: (arm: ArmConfig, features: StateFeatures) => number | undefined;
  /** Pseudo-observations the prior estimate counts for (default 2). */
  costPriorWeight?: number;
  /** At or below this budget fraction K is 1 (default 0.1). */
  nearlyOutFraction?: number;
}

/** The persisted file (schema `toffee-lcm`, version 1). */
export interface CostModelJson {
  schema: 'toffee-lcm';
  version: 1;
  featureNames: string[];
  lambda: number;
  decisions: number;
  updates: number;
  arms: ArmStateJson[];
}

export interface ArmStateJson {
  id: string;
  arm: ArmConfig;
  pulls: number;
  rewardSum: number;
  costCount: number;
  costSumUsd: number;
  /** λI + Σ x xᵀ, flat row-major. */
  A: number[];
  /** A⁻¹ as maintained by Sherman–Morrison (persisted so a reload continues bit for bit). */
  Ainv: number[];
  b: number[];
}

/** What one model learned since a snapshot (LearnedCostModel.deltaFrom); plain JSON, additive. */
export interface CostModelDelta {
  decisions: number;
  updates: number;
  arms: ArmDelta[];
}

export interface ArmDelta {
  id: string;
  pulls: number;
  rewardSum: number;
  costCount: number;
  costSumUsd: number;
  /** Σ x xᵀ added, flat row-major. */
  A: number[];
  b: number[];
}

/** Per-arm totals for the UI. */
export interface ArmStats {
  armId: string;
  arm: ArmConfig;
  pulls: number;
  meanReward: number | null;
  meanCostUsd: number | null;
}

interface ArmState {
  id: string;
  arm: ArmConfig;
  pulls: number;
  rewardSum: number;
  costCount: number;
  costSumUsd: number;
  A: number[];
  Ainv: number[];
  b: number[];
}

export const COST_MODEL_SCHEMA = 'toffee-lcm';
export const COST_MODEL_VERSION = 1;

export class LearnedCostModel {
  private readonly states: ArmState[];
  private readonly byId = new Map<string, ArmState>();
  private readonly alpha: number;
  private readonly lambda: number;
  private readonly costWeight: number;
  private readonly costPriorWeight: number;
  private readonly nearlyOutFraction: number;
  private readonly estimateCostUsd?: LcmOptions['estimateCostUsd'];
  private decisionCount = 0;
  private updateCount = 0;

  /** Throws when an arm config is invalid or two arms share an id (a programming error, not bad data). */
  constructor(arms: readonly ArmConfig[], options: LcmOptions = {}) {
    this.alpha = positiveOr('alpha', options.alpha, 0.5, true);
    this.lambda = positiveOr('lambda', options.lambda, 1, false);
    this.costWeight = positiveOr('costWeight', options.costWeight, 1, true);
    this.costPriorWeight = positiveOr('costPriorWeight', options.costPriorWeight, 2, true);
    this.nearlyOutFraction = positiveOr('nearlyOutFraction', options.nearlyOutFraction, 0.1, true);
    this.estimateCostUsd = options.estimateCostUsd;
    this.states = arms.map((arm) => {
      const problems = validateArm(arm);
      if (problems.length > 0) throw new Error(`invalid arm ${JSON.stringify(arm)}: ${problems.join('; ')}`);
      const id = idOfArm(arm);
      if (this.byId.has(id)) throw new Error(`duplicate arm ${id}`);
      const state = freshArmState(id, { ...arm }, this.lambda);
      this.byId.set(id, state);
      return state;
    });
  }

  /** The arms, in the order given to the constructor. */
  get arms(): ArmConfig[] {
    return this.states.map((s) => ({ ...s.arm }));
  }

  get armIds(): string[] {
    return this.states.map((s) => s.id);
  }

  /** Updates received over the model's lifetime (across runs when persisted). */
  get updates(): number {
    return this.updateCount;
  }

  /**
   * Which K configs should propose children for a node. Scores every arm, excludes unaffordable ones
   * (expected step cost > remaining budget), operators the node does not allow and arms the caller rules out,
   * and picks the top K eligible arms. K = 0 only when no arm is eligible.
   */
  decide(features: StateFeatures, options: DecideOptions): Decision {
    const x = this.checkVector(features.vector);
    if (!Number.isInteger(options.maxK) || options.maxK < 1) throw new RangeError(`maxK must be an integer ≥ 1, got ${options.maxK}`);
    if (!Number.isFinite(options.remainingBudgetUsd)) {
      throw new RangeError(`remainingBudgetUsd must be a finite number, got ${options.remainingBudgetUsd}`);
    }
    const remaining = Math.max(0, options.remainingBudgetUsd);
    const allowedOperators = new Set(options.operators ?? OPERATORS);
    const excludedByCaller = new Set(options.excludeArmIds ?? []);
    const globalMeanCost = this.globalMeanCost();

    const scored = this.states.map((state, order) => {
      const ax = matVec(state.Ainv, x);
      const mu = dot(matVec(state.Ainv, state.b), x);
      const sigma = this.alpha * Math.sqrt(Math.max(0, dot(x, ax)));
      const expectedCostUsd = this.expectedCost(state, features, globalMeanCost);
      const ratio = remaining > 0 ? Math.min(1, expectedCostUsd / remaining) : expectedCostUsd > 0 ? 1 : 0;
      const costPenalty = this.costWeight * ratio;
      const score: ArmScore = {
        armId: state.id,
        arm: { ...state.arm },
        mu,
        sigma,
        expectedCostUsd,
        costPenalty,
        score: mu + sigma - costPenalty,
        pulls: state.pulls,
      };
      if (excludedByCaller.has(state.id)) score.excluded = 'excluded-by-caller';
      else if (!allowedOperators.has(state.arm.operator)) score.excluded = 'operator-not-allowed';
      else if (expectedCostUsd > remaining) score.excluded = 'unaffordable';
      return { score, order };
    });
    // Deterministic order: score descending, ties by the arms' construction order.
    const byScore = (a: (typeof scored)[number], b: (typeof scored)[number]) =>
      b.score.score - a.score.score || a.order - b.order;
    const eligible = scored.filter((s) => !s.score.excluded).sort(byScore).map((s) => s.score);
    const excluded = scored.filter((s) => s.score.excluded).sort(byScore).map((s) => s.score);

    const budgetFraction = x[FEATURE_NAMES.indexOf('budgetLeft')];
    const budgetCapK =
      budgetFraction <= this.nearlyOutFraction ? 1 : Math.max(1, Math.ceil(options.maxK * budgetFraction));
    let overlapping = 0;
    let K = 0;
    let kReason: string;
    if (eligible.length === 0) {
      kReason = `no eligible arm (${excluded.length} excluded: ${summariseExclusions(excluded)})`;
    } else {
      const best = eligible[0];
      const bestLower = best.mu - best.sigma - best.costPenalty;
      overlapping = eligible.filter((a) => a.score >= bestLower).length;
      K = Math.min(overlapping, budgetCapK, options.maxK);
      const parts = [
        `${overlapping} arm(s) reach the best arm's lower bound`,
        `budget ${(budgetFraction * 100).toFixed(0)}% allows ${budgetCapK}`,
        `maxK ${options.maxK}`,
      ];
      let trimmed = false;
      while (K > 1 && sumCost(eligible.slice(0, K)) > remaining) {
        K--;
        trimmed = true;
      }
      if (trimmed) parts.push('trimmed so the children fit the remaining budget');
      kReason = `K=${K}: ${parts.join('; ')}`;
    }
    const chosenScores = eligible.slice(0, K);
    return {
      index: this.decisionCount++,
      arms: [...eligible, ...excluded],
      chosen: chosenScores.map((a) => ({ ...a.arm })),
      chosenArmIds: chosenScores.map((a) => a.armId),
      K,
      kReason,
      overlapping,
      budgetCapK,
      remainingBudgetUsd: remaining,
      features: { vector: [...features.vector], input: { ...features.input } },
    };
  }

  /**
   * Learns from one child: the arm that proposed it, the parent node's features (those the decision saw),
   * the step's reward and its cost in USD. Throws on an unknown arm or non-finite numbers (caller bugs).
   */
  update(armId: string, features: StateFeatures | readonly number[], reward: number, costUsd: number): void {
    const state = this.byId.get(armId);
    if (!state) throw new Error(`unknown arm ${armId}`);
    const x = this.checkVector(Array.isArray(features) ? (features as number[]) : (features as StateFeatures).vector);
    if (!Number.isFinite(reward)) throw new RangeError(`reward must be a finite number, got ${reward}`);
    if (!Number.isFinite(costUsd) || costUsd < 0) throw new RangeError(`costUsd must be a finite number ≥ 0, got ${costUsd}`);
    addOuterProduct(state.A, x);
    shermanMorrisonUpdate(state.Ainv, x);
    for (let i = 0; i < x.length; i++) state.b[i] += reward * x[i];
    state.pulls++;
    state.rewardSum += reward;
    state.costCount++;
    state.costSumUsd += costUsd;
    this.updateCount++;
  }

  /** An independent copy with the same state and policy knobs (a task explores from a copy of the run's snapshot). */
  clone(): LearnedCostModel {
    const copy = new LearnedCostModel(this.arms, {
      alpha: this.alpha,
      lambda: this.lambda,
      costWeight: this.costWeight,
      costPriorWeight: this.costPriorWeight,
      nearlyOutFraction: this.nearlyOutFraction,
      estimateCostUsd: this.estimateCostUsd,
    });
    copy.decisionCount = this.decisionCount;
    copy.updateCount = this.updateCount;
    for (const [i, s] of this.states.entries()) Object.assign(copy.states[i], { ...s, arm: { ...s.arm }, A: [...s.A], Ainv: [...s.Ainv], b: [...s.b] });
    return copy;
  }

  /**
   * What this model learned since `base` (a model it was cloned from): LinUCB's sufficient statistics
   * (Σ x xᵀ, Σ r x, pulls, reward and cost sums) are additive, so deltas from one snapshot merge exactly with
   * `applyDelta`, and the result depends only on the order the deltas are applied in (the run's task order).
   * Only arms that were pulled appear.
   */
  deltaFrom(base: LearnedCostModel): CostModelDelta {
    const arms: ArmDelta[] = [];
    for (const s of this.states) {
      const before = base.byId.get(s.id);
      if (!before) throw new Error(`deltaFrom: arm ${s.id} is not in the base model`);
      if (s.pulls === before.pulls && s.costCount === before.costCount) continue;
      arms.push({
        id: s.id,
        pulls: s.pulls - before.pulls,
        rewardSum: s.rewardSum - before.rewardSum,
        costCount: s.costCount - before.costCount,
        costSumUsd: s.costSumUsd - before.costSumUsd,
        A: s.A.map((v, i) => v - before.A[i]),
        b: s.b.map((v, i) => v - before.b[i]),
      });
    }
    return { decisions: this.decisionCount - base.decisionCount, updates: this.updateCount - base.updateCount, arms };
  }

  /**
   * Adds another model's delta (see deltaFrom). A⁻¹ of each touched arm is recomputed from A. Returns plain-words
   * warnings for what could not be merged (an arm this model does not offer, a malformed or singular entry);
   * those parts are skipped, the rest is merged.
   */
  applyDelta(delta: CostModelDelta): string[] {
    const warnings: string[] = [];
    const d = FEATURE_DIMENSION;
    for (const entry of delta.arms) {
      const state = this.byId.get(entry.id);
      if (!state) {
        warnings.push(`learned cost model: the delta has an arm ${entry.id} this model does not offer; skipped`);
        continue;
      }
      const ok = isCount(entry.pulls) && isCount(entry.costCount) && isFiniteNumber(entry.rewardSum) && isFiniteNumber(entry.costSumUsd) &&
        entry.costSumUsd >= 0 && isVector(entry.A, d * d) && isVector(entry.b, d);
      const A = ok ? state.A.map((v, i) => v + entry.A[i]) : undefined;
      const Ainv = A ? invert(A, d) : undefined;
      if (!A || !Ainv) {
        warnings.push(`learned cost model: the delta of arm ${entry.id} is ${ok ? 'singular' : 'malformed'}; skipped`);
        continue;
      }
      state.A = A;
      state.Ainv = Ainv;
      state.b = state.b.map((v, i) => v + entry.b[i]);
      state.pulls += entry.pulls;
      state.rewardSum += entry.rewardSum;
      state.costCount += entry.costCount;
      state.costSumUsd += entry.costSumUsd;
    }
    if (isCount(delta.decisions)) this.decisionCount += delta.decisions;
    if (isCount(delta.updates)) this.updateCount += delta.updates;
    return warnings;
  }

  /** Per-arm pulls, mean reward and mean observed cost, in arm order. */
  stats(): ArmStats[] {
    return this.states.map((s) => ({
      armId: s.id,
      arm: { ...s.arm },
      pulls: s.pulls,
      meanReward: s.pulls > 0 ? s.rewardSum / s.pulls : null,
      meanCostUsd: s.costCount > 0 ? s.costSumUsd / s.costCount : null,
    }));
  }

  /** The persisted form (plain JSON). */
  toJSON(): CostModelJson {
    return {
      schema: COST_MODEL_SCHEMA,
      version: COST_MODEL_VERSION,
      featureNames: [...FEATURE_NAMES],
      lambda: this.lambda,
      decisions: this.decisionCount,
      updates: this.updateCount,
      arms: this.states.map((s) => ({
        id: s.id,
        arm: { ...s.arm },
        pulls: s.pulls,
        rewardSum: s.rewardSum,
        costCount: s.costCount,
        costSumUsd: s.costSumUsd,
        A: [...s.A],
        Ainv: [...s.Ainv],
        b: [...s.b],
      })),
    };
  }

  /**
   * Restores a model for `arms` from persisted JSON. Never throws on bad data: a corrupt, foreign or mismatched
   * file (other schema, version or feature layout) gives a fresh model plus a warning; an arm whose saved state
   * is broken starts fresh with a warning; saved arms no longer offered are dropped and new arms start fresh
   * (both noted). `options` set the policy knobs; λ comes from the file.
   */
  static fromJSON(data: unknown, arms: readonly ArmConfig[], options: LcmOptions = {}): { model: LearnedCostModel; warnings: string[] } {
    const warnings: string[] = [];
    const fresh = (why: string) => {
      warnings.push(`learned cost model: ${why}; starting a fresh model`);
      return { model: new LearnedCostModel(arms, options), warnings };
    };
    if (!isRecord(data)) return fresh('saved model is not a JSON object');
    if (data.schema !== COST_MODEL_SCHEMA) return fresh(`saved model has schema ${JSON.stringify(data.schema)}, expected ${COST_MODEL_SCHEMA}`);
    if (data.version !== COST_MODEL_VERSION) return fresh(`saved model has version ${JSON.stringify(data.version)}, expected ${COST_MODEL_VERSION}`);
    const names = data.featureNames;
    if (!Array.isArray(names) || names.length !== FEATURE_DIMENSION || names.some((n, i) => n !== FEATURE_NAMES[i])) {
      return fresh('saved model was trained on a different feature layout');
    }
    const lambda = data.lambda;
    if (typeof lambda !== 'number' || !Number.isFinite(lambda) || lambda <= 0) return fresh('saved model has an invalid lambda');
    if (!isCount(data.decisions) || !isCount(data.updates)) return fresh('saved model has invalid counters');
    if (!Array.isArray(data.arms)) return fresh('saved model has no arms list');
    if (options.lambda !== undefined && options.lambda !== lambda) {
      warnings.push(`learned cost model: keeping the saved lambda ${lambda} (requested ${options.lambda})`);
    }

    const model = new LearnedCostModel(arms, { ...options, lambda });
    model.decisionCount = data.decisions;
    model.updateCount = data.updates;
    const d = FEATURE_DIMENSION;
    let dropped = 0;
    const restored = new Set<string>();
    for (const [position, entry] of data.arms.entries()) {
      if (!isRecord(entry) || typeof entry.id !== 'string') {
        warnings.push(`learned cost model: saved arm #${position} is malformed; ignored`);
        continue;
      }
      const state = model.byId.get(entry.id);
      if (!state) {
        dropped++;
        continue;
      }
      if (restored.has(entry.id)) {
        warnings.push(`learned cost model: arm ${entry.id} saved twice; kept the first`);
        continue;
      }
      const ok =
        isCount(entry.pulls) && isCount(entry.costCount) && isFiniteNumber(entry.rewardSum) && isFiniteNumber(entry.costSumUsd) &&
        (entry.costSumUsd as number) >= 0 && isVector(entry.A, d * d) && isVector(entry.Ainv, d * d) && isVector(entry.b, d);
      if (!ok) {
        warnings.push(`learned cost model: saved state of arm ${entry.id} is corrupt; that arm starts fresh`);
        continue;
      }
      const A = entry.A as number[];
      let Ainv = entry.Ainv as number[];
      // A tampered or drifted inverse is recomputed once from A rather than trusted.
      if (inverseResidual(A, Ainv, d) > 1e-6) {
        const recomputed = invert(A, d);
        if (!recomputed) {
          warnings.push(`learned cost model: saved matrix of arm ${entry.id} is singular; that arm starts fresh`);
          continue;
        }
        warnings.push(`learned cost model: saved inverse of arm ${entry.id} did not match; recomputed`);
        Ainv = recomputed;
      }
      Object.assign(state, {
        pulls: entry.pulls,
        rewardSum: entry.rewardSum,
        costCount: entry.costCount,
        costSumUsd: entry.costSumUsd,
        A: [...A],
        Ainv: [...Ainv],
        b: [...(entry.b as number[])],
      });
      restored.add(entry.id);
    }
    if (dropped > 0) warnings.push(`learned cost model: ${dropped} saved arm(s) are no longer offered; dropped`);
    const added = model.states.length - restored.size;
    if (added > 0 && restored.size > 0) warnings.push(`learned cost model: ${added} arm(s) are new; they start fresh`);
    return { model, warnings };
  }

  private checkVector(vector: readonly number[]): number[] {
    if (!Array.isArray(vector) || vector.length !== FEATURE_DIMENSION || vector.some((v) => !Number.isFinite(v))) {
      throw new RangeError(`features must be ${FEATURE_DIMENSION} finite numbers (${FEATURE_NAMES.join(', ')}); build them with buildFeatures`);
    }
    return vector as number[];
  }

  /** Prior (if any) blended with observed step costs; without either, the mean cost observed over all arms. */
  private expectedCost(state: ArmState, features: StateFeatures, globalMeanCost: number): number {
    const prior = this.estimateCostUsd?.(state.arm, features);
    const hasPrior = prior !== undefined && Number.isFinite(prior) && prior >= 0;
    if (hasPrior && this.costPriorWeight > 0) {
      return (this.costPriorWeight * (prior as number) + state.costSumUsd) / (this.costPriorWeight + state.costCount);
    }
    if (state.costCount > 0) return state.costSumUsd / state.costCount;
    return hasPrior ? (prior as number) : globalMeanCost;
  }

  private globalMeanCost(): number {
    let sum = 0;
    let count = 0;
    for (const s of this.states) {
      sum += s.costSumUsd;
      count += s.costCount;
    }
    return count > 0 ? sum / count : 0;
  }
}

function freshArmState(id: string, arm: ArmConfig, lambda: number): ArmState {
  return {
    id,
    arm,
    pulls: 0,
    rewardSum: 0,
    costCount: 0,
    costSumUsd: 0,
    A: scaledIdentity(FEATURE_DIMENSION, lambda),
    Ainv: scaledIdentity(FEATURE_DIMENSION, 1 / lambda),
    b: new Array<number>(FEATURE_DIMENSION).fill(0),
  };
}

function sumCost(arms: readonly ArmScore[]): number {
  return arms.reduce((sum, a) => sum + a.expectedCostUsd, 0);
}

function summariseExclusions(arms: readonly ArmScore[]): string {
  const counts = new Map<string, number>();
  for (const a of arms) counts.set(a.excluded as string, (counts.get(a.excluded as string) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ') || 'none';
}

function positiveOr(name: string, value: number | undefined, fallback: number, allowZero: boolean): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a finite number ${allowZero ? '≥' : '>'} 0, got ${value}`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isVector(value: unknown, length: number): boolean {
  return Array.isArray(value) && value.length === length && value.every((v) => typeof v === 'number' && Number.isFinite(v));
}
