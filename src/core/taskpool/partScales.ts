/**
 * Measures of a partition's union view whose files are on different scales: five reservoirs of 62 to 2,145 million
 * m³ in one view of daily storage. Pooled over the view's rows, a percentile picks the largest reservoirs' days and a
 * correlation is the reservoirs' sizes (a blind review of round 13 found both meaningless); compared file by file
 * (the partition families) they are fine. The pool measures them once; the families that take a statistic over a
 * table's rows leave them out of a view.
 *
 * Different scales: every file's average is above zero and the largest is at least SCALE_RATIO (an order of magnitude)
 * times the smallest; files of different places or things that are each one series over time (counters, stations,
 * reservoirs: a date on every row, once), always; files by season of different lengths (a number each holds once,
 * matches played 7 to 28), at half the ratio of their lengths (and twice at least).
 */
import type { CodeRunner } from '../agent/tools';
import type { EnvironmentProfile } from '../env/types';
import type { SemanticProfile } from '../semantics/types';
import { quoteIdent as q } from '../text/sql';

export interface PartScale {
  view: string;
  column: string;
  why: string;
}

const SCALE_RATIO = 10;
/** Files of different places or things (not of different times): never pooled, whatever their scales. */
const PLACE_SCALE_RATIO = 1;
/** Keys of files that split one series: by time, or into parts nothing names (`part` of a.tsv … e.tsv, chunks, pages). */
const ONE_SERIES_KEYS = /^(year|years|season|month|date|day|week|quarter|period|edition|release|vintage|part|chunk|batch|page)$/;

export async function partScales(profile: EnvironmentProfile, semantics: SemanticProfile, sql: CodeRunner, signal?: AbortSignal): Promise<PartScale[]> {
  const found: PartScale[] = [];
  for (const partition of semantics.partitions) {
    if (!partition.view || partition.tables.length < 2) continue;
    const view = profile.tables.find((t) => t.name === partition.view);
    if (!view) continue;
    // Each file one series over time (a counter's or a station's days: a date on every row, once): the files are
    // different things observed. Files of many rows each (a continent's countries) split one population.
    // (A file of one row says nothing either way.)
    const members = partition.tables.map((member) => profile.tables.find((t) => t.name === member.table)).filter((t): t is NonNullable<typeof t> => t !== undefined && t.rowCount >= 2);
    const seriesFiles = members.length >= 2 && members.every((table) => table.columns.some((c) => c.distinctCount === table.rowCount && c.nullFraction === 0 && semantics.columns.find((s) => s.table === table.name && s.column === c.name)?.role.value === 'time'));
    const exposure = ONE_SERIES_KEYS.test(partition.key) ? await exposureOf(view.name, partition.key, members, sql, signal) : undefined;
    for (const column of view.columns) {
      if (column.name === partition.key || (column.type !== 'integer' && column.type !== 'real')) continue;
      const role = semantics.columns.find((c) => c.table === view.name && c.column === column.name)?.role.value;
      if (role !== 'measure') continue;
      const result = await sql.run(`SELECT ${q(partition.key)}, AVG(${q(column.name)}), AVG(ABS(${q(column.name)})) FROM ${q(view.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1`, { signal });
      const means = (result.ok ? (result.rows ?? []) : []).map((r) => ({ part: String(r[0]), mean: Number(r[1]), size: Number(r[2]) })).filter((m) => Number.isFinite(m.mean));
      // Files by season whose seasons differ in length (a number each file holds once on every row, CPL's matches
      // `played`: 7, 10, 28): a count of the season's events (wins, goals) grows with it, and pooled its rows mix
      // seasons of different lengths well before an order of magnitude. (A signed figure, a goal difference that
      // averages 0, grows with it by its size.)
      if (exposure && column.name !== exposure.column && means.length >= 2 && means.every((m) => m.size > 0)) {
        const [small, large] = [Math.min(...means.map((m) => m.size)), Math.max(...means.map((m) => m.size))];
        if (large >= Math.max(2, exposure.ratio / 2) * small) {
          found.push({ view: view.name, column: column.name, why: `its files' typical sizes run from ${round(small)} to ${round(large)}, as their ${exposure.column} run from ${round(exposure.low)} to ${round(exposure.high)}: pooled, its rows mix seasons of different lengths` });
          continue;
        }
      }
      if (means.length < 2 || means.some((m) => m.mean <= 0)) continue;
      const low = means.reduce((a, b) => (b.mean < a.mean ? b : a));
      const high = means.reduce((a, b) => (b.mean > a.mean ? b : a));
      // Files of different places or things, each one series (counters, stations, `cycle-38-38c1`), are different
      // series: pooled, a correlation or an outlier is between them as much as within (the round-17 review: six
      // counters pooled gave r = 0.50 where each alone gave 0.06 to 0.71). Files of different years hold one thing
      // over time, and files of many things each (a continent's countries) one population: an order of magnitude
      // apart in scale before they mix.
      const byTime = ONE_SERIES_KEYS.test(partition.key) || !seriesFiles;
      if (high.mean < (byTime ? SCALE_RATIO : PLACE_SCALE_RATIO) * low.mean) continue;
      if (!byTime) {
        found.push({ view: view.name, column: column.name, why: `its files are ${partition.tables.length} different ${partition.key}s (averages ${round(low.mean)} at ${low.part} to ${round(high.mean)} at ${high.part}): pooled, its rows mix them` });
        continue;
      }
      found.push({ view: view.name, column: column.name, why: `its files' averages run from ${round(low.mean)} (${low.part}) to ${round(high.mean)} (${high.part}): pooled, its rows mix scales` });
    }
  }
  return found;
}

/** Whether each of a partition's files (of three rows or more) holds one value of the column, on all its rows. */
export function oneValuePerFile(members: EnvironmentProfile['tables'], column: string): boolean {
  return members.every((m) => {
    const own = m.columns.find((x) => x.name === column);
    return own !== undefined && m.rowCount >= 3 && own.nullFraction === 0 && own.distinctCount === 1;
  });
}

/**
 * A number each file of the partition holds once on all its rows (three files at least), twice as large in one file
 * as in another: how long each file's period ran (matches played in a season), which its counts grow with.
 */
async function exposureOf(view: string, key: string, members: EnvironmentProfile['tables'], sql: CodeRunner, signal?: AbortSignal): Promise<{ column: string; ratio: number; low: number; high: number } | undefined> {
  if (members.length < 3) return undefined;
  const fixed = members[0].columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.name !== key && oneValuePerFile(members, c.name));
  for (const column of fixed) {
    const result = await sql.run(`SELECT MIN(${q(column.name)}), MAX(${q(column.name)}) FROM ${q(view)}`, { signal });
    const [low, high] = (result.ok ? (result.rows?.[0] ?? []) : []).map((v) => Number(v));
    if (Number.isFinite(low) && low > 0 && high >= 2 * low) return { column: column.name, ratio: high / low, low, high };
  }
  return undefined;
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : String(Math.round(x * 100) / 100));
