/**
 * The task pool: runs every family over an environment, compiles each candidate (anchors, rubric, file roles),
 * validates it, audits contamination, deduplicates, and selects a diverse subset by marginal coverage of
 * family × tables × difficulty. Every rejected candidate keeps its reason.
 */
import { createHash } from 'node:crypto';
import type { ToolContext } from '../agent/tools';
import type { LlmProvider } from '../llm/types';
import type { DataDocument, EnvironmentProfile } from '../env/types';
import { matchesAnswer } from './answer';
import { auditContamination } from './contamination';
import { taskPoolFamilies } from './families/index';
import { columnNamer, rowsNoun, semanticsOf, type FamilyContext, type TaskFamily } from './families/kit';
import { addEdge, buildStructuralGraph, columnNode } from './graph';
import type { EvidenceGraph } from './graph';
import { buildRubric, fileRoles, taskAnchors } from './rubric';
import type { ContaminationReference, TaskSpec } from './types';
import type { SemanticProfile, TwinTables } from '../semantics/types';
import { checkEvidence, nearDuplicateOf, trivialReason } from './validate';
import { phraseTask, type PhrasingModel } from './phrasing';
import { tableNamed, unnamedLookAlikes, withTablesNamed } from './revise';
import { emptyEntryTables, gridTables } from './grids';
import { partScales } from './partScales';
import { mixedOrGridMeasures } from './referenceGrids';
import { columnsInCommon } from '../semantics/relationships';
import { mostlyNotKnown, nearUniqueColumns, packedSets, repetitionKey, spelledSeveralWays, type UngroupedColumn } from './repetition';
import { MAX_QUESTION_WORDS } from './lint';
import { namesTotalRows, statingTotalRows } from './totals';

export { taskPoolFamilies };

export interface RejectedTask {
  id: string;
  family: string;
  question: string;
  reasons: string[];
}

export interface TaskPoolOptions {
  /** Tasks to select at most (default 40). */
  max?: number;
  /** Candidates per family at most (default 6). */
  maxPerFamily?: number;
  seed?: number;
  families?: TaskFamily[];
  contamination?: ContaminationReference[];
  /** With a provider, each question is asked without data; a correct answer rejects the task. */
  noDataModel?: { provider: LlmProvider; model: string };
  /** With a model, each selected task's template question is rewritten (validated; the template on any failure). */
  phrasing?: PhrasingModel;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** The same progress as counts, for a UI's progress bar: after each family, and after each candidate checked. */
  onPoolProgress?: (progress: PoolProgress) => void;
}

/** How far the task pool's build is: families run, candidates found, candidates checked and how many passed. */
export interface PoolProgress {
  phase: 'families' | 'validating' | 'selected';
  familiesDone: number;
  familiesTotal: number;
  candidates: number;
  checked: number;
  valid: number;
  rejected: number;
  /** Tasks selected (phase 'selected'). */
  selected?: number;
}

export interface TaskPoolResult {
  /** Selected, valid tasks, in selection order. */
  tasks: TaskSpec[];
  /** Valid tasks not selected (over --max). */
  unselected: TaskSpec[];
  rejected: RejectedTask[];
  graph: EvidenceGraph;
  /** Per family: candidates, valid, selected, and why there were none. */
  families: Array<{ id: string; candidates: number; valid: number; selected: number; note?: string; elapsedMs: number }>;
  /** Plain-words notes for degenerate environments. */
  notes: string[];
  /** Columns no task groups by, with why (near-unique per-row ids). */
  ungrouped: UngroupedColumn[];
  elapsedMs: number;
}

