/**
 * Data dictionaries: the documents of a folder that describe its columns — Markdown tables of `Header |
 * Description` (with units or types), bullet lists such as "`Major_code` - Major code", and Frictionless
 * descriptors (rendered as such lists by the loader) — parsed and attached to the columns they name, within the
 * file a heading, a link or a descriptor's resource scopes them to; and codebook tables, data files whose rows
 * describe the columns of the others (`table, name, type, description`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Database } from 'sql.js';
import type { DataDocument, EnvironmentProfile, TableProfile } from '../env/types';
import { CODEBOOK_VARIABLE } from '../env/documentLoader';
import { quoteIdent } from '../text/sql';
import type { DictionaryEntry } from './types';
import { isMissingText } from './values';

const NAME_HEADER = /^(variable|variables|column|columns|column name|field|field name|fields|name|header|headers|attribute|attributename|attribute name|variable name|col|key)$/i;
const DESCRIPTION_HEADER = /(description|meaning|definition|details|explanation|label|what it is)/i;
/** The same in other languages (`Beschreibung`), after an English one where a table has both (`Descrizione | Description`). */
const OTHER_DESCRIPTION_HEADER = /(beschreibung|bedeutung|erl(ä|ae)uterung|descripci(ó|o)n|descrizione|descri(ç|c)(ã|a)o|omschrijving|beschrijving|beskrivning|beskrivelse|kuvaus|opis|popis)/i;
/** Weaker description headers, used when no strong one is there (`| Column Name | Units | Value |`). */
const WEAK_DESCRIPTION_HEADER = /^(notes?|value|values|measurement type|comment|comments)$/i;
/** Headers of a codebook's column that names each column in words (`label`, `abbr`, `display name`). */
const LABEL_HEADER = /^(label|labels|abbr|abbreviation|title|display[ _]?name|long[ _]?name|full[ _]?name|alias|variable[ _]?label)$/i;
const UNIT_HEADER = /^(units?|units? of measure(ment)?|measure unit|measurement[ _]units?|unit[ _]of[ _]measure(ment)?)$/i;
const TYPE_HEADER = /^(class|type|data type|datatype|format|storage type)$/i;

