/**
 * The derived files of a run folder, rendered from a RunState alone, so they can always be regenerated from
 * the events and compared byte for byte:
 * - tasks.jsonl: the task pool, one TaskSpec per line, in the order tasks were added;
 * - trajectories.jsonl: admitted trajectories in admission order, each with its curation decision
 *   (`curation`: 'accepted' | 'pruned' | absent = not yet reviewed). Export reads this file.
 */
import type { RunState } from './runState';

export interface RenderedSnapshots {
  tasks: string;
  trajectories: string;
}

export function renderSnapshots(state: RunState): RenderedSnapshots {
  let tasks = '';
  for (const task of state.tasks.values()) tasks += JSON.stringify(task) + '\n';
  let trajectories = '';
  for (const trajectory of state.trajectories.values()) trajectories += JSON.stringify(trajectory) + '\n';
  return { tasks, trajectories };
}
