/**
 * The difference between two tool calls' code, as hunks of source text (before → after), and a diagnosis written
 * from it: a repair's diagnosis names exactly the hunks that separate the failed call from the repaired one, so
 * the explanation and the change are one act. `diagnosisHunks` reads the named hunks back from the text.
 */

interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|[A-Za-z_][\w]*(?:\.(?:"[^"]*"|[A-Za-z_]\w*))?|\d+(?:\.\d+)?|<=|>=|<>|!=|\S/g;

function tokens(code: string): Token[] {
  return [...code.matchAll(TOKEN)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));
}

export interface Hunk {
  /** Source text of the failed call that the repair removed ('' for a pure insertion). */
  before: string;
  /** Source text of the repaired call that replaced it ('' for a pure deletion). */
  after: string;
}

/** Token-level longest-common-subsequence diff of two pieces of code, as maximal changed runs. */
export function diffCode(failed: string, repaired: string): Hunk[] {
  const a = tokens(failed);
  const b = tokens(repaired);
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i].text === b[j].text ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i].text === b[j].text) {
      i++;
      j++;
      continue;
    }
    const i0 = i;
    const j0 = j;
    while ((i < n || j < m) && !(i < n && j < m && a[i].text === b[j].text)) {
      if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) i++;
      else j++;
    }
    hunks.push({
      before: i > i0 ? failed.slice(a[i0].start, a[i - 1].end) : '',
      after: j > j0 ? repaired.slice(b[j0].start, b[j - 1].end) : '',
    });
  }
  return hunks;
}

const quote = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function describeHunk(h: Hunk): string {
  if (h.before && h.after) return `replace ${quote(h.before)} with ${quote(h.after)}`;
  if (h.before) return `remove ${quote(h.before)}`;
  return `add ${quote(h.after)}`;
}

/** What the error (or the empty result) says, in words, naming nothing the diff does not. */
function explainError(error: string): string {
  const message = error.replace(/^Error:\s*/, '').split('\n')[0].slice(0, 160);
  let m: RegExpExecArray | null;
  if ((m = /no such column:\s*"?([\w.]+)"?/i.exec(message))) return `The error says there is no column '${m[1]}' in the tables I queried; the schema I read names it differently.`;
  if ((m = /no such table:\s*"?([\w.]+)"?/i.exec(message))) return `The error says there is no table '${m[1]}'.`;
  if ((m = /ambiguous column name:\s*"?([\w.]+)"?/i.exec(message))) return `The error says '${m[1]}' is ambiguous: more than one joined table has it, so it needs its table's alias.`;
  if (/misuse of aggregate/i.test(message)) return 'The error says an aggregate was misused: a condition on an aggregate belongs in HAVING, after GROUP BY, not in WHERE.';
  if ((m = /NameError: name '(\w+)' is not defined/.exec(message))) return `The error says the name '${m[1]}' is not defined; I used a variable I never assigned.`;
  if (/TypeError/.test(message)) return 'The error is a TypeError: a string went where a number was expected.';
  if (/no table named/i.test(message)) return 'The error says the table I asked about does not exist under that name.';
  if (/^no rows$/.test(message)) return 'The query returned no rows, which cannot be right for this question; one of its conditions is wrong.';
  if (/^only NULL$/.test(message)) return 'The query returned only NULL, which cannot be right for this question: a join or a condition matched nothing.';
  if (/timeout|timed out/i.test(message)) return 'The call timed out.';
  return `The call failed (${message}).`;
}

/** The diagnosis of a failed call, from the error and the exact change the repair makes. */
export function diagnoseFromDiff(error: string, failed: string, repaired: string): string {
  const hunks = diffCode(failed, repaired);
  const fix = hunks.length === 0 ? 'Fix: none; running the same call again.' : `Fix: ${hunks.map(describeHunk).join('; ')}.`;
  return `${explainError(error)} ${fix}`;
}

/** The hunks a diagnosis names (its "Fix:" clause, item by item), for checking it against the calls. */
export function diagnosisHunks(diagnosis: string): Hunk[] | undefined {
  const at = diagnosis.indexOf('Fix: ');
  if (at < 0) return undefined;
  const rest = diagnosis.slice(at + 5);
  if (rest.startsWith('none')) return [];
  const item = /(?:; )?(?:replace `([^`]*)` with `([^`]*)`|remove `([^`]*)`|add `([^`]*)`)/y;
  const out: Hunk[] = [];
  let m: RegExpExecArray | null;
  while ((m = item.exec(rest))) {
    if (m[1] !== undefined) out.push({ before: m[1], after: m[2] });
    else if (m[3] !== undefined) out.push({ before: m[3], after: '' });
    else out.push({ before: '', after: m[4] });
  }
  return out;
}
