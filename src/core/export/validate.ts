/**
 * Validators for exported examples. The OpenAI rules are the fine-tuning API's chat-format checks extended to
 * tools; each rule has a stable name so a report can count failures per rule (and a test can plant each defect).
 * Examples are read as unknown JSON: a validator must survive any line, not only ones our writers produced.
 */
import type { ValidationIssue } from './types';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Secrets that must never reach an export: OpenAI-style keys, bearer tokens, and any value passed in. */
const SECRET_PATTERNS = [/\bsk-[A-Za-z0-9_-]{16,}/, /\bBearer\s+[A-Za-z0-9._-]{16,}/];

export const OPENAI_RULES = [
  'example-shape',
  'tools-shape',
  'role',
  'message-keys',
  'system-position',
  'content',
  'tool-call-shape',
  'tool-name-pattern',
  'tool-declared',
  'arguments-json',
  'parallel-tool-calls',
  'tool-call-answered',
  'tool-response-orphan',
  'weight',
  'trainable',
  'ends-with-assistant',
  'no-secret',
] as const;
export type OpenAiRule = (typeof OPENAI_RULES)[number];

const ALLOWED_KEYS: Record<string, readonly string[]> = {
  system: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'tool_calls', 'weight', 'name'],
  tool: ['role', 'content', 'tool_call_id'],
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Finds secrets in any string inside `value`; `extraSecrets` are literal values (e.g. the configured API key). */
export function findSecrets(value: unknown, extraSecrets: readonly string[] = []): string[] {
  const found: string[] = [];
  const literals = extraSecrets.filter((s) => s.length >= 8);
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const pattern of SECRET_PATTERNS) if (pattern.test(v)) found.push(pattern.source);
      for (const secret of literals) if (v.includes(secret)) found.push('configured secret');
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (isRecord(v)) Object.values(v).forEach(visit);
  };
  visit(value);
  return [...new Set(found)];
}

/** Names declared by a tools array, checking each declaration's shape. */
function declaredTools(tools: unknown, issues: ValidationIssue[]): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) {
    issues.push({ rule: 'tools-shape', message: '`tools` must be an array' });
    return names;
  }
  tools.forEach((tool, i) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string') {
      issues.push({ rule: 'tools-shape', message: `tools[${i}] must be {type: "function", function: {name, description, parameters}}` });
      return;
    }
    if (!TOOL_NAME_PATTERN.test(fn.name)) issues.push({ rule: 'tool-name-pattern', message: `tools[${i}] name ${JSON.stringify(fn.name)} does not match ${TOOL_NAME_PATTERN.source}` });
    if (fn.parameters !== undefined && !isRecord(fn.parameters)) issues.push({ rule: 'tools-shape', message: `tools[${i}].function.parameters must be a JSON schema object` });
    if (names.has(fn.name)) issues.push({ rule: 'tools-shape', message: `tool ${fn.name} is declared twice` });
    names.add(fn.name);
  });
  return names;
}