/** What an environment lacks, in words, so a pool with few tasks explains itself. */
function environmentNotes(profile: EnvironmentProfile, documents: DataDocument[], semantics: SemanticProfile): string[] {
  const notes: string[] = [];
  const tables = profile.tables.filter((t) => t.kind === 'table' || t.kind === 'view');
  if (tables.length === 0) notes.push('the environment has no tables: no data tasks can be built');
  const usable = tables.filter((t) => t.rowCount >= 10);
  if (tables.length > 0 && usable.length === 0) notes.push('every table has fewer than 10 rows (or is empty): no data tasks can be built');
  const empty = tables.filter((t) => t.rowCount === 0).map((t) => t.name);
  if (empty.length > 0) notes.push(`empty tables skipped: ${empty.join(', ')}`);
  if (usable.length === 1) notes.push('only one usable table: join, reconciliation and top-k families need two');
  if (usable.length > 0 && !usable.some((t) => t.columns.some((c) => c.type === 'integer' || c.type === 'real'))) {
    notes.push('no numeric columns: correlation, outlier, reconciliation and group-mean families have nothing to measure');
  }
  // (A time the semantic profile reads, `2020m1` months or a year column, is one as much as a stored date.)
  const timed = usable.some((t) => t.columns.some((c) => c.type === 'date' || c.type === 'datetime' || semantics.columns.some((s) => s.table === t.name && s.column === c.name && s.role.value === 'time')));
  if (usable.length > 0 && !timed) notes.push('no time columns: no change-over-time tasks');
  if (documents.length === 0) notes.push('no documents: no document-grounded tasks');
  return notes;
}

const featureKeys = (task: TaskSpec) => [`family:${task.family}`, `level:${task.difficulty.level}`, `family-level:${task.family}:${task.difficulty.level}`, ...task.tables.map((t) => `table:${t}`)];

function seededRank(id: string, seed: number): string {
  return createHash('sha256').update(`${seed}:${id}`).digest('hex');
}

/**
 * Marginal-coverage greedy: repeatedly take the task that covers the most not-yet-covered features (family,
 * difficulty level, family × level, tables); once everything is covered, coverage counts reset so the next
 * round spreads again. Ties break by a seeded hash, so a seed gives one selection.
 */
export function selectDiverse(tasks: TaskSpec[], max: number, seed = 0): TaskSpec[] {
  const remaining = [...tasks].sort((a, b) => seededRank(a.id, seed).localeCompare(seededRank(b.id, seed)));
  const selected: TaskSpec[] = [];
  let covered = new Set<string>();
  while (selected.length < max && remaining.length > 0) {
    let bestIndex = -1;
    let bestGain = -1;
    for (const [index, task] of remaining.entries()) {
      const keys = featureKeys(task);
      // The family feature weighs most so families alternate before tables and levels do.
      const gain = keys.reduce((sum, key) => sum + (covered.has(key) ? 0 : key.startsWith('family:') ? 3 : 1), 0);
      if (gain > bestGain) {
        bestGain = gain;
        bestIndex = index;
      }
    }
    if (bestGain === 0 && covered.size > 0) {
      covered = new Set();
      continue;
    }
    const [task] = remaining.splice(bestIndex, 1);
    selected.push(task);
    for (const key of featureKeys(task)) covered.add(key);
  }
  return selected;
}

/**
 * The pool is for analysis, so multi-step task programs (3 or more executed steps) come first: short tasks (1–2
 * steps, the lookups and single queries a trajectory needs little reasoning for) are at most SHORT_SHARE of the
 * pool. Where the data supports few multi-step tasks the pool is smaller rather than mostly short, but never below
 * MIN_POOL tasks while there are that many valid ones (data too plain for compositions still gets a pool). Each part
 * is chosen by `selectDiverse`, and the pool is ordered by it again, so families still alternate from the first task.
 */
export const SHORT_SHARE = 0.4;
export const MULTI_STEP = 3;
export const MIN_POOL = 10;

