/**
 * The read-only statement guard shared by the SQL and Python sandboxes.
 *
 * A small SQL lexer (comments, string literals and quoted identifiers are skipped, so `SELECT 'DROP TABLE x'`
 * and `SELECT 1; -- DROP` pass while `/* *\/ DROP TABLE x` does not) splits the text into statements and checks
 * each statement's leading keyword. It is the first wall; the second is `PRAGMA query_only = ON` inside the
 * worker, which SQLite itself enforces.
 */

/** `empty`: nothing but whitespace and comments (an SQL error, not a refusal). */
export type GuardVerdict = { ok: true; statements: number } | { ok: false; reason: string; kind: 'refused' | 'empty' };

type Token =
  | { kind: 'word'; text: string; upper: string }
  | { kind: 'quoted' } // string literal, quoted identifier, blob or number: never a keyword
  | { kind: 'punct'; text: string };

/** Statements that only read. EXPLAIN is checked further on the statement it explains. */
const READ_KEYWORDS = new Set(['SELECT', 'WITH', 'VALUES']);

/** PRAGMAs that only report. Those in PRAGMAS_WITH_ARGUMENT take a table/index name; for the others an
 *  argument would set the value (`PRAGMA user_version(5)`), so it is refused. */
const READ_PRAGMAS = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'foreign_key_check', 'integrity_check', 'quick_check', 'database_list', 'collation_list', 'function_list',
  'pragma_list', 'module_list', 'compile_options', 'user_version', 'schema_version', 'application_id',
  'page_count', 'page_size', 'freelist_count', 'encoding', 'query_only', 'data_version',
]);
const PRAGMAS_WITH_ARGUMENT = new Set([
  'table_info', 'table_xinfo', 'table_list', 'index_list', 'index_info', 'index_xinfo', 'foreign_key_list',
  'foreign_key_check', 'integrity_check', 'quick_check',
]);

/** Splits SQL text into statements of tokens. Never throws: an unterminated literal or comment runs to the end. */
export function tokenizeSql(sql: string): Token[][] {
  const statements: Token[][] = [];
  let current: Token[] = [];
  let i = 0;
  const n = sql.length;
  const skipQuoted = (close: string): void => {
    // Doubled closing quote is an escape inside SQL literals ('it''s', "a""b").
    i++;
    while (i < n) {
      if (sql[i] === close) {
        if (close !== ']' && sql[i + 1] === close) {
          i += 2;
          continue;
        }
        i++;
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      skipQuoted(c);
      current.push({ kind: 'quoted' });
    } else if (c === '[') {
      skipQuoted(']');
      current.push({ kind: 'quoted' });
    } else if (c === ';') {
      if (current.length) statements.push(current);
      current = [];
      i++;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j])) j++;
      const text = sql.slice(i, j);
      // x'0A' is a blob literal, not the word x.
      if ((text === 'x' || text === 'X') && sql[j] === "'") {
        i = j;
        skipQuoted("'");
        current.push({ kind: 'quoted' });
      } else {
        current.push({ kind: 'word', text, upper: text.toUpperCase() });
        i = j;
      }
    } else if (/[0-9.]/.test(c) && /[0-9]/.test(sql[i + 1] ?? c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j])) j++;
      i = j;
      current.push({ kind: 'quoted' });
    } else {
      current.push({ kind: 'punct', text: c });
      i++;
    }
  }
  if (current.length) statements.push(current);
  return statements;
}

function refusal(what: string): GuardVerdict {
  return { ok: false, kind: 'refused', reason: `refused: the SQL sandbox is read-only (${what} is not allowed)` };
}

/** Index just past the balanced parenthesised group starting at `start` (which must be '('), or -1. */
function skipGroup(tokens: Token[], start: number): number {
  let depth = 0;
  for (let k = start; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) return k + 1;
  }
  return -1;
}

const isPunct = (t: Token | undefined, text: string): boolean => t?.kind === 'punct' && t.text === text;
const isWord = (t: Token | undefined, upper: string): boolean => t?.kind === 'word' && t.upper === upper;

/**
 * The keyword of the statement a WITH clause leads into (`WITH x AS (…) INSERT …` → 'INSERT'), or undefined
 * when the shape is not one this parser follows (SQLite then reports the syntax; query_only still holds).
 */
function keywordAfterWith(tokens: Token[]): Token | undefined {
  let k = 1;
  if (isWord(tokens[k], 'RECURSIVE')) k++;
  for (;;) {
    if (tokens[k]?.kind !== 'word' && tokens[k]?.kind !== 'quoted') return undefined;
    k++;
    if (isPunct(tokens[k], '(')) {
      k = skipGroup(tokens, k);
      if (k < 0) return undefined;
    }
    if (!isWord(tokens[k], 'AS')) return undefined;
    k++;
    if (isWord(tokens[k], 'NOT')) k++;
    if (isWord(tokens[k], 'MATERIALIZED')) k++;
    if (!isPunct(tokens[k], '(')) return undefined;
    k = skipGroup(tokens, k);
    if (k < 0) return undefined;
    if (isPunct(tokens[k], ',')) {
      k++;
      continue;
    }
    return tokens[k];
  }
}

function checkStatement(tokens: Token[]): GuardVerdict {
  const first = tokens[0];
  if (first.kind !== 'word') {
    return {
      ok: false,
      kind: 'refused',
      reason: 'refused: the SQL sandbox only runs SELECT, WITH, VALUES, EXPLAIN and read-only PRAGMA statements',
    };
  }
  const keyword = first.upper;
  if (keyword === 'EXPLAIN') {
    let k = 1;
    if (isWord(tokens[k], 'QUERY') && isWord(tokens[k + 1], 'PLAN')) k += 2;
    const rest = tokens.slice(k);
    return rest.length ? checkStatement(rest) : { ok: true, statements: 1 };
  }
  if (keyword === 'WITH') {
    const main = keywordAfterWith(tokens);
    if (main?.kind === 'word' && !READ_KEYWORDS.has(main.upper)) return refusal(`WITH … ${main.upper}`);
    return { ok: true, statements: 1 };
  }
  if (READ_KEYWORDS.has(keyword)) return { ok: true, statements: 1 };
  if (keyword === 'PRAGMA') {
    // PRAGMA [schema.]name [= value | (argument)]
    let k = 1;
    if (tokens[k + 1] && isPunct(tokens[k + 1], '.')) k += 2;
    const nameToken = tokens[k];
    const name = nameToken?.kind === 'word' ? nameToken.text.toLowerCase() : '';
    if (!READ_PRAGMAS.has(name)) return refusal(`PRAGMA ${name || '(unnamed)'}`);
    const next = tokens[k + 1];
    if (isPunct(next, '=')) return refusal(`PRAGMA ${name} = …`);
    if (isPunct(next, '(') && !PRAGMAS_WITH_ARGUMENT.has(name)) return refusal(`PRAGMA ${name}(…)`);
    return { ok: true, statements: 1 };
  }
  return refusal(keyword);
}

/** Whether every statement in `sql` only reads. An empty text (or comments only) is refused as empty. */
export function checkReadOnly(sql: string): GuardVerdict {
  const statements = tokenizeSql(sql);
  if (!statements.length) return { ok: false, kind: 'empty', reason: 'the query is empty (nothing but whitespace or comments)' };
  for (const statement of statements) {
    const verdict = checkStatement(statement);
    if (!verdict.ok) return verdict;
  }
  return { ok: true, statements: statements.length };
}
