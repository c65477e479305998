/**
 * Drill-down: find the top segment by an additive measure, then the top sub-segment inside it, then what share of
 * the segment's total that sub-segment holds, and whether that is more than its share everywhere. Each step's result
 * is the next step's filter or operand.
 *
 *   1. total <measure> per <A>                 → the top A (a clear leader: ≥ 5% ahead of the next)
 *   2. total <measure> per <B> within that A   → the top B inside it (a clear leader again)
 *   3. B's share of A's total                  → a sub-answer, in percent
 *   4. B's share of the whole total            → the baseline, in percent
 *   5. the share in A minus the baseline       → the answer, in percentage points (at least 1 point either way)
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import type { TaskSpec } from '../types';
import { codingsOfOne, isFileKey, quotable, things, aggregateOf, clearLeader, groupingName, groupingsOf, measures, noun, q, sourceOf, sqlLiteral, taskTables, TaskProgram, type FamilyContext, type Grouping, type TaskFamily, rowsNoun, rowsCount, query, num, pluralWords } from './kit';

/** The smallest top segment worth drilling into: fewer rows make a "segment" of a handful of records. */
/** A segment or sub-segment holding more than this share of the whole is compared with (nearly) itself. */
const MAX_SEGMENT_SHARE = 0.6;
const MIN_SEGMENT_ROWS = 10;

export const drillDownFamily: TaskFamily = {
  id: 'drill-down',
  description: 'The top segment by a total, the top sub-segment inside it, and the share of the segment it holds.',
  needs: 'a table with an additive measure (or rows to count) and two groupings of 2–50 values',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const groups = groupingsOf(context, table, { min: 3, max: 50 });
      // Shares of a total need parts of one sign: a stock movement's signed quantity has no "share".
      const additive = measures(context, table, { additiveOnly: true }).find((m) => typeof m.min === 'number' && m.min >= 0);
      let made = false;
      for (const a of groups) {
        if (made) break;
        for (const b of groups) {
          if (b === a || b.column.name === a.column.name || (a.via && b.via && a.via !== b.via) || codingsOfOne(a.column, b.column)) continue;
          const task = await drill(context, table, a, b, additive);
          if (task) {
            tasks.push(task);
            made = true;
            break;
          }
        }
      }
    }
    return tasks;
  },
};

