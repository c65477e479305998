/**
 * Running totals read from the data. In a table that follows entities over time (a row per economy and quarter, a
 * bulletin per region and day, one file per date made one dataset by its partition view), a measure whose value
 * for each entity never goes down from one period to the next, and mostly goes up, is a running total (total
 * cases to date, accounts ever registered): summing it over periods counts the same things again, so it is
 * semi-additive (Kimball's periodic snapshot), whatever its name says.
 */
import type { Database } from 'sql.js';
import type { TableProfile } from '../env/types';
import { quoteIdent as q } from '../text/sql';
import { FLOW_WORDS, GENERIC_MEASURE_NAMES, NON_ADDITIVE_WORDS, PERIOD_FLOW_WORDS, TIME_WORDS, flowCaption, nameTokens } from './lexicon';
import type { ColumnSemantics, Relationship, TimeGrain } from './types';

/** Larger tables are not scanned: the test sorts every series, and loading must stay fast (also relationships.ts's). */
export const MAX_SERIES_ROWS = 200_000;
/** At least this many period-to-period steps over all entities before the data can say "never decreases". */
const MIN_STEPS = 12;
/**
 * Corrections happen (a death re-attributed, an account closed, a recount): one step in twelve may go down. Flows
 * fall far more often, even growing ones (a salary, a country's GDP: one step in five or more).
 */
const MAX_DECREASES = 1 / 12;
/** A running total grows: it rises in a third of the steps at least (a constant, or a count of rare events, does not). */
const MIN_INCREASES = 1 / 3;
/**
 * A level reported period after period (airports in operation, licences issued to date, a reservoir's units
 * installed) keeps its value from one report to the next in most steps, and not because it is zero or a small count: a flow of
 * events (passengers of a day, deaths of a week) changes nearly every period, and a rare one is zero between.
 */
const MIN_HELD = 1 / 2;
/** Small counts repeat by chance (a best-of-seven series won 4 games to anything, year after year): only values this large count as held. */
const MIN_HELD_VALUE = 5;

const GRAIN_ORDER: TimeGrain[] = ['year', 'quarter', 'month', 'month-of-year', 'week', 'day', 'day-of-week', 'datetime', 'hour-of-day', 'other'];

/** What a series test saw of one column. */
export interface SeriesEvidence {
  steps: number;
  increases: number;
  decreases: number;
  /** Steps where a value of MIN_HELD_VALUE or more stayed the same. */
  held?: number;
  entities: string[];
  time: string[];
}

/** The columns that order a table's rows in time, coarsest first (`year`, then `quarter`). */
function timeColumns(table: TableProfile, columns: readonly ColumnSemantics[]): ColumnSemantics[] {
  const times = columns.filter((c) => c.role.value === 'time' && (table.columns.find((p) => p.name === c.column)?.distinctCount ?? 0) >= 2);
  return times.sort((a, b) => GRAIN_ORDER.indexOf(a.time?.grain ?? 'other') - GRAIN_ORDER.indexOf(b.time?.grain ?? 'other'));
}

/** What orders a time column: its ISO form where the stored text does not sort in time (`2020m10` before `2020m2`). */
function timeOrder(c: ColumnSemantics): string {
  return c.time?.storage === 'period' && c.time.isoExpression ? c.time.isoExpression.replace(/\{col\}/g, q(c.column)) : q(c.column);
}

/** The smallest set of category columns that, with the time columns, names one row: the entity each series follows. */
function entityColumns(db: Database, table: TableProfile, columns: readonly ColumnSemantics[], time: string[]): string[] | undefined {
  const rows = table.rowCount;
  const candidates = columns
    .filter((c) => ['identifier', 'dimension', 'geo', 'ordinal', 'flag', 'text'].includes(c.role.value))
    .map((c) => table.columns.find((p) => p.name === c.column)!)
    .filter((p) => p && p.distinctCount >= 2 && p.distinctCount <= rows / 2 && p.nullFraction < 0.05)
    .sort((a, b) => a.distinctCount - b.distinctCount)
    .slice(0, 8)
    .map((p) => p.name);
  const unique = (set: string[]): boolean => {
    const keys = [...set, ...time].map(q).join(', ');
    try {
      const groups = Number(db.exec(`SELECT COUNT(*) FROM (SELECT 1 FROM ${q(table.name)} GROUP BY ${keys})`)[0]?.values[0][0] ?? 0);
      return groups >= 0.99 * rows;
    } catch {
      return false;
    }
  };
  if (unique([])) return [];
  for (const c of candidates) if (unique([c])) return [c];
  for (let i = 0; i < candidates.length; i++) for (let j = i + 1; j < candidates.length; j++) if (unique([candidates[i], candidates[j]])) return [candidates[i], candidates[j]];
  return undefined;
}

/** Steps up and down of each measure along each entity's series, in one pass over the table. */
export function seriesSteps(db: Database, table: TableProfile, columns: readonly ColumnSemantics[], measures: readonly string[]): Map<string, SeriesEvidence> {
  const found = new Map<string, SeriesEvidence>();
  if (measures.length === 0 || table.rowCount > MAX_SERIES_ROWS || table.rowCount < 3) return found;
  const times = timeColumns(table, columns);
  if (times.length === 0) return found;
  const time = times.map((c) => c.column);
  const entities = entityColumns(db, table, columns, time);
  if (!entities) return found;
  const window = `(${entities.length > 0 ? `PARTITION BY ${entities.map(q).join(', ')} ` : ''}ORDER BY ${times.map(timeOrder).join(', ')})`;
  const diffs = measures.map((m, i) => `${q(m)} - LAG(${q(m)}) OVER ${window} AS d${i}`).join(', ');
  const values = measures.map((m, i) => `${q(m)} AS v${i}`).join(', ');
  const sums = measures.map((_, i) => `SUM(d${i} IS NOT NULL), SUM(d${i} > 0), SUM(d${i} < 0), SUM(d${i} = 0 AND ABS(v${i}) >= ${MIN_HELD_VALUE})`).join(', ');
  try {
    const row = db.exec(`SELECT ${sums} FROM (SELECT ${diffs}, ${values} FROM ${q(table.name)})`)[0]?.values[0];
    if (!row) return found;
    measures.forEach((m, i) => found.set(m, { steps: Number(row[4 * i] ?? 0), increases: Number(row[4 * i + 1] ?? 0), decreases: Number(row[4 * i + 2] ?? 0), held: Number(row[4 * i + 3] ?? 0), entities, time }));
  } catch {
    // A view that fails to run says nothing.
  }
  return found;
}

