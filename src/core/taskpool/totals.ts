/**
 * Total rows in the task pool: a table whose dimension holds rows that total the others ('Total Domestic' beside the
 * airlines, semantics/totals.ts) is read without them by every step — aggregates, groupings, counts and the values a
 * family picks — and the question says so once, so the answer key, the reference SQL and the question agree.
 *
 * The reference SQL reads the table through a common table expression of its own name that leaves the rows out
 * (`WITH "gdp" AS (SELECT * FROM main."gdp" WHERE …) SELECT …`): the family's query stays as it was written, and the
 * filter is the first thing a reader of the solution sees.
 */
import { GROUP_OF_PLACES } from '../semantics/totals';
import type { TotalRows } from '../semantics/types';
import { quoteIdent as q, sqlLiteral } from '../text/sql';
import { words } from '../text/words';
import type { TaskSpec } from './types';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether an SQL text reads a table (after FROM or JOIN, by its quoted name). */
function reads(sql: string, table: string): boolean {
  return new RegExp(`\\b(FROM|JOIN)\\s+${escape(q(table))}(?![."\\w])`, 'i').test(sql);
}

/** The condition that keeps a table's rows other than its total rows. */
function keeping(totals: readonly TotalRows[]): string {
  return totals.map((t) => `(${q(t.column)} IS NULL OR ${q(t.column)} NOT IN (${t.values.map((v) => sqlLiteral(v)).join(', ')}))`).join(' AND ');
}

/** The total rows of each table, grouped. */
function byTable(totals: readonly TotalRows[] | undefined): Map<string, TotalRows[]> {
  const map = new Map<string, TotalRows[]>();
  for (const t of totals ?? []) map.set(t.table, [...(map.get(t.table) ?? []), t]);
  return map;
}

/** The SQL with each table that has total rows read without them (unchanged when it reads none, or already does). */
export function withoutTotalRows(sql: string, totals: readonly TotalRows[] | undefined): string {
  const ctes: string[] = [];
  for (const [table, list] of byTable(totals)) {
    if (!reads(sql, table) || sql.includes(`FROM main.${q(table)}`)) continue;
    ctes.push(`${q(table)} AS (SELECT * FROM main.${q(table)} WHERE ${keeping(list)})`);
  }
  if (ctes.length === 0) return sql;
  const lead = /^\s*WITH\s+(RECURSIVE\s+)?/i.exec(sql);
  return lead ? `${lead[0]}${ctes.join(', ')}, ${sql.slice(lead[0].length)}` : `WITH ${ctes.join(', ')} ${sql.trimStart()}`;
}

/** The total rows a task's reference solution leaves out, by the tables its SQL steps read without them. */
export function totalRowsLeftOut(task: Pick<TaskSpec, 'evidence'>, totals: readonly TotalRows[] | undefined): TotalRows[] {
  const code = task.evidence.filter((s) => s.tool === 'run_sql').map((s) => s.code).join('\n');
  return [...byTable(totals)].filter(([table]) => code.includes(`FROM main.${q(table)}`)).flatMap(([, list]) => list);
}

/** Labels listed one by one in an exclusion, at most; more groups of countries are said by what they are. */
const MAX_LISTED = 5;

