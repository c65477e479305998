/**
 * Execution-conditioned task revision (GraphForge): once a task has been explored, a reviser reads the task, its
 * evidence-graph slice, its rubric and the explorer's paths, and checks five things — the question is executable
 * with these files, every quantity it states is supported by the data, the rubric's anchors are right, the
 * question has one defensible answer (no second table answers it differently), and the verification
 * instructions are enough. It returns only the fields to change (a `TaskPatch`); `applyTaskPatch` keeps the rest.
 *
 * The reviser is the configured LLM when there is one (a JSON reply validated with zod, its patch re-checked
 * against the data), else a deterministic rule set that re-runs the evidence itself.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { executeToolCall } from '../agent/tools';
import type { ToolContext } from '../agent/tools';
import { stepCode } from '../agent/steps';
import type { AgentStep } from '../agent/types';
import type { DataDocument, EnvironmentProfile } from '../env/types';
import { sharedTablePrefix, stackedTableOf } from '../env/naming';
import type { LlmProvider } from '../llm/types';
import { allPartitionFiles, viewOfFiles } from '../semantics/partitions';
import type { TwinTables } from '../semantics/types';
import { containsWord, escapeRegExp } from '../text/regex';
import { quoteIdent } from '../text/sql';
import { singular, words } from '../text/words';
import { matchesAnswer, normalizeText, numbersIn } from './answer';
import type { EvidenceGraph, GraphEdge, GraphNode } from './graph';
import { columnNode, hasNode, tableNode } from './graph';
import { buildRubric, columnsOf, fileRoles, joinsOf, lookAlikes, taskAnchors } from './rubric';
import type { AnswerKey, FieldChange, RubricCheck, RubricCriterion, TaskSpec } from './types';
import { statedAnswer } from './validate';

// ---------------------------------------------------------------- the patch (what a reviser may change)

const answerKeySchema: z.ZodType<AnswerKey> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('number'), value: z.number().finite(), tolerance: z.number().finite().nonnegative() }),
  z.object({ type: z.literal('string'), value: z.string() }),
  z.object({ type: z.literal('list'), values: z.array(z.string()), ordered: z.boolean() }),
  z.object({ type: z.literal('table'), columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) }),
]);

const tableColumn = z.object({ table: z.string().min(1), column: z.string().min(1) });
const rubricCheckSchema: z.ZodType<RubricCheck> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('uses_table'), table: z.string().min(1) }),
  z.object({ kind: z.literal('uses_column'), table: z.string().min(1), column: z.string().min(1) }),
  z.object({ kind: z.literal('joins_on'), left: tableColumn, right: tableColumn }),
  z.object({ kind: z.literal('final_value'), answer: answerKeySchema }),
  z.object({ kind: z.literal('reports_values'), values: z.array(z.string()) }),
  z.object({ kind: z.literal('uses_document'), document: z.string().min(1), section: z.string().optional() }),
  z.object({ kind: z.literal('uses_parameter'), value: z.number().finite() }),
  z.object({ kind: z.literal('sub_answer'), step: z.number().int().min(0), answer: answerKeySchema }),
  z.object({ kind: z.literal('text'), instruction: z.string().min(1) }),
]);

const criterionSchema: z.ZodType<RubricCriterion> = z.object({
  id: z.string().regex(/^c\d+$/),
  polarity: z.enum(['positive', 'negative']),
  weight: z.number().finite().min(-1).max(1),
  description: z.string().min(1),
  anchors: z.array(z.string().min(1)),
  check: rubricCheckSchema,
});

export const REVIEW_CHECKS = ['executable', 'supported', 'anchors', 'ambiguity', 'verification'] as const;
export type ReviewCheck = (typeof REVIEW_CHECKS)[number];

export const taskPatchSchema = z
  .object({
    question: z.string().min(12).max(600).optional(),
    answer: answerKeySchema.optional(),
    /** Criteria replaced (same id) or added (new id). */
    criteria: z.array(criterionSchema).optional(),
    /** Criterion ids removed. */
    removeCriteria: z.array(z.string()).optional(),
  })
  .strict();
export type TaskPatch = z.infer<typeof taskPatchSchema>;

/** A reviser's reply: keep the task, change some fields, or reject it (it cannot be fixed). */
export const taskReviewSchema = z.object({
  decision: z.enum(['keep', 'revise', 'reject']),
  findings: z.array(z.object({ check: z.enum(REVIEW_CHECKS), detail: z.string().min(1) })),
  patch: taskPatchSchema.default({}),
  /** Why the task is rejected (decision 'reject'). */
  reason: z.string().optional(),
});
export type TaskReview = z.infer<typeof taskReviewSchema>;
export type ReviewFinding = TaskReview['findings'][number];

/** The question's identity for revision: a change here (not in spacing or case) means exploring again. */
export function questionHash(question: string): string {
  return createHash('sha256').update(normalizeText(question).replace(/[^a-z0-9]+/g, ' ').trim()).digest('hex').slice(0, 16);
}

// ---------------------------------------------------------------- applying a patch

const json = (value: unknown) => JSON.stringify(value);

