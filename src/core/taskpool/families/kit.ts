/**
 * The family kit: what every task family is built from. A family reads the semantic profile (what a column means),
 * picks its parts only where the data supports them (aggregation by additivity, groupings by dimensions of 2–50
 * values, time only over time columns, no derived pairs), executes its steps in the sandboxes through a
 * `TaskProgram`, and returns a TaskSpec whose steps each carry a sub-answer.
 *
 * A new family goes in its own file in this folder and is listed in `index.ts`.
 */
import { createHash } from 'node:crypto';
import type { CodeRunner } from '../../agent/tools';
import type { ColumnProfile, DataDocument, EnvironmentProfile, TableProfile } from '../../env/types';
import type { ColumnSemantics, Relationship, SemanticProfile } from '../../semantics/types';
import type { ToolResult } from '../../sandbox/types';
import { quoteIdent } from '../../text/sql';
import { numberTolerance } from '../answer';
import type { EvidenceGraph } from '../graph';
import type { AnswerKey, DependencyKind, EvidenceStep, SubAnswer, TaskDifficulty, TaskSpec } from '../types';

export { quoteIdent as q, sqlLiteral } from '../../text/sql';

export interface FamilyContext {
  profile: EnvironmentProfile;
  /** What the data means: every family picks its measures, groupings and time columns from it. */
  semantics: SemanticProfile;
  sql: CodeRunner;
  /** Families with a Python step are skipped without it. */
  python?: CodeRunner;
  /** Tasks per family at most. */
  maxPerFamily: number;
  signal?: AbortSignal;
  documents: DataDocument[];
  graph?: EvidenceGraph;
}

export interface TaskFamily {
  id: string;
  description: string;
  /** What the data must offer, in words, for the pool report when the family finds nothing. */
  needs: string;
  generate(context: FamilyContext): Promise<TaskSpec[]>;
}

export const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v));

/** Stable id: the family and its parameters, hashed. */
export function taskId(family: string, parameters: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify([family, parameters])).digest('hex').slice(0, 12);
  return `${family}-${digest}`;
}

// ---- what columns mean -------------------------------------------------------------------------------------------

export function semanticsOf(context: FamilyContext, table: string, column: string): ColumnSemantics | undefined {
  return context.semantics.columns.find((c) => c.table === table && c.column === column);
}

const isNumeric = (c: ColumnProfile) => c.type === 'integer' || c.type === 'real';

