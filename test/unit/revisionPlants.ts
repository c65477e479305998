/**
 * Faults planted into sound tasks, for the revision tests and `npm run bench:revision`: each is a fault a compiler
 * or a phrasing model can really make (a rubric anchor on a column the evidence never reads, a wrong expected
 * value, a quantity the data does not support, a field the data lacks, a question two tables answer).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { executeToolCall, type ToolContext } from '../../src/core/agent/tools';
import { loadEnvironment } from '../../src/core/env/index';
import type { EnvironmentProfile } from '../../src/core/env/types';
import { columnNode, type EvidenceGraph } from '../../src/core/taskpool/graph';
import { namesTable, tableNameForms, tablesNamingPhrase } from '../../src/core/taskpool/revise';
import { buildRubric, columnsOf, fileRoles, taskAnchors } from '../../src/core/taskpool/rubric';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { escapeRegExp } from '../../src/core/text/regex';

export type PlantKind = 'wrong-anchor' | 'wrong-expected-value' | 'wrong-answer-key' | 'unsupported-quantity' | 'unknown-field' | 'ambiguous';

const clone = (task: TaskSpec): TaskSpec => JSON.parse(JSON.stringify(task)) as TaskSpec;

/** A uses_column criterion moved to a column of the same table that the evidence never reads. */
export function plantWrongAnchor(task: TaskSpec, profile: EnvironmentProfile): TaskSpec | undefined {
  const planted = clone(task);
  const used = new Set(columnsOf(task, profile).map((c) => `${c.table}.${c.column}`));
  const criterion = planted.rubric?.find((c) => c.check.kind === 'uses_column');
  if (!criterion || criterion.check.kind !== 'uses_column') return undefined;
  const table = criterion.check.table;
  const other = profile.tables.find((t) => t.name === table)?.columns.find((c) => !used.has(`${table}.${c.name}`) && !c.candidateKey);
  if (!other) return undefined;
  criterion.check = { kind: 'uses_column', table, column: other.name };
  criterion.anchors = [columnNode(table, other.name)];
  criterion.description = `uses ${table}.${other.name}`;
  return planted;
}

/** The rubric's answer criterion expects a value the evidence does not return. */
export function plantWrongExpectedValue(task: TaskSpec): TaskSpec | undefined {
  const planted = clone(task);
  const criterion = planted.rubric?.find((c) => c.check.kind === 'final_value');
  if (!criterion || criterion.check.kind !== 'final_value') return undefined;
  const wrong = wrongKey(planted.answer);
  if (!wrong) return undefined;
  criterion.check = { kind: 'final_value', answer: wrong };
  return planted;
}

/** The answer key itself (and its rubric criterion) is wrong: the evidence, re-run, says otherwise. */
export function plantWrongAnswerKey(task: TaskSpec): TaskSpec | undefined {
  const planted = clone(task);
  const wrong = wrongKey(planted.answer);
  if (!wrong) return undefined;
  planted.answer = wrong;
  for (const c of planted.rubric ?? []) if (c.check.kind === 'final_value') c.check = { kind: 'final_value', answer: wrong };
  return planted;
}

function wrongKey(answer: TaskSpec['answer']): TaskSpec['answer'] | undefined {
  switch (answer.type) {
    case 'number':
      return { ...answer, value: answer.value * 1.5 + 7 };
    case 'string':
      return { type: 'string', value: `${answer.value} planted` };
    case 'list':
      return answer.values.length > 1 ? { ...answer, values: [...answer.values].reverse(), ordered: true } : { ...answer, values: [...answer.values, 'planted'] };
    case 'table':
      return undefined;
  }
}

/** The question asks for a cut-off the evidence never applies. */
export function plantUnsupportedQuantity(task: TaskSpec): TaskSpec {
  const planted = clone(task);
  planted.question = `${planted.question.replace(/\s*$/, '')} Count only rows above 7919.`;
  return planted;
}

/** The question asks about a field the data does not have. */
export function plantUnknownField(task: TaskSpec): TaskSpec {
  const planted = clone(task);
  planted.question = `${planted.question.replace(/\?\s*$/, '')}, broken down by loyalty_tier_code?`;
  return planted;
}