/** The task with the patch applied and the field-by-field diff; the compiler's other fields are kept. */
export function applyTaskPatch(task: TaskSpec, patch: TaskPatch): { task: TaskSpec; diff: FieldChange[] } {
  const diff: FieldChange[] = [];
  const next: TaskSpec = { ...task, rubric: task.rubric ? task.rubric.map((c) => ({ ...c })) : undefined };
  if (patch.question !== undefined && patch.question !== task.question) {
    diff.push({ field: 'question', before: task.question, after: patch.question });
    next.question = patch.question;
  }
  if (patch.answer !== undefined && json(patch.answer) !== json(task.answer)) {
    diff.push({ field: 'answer', before: task.answer, after: patch.answer });
    next.answer = patch.answer;
  }
  let rubric = next.rubric ?? [];
  const explicit = new Set((patch.criteria ?? []).map((c) => c.id));
  if (patch.answer !== undefined) {
    // The answer criteria follow the answer key unless the patch rewrites them itself.
    const answer = patch.answer;
    const values = answer.type === 'list' ? answer.values : answer.type === 'table' ? answer.rows.map((r) => String(r[0])) : [];
    rubric = rubric.map((c) => {
      if (explicit.has(c.id)) return c;
      if (c.check.kind === 'final_value' && json(c.check.answer) !== json(answer)) return withChange(c, { ...c, check: { kind: 'final_value', answer } }, diff);
      if (c.check.kind === 'reports_values' && values.length > 0 && json(c.check.values) !== json(values)) return withChange(c, { ...c, check: { kind: 'reports_values', values } }, diff);
      return c;
    });
  }
  for (const criterion of patch.criteria ?? []) {
    const index = rubric.findIndex((c) => c.id === criterion.id);
    if (index < 0) {
      diff.push({ field: `rubric.${criterion.id}`, before: null, after: criterion });
      rubric = [...rubric, criterion];
    } else if (json(rubric[index]) !== json(criterion)) {
      diff.push({ field: `rubric.${criterion.id}`, before: rubric[index], after: criterion });
      rubric = rubric.map((c, i) => (i === index ? criterion : c));
    }
  }
  for (const id of patch.removeCriteria ?? []) {
    const found = rubric.find((c) => c.id === id);
    if (!found) continue;
    diff.push({ field: `rubric.${id}`, before: found, after: null });
    rubric = rubric.filter((c) => c.id !== id);
  }
  if (task.rubric || rubric.length > 0) next.rubric = rubric;
  return { task: next, diff };
}

function withChange(before: RubricCriterion, after: RubricCriterion, diff: FieldChange[]): RubricCriterion {
  diff.push({ field: `rubric.${before.id}`, before, after });
  return after;
}

/** True when the diff changes anything the rubric or answer key binds, and nothing the agent reads. */
export function bindingOnly(diff: FieldChange[]): boolean {
  return diff.length > 0 && diff.every((d) => d.field !== 'question');
}

// ---------------------------------------------------------------- what the reviser reads

/** A path the explorer took to a final answer (admitted, or rejected by verification or cleaning). */
export interface ExploredPath {
  trajectoryId: string;
  steps: readonly AgentStep[];
  answer?: string;
  verified: boolean;
  admitted: boolean;
}

export interface ReviewInput {
  task: TaskSpec;
  profile: EnvironmentProfile;
  graph: EvidenceGraph;
  /** Executes the evidence again (the agent's own tool layer). */
  context: ToolContext;
  paths: readonly ExploredPath[];
}

/** The evidence graph around a task: its anchor nodes, their containing tables and the edges that touch them. */
export function graphSlice(graph: EvidenceGraph, task: TaskSpec): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const ids = new Set([...(task.anchors ?? []), ...task.tables.map(tableNode)]);
  const edges = graph.edges.filter((e) => e.kind !== 'contains' && (ids.has(e.from) || ids.has(e.to)));
  for (const e of edges) ids.add(e.from).add(e.to);
  return { nodes: graph.nodes.filter((n) => ids.has(n.id)), edges };
}

interface Execution {
  ok: boolean;
  error?: string;
  /** The answer the last step states, as text (the replay's rule). */
  stated?: string;
  last?: { columns: string[]; rows: unknown[][] };
}

/** Runs evidence steps (possibly rewritten) through the agent's tool layer. */
async function execute(task: TaskSpec, context: ToolContext, rewrite: (code: string) => string = (c) => c): Promise<Execution> {
  let stated = '';
  let last: Execution['last'];
  for (const [index, step] of task.evidence.entries()) {
    const code = rewrite(step.code);
    const args = step.tool === 'run_sql' ? { query: code } : { code };
    const observation = await executeToolCall(context, { name: step.tool, arguments: JSON.stringify(args) });
    if (!observation.ok) return { ok: false, error: `step ${index + 1}: ${observation.data.kind === 'error' ? observation.data.message : observation.text}` };
    if (observation.data.kind === 'rows') {
      last = { columns: observation.data.columns, rows: observation.data.rows };
      stated = statedAnswer(task.answer, observation.data.columns, observation.data.rows);
    } else if (observation.data.kind === 'stdout') {
      last = undefined;
      stated = observation.data.stdout.trim().split('\n').pop() ?? '';
    }
  }
  return { ok: true, stated, last };
}

/** The answer key the re-executed evidence supports, in the key's own type; undefined when it states none. */
function rederivedKey(key: AnswerKey, run: Execution): AnswerKey | undefined {
  if (run.last) return keyFromRows(key, run.last.columns, run.last.rows);
  const n = numbersIn(run.stated ?? '')[0];
  if (key.type === 'number') return n === undefined ? undefined : { ...key, value: n };
  return key.type === 'string' && (run.stated ?? '').trim() !== '' ? { type: 'string', value: run.stated! } : undefined;
}

/** The answer key the rows of a last evidence step state, in the key's type (same tolerance, same order rule). */
export function keyFromRows(key: AnswerKey, columns: string[], rows: unknown[][]): AnswerKey | undefined {
  const stated = statedAnswer(key, columns, rows);
  switch (key.type) {
    case 'number': {
      const n = numbersIn(stated)[0];
      return n === undefined ? undefined : { ...key, value: n };
    }
    case 'string':
      return stated.trim() === '' ? undefined : { type: 'string', value: stated };
    case 'list':
      return rows.length === 0 ? undefined : { ...key, values: rows.map((r) => String(r[0])) };
    case 'table':
      return rows.length === 0 ? undefined : { type: 'table', columns, rows };
  }
}

