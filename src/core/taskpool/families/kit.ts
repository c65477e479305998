/**
 * The family kit: what every task family is built from. A family reads the semantic profile (what a column means),
 * picks its parts only where the data supports them (aggregation by additivity, groupings by dimensions of 2–50
 * values, time only over time columns, no derived pairs), executes its steps in the sandboxes through a
 * `TaskProgram`, and returns a TaskSpec whose steps each carry a sub-answer.
 *
 * A new family goes in its own file in this folder and is listed in `index.ts`.
 */
import { createHash } from 'node:crypto';
import type { CodeRunner } from '../../agent/tools';
import type { ColumnProfile, DataDocument, EnvironmentProfile, TableProfile } from '../../env/types';
import { sharedTablePrefix } from '../../env/naming';
import { oneValuePerFile } from '../partScales';
import { isValueColumn, quantityColumn, UNIT_COLUMN_WORDS } from '../../semantics/levels';
import { skyPosition } from '../../semantics/columns';
import { monthOfYearColumns, periodColumns } from '../../semantics/periods';
import { allPartitionFiles, partitionFiles } from '../../semantics/partitions';
import { UNKNOWN_ANSWERS } from '../../semantics/values';
export { partitionFiles };
import { ADDITIVE_WORDS, COUNT_WORDS, DIMENSION_WORDS, FLAG_WORDS, GEO_WORDS, MONEY_WORDS, NON_ADDITIVE_WORDS, ORDINAL_WORDS, OTHER_LANGUAGES_YES_NO, SEMI_ADDITIVE_WORDS, TEXT_WORDS, TIME_WORDS, spanOfTime, translationLanguage, nameTokens, unglued, unitPair, gluedIdNoun, MONTH_TOKEN, totalSoFarAt, ITEM_CODE } from '../../semantics/lexicon';
import type { ColumnSemantics, Relationship, RepeatedValue, SemanticProfile } from '../../semantics/types';
import type { ToolResult } from '../../sandbox/types';
import { quoteIdent } from '../../text/sql';
import { nameParts, singular } from '../../text/words';
import { numberTolerance } from '../answer';
import type { EvidenceGraph } from '../graph';
import { lintQuestion } from '../lint';
import { legendDescription } from '../glossary';
import { repetitionKey } from '../repetition';
import { fileWords, tableLabel, unnamedLookAlikes, withTablesNamed } from '../revise';
import { statingTotalRows, withoutTotalRows } from '../totals';
import type { AnswerKey, DependencyKind, EvidenceStep, SubAnswer, TaskDifficulty, TaskSpec } from '../types';

export { quoteIdent as q, sqlLiteral } from '../../text/sql';

export interface FamilyContext {
  profile: EnvironmentProfile;
  /** What the data means: every family picks its measures, groupings and time columns from it. */
  semantics: SemanticProfile;
  sql: CodeRunner;
  /** Families with a Python step are skipped without it. */
  python?: CodeRunner;
  /** Tasks per family at most. */
  maxPerFamily: number;
  signal?: AbortSignal;
  documents: DataDocument[];
  graph?: EvidenceGraph;
  /**
   * Columns that never group rows, by `repetitionKey(table, column)`, with why: near-unique per-row ids
   * (repetition.ts). The pool measures them before the families run; a context without them groups by profile alone.
   */
  ungrouped?: ReadonlyMap<string, string>;
  /**
   * Of those, the columns written 'NA' on many rows (repetition.ts, `mostlyNotKnown`): no grouping reached through a
   * key either, where a parent's per-row ids are.
   */
  notKnown?: ReadonlySet<string>;
  /**
   * Tables whose row counts mean nothing, by name, with why: the cells of a grid (one per series and period), whose
   * counts are coverage, and nested arrays a form saved with empty items, whose counts are its defaults (grids.ts).
   * No family counts their rows. The pool measures them before the families run.
   */
  grids?: ReadonlyMap<string, string>;
  /**
   * Measures of a partition view whose files are on different scales (partScales.ts), by `repetitionKey(view,
   * column)`, with why: compared file by file, never pooled over the view's rows. The pool measures them first.
   */
  partScales?: ReadonlyMap<string, string>;
}

/** Whether a table's rows may be counted as things of the world: not the cells of a series × period grid, nor the pairs of a link table. */
export function rowsCount(context: FamilyContext, table: TableProfile | string): boolean {
  const name = typeof table === 'string' ? table : table.name;
  // A link table's rows are pairs (a trip listed once per source that records it): counted, they count a trip twice.
  if (context.semantics.tables.some((t) => t.table === name && t.kind.value === 'bridge')) return false;
  // A record's map of counts (a day's `responseStatusMap`: one entry per status, with its requests): each entry is a
  // tally already, and counting entries counts the statuses each day saw, not requests.
  const profile = typeof table === 'string' ? context.profile.tables.find((t) => t.name === name) : table;
  if (profile?.parent && profile.columns.some((c) => c.type === 'integer' && TALLY_NAMES.test(c.name) && semanticsOf(context, name, c.name)?.role.value === 'measure')) return false;
  return !context.grids?.has(name);
}

/**
 * Whether one value (most often 0) fills half the rows of a measure or more: its mean and standard deviation, its
 * percentiles and outliers then describe the few other rows, not a spread (a zero-filled grid of counts).
 */
export async function mostlyOneValue(context: FamilyContext, table: TableProfile, measure: ColumnProfile): Promise<boolean> {
  const m = quoteIdent(measure.name);
  const rows = await query(context, `SELECT MAX(n), SUM(n) FROM (SELECT COUNT(*) AS n FROM ${quoteIdent(table.name)} WHERE ${m} IS NOT NULL GROUP BY ${m})`);
  const top = num(rows?.[0]?.[0] ?? 0);
  const all = num(rows?.[0]?.[1] ?? 0);
  return all > 0 && top >= 0.5 * all;
}

/** Names of a tally of events in a row (`requests`, `page_views`, `count`, `hits`). */
const TALLY_NAMES = /^(n|count|counts|requests|hits|views|page_?views|visits|clicks|events|occurrences|frequency|freq)$/i;

export interface TaskFamily {
  id: string;
  description: string;
  /** What the data must offer, in words, for the pool report when the family finds nothing. */
  needs: string;
  generate(context: FamilyContext): Promise<TaskSpec[]>;
}

export const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v));

/** Stable id: the family and its parameters, hashed. */
export function taskId(family: string, parameters: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify([family, parameters])).digest('hex').slice(0, 12);
  return `${family}-${digest}`;
}

// ---- what columns mean -------------------------------------------------------------------------------------------

export function semanticsOf(context: FamilyContext, table: string, column: string): ColumnSemantics | undefined {
  return context.semantics.columns.find((c) => c.table === table && c.column === column);
}

const isNumeric = (c: ColumnProfile) => c.type === 'integer' || c.type === 'real';

/** Tables tasks are asked over: base tables and partition views (not their member files), not views derived from others. */
export function taskTables(context: FamilyContext, minRows = 10): TableProfile[] {
  const { semantics } = context;
  const members = new Set(semantics.partitions.flatMap((p) => (p.view ? p.tables.map((t) => t.table) : [])));
  const partitionViews = new Set(semantics.partitions.map((p) => p.view).filter((v): v is string => v !== undefined));
  const derived = new Set(semantics.tables.filter((t) => t.kind.value === 'derived').map((t) => t.table));
  // A codebook describes the data's columns (its counts are the schema's), and a twin table's copy is the same rows again.
  const metadata = new Set(semantics.tables.filter((t) => t.metadata).map((t) => t.table));
  const copies = new Set((semantics.twinTables ?? []).flatMap((t) => t.copies));
  // A long table of observations — one generic value per row, its quantity named beside it (OECD's `MEASURE`,
  // `Indikator`) — answers nothing across its rows: a statistic of its values mixes quantities, and its row counts
  // are the layout (the periods and series each file happens to hold). (A figure beside its own unit column, a fish
  // stock's `Estimated F` beside `F Unit`, is left out alone, by `measures`: the table's other figures stand.)
  const observations = (t: TableProfile) => t.columns.some((c) => isNumeric(c) && mixedQuantities(t, c, context) && !unitsOfItsOwn(context, t, c));
  return context.profile.tables
    .filter((t) => t.rowCount >= minRows && !members.has(t.name) && !metadata.has(t.name) && !copies.has(t.name) && (partitionViews.has(t.name) || !derived.has(t.name)) && !observations(t))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Numeric measures of a table (role measure, mostly filled, varying), additive ones first. A number nothing names as
 * a quantity that is nearly unique per row (an area code, a numbering) is left out: asking its average would ask
 * about a code if it is one.
 */
export function measures(context: FamilyContext, table: TableProfile, options: { additiveOnly?: boolean; perPart?: boolean } = {}): ColumnProfile[] {
  // (The columns of a wide table, one per quarter or year, are one series per row, not measures of their own: a
  // correlation of two quarters, or an outlier of one, says nothing. The wide-periods family reads them.)
  // (…and so are a month's columns of a yearly row, `Tot_MMBtu January` … `December`: the year's series.)
  const periods = new Set([...periodColumns(table).map((p) => p.column), ...monthOfYearColumns(table)]);
  const rank = (c: ColumnProfile) => (confidentlyAdditive(context, table.name, c.name) ? 0 : additivityOf(context, table.name, c.name) === 'semi-additive' ? 2 : 1);
  return table.columns
    .filter((c) => {
      const s = semanticsOf(context, table.name, c.name);
      // (Where an interval starts or ends, `tx_start` on a chromosome, is a position: its mean or correlation says little.)
      // (…nor a position on a plane, `X` and `Y` along a transect: a coordinate by another name.)
      if (s?.additivity?.source.kind === 'rule' && (s.additivity.source.rule === 'additivity:interval-bound' || s.additivity.source.rule === 'additivity:plane-coordinate')) return false;
      // (Nor a bound of a confidence interval, `cil` "… 95% C.I. lower": it moves with its estimate by construction.)
      if (confidenceBound(c, s?.description?.value)) return false;
      // (…nor its width, `confidence_interval`: how sure the estimate beside it is, not what it is; nor the logarithm
      // of another column of the table, `log_overall_costs_100k` beside `overall_costs_100k`: the same figures, transformed.)
      if (s?.additivity?.source.kind === 'rule' && (s.additivity.source.rule === 'additivity:confidence-interval' || s.additivity.source.rule === 'additivity:range-bound')) return false;
      if (logOfColumn(table, c)) return false;
      // (Nor a measure with a code for a value not known among its numbers, `-9` beside distances of 0 to 10 km: its
      // mean, total and outliers would count the code.)
      if (s?.missingCodes) return false;
      // (Nor a value whose own qualifier column marks bounds and estimates, NUBASE's `half_life` beside a
      // `half_life_relation` of '=', '<', '>', '~' — nor its error: means and correlations mix bounds with values.)
      if (qualifiedValue(table, c)) return false;
      // (Nor a number each file by year or season holds once for all its rows, CPL's matches `played`, 10, 7, 28: the
      // season's format, not a figure of its teams.)
      if (fixedPerFile(context, table, c)) return false;
      // (Nor a seasonally adjusted series beside its raw one: the same figures smoothed, which an office leaves 0 where
      // it made no estimate.)
      if (context.semantics.relationships.some((r) => r.kind === 'derived-column' && r.table === table.name && r.column === c.name && r.source.kind === 'rule' && r.source.rule === 'derived-column:seasonally-adjusted')) return false;
      if (periods.has(c.name)) return false;
      if (!isNumeric(c) || s?.role.value !== 'measure' || c.nullFraction >= 0.5 || c.distinctCount <= 2 || isCoordinate(c) || skyPosition(table, c) || isCircular(c) || isPictureSize(c) || inLocalCurrency(table, c) || inRowUnits(table, c) || runningTotal(context, table.name, c.name) || repeatedValue(context, table.name, c.name) || mixedQuantities(table, c, context) || unevenCoverage(context, table).has(c.name)) return false;
      const unnamed = s.role.source.kind === 'rule' && s.role.source.rule === 'measure:numbers';
      if (unnamed && c.type === 'integer' && c.distinctCount >= 0.9 * table.rowCount * (1 - c.nullFraction)) return false;
      // (Nor a column named only `Number` that no rule read as a count: the number a committee gives its sessions, 3 to
      // 893, says which session, and its average nothing.)
      if (unnamed && /^(number|no|num|nr)$/i.test((c.originalName || c.name).trim())) return false;
      // A numbered code no document spells out (`c14`, `c25` of a Census finance table): a reader cannot tell what it
      // measures, so nothing is asked of it.
      return !(/^[A-Za-z]{1,3}\d{1,4}$/.test(c.originalName || c.name) && !s.description && !legendDescription(context.documents, table, c.originalName || c.name));
    })
    .filter((c) => !options.additiveOnly || confidentlyAdditive(context, table.name, c.name))
    // A partition view's measure on different scales per file is compared file by file (`perPart`), never pooled.
    .filter((c) => options.perPart || !context.partScales?.has(repetitionKey(table.name, c.name)))
    .sort((a, b) => rank(a) - rank(b));
}

/** A bound of a confidence interval, by its description (`95% C.I. lower`, "upper confidence limit") or its name (`ci_lower`, `lcl`). */
export function confidenceBound(column: ColumnProfile, description: string | undefined): boolean {
  if (description && /\b(c\.?\s?i\.?|confidence (interval|limit|bound))\b.*\b(lower|upper|low|high|min|max)\b|\b(lower|upper) (\d+% )?(confidence|c\.?i\.?)\b|\b(lower|upper) (bound|limit)\b/i.test(description)) return true;
  const words = (column.originalName || column.name).toLowerCase().split(/[^a-z0-9]+/);
  // (…or written out, `upper_confidence_limit`, `lower_confidence_bound`.)
  if (words.includes('confidence') && words.some((w) => /^(lower|upper|low|high)$/.test(w))) return true;
  return words.some((w) => /^(lcl|ucl|lci|uci)$/.test(w)) || (words.includes('ci') && words.some((w) => /^(lower|upper|low|high|lo|hi|l|u|lb|ub)$/.test(w)));
}

/** A logarithm of another column of the table (`log_cvd_costs_100k` beside `cvd_costs_100k`, `ln_gdp` beside `gdp`). */
export function logOfColumn(table: TableProfile, column: ColumnProfile): boolean {
  const m = /^(log|ln|log10|log2)[_ .-]?(.+)$/i.exec(column.originalName || column.name);
  if (!m) return false;
  const stem = m[2].toLowerCase();
  return table.columns.some((c) => c !== column && (c.originalName || c.name).toLowerCase() === stem);
}

/** A code beside the name of what it codes, as many of each (`region_code` beside `region_name`): the name is the group a reader says. */
function codeBesideName(table: TableProfile, column: ColumnProfile): boolean {
  const m = /^(.+?)[_ ]?(code|cd|id)$/i.exec(column.originalName || column.name);
  if (!m) return false;
  const stem = m[1].replace(/[_ ]+$/, '').toLowerCase();
  return table.columns.some((c) => c !== column && c.type === 'text' && new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[_ ]?(name|nm|desc|description)$`, 'i').test(c.originalName || c.name) && Math.abs(c.distinctCount - column.distinctCount) <= 1);
}

/**
 * A parent's title that several parents share (sport.db's group 'Gruppe A' of three competitions): it names no one
 * parent, and grouping child rows by it pools those of different parents.
 */
export function sharedTitle(parent: TableProfile, column: ColumnProfile): boolean {
  return /^(name|title|label)$/i.test(column.originalName || column.name) && column.distinctCount < parent.rowCount * (1 - column.nullFraction);
}

/** A name (`team_name`) beside its own key (`team_id`) with another number of values: one thing named two ways. */
function renamedUnderKey(table: TableProfile, column: ColumnProfile): boolean {
  const m = /^(.+?)[_ ]?(name|nm|title|label)$/i.exec(column.originalName || column.name);
  if (!m || column.type !== 'text') return false;
  const stem = m[1].replace(/[_ ]+$/, '').toLowerCase();
  return table.columns.some((c) => c !== column && new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[_ ]?(id|code|key)$`, 'i').test(c.originalName || c.name) && Math.abs(c.distinctCount - column.distinctCount) > 1);
}

/** Units of time that days, nights or hours of observation are counted in. */
const TIME_COUNT_UNITS = /^(days|nights|hours|weeks|months)$/;

/**
 * Counts of days of each kind that add up to the days a row was observed (EPA's good + moderate + … + hazardous days =
 * days with an AQI, 2 to 366 of them), where some rows were observed for far fewer days than others: a raw count then
 * measures how long a row was observed as much as how its days were, so none of them is compared, averaged or ranked
 * across rows. The total and its parts, by column name; empty where the days observed are about the same on every row.
 */
export function unevenCoverage(context: FamilyContext, table: TableProfile): Set<string> {
  return coverageOf(context, table).columns;
}

/** The totals of days observed that `unevenCoverage` finds, each with its parts (in the table's own columns). */
export function coverageTotals(context: FamilyContext, table: TableProfile): Array<{ total: ColumnProfile; parts: ColumnProfile[] }> {
  return coverageOf(context, table).totals;
}

function coverageOf(context: FamilyContext, table: TableProfile): { columns: Set<string>; totals: Array<{ total: ColumnProfile; parts: ColumnProfile[] }> } {
  const cached = coverageCache.get(context)?.get(table.name);
  if (cached) return cached;
  const totals: Array<{ total: ColumnProfile; parts: ColumnProfile[] }> = [];
  const members = new Set([table.name, ...(partitionOfView(context, table)?.tables.map((t) => t.table) ?? [])]);
  const found = new Set<string>();
  for (const r of context.semantics.relationships) {
    if (r.kind !== 'derived-column' || !members.has(r.table) || r.from.length < 4 || r.relation !== r.from.join(' + ')) continue;
    const total = table.columns.find((c) => c.name === r.column);
    const words = nameParts(total?.originalName || r.column);
    if (!total || !words.some((w) => TIME_COUNT_UNITS.test(w)) || typeof total.min !== 'number' || typeof total.max !== 'number') continue;
    if (total.min >= 0.8 * total.max) continue;
    found.add(r.column);
    for (const part of r.from) found.add(part);
    const parts = r.from.map((name) => table.columns.find((c) => c.name === name)).filter((c): c is ColumnProfile => c !== undefined);
    if (parts.length === r.from.length && !totals.some((t) => t.total.name === total.name)) totals.push({ total, parts });
    // (…and so are the other counts of the same days: the days each pollutant led, another split of the same total.)
    const unit = words.find((w) => TIME_COUNT_UNITS.test(w))!;
    for (const c of table.columns) if (isNumeric(c) && nameParts(c.originalName || c.name).includes(unit) && typeof c.max === 'number' && c.max <= total.max) found.add(c.name);
  }
  if (!coverageCache.has(context)) coverageCache.set(context, new Map());
  const result = { columns: found, totals };
  coverageCache.get(context)!.set(table.name, result);
  return result;
}

const coverageCache = new WeakMap<FamilyContext, Map<string, { columns: Set<string>; totals: Array<{ total: ColumnProfile; parts: ColumnProfile[] }> }>>();

/** Angles on a circle (a compass bearing, a wind direction, an antenna's polarization): 350° and 10° are 20° apart, so
 * their mean, percentiles and sums say nothing; circular statistics are no task here. */
const CIRCULAR_WORDS = /^(bearing|bearings|heading|azimuth|azimuths|direction|dir|angle|angles|polarization|polarisation|orientation|winddir|wdir)$/;

/** The size of a picture (a thumbnail's width in pixels): how a page renders it, not a property of what the row is about. */
const PICTURE_WORDS = /^(thumbnail|thumb|image|img|photo|picture|poster|icon|logo|avatar|banner)$/;

export function isPictureSize(column: ColumnProfile): boolean {
  const words = nameParts(column.originalName || column.name);
  return words.some((w) => PICTURE_WORDS.test(w)) && words.some((w) => /^(width|height|size|px|pixels|w|h|bytes|resolution)$/.test(w));
}

export function isCircular(column: ColumnProfile): boolean {
  // Only angles that go round: a launch angle of −20…60° averages well, a machine's `bearing_temp` is no angle.
  const spread = typeof column.min === 'number' && typeof column.max === 'number' ? column.max - column.min : 0;
  return spread > 180 && nameParts(column.originalName || column.name).some((w) => CIRCULAR_WORDS.test(w.replace(/\d+$/, '')));
}

/**
 * A generic value column (`Value`) of a long table whose rows hold several quantities or units, named in a column
 * beside it (OECD's `MEASURE` of percentages, dollars and growth rates; an `Indikator` or `Einheit` per row): a
 * statistic over its rows mixes them, so no row-level statistic takes it.
 */
export function mixedQuantities(table: TableProfile, column: ColumnProfile, context?: FamilyContext): boolean {
  const rule = context ? semanticsOf(context, table.name, column.name)?.additivity?.source : undefined;
  // (…or a generic value beside a key of the measures each row holds, `measure_id`: a count and two percentages.)
  if (rule?.kind === 'rule' && (rule.rule === 'additivity:mixed-units' || rule.rule === 'additivity:mixed-quantities' || rule.rule === 'additivity:units-per-row' || rule.rule === 'additivity:measure-key')) return true;
  // `value`, or a value named for where it comes from (`oracle_value`, `observed_value`), beside such a column.
  const last = humanize(column.originalName || column.name).toLowerCase().split(' ').pop() ?? '';
  if ((isValueColumn(column.originalName || column.name) || VALUE_HEADS.test(last)) && quantityColumn(table) !== undefined) return true;
  return namedBySibling(table, column) !== undefined || unitsPerRow(table, column) !== undefined;
}

/** A figure the semantics found beside its own unit column of several units (`Estimated F` beside `F Unit`). */
function unitsOfItsOwn(context: FamilyContext, table: TableProfile, column: ColumnProfile): boolean {
  const rule = semanticsOf(context, table.name, column.name)?.additivity?.source;
  return rule?.kind === 'rule' && rule.rule === 'additivity:units-per-row';
}

/** A unit as a row writes it: `KG`, `46 KG`, `Pound`, `L`, `Dozen`, `MT`, `100 lb`, `%`, `USD/t`. */
const UNIT_VALUE = /^(\d+(\.\d+)?\s*)?(kg|kgs|g|gr|gram|grams|mg|lb|lbs|pound|pounds|oz|ounce|ounces|l|lt|ltr|litre|liter|litres|liters|ml|gallon|gallons|gal|dozen|unit|units|each|piece|pieces|pc|pcs|mt|t|ton|tons|tonne|tonnes|bag|bags|sack|sacks|head|heads|bunch|bunches|box|boxes|crate|crates|cup|cups|packet|packets|pack|loaf|loaves|bottle|bottles|can|cans|tin|tins|km|m|cm|mm|m2|m3|ha|acre|acres|kwh|mwh|gwh|%|percent|usd|eur|hour|hours|day|days|month|months|year|years)(\s*\/\s*\S+)?$/i;

/**
 * A column beside `column` that gives each row's unit (a food price per `Pound`, per `46 KG`, per `L`): two or more
 * units, so the column's rows are not in one unit and no statistic over them may mix them (a price per pound beside
 * one per 46 kg). Returns that column.
 */
export function unitsPerRow(table: TableProfile, column: ColumnProfile): ColumnProfile | undefined {
  const unit = quantityColumn(table, UNIT_COLUMN_WORDS);
  if (!unit || unit === column) return undefined;
  const shown = unit.samples.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return shown.length >= 2 && shown.filter((v) => UNIT_VALUE.test(v.trim())).length >= 0.6 * shown.length ? unit : undefined;
}

/** Last words of a value column's name (`statistic_value`, `harvest_amount`): the rest says what the value is of. */
const VALUE_HEADS = /^(value|values|val|amount|amounts|quantity|qty|figure|reading|number)$/;
/** Last words of a column that says, per row, what that value is or is counted in (`statistic_shortname`, `harvest_unit`). */
const SAYS_WHAT = /^(unit|units|statistic|stat|shortname|name|type|kind|code|measure|metric)$/;

/**
 * A value column with a sibling that says per row what it is (`statistic_value` beside `statistic_shortname`: a
 * mean, a maximum, an AOT40, a day count; `harvest_amount` beside `harvest_unit`: bags, crates, kg): two or more
 * kinds in one column, which no statistic over its rows may mix. Returns the sibling.
 */
export function namedBySibling(table: TableProfile, column: ColumnProfile): ColumnProfile | undefined {
  const words = humanize(column.originalName || column.name).toLowerCase().split(' ');
  if (words.length < 2 || !VALUE_HEADS.test(words[words.length - 1])) return undefined;
  const stem = words.slice(0, -1).join(' ');
  return table.columns.find((c) => {
    if (c === column || c.type !== 'text' || c.distinctCount < 2 || c.distinctCount > 50) return false;
    const other = humanize(c.originalName || c.name).toLowerCase().split(' ');
    return other.length >= 2 && SAYS_WHAT.test(other[other.length - 1]) && other.slice(0, -1).join(' ') === stem;
  });
}

/**
 * A parent's value repeated on each of its child rows (the chamber size on every party row of an election): summed
 * or averaged over the rows it counts each parent once per child, so no row-level statistic takes it (repeated.ts).
 */
export function repeatedValue(context: FamilyContext, table: string, column: string): RepeatedValue | undefined {
  return context.semantics.repeated?.find((r) => r.table === table && r.column === column);
}

/**
 * A column whose rows per value the layout fixes (a judge's seat on every panel, a partition's file `part`), a code
 * spelt beside its own name (`country_name_short` beside `country_name`), or a category's code beside the category's
 * name: no task groups by it.
 */
export function notAGrouping(context: FamilyContext, table: string, column: string): boolean {
  // (A category's code beside its name, `typ.nummer` 41 beside `typ.name` 'kreisfreie-stadt': the name groups.)
  const rule = semanticsOf(context, table, column)?.role.source;
  if (rule?.kind === 'rule' && rule.rule === 'dimension:category-code') return true;
  // (The column a table's stacked levels are told by, `O_GROUP`: the rows are kept at one level, nothing to group.)
  if ((context.semantics.totalRows ?? []).some((t) => t.table === table && t.column === column && t.keep !== undefined)) return true;
  return (context.semantics.layout ?? []).some((l) => l.table === table && l.column === column) || (context.semantics.twinColumns ?? []).some((t) => t.table === table && t.copy === column) || unitColumn(context, table, column);
}

