/**
 * How a run is named to a person, in the Runs view, the pickers and the panel: its data folder and when it
 * started ("retail · Dec 1, 11:46"), never its id alone. Pure (no node, no DOM).
 */

/** The start time a run id encodes (`20261201T114633869Z-…`, core/store newRunId), if it has that shape. */
export function runIdTime(runId: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(runId);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, ms] = match.map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
}

function formatWhen(date: Date): string {
  return date.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** The last segment of a path, with / or \ separators. */
export function folderName(folder: string): string {
  return folder.split(/[\\/]/).filter(Boolean).pop() ?? folder;
}

/** "retail · Dec 1, 11:46": the data folder's name and the start time (the run id when neither is known). */
export function runName(run: { runId?: string; dataFolder?: string; createdAt?: string }): string {
  const created = run.createdAt ? new Date(run.createdAt) : run.runId ? runIdTime(run.runId) : undefined;
  const when = created && !Number.isNaN(created.getTime()) ? formatWhen(created) : undefined;
  const folder = run.dataFolder ? folderName(run.dataFolder) : undefined;
  if (!folder && !when) return run.runId ?? 'run';
  return [folder, when].filter(Boolean).join(' · ');
}
