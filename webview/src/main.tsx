/**
 * The explorer panel's React app: header (run, state, figures, Stop / Export, search, zoom), the task pool's build
 * until the run has tasks, the task list (following the run unless the user picked a task), the live tree with its
 * legends, the inspector with the step-through player, the trajectory list and the budget chart. The host owns the
 * run; this holds view state only (persisted with VS Code's setState so a hidden panel comes back where it was).
 */
import './zodConfig';
import { VscodeButton, VscodeCheckbox, VscodeTextfield } from '@vscode-elements/react-elements';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { folderName, runName } from '../../src/shared/runNames';
import { nodeSearchText, pathToNode, type RunView } from '../../src/shared/runView';
import { NODE_STATUSES, STATUS_COLOURS, themeKindOf } from '../../src/shared/statusColours';
import { BudgetChart } from './BudgetChart';
import { exploredTaskId, modelShape, modelsIn, trajectoryNumbers, type NodeShape } from './format';
import { Inspector } from './Inspector';
import { PoolProgress, TaskList } from './TaskList';
import { TrajectoryPanel } from './TrajectoryPanel';
import { shapePath, TreeCanvas, type TreeController } from './TreeCanvas';
import { createRunClient, type RunClient } from './runClient';
import './styles.css';

const COLLAPSE_THRESHOLD = 3;

/** What the header's state chip says: the run's own state, and "interrupted" for a run nobody writes any more. */
function runState(view: RunView, live: boolean, building: boolean): string {
  if (building) return 'building tasks';
  if (view.status === 'running') return live ? 'running' : 'interrupted';
  if (view.status === 'empty') return live ? 'starting' : 'empty';
  return view.status;
}

function runTitle(view: RunView, fallback: string | undefined): string {
  if (view.runId || view.dataFolder) return runName({ runId: view.runId, dataFolder: view.dataFolder });
  return fallback ? folderName(fallback) : 'Run';
}

