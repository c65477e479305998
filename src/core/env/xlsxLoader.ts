import ExcelJS from 'exceljs';
import { positions, report, tableBaseName, type LoaderContext } from './loaderContext';
import { columnNamesFromHeaders, stackedTableName, toSnakeIdentifier } from './naming';
import { createTable, type ColumnSpec } from './tableWriter';
import { ColumnTypeTracker, jsonCellToSql } from './typeInference';
import { reportDateLayouts, specOf } from './dateDiagnostics';
import { checkZipInflation, XLSX_INFLATION_LIMITS } from './zipInflation';
import { hasUnconventionalPrefixes, packageWithConventionalPrefixes } from './xlsxNamespaces';

/**
 * Loads an .xlsx workbook: each non-empty worksheet becomes one table. Blank leading rows and a one-value title
 * row are skipped, the header row is detected, a header with merged group cells ("Q1" over two columns) is read
 * as two rows and joined ("Q1 Revenue"), formula cells take their cached values, and dates are stored as ISO text.
 * Each column keeps its origin (workbook › sheet › column, header and data cells) for rubric anchors.
 */

/** An encrypted (password-protected) .xlsx, like a legacy .xls, is an OLE compound file, not a zip. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

type Scalar = string | number | boolean | null;

interface CellRead {
  value: Scalar;
  /** A formula whose cached result is missing (the workbook was saved without calculating). */
  uncachedFormula?: boolean;
  /** An error value such as #DIV/0!. */
  error?: string;
}

export function isEncryptedOfficeFile(head: Buffer): boolean {
  if (head.length < 8 || !head.subarray(0, 8).equals(OLE_MAGIC)) return false;
  // The OLE directory names its streams in UTF-16LE; an encrypted OOXML package has "EncryptedPackage".
  return head.includes(Buffer.from('EncryptedPackage', 'utf16le')) || head.includes(Buffer.from('EncryptionInfo', 'utf16le'));
}

/** 1-based column number → spreadsheet letters (1 → A, 28 → AB). */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function lettersToColumn(letters: string): number {
  let column = 0;
  for (const ch of letters.toUpperCase()) column = column * 26 + (ch.charCodeAt(0) - 64);
  return column;
}

interface MergeRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** "B2:D3" → rows/columns, 1-based; undefined for anything else. */
function parseRange(range: string): MergeRange | undefined {
  const match = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i.exec(range.trim());
  if (!match) return undefined;
  const left = lettersToColumn(match[1]);
  const top = Number(match[2]);
  const right = match[3] ? lettersToColumn(match[3]) : left;
  const bottom = match[4] ? Number(match[4]) : top;
  return { top: Math.min(top, bottom), left: Math.min(left, right), bottom: Math.max(top, bottom), right: Math.max(left, right) };
}

/**
 * A date as ISO text: `YYYY-MM-DD` at midnight, else `YYYY-MM-DDTHH:MM:SS` (Excel dates carry no zone). A time with
 * no date (a cell formatted `h:mm AM/PM` holds a fraction of a day, which reads as a time on 30 December 1899, Excel's
 * day zero) is the time of day it shows: `HH:MM:SS`.
 */
export function isoFromExcelDate(date: Date): string | null {
  const time = date.getTime();
  if (!Number.isFinite(time)) return null;
  const iso = date.toISOString();
  if (iso.startsWith('1899-12-30T')) return iso.slice(11, 19);
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}

function scalarOf(value: unknown): CellRead {
  if (value === null || value === undefined) return { value: null };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { value };
  if (value instanceof Date) return { value: isoFromExcelDate(value) };
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('error' in object) return { value: null, error: String(object.error) };
    if ('formula' in object || 'sharedFormula' in object) {
      if (object.result === undefined || object.result === null) return { value: null, uncachedFormula: true };
      return scalarOf(object.result);
    }
    if (Array.isArray(object.richText)) return { value: (object.richText as Array<{ text?: string }>).map((r) => r.text ?? '').join('') };
    if ('text' in object) return scalarOf(object.text);
  }
  return { value: String(value) };
}

function isBlank(value: Scalar): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

function textOf(value: Scalar): string {
  return value === null ? '' : String(value).trim();
}

/** The cells of one sheet as a dense grid (merged areas filled with their master value), plus its merges. */
interface SheetGrid {
  name: string;
  rows: CellRead[][];
  /** Row and column numbers (1-based) of grid cell [0][0]. */
  firstRow: number;
  firstColumn: number;
  merges: MergeRange[];
}

function readGrid(worksheet: ExcelJS.Worksheet): SheetGrid | undefined {
  const dimensions = worksheet.dimensions as unknown as MergeRange | undefined;
  if (!dimensions || !dimensions.bottom || !dimensions.right || worksheet.actualRowCount === 0) return undefined;
  const merges = (worksheet.model.merges ?? []).map(parseRange).filter((m): m is MergeRange => m !== undefined);
  const firstRow = Math.max(1, dimensions.top);
  const firstColumn = Math.max(1, dimensions.left);
  // The sheet's dimensions count cells that are only styled, or covered by a merge (a title merged across the whole
  // row, A3:XFD3): the grid ends at the last column holding a value, a formula or an error of its own.
  let right = firstColumn;
  worksheet.eachRow({ includeEmpty: false }, (row) => {
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      if (column <= right || (cell.isMerged && cell.master !== cell)) return;
      const read = scalarOf(cell.value);
      if ((read.value !== null && read.value !== '') || read.error || read.uncachedFormula) right = column;
    });
  });
  right = Math.min(right, dimensions.right);
  const rows: CellRead[][] = [];
  for (let r = firstRow; r <= dimensions.bottom; r++) {
    const row = worksheet.getRow(r);
    const cells: CellRead[] = [];
    for (let c = firstColumn; c <= right; c++) cells.push(scalarOf(row.getCell(c).value));
    rows.push(cells);
  }
  // Merged areas hold their value in the top-left cell; every covered cell gets it, so headers read as groups.
  for (const merge of merges) {
    const master = rows[merge.top - firstRow]?.[merge.left - firstColumn];
    if (!master) continue;
    for (let r = merge.top; r <= merge.bottom; r++) {
      for (let c = merge.left; c <= merge.right; c++) {
        const row = rows[r - firstRow];
        if (row && c - firstColumn < row.length && (r !== merge.top || c !== merge.left)) row[c - firstColumn] = { value: master.value };
      }
    }
  }
  return { name: worksheet.name, rows, firstRow, firstColumn, merges };
}

