import type { ChatMessage, ToolCallRequest, ToolDefinition } from './types';

/**
 * Fallback for endpoints without native tool calling: tools are described in the system prompt, the model
 * answers with a JSON object in its text, and we parse that reply defensively (fenced ```json blocks, bare
 * objects amid prose, single quotes and trailing commas where repair is unambiguous).
 */

export function jsonToolInstructions(tools: readonly ToolDefinition[]): string {
  const described = tools
    .map((tool) => {
      const schema = JSON.stringify(tool.function.parameters);
      return `- ${tool.function.name}: ${tool.function.description}\n  arguments JSON schema: ${schema}`;
    })
    .join('\n');
  return [
    'You can call tools. This endpoint has no native tool calling, so call a tool by replying with exactly one',
    'JSON object in a ```json fenced block, of the form:',
    '```json',
    '{"tool": "<tool name>", "arguments": { ... }}',
    '```',
    'Call one tool per reply and wait for its result, which arrives in the next user message.',
    'You may write one short sentence of reasoning before the block; write nothing after it.',
    'Available tools:',
    described,
  ].join('\n');
}

/**
 * Rewrite a conversation for the JSON-in-text protocol: tool instructions appended to the system prompt
 * (or a new system message), earlier assistant tool calls shown as the JSON the model would have written,
 * and tool results as user messages naming the call they answer.
 */
export function toJsonToolConversation(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): ChatMessage[] {
  const instructions = jsonToolInstructions(tools);
  const result: ChatMessage[] = [];
  let systemSeen = false;
  const namesById = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: systemSeen ? message.content : `${message.content}\n\n${instructions}` });
        systemSeen = true;
        break;
      case 'user':
        result.push(message);
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        const parts: string[] = [];
        if (message.content) parts.push(message.content);
        for (const call of calls) {
          namesById.set(call.id, call.name);
          parts.push(`\`\`\`json\n{"tool": ${JSON.stringify(call.name)}, "arguments": ${argumentsAsJsonText(call.arguments)}}\n\`\`\``);
        }
        result.push({ role: 'assistant', content: parts.join('\n') });
        break;
      }
      case 'tool': {
        const name = namesById.get(message.toolCallId);
        result.push({ role: 'user', content: `Result of tool ${name ?? 'call'} (${message.toolCallId}):\n${message.content}` });
        break;
      }
    }
  }
  if (!systemSeen) result.unshift({ role: 'system', content: instructions });
  return result;
}

/** Arguments text embedded in a JSON object; malformed text is embedded as a JSON string so the history stays parseable. */
function argumentsAsJsonText(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
  } catch {
    // fall through
  }
  return JSON.stringify(text);
}

export interface ParsedJsonToolReply {
  /** Prose outside the tool-call JSON (null when there was none). */
  content: string | null;
  toolCalls: ToolCallRequest[];
}

/**
 * Extract tool calls from a model's text reply. Accepts {"tool"|"name": N, "arguments"|"args"|"parameters"|"input": A},
 * {"function": {"name", "arguments"}}, and {"tool_calls": [...]}. Arguments given as an object are re-serialized;
 * given as a string they are kept verbatim (parseToolArguments decides whether they are valid). A block that is
 * clearly a tool call but cannot be parsed still yields a call (name recovered by pattern, raw text as arguments)
 * so the explorer records a malformed-arguments error instead of silently losing the step.
 */
