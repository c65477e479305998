/** One interface for every model: OpenAI-compatible endpoints, VS Code language models, the offline simulated models. */

export interface ToolCallRequest {
  id: string;
  name: string;
  /** JSON text exactly as the model produced it (may be malformed; parse with the agent's tool schemas). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool offered to the model, in OpenAI's function-tool shape. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  reasoningEffort?: ReasoningEffort;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface Usage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export interface Completion {
  message: { content: string | null; toolCalls: ToolCallRequest[] };
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  /** Why generation stopped, as the endpoint reported it ('stop', 'tool_calls', 'length', …). */
  finishReason?: string;
  /** How tool calls travelled: the API's native tools, or the JSON-in-text fallback protocol. */
  toolProtocol?: 'native' | 'json-text';
  /** Attempts the provider made (1 = no retry). */
  attempts?: number;
  /** Plain-words notes, e.g. "price unknown for model X, cost counted as 0", "reasoning effort not supported". */
  warnings?: string[];
}

export interface ModelSpec {
  id: string;
  provider: string;
  /** USD per million input tokens. */
  inputPerMTok: number;
  outputPerMTok: number;
  /** USD per million cached (prompt-cache hit) input tokens; defaults to inputPerMTok. */
  cachedInputPerMTok?: number;
  contextWindow: number;
  supportsTools: boolean;
  supportsReasoningEffort: boolean;
  simulated: boolean;
}

/** The provider id of the offline simulated models (implemented in core/sim/, which plays a task's reference solution). */
export const OFFLINE_SIM_PROVIDER_ID = 'offline-sim';

export interface LlmProvider {
  readonly id: string;
  listModels(): Promise<ModelSpec[]>;
  complete(request: CompletionRequest): Promise<Completion>;
}

/**
 * A wrapper (a rate limit, a latency endpoint) keeps what its inner provider can be bound to: a simulated
 * provider's `withScript` (core/sim) is offered on the wrapper too, binding the inner provider and wrapping the bound
 * one again, so the episode's script reaches the simulation through any wrapper.
 */
export function keepScript<W extends LlmProvider>(inner: LlmProvider, wrapped: W, rewrap: (bound: LlmProvider) => LlmProvider): W {
  const bind = (inner as { withScript?: (script: unknown) => LlmProvider }).withScript;
  if (typeof bind !== 'function') return wrapped;
  return Object.assign(wrapped, { withScript: (script: unknown) => rewrap(bind.call(inner, script)) });
}