function nonBlankCount(row: CellRead[]): number {
  let count = 0;
  for (const cell of row) if (!isBlank(cell.value)) count++;
  return count;
}

function distinctValues(row: CellRead[]): Set<string> {
  const values = new Set<string>();
  for (const cell of row) if (!isBlank(cell.value)) values.add(textOf(cell.value));
  return values;
}

/** Index of the first row at or after `from` with any value, or -1. */
function nextNonBlankRow(rows: CellRead[][], from: number): number {
  for (let r = from; r < rows.length; r++) if (nonBlankCount(rows[r]) > 0) return r;
  return -1;
}

interface HeaderBlock {
  /** Grid row indexes of the header rows (one, or more when merged group cells sit above the column names; none when the sheet has no header row). */
  rows: number[];
  /** The sheet has no header: its first row is data (`headerless`), the body starts there. */
  headerless?: number;
  /** Caption rows skipped above the header (a title like "Sales 2024"). */
  captions: string[];
  /** The first header row labels groups without merged cells: each label spans the blank cells to its right. */
  groupsUnmerged?: boolean;
}

/** Rows of column notes under a header, at most (ABS series sheets have nine). */
const MAX_NOTE_ROWS = 12;

/**
 * Grid indexes of the rows of column notes that open the body (`Unit | 000 Hours | …`, `Series Start | 1984-12-01 |
 * …`, `No. Obs | 148 | …`): two or more rows labelled in their first cell by words, above a body of at least five rows
 * whose first cell is a date or a number and whose other cells are mostly numbers. None for a table labelled by
 * words all the way down (countries and their figures), which has no such body.
 */
function columnNoteRows(rows: CellRead[][], from: number): number[] {
  const filled = (row: CellRead[]) => row.slice(1).filter((c) => !isBlank(c.value));
  const keyed = (row: CellRead[]) => {
    const first = row[0]?.value;
    return typeof first === 'number' || (typeof first === 'string' && /^\d{4}(-\d{2}){0,2}([T ]|$)/.test(first.trim()));
  };
  const notes: number[] = [];
  let r = from;
  for (; r < rows.length; r++) {
    const row = rows[r];
    if (nonBlankCount(row) === 0) continue;
    if (keyed(row)) break;
    const label = row[0]?.value;
    if (typeof label !== 'string' || label.trim() === '' || filled(row).length === 0 || notes.length >= MAX_NOTE_ROWS) return [];
    notes.push(r);
  }
  if (notes.length < 2) return [];
  const body = rows.slice(r).filter((row) => nonBlankCount(row) > 0);
  const numeric = body.filter((row) => {
    const others = filled(row);
    return keyed(row) && others.length > 0 && others.filter((c) => typeof c.value === 'number').length >= 0.5 * others.length;
  });
  return body.length >= 5 && numeric.length >= 0.8 * body.length ? notes : [];
}

/** Caption lines above a sheet's table, at most (a title block, not a list of one-value rows). */
const MAX_CAPTION_LINES = 8;

/**
 * Finds the header: skips blank rows and one-value caption rows (when the table below is wider), then takes the
 * first row; when merged cells in it span several columns, the rows down to the bottom of those merges (at least
 * one more) are header rows too.
 */
function findHeader(grid: SheetGrid, width: number): HeaderBlock | undefined {
  const captions: string[] = [];
  let r = nextNonBlankRow(grid.rows, 0);
  // A block of notes longer than a title (the Global Carbon Budget's units, methods and citations, one per row, 18
  // rows) above a wide row of names with figures under it: the notes are the table's preamble, that row its header.
  const notes = notesAbove(grid.rows, r);
  if (notes) {
    captions.push(...notes.texts);
    r = notes.header;
  }
  while (r !== -1) {
    const next = nextNonBlankRow(grid.rows, r + 1);
    const values = distinctValues(grid.rows[r]);
    // A caption block may be several lines (a title, a place, a base period), each one value, over a wider table.
    let below = next;
    while (below !== -1 && below - r <= MAX_CAPTION_LINES && distinctValues(grid.rows[below]).size <= 1) below = nextNonBlankRow(grid.rows, below + 1);
    if (width > 1 && values.size === 1 && next !== -1 && below !== -1 && below - r <= MAX_CAPTION_LINES) {
      captions.push([...values][0]);
      r = next;
      continue;
    }
    // A note over the table in a cell or two, often merged across it (BITRE's "More detailed information on flights
    // and seats by route and city pairs can be found at" beside the page's address): a caption, not a group of columns.
    const note = noteRow(grid.rows[r]);
    if (note && next !== -1 && nonBlankCount(grid.rows[next]) >= 3 && nonBlankCount(grid.rows[next]) > nonBlankCount(grid.rows[r])) {
      captions.push(note);
      r = next;
      continue;
    }
    const numbered = numberedTitle(grid.rows[r]);
    if (numbered && widerRowWithin(grid.rows, r + 1, 3)) {
      captions.push(numbered);
      r = next;
      continue;
    }
    break;
  }
  if (r === -1) return undefined;
  if (dataRowFirst(grid.rows, r)) return { rows: [], captions, headerless: r };
  const names = namesUnderGroups(grid.rows, r);
  if (names !== -1) return { rows: [r, names], captions, groupsUnmerged: true };
  const rows = [r];
  for (;;) {
    const last = rows[rows.length - 1];
    const sheetRow = grid.firstRow + last;
    const groupMerges = grid.merges.filter((m) => m.top === sheetRow && m.right > m.left);
    if (groupMerges.length === 0) break;
    const bottom = Math.max(sheetRow + 1, ...groupMerges.map((m) => m.bottom + 1)) - grid.firstRow;
    if (bottom >= grid.rows.length) break;
    for (let extra = last + 1; extra <= bottom; extra++) rows.push(extra);
    if (rows.length >= 4) break; // deeper than that is a layout, not a header
  }
  rows.push(...labelRowsBelow(grid.rows, rows[rows.length - 1], rows.length));
  return { rows, captions };
}

