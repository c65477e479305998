/**
 * The explorer panel's view model and the one reducer from run events to it. Host and webview both run it: the
 * host to answer curation requests against what the user sees, the webview to draw the tree. Pure TypeScript (no
 * node, no DOM, no vscode). The model is plain JSON-shaped data mutated in place for speed (a 5,000-node tree gets
 * 50-node patches); `applyRunEvents` returns a `ViewDelta` naming what changed so a renderer can patch instead of
 * redrawing.
 *
 * Events are read as the vocabulary types them (core/store/vocabulary.ts): the store validated every payload when
 * it was written and again when it was read, and the protocol checks each event's envelope. A field of the wrong
 * type is still dropped, never thrown on, so a damaged message cannot break the panel.
 */
import { parseRenderedTable } from '../core/agent/render';
import {
  EVENT_FORMAT_VERSION,
  NODE_STATUSES,
  isRunEventType,
  type AnyEvent,
  type DecisionCandidate,
  type EventOf,
  type NodeStatus,
  type StepConfigRecord,
  type TokenCounts,
  type ToolCallRecord,
} from '../core/store/vocabulary';

/** What crosses the wire: a stored event's envelope (checked by the protocol schema) and its payload. */
export interface WireEvent {
  v: number;
  seq: number;
  ts: string;
  type: string;
  [field: string]: unknown;
}

export type CurationDecision = 'accepted' | 'pruned';

export type CodeLanguage = 'sql' | 'python' | 'json' | 'text';

export interface ToolCallView {
  name: string;
  language: CodeLanguage;
  /** The SQL query, the Python code, or the arguments as JSON text. */
  code: string;
}

export type ObservationView =
  | { kind: 'table'; columns: string[]; rows: string[][]; truncated: boolean; isError: false }
  | { kind: 'text'; text: string; isError: boolean };

export interface DecisionView {
  seq: number;
  k: number;
  /** The arms chosen (and run), with their μ and σ. */
  arms: string[];
  mu: number[];
  sigma: number[];
  /** The arms the cost model ranked (the best few), chosen or not; from the event's `candidates`. */
  candidates: DecisionCandidateView[];
  /** Why K is what it is, in words. */
  kReason?: string;
}

export interface DecisionCandidateView {
  armId: string;
  mu: number;
  sigma: number;
  costUsd?: number;
  score?: number;
  /** Why it could not be chosen (unaffordable, …), when it could not. */
  excluded?: string;
}

export interface TokenView {
  prompt?: number;
  completion?: number;
  total?: number;
}

export interface NodeView {
  id: string;
  taskId: string;
  parentId: string | null;
  children: string[];
  status: NodeStatus;
  depth: number;
  thought?: string;
  toolCall?: ToolCallView;
  observation?: ObservationView;
  /** Model that produced the edge into this node (from the node's config). */
  model?: string;
  /** The full configuration (model, context, effort, operator) as one line. */
  configLabel?: string;
  /** The cost-model arm that produced the edge (its config's `armId`), when the explorer recorded one. */
  armId?: string;
  /** The config says the model is simulated. */
  simulated?: boolean;
  costUsd?: number;
  tokens?: TokenView;
  latencyMs?: number;
  visits: number;
  value?: number;
  reward?: number;
  /** The cost model's decision when this node was expanded. */
  decision?: DecisionView;
  /** Admitted trajectories whose path runs through this node. */
  trajectoryIds: string[];
  curation?: CurationDecision;
  addedSeq: number;
  updatedSeq: number;
}

export interface TaskView {
  id: string;
  family: string;
  question: string;
  /** Node ids in arrival order. */
  nodeOrder: string[];
  nodes: Record<string, NodeView>;
  rootIds: string[];
  finished?: { reason: string; bestQuality?: number };
  spentUsd: number;
  bestQuality?: number;
}

export interface TrajectoryView {
  id: string;
  taskId: string;
  family: string;
  nodePath: string[];
  quality: number;
  verified: boolean;
  hasRepair: boolean;
  models: string[];
  answer?: string;
  tags: string[];
  curation?: CurationDecision;
  curationNote?: string;
  admittedSeq: number;
}

export interface BudgetPoint {
  seq: number;
  ts: string;
  taskId?: string;
  /** Run total after this spend. */
  totalUsd: number;
  /** The task's spend after this event (when the spend names a task). */
  taskUsd?: number;
  /** The task's best admitted quality at that moment. */
  bestQuality?: number;
}

