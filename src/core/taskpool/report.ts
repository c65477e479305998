/**
 * What a task pool is made of, for the person who will train on it: compositions and steps per task, the share of
 * multi-step tasks, how much of the data the tasks cover, and why each composition that found nothing found nothing.
 */
import type { EnvironmentProfile } from '../env/types';
import { compositionFamilies } from './families/index';
import type { TaskPoolResult } from './pool';
import { rejectionsByReason } from './pool';

export interface PoolMix {
  selected: number;
  /** Selected tasks per composition (single-step families count under `lookup` / `document-rule`). */
  compositions: Record<string, number>;
  /** Selected tasks by their number of executed reference steps. */
  stepsPerTask: Record<string, number>;
  /** Shares of selected tasks with ≥ 3 and ≥ 4 steps. */
  atLeast3Steps: number;
  atLeast4Steps: number;
  families: Record<string, number>;
  tablesCovered: { covered: number; of: number };
  columnsCovered: { covered: number; of: number };
  rejections: Record<string, number>;
  /** Compositions that made no task, with what they need that the data lacks. */
  absent: Array<{ composition: string; why: string }>;
  /** Columns no task groups by, with why ("pmcid: no grouping: 28 of the 28 rows … hold a value no other row holds"). */
  ungrouped: Array<{ table: string; column: string; why: string }>;
}

export function poolMix(result: TaskPoolResult, profile: EnvironmentProfile): PoolMix {
  const tasks = result.tasks;
  const count = <T extends string>(keys: T[]) => keys.reduce<Record<string, number>>((acc, k) => ((acc[k] = (acc[k] ?? 0) + 1), acc), {});
  const steps = tasks.map((t) => t.evidence.length);
  const tables = new Set(tasks.flatMap((t) => t.tables));
  const columns = new Set(tasks.flatMap((t) => (t.anchors ?? []).filter((a) => a.startsWith('column:'))));
  const allColumns = profile.tables.reduce((n, t) => n + t.columns.length, 0);
  const absent = compositionFamilies
    .map((family) => ({ family, entry: result.families.find((f) => f.id === family.id) }))
    .filter(({ entry }) => !entry || entry.selected === 0)
    .map(({ family, entry }) => ({ composition: family.id, why: entry?.candidates ? (entry.valid === 0 ? 'every candidate was rejected (see the rejections)' : 'valid, but not selected') : `the data has none of what it needs: ${family.needs}` }));
  return {
    selected: tasks.length,
    compositions: count(tasks.map((t) => t.program?.composition ?? t.family)),
    stepsPerTask: count(steps.map(String)),
    atLeast3Steps: tasks.length ? steps.filter((s) => s >= 3).length / tasks.length : 0,
    atLeast4Steps: tasks.length ? steps.filter((s) => s >= 4).length / tasks.length : 0,
    families: count(tasks.map((t) => t.family)),
    tablesCovered: { covered: tables.size, of: profile.tables.length },
    columnsCovered: { covered: columns.size, of: allColumns },
    rejections: rejectionsByReason(result.rejected),
    absent,
    ungrouped: result.ungrouped ?? [],
  };
}

export function formatPoolMix(mix: PoolMix): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const list = (r: Record<string, number>) => Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [
    `Mix: ${mix.selected} tasks; compositions ${list(mix.compositions) || 'none'}`,
    `Steps per task: ${Object.entries(mix.stepsPerTask).sort((a, b) => Number(a[0]) - Number(b[0])).map(([s, n]) => `${s}: ${n}`).join(', ') || 'none'} (≥ 3 steps ${pct(mix.atLeast3Steps)}, ≥ 4 steps ${pct(mix.atLeast4Steps)})`,
    `Coverage: ${mix.tablesCovered.covered} of ${mix.tablesCovered.of} tables, ${mix.columnsCovered.covered} of ${mix.columnsCovered.of} columns`,
  ];
  for (const a of mix.absent) lines.push(`No ${a.composition} task: ${a.why}`);
  if (mix.ungrouped.length > 0) lines.push(`Not grouped by (per-row ids, values written several ways, sets of values packed in one cell, or values mostly written as not known): ${mix.ungrouped.map((u) => `${u.table}.${u.column}`).join(', ')}`);
  return lines.join('\n');
}
