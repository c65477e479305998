/**
 * A wide table: one column per period (a statistics office's quarters, `2017 January to March` … `2023 October to
 * December`; an energy agency's years, `1980` … `2021`) and one row per thing (a police division, a country). Its
 * figures are a series per row, read across the columns; the steps read them as an analyst would:
 *
 *   1. each row's figure in the first and the last period most rows have, and the change → the row that rose most
 *   2. that row's figures in every period, highest first                                    → the period of its peak
 *   3. its peak over its first period's figure, as a percentage                              → the answer (the one thing asked)
 *
 * Rows the semantic profile reads as totals (`Total`, `Europe` among its countries) are left out as in every family
 * (the pool's reference SQL reads the table without them and the question says so); a row with no figure in either
 * period has no rise to compare (a country that did not exist yet), as the question implies. No figure is summed
 * across periods or rows: only one row's figures are compared, so it holds for levels (a capacity) as for flows
 * (deaths in a quarter).
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { periodColumns, type PeriodGrain } from '../../semantics/periods';
import type { TaskSpec } from '../types';
import { clearLeader, humanize, num, q, query, quotable, readsClean, semanticsOf, sqlLiteral, tablePlace, TaskProgram, type FamilyContext, type TaskFamily } from './kit';

/** Rows a table needs, totals left out: fewer make "the most" a choice among a handful. */
const MIN_ROWS = 5;
/** The share of rows a period needs to have a figure in, to be the first or the last period compared. */
const COVERED = 0.8;

interface Period {
  column: ColumnProfile;
  /** As a reader says it: `1980`, `Q1 2017`. */
  label: string;
  order: number;
}

interface WideTable {
  table: TableProfile;
  label: ColumnProfile;
  periods: Period[];
  grain: PeriodGrain;
  /** What the figures are, where the sheet's title or a row of the table says it. */
  quantity?: string;
}

export const widePeriodsFamily: TaskFamily = {
  id: 'wide-periods',
  description: 'A wide table of one column per period: the row whose figure rose most between the first and last well-covered periods, the period of its peak, and how far that peak stood above its start.',
  needs: 'a table with one column per year, quarter or month (at least 5) and a column naming each row',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const table of context.profile.tables) {
      if (tasks.length >= context.maxPerFamily) break;
      const wide = wideTableOf(context, table);
      if (!wide) continue;
      const task = await ask(context, wide);
      if (task && readsClean(context, task)) tasks.push(task);
    }
    return tasks;
  },
};

function wideTableOf(context: FamilyContext, table: TableProfile): WideTable | undefined {
  if (table.rowCount < MIN_ROWS || table.kind !== 'table') return undefined;
  const role = (c: ColumnProfile) => semanticsOf(context, table.name, c.name)?.role.value;
  const headers = periodColumns(table);
  const periods: Period[] = headers.map((p) => ({ column: table.columns.find((c) => c.name === p.column)!, label: p.label, order: p.order }));
  if (periods.length === 0 || periods.some((p) => role(p.column) !== 'measure')) return undefined;
  // The column naming each row: text, nearly one value per row, a place or a category (not a key or a code).
  const label = table.columns.find((c) => !periods.some((p) => p.column === c) && c.type === 'text' && c.nullFraction < 0.2 && c.distinctCount >= 0.9 * table.rowCount * (1 - c.nullFraction) && ['geo', 'dimension', 'ordinal', 'text'].includes(role(c) ?? ''));
  if (!label) return undefined;
  return { table, label, periods, grain: headers[0].grain, quantity: quantityOf(table) };
}

/**
 * A row that names the figures instead of holding some (EIA's "hydroelectricity net generation (billion kWh)" under its
 * header, every period empty): its words, with the unit, else undefined.
 */
async function quantityRow(context: FamilyContext, w: WideTable): Promise<string | undefined> {
  const empty = w.periods.map((p) => `${figure(p.column)} IS NULL`).join(' AND ');
  const rows = await query(context, `SELECT trim(${q(w.label.name)}) FROM ${q(w.table.name)} WHERE ${empty} AND length(trim(${q(w.label.name)})) >= 10 LIMIT 2`);
  const text = rows?.length === 1 ? String(rows[0][0]) : undefined;
  return text && /\([^)]*\)$/.test(text) && text.length <= 80 ? text : undefined;
}

/**
 * What a wide table's figures are: the subject of the sheet's numbered title ("Table A: Police Scotland drug deaths by
 * Police Division, …" → "Police Scotland drug deaths"), else undefined.
 */
function quantityOf(table: TableProfile): string | undefined {
  for (const line of table.preamble ?? []) {
    const m = /^table\s+[\w.]{1,6}\s*[:.–-]\s*(.{3,80}?)(?:,| by | in | for |$)/i.exec(line.trim());
    if (m && !/\d{4}/.test(m[1])) return m[1].trim();
  }
  return undefined;
}

/** A period column's figure as a number: text figures with a mark for a missing one (`--`, `x`) read as empty. */
function figure(column: ColumnProfile): string {
  const c = q(column.name);
  if (column.type === 'integer' || column.type === 'real') return c;
  return `(CASE WHEN trim(${c}) GLOB '*[0-9]*' AND trim(${c}) NOT GLOB '*[^0-9.+-]*' THEN CAST(trim(${c}) AS REAL) END)`;
}

