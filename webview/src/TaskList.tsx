/**
 * The task switcher: every task of the run by its question, with where it stands (queued, exploring, stopped,
 * finished with its best quality). While "Follow the run" is on, the panel shows the task being explored; picking
 * a task (or a node or trajectory) turns it off, and the button turns it back on. Several tasks may be exploring
 * at once; each says so.
 */
import { VscodeButton } from '@vscode-elements/react-elements';
import { memo, type KeyboardEvent } from 'react';
import type { PoolProgressView } from '../../src/shared/protocol';
import type { RunView } from '../../src/shared/runView';
import { taskState, type TaskState } from './format';

const STATE_WORDS: Record<TaskState, string> = { queued: 'queued', exploring: 'exploring', stopped: 'stopped', finished: 'finished' };
const STATE_ICONS: Record<TaskState, string> = { queued: '○', exploring: '◐', stopped: '■', finished: '●' };

export interface TaskListProps {
  view: RunView;
  /** Changes whenever the view's tasks do (the view is updated in place). */
  revision: number;
  currentTaskId: string | undefined;
  exploredTaskId: string | undefined;
  following: boolean;
  live: boolean;
  onPick: (taskId: string) => void;
  onFollow: () => void;
}

export const TaskList = memo(function TaskList({ view, currentTaskId, exploredTaskId, following, live, onPick, onFollow }: TaskListProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const index = view.taskOrder.indexOf(currentTaskId ?? '');
    const next = view.taskOrder[Math.min(view.taskOrder.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (next) onPick(next);
  };
  const finished = view.taskOrder.filter((id) => view.tasks[id].finished).length;
  return (
    <nav className="task-list" aria-label="Tasks">
      <div className="task-list-head">
        <strong>Tasks</strong>
        <span className="muted small">{`${finished}/${view.taskOrder.length} finished`}</span>
      </div>
      <div className="follow">
        {following ? (
          <span className="muted small" data-testid="following">{live ? 'Following the run' : 'Showing the last task explored'}</span>
        ) : (
          <VscodeButton secondary data-action="follow" onClick={onFollow} aria-label="Follow the run: show the task being explored">
            Follow the run
          </VscodeButton>
        )}
      </div>
      <ol className="tasks" role="listbox" aria-label="Tasks of the run" tabIndex={0} onKeyDown={onKeyDown} data-testid="task-list">
        {view.taskOrder.map((id, index) => {
          const task = view.tasks[id];
          const state = taskState(task, live);
          const quality = task.bestQuality !== undefined ? ` · best ${task.bestQuality.toFixed(2)}` : '';
          return (
            <li
              key={id}
              role="option"
              aria-selected={id === currentTaskId}
              className={`task-row state-${state}${id === currentTaskId ? ' selected' : ''}${id === exploredTaskId && state === 'exploring' ? ' explored' : ''}`}
              data-task-id={id}
              title={`${task.question}\n${task.family} · ${id}`}
              onClick={() => onPick(id)}
            >
              <span className="task-index" aria-hidden="true">{STATE_ICONS[state]} {index + 1}</span>
              <span className="task-question">{task.question || id}</span>
              <span className="task-meta muted small">{`${STATE_WORDS[state]} · ${task.family} · ${task.nodeOrder.length} nodes${quality}`}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
});

/** The task pool's build, before the run has tasks: families run, candidates found and checked, how many passed. */
export function PoolProgress({ pool }: { pool: PoolProgressView }) {
  const done = pool.phase === 'selected';
  const validating = pool.phase === 'validating' || done;
  const title = pool.outcome === 'cancelled' ? 'Cancelled' : pool.outcome === 'failed' ? 'The task pool could not be built' : done ? 'Task pool ready' : 'Building the task pool';
  return (
    <section className={`pool-progress${pool.outcome ? ` outcome-${pool.outcome}` : ''}`} aria-label="Task pool" data-testid="pool-progress" data-phase={pool.phase}>
      <h3>{title}{pool.folder ? <span className="muted">{` · ${pool.folder}`}</span> : null}</h3>
      {pool.message ? <p role="status">{pool.message}</p> : null}
      {pool.phase === 'loading' ? <p className="muted">Loading the data environment…</p> : (
        <dl className="facts">
          <dt>task families</dt>
          <dd>
            <progress max={Math.max(1, pool.familiesTotal)} value={pool.familiesDone} aria-label="task families done" /> {`${pool.familiesDone} / ${pool.familiesTotal}`}
          </dd>
          <dt>candidates</dt>
          <dd data-testid="pool-candidates">{pool.candidates}</dd>
          <dt>checked</dt>
          <dd>
            {validating ? <progress max={Math.max(1, pool.candidates)} value={pool.checked} aria-label="candidates checked" /> : null} {validating ? `${pool.checked} / ${pool.candidates}` : 'after the families'}
          </dd>
          <dt>valid</dt>
          <dd data-testid="pool-valid">{`${pool.valid}${pool.rejected ? ` (${pool.rejected} rejected)` : ''}`}</dd>
          {done ? (
            <>
              <dt>selected</dt>
              <dd>{`${pool.selected ?? 0} tasks to explore`}</dd>
            </>
          ) : null}
        </dl>
      )}
    </section>
  );
}
