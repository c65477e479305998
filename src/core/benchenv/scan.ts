import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BenchmarkCatalog, BenchmarkEntry, BenchmarkKind, SpiderSchema } from './types';

/**
 * Reads a benchmark folder into a catalog of environments, recognizing:
 * - Spider / BIRD: `…/<db_id>/<db_id>.sqlite` database folders, `tables.json`-style schema files, question files
 *   (JSON arrays of `{ db_id, question }`), BIRD's `database_description/*.csv` column descriptions;
 * - LiveSQLBench style: `<db>/<db>.sqlite` with `<db>_kb.jsonl`, `<db>_column_meaning_base.json`,
 *   `<db>_schema.txt`, and `livesqlbench_data.jsonl` (`selected_database`, `query`, `normal_query`);
 * - SpreadsheetBench: `dataset.json` (or .jsonl) of `{ id, instruction, spreadsheet_path, … }` with
 *   `spreadsheet/<id>/<n>_<id>_input.xlsx` (or `_init.xlsx`) inputs and `_answer.xlsx` (or `_golden.xlsx`) answers.
 */

const MAX_DEPTH = 4;
const MAX_METADATA_BYTES = 256 * 1024 * 1024;
const SKIPPED = new Set(['node_modules', '__pycache__']);

interface Walk {
  /** Directories (absolute) up to MAX_DEPTH, hidden ones and `.toffee` skipped. */
  directories: string[];
  /** JSON and JSONL files up to depth 2 (metadata and question files sit near the top). */
  metadataFiles: string[];
}

function walk(root: string): Walk {
  const directories: string[] = [];
  const metadataFiles: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        directories.push(full);
        if (depth < MAX_DEPTH) visit(full, depth + 1);
      } else if (entry.isFile() && depth <= 2 && /\.(json|jsonl)$/i.test(entry.name)) {
        metadataFiles.push(full);
      }
    }
  };
  visit(root, 0);
  return { directories, metadataFiles };
}

