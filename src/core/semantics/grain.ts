/**
 * The grain of a date column from all its values (the first 50,000 rows), not a sample: a time of day that never changes (a bulletin
 * stamped 17:00 every day, SQL Server's midnight) says nothing, so the values are days; dates that all fall on one
 * day of the month, a month or three or twelve apart, are months, quarters or years. One exception among them (a
 * survey held on the 9th) makes them days again. Dates that all fall on the last day of their month are months too, and
 * dates that all fall on one day of the week (Saturdays ending epidemiological weeks) are weeks. Times that move by an
 * hour at most on such dates are one midnight written in UTC across daylight saving: the dates still decide.
 */
import type { Database } from 'sql.js';
import { quoteIdent as q } from '../text/sql';
import type { TimeGrain } from './types';

/** What the ISO-written values of a date column look like, over the whole column. */
export interface DateShape {
  /** Distinct ISO dates (the date part). */
  dates: number;
  /** Times of day among values that carry one: 0 none carries one, 1 all carry the same, 2 several. */
  times: number;
  /** Distinct days of the month. */
  days: number;
  /** Gaps in months between consecutive distinct months, when every value falls on one day of the month (or on its last). */
  monthGaps: number[];
  /** Distinct days of the week (0: not read). */
  weekdays?: number;
  /** Whether every value is the last day of its month (31/08, 30/09, 28/02). */
  monthEnds?: boolean;
  /** Rows holding a date (0: not read). */
  rows?: number;
  /** Minutes from the earliest time of day to the latest, among values that carry one. */
  timeSpread?: number;
  /** Days from the first date to the last (undefined: not read). */
  spanDays?: number;
  /** Distinct times of day among the dates' first ones: all of them where no date has two (undefined: not read). */
  clocks?: number;
  /** Dates that carry more than one time of day (undefined: not read). */
  datesWithSeveralTimes?: number;
}

const ISO_PREFIX = "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*";
/** Enough distinct months to read a spacing; more would only cost time. */
const MONTH_LIMIT = 600;
/** Rows read: a large table's first rows show its shape well enough, and loading must stay fast. */
const ROW_LIMIT = 50_000;

/** The shape of a column's ISO date values (text written `YYYY-MM-DD…`); undefined when none is written so. */
export function dateShape(db: Database, table: string, column: string): DateShape | undefined {
  const c = q(column);
  try {
    const iso = `FROM (SELECT ${c} FROM ${q(table)} LIMIT ${ROW_LIMIT}) WHERE ${c} GLOB '${ISO_PREFIX}'`;
    // One pass over the rows, grouped by date: a date's times of day (whether any, whether several) and its rows; the
    // rest — days of the month, of the week, month ends — read from the distinct dates (a few thousand at most).
    const time = `CASE WHEN length(${c}) > 10 THEN substr(${c}, 12) END`;
    const days = `SELECT substr(${c}, 1, 10) AS d, MIN(${time}) AS t0, MAX(${time}) AS t1, COUNT(${time}) AS tn, COUNT(*) AS n ${iso} GROUP BY 1`;
    const row = db.exec(
      `SELECT COUNT(*), CASE WHEN MIN(t0) < MAX(t1) THEN 2 WHEN SUM(tn) > 0 THEN 1 ELSE 0 END, COUNT(DISTINCT substr(d, 9, 2)), SUM(n), COUNT(DISTINCT strftime('%w', d)), SUM(strftime('%d', date(d, '+1 day')) = '01'), ` +
        `(strftime('%s', '2000-01-01 ' || substr(MAX(t1), 1, 8)) - strftime('%s', '2000-01-01 ' || substr(MIN(t0), 1, 8))) / 60, julianday(MAX(d)) - julianday(MIN(d)), SUM(t0 < t1), COUNT(DISTINCT t0) FROM (${days})`,
    )[0]?.values[0];
    if (!row || Number(row[0]) === 0) return undefined;
    const shape: DateShape = { dates: Number(row[0]), times: Number(row[1]), days: Number(row[2]), monthGaps: [], rows: Number(row[3]) };
    if (row[6] !== null && row[6] !== undefined) shape.timeSpread = Number(row[6]);
    if (row[7] !== null && row[7] !== undefined) shape.spanDays = Number(row[7]);
    // (Where no date has two times, the dates' times are all the clock times there are.)
    if (row[8] !== null && row[8] !== undefined) {
      shape.datesWithSeveralTimes = Number(row[8]);
      shape.clocks = Number(row[9]);
    }
    if (shape.days > 1 && shape.dates >= 3) {
      shape.weekdays = Number(row[4]);
      shape.monthEnds = Number(row[5]) === shape.dates;
    }
    if (shape.days === 1 || shape.monthEnds) {
      const months = (db.exec(`SELECT DISTINCT substr(${c}, 1, 7) ${iso} ORDER BY 1 LIMIT ${MONTH_LIMIT}`)[0]?.values ?? []).map((r) => {
        const [y, m] = String(r[0]).split('-').map(Number);
        return 12 * y + m;
      });
      for (let i = 1; i < months.length; i++) shape.monthGaps.push(months[i] - months[i - 1]);
    }
    return shape;
  } catch {
    return undefined;
  }
}

