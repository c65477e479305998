/** State features for the cost model: a fixed-length vector, every entry scaled to [0, 1]. */
import type { StateFeatures, StateInput } from './types';

/**
 * Vector layout (FEATURE_VERSION 1). Scaling:
 * - bias: always 1;
 * - depth: depth / maxDepth, clamped to [0, 1];
 * - progress, schemaCoverage, budgetLeft: clamped to [0, 1];
 * - recentErrors: recentErrors / recentWindow (default window 3), clamped;
 * - lastStepError: 0 or 1;
 * - difficulty: a number clamped to [0, 1], or easy 0, medium 0.5, hard 1.
 * A persisted model records the names; a different layout makes the saved model a mismatch (fresh start).
 */
export const FEATURE_NAMES = [
  'bias',
  'depth',
  'progress',
  'schemaCoverage',
  'recentErrors',
  'lastStepError',
  'budgetLeft',
  'difficulty',
] as const;
export const FEATURE_DIMENSION = FEATURE_NAMES.length;

const DIFFICULTY_LEVELS = { easy: 0, medium: 0.5, hard: 1 } as const;

/** Builds a node's features. Throws a RangeError naming the field when a number is missing or not finite. */
export function buildFeatures(input: StateInput): StateFeatures {
  const window = input.recentWindow ?? 3;
  requireFinite('depth', input.depth);
  requireFinite('maxDepth', input.maxDepth);
  requireFinite('progress', input.progress);
  requireFinite('schemaCoverage', input.schemaCoverage);
  requireFinite('recentErrors', input.recentErrors);
  requireFinite('recentWindow', window);
  requireFinite('remainingBudgetFraction', input.remainingBudgetFraction);
  let difficulty: number;
  if (typeof input.difficulty === 'number') {
    requireFinite('difficulty', input.difficulty);
    difficulty = input.difficulty;
  } else if (input.difficulty in DIFFICULTY_LEVELS) {
    difficulty = DIFFICULTY_LEVELS[input.difficulty];
  } else {
    throw new RangeError(`state feature difficulty must be a number or easy/medium/hard, got ${String(input.difficulty)}`);
  }
  const vector = [
    1,
    input.maxDepth > 0 ? clamp01(input.depth / input.maxDepth) : 0,
    clamp01(input.progress),
    clamp01(input.schemaCoverage),
    window > 0 ? clamp01(input.recentErrors / window) : 0,
    input.lastStepError ? 1 : 0,
    clamp01(input.remainingBudgetFraction),
    clamp01(difficulty),
  ];
  return { vector, input: { ...input } };
}

function requireFinite(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`state feature ${name} must be a finite number, got ${String(value)}`);
  }
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