/** The ways a question may name a table: its name in words, their plural and singular ("job" for jobs), the name itself. */
export function tableNameForms(table: string): string[] {
  // A schema's kind prefix (`view_party`, `dim_customer`) is no part of what the rows are called: "parties" names it.
  // (…nor a word that says only that it is a table, CellPhoneDB's `complex_composition_table`: "complex compositions".)
  const bare = table.replace(/^(view|vw|tbl|dim|fact|fct)_(?=[a-z])/i, '').replace(/(?<=[a-z])_(table|tbl)$/i, '');
  const forms = (name: string) => {
    const named = words(name);
    return [named, `${named}s`, named.replace(/([^aeiou])y$/, '$1ies'), singular(named)];
  };
  return [...new Set([...forms(table), ...(bare !== table ? forms(bare) : []), table.toLowerCase()])].filter((w) => w !== '');
}

/**
 * Whether a question names a table, so a reader knows which one it means. A form inside one of the table's own
 * column names ("order" in "order total", given orders.order_total) names that column, which a look-alike table
 * has too, not the table; callers that know the columns pass them.
 */
export function namesTable(question: string, table: string, columns: readonly string[] = [], label?: string): boolean {
  // Named as the schema writes it, in quotes ("rows in the table 'weather'"), whatever its columns are called.
  if (question.toLowerCase().includes(`'${table.toLowerCase()}'`)) return true;
  // Named as its user knows it: its file (`day.csv`) or its sheet (`the 'GDP' sheet`).
  // (A nested list's label is named with or without its article: "how many 'sector' entries in projects.json".)
  if (label !== undefined && question.toLowerCase().includes(label.toLowerCase().replace(/^the /, ''))) return true;
  // …or its file by the file's words ("the seagrass density survey" for seagrass_density_survey.csv).
  const named = fileWords(label);
  if (named && new RegExp(`(^|[^a-z0-9_])the ${escapeRegExp(named)}(?=$|[^a-z0-9_])`).test(normalizeText(question))) return true;
  let text = normalizeText(question);
  for (const phrase of columns.map(words).filter((p) => p !== '').sort((a, b) => b.length - a.length)) {
    // A column's words name the column, singular or plural ("order totals"), not its table.
    text = text.replace(new RegExp(`(^|[^a-z0-9_])${escapeRegExp(phrase)}(?:e?s)?(?=$|[^a-z0-9_])`, 'g'), '$1·');
  }
  return tableNameForms(table).some((form) => containsWord(text, form));
}

/** Data files that hold one table each, named by their file: a question says "in day.csv", as its user would. */
const ONE_TABLE_FILE = /\.(csv|tsv|txt|json|jsonl|ndjson|parquet)$/i;

/**
 * The words of a one-table file's name (`tableLabel`'s `seagrass_density_survey.csv` → "seagrass density survey"), when
 * it is two to six plain words: a question may call the table by them. Undefined for `day.csv` or `2019-01.csv`.
 */
export function fileWords(label: string | undefined): string | undefined {
  if (label === undefined || !/^[\w-]+$/.test(label.replace(ONE_TABLE_FILE, '')) || !ONE_TABLE_FILE.test(label)) return undefined;
  const named = words(label.replace(ONE_TABLE_FILE, ''));
  if (!/^[a-z]{3,}( [a-z]{2,}){1,6}$/.test(named)) return undefined;
  // (Only where the words end in a noun for a body of records, "survey", "register", or in a plural, "… sites": "the
  // nest success" names a quantity, not a place rows are in; such a file is named as the file, nest_success.csv.)
  const last = named.split(' ').pop() ?? '';
  return RECORD_COLLECTIONS.test(last) || (/[a-z]s$/.test(last) && !/(ss|us|is)$/.test(last)) ? named : undefined;
}

/** Nouns for a body of records a file's name may end in ("seagrass density survey", "charity register"). */
const RECORD_COLLECTIONS = /^(survey|register|registry|list|catalogue|catalog|census|inventory|log|database|dataset|data|table|sample|panel|index|report|directory|roster|schedule|calendar|study|archive|ledger|extract|export|dump|file|sheet|record|series|collection|atlas|gazetteer)$/;

/**
 * How the user who owns the data names a table: a workbook sheet by its name as written (`the 'GDP' sheet`), a table
 * that is a whole data file by the file (`day.csv`); undefined for a database's tables and views, a nested array's
 * table or a partition's union view, which the schema's own name names best.
 */