/** A series that never goes down (but for corrections) and mostly goes up. */
export function isRunningTotal(s: SeriesEvidence): boolean {
  return s.steps >= MIN_STEPS && s.decreases <= MAX_DECREASES * s.steps && s.increases >= MIN_INCREASES * s.steps;
}

/** A series that keeps its (non-zero) value from one period to the next in most steps: a level, reported again. */
export function isHeldLevel(s: SeriesEvidence): boolean {
  return s.steps >= MIN_STEPS && (s.held ?? 0) >= MIN_HELD * s.steps;
}

/** Marks the additive measures of a table that its data shows are running totals, or levels held from period to period, as semi-additive. */
export function markRunningTotals(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  // (A level a dictionary's words call so, "the number of members", is read from its series all the same.)
  const measures = columns.filter((c) => c.role.value === 'measure' && (c.additivity?.value === 'additive' || (c.additivity?.value === 'semi-additive' && c.additivity.source.kind === 'dictionary')) && c.additivity.source.kind !== 'user' && c.role.source.kind !== 'user');
  if (measures.length === 0) return;
  const steps = seriesSteps(db, table, columns, measures.map((c) => c.column));
  for (const c of measures) {
    const s = steps.get(c.column);
    if (!s) continue;
    const by = s.entities.length > 0 ? `per ${s.entities.join(' and ')} ` : '';
    // GDP, receipts, outlays: a flow of each period that grows year on year, not a total carried forward.
    // A generic `Value` on a sheet named GDP is GDP.
    const own = nameTokens(c.column);
    const words = own.every((t) => GENERIC_MEASURE_NAMES.has(t)) ? [...own, ...nameTokens(table.originalName), ...nameTokens(table.name)] : own;
    // (…and so is any figure of a table whose caption says its values are amounts per year, the Global Carbon Budget's
    // emissions by fuel, rising nearly every year.)
    const periodFlow = words.some((t) => PERIOD_FLOW_WORDS.has(t)) || flowCaption(table.preamble) !== undefined;
    if (isRunningTotal(s) && !periodFlow) {
      c.additivity = {
        value: 'semi-additive',
        confidence: 0.8,
        source: { kind: 'rule', rule: 'additivity:running-total' },
        why: `${by}over ${s.time.join(' and ')} it never decreases (${s.increases} rises, ${s.decreases} falls in ${s.steps} steps): a running total, not summed over time`,
      };
    } else if (isHeldLevel(s) && c.additivity?.source.kind === 'rule' && c.additivity.source.rule === 'additivity:default' && !ofCoarsestPeriod(db, table, s, c.column)) {
      // Only a quantity nothing else spoke for: an amount named as one (a subscription's monthly fee, paid again
      // each month) is a flow even when it repeats.
      c.additivity = {
        value: 'semi-additive',
        confidence: 0.7,
        source: { kind: 'rule', rule: 'additivity:held-level' },
        why: `${by}over ${s.time.join(' and ')} it keeps its value in ${s.held} of ${s.steps} steps: a level reported again each period, not a flow to sum over time`,
      };
    } else continue;
    c.aggregation = 'sum';
  }
}

/**
 * Whether a measure is one value per entity and coarsest period, written again on rows that differ only in a finer
 * time (the actual outlays of 2010 on every baseline that projected 2010): the figure of that period, repeated by
 * vintage, which says nothing of a level held from period to period.
 */
function ofCoarsestPeriod(db: Database, table: TableProfile, s: SeriesEvidence, measure: string): boolean {
  if (s.time.length < 2) return false;
  const keys = [...s.entities, s.time[0]].map(q).join(', ');
  try {
    const row = db.exec(`SELECT SUM(n > 1), SUM(v > 1) FROM (SELECT COUNT(*) AS n, COUNT(DISTINCT ${q(measure)}) AS v FROM ${q(table.name)} GROUP BY ${keys})`)[0]?.values[0];
    return Number(row?.[0] ?? 0) > 0 && Number(row?.[1] ?? 0) === 0;
  } catch {
    return false;
  }
}

/** The terms of a sum or difference of columns (`a + b - c`); undefined for any other relation (a product, a ratio, a weighted sum). */
export function sumTerms(relation: string, from: readonly string[]): string[] | undefined {
  const terms = relation.split(/ [+-] /).map((t) => t.trim());
  return terms.length >= 2 && terms.every((t) => from.includes(t)) ? terms : undefined;
}

/**
 * Quantities of one kind add up only with their own kind: when a column is the sum or difference of others row for
 * row (hospitalised = in intensive care + with symptoms; cases = current + recovered + dead), a level among them
 * makes them all levels. A stock plus a flow means nothing. Returns how many columns changed.
 */