/**
 * A row of group labels written without merged cells over the columns' names (the World Bank's LPI sheets: "Customs"
 * over `score` and `rank`, each label in the first column of its group, the cells to its right left blank; a blank row
 * between): the row of names under `r`, or -1. The names' row is text only, fills every column the labels' row fills
 * and more (the groups' other columns, and a stub on the left with no group), and figures follow it.
 */
function namesUnderGroups(rows: CellRead[][], r: number): number {
  const filled = (row: CellRead[]) => row.map((cell, c) => (isBlank(cell?.value ?? null) ? -1 : c)).filter((c) => c >= 0);
  const numbers = (row: CellRead[]) => row.filter((cell) => typeof cell?.value === 'number').length;
  const labels = filled(rows[r]);
  const below = nextNonBlankRow(rows, r + 1);
  if (labels.length < 2 || numbers(rows[r]) > 0 || below === -1 || below - r > 2) return -1;
  const names = filled(rows[below]);
  if (numbers(rows[below]) > 0 || names.length < labels.length + 2 || !labels.every((c) => names.includes(c))) return -1;
  // The groups span: columns named under the labels' row, right of its first label, that it leaves blank.
  const spanned = names.filter((c) => c > labels[0] && !labels.includes(c)).length;
  const data = nextNonBlankRow(rows, below + 1);
  return spanned >= 2 && data !== -1 && numbers(rows[data]) >= 2 ? below : -1;
}

/** Rows of notes above a table, at most, that the header is looked for under. */
const MAX_NOTES_ABOVE = 60;

/**
 * Notes above a table: more rows than a caption block (MAX_CAPTION_LINES), each with one or two cells filled (a note,
 * a citation indented one column), then a row of three or more names with a row of three or more figures (numbers,
 * or numbers written as text) right under it. The notes' texts and the header row, or none.
 */
function notesAbove(rows: CellRead[][], first: number): { texts: string[]; header: number } | undefined {
  if (first === -1) return undefined;
  const filled = (row: CellRead[]) => row.filter((cell) => !isBlank(cell?.value ?? null));
  const figure = (cell: CellRead) => typeof cell?.value === 'number' || /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(textOf(cell?.value ?? null).trim());
  const texts: string[] = [];
  let noteRows = 0;
  for (let r = first; r !== -1 && r < MAX_NOTES_ABOVE; r = nextNonBlankRow(rows, r + 1)) {
    const cells = filled(rows[r]);
    if (cells.length <= 2) {
      if (cells.some(figure)) return undefined;
      texts.push(cells.map((cell) => textOf(cell.value)).join(' '));
      noteRows++;
      continue;
    }
    const next = nextNonBlankRow(rows, r + 1);
    const named = cells.filter((cell) => !figure(cell)).length;
    if (noteRows <= MAX_CAPTION_LINES || named < 3 || next === -1 || filled(rows[next]).filter(figure).length < 3) return undefined;
    return { texts, header: r };
  }
  return undefined;
}

/** Header rows at most, all told: deeper than that is a layout, not a header. */
const MAX_HEADER_ROWS = 6;

/**
 * A numbered table's title written in two cells (`1 | Overseas residents' visits to the UK by month.`, `Table 5 |
 * Earnings …`): a table number, then a title of three or more words, and nothing else in the row. The title, or none.
 */
function numberedTitle(row: CellRead[]): string | undefined {
  const filled = row.map((cell) => textOf(cell.value)).filter((text) => text !== '');
  if (filled.length !== 2 || !(textOf(row[0]?.value ?? null) === filled[0])) return undefined;
  if (!/^(table|figure|chart)?\s*\d{1,3}[a-z]?[.:]?$/i.test(filled[0]) || !/^\S+(\s+\S+){2,}/.test(filled[1])) return undefined;
  return `${filled[0]} ${filled[1]}`;
}

/**
 * A row of one to three filled cells, each a sentence (six words or more) or a web address: a note above a table. Its
 * text, or none.
 */
function noteRow(row: CellRead[]): string | undefined {
  const texts = row.map((cell) => textOf(cell?.value ?? null).trim()).filter((text) => text !== '');
  if (texts.length === 0 || texts.length > 3) return undefined;
  const sentence = (text: string) => text.split(/\s+/).length >= 6 && /[a-z]/.test(text);
  const address = (text: string) => /^(https?:\/\/|www\.)\S+$/i.test(text);
  return texts.every((text) => sentence(text) || address(text)) && texts.some(sentence) ? texts.join(' ') : undefined;
}

/** Whether a row with at least `cells` filled cells lies within a caption block's reach below `from`. */
function widerRowWithin(rows: CellRead[][], from: number, cells: number): boolean {
  for (let r = from; r < rows.length && r < from + MAX_CAPTION_LINES; r++) if (nonBlankCount(rows[r]) >= cells) return true;
  return false;
}

/**
 * The header rows a statistics office stacks under the merged groups over its figures (ONS: "Area of residence" over
 * "North America" over "NSA", then the months): the rows under the header found so far, down to the first row of
 * figures, when each is labels only (text, no number) over columns of figures and leaves blank the stub on the left
 * that the rows of figures fill (the year and the month). A table whose first row of data is text (a name, a place)
 * fills its first column, so none of its rows is taken.
 */
function labelRowsBelow(rows: CellRead[][], last: number, headerRows: number): number[] {
  const stubOf = (row: CellRead[]) => row.findIndex((cell) => !isBlank(cell.value));
  const numbers = (row: CellRead[]) => row.filter((cell) => typeof cell.value === 'number').length;
  const labels: number[] = [];
  let r = nextNonBlankRow(rows, last + 1);
  while (r !== -1 && headerRows + labels.length < MAX_HEADER_ROWS) {
    const row = rows[r];
    if (numbers(row) > 0) break;
    labels.push(r);
    r = nextNonBlankRow(rows, r + 1);
  }
  if (labels.length === 0 || r === -1) return [];
  // The first row of figures: numbers in most of its filled cells, its stub filled where every label row's is blank.
  const data = rows[r];
  const filled = nonBlankCount(data);
  if (numbers(data) < 2 || numbers(data) < 0.5 * filled) return [];
  const stub = stubOf(data);
  return labels.every((l) => stubOf(rows[l]) > stub) ? labels : [];
}

