/**
 * One-table lookups: a total (or average) under a filter, and the group with the highest mean of a measure.
 * Single-step on purpose: the easy end of the pool, which a curriculum needs too.
 */
import type { TaskSpec } from '../types';
import { averagePhrase, groupWords, isFileKey, quotable, things, columnPhrase, aggregateOf, clearLeader, groupings, humanize, measureName, measures, noun, q, query, sqlLiteral, taskTables, TaskProgram, type TaskFamily, pluralWords, rowsNoun, rowsCount, decidingMeasures, type FamilyContext } from './kit';

/** Whether every parent record holds the same number (one or more) of a nested list's entries that match `where`. */
async function fixedPerParent(context: FamilyContext, table: string, parentColumn: string, where: string): Promise<boolean> {
  const p = q(parentColumn);
  // (How many matching entries each parent holds: one number, and every parent holding some.)
  const row = (await query(context, `SELECT COUNT(DISTINCT n), COUNT(*), (SELECT COUNT(DISTINCT ${p}) FROM ${q(table)}) FROM (SELECT COUNT(*) AS n FROM ${q(table)} WHERE ${where} GROUP BY ${p})`))?.[0];
  return row !== undefined && Number(row[0]) === 1 && Number(row[1]) >= 2 && Number(row[1]) === Number(row[2]);
}

export const filteredAggregateFamily: TaskFamily = {
  id: 'filtered-aggregate',
  description: 'A total (or, for a measure that does not add up, an average) over the rows of one table that match a category value.',
  needs: 'a table with a measure and a grouping of 2–50 values',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      // A value on one row only says nothing ("how many customers have name 'Avery A.'"): a column rows share.
      const category = groupings(context, table, { min: 3 }).find((c) => c.distinctCount < table.rowCount * (1 - c.nullFraction));
      const measure = measures(context, table)[0];
      if (!category) continue;
      const t = q(table.name);
      const c = q(category.name);
      const top = await query(context, `SELECT ${c}, COUNT(*) AS n FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY n DESC, ${c} LIMIT 1`);
      const value = top?.[0]?.[0];
      // A value on one row only (a city list's 'Bobr'): "how many cities have city 'Bobr'" is 1 by construction.
      if (!quotable(value) || Number(top?.[0]?.[1]) < 2) continue;
      // Rows counted by the file they came from are the file's length.
      if (!measure && isFileKey(context, table.name, category.name)) continue;
      // A grid's rows counted are its coverage.
      if (!measure && !rowsCount(context, table)) continue;
      // The entries of a nested list that every record holds the same number of (a STAC item's three JSON links:
      // collection, parent, root): the count is the records' number times three, fixed by the format.
      if (!measure && table.parent && (await fixedPerParent(context, table.name, table.parent.column, `${c} = ${sqlLiteral(value)}`))) continue;
      const where = columnPhrase(context, table.name, category);
      const program = new TaskProgram(context, 'lookup');
      // A measure's total (or average, for one that does not add up); a count when the table has no measure.
      const agg = measure ? aggregateOf(context, table.name, measure) : undefined;
      // (A total of whole numbers is a whole number: nothing to round.)
      const whole = agg?.fn === 'SUM' && measure?.type === 'integer';
      const done = measure && agg
        ? await program.sql(
            `SELECT ROUND(${agg.of(q(measure.name))}, 2) AS ${q(`${agg.fn.toLowerCase()}_${measure.name}`)} FROM ${t} WHERE ${c} = ${sqlLiteral(value)}`,
            `${agg.phrase} where ${where} is '${value}'`,
            { label: `the ${agg.phrase} of ${things(context, table, 'many')} whose ${where} is '${value}'`, reading: whole ? { kind: 'number' } : { kind: 'number', decimals: 2 } },
          )
        : await program.sql(`SELECT COUNT(*) AS row_count FROM ${t} WHERE ${c} = ${sqlLiteral(value)}`, `Count the ${things(context, table, 'many')} whose ${where} is '${value}'`, {
            label: `the number of ${things(context, table, 'many')} whose ${where} is '${value}'`,
            reading: { kind: 'number' },
          });
      if (!done) continue;
      tasks.push(
        program.task({
          family: this.id,
          parameters: { table: table.name, category: category.name, value, measure: measure?.name ?? null, aggregate: agg?.fn ?? 'COUNT' },
          question: agg
            ? `What is the ${agg.phrase} of the ${things(context, table, 'many')} whose ${where} is '${value}'?${whole ? '' : ' Round to 2 decimals.'}`
            : `How many ${things(context, table, 'many')} have ${where} '${value}'?`,
          tables: [table.name],
          needs: this.needs,
        }),
      );
    }
    return tasks;
  },
};

/** The category with the highest mean of a measure, from the pair whose means are most spread out. */
export const groupContrastFamily: TaskFamily = {
  id: 'group-contrast',
  description: 'Which category has the highest mean of a measure (the category/measure pair with the largest relative spread).',
  needs: 'a table with a measure and a grouping of 3–50 values',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const t = q(table.name);
      let best: { category: (typeof table.columns)[number]; measure: (typeof table.columns)[number]; spread: number } | undefined;
      for (const category of groupings(context, table, { min: 3 })) {
        // (Not a measure that decides the category, or that the category decides: a match's points and goals by its
        // result, which its goals for and against made.)
        const deciding = category.distinctCount <= 6 ? await decidingMeasures(context, t, q(category.name), measures(context, table)) : new Set<string>();
        for (const measure of measures(context, table)) {
          const c = q(category.name);
          const m = q(measure.name);
          if (deciding.has(measure.name)) continue;
          const rows = await query(context, `SELECT (MAX(a) - MIN(a)) / NULLIF(ABS(AVG(a)), 0) FROM (SELECT AVG(${m}) AS a FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c} HAVING COUNT(*) >= 5)`);
          const spread = rows?.[0]?.[0];
          if (typeof spread === 'number' && Number.isFinite(spread) && (!best || spread > best.spread)) best = { category, measure, spread };
        }
      }
      if (!best) continue;
      const c = q(best.category.name);
      const m = q(best.measure.name);
      const name = measureName(context, table.name, best.measure);
      const program = new TaskProgram(context, 'lookup');
      const done = await program.sql(
        `SELECT ${c}, ROUND(AVG(${m}), 4) AS ${q(`avg_${best.measure.name}`)}, COUNT(*) AS n FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c} HAVING COUNT(*) >= 5 ORDER BY AVG(${m}) DESC`,
        `Average ${name} per ${groupWords(columnPhrase(context, table.name, best.category))}, highest first (groups of 5 rows or more)`,
        { label: `the ${groupWords(columnPhrase(context, table.name, best.category))} with the highest ${averagePhrase(name)}`, reading: { kind: 'string' } },
      );
      if (!done || !clearLeader(done.rows, 1, 0.02)) continue;
      tasks.push(
        program.task({
          family: this.id,
          parameters: { table: table.name, category: best.category.name, measure: best.measure.name },
          question: `Among ${things(context, table, 'many')}, which ${groupWords(columnPhrase(context, table.name, best.category))} has the highest ${averagePhrase(name)} (counting only ${pluralWords(groupWords(columnPhrase(context, table.name, best.category)))} with at least 5 ${rowsNoun(context, table, 'many')})?`,
          tables: [table.name],
          dependency: 'group-contrast',
          needs: this.needs,
        }),
      );
    }
    return tasks;
  },
};
