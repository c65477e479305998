/**
 * Rates: the share of rows with an outcome (a status value, a flag set, a signed measure above zero), by group —
 * over one table or a parent's groups across a key — and under a filter.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import type { TaskSpec } from '../types';
import { codingsOfOne, flagMark, article, quotable, things, columnPhrase, valuePhrase, clearLeader, groupingName, groupings, groupingsOf, humanize, measures, noun, num, q, query, semanticsOf, sourceOf, sqlLiteral, taskTables, TaskProgram, type FamilyContext, type TaskFamily, pluralWords, rowsNoun, rowsCount, ratesDiffer, tableMention, tablePlace, saysNotKnown } from './kit';

/** An outcome a rate is taken of: a category value (`status = 'cancelled'`) or a signed measure above zero (`delay > 0`). */
export interface RateTarget {
  column: ColumnProfile;
  value: string;
  above?: boolean;
  /** The column as the question names it. */
  phrase?: string;
  /** A yes/no flag's rows in words ("marked 'lighted'"), said instead of its value. */
  mark?: string;
}

export const targetSql = (target: RateTarget, prefix: string) => (target.above ? `${prefix}${q(target.column.name)} > ${target.value}` : `${prefix}${q(target.column.name)} = ${sqlLiteral(target.value)}`);

/** "status 'cancelled'", "delay above 0". */
export const targetWords = (target: RateTarget) => {
  const name = target.phrase ?? humanize(target.column.name);
  return target.above ? `${article(name)} ${name} above ${target.value}` : `${name} '${target.value}'`;
};

/** The rows with the outcome, after a noun: "with status 'cancelled'", "marked 'lighted'" (a flag's own words). */
export const withTarget = (target: RateTarget) => target.mark ?? `with ${targetWords(target)}`;

/** What a fraction of rows does: "have status 'cancelled'", "are marked 'lighted'". */
export const haveTarget = (target: RateTarget) => (target.mark ? `are ${target.mark}` : `have ${targetWords(target)}`);

/**
 * Outcomes to take a rate of: the rarest common value of a status-like column (dimensions and flags of 2–12
 * values: the "cancelled" of a status), and, for a measure that takes both signs (a delay, a profit), the share above zero.
 */
export async function rateTargets(context: FamilyContext, table: TableProfile): Promise<RateTarget[]> {
  const targets: RateTarget[] = [];
  for (const column of groupings(context, table, { min: 2, max: 12 })) {
    const role = semanticsOf(context, table.name, column.name)?.role.value;
    if (role !== 'dimension' && role !== 'flag') continue;
    const rows = await query(context, `SELECT ${q(column.name)}, COUNT(*) AS n FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1 ORDER BY n ASC, 1`);
    // (An outcome recorded as not known on many rows, a specimen's sex `ND` on 485 of 636, has two rates, among all
    // rows and among those known, which differ: no question of it.)
    const unknown = (rows ?? []).filter((r) => saysNotKnown(r[0])).reduce((n, r) => n + num(r[1]), 0);
    if (unknown >= 0.05 * table.rowCount) continue;
    const common = (rows ?? []).filter((r) => num(r[1]) >= Math.max(3, 0.03 * table.rowCount) && !saysNotKnown(r[0]));
    const [value] = common[0] ?? [];
    if (common.length >= 2 && quotable(value)) {
      const mark = flagMark(context, table.name, column, value);
      targets.push({ column, value: String(value), phrase: valuePhrase(context, table.name, column), ...(mark ? { mark } : {}) });
    }
  }
  for (const column of measures(context, table)) {
    if (typeof column.min !== 'number' || typeof column.max !== 'number' || column.min >= 0 || column.max <= 0) continue;
    const rows = await query(context, `SELECT AVG(CASE WHEN ${q(column.name)} > 0 THEN 1.0 ELSE 0.0 END) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL`);
    const share = num(rows?.[0]?.[0] ?? 0);
    if (share >= 0.03 && share <= 0.97) targets.push({ column, value: '0', above: true, phrase: columnPhrase(context, table.name, column) });
  }
  return targets;
}