export function tableLabel(table: string, profile: EnvironmentProfile): string | undefined {
  const t = profile.tables.find((x) => x.name === table);
  if (!t || t.kind !== 'table' || t.sourceFile === '') return undefined;
  // The items of a nested array in a JSON file (`executive_terms`, from each record's `terms`): "the 'terms' entries
  // in executive.json", as the file writes them, when no other array of the file has that name.
  if (t.parent) {
    const file = t.sourceFile.replace(/^.*[\\/]/, '');
    const alike = profile.tables.filter((x) => x.parent && x.sourceFile === t.sourceFile && x.originalName === t.originalName).length;
    // (…and one under a key of each record, `sum.browserMap`, `Activity.Questions`, by its path.)
    return /\.(json|jsonl|ndjson)$/i.test(file) && alike === 1 && /^[\w -]{1,40}(\.[\w -]{1,40}){0,2}$/.test(t.originalName) ? `the '${t.originalName}' entries in ${file}` : undefined;
  }
  if (/\.(xlsx|xlsm|xls|ods)$/i.test(t.sourceFile)) {
    if (t.originalName === '' || /['\n]/.test(t.originalName)) return undefined;
    // One of the tables a sheet stacks (`Table_1_receipts › Table 1b: Tobacco receipts by calendar year`): by its title.
    const stacked = stackedTableOf(t.originalName);
    if (stacked) return `the table '${stacked.title}' of the '${stacked.sheet}' sheet`;
    // A sheet name several workbooks share (`analysis_data` in nine of them) is that sheet of its workbook.
    const shared = profile.tables.filter((x) => x.originalName.toLowerCase() === t.originalName.toLowerCase() && /\.(xlsx|xlsm|xls|ods)$/i.test(x.sourceFile)).length > 1;
    // (A sheet named with a space at its end, `Aug, 2019 `, as the workbook's tab shows it: without the space.)
    const name = t.originalName.trim();
    const sheet = shared ? `the '${name}' sheet of ${t.sourceFile.replace(/^.*[\\/]/, '')}` : `the '${name}' sheet`;
    // (A sheet whose summary lines under the table were left out: the table, as a reader of the sheet would not
    // otherwise know which rows are meant.)
    return t.rowsLeftOutBelow ? `the table in ${sheet} (not the summary rows below it)` : sheet;
  }
  // (The lists nested in a file's records are tables of their own: the file's records are still its one table.)
  if (!ONE_TABLE_FILE.test(t.sourceFile) || profile.tables.filter((x) => x.sourceFile === t.sourceFile && !x.parent).length !== 1) return undefined;
  const file = t.sourceFile.replace(/^.*[\\/]/, '');
  // Files of one name in two folders (`2019/data.csv`, `2020/data.csv`) are told apart by their paths.
  const same = profile.tables.filter((x) => x.sourceFile.replace(/^.*[\\/]/, '') === file).length;
  return same === 1 ? file : t.sourceFile;
}

/** The words `withTablesNamed` puts before a question: "In the X table, " (or "In the X and Y tables, "). */
export function tablesNamingPhrase(tables: readonly string[], profile?: EnvironmentProfile): string {
  // (A file whose name is words, `seagrass_habitat_survey.csv`, is called by them, as its user says it: "the seagrass
  // habitat survey". A one-word name, `day.csv`, reads better as the file.)
  const labels = profile
    ? tables.map((t) => {
        const label = tableLabel(t, profile);
        const named = fileWords(label);
        return named ? `the ${named}` : label;
      })
    : [];
  // Files and sheets by the names their user knows: "In day.csv, ", "In the 'GDP' sheet and hour.csv, ".
  if (profile && labels.every((l) => l !== undefined)) return `In ${labels.join(' and ')}, `;
  // A partition's union view by its files ("In all 12 monthly files, "), as the rest of the question calls it.
  const files = profile && tables.length === 1 ? viewOfFiles(profile.tables.find((x) => x.name === tables[0]) ?? { kind: 'table', originalName: '' }) : undefined;
  if (files) return `In ${allPartitionFiles(files.files, files.key)}, `;
  // A name of several words or with digits (`all_seasons`, `worldcup_14`, `recvDeps`): quoted as the schema writes it.
  // A view (a partition's union of files) is called one, as the rest of the question calls it.
  const kind = profile && tables.every((t) => profile.tables.find((x) => x.name === t)?.kind === 'view') ? 'view' : 'table';
  if (tables.some((t) => /[\d_]|[a-z][A-Z]/.test(t))) return `In the ${kind}${tables.length > 1 ? 's' : ''} ${tables.map((t) => `'${t}'`).join(' and ')}, `;
  return `In the ${tables.map(words).join(' and ')} table${tables.length > 1 ? 's' : ''}, `;
}

/**
 * The question with tables named ("In the X table, which …"): the one patch for a question that does not say which
 * of two look-alike tables it reads, used by the task pool and the reviser alike. The name opens the question, where
 * it scopes every sentence, rather than trailing its last clause ("What is Spearman's minus Pearson's, according to
 * the table …?").
 */
export function withTablesNamed(question: string, tables: readonly string[], profile?: EnvironmentProfile): string {
  if (tables.length === 0) return question;
  // The first word loses its capital (a question opens on a word of the template: "Which", "Counting", "Fit"), unless
  // it is an acronym or a name with its possessive ("GDP", "Brazil's" stay as written).
  const first = question.split(/\s+/)[0] ?? '';
  const lowered = /^[A-Z][a-z]+,?$/.test(first) ? question.charAt(0).toLowerCase() + question.slice(1) : question;
  // A question that quotes another table already ("the rows in the table 'goals'") uses the named one besides it.
  const phrase = tablesNamingPhrase(tables, profile);
  const using = /\bthe (table|view)s? '|\b[\w-]+\.(csv|tsv|txt|json|jsonl|ndjson|parquet)\b|' sheet\b/.test(question) ? phrase.replace(/^In /, 'Using ') : phrase;
  return `${using}${lowered}`;
}

/**
 * The task's tables that have a look-alike (`lookAlikes`) although neither the question nor the document section it
 * cites names them, each with its look-alikes: such a question has two readings even when today's data happens to
 * give both the same answer.
 */
export function unnamedLookAlikes(task: TaskSpec, profile: EnvironmentProfile, documents: readonly DataDocument[], twins: readonly TwinTables[] = []): Map<string, string[]> {
  const named = tableNamed(task, profile, documents);
  // A twin (the same rows saved twice) gives every question the same answer: reading either is one reading.
  const twinOf = (a: string, b: string) => twins.some((t) => [t.kept, ...t.copies].includes(a) && [t.kept, ...t.copies].includes(b));
  const found = new Map<string, string[]>();
  for (const [table, others] of lookAlikes(task, profile)) {
    const distinct = others.filter((o) => !twinOf(table, o));
    if (distinct.length > 0 && !named(table)) found.set(table, distinct);
  }
  return found;
}

/** Whether the task's question, or the document section it cites, names a table (given the table's columns). */
export function tableNamed(task: TaskSpec, profile: EnvironmentProfile, documents: readonly DataDocument[]): (table: string) => boolean {
  const cited = citedText(task, documents);
  const columns = (table: string) => profile.tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? [];
  // A union view of a partition's files is named by its files, "in all 12 monthly files", "across the 30 files, one per
  // season" (a file alone is one month).
  const unionNamed = (table: string) => profile.tables.find((t) => t.name === table)?.kind === 'view' && /\b((all|the) \d+|both) ([a-z]+ ){0,3}files\b/i.test(task.question);
  // (Tables that share a short code before their names, `ewf_matches` and `ewf_standings`, are named without it: "matches".)
  const prefix = sharedTablePrefix(profile.tables);
  const unprefixed = (table: string) => prefix !== undefined && table.toLowerCase().startsWith(`${prefix}_`) && namesTable(task.question, table.slice(prefix.length + 1), columns(table));
  return (table) => namesTable(task.question, table, columns(table), tableLabel(table, profile)) || unprefixed(table) || unionNamed(table) || (cited !== '' && namesTable(cited, table, columns(table)));
}

/**
 * The text of the document sections a task cites: a document-grounded question ("according to the "Customers"
 * section of business_rules.md") sends its reader to that rule, so the tables the rule names are named for them.
 * Only cited sections count; a whole document (its preamble lists every file) names nothing in particular.
 */
export function citedText(task: TaskSpec, documents: readonly DataDocument[]): string {
  return (task.documents ?? [])
    .flatMap((ref) => {
      if (!ref.section) return [];
      const section = documents.find((d) => d.name === ref.document)?.sections.find((s) => s.heading === ref.section);
      return section ? [`${section.heading}\n${section.text}`] : [];
    })
    .join('\n');
}

const sameNumber = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Tables a path's SQL reads (names that appear as identifiers). */
function tablesRead(steps: readonly AgentStep[], profile: EnvironmentProfile): Set<string> {
  const read = new Set<string>();
  for (const step of steps) {
    if (!step.observation.ok || step.toolCall?.name !== 'run_sql') continue;
    const code = stepCode(step) ?? '';
    for (const t of profile.tables) if (containsWord(code, t.name)) read.add(t.name);
  }
  return read;
}

/** A path's final answer is defensible when it is what its own last successful query returned. */
function defensible(path: ExploredPath, task: TaskSpec): boolean {
  if (path.answer === undefined) return false;
  const rowsSteps = path.steps.filter((s) => s.observation.ok && s.observation.data.kind === 'rows');
  const last = rowsSteps[rowsSteps.length - 1];
  if (!last || last.observation.data.kind !== 'rows') return false;
  const stated = statedAnswer(task.answer, last.observation.data.columns, last.observation.data.rows);
  const a = numbersIn(path.answer)[0];
  const b = numbersIn(stated)[0];
  if (task.answer.type === 'number') return a !== undefined && b !== undefined && Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 1e-4);
  return normalizeText(path.answer) === normalizeText(stated);
}

// ---------------------------------------------------------------- the deterministic reviser

/**
 * The offline reviser: re-executes the evidence and derives each finding from the data, the evidence graph and
 * the explorer's paths. Sound tasks come back with decision 'keep' and no findings.
 */
export async function reviewTaskByRules(input: ReviewInput): Promise<TaskReview> {
  const { task, profile, graph, context } = input;
  const findings: ReviewFinding[] = [];
  const patch: TaskPatch = {};
  const reject = (check: ReviewCheck, detail: string): TaskReview => ({ decision: 'reject', findings: [...findings, { check, detail }], patch: {}, reason: detail });

  // 1. Executable with these files, and the answer key is what the evidence states.
  const run = await execute(task, context);
  if (!run.ok) return reject('executable', `the evidence does not execute with these files (${run.error})`);
  const key = rederivedKey(task.answer, run);
  if (!key) return reject('supported', 'the evidence returns no answer from the data');
  if (!matchesAnswer(task.answer, run.stated ?? '')) {
    findings.push({ check: 'anchors', detail: `the answer key ${json(task.answer).slice(0, 80)} is not what the evidence returns (${json(key).slice(0, 80)})` });
    patch.answer = key;
  }

  // 2. Every quantity the question states is supported: its numbers are the evidence's, its identifiers real.
  const code = task.evidence.map((s) => s.code).join('\n');
  const sectionNumbers = (task.documents ?? []).flatMap((d) => graph.nodes.filter((n) => n.id.startsWith(`section:${d.document}#`)).flatMap((n) => numbersIn(String(n.facts.numbers ?? ''))));
  // `statistics.quantiles(values, n=10)` cuts at the 10th, 20th, … 90th percentiles: the question may name them.
  const cuts = [...code.matchAll(/quantiles\([^)]*\bn\s*=\s*(\d+)/g)].flatMap((m) => Array.from({ length: Number(m[1]) - 1 }, (_, j) => (100 * (j + 1)) / Number(m[1])));
  // A column's name as its dictionary titles it ("Willingness to take risks while driving in 2010", the round of a
  // survey) holds numbers that name the column, not quantities the evidence applies.
  const titled = (context.semantics?.columns ?? []).filter((c) => task.tables.includes(c.table) && code.includes(c.column) && c.description !== undefined).flatMap((c) => numbersIn(c.description!.value.split(/(?<=\.)\s/)[0]));
  const supported = [...numbersIn(code), ...sectionNumbers, ...cuts, ...titled];
  // (A quarter's name before its year, `Q1 2017`, states no quantity: the year is what the evidence must read.)
  // (…nor does a file's or a sheet's name, `government-grant-schemes-2013-14.csv`, `the 'Jan 2019' sheet`: they say
  // where; nor a value shown as the data writes it, "(e.g. '-1,535,000')": it shows a format.)
  const placeless = task.question.replace(/(?<![\w-])[\w-]+(?:\.[\w-]+)*\.(csv|tsv|txt|json|jsonl|ndjson|parquet|xlsx|xlsm|xls|ods|sqlite|db|md)\b/gi, ' ').replace(/'[^']*' sheet\b/g, ' sheet').replace(/\b(e\.g\.|for example|such as) '[^']*'/g, ' ');
  const questionNumbers = numbersIn(placeless.replace(/'[^']*'/g, (quoted) => (code.includes(quoted) ? '' : quoted)).replace(/\bQ[1-4](?= (?:1[89]|20)\d\d\b)/g, 'Q'));
  // A percentage states a fraction ×100; a deviation threshold is compared squared in SQL (z > 3 as z² > 9).
  const unsupported = questionNumbers.filter((n) => !supported.some((s) => sameNumber(s, n) || sameNumber(s * 100, n) || sameNumber(s, n * n)));
  if (unsupported.length > 0) {
    // A Python constant (`page = 1000`) is an assignment, not a threshold the question could state.
    const comparisons = code.replace(/^\s*[A-Za-z_]\w*\s*=\s*-?\d+(?:\.\d+)?\s*$/gm, '');
    const thresholds = [...comparisons.matchAll(/(?:>=|<=|<>|!=|>|<|=)\s*(-?\d+(?:\.\d+)?)/g)].map((m) => Number(m[1])).filter((n) => !questionNumbers.some((q) => sameNumber(q, n) || sameNumber(q, n * 100)));
    const distinct = [...new Set(thresholds)];
    if (unsupported.length === 1 && distinct.length === 1) {
      const stated = String(unsupported[0]);
      const at = task.question.search(new RegExp(`(?<![0-9.])${stated.replace('.', '\\.')}(?![0-9])`));
      if (at >= 0) {
        findings.push({ check: 'supported', detail: `the question states ${stated}, but the evidence applies ${distinct[0]}` });
        patch.question = task.question.slice(0, at) + String(distinct[0]) + task.question.slice(at + stated.length);
      }
    }
    if (patch.question === undefined) return reject('supported', `the question states ${unsupported.join(', ')}, which the evidence does not apply`);
  }
  const known = new Set([
    ...profile.tables.flatMap((t) => [t.name.toLowerCase(), ...t.columns.map((c) => c.name.toLowerCase())]),
    ...context.documents.flatMap((d) => [d.name.toLowerCase(), d.name.replace(/\.[a-z]+$/i, '').toLowerCase(), d.sourceFile.toLowerCase()]),
  ]);
  const named = [...task.question.matchAll(/`([^`]+)`|\b([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)\b/g)].map((m) => m[1] ?? m[2]).filter((n) => !code.includes(n));
  const unknown = named.filter((n) => !known.has(n.toLowerCase()));
  if (unknown.length > 0) return reject('supported', `the question asks about ${unknown.join(', ')}, which the data does not have`);

  // 3. Rubric anchors: each names evidence the reference solution really uses, and nodes the graph has.
  const current = patch.answer ? { ...task, answer: patch.answer } : task;
  const usedColumns = columnsOf(task, profile);
  const joins = joinsOf(task);
  const evidenceNodes = new Set([...taskAnchors(task, profile), ...joins.flatMap((j) => [columnNode(j.left.table, j.left.column), columnNode(j.right.table, j.right.column)])]);
  const isTable = (t: string) => profile.tables.some((x) => x.name === t);
  const compiled = buildRubric(current, profile, task.roles ?? fileRoles(task, profile, graph, context.documents));
  const rubric = task.rubric ?? [];
  const replacements: RubricCriterion[] = [];
  const removals: string[] = [];
  const taken = new Set(rubric.map((c) => json(c.check)));
  for (const criterion of rubric) {
    const problem = anchorProblem(criterion, { task: current, usedColumns, joins, evidenceNodes, isTable, graph });
    if (!problem) continue;
    findings.push({ check: 'anchors', detail: `${criterion.id} (${criterion.description}): ${problem}` });
    const substitute = compiled.find((c) => c.check.kind === criterion.check.kind && c.polarity === criterion.polarity && !taken.has(json(c.check)));
    if (substitute) {
      taken.add(json(substitute.check));
      replacements.push({ ...substitute, id: criterion.id, weight: criterion.weight });
    } else removals.push(criterion.id);
  }

  // 4. One defensible answer. A table is named when the question names it, or the document section it cites does.
  // A task table left unnamed while a look-alike holds the columns it reads has two readings, whether or not
  // today's data gives both the same answer: the question is revised to name it, and the finding says which.
  const isNamed = tableNamed(task, profile, context.documents);
  const alternatives = new Map<string, string>();
  const otherReadings: string[] = [];
  const toName = new Set<string>();
  for (const [core, others] of unnamedLookAlikes(task, profile, context.documents, context.semantics?.twinTables)) {
    toName.add(core);
    for (const other of others) {
      if (!task.evidence.every((s) => s.tool === 'run_sql')) {
        otherReadings.push(`${other} looks like ${core} and holds the columns the question reads (the evidence is not SQL alone, so it was not re-run on ${other})`);
        continue;
      }
      const alt = await execute(task, context, (c) => c.split(quoteIdent(core)).join(quoteIdent(other)));
      const stated = (alt.stated ?? '').trim();
      if (!alt.ok || stated === '') otherReadings.push(`${core}→${other} gives no answer, yet ${other} looks like ${core} and holds the columns the question reads`);
      else if (!matchesAnswer(current.answer, stated)) alternatives.set(other, `${core}→${other} gives ${alt.stated} (a different answer)`);
      else otherReadings.push(`${core}→${other} gives the same answer today, yet the question does not say which of the two look-alike tables it reads`);
    }
  }
  for (const path of input.paths) {
    if (path.verified || !defensible(path, current)) continue;
    const read = [...tablesRead(path.steps, profile)].filter((t) => !task.tables.includes(t));
    if (read.length > 0 && !task.tables.every(isNamed)) alternatives.set(read.join('+'), `${path.trajectoryId} reads ${read.join(', ')} and answers ${path.answer}`);
  }
  if (alternatives.size > 0) {
    findings.push({ check: 'ambiguity', detail: `more than one defensible answer: ${[...alternatives.values()].join('; ')}` });
    // Alternatives only come from tables the question leaves unnamed: naming them removes the second reading.
    for (const table of task.tables) if (!isNamed(table)) toName.add(table);
  }
  for (const detail of otherReadings) findings.push({ check: 'ambiguity', detail: `the question does not name its table: ${detail}` });
  if (toName.size > 0) patch.question = withTablesNamed(patch.question ?? task.question, task.tables.filter((t) => toName.has(t)), profile);

  // 5. Verification instructions: an answer check, and a text instruction that names what to look for.
  if (!rubric.some((c) => c.polarity === 'positive' && c.check.kind === 'final_value')) {
    const answerCriterion = compiled.find((c) => c.check.kind === 'final_value')!;
    findings.push({ check: 'verification', detail: 'the rubric has no answer check' });
    replacements.push({ ...answerCriterion, id: nextId(rubric, replacements) });
  }
  const text = rubric.find((c) => c.check.kind === 'text');
  const instruction = text?.check.kind === 'text' ? text.check.instruction : '';
  if (instruction.trim().length < 20 || !/table/i.test(instruction)) {
    const compiledText = compiled.find((c) => c.check.kind === 'text')!;
    findings.push({ check: 'verification', detail: text ? `${text.id}: the verification instruction says too little ('${instruction}')` : 'the rubric has no verification instruction' });
    replacements.push({ ...compiledText, id: text?.id ?? nextId(rubric, replacements), weight: text?.weight ?? compiledText.weight });
  }
  if (replacements.length > 0) patch.criteria = replacements;
  if (removals.length > 0) patch.removeCriteria = removals;
  const changes = Object.keys(patch).length > 0;
  return { decision: changes ? 'revise' : 'keep', findings, patch };
}

function nextId(rubric: readonly RubricCriterion[], added: readonly RubricCriterion[]): string {
  const max = Math.max(0, ...[...rubric, ...added].map((c) => Number(c.id.slice(1)) || 0));
  return `c${max + 1}`;
}

interface AnchorContext {
  task: TaskSpec;
  usedColumns: Array<{ table: string; column: string }>;
  joins: ReturnType<typeof joinsOf>;
  evidenceNodes: Set<string>;
  isTable: (t: string) => boolean;
  graph: EvidenceGraph;
}

/** Why a criterion's anchor is wrong, or undefined. */
function anchorProblem(criterion: RubricCriterion, ctx: AnchorContext): string | undefined {
  const missing = criterion.anchors.find((a) => !hasNode(ctx.graph, a));
  if (missing) return `anchor ${missing} is not in the evidence graph`;
  const check = criterion.check;
  const positive = criterion.polarity === 'positive';
  if (positive) {
    const stray = criterion.anchors.find((a) => (a.startsWith('table:') || a.startsWith('column:')) && !ctx.evidenceNodes.has(a));
    if (stray) return `anchor ${stray} is evidence the reference solution does not use`;
  }
  const sameColumn = (a: { table: string; column: string }, b: { table: string; column: string }) => a.table === b.table && a.column.toLowerCase() === b.column.toLowerCase();
  switch (check.kind) {
    case 'uses_table':
      if (!ctx.isTable(check.table)) return `table ${check.table} is not in the data`;
      if (positive && !ctx.task.tables.includes(check.table)) return `the reference solution does not read ${check.table}`;
      if (!positive && ctx.task.tables.includes(check.table)) return `${check.table} is a table the reference solution needs, not a confuser`;
      return undefined;
    case 'uses_column':
      if (!ctx.usedColumns.some((c) => sameColumn(c, check)) && !ctx.joins.some((j) => sameColumn(j.left, check) || sameColumn(j.right, check))) return `the reference solution does not use ${check.table}.${check.column}`;
      return undefined;
    case 'joins_on':
      if (!ctx.joins.some((j) => (sameColumn(j.left, check.left) && sameColumn(j.right, check.right)) || (sameColumn(j.left, check.right) && sameColumn(j.right, check.left)))) return `the reference solution does not join ${check.left.table}.${check.left.column} to ${check.right.table}.${check.right.column}`;
      return undefined;
    case 'final_value':
      if (json(check.answer) !== json(ctx.task.answer)) return `expects ${json(check.answer).slice(0, 60)}, not the answer key`;
      return undefined;
    case 'reports_values': {
      const a = ctx.task.answer;
      const values = a.type === 'list' ? a.values : a.type === 'table' ? a.rows.map((r) => String(r[0])) : undefined;
      if (values && json(values) !== json(check.values)) return `expects ${check.values.join(', ')}, not the answer key's values`;
      return undefined;
    }
    case 'uses_document':
      if (!(ctx.task.documents ?? []).some((d) => d.document === check.document)) return `the reference solution does not read ${check.document}`;
      return undefined;
    case 'uses_parameter':
      if (!numbersIn(ctx.task.evidence.map((s) => s.code).join('\n')).some((n) => sameNumber(n, check.value))) return `the evidence never applies ${check.value}`;
      return undefined;
    case 'sub_answer': {
      const step = ctx.task.evidence[check.step];
      if (!step?.subAnswer) return `the reference solution has no step ${check.step + 1} with a sub-answer`;
      if (json(step.subAnswer.key) !== json(check.answer)) return `expects ${json(check.answer).slice(0, 60)}, not step ${check.step + 1}'s sub-answer`;
      return undefined;
    }
    case 'text':
      return undefined;
  }
}

