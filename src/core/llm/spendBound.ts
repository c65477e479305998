/**
 * A run's spend is bounded by its budget only when every model it calls has a price: a model without one costs $0
 * per call, so no budget ever stops it. Such a model needs a price, or the run an explicit cap on model calls.
 */
import type { ModelSpec } from './types';
import type { ResolvedModelSpec } from './pricing';

/** Real (not simulated) models whose price is unknown, so their calls are counted as $0. */
export function unpricedModels(models: readonly ModelSpec[]): ModelSpec[] {
  return models.filter((model) => !model.simulated && (model as Partial<ResolvedModelSpec>).priceSource === 'unknown');
}

export class UnboundedSpendError extends Error {
  constructor(readonly models: readonly ModelSpec[]) {
    const names = models.map((m) => `${m.provider}/${m.id}`).join(', ');
    const first = models[0]?.id ?? 'MODEL';
    super(
      `No price is known for ${models.length === 1 ? 'model' : 'models'} ${names}: ${models.length === 1 ? 'its' : 'their'} calls would count as $0, ` +
        `so the budget could not stop the run. Give ${models.length === 1 ? 'it' : 'each'} a price (CLI: --price ${first}=INPUT/OUTPUT in USD per ` +
        `million tokens, or "prices" in toffee.config.json; VS Code: the toffee.llm.prices setting), or cap the model calls (CLI: --max-calls N).`,
    );
    this.name = 'UnboundedSpendError';
  }
}

/** Refuses to start when a model is unpriced and no call cap is set. */
export function assertSpendBounded(models: readonly ModelSpec[], maxCalls: number | undefined): void {
  if (maxCalls !== undefined) return;
  const unpriced = unpricedModels(models);
  if (unpriced.length > 0) throw new UnboundedSpendError(unpriced);
}
