import type { RunSummary } from '../../core/store';

export { runName } from '../../shared/runNames';

/** The state and figures of a run in one line: "cancelled · 2/8 tasks · 14 trajectories (3 accepted) · $0.0377". */
export function describeRun(run: RunSummary): string {
  const spent = run.spentUsd ? ` · $${run.spentUsd.toFixed(4)}` : '';
  const accepted = run.acceptedTrajectories ? ` (${run.acceptedTrajectories} accepted)` : '';
  const tasks = run.tasks ? ` · ${run.finishedTasks}/${run.tasks} tasks` : '';
  return `${run.status}${tasks} · ${run.admittedTrajectories} trajectories${accepted}${spent}`;
}
