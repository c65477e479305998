/**
 * The grounding audit: every table, column and literal value a tool call uses must be traceable to something the
 * agent was shown before it made the call — the question, the system prompt (which holds the schema summary), or an
 * earlier observation (tool results, schema listings, and the text of documents returned by `read_document` /
 * `search_documents`). A document's content is in no source until such an observation returned it, so a rule's
 * parameter counts only after the agent read it. The agent's own thoughts and earlier tool calls are never sources.
 *
 * It reads only what the agent saw (never the answer key), so it holds for real models as well as simulated ones;
 * it lives with the prompt builder and the observation renderer it mirrors, below the verifier, the export and the
 * simulated models, which all use it.
 *
 * What is audited, per tool call:
 * - `run_sql`: the tables, columns and literals of the query, parsed with node-sql-parser's SQLite grammar; a query
 *   it cannot parse falls back to tokens (quoted strings, numbers, identifiers that are not keywords or functions).
 *   Names the query defines itself (CTE names, table and column aliases) are not audited.
 * - `run_python`: every string that holds a query (inside `sql(…)`, or starting with SELECT/WITH) as SQL; other
 *   string literals (a string used as a subscript key is a column), and numeric literals. Strings printed or
 *   formatted (`print(…)`, f-strings, `.format`) are presentation, not data, and are not audited.
 * - `describe_table`, `sample_rows`: the table name. Discovery and answers (`list_tables`, `search_documents`,
 *   `read_document`, `final_answer`) are not audited: a wrong document name fails visibly, and the answer is the
 *   verifier's business.
 *
 * Tolerance (decided here, asserted by the tests):
 * - Trivial numbers are never flagged: 0, 1, 2, 100 (and 1.0, 100.0), the values of LIMIT / OFFSET, ORDER BY and
 *   GROUP BY ordinals, ROUND's digits, SUBSTR's positions, Python subscripts (`row[3]`) and `round(x, n)` digits, and
 *   a Python page size (`page = 1000`, a name with page / batch / chunk / limit), exponent (`** 0.5`), and the groups
 *   and the method of `statistics.quantiles` (`n=10`, `method='inclusive'`).
 * - Trivial strings are never flagged: strings without a letter or digit (separators), 'NULL', strftime formats
 *   ('%Y-%m'), SQLite date modifiers without a number ('start of month', 'now', 'localtime'); a modifier with a
 *   number ('-30 days') is audited as that number.
 * - Names match as whole words, ignoring case (SQLite names are case-insensitive): `amount` is not grounded by
 *   `total_amount`.
 * - A number matches a shown number of the same value (2000 = "2,000" = "$2,000" = 2000.0 = "2k"), a shown number it
 *   is a rounding of to its own decimals (2000 by 1999.6; 0.33 by 0.3333), or a shown percentage as a fraction or
 *   its complement (0.15 and 0.85 by "15 %" or "15 percent"); signs are ignored.
 * - A string matches a shown string ignoring case and runs of whitespace, as a whole word when it starts or ends
 *   with a letter or digit; a LIKE pattern's parts between wildcards must each match.
 * - A date (YYYY-MM-DD, optionally with a time) matches the same day shown in any common format (2024-01-05,
 *   2024/01/05, 01/05/2024 or 05/01/2024, "January 5, 2024", "5 Jan 2024"); the first or last day of a month or
 *   year matches that month or year shown (a year as a 4-digit number, a month as 2024-03 / "March 2024" / any day
 *   in it), and the first day of a period also matches the period before it (the exclusive upper bound of "in
 *   2024" is '2025-01-01'). A month literal (2024-03) matches that month shown.
 * - An error observation grounds nothing its own failing call already contained (an error that echoes the model's
 *   invented name does not make that name shown).
 */
import { Parser } from 'node-sql-parser/build/sqlite';
import type { DataDocument, EnvironmentProfile } from '../env/types';
import { escapeRegExp } from '../text/regex';
import { systemPromptFor } from './prompt';
import { parseArgs } from './steps';
import type { AgentStep, StepGrounding, UngroundedItem, UngroundedKind } from './types';

// The audit's types live with the step they describe (types.ts), so the two files do not import each other.
export type { StepGrounding, UngroundedItem, UngroundedKind };


/** What the agent is shown besides observations. */
export interface GroundingSources {
  question: string;
  /** The system prompt exactly as sent (instructions and schema summary). */
  systemPrompt: string;
  /** The environment's documents: never sources themselves, only named in the reason when a value is in one unread. */
  documents?: Array<{ name: string; text: string }>;
}

