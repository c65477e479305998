/**
 * Total rows: rows of a table whose dimension value is a total of the other rows — an airline column's 'Total
 * Domestic' and 'Total International' beside the airlines, a country column's 'World' beside the countries, a tax
 * column's `all_taxes`. Summed with their parts they count everything twice, and ranked with them the total is the
 * "leading airline"; the task pool leaves them out and says so.
 *
 * Decided by the data, not by the word alone: a label that reads as a total, AND additive measures on its row that
 * equal (within rounding) the sum of the other rows of its group (the rows that share its other keys, such as the
 * year; or the whole table), or whose labelled rows together equal that sum (each a total of a part), or that are no
 * less than any other row and no more than their sum (a total of some of them). A label whose measures can be checked
 * and that is none of these (a company 'Total Care Matters Limited', a plant 'Djeno Total') is no total row. Where no
 * measure can be checked, a label that is the word alone ('Total', 'All', `all_taxes`) in a short dimension is one,
 * with lower confidence.
 */
import type { Database } from 'sql.js';
import type { ColumnProfile, TableProfile } from '../env/types';
import { quoteIdent as q, sqlLiteral } from '../text/sql';
import { COUNTRY_NAMES, TOTAL_LABEL } from './lexicon';
import type { ColumnSemantics, TotalRows } from './types';

/** The word alone: a label that may be taken without checking measures. */
const BARE_TOTAL = /^(?:(?:grand)[\s_-]*total|totals?|all|overall|sum|gesamt|insgesamt|summe|totale|alle)$|^all_[a-z]+$/i;

const DIMENSION_ROLES = new Set(['dimension', 'geo', 'ordinal', 'identifier', 'text']);
const KEY_ROLES = new Set(['dimension', 'geo', 'ordinal', 'identifier', 'time', 'flag']);
const MAX_DISTINCT = 2000;
/** Values the loader keeps per column as it inserts the rows (EnvironmentDraft.firstDistinct). */
const FEW_VALUES = 13;
type FirstDistinct = (table: string, column: string, limit: number) => Array<string | number> | undefined;
const MAX_LABELS = 12;
const MAX_MEASURES = 6;
const MAX_GROUPS = 5000;
/** Rounding a published total may show against its parts. */
const RELATIVE_TOLERANCE = 0.005;
/** Share of the checked groups (× measures) that must agree. */
const AGREEING_SHARE = 0.9;

type Column = ColumnProfile;

const roleOf = (semantics: readonly ColumnSemantics[], name: string) => semantics.find((s) => s.column === name)?.role.value ?? '';
const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(RELATIVE_TOLERANCE * Math.abs(b), 1e-9);

function rows(db: Database, sql: string): unknown[][] | undefined {
  try {
    return db.exec(sql)[0]?.values ?? [];
  } catch {
    return undefined;
  }
}

/** The distinct values of a column (at most MAX_DISTINCT + 1), read once for both kinds of total label. */
function distinctOf(db: Database, table: TableProfile, column: Column, firstDistinct?: FirstDistinct): unknown[] {
  // A column of a few values: the loader kept them all as it inserted the rows (no scan of a million rows).
  const kept = column.distinctCount <= FEW_VALUES ? firstDistinct?.(table.name, column.name, FEW_VALUES) : undefined;
  return kept && kept.length === column.distinctCount ? kept : (rows(db, `SELECT DISTINCT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL LIMIT ${MAX_DISTINCT + 1}`) ?? []).map((r) => r[0]);
}

/**
 * A total written as one word with its area in camel case (the Federal Reserve's `EurTotal`, `AsiaTotal`,
 * `ForeignAll`) or with `All` between underscores (`FOI_All_Countries`): capitals tell the words apart, so
 * `Cornwall` and `football` are no totals.
 */
const GLUED_TOTAL = /^[A-Z][A-Za-z]*(Total|All)$|^[A-Z][A-Za-z]*_All(_[A-Za-z]+)*$/;

/** The values of a column that read as totals (at most MAX_LABELS). */
function totalLabels(values: readonly unknown[]): string[] {
  return values
    .filter((v): v is string => typeof v === 'string' && v.trim().length <= 60 && (TOTAL_LABEL.test(v.trim()) || GLUED_TOTAL.test(v.trim())))
    .slice(0, MAX_LABELS);
}

