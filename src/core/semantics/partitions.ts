/**
 * Partitions: several files of one folder with the same columns and names that differ in one part (`season-9596.csv`,
 * `Permit_data_2017.csv`, `KMDW.csv` beside `KLAX.csv`), or one such file in each of several sibling folders
 * (`2021/SG_2021_hourly.csv`, `2022/…`), are one logical dataset, split by that part. They are
 * offered to the agent as one view (`SELECT '<part>' AS <key>, * FROM …` for every file, NULL where a file lacks a
 * column), and every member table knows its partition value, so the task pool asks across files, not once per file.
 */
import type { ColumnType, EnvironmentDraft, TableProfile } from '../env/types';
import { toSnakeIdentifier } from '../env/naming';
import { quoteIdent as q } from '../text/sql';
import { COUNTRY_NAMES, MONTH_NAMES, nameTokens } from './lexicon';
import { isCompactDay } from './values';
import type { Partition } from './types';

/** Share of columns two tables must share (by name) to be parts of one dataset; a little schema drift is common. */
const MIN_SHARED_COLUMNS = 0.8;
const MIN_PARTS = 2;

const baseName = (file: string) => {
  const name = file.split('/').pop() ?? file;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
};
const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
const extensionOf = (file: string) => file.slice(file.lastIndexOf('.')).toLowerCase();

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