/**
 * The unit another column is written in (`wind_speed_unit_code`: mph or knots; `uom`): it says how a figure was
 * measured, not a kind of row, so "which wind speed unit code has the most deaths" asks nothing.
 */
function unitColumn(context: FamilyContext, table: string, column: string): boolean {
  const s = semanticsOf(context, table, column);
  if (s?.role.source.kind === 'rule' && s.role.source.rule === 'dimension:unit-name') return true;
  const words = humanize(context.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column)?.originalName || column).toLowerCase().split(' ');
  return words.some((w) => /^(unit|units|uom)$/.test(w)) && words.length <= 5;
}

/**
 * A partition view's file key (`fraternity` for fraternities.json, sororities.json …): its rows per value are the
 * files' lengths, so counting rows by it counts the layout ("how many fraternities have fraternity 'sororities'"),
 * though a measure compared across it (a station's average) is a question.
 */
export function isFileKey(context: FamilyContext, table: string, column: string): boolean {
  return context.semantics.partitions.some((p) => p.view === table && p.key === column);
}

/**
 * A running total (deaths to date): its average, its total or its correlation with another total says how long the
 * series runs, not how much happened; tasks take its increments instead.
 */
export function runningTotal(context: FamilyContext, table: string, column: string): boolean {
  const tables = new Set([table, ...(context.semantics.partitions.find((p) => p.view === table)?.tables.map((m) => m.table) ?? [])]);
  if (context.semantics.relationships.some((r) => r.kind === 'derived-column' && tables.has(r.table) && r.column === column && r.source.kind === 'rule' && r.source.rule === 'derived-column:running-total')) return true;
  // (…or named one, `reg_count_cumu`, `rem_excess_cumu_per`: a figure to date, or a share of one, which an average over
  // its months, an outlier among them or a correlation with another running figure only repeats.)
  const tokens = nameTokens(column);
  if (tokens.some((t) => /^(cumu|cumul|cumulative|cum|todate)$/.test(t))) return true;
  // (…or a total so far, `gross_outlay_amount_fyb_to_period_end`, `cases_to_date`, `sales_ytd`: the fiscal year's
  // outlays to each month's end, repeated and grown month after month. Beside the months it adds up, EIA-923's
  // `year_to_date_…` after `…_january` … `…_december` is the year's total.)
  const soFar = tokens.some((t) => t === 'ytd' || t === 'fytd') || totalSoFarAt(tokens) > 0;
  if (!soFar) return false;
  const own = context.profile.tables.find((t) => t.name === table);
  const monthly = own?.columns.some((c) => MONTH_TOKEN.test(nameTokens(c.originalName || c.name).at(-1) ?? '')) ?? false;
  // (…and only in a table of reporting periods, a month's or a quarter's figures so far: one snapshot of titles'
  // `ytd_sales` adds up across titles like any amount.)
  const periodic = own?.columns.some((c) => { const grain = semanticsOf(context, table, c.name)?.time?.grain; return grain === 'month' || grain === 'quarter' || grain === 'year'; }) ?? false;
  return periodic && !monthly;
}


export function additivityOf(context: FamilyContext, table: string, column: string): 'additive' | 'semi-additive' | 'non-additive' {
  return semanticsOf(context, table, column)?.additivity?.value ?? 'non-additive';
}

/**
 * Additive by evidence (a name that says amount or count, a dictionary, the user), not by default: only then is a
 * SUM asked. A measure the rules know nothing about is averaged — an average of an amount still means something,
 * a sum of a rate does not.
 */
export function confidentlyAdditive(context: FamilyContext, table: string, column: string): boolean {
  // (A table of things at several levels, districts beside their counties: its amounts summed count some twice.)
  if (context.semantics.tables.some((t) => t.table === table && t.nested)) return false;
  const additivity = semanticsOf(context, table, column)?.additivity;
  return additivity?.value === 'additive' && !(additivity.source.kind === 'rule' && additivity.source.rule === 'additivity:default');
}

export interface Aggregate {
  /** `SUM`, or `AVG` for measures that do not add up. */
  fn: 'SUM' | 'AVG';
  /** The aggregate over an expression: `SUM(c."amount")`. */
  of(expression: string): string;
  /** "total revenue", "average unit price". */
  phrase: string;
}

/**
 * How a measure is aggregated, by its additivity: SUM for additive ones, AVG for the rest (a semi-additive level
 * is averaged across time; summing it across entities at one moment is a snapshot family's business).
 */
export function aggregateOf(context: FamilyContext, table: string, column: ColumnProfile): Aggregate {
  const additive = confidentlyAdditive(context, table, column.name);
  const name = measureName(context, table, column);
  // "total order total" says it twice: a name that already says total is summed as "the sum of order totals".
  // (A name that opens with "total" and says what of, "total renewable energy production (Quadrillion Btu)", is that
  // total over any rows: "the sum of total … values" says it twice.)
  if (additive) return { fn: 'SUM', of: (e) => `SUM(${e})`, phrase: /^total(\s+[\w-]+){2,}/i.test(name) ? name : /\b(total|sum)s?\b/.test(name) ? `sum of ${pluralWords(name)}` : `total ${name}` };
  // "average average temperature" says it twice: the mean of a name that is already an average.
  return { fn: 'AVG', of: (e) => `AVG(${e})`, phrase: averagePhrase(name) };
}

/** "average unit price"; the mean of a name that is already an average, "mean of the averaged incidence values", not "average averaged incidence". */
export function averagePhrase(name: string): string {
  return /^(average|averaged|mean)\b/.test(name) ? `mean of the ${pluralWords(name)}` : `average ${name}`;
}

/** A measure's name in words, with a unit the semantic profile knows when the name lacks it. */
export function measureName(context: FamilyContext, table: string, column: ColumnProfile): string {
  const phrase = columnPhrase(context, table, column);
  // A one-word name a codebook calls a count ("casual: count of casual users"): "the number of casual users".
  const described = semanticsOf(context, table, column.name)?.description;
  const counted = described?.source.kind === 'dictionary' ? /^(?:count|number|total number|no\.?) of ([a-z][a-z -]{2,40}?)\.?$/i.exec(described.value.trim()) : null;
  if (counted && !phrase.includes(' ') && counted[1].split(' ').length <= 4) return `number of ${counted[1].toLowerCase()}`;
  // A count named by what it counts (`seats`, `places`): "the number of seats", which a verb agrees with ("is").
  if (column.type === 'integer' && /^[a-z]{4,}$/.test(phrase) && !/os$/.test(phrase) && pluralWord(phrase) && !PLURAL_WORDS.has(phrase)) return `number of ${phrase}`;
  // `amount` alone says nothing: the amount of a payment is a "payment amount".
  if (!GENERIC_MEASURES.has(phrase)) return phrase;
  // A dataset's name is no noun for it ("the unemployment across industry count"): the column's word alone.
  const profile = context.profile.tables.find((t) => t.name === table);
  const owner = profile ? parentNoun(context, profile) : noun(table, 'one');
  return owner ? `${owner} ${phrase}` : phrase;
}

const GROUP_ROLES = new Set(['dimension', 'ordinal', 'flag', 'geo']);
const UNGROUPABLE_GEO = new Set(['latitude', 'longitude', 'address', 'postal-code']);

/** A position in a list (a line number, a sequence, a rank): ordered, but not a group anyone compares. */
export function isPosition(column: ColumnProfile): boolean {
  return column.type === 'integer' && /(^|_|\b)(line|seq|sequence|position|pos|index|idx|no|number|num|rank|order)(_|$|\b)/i.test(column.name.replace(/([a-z])([A-Z])/g, '$1_$2'));
}

/**
 * One of a numbered pair of sides (`team1` and `team2`, `player_1` and `player_2`): which side an entity is listed on
 * is arbitrary, so grouping by one side alone counts half of each entity's rows (a home / away pair, named for what
 * the sides mean, is not numbered).
 */
export function isNumberedSide(table: TableProfile, column: ColumnProfile): boolean {
  // (…and so is its key, `team1_id` beside `team2_id`, as sport.db keeps a game's teams.)
  const m = /^(.*?[a-z])([_ ]?)([12])([_ ]?(?:id|code|key))?$/i.exec(column.name);
  if (!m) return false;
  const other = `${m[1]}${m[2]}${m[3] === '1' ? '2' : '1'}${m[4] ?? ''}`.toLowerCase();
  return table.columns.some((c) => c !== column && c.name.toLowerCase() === other && c.type === column.type);
}

/** Last words that make a column another figure of the same thing (`price_min`, `sales_total`), not another coding of it. */
const FIGURE_SUFFIXES = /^(min|max|mean|avg|average|median|total|sum|count|pct|percent|share|rate|ratio|change|diff|delta|new|old|prev|previous|next|code|name|id|desc|description|label|text|flag|group|type|class|category)$/i;

/**
 * Two codings of one property: one column is the other with the name of a source after it (the author's
 * `constituent_order` beside `constituent_order_wals`, adapted from WALS): relating them measures how the codings
 * agree, not the data.
 */
export function codingsOfOne(a: ColumnProfile, b: ColumnProfile): boolean {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  const extra = long.startsWith(`${short}_`) ? long.slice(short.length + 1) : undefined;
  return extra !== undefined && /^[a-z]{3,}$/.test(extra) && !FIGURE_SUFFIXES.test(extra);
}

/** Columns to group a table by: dimensions, ordinals, flags and areas with `min`–`max` distinct values (default 2–50). */
export function groupings(context: FamilyContext, table: TableProfile, options: { min?: number; max?: number; parentOf?: boolean } = {}): ColumnProfile[] {
  const min = options.min ?? 2;
  const max = options.max ?? 50;
  return table.columns.filter((c) => {
    const s = semanticsOf(context, table.name, c.name);
    if (!s || !GROUP_ROLES.has(s.role.value) || (s.geo && UNGROUPABLE_GEO.has(s.geo)) || isPosition(c) || isNumberedSide(table, c) || notAGrouping(context, table.name, c.name)) return false;
    if (codeBesideName(table, c)) return false;
    // (Nor a name its key beside it does not follow one to one, EWF's `team_name`, 46 names of 31 `team_id`s as clubs
    // were renamed: "which team" has two answers, by name and by club.)
    if (renamedUnderKey(table, c)) return false;
    // A grouping must repeat: a column of per-row ids is no category, however few its values. A parent's column
    // (each department's name) repeats over the child's rows the key joins to it.
    if (!options.parentOf && context.ungrouped?.has(repetitionKey(table.name, c.name))) return false;
    if (context.notKnown?.has(repetitionKey(table.name, c.name))) return false;
    if (quantileBins(c)) return false;
    // (Nor a column whose codebook's codes for no answer, NLS's -4 valid skip and -5 non-interview, are among its
    // values: its groups would count them as answers.)
    if (s.missingCodes) return false;
    // (Nor a qualifier of a value, '=' / '<' / '~': how exact each value beside it is, no kind of thing.)
    if (comparisonMarks(c)) return false;
    // (Nor a partition's file column, `source_ecoregion`, where the files hold the same `ecoregion` themselves: the
    // files' own column is the grouping, named as they name it.)
    const partition = context.semantics.partitions.find((p) => p.view === table.name);
    if (partition && c.name === `source_${partition.key}` && table.columns.some((o) => o.name === partition.key)) return false;
    // (Nor the result of a significance test, HSE's `sig_avg` Higher / Lower / No / No#: a verdict on a figure, which
    // counting or ranking rows by says nothing about the data.)
    if (/(^|_)(sig|signif|significance|significant|significantly)(_|$)/i.test(c.name) || /\bstatistically significan/i.test(s.description?.value ?? '')) return false;
    // (A sort key, `sort` 0, 1, 1.1 …, orders the rows for display: no group anyone compares.)
    if (s.role.source.kind === 'rule' && s.role.source.rule === 'ordinal:sort-key') return false;
    // (Nor the page a case or an article starts on: a position in its volume, one per record.)
    if (s.role.source.kind === 'rule' && s.role.source.rule === 'ordinal:page-position') return false;
    return c.distinctCount >= min && c.distinctCount <= max && c.nullFraction < 0.5;
  });
}

const QUANTILE_WORDS = /\b(quintiles?|deciles?|quartiles?|terciles?|tertiles?|percentiles?|centiles?)\b/i;

/**
 * Bins of the rows by a quantity's quantiles (an IMD quintile, an income decile): each holds about as many rows as the
 * next by construction, and the quantity binned — often another column of the table — decides which bin leads, so
 * neither their counts nor "which quintile has the highest …" tell anything the binning did not put there.
 */
export function quantileBins(column: ColumnProfile): boolean {
  if (QUANTILE_WORDS.test(humanize(column.originalName || column.name))) return true;
  const texts = column.samples.filter((v): v is string => typeof v === 'string');
  return texts.length > 0 && texts.every((v) => QUANTILE_WORDS.test(v));
}

export interface TimeColumn {
  column: ColumnProfile;
  /** An SQL expression giving an ISO date (or datetime) text for the column. */
  date: string;
  grain: string;
}

/** Real time columns of a table whose values can be read as dates (ISO text, years, `YYYY-MM` periods, day numbers), dating the rows. */
export function timeColumns(context: FamilyContext, table: TableProfile, alias = ''): TimeColumn[] {
  const found: TimeColumn[] = [];
  for (const c of table.columns) {
    const s = semanticsOf(context, table.name, c.name);
    if (s?.role.value !== 'time' || !s.time || c.nullFraction >= 0.5 || c.distinctCount < 3) continue;
    // When a record was last edited (`updated`, `last_modified`) dates the edit, not what the record is about: a
    // snapshot's rows counted by it are no series.
    if (editedStamp(c.originalName || c.name)) continue;
    const ref = `${alias}${quoteIdent(c.name)}`;
    if (s.time.storage === 'iso-date' || s.time.storage === 'iso-datetime') found.push({ column: c, date: ref, grain: s.time.grain });
    else if (s.time.isoExpression && (s.time.storage === 'year' || s.time.storage === 'period' || s.time.storage === 'epoch-s' || s.time.storage === 'epoch-ms' || s.time.storage === 'epoch-days' || s.time.storage === 'excel-serial' || s.time.layout === 'YYYYMMDD')) {
      found.push({ column: c, date: s.time.isoExpression.replace(/\{col\}/g, ref), grain: s.time.grain });
    }
  }
  return found;
}

/** A name of when a record was last edited: `updated`, `updated_at`, `last_modified`, `date_modified`, `edited`. */
export function editedStamp(name: string): boolean {
  const words = humanize(name).toLowerCase().split(' ');
  return words.some((w) => /^(updated|modified|edited|changed|revised)$/.test(w)) || (words.includes('last') && words.some((w) => /^(update|modification|edit|change|revision)$/.test(w)));
}

/** Pearson's r of two SQL expressions over the rows an aggregate reads (population moments). */
export const pearsonSql = (a: string, b: string): string => `(AVG(${a} * ${b}) - AVG(${a}) * AVG(${b})) / (SQRT(AVG(${a} * ${a}) - AVG(${a}) * AVG(${a})) * SQRT(AVG(${b} * ${b}) - AVG(${b}) * AVG(${b})))`;

/** A column's average rank (ties share the mean of their ranks), as a window expression: Spearman's ρ is Pearson's r of two. */
export const averageRankSql = (c: string): string => `(RANK() OVER (ORDER BY ${c}) + (COUNT(*) OVER (PARTITION BY ${c}) - 1) / 2.0)`;

/**
 * |r| at or above which one measure nearly holds the other (a streetcar's gap to the next car is its delay plus the
 * headway, r ≈ 0.99): the link is the construction, not a finding.
 */
export const NEAR_IDENTITY_R = 0.97;
/** Third measures a pair is tried against (as the sum of the two, or one plus it), at most. */
const MAX_THIRD_MEASURES = 60;

/**
 * Whether two measures of a table are linked by how they are made rather than by what they measure, as the data
 * shows: one nearly holds the other (|r| ≥ NEAR_IDENTITY_R); one is all but never below the other and moves with it (on 95% of rows, r ≥ 0.7 or Spearman's ρ ≥ 0.8:
 * a streetcar's gap to the next car is its delay plus the headway); or one is the other plus a third measure of the
 * table on most rows (Vélib's free docks = capacity − bikes available on 82% of the stations). Correlating or
 * splitting one by the other finds the construction.
 */
export async function constructedLink(context: FamilyContext, table: TableProfile, a: ColumnProfile, b: ColumnProfile): Promise<boolean> {
  const t = quoteIdent(table.name);
  const [x, y] = [quoteIdent(a.name), quoteIdent(b.name)];
  const both = `${x} IS NOT NULL AND ${y} IS NOT NULL`;
  const rows = await query(context, `SELECT ${pearsonSql(x, y)}, COUNT(*), SUM(${x} <= ${y}), SUM(${y} <= ${x}), SUM(${x} = ${y}) FROM ${t} WHERE ${both}`);
  const [r, n, below, above, equal] = (rows?.[0] ?? []).map((v) => Number(v));
  if (!Number.isFinite(r) || n < 10) return false;
  if (Math.abs(r) >= NEAR_IDENTITY_R) return true;
  // Fractional figures equal to the digit on many rows (raw δ13C and its lipid-corrected value, the same on 426 of 983
  // specimens the correction leaves alone): one is the other corrected, not a second measurement.
  if (a.type === 'real' && b.type === 'real' && a.distinctCount > 20 && b.distinctCount > 20 && equal >= 0.2 * n) return true;
  if (Math.max(below, above) >= 0.95 * n) {
    if (r >= 0.7) return true;
    // (By rank where a few outliers hide the link: November's gaps and delays, r = 0.54.)
    const ranked = await query(context, `SELECT ${pearsonSql('rx', 'ry')} FROM (SELECT ${averageRankSql(x)} AS rx, ${averageRankSql(y)} AS ry FROM ${t} WHERE ${both})`);
    if (Number(ranked?.[0]?.[0]) >= 0.8) return true;
  }
  // A few-valued measure that is a step of the other (a match's points, 0, 1 or 3, by the sign of its goal difference).
  const [few, many] = a.distinctCount <= MAX_STEP_GROUPS && b.distinctCount > MAX_STEP_GROUPS ? [x, y] : b.distinctCount <= MAX_STEP_GROUPS && a.distinctCount > MAX_STEP_GROUPS ? [y, x] : [undefined, undefined];
  if (few !== undefined && many !== undefined && (await stepsOf(context, t, few, many, both))) return true;
  // (One query for every third measure: a pair is tried against all of them at once.)
  const thirds = table.columns.filter((z) => z !== a && z !== b && (z.type === 'integer' || z.type === 'real') && semanticsOf(context, table.name, z.name)?.role.value === 'measure').slice(0, MAX_THIRD_MEASURES);
  if (thirds.length === 0) return false;
  const near = (e: string) => `ABS(${e}) <= 1e-9 * MAX(1, ABS(${x}), ABS(${y}))`;
  // A rate of one over the third, or of what is left of the third (TER's regularity, 100 × (trains run − trains late) /
  // trains run, beside the trains late), in per cent or as a fraction, as published to two decimals or one of a per cent.
  const ratio = (u: string, v: string, w: string) => [1, 100].flatMap((k) => [`${u} - ${k}.0 * ${v} / ${w}`, `${u} - ${k}.0 * (${w} - ${v}) / ${w}`].map((e) => `ABS(${e}) <= ${0.0051 * k}`)).join(' OR ');
  const counts = thirds.map((z) => {
    const w = quoteIdent(z.name);
    // (Only a rate in fractions is one: whole numbers meet such a formula by chance, a draw's 1 goal = 1 goal / 1 point.)
    const rates = [a.type === 'real' ? ratio(x, y, w) : undefined, b.type === 'real' ? ratio(y, x, w) : undefined].filter((e) => e !== undefined);
    return `SUM(CASE WHEN ${w} IS NOT NULL THEN 1 ELSE 0 END), SUM(CASE WHEN ${w} IS NOT NULL AND (${near(`${x} - ${y} - ${w}`)} OR ${near(`${y} - ${x} - ${w}`)}) THEN 1 ELSE 0 END), SUM(CASE WHEN ${w} IS NOT NULL AND ${w} <> 0 AND (${rates.length > 0 ? rates.join(' OR ') : '0'}) THEN 1 ELSE 0 END)`;
  });
  const sums = (await query(context, `SELECT ${counts.join(', ')} FROM ${t} WHERE ${both} AND NOT (${x} = 0 AND ${y} = 0)`))?.[0]?.map((v) => Number(v)) ?? [];
  for (let k = 0; k + 2 < sums.length; k += 3) if (sums[k] >= 20 && (sums[k + 1] >= 0.8 * sums[k] || sums[k + 2] >= 0.9 * sums[k])) return true;
  return false;
}

/** Whether every file of a partition by year or season (three at least) holds one value of the column on all its rows. */
function fixedPerFile(context: FamilyContext, table: TableProfile, column: ColumnProfile): boolean {
  const partition = context.semantics.partitions.find((p) => p.view === table.name);
  if (!partition || !/^(year|season)$/.test(partition.key) || partition.tables.length < 3) return false;
  const members = partition.tables.map((m) => context.profile.tables.find((t) => t.name === m.table));
  return members.every((m) => m !== undefined) && oneValuePerFile(members as TableProfile[], column.name) && column.distinctCount >= 2;
}

/**
 * The measures of `ms` (of a table read as `from`, its rows aliased or not) that decide a category, alone or as the
 * difference of two (a match's result by goals for − goals against, sport.db's toto 1 / X / 2 by score1 − score2):
 * its groups compared by them find the rule that made it. At most 8 measures are tried, in pairs.
 */
export async function decidingMeasures(context: FamilyContext, from: string, category: string, ms: readonly ColumnProfile[], prefix = ''): Promise<Set<string>> {
  const found = new Set<string>();
  const tried = ms.slice(0, 8);
  const ref = (c: ColumnProfile) => `${prefix}${quoteIdent(c.name)}`;
  for (const m of tried) if (await stepsOf(context, from, category, ref(m), `${category} IS NOT NULL AND ${ref(m)} IS NOT NULL`)) found.add(m.name);
  for (let i = 0; i < tried.length; i++) {
    for (let j = i + 1; j < tried.length; j++) {
      const [a, b] = [tried[i], tried[j]];
      if (await stepsOf(context, from, category, `(${ref(a)} - ${ref(b)})`, `${category} IS NOT NULL AND ${ref(a)} IS NOT NULL AND ${ref(b)} IS NOT NULL`)) {
        found.add(a.name);
        found.add(b.name);
      }
    }
  }
  return found;
}

/** Groups (or values of a few-valued measure) at most, for a step of a measure. */
const MAX_STEP_GROUPS = 6;

/**
 * Whether the groups of `groups` are ranges of the measure `measure` over the rows `from … WHERE where`: cut points
 * on the measure tell every row's group, but for 1% (a win is a goal difference above 0, a match's points 0, 1 or 3
 * by its sign, but for a few matches awarded); or, for a measure of few values, each value tells the group (a draw is
 * a goal difference of 0). Comparing the groups by the measure then finds the rule.
 */
export async function stepsOf(context: FamilyContext, from: string, groups: string, measure: string, where: string): Promise<boolean> {
  const rows = await query(context, `SELECT ${groups}, ${measure}, COUNT(*) FROM ${from} WHERE ${where} GROUP BY 1, 2`);
  if (!rows) return false;
  const byGroup = new Map<string, Array<[number, number]>>();
  let total = 0;
  for (const [g, v, n] of rows) {
    if (g === null || v === null || !Number.isFinite(Number(v))) continue;
    const list = byGroup.get(String(g)) ?? [];
    list.push([Number(v), Number(n)]);
    byGroup.set(String(g), list);
    total += Number(n);
  }
  if (byGroup.size < 2 || byGroup.size > MAX_STEP_GROUPS || total < 20) return false;
  // The groups in the order of their medians; each value of the measure goes to one group, the groups in that order.
  const median = (list: Array<[number, number]>) => {
    const sorted = [...list].sort((p, r) => p[0] - r[0]);
    const half = sorted.reduce((sum, [, n]) => sum + n, 0) / 2;
    let seen = 0;
    for (const [v, n] of sorted) if ((seen += n) >= half) return v;
    return sorted[sorted.length - 1][0];
  };
  const order = [...byGroup.entries()].sort((p, r) => median(p[1]) - median(r[1])).map(([g]) => g);
  const values = [...new Set([...byGroup.values()].flatMap((list) => list.map(([v]) => v)))].sort((p, r) => p - r);
  const countAt = new Map<string, number>();
  for (const [g, list] of byGroup) for (const [v, n] of list) countAt.set(`${g}\u0000${v}`, n);
  // Rows kept by the best monotone assignment of values to groups (dynamic programming over values and groups).
  let best = order.map(() => 0);
  for (const v of values) {
    let carry = -Infinity;
    best = order.map((g, i) => {
      carry = Math.max(carry, best[i]);
      return carry + (countAt.get(`${g}\u0000${v}`) ?? 0);
    });
  }
  if (Math.max(...best) >= 0.99 * total) return true;
  // (…or any rule on a measure of few values, each on ten rows or more: a draw is a goal difference of 0, whichever side.)
  if (values.length > total / 10) return false;
  const kept = values.reduce((sum, v) => sum + Math.max(...order.map((g) => countAt.get(`${g}\u0000${v}`) ?? 0)), 0);
  return kept >= 0.99 * total;
}

/** Cells that qualify a value beside them, not a category: '=', '<', '>', '~', '≤', '≥', '?' (a bound, an estimate). */
const COMPARISON_MARKS = /^\s*[=<>~≤≥≈?]{1,2}\s*$/;

/** A text column all of whose values are comparison marks (NUBASE's `branching_relation`): a qualifier of a value. */
export function comparisonMarks(column: ColumnProfile): boolean {
  const texts = column.samples.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return column.type === 'text' && texts.length > 0 && texts.every((v) => COMPARISON_MARKS.test(v));
}

/**
 * A value with a qualifier column of comparison marks named after it (`half_life` and `half_life_relation`,
 * `branching` and `branching_relation`), or the error of such a value (`half_life_error`): some of its rows are bounds
 * or estimates, and an average or a correlation over them mixes those with measured values.
 */