export const groupRateFamily: TaskFamily = {
  id: 'group-rate',
  description: 'Which group has the highest rate of an outcome (e.g. cancellation rate by region), over one table or across a key.',
  needs: 'an outcome column (a status or flag of 2–12 values, or a signed measure) and a grouping of 3–50 values',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context).filter((t) => rowsCount(context, t))) {
      if (tasks.length >= context.maxPerFamily) break;
      const targets = await rateTargets(context, table);
      const groups = groupingsOf(context, table, { min: 3, max: 50 });
      let added = false;
      for (const target of targets) {
        if (added) break;
        for (const group of groups) {
          if ((group.column.name.toLowerCase() === target.column.name.toLowerCase() || codingsOfOne(group.column, target.column)) && !group.via) continue;
          const source = sourceOf(table, group);
          const name = groupingName(group, context);
          // The outcome's rows must mostly have a group: where most have none (350 of 357 'irregular' dissections
          // with no protocol), the contrast among the known groups rests on a handful of rows.
          const known = await query(context, `SELECT COUNT(*), SUM(CASE WHEN ${group.ref} IS NOT NULL THEN 1 ELSE 0 END) FROM ${source.from} WHERE ${targetSql(target, 'c.')}`);
          if (!known || num(known[0]?.[1]) < 0.5 * num(known[0]?.[0])) continue;
          const program = new TaskProgram(context, 'lookup');
          const done = await program.sql(
            `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(AVG(CASE WHEN ${targetSql(target, 'c.')} THEN 1.0 ELSE 0.0 END), 4) AS rate, COUNT(*) AS n FROM ${source.from} WHERE ${group.ref} IS NOT NULL GROUP BY ${group.ref} HAVING COUNT(*) >= 10 ORDER BY rate DESC, n DESC`,
            `Share of ${things(context, table, 'many')} ${withTarget(target)} per ${name}`,
            { label: `the ${name} with the highest share of ${things(context, table, 'many')} ${withTarget(target)}`, reading: { kind: 'string' } },
          );
          // Rates of 0 or 1 in most groups mean the group decides the outcome (each brand sells one category): no contrast.
          const extreme = done ? done.rows.filter((r) => num(r[1]) === 0 || num(r[1]) === 1).length : 0;
          if (!done || done.rows.length < 3 || !clearLeader(done.rows, 1, 0.05) || extreme >= done.rows.length / 2) continue;
          // The groups' rates must differ more than chance makes them (chi-square, 5%): else the "highest" is noise.
          if (!ratesDiffer(done.rows.map((r) => ({ n: num(r[2]), rate: num(r[1]) })))) continue;
          // The minimum is said only where it leaves a group out (three quarters of 1,220 payments or more: it does not).
          const groups = await query(context, `SELECT COUNT(*) FROM (SELECT 1 FROM ${source.from} WHERE ${group.ref} IS NOT NULL GROUP BY ${group.ref})`);
          const minimum = !groups || num(groups[0]?.[0]) > done.rows.length ? `, among ${pluralWords(name)} with at least 10 ${rowsNoun(context, table, 'many')}` : '';
          tasks.push(
            program.task({
              family: this.id,
              parameters: { table: table.name, target: target.column.name, value: target.value, group: `${group.table.name}.${group.column.name}` },
              // (The share of its own rows, "of its payments": not its share of all the rows with the target.)
              // (Rows that are named by their place, "rows in all 3 quarterly files", are placed first: "its rows in all 3
              // quarterly files" would put a quarter's rows in every file.)
              question: tableMention(context, table) ? `In ${tablePlace(context, table)}, which ${name} has the highest share of its ${rowsNoun(context, table, 'many')} ${withTarget(target)}${minimum}?` : `Which ${name} has the highest share of its ${things(context, table, 'many')} ${withTarget(target)}${minimum}?`,
              tables: source.tables,
              dependency: 'group-contrast',
              needs: this.needs,
            }),
          );
          added = true;
          break;
        }
      }
    }
    return tasks;
  },
};

