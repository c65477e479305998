/**
 * An independent check of what a task's evidence SQL does with each column, against labels that did not come from
 * the code that wrote the SQL: the reviewer's column labels of a public fixture. The SQL is parsed with a real SQL
 * parser (node-sql-parser, SQLite grammar), not with the generator's own conventions.
 *
 * Violations: SUM or AVG of a time or an identifier, SUM of a measure that does not add up, GROUP BY text, binary
 * or structured values, GROUP BY more than 50 values (unless it ranks or aggregates entities: an identifier with a
 * LIMIT, or inside a subquery).
 */
import { Parser } from 'node-sql-parser';

export interface ColumnMeaning {
  role: string;
  additivity?: string;
}

export type Resolver = (table: string, column: string) => ColumnMeaning | undefined;
export type DistinctCount = (table: string, column: string) => number | undefined;

export interface Violation {
  kind: 'sum-of-time' | 'sum-of-identifier' | 'sum-of-non-additive' | 'avg-of-time' | 'avg-of-identifier' | 'group-by-text' | 'group-by-many-values';
  table: string;
  column: string;
  detail: string;
}

const parser = new Parser();

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Column references under a node (not descending into subqueries). */
function columnRefs(node: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(node)) {
    for (const n of node) columnRefs(n, out);
    return out;
  }
  if (!isNode(node)) return out;
  if (node.type === 'column_ref') {
    out.push(node);
    return out;
  }
  if (node.type === 'select' || node.ast) return out;
  for (const value of Object.values(node)) columnRefs(value, out);
  return out;
}

/** The value expressions of an aggregate's argument: a CASE's results (not its conditions), else the argument. */
function aggregatedValues(arg: unknown): unknown[] {
  if (isNode(arg) && arg.type === 'case' && Array.isArray(arg.args)) return (arg.args as Node[]).map((a) => a.result);
  return [arg];
}

interface Scope {
  /** alias (or table name) → table name. */
  tables: Map<string, string>;
  only?: string;
}

function scopeOf(select: Node): Scope {
  const tables = new Map<string, string>();
  for (const from of (select.from as Node[] | null) ?? []) {
    if (typeof from.table === 'string') {
      tables.set(String(from.as ?? from.table).toLowerCase(), from.table);
      tables.set(from.table.toLowerCase(), from.table);
    }
  }
  const distinct = new Set(tables.values());
  return { tables, only: distinct.size === 1 ? [...distinct][0] : undefined };
}

function columnName(ref: Node): string {
  const c = ref.column;
  if (typeof c === 'string') return c;
  if (isNode(c) && isNode(c.expr) && typeof c.expr.value === 'string') return c.expr.value;
  return String(c);
}

function resolveTable(ref: Node, scope: Scope): string | undefined {
  if (typeof ref.table === 'string' && ref.table !== '') return scope.tables.get(ref.table.toLowerCase());
  return scope.only;
}

function visitSelects(node: unknown, nested: boolean, visit: (select: Node, nested: boolean) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) visitSelects(n, nested, visit);
    return;
  }
  if (!isNode(node)) return;
  if (node.type === 'select') {
    visit(node, nested);
    for (const [key, value] of Object.entries(node)) visitSelects(value, key !== '_next' ? true : nested, visit);
    return;
  }
  for (const value of Object.values(node)) visitSelects(value, nested, visit);
}

/** Walks every aggregate call (name, argument) of a node, not descending into subqueries. */
function aggregates(node: unknown, visit: (name: string, arg: unknown) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) aggregates(n, visit);
    return;
  }
  if (!isNode(node) || node.type === 'select') return;
  if (node.type === 'aggr_func' && typeof node.name === 'string') {
    const args = node.args as Node | undefined;
    visit(node.name.toUpperCase(), args?.expr);
  }
  for (const value of Object.values(node)) aggregates(value, visit);
}

/** The violations of one SQL statement; throws when the statement does not parse. */
export function meaningViolations(sql: string, meaning: Resolver, distinct: DistinctCount): Violation[] {
  // SQLite's grammar in the parser lacks some of what SQLite runs (OVER (ORDER BY …)); PostgreSQL's reads those.
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'sqlite' });
  } catch {
    ast = parser.astify(sql, { database: 'postgresql' });
  }
  const violations: Violation[] = [];
  visitSelects(ast, false, (select, nested) => {
    const scope = scopeOf(select);
    const limit = isNode(select.limit) && Array.isArray(select.limit.value) ? Number((select.limit.value[0] as Node | undefined)?.value) : undefined;
    aggregates([select.columns, select.having, select.orderby], (name, arg) => {
      if (name !== 'SUM' && name !== 'AVG') return;
      for (const value of aggregatedValues(arg)) {
        // Only a bare column is checked: SUM(quantity * price) is revenue, whatever its factors are.
        if (!isNode(value) || value.type !== 'column_ref') continue;
        const table = resolveTable(value, scope);
        const column = columnName(value);
        const m = table ? meaning(table, column) : undefined;
        if (!m || !table) continue;
        const fn = name.toLowerCase() as 'sum' | 'avg';
        if (m.role === 'time') violations.push({ kind: `${fn}-of-time`, table, column, detail: `${name}(${column})` });
        else if (m.role === 'identifier') violations.push({ kind: `${fn}-of-identifier`, table, column, detail: `${name}(${column})` });
        else if (fn === 'sum' && m.role === 'measure' && m.additivity === 'non-additive') violations.push({ kind: 'sum-of-non-additive', table, column, detail: `SUM(${column})` });
      }
    });
    const groupBy = isNode(select.groupby) ? (select.groupby.columns as unknown[]) : Array.isArray(select.groupby) ? select.groupby : [];
    for (const ref of columnRefs(groupBy)) {
      const table = resolveTable(ref, scope);
      const column = columnName(ref);
      if (!table) continue;
      const m = meaning(table, column);
      const ranking = limit !== undefined && limit <= 10;
      if (m && (m.role === 'text' || m.role === 'binary' || m.role === 'structured')) violations.push({ kind: 'group-by-text', table, column, detail: `GROUP BY ${column} (${m.role})` });
      const n = distinct(table, column);
      if (n !== undefined && n > 50 && !(m?.role === 'identifier' && (ranking || nested))) violations.push({ kind: 'group-by-many-values', table, column, detail: `GROUP BY ${column} (${n} values)` });
    }
  });
  return violations;
}

/** The SQL queries a Python step reads (`query = "SELECT …"` or `sql("SELECT …")`). */
export function pythonQueries(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(?:query\s*=\s*|sql\(\s*)("(?:[^"\\]|\\.)*")/g)) {
    try {
      found.push(JSON.parse(m[1]) as string);
    } catch {
      // not a plain string literal
    }
  }
  return found;
}