/** Tables tasks are asked over: base tables and partition views (not their member files), not views derived from others. */
export function taskTables(context: FamilyContext, minRows = 10): TableProfile[] {
  const { semantics } = context;
  const members = new Set(semantics.partitions.flatMap((p) => (p.view ? p.tables.map((t) => t.table) : [])));
  const partitionViews = new Set(semantics.partitions.map((p) => p.view).filter((v): v is string => v !== undefined));
  const derived = new Set(semantics.tables.filter((t) => t.kind.value === 'derived').map((t) => t.table));
  return context.profile.tables
    .filter((t) => t.rowCount >= minRows && !members.has(t.name) && (partitionViews.has(t.name) || !derived.has(t.name)))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Numeric measures of a table (role measure, mostly filled, varying), additive ones first. */
export function measures(context: FamilyContext, table: TableProfile, options: { additiveOnly?: boolean } = {}): ColumnProfile[] {
  const rank = (c: ColumnProfile) => (additivityOf(context, table.name, c.name) === 'additive' ? 0 : additivityOf(context, table.name, c.name) === 'semi-additive' ? 2 : 1);
  return table.columns
    .filter((c) => isNumeric(c) && semanticsOf(context, table.name, c.name)?.role.value === 'measure' && c.nullFraction < 0.5 && c.distinctCount > 2)
    .filter((c) => !options.additiveOnly || additivityOf(context, table.name, c.name) === 'additive')
    .sort((a, b) => rank(a) - rank(b));
}

export function additivityOf(context: FamilyContext, table: string, column: string): 'additive' | 'semi-additive' | 'non-additive' {
  return semanticsOf(context, table, column)?.additivity?.value ?? 'non-additive';
}

export interface Aggregate {
  /** `SUM`, or `AVG` for measures that do not add up. */
  fn: 'SUM' | 'AVG';
  /** The aggregate over an expression: `SUM(c."amount")`. */
  of(expression: string): string;
  /** "total revenue", "average unit price". */
  phrase: string;
}

/**
 * How a measure is aggregated, by its additivity: SUM for additive ones, AVG for the rest (a semi-additive level
 * is averaged across time; summing it across entities at one moment is a snapshot family's business).
 */
export function aggregateOf(context: FamilyContext, table: string, column: ColumnProfile): Aggregate {
  const additive = additivityOf(context, table, column.name) === 'additive';
  const name = measureName(context, table, column);
  if (additive) return { fn: 'SUM', of: (e) => `SUM(${e})`, phrase: /\b(total|sum|amount)s?\b/.test(name) ? `sum of ${pluralWords(name)}` : `total ${name}` };
  return { fn: 'AVG', of: (e) => `AVG(${e})`, phrase: `average ${name}` };
}

/** A measure's name in words, with a unit the semantic profile knows when the name lacks it. */
export function measureName(context: FamilyContext, table: string, column: ColumnProfile): string {
  return humanize(column.originalName || column.name);
}

const GROUP_ROLES = new Set(['dimension', 'ordinal', 'flag', 'geo']);
const UNGROUPABLE_GEO = new Set(['latitude', 'longitude', 'address', 'postal-code']);

/** A position in a list (a line number, a sequence, a rank): ordered, but not a group anyone compares. */
export function isPosition(column: ColumnProfile): boolean {
  return column.type === 'integer' && /(^|_|\b)(line|seq|sequence|position|pos|index|idx|no|number|num|rank|order)(_|$|\b)/i.test(column.name.replace(/([a-z])([A-Z])/g, '$1_$2'));
}

/** Columns to group a table by: dimensions, ordinals, flags and areas with `min`–`max` distinct values (default 2–50). */
export function groupings(context: FamilyContext, table: TableProfile, options: { min?: number; max?: number } = {}): ColumnProfile[] {
  const min = options.min ?? 2;
  const max = options.max ?? 50;
  return table.columns.filter((c) => {
    const s = semanticsOf(context, table.name, c.name);
    if (!s || !GROUP_ROLES.has(s.role.value) || (s.geo && UNGROUPABLE_GEO.has(s.geo)) || isPosition(c)) return false;
    return c.distinctCount >= min && c.distinctCount <= max && c.nullFraction < 0.5;
  });
}

export interface TimeColumn {
  column: ColumnProfile;
  /** An SQL expression giving an ISO date (or datetime) text for the column. */
  date: string;
  grain: string;
}

/** Real time columns of a table whose values can be read as dates (ISO text, years, `YYYY-MM` periods), dating the rows. */
export function timeColumns(context: FamilyContext, table: TableProfile, alias = ''): TimeColumn[] {
  const found: TimeColumn[] = [];
  for (const c of table.columns) {
    const s = semanticsOf(context, table.name, c.name);
    if (s?.role.value !== 'time' || !s.time || c.nullFraction >= 0.5 || c.distinctCount < 3) continue;
    const ref = `${alias}${quoteIdent(c.name)}`;
    if (s.time.storage === 'iso-date' || s.time.storage === 'iso-datetime') found.push({ column: c, date: ref, grain: s.time.grain });
    else if (s.time.isoExpression && (s.time.storage === 'year' || s.time.storage === 'period' || s.time.storage === 'epoch-s' || s.time.storage === 'epoch-ms')) {
      found.push({ column: c, date: s.time.isoExpression.replace(/\{col\}/g, ref), grain: s.time.grain });
    }
  }
  return found;
}

/** Whether two columns are computed one from the other (or from shared inputs): comparing them says nothing. */
export function derivedPair(context: FamilyContext, a: { table: string; column: string }, b: { table: string; column: string }): boolean {
  const computed = context.semantics.relationships.filter((r): r is Extract<Relationship, { kind: 'derived-column' }> => r.kind === 'derived-column');
  const inputs = (x: { table: string; column: string }) => new Set([x.column, ...computed.filter((r) => r.table === x.table && r.column === x.column).flatMap((r) => r.from)]);
  if (a.table !== b.table) {
    // Across tables, a view column copied from its base is the same data.
    const sa = semanticsOf(context, a.table, a.column);
    const sb = semanticsOf(context, b.table, b.column);
    return sa?.role.why === `copies ${b.table}.${b.column}` || sb?.role.why === `copies ${a.table}.${a.column}`;
  }
  const ia = inputs(a);
  const ib = inputs(b);
  return [...ia].some((x) => ib.has(x));
}

export interface ForeignKey {
  child: TableProfile;
  childColumn: ColumnProfile;
  parent: TableProfile;
  parentColumn: ColumnProfile;
  containment: number;
  byName: boolean;
}

/** The many-to-one keys of the semantic profile between task tables, with their profiles. */
export function foreignKeys(context: FamilyContext): ForeignKey[] {
  const tables = new Map(context.profile.tables.map((t) => [t.name, t]));
  const usable = new Set(taskTables(context, 1).map((t) => t.name));
  const found: ForeignKey[] = [];
  for (const r of context.semantics.relationships) {
    if (r.kind !== 'foreign-key' || !usable.has(r.child.table) || !usable.has(r.parent.table)) continue;
    const child = tables.get(r.child.table);
    const parent = tables.get(r.parent.table);
    const childColumn = child?.columns.find((c) => c.name === r.child.column);
    const parentColumn = parent?.columns.find((c) => c.name === r.parent.column);
    if (child && parent && childColumn && parentColumn && parentColumn.candidateKey) found.push({ child, childColumn, parent, parentColumn, containment: r.containment, byName: r.byName });
  }
  return found;
}

/**
 * A readable label for a parent's rows: a text column that names them (unique or nearly), not the key itself;
 * the key when nothing names the rows better (a code such as `iata` is a fine label too).
 */
export function labelColumn(context: FamilyContext, table: TableProfile, key: ColumnProfile): ColumnProfile {
  const texts = table.columns.filter((c) => {
    if (c === key || c.type !== 'text' || c.nullFraction > 0) return false;
    const role = semanticsOf(context, table.name, c.name)?.role.value;
    return role === 'text' || role === 'dimension' || role === 'geo' || role === 'identifier';
  });
  return texts.find((c) => c.distinctCount === table.rowCount) ?? texts.find((c) => c.distinctCount >= 0.8 * table.rowCount) ?? key;
}

// ---- executing steps ------------------------------------------------------------------------------------------

const EVIDENCE_PREVIEW_ROWS = 20;

/** Runs one evidence step; the step keeps the first rows of its result. */
export async function evidence(context: FamilyContext, tool: EvidenceStep['tool'], code: string, purpose: string): Promise<{ step: EvidenceStep; result: ToolResult }> {
  const runner = tool === 'run_sql' ? context.sql : context.python;
  if (!runner) throw new Error(`no ${tool} sandbox`);
  const result = await runner.run(code, { signal: context.signal });
  const step: EvidenceStep = { tool, code, purpose };
  if (result.ok && tool === 'run_sql') step.result = { columns: result.columns ?? [], rows: (result.rows ?? []).slice(0, EVIDENCE_PREVIEW_ROWS) };
  if (result.ok && tool === 'run_python') step.result = { columns: ['stdout'], rows: [[(result.stdout ?? '').trim()]] };
  return { step, result };
}

export async function query(context: FamilyContext, sql: string): Promise<unknown[][] | undefined> {
  const result = await context.sql.run(sql, { signal: context.signal });
  return result.ok ? result.rows ?? [] : undefined;
}

/** A count is right within half a unit; a computed value within its rounding (or 1e-4 relative). */
function toleranceOf(value: number, decimals: number | undefined): number {
  return decimals === undefined && Number.isInteger(value) ? 0.5 : numberTolerance(value, decimals);
}

/** How a step's result is read as its sub-answer. */
export type Reading =
  | { kind: 'string' }
  | { kind: 'number'; decimals?: number }
  | { kind: 'list'; ordered: boolean }
  /** The last line a Python step prints, as a number. */
  | { kind: 'printed-number'; decimals?: number };

/** The sub-answer key a step's rows (or printed output) state, or undefined when they state none. */
export function readKey(result: ToolResult, reading: Reading): AnswerKey | undefined {
  if (!result.ok) return undefined;
  if (reading.kind === 'printed-number') {
    const value = Number((result.stdout ?? '').trim().split('\n').pop());
    return Number.isFinite(value) ? { type: 'number', value, tolerance: toleranceOf(value, reading.decimals) } : undefined;
  }
  const rows = result.rows ?? [];
  if (reading.kind === 'list') {
    const values = rows.map((r) => r[0]);
    return values.length > 0 && values.every((v) => v !== null && v !== undefined) ? { type: 'list', values: values.map(String), ordered: reading.ordered } : undefined;
  }
  const cell = rows[0]?.[0];
  if (cell === null || cell === undefined) return undefined;
  if (reading.kind === 'number') {
    const value = num(cell);
    return Number.isFinite(value) ? { type: 'number', value, tolerance: toleranceOf(value, reading.decimals) } : undefined;
  }
  return { type: 'string', value: String(cell) };
}

/**
 * A task program being built: each step is executed as it is added, its result read as a sub-answer; a step that
 * fails, returns nothing or states no answer ends the program (the family moves on to its next candidate).
 */
export class TaskProgram {
  readonly steps: EvidenceStep[] = [];
  private readonly results: ToolResult[] = [];

  constructor(
    private readonly context: FamilyContext,
    readonly composition: string,
  ) {}

  /** Executes a step; returns its result (rows or stdout) and sub-answer key, or undefined when it states none. */
  async step(tool: EvidenceStep['tool'], code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }): Promise<{ result: ToolResult; key: AnswerKey; rows: unknown[][] } | undefined> {
    const { step, result } = await evidence(this.context, tool, code, purpose);
    const key = readKey(result, answer.reading);
    if (!key) return undefined;
    const sub: SubAnswer = { label: answer.label, key };
    if (answer.carries && answer.carries.length > 0) sub.carries = answer.carries;
    step.subAnswer = sub;
    if (answer.uses && answer.uses.length > 0) step.uses = answer.uses;
    this.steps.push(step);
    this.results.push(result);
    return { result, key, rows: result.rows ?? [] };
  }

  sql(code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }) {
    return this.step('run_sql', code, purpose, answer);
  }

  python(code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }) {
    return this.step('run_python', code, purpose, answer);
  }

  /** The task: the last step's sub-answer is its answer. */
  task(spec: { family: string; parameters: Record<string, unknown>; question: string; tables: string[]; dependency?: DependencyKind; documents?: TaskSpec['documents']; needs?: string }): TaskSpec {
    const last = this.steps[this.steps.length - 1];
    if (!last?.subAnswer) throw new Error('a task program needs at least one step with a sub-answer');
    const task: TaskSpec = {
      id: taskId(spec.family, spec.parameters),
      family: spec.family,
      question: spec.question,
      answer: last.subAnswer.key,
      evidence: this.steps,
      difficulty: difficultyOf(this.steps, spec.tables),
      tables: spec.tables,
      program: { composition: this.composition, steps: this.steps.length, ...(spec.needs ? { needs: spec.needs } : {}) },
    };
    if (spec.dependency) task.dependency = spec.dependency;
    if (spec.documents) task.documents = spec.documents;
    return task;
  }
}