async function drill(context: FamilyContext, table: TableProfile, a: Grouping, b: Grouping, measure: ColumnProfile | undefined): Promise<TaskSpec | undefined> {
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, a, b);
  } catch {
    return undefined;
  }
  const agg = measure ? aggregateOf(context, table.name, measure) : undefined;
  // The cells of a grid are not counted: their number is the grid's coverage.
  if (!measure && !rowsCount(context, table)) return undefined;
  // Rows counted by the file they came from are the files' lengths: no drill-down starts there.
  if (!agg && a.table === table && isFileKey(context, table.name, a.column.name)) return undefined;
  // A sub-segment nested in its segment (a plane's model within its manufacturer: each model made by one) holds all
  // of its share inside one segment, so "its share there against its share everywhere" is fixed by the nesting.
  // (Four in five of them under one segment: a few models are filed under two spellings of a maker.)
  const nesting = await query(context, `SELECT COUNT(*), SUM(CASE WHEN k = 1 THEN 1 ELSE 0 END) FROM (SELECT ${b.ref} AS v, COUNT(DISTINCT ${a.ref}) AS k FROM ${source.from} WHERE ${b.ref} IS NOT NULL AND ${a.ref} IS NOT NULL GROUP BY 1)`);
  if (nesting && num(nesting[0]?.[0]) > 0 && num(nesting[0]?.[1]) >= 0.8 * num(nesting[0]?.[0])) return undefined;
  // …and the other way round: a segment inside one sub-segment (a match inside one tournament) has a single "leading"
  // sub-segment, all of its rows.
  const within = await query(context, `SELECT COUNT(*), SUM(CASE WHEN k = 1 THEN 1 ELSE 0 END) FROM (SELECT ${a.ref} AS v, COUNT(DISTINCT ${b.ref}) AS k FROM ${source.from} WHERE ${b.ref} IS NOT NULL AND ${a.ref} IS NOT NULL GROUP BY 1)`);
  if (within && num(within[0]?.[0]) > 0 && num(within[0]?.[1]) >= 0.8 * num(within[0]?.[0])) return undefined;
  const value = measure ? `c.${q(measure.name)}` : '1';
  const total = agg ? agg.of(value) : 'COUNT(*)';
  const what = agg ? agg.phrase : `number of ${things(context, table, 'many')}`;
  const aName = groupingName(a, context);
  const bName = groupingName(b, context);
  const program = new TaskProgram(context, 'drill-down');

  const first = await program.sql(
    `SELECT ${a.ref} AS ${q(a.column.name)}, ROUND(${total}, 2) AS total, COUNT(*) AS n FROM ${source.from} WHERE ${a.ref} IS NOT NULL GROUP BY ${a.ref} ORDER BY ${total} DESC`,
    `${what} per ${aName}, highest first`,
    { label: `the ${aName} with the highest ${what}`, reading: { kind: 'string' } },
  );
  if (!first || !clearLeader(first.rows) || first.rows.length < 3 || Number(first.rows[0][2]) < MIN_SEGMENT_ROWS) return undefined;
  const top = first.rows[0][0];
  if (!quotable(top)) return undefined;
  // A segment that is most of the whole (LEPplus areas, 77% of the rows) is compared with itself.
  const segmentsTotal = first.rows.reduce((t, r) => t + num(r[1]), 0);
  if (segmentsTotal > 0 && num(first.rows[0][1]) > MAX_SEGMENT_SHARE * segmentsTotal) return undefined;
  const inTop = `${a.ref} = ${sqlLiteral(top)}`;

  const second = await program.sql(
    `SELECT ${b.ref} AS ${q(b.column.name)}, ROUND(${total}, 2) AS total, COUNT(*) AS n FROM ${source.from} WHERE ${inTop} AND ${b.ref} IS NOT NULL GROUP BY ${b.ref} ORDER BY ${total} DESC`,
    `${what} per ${bName} within the ${aName} ${top}, highest first`,
    { label: `the ${bName} with the highest ${what} within the ${aName} ${top}`, reading: { kind: 'string' }, uses: [0], carries: [String(top)] },
  );
  if (!second || !clearLeader(second.rows) || second.rows.length < 2) return undefined;
  const topB = second.rows[0][0];
  if (!quotable(topB)) return undefined;
  // (…nor is it where the leader itself lies (nearly) all inside the segment, though others do not: East Uttar
  // Pradesh, a meteorological subdivision, is in Uttar Pradesh, so its share there must beat its share of India.)
  const inside = await query(context, `SELECT SUM(CASE WHEN ${inTop} THEN 1 ELSE 0 END), COUNT(*) FROM ${source.from} WHERE ${b.ref} = ${sqlLiteral(topB)} AND ${a.ref} IS NOT NULL`);
  if (inside && num(inside[0]?.[1]) > 0 && num(inside[0]?.[0]) >= 0.9 * num(inside[0]?.[1])) return undefined;

  const share = `ROUND(100.0 * ${agg ? agg.of(`CASE WHEN ${b.ref} = ${sqlLiteral(topB)} THEN ${value} ELSE 0 END`) : `SUM(CASE WHEN ${b.ref} = ${sqlLiteral(topB)} THEN 1 ELSE 0 END)`} / ${total}, 2)`;
  const third = await program.sql(
    // (Rows with no B are out of both shares, as out of the ranking: one reading, which the question states.)
    `SELECT ${share} AS share_pct FROM ${source.from} WHERE ${inTop} AND ${b.ref} IS NOT NULL`,
    `the ${bName} ${topB}'s share of the ${what} of the ${aName} ${top}, in percent`,
    { label: `the share of the ${aName} ${top}'s ${what} that comes from the ${bName} ${topB}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [String(top), String(topB)] },
  );
  if (!third || !(third.key.type === 'number' && third.key.value > 0 && third.key.value < 100)) return undefined;

  // Is the leader more concentrated in the top segment than everywhere? Its share of the whole is the baseline.
  const whole = `ROUND(100.0 * ${agg ? agg.of(`CASE WHEN ${b.ref} = ${sqlLiteral(topB)} THEN ${value} ELSE 0 END`) : `SUM(CASE WHEN ${b.ref} = ${sqlLiteral(topB)} THEN 1 ELSE 0 END)`} / ${total}, 2)`;
  const fourth = await program.sql(
    `SELECT ${whole} AS share_pct FROM ${source.from} WHERE ${a.ref} IS NOT NULL AND ${b.ref} IS NOT NULL`,
    `the ${bName} ${topB}'s share of the ${what} across every ${aName}, in percent`,
    { label: `the ${bName} ${topB}'s share of the ${what} across every ${aName}`, reading: { kind: 'number', decimals: 2 }, uses: [1], carries: [String(topB)] },
  );
  if (!fourth || fourth.key.type !== 'number' || third.key.type !== 'number') return undefined;
  // A sub-segment that is nearly everything (no precipitation on 701 of 782 surveys) leads everywhere: no finding.
  if (fourth.key.value > 100 * MAX_SEGMENT_SHARE) return undefined;
  const gap = Math.round((third.key.value - fourth.key.value) * 100) / 100;
  // A gap of a fraction of a point says the segment is like the rest: no finding.
  if (Math.abs(gap) < 1) return undefined;
  const difference = await program.python(
    `share_in_top = ${third.key.value}\nshare_overall = ${fourth.key.value}\nprint(round(share_in_top - share_overall, 2))`,
    `how many points the ${bName} ${topB}'s share within the ${aName} ${top} is above its share across every ${aName}`,
    { label: `how many percentage points the ${bName} ${topB}'s share within the ${aName} ${top} exceeds its share across every ${aName}`, reading: { kind: 'printed-number', decimals: 2 }, uses: [2, 3], carries: [String(top), String(topB)] },
  );
  if (!difference || difference.key.type !== 'number' || Math.abs(difference.key.value - gap) > 0.011) return undefined;

  const again = agg ? agg.phrase : `number of ${rowsNoun(context, table, 'many')}`;
  // (A singular in -s takes 's: "the status's", "the process's"; a plural, an apostrophe: "the stores'".)
  const possessive = (w: string) => `${w}${/s$/.test(w) && !/(ss|us|is)$/.test(w) ? "'" : "'s"}`;
  // In plain words, as the reviews asked: which B leads within the top A, then its share there against its share overall.
  // (Short enough to leave room for the rows a grouping's blanks leave out, which the pool states after it.)
  // (…and without "there" and "within it" chained: the reviews of round 26 stumbled on "share of the number of search
  // results there".)
  const leads = agg ? `the largest ${again}` : `the most ${rowsNoun(context, table, 'many')}`;
  const topWhat = agg ? again : rowsNoun(context, table, 'many');
  const question = `Take the ${aName} with the highest ${what}, and within it the ${bName} with ${leads}. By how many percentage points does that ${possessive(bName)} share of the ${possessive(aName)} ${topWhat} exceed its share across all ${pluralWords(aName)} (negative if below)? Round to 2 decimals.`;
  return program.task({
    family: 'drill-down',
    parameters: { table: table.name, a: `${a.table.name}.${a.column.name}`, b: `${b.table.name}.${b.column.name}`, measure: measure?.name ?? null },
    question,
    tables: source.tables,
    dependency: 'group-contrast',
    needs: drillDownFamily.needs,
  });
}
