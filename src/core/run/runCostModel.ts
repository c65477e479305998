/**
 * The run's cost model = its run-start snapshot plus every finished task's delta, applied in task order. A single
 * process (as its tasks finish, and again when it resumes), `toffee merge` and the queue collector all compute it
 * this way, so they agree bit for bit. The run-start snapshot is the model the run started from (the environment's,
 * kept per environment shape under the data folder and learning across runs, unless lcm/location.ts says otherwise).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvironmentProfile } from '../env/types';
import { LearnedCostModel, saveCostModel, type ArmConfig } from '../lcm/index';
import type { RunState } from '../store/runState';

export const RUN_COST_MODEL_FILE = 'costModel.json';
export const RUN_COST_MODEL_START_FILE = 'costModel.start.json';

/** A short stable hash of an environment's shape: the cost model is kept per environment. */
export function environmentHash(profile: EnvironmentProfile): string {
  const shape = profile.tables.map((t) => `${t.name}:${t.rowCount}:${t.columns.map((c) => `${c.name}/${c.type}`).join(',')}`).join('|');
  return createHash('sha256').update(shape).digest('hex').slice(0, 16);
}

/** Restores a saved model with the arms it was saved with (no cost prior: the result is stored, not used to decide). */
export function modelFromSavedJson(data: unknown): { model: LearnedCostModel; warnings: string[] } {
  const arms = (data as { arms?: Array<{ arm?: ArmConfig }> } | null)?.arms;
  const configs = Array.isArray(arms) ? arms.map((a) => a?.arm).filter((a): a is ArmConfig => !!a && typeof a === 'object') : [];
  if (configs.length === 0) throw new Error('the saved cost model has no arms');
  return LearnedCostModel.fromJSON(data, configs);
}

export function readRunStartModel(runDir: string): LearnedCostModel {
  const file = path.join(runDir, RUN_COST_MODEL_START_FILE);
  if (!fs.existsSync(file)) throw new Error(`${runDir} has no ${RUN_COST_MODEL_START_FILE} (a run from an older version)`);
  return modelFromSavedJson(JSON.parse(fs.readFileSync(file, 'utf8'))).model;
}

/** The deltas of the finished tasks in `taskOrder`; warnings for finished tasks without one. */
export function foldTaskDeltas(start: LearnedCostModel, state: RunState, taskOrder: readonly string[]): { model: LearnedCostModel; warnings: string[] } {
  const model = start.clone();
  const warnings: string[] = [];
  for (const taskId of taskOrder) {
    const finished = state.finishedTasks.get(taskId);
    if (!finished) continue;
    if (!finished.costModelDelta || !Array.isArray(finished.costModelDelta.arms)) {
      warnings.push(`task ${taskId} has no cost model delta; its learning is not merged`);
      continue;
    }
    warnings.push(...model.applyDelta(finished.costModelDelta));
  }
  return { model, warnings };
}

export async function writeRunCostModels(runDir: string, start: LearnedCostModel, model: LearnedCostModel): Promise<void> {
  await saveCostModel(path.join(runDir, RUN_COST_MODEL_START_FILE), start);
  await saveCostModel(path.join(runDir, RUN_COST_MODEL_FILE), model);
}
