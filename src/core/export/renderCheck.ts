/**
 * Render check: every Hugging Face-shaped example goes through the bundled Qwen2.5 and Qwen3 chat templates
 * (@huggingface/jinja), and the rendered text is read back: every turn present, every tool call parses as
 * `{"name", "arguments": {object}}` equal to what was exported (this catches Qwen2.5's double-encoding of string
 * arguments), every tool declared. Tokens are counted in the rendered text with the template's own tokenizer
 * (tokenCount.ts).
 */
import { Template } from '@huggingface/jinja';
import type { HfExample } from './sft';
import { CHAT_TEMPLATES, type ChatTemplateName } from './templates/index';
import { tokenCounterFor } from './tokenCount';

const compiled = new Map<ChatTemplateName, Template>();
function template(name: ChatTemplateName): Template {
  let t = compiled.get(name);
  if (!t) {
    t = new Template(CHAT_TEMPLATES[name]);
    compiled.set(name, t);
  }
  return t;
}

export function renderChatTemplate(name: ChatTemplateName, example: HfExample, options: { addGenerationPrompt?: boolean } = {}): string {
  return template(name).render({ messages: example.messages, tools: example.tools, add_generation_prompt: options.addGenerationPrompt ?? false });
}

export interface RenderCheckResult {
  template: ChatTemplateName;
  ok: boolean;
  problems: string[];
  /** Tokens of the whole rendered example (see tokenizer). */
  tokens: number;
  /** Tokens of the assistant turns (what SFT trains on). */
  assistantTokens: number;
  /** Which tokenizer counted: the template's own, or the character estimate when it could not be loaded. */
  tokenizer: string;
  rendered?: string;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}

/** What a call means: string arguments (OpenAI style) stand for the JSON they hold. */
function intendedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

export function checkRender(name: ChatTemplateName, example: HfExample, options: { keepRendered?: boolean } = {}): RenderCheckResult {
  const problems: string[] = [];
  let rendered: string;
  try {
    rendered = renderChatTemplate(name, example);
  } catch (error) {
    return { template: name, ok: false, problems: [`the template failed: ${error instanceof Error ? error.message : String(error)}`], tokens: 0, assistantTokens: 0, tokenizer: tokenCounterFor(name).tokenizer };
  }
  if (!rendered.endsWith('<|im_end|>\n')) problems.push('the rendered example does not end with <|im_end|>');

  // Turns: one <|im_start|> per message, except consecutive tool messages, which share one user turn.
  const expectedTurns = example.messages.filter((m, i) => !(m.role === 'tool' && example.messages[i - 1]?.role === 'tool')).length;
  const turns = rendered.split('<|im_start|>').slice(1);
  if (turns.length !== expectedTurns) problems.push(`${turns.length} rendered turns, ${expectedTurns} expected`);

  // Tools block: every declaration parses and the names match.
  const toolsBlock = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(rendered);
  if (example.tools.length) {
    if (!toolsBlock) problems.push('no <tools> block');
    else {
      try {
        const names = toolsBlock[1].split('\n').map((line) => (JSON.parse(line) as { function?: { name?: string }; name?: string }).function?.name);
        const expected = example.tools.map((t) => t.function.name);
        if (!deepEqual(names, expected)) problems.push(`declared tools ${names.join(', ')} ≠ ${expected.join(', ')}`);
      } catch {
        problems.push('a tool declaration in <tools> is not JSON');
      }
    }
  }

  // Tool calls: read back each <tool_call> and compare with the exported call, in order.
  const expectedCalls = example.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function) : []));
  const renderedCalls = [...rendered.matchAll(/<tool_call>\n([\s\S]*?)\n<\/tool_call>/g)]
    .map((match) => match[1])
    .filter((body) => !body.startsWith('{"name": <function-name>')); // the instruction's placeholder
  if (renderedCalls.length !== expectedCalls.length) problems.push(`${renderedCalls.length} rendered tool calls, ${expectedCalls.length} expected`);
  renderedCalls.forEach((body, i) => {
    const expected = expectedCalls[i];
    if (!expected) return;
    let parsed: { name?: unknown; arguments?: unknown };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      problems.push(`tool call ${i} does not render as JSON: ${body.slice(0, 120)}`);
      return;
    }
    if (typeof parsed.arguments === 'string') problems.push(`tool call ${i}: arguments rendered as a string (double-encoded)`);
    else if (parsed.name !== expected.name || !deepEqual(parsed.arguments, intendedArguments(expected.arguments))) problems.push(`tool call ${i} renders as ${body.slice(0, 120)}, not ${expected.name} with the exported arguments`);
  });

  // Content: every non-empty message text appears verbatim.
  example.messages.forEach((m, i) => {
    if (m.content && !rendered.includes(m.content)) problems.push(`message ${i} (${m.role}) content is missing from the rendering`);
  });

  const assistantText = turns.filter((t) => t.startsWith('assistant')).join('');
  const counter = tokenCounterFor(name);
  return {
    template: name,
    ok: problems.length === 0,
    problems,
    tokens: counter.count(rendered),
    assistantTokens: counter.count(assistantText),
    tokenizer: counter.tokenizer,
    rendered: options.keepRendered ? rendered : undefined,
  };
}
