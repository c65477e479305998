import { listLines, report, tableBaseName, type LoaderContext } from './loaderContext';
import { readTextFile } from './textEncoding';
import { toSnakeIdentifier, NameAllocator } from './naming';
import { createTable, type ColumnSpec } from './tableWriter';
import { ColumnTypeTracker, jsonCellToSql } from './typeInference';
import { reportDateLayouts, specOf } from './dateDiagnostics';
import { descriptorDocument, isJsonSchema } from './descriptorDocument';

/** Objects nested deeper than this are stored as JSON text in one column (with a warning), not flattened. */
export const MAX_FLATTEN_DEPTH = 16;

/**
 * JSON is parsed whole, and parsed values take several times the file's size in memory; larger files are
 * skipped with a diagnostic rather than risking the host process.
 */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

type JsonObject = Record<string, unknown>;

function tooLarge(context: LoaderContext): boolean {
  if (context.sizeBytes <= MAX_JSON_BYTES) return false;
  report(context, 'warning', `JSON files over ${MAX_JSON_BYTES / 1024 ** 2} MiB are not loaded (this one is ${(context.sizeBytes / 1024 ** 2).toFixed(0)} MiB); convert it to CSV or JSONL chunks.`);
  return true;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRecordArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isObject);
}

/** Rows of one table being built from records; child tables come from arrays of objects. */
class TableDraft {
  readonly columns = new Map<string, { name: string; originalName: string; tracker: ColumnTypeTracker }>();
  private readonly columnNames = new NameAllocator();
  readonly rows: Array<Map<string, unknown>> = [];
  readonly children = new Map<string, TableDraft>();
  /** Set on child tables: the generated key column pointing at the parent's `_row_id`. */
  readonly parentColumn?: string;

  constructor(readonly originalName: string, parentColumn?: string) {
    this.parentColumn = parentColumn;
    if (parentColumn) this.columnFor(parentColumn, parentColumn);
  }

  columnFor(path: string, originalName: string): string {
    let column = this.columns.get(path);
    if (!column) {
      const name = this.columnNames.allocate(path);
      column = { name, originalName, tracker: new ColumnTypeTracker() };
      this.columns.set(path, column);
    }
    return column.name;
  }
}

interface FlattenState {
  deepestCut: number;
  unstorable: number;
}

/** Flattens one record into `draft`: nested objects → dotted columns, arrays of objects → child rows. */
function addRecord(draft: TableDraft, record: JsonObject, state: FlattenState, parentRowId?: number, startDepth = 1): void {
  const row = new Map<string, unknown>();
  const rowId = draft.rows.length + 1;
  if (draft.parentColumn && parentRowId !== undefined) row.set(draft.parentColumn, parentRowId);
  draft.rows.push(row);
  const walk = (object: JsonObject, prefix: string, originalPrefix: string, depth: number): void => {
    for (const [key, value] of Object.entries(object)) {
      const path = prefix ? `${prefix}.${toSnakeIdentifier(key, 'field')}` : toSnakeIdentifier(key, 'field');
      const originalPath = originalPrefix ? `${originalPrefix}.${key}` : key;
      if (isObject(value) && depth < MAX_FLATTEN_DEPTH && Object.keys(value).length > 0) {
        walk(value, path, originalPath, depth + 1);
      } else if (isRecordArray(value) && depth < MAX_FLATTEN_DEPTH) {
        let child = draft.children.get(path);
        if (!child) {
          child = new TableDraft(originalPath, '_parent_row_id');
          draft.children.set(path, child);
        }
        for (const item of value) addRecord(child, item as JsonObject, state, rowId, depth + 1);
      } else {
        const column = draft.columnFor(path, originalPath);
        if (isObject(value) || Array.isArray(value)) {
          if (depth >= MAX_FLATTEN_DEPTH) state.deepestCut++;
          row.set(column, stringifyOrNull(value, state));
        } else {
          row.set(column, value);
        }
      }
    }
  };
  walk(record, '', '', startDepth);
}

function stringifyOrNull(value: unknown, state: FlattenState): string | null {
  try {
    return JSON.stringify(value);
  } catch {
    state.unstorable++; // absurdly deep nesting overflows JSON.stringify's stack
    return null;
  }
}

