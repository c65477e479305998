/**
 * Headers that name a period: the columns of a wide table, one per year (`1980` … `2021`), quarter (`2017 January to
 * March`, `2020 Q3`) or month (`2019 May`). Their figures are one series per row, read across the columns.
 */
import type { TableProfile } from '../env/types';
import { MONTH_NAMES } from './lexicon';

export type PeriodGrain = 'year' | 'quarter' | 'month';

export interface HeaderPeriod {
  /** As a reader says it: `1980`, `Q1 2017` (for `2017 January to March` too), `May 2019`. */
  label: string;
  /** Months since year 0, for the order of the columns. */
  order: number;
  grain: PeriodGrain;
}

/** Columns a table needs, of one grain, to be wide: fewer are a comparison of a few columns, not a series. */
export const MIN_PERIOD_COLUMNS = 5;

const QUARTER_WORDS = /^(?:q([1-4])|quarter ([1-4])|([a-z]{3,9})\s*(?:-|–|to)\s*([a-z]{3,9}))$/i;

function monthOf(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  return w.length < 3 ? -1 : MONTH_NAMES.findIndex((name) => name.startsWith(w));
}

/** The period a header names: a year (`1980`), or a year and a quarter or a month (`2017 January to March`, `2020 Q3`, `2019 May`). */
export function periodOfHeader(header: string): HeaderPeriod | undefined {
  const text = header.trim().replace(/\s+/g, ' ');
  if (/^(1[89]|20)\d\d$/.test(text)) return { label: text, order: Number(text) * 12, grain: 'year' };
  const m = /^((?:1[89]|20)\d\d) (.+)$/.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const rest = m[2];
  const quarter = QUARTER_WORDS.exec(rest);
  if (quarter) {
    const numbered = quarter[1] ?? quarter[2];
    if (numbered) return { label: `Q${numbered} ${year}`, order: year * 12 + (Number(numbered) - 1) * 3, grain: 'quarter' };
    const from = monthOf(quarter[3]);
    const to = monthOf(quarter[4]);
    return from >= 0 && to === from + 2 && from % 3 === 0 ? { label: `Q${from / 3 + 1} ${year}`, order: year * 12 + from, grain: 'quarter' } : undefined;
  }
  const month = /^[a-z]{3,9}\.?$/i.test(rest) ? monthOf(rest) : -1;
  return month >= 0 ? { label: `${rest} ${year}`, order: year * 12 + month, grain: 'month' } : undefined;
}

/**
 * The period columns of a wide table, in order: at least MIN_PERIOD_COLUMNS headers of one grain, each period once;
 * none where the table is not wide.
 */
export function periodColumns(table: TableProfile): Array<HeaderPeriod & { column: string }> {
  const found = table.columns.flatMap((c) => {
    const p = periodOfHeader(c.originalName || c.name);
    return p ? [{ ...p, column: c.name }] : [];
  });
  if (found.length < MIN_PERIOD_COLUMNS || new Set(found.map((p) => p.grain)).size !== 1 || new Set(found.map((p) => p.order)).size !== found.length) return [];
  return found.sort((a, b) => a.order - b.order);
}

/**
 * Columns that hold one month of the year each under a shared name (`Tot_MMBtu January` … `Tot_MMBtu December` of
 * EIA-923, beside the row's year): at least six months of one stem, a series read across the columns, as the
 * period columns are. Names a table's such columns; none where it has none.
 */
export function monthOfYearColumns(table: TableProfile): Set<string> {
  const stems = new Map<string, { columns: string[]; months: Set<number> }>();
  for (const c of table.columns) {
    const m = /^(.*?)[\s_]+([A-Za-z]{3,9})\.?\s*$/.exec((c.originalName || c.name).trim());
    const month = m ? monthOf(m[2]) : -1;
    if (!m || month < 0) continue;
    const entry = stems.get(m[1].toLowerCase()) ?? { columns: [], months: new Set<number>() };
    entry.columns.push(c.name);
    entry.months.add(month);
    stems.set(m[1].toLowerCase(), entry);
  }
  return new Set([...stems.values()].filter((e) => e.months.size >= 6).flatMap((e) => e.columns));
}