/** A code (`10`, `60a`) or a number: what a lookup's key column holds, and no column's name. */
const CODE_CELL = /^\d{1,6}[a-z]?$/i;
/** A sentence of three or more words that ends in a full stop: a description, and no column's name. */
const SENTENCE_CELL = /^\S+(\s+\S+){2,}\.$/s;
/** Prose: two or more words. */
const PROSE_CELL = /^\S+(\s+\S+)+/;

const isYear = (n: number) => Number.isInteger(n) && n >= 1800 && n <= 2100;

/**
 * Whether the first row of a sheet is data, not a header (a lookup sheet saved without one: `10 | Manglende verdi,
 * ukjent innhold.` over `20 | Vurdert verdi.`): every filled cell of it is a code or number (not a year, which heads
 * many columns) or a sentence ending in a full stop, at least one a code, and in each column most cells below are of
 * the same kind (codes or numbers; prose). Read as a header, that row's code would be lost from the data and become a
 * column's name.
 */
function dataRowFirst(rows: CellRead[][], first: number): boolean {
  const code = (value: Scalar) => (typeof value === 'number' ? !isYear(value) : typeof value === 'string' && CODE_CELL.test(value.trim()) && !isYear(Number(value.trim())));
  const prose = (value: Scalar) => typeof value === 'string' && PROSE_CELL.test(value.trim());
  const body = rows.slice(first + 1, first + 51).filter((row) => nonBlankCount(row) > 0);
  if (body.length < 3) return false;
  const cells = rows[first].map((cell, c) => ({ c, value: cell.value })).filter(({ value }) => !isBlank(value));
  if (cells.length < 2) return false;
  let codes = 0;
  for (const { c, value } of cells) {
    const isCode = code(value);
    if (!isCode && !(typeof value === 'string' && SENTENCE_CELL.test(value.trim()))) return false;
    if (isCode) codes++;
    const below = body.map((row) => row[c]?.value ?? null).filter((v) => !isBlank(v));
    if (below.length < 3 || below.filter((v) => (isCode ? code(v) : prose(v))).length < 0.8 * below.length) return false;
  }
  return codes > 0;
}

/** A header cell that is a note, not a name: a paragraph ("Notes: 1. Submitting providers choose on which day …"). */
const NOTE_CELL = (text: string) => text.length > 240 || /^(notes?|footnotes?|source)\s*:/i.test(text);

/**
 * Header text per column: the header rows' values joined top to bottom, repeats (from vertical merges) once. A note
 * merged over the top of the header (NHS England's weekly series: a paragraph over its first four columns) is no part
 * of a column's name, where the column has a name below it.
 */
function headerNames(grid: SheetGrid, header: HeaderBlock, width: number): string[] {
  const names: string[] = [];
  for (let c = 0; c < width; c++) {
    const parts: string[] = [];
    for (const r of header.rows) {
      let text = textOf(grid.rows[r][c]?.value ?? null);
      // An unmerged group label spans the blank cells to its right (a group "overall LPI score" over its `score`,
      // `lower bound` and `upper bound`); a name that only repeats the label's last words adds nothing to it.
      if (header.groupsUnmerged && r === header.rows[0] && !text) for (let left = c - 1; left >= 0 && !text; left--) text = textOf(grid.rows[r][left]?.value ?? null);
      if (header.groupsUnmerged && parts.length > 0 && parts[parts.length - 1].toLowerCase().endsWith(` ${text.toLowerCase()}`)) continue;
      if (text && parts[parts.length - 1] !== text) parts.push(text);
    }
    const named = parts.filter((p) => !NOTE_CELL(p));
    names.push((named.length > 0 ? named : parts).join(' '));
  }
  return names;
}

function sheetTableName(context: LoaderContext, sheet: string, sheetCount: number): string {
  const base = tableBaseName(context);
  return sheetCount === 1 ? base : `${base}_${toSnakeIdentifier(sheet, 'sheet')}`;
}

