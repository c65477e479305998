/**
 * SFT examples from trajectories, in three formats. The conversation is always the one the agent saw: the
 * system prompt, question and steps come from the one prompt builder (`buildPrompt`, full context) and the
 * observations are the one renderer's text already stored on each step — nothing is re-rendered here.
 *
 * The example ends with the assistant's final_answer call (its acknowledgement is not part of the episode the
 * model should learn), as in OpenAI's function-calling fine-tuning examples.
 */
import { buildPrompt } from '../agent/prompt';
import { tools as agentTools } from '../agent/tools';
import { FULL_CONTEXT } from '../agent/types';
import type { ChatMessage, ToolCallRequest, ToolDefinition } from '../llm/types';
import type { SelectionRecord } from './select';
import type { ExportTrajectory, PromptEnvironment } from './types';

// ---- OpenAI (canonical) ----

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[]; weight?: 0 | 1 }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiExample {
  messages: OpenAiMessage[];
  tools: ToolDefinition[];
  parallel_tool_calls: false;
}

export interface SftOptions {
  /** Put `weight: 0` on assistant turns whose error a later step repaired (OpenAI format only). */
  weightRepaired?: boolean;
  /** Tools offered to the model; defaults to the agent's tools. */
  tools?: ToolDefinition[];
}

/** The conversation as the agent's prompt builder lays it out, ending at the model's last action. */
export function trajectoryMessages(trajectory: ExportTrajectory, environment: PromptEnvironment, tools: ToolDefinition[] = agentTools): ChatMessage[] {
  const { messages } = buildPrompt({
    question: trajectory.task.question,
    profile: environment.profile,
    documents: environment.documents,
    history: trajectory.steps,
    contextLength: FULL_CONTEXT,
    tools,
  });
  const last = messages[messages.length - 1];
  const beforeLast = messages[messages.length - 2];
  // Drop final_answer's acknowledgement ("Final answer: …"): the episode ends with the call.
  if (last?.role === 'tool' && beforeLast?.role === 'assistant' && beforeLast.toolCalls?.some((c) => c.id === last.toolCallId && c.name === 'final_answer')) {
    messages.pop();
  }
  return messages;
}

/** The agent treats empty arguments as `{}`; fine-tuning APIs need JSON text. */
function argumentsText(call: ToolCallRequest): string {
  return call.arguments.trim() === '' ? '{}' : call.arguments;
}

/** Which assistant message (by position in `messages`) carries which step: one assistant message per step. */
function assistantStepIndexes(messages: ChatMessage[], trajectory: ExportTrajectory): Map<number, number> {
  const map = new Map<number, number>();
  let stepCursor = 0;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') map.set(i, trajectory.steps[stepCursor++]?.index ?? -1);
  });
  return map;
}

export function toOpenAiExample(trajectory: ExportTrajectory, environment: PromptEnvironment, options: SftOptions = {}): OpenAiExample {
  const tools = options.tools ?? agentTools;
  const messages = trajectoryMessages(trajectory, environment, tools);
  const stepOf = assistantStepIndexes(messages, trajectory);
  const repaired = new Set(trajectory.repairedStepIndexes);
  const out: OpenAiMessage[] = messages.map((m, i): OpenAiMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'assistant': {
        const message: OpenAiMessage = { role: 'assistant', content: m.content === '' ? null : m.content };
        if (m.toolCalls?.length) message.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: argumentsText(c) } }));
        if (options.weightRepaired && repaired.has(stepOf.get(i) ?? -1)) message.weight = 0;
        return message;
      }
    }
  });
  return { messages: out, tools, parallel_tool_calls: false };
}

// ---- Hugging Face (TRL / chat templates) ----

export interface HfToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: Record<string, unknown> };
}

export type HfMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: HfToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name: string };

export interface HfExample {
  messages: HfMessage[];
  tools: ToolDefinition[];
}

/** Parses tool-call arguments for formats that want objects; undefined when they are not a JSON object. */
export function parseArgumentsObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class UnexportableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexportableError';
  }
}

/**
 * Chat-template shape: object arguments (Qwen2.5 double-encodes string ones) and `""` for null content.
 * Derived from the OpenAI example so the two never disagree. Throws UnexportableError when a call's arguments
 * are not a JSON object (the OpenAI validator reports the same example as `arguments-json`).
 */
export function toHfExample(openai: OpenAiExample): HfExample {
  const names = new Map<string, string>();
  const messages = openai.messages.map((m, i): HfMessage => {
    if (m.role === 'system' || m.role === 'user') return { role: m.role, content: m.content };
    if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.tool_call_id, name: names.get(m.tool_call_id) ?? '' };
    const message: HfMessage = { role: 'assistant', content: m.content ?? '' };
    if (m.tool_calls?.length) {
      message.tool_calls = m.tool_calls.map((c) => {
        const args = parseArgumentsObject(c.function.arguments);
        if (!args) throw new UnexportableError(`message ${i}: arguments of ${c.function.name} are not a JSON object`);
        names.set(c.id, c.function.name);
        return { id: c.id, type: 'function', function: { name: c.function.name, arguments: args } };
      });
    }
    return message;
  });
  return { messages, tools: openai.tools };
}

