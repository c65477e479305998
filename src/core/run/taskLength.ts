/**
 * How long a task's exploration is expected to take, before it runs: the tasks in flight start the longest first
 * (inFlight.ts). Read only from the task as built, never from an earlier run's outcome: the steps of its program
 * (the reference solution's executed queries). Each further step is a query and the discovery before it, so the
 * search's path to an answer — and its depth limit (explorer/search.ts, DEPTH_PER_STEP) — grows with them, and so
 * do the sequential requests the task waits on. Every task of a run has the same budget, so the budget does not
 * tell them apart. An estimate only: it decides which task starts in a free slot, never what a task does.
 */
import { DEPTH_PER_STEP } from '../explorer/search';
import type { TaskSpec } from '../taskpool/types';

/** The expected length of `task`'s exploration in steps of its path (larger: longer); ≥ 1. */
export function explorationLengthEstimate(task: TaskSpec): number {
  const steps = Math.max(1, task.program?.steps ?? task.evidence.length);
  return 1 + DEPTH_PER_STEP * (steps - 1);
}