async function readWorkbook(context: LoaderContext): Promise<ExcelJS.Workbook | undefined> {
  const head = context.head;
  if (isEncryptedOfficeFile(head)) {
    report(context, 'error', 'The workbook is encrypted (password-protected); it cannot be read. Save an unprotected copy to load it.');
    return undefined;
  }
  if (head.length >= 8 && head.subarray(0, 8).equals(OLE_MAGIC)) {
    report(context, 'error', 'This is a legacy binary Excel file (.xls format), not .xlsx; save it as .xlsx to load it.');
    return undefined;
  }
  if (head.length < 4 || !head.subarray(0, 4).equals(ZIP_MAGIC)) {
    report(context, 'error', 'Not an .xlsx workbook (the file is not a zip package).');
    return undefined;
  }
  const inflation = await checkZipInflation(context.absolutePath, XLSX_INFLATION_LIMITS, { headBytes: 2048, headsOf: /\.(xml|rels)$/i });
  if (!inflation.ok) {
    report(context, 'error', `The workbook is not read: ${inflation.reason}.`);
    return undefined;
  }
  // Parts that name the OOXML namespaces under other prefixes (`ns0:`, `s:`) are rewritten as Excel writes them.
  const prefixed = [...(inflation.heads ?? [])].filter(([, head]) => hasUnconventionalPrefixes(head)).map(([part]) => part);
  const workbook = new ExcelJS.Workbook();
  try {
    if (prefixed.length === 0) {
      await workbook.xlsx.readFile(context.absolutePath);
    } else {
      await workbook.xlsx.load((await packageWithConventionalPrefixes(context.absolutePath, prefixed)) as unknown as ExcelJS.Buffer);
      report(
        context,
        'info',
        `${prefixed.length} part(s) of the workbook name the spreadsheet namespaces under other prefixes than Excel's ` +
          `(${prefixed.join(', ')}); read with Excel's prefixes.`,
      );
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    report(context, 'error', `Cannot read the workbook (truncated or corrupt .xlsx): ${message}`);
    return undefined;
  }
  return workbook;
}

export async function loadXlsx(context: LoaderContext): Promise<void> {
  if (context.sizeBytes === 0) {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  const workbook = await readWorkbook(context);
  if (!workbook) return;
  context.signal?.throwIfAborted();
  const workbookName = context.file.split('/').pop() ?? context.file;
  const sheets = workbook.worksheets;
  if (sheets.length === 0) {
    report(context, 'warning', 'The workbook has no worksheets.');
    return;
  }
  for (const worksheet of sheets) {
    context.signal?.throwIfAborted();
    const grid = readGrid(worksheet);
    if (!grid) {
      report(context, 'info', `Sheet '${worksheet.name}' is empty; skipped.`);
      continue;
    }
    const hidden = worksheet.state === 'hidden' || worksheet.state === 'veryHidden';
    const tables = excelTables(worksheet);
    // (Only where the Excel tables hold most of what the sheet has: a small table beside a larger block of data that is
    // no table leaves the sheet to be read as a whole.)
    if (tables.length > 0 && coveredShare(grid, tables) >= 0.5) {
      tables.forEach((table, k) => loadExcelTable(context, grid, table, workbookName, sheets.length, hidden, tables.filter((other) => other !== table), k === 0));
      continue;
    }
    loadSheet(context, grid, workbookName, sheets.length, hidden);
  }
}

/** An Excel table (a ListObject: Insert › Table) as the workbook defines it: its name, its range and its columns' names. */
interface ExcelTable {
  name: string;
  range: MergeRange;
  columns: string[];
  totalsRow: boolean;
}

/** The Excel tables a sheet defines, whose ranges can be read (one column name per column of the range). */
function excelTables(worksheet: ExcelJS.Worksheet): ExcelTable[] {
  const found: ExcelTable[] = [];
  let defined: ReturnType<ExcelJS.Worksheet['getTables']> = [];
  try {
    defined = worksheet.getTables();
  } catch {
    return [];
  }
  for (const entry of defined) {
    const table = (entry as unknown as { table?: { name?: string; displayName?: string; tableRef?: string; ref?: string; totalsRow?: boolean; columns?: Array<{ name?: string }> } }).table;
    const range = parseRange(table?.tableRef ?? table?.ref ?? '');
    // (A name keeps its line breaks and other control characters escaped as OOXML writes them: `Cigarettes _x000A_(million sticks)`.)
    const columns = (table?.columns ?? []).map((c) => String(c.name ?? '').replace(/_x([0-9a-f]{4})_/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).trim());
    if (!table || !range || columns.length !== range.right - range.left + 1 || range.bottom <= range.top) continue;
    found.push({ name: table.displayName ?? table.name ?? `Table${found.length + 1}`, range, columns, totalsRow: table.totalsRow === true });
  }
  return found;
}

/** The share of a sheet's filled cells that lie inside its Excel tables. */
function coveredShare(grid: SheetGrid, tables: readonly ExcelTable[]): number {
  let filled = 0;
  let inside = 0;
  grid.rows.forEach((row, i) => {
    const r = grid.firstRow + i;
    row.forEach((cell, j) => {
      if (isBlank(cell.value)) return;
      const c = grid.firstColumn + j;
      filled++;
      if (tables.some((t) => r >= t.range.top && r <= t.range.bottom && c >= t.range.left && c <= t.range.right)) inside++;
    });
  });
  return filled === 0 ? 0 : inside / filled;
}

/** Rows of a header written for people above an Excel table, at most. */
const MAX_SHOWN_HEADER_ROWS = 4;

/**
 * Per column of an Excel table, the text of the rows right above it that are filled across most of it, top to bottom,
 * repeats (merged or copied cells) once: the header a reader of the sheet sees.
 */
function shownHeaders(grid: SheetGrid, table: ExcelTable, floor: number): string[] {
  const { top, left, right } = table.range;
  const width = right - left + 1;
  const cellsOf = (r: number) => Array.from({ length: width }, (_, c) => textOf(grid.rows[r - grid.firstRow]?.[left + c - grid.firstColumn]?.value ?? null).trim());
  const above: string[][] = [];
  for (let r = top - 1; r >= floor && above.length < MAX_SHOWN_HEADER_ROWS; r--) {
    const cells = cellsOf(r);
    if (cells.filter((t) => t !== '').length < 0.5 * width) break;
    above.unshift(cells);
  }
  return Array.from({ length: width }, (_, c) => {
    const parts: string[] = [];
    for (const cells of above) if (cells[c] && parts[parts.length - 1] !== cells[c]) parts.push(cells[c]);
    return parts.join(' ').replace(/\s+/g, ' ');
  });
}

/**
 * Loads an Excel table by the range and column names the workbook gives it. A published workbook often puts titles,
 * notes and a header of several rows written for people above the table (HSE's injury tables: "Averaged estimated
 * incidence (thousands)" over "95% C.I." over "lower"); the table's own header row (`cil`) is the column's name.
 */
function loadExcelTable(context: LoaderContext, grid: SheetGrid, table: ExcelTable, workbookName: string, sheetCount: number, hidden: boolean, others: readonly ExcelTable[], first: boolean): void {
  const { top, left, bottom, right } = table.range;
  const several = others.length > 0;
  // What is above the table reaches up to the table above it in the same columns (HMRC stacks three), else the sheet's top.
  const floor = Math.max(grid.firstRow, ...others.filter((o) => o.range.bottom < top && o.range.left <= right && o.range.right >= left).map((o) => o.range.bottom + 1));
  const rows: CellRead[][] = [];
  for (let r = top; r <= bottom; r++) {
    const row = grid.rows[r - grid.firstRow] ?? [];
    const cells: CellRead[] = [];
    for (let c = left; c <= right; c++) cells.push(row[c - grid.firstColumn] ?? { value: null });
    rows.push(cells);
  }
  // The header row holds the columns' names (ExcelJS cannot tell an absent `headerRowCount`, 1 by default, from 0).
  const plain = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const headerCells = rows[0].map((cell) => plain(textOf(cell.value)));
  const withHeader = table.columns.filter((name, c) => plain(name) === headerCells[c]).length >= 0.5 * table.columns.length;
  const bodyEnd = rows.length - (table.totalsRow ? 1 : 0);
  const body: number[] = [];
  for (let r = withHeader ? 1 : 0; r < bodyEnd; r++) if (nonBlankCount(rows[r]) > 0) body.push(r);
  const sub: SheetGrid = { name: grid.name, rows, firstRow: top, firstColumn: left, merges: [] };
  const header: HeaderBlock = { rows: [0], captions: [] };
  const loaded = context.tables.length;
  loadRows(context, sub, header, withHeader ? 0 : -1, withHeader ? 1 : 0, table.columns, body, workbookName, sheetCount, hidden, several ? table.name : undefined, [], first);
  // The header written for people right above the table (rows filled across it, down to the table's own header).
  const shown = shownHeaders(grid, table, floor);
  const columns = (context.tables.length > loaded ? context.tables[context.tables.length - 1].columns : undefined) ?? [];
  // (Every column of an Excel table has a name, so none is left out: the loaded columns are the table's, in order.)
  if (columns.length === table.columns.length) {
    columns.forEach((column, c) => {
      const text = shown[c];
      if (column.origin && text && text.toLowerCase() !== table.columns[c].toLowerCase()) column.origin.shownHeader = text;
    });
  }
  const above = top - floor;
  report(context, 'info', `Sheet '${grid.name}': Excel table '${table.name}' (${columnLetters(left)}${top}:${columnLetters(right)}${bottom}) read by its own range and column names${above > 0 ? `; the ${above} row(s) above it (titles, a header written for people) left out` : ''}${table.totalsRow ? '; its totals row left out' : ''}.`);
}

function loadSheet(context: LoaderContext, grid: SheetGrid, workbookName: string, sheetCount: number, hidden: boolean): void {
  const fullWidth = grid.rows[0]?.length ?? 0;
  const header = findHeader(grid, fullWidth);
  if (!header) {
    report(context, 'info', `Sheet '${grid.name}' is empty; skipped.`);
    return;
  }
  const headerEnd = header.headerless !== undefined ? header.headerless - 1 : header.rows[header.rows.length - 1];
  // A statistics agency's series sheet puts notes on each column under its header (ABS: Unit, Series Type, Data
  // Type, Frequency, … Series ID), a label in the first cell and text in the others, above the numbers.
  const notes = columnNoteRows(grid.rows, headerEnd + 1);
  const bodyStart = notes.length > 0 ? notes[notes.length - 1] + 1 : headerEnd + 1;
  const headerTexts = headerNames(grid, header, fullWidth);
  // Sub-tables stacked in one sheet (HMRC's receipts by financial year, then "Table 1b: … by calendar year", then
  // "Table 1c: … by month"), each under a row that repeats the header's other cells: one table each. A repeat whose
  // first cell is the header's own is a page's header printed again: dropped.
  const blocks: Block[] = [{ title: headerTexts[0], rows: [] }];
  for (let r = bodyStart; r < grid.rows.length; r++) {
    const row = grid.rows[r];
    if (nonBlankCount(row) === 0) continue;
    if (repeatsHeader(row, headerTexts)) {
      const title = textOf(row[0]?.value ?? null);
      if (title.toLowerCase() !== headerTexts[0].toLowerCase()) blocks.push({ title, rows: [] });
      continue;
    }
    blocks[blocks.length - 1].rows.push(r);
  }
  const summaryRows = summaryRowsBelow(grid.rows, blocks[blocks.length - 1].rows);
  // (The source line and the notes alone are no rows a reader could take for the table's: the profile counts only
  // summaries, which a reader of the sheet might.)
  const summaries = [...noteRowsBelow(grid.rows, blocks[blocks.length - 1].rows.slice(0, blocks[blocks.length - 1].rows.length - summaryRows.length)), ...summaryRows];
  if (summaries.length > 0) {
    blocks[blocks.length - 1].rows.splice(-summaries.length);
    report(context, 'info', `Sheet '${grid.name}': ${summaries.length} row(s) under the table that are no rows of it (summaries after a blank row, its source and notes: ${summaries.slice(0, 3).map((r) => JSON.stringify(textOf(grid.rows[r].find((cell) => !isBlank(cell.value))?.value ?? null).slice(0, 40))).join(', ')}${summaries.length > 3 ? ', …' : ''}) left out.`);
  }
  const filledDown = fillStubDown(grid.rows, blocks.flatMap((b) => b.rows));
  if (filledDown) report(context, 'info', `Sheet '${grid.name}': column ${filledDown.column + 1} is written once per group of rows (${filledDown.values.slice(0, 3).map((v) => JSON.stringify(v)).join(', ')}${filledDown.values.length > 3 ? ', …' : ''}), blank below until the next; each value filled down over its group.`);
  // ("End of worksheet", the accessible workbook's last line, is no row of data.)
  const lastBlock = blocks[blocks.length - 1];
  const lastRow = lastBlock.rows.at(-1);
  if (lastRow !== undefined && nonBlankCount(grid.rows[lastRow]) === 1 && /^end of (the )?(work)?sheet\.?$/i.test(textOf(grid.rows[lastRow][0]?.value ?? null))) lastBlock.rows.pop();
  if (blocks.length > 1 && blocks.every((b) => b.rows.length > 0)) {
    blocks.forEach((block, k) => loadRows(context, grid, header, headerEnd, bodyStart, [block.title, ...headerTexts.slice(1)], block.rows, workbookName, sheetCount, hidden, block.title, notes, k === 0));
    report(context, 'info', `Sheet '${grid.name}' stacks ${blocks.length} tables, each under a row that repeats the header: ${blocks.map((b) => JSON.stringify(b.title)).join(', ')}; loaded as ${blocks.length} tables.`);
    return;
  }
  const before = context.tables.length;
  loadRows(context, grid, header, headerEnd, bodyStart, headerTexts, blocks.flatMap((b) => b.rows), workbookName, sheetCount, hidden, undefined, notes, true);
  if (summaryRows.length > 0 && context.tables.length > before) context.tables[context.tables.length - 1].rowsLeftOutBelow = summaryRows.length;
}

/**
 * The rows under a table that are no rows of it (a statistics office's "Latest three months", "Year to date" and "%
 * change from year earlier", then its footnotes): everything after a blank row, where none of those rows fills a column
 * that every row above fills (the month of each row of figures). A table that goes on after a blank row fills its
 * columns there too, and keeps its rows. Indexes into the grid, in order; none when there is no such tail.
 */
function summaryRowsBelow(rows: CellRead[][], body: readonly number[]): number[] {
  if (body.length < 6) return [];
  for (let k = 5; k < body.length; k++) {
    if (body[k] === body[k - 1] + 1) continue; // no blank row between them
    const above = body.slice(0, k).map((r) => rows[r]);
    const below = body.slice(k).map((r) => rows[r]);
    const width = Math.max(...above.map((row) => row.length));
    const full = [...Array(width).keys()].filter((c) => above.every((row) => !isBlank(row[c]?.value ?? null)));
    if (full.some((c) => below.every((row) => isBlank(row[c]?.value ?? null)))) return body.slice(k);
  }
  return [];
}

/** A line written under a table for its reader: its source, a heading of notes, a numbered or starred note, a paragraph. */
const NOTE_LINE = (text: string) => /^(sources?|notes?|footnotes?)\b/i.test(text) || /^(\(\d{1,2}\)|\d{1,2}[.)]\s|[*†‡]|\[\w{1,3}\])/.test(text) || text.length > 120;

/**
 * The lines under a table that its rows are not (the Scottish Government's "Source: Police Scotland", "Footnotes",
 * "(1) Data is management information …"): the last rows of the body that each hold one value, where the table's rows
 * hold more and one of those lines is a note by its words. The table's last row, filled across, ends where they start
 * (with or without a blank row between). Indexes into the grid, in order; none when there is no such tail.
 */
function noteRowsBelow(rows: CellRead[][], body: readonly number[]): number[] {
  let k = body.length;
  // (A note merged across the table's width is one line: its value, copied into each cell of the merge, once.)
  while (k > 0 && distinctValues(rows[body[k - 1]]).size === 1) k--;
  if (k === body.length || k < 2) return [];
  const tail = body.slice(k);
  const lines = tail.map((r) => textOf(rows[r].find((cell) => !isBlank(cell.value))?.value ?? null).trim());
  if (!lines.some(NOTE_LINE)) return [];
  const widths = body.slice(0, k).map((r) => distinctValues(rows[r]).size).sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)] >= 2 ? tail : [];
}

