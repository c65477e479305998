/**
 * The simulated agent's mistakes, in the error taxonomy of DIN-SQL's error analysis (Pourreza & Rafiei, "DIN-SQL:
 * Decomposed In-Context Learning of Text-to-SQL with Self-Correction", NeurIPS 2023, arXiv:2304.11015, §3): schema
 * linking, JOIN, GROUP BY, queries with nesting and set operations, invalid SQL, and miscellaneous (which holds the
 * wrong aggregations, date formats, NULL handling and integer division that later studies, e.g. Shen et al. 2025,
 * "A Study of In-Context-Learning-Based Text-to-SQL Errors", arXiv:2501.09310, count as types of their own).
 * Character typos are a rare class of their own; Python slips (NameError, TypeError) another. Each mutation
 * rewrites the real code, so the call fails in the sandbox or silently gives a wrong result; it never writes a
 * literal value the correct code does not hold (a slip is never an invented number). Undefined where it does not apply.
 */
import { weightedPick } from './random';
import { escapeRegExp } from '../text/regex';
import { quoteIdent } from '../text/sql';

export type ErrorCategory = 'schema_linking' | 'join' | 'group_by' | 'nested' | 'invalid_sql' | 'miscellaneous' | 'typo' | 'python';

export const ERROR_CATEGORIES: Record<ErrorCategory, string> = {
  schema_linking: 'schema linking (a plausible but wrong table or column from the schema)',
  join: 'JOIN (wrong join key, missing join condition)',
  group_by: 'GROUP BY (missing or wrong grouping, WHERE for HAVING)',
  nested: 'queries with nesting and set operations',
  invalid_sql: 'invalid SQL (the statement does not run)',
  miscellaneous: 'miscellaneous (aggregation, date format, NULL handling, integer division, comparison)',
  typo: 'character typo in a name (rare)',
  python: 'Python slips (NameError, TypeError)',
};

export const TAXONOMY_SOURCE = 'DIN-SQL error analysis (Pourreza & Rafiei 2023, arXiv:2304.11015 §3)';

export type MistakeKind =
  | 'wrong_column'
  | 'wrong_table'
  | 'wrong_join_key'
  | 'missing_join_condition'
  | 'missing_group_by'
  | 'wrong_group_by'
  | 'where_instead_of_having'
  | 'nested_query'
  | 'ambiguous_column'
  | 'wrong_aggregate'
  | 'date_format'
  | 'null_handling'
  | 'integer_division'
  | 'comparison_boundary'
  | 'misspelled_name'
  | 'python_name_error'
  | 'python_type_error'
  | 'premature_answer';

export const CATEGORY_OF: Record<MistakeKind, ErrorCategory | 'answer'> = {
  wrong_column: 'schema_linking',
  wrong_table: 'schema_linking',
  wrong_join_key: 'join',
  missing_join_condition: 'join',
  missing_group_by: 'group_by',
  wrong_group_by: 'group_by',
  where_instead_of_having: 'group_by',
  nested_query: 'nested',
  ambiguous_column: 'invalid_sql',
  wrong_aggregate: 'miscellaneous',
  date_format: 'miscellaneous',
  null_handling: 'miscellaneous',
  integer_division: 'miscellaneous',
  comparison_boundary: 'miscellaneous',
  misspelled_name: 'typo',
  python_name_error: 'python',
  python_type_error: 'python',
  premature_answer: 'answer',
};

/** What the model "remembers" of the schema: tables and their columns (from the summary and describe_table). */
export interface SchemaView {
  tables: Array<{ name: string; columns: Array<{ name: string; type: string }> }>;
}

/** How a model's slips lean: per-category multipliers (model size, forgotten schema), and kinds not to make. */
export interface MistakeWeights {
  categories?: Partial<Record<ErrorCategory, number>>;
  avoid?: MistakeKind[];
}

/** A plausible typo: drop an inner vowel, else swap two inner letters, else drop the last letter. */
export function misspell(name: string, random: () => number): string {
  const vowels = [...name].map((ch, i) => ({ ch, i })).filter(({ ch, i }) => /[aeiou]/i.test(ch) && i > 0 && i < name.length - 1);
  if (vowels.length) {
    const { i } = vowels[Math.floor(random() * vowels.length)];
    return name.slice(0, i) + name.slice(i + 1);
  }
  if (name.length >= 4) {
    const i = 1 + Math.floor(random() * (name.length - 3));
    return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
  }
  return name.length > 1 ? name.slice(0, -1) : `${name}x`;
}