export function spreadLevelsThroughSums(columns: ColumnSemantics[]): number {
  const byName = new Map(columns.map((c) => [c.column, c]));
  let changed = 0;
  for (let pass = 0; pass < 4; pass++) {
    let more = 0;
    for (const total of columns) {
      if (!total.derivedFrom) continue;
      const terms = sumTerms(total.derivedFrom.relation, total.derivedFrom.columns);
      if (!terms) continue;
      const group = [total, ...terms.map((t) => byName.get(t)).filter((c): c is ColumnSemantics => c !== undefined)];
      if (group.some((c) => c.role.value !== 'measure')) continue;
      // An error in the sum's own units (actual = projection + error) is an amount of the sum's kind: the name's
      // "error" spoke of a statistic, the exact sum says otherwise.
      const errors = group.filter((c) => c.additivity?.value === 'non-additive' && c.additivity.source.kind === 'rule' && c.additivity.source.rule === 'additivity:name' && nameTokens(c.column).some((t) => ERROR_WORDS.has(t)) && c.role.source.kind !== 'user');
      const kinds = new Set(group.filter((c) => !errors.includes(c)).map((c) => c.additivity?.value));
      const kind = kinds.size === 1 ? [...kinds][0] : undefined;
      if (errors.length > 0 && (kind === 'additive' || kind === 'semi-additive')) {
        for (const c of errors) {
          c.additivity = { value: kind, confidence: 0.7, source: { kind: 'rule', rule: 'additivity:error-of-sum' }, why: `${total.column} = ${total.derivedFrom.relation} row for row: an error in the units of ${kind} terms, of their kind` };
          c.aggregation = 'sum';
          more++;
        }
      }
      const level = group.find((c) => c.additivity?.value === 'semi-additive');
      if (!level) continue;
      for (const c of group) {
        if (c.additivity?.value !== 'additive' || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') continue;
        // (A term its name calls a flow, "number of patients discharged" beside those remaining, stays one: the sum
        // counts who was there in the day, those who left and those who stayed.)
        const words = nameTokens(c.column);
        if (c.additivity.source.kind === 'rule' && c.additivity.source.rule === 'additivity:name' && /^(number|no|num|count)$/.test(words[0] ?? '') && words[1] === 'of' && words.some((t) => FLOW_WORDS.has(t))) continue;
        c.additivity = {
          value: 'semi-additive',
          confidence: 0.7,
          source: { kind: 'rule', rule: 'additivity:sum-of-levels' },
          why: `${total.column} = ${total.derivedFrom.relation} row for row, and ${level.column} is a level: the terms of a sum are of one kind`,
        };
        c.aggregation = 'sum';
        more++;
      }
    }
    changed += more;
    if (more === 0) break;
  }
  return changed;
}

/** Names of the error of a forecast or a fit. */
const ERROR_WORDS = new Set(['error', 'errors', 'residual', 'residuals', 'deviation', 'discrepancy', 'surprise']);

/** What a group test saw of one measure: how many groups of two rows or more, and in how many it is one value. */
export interface RepeatEvidence {
  key: string;
  groups: number;
  constant: number;
  /** Another measure whose sum over each group equals this one (in that many groups), when there is one. */
  totalOf?: { column: string; groups: number };
}

/** Minimum groups of two rows or more before the data can say "one value per group". */
const MIN_REPEATED_GROUPS = 5;
/** Minimum distinct values of a measure repeated per key: a value few groups share could be one by chance. */
const MIN_REPEATED_VALUES = 5;

/**
 * Measures one value for every row of a key that repeats (a provider's registered places on each of its inspections,
 * a chamber's size on each party's row of an election): read per key, on tables up to MAX_SERIES_ROWS rows.
 */
/** The share of groups whose value may differ, for a value still to be read as the group's (data-entry slips). */
const REPEAT_SLIP_SHARE = 0.01;

export function repeatedPerKey(db: Database, table: TableProfile, columns: readonly ColumnSemantics[], measures: readonly string[], others: readonly string[] = []): Map<string, RepeatEvidence> {
  const found = new Map<string, RepeatEvidence>();
  if (measures.length === 0 || table.rowCount > MAX_SERIES_ROWS || table.rowCount < 10) return found;
  const keys = columns
    .filter((c) => c.role.value === 'identifier')
    .map((c) => table.columns.find((p) => p.name === c.column))
    .filter((p): p is TableProfile['columns'][number] => p !== undefined && !p.candidateKey && p.distinctCount >= MIN_REPEATED_GROUPS && p.distinctCount <= table.rowCount / 1.2 && p.nullFraction < 0.05)
    .slice(0, 4);
  for (const key of keys) {
    // (Only groups with a value other than zero count: a column of zeros is the same on every row of anything.)
    const inner = measures.map((m, i) => `COUNT(${q(m)}) AS n${i}, COUNT(DISTINCT ${q(m)}) AS d${i}, MAX(ABS(${q(m)})) AS a${i}`).join(', ');
    const outer = measures.map((_, i) => `SUM(n${i} >= 2 AND a${i} > 0), SUM(n${i} >= 2 AND a${i} > 0 AND d${i} = 1)`).join(', ');
    try {
      const row = db.exec(`SELECT ${outer} FROM (SELECT ${inner} FROM ${q(table.name)} WHERE ${q(key.name)} IS NOT NULL GROUP BY ${q(key.name)})`)[0]?.values[0];
      if (!row) continue;
      measures.forEach((m, i) => {
        const groups = Number(row[2 * i] ?? 0);
        const constant = Number(row[2 * i + 1] ?? 0);
        // (A slip or two in a hundred groups, an astronaut's career hours typed differently on one of their flights,
        // leaves the value the group's.)
        if (found.has(m) || groups < MIN_REPEATED_GROUPS || constant < groups - Math.floor(REPEAT_SLIP_SHARE * groups)) return;
        found.set(m, { key: key.name, groups, constant });
      });
    } catch {
      // A view that fails to run says nothing.
    }
  }
  // A repeated value that is the sum of another measure over its group: the group's total, on each of its rows.
  // (Groups whose total is zero say nothing: zero deaths is the sum of zero deaths of every kind.)
  for (const [total, evidence] of found) {
    for (const part of [...measures, ...others]) {
      if (part === total || found.has(part)) continue;
      try {
        const row = db.exec(`SELECT COUNT(*), SUM(ABS(s - t) <= 0.5 + 0.001 * ABS(t)) FROM (SELECT SUM(${q(part)}) AS s, MAX(${q(total)}) AS t, COUNT(*) AS n FROM ${q(table.name)} WHERE ${q(evidence.key)} IS NOT NULL GROUP BY ${q(evidence.key)}) WHERE n >= 2 AND t IS NOT NULL AND s IS NOT NULL AND t <> 0`)[0]?.values[0];
        const groups = Number(row?.[0] ?? 0);
        const equal = Number(row?.[1] ?? 0);
        if (groups >= MIN_REPEATED_GROUPS && equal >= 0.9 * groups) {
          evidence.totalOf = { column: part, groups: equal };
          break;
        }
      } catch {
        // As above.
      }
    }
  }
  return found;
}

/**
 * A measure with one value for every row of a key that repeats is a quantity of the key's entity, not of the row (a
 * provider's registered places on each of its inspections): summing the rows counts it again for every repeat, so it
 * adds across the entities, not across their rows — semi-additive. When it is, in each group, the sum of another
 * measure of the rows (a chamber's size on each party's row of an election, the sum of the parties' seats), it is the
 * group's total, repeated: non-additive.
 */
export function markRepeatedPerKey(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  const measures = columns.filter((c) => {
    // (A capacity named so, `seats`, is semi-additive by its name; repeated per key as its group's total it is none.)
    if (c.role.value !== 'measure' || (c.additivity?.value !== 'additive' && c.additivity?.value !== 'semi-additive') || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') return false;
    // A view's copy of a base column means what the base column means.
    if (c.role.source.kind === 'rule' && c.role.source.rule.startsWith('lineage:')) return false;
    // A value many groups share (every team of a group played 3 matches) says nothing about whose it is.
    return (table.columns.find((p) => p.name === c.column)?.distinctCount ?? 0) >= MIN_REPEATED_VALUES;
  });
  if (measures.length === 0) return;
  const others = columns.filter((c) => c.role.value === 'measure' && !measures.includes(c)).map((c) => c.column);
  const found = repeatedPerKey(db, table, columns, measures.map((c) => c.column), others);
  for (const c of measures) {
    const e = found.get(c.column);
    if (!e) continue;
    c.additivity = e.totalOf
      ? { value: 'non-additive', confidence: 0.75, source: { kind: 'rule', rule: 'additivity:group-total' }, why: `one value per ${e.key}, the sum of ${e.totalOf.column} over its rows (in ${e.totalOf.groups} of ${e.groups} groups): a total repeated on each row` }
      : { value: 'semi-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:repeated-per-key' }, why: `one value per ${e.key} in all ${e.groups} of its groups of two rows or more: a quantity of the ${e.key}, added across them, not across its rows` };
    c.aggregation = e.totalOf ? 'avg' : 'sum';
  }
}

/** Groups of two rows or more a numbering must run through before the data can say "a position in each group". */
const MIN_NUMBERED_GROUPS = 5;

/**
 * Unnamed integers that run 1, 2, …, n within every group of a key or of a pair of categories (a team's standing in
 * its group, a manager's order within a team's season, the skating order within a program) are positions in the
 * group, ordered, not quantities: an ordinal. Read on tables up to MAX_SERIES_ROWS rows.
 */
export function markPositionsInGroups(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  if (table.rowCount > MAX_SERIES_ROWS || table.rowCount < 2 * MIN_NUMBERED_GROUPS) return;
  const profileOf = (name: string) => table.columns.find((p) => p.name === name);
  const numbered = columns.filter((c) => {
    const p = profileOf(c.column);
    // (…and a `pos` read as a position by its name alone: the group it is a position in says more.)
    const namedPos = c.role.value === 'ordinal' && c.role.source.kind === 'rule' && c.role.source.rule === 'ordinal:name' && /^pos$/i.test(c.column);
    if (!p || (!namedPos && (c.role.value !== 'measure' || c.role.source.kind !== 'rule' || c.role.source.rule !== 'measure:numbers')) || c.additivity?.source.kind === 'user') return false;
    return p.type === 'integer' && Number(p.min) === 1 && Number(p.max) <= 500 && p.distinctCount >= 2;
  });
  if (numbered.length === 0) return;
  const groupers = columns
    .filter((c) => ['identifier', 'dimension', 'time', 'geo', 'ordinal'].includes(c.role.value))
    .map((c) => profileOf(c.column))
    .filter((p): p is TableProfile['columns'][number] => p !== undefined && p.nullFraction < 0.05 && p.distinctCount >= 2 && p.distinctCount <= table.rowCount / 2)
    .sort((a, b) => a.distinctCount - b.distinctCount)
    .slice(0, 5)
    .map((p) => p.name);
  const sets: string[][] = [...groupers.map((g) => [g]), ...groupers.flatMap((g, i) => groupers.slice(i + 1).map((h) => [g, h]))];
  const left = new Set(numbered.map((c) => c.column));
  for (const set of sets) {
    if (left.size === 0) break;
    const names = [...left];
    const inner = names.map((m, i) => `COUNT(${q(m)}) AS n${i}, COUNT(DISTINCT ${q(m)}) AS d${i}, MIN(${q(m)}) AS lo${i}, MAX(${q(m)}) AS hi${i}`).join(', ');
    const outer = names.map((_, i) => `SUM(n${i} >= 2), SUM(n${i} >= 2 AND d${i} = n${i} AND lo${i} = 1 AND hi${i} = n${i})`).join(', ');
    try {
      const row = db.exec(`SELECT ${outer} FROM (SELECT ${inner} FROM ${q(table.name)} GROUP BY ${set.map(q).join(', ')})`)[0]?.values[0];
      if (!row) continue;
      names.forEach((m, i) => {
        const groups = Number(row[2 * i] ?? 0);
        const runs = Number(row[2 * i + 1] ?? 0);
        if (groups < MIN_NUMBERED_GROUPS || runs < 0.9 * groups) return;
        const c = columns.find((x) => x.column === m)!;
        const p = profileOf(m)!;
        c.role = { value: 'ordinal', confidence: 0.7, source: { kind: 'rule', rule: 'ordinal:position-in-group' }, why: `within ${runs} of ${groups} groups of ${set.join(' and ')}, its values run 1, 2, … to the group's size: a position in the group` };
        delete c.additivity;
        delete c.unit;
        c.aggregation = 'count';
        c.cardinality = p.distinctCount <= 12 ? 'ideal' : p.distinctCount <= 50 ? 'usable' : 'high';
        left.delete(m);
      });
    } catch {
      // A view that fails to run says nothing.
    }
  }
}

/** Names of a column that says what unit each row's value is in: `unit`, `Einheit`, `unit_of_measure`, `uom`. */
export const UNIT_COLUMN_WORDS = new Set(['unit', 'units', 'einheit', 'uom', 'unite', 'unidad', 'unita', 'eenheid', 'measurement']);
/**
 * Names of a column that says which substance or parameter a sample's value is of (a chemical by its CAS number, a
 * water-quality `parameter`, an `analyte`): concentrations of sixty chemicals are sixty quantities.
 */
const SUBSTANCE_WORDS = new Set(['parameter', 'analyte', 'pollutant', 'contaminant', 'contaminante', 'determinand', 'substance', 'compound', 'chemical', 'cas', 'constituent', 'characteristic']);
/** Names of a column that says which quantity each row holds (OECD's `MEASURE`, `INDICATOR`; `Variable`, `series`), or its unit. */
// A forecast hub's `target` (weekly admissions, or the share of visits) is the quantity a row forecasts.
const QUANTITY_COLUMN_WORDS = new Set([...UNIT_COLUMN_WORDS, 'measure', 'indicator', 'indikator', 'variable', 'series', 'metric', 'target', ...SUBSTANCE_WORDS]);
/** Words that may qualify a quantity column's word (`Indikator_Name`, `unit_code`, `unit_of_measure`). */
const QUANTITY_QUALIFIERS = new Set(['name', 'code', 'id', 'label', 'of']);
/** A generic value column (`value`, `Wert`, `obs_value`) says nothing of its own unit: the unit column does. */
const VALUE_WORDS = new Set([...GENERIC_MEASURE_NAMES, 'wert', 'waarde', 'valeur', 'valor']);

/** Whether a column's name is only a generic value word (`Value`, `obs_value`, `Wert`). */
export function isValueColumn(name: string): boolean {
  const tokens = nameTokens(name);
  return tokens.length > 0 && tokens.every((t) => VALUE_WORDS.has(t));
}

/**
 * The column of a long table that says which quantity (or unit) each row's value is — `MEASURE`, `Indikator`,
 * `Einheit` — when it has 2–50 values: the table's generic value column then holds as many quantities.
 */
export function quantityColumn(table: TableProfile, words: ReadonlySet<string> = QUANTITY_COLUMN_WORDS): TableProfile['columns'][number] | undefined {
  return table.columns.find((p) => {
    // Only the word itself, maybe qualified (`MEASURE`, `Indikator_Name`, `UNIT_MEASURE`): a `product_series` is a category.
    const tokens = nameTokens(p.originalName || p.name);
    // (Substances run to a few hundred: a lab's panel of chemicals.)
    const most = tokens.some((t) => SUBSTANCE_WORDS.has(t)) ? 300 : 50;
    return tokens.length > 0 && tokens.length <= 3 && tokens.some((t) => words.has(t)) && tokens.every((t) => words.has(t) || QUANTITY_QUALIFIERS.has(t)) && p.type === 'text' && p.distinctCount >= 2 && p.distinctCount <= most;
  });
}

/** Units of a ratio: a share, a rate, a quantity per person (`Tonnen pro Person`, `MWh/Person`, `%`, `per 1,000`). */
const RATIO_UNIT = /%|\/|\b(per|pro|je|par|prozent|percent|percentage|share|anteil|rate|ratio|index)\b/i;

/**
 * A long table whose value column holds several quantities, each row's unit in a unit column (a monitoring file with
 * tonnes beside tonnes per person and shares in percent): summing the column as stored adds a ratio to an amount, so
 * it is non-additive when one of its units is a ratio (sum only within one unit). Units that are all amounts (dollars
 * and counts) leave it as it was. Without such units, a column naming each row's quantity (`quant`: rad, sal, temp)
 * makes it non-additive when one of the quantities does not add up.
 */
export function markMixedUnits(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  // Units named per row (`Einheit`: t, t/Person, %): mixed when one of them is a ratio.
  const units = mixedBy(db, table, columns, UNIT_COLUMN_WORDS, (u) => RATIO_UNIT.test(u));
  if (units) {
    mark(units, 'additivity:mixed-units', 0.7, `its unit is in ${units.by.column}, which has ${units.named.length} units, among them '${units.mixed}': summed as stored, ratios add to amounts (sum only within one unit)`);
    return;
  }
  // No mixed units, but the quantity named per row (`quant`: rad, sal, temp): mixed when one of them does not add up.
  const quantities = mixedBy(db, table, columns, QUANTITY_NAME_WORDS, (v) => RATIO_UNIT.test(v) || namesStatistic(v));
  if (quantities) {
    mark(quantities, 'additivity:mixed-quantities', 0.65, `${quantities.by.column} says which of ${quantities.named.length} quantities each row holds, among them '${quantities.mixed}', which does not add up: never summed as stored`);
    return;
  }
  markKindsPerRow(db, table, columns);
  markHoursOfASubstance(table, columns);
  markSeriesPerRow(db, table, columns);
}

/** Parents with two rows or more whose shares must add up to a hundred before a column reads as shares of each. */
const MIN_WHOLE_PARENTS = 5;

/**
 * Per cents of each parent's whole, one row per part: a nuclide's decay modes with their branching ratios (100 for
 * the main mode, 16 for β⁻n …), an element's isotopes with their natural abundances (99.9885 and 0.0115 for
 * hydrogen). Figures from 0 to 100 that add up to 100 over the rows of most parents (half of those with two rows or
 * more, at least five) are shares of a whole: averaged or taken one by one, never summed across parents.
 */
export function markSharesOfAWhole(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  const keys = columns.filter((c) => c.role.value === 'identifier' && (table.columns.find((p) => p.name === c.column)?.distinctCount ?? Infinity) < 0.9 * table.rowCount).slice(0, 4);
  if (keys.length === 0) return;
  const shares = columns.filter((c) => {
    const p = table.columns.find((x) => x.name === c.column);
    if (!p || c.role.value !== 'measure' || c.additivity?.value !== 'additive' || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') return false;
    return (p.type === 'real' || p.type === 'integer') && Number(p.min) >= 0 && Number(p.max) >= 99.5 && Number(p.max) <= 100;
  });
  for (const c of shares) {
    for (const key of keys) {
      let row: unknown[] | undefined;
      try {
        row = db.exec(`SELECT COUNT(*), SUM(ABS(s - 100) <= 0.5) FROM (SELECT SUM(${q(c.column)}) AS s, COUNT(${q(c.column)}) AS n FROM ${q(table.name)} WHERE ${q(key.column)} IS NOT NULL GROUP BY ${q(key.column)}) WHERE n > 1`)[0]?.values[0];
      } catch {
        continue;
      }
      const parents = Number(row?.[0] ?? 0);
      const whole = Number(row?.[1] ?? 0);
      if (whole < MIN_WHOLE_PARENTS || whole < parents / 2) continue;
      c.additivity = { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:shares-of-a-whole' }, why: `figures 0–100 that add up to 100 over the rows of ${whole} of the ${parents} ${key.column} values with several rows: per cents of each one's whole, never summed across them` };
      c.aggregation = 'avg';
      break;
    }
  }
}

/** Words of a column that names the series (the indicator) each row of a wide table holds. */
const SERIES_WORDS = new Set(['series', 'indicator', 'indikator', 'variable', 'measure', 'metric', 'quant', 'quantity', 'parameter', 'param']);

/**
 * A wide table with a column per period (the World Bank's `1960 [YR1960]` … `2016 [YR2016]`) whose rows are
 * different series (`Series Name`: "Agricultural land (% of land area)" on one row, "Agricultural land (sq. km)" on
 * the next): each period's column holds shares beside areas and amounts, never summed as stored.
 */
function markSeriesPerRow(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  // (Or a year under a banner: a pivot's "Base survey of 2016" over `2019`, loaded as "Base survey of 2016 2019".)
  const periodHeaded = (name: string) => /^\s*[A-Za-z]{0,2}\s?(1[5-9]\d\d|20\d\d)(\s|$|[_\-[(.])/.test(name) || /\s(1[5-9]\d\d|20\d\d)$/.test(name);
  const headedByPeriod = (c: ColumnSemantics) => {
    const profile = table.columns.find((p) => p.name === c.column);
    return profile !== undefined && periodHeaded(profile.originalName || profile.name);
  };
  // A period with no figures yet (`2020` all `..`) holds what the other periods hold.
  const measured = columns.filter((c) => headedByPeriod(c) && c.role.value === 'measure');
  if (measured.length >= 3) {
    for (const c of columns) {
      if (!headedByPeriod(c) || c.role.value !== 'text' || c.role.source.kind !== 'rule' || !/empty/.test(c.role.source.rule)) continue;
      c.role = { value: 'measure', confidence: 0.5, source: { kind: 'rule', rule: 'measure:empty-period' }, why: `empty, one of ${measured.length + 1} period columns whose others hold figures` };
      c.additivity = { ...measured[0].additivity! };
      c.aggregation = measured[0].aggregation;
    }
  }
  const periods = columns.filter((c) => {
    const profile = table.columns.find((p) => p.name === c.column);
    return profile !== undefined && periodHeaded(profile.originalName || profile.name) && c.role.value === 'measure' && c.additivity?.value !== 'non-additive' && c.additivity?.source.kind !== 'user' && c.role.source.kind !== 'user';
  });
  if (periods.length < 3) return;
  const series = quantityColumn(table, SERIES_WORDS);
  let by: { name: string; named: string[]; mixed: string } | undefined;
  if (series) {
    let named: string[];
    try {
      named = (db.exec(`SELECT DISTINCT ${q(series.name)} FROM ${q(table.name)} WHERE ${q(series.name)} IS NOT NULL LIMIT 51`)[0]?.values ?? []).map((r) => String(r[0]));
    } catch {
      return;
    }
    const mixed = named.find((v) => RATIO_UNIT.test(v) || namesStatistic(v));
    if (named.length >= 2 && mixed !== undefined) by = { name: series.name, named, mixed };
  } else {
    by = unitsInRowLabels(db, table);
  }
  if (!by) return;
  for (const c of periods) {
    c.additivity = { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:mixed-quantities' }, why: `one of ${periods.length} period columns of a table whose ${by.name} names a different series on each row (${by.named.length}, among them '${by.mixed}'): never summed as stored` };
    c.aggregation = 'avg';
  }
}

/** A unit in brackets at the end of a row's label: "Yield (bushels per planted acre)", "Irrigated (percent of acres)". */
const UNIT_IN_BRACKETS = /\(([^()]*\b(per|percent|percentage|dollars|euros|pounds|bushels|acres|hectares|tonnes|tons|kg|kilograms|head|number|usd|eur|gbp|index)\b[^()]*|%|\$|£|€)\)\s*$/i;

/**
 * The row labels of a wide table that name each row's unit in brackets (a pivot's line items down, years across:
 * "Seed" and "Total, operating costs" in dollars per acre, then "Yield (bushels per planted acre)", "Price (dollars
 * per bushel at harvest)", "Irrigated (percent of acres)"): two or more units, one of them a ratio, so each year's
 * column holds prices, yields and shares beside amounts. The table's text column with the most such labels.
 */
function unitsInRowLabels(db: Database, table: TableProfile): { name: string; named: string[]; mixed: string } | undefined {
  let best: { name: string; named: string[]; mixed: string } | undefined;
  for (const c of table.columns) {
    if (c.type !== 'text' || c.distinctCount < 3 || c.distinctCount > 300) continue;
    let values: string[];
    try {
      values = (db.exec(`SELECT DISTINCT ${q(c.name)} FROM ${q(table.name)} WHERE ${q(c.name)} IS NOT NULL LIMIT 301`)[0]?.values ?? []).map((r) => String(r[0]));
    } catch {
      continue;
    }
    const named = values.filter((v) => UNIT_IN_BRACKETS.test(v));
    const units = new Set(named.map((v) => (UNIT_IN_BRACKETS.exec(v)?.[1] ?? '').toLowerCase()));
    const mixed = named.find((v) => RATIO_UNIT.test(UNIT_IN_BRACKETS.exec(v)?.[1] ?? ''));
    if (units.size >= 2 && mixed !== undefined && (!best || named.length > best.named.length)) best = { name: c.name, named, mixed };
  }
  return best;
}

/**
 * A day's readings hour by hour (`H01` … `H24`) of the substance a column names on each row (Barcelona's
 * `CODI_CONTAMINANT`: NO2 in µg/m³ on one row, CO in mg/m³ on the next): concentrations of several substances, never
 * summed as stored.
 */
function markHoursOfASubstance(table: TableProfile, columns: ColumnSemantics[]): void {
  const hours = columns.filter((c) => /^h_?\d{1,2}$/i.test(c.column) && c.role.value === 'measure' && c.additivity?.value !== 'non-additive' && c.additivity?.source.kind !== 'user' && c.role.source.kind !== 'user');
  if (hours.length < 12) return;
  const by = table.columns.find((c) => nameTokens(c.originalName || c.name).some((t) => SUBSTANCE_WORDS.has(t)) && c.distinctCount >= 2);
  if (!by) return;
  for (const c of hours) {
    c.additivity = { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:mixed-quantities' }, why: `one of ${hours.length} hourly readings of the substance ${by.name} names on each row: concentrations of several substances, never summed as stored` };
    c.aggregation = 'avg';
  }
}

/** A column that says what kind of figure every figure of its row is: `data_type`, `value_type`, `figure_kind`. */
const KIND_OF_FIGURE = /^(data|value|values|figure|figures|number|numbers|measure|statistic|stat|unit)_(type|kind)$/;

/**
 * A wide table whose rows say what all their figures are (DfE's destination measures: `data_type` "Number of pupils"
 * on one row of a group, "Percentage" on the next): a figure that is at most 100 on the share rows and more on the
 * others holds counts and shares, never summed as stored. A figure the two kinds of row repeat (the cohort) is one
 * quantity and keeps its additivity.
 */
function markKindsPerRow(db: Database, table: TableProfile, columns: ColumnSemantics[]): void {
  const by = table.columns.find((c) => c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 6 && KIND_OF_FIGURE.test(nameTokens(c.originalName || c.name).join('_')));
  if (!by) return;
  let kinds: string[];
  try {
    kinds = (db.exec(`SELECT DISTINCT ${q(by.name)} FROM ${q(table.name)} WHERE ${q(by.name)} IS NOT NULL`)[0]?.values ?? []).map((r) => String(r[0]));
  } catch {
    return;
  }
  const shares = kinds.filter((k) => RATIO_UNIT.test(k));
  if (shares.length === 0 || shares.length === kinds.length) return;
  const inShares = `${q(by.name)} IN (${shares.map((k) => `'${k.replace(/'/g, "''")}'`).join(', ')})`;
  for (const c of columns) {
    if (c.role.value !== 'measure' || c.additivity?.value === 'non-additive' || c.additivity?.source.kind === 'user' || c.role.source.kind === 'user') continue;
    let row: unknown[] | undefined;
    try {
      row = db.exec(`SELECT MAX(CASE WHEN ${inShares} THEN ${q(c.column)} END), MAX(CASE WHEN NOT (${inShares}) THEN ${q(c.column)} END), AVG(CASE WHEN ${inShares} THEN ${q(c.column)} END), AVG(CASE WHEN NOT (${inShares}) THEN ${q(c.column)} END) FROM ${q(table.name)} WHERE typeof(${q(c.column)}) IN ('integer', 'real')`)[0]?.values[0];
    } catch {
      continue;
    }
    const [shareMax, otherMax, shareMean, otherMean] = (row ?? []).map((v) => (typeof v === 'number' ? v : undefined));
    if (shareMax === undefined || otherMax === undefined || shareMean === undefined || otherMean === undefined || shareMax > 100) continue;
    // (Figures the two kinds of row both hold alike, the cohort on each, are one quantity.)
    if (otherMax <= 100 && Math.abs(shareMean - otherMean) <= 0.05 * Math.max(Math.abs(shareMean), Math.abs(otherMean))) continue;
    c.additivity = { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:mixed-quantities' }, why: `${by.name} says what each row's figures are ('${shares[0]}' or '${kinds.find((k) => !shares.includes(k))}'): at most ${shareMax} on the share rows, ${otherMean.toPrecision(3)} on average on the others, so shares and counts are never summed as stored` };
    c.aggregation = 'avg';
  }
}

/** Words of land, and of an area's units. */
const LAND_WORDS = new Set(['land', 'arable', 'forest', 'cropland', 'farmland', 'pasture', 'agricultural', 'irrigated']);
const AREA_WORDS = new Set(['area', 'km', 'k2', 'km2', 'sq', 'hectares', 'hectare', 'ha', 'acres', 'acre']);

/**
 * An area of land in a table over time (the World Bank's "Agricultural land (sq. km)" year by year): the land held at
 * each time, a stock, added across countries but not across years. (Without a time axis, a country's area adds up
 * over countries: additive stays.)
 */
export function markLandAreas(table: TableProfile, columns: ColumnSemantics[]): void {
  if (!columns.some((c) => c.role.value === 'time')) return;
  for (const c of columns) {
    if (c.role.value !== 'measure' || c.additivity?.value !== 'additive' || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') continue;
    const profile = table.columns.find((p) => p.name === c.column);
    const words = [...nameTokens(profile?.originalName || c.column), ...(c.description ? nameTokens(c.description.value) : [])];
    if (!words.some((w) => LAND_WORDS.has(w)) || !words.some((w) => AREA_WORDS.has(w))) continue;
    c.additivity = { value: 'semi-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:land-area' }, why: `an area of land in a table over time: the land held at each time, a stock, not summed over time` };
  }
}

/** Names of a column that says which quantity a long table's row measured (`quant`: rad, sal, temp; `parameter`). */
const QUANTITY_NAME_WORDS = new Set(['quant', 'quantity', 'parameter', 'param', 'variable', 'analyte', 'measure', 'indicator', 'metric', 'statistic', 'stat']);

/** A statistic named in a row (`Mean`, `P98`, `annual mean`, `50 percentile`, `max`): the value beside it is no amount. */
const namesStatistic = (value: string): boolean => /^p\d{1,2}(\.\d)?$/i.test(value.trim()) || nameTokens(value).some((t) => NON_ADDITIVE_WORDS.has(t));

/** A long table's generic value columns, the column that says per row what they hold, its values, and one of another kind. */
interface MixedColumn {
  values: ColumnSemantics[];
  by: ColumnSemantics;
  named: string[];
  mixed: string;
}

/**
 * The generic value columns (`value`, `reading`) of a long table and the column named by one of `words` (2–50
 * values) that says per row what they hold, when one of its values `mixes` kinds; undefined otherwise.
 */
function mixedBy(db: Database, table: TableProfile, columns: ColumnSemantics[], words: ReadonlySet<string>, mixes: (value: string) => boolean): MixedColumn | undefined {
  const profile = quantityColumn(table, words);
  const by = profile ? columns.find((c) => c.column === profile.name) : undefined;
  if (!by) return undefined;
  // A generic value column, or one named by the same word as the column that says what it holds (`statistic_value`
  // beside `statistic_name`).
  const own = nameTokens(by.column).filter((t) => words.has(t));
  const valueOf = (name: string) => isValueColumn(name) || (nameTokens(name).some((t) => VALUE_WORDS.has(t)) && nameTokens(name).every((t) => VALUE_WORDS.has(t) || own.includes(t)));
  const values = columns.filter((c) => c.role.value === 'measure' && c.additivity?.value !== 'non-additive' && c.additivity?.source.kind !== 'user' && c.role.source.kind !== 'user' && valueOf(c.column));
  if (values.length === 0) return undefined;
  let named: string[];
  try {
    named = (db.exec(`SELECT DISTINCT ${q(by.column)} FROM ${q(table.name)} WHERE ${q(by.column)} IS NOT NULL LIMIT 51`)[0]?.values ?? []).map((r) => String(r[0]));
  } catch {
    return undefined;
  }
  const mixed = named.find(mixes);
  return named.length >= 2 && mixed !== undefined ? { values, by, named, mixed } : undefined;
}

function mark(found: MixedColumn, rule: string, confidence: number, why: string): void {
  for (const c of found.values) {
    c.additivity = { value: 'non-additive', confidence, source: { kind: 'rule', rule }, why };
    c.aggregation = 'avg';
  }
}

/** Words of a name that say it counts places in a sequence (`projected_year_number`, `step`, `horizon`). */
const POSITION_WORDS = new Set(['number', 'no', 'num', 'index', 'position', 'step', 'horizon', 'order']);

/**
 * A count of periods that runs with a time column within each group (the 1st to 11th year of each baseline's
 * projection, linear in the projected year) is an ordinal: a position in time, neither a code nor a key. The column
 * of that name in the environment's other tables (the summary of errors by year of the projection) is the same.
 */
export function markPositionsInTime(tableColumns: Map<string, ColumnSemantics[]>, relationships: readonly Relationship[]): void {
  const named = new Map<string, string>();
  for (const r of relationships) {
    if (r.kind !== 'derived-column' || r.source.kind !== 'rule' || r.source.rule !== 'derived-column:groupwise-linear') continue;
    const time = r.from.find((f) => nameTokens(f).some((t) => TIME_WORDS.has(t)));
    const c = tableColumns.get(r.table)?.find((x) => x.column === r.column);
    if (!time || !c || c.role.source.kind === 'user' || !nameTokens(c.column).some((t) => POSITION_WORDS.has(t))) continue;
    c.role = { value: 'ordinal', confidence: 0.7, source: { kind: 'rule', rule: 'ordinal:position-in-time' }, why: `${r.relation}: a position in time (the n-th period), not a code` };
    named.set(c.column, r.table);
  }
  for (const list of tableColumns.values()) {
    for (const c of list) {
      const from = named.get(c.column);
      if (!from || c.role.value === 'ordinal' || c.role.source.kind === 'user' || !['dimension', 'identifier'].includes(c.role.value)) continue;
      c.role = { value: 'ordinal', confidence: 0.6, source: { kind: 'rule', rule: 'ordinal:position-in-time' }, why: `named as ${from}.${c.column}, a position in time` };
      delete c.identifier;
    }
  }
}
