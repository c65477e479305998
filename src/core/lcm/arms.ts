/** Arm ids and the default arm set built from the models a provider offers. */
import type { ModelSpec, ReasoningEffort } from '../llm/types';
import { OPERATORS, type ArmConfig, type Operator } from './types';

/**
 * A stable, readable id: `provider/model|ctx|effort|operator`, e.g. `offline-sim/sim-large|last-4|high|repair`
 * (`-` when no reasoning effort). The same config always gives the same id across runs.
 */
export function armId(arm: ArmConfig): string {
  const context = arm.contextLength === 'full' ? 'full' : `last-${arm.lastK}`;
  return `${arm.provider}/${arm.model}|${context}|${arm.reasoningEffort ?? '-'}|${arm.operator}`;
}

/** Plain-words problems with an arm config (empty when valid). */
export function validateArm(arm: ArmConfig): string[] {
  const problems: string[] = [];
  if (typeof arm.model !== 'string' || arm.model.length === 0) problems.push('model must be a non-empty string');
  if (typeof arm.provider !== 'string' || arm.provider.length === 0) problems.push('provider must be a non-empty string');
  if (arm.contextLength !== 'full' && arm.contextLength !== 'last-k') problems.push(`unknown contextLength ${String(arm.contextLength)}`);
  if (arm.contextLength === 'last-k' && !(Number.isInteger(arm.lastK) && (arm.lastK as number) > 0)) {
    problems.push('lastK must be a positive integer when contextLength is last-k');
  }
  if (arm.reasoningEffort !== undefined && !['low', 'medium', 'high'].includes(arm.reasoningEffort)) {
    problems.push(`unknown reasoningEffort ${String(arm.reasoningEffort)}`);
  }
  if (!OPERATORS.includes(arm.operator)) problems.push(`unknown operator ${String(arm.operator)}`);
  return problems;
}

export interface DefaultArmOptions {
  /** Context lengths to offer: `full` and last-k for each k here (default [4]). */
  lastKs?: readonly number[];
  /** Efforts for models with supportsReasoningEffort (default low, medium, high). */
  reasoningEfforts?: readonly ReasoningEffort[];
  operators?: readonly Operator[];
  /** Skip models that cannot call tools (default true: the agent speaks through tools). */
  requireTools?: boolean;
}

/**
 * models × context length {full, last-4} × reasoning effort (only where supported) × operator, in a
 * deterministic order (models sorted by provider then id), deduplicated by arm id.
 */
export function buildDefaultArms(models: readonly ModelSpec[], options: DefaultArmOptions = {}): ArmConfig[] {
  const lastKs = options.lastKs ?? [4];
  const efforts = options.reasoningEfforts ?? ['low', 'medium', 'high'];
  const operators = options.operators ?? OPERATORS;
  const requireTools = options.requireTools ?? true;
  const sorted = [...models].sort((a, b) => (a.provider === b.provider ? cmp(a.id, b.id) : cmp(a.provider, b.provider)));
  const arms: ArmConfig[] = [];
  const seen = new Set<string>();
  for (const model of sorted) {
    if (requireTools && !model.supportsTools) continue;
    const contexts: Array<Pick<ArmConfig, 'contextLength' | 'lastK'>> = [
      { contextLength: 'full' },
      ...lastKs.map((k) => ({ contextLength: 'last-k' as const, lastK: k })),
    ];
    const modelEfforts: Array<ReasoningEffort | undefined> = model.supportsReasoningEffort ? [...efforts] : [undefined];
    for (const context of contexts) {
      for (const effort of modelEfforts) {
        for (const operator of operators) {
          const arm: ArmConfig = { model: model.id, provider: model.provider, ...context, operator };
          if (effort !== undefined) arm.reasoningEffort = effort;
          const id = armId(arm);
          if (seen.has(id)) continue;
          seen.add(id);
          arms.push(arm);
        }
      }
    }
  }
  return arms;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A default for DecideOptions.operators at a node: after an error observation, `repair` (or `explore` a different
 * route); at the root only `explore`; elsewhere `explore`, `refine` and `answer`. The explorer may use its own rule.
 */
export function defaultOperatorsFor(state: { depth: number; lastStepError: boolean }): Operator[] {
  if (state.lastStepError) return ['repair', 'explore'];
  if (state.depth <= 0) return ['explore'];
  return ['explore', 'refine', 'answer'];
}