/** Writes a draft and its children as tables; parents get a `_row_id` column when they have children. */
function writeDraft(context: LoaderContext, draft: TableDraft, baseName: string, parent?: { table: string; column: string }): void {
  const tableName = context.names.allocate(baseName);
  const hasChildren = draft.children.size > 0;
  const columnEntries = [...draft.columns.values()];
  for (const row of draft.rows) for (const column of columnEntries) column.tracker.addJson(row.get(column.name));
  const columns: ColumnSpec[] = columnEntries.map((c) => ({ name: c.name, originalName: c.originalName, ...specOf(c.tracker) }));
  reportDateLayouts(context, columnEntries, columnEntries.map((c) => c.tracker), draft.parentColumn ? ` of '${draft.originalName}'` : '');
  if (hasChildren) columns.unshift({ name: '_row_id', originalName: '_row_id', type: 'integer' });
  const inserter = createTable(context.db, tableName, columns);
  try {
    const values: Array<string | number | null> = new Array(columns.length);
    draft.rows.forEach((row, index) => {
      let at = 0;
      if (hasChildren) values[at++] = index + 1;
      for (const column of columnEntries) {
        values[at] = jsonCellToSql(row.get(column.name), columns[at].type, columns[at].layout);
        at++;
      }
      inserter.insert(values);
    });
    inserter.finish();
  } catch (e) {
    inserter.dispose();
    throw e;
  }
  context.tables.push({ name: tableName, originalName: draft.originalName, sourceFile: context.file, kind: 'table', columns, parent, statistics: inserter.statistics() });
  for (const [path, child] of draft.children) {
    writeDraft(context, child, `${tableName}_${path.replace(/\./g, '_')}`, { table: tableName, column: '_parent_row_id' });
  }
}

function reportFlattenProblems(context: LoaderContext, state: FlattenState): void {
  if (state.deepestCut > 0) {
    report(context, 'warning', `${state.deepestCut} value(s) nested deeper than ${MAX_FLATTEN_DEPTH} levels were stored as JSON text instead of columns.`);
  }
  if (state.unstorable > 0) {
    report(context, 'warning', `${state.unstorable} value(s) are nested too deeply to store at all; they were stored as NULL.`);
  }
}

/** A column of a column-oriented document: an array of scalars at `originalName` (`time.raw`, `series[0].raw`). */
interface ParallelColumn {
  name: string;
  originalName: string;
  values: unknown[];
}

const isScalar = (value: unknown) => value === null || (typeof value !== 'object' && typeof value !== 'function');
/** Keys whose string value names an element of an array of series (`{"label": "Dollars/Barrel", "raw": […]}`). */
const LABEL_KEYS = ['label', 'name', 'id', 'key', 'title', 'variable', 'series', 'column', 'field'];
const MAX_COLUMNAR_DEPTH = 8;

/**
 * A column-oriented document: an object whose data are arrays of scalars of one length side by side — the dates in
 * `time.raw` beside the values in `series[0].raw`, pandas' `to_json(orient="list")`, a dict of lists — with a few
 * scalars describing it (`name`, `n_obs`, a `format`). Found when at least two arrays of scalars share a length, that
 * length is the most common among them, they hold most of the document's values, and no array of objects around one
 * of them is as long (records with a short list each, `[{"id": 1, "tags": ["a", "b"]}, …]`, are records). The
 * columns are named by their path (`time.raw`), or, inside an array of objects, by the element's label when each
 * element has a distinct one (`series[0].raw` with `"label": "Dollars/Barrel"` → `dollars_barrel`). An array that
 * only counts the positions (`time.index`: 0, 1, 2…) is no column: the rows keep the file's order.
 */