/** A JSON array file or a JSONL file as a list of objects; undefined when it is neither (or too big). */
function readRecords(file: string, notes: string[], root: string): Array<Record<string, unknown>> | undefined {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return undefined;
  }
  if (size > MAX_METADATA_BYTES) {
    notes.push(`${relative(root, file)}: over ${MAX_METADATA_BYTES} bytes; not read.`);
    return undefined;
  }
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  try {
    if (file.toLowerCase().endsWith('.jsonl')) {
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((item) => item !== null && typeof item === 'object');
    }
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed)) return parsed.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object');
    return undefined;
  } catch (e) {
    notes.push(`${relative(root, file)}: not valid JSON (${(e as Error).message}); skipped.`);
    return undefined;
  }
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function stringField(item: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = item[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** `car_1` → `car`, `concert_singer` → `concert_singer`: Spider numbers variants of one domain. */
export function domainOf(id: string): string {
  return id.replace(/_\d+$/, '').toLowerCase();
}

function isSpiderSchema(item: Record<string, unknown>): boolean {
  return typeof item.db_id === 'string' && Array.isArray(item.table_names_original) && Array.isArray(item.column_names_original);
}

function pushQuestion(map: Map<string, Set<string>>, id: string, question: string | undefined): void {
  if (!question) return;
  let set = map.get(id);
  if (!set) map.set(id, (set = new Set()));
  set.add(question.trim());
}

function addEvaluationFile(map: Map<string, Set<string>>, id: string, file: string): void {
  let set = map.get(id);
  if (!set) map.set(id, (set = new Set()));
  set.add(file);
}

/** Reads the benchmark folder; never throws for bad content (notes say what was skipped). */
export function scanBenchmark(dir: string): BenchmarkCatalog {
  const root = path.resolve(dir);
  const stat = fs.statSync(root, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new Error(`Not a folder: ${root}`);
  const notes: string[] = [];
  const { directories, metadataFiles } = walk(root);

  const schemas = new Map<string, SpiderSchema>();
  const questions = new Map<string, Set<string>>();
  const evaluationFiles = new Map<string, Set<string>>();
  const spreadsheetItems: Array<{ item: Record<string, unknown>; file: string }> = [];
  let birdSignals = 0;
  for (const file of metadataFiles) {
    const base = path.basename(file).toLowerCase();
    // Per-database LiveSQLBench files are read when their database is; they are not question files.
    if (/_kb\.jsonl$|_column_meaning_base\.json$/.test(base)) continue;
    const records = readRecords(file, notes, root);
    if (!records || records.length === 0) continue;
    if (records.every(isSpiderSchema)) {
      for (const item of records) schemas.set(String(item.db_id), item as unknown as SpiderSchema);
      continue;
    }
    let used = false;
    for (const item of records) {
      const dbId = stringField(item, 'db_id', 'selected_database');
      if (dbId) {
        const before = questions.get(dbId)?.size ?? 0;
        // Spider/BIRD: `question` (their `query` is the gold SQL); LiveSQLBench: `query` and `normal_query`.
        const question = stringField(item, 'question');
        pushQuestion(questions, dbId, question);
        if (!question) {
          pushQuestion(questions, dbId, stringField(item, 'query'));
          pushQuestion(questions, dbId, stringField(item, 'normal_query'));
        }
        if ((questions.get(dbId)?.size ?? 0) > before) {
          used = true;
          addEvaluationFile(evaluationFiles, dbId, file);
        }
        if ('evidence' in item || 'SQL' in item) birdSignals++;
      } else if (typeof item.instruction === 'string' && (item.spreadsheet_path !== undefined || item.id !== undefined)) {
        spreadsheetItems.push({ item, file });
        used = true;
      }
    }
    if (!used) notes.push(`${relative(root, file)}: no benchmark questions or schemas recognized; ignored.`);
  }

  const entries: BenchmarkEntry[] = [];
  const seen = new Set<string>();
  for (const directory of directories) {
    const id = path.basename(directory);
    const sqlite = ['.sqlite', '.sqlite3', '.db'].map((ext) => path.join(directory, `${id}${ext}`)).find((f) => fs.existsSync(f));
    const knowledgeBase = path.join(directory, `${id}_kb.jsonl`);
    const columnMeanings = path.join(directory, `${id}_column_meaning_base.json`);
    const isLiveSql = fs.existsSync(knowledgeBase) || fs.existsSync(columnMeanings);
    if (!sqlite) {
      if (isLiveSql) notes.push(`${relative(root, directory)}: knowledge base without a ${id}.sqlite database (a SQLite build is needed); skipped.`);
      continue;
    }
    if (seen.has(id)) {
      notes.push(`${relative(root, directory)}: database '${id}' appears again; the first copy is used.`);
      continue;
    }
    seen.add(id);
    const descriptionDir = path.join(directory, 'database_description');
    const hasDescriptions = fs.existsSync(descriptionDir);
    const kind: BenchmarkKind = isLiveSql ? 'livesqlbench' : hasDescriptions || birdSignals > 0 ? 'bird' : 'spider';
    const entry: BenchmarkEntry = {
      kind,
      id,
      domain: domainOf(id),
      dataFiles: [sqlite],
      sizeBytes: fileSize(sqlite),
      questions: [...(questions.get(id) ?? [])],
      evaluationFiles: [...(evaluationFiles.get(id) ?? [])],
      sources: {},
    };
    const schema = schemas.get(id);
    if (schema) {
      entry.sources.schema = schema;
      entry.tables = schema.table_names_original.length;
      entry.columns = schema.column_names_original.filter(([table]) => table >= 0).length;
    }
    if (hasDescriptions) entry.sources.descriptionDir = descriptionDir;
    if (isLiveSql) {
      if (fs.existsSync(knowledgeBase)) entry.sources.knowledgeBase = knowledgeBase;
      if (fs.existsSync(columnMeanings)) {
        entry.sources.columnMeanings = columnMeanings;
        const size = countColumnMeanings(columnMeanings);
        if (size) Object.assign(entry, size);
      }
      const schemaText = path.join(directory, `${id}_schema.txt`);
      if (fs.existsSync(schemaText)) entry.sources.schemaText = schemaText;
    }
    if (entry.questions.length === 0) notes.push(`${id}: no benchmark questions found for this database.`);
    entries.push(entry);
  }

  for (const { item, file } of spreadsheetItems) {
    const entry = spreadsheetEntry(root, item, file, notes);
    if (!entry) continue;
    if (seen.has(entry.id)) {
      notes.push(`SpreadsheetBench id '${entry.id}' appears again; the first is used.`);
      continue;
    }
    seen.add(entry.id);
    entries.push(entry);
  }

  for (const id of questions.keys()) {
    if (!seen.has(id)) notes.push(`${id}: questions found but no database folder ${id}/${id}.sqlite; skipped.`);
  }
  const counts = new Map<BenchmarkKind, number>();
  for (const entry of entries) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  const kind = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'spider';
  return { root, kind, entries, notes };
}

/** Tables and columns named in a LiveSQLBench column-meaning file (keys `db|table|column`). */
function countColumnMeanings(file: string): { tables: number; columns: number } | undefined {
  try {
    const meanings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(meanings).map((key) => key.split('|'));
    const tables = new Set(keys.filter((parts) => parts.length >= 2).map((parts) => parts[parts.length - 2]));
    return { tables: tables.size, columns: keys.length };
  } catch {
    return undefined;
  }
}

const INPUT_WORKBOOK = /_(input|init)\.xlsx$/i;
const ANSWER_WORKBOOK = /_(answer|golden|output)\.xlsx$/i;

/** Test-case number of `3_1234_input.xlsx` (0 when there is none), for picking the first case. */
function caseNumber(file: string): number {
  const match = /^(\d+)_/.exec(path.basename(file));
  return match ? Number(match[1]) : 0;
}

function spreadsheetEntry(root: string, item: Record<string, unknown>, file: string, notes: string[]): BenchmarkEntry | undefined {
  const id = stringField(item, 'id');
  const instruction = stringField(item, 'instruction');
  if (!id || !instruction) return undefined;
  const declared = stringField(item, 'spreadsheet_path') ?? path.join('spreadsheet', id);
  const candidates = [path.resolve(path.dirname(file), declared), path.resolve(root, declared)];
  const location = candidates.find((candidate) => fs.existsSync(candidate));
  if (!location) {
    notes.push(`SpreadsheetBench ${id}: spreadsheet path '${declared}' not found; skipped.`);
    return undefined;
  }
  let inputs: string[] = [];
  let answers: string[] = [];
  if (fs.statSync(location).isFile()) {
    inputs = [location];
  } else {
    const workbooks = fs
      .readdirSync(location)
      .filter((name) => name.toLowerCase().endsWith('.xlsx'))
      .map((name) => path.join(location, name));
    answers = workbooks.filter((f) => ANSWER_WORKBOOK.test(f));
    inputs = workbooks.filter((f) => INPUT_WORKBOOK.test(f));
    if (inputs.length === 0) inputs = workbooks.filter((f) => !ANSWER_WORKBOOK.test(f));
  }
  inputs.sort((a, b) => caseNumber(a) - caseNumber(b) || (a < b ? -1 : 1));
  if (inputs.length === 0) {
    notes.push(`SpreadsheetBench ${id}: no input workbook in '${declared}'; skipped.`);
    return undefined;
  }
  const instructionType = stringField(item, 'instruction_type');
  return {
    kind: 'spreadsheetbench',
    id,
    domain: (instructionType ?? 'spreadsheet').toLowerCase(),
    // The first test case's input workbook is the environment; answer workbooks never go into it.
    dataFiles: [inputs[0]],
    sizeBytes: fileSize(inputs[0]),
    questions: [instruction.trim()],
    evaluationFiles: [file, ...answers],
    sources: { instructionType, answerPosition: stringField(item, 'answer_position') },
  };
}