function App({ client }: { client: RunClient }) {
  useSyncExternalStore(client.subscribe, client.getVersion);
  const view = client.view;
  const restored = useMemo(() => client.loadState(), [client]);
  const [chosenTaskId, setChosenTaskId] = useState<string | undefined>(restored.taskId);
  // Follow the task being explored until the user picks one (a restored panel keeps the user's pick).
  const [following, setFollowing] = useState(restored.taskId === undefined);
  const [selectedNodeId, setSelectedNodeId] = useState<string | undefined>(restored.nodeId);
  const [trajectoryId, setTrajectoryId] = useState<string | undefined>(restored.trajectoryId);
  const [step, setStep] = useState(0);
  const [query, setQuery] = useState('');
  const [matchIndex, setMatchIndex] = useState(0);
  const [collapse, setCollapse] = useState(false);
  const [pendingCuration, setPendingCuration] = useState(new Map<string, string>());
  /** An outcome ("Pruned.") from before a task switch is not shown with the next task. */
  const [hiddenOutcomeId, setHiddenOutcomeId] = useState<string | undefined>(undefined);
  const controllerRef = useRef<TreeController | undefined>(undefined);

  const info = client.info;
  const live = info?.live ?? false;
  const explored = exploredTaskId(view);
  const taskId = following ? explored : chosenTaskId && view.tasks[chosenTaskId] ? chosenTaskId : explored;
  const task = taskId ? view.tasks[taskId] : undefined;
  const trajectory = trajectoryId ? view.trajectories[trajectoryId] : undefined;
  const playing = trajectory && trajectory.taskId === taskId ? trajectory : undefined;

  // A different task (picked, or followed as the run moves on) starts from a clean inspector and player.
  const shownTask = useRef(taskId);
  useEffect(() => {
    if (shownTask.current === taskId) return;
    shownTask.current = taskId;
    setTrajectoryId((current) => (current && view.trajectories[current]?.taskId === taskId ? current : undefined));
    setStep(0);
    setSelectedNodeId(undefined);
    setQuery('');
    setHiddenOutcomeId(client.lastOutcome?.requestId);
  }, [taskId, view, client]);

  const runDir = info?.runDir ?? restored.runDir;
  useEffect(() => client.saveState({ runDir, taskId: following ? undefined : taskId, nodeId: selectedNodeId, trajectoryId }), [client, runDir, following, taskId, selectedNodeId, trajectoryId]);

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

  const pathNodeIds = playing ? playing.nodePath.slice(0, step + 1) : selectedNodeId && task?.nodes[selectedNodeId] ? pathToNode(task, selectedNodeId) : [];
  const currentNodeId = playing ? playing.nodePath[step] : undefined;
  // Following a task being explored, with nothing picked, the inspector shows the step the agent took last.
  const latestId = following && live && task && !task.finished ? task.nodeOrder[task.nodeOrder.length - 1] : undefined;
  const inspectedId = currentNodeId ?? selectedNodeId ?? latestId;

  const pickTask = useCallback((id: string) => {
    setFollowing(false);
    setChosenTaskId(id);
  }, []);

  const selectTrajectory = useCallback(
    (id: string) => {
      const t = client.view.trajectories[id];
      if (!t) return;
      setFollowing(false);
      setChosenTaskId(t.taskId);
      shownTask.current = t.taskId;
      setTrajectoryId(id);
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
    setFollowing(false);
    setChosenTaskId(taskId);
    setSelectedNodeId(id);
    controllerRef.current?.centerOn(id);
  };

  const numbers = useMemo(() => trajectoryNumbers(view), [view, client.revisions.trajectories]);

  useEffect(() => {
    performance.mark('toffee:app-committed');
  });

  const pool = client.pool;
  const building = view.taskOrder.length === 0 && pool !== undefined && pool.outcome === undefined;
  const outcome = client.lastOutcome && client.lastOutcome.requestId !== hiddenOutcomeId ? client.lastOutcome : undefined;
  const finishedTasks = view.taskOrder.filter((id) => view.tasks[id].finished).length;
  const state = runState(view, live, building);
  return (
    <div className="app">
      <header className="toolbar" role="toolbar" aria-label="Explorer controls">
        <strong className="run-title" title={`${view.runId ?? ''}\n${info?.runDir ?? ''}`}>{runTitle(view, pool?.folder ?? info?.runId)}</strong>
        <span className={`run-status run-${state.replace(' ', '-')}`} data-testid="run-state">{state}</span>
        <span className="muted small" data-testid="run-counts">
          {view.nodeCount} nodes · {view.trajectoryOrder.length} trajectories · ${view.spend.totalUsd.toFixed(4)}
        </span>
        {view.taskOrder.length ? <span className="muted small" data-testid="task-counts">{`${finishedTasks}/${view.taskOrder.length} tasks`}</span> : null}
        {info?.canStop ? (
          <VscodeButton secondary data-action="stop" onClick={() => client.request((rid) => ({ type: 'run/stop', requestId: rid }))} aria-label="Stop the synthesis (the run can be resumed)">
            Stop
          </VscodeButton>
        ) : null}
        {view.trajectoryOrder.length ? (
          <VscodeButton data-action="export" onClick={() => client.request((rid) => ({ type: 'run/export', requestId: rid }))} aria-label="Export the run's trajectories as SFT data">
            Export…
          </VscodeButton>
        ) : null}
        <span className="spacer" />
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
      {info && !info.canCurate && info.readOnlyReason && view.trajectoryOrder.length > 0 ? (
        <div className="banner warning" role="status" data-testid="read-only-reason">{info.readOnlyReason}</div>
      ) : null}
      {client.notice ? <div className={`banner ${client.notice.level}`} role="alert">{client.notice.message}</div> : null}
      <div className="sr-status" aria-live="polite" data-testid="request-outcome">
        {outcome ? `${outcome.ok ? '' : 'Failed: '}${outcome.message ?? ''}` : ''}
      </div>
      {pool && (view.taskOrder.length === 0 || pool.outcome) ? <PoolProgress pool={pool} /> : null}
      {task ? <div className="question" title="Task question" data-testid="task-question">{task.question}</div> : null}
      <main className="layout">
        {view.taskOrder.length ? (
          <TaskList
            view={view}
            revision={client.revisions.tasks}
            currentTaskId={taskId}
            exploredTaskId={explored}
            following={following}
            live={live}
            onPick={pickTask}
            onFollow={() => setFollowing(true)}
          />
        ) : null}
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
              setFollowing(false);
              setChosenTaskId(taskId);
              setSelectedNodeId(id);
            }}
            controllerRef={controllerRef}
          />
          <div className="legends">
            <Legend />
            <ModelLegend models={modelsIn(task)} />
          </div>
        </section>
        <aside className="side-pane">
          <Inspector
            task={task}
            node={inspectedId && task ? task.nodes[inspectedId] : undefined}
            latest={inspectedId !== undefined && inspectedId === latestId}
            player={playing ? { trajectory: playing, step, onStep, onClose: () => setTrajectoryId(undefined) } : undefined}
            trajectoryNames={(id) => `trajectory #${numbers.get(id) ?? '?'}`}
          />
          <TrajectoryPanel
            view={view}
            revision={`${client.revisions.trajectories}:${client.revisions.tasks}`}
            currentTaskId={taskId}
            selectedId={trajectoryId}
            canCurate={info?.canCurate ?? false}
            pendingTrajectoryIds={pendingTrajectoryIds}
            onSelect={selectTrajectory}
            onCurate={curate}
          />
          <h3>Best quality against spend</h3>
          <BudgetChart view={view} task={task} revision={client.revisions.budget} />
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

/** A legend swatch drawn with the tree's own shape code, in the foreground colour. */
function ShapeSwatch({ shape }: { shape: NodeShape }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = 14 * ratio;
    canvas.height = 14 * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, 14, 14);
    ctx.fillStyle = getComputedStyle(document.body).color || '#cccccc';
    ctx.beginPath();
    shapePath(ctx, shape, 7, 7, 5.5);
    ctx.fill();
  }, [shape]);
  return <canvas ref={ref} className="shape-swatch" style={{ width: 14, height: 14 }} aria-hidden="true" data-shape={shape} />;
}

function ModelLegend({ models }: { models: string[] }) {
  if (!models.length) return null;
  return (
    <ul className="legend model-legend" aria-label="Node shapes: one per model" data-testid="model-legend">
      {models.map((model) => (
        <li key={model} title={model}>
          <ShapeSwatch shape={modelShape(model)} />
          {model}
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