async function ask(context: FamilyContext, w: WideTable): Promise<TaskSpec | undefined> {
  const t = q(w.table.name);
  const name = q(w.label.name);
  const kept = `${name} IS NOT NULL AND trim(${name}) <> ''`;
  const rows = num((await query(context, `SELECT COUNT(*) FROM ${t} WHERE ${kept}`))?.[0]?.[0]);
  if (rows < MIN_ROWS) return undefined;
  // The first and the last period most rows have a figure in: the widest span the table covers. (A row with no figure
  // at either end, a count an office suppressed, has no rise to rank.) One scan of the table for every period's count.
  const counts = (await query(context, `SELECT ${w.periods.map((p) => `COUNT(${figure(p.column)})`).join(', ')} FROM ${t} WHERE ${kept}`))?.[0] ?? [];
  const covered = w.periods.filter((p, at) => num(counts[at]) >= COVERED * rows);
  if (covered.length < 2) return undefined;
  const [start, end] = [covered[0], covered[covered.length - 1]];
  if (end.order - start.order < (w.grain === 'year' ? 4 : 4 * 3)) return undefined;
  const [a, b] = [figure(start.column), figure(end.column)];
  const program = new TaskProgram(context, 'wide-periods');
  const rowNoun = w.label.originalName && !/^column_\d+$/.test(w.label.name) ? humanize(w.label.originalName).toLowerCase() : semanticsOf(context, w.table.name, w.label.name)?.geo === 'country' ? 'country' : 'row';
  const first = await program.sql(
    `SELECT trim(${name}) AS ${name}, ${a} AS first, ${b} AS last, ROUND(${b} - ${a}, 4) AS change FROM ${t} WHERE ${kept} AND ${a} IS NOT NULL AND ${b} IS NOT NULL ORDER BY change DESC`,
    `each ${rowNoun}'s figure in ${start.label} and in ${end.label}, and the change, largest rise first`,
    { label: `the ${rowNoun} whose figure rose most from ${start.label} to ${end.label}`, reading: { kind: 'string' } },
  );
  if (!first || first.rows.length < MIN_ROWS || !clearLeader(first.rows, 3) || num(first.rows[0][3]) <= 0) return undefined;
  const leader = first.rows[0][0];
  if (!quotable(leader) || typeof leader !== 'string') return undefined;
  const at = `trim(${name}) = ${sqlLiteral(leader)} AND ${kept}`;
  // (Each period by its column's name, which describe_table shows: a label the step made up, `Q2 2020`, is a literal
  // no observation grounds.)
  const second = await program.sql(
    w.periods.map((p) => `SELECT ${sqlLiteral(p.column.name)} AS period, ${figure(p.column)} AS value FROM ${t} WHERE ${at}`).join('\nUNION ALL\n') + '\nORDER BY value DESC',
    `the figures of ${leader} in each ${w.grain}, highest first`,
    { label: `the ${w.grain} in which ${leader}'s figure was highest`, reading: { kind: 'string' }, uses: [0], carries: [leader] },
  );
  // One peak: a tie at the top would make "the quarter" a choice.
  if (!second || second.rows.length < 2 || second.rows[0][1] === null || !(num(second.rows[0][1]) > num(second.rows[1][1]))) return undefined;
  const peakColumn = w.periods.find((p) => p.column.name === String(second.rows[0][0]));
  const peak = peakColumn?.label;
  if (!peakColumn || !peak || !(num(first.rows[0][1]) > 0)) return undefined;
  // (Read from the table again, the row's figures at its peak and at the start: the step shows where they are.)
  const third = await program.sql(
    `SELECT ROUND(100.0 * (${figure(peakColumn.column)} - ${a}) / ${a}, 2) AS percent_above_start FROM ${t} WHERE ${at}`,
    `how far the peak of ${leader} (${peak}) stood above its figure in ${start.label}, in percent`,
    { label: `the percentage by which ${leader}'s peak stood above its ${start.label} figure`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [leader, peak] },
  );
  if (!third || third.key.type !== 'number') return undefined;
  const place = tablePlace(context, w.table);
  w.quantity ??= await quantityRow(context, w);
  // (A unit in brackets after the quantity, "net generation (billion kWh)", is said after "in": no brackets in brackets.)
  const quantity = w.quantity?.replace(/\s*\(([^()]+)\)$/, ' in $1');
  const question =
    // ("Largest absolute rise": a rise in percent would crown a row that started near zero.) One thing is asked, the
    // last step's: the row and its peak are found on the way, not answered beside it.
    `In ${place}${quantity ? ` (${quantity})` : ''}, take the ${rowNoun} with the largest absolute rise from ${start.label} to ${end.label}: ` +
    `by what percentage was its highest ${w.grain} above its ${start.label} figure? Round to 2 decimals.`;
  return program.task({
    family: 'wide-periods',
    parameters: { table: w.table.name, label: w.label.name, start: start.column.name, end: end.column.name },
    question,
    tables: [w.table.name],
    dependency: 'change-over-time',
    needs: widePeriodsFamily.needs,
  });
}
