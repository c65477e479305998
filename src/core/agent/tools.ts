/**
 * The tool protocol the agent speaks: zod schemas (the single source of truth), the JSON-schema `tools` offered
 * to models, and `executeToolCall`, which turns any call — well-formed or not — into an Observation.
 */
import { z } from 'zod';
import type { DataDocument, EnvironmentProfile, TableProfile } from '../env/types';
import { meaningOf, tableNotes } from '../semantics/describe';
import type { SemanticProfile } from '../semantics/types';
import { parseToolArguments } from '../llm/errors';
import type { ToolCallRequest, ToolDefinition } from '../llm/types';
import type { ToolResult } from '../sandbox/types';
import { quoteIdent } from '../text/sql';
import { tokens } from '../text/words';
import { DEFAULT_RENDER_LIMITS, RenderLimits, capText, formatCell, renderError, renderTable } from './render';

const tableName = z.string().min(1).describe('Table name exactly as list_tables shows it');

export const toolSchemas = {
  list_tables: z.object({}).describe('List the tables of the data environment with their row counts and source files.'),
  describe_table: z
    .object({ table: tableName })
    .describe('Show a table\'s columns: type, null fraction, distinct count, range and sample values.'),
  sample_rows: z
    .object({ table: tableName, n: z.number().int().min(1).max(50).default(5).describe('Rows to return (1–50)') })
    .describe('Return the first n rows of a table.'),
  run_sql: z
    .object({ query: z.string().min(1).describe('One read-only SQLite SELECT statement') })
    .describe('Run a read-only SQLite query over the environment\'s tables and return the result rows.'),
  run_python: z
    .object({
      code: z.string().min(1).describe('Python 3 code; print() what you need. sql(query) reads the tables.'),
    })
    .describe('Run Python 3 (standard library only). Call sql("SELECT …") to read tables; printed output is returned.'),
  search_documents: z
    .object({ query: z.string().min(1).describe('Keywords to look for') })
    .describe('Search the environment\'s documents (Markdown, text) and return the best matching sections.'),
  read_document: z
    .object({
      name: z.string().min(1).describe('Document name as search_documents shows it'),
      section: z.string().optional().describe('A section heading; omit to read the whole document'),
    })
    .describe('Read one section of a document, or the whole document.'),
  final_answer: z
    .object({
      answer: z.string().describe('The answer alone: a number, a name, or a comma-separated list'),
      explanation: z.string().describe('One or two sentences on how the answer was obtained'),
    })
    .describe('Give the final answer to the question. Ends the episode.'),
} as const;

export type ToolName = keyof typeof toolSchemas;
export const toolNames = Object.keys(toolSchemas) as ToolName[];
export type ToolArguments<N extends ToolName> = z.infer<(typeof toolSchemas)[N]>;

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(toolSchemas, name);
}

/** The tools in OpenAI's function-tool shape, generated from the zod schemas. */
export const tools: ToolDefinition[] = toolNames.map((name) => {
  const schema = toolSchemas[name];
  const parameters = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete parameters.$schema;
  delete parameters.description;
  return { type: 'function', function: { name, description: schema.description ?? name, parameters } };
});