/** OpenAI's chat fine-tuning format with tools. Returns every issue found (empty = valid). */
export function validateOpenAiExample(example: unknown, options: { secrets?: readonly string[] } = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(example) || !Array.isArray(example.messages) || example.messages.length === 0) {
    return [{ rule: 'example-shape', message: 'an example is an object with a non-empty `messages` array' }];
  }
  for (const key of Object.keys(example)) {
    if (!['messages', 'tools', 'parallel_tool_calls'].includes(key)) issues.push({ rule: 'example-shape', message: `unexpected top-level key ${JSON.stringify(key)}` });
  }
  if (example.parallel_tool_calls !== undefined && typeof example.parallel_tool_calls !== 'boolean') issues.push({ rule: 'example-shape', message: '`parallel_tool_calls` must be a boolean' });
  const declared = declaredTools(example.tools, issues);
  const messages = example.messages as unknown[];
  const callIds = new Set<string>();
  /** Calls of the latest assistant turn not yet answered by a tool message. */
  let pending: { index: number; ids: Set<string> } | undefined;
  const closePending = () => {
    if (pending && pending.ids.size) {
      issues.push({ rule: 'tool-call-answered', messageIndex: pending.index, message: `tool call(s) ${[...pending.ids].join(', ')} of message ${pending.index} have no tool response` });
    }
    pending = undefined;
  };
  let trainable = 0;
  messages.forEach((raw, i) => {
    if (!isRecord(raw) || typeof raw.role !== 'string' || !(raw.role in ALLOWED_KEYS)) {
      issues.push({ rule: 'role', messageIndex: i, message: `message ${i}: role must be system, user, assistant or tool` });
      return;
    }
    const role = raw.role;
    for (const key of Object.keys(raw)) {
      if (!ALLOWED_KEYS[role].includes(key)) issues.push({ rule: 'message-keys', messageIndex: i, message: `message ${i} (${role}): unexpected key ${JSON.stringify(key)}` });
    }
    if (raw.weight !== undefined && (role !== 'assistant' || (raw.weight !== 0 && raw.weight !== 1))) {
      issues.push({ rule: 'weight', messageIndex: i, message: `message ${i}: weight is allowed only on assistant turns and only as 0 or 1` });
    }
    if (role === 'system' && i !== 0) issues.push({ rule: 'system-position', messageIndex: i, message: `message ${i}: a system message may only come first` });
    if (role !== 'tool') closePending();
    if (role === 'system' || role === 'user') {
      if (typeof raw.content !== 'string' || raw.content === '') issues.push({ rule: 'content', messageIndex: i, message: `message ${i} (${role}): content must be a non-empty string` });
    } else if (role === 'tool') {
      if (typeof raw.content !== 'string') issues.push({ rule: 'content', messageIndex: i, message: `message ${i} (tool): content must be a string` });
      const id = raw.tool_call_id;
      if (typeof id !== 'string' || !pending?.ids.has(id)) {
        issues.push({ rule: 'tool-response-orphan', messageIndex: i, message: `message ${i} (tool): tool_call_id ${JSON.stringify(id)} answers no pending call of the preceding assistant turn` });
      } else pending.ids.delete(id);
    } else {
      const calls = raw.tool_calls;
      const hasContent = typeof raw.content === 'string' && raw.content !== '';
      if (raw.content !== null && raw.content !== undefined && typeof raw.content !== 'string') issues.push({ rule: 'content', messageIndex: i, message: `message ${i} (assistant): content must be a string or null` });
      if (calls !== undefined && !Array.isArray(calls)) issues.push({ rule: 'tool-call-shape', messageIndex: i, message: `message ${i}: tool_calls must be an array` });
      const callList = Array.isArray(calls) ? calls : [];
      if (!hasContent && callList.length === 0) issues.push({ rule: 'content', messageIndex: i, message: `message ${i} (assistant): needs content or tool_calls` });
      if (example.parallel_tool_calls === false && callList.length > 1) issues.push({ rule: 'parallel-tool-calls', messageIndex: i, message: `message ${i}: ${callList.length} tool calls in one turn with parallel_tool_calls false` });
      if (raw.weight !== 0) trainable++;
      pending = { index: i, ids: new Set() };
      callList.forEach((call, c) => {
        const fn = isRecord(call) ? call.function : undefined;
        if (!isRecord(call) || typeof call.id !== 'string' || call.id === '' || call.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
          issues.push({ rule: 'tool-call-shape', messageIndex: i, message: `message ${i} tool_calls[${c}] must be {id, type: "function", function: {name, arguments: string}}` });
          return;
        }
        if (callIds.has(call.id)) issues.push({ rule: 'tool-call-shape', messageIndex: i, message: `message ${i}: tool call id ${call.id} is used twice` });
        callIds.add(call.id);
        pending!.ids.add(call.id);
        if (!TOOL_NAME_PATTERN.test(fn.name)) issues.push({ rule: 'tool-name-pattern', messageIndex: i, message: `message ${i}: tool name ${JSON.stringify(fn.name)} does not match ${TOOL_NAME_PATTERN.source}` });
        if (!declared.has(fn.name)) issues.push({ rule: 'tool-declared', messageIndex: i, message: `message ${i}: tool ${JSON.stringify(fn.name)} is not declared in tools` });
        let parsed: unknown;
        try {
          parsed = JSON.parse(fn.arguments);
        } catch {
          parsed = undefined;
        }
        if (!isRecord(parsed)) issues.push({ rule: 'arguments-json', messageIndex: i, message: `message ${i}: arguments of ${fn.name} are not a JSON object` });
      });
    }
  });
  const last = messages[messages.length - 1];
  const endsWithAssistant = isRecord(last) && last.role === 'assistant';
  if (!endsWithAssistant) {
    issues.push({ rule: 'ends-with-assistant', messageIndex: messages.length - 1, message: 'the last message must be an assistant turn' });
    closePending();
  }
  // The final assistant turn's calls are what the model should emit next; they need no response in the example.
  if (trainable === 0) issues.push({ rule: 'trainable', message: 'no assistant turn is trained (all weights are 0)' });
  const secrets = findSecrets(example, options.secrets);
  if (secrets.length) issues.push({ rule: 'no-secret', message: `looks like a secret (${secrets.join(', ')})` });
  return issues;
}

