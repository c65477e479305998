/**
 * Reading a free-text answer against a typed answer key. Deterministic and lenient about formatting
 * (thousands separators, currency and percent signs, quotes, case), strict about the value.
 */
import type { AnswerKey } from './types';

/** The numbers in a text, in order ("1,234.5", "-0.83", "12%", "$3.2e3"). */
export function numbersIn(text: string): number[] {
  const matches = text.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g) ?? [];
  return matches.map(Number).filter((n) => Number.isFinite(n));
}

export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^[\s"'`*_]+|[\s"'`*_.]+$/g, '')
    .replace(/\s+/g, ' ');
}

export function splitList(text: string): string[] {
  return text
    .split(/\s*(?:,|;|\n|\band\b)\s*/)
    .map((item) => normalizeText(item.replace(/^\s*(?:\d+[.)]|[-*•])\s+/, '')))
    .filter((item) => item !== '');
}

/** Whether `answer` states the key's value. */
export function matchesAnswer(key: AnswerKey, answer: string): boolean {
  switch (key.type) {
    case 'number': {
      const numbers = numbersIn(answer);
      // The first number is the answer; later ones may be context ("0.83 (n = 120)").
      return numbers.length > 0 && Math.abs(numbers[0] - key.value) <= key.tolerance;
    }
    case 'string':
      return normalizeText(answer) === normalizeText(key.value);
    case 'list': {
      const got = splitList(answer);
      const want = key.values.map(normalizeText);
      if (got.length !== want.length) return false;
      if (key.ordered) return got.every((g, i) => g === want[i]);
      return [...got].sort().join('\u0000') === [...want].sort().join('\u0000');
    }
    case 'table': {
      // A table answer is read as its first column, in order.
      const got = splitList(answer);
      const want = key.rows.map((r) => normalizeText(String(r[0])));
      return got.length === want.length && got.every((g, i) => g === want[i]);
    }
  }
}

/** Default tolerance for a computed number: 1e-4 relative, at least 1e-6, or what the task asks for. */
export function numberTolerance(value: number, decimals?: number): number {
  if (decimals !== undefined) return 0.5 * 10 ** -decimals;
  return Math.max(1e-6, Math.abs(value) * 1e-4);
}

/**
 * Whether a text (an observation, an explanation) states a key's value anywhere in it: a number within the key's
 * tolerance among its numbers, a name as a whole word, every item of a list. How a sub-answer is found reached.
 */
export function statesAnswer(key: AnswerKey, text: string): boolean {
  const said = normalizeText(text);
  const word = (value: string) => {
    const v = normalizeText(value);
    if (v === '') return false;
    const at = said.indexOf(v);
    if (at < 0) return false;
    // A whole word: not inside a longer name ("North" is not in "Northwest").
    const before = at === 0 ? ' ' : said[at - 1];
    const after = at + v.length >= said.length ? ' ' : said[at + v.length];
    return !/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after);
  };
  switch (key.type) {
    case 'number':
      return numbersIn(text).some((n) => Math.abs(n - key.value) <= key.tolerance);
    case 'string':
      return word(key.value);
    case 'list':
      return key.values.every(word);
    case 'table':
      return key.rows.every((r) => word(String(r[0])));
  }
}