export function selectPool(tasks: TaskSpec[], max: number, seed = 0): TaskSpec[] {
  const multi = tasks.filter((t) => t.evidence.length >= MULTI_STEP);
  const short = tasks.filter((t) => t.evidence.length < MULTI_STEP);
  // Enough multi-step tasks for 60% of a full pool: short ones fill 40% of it. Fewer: short ones are 40% of a smaller pool.
  const shortQuota = multi.length >= max * (1 - SHORT_SHARE) ? Math.floor(max * SHORT_SHARE) : Math.max(Math.floor((multi.length * SHORT_SHARE) / (1 - SHORT_SHARE)), MIN_POOL - multi.length);
  const chosenShort = selectDiverse(short, Math.min(short.length, shortQuota), seed);
  const chosenMulti = selectDiverse(multi, Math.min(multi.length, max - chosenShort.length), seed);
  const chosen = [...chosenMulti, ...chosenShort];
  return selectDiverse(chosen, chosen.length, seed);
}

async function noDataCheck(task: TaskSpec, model: TaskPoolOptions['noDataModel'], signal?: AbortSignal): Promise<'passed' | 'failed'> {
  const completion = await model!.provider.complete({
    model: model!.model,
    messages: [
      { role: 'system', content: 'Answer the question with your best guess. Reply with the answer only.' },
      { role: 'user', content: task.question },
    ],
    maxTokens: 100,
    signal,
  });
  return matchesAnswer(task.answer, completion.message.content ?? '') ? 'failed' : 'passed';
}

/**
 * The task's question, naming each of its tables that a look-alike table could stand in for (an `_archive` copy,
 * a table of the same columns): without the name the question has two readings, even where today's data gives
 * both the same answer, and the reviser would have to revise it after exploration. One rule for every family.
 */
export function namingLookAlikes(task: TaskSpec, profile: EnvironmentProfile, documents: readonly DataDocument[], twins: readonly TwinTables[] = []): string {
  const unnamed = unnamedLookAlikes(task, profile, documents, twins);
  // (…and a workbook's sheet that an edition of it stands beside, the LPI's `2007` beside `2010` … `2018`: a question of
  // one year's sheet says which, even of a column only that year has, whose like the other years hold under other names.)
  // (An edition holds most of the other's columns: sheets of one workbook that share a `state` column are not editions.)
  const edition = (name: string) => {
    const table = profile.tables.find((t) => t.name === name);
    if (table === undefined || !/\.(xlsx|xlsm)$/i.test(table.sourceFile)) return false;
    return profile.tables.some((o) => o !== table && o.sourceFile === table.sourceFile && !o.parent && columnsInCommon(table, o) >= 0.5);
  };
  // (…and so does a question of one sheet of a workbook of several whose measure has a name any sheet might use, the
  // Global Carbon Budget's `Total` of its fuels' sheet: "the total" alone leaves the reader to guess the sheet.)
  const generic = (name: string) => {
    const table = profile.tables.find((t) => t.name === name);
    if (table === undefined || !/\.(xlsx|xlsm)$/i.test(table.sourceFile) || profile.tables.filter((o) => o.sourceFile === table.sourceFile && !o.parent).length < 2) return false;
    return table.columns.some((c) => /^(total|totals|value|values|amount|sum|count|number)$/i.test((c.originalName || c.name).trim()) && new RegExp(`\\b(the|of|of the) (sum of )?(${c.originalName || c.name})s?\\b`, 'i').test(task.question));
  };
  const named = tableNamed(task, profile, documents);
  return withTablesNamed(task.question, task.tables.filter((t) => unnamed.has(t) || ((edition(t) || generic(t)) && !named(t))), profile);
}

