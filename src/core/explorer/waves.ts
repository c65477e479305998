/**
 * Parallel expansion in waves. An expansion's K configs each propose one step from the same state; one after
 * another, a config that repeats a sibling's outcome (or answers wrongly) stops the ones still queued, which would
 * most likely repeat it too. In waves, the configs of a wave are requested at once, and the stop rule is read
 * after each wave: a first wave of two (the stop rule most often fires on the second config), then the rest at
 * once. Against a provider with latency an expansion then waits two round trips instead of K; the price is the
 * configs of a wave that ran after the one that would have stopped the expansion (bench:latency measures both).
 *
 * All at once ('parallel'), the whole expansion is one wave: one round trip, and no config is saved by the stop
 * rule (every config of the expansion runs and its child is kept).
 *
 * Each config's attempt number is the one it has one after another (the tree's size before the expansion plus its
 * place in it), so a seeded run is the same whatever order the requests of a wave come back in.
 */

/** How the search issues an expansion's configs: one after another (the default), in waves, or all at once. */
export type ExpansionSchedule = 'sequential' | 'waves' | 'parallel';

/** Every schedule, as the CLI and the settings name them. */
export const EXPANSION_SCHEDULES: readonly ExpansionSchedule[] = ['sequential', 'waves', 'parallel'];

/** The configs of the first wave. */
export const FIRST_WAVE = 2;

/** The sizes of the waves for `k` configs: all ones one after another; in waves, FIRST_WAVE then the rest; all at once, one. */
export function waveSizes(k: number, schedule: ExpansionSchedule = 'sequential'): number[] {
  if (k <= 0) return [];
  if (schedule === 'sequential') return Array.from({ length: k }, () => 1);
  if (schedule === 'parallel') return [k];
  return k <= FIRST_WAVE ? [k] : [FIRST_WAVE, k - FIRST_WAVE];
}

/** Starts `size` steps at once (the one at `j` is config `first + j`) and returns them in config order. */
export function runWave<T>(first: number, size: number, step: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: size }, (_, j) => step(first + j)));
}
