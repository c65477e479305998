/**
 * Partitions: the same measure compared across the files of a partitioned dataset (one file per season, year,
 * station, country), over the partition's union view, whose key column names each row's file.
 *
 * Against the whole (3 steps):
 *   1. the average of the measure per file                        → the file with the highest average (clear leader)
 *   2. the average over all rows of all files                     → the overall average
 *   3. how far the top file's average lies above the overall one  → the answer (percent, or units for signed data)
 *
 * Against each file's own normal (4 steps), where a calendar month (or a category) has rows in the files:
 *   1. each file's average over all its rows (its normal)         → the file with the highest normal
 *   2. each file's average over its rows of the month             → the file with the highest month average
 *   3. the month average less the file's own normal, per file     → the file furthest above its normal (clear leader)
 *   4. that file's deviation                                      → the answer, in the measure's units
 *
 * Files with fewer than 10 rows with a value (or 10 rows of the month) are left out, and the question says so;
 * fewer than 3 files left, or a top file that is not a clear leader (≥ 5% ahead), give no task.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import type { Partition } from '../../semantics/types';
import type { TaskSpec } from '../types';
import { averagePhrase, clearLeader, groupings, humanize, isCoordinate, measures, noun, num, q, query, readsClean, sqlLiteral, TaskProgram, type FamilyContext, type TaskFamily, columnPhrase, valuePhrase, flagMark, coverageTotals } from './kit';

/** Rows a file needs with a value (or in the month) to be compared: fewer make an average of a handful. */
const MIN_ROWS = 10;
const MIN_FILES = 3;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Parts {
  partition: Partition;
  view: TableProfile;
  /** The view's column naming each row's file. */
  key: ColumnProfile;
  /** One part, in words: "season", "year", "station"; "file" where the files vary by an unnamed part. */
  word: string;
  /** The part is named by a column of the files (`country`), not by the file names. */
  named?: boolean;
}

/**
 * The partitions with a union view of at least three files, with their key column. Where the names differ by a part
 * with no name of its own (`can-…`, `ni-…`, `nz-…`) and a column of the files holds one value in each file and
 * another in the next (`country`: Canada, Northern Ireland …), that column names the files' part, in the data's words.
 */
async function partsOf(context: FamilyContext): Promise<Parts[]> {
  const found: Parts[] = [];
  for (const partition of context.semantics.partitions) {
    const view = context.profile.tables.find((t) => t.name === partition.view);
    if (!view || partition.tables.length < MIN_FILES) continue;
    const key = view.columns.find((c) => !partition.columns.includes(c.name));
    if (!key) continue;
    const named = partition.key === 'part' ? await columnNamingFiles(context, view, key, partition.tables.length) : undefined;
    found.push(named ? { partition, view, key: named, word: humanize(named.name), named: true } : { partition, view, key, word: partition.key === 'part' ? 'file' : humanize(partition.key) });
  }
  return found;
}

/** A text column of the view with one value per file, a different one in each, that names what each file is about. */
async function columnNamingFiles(context: FamilyContext, view: TableProfile, key: ColumnProfile, files: number): Promise<ColumnProfile | undefined> {
  const grouped = new Set(groupings(context, view).map((g) => g.name));
  for (const c of view.columns) {
    if (c === key || c.type !== 'text' || c.distinctCount !== files || c.nullFraction > 0 || !grouped.has(c.name)) continue;
    const rows = await query(context, `SELECT COUNT(DISTINCT ${q(c.name)}) FROM ${q(view.name)} GROUP BY ${q(key.name)}`);
    if (rows && rows.length === files && rows.every((r) => num(r[0]) === 1)) return c;
  }
  return undefined;
}

