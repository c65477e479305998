/**
 * The cross-join guard: a query that pairs every row of one large table with every row of another, with nothing
 * linking them, is answered at once with an error that says so, instead of running into the timeout (a 5,000 ×
 * 3,376-row product grouped in sql.js takes ~19 s). A join written without its ON is the most common way agents
 * get there; the error names the tables and the number of combinations, so the next step can repair it.
 *
 * SQLite's own plan decides what is a full scan: `EXPLAIN QUERY PLAN` lists one `SCAN x` per table read in full
 * and `SEARCH x …` for one reached through a key (an equality join gets an automatic index, so only a join with
 * no usable condition shows two scans in one loop nest). The guard only refuses when, in addition, the query text
 * compares no two columns at all (no ON, no USING, no `a.x = b.y` in a WHERE): a range join or any other linked
 * query runs as written, however large.
 */

/** Combinations (the product of the fully scanned tables' rows in one loop nest) from which the guard refuses. */
export const CROSS_JOIN_LIMIT = 5_000_000;

/** One row of `EXPLAIN QUERY PLAN`: its id, its parent's id and the detail text. */
export interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

export interface CrossJoin {
  tables: Array<{ name: string; rows: number }>;
  combinations: number;
}

/**
 * The unlinked product this plan would build, or undefined. `rowsOf` gives a table's row count (undefined for a
 * name that is no table, e.g. a CTE or subquery). Pure.
 */
export function unlinkedCrossJoin(query: string, plan: readonly PlanRow[], rowsOf: (table: string) => number | undefined, limit = CROSS_JOIN_LIMIT): CrossJoin | undefined {
  if (comparesColumns(query)) return undefined;
  const aliases = tableAliases(query);
  const seen = new Map<string, number>();
  const nests = new Map<number, Array<{ name: string; rows: number }>>();
  for (const row of plan) {
    const scan = /^SCAN (?:"((?:[^"]|"")+)"|(\S+))/.exec(row.detail);
    if (!scan) continue;
    const alias = (scan[1] !== undefined ? scan[1].replace(/""/g, '"') : scan[2]).toLowerCase();
    // One alias may name different tables in different subqueries (t0 in each branch of a UNION): the plan lists
    // the subqueries in the order they are written, so the k-th scan of an alias is its k-th appearance.
    const k = seen.get(alias) ?? 0;
    seen.set(alias, k + 1);
    const candidates = aliases.get(alias);
    const table = candidates ? candidates[Math.min(k, candidates.length - 1)] : alias;
    const rows = rowsOf(table);
    if (rows === undefined) continue;
    nests.set(row.parent, [...(nests.get(row.parent) ?? []), { name: table, rows }]);
  }
  for (const tables of nests.values()) {
    if (tables.length < 2) continue;
    const combinations = tables.reduce((product, t) => product * t.rows, 1);
    if (combinations >= limit) return { tables, combinations };
  }
  return undefined;
}

/** The error an agent sees for a refused cross join. */
export function crossJoinMessage(join: CrossJoin): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const tables = join.tables.map((t) => `${t.name} (${count(t.rows)} rows)`);
  const listed = tables.length === 2 ? `every row of ${tables[0]} with every row of ${tables[1]}` : `every row of ${tables.slice(0, -1).join(', ')} and ${tables[tables.length - 1]} with each other`;
  return `the query pairs ${listed}: ${count(join.combinations)} combinations, because no condition links the tables; add the join condition (JOIN … ON a.key = b.key) and run it again`;
}

const NAME = String.raw`(?:"(?:[^"]|"")+"|\`[^\`]+\`|\[[^\]]+\]|[A-Za-z_][\w$]*)`;
const KEYWORDS = new Set(['on', 'using', 'where', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'outer', 'group', 'order', 'limit', 'having', 'window', 'union', 'except', 'intersect', 'as', 'select']);

function unquote(name: string): string {
  if (name.startsWith('"')) return name.slice(1, -1).replace(/""/g, '"');
  if (name.startsWith('`') || name.startsWith('[')) return name.slice(1, -1);
  return name;
}

/** Text with string literals and comments blanked, so no keyword or name is read out of them. */
function codeOnly(query: string): string {
  return query.replace(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g, "''");
}

/** alias or table name (lower case) → the tables it names, in the order written (`FROM t [AS] a`, `JOIN …`, `, …`). */
function tableAliases(query: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, table: string) => found.set(name.toLowerCase(), [...(found.get(name.toLowerCase()) ?? []), table]);
  // A name followed by `.` or `(` is a column or a function (`SELECT a.x, f(y)`), not a table.
  const pattern = new RegExp(String.raw`(?:\bFROM|\bJOIN|,)\s+(${NAME})(?!\s*[.(])(?:\s+(?:AS\s+)?(${NAME}))?`, 'gi');
  for (const m of codeOnly(query).matchAll(pattern)) {
    const table = unquote(m[1]);
    const alias = m[2] && !KEYWORDS.has(unquote(m[2]).toLowerCase()) ? unquote(m[2]) : table;
    add(alias, table);
  }
  return found;
}

/** Whether the query has ON or USING, or compares two column references (`a.x = b.y`, `x < y`) anywhere. */
function comparesColumns(query: string): boolean {
  const code = codeOnly(query);
  if (/\b(?:ON|USING)\b/i.test(code)) return true;
  const operand = String.raw`${NAME}(?:\s*\.\s*${NAME})?`;
  const comparison = new RegExp(String.raw`(${operand})\s*(?:=|==|<>|!=|<=|>=|<|>|\bBETWEEN\b|\bIS\b)\s*(${operand})`, 'gi');
  for (const m of code.matchAll(comparison)) {
    const isColumn = (text: string) => !/^(?:NULL|TRUE|FALSE|NOT|AND|OR|CURRENT_DATE|CURRENT_TIME|CURRENT_TIMESTAMP)$/i.test(text.trim());
    if (isColumn(m[1]) && isColumn(m[2])) return true;
  }
  return false;
}