export function parseJsonToolReply(text: string, idPrefix = 'call'): ParsedJsonToolReply {
  let counter = 0;
  const nextId = (): string => `${idPrefix}_${++counter}`;
  const candidates = findJsonCandidates(text);
  for (const candidate of candidates) {
    const value = tolerantJsonParse(candidate.text);
    if (value === undefined) continue;
    const calls = callsFromValue(value, nextId);
    if (calls.length > 0) {
      return { content: proseAround(text, candidate.start, candidate.end), toolCalls: calls };
    }
  }
  // An unparseable block that names a tool: keep it as a malformed call rather than dropping it.
  for (const candidate of candidates) {
    const name = /["']?(?:tool|name)["']?\s*:\s*["']([A-Za-z_][\w.-]*)["']/.exec(candidate.text)?.[1];
    if (name) {
      const rawArgs = /["']?(?:arguments|args|parameters|input)["']?\s*:\s*([\s\S]*?)\}?\s*$/.exec(candidate.text)?.[1] ?? candidate.text;
      return {
        content: proseAround(text, candidate.start, candidate.end),
        toolCalls: [{ id: nextId(), name, arguments: rawArgs.trim() }],
      };
    }
  }
  const trimmed = text.trim();
  return { content: trimmed === '' ? null : trimmed, toolCalls: [] };
}

function callsFromValue(value: unknown, nextId: () => string): ToolCallRequest[] {
  if (Array.isArray(value)) return value.flatMap((item) => callsFromValue(item, nextId));
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.tool_calls)) return callsFromValue(record.tool_calls, nextId);
  const fn = record.function;
  if (fn !== null && typeof fn === 'object' && typeof (fn as Record<string, unknown>).name === 'string') {
    const inner = fn as Record<string, unknown>;
    return [{ id: typeof record.id === 'string' ? record.id : nextId(), name: inner.name as string, arguments: argumentsText(inner.arguments) }];
  }
  const name = typeof record.tool === 'string' ? record.tool : typeof record.name === 'string' ? record.name : undefined;
  if (name === undefined) return [];
  const args = record.arguments ?? record.args ?? record.parameters ?? record.input;
  return [{ id: nextId(), name, arguments: argumentsText(args) }];
}

function argumentsText(args: unknown): string {
  if (args === undefined || args === null) return '{}';
  if (typeof args === 'string') return args;
  return JSON.stringify(args);
}

function proseAround(text: string, start: number, end: number): string | null {
  const prose = `${text.slice(0, start)} ${text.slice(end)}`.replace(/```(?:json)?\s*```/g, '').replace(/\s+/g, ' ').trim();
  return prose === '' ? null : prose;
}

interface Candidate {
  text: string;
  start: number;
  end: number;
}

/** Fenced blocks first (```json before plain ```), then every balanced top-level {...} in the text. */
function findJsonCandidates(text: string): Candidate[] {
  const candidates: Candidate[] = [];
  const fence = /```[ \t]*(json|JSON|javascript|js)?[ \t]*\r?\n?([\s\S]*?)```/g;
  const fenced: Array<Candidate & { tagged: boolean }> = [];
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    fenced.push({ text: match[2].trim(), start: match.index, end: match.index + match[0].length, tagged: match[1] !== undefined });
  }
  fenced.sort((a, b) => Number(b.tagged) - Number(a.tagged));
  candidates.push(...fenced);
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    const end = matchingBrace(text, i);
    if (end < 0) {
      // Unbalanced (cut off mid-object): offer the rest of the text so the name can still be recovered.
      candidates.push({ text: text.slice(i), start: i, end: text.length });
      break;
    }
    candidates.push({ text: text.slice(i, end + 1), start: i, end: end + 1 });
    i = end;
  }
  return candidates;
}

/** Index of the brace closing the one at `open`, skipping braces inside strings; -1 if unbalanced. */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return ch === '}' ? i : -1;
    }
  }
  return -1;
}

/**
 * JSON.parse, then safe repairs: trailing commas before } or ], and single-quoted strings/keys converted to
 * double quotes when the text has no double quotes at all (so no quoting can be confused). Undefined if hopeless.
 */
export function tolerantJsonParse(text: string): unknown {
  const attempts = [text];
  const noTrailingCommas = removeTrailingCommas(text);
  attempts.push(noTrailingCommas);
  if (!text.includes('"')) attempts.push(removeTrailingCommas(singleToDoubleQuotes(text)));
  for (const attempt of attempts) {
    try {
      return JSON.parse(attempt);
    } catch {
      // next repair
    }
  }
  return undefined;
}

/** Drop commas directly before a closing bracket, outside strings. */
function removeTrailingCommas(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"') quote = ch;
    if (ch === ',') {
      const rest = text.slice(i + 1).match(/^\s*([}\]])/);
      if (rest) continue;
    }
    out += ch;
  }
  return out;
}

function singleToDoubleQuotes(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString && ch === '\\' && text[i + 1] === "'") {
      out += "'";
      i++;
    } else if (ch === "'") {
      out += '"';
      inString = !inString;
    } else {
      out += ch;
    }
  }
  return out;
}
