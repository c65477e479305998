/**
 * Realistic explorer event streams for the webview's tests and benchmark: tasks, a growing search tree per task
 * (a shared schema-discovery trunk, then SQL / Python steps from several models with the cost model's decision
 * at each expansion), errors followed by repairs, terminal answers, admitted trajectories, backpropagated visits
 * and the spend ledger. Seeded, so a stream is reproducible. Includes an XSS probe cell and thought.
 */
import { renderTable } from '../../src/core/agent/render';
import type { RunEvent, RunEventInput, StepConfigRecord } from '../../src/core/store';
import { RunStore } from '../../src/core/store';
import { mulberry32 } from './random';

export const XSS_CELL = '<img src=x onerror=alert(1)>';
export const XSS_THOUGHT = 'Check the <script>window.__pwned = true</script> column';

export interface GenerateRunOptions {
  tasks?: number;
  /** Nodes per task, roots included. */
  nodesPerTask?: number;
  seed?: number;
  models?: string[];
}

const FAMILIES = ['aggregate', 'join_lookup', 'top_k', 'ratio'];
const MODEL_PRICES: Record<string, number> = { 'sim-small': 0.0002, 'sim-medium': 0.0011, 'sim-large': 0.0045 };

const MAX_DEPTH = 10;

interface GenNode {
  id: string;
  parentId: string | null;
  depth: number;
  terminal: boolean;
  visits: number;
}

/** Events for one task; `nodeBudget` nodes in all. `next()` yields batches in the order an explorer writes them. */
export class TaskStreamGenerator {
  readonly taskId: string;
  private readonly random: () => number;
  private readonly nodes: GenNode[] = [];
  private readonly byId = new Map<string, GenNode>();
  private readonly expandable: GenNode[] = [];
  private counter = 0;
  private started = false;
  readonly models: string[];

  constructor(
    readonly index: number,
    private readonly nodeBudget: number,
    seed: number,
    models: string[] = ['sim-small', 'sim-medium', 'sim-large'],
  ) {
    this.taskId = `task-${String(index).padStart(3, '0')}`;
    this.random = mulberry32(seed * 7919 + index);
    this.models = models;
  }

  get nodeCount(): number {
    return this.nodes.length;
  }