export interface RunView {
  runId?: string;
  dataFolder?: string;
  /** 'cancelled': its user stopped it (resumable); a resume makes it 'running' again. */
  status: 'empty' | 'running' | 'finished' | 'cancelled';
  /** The budget per task the run was started with (run/started's config), USD. */
  budgetPerTaskUsd?: number;
  lastSeq: number;
  tasks: Record<string, TaskView>;
  taskOrder: string[];
  trajectories: Record<string, TrajectoryView>;
  trajectoryOrder: string[];
  spend: { totalUsd: number; promptTokens: number; completionTokens: number; calls: number };
  budget: BudgetPoint[];
  errors: Array<{ seq: number; message: string; taskId?: string; fatal: boolean }>;
  rejections: number;
  nodeCount: number;
  unknownEvents: number;
  duplicatesIgnored: number;
  /** Events naming a task or node that does not exist (e.g. a node before its task): counted, skipped. */
  danglingReferences: number;
}

export interface NodeRef {
  taskId: string;
  nodeId: string;
}

/** What one `applyRunEvents` call changed. */
export interface ViewDelta {
  addedNodes: NodeRef[];
  updatedNodes: NodeRef[];
  /** Tasks added or whose metadata (finish, spend, best quality) changed. */
  tasksChanged: boolean;
  trajectoriesChanged: boolean;
  budgetChanged: boolean;
  runChanged: boolean;
}

export function createRunView(): RunView {
  return {
    status: 'empty',
    lastSeq: 0,
    tasks: {},
    taskOrder: [],
    trajectories: {},
    trajectoryOrder: [],
    spend: { totalUsd: 0, promptTokens: 0, completionTokens: 0, calls: 0 },
    budget: [],
    errors: [],
    rejections: 0,
    nodeCount: 0,
    unknownEvents: 0,
    duplicatesIgnored: 0,
    danglingReferences: 0,
  };
}

export function emptyDelta(): ViewDelta {
  return { addedNodes: [], updatedNodes: [], tasksChanged: false, trajectoriesChanged: false, budgetChanged: false, runChanged: false };
}

// ---- defensive field readers ----

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function numbers(value: unknown): number[] {
  if (typeof value === 'number' && Number.isFinite(value)) return [value];
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)) : [];
}

/** Any value as display text; objects as compact JSON. Never HTML: the webview renders it as a text node. */
export function displayText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A step's configuration as its model and one line (provider · model · effort · operator · arm …). */
export function describeConfig(config: (StepConfigRecord & { operator?: string; armId?: string }) | undefined): { model?: string; label?: string } {
  const fields = record(config);
  if (!fields) return {};
  const model = str(fields.model);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || typeof value === 'object') continue;
    parts.push(key === 'model' ? String(value) : `${key}=${String(value)}`);
  }
  return { model, label: parts.join(' · ') || undefined };
}

/** A ranked arm as the decision recorded it; one without its id, μ or σ is dropped. */
function candidateView(candidate: DecisionCandidate): DecisionCandidateView | undefined {
  const armId = str(candidate?.armId);
  const mu = num(candidate?.mu);
  const sigma = num(candidate?.sigma);
  if (!armId || mu === undefined || sigma === undefined) return undefined;
  return { armId, mu, sigma, costUsd: num(candidate.cost), score: num(candidate.score), excluded: str(candidate.excluded) };
}

/** A node's tool call: its arguments are the model's JSON text; SQL and Python bodies are pulled out for highlighting. */
export function describeToolCall(toolCall: ToolCallRecord | null | undefined): ToolCallView | undefined {
  const fields = record(toolCall);
  const name = str(fields?.name);
  if (!fields || !name) return undefined;
  const text = str(fields.arguments) ?? '';
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    // malformed arguments (a model mistake the explorer repairs): show them as written
    return { name, language: 'text', code: text };
  }
  const argFields = record(args);
  if (name === 'run_sql' && typeof argFields?.query === 'string') return { name, language: 'sql', code: argFields.query };
  if (name === 'run_python' && typeof argFields?.code === 'string') return { name, language: 'python', code: argFields.code };
  return { name, language: 'json', code: JSON.stringify(args, null, 2) };
}

const MAX_OBSERVATION_ROWS = 200;

/**
 * An observation as the model read it: a result table the agent's renderer wrote (parsed back with the renderer's
 * own parser) becomes a table; anything else, and every error, stays text.
 */
export function describeObservation(text: string | undefined, isError: boolean): ObservationView | undefined {
  if (text === undefined) return undefined;
  const table = isError ? undefined : parseRenderedTable(text);
  if (!table) return { kind: 'text', text, isError };
  return {
    kind: 'table',
    columns: table.columns,
    rows: table.rows.slice(0, MAX_OBSERVATION_ROWS),
    truncated: /truncated\)$/m.test(text) || table.rows.length > MAX_OBSERVATION_ROWS,
    isError: false,
  };
}