/** Hugging Face chat shape: object arguments, string content (never null), declared tool names. */
export function validateHfExample(example: unknown, options: { secrets?: readonly string[] } = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(example) || !Array.isArray(example.messages) || example.messages.length === 0) return [{ rule: 'example-shape', message: 'an example is an object with a non-empty `messages` array' }];
  const declared = declaredTools(example.tools, issues);
  (example.messages as unknown[]).forEach((m, i) => {
    if (!isRecord(m) || !['system', 'user', 'assistant', 'tool'].includes(String(m.role))) {
      issues.push({ rule: 'role', messageIndex: i, message: `message ${i}: bad role` });
      return;
    }
    if (typeof m.content !== 'string') issues.push({ rule: 'content', messageIndex: i, message: `message ${i}: content must be a string ("" rather than null)` });
    if (m.role === 'assistant' && m.tool_calls !== undefined) {
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      calls.forEach((call, c) => {
        const fn = isRecord(call) ? call.function : undefined;
        if (!isRecord(fn) || typeof fn.name !== 'string' || !isRecord(fn.arguments)) issues.push({ rule: 'arguments-object', messageIndex: i, message: `message ${i} tool_calls[${c}]: arguments must be an object` });
        else if (!declared.has(fn.name)) issues.push({ rule: 'tool-declared', messageIndex: i, message: `message ${i}: tool ${fn.name} is not declared` });
      });
    }
  });
  const last = example.messages[example.messages.length - 1];
  if (!isRecord(last) || last.role !== 'assistant') issues.push({ rule: 'ends-with-assistant', message: 'the last message must be an assistant turn' });
  if (findSecrets(example, options.secrets).length) issues.push({ rule: 'no-secret', message: 'looks like a secret' });
  return issues;
}

/**
 * LLaMA-Factory's ShareGPT rules: human/observation at even positions, gpt/function_call at odd ones, ending
 * with gpt or function_call; function_call values are `{name, arguments}` JSON; `tools` is a JSON array string.
 */
export function validateShareGptExample(example: unknown, options: { secrets?: readonly string[] } = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(example) || !Array.isArray(example.conversations) || example.conversations.length < 2) return [{ rule: 'example-shape', message: 'an example has a `conversations` array of at least two turns' }];
  let toolNames = new Set<string>();
  if (typeof example.tools !== 'string') issues.push({ rule: 'tools-shape', message: '`tools` must be a JSON string' });
  else {
    try {
      const parsed: unknown = JSON.parse(example.tools);
      if (!Array.isArray(parsed)) throw new Error('not an array');
      toolNames = new Set(parsed.map((t) => (isRecord(t) ? String(t.name) : '')));
    } catch {
      issues.push({ rule: 'tools-shape', message: '`tools` must parse as a JSON array of function declarations' });
    }
  }
  if (example.system !== undefined && typeof example.system !== 'string') issues.push({ rule: 'content', message: '`system` must be a string' });
  const turns = example.conversations as unknown[];
  turns.forEach((turn, i) => {
    if (!isRecord(turn) || typeof turn.value !== 'string') {
      issues.push({ rule: 'example-shape', messageIndex: i, message: `turn ${i} must be {from, value: string}` });
      return;
    }
    const expected = i % 2 === 0 ? ['human', 'observation'] : ['gpt', 'function_call'];
    if (!expected.includes(String(turn.from))) issues.push({ rule: 'role', messageIndex: i, message: `turn ${i}: ${JSON.stringify(turn.from)} where ${expected.join(' or ')} is expected` });
    if (turn.from === 'function_call') {
      let call: unknown;
      try {
        call = JSON.parse(turn.value);
      } catch {
        call = undefined;
      }
      if (!isRecord(call) || typeof call.name !== 'string' || !isRecord(call.arguments)) issues.push({ rule: 'arguments-json', messageIndex: i, message: `turn ${i}: function_call must be {"name", "arguments": {…}} JSON` });
      else if (!toolNames.has(call.name)) issues.push({ rule: 'tool-declared', messageIndex: i, message: `turn ${i}: tool ${call.name} is not in tools` });
    }
  });
  const last = turns[turns.length - 1];
  if (!isRecord(last) || !['gpt', 'function_call'].includes(String(last.from))) issues.push({ rule: 'ends-with-assistant', message: 'the last turn must be gpt or function_call' });
  if (findSecrets(example, options.secrets).length) issues.push({ rule: 'no-secret', message: 'looks like a secret' });
  return issues;
}
