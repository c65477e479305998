/**
 * How a simulated model reads the conversation: the calls made (visible, or only listed in the omission note
 * when the context length dropped them), their outcomes, and the schema it can still see.
 */
import { OMITTED_NOTE_PREFIX } from '../agent/prompt';
import type { ChatMessage } from '../llm/types';
import { SeenText } from './grounding';
import type { SchemaView } from './taxonomy';

export interface SeenCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** The observation text; undefined when the step was dropped from the context. */
  text?: string;
  visible: boolean;
  /** The assistant's text that came with the call. */
  thought?: string;
  /** The arguments were cut in the omission note; only a prefix of the code is known. */
  partial?: boolean;
}

export interface ReadHistory {
  calls: SeenCall[];
  /** Steps taken so far, including dropped ones. */
  stepIndex: number;
  /** Tables whose describe_table output is still visible. */
  schemaVisible: Set<string>;
  /** Tables described at some point (visible or dropped). */
  schemaEverSeen: Set<string>;
  /** Tables and columns from the system prompt's schema summary. */
  schema: SchemaView;
  /** Everything the agent was shown and can still see: system prompt, question, observations (not its own calls). */
  seen: SeenText;
}

function parseArgs(text: string): { args: Record<string, unknown>; partial: boolean } {
  try {
    const value = JSON.parse(text);
    return { args: value && typeof value === 'object' && !Array.isArray(value) ? value : {}, partial: false };
  } catch {
    // The omission note cuts long arguments: recover the string fields' known prefixes.
    const args: Record<string, unknown> = {};
    for (const match of text.matchAll(/"(\w+)"\s*:\s*"((?:[^"\\]|\\.)*)/g)) {
      try {
        args[match[1]] = JSON.parse(`"${match[2].replace(/\\$/, '')}"`);
      } catch {
        args[match[1]] = match[2];
      }
    }
    return { args, partial: true };
  }
}

/** Reads the summary lines `- name (N rows): col type, col type, …` that the prompt builder writes. */
export function parseSchemaSummary(system: string): SchemaView {
  const tables: SchemaView['tables'] = [];
  for (const line of system.split('\n')) {
    const match = /^- (\S+) \(\d+ rows\): (.*)$/.exec(line);
    if (!match) continue;
    const columns = match[2]
      .split(', ')
      .map((part) => /^(\S+) (\S+)$/.exec(part.trim()))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ name: m[1], type: m[2] }));
    tables.push({ name: match[1], columns });
  }
  return { tables };
}

export function readHistory(messages: ChatMessage[]): ReadHistory {
  const calls: SeenCall[] = [];
  let dropped = 0;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'user' && m.content.startsWith(OMITTED_NOTE_PREFIX)) {
      dropped = Number(/(\d+) earlier step/.exec(m.content)?.[1] ?? 0);
      for (const line of m.content.split('\n').slice(1)) {
        const match = /^#\d+ (\S+) \[(ok|error)\] ?(.*)$/.exec(line);
        if (match) calls.push({ tool: match[1], ...parseArgs(match[3]), ok: match[2] === 'ok', visible: false });
      }
    } else if (m.role === 'assistant') {
      const call = m.toolCalls?.[0];
      if (call) {
        const reply = messages.slice(i + 1).find((r): r is Extract<ChatMessage, { role: 'tool' }> => r.role === 'tool' && r.toolCallId === call.id);
        const text = reply?.content ?? '';
        calls.push({ tool: call.name, args: parseArgs(call.arguments).args, ok: !!reply && !text.startsWith('Error:'), text, visible: true, thought: m.content ?? undefined });
      } else {
        const next = messages[i + 1];
        calls.push({ tool: '(none)', args: {}, ok: false, text: next?.role === 'user' ? next.content : '', visible: true, thought: m.content ?? undefined });
      }
    }
  }
  const visibleCount = calls.filter((c) => c.visible).length;
  const schemaVisible = new Set<string>();
  const schemaEverSeen = new Set<string>();
  for (const c of calls) {
    if (c.tool !== 'describe_table' || !c.ok || typeof c.args.table !== 'string') continue;
    schemaEverSeen.add(c.args.table.toLowerCase());
    if (c.visible) schemaVisible.add(c.args.table.toLowerCase());
  }
  const shown = messages.filter((m) => m.role !== 'assistant' && !(m.role === 'user' && m.content.startsWith(OMITTED_NOTE_PREFIX))).map((m) => m.content ?? '');
  return { calls, stepIndex: dropped + visibleCount, schemaVisible, schemaEverSeen, schema: parseSchemaSummary(system), seen: new SeenText(shown) };
}

function codeTokens(code: string): Set<string> {
  return new Set((code.toLowerCase().match(/[a-z_][a-z0-9_]*|\d+(?:\.\d+)?/g) ?? []));
}

/**
 * Similarity of the identifier/number tokens of two pieces of code: Jaccard, or — when `a` is only a known
 * prefix — the share of a's tokens found in b.
 */
export function codeSimilarity(a: string, b: string, aIsPrefix = false): number {
  const ta = codeTokens(a);
  const tb = codeTokens(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  if (aIsPrefix) return ta.size === 0 ? 0 : shared / ta.size;
  const union = ta.size + tb.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** The code a call ran, for run_sql and run_python. */
export function callCode(call: SeenCall): string | undefined {
  const code = call.tool === 'run_sql' ? call.args.query : call.tool === 'run_python' ? call.args.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
