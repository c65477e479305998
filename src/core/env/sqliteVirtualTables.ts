/**
 * Virtual tables of a SQLite file (`CREATE VIRTUAL TABLE … USING fts5(…)`) and the shadow tables their modules keep
 * beside them (`trips_fts_data`, `trips_fts_idx`, …). A full-text index is not data: it indexes text that a table
 * holds (its content table), or holds that text itself in its `_content` shadow table. Shadow tables are the module's
 * storage (b-tree pages as blobs, token counts, configuration); they are never loaded as data.
 */

/** The shadow tables each module keeps, by the suffix after `<virtual table>_`. */
const SHADOW_SUFFIXES: Record<string, string[]> = {
  fts3: ['content', 'segments', 'segdir', 'docsize', 'stat'],
  fts4: ['content', 'segments', 'segdir', 'docsize', 'stat'],
  fts5: ['config', 'content', 'data', 'docsize', 'idx'],
  rtree: ['node', 'parent', 'rowid'],
  rtree_i32: ['node', 'parent', 'rowid'],
  geopoly: ['node', 'parent', 'rowid'],
};

export interface VirtualTable {
  name: string;
  /** The module, lower-case (`fts5`). */
  module: string;
  /** The columns it declares, by name (options such as `content=…` and `tokenize=…` are not columns). */
  columns: string[];
  /** Its options (`content` → `trips`), by lower-case key, unquoted. */
  options: Map<string, string>;
  /** The shadow tables of this file that belong to it. */
  shadows: string[];
}

const NAME = String.raw`(?:"(?:[^"]|"")*"|\[[^\]]*\]|\x60(?:[^\x60]|\x60\x60)*\x60|'(?:[^']|'')*'|[^\s(]+)`;
const CREATE_VIRTUAL = new RegExp(String.raw`^\s*CREATE\s+VIRTUAL\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${NAME})\s+USING\s+(\w+)\s*(?:\(([\s\S]*)\))?\s*;?\s*$`, 'i');

export function unquoteName(text: string): string {
  const t = text.trim();
  if (/^".*"$/s.test(t)) return t.slice(1, -1).replace(/""/g, '"');
  if (/^'.*'$/s.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  if (/^`.*`$/s.test(t)) return t.slice(1, -1).replace(/``/g, '`');
  if (/^\[.*\]$/s.test(t)) return t.slice(1, -1);
  return t;
}

/** Splits a module's arguments at the commas outside quotes and parentheses. */
function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '[') quote = ']';
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** A `CREATE VIRTUAL TABLE` statement read: its name, module, declared columns and options; undefined for any other statement. */
export function parseVirtualTable(sql: string | null): Omit<VirtualTable, 'shadows'> | undefined {
  const match = sql ? CREATE_VIRTUAL.exec(sql) : null;
  if (!match) return undefined;
  const columns: string[] = [];
  const options = new Map<string, string>();
  for (const argument of splitArguments(match[3] ?? '')) {
    const option = /^(\w+)\s*=\s*([\s\S]*)$/.exec(argument);
    if (option) {
      options.set(option[1].toLowerCase(), unquoteName(option[2]));
      continue;
    }
    // A column: its name, then perhaps a type or UNINDEXED (fts5), never an option.
    const name = new RegExp(`^(${NAME})`).exec(argument)?.[1];
    if (name) columns.push(unquoteName(name));
  }
  return { name: unquoteName(match[1]), module: match[2].toLowerCase(), columns, options };
}

/** The virtual tables among a file's tables, each with the shadow tables the file holds for it. */
export function virtualTables(objects: Array<{ name: string; sql: string | null }>): VirtualTable[] {
  const names = new Set(objects.map((o) => o.name.toLowerCase()));
  const result: VirtualTable[] = [];
  for (const object of objects) {
    const parsed = parseVirtualTable(object.sql);
    if (!parsed) continue;
    const suffixes = SHADOW_SUFFIXES[parsed.module] ?? [];
    const shadows = suffixes.map((s) => `${parsed.name}_${s}`).filter((s) => names.has(s.toLowerCase()));
    result.push({ ...parsed, name: object.name, shadows: objects.filter((o) => shadows.some((s) => s.toLowerCase() === o.name.toLowerCase())).map((o) => o.name) });
  }
  return result;
}

export function isFullTextIndex(table: VirtualTable): boolean {
  return /^fts[345]$/.test(table.module);
}

/**
 * Where a full-text index's text is: another table of the file (`content='trips'`), none (`content=''`), or its own
 * `_content` shadow table, whose columns after the first (the rowid) are its declared columns in order.
 */
export function fullTextContent(table: VirtualTable): { kind: 'table'; table: string } | { kind: 'none' } | { kind: 'own'; shadow: string } {
  const content = table.options.get('content');
  if (content !== undefined) return content === '' ? { kind: 'none' } : { kind: 'table', table: content };
  const shadow = table.shadows.find((s) => s.toLowerCase() === `${table.name}_content`.toLowerCase());
  return shadow ? { kind: 'own', shadow } : { kind: 'none' };
}
