/**
 * Attribution of change: between two complete periods (the last two full calendar years, or the last two full
 * months where the data holds fewer than two full years), how much an additive measure (or a count of rows)
 * changed, which category contributed most to that change, and what share of the change it accounts for.
 *
 *   0. (years of dated rows) the last two calendar years with rows in all 12 months → the two periods
 *   1. the measure in each period                          → the change, period 2 minus period 1
 *   2. per category, its own change between the periods    → the top contributor (its change largest in the
 *                                                             direction of the total change, a clear leader)
 *   3. the top contributor's change over the total change  → the answer, in percent
 *
 * Rejected: a total change of about nothing (under 1% of the larger period's total), contributions that do not add
 * up to the total (rows without a category hold part of the change), and a top contributor that is not ≥ 10% ahead
 * of the next one or has fewer than 5 rows in the two periods (a panel, one row per category and period, is kept). Mixed signs: a share of the change is asked only
 * where the contributions against the direction of the total change sum to at most half of its size and the top
 * contributor's own change is no larger than the total (otherwise one category "makes up" 140% of the change,
 * offset by others, which says nothing); there the last step gives the top contributor's own change instead.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import type { TaskSpec } from '../types';
import {
  aggregateOf,
  distinctGroupingName,
  fullPeriods,
  groupingsOf,
  humanize,
  measures,
  periodQualifier,
  num,
  q,
  readsClean,
  rowsNoun,
  tableMention,
  sourceOf,
  sqlLiteral,
  taskTables,
  TaskProgram,
  timeColumns,
  type FamilyContext,
  type Grouping,
  type TaskFamily,
  type TimeColumn,
  rowsCount,
  columnPhrase,
} from './kit';

/** The top contributor must beat the next by this share of its own change. */
const LEAD_MARGIN = 0.1;
/** A total change smaller than this share of the larger period's total is "about nothing". */
const MIN_CHANGE = 0.01;
/** Contributions against the total change may sum to at most this share of it. */
const MAX_OFFSET = 0.5;
/** Rows the top contributor needs in the two periods: fewer make a "category" of a record or two. */
const MIN_TOP_ROWS = 5;

interface Periods {
  grain: 'year' | 'month';
  first: string;
  second: string;
  /** The period expression over the table's rows: `strftime('%Y', "ordered_at")`. */
  of: (alias: string) => string;
  /** Whether a step finds the periods (calendar years of dated rows): otherwise the question names them. */
  found: boolean;
  time: TimeColumn;
}

export const attributionFamily: TaskFamily = {
  id: 'attribution',
  description: 'Between the last two complete periods, the change of an additive measure (or a count), the category that contributed most to it, and its share of the change.',
  needs: 'a time column with two complete years (or months), an additive measure or rows to count, and a grouping of 3–50 values',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const periods = await periodsOf(context, table);
      if (!periods) continue;
      const groups = groupingsOf(context, table, { min: 3, max: 50 });
      const candidates: Array<ColumnProfile | undefined> = [...measures(context, table, { additiveOnly: true }).slice(0, 2), undefined];
      // One task per table: a share of the change where some measure and grouping give one, else a top
      // contributor's own change (mixed signs).
      let made: TaskSpec | undefined;
      for (const allowOwnChange of [false, true]) {
        for (const measure of candidates) {
          for (const group of groups) {
            made = await attribute(context, table, periods, measure, group, groups, allowOwnChange);
            if (made) break;
          }
          if (made) break;
        }
        if (made) break;
      }
      if (made) tasks.push(made);
    }
    return tasks;
  },
};

/** The last two complete years of a time column of the table, or else its last two complete months. */
async function periodsOf(context: FamilyContext, table: TableProfile): Promise<Periods | undefined> {
  for (const time of timeColumns(context, table, 'c.')) {
    const bare = timeColumns(context, table).find((t) => t.column === time.column)!;
    const years = await fullPeriods(context, table, bare, 'year');
    if (years.length >= 2) {
      const [first, second] = years.slice(-2);
      // Dates within the year: "the last two years with rows in all 12 months" is a step the agent can take itself.
      const found = time.grain !== 'year';
      return { grain: 'year', first, second, of: (a) => `strftime('%Y', ${a === 'c.' ? time.date : bare.date})`, found, time: bare };
    }
    if (time.grain === 'year') continue;
    const months = await fullPeriods(context, table, bare, 'month');
    if (months.length >= 2) {
      const [first, second] = months.slice(-2);
      return { grain: 'month', first, second, of: (a) => `strftime('%Y-%m', ${a === 'c.' ? time.date : bare.date})`, found: false, time: bare };
    }
  }
  return undefined;
}