// ---- ShareGPT (LLaMA-Factory) ----

export type ShareGptRole = 'human' | 'gpt' | 'function_call' | 'observation';

export interface ShareGptExample {
  conversations: Array<{ from: ShareGptRole; value: string }>;
  system: string;
  /** JSON text of the function declarations, as LLaMA-Factory reads it. */
  tools: string;
}

/**
 * LLaMA-Factory's tool-calling layout. A function_call turn holds only `{name, arguments}`, so the assistant's
 * thought before a call is not carried (the openai and hf formats keep it).
 */
export function toShareGptExample(openai: OpenAiExample): ShareGptExample {
  const system = openai.messages[0]?.role === 'system' ? openai.messages[0].content : '';
  const conversations: ShareGptExample['conversations'] = [];
  for (const m of openai.messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') conversations.push({ from: 'human', value: m.content });
    else if (m.role === 'tool') conversations.push({ from: 'observation', value: m.content });
    else if (m.tool_calls?.length) {
      const [call] = m.tool_calls; // parallel_tool_calls is false: one call per turn
      const args = parseArgumentsObject(call.function.arguments);
      if (!args) throw new UnexportableError(`arguments of ${call.function.name} are not a JSON object`);
      conversations.push({ from: 'function_call', value: JSON.stringify({ name: call.function.name, arguments: args }) });
    } else conversations.push({ from: 'gpt', value: m.content ?? '' });
  }
  return { conversations, system, tools: JSON.stringify(openai.tools.map((t) => t.function)) };
}

/** The `dataset_info.json` entries LLaMA-Factory needs to load the ShareGPT files. */
export function shareGptDatasetInfo(name: string, files: { train: string; validation?: string }): Record<string, unknown> {
  const entry = (fileName: string) => ({
    file_name: fileName,
    formatting: 'sharegpt',
    columns: { messages: 'conversations', system: 'system', tools: 'tools' },
    tags: { role_tag: 'from', content_tag: 'value', user_tag: 'human', assistant_tag: 'gpt', observation_tag: 'observation', function_tag: 'function_call', system_tag: 'system' },
  });
  const info: Record<string, unknown> = { [name]: entry(files.train) };
  if (files.validation) info[`${name}_validation`] = entry(files.validation);
  return info;
}

// ---- sidecar metadata and the split ----

export interface ExampleMetadata {
  trajectoryId: string;
  runId: string;
  taskId: string;
  family: string;
  level: string;
  question: string;
  split: 'train' | 'validation';
  quality: number;
  verified: boolean;
  hasRepair: boolean;
  repairedStepIndexes: number[];
  curation: string | null;
  rubric: ExportTrajectory['rubric'] | null;
  simulated: boolean;
  steps: Array<{ index: number; provider: string; model: string; simulated: boolean; tool: string | null; ok: boolean }>;
  /** Estimated tokens of the example rendered through each chat template (set by the export's render check). */
  tokens?: Partial<Record<string, { total: number; assistant: number }>>;
  /** How rubric-based selection chose this example (set by the export; see select.ts). */
  selection?: SelectionRecord;
  /** Tables, columns and literals the grounding audit found no source for (set by the export; see grounding.ts). */
  ungrounded?: Array<{ step: number; kind: string; text: string; why: string }>;
}

export function exampleMetadata(trajectory: ExportTrajectory, split: 'train' | 'validation'): ExampleMetadata {
  return {
    trajectoryId: trajectory.trajectoryId,
    runId: trajectory.runId,
    taskId: trajectory.task.id,
    family: trajectory.task.family,
    level: trajectory.task.difficulty.level,
    question: trajectory.task.question,
    split,
    quality: trajectory.quality,
    verified: trajectory.verified,
    hasRepair: trajectory.hasRepair,
    repairedStepIndexes: trajectory.repairedStepIndexes,
    curation: trajectory.curation ?? null,
    rubric: trajectory.rubric ?? null,
    simulated: trajectory.simulated,
    steps: trajectory.steps.map((s) => ({ index: s.index, provider: s.config.provider, model: s.config.model, simulated: s.config.simulated, tool: s.toolCall?.name ?? null, ok: s.observation.ok })),
  };
}

/** FNV-1a: a stable, dependency-free order for task ids. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Assigns whole tasks to validation, so no task is on both sides: tasks ordered by a hash of their id, the first
 * round(n × fraction) (at least one when there are two or more tasks and fraction > 0, never all) go to validation.
 */
export function splitTasks(taskIds: Iterable<string>, validationFraction: number): { train: Set<string>; validation: Set<string> } {
  if (!(validationFraction >= 0 && validationFraction < 1)) throw new RangeError(`the validation fraction must be in [0, 1), not ${validationFraction}`);
  const ids = [...new Set(taskIds)].sort((a, b) => hash32(a) - hash32(b) || (a < b ? -1 : a > b ? 1 : 0));
  let count = Math.round(ids.length * validationFraction);
  if (validationFraction > 0 && ids.length >= 2) count = Math.min(ids.length - 1, Math.max(1, count));
  if (ids.length < 2) count = 0;
  return { validation: new Set(ids.slice(0, count)), train: new Set(ids.slice(count)) };
}
