import * as fs from 'node:fs';
import Papa from 'papaparse';
import { listLines, positions, report, type LoaderContext } from './loaderContext';
import { columnNamesFromHeaders, tableBaseNameFromFile } from './naming';
import { quoteIdent } from '../text/sql';
import { createTableParts, MAX_TABLE_COLUMNS, planTableParts, type ColumnSpec, type RowSink } from './tableWriter';
import { ColumnTypeTracker, textCellToSql } from './typeInference';
import { reportDateLayouts, specOf } from './dateDiagnostics';
import { createTextReadStream, decodeHead } from './textEncoding';

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'];
const BOM = '\uFEFF';

/**
 * Loads a CSV or TSV file into one table, streaming: finds the header, infers column types, collects problems
 * with line numbers, and inserts typed values in batches.
 */
export async function loadDelimited(context: LoaderContext, isTsv: boolean): Promise<void> {
  const sample = stripBom(decodeHead(context.head, context.encoding ?? 'utf-8'));
  if (sample.trim() === '') {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  const delimiter = isTsv ? '\t' : sniffDelimiter(sample);
  const sampleRows = Papa.parse<string[]>(sample, { delimiter }).data;
  const leadingBlank = sampleRows.findIndex((row) => !isBlankRow(row));
  const headRows = sampleRows.filter((row) => !isBlankRow(row));
  if (context.head.length >= HEAD_SAMPLE_BYTES) headRows.pop();
  // A line of group labels over the line that names the columns: the names are read from the second line.
  const groupHeader = findGroupHeaderLine(headRows);
  const skipRows = groupHeader ? 1 : 0;

  // One streaming pass both infers types and inserts rows typed by a guess from the first 64 KiB. Only when the
  // whole file disagrees with the guess (a column turns out to be text after all, say) is the table rebuilt in a
  // second pass with the inferred types — so no rows are ever held in memory.
  const guess = guessColumns(headRows.slice(skipRows));
  let inserter: RowSink | undefined;
  let columns: ColumnSpec[] = [];
  let tableName = '';
  let plan: ReturnType<typeof planTableParts> = { parts: [] };
  // Over SQLite's column limit the columns go to linked parts (see planTableParts).
  const partsFor = (all: ColumnSpec[]) => plan.parts.map((part, k) => ({ ...part, columns: plan.linkColumn ? [part.columns[0], ...all.slice(k * (MAX_TABLE_COLUMNS - 1), (k + 1) * (MAX_TABLE_COLUMNS - 1))] : all }));
  let guessHolds = true;
  const values: Array<string | number | null> = [];
  const inference = await inferPass(context, delimiter, skipRows, {
    onHeader(header) {
      const fileName = context.file.split('/').pop() ?? context.file;
      columns = columnNamesFromHeaders(header).map((n, i) => {
        const group = groupHeader?.groupOf[i];
        const origin = group ? { origin: { file: context.file, group, label: `${fileName} › ${group} › ${n.originalName || n.name}` } } : {};
        return { ...n, ...(guess?.[i] ?? { type: 'text' }), ...origin };
      });
      tableName = context.names.allocate(tableBaseNameFromFile(context.file));
      plan = planTableParts(tableName, columns, (base) => context.names.allocate(base));
      inserter = createTableParts(context.db, plan.parts, !!plan.linkColumn);
    },
    onRow(row) {
      if (!guessHolds || !inserter) return;
      for (let c = 0; c < columns.length; c++) values[c] = textCellToSql(row[c], columns[c].type, columns[c].layout);
      inserter.insert(values);
    },
    onChunkEnd(trackers) {
      // Types only ever widen; once one (or a date layout) differs from the guess, stop inserting rows that will be thrown away.
      if (guessHolds && trackers.some((t, i) => t.type !== columns[i].type || t.layout !== columns[i].layout)) guessHolds = false;
    },
  }).catch((e) => {
    inserter?.dispose();
    throw e;
  });
  if (!inference.header || !inserter) {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  if (groupHeader) {
    const line = leadingBlank + 1;
    report(
      context,
      'info',
      `Line ${line} holds group labels over the column names (a two-line header); the column names are read from line ${line + 1}. ` +
        `Groups: ${groupHeader.groups.map((g) => `${JSON.stringify(g.label)} (columns ${g.from + 1}–${g.to + 1})`).join(', ')}.`,
      line,
    );
  }
  reportProblems(context, inference);
  reportDateLayouts(context, columns, inference.trackers);
  // Columns with neither a name nor a value (a spreadsheet's empty trailing columns) are layout, not data: left out,
  // as the XLSX loader leaves them out, and said so. Not for a file split into linked parts.
  const header = inference.header;
  const empty = plan.linkColumn ? [] : columns.map((_, i) => i).filter((i) => (header[i] ?? '').trim() === '' && inference.trackers[i].nonEmptyCount === 0 && inference.trackers[i].missingMarkers === 0);
  const keep = empty.length > 0 && empty.length < columns.length ? columns.map((_, i) => i).filter((i) => !empty.includes(i)) : undefined;
  const droppedColumns = keep ? empty.map((i) => columns[i].name) : undefined;
  if (keep) {
    guessHolds = false;
    report(context, 'info', `${empty.length} column(s) with neither a name nor a value left out (${positions(empty)}), as empty spreadsheet columns are.`);
  }

  if (guessHolds) {
    inserter.finish();
    columns = columns.map((c, i) => ({ ...c, ...specOf(inference.trackers[i]) }));
  } else {
    inserter.dispose();
    for (const part of plan.parts) context.db.run(`DROP TABLE ${quoteIdent(part.name)}`);
    columns = columns.map((c, i) => ({ ...c, ...specOf(inference.trackers[i]) }));
    if (keep) columns = keep.map((i) => columns[i]);
    plan = { ...plan, parts: partsFor(columns) };
    inserter = createTableParts(context.db, plan.parts, !!plan.linkColumn);
    const typed = inserter;
    try {
      await insertPass(context, delimiter, skipRows, columns, (row) => typed.insert(row), keep);
      typed.finish();
    } catch (e) {
      typed.dispose();
      throw e;
    }
  }
  const originalName = context.file.split('/').pop() ?? context.file;
  if (plan.linkColumn) {
    const names = plan.parts.map((p) => p.name);
    report(
      context,
      'warning',
      `${columns.length} columns, over SQLite's limit of ${MAX_TABLE_COLUMNS} per table: stored as ${plan.parts.length} tables (${names.join(', ')}) ` +
        `of at most ${MAX_TABLE_COLUMNS - 1} columns each, in the file's column order; join them on ${plan.linkColumn} (the row number) to read whole rows.`,
    );
  }
  const statistics = inserter.statistics();
  partsFor(columns).forEach((part, k) => context.tables.push({ name: part.name, originalName, sourceFile: context.file, kind: 'table', columns: part.columns, statistics: statistics[k], ...(droppedColumns ? { droppedColumns } : {}) }));
}


const HEAD_SAMPLE_BYTES = 64 * 1024;
const STREAM_CHUNK_BYTES = 64 * 1024;

/** Column types (and date layouts) inferred from the rows in the first bytes of the file, header first (the last row dropped if it may be cut). */
function guessColumns(rows: string[][]): Array<Pick<ColumnSpec, 'type' | 'layout' | 'layoutName'>> | undefined {
  const [header, ...body] = rows;
  if (!header) return undefined;
  const trackers = header.map(() => new ColumnTypeTracker());
  for (const row of body) for (let c = 0; c < trackers.length && c < row.length; c++) trackers[c].addText(row[c]);
  return trackers.map(specOf);
}

export interface GroupHeaderLine {
  /** The labels of the first line and the columns (0-based, inclusive) each spans, up to the next label. */
  groups: Array<{ label: string; from: number; to: number }>;
  /** Per column of the second line, the label of its group (undefined where none spans it). */
  groupOf: Array<string | undefined>;
}

const isEmptyCell = (cell: string | undefined) => cell === undefined || cell.trim() === '';

/**
 * A two-line header, as spreadsheets exported to CSV write one: a first line of group labels over the line that
 * names the columns. Found when, over the columns the second line names, the first line is mostly empty (at most
 * half its cells hold a label, none beyond them), the second line's cells are all filled, distinct and read as
 * names (text, not numbers or dates), and the rows below type differently from them (some column holds numbers or
 * dates). An ordinary header with a few blank cells is not mostly empty; a first line over rows of text only is kept.
 */
export function findGroupHeaderLine(rows: readonly string[][]): GroupHeaderLine | undefined {
  if (rows.length < 3) return undefined;
  const [first, second] = rows;
  let span = second.length;
  while (span > 0 && isEmptyCell(second[span - 1])) span--;
  if (span < 3) return undefined;
  for (let c = span; c < first.length; c++) if (!isEmptyCell(first[c])) return undefined;
  const labelled: number[] = [];
  for (let c = 0; c < span; c++) if (!isEmptyCell(first[c])) labelled.push(c);
  if (labelled.length === 0 || labelled.length > span / 2) return undefined;
  const names = new Set<string>();
  for (let c = 0; c < span; c++) {
    const name = second[c]?.trim() ?? '';
    if (name === '' || name.length > 120 || names.has(name.toLowerCase())) return undefined;
    names.add(name.toLowerCase());
    const tracker = new ColumnTypeTracker();
    tracker.addText(name);
    if (tracker.type !== 'text') return undefined;
  }
  const trackers = Array.from({ length: span }, () => new ColumnTypeTracker());
  for (const row of rows.slice(2)) for (let c = 0; c < span && c < row.length; c++) trackers[c].addText(row[c]);
  if (!trackers.some((t) => t.type !== 'text')) return undefined;
  const groups = labelled.map((from, k) => ({ label: first[from].trim(), from, to: (labelled[k + 1] ?? span) - 1 }));
  const groupOf: Array<string | undefined> = new Array(second.length).fill(undefined);
  for (const group of groups) for (let c = group.from; c <= group.to; c++) groupOf[c] = group.label;
  return { groups, groupOf };
}

function reportProblems(context: LoaderContext, inference: Inference): void {
  const header = inference.header!;
  if (inference.raggedCount > 0) {
    report(
      context,
      'warning',
      `${inference.raggedCount} row(s) have a different number of fields than the header (${header.length}); ` +
        `missing fields were read as NULL and extra fields dropped. Lines: ${listLines(inference.raggedLines, inference.raggedCount)}.`,
      inference.raggedLines[0],
    );
  }
  for (const line of inference.unterminatedQuoteLines) {
    report(context, 'warning', `Unterminated quoted field starting at line ${line}: the rest of the file was read as part of that field.`, line);
  }
  if (inference.malformedQuoteCount > 0) {
    report(
      context,
      'warning',
      `${inference.malformedQuoteCount} field(s) have a stray quote character; they were read as-is. Lines: ` +
        `${listLines(inference.malformedQuoteLines, inference.malformedQuoteCount)}.`,
      inference.malformedQuoteLines[0],
    );
  }
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** The candidate delimiter that splits the first lines into the most fields most consistently. */
export function sniffDelimiter(sample: string): string {
  let best = ',';
  let bestScore = 0;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const parsed = Papa.parse<string[]>(sample, { delimiter, preview: 30 });
    const rows = parsed.data.filter((row) => !(row.length === 1 && row[0].trim() === ''));
    // A sample cut mid-row can end in a short last row; don't let it count against consistency.
    if (rows.length > 1 && sample.length >= 65536) rows.pop();
    if (rows.length === 0) continue;
    const fieldCount = rows[0].length;
    if (fieldCount < 2) continue;
    const consistent = rows.filter((row) => row.length === fieldCount).length / rows.length;
    const score = consistent * 1000 + fieldCount;
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}

interface Inference {
  header?: string[];
  trackers: ColumnTypeTracker[];
  raggedCount: number;
  raggedLines: number[];
  unterminatedQuoteLines: number[];
  malformedQuoteCount: number;
  malformedQuoteLines: number[];
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Streams the file through papaparse; `onRows` gets each chunk's rows with the 1-based line each row starts on. */
function streamRows(
  context: LoaderContext,
  delimiter: string,
  onRows: (rows: string[][], startLines: Int32Array, errors: Papa.ParseError[]) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    context.signal?.throwIfAborted();
    // 64 KiB chunks: each chunk's rows (arrays and field strings) die young, in V8's young generation. With 1 MiB
    // chunks about 14k rows were alive at once, outlived the young generation and made the old one churn; on a
    // 1M-row CSV that cost about 40% of the load's CPU time (16 KiB and 256 KiB were slower too).
    const stream = createTextReadStream(context.absolutePath, context.encoding ?? 'utf-8', STREAM_CHUNK_BYTES) as fs.ReadStream;
    let line = 1;
    let failure: unknown;
    Papa.parse<string[]>(stream as unknown as File, {
      delimiter,
      chunk(results, parser) {
        if (failure) return;
        try {
          if (context.signal?.aborted) throw context.signal.reason ?? new Error('aborted');
          const rows = results.data;
          const startLines = new Int32Array(rows.length);
          for (let r = 0; r < rows.length; r++) {
            startLines[r] = line;
            const row = rows[r];
            let newlines = 1;
            for (let c = 0; c < row.length; c++) {
              const field = row[c];
              if (field.length > 0 && field.indexOf('\n') !== -1) newlines += countNewlines(field);
            }
            line += newlines;
          }
          onRows(rows, startLines, results.errors);
        } catch (e) {
          failure = e;
          parser.abort();
          stream.destroy();
        }
      },
      complete() {
        if (failure) reject(failure);
        else resolve();
      },
      error(error: Error) {
        reject(failure ?? error);
      },
    });
  });
}

function isBlankRow(row: string[]): boolean {
  return row.length === 1 && row[0].trim() === '';
}

interface InferHooks {
  onHeader(header: string[]): void;
  onRow(row: string[]): void;
  onChunkEnd(trackers: ColumnTypeTracker[]): void;
}

/** Reads the file once; the first `skipRows` non-blank rows (a group-label line) come before the header. */
async function inferPass(context: LoaderContext, delimiter: string, skipRows: number, hooks: InferHooks): Promise<Inference> {
  const inference: Inference = {
    trackers: [],
    raggedCount: 0,
    raggedLines: [],
    unterminatedQuoteLines: [],
    malformedQuoteCount: 0,
    malformedQuoteLines: [],
  };
  let skipped = 0;
  await streamRows(context, delimiter, (rows, startLines, errors) => {
    const trackers = inference.trackers;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      if (isBlankRow(row)) continue;
      if (skipped < skipRows) {
        skipped++;
        continue;
      }
      if (!inference.header) {
        const header = row.slice();
        header[0] = stripBom(header[0]);
        inference.header = header;
        for (let c = 0; c < header.length; c++) trackers.push(new ColumnTypeTracker());
        hooks.onHeader(header);
        continue;
      }
      const columnCount = trackers.length;
      if (row.length !== columnCount) {
        inference.raggedCount++;
        if (inference.raggedLines.length < 10) inference.raggedLines.push(startLines[r]);
      }
      const n = Math.min(row.length, columnCount);
      for (let c = 0; c < n; c++) trackers[c].addText(row[c]);
      hooks.onRow(row);
    }
    hooks.onChunkEnd(trackers);
    for (const error of errors) {
      const line = error.row !== undefined && error.row >= 0 && error.row < startLines.length ? startLines[error.row] : undefined;
      if (error.code === 'MissingQuotes') {
        if (line !== undefined) inference.unterminatedQuoteLines.push(line);
      } else if (error.code === 'InvalidQuotes') {
        inference.malformedQuoteCount++;
        if (line !== undefined && inference.malformedQuoteLines.length < 10) inference.malformedQuoteLines.push(line);
      }
    }
  });
  return inference;
}

async function insertPass(
  context: LoaderContext,
  delimiter: string,
  skipRows: number,
  columns: ColumnSpec[],
  insert: (values: Array<string | number | null>) => void,
  /** The file's field for each column, where some fields are left out. */
  fields?: readonly number[],
): Promise<void> {
  let headerSeen = false;
  let skipped = 0;
  const columnCount = columns.length;
  const types = columns.map((c) => c.type);
  const layouts = columns.map((c) => c.layout);
  const values: Array<string | number | null> = new Array(columnCount);
  await streamRows(context, delimiter, (rows) => {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      if (isBlankRow(row)) continue;
      if (skipped < skipRows) {
        skipped++;
        continue;
      }
      if (!headerSeen) {
        headerSeen = true;
        continue;
      }
      if (fields) for (let c = 0; c < columnCount; c++) values[c] = textCellToSql(row[fields[c]], types[c], layouts[c]);
      else for (let c = 0; c < columnCount; c++) values[c] = textCellToSql(row[c], types[c], layouts[c]);
      insert(values);
    }
  });
}
