import * as fs from 'node:fs';
import { Transform } from 'node:stream';
import Papa from 'papaparse';
import { listLines, positions, report, tableBaseName, type LoaderContext } from './loaderContext';
import { columnNamesFromHeaders } from './naming';
import { quoteIdent } from '../text/sql';
import { createTableParts, MAX_TABLE_COLUMNS, planTableParts, type ColumnSpec, type RowSink } from './tableWriter';
import { ColumnTypeTracker, textCellToSql } from './typeInference';
import { reportDateLayouts, specOf } from './dateDiagnostics';
import { createTextReadStream, decodeHead } from './textEncoding';

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'];
/** A quote character no text holds: quotes are read as text. */
const NO_QUOTE = '\u0000';

/** How the file's fields are separated and quoted. */
interface Dialect {
  delimiter: string;
  quoteChar: string;
}
const BOM = '\uFEFF';

/**
 * Loads a CSV or TSV file into one table, streaming: finds the header, infers column types, collects problems
 * with line numbers, and inserts typed values in batches.
 */
export async function loadDelimited(context: LoaderContext, isTsv: boolean): Promise<void> {
  const head = stripBom(decodeHead(context.head, context.encoding ?? 'utf-8'));
  const crRuns = carriageReturnRuns(head);
  if (crRuns) report(context, 'info', 'Lines end in two or more carriage returns before the line feed (\\r\\r\\n, a Windows line end written twice): each run is read as one line end.');
  else if (mixedLineEnds(head)) report(context, 'info', 'The header line ends in \\r\\n and the rows in \\n (a header written apart from its rows): every line end is read as \\n.');
  const sample = unevenLineEnds(head) ? head.replace(CR_RUN, '\n') : head;
  if (sample.trim() === '') {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  const delimiter = isTsv ? '\t' : sniffDelimiter(sample);
  const dialect: Dialect = { delimiter, quoteChar: isTsv ? tsvQuoteChar(sample, context.head.length >= HEAD_SAMPLE_BYTES) : '"' };
  if (dialect.quoteChar !== '"') report(context, 'info', 'Quotes are read as part of the text: a field that starts with a quote does not end with one before its tab, so this TSV does not quote its fields (as TSV need not).');
  const sampleRows = Papa.parse<string[]>(sample, dialect).data;
  // The 1-based line each non-blank row of the sample starts on.
  const headLines: number[] = [];
  const headRows: string[][] = [];
  let lineAt = 1;
  for (const row of sampleRows) {
    if (!isBlankRow(row)) {
      headRows.push(row);
      headLines.push(lineAt);
    }
    lineAt += 1 + row.reduce((n, field) => n + (field.indexOf('\n') === -1 ? 0 : countNewlines(field)), 0);
  }
  if (context.head.length >= HEAD_SAMPLE_BYTES) headRows.pop();
  // Lines before the one that names the columns (a title, notes, key–value lines, a line of group labels), read from the first 64 KiB.
  const layout = findHeaderLayout(headRows);
  const groupHeader = layout.groupHeader;
  const skipRows = layout.skip;

  // One streaming pass both infers types and inserts rows typed by a guess from the first 64 KiB. Only when the
  // whole file disagrees with the guess (a column turns out to be text after all, say) is the table rebuilt in a
  // second pass with the inferred types — so no rows are ever held in memory.
  const guess = guessColumns(layout.noHeader ? [new Array<string>(layout.width).fill(''), ...headRows.slice(skipRows)] : headRows.slice(skipRows));
  let inserter: RowSink | undefined;
  let columns: ColumnSpec[] = [];
  let tableName = '';
  let plan: ReturnType<typeof planTableParts> = { parts: [] };
  // Over SQLite's column limit the columns go to linked parts (see planTableParts).
  const partsFor = (all: ColumnSpec[]) => plan.parts.map((part, k) => ({ ...part, columns: plan.linkColumn ? [part.columns[0], ...all.slice(k * (MAX_TABLE_COLUMNS - 1), (k + 1) * (MAX_TABLE_COLUMNS - 1))] : all }));
  let guessHolds = true;
  const values: Array<string | number | null> = [];
  // A file with a title or notes before its table may end with a note after it (`Bron: CBS`).
  const footerWidth = layout.preamble > 0 ? layout.width : 0;
  const inference = await inferPass(context, dialect, skipRows, layout.noHeader ? layout.width : 0, footerWidth, {
    onHeader(header) {
      const fileName = context.file.split('/').pop() ?? context.file;
      columns = columnNamesFromHeaders(header).map((n, i) => {
        const group = groupHeader?.groupOf[i];
        const origin = group ? { origin: { file: context.file, group, label: `${fileName} › ${group} › ${n.originalName || n.name}` } } : {};
        return { ...n, ...(guess?.[i] ?? { type: 'text' }), ...origin };
      });
      tableName = context.names.allocate(tableBaseName(context));
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
  if (layout.preamble > 0) {
    const lines = headLines.slice(0, layout.preamble);
    const span = lines.length === 1 ? `Line ${lines[0]}` : `Lines ${lines[0]}–${lines[lines.length - 1]}`;
    const shown = headRows.slice(0, layout.preamble).slice(0, 4).map(preambleText).join('; ');
    const more = layout.preamble > 4 ? `; and ${layout.preamble - 4} more` : '';
    const after = layout.noHeader
      ? `no line names the columns, so they are named ${columns.map((c) => c.name).slice(0, 4).join(', ')}${columns.length > 4 ? ', …' : ''}; the data starts on line ${headLines[skipRows]}`
      : `the column names are read from line ${headLines[skipRows]}`;
    const what = layout.keyValue ? 'key–value notes, not column names' : 'a title or notes';
    report(context, 'info', `${span} ${layout.preamble === 1 ? 'comes' : 'come'} before the table (${what}): ${shown}${more}. Skipped; ${after}.`, lines[0]);
  }
  if (groupHeader) {
    const line = headLines[skipRows - 1];
    report(
      context,
      'info',
      `Line ${line} holds group labels over the column names (a two-line header); the column names are read from line ${headLines[skipRows]}. ` +
        `Groups: ${groupHeader.groups.map((g) => `${JSON.stringify(g.label)} (columns ${g.from + 1}–${g.to + 1})`).join(', ')}.`,
      line,
    );
  }
  const footer = inference.footer ?? [];
  if (footer.length > 0) {
    const span = footer.length === 1 ? `Line ${footer[0].line}` : `Lines ${footer[0].line}–${footer[footer.length - 1].line}`;
    report(context, 'info', `${span} ${footer.length === 1 ? 'comes' : 'come'} after the table (a note or source): ${footer.slice(0, 4).map((f) => preambleText(f.row)).join('; ')}. Not loaded.`, footer[0].line);
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
    columns = columns.map((c, i) => withSpec(c, inference.trackers[i]));
  } else {
    inserter.dispose();
    for (const part of plan.parts) context.db.run(`DROP TABLE ${quoteIdent(part.name)}`);
    columns = columns.map((c, i) => withSpec(c, inference.trackers[i]));
    if (keep) columns = keep.map((i) => columns[i]);
    plan = { ...plan, parts: partsFor(columns) };
    inserter = createTableParts(context.db, plan.parts, !!plan.linkColumn);
    const typed = inserter;
    try {
      await insertPass(context, dialect, skipRows, !!layout.noHeader, footerWidth, columns, (row) => typed.insert(row), keep);
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
  // (What comes before the table is kept as written: a legend there says what the columns are.)
  // (Line k of the file is preamble[k - 1]: blank lines are kept, as empty strings.)
  const preamble: string[] = [];
  for (let k = 0; k < layout.preamble; k++) {
    while (preamble.length < headLines[k] - 1) preamble.push('');
    preamble[headLines[k] - 1] = headRows[k].join(delimiter).trimEnd();
  }
  partsFor(columns).forEach((part, k) => context.tables.push({ name: part.name, originalName, sourceFile: context.file, kind: 'table', columns: part.columns, statistics: statistics[k], ...(droppedColumns ? { droppedColumns } : {}), ...(preamble.length > 0 ? { preamble } : {}) }));
}

/** The column as the whole file types it: what the guess from the first 64 KiB said (a layout, a unit) goes. */
function withSpec(column: ColumnSpec, tracker: ColumnTypeTracker): ColumnSpec {
  const { layout: _layout, layoutName: _layoutName, unit: _unit, ...rest } = column;
  return { ...rest, ...specOf(tracker) };
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
const filledCount = (row: readonly string[]) => row.reduce((n, cell) => (isEmptyCell(cell) ? n : n + 1), 0);
/** Fields up to the last filled one (trailing empty fields left out). */
const spanOf = (row: readonly string[]) => {
  let span = row.length;
  while (span > 0 && isEmptyCell(row[span - 1])) span--;
  return span;
};
const isTextCell = (cell: string) => {
  const tracker = new ColumnTypeTracker();
  tracker.addText(cell);
  return tracker.type === 'text';
};

/** The groups a line of labels puts over the first `span` columns: each label spans to the next one. */
function groupsOver(first: readonly string[], span: number, secondLength: number): GroupHeaderLine {
  const labelled: number[] = [];
  for (let c = 0; c < span; c++) if (!isEmptyCell(first[c])) labelled.push(c);
  const groups = labelled.map((from, k) => ({ label: first[from].trim(), from, to: (labelled[k + 1] ?? span) - 1 }));
  const groupOf: Array<string | undefined> = new Array(secondLength).fill(undefined);
  for (const group of groups) for (let c = group.from; c <= group.to; c++) groupOf[c] = group.label;
  return { groups, groupOf };
}

/** Where a CSV's table starts: how many non-blank lines come before the line that names the columns, and what they are. */
export interface HeaderLayout {
  /** Non-blank lines before the header (before the first data line when `noHeader`). */
  skip: number;
  /** Of those, the first `preamble` are a title or notes (the rest, at most one, is a line of group labels). */
  preamble: number;
  /** The preamble is key–value lines (`Country,Ireland`). */
  keyValue?: boolean;
  /** No line names the columns: every line after the preamble is data (the columns are named column_1, …). */
  noHeader?: boolean;
  /** The number of fields most lines have. */
  width: number;
  groupHeader?: GroupHeaderLine;
}

/** At most this many lines before the header are looked at (a title, a source, notes). */
const MAX_PREAMBLE_LINES = 30;

/**
 * Finds the line that names the columns among the first lines of a file (blank lines left out), generalising the
 * two-line header: spreadsheet and statistical-office exports put a title, a source, a timestamp or key–value notes
 * (`Source:,Eurostat`) before it, and sometimes a line of group labels right above it. The width of the table is the
 * number of fields most lines have; a line before the table is
 * - narrow: at most two cells filled, within fewer fields than the table's and at most half of them (or two), or
 * - sparse: at most one cell filled;
 * the header after them must name most columns, starting with a name (not a number). Lines without a delimiter are
 * titles; when a skipped line has one, the rows below must be typed (numbers, dates) where the header has names, as
 * a short header over ragged rows would not be. The last skipped line, when it labels columns further right
 * (`"";"";"";"Perioden"` over the years of a wide table), is a line of group labels. A two-column file whose first
 * two or more lines are all filled with text, over rows whose first column holds numbers or dates, starts with
 * key–value notes and has no header at all. Anything else is read from the first line, as before. Only the first
 * 64 KiB are looked at.
 */
export function findHeaderLayout(rows: readonly string[][]): HeaderLayout {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.length, (counts.get(row.length) ?? 0) + 1);
  let width = 0;
  let most = 0;
  for (const [length, n] of counts) if (n > most || (n === most && length > width)) [width, most] = [length, n];
  const none: HeaderLayout = { skip: 0, preamble: 0, width };
  if (rows.length < 3 || width < 2) {
    const group = findGroupHeaderLine(rows);
    return group ? { ...none, skip: 1, groupHeader: group } : none;
  }
  const narrow = (row: readonly string[]) => {
    const filled = spanOf(row);
    return filledCount(row) <= 2 && filled < width && filled <= Math.max(2, Math.floor(width / 2));
  };
  const sparse = (row: readonly string[]) => row.length <= width && filledCount(row) <= 1;
  let p = 0;
  while (p < rows.length - 2 && p < MAX_PREAMBLE_LINES && (narrow(rows[p]) || sparse(rows[p]))) p++;
  // A spreadsheet's line of group labels, as wide as the table, right above the header (after any title): the line
  // after the skipped ones, or the last of them.
  const group = findGroupHeaderLine(rows.slice(p));
  if (group) return { ...none, skip: p + 1, preamble: p, groupHeader: group };
  const lastGroup = p > 0 ? findGroupHeaderLine(rows.slice(p - 1)) : undefined;
  if (lastGroup) return { ...none, skip: p, preamble: p - 1, groupHeader: lastGroup };
  if (p > 0) {
    const header = rows[p];
    const firstName = header.find((cell) => !isEmptyCell(cell));
    const named = header.length >= width && filledCount(header) * 2 >= width && firstName !== undefined && isTextCell(firstName.trim());
    // The last skipped line labels columns further right (`"";"";"";"Perioden"`): group labels over the header.
    const above = rows[p - 1];
    const labelsRight = above.length >= 2 && above.findIndex((cell) => !isEmptyCell(cell)) > 0;
    const notes = rows.slice(0, labelsRight ? p - 1 : p);
    // Lines without a delimiter are titles; lines with one (notes, `Source:,Eurostat`) could be a short header over
    // ragged rows, so the rows must show it: typed where the header line has names.
    if (named && (!notes.some((row) => row.length >= 2) || bodyTypesDiffer(header, rows.slice(p + 1)))) {
      const groupHeader = labelsRight ? groupsOver(above, Math.min(header.length, width), header.length) : undefined;
      return { ...none, skip: p, preamble: notes.length, keyValue: notes.every(isKeyValue), groupHeader };
    }
  }
  // Key–value notes over a two-column table without a header.
  if (width === 2) {
    let k = 0;
    while (k < rows.length - 1 && k < MAX_PREAMBLE_LINES && rows[k].length === 2 && isKeyValue(rows[k])) k++;
    if (k >= 2) {
      const trackers = [new ColumnTypeTracker(), new ColumnTypeTracker()];
      for (const row of rows.slice(k)) row.slice(0, 2).forEach((cell, c) => trackers[c].addText(cell));
      if (trackers[0].type !== 'text' && trackers[0].nonEmptyCount > 0) return { ...none, skip: k, preamble: k, keyValue: true, noHeader: true };
    }
  }
  return none;
}

/** A line of a key and its value: two filled cells, first and second, the key a name (`Country,Ireland`). */
function isKeyValue(row: readonly string[]): boolean {
  return row.length >= 2 && !isEmptyCell(row[0]) && !isEmptyCell(row[1]) && filledCount(row) === 2 && isTextCell(row[0].trim());
}

/** Some column holds numbers or dates in the rows below where the header line has a name. */
function bodyTypesDiffer(header: readonly string[], body: readonly string[][]): boolean {
  const trackers = header.map(() => new ColumnTypeTracker());
  for (const row of body) for (let c = 0; c < trackers.length && c < row.length; c++) trackers[c].addText(row[c]);
  return trackers.some((t, c) => t.type !== 'text' && t.nonEmptyCount > 0 && !isEmptyCell(header[c]) && isTextCell(header[c].trim()));
}

/** A skipped line as the diagnostic quotes it: `key: value`, or its text, shortened. */
function preambleText(row: readonly string[]): string {
  const cells = row.map((c) => c.trim()).filter((c) => c !== '');
  const text = cells.length === 2 && !cells[0].endsWith(':') ? `${cells[0]}: ${cells[1]}` : cells.join(' ');
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text);
}

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
  return groupsOver(first, span, second.length);
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

/** A run of carriage returns before a line feed: `\r\r\n` is what a Windows text-mode write of `\r\n` leaves. */
const CR_RUN = /\r+\n/g;

/**
 * Whether most line ends of the head are `\r\r\n` (two or more carriage returns, then a line feed). Papaparse knows
 * `\n`, `\r` and `\r\n` only: it would read the `\r` as the line end and start every row with a stray `\n`, so
 * a quoted first field (`"Caring, Leisure…"`) would be split on its comma and every column after it shifted.
 */
function carriageReturnRuns(head: string): boolean {
  const doubled = head.match(/\r\r+\n/g)?.length ?? 0;
  if (doubled === 0) return false;
  const lineFeeds = head.match(/\n/g)?.length ?? 0;
  return doubled * 2 >= lineFeeds;
}

/**
 * Whether the first line ends in `\r\n` while most lines of the head end in a bare `\n` (a header written on Windows
 * over rows appended elsewhere: the City of Toronto's procurement files). Papaparse takes the line end of the first
 * line for all of them: every row would run into the next, the file read as one row.
 */
function mixedLineEnds(head: string): boolean {
  const firstEnd = head.indexOf('\n');
  if (firstEnd < 1 || head[firstEnd - 1] !== '\r') return false;
  const crlf = head.match(/\r\n/g)?.length ?? 0;
  const lineFeeds = head.match(/\n/g)?.length ?? 0;
  return lineFeeds - crlf > 2 * crlf;
}

/** Whether the line ends must be rewritten before papaparse reads the file (see carriageReturnRuns and mixedLineEnds). */
function unevenLineEnds(head: string): boolean {
  return carriageReturnRuns(head) || mixedLineEnds(head);
}

/** Rewrites each run of carriage returns before a line feed as one `\n`; a run cut at a chunk's end waits for the next chunk. */
function lineEndNormalizer(): Transform {
  let held = '';
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer | string, _encoding, done) {
      let text = held + chunk.toString();
      const tail = /\r+$/.exec(text);
      held = tail ? tail[0] : '';
      if (tail) text = text.slice(0, tail.index);
      done(null, text.replace(CR_RUN, '\n'));
    },
    flush(done) {
      done(null, held);
    },
  });
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * The candidate delimiter that splits the first lines into the most fields most consistently: the number of fields
 * most lines have (not the first line's, which may be a title), the share of lines that have it, then the number.
 */
export function sniffDelimiter(sample: string): string {
  let best = ',';
  let bestScore = 0;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const parsed = Papa.parse<string[]>(sample, { delimiter, preview: 40 });
    const rows = parsed.data.filter((row) => !(row.length === 1 && row[0].trim() === ''));
    // A sample cut mid-row can end in a short last row; don't let it count against consistency.
    if (rows.length > 1 && sample.length >= 65536) rows.pop();
    if (rows.length === 0) continue;
    const counts = new Map<number, number>();
    for (const row of rows) counts.set(row.length, (counts.get(row.length) ?? 0) + 1);
    let fieldCount = 0;
    let most = 0;
    for (const [length, n] of counts) if (length >= 2 && (n > most || (n === most && length > fieldCount))) [fieldCount, most] = [length, n];
    if (fieldCount < 2) continue;
    const consistent = most / rows.length;
    const score = consistent * 1000 + Math.min(fieldCount, 999);
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
  /** Narrow lines after the last row of the table (a source, a note), not loaded. */
  footer?: Array<{ row: string[]; line: number }>;
}

/**
 * TSV (IANA) has no quoting, though many writers quote fields that hold a tab or a line break. Quotes are read as
 * quoting unless that breaks the sample's rows: a field that starts with a quote and goes on after its closing one
 * (`"Study Protocol", https://…`), read as quoted, swallows the tabs and lines after it, while read as text every row
 * has the header's width. (The last row of a cut sample may end inside a quoted field and is not judged.)
 */
function tsvQuoteChar(sample: string, cut: boolean): string {
  const quoted = Papa.parse<string[]>(sample, { delimiter: '\t' });
  const judged = (rows: number) => (cut ? rows - 1 : rows);
  const lastJudged = judged(quoted.data.length);
  if (!quoted.errors.some((e) => e.type === 'Quotes' && (e.row === undefined || e.row < lastJudged))) return '"';
  const literal = Papa.parse<string[]>(sample, { delimiter: '\t', quoteChar: NO_QUOTE });
  return widthAgreement(literal.data.slice(0, judged(literal.data.length))) > widthAgreement(quoted.data.slice(0, lastJudged)) ? NO_QUOTE : '"';
}

/** The share of non-blank rows as wide as the first (the header). */
function widthAgreement(rows: readonly string[][]): number {
  const filled = rows.filter((row) => !isBlankRow(row));
  if (filled.length === 0) return 0;
  const width = filled[0].length;
  return filled.filter((row) => row.length === width).length / filled.length;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Streams the file through papaparse; `onRows` gets each chunk's rows with the 1-based line each row starts on. */
function streamRows(
  context: LoaderContext,
  dialect: Dialect,
  onRows: (rows: string[][], startLines: Int32Array, errors: Papa.ParseError[]) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    context.signal?.throwIfAborted();
    // 64 KiB chunks: each chunk's rows (arrays and field strings) die young, in V8's young generation. With 1 MiB
    // chunks about 14k rows were alive at once, outlived the young generation and made the old one churn; on a
    // 1M-row CSV that cost about 40% of the load's CPU time (16 KiB and 256 KiB were slower too).
    const text = createTextReadStream(context.absolutePath, context.encoding ?? 'utf-8', STREAM_CHUNK_BYTES);
    let stream = text as fs.ReadStream;
    if (unevenLineEnds(stripBom(decodeHead(context.head, context.encoding ?? 'utf-8')))) {
      const normalized = text.pipe(lineEndNormalizer());
      normalized.setEncoding('utf8');
      normalized.on('close', () => (text as fs.ReadStream).destroy());
      stream = normalized as unknown as fs.ReadStream;
    }
    let line = 1;
    let failure: unknown;
    Papa.parse<string[]>(stream as unknown as File, {
      ...dialect,
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
async function inferPass(context: LoaderContext, dialect: Dialect, skipRows: number, noHeaderWidth: number, footerWidth: number, hooks: InferHooks): Promise<Inference> {
  const inference: Inference = {
    trackers: [],
    raggedCount: 0,
    raggedLines: [],
    unterminatedQuoteLines: [],
    malformedQuoteCount: 0,
    malformedQuoteLines: [],
  };
  let skipped = 0;
  const footer: Array<{ row: string[]; line: number }> = [];
  const addRow = (row: string[], line: number) => {
    const trackers = inference.trackers;
    const columnCount = trackers.length;
    if (row.length !== columnCount) {
      inference.raggedCount++;
      if (inference.raggedLines.length < 10) inference.raggedLines.push(line);
    }
    const n = Math.min(row.length, columnCount);
    for (let c = 0; c < n; c++) trackers[c].addText(row[c]);
    hooks.onRow(row);
  };
  await streamRows(context, dialect, (rows, startLines, errors) => {
    const trackers = inference.trackers;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      if (isBlankRow(row)) continue;
      if (skipped < skipRows) {
        skipped++;
        continue;
      }
      if (!inference.header) {
        // Without a header line the columns are unnamed (column_1, …) and this row is data.
        const header = noHeaderWidth > 0 ? new Array<string>(noHeaderWidth).fill('') : row.slice();
        header[0] = stripBom(header[0]);
        inference.header = header;
        for (let c = 0; c < header.length; c++) trackers.push(new ColumnTypeTracker());
        hooks.onHeader(header);
        if (noHeaderWidth === 0) continue;
      }
      // After a preamble, narrow lines are held back until a row of the table follows them: at the end they are a footer.
      if (footerWidth > 0 && isNarrowRow(row, footerWidth)) {
        footer.push({ row, line: startLines[r] });
        continue;
      }
      for (const held of footer) addRow(held.row, held.line);
      footer.length = 0;
      addRow(row, startLines[r]);
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
  inference.footer = footer;
  return inference;
}

/** A line of at most two filled cells and fewer than half the table's fields: a title, a note, a source (`Bron: CBS`). */
function isNarrowRow(row: readonly string[], width: number): boolean {
  return row.length <= Math.max(1, Math.floor(width / 2)) && filledCount(row) <= 2;
}

async function insertPass(
  context: LoaderContext,
  dialect: Dialect,
  skipRows: number,
  noHeader: boolean,
  footerWidth: number,
  columns: ColumnSpec[],
  insert: (values: Array<string | number | null>) => void,
  /** The file's field for each column, where some fields are left out. */
  fields?: readonly number[],
): Promise<void> {
  let headerSeen = noHeader;
  let skipped = 0;
  const columnCount = columns.length;
  const types = columns.map((c) => c.type);
  const layouts = columns.map((c) => c.layout);
  const values: Array<string | number | null> = new Array(columnCount);
  // Narrow lines wait for a row of the table after them, as in the first pass: a footer is never inserted.
  const held: string[][] = [];
  const add = (row: string[]) => {
    if (fields) for (let c = 0; c < columnCount; c++) values[c] = textCellToSql(row[fields[c]], types[c], layouts[c]);
    else for (let c = 0; c < columnCount; c++) values[c] = textCellToSql(row[c], types[c], layouts[c]);
    insert(values);
  };
  await streamRows(context, dialect, (rows) => {
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
      if (footerWidth > 0 && isNarrowRow(row, footerWidth)) {
        held.push(row);
        continue;
      }
      for (const h of held) add(h);
      held.length = 0;
      add(row);
    }
  });
}
