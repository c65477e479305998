/**
 * Rubric-based selection for export (GraphForge's selection ablation): when a task has several admitted
 * trajectories, keep the best K by
 * - `anchored`: the verifier's rubric score — criteria anchored to the evidence graph (tables, columns, joins,
 *   documents, parameters, reported values) — falling back to the trajectory's quality when no criterion could
 *   be judged;
 * - `unanchored`: a score that ignores every evidence anchor and looks only at the outcome and the execution —
 *   whether the final answer was verified (weight 0.5) and the share of steps that ran cleanly, repaired errors
 *   not counted (weight 0.5). It is what a judge that never sees the evidence can still check, so it is the
 *   ablation's "rubric without anchors" arm;
 * - `random`: a seeded shuffle per task (the same seed and run give the same choice);
 * - `all`: no selection (every admitted trajectory; the export's default, so existing exports do not change).
 * Ties break on fewer steps, then trajectory id, so a choice is always reproducible.
 */
import type { ExportTrajectory } from './types';

export type SelectionMode = 'anchored' | 'unanchored' | 'random' | 'all';
export const SELECTION_MODES: readonly SelectionMode[] = ['anchored', 'unanchored', 'random', 'all'];

export interface SelectionOptions {
  mode: SelectionMode;
  /** Trajectories kept per task (ignored by `all`). Default 1. */
  perTask?: number;
  /** Seed of `random`. Default 0. */
  seed?: number;
}

/** What the export records about one kept trajectory. */
export interface SelectionRecord {
  mode: SelectionMode;
  /** The score the mode ranked by (null for `random` and `all`). */
  score: number | null;
  /** 1-based position among the task's candidates. */
  rank: number;
  /** How many candidates the task had. */
  candidates: number;
}

export interface SelectionSummary {
  mode: SelectionMode;
  perTask: number | null;
  seed: number | null;
  tasks: number;
  candidates: number;
  kept: number;
}

/** The anchored score: the rubric's, else the quality (rubric-less tasks still rank). */
export function anchoredScore(t: ExportTrajectory): number {
  return typeof t.rubric?.score === 'number' ? t.rubric.score : t.quality;
}

/** The unanchored score: verified answer and clean execution only, no evidence anchor read. */
export function unanchoredScore(t: ExportTrajectory): number {
  const repaired = new Set(t.repairedStepIndexes);
  const counted = t.steps.filter((s) => !repaired.has(s.index));
  const clean = counted.length > 0 ? counted.filter((s) => s.observation.ok).length / counted.length : 0;
  return Math.round(((t.verified ? 0.5 : 0) + 0.5 * clean) * 1e4) / 1e4;
}

/** FNV-1a over the seed and a key: a stable pseudo-random rank. */
function seededKey(seed: number, key: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const text = `${seed}\u0000${key}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export interface SelectionResult {
  kept: ExportTrajectory[];
  records: Map<string, SelectionRecord>;
  summary: SelectionSummary;
}

/** Keeps up to K trajectories per task by the mode, in the input's order of first appearance of each task. */
export function selectTrajectories(trajectories: readonly ExportTrajectory[], options: SelectionOptions): SelectionResult {
  const perTask = options.perTask ?? 1;
  const seed = options.seed ?? 0;
  if (!Number.isInteger(perTask) || perTask < 1) throw new RangeError(`per-task count must be a whole number ≥ 1, not ${perTask}`);
  const byTask = new Map<string, ExportTrajectory[]>();
  for (const t of trajectories) {
    const list = byTask.get(t.task.id) ?? [];
    list.push(t);
    byTask.set(t.task.id, list);
  }
  const kept: ExportTrajectory[] = [];
  const records = new Map<string, SelectionRecord>();
  for (const [taskId, list] of byTask) {
    const scoreOf = (t: ExportTrajectory): number | null => (options.mode === 'anchored' ? anchoredScore(t) : options.mode === 'unanchored' ? unanchoredScore(t) : null);
    const ranked = [...list];
    if (options.mode === 'random') {
      ranked.sort((a, b) => seededKey(seed, `${taskId}/${a.trajectoryId}`) - seededKey(seed, `${taskId}/${b.trajectoryId}`) || a.trajectoryId.localeCompare(b.trajectoryId));
    } else if (options.mode !== 'all') {
      ranked.sort((a, b) => (scoreOf(b) as number) - (scoreOf(a) as number) || a.steps.length - b.steps.length || a.trajectoryId.localeCompare(b.trajectoryId));
    }
    const take = options.mode === 'all' ? ranked : ranked.slice(0, perTask);
    take.forEach((t, i) => {
      kept.push(t);
      records.set(t.trajectoryId, { mode: options.mode, score: scoreOf(t), rank: i + 1, candidates: list.length });
    });
  }
  return {
    kept,
    records,
    summary: {
      mode: options.mode,
      perTask: options.mode === 'all' ? null : perTask,
      seed: options.mode === 'random' ? seed : null,
      tasks: byTask.size,
      candidates: trajectories.length,
      kept: kept.length,
    },
  };
}
