/** The simulated model family: prices, context windows and behaviour parameters per size. */
import { OFFLINE_SIM_PROVIDER_ID, type ModelSpec, type ReasoningEffort } from '../llm/types';
import type { ErrorCategory } from './taxonomy';

export { OFFLINE_SIM_PROVIDER_ID };

export interface SimModelProfile {
  spec: ModelSpec;
  /** Probability of a mistake on an average-difficulty evidence step at medium effort with the schema in view. */
  baseMistakeRate: number;
  /** Probability of skipping list_tables (the system prompt's summary names the tables). */
  skipListTables: number;
  /** How the model's slips lean across the taxonomy's categories (1 = the base mix): small models link the schema
   * wrongly and write invalid SQL more often, large ones err in nesting and the fine points. */
  categoryLean: Partial<Record<ErrorCategory, number>>;
  /** Probability, per evidence step still to do, of answering too early with a guessed value. */
  prematureAnswerRate: number;
  /** Simulated latency: fixed part and per generated token. */
  latencyBaseMs: number;
  latencyPerTokenMs: number;
  /** Hidden reasoning tokens per step at medium effort. */
  reasoningTokens: number;
}

const spec = (id: string, inputPerMTok: number, outputPerMTok: number, contextWindow: number): ModelSpec => ({
  id,
  provider: OFFLINE_SIM_PROVIDER_ID,
  inputPerMTok,
  outputPerMTok,
  contextWindow,
  supportsTools: true,
  supportsReasoningEffort: true,
  simulated: true,
});

/** Large costs ~16.7× small per token, like the spread between small and frontier hosted models. */
export const SIM_MODELS: SimModelProfile[] = [
  {
    spec: spec('sim-small', 0.15, 0.6, 16_000),
    baseMistakeRate: 0.3,
    skipListTables: 0,
    categoryLean: { schema_linking: 1.5, invalid_sql: 1.5, typo: 1.5, nested: 0.7 },
    prematureAnswerRate: 0.04,
    latencyBaseMs: 250,
    latencyPerTokenMs: 4,
    reasoningTokens: 60,
  },
  {
    spec: spec('sim-medium', 0.6, 2.4, 64_000),
    baseMistakeRate: 0.15,
    skipListTables: 0.5,
    categoryLean: {},
    prematureAnswerRate: 0.015,
    latencyBaseMs: 450,
    latencyPerTokenMs: 8,
    reasoningTokens: 120,
  },
  {
    spec: spec('sim-large', 2.5, 10, 200_000),
    baseMistakeRate: 0.05,
    skipListTables: 0.85,
    categoryLean: { schema_linking: 0.6, invalid_sql: 0.5, typo: 0.3, nested: 1.5, miscellaneous: 1.3 },
    prematureAnswerRate: 0.004,
    latencyBaseMs: 800,
    latencyPerTokenMs: 15,
    reasoningTokens: 200,
  },
];

export function simModel(id: string): SimModelProfile | undefined {
  return SIM_MODELS.find((m) => m.spec.id === id);
}

/** Thinking harder makes fewer mistakes and costs more reasoning tokens. */
export const EFFORT_MISTAKE_FACTOR: Record<ReasoningEffort, number> = { low: 1.35, medium: 1, high: 0.65 };
export const EFFORT_REASONING_FACTOR: Record<ReasoningEffort, number> = { low: 0.4, medium: 1, high: 2.5 };
