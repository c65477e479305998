/**
 * Seeded mistakes applied to real SQL and Python text, so they really fail in the sandbox (or silently give a
 * wrong result), the way an LLM's slips do. Each mutation returns undefined when it does not apply.
 */
import { weightedPick } from './random';
import { escapeRegExp } from '../text/regex';
import { quoteIdent } from '../text/sql';

export type MistakeKind =
  | 'misspelled_column'
  | 'wrong_column'
  | 'wrong_table'
  | 'missing_join_condition'
  | 'wrong_aggregate'
  | 'missing_group_by'
  | 'off_by_one_filter'
  | 'python_name_error'
  | 'python_type_error'
  | 'misspelled_table'
  | 'premature_answer';

/** What the model "remembers" of the schema: tables and their columns (from the summary and describe_table). */
export interface SchemaView {
  tables: Array<{ name: string; columns: Array<{ name: string; type: string }> }>;
}

export interface MistakeWeights {
  /** Multiplies the weight of name mistakes (forgotten schema makes them likelier). */
  names: number;
  /** Kinds not to make (a repair does not repeat the slip its error just named). */
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
function identifierPattern(name: string): RegExp {
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

function columnsIn(sql: string, schema: SchemaView): Array<{ table: string; column: string; type: string }> {
  const found: Array<{ table: string; column: string; type: string }> = [];
  const seen = new Set<string>();
  for (const t of schema.tables) {
    if (!identifierPattern(t.name).test(sql)) continue;
    for (const c of t.columns) {
      if (seen.has(c.name) || !identifierPattern(c.name).test(sql)) continue;
      seen.add(c.name);
      found.push({ table: t.name, column: c.name, type: c.type });
    }
  }
  return found;
}

type Mutation = (code: string, schema: SchemaView, random: () => number) => string | undefined;

const sqlMutations: Record<Exclude<MistakeKind, 'python_name_error' | 'python_type_error' | 'misspelled_table' | 'premature_answer'>, Mutation> = {
  misspelled_column(sql, schema, random) {
    const cols = columnsIn(sql, schema);
    if (!cols.length) return undefined;
    const { column } = cols[Math.floor(random() * cols.length)];
    return replaceIdentifier(sql, column, misspell(column, random), true);
  },
  wrong_column(sql, schema, random) {
    const cols = columnsIn(sql, schema);
    if (!cols.length) return undefined;
    const { table, column, type } = cols[Math.floor(random() * cols.length)];
    const siblings = schema.tables.find((t) => t.name === table)?.columns.filter((c) => c.name !== column && c.type === type) ?? [];
    if (!siblings.length) return undefined;
    return replaceIdentifier(sql, column, siblings[Math.floor(random() * siblings.length)].name, false);
  },
  wrong_table(sql, schema, random) {
    const used = schema.tables.filter((t) => identifierPattern(t.name).test(sql));
    if (!used.length) return undefined;
    const from = used[Math.floor(random() * used.length)];
    const others = schema.tables.filter((t) => !used.includes(t));
    if (!others.length) return undefined;
    // The most similar name is the likeliest confusion.
    const score = (name: string) => [...new Set(name.toLowerCase())].filter((ch) => from.name.toLowerCase().includes(ch)).length;
    const to = [...others].sort((a, b) => score(b.name) - score(a.name) || a.name.localeCompare(b.name))[0];
    return replaceIdentifier(sql, from.name, to.name, false);
  },
  missing_join_condition(sql) {
    // `JOIN x AS p ON a = b` → `JOIN x AS p`: SQLite then makes a cross join (silently wrong).
    const out = sql.replace(/(\bJOIN\s+(?:"[^"]*"|\w+)(?:\s+AS\s+\w+)?)\s+ON\s+[\s\S]+?(?=\s+(?:WHERE|GROUP|ORDER|LIMIT|HAVING|JOIN|LEFT|INNER)\b|\s*$)/i, '$1');
    return out === sql ? undefined : out;
  },
  wrong_aggregate(sql) {
    const swaps: Record<string, string> = { AVG: 'SUM', SUM: 'AVG', MIN: 'MAX', MAX: 'MIN' };
    const match = /\b(AVG|SUM|MIN|MAX)\s*\(/i.exec(sql);
    if (!match) return undefined;
    const from = match[1].toUpperCase();
    return sql.replace(new RegExp(`\\b${from}(\\s*\\()`, 'gi'), `${swaps[from]}$1`);
  },
  missing_group_by(sql) {
    const out = sql.replace(/\s+GROUP\s+BY\s+[\s\S]+?(?=\s+(?:ORDER|LIMIT|HAVING)\b|\s*$)/i, '');
    return out === sql ? undefined : out;
  },
  off_by_one_filter(sql, _schema, random) {
    const limit = /\bLIMIT\s+(\d+)/i.exec(sql);
    const comparison = /(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)/.exec(sql);
    if (comparison && (!limit || random() < 0.5)) {
      const flip: Record<string, string> = { '>=': '>', '<=': '<', '>': '>=', '<': '<=' };
      return sql.slice(0, comparison.index) + `${flip[comparison[1]]} ${comparison[2]}` + sql.slice(comparison.index + comparison[0].length);
    }
    if (limit) return sql.slice(0, limit.index) + `LIMIT ${Number(limit[1]) + 1}` + sql.slice(limit.index + limit[0].length);
    return undefined;
  },
};

const PYTHON_KEYWORDS = new Set(['print', 'len', 'sum', 'zip', 'float', 'int', 'round', 'range', 'sql', 'tuple', 'dict', 'list', 'isinstance', 'for', 'in', 'if', 'else', 'import', 'return', 'def', 'and', 'or', 'not']);

const pythonMutations: Record<'python_name_error' | 'python_type_error', Mutation> = {
  python_name_error(code, _schema, random) {
    const lines = code.split('\n');
    const tokens = new Set(code.match(/[A-Za-z_]\w*/g) ?? []);
    // Each variable assigned at top level, with the first later line that uses it (not inside the sql() text).
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
    const { name, line } = uses[Math.floor(random() * uses.length)];
    let typo = name.endsWith('s') && name.length > 2 ? name.slice(0, -1) : `${name}s`;
    if (tokens.has(typo)) typo = misspell(name, random);
    if (tokens.has(typo) || typo === name) typo = `${name}_val`;
    lines[line] = lines[line].replace(new RegExp(`\\b${name}\\b`), typo);
    return lines.join('\n');
  },
  python_type_error(code) {
    // Quote a numeric literal used in arithmetic or as an argument: round(r, 4) → round(r, '4').
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

/**
 * Applies one seeded mistake to a tool's code, choosing among the kinds that apply (weights reflect how often
 * each slip happens; name slips scale with `weights.names`). Returns undefined when nothing applies.
 */
export function applyMistake(tool: 'run_sql' | 'run_python', code: string, schema: SchemaView, random: () => number, weights: MistakeWeights): { kind: MistakeKind; code: string } | undefined {
  const options: Array<{ item: MistakeKind; weight: number }> =
    tool === 'run_python'
      ? [
          { item: 'python_name_error', weight: 3 },
          { item: 'python_type_error', weight: 2 },
        ]
      : [
          { item: 'misspelled_column', weight: 3 * weights.names },
          { item: 'wrong_column', weight: 1.5 * weights.names },
          { item: 'wrong_table', weight: 1 * weights.names },
          { item: 'missing_join_condition', weight: 3 },
          { item: 'wrong_aggregate', weight: 1.5 },
          { item: 'missing_group_by', weight: 2 },
          { item: 'off_by_one_filter', weight: 1.5 },
        ];
  const remaining = options.filter((o) => !weights.avoid?.includes(o.item));
  while (remaining.length) {
    const kind = weightedPick(remaining, random);
    if (!kind) return undefined;
    const mutate = tool === 'run_python' ? pythonMutations[kind as keyof typeof pythonMutations] : sqlMutations[kind as keyof typeof sqlMutations];
    const mutated = mutate?.(code, schema, random);
    if (mutated !== undefined && mutated !== code) return { kind, code: mutated };
    remaining.splice(remaining.findIndex((o) => o.item === kind), 1);
  }
  return undefined;
}
