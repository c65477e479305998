import { LlmError } from './errors';
import type { ChatMessage, ToolCallRequest, ToolDefinition } from './types';

/**
 * Pure mapping between our ChatMessage and the shapes of VS Code's language-model API, kept in core (plain
 * objects, no `vscode` import) so it can be unit-tested; src/host/lm turns these descriptors into real
 * LanguageModelChatMessage / ToolCallPart / ToolResultPart objects.
 */

export type LmPartDescriptor =
  | { kind: 'text'; value: string }
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; text: string };

export interface LmMessageDescriptor {
  /** vscode.lm has only User and Assistant roles: system text travels as a leading user message. */
  role: 'user' | 'assistant';
  parts: LmPartDescriptor[];
}

export interface LmToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function toLmTools(tools: readonly ToolDefinition[] | undefined): LmToolDescriptor[] {
  return (tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    inputSchema: tool.function.parameters,
  }));
}

/**
 * ChatMessage[] → LM messages. Rules: system messages become user text (prefixed so the model knows they are
 * instructions); consecutive tool results merge into one user message right after the assistant's calls (as
 * the API requires); a tool call whose arguments are not a JSON object is passed as {"arguments_text": raw}
 * so the history is preserved rather than dropped.
 */
export function toLmMessages(messages: readonly ChatMessage[]): LmMessageDescriptor[] {
  const out: LmMessageDescriptor[] = [];
  const push = (role: 'user' | 'assistant', part: LmPartDescriptor, mergeWithPrevious: boolean): void => {
    const last = out[out.length - 1];
    if (mergeWithPrevious && last && last.role === role) last.parts.push(part);
    else out.push({ role, parts: [part] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        push('user', { kind: 'text', value: `Instructions:\n${message.content}` }, false);
        break;
      case 'user':
        push('user', { kind: 'text', value: message.content }, false);
        break;
      case 'assistant': {
        const parts: LmPartDescriptor[] = [];
        if (message.content) parts.push({ kind: 'text', value: message.content });
        for (const call of message.toolCalls ?? []) {
          parts.push({ kind: 'toolCall', callId: call.id, name: call.name, input: argumentsAsObject(call.arguments) });
        }
        if (parts.length === 0) parts.push({ kind: 'text', value: '' });
        out.push({ role: 'assistant', parts });
        break;
      }
      case 'tool': {
        const last = out[out.length - 1];
        const mergeable = last?.role === 'user' && last.parts.every((p) => p.kind === 'toolResult');
        push('user', { kind: 'toolResult', callId: message.toolCallId, text: message.content }, mergeable);
        break;
      }
    }
  }
  return out;
}

function argumentsAsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // kept below as raw text
  }
  return { arguments_text: text };
}

/** Response parts (text and tool calls, in stream order) → our completion message. */
export function fromLmResponseParts(
  parts: ReadonlyArray<{ kind: 'text'; value: string } | { kind: 'toolCall'; callId: string; name: string; input: unknown }>,
): { content: string | null; toolCalls: ToolCallRequest[] } {
  let text = '';
  let sawText = false;
  const toolCalls: ToolCallRequest[] = [];
  for (const part of parts) {
    if (part.kind === 'text') {
      text += part.value;
      sawText = true;
    } else {
      toolCalls.push({
        id: part.callId || `call_${toolCalls.length + 1}`,
        name: part.name,
        arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}),
      });
    }
  }
  return { content: sawText && text !== '' ? text : null, toolCalls };
}

/**
 * vscode.LanguageModelError (code = 'NoPermissions' | 'Blocked' | 'NotFound' | other) → LlmError in plain words.
 * `code` and `message` are passed as plain strings so this stays testable without VS Code.
 */
export function lmErrorToLlmError(code: string | undefined, message: string, modelName: string): LlmError {
  switch (code) {
    case 'NoPermissions':
      return new LlmError(
        'consent',
        `VS Code has not been allowed to let TOFFEE use the language model "${modelName}". Run the command again and accept the consent prompt (or allow it under Accounts → Manage Language Model Access).`,
        false,
        { detail: message },
      );
    case 'Blocked':
      return new LlmError(
        'quota',
        `The language model "${modelName}" is blocked for TOFFEE right now, usually because a usage quota or rate limit was reached. Try later or pick another model.`,
        false,
        { detail: message },
      );
    case 'NotFound':
      return new LlmError('bad_request', `The language model "${modelName}" is no longer available in VS Code. Pick another model.`, false, {
        detail: message,
      });
    default:
      if (/rate.?limit|too many requests|429/i.test(message)) {
        return new LlmError('rate_limit', `The language model "${modelName}" is rate limiting requests.`, true, { detail: message });
      }
      if (/quota|exceeded/i.test(message)) {
        return new LlmError('quota', `The language model "${modelName}" reported that a quota was exceeded.`, false, { detail: message });
      }
      if (/cancel/i.test(message)) return new LlmError('cancelled', 'The model request was cancelled.', false, { detail: message });
      return new LlmError('server', `The language model "${modelName}" failed: ${message || 'unknown error'}`, true, { detail: message });
  }
}