/** Whether each value of `by` goes with one value of `column` (a code beside its name): no key of its own. */
function determinedBy(db: Database, table: TableProfile, by: Column, column: Column): boolean {
  const row = rows(db, `SELECT COUNT(DISTINCT ${q(by.name)}), COUNT(DISTINCT IFNULL(${q(by.name)}, '') || char(31) || IFNULL(${q(column.name)}, '')) FROM ${q(table.name)} WHERE ${q(by.name)} IS NOT NULL`)?.[0];
  return row !== undefined && Number(row[1]) <= Number(row[0]);
}

/** The groupings to try, finest first: all other keys, all but one, each alone, the whole table. */
function groupingsToTry(keys: Column[]): Column[][] {
  const tries: Column[][] = [keys];
  if (keys.length > 1) for (const k of keys) tries.push(keys.filter((x) => x !== k));
  if (keys.length > 2) for (const k of keys) tries.push([k]);
  tries.push([]);
  const seen = new Set<string>();
  return tries.filter((t) => {
    const id = t.map((c) => c.name).join('\u0001');
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

interface Verdict {
  values: string[];
  evidence: TotalRows['evidence'];
  confidence: number;
  why: string;
}

/**
 * Checks labels against the other rows of each group (rows of `excluded` labels, totals found already, are neither):
 * per group and measure, the sum, largest value and count of the other rows and each label's value. Groups where a
 * label stands twice say nothing (the grouping is too coarse for them); `checked` names the labels seen beside two
 * other rows with values.
 */
/** Checks (groups × measures) a set of labels must pass together to be read as totals of parts. */
const MIN_PART_CHECKS = 5;

function check(db: Database, table: TableProfile, column: Column, labels: string[], excluded: string[], measures: Column[], grouping: Column[]): { verdict?: Verdict; checked: Set<string> } {
  const c = q(column.name);
  const list = (ls: string[]) => ls.map((l) => sqlLiteral(l)).join(', ');
  // Rows without a label are parts too: a roll-up's detail rows often leave the marker column empty.
  const other = `(${c} IS NULL OR ${c} NOT IN (${list([...labels, ...excluded])}))`;
  const parts = [`COUNT(CASE WHEN ${other} THEN 1 END)`, ...labels.map((l) => `COUNT(CASE WHEN ${c} = ${sqlLiteral(l)} THEN 1 END)`)];
  for (const m of measures) {
    const x = q(m.name);
    parts.push(`SUM(CASE WHEN ${other} THEN ${x} END)`, `MAX(CASE WHEN ${other} THEN ${x} END)`, `COUNT(CASE WHEN ${other} THEN ${x} END)`, ...labels.map((l) => `MAX(CASE WHEN ${c} = ${sqlLiteral(l)} THEN ${x} END)`));
  }
  const groupBy = grouping.length > 0 ? ` GROUP BY ${grouping.map((g) => q(g.name)).join(', ')}` : '';
  const checked = new Set<string>();
  const result = rows(db, `SELECT ${parts.join(', ')} FROM ${q(table.name)}${groupBy} LIMIT ${MAX_GROUPS}`);
  if (!result) return { checked };
  const L = labels.length;
  const per = 3 + L;
  // Per label: groups × measures where it and two other rows or more have values; how many are the rest's sum, and
  // how many the largest and within the sum.
  const stats = labels.map(() => ({ checked: 0, rest: 0, bounded: 0, groups: 0 }));
  const partsStats = { checked: 0, agree: 0 };
  for (const r of result) {
    if (Number(r[0]) < 2 || labels.some((_, i) => Number(r[1 + i]) > 1)) continue;
    const seen = new Set<number>();
    measures.forEach((_, j) => {
      const base = 1 + L + j * per;
      const [sum, max, count] = [r[base], r[base + 1], Number(r[base + 2])];
      if (count < 2 || sum === null || max === null) return;
      const s = Number(sum);
      const values = labels.map((_, i) => r[base + 3 + i]);
      values.forEach((v, i) => {
        if (v === null || v === undefined) return;
        const t = Number(v);
        stats[i].checked++;
        seen.add(i);
        if (near(t, s)) stats[i].rest++;
        if (t >= Number(max) && t <= s + Math.max(RELATIVE_TOLERANCE * Math.abs(s), 1e-9)) stats[i].bounded++;
      });
      // The labels that are no grand total, together: do they sum to the others (each a total of a part)?
      const partValues = values.filter((v) => v !== null && v !== undefined && !near(Number(v), s));
      if (partValues.length >= 2) {
        partsStats.checked++;
        if (near(partValues.reduce((a: number, v) => a + Number(v), 0), s)) partsStats.agree++;
      }
    });
    for (const i of seen) stats[i].groups++;
  }
  labels.forEach((l, i) => stats[i].checked > 0 && checked.add(l));
  if (checked.size === 0) return { checked };
  const where = grouping.length > 0 ? `of its ${grouping.map((g) => g.name).join(' and ')}` : 'of the table';
  const groupsOf = (i: number) => `${stats[i].groups} group${stats[i].groups === 1 ? '' : 's'}`;
  const measureWords = measures.map((m) => m.name).join(', ');
  const rest = labels.filter((_, i) => stats[i].checked > 0 && stats[i].rest >= AGREEING_SHARE * stats[i].checked);
  // (Three sums of a few small whole numbers agree by chance: a total of parts needs five checks or more.)
  const partsAgree = partsStats.checked >= MIN_PART_CHECKS && partsStats.agree >= AGREEING_SHARE * partsStats.checked;
  const partLabels = partsAgree ? labels.filter((l, i) => !rest.includes(l) && stats[i].checked > 0) : [];
  const bounded = labels.filter((l, i) => !rest.includes(l) && !partLabels.includes(l) && stats[i].checked > 0 && stats[i].bounded >= 0.95 * stats[i].checked && stats[i].groups >= 3);
  const quoted = (ls: string[]) => ls.map((l) => `'${l}'`).join(', ');
  const why: string[] = [];
  if (rest.length > 0) why.push(`${quoted(rest)}: ${measureWords} equal the sum of the other rows ${where} (${rest.map((l) => groupsOf(labels.indexOf(l))).join(', ')}, within ${RELATIVE_TOLERANCE * 100}%)`);
  if (partLabels.length > 0) why.push(`${quoted(partLabels)} together: ${measureWords} equal the sum of the other rows ${where} (${partsStats.agree} of ${partsStats.checked} checks), each a total of a part of them`);
  if (bounded.length > 0) why.push(`${quoted(bounded)}: ${measureWords} at least every other row's and at most their sum ${where} (${bounded.map((l) => groupsOf(labels.indexOf(l))).join(', ')}), a total of some of them`);
  const values = labels.filter((l) => rest.includes(l) || partLabels.includes(l) || bounded.includes(l));
  if (values.length === 0) return { checked };
  const evidence: TotalRows['evidence'] = rest.length > 0 ? 'sum-of-rest' : partLabels.length > 0 ? 'sum-of-parts' : 'largest';
  return { checked, verdict: { values, evidence, confidence: bounded.length > 0 ? 0.6 : 0.9, why: why.join('; ') } };
}

const EVIDENCE_ORDER: Array<TotalRows['evidence']> = ['sum-of-rest', 'sum-of-parts', 'largest', 'group-of-places', 'word'];

/**
 * Total rows of one dimension column, or undefined. Each grouping is tried, finest first, for the labels not yet
 * borne out: a store's total sums its store's rows, the grand total all detail rows once the store totals are set apart.
 */
function totalRowsOf(db: Database, table: TableProfile, column: Column, semantics: readonly ColumnSemantics[], firstDistinct?: FirstDistinct): TotalRows | undefined {
  const distinct = distinctOf(db, table, column, firstDistinct);
  const labels = totalLabels(distinct);
  // Groups of countries among countries (OWID's `Africa`, `EU-27`, `High-income countries` beside `France`): summed
  // or ranked with the countries they hold, they count them twice.
  // (Not in a table of records each with its own key, where a place repeats: the World Bank's projects, one per
  // `id`, whose country is 'Africa' or 'World' for a project of several countries. A regional project is one record,
  // not the sum of the others.)
  const records = table.columns.some((c) => c !== column && c.candidateKey && roleOf(semantics, c.name) === 'identifier') && column.distinctCount < table.rowCount / 2;
  const groups = roleOf(semantics, column.name) === 'geo' && !records ? groupsOfPlaces(distinct) : [];
  if (labels.length === 0 && groups.length === 0) return undefined;
  // Amounts that add up across the rows of one group: additive measures, and levels (a population), summed at one time.
  const summable = (c: Column) => (c.type === 'integer' || c.type === 'real') && c !== column && roleOf(semantics, c.name) === 'measure' && c.nullFraction < 0.9 && ['additive', 'semi-additive'].includes(semantics.find((s) => s.column === c.name)?.additivity?.value ?? '');
  const measures = table.columns.filter(summable).slice(0, MAX_MEASURES);
  const keys = table.columns.filter((c) => c !== column && c.type !== 'real' && c.distinctCount >= 2 && c.distinctCount < table.rowCount && KEY_ROLES.has(roleOf(semantics, c.name)) && !determinedBy(db, table, column, c));
  const verdicts: Verdict[] = [];
  const found: string[] = [];
  const checked = new Set<string>();
  const used: string[] = [];
  if (measures.length > 0) {
    for (const grouping of groupingsToTry(keys)) {
      const remaining = labels.filter((l) => !found.includes(l));
      if (remaining.length === 0) break;
      const result = check(db, table, column, remaining, found, measures, grouping);
      for (const l of result.checked) checked.add(l);
      if (!result.verdict) continue;
      verdicts.push(result.verdict);
      found.push(...result.verdict.values);
      for (const g of grouping) if (!used.includes(g.name)) used.push(g.name);
    }
  }
  // Labels nothing could be checked against: the word alone, in a short dimension, with less confidence — where the
  // table has numbers a total could hold. In a table of categories alone (a language's `person_allowed`: 1, 2, 3,
  // `all`), `all` is one of the answers, not a total of the other rows.
  const numbers = table.columns.some((c) => c !== column && (c.type === 'integer' || c.type === 'real') && roleOf(semantics, c.name) === 'measure');
  // (Nor in a table of records each with its own key: a trial registry's `gender` 'All' is a trial open to all, one
  // record like the others, not the sum of them.)
  const short = numbers && !records && column.distinctCount <= 50 && ['dimension', 'geo', 'ordinal'].includes(roleOf(semantics, column.name));
  // (…and so is the word where the other rows' figures have gaps, counts an office suppressed (`x`): the total holds
  // them, the rows beside it do not, and no sum can agree.)
  const suppressed = measures.some((m) => m.nullFraction > 0);
  const bare = short ? labels.filter((l) => (!checked.has(l) || suppressed) && !found.includes(l) && BARE_TOTAL.test(l.trim())) : [];
  if (bare.length > 0) {
    const reason = measures.length === 0 ? 'no additive measure to check them against' : suppressed && bare.some((l) => checked.has(l)) ? 'the other rows have empty or suppressed figures, so no sum can agree' : 'no group where they stand beside two other rows with values';
    verdicts.push({ values: bare, evidence: 'word', confidence: 0.4, why: `${bare.map((l) => `'${l}'`).join(', ')} read as totals by the word alone (${reason})` });
    found.push(...bare);
  }
  const groupsLeft = groups.filter((l) => !found.includes(l));
  if (groupsLeft.length > 0) {
    verdicts.push({ values: groupsLeft, evidence: 'group-of-places', confidence: 0.7, why: `${groupsLeft.slice(0, 6).map((l) => `'${l}'`).join(', ')}${groupsLeft.length > 6 ? ` and ${groupsLeft.length - 6} more` : ''} name groups of countries, among the countries of ${column.name}` });
    found.push(...groupsLeft);
    labels.push(...groupsLeft.filter((l) => !labels.includes(l)));
  }
  if (verdicts.length === 0) return undefined;
  const values = labels.filter((l) => found.includes(l));
  const count = Number(rows(db, `SELECT COUNT(*) FROM ${q(table.name)} WHERE ${q(column.name)} IN (${values.map((v) => sqlLiteral(v)).join(', ')})`)?.[0]?.[0] ?? 0);
  const evidence = EVIDENCE_ORDER.find((e) => verdicts.some((v) => v.evidence === e))!;
  return { table: table.name, column: column.name, values, rows: count, evidence, confidence: Math.min(...verdicts.map((v) => v.confidence)), grouping: used, why: `${column.name} ${verdicts.map((v) => v.why).join('; ')}` };
}

/** The name of a group of countries: a continent or the world, a union or club of states, an income group, a region less some countries. */
export const GROUP_OF_PLACES = /^(world|africa|asia|europe|oceania|north america|south america|latin america( (and|&) the caribbean)?|middle east( (and|&) north africa)?|sub-saharan africa|central asia|east asia( (and|&) pacific)?|south asia|european union( \(\d+\))?|eu-?\d{2}|euro area|oecd( members)?|non-oecd|g7|g20|opec|(high|low|lower-middle|upper-middle|middle)[- ]income( countries)?|least developed countries|international transport|.+ \(excl\.? [^)]+\))$/i;

/**
 * Values of a place column that mostly holds country names (at least half of its distinct values) that name groups
 * of countries rather than one. (findTotalRows reads only columns of at most MAX_DISTINCT values.)
 */
function groupsOfPlaces(distinct: readonly unknown[]): string[] {
  const values = distinct.filter((v): v is string => typeof v === 'string');
  // (Names written in camel case, the Federal Reserve's `SaudiArabia`, `EuroArea`, read word by word.)
  const spaced = (v: string) => v.trim().replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const countries = values.filter((v) => COUNTRY_NAMES.has(v.trim().toLowerCase()) || COUNTRY_NAMES.has(spaced(v))).length;
  if (values.length < 10 || countries < 0.5 * values.length) return [];
  // (The lexicon's country names count `World` among them, as files of countries list it.)
  // (…and a region's total run into one word among them, `EurTotal`, `ForeignAll`, `FOI_All_Countries`, is a group too.)
  return values.filter((v) => ((GROUP_OF_PLACES.test(v.trim()) || GROUP_OF_PLACES.test(spaced(v))) && (!COUNTRY_NAMES.has(v.trim().toLowerCase()) || /^world$/i.test(v.trim()))) || GLUED_TOTAL.test(v.trim()) || BARE_TOTAL.test(v.trim()));
}

/**
 * Share of a category's empty rows whose measures must each equal one category's sum at their time. Lower than for
 * labelled totals: the condition (an exact, non-zero sum of one class) hardly holds by chance, and a release that
 * repeats some periods' rows (OIA's 12-month rows beside the 6-month ones) leaves a few sums doubled.
 */
const SUBTOTAL_SHARE = 0.6;

/** Cells that say a category is not known: the class a subtotal row leaves empty. */
const UNCLASSED = ['NA', 'N/A', 'n/a', 'na', '-', ''];

/**
 * Subtotal rows by another category (New Zealand's OIA statistics: a row per sector, `agency` 'Public Service', its
 * `agency_type` 'NA' and `org_id` 0, beside the agencies of each sector): rows whose category column is empty or 'NA'
 * while the rest have one, each of whose measures equals the sum of one category's rows at its time — with no word of
 * 'total' in their labels. Summed or ranked with the agencies, they count each sector twice. Their labels are the
 * label column's values on those rows that no classed row carries.
 */
function subtotalRowsOf(db: Database, table: TableProfile, label: Column, semantics: readonly ColumnSemantics[]): TotalRows | undefined {
  const unclassed = `(${UNCLASSED.map((v) => sqlLiteral(v)).join(', ')})`;
  const summable = (c: Column) => (c.type === 'integer' || c.type === 'real') && roleOf(semantics, c.name) === 'measure' && c.nullFraction < 0.5 && ['additive', 'semi-additive'].includes(semantics.find((s) => s.column === c.name)?.additivity?.value ?? '');
  const measures = table.columns.filter(summable).slice(0, 2);
  if (measures.length === 0) return undefined;
  const times = table.columns.filter((c) => roleOf(semantics, c.name) === 'time' && c.distinctCount >= 2).slice(0, 1);
  for (const category of table.columns) {
    if (category === label || category.type !== 'text' || category.distinctCount < 3 || category.distinctCount > 50 || !['dimension', 'ordinal'].includes(roleOf(semantics, category.name))) continue;
    const cat = q(category.name);
    const counted = rows(db, `SELECT COUNT(*) FROM ${q(table.name)} WHERE ${cat} IS NULL OR TRIM(${cat}) IN ${unclassed}`);
    const candidates = Number(counted?.[0]?.[0] ?? 0);
    if (candidates < 2 || candidates > 0.25 * table.rowCount) continue;
    const on = times.map((t) => `s.${q(t.name)} IS u.${q(t.name)}`).join(' AND ');
    let agreeing = true;
    for (const measure of measures) {
      const m = q(measure.name);
      const groupBy = [cat, ...times.map((t) => q(t.name))].join(', ');
      const result = rows(
        db,
        `WITH u AS (SELECT ${[m, ...times.map((t) => q(t.name))].join(', ')} FROM ${q(table.name)} WHERE (${cat} IS NULL OR TRIM(${cat}) IN ${unclassed}) AND ${m} IS NOT NULL AND ${m} <> 0),
              s AS (SELECT ${groupBy}, SUM(${m}) AS total FROM ${q(table.name)} WHERE ${cat} IS NOT NULL AND TRIM(${cat}) NOT IN ${unclassed} GROUP BY ${groupBy})
         SELECT COUNT(*), SUM(EXISTS (SELECT 1 FROM s WHERE ${on ? `${on} AND ` : ''}ABS(s.total - u.${m}) <= ${RELATIVE_TOLERANCE} * ABS(u.${m}))) FROM u`,
      );
      const total = Number(result?.[0]?.[0] ?? 0);
      const matched = Number(result?.[0]?.[1] ?? 0);
      if (total < 3 || matched < SUBTOTAL_SHARE * total) {
        agreeing = false;
        break;
      }
    }
    if (!agreeing) continue;
    // Rows whose category says 'NA' (not left empty) are named by that mark: "leave out the rows whose agency type is 'NA'".
    const marks = rows(db, `SELECT ${cat}, COUNT(*) FROM ${q(table.name)} WHERE TRIM(${cat}) IN ${unclassed} AND TRIM(${cat}) <> '' GROUP BY 1 ORDER BY 2 DESC`) ?? [];
    const marked = marks.length === 1 && typeof marks[0][0] === 'string' && Number(marks[0][1]) >= 0.9 * candidates ? { value: marks[0][0], rows: Number(marks[0][1]) } : undefined;
    const mark = marked?.value;
    const why = (named: string) => `${named} leave${named.includes(',') || named.includes(' and ') ? '' : 's'} ${category.name} empty or 'NA', and each of their ${measures.map((c) => c.name).join(' and ')} equals the sum of one ${category.name}'s rows${times.length > 0 ? ` at its ${times[0].name}` : ''}: subtotals by ${category.name}`;
    if (mark) return { table: table.name, column: category.name, values: [mark], rows: marked!.rows, evidence: 'sum-of-parts', confidence: 0.7, grouping: times.map((t) => t.name), why: why(`the rows of ${category.name} '${mark}'`) };
    const labelled = rows(db, `SELECT DISTINCT ${q(label.name)} FROM ${q(table.name)} WHERE (${cat} IS NULL OR TRIM(${cat}) IN ${unclassed}) AND ${q(label.name)} IS NOT NULL AND ${q(label.name)} NOT IN (SELECT ${q(label.name)} FROM ${q(table.name)} WHERE ${cat} IS NOT NULL AND TRIM(${cat}) NOT IN ${unclassed} AND ${q(label.name)} IS NOT NULL) LIMIT ${MAX_LABELS + 1}`);
    const values = (labelled ?? []).map((r) => String(r[0]));
    if (values.length === 0 || values.length > MAX_LABELS) continue;
    const count = Number(rows(db, `SELECT COUNT(*) FROM ${q(table.name)} WHERE ${q(label.name)} IN (${values.map((v) => sqlLiteral(v)).join(', ')})`)?.[0]?.[0] ?? 0);
    return {
      table: table.name,
      column: label.name,
      values,
      rows: count,
      evidence: 'sum-of-parts',
      confidence: 0.7,
      grouping: times.map((t) => t.name),
      why: why(`${label.name} ${values.slice(0, 4).map((v) => `'${v}'`).join(', ')}${values.length > 4 ? ` and ${values.length - 4} more` : ''}`),
    };
  }
  return undefined;
}

/** Levels of a geography (a `geography_type`'s `Country`, `Nation`, `Region`, `LEPplus`). */
const GEOGRAPHY_LEVEL = /^(country|countries|nation|nations|national|region|regions|regional|state|states|province|provinces|county|counties|district|districts|city|cities|municipality|municipalities|local authority|local authorities|lad|la|lep|lepplus|lep plus|ward|wards|msoa|lsoa|combined authority|metro|msa|cbsa|nuts ?[0-3]|uk|total|all)$/i;
/** A column that says which level a row's area is at: `geography_type`, `geo_level`, `area_type`, `level`. */
const LEVEL_COLUMN = /(^|_)(type|level|tier|kind)$/i;

/**
 * Areas of several levels stacked in one table (Burning Glass's occupations by `geography_type` Country, Nation,
 * Region and LEPplus, each level's areas covering the same ground): summed, averaged or ranked together, each place
 * counts once per level. The rows are kept at the level most rows are at; the others are left out.
 */
function stackedLevels(db: Database, table: TableProfile, semantics: readonly ColumnSemantics[]): TotalRows | undefined {
  for (const column of table.columns) {
    if (column.type !== 'text' || !LEVEL_COLUMN.test(column.name) || column.distinctCount < 2 || column.distinctCount > 8 || !['dimension', 'ordinal', 'geo'].includes(roleOf(semantics, column.name))) continue;
    const levels = (rows(db, `SELECT ${q(column.name)}, COUNT(*) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`) ?? []).map((r) => ({ value: String(r[0]), rows: Number(r[1]) }));
    if (levels.length < 2 || !levels.every((l) => GEOGRAPHY_LEVEL.test(l.value.trim()))) continue;
    // The areas themselves: a place column beside, whose values differ from level to level.
    // (Named so, or shown or described so: HSE's `label2` under "Usual country and region of residence".)
    const described = (c: Column) => semantics.find((s) => s.column === c.name)?.description?.value ?? '';
    const place = table.columns.find((c) => c !== column && c.type === 'text' && c.distinctCount > levels.length && ['geo', 'dimension'].includes(roleOf(semantics, c.name)) && (/(^|_)(name|area|geography|region|place|location)(_|$)/i.test(c.name) || /\b(area|country|region|place|location|geography)\b/i.test(described(c))));
    if (!place) continue;
    const [kept, ...others] = levels;
    const values = others.map((l) => l.value);
    return {
      table: table.name,
      column: column.name,
      values,
      rows: others.reduce((n, l) => n + l.rows, 0),
      evidence: 'other-levels',
      keep: kept.value,
      levels: 'areas',
      confidence: 0.6,
      grouping: [],
      why: `${column.name} stacks areas of ${levels.length} levels (${levels.map((l) => `'${l.value}' ${l.rows}`).join(', ')}) in ${place.name}: they overlap, so the rows are kept at '${kept.value}', the level most rows are at`,
    };
  }
  return undefined;
}

/**
 * Levels of a classification stacked in one table (BLS's occupations by `O_GROUP`: the total, 22 major groups, 94
 * minor, 455 broad and 831 detailed occupations), found by what they add up to: an additive measure (or a level, added across
 * entities) whose sum is the same at every level (151.85 million jobs at each, within rounding). Each job counts once per level, so the rows
 * are kept at the level with the most rows (the finest); the others are left out.
 */
function hierarchyLevels(db: Database, table: TableProfile, semantics: readonly ColumnSemantics[]): TotalRows | undefined {
  const additive = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real' || semantics.find((s) => s.column === c.name)?.role.value === 'measure') && ['additive', 'semi-additive'].includes(semantics.find((s) => s.column === c.name)?.additivity?.value ?? ''));
  if (additive.length === 0) return undefined;
  for (const column of table.columns) {
    if (column.type !== 'text' || column.distinctCount < 3 || column.distinctCount > 8 || column.nullFraction > 0 || !['dimension', 'ordinal'].includes(roleOf(semantics, column.name))) continue;
    for (const measure of additive) {
      const m = `CAST(${q(measure.name)} AS REAL)`;
      const sums = (rows(db, `SELECT ${q(column.name)}, COUNT(*), SUM(${m}) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`) ?? []).map((r) => ({ value: String(r[0]), rows: Number(r[1]), sum: Number(r[2]) }));
      if (sums.length < 3 || sums.some((x) => !Number.isFinite(x.sum) || x.sum <= 0)) continue;
      const top = Math.max(...sums.map((x) => x.sum));
      // Every level sums to the same, within rounding (0.1%), and the levels are unequal in rows: a hierarchy.
      if (!sums.every((x) => Math.abs(x.sum - top) <= 0.001 * top) || new Set(sums.map((x) => x.rows)).size < 3) continue;
      const [kept, ...others] = sums;
      return {
        table: table.name,
        column: column.name,
        values: others.map((l) => l.value),
        rows: others.reduce((n, l) => n + l.rows, 0),
        evidence: 'other-levels',
        keep: kept.value,
        levels: 'classes',
        confidence: 0.7,
        grouping: [],
        why: `${column.name} stacks ${sums.length} levels of one classification (${sums.map((l) => `'${l.value}' ${l.rows}`).join(', ')}): ${measure.name} sums to ${Math.round(top)} at each, so the rows are kept at '${kept.value}', the level most rows are at`,
      };
    }
  }
  return undefined;
}

/** A label for what no entity of its column holds: `Unallocated`, `Not allocated`, `Unattributed`. */
const UNALLOCATED = /^(unallocated|not allocated|unattributed|not attributed)\b/i;

/**
 * Rows of what no entity holds (BEIS's local authority 'Unallocated', three rows beside 400 authorities): summed with
 * the entities they are part of the whole, but ranked, averaged or counted as one of them they are no entity. Read
 * only in a column of many entities (10 or more).
 */
function unallocatedRowsOf(db: Database, table: TableProfile, column: Column, firstDistinct?: FirstDistinct): TotalRows | undefined {
  if (column.distinctCount < 10) return undefined;
  const values = distinctOf(db, table, column, firstDistinct).filter((v): v is string => typeof v === 'string' && UNALLOCATED.test(v.trim()));
  if (values.length === 0) return undefined;
  const count = Number(rows(db, `SELECT COUNT(*) FROM ${q(table.name)} WHERE ${q(column.name)} IN (${values.map((v) => sqlLiteral(v)).join(', ')})`)?.[0]?.[0] ?? 0);
  return { table: table.name, column: column.name, values, rows: count, evidence: 'unallocated', confidence: 0.6, grouping: [], why: `${column.name} ${values.map((v) => `'${v}'`).join(', ')}: what no ${column.name} holds, no entity of the column` };
}

/** The total rows of each table: per text dimension, the labels that read as totals and that the data bears out. */
export function findTotalRows(db: Database, tables: readonly TableProfile[], semanticsOf: (table: string) => readonly ColumnSemantics[], firstDistinct?: FirstDistinct): TotalRows[] {
  const found: TotalRows[] = [];
  for (const table of tables) {
    if (table.rowCount < 3) continue;
    const semantics = semanticsOf(table.name);
    const levels = stackedLevels(db, table, semantics) ?? hierarchyLevels(db, table, semantics);
    if (levels) found.push(levels);
    for (const column of table.columns) {
      if (column.type !== 'text' || column.distinctCount < 2 || column.distinctCount > MAX_DISTINCT || column.nullFraction >= 0.9 || !DIMENSION_ROLES.has(roleOf(semantics, column.name))) continue;
      // (One column of labels per table for its subtotals: the first that names them, not a second column's 'NA'.)
      const subtotalsFound = found.some((f) => f.table === table.name && f.why.includes(': subtotals by '));
      const totals = totalRowsOf(db, table, column, semantics, firstDistinct) ?? (column.distinctCount >= 10 && !subtotalsFound ? subtotalRowsOf(db, table, column, semantics) : undefined);
      if (totals) found.push(totals);
      // (In the column of the entities, not in their codes: `local_authority` 'Unallocated', not `code` 'Unallocated Scotland'.)
      const unallocated = ['geo', 'dimension'].includes(roleOf(semantics, column.name)) ? unallocatedRowsOf(db, table, column, firstDistinct) : undefined;
      if (unallocated) found.push(unallocated);
    }
  }
  return found;
}