function commonPrefix(names: string[]): string {
  let prefix = names[0];
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

function commonSuffix(names: string[]): string {
  let suffix = names[0];
  for (const n of names) while (!n.endsWith(suffix)) suffix = suffix.slice(1);
  return suffix;
}

/**
 * The common prefix and suffix of the names, backed off so that no number is cut in two: `apc_du_2021_enriched` and
 * `apc_du_2022_enriched` share `apc_du_202`, but the part that varies is the year `2021`, not the digit `1`.
 */
function wholeNumberAffixes(names: string[]): { prefix: string; suffix: string } {
  let prefix = commonPrefix(names);
  // Nor a date written with dashes (`2025-11-29-…`, `2025-12-06-…`): the whole date varies, not its month and day.
  const cutBefore = (n: string) => /\d[-_.]?$/.test(prefix) && /^[-_.]?\d/.test(n.slice(prefix.length)) && /\d/.test(n.slice(prefix.length));
  while (prefix !== '' && names.some(cutBefore)) prefix = prefix.slice(0, -1);
  // Nor a word (`solar_residential`, `solar_commercial`, `solar_industrial` share `ial`, which is no suffix).
  const cutWord = (n: string, at: number) => /[A-Za-z]/.test(n[at - 1] ?? '') && /[A-Za-z]/.test(n[at] ?? '');
  while (prefix !== '' && names.some((n) => cutWord(n, prefix.length))) prefix = prefix.slice(0, -1);
  const rests = names.map((n) => n.slice(prefix.length));
  let suffix = commonSuffix(rests);
  const cutAfter = (n: string) => /\d$/.test(n.slice(0, n.length - suffix.length));
  while (/^\d/.test(suffix) && rests.some(cutAfter)) suffix = suffix.slice(1);
  while (suffix !== '' && rests.some((n) => cutWord(n, n.length - suffix.length))) suffix = suffix.slice(1);
  return { prefix, suffix };
}


/** Words of a file or folder name that say it holds data, not what its files vary by (`output_data/`, `raw/`). */
const GENERIC_WORDS = /^(data|file|files|part|parts|table|tables|output|input|raw|csv|json|export|exports|dump|tmp)$/i;

/** The month a word names, 0–11 (`january`, `jan`, `sept`), or -1. */
function monthIndex(word: string): number {
  return MONTH_NAMES.findIndex((m) => m === word || (word.length === 3 && m.startsWith(word)) || (word === 'sept' && m === 'september'));
}

/** The one month a name spells (`April 2025 Revenue for`, `sep_2021`): 1–12, or undefined for none or several. */
function monthOf(name: string): number | undefined {
  const found = new Set(nameTokens(name).map(monthIndex).filter((i) => i >= 0));
  return found.size === 1 ? [...found][0] + 1 : undefined;
}

/** What the varying part of the file names is, in one word. */
function keyName(values: string[], prefix: string, folder: string): string {
  if (values.every((v) => /^(1[6-9]|20|21)\d\d$/.test(v))) return 'year';
  if (values.every(isCompactDay) || values.every((v) => /^(19|20)\d\d-[01]\d-[0-3]\d$/.test(v))) return 'date';
  if (values.filter((v) => COUNTRY_NAMES.has(v.toLowerCase().replace(/[_-]+/g, ' '))).length >= 0.8 * values.length) return 'country';
  // (`gapminder_gdp_africa`, `…_asia`: the files vary by continent, whatever the name before says they hold.)
  if (values.every((v) => /^(africa|asia|europe|oceania|americas?|north[_ -]?america|south[_ -]?america|latin[_ -]?america|antarctica|australia)$/i.test(v))) return 'continent';
  if (values.every((v) => /^\d{4}$/.test(v) && (Number(v.slice(0, 2)) + 1) % 100 === Number(v.slice(2)))) return 'season';
  if (values.every((v) => /^\d{4}[-_]?\d{2}$/.test(v))) return 'month';
  // Months written as words with their year (`april_2023`, `2023-Apr`): months; a span of three months and a year
  // (`jan-mar-2018`, `oct-dec-2016`): quarters, whatever the words before them (`expenditure-over-500-`).
  const spans = values.map((v) => /^([a-z]{3,9})[-_ ](?:to[-_ ])?([a-z]{3,9})[-_ ]?((?:19|20)\d\d)$/i.exec(v));
  if (spans.every((m) => m !== null && monthIndex(m[1].toLowerCase()) >= 0 && monthIndex(m[2].toLowerCase()) >= 0)) {
    return spans.every((m) => (monthIndex(m![2].toLowerCase()) - monthIndex(m![1].toLowerCase()) + 12) % 12 === 2) ? 'quarter' : 'period';
  }
  // (…or by the month alone, where every file has the same year: `sales_jan_2020`, `sales_feb_2020`.)
  if (values.every((v) => /^[a-z]{3,9}$/i.test(v) && monthIndex(v.toLowerCase()) >= 0)) return 'month';
  if (values.every((v) => { const m = /^([a-z]{3,9})[-_ ]?((?:19|20)\d\d)$/i.exec(v) ?? /^((?:19|20)\d\d)[-_ ]?([a-z]{3,9})$/i.exec(v); return m !== null && monthIndex((/\d/.test(m[1]) ? m[2] : m[1]).toLowerCase()) >= 0; })) return 'month';
  const prefixWord = prefix.split(/[^A-Za-z]+/).filter((w) => w.length > 2).pop();
  // Capitals run into the varying part (`DENW053`, `DENW147`) are the code's own letters, not a word naming it.
  const codeLetters = prefixWord !== undefined && /^[A-Z]+$/.test(prefixWord) && /[A-Z]$/.test(prefix);
  // (A name of many words run together, `HouseFirstPrefsByCandidateByVoteTypeDownload-13745`, names the dataset, not
  // what its files vary by.)
  const compound = prefixWord !== undefined && (prefixWord.match(/[A-Z][a-z]+/g) ?? []).length >= 3;
  if (prefixWord && !codeLetters && !compound && !GENERIC_WORDS.test(prefixWord)) return toSnakeIdentifier(prefixWord.replace(/s$/i, ''), 'part');
  const folderWord = folder.split(/[^A-Za-z]+/).filter((w) => w.length > 2 && !GENERIC_WORDS.test(w)).pop();
  if (folderWord) return toSnakeIdentifier(folderWord.replace(/ies$/i, 'y').replace(/s$/i, ''), 'part');
  return 'part';
}

/** The name of a column that holds, in every member file, one value: that file's part (or the part cut short). */
function columnHoldingPart(members: readonly TableProfile[], values: readonly string[]): string | undefined {
  for (const column of members[0].columns) {
    const holds = members.every((m, i) => {
      const c = m.columns.find((x) => x.name === column.name);
      // (A file name may cut the value short: `HHWEA.csv` holds `HHWEALTH`.)
      const held = String(c?.samples[0] ?? '').trim().toLowerCase();
      const part = values[i].toLowerCase();
      return c !== undefined && c.distinctCount === 1 && c.nullFraction === 0 && held !== '' && (held === part || held.startsWith(part) || part.startsWith(held));
    });
    // (…and one value per file: `station_code` `apacpnut` in both `apacpnut2011.csv` and `apacpnut2012.csv` names the
    // station of files that also vary by year, so it names no file.)
    const held = new Set(members.map((m) => String(m.columns.find((x) => x.name === column.name)?.samples[0] ?? '').trim().toLowerCase()));
    if (holds && held.size === members.length) return toSnakeIdentifier(column.name, 'part');
  }
  return undefined;
}

/** Groups of same-schema tables from files of one folder whose names vary in one part. */
export function findPartitions(tables: readonly TableProfile[]): Array<Omit<Partition, 'view'>> {
  const candidates = tables.filter((t) => t.kind === 'table' && !t.parent && !/\.(sqlite3?|db|xlsx|xlsm)$/i.test(t.sourceFile) && t.columns.length >= 2);
  // A file alone in its folder (`2021/SG_2021_hourly.csv`, `2022/SG_2022_hourly.csv`) is grouped with the lone
  // files of its sibling folders: one folder per part.
  const inFolder = new Map<string, number>();
  for (const t of candidates) inFolder.set(`${folderOf(t.sourceFile)}\u0000${extensionOf(t.sourceFile)}`, (inFolder.get(`${folderOf(t.sourceFile)}\u0000${extensionOf(t.sourceFile)}`) ?? 0) + 1);
  const groupFolder = (t: TableProfile) => {
    const folder = folderOf(t.sourceFile);
    return folder !== '' && inFolder.get(`${folder}\u0000${extensionOf(t.sourceFile)}`) === 1 ? `${folderOf(folder)}/*` : folder;
  };
  const byFolder = new Map<string, TableProfile[]>();
  for (const t of candidates) {
    const key = `${groupFolder(t)}\u0000${extensionOf(t.sourceFile)}`;
    byFolder.set(key, [...(byFolder.get(key) ?? []), t]);
  }
  const partitions: Array<Omit<Partition, 'view'>> = [];
  for (const group of byFolder.values()) {
    const remaining = [...group].sort((a, b) => a.sourceFile.localeCompare(b.sourceFile));
    while (remaining.length >= MIN_PARTS) {
      const seed = remaining.shift()!;
      const seedColumns = new Set(seed.columns.map((c) => c.name.toLowerCase()));
      const members = [seed, ...remaining.filter((t) => jaccard(seedColumns, new Set(t.columns.map((c) => c.name.toLowerCase()))) >= MIN_SHARED_COLUMNS)];
      if (members.length < MIN_PARTS) continue;
      for (const m of members.slice(1)) remaining.splice(remaining.indexOf(m), 1);
      // Files named alike in folders per part (`2021/hourly.csv`, `2022/hourly.csv`) are named by their folders.
      const fileNames = members.map((m) => baseName(m.sourceFile));
      const byFolders = new Set(fileNames).size === 1 && groupFolder(seed).endsWith('/*');
      const names = byFolders ? members.map((m) => folderOf(m.sourceFile).split('/').pop() ?? '') : fileNames;
      const { prefix, suffix } = wholeNumberAffixes(names);
      const parts = names.map((n) => n.slice(prefix.length, n.length - suffix.length));
      // A file renamed along the way (`apc_mah_2024`, then `apc_mau_2025`) still varies by its year: each part holds
      // one year, all different, and the year is the part.
      const years = parts.map((v) => [...v.matchAll(/(?<!\d)(1[6-9]\d\d|20\d\d|21\d\d)(?!\d)/g)].map((m) => m[1]));
      // …and one named by its month and year (`April 2025 Revenue for Portal_csv`, `August 2025 Revenue For …`)
      // varies by the month: `2025-04`.
      const months = parts.map((v, i) => (years[i].length === 1 ? monthOf(v) : undefined));
      const monthly = months.every((m) => m !== undefined) ? parts.map((_, i) => `${years[i][0]}-${String(months[i]).padStart(2, '0')}`) : undefined;
      const values = monthly && new Set(monthly).size === parts.length ? monthly : years.every((y) => y.length === 1) && new Set(years.map((y) => y[0])).size === parts.length ? years.map((y) => y[0]) : parts;
      // The files must differ in one part, and the parts must be values (not whole different names of two datasets).
      if (values.some((v) => v === '') || new Set(values).size !== values.length) continue;
      // Two files are parts of one dataset only when the part is a value (a year, a number, a country); two
      // variants of one table (`raw` and `adjusted` indices) are not.
      const valueLike = values.every((v) => /^\d+([-_]\d+)?$/.test(v)) || values.every((v) => COUNTRY_NAMES.has(v.toLowerCase().replace(/[_-]+/g, ' ')));
      if (members.length < 3 && !valueLike) continue;
      const stem = (prefix + suffix).replace(/[-_. ]+$/, '').replace(/^[-_. ]+/, '');
      const folder = groupFolder(seed).replace(/\/\*$/, '');
      if (stem === '' && members.length < 3) continue;
      // Files named by nothing the names say (`HHDI.csv`, `HHSAV.csv`) may say it themselves: a column that holds
      // the file's part on every row (`INDICATOR` = `HHDI`) names what the files vary by.
      const named = keyName(values, prefix, folder);
      const key = named === 'part' ? (columnHoldingPart(members, values) ?? named) : named;
      const name = toSnakeIdentifier(stem || folder.split('/').pop() || key, 'partitioned');
      const columns: string[] = [];
      for (const m of members) for (const c of m.columns) if (!columns.includes(c.name)) columns.push(c.name);
      const drift = members.some((m) => m.columns.length !== columns.length);
      partitions.push({
        name,
        key,
        columns,
        tables: members.map((m, i) => ({ table: m.name, value: values[i], file: m.sourceFile })),
        why: `${members.length} files ${groupFolder(seed).endsWith('/*') ? `, one in each folder of ${folder || 'the data folder'},` : `of ${folder || 'the folder'}`} named ${prefix}…${suffix} with ${drift ? 'nearly ' : ''}the same columns (${columns.length}${drift ? ', some missing from some files' : ''}); the part that varies is the ${key}`,
      });
    }
  }
  return partitions;
}

/** Creates each partition's union view in the image (named `<name>_all`); a failure leaves the partition without one. */
export function addPartitionViews(draft: EnvironmentDraft, partitions: Array<Omit<Partition, 'view'>>): Partition[] {
  return partitions.map((partition) => {
    const taken = new Set(partition.columns.map((c) => c.toLowerCase()));
    const keyColumn = taken.has(partition.key) ? `source_${partition.key}` : partition.key;
    const selects = partition.tables.map(({ table, value }) => {
      const profile = draft.profile.tables.find((t) => t.name === table)!;
      const present = new Set(profile.columns.map((c) => c.name));
      const list = partition.columns.map((c) => (present.has(c) ? q(c) : `NULL AS ${q(c)}`)).join(', ');
      return `SELECT '${value.replace(/'/g, "''")}' AS ${q(keyColumn)}, ${list} FROM ${q(table)}`;
    });
    const viewName = partition.name === partition.key ? `all_${partition.key === 'country' ? 'countries' : `${partition.key}s`}` : `${partition.name}_all`;
    // The folder of the files, or the one above theirs when each part has a folder of its own.
    const folders = [...new Set(partition.tables.map((t) => folderOf(t.file)))];
    const folder = folders.length === 1 ? folders[0] : folderOf(folders[0]);
    // Each file typed its columns alone (an empty column is text); the union has the type of the files that hold values.
    const types: Record<string, ColumnType> = { [keyColumn]: 'text' };
    // By rows: a type held by 80% or more of the non-empty rows is the column's (the rest are a few files' dirt).
    for (const column of partition.columns) {
      const rowsByType = new Map<ColumnType, number>();
      for (const { table } of partition.tables) {
        const t = draft.profile.tables.find((x) => x.name === table);
        const c = t?.columns.find((x) => x.name === column);
        if (t && c && c.nullFraction < 1) rowsByType.set(c.type, (rowsByType.get(c.type) ?? 0) + t.rowCount * (1 - c.nullFraction));
      }
      const total = [...rowsByType.values()].reduce((a, b) => a + b, 0);
      const numeric = (rowsByType.get('integer') ?? 0) + (rowsByType.get('real') ?? 0);
      const [top, rows] = [...rowsByType.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['text', 0];
      types[column] = total > 0 && numeric >= 0.8 * total ? (rowsByType.has('real') ? 'real' : 'integer') : total > 0 && rows >= 0.8 * total ? top : 'text';
    }
    const made = draft.addView(viewName, selects.join(' UNION ALL '), folder ? `${folder}/` : '', filesOfView(partition.tables.length, partition.key), types);
    return typeof made === 'string' ? { ...partition } : { ...partition, view: made.name };
  });
}

/** The files of a partition by what they vary by: "yearly files", "season files", "station files", "files" (an unnamed part). */
export function partitionFiles(key: string): string {
  const adverb: Record<string, string> = { year: 'yearly', month: 'monthly', date: 'daily', day: 'daily', week: 'weekly', quarter: 'quarterly' };
  if (adverb[key]) return `${adverb[key]} files`;
  return key === 'part' ? 'files' : `${key.replace(/_/g, ' ')} files`;
}

/** Every file of a partition, in words: "both yearly files", "all 5 yearly files". */
export function allPartitionFiles(files: number, key: string): string {
  return files === 2 ? `both ${partitionFiles(key)}` : `all ${files} ${partitionFiles(key)}`;
}

/** The name a partition's union view is given in the profile (its `originalName`): "14 files, one per station". */
const filesOfView = (files: number, key: string) => `${files} files, one per ${key}`;

/** A partition's union view, read from the table alone (`filesOfView` wrote its name): its files and their key. */
export function viewOfFiles(table: { kind: string; originalName: string }): { files: number; key: string } | undefined {
  const m = table.kind === 'view' ? /^(\d+) files, one per (\w+)$/.exec(table.originalName) : null;
  return m ? { files: Number(m[1]), key: m[2] } : undefined;
}