function tokenView(value: TokenCounts | undefined): TokenView | undefined {
  const fields = record(value);
  if (!fields) return undefined;
  const tokens: TokenView = { prompt: num(fields.prompt), completion: num(fields.completion), total: num(fields.total) };
  return tokens.prompt === undefined && tokens.completion === undefined && tokens.total === undefined ? undefined : tokens;
}

/** A node's colour: a curated trajectory's decision wins over the search status; accepted wins over pruned. */
export function displayStatus(node: NodeView): NodeStatus {
  return node.curation ?? node.status;
}

function recomputeCuration(view: RunView, node: NodeView): void {
  let decision: CurationDecision | undefined;
  for (const trajectoryId of node.trajectoryIds) {
    const curation = view.trajectories[trajectoryId]?.curation;
    if (curation === 'accepted') {
      decision = 'accepted';
      break;
    }
    if (curation === 'pruned') decision = 'pruned';
  }
  node.curation = decision;
}

// ---- the reducer ----

/** Applies events in order (events at or below `view.lastSeq` are skipped, so a replay is harmless). */
export function applyRunEvents(view: RunView, events: readonly WireEvent[], delta: ViewDelta = emptyDelta()): ViewDelta {
  for (const event of events) applyRunEvent(view, event, delta);
  return delta;
}

export function applyRunEvent(view: RunView, wire: WireEvent, delta: ViewDelta = emptyDelta()): ViewDelta {
  if (wire.seq <= view.lastSeq) return delta;
  view.lastSeq = wire.seq;
  if (wire.v !== EVENT_FORMAT_VERSION || !isRunEventType(wire.type)) {
    view.unknownEvents++;
    return delta;
  }
  const event = wire as unknown as AnyEvent;
  switch (event.type) {
    case 'run/started':
      view.runId = str(event.runId);
      view.dataFolder = str(event.dataFolder);
      view.budgetPerTaskUsd = num(event.config?.budgetUsd);
      view.status = 'running';
      delta.runChanged = true;
      break;
    case 'run/resumed':
      view.status = 'running';
      delta.runChanged = true;
      break;
    case 'run/finished':
      view.status = 'finished';
      delta.runChanged = true;
      break;
    case 'run/cancelled':
      view.status = 'cancelled';
      delta.runChanged = true;
      break;
    case 'run/error': {
      view.errors.push({ seq: event.seq, message: str(event.message) ?? '(no message)', taskId: str(event.taskId), fatal: event.fatal === true });
      delta.runChanged = true;
      break;
    }
    case 'task/added': {
      const task = record(event.task);
      const id = str(task?.id);
      if (!task || !id) {
        view.danglingReferences++;
        break;
      }
      if (view.tasks[id]) {
        view.duplicatesIgnored++;
        break;
      }
      view.tasks[id] = { id, family: str(task.family) ?? '', question: str(task.question) ?? '', nodeOrder: [], nodes: {}, rootIds: [], spentUsd: 0 };
      view.taskOrder.push(id);
      delta.tasksChanged = true;
      break;
    }
    case 'node/added':
      addNode(view, event, delta);
      break;
    case 'node/updated': {
      const node = findNode(view, event);
      if (!node) break;
      const status = nodeStatus(event.status);
      if (status) node.status = status;
      const visits = num(event.visits);
      if (visits !== undefined) node.visits = visits;
      const value = num(event.value);
      if (value !== undefined) node.value = value;
      const reward = num(event.reward);
      if (reward !== undefined) node.reward = reward;
      node.updatedSeq = event.seq;
      delta.updatedNodes.push({ taskId: node.taskId, nodeId: node.id });
      break;
    }
    case 'lcm/decision': {
      const nodeId = str(event.nodeId);
      const task = view.tasks[str(event.taskId) ?? ''];
      const node = nodeId && task ? task.nodes[nodeId] : undefined;
      if (!node) {
        if (!task) view.danglingReferences++;
        break; // a decision at the task level (no node) has nowhere to show in the tree
      }
      node.decision = {
        seq: event.seq,
        k: num(event.k) ?? 0,
        arms: Array.isArray(event.arms) ? event.arms.filter((arm): arm is string => typeof arm === 'string') : [],
        mu: numbers(event.mu),
        sigma: numbers(event.sigma),
        candidates: Array.isArray(event.candidates) ? event.candidates.map(candidateView).filter((c): c is DecisionCandidateView => c !== undefined) : [],
        kReason: str(event.kReason),
      };
      delta.updatedNodes.push({ taskId: node.taskId, nodeId: node.id });
      break;
    }
    case 'trajectory/admitted':
      admitTrajectory(view, event, delta);
      break;
    case 'trajectory/rejected':
      view.rejections++;
      delta.runChanged = true;
      break;
    case 'curation/accepted':
    case 'curation/pruned': {
      const trajectory = view.trajectories[str(event.trajectoryId) ?? ''];
      if (!trajectory) {
        view.danglingReferences++;
        break;
      }
      trajectory.curation = event.type === 'curation/accepted' ? 'accepted' : 'pruned';
      trajectory.curationNote = str(event.note);
      const task = view.tasks[trajectory.taskId];
      for (const nodeId of trajectory.nodePath) {
        const node = task?.nodes[nodeId];
        if (!node) continue;
        recomputeCuration(view, node);
        delta.updatedNodes.push({ taskId: node.taskId, nodeId });
      }
      delta.trajectoriesChanged = true;
      break;
    }
    case 'budget/spent': {
      const cost = num(event.costUsd) ?? 0;
      view.spend.totalUsd += cost;
      const tokens = tokenView(event.tokens);
      view.spend.promptTokens += tokens?.prompt ?? 0;
      view.spend.completionTokens += tokens?.completion ?? 0;
      view.spend.calls += num(event.calls) ?? 0;
      const taskId = str(event.taskId);
      const task = taskId ? view.tasks[taskId] : undefined;
      if (task) {
        task.spentUsd += cost;
        delta.tasksChanged = true;
      }
      view.budget.push({ seq: event.seq, ts: event.ts, taskId, totalUsd: view.spend.totalUsd, taskUsd: task?.spentUsd, bestQuality: task?.bestQuality });
      delta.budgetChanged = true;
      break;
    }
    case 'task/finished': {
      const task = view.tasks[str(event.taskId) ?? ''];
      if (!task) {
        view.danglingReferences++;
        break;
      }
      task.finished = { reason: str(event.reason) ?? 'finished', bestQuality: num(event.bestQuality) };
      delta.tasksChanged = true;
      break;
    }
    case 'task/revised':
      // The revision's changes reach the panel through the task/added it writes for a changed question.
      break;
    default: {
      const unreachable: never = event;
      void unreachable;
    }
  }
  return delta;
}