/**
 * A stub written once per group of rows (the year on each January row of a monthly table, blank from February to
 * December): the leftmost column of the body, filled on its first row and on at most half of them, each value
 * different, beside a column filled on every row. Each value is copied down over the blank cells of its group (the
 * year a reader of the sheet sees for every month), in place. The column and its values, or none.
 */
function fillStubDown(rows: CellRead[][], body: readonly number[]): { column: number; values: string[] } | undefined {
  if (body.length < 6) return undefined;
  const width = Math.max(...body.map((r) => rows[r].length));
  const cell = (r: number, c: number) => rows[r][c]?.value ?? null;
  const stub = [...Array(width).keys()].find((c) => body.some((r) => !isBlank(cell(r, c))));
  if (stub === undefined || stub + 1 >= width) return undefined;
  if (isBlank(cell(body[0], stub)) || !body.every((r) => !isBlank(cell(r, stub + 1)))) return undefined;
  const values = body.filter((r) => !isBlank(cell(r, stub))).map((r) => textOf(cell(r, stub)));
  if (values.length < 2 || values.length > body.length / 2 || new Set(values).size !== values.length) return undefined;
  let current: Scalar = null;
  for (const r of body) {
    const own = cell(r, stub);
    if (!isBlank(own)) current = own;
    else if (rows[r][stub]) rows[r][stub] = { ...rows[r][stub], value: current };
  }
  return { column: stub, values };
}

