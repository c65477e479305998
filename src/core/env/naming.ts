/** Stable, safe, unique SQL names for tables and columns derived from file names, headers and JSON keys. */

/** Words an agent's unquoted SQL would trip over; a derived name equal to one of these gets a suffix. */
const RESERVED = new Set(
  (
    'abort action add after all alter analyze and as asc attach autoincrement before begin between by cascade case cast ' +
    'check collate column commit conflict constraint create cross current current_date current_time current_timestamp ' +
    'database default deferrable deferred delete desc detach distinct do drop each else end escape except exclusive ' +
    'exists explain fail filter for foreign from full glob group having if ignore immediate in index indexed initially ' +
    'inner insert instead intersect into is isnull join key left like limit match natural no not nothing notnull null ' +
    'of offset on or order outer over partition plan pragma primary query raise range recursive references regexp ' +
    'reindex release rename replace restrict returning right rollback row rows savepoint select set table temp ' +
    'temporary then to transaction trigger union unique update using vacuum values view virtual when where window with without'
  ).split(' '),
);

/** lower_snake identifier: `Sales Q1 (final)` → `sales_q1_final`; empty input gives `fallback`. */
export function toSnakeIdentifier(raw: string, fallback: string): string {
  let name = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) name = fallback;
  if (/^[0-9]/.test(name)) name = `t_${name}`;
  if (name.startsWith('sqlite_')) name = `x_${name}`;
  if (RESERVED.has(name)) name = `${name}_`;
  return name;
}

/** A name SQLite and an agent can use unquoted as it is. */
export function isSafeIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toLowerCase()) && !/^sqlite_/i.test(name);
}

/** Hands out unique names (case-insensitive, as SQLite compares them) in call order: `x`, `x_2`, `x_3`… */
export class NameAllocator {
  private readonly taken = new Set<string>();

  allocate(base: string): string {
    let candidate = base;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${base}_${n}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }

  has(name: string): boolean {
    return this.taken.has(name.toLowerCase());
  }
}

/** Table base name from a file path: its base name without extension, as lower_snake. */
export function tableBaseNameFromFile(relativePath: string): string {
  const base = relativePath.split('/').pop() ?? relativePath;
  const dot = base.lastIndexOf('.');
  return toSnakeIdentifier(dot > 0 ? base.slice(0, dot) : base, 'table');
}

/** Column names from header cells: snake_case, blanks become `column_N` (1-based), duplicates get `_2`, `_3`. */
export function columnNamesFromHeaders(headers: string[]): Array<{ name: string; originalName: string }> {
  const allocator = new NameAllocator();
  return headers.map((header, index) => {
    const originalName = header.trim();
    return { name: allocator.allocate(toSnakeIdentifier(originalName, `column_${index + 1}`)), originalName };
  });
}

/**
 * Table base names for files that share a base name in different folders (`domestic/carrier.csv`,
 * `international/carrier.csv`): each is qualified by the nearest folders that tell them apart
 * (`domestic_carrier`, `international_carrier`; a folder named by a number goes after: `worldcup_1930`). Files in
 * the same folder, alone with their name, or nearer the root than the others of their name keep the plain base name
 * (the allocator numbers what still collides).
 */
export function folderQualifiedBaseNames(files: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const base = tableBaseNameFromFile(file);
    names.set(file, base);
    const group = groups.get(base.toLowerCase()) ?? [];
    group.push(file);
    groups.set(base.toLowerCase(), group);
  }
  for (const group of groups.values()) {
    const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
    const segments = (folder: string) => (folder === '' ? [] : folder.split('/'));
    // The files nearest the root keep the plain name (a copy in a sub-folder, `dati-json/x.json` beside `x.csv`, is
    // the one to qualify); files as deep as each other in different folders are all qualified.
    const shallowest = Math.min(...group.map((file) => segments(folderOf(file)).length));
    const atTop = group.filter((file) => segments(folderOf(file)).length === shallowest);
    const qualified = new Set(new Set(atTop.map(folderOf)).size > 1 ? group : group.filter((file) => !atTop.includes(file)));
    const folders = [...new Set(group.map(folderOf))];
    if (folders.length < 2) continue;
    const deepest = Math.max(...folders.map((f) => segments(f).length));
    // The fewest nearest folders that tell every folder of the group apart.
    let k = 1;
    const key = (folder: string, n: number) => segments(folder).slice(-n).join('/');
    while (k < deepest && new Set(folders.map((f) => key(f, k))).size < folders.length) k++;
    for (const file of group) {
      if (!qualified.has(file)) continue;
      const near = segments(folderOf(file)).slice(-k);
      if (near.length === 0) continue;
      const base = names.get(file)!;
      const part = toSnakeIdentifier(near.join(' '), '');
      if (part === '') continue;
      names.set(file, /^t_\d/.test(part) && /^\d/.test(near[0]) ? `${base}_${part.slice(2)}` : `${part}_${base}`);
    }
  }
  return names;
}

/**
 * The original name of one of the tables a sheet stacks, each under a row that repeats the header (HMRC's
 * `Table_1_receipts` holds `Table 1a: … by financial year`, then `Table 1b: … by calendar year`): the sheet, then the
 * block's title. `stackedTableOf` reads it back.
 */
export function stackedTableName(sheet: string, title: string): string {
  return `${sheet} › ${title}`;
}

/** The sheet and the title of a stacked table's original name; undefined for any other name. */
export function stackedTableOf(originalName: string): { sheet: string; title: string } | undefined {
  const m = /^(.*) › (.*)$/.exec(originalName);
  return m ? { sheet: m[1], title: m[2] } : undefined;
}

/**
 * The short code every table of the data opens its name with (`ewf_matches`, `ewf_standings`, `ewf_appearances`: the
 * database's initials), two to four letters; undefined where the tables share none. A question calls the rows
 * "matches", and that names `ewf_matches`.
 */
export function sharedTablePrefix(tables: ReadonlyArray<{ name: string; parent?: unknown; kind: string }>): string | undefined {
  const own = tables.filter((t) => !t.parent && t.kind === 'table');
  if (own.length < 2) return undefined;
  const prefix = /^([a-z]{2,4})_[a-z]/i.exec(own[0].name)?.[1].toLowerCase();
  return prefix !== undefined && own.every((t) => t.name.toLowerCase().startsWith(`${prefix}_`) && t.name.length > prefix.length + 3) ? prefix : undefined;
}