/**
 * A single-table task whose question stops naming its table ("records" instead, for every form `namesTable` reads as
 * naming it): with a second table of the same columns in the environment, two tables answer it. Undefined when the
 * task does not fit.
 */
export function plantAmbiguous(task: TaskSpec): TaskSpec | undefined {
  if (task.tables.length !== 1 || !task.evidence.every((s) => s.tool === 'run_sql')) return undefined;
  const table = task.tables[0];
  // The columns the task reads (its anchors): a form inside one of them ("order" in "order total") names the column.
  const columns = (task.anchors ?? []).filter((a) => a.startsWith(`column:${table}.`)).map((a) => a.slice(`column:${table}.`.length));
  const alternation = (phrases: string[]) => phrases.sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  const phrase = (names: string[]) => new RegExp(`(^|[^a-z0-9_])(${alternation(names)})(?=$|[^a-z0-9_])`, 'gi');
  // Column phrases are set aside first, so "order total" stays while "orders" becomes "records".
  const kept: string[] = [];
  const columnWords = columns.map((c) => c.replace(/[_\s]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  // The pool's own naming ("In the X table, ") goes whole: the plant is the question without it.
  const named = tablesNamingPhrase([table]);
  const unnamed = task.question.startsWith(named) ? task.question.slice(named.length).replace(/^./, (c) => c.toUpperCase()) : task.question;
  let question = columnWords.length > 0 ? unnamed.replace(phrase(columnWords), (_m, before: string, words: string) => `${before}\u0000${kept.push(words) - 1}\u0000`) : unnamed;
  question = question.replace(phrase(tableNameForms(table)), '$1records').replace(/\(records\)/g, '');
  question = question.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)]);
  if (question === task.question || namesTable(question, table, columns)) return undefined;
  const planted = clone(task);
  planted.question = question;
  return planted;
}

/** The SQL that adds a second table answering the same question differently (a third of the rows left out). */
export function archiveCopySql(table: string): string {
  const q = `"${table.replace(/"/g, '""')}"`;
  const copy = `"${`${table}_archive`.replace(/"/g, '""')}"`;
  return `CREATE TABLE ${copy} AS SELECT * FROM ${q} WHERE rowid % 3 <> 0;`;
}


/**
 * Adds archive.sqlite to a data folder: `orders_archive`, two thirds of the orders, a second table that answers order
 * questions differently (`scratch` holds the environment image it is copied from).
 */
export async function addOrdersArchive(folder: string, scratch: string): Promise<void> {
  const image = path.join(scratch, 'image.sqlite');
  fs.writeFileSync(image, (await loadEnvironment(folder)).image);
  execFileSync('sqlite3', [image], { input: `ATTACH '${path.join(folder, 'archive.sqlite')}' AS a; ${archiveCopySql('orders').replace('CREATE TABLE "', 'CREATE TABLE a."')}` });
  fs.rmSync(image);
}

/** A sound single-table task on orders (its question names the table), compiled as the pool compiles one from `template`. */
export async function ordersMeanTask(context: ToolContext, graph: EvidenceGraph, template: TaskSpec): Promise<TaskSpec> {
  const code = 'SELECT ROUND(AVG("order_total"), 2) AS mean_total FROM "orders"';
  const observation = await executeToolCall(context, { name: 'run_sql', arguments: JSON.stringify({ query: code }) });
  if (!observation.ok || observation.data.kind !== 'rows') throw new Error(`the orders mean did not run: ${JSON.stringify(observation)}`);
  const value = Number(observation.data.rows[0][0]);
  const base: TaskSpec = {
    ...template,
    id: 'planted-orders-mean',
    family: 'planted',
    question: 'What is the average order total of orders, rounded to 2 decimals?',
    answer: { type: 'number', value, tolerance: 0.005 },
    evidence: [{ tool: 'run_sql', code, purpose: 'mean order total', result: { columns: ['mean_total'], rows: [[value]] } }],
    tables: ['orders'],
    documents: undefined,
  };
  base.anchors = taskAnchors(base, context.profile);
  base.roles = fileRoles(base, context.profile, graph, context.documents);
  base.rubric = buildRubric(base, context.profile, base.roles);
  return base;
}
