/**
 * Anchored rubrics and file roles, derived from a task's evidence and the evidence graph: which tables and columns
 * the reference solution reads, which joins it makes, which document sections it needs, and which other files look
 * like they matter but do not (confusers).
 */
import type { DataDocument, EnvironmentProfile, TableProfile } from '../env/types';
import { escapeRegExp } from '../text/regex';
import { quoteIdent } from '../text/sql';
import { nameParts } from '../text/words';
import type { EvidenceGraph } from './graph';
import { columnNode, documentNode, fileNode, sectionNode, tableNode } from './graph';
import type { FileRole, FileRoleKind, RubricCriterion, TaskSpec } from './types';

export interface JoinUse {
  left: { table: string; column: string };
  right: { table: string; column: string };
}

/** The joins of the evidence SQL, read from `FROM "t" AS a JOIN "u" AS b ON a."x" = b."y"`. */
export function joinsOf(task: TaskSpec): JoinUse[] {
  const joins: JoinUse[] = [];
  for (const step of task.evidence) {
    if (step.tool !== 'run_sql') continue;
    const aliases = new Map<string, string>();
    for (const m of step.code.matchAll(/\b(?:FROM|JOIN)\s+"((?:[^"]|"")+)"\s+AS\s+(\w+)/gi)) aliases.set(m[2], m[1].replace(/""/g, '"'));
    for (const m of step.code.matchAll(/\bON\s+(\w+)\."((?:[^"]|"")+)"\s*=\s*(\w+)\."((?:[^"]|"")+)"/gi)) {
      const leftTable = aliases.get(m[1]);
      const rightTable = aliases.get(m[3]);
      if (leftTable && rightTable) joins.push({ left: { table: leftTable, column: m[2] }, right: { table: rightTable, column: m[4] } });
    }
  }
  return joins;
}

/**
 * Columns of the task's tables that its evidence names (quoted identifiers). A qualified reference (`c."x"`) counts
 * for the table its alias stands for only, so a join does not credit a same-named column of the other table.
 */
export function columnsOf(task: TaskSpec, profile: EnvironmentProfile): Array<{ table: string; column: string }> {
  const used: Array<{ table: string; column: string }> = [];
  for (const tableName of task.tables) {
    const table = profile.tables.find((t) => t.name === tableName);
    for (const column of table?.columns ?? []) {
      const reads = task.evidence.some((step) => {
        const aliases = new Map<string, string>();
        for (const m of step.code.matchAll(/\b(?:FROM|JOIN)\s+"((?:[^"]|"")+)"\s+AS\s+(\w+)/gi)) aliases.set(m[2].toLowerCase(), m[1].replace(/""/g, '"'));
        const pattern = new RegExp(`(?:(\\w+)\\.)?${escapeRegExp(quoteIdent(column.name))}`, 'g');
        for (const m of step.code.matchAll(pattern)) {
          const alias = m[1]?.toLowerCase();
          // `AS "x"` names an output column, `FROM "x"` a table: neither reads a column.
          if (alias === undefined && /\b(?:AS|FROM|JOIN)\s*$/i.test(step.code.slice(0, m.index))) continue;
          if (alias === undefined || !aliases.has(alias) || aliases.get(alias) === tableName) return true;
        }
        return false;
      });
      if (reads) used.push({ table: tableName, column: column.name });
    }
  }
  return used;
}

const tokens = (name: string) => new Set(nameParts(name).filter((t) => t.length > 2 && t !== 'id'));

/** Why `table` looks like `core` (a shared name token, or ≥ 2 shared non-key column names), or undefined. */
export function resembles(table: TableProfile, core: TableProfile): string | undefined {
  if ([...tokens(core.name)].some((t) => tokens(table.name).has(t))) return `name resembles ${core.name}`;
  const shared = table.columns.filter((col) => !col.candidateKey && core.columns.some((cc) => cc.name.toLowerCase() === col.name.toLowerCase() && !cc.candidateKey)).length;
  return shared >= 2 ? `shares ${shared} column names with ${core.name}` : undefined;
}

/**
 * The look-alikes of each task table: other tables that resemble it (the confuser test below) and hold every column
 * the evidence reads from it, so a reader who is not told which table could read either. A table the evidence reads
 * no column of has none.
 */
export function lookAlikes(task: TaskSpec, profile: EnvironmentProfile): Map<string, string[]> {
  const used = columnsOf(task, profile);
  const found = new Map<string, string[]>();
  for (const core of task.tables) {
    const needed = used.filter((c) => c.table === core).map((c) => c.column.toLowerCase());
    const coreProfile = profile.tables.find((t) => t.name === core);
    if (needed.length === 0 || !coreProfile) continue;
    const others = profile.tables
      .filter((other) => !task.tables.includes(other.name) && resembles(other, coreProfile) !== undefined && needed.every((n) => other.columns.some((c) => c.name.toLowerCase() === n)))
      .map((t) => t.name);
    if (others.length > 0) found.set(core, others);
  }
  return found;
}