export const partitionsFamily: TaskFamily = {
  id: 'partition-compare',
  description: 'The same measure compared across the files of a partitioned dataset: the file with the highest average against the whole, or the file furthest above its own normal in one month.',
  needs: 'a partitioned dataset (same-schema files as one union view) of at least 3 files with a numeric measure',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const parts of await partsOf(context)) {
      const ms = measures(context, parts.view, { perPart: true }).filter((m) => m.name !== parts.key.name && !isCoordinate(m));
      let whole = 0;
      let normal = 0;
      // Days of a kind over the days observed (EPA's moderate days of its days with an AQI): compared as shares.
      for (const { total, parts: kinds } of coverageTotals(context, parts.view)) {
        for (const part of kinds) {
          if (tasks.length >= context.maxPerFamily || whole >= 2) break;
          const task = await shareAgainstWhole(context, parts, part, total);
          if (task) {
            tasks.push(task);
            whole++;
          }
        }
      }
      for (const measure of ms) {
        if (tasks.length >= context.maxPerFamily || (whole >= 2 && normal >= 1)) break;
        if (whole < 2) {
          const task = await againstWhole(context, parts, measure);
          if (task) {
            tasks.push(task);
            whole++;
          }
        }
        if (normal < 1 && tasks.length < context.maxPerFamily) {
          const task = await againstNormal(context, parts, measure);
          if (task) {
            tasks.push(task);
            normal++;
          }
        }
      }
    }
    return tasks;
  },
};

/** "30 files, one per season" (or "9 files" where the part has no name of its own). */
const filesWords = (parts: Parts) => {
  const n = parts.partition.tables.length;
  return parts.word === 'file' ? `${n} ${noun('file', n)}` : `${n} ${noun('file', n)}, one per ${parts.word}`;
};

/**
 * "Give the season as the file names write it" — the part of the file names, which the union view's key column holds
 * too, so the answer is reproducible by whoever reads the files or the view.
 */
const giveAs = (parts: Parts) => {
  if (parts.word === 'file') return 'Give the file by the part of its name that differs';
  if (parts.named) return `Give the ${parts.word} as the files write it`;
  // A part read from the names, not copied (`April 2025 Revenue for Portal_csv.csv` holds the month `2025-04`).
  const copied = parts.partition.tables.every((t) => t.file.includes(t.value));
  if (!copied && parts.partition.tables.every((t) => /^\d{4}-\d{2}$/.test(t.value))) return `Give the ${parts.word} as YYYY-MM`;
  return copied ? `Give the ${parts.word} as the file names write it` : `Give the ${parts.word} as the view's ${parts.key.name} column writes it`;
};

/** Files with at least MIN_ROWS rows passing `where`, and whether any file falls short. */
async function counts(context: FamilyContext, parts: Parts, where: string): Promise<{ kept: number; short: boolean } | undefined> {
  const k = q(parts.key.name);
  const rows = await query(context, `SELECT ${k}, COUNT(*) FROM ${q(parts.view.name)} WHERE ${where} GROUP BY ${k}`);
  if (!rows) return undefined;
  const kept = rows.filter((r) => num(r[1]) >= MIN_ROWS).length;
  return { kept, short: kept < parts.partition.tables.length };
}

