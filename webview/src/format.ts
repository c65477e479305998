/**
 * How the panel names things to a person: cost-model arms in words, a step as "tool(arguments)", a task's state,
 * and the shape each model's nodes are drawn with. Pure functions (no DOM), shared by the tree, the inspector, the
 * task list and the legends.
 */
import type { NodeView, RunView, TaskView } from '../../src/shared/runView';

const CONTEXT_WORDS: Record<string, string> = { full: 'full context' };
const OPERATOR_WORDS: Record<string, string> = { explore: 'explore', repair: 'repair' };

/**
 * A cost-model arm id (`provider/model|context|effort|operator`, lcm/arms.ts) in words:
 * "offline-sim/sim-medium|last-4|high|explore" → "sim-medium · last 4 steps · high effort · explore".
 */
export function armLabel(armId: string): string {
  const [modelPart, context, effort, operator] = armId.split('|');
  if (operator === undefined) return armId;
  const model = modelPart.includes('/') ? modelPart.slice(modelPart.indexOf('/') + 1) : modelPart;
  const contextWords = CONTEXT_WORDS[context] ?? (/^last-(\d+)$/.test(context) ? `last ${context.slice(5)} steps` : context);
  const effortWords = effort === '-' || effort === '' ? undefined : `${effort} effort`;
  return [model, contextWords, effortWords, OPERATOR_WORDS[operator] ?? operator].filter(Boolean).join(' · ');
}

/** An arm in a table cell: "sim-medium · last 4 · high · explore" (model, context, effort, operator). */
export function armShortLabel(armId: string): string {
  const [modelPart, context, effort, operator] = armId.split('|');
  if (operator === undefined) return armId;
  const model = modelPart.includes('/') ? modelPart.slice(modelPart.indexOf('/') + 1) : modelPart;
  return [model, /^last-(\d+)$/.test(context) ? `last ${context.slice(5)}` : context, effort === '-' ? undefined : effort, operator].filter(Boolean).join(' · ');
}

function shortValue(value: unknown, max = 40): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A step as one line: "describe_table(orders)", "run_sql: SELECT region, …", "final_answer: 42". The inspector
 * shows the whole call; this is for lists and the player.
 */
export function stepLabel(node: NodeView | undefined): string {
  if (!node) return '';
  const call = node.toolCall;
  if (!call) return node.parentId === null ? 'the question (start)' : node.status;
  if (call.language === 'sql' || call.language === 'python') {
    const code = call.code.replace(/\s+/g, ' ').trim();
    return `${call.name}: ${code.length > 90 ? `${code.slice(0, 89)}…` : code}`;
  }
  if (call.language === 'json') {
    try {
      const args = JSON.parse(call.code) as unknown;
      if (args && typeof args === 'object' && !Array.isArray(args)) {
        const entries = Object.entries(args as Record<string, unknown>);
        if (call.name === 'final_answer' && entries.length) return `final_answer: ${shortValue((args as Record<string, unknown>).answer ?? entries[0][1], 80)}`;
        if (entries.length === 1) return `${call.name}(${shortValue(entries[0][1])})`;
        return `${call.name}(${entries.map(([key, value]) => `${key}=${shortValue(value, 24)}`).join(', ')})`;
      }
    } catch {
      // not JSON after all: shown as written below
    }
  }
  const code = call.code.replace(/\s+/g, ' ').trim();
  return `${call.name}: ${code.length > 90 ? `${code.slice(0, 89)}…` : code}`;
}

export type TaskState = 'queued' | 'exploring' | 'stopped' | 'finished';

/** Where a task stands in the run: not started, being explored (the run is live), stopped mid-way, or finished. */
export function taskState(task: TaskView, live: boolean): TaskState {
  if (task.finished) return 'finished';
  if (task.nodeOrder.length === 0) return 'queued';
  return live ? 'exploring' : 'stopped';
}

/**
 * The task the run is exploring now: the unfinished task whose node arrived last (with several tasks in flight,
 * the most recently active one); when none is unfinished, the last explored task that has a trajectory (a finished
 * run opens on something to inspect, not on a task that found nothing), else the task that received the last node.
 */
export function exploredTaskId(view: RunView): string | undefined {
  const withTrajectories = new Set(Object.values(view.trajectories).map((t) => t.taskId));
  let best: { id: string; seq: number; rank: number } | undefined;
  for (const id of view.taskOrder) {
    const task = view.tasks[id];
    const last = task.nodeOrder[task.nodeOrder.length - 1];
    if (last === undefined) continue;
    const seq = task.nodes[last].addedSeq;
    const rank = !task.finished ? 2 : withTrajectories.has(id) ? 1 : 0;
    if (!best || rank > best.rank || (rank === best.rank && seq > best.seq)) best = { id, seq, rank };
  }
  return best?.id ?? view.taskOrder[0];
}

export const MODEL_SHAPES = ['ellipse', 'round-rectangle', 'diamond', 'triangle', 'hexagon', 'star'] as const;
export type NodeShape = (typeof MODEL_SHAPES)[number];

/** The simulated models keep one shape each, so a reader learns them once. */
const KNOWN_SHAPES: Record<string, NodeShape> = { 'sim-small': 'ellipse', 'sim-medium': 'diamond', 'sim-large': 'round-rectangle' };

/**
 * The shape a model's nodes are drawn with, the same in every run and every panel: fixed for the simulated models,
 * a hash of the name (FNV-1a) for any other. Two models may share a shape; the legend names both.
 */
export function modelShape(model: string | undefined): NodeShape {
  if (!model) return 'ellipse';
  const known = KNOWN_SHAPES[model];
  if (known) return known;
  let hash = 0x811c9dc5;
  for (let i = 0; i < model.length; i++) {
    hash ^= model.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return MODEL_SHAPES[hash % MODEL_SHAPES.length];
}

/** The models whose nodes a task shows, in order of first appearance. */
export function modelsIn(task: TaskView | undefined): string[] {
  if (!task) return [];
  const models = new Set<string>();
  for (const id of task.nodeOrder) {
    const model = task.nodes[id].model;
    if (model) models.add(model);
  }
  return [...models];
}

export function formatUsd(value: number | undefined): string {
  return value === undefined ? '—' : `$${value.toFixed(value < 0.01 ? 5 : 3)}`;
}

/** "#3": a trajectory's number among its task's trajectories, in the order they were admitted. */
export function trajectoryNumbers(view: RunView): Map<string, number> {
  const counts = new Map<string, number>();
  const numbers = new Map<string, number>();
  for (const id of view.trajectoryOrder) {
    const taskId = view.trajectories[id].taskId;
    const n = (counts.get(taskId) ?? 0) + 1;
    counts.set(taskId, n);
    numbers.set(id, n);
  }
  return numbers;
}