/**
 * File roles: core (holds a table or document the evidence reads), supporting (joined to a core table in the
 * graph, or a document section that references a core column), confuser (shares ≥ 2 non-key column names or a
 * name token with a core table, yet is not needed), ambient (the rest).
 */
export function fileRoles(task: TaskSpec, profile: EnvironmentProfile, graph: EvidenceGraph, documents: DataDocument[] = []): FileRole[] {
  const coreTables = new Set(task.tables);
  const coreDocuments = new Set((task.documents ?? []).map((d) => d.document));
  const tableRole = new Map<string, { role: FileRoleKind; why: string }>();
  const joinNeighbours = new Set<string>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'join_key' && edge.kind !== 'reconciliation') continue;
    const a = edge.from.replace(/^(column|table):/, '').split('.')[0];
    const b = edge.to.replace(/^(column|table):/, '').split('.')[0];
    if (coreTables.has(a) && !coreTables.has(b)) joinNeighbours.add(b);
    if (coreTables.has(b) && !coreTables.has(a)) joinNeighbours.add(a);
  }
  const core = profile.tables.filter((t) => coreTables.has(t.name));
  for (const table of profile.tables) {
    if (coreTables.has(table.name)) {
      tableRole.set(table.name, { role: 'core', why: 'the reference solution reads it' });
      continue;
    }
    const why = core.map((c) => resembles(table, c)).find((w) => w !== undefined);
    if (why) {
      tableRole.set(table.name, { role: 'confuser', why });
    } else if (joinNeighbours.has(table.name)) {
      tableRole.set(table.name, { role: 'supporting', why: 'joins to a core table' });
    } else {
      tableRole.set(table.name, { role: 'ambient', why: 'not related to the task' });
    }
  }
  // A document that names a core column (`order_total`) explains the data the task reads.
  const coreColumns = core.flatMap((t) => t.columns.filter((c) => !c.candidateKey && c.name.length > 3).map((c) => c.name));
  const documentRole = (name: string): { role: FileRoleKind; why: string } | undefined => {
    const document = documents.find((d) => d.name === name);
    const text = document?.sections.map((s) => s.text).join('\n') ?? '';
    const named = coreColumns.find((column) => text.includes(`\`${column}\``) || text.includes(`.${column}\``));
    return named ? { role: 'supporting', why: `documents ${named}` } : undefined;
  };
  const rank: Record<FileRoleKind, number> = { core: 3, supporting: 2, confuser: 1, ambient: 0 };
  const roles: FileRole[] = [];
  for (const file of profile.files) {
    let best: FileRole = { file: file.file, role: 'ambient', items: [], why: 'not related to the task' };
    for (const item of file.produced) {
      const role = coreDocuments.has(item)
        ? { role: 'core' as const, why: 'the task needs its rule' }
        : tableRole.get(item) ?? documentRole(item) ?? { role: 'ambient' as const, why: file.kind === 'markdown' ? 'documentation the task does not need' : 'not related to the task' };
      if (rank[role.role] > rank[best.role]) best = { file: file.file, role: role.role, items: [item], why: role.why };
      else if (role.role === best.role) best.items.push(item);
    }
    roles.push(best);
  }
  return roles;
}

const keyText = (key: TaskSpec['answer']): string =>
  key.type === 'number' ? fmt(key.value) : key.type === 'string' ? `'${key.value}'` : key.type === 'list' ? key.values.join(', ') : key.rows.map((r) => String(r[0])).join(', ');

const fmt = (value: number) => (Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6))));