async function againstWhole(context: FamilyContext, parts: Parts, measure: ColumnProfile): Promise<TaskSpec | undefined> {
  const v = q(parts.view.name);
  const k = q(parts.key.name);
  const m = q(measure.name);
  const known = `${m} IS NOT NULL`;
  const counted = await counts(context, parts, known);
  if (!counted || counted.kept < MIN_FILES) return undefined;
  const having = counted.short ? ` HAVING COUNT(${m}) >= ${MIN_ROWS}` : '';
  const name = columnPhrase(context, parts.view.name, measure);
  const what = averagePhrase(name);
  const program = new TaskProgram(context, 'partition-compare');

  const first = await program.sql(
    `SELECT ${k}, ROUND(AVG(${m}), 4) AS average, COUNT(${m}) AS n FROM ${v} WHERE ${known} GROUP BY ${k}${having} ORDER BY AVG(${m}) DESC, 1`,
    `the ${what} of each ${parts.word}'s rows, highest first`,
    { label: `the ${parts.word} with the highest ${what}`, reading: { kind: 'string' } },
  );
  if (!first || first.rows.length < MIN_FILES || !clearLeader(first.rows)) return undefined;
  const top = String(first.rows[0][0]);

  const overall = await program.sql(`SELECT ROUND(AVG(${m}), 4) AS average FROM ${v} WHERE ${known}`, `the ${what} over all rows of all files`, {
    label: `the ${what} over all rows of all files`,
    reading: { kind: 'number', decimals: 4 },
  });
  if (!overall || overall.key.type !== 'number') return undefined;
  // A percentage of an average is read only for values of one sign; signed data (temperatures) compare in units.
  const percent = typeof measure.min === 'number' && measure.min >= 0 && overall.key.value > 0;
  const topAverage = `AVG(CASE WHEN ${k} = ${sqlLiteral(top)} THEN ${m} END)`;
  const gap = percent ? `ROUND(100.0 * (${topAverage} - AVG(${m})) / AVG(${m}), 2)` : `ROUND(${topAverage} - AVG(${m}), 2)`;
  const third = await program.sql(
    `SELECT ${gap} AS ${percent ? 'above_pct' : 'above'} FROM ${v} WHERE ${known}`,
    `how far the ${what} of the ${parts.word} ${top} lies above the overall ${what}${percent ? ', in percent' : ''}`,
    { label: `how far the ${parts.word} ${top}'s ${what} lies above the overall one${percent ? ', in percent' : ''}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [top] },
  );
  if (!third || third.key.type !== 'number' || !(third.key.value > 0)) return undefined;

  const scope = counted.short ? ` (only ${noun(parts.word, 'many')} with at least ${MIN_ROWS} rows with a value)` : '';
  const by = percent ? 'by what percentage does it exceed' : 'by how much does it exceed';
  const question = `Across the ${filesWords(parts)}, which ${parts.word} has the highest ${what}${scope}, and ${by} the ${what} over all rows of all files? ${giveAs(parts)}; round to 2 decimals.`;
  const task = program.task({
    family: 'partition-compare',
    parameters: { kind: 'whole', view: parts.view.name, measure: measure.name },
    question,
    tables: [parts.view.name],
    dependency: 'group-contrast',
    needs: partitionsFamily.needs,
  });
  return readsClean(context, task) ? task : undefined;
}

/**
 * The file with the highest share of the days observed that were of one kind (the sum of `part` over the sum of
 * `total`), and by how many percentage points it exceeds that share over all files: a count of days compared where
 * files (and rows) were observed for different numbers of days.
 */
async function shareAgainstWhole(context: FamilyContext, parts: Parts, part: ColumnProfile, total: ColumnProfile): Promise<TaskSpec | undefined> {
  const v = q(parts.view.name);
  const k = q(parts.key.name);
  const p = q(part.name);
  const t = q(total.name);
  const known = `${p} IS NOT NULL AND ${t} IS NOT NULL`;
  const counted = await counts(context, parts, known);
  if (!counted || counted.kept < MIN_FILES || counted.short) return undefined;
  const partName = columnPhrase(context, parts.view.name, part);
  const totalName = columnPhrase(context, parts.view.name, total);
  const what = `share of ${totalName} that were ${partName}`;
  const program = new TaskProgram(context, 'partition-compare');
  const first = await program.sql(
    `SELECT ${k}, ROUND(100.0 * SUM(${p}) / SUM(${t}), 4) AS share_pct, SUM(${t}) AS observed FROM ${v} WHERE ${known} GROUP BY ${k} HAVING SUM(${t}) > 0 ORDER BY SUM(${p}) * 1.0 / SUM(${t}) DESC, 1`,
    `the ${what} in each ${parts.word}, in percent, highest first`,
    { label: `the ${parts.word} with the highest ${what}`, reading: { kind: 'string' } },
  );
  if (!first || first.rows.length < MIN_FILES || !clearLeader(first.rows)) return undefined;
  const top = String(first.rows[0][0]);
  const overall = await program.sql(`SELECT ROUND(100.0 * SUM(${p}) / SUM(${t}), 4) AS share_pct FROM ${v} WHERE ${known}`, `the ${what} over all files, in percent`, {
    label: `the ${what} over all files`,
    reading: { kind: 'number', decimals: 4 },
  });
  if (!overall || overall.key.type !== 'number' || !(overall.key.value > 0)) return undefined;
  const topShare = `100.0 * SUM(CASE WHEN ${k} = ${sqlLiteral(top)} THEN ${p} END) / SUM(CASE WHEN ${k} = ${sqlLiteral(top)} THEN ${t} END)`;
  const third = await program.sql(
    `SELECT ROUND(${topShare} - 100.0 * SUM(${p}) / SUM(${t}), 2) AS above_points FROM ${v} WHERE ${known}`,
    `how many percentage points the ${what} in the ${parts.word} ${top} lies above the share over all files`,
    { label: `how far the ${parts.word} ${top}'s ${what} lies above the share over all files, in percentage points`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [top] },
  );
  if (!third || third.key.type !== 'number' || !(third.key.value > 0)) return undefined;
  const question = `Across the ${filesWords(parts)}, pooling each ${parts.word}'s ${totalName}, which ${parts.word} has the highest share of them that were ${partName}, and by how many percentage points does it exceed that share over all ${noun(parts.word, 'many')}? ${giveAs(parts)}; round to 2 decimals.`;
  const task = program.task({
    family: 'partition-compare',
    parameters: { kind: 'share-whole', view: parts.view.name, measure: part.name, total: total.name },
    question,
    tables: [parts.view.name],
    dependency: 'group-contrast',
    needs: partitionsFamily.needs,
  });
  return readsClean(context, task) ? task : undefined;
}

/** A focus for "its own normal": the calendar month with the most rows, or the most frequent value of a grouping. */
interface Focus {
  where: string;
  /** "rows dated in December", "rows whose sex is 'F'". */
  rows: string;
  /** "December", "'F'". */
  short: string;
  parameters: Record<string, string>;
}

async function focusesOf(context: FamilyContext, parts: Parts): Promise<Focus[]> {
  const v = q(parts.view.name);
  const found: Focus[] = [];
  for (const c of parts.view.columns) {
    const s = context.semantics.columns.find((x) => x.table === parts.view.name && x.column === c.name);
    if (s?.role.value !== 'time' || !s.time || (s.time.storage !== 'iso-date' && s.time.storage !== 'iso-datetime') || (s.time.grain !== 'day' && s.time.grain !== 'datetime')) continue;
    const rows = await query(context, `SELECT strftime('%m', ${q(c.name)}) AS month, COUNT(*) FROM ${v} WHERE ${q(c.name)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
    const month = rows?.[0]?.[0];
    if (typeof month !== 'string') continue;
    const monthName = MONTHS[Number(month) - 1];
    found.push({ where: `strftime('%m', ${q(c.name)}) = '${month}'`, rows: `rows dated in ${monthName} (by ${columnPhrase(context, parts.view.name, c)})`, short: monthName, parameters: { time: c.name, month } });
  }
  for (const g of groupings(context, parts.view, { min: 2, max: 50 })) {
    if (g.name === parts.key.name) continue;
    const rows = await query(context, `SELECT ${q(g.name)}, COUNT(*) FROM ${v} WHERE ${q(g.name)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
    const value = rows?.[0]?.[0];
    if (value === null || value === undefined) continue;
    const shown = `'${String(value)}'`;
    const mark = flagMark(context, parts.view.name, g, value);
    found.push({ where: `${q(g.name)} = ${sqlLiteral(value as string | number)}`, rows: mark ? `rows ${mark}` : `rows whose ${valuePhrase(context, parts.view.name, g)} is ${shown}`, short: mark ?? shown, parameters: { group: g.name, value: String(value) } });
  }
  return found;
}

async function againstNormal(context: FamilyContext, parts: Parts, measure: ColumnProfile): Promise<TaskSpec | undefined> {
  const v = q(parts.view.name);
  const k = q(parts.key.name);
  const m = q(measure.name);
  const known = `${m} IS NOT NULL`;
  const name = columnPhrase(context, parts.view.name, measure);
  const what = averagePhrase(name);
  for (const focus of await focusesOf(context, parts)) {
    const counted = await counts(context, parts, `${known} AND ${focus.where}`);
    if (!counted || counted.kept < MIN_FILES) continue;
    const having = counted.short ? ` HAVING COUNT(CASE WHEN ${focus.where} THEN ${m} END) >= ${MIN_ROWS}` : '';
    const program = new TaskProgram(context, 'partition-compare');
    const normal = await program.sql(
      `SELECT ${k}, ROUND(AVG(${m}), 4) AS normal, COUNT(${m}) AS n FROM ${v} WHERE ${known} GROUP BY ${k}${having} ORDER BY AVG(${m}) DESC, 1`,
      `each ${parts.word}'s own ${what} over all its rows (its normal), highest first`,
      { label: `the ${parts.word} with the highest ${what} over all its rows`, reading: { kind: 'string' } },
    );
    if (!normal || normal.rows.length < MIN_FILES) continue;
    const inFocus = await program.sql(
      `SELECT ${k}, ROUND(AVG(${m}), 4) AS focus_average, COUNT(*) AS n FROM ${v} WHERE ${known} AND ${focus.where} GROUP BY ${k}${counted.short ? ` HAVING COUNT(*) >= ${MIN_ROWS}` : ''} ORDER BY AVG(${m}) DESC, 1`,
      `each ${parts.word}'s ${what} over its ${focus.rows}, highest first`,
      { label: `the ${parts.word} with the highest ${what} over its ${focus.rows}`, reading: { kind: 'string' } },
    );
    if (!inFocus || inFocus.rows.length !== normal.rows.length) continue;
    const deviation = `AVG(CASE WHEN ${focus.where} THEN ${m} END) - AVG(${m})`;
    const deviations = await program.sql(
      `SELECT ${k}, ROUND(${deviation}, 4) AS above_normal FROM ${v} WHERE ${known} GROUP BY ${k}${having} ORDER BY ${deviation} DESC, 1`,
      `each ${parts.word}'s ${what} over its ${focus.rows} less its own normal, largest first`,
      { label: `the ${parts.word} whose ${focus.short} ${what} lies furthest above its own normal`, reading: { kind: 'string' }, uses: [0, 1] },
    );
    if (!deviations || !clearLeader(deviations.rows) || !(num(deviations.rows[0][1]) > 0)) continue;
    const top = String(deviations.rows[0][0]);
    const last = await program.sql(
      `SELECT ROUND(${deviation}, 2) AS above_normal FROM ${v} WHERE ${known} AND ${k} = ${sqlLiteral(top)}`,
      `how far the ${parts.word} ${top}'s ${what} over its ${focus.rows} lies above its normal`,
      { label: `how far the ${parts.word} ${top}'s ${focus.short} ${what} lies above its own normal`, reading: { kind: 'number', decimals: 2 }, uses: [2], carries: [top] },
    );
    if (!last || last.key.type !== 'number' || !(last.key.value > 0)) continue;
    const scope = counted.short ? ` (only ${noun(parts.word, 'many')} with at least ${MIN_ROWS} such rows)` : '';
    const question = `Across the ${filesWords(parts)}, which ${parts.word}'s ${what} over its ${focus.rows} lies furthest above its ${what} over all its rows${scope}, and by how much? ${giveAs(parts)}; round to 2 decimals.`;
    const task = program.task({
      family: 'partition-compare',
      parameters: { kind: 'normal', view: parts.view.name, measure: measure.name, ...focus.parameters },
      question,
      tables: [parts.view.name],
      dependency: 'group-contrast',
      needs: partitionsFamily.needs,
    });
    if (readsClean(context, task)) return task;
  }
  return undefined;
}
