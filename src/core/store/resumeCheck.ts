/**
 * Before a run is resumed, its log is held against everything else the run folder says about it: the log's own
 * sequence numbers, run.json's count of tasks, the derived files (tasks.jsonl, trajectories.jsonl) and the run's
 * cost model snapshots. Resuming rewrites the derived files from the log, so a log that lost events would replace
 * the last intact copy of the run's trajectories with a shorter one; such a log is refused, with what is missing
 * and how to recover, and nothing in the folder is touched. A torn last line is what a crash leaves (the append
 * had not returned): it is a warning, and the resume truncates it as usual.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanEventLogSync, type LogIssue } from './eventLog';
import { readRunMeta, RUN_FILES } from './runFolder';
import { rebuildState, type RunState } from './runState';
import { checkResumeProviders, type RunModelsConfig } from './runProviders';

/** The run's cost model as saved after each task (run/runCostModel.ts's RUN_COST_MODEL_FILE; named here to stay out of run/). */
const RUN_COST_MODEL = 'costModel.json';

export interface ResumeCheck {
  /** Why the run must not be resumed; empty when it may. */
  problems: string[];
  /** Torn tail and other issues a resume may go on with, as lines to print. */
  warnings: string[];
  /** The log's issues, as read. */
  issues: LogIssue[];
  reason: 'lost-events' | 'no-tasks';
}

export class ResumeRefusedError extends Error {
  constructor(
    readonly runDir: string,
    readonly problems: readonly string[],
    /** 'no-tasks': the run was stopped before its task pool was written; nothing was lost, there is nothing to resume. */
    readonly reason: 'lost-events' | 'no-tasks' = 'lost-events',
  ) {
    super(
      reason === 'no-tasks'
        ? `cannot resume ${runDir}: ${problems.join('; ')}. Nothing was changed.`
        : `cannot resume ${runDir}: its events.jsonl has lost events, and resuming would rewrite tasks.jsonl and ` +
            `trajectories.jsonl from what is left. Nothing was changed.\n` +
            problems.map((p) => `  - ${p}`).join('\n') +
            `\nTo recover: put back events.jsonl from a backup or a copy of the run folder, then resume. The derived files ` +
            `(tasks.jsonl, trajectories.jsonl) still hold what the run produced; copy them out before starting a new run ` +
            `(toffee synthesize <folder> --out <new folder>).`,
    );
    this.name = 'ResumeRefusedError';
  }
}

/** One line per log issue, for every command that reads a log (the messages already name the file and line). */
export function logIssueLines(issues: readonly LogIssue[]): string[] {
  return issues.map((issue) => `${issue.severity}: ${issue.message}`);
}

function jsonLines(file: string): unknown[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const rows: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      rows.push(JSON.parse(line));
    } catch {
      // A derived file is rewritten atomically; a bad line is someone's edit and proves nothing about the log.
    }
  }
  return rows;
}

function idsOf(rows: unknown[], key: string): string[] {
  return rows.map((row) => (row as Record<string, unknown> | null)?.[key]).filter((id): id is string => typeof id === 'string');
}

function listed(ids: readonly string[], limit = 5): string {
  const shown = ids.slice(0, limit).join(', ');
  return ids.length > limit ? `${shown} and ${ids.length - limit} more` : shown;
}

function snapshotUpdates(file: string): number | undefined {
  try {
    const updates = (JSON.parse(fs.readFileSync(file, 'utf8')) as { updates?: unknown }).updates;
    return typeof updates === 'number' ? updates : undefined;
  } catch {
    return undefined;
  }
}

/** What the derived files and the cost model snapshots hold that the log's state does not. */
export function derivedFilesAhead(runDir: string, state: RunState): string[] {
  const problems: string[] = [];
  const tasks = jsonLines(path.join(runDir, RUN_FILES.tasks));
  if (tasks) {
    const missing = idsOf(tasks, 'id').filter((id) => !state.tasks.has(id));
    if (missing.length > 0) problems.push(`tasks.jsonl holds ${missing.length} task(s) the log never added: ${listed(missing)}`);
  }
  const trajectories = jsonLines(path.join(runDir, RUN_FILES.trajectories));
  if (trajectories) {
    const missing = idsOf(trajectories, 'trajectoryId').filter((id) => !state.trajectories.has(id) && !state.revokedTrajectories.has(id));
    if (missing.length > 0) {
      problems.push(`trajectories.jsonl holds ${missing.length} admitted trajectorie(s) the log does not (${trajectories.length} there, ${state.trajectories.size} in the log): ${listed(missing)}`);
    }
    const curationLost = trajectories
      .map((row) => row as { trajectoryId?: unknown; curation?: unknown })
      .filter((row) => typeof row.trajectoryId === 'string' && (row.curation === 'accepted' || row.curation === 'pruned'))
      .filter((row) => state.trajectories.has(row.trajectoryId as string) && state.trajectories.get(row.trajectoryId as string)!.curation === undefined)
      .map((row) => row.trajectoryId as string);
    if (curationLost.length > 0) problems.push(`trajectories.jsonl records curation decisions the log does not: ${listed(curationLost)}`);
  }
  // A run saves its model after each task/finished (run/synthesize.ts): a crash between the two leaves the saved
  // model one task behind the log, never ahead of it. A merged run's model folds several shards' tasks, whose
  // counts are each shard's own, so it is not held to them.
  const finished = [...state.finishedTasks.values()].sort((a, b) => a.seq - b.seq);
  const last = finished[finished.length - 1] as { costModelUpdates?: unknown } | undefined;
  const config = state.started?.config as { costModelUpdates?: unknown; mergedFrom?: unknown } | undefined;
  const expected = last ? last.costModelUpdates : config?.costModelUpdates;
  const saved = snapshotUpdates(path.join(runDir, RUN_COST_MODEL));
  if (typeof expected === 'number' && config?.mergedFrom === undefined && saved !== undefined && saved > expected) {
    problems.push(`the run's cost model has learned from ${saved} updates, the log's last finished task only from ${expected}: task/finished events are missing`);
  }
  return problems;
}