/** The environment's documents as the audit names them. */
export function documentTexts(documents: readonly SourceDocument[]): Array<{ name: string; text: string }> {
  return documents.filter((d) => d.sections !== undefined).map((d) => ({ name: d.name, text: (d.sections ?? []).map((s) => `${s.heading}\n${s.text}`).join('\n\n') }));
}

/** A document as the prompt names it; its sections, when known, let a reason say a value sits in it unread. */
export type SourceDocument = Pick<DataDocument, 'name' | 'title'> & Partial<Pick<DataDocument, 'sections'>>;

/** The sources of a question asked in an environment: its system prompt as `buildPrompt` writes it, and its documents. */
export function groundingSourcesFor(question: string, profile: EnvironmentProfile, documents: readonly SourceDocument[]): GroundingSources {
  return { question, systemPrompt: systemPromptFor(profile, [...documents]), documents: documentTexts(documents) };
}

// ---------------------------------------------------------------- shown texts

interface ShownNumber {
  value: number;
  decimals: number;
  percent: boolean;
}

interface ShownText {
  /** 'the question', 'the system prompt', or 'step N'. */
  label: string;
  step?: number;
  lower: string;
  numbers: ShownNumber[];
  days: Set<string>;
  months: Set<string>;
  years: Set<number>;
  /** For error observations: what the failing call itself wrote (normalised), which its error cannot ground. */
  echoes?: Set<string>;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_INDEX = new Map<string, number>(MONTHS.flatMap((m, i) => [[m, i + 1], [m.slice(0, 3), i + 1]] as Array<[string, number]>));
MONTH_INDEX.set('sept', 9);

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const monthKey = (y: number, m: number) => `${y}-${pad(m)}`;

function validDay(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

function daysIn(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const NUMBER_PATTERN = /(?<![A-Za-z0-9_.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s?(?:%|percent\b|k\b|K\b))?/g;

function shownNumbers(text: string): ShownNumber[] {
  const out: ShownNumber[] = [];
  for (const match of text.matchAll(NUMBER_PATTERN)) {
    const raw = match[1].replace(/,/g, '');
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const decimals = /\.(\d+)$/.exec(raw)?.[1].length ?? 0;
    const suffix = (match[2] ?? '').trim().toLowerCase();
    if (suffix === 'k') out.push({ value: value * 1000, decimals: 0, percent: false });
    out.push({ value, decimals, percent: suffix === '%' || suffix === 'percent' });
  }
  return out;
}

/** The days, months and years a text shows, in the formats people and tools write them. */
function shownDates(text: string): { days: Set<string>; months: Set<string>; years: Set<number> } {
  const days = new Set<string>();
  const months = new Set<string>();
  const years = new Set<number>();
  const addDay = (y: number, m: number, d: number) => {
    if (!validDay(y, m, d)) return;
    days.add(dayKey(y, m, d));
    months.add(monthKey(y, m));
    years.add(y);
  };
  for (const m of text.matchAll(/(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g)) addDay(Number(m[1]), Number(m[2]), Number(m[3]));
  for (const m of text.matchAll(/(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)/g)) {
    addDay(Number(m[3]), Number(m[1]), Number(m[2]));
    addDay(Number(m[3]), Number(m[2]), Number(m[1]));
  }
  const monthName = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
  for (const m of text.matchAll(new RegExp(`\\b${monthName}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'))) addDay(Number(m[3]), MONTH_INDEX.get(m[1].toLowerCase().replace(/\.$/, '')) ?? 0, Number(m[2]));
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${monthName},?\\s+(\\d{4})\\b`, 'gi'))) addDay(Number(m[3]), MONTH_INDEX.get(m[2].toLowerCase().replace(/\.$/, '')) ?? 0, Number(m[1]));
  for (const m of text.matchAll(new RegExp(`\\b${monthName},?\\s+(\\d{4})\\b`, 'gi'))) {
    const month = MONTH_INDEX.get(m[1].toLowerCase().replace(/\.$/, ''));
    if (month) {
      months.add(monthKey(Number(m[2]), month));
      years.add(Number(m[2]));
    }
  }
  for (const m of text.matchAll(/(?<![\d-])(\d{4})-(\d{2})(?![\d-])/g)) {
    const month = Number(m[2]);
    if (month >= 1 && month <= 12) months.add(monthKey(Number(m[1]), month));
  }
  for (const m of text.matchAll(/(?<![A-Za-z0-9_.])(1[89]\d\d|20\d\d|2100)(?![0-9])/g)) years.add(Number(m[1]));
  return { days, months, years };
}

function shownText(label: string, text: string, step?: number, echoes?: Set<string>): ShownText {
  return { label, step, lower: normaliseSpace(text.toLowerCase()), numbers: shownNumbers(text), ...shownDates(text), echoes };
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ');
}

// ---------------------------------------------------------------- matching

const wordPatterns = new Map<string, RegExp>();

/** Whether `lower` (lowercased, spaces collapsed) contains `needle` as a word where it begins or ends with one. */
function containsTerm(lower: string, needle: string): boolean {
  const n = normaliseSpace(needle.toLowerCase().trim());
  if (n === '') return false;
  let pattern = wordPatterns.get(n);
  if (!pattern) {
    const start = /^[a-z0-9_]/.test(n) ? '(?<![a-z0-9_])' : '';
    const end = /[a-z0-9_]$/.test(n) ? '(?![a-z0-9_])' : '';
    pattern = new RegExp(`${start}${escapeRegExp(n)}${end}`);
    if (wordPatterns.size > 5000) wordPatterns.clear();
    wordPatterns.set(n, pattern);
  }
  return pattern.test(lower);
}

function decimalsOf(text: string): number {
  return /\.(\d+)/.exec(text)?.[1].length ?? 0;
}

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Whether a number the call wrote (`text`) is one of the shown numbers, by the tolerance above. */
function numberShown(value: number, text: string, shown: ShownNumber[]): boolean {
  const v = Math.abs(value);
  const d = decimalsOf(text);
  return shown.some((s) => {
    const n = Math.abs(s.value);
    if (sameNumber(n, v)) return true;
    if (s.decimals > d && sameNumber(roundTo(n, d), v)) return true;
    if (s.percent && (sameNumber(n / 100, v) || sameNumber(1 - n / 100, v) || (s.decimals + 2 > d && sameNumber(roundTo(n / 100, d), v)))) return true;
    return false;
  });
}

const DATE_LITERAL = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;

function dateShown(text: string, source: ShownText): boolean {
  const m = DATE_LITERAL.exec(text.trim());
  if (!m) return false;
  const y = Number(m[1]);
  const month = Number(m[2]);
  if (m[3] === undefined) return source.months.has(monthKey(y, month));
  const day = Number(m[3]);
  if (!validDay(y, month, day)) return false;
  if (source.days.has(dayKey(y, month, day))) return true;
  const previous = month === 1 ? monthKey(y - 1, 12) : monthKey(y, month - 1);
  if (day === 1 && (source.months.has(monthKey(y, month)) || source.months.has(previous))) return true;
  if (day === daysIn(y, month) && source.months.has(monthKey(y, month))) return true;
  if (month === 1 && day === 1 && (source.years.has(y) || source.years.has(y - 1))) return true;
  if (month === 12 && day === 31 && source.years.has(y)) return true;
  return false;
}

// ---------------------------------------------------------------- what a call uses

type Item =
  | { kind: 'table' | 'column'; text: string }
  | { kind: 'number'; text: string; value: number }
  | { kind: 'string'; text: string; asColumn?: boolean };

const TRIVIAL_NUMBERS = new Set([0, 1, 2, 100]);

function numberItem(text: string): Item | undefined {
  const value = Number(text);
  if (!Number.isFinite(value) || TRIVIAL_NUMBERS.has(Math.abs(value))) return undefined;
  return { kind: 'number', text, value };
}

const DATE_MODIFIER = /^\s*([+-]?\s*\d+(?:\.\d+)?)\s+(day|month|year|hour|minute|second)s?\s*$/i;
const TRIVIAL_MODIFIER = /^\s*(start of (day|month|year)|now|localtime|utc|unixepoch|auto|julianday|subsec|subsecond|weekday [0-6])\s*$/i;

/** An strftime format: only %-codes and separators ('%Y-%m', '%d/%m/%Y'). */
function isStrftimeFormat(text: string): boolean {
  return /%[YmdHMSjWwsfJ]/.test(text) && !/[A-Za-z0-9]/.test(text.replace(/%[A-Za-z]/g, ''));
}

/** A GLOB pattern of wildcards and character classes only (`'*[^0-9.-]*'`: a value with a non-digit): a shape, no value. */
function isShapePattern(text: string): boolean {
  return /\[[^\]]*\]/.test(text) && !/[A-Za-z0-9]/.test(text.replace(/\[[^\]]*\]/g, ''));
}

/** A string literal as the items it stands for (none when trivial). */
function stringItems(value: string, options: { asColumn?: boolean } = {}): Item[] {
  const text = value.trim();
  if (!/[A-Za-z0-9]/.test(text) || /^null$/i.test(text) || TRIVIAL_MODIFIER.test(text) || isStrftimeFormat(text) || isShapePattern(text)) return [];
  const modifier = DATE_MODIFIER.exec(text);
  if (modifier) {
    const item = numberItem(modifier[1].replace(/\s+/g, ''));
    return item ? [item] : [];
  }
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) {
    const item = numberItem(text);
    return item ? [item] : [];
  }
  if (text.includes('%')) {
    // A LIKE pattern: each part between wildcards must be shown.
    return text
      .split('%')
      .map((part) => part.trim())
      .filter((part) => /[A-Za-z0-9]/.test(part))
      .map((part) => ({ kind: 'string' as const, text: part }));
  }
  return [{ kind: 'string', text, asColumn: options.asColumn }];
}

const SQL_PARSER = new Parser();

type AstNode = Record<string, unknown>;
const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && !Array.isArray(v);

function functionName(node: AstNode): string {
  const name = node.name;
  if (typeof name === 'string') return name.toLowerCase();
  if (isNode(name) && Array.isArray(name.name)) return name.name.map((p) => (isNode(p) ? String(p.value ?? '') : '')).join('.').toLowerCase();
  return '';
}

/** Argument positions (0-based) that are positions, digits or a format (`printf('%04d-01-01', year)`), not data, by function. */
const POSITIONAL_ARGS: Record<string, number[]> = { round: [1], substr: [1, 2], substring: [1, 2], printf: [0], format: [0], ntile: [0], lag: [1], lead: [1], nth_value: [1] };

interface SqlNames {
  tables: Set<string>;
  columns: Set<string>;
  defined: Set<string>;
  literals: Item[];
}

/** Walks a parsed statement for literals (with their context) and for the names the statement defines itself. */
function walkSql(node: unknown, out: SqlNames, skip = false): void {
  if (Array.isArray(node)) {
    for (const n of node) walkSql(n, out, skip);
    return;
  }
  if (!isNode(node)) return;
  const type = node.type;
  if (type === 'number') {
    if (!skip) {
      const item = numberItem(String(node.value));
      if (item) out.literals.push(item);
    }
    return;
  }
  if (type === 'single_quote_string' || type === 'string' || type === 'natural_string' || type === 'date' || type === 'time' || type === 'timestamp' || type === 'datetime') {
    // The parser keeps SQL's doubled quote ('Chicago O''Hare'): the value is the text with one.
    if (!skip && typeof node.value === 'string') out.literals.push(...stringItems(type === 'single_quote_string' ? node.value.replace(/''/g, "'") : node.value));
    return;
  }
  if (type === 'double_quote_string') {
    // SQLite reads "x" as a column when one is named x, else as the string 'x': either way it must be shown.
    if (!skip && typeof node.value === 'string') out.literals.push(...stringItems(node.value, { asColumn: /^[A-Za-z_][A-Za-z0-9_ ]*$/.test(node.value) }));
    return;
  }
  if (type === 'column_ref' && isNode(node.column) && isNode(node.column.expr) && typeof node.column.expr.value === 'string') {
    out.columns.add(node.column.expr.value);
  }
  if (typeof node.as === 'string') out.defined.add(node.as.toLowerCase());
  if (isNode(node.name) && node.stmt !== undefined && typeof node.name.value === 'string') out.defined.add(node.name.value.toLowerCase()); // a CTE
  if ((type === 'function' || type === 'aggr_func') && isNode(node.args)) {
    const positional = POSITIONAL_ARGS[functionName(node)] ?? [];
    const args = node.args;
    if (Array.isArray(args.value)) {
      args.value.forEach((arg, i) => walkSql(arg, out, skip || positional.includes(i)));
      for (const [key, value] of Object.entries(node)) if (key !== 'args') walkSql(value, out, skip);
      return;
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'limit') continue;
    if (key === 'orderby' || key === 'groupby') {
      // Ordinals (ORDER BY 2) are positions.
      const entries = key === 'groupby' && isNode(value) ? value.columns : value;
      if (Array.isArray(entries)) {
        for (const entry of entries) {
          const expr = isNode(entry) && 'expr' in entry ? entry.expr : entry;
          if (isNode(expr) && expr.type === 'number') continue;
          walkSql(entry, out, skip);
        }
        continue;
      }
    }
    if (key === 'tableList' || key === 'columnList') continue;
    walkSql(value, out, skip);
  }
}

/** Items of one SQL statement: parsed when the SQLite grammar accepts it, else from its tokens. */
function sqlItems(query: string): Item[] {
  return sqlAnalysis(query).items;
}

/**
 * The literal values of a statement that the audit checks (numbers by value, strings by their text): not ROUND's
 * digits, LIMIT's count, strftime formats or the trivial numbers. The simulated agent asks the same question of
 * its own SQL before it writes it.
 */
export function auditedSqlLiterals(query: string): { numbers: Set<number>; strings: Set<string> } {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  for (const item of sqlItems(query)) {
    if (item.kind === 'number') numbers.add(item.value);
    else if (item.kind === 'string' && !item.asColumn) strings.add(item.text);
  }
  return { numbers, strings };
}

/** The items of a statement and the names it defines itself (aliases, CTEs). */
function sqlAnalysis(query: string): { items: Item[]; defined: Set<string> } {
  let parsed: { tableList: string[]; columnList: string[]; ast: unknown } | undefined;
  try {
    parsed = SQL_PARSER.parse(query, { database: 'sqlite' }) as unknown as { tableList: string[]; columnList: string[]; ast: unknown };
  } catch {
    parsed = undefined;
  }
  if (!parsed) return sqlTokenItems(query);
  const out: SqlNames = { tables: new Set(), columns: new Set(), defined: new Set(), literals: [] };
  walkSql(parsed.ast, out);
  for (const entry of parsed.tableList) out.tables.add(entry.split('::').slice(2).join('::'));
  for (const entry of parsed.columnList) out.columns.add(entry.split('::').slice(2).join('::'));
  const items: Item[] = [];
  for (const table of out.tables) if (table && table !== 'null' && !out.defined.has(table.toLowerCase())) items.push({ kind: 'table', text: table });
  for (const column of out.columns) {
    if (!column || column === '(.*)' || column === '*' || out.defined.has(column.toLowerCase())) continue;
    items.push({ kind: 'column', text: column });
  }
  // ORDER BY "total" names the query's own alias; SQLite resolves it before reading it as a string.
  const literals = out.literals.filter((l) => !(l.kind === 'string' && l.asColumn && out.defined.has(l.text.toLowerCase())));
  return { items: [...items, ...literals], defined: out.defined };
}

const SQL_WORDS = new Set(
  `select from where and or not in is null like glob between exists case when then else end as on join inner left right full outer cross natural using group by having order asc desc limit offset union all intersect except distinct with recursive cast collate escape values true false over partition rows range preceding following current row unbounded filter window any some
  count sum avg min max total group_concat string_agg round abs coalesce ifnull nullif iif length lower upper trim ltrim rtrim substr substring replace instr printf format date time datetime julianday strftime unixepoch typeof random char hex quote zeroblob likelihood likely unlikely rank dense_rank row_number ntile lag lead first_value last_value nth_value percent_rank cume_dist integer real text numeric blob int float double varchar boolean median stdev variance sqrt power pow log ln exp floor ceil ceiling sign mod pi json json_extract json_each`
    .split(/\s+/)
    .filter((w) => w !== ''),
);

/** The fallback when a query does not parse: quoted strings, numbers and identifiers, keywords and aliases aside. */
function sqlTokenItems(query: string): { items: Item[]; defined: Set<string> } {
  const items: Item[] = [];
  const code = query.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const stripped = code.replace(/'(?:[^']|'')*'/g, (m) => {
    items.push(...stringItems(m.slice(1, -1).replace(/''/g, "'")));
    return ' ';
  });
  const defined = new Set<string>();
  for (const m of stripped.matchAll(/\bas\s+["`[]?([A-Za-z_][A-Za-z0-9_]*)/gi)) defined.add(m[1].toLowerCase());
  for (const m of stripped.matchAll(/\b(?:from|join)\s+["`[]?[A-Za-z_][A-Za-z0-9_]*["`\]]?\s+(?!(?:on|where|join|inner|left|right|full|cross|group|order|limit|using|natural|union)\b)([A-Za-z_][A-Za-z0-9_]*)/gi)) defined.add(m[1].toLowerCase());
  for (const m of stripped.matchAll(/\bwith\s+(?:recursive\s+)?([A-Za-z_][A-Za-z0-9_]*)|,\s*([A-Za-z_][A-Za-z0-9_]*)\s+as\s*\(/gi)) defined.add((m[1] ?? m[2]).toLowerCase());
  const tables = new Set<string>();
  for (const m of stripped.matchAll(/\b(?:from|join)\s+["`[]?([A-Za-z_][A-Za-z0-9_]*)/gi)) if (!defined.has(m[1].toLowerCase())) tables.add(m[1]);
  for (const t of tables) items.push({ kind: 'table', text: t });
  const seen = new Set([...tables].map((t) => t.toLowerCase()));
  const noLimits = stripped.replace(/\b(limit|offset)\s+\d+(\s*,\s*\d+)?/gi, ' ').replace(/\b(order|group)\s+by\s+\d+(\s*,\s*\d+)*/gi, ' ');
  for (const m of noLimits.matchAll(/"([^"]+)"|`([^`]+)`|\[([^\]]+)\]|(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)(?:\s*\.\s*([A-Za-z_][A-Za-z0-9_]*))?|(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)(?![A-Za-z0-9_])/g)) {
    const quoted = m[1] ?? m[2] ?? m[3];
    if (m[6] !== undefined) {
      const item = numberItem(m[6]);
      if (item) items.push(item);
      continue;
    }
    const name = quoted ?? m[5] ?? m[4];
    if (!name) continue;
    const lower = name.toLowerCase();
    const followedByParen = !quoted && m[5] === undefined && /^\s*\(/.test(noLimits.slice((m.index ?? 0) + m[0].length));
    if (seen.has(lower) || defined.has(lower) || (!quoted && SQL_WORDS.has(lower)) || followedByParen) continue;
    seen.add(lower);
    items.push({ kind: 'column', text: name });
  }
  return { items, defined };
}

interface PyToken {
  kind: 'string' | 'number' | 'name' | 'op';
  text: string;
  /** For strings: the content, and whether it is an f-string. */
  value?: string;
  fstring?: boolean;
}

/** A small Python tokenizer: strings (prefixes, triple quotes), numbers, names, operators; comments dropped. */
function pythonTokens(code: string): PyToken[] {
  const tokens: PyToken[] = [];
  const pattern = /(#[^\n]*)|([rRbBuUfF]{0,2})("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|(\d[\d_]*(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)|([A-Za-z_][A-Za-z0-9_]*)|(\S)/g;
  for (const m of code.matchAll(pattern)) {
    if (m[1]) continue;
    if (m[3] !== undefined) {
      const quote = m[3].startsWith('"""') || m[3].startsWith("'''") ? 3 : 1;
      const raw = m[3].slice(quote, -quote);
      // The string's value, escapes read as Python reads them: `"SELECT c.\\"home_team\\""` names home_team.
      const value = /r/i.test(m[2] ?? '') ? raw : raw.replace(/\\(["'\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
      tokens.push({ kind: 'string', text: m[0], value, fstring: /f/i.test(m[2] ?? '') });
    } else if (m[4] !== undefined) tokens.push({ kind: 'number', text: m[4].replace(/_/g, '') });
    else if (m[5] !== undefined) {
      // A name glued to a string prefix letter (e.g. `f` before a quote) was taken by group 2.
      tokens.push({ kind: 'name', text: m[5] });
    } else tokens.push({ kind: 'op', text: m[6] });
  }
  return tokens;
}

const PRESENTATION_CALLS = new Set(['print', 'format', 'join', 'write', 'strftime', 'strptime', 'split', 'replace', 'strip', 'rstrip', 'lstrip', 'startswith', 'endswith', 'append']);

/** Items of Python code: its queries as SQL, its data strings and numbers. */
function pythonItems(code: string): Item[] {
  const items: Item[] = [];
  const tokens = pythonTokens(code);
  /** Names the code's own queries define (aliases): their rows' keys. */
  const defined = new Set<string>();
  const keys: Item[] = [];
  /** The callee of each open bracket, '[' for a subscript. */
  const stack: Array<{ open: string; callee?: string; commas: number }> = [];
  tokens.forEach((token, i) => {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const top = stack[stack.length - 1];
    if (token.kind === 'op') {
      if (token.text === '(' || token.text === '[' || token.text === '{') {
        const callee = token.text === '(' && prev?.kind === 'name' ? prev.text : token.text === '[' && prev && (prev.kind === 'name' || prev.text === ']' || prev.text === ')') ? '[' : undefined;
        stack.push({ open: token.text, callee, commas: 0 });
      } else if (token.text === ')' || token.text === ']' || token.text === '}') stack.pop();
      else if (token.text === ',' && top) top.commas++;
      return;
    }
    if (token.kind === 'number') {
      if (top?.callee === '[' || (top?.callee === 'round' && top.commas >= 1) || top?.callee === 'range') return;
      // The number of groups a quantile function cuts at (`statistics.quantiles(values, n=10)` for the 90th percentile)
      // is how a percentile the question names is computed, like ROUND's digits.
      if (top?.callee === 'quantiles' && prev?.text === '=' && tokens[i - 2]?.text === 'n') return;
      // An exponent (`** 0.5`, `** 2`) is arithmetic, a square root or a square, not a value of the data.
      if (prev?.text === '*' && tokens[i - 2]?.text === '*') return;
      // A page size (`page = 1000`, `batch_size = 500`) is how the code reads rows, not a value of the data.
      if (prev?.text === '=' && tokens[i - 2]?.kind === 'name' && /(page|batch|chunk|limit)/i.test(tokens[i - 2].text) && !top) return;
      const item = numberItem(token.text);
      if (item) items.push(item);
      return;
    }
    if (token.kind !== 'string' || token.value === undefined) return;
    const value = token.fstring ? token.value.replace(/\{[^}]*\}/g, 'NULL') : token.value;
    if (top?.callee === 'sql' || /^\s*(select|with)\b/i.test(value)) {
      const analysis = sqlAnalysis(value);
      items.push(...analysis.items);
      for (const name of analysis.defined) defined.add(name);
      return;
    }
    if (token.fstring || (top && top.callee !== undefined && PRESENTATION_CALLS.has(top.callee))) return;
    // (The method a quantile function interpolates by, `method='inclusive'`, is how, not what.)
    if (top?.callee === 'quantiles' && prev?.text === '=') return;
    if (next?.kind === 'op' && next.text === '.' && tokens[i + 2]?.kind === 'name' && PRESENTATION_CALLS.has(tokens[i + 2].text)) return; // ', '.join, '{}'.format
    const asColumn = top?.callee === '[' || (top?.callee === 'get' && top.commas === 0);
    (asColumn ? keys : items).push(...stringItems(value, { asColumn }));
  });
  return [...items, ...keys.filter((k) => !defined.has(k.text.toLowerCase()))];
}

/** What a step's tool call uses, by the rules in the header. */
function itemsOf(step: AgentStep): Item[] {
  const call = step.toolCall;
  if (!call) return [];
  const args = step.observation.args ?? parseArgs(call.arguments) ?? {};
  switch (call.name) {
    case 'run_sql':
      return typeof args.query === 'string' ? sqlItems(args.query) : [];
    case 'run_python':
      return typeof args.code === 'string' ? pythonItems(args.code) : [];
    case 'describe_table':
    case 'sample_rows':
      return typeof args.table === 'string' ? [{ kind: 'table', text: args.table.replace(/^["'`[]|["'`\]]$/g, '') }] : [];
    default:
      return [];
  }
}

/** Normalised words and numbers of a call, for what its own error message cannot ground. */
function echoesOf(step: AgentStep): Set<string> {
  const text = step.toolCall?.arguments ?? '';
  return new Set((text.toLowerCase().match(/[a-z0-9_.%-]+/g) ?? []).flatMap((w) => [w, w.replace(/^[-.]+|[-.]+$/g, '')]));
}

// ---------------------------------------------------------------- the audit

function sourcesBefore(steps: readonly AgentStep[], index: number, fixed: ShownText[], cache: Map<number, ShownText>): ShownText[] {
  const out = [...fixed];
  for (let i = 0; i < index; i++) {
    let shown = cache.get(i);
    if (!shown) {
      const step = steps[i];
      shown = shownText(`step ${step.index}`, step.observation.text, step.index, step.observation.ok ? undefined : echoesOf(step));
      cache.set(i, shown);
    }
    out.push(shown);
  }
  return out;
}

function groundedIn(item: Item, source: ShownText): boolean {
  if (source.echoes?.has(item.text.toLowerCase().trim())) return false;
  switch (item.kind) {
    case 'table':
    case 'column':
      return containsTerm(source.lower, item.text);
    case 'number':
      return numberShown(item.value, item.text, source.numbers);
    case 'string':
      return containsTerm(source.lower, item.text) || dateShown(item.text, source);
  }
}

function reasonFor(item: Item, documents: ShownText[]): UngroundedItem {
  if (item.kind === 'table') return { kind: 'table', text: item.text, why: 'a table no schema listing, question or earlier observation names' };
  if (item.kind === 'column' || (item.kind === 'string' && item.asColumn && !DATE_LITERAL.test(item.text))) {
    return { kind: 'column', text: item.text, why: 'a column no schema listing, question or earlier observation names' };
  }
  const inDocument = documents.find((d) => groundedIn(item, d));
  const why = inDocument
    ? `a literal no observation, question or document read shows; it is in ${inDocument.label}, which no read_document or search_documents had returned before this step`
    : 'a literal no observation, question or document read shows';
  return { kind: 'literal', text: item.text, why };
}

interface AuditContext {
  fixed: ShownText[];
  documents: ShownText[];
  cache: Map<number, ShownText>;
}

function auditContext(sources: GroundingSources): AuditContext {
  return {
    fixed: [shownText('the system prompt', sources.systemPrompt), shownText('the question', sources.question)],
    documents: (sources.documents ?? []).map((d) => shownText(d.name, d.text)),
    cache: new Map(),
  };
}

/** The audit of `steps[i]` against the sources and the observations of the steps before it. */
function auditAt(steps: readonly AgentStep[], i: number, context: AuditContext): StepGrounding {
  const items = itemsOf(steps[i]);
  if (items.length === 0) return { ungrounded: [], readsFrom: [] };
  const shown = sourcesBefore(steps, i, context.fixed, context.cache);
  const ungrounded: UngroundedItem[] = [];
  const readsFrom = new Set<number>();
  const reported = new Set<string>();
  for (const item of items) {
    const found = shown.filter((s) => groundedIn(item, s));
    if (found.length === 0) {
      const reason = reasonFor(item, context.documents);
      const key = `${reason.kind}\u0000${reason.text.toLowerCase()}`;
      if (!reported.has(key)) ungrounded.push(reason);
      reported.add(key);
      continue;
    }
    if ((item.kind === 'number' || item.kind === 'string') && found.every((s) => s.step !== undefined)) {
      // The latest observation that shows it is the one the call read it from.
      readsFrom.add(found[found.length - 1].step as number);
    }
  }
  return { ungrounded, readsFrom: [...readsFrom].sort((a, b) => a - b) };
}

/**
 * Audits every step of a trajectory against what was shown before it. Steps are in order, root first; the
 * result has one entry per step.
 */
export function auditGrounding(steps: readonly AgentStep[], sources: GroundingSources): StepGrounding[] {
  const context = auditContext(sources);
  return steps.map((_, i) => auditAt(steps, i, context));
}

/** One step's audit against the steps before it (what `runStep` records on each new step). */
export function auditStep(step: AgentStep, earlier: readonly AgentStep[], sources: GroundingSources): StepGrounding {
  return auditAt([...earlier, step], earlier.length, auditContext(sources));
}

/**
 * The ungrounded literals the final answer depends on: those of the last successful SQL / Python step before the
 * answer, and of every earlier successful step whose observation supplied a literal to a step the answer depends on.
 */
export function answerDependsOnUngrounded(steps: readonly AgentStep[], grounding: readonly (StepGrounding | undefined)[]): Array<UngroundedItem & { step: number }> {
  const code = (s: AgentStep) => s.observation.ok && (s.toolCall?.name === 'run_sql' || s.toolCall?.name === 'run_python');
  const finalAt = steps.findIndex((s) => s.observation.ok && s.observation.data.kind === 'final');
  const end = finalAt >= 0 ? finalAt : steps.length;
  let last = -1;
  for (let i = end - 1; i >= 0; i--) {
    if (code(steps[i])) {
      last = i;
      break;
    }
  }
  if (last < 0) return [];
  const positionOf = new Map(steps.map((s, i) => [s.index, i]));
  const depends = new Set<number>();
  const queue = [last];
  while (queue.length) {
    const i = queue.pop() as number;
    if (depends.has(i)) continue;
    depends.add(i);
    for (const from of grounding[i]?.readsFrom ?? []) {
      const j = positionOf.get(from);
      if (j !== undefined && j < i && code(steps[j])) queue.push(j);
    }
  }
  return [...depends]
    .sort((a, b) => a - b)
    .flatMap((i) => (grounding[i]?.ungrounded ?? []).filter((u) => u.kind === 'literal').map((u) => ({ ...u, step: steps[i].index })));
}
