/**
 * Admitted trajectories: filters (task, family, repair, model, curation), accept / prune, and a side-by-side diff
 * of two trajectories of one task; selecting one plays it in the inspector's player. Keyboard: arrow keys move
 * through the list, A accepts, P prunes.
 */
import { VscodeButton, VscodeOption, VscodeSingleSelect } from '@vscode-elements/react-elements';
import { memo, useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import { diffTrajectories, filterTrajectories, type RunView, type TrajectoryFilter, type TrajectoryView } from '../../src/shared/runView';
import { stepLabel, trajectoryNumbers } from './format';

export interface TrajectoryPanelProps {
  view: RunView;
  /** Changes whenever the view's trajectories or tasks do (the view is updated in place). */
  revision: string;
  currentTaskId: string | undefined;
  selectedId: string | undefined;
  canCurate: boolean;
  pendingTrajectoryIds: Set<string>;
  onSelect: (trajectoryId: string) => void;
  onCurate: (trajectoryId: string, decision: 'accept' | 'prune') => void;
}

const MAX_ROWS = 100;

function selectValue(event: Event): string {
  return (event.target as HTMLElement & { value?: string }).value ?? '';
}

function Select({ label, value, options, onChange }: { label: string; value: string; options: Array<[string, string]>; onChange: (value: string) => void }) {
  return (
    <label className="filter">
      <span>{label}</span>
      <VscodeSingleSelect aria-label={label} value={value} onChange={(event: Event) => onChange(selectValue(event))}>
        {options.map(([optionValue, text]) => (
          <VscodeOption key={optionValue} value={optionValue}>
            {text}
          </VscodeOption>
        ))}
      </VscodeSingleSelect>
    </label>
  );
}

function stepSummary(view: RunView, trajectory: TrajectoryView | undefined, nodeId: string | undefined): string {
  if (!trajectory || !nodeId) return '';
  const node = view.tasks[trajectory.taskId]?.nodes[nodeId];
  if (!node) return nodeId;
  return `${stepLabel(node)}${node.status === 'error' ? ' (error)' : ''}`;
}

interface TrajectoryRowProps {
  trajectory: TrajectoryView;
  /** "#3" within its task, and the task's question when the list spans tasks. */
  name: string;
  question: string | undefined;
  /** Passed apart from the trajectory, which is updated in place, so a curation change re-renders the row. */
  curation: TrajectoryView['curation'];
  selected: boolean;
  compared: boolean;
  canCurate: boolean;
  pending: boolean;
  onSelect: (trajectoryId: string) => void;
  onCurate: (trajectoryId: string, decision: 'accept' | 'prune') => void;
  onToggleCompare: (trajectoryId: string) => void;
}

/** One row; memoised so a patch that admits a few trajectories re-renders only the rows that changed. */
const TrajectoryRow = memo(function TrajectoryRow({ trajectory: t, name, question, curation, selected, compared, canCurate, pending, onSelect, onCurate, onToggleCompare }: TrajectoryRowProps) {
  return (
    <li
      role="option"
      aria-selected={selected}
      className={`trajectory-row${selected ? ' selected' : ''}${curation ? ` curated-${curation}` : ''}`}
      data-trajectory-id={t.id}
      title={t.id}
      onClick={() => onSelect(t.id)}
    >
      <span className="quality" title="quality">{t.quality.toFixed(2)}</span>
      <span className="trajectory-id">{question ? `${name} · ${question}` : `Trajectory ${name}`}</span>
      <span className="trajectory-meta muted small">{t.nodePath.length - 1} steps · {t.models.join(', ') || 'model ?'}{t.hasRepair ? ' · repair' : ''}{t.answer ? ` · answer ${t.answer.length > 30 ? `${t.answer.slice(0, 29)}…` : t.answer}` : ''}</span>
      <span className={`curation-state${curation ? ` status-chip status-${curation}` : ''}`}>{curation ?? (t.verified ? 'verified' : 'unverified')}</span>
      <span className="row-actions">
        <input type="checkbox" aria-label={`Compare trajectory ${name}`} checked={compared} onChange={() => onToggleCompare(t.id)} onClick={(e) => e.stopPropagation()} />
        <VscodeButton
          data-action="accept"
          disabled={!canCurate || pending || curation === 'accepted'}
          onClick={(e: React.MouseEvent) => {
            e.stopPropagation();
            onCurate(t.id, 'accept');
          }}
        >
          Accept
        </VscodeButton>
        <VscodeButton
          secondary
          data-action="prune"
          disabled={!canCurate || pending || curation === 'pruned'}
          onClick={(e: React.MouseEvent) => {
            e.stopPropagation();
            onCurate(t.id, 'prune');
          }}
        >
          Prune
        </VscodeButton>
      </span>
    </li>
  );
});

export const TrajectoryPanel = memo(function TrajectoryPanel(props: TrajectoryPanelProps) {
  const { view } = props;
  const [scope, setScope] = useState<'task' | 'all'>('task');
  const [family, setFamily] = useState('');
  const [repair, setRepair] = useState('');
  const [model, setModel] = useState('');
  const [curation, setCuration] = useState('');
  const [compare, setCompare] = useState<string[]>([]);

  const families = useMemo(() => [...new Set(view.taskOrder.map((id) => view.tasks[id].family))].filter(Boolean), [view.taskOrder.length, view]);
  const models = useMemo(() => [...new Set(view.trajectoryOrder.flatMap((id) => view.trajectories[id].models))], [view.trajectoryOrder.length, view]);

  const filter: TrajectoryFilter = {
    taskId: scope === 'task' ? props.currentTaskId : undefined,
    family: family || undefined,
    hasRepair: repair === '' ? undefined : repair === 'yes',
    model: model || undefined,
    curation: curation === '' ? undefined : (curation as TrajectoryFilter['curation']),
  };
  const rows = filterTrajectories(view, filter);
  const selected = props.selectedId ? view.trajectories[props.selectedId] : undefined;
  const numbers = useMemo(() => trajectoryNumbers(view), [view, props.revision]);
  const nameOf = (id: string) => `#${numbers.get(id) ?? '?'}`;

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = rows.findIndex((t) => t.id === props.selectedId);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = rows[Math.min(rows.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))];
      if (next) props.onSelect(next.id);
    } else if (selected && props.canCurate && (event.key === 'a' || event.key === 'p')) {
      props.onCurate(selected.id, event.key === 'a' ? 'accept' : 'prune');
    }
  };

  const toggleCompare = useCallback(
    (id: string) => setCompare((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current.slice(-1), id])),
    [],
  );
  const diff = compare.length === 2 ? diffTrajectories(view, compare[0], compare[1]) : [];

  return (
    <section className="trajectories" aria-label="Trajectories">
      <div className="filters">
        <Select label="Scope" value={scope} options={[['task', 'This task'], ['all', 'All tasks']]} onChange={(v) => setScope(v === 'all' ? 'all' : 'task')} />
        <Select label="Family" value={family} options={[['', 'Any family'], ...families.map((f): [string, string] => [f, f])]} onChange={setFamily} />
        <Select label="Repair" value={repair} options={[['', 'Any'], ['yes', 'Has a repair'], ['no', 'No repair']]} onChange={setRepair} />
        <Select label="Model" value={model} options={[['', 'Any model'], ...models.map((m): [string, string] => [m, m])]} onChange={setModel} />
        <Select
          label="Curation"
          value={curation}
          options={[['', 'Any'], ['uncurated', 'Not curated'], ['accepted', 'Accepted'], ['pruned', 'Pruned']]}
          onChange={setCuration}
        />
      </div>
      <div className="muted small" aria-live="polite">
        {rows.length} of {view.trajectoryOrder.length} trajectories
      </div>
      <ul className="trajectory-list" role="listbox" aria-label="Trajectories, best quality first" tabIndex={0} onKeyDown={onKeyDown} data-testid="trajectory-list">
        {rows.slice(0, MAX_ROWS).map((t) => (
          <TrajectoryRow
            key={t.id}
            trajectory={t}
            name={nameOf(t.id)}
            question={scope === 'all' ? view.tasks[t.taskId]?.question : undefined}
            curation={t.curation}
            selected={t.id === props.selectedId}
            compared={compare.includes(t.id)}
            canCurate={props.canCurate}
            pending={props.pendingTrajectoryIds.has(t.id)}
            onSelect={props.onSelect}
            onCurate={props.onCurate}
            onToggleCompare={toggleCompare}
          />
        ))}
      </ul>
      {rows.length > MAX_ROWS ? <div className="muted small">Showing the best {MAX_ROWS}; narrow the filters to see more.</div> : null}
      {diff.length ? (
        <div className="diff" aria-label="Side-by-side comparison of two trajectories">
          <table>
            <thead>
              <tr>
                <th scope="col">step</th>
                <th scope="col">{`trajectory ${nameOf(compare[0])}`}</th>
                <th scope="col">{`trajectory ${nameOf(compare[1])}`}</th>
              </tr>
            </thead>
            <tbody>
              {diff.map((row) => (
                <tr key={row.step} className={row.shared ? 'diff-shared' : 'diff-divergent'}>
                  <td>{row.shared ? `${row.step + 1} (shared)` : row.step + 1}</td>
                  <td>{stepSummary(view, view.trajectories[compare[0]], row.left)}</td>
                  <td>{stepSummary(view, view.trajectories[compare[1]], row.right)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : compare.length === 1 ? (
        <div className="muted small">Tick one more trajectory to compare.</div>
      ) : null}
    </section>
  );
});
