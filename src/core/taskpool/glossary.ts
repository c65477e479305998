/**
 * Column descriptions a plain-text document writes as a legend, one column a line — a name, two or more spaces, its
 * description — under a heading naming the table ("2.8  Teams table" then "W              Wins"), as the READMEs of
 * many public datasets do. The data dictionary (semantics/dictionary.ts) reads tables of descriptions; a question
 * names a short code (`W`, `GHome`, `bats`) by such a legend's words where the dictionary has none.
 */
import type { DataDocument, TableProfile } from '../env/types';

interface LegendEntry {
  /** The table heading above the line, in lower-case letters only ("teams", "allstarfull"); "" before any. */
  section: string;
  column: string;
  description: string;
}

const LEGEND_LINE = /^([A-Za-z][A-Za-z0-9_]{0,30})\s{2,}(\S.*?)\s*$/;
/** "2.8  Teams table", "## Teams", "Table: Teams". */
const TABLE_HEADING = /^\s*(?:#+\s*)?(?:[\d.]+\s+)?(?:table:?\s+)?([A-Za-z][A-Za-z0-9_ ]{0,40}?)\s+table\s*$/i;

const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const cache = new WeakMap<readonly DataDocument[], LegendEntry[]>();

function legendOf(documents: readonly DataDocument[]): LegendEntry[] {
  const cached = cache.get(documents);
  if (cached) return cached;
  const found: LegendEntry[] = [];
  for (const document of documents) {
    let section = '';
    for (const part of document.sections) {
      const heading = TABLE_HEADING.exec(part.heading);
      if (heading) section = letters(heading[1]);
      for (const line of part.text.split(/\r?\n/)) {
        const tableHeading = TABLE_HEADING.exec(line);
        if (tableHeading) {
          section = letters(tableHeading[1]);
          continue;
        }
        const m = LEGEND_LINE.exec(line);
        // A legend line describes in words: at least two letters' words, not a row of numbers or a second code.
        if (m && /[a-z]{2,}/i.test(m[2]) && !/\s{2,}/.test(m[2]) && m[2].length <= 120) found.push({ section, column: m[1], description: m[2] });
      }
    }
  }
  cache.set(documents, found);
  return found;
}

/**
 * A plain-text legend's description of a column: the one under the table's own heading, else the one every legend
 * line of that name agrees on; undefined where none or where they disagree.
 */
export function legendDescription(documents: readonly DataDocument[], table: TableProfile, column: string): string | undefined {
  const entries = legendOf(documents).filter((e) => e.column.toLowerCase() === column.toLowerCase());
  if (entries.length === 0) return undefined;
  const names = new Set([letters(table.name), letters(table.originalName.replace(/\.[a-z0-9]+$/i, '').split(/[\\/]/).pop() ?? '')]);
  const own = entries.find((e) => e.section !== '' && [...names].some((n) => n === e.section || n === `${e.section}s` || e.section === `${n}s`));
  if (own) return own.description;
  const descriptions = new Set(entries.map((e) => e.description.toLowerCase()));
  return descriptions.size === 1 ? entries[0].description : undefined;
}