export const conditionalRateFamily: TaskFamily = {
  id: 'conditional-rate',
  description: 'The rate of an outcome among the rows that match a filter on another column.',
  needs: 'an outcome column and a second grouping to filter by',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context).filter((t) => rowsCount(context, t))) {
      if (tasks.length >= context.maxPerFamily) break;
      const targets = await rateTargets(context, table);
      let added = false;
      for (const target of targets) {
        for (const filter of groupings(context, table, { min: 2, max: 50 })) {
          if (added || filter.name === target.column.name || codingsOfOne(filter, target.column)) continue;
          // (The most frequent value that says something: not `ND`, the sex of a specimen nobody determined.)
          const top = await query(context, `SELECT ${q(filter.name)}, COUNT(*) AS n FROM ${q(table.name)} WHERE ${q(filter.name)} IS NOT NULL GROUP BY 1 ORDER BY n DESC, 1 LIMIT 3`);
          const value = top?.map((r) => r[0]).find((v) => !saysNotKnown(v));
          if (!quotable(value)) continue;
          // The outcome's rate among the filtered rows must differ from the rest more than chance (chi-square, 5%):
          // a rate that is the table's own says nothing about the filter.
          // (Over the rows whose outcome is recorded, as the rate below.)
          const split = await query(context, `SELECT ${q(filter.name)} = ${sqlLiteral(value)} AS inside, COUNT(*), AVG(CASE WHEN ${targetSql(target, '')} THEN 1.0 ELSE 0.0 END) FROM ${q(table.name)} WHERE ${q(filter.name)} IS NOT NULL AND ${q(target.column.name)} IS NOT NULL GROUP BY 1`);
          if (!split || !ratesDiffer(split.map((r) => ({ n: num(r[1]), rate: num(r[2]) })))) continue;
          const program = new TaskProgram(context, 'lookup');
          const filterMark = flagMark(context, table.name, filter, value);
          // Rows of the filter whose outcome is not recorded (`NA` of a yes/no) are left out (in or out of the
          // denominator, they give two answers), and the pool's question says so (statingUnknownGroups).
          const blank = await query(context, `SELECT COUNT(*) FROM ${q(table.name)} WHERE ${q(filter.name)} = ${sqlLiteral(value)} AND ${q(target.column.name)} IS NULL`);
          const known = num(blank?.[0]?.[0]) > 0 ? ` AND ${q(target.column.name)} IS NOT NULL` : '';
          const among = filterMark ? `the ${things(context, table, 'many')} ${filterMark}` : `the ${things(context, table, 'many')} whose ${valuePhrase(context, table.name, filter)} is '${value}'`;
          const done = await program.sql(
            `SELECT ROUND(AVG(CASE WHEN ${targetSql(target, '')} THEN 1.0 ELSE 0.0 END), 4) AS rate FROM ${q(table.name)} WHERE ${q(filter.name)} = ${sqlLiteral(value)}${known}`,
            `Among ${among}, the share ${withTarget(target)}`,
            { label: `the share ${withTarget(target)}`, reading: { kind: 'number', decimals: 4 } },
          );
          if (!done || done.key.type !== 'number' || done.key.value <= 0 || done.key.value >= 1) continue;
          tasks.push(
            program.task({
              family: this.id,
              parameters: { table: table.name, target: target.column.name, value: target.value, filter: filter.name, filterValue: value },
              question: `Among ${among}, what fraction ${haveTarget(target)}? Answer as a fraction between 0 and 1, rounded to 4 decimals.`,
              tables: [table.name],
              dependency: 'conditional-rate',
              needs: this.needs,
            }),
          );
          added = true;
        }
      }
    }
    return tasks;
  },
};
