/**
 * Cross-task prefix reuse: per environment, a trie of canonicalised tool calls and their observations.
 * Every tool call the explorer makes goes through it. A call already made after the same prefix of calls is
 * reused (a prefix hit: typically schema discovery and profiling queries shared by every task); a call of a
 * stateless tool made after any other prefix is reused too (a call hit), since SQL is read-only and every Python
 * call starts from a clean namespace. Only executions are reused, never model completions.
 */
import { executeToolCall, type CodeRunner, type Observation, type ToolContext } from '../agent/tools';
import type { ToolCallRequest } from '../llm/types';
import { SerialQueue } from '../sandbox/limits';
import type { ToolResult } from '../sandbox/types';

/** Canonical form of a tool call: the tool and its arguments with sorted keys, code whitespace-normalised. */
export function canonicalCall(call: Pick<ToolCallRequest, 'name' | 'arguments'>): string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments || '{}');
  } catch {
    return `${call.name}\u0000${call.arguments}`;
  }
  return `${call.name}\u0000${stableJson(normaliseArgs(call.name, args))}`;
}

function normaliseArgs(tool: string, args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  if (tool === 'run_sql' && typeof out.query === 'string') out.query = out.query.replace(/\s+/g, ' ').replace(/[\s;]+$/, '').trim();
  if (tool === 'run_python' && typeof out.code === 'string') out.code = out.code.replace(/[ \t]+$/gm, '').replace(/\s+$/, '');
  if ((tool === 'describe_table' || tool === 'sample_rows') && typeof out.table === 'string') out.table = out.table.toLowerCase();
  return out;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Observations that depend on the moment, not the call (a cancellation, a sandbox failure), are never reused. A
 * timeout is: the same query issued again in this run would run as long again (in the offline benchmarks a
 * cartesian product on a 5,000 × 3,000-row join spent the 5 s limit each time it was written).
 */
function reusable(observation: Observation): boolean {
  return observation.ok || !['cancelled', 'internal'].includes(observation.errorKind ?? '');
}

interface TrieNode {
  observation?: Observation;
  children: Map<string, TrieNode>;
  /** Tasks whose trajectories passed through this prefix. */
  tasks: Set<string>;
}

export interface PrefixCacheStats {
  /** Tool calls the explorer asked for. */
  requests: number;
  /** Calls actually executed in a sandbox (or against the profile). */
  executions: number;
  /** Reused from the same prefix. */
  prefixHits: number;
  /** Reused from another prefix (stateless tool). */
  callHits: number;
  /** Sandbox time the reuses did not spend, ms (the original executions' elapsed time). */
  savedElapsedMs: number;
  /** Trie nodes, and those shared by two or more tasks (the common trunk). */
  trieNodes: number;
  sharedNodes: number;
}

export type ReuseKind = 'prefix' | 'call' | null;

export class PrefixCache {
  private readonly root: TrieNode = { children: new Map(), tasks: new Set() };
  private readonly byCall = new Map<string, Observation>();
  private counts = { requests: 0, executions: 0, prefixHits: 0, callHits: 0, savedElapsedMs: 0, trieNodes: 0 };

  /** `context` executes calls; its Python runner should start each call from a clean namespace (see freshPythonRunner). */
  constructor(private readonly context: ToolContext) {}

  /**
   * The observation of `call` made after the calls `prefix` (canonical keys, root first), executing it only
   * when no reusable observation exists. Never throws.
   */
  async execute(taskId: string, prefix: readonly string[], call: Pick<ToolCallRequest, 'name' | 'arguments'>, signal?: AbortSignal): Promise<{ observation: Observation; reused: ReuseKind; key: string }> {
    this.counts.requests++;
    const key = canonicalCall(call);
    let node = this.root;
    for (const k of prefix) node = this.child(node, k, taskId);
    const target = this.child(node, key, taskId);
    if (target.observation) {
      this.counts.prefixHits++;
      this.counts.savedElapsedMs += target.observation.elapsedMs;
      return { observation: target.observation, reused: 'prefix', key };
    }
    const known = this.byCall.get(key);
    if (known) {
      target.observation = known;
      this.counts.callHits++;
      this.counts.savedElapsedMs += known.elapsedMs;
      return { observation: known, reused: 'call', key };
    }
    this.counts.executions++;
    const observation = await executeToolCall({ ...this.context, signal: signal ?? this.context.signal }, call);
    if (reusable(observation)) {
      target.observation = observation;
      this.byCall.set(key, observation);
    }
    return { observation, reused: null, key };
  }

  stats(): PrefixCacheStats {
    let shared = 0;
    const walk = (node: TrieNode) => {
      for (const child of node.children.values()) {
        if (child.tasks.size >= 2) shared++;
        walk(child);
      }
    };
    walk(this.root);
    return { ...this.counts, trieNodes: this.counts.trieNodes, sharedNodes: shared };
  }

  private child(node: TrieNode, key: string, taskId: string): TrieNode {
    let next = node.children.get(key);
    if (!next) {
      next = { children: new Map(), tasks: new Set() };
      node.children.set(key, next);
      this.counts.trieNodes++;
    }
    next.tasks.add(taskId);
    return next;
  }
}

/** Names the sandbox's prelude defines; everything else is dropped before each call. */
const PRELUDE_NAMES = ['__name__', '__builtins__', 'sql', 'sql_columns', 'SqlError'];
const RESET_CELL = `for _k in [k for k in list(globals()) if k not in ${JSON.stringify(PRELUDE_NAMES)}]: del globals()[_k]`;

/**
 * Wraps the notebook-style PythonSandbox so every call starts from a clean namespace: each search branch sees
 * only what its own call defines, whatever ran before in the shared worker. The reset and the call run as one
 * (a serial queue): with tasks in flight, another task's call never runs between them.
 */
export function freshPythonRunner(python: CodeRunner): CodeRunner {
  const queue = new SerialQueue();
  return {
    run(code: string, options?: { signal?: AbortSignal }): Promise<ToolResult> {
      return queue.enqueue(async () => {
        const reset = await python.run(RESET_CELL, options);
        if (!reset.ok) return reset;
        return python.run(code, options);
      });
    },
  };
}