/** The grain a date column's whole shape shows; undefined when the shape says nothing (one value, say). */
export function grainOfShape(shape: DateShape): TimeGrain | undefined {
  // Times an hour apart at most on dates that all fall on one day of the month (`1854-04-01T07:00Z`, `…-11-01T08:00Z`):
  // one local midnight written in UTC, moved by daylight saving. The dates are what the values say.
  const zoneShift = shape.days === 1 && shape.dates >= 3 && shape.timeSpread !== undefined && shape.timeSpread <= 60;
  // (One clock time written with two offsets, `T00:00:00+03:00` in summer and `+02:00` in winter, is one local midnight.)
  const oneClock = shape.timeSpread === 0;
  // (Two clock times at most, one per date, over many dates: a day stamped at the hour its batch was written, a
  // survey's 00:00 one year and 16:00 the next, not a time anything happened.)
  const batchClock = shape.clocks !== undefined && shape.clocks <= 2 && shape.datesWithSeveralTimes === 0 && shape.dates >= 10;
  if (shape.times > 1 && !zoneShift && !oneClock && !batchClock) return 'datetime';
  // Every value the last day of its month, month after month (31/08, 30/09, 31/10, …): a monthly series. Quarter
  // ends (31/03, 30/06) are as often the dates of counts taken then, so they stay days.
  // (A month missing from the series, July, August, September, then November, leaves it monthly.)
  const monthEnds = shape.monthEnds === true && shape.dates >= 3 && shape.monthGaps.every((g) => g === 1 || g === 2) && shape.monthGaps.filter((g) => g === 1).length >= shape.monthGaps.length / 2;
  // Every value on one day of the week (Saturdays ending epidemiological weeks), each shared by several rows or
  // many of them: weeks. A few dates of events, one per row (four stores opened on Mondays), stay days, and so do
  // dates that fall on one weekday but lie far apart (a race run on a Sunday each April): weeks follow one another,
  // so a weekly series has a week for at least one in three of the weeks it spans.
  const periods = shape.dates >= 20 || (shape.rows ?? 0) >= 2 * shape.dates;
  const dense = shape.spanDays === undefined || shape.spanDays / 7 <= 3 * shape.dates;
  if (shape.days > 1 && !monthEnds) return shape.weekdays === 1 && shape.dates >= 4 && periods && dense ? 'week' : 'day';
  if (shape.dates < 3) return undefined;
  // Every value on one day of the month: the spacing of the months says the period.
  const gaps = shape.monthGaps;
  if (gaps.length < 2) return 'month';
  if (gaps.every((g) => g % 12 === 0)) return 'year';
  if (gaps.every((g) => g % 3 === 0)) return 'quarter';
  return 'month';
}
