/**
 * Change over time, over real time columns only: the month with the largest month-over-month increase of a total
 * (or count), and the change between the last two complete years.
 */
import type { TaskSpec } from '../types';
import { things, aggregateOf, columnPhrase, coverageChanges, fullPeriods, humanize, measures, noun, periodQualifier, q, query, taskTables, timeColumns, TaskProgram, type TaskFamily, type FamilyContext, rowsCount, partitionOfView, semanticsOf, tablePlace } from './kit';
import type { TableProfile } from '../../env/types';

/** The fewest rows a year must hold for a change in their number to be asked about. */
const MIN_YEAR_COUNT = 20;

export const changeOverTimeFamily: TaskFamily = {
  id: 'change-over-time',
  description: 'The month with the largest month-over-month increase in a total (or count), or the change between the last two complete years.',
  needs: 'a time column dating the rows (ISO dates, years or YYYY-MM periods) over at least two periods',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const time = timeColumns(context, table).find((t) => t.grain === 'day' || t.grain === 'datetime' || t.grain === 'month');
      const yearly = time ?? timeColumns(context, table).find((t) => t.grain === 'year');
      if (!yearly) continue;
      // The first additive measure's total and the row count (flights per month) change differently: both are asked.
      const first = measures(context, table, { additiveOnly: true })[0];
      // Rows a calendar fixes (one a day, or one per entity a day): their count per period measures the calendar.
      const perDate = await query(context, `SELECT MIN(n), MAX(n) FROM (SELECT COUNT(*) AS n FROM ${q(table.name)} WHERE ${yearly.date} IS NOT NULL GROUP BY ${yearly.date})`);
      // (So are a partition's rows of a date, one per file at most: their count is how many files report that day.)
      const files = partitionOfView(context, table)?.tables.length;
      // (…and so are a panel's, one row per entity a period — SNCF's TGV file, its axes each month, 5 then 6 — whose
      // count is how many entities report.)
      const calendar = perDate !== undefined && perDate.length > 0 && (Number(perDate[0][0]) === Number(perDate[0][1]) || (files !== undefined && Number(perDate[0][1]) <= files) || (await panelOf(context, table, yearly.date, Number(perDate[0][1]))));
      // Month over month asks for dense data: most months with rows on 25 days or more (twice-yearly surveys have none).
      const dense = time && time.grain !== 'year' ? await query(context, `SELECT AVG(CASE WHEN days >= 25 THEN 1.0 ELSE 0 END) FROM (SELECT COUNT(DISTINCT strftime('%Y-%m-%d', ${time.date})) AS days FROM ${q(table.name)} WHERE ${time.date} IS NOT NULL GROUP BY strftime('%Y-%m', ${time.date}))`) : undefined;
      // Monthly periods must follow one another: "the month before" of a twice-yearly series is six months back.
      const span = time && time.grain === 'month' ? await query(context, `SELECT COUNT(DISTINCT strftime('%Y-%m', ${time.date})), (CAST(strftime('%Y', MAX(${time.date})) AS INTEGER) * 12 + CAST(strftime('%m', MAX(${time.date})) AS INTEGER)) - (CAST(strftime('%Y', MIN(${time.date})) AS INTEGER) * 12 + CAST(strftime('%m', MIN(${time.date})) AS INTEGER)) + 1 FROM ${q(table.name)} WHERE ${time.date} IS NOT NULL`) : undefined;
      // (Every month of the span: with one missing, "the month before" November is October, which is not there, or
      // September, which is not the month before.)
      const consecutive = span !== undefined && Number(span[0]?.[0] ?? 0) === Number(span[0]?.[1] ?? Infinity);
      const monthOverMonth = time !== undefined && (time.grain === 'month' ? consecutive : Number(dense?.[0]?.[0] ?? 0) >= 0.5);
      for (const measure of (first ? [first, undefined] : [undefined]).filter((m) => m !== undefined || (!calendar && rowsCount(context, table)))) {
        if (tasks.length >= context.maxPerFamily) break;
        const agg = measure ? aggregateOf(context, table.name, measure) : undefined;
        const value = measure && agg ? agg.of(q(measure.name)) : 'COUNT(*)';
        const what = agg ? agg.phrase : `number of ${things(context, table, 'many')}`;
        const by = humanize(yearly.column.originalName || yearly.column.name);
        if (time && time.grain !== 'year' && monthOverMonth) {
          const months = await fullPeriods(context, table, time, 'month');
          // Partial months (a month the data starts or ends in) are left out, and the question says so.
          const allMonths = await query(context, `SELECT COUNT(DISTINCT strftime('%Y-%m', ${time.date})) FROM ${q(table.name)} WHERE ${time.date} IS NOT NULL`);
          const partial = Number(allMonths?.[0]?.[0] ?? 0) > months.length;
          // A partition's files that report in some months and not others: a pooled monthly total follows the coverage.
          const changes = await coverageChanges(context, table, `strftime('%Y-%m', ${time.date})`, months, measure);
          // Monthly records (one date a month) are complete by their share of rows, not by days.
          const completeness = time.grain === 'month' ? 'months with at least half as many records as the fullest month' : 'complete months (with data on at least 25 days)';
          if (months.length >= 3 && !changes) {
            // Every month complete: no list of months to keep (a list the question never shows).
            const kept = partial ? ` AND strftime('%Y-%m', ${time.date}) IN (${months.map((m) => `'${m}'`).join(', ')})` : '';
            const monthly = `SELECT strftime('%Y-%m', ${time.date}) AS month, ${value} AS total FROM ${q(table.name)} WHERE ${time.date} IS NOT NULL${kept} GROUP BY 1`;
            const program = new TaskProgram(context, 'lookup');
            const done = await program.sql(
              // (A month whose month before has no rows gets no increase: the months are numbered, year × 12 + month.)
              `SELECT month, CASE WHEN LAG(n) OVER (ORDER BY month) = n - 1 THEN ROUND(total - LAG(total) OVER (ORDER BY month), 2) END AS increase FROM (SELECT month, total, CAST(substr(month, 1, 4) AS INTEGER) * 12 + CAST(substr(month, 6, 2) AS INTEGER) AS n FROM (${monthly})) ORDER BY increase DESC LIMIT 2`,
              `Month-over-month change of the ${what} by ${by}, largest increase first`,
              { label: `the month with the largest increase of the ${what}`, reading: { kind: 'string' } },
            );
            if (done && done.rows.length === 2 && done.rows[0][1] !== null && Number(done.rows[0][1]) > 0 && Number(done.rows[0][1]) !== Number(done.rows[1][1])) {
              tasks.push(
                program.task({
                  family: this.id,
                  parameters: { kind: 'mom', table: table.name, date: time.column.name, measure: measure?.name ?? null },
                  question: `${partial ? `Counting only ${completeness}, which` : 'Which'} month (YYYY-MM, by ${by}) had the largest increase in the ${what} over the month before?`,
                  tables: [table.name],
                  dependency: 'change-over-time',
                  needs: this.needs,
                }),
              );
            }
          }
        }
        if (tasks.length >= context.maxPerFamily) break;
        const years = await fullPeriods(context, table, yearly, 'year');
        if (years.length < 2) continue;
        const [y1, y2] = years.slice(-2);
        // A measure that is itself a change (`co2_growth_abs`, `population_change`): its change is a change of a change.
        if (measure && /\b(growth|change|changes|delta|diff|difference|increase|decrease)\b/i.test(humanize(measure.originalName || measure.name))) continue;
        // A change between years with others missing between them (2003 to 2007) compares two arbitrary years.
        if (Number(y2) !== Number(y1) + 1) continue;
        // A count of a handful of rows a year (5 falls, then 6) changes by chance: no trend to ask about.
        if (!measure) {
          const counts = await query(context, `SELECT strftime('%Y', ${yearly.date}) AS y, COUNT(*) FROM ${q(table.name)} WHERE strftime('%Y', ${yearly.date}) IN ('${y1}', '${y2}') GROUP BY 1`);
          if (!counts || counts.length < 2 || counts.some((r) => Number(r[1]) < MIN_YEAR_COUNT)) continue;
        }
        const sum = (y: string) => `${agg?.fn ?? 'SUM'}(CASE WHEN strftime('%Y', ${yearly.date}) = '${y}' THEN ${measure ? q(measure.name) : 1} END)`;
        // A table of one row a year (an annual sheet): its figure for a year is that row's, no total of several.
        const oneRowAYear = measure ? await query(context, `SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM ${q(table.name)} WHERE ${yearly.date} IS NOT NULL GROUP BY strftime('%Y', ${yearly.date}))`) : undefined;
        const yearWhat = measure && Number(oneRowAYear?.[0]?.[0] ?? 0) === 1 ? columnPhrase(context, table.name, measure) : what;
        const program = new TaskProgram(context, 'lookup');
        const done = await program.sql(
          `SELECT ROUND(100.0 * (${sum(y2)} - ${sum(y1)}) / ${sum(y1)}, 2) AS pct_change FROM ${q(table.name)}`,
          `Percent change of the ${what} from ${y1} to ${y2}`,
          { label: `the percent change of the ${what} from ${y1} to ${y2}`, reading: { kind: 'number', decimals: 2 } },
        );
        if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
        tasks.push(
          program.task({
            family: this.id,
            parameters: { kind: 'yoy', table: table.name, date: yearly.column.name, measure: measure?.name ?? null, y1, y2 },
            question: `By what percentage did the ${yearWhat}${measure && sharedMeasure(context, table, measure.name) ? ` in ${tablePlace(context, table)}` : ''} change from ${y1} to ${y2}${periodQualifier(context, table, yearly, 'year')}? Round to 2 decimals.`,
            tables: [table.name],
            dependency: 'change-over-time',
            needs: this.needs,
          }),
        );
      }
    }
    return tasks;
  },
};

