/**
 * Trajectories from a run folder: the store's read-only rebuild, each admitted trajectory's steps read back from
 * its step records (explorer/stepRecord.ts); the exports only read the observations' text.
 */
import { finalAnswerOf, repairedErrorIndices } from '../agent/steps';
import { stepsOf } from '../explorer/stepRecord';
import { derivedFilesAhead } from '../store/resumeCheck';
import { RunStore } from '../store/RunStore';
import type { RunState } from '../store/runState';
import type { ExportRubricResult, ExportTrajectory } from './types';

export interface RunTrajectories {
  runId: string;
  dataFolder: string;
  trajectories: ExportTrajectory[];
  /** Plain-words problems: a trajectory whose task or steps could not be found, truncated observations, a damaged log. */
  warnings: string[];
  state: RunState;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Reads a run folder (never writes it) and returns its admitted trajectories with curation. */
export function trajectoriesFromRun(runDir: string): RunTrajectories {
  const store = RunStore.open(runDir);
  try {
    const state = store.state;
    // The messages name the file and line already.
    const warnings: string[] = store.recovery.issues.map((issue) => issue.message);
    // A log that lost events exports less than the run produced: say so (the derived files still hold it).
    for (const problem of derivedFilesAhead(runDir, state)) warnings.push(`events.jsonl has lost events: ${problem}`);
    const trajectories: ExportTrajectory[] = [];
    for (const t of state.trajectories.values()) {
      const task = state.tasks.get(t.taskId);
      if (!task) {
        warnings.push(`${t.trajectoryId}: its task ${t.taskId} is not in the log; skipped`);
        continue;
      }
      if (task.validation?.status === 'rejected') {
        // Rejected (or superseded) by the revision after exploration: its trajectories answer a faulty task.
        warnings.push(`${t.trajectoryId}: its task ${t.taskId} was ${task.revision?.reason ?? 'rejected'}; skipped`);
        continue;
      }
      const steps = stepsOf(t, state.nodes.get(t.taskId), warnings);
      if (!steps || steps.length === 0) {
        warnings.push(`${t.trajectoryId}: no steps could be read; skipped`);
        continue;
      }
      trajectories.push({
        trajectoryId: t.trajectoryId,
        runId: store.runId,
        task,
        steps,
        finalAnswer: finalAnswerOf(steps),
        quality: t.quality,
        verified: t.verified,
        hasRepair: t.hasRepair ?? repairedErrorIndices(steps).length > 0,
        repairedStepIndexes: repairedErrorIndices(steps),
        curation: t.curation,
        rubric: isRecord(t.rubric) ? (t.rubric as ExportRubricResult) : null,
        simulated: steps.every((s) => s.config.simulated),
      });
    }
    return { runId: store.runId, dataFolder: store.meta.dataFolder, trajectories, warnings, state };
  } finally {
    store.close();
  }
}