// ---------------------------------------------------------------- the LLM reviser

export interface ReviserModel {
  provider: LlmProvider;
  model: string;
}

export interface ReviewOutcome {
  review: TaskReview;
  /** 'rules', or 'llm:<model>'. */
  reviser: string;
  modelCalls: number;
  costUsd: number;
  /** Why the LLM's reply was not (fully) used. */
  notes: string[];
}

function pathSummary(path: ExploredPath): unknown {
  return {
    answer: path.answer ?? null,
    verified: path.verified,
    admitted: path.admitted,
    steps: path.steps
      .filter((s) => s.toolCall)
      .map((s) => ({ tool: s.toolCall!.name, code: stepCode(s), ok: s.observation.ok, observation: s.observation.text.slice(0, 300) })),
  };
}

/** Asks the configured model for a review; a reply that fails validation falls back to the rules. */
export async function reviewTask(input: ReviewInput, model?: ReviserModel, signal?: AbortSignal): Promise<ReviewOutcome> {
  if (!model) return { review: await reviewTaskByRules(input), reviser: 'rules', modelCalls: 0, costUsd: 0, notes: [] };
  const notes: string[] = [];
  const schema = z.toJSONSchema(taskReviewSchema, { io: 'input' });
  const body = {
    task: { question: input.task.question, answer: input.task.answer, tables: input.task.tables, evidence: input.task.evidence.map((s) => ({ tool: s.tool, code: s.code, result: s.result })), documents: input.task.documents ?? [] },
    // The rule a document-grounded question cites, as written: the model judges the question against it.
    citedSections: citedText(input.task, input.context.documents),
    rubric: input.task.rubric ?? [],
    evidenceGraph: graphSlice(input.graph, input.task),
    paths: input.paths.slice(0, 6).map(pathSummary),
  };
  let reply: string | null = null;
  let costUsd = 0;
  try {
    const completion = await model.provider.complete({
      model: model.model,
      messages: [
        {
          role: 'system',
          content:
            'You review a data-analysis task after seeing agents execute it. Check: (executable) the question can be answered with these files; (supported) every quantity it states is supported by the data; (anchors) each rubric criterion names tables/columns the evidence really uses and the answer key is right; (ambiguity) the paths do not reach different defensible answers (e.g. two tables that both answer it); (verification) the rubric says how to verify. A question that cites a document section is judged against the text of that section (citedSections). Return only the fields to change. Reply with one JSON object matching this JSON schema, nothing else:\n' +
            JSON.stringify(schema),
        },
        { role: 'user', content: JSON.stringify(body) },
      ],
      maxTokens: 2000,
      signal,
    });
    costUsd = completion.costUsd;
    reply = completion.message.content;
  } catch (error) {
    notes.push(`the reviser model failed (${error instanceof Error ? error.message : String(error)}); the rules reviewed the task`);
    return { review: await reviewTaskByRules(input), reviser: 'rules', modelCalls: 1, costUsd, notes };
  }
  const parsed = parseReview(reply);
  if (!parsed.review) {
    notes.push(`the reviser's reply was not a valid review (${parsed.problem}); the rules reviewed the task`);
    return { review: await reviewTaskByRules(input), reviser: 'rules', modelCalls: 1, costUsd, notes };
  }
  return { review: await checkModelReview(parsed.review, input, notes), reviser: `llm:${model.model}`, modelCalls: 1, costUsd, notes };
}