function nodeStatus(value: unknown): NodeStatus | undefined {
  return typeof value === 'string' && (NODE_STATUSES as readonly string[]).includes(value) ? (value as NodeStatus) : undefined;
}

function findNode(view: RunView, event: { taskId: string; nodeId: string }): NodeView | undefined {
  const task = view.tasks[str(event.taskId) ?? ''];
  const node = task?.nodes[str(event.nodeId) ?? ''];
  if (!node) view.danglingReferences++;
  return node;
}

function addNode(view: RunView, event: EventOf<'node/added'>, delta: ViewDelta): void {
  const taskId = str(event.taskId);
  const nodeId = str(event.nodeId);
  const task = taskId ? view.tasks[taskId] : undefined;
  if (!task || !nodeId) {
    view.danglingReferences++;
    return;
  }
  if (task.nodes[nodeId]) {
    view.duplicatesIgnored++;
    return;
  }
  let parentId = str(event.parentId) ?? null;
  const parent = parentId ? task.nodes[parentId] : undefined;
  if (parentId && !parent) {
    // A child before its parent: show it as a root rather than lose it.
    view.danglingReferences++;
    parentId = null;
  }
  const status = nodeStatus(event.status) ?? 'open';
  const { model, label } = describeConfig(event.config);
  const isError = event.ok === false || status === 'error';
  const node: NodeView = {
    id: nodeId,
    taskId: task.id,
    parentId,
    children: [],
    status,
    depth: num(event.depth) ?? (parent ? parent.depth + 1 : 0),
    thought: str(event.thought),
    toolCall: describeToolCall(event.toolCall),
    observation: describeObservation(str(record(event.step?.observation)?.text) ?? str(event.observationSummary), isError),
    model,
    configLabel: label,
    armId: str(event.config?.armId),
    simulated: event.config?.simulated === true ? true : undefined,
    costUsd: num(event.costUsd),
    tokens: tokenView(event.tokens),
    latencyMs: num(event.latencyMs),
    visits: 0,
    reward: num(event.reward),
    trajectoryIds: [],
    addedSeq: event.seq,
    updatedSeq: event.seq,
  };
  task.nodes[nodeId] = node;
  task.nodeOrder.push(nodeId);
  if (parent) parent.children.push(nodeId);
  else task.rootIds.push(nodeId);
  view.nodeCount++;
  delta.addedNodes.push({ taskId: task.id, nodeId });
}