export function parallelColumns(document: JsonObject): { length: number; columns: ParallelColumn[]; positions: unknown[][]; metadata: Array<{ path: string; text: string }>; about: number } | undefined {
  const arrays: Array<{ path: string; snake: string[]; values: unknown[]; owner?: { array: unknown[]; element: JsonObject; index: number } }> = [];
  const scalars: Array<{ path: string; value: unknown }> = [];
  const others: Array<{ path: string; value: unknown }> = [];
  let leaves = 0;
  const walk = (value: unknown, path: string, snake: string[], depth: number, owner?: { array: unknown[]; element: JsonObject; index: number }): void => {
    if (depth > MAX_COLUMNAR_DEPTH) {
      others.push({ path, value });
      return;
    }
    if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key, [...snake, toSnakeIdentifier(key, 'field')], depth + 1, owner);
    } else if (Array.isArray(value)) {
      if (value.length >= 2 && value.every(isScalar)) {
        arrays.push({ path, snake, values: value, owner });
        leaves += value.length;
      } else if (value.length > 0 && value.every(isObject)) {
        value.forEach((element, index) => walk(element, `${path}[${index}]`, [...snake, String(index + 1)], depth + 1, { array: value, element: element as JsonObject, index }));
      } else {
        others.push({ path, value });
        leaves += value.length;
      }
    } else {
      scalars.push({ path, value });
      leaves++;
    }
  };
  walk(document, '', [], 0);
  const byLength = new Map<number, number>();
  for (const a of arrays) byLength.set(a.values.length, (byLength.get(a.values.length) ?? 0) + 1);
  let length = 0;
  let most = 0;
  for (const [n, count] of byLength) if (count > most || (count === most && n > length)) [length, most] = [n, count];
  if (most < 2) return undefined;
  const chosen = arrays.filter((a) => a.values.length === length);
  if (chosen.some((a) => a.owner && a.owner.array.length >= length)) return undefined;
  if (chosen.length * length < 0.5 * leaves) return undefined;
  // Inside an array of objects, an element's distinct label names its column.
  const labelOf = (owner: { array: unknown[]; element: JsonObject }): string | undefined => {
    for (const wanted of LABEL_KEYS) {
      const key = Object.keys(owner.element).find((k) => k.toLowerCase() === wanted);
      if (!key) continue;
      const labels = owner.array.map((e) => (isObject(e) ? e[key] : undefined));
      if (labels.every((l) => typeof l === 'string' && l.trim() !== '') && new Set(labels).size === labels.length) return String(owner.element[key]);
    }
    return undefined;
  };
  // An array of the positions themselves (`time.index`: 0, 1, 2…) says only the row order: noted, not a column.
  const positions = (values: unknown[]) => {
    const start = values[0];
    return (start === 0 || start === 1) && values.every((v, i) => v === i + start);
  };
  const kept = chosen.filter((a) => !positions(a.values));
  const counters = chosen.filter((a) => positions(a.values));
  if (kept.length > 0) chosen.splice(0, chosen.length, ...kept);
  const perElement = new Map<unknown, number>();
  for (const a of chosen) if (a.owner) perElement.set(a.owner.element, (perElement.get(a.owner.element) ?? 0) + 1);
  const columns = chosen.map((a) => {
    const label = a.owner ? labelOf(a.owner) : undefined;
    const name = label ? (perElement.get(a.owner!.element)! > 1 ? `${toSnakeIdentifier(label, 'series')}.${a.snake[a.snake.length - 1]}` : toSnakeIdentifier(label, 'series')) : a.snake.join('.') || 'value';
    return { name, originalName: label ? `${a.path} (${label})` : a.path, values: a.values };
  });
  const taken = new Set(chosen.map((a) => a.path));
  const text = (value: unknown) => {
    const json = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
    return json.length > 60 ? `${json.slice(0, 57)}…` : json;
  };
  const metadata = [
    ...(kept.length > 0 ? counters.map((a) => ({ path: a.path, text: `the positions ${a.values[0]}–${a.values[a.values.length - 1]} (not a column)` })) : []),
    ...scalars.map((m) => ({ path: m.path, text: text(m.value) })),
    ...arrays.filter((a) => !taken.has(a.path)).map((a) => ({ path: a.path, text: `${a.values.length} values` })),
    ...others.map((o) => ({ path: o.path, text: text(o.value) })),
  ];
  // Values beside the arrays in the objects that hold them (`time.type`, `series[0].label`) are about those arrays;
  // the others are about the file, or about what the file is a record of.
  const holders = [...new Set(chosen.map((a) => a.path.replace(/(\.[^.[\]]+|\[\d+\])$/, '')))].filter((p) => p !== '');
  const about = metadata.filter((m) => !m.text.startsWith('the positions') && !holders.some((p) => m.path.startsWith(`${p}.`) || m.path.startsWith(`${p}[`))).length;
  return { length, columns, positions: kept.length > 0 ? counters.map((a) => a.values) : [], metadata, about };
}

/** Values outside the objects holding a column-oriented file's arrays that still only describe the file (its name, its count of rows). */
const MAX_FILE_DESCRIPTION_VALUES = 8;

/**
 * The document without the arrays loaded as columns (found by identity), and without the objects left empty; undefined
 * when nothing else is left.
 */