/**
 * Whether a table is a panel over its dates: a column holds each of its values once a date (the pair is unique), and
 * no more values in all than half again the most any date has — the same entities reported period after period.
 */
async function panelOf(context: FamilyContext, table: TableProfile, date: string, mostPerDate: number): Promise<boolean> {
  const roles = new Set(['dimension', 'geo', 'identifier']);
  for (const c of table.columns) {
    if (c.distinctCount < 2 || c.distinctCount > 1.5 * mostPerDate || !roles.has(semanticsOf(context, table.name, c.name)?.role.value ?? '')) continue;
    const row = (await query(context, `SELECT COUNT(*), COUNT(DISTINCT ${date} || char(31) || ${q(c.name)}) FROM ${q(table.name)} WHERE ${date} IS NOT NULL AND ${q(c.name)} IS NOT NULL`))?.[0];
    if (row && Number(row[0]) > 0 && Number(row[0]) === Number(row[1])) return true;
  }
  return false;
}

/** Whether another table of the pool has a column of the same name (`overall_total` by financial year, by calendar year, by month): a question about it names its table. */
function sharedMeasure(context: FamilyContext, table: TableProfile, column: string): boolean {
  return taskTables(context).some((t) => t.name !== table.name && t.columns.some((c) => c.name === column));
}