/** The rubric: positive criteria anchored to graph nodes (weights sum to 1), negative ones for confuser tables. */
export function buildRubric(task: TaskSpec, profile: EnvironmentProfile, roles: FileRole[]): RubricCriterion[] {
  const criteria: Omit<RubricCriterion, 'id'>[] = [];
  const answer = task.answer;
  const answerAnchors = task.tables.map(tableNode);
  if (answer.type === 'number') {
    criteria.push({ polarity: 'positive', weight: 0.4, description: `final value ${fmt(answer.value)} ± ${fmt(answer.tolerance)}`, anchors: answerAnchors, check: { kind: 'final_value', answer } });
  } else if (answer.type === 'string') {
    criteria.push({ polarity: 'positive', weight: 0.4, description: `final answer is '${answer.value}'`, anchors: answerAnchors, check: { kind: 'final_value', answer } });
  } else {
    const values = answer.type === 'list' ? answer.values : answer.rows.map((r) => String(r[0]));
    criteria.push({ polarity: 'positive', weight: 0.3, description: `final answer is ${values.join(', ')}${answer.type === 'list' && answer.ordered ? ' in this order' : ''}`, anchors: answerAnchors, check: { kind: 'final_value', answer } });
    criteria.push({ polarity: 'positive', weight: 0.1, description: `reports the values of ${values.join(', ')}`, anchors: answerAnchors, check: { kind: 'reports_values', values } });
  }
  // Each intermediate result of a task program is a criterion of its own, anchored to the step's evidence.
  const subAnswers = task.evidence.slice(0, -1).flatMap((step, index) => (step.subAnswer ? [{ step: index, sub: step.subAnswer }] : []));
  for (const { step, sub } of subAnswers) {
    criteria.push({ polarity: 'positive', weight: 0, description: `finds ${sub.label}: ${keyText(sub.key)}`, anchors: answerAnchors, check: { kind: 'sub_answer', step, answer: sub.key } });
  }
  const joins = joinsOf(task);
  for (const join of joins) {
    criteria.push({
      polarity: 'positive',
      weight: 0,
      description: `joins ${join.left.table} to ${join.right.table} on ${join.left.column} = ${join.right.column}`,
      anchors: [columnNode(join.left.table, join.left.column), columnNode(join.right.table, join.right.column)],
      check: { kind: 'joins_on', left: join.left, right: join.right },
    });
  }
  for (const table of task.tables) criteria.push({ polarity: 'positive', weight: 0, description: `reads ${table}`, anchors: [tableNode(table)], check: { kind: 'uses_table', table } });
  const joinColumns = new Set(joins.flatMap((j) => [`${j.left.table}.${j.left.column}`, `${j.right.table}.${j.right.column}`]));
  for (const used of columnsOf(task, profile).filter((c) => !joinColumns.has(`${c.table}.${c.column}`)).slice(0, 4)) {
    criteria.push({ polarity: 'positive', weight: 0, description: `uses ${used.table}.${used.column}`, anchors: [columnNode(used.table, used.column)], check: { kind: 'uses_column', table: used.table, column: used.column } });
  }
  for (const doc of task.documents ?? []) {
    const anchor = doc.section ? sectionNode(doc.document, doc.section) : documentNode(doc.document);
    criteria.push({ polarity: 'positive', weight: 0, description: `reads ${doc.document}${doc.section ? ` § ${doc.section}` : ''}`, anchors: [anchor], check: { kind: 'uses_document', document: doc.document, section: doc.section } });
    const parameter = /(?:>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)/.exec(task.evidence.map((s) => s.code).join('\n'));
    if (parameter) criteria.push({ polarity: 'positive', weight: 0, description: `applies the documented parameter ${parameter[1]}`, anchors: [anchor], check: { kind: 'uses_parameter', value: Number(parameter[1]) } });
  }
  criteria.push({ polarity: 'positive', weight: 0, description: 'explains how the answer was computed, naming the tables and any filter or threshold used', anchors: answerAnchors, check: { kind: 'text', instruction: 'The explanation names the tables, the filter or threshold, and the computation that produced the answer.' } });
  // The answer is worth 0.4; intermediate results 0.3 when there are any; process criteria share the rest (the
  // text criterion a fixed 0.1).
  const reached = criteria.filter((c) => c.check.kind === 'sub_answer');
  for (const c of reached) c.weight = Number((0.3 / reached.length).toFixed(4));
  const process = criteria.filter((c) => c.weight === 0 && c.check.kind !== 'text' && c.check.kind !== 'sub_answer');
  for (const c of process) c.weight = Number(((reached.length > 0 ? 0.2 : 0.5) / process.length).toFixed(4));
  const text = criteria.find((c) => c.check.kind === 'text')!;
  text.weight = process.length === 0 ? 0.6 : 0.1;
  for (const role of roles.filter((r) => r.role === 'confuser')) {
    for (const item of role.items) {
      criteria.push({ polarity: 'negative', weight: -0.2, description: `uses the confuser table ${item} (${role.why})`, anchors: [tableNode(item), fileNode(role.file)], check: { kind: 'uses_table', table: item } });
    }
  }
  return criteria.map((c, i) => ({ id: `c${i + 1}`, ...c }));
}

/** Node ids a task rests on: its tables, the columns it reads, its document sections. */
export function taskAnchors(task: TaskSpec, profile: EnvironmentProfile): string[] {
  const anchors = new Set<string>(task.tables.map(tableNode));
  for (const c of columnsOf(task, profile)) anchors.add(columnNode(c.table, c.column));
  for (const d of task.documents ?? []) anchors.add(d.section ? sectionNode(d.document, d.section) : documentNode(d.document));
  return [...anchors];
}