  get done(): boolean {
    return this.nodes.length >= this.nodeBudget || (this.started && this.expandable.length === 0);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /** The next batch: the task and its root first, then one expansion (decision, K children, spend, backprop). */
  next(): RunEventInput[] {
    if (!this.started) {
      this.started = true;
      const family = FAMILIES[this.index % FAMILIES.length];
      const root: GenNode = { id: 'n0', parentId: null, depth: 0, terminal: false, visits: 1 };
      this.nodes.push(root);
      this.byId.set(root.id, root);
      this.expandable.push(root);
      return [
        {
          type: 'task/added',
          task: {
            id: this.taskId,
            family,
            question: `Which region had the highest ${family === 'ratio' ? 'return rate' : 'revenue'} in 2024? (task ${this.index})`,
            answer: { type: 'string', value: 'North' },
            evidence: [],
            difficulty: { steps: 3, tables: 2, joins: 1, aggregation: true, window: false, python: false, level: 'medium' },
            tables: ['orders', 'customers'],
          },
        },
        {
          type: 'node/added',
          taskId: this.taskId,
          nodeId: root.id,
          parentId: null,
          status: 'open',
          depth: 0,
          thought: 'Shared prefix: discover the schema first.',
          toolCall: { id: 'call-0', name: 'list_tables', arguments: '{}' },
          observationSummary: renderTable(['table', 'rows', 'source'], [['orders', 1200, 'orders.csv'], ['customers', 300, 'customers.csv']]),
          ok: true,
          config: configOf(this.models[0], 'explore'),
        },
      ];
    }
    if (this.done) return [];
    // Prefer deep, recent nodes (as UCT does once a line looks promising) but keep some breadth.
    const index = this.random() < 0.7 ? this.expandable.length - 1 - Math.floor(this.random() * Math.min(6, this.expandable.length)) : Math.floor(this.random() * this.expandable.length);
    const parent = this.expandable[Math.max(0, index)];
    const k = Math.min(1 + Math.floor(this.random() * 3), this.nodeBudget - this.nodes.length);
    const arms = this.models.map((model) => `offline-sim/${model}/full/explore`);
    const batch: RunEventInput[] = [
      {
        type: 'lcm/decision',
        taskId: this.taskId,
        nodeId: parent.id,
        k,
        arms,
        mu: arms.map(() => Math.round(this.random() * 1000) / 1000),
        sigma: arms.map(() => Math.round(this.random() * 300) / 1000),
      },
    ];
    for (let c = 0; c < k; c++) batch.push(...this.child(parent, this.models[Math.floor(this.random() * this.models.length)]));
    parent.visits += k;
    // Backpropagation: every ancestor's visit count grows.
    for (let node: GenNode | undefined = parent; node; node = node.parentId ? this.byId.get(node.parentId) : undefined) {
      if (node !== parent) node.visits += k;
      batch.push({ type: 'node/updated', taskId: this.taskId, nodeId: node.id, visits: node.visits, value: Math.round(this.random() * 100) / 100 });
      if (node.depth === 0) break;
    }
    if (parent.depth >= 2 && this.random() < 0.5) this.expandable.splice(this.expandable.indexOf(parent), 1);
    return batch;
  }

  private child(parent: GenNode, model: string): RunEventInput[] {
    this.counter++;
    const depth = parent.depth + 1;
    const id = `n${this.counter}`;
    const roll = this.random();
    const terminal = depth >= 3 && roll < 0.25;
    const error = !terminal && roll > 0.85;
    const repaired = !terminal && !error && parent.id !== 'n0' && roll > 0.75;
    const node: GenNode = { id, parentId: parent.id, depth, terminal, visits: 0 };
    this.nodes.push(node);
    this.byId.set(id, node);
    const promptTokens = 400 + Math.floor(this.random() * 1600);
    const completionTokens = 40 + Math.floor(this.random() * 200);
    const costUsd = Math.round(MODEL_PRICES[model] ? MODEL_PRICES[model] * (1 + this.random()) * 1e6 : 0) / 1e6;
    const config = configOf(model, error || parent.id === 'n0' ? 'explore' : 'repair');
    const events: RunEventInput[] = [];
    if (terminal) {
      const verified = this.random() < 0.6;
      events.push({
        type: 'node/added',
        taskId: this.taskId,
        nodeId: id,
        parentId: parent.id,
        status: verified ? 'verified' : 'terminal',
        depth,
        thought: 'The totals are in; North is highest.',
        toolCall: { id: `call-${id}`, name: 'final_answer', arguments: JSON.stringify({ answer: 'North', explanation: 'Largest SUM(amount).' }) },
        observationSummary: 'Final answer recorded: North',
        ok: true,
        config,
        costUsd,
        tokens: { prompt: promptTokens, completion: completionTokens, total: promptTokens + completionTokens },
        latencyMs: 200 + Math.floor(this.random() * 900),
        reward: verified ? 1 : 0,
      });
      if (verified) {
        const nodePath: string[] = [];
        for (let n: GenNode | undefined = node; n; n = n.parentId ? this.byId.get(n.parentId) : undefined) nodePath.unshift(n.id);
        events.push({
          type: 'trajectory/admitted',
          trajectoryId: `${this.taskId}/${id}`,
          taskId: this.taskId,
          nodePath,
          quality: Math.round((0.55 + this.random() * 0.45) * 1000) / 1000,
          verified: true,
          answer: 'North',
        });
      }
    } else {
      const python = this.random() < 0.3;
      const query = `SELECT c.region, SUM(o.amount) AS revenue\nFROM orders o JOIN customers c ON c.id = o.customer_id\nWHERE o.year = 2024 -- step ${id}\nGROUP BY c.region ORDER BY revenue DESC LIMIT 5`;
      const code = `rows = sql("SELECT region, amount FROM orders")\ntotals = {}\nfor region, amount in rows:\n    totals[region] = totals.get(region, 0) + amount  # step ${id}\nprint(max(totals, key=totals.get))`;
      events.push({
        type: 'node/added',
        taskId: this.taskId,
        nodeId: id,
        parentId: parent.id,
        status: error ? 'error' : repaired ? 'repaired' : 'open',
        depth,
        thought: this.counter === 3 ? XSS_THOUGHT : error ? 'Join orders to customers on the id.' : repaired ? 'The column is customer_id, not cust_id; retry.' : 'Sum revenue per region for 2024.',
        toolCall: python
          ? { id: `call-${id}`, name: 'run_python', arguments: JSON.stringify({ code }) }
          : { id: `call-${id}`, name: 'run_sql', arguments: JSON.stringify({ query: error ? query.replace('customer_id', 'cust_id') : query }) },
        observationSummary: error
          ? 'Error: no such column: o.cust_id'
          : python
            ? 'North'
            : renderTable(['region', 'revenue'], [['North', 51234.5], ['South', 40211], [this.counter === 2 ? XSS_CELL : 'East', 38870.25]]),
        ok: !error,
        config,
        costUsd,
        tokens: { prompt: promptTokens, completion: completionTokens, total: promptTokens + completionTokens },
        latencyMs: 200 + Math.floor(this.random() * 900),
      });
      // Explorer trees are shallow: a depth cap keeps lines to a realistic length.
      if (!error && depth < MAX_DEPTH) this.expandable.push(node);
    }
    events.push({ type: 'budget/spent', taskId: this.taskId, costUsd, tokens: { prompt: promptTokens, completion: completionTokens }, calls: 1 });
    return events;
  }

  /** All remaining batches, concatenated, plus task/finished. */
  drain(): RunEventInput[] {
    const all: RunEventInput[] = [];
    while (!this.done) all.push(...this.next());
    all.push({ type: 'task/finished', taskId: this.taskId, reason: 'budget' });
    return all;
  }
}

/** A simulated model's step configuration, as the explorer records it on a node. */
function configOf(model: string, operator: string): StepConfigRecord & { operator: string; armId: string } {
  return { provider: 'offline-sim', model, contextLength: { mode: 'full' }, simulated: true, operator, armId: `offline-sim/${model}/full/${operator}` };
}

/** The whole run's events (without run/started, which RunStore writes), tasks one after another. */
export function generateRunEventInputs(options: GenerateRunOptions = {}): RunEventInput[] {
  const inputs: RunEventInput[] = [];
  for (let i = 0; i < (options.tasks ?? 2); i++) {
    inputs.push(...new TaskStreamGenerator(i, options.nodesPerTask ?? 40, options.seed ?? 1, options.models).drain());
  }
  return inputs;
}

/** Adds the store's envelope (v, seq, ts) for tests that need events without a run folder; starts with run/started. */
export function stampEvents(inputs: readonly RunEventInput[], runId = 'run-test', startSeq = 1, startTime = Date.UTC(2026, 0, 1)): RunEvent[] {
  const all: RunEventInput[] = startSeq === 1 ? [{ type: 'run/started', runId, dataFolder: '/data/retail' }, ...inputs] : [...inputs];
  return all.map((input, i) => ({ v: 1, seq: startSeq + i, ts: new Date(startTime + (startSeq + i) * 1000).toISOString(), ...input }) as RunEvent);
}

/** Writes a generated run into `runDir` through RunStore (fsync'd, validated) and closes it unless `keepOpen`. */
export function writeGeneratedRun(runDir: string, options: GenerateRunOptions & { finish?: boolean; keepOpen?: boolean } = {}): { store: RunStore; inputs: RunEventInput[] } {
  const store = RunStore.createInDir(runDir, { dataFolder: '/data/retail', seed: options.seed ?? 1 });
  const inputs = generateRunEventInputs(options);
  for (let i = 0; i < inputs.length; i += 200) store.appendMany(inputs.slice(i, i + 200));
  if (options.finish) store.append({ type: 'run/finished' });
  if (!options.keepOpen) store.close();
  return { store, inputs };
}

/**
 * One task grown to `initialNodes` nodes (the snapshot's events), then `patches` batches of about `patchNodes`
 * new nodes each, with their decisions, spend and backpropagation, as they would arrive live.
 */
export function bigTreeStream(initialNodes: number, patchNodes: number, patches: number, seed = 5): { initial: RunEvent[]; patchEvents: RunEvent[][] } {
  const generator = new TaskStreamGenerator(0, initialNodes + patchNodes * patches, seed);
  const initialInputs: RunEventInput[] = [];
  while (generator.nodeCount < initialNodes) initialInputs.push(...generator.next());
  const initial = stampEvents(initialInputs);
  let seq = initial.length + 1;
  const patchEvents: RunEvent[][] = [];
  for (let p = 0; p < patches; p++) {
    const target = generator.nodeCount + patchNodes;
    const inputs: RunEventInput[] = [];
    while (generator.nodeCount < target && !generator.done) inputs.push(...generator.next());
    const stamped = stampEvents(inputs, 'run-test', seq);
    seq += stamped.length;
    patchEvents.push(stamped);
  }
  return { initial, patchEvents };
}