/** `Major_code` → `majorcode`: names compared without case, spaces and punctuation. */
export const normalName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A name without the number a writer added to make it unique (`full__1`, pandas' `full.1`): `full`. */
export const withoutCopyNumber = (name: string) => name.replace(/(__|\.)\d+$/, '');

/** `**name**`, `` `name` ``, `*name*` → name; underscores inside names (`totale_positivi`) are not markup. */
/** A cell or an item as text: emphasis and code marks dropped, a link kept as its words, a bare URL left out. */
const stripMarkup = (cell: string) =>
  cell
    .replace(/!?\[([^\]]*)\]\([^)]*\)?/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(/(\*\*|`|\*)(.+?)\1/g, '$2')
    .replace(/\\\|/g, '|')
    .replace(/\s{2,}/g, ' ')
    .trim();

function cells(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim());
}

/**
 * Data files a piece of text names: links (`[x](file.csv)`, a URL's last part: `…/data/kptcl.parquet`), backticked
 * or bare file names with a data extension — the extension ending the name, so `kptcl.csv.zip`, a zipped copy, names
 * no CSV.
 */
function filesNamed(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\]\(([^)]+\.(?:csv|tsv|json|jsonl|xlsx|parquet|txt|db|sqlite))\)/gi)) found.add(/^[a-z]+:\/\//i.test(m[1]) ? m[1].slice(m[1].lastIndexOf('/') + 1) : m[1]);
  for (const m of text.matchAll(/`?([\w.*-]+\.(?:csv|tsv|json|jsonl|xlsx|parquet|db|sqlite))(?![\w-]|\.\w)`?/gi)) found.add(m[1]);
  return [...found];
}

interface RawEntry extends Omit<DictionaryEntry, 'file'> {
  /** The text the entry came from, to find its line. */
  source: string;
}

/** Entries in one section's text. `scope` is the file the section's heading names, if any. */
function entriesIn(text: string, scope: string | undefined, known: ReadonlySet<string> = new Set()): RawEntry[] {
  const found: RawEntry[] = [];
  const labelledParagraphs: RawEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A Markdown table: header row, separator row, data rows; GFM lets the rows go without their outer pipes.
    const rowTest = tableRowTest(line, lines[i + 1]);
    if (rowTest) {
      const header = cells(line).map(stripMarkup);
      let nameAt = header.findIndex((h) => NAME_HEADER.test(h));
      // A header in another language (`Nome campo`): the column whose cells are the data's column names names them.
      if (nameAt < 0) nameAt = columnOfNames(lines, i + 2, header.length, known, rowTest);
      // Description columns by preference; a row takes the first that is not empty.
      const descriptionColumns = [
        ...header.map((h, at) => (at !== nameAt && DESCRIPTION_HEADER.test(h) ? at : -1)),
        ...header.map((h, at) => (at !== nameAt && !DESCRIPTION_HEADER.test(h) && OTHER_DESCRIPTION_HEADER.test(h) ? at : -1)),
        ...header.map((h, at) => (at !== nameAt && WEAK_DESCRIPTION_HEADER.test(h) ? at : -1)),
      ].filter((at) => at >= 0);
      // No header says which column describes: the one of prose (most words per cell) beside the names.
      if (descriptionColumns.length === 0 && nameAt >= 0) {
        const prose = proseColumn(lines, i + 2, header.length, nameAt, rowTest);
        if (prose >= 0) descriptionColumns.push(prose);
      }
      const descriptionAt = descriptionColumns[0] ?? -1;
      const unitAt = header.findIndex((h) => UNIT_HEADER.test(h));
      const typeAt = header.findIndex((h) => TYPE_HEADER.test(h));
      let j = i + 2;
      for (; j < lines.length && rowTest(lines[j]); j++) {
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
    // A definition list (reStructuredText, R's help pages): a column's name alone on its line, its description
    // indented below it ("pop16" / "   population above the age of 16"). Only names of the data's columns count.
    const term = /^([A-Za-z_][\w.]*)\s*$/.exec(line);
    if (term && known.has(normalName(term[1])) && /^(\s{2,}|\t)\S/.test(lines[i + 1] ?? '')) {
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && /^(\s{2,}|\t)\S/.test(lines[j]); j++) body.push(lines[j].trim());
      const entry: RawEntry = { column: term[1], description: stripMarkup(body.join(' ')), source: line };
      if (scope) entry.scope = scope;
      found.push(entry);
      i = j - 1;
      continue;
    }
    // An R help page's item (`\item{NUMBER_OF_SPAWNERS}{Total spawners or escapement count.}`, the name perhaps in
    // `\code{}`), for a column of the data.
    // An item's description may run on over the next lines (`\item{mobility}{percentage of students for whom this is
    // the first` / `year at the school}`): its lines up to the brace that closes it.
    let itemText = line;
    let itemEnd = i;
    if (/^\s*\\item\{/.test(line)) {
      const open = (t: string) => (t.match(/(?<!\\)\{/g) ?? []).length - (t.match(/(?<!\\)\}/g) ?? []).length;
      while (open(itemText) > 0 && itemEnd + 1 < lines.length && itemEnd - i < 8) itemText += ` ${lines[++itemEnd].trim()}`;
    }
    const rd = /^\s*\\item\{(?:\\code\{)?([^{}]+?)\}?\}\s*\{(.*)\}\s*$/.exec(itemText);
    if (rd && known.has(normalName(rd[1]))) {
      i = itemEnd;
      const entry: RawEntry = { column: rd[1].trim(), description: stripMarkup(rd[2].replace(/\\(code|emph|bold|strong|samp|var)\{([^{}]*)\}/g, '$2').replace(/\\%/g, '%')), source: line };
      if (scope) entry.scope = scope;
      found.push(entry);
      continue;
    }
    // A bullet: "- `name` (type, unit): description", "* **name** – description", "- name: description"; a
    // number without its point ("7 Medu - mother's education", as UCI's attribute lists write them); or a
    // numbered item: "29. `photo`: indication if a photo was taken (1) or not (0)".
    const bullet = /^\s*(?:[-*+]|\d{1,3}[.)]?)\s+(?:`([^`]+)`|\*\*([^*]+)\*\*|([A-Za-z_][\w.]*))\s*(?:\(([^)]*)\))?\s*(?::|\s[-–—=]\s|\s-\s?)\s*(.+)$/.exec(line);
    if (bullet) {
      const column = (bullet[1] ?? bullet[2] ?? bullet[3]).trim();
      const entry: RawEntry = { column, description: stripMarkup(bullet[5]), source: line };
      const qualifiers = (bullet[4] ?? '').split(',').map((q) => q.trim()).filter(Boolean);
      if (qualifiers[0]) entry.declaredType = qualifiers[0];
      if (qualifiers[1]) entry.unit = qualifiers[1];
      if (scope) entry.scope = scope;
      found.push(entry);
      continue;
    }
    // A paragraph that opens with a column's name and a colon ("EMNT: Extreme minimum temperature for the month.
    // Given in Celsius degrees."), its description running on to the blank line. Kept only where a section has three
    // or more, so a lone "Note: …" or a front matter's `title:` is no entry.
    const labelled = /^([A-Za-z_][\w.-]*)\s*:\s+(\S.*)$/.exec(line);
    // (…or a legend, one such line under another: `wdsp:  -  Mean Wind Speed (knot)` under `gmin: - Grass Minimum Temperature (C)`.)
    const underAnother = i > 0 && labelledParagraphs.length > 0 && /^([A-Za-z_][\w.-]*)\s*:\s+[-–—]\s+\S/.test(lines[i - 1]) && /^[A-Za-z_][\w.-]*\s*:\s+[-–—]\s+\S/.test(line);
    if (labelled && known.has(normalName(labelled[1])) && (i === 0 || lines[i - 1].trim() === '' || underAnother)) {
      const body = [labelled[2].trim().replace(/^[-–—]\s+/, '')];
      let j = i + 1;
      for (; j < lines.length && lines[j].trim() !== '' && j - i <= 6 && !/^([A-Za-z_][\w.-]*)\s*:\s/.test(lines[j]); j++) body.push(lines[j].trim());
      const entry: RawEntry = { column: labelled[1], description: stripMarkup(body.join(' ')), source: line };
      if (scope) entry.scope = scope;
      labelledParagraphs.push(entry);
      i = j - 1;
    }
  }
  if (labelledParagraphs.length >= 3) found.push(...labelledParagraphs);
  return found;
}

const LEADING_PIPE = (line: string) => /^\s*\|/.test(line);
const HAS_PIPE = (line: string) => line.trim() !== '' && /(?<!\\)\|/.test(line);
/** A GFM delimiter row: `---`, `:--`, `--:` cells between pipes (`--- | ---`, `|:---|---:|`). */
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Whether `line` and `next` open a Markdown table and, if so, which lines are its rows: with a leading pipe (the
 * usual form) a row starts with one; without (`field | description` over `--- | ---`, which GFM allows) a row
 * is any non-blank line with a pipe, and the delimiter row must have a pipe and as many cells as the header.
 */
function tableRowTest(line: string, next: string | undefined): ((line: string) => boolean) | undefined {
  if (next === undefined) return undefined;
  if (LEADING_PIPE(line) && /^\s*\|?\s*:?-{2,}/.test(next)) return LEADING_PIPE;
  if (HAS_PIPE(line) && HAS_PIPE(next) && DELIMITER_ROW.test(next) && cells(line).length === cells(next).length) return HAS_PIPE;
  return undefined;
}

/** The table column (of a Markdown table whose rows start at `from`) most of whose cells are column names of the data. */
function columnOfNames(lines: readonly string[], from: number, width: number, known: ReadonlySet<string>, rowTest: (line: string) => boolean): number {
  if (known.size === 0) return -1;
  const rows: string[][] = [];
  for (let j = from; j < lines.length && rowTest(lines[j]); j++) rows.push(cells(lines[j]).map(stripMarkup));
  if (rows.length < 2) return -1;
  for (let at = 0; at < width; at++) {
    const named = rows.filter((r) => r[at] && known.has(normalName(r[at]))).length;
    if (named >= 0.6 * rows.length) return at;
  }
  return -1;
}

/** The table column (other than the names) whose cells are prose: three or more words on average, most cells filled. */
function proseColumn(lines: readonly string[], from: number, width: number, nameAt: number, rowTest: (line: string) => boolean): number {
  const rows: string[][] = [];
  for (let j = from; j < lines.length && rowTest(lines[j]); j++) rows.push(cells(lines[j]).map(stripMarkup));
  if (rows.length < 2) return -1;
  let best = -1;
  let bestWords = 0;
  for (let at = 0; at < width; at++) {
    if (at === nameAt) continue;
    const filled = rows.filter((r) => (r[at] ?? '') !== '');
    if (filled.length < 0.6 * rows.length) continue;
    const words = filled.reduce((n, r) => n + r[at].split(/\s+/).length, 0) / filled.length;
    if (words >= 3 && words > bestWords) [best, bestWords] = [at, words];
  }
  return best;
}

function lineOf(raw: string | undefined, needle: string): number | undefined {
  if (!raw) return undefined;
  const at = raw.indexOf(needle.trim());
  if (at < 0) return undefined;
  let line = 1;
  for (let i = raw.indexOf('\n'); i !== -1 && i < at; i = raw.indexOf('\n', i + 1)) line++;
  return line;
}

/** A file's name without its folder and extension, lower-cased: `doc/Cigar.rst` → `cigar`. */
const stemOf = (file: string) => file.split('/').pop()!.replace(/\.[^.]+$/, '').toLowerCase();

/** Every dictionary entry of the environment's documents whose column exists in a table the entry may describe. */
/**
 * The legends files write above their tables (Met Éireann's monthly data: `wdsp:  -  Mean Wind Speed (knot)`), read
 * as a dictionary of that file's columns, three or more lines of them; a unit in brackets at the end is the unit.
 */
export function readPreambleLegends(profile: EnvironmentProfile): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  for (const table of profile.tables) {
    if (!table.preamble || table.preamble.filter((l) => l.trim() !== '').length < 3) continue;
    const known = new Set(table.columns.flatMap((c) => [normalName(c.originalName), normalName(c.name)]));
    const lines = table.preamble.map((l) => l.trim());
    for (const entry of entriesIn(lines.join('\n'), table.sourceFile, known)) {
      const { source, ...rest } = entry;
      const unit = /\(([^()]{1,12})\)\s*$/.exec(rest.description)?.[1];
      entries.push({ ...rest, file: table.sourceFile, scope: table.name, line: lines.indexOf(source) + 1, ...(unit && !rest.unit ? { unit } : {}) });
    }
  }
  return entries.filter((entry) => tablesDescribedBy(entry, profile).length > 0);
}

export function readDictionaries(documents: readonly DataDocument[], profile: EnvironmentProfile): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  const known = new Set(profile.tables.flatMap((t) => t.columns.flatMap((c) => [normalName(c.originalName), normalName(c.name), normalName(withoutCopyNumber(c.name))])));
  for (const document of documents) {
    let raw: string | undefined;
    try {
      raw = fs.readFileSync(path.join(profile.root, ...document.sourceFile.split('/')), 'utf8');
    } catch {
      raw = undefined;
    }
    // A codebook as NLS Investigator writes it (the BLS's NLSY79 and NLSY97 extracts): its own layout, read whole.
    if (raw !== undefined && NLS_CODEBOOK.test(raw)) {
      entries.push(...nlsCodebookEntries(raw, document.sourceFile));
      continue;
    }
    const descriptor = document.sourceFile.toLowerCase().endsWith('.json');
    // Acronyms are looked up in the whole document, once each (its entries repeat them: "API in 2000", "API in 1999").
    const spell = raw !== undefined ? acronymSpeller(raw) : undefined;
    // A document named as a data file is (`Cigar.rst` beside, or in a folder of documents above, `Cigar.csv`) describes that file.
    const stem = stemOf(document.sourceFile);
    // (An R help page may prefix the file's name with its group: `Puget-Sound-PSchinook2020.Rd` for `PSchinook2020.csv`.)
    // (…and an EML package names each table's attributes `attributes_soils.txt` for `soils.csv`.)
    const ownStem = stem.replace(/^(attributes?|dictionary|codebook|variables)[_-]|[_-](attributes?|dictionary|codebook|variables)$/i, '');
    const described = profile.tables.find((t) => stemOf(t.sourceFile) === stem) ?? (ownStem !== stem ? profile.tables.find((t) => stemOf(t.sourceFile) === ownStem) : undefined) ?? (/\.rd$/i.test(document.sourceFile) ? profile.tables.find((t) => stemOf(t.sourceFile).length >= 4 && stem.endsWith(`-${stemOf(t.sourceFile)}`)) : undefined);
    const sameStem = described ? `${described.sourceFile.split('/').pop()!.replace(/\.[^.]+$/, '')}.*` : undefined;
    // A heading that names a file scopes the sections under it, down to the next heading of its level or above.
    const scopes: Array<{ level: number; file: string }> = [];
    for (const section of document.sections) {
      while (scopes.length > 0 && scopes[scopes.length - 1].level >= section.level && section.level > 0) scopes.pop();
      const own = (file: string) => document.sourceFile.endsWith(file);
      // A heading names its file, or the section opens by naming one (a list of several files scopes nothing).
      const one = (files: string[]) => (new Set(files.filter((f) => !own(f))).size === 1 ? files.filter((f) => !own(f))[0] : undefined);
      const named = one(filesNamed(section.heading)) ?? (section.level > 0 ? one(filesNamed(section.text)) : undefined);
      if (named && section.level > 0) scopes.push({ level: section.level, file: named });
      const scope = scopes[scopes.length - 1]?.file ?? sameStem;
      // A section headed by a column and what it is ("### 2. O - Object (Objekt)", "## `kk`: observer number"), its
      // text saying how it is written: an entry, with the codes the text lists (`1: Sun`, `2 = Moon`).
      const headed = HEADED_COLUMN.exec(section.heading.trim());
      if (section.level > 0 && headed && known.has(normalName(headed[2])) && !/^\d+$/.test(headed[2])) {
        const codes = section.text.split(/\r?\n/).filter((l) => CODE_LINE.test(l)).length;
        const line = raw !== undefined ? lineOf(raw, section.heading.trim()) : undefined;
        entries.push({ column: headed[2], description: stripMarkup(headed[3]), file: document.sourceFile, heading: section.heading.trim(), ...(scope ? { scope } : {}), ...(line ? { line } : {}), ...(codes >= 2 ? { codes } : {}) });
      }
      // A section headed by a column's name alone, its text saying what it is in a labelled line (MEDSL's codebook:
      // "### `online_reg`" over "- **Description**: Can you register online?").
      const bare = /^(`?)([A-Za-z_][\w.]*)\1$/.exec(section.heading.trim());
      const said = bare && section.level > 0 && known.has(normalName(bare[2])) ? DESCRIPTION_LINE.exec(section.text) : null;
      if (bare && said) {
        const line = raw !== undefined ? lineOf(raw, said[0].trim()) : undefined;
        const codes = section.text.split(/\r?\n/).filter((l) => CODE_LINE.test(l) || /^\s*\|\s*`?-?\d{1,3}`?\s*\|/.test(l)).length;
        entries.push({ column: bare[2], description: stripMarkup(said[1].trim()), file: document.sourceFile, heading: section.heading.trim(), ...(scope ? { scope } : {}), ...(line ? { line } : {}), ...(codes >= 2 ? { codes } : {}) });
      }
      for (const chunk of byTableLines(tabsAsTable(section.text), profile.tables)) {
        for (const entry of entriesIn(chunk.text, chunk.table ?? scope, known)) {
          const { source, ...rest } = entry;
          const line = descriptor ? lineOf(raw, `"${entry.column}"`) : (lineOf(raw, source) ?? lineOf(raw, `${entry.column}\t`));
          const spelled = spell ? spell(rest.description) : rest.description;
          if (spelled !== rest.description) rest.spelledOut = spelled;
          entries.push({ ...rest, file: document.sourceFile, ...(line ? { line } : {}), ...(section.heading.trim() !== '' ? { heading: section.heading.trim() } : {}) });
        }
      }
    }
  }
  return entries.filter((entry) => tablesDescribedBy(entry, profile).length > 0);
}

