/**
 * The search's step runner: from a state with a config, one step proposed by the config's model and executed in
 * the sandbox (through the prefix cache when given), exactly as `toffee ask` runs it. A scripted provider (the
 * offline simulator) is bound to the task as its script. A provider that fails yields an error step, never a crash.
 */
import { runStep } from '../agent/episode';
import { renderError } from '../agent/render';
import type { ToolContext } from '../agent/tools';
import { AgentState, AgentStep, FULL_CONTEXT } from '../agent/types';
import { armId as idOfArm } from '../lcm/arms';
import type { ArmConfig } from '../lcm/types';
import { forScript } from '../sim/simulatedProvider';
import type { LlmProvider, ModelSpec } from '../llm/types';
import type { TaskSpec } from '../taskpool/types';
import type { PrefixCache } from './prefixCache';

/** Proposes and executes one step from a state with a config; never throws for tool problems. */
export interface StepRunner {
  step(input: { state: AgentState; arm: ArmConfig; attempt: number; prefixKeys: string[]; signal?: AbortSignal }): Promise<AgentStep>;
}

export interface StepRunnerOptions {
  task: TaskSpec;
  providers: readonly LlmProvider[];
  models: readonly ModelSpec[];
  toolContext: ToolContext;
  /** Tool calls go through it when given (the explorer); baselines execute directly. */
  prefixCache?: PrefixCache;
  seed: number;
}

export function agentConfigOf(arm: ArmConfig): { contextLength: AgentStep['config']['contextLength'] } {
  return { contextLength: arm.contextLength === 'full' ? FULL_CONTEXT : { mode: 'last-k', k: arm.lastK ?? 4 } };
}

/**
 * Steps through `runStep` (the agent's one prompt → completion → tool call → observation), so every provider,
 * real or simulated, sees exactly the prompt `toffee ask` sends. Simulated models get the task as their script.
 */
export function createStepRunner(options: StepRunnerOptions): StepRunner {
  const byId = new Map(options.providers.map((p) => [p.id, p]));
  return {
    async step({ state, arm, attempt, prefixKeys, signal }) {
      const listed = byId.get(arm.provider);
      if (!listed) throw new Error(`no provider '${arm.provider}' for arm ${idOfArm(arm)}`);
      const spec = options.models.find((m) => m.provider === arm.provider && m.id === arm.model);
      const cache = options.prefixCache;
      // A scripted provider (the offline simulator) plays this task's episode; any other provider is itself.
      const provider = forScript(listed, { task: options.task, seed: options.seed, attempt });
      return runStep({
        state,
        config: { provider, model: arm.model, reasoningEffort: arm.reasoningEffort, simulated: spec?.simulated ?? false, ...agentConfigOf(arm) },
        toolContext: options.toolContext,
        signal,
        execute: cache ? async (call) => (await cache.execute(options.task.id, prefixKeys, call, signal)).observation : undefined,
      });
    },
  };
}


/** The step a provider failure leaves: an error observation the search can repair from (never a crash). */
export function providerFailureStep(index: number, arm: ArmConfig, message: string): AgentStep {
  return {
    index,
    thought: '',
    observation: { ok: false, tool: '(provider)', data: { kind: 'error', message }, text: renderError(message), errorKind: 'unavailable', elapsedMs: 0 },
    usage: { prompt: 0, completion: 0 },
    costUsd: 0,
    latencyMs: 0,
    config: { provider: arm.provider, model: arm.model, ...agentConfigOf(arm), reasoningEffort: arm.reasoningEffort, simulated: false },
    promptTokensEstimate: 0,
    droppedSteps: 0,
  };
}
