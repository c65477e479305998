/**
 * Writing one task's events into a run store exactly once, whoever produced them: the single-process loop (a
 * resumed task replays what it already wrote), `toffee merge` (shard folders) and the queue collector (job
 * results). Ids are keys in the store (task, node, trajectory), so only the events without an id need care:
 * spend already on the ledger for the task is not written twice, and a replayed task's decisions and
 * rejections are dropped.
 */
import type { RunEvent, RunEventInput } from '../store/events';
import type { RunStore } from '../store/RunStore';

/** A filter for a task's event batches that makes re-writing a task (fully or partly written before) idempotent. */
export function taskReplayFilter(store: RunStore, taskId: string): (events: readonly RunEventInput[]) => RunEventInput[] {
  const nodesBefore = store.state.nodes.get(taskId);
  let credit = store.state.spend.byTaskUsd.get(taskId) ?? 0;
  return (events) => {
    const replayed = nodesBefore !== undefined && events.every((e) => e.type !== 'node/added' || nodesBefore.has(e.nodeId));
    const batch: RunEventInput[] = [];
    for (const event of events) {
      if (event.type === 'budget/spent' && credit > 0) {
        const kept = event.costUsd - credit;
        credit = Math.max(0, credit - event.costUsd);
        if (kept > 1e-12) batch.push({ ...event, costUsd: kept });
        continue;
      }
      if ((event.type === 'lcm/decision' || event.type === 'trajectory/rejected') && replayed) continue;
      // Already in the log (the reducer would ignore them): not written twice.
      if (event.type === 'trajectory/admitted' && (store.state.trajectories.has(event.trajectoryId) || store.state.revokedTrajectories.has(event.trajectoryId))) continue;
      if (event.type === 'node/added' && nodesBefore?.has(event.nodeId)) continue;
      batch.push(event);
    }
    return batch;
  };
}

/** The task a stored event belongs to (its taskId, or its trajectory's task), or undefined for run-level events. */
export function taskIdOf(event: RunEvent | RunEventInput, trajectoryTask: ReadonlyMap<string, string>): string | undefined {
  if (event.type === 'task/added') return event.task.id;
  if ('taskId' in event && typeof event.taskId === 'string') return event.taskId;
  if ('trajectoryId' in event && typeof event.trajectoryId === 'string') return trajectoryTask.get(event.trajectoryId);
  return undefined;
}

export type AppendOutcome = 'appended' | 'duplicate';

/**
 * Appends a finished task's events (ending with its task/finished) in one durable batch, unless the store
 * already has the task finished (a duplicate: nothing written).
 */
export function appendFinishedTask(store: RunStore, taskId: string, events: readonly RunEventInput[]): AppendOutcome {
  if (store.state.finishedTasks.has(taskId)) return 'duplicate';
  const batch = taskReplayFilter(store, taskId)(events.filter((e) => e.type !== 'task/added'));
  if (batch.length > 0) store.appendMany(batch);
  return 'appended';
}