/** The head of a variable in an NLS Investigator codebook: `R01736.00    [SAMPLE_ID]    Survey Year: 1979`. */
const NLS_CODEBOOK = /^[A-Z]\d{5}\.\d{2}\s+\[[^\]]+\]\s+Survey Year:/m;
/** The codes NLS writes for an answer it does not have, by their labels: `Refusal(-1)`, `VALID SKIP(-4)`. */
const NLS_NO_ANSWER = /\b(refusal|don'?t know|invalid skip|valid skip|non-interview)\s*\((-\d)\)/gi;

/**
 * The variables of an NLS Investigator codebook (`.cdb`), each under its reference number, which names the data's
 * column without its dot (`R01736.00` is `R0173600`): its title and the question asked ("Rate yourself from 0 to
 * 10"), the codes its table of answers labels in words (`1 CROSS MALE WHITE`, `0: 0  CONDITION DOES NOT APPLY`; a
 * scale's points labelled by their own number are no codes), and the codes for answers not had (refusal -1, don't
 * know -2, invalid skip -3, valid skip -4, non-interview -5).
 */
function nlsCodebookEntries(raw: string, file: string): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  const lines = raw.split(/\r?\n/);
  // Questions asked in several rounds (`RISK_4` in 2010, 2012, 2014): each round's column is named with its year.
  const asked = new Map<string, number>();
  for (const line of lines) {
    const name = CODEBOOK_VARIABLE.exec(line)?.[3];
    if (name) asked.set(name, (asked.get(name) ?? 0) + 1);
  }
  for (let i = 0; i < lines.length; i++) {
    const head = CODEBOOK_VARIABLE.exec(lines[i]);
    if (!head) continue;
    let end = i + 1;
    while (end < lines.length && !CODEBOOK_VARIABLE.test(lines[end])) end++;
    const body = lines.slice(i + 1, end);
    // The title: the first line of words after the variable's kind (`PRIMARY VARIABLE`); the question: the prose up
    // to its universe, its table of answers or its notes.
    const words = body.map((l) => l.trim()).filter((l) => l !== '' && !/^(PRIMARY|CREATED|SYMBOL|KEY) VARIABLE$/i.test(l));
    const title = words[0] ?? '';
    const question: string[] = [];
    for (const l of words.slice(1)) {
      if (/^(UNIVERSE|ORIGINAL QUESTION NAME|NOTE|RESPONSE CHOICE|COMMENT|ACTUAL NUMBER|Refusal\(|Min:|Lead In)/i.test(l) || /^\d+\s/.test(l) || /^-{3,}/.test(l) || /^\[/.test(l)) break;
      question.push(l);
    }
    // (`count  code label`, or `count  code: code  label`; a range, `10 TO 9999: 10+`, labels no single code.)
    const labelled = body.map((l) => /^\s*\d+\s+(-?\d+)(\s+TO\s+-?\d+)?:?\s+(?:-?\d+\s+)?([A-Za-z].*?)\s*$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const codes = labelled.length;
    const single = labelled.filter((m) => !m[2]).map((m) => `${m[1]} = ${nlsSentence(m[3].replace(/\s*\(Go To [^)]*\)\s*$/i, '').trim())}`);
    const missingCodes = [...new Set([...body.join('\n').matchAll(NLS_NO_ANSWER)].map((m) => Number(m[2])))].sort((a, b) => b - a);
    // The title as a sentence (`WILLINGNESS TO TAKE RISKS WHILE DRIVING` → "Willingness to take risks while
    // driving"), NLS's `R` the respondent it is ("R'S RACIAL/ETHNIC COHORT" → "Respondent's racial/ethnic cohort"),
    // and the survey's year where the question was asked in several rounds and the title names none: the same
    // question asked in 2010 and 2012 is two columns.
    const sentence = nlsSentence(title);
    const year = (asked.get(head[3]) ?? 0) > 1 && /^\d{4}$/.test(head[4]) && !/\b(19|20)\d\d\b/.test(sentence) ? ` in ${head[4]}` : '';
    // (A title asked as a question, "R INTERVIEWED IN 2010?", is said as what the column holds.)
    const named = sentence ? `${sentence.replace(/[?.]$/, '')}${year}` : '';
    // The answers' labels, said as a data dictionary says them ("1 = Hispanic; 2 = Black"), up to twelve.
    const answers = single.length >= 2 && single.length <= 12 ? `Codes: ${single.join('; ')}` : '';
    const description = [named, question.join(' '), answers].filter(Boolean).reduce((text, part) => (text === '' ? part : `${text}${/[.?!]$/.test(text) ? '' : '.'} ${part}`), '');
    const entry: DictionaryEntry = { column: `${head[1]}${head[2]}`, description: `${description} (${head[3]}, ${head[4]})`, file, line: i + 1, heading: head[3] };
    if (codes >= 2) entry.codes = codes;
    if (missingCodes.length > 0) entry.missingCodes = missingCodes;
    entries.push(entry);
    i = end - 1;
  }
  return entries;
}

/** An NLS title in capitals as a sentence: `R` and `R'S` the respondent, the rest in lower case after its first letter. */
function nlsSentence(title: string): string {
  if (title === '' || /[a-z]/.test(title)) return title;
  const lower = title.toLowerCase().replace(/\br's\b/g, "respondent's").replace(/\br\b/g, 'respondent');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** A heading that names a column, then says what it is: "2. O - Object (Objekt)", "`kk`: observer number". */
const HEADED_COLUMN = /^(?:\d{1,3}[a-z]?[.)]\s+)?(`?)([A-Za-z_][\w.]*)\1\s*(?:[:–—]|\s-)\s*(\S.*)$/;

/** A labelled line that says what a column is: "- **Description**: Wait time from SPAE and CCES", "Definition: …". */
const DESCRIPTION_LINE = /^\s*(?:[-*+]\s+)?\**(?:description|definition|meaning)\**\s*:\s*\**\s*(\S.*)$/im;

/**
 * A table written with tabs (EML's `attributes_soils.txt`: attributeName, attributeDefinition, class, unit, …) as a
 * Markdown table, which the reader parses: nearly every line holds the header's number of tabs. A list of codes
 * (`catvars_soils.txt`: attributeName, code, definition) describes values, not columns: left as it is.
 */
function tabsAsTable(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 3) return text;
  const width = lines[0].split('\t').length;
  if (width < 2 || lines.filter((l) => l.split('\t').length === width).length < 0.9 * lines.length) return text;
  const header = lines[0].split('\t').map((h) => h.trim());
  if (header.some((h) => /^codes?$/i.test(h))) return text;
  const row = (l: string) => `| ${l.split('\t').map((c) => c.trim().replace(/\|/g, '/')).join(' | ')} |`;
  return [row(lines[0]), `|${' --- |'.repeat(width)}`, ...lines.slice(1).map(row)].join('\n');
}

/** A line of a code list: "- 1: Sonnenhalo / Sun", "  2 = moon", "`0` – none". */
const CODE_LINE = /^\s*(?:[-*+]\s+)?`?-?\d{1,3}`?\s*(?::|=|[–—]|\s-)\s*\S/;

/** Words left out of an acronym's letters ("Department of Education" is DOE or DE). */
const ACRONYM_GLUE = /^(of|and|for|the|in|on|to|&)$/;

/**
 * What a document spells an acronym out as: a run of capitalised words whose initials are its letters ("The Academic
 * Performance Index is computed…" spells out API), small words between them left out; undefined when the document
 * does not, or spells it two ways.
 */
export function spelledOut(acronym: string, text: string): string | undefined {
  return spelledOutIn(acronym, text.split(/[^A-Za-z&'-]+/).filter(Boolean));
}

function spelledOutIn(acronym: string, words: readonly string[]): string | undefined {
  const letters = acronym.toLowerCase();
  const found = new Set<string>();
  for (let at = 0; at < words.length; at++) {
    if (!/^[A-Z][a-z]/.test(words[at]) || words[at][0].toLowerCase() !== letters[0]) continue;
    const run = [words[at]];
    let matched = 1;
    for (let next = at + 1; next < words.length && matched < letters.length; next++) {
      const w = words[next];
      if (ACRONYM_GLUE.test(w) && run.length > 0) {
        run.push(w);
        continue;
      }
      if (!/^[A-Z][a-z]/.test(w) || w[0].toLowerCase() !== letters[matched]) break;
      run.push(w);
      matched++;
    }
    if (matched === letters.length) found.add(run.join(' '));
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * A description with each acronym the document spells out followed by its words ("API in 2000" → "API (Academic
 * Performance Index) in 2000"), so what it is said to be — an index, a rate — reads in its words.
 */
export function withAcronymsSpelledOut(description: string, document: string): string {
  return acronymSpeller(document)(description);
}

/** `withAcronymsSpelledOut` for one document's many descriptions: its words split once, each acronym looked up once. */
function acronymSpeller(document: string): (description: string) => string {
  let words: string[] | undefined;
  const known = new Map<string, string | undefined>();
  return (description) =>
    description.replace(/\b[A-Z]{2,6}\b(?!\s*\()/g, (acronym) => {
      if (!known.has(acronym)) known.set(acronym, spelledOutIn(acronym, (words ??= document.split(/[^A-Za-z&'-]+/).filter(Boolean))));
      const spelled = known.get(acronym);
      return spelled && !description.toLowerCase().includes(spelled.toLowerCase()) ? `${acronym} (${spelled})` : acronym;
    });
}

/**
 * A section's text cut where a line that is no entry names one table in code or bold (`<summary>A. <b><code>Nests</code></b>
 * – a table of all nests…`, "**`Broods`**:"): the entries after it describe that table (a database's tables, each
 * with a list of its columns), up to the next such line.
 */
function byTableLines(text: string, tables: readonly TableProfile[]): Array<{ text: string; table?: string }> {
  const chunks: Array<{ text: string; table?: string }> = [{ text: '' }];
  const byKey = new Map<string, TableProfile>();
  for (const table of tables) for (const key of tableKeys(table)) if (!byKey.has(key)) byKey.set(key, table);
  for (const line of text.split(/\r?\n/)) {
    const isEntry = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/.test(line) || /^\s*\|/.test(line);
    if (!isEntry) {
      const marked = [...line.matchAll(/<code>([^<]+)<\/code>|`([^`]+)`|\*\*([^*]+)\*\*|<b>([^<]+)<\/b>/g)].map((m) => normalName(m[1] ?? m[2] ?? m[3] ?? m[4] ?? ''));
      const named = [...new Set(marked.map((k) => byKey.get(k)).filter((t): t is TableProfile => t !== undefined))];
      if (named.length === 1) {
        chunks.push({ text: '', table: named[0].name });
        continue;
      }
    }
    chunks[chunks.length - 1].text += `${line}\n`;
  }
  return chunks.filter((c) => c.text.trim() !== '');
}

/** The tables an entry may describe: its scope table, or those of its scope file (or of the document's folder), holding its column. */
export function tablesDescribedBy(entry: DictionaryEntry, profile: EnvironmentProfile): TableProfile[] {
  const wanted = normalName(entry.column);
  const namedSo = (c: TableProfile['columns'][number]) => normalName(c.originalName) === wanted || normalName(c.name) === wanted || normalName(withoutCopyNumber(c.name)) === wanted;
  const holds = (table: TableProfile) => table.columns.some(namedSo);
  // A document in a folder of no data (`docs/`, `docu/`) describes the data of the folder above; so does a codebook
  // table in a folder of documentation (`metadata/codebook_sdm_occurrence.csv` beside `sdm/…csv`), none of whose
  // tables has the column. (A table of data that looks like a codebook, in a folder of data, describes nothing above.)
  let folder = entry.file.includes('/') ? entry.file.slice(0, entry.file.lastIndexOf('/') + 1) : '';
  const documentation = (f: string) => /(^|\/)(metadata|meta|docs?|documentation|codebooks?|dictionar(y|ies)|data_?dictionar(y|ies)|schemas?)\/$/i.test(f);
  const describes = (t: TableProfile) => t.sourceFile.startsWith(folder) && (entry.codebook === undefined || !documentation(folder) || holds(t));
  while (folder !== '' && !profile.tables.some(describes)) folder = folder.slice(0, folder.slice(0, -1).lastIndexOf('/') + 1);
  // A scope that is a table's name (a codebook's row for a table, which may be a workbook sheet) is that table.
  const named = entry.scope ? profile.tables.find((t) => t.name === entry.scope) : undefined;
  if (named) return holds(named) ? [named] : [];
  const scopePattern = entry.scope ? new RegExp(`(^|/)${entry.scope.split('/').pop()!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i') : undefined;
  // A scope naming a file that is not here (a README describing the full data set of which a part was shipped)
  // is read as the folder's.
  const scoped = scopePattern && profile.tables.some((t) => t.sourceFile.startsWith(folder) && scopePattern.test(t.sourceFile)) ? scopePattern : undefined;
  return profile.tables.filter((table) => {
    if (!table.sourceFile.startsWith(folder)) return false;
    if (scoped && !scoped.test(table.sourceFile)) return false;
    return table.columns.some(namedSo);
  });
}

/** Codebooks larger than this are not read (a codebook describes columns, which are few). */
const CODEBOOK_MAX_ROWS = 5000;

const wordCount = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

/** How prose-like a column's values are: the share of its filled values of three words or more (0 when under three are filled). */
function proseShare(values: readonly string[]): number {
  const filled = values.filter((v) => v.trim() !== '');
  return filled.length < 3 ? 0 : filled.filter((v) => wordCount(v) >= 3).length / filled.length;
}

/** A table's names in normal form: its SQL name and its original name (a file's without its extension, a sheet's). */
function tableKeys(table: TableProfile): string[] {
  const base = table.originalName.split('/').pop()!.replace(/\.[A-Za-z0-9]+$/, '');
  return [...new Set([table.name, base].map(normalName))].filter(Boolean);
}

/**
 * Codebook tables: tables whose rows describe the columns of the other tables. A codebook has a name column most
 * of whose values are column names of the data and which names most of the columns of at least one other table
 * (of three columns or more), beside a column of prose (a description header first, else the most prose-like
 * column, whose values are mostly three words or more). A column of the codebook whose values name the tables
 * scopes each row to its table; columns headed like a unit or a type give units and declared types.
 */
export function readCodebookTables(db: Database, profile: EnvironmentProfile): DictionaryEntry[] {
  const entries: DictionaryEntry[] = [];
  const tables = profile.tables.filter((t) => t.kind === 'table');
  const columnsOf = new Map(tables.map((t) => [t, new Set(t.columns.flatMap((c) => [normalName(c.name), normalName(c.originalName)]))]));
  const knownColumns = new Set([...columnsOf.values()].flatMap((names) => [...names]));
  const byKey = new Map<string, TableProfile>();
  for (const table of tables) for (const key of tableKeys(table)) if (!byKey.has(key)) byKey.set(key, table);
  for (const codebook of tables) {
    const textColumns = codebook.columns.filter((c) => c.type === 'text');
    if (codebook.rowCount < 3 || codebook.rowCount > CODEBOOK_MAX_ROWS || textColumns.length < 2) continue;
    // A cheap look first: some text column's samples must be column names of the data.
    // (…or be placeholders, which a crosswalk's first rows may all be: `N/A` where an element is in no such file.)
    if (!textColumns.some((c) => c.samples.some((v) => knownColumns.has(normalName(String(v))) || (v !== null && String(v).trim() !== '' && isMissingText(String(v)))))) continue;
    let result;
    try {
      result = db.exec(`SELECT ${textColumns.map((c) => quoteIdent(c.name)).join(', ')} FROM ${quoteIdent(codebook.name)} LIMIT ${CODEBOOK_MAX_ROWS}`)[0];
    } catch {
      continue;
    }
    if (!result) continue;
    // (A crosswalk writes `N/A` where an element has no column in a file: no name, as an empty cell is none.)
    const valuesOf = (at: number) => result.values.map((row) => (row[at] === null || isMissingText(String(row[at])) ? '' : String(row[at]).trim()));
    const columns = textColumns.map((column, at) => ({ column, at, values: valuesOf(at) }));
    // The name column: the one naming most of another table's columns.
    let name: (typeof columns)[number] | undefined;
    let bestCoverage = 0;
    for (const candidate of columns) {
      const named = new Set(candidate.values.filter(Boolean).map(normalName));
      const filled = candidate.values.filter(Boolean);
      const known = filled.filter((v) => knownColumns.has(normalName(v))).length / filled.length;
      // (A codebook of the whole project may describe more tables than the folder holds, the salmon program's of 20
      // tables beside 8 files: then it must name nearly all the columns of a table that is here.)
      if (named.size < 3 || known < 0.2) continue;
      for (const [other, names] of columnsOf) {
        if (other === codebook || names.size === 0 || other.columns.length < 3) continue;
        const coverage = other.columns.filter((c) => named.has(normalName(c.originalName)) || named.has(normalName(c.name))).length / other.columns.length;
        if (coverage >= (known >= 0.5 ? 0.6 : 0.8) && coverage > bestCoverage) {
          bestCoverage = coverage;
          name = candidate;
        }
      }
    }
    if (!name) continue;
    const rest = columns.filter((c) => c !== name);
    const header = (c: (typeof columns)[number]) => c.column.originalName || c.column.name;
    const prose = rest.filter((c) => proseShare(c.values) >= 0.6);
    // Without prose, a column of labels headed as such (`abbr`: `Bulk Density` for `bd_g_cm3`, `Sand` for
    // `sand_percent`): the column's name in words, its description.
    const labels = rest.find((c) => LABEL_HEADER.test(header(c).trim()) && c.values.filter(Boolean).length >= 0.8 * c.values.length && c.values.filter((v, r) => /^[A-Za-z][A-Za-z '()/&,.-]*$/.test(v) && normalName(v) !== normalName(name.values[r] ?? '')).length >= 0.8 * c.values.length);
    const description =
      prose.find((c) => DESCRIPTION_HEADER.test(header(c))) ??
      [...prose].sort((a, b) => b.values.join(' ').length - a.values.join(' ').length)[0] ??
      labels;
    if (!description) continue;
    // A column whose values name tables of the folder (most of its distinct values).
    const scopeColumn = rest.find((c) => {
      if (c === description) return false;
      const distinct = [...new Set(c.values.filter(Boolean).map(normalName))];
      const present = distinct.filter((v) => byKey.has(v)).length;
      return distinct.length > 0 && (present >= 0.5 * distinct.length || present >= 3);
    });
    const unit = rest.find((c) => c !== description && UNIT_HEADER.test(header(c)));
    const declared = rest.find((c) => c !== description && c !== scopeColumn && TYPE_HEADER.test(header(c)));
    // The tables each value of the scope column describes: the one it names, and those whose columns are the very
    // columns its rows name (the same view saved as a workbook sheet under another name).
    const describedBy = new Map<string, TableProfile[]>();
    if (scopeColumn) {
      const namesOf = new Map<string, Set<string>>();
      scopeColumn.values.forEach((value, r) => {
        if (!value || !name.values[r]) return;
        const key = normalName(value);
        if (!namesOf.has(key)) namesOf.set(key, new Set());
        namesOf.get(key)!.add(normalName(name.values[r]));
      });
      for (const [key, names] of namesOf) {
        const sameColumns = tables.filter((t) => {
          if (t === codebook) return false;
          const own = t.columns.filter((c) => names.has(normalName(c.originalName)) || names.has(normalName(c.name))).length;
          return t.columns.length >= 3 && own >= 0.9 * t.columns.length && own >= 0.9 * names.size;
        });
        describedBy.set(key, [...new Set([...(byKey.has(key) ? [byKey.get(key)!] : []), ...sameColumns])]);
      }
    }
    for (let r = 0; r < result.values.length; r++) {
      const column = name.values[r];
      const text = description.values[r];
      if (!column || !text) continue;
      const entry: DictionaryEntry = { column, description: text, file: codebook.sourceFile, codebook: codebook.name };
      if (unit?.values[r]) entry.unit = unit.values[r];
      if (declared?.values[r]) entry.declaredType = declared.values[r];
      const described = scopeColumn ? (describedBy.get(normalName(scopeColumn.values[r])) ?? []) : [];
      if (described.length === 0) entries.push(entry);
      // Scoped by table name: the tables of one workbook share its file.
      for (const table of described) entries.push({ ...entry, scope: table.name });
    }
  }
  return entries.filter((entry) => tablesDescribedBy(entry, profile).length > 0);
}
