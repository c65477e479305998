/**
 * The run's cost model = its run-start snapshot plus every finished task's delta, applied in task-pool order.
 * A single process, `toffee merge` and the queue collector all compute it this way, so they agree bit for bit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LearnedCostModel, saveCostModel, type ArmConfig, type CostModelDelta } from '../lcm/index';
import type { RunState } from '../store/runState';

export const RUN_COST_MODEL_FILE = 'costModel.json';
export const RUN_COST_MODEL_START_FILE = 'costModel.start.json';

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
    const finished = state.finishedTasks.get(taskId) as { costModelDelta?: CostModelDelta } | undefined;
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
