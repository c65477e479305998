/**
 * Repeated calls: a trajectory that runs again a call it already ran, and sees the same observation (an agent whose
 * context no longer held the result queries it once more). It is a faithful record of a forgetful agent, but as
 * training data it teaches redoing work: where its task has a trajectory without a repeat that is as good, the
 * export leaves it out and reports it; otherwise it stays (no task, and no better trajectory, is lost).
 */
import { parseRenderedTable } from '../agent/render';
import type { AgentStep } from '../agent/types';
import { stepSignature } from './nearCopies';
import type { ExportTrajectory } from './types';

export interface RepeatReport {
  dropRepeats: boolean;
  /** Trajectories with at least one repeated call. */
  withRepeats: number;
  /** Those left out (their task has a trajectory without one), with the first repeated call. */
  dropped: Array<{ trajectoryId: string; taskId: string; step: number; tool: string }>;
}

/** A call's identity: SQL re-printed from its parse (aliases resolved), other arguments as canonical JSON. */
function callOf(step: AgentStep): string {
  return stepSignature({ ...step, observation: { ...step.observation, text: '' } });
}

/** An observation that says little on its own (no rows, one zero, one empty cell): two different checks may both see it. */
function trivial(text: string): boolean {
  const table = parseRenderedTable(text);
  if (!table) return false;
  return table.rows.length === 0 || (table.rows.length === 1 && table.rows[0].every((cell) => /^(0(\.0+)?|null|)$/i.test(cell.trim())));
}

/**
 * The index of the first step that repeats an earlier successful step, or -1: the same call (as the near-copy check
 * reads calls) seeing the same observation, or a query written differently (an alias dropped) seeing the same rows
 * under the same header — unless those rows say little on their own (no rows, a single 0), which unrelated checks
 * share. Errors and answers are never repeats.
 */
export function firstRepeat(steps: readonly AgentStep[]): number {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (!step.toolCall || !step.observation.ok || step.toolCall.name === 'final_answer') continue;
    const observed = step.observation.text.replace(/\s+/g, ' ').trim();
    const call = `${callOf(step)}\u0000${observed}`;
    const result = `${step.toolCall.name}\u0000${observed}`;
    const sameResult = step.toolCall.name === 'run_sql' && !trivial(step.observation.text) && results.has(result);
    if (calls.has(call) || sameResult) return i;
    calls.add(call);
    results.add(result);
  }
  return -1;
}

/**
 * Leaves out the trajectories that repeat a call (when `drop`), each only where its task has one without a repeat that
 * is as good: as verified, of at least its quality. A curator's accepted trajectory is always kept.
 */
export function dropRepeats(trajectories: readonly ExportTrajectory[], drop: boolean): { kept: ExportTrajectory[]; report: RepeatReport } {
  const repeats = new Map(trajectories.map((t) => [t.trajectoryId, firstRepeat(t.steps)]));
  const clean = trajectories.filter((t) => repeats.get(t.trajectoryId) === -1);
  const asGoodWithout = (t: ExportTrajectory) => clean.some((c) => c.task.id === t.task.id && c.quality >= t.quality && (c.verified || !t.verified));
  const dropped: RepeatReport['dropped'] = [];
  const kept = trajectories.filter((t) => {
    const at = repeats.get(t.trajectoryId) ?? -1;
    if (at < 0 || !drop || t.curation === 'accepted' || !asGoodWithout(t)) return true;
    dropped.push({ trajectoryId: t.trajectoryId, taskId: t.task.id, step: at, tool: t.steps[at].toolCall?.name ?? '' });
    return false;
  });
  return { kept, report: { dropRepeats: drop, withRepeats: [...repeats.values()].filter((at) => at >= 0).length, dropped } };
}
