/**
 * Near-copies: trajectories of one task whose tool calls and observations match once wording is set aside — SQL
 * compared after parsing (whitespace, keyword case and table aliases do not count), Python with comments and runs
 * of whitespace removed, other arguments as canonical JSON, observations with whitespace collapsed, the final answer
 * by its value (its explanation is wording) — and whose thoughts alone differ. A learner sees nothing new in the
 * second one, so the export keeps the best of each group (highest quality, then a curator's acceptance, then fewer
 * steps, then trajectory id) and reports the rest as collapsed.
 */
import { Parser } from 'node-sql-parser/build/sqlite';
import type { AgentStep } from '../agent/types';
import type { ExportTrajectory } from './types';

const parser = new Parser();

type AstNode = Record<string, unknown>;
const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Replaces table aliases by their tables throughout a parsed statement (each SELECT's FROM scopes its aliases). */
function unalias(node: unknown, aliases: Map<string, string> = new Map()): void {
  if (Array.isArray(node)) {
    for (const n of node) unalias(n, aliases);
    return;
  }
  if (!isNode(node)) return;
  let scope = aliases;
  if (Array.isArray(node.from)) {
    scope = new Map(aliases);
    for (const from of node.from) {
      if (isNode(from) && typeof from.table === 'string' && typeof from.as === 'string') {
        scope.set(from.as.toLowerCase(), from.table);
        from.as = null;
      }
    }
  }
  if (node.type === 'column_ref' && typeof node.table === 'string') {
    const table = scope.get(node.table.toLowerCase());
    if (table) node.table = table;
  }
  for (const [key, value] of Object.entries(node)) if (key !== 'tableList' && key !== 'columnList') unalias(value, scope);
}

/** A query as a canonical string: re-printed from its parse, table aliases resolved; else tokens, lowercased outside quotes. */
export function normaliseSql(query: string): string {
  try {
    const ast = parser.astify(query, { database: 'sqlite' });
    unalias(ast);
    return parser.sqlify(ast, { database: 'sqlite' }).replace(/\s+/g, ' ').trim();
  } catch {
    return query
      .replace(/--[^\n]*/g, ' ')
      .split(/('(?:[^']|'')*')/)
      .map((part, i) => (i % 2 === 1 ? part : part.toLowerCase().replace(/\s+/g, ' ')))
      .join('')
      .replace(/\s*([(),=<>])\s*/g, '$1')
      .replace(/;\s*$/, '')
      .trim();
  }
}

function normalisePython(code: string): string {
  return code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$|^\s*#.*$/, '').replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isNode(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? '{}');
    return isNode(value) ? value : {};
  } catch {
    return { raw: text };
  }
}

/** What a step contributes to a trajectory's identity: its call, normalised, and what it observed. */
export function stepSignature(step: AgentStep): string {
  const name = step.toolCall?.name ?? '(none)';
  const args = step.observation.args ?? parseArgs(step.toolCall?.arguments);
  let call: string;
  if (name === 'run_sql' && typeof args.query === 'string') call = normaliseSql(args.query);
  else if (name === 'run_python' && typeof args.code === 'string') call = normalisePython(args.code);
  else if (name === 'final_answer') call = String(args.answer ?? '').trim().toLowerCase();
  else call = canonicalJson(args);
  const observed = name === 'final_answer' ? '' : step.observation.text.replace(/\s+/g, ' ').trim();
  return `${name}\u0000${call}\u0000${step.observation.ok ? 'ok' : 'error'}\u0000${observed}`;
}

export function trajectorySignature(t: ExportTrajectory): string {
  return t.steps.map(stepSignature).join('\u0001');
}

export interface CollapsedCopy {
  trajectoryId: string;
  taskId: string;
  /** The trajectory kept in its place. */
  keptTrajectoryId: string;
}

export interface NearCopyReport {
  collapseNearCopies: boolean;
  /** Groups of two or more near-copies. */
  groups: number;
  collapsed: CollapsedCopy[];
}

function better(a: ExportTrajectory, b: ExportTrajectory): number {
  return b.quality - a.quality || Number(b.curation === 'accepted') - Number(a.curation === 'accepted') || a.steps.length - b.steps.length || a.trajectoryId.localeCompare(b.trajectoryId);
}

/** Keeps the best trajectory of each task's group of near-copies (all of them when `collapse` is false), in input order. */
export function collapseNearCopies(trajectories: readonly ExportTrajectory[], collapse: boolean): { kept: ExportTrajectory[]; report: NearCopyReport } {
  const groups = new Map<string, ExportTrajectory[]>();
  for (const t of trajectories) {
    const key = `${t.task.id}\u0002${trajectorySignature(t)}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const collapsed: CollapsedCopy[] = [];
  const dropped = new Set<string>();
  let multi = 0;
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    multi++;
    const [best, ...rest] = [...group].sort(better);
    for (const t of rest) {
      collapsed.push({ trajectoryId: t.trajectoryId, taskId: t.task.id, keptTrajectoryId: best.trajectoryId });
      if (collapse) dropped.add(t.trajectoryId);
    }
  }
  return { kept: trajectories.filter((t) => !dropped.has(t.trajectoryId)), report: { collapseNearCopies: collapse, groups: multi, collapsed } };
}