/** Occurrences of an identifier in SQL, quoted ("name") or bare (word-bounded), outside string literals. */
export function identifierPattern(name: string): RegExp {
  return new RegExp(`${escapeRegExp(quoteIdent(name))}|(?<![\\w'."])${escapeRegExp(name)}(?![\\w'"])`, 'g');
}

function replaceIdentifier(sql: string, from: string, to: string, onlyFirst: boolean): string | undefined {
  let done = false;
  const out = sql.replace(identifierPattern(from), (match) => {
    if (onlyFirst && done) return match;
    done = true;
    return match.startsWith('"') ? quoteIdent(to) : to;
  });
  return out === sql ? undefined : out;
}

/** Schema tables a piece of SQL names. */
export const usedTables = (sql: string, schema: SchemaView) => schema.tables.filter((t) => identifierPattern(t.name).test(sql));

function columnsIn(sql: string, schema: SchemaView): Array<{ table: string; column: string; type: string }> {
  const found: Array<{ table: string; column: string; type: string }> = [];
  const seen = new Set<string>();
  for (const t of usedTables(sql, schema)) {
    for (const c of t.columns) {
      if (seen.has(c.name) || !identifierPattern(c.name).test(sql)) continue;
      seen.add(c.name);
      found.push({ table: t.name, column: c.name, type: c.type });
    }
  }
  return found;
}

const parts = (name: string) => new Set(name.split(/[_\s]+|(?<=[a-z])(?=[A-Z])/).map((p) => p.toLowerCase()).filter((p) => p.length > 1));

/** Table aliases: `FROM orders o`, `JOIN "customers" AS c` (each table is its own alias too). */
function aliases(sql: string, schema: SchemaView): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+("[^"]+"|\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const table = m[1].replace(/^"|"$/g, '');
    const alias = m[2];
    if (!schema.tables.some((t) => t.name === table)) continue;
    out.set(table, table);
    if (alias && !/^(WHERE|JOIN|LEFT|INNER|ON|GROUP|ORDER|LIMIT|USING|CROSS|AS)$/i.test(alias)) out.set(alias, table);
  }
  return out;
}

const columnsOf = (schema: SchemaView, table: string) => schema.tables.find((t) => t.name === table)?.columns ?? [];
const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)];
const unquote = (s: string) => s.replace(/^"|"$/g, '');

type Mutation = (code: string, schema: SchemaView, random: () => number) => string | undefined;