/**
 * What the log says against itself: a task revised (which happens only after its task/finished) but not finished,
 * and a finished run (written only once every task is finished) with tasks unfinished — task/finished events lost.
 */
function inconsistentEvents(state: RunState): string[] {
  const problems: string[] = [];
  const revisedUnfinished = [...state.revisions.keys()].filter((id) => !state.finishedTasks.has(id));
  if (revisedUnfinished.length > 0) problems.push(`task(s) ${listed(revisedUnfinished)} were revised, which happens after a task finishes, but the log has no task/finished for them`);
  const unfinished = [...state.tasks.keys()].filter((id) => !state.finishedTasks.has(id));
  if (state.status === 'finished' && unfinished.length > 0) problems.push(`the log says the run finished, but has no task/finished for ${listed(unfinished)}`);
  return problems;
}

/** Reads the run folder (writes nothing) and says whether resuming it would lose anything. */
export function checkResumable(runDir: string): ResumeCheck {
  const meta = readRunMeta(runDir);
  const eventsPath = path.join(runDir, RUN_FILES.events);
  if (!fs.existsSync(eventsPath)) {
    return { problems: [`events.jsonl is missing (run.json says the run ${meta.runId} was created ${meta.createdAt})`], warnings: [], issues: [], reason: 'lost-events' };
  }
  const scan = scanEventLogSync(eventsPath);
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const issue of scan.issues) {
    if (issue.kind === 'torn-tail') warnings.push(`warning: ${issue.message}`);
    else if (issue.kind === 'corrupt-line') problems.push(`${issue.message}: that event is lost`);
    else if (issue.kind === 'seq-gap') problems.push(`${issue.message}: events in between are missing`);
    else problems.push(issue.message);
  }
  if (scan.events.length === 0) {
    problems.push(scan.fileBytes === 0 ? 'events.jsonl is empty' : 'events.jsonl holds no readable event');
  } else {
    const first = scan.events[0];
    if (first.seq !== 1 || first.type !== 'run/started') problems.push(`the log starts at event ${first.seq} (${first.type}), not at event 1 (run/started): its beginning is missing`);
  }
  const state = rebuildState(scan.events);
  problems.push(...derivedFilesAhead(runDir, state));
  problems.push(...inconsistentEvents(state));
  const configuredTasks = (meta.config as { tasks?: unknown } | undefined)?.tasks;
  // Tasks a revision added (`<id>-r1`) come on top of the pool run.json counts.
  const added = [...state.tasks.keys()].filter((id) => !/-r\d+$/.test(id)).length;
  let reason: ResumeCheck['reason'] = 'lost-events';
  if (scan.events.length > 0 && typeof configuredTasks === 'number' && added < configuredTasks) {
    if (state.tasks.size === 0 && problems.length === 0 && scan.events.length === 1) {
      reason = 'no-tasks';
      problems.push(
        `the run recorded no tasks: it was stopped before its task pool was written (run.json plans ${configuredTasks}); ` +
          'start it again with toffee synthesize <folder> --out <new folder>',
      );
    } else {
      problems.push(`run.json says ${configuredTasks} tasks were added when the run started; the log has ${added}`);
    }
  }
  return { problems, warnings, issues: scan.issues, reason };
}

/**
 * Throws ResumeRefusedError when resuming would lose data, and ResumeProviderError when `resume` would continue on
 * other models than the run's; returns the warnings to print otherwise.
 */
export function assertResumable(runDir: string, resume?: { providers: readonly { id: string }[]; models: readonly { provider: string; id: string }[] }): string[] {
  const check = checkResumable(runDir);
  if (check.problems.length > 0) throw new ResumeRefusedError(runDir, check.problems, check.reason);
  if (resume) checkResumeProviders(readRunMeta(runDir).config as RunModelsConfig | undefined, resume.providers, resume.models);
  return check.warnings;
}
