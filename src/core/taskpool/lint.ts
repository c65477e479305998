/**
 * The question lint: what an editor would strike in a generated question before anyone reads it — a word twice in
 * a row ("the total total"), an article or a count that disagrees with its noun ("a orders", "3 customer"), a raw
 * `snake_case` identifier outside quotes, or a question over 60 words.
 */

export interface LintFinding {
  rule: 'repeated-word' | 'article' | 'number-agreement' | 'raw-identifier' | 'too-long';
  detail: string;
}

export const MAX_QUESTION_WORDS = 60;

/** The question without its quoted parts ('North', "Customers", `order_total`), which the lint leaves alone. */
function unquoted(question: string): string {
  // File names are names as written (`business_rules.md`), like quoted values; each stands as a word of its own, so
  // "rows in day.csv in all 12 months" repeats no word.
  // A single-quoted value may hold an apostrophe ('Chicago O'Hare'): it ends at a quote no letter follows.
  return question.replace(/(^|[^A-Za-z])'.*?'(?![A-Za-z])|"[^"]*"|`[^`]*`|“[^”]*”/g, '$1 ').replace(/[\w.-]+\.(md|markdown|txt|csv|tsv|json|jsonl|xlsx|parquet|sqlite|db)\b/gi, ' · ');
}

const VOWEL_SOUND_EXCEPTIONS = /^(uni|use|usu|eu|one|once|ur)/i;
const SILENT_H = /^(hour|honest|honou?r|heir)/i;
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** Words after a count that are not its noun: "the 3 highest", "2 decimals", "1 standard deviation". */
const NOT_A_NOUN = /^(highest|lowest|largest|smallest|most|fewest|best|worst|top|bottom|decimal|decimals|places?|standard|percent|%|or|and|to|of|per|more|less|times|x)$/i;

const UNCOUNTABLE = /^(staff|personnel|equipment|data|inventory|stock|news|series|species|software|feedback|weather|people|information)$/i;

function isPlural(word: string): boolean {
  return /[^s']s$/i.test(word) && !/(ss|us|is|ics|series|species|news)$/i.test(word);
}

export function lintQuestion(question: string): LintFinding[] {
  const findings: LintFinding[] = [];
  const text = unquoted(question);
  const words = question.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length > MAX_QUESTION_WORDS) findings.push({ rule: 'too-long', detail: `${words.length} words (at most ${MAX_QUESTION_WORDS})` });
  for (const m of text.matchAll(/\b([A-Za-z]+)\s+\1\b/gi)) {
    if (!/^(that|had|is)$/i.test(m[1])) findings.push({ rule: 'repeated-word', detail: `"${m[0]}"` });
  }
  for (const m of text.matchAll(/\b(a|an)\s+([A-Za-z][\w-]*)/gi)) {
    const [article, word] = [m[1].toLowerCase(), m[2]];
    const vowelSound = (/^[aeiou]/i.test(word) && !VOWEL_SOUND_EXCEPTIONS.test(word)) || SILENT_H.test(word) || /^[AEFHILMNORSX][A-Z0-9]*$/.test(word);
    if (article === 'a' && vowelSound) findings.push({ rule: 'article', detail: `"${m[0]}" (an ${word})` });
    else if (article === 'an' && !vowelSound) findings.push({ rule: 'article', detail: `"${m[0]}" (a ${word})` });
    if (isPlural(word) && !/^(a|an)\s+(few|lot)/i.test(m[0])) findings.push({ rule: 'number-agreement', detail: `"${m[0]}" (a singular article before a plural)` });
  }
  for (const m of text.matchAll(/\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+([A-Za-z][\w-]*)/gi)) {
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()];
    const word = m[2];
    if (NOT_A_NOUN.test(word) || /^\d/.test(word) || UNCOUNTABLE.test(word)) continue;
    // A year or a count of decimals is not a count of the noun after it ("in 2024 orders…" is rare; years are skipped).
    // A year, or a long number (a range of years in a name, `19801989`), is not a count of the noun after it.
    if (/^\d{4,}$/.test(m[1])) continue;
    // The count agrees with the head of its noun phrase ("5 home games", "10 country codes"): the last of the next
    // few words before a preposition or a stop.
    const after = text.slice((m.index ?? 0) + m[0].length - word.length).split(/[\s,?.;:()]+/).filter(Boolean);
    const phrase: string[] = [];
    for (const w of after.slice(0, 6)) {
      if (/^(with|of|in|on|at|by|for|from|to|that|which|whose|where|and|or|than|per|across|among)$/i.test(w)) break;
      phrase.push(w);
    }
    const head = phrase[phrase.length - 1] ?? word;
    if (UNCOUNTABLE.test(head)) continue;
    if (n === 1 && isPlural(head)) findings.push({ rule: 'number-agreement', detail: `"${m[0]}" (one, then a plural)` });
    if (n > 1 && !phrase.some(isPlural) && !/(ing|ed|est|er|ly)$/i.test(head) && /^[a-z]/.test(word)) findings.push({ rule: 'number-agreement', detail: `"${m[0]}" (${n}, then a singular)` });
  }
  for (const m of text.matchAll(/\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/g)) findings.push({ rule: 'raw-identifier', detail: `${m[0]} (write it in words, or quote it)` });
  return findings;
}
