import type { ModelSpec, Usage } from './types';

/**
 * Default prices, USD per million tokens, from the vendors' public list prices as of 2025-08 (OpenAI, Anthropic,
 * DeepSeek, Alibaba DashScope international; open-weight models at typical OpenRouter gateway rates, which vary
 * by host). They are defaults only: override them in settings (`toffee.llm.prices`) or in `toffee.config.json`
 * (`prices`). Keys are normalized ids: lower case, no vendor prefix ("openai/"), no date suffix.
 */
export interface PriceEntry {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok?: number;
  contextWindow: number;
  supportsTools: boolean;
  supportsReasoningEffort: boolean;
}

const entry = (
  inputPerMTok: number,
  cachedInputPerMTok: number | undefined,
  outputPerMTok: number,
  contextWindow: number,
  supportsReasoningEffort = false,
  supportsTools = true,
): PriceEntry => ({ inputPerMTok, cachedInputPerMTok, outputPerMTok, contextWindow, supportsTools, supportsReasoningEffort });

export const DEFAULT_PRICE_TABLE_DATE = '2025-08';

export const DEFAULT_PRICES: Readonly<Record<string, PriceEntry>> = {
  // OpenAI
  'gpt-4o': entry(2.5, 1.25, 10, 128_000),
  'gpt-4o-mini': entry(0.15, 0.075, 0.6, 128_000),
  'gpt-4.1': entry(2, 0.5, 8, 1_047_576),
  'gpt-4.1-mini': entry(0.4, 0.1, 1.6, 1_047_576),
  'gpt-4.1-nano': entry(0.1, 0.025, 0.4, 1_047_576),
  o3: entry(2, 0.5, 8, 200_000, true),
  'o3-mini': entry(1.1, 0.55, 4.4, 200_000, true),
  'o4-mini': entry(1.1, 0.275, 4.4, 200_000, true),
  'gpt-5': entry(1.25, 0.125, 10, 400_000, true),
  'gpt-5-mini': entry(0.25, 0.025, 2, 400_000, true),
  'gpt-5-nano': entry(0.05, 0.005, 0.4, 400_000, true),
  // Anthropic (through OpenAI-compatible gateways such as OpenRouter); cached = cache-read price
  'claude-opus-4.1': entry(15, 1.5, 75, 200_000),
  'claude-opus-4': entry(15, 1.5, 75, 200_000),
  'claude-sonnet-4': entry(3, 0.3, 15, 200_000),
  'claude-3.7-sonnet': entry(3, 0.3, 15, 200_000),
  'claude-3.5-sonnet': entry(3, 0.3, 15, 200_000),
  'claude-3.5-haiku': entry(0.8, 0.08, 4, 200_000),
  // Qwen (DashScope international list prices; open weights at gateway rates)
  'qwen-max': entry(1.6, undefined, 6.4, 32_768),
  'qwen-plus': entry(0.4, undefined, 1.2, 131_072),
  'qwen-turbo': entry(0.05, undefined, 0.2, 1_000_000),
  'qwen3-235b-a22b': entry(0.13, undefined, 0.6, 40_960),
  'qwen3-32b': entry(0.1, undefined, 0.3, 40_960),
  'qwen-2.5-72b-instruct': entry(0.12, undefined, 0.39, 32_768),
  'qwen-2.5-coder-32b-instruct': entry(0.06, undefined, 0.15, 32_768),
  // DeepSeek (official API; cached = cache-hit input price)
  'deepseek-chat': entry(0.27, 0.07, 1.1, 64_000),
  'deepseek-reasoner': entry(0.55, 0.14, 2.19, 64_000, false, false),
  // Meta Llama (open weights; typical gateway rates)
  'llama-3.1-8b-instruct': entry(0.02, undefined, 0.05, 131_072),
  'llama-3.1-70b-instruct': entry(0.12, undefined, 0.3, 131_072),
  'llama-3.1-405b-instruct': entry(0.8, undefined, 0.8, 131_072),
  'llama-3.3-70b-instruct': entry(0.13, undefined, 0.4, 131_072),
  'llama-4-scout': entry(0.08, undefined, 0.3, 327_680),
  'llama-4-maverick': entry(0.15, undefined, 0.6, 1_048_576),
};

