/**
 * Baselines with the same budget, providers, verifier and cleaning filters as the explorer: single-shot (one
 * linear episode) and best-of-N (N independent episodes, the best admitted one kept). MCTS with one fixed
 * config and no cost model is `runSearch` with `fixedConfigPolicy`.
 */
import { applyStep } from '../agent/episode';
import { repairedErrorIndices } from '../agent/steps';
import type { AgentState, AgentStep } from '../agent/types';
import type { ArmConfig } from '../lcm/types';
import type { TaskSpec } from '../taskpool/types';
import type { TrajectoryRecord } from './search';
import type { StepRunner } from './stepRunner';
import { CleaningOptions, DEFAULT_CLEANING, RejectionReason, Verification, cleaningRejection, verifyTrajectory } from './verifier';

export interface EpisodesOptions {
  /** Independent episodes (1 = single-shot). */
  episodes: number;
  budgetUsd: number;
  maxSteps?: number;
  cleaning?: CleaningOptions;
  signal?: AbortSignal;
  /**
   * Expected USD cost of the next step at a depth (the cost model's price prior). A step is not started when it
   * would not fit the remaining budget — the same rule the explorer's configs are held to.
   */
  estimateStepCostUsd?: (depth: number) => number | undefined;
  /** The first episode's number (default 0): an attempt run on its own, as a script running them concurrently would. */
  firstEpisode?: number;
}

export interface EpisodesResult {
  admitted: TrajectoryRecord[];
  rejected: Array<{ trajectoryId: string; reason: RejectionReason }>;
  /** The verifications of the episodes not admitted (rejected, or stopped by the budget before an answer). */
  unadmitted: Verification[];
  spentUsd: number;
  calls: number;
  episodesRun: number;
  bestQuality: number;
  elapsedMs: number;
}

/** Runs up to `episodes` linear episodes with one config, each with its own attempt seed, within the budget. */
export async function runEpisodes(task: TaskSpec, runner: StepRunner, arm: ArmConfig, options: EpisodesOptions): Promise<EpisodesResult> {
  const started = Date.now();
  const maxSteps = options.maxSteps ?? 10;
  const cleaning = options.cleaning ?? DEFAULT_CLEANING;
  const admitted: TrajectoryRecord[] = [];
  const rejected: EpisodesResult['rejected'] = [];
  const unadmitted: Verification[] = [];
  let spentUsd = 0;
  let calls = 0;
  let episodesRun = 0;
  // Observed step costs blended with the price prior as two pseudo-observations, as the cost model does.
  let observedSum = 0;
  let observed = 0;
  const expectedStep = (depth: number): number => {
    const prior = options.estimateStepCostUsd?.(depth);
    if (prior === undefined) return observed ? observedSum / observed : 0;
    return (2 * prior + observedSum) / (2 + observed);
  };
  const first = options.firstEpisode ?? 0;
  for (let episode = first; episode < first + options.episodes; episode++) {
    if (options.signal?.aborted || spentUsd + expectedStep(0) > options.budgetUsd) break;
    episodesRun++;
    let state: AgentState = { task: { question: task.question, taskId: task.id }, steps: [] };
    let stoppedEarly = false;
    while (state.steps.length < maxSteps && !state.finalAnswer) {
      const expected = expectedStep(state.steps.length);
      if (options.signal?.aborted || spentUsd >= options.budgetUsd || spentUsd + expected > options.budgetUsd) {
        stoppedEarly = true;
        break;
      }
      let step: AgentStep;
      try {
        // Attempt seeds far apart from the explorer's node indices, distinct per episode.
        step = await runner.step({ state, arm, attempt: 100_000 + episode, prefixKeys: [], signal: options.signal });
      } catch {
        break;
      }
      calls++;
      spentUsd += step.costUsd;
      observedSum += step.costUsd;
      observed++;
      state = applyStep(state, step);
    }
    const trajectoryId = `${task.id}/episode-${episode}`;
    const verification = verifyTrajectory(task, state.steps);
    const reason = cleaningRejection(state.steps, verification, cleaning, task.evidence.length);
    if (reason === undefined && !stoppedEarly) {
      admitted.push({
        trajectoryId,
        taskId: task.id,
        nodeIndices: [],
        steps: state.steps,
        verification,
        hasRepair: repairedErrorIndices(state.steps).length > 0,
        costUsd: state.steps.reduce((s, p) => s + p.costUsd, 0),
      });
    } else {
      rejected.push({ trajectoryId, reason: reason ?? 'no-answer' });
      unadmitted.push(verification);
    }
  }
  const bestQuality = admitted.reduce((best, t) => Math.max(best, t.verification.quality), 0);
  return { admitted, rejected, unadmitted, spentUsd, calls, episodesRun, bestQuality, elapsedMs: Date.now() - started };
}
