/** A-priori step cost of an arm from model prices and typical token counts (the cost model's prior). */
import type { ModelSpec } from '../llm/types';
import type { ArmConfig, StateFeatures } from './types';

export interface PriceEstimateOptions {
  /** Prompt tokens every step sends regardless of history: system prompt, task, tool schemas (default 1500). */
  basePromptTokens?: number;
  /** Prompt tokens each earlier step adds to the history (default 600). */
  tokensPerStep?: number;
  /** Completion tokens of one step without reasoning (default 250). */
  completionTokens?: number;
  /** Completion-token multiplier per reasoning effort (default low 1.5, medium 3, high 6). */
  effortMultiplier?: Partial<Record<'low' | 'medium' | 'high', number>>;
}

/**
 * Returns an `estimateCostUsd` for LcmOptions: prompt tokens grow with depth under `full` context and stop
 * growing at k steps under `last-k`; completion tokens grow with reasoning effort; both × the model's price.
 * Unknown models give undefined (the model then relies on observed costs).
 */
export function createPriceCostEstimator(
  models: readonly ModelSpec[],
  options: PriceEstimateOptions = {},
): (arm: ArmConfig, features: StateFeatures) => number | undefined {
  const base = options.basePromptTokens ?? 1500;
  const perStep = options.tokensPerStep ?? 600;
  const completion = options.completionTokens ?? 250;
  const effort = { low: 1.5, medium: 3, high: 6, ...options.effortMultiplier };
  const byKey = new Map(models.map((m) => [`${m.provider}/${m.id}`, m]));
  return (arm, features) => {
    const spec = byKey.get(`${arm.provider}/${arm.model}`);
    if (!spec) return undefined;
    const depth = Math.max(0, features.input.depth);
    const historySteps = arm.contextLength === 'last-k' ? Math.min(depth, arm.lastK ?? depth) : depth;
    const promptTokens = base + perStep * historySteps;
    const completionTokens = completion * (arm.reasoningEffort ? effort[arm.reasoningEffort] : 1);
    return (promptTokens * spec.inputPerMTok + completionTokens * spec.outputPerMTok) / 1e6;
  };
}
