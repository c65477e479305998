/**
 * What the simulated agent may write: a literal value (a number or a quoted string) in its SQL only once the
 * question, the system prompt, a document it read or an observation showed it. Numbers match as numbers
 * ("$2,000" shows 2000); strings match as written. A handful of structural constants (0, 1, 100, strftime
 * formats, '') need no source.
 */

import { auditedSqlLiterals } from '../agent/grounding';

/** Numbers any analyst writes without being told: identities, percent, and rounding digits. */
const STRUCTURAL_NUMBERS = new Set(['0', '1', '2', '100']);

export interface Literal {
  /** As the code writes it: `2000`, `'West'`. */
  text: string;
  kind: 'number' | 'string';
  /** The value: the number's canonical form, or the string's contents. */
  value: string;
}

const canonicalNumber = (text: string) => String(Number(text));

/** The literal values of a SQL statement (outside double-quoted identifiers). */
export function literalsOf(sql: string): Literal[] {
  const out: Literal[] = [];
  const strings = /'((?:[^']|'')*)'/g;
  for (const m of sql.matchAll(strings)) out.push({ text: m[0], kind: 'string', value: m[1].replace(/''/g, "'") });
  const bare = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, (s) => ' '.repeat(s.length));
  for (const m of bare.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)) out.push({ text: m[0], kind: 'number', value: canonicalNumber(m[0]) });
  return out;
}

/** The text the agent has been shown, ready for literal lookups. */
export class SeenText {
  private readonly text: string;
  private readonly numbers: Set<string>;

  constructor(parts: readonly string[]) {
    this.text = parts.join('\n');
    const plain = this.text.replace(/(\d),(?=\d{3}\b)/g, '$1');
    this.numbers = new Set([...plain.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => canonicalNumber(m[0])));
  }

  has(literal: Literal): boolean {
    if (literal.kind === 'number') return STRUCTURAL_NUMBERS.has(literal.value.replace(/^-/, '')) || this.numbers.has(literal.value) || this.numbers.has(literal.value.replace(/^-/, ''));
    if (literal.value === '' || literal.value.startsWith('%')) return true;
    return this.text.includes(literal.value);
  }

  /** The sentence (or line) of the shown text that holds a literal, for a thought that quotes its source. */
  sentenceWith(literal: Literal): string | undefined {
    const needle = literal.kind === 'number' ? literal.value : literal.value;
    for (const line of this.text.split('\n')) {
      const plain = line.replace(/(\d),(?=\d{3}\b)/g, '$1');
      if (literal.kind === 'number' ? new RegExp(`(?<![\\d.])${needle.replace('.', '\\.')}(?![\\d])`).test(plain) : line.includes(needle)) return line.trim().slice(0, 200);
    }
    return undefined;
  }
}

/**
 * The literals of a statement the agent has not been shown, among those the grounding audit checks (ROUND's
 * digits, LIMIT's count and a format string are no finding the agent must have seen).
 */
export function unseenLiterals(sql: string, seen: SeenText): Literal[] {
  const audited = auditedSqlLiterals(sql);
  const checked = (l: Literal) => (l.kind === 'number' ? audited.numbers.has(Number(l.value)) || audited.numbers.has(-Number(l.value)) : audited.strings.has(l.value.trim()));
  return literalsOf(sql).filter((l) => checked(l) && !seen.has(l));
}