async function attribute(context: FamilyContext, table: TableProfile, periods: Periods, measure: ColumnProfile | undefined, group: Grouping, all: Grouping[], allowOwnChange: boolean): Promise<TaskSpec | undefined> {
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, group);
  } catch {
    return undefined;
  }
  // The cells of a grid are not counted: their number is the grid's coverage.
  if (!measure && !rowsCount(context, table)) return undefined;
  const t = q(table.name);
  const agg = measure ? aggregateOf(context, table.name, measure) : undefined;
  const what = agg ? agg.phrase : `number of ${rowsNoun(context, table, 'many')}`;
  const groupName = distinctGroupingName(group, all, context);
  const by = columnPhrase(context, table.name, periods.time.column);
  const { first, second } = periods;
  const program = new TaskProgram(context, 'attribution');

  if (periods.found) {
    const year = periods.of('');
    const done = await program.sql(
      `SELECT ${year} AS year, COUNT(DISTINCT strftime('%m', ${periods.time.date})) AS months FROM ${t} WHERE ${periods.time.date} IS NOT NULL GROUP BY 1 HAVING COUNT(DISTINCT strftime('%m', ${periods.time.date})) = 12 ORDER BY 1 DESC LIMIT 2`,
      `the two latest calendar years (by ${by}) with ${rowsNoun(context, table, 'many')} in all 12 months`,
      { label: `the two latest calendar years with ${rowsNoun(context, table, 'many')} in all 12 months`, reading: { kind: 'list', ordered: true } },
    );
    // The definition the question states must pick the same years the pool judged complete.
    if (!done || done.key.type !== 'list' || done.key.values.join() !== [second, first].join()) return undefined;
  }
  const uses = periods.found ? [0] : [];
  const at = periods.found ? 1 : 0;

  // The total change, over the table alone (a category's parent is not needed to measure it).
  const value = (alias: string) => (measure ? `${alias}${q(measure.name)}` : '1');
  const inPeriod = (alias: string, p: string, extra = '') => `SUM(CASE WHEN ${periods.of(alias)} = ${sqlLiteral(p)}${extra} THEN ${value(alias)} ELSE 0 END)`;
  const change = (alias: string, extra = '') => `${inPeriod(alias, second, extra)} - ${inPeriod(alias, first, extra)}`;
  const bare = periods.of('');
  const totals = await program.sql(
    `SELECT ROUND(${change('')}, 2) AS change, ROUND(${inPeriod('', first)}, 2) AS total_${first.replace('-', '_')}, ROUND(${inPeriod('', second)}, 2) AS total_${second.replace('-', '_')} FROM ${t} WHERE ${bare} IN (${sqlLiteral(first)}, ${sqlLiteral(second)})`,
    `the ${what} in ${first} and in ${second}, and the change between them`,
    { label: `the change in the ${what} from ${first} to ${second}`, reading: { kind: 'number', decimals: 2 }, uses, carries: periods.found ? [first, second] : undefined },
  );
  if (!totals || totals.key.type !== 'number') return undefined;
  const total = totals.key.value;
  const scale = Math.max(Math.abs(num(totals.rows[0][1])), Math.abs(num(totals.rows[0][2])));
  if (total === 0 || Math.abs(total) < MIN_CHANGE * scale) return undefined;
  const direction = total > 0 ? 1 : -1;

  const contributions = await program.sql(
    `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(${change('c.')}, 2) AS contribution, SUM(CASE WHEN ${periods.of('c.')} = ${sqlLiteral(first)} THEN 1 ELSE 0 END) AS rows_${first.replace('-', '_')}, SUM(CASE WHEN ${periods.of('c.')} = ${sqlLiteral(second)} THEN 1 ELSE 0 END) AS rows_${second.replace('-', '_')} FROM ${source.from} WHERE ${periods.of('c.')} IN (${sqlLiteral(first)}, ${sqlLiteral(second)}) AND ${group.ref} IS NOT NULL GROUP BY ${group.ref} ORDER BY ${change('c.')} ${direction > 0 ? 'DESC' : 'ASC'}, 1`,
    `each ${groupName}'s own change in the ${what} from ${first} to ${second}, largest in the direction of the total change first`,
    { label: `the ${groupName} that contributed most to the change in the ${what} from ${first} to ${second}`, reading: { kind: 'string' }, uses: [...uses, at] },
  );
  if (!contributions || contributions.rows.length < 3) return undefined;
  const rows = contributions.rows.map((r) => [r[0], direction * num(r[1]), num(r[2]), num(r[3])]);
  const sum = rows.reduce((s, r) => s + num(r[1]), 0);
  // Every row of the two periods has a category: the contributions add up to the total change.
  if (Math.abs(sum - Math.abs(total)) > 0.005 * Math.abs(total) + 0.01 * rows.length) return undefined;
  const [a, b] = [num(rows[0][1]), num(rows[1][1])];
  if (!(a > 0) || a - b < LEAD_MARGIN * a) return undefined;
  // A category of a record or two is no category, unless the grouping is the entity itself (a panel: one row per
  // category and period, as a country's yearly figures are).
  const panel = rows.every((r) => num(r[2]) <= 1 && num(r[3]) <= 1);
  if (num(rows[0][2]) + num(rows[0][3]) < MIN_TOP_ROWS && !(panel && num(rows[0][2]) === 1 && num(rows[0][3]) === 1)) return undefined;
  const top = contributions.rows[0][0] as string | number;
  // Mixed signs: where the contributions against the total change are large, a share of the change says nothing
  // (one category "makes up" 140% of it); the top contributor's own change is the answer then.
  const offset = rows.filter((r) => num(r[1]) < 0).reduce((s, r) => s - num(r[1]), 0);
  const shared = offset <= MAX_OFFSET * Math.abs(total) && a <= Math.abs(total);
  if (!shared && !allowOwnChange) return undefined;

  const own = shared
    ? `ROUND(100.0 * (${change('c.', ` AND ${group.ref} = ${sqlLiteral(top)}`)}) / (SELECT ${change('')} FROM ${t}), 2) AS share_pct`
    : `ROUND(${change('c.', ` AND ${group.ref} = ${sqlLiteral(top)}`)}, 2) AS change`;
  const last = await program.sql(
    `SELECT ${own} FROM ${source.from} WHERE ${periods.of('c.')} IN (${sqlLiteral(first)}, ${sqlLiteral(second)})`,
    shared ? `the ${groupName} ${top}'s change as a share of the total change in the ${what}, in percent` : `the ${groupName} ${top}'s own change in the ${what}`,
    {
      label: shared ? `the share of the change in the ${what} from ${first} to ${second} that comes from the ${groupName} ${top}` : `the change in the ${what} of the ${groupName} ${top} from ${first} to ${second}`,
      reading: { kind: 'number', decimals: 2 },
      uses: [at, at + 1],
      carries: [String(top)],
    },
  );
  if (!last || last.key.type !== 'number' || (shared ? !(last.key.value > 0 && last.key.value <= 100) : last.key.value === 0 || Math.sign(last.key.value) !== direction)) return undefined;

  const between = periods.found
    ? `Take the two latest calendar years (by ${by}) with ${rowsNoun(context, table, 'many')}${tableMention(context, table)} in all 12 months.`
    : `Compare ${periods.grain === 'year' ? 'the years' : 'the months'} ${first} and ${second}${periodQualifier(context, table, periods.time, periods.grain)}${tableMention(context, table)}.`;
  const ask = shared ? 'and what percentage of the total change is its own change?' : `and by how much did its own ${what} change?`;
  // A change of a count is a whole number: nothing to round.
  const round = !shared && !measure ? '' : ' Round to 2 decimals.';
  const question = `${between} Which ${groupName} contributed most to the change in the ${what} between them (its own change largest in the direction of the total change), ${ask}${round}`;
  const task = program.task({
    family: 'attribution',
    parameters: { table: table.name, time: periods.time.column.name, first, second, group: `${group.table.name}.${group.column.name}`, measure: measure?.name ?? null },
    question,
    tables: source.tables,
    dependency: 'change-over-time',
    needs: attributionFamily.needs,
  });
  return readsClean(context, task) ? task : undefined;
}