/** "'A' or 'B'", "'A', 'B' or 'C'". */
function listed(values: string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * The sentence that states the exclusion, by the column that holds the labels: "Leave out the rows whose country
 * name is 'World' or 'IDA & IBRD total', which total other rows." Labels of two columns (a fund's 'Total', a
 * kind's 'total') are two clauses, never one list that reads as one column's values.
 */
export function exclusionSentence(left: readonly TotalRows[], nameOf: (table: string, column: string) => string = (_, column) => words(column)): string | undefined {
  // Areas of several levels: "Keep only the rows whose geography type is 'LEPplus' (areas of the other levels overlap them)."
  const kept = left.filter((t) => t.keep !== undefined);
  // Classes of a classification: "Keep only the rows whose o group is 'detailed' (the other levels' rows add them up)."
  const keepSentence = kept.map((t) => `Keep only the rows whose ${nameOf(t.table, t.column)} is '${t.keep}' (${t.levels === 'classes' ? "the other levels' rows add them up" : 'areas of the other levels overlap them'}).`).join(' ');
  // (Rows kept at one level: a total row of the table, 'UK Total' at the 'Country' level, is left out with the other
  // levels, and a second sentence saying so would be redundant.)
  const keptTables = new Set(kept.map((t) => t.table));
  left = left.filter((t) => t.keep === undefined && !keptTables.has(t.table));
  // Rows of what no entity holds are said apart: "…, and the rows whose local authority is 'Unallocated', which belong
  // to no local authority."
  const unheld = left.filter((t) => t.evidence === 'unallocated');
  const unheldSentence = unheld.map((t) => `Leave out the ${t.rows === 1 ? 'row' : 'rows'} whose ${nameOf(t.table, t.column)} is ${listed(t.values)}, which ${t.rows === 1 ? 'belongs' : 'belong'} to no ${nameOf(t.table, t.column)}.`).join(' ');
  left = left.filter((t) => t.evidence !== 'unallocated');
  const byColumn = new Map<string, Set<string>>();
  for (const t of left) for (const v of t.values) byColumn.set(t.column, (byColumn.get(t.column) ?? new Set()).add(v));
  if (byColumn.size === 0) return [keepSentence, unheldSentence].filter(Boolean).join(' ') || undefined;
  const clauses = [...byColumn].map(([column, values]) => {
    const all = [...values];
    // Many groups of countries (the World Bank's regions and income groups, OWID's continents): named by what they
    // are, with the first few, not one by one — a list of sixteen names would be most of the question.
    const groups = all.filter((v) => GROUP_OF_PLACES.test(v.trim()));
    if (all.length > MAX_LISTED && groups.length >= all.length - 1) return `whose ${words(column)} is a group of countries (${all.length}, such as ${listed(all.slice(0, 3)).replace(/ or /, ' and ')})`;
    // (A column with no header, `column_2` of EIA's exports, has no name to say: the rows are named by their label, as
    // a reader sees it, without the spaces that indent it.)
    if (/^column_\d+$/.test(column)) return `labelled ${listed(all.map((v) => v.trim()))}`;
    return `whose ${words(column)} is ${listed(all)}`;
  });
  const one = left.reduce((n, t) => n + t.rows, 0) === 1;
  // One set of rows marked in several columns (NHS England's total line: 'TOTAl' as its code, its region and its
  // name): said once, "the rows marked 'TOTAl' or 'Total' in the org code, parent org and org name".
  const sets = [...byColumn.values()].map((v) => [...v].sort().join('\u0000'));
  const sameRows = left.length >= 2 && new Set(left.map((t) => t.table)).size === 1 && new Set(left.map((t) => t.rows)).size === 1 && new Set(sets).size === 1 && byColumn.size === left.length;
  if (sameRows) {
    const names = [...byColumn.keys()].map((c) => words(c));
    const marked = `Leave out the ${left[0].rows === 1 ? 'row' : 'rows'} marked ${listed([...[...byColumn.values()][0]])} in the ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}, which ${left[0].rows === 1 ? 'totals' : 'total'} other rows.`;
    return [marked, keepSentence, unheldSentence].filter(Boolean).join(' ');
  }
  const sentence = `Leave out the ${one ? 'row' : 'rows'} ${clauses.join(' and those ')}, which ${one ? 'totals' : 'total'} other rows.`;
  return [sentence, keepSentence, unheldSentence].filter(Boolean).join(' ');
}

/** The question with the exclusion stated once (unchanged when the task leaves nothing out or already says it). */
export function statingTotalRows(task: Pick<TaskSpec, 'evidence' | 'question'>, totals: readonly TotalRows[] | undefined, nameOf?: (table: string, column: string) => string): string {
  const sentence = exclusionSentence(totalRowsLeftOut(task, totals), nameOf);
  if (!sentence || task.question.includes(sentence)) return task.question;
  return `${task.question.trimEnd()} ${sentence}`;
}

/** Whether a question (a model's rewrite) still names every total row its task leaves out. */
export function namesTotalRows(task: Pick<TaskSpec, 'evidence' | 'question'>, totals: readonly TotalRows[] | undefined): boolean {
  const left = totalRowsLeftOut(task, totals);
  const keptTables = new Set(left.filter((t) => t.keep !== undefined).map((t) => t.table));
  return left.every((t) => (t.keep !== undefined ? task.question.includes(t.keep) : keptTables.has(t.table) || t.values.every((v) => task.question.includes(v))));
}