function withoutArrays(document: JsonObject, taken: ReadonlySet<unknown>): JsonObject | undefined {
  const strip = (value: unknown): unknown => {
    if (taken.has(value)) return undefined;
    if (Array.isArray(value)) {
      const items = value.map(strip);
      return items.some((item) => item !== undefined) ? items.map((item) => item ?? null) : value.length === 0 ? value : undefined;
    }
    if (!isObject(value)) return value;
    const kept = Object.entries(value).map(([key, child]) => [key, strip(child)] as const).filter(([, child]) => child !== undefined);
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  };
  const rest = strip(document);
  return isObject(rest) ? rest : undefined;
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

export async function loadJson(context: LoaderContext): Promise<void> {
  if (tooLarge(context)) return;
  let text = await readTextFile(context.absolutePath, context.encoding ?? 'utf-8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const position = /position (\d+)/.exec(message);
    const line = position ? lineAt(text, Number(position[1])) : lineAt(text, text.length);
    const truncated = position ? Number(position[1]) >= text.trimEnd().length : /end of JSON/i.test(message);
    report(context, 'error', `${truncated ? 'Truncated JSON' : 'Invalid JSON'} at line ${line}: ${message}`, line);
    return;
  }

  const descriptor = descriptorDocument(context.file, context.sizeBytes, document);
  if (descriptor) {
    context.documents.push(descriptor);
    const what = isJsonSchema(document) ? 'A JSON Schema (it describes the structure of other JSON files)' : Array.isArray(document) ? 'A BigQuery table schema (it describes the columns of a table)' : 'A Frictionless descriptor (it describes the data files)';
    report(context, 'info', `${what}: read as a document, not loaded as a table.`);
    return;
  }
  const fileName = context.file.split('/').pop() ?? context.file;
  const draft = new TableDraft(fileName);
  const state: FlattenState = { deepestCut: 0, unstorable: 0 };
  const columnar = isObject(document) ? parallelColumns(document) : undefined;
  if (columnar) {
    for (let i = 0; i < columnar.length; i++) {
      const row = new Map<string, unknown>();
      for (const column of columnar.columns) row.set(draft.columnFor(column.name, column.originalName), column.values[i]);
      draft.rows.push(row);
    }
    // A few other values describe the file (a name, a unit, a count). Many are a record of their own (a filer's name,
    // codes and addresses beside its filings' arrays): a table of one row, where a question about the whole file finds it.
    const rest = columnar.about > MAX_FILE_DESCRIPTION_VALUES ? withoutArrays(document as JsonObject, new Set([...columnar.columns.map((c) => c.values), ...columnar.positions])) : undefined;
    const restName = `${tableBaseName(context)}_record`;
    const shown = columnar.metadata.slice(0, 12).map((m) => `${m.path} = ${m.text}`).join(', ');
    const more = columnar.metadata.length > 12 ? `, and ${columnar.metadata.length - 12} more` : '';
    report(
      context,
      'info',
      `Column-oriented JSON: ${columnar.columns.length} arrays of ${columnar.length} values side by side (${columnar.columns.map((c) => c.originalName).join(', ')}) ` +
        `loaded as ${columnar.length} rows, one per position.` +
        (rest
          ? ` The ${columnar.metadata.length} other values of the file (${columnar.metadata.slice(0, 6).map((m) => m.path).join(', ')}, …) are a record of their own, loaded as one row in ${restName}.`
          : columnar.metadata.length > 0
            ? ` The other values describe the file and are not in the table: ${shown}${more}.`
            : ''),
    );
    if (rest) {
      const record = new TableDraft(`${fileName}#record`);
      addRecord(record, rest, state);
      writeDraft(context, record, restName);
    }
  } else if (Array.isArray(document)) {
    let scalars = 0;
    for (const item of document) {
      if (isObject(item)) addRecord(draft, item, state);
      else {
        addRecord(draft, { value: item }, state);
        scalars++;
      }
    }
    if (scalars > 0 && scalars < document.length) {
      report(context, 'info', `${scalars} array element(s) are not objects; they were stored in a 'value' column.`);
    }
  } else if (isObject(document)) {
    // A top-level object holding exactly one array of records is a wrapper ({"orders": [...]}): load the array.
    const recordArrays = Object.entries(document).filter(([, value]) => isRecordArray(value));
    if (recordArrays.length === 1) {
      const [key, records] = recordArrays[0];
      for (const item of records as JsonObject[]) addRecord(draft, item, state);
      (draft as { originalName: string }).originalName = `${fileName}#${key}`;
    } else {
      addRecord(draft, document, state); // a single record → a one-row table
    }
  } else {
    report(context, 'warning', 'The JSON document is a single scalar value; nothing to load as a table.');
    return;
  }
  if (draft.rows.length === 0) {
    report(context, 'warning', 'The JSON array is empty: nothing to load.');
    return;
  }
  reportFlattenProblems(context, state);
  writeDraft(context, draft, tableBaseName(context));
}

export async function loadJsonLines(context: LoaderContext): Promise<void> {
  if (tooLarge(context)) return;
  let text = await readTextFile(context.absolutePath, context.encoding ?? 'utf-8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const draft = new TableDraft(context.file.split('/').pop() ?? context.file);
  const state: FlattenState = { deepestCut: 0, unstorable: 0 };
  const badLines: number[] = [];
  let badCount = 0;
  let lineNumber = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNumber++;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (isObject(value)) addRecord(draft, value, state);
    else {
      badCount++;
      if (badLines.length < 10) badLines.push(lineNumber);
    }
  }
  if (badCount > 0) {
    report(
      context,
      'warning',
      `${badCount} line(s) are not JSON objects and were skipped: lines ${listLines(badLines, badCount)}.`,
      badLines[0],
    );
  }
  if (draft.rows.length === 0) {
    if (badCount === 0) report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  reportFlattenProblems(context, state);
  writeDraft(context, draft, tableBaseName(context));
}