function admitTrajectory(view: RunView, event: EventOf<'trajectory/admitted'>, delta: ViewDelta): void {
  const id = str(event.trajectoryId);
  const task = view.tasks[str(event.taskId) ?? ''];
  if (!id || !task) {
    view.danglingReferences++;
    return;
  }
  if (view.trajectories[id]) {
    view.duplicatesIgnored++;
    return;
  }
  const nodePath = Array.isArray(event.nodePath) ? event.nodePath.filter((n): n is string => typeof n === 'string') : [];
  const models = new Set<string>();
  let repaired = false;
  for (const nodeId of nodePath) {
    const node = task.nodes[nodeId];
    if (!node) continue;
    if (node.model) models.add(node.model);
    if (node.status === 'repaired' || node.status === 'error') repaired = true;
    node.trajectoryIds.push(id);
  }
  const quality = num(event.quality) ?? 0;
  view.trajectories[id] = {
    id,
    taskId: task.id,
    family: task.family,
    nodePath,
    quality,
    verified: event.verified === true,
    hasRepair: typeof event.hasRepair === 'boolean' ? event.hasRepair : repaired,
    models: [...models],
    answer: str(event.answer),
    tags: Array.isArray(event.tags) ? event.tags.filter((t): t is string => typeof t === 'string') : [],
    admittedSeq: event.seq,
  };
  view.trajectoryOrder.push(id);
  if (task.bestQuality === undefined || quality > task.bestQuality) task.bestQuality = quality;
  delta.trajectoriesChanged = true;
  delta.tasksChanged = true;
}

/** Root-to-node path of node ids (stops at a missing parent). */
export function pathToNode(task: TaskView, nodeId: string): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  let current: NodeView | undefined = task.nodes[nodeId];
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current.id);
    current = current.parentId ? task.nodes[current.parentId] : undefined;
  }
  return path.reverse();
}

export interface TrajectoryFilter {
  taskId?: string;
  family?: string;
  hasRepair?: boolean;
  model?: string;
  verifiedOnly?: boolean;
  curation?: CurationDecision | 'uncurated';
}

/** Trajectories matching the filter, best quality first (ties: admitted first). */
export function filterTrajectories(view: RunView, filter: TrajectoryFilter): TrajectoryView[] {
  const result: TrajectoryView[] = [];
  for (const id of view.trajectoryOrder) {
    const t = view.trajectories[id];
    if (filter.taskId && t.taskId !== filter.taskId) continue;
    if (filter.family && t.family !== filter.family) continue;
    if (filter.hasRepair !== undefined && t.hasRepair !== filter.hasRepair) continue;
    if (filter.model && !t.models.includes(filter.model)) continue;
    if (filter.verifiedOnly && !t.verified) continue;
    if (filter.curation === 'uncurated' ? t.curation !== undefined : filter.curation && t.curation !== filter.curation) continue;
    result.push(t);
  }
  return result.sort((a, b) => b.quality - a.quality || a.admittedSeq - b.admittedSeq);
}

export interface SiblingDiffRow {
  /** Position in the path (0 = root). */
  step: number;
  left?: string;
  right?: string;
  /** Both paths go through the same node here (the shared prefix). */
  shared: boolean;
}

/** Two trajectories of one task side by side: the shared prefix, then where they diverge. */
export function diffTrajectories(view: RunView, leftId: string, rightId: string): SiblingDiffRow[] {
  const left = view.trajectories[leftId];
  const right = view.trajectories[rightId];
  if (!left || !right) return [];
  const rows: SiblingDiffRow[] = [];
  const length = Math.max(left.nodePath.length, right.nodePath.length);
  let diverged = false;
  for (let step = 0; step < length; step++) {
    const l = left.nodePath[step];
    const r = right.nodePath[step];
    const shared = !diverged && left.taskId === right.taskId && l !== undefined && l === r;
    if (!shared) diverged = true;
    rows.push({ step, left: l, right: r, shared });
  }
  return rows;
}

/** Lower-cased searchable text of a node (thought, tool call, observation). */
export function nodeSearchText(node: NodeView): string {
  const observation = node.observation
    ? node.observation.kind === 'text'
      ? node.observation.text
      : node.observation.columns.join(' ') + ' ' + node.observation.rows.map((r) => r.join(' ')).join(' ')
    : '';
  return `${node.id} ${node.thought ?? ''} ${node.toolCall?.name ?? ''} ${node.toolCall?.code ?? ''} ${observation} ${node.model ?? ''}`.toLowerCase();
}