/** Difficulty from the evidence's shape: joins and extra steps weigh most. */
export function difficultyOf(steps: EvidenceStep[], tables: string[]): TaskDifficulty {
  const sqlText = steps.filter((s) => s.tool === 'run_sql').map((s) => s.code).join('\n');
  const joins = (sqlText.match(/\bJOIN\b/gi) ?? []).length;
  const aggregation = /\b(GROUP BY|COUNT|SUM|AVG|MIN|MAX)\b/i.test(sqlText);
  const grouped = /\bGROUP BY\b/i.test(sqlText);
  const window = /\bOVER\s*\(/i.test(sqlText);
  const python = steps.some((s) => s.tool === 'run_python');
  // Joins and Python steps are where agents slip most (wrong keys, runtime errors), so they weigh double.
  const score = steps.length - 1 + 2 * joins + (grouped ? 1 : 0) + (window ? 1 : 0) + (python ? 2 : 0);
  const level = score <= 0 ? 'easy' : score <= 3 ? 'medium' : 'hard';
  return { steps: steps.length, tables: tables.length, joins, aggregation: aggregation || python, window, python, level };
}

// ---- signals, not noise ----------------------------------------------------------------------------------------

/**
 * A clear winner: the first value beats the second by at least `margin` of its magnitude (5% by default), and
 * there are at least two groups. Ties at the top, or a photo finish, make an answer that says nothing.
 */
export function clearLeader(rows: unknown[][], valueAt = 1, margin = 0.05): boolean {
  if (rows.length < 2 || rows[0][0] === null || rows[0][0] === undefined) return false;
  const a = num(rows[0][valueAt]);
  const b = num(rows[1][valueAt]);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return a > b && a - b >= margin * Math.max(Math.abs(a), 1e-9);
}

/** Values that are all the same say nothing about a comparison. */
export function varies(rows: unknown[][], valueAt = 1): boolean {
  return new Set(rows.map((r) => String(r[valueAt]))).size > 1;
}

/** Periods (years, months) with the full count of their sub-periods: a year whose data ends in May is partial. */
export async function fullPeriods(context: FamilyContext, table: TableProfile, time: TimeColumn, grain: 'year' | 'month'): Promise<string[]> {
  const t = quoteIdent(table.name);
  const format = grain === 'year' ? '%Y' : '%Y-%m';
  const inner = grain === 'year' ? '%Y-%m' : '%Y-%m-%d';
  const rows = await query(context, `SELECT strftime('${format}', ${time.date}) AS p, COUNT(DISTINCT strftime('${inner}', ${time.date})) AS parts, COUNT(*) AS n FROM ${t} WHERE ${time.date} IS NOT NULL GROUP BY 1 ORDER BY 1`);
  if (!rows) return [];
  const most = Math.max(...rows.map((r) => num(r[2])), 0);
  // Yearly data (one date per year) has one part per year: then a year is complete when it has its share of rows.
  const yearly = rows.every((r) => num(r[1]) <= 1);
  return rows
    .filter((r) => r[0] !== null && (yearly ? num(r[2]) >= 0.5 * most : grain === 'year' ? num(r[1]) >= 12 : num(r[1]) >= 25) && num(r[2]) >= 0.3 * most)
    .map((r) => String(r[0]));
}

// ---- words -----------------------------------------------------------------------------------------------------

const ACRONYM = /^[A-Z0-9]{2,6}$/;

/**
 * A column or table name as an analyst writes it: `unit_price` → "unit price", `OrderDate` → "order date";
 * codes and acronyms stay as written (`FTHG`, `GDP`, `FOD1P`), digits stay attached (`t_1962` → "1962").
 */
export function humanize(name: string): string {
  const parts = name
    .replace(/([a-z0-9])([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[_\-.\s]+/)
    .filter((p) => p !== '');
  return parts
    .map((p) => (ACRONYM.test(p) && /[A-Z]/.test(p) && !/^[A-Z][a-z]/.test(p) ? p : p.toLowerCase()))
    .filter((p, i, all) => !(p === 't' && i === 0 && all.length > 1 && /^\d/.test(all[1])))
    .join(' ');
}

/** Nouns without a plural of their own: a table of staff is "staff", not "staffs". */
const UNCOUNTABLE = new Set(['staff', 'personnel', 'equipment', 'information', 'data', 'inventory', 'stock', 'news', 'series', 'species', 'software', 'feedback', 'weather', 'metadata']);

/** A table's rows as a noun, singular or plural by count: "order item" / "order items". */
export function noun(name: string, count: number | 'one' | 'many'): string {
  const words = humanize(name);
  if (UNCOUNTABLE.has(words.split(' ').pop() ?? '')) return count === 'one' || count === 1 ? `${words} member` : words;
  const many = count === 'many' || (typeof count === 'number' && count !== 1);
  const last = words.split(' ').pop() ?? words;
  const head = words.slice(0, words.length - last.length);
  if (/\d/.test(last)) return words;
  if (many) return head + (/(s|x|ch|sh)$/.test(last) ? (/ss$/.test(last) ? `${last}es` : last) : /[^aeiou]y$/.test(last) ? `${last.slice(0, -1)}ies` : `${last}s`);
  return head + (/ies$/.test(last) ? `${last.slice(0, -3)}y` : /(ss|us|is)$/.test(last) ? last : /s$/.test(last) ? last.slice(0, -1) : last);
}

/** Words of a name, its last word pluralised: "order total" → "order totals". */
export function pluralWords(words: string): string {
  return noun(words.replace(/ /g, '_'), 'many');
}

/** "a" or "an" before a word. */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) && !/^(uni|use|eu|one)/i.test(word) ? 'an' : 'a';
}

// ---- sources: a table, or a table joined to a parent -----------------------------------------------------------

/** A grouping column with the SQL to read it: on the table itself (alias `c`), or on a parent across a key (alias `p`). */
export interface Grouping {
  column: ColumnProfile;
  /** The table holding the column. */
  table: TableProfile;
  /** `c."region"` or `p."region"`. */
  ref: string;
  /** The key the parent is joined through, for a parent's column. */
  via?: ForeignKey;
}

/** A table's own groupings, then those of each parent it has a many-to-one key to (one hop). */
export function groupingsOf(context: FamilyContext, table: TableProfile, options: { min?: number; max?: number } = {}): Grouping[] {
  const own = groupings(context, table, options).map((column) => ({ column, table, ref: `c.${quoteIdent(column.name)}` }));
  const parents = foreignKeys(context)
    .filter((k) => k.child.name === table.name && k.containment >= 0.95)
    .flatMap((via) => groupings(context, via.parent, options).map((column) => ({ column, table: via.parent, ref: `p.${quoteIdent(column.name)}`, via })));
  return [...own, ...parents];
}

/** The FROM clause for a table (`"t" AS c`) joined to the parent a grouping needs, and the tables it reads. */
export function sourceOf(table: TableProfile, ...groupings: Array<Grouping | undefined>): { from: string; tables: string[] } {
  const via = groupings.find((g) => g?.via)?.via;
  if (groupings.some((g) => g?.via && via && (g.via.parent.name !== via.parent.name || g.via.childColumn.name !== via.childColumn.name))) throw new Error('one parent per source');
  const from = via ? `${quoteIdent(table.name)} AS c JOIN ${quoteIdent(via.parent.name)} AS p ON c.${quoteIdent(via.childColumn.name)} = p.${quoteIdent(via.parentColumn.name)}` : `${quoteIdent(table.name)} AS c`;
  return { from, tables: via ? [table.name, via.parent.name] : [table.name] };
}

/** "region" or "store region" (a parent's column named with its table, where that reads better). */
export function groupingName(g: Grouping): string {
  const name = humanize(g.column.originalName || g.column.name);
  if (!g.via) return name;
  const parent = noun(g.via.parent.name, 'one');
  return name.includes(parent) ? name : `${parent} ${name}`;
}
