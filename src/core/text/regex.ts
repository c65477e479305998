/** Regular expressions built from plain text. */

/** `text` with every character a regular expression treats specially escaped, to match it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `text` holds `word` as a whole word, ignoring case: not inside a longer identifier (letters, digits and
 * `_` on either side end a match). An empty word is in no text.
 */
export function containsWord(text: string, word: string): boolean {
  if (word === '') return false;
  return new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(word)}($|[^A-Za-z0-9_])`, 'i').test(text);
}
