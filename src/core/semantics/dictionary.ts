/**
 * Data dictionaries: the documents of a folder that describe its columns — Markdown tables of `Header |
 * Description` (with units or types), bullet lists such as "`Major_code` - Major code", and Frictionless
 * descriptors (rendered as such lists by the loader) — parsed and attached to the columns they name, within the
 * file a heading, a link or a descriptor's resource scopes them to.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataDocument, EnvironmentProfile, TableProfile } from '../env/types';
import type { DictionaryEntry } from './types';

const NAME_HEADER = /^(variable|variables|column|columns|column name|field|field name|fields|name|header|headers|attribute|variable name|col|key)$/i;
const DESCRIPTION_HEADER = /(description|meaning|definition|details|explanation|label|what it is)/i;
/** Weaker description headers, used when no strong one is there (`| Column Name | Units | Value |`). */
const WEAK_DESCRIPTION_HEADER = /^(notes?|value|values|measurement type|comment|comments)$/i;
const UNIT_HEADER = /^(units?|unit of measure|measure unit)$/i;
const TYPE_HEADER = /^(class|type|data type|datatype|format|storage type)$/i;

/** `Major_code` → `majorcode`: names compared without case, spaces and punctuation. */
export const normalName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `**name**`, `` `name` ``, `*name*` → name; underscores inside names (`totale_positivi`) are not markup. */
const stripMarkup = (cell: string) => cell.replace(/(\*\*|`|\*)(.+?)\1/g, '$2').replace(/\\\|/g, '|').trim();

function cells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim());
}

/** Data files a piece of text names: links (`[x](file.csv)`), backticked or bare file names with a data extension. */
function filesNamed(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\]\(([^)]+\.(?:csv|tsv|json|jsonl|xlsx|parquet|txt|db|sqlite))\)/gi)) found.add(m[1]);
  for (const m of text.matchAll(/`?([\w.*-]+\.(?:csv|tsv|json|jsonl|xlsx|parquet|db|sqlite))`?/gi)) found.add(m[1]);
  return [...found];
}

interface RawEntry extends Omit<DictionaryEntry, 'file'> {
  /** The text the entry came from, to find its line. */
  source: string;
}

/** Entries in one section's text. `scope` is the file the section's heading names, if any. */
function entriesIn(text: string, scope: string | undefined, known: ReadonlySet<string> = new Set()): RawEntry[] {
  const found: RawEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A Markdown table: header row, separator row, data rows.
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const header = cells(line).map(stripMarkup);
      let nameAt = header.findIndex((h) => NAME_HEADER.test(h));
      // A header in another language (`Nome campo`): the column whose cells are the data's column names names them.
      if (nameAt < 0) nameAt = columnOfNames(lines, i + 2, header.length, known);
      // Description columns by preference; a row takes the first that is not empty.
      const descriptionColumns = [
        ...header.map((h, at) => (at !== nameAt && DESCRIPTION_HEADER.test(h) ? at : -1)),
        ...header.map((h, at) => (at !== nameAt && WEAK_DESCRIPTION_HEADER.test(h) ? at : -1)),
      ].filter((at) => at >= 0);
      const descriptionAt = descriptionColumns[0] ?? -1;
      const unitAt = header.findIndex((h) => UNIT_HEADER.test(h));
      const typeAt = header.findIndex((h) => TYPE_HEADER.test(h));
      let j = i + 2;
      for (; j < lines.length && /^\s*\|/.test(lines[j]); j++) {
        if (nameAt < 0 || (descriptionAt < 0 && unitAt < 0)) continue;
        const row = cells(lines[j]).map(stripMarkup);
        const column = row[nameAt];
        if (!column) continue;
        const description = descriptionColumns.map((at) => row[at] ?? '').find((text) => text !== '' && !/^(-|n\/a)$/i.test(text)) ?? '';
        const entry: RawEntry = { column, description, source: lines[j] };
        if (unitAt >= 0 && row[unitAt] && !/^(-|n\/a|none)$/i.test(row[unitAt])) entry.unit = row[unitAt];
        if (typeAt >= 0 && row[typeAt]) entry.declaredType = row[typeAt];
        if (scope) entry.scope = scope;
        if (entry.description || entry.unit) found.push(entry);
      }
      i = j - 1;
      continue;
    }
    // A bullet: "- `name` (type, unit): description", "* **name** – description", "- name: description".
    const bullet = /^\s*[-*+]\s+(?:`([^`]+)`|\*\*([^*]+)\*\*|([A-Za-z_][\w.]*))\s*(?:\(([^)]*)\))?\s*(?::|\s[-–—=]\s|\s-\s?)\s*(.+)$/.exec(line);
    if (bullet) {
      const column = (bullet[1] ?? bullet[2] ?? bullet[3]).trim();
      const entry: RawEntry = { column, description: stripMarkup(bullet[5]), source: line };
      const qualifiers = (bullet[4] ?? '').split(',').map((q) => q.trim()).filter(Boolean);
      if (qualifiers[0]) entry.declaredType = qualifiers[0];
      if (qualifiers[1]) entry.unit = qualifiers[1];
      if (scope) entry.scope = scope;
      found.push(entry);
    }
  }
  return found;
}

