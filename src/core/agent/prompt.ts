/**
 * The prompt builder: system prompt (role, tool rules, answer format, compact schema summary) + the question +
 * the history, cut to the configured context length. Every provider, real or simulated, sees exactly this.
 */
import type { DataDocument, EnvironmentProfile } from '../env/types';
import { estimateMessagesTokens } from '../llm/tokens';
import type { ChatMessage, ToolDefinition } from '../llm/types';
import { tools as defaultTools } from './tools';
import type { AgentStep, ContextLength } from './types';

export interface SchemaSummaryLimits {
  maxTables: number;
  maxColumnsPerTable: number;
}

/** One line per table: `name (rows): col type, …`; capped so wide environments stay compact. */
export function schemaSummary(profile: EnvironmentProfile, documents: Array<Pick<DataDocument, 'name' | 'title'>> = [], limits: SchemaSummaryLimits = { maxTables: 40, maxColumnsPerTable: 25 }): string {
  const lines: string[] = [];
  const shortType: Record<string, string> = { integer: 'int', real: 'real', text: 'text', date: 'date', datetime: 'datetime', boolean: 'bool' };
  for (const table of profile.tables.slice(0, limits.maxTables)) {
    const cols = table.columns.slice(0, limits.maxColumnsPerTable).map((c) => `${c.name} ${shortType[c.type] ?? c.type}`);
    const more = table.columns.length > limits.maxColumnsPerTable ? `, … +${table.columns.length - limits.maxColumnsPerTable} more` : '';
    lines.push(`- ${table.name} (${table.rowCount} rows): ${cols.join(', ')}${more}`);
  }
  if (profile.tables.length > limits.maxTables) lines.push(`- … ${profile.tables.length - limits.maxTables} more tables (list_tables shows all)`);
  if (profile.tables.length === 0) lines.push('- (no tables)');
  if (documents.length) lines.push(`Documents: ${documents.map((d) => d.name).join(', ')}`);
  return lines.join('\n');
}

export const SYSTEM_PROMPT = [
  'You are a careful data analyst agent. You answer a question about a data environment (tables loaded into one read-only SQLite database, plus documents) by calling tools.',
  '',
  'Rules:',
  '- Call exactly one tool per turn. Look at the schema (list_tables, describe_table) before writing queries against tables you have not seen.',
  '- run_sql takes one SQLite SELECT statement; it cannot modify data. Use the column and table names exactly as the schema shows them.',
  '- run_python runs Python 3 with the standard library only; call sql("SELECT …") inside it to read tables and print() the result.',
  '- Business rules and definitions may live in documents: use search_documents and read_document when the question refers to them.',
  '- When a tool returns "Error: …", read the message, say briefly what went wrong, and fix the call.',
  '- Base the answer only on tool results you have seen. Do not guess.',
  '',
  'Answer format: call final_answer with `answer` holding only the value (a number with its full precision from the result, a name, or a comma-separated list in the asked order) and `explanation` in one or two sentences.',
].join('\n');

export interface PromptInput {
  question: string;
  profile: EnvironmentProfile;
  documents?: Array<Pick<DataDocument, 'name' | 'title'>>;
  history: AgentStep[];
  contextLength: ContextLength;
  tools?: ToolDefinition[];
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  /** Steps replaced by the omission note. */
  droppedSteps: number;
  estimatedTokens: number;
}

/** Marker the omission note starts with; the simulated models read it as an LLM would. */
export const OMITTED_NOTE_PREFIX = '[Context note:';

/** One line per omitted step: `#index tool [ok|error] args` — enough to know what was done, not what was seen. */
export function omittedStepsNote(steps: AgentStep[]): string {
  const lines = steps.map((s) => {
    const name = s.toolCall?.name ?? '(no tool call)';
    const args = s.toolCall ? s.toolCall.arguments.replace(/\s+/g, ' ').slice(0, 400) : '';
    return `#${s.index} ${name} [${s.observation.ok ? 'ok' : 'error'}] ${args}`.trimEnd();
  });
  return `${OMITTED_NOTE_PREFIX} ${steps.length} earlier step${steps.length === 1 ? '' : 's'} omitted to save context; their results are no longer shown. Calls made:]\n${lines.join('\n')}`;
}

/** The messages for one step, in the OpenAI chat shape providers translate from. */
export function stepMessages(step: AgentStep): ChatMessage[] {
  if (!step.toolCall) {
    return [
      { role: 'assistant', content: step.thought || null },
      { role: 'user', content: step.observation.text },
    ];
  }
  return [
    { role: 'assistant', content: step.thought || null, toolCalls: [step.toolCall] },
    { role: 'tool', toolCallId: step.toolCall.id, content: step.observation.text },
  ];
}

/** The system prompt as every provider gets it: the rules and the environment's schema summary. */
export function systemPromptFor(profile: EnvironmentProfile, documents: Array<Pick<DataDocument, 'name' | 'title'>> = []): string {
  return `${SYSTEM_PROMPT}\n\nSchema summary (describe_table shows types, ranges and samples):\n${schemaSummary(profile, documents)}`;
}

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const system = systemPromptFor(input.profile, input.documents ?? []);
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: `Question: ${input.question}` },
  ];
  const keep = input.contextLength.mode === 'full' ? input.history.length : Math.max(0, Math.floor(input.contextLength.k));
  const dropped = input.history.slice(0, Math.max(0, input.history.length - keep));
  const visible = input.history.slice(dropped.length);
  if (dropped.length) messages.push({ role: 'user', content: omittedStepsNote(dropped) });
  for (const step of visible) messages.push(...stepMessages(step));
  return { messages, droppedSteps: dropped.length, estimatedTokens: estimateMessagesTokens(messages, input.tools ?? defaultTools) };
}
