/** The agent's state: a question, the steps taken so far, and how each was produced. */
import type { ReasoningEffort, ToolCallRequest, Usage } from '../llm/types';
import type { Observation } from './tools';

/**
 * How much history the prompt keeps: everything, or only the last k steps (earlier ones are replaced by a
 * one-line-per-step note). A knob the cost model turns: shorter is cheaper and more forgetful.
 */
export type ContextLength = { mode: 'full' } | { mode: 'last-k'; k: number };

export const FULL_CONTEXT: ContextLength = { mode: 'full' };

export function contextLengthLabel(context: ContextLength): string {
  return context.mode === 'full' ? 'full' : `last-${context.k}`;
}

/** Parses 'full' or 'last-3' (also a bare number of steps). */
export function parseContextLength(text: string): ContextLength | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'full') return FULL_CONTEXT;
  const match = /^(?:last-)?(\d+)$/.exec(trimmed);
  if (!match) return undefined;
  const k = Number(match[1]);
  return k >= 1 ? { mode: 'last-k', k } : undefined;
}

/** Who produced a step: the provider/model configuration the explorer's cost model chooses among. */
export interface StepConfig {
  provider: string;
  model: string;
  contextLength: ContextLength;
  reasoningEffort?: ReasoningEffort;
  simulated: boolean;
}

/** One step: one model completion, the (first) tool call it made, and that call's observation. */
export interface AgentStep {
  index: number;
  /** The model's text before its tool call (its reasoning as shown). */
  thought: string;
  /** Absent when the model answered with text only; the observation then says a tool call was expected. */
  toolCall?: ToolCallRequest;
  /** Extra tool calls in the same completion, not executed (one call per step keeps the tree's edges simple). */
  ignoredToolCalls?: number;
  observation: Observation;
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  config: StepConfig;
  /** Prompt size as sent, and how many earlier steps the context length dropped. */
  promptTokensEstimate: number;
  droppedSteps: number;
  /** The grounding audit of this step's call against what was shown before it (recorded by `runStep`). */
  grounding?: StepGrounding;
}

export interface AgentTask {
  question: string;
  /** Present for tasks from the task pool; simulated models need it. */
  taskId?: string;
}

export interface AgentState {
  task: AgentTask;
  steps: AgentStep[];
  /** Set once a step called final_answer successfully. */
  finalAnswer?: { answer: string; explanation: string };
}

export type UngroundedKind = 'table' | 'column' | 'literal';

/** A name or value a tool call used that nothing shown before it contains. */
export interface UngroundedItem {
  kind: UngroundedKind;
  /** As the call wrote it (a string without its quotes). */
  text: string;
  why: string;
}

/** The audit of one step (agent/grounding.ts computes it). */
export interface StepGrounding {
  ungrounded: UngroundedItem[];
  /** Earlier steps whose observation alone supplied a literal this call uses (the question and system prompt did not). */
  readsFrom: number[];
}