/** The table column (of a Markdown table whose rows start at `from`) most of whose cells are column names of the data. */
function columnOfNames(lines: readonly string[], from: number, width: number, known: ReadonlySet<string>): number {
  if (known.size === 0) return -1;
  const rows: string[][] = [];
  for (let j = from; j < lines.length && /^\s*\|/.test(lines[j]); j++) rows.push(cells(lines[j]).map(stripMarkup));
  if (rows.length < 2) return -1;
  for (let at = 0; at < width; at++) {
    const named = rows.filter((r) => r[at] && known.has(normalName(r[at]))).length;
    if (named >= 0.6 * rows.length) return at;
  }
  return -1;
}

function lineOf(raw: string | undefined, needle: string): number | undefined {
  if (!raw) return undefined;
  const at = raw.indexOf(needle.trim());
  if (at < 0) return undefined;
  let line = 1;
  for (let i = raw.indexOf('\n'); i !== -1 && i < at; i = raw.indexOf('\n', i + 1)) line++;
  return line;
}

/** Every dictionary entry of the environment's documents whose column exists in a table the entry may describe. */
export function readDictionaries(documents: readonly DataDocument[], profile: EnvironmentProfile): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  const known = new Set(profile.tables.flatMap((t) => t.columns.flatMap((c) => [normalName(c.originalName), normalName(c.name)])));
  for (const document of documents) {
    let raw: string | undefined;
    try {
      raw = fs.readFileSync(path.join(profile.root, ...document.sourceFile.split('/')), 'utf8');
    } catch {
      raw = undefined;
    }
    const descriptor = document.sourceFile.toLowerCase().endsWith('.json');
    // A heading that names a file scopes the sections under it, down to the next heading of its level or above.
    const scopes: Array<{ level: number; file: string }> = [];
    for (const section of document.sections) {
      while (scopes.length > 0 && scopes[scopes.length - 1].level >= section.level && section.level > 0) scopes.pop();
      const own = (file: string) => document.sourceFile.endsWith(file);
      // A heading names its file, or the section opens by naming one (a list of several files scopes nothing).
      const one = (files: string[]) => (new Set(files.filter((f) => !own(f))).size === 1 ? files.filter((f) => !own(f))[0] : undefined);
      const named = one(filesNamed(section.heading)) ?? (section.level > 0 ? one(filesNamed(section.text)) : undefined);
      if (named && section.level > 0) scopes.push({ level: section.level, file: named });
      const scope = scopes[scopes.length - 1]?.file;
      for (const entry of entriesIn(section.text, scope, known)) {
        const { source, ...rest } = entry;
        const line = descriptor ? lineOf(raw, `"${entry.column}"`) : lineOf(raw, source);
        entries.push({ ...rest, file: document.sourceFile, ...(line ? { line } : {}) });
      }
    }
  }
  return entries.filter((entry) => tablesDescribedBy(entry, profile).length > 0);
}

/** The tables an entry may describe: those of its scope file (or of the document's folder), holding its column. */
export function tablesDescribedBy(entry: DictionaryEntry, profile: EnvironmentProfile): TableProfile[] {
  const folder = entry.file.includes('/') ? entry.file.slice(0, entry.file.lastIndexOf('/') + 1) : '';
  const wanted = normalName(entry.column);
  const scopePattern = entry.scope ? new RegExp(`(^|/)${entry.scope.split('/').pop()!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i') : undefined;
  // A scope naming a file that is not here (a README describing the full data set of which a part was shipped)
  // is read as the folder's.
  const scoped = scopePattern && profile.tables.some((t) => t.sourceFile.startsWith(folder) && scopePattern.test(t.sourceFile)) ? scopePattern : undefined;
  return profile.tables.filter((table) => {
    if (!table.sourceFile.startsWith(folder)) return false;
    if (scoped && !scoped.test(table.sourceFile)) return false;
    return table.columns.some((c) => normalName(c.originalName) === wanted || normalName(c.name) === wanted);
  });
}