/**
 * A name for a column with no header whose every value is a year (`2018`) or a month's name (`Jan`, `June`, `Dec†`):
 * `Year` or `Month`, what a reader of the sheet calls it, unless the header names another column so. Else empty.
 */
function stubName(values: readonly Scalar[], headerTexts: readonly string[]): string {
  const filled = values.filter((v) => !isBlank(v)).map((v) => textOf(v));
  if (filled.length < 3) return '';
  const taken = (name: string) => headerTexts.some((h) => h.toLowerCase() === name.toLowerCase());
  if (filled.every((v) => /^(1[89]|20|21)\d\d$/.test(v)) && !taken('Year')) return 'Year';
  const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  if (filled.every((v) => /^[A-Za-z]{3,9}\.?[\s*†‡]*$/.test(v) && months.includes(v.slice(0, 3).toLowerCase())) && !taken('Month')) return 'Month';
  return '';
}

/** One of the tables a sheet stacks: the first cell of the row it starts under, and its rows' indices in the grid. */
interface Block {
  title: string;
  rows: number[];
}

/** A row whose cells after the first repeat the header's (at least two of them, and no other cell filled). */
function repeatsHeader(row: CellRead[], headerTexts: readonly string[]): boolean {
  let same = 0;
  for (let c = 1; c < headerTexts.length; c++) {
    const text = textOf(row[c]?.value ?? null);
    if (text === '') continue;
    if (text.toLowerCase() !== headerTexts[c].toLowerCase()) return false;
    same++;
  }
  return same >= 2;
}