/** Runs code in a sandbox; SqlSandbox and PythonSandbox both fit. */
export interface CodeRunner {
  run(code: string, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/** What a tool call needs to execute: the environment's profile and documents, and the sandboxes. */
export interface ToolContext {
  profile: EnvironmentProfile;
  documents: DataDocument[];
  /** What the data means; describe_table shows each column's role, unit and description when it is there. */
  semantics?: SemanticProfile;
  sql: CodeRunner;
  /** Absent when Python is not available; run_python then yields an error observation. */
  python?: CodeRunner;
  limits?: Partial<RenderLimits>;
  signal?: AbortSignal;
}

export type ObservationData =
  | { kind: 'tables'; tables: Array<{ name: string; rows: number; columns: number; source: string }> }
  | { kind: 'schema'; table: string; columns: Array<{ name: string; type: string; nullFraction: number; distinct: number }> }
  | { kind: 'rows'; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { kind: 'stdout'; stdout: string }
  | { kind: 'search'; hits: Array<{ document: string; section: string; score: number; snippet: string }> }
  | { kind: 'document'; document: string; section?: string; text: string; truncated: boolean }
  | { kind: 'final'; answer: string; explanation: string }
  | { kind: 'error'; message: string };

export type ObservationErrorKind =
  | 'malformed_arguments'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'unknown_table'
  | 'unknown_document'
  | 'sql'
  | 'python'
  | 'refused'
  | 'timeout'
  | 'cancelled'
  | 'unavailable'
  | 'internal';

/** The result of one tool call: structured data for code, `text` (from the one renderer) for models and people. */
export interface Observation {
  ok: boolean;
  tool: string;
  /** The parsed, validated arguments, when they were valid. */
  args?: Record<string, unknown>;
  data: ObservationData;
  text: string;
  errorKind?: ObservationErrorKind;
  elapsedMs: number;
}

function errorObservation(tool: string, errorKind: ObservationErrorKind, message: string, elapsedMs = 0, args?: Record<string, unknown>): Observation {
  return { ok: false, tool, args, data: { kind: 'error', message }, text: renderError(message), errorKind, elapsedMs };
}

function findTable(profile: EnvironmentProfile, name: string): TableProfile | undefined {
  const exact = profile.tables.find((t) => t.name === name);
  if (exact) return exact;
  // SQLite names are case-insensitive; models often quote them.
  const bare = name.replace(/^["'`[]|["'`\]]$/g, '').toLowerCase();
  return profile.tables.find((t) => t.name.toLowerCase() === bare);
}

function unknownTable(profile: EnvironmentProfile, tool: string, name: string, args: Record<string, unknown>): Observation {
  const names = profile.tables.map((t) => t.name);
  const shown = names.slice(0, 30).join(', ') + (names.length > 30 ? `, … (${names.length} in all)` : '');
  return errorObservation(tool, 'unknown_table', `no table named '${name}'. Tables: ${shown || '(none)'}`, 0, args);
}

/**
 * Executes one tool call. Never throws: malformed or invalid arguments, unknown tools, tables or documents,
 * bad SQL or Python, sandbox refusals and timeouts all come back as error observations.
 */
export async function executeToolCall(context: ToolContext, call: Pick<ToolCallRequest, 'name' | 'arguments'>): Promise<Observation> {
  const started = Date.now();
  try {
    const observation = await dispatch(context, call);
    return observation;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return errorObservation(call.name, 'internal', `the tool failed unexpectedly: ${message}`, Date.now() - started);
  }
}

async function dispatch(context: ToolContext, call: Pick<ToolCallRequest, 'name' | 'arguments'>): Promise<Observation> {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...context.limits };
  if (!isToolName(call.name)) {
    return errorObservation(call.name, 'unknown_tool', `unknown tool '${call.name}'. Available tools: ${toolNames.join(', ')}`);
  }
  const parsed = parseToolArguments(call);
  if (!parsed.ok) return errorObservation(call.name, 'malformed_arguments', parsed.error.message);
  const validated = toolSchemas[call.name].safeParse(parsed.value);
  if (!validated.success) {
    const problems = validated.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
    return errorObservation(call.name, 'invalid_arguments', `invalid arguments for ${call.name}: ${problems}`, 0, parsed.value);
  }
  const args = validated.data as Record<string, unknown>;
  const { profile } = context;

  switch (call.name) {
    case 'list_tables': {
      const tables = profile.tables.map((t) => ({ name: t.name, rows: t.rowCount, columns: t.columns.length, source: t.sourceFile }));
      const text = tables.length === 0
        ? 'The environment has no tables.'
        : renderTable(['table', 'rows', 'columns', 'source'], tables.map((t) => [t.name, t.rows, t.columns, t.source]), {
            limits: { ...limits, maxRows: Math.max(limits.maxRows, 100) },
          });
      return { ok: true, tool: call.name, args, data: { kind: 'tables', tables }, text: capText(text, limits.maxChars), elapsedMs: 0 };
    }
    case 'describe_table': {
      const { table } = args as ToolArguments<'describe_table'>;
      const found = findTable(profile, table);
      if (!found) return unknownTable(profile, call.name, table, args);
      const semantics = context.semantics;
      const meaning = (column: string, distinct: number) => {
        const c = semantics?.columns.find((x) => x.table === found.name && x.column === column);
        return c ? meaningOf(c, semantics, distinct) : '';
      };
      const description = (column: string) => semantics?.columns.find((x) => x.table === found.name && x.column === column)?.description?.value ?? '';
      const described = found.columns.some((c) => description(c.name) !== '');
      // A wide table's run of like columns (t_1962 … t_2025, one per year) is one line, its names listed after the
      // table: every column stays named within the cap, where 72 lines of them cut the last ones off.
      const runs = columnRuns(found.columns, (c) => `${c.type}\u0000${meaning(c.name, c.distinctCount)}\u0000${description(c.name)}`);
      const span = (values: number[], unit = '') => {
        const [lo, hi] = [Math.min(...values), Math.max(...values)];
        return lo === hi ? `${lo}${unit}` : `${lo}${unit}–${hi}${unit}`;
      };
      const rowsOf = (withSamples: boolean) => runs.map((run) => {
        const c = run[0];
        return [
          run.length === 1 ? c.name : `${c.name} … ${run[run.length - 1].name}`,
          c.type,
          ...(semantics ? [meaning(c.name, c.distinctCount)] : []),
          span(run.map((x) => Math.round(x.nullFraction * 100)), '%'),
          span(run.map((x) => x.distinctCount)),
          run.length === 1 && c.min !== undefined ? `${c.min} … ${c.max}` : '',
          ...(withSamples ? [c.samples.map((s) => formatCell(s, 20)).join(', ')] : []),
          ...(described ? [description(c.name)] : []),
        ];
      });
      const runLines = runs.filter((run) => run.length > 1).map((run) => `${run[0].name} … ${run[run.length - 1].name} are ${run.length} columns: ${run.map((c) => c.name).join(', ')}`);
      const notes = semantics ? tableNotes(found.name, semantics) : [];
      const header = [`Table ${found.name} (${found.rowCount} rows, ${found.columns.length} columns, from ${found.sourceFile}${found.parent ? `; child of ${found.parent.table} via ${found.parent.column}` : ''})`, ...notes].join('\n');
      const render = (withSamples: boolean) =>
        [
          renderTable(['column', 'type', ...(semantics ? ['meaning'] : []), 'nulls', 'distinct', 'range', ...(withSamples ? ['samples'] : []), ...(described ? ['description'] : [])], rowsOf(withSamples), {
            limits: { ...limits, maxRows: Math.max(limits.maxRows, 60), maxCellChars: Math.max(limits.maxCellChars, 80) },
          }),
          ...runLines,
        ].join('\n');
      // Names before samples: when the listing would be cut, the samples column goes first.
      let body = render(true);
      if (header.length + 1 + body.length > limits.maxChars) body = render(false);
      return {
        ok: true,
        tool: call.name,
        args,
        data: {
          kind: 'schema',
          table: found.name,
          columns: found.columns.map((c) => ({ name: c.name, type: c.type, nullFraction: c.nullFraction, distinct: c.distinctCount })),
        },
        text: capText(`${header}\n${body}`, limits.maxChars),
        elapsedMs: 0,
      };
    }
    case 'sample_rows': {
      const { table, n } = args as ToolArguments<'sample_rows'>;
      const found = findTable(profile, table);
      if (!found) return unknownTable(profile, call.name, table, args);
      return runSql(context, call.name, args, `SELECT * FROM ${quoteIdent(found.name)} LIMIT ${n}`, limits);
    }
    case 'run_sql':
      return runSql(context, call.name, args, (args as ToolArguments<'run_sql'>).query, limits);
    case 'run_python': {
      if (!context.python) return errorObservation(call.name, 'unavailable', 'Python is not available in this environment; use run_sql', 0, args);
      const result = await context.python.run((args as ToolArguments<'run_python'>).code, { signal: context.signal });
      if (!result.ok) return sandboxError(call.name, args, result);
      const stdout = result.stdout ?? '';
      const text = stdout.trim() === '' ? '(no output; print() the values you need)' : capText(stdout.replace(/\s+$/, ''), limits.maxChars);
      return { ok: true, tool: call.name, args, data: { kind: 'stdout', stdout }, text, elapsedMs: result.elapsedMs };
    }
    case 'search_documents': {
      const { query } = args as ToolArguments<'search_documents'>;
      const hits = searchDocuments(context.documents, query, 5);
      const text = hits.length === 0
        ? context.documents.length === 0
          ? 'The environment has no documents.'
          : `No document section matches '${query}'. Documents: ${context.documents.map((d) => d.name).join(', ')}`
        : hits.map((h) => `${h.document} § ${h.section} (score ${h.score})\n  ${h.snippet}`).join('\n');
      return { ok: true, tool: call.name, args, data: { kind: 'search', hits }, text: capText(text, limits.maxChars), elapsedMs: 0 };
    }
    case 'read_document': {
      const { name, section } = args as ToolArguments<'read_document'>;
      const doc = context.documents.find((d) => d.name === name) ?? context.documents.find((d) => d.name.toLowerCase() === name.toLowerCase() || d.title.toLowerCase() === name.toLowerCase());
      if (!doc) {
        const names = context.documents.map((d) => d.name).join(', ') || '(none)';
        return errorObservation(call.name, 'unknown_document', `no document named '${name}'. Documents: ${names}`, 0, args);
      }
      let full: string;
      if (section !== undefined && section.trim() !== '') {
        const wanted = section.trim().replace(/^#+\s*/, '').toLowerCase();
        const match = doc.sections.find((s) => s.heading.toLowerCase() === wanted) ?? doc.sections.find((s) => s.heading.toLowerCase().includes(wanted));
        if (!match) {
          const headings = doc.sections.map((s) => s.heading).filter((h) => h !== '').join('; ') || '(none)';
          return errorObservation(call.name, 'unknown_document', `document '${doc.name}' has no section '${section}'. Sections: ${headings}`, 0, args);
        }
        full = `${'#'.repeat(Math.max(1, match.level))} ${match.heading}\n${match.text}`.trim();
      } else {
        full = doc.sections.map((s) => (s.heading ? `${'#'.repeat(Math.max(1, s.level))} ${s.heading}\n${s.text}` : s.text)).join('\n\n').trim();
      }
      const truncated = full.length > limits.maxChars;
      return {
        ok: true,
        tool: call.name,
        args,
        data: { kind: 'document', document: doc.name, section, text: full, truncated },
        text: capText(full, limits.maxChars),
        elapsedMs: 0,
      };
    }
    case 'final_answer': {
      const { answer, explanation } = args as ToolArguments<'final_answer'>;
      return { ok: true, tool: call.name, args, data: { kind: 'final', answer, explanation }, text: `Final answer: ${answer}`, elapsedMs: 0 };
    }
  }
}

async function runSql(context: ToolContext, tool: string, args: Record<string, unknown>, query: string, limits: RenderLimits): Promise<Observation> {
  const result = await context.sql.run(query, { signal: context.signal });
  if (!result.ok) return sandboxError(tool, args, result);
  const columns = result.columns ?? [];
  const rows = result.rows ?? [];
  const truncated = result.truncated === true;
  const text = columns.length === 0 ? '(the statement returned no result set)' : renderTable(columns, rows, { limits, sandboxTruncated: truncated });
  return { ok: true, tool, args, data: { kind: 'rows', columns, rows, truncated }, text: capText(text, limits.maxChars), elapsedMs: result.elapsedMs };
}

function sandboxError(tool: string, args: Record<string, unknown>, result: ToolResult): Observation {
  const kinds: Record<NonNullable<ToolResult['errorKind']>, ObservationErrorKind> = {
    sql: 'sql',
    python: 'python',
    refused: 'refused',
    timeout: 'timeout',
    cancelled: 'cancelled',
    internal: 'internal',
  };
  const kind = result.errorKind ? kinds[result.errorKind] : tool === 'run_python' ? 'python' : 'sql';
  return errorObservation(tool, kind, result.error ?? 'the sandbox reported a failure without a message', result.elapsedMs, args);
}

const STOP_WORDS = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'in', 'on', 'for', 'to', 'is', 'are', 'what', 'which', 'how', 'by', 'with']);

function terms(text: string): string[] {
  return tokens(text).filter((t) => t.length > 1 && !STOP_WORDS.has(t));
}

/**
 * Ranked keyword search over document sections: term frequency with a bonus for matches in the heading and
 * in the document title, each query term counted once per section so one repeated word does not dominate.
 */
export function searchDocuments(documents: DataDocument[], query: string, limit = 5): Array<{ document: string; section: string; score: number; snippet: string }> {
  const queryTerms = [...new Set(terms(query))];
  if (queryTerms.length === 0) return [];
  const hits: Array<{ document: string; section: string; score: number; snippet: string }> = [];
  for (const doc of documents) {
    const titleTerms = new Set(terms(doc.title));
    for (const section of doc.sections) {
      const headingTerms = new Set(terms(section.heading));
      const bodyTerms = terms(section.text);
      const counts = new Map<string, number>();
      for (const t of bodyTerms) counts.set(t, (counts.get(t) ?? 0) + 1);
      let score = 0;
      let matched = 0;
      for (const q of queryTerms) {
        const body = counts.get(q) ?? 0;
        const s = (body > 0 ? 1 + Math.log(body) : 0) + (headingTerms.has(q) ? 2 : 0) + (titleTerms.has(q) ? 0.5 : 0);
        if (s > 0) matched++;
        score += s;
      }
      if (matched === 0) continue;
      // Sections that match more of the query's distinct terms rank first.
      score = Math.round(score * (matched / queryTerms.length) * 100) / 100;
      hits.push({ document: doc.name, section: section.heading || '(introduction)', score, snippet: snippet(section.text, queryTerms) });
    }
  }
  hits.sort((a, b) => b.score - a.score || a.document.localeCompare(b.document) || a.section.localeCompare(b.section));
  return hits.slice(0, limit);
}

function snippet(text: string, queryTerms: string[], width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const positions = queryTerms.map((t) => lower.indexOf(t)).filter((p) => p >= 0);
  const start = positions.length ? Math.max(0, Math.min(...positions) - 40) : 0;
  const cut = flat.slice(start, start + width);
  return `${start > 0 ? '…' : ''}${cut}${start + width < flat.length ? '…' : ''}`;
}

/**
 * Consecutive columns that differ only in their digits (`t_1962`, `t_1963`, …; `q1_sales`, `q2_sales`, …) and agree on
 * `key` (type, meaning, description): runs of four or more, every other column a run of one.
 */
export function columnRuns<C extends { name: string }>(columns: readonly C[], key: (column: C) => string): C[][] {
  const shape = (c: C) => `${c.name.replace(/\d+/g, '#')}\u0000${key(c)}`;
  const runs: C[][] = [];
  let current: C[] = [];
  const flush = () => {
    if (current.length >= 4 && /\d/.test(current[0].name)) runs.push(current);
    else runs.push(...current.map((c) => [c]));
    current = [];
  };
  for (const c of columns) {
    if (current.length > 0 && shape(current[0]) !== shape(c)) flush();
    current.push(c);
  }
  flush();
  return runs;
}
