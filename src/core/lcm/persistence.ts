/** Saving and loading one cost model per environment, so it keeps learning across runs. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../text/atomicFile';
import { LearnedCostModel, type LcmOptions } from './LearnedCostModel';
import type { ArmConfig } from './types';

/** `<root>/.toffee/lcm/<envHash>.json`; characters outside [A-Za-z0-9._-] in the hash become `_`. */
export function costModelPath(workspaceRoot: string, envHash: string): string {
  const safe = envHash.replace(/[^A-Za-z0-9._-]/g, '_') || 'default';
  return path.join(workspaceRoot, '.toffee', 'lcm', `${safe}.json`);
}

/**
 * The file's text: one line of JSON. `trainedByRuns` (the ids of the runs whose learning the model holds) rides
 * along as an extra field, so a run can say what it started from.
 */
export function serializeCostModel(model: LearnedCostModel, meta: { trainedByRuns?: readonly string[] } = {}): string {
  return `${JSON.stringify(meta.trainedByRuns ? { ...model.toJSON(), trainedByRuns: [...meta.trainedByRuns] } : model.toJSON())}\n`;
}

/** Writes the model atomically (readers see the old model or the new one, never half). */
export async function saveCostModel(filePath: string, model: LearnedCostModel, meta: { trainedByRuns?: readonly string[] } = {}): Promise<void> {
  await fs.mkdir(path.dirname(filePath), { recursive: true });
  writeFileAtomic(filePath, serializeCostModel(model, meta));
}

export interface LoadedCostModel {
  model: LearnedCostModel;
  /** Plain-words notes: corrupt or mismatched file, arms dropped or added. Empty on a clean load. */
  warnings: string[];
  /** Whether saved state was found and used (false: fresh model). */
  restored: boolean;
  /** Runs whose learning the file holds (as far as it recorded them; files from older versions record none). */
  trainedByRuns: string[];
}

/**
 * Loads the model saved at `filePath` for the given arms. Never throws for file problems: a missing file gives
 * a fresh model (no warning); an unreadable, non-JSON, corrupt or mismatched one a fresh model and a warning.
 */
export async function loadCostModel(filePath: string, arms: readonly ArmConfig[], options: LcmOptions = {}): Promise<LoadedCostModel> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const warnings = code === 'ENOENT' ? [] : [`learned cost model: cannot read ${filePath} (${code ?? String(error)}); starting a fresh model`];
    return { model: new LearnedCostModel(arms, options), warnings, restored: false, trainedByRuns: [] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      model: new LearnedCostModel(arms, options),
      warnings: [`learned cost model: ${filePath} is not valid JSON (${(error as Error).message}); starting a fresh model`],
      restored: false,
      trainedByRuns: [],
    };
  }
  const { model, warnings } = LearnedCostModel.fromJSON(data, arms, options);
  const restored = !warnings.some((w) => w.includes('starting a fresh model'));
  const runs = (data as { trainedByRuns?: unknown } | null)?.trainedByRuns;
  const trainedByRuns = restored && Array.isArray(runs) ? runs.filter((id): id is string => typeof id === 'string') : [];
  return { model, warnings, restored, trainedByRuns };
}