function loadRows(
  context: LoaderContext,
  grid: SheetGrid,
  header: HeaderBlock,
  headerEnd: number,
  bodyStart: number,
  headerTexts: string[],
  rowIndices: readonly number[],
  workbookName: string,
  sheetCount: number,
  hidden: boolean,
  blockTitle: string | undefined,
  notes: number[],
  /** Whether to report what holds for the whole sheet (its title rows, notes, header): once, with its first table. */
  sheetFacts: boolean,
): void {
  const fullWidth = grid.rows[0]?.length ?? 0;
  const bodyRows = rowIndices.map((r) => grid.rows[r]);
  // Columns with neither a header nor any value are layout, not data.
  const kept: number[] = [];
  for (let c = 0; c < fullWidth; c++) {
    if (headerTexts[c] !== '' || bodyRows.some((row) => !isBlank(row[c].value))) kept.push(c);
  }
  if (kept.length === 0) {
    report(context, 'info', `Sheet '${grid.name}' has no data; skipped.`);
    return;
  }
  const dropped = [...Array(fullWidth).keys()].filter((c) => !kept.includes(c));
  const names = columnNamesFromHeaders(kept.map((c) => headerTexts[c] || stubName(bodyRows.map((row) => row[c].value), headerTexts)));
  const trackers = kept.map(() => new ColumnTypeTracker());
  let uncachedFormulas = 0;
  let errorCells = 0;
  const errorKinds = new Set<string>();
  for (const row of bodyRows) {
    for (let k = 0; k < kept.length; k++) {
      const cell = row[kept[k]];
      if (cell.uncachedFormula) uncachedFormulas++;
      if (cell.error) {
        errorCells++;
        errorKinds.add(cell.error);
      }
      trackers[k].addSheetCell(typeof cell.value === 'string' && cell.value.trim() === '' ? null : cell.value);
    }
  }
  const headerTop = grid.firstRow + header.rows[0];
  const headerBottom = grid.firstRow + headerEnd;
  const dataTop = grid.firstRow + (blockTitle === undefined ? bodyStart : rowIndices[0]);
  const dataBottom = grid.firstRow + (blockTitle === undefined ? grid.rows.length - 1 : rowIndices[rowIndices.length - 1]);
  const columns: ColumnSpec[] = kept.map((c, k) => {
    const letters = columnLetters(grid.firstColumn + c);
    const originalName = names[k].originalName || names[k].name;
    return {
      ...names[k],
      ...specOf(trackers[k]),
      origin: {
        file: context.file,
        sheet: grid.name,
        ...(header.headerless !== undefined ? {} : { headerCells: headerTop === headerBottom ? `${letters}${headerTop}` : `${letters}${headerTop}:${letters}${headerBottom}` }),
        range: dataBottom >= dataTop ? `${letters}${dataTop}:${letters}${dataBottom}` : undefined,
        label: `${workbookName} › ${grid.name} › ${originalName}`,
      },
    };
  });
  for (const column of columns) if (column.origin && column.origin.range === undefined) delete column.origin.range;
  reportDateLayouts(context, columns, trackers, ` in sheet '${grid.name}'`);

  const tableName = context.names.allocate(blockTitle === undefined ? sheetTableName(context, grid.name, sheetCount) : `${sheetTableName(context, grid.name, 2)}_${toSnakeIdentifier(blockTitle.replace(/^table\s+\w+\s*:\s*/i, ''), 'table')}`);
  const inserter = createTable(context.db, tableName, columns);
  try {
    const values: Array<string | number | null> = new Array(columns.length);
    for (const row of bodyRows) {
      for (let k = 0; k < kept.length; k++) values[k] = jsonCellToSql(row[kept[k]].value, columns[k].type, columns[k].layout);
      inserter.insert(values);
    }
    inserter.finish();
  } catch (e) {
    inserter.dispose();
    throw e;
  }
  context.tables.push({ name: tableName, originalName: blockTitle === undefined ? grid.name : stackedTableName(grid.name, blockTitle), sourceFile: context.file, kind: 'table', columns, statistics: inserter.statistics(), ...(dropped.length > 0 ? { droppedColumns: dropped.map((c) => `column_${c + 1}`) } : {}), ...(header.captions.length > 0 ? { preamble: [...header.captions] } : {}) });

  const where = `Sheet '${grid.name}'`;
  if (dropped.length > 0) report(context, 'info', `${where}: ${dropped.length} column(s) with neither a name nor a value left out (${positions(dropped)}).`);
  if (sheetFacts && notes.length > 0) report(context, 'info', `${where}: ${notes.length} row(s) of column notes under the header read as notes, not data: ${notes.map((r) => JSON.stringify(textOf(grid.rows[r][0]?.value ?? null))).join(', ')}.`);
  if (sheetFacts && header.captions.length > 0) report(context, 'info', `${where}: title row(s) above the header skipped: ${header.captions.map((c) => JSON.stringify(c)).join(', ')}.`);
  const textNumbers = columns.filter((c, k) => trackers[k].numbersAsText > 0 && (c.type === 'integer' || c.type === 'real'));
  if (textNumbers.length > 0) report(context, 'info', `${where}: ${textNumbers.length} column(s) store their numbers as text (${textNumbers.slice(0, 5).map((c) => c.originalName || c.name).join(', ')}${textNumbers.length > 5 ? ', …' : ''}); read as numbers.`);
  if (sheetFacts && header.headerless !== undefined) report(context, 'info', `${where} has no header row: its first row (${dataTop}) is read as data, its columns named by position (column_1 …).`);
  if (sheetFacts && header.rows.length > 1) report(context, 'info', `${where}: ${header.groupsUnmerged ? 'group labels (each over the blank cells to its right) above the column names' : 'merged header cells'} read as a ${header.rows.length}-row header (rows ${headerTop}–${headerBottom}).`);
  if (sheetFacts && hidden) report(context, 'info', `${where} is hidden in the workbook; loaded anyway.`);
  if (uncachedFormulas > 0) {
    report(
      context,
      'warning',
      `${where}: ${uncachedFormulas} formula cell(s) have no cached value (the workbook was saved without calculating); read as NULL.`,
    );
  }
  if (errorCells > 0) report(context, 'warning', `${where}: ${errorCells} cell(s) hold an error value (${[...errorKinds].join(', ')}); read as NULL.`);
}
