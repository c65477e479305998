/**
 * The explorer panel's React app: header (run, spend, task switcher, search, zoom), the live tree, the node
 * inspector, the trajectory list with player and diff, and the budget chart. The host owns the run; this holds
 * view state only (persisted with VS Code's setState so a hidden panel comes back where it was).
 */
import './zodConfig';
import { VscodeButton, VscodeCheckbox, VscodeOption, VscodeSingleSelect, VscodeTextfield } from '@vscode-elements/react-elements';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { nodeSearchText, pathToNode, taskProgress } from '../../src/shared/runView';
import { NODE_STATUSES, STATUS_COLOURS, themeKindOf } from '../../src/shared/statusColours';
import { BudgetChart } from './BudgetChart';
import { Inspector } from './Inspector';
import { TrajectoryPanel } from './TrajectoryPanel';
import { TreeCanvas, type TreeController } from './TreeCanvas';
import { createRunClient, type RunClient } from './runClient';
import './styles.css';

const COLLAPSE_THRESHOLD = 3;

function App({ client }: { client: RunClient }) {
  useSyncExternalStore(client.subscribe, client.getVersion);
  const view = client.view;
  const restored = useMemo(() => client.loadState(), [client]);
  const [chosenTaskId, setChosenTaskId] = useState<string | undefined>(restored.taskId);
  const [selectedNodeId, setSelectedNodeId] = useState<string | undefined>(restored.nodeId);
  const [trajectoryId, setTrajectoryId] = useState<string | undefined>(restored.trajectoryId);
  const [step, setStep] = useState(0);
  const [query, setQuery] = useState('');
  const [matchIndex, setMatchIndex] = useState(0);
  const [collapse, setCollapse] = useState(false);
  const [pendingCuration, setPendingCuration] = useState(new Map<string, string>());
  const controllerRef = useRef<TreeController | undefined>(undefined);

  const taskId = chosenTaskId && view.tasks[chosenTaskId] ? chosenTaskId : view.taskOrder[0];
  const task = taskId ? view.tasks[taskId] : undefined;
  // While the run is live: the tasks exploring now, each a button that shows its tree.
  const progress = client.info?.live ? taskProgress(view) : undefined;
  const trajectory = trajectoryId ? view.trajectories[trajectoryId] : undefined;

  const runDir = client.info?.runDir ?? restored.runDir;
  useEffect(() => client.saveState({ runDir, taskId, nodeId: selectedNodeId, trajectoryId }), [client, runDir, taskId, selectedNodeId, trajectoryId]);

  // Requests answered by the host leave the pending set.
  useEffect(() => {
    if (![...pendingCuration.keys()].some((requestId) => !client.isPending(requestId))) return;
    setPendingCuration((current) => new Map([...current].filter(([requestId]) => client.isPending(requestId))));
  });

  const matches = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!task || needle.length < 2) return [];
    return task.nodeOrder.filter((id) => nodeSearchText(task.nodes[id]).includes(needle));
  }, [task, query, client.version]);

  const pathNodeIds = trajectory && trajectory.taskId === taskId ? trajectory.nodePath.slice(0, step + 1) : selectedNodeId && task?.nodes[selectedNodeId] ? pathToNode(task, selectedNodeId) : [];
  const currentNodeId = trajectory && trajectory.taskId === taskId ? trajectory.nodePath[step] : undefined;
  const inspectedId = currentNodeId ?? selectedNodeId;

  const selectTrajectory = useCallback(
    (id: string) => {
      const t = client.view.trajectories[id];
      if (!t) return;
      setTrajectoryId(id);
      setChosenTaskId(t.taskId);
      setStep(0);
      setSelectedNodeId(t.nodePath[0]);
    },
    [client],
  );

  const curate = useCallback(
    (id: string, decision: 'accept' | 'prune') => {
      const requestId = client.request((rid) => ({ type: decision === 'accept' ? 'curation/accept' : 'curation/prune', requestId: rid, trajectoryId: id }));
      setPendingCuration((current) => new Map(current).set(requestId, id));
    },
    [client],
  );

  const pendingTrajectoryIds = useMemo(() => new Set(pendingCuration.values()), [pendingCuration]);
  const onStep = useCallback(
    (next: number) => {
      setStep(next);
      const path = trajectoryId ? client.view.trajectories[trajectoryId]?.nodePath : undefined;
      if (path) controllerRef.current?.centerOn(path[next]);
    },
    [client, trajectoryId],
  );

  const jumpToMatch = () => {
    if (!matches.length) return;
    const id = matches[matchIndex % matches.length];
    setMatchIndex(matchIndex + 1);
    setTrajectoryId(undefined);
    setSelectedNodeId(id);
    controllerRef.current?.centerOn(id);
  };

  useEffect(() => {
    performance.mark('toffee:app-committed');
  });

  const info = client.info;
  const outcome = client.lastOutcome;
  return (
    <div className="app">
      <header className="toolbar" role="toolbar" aria-label="Explorer controls">
        <strong className="run-title">{view.runId ?? info?.runId ?? 'No run'}</strong>
        <span className={`run-status run-${view.status}`}>{info?.live ? 'live' : view.status}</span>
        <span className="muted small" data-testid="run-counts">
          {view.nodeCount} nodes · {view.trajectoryOrder.length} trajectories · ${view.spend.totalUsd.toFixed(4)}
        </span>
        {/* The task's node count lives here, not in the task options: changing an option's text makes the select re-layout. */}
        {task ? <span className="muted small" data-testid="task-counts">{`this task: ${task.nodeOrder.length} nodes`}</span> : null}
        {progress ? (
          <span className="tasks-in-flight small" data-testid="tasks-in-flight" aria-label="Tasks in flight">
            <span className="muted">{`tasks ${progress.done.length} done · ${progress.inFlight.length} in flight · ${progress.queued.length} queued`}</span>
            {progress.inFlight.map((id) => (
              <button key={id} type="button" className={`task-chip${id === taskId ? ' task-chip-shown' : ''}`} title={view.tasks[id].question} aria-pressed={id === taskId} onClick={() => setChosenTaskId(id)}>
                {id}
              </button>
            ))}
          </span>
        ) : null}
        <label className="filter">
          <span>Task</span>
          <VscodeSingleSelect aria-label="Task" value={taskId ?? ''} onChange={(e: Event) => setChosenTaskId((e.target as HTMLElement & { value: string }).value)}>
            {view.taskOrder.map((id) => (
              <VscodeOption key={id} value={id}>
                {`${id} (${view.tasks[id].family})`}
              </VscodeOption>
            ))}
          </VscodeSingleSelect>
        </label>
        <VscodeTextfield
          aria-label="Search node text"
          placeholder="Search nodes"
          value={query}
          onInput={(e: Event) => {
            setQuery((e.target as HTMLElement & { value: string }).value);
            setMatchIndex(0);
          }}
          onKeyDown={(e: React.KeyboardEvent) => e.key === 'Enter' && jumpToMatch()}
        />
        <span className="muted small" aria-live="polite">{query.trim().length >= 2 ? `${matches.length} matches` : ''}</span>
        <VscodeCheckbox checked={collapse} onChange={() => setCollapse(!collapse)} label={`Collapse subtrees under ${COLLAPSE_THRESHOLD} visits`}>
          Collapse low-visit
        </VscodeCheckbox>
        <VscodeButton secondary onClick={() => controllerRef.current?.fit()} aria-label="Fit tree">Fit</VscodeButton>
        <VscodeButton secondary onClick={() => controllerRef.current?.zoomBy(1.25)} aria-label="Zoom in">+</VscodeButton>
        <VscodeButton secondary onClick={() => controllerRef.current?.zoomBy(0.8)} aria-label="Zoom out">−</VscodeButton>
      </header>
      {info && !info.canCurate ? (
        <div className="banner warning" role="status" data-testid="read-only-reason">{info.readOnlyReason ?? 'Curation is not available for this run.'}</div>
      ) : null}
      {client.notice ? <div className={`banner ${client.notice.level}`} role="alert">{client.notice.message}</div> : null}
      <div className="sr-status" aria-live="polite" data-testid="request-outcome">
        {outcome ? `${outcome.ok ? '' : 'Failed: '}${outcome.message ?? ''}` : ''}
      </div>
      {task ? <div className="question" title="Task question">{task.question}</div> : null}
      <main className="layout">
        <section className="tree-pane" aria-label="Search tree">
          <TreeCanvas
            client={client}
            taskId={taskId}
            selectedNodeId={selectedNodeId}
            pathNodeIds={pathNodeIds}
            currentNodeId={currentNodeId}
            matchNodeIds={matches}
            collapseBelowVisits={collapse ? COLLAPSE_THRESHOLD : undefined}
            onSelectNode={(id) => {
              setTrajectoryId(undefined);
              setSelectedNodeId(id);
            }}
            controllerRef={controllerRef}
          />
          <Legend />
        </section>
        <aside className="side-pane">
          <Inspector task={task} node={inspectedId && task ? task.nodes[inspectedId] : undefined} />
          <TrajectoryPanel
            view={view}
            revision={`${client.revisions.trajectories}:${client.revisions.tasks}`}
            currentTaskId={taskId}
            selectedId={trajectoryId}
            step={step}
            canCurate={info?.canCurate ?? false}
            pendingTrajectoryIds={pendingTrajectoryIds}
            onSelect={selectTrajectory}
            onStep={onStep}
            onCurate={curate}
          />
          <h3>Budget</h3>
          <BudgetChart view={view} taskId={taskId} revision={client.revisions.budget} />
          {view.errors.length ? <div className="muted small">{view.errors.length} run errors; last: {view.errors[view.errors.length - 1].message}</div> : null}
        </aside>
      </main>
    </div>
  );
}

function Legend() {
  return (
    <ul className="legend" aria-label="Node colours">
      {NODE_STATUSES.map((status) => (
        <li key={status}>
          <span className={`dot status-${status}`} aria-hidden="true" />
          {status}
        </li>
      ))}
    </ul>
  );
}

/** Publishes the status colours of the current theme kind as --toffee-status-* for the legend and chips. */
function applyStatusColours(): void {
  const colours = STATUS_COLOURS[themeKindOf([...document.body.classList])];
  for (const [status, colour] of Object.entries(colours)) document.body.style.setProperty(`--toffee-status-${status}`, colour);
}

const rootElement = document.getElementById('root');
if (rootElement) {
  applyStatusColours();
  new MutationObserver(applyStatusColours).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  const client = createRunClient();
  createRoot(rootElement).render(<App client={client} />);
  client.start();
}