export function qualifiedValue(table: TableProfile, column: ColumnProfile): boolean {
  const stem = column.name.toLowerCase().replace(/_(error|err|uncertainty|unc|sigma|sd)$/, '');
  return table.columns.some((c) => c !== column && comparisonMarks(c) && new RegExp(`^${stem.replace(/[^a-z0-9_]/g, '')}_(relation|qualifier|qual|flag|sign|comparator|operator|limit)$`).test(c.name.toLowerCase()) && c.distinctCount >= 2);
}

/** A category value that says the category is not known (`NK`, `Unknown`, `Not stated`): no group of its own to rank. */
export const NOT_KNOWN_CATEGORY = /^(nk|n\/k|unk|unknown|not known|not stated|not specified|unspecified|not recorded)$/i;

/** Whether two columns are computed one from the other (or from shared inputs): comparing them says nothing. */
export function derivedPair(context: FamilyContext, a: { table: string; column: string }, b: { table: string; column: string }): boolean {
  const computed = context.semantics.relationships.filter((r): r is Extract<Relationship, { kind: 'derived-column' }> => r.kind === 'derived-column');
  // A partition's union view computes what its files compute: the files' relationships hold for it.
  const members = (table: string) => new Set([table, ...(context.semantics.partitions.find((p) => p.view === table)?.tables.map((m) => m.table) ?? [])]);
  const inputs = (x: { table: string; column: string }) => {
    const tables = members(x.table);
    return new Set([x.column, ...computed.filter((r) => tables.has(r.table) && r.column === x.column).flatMap((r) => r.from)]);
  };
  if (a.table !== b.table) {
    // Across tables, a view column copied from its base is the same data.
    const sa = semanticsOf(context, a.table, a.column);
    const sb = semanticsOf(context, b.table, b.column);
    return sa?.role.why === `copies ${b.table}.${b.column}` || sb?.role.why === `copies ${a.table}.${a.column}`;
  }
  const ia = inputs(a);
  const ib = inputs(b);
  return [...ia].some((x) => ib.has(x)) || variantNames(context, a, b) || sameSeriesOtherYear(a.column, b.column) || oneSizeTwoWays(a.column, b.column) || partAndWhole(a.column, b.column) || describedFrom(context, a, b) || describedFrom(context, b, a) || totalOfItsKind(context, a, b) || totalOfItsKind(context, b, a);
}

/** Unit words a header ends with (`… (Quadrillion Btu)`, `…_gbp_m`), left out when reading its head noun. */
const HEADER_UNITS = /^(quadrillion|trillion|billion|million|thousand|thousands|btu|mwh|kwh|gwh|twh|gbp|usd|eur|m|bn|k|pct|percent|nsa|sa)$/;

/**
 * A total and a figure of its own kind in the same table (`Total Score` and the category score "Undocumented Access",
 * "weighted score for …"; total primary energy production and nuclear production): the total adds them up, so the two
 * rise together by construction. The whole's name is "total …" or "… total"; the other's name or description holds the
 * whole's head noun (score, production).
 */
function totalOfItsKind(context: FamilyContext, whole: { table: string; column: string }, part: { table: string; column: string }): boolean {
  const columnOf = (x: { table: string; column: string }) => context.profile.tables.find((t) => t.name === x.table)?.columns.find((c) => c.name === x.column);
  const wordsOf = (text: string) => humanize(text).toLowerCase().replace(/[()]/g, ' ').split(/[^a-z0-9]+/).filter(Boolean);
  const w = wordsOf(columnOf(whole)?.originalName || whole.column);
  if (w.length < 2 || !(w[0] === 'total' || w[w.length - 1] === 'total')) return false;
  const head = w.filter((x) => x !== 'total' && !HEADER_UNITS.test(x)).pop();
  if (!head || head.length < 4) return false;
  const p = wordsOf(columnOf(part)?.originalName || part.column);
  if (p.includes('total')) return false;
  const described = semanticsOf(context, part.table, part.column)?.description?.value ?? '';
  return p.includes(head) || wordsOf(described).includes(head);
}

/**
 * A column its dictionary says is computed from the other ("The computed volume of the piece … based on the length and
 * average diameter"; "Total calculated biomass … of each sapling involved in the given count"): related by
 * construction, whatever the relation's form, which no test of the values need find.
 */
function describedFrom(context: FamilyContext, a: { table: string; column: string }, b: { table: string; column: string }): boolean {
  const inputsOfA = describedInputs(context, a);
  if (inputsOfA.has(b.column)) return true;
  // (…or both from the same column: two textures of one NDVI, "NDVI-based GLCM texture: mean" and "…: variance".)
  const inputsOfB = describedInputs(context, b);
  return [...inputsOfA].some((c) => inputsOfB.has(c));
}

/**
 * The columns of its table a column's description says it is made from: named after "computed", "derived", "based
 * on", "from" ("Normalized Difference Vegetation Index from RED and NIR") or before "-based" ("NDVI-based GLCM
 * texture"). Names of four letters or more are matched as words; shorter ones (`RED`, `NIR`) only as written in capitals.
 */
function describedInputs(context: FamilyContext, x: { table: string; column: string }): Set<string> {
  const found = new Set<string>();
  const described = semanticsOf(context, x.table, x.column)?.description?.value;
  if (!described) return found;
  const lower = described.toLowerCase();
  const afterWord = /\b(computed|calculated|derived|estimated|product of|sum of|ratio of|based on|based upon|from)\b/.exec(lower);
  const table = context.profile.tables.find((t) => t.name === x.table);
  for (const c of table?.columns ?? []) {
    if (c.name === x.column) continue;
    const original = c.originalName || c.name;
    const named = humanize(original).toLowerCase();
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // (A short code counts only as the file writes it, in capitals: `RED`, not "red" in a sentence.)
    const asWord = named.length >= 4 ? new RegExp(`(^|[^a-z0-9])${escape(named)}($|[^a-z0-9])`) : /^[A-Z0-9]{2,}$/.test(original) ? new RegExp(`(^|[^A-Za-z0-9])${escape(original)}($|[^A-Za-z0-9])`) : undefined;
    if (!asWord) continue;
    const text = named.length >= 4 ? lower : described;
    const after = afterWord ? text.slice(afterWord.index) : '';
    const based = new RegExp(`(^|[^A-Za-z0-9])${escape(named.length >= 4 ? named : original)}-based\\b`).test(text);
    if ((afterWord && asWord.test(after)) || based) found.add(c.name);
  }
  return found;
}

/**
 * A part and its whole, or parts of one whole: names alike but for a number (`sector1_percent` and `sector3_percent`,
 * a record's shares of one 100; bed days of stays of 7+ and of 14+ days, the second inside the first), or one the
 * total of what the other names (`totalcommamt` and `idacommamt`, a project's IDA commitment inside its total).
 * They correlate by construction.
 */
function partAndWhole(a: string, b: string): boolean {
  const [na, nb] = [humanize(a).toLowerCase(), humanize(b).toLowerCase()];
  if (na === nb) return false;
  const numbered = (s: string) => s.replace(/\d+(\.\d+)?\+?/g, '#');
  if (/\d/.test(na) && /\d/.test(nb) && numbered(na) === numbered(nb) && !(YEAR_SUFFIX.test(a) && YEAR_SUFFIX.test(b))) return true;
  const TOTAL = /^(total|overall|grand)|\btotal$/;
  if (TOTAL.test(na.replace(/\s+/g, '')) === TOTAL.test(nb.replace(/\s+/g, ''))) return false;
  const [whole, part] = TOTAL.test(na.replace(/\s+/g, '')) ? [na, nb] : [nb, na];
  const core = whole.replace(/\s+/g, '').replace(/^(total|overall|grand)|total$/, '');
  return core.length >= 4 && part.replace(/\s+/g, '').endsWith(core);
}

/** Words of a thing's size, measured more than one way on the same thing. */
const SIZE_WORDS = /^(length|lengths|weight|weights|mass|height|width|diameter|girth|span|wingspan)$/;

/**
 * One size of a thing measured two ways (`standard_length` and `fork_length` of a fish, `wet_weight` and
 * `dry_weight`): they rise together by construction, a correlation that tells nothing.
 */
function oneSizeTwoWays(a: string, b: string): boolean {
  const head = (name: string) => humanize(name).toLowerCase().split(' ').filter(Boolean).pop() ?? '';
  const ha = head(a);
  return SIZE_WORDS.test(ha) && ha === head(b);
}

/**
 * One quantity in two years of a wide table (`gdp_percap_1967` and `gdp_percap_1972`, `1987` and `1988`): a series
 * against itself a step later, which correlates by construction.
 */
function sameSeriesOtherYear(a: string, b: string): boolean {
  return YEAR_SUFFIX.test(a) && YEAR_SUFFIX.test(b) && a.replace(YEAR_SUFFIX, '') === b.replace(YEAR_SUFFIX, '');
}

/** A header that is a year (`1987`), or ends in one after an underscore (`gdpPercap_1952`): a wide table's column of that year. */
const YEAR_SUFFIX = /(^|_)(1[89]|20)\d\d$/;
const BARE_YEAR = /^(1[89]|20)\d\d$/;
/** The one who did a deed a column is named by (`recordedBy`: "recorder"), for the deeds whose doer has a plain name. */
const DOERS: Record<string, string> = {
  recorded: 'recorder', created: 'creator', collected: 'collector', observed: 'observer', reviewed: 'reviewer', reported: 'reporter', submitted: 'submitter',
  approved: 'approver', checked: 'checker', verified: 'verifier', written: 'writer', sampled: 'sampler', surveyed: 'surveyor', photographed: 'photographer',
  owned: 'owner', managed: 'manager', operated: 'operator', edited: 'editor', authored: 'author', published: 'publisher', funded: 'funder', sponsored: 'sponsor',
  determined: 'determiner', measured: 'measurer', processed: 'processor', inspected: 'inspector', classified: 'classifier',
  annotated: 'annotator', validated: 'validator', uploaded: 'uploader', assigned: 'assignee', installed: 'installer',
};


/** The first word of a whole's name: `all workers`, `total deaths`, `overall score`. */
const WHOLE_WORDS = /^(all|total|overall|every|any|combined)$/;
/** Levels of one scale that split a whole: `low`, `medium`, `high` deprivation. */
const LEVEL_WORDS = /^(low|lower|medium|mid|middle|moderate|high|higher|upper|very)$/;

/**
 * Two names of one quantity, one the other's words plus a qualifier (`EUR` and `EUR_raw`, `fertility` and
 * `n_fertility`, `deaths` and `deaths_total`): a quantity beside its own variant, not two quantities.
 */
function variantNames(context: FamilyContext, a: { table: string; column: string }, b: { table: string; column: string }): boolean {
  const original = (x: { table: string; column: string }) => {
    const column = context.profile.tables.find((t) => t.name === x.table)?.columns.find((c) => c.name === x.column);
    return column?.originalName || x.column;
  };
  const [na, nb] = [original(a).toLowerCase(), original(b).toLowerCase()];
  const wa = humanize(original(a)).toLowerCase().split(' ');
  const wb = humanize(original(b)).toLowerCase().split(' ');
  // A series laid out wide, a column per month or year (`JAN` … `DEC`, `1990` … `2001`), and its annual average or
  // total: one quantity at other times, which a trend makes correlate by construction.
  if (CALENDAR_NAME.test(na) && CALENDAR_NAME.test(nb)) return true;
  const table = context.profile.tables.find((t) => t.name === a.table);
  const wide = (table?.columns.filter((c) => CALENDAR_NAME.test((c.originalName || c.name).toLowerCase())).length ?? 0) >= 3;
  if (wide && ((CALENDAR_NAME.test(na) && SERIES_SUMMARY.test(nb)) || (CALENDAR_NAME.test(nb) && SERIES_SUMMARY.test(na)))) return true;
  // A quantity and its numbered part (`pop` and `pop16`, the population above 16): one name, one with a number.
  if (/\d$/.test(na) !== /\d$/.test(nb) && na.replace(/[\s_]*\d+$/, '') === nb.replace(/[\s_]*\d+$/, '')) return true;
  // A price and its own extremes or other readings (`52 Week High`, `Low`, `Open`, `Adj Close`): one price, read at other times.
  const reading = (ws: string[]) => ws.length > 0 && /^(high|low|open|close|closing|opening|peak|trough)$/.test(ws[ws.length - 1]);
  const price = (ws: string[]) => ws.length > 0 && /^(price|close|last|value)$/.test(ws[ws.length - 1]);
  if ((reading(wa) && (price(wb) || reading(wb))) || (reading(wb) && price(wa))) return true;
  // A rank or a band of the rows by a quantity (`pcon-imd-pop-decile` beside the deprivation score it bins): a
  // quantity beside its own ordering, which correlates by construction.
  const band = (ws: string[]) => ws.length > 0 && /^(rank|ranking|decile|deciles|quintile|quintiles|quartile|quartiles|tercile|terciles|percentile|centile)$/.test(ws[ws.length - 1]);
  if (band(wa) !== band(wb)) return true;
  const [short, long] = wa.length <= wb.length ? [wa, wb] : [wb, wa];
  if (short.length < long.length && short.every((w) => long.includes(w))) return true;
  // A whole and one of its parts (`all_workers` and `hourly_workers`), or parts of one whole by level (`low_deprivation`
  // and `high_deprivation`, shares of one population): one head, qualified by `all` or by levels of one scale.
  const sameHead = wa.length >= 2 && wb.length >= 2 && wa[wa.length - 1] === wb[wb.length - 1];
  if (sameHead && (WHOLE_WORDS.test(wa[0]) || WHOLE_WORDS.test(wb[0]))) return true;
  // `all_workers` beside a breakdown of the same workers by education or industry (`some_college`, `finance`): the
  // whole of every breakdown in the table.
  if ((/^(all|overall)$/.test(wa[0]) && wa.length >= 2) || (/^(all|overall)$/.test(wb[0]) && wb.length >= 2)) return true;
  if (sameHead && wa.length === 2 && wb.length === 2 && LEVEL_WORDS.test(wa[0]) && LEVEL_WORDS.test(wb[0])) return true;
  // Prefixed variants of one name: `n_life_expect` and `p_life_expect`.
  const stem = (ws: string[]) => ws.filter((w) => w.length > 2).join(' ');
  return stem(wa) !== '' && stem(wa) === stem(wb) && wa.join(' ') !== wb.join(' ');
}

/** A column named for a month, a quarter or a year of a series laid out wide. */
const CALENDAR_NAME = /^(jan|feb|mar|apr|may|jun|june|jul|july|aug|sep|sept|oct|nov|dec|january|february|march|april|august|september|october|november|december|q[1-4]|t?_?\d{4}|y\d{4}|fy\d{2,4})$/;
/** A wide series' summary column: its annual average or total. */
const SERIES_SUMMARY = /^(avg|average|mean|total|annual|year|yearly|annual average)$/;

export interface ForeignKey {
  child: TableProfile;
  childColumn: ColumnProfile;
  parent: TableProfile;
  parentColumn: ColumnProfile;
  containment: number;
  byName: boolean;
}

/**
 * Whether every parent has the same number of child rows (each CMS record's two usage links, two container images):
 * counting the children of a group of parents then only counts the parents again.
 */
export async function sameChildCount(context: FamilyContext, via: ForeignKey): Promise<boolean> {
  const rows = await query(context, `SELECT MIN(n), MAX(n), COUNT(*) FROM (SELECT COUNT(*) AS n FROM ${quoteIdent(via.child.name)} GROUP BY ${quoteIdent(via.childColumn.name)})`);
  const [min, max, parents] = (rows?.[0] ?? []).map((v) => Number(v));
  return parents > 0 && min === max && parents >= via.parent.rowCount * 0.95;
}

/** The many-to-one keys of the semantic profile between task tables, with their profiles. */
export function foreignKeys(context: FamilyContext): ForeignKey[] {
  const tables = new Map(context.profile.tables.map((t) => [t.name, t]));
  const usable = new Set(taskTables(context, 1).map((t) => t.name));
  const found: ForeignKey[] = [];
  for (const r of context.semantics.relationships) {
    if (r.kind !== 'foreign-key' || !usable.has(r.child.table) || !usable.has(r.parent.table)) continue;
    const child = tables.get(r.child.table);
    const parent = tables.get(r.parent.table);
    const childColumn = child?.columns.find((c) => c.name === r.child.column);
    const parentColumn = parent?.columns.find((c) => c.name === r.parent.column);
    if (child && parent && childColumn && parentColumn && parentColumn.candidateKey) found.push({ child, childColumn, parent, parentColumn, containment: r.containment, byName: r.byName });
  }
  return found;
}

/**
 * A readable label for a parent's rows: a text column that names them (unique or nearly), not the key itself;
 * the key when nothing names the rows better (a code such as `iata` is a fine label too).
 */
/** A key the loader made to link a JSON record's nested arrays to it (`_row_id`, `_parent_row_id`): in no file. */
export const isGeneratedKey = (name: string): boolean => /^_(parent_)?row_id$/.test(name);

export function labelColumn(context: FamilyContext, table: TableProfile, key: ColumnProfile): ColumnProfile {
  const texts = table.columns.filter((c) => {
    // One side of a match (`team1`) does not name it.
    if (c === key || c.type !== 'text' || c.nullFraction > 0 || isNumberedSide(table, c)) return false;
    const role = semanticsOf(context, table.name, c.name)?.role.value;
    return role === 'text' || role === 'dimension' || role === 'geo' || role === 'identifier';
  });
  return texts.find((c) => c.distinctCount === table.rowCount) ?? texts.find((c) => c.distinctCount >= 0.8 * table.rowCount) ?? key;
}

// ---- executing steps ------------------------------------------------------------------------------------------

const EVIDENCE_PREVIEW_ROWS = 20;

/** Runs one evidence step; the step keeps the first rows of its result. */
export async function evidence(context: FamilyContext, tool: EvidenceStep['tool'], code: string, purpose: string): Promise<{ step: EvidenceStep; result: ToolResult }> {
  const runner = tool === 'run_sql' ? context.sql : context.python;
  if (!runner) throw new Error(`no ${tool} sandbox`);
  // Total rows ('World' beside the countries) are left out of every read of their table (taskpool/totals.ts).
  if (tool === 'run_sql') code = withoutTotalRows(code, context.semantics.totalRows);
  const result = await runner.run(code, { signal: context.signal });
  const step: EvidenceStep = { tool, code, purpose };
  if (result.ok && tool === 'run_sql') step.result = { columns: result.columns ?? [], rows: (result.rows ?? []).slice(0, EVIDENCE_PREVIEW_ROWS) };
  if (result.ok && tool === 'run_python') step.result = { columns: ['stdout'], rows: [[(result.stdout ?? '').trim()]] };
  return { step, result };
}

export async function query(context: FamilyContext, sql: string): Promise<unknown[][] | undefined> {
  const result = await context.sql.run(withoutTotalRows(sql, context.semantics.totalRows), { signal: context.signal });
  return result.ok ? result.rows ?? [] : undefined;
}

/** A count is right within half a unit; a computed value within its rounding (or 1e-4 relative). */
function toleranceOf(value: number, decimals: number | undefined): number {
  return decimals === undefined && Number.isInteger(value) ? 0.5 : numberTolerance(value, decimals);
}

/** How a step's result is read as its sub-answer. */
export type Reading =
  | { kind: 'string' }
  | { kind: 'number'; decimals?: number }
  | { kind: 'list'; ordered: boolean }
  /** The last line a Python step prints, as a number. */
  | { kind: 'printed-number'; decimals?: number };

/** The sub-answer key a step's rows (or printed output) state, or undefined when they state none. */
export function readKey(result: ToolResult, reading: Reading): AnswerKey | undefined {
  if (!result.ok) return undefined;
  if (reading.kind === 'printed-number') {
    const value = Number((result.stdout ?? '').trim().split('\n').pop());
    return Number.isFinite(value) ? { type: 'number', value, tolerance: toleranceOf(value, reading.decimals) } : undefined;
  }
  const rows = result.rows ?? [];
  if (reading.kind === 'list') {
    const values = rows.map((r) => r[0]);
    return values.length > 0 && values.every((v) => v !== null && v !== undefined) ? { type: 'list', values: values.map(String), ordered: reading.ordered } : undefined;
  }
  const cell = rows[0]?.[0];
  if (cell === null || cell === undefined) return undefined;
  if (reading.kind === 'number') {
    const value = num(cell);
    return Number.isFinite(value) ? { type: 'number', value, tolerance: toleranceOf(value, reading.decimals) } : undefined;
  }
  return { type: 'string', value: String(cell) };
}

/**
 * A task program being built: each step is executed as it is added, its result read as a sub-answer; a step that
 * fails, returns nothing or states no answer ends the program (the family moves on to its next candidate).
 */
export class TaskProgram {
  readonly steps: EvidenceStep[] = [];
  private readonly results: ToolResult[] = [];

  constructor(
    private readonly context: FamilyContext,
    readonly composition: string,
  ) {}

  /** Executes a step; returns its result (rows or stdout) and sub-answer key, or undefined when it states none. */
  async step(tool: EvidenceStep['tool'], code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }): Promise<{ result: ToolResult; key: AnswerKey; rows: unknown[][] } | undefined> {
    const { step, result } = await evidence(this.context, tool, code, purpose);
    const key = readKey(result, answer.reading);
    if (!key) return undefined;
    const sub: SubAnswer = { label: answer.label, key };
    if (answer.carries && answer.carries.length > 0) sub.carries = answer.carries;
    step.subAnswer = sub;
    if (answer.uses && answer.uses.length > 0) step.uses = answer.uses;
    this.steps.push(step);
    this.results.push(result);
    return { result, key, rows: result.rows ?? [] };
  }

  sql(code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }) {
    return this.step('run_sql', code, purpose, answer);
  }

  python(code: string, purpose: string, answer: { label: string; reading: Reading; uses?: number[]; carries?: string[] }) {
    return this.step('run_python', code, purpose, answer);
  }

  /** The task: the last step's sub-answer is its answer. */
  task(spec: { family: string; parameters: Record<string, unknown>; question: string; tables: string[]; dependency?: DependencyKind; documents?: TaskSpec['documents']; needs?: string }): TaskSpec {
    const last = this.steps[this.steps.length - 1];
    if (!last?.subAnswer) throw new Error('a task program needs at least one step with a sub-answer');
    const task: TaskSpec = {
      id: taskId(spec.family, spec.parameters),
      family: spec.family,
      question: spec.question,
      answer: last.subAnswer.key,
      evidence: this.steps,
      difficulty: difficultyOf(this.steps, spec.tables),
      tables: spec.tables,
      program: { composition: this.composition, steps: this.steps.length, ...(spec.needs ? { needs: spec.needs } : {}) },
    };
    if (spec.dependency) task.dependency = spec.dependency;
    if (spec.documents) task.documents = spec.documents;
    return task;
  }
}