/** Parses a model reply (a JSON object, possibly in a ```json fence) and validates it with zod. */
export function parseReview(reply: string | null | undefined): { review?: TaskReview; problem?: string } {
  const text = (reply ?? '').trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  const result = taskReviewSchema.safeParse(value);
  if (!result.success) return { problem: result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(reply)'}: ${i.message}`).join('; ') };
  return { review: result.data };
}

/** A model's patch is held to the data: an answer the evidence does not return, or a wrong anchor, is dropped. */
async function checkModelReview(review: TaskReview, input: ReviewInput, notes: string[]): Promise<TaskReview> {
  if (review.decision !== 'revise') return review;
  const patch: TaskPatch = { ...review.patch };
  if (patch.answer) {
    const run = await execute(input.task, input.context);
    const key = run.ok ? rederivedKey(input.task.answer, run) : undefined;
    if (!key || !matchesAnswer(patch.answer, run.stated ?? '')) {
      notes.push('the reviser proposed an answer key the evidence does not return; kept the old one');
      delete patch.answer;
    }
  }
  if (patch.criteria) {
    const task = patch.answer ? { ...input.task, answer: patch.answer } : input.task;
    const ctx: AnchorContext = {
      task,
      usedColumns: columnsOf(task, input.profile),
      joins: joinsOf(task),
      evidenceNodes: new Set(taskAnchors(task, input.profile)),
      isTable: (t) => input.profile.tables.some((x) => x.name === t),
      graph: input.graph,
    };
    patch.criteria = patch.criteria.filter((c) => {
      const problem = anchorProblem(c, ctx);
      if (problem) notes.push(`dropped the reviser's ${c.id}: ${problem}`);
      return !problem;
    });
    if (patch.criteria.length === 0) delete patch.criteria;
  }
  return { ...review, patch, decision: Object.keys(patch).length > 0 ? 'revise' : 'keep' };
}
