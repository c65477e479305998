/**
 * One agent step (prompt → completion → tool call → observation) and a linear episode built from it.
 * The explorer branches over `runStep`; `runEpisode` is the no-search path used by `toffee ask` and baselines.
 */
import type { LlmProvider, ReasoningEffort, ToolCallRequest, Usage } from '../llm/types';
import { auditStep, groundingSourcesFor } from './grounding';
import { buildPrompt } from './prompt';
import { renderError } from './render';
import { executeToolCall, Observation, ToolContext, tools } from './tools';
import { AgentState, AgentStep, AgentTask, ContextLength, FULL_CONTEXT } from './types';

export interface AgentConfig {
  provider: LlmProvider;
  model: string;
  contextLength?: ContextLength;
  reasoningEffort?: ReasoningEffort;
  maxTokens?: number;
  /** Whether the model is simulated; recorded on every step. Looked up from the provider's models when absent. */
  simulated?: boolean;
}

export interface StepInput {
  state: AgentState;
  config: AgentConfig;
  toolContext: ToolContext;
  signal?: AbortSignal;
  /**
   * Executes the model's tool call instead of `executeToolCall(toolContext, call)` — the explorer routes calls
   * through its shared prefix cache. Must never throw (bad calls are error observations).
   */
  execute?: (call: ToolCallRequest) => Promise<Observation>;
}

/**
 * Runs one step from `state` without changing it and returns the new step. Provider failures throw
 * (an LlmError from real providers); bad tool calls never do — they become error observations.
 */
export async function runStep(input: StepInput): Promise<AgentStep> {
  const { state, config, toolContext } = input;
  const contextLength = config.contextLength ?? FULL_CONTEXT;
  const prompt = buildPrompt({
    question: state.task.question,
    profile: toolContext.profile,
    documents: toolContext.documents,
    history: state.steps,
    contextLength,
    tools,
  });
  const completion = await config.provider.complete({
    model: config.model,
    messages: prompt.messages,
    tools,
    reasoningEffort: config.reasoningEffort,
    maxTokens: config.maxTokens,
    signal: input.signal,
  });
  const index = state.steps.length;
  const [first, ...rest] = completion.message.toolCalls;
  let observation: Observation;
  let toolCall = first;
  if (first) {
    toolCall = { ...first, id: first.id || `call_${index}` };
    observation = input.execute
      ? await input.execute(toolCall)
      : await executeToolCall({ ...toolContext, signal: input.signal ?? toolContext.signal }, toolCall);
  } else {
    const message = 'no tool call was made. Call one of the tools, or final_answer when you have the answer.';
    observation = { ok: false, tool: '(none)', data: { kind: 'error', message }, text: renderError(message), errorKind: 'invalid_arguments', elapsedMs: 0 };
  }
  const step: AgentStep = {
    index,
    thought: completion.message.content ?? '',
    toolCall,
    ignoredToolCalls: rest.length || undefined,
    observation,
    usage: completion.usage,
    costUsd: completion.costUsd,
    latencyMs: completion.latencyMs,
    config: {
      provider: config.provider.id,
      model: config.model,
      contextLength,
      reasoningEffort: config.reasoningEffort,
      simulated: config.simulated ?? false,
    },
    promptTokensEstimate: prompt.estimatedTokens,
    droppedSteps: prompt.droppedSteps,
  };
  // Audited against the full history, as the exported conversation shows it (not only the steps this prompt kept).
  // The audit is a record, not a tool: should it ever fail, the step stays unaudited rather than the episode failing.
  try {
    step.grounding = auditStep(step, state.steps, groundingSourcesFor(state.task.question, toolContext.profile, toolContext.documents));
  } catch {
    step.grounding = undefined;
  }
  return step;
}

/** The state after a step: final_answer ends the episode only when its arguments were valid. */
export function applyStep(state: AgentState, step: AgentStep): AgentState {
  const next: AgentState = { task: state.task, steps: [...state.steps, step] };
  if (step.observation.ok && step.observation.data.kind === 'final') {
    next.finalAnswer = { answer: step.observation.data.answer, explanation: step.observation.data.explanation };
  }
  return next;
}

export type StopReason = 'final_answer' | 'max_steps' | 'aborted' | 'provider_error';

export interface EpisodeResult {
  state: AgentState;
  steps: AgentStep[];
  stopReason: StopReason;
  /** The provider's error message when stopReason is provider_error. */
  error?: string;
  errorKind?: string;
  totals: { usage: Usage; costUsd: number; latencyMs: number; steps: number; errorSteps: number };
}

export interface EpisodeInput {
  task: AgentTask;
  config: AgentConfig;
  toolContext: ToolContext;
  maxSteps?: number;
  signal?: AbortSignal;
  /** Called after each step, e.g. to print it as it happens. */
  onStep?: (step: AgentStep) => void;
}

export function totalsOf(steps: AgentStep[]): EpisodeResult['totals'] {
  const usage: Usage = { prompt: 0, completion: 0 };
  let costUsd = 0;
  let latencyMs = 0;
  for (const s of steps) {
    usage.prompt += s.usage.prompt;
    usage.completion += s.usage.completion;
    if (s.usage.cached) usage.cached = (usage.cached ?? 0) + s.usage.cached;
    if (s.usage.reasoning) usage.reasoning = (usage.reasoning ?? 0) + s.usage.reasoning;
    costUsd += s.costUsd;
    latencyMs += s.latencyMs;
  }
  return { usage, costUsd, latencyMs, steps: steps.length, errorSteps: steps.filter((s) => !s.observation.ok).length };
}

/** Runs steps until final_answer, max steps, abort, or a provider failure. */
export async function runEpisode(input: EpisodeInput): Promise<EpisodeResult> {
  const maxSteps = input.maxSteps ?? 12;
  let config = input.config;
  if (config.simulated === undefined) {
    const models = await config.provider.listModels().catch(() => []);
    config = { ...config, simulated: models.find((m) => m.id === config.model)?.simulated ?? false };
  }
  let state: AgentState = { task: input.task, steps: [] };
  const finish = (stopReason: StopReason, error?: unknown): EpisodeResult => {
    const result: EpisodeResult = { state, steps: state.steps, stopReason, totals: totalsOf(state.steps) };
    if (error !== undefined) {
      result.error = error instanceof Error ? error.message : String(error);
      const kind = (error as { kind?: unknown }).kind;
      if (typeof kind === 'string') result.errorKind = kind;
    }
    return result;
  };
  while (state.steps.length < maxSteps) {
    if (input.signal?.aborted) return finish('aborted');
    let step: AgentStep;
    try {
      step = await runStep({ state, config, toolContext: input.toolContext, signal: input.signal });
    } catch (error) {
      if (input.signal?.aborted) return finish('aborted');
      return finish('provider_error', error);
    }
    state = applyStep(state, step);
    input.onStep?.(step);
    if (state.finalAnswer) return finish('final_answer');
  }
  return finish('max_steps');
}
