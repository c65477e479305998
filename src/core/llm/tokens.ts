/**
 * Token estimates where no tokenizer counted: the prompt builder's context cut, the simulated models' usage, an
 * endpoint that omits usage, and export's fallback counter. One rule of thumb for all of them.
 */
import type { ChatMessage, ToolDefinition } from './types';

/** ~4 characters per token: the usual rule of thumb for English and code with GPT-style tokenizers. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A request's prompt tokens: each message's text and tool calls with its framing, and the tools offered. */
export function estimateMessagesTokens(messages: readonly ChatMessage[], tools: readonly ToolDefinition[] = []): number {
  let chars = 0;
  for (const m of messages) {
    chars += 4 * 4; // role and framing overhead per message
    if (m.content) chars += m.content.length;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length + 16;
  }
  if (tools.length) chars += JSON.stringify(tools).length;
  return Math.ceil(chars / 4);
}
