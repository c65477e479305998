/**
 * Repeated calls: a trajectory that runs again a call it already ran, and sees the same observation (an agent whose
 * context no longer held the result queries it once more). It is a faithful record of a forgetful agent, but as
 * training data it teaches redoing work: where its task has a trajectory without a repeat, the export leaves it out
 * and reports it; where every trajectory of the task repeats a call, they stay (the task is not lost).
 */
import type { AgentStep } from '../agent/types';
import type { ExportTrajectory } from './types';

export interface RepeatReport {
  dropRepeats: boolean;
  /** Trajectories with at least one repeated call. */
  withRepeats: number;
  /** Those left out (their task has a trajectory without one), with the first repeated call. */
  dropped: Array<{ trajectoryId: string; taskId: string; step: number; tool: string }>;
}

/**
 * The index of the first step that repeats an earlier successful step: the same tool and the same observation,
 * header and rows included ("matching / 57 / (1 row)" twice). The call may be written differently the second time
 * (an alias dropped, a join reordered); what the agent learned from it is the same. Undefined observations, errors
 * and answers are never repeats.
 */
export function firstRepeat(steps: readonly AgentStep[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (!step.toolCall || !step.observation.ok || step.toolCall.name === 'final_answer') continue;
    const observed = step.observation.text.replace(/\s+/g, ' ').trim();
    if (observed === '') continue;
    const key = `${step.toolCall.name}\u0000${observed}`;
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

/** Leaves out the trajectories that repeat a call, where their task has one that does not (when `drop`). */
export function dropRepeats(trajectories: readonly ExportTrajectory[], drop: boolean): { kept: ExportTrajectory[]; report: RepeatReport } {
  const repeats = new Map(trajectories.map((t) => [t.trajectoryId, firstRepeat(t.steps)]));
  const clean = new Set(trajectories.filter((t) => repeats.get(t.trajectoryId) === -1).map((t) => t.task.id));
  const dropped: RepeatReport['dropped'] = [];
  const kept = trajectories.filter((t) => {
    const at = repeats.get(t.trajectoryId) ?? -1;
    if (at < 0 || !drop || !clean.has(t.task.id)) return true;
    dropped.push({ trajectoryId: t.trajectoryId, taskId: t.task.id, step: at, tool: t.steps[at].toolCall?.name ?? '' });
    return false;
  });
  return { kept, report: { dropRepeats: drop, withRepeats: [...repeats.values()].filter((at) => at >= 0).length, dropped } };
}