/** Builds, validates and selects the task pool for an environment opened as an agent tool context. */
export async function buildTaskPool(context: ToolContext, options: TaskPoolOptions = {}): Promise<TaskPoolResult> {
  const started = Date.now();
  const { profile, documents, semantics } = context;
  if (!semantics) throw new Error('the task pool needs the semantic profile of the environment (open it with loadSemanticEnvironment or openAgentSession)');
  const graph = buildStructuralGraph(profile, documents);
  // The semantic profile's relationships are the graph's join and derivation edges.
  for (const r of semantics.relationships) {
    if (r.kind === 'foreign-key') addEdge(graph, { from: columnNode(r.child.table, r.child.column), to: columnNode(r.parent.table, r.parent.column), kind: 'join_key', note: r.why });
    else if (r.kind === 'derived-column') for (const input of r.from) addEdge(graph, { from: columnNode(r.table, input), to: columnNode(r.table, r.column), kind: 'derivation', note: r.why });
  }
  // Columns no family groups by (near-unique per-row ids), measured once, each with its reason for the report.
  // And columns whose values are written several ways ('Offshore', 'offshore'): only the cleaning family groups by them.
  const notKnown = await mostlyNotKnown(profile, context.sql, options.signal);
  // …and yes/no answers written with comments (`y (suffix)`, `n?`): grouped or filtered as written, `y (def agr)` would
  // be an answer of its own and `= 'y'` would miss it.
  const commented = semantics.columns
    .filter((c) => c.role.source.kind === 'rule' && c.role.source.rule === 'flag:yes-no-with-comments')
    .map((c) => ({ table: c.table, column: c.column, why: 'yes/no answers written with comments, each written its own way' }));
  const ungrouped = [...(await nearUniqueColumns(profile, context.sql, options.signal)), ...(await spelledSeveralWays(profile, context.sql, options.signal)), ...(await packedSets(profile, context.sql, options.signal)), ...notKnown, ...commented];
  // Tables whose rows are the cells of a series × period grid: their row counts are coverage, asked by no family;
  // …and nested arrays a form saved with empty items: their counts are the form's defaults.
  const grids = [...(await gridTables(profile, semantics, context.sql, options.signal)), ...(await emptyEntryTables(profile, context.sql, options.signal))];
  // Measures of a partition view whose files are on different scales: compared file by file, never pooled.
  // …and so are figures of several indicators in one column, and the cells of a reference grid: never pooled.
  const scales = [...(await partScales(profile, semantics, context.sql, options.signal)), ...(await mixedOrGridMeasures(profile, semantics, context.sql, options.signal))];
  const familyContext: FamilyContext = {
    partScales: new Map(scales.map((s) => [repetitionKey(s.view, s.column), s.why])),
    ungrouped: new Map(ungrouped.map((u) => [repetitionKey(u.table, u.column), u.why])),
    notKnown: new Set(notKnown.map((u) => repetitionKey(u.table, u.column))),
    grids: new Map(grids.map((g) => [g.table, g.why])),
    profile,
    semantics,
    sql: context.sql,
    python: context.python,
    maxPerFamily: options.maxPerFamily ?? 6,
    signal: options.signal,
    documents,
    graph,
  };
  const families: TaskPoolResult['families'] = [];
  const rejected: RejectedTask[] = [];
  const candidates: TaskSpec[] = [];
  // Tasks whose question cannot say which rows a grouping's blanks leave out (rejected below, with the reason).
  const unstated = new Set<TaskSpec>();
  const familyList = options.families ?? taskPoolFamilies;
  const counts: PoolProgress = { phase: 'families', familiesDone: 0, familiesTotal: familyList.length, candidates: 0, checked: 0, valid: 0, rejected: 0 };
  const report = (change: Partial<PoolProgress>) => {
    Object.assign(counts, change);
    options.onPoolProgress?.({ ...counts });
  };
  for (const family of familyList) {
    options.signal?.throwIfAborted();
    const familyStarted = Date.now();
    let produced: TaskSpec[] = [];
    let note: string | undefined;
    try {
      produced = await family.generate(familyContext);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      note = `family failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!note && produced.length === 0) note = `the data has none of what it needs: ${family.needs}`;
    families.push({ id: family.id, candidates: produced.length, valid: 0, selected: 0, note, elapsedMs: Date.now() - familyStarted });
    // (The column that holds the levels is named as the questions name columns: "SOC occupation level", not "o group".)
    const nameOf = columnNamer(familyContext);
    for (const task of produced) {
      task.question = statingTotalRows({ ...task, question: namingLookAlikes(task, profile, documents, semantics.twinTables) }, semantics.totalRows, nameOf);
      const stated = statingUnknownGroups(task, familyContext, nameOf);
      if (stated === undefined) unstated.add(task);
      else task.question = stated;
    }
    candidates.push(...produced);
    options.onProgress?.(`${family.id}: ${produced.length} candidates`);
    report({ familiesDone: counts.familiesDone + 1, candidates: candidates.length });
  }

  const contaminated = auditContamination(candidates, profile, options.contamination ?? []);
  const valid: TaskSpec[] = [];
  /** Questions over a sheet, with the sheet blanked, to the first task that asked them. */
  const askedOverSheets = new Map<string, string>();
  // Near-duplicates are judged against the tasks that passed the data checks, whatever the no-data model said
  // of them: a task whose twin was rejected as answerable without data is a near-duplicate still (it asks the
  // same thing), so the no-data check can only remove tasks from the pool, never bring their twins in.
  const kept: TaskSpec[] = [];
  for (const task of candidates) {
    options.signal?.throwIfAborted();
    const reasons: string[] = [];
    task.anchors = taskAnchors(task, profile);
    task.roles = fileRoles(task, profile, graph, documents);
    task.rubric = buildRubric(task, profile, task.roles);
    if (unstated.has(task)) reasons.push(`the rows its groupings' blanks leave out cannot be stated within ${MAX_QUESTION_WORDS} words: two readings`);
    const duplicate = nearDuplicateOf(task, kept);
    if (duplicate) reasons.push(`near-duplicate of ${duplicate}`);
    const trivial = trivialReason(task, profile);
    if (trivial) reasons.push(trivial);
    const contamination = contaminated.get(task.id);
    if (contamination) reasons.push(contamination);
    const evidence = await checkEvidence(task, context);
    reasons.push(...evidence.reasons);
    if (reasons.length === 0) kept.push(task);
    let noData: 'passed' | 'failed' | 'skipped' = 'skipped';
    if (options.noDataModel && reasons.length === 0) {
      try {
        noData = await noDataCheck(task, options.noDataModel, options.signal);
        if (noData === 'failed') reasons.push('answerable without data: the model answered correctly without data access');
      } catch (error) {
        // A provider failure is not evidence either way; the check stays skipped and says why.
        options.onProgress?.(`no-data check skipped for ${task.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // The same question over the sister sheets of a workbook (one per year, the same columns): asked once. Seven
    // copies of one template teach one thing seven times.
    const sheetless = task.question.replace(/\bthe '[^']+' sheet\b/g, 'the · sheet');
    if (reasons.length === 0 && sheetless !== task.question) {
      const first = askedOverSheets.get(sheetless);
      if (first) reasons.push('the same question over another sheet of the workbook');
      else askedOverSheets.set(sheetless, task.id);
    }
    task.validation = { status: reasons.length === 0 ? 'valid' : 'rejected', reasons, evidenceStable: evidence.stable, replayed: evidence.replayed, noDataCheck: noData };
    if (reasons.length === 0) valid.push(task);
    else rejected.push({ id: task.id, family: task.family, question: task.question, reasons });
    report({ phase: 'validating', checked: counts.checked + 1, valid: valid.length, rejected: rejected.length });
  }

  const tasks = selectPool(valid, options.max ?? 40, options.seed ?? 0);
  // Phrasing runs on the selected tasks only (one model call each); a rewrite that the contamination audit
  // would flag is not worth keeping either, so it reverts to the template.
  for (const task of tasks) {
    options.signal?.throwIfAborted();
    const template = task.question;
    const record = await phraseTask(task, options.phrasing, options.signal);
    if (record.source === 'llm') {
      const contamination = auditContamination([task], profile, options.contamination ?? []).get(task.id);
      // A rewrite that stops naming a table with a look-alike gives the question a second reading again.
      const unnamed = [...unnamedLookAlikes(task, profile, documents, semantics.twinTables).keys()];
      // A rewrite that drops the total rows its answer leaves out asks about other rows.
      const totalsDropped = !namesTotalRows(task, semantics.totalRows);
      const problem = contamination ? `the rewrite is contaminated (${contamination})` : unnamed.length > 0 ? `the rewrite does not name ${unnamed.join(', ')}, which has a look-alike table` : totalsDropped ? 'the rewrite does not say which total rows the answer leaves out' : undefined;
      if (problem) {
        const rewrite = task.question;
        task.question = template;
        task.validation!.phrasing = { source: 'template', reason: problem, model: record.model, rejectedRewrite: rewrite };
      }
    }
    if (options.phrasing) options.onProgress?.(`phrasing ${task.id}: ${task.validation?.phrasing?.source} (${task.validation?.phrasing?.reason})`);
  }
  report({ phase: 'selected', selected: tasks.length });
  const chosen = new Set(tasks.map((t) => t.id));
  for (const entry of families) {
    entry.valid = valid.filter((t) => t.family === entry.id).length;
    entry.selected = tasks.filter((t) => t.family === entry.id).length;
    if (entry.candidates > 0 && entry.valid === 0) entry.note = 'every candidate was rejected';
  }
  return {
    tasks,
    unselected: valid.filter((t) => !chosen.has(t.id)),
    rejected,
    graph,
    families,
    notes: environmentNotes(profile, documents, semantics),
    ungrouped,
    elapsedMs: Date.now() - started,
  };
}

const GROUP_ROLES = new Set(['dimension', 'ordinal', 'flag', 'geo']);

/**
 * A grouping a reference solution reads without its unknown values (`WHERE "sex" IS NOT NULL` over captures, 7 of
 * them with no sex): whether those rows form a group of their own or are dropped changes the answer, so the question
 * says they are left out (a blind review of round 17 found the two readings giving different answers).
 */
export function statingUnknownGroups(task: Pick<TaskSpec, 'evidence' | 'question' | 'tables'>, context: FamilyContext, nameOf: (table: string, column: string) => string): string | undefined {
  const code = task.evidence.filter((s) => s.tool === 'run_sql').map((s) => s.code).join('\n');
  const said = new Set<string>();
  const sentences: string[] = [];
  for (const m of code.matchAll(/"([^"]+)" IS NOT NULL/g)) {
    for (const table of task.tables) {
      const column = context.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === m[1]);
      const role = semanticsOf(context, table, m[1])?.role.value;
      if (!column || column.nullFraction === 0 || !role || !GROUP_ROLES.has(role)) continue;
      const phrase = nameOf(table, column.name);
      if (said.has(phrase) || task.question.includes(`no ${phrase}`) || task.question.includes(`${phrase} unrecorded`)) continue;
      said.add(phrase);
      const rows = rowsNoun(context, context.profile.tables.find((t) => t.name === table)!);
      // ("Cats with no food other are left out" reads as cats not fed other food: the value is what is missing, said
      // in as many words, for a question has 60 at most.)
      sentences.push(`${rows.charAt(0).toUpperCase()}${rows.slice(1)} with ${phrase} unrecorded are left out.`);
    }
  }
  if (sentences.length === 0) return task.question;
  // (Within the length a question may have: a question that cannot say it has two readings, and is left out.)
  const stated = `${task.question.trimEnd()} ${sentences.join(' ')}`;
  return stated.trim().split(/\s+/).length <= MAX_QUESTION_WORDS ? stated : undefined;
}

/** Rejections counted by reason kind (the text before the first colon). */
export function rejectionsByReason(rejected: RejectedTask[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rejected) for (const reason of r.reasons) {
    const kind = reason.split(/:| of /)[0].trim();
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