/** Spellings gateways use for the same model. */
const ALIASES: Readonly<Record<string, string>> = {
  'chatgpt-4o-latest': 'gpt-4o',
  'claude-sonnet-4-0': 'claude-sonnet-4',
  'claude-opus-4-0': 'claude-opus-4',
  'claude-opus-4-1': 'claude-opus-4.1',
  'claude-3-7-sonnet': 'claude-3.7-sonnet',
  'claude-3-7-sonnet-latest': 'claude-3.7-sonnet',
  'claude-3-5-sonnet': 'claude-3.5-sonnet',
  'claude-3-5-sonnet-latest': 'claude-3.5-sonnet',
  'claude-3-5-haiku': 'claude-3.5-haiku',
  'claude-3-5-haiku-latest': 'claude-3.5-haiku',
  'deepseek-v3': 'deepseek-chat',
  'deepseek-r1': 'deepseek-reasoner',
  'qwen2.5-72b-instruct': 'qwen-2.5-72b-instruct',
  'qwen2.5-coder-32b-instruct': 'qwen-2.5-coder-32b-instruct',
  'meta-llama-3.1-8b-instruct': 'llama-3.1-8b-instruct',
  'meta-llama-3.1-70b-instruct': 'llama-3.1-70b-instruct',
  'llama-4-scout-17b-16e-instruct': 'llama-4-scout',
  'llama-4-maverick-17b-128e-instruct': 'llama-4-maverick',
};

/** User-supplied price/capability override; missing fields keep the table's (or the fallback's) value. */
export type PriceOverride = Partial<PriceEntry>;

export interface ResolvedModelSpec extends ModelSpec {
  /** Where the price came from; 'unknown' means the cost is counted as 0 and `warning` says so. */
  priceSource: 'table' | 'override' | 'unknown';
  warning?: string;
}

/** Lower case, drop a gateway vendor prefix ("openai/gpt-4o" → "gpt-4o") and a ":variant" or date suffix. */
export function normalizeModelId(id: string): string {
  let name = id.trim().toLowerCase();
  const slash = name.lastIndexOf('/');
  if (slash >= 0) name = name.slice(slash + 1);
  name = name.replace(/:[a-z0-9-]+$/, ''); // OpenRouter ":free", ":beta", ":thinking"
  name = name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/, ''); // gpt-4o-2024-08-06, claude-…-20241022, …-2507
  return ALIASES[name] ?? name;
}

function lookupOverride(id: string, overrides: Readonly<Record<string, PriceOverride>> | undefined): PriceOverride | undefined {
  if (!overrides) return undefined;
  if (overrides[id]) return overrides[id];
  const normalized = normalizeModelId(id);
  for (const [key, value] of Object.entries(overrides)) {
    if (normalizeModelId(key) === normalized) return value;
  }
  return undefined;
}

/**
 * The ModelSpec for a model id at a provider: the default table, then overrides (exact id first, then by
 * normalized id). An unknown model is not an error: it gets price 0, a 128k window, tools assumed, and a warning.
 */
export function resolveModelSpec(
  id: string,
  provider: string,
  overrides?: Readonly<Record<string, PriceOverride>>,
): ResolvedModelSpec {
  const base = DEFAULT_PRICES[normalizeModelId(id)];
  const override = lookupOverride(id, overrides);
  const fallback: PriceEntry = entry(0, undefined, 0, 128_000);
  const merged: PriceEntry = { ...(base ?? fallback), ...stripUndefined(override ?? {}) };
  const priced = base !== undefined || (override?.inputPerMTok !== undefined && override.outputPerMTok !== undefined);
  const priceSource: ResolvedModelSpec['priceSource'] = override ? (priced ? 'override' : 'unknown') : base ? 'table' : 'unknown';
  const spec: ResolvedModelSpec = {
    id,
    provider,
    inputPerMTok: merged.inputPerMTok,
    outputPerMTok: merged.outputPerMTok,
    contextWindow: merged.contextWindow,
    supportsTools: merged.supportsTools,
    supportsReasoningEffort: merged.supportsReasoningEffort,
    simulated: false,
    priceSource,
  };
  if (merged.cachedInputPerMTok !== undefined) spec.cachedInputPerMTok = merged.cachedInputPerMTok;
  if (priceSource === 'unknown') {
    spec.warning = `No price is known for model "${id}"; its cost is counted as $0. Add a price override (settings "toffee.llm.prices" or "prices" in toffee.config.json).`;
  }
  return spec;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Cost of one call. Cached prompt tokens are billed at the cached price; reasoning tokens are already part of
 * completion tokens in OpenAI-style usage, so they are not added again.
 */
export function costUsd(usage: Usage, spec: Pick<ModelSpec, 'inputPerMTok' | 'outputPerMTok' | 'cachedInputPerMTok'>): number {
  const cached = Math.min(usage.cached ?? 0, usage.prompt);
  const uncached = usage.prompt - cached;
  const cachedPrice = spec.cachedInputPerMTok ?? spec.inputPerMTok;
  return (uncached * spec.inputPerMTok + cached * cachedPrice + usage.completion * spec.outputPerMTok) / 1_000_000;
}
