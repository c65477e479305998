/**
 * Exploring one task, the unit every execution mode shares (a single process, a shard, a queue worker).
 * The task explores from a copy of the run-start snapshot of the learned cost model, never from a model that
 * other tasks of the same run have already updated: its exploration, and so the run's output for a seed, does
 * not depend on which tasks ran before it or where. What the copy learned is returned as a delta (LinUCB's
 * sufficient statistics are additive) for the run's model, merged in task-pool order.
 */
import { costModelPolicy } from '../explorer/policy';
import { runSearch, type SearchResult } from '../explorer/search';
import { createStepRunner } from '../explorer/stepRunner';
import { freshPythonRunner, type PrefixCache } from '../explorer/prefixCache';
import type { CleaningOptions } from '../explorer/verifier';
import type { ToolContext } from '../agent/tools';
import type { CostModelDelta, LearnedCostModel } from '../lcm/index';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { RunEventInput } from '../store/events';
import type { TaskSpec } from '../taskpool/types';
import type { RubricJudge } from '../explorer/judge';
import type { AgentSession } from '../agent/session';

/** The tool context the explorer uses: the session's, with every Python call in a clean namespace. */
export function explorerToolContext(session: AgentSession): ToolContext {
  return { ...session.toolContext, python: freshPythonRunner(session.python) };
}

export interface TaskExplorationContext {
  providers: readonly LlmProvider[];
  models: readonly ModelSpec[];
  toolContext: ToolContext;
  prefixCache: PrefixCache;
  seed: number;
  /** The run-start snapshot; never modified here. */
  runStartModel: LearnedCostModel;
  budgetUsd: number;
  /** Model calls this task may make (the run's cap less what it has used). */
  maxCalls?: number;
  maxK?: number;
  maxDepth?: number;
  targetAdmitted?: number;
  cleaning: CleaningOptions;
  judge?: RubricJudge;
}

export interface TaskExploration {
  result: SearchResult;
  costModelDelta: CostModelDelta;
  /** Simulated provider latency the search would have waited, ms. */
  providerLatencyMs: number;
}

export async function exploreTask(
  task: TaskSpec,
  context: TaskExplorationContext,
  options: { signal?: AbortSignal; onEvents?: (events: RunEventInput[]) => void } = {},
): Promise<TaskExploration> {
  const taskModel = context.runStartModel.clone();
  const runner = createStepRunner({
    task,
    providers: context.providers,
    models: context.models,
    toolContext: context.toolContext,
    prefixCache: context.prefixCache,
    seed: context.seed,
  });
  const result = await runSearch(task, runner, costModelPolicy(taskModel), {
    budgetUsd: context.budgetUsd,
    maxCalls: context.maxCalls,
    maxK: context.maxK,
    maxDepth: context.maxDepth,
    targetAdmitted: context.targetAdmitted,
    cleaning: context.cleaning,
    judge: context.judge,
    signal: options.signal,
    onEvents: options.onEvents,
  });
  return {
    result,
    costModelDelta: taskModel.deltaFrom(context.runStartModel),
    providerLatencyMs: result.tree.nodes.reduce((s, n) => s + (n.step?.latencyMs ?? 0), 0),
  };
}