const sqlMutations: Partial<Record<MistakeKind, Mutation>> = {
  // Schema linking: a column the schema has in another table whose name shares a word with the right one
  // (fails: no such column), else a same-typed sibling in the same table (silently wrong).
  wrong_column(sql, schema, random) {
    const cols = columnsIn(sql, schema);
    if (!cols.length) return undefined;
    const { table, column, type } = pick(cols, random);
    const used = new Set(usedTables(sql, schema).map((t) => t.name));
    const mine = parts(column);
    const own = new Set(columnsOf(schema, table).map((c) => c.name));
    const candidates = schema.tables
      .filter((t) => !used.has(t.name))
      .flatMap((t) => t.columns.filter((c) => !own.has(c.name)).map((c) => ({ name: c.name, score: [...parts(c.name)].filter((p) => mine.has(p)).length + (c.type === type ? 0.5 : 0) })))
      .filter((x) => x.score >= 1)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    const siblings = columnsOf(schema, table).filter((c) => c.name !== column && c.type === type && !identifierPattern(c.name).test(sql));
    const to = candidates[0]?.name ?? (siblings.length ? pick(siblings, random).name : undefined);
    return to ? replaceIdentifier(sql, column, to, false) : undefined;
  },
  // Schema linking: the table with the most similar columns and name.
  wrong_table(sql, schema, random) {
    const used = usedTables(sql, schema);
    if (!used.length) return undefined;
    const from = pick(used, random);
    const others = schema.tables.filter((t) => !used.includes(t));
    if (!others.length) return undefined;
    const mine = new Set(from.columns.map((c) => c.name));
    const score = (t: SchemaView['tables'][number]) => t.columns.filter((c) => mine.has(c.name)).length + [...parts(t.name)].filter((p) => parts(from.name).has(p)).length;
    const to = [...others].sort((a, b) => score(b) - score(a) || a.name.localeCompare(b.name))[0];
    return replaceIdentifier(sql, from.name, to.name, false);
  },
  // JOIN: the right table joined on another of its (key-like) columns.
  wrong_join_key(sql, schema, random) {
    const m = /\bON\s+(\w+)\.("[^"]+"|\w+)\s*=\s*(\w+)\.("[^"]+"|\w+)/i.exec(sql);
    if (!m) return undefined;
    const table = aliases(sql, schema).get(m[3]);
    if (!table) return undefined;
    const right = unquote(m[4]);
    const options = columnsOf(schema, table).filter((c) => c.name !== right);
    if (!options.length) return undefined;
    const keyish = options.filter((c) => /id$|_id|key|code/i.test(c.name));
    const to = pick(keyish.length ? keyish : options, random).name;
    const start = m.index + m[0].length - m[4].length;
    return sql.slice(0, start) + (m[4].startsWith('"') ? quoteIdent(to) : to) + sql.slice(start + m[4].length);
  },
  // JOIN: the ON condition left out (SQLite makes a cross join).
  missing_join_condition(sql) {
    const out = sql.replace(/(\bJOIN\s+(?:"[^"]*"|\w+)(?:\s+AS\s+\w+|\s+(?!ON\b)\w+)?)\s+ON\s+[\s\S]+?(?=\s+(?:WHERE|GROUP|ORDER|LIMIT|HAVING|JOIN|LEFT|INNER)\b|\s*\)|\s*$)/i, '$1');
    return out === sql ? undefined : out;
  },
  missing_group_by(sql) {
    if ((sql.match(/\bSELECT\b/gi) ?? []).length > 1) return undefined;
    const out = sql.replace(/\s+GROUP\s+BY\s+[\s\S]+?(?=\s+(?:ORDER|LIMIT|HAVING)\b|\s*$)/i, '');
    return out === sql ? undefined : out;
  },
  wrong_group_by(sql, schema, random) {
    const m = /\bGROUP\s+BY\s+(?:(\w+)\.)?("[^"]+"|\w+)/i.exec(sql);
    if (!m) return undefined;
    const column = unquote(m[2]);
    const owner = columnsIn(sql, schema).find((c) => c.column === column);
    if (!owner) return undefined;
    const options = columnsOf(schema, owner.table).filter((c) => c.name !== column && c.type === owner.type && !/id$/i.test(c.name));
    if (!options.length) return undefined;
    const to = pick(options, random).name;
    const start = m.index + m[0].length - m[2].length;
    return sql.slice(0, start) + (m[2].startsWith('"') ? quoteIdent(to) : to) + sql.slice(start + m[2].length);
  },
  // GROUP BY: an aggregate condition written in WHERE ("misuse of aggregate").
  where_instead_of_having(sql) {
    if ((sql.match(/\bSELECT\b/gi) ?? []).length > 1 || /\bWHERE\b/i.test(sql)) return undefined;
    const m = /(\s+GROUP\s+BY\s+[\s\S]+?)\s+HAVING\s+([\s\S]+?)(?=\s+(?:ORDER|LIMIT)\b|\s*$)/i.exec(sql);
    if (!m) return undefined;
    return sql.slice(0, m.index) + ` WHERE ${m[2]}${m[1]}` + sql.slice(m.index + m[0].length);
  },
  // Nesting: the inner query's membership test or aggregate turned around.
  nested_query(sql) {
    const membership = /\b(NOT\s+)?(IN|EXISTS)\s*\(\s*SELECT\b/i.exec(sql);
    if (membership) {
      const replacement = membership[1] ? membership[2] : `NOT ${membership[2]}`;
      return sql.slice(0, membership.index) + replacement + sql.slice(membership.index + (membership[1] ?? '').length + membership[2].length);
    }
    const inner = /\(\s*SELECT\b/i.exec(sql) ?? /\bWITH\b[\s\S]*?\bAS\s*\(/i.exec(sql);
    if (!inner) return undefined;
    const swaps: Record<string, string> = { AVG: 'MAX', SUM: 'MAX', MIN: 'MAX', MAX: 'MIN', COUNT: 'SUM' };
    const agg = /\b(AVG|SUM|MIN|MAX|COUNT)\s*\(/i.exec(sql.slice(inner.index));
    if (!agg) return undefined;
    const at = inner.index + agg.index;
    return sql.slice(0, at) + swaps[agg[1].toUpperCase()] + sql.slice(at + agg[1].length);
  },
  // Invalid SQL: a column two joined tables share, written without its alias ("ambiguous column name").
  ambiguous_column(sql, schema) {
    const map = aliases(sql, schema);
    const tables = [...new Set(map.values())];
    if (tables.length < 2) return undefined;
    for (const m of sql.matchAll(/\b(\w+)\.("[^"]+"|\w+)/g)) {
      if (!map.has(m[1])) continue;
      const column = unquote(m[2]);
      const holders = tables.filter((t) => columnsOf(schema, t).some((c) => c.name === column));
      if (holders.length >= 2) return sql.slice(0, m.index!) + m[2] + sql.slice(m.index! + m[0].length);
    }
    return undefined;
  },
  wrong_aggregate(sql) {
    const distinct = /\bCOUNT\s*\(\s*DISTINCT\s+/i.exec(sql);
    if (distinct) return sql.slice(0, distinct.index) + 'COUNT(' + sql.slice(distinct.index + distinct[0].length);
    const swaps: Record<string, string> = { AVG: 'SUM', SUM: 'AVG', MIN: 'MAX', MAX: 'MIN' };
    const match = /\b(AVG|SUM|MIN|MAX)\s*\(/i.exec(sql);
    if (!match) return undefined;
    const from = match[1].toUpperCase();
    return sql.replace(new RegExp(`\\b${from}(\\s*\\()`, 'gi'), `${swaps[from]}$1`);
  },
  // Date format: strftime's text compared with a number (SQLite never finds text equal to an integer).
  date_format(sql) {
    const m = /(strftime\s*\(\s*'[^']+'\s*,[^)]*\)\s*(?:=|<>|!=|>=|<=|>|<)\s*)'(\d+)'/i.exec(sql);
    if (!m) return undefined;
    return sql.slice(0, m.index) + m[1] + m[2] + sql.slice(m.index + m[0].length);
  },
  // NULL handling: the IS NOT NULL guard dropped, or COUNT(column) counted as COUNT(*).
  null_handling(sql) {
    const guard = /\s+AND\s+(?:\w+\.)?(?:"[^"]+"|\w+)\s+IS\s+NOT\s+NULL\b|(?<=\bWHERE\s+)(?:\w+\.)?(?:"[^"]+"|\w+)\s+IS\s+NOT\s+NULL\s+AND\s+/i.exec(sql);
    if (guard) return sql.slice(0, guard.index) + sql.slice(guard.index + guard[0].length);
    const count = /\bCOUNT\s*\(\s*(?!DISTINCT\b|\*)(?:\w+\.)?(?:"[^"]+"|\w+)\s*\)/i.exec(sql);
    if (count) return sql.slice(0, count.index) + 'COUNT(*)' + sql.slice(count.index + count[0].length);
    return undefined;
  },
  // Integer division: the REAL cast or the 100.0 factor written as an integer.
  integer_division(sql) {
    const cast = /CAST\s*\(\s*([^()]+?)\s+AS\s+REAL\s*\)/i.exec(sql);
    if (cast) return sql.slice(0, cast.index) + cast[1] + sql.slice(cast.index + cast[0].length);
    const factor = /\b(\d+)\.0\s*\*/.exec(sql);
    if (factor && /\//.test(sql)) return sql.slice(0, factor.index) + `${factor[1]} *` + sql.slice(factor.index + factor[0].length);
    return undefined;
  },
  // A boundary read the other way: > for >=.
  comparison_boundary(sql) {
    const comparison = /(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)/.exec(sql);
    if (!comparison) return undefined;
    const flip: Record<string, string> = { '>=': '>', '<=': '<', '>': '>=', '<': '<=' };
    return sql.slice(0, comparison.index) + `${flip[comparison[1]]} ${comparison[2]}` + sql.slice(comparison.index + comparison[0].length);
  },
  misspelled_name(sql, schema, random) {
    const cols = columnsIn(sql, schema);
    if (!cols.length) return undefined;
    const { column } = pick(cols, random);
    return replaceIdentifier(sql, column, misspell(column, random), true);
  },
};

const PYTHON_KEYWORDS = new Set(['print', 'len', 'sum', 'zip', 'float', 'int', 'round', 'range', 'sql', 'tuple', 'dict', 'list', 'isinstance', 'for', 'in', 'if', 'else', 'import', 'return', 'def', 'and', 'or', 'not']);

const pythonMutations: Partial<Record<MistakeKind, Mutation>> = {
  python_name_error(code, _schema, random) {
    const lines = code.split('\n');
    const tokens = new Set(code.match(/[A-Za-z_]\w*/g) ?? []);
    const uses: Array<{ name: string; line: number }> = [];
    lines.forEach((text, i) => {
      const name = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(text)?.[1];
      if (!name || PYTHON_KEYWORDS.has(name)) return;
      for (let j = i + 1; j < lines.length; j++) {
        if (/\bsql\(/.test(lines[j])) continue;
        if (new RegExp(`\\b${name}\\b`).test(lines[j])) {
          uses.push({ name, line: j });
          return;
        }
      }
    });
    if (!uses.length) return undefined;
    const { name, line } = pick(uses, random);
    let typo = name.endsWith('s') && name.length > 2 ? name.slice(0, -1) : `${name}s`;
    if (tokens.has(typo)) typo = misspell(name, random);
    if (tokens.has(typo) || typo === name) typo = `${name}_val`;
    lines[line] = lines[line].replace(new RegExp(`\\b${name}\\b`), typo);
    return lines.join('\n');
  },
  python_type_error(code) {
    const lines = code.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (/sql\(/.test(lines[i])) continue;
      const match = /([,(*/+-]\s*|\*\*\s*)(\d+(?:\.\d+)?)(?=\s*[),\s]|$)/.exec(lines[i]);
      if (match) {
        lines[i] = lines[i].slice(0, match.index) + `${match[1]}'${match[2]}'` + lines[i].slice(match.index + match[0].length);
        return lines.join('\n');
      }
    }
    return undefined;
  },
};

/** How often each slip happens relative to the others, before the model's and the context's multipliers. */
const SQL_WEIGHTS: Array<{ item: MistakeKind; weight: number }> = [
  { item: 'wrong_column', weight: 4 },
  { item: 'wrong_table', weight: 1.5 },
  { item: 'wrong_join_key', weight: 2.5 },
  { item: 'missing_join_condition', weight: 1 },
  { item: 'missing_group_by', weight: 1.2 },
  { item: 'wrong_group_by', weight: 1.2 },
  { item: 'where_instead_of_having', weight: 1 },
  { item: 'nested_query', weight: 2 },
  { item: 'ambiguous_column', weight: 1.5 },
  { item: 'wrong_aggregate', weight: 1.5 },
  { item: 'date_format', weight: 2 },
  { item: 'null_handling', weight: 1.2 },
  { item: 'integer_division', weight: 2 },
  { item: 'comparison_boundary', weight: 1 },
  { item: 'misspelled_name', weight: 0.5 },
];
const PYTHON_WEIGHTS: Array<{ item: MistakeKind; weight: number }> = [
  { item: 'python_name_error', weight: 3 },
  { item: 'python_type_error', weight: 2 },
];

/**
 * Applies one seeded mistake to a tool's code, choosing among the kinds that apply, weighted by how often each
 * happens and by the model's category multipliers. Returns undefined when nothing applies.
 */
export function applyMistake(tool: 'run_sql' | 'run_python', code: string, schema: SchemaView, random: () => number, weights: MistakeWeights = {}): { kind: MistakeKind; category: ErrorCategory; code: string } | undefined {
  const base = tool === 'run_python' ? PYTHON_WEIGHTS : SQL_WEIGHTS;
  const remaining = base
    .filter((o) => !weights.avoid?.includes(o.item))
    .map((o) => ({ item: o.item, weight: o.weight * (weights.categories?.[CATEGORY_OF[o.item] as ErrorCategory] ?? 1) }));
  while (remaining.length) {
    const kind = weightedPick(remaining, random);
    if (!kind) return undefined;
    const mutate = (tool === 'run_python' ? pythonMutations : sqlMutations)[kind];
    const mutated = mutate?.(code, schema, random);
    if (mutated !== undefined && mutated !== code) return { kind, category: CATEGORY_OF[kind] as ErrorCategory, code: mutated };
    remaining.splice(remaining.findIndex((o) => o.item === kind), 1);
  }
  return undefined;
}
