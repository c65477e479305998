/**
 * The search tree: flat and id-indexed (node i lives at `nodes[i]`, its id is `n<i>`), so it serialises as a
 * list of node events and the webview can patch it by id. A node is the analysis state after a tool call; the
 * edge into it carries the step (tool call, observation, cost, tokens, latency) and the config that made it.
 */
import type { AgentState, AgentStep, AgentTask } from '../agent/types';
import type { ArmConfig, Decision, StateFeatures } from '../lcm/types';
import type { NodeStatus } from '../store/events';

export interface TreeNode {
  /** `n<index>`; the root is `n0`. */
  id: string;
  index: number;
  parentIndex: number | null;
  depth: number;
  childIndices: number[];
  /** The step on the edge into this node (absent at the root). */
  step?: AgentStep;
  /** The arm (config × operator) that proposed the step. */
  arm?: ArmConfig;
  armId?: string;
  status: NodeStatus;
  visits: number;
  valueSum: number;
  /** The immediate reward of the step into this node. */
  reward: number;
  /** Prior for PUCT (the cost model's normalised score of the arm when the child was made). */
  prior: number;
  /** Analytic progress of the path: the task program's results it has reached, 0..1 (`analyticState`). */
  progress: number;
  /** The path reports a sub-answer with wrong figures: nothing below it can be admitted unless a later step gets it right. */
  contradicted?: boolean;
  /** No further expansion: final answer, max depth, budget, or every child closed. */
  closed: boolean;
  /** Features the cost model saw when this node was expanded (kept for its updates). */
  features?: StateFeatures;
  decision?: Decision;
  /** Set on a final_answer node by the verifier. */
  verified?: boolean;
  /** Set on a final_answer node: the cleaning filters admitted its trajectory (a verified answer may still be rejected). */
  admitted?: boolean;
  /** Set on a final_answer node: the path answered before any step of it attempted the program's last step. */
  premature?: boolean;
  quality?: number;
}

export function nodeId(index: number): string {
  return `n${index}`;
}

export class SearchTree {
  readonly nodes: TreeNode[] = [];

  constructor(readonly task: AgentTask) {
    this.nodes.push(freshNode(0, null, 0));
  }

  get root(): TreeNode {
    return this.nodes[0];
  }

  get size(): number {
    return this.nodes.length;
  }

  node(index: number): TreeNode {
    const node = this.nodes[index];
    if (!node) throw new RangeError(`no node ${index} in the tree`);
    return node;
  }

  byId(id: string): TreeNode | undefined {
    const match = /^n(\d+)$/.exec(id);
    return match ? this.nodes[Number(match[1])] : undefined;
  }

  /** Adds a child for `step` under `parentIndex` and returns it. */
  addChild(parentIndex: number, step: AgentStep, arm: ArmConfig | undefined, armId: string | undefined, prior: number): TreeNode {
    const parent = this.node(parentIndex);
    const child = freshNode(this.nodes.length, parentIndex, parent.depth + 1);
    child.step = step;
    child.arm = arm;
    child.armId = armId;
    child.prior = prior;
    this.nodes.push(child);
    parent.childIndices.push(child.index);
    return child;
  }

  /** Node indices from the root to `index`, root first. */
  pathTo(index: number): number[] {
    const path: number[] = [];
    for (let i: number | null = index; i !== null; i = this.node(i).parentIndex) path.push(i);
    return path.reverse();
  }

  /** The steps from the root to `index`. */
  stepsTo(index: number): AgentStep[] {
    return this.pathTo(index)
      .map((i) => this.node(i).step)
      .filter((s): s is AgentStep => s !== undefined);
  }

  /** The agent state at a node: the task and the steps so far, re-indexed along the path. */
  stateAt(index: number): AgentState {
    const steps = this.stepsTo(index).map((s, i) => (s.index === i ? s : { ...s, index: i }));
    const state: AgentState = { task: this.task, steps };
    const last = steps[steps.length - 1];
    if (last && last.observation.ok && last.observation.data.kind === 'final') {
      state.finalAnswer = { answer: last.observation.data.answer, explanation: last.observation.data.explanation };
    }
    return state;
  }

  /** Adds `value` along the path from `index` to the root. */
  backpropagate(index: number, value: number): void {
    for (const i of this.pathTo(index)) {
      const node = this.node(i);
      node.visits++;
      node.valueSum += value;
    }
  }

  /** Closes nodes upward whose children are all closed (no open work left beneath them). */
  closeUpward(index: number): void {
    for (let i = this.node(index).parentIndex; i !== null; i = this.node(i).parentIndex) {
      const node = this.node(i);
      if (node.closed || node.childIndices.length === 0) return;
      if (!node.childIndices.every((c) => this.node(c).closed)) return;
      node.closed = true;
    }
  }
}

export function meanValue(node: TreeNode): number {
  return node.visits > 0 ? node.valueSum / node.visits : 0;
}

function freshNode(index: number, parentIndex: number | null, depth: number): TreeNode {
  return {
    id: nodeId(index),
    index,
    parentIndex,
    depth,
    childIndices: [],
    status: 'open',
    visits: 0,
    valueSum: 0,
    reward: 0,
    prior: 1,
    progress: 0,
    closed: false,
  };
}