/** Difficulty from the evidence's shape: joins and extra steps weigh most. */
export function difficultyOf(steps: EvidenceStep[], tables: string[]): TaskDifficulty {
  const sqlText = steps.filter((s) => s.tool === 'run_sql').map((s) => s.code).join('\n');
  const joins = (sqlText.match(/\bJOIN\b/gi) ?? []).length;
  const aggregation = /\b(GROUP BY|COUNT|SUM|AVG|MIN|MAX)\b/i.test(sqlText);
  const grouped = /\bGROUP BY\b/i.test(sqlText);
  const window = /\bOVER\s*\(/i.test(sqlText);
  const python = steps.some((s) => s.tool === 'run_python');
  // Joins and Python steps are where agents slip most (wrong keys, runtime errors), so they weigh double.
  const score = steps.length - 1 + 2 * joins + (grouped ? 1 : 0) + (window ? 1 : 0) + (python ? 2 : 0);
  const level = score <= 0 ? 'easy' : score <= 2 ? 'medium' : 'hard';
  return { steps: steps.length, tables: tables.length, joins, aggregation: aggregation || python, window, python, level };
}

// ---- signals, not noise ----------------------------------------------------------------------------------------

/**
 * A clear winner: the first value beats the second by at least `margin` of its magnitude (5% by default), and
 * there are at least two groups. Ties at the top, or a photo finish, make an answer that says nothing.
 */
export function clearLeader(rows: unknown[][], valueAt = 1, margin = 0.05): boolean {
  if (rows.length < 2 || rows[0][0] === null || rows[0][0] === undefined) return false;
  const a = num(rows[0][valueAt]);
  const b = num(rows[1][valueAt]);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return a > b && a - b >= margin * Math.max(Math.abs(a), 1e-9);
}

/**
 * Whether the rate of an outcome differs across groups more than chance would make it: Pearson's chi-square test of
 * independence on the groups × (outcome, not outcome) table, at the 5% level (the critical value by the
 * Wilson–Hilferty approximation: 3.75 against the tabulated 3.84 at one degree of freedom, within 1% from three on).
 * `groups` holds each group's rows and rate. Two unrelated columns (a house's wall type and a reason for not
 * irrigating) fail it.
 */
export function ratesDiffer(groups: ReadonlyArray<{ n: number; rate: number }>): boolean {
  const kept = groups.filter((g) => g.n > 0 && Number.isFinite(g.rate));
  if (kept.length < 2) return false;
  const total = kept.reduce((s, g) => s + g.n, 0);
  const hits = kept.reduce((s, g) => s + g.rate * g.n, 0);
  const p = hits / total;
  if (p <= 0 || p >= 1) return false;
  const chi2 = kept.reduce((s, g) => {
    const expected = g.n * p;
    const observed = g.rate * g.n;
    return s + (observed - expected) ** 2 / expected + (observed - expected) ** 2 / (g.n - expected);
  }, 0);
  const df = kept.length - 1;
  const critical = df * (1 - 2 / (9 * df) + 1.6449 * Math.sqrt(2 / (9 * df))) ** 3;
  return chi2 >= critical;
}

/**
 * Whether a grouping on the table itself only cuts its time axis: each period has one value of it (a `Status` of
 * Historical up to 2023 and Projected after, `before`/`after` a reform). Comparing its groups compares periods, with
 * every trend of the series in the difference, not two kinds of row.
 */
export async function cutOfTime(context: FamilyContext, table: TableProfile, g: Grouping): Promise<boolean> {
  if (g.table.name !== table.name) return false;
  for (const t of timeColumns(context, table)) {
    const rows = await query(context, `SELECT COUNT(*), SUM(n > 1) FROM (SELECT COUNT(DISTINCT ${quoteIdent(g.column.name)}) AS n FROM ${quoteIdent(table.name)} WHERE ${quoteIdent(t.column.name)} IS NOT NULL GROUP BY ${quoteIdent(t.column.name)})`);
    if (rows && num(rows[0]?.[0]) >= 3 && num(rows[0]?.[1]) === 0) return true;
  }
  return false;
}

/** Values that are all the same say nothing about a comparison. */
export function varies(rows: unknown[][], valueAt = 1): boolean {
  return new Set(rows.map((r) => String(r[valueAt]))).size > 1;
}

/**
 * Which column dates the years or months a question names, in words: nothing where the table has one time column
 * and it is a year ("from 2016 to 2017"); " (calendar years of the report date)" where the periods are read from a
 * date; " (by year ID)" where the table has more than one time column.
 */
export function periodQualifier(context: FamilyContext, table: TableProfile, time: TimeColumn, grain: 'year' | 'month'): string {
  const by = columnPhrase(context, table.name, time.column);
  const several = timeColumns(context, table).length > 1;
  if (time.grain === 'year' || (grain === 'month' && time.grain === 'month')) return several ? ` (by ${by})` : '';
  // An event's time named by its verb (`ordered_at`): "of the 'ordered_at' date", not "of the ordered at".
  if (/\s(at|on)$/.test(by)) return ` (calendar ${grain}s of the '${time.column.originalName || time.column.name}' date)`;
  return ` (calendar ${grain}s of the ${by})`;
}

/** Periods (years, months) with the full count of their sub-periods: a year whose data ends in May is partial. */
export async function fullPeriods(context: FamilyContext, table: TableProfile, time: TimeColumn, grain: 'year' | 'month'): Promise<string[]> {
  const t = quoteIdent(table.name);
  const format = grain === 'year' ? '%Y' : '%Y-%m';
  const inner = grain === 'year' ? '%Y-%m' : '%Y-%m-%d';
  const rows = await query(context, `SELECT strftime('${format}', ${time.date}) AS p, COUNT(DISTINCT strftime('${inner}', ${time.date})) AS parts, COUNT(*) AS n FROM ${t} WHERE ${time.date} IS NOT NULL GROUP BY 1 ORDER BY 1`);
  if (!rows) return [];
  const most = Math.max(...rows.map((r) => num(r[2])), 0);
  // Yearly data (one date per year) has one part per year: then a year is complete when it has its share of rows.
  const yearly = rows.every((r) => num(r[1]) <= 1);
  const kept = rows.filter((r) => r[0] !== null && (yearly ? num(r[2]) >= 0.5 * most : grain === 'year' ? num(r[1]) >= 12 : num(r[1]) >= 25) && num(r[2]) >= 0.3 * most);
  // A last period with clearly fewer rows than the one before is a period the data has not finished (three quarters of
  // a year): dated by year alone, its rows are all there is to tell.
  if (yearly && kept.length >= 2 && num(kept[kept.length - 1][2]) < 0.9 * num(kept[kept.length - 2][2])) kept.pop();
  return kept.map((r) => String(r[0]));
}

/**
 * Whether the files of a partition's union view that report change from period to period (a station joining in 1920,
 * another leaving in 2020) over the given periods: a total pooled over them then follows the coverage, not the
 * quantity. False for a table that is no partition view.
 */
export async function coverageChanges(context: FamilyContext, table: TableProfile, period: string, periods: readonly string[], reporting?: ColumnProfile): Promise<boolean> {
  const partition = context.semantics.partitions.find((p) => p.view === table.name);
  if (!partition || !table.columns.some((c) => c.name === partition.key)) return false;
  const known = reporting ? `${quoteIdent(reporting.name)} IS NOT NULL AND ` : '';
  const rows = await query(context, `SELECT ${period} AS period, COUNT(DISTINCT ${quoteIdent(partition.key)}) FROM ${quoteIdent(table.name)} WHERE ${known}${period} IS NOT NULL GROUP BY 1`);
  const wanted = new Set(periods);
  const counts = (rows ?? []).filter((r) => wanted.has(String(r[0]))).map((r) => num(r[1]));
  return counts.length === 0 || Math.min(...counts) !== Math.max(...counts);
}

// ---- words -----------------------------------------------------------------------------------------------------

const ACRONYM = /^[A-Z0-9]{2,6}$/;

/**
 * Words a header may write in capitals (`STATE`, `PARTY`, `TOTAL`) that are words, not acronyms: the vocabulary the
 * semantic rules already read names by, and a few words of results and rosters. Written in capitals they are still
 * "state" and "party" to an analyst; an acronym (`GDP`, `FTHG`) is no word of it and stays.
 */
const CAPITALISED_WORDS = new Set(
  [...ADDITIVE_WORDS, ...COUNT_WORDS, ...DIMENSION_WORDS, ...FLAG_WORDS, ...Object.keys(GEO_WORDS), ...MONEY_WORDS, ...NON_ADDITIVE_WORDS, ...ORDINAL_WORDS, ...SEMI_ADDITIVE_WORDS, ...TEXT_WORDS, ...TIME_WORDS,
    'party', 'general', 'primary', 'candidate', 'winner', 'total', 'totals', 'votes', 'notes', 'district', 'office', 'market', 'place', 'result', 'results']
    .filter((w) => w.length >= 4 && /[aeiouy]/.test(w)),
);

/**
 * A column or table name as an analyst writes it: `unit_price` → "unit price", `OrderDate` → "order date";
 * codes and acronyms stay as written (`FTHG`, `GDP`, `FOD1P`), digits stay attached (`t_1962` → "1962").
 */
export function humanize(name: string): string {
  // An isotope ratio in delta notation (`ẟ13CRAW`, `δ15N`, `ẟ13Clipid_corrected`): "δ13C raw", "δ15N", "δ13C lipid
  // corrected", the element kept as chemists write it.
  const isotope = /^\s*[δẟ](\d{1,2})([A-Z][a-z]?)(?![a-z])[_\s]*(.*)$/u.exec(name) ?? /^\s*[δẟ](\d{1,2})([A-Z])(.*)$/u.exec(name);
  if (isotope) {
    const rest = isotope[3].trim();
    return `δ${isotope[1]}${isotope[2]}${rest === '' ? '' : ` ${humanize(/^[A-Z]+$/.test(rest) ? rest.toLowerCase() : rest)}`}`;
  }
  // A flattened JSON key under a record's `name` or `id` object (`name.last`, `id.bioguide`) is that kind of name or
  // id: "last name", "bioguide ID"; under any other object (`address.city`) the object qualifies what follows.
  const dotted = /^(name|names|id|ids)\.([A-Za-z][\w]*)$/i.exec(name.trim());
  if (dotted) return `${humanize(dotted[2])} ${/^ids?$/i.test(dotted[1]) ? 'ID' : 'name'}`;
  // A unit in parentheses after the words (`Capital cost (NZD/kW)`, `Total capacity installed (MW)`) stays as written.
  const unit = /^(.*\S)\s*\(([^()]{1,24})\)\s*$/.exec(name);
  if (unit && /[A-Za-z]/.test(unit[1])) return `${humanize(unit[1])} (${unit[2].trim()})`;
  // …and so does a unit written with a slash among the words (`Carbon Intensity gCO₂eq/kWh`, `Flow m3/s`).
  const words = name.trim().split(/\s+/);
  const slashed = words.findIndex((w) => /^[^/]*[A-Za-z][^/]*\/[^/]*[A-Za-z0-9][^/]*$/.test(w) && w.length <= 16);
  if (words.length > 1 && slashed >= 0) return [humanize(words.slice(0, slashed).join(' ')), words[slashed], humanize(words.slice(slashed + 1).join(' '))].filter((w) => w !== '').join(' ');
  // (A mapping file's header opens with a comment mark, QIIME's `#SampleID`, VCF's `#CHROM`: no part of the name.)
  const parts = name
    .replace(/^#+(?=[A-Za-z])/, '')
    .replace(/([a-z0-9])([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[_\-.\s:]+/)
    .filter((p) => p !== '');
  // A survey export's question number (`B05_memb_age`, `D12_harvst_amount`) or section letter (`D_crops`,
  // `E_no_group`) before the words: a place in the questionnaire, not a word of the name. Not a quarter, a half or a
  // percentile (`Q1_sales`, `H2_revenue`, `P98_value`), nor a coordinate or a count (`X_coord`, `N_cases`).
  while (parts.length > 1 && /^([A-GI-MO-OR-W]\d{2}[a-z]?|[A-GI-MO-OR-W])$/.test(parts[0]) && /^[a-z]{2,}/.test(parts[1])) parts.shift();
  const kept = parts
    // (An acronym in the plural, `OIAs`, stays an acronym; so do initials joined by an ampersand, `a&e`: "A&E".)
    .map((p) => ((ACRONYM.test(p) && /[A-Z]/.test(p) && !/^[A-Z][a-z]/.test(p) && !CAPITALISED_WORDS.has(p.toLowerCase())) || /^[A-Z]{2,5}s$/.test(p) ? p : /^[a-z]&[a-z]$/i.test(p) ? p.toUpperCase() : p.toLowerCase()))
    // Words an API glued together (`numdocksavailable`, `stationcode`): "num docks available", "station code".
    .flatMap((p) => (p === p.toLowerCase() ? unglued(p) : [p]))
    .filter((p, i, all) => !(p === 't' && i === 0 && all.length > 1 && /^\d/.test(all[1])));
  // Minutes of a delay or a gap (the TTC's `Min Delay`, `Min Gap`): "delay in minutes", not a minimum.
  if (kept.length === 2 && /^(min|mins)$/.test(kept[0]) && /^(delay|gap|wait|lateness)$/.test(kept[1])) return `${kept[1]} in minutes`;
  // A duration whose unit ends the name (`dwell_time_seconds`, `headway_seconds`): "dwell time in seconds".
  if (kept.length >= 2 && /^(seconds|secs|minutes|mins|hours|hrs|days|milliseconds|ms)$/.test(kept[kept.length - 1]) && /^(time|duration|delay|wait|waiting|headway|gap|dwell|runtime|uptime|downtime|lateness|latency|interval|elapsed)$/.test(kept[kept.length - 2])) {
    const unit = ({ secs: 'seconds', mins: 'minutes', hrs: 'hours', ms: 'milliseconds' } as Record<string, string>)[kept[kept.length - 1]] ?? kept[kept.length - 1];
    return `${writtenOut(kept.slice(0, -1)).join(' ')} in ${unit}`;
  }
  // An age in years or months (`age_y`, KiGGS's; `age_m`): "age in years".
  if (kept.length === 2 && kept[0] === 'age' && /^(y|yr|yrs|m|mo|mos)$/.test(kept[1])) return `age in ${kept[1].startsWith('y') ? 'years' : 'months'}`;
  // "No. of Term", `no_of_visits`: the number of them, not "no of term".
  if (kept.length >= 3 && /^(no|nr|num)$/.test(kept[0]) && kept[1] === 'of') kept.splice(0, 1, 'number');
  return writtenOut(kept).join(' ');
}

/** Nouns without a plural of their own: a table of staff is "staff", not "staffs". */
const UNCOUNTABLE = new Set(['staff', 'personnel', 'equipment', 'information', 'data', 'inventory', 'stock', 'news', 'series', 'species', 'software', 'feedback', 'weather', 'metadata']);

/** Nouns in -ie, whose plural is no -y word's (`movies`, not "movys"). */
const IE_NOUNS = new Set(['movie', 'cookie', 'rookie', 'zombie', 'calorie', 'selfie', 'goalie', 'genie', 'prairie', 'sortie', 'pixie', 'hippie', 'auntie', 'brownie', 'smoothie', 'freebie', 'newbie', 'pie', 'tie', 'lie']);

/** Nouns whose plural is the singular (`aircraft`, `sheep`). */
const SAME_PLURALS = new Set(['aircraft', 'spacecraft', 'hovercraft', 'watercraft', 'sheep', 'deer', 'fish', 'moose', 'bison', 'swine', 'salmon', 'trout', 'offspring']);

/** Plurals without an s, and their singular. */
const IRREGULAR_PLURALS: Record<string, string> = { people: 'person', children: 'child', men: 'man', women: 'woman', criteria: 'criterion', genera: 'genus', taxa: 'taxon', phyla: 'phylum', strata: 'stratum' };

/** A table's rows as a noun, singular or plural by count: "order item" / "order items". */
export function noun(name: string, count: number | 'one' | 'many'): string {
  // A compound an analyst hyphenates (`country-month`): the plural on its last word, the hyphen kept.
  const compound = /^([a-z]+)-([a-z]+)$/.exec(name);
  if (compound) return `${compound[1]}-${noun(compound[2], count)}`;
  // A statistic glued to what it is of (`maxcounts`, the peak count of each colony, species and year): written out,
  // "maximum counts", not "maxcounts".
  const glued = /^(max|min|peak)(counts?|values?|levels?|sizes?)$/i.exec(name);
  if (glued) return `${{ max: 'maximum', min: 'minimum', peak: 'peak' }[glued[1].toLowerCase() as 'max' | 'min' | 'peak']} ${noun(glued[2], count)}`;
  // A trailing size or version qualifies the file, not its rows: `flights_5k` holds flights, `data_v2` data.
  const full = humanize(name);
  const words = full.includes(' ') ? full.replace(/\s+(v?\d+[a-z]*|\d{4})$/i, '') : full;
  // Media are files: "3 media files", "each media file", not "medias".
  if (/^(multi)?media$/i.test(words.split(' ').pop() ?? '')) return `${words} ${count === 'one' || count === 1 ? 'file' : 'files'}`;
  if (UNCOUNTABLE.has(words.split(' ').pop() ?? '')) return count === 'one' || count === 1 ? `${words} member` : words;
  const many = count === 'many' || (typeof count === 'number' && count !== 1);
  // "hall of fame" → "halls of fame": the noun before "of" takes the plural.
  const of = words.indexOf(' of ');
  if (of > 0 && (count === 'many' || (typeof count === 'number' && count !== 1))) return `${noun(words.slice(0, of).replace(/ /g, '_'), 'many')}${words.slice(of)}`;
  const last = words.split(' ').pop() ?? words;
  const head = words.slice(0, words.length - last.length);
  if (/\d/.test(last)) return words;
  const irregular = IRREGULAR_PLURALS[last.toLowerCase()];
  if (irregular) return head + (many ? last : irregular);
  // One form for one and many: an aircraft, 3 aircraft.
  if (SAME_PLURALS.has(last.toLowerCase())) return words;
  const singularOf = Object.entries(IRREGULAR_PLURALS).find(([, one]) => one === last.toLowerCase());
  if (singularOf) return head + (many ? singularOf[0] : last);
  if (many) return head + (/(ss|us|x|ch|sh)$/.test(last) ? `${last}es` : /is$/.test(last) ? `${last.slice(0, -2)}es` : /s$/.test(last) ? last : /[^aeiou]y$/.test(last) ? `${last.slice(0, -1)}ies` : `${last}s`);
  if (IE_NOUNS.has(last.replace(/s$/, ''))) return head + last.replace(/s$/, '');
  // `batches` → batch, `boxes` → box; `caches`, `niches` (one vowel before -ches) keep their e.
  return head + (/ies$/.test(last) ? `${last.slice(0, -3)}y` : /(ss|us|is)$/.test(last) ? last : /([^aeiou]|[aeiou]{2})ches$|(sh|x|ss|zz)es$/.test(last) ? last.slice(0, -2) : /s$/.test(last) ? last.slice(0, -1) : last);
}

/** Words of a name, its last word pluralised: "order total" → "order totals"; "voted by" → "voted by values". */
export function pluralWords(words: string): string {
  // (…and a figure per something, "average days lost per worker": its last word is no noun to put in the plural.)
  if (/\b(by|of|to|in|on|at|for|from|per)$/i.test(words) || /\bper \S+$/i.test(words) || /[)']$/.test(words)) return `${words} values`;
  return noun(words.replace(/ /g, '_'), 'many');
}

/** "a" or "an" before a word. */
export function article(word: string): string {
  // Read past a quote mark ("an 'ID'"); letters said one by one (`ID`, `FK`, `MSA`) take "an" when the first
  // letter's name opens on a vowel sound.
  const spoken = word.replace(/^['"]/, '');
  if (/^[A-Z]{2,}\b/.test(spoken)) return /^[AEFHILMNORSX]/.test(spoken) ? 'an' : 'a';
  return /^[aeiou]/i.test(spoken) && !/^(uni|use|eu|one)/i.test(spoken) ? 'an' : 'a';
}

// ---- sources: a table, or a table joined to a parent -----------------------------------------------------------

/** A grouping column with the SQL to read it: on the table itself (alias `c`), or on a parent across a key (alias `p`). */
export interface Grouping {
  column: ColumnProfile;
  /** The table holding the column. */
  table: TableProfile;
  /** `c."region"` or `p."region"`. */
  ref: string;
  /** The key the parent is joined through, for a parent's column. */
  via?: ForeignKey;
}

/** A table's own groupings, then those of each parent it has a many-to-one key to (one hop). */
export function groupingsOf(context: FamilyContext, table: TableProfile, options: { min?: number; max?: number } = {}): Grouping[] {
  const own = groupings(context, table, options).map((column) => ({ column, table, ref: `c.${quoteIdent(column.name)}` }));
  // A parent's column the child has too (the cabinet's own country beside its party's) needs no join: the child's is asked.
  const ownNames = new Set(table.columns.map((c) => c.name.toLowerCase()));
  const parents = foreignKeys(context)
    .filter((k) => k.child.name === table.name && k.containment >= 0.95)
    .flatMap((via) =>
      groupings(context, via.parent, { ...options, parentOf: true })
        .filter((column) => !ownNames.has(column.name.toLowerCase()))
        .filter((column) => !sharedTitle(via.parent, column))
        .map((column) => ({ column, table: via.parent, ref: `p.${quoteIdent(column.name)}`, via })),
    );
  return [...own, ...parents];
}

/** The FROM clause for a table (`"t" AS c`) joined to the parent a grouping needs, and the tables it reads. */
export function sourceOf(table: TableProfile, ...groupings: Array<Grouping | undefined>): { from: string; tables: string[] } {
  const via = groupings.find((g) => g?.via)?.via;
  if (groupings.some((g) => g?.via && via && (g.via.parent.name !== via.parent.name || g.via.childColumn.name !== via.childColumn.name))) throw new Error('one parent per source');
  const from = via ? `${quoteIdent(table.name)} AS c JOIN ${quoteIdent(via.parent.name)} AS p ON c.${quoteIdent(via.childColumn.name)} = p.${quoteIdent(via.parentColumn.name)}` : `${quoteIdent(table.name)} AS c`;
  return { from, tables: via ? [table.name, via.parent.name] : [table.name] };
}

/** Whether the semantic profile reads a column as a yes/no flag (`lighted`, `is_hybrid`, `closed`). */
export function isFlag(context: FamilyContext, table: string, column: ColumnProfile): boolean {
  return column.type === 'boolean' || semanticsOf(context, table, column.name)?.role.value === 'flag';
}

/**
 * A column as the subject of "whose … is 'x'" or "which …": its phrase, but a yes/no flag is no noun ("which lighted",
 * "whose is hybrid is '0'") — it is named as a value: "the 'lighted' value", "whose 'is hybrid' value is '0'".
 */
export function valuePhrase(context: FamilyContext, table: string, column: ColumnProfile): string {
  const phrase = columnPhrase(context, table, column);
  const statement = /^(is|has|was|were|are|had|can|did|does)\s/i.test(phrase);
  return statement || isFlag(context, table, column) ? `'${phrase.replace(/^'|'$/g, '').replace(/\?$/, '')}' value` : phrase;
}

/**
 * "region", not "store region": a parent's column is named by its own words ("nation", "competition"); the parent's
 * noun goes before a word that says nothing alone ("store name", "product category").
 */
export function groupingName(g: Grouping, context?: FamilyContext): string {
  const name = singleValued(g.column, groupWords(context ? valuePhrase(context, g.table.name, g.column) : humanize(g.column.originalName || g.column.name)));
  if (!g.via) return name;
  const parent = parentNoun(context, g.via.parent);
  return !parent || name.includes(parent) || !ownerless(name) ? name : `${parent} ${name}`;
}

// (…and in the languages the semantic layer reads them in: Vélib's `is_renting` `OUI` / `NON`.)
const SET_VALUES = new Set(['1', 'true', 'yes', 'y', 't', ...OTHER_LANGUAGES_YES_NO.map(([yes]) => yes)]);
const UNSET_VALUES = new Set(['0', 'false', 'no', 'n', 'f', ...OTHER_LANGUAGES_YES_NO.map(([, no]) => no)]);

/**
 * The rows a yes/no flag's value picks, in words after a noun: "marked 'lighted'", "not marked 'hybrid'" — not "whose
 * 'lighted' value is '1'", a code the file may write as TRUE. Undefined for a column that is no flag, or a value that
 * is neither yes nor no.
 */
export function flagMark(context: FamilyContext, table: string, column: ColumnProfile, value: unknown): string | undefined {
  // (A flag of more than two values, a quality flag's -1/0/1/2 or yes/no/not sure, is not marked or unmarked: its
  // other values are neither.)
  if (!isFlag(context, table, column) || column.distinctCount > 2) return undefined;
  const text = String(value).trim().toLowerCase();
  const set = SET_VALUES.has(text) ? true : UNSET_VALUES.has(text) ? false : undefined;
  if (set === undefined) return undefined;
  // A flag its dictionary reads value by value ("Presence (1) / absence (0) response used for SDMs"): the word for the
  // value, "marked as presence", "marked as absence".
  const described = semanticsOf(context, table, column.name)?.description?.value ?? '';
  const readings = /^\s*([A-Za-z][\w -]{1,30}?)\s*\((1|0|yes|no|y|n|true|false)\)\s*(?:\/|or|,)\s*([A-Za-z][\w -]{1,30}?)\s*\((1|0|yes|no|y|n|true|false)\)/i.exec(described);
  if (readings) {
    const [, first, firstValue, second] = readings;
    const firstSet = SET_VALUES.has(firstValue.toLowerCase());
    return `marked as ${(set === firstSet ? first : second).trim().toLowerCase()}`;
  }
  // `is_hybrid`, `has_wifi`: the mark is what the statement says, "hybrid", "wifi".
  const name = columnPhrase(context, table, column)
    .replace(/^'|'$/g, '')
    .replace(/\?$/, '')
    .replace(/^(is|has|was|were|are|had|can|did|does)\s+(?=\S)/i, '')
    // "is the journal indexed in the DOAJ": the mark is the participle, "indexed in the doaj".
    .replace(/^the\s+[a-z]+\s+(?=[a-z]+ed\b)/i, '');
  return `${set ? '' : 'not '}marked '${name}'`;
}

/** "a known seats total", but "known seats" and "known places": no article before a plural. */
export function knownWords(phrase: string): string {
  // The head noun: the last word, or the one before "of" ("scores of panel").
  const head = phrase.replace(/\s*\([^)]*\)$/, '').split(/\s+of\s+/)[0];
  const last = head.split(' ').pop()?.toLowerCase() ?? '';
  return pluralWord(last) && !/^(series|species|news)$/.test(last) ? `known ${phrase}` : `a known ${phrase}`;
}

/**
 * A grouping by names is a grouping by the things named: "which country", not "which country name" — unless the word
 * before says which name ("last name", "short country name").
 */
export function groupWords(phrase: string): string {
  // "name of location", a dictionary's words for a NAME column: the location.
  const namedOf = /^name of (?:the |a )?([a-z]+(?: [a-z]+)?)$/i.exec(phrase);
  if (namedOf) return namedOf[1];
  const words = phrase.split(' ');
  if (words.length !== 2 || words[1] !== 'name' || /^(first|last|middle|full|given|nick|sur|display|short|long|common|official|native|local|original|english|legal|user|file|brand|family|domain|host|code|scientific|vernacular|latin|binomial|taxonomic|trade|generic)$/i.test(words[0])) return phrase;
  return words[0];
}

/**
 * A grouping named in the plural (`languages`, `genres`) whose cells each hold one value: "which language", singular,
 * as the question asks of one value.
 */
function singleValued(column: ColumnProfile, phrase: string): string {
  const words = phrase.split(' ');
  const last = words[words.length - 1];
  if (!/^[a-z]{4,}s$/.test(last) || /(ss|us|is|ics|news|series|species)$/.test(last)) return phrase;
  if (column.samples.some((v) => typeof v === 'string' && /[,;|]/.test(v))) return phrase;
  words[words.length - 1] = noun(last, 'one');
  return words.join(' ');
}

/** A column's words that need their owner's noun ("name", "type", "status"): one generic word. */
export function ownerless(phrase: string): boolean {
  return /^(name|title|label|type|kind|category|class|group|status|code|level|grade|size|description|format|mode|model|version|style|tier|segment|id|number)$/i.test(phrase);
}

// ---- phrases from the semantic profile -------------------------------------------------------------------------

/** A word written as its field writes it: capitals (`WHC`), a formula or a symbol (`NO₃-N`, `CO2`, `pH`). */
const keepsCase = (w: string) => /^[A-Z]{2,}s?$/.test(w) || (/[A-Z]/.test(w) && /[A-Z].*[A-Z]|[0-9₀-₉]/.test(w)) || /^[a-z]+[A-Z]/.test(w);

/** Units written as a name's last word (`capacity_mw`, `price_usd`), shown in parentheses: "capacity (MW)". Not `min`: `temp_min` is a minimum. */
/** Words of a length, after which `_m` is metres: `height_m`, `dist_m`, `elevation_m`. */
const LENGTH_WORDS = new Set(['height', 'length', 'depth', 'width', 'distance', 'dist', 'elevation', 'altitude', 'diameter', 'radius', 'thickness', 'span', 'girth', 'ht', 'len']);

const UNIT_SUFFIXES: Record<string, string> = {
  // Money in its smallest unit (Steam's `price_cents`).
  cents: 'cents', pence: 'pence',
  mw: 'MW', kw: 'kW', mmbtu: 'MMBtu', btu: 'Btu', gw: 'GW', mwh: 'MWh', kwh: 'kWh', gwh: 'GWh', twh: 'TWh', km: 'km', kg: 'kg', mm: 'mm', cm: 'cm', usd: 'USD', eur: 'EUR', gbp: 'GBP',
  pct: '%', ms: 'ms', sec: 's', hrs: 'hours', lb: 'lb', lbs: 'lb', mi: 'miles', mph: 'mph', kph: 'km/h', degc: '°C', degf: '°F',
  deg: 'degrees', ft: 'ft', khz: 'kHz', mhz: 'MHz', ghz: 'GHz', hz: 'Hz', kw_h: 'kWh',
  // Volumes and flows (a reservoir's `Storage_m3`, `Q_in_m3d`; a river's `flow_m3s`, `cfs`).
  m3: 'm³', m3d: 'm³/day', m3s: 'm³/s', cfs: 'ft³/s', ml: 'ml', gal: 'gallons',
  // Grams (`dry_material_g`).
  g: 'g',
  // Hectares (`area_ha`).
  ha: 'ha',
};

/**
 * A column named after its unit alone (`euro`, `usd`, `kg`): what it measures in that unit, "amount in euros",
 * "weight in kg" — never "the average euro".
 */
const UNIT_NAMES: Record<string, string> = {
  euro: 'amount in euros', euros: 'amount in euros', eur: 'amount in euros', usd: 'amount in US dollars', dollars: 'amount in dollars', dollar: 'amount in dollars',
  gbp: 'amount in pounds sterling', sek: 'amount in Swedish kronor', chf: 'amount in Swiss francs', jpy: 'amount in yen', yen: 'amount in yen',
  kg: 'weight in kg', kilograms: 'weight in kg', lbs: 'weight in lb', pounds: 'weight in pounds', grams: 'weight in grams', tonnes: 'weight in tonnes',
  km: 'distance in km', miles: 'distance in miles', meters: 'length in metres', metres: 'length in metres', feet: 'length in feet',
  kwh: 'energy in kWh', mwh: 'energy in MWh', gwh: 'energy in GWh', mw: 'power in MW', kw: 'power in kW',
};

/**
 * Abbreviated words of a name, written out: `qty` → "quantity", `avg` → "average". Units (`ft`, `deg`) are written
 * out only at the end of a name, as units (`length_ft` → "length (ft)"): before a word `ft` may be "full time".
 */
const ABBREVIATED_WORDS: Record<string, string> = {
  qty: 'quantity', qnty: 'quantity', avg: 'average', amt: 'amount', pct: 'percentage', perc: 'percentage', cnt: 'count', yr: 'year', yrs: 'years',
  approx: 'approximate', tot: 'total', freq: 'frequency',
  // A statistic's words cut short (`reg_sd`, `reg_count_cumu`): "standard deviation", "cumulative".
  sd: 'standard deviation', stdev: 'standard deviation', cumu: 'cumulative', cumul: 'cumulative',
  // An epidemiologist's rate and its base (`cvd_mort_100k`): "CVD mortality per 100,000".
  mort: 'mortality', '100k': 'per 100,000',
  // Words of database names cut short (`recvDeps`, `projBatch`, `cust_addr`), written out as a reader would say them.
  recv: 'receiver', proj: 'project', projs: 'projects', dept: 'department', depts: 'departments', cust: 'customer', custs: 'customers',
  emps: 'employees', txn: 'transaction', txns: 'transactions', mgr: 'manager', acct: 'account', accts: 'accounts',
  bal: 'balance', pmt: 'payment', pmts: 'payments', prev: 'previous', seq: 'sequence', dest: 'destination',
  msg: 'message', msgs: 'messages', elev: 'elevation', dur: 'duration', temp: 'temperature',
  len: 'length', addr: 'address', info: 'information', ts: 'timestamp', dt: 'date', pop: 'population', invest: 'investment',
  unemp: 'unemployment', infl: 'inflation', mag: 'magnitude', percap: 'per capita', pc: 'per capita',
  // Words a questionnaire's keys cut short (`memb_age`, `harvst_amount`, `amnt_sold`, `mnth_harvest`).
  memb: 'member', membs: 'members', membrs: 'members', harvst: 'harvest', harvsted: 'harvested', amnt: 'amount', mnth: 'month', mnths: 'months',
  typ: 'type', ownshp: 'ownership', imprv: 'improved', pestcd: 'pesticide', fert: 'fertiliser', meth: 'method', irr: 'irrigation', hh: 'household',
  // Weather words of a field sheet (`precip`, `precip_type`): precipitation.
  precip: 'precipitation',
  // Bikes counted by kind (Vélib's `ebike`, `mechanical` beside `numbikesavailable`).
  ebike: 'e-bikes', ebikes: 'e-bikes',
  // A statistics office's securities and flows cut short (the Federal Reserve's `ftot_agcy_adj_val_chg`: agency
  // bonds, adjusted valuation change; `corp`, `stk`, `treas`).
  agcy: 'agency', adj: 'adjusted', chg: 'change', chng: 'change', corp: 'corporate', stk: 'stock', treas: 'Treasury',
  // A network log's counts and states cut short (Zeek's `orig_pkts`, `conn_state`, `proto`).
  pkt: 'packet', pkts: 'packets', conn: 'connection', conns: 'connections', proto: 'protocol',
};

/**
 * Abbreviations that stand for one word even alone: a column named `pop` is a population, `ts` a timestamp. The
 * rest (`avg`, `tot`, `qty` alone) are codes a question quotes.
 */
const WHOLE_WORD_ABBREVIATIONS = new Set(['ebike', 'ebikes', 'ts', 'temp', 'precip', 'unemp', 'infl', 'invest', 'elev', 'recv', 'proj', 'projs', 'len', 'mag', 'proto']);

/** A name's words with its abbreviations written out (for a table's rows: `recv_deps` → "receiver deps"). */
export function writtenOut(words: string[]): string[] {
  // A time cut short and the end of a span it marks (`tsStart`): "start timestamp", as the span's end comes first in English.
  if (words.length === 2 && /^(ts|dt)$/.test(words[0]) && /^(start|end|begin|stop)$/.test(words[1])) return [words[1], ABBREVIATED_WORDS[words[0]] ?? words[0]];
  // A bound after its figure (`owners_min`, `owners_max`: the low and high ends of an estimate): "minimum owners".
  if (words.length === 2 && /^(min|max)$/.test(words[1]) && /^[a-z]{3,}$/.test(words[0])) return [words[1] === 'min' ? 'minimum' : 'maximum', ABBREVIATED_WORDS[words[0]] ?? words[0]];
  return words.map((w, i) => {
    // `recv` opens a name as the receiver (`recvDeps`); after a noun it is what was received (`bytes_recv`).
    if (w === 'recv' && i > 0) return 'received';
    // `temp` opening a longer name is temporary (`temp_orders`); alone or after a word it is a temperature (`max_temp`).
    if (w === 'temp' && i === 0 && words.length > 1) return w;
    const full = ABBREVIATED_WORDS[w.toLowerCase()];
    return full && w === w.toLowerCase() && (words.length > 1 || WHOLE_WORD_ABBREVIATIONS.has(w)) ? full : w;
  });
}

/**
 * A name's words as a phrase a person writes: an opening count word says what is counted (`num_pushers` → "number of
 * pushers", `count_distinct_economies` → "number of distinct economies"), abbreviated words are written out.
 */
function expandedWords(words: string[]): string[] {
  const lower = words.map((w) => w.toLowerCase());
  if (words.length > 1 && /^(num|nbr|nb|count|cnt)$/.test(lower[0]) && !/^(of|id|key)$/.test(lower[1])) return ['number', 'of', ...expandedWords(words.slice(1))];
  if (words.length > 1 && /^(number|no)$/.test(lower[0]) && lower[1] !== 'of' && !/^(id|key)$/.test(lower[lower.length - 1]) && /s$/.test(lower[lower.length - 1])) return ['number', 'of', ...expandedWords(words.slice(1))];
  // Only in a name of two or more words, or one of the abbreviations that stands alone: a column named `avg` is a code.
  return writtenOut(words);
}

/** The scale a number is written in, after its name: billions (`_b`, `_bn`), millions (`_mn`). `_m` and `_k` are metres and kelvins as often. */
const SCALE_SUFFIXES: Record<string, string> = { b: 'billions', bn: 'billions', mn: 'millions', bil: 'billions' };
/** What is written in billions or millions (`market_cap_b`, `gdp_bn`); before anything else `_b` is a variant (`score_b`) and `_mn` manganese. */
const SCALED_WORDS = new Set(['cap', 'capitalization', 'capitalisation', 'revenue', 'revenues', 'sales', 'gdp', 'gnp', 'income', 'assets', 'debt', 'value', 'budget', 'spending', 'spend', 'profit', 'profits', 'earnings', 'population', 'pop', 'usd', 'eur', 'dollars', 'exports', 'imports', 'reserves', 'deposits', 'loans']);

/** A code of a name (`FTHG`, `HS`, `ppt`): letters only, too short or too cryptic to read as words. */
function isOpaqueCode(original: string): boolean {
  return /^[A-Z]{1,6}$/.test(original) || (/^[a-z]{1,4}$/.test(original) && !SHORT_WORDS.has(original));
}

/** Kinds of place a record's nested list may hold (`city`, `prefecture`): each item a place's entry in that record. */
const GEO_PLACE_ITEMS = new Set(['city', 'cities', 'prefecture', 'prefectures', 'municipality', 'municipalities', 'station', 'stations', 'region', 'regions', 'district', 'districts', 'county', 'counties', 'state', 'states', 'province', 'provinces', 'town', 'towns']);

/** Short English words columns are named with: a reader knows what `site`, `sex` or `date` hold without a legend. */
const SHORT_WORDS = new Set(
  ('age sex site date year time name type kind size area city town fate rank role team code cost days hour week zone port mode tier plot ' +
    'note text flag rate mass unit page room race wage sale fare tips make body seat ring bill fat lice wind rain snow cloud fall ' +
    'gender blood moult nest egg eggs chick day month state price tax fee dose diet food crop herd farm tree leaf root stem seed ' +
    'goal game club cup home away draw win wins loss lost score set sets lap laps run runs ball over test exam mark grade class form ' +
    'host user file path link tag tags list item sku qty pos lat lon alt dept job pay paid sold risk step line shop sex kids').split(' '),
);

/** Two consonants English words begin with; another pair (`ws`, `gh`, `tm`) starts an abbreviation (`wswin`, `ghome`, `tmax`). */
const WORD_ONSETS = new Set(['bl', 'br', 'ch', 'cl', 'cr', 'dr', 'dw', 'fl', 'fr', 'gl', 'gn', 'gr', 'kl', 'kn', 'kr', 'ph', 'pl', 'pr', 'ps', 'rh', 'sc', 'sh', 'sk', 'sl', 'sm', 'sn', 'sp', 'st', 'sw', 'th', 'tr', 'ts', 'tw', 'wh', 'wr', 'zh']);

/**
 * A name no reader can take for words: one or two letters (`W`, `l`, `HS`, `as`), letters without a vowel (`prcp`),
 * or a lower-case run of letters opening on two consonants no English word opens on (`wswin`, `ghome`, `tmax`).
 * Acronyms of three or more capitals (`GDP`, `FTHG`) are codes a reader knows or looks up, not cryptic here.
 */
export function isCrypticName(original: string): boolean {
  if (!/^[A-Za-z]+$/.test(original)) return false;
  if (original.length <= 2) return true;
  if (/^[A-Z]+$/.test(original)) return false;
  const lower = original.toLowerCase();
  if (!/[aeiouy]/.test(lower)) return true;
  // Camel case (`GHome`, `WSWin`) is read word by word: its first word decides.
  const first = (original.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ')[0] ?? lower).toLowerCase();
  if (first.length <= 2 && original.length <= 6) return true;
  return /^[a-z]{3,6}$/.test(first) && !/^[aeiouy]/.test(first) && !/^[a-z][aeiouy]/.test(first) && !WORD_ONSETS.has(first.slice(0, 2));
}

/** Function words of the languages official registers are written in (Swedish, Norwegian, Danish, German, French, Spanish, Italian, Dutch), never English. */
const FOREIGN_FUNCTION_WORDS = new Set(['och', 'till', 'för', 'av', 'på', 'som', 'är', 'enligt', 'vilken', 'og', 'af', 'til', 'und', 'der', 'die', 'das', 'mit', 'für', 'von', 'zum', 'zur', 'des', 'les', 'et', 'du', 'pour', 'avec', 'el', 'los', 'las', 'del', 'y', 'con', 'para', 'della', 'dei', 'het', 'een', 'van', 'voor']);

/** Whether a phrase reads as English: no letter English does not use (å, ö, ß), no function word of another language. */
export function englishWords(phrase: string): boolean {
  if (/[åäöøæßñ]/i.test(phrase)) return false;
  return !phrase.toLowerCase().split(/[^\p{L}]+/u).some((w) => FOREIGN_FUNCTION_WORDS.has(w));
}

/**
 * A description without its asides in brackets, asides inside asides too, innermost first ("mother's job (nominal:
 * "teacher", civil "services" (e.g. administrative or police), …)" → "mother's job").
 */
function withoutAsides(text: string): string {
  let out = text;
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/\s*\([^()]*\)\s*/g, ' ');
  }
  return out;
}

/**
 * Whether a name is made of two or more starts of a description's words, in their order (`medu`: "mother's
 * education"; `famrel`: "quality of family relationships"), words between them skipped.
 */
function abbreviates(name: string, description: string): boolean {
  const words = description.toLowerCase().split(/[^a-z]+/).filter((w) => w !== '');
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number, parts: number): boolean => {
    if (i === name.length) return parts >= 2;
    const key = `${i} ${j} ${Math.min(parts, 2)}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let found = false;
    for (let w = j; w < words.length && !found; w++) {
      for (let k = 1; k <= words[w].length && i + k <= name.length && !found; k++) {
        if (name.slice(i, i + k) !== words[w].slice(0, k)) break;
        found = from(i + k, w + 1, parts + 1);
      }
    }
    memo.set(key, found);
    return found;
  };
  return from(0, 0, 0);
}

/**
 * A column as a question names it: its words (`unit_price` → "unit price"), a unit suffix in parentheses
 * ("capacity (MW)"), and for a code (`FTHG`) the data dictionary's short description when there is one
 * ("full time home team goals").
 */
export function columnPhrase(context: FamilyContext, table: string, column: ColumnProfile): string {
  // A partition's union view has snake_case names of its own (`as_`); its files have the original (`AS`) and the
  // dictionary's words for it.
  const partition = context.semantics.partitions.find((p) => p.view === table);
  if (partition) {
    for (const member of partition.tables) {
      const original = context.profile.tables.find((t) => t.name === member.table)?.columns.find((c) => c.name === column.name);
      if (original) return columnPhrase(context, member.table, original);
    }
  }
  const original = column.originalName || column.name;
  // A side's score in a table of games between numbered sides (`score1` beside `team1_id`): "score of team 1".
  const sideScore = /^(score|goals|points|pts)[_ ]?([12])$/i.exec(original);
  const sides = sideScore ? context.profile.tables.find((t) => t.name === table)?.columns.map((c) => /^(team|side|player|club)[_ ]?([12])(?:[_ ]?(?:id|name|code|key))?$/i.exec(c.originalName || c.name)).filter((m) => m !== null) : undefined;
  if (sideScore && sides && sides.some((m) => m[2] === sideScore[2])) return `${sideScore[1].toLowerCase() === 'pts' ? 'points' : sideScore[1].toLowerCase()} of ${sides[0][1].toLowerCase()} ${sideScore[2]}`;
  // The header a workbook shows people above its Excel table ("Averaged estimated incidence (thousands) central" over
  // `central`, "Area code" over `Column1`): the publisher's own name for the column, when it is short.
  const shown = shownHeaderPhrase(column.origin?.shownHeader);
  if (shown) return shown;
  // A column named only `label` (or `category`, `group`) whose values share their last words ("1st IMD quintile",
  // "2nd IMD quintile"): those words say what the column holds ("IMD quintile"); "which label" says nothing.
  const shared = sharedHead(original, column);
  if (shared) return shared;
  // A word of the name without a vowel (`plyr_mgr`, `lg_id`) is an abbreviation a legend may spell out.
  const abbreviated = humanize(original).split(' ').some((w) => /^[a-z]{2,}$/.test(w) && !/[aeiouy]/.test(w) && !UNIT_SUFFIXES[w]);
  // A short word numbered (`pop16`, `gdp2`): the number qualifies it in a way only a legend says.
  // (…and a letter before a reference number, a survey's `R0214700` or `T3094800`: its codebook says what it is.)
  const numbered = /^[a-z]{2,8}\d+$/i.test(original) || /^[a-z]\d{4,}$/i.test(original);
  // A name after a letter or two of a publisher's scheme (`t_schools`, `pt_expenditure_of_gdp`: total, percentage):
  // "t schools" says less than the guidance's "Number of schools".
  const prefixed = /^[a-z]{1,2}_[a-z]/i.test(original) && !/^(an?|is|of|in|on|to|by|at|no|nr|id)_/i.test(original);
  // Words in capitals joined by underscores (`EMP_PRSE`, `TOT_EMP` of BLS's tables): a publisher's field codes, which
  // its field descriptions spell out ("percent relative standard error for the employment estimate").
  const fieldCode = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(original);
  // A questionnaire's item code before the item's words (`b5_okr_familiarity`, `f2_changed_nsm`, in a table of such
  // items): the words name the item ("OKR familiarity"), the code only its place in the form; an acronym is written
  // as the description writes it.
  const item = ITEM_CODE.exec(original);
  const form = item ? context.profile.tables.find((t) => t.name === table)?.columns.filter((c) => ITEM_CODE.test(c.originalName || c.name)).length ?? 0 : 0;
  if (item && form >= 3) {
    const described = semanticsOf(context, table, column.name)?.description?.value ?? '';
    const words = humanize(item[2]).toLowerCase().split(' ').filter((w) => w !== '');
    const capitals = new Set((described.match(/\b[A-Z]{2,6}(?=s?\b)/g) ?? []).map((w) => w.toLowerCase()));
    if (words.length >= 1 && words.every((w) => /^[a-z]+$/.test(w))) return words.map((w) => (capitals.has(w) ? w.toUpperCase() : w)).join(' ');
  }
  // A name of one run-together word that its dictionary entry never writes (UCI's `Medu`, "mother's education";
  // `famrel`, "quality of family relationships"): a short code the entry spells out. (`absences`, "number of school
  // absences", and `traveltime`, "home to school travel time", are the entry's own words.)
  // (One word run together, not words in camel case: `GeoType` is "geo type".)
  const entry = /^[A-Za-z][a-z]{2,9}$/.test(original) ? semanticsOf(context, table, column.name)?.description?.value : undefined;
  // (…built from the starts of the entry's words in order, `m`+`edu`, `fam`+`rel`, `go`+`out`: a word of its own,
  // `amount` beside "Price of the order line in EUR", is no such code.)
  const spelledOut = entry !== undefined && !entry.toLowerCase().replace(/[^a-z]/g, '').includes(original.toLowerCase()) && abbreviates(original.toLowerCase(), entry);
  const opaque = isOpaqueCode(original) || isCrypticName(original) || abbreviated || numbered || prefixed || fieldCode || spelledOut;
  if (opaque) {
    const profile = context.profile.tables.find((t) => t.name === table);
    const described = semanticsOf(context, table, column.name)?.description?.value ?? (profile ? legendDescription(context.documents, profile, original) : undefined);
    // The first sentence names the thing; the next ones say how it is measured ("Total Monthly Precipitation. Given in millimeters.").
    // (…a year may end it: "Respondent interviewed in 2010. Codes: …".)
    let short = (described === undefined ? undefined : withoutAsides(described.replace(/^(.{8,}?[a-z)0-9])\.\s+["'“‘(]?[A-Z].*$/s, '$1')))
      // An aside left open, or closed after a nested quote (`(stored … ‘Unix epoch’. Converted …)`): cut at its start.
      ?.replace(/\s*\(.*$/, '')
      .replace(/[.:;,]+$/, '')
      // How the figure is rounded or what it leaves out is no part of its name ("… rounded to the nearest 10").
      .replace(/\s+(rounded to|excluding|excludes|expressed as|given in)\b.*$/i, '')
      // …nor is the row it is said of ("The geography type for this entry").
      .replace(/\s+(for|of|in) (this|each|the) (entry|row|record|item|line)$/i, '')
      .trim();
    // The words a description gives before the column's own code in brackets ("Number of patches (NP) of the focal
    // habitat class …"): the name the code stands for, "number of patches".
    const escaped = original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const coded = described ? new RegExp(`^(?:the\\s+)?([A-Za-z][^():;]{3,60}?)\\s*\\(${escaped}\\)`, 'i').exec(described.trim()) : null;
    if (coded) short = coded[1].trim();
    // A label, a colon, then what it is ("Bioclimatic variable Bio12: annual precipitation", "NDVI-based GLCM texture:
    // variance"): the words after it, with the label when they are one word ("variance of NDVI-based GLCM texture").
    const labelled = short ? /^([^:]{3,60}):\s+(\S.*)$/.exec(short) : null;
    if (labelled) short = labelled[2].trim().split(/\s+/).length >= 2 ? labelled[2].trim() : `${labelled[2].trim()} of ${labelled[1].trim()}`;
    // (…and what it stands for, after a semicolon, "…; proxy for ecosystem productivity", is no part of its name.)
    if (short && /\S\s*;\s*\S/.test(short)) short = short.split(';')[0].trim();
    // "Player's batting hand" in the People table: the row's noun is said elsewhere, "batting hand".
    // (Only the row's own noun: "mother's education" beside "father's education" needs its mother.)
    const rowWords = new Set([...humanize(table).toLowerCase().split(' '), 'player', 'person', 'respondent', 'patient', 'student', 'pupil', 'user', 'customer', 'participant', 'subject', 'individual', 'household', 'member']);
    const possessor = short ? /^([a-z]+)'s\s+/i.exec(short)?.[1].toLowerCase() : undefined;
    if (possessor && (rowWords.has(possessor) || rowWords.has(`${possessor}s`))) short = short?.replace(/^[a-z]+'s\s+/i, '');
    // A description that quotes its term as TeX does (`` `English Language Learners' ``): the words, unquoted.
    short = short?.replace(/`([^`']+)'/g, '$1').replace(/[‘’](?=\s|$)|(?<=\s|^)[‘’]/g, '');
    // A description that goes on after a comma ("Total real gross domestic product, inflation-adjusted"): the words
    // before it name the thing; the rest, in a question, reads as a second item of a list.
    if (short && short.includes(',') && short.split(',')[0].trim().split(/\s+/).length >= 2) short = short.split(',')[0].trim();
    // (A description another column of the table shares word for word, a README line copied for DSND and DSNW, tells
    // neither apart: the names do.)
    const head = (d: string) => d.replace(/\s*\(.*$/s, '').replace(/[.:;,]+\s*$/, '').trim().toLowerCase();
    const sharedDescription = described !== undefined && context.semantics.columns.some((c) => c.table === table && c.column !== column.name && c.description !== undefined && head(c.description.value) === head(described));
    // (A description that opens with a preposition, "for packages published to npm", is no name for a column.)
    // (Nor one in another language, a Swedish register's "Höjd över havet i meter": a question in English quotes the
    // publisher's code rather than mix languages.)
    if (short && !sharedDescription && englishWords(short) && !/^(for|of|in|on|to|with|from|by|at|as|used|see)\b/i.test(short) && short.split(/\s+/).length <= 10 && !/[[\]`]/.test(short) && /^[a-z]/i.test(short) && !/\b(if|when|whether)\b/i.test(short)) return short.split(' ').map((w) => (keepsCase(w) ? w : w.toLowerCase())).join(' ').replace(/^the /, '');
    // Nothing says what a short cryptic code is ("prcp", "l", "HS"): the question names the column, quoted.
    // …unless its description spells it (`LQ`: "Location Quotient - Measure of…"): those words.
    const plain = humanize(original).toLowerCase().split(' ');
    const spelled = spelledFrom(described, plain);
    if (spelled.join(' ') !== plain.join(' ')) return spelled.join(' ');
    if (isCrypticName(original) && !WHOLE_WORD_ABBREVIATIONS.has(original.toLowerCase())) return `'${original}'`;
    // (…and so does a name of short parts, one without a vowel, that nothing spells out: JMA's `en_ttl`, not "en ttl".)
    if (abbreviated && !described && /^[a-z]{1,3}(_[a-z]{1,3})+$/i.test(original) && spelled.every((w) => !ABBREVIATED_WORDS[w])) return `'${original}'`;
  }
  // A quantity named for the group it is of (`hourly_workers`, `low-deprivation`), which its dictionary says
  // ("wage rates for hourly workers", "proportion of LA population living in a low deprivation lsoa"): those words.
  const ofGroup = groupNamedQuantity(context, table, column);
  if (ofGroup) return ofGroup;
  // A quantity's column for one year of a wide table (`gdpPercap_1952`): the quantity, "in 1952".
  const ofYear = /^(.*[A-Za-z].*?)[_ ]((?:1[89]|20)\d\d)$/.exec(original.trim());
  // (`year_2012` of a wide table of employment names the year alone: what the table holds, "in 2012", below.)
  const yearAlone = ofYear && /^(year|yr|fy|y|jahr|anno)$/i.test(ofYear[1].trim()) ? ofYear[2] : undefined;
  if (ofYear && !yearAlone && isNumeric(column)) {
    let stem = columnPhrase(context, table, { ...column, name: ofYear[1], originalName: ofYear[1] });
    // (A quoted code of words run together, `gdpPercap`: its words written out, an acronym in capitals: "GDP per capita".)
    if (/^'.*'$/.test(stem)) stem = writtenOut(humanize(ofYear[1]).split(' ')).map((w) => (/^[b-df-hj-np-tv-z]{2,4}$/i.test(w) ? w.toUpperCase() : w)).join(' ');
    return `${stem} in ${ofYear[2]}`;
  }
  // A year's column of a wide sheet (`1988` of 'Events 2019'): what the sheet holds, in that year ("events in 1988").
  const year = yearAlone ? [yearAlone] : BARE_YEAR.exec(original.trim());
  const tableProfile = context.profile.tables.find((t) => t.name === table);
  // A column named by a clock time alone (`07:00` … `23:00` of a cycle counter's days): the figure at that hour,
  // "count at 07:00", not "07 00".
  const clock = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(original.trim());
  if (clock && isNumeric(column)) return `${additivityOf(context, table, column.name) === 'additive' ? 'count' : 'value'} at ${clock[1].padStart(2, '0')}:${clock[2]}`;
  // A column named by a span of time alone (`10 Yr` of daily Treasury rates): what the table holds, for that span
  // ("10-year rate"); "the average 10 year" says nothing.
  const span = spanOfTime(original);
  if (span && tableProfile && isNumeric(column)) {
    const held = nameWords(tableNounName(tableProfile)).split(' ').filter((w) => w !== '' && !/\d/.test(w) && !/^(data|report|table|sheet|daily|weekly|monthly|annual|yearly|all)$/i.test(w)).pop()?.toLowerCase();
    if (held) return `${span.amount}-${span.unit} ${singular(held)}`;
  }
  if (year && tableProfile) {
    const held = nameWords(tableNounName(tableProfile)).split(' ').filter((w) => w !== '' && !/\d/.test(w) && !/^(data|report|table|sheet)$/i.test(w)).join(' ').toLowerCase();
    if (held !== '') return `${pluralWord(held.split(' ').pop() ?? '') ? 'number of ' : ''}${held} in ${year[0]}`;
  }
  // A JSON value's translation keyed by its language (`category.en` beside `category.se`): the value, "category", with
  // its language where it is not English ("known name in Norwegian").
  const language = tableProfile ? translationLanguage(tableProfile.columns.map((c) => c.originalName || c.name), original) : undefined;
  if (language) {
    const stem = original.slice(0, original.lastIndexOf('.'));
    const said = columnPhrase(context, table, { ...column, name: stem.replace(/\./g, '_'), originalName: stem });
    return language === 'English' ? said : `${said} in ${language}`;
  }
  const described = semanticsOf(context, table, column.name)?.description?.value;
  const words = spelledFrom(described, plainCase(humanize(leafOf(context, table, original)).split(' ')));
  const last = words[words.length - 1]?.toLowerCase();
  // A name's written form after it (`state_ab`, `division_nm`): the thing itself, "state"; beside another column of the
  // same thing (`party_ab` and `party_nm`, `division_id` and `division_nm`), which form it is: "party abbreviation".
  if (words.length > 1 && last && /^(ab|abbr|abbrev|nm)$/.test(last)) {
    const stem = words.slice(0, -1).join(' ').toLowerCase();
    const twin = tableProfile?.columns.some((c) => {
      if (c.name === column.name) return false;
      const other = humanize(leafOf(context, table, c.originalName || c.name)).toLowerCase().split(' ');
      return other.slice(0, -1).join(' ') === stem && /^(ab|abbr|abbrev|nm|name|code|cd|id)$/.test(other[other.length - 1] ?? '');
    });
    return twin ? `${stem} ${last === 'nm' ? 'name' : 'abbreviation'}` : stem;
  }
  // A number's scale after its name (`market_cap_b`): "market cap (billions)".
  if (words.length > 1 && last && SCALE_SUFFIXES[last] && isNumeric(column) && SCALED_WORDS.has(words[words.length - 2].toLowerCase())) return `${expandedWords(words.slice(0, -1)).join(' ')} (${SCALE_SUFFIXES[last]})`;
  // `Staffed All Beds - SOURCE`: where the value of another column came from, "source of the staffed all beds value".
  if (words.length > 1 && /^(source|sources|provenance)$/.test(last ?? '') && /[-–:]\s*source/i.test(original)) return `source of the ${englishOrder(expandedWords(words.slice(0, -1))).join(' ')} value`;
  if (words.length === 1 && UNIT_NAMES[last]) return UNIT_NAMES[last];
  // A series marked NSA or SA (`purpose_holiday_nsa`, and `all_visits_sa` beside an `all_visits_nsa`): whether it is
  // seasonally adjusted, said in words.
  const adjusted = words.length > 1 && isNumeric(column) ? /^(nsa|sa)$/i.exec(last ?? '')?.[0].toLowerCase() : undefined;
  const stemOf = (name: string) => name.toLowerCase().replace(/_(nsa|sa)$/, '');
  if (adjusted && (adjusted === 'nsa' || tableProfile?.columns.some((c) => c !== column && c.name.toLowerCase() === `${stemOf(column.name)}_nsa`))) {
    return `${expandedWords(words.slice(0, -1)).join(' ')} (${adjusted === 'nsa' ? 'not ' : ''}seasonally adjusted)`;
  }
  // One unit over another at the end of the name (`nitrate_n_mg_kg`, `bd_g_cm3`): "nitrate n (mg/kg)", "bd (g/cm³)".
  const pair = words.length > 2 && last && isNumeric(column) ? unitPair(words[words.length - 2], last) : undefined;
  if (pair) return `${expandedWords(words.slice(0, -2)).join(' ')} (${pair})`;
  // Metres after a length (`height_m`, `depth_m`, `dist_m`): "height (m)"; after other words `_m` may be millions.
  if (words.length > 1 && last === 'm' && isNumeric(column) && LENGTH_WORDS.has(words[words.length - 2].toLowerCase())) return `${expandedWords(words.slice(0, -1)).join(' ')} (m)`;
  if (words.length > 1 && last && UNIT_SUFFIXES[last]) {
    // `area_sq_km`: "area (km²)".
    const square = words.length > 2 && /^(sq|square)$/i.test(words[words.length - 2]);
    const head = expandedWords(words.slice(0, square ? -2 : -1)).join(' ');
    return square ? `${head} (${UNIT_SUFFIXES[last]}²)` : `${head} (${UNIT_SUFFIXES[last]})`;
  }
  const phrase = headFirstCounts(englishOrder(directionWords(expandedWords(withoutNamespace(context, table, original, words))))).join(' ');
  // Who did it, named by the deed (`recordedBy`, `created_by`): the doer, "recorder", "creator".
  const doer = /^(\w+) by$/.exec(phrase);
  if (doer && column.type === 'text' && DOERS[doer[1]]) return DOERS[doer[1]];
  // A category's name (`typ.name`, `status_name`) is the category as a reader says it: "type 'landkreis'", not
  // "type name 'landkreis'" (unless another column is called the category alone).
  const parts = phrase.split(' ');
  if (parts.length === 2 && parts[1] === 'name' && DIMENSION_WORDS.has(parts[0]) && !isNumeric(column) && !context.profile.tables.find((t) => t.name === table)?.columns.some((c) => c !== column && humanize(c.originalName || c.name).toLowerCase() === parts[0])) return parts[0];
  // A place's name (`region_name` 'South East', beside `region_code`): the place, "region 'South East'".
  if (parts.length === 2 && parts[1] === 'name' && !isNumeric(column) && semanticsOf(context, table, column.name)?.role.value === 'geo' && /^(region|country|state|province|county|district|city|town|borough|municipality|ward|constituency|continent|territory|parish)$/.test(parts[0]) && !tableProfile?.columns.some((c) => c !== column && humanize(c.originalName || c.name).toLowerCase() === parts[0])) return parts[0];
  // A category's description (`completion_cause_desc` 'אישור ועדה', beside the code it describes): the category,
  // "completion cause", unless a column is called that alone.
  if (parts.length >= 2 && /^(desc|description)$/.test(parts[parts.length - 1]) && !isNumeric(column) && semanticsOf(context, table, column.name)?.role.value === 'dimension') {
    const stem = parts.slice(0, -1).join(' ');
    if (!tableProfile?.columns.some((c) => c !== column && humanize(c.originalName || c.name).toLowerCase() === stem)) return stem;
  }
  return phrase;
}

/** A shown header as a question's words: acronyms kept, other words in lower case; a trailing `central` (the estimate itself) dropped; none over eight words. */
function shownHeaderPhrase(shown: string | undefined): string | undefined {
  if (!shown) return undefined;
  const text = shown.replace(/\s+(central|central estimate|estimate|value)$/i, '').replace(/\s+/g, ' ').trim();
  const words = text.split(' ');
  if (words.length > 8 || /[:;]/.test(text) || !/[a-z]{3}/i.test(text)) return undefined;
  return words.map((w) => (/^[A-Z][A-Z0-9.]+s?$/.test(w) || /\d/.test(w) ? w : w.toLowerCase())).join(' ');
}

/**
 * A name's short words written out as its own description writes them: initials of words it holds in a row (`lq`:
 * "Location Quotient"; `he`: "Higher education") or the start of a longer word (`reg`: "Regional"). Words of five
 * letters or more, and names with no description, are left as they are.
 */
/** Short words that are words, not abbreviations: never respelled from a description. */
const PLAIN_SHORT_WORDS = new Set(['id', 'no', 'of', 'in', 'on', 'to', 'at', 'by', 'and', 'or', 'the', 'per', 'a', 'an', 'is', 'name', 'type', 'date', 'year', 'code', 'rate', 'area', 'size', 'age', 'sex', 'day', 'days', 'time', 'cost', 'fee', 'fees', 'week', 'hour', 'unit', 'kind', 'mass', 'depth', 'zone', 'site', 'plot', 'team', 'game', 'home', 'away', 'city', 'town', 'road', 'line', 'flag', 'note', 'text', 'file', 'user', 'role', 'rank', 'sale', 'item', 'loan', 'land', 'tax', 'pay', 'fund', 'wage', 'bout', 'tide', 'wind', 'snow', 'rain', 'fish', 'farm', 'crop', 'herd', 'nest', 'egg', 'eggs', 'tree', 'leaf', 'seed', 'gas', 'oil', 'coal', 'iron', 'gold', 'lead', 'tin', 'zinc', 'salt', 'fat', 'low', 'high', 'max', 'min', 'mean', 'net', 'gross', 'total', 'sum', 'new', 'old', 'end', 'start', 'open', 'top', 'left', 'right', 'east', 'west', 'north', 'south', 'blue', 'red', 'long', 'lat', 'lon', 'lng']);

export function spelledFrom(description: string | undefined, words: string[]): string[] {
  if (!description) return words;
  const said = description.replace(/\([^)]*\)/g, ' ').split(/[^A-Za-z]+/).filter(Boolean);
  const lower = said.map((w) => w.toLowerCase());
  return words.flatMap((word) => {
    const w = word.toLowerCase();
    if (!/^[a-z]{2,4}$/.test(w) || word !== w || PLAIN_SHORT_WORDS.has(w)) return [word];
    for (let i = 0; i + w.length <= said.length; i++) {
      const run = lower.slice(i, i + w.length);
      if (run.every((x, k) => x.length >= 3 && x[0] === w[k]) && run.join('').length > w.length + 3) return run;
    }
    const longer = lower.find((x) => x.length >= w.length + 3 && x.startsWith(w));
    return [longer ?? word];
  });
}

/** Plural counts of people affected, which a name may put before whom they befell (`DeathsWorkers`, `InjuriesPublic`). */
const AFFLICTION_COUNTS = /^(deaths|injuries|fatalities|casualties|hospitalizations|hospitalisations|admissions|infections|cases|arrests|evacuations)$/i;

/**
 * "deaths workers", "injuries public responders": a count written before whom it is of reads "deaths of workers",
 * "injuries of public responders" — as an analyst writes it.
 */
function headFirstCounts(words: string[]): string[] {
  if (words.length < 2 || words.length > 4 || !AFFLICTION_COUNTS.test(words[0]) || /^(of|in|per|by|to|at|among|from|with|and|or|rate|ratio|share|pct|percent|total|count|number)$/i.test(words[1])) return words;
  return [words[0], 'of', ...words.slice(1)];
}

/** Words that make a name a quantity's (`amount`, `rate`, `population`, `count`). */
const MEASURE_NAME_WORDS = new Set([...ADDITIVE_WORDS, ...SEMI_ADDITIVE_WORDS, ...NON_ADDITIVE_WORDS, ...COUNT_WORDS]);

/** Head words of a description that says what quantity a column holds. */
const QUANTITY_HEADS = /^(wage|wages|rate|rates|proportion|proportions|share|shares|percentage|percent|number|count|amount|total|average|mean|index|score|price|prices|value|level|ratio)$/i;

/**
 * A measure whose name has no word of a quantity, only of a group (`hourly_workers`, `some_college`,
 * `low-deprivation`), described by its dictionary as a quantity of that group in at most 10 words: the description.
 */
function groupNamedQuantity(context: FamilyContext, table: string, column: ColumnProfile): string | undefined {
  const semantics = semanticsOf(context, table, column.name);
  const description = semantics?.description?.value;
  if (semantics?.role.value !== 'measure' || !description) return undefined;
  const nameWords = humanize(column.originalName || column.name).toLowerCase().split(' ');
  if (nameWords.some((w) => MEASURE_NAME_WORDS.has(w) || UNIT_SUFFIXES[w] || UNIT_NAMES[w])) return undefined;
  const text = description.replace(/\s*\(.*$/, '').replace(/[.:;,]+\s*$/, '').trim();
  const said = text.split(/\s+/);
  if (said.length < 3 || said.length > 10 || /[[\]`#]/.test(text) || !said.slice(0, 2).some((w) => QUANTITY_HEADS.test(w))) return undefined;
  // Two columns a document describes alike (a copied line) would read as one: their names tell them apart.
  const cut = (d: string) => d.replace(/\s*\(.*$/, '').replace(/[.:;,]+\s*$/, '').trim().toLowerCase();
  const alike = context.semantics.columns.some((c) => c.table === table && c.column !== column.name && c.description !== undefined && cut(c.description.value) === text.toLowerCase());
  // (…without its article, which a question supplies: "the total number of matches", not "the total the number of matches".)
  return alike ? undefined : (text.charAt(0).toLowerCase() + text.slice(1)).replace(/^(the|a|an)\s+/, '');
}

/**
 * Words after a prefix the table's columns share as a namespace (`pcon-deprivation-score`, `pcon-imd-pop-decile` in a
 * table of constituencies; `la-…` in a table of councils): the prefix is cryptic or the table's own first word, and
 * says nothing the table does not ("deprivation score", not "pcon deprivation score").
 */
/** Last parts of a path too generic to stand alone (`formats.total`, `author.name`): the part before says of what. */
const GENERIC_LEAVES = /^(total|count|id|name|type|year|month|day|full|value|code|number|text|date|title|min|max|mean|average|rate|share|status|unit|units)_?$/i;

/**
 * A nested record's column by its last part (`metadata.downloads` → `downloads`, `metrics.difficulty.gunning_fog` →
 * `gunning_fog`), or its last two where the last alone is generic (`formats.total`, `author.birth`… kept as
 * `author.birth`); the whole path where another column of the table would read the same.
 */
function leafOf(context: FamilyContext, table: string, original: string): string {
  // (A dot that ends an abbreviation, "No. of Term", "Avg. price", is no path: a path's dots join words without spaces.)
  if (!/[^.\s]\.[^.\s]/.test(original) || /\.\s/.test(original)) return original;
  const profile = context.profile.tables.find((t) => t.name === table);
  const shortened = (name: string) => {
    const parts = name.split('.');
    const last = parts[parts.length - 1];
    return parts.length >= 2 && (GENERIC_LEAVES.test(last) || !/[a-z]{3,}/i.test(last) || NAME_OF_ENTITY.test(last)) ? parts.slice(-2).join(' ') : last;
  };
  const leaf = shortened(original);
  const clash = profile?.columns.some((c) => (c.originalName || c.name) !== original && shortened(c.originalName || c.name).toLowerCase() === leaf.toLowerCase());
  // A rank of what the part before holds (`categories.secondary`, `type.primary_`): "secondary category", not
  // "categories secondary".
  const parts = original.split('.');
  const qualifier = parts[parts.length - 1].replace(/_+$/, '');
  if (clash && parts.length >= 2 && QUALIFIER_LEAVES.test(qualifier) && /^[A-Za-z]+$/.test(parts[parts.length - 2])) return `${qualifier} ${singular(parts[parts.length - 2])}`;
  return clash ? original : leaf;
}

/** Last parts that rank or qualify what the part before holds (`categories.secondary`). */
const QUALIFIER_LEAVES = /^(primary|secondary|tertiary|main|other|original|previous|current|default|preferred|alternative|alternate)$/i;

/** Last parts that say of what as much as what (`birth`, `death` of an author): kept with the part before. */
const NAME_OF_ENTITY = /^(birth|death|first|last|middle|suffix|nickname|start|end)$/i;

function withoutNamespace(context: FamilyContext, table: string, original: string, words: string[]): string[] {
  if (words.length < 3) return words;
  const prefix = words[0].toLowerCase();
  const profile = context.profile.tables.find((t) => t.name === table);
  if (!profile) return words;
  const tableFirst = humanize(profile.originalName.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '')).split(' ')[0]?.toLowerCase();
  if (!isCrypticName(prefix) && prefix !== tableFirst) return words;
  const sharing = profile.columns.filter((c) => (c.originalName || c.name) !== original && humanize(c.originalName || c.name).toLowerCase().split(' ')[0] === prefix);
  // (A prefix that tells the column from its siblings, `CVD_mort_100k` beside `cancer_mort_100k`, is what it is of:
  // no namespace.)
  const rest = humanize(original).toLowerCase().split(' ').slice(1).join(' ');
  const distinguishes = profile.columns.some((c) => {
    const other = humanize(c.originalName || c.name).toLowerCase().split(' ');
    return other[0] !== prefix && other.slice(1).join(' ') === rest;
  });
  return sharing.length >= 2 && !distinguishes ? words.slice(1) : words;
}

/** What a generic `label` column's values all end with ("IMD quintile"), when they share one or two words. */
function sharedHead(original: string, column: ColumnProfile): string | undefined {
  if (!/^(label|labels|category|group|class)$/i.test(original.trim()) || column.type !== 'text' || column.distinctCount < 2 || column.distinctCount > 50) return undefined;
  const values = column.samples.filter((v): v is string => typeof v === 'string').map((v) => v.trim().split(/\s+/));
  if (values.length < 2 || new Set(values.map((v) => v.join(' '))).size < 2) return undefined;
  const shortest = Math.min(...values.map((v) => v.length));
  let common = 0;
  while (common < Math.min(2, shortest - 1) && values.every((v) => v[v.length - 1 - common] === values[0][values[0].length - 1 - common])) common++;
  if (common === 0) return undefined;
  const words = values[0].slice(values[0].length - common);
  return words.every((w) => /^[A-Za-z][A-Za-z-]*$/.test(w)) ? words.map((w) => (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase())).join(' ') : undefined;
}

/**
 * A direction a schema writes as a preposition (`from_country`, `to_country`): "origin country", "destination
 * country" — not "which to country".
 */
function directionWords(words: string[]): string[] {
  // A period's bounds (`from_date`, `to_year`) are no directions.
  if (words.length < 2 || /^(date|time|year|month|day|week|datetime|timestamp|period|value|be)$/i.test(words[1])) return words;
  const first = words[0].toLowerCase();
  return first === 'from' ? ['origin', ...words.slice(1)] : first === 'to' ? ['destination', ...words.slice(1)] : words;
}

/** English words a header may shout (`Staffed All Beds - SOURCE`): words, not acronyms. */
const SHOUTED_WORDS = new Set(['SOURCE', 'SOURCES', 'NOTE', 'NOTES', 'TOTAL', 'COUNT', 'NAME', 'TYPE', 'DATE', 'YEAR', 'CODE', 'STATUS', 'VALUE', 'FLAG', 'RATE', 'LEVEL', 'TIME', 'AREA', 'SIZE']);

/** A shouted English word among words in plain case is written in plain case: "staffed all beds source". */
function plainCase(words: string[]): string[] {
  const known = words.map((w) => KNOWN_ACRONYMS.get(w) ?? w);
  if (!known.some((w) => /[a-z]/.test(w))) return known;
  return known.map((w) => (SHOUTED_WORDS.has(w) ? w.toLowerCase() : w));
}

/** Acronyms a name may write in lower case (`eu_anti_pro`): "EU anti pro". */
const KNOWN_ACRONYMS = new Map(['eu', 'uk', 'gdp', 'gnp', 'cpi', 'oecd', 'nato', 'hiv', 'icu'].map((w) => [w, w.toUpperCase()]));

/** Words that qualify a name when a schema writes them after it (`party_name_english`, `country_name_short`). */
const NAME_QUALIFIERS: Record<string, string> = { short: 'short', long: 'long', english: 'English', en: 'English', ascii: 'ASCII', full: 'full', native: 'native', local: 'local', official: 'official', original: 'original', abbr: 'abbreviated', abbrev: 'abbreviated', alt: 'alternative', common: 'common', display: 'display' };

/**
 * A qualifier a schema writes after the noun, moved before it as English puts it: "country name short" → "short
 * country name", "party name english" → "English party name".
 */
/** Adjectives a header puts after its noun (`cost_approximate`, `budget_revised`): in English they come first. */
const POSTPOSITIVE: Record<string, string> = { approximate: 'approximate', approx: 'approximate', estimated: 'estimated', actual: 'actual', projected: 'projected', planned: 'planned', expected: 'expected', revised: 'revised', preliminary: 'preliminary', provisional: 'provisional', nominal: 'nominal' };

function englishOrder(words: string[]): string[] {
  // "cost approximate" → "approximate cost", "budget revised" → "revised budget".
  const trailing = words.length >= 2 ? POSTPOSITIVE[words[words.length - 1].toLowerCase()] : undefined;
  if (trailing && !POSTPOSITIVE[words[words.length - 2].toLowerCase()]) return [trailing, ...words.slice(0, -1)];
  if (words.length < 3) return words;
  const qualifier = NAME_QUALIFIERS[words[words.length - 1].toLowerCase()];
  if (!qualifier || !/^(name|title|label|code|description)$/i.test(words[words.length - 2])) return words;
  return [qualifier, ...words.slice(0, -1)];
}

/**
 * A column of a table named without the table's row noun, which the question says already: "the party whose English
 * name is …", not "whose English party name is …"; the whole phrase where nothing would be left but a qualifier.
 */
export function ownPhrase(context: FamilyContext, table: TableProfile, column: ColumnProfile): string {
  const phrase = columnPhrase(context, table.name, column);
  const owner = parentNoun(context, table)?.toLowerCase().split(' ');
  if (!owner) return phrase;
  const words = phrase.split(' ');
  const at = words.findIndex((_, i) => owner.every((w, j) => words[i + j]?.toLowerCase() === w));
  if (at < 0) return phrase;
  const rest = [...words.slice(0, at), ...words.slice(at + owner.length)];
  return rest.length > 0 && /^(name|title|label|code|description|abbreviation)$/i.test(rest[rest.length - 1]) ? rest.join(' ') : phrase;
}

/** Measure names that say nothing without their table (`amount`, `value`): "payment amount". */
const GENERIC_MEASURES = new Set(['amount', 'value', 'total', 'quantity', 'qty', 'count', 'price', 'cost', 'size', 'number', 'score', 'rate']);

/**
 * The rows of a table as a noun: its name where the name names its rows ("orders"), a JSON child table's last path
 * segment ("staff" for `stores_staff`), a key's word ("players" for a table keyed by `playerID`), a partition's
 * name ("season records"); else "rows of the table 'gapminder'" — a dataset's name is no noun for its rows.
 */
export function things(context: FamilyContext, table: TableProfile, count: number | 'one' | 'many'): string {
  const named = rowName(context, table);
  if (named) return noun(countable(named), count);
  // The items of a nested list that names no thing: "'theme_namecode' entries in world_bank_projects.json", not
  // "rows in the 'theme_namecode' entries in …".
  const listed = table.parent ? /^the '(.+)' entries in (.+)$/.exec(tablePlace(context, table)) : null;
  if (listed) return `'${listed[1]}' ${count === 'one' || count === 1 ? 'entry' : 'entries'} in ${listed[2]}`;
  return `${count === 'one' || count === 1 ? 'row' : 'rows'}${tableMention(context, table)}`;
}

/** A row name one can count: "inventory items" (not "how many inventory"); staff and people count as they are. */
function countable(named: string): string {
  const last = humanize(named).split(' ').pop() ?? '';
  return UNCOUNTABLE.has(last) && !/^(staff|personnel)$/.test(last) ? `${named}_item` : named;
}

/** One row of a parent table as a noun ("store", "player"), where the data says what its rows are. */
export function parentNoun(context: FamilyContext | undefined, table: TableProfile): string | undefined {
  if (!context) return noun(table.name, 'one');
  const named = rowName(context, table);
  return named ? noun(named, 'one') : undefined;
}

/** Last words that name a file or a collection, not what one of its rows is: "source data", "raw index", "job history". */
/** A sheet named by a month and a year, a quarter and a year, or a year. */
const PERIOD_SHEET = /^((jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?|q[1-4])\s*(19|20)\d\d$|^(19|20)\d\d$/i;

const COLLECTION_WORDS = new Set(['data', 'all', 'index', 'indexes', 'indices', 'info', 'information', 'series', 'species', 'history', 'database', 'db', 'dataset', 'table', 'file', 'sheet', 'export', 'dump', 'list', 'raw', 'full', 'master', 'details', 'detail', 'summary', 'stats', 'statistics', 'weather', 'metadata', 'log', 'register', 'registry', 'reference']);

/** Plural words that modify a noun as they are ("sales orders", "goods receipts", "news items"). */
const PLURAL_MODIFIERS = new Set(['sales', 'goods', 'news', 'arms', 'savings', 'earnings', 'sports', 'customs', 'means', 'series', 'species', 'physics', 'economics', 'statistics', 'analytics', 'logistics', 'electronics', 'athletics']);

/** Irregular plurals a table of rows may be named with. */
const PLURAL_WORDS = new Set(['people', 'staff', 'personnel', 'children', 'men', 'women', 'media', 'criteria', 'aircraft', 'sheep', 'deer', 'fish', 'offspring']);

/** A name's words without a trailing size or version (`flights_5k` → "flights", `data_v2` → "data"). */
function nameWords(name: string): string {
  const full = humanize(name);
  return full.includes(' ') ? full.replace(/\s+(v?\d+[a-z]*|\d{4})$/i, '') : full;
}

/** Words a schema puts before a table's name to say what kind of table it is, not what its rows are. */
const SCHEMA_PREFIXES = /^(view|vw|tbl|dim|fact|fct)_(?=[a-z])/i;

/**
 * The name a table's rows are read from: a workbook sheet's own name (`party` for the `parlgov_party` sheet of
 * parlgov.xlsx: the workbook's name is the file's, not the rows'), without a schema's kind prefix (`view_party` →
 * `party`, `dim_customer` → `customer`).
 */
export function tableNounName(table: TableProfile): string {
  // A dump's part number after the name (`KNS_Query-000224`, zero-padded) and a namespace in capitals before it
  // (`KNS_`, the source's prefix for every table): neither says what the rows are; "Query" does.
  const fileStem = table.sourceFile.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '');
  const stem = toSnake(fileStem).toLowerCase();
  const parted = !table.parent && table.kind === 'table' && stem === table.name.toLowerCase() ? /^(?:[A-Z]{2,4}_)?([A-Za-z][A-Za-z]+)[-_]0\d{2,}$/.exec(fileStem) : null;
  if (parted) return toSnake(parted[1]).replace(SCHEMA_PREFIXES, '');
  const sheet = /\.(xlsx|xlsm|xls|ods)$/i.test(table.sourceFile) && table.originalName !== '' && !/[./>]/.test(table.originalName) ? toSnake(table.originalName) : table.name;
  // A file's table named with its folder (`output_accidents` from `output/accidents.csv`): the folder says where the
  // file is kept, the file's name what its rows are.
  const folderPrefixed = !table.parent && /[\\/]/.test(table.sourceFile) && stem.length >= 3 && sheet.toLowerCase() !== stem && sheet.toLowerCase().endsWith(`_${stem}`);
  return (folderPrefixed ? stem : sheet).replace(SCHEMA_PREFIXES, '');
}

const toSnake = (name: string) => humanize(name).replace(/ /g, '_');

/** Words that say where or which version a file is (`uk_`, `_current`, `_latest`), not what its rows are. */
const FILE_QUALIFIERS = /^(uk|us|usa|eu|gb|current|latest|final|clean|cleaned|raw|new|old|full|master|main|all)$/i;

/** A name without the qualifiers that open or close it ("uk local authorities current" → "local authorities"), where words remain. */
/** A name without the short code every table of the data shares before its own words (`sharedTablePrefix`): "matches", not "ewf matches". */
function withoutSharedPrefix(context: FamilyContext, table: TableProfile, words: string): string {
  const prefix = table.parent ? undefined : sharedTablePrefix(context.profile.tables);
  const parts = words.split(' ');
  return prefix !== undefined && parts.length >= 2 && parts[0].toLowerCase() === prefix ? parts.slice(1).join(' ') : words;
}

function withoutQualifiers(words: string): string {
  const parts = words.split(' ');
  while (parts.length > 1 && FILE_QUALIFIERS.test(parts[0])) parts.shift();
  while (parts.length > 1 && FILE_QUALIFIERS.test(parts[parts.length - 1])) parts.pop();
  // (…and a word that says only that it is a table, CellPhoneDB's `gene_table`, a `tbl_orders`: the genes, the orders.)
  while (parts.length > 1 && /^(table|tbl)$/i.test(parts[parts.length - 1])) parts.pop();
  while (parts.length > 1 && /^tbl$/i.test(parts[0])) parts.shift();
  return parts.join(' ');
}

/** Whether a word reads as a plural noun: "orders", "countries", "people" — not "bus", "analysis", "status". */
/** "is above its" for one thing, "are above their" for a plural name ("whose absent votes are above their 90th percentile"). */
export function isAboveIts(name: string): string {
  // The head noun is the one before "of" ("number of events" is one number).
  // (…and the one before a unit or a qualifier, "delay in minutes", "emergency admissions via A&E type 1".)
  const head = (name.split(/ (?:of|via|in|per|at|from|for) /)[0].split(' ').pop() ?? '').toLowerCase();
  return pluralWord(head) ? 'are above their' : 'is above its';
}

function pluralWord(word: string): boolean {
  return PLURAL_WORDS.has(word) || (/[a-z]{2}s$/.test(word) && !/(ss|us|is|ics)$/.test(word));
}

/** A key column's noun: `playerID` → "player", `emp_id` → "emp", `order_no` → "order"; undefined for `id` alone. */
function keyWord(column: ColumnProfile): string | undefined {
  // (A nested record's `metadata.id` is the id kept under `metadata`: a group of fields, not what a row is.)
  if ((column.originalName || column.name).includes('.')) return undefined;
  const words = humanize(column.originalName || column.name).toLowerCase().split(' ');
  // (…or an `id` glued to its noun, Steam's `appid`: the app.)
  if (words.length === 1) return gluedIdNoun(words[0]);
  // (…or the key word first, CellPhoneDB's `id_complex`: the complex.)
  if (words[0] === 'id' && !/^(id|key|code|no|num|number)$/.test(words[words.length - 1])) {
    const rest = words.slice(1).join(' ');
    return /^[a-z ]{3,}$/.test(rest) ? rest : undefined;
  }
  if (!/^(id|key|code|no|num|number)$/.test(words[words.length - 1])) return undefined;
  const word = words.slice(0, -1).join(' ');
  return /^[a-z ]{3,}$/.test(word) ? word : undefined;
}

/**
 * The words that name one of a table's rows, when something in the data says what a row is; undefined for a
 * table named after its dataset or file (`gapminder`, `big_mac_source_data`, `worldcup_14`), whose rows the
 * question then calls "rows of the table '…'".
 */
/** The grain of a table's one time column when it has one row per value ("day" for one row per date), or nothing. */
function datedRows(context: FamilyContext, table: TableProfile): string | undefined {
  // (A partition's view adds the files' key, `year`: a time, but of the file, not of the row.)
  const key = partitionOfView(context, table)?.key;
  const times = table.columns.filter((c) => c.name !== key && semanticsOf(context, table.name, c.name)?.role.value === 'time');
  if (times.length !== 1 || table.rowCount < 2 || times[0].distinctCount !== table.rowCount || times[0].nullFraction > 0) return undefined;
  const grain = semanticsOf(context, table.name, times[0].name)?.time?.grain;
  return grain && /^(day|week|month|quarter|year)$/.test(grain) ? grain : undefined;
}

/** Nouns for people a file of one row per person is named for (`student-mat`, `patients_2019`), singular. */
const PEOPLE_NOUNS = new Set(['student', 'pupil', 'patient', 'customer', 'client', 'employee', 'respondent', 'participant', 'member', 'person', 'player', 'athlete', 'driver', 'passenger', 'voter', 'applicant', 'user', 'subscriber', 'volunteer', 'donor']);

/** Words for what a table tells about things, not for the things: `properties`, `details`, `stats`. */
const ATTRIBUTE_WORDS = new Set(['properties', 'attributes', 'details', 'features', 'characteristics', 'info', 'information', 'profile', 'profiles', 'stats', 'statistics', 'traits', 'extras']);

/** The noun for the rows of the table whose key this table's unique key refers to (one row per thing of that table). */
function ownerOfRows(context: FamilyContext, table: TableProfile, keyed: readonly ColumnProfile[]): string | undefined {
  const unique = new Set(keyed.map((c) => c.name));
  for (const r of context.semantics.relationships) {
    const parent = r.kind === 'foreign-key' && r.child.table === table.name && unique.has(r.child.column) ? r.parent.table
      : r.kind === 'one-to-one' && r.left.table === table.name && unique.has(r.left.column) ? r.right.table
      : r.kind === 'one-to-one' && r.right.table === table.name && unique.has(r.right.column) ? r.left.table
      : undefined;
    const owner = parent && parent !== table.name ? context.profile.tables.find((t) => t.name === parent) : undefined;
    const words = owner ? withoutQualifiers(nameWords(tableNounName(owner))) : '';
    if (owner && words !== '' && !ATTRIBUTE_WORDS.has((words.split(' ').pop() ?? '').toLowerCase())) return rowName(context, owner);
  }
  return undefined;
}

export function rowName(context: FamilyContext, table: TableProfile): string | undefined {
  // A partition's union view: the files' name when it is a plural noun ("matches"); it may say only which file
  // a row came from ("worldcup", "season").
  // A name that is one of the table's own columns (files called `…_excess_deaths` holding an `excess_deaths` column
  // beside covid and total deaths) names a quantity of each row, not what a row is.
  const ownColumn = (name: string) => table.columns.some((c) => nameWords(c.originalName || c.name).toLowerCase() === nameWords(name).toLowerCase());
  // A wide table of one column per year (`1987` … `2019` of the sheet 'Events 2019', `gdpPercap_1952` …): its cells
  // hold what the table is named for; its rows are what its one-per-row text column names (`community`, `country`).
  // (A sheet of bare years whose rows have no such label: its name still names its cells, not its rows.)
  const keyed = table.columns.filter((c) => c.candidateKey || (table.rowCount > 0 && c.distinctCount === table.rowCount && c.nullFraction === 0));
  const headers = table.columns.map((c) => (c.originalName || c.name).trim());
  if (headers.filter((h) => YEAR_SUFFIX.test(h)).length >= 5) {
    // (Not a record's key, an export's `recordid`: it names no thing the rows are.)
    const label = keyed.find((c) => c.type === 'text' && /^[a-z]{4,}$/.test(humanize(c.originalName || c.name).trim()) && !isCrypticName(humanize(c.originalName || c.name).trim()) && semanticsOf(context, table.name, c.name)?.role.value !== 'identifier');
    if (label) return humanize(label.originalName || label.name).trim();
    if (headers.filter((h) => BARE_YEAR.test(h)).length >= 5) return undefined;
  }
  const partition = partitionOfView(context, table);
  // A table named for the figures it holds (`daily_treasury_rates`, `prices`), one row per date: its rows are days
  // (or months, years), "the days whose 4-month rate …", not "the daily treasury rates whose …".
  const figures = (nameWords(partition ? partition.name : tableNounName(table)).split(' ').pop() ?? '').toLowerCase();
  // (So are a file named by a code, `cycle-38-38c1.csv` of one counter, one row a day: its rows are days.)
  if (NON_ADDITIVE_WORDS.has(figures) || (!partition && /\d/.test(table.originalName.replace(/\.[a-z0-9]+$/i, '')))) {
    const dated = datedRows(context, table);
    if (dated) return `${dated}s`;
  }
  if (partition) {
    if (partition.name !== partition.key && pluralWord((nameWords(partition.name).split(' ').pop() ?? '').toLowerCase()) && !ownColumn(partition.name)) return partition.name;
    // Files named for what they cover (`NYC.csv`, `Seattle.csv`, not years or seasons), each one series over a single
    // time column of one grain: its rows are records of that series at its grain, "monthly records". (Files by year
    // or season hold matches or readings whose noun the dates do not give.)
    // (Rows a unique number names, `permit_number` of a city's monthly permit files: permits.)
    // (A number repeated once or twice among hundreds, a permit entered twice, still numbers the rows.)
    // (Only a word written out before a suffix written out, `permit_number`: `Trans No` is an abbreviation twice.)
    const numbered = table.columns.filter((c) => c.nullFraction === 0 && table.rowCount >= 20 && c.distinctCount >= 0.98 * table.rowCount).map((c) => /^([a-z]{5,})_(number|id)$/i.exec(c.originalName || c.name)?.[1].toLowerCase()).find((w) => w !== undefined && !isCrypticName(w) && !/s$/.test(w) && !/^(record|row|line|item|entry|file|serial|sequence|index|object)$/.test(w));
    if (numbered) return numbered;
    // Files by year or season that hold one row per thing each (a league's standings: each `team` once a season):
    // its rows are that thing's years, "team seasons", not "rows in all 7 yearly files".
    if (/^(year|season)$/.test(partition.key)) {
      const members = partition.tables.map((m) => context.profile.tables.find((t) => t.name === m.table)).filter((t): t is TableProfile => t !== undefined);
      const entity = table.columns.find((c) => {
        const w = humanize(c.originalName || c.name).toLowerCase();
        const role = semanticsOf(context, table.name, c.name)?.role.value;
        if (c.type !== 'text' || !/^[a-z]{3,}$/.test(w) || isCrypticName(w) || pluralWord(w) || !(role === 'dimension' || role === 'identifier' || role === 'geo')) return false;
        return members.length >= 2 && members.every((m) => {
          const own = m.columns.find((x) => x.name === c.name);
          return own !== undefined && m.rowCount >= 3 && own.nullFraction === 0 && own.distinctCount === m.rowCount;
        });
      });
      if (entity) return `${humanize(entity.originalName || entity.name).toLowerCase()}_${partition.key === 'season' ? 'seasons' : 'years'}`;
    }
    if (/^(year|season|month|date|day|week|quarter)$/.test(partition.key)) return undefined;
    const times = table.columns.map((c) => semanticsOf(context, table.name, c.name)).filter((s) => s?.role.value === 'time');
    // (Only where the time column names each row once: payments on 3,600 days of a quarter's 60 are payments, not "daily records".)
    const timeColumn = times.length === 1 ? table.columns.find((c) => c.name === times[0]!.column) : undefined;
    // (…or names each row of its file once: a month of each country's file, `2020m1` in all four.)
    const members = partition.tables.map((m) => context.profile.tables.find((t) => t.name === m.table));
    const oncePerFile = timeColumn !== undefined && members.every((m) => m !== undefined && m.rowCount >= 2 && m.columns.some((c) => c.name === timeColumn.name && c.nullFraction === 0 && c.distinctCount === m.rowCount));
    const once = timeColumn !== undefined && (timeColumn.distinctCount >= 0.9 * table.rowCount * (1 - timeColumn.nullFraction) || oncePerFile);
    const grain = once && times[0]?.time && /^(day|month|year|quarter|week)$/.test(times[0].time.grain) ? times[0].time.grain : undefined;
    const adverb: Record<string, string> = { day: 'daily', month: 'monthly', year: 'yearly', quarter: 'quarterly', week: 'weekly' };
    return grain ? `${adverb[grain]}_records` : undefined;
  }
  // A workbook's sheets named by a period (`Jan 2019`, `Aug, 2019 `, `2019`) in a workbook named for the data of a
  // thing (`ttc-streetcar-delay-data-2019.xlsx`): its rows are those things, "streetcar delays", not "rows in the 'Jan
  // 2019' sheet". (Only "… data": a workbook named otherwise may be a report whose sheets hold anything.)
  if (!partition && /\.(xlsx|xlsm|xls|ods)$/i.test(table.sourceFile) && PERIOD_SHEET.test(table.originalName.trim())) {
    const stem = nameWords((table.sourceFile.split(/[\\/]/).pop() ?? '').replace(/\.[a-z0-9]+$/i, '')).toLowerCase().split(' ');
    const at = stem.indexOf('data');
    const thing = at > 0 ? stem.slice(0, at).filter((w) => !/\d/.test(w)) : [];
    while (thing.length > 1 && isCrypticName(thing[0])) thing.shift();
    if (thing.length >= 1 && thing.length <= 3 && thing.every((w) => /^[a-z]{3,}$/.test(w)) && !pluralWord(thing[thing.length - 1]) && !UNCOUNTABLE.has(thing[thing.length - 1])) return thing.join('_');
  }
  // A JSON child table (`stores_staff`, made from each store's staff array): its rows are the array's items.
  if (table.parent) {
    const segment = table.originalName.split(/[./>\[\]]+/).filter((s) => s !== '').pop() ?? '';
    const words = nameWords(segment);
    // (A key that is no noun, `is_part_of`, `title_translated`, `geographic`, names no rows: "is part ofs".)
    const head = words.split(' ').pop() ?? '';
    // (Nor does one that names an attribute of each item, `majorsector_percent`, `mjsector_namecode`: its items are
    // entries, not "majorsector percents".)
    // (…nor is a map or a lookup, `browserMap`, `countryMap`: its entries are keys of the map, "browser maps" none.)
    const attribute = NON_ADDITIVE_WORDS.has(head.toLowerCase()) || /(code|name|percent|pct|value|amount|amt)$/i.test(head) || /^(map|maps|dict|dictionary|lookup|mapping)$/i.test(head);
    const noNoun = /^(of|to|in|on|for|by|with|from|at|as)$/.test(head) || /(ed|ic|al|ive|ous|ing)$/.test(head) || words.split(' ')[0] === 'is' || words.split(' ')[0] === 'has' || attribute;
    // (…nor a key of three letters or fewer that is no word, JMA's `int` of intensities: "ints" says nothing.)
    const clipped = head.length <= 3 && !SHORT_WORDS.has(head.toLowerCase());
    // (A list of places in each record, JMA's `city` under each report's prefectures: the same city recurs in many
    // reports, so its items are the list's entries, "city entries", not cities.)
    const recurring = table.columns.some((c) => /^(code|id|name|key)$/i.test((c.originalName || c.name).split('.').pop() ?? '') && c.distinctCount >= 2 && c.distinctCount < 0.5 * table.rowCount);
    const places = words !== '' && !words.includes(' ') && GEO_PLACE_ITEMS.has(head.toLowerCase()) && recurring;
    if (places) return `${head.toLowerCase()}_entries`;
    if (words !== '' && !/\d/.test(words) && !COLLECTION_WORDS.has(head) && !noNoun && !clipped) return words.replace(/ /g, '_');
    return undefined;
  }
  // Columns all under one path of a JSON file (`filings.recent.form`, `filings.recent.size`, …, the arrays of a filer's
  // filings): its rows are what the path names, "filings", not the file's name.
  const paths = table.columns.filter((c) => !c.name.startsWith('_')).map((c) => (c.originalName || c.name).split('.'));
  if (paths.length >= 2 && paths.every((p) => p.length >= 2)) {
    const common: string[] = [];
    for (let i = 0; i < Math.min(...paths.map((p) => p.length - 1)) && paths.every((p) => p[i] === paths[0][i]); i++) common.push(paths[0][i]);
    const plural = common.map((segment) => withoutQualifiers(nameWords(segment)).toLowerCase()).find((w) => w !== '' && !/\d/.test(w) && pluralWord(w.split(' ').pop() ?? '') && !COLLECTION_WORDS.has(w.split(' ').pop() ?? ''));
    if (plural) return plural.replace(/ /g, '_');
  }
  // A JSON file's top-level records under a name that says only "data" (`data.json`, `export.json`): records.
  if (/\.(json|jsonl|ndjson)$/i.test(table.sourceFile) && table.kind === 'table' && COLLECTION_WORDS.has(nameWords(tableNounName(table)).toLowerCase())) return 'records';
  // A table named for the source its rows come from (XrayDB's `Chantler`, `Waasmaier`, `KeskiRahkonen_Krause`, which
  // its documents cite: "(Chantler)", ":cite:`Waasmaier_Kirfel`"): its rows are that source's records, not chantlers.
  if (citedSource(context, table)) return undefined;
  // (A country's code or a state of the file around the noun, `uk_local_authorities_current`: "local authorities".)
  const words = withoutSharedPrefix(context, table, withoutQualifiers(nameWords(tableNounName(table))));
  const last = words.split(' ').pop() ?? '';
  // A table of the properties of another table's things, one row each (`core_properties` keyed by `language_id`,
  // `player_stats` by `player_id`): its rows are those things, "languages", not "core properties".
  if (ATTRIBUTE_WORDS.has(last.toLowerCase())) {
    const owner = ownerOfRows(context, table, keyed);
    if (owner) return owner;
  }
  // A key the dictionary calls the number or the id of a thing (`snum`: "School number", one per row of `apiclus2`):
  // the rows are those things, "schools", which a cryptic table name does not say.
  const described = describedEntity(context, table, keyed);
  if (described && (isCrypticName(last.toLowerCase()) || /\d/.test(words) || !pluralWord(last.toLowerCase()))) return described;
  // A coded table name (`FINREV_FED_17`) keyed by an identifier, with a column that names a place and is all but unique
  // (`school_district`, 14,074 names over 14,306 rows): its rows are those places, "school districts".
  if (isCrypticName(last.toLowerCase()) || /\d/.test(words) || /\d/.test(table.originalName) || /^[A-Z][A-Z ]+$/.test(words)) {
    const entity = keyed.length > 0 ? table.columns.find((c) => {
      const w = humanize(c.originalName || c.name).toLowerCase().split(' ');
      const role = semanticsOf(context, table.name, c.name)?.role.value;
      // (A place, one per row: a text column says less, a summary or an attribution being one per row too.)
      return c.type === 'text' && role === 'geo' && w.length <= 2 && /^[a-z]{3,}$/.test(w[w.length - 1]) && !/^(name|names|title|label|desc|description|code|id|number|text|note|notes|comment|comments|address|url|summary|abstract|content|body|details|remarks|source|link)$/.test(w[w.length - 1]) && !pluralWord(w[w.length - 1]) && c.distinctCount >= 0.9 * table.rowCount && c.nullFraction < 0.05;
    }) : undefined;
    if (entity) return humanize(entity.originalName || entity.name).toLowerCase().replace(/ /g, '_');
  }
  // A file named for the people it holds and a short qualifier (UCI's `student-mat`, `student-por`: the students of
  // the mathematics and the Portuguese courses; `patients_2019`): its rows are those people, "students".
  const pair = words.toLowerCase().split(' ');
  if (pair.length === 2 && PEOPLE_NOUNS.has(pair[0]) && (pair[1].length <= 4 || /\d/.test(pair[1])) && !keyed.some((c) => /^(year|date|month)$/i.test(c.originalName || c.name))) return `${pair[0]}s`;
  // A file named for its frequency (`cloud-cover-daily`) over a panel of things, each once a day (a forecast point's
  // cover each day): its rows are "place-days", as an analyst counts them, not the file's name.
  if (/^(daily|weekly|monthly|quarterly|yearly|annual)$/.test(last.toLowerCase())) {
    const panelNoun = entityPeriods(context, table);
    if (panelNoun) return panelNoun;
  }
  // A dataset's title (`velib-disponibilite-en-temps-reel`, in French) over rows each with its own code named for what
  // it is (`stationcode`, `station_id`): its rows are those things, "stations".
  const titled = /\d/.test(words) || COLLECTION_WORDS.has(last) || /\s(across|by|per|over|vs|versus)\s/i.test(` ${words} `) || words.split(' ').length >= 4;
  if (titled) {
    // (A title that is a plural noun and words for the file only, `cats_uk_reference`: the cats, whatever keys tag
    // them. `fish_lab_data` holds the lab's records of fish: "lab" says what the rows are.)
    // (…after a publisher's acronym, `TDF_Riders_History` of the Tour de France: its riders.)
    const spoken = words.split(' ');
    if (spoken.length >= 3 && /^[A-Za-z]{2,5}$/.test(spoken[0]) && isCrypticName(spoken[0].toLowerCase())) spoken.shift();
    const [opening, ...after] = spoken.join(' ').toLowerCase().split(' ');
    if (after.length > 0 && after.every((w) => FILE_QUALIFIERS.test(w) || COLLECTION_WORDS.has(w)) && /^[a-z]{4,}$/.test(opening) && pluralWord(opening) && !COLLECTION_WORDS.has(opening) && !PLURAL_MODIFIERS.has(opening) && !isCrypticName(opening) && !ownColumn(opening)) return opening;
    const thing = keyed.map((c) => humanize((c.originalName || c.name).split('.').pop() ?? '').toLowerCase().split(' ')).find((w) => w.length === 2 && /^(code|id|number|no)$/.test(w[1]) && /^[a-z]{4,}$/.test(w[0]) && !isCrypticName(w[0]) && !pluralWord(w[0]) && !/^(record|row|line|item|entry|file|serial|sequence|index|object|unique|internal|external|global|local|reference)$/.test(w[0]));
    if (thing) return thing[0];
  }
  // A dataset's title over a panel of places or things over time, each once a period (a country's positions at each
  // month's end): its rows are "country-months", what an analyst calls them, not the file's name.
  if (titled) {
    const panelNoun = entityPeriods(context, table);
    if (panelNoun) return panelNoun;
  }
  // "unemployment across industries", "emissions by nation": a dataset's title, not a noun for its rows.
  if (/\d/.test(words) || COLLECTION_WORDS.has(last) || /\s(across|by|per|over|vs|versus)\s/i.test(` ${words} `)) return undefined;
  // Four words or more ("seattle weather hourly normals") are a dataset's title, not what one row is.
  if (words.split(' ').length >= 4) return undefined;
  // A table named for an outcome of a thing (`nest_success`, `loan_status`) whose rows carry that thing's number
  // (`nest_number`): its rows are those things, "nests", not "the nest success".
  const outcome = words.toLowerCase().split(' ');
  if (outcome.length === 2 && /^(success|outcome|outcomes|status|fate|fates|result|results|performance)$/.test(outcome[1]) && /^[a-z]{3,}$/.test(outcome[0]) && !isCrypticName(outcome[0]) && !pluralWord(outcome[0])) {
    const own = table.columns.some((c) => /^(|id|no|num|number|code)$/.test(humanize(c.originalName || c.name).toLowerCase().replace(new RegExp(`^${outcome[0]}\\s*`), '')) && humanize(c.originalName || c.name).toLowerCase().startsWith(outcome[0]) && semanticsOf(context, table.name, c.name)?.role.value === 'identifier');
    if (own) return outcome[0];
  }
  // (A name that ends in "data", CellPhoneDB's `multidata_table`, has no plural: its rows are records of it.)
  if (/[a-z]data$/.test(last.toLowerCase()) && !isCrypticName(last.toLowerCase()) && words.split(' ').length <= 2) return `${words.replace(/ /g, '_')}_records`;
  const one = noun(words.replace(/ /g, '_'), 'one').toLowerCase();
  // A list of codes or names of things (`country_codes`): its rows are the things, "countries".
  const list = /^(.+) (codes|names)$/i.exec(words);
  if (list && keyed.length > 0 && !/\s/.test(list[1])) return list[1];
  // A table named after what a column counts or repeats (`developers` with a `developers` count per economy and
  // quarter, `licenses` with an `spdx_license` per row): its rows are observations about those things, not the things.
  const many = noun(words.replace(/ /g, '_'), 'many').toLowerCase();
  const named = table.columns.some((c) => {
    if (keyed.includes(c)) return false;
    const w = humanize(c.originalName || c.name).toLowerCase();
    const lastMany = noun(last.toLowerCase(), 'many');
    return w === many || ((c.type === 'integer' || c.type === 'real') && w === lastMany) || (c.type === 'text' && c.distinctCount < table.rowCount && w.split(' ').length > 1 && w.endsWith(` ${one}`) && !/^(comments?|notes?|descriptions?|remarks?|names?|labels?|titles?)$/.test(w.split(' ')[0]));
  });
  if (named) return undefined;
  // A panel: no key, an entity that repeats and a year that repeats (a team per season, a country per year): a row
  // is an entity-year, which the table's name ("teams", "top economies") does not say. Dated events (flights) are no panel.
  const role = (c: ColumnProfile) => semanticsOf(context, table.name, c.name)?.role.value;
  const repeats = (c: ColumnProfile) => c.distinctCount >= 2 && c.distinctCount <= table.rowCount / 3 && c.nullFraction < 0.1;
  // An identifier unique but for a few duplicates (`customer_id`) still says a row is one thing.
  const nearlyKeyed = table.columns.some((c) => role(c) === 'identifier' && c.distinctCount >= 0.9 * table.rowCount);
  // Rows dated to the day (captures, sightings, flights) are events, whatever year column they also carry.
  // (…or dated by a day's part beside the year's and the month's, NCEI's `Year`, `Mo`, `Dy`: earthquakes, not country-years.)
  const dayPart = table.columns.some((c) => {
    const source = semanticsOf(context, table.name, c.name)?.role.source;
    return source?.kind === 'rule' && (source.rule === 'time:date-parts' || source.rule === 'time:day-of-month') && c.distinctCount >= 20;
  });
  const dated = dayPart || table.columns.some((c) => role(c) === 'time' && /^(day|datetime)$/.test(semanticsOf(context, table.name, c.name)?.time?.grain ?? '') && c.distinctCount >= 3);
  const panel = !dated && !keyed.some((c) => c.type !== 'real') && !nearlyKeyed && table.columns.some((c) => role(c) === 'time' && semanticsOf(context, table.name, c.name)?.time?.grain === 'year' && repeats(c)) && table.columns.some((c) => (role(c) === 'identifier' || role(c) === 'geo') && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= table.rowCount / 3 && c.nullFraction < 0.1);
  if (panel && !table.parent) return undefined;
  // Rows that observe one of the table's things again and again (Broods: a `brood` column repeating on 3,424 rows of
  // 415 broods): "brood observations", not "broods".
  const singular = noun(words.replace(/ /g, '_'), 'one').toLowerCase();
  const observed = table.columns.find((c) => {
    const n = humanize(c.originalName || c.name).toLowerCase();
    return (n === singular || n === `${singular} id`) && c.distinctCount >= 2 && c.distinctCount <= table.rowCount / 2 && semanticsOf(context, table.name, c.name)?.role.value === 'identifier';
  });
  // (A table with a key of its own, one per row, holds the things: a nest number repeating across years is part of it.)
  const ownKeyColumn = table.columns.some((c) => (c.candidateKey || (table.rowCount > 0 && c.distinctCount === table.rowCount && c.nullFraction === 0)) && semanticsOf(context, table.name, c.name)?.role.value === 'identifier');
  if (observed && !ownKeyColumn && pluralWord(last.toLowerCase())) return `${singular.replace(/ /g, '_')}_observations`;
  // "awards players", "teams franchises": a plural before the last word is two nouns side by side, not one noun.
  const allWords = words.toLowerCase().split(' ');
  if (allWords.length > 1 && allWords.slice(0, -1).some((w) => pluralWord(w) && !/(ies|ss)$/.test(w) && !PLURAL_MODIFIERS.has(w))) {
    // A key whose word begins a word of the name (`franchID` in TeamsFranchises): that word names the rows.
    const stem = keyed.map(keyWord).find((k) => k !== undefined && !k.includes(' '));
    const full = stem ? allWords.find((w) => w.startsWith(stem) && w.length > stem.length) : undefined;
    return full && pluralWord(full) ? noun(full, 'one') : undefined;
  }
  // A table named as a plural noun (`countries`) names its rows better than a key's word (`numeric_code` → "numeric"),
  // unless the name only says they are people (People's `playerID`: "players").
  if (pluralWord(last.toLowerCase()) && !/^(people|persons|individuals|entities|objects|records|items|entries)$/i.test(last)) {
    const ownWord = keyed.some((c) => {
      const word = keyWord(c);
      return word !== undefined && (one.startsWith(word) || one.endsWith(word) || word.startsWith(one));
    });
    if (ownWord || !keyed.some((c) => keyWord(c) !== undefined)) return words.replace(/ /g, '_');
    const keyNoun = keyed.map(keyWord).find((w) => w !== undefined && !w.includes(' ') && !/^(row|record|line|entry|item|seq)$/.test(w));
    if (!keyNoun || !allWords.some((w) => w.startsWith(keyNoun))) return words.replace(/ /g, '_');
  }
  // The table's own key is named after it (`order_id` in orders, `emp_id` in employee), or the table is named in the plural.
  const ownKey = keyed.some((c) => {
    const word = keyWord(c);
    return word !== undefined && (one.startsWith(word) || one.endsWith(word) || word.startsWith(one));
  });
  // A table named in another language's plural (`Matvarer` keyed by `Matvare ID`): "matvarers" is no word.
  if (keyed.some((c) => inAnotherLanguage(context, keyWord(c)))) return undefined;
  if (ownKey) return words.replace(/ /g, '_');
  // A database table named by one plain word (`aircraft`, keyed by `tail_no`): the entity its rows are, whatever
  // its key is called ("the aircraft whose name is …", not "the tail whose name is …").
  if (allWords.length === 1 && /^[a-z]{4,}$/.test(last.toLowerCase()) && !isCrypticName(last.toLowerCase()) && !/^(people|persons|individuals|entities|objects|records|items|entries|master|main)$/i.test(last) && /\.(sqlite3?|db|duckdb)$/i.test(table.sourceFile)) return words.replace(/ /g, '_');
  // …and so does a file named by a noun of a word or three (`KNS_Query-000224`, `KNS_CommitteeSession-000225`), one
  // row per bare `Id`: the queries, the committee sessions.
  const bareId = keyed.some((c) => /^(id|_id)$/i.test(c.originalName || c.name) && semanticsOf(context, table.name, c.name)?.role.value === 'identifier');
  if (bareId && !table.parent && allWords.length <= 3 && allWords.every((w) => /^[a-z]{3,}$/.test(w) && !isCrypticName(w)) && !COLLECTION_WORDS.has(last.toLowerCase()) && !/^(people|persons|individuals|entities|objects|records|items|entries|master|main|data|export|dump|list|table|sheet)$/i.test(last)) return words.replace(/ /g, '_');
  // A key named after what the rows are (People's `playerID`): "players", more telling than the table's name.
  // Not a code's letters (`gss_code`, `lsoa`): "gsses" is no noun.
  // The rows of a table of places (a county's name one per row beside its FIPS code): "counties".
  const place = keyed.map((c) => semanticsOf(context, table.name, c.name)).find((s) => s?.role.value === 'geo' && s.geo && /^(country|state|county|city)$/.test(s.geo));
  if (place?.geo) return place.geo;
  // (Keys named for two different things, `cnty_id` and `cress_id` of one county, say nothing sure: no noun from them.)
  const keyWords = new Set(keyed.map(keyWord).filter((w): w is string => w !== undefined && !/^(row|record|line|entry|item|seq|ogc|object|feature)$/.test(w)));
  // (Nor a word the data puts in another language's plural elsewhere: `Matvare ID` beside a sheet 'Matvarer'.)
  // (Nor the name of who keeps the records, `hakai_id` beside an `organization` of `HAKAI`: "hakais" is no noun.)
  const aValue = (w: string) => table.columns.some((c) => c.type === 'text' && c.samples.some((v) => typeof v === 'string' && v.trim().toLowerCase() === w));
  const word = keyWords.size === 1 ? [...keyWords].find((w) => !w.includes(' ') && !isCrypticName(w) && !inAnotherLanguage(context, w) && !aValue(w)) : undefined;
  if (word) return word;
  if (pluralWord(last.toLowerCase()) && !ownColumn(tableNounName(table))) return words.replace(/ /g, '_');
  // A key of one plain word naming what each row is (`country` in a table of one row per country): "countries".
  // Its values must be names of things: a `source` column of URLs (one per element of a periodic table) says where a
  // row came from, not what it is ("sources").
  // Nor a sentence: a `summary` of each element describes it, it does not name it ("summaries").
  const namesThings = (c: ColumnProfile) =>
    !semanticsOf(context, table.name, c.name)?.structured && !c.samples.some((v) => typeof v === 'string' && (/:\/\/|^www\.|[\\/]/.test(v) || v.split(/\s+/).length > 6));
  const plain = keyed.find((c) => c.type === 'text' && /^[a-z]{4,}$/.test(humanize(c.originalName || c.name)) && !isCrypticName(humanize(c.originalName || c.name)) && !/^(name|title|label|code|symbol|abbreviation|abbr|slug|identifier|date|year|time|month|text|value|path|file|url|link|hash|uuid|guid)$/.test(humanize(c.originalName || c.name)) && namesThings(c));
  if (plain) return humanize(plain.originalName || plain.name);
  // A file's singular name is its dataset's (`worldcup.json` holds matches); a database table's is its entity's.
  if (!/\.(sqlite3?|db|duckdb|sql)$/i.test(table.sourceFile)) return undefined;
  // Other tables' keys point at it, or it has a key of its own: a table of things (sakila's `film`, world's `city`).
  const referenced = context.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.parent.table === table.name);
  if (referenced || keyed.some((c) => /^(id|key|code)$/i.test(c.originalName || c.name))) return words.replace(/ /g, '_');
  return undefined;
}

/**
 * "country-month" for a table holding each country once a month (76 countries × 115 months, 8,740 rows): an entity (a
 * place or a named thing, repeated) and a time column of one grain, their every pairing present about once.
 */
function entityPeriods(context: FamilyContext, table: TableProfile): string | undefined {
  if (table.rowCount < 20 || table.parent) return undefined;
  const times = table.columns.filter((c) => semanticsOf(context, table.name, c.name)?.role.value === 'time' && c.nullFraction === 0);
  if (times.length !== 1) return undefined;
  const grain = semanticsOf(context, table.name, times[0].name)?.time?.grain;
  if (!grain || !/^(day|month|quarter|year)$/.test(grain)) return undefined;
  const time = times[0];
  for (const c of table.columns) {
    const role = semanticsOf(context, table.name, c.name)?.role.value;
    if (c === time || c.type !== 'text' || c.nullFraction > 0 || !(role === 'geo' || role === 'identifier')) continue;
    const words = humanize(c.originalName || c.name).toLowerCase().split(' ');
    // (A bare `code` that refers to a table of things, IMD's station codes to its places: a thing of that table.)
    const parent = words.length === 1 && /^(code|id|key)$/.test(words[0]) ? context.semantics.relationships.find((r) => r.kind === 'foreign-key' && r.child.table === table.name && r.child.column === c.name) : undefined;
    const parentRows = parent && parent.kind === 'foreign-key' ? context.profile.tables.find((t) => t.name === parent.parent.table) : undefined;
    const parentNoun = parentRows ? rowName(context, parentRows) : undefined;
    const word = parentNoun && /^[a-z]+$/.test(parentNoun) && pluralWord(parentNoun) ? singular(parentNoun) : words.length === 2 && /^(name|code|id)$/.test(words[1]) ? words[0] : words.length === 1 ? words[0] : undefined;
    if (!word || !/^[a-z]{4,}$/.test(word) || /^(name|code|label|title|text|value|type|kind)$/.test(word) || isCrypticName(word) || pluralWord(word) || COLLECTION_WORDS.has(word)) continue;
    const pairs = c.distinctCount * time.distinctCount;
    if (c.distinctCount >= 3 && time.distinctCount >= 3 && table.rowCount <= pairs && table.rowCount >= 0.8 * pairs) return `${word}-${grain}`;
  }
  return undefined;
}

/**
 * Whether a key's word (`matvare` of `Matvare ID`) names a table of the environment in another language's plural
 * (`Matvarer`: -r, -er, -en, -ar, not English -s): the word is no English noun to pluralise.
 */
function inAnotherLanguage(context: FamilyContext, word: string | undefined): boolean {
  if (word === undefined) return false;
  return context.profile.tables.some((t) => {
    const name = t.originalName.replace(/\.[a-z0-9]+$/i, '').toLowerCase();
    const last = name.split(/[^a-z]+/).filter(Boolean).pop() ?? '';
    return last !== word && last.startsWith(word) && /^(r|er|en|ar)$/.test(last.slice(word.length));
  });
}

/** Whether the documents cite the table's name as a source: "(Chantler)", "(Keski-Rahkonen and Krause)", ":cite:`Chantler`", "Chantler et al.". */
function citedSource(context: FamilyContext, table: TableProfile): boolean {
  const name = table.originalName.replace(/\.[a-z0-9]+$/i, '');
  // The first part of a name of authors (`KeskiRahkonen_Krause`: Keski-Rahkonen), capitalised, letters only.
  const first = name.split(/[_\s]+/)[0].replace(/([a-z])([A-Z])/g, '$1-$2');
  if (!/^[A-Z][a-z]+(-[A-Z][a-z]+)?$/.test(first)) return false;
  const escaped = first.replace(/-/g, '[- ]?');
  const cited = new RegExp(`\\(${escaped}(\\)| and | et al| \\d{4})|:cite:[a-z]*:\`${escaped}|\\b${escaped} et al\\.`);
  return context.documents.some((d) => d.sections.some((s) => cited.test(s.text)));
}

/**
 * The thing a table's rows are, as its dictionary names their key: "School number", "Unique identifier of each
 * station", "Customer ID" on a column one per row → "school", "station", "customer"; undefined when no key is so described.
 */
function describedEntity(context: FamilyContext, table: TableProfile, keyed: readonly ColumnProfile[]): string | undefined {
  for (const column of keyed) {
    const said = semanticsOf(context, table.name, column.name)?.description?.value?.trim().replace(/\.$/, '');
    if (!said) continue;
    const m =
      /^(?:the |a |unique )?([a-z]{3,})[ -](?:number|no|id|identifier|code|key)$/i.exec(said) ??
      /\b(?:identifier|id|number|key) (?:of|for) (?:each|every|the|a) ([a-z]{3,})$/i.exec(said) ??
      // "Unique alphanumeric ID assigned to each survey": the rows are surveys.
      /\b(?:identifier|id|number|key|code)\b[^.,;]*?\b(?:to|of|for) (?:each|every) ([a-z]{3,})\b/i.exec(said);
    if (!m || /^(row|record|line|entry|item|serial|sequence|unique|catalog|catalogue|reference|registration|identification)$/i.test(m[1])) continue;
    return m[1].toLowerCase();
  }
  return undefined;
}

/** A value fit to quote in a question: no padding, not empty, not a paragraph. */
/** A cell that says the value is not known (`NA`, `N/A`, `NULL`): no category a question can filter or group by. (`Na` is sodium.) */
const NOT_KNOWN = /^(NA|na|N\/A|n\/a|#N\/A|NULL|Null|null|NaN|nan|<NA>|NIL|nil)$/;

/**
 * A value a question may quote: a number, or a short one-line text that is no placeholder for a missing value (`NA`,
 * `NULL`, or marks with no letter or digit, `-`, `--`, `?`, `..`, `(x)`, that a file writes where it knows nothing).
 */
export function quotable(value: unknown): value is string | number {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.trim() === value && value !== '' && value.length <= 60 && !/[\n\r\t]/.test(value) && !NOT_KNOWN.test(value) && !/^\(?[^\p{L}\p{N}]*\)?$|^\([a-z]\)$/iu.test(value);
}

// ---- groups named by a key: a parent's rows as the groups (added for the document-metric and cross-source
// compositions) -----------------------------------------------------------------------------------------------------

/** A grouping whose groups are a parent's rows (each store), read through the parent's label. */
export interface KeyGrouping extends Grouping {
  via: ForeignKey;
  byKey: true;
}

/**
 * A table's many-to-one keys to a parent of `min`–`max` rows (stores, warehouses), as groupings: each parent row is a
 * group, read through its label (`p."name"`), or the key itself where nothing names the rows better. "Which store"
 * is a question about these groups, which a store's dimensions (its format, its region) do not answer.
 */
export function keyGroupings(context: FamilyContext, table: TableProfile, options: { min?: number; max?: number } = {}): KeyGrouping[] {
  const min = options.min ?? 2;
  const max = options.max ?? 50;
  return foreignKeys(context)
    .filter((k) => k.child.name === table.name && k.containment >= 0.95 && k.parent.rowCount >= min && k.parent.rowCount <= max && k.childColumn.distinctCount >= min && k.childColumn.nullFraction < 0.5)
    .map((via) => {
      const label = labelColumn(context, via.parent, via.parentColumn);
      return { column: label, table: via.parent, ref: `p.${quoteIdent(label.name)}`, via, byKey: true as const };
    });
}

const isKeyGrouping = (g: Grouping): g is KeyGrouping => (g as Partial<KeyGrouping>).byKey === true;

/** What a grouping's values are, in words: "store" for a parent's rows, else the grouping's name ("region"). */
export function groupNoun(g: Grouping, context?: FamilyContext): string {
  if (!isKeyGrouping(g)) return groupingName(g, context);
  return parentNoun(context, g.via.parent) ?? humanize(g.column.originalName || g.column.name);
}

/** " (give its name)": how to answer with a parent row's label when the label is not its key; empty otherwise. */
export function labelHint(g: Grouping): string {
  return isKeyGrouping(g) && g.column !== g.via.parentColumn ? ` (give its ${humanize(g.column.originalName || g.column.name)})` : '';
}

// ---- helpers of the attribution, partition and distribution-subset compositions ----------------------------------

/** The partition a table is the union view of, when it is one. */
export function partitionOfView(context: FamilyContext, table: TableProfile): SemanticProfile['partitions'][number] | undefined {
  return context.semantics.partitions.find((p) => p.view === table.name);
}

/**
 * A table's rows as a noun, singular or plural by count: "orders" / "order"; "rows" where nothing in the data says
 * what a row is (`rowName`) — a partition's union view ("season all"), a dataset's name ("gapminder") — and
 * `tableMention` then names the table.
 */
export function rowsNoun(context: FamilyContext, table: TableProfile, count: number | 'one' | 'many' = 'many'): string {
  const named = rowName(context, table);
  // The items of a nested array whose key names no thing (`is_part_of`): its entries.
  if (!named && table.parent) return count === 'one' || count === 1 ? 'entry' : 'entries';
  if (!named) return count === 'one' || count === 1 ? 'row' : 'rows';
  return noun(countable(named), count);
}

/** Where `rowsNoun` says only "rows", the words naming the table: " in the view 'season_all'", or "" when the noun names it. */
export function tableMention(context: FamilyContext, table: TableProfile): string {
  const named = rowName(context, table);
  // (Rows two tables both name, a workbook's monthly sheets of streetcar delays: which sheet is still said.)
  const twin = named !== undefined && context.profile.tables.some((t) => t !== table && t.sourceFile === table.sourceFile && t.kind === table.kind && !t.parent && rowName(context, t) === named);
  return named && !twin ? '' : ` in ${tablePlace(context, table)}`;
}

/** Where a table's rows are, in words: "day.csv", "the seagrass density survey", "the 'GDP' sheet", "all 4 yearly files". */
export function tablePlace(context: FamilyContext, table: TableProfile): string {
  // A file or a sheet by the name its user knows ("rows in day.csv", "rows in the 'GDP' sheet"); a file named in
  // words by its words ("rows in the seagrass density survey", not "rows in seagrass_density_survey.csv").
  const label = tableLabel(table.name, context.profile);
  const named = fileWords(label);
  // (Short words between the nouns, "list of documents used for national scorecards", are words, not codes.)
  if (named && !named.split(' ').some((w) => !/^(of|in|on|to|by|at|or|an|as|per|and|for|the)$/.test(w) && isCrypticName(w))) return `the ${named}`;
  if (label) return label;
  // A partition's union view by its files: "in all 4 yearly files".
  const partition = partitionOfView(context, table);
  if (partition) return allPartitionFiles(partition.tables.length, partition.key);
  return `the ${table.kind === 'view' ? 'view' : 'table'} '${table.name}'`;
}

/**
 * A grouping's name, told apart from another grouping of the list with the same name (two keys to one parent:
 * a flight's origin and destination airport) by the key it is reached through: "origin country".
 */
export function distinctGroupingName(g: Grouping, all: readonly Grouping[], context?: FamilyContext): string {
  let name = groupingName(g, context);
  // A parent whose noun has no singular ("portal ant species member") reads better unnamed: "genus".
  if (g.via && noun(g.via.parent.name, 'one').endsWith(' member') && !g.via.child.columns.some((c) => c.name === g.column.name)) name = humanize(g.column.originalName || g.column.name);
  const twin = all.some((o) => o !== g && groupingName(o, context) === groupingName(g, context));
  if (!twin || !g.via) return name;
  const through = humanize(g.via.childColumn.originalName || g.via.childColumn.name).replace(/\s+(id|code|key)$/i, '');
  return `${through} ${humanize(g.column.originalName || g.column.name)}`;
}

/**
 * A figure whose unit its own column gives per row (`wind_speed` beside `wind_speed_unit_code` of three codes): rows in
 * mph and in knots do not pool into one average, percentile or total.
 */
export function inRowUnits(table: TableProfile, column: ColumnProfile): boolean {
  const stem = `${column.name.toLowerCase()}_`;
  if (table.columns.some((c) => c !== column && c.distinctCount >= 2 && c.name.toLowerCase().startsWith(stem) && /^(unit|units|uom)(_code|_cd)?$/.test(c.name.toLowerCase().slice(stem.length)))) return true;
  // (…and a quantity in physical units beside the table's own unit column, EIA's `total_fuel_consumption_quantity`
  // beside `fuel_unit`: barrels of oil, mcf of gas, short tons of coal on different rows; its `_mmbtu` twin is one unit.)
  const unitColumn = table.columns.some((c) => {
    const words = c.name.toLowerCase().split(/[_\s]+/);
    const unitWord = UNIT_COLUMN_WORDS.has(words.at(-1) ?? '') || (/^(label|code|name)$/.test(words.at(-1) ?? '') && UNIT_COLUMN_WORDS.has(words.at(-2) ?? '')) || /unit_of_measure$/.test(c.name.toLowerCase());
    return c !== column && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 20 && unitWord;
  });
  const words = column.name.toLowerCase().split(/[_\s]+/);
  // (A unit in the name, `_mmbtu`, `_usd`, `_barrels`, makes it one unit on every row.)
  return unitColumn && words.some((w) => /^(quantity|quantities|qty|physical)$/.test(w)) && !words.some((w) => UNIT_SUFFIXES[w] !== undefined || /^(dollars|percent|tonnes?|tons|gallons?|barrels?|bbl|mcf|litres?|liters?)$/.test(w));
}

/** A value that says the thing is not known (`ND`, not determined; `Unknown`; `U`): nothing to filter on. */
export function saysNotKnown(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const v = value.trim().toLowerCase();
  return UNKNOWN_ANSWERS.has(v) || /^(unknown|nd|n\/d|n\.d\.|not determined|undetermined|unsexed|not recorded|none given)$/.test(v);
}

/**
 * An amount in each row's own currency (`local_price` beside a `currency_code`), or an exchange rate to one
 * (`dollar_ex`): rows of different currencies do not compare, so no total, mean or percentile across them.
 */
export function inLocalCurrency(table: TableProfile, column: ColumnProfile): boolean {
  if (!table.columns.some((c) => /currency/i.test(c.name) && c.type === 'text')) return false;
  return /(^|_)(local|lcu)(_|$)|(^|_)(ex|fx|xrate|exchange(_rate)?)$/i.test(column.name);
}

/** A coordinate (latitude, longitude) is a position on the globe, not a quantity to average or compare across groups. */
export function isCoordinate(column: ColumnProfile): boolean {
  // A unit after it (`latitude_deg`, `lon_degrees`) is still a position.
  const name = column.name.replace(/_(deg|degs|degrees|dd)$/i, '');
  return /^(lat|lng|lon|long|latitude|longitude)$/i.test(name) || /(^|_)(latitude|longitude)$/i.test(name);
}

/**
 * Whether a task's question, as the pool will show it (naming any look-alike table it reads), passes the question
 * lint: a family tries its next candidate rather than offer a question an editor would strike (over 60 words, a
 * count that disagrees with its noun).
 */
export function readsClean(context: FamilyContext, task: TaskSpec): boolean {
  const unnamed = unnamedLookAlikes(task, context.profile, context.documents, context.semantics.twinTables);
  const named = withTablesNamed(task.question, task.tables.filter((t) => unnamed.has(t)), context.profile);
  // (…and the total rows it leaves out stated, as the pool will state them: "Leave out the row whose police division is 'Total'".)
  return lintQuestion(statingTotalRows({ ...task, question: named }, context.semantics.totalRows, columnNamer(context))).length === 0;
}

/** How questions name a column given by its table and name, as the pool states total rows: "SOC occupation level", not "o group". */
export function columnNamer(context: FamilyContext): (table: string, column: string) => string {
  return (table, column) => {
    const profiled = context.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    return profiled ? columnPhrase(context, table, profiled) : column;
  };
}

// ---- added for the statistics and cohort compositions: a Python step read as text, rows as a noun ---------------

/**
 * A Python step whose sub-answer is the text of its last printed line (a group's name, a month, a year): a
 * `TaskProgram`'s own readings take a Python step's output as a number only. The step is executed and added to the
 * program like any other; undefined when it fails or prints nothing.
 */
export async function pythonTextStep(program: TaskProgram, context: FamilyContext, code: string, purpose: string, answer: { label: string; uses?: number[]; carries?: string[] }): Promise<{ value: string; key: AnswerKey } | undefined> {
  const { step, result } = await evidence(context, 'run_python', code, purpose);
  if (!result.ok) return undefined;
  const value = (result.stdout ?? '').trim().split('\n').pop()?.trim() ?? '';
  if (value === '') return undefined;
  const key: AnswerKey = { type: 'string', value };
  const sub: SubAnswer = { label: answer.label, key };
  if (answer.carries && answer.carries.length > 0) sub.carries = answer.carries;
  step.subAnswer = sub;
  if (answer.uses && answer.uses.length > 0) step.uses = answer.uses;
  program.steps.push(step);
  return { value, key };
}

