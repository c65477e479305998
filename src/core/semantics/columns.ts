/**
 * Column semantics by ordered rules, first match wins (Metabase's classifiers work the same way): each rule reads
 * the column's name, its profile, a fingerprint of its values, what the schema declares and what a data dictionary
 * says, and returns a role with the rule's id, a confidence and the evidence in words. Additivity, the default
 * aggregation, the unit and the time reading follow from the role.
 */
import type { ColumnProfile, TableProfile } from '../env/types';
import { ColumnTypeTracker, isoDateText } from '../env/typeInference';
import {
  ABBREVIATION_WORDS,
  ADDITIVE_WORDS,
  FORMULA_ANALYTES,
  BIBTEX_FIELDS,
  BIBTEX_MARKERS,
  MONTH_NAMES,
  MONTH_TOKEN,
  totalSoFarAt,
  PERIOD_FLOW_WORDS,
  CLASSIFICATION_CODE,
  BINARY_WORDS,
  CODE_WORDS,
  COUNTRY_CODES,
  AMOUNT_UNITS,
  unitPair,
  COUNT_WORDS,
  PER_UNITS,
  DIMENSION_WORDS,
  DURATION_WORDS,
  FLOW_WORDS,
  FLAG_PREFIXES,
  FLAG_WORDS,
  GEO_WORDS,
  IDENTIFIER_WORDS,
  MONEY_WORDS,
  NON_ADDITIVE_WORDS,
  HEAD_NON_ADDITIVE_WORDS,
  ORDINAL_WORDS,
  PERSON_ROLE_WORDS,
  SPATIAL_DIMENSION_WORDS,
  QUANTILE_BIN_WORDS,
  PERSON_NAME_WORDS,
  RATE_UNIT_WORDS,
  SEMI_ADDITIVE_WORDS,
  STRUCTURED_WORDS,
  TEMPERATURE_WORDS,
  TEXT_WORDS,
  TOTAL_LABEL,
  TIME_SUFFIXES,
  TIME_WORDS,
  UNIT_WORDS,
  US_STATE_CODES,
  GENERIC_MEASURE_NAMES,
  ITEM_CODE,
  flowCaption,
  hasAny,
  nameTokens,
  nonAdditiveMorpheme,
  translationLanguage,
  spanOfTime,
  textTokens,
  gluedIdNoun,
} from './lexicon';
import { normalName } from './dictionary';
import type { Additivity, Aggregation, CardinalityBand, ColumnRole, ColumnSemantics, DictionaryEntry, Fact, GeoKind, IdentifierKind, StructuredKind, TimeInfo, Unit } from './types';
import { ISO_6709_POINT, isCompactDateTime, isCompactDay, isMissingText, isNumericText, reorderedListSeparator, UNKNOWN_ANSWERS, type ValueFingerprint } from './values';
import { grainOfShape, type DateShape } from './grain';

/** Everything the rules may read about one column. */
export interface ColumnEvidence {
  table: TableProfile;
  column: ColumnProfile;
  fingerprint: ValueFingerprint;
  /** The column is (part of) the primary key the database declares. */
  declaredKey: boolean;
  /** The column refers to another table's key (declared, or found by values). */
  foreignKey: boolean;
  /** Another table's column refers to this one. */
  referenced: boolean;
  /** The table is a small list other tables refer to (a lookup of categories). */
  lookupTable: boolean;
  dictionary?: DictionaryEntry;
  /** Date columns: the shape of all their ISO-written values (read by SQL over the whole column). */
  dateShape?: DateShape;
  /** Text columns whose sample holds placeholders for missing values (`NA`): how many rows and distinct placeholders the whole column has. */
  missingRows?: { rows: number; distinct: number };
  /** Whether a name (in lower case) names a column of another of the environment's tables. */
  otherColumn?: (name: string) => boolean;
  /** The key column of this column's own table whose values it holds (`county_la` naming other rows' `local_authority_code`). */
  selfReference?: string;
  /** How many of the table's columns join items with a bare pipe in their sampled cells (see pipeJoined). */
  pipeListColumns?: number;
  /** The child table the loader made of this JSON key's arrays (`linkedEvents` → `…_linked_events`): the column is the array. */
  arrayTable?: string;
  /** Text columns of at most 30 values: all of them, where a sample may show two (a scale's rarer steps). */
  allValues?: unknown[];
  /** The column of a partition's union view that holds each file's value (`sensor` 5331 of `…_sensor_5331.csv`): the files' key. */
  partitionKey?: { key: string; files: number };
  /** Text columns of the same name in the environment's other tables: their rows, distinct values and sampled values. */
  namesakes?: Array<{ table: string; rows: number; distinct: number; samples: readonly unknown[] }>;
  /** A sparse column set on every row of one kind of record and on no other (`qtype` where `_path` is `dns`): the kind. */
  recordKind?: { column: string; value: string };
}

interface RoleDecision {
  role: ColumnRole;
  rule: string;
  confidence: number;
  why: string;
  identifier?: IdentifierKind;
  geo?: GeoKind;
  structured?: StructuredKind;
  time?: TimeInfo;
}

type Rule = (e: ColumnEvidence, names: Names) => RoleDecision | undefined;

interface Names {
  /** Tokens of the column name. */
  tokens: string[];
  /** Tokens of the dictionary description, when there is one. */
  described: string[];
  last: string | undefined;
}

/** Count words that say what a level is measured in (`capacity_units`, `stock_qty`), not that it is a count of events. */
const MEASURED_IN = new Set(['number', 'num', 'units', 'qty', 'quantity', 'quantities']);

/** Words that make a count something else (an average of votes, a share of cases). */
/** Places and units a sampling is done at, numbered: a station, a site, a plot, a well, a trap. */
const SAMPLING_UNITS = new Set(['station', 'estacio', 'estacion', 'site', 'well', 'trap', 'transect', 'quadrat', 'gauge', 'tank', 'pond', 'cage', 'pen', 'hive', 'beehive', 'borehole']);
/** Occasions numbered in order: the first bout, the second visit, the third replicate. */
/** What a lab keeps samples in, numbered: a tray, a plate, a rack, a batch. */
const LAB_BATCH_WORDS = new Set(['tray', 'plate', 'rack', 'batch', 'shelf', 'incubator']);
const OCCASION_WORDS = new Set(['bout', 'visit', 'wave', 'replicate', 'rep', 'trial', 'attempt', 'lap', 'occasion', 'iteration', 'session', 'sweep', 'haul']);

/** Words that make a figure of what follows (its smoothed, predicted, observed, upper or lower value): never said of a key. */
const ESTIMATE_WORDS = new Set(['smoothed', 'predicted', 'forecast', 'forecasted', 'observed', 'estimated', 'projected', 'high', 'low', 'upper', 'lower']);
const STATISTIC_WORDS = new Set(['avg', 'average', 'mean', 'median', 'per', 'rate', 'pct', 'percent', 'percentage', 'share', 'ratio', 'max', 'min', 'maximum', 'minimum', 'std', 'distinct', 'unique']);

const KNOWN_WORDS = new Set([...ADDITIVE_WORDS, ...SEMI_ADDITIVE_WORDS, ...NON_ADDITIVE_WORDS, ...HEAD_NON_ADDITIVE_WORDS, ...TIME_WORDS, ...COUNT_WORDS]);

const isNumber = (c: ColumnProfile) => c.type === 'integer' || c.type === 'real';
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));

function band(distinct: number): CardinalityBand {
  return distinct <= 12 ? 'ideal' : distinct <= 50 ? 'usable' : 'high';
}

// ---- time -----------------------------------------------------------------------------------------------------

/**
 * The grain of ISO dates: from the whole column's shape when it was read (a constant time of day is a day; dates on
 * one day of the month spaced 1, 3 or 12 months apart are months, quarters, years), else from the sample: every
 * value on the 1st of January is a year, on the 1st a month.
 */
function isoGrain(column: ColumnProfile, samples: readonly unknown[], shape?: DateShape): TimeInfo['grain'] {
  const whole = shape ? grainOfShape(shape) : undefined;
  // Dates named as the week they open or close (`Week commencing`, `week_ending`), one week after another: weeks,
  // though the day the weeks start on changed once (NHS England's snapshots: Fridays, then Mondays).
  const weekName = /^(week|wk)$/.test(nameTokens(column.originalName || column.name)[0] ?? '') && nameTokens(column.originalName || column.name).some((t) => /^(commencing|beginning|starting|start|ending|end|of)$/.test(t));
  if (whole === 'day' && weekName && shape && shape.dates >= 4 && shape.spanDays !== undefined && shape.spanDays / 7 <= 1.5 * shape.dates && shape.spanDays / 7 >= 0.8 * (shape.dates - 1)) return 'week';
  const texts = samples.filter((v): v is string => typeof v === 'string');
  if (whole) return whole;
  if (column.type === 'datetime' && texts.some((t) => !/[T ]00:00(:00)?/.test(t))) return 'datetime';
  if (texts.length >= 3 && texts.every((t) => /^\d{4}-01-01/.test(t))) return 'year';
  if (texts.length >= 3 && texts.every((t) => /^\d{4}-\d{2}-01/.test(t))) return 'month';
  return 'day';
}

/** A description of a yes/no: what 1 and 0 (or yes and no) mean, or "whether …". */
const YES_NO_DESCRIPTION = /\(1\)\s*or\s*not\s*\(0\)|\b1\s*=\s*yes\b|\byes\s*\/\s*no\b|\b(1|0)\s*\/\s*(0|1)\b|\btrue\s*\/\s*false\b|^\s*(whether|indicat(es|ion|ing) (if|whether))\b/i;

/**
 * Numbers written with a letter before or after some of them (a tram stop's flag `32`, `D18`, `130A`): the numbers
 * a register gives things, not quantities.
 */
function numbersWithLetters(e: ColumnEvidence): boolean {
  const texts = presentTexts(e).map((v) => v.trim());
  if (e.column.type !== 'text' || texts.length < 5) return false;
  const shaped = texts.filter((v) => /^[A-Za-z]{0,2}\d{1,5}[A-Za-z]{0,2}$/.test(v));
  return shaped.length >= 0.9 * texts.length && shaped.some((v) => /[A-Za-z]/.test(v)) && shaped.some((v) => /^\d+$/.test(v));
}

/**
 * A year, a month and a day in Catalan, Spanish, French and Italian, as a column's whole name (`ANY`, `MES`, `DIA`,
 * `AÑO`, `Année`, `Mois`, `Jour`, `Mese`).
 */
const ROMANCE_DATE_PARTS: Record<string, 'year' | 'month' | 'day'> = { any: 'year', anyo: 'year', ano: 'year', mes: 'month', dia: 'day', annee: 'year', mois: 'month', jour: 'day', anno: 'year', mese: 'month', giorno: 'day' };

/** A street's name: words, then a kind of street (`Swanston St`, `Victoria Ave`, `Glenferrie Road`, `St Kilda Rd`). */
const STREET_NAME = /^[A-Z][A-Za-z.'-]*(\s+[A-Za-z.'-]+){0,4}\s+(st|street|rd|road|ave|avenue|pde|parade|hwy|highway|blvd|boulevard|dr|drive|ln|lane|cres|crescent|pl|place|tce|terrace|way|gr|grove|ct|court|cl|close|esp|esplanade|sq|square)\.?$/i;

/** A description that asks a yes/no question: "Can you register online?", "Is the site open?". */
const YES_NO_QUESTION = /^\s*(can|could|is|are|does|do|did|has|have|was|were|will)\s[^?]{3,}\?\s*$/i;

/** The ISO date a number of days since 1970-01-01 falls on. */
const isoDay = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);

/** The letters a date's layout names its year, month and day by, in the languages that write them so. */
const LAYOUT_LETTERS: ReadonlyArray<readonly [string, string, string]> = [['jj', 'mm', 'tt'], ['jjjj', 'mm', 'tt'], ['yy', 'mm', 'dd'], ['yyyy', 'mm', 'dd'], ['aa', 'mm', 'jj'], ['aaaa', 'mm', 'jj']];

/** Which part of a date a column named by a layout's letter is, where its table has all three (`JJ`, `MM`, `TT`). */
function layoutLetter(e: ColumnEvidence): 'year' | 'month' | 'day' | undefined {
  const own = (e.column.originalName || e.column.name).toLowerCase();
  const names = new Set(e.table.columns.map((c) => (c.originalName || c.name).toLowerCase()));
  const layout = LAYOUT_LETTERS.find((letters) => letters.includes(own) && letters.every((l) => names.has(l)));
  return layout ? (['year', 'month', 'day'] as const)[layout.indexOf(own)] : undefined;
}

/** A kind of place in a value's words: `Ishikawa Prefecture`, `Hidaka Region`, `Off the Coast of …`, `Toyama Bay`. */
const PLACE_WORD_VALUE = /\b(prefecture|province|region|county|district|coast|island|islands|peninsula|strait|sea|bay|ocean|gulf|oblast|canton|municipality|borough|parish|township|territory|arrondissement|voivodeship)\b/i;
/** …and in Chinese and Japanese writing, by a place's last characters: a prefecture (県, 府), a province (省), a region (地方), off a coast (沖), the sea near (近海), a bay (湾), a sound (灘), a peninsula (半島). */
const PLACE_SUFFIX_CJK = /(県|府|省|州|郡|地方|沖|近海|湾|灣|灘|半島|海峡|水道|付近|列島|諸島)/;

const placeWordValue = (v: string) => PLACE_WORD_VALUE.test(v) || PLACE_SUFFIX_CJK.test(v);

/** Short names of a date's and a time's parts, as a catalogue writes them in columns side by side. */
const SHORT_PARTS = { year: /^(year|yr|yyyy)$/, month: /^(mo|mon|month|mm)$/, day: /^(dy|da|dd|day)$/, hour: /^(hr|hh|hour)$/, minute: /^(mn|mi|min|minute)$/, second: /^(sec|ss|second)$/ };

/**
 * The part of a date or time a column holds under a short name (`Dy`, `Mn`, `Sec`), where the year's and the month's
 * parts are beside it (and the hour's, for a minute or a second), and its numbers fit the part: days 1–31, minutes
 * whole 0–59, seconds 0 to under 61.
 */
function shortDatePart(e: ColumnEvidence): 'day' | 'minute' | 'second' | undefined {
  const { column } = e;
  // (A part written with its zero, `01` … `31` as text, as ECCC's daily files write the day, is the same part.)
  const padded = column.type === 'text' ? presentTexts(e).map((v) => v.trim()) : [];
  const written = padded.length >= 5 && padded.every((v) => /^\d{1,2}$/.test(v)) ? padded.map(Number) : undefined;
  if ((!isNumber(column) || column.min === undefined) && !written) return undefined;
  const own = (column.originalName || column.name).trim().toLowerCase();
  const part = SHORT_PARTS.day.test(own) ? 'day' : SHORT_PARTS.minute.test(own) ? 'minute' : SHORT_PARTS.second.test(own) ? 'second' : undefined;
  if (!part) return undefined;
  const names = e.table.columns.filter((c) => c !== column).map((c) => (c.originalName || c.name).trim().toLowerCase());
  const has = (re: RegExp) => names.some((name) => re.test(name));
  if (!has(SHORT_PARTS.year) || !has(SHORT_PARTS.month) || (part !== 'day' && !has(SHORT_PARTS.hour))) return undefined;
  const min = written ? Math.min(...written) : num(column.min);
  const max = written ? Math.max(...written) : num(column.max);
  const whole = written !== undefined || column.type === 'integer' || wholeSteps(e);
  if (part === 'day') return whole && min >= 1 && max <= 31 ? part : undefined;
  if (part === 'minute') return whole && min >= 0 && max <= 59 ? part : undefined;
  return min >= 0 && max < 61 ? part : undefined;
}

/** A name-based time guess (`hr` is an hour, `day` a day of the month) yields to a dictionary that says otherwise. */
function describedAsTime(e: ColumnEvidence, n: Names): boolean {
  if (!e.dictionary) return true;
  const said = [...n.described, ...textTokens(e.dictionary.unit ?? '')];
  // A cohort is named by its year ("Challenge cohort: 2023, 2024, or 2025"), and so is whatever a codebook describes
  // by listing years.
  return said.length === 0 || hasAny(said, TIME_WORDS) !== undefined || said.some((t) => t === 'cohort' || t === 'cohorts' || /^(1[6-9]|20)\d\d$/.test(t));
}

/** Events a column may be named after, whose values say when they happened (`founded`, `birth`, `inaugurated`). */
const EVENT_WORDS = new Set(['issued', 'released', 'founded', 'founding', 'established', 'birth', 'born', 'death', 'died', 'canonization', 'canonisation', 'canonized', 'canonised', 'beatification', 'beatified', 'incorporated', 'inaugurated', 'inauguration', 'dissolved', 'built', 'constructed', 'commissioned', 'decommissioned', 'opened', 'baptism', 'baptized', 'married', 'ordained', 'consecrated']);

/**
 * A name that is an event (`founded`, `birth`, `year_built`, `death_date`): the event alone, or with a time word. A
 * quantity or a cause of it (`birth_weight`, `units_built`, `cause_of_death`) is not when it happened.
 */
function namedForEvent(n: Names, leaf?: readonly string[]): boolean {
  const words = (leaf ?? n.tokens).filter((t) => !TIME_WORDS.has(t));
  return words.length === 1 && EVENT_WORDS.has(words[0]) && (leaf ?? n.tokens).length <= 3;
}

/** The words of the last part of a nested record's path (`bibliography.author.birth` → `birth`); else every word. */
function leafTokens(e: ColumnEvidence): string[] {
  const name = e.column.originalName || e.column.name;
  return name.includes('.') ? nameTokens(name.slice(name.lastIndexOf('.') + 1)) : nameTokens(name);
}

/** Events whose day an application or a case records (`received`, `approved`), beside EVENT_WORDS: dates when written as `YYYYMMDD`. */
const COMPACT_DATE_EVENTS = new Set(['received', 'submitted', 'approved', 'filed', 'registered', 'granted', 'expired', 'closed', 'created', 'updated', 'modified', 'started', 'ended', 'completed', 'signed']);

/** The number column a `<figure>_flag` (`_qc`, `_qualifier`) of letter codes qualifies (`max_temp_flag` → `max_temp_c`). */
function qualifiedFigure(e: ColumnEvidence, n: Names): string | undefined {
  const { column } = e;
  if (column.type !== 'text' || n.tokens.length < 2 || !/^(flag|flags|qc|qualifier|qualifiers|qual)$/.test(n.last ?? '')) return undefined;
  const codes = [...new Set(presentTexts(e).map((v) => v.trim()))];
  if (codes.length === 0 || !codes.every((v) => /^[A-Z]{1,2}$/.test(v))) return undefined;
  // (A yes or a no in letters, `Y`/`N`, `T`/`F`, a cross, is a tick.)
  if (codes.every((v) => /^[YNX]$/.test(v)) || (codes.length === 2 && codes.includes('T') && codes.includes('F'))) return undefined;
  const stem = n.tokens.slice(0, -1);
  const figure = e.table.columns.find((c) => {
    if (c === column || !isNumber(c)) return false;
    const words = nameTokens(c.originalName || c.name);
    return words.length >= stem.length && stem.every((w, at) => words[at] === w);
  });
  return figure?.name;
}

/**
 * The BibTeX field a column is, in a table of references: a table with a title, an author or an editor, and at least
 * three of BibTeX's own fields (a journal, a publisher, pages, a volume…). Elsewhere these words mean other things.
 */
function bibliographicField(e: ColumnEvidence, n: Names): (typeof BIBTEX_FIELDS)[string] | undefined {
  if (n.tokens.length !== 1 || e.column.binary) return undefined;
  const field = Object.prototype.hasOwnProperty.call(BIBTEX_FIELDS, n.tokens[0]) ? BIBTEX_FIELDS[n.tokens[0]] : undefined;
  if (!field) return undefined;
  const names = new Set(e.table.columns.map((c) => nameTokens(c.originalName || c.name).join('')));
  if (!names.has('title') || !['author', 'authors', 'editor', 'editors'].some((w) => names.has(w))) return undefined;
  return [...names].filter((w) => BIBTEX_MARKERS.has(w)).length >= 3 ? field : undefined;
}

/** Words that mark a figure as doubtful (`…_questionable`): the rows it is set on are the doubtful ones. */
const DOUBT_WORDS = new Set(['questionable', 'suspect', 'suspicious', 'doubtful', 'unreliable']);

/**
 * A column of single letters set on at most a fifth of the rows, named as a doubt (`…_questionable`) or as a
 * number's copy of a figure beside it (`vehicle_passenger_car_miles_1`): what it marks, or undefined.
 */
function figureMark(e: ColumnEvidence, n: Names): string | undefined {
  const { column } = e;
  if (column.type !== 'text' || n.tokens.length < 2 || n.last === undefined) return undefined;
  const texts = presentTexts(e).map((v) => v.trim());
  const letters = new Set(texts);
  if (texts.length === 0 || letters.size > 3 || ![...letters].every((v) => /^[A-Z]$/.test(v))) return undefined;
  const rows = e.table.rowCount;
  const set = rows * (1 - column.nullFraction) * (texts.length / Math.max(1, ((e as EvidenceWithSample).sample ?? column.samples).filter((v) => v !== null).length));
  if (rows < 20 || set > 0.2 * rows) return undefined;
  if (DOUBT_WORDS.has(n.last)) return 'a mark of doubt on the figure it is named for';
  if (!/^\d$/.test(n.last)) return undefined;
  const stem = n.tokens.slice(0, -1).join('_');
  const figure = e.table.columns.find((c) => c !== column && isNumber(c) && nameTokens(c.originalName || c.name).join('_') === stem);
  return figure ? `a mark on ${figure.name}, whose name it repeats with a number` : undefined;
}

/** Two numbers in brackets, a comma or a semicolon between them: an interval (`(5.4, 8.3)`, `[12; 15]`). */
const INTERVAL_TEXT = /^[([]\s*-?\d+(?:\.\d+)?\s*[,;]\s*-?\d+(?:\.\d+)?\s*[)\]]$/;

/** A duration written with `h`, `'` and `''` (`94h 33' 14''`, `+ 01h 45' 04''`, `52'`, `00' 10''`). */
const RACE_TIME = /^[+-]?\s*(?:\d{1,3}h\s*)?(?:\d{1,2}'(?!')\s*)?(?:\d{1,2}(?:''|"))?$/;

/**
 * Durations as race results write them: at least nine in ten values (a `-` for the winner's gap aside) in hours,
 * minutes and seconds marked `h`, `'` and `''`, with a prime in most. What they are, or undefined.
 */
function raceTimes(e: ColumnEvidence, n: Names): string | undefined {
  // (A match's minute written so, `45'+2'`, is when something happened: `minute_label`.)
  if (e.column.type !== 'text' || n.tokens.some((t) => /^(minute|minutes|min|label)$/.test(t))) return undefined;
  const texts = presentTexts(e).map((v) => v.trim()).filter((v) => v !== '-' && v !== '');
  if (texts.length < 5) return undefined;
  const timed = texts.filter((v) => /\d/.test(v) && RACE_TIME.test(v));
  if (timed.length < 0.9 * texts.length || timed.filter((v) => v.includes("'")).length < 0.5 * timed.length) return undefined;
  return 'values are race times';
}

/** Nine in ten values are capitalised names without digits (`Paris`, `Champs-Élysées`, `Saint-Étienne`): names of places, where the column is named for one. */
function placeNames(e: ColumnEvidence): boolean {
  const texts = presentTexts(e).map((v) => v.trim()).filter((v) => v !== '');
  return texts.length >= 5 && texts.filter((v) => /^\p{Lu}[\p{L}'’. -]*$/u.test(v) && v.split(/\s+/).length <= 5).length >= 0.9 * texts.length;
}

/** A value made of `key=value` settings and `+flags` (PROJ's `+proj=longlat +ellps=WGS84 +no_defs`, `a=6378137`, `lat_1= lat_2=`). */
function keyValueSettings(value: string): boolean {
  const tokens = value.trim().split(/\s+/);
  return tokens.length > 0 && tokens.some((t) => t.includes('=')) && tokens.every((t) => /^\+?[A-Za-z_][\w.]*=[^\s=]*$/.test(t) || /^\+[A-Za-z_]\w*$/.test(t));
}

/** The other parts beside a part of a version number (`proj_major` beside `proj_minor` and `proj_patch`), or undefined. */
function versionPartOf(e: ColumnEvidence, n: Names): string | undefined {
  const parts = ['major', 'minor', 'patch', 'micro', 'build', 'revision'];
  if (!isNumber(e.column) || n.last === undefined || !parts.includes(n.last) || num(e.column.min) < 0) return undefined;
  const stem = n.tokens.slice(0, -1).join('_');
  const others = e.table.columns.filter((c) => {
    const t = nameTokens(c.originalName || c.name);
    return c !== e.column && isNumber(c) && t.slice(0, -1).join('_') === stem && parts.includes(t.at(-1) ?? '');
  });
  return others.length >= 1 && (n.last === 'major' || others.some((c) => /major$/i.test(c.originalName || c.name))) ? others.map((c) => c.name).join(' and ') : undefined;
}

/**
 * The codes a dictionary declares for a column, as UCI's attribute lists write them: "(numeric: 0 - none, 1 - primary
 * education (4th grade), 2 – 5th to 9th grade, …)" — three or more numbered levels; "(binary: "LE3" - less or equal
 * to 3 or "GT3" - greater than 3)" — bands that compare; "(binary: "U" - urban or "R" - rural)", "(nominal: …)" —
 * categories (a yes or a no is a flag's, not these).
 */
function declaredCodes(description: string): { kind: 'levels' | 'compared' | 'categories'; count: number; low: number; high: number; first: string } | undefined {
  const kind = /\b(binary|nominal|numeric|ordinal)\s*:\s*(.*)$/i.exec(description);
  if (!kind) return undefined;
  const body = kind[2];
  const declared = kind[1].toLowerCase();
  if (declared === 'numeric' || declared === 'ordinal') {
    const codes = [...body.matchAll(/(?:^|[,:]|\bor)\s*(\d{1,2})\s*[-–—]\s*\S/g)].map((m) => Number(m[1]));
    if (codes.length < 3 || codes.some((c, i) => i > 0 && c !== codes[i - 1] + 1)) return undefined;
    return { kind: 'levels', count: codes.length, low: codes[0], high: codes[codes.length - 1], first: body.split(',')[0].trim() };
  }
  if (/^\s*(yes|no|true|false)\b.*\b(yes|no|true|false)\b/i.test(body)) return undefined;
  const first = body.split(/\s+or\s+|,/)[0].trim();
  if (declared === 'binary' && /\b(less|greater|more|fewer|under|over|below|above)\b|[<>≤≥]/i.test(body)) return { kind: 'compared', count: 2, low: 0, high: 0, first };
  return { kind: 'categories', count: 0, low: 0, high: 0, first: `${declared} codes (${first})` };
}

/** A scale its dictionary anchors at both ends ("numeric: from 1 - very low to 5 - very high"): a rating. */
function describedRating(description: string | undefined): boolean {
  return description !== undefined && /\bfrom\s+\d{1,2}\s*[-–—]\s*[a-z][a-z ]*?\s+to\s+\d{1,2}\s*[-–—]\s*[a-z]/i.test(description);
}

/**
 * A questionnaire's item answered on a short scale (`c5_team_alignment` 1–7, `b3_nsm_defined` 1–5), beside at least two
 * more such items: a rating, averaged, whatever its words name (a team, a use).
 */
function ratedItem(e: ColumnEvidence): boolean {
  const onScale = (c: ColumnProfile) => ITEM_CODE.test(c.originalName || c.name) && c.type === 'integer' && c.min !== undefined && num(c.min) >= 0 && num(c.max) <= 10 && c.distinctCount <= 11;
  if (!onScale(e.column) || num(e.column.max) < 3) return false;
  const items = e.table.columns.filter(onScale);
  // (A form whose items name things in the plural, `q1_children`, `q2_cars`, counts them: how many, not how much agreed.)
  // (…and so does an item that names a number of things, `c06_rooms`, `c05_buildings_in_compound`, `g01_no_meals`.)
  const counts = (c: ColumnProfile) => nameTokens(ITEM_CODE.exec(c.originalName || c.name)![2]).some((w, at) => /(?<!s)s$|^(children|people|men|women)$/.test(w) || (at === 0 && /^(no|num|number|nr|n)$/.test(w)));
  return items.length >= 3 && !counts(e.column) && items.filter(counts).length < items.length / 3;
}

/** An adverb of frequency anywhere in an answer (`use_occasionally`, `Very often`). */
const FREQUENCY_ADVERBS = /(?:^|[ _-])(never|rarely|seldom|occasionally|sometimes|often|frequently|regularly|usually|always)(?:$|[ _-])/;

/** Flag words that are participles: a flag only as a name's head (`run_done`), not before another word (`hidden_size`). */
const PARTICIPLE_FLAGS = new Set(['done', 'removed', 'validated', 'completed', 'archived', 'hidden', 'published']);

/** Words that say which end of a span a time is (`tsStart`, `date_end`). */
const SPAN_ENDS = new Set(['start', 'end', 'begin', 'finish', 'stop', 'from', 'to', 'first', 'last']);

/** The word for a year in English and in the languages of official statistics (`Jahr`, `jaar`, `anno`). */
const YEAR_WORDS = new Set(['year', 'yr', 'fy', 'jahr', 'jaar', 'anno', 'anio', 'ano', 'annee']);
/** Names whose four-digit numbers are years too: YEAR_WORDS, and `years`, `season`, `period`, `vintage`. */
const YEAR_NAMES = new Set([...YEAR_WORDS, 'years', 'season', 'period', 'vintage']);

/**
 * A time of day written as a number of four digits (`1845`, `0300` kept as text, 930 for 09:30): a name with `time`
 * (or `hhmm`) and no duration word, twenty or more values of which 95% read as HHMM (hours 0–23, minutes 0–59;
 * a typo or two aside) and some are before 10:00. A race time in seconds fails the minutes test on a third of its
 * values; years (1935–1954) have no morning.
 */
function hhmmClock(e: ColumnEvidence, n: Names): boolean {
  if (!(n.tokens.includes('time') || n.tokens.includes('hhmm')) || hasAny(n.tokens, DURATION_WORDS) || n.tokens.some((t) => /^(elapsed|run|race|lap|response|travel|wait|waiting|total|avg|mean|air|flight|flying|taxi|transit|journey|trip|cook|cooking|prep|lead|cycle|down|hold|queue|service|turnaround)$/.test(t))) return false;
  if (e.column.distinctCount < 20) return false;
  const sample = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v) => v !== null && v !== undefined && v !== '');
  if (sample.length < 20) return false;
  const clock = sample.filter((v) => {
    const text = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
    if (!/^\d{1,4}$/.test(text)) return false;
    const value = Number(text);
    return Math.floor(value / 100) <= 23 && value % 100 <= 59;
  }).length;
  // Years (1800–2023) read as HHMM too: a day's times include the morning, before 10:00. Minutes (8–73) read as
  // HHMM only as the hour after midnight: a day's times reach past 01:00.
  const morning = sample.filter((v) => Number(v) < 1000).length;
  const pastOne = sample.filter((v) => Number(v) >= 100).length;
  return clock >= 0.95 * sample.length && morning >= 0.05 * sample.length && pastOne >= 0.2 * sample.length;
}

/** An indicator's code in the World Bank's style, upper-case parts joined by dots (`AG.LND.AGRI.K2`, `SL.TLF.TOTL.IN`). */
const INDICATOR_CODE = /^[A-Z]{2,3}(\.[A-Z0-9]{2,6}){2,5}$/;

/**
 * Numbers whose only other value is the column's own label, a sheet's second header row read as data (the World
 * Bank's codes over their names: `SL.AGR.EMPL.FE.ZS` over "Employment in agriculture, female (% of …)").
 */
function labelRepeated(e: ColumnEvidence): boolean {
  const label = e.dictionary?.description?.trim();
  if (!label) return false;
  const values = presentTexts(e).map((v) => v.trim());
  const numbers = values.filter((v) => /^[-+]?(\d[\d,]*)?\.?\d+(e[-+]?\d+)?$/i.test(v));
  return numbers.length >= 2 && values.every((v) => v === label || numbers.includes(v));
}

/** Words that say what happened at a time of day: a trap set, switched on, a reading recorded. */
const CLOCK_EVENT_WORDS = new Set(['start', 'end', 'begin', 'finish', 'stop', 'set', 'connected', 'disconnected', 'collected', 'collection', 'recording', 'recorded', 'arrival', 'departure', 'on', 'off', 'sunrise', 'sunset']);

/**
 * A time of day written as hours and minutes with a dot (`9.35`, `16.00`, `7`) or as whole hours (`6`, `18`), named
 * as the time something happened (`Time_start`, `T_end`, `Time_connected`): every value an hour 0–24 whose two
 * decimals, where written, are minutes 0–59. A time with no event word (`Time` 8–73, minutes spent) is a duration.
 */
function dottedClock(e: ColumnEvidence, n: Names): boolean {
  const timeWord = n.tokens.includes('time') || (n.tokens[0] === 't' && n.tokens.length === 2);
  if (!timeWord || !n.tokens.some((t) => CLOCK_EVENT_WORDS.has(t)) || hasAny(n.tokens, DURATION_WORDS)) return false;
  const sample = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v) => v !== null && v !== undefined && v !== '').map((v) => String(v).trim()).filter((v) => !/^(na|n\/a|nan|null|-)$/i.test(v));
  if (sample.length < 2) return false;
  return sample.every((v) => {
    const m = /^(\d{1,2})(?:[.:](\d{2}))?$/.exec(v);
    return m !== null && Number(m[1]) <= 24 && (m[2] === undefined || Number(m[2]) <= 59);
  });
}

const timeRules: Rule[] = [
  // A year, a month or a day of the month named in Catalan or Spanish (Barcelona's `ANY`, `MES`, `DIA`), whole numbers
  // in their ranges: the date's parts.
  (e, n) => {
    const { column } = e;
    const part = n.tokens.length === 1 ? ROMANCE_DATE_PARTS[n.tokens[0]] : undefined;
    if (!part || column.type !== 'integer') return undefined;
    const [min, max] = [num(column.min), num(column.max)];
    if (part === 'year' && min >= 1800 && max <= 2100) return { role: 'time', rule: 'time:date-part-name', confidence: 0.7, why: `named ${column.name} (year), whole numbers ${min}–${max}`, time: { storage: 'year', grain: 'year', layout: 'YYYY' } };
    if (part === 'month' && min >= 1 && max <= 12) return { role: 'time', rule: 'time:date-part-name', confidence: 0.7, why: `named ${column.name} (month), whole numbers ${min}–${max}`, time: { storage: 'month-number', grain: 'month-of-year' } };
    if (part === 'day' && min >= 1 && max <= 31) return { role: 'time', rule: 'time:date-part-name', confidence: 0.6, why: `named ${column.name} (day of the month), whole numbers ${min}–${max}`, time: { storage: 'day-number', grain: 'other' } };
    return undefined;
  },
  (e, n) => (dottedClock(e, n) ? { role: 'time', rule: 'time:dotted-clock', confidence: 0.65, why: `named ${e.column.name}, values are hours of the day, minutes after a dot (${e.column.samples.slice(0, 2).join(', ')}): a time of day`, time: { storage: 'text', grain: 'hour-of-day', layout: 'H.MM' } } : undefined),
  (e, n) => (hhmmClock(e, n) ? { role: 'time', rule: 'time:hhmm-clock', confidence: 0.75, why: `named ${e.column.name}, values read as HHMM (hours 0–23, minutes 0–59): a time of day`, time: { storage: 'text', grain: 'hour-of-day', layout: 'HHMM' } } : undefined),
  (e) => {
    const { column } = e;
    if (column.type !== 'date' && column.type !== 'datetime') return undefined;
    const grain = isoGrain(column, e.fingerprint.sampled > 0 ? (e as EvidenceWithSample).sample ?? column.samples : column.samples, e.dateShape);
    return {
      role: 'time',
      rule: 'time:date-values',
      confidence: 0.98,
      why: `every value is a ${column.type}${column.dateLayout ? ` (the file writes ${column.dateLayout})` : ''}`,
      time: { storage: column.type === 'date' ? 'iso-date' : 'iso-datetime', grain, layout: column.dateLayout, min: stringOf(column.min), max: stringOf(column.max) },
    };
  },
  // A day written as eight digits, `YYYYMMDD` (GTFS's `start_date` `20250901`, as text or as a number), under a date's
  // name: every value a real calendar day, so a date, not a code.
  (e, n) => {
    const { column } = e;
    // (…or, written as text, under an event's name, DataSF's `received` `20210315`: when the application came in.)
    const event = column.type === 'text' && n.tokens.length <= 2 && (namedForEvent(n) || COMPACT_DATE_EVENTS.has(n.last ?? ''));
    if ((column.type !== 'text' && column.type !== 'integer') || !(event || n.tokens.some((t) => t === 'date' || t === 'dates' || t === 'day' || t === 'dt'))) return undefined;
    const days = ((e as EvidenceWithSample).sample ?? column.samples).filter((v) => v !== null && v !== undefined && v !== '').map((v) => String(v).trim());
    if (days.length < (event ? 5 : 2) || !days.every(isCompactDay)) return undefined;
    const sorted = [...days].sort();
    const iso = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}`;
    return {
      role: 'time',
      rule: 'time:compact-dates',
      confidence: 0.85,
      why: `named ${column.name}, every value a calendar day written YYYYMMDD (${days[0]})`,
      time: { storage: 'text', grain: 'day', layout: 'YYYYMMDD', min: iso(sorted[0]), max: iso(sorted.at(-1)!), isoExpression: "substr({col}, 1, 4) || '-' || substr({col}, 5, 2) || '-' || substr({col}, 7, 2)" },
    };
  },
  // A moment written as fourteen digits, `YYYYMMDDHHMMSS` (JMA's report time `ctt` 20240103182109), every value a real
  // one, under a name that says no key (`eid`, the event's id written the same way, identifies).
  (e, n) => {
    const { column } = e;
    if ((column.type !== 'text' && column.type !== 'integer') || hasAny(n.tokens, IDENTIFIER_WORDS) || n.tokens.some((t) => /^(no|num|number|code|serial|seq)$/.test(t) || /id$/.test(t))) return undefined;
    const moments = ((e as EvidenceWithSample).sample ?? column.samples).filter((v) => v !== null && v !== undefined && v !== '').map((v) => String(v).trim());
    if (moments.length < 5 || !moments.every(isCompactDateTime)) return undefined;
    const sorted = [...moments].sort();
    const iso = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(8, 10)}:${v.slice(10, 12)}:${v.slice(12)}`;
    return {
      role: 'time',
      rule: 'time:compact-datetimes',
      confidence: 0.75,
      why: `every value a moment written YYYYMMDDHHMMSS (${moments[0]})`,
      time: { storage: 'text', grain: 'datetime', layout: 'YYYYMMDDHHMMSS', min: iso(sorted[0]), max: iso(sorted.at(-1)!), isoExpression: "substr({col}, 1, 4) || '-' || substr({col}, 5, 2) || '-' || substr({col}, 7, 2) || ' ' || substr({col}, 9, 2) || ':' || substr({col}, 11, 2) || ':' || substr({col}, 13, 2)" },
    };
  },
  // Seconds after midnight (transit data: GTFS's `start_time` 26400 = 07:20, `stop_arrival_seconds` beside the
  // `stop_arrival_dt` it writes as a number, `…_time_sam`, a dictionary's "seconds after midnight"): when in the day
  // something happened, not a quantity. (GTFS's service day runs past midnight, to 30 hours; a time written HHMM stays
  // at 2400 or under.)
  (e, n) => {
    const { column } = e;
    if ((column.type !== 'integer' && !(column.type === 'real' && wholeSteps(e))) || column.min === undefined || n.tokens.length < 2) return undefined;
    const min = num(column.min);
    const max = num(column.max);
    if (min < 0 || max > 30 * 3600 || max <= 2400) return undefined;
    const described = e.dictionary !== undefined && /\bseconds? (after|past|since|from) midnight\b/i.test(e.dictionary.description);
    const sam = n.last === 'sam' && n.tokens.includes('time');
    const moment = n.last === 'time' && /^(start|end|arrival|departure|arrive|depart|scheduled|pickup|dropoff)$/.test(n.tokens[n.tokens.length - 2]);
    const stem = n.tokens.slice(0, -1).join(' ');
    const twin = /^(seconds|secs|sec)$/.test(n.last ?? '') && e.table.columns.find((c) => {
      const t = nameTokens(c.originalName || c.name);
      return c !== column && (c.type === 'datetime' || c.type === 'date') && /^(dt|datetime|timestamp|ts)$/.test(t[t.length - 1] ?? '') && t.slice(0, -1).join(' ') === stem;
    });
    if (!described && !sam && !moment && !twin) return undefined;
    const clock = (v: number) => `${String(Math.floor(v / 3600)).padStart(2, '0')}:${String(Math.floor((v % 3600) / 60)).padStart(2, '0')}`;
    const why = described ? `described as "${e.dictionary!.description}"` : twin ? `named ${column.name} beside ${twin.name}, the same moment as a date and time` : `named ${column.name}`;
    return { role: 'time', rule: 'time:seconds-after-midnight', confidence: described ? 0.8 : 0.6, why: `${why}, whole numbers ${min}–${max}: seconds after midnight (${clock(min)} to ${clock(max)})`, time: { storage: 'text', grain: 'other', layout: 'seconds after midnight', isoExpression: "time({col}, 'unixepoch')" } };
  },
  // An ASE database's `ctime` and `mtime` (18.9103 beside each other in its `systems` table): when a structure was
  // created and last changed, in years of 365.25 days since 2000, as the Atomic Simulation Environment writes them.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'real' || n.tokens.length !== 1 || !/^(ctime|mtime)$/.test(n.tokens[0]) || column.min === undefined) return undefined;
    const other = n.tokens[0] === 'ctime' ? 'mtime' : 'ctime';
    if (!e.table.columns.some((c) => (c.originalName || c.name).toLowerCase() === other && c.type === 'real') || num(column.min) <= 0 || num(column.max) >= 100) return undefined;
    const at = (years: number) => new Date(Date.UTC(2000, 0, 1) + years * 365.25 * 86400000).toISOString().slice(0, 19);
    return { role: 'time', rule: 'time:ase-years', confidence: 0.6, why: `named ${column.name} beside ${other}, reals ${column.min}–${column.max}: ASE's years since 2000 (${at(num(column.min))} to ${at(num(column.max))})`, time: { storage: 'text', grain: 'datetime', layout: 'years since 2000 (ASE)', min: at(num(column.min)), max: at(num(column.max)), isoExpression: "datetime(946684800 + {col} * 31557600, 'unixepoch')" } };
  },
  (e, n) => {
    const { column } = e;
    // Unix seconds come as integers, or as reals with the fraction of a second (`1509139743.2741`, Python's time.time()).
    if ((column.type !== 'integer' && column.type !== 'real') || column.min === undefined) return undefined;
    const min = num(column.min);
    const max = num(column.max);
    // A dictionary that says the numbers count days since 1970 ("the number of days since January 1, 1970, the ‘Unix
    // epoch’", R's dates written out): dates, whatever the name (`manip`, `last_observation_alive`).
    const epochDays = e.dictionary !== undefined && /\bdays since (january 1,? 1970|1 january 1970|1970-01-01|the unix epoch)/i.test(e.dictionary.description);
    if (epochDays && min >= -36525 && max <= 47482 && wholeSteps(e)) {
      return { role: 'time', rule: 'time:described-epoch-days', confidence: 0.8, why: `described as days since 1970-01-01: whole numbers ${min}–${max} (${isoDay(min)} to ${isoDay(max)})`, time: { storage: 'epoch-days', grain: 'day', layout: 'days since 1970-01-01', isoExpression: "date({col} * 86400, 'unixepoch')", min: isoDay(min), max: isoDay(max) } };
    }
    const timeName = hasAny(n.tokens, TIME_WORDS) || (n.last && TIME_SUFFIXES.has(n.last) && n.tokens.length > 1) || n.tokens.includes('epoch') || n.tokens.includes('unix');
    // (`time_hour` of Unix seconds, the hour a flight was due, is a time: a `time` word outweighs the `hour`.)
    const explicit = n.tokens.some((t) => t === 'time' || t === 'timestamp' || t === 'ts' || t === 'datetime' || t === 'epoch' || t === 'unix');
    if (!timeName || (!explicit && /year|month|day|hour|season|week|quarter/.test(n.tokens.join(' ')))) return undefined;
    if (min >= 1e9 && max <= 2.2e9) return { role: 'time', rule: 'time:epoch-seconds', confidence: 0.9, why: `a time name and ${column.type === 'integer' ? 'integers' : 'numbers'} ${min}–${max}, Unix seconds`, time: { storage: 'epoch-s', grain: 'datetime', layout: 'Unix seconds', isoExpression: "datetime({col}, 'unixepoch')" } };
    // A spreadsheet's day numbers (days since 1899-12-30, `42857` = 2017-05-02) under a date's name, left unformatted:
    // in a workbook, any from 1910 to 2099; elsewhere (a sheet saved as CSV) from 1970, where days since 1970 would
    // be past 2040.
    const dated = n.tokens.some((t) => t === 'date' || t === 'dt');
    const workbook = /\.xls[xm]?$/i.test(e.table.sourceFile);
    if (dated && min >= (workbook ? 3653 : 25569) && max <= 73050 && column.distinctCount >= 3 && wholeSteps(e)) {
      const day = (serial: number) => isoDay(serial - 25569);
      return { role: 'time', rule: 'time:spreadsheet-days', confidence: 0.7, why: `named ${column.name}, whole numbers ${min}–${max}: a spreadsheet's day numbers (${day(min)} to ${day(max)})`, time: { storage: 'excel-serial', grain: 'day', layout: 'spreadsheet day numbers', isoExpression: "date(({col} - 25569) * 86400, 'unixepoch')", min: day(min), max: day(max) } };
    }
    // Days since 1970-01-01 (R's and Arrow's dates written as numbers, `13270` = 2006-05-01) under a date's name:
    // whole numbers from 1870 to 2040, reaching past 1980 (a `date` of 1–31 is a day of the month).
    if (dated && min >= -36525 && max <= 25568 && max >= 3653 && column.distinctCount >= 3 && wholeSteps(e)) {
      return { role: 'time', rule: 'time:epoch-days', confidence: 0.75, why: `named ${column.name}, whole numbers ${min}–${max}: days since 1970-01-01 (${isoDay(min)} to ${isoDay(max)})`, time: { storage: 'epoch-days', grain: 'day', layout: 'days since 1970-01-01', isoExpression: "date({col} * 86400, 'unixepoch')", min: isoDay(min), max: isoDay(max) } };
    }
    if (min >= 1e12 && max <= 2.2e12) return { role: 'time', rule: 'time:epoch-milliseconds', confidence: 0.9, why: `a time name and integers ${min}–${max}, Unix milliseconds`, time: { storage: 'epoch-ms', grain: 'datetime', layout: 'Unix milliseconds', isoExpression: "datetime({col} / 1000, 'unixepoch')" } };
    return undefined;
  },
  // A year that runs into the next written as six digits (`201516` for 2015-16, as the UK's official statistics write
  // a financial or academic year): every value's last two digits follow its first four.
  (e) => {
    const { column } = e;
    if (column.type !== 'integer' || num(column.min) < 150000 || num(column.max) > 210099) return undefined;
    const values = ((e as EvidenceWithSample).sample ?? column.samples).filter((v): v is number => typeof v === 'number');
    if (values.length < 3 || !values.every((v) => (Math.floor(v / 100) + 1) % 100 === v % 100)) return undefined;
    return { role: 'time', rule: 'time:split-year-number', confidence: 0.8, why: `integers ${column.min}–${column.max}, each a year and the next's last two digits (${values[0]} is ${Math.floor(values[0] / 100)}-${String(values[0] % 100).padStart(2, '0')}): financial or academic years`, time: { storage: 'text', grain: 'year', layout: 'YYYYYY', min: String(column.min), max: String(column.max) } };
  },
  // A column with no header (the loader names it by its place, `column_1`) of four-digit years beside a column of month
  // names: the year of each month (a statistics office's monthly table writes it in the stub, once per year).
  (e) => {
    const { column, table } = e;
    if (column.type !== 'integer' || !/^column_\d+$/.test(column.name) || num(column.min) < 1800 || num(column.max) > 2100) return undefined;
    const months = table.columns.some((c) => c !== column && c.type === 'text' && c.samples.length >= 3 && c.samples.every((v) => typeof v === 'string' && /^[a-z]{3,9}\.?[\s*†‡]*$/i.test(v) && MONTH_NAMES.some((m) => m.startsWith(v.toLowerCase().replace(/[.\s*†‡]+$/, '').slice(0, 3)))));
    if (!months) return undefined;
    return { role: 'time', rule: 'time:year-number', confidence: 0.7, why: `no header, integers ${column.min}–${column.max} beside a column of month names: the year of each month`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(column.min), max: String(column.max), isoExpression: "printf('%04d-01-01', {col})" } };
  },
  // The first column of a table holding every year from one to another once (1949, 1950, … 2024), whatever its header
  // says (EIA's annual sheet heads its years "Annual Total"): the year of each row.
  (e) => {
    const { column, table } = e;
    const min = num(column.min);
    const max = num(column.max);
    if (column.type !== 'integer' || table.columns[0] !== column || column.nullFraction > 0 || min < 1800 || max > 2100) return undefined;
    if (table.rowCount < 10 || column.distinctCount !== table.rowCount || max - min + 1 !== table.rowCount) return undefined;
    return { role: 'time', rule: 'time:year-number', confidence: 0.65, why: `the first column, every year from ${min} to ${max} once: the year of each row`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(min), max: String(max), isoExpression: "printf('%04d-01-01', {col})" } };
  },
  // A year written `y` after the kind of year (BITRE's `fin_y` and `cal_y`, 1991–2026: the financial and the calendar
  // year of each month): a year.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || n.tokens.length !== 2 || n.last !== 'y' || !/^(fin|cal|fiscal|financial|calendar|acad|academic|school|tax|water|crop|season|model)$/.test(n.tokens[0]) || num(column.min) < 1800 || num(column.max) > 2100) return undefined;
    return { role: 'time', rule: 'time:year-number', confidence: 0.65, why: `named ${column.name}, integers ${column.min}–${column.max}: the ${n.tokens[0]} year of each row`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(column.min), max: String(column.max), isoExpression: "printf('%04d-01-01', {col})" } };
  },
  // A survey's or an election's cycle named by its year (`dsgn_cycle` 2017): a year, even where a file holds one cycle.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || !n.tokens.some((t) => t === 'cycle' || t === 'cycles') || num(column.min) < 1900 || num(column.max) > 2100) return undefined;
    return { role: 'time', rule: 'time:year-number', confidence: 0.7, why: `named ${column.name}, integers ${column.min}–${column.max}: the year that names each cycle`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(column.min), max: String(column.max), isoExpression: "printf('%04d-01-01', {col})" } };
  },
  // Years under a date's name (`BeginDate` 1930, `EndDate` 1992), with 0 for a year not known: years.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || !n.tokens.includes('date') || num(column.max) > 2999 || num(column.min) < 0) return undefined;
    const values = ((e as EvidenceWithSample).sample ?? column.samples).filter((v): v is number => typeof v === 'number' && v !== 0);
    if (values.length < 3 || values.some((v) => v < 1000)) return undefined;
    const zeros = num(column.min) === 0 ? ', 0 where not known' : '';
    return { role: 'time', rule: 'time:year-number', confidence: 0.75, why: `named ${column.name}, integers up to ${column.max}${zeros}: calendar years`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(Math.min(...values)), max: String(column.max), isoExpression: "CASE WHEN {col} > 0 THEN printf('%04d-01-01', {col}) END" } };
  },
  (e, n) => {
    const { column, fingerprint: f } = e;
    // A `period` or `vintage` of four-digit numbers is a year too (the numeric branch checks the values).
    // So is an event named by what happened (`founded`, `born`) in four-digit numbers.
    const yearName = n.tokens.some((t) => YEAR_NAMES.has(t)) || namedForEvent(n) || namedForEvent(n, leafTokens(e));
    if (!yearName || !describedAsTime(e, n)) return undefined;
    // An event's year with 0 where it is not known and a few before the common era (an author `birth` of -750 or 0).
    // (…and a `year` with 0 where it is not known, as Discogs writes a release's year: years, 0 a missing one.)
    const zeroForUnknown = n.last !== undefined && YEAR_WORDS.has(n.last) && num(column.min) === 0;
    // (…and a `year` reaching back before the common era, NCEI's earthquakes from -2150: nearly all four-digit years.)
    const beforeCommonEra = n.last !== undefined && YEAR_WORDS.has(n.last) && n.tokens.length <= 2 && num(column.min) < 0;
    if (column.type === 'integer' && (zeroForUnknown || beforeCommonEra || !n.tokens.some((t) => YEAR_NAMES.has(t))) && num(column.min) >= -3000 && num(column.max) <= 2999 && num(column.min) < 1000) {
      const values = ((e as EvidenceWithSample).sample ?? column.samples).filter((v): v is number => typeof v === 'number' && v !== 0);
      // (A file ordered by year opens with its oldest rows: a sample says little there; four-digit years up to now do.)
      if ((values.length >= 5 && values.filter((v) => v >= 1000).length >= 0.9 * values.length) || (beforeCommonEra && num(column.max) >= 1000 && num(column.max) <= 2100)) {
        return { role: 'time', rule: 'time:year-number', confidence: 0.7, why: `named ${column.name}, integers ${column.min}–${column.max}, nearly all four-digit years (0 where not known, a few before the common era): calendar years`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(column.min), max: String(column.max), isoExpression: "CASE WHEN {col} >= 1000 THEN printf('%04d-01-01', {col}) END" } };
      }
    }
    if ((column.type === 'integer' || column.type === 'real') && column.min !== undefined && num(column.min) >= 1000 && num(column.max) <= 2999) {
      return { role: 'time', rule: 'time:year-number', confidence: 0.95, why: `named ${column.name}, integers ${column.min}–${column.max}: calendar years, not a quantity`, time: { storage: 'year', grain: 'year', layout: 'YYYY', min: String(column.min), max: String(column.max), isoExpression: "printf('%04d-01-01', {col})" } };
    }
    // A column named just `year` (or `fy`, `Jahr`) of a few integers under 100 (15–25): years written with two digits;
    // a `period` or `season` of small integers is a number within something else (a match's periods).
    if (column.type === 'integer' && n.tokens.length === 1 && YEAR_WORDS.has(n.tokens[0]) && column.min !== undefined && num(column.min) >= 0 && num(column.max) <= 99 && column.distinctCount <= 40) {
      return { role: 'time', rule: 'time:two-digit-year', confidence: 0.75, why: `named ${column.name}, integers ${column.min}–${column.max}: years written with two digits`, time: { storage: 'text', grain: 'year', layout: 'YY', min: String(column.min), max: String(column.max) } };
    }
    if (column.type === 'text' && f.yearText >= 0.95) return { role: 'time', rule: 'time:year-text', confidence: 0.9, why: `named ${column.name}, four-digit years written as text`, time: { storage: 'year', grain: 'year', layout: 'YYYY', isoExpression: "substr({col}, 1, 4) || '-01-01'" } };
    // A season by name (`season`, `season_collect`), or any column of seasons written as years (`2011-12`, `2011/2012`);
    // a season's key (`season_id` S-2011-2011-1-S) or what became of a team in it (`season_outcome`) is no season.
    const seasonValues = presentTexts(e).filter((v) => /^\s*(1[89]|20)\d\d\s*[-/–]\s*(\d\d|(1[89]|20)\d\d)\s*$/.test(v)).length;
    const notSeason = n.last !== undefined && /^(id|ids|key|code|no|number|outcome|outcomes|result|results|status|type|category)$/.test(n.last);
    if (column.type === 'text' && n.tokens.includes('season') && (n.last === 'season' || n.last === 'seasons' || !notSeason || seasonValues >= 0.9 * Math.max(1, presentTexts(e).length))) return { role: 'time', rule: 'time:season', confidence: 0.7, why: `named ${column.name}: a season`, time: { storage: 'text', grain: 'other' } };
    return undefined;
  },
  // A date and time kept in parts under short names, side by side (NCEI's `Year`, `Mo`, `Dy`, `Hr`, `Mn`, `Sec`): the
  // day, the minute and the second of when it happened, not amounts. (Alone, `sec` may be a duration, `mn` a state.)
  (e) => {
    const part = shortDatePart(e);
    if (!part) return undefined;
    const { column } = e;
    return { role: 'time', rule: 'time:date-parts', confidence: 0.7, why: `named ${column.originalName || column.name} beside the year's, the month's${part === 'day' ? '' : " and the hour's"} parts, numbers ${column.min}–${column.max}: the ${part}${part === 'day' ? ' of the month' : part === 'minute' ? ' of the hour' : ' of the minute'}`, time: { storage: 'text', grain: 'other' } };
  },
  (e, n) => {
    const { column, fingerprint: f } = e;
    if (f.monthName >= 0.9 && column.type === 'text') return { role: 'time', rule: 'time:month-names', confidence: 0.92, why: 'values are month names', time: { storage: 'month-name', grain: 'month-of-year' } };
    // A month named with its year (`Jan 2020`, `1973 January`): a month of the calendar, read into ISO by its parts.
    if (f.monthYear >= 0.9 && column.type === 'text') {
      const yearFirst = f.yearFirstMonth >= 0.5 * f.monthYear;
      const month = `(instr('JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC', upper(substr(trim(${yearFirst ? 'substr({col}, 6)' : '{col}'}), 1, 3))) + 2) / 3`;
      const year = yearFirst ? 'substr(trim({col}), 1, 4)' : 'substr(trim({col}), -4)';
      return { role: 'time', rule: 'time:month-and-year', confidence: 0.9, why: `values are months with their year (${column.samples.slice(0, 2).join(', ')})`, time: { storage: 'text', grain: 'month', layout: yearFirst ? 'YYYY Month' : 'Month YYYY', isoExpression: `printf('%s-%02d-01', ${year}, ${month})` } };
    }
    // A month and its year behind a collection's code (`MSitAE-APRIL-2023`, NHS England's monthly return; a total row
    // says `Total`): the month of the return.
    const coded = column.type === 'text' ? codedMonths(e) : undefined;
    if (coded) {
      const at = coded.length + 1;
      const month = `(instr('JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC', upper(substr(trim({col}), ${at}, 3))) + 2) / 3`;
      return { role: 'time', rule: 'time:coded-month', confidence: 0.75, why: `values are months with their year behind the code ${coded} (${column.samples.slice(0, 2).join(', ')})`, time: { storage: 'text', grain: 'month', layout: `${coded}Month-YYYY`, isoExpression: `CASE WHEN trim({col}) LIKE '${coded.replace(/'/g, "''")}%' THEN printf('%s-%02d-01', substr(trim({col}), -4), ${month}) END` } };
    }
    if (f.weekdayName >= 0.9 && column.type === 'text') return { role: 'time', rule: 'time:weekday-names', confidence: 0.92, why: 'values are weekday names', time: { storage: 'weekday-name', grain: 'day-of-week' } };
    // (Whole numbers stored as reals, as R writes them, count as integers; in a nested record, `publication.month`,
    // the last part of the path is the name.)
    if ((column.type !== 'integer' && !(column.type === 'real' && wholeSteps(e))) || column.min === undefined) return undefined;
    const min = num(column.min);
    const max = num(column.max);
    const only = n.tokens.length <= 2 || leafTokens(e).length === 1;
    // Date parts named by the letters of a date's layout, all three side by side: `JJ`, `MM`, `TT` (German: Jahr,
    // Monat, Tag), `YY`, `MM`, `DD`, or `AA`, `MM`, `JJ` (French: année, mois, jour).
    const part = layoutLetter(e);
    if (part === 'year' && ((min >= 0 && max <= 99) || (min >= 1000 && max <= 2999))) return { role: 'time', rule: 'time:layout-letters', confidence: 0.7, why: `named ${column.name} beside the month's and the day's letters, integers ${min}–${max}: the year`, time: max <= 99 ? { storage: 'text', grain: 'year', layout: 'YY', min: String(min), max: String(max) } : { storage: 'year', grain: 'year', layout: 'YYYY', min: String(min), max: String(max), isoExpression: "printf('%04d-01-01', {col})" } };
    if (part === 'month' && min >= 1 && max <= 12) return { role: 'time', rule: 'time:layout-letters', confidence: 0.7, why: `named ${column.name} beside the year's and the day's letters, integers 1–12: the month`, time: { storage: 'month-number', grain: 'month-of-year' } };
    if (part === 'day' && min >= 1 && max <= 31) return { role: 'time', rule: 'time:layout-letters', confidence: 0.7, why: `named ${column.name} beside the year's and the month's letters, integers ${min}–${max}: the day of the month`, time: { storage: 'text', grain: 'other' } };
    if (!describedAsTime(e, n)) return undefined;
    if (n.tokens.some((t) => t === 'month' || t === 'mon' || t === 'mo' || t === 'mnth' || t === 'mth') && only && min >= 1 && max <= 12) return { role: 'time', rule: 'time:month-number', confidence: 0.85, why: `named ${column.name}, integers 1–12`, time: { storage: 'month-number', grain: 'month-of-year' } };
    if (n.tokens.some((t) => t === 'quarter' || t === 'qtr') && only && min >= 1 && max <= 4) return { role: 'time', rule: 'time:quarter-number', confidence: 0.85, why: `named ${column.name}, integers 1–4`, time: { storage: 'text', grain: 'quarter' } };
    // A clock time's parts as a document describes them ("ZZ (start time hours)", "… start time minutes"): the hour
    // of the day and the minute within it, whatever the column's letters.
    const clockPart = hasAny(n.described, new Set(['time', 'start', 'begin', 'end', 'clock'])) ? n.described.find((t) => /^(hour|hours|minute|minutes)$/.test(t)) : undefined;
    if (clockPart && /^hour/.test(clockPart) && min >= 0 && max <= 23) return { role: 'time', rule: 'time:described-clock', confidence: 0.7, why: `described as "${e.dictionary!.description}", integers ${min}–${max}: the hour of the day`, time: { storage: 'hour', grain: 'hour-of-day' } };
    if (clockPart && /^minute/.test(clockPart) && min >= 0 && max <= 59) return { role: 'time', rule: 'time:described-clock', confidence: 0.65, why: `described as "${e.dictionary!.description}", integers ${min}–${max}: the minute of the hour`, time: { storage: 'text', grain: 'other' } };
    if (n.tokens.some((t) => t === 'hour' || t === 'hr') && only && min >= 0 && max <= 23) return { role: 'time', rule: 'time:hour-number', confidence: 0.85, why: `named ${column.name}, integers 0–23`, time: { storage: 'hour', grain: 'hour-of-day' } };
    // `minute` (singular) of an event, 0–130: when in the hour or the match it happened (`minutes` is a duration);
    // so is the minute counted in a part of the match (`minute_regulation`, `minute_stoppage`).
    if ((n.last === 'minute' || (n.tokens[0] === 'minute' && n.tokens.length === 2)) && only && min >= 0 && max <= 130) return { role: 'time', rule: 'time:minute-number', confidence: 0.7, why: `named ${column.name}, integers ${min}–${max}: the minute something happened`, time: { storage: 'text', grain: 'other' } };
    if (n.tokens.some((t) => t === 'weekday' || t === 'dow') && min >= 0 && max <= 7) return { role: 'time', rule: 'time:weekday-number', confidence: 0.8, why: `named ${column.name}, integers ${min}–${max}`, time: { storage: 'text', grain: 'day-of-week' } };
    // `day`, or a date's day part beside its year and month (`birth_day`, `death_day`): most days of a month occur.
    const dayPart = n.tokens.length === 1 || leafTokens(e).length === 1 ? n.last === 'day' : only && n.tokens[n.tokens.length - 1] === 'day' && column.distinctCount >= 20;
    if (dayPart && Number.isInteger(min) && min >= 1 && max <= 31) return { role: 'time', rule: 'time:day-of-month', confidence: 0.8, why: `named ${column.name}, integers 1–31`, time: { storage: 'text', grain: 'other' } };
    // A `date` written as a whole number within one year's days (`end_date` 81–155, "fledge or failure date", the year
    // in another column): the day of the year.
    if (n.last === 'date' && column.type === 'integer' && min >= 1 && max <= 366 && column.distinctCount >= 10 && e.table.columns.some((c) => c !== column && nameTokens(c.originalName || c.name).some((t) => YEAR_WORDS.has(t)))) {
      return { role: 'time', rule: 'time:day-of-year', confidence: 0.6, why: `named ${column.name}, whole numbers ${min}–${max} beside a year: the day of the year`, time: { storage: 'text', grain: 'day', layout: 'day of year' } };
    }
    return undefined;
  },
  (e, n) => {
    const { column, fingerprint: f } = e;
    if (column.type !== 'text') return undefined;
    // Dates kept as text by a database file (SQLite has no date type): read the sample as the loader reads a file.
    const sample = (e as EvidenceWithSample).sample;
    if (f.dateLike >= 0.9 && sample && sample.length > 0) {
      const tracker = new ColumnTypeTracker();
      for (const v of sample) if (typeof v === 'string') tracker.addText(v);
      const type = tracker.type;
      if ((type === 'date' || type === 'datetime') && tracker.layout) {
        const iso = tracker.layout === 'ymd' && sample.every((v) => typeof v !== 'string' || isoDateText(v) === v);
        return {
          role: 'time',
          rule: 'time:dates-as-text',
          confidence: 0.9,
          why: `values are ${type === 'date' ? 'dates' : 'datetimes'} written ${tracker.layoutName}, stored as text`,
          time: { storage: iso ? (type === 'date' ? 'iso-date' : 'iso-datetime') : 'text', grain: iso ? isoGrain({ ...column, type }, sample, e.dateShape) : type === 'datetime' ? 'datetime' : 'day', layout: tracker.layoutName, min: stringOf(column.min), max: stringOf(column.max) },
        };
      }
    }
    // Clock times (`18:00`, `20:45 CET`): the time of day something happens.
    // (`NA` where no time was taken is no value.)
    const told = sample?.filter((v) => !(typeof v === 'string' && (v.trim() === '' || isMissingText(v))));
    const clock = told ? told.filter((v) => typeof v === 'string' && CLOCK_TIME.test(v.trim())).length : 0;
    // Hours, minutes and seconds that never pass 6 a.m. (`02:11:48`, `04:29:03`) under a name that says no moment (no
    // `start`, `departure`, `kickoff`): how long something took, a race's result or a call's length, not a time of day.
    if (told && told.length >= 10 && clock >= 0.9 * told.length && elapsedTimes(told) && !n.tokens.some((t) => MOMENT_WORDS.has(t))) {
      return { role: 'measure', rule: 'measure:elapsed-times', confidence: 0.55, why: 'values are hours, minutes and seconds under 6 hours: how long something took' };
    }
    // (On the hour, `18:00`, `20:00`, they are hours of the day; a reading every five minutes, `13:25:00`, is finer.)
    if (told && told.length >= 3 && clock >= 0.9 * told.length) {
      const minutes = new Set(told.map((v) => /^\d{1,2}:(\d\d)/.exec(String(v).trim())?.[1]).filter((m) => m !== undefined));
      return { role: 'time', rule: 'time:clock-times', confidence: 0.85, why: 'values are clock times (HH:MM)', time: { storage: 'text', grain: minutes.size >= 3 ? 'other' : 'hour-of-day', layout: 'HH:MM' } };
    }
    // Spans of years (`1984-2025`, `2001–2010`): a period, from one year to a later one.
    const spans = sample ? sample.filter((v) => typeof v === 'string' && yearSpan(v)).length : 0;
    const yearNamed = n.tokens.some((t) => t === 'year' || t === 'years' || t === 'period');
    if (sample && sample.length >= 3 && (spans === sample.length || (yearNamed && spans >= 0.8 * sample.length))) return { role: 'time', rule: 'time:year-spans', confidence: 0.75, why: 'values are spans of years (YYYY-YYYY)', time: { storage: 'text', grain: 'other', layout: 'YYYY-YYYY' } };
    // Years that run from one calendar year into the next (`2011-12`, `2019/20`): financial, school or mid-year years.
    // (Read over every value where the column has few: a datacube's first rows are all of its first year.)
    const years = e.allValues ?? sample;
    const fiscal = years ? new Set(years.filter((v) => typeof v === 'string' && fiscalYear(v)).map((v) => String(v).trim())).size : 0;
    // (One such year is enough under a year's name, `year_2013_14` of `2013-14` on every row of the year's file.)
    if (years && (fiscal >= 3 || (yearNamed && fiscal >= 1 && e.table.rowCount >= 3)) && years.every((v) => typeof v === 'string' && fiscalYear(v))) return { role: 'time', rule: 'time:fiscal-years', confidence: 0.8, why: `values are years that run into the next (${String(years.find((v) => typeof v === 'string')).trim()})`, time: { storage: 'text', grain: 'year', layout: 'YYYY-YY' } };
    // Intervals written as ISO 8601 writes them (`1866/2015`, `1828/` still open, `2001-05-01/2001-06-30`: Darwin
    // Core's `eventDate` of a first and a last record): when, from a start to an end.
    const spanned = (years ?? []).filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !isMissingText(v)).map((v) => ISO_INTERVAL.exec(v.trim()));
    if (spanned.length >= 3 && spanned.every((m) => m !== null) && spanned.some((m) => m![0].includes('/'))) {
      const starts = spanned.map((m) => m![1]);
      // (Periods of one length, NHANES's two-year cycles `2007/2008`, `2009/2010`, are spans of their own grain.)
      const lengths = new Set(spanned.map((m) => (m![2] && m![1].length === 4 && m![2].length === 4 ? Number(m![2]) - Number(m![1]) : -1)));
      const grain = lengths.size === 1 && !lengths.has(-1) && !lengths.has(0) ? 'other' : starts.every((v) => v.length === 4) ? 'year' : starts.every((v) => v.length === 7) ? 'month' : 'day';
      return { role: 'time', rule: 'time:iso-intervals', confidence: 0.7, why: `values are intervals written start/end (${spanned[0]![0]})`, time: { storage: 'text', grain, layout: 'start/end' } };
    }
    // A government's fiscal periods (`FY2020P07`, the seventh month of fiscal 2020; `FY2019Q1`): months or quarters
    // of its fiscal year.
    const periods = (years ?? []).filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => /^FY\s?(\d{2}|\d{4})\s?-?([PQM])(\d{1,2})$/i.exec(v.trim()));
    if (periods.length >= 3 && periods.every((m) => m !== null)) {
      const months = periods.filter((m) => /[PM]/i.test(m![2])).length;
      return { role: 'time', rule: 'time:fiscal-periods', confidence: 0.75, why: `values are periods of a fiscal year (${periods[0]![0]})`, time: { storage: 'text', grain: months >= 0.5 * periods.length ? 'month' : 'quarter', layout: 'FYyyyyPnn' } };
    }
    if (f.week >= 0.9) return { role: 'time', rule: 'time:iso-weeks', confidence: 0.9, why: 'values are ISO weeks (YYYY-Www)', time: { storage: 'text', grain: 'week', layout: 'YYYY-Www' } };
    // Months written after their year with an `m` (Stata's `%tm` dates, `2020m1`; Eurostat's `2020M01`): periods,
    // ordered by their year and month (as text, `2020m10` sorts before `2020m2`).
    if (f.yearMonthLetter >= 0.9) {
      return { role: 'time', rule: 'time:year-m-months', confidence: 0.85, why: `values are months written YYYYmM (${column.samples.map((v) => String(v ?? '').trim()).find((v) => /^\d{4}m\d{1,2}$/i.test(v)) ?? stringOf(column.samples[0])})`, time: { storage: 'period', grain: 'month', layout: 'YYYYmM', isoExpression: "printf('%s-%02d-01', substr({col}, 1, 4), CAST(substr({col}, 6) AS INTEGER))" } };
    }
    if (f.period >= 0.9) return { role: 'time', rule: 'time:year-month-periods', confidence: 0.92, why: 'values are YYYY-MM periods', time: { storage: 'period', grain: 'month', layout: 'YYYY-MM', min: stringOf(column.samples[0]), isoExpression: "{col} || '-01'" } };
    if (f.dateLike >= 0.9) return { role: 'time', rule: 'time:mixed-layouts', confidence: 0.85, why: 'every value reads as a date, but in more than one layout (kept as text; convert before comparing)', time: { storage: 'mixed', grain: (e.dateShape && grainOfShape(e.dateShape)) ?? 'day' } };
    // Quarters of the year (`Q1`, `Q03`), read with a year beside them.
    const besideYear = e.table.columns.some((c) => c !== column && nameTokens(c.originalName || c.name).some((t) => YEAR_WORDS.has(t)));
    const quartile = n.tokens.some((t) => /^quartiles?$|^quart$/.test(t));
    if (f.quarter >= 0.95 && e.column.distinctCount <= 4 && !quartile && (hasAny(n.tokens, TIME_WORDS) !== undefined || besideYear)) return { role: 'time', rule: 'time:quarter-values', confidence: 0.8, why: 'values are quarters of a year (Q1–Q4)', time: { storage: 'text', grain: 'quarter', layout: 'Qn' } };
    // (…or a fiscal year run into the event's name: the World Bank's `approvalfy`, `closingfy`.)
    const timeName = hasAny(n.tokens, TIME_WORDS) || (n.last !== undefined && TIME_SUFFIXES.has(n.last) && n.tokens.length > 1) || namedForEvent(n) || (n.tokens.length === 1 && /^[a-z]{4,}fy$/.test(n.tokens[0]));
    // Periods led by a year, at one grain or several (`1979`, `2018-Q2`, `2019-01` as a series' frequency changes).
    if (timeName && f.yearPeriod >= 0.9 && f.yearText < 0.8) {
      const grain = f.period >= 0.9 ? 'month' : f.yearQuarter >= 0.9 ? 'quarter' : 'other';
      return { role: 'time', rule: 'time:year-periods', confidence: 0.75, why: `named ${column.name}, ${Math.round(f.yearPeriod * 100)}% of values are periods led by a year (YYYY, YYYY-Qn, YYYY-MM)`, time: { storage: 'text', grain, layout: 'YYYY[-Qn|-MM]' } };
    }
    // An event named by what happened (`founded`, `birth`, `canonization`), written as dates or years with words
    // around some (`Nov. 27, 1894`, `c. 1020`, `5th century`): when it happened.
    if (namedForEvent(n) && f.yearInText >= 0.6 && column.distinctCount >= 5) {
      return { role: 'time', rule: 'time:event-years', confidence: 0.6, why: `named ${column.name} (an event), ${Math.round(f.yearInText * 100)}% of values hold a year`, time: { storage: 'text', grain: f.dateLike >= 0.5 ? 'day' : 'year' } };
    }
    // A date written mostly as a year (`1981`, some `1981-1982` or words): years.
    if (timeName && f.yearText >= 0.8) return { role: 'time', rule: 'time:name-and-years', confidence: 0.7, why: `named ${column.name}, ${Math.round(f.yearText * 100)}% of values are four-digit years`, time: { storage: 'text', grain: 'year', layout: 'YYYY' } };
    // (…dates with a year of two digits, `4/23/13`, among them: the loader reads no such date, the name and the values do.)
    // (…and so do a day and a month with the year left to another column, `2-Apr`, `26-Feb`, beside `3/20/06`.)
    const dayMonths = timeName ? dayMonthShare(e) : 0;
    if (timeName && f.dateLike + f.shortYearDate + dayMonths >= 0.5) return { role: 'time', rule: 'time:name-and-dates', confidence: 0.7, why: `named ${column.name}, most values read as dates${f.shortYearDate > 0 ? ' (some with a year of two digits)' : ''}${dayMonths > 0 ? ' (some a day and a month, the year elsewhere)' : ''}`, time: { storage: 'mixed', grain: 'day' } };
    return undefined;
  },
];

const MONTH_ABBREVIATION = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** A day and a month written without their year (`2-Apr`, `26 Feb`, `Apr 2`, `3-Feb-03`). */
const DAY_MONTH = new RegExp(`^(\\d{1,2}[- ]${MONTH_ABBREVIATION}([- ]\\d{2})?|${MONTH_ABBREVIATION}[- ]\\d{1,2})$`, 'i');

/** The share of a text column's present values that are a day and a month (`2-Apr`), the year told elsewhere. */
function dayMonthShare(e: ColumnEvidence): number {
  const texts = presentTexts(e).map((v) => v.trim());
  return texts.length === 0 ? 0 : texts.filter((v) => DAY_MONTH.test(v)).length / texts.length;
}

/** `18:00`, `9:30:15`, `20:45 CET`, `13:00 UTC-3`. */
/** An ISO 8601 interval or its open start: `1866/2015`, `1828/`, `2001-05/2001-06`, `2001-05-01/2001-06-30`; a date alone too. */
const ISO_INTERVAL = /^(\d{4}(?:-\d\d(?:-\d\d)?)?)(?:\/(\d{4}(?:-\d\d(?:-\d\d)?)?)?)?$/;

const CLOCK_TIME = /^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?(\s+[A-Za-z]{2,5}([+-]\d{1,2})?)?$/;

interface EvidenceWithSample extends ColumnEvidence {
  sample?: unknown[];
}

const stringOf = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/** Another column of the table names the place (`Country Name`, `country`, or a bare `name`). */
function placeNamedBeside(e: ColumnEvidence, place: string): boolean {
  return e.table.columns.some((c) => {
    if (c === e.column || c.type !== 'text') return false;
    const tokens = nameTokens(c.originalName || c.name);
    return (tokens.length === 1 && tokens[0] === 'name') || (tokens.includes(place) && !tokens.some((t) => CODE_WORDS.has(t) || IDENTIFIER_WORDS.has(t) || t === 'iso' || /\d/.test(t)));
  });
}

/** The one mark a column holds where it holds anything (`x`, `yes`, `W`, `(I)`), allowing one or two stray slips. */
function markerValue(e: ColumnEvidence): string | undefined {
  const { column } = e;
  const mark = (v: string): boolean => /^(x|y|yes|true|t|1|active|\*|✓|checked|on)$/i.test(v) || /^\(?[A-Za-z]\)?$/.test(v);
  // (Blanks written as empty strings are no value.)
  const shown = column.samples.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
  if (column.distinctCount === 1 || (column.distinctCount === 2 && column.samples.some((v) => v === '') && new Set(shown).size === 1)) return shown.length > 0 && mark(shown[0]) ? shown[0] : undefined;
  if (column.distinctCount !== 2) return undefined;
  const values = ((e as EvidenceWithSample).sample ?? column.samples).filter((v) => v !== null && String(v).trim() !== '').map((v) => String(v).trim());
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return values.length >= 10 && values.length - n <= 2 && mark(top) ? top : undefined;
}

/**
 * A count named as one (`primary_votes`) whose other cells are a few notes that recur (`Unopposed`, `*`, `#`): the
 * numbers are the count, the notes say why a row has none.
 */
function countWithNotes(e: ColumnEvidence, n: Names): boolean {
  if (!(hasAny(n.tokens, COUNT_WORDS) ?? hasAny(n.tokens, ADDITIVE_WORDS))) return false;
  const notes = presentTexts(e).filter((v) => !isNumericText(v));
  const distinct = new Set(notes.map((v) => v.trim().toLowerCase()));
  return notes.length > 0 && distinct.size <= 3 && notes.length >= 2 * distinct.size && [...distinct].every((v) => v.length <= 12 && !/\d/.test(v));
}

const ARTICLES = new Set(['the', 'a', 'an']);

/** Rows and distinct values of a column, less the placeholders for missing values (`NA`) kept as text. */
function present(e: ColumnEvidence): { rows: number; distinct: number } {
  // (A whole number of rows: 30 × (1 − 29/30) is one row, not 0.99999.)
  const rows = Math.round(e.table.rowCount * (1 - e.column.nullFraction));
  if (e.missingRows) return { rows: Math.max(0, rows - e.missingRows.rows), distinct: Math.max(0, e.column.distinctCount - e.missingRows.distinct) };
  const missing = e.fingerprint.missingText;
  if (missing === 0) return { rows, distinct: e.column.distinctCount };
  return { rows: rows * (1 - missing), distinct: Math.max(0, e.column.distinctCount - 1) };
}

/** Words of a moment in the day (`start_time`, `departure`): a clock time, however early. */
const MOMENT_WORDS = new Set(['start', 'started', 'end', 'ended', 'begin', 'departure', 'depart', 'arrival', 'arrive', 'kickoff', 'open', 'opening', 'close', 'closing', 'sunrise', 'sunset', 'at', 'when', 'clock', 'scheduled', 'local', 'utc']);

/** Every sampled value is written H:MM:SS with the hour under 6 (before dawn, were it a clock), and the minutes vary: lengths of time, not moments. */
function elapsedTimes(sample: readonly unknown[]): boolean {
  const parts = sample.filter((v): v is string => typeof v === 'string').map((v) => /^(\d{1,2}):([0-5]\d):([0-5]\d)(\.\d+)?$/.exec(v.trim()));
  if (parts.length === 0 || parts.some((m) => m === null)) return false;
  return parts.every((m) => Number(m![1]) < 6) && new Set(parts.map((m) => m![2])).size >= 3;
}

/** A statistic before a count's `number` (`total_number`, `average_number`): the count, not the number a thing is known by. */
const COUNT_STATISTICS = /^(total|average|avg|mean|median|estimated|max|min)$/;

/** Words that name a place when a column of them is empty (`origin` of a codex, `publisher_place`). */
const EMPTY_PLACE_WORDS = new Set(['place', 'origin', 'location', 'birthplace']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The items of a column whose every value is a JSON list of strings or numbers, blanks left out: how many there are,
 * how many differ, and the share of lists with one item at most. Undefined where a value is anything else.
 */
function jsonLists(e: ColumnEvidence): { items: string[]; distinct: number; single: number } | undefined {
  const values = presentTexts(e);
  if (values.length === 0) return undefined;
  const items: string[] = [];
  let single = 0;
  for (const v of values) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((i) => typeof i === 'string' || typeof i === 'number')) return undefined;
    const shown = parsed.map((i) => String(i).trim()).filter((i) => i !== '');
    if (shown.length <= 1) single++;
    items.push(...shown);
  }
  return { items, distinct: new Set(items).size, single: single / values.length };
}

/** Hexadecimal values of one length, 32, 40 or 64 digits (a GUID without its hyphens, an SHA-1 or SHA-256): that length; else undefined. */
function hexKeys(e: ColumnEvidence): number | undefined {
  const values = presentTexts(e).map((v) => v.trim().replace(/^0x/i, ''));
  const lengths = new Set(values.map((v) => v.length));
  const [length] = [...lengths];
  return lengths.size === 1 && (length === 32 || length === 40 || length === 64) ? length : undefined;
}

/** A few small whole numbers (-1 … 9), written as numbers or as text: codes of a check's outcome. */
function smallCodes(e: ColumnEvidence): boolean {
  const values = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
  return values.length > 0 && e.column.distinctCount <= 5 && values.every((v) => /^-?\d$/.test(v));
}

/** Lists whose items, blanks left out, are all short codes without spaces or whole numbers (`["H8CA05035"]`, `["978-88-12-00032-6"]`). */
function codeLists(lists: { items: string[] } | undefined): boolean {
  return lists !== undefined && lists.items.length > 0 && lists.items.every((i) => /^[A-Za-z0-9_.:-]{2,24}$/.test(i) || /^-?\d+$/.test(i));
}

/** How many of a column's sampled values name columns of the other tables ("31 of 31"), when nearly all do; else undefined. */
function columnNamesListed(e: ColumnEvidence): string | undefined {
  const other = e.otherColumn;
  if (!other) return undefined;
  const values = presentTexts(e);
  if (values.length < 5 || values.length > 2000) return undefined;
  const listed = values.filter((v) => other(v.trim().toLowerCase())).length;
  // (A codebook of several tables names a column once per table that has it: its rows are keyed by table and column.)
  const perTable = e.table.columns.some((c) => c !== e.column && /^(dataset|table|file|sheet|dataset_name|table_name|file_name)$/.test(nameTokens(c.originalName || c.name).join('_')));
  // (A codebook of a larger database than the folder holds lists the columns of tables not here too.)
  return (perTable ? listed >= 0.3 * values.length && listed >= 20 : listed >= 0.8 * values.length) && (perTable ? e.column.distinctCount >= Math.max(10, 0.2 * values.length) : e.column.distinctCount >= 0.9 * values.length) ? `${listed} of ${values.length}` : undefined;
}

/** The sampled text values, less empty ones and placeholders for missing values. */
/** Continents and macro-areas of the world (Glottolog's and WALS's `Papunesia`, the UN's `Latin America and the Caribbean`). */
const WORLD_REGIONS = /^(africa|sub-saharan africa|north(ern)? africa|asia|east asia|south asia|southeast asia|central asia|western asia|europe|eurasia|oceania|australia|australasia|papunesia|americas?|north america|south america|central america|latin america( (and|&) (the )?caribbean)?|caribbean|antarctica|middle east|pacific)$/i;

/** A y or an n (or a yes or a no) that opens a value, alone or before a doubt or a comment: `y`, `n?`, `(n)`, `y (suffix)`. */
const YES_NO_OPENING = /^\(?(y|n|yes|no)\)?\??(\s*[,(:;–-]|\s|$)/i;

/** At least 85% of the sampled values open with y or n (both there), the rest doubts or comments. */
function yesNoWithComments(e: ColumnEvidence): boolean {
  const values = presentTexts(e).map((v) => v.trim());
  if (values.length < 10) return false;
  const answers = values.map((v) => YES_NO_OPENING.exec(v)?.[1]?.toLowerCase()[0]);
  if (answers.filter(Boolean).length < 0.85 * values.length || !answers.includes('y') || !answers.includes('n') || !values.some((v) => v.length > 3)) return false;
  // (A third answer that recurs, a member's `I used to be`, makes a category of three, and a graded one, AMSTAR's
  // `Partial yes`, a scale; a doubt, `unclear` or `?`, is neither.)
  const others = new Map<string, number>();
  values.forEach((v, i) => {
    const text = v.toLowerCase().replace(/[?.!]+$/, '').trim();
    if (answers[i] === undefined && text !== '' && !UNKNOWN_ANSWERS.has(text) && !/^(unclear|no info|no information|uncertain)$/.test(text)) others.set(text, (others.get(text) ?? 0) + 1);
  });
  return [...others.entries()].every(([text, count]) => count < 0.05 * values.length && !/\b(yes|no)\b/.test(text));
}

/** Every value an empty string or NULL (a database that writes `''` where nothing was given, GTFS's `stop_desc`): empty. */
/** A value masked by its publisher: a run of asterisks, X's or hashes, or a word that says it was withheld. */
const MASKED = /^(\*{3,}|x{4,}|#{3,}|\[?(redacted|masked|withheld|suppressed)\]?)$/i;

function blankOnly(e: ColumnEvidence): boolean {
  if (e.column.type !== 'text' || e.column.distinctCount > 1 || e.table.rowCount === 0) return false;
  const sampled = (e as EvidenceWithSample).sample ?? e.column.samples;
  return sampled.every((v) => v === null || v === undefined || String(v).trim() === '');
}

/**
 * The code before the months of a column like `MSitAE-APRIL-2023`, `MSitAE-MAY-2023` (the same code, a separator, a
 * month's name, a separator, a year), where at most one sampled value in five is something else (`Total`); undefined
 * otherwise.
 */
function codedMonths(e: ColumnEvidence): string | undefined {
  const texts = presentTexts(e).map((v) => v.trim());
  const parts = texts.map((v) => /^([A-Za-z][A-Za-z0-9]*[-_ ])([A-Za-z]{3,9})[-_ ]((?:19|20)\d\d)$/.exec(v));
  const months = parts.filter((m): m is RegExpExecArray => m !== null && (MONTH_NAMES.includes(m[2].toLowerCase()) || MONTH_NAMES.some((name) => name.slice(0, 3) === m[2].toLowerCase()) || m[2].toLowerCase() === 'sept'));
  if (months.length < 2 || months.length < 0.8 * texts.length || new Set(months.map((m) => m[1])).size !== 1) return undefined;
  return new Set(months.map((m) => m[2].toLowerCase() + m[3])).size >= 2 || e.column.distinctCount >= 3 ? months[0][1] : undefined;
}

const COMPASS_WORDS = /^(north|south|east|west|northeast|northwest|southeast|southwest|central|midlands|northern|southern|eastern|western)$/;
/** Names of what a compass word also names that is no region: a direction of travel, a side of a building or a ground. */
const NOT_REGION_NAMES = /^(direction|directions|bound|heading|bearing|aspect|wind|side|wing|stand|stands|gate|entrance|exit|orientation|facing|conference|division|league)$/;

/**
 * How many of a text column's 3–50 distinct values name regions by the compass (`NORTH EAST AND YORKSHIRE`, `SOUTH
 * WEST`, `MIDLANDS`) when most do and most values are more than one word; undefined otherwise.
 */
function compassRegions(e: ColumnEvidence, n: Names): number | undefined {
  if (n.tokens.some((t) => NOT_REGION_NAMES.test(t))) return undefined;
  const values = [...new Set(presentTexts(e).map((v) => v.trim().toLowerCase()))].filter((v) => !/^total$/.test(v));
  if (values.length < 3 || values.length > 50 || e.column.distinctCount > 50) return undefined;
  const words = values.map((v) => v.split(/[^a-z]+/).filter(Boolean));
  const named = words.filter((w) => w.some((t) => COMPASS_WORDS.test(t))).length;
  const multiWord = words.filter((w) => w.length >= 2).length;
  return named >= 0.7 * values.length && multiWord >= 0.7 * values.length ? named : undefined;
}

/** The postal codes of the states and territories of countries that have them, with the fewest a column needs. */
const STATE_CODE_SETS: ReadonlyArray<readonly [string, ReadonlySet<string>, number]> = [
  ['Australia', new Set('ACT NSW NT QLD SA TAS VIC WA'.split(' ')), 4],
  ['Canada', new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' ')), 4],
  ['the United States', new Set(US_STATE_CODES), 5],
];

const COUNTRY_CODE_SET: ReadonlySet<string> = new Set([...COUNTRY_CODES].filter((c) => c.length === 2));

/** A Latin name of one word with a capital, its authors and year after it if the source gives them (`Cernuella Schlüter, 1838`, `Gittenbergia Giusti, Castagnolo & Manganelli, 1985`, `(Müller, 1774)`). */
const TAXON_NAME = /^\p{Lu}\p{Ll}+(\s+\(?\p{Lu}[^()]*,\s*\d{4}\)?)?$/u;

/** A place's code written with its standard's name: `ISO_3166-2:BE`, `ISO 3166-1:FR`, `ISO3166-2:BE-VLG`. */
const ISO_3166_CODE = /^ISO[ _]?3166(-[12])?:[A-Z]{2}(-[A-Z0-9]{1,3})?$/i;

/** Ranks of the tree of life named alone. */
const RANK_NAME = /^(genus|genera|family|subfamily|tribe|order|phylum|kingdom|taxa|taxon|clade)$/;

/** An IPv4 address (four numbers up to 255) or an IPv6 address (hexadecimal groups joined by colons). */
function ipAddress(text: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) return v4.slice(1).every((p) => Number(p) <= 255);
  // (Eight groups in full, or fewer around one `::`: a clock time, `13:25:00`, has neither.)
  if (text.includes('::')) return text.split('::').length === 2 && /^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){1,7}$/i.test(text) && /[0-9a-f]/i.test(text);
  return /^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$/i.test(text);
}

/** Items joined by a pipe with no space around it (`Device: DBT|Device: DM`): " | " is punctuation in a title. */
const PIPE_JOIN = /[^|\s]\|[^|\s]/;

/** At least two sampled cells, and one in ten, join items with a bare pipe. */
export function pipeJoined(sample: readonly unknown[]): boolean {
  const texts = sample.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const joined = texts.filter((v) => PIPE_JOIN.test(v)).length;
  return texts.length >= 5 && joined >= Math.max(2, 0.1 * texts.length);
}

function presentTexts(e: ColumnEvidence): string[] {
  return ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !isMissingText(v));
}

/** Every sampled number is a whole or a half (`3`, `250.5`). */
function halfSteps(e: ColumnEvidence): boolean {
  const values = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v): v is number => typeof v === 'number');
  return values.length > 0 && values.every((v) => Number.isInteger(2 * v));
}

/** Every present value is a whole number, written as a number or as text (beside placeholders such as `NA`). */
function wholeNumbersWritten(e: ColumnEvidence): boolean {
  const values = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v) => v !== null && !(typeof v === 'string' && (v.trim() === '' || isMissingText(v))));
  return values.length > 0 && values.every((v) => (typeof v === 'number' ? Number.isInteger(v) : /^\s*-?\d+\s*$/.test(String(v))));
}

/** The range of a column of whole numbers, stored as integers or as text beside placeholders (`NA`). */
/**
 * Whole numbers 1…k (3 ≤ k ≤ 50) with none missing, each at most about as common as the one before and the last far
 * rarer than the first (a mother's 1st … 9th larva: 253, 242, 238 … 1): positions in sequences that end at different
 * lengths. Returns k.
 */
function sequenceLength(e: ColumnEvidence): number | undefined {
  if (e.column.type !== 'integer') return undefined;
  const values = ((e as EvidenceWithSample).sample ?? []).filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  if (values.length < 50) return undefined;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const k = Math.max(...counts.keys());
  if (Math.min(...counts.keys()) !== 1 || k < 3 || k > 50 || counts.size !== k) return undefined;
  for (let i = 1; i < k; i++) if (counts.get(i + 1)! > counts.get(i)! * 1.1 + 1) return undefined;
  return counts.get(1)! >= 2 * counts.get(k)! ? k : undefined;
}

function wholeSteps(e: ColumnEvidence): { min: number; max: number } | undefined {
  if (e.column.type === 'integer') return { min: num(e.column.min), max: num(e.column.max) };
  // Whole numbers written with a decimal point (`1.0`, as a data frame writes an integer column with gaps).
  if (e.column.type === 'real') {
    const values = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v): v is number => typeof v === 'number');
    return values.length > 0 && values.every((v) => Number.isInteger(v)) && Number.isInteger(num(e.column.min)) && Number.isInteger(num(e.column.max)) ? { min: num(e.column.min), max: num(e.column.max) } : undefined;
  }
  if (e.column.type !== 'text') return undefined;
  const values = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v) => v !== null && !(typeof v === 'string' && (v.trim() === '' || isMissingText(v))));
  const numbers = values.map((v) => (typeof v === 'number' ? v : /^\s*\d+(\.0+)?\s*$/.test(String(v)) ? Number(v) : NaN));
  if (numbers.length === 0 || numbers.some((v) => !Number.isInteger(v))) return undefined;
  return { min: Math.min(...numbers), max: Math.max(...numbers) };
}

/**
 * A few text values that each name a position in an order: an ordinal number (`1st`, `2nd`, `10th`) or the bin of a
 * ranking (`quintile`, `decile`). The count of distinct values when so, else undefined.
 */
function positionLabels(e: ColumnEvidence): number | undefined {
  const { column } = e;
  if (column.type !== 'text') return undefined;
  const { distinct } = present(e);
  if (distinct < 2 || distinct > 20) return undefined;
  const values = [...new Set(presentTexts(e).map((v) => v.trim().toLowerCase()))];
  if (values.length < 2) return undefined;
  const ordinalNumber = /(^|\s)\d{1,2}(st|nd|rd|th)(\s|$)/;
  const bin = new RegExp(`\\b(${[...QUANTILE_BIN_WORDS].join('|')})\\b`);
  return values.every((v) => ordinalNumber.test(v) || bin.test(v)) ? distinct : undefined;
}

/**
 * Text values that are steps of one scale, all but a value or two: classes numbered in Roman or Arabic figures
 * (`Class I`, `Class II` beside `Public Health Alert`), sizes counted in one unit (`1 ROOM` … `5 ROOM` beside
 * `EXECUTIVE`), or ranges of a number (`01 TO 03`, `04 TO 06`). Returns what they are, for the reason given.
 */
function scaleLabels(e: ColumnEvidence): string | undefined {
  if (e.column.type !== 'text') return undefined;
  const texts = e.allValues ? e.allValues.filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !isMissingText(v)) : presentTexts(e);
  const values = [...new Set(texts.map((v) => v.trim().toLowerCase().replace(/\s+/g, ' ')))];
  // Amounts of one thing by a quantifier (GTFS-RT's `MANY_SEATS_AVAILABLE`, `FEW_SEATS_AVAILABLE`, `NO_SEATS…`): steps
  // of how much of it there is.
  const quantified = values.map((v) => /^(many|few|some|no|most|more|less|fewer|several)[ _](.+)$/.exec(v));
  if (values.length >= 2 && values.length <= 8 && quantified.every((m) => m !== null) && new Set(quantified.map((m) => m![2])).size === 1) return `amounts of ${quantified[0]![2].replace(/_/g, ' ')} (${values.join(', ')})`;
  if (values.length < 3 || values.length > 30) return undefined;
  // How often, in a survey's answers (`never`, `heard_not_use`, `use_occasionally`, `use_regularly`): all but one
  // answer say it with an adverb of frequency, two of them at least.
  const often = values.map((v) => FREQUENCY_ADVERBS.exec(v)?.[1]).filter((w) => w !== undefined);
  if (values.length <= 8 && new Set(often).size >= 2 && often.length >= values.length - 1) return `answers of how often (${values.join(', ')})`;
  const numbered = values.map((v) => /^(class|grade|stage|level|tier|phase|category|cat) ([ivx]+|\d{1,2})$/.exec(v)).filter((m) => m !== null);
  if (numbered.length >= 2 && new Set(numbered.map((m) => m![1])).size === 1 && values.length - numbered.length <= 1) return `${numbered[0]![1]}es numbered ${numbered.map((m) => m![2].toUpperCase()).join(', ')}`;
  const counted = values.map((v) => /^(\d{1,2}) ([a-z]+)$/.exec(v)).filter((m) => m !== null);
  if (counted.length >= 3 && new Set(counted.map((m) => m![2])).size === 1 && new Set(counted.map((m) => m![1])).size === counted.length && values.length - counted.length <= 2) return `sizes counted in ${counted[0]![2]}s (${counted.map((m) => m![0]).slice(0, 3).join(', ')} …)`;
  // (A month and its year, `09-1986`, is no range.) Bounds are read with their thousands separators dropped and their
  // words spaced out (SteamSpy's `5,000,000 .. 10,000,000`; a price tier's `under5`, `5to15`, `over60`).
  // (…and so are a survey's brackets with their multipliers, `lt500k`, `500k_2m`, `gt50m`, `1_10`, `11_50`.)
  const multiplied = values.map((v) => v.replace(/(\d+(?:\.\d+)?)(k|m|bn)(?=_|$|to)/g, (_, n: string, x: string) => String(Number(n) * (x === 'k' ? 1e3 : x === 'm' ? 1e6 : 1e9))));
  const brackets = multiplied.map((v) => (/^\d+(\.\d+)?_\d+(\.\d+)?$/.test(v) ? v.replace('_', ' to ') : v.replace(/^(lt|gt)_?(?=\d)/, (w) => (w.startsWith('lt') ? 'under ' : 'over '))));
  const bracketed = brackets.some((v, at) => v !== values[at]);
  const spaced = (bracketed ? brackets : values).map((v) => v.replace(/(\d),(\d{3})(?=\D|$)/g, '$1$2').replace(/(\d),(\d{3})(?=\D|$)/g, '$1$2').replace(/\s*\.\.\s*/g, ' to ').replace(/([a-z])(\d)/g, '$1 $2').replace(/(\d)([a-z])/g, '$1 $2'));
  const bounds = (v: string) => v.split(/ ?(?:to|-|–) ?/).map(Number);
  const ranges = spaced.filter((v) => /^\d+(\.\d+)? ?(to|-|–) ?\d+(\.\d+)?$/.test(v) && bounds(v)[0] < bounds(v)[1] && !(bounds(v)[0] <= 31 && bounds(v)[1] >= 1000 && bounds(v)[1] <= 2100));
  // (…with a band open at either end, `<1` and `90+`, `under 5` and `85 and over`: the first and the last.)
  const openEnds = spaced.filter((v) => /^(<|>|≤|≥|<=|>=|under |over |below |above )\s?\d+(\.\d+)?$|^\d+ ?\+$|^\d+ (and|or) (over|older|more|above)$/.test(v));
  // (Two bands between two open ends, `lt2`, `2to5`, `5to10`, `gt10`, are a scale when nothing else is among them and
  // the bands do not overlap.)
  const disjoint = [...ranges].map(bounds).sort((a, b) => a[0] - b[0]).every((b, at, all) => at === 0 || b[0] >= all[at - 1][1]);
  const enclosed = ranges.length >= 2 && openEnds.length >= 1 && ranges.length + openEnds.length === values.length;
  const banded = ranges.length >= 3 && openEnds.length <= 2 && ranges.length + openEnds.length >= values.length - 1;
  if ((banded && (!bracketed || disjoint)) || (enclosed && disjoint)) return `ranges of a number (${[...openEnds.slice(0, 1), ...ranges].slice(0, 3).join(', ')} …)`;
  // Classes told by their bounds alone (a catchment's size `<10`, `<100`, `<1000`, `>1000` km²; a lake share `<01`,
  // `<05`, `<10`, `>10`): at least three bounds on one side, the last class open the other way.
  const below = spaced.filter((v) => /^(<|≤|<=|under |below )\s?\d+(\.\d+)?$/.test(v));
  const above = spaced.filter((v) => /^(>|≥|>=|over |above )\s?\d+(\.\d+)?$|^\d+ ?\+$/.test(v));
  const side = below.length >= above.length ? below : above;
  const boundOf = (v: string) => Number(/\d+(\.\d+)?/.exec(v)![0]);
  if (side.length >= 3 && new Set(side.map(boundOf)).size === side.length && Math.min(below.length, above.length) <= 2 && below.length + above.length >= values.length - 2) return `classes told by their bounds (${values.filter((v, at) => side.includes(spaced[at])).slice(0, 3).join(', ')} …)`;
  // Bands coded as their bounds (the EU's fleet data: a vessel length `VL0010` = 0–10 m, `VL1218`, `VL40XX` = 40 m
  // and over; a mesh size `16D20` = 16–20 mm, `100DXX`), with `NK` (not known) beside them: steps of one scale.
  // (Bands join up, one's upper bound another's lower, where codes of letters and four digits, `AB1234`, do not.)
  const bands = values.map((v) => {
    const m = /^([a-z]{0,3})(\d+)d(\d+|xx)$/.exec(v) ?? /^([a-z]{1,3})(\d\d)(\d\d|xx)$/.exec(v);
    return m !== null && (m[3] === 'xx' || Number(m[2]) < Number(m[3])) ? { v, prefix: m[1], low: Number(m[2]), high: m[3] === 'xx' ? undefined : Number(m[3]) } : undefined;
  }).filter((b) => b !== undefined);
  const coded = bands.map((b) => b.v);
  const closed = bands.filter((b) => b.high !== undefined);
  const joined = closed.filter((b) => bands.some((o) => o.low === b.high));
  const unknown = values.filter((v) => /^(nk|na|n\/a|unknown|other|all|none|-)$/.test(v));
  const shown = [...new Set(texts.map((v) => v.trim()))].filter((v) => coded.includes(v.toLowerCase()));
  if (coded.length >= 3 && new Set(bands.map((b) => b.prefix)).size === 1 && joined.length >= 2 && joined.length >= closed.length / 2 && coded.length + unknown.length >= values.length - 1) return `bands coded by their bounds (${shown.slice(0, 3).join(', ')} …)`;
  return undefined;
}

/** Named as prose (a `comment`, `remarks`, a `description`): its semicolons are sentences', not a list's. */
function proseName(n: Names): boolean {
  // (…also written after the name of whoever wrote them, as one word: OpenNGC's `nednotes`, `ongcnotes`.)
  return n.last !== undefined && (/^(comment|comments|remark|remarks|note|notes|description|desc)$/.test(n.last) || /^[a-z]{2,6}(notes|comments|remarks)$/.test(n.last));
}

/** `g cm3`, `mmhos cm`, `meq 100g`, `g protein kg soil` after a name's first word: one unit over another. */
function unitOverUnit(tokens: readonly string[]): string | undefined {
  for (let i = 1; i < tokens.length - 1; i++) {
    if (!AMOUNT_UNITS.test(tokens[i])) continue;
    const next = tokens[i + 1];
    const rest = (at: number) => tokens.length - at <= 2 && tokens.slice(at + 1).every((t) => /^[a-z]+$/.test(t) && !AMOUNT_UNITS.test(t) && !PER_UNITS.test(t));
    const pair = unitPair(tokens[i], next);
    if (pair && rest(i + 1)) return pair;
    const after = tokens[i + 2];
    if (after !== undefined && /^[a-z]{3,}$/.test(next) && !PER_UNITS.test(next) && PER_UNITS.test(after) && after !== tokens[i] && rest(i + 2)) return `${tokens[i]} ${next}/${after}`;
  }
  return undefined;
}

/** Nearly every value a number followed by x (`80.0x`, `30 x`; not a channel's `051X`, a code with a letter). */
function multiplesAsText(e: ColumnEvidence): boolean {
  if (e.column.type !== 'text') return false;
  const texts = presentTexts(e);
  return texts.length >= 5 && texts.filter((v) => /^\s*(0|[1-9]\d*)(\.\d+)?\s?[x×]\s*$/.test(v)).length >= 0.9 * texts.length;
}

/** Nearly every value a span in years and months (`59 years 11 months`, `94 years 01 month`, `61 years`). */
function yearsAndMonths(e: ColumnEvidence): boolean {
  if (e.column.type !== 'text') return false;
  const texts = presentTexts(e);
  // (Many different spans, some with their months: `3 year` and `5 year` are the labels of averaging periods.)
  return texts.length >= 20 && new Set(texts).size >= 10 && texts.filter((v) => /^\s*\d+\s+(years?|yrs?)(\s+\d+\s+months?)?\s*$|^\s*\d+\s+months?\s*$/i.test(v)).length >= 0.95 * texts.length && texts.filter((v) => /months?\s*$/i.test(v)).length >= 0.1 * texts.length;
}

/** Text values that are names for people to read (`Toy Story 2`, `Monsters, Inc.`): words, not codes. */
function humanNames(e: ColumnEvidence): boolean {
  const f = e.fingerprint;
  if (!(e.column.type === 'text' && f.sampled >= 5 && f.multiWord >= 0.3 && f.codeLike < 0.3 && f.meanLength >= 5 && f.meanLength <= 60 && f.dateLike < 0.5)) return false;
  // Names are capitalised (`Finding Nemo`); abbreviations of a code are not (`cono insa`).
  const sample = presentTexts(e);
  return sample.filter((v) => /(^|\s)[A-Z][a-z]/.test(v)).length >= 0.6 * sample.length;
}

/** A word of a person's name: capitalised (`Anna`, `O'Neil`, `Smith-Jones`) or in capitals (`CAPPELLINI`). */
const NAME_WORD = /^([A-Z][a-z'’.-]+|[A-Z]{2,})$/;

/**
 * Most sampled values are written as people's names are, every word capitalised (`Susan`, `Van Dyke`) — a sample's
 * customers drawn from forty first names still name people; `Social democracy` or `lib` do not.
 */
function shapedLikePeoplesNames(e: ColumnEvidence): boolean {
  const values = presentTexts(e);
  return values.length > 0 && values.filter((v) => v.trim().split(/\s+/).every((w) => NAME_WORD.test(w))).length >= 0.8 * values.length;
}

/** The sampled values are one token each with a digit in it (not prose, not a word). */
function codeShaped(e: ColumnEvidence): boolean {
  const present = presentTexts(e);
  return present.length > 0 && present.filter((v) => /^\S+$/.test(v.trim()) && /\d/.test(v)).length >= 0.9 * present.length;
}

/** Words a description calls a key by. */
const DESCRIBED_KEY_WORDS = new Set(['id', 'ids', 'identifier', 'identifiers', 'uuid', 'guid']);

/**
 * A dictionary that calls the column an identifier ("Comparative Manifestos Project party ID", "unique identifier for
 * each country"), early in its description and before any word of a quantity ("number of ids" counts them).
 */
/** Words before "number" that make it a quantity of physics, chemistry or counting, not a name. */
const NUMBERS_OF_SCIENCE = /^(atomic|mass|quantum|oxidation|coordination|mach|reynolds|wave|prandtl|nusselt|froude|weber|peclet|grashof|rossby|richardson|abbe|octane|cetane|iodine|acid|saponification|sunspot|wolf|reproduction|reproductive|condition|estimated|approximate|approx|total|overall|net|gross|mean|expected|effective|basic|magic)$/;

function describedIdentifier(described: readonly string[], description?: string): string | undefined {
  const head = described.slice(0, 10);
  // "School number", "County number", "Henry Draper Catalog Number": the number a thing is known by, where "number of
  // schools" counts them and "ADS number components" are the components. A phrase of the description (up to `=`, a
  // comma or a bracket) must end in it. Numbers of physics and chemistry (atomic, quantum, Reynolds, octane) and counts
  // (total, estimated, average) are quantities.
  // "Aitken's Double Star Catalog (ADS) designation": a catalogue's name for the row's thing.
  if (described.some((w) => w === 'catalog' || w === 'catalogue') && described.some((w) => w === 'designation' || w === 'identification' || w === 'entry')) return 'catalogue designation';
  for (const phrase of (description ?? '').split(/\s*[=,;:(]\s*|\.\s/)) {
    // "The number of the streetcar route": which route, where "the number of routes" counts them.
    const of = /^\s*the (number|code) of the ([a-z]+(?: [a-z]+){0,3})\s*\.?\s*$/i.exec(phrase);
    if (of) return `${of[2].split(' ').pop()!.toLowerCase()} ${of[1].toLowerCase()}`;
    const words = descriptionTokens(phrase);
    const ahead = words.slice(0, -1);
    if (words[words.length - 1] !== 'number' || ahead.length < 1 || ahead.length > 3) continue;
    if (ahead.some((w) => COUNT_WORDS.has(w) || ADDITIVE_WORDS.has(w) || NON_ADDITIVE_WORDS.has(w) || STATISTIC_WORDS.has(w) || NUMBERS_OF_SCIENCE.test(w))) continue;
    return `${ahead[ahead.length - 1]} number`;
  }
  // A compound of Swedish, German or Dutch whose last part is the number (`Huvudflodområdesnummer` "main river basin
  // number", `Biflödesnummer`, `Kundennummer`) opening the description: the number a thing is known by.
  const compound = /^\s*(\p{L}{4,}?)s?nummer(?!\p{L})/iu.exec(description ?? '');
  if (compound && !/^(an|anzahl|antal|aantal)$/i.test(compound[1])) return `${compound[1].toLowerCase()} number`;
  const at = head.findIndex((w) => DESCRIBED_KEY_WORDS.has(w));
  if (at < 0) return undefined;
  const before = head.slice(0, at);
  if (hasAny(before, COUNT_WORDS) || hasAny(before, ADDITIVE_WORDS) || hasAny(before, SEMI_ADDITIVE_WORDS) || hasAny(before, NON_ADDITIVE_WORDS) || before.includes('number') || before.includes('of')) return undefined;
  return head[at];
}

/** The words of a description as a reader reads it: a Markdown link by its text, not its address. */
const STOCK_LEVELS = /^(water|sea|river|lake|groundwater|tide|noise|sound|stock|inventory|energy|battery|fuel|tank|reservoir|snow)$/i;

function descriptionTokens(description: string): string[] {
  // "Geography-specific job postings": particular to each geography, no property per unit (specific heat); "entry-level
  // postings": a kind of posting, no level at a moment (a water level or a stock level is one).
  return textTokens(
    description
      .replace(/\]\([^)\s]*\)/g, ']')
      .replace(/<?\b(https?|ftp):\/\/\S+/gi, ' ')
      .replace(/\b([a-z]+)-specific\b/gi, '$1')
      .replace(/\b([a-z0-9]+)-levels?\b/gi, (compound: string, first: string) => (STOCK_LEVELS.test(first) ? compound : first)),
  );
}

/** Words that end the first phrase of a description ("The order in which…", "ECO classification"). */
const PHRASE_ENDS = new Set(['of', 'for', 'in', 'within', 'from', 'to', 'at', 'on', 'by', 'with', 'as', 'that', 'which', 'who', 'where', 'when', 'is', 'are', 'was', 'given', 'assigned', 'used', 'e', 'i', 'eg', 'ie', 'see', 'either']);
const POSITION_HEADS = new Set(['order', 'position', 'place', 'rank', 'ranking', 'sequence']);
const CATEGORY_HEADS = new Set(['classification', 'categorisation', 'categorization', 'categories', 'classes', 'types', 'kinds']);
const FILE_HEADS = new Set(['filename', 'filenames']);

/** The head word of a description's first phrase: its last word before a preposition or a clause ("the positional order" of …). */
function descriptionHead(described: readonly string[]): string | undefined {
  const words: string[] = [];
  for (const w of described) {
    if (PHRASE_ENDS.has(w)) break;
    if (!ARTICLES.has(w)) words.push(w);
  }
  if (words.length === 0 || words.length > 4) return undefined;
  const last = words[words.length - 1];
  // "file name" is one word.
  if (last === 'name' && words[words.length - 2] === 'file') return 'filename';
  return last;
}

/** Person-name words that only qualify a name. */
const NAME_QUALIFIERS = new Set(['first', 'last', 'middle', 'full', 'given', 'family']);
/** Parts of a person's name that are not the name itself: `Jr.`, `Dr.`, `Bernie`. */
const NAME_PARTS = new Set(['suffix', 'prefix', 'nickname', 'maiden', 'honorific']);
/** What a person belongs to or is to another: a party, a caucus, a kinship. */
const AFFILIATION_WORDS = new Set(['party', 'caucus', 'relation', 'relationship', 'kinship']);
/** Names of a scheme of classes (`congress_classifications`, `category_code` aside): what codes of classes are named. */
const CLASSIFICATION_WORDS = new Set(['classification', 'classifications', 'classes', 'categories']);
/** Words that place a value in an order (`low`, `advanced`, `senior`, `II`): levels that are steps. */
const ORDER_WORDS = /^(low|lower|lowest|medium|mid|middle|moderate|high|higher|highest|very|basic|beginner|novice|elementary|intermediate|advanced|expert|entry|junior|senior|primary|secondary|tertiary|upper|top|bottom|minor|major|severe|mild|critical|none|minimal|extreme|first|second|third|pre|post|graduate|undergraduate|postgraduate|bachelor|bachelors|master|masters|doctor|doctoral|doctorate|phd|diploma|certificate|degree|school|college|university|easy|hard|difficult|light|heavy|small|large|[a-e]|i{1,3}|iv|v|vi{0,3}|ix|x)$/i;

/** Stages of an animal's or a plant's life, in the order they are lived (`juvenile`, `subadult`, `adult`). */
const LIFE_STAGES = ['egg', 'eggs', 'embryo', 'larva', 'larvae', 'pupa', 'pupae', 'nymph', 'hatchling', 'nestling', 'chick', 'fledgling', 'cub', 'calf', 'fawn', 'pup', 'seedling', 'sapling', 'young', 'juvenile', 'immature', 'yearling', 'subadult', 'sub-adult', 'adult', 'mature', 'senescent'];

/** Levels of government or of geography: kinds of area or authority, not steps of an order. */
const ADMINISTRATIVE_TIERS = /^(national|regional|local|central|federal|state|provincial|municipal|county|district|ward|devolved|total|all|international|global|country|region|city|parish|constituency|local authority|other)$/i;
/** Networks whose accounts a column names by handle. */
const SOCIAL_ACCOUNT_WORDS = new Set(['twitter', 'facebook', 'instagram', 'youtube', 'mastodon', 'tiktok', 'linkedin', 'github', 'bluesky', 'threads', 'handle', 'screenname']);

/**
 * Tables of places as other languages name them (German `laender`, `kreise`; French `communes`, `departements`;
 * Spanish `provincias`, `municipios`): a table's name only, where a column's `land` would be land.
 */
const PLACE_TABLES_ABROAD: Record<string, GeoKind> = {
  laender: 'state', bundeslaender: 'state', bundeslander: 'state', regierungsbezirke: 'region', regionen: 'region', kreise: 'county', landkreise: 'county',
  gemeinden: 'city', gemeindeverbaende: 'county', gemeindeverbande: 'county', staedte: 'city', stadte: 'city',
  communes: 'city', departements: 'county', provincias: 'state', municipios: 'city', comunas: 'city', regiones: 'region', comuni: 'city', provincie: 'state', regioni: 'region',
  gemeenten: 'city', provincies: 'state', kommuner: 'city', fylker: 'state', voivodeships: 'state',
};

/** The place a table lists, from its name (`regions`, `countries.csv`, `us_states`). */
function placeOfTable(table: TableProfile): GeoKind | undefined {
  if (table.viewSql) return undefined;
  const tokens = nameTokens(table.originalName.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, ''));
  const last = tokens[tokens.length - 1];
  if (!last) return undefined;
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') ? last.slice(0, -1) : last;
  const kind = GEO_WORDS[last] ?? GEO_WORDS[singular] ?? PLACE_TABLES_ABROAD[last];
  return kind && kind !== 'latitude' && kind !== 'longitude' && kind !== 'address' && kind !== 'postal-code' ? kind : undefined;
}

/** Public services whose areas divide a country (a police force's divisions, a health board's area). */
const TERRITORIAL_SERVICES = new Set(['police', 'health', 'fire', 'ambulance', 'school', 'electoral', 'census', 'council']);

/** Who takes part in a contest: a country's name there is its team (`winner`, `first_shooter`, `opponent`). */
const PARTICIPANT_WORDS = new Set(['winner', 'winners', 'loser', 'losers', 'opponent', 'opponents', 'shooter', 'champion', 'champions', 'runner', 'finalist', 'side', 'squad', 'player', 'players', 'competitor', 'entrant']);

/** The kind of place a table is named for, by its own name's last word (`countries`, `states`, `cities`); else undefined. */
function placesOfTable(table: TableProfile): 'country' | 'state' | 'county' | 'city' | undefined {
  const last = nameTokens(table.originalName.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '')).at(-1);
  const kind = last !== undefined && last !== singularOf(last) ? GEO_WORDS[singularOf(last)] : undefined;
  return kind === 'country' || kind === 'state' || kind === 'county' || kind === 'city' ? kind : undefined;
}

/** A table whose name says its rows are places: `… by local authority`, `… across council areas`, `regional_…`. */
function tableOfPlaces(table: TableProfile): boolean {
  // A sheet is named by its workbook too.
  const tokens = [table.originalName, table.sourceFile].flatMap((name) => nameTokens(name.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '')));
  return tokens.some((t, at) => {
    if (t === 'authority') return tokens[at - 1] === 'local';
    // A table of sites or stations lists places where things were observed.
    if (at === tokens.length - 1 && /^(sites|stations|localities|locations)$/.test(t)) return true;
    const kind = GEO_WORDS[singularOf(t)];
    return kind === 'country' || kind === 'state' || kind === 'county' || kind === 'city' || (kind === 'region' && !/^(area|location)s?$/.test(t));
  });
}

/**
 * The kind of place a unique code beside a name-column keys its table by (`local_authority_code`, `country_id`,
 * `region_cd`), when the name is nearly one per row too; undefined otherwise.
 */
function placeKeyBeside(e: ColumnEvidence): GeoKind | undefined {
  const { column, table } = e;
  const rows = table.rowCount * (1 - column.nullFraction);
  if (table.rowCount < 10 || column.distinctCount < 0.95 * rows) return undefined;
  for (const other of table.columns) {
    if (other === column || !other.candidateKey) continue;
    const tokens = nameTokens(other.originalName || other.name);
    const last = tokens[tokens.length - 1];
    // A code of a census area alone (`fips`, `fipsno`, `geoid`, one per county): the rows are areas.
    // (Five digits of FIPS, 37001, are a county's; two, 37, a state's.)
    if (tokens.length === 1 && /^(fips|fipsno|fips_code|geoid|nuts|gss)$/.test(last)) return /^fips/.test(last) ? (Number(other.max) >= 1000 || String(other.samples[0] ?? '').length >= 5 ? 'county' : 'state') : 'region';
    if (tokens.length < 2 || !['code', 'id', 'cd', 'gss', 'key', 'iso'].includes(last)) continue;
    const stem = tokens.slice(0, -1);
    if (stem.join(' ') === 'local authority' || stem.join(' ') === 'la') return 'region';
    const kind = GEO_WORDS[singularOf(stem[stem.length - 1])];
    if (kind === 'country' || kind === 'state' || kind === 'county' || kind === 'city' || kind === 'region') return kind;
  }
  return undefined;
}

/**
 * Values that are all the same number (2 or 3) of short codes (no spaces, at most 8 characters, a letter in each
 * value) joined by one of `|`, `;`, `/`: a compound code, not a list (lists vary in length; `3/4` is a number).
 * The number of parts, when so.
 */
function compoundCode(e: ColumnEvidence): number | undefined {
  if (e.column.type !== 'text') return undefined;
  const values = presentTexts(e).map((v) => v.trim());
  if (values.length < 10) return undefined;
  for (const separator of ['|', ';', '/']) {
    const parts = values.map((v) => v.split(separator));
    const count = parts[0].length;
    if (count < 2 || count > 3 || !parts.every((p) => p.length === count && p.every((x) => x !== '' && x.length <= 8 && !/\s/.test(x)) && p.some((x) => /\p{L}/u.test(x)))) continue;
    return count;
  }
  return undefined;
}

/** The separator of lists written in two orders, among the distinct values (few) or the sample (more); undefined if none. */
function reorderedLists(e: ColumnEvidence): string | undefined {
  if (e.column.type !== 'text' || e.column.distinctCount > 200) return undefined;
  return e.fingerprint.reorderedList ?? reorderedListSeparator(presentTexts(e));
}

/** Separators of lists in one cell, and how many items most lists so joined hold (hyphens join words too: three). */
const LIST_SEPARATORS: Array<{ separator: string; split: RegExp; items: number }> = [
  { separator: ';', split: /\s*;\s*/, items: 2 },
  { separator: '|', split: /\s*\|\s*/, items: 2 },
  { separator: ',', split: /\s*,\s*/, items: 3 },
  { separator: '-', split: /\s*-\s*/, items: 3 },
];

/**
 * Cells that list items which recur across rows: most present values (60%) hold two items or more, many of those
 * (30%) hold the separator's usual count, the items are short words (not numbers), the distinct items are at
 * most half of all the items written, and an item recurs half as often again as a whole value does. Free text split at its commas gives
 * fragments that hardly recur; a category written `A-B` repeats whole values, not items.
 */
function recurringItems(e: ColumnEvidence): { separator: string; share: number; items: number } | undefined {
  if (e.column.type !== 'text' || e.column.distinctCount <= 20) return undefined;
  const values = presentTexts(e);
  if (values.length < 20) return undefined;
  for (const { separator, split, items } of LIST_SEPARATORS) {
    const lists = values.map((v) => v.split(split).map((p) => p.trim()).filter((p) => p !== ''));
    const multi = lists.filter((l) => l.length >= 2);
    if (multi.length < 0.6 * values.length || multi.filter((l) => l.length >= items).length < 0.3 * multi.length) continue;
    const all = lists.flat();
    const short = all.filter((p) => /^\p{L}/u.test(p) && p.length <= 40 && p.split(/\s+/).length <= 5).length;
    if (short < 0.9 * all.length) continue;
    const distinctItems = new Set(all.map((p) => p.toLowerCase())).size;
    const distinctValues = new Set(values.map((v) => v.trim().toLowerCase())).size;
    // Items recur more than whole values do.
    if (distinctItems > 0.5 * all.length || all.length / distinctItems <= 1.5 * (values.length / distinctValues)) continue;
    if (qualifiedNames(multi)) continue;
    return { separator, share: multi.length / values.length, items: distinctItems };
  }
  return undefined;
}

/**
 * Names qualified after a comma (`Brie, hvitmuggost`, `Kylling, filet, rå`): the words that open a value (what the
 * thing is, twenty or more of them) are hardly ever the words that follow (how it is made or kept), where the items of
 * a list take any place (`Action, Comedy`, `Comedy, Drama`). Under 15% of the smaller side shared; three parts or
 * fewer in most values.
 */
function qualifiedNames(lists: readonly string[][]): boolean {
  // (Lists of a few categories in one fixed order, `Benzin,Diesel,Elektrisch,…`, open with few words and run long.)
  if (lists.filter((l) => l.length <= 3).length < 0.7 * lists.length) return false;
  const first = new Set(lists.map((l) => l[0].toLowerCase()));
  if (first.size < 20) return false;
  const later = new Set(lists.flatMap((l) => l.slice(1).map((p) => p.toLowerCase())));
  let shared = 0;
  for (const item of first) if (later.has(item)) shared++;
  return shared < 0.15 * Math.min(first.size, later.size);
}

/** Words after `name` that say which of a thing's names it is (short, official, in English). */
const NAME_VARIANTS = new Set(['short', 'long', 'full', 'official', 'common', 'local', 'native', 'display', 'ascii', 'en', 'english', 'abbr', 'abbreviated']);

/** Words after a coordinate that say which end of a line or which hemisphere (`latitude_start_n`). */
const COORDINATE_ENDS = new Set(['start', 'end', 'begin', 'stop', 'from', 'to', 'origin', 'dest', 'n', 's', 'e', 'w', 'north', 'south', 'east', 'west']);

/** Statistics of coordinates after their name (`lat_mean`, `lon_min`). */
const COORDINATE_STATISTICS = new Set(['mean', 'avg', 'average', 'median', 'min', 'max', 'centroid', 'center', 'centre']);

/** Addresses that are no place: of a machine on a network, of a mailbox, of a wallet. */
const MACHINE_ADDRESS_WORDS = new Set(['mac', 'ip', 'ipv4', 'ipv6', 'email', 'mail', 'web', 'hardware', 'wallet', 'contract', 'server', 'host', 'memory', 'bluetooth', 'ble', 'wifi']);

/** How coordinates are written, after their name: degrees, decimal degrees, a datum (`lat_dd83`: decimal degrees on NAD83). */
const COORDINATE_UNITS = new Set(['deg', 'degs', 'degrees', 'dd', 'decdeg', 'decdegs', 'ddeg', 'decimal', 'wgs84', 'wgs', 'rad', 'nad83', 'nad27', 'dd83', 'dd27', 'etrs89', 'gda94', 'gda2020']);

/** What a `state` holds when it is the condition of a thing, not a place. */
const CONDITION_WORDS = /^(open|opened|closed|merged|draft|pending|active|inactive|commented|approved|dismissed|changes[_ ]requested|rejected|accepted|resolved|new|done|failed|failure|success|succeeded|error|running|stopped|queued|cancell?ed|complete|completed|in[_ ]progress|rising|falling|ebb|flood|slack|high|low|calm|rough|on|off|enabled|disabled|locked|unlocked|solid|liquid|gas)$/i;

/** Whether a column of a nested record (`uploader.url`) has beside it the record's key (`uploader.login`, `uploader.id`) with as many values. */
function linksOfNestedRecord(e: ColumnEvidence, distinct: number): boolean {
  const name = e.column.originalName || e.column.name;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  const prefix = name.slice(0, dot + 1);
  return e.table.columns.some((c) => {
    const other = c.originalName || c.name;
    return c !== e.column && other.startsWith(prefix) && /^(id|login|key|name|username|slug)$/i.test(other.slice(prefix.length)) && c.distinctCount === distinct;
  });
}

/**
 * URLs that link a term written beside them in words (`purl_biome` beside `env_biome`: an ontology term's address beside
 * its label), no more values than the words: the term's address, not a grouping of their own. Named by the same last
 * word as the words' column (a number after it aside: `purl_feature2`).
 */
function linksOfNamedTerm(e: ColumnEvidence, distinct: number): boolean {
  const last = nameTokens(e.column.originalName || e.column.name).filter((t) => !/^\d+$/.test(t)).at(-1)?.replace(/\d+$/, '');
  if (!last) return false;
  return e.table.columns.some((c) => c !== e.column && c.type === 'text' && nameTokens(c.originalName || c.name).at(-1) === last && c.distinctCount >= distinct && !c.samples.some((v) => typeof v === 'string' && /^https?:\/\//i.test(v.trim())));
}

/** The place a description is about: its head word ("Region", "Country of reference") or what it names or codes ("Name of the region"). */
function describedPlace(described: readonly string[]): (typeof GEO_WORDS)[string] | undefined {
  // ("Geographic Region", "Geographical area": the place, said to be one.)
  const words = described.filter((w) => !ARTICLES.has(w)).filter((w, at) => at > 0 || !/^geographic(al)?$/.test(w));
  if (words.length === 0 || words.length > 8) return undefined;
  // The place must be what is described ("Country of reference", "State where …", "County name"), not a word of
  // something else ("Ground state electronic configuration").
  const first = GEO_WORDS[words[0]];
  const after = words[1];
  if (first && (after === undefined || /^(of|in|where|which|that|name|names|code|codes|or|and|id|abbreviation|abbr|iso|for|at|fips|number|level|the)$/.test(after))) return first;
  // "Longitude degrees", "Latitude minutes": a coordinate written in parts (degrees, minutes, seconds), each a part of it.
  if ((first === 'latitude' || first === 'longitude') && /^(degrees?|deg|minutes?|min|seconds?|sec)$/.test(after ?? '') && words.length <= 4) return first;
  if (['name', 'code', 'abbreviation', 'abbr', 'iso'].includes(words[0]) && words[1] === 'of') return GEO_WORDS[words[2]];
  // "Galactic longitude", "Geodetic latitude": a coordinate in another frame is still a coordinate.
  if (/^(galactic|ecliptic|celestial|geographic|geographical|geodetic|geocentric|supergalactic)$/.test(words[0]) && (words[1] === 'latitude' || words[1] === 'longitude')) return words[1];
  // "X coordinate for the center of the local authority", "Y coordinate of the centroid": a point on a map grid
  // (eastings and northings), where a thing is.
  if ((words[0] === 'x' || words[0] === 'y') && /^coordinates?$/.test(words[1] ?? '') && words.slice(2).some((w) => /^(cent(er|re)|centroid|location|point|site|place|authority|area|boundary|station)s?$/.test(w))) return words[0] === 'x' ? 'longitude' : 'latitude';
  return undefined;
}

/** A word for a coordinate, in English and the languages of official registers (Swedish `koordinat` and its compounds, `mynningskoordinat`). */
const COORDINATE_WORD = /koordinat|^co-?ordinates?$|^coordonn[ée]es?$|^coordenadas?$|^coordinat[ae]$|^koordinaatti/;
const WKT = /^\s*(SRID=\d+;\s*)?(POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION|CIRCULARSTRING|TRIANGLE|TIN)\s*(Z|M|ZM)?\s*(\(|EMPTY\b)/i;
const CRS_WKT = /^\s*(GEOGCS|PROJCS|GEOCCS|COMPD_CS|VERT_CS|LOCAL_CS|GEOGCRS|PROJCRS|GEODCRS|BOUNDCRS|COMPOUNDCRS|VERTCRS)\s*\[/;
const GEOJSON = /^\s*\{\s*"type"\s*:\s*"(Point|LineString|Polygon|MultiPoint|MultiLineString|MultiPolygon|GeometryCollection|Feature)"/;

// ---- the rules, in order ----------------------------------------------------------------------------------------

const RULES: Rule[] = [
  // A `location` written as a whole number (sensor.community's `location` 3121 beside the sensor's `lat` and `lon`):
  // the number of a site's record, not a place's name or an area's code.
  (e, n) => {
    const { column, table } = e;
    if (column.type !== 'integer' || n.tokens.length !== 1 || n.tokens[0] !== 'location' || column.min === undefined || num(column.min) < 0) return undefined;
    const names = table.columns.map((c) => (c.originalName || c.name).toLowerCase());
    if (!names.some((c) => /^(lat|latitude)$/.test(c)) || !names.some((c) => /^(lon|lng|long|longitude)$/.test(c))) return undefined;
    return { role: 'identifier', rule: 'identifier:location-number', confidence: 0.6, why: `named ${column.originalName || column.name}, whole numbers (${column.min}–${column.max}) beside a latitude and a longitude: the number of a site's record`, identifier: 'code' };
  },
  // The code of each item of a list of places (JMA's `int[].city[].code` 1738400, the municipality where shaking was
  // observed): the place's code.
  (e, n) => {
    const { column, table } = e;
    if (!table.parent || column.binary || !/^(code|cd|id)$/.test(n.tokens.join('_'))) return undefined;
    const item = nameTokens(table.originalName || table.name).at(-1) ?? '';
    const kind = GEO_WORDS[item];
    if (!kind || kind === 'latitude' || kind === 'longitude' || kind === 'address') return undefined;
    return { role: 'geo', rule: 'geo:listed-place-code', confidence: 0.65, why: `the ${n.tokens[0]} of each ${item} the records list: the place's code`, geo: kind };
  },
  // The tags a JSON record lists (the World Bank's `sector_namecode`: [{"code": "JB", "name": "Primary education"},
  // …]): a bare `code` or `name` of an array's items, each value on many records, is the code or the name of a
  // category, whatever its values look like ("8", "JB").
  (e, n) => {
    const { column, table } = e;
    if (!table.parent || column.binary || !/^(code|name)$/.test(n.tokens.join('_'))) return undefined;
    const rows = table.rowCount * (1 - column.nullFraction);
    if (column.distinctCount < 2 || column.distinctCount > 200 || rows < 4 * column.distinctCount) return undefined;
    // (Names written as paths or tags, `cmssw/cmssw:CMSSW_5_3_32`, are no words of a category.)
    const texts = presentTexts(e);
    if (texts.filter((v) => /[/:\\]/.test(v)).length >= 0.5 * texts.length) return undefined;
    return { role: 'dimension', rule: 'dimension:listed-category', confidence: 0.6, why: `the ${n.tokens[0]} of the items each record lists: ${column.distinctCount} values over ${Math.round(rows)} items, a category` };
  },
  // Binary data first: nothing else can be said of bytes.
  (e, n) => {
    const { column } = e;
    const declared = (column.declaredType ?? '').toUpperCase();
    const f = e.fingerprint;
    if (column.binary && !(f.textInBlobs >= 0.8 && (f.json >= 0.8 || f.multiWord >= 0.5))) return { role: 'binary', rule: 'binary:blob-values', confidence: 0.99, why: 'the stored values are BLOBs' };
    // A declaration says less than the values: Firebird's `BLOB SUB_TYPE TEXT` holds text.
    if (/BLOB|BYTEA|BINARY|IMAGE/.test(declared) && !/TEXT|CHAR|CLOB/.test(declared) && e.fingerprint.sampled === 0) return { role: 'binary', rule: 'binary:declared', confidence: 0.9, why: `declared ${column.declaredType}` };
    if (e.fingerprint.base64 >= 0.8) return { role: 'binary', rule: 'binary:base64', confidence: 0.85, why: 'values are long base64 strings' };
    if (e.fingerprint.controlChars >= 0.5) return { role: 'binary', rule: 'binary:control-characters', confidence: 0.8, why: `${Math.round(e.fingerprint.controlChars * 100)}% of values hold control characters: bytes (a geometry, a packed record) read as text` };
    // Hexadecimal strings of one length, 32, 40 or 64 digits (`2BE29FA780804D849B3A6D847665B018`, a GUID or a hash
    // written out): a record's key, not bytes; longer ones, or of many lengths, are encoded bytes (a geometry).
    const hexLength = e.fingerprint.hex >= 0.9 ? hexKeys(e) : undefined;
    if (hexLength && !/^(password|passwd|pwd|secret|salt|signature)$/.test(n.last ?? '')) return { role: 'identifier', rule: 'identifier:hex-keys', confidence: 0.75, why: `values are hexadecimal strings of ${hexLength} digits: GUIDs or hashes that name records`, identifier: column.candidateKey ? 'primary-key' : 'code' };
    // Random tokens of one length in letters of both cases and digits (`F/6MQogm4SruoS1iHbVwBrp7bVAGMrci`, a person's
    // id hashed to hide it), or ORCID iDs (`0000-0002-1825-0097`): they name who, not what.
    const tokens = presentTexts(e).map((v) => v.trim());
    const mixed = tokens.filter((v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v)).length;
    if (tokens.length >= 3 && new Set(tokens.map((v) => v.length)).size <= 3 && tokens.every((v) => /^[A-Za-z0-9+/=_-]{16,64}$/.test(v)) && mixed >= 0.9 * tokens.length) {
      return { role: 'identifier', rule: 'identifier:opaque-tokens', confidence: 0.65, why: `values are random tokens of letters of both cases and digits (${tokens[0].length} long): ids, hashed or generated`, identifier: column.candidateKey ? 'primary-key' : 'code' };
    }
    if (tokens.length >= 1 && tokens.every((v) => /^(https?:\/\/orcid\.org\/)?\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(v))) return { role: 'identifier', rule: 'identifier:orcid-values', confidence: 0.8, why: `values are ORCID iDs (${tokens[0]}): who the row is by`, identifier: 'code' };
    if (e.fingerprint.hex >= 0.9) return { role: 'binary', rule: 'binary:hex', confidence: 0.8, why: 'values are long hexadecimal strings (hashes or encoded bytes)' };
    if (column.nullFraction === 1 && n.last && BINARY_WORDS.has(n.last) && !(e.dictionary && YES_NO_DESCRIPTION.test(e.dictionary.description))) return { role: 'binary', rule: 'binary:name', confidence: 0.5, why: `empty, named ${column.name}` };
    return undefined;
  },
  // Generated keys of nested JSON: the loader made them to link child rows to their parent.
  (e) => {
    const name = e.column.name;
    if (name === '_row_id') return { role: 'identifier', rule: 'identifier:nested-row-id', confidence: 1, why: 'the key the loader gives a record whose nested arrays became child tables', identifier: 'primary-key' };
    if (name === '_parent_row_id') return { role: 'identifier', rule: 'identifier:nested-parent-id', confidence: 1, why: 'links a nested array item to its parent record', identifier: 'foreign-key' };
    return undefined;
  },
  // Shapes on the earth written for machines: WKT (`LINESTRING(-77.28 38.81, …)`, `POINT(…)`) or GeoJSON geometries.
  (e) => {
    if (e.column.type !== 'text') return undefined;
    const values = presentTexts(e);
    if (values.length === 0) return undefined;
    const wkt = values.filter((v) => WKT.test(v)).length;
    const geojson = values.filter((v) => GEOJSON.test(v)).length;
    // A coordinate in degrees, minutes and seconds (`+44° 40′ 22″`, `40°26'46"N`), or a right ascension in hours,
    // minutes and seconds (`00h 05m 09.9s`) where the name or the dictionary says so: a position.
    const dms = values.filter((v) => /^\s*[-+]?\d{1,3}\s*°\s*\d{1,2}\s*[′']\s*(\d{1,2}(\.\d+)?\s*[″"])?\s*[NSEW]?\s*$/.test(v)).length;
    const said = `${e.column.name} ${e.dictionary?.description ?? ''}`.toLowerCase();
    const hms = /ascension|\bra\b/.test(said) ? values.filter((v) => /^\s*\d{1,2}h\s*\d{1,2}m\s*\d{1,2}(\.\d+)?s\s*$/.test(v)).length : 0;
    if (Math.max(dms, hms) >= 0.9 * values.length) {
      const latitude = hms === 0 && /lat|declination|\bdec\b|[NS]\s*$/.test(said + ' ' + values[0]);
      return { role: 'geo', rule: 'geo:sexagesimal', confidence: 0.7, why: `values are ${hms > 0 ? 'hours, minutes and seconds of right ascension' : 'degrees, minutes and seconds'} (${values[0].trim()}): a position`, geo: latitude ? 'latitude' : 'longitude' };
    }
    // A point as a pair of numbers in an array (`latlng` `[28.0, 84.0]`, `[]` where it is not known): a place, named so.
    // (Named in French, Spanish or German too: Paris's `coordonnees_geo`, `[48.84, 2.39]`.)
    if (/^(lat_?lng|lat_?lon|lat_?long|lon_?lat|lng_?lat|coords|latlong|location|point|geo_?point(_2d)?|(coordinates|coordonn[ée]es|coordenadas|koordinaten)(_geo)?)$/i.test(e.column.name.replace(/^.*[.]/, '')) && values.some((v) => v.trim() !== '[]') && values.every((v) => /^\s*\[\s*(-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*)?\]\s*$/.test(v))) {
      return { role: 'geo', rule: 'geo:coordinate-pair', confidence: 0.8, why: `named ${e.column.name}, pairs of numbers (${values[0].trim()}): a point's coordinates`, geo: 'geometry' };
    }
    // A bounding box (`bbox` `[-88.1, 41.6, -87.5, 42.1]`, a STAC item's `proj_bbox` in metres) or a shape's coordinates
    // as nested arrays of numbers (GeoJSON's `geometry.coordinates` `[[[-87.6, 41.8], …]]`): where the thing lies.
    if (/(^|_)(bbox|bounding_?box|bounds|extent)$|^coordinates$/i.test(e.column.name.replace(/^.*[.]/, '')) && values.every((v) => /^\s*\[[\s\d.,eE+\-[\]]*\]\s*$/.test(v) && /\d/.test(v))) {
      return { role: 'geo', rule: 'geo:coordinate-arrays', confidence: 0.75, why: `named ${e.column.name}, arrays of numbers (${values[0].trim().slice(0, 24)}…): a box or a shape's coordinates`, geo: 'geometry' };
    }
    // A coordinate reference system in well-known text (`GEOGCS["NAD27", DATUM[…]]`, `PROJCS[…]`): a definition, not a shape.
    if (values.every((v) => CRS_WKT.test(v))) return { role: 'structured', rule: 'structured:crs-wkt', confidence: 0.85, why: `values are coordinate reference systems in well-known text (${values[0].slice(0, 24)}…)`, structured: 'crs' };
    if (Math.max(wkt, geojson) < 0.9 * values.length) return undefined;
    return { role: 'geo', rule: wkt >= geojson ? 'geo:wkt-values' : 'geo:geojson-values', confidence: 0.9, why: `values are ${wkt >= geojson ? 'WKT' : 'GeoJSON'} geometries (${values[0].slice(0, 24)}…)`, geo: 'geometry' };
  },
  // A copyright notice (`Copyright (C) 2012 …`, `© RIKEN`): text for people, however often it repeats. A DOI
  // (`10.7483/OPENDATA.CMS.A342.9982`) is the key of the work it names, though written like a path.
  (e) => {
    if (e.column.type !== 'text') return undefined;
    const values = presentTexts(e).map((v) => v.trim());
    if (values.length === 0) return undefined;
    if (values.every((v) => /^(copyright\b|©|\(c\)\s)/i.test(v))) return { role: 'text', rule: 'text:copyright', confidence: 0.7, why: `values are copyright notices (${values[0].slice(0, 30)}): text for people` };
    if (values.length >= 3 && values.every((v) => /^10\.\d{4,9}\/\S+$/.test(v))) return { role: 'identifier', rule: 'identifier:doi-values', confidence: 0.75, why: `values are DOIs (${values[0]}): keys of the works they name`, identifier: 'code' };
    return undefined;
  },
  // Chemistry written for machines: structures as InChI strings (`InChI=1S/…`), SMILES or molecular formulae in Hill
  // notation (`C7H6O4`), and the hashed keys that identify a structure (an InChIKey) or a spectrum (a SPLASH).
  (e, n) => {
    if (e.column.type !== 'text') return undefined;
    const values = presentTexts(e).map((v) => v.trim());
    if (values.length < 3) return undefined;
    const every = (pattern: RegExp) => values.every((v) => pattern.test(v));
    if (every(/^InChI=1S?\//)) return { role: 'structured', rule: 'structured:chemical-notation', confidence: 0.85, why: `values are InChI strings (${values[0].slice(0, 24)}…): a chemical structure`, structured: 'chemical' };
    if (n.tokens.includes('smiles') && every(/^[A-Za-z0-9@+\-[\]()=#$\\/%.:*]+$/)) return { role: 'structured', rule: 'structured:chemical-notation', confidence: 0.75, why: `named ${e.column.name}, values are SMILES strings: a chemical structure`, structured: 'chemical' };
    if (hasAny(n.tokens, new Set(['formula', 'formulae', 'formulas'])) && every(/^(\[?[A-Z][a-z]?\d*\]?){2,}([+-]\d*)?$/) && values.some((v) => /\d/.test(v))) {
      return { role: 'structured', rule: 'structured:chemical-formula', confidence: 0.7, why: `named ${e.column.name}, values are molecular formulae (${values[0]})`, structured: 'chemical' };
    }
    if (every(/^[A-Z]{14}-[A-Z]{8}[SN][A-Z]-[A-Z]$/)) return { role: 'identifier', rule: 'identifier:structure-hash', confidence: 0.8, why: `values are InChIKeys (${values[0]}): hashes that identify a chemical structure`, identifier: 'code' };
    if (every(/^splash\d{2}-[a-z0-9]{4}-[a-z0-9]{10}-[a-z0-9]{20}$/)) return { role: 'identifier', rule: 'identifier:spectrum-hash', confidence: 0.8, why: `values are SPLASH hashes (${values[0]}): keys that identify a spectrum's peaks`, identifier: 'code' };
    return undefined;
  },
  // The value of a table of settings, one per key (sport.db's `props`: `db.schema.version` 0.4.3, … 1): each row's value
  // is of its own kind, a version here, a flag there, whatever most look like: text, nothing to add up or group by.
  (e) => {
    if (e.column.type !== 'text' || !/^(value|val|setting_value|property_value)$/i.test(e.column.originalName || e.column.name)) return undefined;
    const key = e.table.columns.find((c) => c !== e.column && c.candidateKey && c.type === 'text' && /^(key|name|property|setting|option|param|parameter)$/i.test(c.originalName || c.name));
    if (!key) return undefined;
    return { role: 'text', rule: 'text:setting-values', confidence: 0.55, why: `the value of each setting named by ${key.name}, one per row: a record of settings, each value of its own kind, read as text` };
  },
  // Programs kept in a cell (a job's shell script, a configuration in Python): code for machines, not text for people.
  (e) => {
    if (e.column.type !== 'text' || e.fingerprint.meanLength < 80) return undefined;
    const values = presentTexts(e);
    const programs = values.filter((v) => v.includes('\n') && (/^#!\s*\//.test(v.trimStart()) || /^\s*(import [\w.]+|from [\w.]+ import |def \w+\(|#include\s*<|(export )?[A-Z_][A-Z0-9_]*=\S|set -e)/m.test(v))).length;
    if (values.length < 3 || programs < 0.8 * values.length) return undefined;
    return { role: 'structured', rule: 'structured:code', confidence: 0.65, why: `${programs} of ${values.length} values are programs (scripts or configurations): code`, structured: 'code' };
  },
  (e, n) => {
    const f = e.fingerprint;
    if (e.column.type !== 'text') return undefined;
    if (f.sampled === 0) {
      const named = n.last ? STRUCTURED_WORDS[n.last] : undefined;
      return named && named !== 'list' ? { role: 'structured', rule: `structured:${named}-name`, confidence: 0.4, why: `empty, named ${e.column.name}` } : undefined;
    }
    const kinds: Array<[StructuredKind, number]> = [
      ['email', f.email],
      ['url', f.url],
      ['json', f.json],
      ['path', f.path],
    ];
    const [kind, share] = kinds.sort((a, b) => b[1] - a[1])[0];
    const texts = presentTexts(e);
    // Object identifiers (ISO/ITU OIDs, `1.2.246.586.1.39.119036`: an arc from 0, 1 or 2 and six numbers or more) name
    // a registered thing (a timetable place, a code system), like any key.
    if (texts.length >= 1 && texts.every((v) => /^[0-2](\.\d+){5,}$/.test(v.trim()))) {
      return { role: 'identifier', rule: 'identifier:object-identifiers', confidence: 0.7, why: `values are object identifiers (${texts[0].trim()}…)`, identifier: 'code' };
    }
    // X.500 distinguished names (`CN=news.ycombinator.com,O=Y Combinator\, Inc.,C=US`, a certificate's subject or
    // issuer; `uid=jdoe,ou=people,dc=example,dc=org` in a directory): attributes packed for machines.
    if (texts.length >= 1 && texts.every((v) => /^(CN|OU|O|L|ST|C|DC|UID|E)=[^=]+(?<!\\),\s*(CN|OU|O|L|ST|C|DC|UID|E)=/i.test(v.trim()))) return { role: 'structured', rule: 'structured:distinguished-names', confidence: 0.65, why: `values are X.500 distinguished names (${texts[0].trim().slice(0, 40)}…)`, structured: 'list' };
    // Internet addresses (`192.168.1.110`, `2001:db8::1`): the host each row is of or talks to, as a key names it.
    const hosts = texts.filter((v) => ipAddress(v.trim())).length;
    if (texts.length >= 1 && hosts === texts.length) return { role: 'identifier', rule: 'identifier:ip-addresses', confidence: 0.65, why: `values are IP addresses (${texts[0].trim()}…): the hosts they name`, identifier: 'code' };
    // Version numbers (`18.12.1`, `v1.2.13`, `10.2.154.26-electron.0`): three parts or more, for machines to compare.
    const versions = texts.filter((v) => /^v?\d+\.\d+\.\d+([.+-][\w.+-]*)?$/.test(v.trim())).length;
    if (texts.length >= 5 && versions >= 0.9 * texts.length && f.hostname < 0.5) {
      return { role: 'structured', rule: 'structured:version-values', confidence: 0.7, why: `values are version numbers (${texts[0].trim()}…)`, structured: 'version' };
    }
    // Host names (`SANFRANCISCO.GOV`): the key of a register when one per row, else addresses for machines.
    if (f.hostname >= 0.9 && f.multiWord < 0.1) {
      if (e.column.candidateKey) return { role: 'identifier', rule: 'identifier:host-names', confidence: 0.7, why: `${Math.round(f.hostname * 100)}% of values are host names, one per row: the key of a register of them`, identifier: 'primary-key' };
      return { role: 'structured', rule: 'structured:host-names', confidence: 0.75, why: `${Math.round(f.hostname * 100)}% of values are host names`, structured: 'url' };
    }
    // A few URLs on many rows (a licence written as its URL) name a category, as a code would.
    // (…unless they are the links of a nested record whose key stands beside them, `uploader.url` beside
    // `uploader.login`: the record's addresses, recurring because the record does.)
    const { rows, distinct } = present(e);
    // (One URL on every row, a provider's home page, is that address: nothing to group by.)
    if (share >= 0.8 && kind === 'url' && distinct >= 2 && distinct <= 100 && rows >= 4 * distinct && !linksOfNestedRecord(e, distinct) && !linksOfNamedTerm(e, distinct)) return { role: 'dimension', rule: 'dimension:recurring-urls', confidence: 0.6, why: `${distinct} URLs recurring over ${Math.round(rows)} rows: a category written as a link` };
    // Lists that hold nothing (`[]` or `[""]` in every row, a form's field never filled in): lists still.
    const lists = share >= 0.8 && kind === 'json' ? jsonLists(e) : undefined;
    if (lists && lists.items.length === 0) {
      if (hasAny(n.tokens, IDENTIFIER_WORDS)) return { role: 'identifier', rule: 'identifier:empty-lists', confidence: 0.4, why: `named ${e.column.name}, every list empty`, identifier: 'code' };
      // A list with one empty item on every row (`[""]`, a form's field never filled in) is an empty field; a list
      // with no items (`[]`) still a list: the people who voted, the tracks a credit covers, none in these records.
      if (!presentTexts(e).every((v) => /^\[\s*\]$/.test(v.trim()))) return { role: 'text', rule: 'text:empty-lists', confidence: 0.4, why: 'every list holds one empty item' };
      return { role: 'structured', rule: 'structured:empty-lists', confidence: 0.4, why: 'every list is empty: a list with no items here', structured: 'list' };
    }
    // Lists of UUIDs (`["229e8c8b-0f91-…"]`, a record's related records or other versions): keys of other records; so
    // are an Airtable base's links (`["rec4KettqbIcPbESo"]`: the volunteers who handled it) and MongoDB's ObjectIds.
    if (lists && lists.items.filter((i) => UUID.test(i) || RECORD_ID.test(i)).length >= 0.9 * lists.items.length) return { role: 'identifier', rule: 'identifier:lists-of-uuids', confidence: 0.65, why: 'lists of record ids (UUIDs, Airtable or MongoDB ids): the keys of the records the row refers to', identifier: 'foreign-key' };
    // A list of one item in every row (`["urban_market"]`, a select-one answer exported as a list): a category.
    if (share >= 0.8 && kind === 'json' && distinct <= 50 && rows >= 2 * distinct && oneItemLists(e) && !(lists && lists.items.some((i) => /^https?:\/\//.test(i)))) return { role: 'dimension', rule: 'dimension:one-item-lists', confidence: 0.6, why: `${distinct} values, each a list of one item: a category written as a list` };
    // A list of codes named as identifiers (`id.fec`: `["H8CA05035", "S2CA00955"]`): the keys of the records the row
    // refers to, one person's several registrations.
    if (hasAny(n.tokens, IDENTIFIER_WORDS) && codeLists(lists)) return { role: 'identifier', rule: 'identifier:lists-of-codes', confidence: 0.6, why: `named ${e.column.name}, lists of short codes: the keys of what the row refers to`, identifier: 'foreign-key' };
    // A few file names on many rows named as a kind (`type`: `index.json`, `index.txt`): a category of file.
    if (share >= 0.8 && kind === 'path' && distinct <= 12 && rows >= 3 * distinct && n.last !== undefined && /^(type|kind|format|category|class)$/.test(n.last)) {
      return { role: 'dimension', rule: 'dimension:recurring-file-names', confidence: 0.6, why: `named ${e.column.name}, ${distinct} file names recurring over ${Math.round(rows)} rows: a kind of file` };
    }
    if (share >= 0.8) return { role: 'structured', rule: `structured:${kind}-values`, confidence: 0.95, why: `${Math.round(share * 100)}% of values are ${kind === 'json' ? 'JSON' : kind === 'url' ? 'URLs' : kind === 'email' ? 'e-mail addresses' : 'file paths'}`, structured: kind };
    // Names packed with semicolons or pipes (`Ann Lee; Bo Ek`) in a good share of cells: lists, though most hold one.
    // Long cells that are lists in nearly every row (keywords and subject codes joined by pipes) are lists too.
    // Short codes joined in a fixed number of parts (a bird's colour rings, left leg `RX.MX` | right leg `WX.WX`): one code.
    const compound = compoundCode(e);
    if (compound && (hasAny(n.tokens, IDENTIFIER_WORDS) || hasAny(n.tokens, CODE_WORDS) || e.column.distinctCount > 50)) {
      return { role: 'identifier', rule: 'identifier:compound-code', confidence: 0.6, why: `values are ${compound} short codes joined by one separator, in every row: a code of what the row refers to`, identifier: 'code' };
    }
    // A few lists written in more than one order or spacing (`emcsg.com;  ema.gov.sg` and ` ema.gov.sg; emcsg.com`):
    // one set of items spelled two ways, so a list, not a category of its own.
    const reordered = reorderedLists(e);
    if (!compound && reordered && !proseName(n)) return { role: 'structured', rule: 'structured:reordered-lists', confidence: 0.65, why: `values are lists joined by '${reordered}', one set of items written in more than one order or spacing`, structured: 'list' };
    // (An address writes its lines with semicolons: `311 Hart Senate Office Building; Washington DC 20510`.)
    const address = (n.last !== undefined && GEO_WORDS[n.last] === 'address') || proseName(n);
    // (Long cells that join items with ` | ` — a checklist's references, one citation after another — are lists however
    // long: a title's ` | ` is a short cell's.)
    const spacedPipes = presentTexts(e).filter((v) => / \| \S/.test(v)).length;
    if (!compound && !address && e.column.distinctCount > 20 && f.meanLength > 120 && spacedPipes >= 0.5 * presentTexts(e).length) return { role: 'structured', rule: 'structured:long-pipe-lists', confidence: 0.6, why: `${spacedPipes} of ${presentTexts(e).length} values join long items with ' | ': several entries in one cell`, structured: 'list' };
    if (!compound && !address && f.semicolonList >= 0.2 && e.column.distinctCount > 20 && (f.meanLength <= 120 || f.semicolonList >= 0.8)) return { role: 'structured', rule: 'structured:semicolon-lists', confidence: 0.7, why: `${Math.round(f.semicolonList * 100)}% of values are lists joined by ';' or '|'`, structured: 'list' };
    // A file that joins several values with a bare pipe in many of its columns (a registry's export: conditions,
    // sponsors, sites, documents, `Breast Cancer|Lung Diseases`): every column that does so is a list, though most
    // of its cells hold one item and its items are long.
    if (!compound && !address && !e.foreignKey && !e.referenced && !hasAny(n.tokens, IDENTIFIER_WORDS) && (e.pipeListColumns ?? 0) >= 3 && pipeJoined(presentTexts(e))) {
      return { role: 'structured', rule: 'structured:pipe-lists', confidence: 0.6, why: `values join items with '|', as ${e.pipeListColumns} of the table's columns do: the file's way of writing several values in one cell`, structured: 'list' };
    }
    // Keys and values joined (`area:DL | season:summer`, `swimDirection:across`: Camtrap DP's tags): a list of
    // properties for machines, one or several to a cell.
    const tagged = presentTexts(e).map((v) => v.trim().split(/\s*[|;]\s*/));
    const keyValue = (part: string) => /^[A-Za-z][\w.-]*:(?!\/\/)[^:]+$/.test(part) && !/^\d/.test(part.split(':')[1]);
    if (tagged.length > 0 && tagged.every((parts) => parts.every(keyValue)) && (tagged.some((parts) => parts.length >= 2) || (n.last !== undefined && /^(tags|tag|groups|attributes|properties|labels|params|parameters|metadata)$/.test(n.last)))) {
      return { role: 'structured', rule: 'structured:key-value-lists', confidence: 0.65, why: `values are keys and values joined (${tagged[0].join(' | ').slice(0, 40)}): properties for machines`, structured: 'list' };
    }
    if (f.packed >= 0.8) return { role: 'structured', rule: 'structured:packed-values', confidence: 0.8, why: 'cells pack several comma-separated fields, some empty' };
    // Two sides' scores in one cell (`score` `4–1`, `0-0`): a pair packed as text, each side's number a measure elsewhere.
    const scores = presentTexts(e);
    if (n.tokens.some((t) => /^(score|scores|result|results)$/.test(t)) && scores.length >= 5 && scores.every((v) => /^\s*\d{1,3}\s*[-–:]\s*\d{1,3}\s*$/.test(v))) {
      return { role: 'structured', rule: 'structured:score-pairs', confidence: 0.65, why: `named ${e.column.name}, values pair two numbers (${scores[0].trim()}): both sides' scores in one cell`, structured: 'list' };
    }
    // Settings written as `key=value` (PROJ's `+proj=tmerc +lat_0=49 +no_defs`, an ellipsoid's `a=6377563.396`): a
    // notation for a program, not words.
    const settings = presentTexts(e);
    if (settings.length >= 5 && settings.filter((v) => keyValueSettings(v)).length >= 0.9 * settings.length) {
      return { role: 'structured', rule: 'structured:key-value-settings', confidence: 0.65, why: `values are settings written key=value (${settings[0].trim().slice(0, 40)})`, structured: 'list' };
    }
    // An interval packed in one cell (`(5.4, 8.3)`, `[12; 15]`, a confidence interval's bounds): two numbers in brackets.
    const intervals = presentTexts(e);
    if (intervals.length >= 5 && intervals.filter((v) => INTERVAL_TEXT.test(v.trim())).length >= 0.95 * intervals.length) {
      return { role: 'structured', rule: 'structured:interval-values', confidence: 0.65, why: `values are two numbers in brackets (${intervals[0].trim()}): an interval's bounds in one cell`, structured: 'list' };
    }
    // Race times as a timekeeper writes them (`94h 33' 14''`, `+ 01h 45' 04''` behind the winner, a bonus of `52'`):
    // hours, minutes and seconds marked by letters and primes, a duration.
    const raced = raceTimes(e, n);
    if (raced) return { role: 'measure', rule: 'measure:race-times', confidence: 0.6, why: `${raced} (${intervals.find((v) => /\d/.test(v))?.trim() ?? ''}): durations in hours, minutes and seconds` };
    // Sequences of tokens written with digits (chess moves, element codes, coordinates pairs): a notation for machines.
    // A label one per row made of tokens with digits (`TAV06 20211006 H1 C001`, a specimen's label): it identifies.
    if (f.notation >= 0.8 && distinct >= 0.95 * present(e).rows && e.table.rowCount >= 20 && n.last !== undefined && /^(label|code|tag|ref|reference|no|number|id)$/.test(n.last)) {
      return { role: 'identifier', rule: 'identifier:unique-label', confidence: 0.65, why: `named ${e.column.name}, one per row, tokens written with digits: a label that identifies`, identifier: 'code' };
    }
    if (f.notation >= 0.8 && distinct > 20 && f.dateLike < 0.5 && f.numericText < 0.5) return { role: 'structured', rule: 'structured:notation-values', confidence: 0.7, why: `${Math.round(f.notation * 100)}% of values are sequences of tokens written with digits: a notation` };
    // (A rank's Latin names with their authors, `Theba Risso, 1826`, hold a comma before the year: one name each.)
    const ranked = n.tokens.length === 1 && RANK_NAME.test(n.tokens[0]) && presentTexts(e).every((v) => TAXON_NAME.test(v.trim()));
    if (f.list >= 0.8 && f.cityState < 0.8 && e.column.distinctCount > 20 && f.meanLength > 10 && !ranked && !(n.last && (GEO_WORDS[n.last] || TEXT_WORDS.has(n.last) || PERSON_NAME_WORDS.has(n.last)))) return { role: 'structured', rule: 'structured:list-values', confidence: 0.75, why: 'values are comma-separated lists' };
    // Lists whose items recur from row to row (the stops of a route `CRW-Lewisburg-CRW`, the names of the passengers
    // on a flight): a list in one cell, not one value.
    // A code qualified by the register that issued it (`local-authority-eng:ADU`, `GO:0008150`): a key, one per thing.
    const shown = presentTexts(e);
    if (shown.length >= 5 && shown.every((v) => /^[A-Za-z][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v.trim())) && new Set(shown).size >= 0.8 * shown.length) {
      return { role: 'identifier', rule: 'identifier:prefixed-codes', confidence: 0.65, why: `values are codes behind the name of their register (${shown[0]})`, identifier: 'code' };
    }
    const list = recurringItems(e);
    // (A key made of a name's words joined by hyphens, `hospital_id` `cedars-sinai-medical-center`, is a key.)
    // (…and so is a page's slug, lower-case words joined by hyphens, `anzahl-einwohner-nach-gemeinde`: the key of a
    // dataset's or an article's page, whose words recur as words do.)
    const slugs = list?.separator === '-' && shown.every((v) => /^[a-z0-9_-]+$/.test(v.trim())) && shown.filter((v) => /^[a-z0-9_]+(-[a-z0-9_]+)+$/.test(v.trim())).length >= 0.9 * shown.length && shown.reduce((sum, v) => sum + v.split("-").length, 0) >= 2.5 * shown.length;
    if (list && slugs) return { role: 'identifier', rule: 'identifier:slug', confidence: 0.6, why: `values are lower-case words joined by hyphens (${shown[0]}): a slug that identifies a page`, identifier: 'code' };
    if (list && f.dateLike < 0.5 && f.numericText < 0.5 && f.cityState < 0.5 && !(n.last && GEO_WORDS[n.last]) && !hasAny(n.tokens, IDENTIFIER_WORDS)) {
      return { role: 'structured', rule: 'structured:recurring-items', confidence: 0.65, why: `${Math.round(list.share * 100)}% of values are lists joined by '${list.separator}', whose ${list.items} items recur across rows`, structured: 'list' };
    }
    // A colour written as hex digits (GTFS's `route_color` `7A0046`, a chart's `#1f77b4`): a value in a notation.
    if (n.tokens.some((t) => t === 'color' || t === 'colour') && shown.length >= 1 && shown.every((v) => /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.test(v.trim()))) {
      return { role: 'structured', rule: 'structured:hex-colours', confidence: 0.8, why: `named ${e.column.name}, values are colours in hex digits (${shown[0]})`, structured: 'colour' };
    }
    const named = n.tokens.map((t) => STRUCTURED_WORDS[t]).find(Boolean);
    // (A number a register files things under, `file_number` `001-34756`, is written as phones are, and is no phone.)
    const registered = /^(number|no|nr|num)$/.test(n.last ?? '') && !n.tokens.some((t) => t === 'contact' || t === 'call' || t === 'dial');
    if (f.phone >= 0.8 && registered && named !== 'phone') return { role: 'identifier', rule: 'identifier:code-name', confidence: 0.65, why: `named ${e.column.name}, digits in groups: the number it is filed under`, identifier: 'code' };
    if (f.phone >= 0.8 && (named === 'phone' || (f.phone >= 0.95 && !hasAny(n.tokens, IDENTIFIER_WORDS) && !registered))) return { role: 'structured', rule: 'structured:phone-values', confidence: 0.9, why: 'values are phone numbers', structured: 'phone' };
    // Named a link, but no value is one (a spreadsheet's 'Provider Webpage' whose hyperlink was lost): the link's words.
    // Named a link whose values are page names without spaces (`The_Grudge_(2020_film)`, `la-la-land`): a slug, the key of a page.
    const slugName = n.tokens.includes('slug');
    if ((named === 'url' || slugName) && shown.length >= 5 && shown.every((v) => !/[/\\\s]/.test(v)) && (slugName || shown.filter((v) => /[_-]/.test(v)).length >= 0.5 * shown.length)) {
      return { role: 'identifier', rule: 'identifier:slug', confidence: 0.6, why: `named ${e.column.name}, values are page names without spaces (${shown[0]}): a slug that identifies a page`, identifier: 'code' };
    }
    if (named === 'url' && shown.length >= 5 && shown.every((v) => !/[/\\]|\.[a-z]{2,}/i.test(v))) return { role: 'text', rule: 'text:link-text', confidence: 0.55, why: `named ${e.column.name}, but no value is an address: the text a link showed` };
    // Named a version, but most values are words (`Cohort Analysis`, `Programmed in ADMB`, a few `3.30.16`): a description.
    const wordy = named === 'version' && shown.length >= 10 && shown.filter((v) => /\d/.test(v)).length < 0.5 * shown.length && shown.filter((v) => /[A-Za-z]{3,}\s+[A-Za-z]{2,}/.test(v)).length >= 0.3 * shown.length;
    if (wordy) return undefined;
    // Named a version, with no version number among the values: a revision written as one character (`0`…`9`, then
    // `A`…`D`, an earthquake solution's) is a step in order; words (`Provisional`, `Revised`) are a category.
    if (named === 'version' && shown.length >= 2 && !shown.some((v) => /\d[._]\d/.test(v))) {
      const values = shown.map((v) => v.trim());
      if (values.every((v) => /^[0-9A-Za-z]$/.test(v) || /^\d{1,2}$/.test(v))) return { role: 'ordinal', rule: 'ordinal:revision', confidence: 0.6, why: `named ${e.column.name}, values one character or a small number (${values.slice(0, 3).join(', ')}): revisions in order` };
      if (values.every((v) => /^[A-Za-z][A-Za-z -]*$/.test(v)) && e.column.distinctCount <= 12) return undefined;
    }
    if (named && named !== 'list') return { role: 'structured', rule: `structured:${named}-name`, confidence: 0.75, why: `named ${e.column.name}`, structured: named };
    if (named === 'list' && f.list >= 0.3) return { role: 'structured', rule: 'structured:list-values', confidence: 0.8, why: 'values are comma-separated lists', structured: 'list' };
    return undefined;
  },
  // Keys the database declares.
  (e, n) => {
    if (e.declaredKey && (e.table.primaryKey?.length ?? 0) === 1) return { role: 'identifier', rule: 'identifier:declared-primary-key', confidence: 0.99, why: 'the primary key the database declares', identifier: 'primary-key' };
    if (e.foreignKey && e.table.foreignKeys?.some((k) => k.columns.includes(e.column.name))) return { role: 'identifier', rule: 'identifier:declared-foreign-key', confidence: 0.99, why: 'a foreign key the database declares', identifier: 'foreign-key' };
    // A number within a parent that the database makes part of the key (`Egg_num` of a nest, a line number of an order).
    const numbering = n.last !== undefined && /^(num|no|nr|number|seq|sequence|line|index|idx)$/.test(n.last);
    if (e.declaredKey && (e.table.primaryKey?.length ?? 0) > 1 && numbering && e.column.type === 'integer') return { role: 'identifier', rule: 'identifier:key-numbering', confidence: 0.8, why: `named ${e.column.name}, part of the key the database declares: the number of a row within its parent`, identifier: 'primary-key' };
    return undefined;
  },
  // A column its dictionary declares with its codes (UCI's "mother's education (numeric: 0 - none, 1 - primary
  // education, … 4 - higher education)", "home address type (binary: "U" - urban or "R" - rural)"): levels in order
  // where the codes are numbers or the labels compare (`LE3` less or equal to 3, `GT3` greater than 3), categories
  // where the dictionary says binary or nominal; a scale anchored at its ends ("from 1 - very low to 5 - very high")
  // is a rating, a measure.
  (e) => {
    const declared = e.dictionary ? declaredCodes(e.dictionary.description) : undefined;
    if (!declared) return undefined;
    const name = e.column.originalName || e.column.name;
    if (declared.kind === 'levels' && isNumber(e.column) && num(e.column.min) >= declared.low && num(e.column.max) <= declared.high) return { role: 'ordinal', rule: 'ordinal:described-levels', confidence: 0.7, why: `named ${name}, described with ${declared.count} numbered levels in order (${declared.first}…)` };
    if (declared.kind === 'compared') return { role: 'ordinal', rule: 'ordinal:described-levels', confidence: 0.6, why: `named ${name}, described with two bands that compare (${declared.first}…)` };
    if (declared.kind === 'categories' && !isNumber(e.column) && e.column.distinctCount <= 50) return { role: 'dimension', rule: 'dimension:described-codes', confidence: 0.65, why: `named ${name}, described as ${declared.first}: a category` };
    return undefined;
  },
  // The number on a tag fixed to a plant or an animal (`tag1`, `tag2` where it was replaced, `field_tag`): which one.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || n.last === undefined || !/^tag\d?$/.test(n.last) || num(column.min) < 0) return undefined;
    return { role: 'identifier', rule: 'identifier:tag-number', confidence: 0.6, why: `named ${column.originalName || column.name}, whole numbers: the number on a tag that marks an individual`, identifier: 'code' };
  },
  // A table of references (BibTeX's fields beside a title and an author): its fields mean what BibTeX says.
  (e, n) => {
    const field = bibliographicField(e, n);
    if (!field) return undefined;
    const { column } = e;
    const name = column.originalName || column.name;
    switch (field) {
      case 'venue': return { role: 'dimension', rule: 'dimension:bibliographic-venue', confidence: 0.6, why: `named ${name} in a table of references: the journal, publisher or institution references are grouped by` };
      case 'locator': return { role: 'identifier', rule: 'identifier:bibliographic-locator', confidence: 0.6, why: `named ${name} in a table of references: where a work sits in its series, not a quantity`, identifier: 'code' };
      case 'page-range': return { role: 'structured', rule: 'structured:page-range', confidence: 0.6, why: `named ${name} in a table of references: a range of pages (${presentTexts(e)[0] ?? ''})`, structured: 'list' };
      case 'edition': return { role: 'ordinal', rule: 'ordinal:edition', confidence: 0.6, why: `named ${name} in a table of references: editions in order` };
      case 'month': return { role: 'time', rule: 'time:bibliographic-month', confidence: 0.6, why: `named ${name} in a table of references: the month of publication, its year in another field`, time: { storage: 'text', grain: 'month-of-year' } };
      case 'page-count': return { role: 'measure', rule: 'measure:page-count', confidence: 0.6, why: `named ${name} in a table of references: a number of pages` };
      case 'record-key': return { role: 'identifier', rule: 'identifier:bibliographic-record', confidence: 0.6, why: `named ${name} in a table of references: a library's record number`, identifier: 'code' };
      case 'link': return undefined;
    }
  },
  ...timeRules,
  // Keys of other rows of the same table (the county council of a district, the authority that replaced it): a key,
  // however few of them there are.
  (e) => (e.selfReference && e.column.type === 'text' ? { role: 'identifier', rule: 'identifier:self-reference', confidence: 0.75, why: `its values are ${e.selfReference} of other rows of ${e.table.name}`, identifier: 'foreign-key' } : undefined),
  // Yes/no properties.
  (e, n) => {
    const { column, fingerprint: f } = e;
    if (column.type === 'boolean') return { role: 'flag', rule: 'flag:boolean-values', confidence: 0.97, why: 'true/false values' };
    // 0 and 1 are also what a count of rare events holds (red cards): a name or description that counts wins.
    const counted = hasAny(n.tokens, COUNT_WORDS) ?? hasAny(n.described, COUNT_WORDS) ?? hasAny(n.tokens, ADDITIVE_WORDS) ?? hasAny(n.described, ADDITIVE_WORDS) ?? oneOfCounts(e, n.tokens);
    // Answers of y or n, some with a doubt or a comment after them (`y (suffix)`, `n?`, `y, optional`), as a linguist's
    // or a surveyor's coding sheet writes them, beside a few `unclear`: a yes/no, most rows answered plainly.
    if (column.type === 'text' && yesNoWithComments(e)) return { role: 'flag', rule: 'flag:yes-no-with-comments', confidence: 0.7, why: 'nearly every value is y or n, some followed by a doubt or a comment' };
    // A direction coded 0 and 1 (GTFS's `direction_id`: outbound or inbound): two categories, neither of them 'yes'.
    if (f.yesNo && isNumber(column) && n.tokens.some((t) => t === 'direction' || t === 'dir')) return { role: 'dimension', rule: 'dimension:two-directions', confidence: 0.65, why: `named ${column.name}, 0 and 1: two directions, neither a yes` };
    // A severity or a grade in two levels and a third for the unknown (`Critical`, `Non-Critical`, `Unknown`): an order.
    if (f.yesNo && column.type === 'text' && n.last !== undefined && /^(severity|grade|priority|tier|risk)$/.test(n.last)) return { role: 'ordinal', rule: 'ordinal:two-levels', confidence: 0.6, why: `named ${column.name}, two levels (${column.samples.join(', ')}): an order, not a yes` };
    if (f.yesNo && !(counted && isNumber(column))) return { role: 'flag', rule: 'flag:yes-no-values', confidence: 0.9, why: `two values that answer yes or no (${column.samples.join(', ')})` };
    // 1 and 0 with a half between them (MEDSL's `online_reg`: online registration or not, .5 where a state half had it):
    // a yes/no that gives half credit, not a share.
    const halves = isNumber(column) && column.distinctCount === 3 && column.samples.length === 3 && [0, 0.5, 1].every((v) => column.samples.some((s) => Number(s) === v));
    // 1 (or 0) alone, where the dictionary asks a yes/no question ("Can you look up your polling place online?"): every
    // row answered alike, still an answer.
    const question = e.dictionary !== undefined && (YES_NO_DESCRIPTION.test(e.dictionary.description) || YES_NO_QUESTION.test(e.dictionary.description));
    if (question && isNumber(column) && column.distinctCount >= 1 && column.distinctCount <= 2 && column.samples.every((s) => Number(s) === 0 || Number(s) === 1) && !counted) return { role: 'flag', rule: 'flag:described-yes-no', confidence: 0.7, why: `${column.samples.join(', ')}, described as "${e.dictionary!.description}": a yes or no` };
    if (halves && !counted && !hasAny(n.tokens, NON_ADDITIVE_WORDS) && !hasAny(n.described, NON_ADDITIVE_WORDS)) return { role: 'flag', rule: 'flag:yes-no-with-half', confidence: 0.6, why: 'values 0, 1 and a half between them: a yes or no, with half credit' };
    // A quality flag (`duplicateTrapCoordinateQF` 0/1/2, `consistencyTagIDSexQF` -1/0/1, as NEON writes them): whether
    // a check passed, failed or was not made, in a few small whole numbers.
    const qualityFlag = /^[a-z]{0,3}qf$/.test(n.last ?? '') || (n.tokens.length >= 2 && n.tokens.at(-2) === 'quality' && n.last === 'flag');
    if (qualityFlag && (column.nullFraction === 1 || smallCodes(e))) return { role: 'flag', rule: 'flag:quality-flag', confidence: 0.7, why: `named ${column.name}: a quality flag, ${column.nullFraction === 1 ? 'empty here' : 'a few small whole numbers'}` };
    // One answer on every row (`Yes` 500 times: "Is handwashing important?"): a yes/no question all answered alike.
    const shownOnce = column.samples.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
    if (column.type === 'text' && column.distinctCount === 1 && shownOnce.length > 0 && /^(yes|no|true|false)$/i.test(shownOnce[0]) && present(e).rows >= 5) return { role: 'flag', rule: 'flag:one-answer', confidence: 0.6, why: `'${shownOnce[0]}' on every row: a yes/no question all answered alike` };
    // One marker value or nothing (`x`, `1`, `active`): a box that is ticked or not.
    // A letter alone, or in brackets (`W` for the winner, `(I)` for the incumbent), marks a row the same way; so does a
    // mark with a stray slip beside it (`X` on 19 rows, `19` on one): the slip is a typing error, not a second value.
    // A letter code beside the figure it qualifies (ECCC's `max_temp_flag` M beside `max_temp_c`, `total_rain_flag` T
    // or M: missing, trace, estimated): a category of the reading to filter by, not a yes or a no.
    // A mark of doubt on a figure (the NTD's `total_mechanical_failures_questionable`: blank, `Q` where the figure is
    // questionable, a rarer `W`), or a copy of that column an API named by the figure and a number
    // (`vehicle_passenger_car_miles_1` beside `vehicle_passenger_car_miles`): a mark that is set or not.
    const doubted = figureMark(e, n);
    if (doubted) return { role: 'flag', rule: 'flag:figure-mark', confidence: 0.6, why: `named ${column.name}, a letter (${[...new Set(presentTexts(e).map((v) => v.trim()))].slice(0, 2).join(', ')}) on a few rows, blank on the rest: ${doubted}` };
    const qualified = qualifiedFigure(e, n);
    if (qualified) return { role: 'dimension', rule: 'dimension:qualifier-code', confidence: 0.6, why: `named ${column.name}, letter codes (${presentTexts(e).slice(0, 2).join(', ')}) beside ${qualified}, the figure they qualify: a category of its readings` };
    const mark = markerValue(e);
    // (A workbook may write its blanks as empty strings: they are as empty as NULL.)
    const sampled = (e as EvidenceWithSample).sample ?? column.samples;
    const blank = sampled.length > 0 ? sampled.filter((v) => v !== null && String(v).trim() === '').length / sampled.length : 0;
    const empty = column.nullFraction + (1 - column.nullFraction) * blank;
    // (…unless it is empty only on the rows of other kinds: a log's `qtype` of its DNS records, empty on its
    // connections' rows, is a field of one kind of record, not a mark.)
    // A number of things active at a moment (`active_tcp_conns`, `active_files`): a count, not a tick.
    const activeCount = isNumber(column) && n.tokens.length > 1 && n.tokens[0] === 'active' && /[^s]s$/.test(n.last ?? '');
    const marker = mark !== undefined && empty >= 0.05 && empty < 1 && !e.recordKind && !activeCount;
    // A number named as a quantity (`elevation` 1 on the one row that has it, a `filter_efficiency` of `1` written as
    // text) is that quantity, not a tick.
    const quantityName = (isNumber(column) || e.fingerprint.numericText >= 0.9) && (hasAny(n.tokens, NON_ADDITIVE_WORDS) ?? hasAny(n.tokens, SEMI_ADDITIVE_WORDS)) !== undefined;
    // (A count holds numbers: a `TRUE` in a column named `annual` is a tick, whatever the word counts elsewhere.)
    if (marker && !(counted && isNumber(column)) && !quantityName) return { role: 'flag', rule: 'flag:present-or-empty', confidence: 0.7, why: `one value (${mark}) or empty: a mark that is set or not` };
    // The participles (`done`, `hidden`) say a yes/no only as the name or its head: `hidden_size` is a size.
    // (A flag word before a key or a count, `member_id`, `member_content_count`, says whose key or what is counted.)
    const keyOrCount = n.tokens.length > 1 && n.last !== undefined && !FLAG_WORDS.has(n.last) && (IDENTIFIER_WORDS.has(n.last) || COUNT_WORDS.has(n.last) || n.last === 'count' || n.last === 'from');
    const flagName = !keyOrCount && ((n.tokens.length > 1 && FLAG_PREFIXES.has(n.tokens[0])) || hasAny(n.tokens.filter((t) => !PARTICIPLE_FLAGS.has(t) || t === n.last), FLAG_WORDS));
    // (A number of things done, `number_of_kit_distributions_completed` 2231, counts them, whatever the participle.)
    const countOf = /^(number|no|num|count)$/.test(n.tokens[0] ?? '') || (isNumber(column) && column.samples.some((v) => Math.abs(Number(v)) > 1)) || activeCount;
    if (flagName && !countOf && column.distinctCount <= 2 && column.distinctCount >= 1) return { role: 'flag', rule: 'flag:name', confidence: 0.8, why: `named ${column.name}, ${column.distinctCount} value(s)` };
    // Named for its answers (`inholding_y_n`, `member_yn`): yes, no, and perhaps not known.
    const yn = n.last === 'yn' || (n.tokens.length > 2 && n.tokens[n.tokens.length - 2] === 'y' && n.last === 'n');
    if (yn && column.distinctCount >= 1 && column.distinctCount <= 4) return { role: 'flag', rule: 'flag:y-n-name', confidence: 0.75, why: `named ${column.name}: a yes/no answer` };
    // A switch set the same on every row (`resolved` 1, `plot_now` 1, `area` 0 in a model's settings): 0 or 1 and
    // nothing else, under a name that neither counts nor measures, is a yes/no that happens not to vary here.
    // The parts of a version number in columns of their own (`proj_major` 8, `proj_minor` 1, `proj_patch` 1): steps in order.
    const versionPart = versionPartOf(e, n);
    if (versionPart) return { role: 'ordinal', rule: 'ordinal:version-part', confidence: 0.6, why: `named ${column.name} beside ${versionPart}: a part of a version number` };
    const switchValue = column.type === 'integer' && column.distinctCount === 1 && column.nullFraction === 0 && (num(column.min) === 0 || num(column.min) === 1) && num(column.max) === num(column.min);
    // (A setting of a time or a length, `camera_delay` 0 seconds, `timeout`, is a quantity that happens to be 0 here.)
    const measured = hasAny(n.tokens, NON_ADDITIVE_WORDS) ?? hasAny(n.tokens, SEMI_ADDITIVE_WORDS) ?? hasAny(n.tokens, IDENTIFIER_WORDS) ?? hasAny(n.tokens, DIMENSION_WORDS) ?? hasAny(n.tokens, DURATION_WORDS) ?? (n.tokens.some((t) => /^(delay|lag|timeout|interval|offset|radius|distance|threshold)$/.test(t)) ? 'setting' : undefined);
    // (…nor an order, `display_order` 1 for the one contributor: a position.)
    const ordered = n.last === 'order' || n.last === 'position' || n.last === 'rank';
    if (switchValue && !counted && !measured && !ordered && !(n.last !== undefined && HEAD_NON_ADDITIVE_WORDS.has(n.last))) return { role: 'flag', rule: 'flag:constant-switch', confidence: 0.5, why: `${column.min} on every row, named ${column.name}: a yes/no set the same everywhere` };
    return undefined;
  },
  // Time zones (`tz` -5, `timezone` `America/Chicago`): a category of places' clocks, not a quantity.
  (e, n) => {
    // (An offset in hours, `utcOffset` -5, is a measure: a clock's difference from UTC, used to correct its times.)
    const zone = n.tokens.length === 1 ? /^(tz|tzone|timezone|timezones)$/.test(n.tokens[0]) : n.tokens.join(' ') === 'time zone';
    return zone && e.column.distinctCount <= 50 ? { role: 'dimension', rule: 'dimension:time-zone', confidence: 0.7, why: `named ${e.column.name}: a time zone` } : undefined;
  },
  // Places.
  (e, n) => {
    const { column } = e;
    // Places written with their standard's name (`ISO_3166-2:BE`, Darwin Core's `locationID`): places, whatever the name.
    const standard = column.type === 'text' ? presentTexts(e).map((v) => v.trim()) : [];
    if (standard.length >= 1 && standard.every((v) => ISO_3166_CODE.test(v))) return { role: 'geo', rule: 'geo:iso-3166-codes', confidence: 0.7, why: `values are ISO 3166 codes of places (${standard[0]})`, geo: 'region' };
    if (hasAny(n.tokens, IDENTIFIER_WORDS)) return undefined;
    // A `place` in words (`publisher_place` Leipzig, a conference's `place` "Binghamton, N.Y."): a town; a `place` in
    // numbers is a finishing position.
    const placeNames = presentTexts(e);
    if (column.type === 'text' && n.last === 'place' && placeNames.length >= 2 && placeNames.filter((v) => /^[^\d]+$/.test(v)).length >= 0.9 * placeNames.length && e.fingerprint.multiWord < 0.8) {
      return { role: 'geo', rule: 'geo:place-names', confidence: 0.6, why: `named ${column.name}, names of places in words`, geo: 'city' };
    }
    // A Socrata portal's computed region (`:@computed_region_yftq_j783`, 1–15): the number of the district, the
    // neighbourhood or the zip area of the portal's boundary set each row falls in.
    if (n.tokens[0] === 'computed' && n.tokens[1] === 'region' && (isNumber(column) || (column.type === 'text' && e.fingerprint.numericText >= 0.9))) return { role: 'geo', rule: 'geo:computed-region', confidence: 0.65, why: `named ${column.originalName || column.name}: a Socrata computed region, the area of a boundary set each row falls in`, geo: 'region' };
    // Country names are a place unless the name makes them a kind of something (a `type`, a `team`); an area's
    // name (a grid `zone_name` of `Singapore`) is that place.
    const kindWord = hasAny(n.tokens.filter((t) => !SPATIAL_DIMENSION_WORDS.has(t)), DIMENSION_WORDS);
    if (column.type === 'text' && e.fingerprint.country >= 0.6 && e.fingerprint.sampled >= 5 && !kindWord && !hasAny(n.tokens, PARTICIPANT_WORDS)) return { role: 'geo', rule: 'geo:country-values', confidence: 0.85, why: `${Math.round(e.fingerprint.country * 100)}% of values are country names`, geo: 'country' };
    // Continents and the macro-areas linguists and geographers divide the world into (`Eurasia`, `Papunesia`,
    // `North America`): regions of the world, whatever the column is called.
    const regions = presentTexts(e);
    if (column.type === 'text' && regions.length >= 5 && !kindWord && regions.filter((v) => WORLD_REGIONS.test(v.trim())).length >= 0.9 * regions.length) {
      return { role: 'geo', rule: 'geo:world-regions', confidence: 0.75, why: `values are continents or macro-areas (${regions[0].trim()})`, geo: 'region' };
    }
    // The place must be what the name is about: its head word (`store_city`, `country_name`), not a qualifier
    // (`location_uncertainty` is a measure). A code of a place refers to it (`country_code`): an identifier.
    // A unit after the place says how it is written (`latitude_deg`, `lon_dd`), not what it is.
    const words = n.tokens.filter((t) => !/^\d+$/.test(t));
    while (words.length > 1 && COORDINATE_UNITS.has(words[words.length - 1])) words.pop();
    // A coordinate summarised (`lat_mean`, `lon_max`) is still a coordinate: where the fixes were, on average or at most.
    if (words.length === 2 && (GEO_WORDS[words[0]] === 'latitude' || GEO_WORDS[words[0]] === 'longitude') && COORDINATE_STATISTICS.has(words[1])) words.pop();
    // …and so is one of the ends of a line, or one said with its hemisphere (`latitude_start_n`, `longitude_end_e`).
    while (words.length > 1 && (GEO_WORDS[words[0]] === 'latitude' || GEO_WORDS[words[0]] === 'longitude') && COORDINATE_ENDS.has(words[words.length - 1])) words.pop();
    // …and so is the axis it is drawn on (`longitude_x`, `latitude_y`, as a GIS tool exports them).
    if (words.length === 2 && ((GEO_WORDS[words[0]] === 'latitude' && words[1] === 'y') || (GEO_WORDS[words[0]] === 'longitude' && words[1] === 'x'))) words.pop();
    // A qualifier after a name says which name it is (`country_name_short`, `city_name_en`): still the place's name.
    if (words.length > 2 && words[words.length - 2] === 'name' && NAME_VARIANTS.has(words[words.length - 1])) words.pop();
    // A numbered line of an address (`Address 1`, `address2`, `address_line_2`) is a part of one, free text: the
    // place is the whole address, or its town and postcode.
    if (column.type === 'text' && n.tokens.includes('address') && n.tokens.some((t) => /^\d$/.test(t) || t === 'line')) {
      return { role: 'text', rule: 'text:address-line', confidence: 0.6, why: `named ${column.name}: one line of an address, free text` };
    }
    // A place word run together with what is said of it (`countryiso3`, `statecode`): the place, then its code or name.
    const joined = words.length === 1 ? /^([a-z]{4,})(iso|code|name|cd|abbr)$/.exec(words[0]) : null;
    if (joined && GEO_WORDS[joined[1]]) words.splice(0, 1, joined[1], joined[2]);
    const head = words[words.length - 1];
    const before = words[words.length - 2];
    if (head === 'address' && before !== undefined && MACHINE_ADDRESS_WORDS.has(before)) {
      const structured: StructuredKind | undefined = before === 'email' || before === 'mail' ? 'email' : before === 'web' ? 'url' : undefined;
      return { role: 'structured', rule: 'structured:machine-address', confidence: 0.75, why: `named ${column.name}: the address of a ${before === 'mac' || before === 'ip' ? 'device on a network' : before}, not a place`, ...(structured ? { structured } : {}) };
    }
    // Places written "Name, ST" (`Boston-Cambridge-Newton, MA`, a US metro area, city or county with its state).
    if (column.type === 'text' && e.fingerprint.cityState >= 0.8 && e.fingerprint.sampled >= 5) return { role: 'geo', rule: 'geo:place-state-values', confidence: 0.75, why: `${Math.round(e.fingerprint.cityState * 100)}% of values are places written "Name, ST"`, geo: 'city' };
    let kind = head ? GEO_WORDS[head] : undefined;
    // (`state_fips`: the FIPS code of a state, not of a county.)
    if (head === 'fips' && before && GEO_WORDS[before]) kind = GEO_WORDS[before];
    // A local authority (a council's area, as British, Irish and Australian statistics group by them) is a place.
    if (!kind && head === 'authority' && before === 'local' && column.type === 'text') kind = 'region';
    // (…by its name, `local_authority_name`; its code beside the name is decided as the code of what the name names.)
    if (!kind && head === 'name' && before === 'authority' && words[words.length - 3] === 'local' && column.type === 'text') kind = 'region';
    // …and so is one named by its abbreviation (`LA name`, `LA code`, `LAD`) or a congressional district (`congress_dist`).
    if (!kind && column.type === 'text' && ((before === 'la' && ['name', 'code', 'cd', 'nm'].includes(head)) || head === 'lad')) kind = 'region';
    // Administrative areas by their level (`admin1`, `adm2_name`, `admin1pcode`): provinces, districts.
    if (!kind && /^adm(in)?[ _]?[0-5]([ _]?(name|p?code))?$/i.test(column.originalName || column.name)) kind = 'region';
    // The description or name of a place's code (`county_code_desc`, ONRR's `agency_state_region_code_desc`): the place.
    if (!kind && column.type === 'text' && ['desc', 'description', 'name'].includes(head) && before === 'code' && GEO_WORDS[words[words.length - 3] ?? '']) kind = GEO_WORDS[words[words.length - 3]];
    // A part of a place named after it (`district_sector`, a police district's sector; `city_zone`): a smaller place.
    if (!kind && before && GEO_WORDS[before] && ['sector', 'sectors', 'zone', 'zones', 'ward', 'wards', 'block', 'blocks'].includes(head) && column.type === 'text') kind = 'region';
    if (!kind && (before === 'congress' || before === 'congressional') && ['dist', 'district', 'districts', 'cd'].includes(head)) kind = 'region';
    // The place a sample was taken, as sequence archives write it (`geo_loc_name`: "Baltic Sea:Finland"): a place.
    if (!kind && column.type === 'text' && n.tokens[0] === 'geo' && n.tokens.some((t) => t === 'loc' || t === 'location')) kind = 'region';
    // The territory of a public service (`Police Division`, `health_board`, `fire_area`, `police_force`): a region.
    if (!kind && column.type === 'text' && before && TERRITORIAL_SERVICES.has(before) && /^(division|divisions|force|forces|board|boards|area|areas)$/.test(head)) kind = 'region';
    if (!kind && before && GEO_WORDS[before] && ['name', 'code', 'no', 'num', 'number', 'cd', 'ab', 'abbr', 'abbv', 'abbrev', 'abbreviation', 'iso', 'namecode'].includes(head)) {
      kind = GEO_WORDS[before];
      // A code of an area that groups rows (a region code, `Country Code` beside `Country Name`) is the area, as most
      // reviewers label it; one per row is the key of a table of places: an identifier.
      // (Two places without a code, `''` twice, leave it one per row where set: ECDC's `countryCode` beside the key its
      // table declares. A table of one row per state with no other key is about those states: its code is the place.)
      if (head !== 'name' && kind !== 'postal-code' && column.distinctCount > 50 && (column.candidateKey || (column.distinctCount >= 0.98 * e.table.rowCount && (e.table.primaryKey ?? []).some((k) => k !== column.name)))) return undefined;
    }
    // The name or the letter code of each row of a table named for places (sport.db's `countries`: `title` Österreich,
    // `tag` AUT): the place itself, one per row. (A code the table is keyed by, that other tables point at, is its key.)
    const places = placesOfTable(e.table);
    if (!kind && places && column.type === 'text' && words.length === 1 && (/^(name|title|label)$/.test(head) || (/^(tag|code|abbr|abbreviation|iso)$/.test(head) && !e.declaredKey && !e.referenced && presentTexts(e).every((v) => /^[A-Z]{2,3}$/.test(v.trim()))))) kind = places;
    if (!kind && n.tokens.length === 1) kind = n.tokens.map((t) => GEO_WORDS[t]).find(Boolean);
    // …or its number glued on (`KOMMUNNR`, `kreisnummer`, `countyno`): the area, written as its official number.
    const gluedNumber = n.tokens.length === 1 ? /^([a-z]{4,}?)(nr|no|nummer|kod|kode)$/.exec(n.tokens[0]) : null;
    if (!kind && gluedNumber && GEO_WORDS[gluedNumber[1]] && !/^(lat|latitude|lon|lng|long|longitude|address|street)$/.test(gluedNumber[1]) && !column.candidateKey) kind = GEO_WORDS[gluedNumber[1]];
    // An ISO code of what the rows are about (`iso_code` beside `country`: `AFG`, `OWID_WRL`): the country, written as a code.
    // (…or by its ISO 3166 name, `alpha_two_code`, `alpha2`.)
    if (!kind && (before === 'iso' || n.tokens.some((t) => /^alpha(2|3|_?two|_?three)?$/.test(t))) && (head === 'code' || head === 'cd' || /^alpha(2|3)$/.test(head ?? '')) && column.type === 'text' && e.fingerprint.countryCode >= 0.5 && !column.candidateKey) kind = 'country';
    // A position on a projected map by its description ("UTM easting coordinate (… EPSG:32629)" for `x`): where it is.
    // (…or as an x or y coordinate, "local X-coordinate within each quadrat": a position on a plot's grid.)
    const axisAt = n.described.findIndex((w, at) => (w === 'x' || w === 'y') && /^coordinates?$/.test(n.described[at + 1] ?? ''));
    const projectedAxis = e.dictionary && isNumber(column) ? (n.described.find((w) => w === 'easting' || w === 'northing') ?? (axisAt >= 0 ? (n.described[axisAt] === 'x' ? 'easting' : 'northing') : undefined)) : undefined;
    if (!kind && projectedAxis) return { role: 'geo', rule: 'geo:grid-coordinate', confidence: 0.7, why: `described as "${e.dictionary!.description}": the ${axisAt >= 0 ? `${n.described[axisAt]} coordinate` : projectedAxis} of a position`, geo: projectedAxis === 'easting' ? 'longitude' : 'latitude' };
    // A coordinate by its description in the publisher's language ("X-koordinat (nord-syd; sexsiffrig RT90 …)",
    // "Koordinat (väst-öst, Sweref99 TM)", "coordonnée Lambert 93"), not the code of a coordinate system or its precision.
    const coordinateAt = n.described.findIndex((w) => COORDINATE_WORD.test(w));
    if (!kind && e.dictionary && isNumber(column) && coordinateAt >= 0 && !n.described.some((w) => /^(system|systems|epsg|srid|crs|precision|accuracy|uncertainty|error|datum|zone|projection|reference|referens)$/.test(w))) {
      // (The axis by the compass where the description gives it, "nord-syd" a northing, "väst-öst" an easting, read in
      // the description itself: its words carry their accents.)
      const text = e.dictionary.description.toLowerCase();
      const eastWest = /(^|[^\p{L}])(east|west|öst|väst|ost|est|ouest|oeste|este|øst|vest)[\s-]+(east|west|öst|väst|ost|est|ouest|oeste|este|øst|vest)(?!\p{L})|(^|[^\p{L}])(easting|eastings)(?!\p{L})/u.test(text);
      const northSouth = /(^|[^\p{L}])(north|south|nord|syd|süd|sud|norr|söder|norte|sur)[\s-]+(north|south|nord|syd|süd|sud|norr|söder|norte|sur)(?!\p{L})|(^|[^\p{L}])(northing|northings)(?!\p{L})/u.test(text);
      const axis = northSouth && !eastWest ? 'latitude' : eastWest && !northSouth ? 'longitude' : n.described.includes('y') ? 'latitude' : 'longitude';
      return { role: 'geo', rule: 'geo:grid-coordinate', confidence: 0.65, why: `described as "${e.dictionary.description}": a coordinate of a position`, geo: axis };
    }
    // A position on a grid or a projected map (`xcoord`, `y_coord`): where the thing is, as a pair of coordinates.
    // (…or a bare `x` and `y` of numbers beside a latitude and a longitude: the same position on a projected map,
    // DataSF's state-plane feet written as text.)
    const besideCoordinates = () => e.table.columns.some((c) => /^(lat|latitude)$/.test(nameTokens(c.originalName || c.name).join(' '))) && e.table.columns.some((c) => /^(lon|lng|long|longitude)$/.test(nameTokens(c.originalName || c.name).join(' ')));
    const bareAxis = words.length === 1 && /^[xy]$/.test(words[0]) && (isNumber(column) || (column.type === 'text' && e.fingerprint.numericText >= 0.9)) && besideCoordinates() ? [words[0], words[0]] : null;
    const gridAxis = /^([xy])_?coord(inate)?s?$/.exec(words.join('_')) ?? bareAxis;
    if (!kind && gridAxis && (isNumber(column) || bareAxis)) return { role: 'geo', rule: 'geo:grid-coordinate', confidence: 0.6, why: `named ${column.name}: the ${gridAxis[1]} coordinate of a position`, geo: gridAxis[1] === 'x' ? 'longitude' : 'latitude' };
    // A documented column described as a place, or as the name or code of one ("Country of reference", "Name of the Region").
    // (…read past a gloss in brackets: "Geographic Region (Beobachtungsgebiet)".)
    if (!kind && e.dictionary) kind = describedPlace(n.described) ?? describedPlace(textTokens(e.dictionary.description.replace(/\([^)]*\)/g, ' ')));
    // Country codes by their values (`US`, `DEU`) that place rows: not one per row (the key of a table of countries)
    // and with nothing beside them that names the countries they code.
    // (The initials of the people who observed, `CK` and `LE`, look like codes of countries.)
    if (!kind && column.type === 'text' && e.fingerprint.countryCode >= 0.9 && column.distinctCount >= 10 && !column.candidateKey && !hasAny(n.tokens, DIMENSION_WORDS) && !hasAny(n.tokens, PERSON_ROLE_WORDS) && !placeNamedBeside(e, 'country')) {
      return { role: 'geo', rule: 'geo:country-code-values', confidence: 0.8, why: `${Math.round(e.fingerprint.countryCode * 100)}% of values are ISO 3166 country codes`, geo: 'country' };
    }
    // States, provinces or territories by their postal codes (`NSW`, `Vic`, `Qld`; `OH`, `TX`; `ON`, `QC`), every one
    // of a column's few values: the place each row is of. (Not the key of a table of them: one per row.)
    if (!kind && column.type === 'text' && e.allValues && !column.candidateKey && !hasAny(n.tokens, IDENTIFIER_WORDS)) {
      const codes = e.allValues.filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !isMissingText(v)).map((v) => v.trim());
      const country = codes.length >= 4 ? STATE_CODE_SETS.find(([, set, least]) => codes.length >= least && codes.every((v) => set.has(v.toUpperCase()) && (v === v.toUpperCase() || v.length >= 3))) : undefined;
      if (country) return { role: 'geo', rule: 'geo:state-code-values', confidence: 0.7, why: `${codes.length} values, each the postal code of a state or territory of ${country[0]} (${codes.slice(0, 3).join(', ')})`, geo: 'state' };
    }
    // Codes of a country's subdivisions as ISO 3166-2 writes them (`ISO_3166-2:BE`, `BE-VLG`) or of a congressional
    // district (`MA-08`): places.
    const subdivisions = column.type === 'text' ? presentTexts(e).map((v) => v.trim()) : [];
    if (!kind && subdivisions.length >= 3 && !hasAny(n.tokens, IDENTIFIER_WORDS) && subdivisions.every((v) => /^[A-Z]{2}-(\d{2}|AL|[A-Z]{2,3})$/.test(v) && (COUNTRY_CODE_SET.has(v.slice(0, 2)) || US_STATE_CODES.includes(v.slice(0, 2)))) && (n.tokens.some((t) => /^(cd|district|districts|subdivision|region)$/.test(t)) || subdivisions.every((v) => /^[A-Z]{2}-(\d{2}|AL)$/.test(v) && US_STATE_CODES.includes(v.slice(0, 2))))) {
      return { role: 'geo', rule: 'geo:subdivision-codes', confidence: 0.6, why: `values are codes of a country's or a state's parts (${subdivisions[0]})`, geo: 'region' };
    }
    if (!kind) return undefined;
    // A `state` whose values are conditions (`open`, `closed`, `COMMENTED`, a tide's `rising`), or a `sea_state` with
    // none to show, is a state of things, not a place: places are written as names (`Ohio`, `New South Wales`) or codes (`OH`).
    if (kind === 'state' && column.type === 'text') {
      const values = presentTexts(e).map((v) => v.trim());
      // (…or any word for what became of a thing, in lower case, `uploaded`, `processing`: a place's name has capitals.)
      const conditions = values.filter((v) => CONDITION_WORDS.test(v) || /^[a-z]{3,}(ed|ing)$/.test(v)).length;
      if (values.length === 0 ? n.tokens.length > 1 && !GEO_WORDS[n.tokens[0]] : conditions >= 0.5 * values.length) return undefined;
      // (…or a machine's state in short codes that are no state's, `conn_state` `SF`, `S0`, `OTH`, as Zeek writes a
      // connection's: a postal code has no digit.)
      const codes = [...new Set(values)];
      if (n.tokens.length > 1 && !GEO_WORDS[n.tokens[0]] && codes.some((v) => /^[A-Z]+\d+$/.test(v)) && codes.filter((v) => !STATE_CODE_SETS.some(([, set]) => set.has(v))).length >= 0.5 * codes.length) return undefined;
    }
    // The Sun's active region a flare or a mass ejection came from (`activeRegionNum` 12644, NOAA's number): the key of
    // a region of the Sun, no place on Earth.
    if (kind === 'region' && n.tokens.some((t, i) => t === 'active' && n.tokens[i + 1] === 'region')) return { role: 'identifier', rule: 'identifier:active-region', confidence: 0.6, why: `named ${column.name}: the number of an active region of the Sun`, identifier: 'code' };
    if (kind === 'latitude' || kind === 'longitude') {
      // (Numbers written as text beside `NA` are numbers.)
      if (!isNumber(column) && !(column.type === 'text' && e.fingerprint.numericText >= 0.9)) return undefined;
      const limit = kind === 'latitude' ? 90 : 180;
      const projected = n.tokens.includes('easting') || n.tokens.includes('northing') || (e.dictionary !== undefined && (n.described[0] === 'x' || n.described[0] === 'y') && /^coordinates?$/.test(n.described[1] ?? ''));
      // A short name (`lat`) needs coordinate values; the full word (`latitude`) stands even with some stray values.
      const spelled = n.tokens.includes('latitude') || n.tokens.includes('longitude') || (e.dictionary !== undefined && (n.described.includes('latitude') || n.described.includes('longitude')));
      // (…and so does a short name over numbers written as text, in quotes (`'36.336222'`), all within the range.)
      const written = !isNumber(column) ? presentTexts(e).map((v) => Number(v.trim().replace(/^'(.*)'$/, '$1'))) : [];
      const textCoordinates = written.length >= 5 && written.every((v) => Number.isFinite(v) && Math.abs(v) <= limit);
      if (!isNumber(column) && !projected && !spelled && !textCoordinates) return undefined;
      if (!projected && !spelled && isNumber(column) && (Math.abs(num(column.min)) > limit || Math.abs(num(column.max)) > limit)) return undefined;
      return { role: 'geo', rule: `geo:${kind}`, confidence: 0.95, why: `named ${column.name}, ${isNumber(column) ? `values ${column.min}–${column.max}` : 'numbers written as text'}`, geo: kind };
    }
    // NUTS areas are coded in letters and digits (`ITC4`); a number so named is something else (grams of nuts).
    if (isNumber(column) && words.includes('nuts')) return undefined;
    // An area in numbers is a surface (km²); a named area (`grid_balancing_area` of `ERCOT`) is a place.
    // A bare `area` in text is a place where the table says it lists places ("… across local authority areas").
    // (…or where its values are mostly the postal codes of states, NCEI's `Area` of `CA`, `AK`, `HI` and a few
    // provinces, `TAS`, `BC`.)
    const stateCodes = head === 'area' && column.type === 'text' ? presentTexts(e).filter((v) => US_STATE_CODES.includes(v.trim())).length : 0;
    if (head === 'area' && (column.type !== 'text' || (n.tokens.length === 1 && !tableOfPlaces(e.table) && !(stateCodes >= 5 && stateCodes >= 0.6 * presentTexts(e).length)))) return undefined;
    // An area of work (`service_area` General Fund, Direct Services; a `policy_area`, a `subject_area`): a field, no place.
    if (head === 'area' && before !== undefined && ACTIVITY_AREAS.has(before)) return undefined;
    // An area code that is one per row is the key of a table of areas: it identifies them.
    // (…unless a place word says which place the code is of: `state_fips`, one per state, is the state.)
    if ((head === 'fips' || head === 'nuts' || head === 'lsoa' || head === 'msoa') && !(before && GEO_WORDS[before]) && e.table.rowCount >= 20 && column.distinctCount >= 0.95 * e.table.rowCount * (1 - column.nullFraction)) return undefined;
    // Numbers name places only as codes of areas (a district number, a state FIPS code), never below zero (an
    // `oxidation_state` of -5…9 is a charge).
    // (A municipality's code in numbers, `codi_municipi` 19, is the municipality.)
    const coded = n.tokens.some((t) => /^(code|codi|codigo|cod|cd)$/.test(t)) || gluedNumber !== null;
    if (isNumber(column) && !['postal-code', 'county', 'region', 'state'].includes(kind) && !(kind === 'city' && coded)) return undefined;
    if (isNumber(column) && num(column.min) < 0) return undefined;
    // (A zip code written as a real, `60625.0`, by a tool that read the column as numbers, is still the zip code.)
    if (isNumber(column) && column.type !== 'integer' && !(kind === 'postal-code' && wholeSteps(e))) return undefined;
    // A location written as a key (`NIWO_040.basePlot.ltr`, NEON's named location): no spaces, digits and dots or
    // underscores in nearly every value: the key of a place in a register, not a place's name.
    const keyed = column.type === 'text' ? presentTexts(e).map((v) => v.trim()) : [];
    if (kind === 'region' && keyed.length >= 10 && keyed.filter((v) => !/\s/.test(v) && /\d/.test(v) && /[._]/.test(v) && /[A-Za-z]/.test(v)).length >= 0.9 * keyed.length) {
      return { role: 'identifier', rule: 'identifier:location-key', confidence: 0.6, why: `named ${column.name}, values are keys without spaces (${keyed[0]}): the key of a place`, identifier: 'code' };
    }
    // Several places packed in one cell (`field_states` "Alabama, Georgia, Texas" on a recall): a list of places.
    // (Not a place and the larger place it is in, `Aberdeen, Scotland`: the places of a list stand alone on other rows.)
    const texts = column.type === 'text' ? presentTexts(e).map((v) => v.trim()) : [];
    const lists = texts.map((v) => v.split(/\s*,\s*/)).filter((parts) => parts.length >= 2 && parts.every((p) => /^[A-Z][A-Za-z.' -]+$/.test(p)));
    const alone = new Set(texts.filter((v) => !v.includes(',')));
    const listed = new Set(lists.flat());
    const packed = lists.length;
    const standAlone = [...alone].filter((v) => listed.has(v)).length;
    if (kind !== 'address' && kind !== 'city' && texts.length >= 10 && packed >= 0.2 * texts.length && lists.some((parts) => parts.length >= 3) && alone.size >= 2 && standAlone >= 0.5 * alone.size) return { role: 'structured', rule: 'structured:place-lists', confidence: 0.6, why: `named ${column.name}, ${Math.round((100 * packed) / texts.length)}% of values list several places joined by commas`, structured: 'list' };
    return { role: 'geo', rule: `geo:${kind}`, confidence: 0.85, why: `named ${column.name}: a ${kind.replace('-', ' ')}`, geo: kind };
  },
  // A union (Bangladesh's lowest rural council) beside the upazila it lies in: a place, as its upazila is.
  (e, n) => {
    if (e.column.type !== 'text' || n.tokens.length !== 1 || n.tokens[0] !== 'union') return undefined;
    const upazila = e.table.columns.find((c) => c !== e.column && ['upazila', 'upazilla', 'thana'].includes(nameTokens(c.originalName || c.name).at(-1) ?? ''));
    return upazila ? { role: 'geo', rule: 'geo:county', confidence: 0.7, why: `named ${e.column.name}, beside ${upazila.name}: a union, the council area an upazila is divided into`, geo: 'county' } : undefined;
  },
  // A currency (its ISO 4217 code, name or symbol) is a category prices are grouped by, not an entity referred to.
  (e, n) => {
    if (e.column.type !== 'text' || !n.tokens.includes('currency') || !n.last) return undefined;
    if (!['currency', 'code', 'name', 'symbol', 'iso', 'abbr', 'alphabetic', 'cd'].includes(n.last)) return undefined;
    return { role: 'dimension', rule: 'dimension:currency', confidence: 0.75, why: `named ${e.column.name}: a currency` };
  },
  // Codes joined by commas in one cell (the World Bank's `themecode` "8,11", `mjthemecode` "1,5,7"): a list of codes.
  (e, n) => {
    if (e.column.type !== 'text' || !/(code|codes|ids)$/.test(n.last ?? '')) return undefined;
    const texts = presentTexts(e).map((v) => v.trim());
    if (texts.length < 10) return undefined;
    const lists = texts.filter((v) => /^[A-Za-z0-9]{1,6}(\s*,\s*[A-Za-z0-9]{1,6})+$/.test(v) && !/^\d{1,3}(,\d{3})+$/.test(v));
    return lists.length >= 0.3 * texts.length && texts.every((v) => /^[A-Za-z0-9]{1,6}(\s*,\s*[A-Za-z0-9]{1,6})*$/.test(v)) ? { role: 'structured', rule: 'structured:code-lists', confidence: 0.6, why: `named ${e.column.name}, ${Math.round((100 * lists.length) / texts.length)}% of values list several codes joined by commas (${lists[0]})`, structured: 'list' } : undefined;
  },
  // Street names (`Victoria Ave`, `Swanston St`, `High Street`), nearly every value ending in a kind of street: where.
  // (Names of stops, most of them their cross streets and some landmarks, `Melbourne University`, stay names.)
  (e) => {
    if (e.column.type !== 'text') return undefined;
    const texts = [...new Set(presentTexts(e).map((v) => v.trim()))];
    if (texts.length < 10) return undefined;
    const streets = texts.filter((v) => STREET_NAME.test(v)).length;
    return streets >= 0.9 * texts.length ? { role: 'geo', rule: 'geo:street-values', confidence: 0.6, why: `${Math.round((100 * streets) / texts.length)}% of values name streets (${texts.find((v) => STREET_NAME.test(v))}…)`, geo: 'address' } : undefined;
  },
  // A place in an order named as such (`stop_order` 0–76, a stop's place along its route; `sort_order`): a position,
  // whatever small keys of another table its numbers match.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || n.tokens.length < 2 || n.last !== 'order' || e.declaredKey || hasAny(n.tokens, IDENTIFIER_WORDS) || hasAny(n.tokens, COUNT_WORDS)) return undefined;
    if (num(column.min) < 0 || num(column.min) > 1) return undefined;
    return { role: 'ordinal', rule: 'ordinal:place-in-order', confidence: 0.65, why: `named ${column.name}, whole numbers ${column.min}–${column.max}: a place in an order` };
  },
  // A message's parties named alone and written as numbers (`sender` 10, `recipient` 3109: the companies' codes in a
  // railway's messages): who sent and who receives, as codes, not amounts.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'integer' || n.tokens.length !== 1 || !/^(sender|recipient|receiver|addressee|originator|issuer)$/.test(n.tokens[0]) || num(column.min) < 0) return undefined;
    return { role: 'identifier', rule: 'identifier:party-code', confidence: 0.6, why: `named ${column.name}, whole numbers (${column.min}–${column.max}): the code of a party to each message`, identifier: 'code' };
  },
  // A code named in Catalan or Spanish, the word first (`codi_contaminant` 1–14, `codigo_producto`): small numbers,
  // few of them on many rows, code a category; long ones (`codi_eoi` 8019043, a station's EU code) identify.
  (e, n) => {
    const { column } = e;
    // (Not `cod`, a fish as often as a code: `cod (g)` of a catch.)
    if (!/^(codi|codigo)$/.test(n.tokens[0] ?? '') || n.tokens.length < 2 || GEO_WORDS[n.tokens[1]] || !isNumber(column)) return undefined;
    const rows = e.table.rowCount * (1 - column.nullFraction);
    if (num(column.max) <= 999 && column.distinctCount <= 50 && rows >= 2 * column.distinctCount) return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} small codes over ${Math.round(rows)} rows: the code of a category` };
    if (num(column.min) >= 1000) return { role: 'identifier', rule: 'identifier:code-name', confidence: 0.6, why: `named ${column.name}, long numbers (${column.min}–${column.max}): codes that identify`, identifier: 'code' };
    return undefined;
  },
  (e, n) => {
    // A join by a name meant for people (a film title, a team's name) makes it no code: it is read as text or a category.
    if ((e.referenced || e.foreignKey) && humanNames(e)) return undefined;
    // …and so does a join by a column named as a name whose values are words (`team_name` `Brazil`, beside `team_id`).
    if ((e.referenced || e.foreignKey) && (n.last === 'name' || n.last === 'title') && e.column.type === 'text' && e.fingerprint.codeLike < 0.3 && presentTexts(e).length > 0 && presentTexts(e).every((v) => /^[A-Z][A-Za-z'’.-]*(\s+[A-Za-z'’.&-]+)*$/.test(v.trim()))) return undefined;
    // …and a join by a few words (`taxa`: `Rodent`, `Bird`, `Reptile`, `Rabbit`) to a table that lists them alone, or
    // from a table that repeats each on many rows: the category's names, which a list of the allowed ones holds.
    if ((e.referenced || e.foreignKey) && namedCategory(e)) return undefined;
    // A place in a result (`result_position` 1–13) matches the small ids of some table by chance: it is a position.
    if (e.foreignKey && !e.declaredKey && n.last !== undefined && ORDINAL_WORDS.has(n.last) && !hasAny(n.tokens, IDENTIFIER_WORDS)) return undefined;
    if (e.referenced && e.column.candidateKey) return { role: 'identifier', rule: 'identifier:referenced-key', confidence: 0.9, why: 'a unique column other tables refer to: the key of its table', identifier: 'primary-key' };
    // A category named as such alone (`type`: `G`, `OCl`, `Dup`), short codes a list of its kinds spells out, each on
    // many rows: the category the rows are grouped by, whatever table lists it. (`type_id` stays a key.)
    const rows = e.table.rowCount * (1 - e.column.nullFraction);
    if (e.foreignKey && !e.declaredKey && e.column.type === 'text' && n.tokens.length === 1 && DIMENSION_WORDS.has(n.tokens[0]) && e.column.distinctCount <= 50 && rows >= 10 * e.column.distinctCount && e.fingerprint.meanLength <= 8) {
      return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.6, why: `named ${e.column.name}, ${e.column.distinctCount} short codes of a listed kind over ${Math.round(rows)} rows: a category` };
    }
    return e.foreignKey ? { role: 'identifier', rule: 'identifier:foreign-key', confidence: 0.9, why: 'its values are keys of another table', identifier: 'foreign-key' } : undefined;
  },
  // A table of one column that lists a category's names (`distinct_taxa_table`: `Bird`, `Rabbit`, `Reptile`,
  // `Rodent`): the category, listed.
  (e) => (e.table.columns.length === 1 && namedCategory(e) ? { role: 'dimension', rule: 'dimension:listed-names', confidence: 0.6, why: `the only column of ${e.table.name}, ${e.column.distinctCount} names written as words: a list of a category's values` } : undefined),
  // A rank of the tree of life named alone (`genus`, `family`, `phylum`, `taxa`), up to 50 names: the group the
  // species are grouped by.
  (e, n) => {
    const { column } = e;
    if (column.type !== 'text' || n.tokens.length !== 1 || !RANK_NAME.test(n.tokens[0]) || column.distinctCount < 2 || column.distinctCount > 50) return undefined;
    // (A `family` or an `order` is one only beside another rank or a species: a person's family is a surname.)
    const ranks = e.table.columns.filter((c) => c !== column && /^(genus|species|taxa|taxon|phylum|kingdom|class|order|family|scientific_?name|subfamily)$/i.test((c.originalName || c.name).trim()));
    if (/^(family|order|tribe)$/.test(n.tokens[0]) && ranks.length === 0) return undefined;
    const values = (e.allValues ?? column.samples).filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
    // (Latin names, one word each, with a capital: `Dipodomys`, `Heteromyidae`; an `order` of `3` or `ASC` is no rank.)
    // (…their authors and year after them as a checklist writes them: `Helicidae Rafinesque, 1815`, `Theba Risso, 1826`.)
    if (values.length < 2 || !values.every((v) => TAXON_NAME.test(v))) return undefined;
    return { role: 'dimension', rule: 'dimension:taxonomic-rank', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} names of one word: a rank of the tree of life the rows are grouped by` };
  },
  // A case's citation in a law report (`100 A.2d 36`, `313 Ky. 374`: volume, reporter, first page) under a name that
  // says so: the key lawyers find the case by.
  (e, n) => {
    if (e.column.type !== 'text' || !n.tokens.some((t) => t === 'cite' || t === 'citation') || n.tokens.some((t) => COUNT_WORDS.has(t) || t === 'count')) return undefined;
    const shown = presentTexts(e).map((v) => v.trim());
    // (…or of a statute, `28 U.S.C.A. § 451`: title, code, section.)
    if (shown.length < 3 || shown.filter((v) => /^\d{1,4}\s+[A-Z][A-Za-z0-9.' ]{0,24}?\s+(§+\s*)?\d[\d.-]*$/.test(v)).length < 0.9 * shown.length) return undefined;
    return { role: 'identifier', rule: 'identifier:law-report-citation', confidence: 0.7, why: `named ${e.column.name}, values are citations in law reports (${shown[0]}): volume, reporter and page`, identifier: 'code' };
  },
  // The page a thing starts or ends on (`first_page`, `last_page`, `start_page` of a reported case or an article): a
  // position in a volume, not a quantity.
  (e, n) => {
    const { column } = e;
    if (n.tokens.length !== 2 || !/^(page|pg|pages)$/.test(n.tokens[1]) || !/^(first|last|start|end|begin|starting|ending)$/.test(n.tokens[0])) return undefined;
    if (!isNumber(column) && !(column.type === 'text' && e.fingerprint.numericText >= 0.9)) return undefined;
    return { role: 'ordinal', rule: 'ordinal:page-position', confidence: 0.7, why: `named ${column.name}: the page it ${n.tokens[0] === 'last' || n.tokens[0].startsWith('end') ? 'ends' : 'starts'} on, a position in a volume` };
  },
  // Integers a document lists as codes (`1: Sun`, `2: Moon`, … under "O - Object"), each row one of them: a coded
  // category, however it is summed or averaged elsewhere. (A sentinel or two beyond the list, `99` for unknown, too.)
  (e) => {
    const { column } = e;
    const codes = e.dictionary?.codes;
    // (…and the codes the codebook gives for answers not had, NLS's -1 to -5, beside them.)
    const missing = e.dictionary?.missingCodes ?? [];
    if (!codes || codes < 2 || column.type !== 'integer' || column.distinctCount < 2 || column.distinctCount > codes + 2 + missing.length || num(column.min) < Math.min(-1, ...missing)) return undefined;
    // Two codes, 0 and 1, beside those for no answer ("0 CONDITION DOES NOT APPLY", "1 CONDITION APPLIES"): a yes or no.
    const answered = ((e as EvidenceWithSample).sample ?? column.samples).filter((v) => typeof v === 'number' && !missing.includes(v));
    if (codes === 2 && missing.length > 0 && answered.length > 0 && answered.every((v) => v === 0 || v === 1)) return { role: 'flag', rule: 'flag:described-yes-no', confidence: 0.7, why: `${e.dictionary!.file} lists two codes, 0 and 1, and ${missing.join(', ')} for no answer: a yes or no` };
    return { role: 'dimension', rule: 'dimension:described-codes', confidence: 0.7, why: `${e.dictionary!.file} lists ${codes} codes for its values (${column.distinctCount} of them used): a coded category` };
  },
  // A count's size told in classes beside the count (NCEI's `Death Description` 0–4 beside `Deaths`: none, few, some,
  // many, very many): an ordered class, not an amount.
  (e, n) => {
    const { column } = e;
    if ((n.last !== 'description' && n.last !== 'desc' && n.last !== 'class') || n.tokens.length < 2 || column.type !== 'integer' || num(column.min) < 0 || num(column.max) > 9 || column.distinctCount < 2) return undefined;
    const singular = (t: string) => t.replace(/ies$/, 'y').replace(/s$/, '');
    const stem = n.tokens.slice(0, -1).map(singular).join(' ');
    // (…its unit perhaps after it: `Damage ($Mil)` for `Damage Description`.)
    const counted = e.table.columns.find((c) => {
      if (c === column || !isNumber(c)) return false;
      const words = nameTokens(c.originalName || c.name).map(singular);
      const unit = words.length === stem.split(' ').length + 1 && /^(mil|mill|million|millions|usd|dollar|thousand|bn|billion|k|m)$/.test(words[words.length - 1]);
      return words.join(' ') === stem || (unit && words.slice(0, -1).join(' ') === stem);
    });
    if (!counted) return undefined;
    return { role: 'ordinal', rule: 'ordinal:size-class', confidence: 0.65, why: `named ${column.originalName || column.name}, codes ${column.min}–${column.max} beside ${counted.originalName || counted.name}: its size told in classes` };
  },
  // An intensity on the Modified Mercalli scale (`MMI Int` 2–12): degrees of shaking, ordered, not an amount.
  (e, n) => {
    const { column } = e;
    if (!n.tokens.some((t) => t === 'mmi' || t === 'mercalli') || !(column.type === 'integer' || wholeSteps(e)) || num(column.min) < 1 || num(column.max) > 12) return undefined;
    return { role: 'ordinal', rule: 'ordinal:intensity-scale', confidence: 0.7, why: `named ${column.originalName || column.name}, whole numbers ${column.min}–${column.max}: degrees of the Modified Mercalli intensity scale` };
  },
  // Grades written as numbers, some with a plus or a minus after them (JMA's seismic intensity `1` … `4`, `5-`, `5+`,
  // `6-`, `6+`, `7`): steps of a scale, ordered, not amounts.
  (e) => {
    const { column } = e;
    if (column.type !== 'text') return undefined;
    const values = (e.allValues ?? column.samples).filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
    if (values.length < 4 || !values.every((v) => /^\d{1,2}[+-]?$/.test(v))) return undefined;
    const signed = values.filter((v) => /[+-]$/.test(v));
    // (…both signs of one grade among them, `5-` and `5+`.)
    if (signed.length < 2 || !signed.some((v) => values.includes(`${v.slice(0, -1)}${v.endsWith('+') ? '-' : '+'}`))) return undefined;
    return { role: 'ordinal', rule: 'ordinal:graded-numbers', confidence: 0.65, why: `values are grades written as numbers, some split by a plus and a minus (${signed.slice(0, 2).join(', ')}): steps of a scale` };
  },
  // Points written as ISO 6709 says (`+37.1+136.7-10000/`: latitude, longitude, height): a position, in one cell.
  (e) => {
    const { column } = e;
    if (column.type !== 'text') return undefined;
    const values = presentTexts(e).map((v) => v.trim());
    if (values.length < 3 || values.filter((v) => ISO_6709_POINT.test(v)).length < 0.95 * values.length) return undefined;
    return { role: 'geo', rule: 'geo:iso6709-points', confidence: 0.75, why: `values are points written as ISO 6709 (${values[0]}): latitude, longitude and height in one cell`, geo: 'geometry' };
  },
  // Names of places by their words (`Noto, Ishikawa Prefecture`, `Off the Coast of Iwate Prefecture`, `Toyama Bay`;
  // `石川県能登地方`, `富山湾`): a prefecture, a region, a coast or a sea in most of them, a place.
  (e) => {
    const { column } = e;
    if (column.type !== 'text' || column.distinctCount < 5) return undefined;
    const values = [...new Set(presentTexts(e).map((v) => v.trim()))];
    if (values.length < 5 || values.some((v) => v.length > 80)) return undefined;
    const placed = values.filter(placeWordValue).length;
    if (placed < 0.7 * values.length) return undefined;
    return { role: 'geo', rule: 'geo:place-word-values', confidence: 0.6, why: `${Math.round((100 * placed) / values.length)}% of values name a place by its kind (${values.find(placeWordValue)})`, geo: 'region' };
  },
  // A code beside the name it stands for, as Japanese open data pairs them (`acd` and `anm`, `pref_cd` and `pref_nm`,
  // `city_code` and `city_name`), where the names are of places: the place's code.
  (e) => {
    const { column } = e;
    const own = (column.originalName || column.name).toLowerCase();
    const stem = /^(.+?)_?(cd|code)$/.exec(own)?.[1];
    if (!stem) return undefined;
    const named = e.table.columns.find((c) => c !== column && new RegExp(`^${stem.replace(/[^a-z0-9]/g, '.')}_?(nm|name)$`).test((c.originalName || c.name).toLowerCase()));
    const names = (named?.samples ?? []).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (!named || names.length < 3 || names.filter(placeWordValue).length < 0.7 * names.length) return undefined;
    // (A code on one row each, an MSOA's `E02004297` beside its name, is the key of a table of places: it identifies.)
    if (column.candidateKey || column.distinctCount >= 0.95 * e.table.rowCount * (1 - column.nullFraction)) return undefined;
    return { role: 'geo', rule: 'geo:code-of-named-place', confidence: 0.6, why: `named ${column.originalName || column.name} beside ${named.originalName || named.name}, names of places (${names.find(placeWordValue)}): the place's code`, geo: 'region' };
  },
  // What a dictionary says the column is, by the head of its description: an order, a classification, a file name.
  (e, n) => {
    const { column } = e;
    if (n.described.length === 0 || hasAny(n.tokens, IDENTIFIER_WORDS)) return undefined;
    // Integers the dictionary calls categorical or a class code ("CORINE Land Cover class (categorical land-use
    // variable)", unit "category code"): a coded category, whatever sums its numbers allow.
    const categorical = n.described.includes('categorical') || /^(category|class)\s+codes?$|^categor(y|ical)$/i.test(e.dictionary!.unit?.trim() ?? '');
    if (categorical && column.type === 'integer' && present(e).distinct >= 2 && present(e).rows >= 2 * present(e).distinct) return { role: 'dimension', rule: 'dimension:described-category', confidence: 0.7, why: `described as "${e.dictionary!.description}"${e.dictionary!.unit ? ` (unit ${e.dictionary!.unit})` : ''}: a coded category, ${present(e).distinct} codes over ${Math.round(present(e).rows)} rows` };
    const head = descriptionHead(n.described);
    if (!head) return undefined;
    const said = `described as "${e.dictionary!.description}"`;
    // An order or a position in integers ("The order in which the skaters skated", "positional order of the aspect").
    if (POSITION_HEADS.has(head) && column.type === 'integer' && num(column.min) >= 0 && column.distinctCount <= 200) return { role: 'ordinal', rule: 'ordinal:described-position', confidence: 0.75, why: `${said}: a position` };
    // A classification or a type whose values recur ("ECO classification"): a category, however code-like its values.
    const { rows, distinct } = present(e);
    // (A sampling station's number so described, "Station at which the data is collected", `3`, `18-Deep`: the place
    // sampled, which the station rules read.)
    const stationNumbers = SAMPLING_UNITS.has(head) && e.fingerprint.numericText >= 0.9;
    if ((CATEGORY_HEADS.has(head) || DIMENSION_WORDS.has(head)) && !stationNumbers && column.type === 'text' && distinct >= 2 && rows >= 2 * distinct && !reorderedLists(e)) return { role: 'dimension', rule: 'dimension:described-category', confidence: 0.7, why: `${said}: a category, ${distinct} values over ${Math.round(rows)} rows` };
    if (FILE_HEADS.has(head) && column.type === 'text') return { role: 'structured', rule: 'structured:described-file', confidence: 0.7, why: `${said}: a file name`, structured: 'path' };
    return undefined;
  },
  // Names of keys and codes.
  (e, n) => {
    const { column, table } = e;
    if (n.tokens.length === 0) return undefined;
    const first = n.tokens[0];
    // ArcInfo's pair of internal numbers for a coverage (`CNTY_` beside `CNTY_ID`): both number the features.
    const original = (column.originalName || column.name).toLowerCase();
    if (/^[a-z]+_$/.test(original) && table.columns.some((c) => (c.originalName || c.name).toLowerCase() === `${original}id`)) {
      return { role: 'identifier', rule: 'identifier:coverage-number', confidence: 0.6, why: `named ${column.name} beside ${original}id: the internal number of each feature of the coverage`, identifier: 'code' };
    }
    // The number of the instrument that made a reading (`satellite` 16 for GOES-16, a `sensor` 3): which one, not how much.
    if (n.tokens.length === 1 && /^(satellite|sensor|instrument|detector|spacecraft|buoy|probe)$/.test(n.tokens[0]) && column.type === 'integer' && column.distinctCount <= 50) {
      return { role: 'identifier', rule: 'identifier:instrument-number', confidence: 0.55, why: `named ${column.name}, ${column.distinctCount} whole number(s): the instrument that made each reading`, identifier: 'code' };
    }
    // The number of the tray, plate or batch a lab's samples were kept in (`colony_tray` 1–10, `fat_analysis_plate` 1–9),
    // each holding many rows: the batch rows are grouped by, not a quantity and not one row's key.
    if (n.last !== undefined && LAB_BATCH_WORDS.has(n.last) && isNumber(column) && (wholeSteps(e)?.min ?? -1) >= 0 && column.distinctCount >= 2 && column.distinctCount <= 50 && present(e).rows >= 3 * column.distinctCount) {
      return { role: 'dimension', rule: 'dimension:batch-number', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} whole numbers over ${Math.round(present(e).rows)} rows: the ${n.last} each row was kept in` };
    }
    // A place or unit of sampling named in the singular, in whole numbers (`BayStation` 60069–60385, `site` 12): its
    // number, which says where, not how much.
    // (…or written as text, `3`, `18-Deep` for a second cast at station 18.)
    const wholeText = column.type === 'text' && e.fingerprint.plainInteger >= 0.9;
    if (n.tokens.length <= 3 && n.last !== undefined && SAMPLING_UNITS.has(n.last) && ((column.type === 'integer' && num(column.min) >= 0) || wholeText) && !/^(num|number|no|n|count|total)$/.test(n.tokens[0])) {
      return { role: 'identifier', rule: 'identifier:unit-number', confidence: 0.6, why: `named ${column.name}, whole numbers (${column.min}–${column.max}): the number of the ${n.last} each row is of`, identifier: 'code' };
    }
    // The how-manieth time a sampling happened (`sampling_bout` 1–8, `visit` 1–3, `replicate` 1–4, `visit_no`): an order.
    const occasion = n.last !== undefined && OCCASION_WORDS.has(n.last) ? n.last : n.tokens.length === 2 && /^(no|nr|num|number)$/.test(n.last ?? '') && OCCASION_WORDS.has(n.tokens[0]) ? n.tokens[0] : undefined;
    // (`days_since_visit` counts days, not visits.)
    if (occasion && column.type === 'integer' && num(column.min) >= 0 && num(column.max) <= 50 && !/^(num|number|no|n|count|total)$/.test(n.tokens[0]) && !n.tokens.includes('since')) {
      return { role: 'ordinal', rule: 'ordinal:occasion-number', confidence: 0.6, why: `named ${column.name}, whole numbers ${column.min}–${column.max}: which ${occasion} it was, in order` };
    }
    // A bare word in whole numbers beside the same word's title or name (`area` 99 beside `area_title` "U.S.",
    // `county` beside `county_name`): the code of what that column names, one name per code.
    const titled = n.tokens.length <= 2 && column.type === 'integer' && num(column.min) >= 0 && !hasAny(n.tokens, COUNT_WORDS) && !hasAny(n.tokens, ADDITIVE_WORDS) && !hasAny(n.tokens, NON_ADDITIVE_WORDS)
      ? table.columns.find((c) => c !== column && c.type === 'text' && nameTokens(c.originalName || c.name).join(' ') === `${n.tokens.join(' ')} ${nameTokens(c.originalName || c.name).at(-1)}` && /^(name|title|label|desc|description)$/.test(nameTokens(c.originalName || c.name).at(-1) ?? '') && column.distinctCount <= c.distinctCount)
      : undefined;
    if (titled && hasAny(n.tokens, DIMENSION_WORDS)) return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.65, why: `named ${column.name}, whole numbers, beside ${titled.name}: the code of a ${hasAny(n.tokens, DIMENSION_WORDS)} it names` };
    if (titled) return { role: 'identifier', rule: 'identifier:code-beside-name', confidence: 0.65, why: `named ${column.name}, whole numbers, beside ${titled.name}: the code of what that column names`, identifier: 'code' };
    // A survey's design (`strata` 59–148, `psu` 1–3): the stratum or sampling unit a respondent was drawn from, codes.
    if (n.last !== undefined && /^(strata|stratum|psu|sdmvstra|sdmvpsu)$/.test(n.last) && column.type === 'integer' && !column.candidateKey) return { role: 'dimension', rule: 'dimension:survey-design', confidence: 0.65, why: `named ${column.name}: the ${n.last === 'psu' || n.last === 'sdmvpsu' ? 'primary sampling unit' : 'stratum'} of a survey's design, a code` };
    // The revision of a record (`version_id` 1, 2, 3 on NASA DONKI's events, a `version_number`): an order, when no
    // table lists versions.
    if (n.tokens.length === 2 && n.tokens[0] === 'version' && /^(id|number|no|num|nr)$/.test(n.tokens[1]) && column.type === 'integer' && num(column.min) >= 0 && num(column.max) <= 50 && !column.candidateKey && !e.referenced && !e.foreignKey) {
      return { role: 'ordinal', rule: 'ordinal:revision', confidence: 0.6, why: `named ${column.name}, whole numbers ${column.min}–${column.max}: revisions in order` };
    }
    // `number_of_orders`, `num_items`: a count, not a key.
    if ((first === 'number' || first === 'num' || first === 'no') && n.tokens.length > 1 && n.tokens[1] === 'of') return undefined;
    if ((first === 'num' || first === 'n') && n.tokens.length > 1 && isNumber(column) && !column.candidateKey) return undefined;
    // `id` before another word may abbreviate identification (`id_confidence`, `id_method`): what the head says it is.
    const idQualifier = n.tokens.length === 2 && n.tokens[0] === 'id' && (DIMENSION_WORDS.has(n.tokens[1]) || /^(confidence|certainty|quality|accuracy|status|level|notes?|comments?)$/.test(n.tokens[1]));
    // (`recipient_org_identifier` `GB-CHC-1096643` identifies; a `time_identifier` of `Academic year` says what kind of period.)
    const identifierHead = n.last === 'identifier' && e.fingerprint.multiWord < 0.5 ? 'identifier' : undefined;
    const idWord = idQualifier ? undefined : hasAny(n.tokens, IDENTIFIER_WORDS) ?? classificationCode(n.tokens) ?? identifierHead;
    // (`total_number`, `average_number`: a statistic of a count, not the number a thing is known by.)
    const codeWord = n.last && CODE_WORDS.has(n.last) && !COUNT_STATISTICS.test(n.tokens.at(-2) ?? '') ? n.last : undefined;
    // (A place's code as ISO 3166 writes it, `locationID` `ISO_3166-2:BE` in Darwin Core, is the place: decided by the
    // geographic rules.)
    if (idWord && column.type === 'text' && presentTexts(e).length > 0 && presentTexts(e).every((v) => ISO_3166_CODE.test(v.trim()))) return undefined;
    // A key is never smoothed, predicted or bounded (`smoothed_ssn`, `low_ssn`: sunspot numbers, not social security ones).
    if (idWord && n.tokens.some((t) => ESTIMATE_WORDS.has(t))) return undefined;
    // Numbers with a fraction (`ssn` 118.3, a sunspot number; `key` 0.25) are no keys or codes, whatever the name.
    // (A key named as such, `survey_id` 2016.01, may be written as a decimal.)
    if (idWord && !/^(id|ids|identifier|key|pk|fk)$/.test(idWord) && column.type === 'real' && column.samples.some((v) => typeof v === 'number' && !Number.isInteger(v))) return undefined;
    // (…nor is an `_id` its document describes as no key, stored as reals: `unknown_id`, "Identified as DWP/HMRC
    // customer", pupils counted and their share in per cent.)
    if (idWord === 'id' && e.dictionary && !describedIdentifier(n.described, e.dictionary.description) && column.type === 'real' && !column.candidateKey) return undefined;
    // …nor is a column headed by an indicator's code (the World Bank's `AG.AGR.TRAC.NO`, `NY.GDP.MKTP.CD`) that a
    // dictionary describes as a quantity ("Agricultural machinery, tractors", "GDP (current US$)"): its last part is a unit.
    if (INDICATOR_CODE.test(column.originalName ?? '') && e.dictionary && !describedIdentifier(n.described, e.dictionary.description)) return undefined;
    if (!idWord && !codeWord) {
      const said = describedIdentifier(n.described, e.dictionary?.description);
      return said ? { role: 'identifier', rule: 'identifier:described', confidence: 0.8, why: `described as "${e.dictionary!.description}" (${said})`, identifier: column.candidateKey ? 'primary-key' : 'code' } : undefined;
    }
    // `agency_code` beside `agency_name`: the code of an entity the table names, not a category.
    const stem = n.tokens.slice(0, -1).join(' ');
    const named = codeWord !== undefined && stem !== '' && table.columns.some((c) => c !== column && nameTokens(c.originalName || c.name).join(' ').replace(/ (name|title|desc|description)$/, '') === stem && c.type === 'text');
    // A colour's code written as the colour (`colour_code` blue, yellow, red): a category.
    if (column.type === 'text' && n.tokens.some((t) => t === 'colour' || t === 'color') && presentTexts(e).length > 0 && presentTexts(e).every((v) => /^[A-Za-z]+( [A-Za-z]+)?$/.test(v.trim()))) return { role: 'dimension', rule: 'dimension:colour', confidence: 0.65, why: `named ${column.name}, colours in words (${column.samples.slice(0, 3).join(', ')})` };
    // (A site's or a station's number beside its name is the number of the place sampled: it identifies, as below.)
    // The code of what a recurring description beside it says (`event_clearance_code` beside
    // `event_clearance_description`, 66 kinds over 1,000 calls): the code of a category, not of an entity.
    // (…and so is a number so described, `classification_id` beside `classification_desc`, when no table refers to it.)
    const describedId = !codeWord && idWord === 'id' && n.last === 'id' && stem !== '' && !e.referenced && !e.foreignKey && !column.candidateKey;
    const describedBeside = named || describedId ? table.columns.find((c) => c !== column && c.type === 'text' && /^(desc|description)$/.test(nameTokens(c.originalName || c.name).at(-1) ?? '') && nameTokens(c.originalName || c.name).slice(0, -1).join(' ') === stem) : undefined;
    if (describedBeside && describedBeside.distinctCount >= 2 && describedBeside.distinctCount <= 200 && table.rowCount * (1 - describedBeside.nullFraction) >= 4 * describedBeside.distinctCount && Math.abs(describedBeside.distinctCount - column.distinctCount) <= 0.1 * column.distinctCount + 1) {
      return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.65, why: `the code of what ${describedBeside.name} describes: ${column.distinctCount} codes over ${Math.round(table.rowCount * (1 - column.nullFraction))} rows, a category` };
    }
    // A code that goes with a recurring category beside it named with its first word, as many codes as categories
    // (`Expenditure Code` Z970590 beside `Expenditure Catergory` "C.I.T.Awaiting Payment", 170 of each over 8,648
    // payments): the code of the category, not of an entity. (A name beside it, `supplier_name`, names an entity.)
    const recurs = (c: ColumnProfile) => c.distinctCount >= 2 && c.distinctCount <= 200 && table.rowCount * (1 - c.nullFraction) >= 10 * c.distinctCount;
    const categoryBeside = codeWord && !named && stem !== '' && recurs(column)
      ? table.columns.find((c) => {
          const words = nameTokens(c.originalName || c.name);
          const last = words.at(-1) ?? '';
          return c !== column && c.type === 'text' && words.length >= 2 && words[0] === n.tokens[0] && !/^(name|names|title|titles)$/.test(last) && !CODE_WORDS.has(last) && !hasAny(words, IDENTIFIER_WORDS) && recurs(c) && Math.abs(c.distinctCount - column.distinctCount) <= 0.02 * column.distinctCount + 1;
        })
      : undefined;
    // (…and so is a small number named as the id of a recurring category beside it, `incident_id` 1–10 beside
    // `incident` "Mechanical", "Held By": nine of each over 889 delays.)
    const categoryNamed = describedId && isNumber(column) && num(column.max) <= 99 && column.distinctCount <= 30 && recurs(column)
      ? table.columns.find((c) => c !== column && c.type === 'text' && nameTokens(c.originalName || c.name).join(' ') === stem && recurs(c) && Math.abs(c.distinctCount - column.distinctCount) <= 0.02 * column.distinctCount + 1)
      : undefined;
    if (categoryBeside ?? categoryNamed) return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.6, why: `the code of ${(categoryBeside ?? categoryNamed)!.name} beside it: ${column.distinctCount} codes and ${(categoryBeside ?? categoryNamed)!.distinctCount} categories over ${Math.round(table.rowCount * (1 - column.nullFraction))} rows, a category` };
    if (named && hasAny(n.tokens, DIMENSION_WORDS) && !n.tokens.slice(0, -1).some((t) => SAMPLING_UNITS.has(t))) return { role: 'dimension', rule: 'dimension:category-code', confidence: 0.7, why: `the code of a ${hasAny(n.tokens, DIMENSION_WORDS)} the table also names` };
    if (named) return { role: 'identifier', rule: 'identifier:code-beside-name', confidence: 0.8, why: `the code of what ${table.columns.find((c) => c !== column && nameTokens(c.originalName || c.name).join(' ').startsWith(stem))?.name} names`, identifier: 'code' };
    // A code that recurs across many rows names a category (a currency code); one that is nearly unique identifies (an order number).
    const rows = e.table.rowCount * (1 - column.nullFraction);
    // (Not the code of a place sampled, `station_code` `apacpnut` on every row of a station's file: it says which station.)
    const sampledPlace = codeWord !== undefined && n.tokens.length === 2 && SAMPLING_UNITS.has(n.tokens[0]);
    if (!idWord && !sampledPlace && column.type === 'text' && !column.candidateKey && column.distinctCount < 0.5 * rows && (column.distinctCount <= 50 || (rows >= 10 * column.distinctCount && column.distinctCount <= 200))) return undefined;
    // (A zip or postal code in numbers, `60625.0`, is a place: the places' rule reads it.)
    const postal = n.tokens.slice(0, -1).some((t) => GEO_WORDS[t] === 'postal-code');
    if (postal && !idWord) return undefined;
    // The how-manieth of something each parent has (`larviposition_number` 1–9: a mother's first larva, her second …):
    // every parent has a first, fewer a second, fewest a ninth. An order, not a code.
    const sequence = !idWord && n.tokens.length >= 2 && /^(number|no|nr|num)$/.test(n.last ?? '') && !COUNT_WORDS.has(first) && !/^(num|number|no|n|total)$/.test(first) ? sequenceLength(e) : undefined;
    if (sequence) return { role: 'ordinal', rule: 'ordinal:sequence-number', confidence: 0.6, why: `named ${column.name}, whole numbers 1–${column.max}, each rarer than the one before in the rows read: a position in a sequence` };
    // The number of an entity within its group (`plant_number` 1–20 within each provenance site): which one, not how many.
    if (n.tokens.length === 2 && ENTITY_NOUNS.has(first) && /^(number|no|nr|num)$/.test(n.last ?? '') && column.type === 'integer' && num(column.min) >= 0) {
      return { role: 'identifier', rule: 'identifier:entity-number', confidence: 0.6, why: `named ${column.name}, whole numbers: the number of the ${first} a row is about`, identifier: 'code' };
    }
    // A column named only `Number`, whole numbers that repeat across rows (hosts of a kind in a household, 36 values
    // over 150 rows): how many, not which. (A code list's numbers are a dozen or so.)
    // (Numbers that run without gaps, 1, 2, 3 … a shirt's, 73 … 104 a match's, or one per row, an atomic number, say which.)
    const bareNumber = n.tokens.length === 1 && /^(number|num)$/.test(n.tokens[0]) && column.type === 'integer' && num(column.min) >= 0 && column.distinctCount > 12 && !column.candidateKey && column.distinctCount < 0.5 * e.table.rowCount && num(column.max) > 2 * column.distinctCount && num(column.max) - num(column.min) + 1 > 1.5 * column.distinctCount;
    // A phone number stored as a whole number (`buyer_phone_number` 4163920627): a phone number, not a code.
    if (n.tokens.some((t) => STRUCTURED_WORDS[t] === 'phone') && column.type === 'integer' && num(column.min) >= 1_000_000 && num(column.max) < 1e15) {
      return { role: 'structured', rule: 'structured:phone-numbers', confidence: 0.65, why: `named ${column.name}, numbers of seven digits or more: phone numbers`, structured: 'phone' };
    }
    if (!idWord && !postal && !bareNumber && isNumber(column) && !column.candidateKey && column.distinctCount <= 50 && !e.referenced) {
      return { role: 'dimension', rule: 'dimension:numeric-code', confidence: 0.7, why: `named ${column.name}, ${column.distinctCount} integer codes` };
    }
    // The number of a category no table lists (`gender_id` 1 = female, 2 = male; `status_id`): a coded category.
    if (idWord && n.tokens.length === 2 && n.tokens[1] === idWord && /^(gender|sex|type|kind|status|category|class|colour|color)$/.test(n.tokens[0]) && !e.referenced && !e.foreignKey && !column.candidateKey && column.distinctCount <= 12) {
      return { role: 'dimension', rule: 'dimension:category-number', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} values, and no table lists ${n.tokens[0]}s: the code of a category` };
    }
    // (…and so is one the table names beside it, `sector_id_eia` 1–7 beside `sector_name_eia`: the number of each
    // sector named there, not a key of anything.)
    // (Numbered 1 to 7 as a list is; ids like 11, 19, 26 are another table's keys, a party family's.)
    const numberedList = isNumber(column) && num(column.min) >= 0 && num(column.max) <= column.distinctCount + 1;
    const categoryNamedBeside = idWord && n.tokens[1] === idWord && DIMENSION_WORDS.has(n.tokens[0]) && numberedList && !e.referenced && !e.foreignKey && !column.candidateKey && column.distinctCount >= 2 && column.distinctCount <= 12
      ? table.columns.find((c) => c !== column && c.type === 'text' && nameTokens(c.originalName || c.name)[0] === n.tokens[0] && nameTokens(c.originalName || c.name).some((t) => t === 'name' || t === 'desc' || t === 'description') && Math.abs(c.distinctCount - column.distinctCount) <= 1)
      : undefined;
    if (categoryNamedBeside) return { role: 'dimension', rule: 'dimension:category-number', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} values beside ${categoryNamedBeside.name}: the number of each ${n.tokens[0]} named there` };
    if (bareNumber) return undefined;
    // An "ID" that holds a long title in words, the same on many rows (GOS's `cruise_ID`: "Beyster Family Fund and Life
    // Technologies Foundation-funded Global Ocean Sampling Expedition …"): what the rows are grouped under, no key.
    const { rows: titledRows, distinct: titledValues } = present(e);
    if (column.type === 'text' && !e.referenced && !e.foreignKey && !column.candidateKey && e.fingerprint.multiWord >= 0.9 && e.fingerprint.meanLength >= 30 && titledValues <= 50 && titledRows >= 3 * titledValues) {
      return { role: 'dimension', rule: 'dimension:titled-id', confidence: 0.55, why: `named ${column.name}, but ${titledValues} long titles in words over ${Math.round(titledRows)} rows: a grouping` };
    }
    // A bare `key` of a few words, each on many rows (ASE's `number_key_values.key` of `epot` and `n`, a dictionary's
    // `key` of PK / FK): which attribute a key–value row holds, a category, not the key of anything.
    if (n.tokens.length === 1 && /^(key|keys)$/.test(n.tokens[0]) && column.type === 'text' && !column.candidateKey && !e.referenced && !e.foreignKey && titledValues >= 2 && titledValues <= 50 && titledRows >= 2 * titledValues && presentTexts(e).every((v) => /^[A-Za-z][A-Za-z _/+-]*$/.test(v.trim()))) {
      return { role: 'dimension', rule: 'dimension:attribute-key', confidence: 0.6, why: `named ${column.name}, ${titledValues} words over ${Math.round(titledRows)} rows: which attribute each key–value row holds` };
    }
    const kind: IdentifierKind = column.candidateKey && (e.referenced || table.columns[0] === column || n.tokens.length === 1) ? 'primary-key' : column.candidateKey ? 'code' : 'code';
    return { role: 'identifier', rule: idWord ? 'identifier:id-name' : 'identifier:code-name', confidence: idWord ? 0.9 : 0.75, why: `named ${column.name}`, identifier: kind };
  },
  // Ordered categories.
  (e, n) => {
    const { column, fingerprint: f } = e;
    const colours = column.samples.every((v) => typeof v !== 'string' || /^(green|yellow|orange|red|amber)$/i.test(v.trim()));
    const alertName = n.tokens.some((t) => /^(alert|alerts|status|rag|level|severity|warning|risk)$/.test(t));
    // (Names numbered as a classification numbers them, `cofog_l0_long_name` "1. General public services", "6. Housing
    // and community amenities": the names of categories, each with its code, no steps of a scale.)
    const numberedNames = /^(name|names|title|titles|label|labels|desc|description)$/.test(n.last ?? '') && presentTexts(e).every((v) => /^\d{1,2}[.)]\s+\S/.test(v.trim()) || isMissingText(v));
    if (f.ordinalScale && !(colours && !alertName) && !numberedNames) return { role: 'ordinal', rule: 'ordinal:scale-values', confidence: 0.85, why: `values form an ordered scale (${column.samples.join(', ')}…)` };
    if (column.type === 'text' && n.tokens.some((t) => t === 'rating' || t === 'grade') && column.distinctCount <= 12) return { role: 'ordinal', rule: 'ordinal:rating-name', confidence: 0.75, why: `named ${column.name}, ${column.distinctCount} rating levels` };
    // Abundance classes on a log scale (0, 1, 10, 100, 1000: none, one, tens, hundreds…): an order of magnitude, not a count.
    if (column.type === 'integer' && column.distinctCount >= 3 && column.distinctCount <= 7 && num(column.min) >= 0) {
      const classes = ((e as EvidenceWithSample).sample ?? column.samples).filter((v): v is number => typeof v === 'number');
      if (classes.length >= 5 && new Set(classes).size >= 3 && classes.every((v) => v === 0 || /^10*$/.test(String(v)))) {
        return { role: 'ordinal', rule: 'ordinal:log-classes', confidence: 0.6, why: `named ${column.name}, values ${[...new Set(classes)].sort((a, b) => a - b).join(', ')}: classes on a log scale` };
      }
    }
    // Classes lettered in a run from A (a Pasquill stability `class` A–F, an energy `band` A–G): grades, in their order.
    if (column.type === 'text' && n.last !== undefined && /^(class|band|tier)$/.test(n.last) && column.distinctCount >= 3 && column.distinctCount <= 12) {
      const letters = [...new Set(presentTexts(e).map((v) => v.trim()))].sort();
      if (letters.every((v) => /^[A-Z]$/.test(v)) && letters[0] === 'A' && letters.every((v, at) => v.charCodeAt(0) === 65 + at)) {
        return { role: 'ordinal', rule: 'ordinal:lettered-classes', confidence: 0.65, why: `named ${column.name}, classes lettered A–${letters[letters.length - 1]}` };
      }
    }
    // Stages of a life (`life_stage` adult, subadult, juvenile; `egg`, `larva`, `pupa`): lived in an order, however few.
    const staged = column.type === 'text' ? [...new Set(presentTexts(e).map((v) => v.trim().toLowerCase()))].filter((v) => !isMissingText(v) && v !== 'unknown') : [];
    // (Two, `adult` and `juvenile`, are as often read as two kinds of animal: three make the order plain.)
    if (staged.length >= 3 && staged.length <= 12 && staged.every((v) => LIFE_STAGES.includes(v))) {
      return { role: 'ordinal', rule: 'ordinal:life-stages', confidence: 0.65, why: `values are stages of a life (${staged.slice(0, 3).join(', ')}): lived in an order` };
    }
    // A level counted in a few steps (administrative level 1–4, education level): an ordered category, not a quantity.
    // (Levels of government or of geography, `Local` / `Central`, `National` / `Regional`, are kinds, not an order.)
    const tiers = column.type === 'text' && presentTexts(e).length > 0 && presentTexts(e).every((v) => ADMINISTRATIVE_TIERS.test(v.trim()));
    // (Nor are levels that are single words of no order, a camera trap's `observation_level` `media` / `event`: the
    // grain each row was observed at, a kind.)
    const unordered = column.type === 'text' && column.distinctCount === 2 && presentTexts(e).length > 0 && presentTexts(e).every((v) => /^[A-Za-z]+$/.test(v.trim()) && !ORDER_WORDS.test(v.trim()));
    if (n.last === 'level' && !tiers && !unordered && (column.type === 'integer' || column.type === 'text') && column.distinctCount >= 2 && column.distinctCount <= 10 && column.distinctCount < e.table.rowCount / 2) {
      return { role: 'ordinal', rule: 'ordinal:level', confidence: 0.7, why: `named ${column.name}, ${column.distinctCount} levels` };
    }
    // A place or an order in integers at the head of the name (`final_place`, `running_order`): a position; so is an
    // order written as an outline's numbers (`display_order` 1, 2.1, 3.1.3).
    const outline = (column.type === 'text' || column.type === 'real') && ((e as EvidenceWithSample).sample ?? column.samples).every((v) => v === null || /^\d+(\.\d+)*$/.test(String(v).trim()));
    if ((column.type === 'integer' || (outline && n.last === 'order')) && (n.last === 'place' || n.last === 'order') && n.tokens.length > 1 && num(column.min) >= 0 && column.distinctCount <= 200) {
      return { role: 'ordinal', rule: 'ordinal:position-name', confidence: 0.75, why: `named ${column.name}, ${column.type === 'integer' ? 'integers' : 'outline numbers'} ${column.min}–${column.max}: a position` };
    }
    // Seniority in a few named steps (PM, Secretary of State, Minister of State): ordered; in numbers it is years served.
    if (n.last === 'seniority' && column.type === 'text' && column.distinctCount >= 2 && column.distinctCount <= 12) return { role: 'ordinal', rule: 'ordinal:seniority', confidence: 0.7, why: `named ${column.name}, ${column.distinctCount} levels of seniority` };
    // A person's education in named levels (`none`, `pri_1` … `sec_5`, `university`): ordered.
    if (n.last !== undefined && /^(education|educ|edu|schooling)$/.test(n.last) && column.type === 'text' && column.distinctCount >= 3 && column.distinctCount <= 30) return { role: 'ordinal', rule: 'ordinal:education', confidence: 0.65, why: `named ${column.name}, ${column.distinctCount} levels of education` };
    // A condition or a light scored in a few whole steps (a crown's condition 1–4, its illumination 1–5): a scale.
    const steps = wholeSteps(e);
    if (n.last !== undefined && /^(condition|illum|illumination|vigou?r|decay)$/.test(n.last) && steps && steps.min >= 0 && steps.max <= 10 && steps.max > steps.min) {
      return { role: 'ordinal', rule: 'ordinal:scored-condition', confidence: 0.65, why: `named ${column.name}, whole steps ${steps.min}–${steps.max}: a scale` };
    }
    // Cloud scored in a few whole steps from 1 (`Cloud_9am` 1–4, clear to overcast): a scale. Cloud cover in eighths
    // or per cent (`cloud_coverage` 0–8) is an amount of sky, a measure.
    if (n.tokens.some((t) => /^(cloud|clouds|cloudiness)$/.test(t)) && !n.tokens.some((t) => /^(cover|coverage|pct|percent|perc|okta|oktas|amount|height|base|type)$/.test(t)) && steps && steps.min >= 1 && steps.max <= 5 && steps.max > steps.min) {
      return { role: 'ordinal', rule: 'ordinal:cloud-score', confidence: 0.6, why: `named ${column.name}, whole steps ${steps.min}–${steps.max}: a score of cloudiness` };
    }
    // A stage in a few whole steps (`abortion_stage` 0–3, a tumour's stage 1–4): an order of development.
    if (n.last === 'stage' && steps && steps.min >= 0 && steps.max <= 10 && steps.max > steps.min) {
      return { role: 'ordinal', rule: 'ordinal:stage-number', confidence: 0.6, why: `named ${column.name}, whole steps ${steps.min}–${steps.max}: a stage of development` };
    }
    // The stage, leg or round of a competition (`Stages` 0–25 of each Tour, the prologue 0, a split stage 13.1; a
    // league's `round` 1–38): its place in the sequence of the event, recurring from one edition to the next.
    const sequenceWord = n.tokens.length === 1 && /^(stage|stages|leg|round|heat|matchday|gameweek)$/.test(n.last ?? '');
    if (sequenceWord && isNumber(column) && num(column.min) >= 0 && num(column.max) <= 60 && column.distinctCount >= 3 && column.distinctCount <= e.table.rowCount / 2 && column.samples.filter((v) => v !== null && Number.isInteger(Number(v))).length >= 0.9 * column.samples.filter((v) => v !== null).length) {
      return { role: 'ordinal', rule: 'ordinal:sequence-number', confidence: 0.6, why: `named ${column.name}, numbers ${column.min}–${column.max} that recur over the rows: a place in the sequence of an event` };
    }
    // The pore size of the filters a sample is split by (`upper_filtration_size` 20, 3, 0.8 µm): a few size fractions
    // of a protocol, in order, not a quantity measured.
    if (isNumber(column) && n.tokens.some((t) => /^(filter|filters|filtration|mesh|sieve|pore)$/.test(t)) && n.last === 'size' && column.distinctCount >= 2 && column.distinctCount <= 8) {
      return { role: 'ordinal', rule: 'ordinal:size-fraction', confidence: 0.6, why: `named ${column.name}, ${column.distinctCount} sizes: the fractions a sample is filtered into, in order` };
    }
    // A band of a number written as its bound (`elevational_band_m` 1100, 1200, … 2500): ordered bands.
    if (isNumber(column) && (n.tokens.includes('band') || n.tokens.includes('bands')) && steps && column.distinctCount >= 3 && column.distinctCount <= 50) {
      return { role: 'ordinal', rule: 'ordinal:number-band', confidence: 0.65, why: `named ${column.name}, ${column.distinctCount} values ${steps.min}–${steps.max}: bands of a number` };
    }
    // The bin of a ranking in whole steps (`income_decile` 1–10, `imd_pop_quintile` 1–5): a position among equal parts.
    if (n.last !== undefined && QUANTILE_BIN_WORDS.has(n.last) && steps && steps.min >= 0 && steps.max <= 20 && steps.max > steps.min) {
      return { role: 'ordinal', rule: 'ordinal:quantile-bin', confidence: 0.8, why: `named ${column.name}, whole steps ${steps.min}–${steps.max}: a ${singularOf(n.last)}` };
    }
    // A rank written with a decimal point (`1.0` … `42619.0`), or with ties given their mean rank (`250.5`), is a rank all the same.
    if (n.last !== undefined && /^(rank|ranking)$/.test(n.last) && column.type === 'real' && num(column.min) >= 0 && halfSteps(e)) {
      return { role: 'ordinal', rule: 'ordinal:name', confidence: 0.75, why: `named ${column.name}, numbers ${column.min}–${column.max} in steps of a half at most: a rank, ties given their mean rank` };
    }
    // Labels of positions (`1st IMD quintile` … `5th`, `Councils in least deprived quintile`): few values, each naming
    // its place in an order.
    const positions = positionLabels(e);
    const scale = scaleLabels(e);
    if (scale) return { role: 'ordinal', rule: 'ordinal:scale-labels', confidence: 0.6, why: `values are ${scale}: steps of one scale` };
    if (positions) return { role: 'ordinal', rule: 'ordinal:position-labels', confidence: 0.7, why: `${positions} values, each naming a position (${column.samples.slice(0, 2).join(', ')}…)` };
    // A sort key (`sort` 0, 1, 1.1 … 3, `sort_order`, `display_order`): the order rows are shown in.
    // (An `Order` alone is one where it repeats across the rows, a line item's place in each region's list: unique per
    // row, or pointing at another table, it numbers orders.)
    const displayOrder = n.tokens.length === 1 && n.last === 'order' && column.type === 'integer' && !e.foreignKey && !e.referenced && !e.declaredKey && column.distinctCount < e.table.rowCount / 2;
    const sortKey = (n.tokens.length === 1 && n.last === 'sort') || displayOrder || /^(sort_(order|key|index|no)|display_order|sortorder|sortkey)$/.test(n.tokens.join('_'));
    if (sortKey && isNumber(column)) return { role: 'ordinal', rule: 'ordinal:sort-key', confidence: 0.7, why: `named ${column.name}: the order rows are shown in` };
    // A cost of seed is money, whatever else `seed` names.
    // (…nor is a reading taken at a position, `vehicle_position_bearing`, `position_speed`: the reading is what it holds.)
    const reading = n.last !== undefined && !ORDINAL_WORDS.has(n.last) && /^(bearing|heading|azimuth|angle|speed|odometer|altitude|elevation|latitude|longitude|lat|lon|lng|accuracy|radius|distance|uncertainty|error)$/.test(n.last);
    // (A sequence is a position only as the name's last word, `stop_sequence`; a `sequence_length` is a length.)
    // (…and `pos` alone is a position, sport.db's game within its round; beside other words it may be a count of positives.)
    // (A rank of costs, `domestic_logistics_costs_rank`, is a rank: the head says what the number is.)
    const rankOfMoney = n.last !== undefined && /^(rank|ranking|rnk)$/.test(n.last);
    const word = (hasAny(n.tokens, MONEY_WORDS) && !rankOfMoney) || reading ? undefined : hasAny(n.tokens, ORDINAL_WORDS) ?? (n.last === 'sequence' ? 'sequence' : n.tokens.length === 1 && n.last === 'pos' && num(column.min) >= 0 ? 'position' : undefined);
    // (Whole numbers a file stores as floats, `11.0`, are integers here: Parquet writes a nullable int so.)
    const wholeReals = column.type === 'real' && Number.isInteger(num(column.min)) && Number.isInteger(num(column.max)) && column.samples.every((v) => v === null || Number.isInteger(v));
    // (A sequence of letters, `linker_primer_sequence` GTGCCAGCMGCCGCGGTAA, a primer's bases, is a string of symbols, no position.)
    const bases = word === 'sequence' && column.type === 'text' ? presentTexts(e) : [];
    const symbols = bases.length > 0 && bases.every((v) => /^[A-Za-z]{8,}$/.test(v.trim().replace(/[\s:]+$/, '')));
    if (word && !symbols && (column.type === 'text' || column.type === 'integer' || wholeReals) && !(column.type === 'text' && column.distinctCount > 50)) return { role: 'ordinal', rule: 'ordinal:name', confidence: 0.8, why: `named ${column.name}: ${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}` };
    return undefined;
  },
  // An empty column says only its name: a time word or a quantity word at its head.
  // (A table or view with no rows is empty in every column.)
  (e, n) => {
    // (A JSON key whose arrays are a table of their own, empty where a record has none, `linkedEvents`, is the list.)
    if (e.arrayTable && present(e).rows < 1) return { role: 'structured', rule: 'structured:nested-array', confidence: 0.6, why: `the array whose items are the rows of ${e.arrayTable}, empty where a record has none`, structured: 'list' };
    // (Placeholders in every row, `NA` all the way down, are empty too.)
    const placeholdersOnly = e.column.type === 'text' && ((e.fingerprint.missingText === 1 && present(e).rows < 1) || blankOnly(e));
    if ((e.column.nullFraction < 1 && e.table.rowCount > 0 && !placeholdersOnly) || !n.last) return undefined;
    // A time word, or one qualified as the start or the end of a span (`tsStart`, `date_end`).
    const spanOfTime = n.tokens.length === 2 && TIME_WORDS.has(n.tokens[0]) && SPAN_ENDS.has(n.last);
    // (…or one said of what, after a preposition: `approval_date_without_discussion`.)
    const qualified = n.tokens.findIndex((t, at) => at > 0 && /^(without|with|of|for|by|from|at|in|on|after|before)$/.test(t));
    const qualifiedTime = qualified > 0 && /^(date|datetime|timestamp|time)$/.test(n.tokens[qualified - 1]) && n.tokens[qualified] !== 'of' ? n.tokens[qualified - 1] : undefined;
    if (qualifiedTime) return { role: 'time', rule: 'time:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}`, time: { storage: 'text', grain: qualifiedTime === 'date' ? 'day' : 'datetime' } };
    if (TIME_WORDS.has(n.last) || spanOfTime || (TIME_SUFFIXES.has(n.last) && n.tokens.length > 1)) {
      const grain = YEAR_WORDS.has(n.last) ? 'year' : n.last === 'month' ? 'month-of-year' : spanOfTime || n.last === 'ts' || n.last === 'timestamp' || n.last === 'datetime' || (n.last === 'time' && n.tokens.length > 1) ? 'datetime' : n.last === 'day' ? 'other' : 'day';
      return { role: 'time', rule: 'time:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}`, time: { storage: 'text', grain } };
    }
    if (FLAG_WORDS.has(n.last) || (n.tokens.length > 1 && FLAG_PREFIXES.has(n.tokens[0]))) return { role: 'flag', rule: 'flag:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}` };
    // The quality flag of a figure, empty as the figure is (NERRS's `f_no3_f` beside `no3_f`): its codes, a category.
    const flagged = n.tokens.length >= 2 && /^(f|flag|qc|qa|qaqc)$/.test(n.tokens[0]) ? n.tokens.slice(1).join('_') : undefined;
    if (flagged && e.table.columns.some((c) => c !== e.column && nameTokens(c.originalName || c.name).join('_') === flagged)) return { role: 'dimension', rule: 'dimension:empty-qualifier', confidence: 0.4, why: `empty, named ${e.column.name}: the quality codes of ${flagged}` };
    // A coordinate or a place (`beneficiary_location_latitude`, `origin`, `publisher_place`), a key (`viaf`, `isni`).
    // (…one of two, `lat1`, `lon_2`: a coordinate all the same.)
    const place = GEO_WORDS[n.last] ?? GEO_WORDS[n.last.replace(/^(lat|lon|lng|latitude|longitude)\d$/, '$1')] ?? (EMPTY_PLACE_WORDS.has(n.last) ? 'city' : undefined);
    if (place && !hasAny(n.tokens, IDENTIFIER_WORDS) && !(n.last !== undefined && CODE_WORDS.has(n.last))) return { role: 'geo', rule: 'geo:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}`, geo: place };
    // (…or a registration, `vehicle_license_plate`: what a vehicle is known by.)
    if (hasAny([n.last], IDENTIFIER_WORDS) || n.last === 'identifier' || /^(plate|registration|vin|callsign)$/.test(n.last)) return { role: 'identifier', rule: 'identifier:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}`, identifier: 'code' };
    // A level on a ladder (`congestion_level`, `crowding_level`): an order of states, empty or not.
    if (n.last === 'level' && n.tokens.length > 1 && RANKED_LEVELS.has(n.tokens[n.tokens.length - 2])) return { role: 'ordinal', rule: 'ordinal:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}: a level on a ladder` };
    // "Number of volumes", "number of lines": a count.
    if (n.tokens.length >= 3 && /^(number|num|no)$/.test(n.tokens[0]) && n.tokens[1] === 'of') return { role: 'measure', rule: 'measure:empty-name', confidence: 0.4, why: `empty, named ${e.column.name} (a count)` };
    // A dictionary that says what its 1 and 0 mean ("indication if a photo was taken (1) or not (0)").
    if (e.dictionary && YES_NO_DESCRIPTION.test(e.dictionary.description)) return { role: 'flag', rule: 'flag:described-yes-no', confidence: 0.5, why: `empty, described as "${e.dictionary.description}"` };
    // A column the database declares as text holds no quantity, whatever its name (an `age` class code).
    const declaredText = /CHAR|TEXT|STRING|CLOB/i.test(e.column.declaredType ?? '');
    // Money is a quantity wherever the name says it (`cost_manure`, `d15_cost_manu`: what was spent on manure).
    // …and so is a count named by what it counts (`runoff_votes`), though not a `number`, which may be a phone's.
    const counted = n.last !== 'number' && n.last !== 'num' ? hasAny([n.last], COUNT_WORDS) : undefined;
    // …and a statistic that opens the name (`pct_rpt`, percent of establishments reporting; `avg_wait`), or a figure
    // per thousand (`jobs_1000`, jobs per 1,000 jobs).
    const opened = n.tokens.length > 1 && STATISTIC_OPENERS.has(n.tokens[0]) ? n.tokens[0] : undefined;
    // (A number after the head says which of several, `kp_90` at a clock angle of 90°: the head is the word before it.)
    // (…and so does a letter after it, `no3_f`, nitrate filtered.)
    const head = (/^\d+$/.test(n.last) || /^[a-z]$/.test(n.last)) && n.tokens.length > 1 ? n.tokens[n.tokens.length - 2] : n.last;
    // (…and a duration that opens it, `durP1`: the time a sensor's pulse lasted, for a model that measures it.)
    const lasted = n.tokens.length > 1 && /^(dur|duration)$/.test(n.tokens[0]) ? 'a duration' : undefined;
    const quantity = declaredText ? undefined : hasAny([head], ADDITIVE_WORDS) ?? hasAny([head], NON_ADDITIVE_WORDS) ?? hasAny([head], FORMULA_ANALYTES) ?? hasAny([head], SEMI_ADDITIVE_WORDS) ?? hasAny(n.tokens, MONEY_WORDS) ?? counted ?? opened ?? lasted ?? perThousand(n.tokens);
    if (quantity) return { role: 'measure', rule: 'measure:empty-name', confidence: 0.4, why: `empty, named ${e.column.name} (${quantity})` };
    if (DIMENSION_WORDS.has(n.last) || /^(charset|encoding|dir|license|licence)$/.test(n.last)) return { role: 'dimension', rule: 'dimension:empty-name', confidence: 0.4, why: `empty, named ${e.column.name}` };
    return undefined;
  },
  // Empty strings on every row, where the name says nothing more: empty text, not one category.
  (e) => (blankOnly(e) ? { role: 'text', rule: 'text:empty', confidence: 0.3, why: 'every value is an empty string' } : undefined),
  // Every value masked (`*****`, `XXXXXX`, `[REDACTED]`): a publisher hides what identifies a vehicle, a person or an
  // account in its public copy; what is hidden is an identifier, though it can no longer tell rows apart.
  (e) => {
    const texts = presentTexts(e);
    if (e.column.type !== 'text' || texts.length === 0 || !texts.every((v) => MASKED.test(v.trim()))) return undefined;
    return { role: 'identifier', rule: 'identifier:masked-values', confidence: 0.5, why: `every value is masked (${texts[0].trim()}): an identifier withheld from this copy`, identifier: 'code' };
  },
  // A multiple written with its sign (`80.0x`, `30x`: a genome's sequencing depth, a lens's magnification): a measure.
  (e) => (multiplesAsText(e) ? { role: 'measure', rule: 'measure:multiples-as-text', confidence: 0.6, why: `values are multiples written with an x (${presentTexts(e)[0]?.trim()})` } : undefined),
  // The items of a list of identifiers (`biosample.sample_ids[].value`): identifiers.
  (e, n) => {
    const table = nameTokens(e.table.name);
    if (n.tokens.join(' ') !== 'value' || !/^(ids|identifiers|keys|accessions)$/.test(table.at(-1) ?? '') || e.column.type !== 'text') return undefined;
    return { role: 'identifier', rule: 'identifier:listed-ids', confidence: 0.6, why: `the value of each item of a list named ${e.table.name}: identifiers`, identifier: 'code' };
  },
  // A span written in years and months (`59 years 11 months`, `61 years`): a duration, however it is written.
  (e) => (yearsAndMonths(e) ? { role: 'measure', rule: 'measure:years-and-months', confidence: 0.6, why: `values are spans written in years and months (${presentTexts(e)[0]?.trim()})` } : undefined),
  // The value a partition's view takes from each file's name, written as a number (`sensor` 5331 of
  // `…_sensor_5331.csv`, `mly` 2275): which file the row came from, a category of the rows, never an amount.
  (e) => {
    const { column, partitionKey } = e;
    if (!partitionKey || !(isNumber(column) || e.fingerprint.numericText >= 0.9)) return undefined;
    return { role: 'dimension', rule: 'dimension:partition-key', confidence: 0.8, why: `the ${partitionKey.key} each of the ${partitionKey.files} files is named for: which file the row came from` };
  },
  // Numbers written as text ($1,200; -566,000; 12 %).
  (e, n) => {
    const f = e.fingerprint;
    if (e.column.type !== 'text' || (f.numericText < 0.9 && !(f.numericText >= 0.75 && countWithNotes(e, n)) && !f.figuresWithSymbols && !labelRepeated(e))) return undefined;
    // R's row names, written out with the data frame (`row_names` `"1"`, `"2"`…): which row it was, kept as text.
    if (/^row_?names?$/.test(n.tokens.join('_')) && e.column.candidateKey && wholeNumbersWritten(e)) {
      return { role: 'identifier', rule: 'identifier:row-names', confidence: 0.8, why: `named ${e.column.name}, whole numbers written as text, one per row: R's row names`, identifier: 'row-index' };
    }
    // Digits under a name that says they identify (`democracy_club_person_identifier`): a key kept as text.
    if ((hasAny(n.tokens, IDENTIFIER_WORDS) || n.last === 'identifier') && wholeNumbersWritten(e)) return { role: 'identifier', rule: 'identifier:id-name', confidence: 0.8, why: `named ${e.column.name}, whole numbers written as text`, identifier: 'code' };
    // A name written in digits (GTFS's `route_short_name` `61`, a flight's number): the code people know it by.
    if (n.last === 'name' && n.tokens.length >= 2 && wholeNumbersWritten(e)) return { role: 'identifier', rule: 'identifier:number-name', confidence: 0.65, why: `named ${e.column.name}, whole numbers written as text: the number it is known by`, identifier: 'code' };
    // The number a thing is registered under (`recipient_org_charity_number` `0512710`, `company_no`): a code, however often it recurs.
    if (n.tokens.length >= 2 && /^(number|no|nr|num)$/.test(n.last ?? '') && !COUNT_STATISTICS.test(n.tokens.at(-2) ?? '') && !hasAny(n.tokens.slice(0, -1), COUNT_WORDS) && (wholeNumbersWritten(e) || numbersWithLetters(e))) {
      return { role: 'identifier', rule: 'identifier:code-name', confidence: 0.7, why: `named ${e.column.name}, whole numbers written as text: the number it is registered under`, identifier: 'code' };
    }
    // An entity numbered by its noun alone, written as text beside `NA` (a `nest` number, a `brood`): who the row is about.
    if (n.tokens.length === 1 && ENTITY_NOUNS.has(n.tokens[0]) && wholeNumbersWritten(e)) {
      return { role: 'identifier', rule: 'identifier:entity-number', confidence: 0.65, why: `named ${e.column.name}, whole numbers written as text: the number of the ${n.tokens[0]} a row is about`, identifier: 'code' };
    }
    const digits = presentTexts(e).map((v) => v.trim());
    // A label that is a number (`vehicle_label` "1721", a fleet number): the name a thing is known by.
    if (n.last === 'label' && n.tokens.length >= 2 && digits.length > 0 && digits.every((v) => /^\d{3,}$/.test(v))) return { role: 'identifier', rule: 'identifier:number-label', confidence: 0.6, why: `named ${e.column.name}, whole numbers written as text: the number a thing is known by`, identifier: 'code' };
    // Long strings of digits of one length (`500012345`, a register's number): codes, not quantities.
    if (digits.length >= 5 && digits.every((v) => /^\d{6,}$/.test(v)) && new Set(digits.map((v) => v.length)).size === 1 && !hasAny(n.tokens, ADDITIVE_WORDS) && !hasAny(n.tokens, MONEY_WORDS)) {
      return { role: 'identifier', rule: 'identifier:digit-codes', confidence: 0.6, why: `values are strings of ${digits[0].length} digits, written as text: codes` };
    }
    // Digits a JSON file puts in quotes where it writes its other numbers bare (`"kreis": "01"` beside `"nummer": 41`):
    // the writer kept them as text on purpose, codes (or parts of a key), not quantities.
    const json = /\.(json|jsonl|ndjson)$/i.test(e.table.sourceFile ?? '');
    // (…except a position in a list so named, `sortOrder` "1", "2", "3": an order.)
    if (json && digits.length >= 5 && digits.every((v) => /^\d{1,3}$/.test(v)) && n.last !== undefined && /^(order|rank|position|pos|seq|sequence|place|ordinal)$/.test(n.last)) {
      return { role: 'ordinal', rule: 'ordinal:position-name', confidence: 0.6, why: `named ${e.column.name}, small whole numbers in quotes: a position in an order` };
    }
    // (So are digits in quotes that differ on every row, `stationcode` "12109": a number of one thing each.)
    if (json && digits.length >= 5 && digits.every((v) => /^\d{1,12}$/.test(v)) && new Set(digits).size >= 2 && (digits.some((v) => /^0\d/.test(v) || v.length === 1) || (e.column.candidateKey && e.table.rowCount >= 20)) && e.table.columns.some((c) => c !== e.column && (c.type === 'integer' || c.type === 'real')) && !hasAny(n.tokens, ADDITIVE_WORDS) && !hasAny(n.tokens, COUNT_WORDS) && !hasAny(n.tokens, MONEY_WORDS)) {
      return { role: 'identifier', rule: 'identifier:quoted-digits', confidence: 0.55, why: `digits in quotes (${digits[0]}) in a JSON file that writes its other numbers bare: codes`, identifier: 'code' };
    }
    // A count written with a `+` for "at least" (`2+` eggs) is still a count.
    if ((hasAny(n.tokens, ADDITIVE_WORDS) || hasAny(n.tokens, COUNT_WORDS)) && presentTexts(e).some((v) => /^\s*\d+\+\s*$/.test(v))) {
      return { role: 'measure', rule: 'measure:counts-at-least', confidence: 0.6, why: `named ${e.column.name}, whole numbers, some written "n+" (at least n): a count` };
    }
    // Small whole numbers a database declares as text (an antenna port `1`–`4`), or named as a category: codes.
    // Only where the database types its columns on purpose: `sqlite3 .import` declares every column TEXT.
    const typedTable = e.table.columns.some((c) => /INT|REAL|NUM|DEC|FLOAT|DOUBLE/i.test(c.declaredType ?? ''));
    const declaredText = typedTable && /CHAR|TEXT|STRING|CLOB/i.test(e.column.declaredType ?? '');
    const { distinct } = present(e);
    if ((declaredText || (n.last !== undefined && DIMENSION_WORDS.has(n.last))) && f.plainInteger >= 0.99 && distinct <= 50) {
      return { role: 'dimension', rule: 'dimension:integer-codes-as-text', confidence: 0.6, why: `${distinct} whole numbers kept as text${declaredText ? ` (declared ${e.column.declaredType})` : `, named ${e.column.name}`}: codes` };
    }
    return { role: 'measure', rule: 'measure:numbers-as-text', confidence: 0.85, why: 'values are numbers stored as text (written with symbols or separators, or beside placeholders such as NA)' };
  },
  // The keys of a sheet of facts about a dataset (`Metadata`: `Publisher`, `Dataset`, `Publication date`, `Link`, each
  // once, beside its value): field names, a category of the facts, not text to read.
  (e) => {
    const { table, column, fingerprint: f } = e;
    if (table.columns.length !== 2 || table.columns[0] !== column || column.type !== 'text') return undefined;
    if (!/\b(meta ?data|about|information|info|readme|notes|details)\b/i.test(`${table.originalName.replace(/[_-]/g, ' ')}`)) return undefined;
    const { rows, distinct } = present(e);
    if (rows < 3 || rows > 60 || distinct < rows || f.meanLength > 30 || f.numericText > 0) return undefined;
    return { role: 'dimension', rule: 'dimension:metadata-keys', confidence: 0.6, why: `${distinct} field names, each once, beside their values in ${table.originalName}` };
  },
  // A codebook's column that names the columns of the other files (`column`: `co2`, `gdp`, `iso_code`; a
  // `column_name` or `variable_name`): the key each row of the codebook describes.
  (e, n) => {
    // (Long headers a sheet repeats in its index, `data_item_description`, are descriptions that happen to be headers.)
    if (e.column.type !== 'text' || (n.last !== undefined && TEXT_WORDS.has(n.last) && n.last !== 'name' && n.last !== 'names')) return undefined;
    const namesColumns = columnNamesListed(e);
    return namesColumns ? { role: 'identifier', rule: 'identifier:column-names', confidence: 0.6, why: `${namesColumns} of its values are names of columns of the other tables: the key of a codebook's rows`, identifier: 'primary-key' } : undefined;
  },
  // Colours written as hex codes (`#FF0D0D`, `ff0d0d`): a machine format for a colour.
  (e, n) => {
    if (e.column.type !== 'text' || !n.tokens.some((t) => /^colou?rs?$/.test(t))) return undefined;
    const values = presentTexts(e);
    return values.length >= 3 && values.every((v) => /^#?[0-9a-f]{6}([0-9a-f]{2})?$/i.test(v.trim())) ? { role: 'structured', rule: 'structured:hex-colours', confidence: 0.75, why: `named ${e.column.name}, values are hex colour codes` } : undefined;
  },
  // Names, titles and descriptions.
  (e, n) => {
    const { column, table, fingerprint: f } = e;
    if (column.type !== 'text') return undefined;
    const textWord = hasAny(n.tokens, TEXT_WORDS);
    // `first`, `last`, `full` qualify a person's name (`first_name`), not a title (`journal_full_title`).
    const personWord = n.tokens.find((t) => PERSON_NAME_WORDS.has(t) && (!NAME_QUALIFIERS.has(t) || n.tokens.includes('name') || n.tokens.includes('names')));
    if (!textWord && !personWord) return undefined;
    // The name of a place (`birth.place.name` "Paris, France", `activePlaces[].placeName`): a place, not words for people.
    // (…or of the items of a record's list of places, `activePlaces`; a table of places of its own names stations too.)
    const placeOf = [...n.tokens, ...(e.table.parent ? nameTokens(e.table.originalName || '').slice(-1) : [])].some((t) => /^(place|places|birthplace|deathplace|location|locations|venue|venues)$/.test(t));
    if (placeOf && textWord === 'name' && !personWord && f.meanLength <= 60) return { role: 'geo', rule: 'geo:place-name', confidence: 0.6, why: `named ${column.name}: the name of a place`, geo: 'city' };
    // Names written as codes, one per row (an assembly's `Amel_HAv3.1`, `iyAleTest2.1`): no spaces, digits in nearly
    // every one: they identify, as a code would.
    const shown = presentTexts(e).map((v) => v.trim());
    const coded = n.last === 'name' && !personWord && shown.length >= 20 && shown.filter((v) => !/\s/.test(v)).length >= 0.95 * shown.length && shown.filter((v) => /\d/.test(v) && /[A-Za-z]/.test(v)).length >= 0.8 * shown.length && present(e).distinct >= 0.9 * present(e).rows;
    if (coded) return { role: 'identifier', rule: 'identifier:coded-names', confidence: 0.6, why: `named ${column.name}, but its values are codes without spaces, one per row (${shown[0]})`, identifier: 'code' };
    // …and so are names written as a code and a register's suffix, UniProt's entry names (`KLRG2_HUMAN`, `ITB1_HUMAN`):
    // capitals and digits, an underscore, then one suffix on nearly every one.
    const suffixes = new Map<string, number>();
    for (const v of shown) {
      const m = /^[A-Z0-9]{2,12}_([A-Z0-9]{2,6})$/.exec(v);
      if (m) suffixes.set(m[1], (suffixes.get(m[1]) ?? 0) + 1);
    }
    const suffix = [...suffixes.entries()].sort((a, b) => b[1] - a[1])[0];
    if (n.last === 'name' && !personWord && shown.length >= 20 && suffix && suffix[1] >= 0.8 * shown.length && present(e).distinct >= 0.9 * present(e).rows) {
      return { role: 'identifier', rule: 'identifier:coded-names', confidence: 0.6, why: `named ${column.name}, but its values are codes with one register's suffix (${shown[0]}, _${suffix[0]})`, identifier: 'code' };
    }
    // The name of a table or a column (`f_table_name`, `column_name` of a catalogue): it refers to that table by name.
    const before = n.tokens[n.tokens.length - 2];
    // (A catalogue of columns names each table on many rows: there the table's name is a grouping.)
    const { rows: namedRows, distinct: objectNames } = present(e);
    if (n.last === 'name' && (before === 'table' || before === 'column' || before === 'schema' || before === 'field') && f.multiWord < 0.1 && objectNames >= 0.5 * namedRows) {
      return { role: 'identifier', rule: 'identifier:object-name', confidence: 0.6, why: `named ${column.name}: the name of a ${before} it refers to`, identifier: 'code' };
    }
    // The name in a table of places (`regions.name`, `cities.name`): the place.
    // So is a name, or an official one, one per row beside the code of a place that keys the table (`official_name`
    // beside `local_authority_code`).
    const nameOnly = textWord === 'name' && n.tokens.every((t) => t === 'name' || NAME_VARIANTS.has(t));
    const place = textWord === 'name' && n.tokens.length === 1 ? placeOfTable(e.table) : undefined;
    if (place) return { role: 'geo', rule: `geo:${place}-name`, confidence: 0.7, why: `the name in a table of ${e.table.originalName.replace(/\.[a-z0-9]+$/i, '')}: a ${place}`, geo: place };
    const keyed = nameOnly ? placeKeyBeside(e) : undefined;
    if (keyed) return { role: 'geo', rule: 'geo:name-beside-place-key', confidence: 0.65, why: `named ${column.name}, one per row beside the code of the ${keyed} that keys the table: the ${keyed}'s name`, geo: keyed };
    // A part of a person's name (`name.suffix`: `Jr.`, `III`; a nickname): part of the name, not a grouping, however few.
    if (textWord === 'name' && n.tokens.some((t) => NAME_PARTS.has(t))) return { role: 'text', rule: 'text:person-name', confidence: 0.7, why: `named ${column.name}: a part of a person's name` };
    // Titles of things hardly repeat; a title held by several people in turn (`Senate Majority Whip`) is a post.
    const { rows: titledRows, distinct: titles } = present(e);
    if (textWord === 'title' && n.last === 'title' && titles >= 2 && titles <= 200 && titledRows >= 3 * titles && f.meanLength <= 60) return { role: 'dimension', rule: 'dimension:recurring-title', confidence: 0.6, why: `${titles} titles over ${Math.round(titledRows)} rows: posts or honours, a grouping` };
    const personName = personWord !== undefined || (textWord === 'name' && n.tokens.length === 1 && f.multiWord > 0.5 && column.distinctCount > 50);
    // People's names hardly repeat: a `family_name` of a dozen values over a thousand rows is a family of things
    // (a party family, a product family), a category the rows are grouped by.
    const { rows: presentRows, distinct: presentDistinct } = present(e);
    // (A `last_name`, `first_name` or `surname` is a person's, however few: pseudonyms drawn from 27 surnames are still names.)
    const ownName = personWord !== undefined && /^(first|last|given|surname|firstname|lastname|middle)$/.test(personWord);
    if (personWord !== undefined && !ownName && presentDistinct >= 2 && presentDistinct <= 50 && presentRows >= 10 * presentDistinct && f.meanLength <= 60 && !shapedLikePeoplesNames(e)) {
      return { role: 'dimension', rule: 'dimension:recurring-person-word', confidence: 0.6, why: `named ${column.name}, but ${presentDistinct} values over ${Math.round(presentRows)} rows: a grouping, not people's names` };
    }
    // Names that recur across the rows of a table (an agency name on every budget line) are what the rows are grouped by.
    const nonNullRows = e.table.rowCount * (1 - column.nullFraction);
    // A description of a handful of kinds, each on many rows (`by_product_description`: ten byproducts, every plant a
    // row of each), names a category too.
    // So does the description of a code beside it, as many values as the code has (`soc_description` beside `soc3`:
    // each occupation's name on every region's row).
    const describing = textWord === 'description' || textWord === 'desc';
    // (…or a text code named as the description is: `event_clearance_code` beside `event_clearance_description`.)
    const describedStem = n.tokens.slice(0, -1).join(' ');
    // (…or the description of a code by its own name, `product_code_desc`: a code's label.)
    const codeBeside = (describing && n.tokens.at(-2) === 'code') || describing && e.table.columns.some((c) => c !== column && (c.type === 'integer' || (c.type === 'text' && describedStem !== '' && nameTokens(c.originalName || c.name).join(' ') === `${describedStem} code`)) && c.distinctCount >= 2 && Math.abs(c.distinctCount - column.distinctCount) <= 1);
    const describedKinds = describing && ((column.distinctCount <= 50 && nonNullRows >= 20 * column.distinctCount) || (codeBeside && column.distinctCount <= 200 && nonNullRows >= 4 * column.distinctCount));
    // (One name on every row, an asset's `title` "RGBIR COG tile" in each of a thousand items, groups nothing: a label.)
    // (…but one name of a thing, a cruise's `GoA2019` on every sample, is what they all belong to.)
    // (A link's or a file's title, the same on every item beside its `href`, `Thumbnail`, is the link's label.)
    const prefix = column.name.includes('.') ? column.name.slice(0, column.name.lastIndexOf('.') + 1) : '';
    const linkLabel = (textWord === 'title' || textWord === 'label' || describing) && (prefix !== '' || table.parent !== undefined) && table.columns.some((c) => c !== column && c.name.startsWith(prefix) && /^(href|url|uri|link)$/i.test(c.name.slice(prefix.length)));
    const oneName = column.distinctCount === 1 && !linkLabel;
    // (…and so are hundreds of an organisation's units, where a code beside names them, `agency_name` beside
    // `agency_code` in a budget's 4,838 accounts: the agencies the accounts are grouped by.)
    const codedUnit = textWord === 'name' && /^(agency|bureau|department|dept|ministry|directorate|division|branch|subagency)$/.test(describedStem) && column.distinctCount <= 1000 && table.columns.some((c) => c !== column && /^(code|cd|id)$/.test(nameTokens(c.originalName || c.name).at(-1) ?? '') && nameTokens(c.originalName || c.name).slice(0, -1).join(' ') === describedStem);
    if (!personName && (column.distinctCount >= 2 || oneName) && (describedKinds || (textWord !== 'description' && textWord !== 'desc')) && !(textWord !== undefined && /^(comment|comments|note|notes|remark|remarks)$/.test(textWord)) && (column.distinctCount <= 200 || codedUnit) && nonNullRows >= 4 * column.distinctCount && f.meanLength <= 60) {
      return { role: 'dimension', rule: 'dimension:recurring-name', confidence: 0.65, why: `${column.distinctCount} names over ${Math.round(nonNullRows)} rows: a grouping` };
    }
    // The name of an entry in a short list other tables point at (a category, a department) is what you group by.
    if (!personName && (textWord === 'name' || textWord === 'title' || textWord === 'label') && column.distinctCount <= 50 && e.lookupTable) {
      return { role: 'dimension', rule: 'dimension:lookup-name', confidence: 0.75, why: `the ${column.name} of a short list (${e.table.rowCount} rows) that names categories` };
    }
    // A name that is a code, one per row (`tx_name` `uc001bum.2`, an accession), or a title that is a machine's path
    // (CMS's dataset `title` `/Mu/Run2010B-Apr21ReReco-v1/AOD`): it identifies, it is not read.
    // (…or a few rows each, where every value is letters then digits, `GS605`: a sample's code on each of its fractions.)
    const lettersThenDigits = presentTexts(e).length >= 5 && presentTexts(e).every((v) => /^[A-Z]{1,4}\d{2,}[A-Z0-9]*$/.test(v.trim()));
    if (!personName && (textWord === 'name' || textWord === 'title') && codeShaped(e) && f.multiWord === 0 && (column.distinctCount >= 0.95 * nonNullRows || (lettersThenDigits && nonNullRows <= 4 * column.distinctCount))) {
      return { role: 'identifier', rule: 'identifier:coded-name', confidence: 0.65, why: `named ${column.name}, one code-like value per row (${column.samples[0]}…)`, identifier: column.candidateKey ? 'primary-key' : 'code' };
    }
    // A label that is a number (`vehicle_label` "1628": the fleet number painted on a bus): what the thing is known by.
    // (A train's is its cars' numbers joined, `3681-3884`.)
    const numbered = presentTexts(e).map((v) => v.trim());
    if (textWord === 'label' && n.tokens.length >= 2 && numbered.length > 0 && numbered.every((v) => /^\d{3,}(-\d{3,})*$/.test(v))) return { role: 'identifier', rule: 'identifier:number-label', confidence: 0.6, why: `named ${column.name}, whole numbers written as text (${numbered[0]}): the number a thing is known by`, identifier: 'code' };
    return { role: 'text', rule: personName ? 'text:person-name' : 'text:name', confidence: 0.85, why: `named ${column.name}: text for people` };
  },
  // Numbers: categories coded as numbers, row numbers, else quantities.
  (e, n) => {
    const { column } = e;
    if (!isNumber(column)) return undefined;
    const min = num(column.min);
    const max = num(column.max);
    // An entity numbered by its noun alone (`firm` 1–10 in a panel, `patient`, `household`): who the row is about.
    // Whole numbers a description says are codes of a range ("Länen kodas 1 till 25 (Stockholms till Norrbottens
    // län)", "coded 1 to 9"; not "Coded {0} if there was no shootout"): categories, places where it names a kind of place.
    const codedBy = e.dictionary && column.type === 'integer' && column.distinctCount <= 50 ? /(^|[^\p{L}])(coded|kodas|kodad|kodade|kodiert|codé|codée|codés|codificad[oa]s?|codificat[oi])\s+(as\s+|from\s+|från\s+|von\s+|de\s+|da\s+)?\d+\s*(to|till|bis|à|a|-|–)\s*\d+(?!\p{L})/iu.exec(e.dictionary.description) : null;
    if (codedBy) {
      const place = /(^|[^\p{L}])(län|county|counties|kommun|kommuner|municipality|municipalities|region|regions|state|states|province|provinces|district|districts|country|countries|landkreis|kreis|département|provincia|comune|fylke|maakunta)(?!\p{L})/iu.exec(e.dictionary!.description);
      if (place) return { role: 'geo', rule: 'geo:described-codes', confidence: 0.6, why: `described as "${e.dictionary!.description}": the code of a ${place[2].toLowerCase()}`, geo: /^(kommun|kommuner|municipality|municipalities|comune)$/i.test(place[2]) ? 'city' : /^(country|countries)$/i.test(place[2]) ? 'country' : /^(region|regions|district|districts|maakunta)$/i.test(place[2]) ? 'region' : 'county' };
      return { role: 'dimension', rule: 'dimension:described-codes', confidence: 0.6, why: `described as "${e.dictionary!.description}": codes of a category` };
    }
    // (Not where its description counts what it holds, `brood` "number of chicks", `clutch` "number of eggs": a size.)
    // ("Number of the nest within the colony" says which nest: the count names things other than the row's own.)
    const counted = n.described[2];
    const countedInside = /^(number|count|no)$/.test(n.described[0] ?? '') && n.described[1] === 'of' && counted !== undefined && !/^(the|a|an|this|each|that|its)$/.test(counted) && counted !== n.tokens[0] && counted !== ENTITY_NOUNS_PLURAL(n.tokens[0]);
    if (column.type === 'integer' && n.tokens.length === 1 && ENTITY_NOUNS.has(n.tokens[0]) && min >= 0 && !countedInside) {
      return { role: 'identifier', rule: 'identifier:entity-number', confidence: 0.7, why: `named ${column.name}, integers ${column.min}–${column.max}: the number of the ${n.tokens[0]} a row is about`, identifier: column.candidateKey ? 'primary-key' : 'code' };
    }
    // The number on a tag fixed to a tree, an animal or a stem (`tag`, `stemtag`, `tag_no`): what it identifies.
    if (column.type === 'integer' && /^(stem|ear|leg|band)?tag$/.test(n.tokens[0] ?? '') && (n.tokens.length === 1 || (n.tokens.length === 2 && /^(no|num|number|id)$/.test(n.tokens[1]))) && min >= 0) {
      return { role: 'identifier', rule: 'identifier:tag-number', confidence: 0.7, why: `named ${column.name}: the number on a tag, which identifies what carries it`, identifier: 'code' };
    }
    const dimensionWord = hasAny(n.tokens, DIMENSION_WORDS);
    const measureWord = hasAny(n.tokens, ADDITIVE_WORDS) ?? hasAny(n.tokens, SEMI_ADDITIVE_WORDS) ?? hasAny(n.tokens, NON_ADDITIVE_WORDS) ?? (n.last && HEAD_NON_ADDITIVE_WORDS.has(n.last) ? n.last : undefined);
    // (A kind numbered after the figure's name qualifies it, `attendances_booked_appointments_type_2`: attendances at
    // type 2 departments, a count.)
    const at = dimensionWord ? n.tokens.indexOf(dimensionWord) : -1;
    const qualifier = at > 0 && /^\d+$/.test(n.tokens[at + 1] ?? '');
    // (Whole numbers a file stores as floats, `3.0`, are integers here: Parquet writes a nullable int so.)
    // (Only small ones: dollars of expense class 700 stored as floats, `class_700`, are amounts.)
    const whole = column.type === 'integer' || (column.type === 'real' && max <= 99 && column.distinctCount <= 20 && Number.isInteger(min) && Number.isInteger(num(column.max)) && column.samples.every((v) => v === null || Number.isInteger(v)));
    if (dimensionWord && !measureWord && !qualifier && whole && column.distinctCount <= 50 && !ratedItem(e)) {
      return { role: 'dimension', rule: 'dimension:coded-number', confidence: 0.75, why: `named ${column.name} (a ${dimensionWord}), ${column.distinctCount} integer codes` };
    }
    // A codebook that calls it the record index or row number ("instant: record index").
    if (e.dictionary && /\b(record|row|observation|line)\s+(index|number|no|id)\b/i.test(e.dictionary.description) && column.type === 'integer' && min >= 0) {
      return { role: 'identifier', rule: 'identifier:described-row-number', confidence: 0.75, why: `described as "${e.dictionary.description}"`, identifier: 'row-index' };
    }
    const rowNumberName = n.tokens.length === 0 || column.originalName === '' || ['index', 'row', 'rownum', 'rownames', 'rowname', 'rowid', 'unnamed', 'idx', '#', 'obs', 'observation'].includes(n.tokens[0]);
    if (column.type === 'integer' && column.candidateKey && (min === 0 || min === 1) && max - min + 1 === e.table.rowCount && rowNumberName) {
      return { role: 'identifier', rule: 'identifier:row-number', confidence: 0.85, why: `integers ${min}–${max}, one per row`, identifier: 'row-index' };
    }
    const described = e.dictionary ? hasAny(n.described, ADDITIVE_WORDS) ?? hasAny(n.described, SEMI_ADDITIVE_WORDS) ?? hasAny(n.described, NON_ADDITIVE_WORDS) : undefined;
    // A unique integer that nothing names as a quantity, in a table of many rows, is a number that identifies (an ISO numeric code).
    // A unique integer named like a code (`m49`, `gaul`, `iso3166_1_numeric`) identifies; an unnamed unique number in a
    // short table is as likely a measure of each row.
    // So does one of ten digits or more, all of about one length (`idcensus` 1500100100000–51502300200000): a code
    // built of parts, where amounts of a thousand million would spread over many lengths.
    const longCode = num(column.min) >= 1e9 && num(column.max) < 100 * num(column.min);
    // (…or an `id` glued to its noun, Steam's `appid`, `userid`: not a word that ends so, `acid`, `paid`, `fluid`.)
    const gluedId = n.tokens.length === 1 && gluedIdNoun(n.tokens[0]) !== undefined;
    const codeName = longCode || gluedId || (n.tokens.length === 1 ? n.tokens[0].length <= 4 || /\d/.test(n.tokens[0]) : n.tokens.some((t) => /\d/.test(t) || t === 'numeric'));
    // (A stray empty row, a spreadsheet's footnote, leaves them unique where they are set.)
    const uniqueWhereSet = column.candidateKey || (column.nullFraction * e.table.rowCount <= 1 && column.distinctCount >= e.table.rowCount - 1 && num(column.max) - num(column.min) + 1 === column.distinctCount);
    if (!measureWord && !described && codeName && column.type === 'integer' && uniqueWhereSet && e.table.rowCount >= 20 && !nonAdditiveMorpheme(n.tokens, KNOWN_WORDS)) {
      return { role: 'identifier', rule: 'identifier:unique-integers', confidence: 0.55, why: `integers ${column.min}–${column.max}, unique per row, with no name of a quantity`, identifier: 'code' };
    }
    // A number named as what each row of its table is (`flights.flight` 52–4215): the number of that thing, a flight
    // number, not a quantity.
    if (!measureWord && !described && column.type === 'integer' && n.tokens.length === 1 && column.distinctCount >= 20 && singularOf(nameTokens(e.table.originalName.replace(/\.[a-z0-9]+$/i, '')).pop() ?? '') === n.tokens[0] && singularOf(n.tokens[0]) === n.tokens[0]) {
      return { role: 'identifier', rule: 'identifier:entity-number', confidence: 0.6, why: `named ${column.name} in ${e.table.originalName}: the number of each ${column.name}`, identifier: 'code' };
    }
    const evidence = measureWord ? `named ${column.name} (${measureWord})` : described ? `described as "${e.dictionary!.description}"` : column.min === undefined ? 'a number column with no value set (its name says no more)' : `${column.type === 'integer' ? 'integers' : 'numbers'} ${column.min}–${column.max}`;
    return { role: 'measure', rule: measureWord ? 'measure:name' : described ? 'measure:dictionary' : 'measure:numbers', confidence: measureWord || described ? 0.85 : 0.6, why: evidence };
  },
  // Text: a category when it has few values, a code when it looks like one, else text for people.
  (e, n) => {
    const { column, fingerprint: f } = e;
    if (column.type !== 'text') return undefined;
    if (column.nullFraction === 1) return { role: 'text', rule: 'text:empty', confidence: 0.3, why: 'every value is empty' };
    // Placeholders for missing values (`NA`) are neither values nor categories.
    const { rows: nonNull, distinct } = present(e);
    // A survey's "other, specify" answer (`crops_other` beside `crops`): what the respondent wrote, for people to read.
    // The value of a short list other tables point at, named as the list (`licences.Licence`, `languages.Language`).
    const own = (column.originalName || column.name).toLowerCase();
    const listed = singularOf(e.table.originalName);
    if (e.lookupTable && distinct <= 50 && f.meanLength <= 12 && (listed === own || listed.endsWith(`_${own}`))) return { role: 'dimension', rule: 'dimension:lookup-value', confidence: 0.7, why: `the ${column.name} of ${e.table.name}, a short list other tables point at: a category` };
    // The one words' column of a short list of kinds other tables point at by its code (OpenNGC's `objTypes`: `type`
    // `OCl`, `typedesc` "Open Cluster"): the name of each kind, a category. (A short list of people or publishers
    // names each one: text.)
    const listsKinds = nameTokens(e.table.originalName.replace(/\.[a-z0-9]+$/i, '')).some((t) => DIMENSION_WORDS.has(singularOf(t)));
    if (e.lookupTable && listsKinds && !e.referenced && !e.foreignKey && distinct <= 50 && f.meanLength <= 40 && e.table.columns.filter((c) => c.type === 'text' && c !== column && !(c.candidateKey && (c.distinctCount === e.table.rowCount))).length === 0) {
      return { role: 'dimension', rule: 'dimension:lookup-value', confidence: 0.6, why: `the words of each entry of ${e.table.name}, a short list other tables point at: a category` };
    }
    const specified = otherOf(e);
    if (specified) return { role: 'text', rule: 'text:other-specify', confidence: 0.65, why: `named ${column.name} beside ${specified}: the "other, specify" answer to it, written by the respondent` };
    if (nonNull < 1) return { role: 'text', rule: 'text:empty', confidence: 0.3, why: 'every value is a placeholder for a missing one' };
    // A record or two (a museum's one artwork and its artist): too few rows for a value to recur, so a category named
    // as such (`gender`, `place_type`, `role`, `medium`, `classification`) is one by its name.
    if (e.table.rowCount <= 3 && n.last !== undefined && (DIMENSION_WORDS.has(n.last) || CLASSIFICATION_WORDS.has(n.last)) && f.meanLength <= 40 && f.multiWord <= 0.5) {
      return { role: 'dimension', rule: 'dimension:named-category', confidence: 0.5, why: `named ${column.name}, in a table of ${e.table.rowCount} row(s): a category by its name` };
    }
    // Fractions of one written as text (`portion` 1, 1/2, 1/3, 1/4: a laureate's share of a prize): shares, averaged.
    if (fractionTexts(e)) {
      return { role: 'measure', rule: 'measure:fraction-values', confidence: 0.6, why: `fractions of one written as text (${column.samples.slice(0, 3).join(', ')}): shares` };
    }
    // Regions named by the compass (`NHS ENGLAND NORTH WEST`, `… SOUTH EAST`, `… MIDLANDS`): places, whatever the
    // column is called (`parent_org`). (Not a direction, a side or a stand: `North`, `E/B`, `North Stand`.)
    const compass = compassRegions(e, n);
    if (compass) return { role: 'geo', rule: 'geo:compass-regions', confidence: 0.6, why: `${compass} of ${distinct} values name regions by the compass (${column.samples.slice(0, 2).map((v) => String(v).trim()).join(', ')})`, geo: 'region' };
    // The unit each row's figure is given in (`unit`: `$m^3/s$`, `Millions $m^3$`): a category, however few the rows.
    if ((n.last === 'unit' || n.last === 'units' || n.last === 'uom') && distinct <= 50 && f.meanLength <= 30) return { role: 'dimension', rule: 'dimension:unit-name', confidence: 0.65, why: `named ${column.name}: the unit of a figure, a category` };
    // An account on a network named for it (`twitter`, `social.instagram`: `SenSchumer`), written without spaces: the
    // handle that identifies the account.
    if (n.last !== undefined && SOCIAL_ACCOUNT_WORDS.has(n.last) && f.multiWord < 0.05 && f.url < 0.5 && f.meanLength <= 40) return { role: 'identifier', rule: 'identifier:account-handle', confidence: 0.6, why: `named ${column.name}, values without spaces: the handles of accounts`, identifier: 'code' };
    // Where a stage, a trip or a route starts and ends (`start` Paris, `end` Marseille; `origin`, `destination`), named
    // by its place: the towns, not words for people.
    const endpoint = n.tokens.length === 1 && /^(start|end|finish|origin|destination|departure|arrival)$/.test(n.last ?? '');
    if (endpoint && f.dateLike < 0.1 && f.numericText < 0.1 && f.meanLength <= 40 && placeNames(e)) return { role: 'geo', rule: 'geo:route-endpoint', confidence: 0.55, why: `named ${column.name}, capitalised names without digits (${presentTexts(e)[0]?.trim() ?? ''}): the places a route starts or ends at`, geo: 'city' };
    // Few values that recur (a value per two rows or fewer): a category. Nearly one per row in a small table: names.
    if (distinct <= 50 && f.meanLength <= 60 && nonNull >= 2 * distinct) {
      return { role: 'dimension', rule: 'dimension:few-values', confidence: distinct <= 12 ? 0.8 : 0.7, why: `${distinct} distinct values` };
    }
    // Codes without spaces that are one per row (a DOI, `PMC9765298`, `ut:000123`): they identify the rows.
    if (nonNull >= 20 && distinct >= 0.95 * nonNull && f.multiWord === 0 && f.meanLength <= 40 && f.numericText < 0.5 && f.sampled > 0 && codeShaped(e)) {
      return { role: 'identifier', rule: 'identifier:unique-codes', confidence: 0.65, why: `${distinct} distinct codes over ${Math.round(nonNull)} rows, one per row`, identifier: 'code' };
    }
    // In a table of a few rows (a person's party affiliations, their relatives), a party or a kinship holding a word
    // or two is a category: the rows are too few for its values to recur. (Other category words are weaker in so few
    // rows: a `family` of five people is their family names, a money `type` of twelve remitters their trades.)
    if (nonNull < 20 && n.last !== undefined && AFFILIATION_WORDS.has(n.last) && f.meanLength <= 24 && f.multiWord <= 0.5) {
      return { role: 'dimension', rule: 'dimension:named-category', confidence: 0.55, why: `named ${column.name}, ${distinct} short values in ${Math.round(nonNull)} rows: a category` };
    }
    // A team or club written as its three-letter code (`LIV`, `AVL`, `FCB`): the code that refers to the team, where a
    // team's name (`Liverpool`) is a grouping.
    if (n.last !== undefined && /^(team|teams|club|clubs|side)$/.test(n.last) && f.sampled > 0 && presentTexts(e).every((v) => /^[A-Z][A-Z0-9]{1,3}$/.test(v.trim())) && distinct >= 10) {
      return { role: 'identifier', rule: 'identifier:team-code', confidence: 0.6, why: `named ${column.name}, ${distinct} codes of two to four capitals: the codes of the teams`, identifier: 'code' };
    }
    // Short codes of a category named as such (a `party` of `D`, `REP`, `W(D)`; its abbreviation, `party_ab` of `ALP`,
    // `GRN`), each on many rows: the category.
    const abbreviated = n.last !== undefined && ABBREVIATION_WORDS.has(n.last) && n.tokens.length > 1 ? n.tokens[n.tokens.length - 2] : n.last;
    if (abbreviated && (DIMENSION_WORDS.has(abbreviated) || abbreviated === 'party') && f.meanLength <= 8 && nonNull >= 10 * distinct && !e.foreignKey && !e.referenced) {
      return { role: 'dimension', rule: 'dimension:named-category', confidence: 0.65, why: `named ${column.name}, ${distinct} short codes recurring over ${Math.round(nonNull)} rows` };
    }
    // Codes named as a classification whose values recur (Library of Congress classes `PR`, `PS` on eight books each): a category.
    const classifying = n.last !== undefined && (DIMENSION_WORDS.has(n.last) || CLASSIFICATION_WORDS.has(n.last));
    if (f.codeLike >= 0.9 && f.meanLength <= 16 && classifying && nonNull >= 3 * distinct) return { role: 'dimension', rule: 'dimension:classification-codes', confidence: 0.6, why: `named ${column.name}, ${distinct} codes recurring over ${Math.round(nonNull)} rows: classes` };
    // A duration written as digits (`release_duration` `04000`: 40 hours 00 minutes): how long, not a code.
    if (n.last === 'duration' && presentTexts(e).length > 0 && presentTexts(e).every((v) => /^\d{1,8}$/.test(v.trim()))) {
      return { role: 'measure', rule: 'measure:duration-digits', confidence: 0.6, why: `named ${column.name}, written in digits: a duration` };
    }
    // ICES statistical rectangles (`50D9`, `03C8`: a row of half a degree of latitude numbered from 36°N, a column of
    // a degree of longitude lettered and numbered from 44°W): the cell of the sea each row's catch is from.
    const cells = presentTexts(e).map((v) => v.trim());
    if (cells.length >= 5 && new Set(cells).size >= 3 && cells.every((v) => /^\d\d[A-M]\d$/.test(v))) return { role: 'geo', rule: 'geo:ices-rectangle', confidence: 0.6, why: `values are ICES statistical rectangles (${cells[0]}): cells of the sea`, geo: 'region' };
    // An organisation's acronym (`UNHCR`, `ILO`): a short name for people, no code.
    if (f.codeLike >= 0.9 && f.meanLength <= 16 && (n.last === 'acronym' || n.last === 'acronyms')) return { role: 'text', rule: 'text:acronym', confidence: 0.55, why: `named ${column.name}: short names for people` };
    if (f.codeLike >= 0.9 && f.meanLength <= 16) return { role: 'identifier', rule: 'identifier:code-values', confidence: 0.7, why: 'short codes of capitals and digits', identifier: 'code' };
    if (f.meanLength <= 4 && f.multiWord === 0 && f.nonAscii < 0.5 && column.distinctCount >= 0.8 * e.table.rowCount * (1 - column.nullFraction)) return { role: 'identifier', rule: 'identifier:short-unique-codes', confidence: 0.65, why: `${column.distinctCount} distinct values of ${f.meanLength.toFixed(1)} characters: codes`, identifier: 'code' };
    // A category named as such (`owner`, `source`, `type`) whose values recur is one, however many it has; so are a
    // dozen long labels of one (the NTD's `organization_type`, "Independent Public Agency or Authority of Transit Service").
    const labelled = f.meanLength <= 60 || (column.distinctCount <= 12 && f.meanLength <= 120);
    if (n.last && (DIMENSION_WORDS.has(n.last) || PARTICIPANT_WORDS.has(n.last)) && nonNull >= 3 * column.distinctCount && labelled) {
      return { role: 'dimension', rule: 'dimension:named-category', confidence: 0.65, why: `named ${column.name}, ${column.distinctCount} values recurring over ${Math.round(nonNull)} rows` };
    }
    // Values that recur (a referee, a team, an observer: 4 rows or more each on average) are what rows are grouped by.
    // (Not notes, which recur as a note is copied onto each row it is about: "B-Mag taken from LEDA.")
    if (distinct <= 200 && nonNull >= 4 * distinct && f.meanLength <= 40 && !proseName(n)) {
      return { role: 'dimension', rule: 'dimension:repeated-values', confidence: 0.6, why: `${distinct} distinct values over ${Math.round(nonNull)} rows` };
    }
    // The category a column of the same name holds in another table, where its values recur (a publisher in each
    // year's file of a partition, a team in each tournament's table): the same category here, however few the rows.
    const values = new Set((e.allValues ?? []).filter((v): v is string => typeof v === 'string').map((v) => v.trim()));
    // (One per row, it names its own table's rows, a list of markets or films the other table refers to: not this.)
    // (…and in a table of figures, which it splits: a table of contents lists sheets.)
    const namesake = values.size >= 2 && distinct < nonNull && !column.candidateKey && e.table.columns.some((c) => isNumber(c)) && distinct <= 50 && f.meanLength <= 60 && !proseName(n) ? e.namesakes?.find((o) => o.distinct <= 50 && o.rows >= 2 * o.distinct && o.samples.filter((v) => typeof v === 'string' && values.has(v.trim())).length >= Math.min(2, o.samples.length)) : undefined;
    if (namesake) return { role: 'dimension', rule: 'dimension:namesake-category', confidence: 0.55, why: `${distinct} values, the category that ${namesake.table}'s ${column.name} repeats over its rows` };
    // The labels of a small table's rows beside their total (`Sex`: Male, Female, Total, in a table of counts by
    // quarter): the categories its figures are split by, in too few rows to recur. (Names of people or things with a
    // total under them stay names.)
    const totalled = presentTexts(e).some((v) => TOTAL_LABEL.test(v.trim()));
    if (totalled && distinct <= 50 && f.meanLength <= 40 && e.table.rowCount <= 60 && !(n.last && (TEXT_WORDS.has(n.last) || PERSON_NAME_WORDS.has(n.last))) && e.table.columns.some((c) => c !== column && isNumber(c))) {
      return { role: 'dimension', rule: 'dimension:total-row-labels', confidence: 0.55, why: `${distinct} labels of rows, one of them a total: the categories the table's figures are split by` };
    }
    return { role: 'text', rule: 'text:many-values', confidence: 0.6, why: `${column.distinctCount} distinct values, mean length ${f.meanLength.toFixed(0)}` };
  },
];

/** A table's name as one of its rows (`licences` → `licence`, `categories` → `category`), lower-cased. */
const singularOf = (name: string): string => name.toLowerCase().replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/, '').replace(/ies$/, 'y').replace(/([^s])s$/, '$1');

/** Whether every sampled value is a JSON list of exactly one scalar. */
function oneItemLists(e: ColumnEvidence): boolean {
  const sample = ((e as EvidenceWithSample).sample ?? e.column.samples).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return sample.length > 0 && sample.every((v) => {
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) && parsed.length === 1 && (typeof parsed[0] === 'string' || typeof parsed[0] === 'number');
    } catch {
      return false;
    }
  });
}

/**
 * The column a survey's "other, specify" column qualifies: `x_other` (or `x_other_specify`) beside a column `x`
 * of the same table. Undefined for any other column.
 */
function otherOf(e: ColumnEvidence): string | undefined {
  const name = (e.column.originalName || e.column.name).toLowerCase();
  const m = /^(.+?)[_ ](other|others|oth)(?:[_ ](specify|spec|text))?$/.exec(name);
  if (!m) return undefined;
  return e.table.columns.find((c) => c !== e.column && (c.originalName || c.name).toLowerCase() === m[1])?.name;
}

/**
 * Nouns of the entities a panel or a study follows, which numbered alone (`firm`, `patient`) name the entity:
 * `firm` 1–10 of Grunfeld's panel, `patient` 1–200 of a trial. Places (`state`, `country`) are codes of their own kind.
 */
/** A noun's plural, as a description counts it (`nest` → nests). */
const ENTITY_NOUNS_PLURAL = (noun: string): string => (/(s|sh|ch|x)$/.test(noun) ? `${noun}es` : /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);
const ENTITY_NOUNS = new Set(['nest', 'brood', 'litter', 'colony', 'firm', 'company', 'individual', 'person', 'subject', 'patient', 'household', 'respondent', 'participant', 'plant', 'establishment', 'hospital', 'school', 'store', 'shop', 'farm', 'student', 'pupil', 'worker', 'employee', 'customer', 'user', 'animal', 'tree']);

const PLACE_CODE_HEADER = new RegExp(`^(${US_STATE_CODES.join('|')})$`);
const placeHeaderCache = new WeakMap<TableProfile, Set<string>>();

/**
 * Columns of a wide table headed by places' codes: eight or more headers written as US state or ISO country codes
 * in capitals (` AK `, ` AL `, … `WY`; `DEU`, `FRA`), one column per place.
 */
function placeHeaders(table: TableProfile): Set<string> {
  let found = placeHeaderCache.get(table);
  if (found) return found;
  const headed = table.columns.filter((c) => {
    const header = (c.originalName || c.name).trim();
    return PLACE_CODE_HEADER.test(header) || (/^[A-Z]{3}$/.test(header) && COUNTRY_CODES.has(header));
  });
  found = new Set(headed.length >= 8 ? headed.map((c) => c.name) : []);
  placeHeaderCache.set(table, found);
  return found;
}

/** The role of one column and what it rests on. */
export function decideRole(evidence: ColumnEvidence & { sample?: unknown[] }): RoleDecision {
  // A column of a wide table headed by a place's code (` AK `, ` ID `, ` SD `) holds what the table is about for that
  // place: its header names where, not what (not an `id`, not a standard deviation).
  const placeHeader = placeHeaders(evidence.table).has(evidence.column.name);
  const names: Names = { tokens: placeHeader ? [] : nameTokens(evidence.column.originalName || evidence.column.name), described: evidence.dictionary ? descriptionTokens(evidence.dictionary.description) : [], last: undefined };
  // A loader's renamed column (`as_` for `AS`) still reads by its original name.
  if (names.tokens.length === 0 && !placeHeader) names.tokens = nameTokens(evidence.column.name);
  // A translation of a JSON value keyed by its language (`knownName.no` beside `knownName.en`): the value, in Norwegian,
  // not a number. The name is what it translates.
  if (translationLanguage(evidence.table.columns.map((c) => c.originalName || c.name), evidence.column.originalName || evidence.column.name)) names.tokens = names.tokens.slice(0, -1);
  names.last = names.tokens[names.tokens.length - 1];
  for (const rule of RULES) {
    const decision = rule(evidence, names);
    if (decision) {
      if (evidence.column.nullFraction === 1 && decision.confidence > 0.5) decision.confidence = 0.5;
      return decision;
    }
  }
  return { role: 'text', rule: 'text:default', confidence: 0.3, why: 'no rule applied' };
}

/**
 * A plural noun of one word among other plural nouns of whole numbers that reach past 1 (a web log's `threats` of 0
 * and 1 beside its `requests` and `bytes`): one of the table's counts, which happens to be small here. The noun, or none.
 */
function oneOfCounts(e: ColumnEvidence, tokens: readonly string[]): string | undefined {
  const plural = (name: string) => /^[a-z]{3,}[^s]s$/.test(name);
  if (tokens.length !== 1 || !plural(tokens[0]) || FLAG_WORDS.has(tokens[0]) || e.column.type !== 'integer') return undefined;
  const counts = e.table.columns.filter((c) => c !== e.column && c.type === 'integer' && num(c.max) > 1 && plural(c.name));
  return counts.length >= 2 ? tokens[0] : undefined;
}

// ---- additivity, aggregation, unit ----------------------------------------------------------------------------

/**
 * `current` says a level (`current_balance`, "current positive cases") except alone (an electric current) and
 * before a currency or prices ("GDP in current USD": nominal money, a flow like any other).
 */
function currentLevel(words: readonly string[], at: number): boolean {
  const next = words[at + 1];
  if (words.length === 1 || next === undefined) return false;
  return !(MONEY_WORDS.has(next) || UNIT_WORDS[next]?.kind === 'currency' || /^(prices?|dollars?|us|terms|values?|account|year|month)$/.test(next));
}

const PAY_WORDS = new Set(['salary', 'salaries', 'wage', 'wages', 'pay', 'earnings']);
/** What earns a country or a region money (`visits`, `tourism`, `exports`): its earnings from them are a flow, not pay. */
const TRADE_WORDS = new Set(['visits', 'visitors', 'trips', 'tourism', 'tourist', 'tourists', 'exports', 'imports', 'trade', 'travel']);
const PAY_TOTAL_WORDS = new Set(['total', 'sum', 'bill', 'payroll', 'cost', 'costs', 'spend', 'spending', 'expenditure', 'expenditures', 'paid', 'outlays']);
const PERSON_KEY_WORDS = new Set(['id', 'ids', 'key', 'ssn', 'no', 'nr', 'number', 'uuid', 'guid']);

/**
 * A salary or a wage on rows that name no person or job (`reg_salary` of occupation × region rows, a firm's `wage`
 * per year): the pay typical of the group, averaged, never summed. With a key of whom it is paid to beside it (an
 * employee's, a player's `salary`), it is an amount paid, which adds up; so is a wage bill or a total.
 */
function typicalPay(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  const word = tokens.find((t) => PAY_WORDS.has(t));
  if (!word || tokens.some((t) => PAY_TOTAL_WORDS.has(t))) return undefined;
  // (A country's earnings from visits, trips or exports, "Overseas residents' visits to the UK: Earnings", are what
  // was spent there in the period: a flow, no pay.)
  if (tokens.some((t) => TRADE_WORDS.has(t))) return undefined;
  const keyed = evidence.table.columns.some((c) => c !== evidence.column && (c.candidateKey && c.type !== 'real' ? true : nameTokens(c.originalName || c.name).some((t) => PERSON_KEY_WORDS.has(t) || /[a-z]id$/.test(t))));
  if (keyed) return undefined;
  return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:typical-pay' }, why: `named ${evidence.column.name} ("${word}") on rows that name no person or job: the pay typical of each group, averaged, not summed` };
}

/** What an area of work is an area of (`service_area`, `policy_area`): a field of activity, not a place. */
const ACTIVITY_AREAS = new Set(['service', 'services', 'policy', 'subject', 'business', 'functional', 'function', 'programme', 'program', 'practice', 'focus', 'topic', 'research', 'clinical', 'therapeutic', 'priority', 'risk', 'interest', 'skill', 'skills', 'product', 'investment', 'impact', 'thematic', 'theme', 'activity', 'budget', 'spending', 'expenditure']);

/** Whether a text column's values are fractions of one (`1/2`, `1/3`, and `1` for a whole): shares. */
function fractionTexts(e: ColumnEvidence): boolean {
  if (e.column.type !== 'text') return false;
  const texts = presentTexts(e).map((v) => v.trim());
  const fractions = texts.map((v) => /^(\d+)\/(\d+)$/.exec(v));
  return texts.length >= 5 && fractions.some((m) => m !== null) && fractions.every((m, at) => (m !== null && Number(m[1]) > 0 && Number(m[1]) <= Number(m[2]) && Number(m[2]) <= 100) || /^(0|1)$/.test(texts[at]));
}

/** What a household has in a year (income, earnings, spending): said of each household, it is a household's. */
const HOUSEHOLD_FIGURES = /^(income|incomes|earnings|expenditure|spending|wealth|consumption)$/;

/**
 * A household's income on rows that are no households (areas: "Total annual household income by middle layer super
 * output area", £41,400 in County Durham 001): the income of the area's typical household, averaged, never summed.
 * Said by the name (`household_income`) or by the caption of the table over a name that has the figure (`Total annual
 * income (£)`). An aggregate of the area's households is named so and adds up.
 */
function householdFigure(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  const figure = tokens.find((t) => HOUSEHOLD_FIGURES.test(t));
  if (!figure || tokens.includes('aggregate')) return undefined;
  const own = tokens.some((t, at) => /^households?$/.test(t) && tokens[at + 1] !== undefined && HOUSEHOLD_FIGURES.test(tokens[at + 1]));
  const captionWords = (evidence.table.preamble ?? []).flatMap((line) => textTokens(line));
  const captioned = !own && captionWords.some((t, at) => /^households?$/.test(t) && captionWords[at + 1] === figure) && !captionWords.includes('aggregate');
  if (!own && !captioned) return undefined;
  // (Rows that are households, a `household_id` beside it, are each a household's own income: they add up.)
  if (evidence.table.columns.some((c) => c !== evidence.column && nameTokens(c.originalName || c.name).some((t) => /^(households?|hh|hhid)$/.test(t)) && nameTokens(c.originalName || c.name).some((t) => /^(id|key|number|no|hhid)$/.test(t)))) return undefined;
  return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:household-figure' }, why: `${own ? 'named' : 'captioned'} as a household's ${figure} on rows that are no households: the typical household's, averaged, not summed` };
}

/** The ids an Airtable base (`rec` and 14 letters or digits) or a MongoDB collection (24 hex digits) gives its records. */
const RECORD_ID = /^(rec[A-Za-z0-9]{14}|[0-9a-f]{24})$/;

/** People counted at a moment (residents, households): a level, unless named as whose a flow is. */
const PEOPLE_LEVEL_WORDS = new Set(['residents', 'inhabitants', 'households', 'employees', 'staff', 'members', 'population', 'pupils', 'subscribers', 'workforce']);

/** Inflows and outflows a balance nets, in pairs. */
const NETTED_FLOWS: Array<[RegExp, RegExp]> = [
  [/^(earnings|receipts|revenue|revenues|income|credits?)$/, /^(expenditure|expenditures|spending|outlays|payments|debits?)$/],
  [/^exports?$/, /^imports?$/],
];

/** The inflow and outflow named in other columns of the table that a balance nets ("earnings and expenditure"), or none. */
function nettedFlows(evidence: ColumnEvidence): string | undefined {
  const others = evidence.table.columns.filter((c) => c !== evidence.column).flatMap((c) => nameTokens(c.originalName || c.name));
  for (const [inflow, outflow] of NETTED_FLOWS) {
    const a = others.find((t) => inflow.test(t));
    const b = others.find((t) => outflow.test(t));
    if (a && b) return `${a} and ${b}`;
  }
  return undefined;
}

/** A header's unit in brackets at its end: `Fett (g)`, `Vitamin C (mg)`, `Jod (I) (µg)`, `Energy [kJ]`. */
const HEADER_MASS_UNIT = /[([]\s*(g|mg|µg|μg|ug|mcg|kj|kcal)([-\s][^)\]]*)?\s*[)\]]\s*$/i;
const MASS_OF = (unit: string) => unit.toLowerCase().replace('μ', 'µ').replace(/^(ug|mcg)$/, 'µg');

/** The mass units (and energy, kJ/kcal) the table's headers end in, with how many headers end in each. */
function compositionUnits(table: TableProfile): string[] {
  const units = new Set<string>();
  for (const c of table.columns) {
    const m = HEADER_MASS_UNIT.exec(c.originalName || '');
    if (m) units.add(MASS_OF(m[1]));
  }
  return [...units];
}

/**
 * A food composition table (or any table of items with their contents): six or more headers that end in a mass unit,
 * in two or more of g, mg and µg, and no date or time column. Each row's figures are contents per a reference amount
 * (per 100 g of the food), so they are averaged across items, never summed; a catch or a shipment in kg per row is
 * one unit and dated.
 */
function compositionUnit(evidence: ColumnEvidence): string | undefined {
  const own = HEADER_MASS_UNIT.exec(evidence.column.originalName || '');
  if (!own) return undefined;
  const table = evidence.table;
  if (table.columns.some((c) => c.type === 'date' || c.type === 'datetime')) return undefined;
  const headed = table.columns.filter((c) => HEADER_MASS_UNIT.test(c.originalName || ''));
  if (headed.length < 6) return undefined;
  const masses = compositionUnits(table).filter((u) => /g$/.test(u));
  return masses.length >= 2 ? MASS_OF(own[1]) : undefined;
}

/** The classification code a name ends in (`soc3`, `soc_3`, `naics`), not one it qualifies (`soc_name`, `soc_description`). */
function classificationCode(tokens: readonly string[]): string | undefined {
  let end = tokens.length;
  while (end > 1 && /^\d+$/.test(tokens[end - 1])) end--;
  return CLASSIFICATION_CODE.test(tokens[end - 1] ?? '') ? tokens[end - 1] : undefined;
}

/** A level that is a rank on a ladder, not a level at a moment ("School Leaver education levels", "skill level"). */
const RANKED_LEVELS = new Set(['education', 'educational', 'skill', 'skills', 'experience', 'grade', 'difficulty', 'security', 'service', 'confidence', 'significance', 'priority', 'risk', 'alert', 'language', 'entry', 'management', 'seniority', 'qualification', 'qualifications', 'study', 'school', 'government', 'geographic', 'geography', 'aggregation', 'threat', 'access', 'care', 'evidence', 'congestion', 'crowding', 'noise']);

/** Statistics that open a name and qualify the rest (`pct_rpt`, `avg_wait`, `share_female`). */
const STATISTIC_OPENERS = new Set(['pct', 'percent', 'perc', 'avg', 'average', 'mean', 'median', 'share', 'ratio', 'rate', 'prop', 'proportion', 'frac', 'fraction']);

/** A count per thousand (`jobs_1000`, `births_per_1000`, `deaths_100k`): the base it is per, or nothing. */
function perThousand(tokens: readonly string[]): string | undefined {
  const last = tokens[tokens.length - 1];
  if (tokens.length < 2 || !/^(1000|10000|100000|1k|10k|100k)$/.test(last ?? '')) return undefined;
  return `per ${last}`;
}

/** Additivity of a measure: the name's words, then the dictionary's, then the values. */
export function decideAdditivity(evidence: ColumnEvidence): Fact<Additivity> {
  let tokens = placeHeaders(evidence.table).has(evidence.column.name) ? [] : nameTokens(evidence.column.originalName || evidence.column.name);
  // `value` in a table called population is a population; a month's column of a wide table (`JAN` … `DEC`) holds
  // what the table is named for.
  // (A view's original name may be a sentence about it, "5 files, one per year": its name is what it is called.)
  const tableTokens = [...(evidence.table.kind === 'view' ? [] : nameTokens(evidence.table.originalName.replace(/\.[a-z0-9]+$/i, ''))), ...nameTokens(evidence.table.name)];
  const calendarColumn = tokens.length === 1 && MONTH_TOKEN.test(tokens[0]);
  if (tokens.length > 0 && tokens.every((t) => GENERIC_MEASURE_NAMES.has(t))) tokens = [...new Set([...tokens, ...tableTokens])];
  // …and so does a year's column (`1987` … `2019` of a sheet named Outfalls 2019: outfalls in each year), and a column
  // named by a span of time alone (`1 Mo` … `30 Yr` of daily Treasury rates: the rate at each maturity).
  else if ((tokens.length === 1 && /^(1[89]|20)\d\d$/.test(tokens[0])) || spanOfTime(evidence.column.originalName || evidence.column.name)) tokens = [...new Set(tableTokens.filter((t) => !/^\d+$/.test(t)))];
  // Numbered parameters of a model or a transformation (`p1` … `p7`: three shifts, three rotations and a scale;
  // `param1`, `coef2`): settings of each row's formula, compared, never summed.
  const ownName = (evidence.column.originalName || evidence.column.name).toLowerCase();
  const parameterStem = /^(p|param|parameter|coef|coeff)_?\d{1,2}$/.exec(ownName) ? ownName.replace(/_?\d+$/, '') : undefined;
  if (parameterStem && evidence.table.columns.filter((c) => new RegExp(`^${parameterStem}_?\\d{1,2}$`).test((c.originalName || c.name).toLowerCase())).length >= 3) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:numbered-parameters' }, why: `named ${evidence.column.name} beside other numbered ${parameterStem}s: parameters of each row's formula, compared, not summed` };
  }
  // Seats beside flights or passengers (BITRE's `seats_in` beside `flts_in` and `pax_in`): the seats the flights of a
  // month offered, a flow added over months like the flights; an aircraft's or a hall's seats stay a capacity.
  const flown = tokens.some((t) => /^(seats|berths)$/.test(t)) && evidence.table.columns.some((c) => c !== evidence.column && nameTokens(c.originalName || c.name).some((t) => /^(flts|flights|pax|passengers|departures|sailings|trips|journeys)$/.test(t)));
  if (flown) return { value: 'additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:seats-flown' }, why: `named ${evidence.column.name} beside flights or passengers: the seats those flights offered, added over them` };
  // A nutrient or a pigment named alone, perhaps with how it was measured (`chla_n`, `po4_f`): a concentration in
  // each sample, averaged. (Days or tonnes of it, `days_no2`, `no2_emissions`, count or weigh.)
  const formula = hasAny(tokens, FORMULA_ANALYTES);
  if (formula && tokens.every((t) => FORMULA_ANALYTES.has(t) || /^[a-z]$/.test(t) || /^(conc|concentration|mg|ug|umol|mgl|ugl|filtered|total|dissolved)$/.test(t))) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:concentration' }, why: `named ${evidence.column.name}: the concentration of ${formula} in each sample, averaged, not summed` };
  }
  // A rating on a scale its dictionary anchors at both ends ("from 1 - very bad to 5 - excellent"), or a grade or a
  // score it bounds ("first period grade (numeric: from 0 to 20)"): averaged, not summed.
  const said = evidence.dictionary?.description;
  if (describedRating(said) || (said !== undefined && /\b(grade|score|mark|rating)\b[^(]*\(numeric:\s*from\s+\d+\s+to\s+\d+/i.test(said))) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:described-rating' }, why: `described as "${said}": a rating or a score on a bounded scale, averaged` };
  }
  const magnitude = magnitudeType(evidence);
  if (magnitude) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:magnitude-type' }, why: `named ${evidence.column.originalName || evidence.column.name} beside ${magnitude}: a magnitude of its type, on a logarithmic scale, averaged, not summed` };
  if (ratedItem(evidence)) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:rated-item' }, why: `named ${evidence.column.name}, whole numbers ${evidence.column.min}–${evidence.column.max} beside other items of the form: an answer on a rating scale, averaged, not summed` };
  // Degree-days (`heat_deg_days_c`, `cdd`): how far each day's mean lay below or above a base, added up over the days
  // of a month or a season, whatever the degrees say.
  if ((tokens.some((t) => /^(deg|degree|degrees)$/.test(t)) && tokens.some((t) => /^(day|days)$/.test(t))) || (tokens.length <= 2 && /^(hdd|cdd|gdd)$/.test(tokens[0] ?? ''))) {
    return { value: 'additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:degree-days' }, why: `named ${evidence.column.name}: degree-days, added up over the days of a period` };
  }
  // Snow lying on the ground (`snow_on_grnd_cm`, `snow_depth`): a depth at each reading, a level, never summed; the
  // snow that fell (`snowfall`, `snow`) adds up.
  if (tokens.includes('snow') && tokens.some((t) => /^(grnd|ground|depth|cover|pack|snowpack)$/.test(t))) {
    return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:snow-depth' }, why: `named ${evidence.column.name}: the depth of snow lying at each reading, a level, averaged, not summed` };
  }
  // An energy of a state or of a step (`free_energy`, `activation_energy`, a structure's `energy` of -78,618 eV):
  // a property of each structure or reaction, compared, never summed; an energy produced or used (in kWh) adds up.
  const energyAt = tokens.findIndex((t) => t === 'energy' || t === 'energies');
  const energyOfState = energyAt >= 0 && (tokens.slice(0, energyAt).some((t) => /^(activation|free|potential|binding|adsorption|formation|reaction|gibbs|helmholtz|fermi|gap|band|kinetic|ionization|ionisation|excitation|dissociation|cohesive|surface|interaction|correction|zpe|dft)$/.test(t)) || /^(correction|corrections|barrier|barriers|difference|per)$/.test(tokens[energyAt + 1] ?? '') || (tokens.length === 1 && num(evidence.column.min) < 0));
  if (energyOfState) return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:energy-of-state' }, why: `named ${evidence.column.name}: the energy of a state, a structure or a step, compared between them, not summed` };
  // A generic `value` of key–value rows (ASE's `number_key_values`: `epot` and `n` in one column): figures of
  // different attributes, which no sum over the column adds up.
  const attributeKey = nameTokens(evidence.column.originalName || evidence.column.name).every((t) => GENERIC_MEASURE_NAMES.has(t)) ? evidence.table.columns.find((c) => c !== evidence.column && c.type === 'text' && /^(key|keys|attribute|attributes|property|properties)$/.test(nameTokens(c.originalName || c.name).join(' ')) && c.distinctCount >= 2) : undefined;
  if (attributeKey) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:key-value' }, why: `a generic ${evidence.column.name} beside ${attributeKey.name}, which names ${attributeKey.distinctCount} attributes: figures of different kinds, not summed` };
  const priceIndex = tableTokens.find((t) => PRICE_INDEX_WORDS.has(t));
  if (priceIndex && (calendarColumn || tokens.every((t) => GENERIC_MEASURE_NAMES.has(t) || tableTokens.includes(t)))) {
    return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:price-index-table' }, why: `a value of ${evidence.table.name}, named for a price index (${priceIndex}): indexes are averaged, not summed` };
  }
  // A gap between vehicles (`Min Gap`, `gap`, a headway: minutes to the next streetcar) is a spacing, averaged; the
  // minutes of a delay (`Min Delay` beside it, where `min` is the unit, not a minimum: no `Max Delay` beside it) add up
  // over the incidents.
  const minutes = /^(min|mins|minutes)$/.test(tokens[0] ?? '') ? tokens.slice(1) : tokens;
  const minimum = tokens[0] === 'min' && evidence.table.columns.some((c) => { const t = nameTokens(c.originalName || c.name); return t[0] === 'max' && t.slice(1).join(' ') === minutes.join(' '); });
  // (A headway is one wherever the name says it, `route_direction_headway_seconds`.)
  // (…and so is a gap given with its unit, `gap_seconds`: a rider's time behind the winner, a spacing to the first.)
  const gapWithUnit = tokens.length === 2 && /^(gap|gaps)$/.test(tokens[0]) && /^(s|sec|secs|seconds|min|mins|minutes|h|hours|ms|km|m|metres|meters)$/.test(tokens[1]);
  if (!minimum && ((minutes.length === 1 && /^(gap|gaps|headway|headways)$/.test(minutes[0])) || gapWithUnit || tokens.some((t) => t === 'headway' || t === 'headways'))) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:gap' }, why: `named ${evidence.column.name}: the spacing between one thing and the next, averaged, not summed` };
  if (!minimum && minutes.length === 1 && minutes !== tokens && /^(delay|delays|wait|waiting|lateness|downtime|outage|outages)$/.test(minutes[0])) return { value: 'additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:minutes-of-delay' }, why: `named ${evidence.column.name}: the minutes of each ${minutes[0]}, which add up over them` };
  // Things available now, counted (`numbikesavailable`, `beds_available`, `seats available`: at a station, a hospital,
  // a flight): a level at each report, summed across places, not over time. (Not a capacity offered over a month,
  // `available_tonne_kilometer`, nor whether a record is there, `record_available`.)
  if (tokens.length >= 2 && tokens[tokens.length - 1] === 'available' && /[a-z]{2,}s$/.test(tokens[tokens.length - 2]) && !TIME_WORDS.has(tokens[tokens.length - 2])) {
    return { value: 'semi-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:available-now' }, why: `named ${evidence.column.name}: ${tokens[tokens.length - 2]} available at a moment, a level` };
  }
  // A position written short at a name's head (`ftot_stk_est_pos`) in a file of positions or holdings
  // (`bertaut_judson_positions_liabs_2021`): what is held at the period's end, a level, not summed over time.
  if (tokens.length >= 2 && /^(pos|posn)$/.test(tokens[tokens.length - 1]) && tableTokens.some((t) => /^(positions|holdings)$/.test(t))) {
    return { value: 'semi-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:position-held' }, why: `named ${evidence.column.name} in ${evidence.table.name}: a position held at the period's end, a level` };
  }
  // (Only where the name says "per": `pop_1000` is as often a population in thousands.)
  const per = tokens.includes('per') ? perThousand(tokens) : undefined;
  if (per) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:per-thousand' }, why: `named ${evidence.column.name}: a figure ${per.replace(/k$/, ',000')}, a rate` };
  // A logarithm (`log_overall_costs_100k`, `ln_gdp`): sums of logarithms are logarithms of products, not totals.
  if (tokens.length >= 2 && /^(log|ln|log10|log2|logged)$/.test(tokens[0])) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:logarithm' }, why: `named ${evidence.column.name}: the logarithm of a figure, averaged, not summed` };
  // A hundred thousand at the end (not a thousand: see above) is an epidemiologist's rate (`cvd_mort_100k`, deaths per 100,000 people).
  if (tokens.length >= 2 && /^(100k|100000)$/.test(tokens[tokens.length - 1])) return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:per-thousand' }, why: `named ${evidence.column.name}: a figure per 100,000 people, a rate` };
  // The width of a confidence interval beside its limits, a margin of error: a statistic of an estimate, not summed.
  if (tokens.includes('confidence') && tokens.some((t) => /^(interval|intervals|width|level)$/.test(t))) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:confidence-interval' }, why: `named ${evidence.column.name}: the width of a confidence interval, a statistic of an estimate` };
  if (fractionTexts(evidence)) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:fractions' }, why: 'fractions of one: shares, averaged, not summed' };
  const household = householdFigure(evidence, tokens);
  if (household) return household;
  // A generic `value` in a long table whose MEASURE, UNIT or INDICATOR column names several (`PC_NDI`, `AGRWTH`,
  // `MLN_USD`; `quantile` beside `sample`): percentages, growth rates and amounts in one column, added only within one.
  const generic = nameTokens(evidence.column.originalName || evidence.column.name).every((t) => GENERIC_MEASURE_NAMES.has(t) || t === 'obs');
  const kindColumns = generic ? evidence.table.columns.filter((c) => c !== evidence.column && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 50 && /^(measure|measures|unit|units|unit measure|unit of measure|unit mult|indicator|statistic|stat|metric|output type|value type|target)$/.test(nameTokens(c.originalName || c.name).join(' '))) : [];
  // (Only where a kind is a share, a rate, a growth or a figure per head: units beside revenue are two amounts, each adding up.)
  const kinds = kindColumns.find((k) => k.samples.some((v) => typeof v === 'string' && nameTokens(v).some((t) => NON_ADDITIVE_WORDS.has(t) || /^(pc|pct|prop|proportion|grwth|agrwth|growth|idx|cap|quantile|percentile)$/.test(t))));
  // (…or where a key of a table of measures says which each row holds, `measure_id` 30, 31, 363: an estimated number
  // and two percentages, whose names are in that table.)
  const measureKey = generic ? evidence.table.columns.find((c) => c !== evidence.column && c.distinctCount >= 2 && c.distinctCount <= 50 && /^(measure|indicator|metric|statistic) (id|code|key)$/.test(nameTokens(c.originalName || c.name).join(' '))) : undefined;
  if (measureKey && !kinds) return { value: 'non-additive', confidence: 0.55, source: { kind: 'rule', rule: 'additivity:measure-key' }, why: `a generic ${evidence.column.name} beside ${measureKey.name}, which names ${measureKey.distinctCount} measures: figures of different kinds, added only within one` };
  if (kinds) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:mixed-measures' }, why: `a generic ${evidence.column.name} beside ${kinds.name}, which names ${kinds.distinctCount} kinds of figure (${kinds.samples.slice(0, 3).join(', ')}), shares or rates among them: added only within one` };
  if (multiplesAsText(evidence)) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:multiples' }, why: 'multiples written with an x: ratios to a reference, averaged, not summed' };
  // A term in years and months (`59 years 11 months` of a lease left): the age of each thing, averaged, not summed.
  if (yearsAndMonths(evidence)) return { value: 'non-additive', confidence: 0.55, source: { kind: 'rule', rule: 'additivity:term-in-years' }, why: 'spans in years and months: a term or an age of each thing, averaged, not summed' };
  // One column over another (`F/Fmsy`, `B/Bmsy` beside `Fmsy` and `Bmsy`): a ratio, averaged, never summed.
  const over = ratioOfColumns(evidence);
  if (over) return { value: 'non-additive', confidence: 0.75, source: { kind: 'rule', rule: 'additivity:ratio-of-columns' }, why: `named ${evidence.column.originalName}: one figure over ${over}, which is a column of the table: a ratio` };
  // A figure whose unit column names several units row by row (`Estimated F` beside `F Unit`: metric tons, an
  // exploitation rate, adult fish): rows in different units have no meaningful sum.
  const units = mixedUnits(evidence);
  if (units) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:units-per-row' }, why: `beside ${units.column}, which gives ${units.count} different units (${units.examples.join(', ')}): rows in different units are not summed` };
  // A short word numbered (`pop16`: population above 16, `emp2`) reads as its word.
  tokens = tokens.map((t) => /^[a-z]{3}\d+$/.test(t) ? t.replace(/\d+$/, '') : t);
  const described = evidence.dictionary ? descriptionTokens(evidence.dictionary.spelledOut ?? evidence.dictionary.description) : [];
  // A description that puts the quantity per person ("cigarette sales in packs per capita", "per capita disposable
  // income") says more than the name: whatever is counted, a figure per head does not add up.
  const perHead = described.findIndex((w, at) => w === 'per' && PER_HEAD_WORDS.has(described[at + 1] ?? ''));
  if (perHead >= 0) return { value: 'non-additive', confidence: 0.8, source: { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line }, why: `described "per ${described[perHead + 1]}": a figure per head, which does not add up` };
  // Time since an event ("Years since last fire", `days_since_visit`): an age of each row's thing, averaged, not summed.
  const sinceAt = (words: readonly string[]) => words.findIndex((w, at) => w === 'since' && at > 0 && /^(years?|yrs?|months?|weeks?|days?|hours?|time)$/.test(words[at - 1]));
  if (sinceAt(tokens) >= 0) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:time-since' }, why: `named ${evidence.column.name}: the time since an event, an age, averaged, not summed` };
  if (sinceAt(described) >= 0) return { value: 'non-additive', confidence: 0.7, source: { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line }, why: `described as "${evidence.dictionary!.description}": the time since an event, an age, averaged, not summed` };
  // A concentration by its description ("Root total soluble sugar concentration (grams per 100 g dry root)"), whatever
  // the name's `total` says.
  if (described.some((w) => w === 'concentration' || w === 'concentrations')) return { value: 'non-additive', confidence: 0.7, source: { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line }, why: `described as "${evidence.dictionary!.description}": a concentration, averaged, not summed` };
  // A quantity per area (`kg N ha-1 yr-1`, `t/ha`, `per km2`, `plants m-2`), in the dictionary's unit or description or in
  // a unit column beside it: a rate or a density over the land each row covers, averaged across rows, never summed.
  // A unit over a unit or on a logarithmic scale in the dictionary (`g/kg`, `kg*C/m²`, `cg/cm³`, `dB`, a scaled
  // reflectance): a property of each row's place or sample, averaged, never summed.
  const dictionaryUnit = evidence.dictionary?.unit?.trim() ?? '';
  if (dictionaryUnit && (/^[^/\s][^/]*\/\s*[^/\s]+$/.test(dictionaryUnit) || /^(d[bB]|decibels?|dBm|dBZ)$|\b(reflectance|index|ratio|proportion|fraction)\b|\^-\d|⁻/i.test(dictionaryUnit)) && !/^(count|number|items?|persons?|people)\b/i.test(dictionaryUnit)) {
    return { value: 'non-additive', confidence: 0.7, source: { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line }, why: `in ${dictionaryUnit}: a quantity per amount of something, or on a relative scale, averaged, not summed` };
  }
  // How far each row is from something ("Euclidean distance to power lines", `dist_to_road`): a property of where it
  // is, averaged; a distance travelled (`distance`, `trip_distance`) adds up.
  const distanceTo = (words: readonly string[]) => words.some((w, at) => /^(distance|dist)$/.test(w) && /^(to|from)$/.test(words[at + 1] ?? '') && words[at + 2] !== undefined);
  // (…in the languages of official registers too, read from the description itself, a unit in brackets between:
  // "Avstånd (km) till uppströms sjö", "Entfernung zum Ufer".)
  const distanceToDescribed = evidence.dictionary !== undefined && /(^|[^\p{L}])(avstånd|afstand|abstand|entfernung|distancia|distanza|etäisyys)(\s*\([^)]*\))?\s+(till|från|zu|zum|zur|von|a|al|desde|hasta|naar|van|til|fra)\s+\p{L}/iu.test(evidence.dictionary.description);
  // A height above the sea ("Höjd över havet i meter", "altitude above mean sea level"): where a place lies, averaged.
  const aboveSea = evidence.dictionary ? /(^|[^\p{L}])(above|över|over|über|au-dessus|sobre|sopra|boven)\s+(the\s+|du\s+|dem\s+|el\s+|il\s+)?(mean\s+)?(sea|havet|havsytan|meeresspiegel|niveau de la mer|nivel del mar|livello del mare|zeeniveau|normalnull)(?!\p{L})/iu.exec(evidence.dictionary.description) : null;
  if (aboveSea) return { value: 'non-additive', confidence: 0.7, source: { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line }, why: `described as "${evidence.dictionary!.description}": a height above the sea, where a place lies, averaged, not summed` };
  if (distanceTo(tokens) || distanceTo(described) || distanceToDescribed) return { value: 'non-additive', confidence: 0.65, source: distanceTo(tokens) || !evidence.dictionary ? { kind: 'rule', rule: 'additivity:distance-to' } : { kind: 'dictionary', file: evidence.dictionary.file, line: evidence.dictionary.line }, why: 'a distance from each row\'s place to something: where it is, averaged, not summed' };
  const perArea = perAreaUnit(evidence);
  if (perArea) return { value: 'non-additive', confidence: 0.75, source: evidence.dictionary && perArea.from === 'dictionary' ? { kind: 'dictionary', file: evidence.dictionary.file, line: evidence.dictionary.line } : { kind: 'rule', rule: 'additivity:per-area' }, why: `in ${perArea.unit}: a quantity per area, averaged, not summed` };
  // A concentration (`mg/L`, `g/L`, `µg/m3`, ppm) or a reading of a probe (pH, mV, µS/cm), in the description, the
  // unit or the header: a property of each sample, averaged, never summed ("Total nitrogen, mg/L" included).
  // (A header writes the unit with underscores: `no3_mg_l`, `t_coliform_mpn_100_ml`, `aureo_cells_ml`.)
  const header = (evidence.column.originalName || evidence.column.name).replace(/_(mg|ug|µg|ng|g|mpn|cfu|cells|mmol|umol)_(100_)?(l|ml|dl|kg|m3)$/i, (_, a: string, h: string | undefined, b: string) => ` ${a}/${h ? '100 ' : ''}${b}`);
  const byHeader = CONCENTRATION_UNIT.exec(header)?.[0] ?? (/^p_?h$/i.test(evidence.column.originalName || evidence.column.name) ? 'pH' : undefined);
  const inDictionary = byHeader || !evidence.dictionary ? undefined : CONCENTRATION_UNIT.exec(`${evidence.dictionary.description} ${evidence.dictionary.unit ?? ''}`)?.[0];
  const concentration = byHeader ?? inDictionary;
  if (concentration) {
    const source: Fact<Additivity>['source'] = inDictionary && evidence.dictionary ? { kind: 'dictionary', file: evidence.dictionary.file, line: evidence.dictionary.line } : { kind: 'rule', rule: 'additivity:concentration' };
    return { value: 'non-additive', confidence: 0.75, source, why: `in ${concentration.trim()}: a concentration or a reading per sample, averaged, not summed` };
  }
  // A substance measured in a water or soil sample (`nitrate`, `silicate`, `diss_oxygen`), beside other substances and
  // a probe's reading (pH, salinity, temperature): its concentration in each sample, averaged, not summed. (A table of
  // fertiliser use, `nitrogen` and `phosphate` in tonnes with no probe beside them, adds up.)
  const analyte = analyteNamed(tokens);
  if (analyte && evidence.table.columns.filter((c) => analyteNamed(nameTokens(c.originalName || c.name))).length >= 2 && evidence.table.columns.some((c) => /^(p_?h|salinity|sal|conductivity|cond|turbidity|temp|temperature|water_temp|water_temperature)$/i.test(c.originalName || c.name))) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:analyte' }, why: `named ${evidence.column.name}: ${analyte} in each sample, beside other substances and a probe's reading, a concentration` };
  }
  // A catalogue of things on the sky (a table with `ra` and `dec`: right ascension and declination): each row one
  // object's position, magnitudes, sizes and angles, none of which add up across objects. (Counts still do.)
  // …and so is a catalogue of chemical compounds (a table with a structure's SMILES, InChI or InChIKey and a formula):
  // each row one compound's retention time, mass or property, averaged across compounds, never summed.
  if (compoundCatalogue(evidence.table) && !hasAny(tokens, COUNT_WORDS)) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:compound-catalogue' }, why: `a figure of each compound of ${evidence.table.name}, a catalogue of compounds (their structures beside it): averaged, not summed` };
  }
  if (skyCatalogue(evidence.table) && !hasAny(tokens, COUNT_WORDS)) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:sky-catalogue' }, why: `a figure of each object of ${evidence.table.name}, a catalogue of the sky (right ascension and declination beside it): averaged, not summed` };
  }
  // A unit over a unit in the header (`bd_g_cm3`, `ec_mmhos_cm`, `cec_meq_100g`, `whc_in_ft`, `ace_g_protein_kg_soil`):
  // a density, a conductivity, a capacity per amount of the sample: a property of each sample, averaged.
  const perUnit = unitOverUnit(nameTokens(evidence.column.originalName || evidence.column.name));
  if (perUnit) return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:unit-over-unit' }, why: `named ${evidence.column.name}: in ${perUnit}, a quantity per amount of something, averaged, not summed` };
  const pay = typicalPay(evidence, tokens);
  if (pay) return pay;
  const composition = compositionUnit(evidence);
  if (composition) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:composition' }, why: `in ${composition}, beside contents in ${compositionUnits(evidence.table).join(', ')} per row and no date: a composition per reference amount (per 100 g), averaged, not summed` };
  const fromWords = (words: string[], where: 'name' | 'dictionary'): Fact<Additivity> | undefined => {
    // "previous year's level", "last month's stock": the same quantity at an earlier date, of its own kind.
    words = words.filter((w, at) => !(/^(previous|prior|last)$/.test(w) && TIME_WORDS.has(words[at + 1] ?? '')));
    // A description's unit "per year" ("million tonnes per year", "terawatt-hours per year") says the amount of a
    // year, which adds up like any flow; a figure per head was decided above, an average keeps its own word.
    if (where === 'dictionary') words = words.filter((w, at) => !(w === 'per' && /^(year|years|annum|yr)$/.test(words[at + 1] ?? '')));
    // …and so does a value, an amount or a cost "per year" in a name (a grant scheme's `value_per_year` in pounds): the
    // amount of each year, a flow.
    if (where === 'name' && words.length === 3 && /^(value|amount|cost|spend|spending|budget|funding|payment|payments)$/.test(words[0]) && words[1] === 'per' && /^(year|annum|yr)$/.test(words[2])) words = [words[0]];
    const source: Fact<Additivity>['source'] = where === 'name' ? { kind: 'rule', rule: 'additivity:name' } : { kind: 'dictionary', file: evidence.dictionary!.file, line: evidence.dictionary!.line };
    // "Number of patients delayed by reason …: awaiting availability of a bed", "number of patients with a length of
    // stay of 14 days": a count of people in a state when counted, a level, whatever the words of the state ("availability").
    // "Number of patients discharged": a count of what happened in the period, which adds up.
    if (/^(number|no|num|count)$/.test(words[0] ?? '') && words[1] === 'of') {
      // (…and so is a number of things installed or held, "number of meters", "number of connections": a stock.)
      const state = words.find((w) => COUNTED_STATES.has(w)) ?? (words.includes('length') && words.includes('stay') ? 'length of stay' : undefined) ?? words.slice(2, 5).find((w) => INSTALLED_THINGS.has(w));
      if (state) return { value: 'semi-additive', confidence: 0.65, source, why: `${where === 'name' ? 'named' : 'described'} as a number of things "${state}": a count of them in that state when counted, not summed over time` };
      const flow = hasAny(words, FLOW_WORDS);
      if (flow) return { value: 'additive', confidence: 0.7, source, why: `${where === 'name' ? 'named' : 'described'} as a number of things "${flow}" in the period: a count, which adds up` };
    }
    // Things active at a moment, counted (`active_tcp_conns`, `active_dns_requests`): a level at that moment.
    if (where === 'name' && words.length > 1 && words[0] === 'active' && /[^s]s$/.test(words.at(-1) ?? '')) return { value: 'semi-additive', confidence: 0.65, source, why: `named ${evidence.column.name}: the ${words.slice(1).join(' ')} active at a moment, counted; not summed over time` };
    // "… to date", "from the fiscal year's beginning to the period's end" (`gross_outlay_amount_fyb_to_period_end`,
    // `cases_to_date`): a total so far, which is not summed over time. (Beside the months it adds up, EIA-923's
    // `…_january` … `…_december`, a year-to-date figure is the year's total, which adds up over years.)
    const soFar = totalSoFarAt(words);
    const monthly = evidence.table.columns.some((c) => MONTH_TOKEN.test(nameTokens(c.originalName || c.name).at(-1) ?? ''));
    if (soFar > 0 && !monthly && !words.some((w) => /^(per|pct|percent|percentage|rate|share|ratio|change)$/.test(w))) return { value: 'semi-additive', confidence: 0.7, source, why: `${where === 'name' ? 'named' : 'described'} "${words.slice(soFar - 1, soFar + 3).join(' ')}": a total so far, which is not summed over time` };
    if (where === 'dictionary') {
      // "Running total of monthly cooling degree days", "season to date": a cumulative level, whatever it counts.
      const running = words.findIndex((w, at) => (w === 'running' && /^(total|sum|count)$/.test(words[at + 1] ?? '')) || (w === 'to' && words[at + 1] === 'date' && at > 0 && /^(season|year|month|quarter|week)$/.test(words[at - 1])));
      if (running >= 0) return { value: 'semi-additive', confidence: 0.7, source, why: `described as "${words.slice(running, running + 2).join(' ')}": a cumulative level, which is not summed over time` };
      // "Number days with snow depth >= 25 mm", "Number of visits": a count, whatever it counts days of.
      const opening = words.filter((w) => !ARTICLES.has(w));
      // (A number of people in a state at a moment, "number of students enrolled", is that level: decided below.)
      if ((opening[0] === 'number' || opening[0] === 'count') && !words.some((w) => w === 'per' || STATISTIC_WORDS.has(w) || SEMI_ADDITIVE_WORDS.has(w)) && evidence.column.type === 'integer') {
        return { value: 'additive', confidence: 0.7, source, why: `described as "${opening.slice(0, 3).join(' ')} …": a count, which adds up` };
      }
    }
    // A number of things for each one of others ("Nombre de trains à l'heure pour un train en retard", "passengers per
    // one seat", "number of cases per 1000"): a ratio, not summed.
    const perOne = words.findIndex((w, at) => (w === 'pour' && /^(un|une|1)$/.test(words[at + 1] ?? '')) || (w === 'per' && /^(one|each|\d+)$/.test(words[at + 1] ?? '') && /^(number|no|num|count|nombre)$/.test(words[0] ?? '')));
    if (perOne > 0) return { value: 'non-additive', confidence: where === 'name' ? 0.7 : 0.6, source, why: `${where === 'name' ? 'named' : 'described'} as a number "${words.slice(perOne, perOne + 3).join(' ')}": a ratio, not summed` };
    // A figure "of GDP" or "of the total" (`pt_expenditure_of_gdp`): a share of it, in per cent.
    const shareOf = words.findIndex((w, at) => w === 'of' && /^(gdp|gnp|gva|total|income|population)$/.test(words[at + 1] ?? '') && at > 0);
    if (shareOf > 0) return { value: 'non-additive', confidence: where === 'name' ? 0.7 : 0.6, source, why: `${where === 'name' ? 'named' : 'described'} as a figure "of ${words[shareOf + 1]}": a share of it, not summed` };
    // "average", "per", "rate" qualify whatever they are said of ("average total", "sales per capita").
    // "unit price", "unit cost", "cost per night": a value per unit of something does not add up.
    const perUnit = (words.includes('unit') || words.includes('per') || words.includes('specific')) && (hasAny(words, MONEY_WORDS) !== undefined || hasAny(words, ADDITIVE_WORDS) !== undefined) ? 'per unit' : undefined;
    // Distinct counts overlap across groups: they do not add up.
    const distinctCount = words.includes('distinct') || words.includes('unique') || words.includes('uniques') || words.includes('cardinality') ? 'distinct count' : undefined;
    const head = where === 'name' && HEAD_NON_ADDITIVE_WORDS.has(words[words.length - 1] ?? '') ? words[words.length - 1] : undefined;
    // (Statistics run into a token, `tmax`, are a name's abbreviations; a description's words are whole: a `developer` is no `per`.)
    // (An incidence counted, "estimated incidence (thousands)", HSE's injuries, is a number of cases, not a rate.)
    const countedIncidence = words.includes('incidence') && words.some((w) => /^(thousands?|millions?|number|count|counts|cases)$/.test(w)) && !words.includes('per');
    // Solar radiation written short (`DaySolRadNetValue`, `sol_rad`): a power on an area, read as a day's average.
    const solarRadiation = words.some((w, at) => (w === 'sol' || w === 'solar') && words[at + 1] === 'rad') ? 'solar radiation' : undefined;
    // A running total named so at its head (`reg_count_cumu`, `reg_avg_cumu`: the expected counts added up month
    // after month): a level to date, whatever it adds up; a share of one (`_cumu_per`) keeps its own word.
    const cumulative = where === 'name' && /^(cumu|cumulative|cum)$/.test(words.at(-1) ?? '') && words.length > 1 && !words.some((w) => /^(per|pct|percent|percentage|rate|share|ratio)$/.test(w));
    if (cumulative) return { value: 'semi-additive', confidence: 0.75, source, why: `named ${evidence.column.name}, "${words.at(-1)}" at its head: a running total, which is not summed over time` };
    const non = perUnit ?? distinctCount ?? solarRadiation ?? hasAny(countedIncidence ? words.filter((w) => w !== 'incidence') : words, NON_ADDITIVE_WORDS) ?? head ?? (where === 'name' ? nonAdditiveMorpheme(words, KNOWN_WORDS) : undefined);
    if (non) return { value: 'non-additive', confidence: where === 'name' ? 0.85 : 0.75, source, why: `${where === 'name' ? 'named' : 'described'} with "${non}": sums are not meaningful` };
    const rate = hasAny(words, RATE_UNIT_WORDS);
    if (rate) return { value: 'semi-additive', confidence: where === 'name' ? 0.75 : 0.65, source, why: `in ${rate}, a rate at an instant: readings add across plants or stations at one moment, not over time` };
    const flow = hasAny(words, FLOW_WORDS);
    if (flow) return { value: 'additive', confidence: where === 'name' ? 0.8 : 0.7, source, why: `"${flow}": a change over a period, which adds up over time` };
    // People named as whose a flow is ("UK residents' visits abroad: expenditure", "households' spending"): what they
    // spent or earned in the period, which adds up, not a count of them.
    const theirFlow = words.findIndex((w, at) => PEOPLE_LEVEL_WORDS.has(w) && words.slice(at + 1).some((later) => PERIOD_FLOW_WORDS.has(later) || TRADE_WORDS.has(later)));
    if (theirFlow >= 0) {
      const flowWord = words.slice(theirFlow + 1).filter((later) => PERIOD_FLOW_WORDS.has(later) || TRADE_WORDS.has(later)).at(-1);
      return { value: 'additive', confidence: where === 'name' ? 0.7 : 0.6, source, why: `${where === 'name' ? 'named' : 'described'} as the ${flowWord} of ${words[theirFlow]}: a flow of the period, which adds up` };
    }
    // A balance beside the flows it nets (earnings and expenditure, exports and imports): a net flow of the period, which
    // adds up over time, unlike an account's balance.
    if (where === 'name' && words.includes('balance') && !words.some((w) => /^(running|opening|closing|account|bank|cash|outstanding|loan)$/.test(w)) && nettedFlows(evidence)) {
      return { value: 'additive', confidence: 0.65, source, why: `named ${evidence.column.name} beside the flows it nets (${nettedFlows(evidence)}): a net flow of the period, which adds up` };
    }
    const semi = words.find((w, at) => SEMI_ADDITIVE_WORDS.has(w) && !(w === 'current' && !currentLevel(words, at)) && !(/^levels?$/.test(w) && RANKED_LEVELS.has(words[at - 1] ?? '')));
    if (semi) return { value: 'semi-additive', confidence: where === 'name' ? 0.8 : 0.7, source, why: `"${semi}" is a level at a moment: it adds across entities, not across time` };
    const additive = hasAny(words, ADDITIVE_WORDS);
    if (additive) return { value: 'additive', confidence: where === 'name' ? 0.85 : 0.75, source, why: `"${additive}" adds up` };
    return undefined;
  };
  // A replicate weight (`wt1` … `wt15` of a jackknife: 0 where the unit's cluster is left out, n/(n-1) elsewhere): a
  // factor that multiplies a value, which means nothing summed on its own.
  const original0 = evidence.column.originalName || evidence.column.name;
  if (/^(wt|wgt|weight|repwt|rwt|rep_?wt|rep_?weight)_?\d*$/i.test(original0) && evidence.column.distinctCount === 2 && num(evidence.column.min) === 0 && !Number.isInteger(num(evidence.column.max))) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:weight-factor' }, why: `named ${original0}, two values, 0 and ${evidence.column.max}: a weight factor that multiplies what it weighs` };
  }
  // Years spent doing something (`years_farm`, `A11_years_farm`, `yrs_service`): a duration that describes who
  // answers, like an age, never summed.
  const yearsAt = tokens.findIndex((t) => t === 'years' || t === 'yrs');
  if (yearsAt >= 0 && yearsAt < tokens.length - 1 && tokens.slice(0, yearsAt).every((t) => /^[a-z]{0,2}\d+[a-z]?$/.test(t)) && evidence.column.type === 'integer' && num(evidence.column.min) >= 0 && num(evidence.column.max) <= 120) {
    return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:years-of' }, why: `named ${evidence.column.name}, integers ${evidence.column.min}–${evidence.column.max}: years spent at something, like an age` };
  }
  // The ends of a range around an estimate (`reg_lb` beside `reg_ub`: the expected registrations less and plus a
  // standard deviation; a confidence interval's `lower bound` and `upper bound`): limits, compared, never summed.
  const otherEnd = boundOfRange(evidence, tokens);
  if (otherEnd) return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:range-bound' }, why: `named ${evidence.column.name} beside ${otherEnd}: one end of a range around an estimate, not an amount` };
  // A count of the things each row is (`n_cats` on a table of cats, 1–4): how many the row's household or group has,
  // repeated on each of its rows, so a sum over rows counts the group again for each member.
  const group = countOfOwnKind(evidence, tokens);
  if (group) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:count-of-own-kind' }, why: `named ${evidence.column.name} in ${evidence.table.originalName}, whose rows are ${group}: how many ${group} the group of each row holds, repeated on each of its rows` };
  // The head of a name says what is counted: `score_top_critics_votes` is a number of votes, not a score — unless
  // a statistic qualifies it (`avg_votes`).
  const head = tokens[tokens.length - 1];
  // (A count of a population, `population_count`, `electorate_population_count`, is that level: the words decide below.)
  if (tokens.length > 1 && head !== undefined && COUNT_WORDS.has(head) && !MEASURED_IN.has(head) && (evidence.column.type === 'integer' || evidence.column.distinctCount === 0) && !tokens.slice(0, -1).some((t) => STATISTIC_WORDS.has(t) || t === 'population' || t === 'pop' || t === 'headcount')) {
    return { value: 'additive', confidence: 0.75, source: { kind: 'rule', rule: 'additivity:counted-head' }, why: `ends in "${head}": a count, which adds up` };
  }
  // Money per unit of a quantity written with a slash (`Capital cost (NZD/kW)`, `Fuel costs ($/GJ)`): a unit cost.
  // Per year or per month it is a yearly or monthly amount, which adds up.
  const original = evidence.column.originalName || evidence.column.name;
  const perSlash = /\/\s*([A-Za-z][A-Za-z0-9]*)/.exec(original);
  if (hasAny(tokens, MONEY_WORDS) && perSlash && /(\$|€|£|\b[A-Z]{3}\b)\s*\/\s*[A-Za-z]/.test(original) && !/^(year|yr|annum|month|quarter|qtr)s?$/i.test(perSlash[1])) {
    return { value: 'non-additive', confidence: 0.75, source: { kind: 'rule', rule: 'additivity:money-per-unit' }, why: `named ${original}: money per ${perSlash[1]}, a unit cost` };
  }
  // A time achieved, written H:MM:SS (a winner's `Time` of `02:11:48`): a result compared or averaged, not summed;
  // a `duration` of calls or trips adds up.
  if (evidence.column.type === 'text' && tokens.length > 0 && tokens.every((t) => t === 'time' || t === 'times' || t === 'finish' || t === 'winning' || t === 'lap' || t === 'race' || t === 'best' || t === 'chip' || t === 'net' || t === 'gun') && elapsedTimes((evidence as EvidenceWithSample).sample ?? evidence.column.samples)) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:time-achieved' }, why: `named ${evidence.column.name}, hours, minutes and seconds: a time achieved, compared or averaged, not summed` };
  }
  // A year-to-date figure beside all twelve months of the year (`ytd` after `january` … `december`) is the year's
  // total, which adds up over the years like its months.
  if (tokens.includes('ytd') && evidence.table.columns.filter((c) => { const t = nameTokens(c.originalName || c.name); return t.length === 1 && MONTH_TOKEN.test(t[0]); }).length >= 12) {
    return { value: 'additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:year-total' }, why: `named ${evidence.column.name} beside the twelve months: the year's total, which adds up over years` };
  }
  // A change, or a quantity's name, over reals within ±1 (`vote_change` -0.45…0.44, `from_constituency_population`
  // 0…1): a change of a share, or a share of the quantity, not an amount.
  const fraction = evidence.column.type === 'real' && Math.abs(num(evidence.column.min)) <= 1 && Math.abs(num(evidence.column.max)) <= 1 && evidence.fingerprint.unitInterval >= 0 && num(evidence.column.max) > num(evidence.column.min);
  if (fraction && (tokens.includes('change') || tokens.includes('swing') || ((num(evidence.column.min) >= 0 && hasAny(tokens, SEMI_ADDITIVE_WORDS) !== undefined) && !hasAny(tokens, MONEY_WORDS)))) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:fraction' }, why: `named ${evidence.column.name}, reals ${evidence.column.min}–${evidence.column.max}: a share or a change of one, not an amount` };
  }
  const byValues = additivityOfNamedValues(evidence, tokens);
  if (byValues) return byValues;
  const component = componentOfChange(evidence, tokens);
  if (component) return component;
  const played = matchScore(evidence, tokens);
  if (played) return played;
  const size = sizeOfAThing(evidence, tokens);
  if (size) return size;
  // A distance from or to a point (`plot_distance_from_start_m`, `dist_to_coast`): where a thing is, not a way travelled.
  const from = tokens.findIndex((t, i) => (t === 'distance' || t === 'dist') && (tokens[i + 1] === 'from' || tokens[i + 1] === 'to'));
  if (from >= 0) return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:distance-from' }, why: `named ${evidence.column.name}: a distance ${tokens[from + 1]} a point, where each thing is, not a way travelled` };
  // A name that is an indicator's code (`NY.GDP.MKTP.KD.ZG`) is read through its description first ("GDP growth
  // (annual %)"): the code's parts are abbreviations, the description says what the figure is.
  const coded = INDICATOR_CODE.test(evidence.column.originalName ?? '');
  const byDictionary = described.length > 0 ? fromWords(described, 'dictionary') : undefined;
  if (coded && byDictionary) return byDictionary;
  const byName = fromWords(tokens, 'name');
  if (byName) return byName;
  if (byDictionary) return byDictionary;
  const f = evidence.fingerprint;
  if (f.percentSign >= 0.5) return { value: 'non-additive', confidence: 0.8, source: { kind: 'rule', rule: 'additivity:percent-values' }, why: 'values are percentages' };
  // (An area in small units, a county's 0.04–0.24 square degrees, is a surface that adds up over regions that do not overlap.)
  if (evidence.column.type === 'real' && f.unitInterval >= 0.98 && num(evidence.column.max) <= 1 && !(tokens.length === 1 && /^(area|surface)$/.test(tokens[0]))) {
    return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:unit-interval' }, why: 'values lie in [0, 1]: a share or a rate' };
  }
  // Small real numbers on both sides of zero (-0.84 … 1.53): a relative change or an index against a base, not an amount.
  const min = num(evidence.column.min);
  const max = num(evidence.column.max);
  // (…unless the table's caption says its values are amounts per period: a sink or a flux of a year may be below zero.)
  const perPeriod = flowCaption(evidence.table.preamble);
  if (perPeriod) return { value: 'additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:caption-flow' }, why: `the table's caption says "${perPeriod.length > 80 ? `${perPeriod.slice(0, 80)}…` : perPeriod}": amounts of each period, which add up` };
  if (evidence.column.type === 'real' && min < 0 && max > 0 && Math.max(-min, max) <= 10) {
    return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:signed-fraction' }, why: `real numbers ${min}–${max} on both sides of zero: a relative change or an index` };
  }
  // Where an interval starts and where it ends (`tx_start` beside `tx_end` on a chromosome, `start_km` beside `end_km`
  // along a road): positions, which mean nothing summed; their difference is the length.
  const bound = BOUND_PAIRS.find(([a, b]) => {
    const other = (t: string) => (t === a ? b : t === b ? a : undefined);
    const at = other(tokens[0]) !== undefined ? 0 : other(tokens[tokens.length - 1] ?? '') !== undefined ? tokens.length - 1 : -1;
    if (at < 0 || tokens.length < 2) return false;
    const sibling = tokens.map((t, i) => (i === at ? other(t)! : t)).join(' ');
    return evidence.table.columns.some((c) => c !== evidence.column && (c.type === 'integer' || c.type === 'real') && nameTokens(c.originalName || c.name).join(' ') === sibling);
  });
  if (bound) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:interval-bound' }, why: `named ${evidence.column.name} beside its ${bound.join('/')} pair: a position where an interval ${tokens.includes(bound[0]) ? 'starts' : 'ends'}, not an amount` };
  // A table titled as shares ("Percentage of Popular Vote Received by State" over the FEC's nominees by year): its
  // figures with no word of their own are shares, not amounts.
  const title = (evidence.table.preamble ?? []).slice(0, 8).find((line) => SHARE_TITLE.test(line));
  if (title) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:titled-share' }, why: `in a table titled "${title.trim()}": a share, not an amount` };
  // A table named for what it holds at a moment (`…_capacity_…`, `stock_levels`, `providers_as_at_2018_03_31`): its
  // quantities are levels, unless their own words said otherwise above.
  const level = tableLevel(evidence.table);
  if (level) return { value: 'semi-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:table-level' }, why: `in ${evidence.table.originalName.replace(/^.*[\\/]/, '')}, named ${level}: a level at a moment, added across entities, not over time` };
  // A sensor's log (sensor.community's `sensor_id`, `sensor_type` SDS011, a `timestamp` every few minutes, and `P1`,
  // `P2`): each figure with no word of its own is what the sensor read at that moment, averaged, not summed.
  // A census of marked individuals (a plant's `ID` on each of its visits, each visit dated): each figure with no word
  // of its own is what the individual measured at that visit (`c1`, `ch`, `stem_d1`: its canopy and stem diameters),
  // averaged, not summed. (Parts counted, `lv_stems`, and amounts keep their own words.)
  const census = censusOfIndividuals(evidence.table);
  if (census && tokens.length <= 2 && !/[a-z]{3,}s$/.test(tokens[tokens.length - 1] ?? '') && !hasAny(tokens, DURATION_WORDS) && !hasAny(tokens, COUNT_WORDS) && !hasAny(tokens, ADDITIVE_WORDS) && !hasAny(tokens, MONEY_WORDS) && !hasAny(tokens, SEMI_ADDITIVE_WORDS)) {
    return { value: 'non-additive', confidence: 0.5, source: { kind: 'rule', rule: 'additivity:census-reading' }, why: `in a census of individuals (${census} on each of their dated visits): a measurement of one individual at a visit, averaged, not summed` };
  }
  // Positions on a plane (`X` and `Y` along and across a transect, in metres): coordinates, averaged, never summed.
  const plane = tokens.length === 1 && /^(x|y|z|easting|northing)$/.test(tokens[0]) && ['x', 'y'].every((axis) => evidence.table.columns.some((c) => (c.originalName || c.name).trim().toLowerCase() === axis));
  if (plane) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:plane-coordinate' }, why: `named ${evidence.column.name} beside the other axis: a position on a plane, averaged, not summed` };
  const sensor = sensorLog(evidence.table);
  // (A pulse's duration, `durP1`, adds up as time does.)
  if (sensor && tokens.length <= 2 && !hasAny(tokens, DURATION_WORDS) && !tokens.includes('dur') && !hasAny(tokens, COUNT_WORDS) && !hasAny(tokens, ADDITIVE_WORDS) && !hasAny(tokens, MONEY_WORDS)) return { value: 'non-additive', confidence: 0.55, source: { kind: 'rule', rule: 'additivity:sensor-reading' }, why: `in a sensor's log (${sensor} beside each reading's time): a reading at a moment, averaged, not summed` };
  return { value: 'additive', confidence: 0.55, source: { kind: 'rule', rule: 'additivity:default' }, why: 'a quantity with no sign of a rate, a level or an average' };
}

/** A year that runs into the next, written with the next's last two digits: `2011-12`, `1999/00`. */
function fiscalYear(text: string): boolean {
  // (`1991 to 1992`, as HMRC writes a financial year, and `2020 to 2021 [provisional]` with its note.)
  const m = /^\s*((?:1[5-9]|20)\d\d)\s*(?:[-–/]|\bto\b)\s*(\d\d|(?:1[5-9]|20)\d\d)\s*(?:\[[^\]]*\])?\s*$/i.exec(text);
  if (m === null) return false;
  return m[2].length === 2 ? (Number(m[1]) + 1) % 100 === Number(m[2]) : Number(m[1]) + 1 === Number(m[2]) && /\bto\b/i.test(text);
}

/** The sides of a match: `home_score` beside `away_score`, `team1_score` beside `team2_score`. */
const SIDES: ReadonlyArray<readonly [string, string]> = [['home', 'away'], ['team1', 'team2'], ['winner', 'loser'], ['own', 'opp'], ['own', 'opponent'], ['for', 'against'], ['h', 'a']];

/**
 * One side's score in a match beside the other side's (`home_score`, `away_score`): goals or points scored, counted in
 * whole numbers, which add up over matches (a team's goals in a season). A test score or a rating stays a score.
 */
/** Units of a concentration or of a probe's reading. */
const RIGHT_ASCENSION = /^(ra|raj2000|ra_?deg|ra_?rad|right_?ascension)$/;
const DECLINATION = /^(dec|de|dej2000|dec_?deg|dec_?rad|declination)$/;

/** Magnitude types: moment (`Mw`, `Mww`, `Mwc` …), surface-wave, body-wave, local, duration, energy, felt-area, JMA's. */
const MAGNITUDE_TYPE = /^(mw|mww|mwc|mwb|mwr|mwp|ms|ms20|mb|mbl|ml|md|me|mfa|mj|mc|mlg)$/;

/**
 * The magnitude a column beside an earthquake's magnitude (`Mag`, `magnitude`) holds by its type's short name, on
 * the scale's numbers (under 10.5); a magnitude "of unknown type" (`Unk`) where a magnitude type is just before it.
 * Returns the magnitude column's name.
 */
function magnitudeType(evidence: ColumnEvidence): string | undefined {
  const { column, table } = evidence;
  if (!isNumber(column) || column.min === undefined || num(column.max) > 10.5 || num(column.min) < -2) return undefined;
  const nameOf = (c: ColumnProfile) => (c.originalName || c.name).trim().toLowerCase();
  const own = nameOf(column);
  const at = table.columns.indexOf(column);
  const typed = MAGNITUDE_TYPE.test(own) || (/^(unk|unknown)$/.test(own) && at > 0 && MAGNITUDE_TYPE.test(nameOf(table.columns[at - 1])));
  if (!typed) return undefined;
  return table.columns.find((c) => c !== column && /^(mag|magnitude|eq_primary|eq_mag_primary)$/.test(nameOf(c).replace(/\s+/g, '_')))?.originalName;
}

/** A table that logs a sensor's readings: a sensor's id or type column beside a datetime one. Returns the sensor's column. */
/**
 * The key of the individuals a table records visit by visit: an integer key named as one (`ID`, `plant_id`) that
 * repeats over the rows, beside a column of dates named as such (`date`, `visit_date`): the key's name, or undefined.
 */
function censusOfIndividuals(table: TableProfile): string | undefined {
  const dated = table.columns.some((c) => /^(date|visit_?date|survey_?date|census_?date|obs_?date|sample_?date)$/i.test((c.originalName || c.name).trim()) && (c.type === 'date' || c.type === 'text') && c.distinctCount >= 3);
  if (!dated || table.rowCount < 20) return undefined;
  const key = table.columns.find((c) => c.type === 'integer' && /^(id|plant_?id|tree_?id|animal_?id|individual_?id|ind_?id|tag_?id|bird_?id)$/i.test((c.originalName || c.name).trim()) && c.distinctCount >= 10 && c.distinctCount <= table.rowCount / 1.5);
  return key?.originalName || key?.name;
}

function sensorLog(table: TableProfile): string | undefined {
  if (!table.columns.some((c) => c.type === 'datetime')) return undefined;
  return table.columns.find((c) => /^(sensor|sensor_?id|sensor_?type|device_?id|probe_?id)$/i.test((c.originalName || c.name).trim()))?.originalName;
}

/**
 * A few words written as words (a capital, lower-case letters, no digits: `Rodent`, `Bird`), 2 to 12 of them, the
 * only column of its table or each on three rows or more: the names of a category, even where a key joins them.
 */
function namedCategory(e: ColumnEvidence): boolean {
  const { column, table } = e;
  if (column.type !== 'text' || column.distinctCount < 2 || column.distinctCount > 12) return false;
  const values = e.allValues ?? column.samples;
  const words = values.filter((v) => v !== null && v !== undefined && String(v).trim() !== '').map((v) => String(v).trim());
  // (Lower-case short names, `dyer`, `roe`, are people's handles: codes.)
  if (words.length < 2 || !words.every((v) => /^\p{Lu}\p{Ll}{2,}( \p{Ll}{2,})?$/u.test(v))) return false;
  const rows = table.rowCount * (1 - column.nullFraction);
  return table.columns.length === 1 || rows >= 3 * column.distinctCount;
}

/** A table of objects on the sky: it has a right ascension and a declination (`ra` and `dec`, `RAJ2000` and `DEJ2000`). */
/** A table of chemical compounds: two or more of a structure's SMILES, InChI, InChIKey and a molecular formula. */
function compoundCatalogue(table: TableProfile): boolean {
  const names = table.columns.map((c) => nameTokens(c.originalName || c.name)[0] ?? '');
  return names.filter((c) => /^(smiles|inchi|inchikey|formula)$/.test(c)).length >= 2;
}

function skyCatalogue(table: TableProfile): boolean {
  const names = table.columns.map((c) => (c.originalName || c.name).toLowerCase());
  return names.some((c) => RIGHT_ASCENSION.test(c)) && names.some((c) => DECLINATION.test(c));
}

/** A position on the sky: the right ascension or the declination of a catalogue's objects (where the table has both). */
export function skyPosition(table: TableProfile, column: ColumnProfile): boolean {
  const name = (column.originalName || column.name).toLowerCase();
  return (RIGHT_ASCENSION.test(name) || DECLINATION.test(name)) && skyCatalogue(table);
}

/** Substances a water or soil sample is analysed for (nutrients, dissolved gases, ions, metals, pigments). */
const ANALYTES = new Set('ammonia ammonium nitrate nitrates nitrite nitrites nitrogen phosphate phosphates phosphorus silicate silicates silica urea chlorophyll chla oxygen sulfate sulphate chloride fluoride bromide calcium magnesium sodium potassium iron manganese zinc copper lead arsenic mercury cadmium alkalinity doc toc dic'.split(' '));

/** The substance a name is for, alone or dissolved, total or particulate (`nitrate`, `diss_oxygen`, `total_nitrogen`); else undefined. */
function analyteNamed(tokens: readonly string[]): string | undefined {
  const words = tokens.filter((t) => !/^(diss|dissolved|total|tot|particulate|part)$/.test(t));
  return words.length === 1 && ANALYTES.has(words[0]) ? words[0] : undefined;
}

const CONCENTRATION_UNIT = /(^|[\s(,\[])((m|µ|u|n|k)?g|mmol|µmol|umol|nmol|pmol|mol|meq|cfu|mpn|cells)\s*\/\s*(l|dl|ml|100\s?ml|m3|m\^3|m³|kg|g)(?![a-z])|\b(ppm|ppb|ppmv|µs\/cm|us\/cm|ms\/cm|mv)\b/i;

/** The words of an interval's two ends. */
const BOUND_PAIRS: ReadonlyArray<readonly [string, string]> = [['start', 'end'], ['begin', 'end'], ['from', 'to'], ['first', 'last'], ['lower', 'upper']];

function matchScore(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  // The side first, then what was scored and how (`home_score`, `home_team_score_penalties`, `away_team_score_margin`).
  // (…or numbered, `score1` … `score6` in a table of games between `team1` and `team2`: the sides' goals in regular time,
  // after extra time, in a shoot-out, as sport.db keeps them.)
  if (tokens.length === 2 && /^(score|goals|points|pts|runs)$/.test(tokens[0]) && /^\d$/.test(tokens[1]) && evidence.column.type === 'integer' && num(evidence.column.min) >= 0) {
    const names = evidence.table.columns.map((c) => nameTokens(c.originalName || c.name));
    const numberedSides = ['1', '2'].every((k) => names.some((t) => /^(team|side|player|club|competitor)$/.test(t[0] ?? '') && t[1] === k));
    const otherScore = names.some((t) => t.length === 2 && t[0] === tokens[0] && /^\d$/.test(t[1]) && t[1] !== tokens[1]);
    if (numberedSides && otherScore) return { value: 'additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:match-score' }, why: `named ${evidence.column.name} in a table of games between numbered sides: goals or points one side scored, which add up over games` };
  }
  const rest = tokens.slice(1);
  const head = rest.find((t) => /^(score|scores|goals|points|pts|runs)$/.test(t));
  const margin = rest.some((t) => /^(margin|difference|diff)$/.test(t));
  if (tokens.length < 2 || tokens.length > 4 || head === undefined || evidence.column.type !== 'integer' || (num(evidence.column.min) < 0 && !margin)) return undefined;
  const siblings = new Set(evidence.table.columns.map((c) => nameTokens(c.originalName || c.name).join(' ')));
  const pair = SIDES.find(([a, b]) => (tokens[0] === a && siblings.has([b, ...rest].join(' '))) || (tokens[0] === b && siblings.has([a, ...rest].join(' '))));
  if (!pair) return undefined;
  return { value: 'additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:match-score' }, why: `named ${evidence.column.name} beside the ${tokens[0] === pair[0] ? pair[1] : pair[0]} side's: goals or points scored in a match, which add up over matches` };
}

const SIZE_PART_WORDS = /^(length|len|width|breadth|height|diameter|depth|thickness)$/;
/** Things whose length is a distance covered or laid, which adds up. */
const DISTANCE_THINGS = /^(trip|trips|route|routes|road|roads|track|tracks|transect|cable|line|lines|path|segment|trail|run|journey|flight|pipe|pipeline|river|coast|border|network|stay|queue|call|video|song|film|movie|episode|text|message|name|title)$/;

/** A thing's length beside its width, height or diameter (an egg's, a leaf's): a size of each thing, never summed. */
function sizeOfAThing(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  // A length measured on a body (`fork_length`, `standard_length_mm`, `wing_length`, `bill_length`): the size of each one.
  const bodyAt = tokens.findIndex((t) => /^(length|len)$/.test(t));
  if (bodyAt > 0 && /^(fork|standard|body|snout|wing|tail|bill|tarsus|culmen|carapace|forearm|mantle|shell|fin|hind|ear|leaf|petal|sepal)$/.test(tokens[bodyAt - 1])) {
    return { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:size-of-a-thing' }, why: `named ${evidence.column.name}: a ${tokens[bodyAt - 1]} length, the size of each one measured` };
  }
  // Two sizes measured on each thing (`pupa_length` beside `pupa_width`; `hatchet_length` beside `wing_length`;
  // `crown_length_pre` beside `crown_width_pre`, before and after a cut): parts
  // of one specimen measured, averaged over specimens. (A route's or a trip's length adds up: it is a distance.)
  const sized = (t: readonly string[]) => {
    const at = t.findIndex((w, i) => i > 0 && SIZE_PART_WORDS.test(w) && t.slice(i + 1).every((u) => /^(mm|cm|m|um|in|inches|pre|post|before|after|initial|final|start|end)$/.test(u)));
    return at > 0 && !t.slice(0, at).some((w) => DISTANCE_THINGS.test(w)) ? { of: t.slice(0, at).join(' '), size: t[at] === 'len' ? 'length' : t[at] } : undefined;
  };
  const mine = sized(tokens);
  if (mine?.size === 'length') {
    const other = evidence.table.columns.find((c) => {
      if (c === evidence.column || !isNumber(c)) return false;
      const theirs = sized(nameTokens(c.originalName || c.name));
      return theirs !== undefined && (theirs.of === mine.of ? theirs.size !== 'length' : theirs.size === 'length');
    });
    if (other) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:size-of-a-thing' }, why: `named ${evidence.column.name} beside ${other.name}: sizes measured on each thing` };
  }
  // A specimen's length beside its weight (`length_mm` beside `weight_g`, each fish of a species measured): the size of
  // each one, averaged. (A road's length beside its weight limit names no specimen.)
  const bare = (t: readonly string[]) => t.length >= 1 && t.length <= 2 && (t.length === 1 || /^(mm|cm|m|um|in|inches|g|kg|mg|lb|lbs|oz)$/.test(t[1]));
  if (bare(tokens) && /^(length|len)$/.test(tokens[0])) {
    const names = evidence.table.columns.map((c) => nameTokens(c.originalName || c.name));
    const weight = names.some((t) => bare(t) && /^(weight|wt|mass)$/.test(t[0]));
    const specimen = names.some((t) => t.some((w) => /^(species|specimen|specimens|taxon|genus|individual|fish|animal)$/.test(w)));
    if (weight && specimen) return { value: 'non-additive', confidence: 0.6, source: { kind: 'rule', rule: 'additivity:size-of-a-thing' }, why: `named ${evidence.column.name} beside a weight, on rows of specimens: the length of each one measured` };
  }
  // (Numbered, for each of several things on a row: `length1` beside `width1`.)
  const numbered = tokens.length === 2 && /^\d+$/.test(tokens[1]) ? tokens[1] : '';
  if (tokens.length !== (numbered ? 2 : 1) || !/^(length|len)$/.test(tokens[0])) return undefined;
  const other = evidence.table.columns.find((c) => c !== evidence.column && new RegExp(`^(width|breadth|height|diameter|depth|thickness)[ _]?${numbered}$`, 'i').test((c.originalName || c.name).trim()));
  if (!other) return undefined;
  return { value: 'non-additive', confidence: 0.7, source: { kind: 'rule', rule: 'additivity:size-of-a-thing' }, why: `named ${evidence.column.name} beside ${other.name}: the size of each thing` };
}

/** Things installed or held, counted at a moment (gas meters, connections, licences): a stock. */
const INSTALLED_THINGS = new Set(['meters', 'connections', 'accounts', 'premises', 'dwellings', 'licences', 'licenses', 'subscriptions', 'vehicles', 'docks', 'stands', 'bays', 'berths', 'chargers', 'racks']);

/** What a count of people or things in a state at a moment says of them ("number of patients delayed …, awaiting …"). */
const COUNTED_STATES = new Set(['awaiting', 'delayed', 'remaining', 'remains', 'waiting']);

/** A title that says its table's figures are shares: "Percentage of Popular Vote …", "Share of households …", "… (%)". */
const SHARE_TITLE = /^\s*(percentages?|percent|shares?|proportions?)\s+of\b|\(%\)\s*$|\bin per ?cent\b/i;

/** What changes a population or a stock: births, deaths, migration in and out, natural and other change. */
const CHANGE_COMPONENT = /\b(births?|deaths?|(in|out|im|e)?-?migrations?|migrants?|inflows?|outflows?|arrivals?|departures?|(natural|other|net) changes?)\b/i;

/**
 * A level's name (`Population`) on rows that a category splits into what changes it (`births`, `deaths`, `Net
 * internal migration`): people added or lost in a period, which add up. So is a level whose values go below zero.
 */
function componentOfChange(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  const level = tokens.find((t) => SEMI_ADDITIVE_WORDS.has(t));
  if (!level || tokens.length > 2 || !isNumber(evidence.column)) return undefined;
  const source: Fact<Additivity>['source'] = { kind: 'rule', rule: 'additivity:component-of-change' };
  const split = evidence.table.columns.find((c) => c !== evidence.column && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 12 && c.samples.length >= 2 && c.samples.every((v) => typeof v === 'string' && CHANGE_COMPONENT.test(v)));
  if (split) return { value: 'additive', confidence: 0.65, source, why: `named ${evidence.column.name}, on rows split by ${split.name} (${split.samples.map((v) => String(v).trim()).join(', ')}): what changed the ${level} in a period` };
  // (A population of -1, ECDC's for a ship and a territory it has none for, marks it unknown: no change.)
  const sentinel = [-1, -9, -99, -999, -9999].includes(num(evidence.column.min)) && num(evidence.column.max) >= 1000;
  if (num(evidence.column.min) < 0 && !sentinel && /^(population|pop|people|residents|inhabitants)$/.test(level)) return { value: 'additive', confidence: 0.6, source, why: `named ${evidence.column.name}, values below zero (${evidence.column.min}): a change of the ${level}, not the ${level}` };
  return undefined;
}

/** A span from one year to a later one, `1984-2025` or `2001 – 2010`. */
function yearSpan(text: string): boolean {
  // (Or of financial years, `2001/02-2003/04`, as the UK's statistics average three of them; a note may follow.)
  const m = /^\s*((?:1[5-9]|20)\d\d)(\/\d\d)?\s*[-–]\s*((?:1[5-9]|20)\d\d)(\/\d\d)?\s*(\s[,(\[].*|,.*)?$/.exec(text);
  return m !== null && Number(m[3]) > Number(m[1]) && (m[2] === undefined) === (m[4] === undefined);
}

/** A month's name or abbreviation as a column of a wide table. */
/** Names of a price index or of inflation in a table's name (`r-cpi-u-rs`, `gdp_deflator`). */
const PRICE_INDEX_WORDS = new Set(['cpi', 'ppi', 'hicp', 'rpi', 'deflator', 'defl', 'inflation']);

/** What a figure "per …" is per, when it is per person: per capita, per head, per inhabitant, per 100,000. */
const PER_HEAD_WORDS = new Set(['capita', 'head', 'person', 'persons', 'people', 'inhabitant', 'inhabitants', 'resident', 'residents', 'household', 'households', 'employee', 'employees', 'worker', 'workers', 'pupil', 'pupils', 'student', 'students', 'patient', 'patients', '1000', '100000', '1', 'thousand', 'million', 'adult', 'adults', 'child', 'children']);

/**
 * A rate written in one word with what it is the rate of (`tbilrate`, `birthrate`, `exchangerate`, `unemprate`).
 * Only after a word that takes a rate: `separate`, `corporate` and `carbohydrate` end the same way.
 */
const RATE_COMPOUND = /^(t?bill?|fed|bank|base|cash|tax|birth|death|growth|exchange|fx|mortgage|unemp|unemployment|infl|inflation|interest|int|discount|repo|prime|policy|lending|deposit|crime|fertility|mortality|survival|error|hit|win|churn|conversion|heart|click|bit|frame|sample|flow|jobless|savings?|participation|vacancy|occupancy|response|success|failure|dropout|completion|literacy)rate$/;

/** Colour channels (`r`, `g`, `b` of a paint, `red`/`green`/`blue`): each 0–255 of one colour, never summed. */
const COLOUR_CHANNELS: ReadonlyArray<readonly string[]> = [['r', 'g', 'b'], ['red', 'green', 'blue']];

/**
 * What a name says only together with its values or its table: a rate in one word (`tbilrate`); a colour channel
 * beside its siblings; unemployment as a percentage (3.4–10.7) or as people (1,870 thousand), a level; a frequency
 * with a fraction (166.38 MHz, a 1.49 kHz offset) rather than a count of occurrences; the money stock (M1, M2) and
 * the capital a firm holds.
 */
/** The two ends of a range, written short or in words. */
const RANGE_ENDS: Array<[string, string]> = [['lb', 'ub'], ['lcl', 'ucl'], ['lwr', 'upr'], ['lower', 'upper'], ['lo', 'hi']];

/**
 * The other end of the range a column bounds: `reg_ub` for `reg_lb` (the same stem, the other end's word at the head),
 * or a `lower bound` for an `upper bound` (an interval's ends named by their position). Undefined when the table has no
 * such partner: one `lower` alone may be anything.
 */
function boundOfRange(evidence: ColumnEvidence, tokens: readonly string[]): string | undefined {
  if (tokens.length === 0) return undefined;
  const bounded = tokens.at(-1) === 'bound' || tokens.at(-1) === 'limit' ? tokens.slice(0, -1) : tokens;
  const head = bounded.at(-1) ?? '';
  const pair = RANGE_ENDS.find(([a, b]) => head === a || head === b);
  if (!pair) return undefined;
  const other = head === pair[0] ? pair[1] : pair[0];
  const stem = bounded.slice(0, -1).join(' ');
  const partner = evidence.table.columns.find((c) => {
    const t = nameTokens(c.originalName || c.name);
    const b = t.at(-1) === 'bound' || t.at(-1) === 'limit' ? t.slice(0, -1) : t;
    return b.at(-1) === other && b.slice(0, -1).join(' ') === stem;
  });
  return partner ? (partner.originalName || partner.name) : undefined;
}

/**
 * The things a count counts, where they are what each row of the table is (`n_cats` on `cats_uk_reference`): whole
 * numbers, small, named `n_`/`num_`/`number_of_` and a plural noun of the table's name. Undefined otherwise.
 */
function countOfOwnKind(evidence: ColumnEvidence, tokens: readonly string[]): string | undefined {
  const c = evidence.column;
  if (c.type !== 'integer' || num(c.min) < 0 || num(c.max) > 50 || num(c.max) < 2) return undefined;
  const rest = /^(n|num|number|no|count)$/.test(tokens[0] ?? '') ? tokens.slice(tokens[1] === 'of' ? 2 : 1) : [];
  if (rest.length !== 1 || singularOf(rest[0]) === rest[0]) return undefined;
  const table = nameTokens(evidence.table.originalName.replace(/\.[a-z0-9]+$/i, ''));
  return table.includes(rest[0]) ? rest[0] : undefined;
}

function additivityOfNamedValues(evidence: ColumnEvidence, tokens: readonly string[]): Fact<Additivity> | undefined {
  const source: Fact<Additivity>['source'] = { kind: 'rule', rule: 'additivity:name-and-values' };
  const compound = tokens.find((t) => RATE_COMPOUND.test(t) || /^(real|nom|nominal)int$/.test(t));
  if (compound) return { value: 'non-additive', confidence: 0.8, source, why: `named ${compound}: a rate, which does not add up` };
  const { column, table } = evidence;
  const name = tokens.join(' ');
  const siblings = new Set(table.columns.map((c) => nameTokens(c.originalName || c.name).join(' ')));
  const channels = COLOUR_CHANNELS.find((set) => set.includes(name) && set.every((c) => siblings.has(c)));
  // Numbers kept as text (`"245"`) have no min or max in the profile: their sample says.
  const top = isNumber(column) ? num(column.max) : Math.max(...(column.samples ?? []).map((v) => Number(v)));
  if (channels && top <= 255) return { value: 'non-additive', confidence: 0.75, source, why: `${name} beside ${channels.filter((c) => c !== name).join(' and ')}: a colour channel (0–255)` };
  const min = num(column.min);
  const max = num(column.max);
  const fractional = column.type === 'real' || (column.samples ?? []).some((v) => typeof v === 'number' && !Number.isInteger(v));
  // A generic `value` in a table named for the series (`unemp.value`) is named by the table.
  const own = tokens.filter((t) => !GENERIC_MEASURE_NAMES.has(t));
  const unemployment = own.find((t) => t === 'unemp' || t === 'unemployment' || t === 'jobless');
  if (unemployment && own.length <= 2 && !hasAny(tokens, ADDITIVE_WORDS) && !hasAny(tokens, COUNT_WORDS)) {
    if (fractional && min >= 0 && max <= 40) return { value: 'non-additive', confidence: 0.7, source, why: `named ${column.name}, values ${min}–${max}: an unemployment rate in percent` };
    const people = own.length === 1 || /^(level|persons|people|total|thousands|number|count)$/.test(own[1] ?? '');
    if (!fractional && min >= 0 && max > 100 && people) return { value: 'semi-additive', confidence: 0.65, source, why: `named ${column.name}, integers ${min}–${max}: people unemployed, a level at a moment` };
  }
  if (tokens.some((t) => t === 'freq' || t === 'frequency') && fractional) return { value: 'non-additive', confidence: 0.7, source, why: `named ${column.name}, numbers with a fraction (${min}–${max}): a frequency, not a count` };
  // The money stock (`m1`, `m2`), named alone; `pax_m1` is the first month of a quarter.
  const macro = [...siblings].some((name) => /^(cpi|gdp|realgdp|gnp|infl|inflation|tbilrate|unemp|unemployment|interest|rate)$/.test(name));
  if (tokens.length === 1 && /^m[0-4]$/.test(tokens[0]) && isNumber(column) && macro) return { value: 'semi-additive', confidence: 0.6, source, why: `named ${column.name}: a money stock (M0–M4) at a date` };
  // `capital` at the head of the name is a stock (of plant and equipment, of a bank); `capital_expenditure` is a flow.
  if (tokens[tokens.length - 1] === 'capital' && !tokens.includes('venture') && isNumber(column)) return { value: 'semi-additive', confidence: 0.7, source, why: `named ${column.name}: capital held at a date, a stock` };
  // A capitalisation or a capital stock (`market_cap`, `mktcap`, `pcap`) and a firm's market value: a level at a date.
  // Capacity, the other `cap`, is a level too; a cap rate is a rate.
  const rated = hasAny(tokens, NON_ADDITIVE_WORDS) !== undefined;
  const capital = tokens.find((t) => t === 'cap' || /^(p|k|mkt|market)cap$/.test(t) || /^capitali[sz]ation$/.test(t) || (t === 'value' && tokens.includes('market')));
  if (capital && !rated && isNumber(column)) return { value: 'semi-additive', confidence: 0.65, source, why: `named ${column.name}: a capitalisation or a capital stock, a level at a date` };
  // `emp` alone beside an economy's or a firm's other series is its employment: people on payrolls at a date.
  if (tokens.length === 1 && tokens[0] === 'emp' && isNumber(column)) return { value: 'semi-additive', confidence: 0.6, source, why: `named ${column.name}: employment, a level at a date` };
  // A wage or salary in a table that also counts the people employed is pay per person (the wage bill divided by
  // employment): averaged, not summed. A list of employees' salaries, with no such count, adds up to a payroll.
  const pay = tokens.length <= 2 && /^(wage|salary|pay|earnings)$/.test(tokens[tokens.length - 1] ?? '');
  const headcount = [...siblings].find((name) => /^(emp|employment|employees|workers|headcount|staff|workforce|labou?r|n employees|num employees|number of employees)$/.test(name));
  if (pay && headcount && isNumber(column)) return { value: 'non-additive', confidence: 0.65, source, why: `named ${column.name} beside ${headcount}, the people employed: pay per person` };
  return undefined;
}

/** The words of a table's name that say it holds levels at a moment: a level word, or "as at/as of" a date. */
function tableLevel(table: TableProfile): string | undefined {
  const tokens = nameTokens(table.originalName.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, ''));
  const at = tokens.findIndex((t, i) => t === 'as' && (tokens[i + 1] === 'at' || tokens[i + 1] === 'of') && /^\d/.test(tokens[i + 2] ?? ''));
  if (at >= 0) return `"as ${tokens[at + 1]}" a date`;
  // Compounds in Dutch and German end on their head: `beroepsbevolking` (labour force), `Wohnbevölkerung`, `Einwohnerzahl`.
  const word = tokens.find((t) => TABLE_LEVEL_WORDS.has(t) || /(bevolking|bevolkerung|bevoelkerung|einwohnerzahl|einwohner|inwoners|inwonertal)$/.test(t));
  return word ? `"${word}"` : undefined;
}

/**
 * Words that name a whole table as levels at a moment. Narrower than the level words of a column: a table of
 * `employees`, `members` or `residents` lists people, whose quantities may be anything, and `running` or `current`
 * say little of a table (`running_log`, `current_season`).
 */
const TABLE_LEVEL_WORDS = new Set(['capacity', 'capacities', 'inventory', 'inventories', 'stock', 'stocks', 'balance', 'balances', 'holdings', 'headcount', 'employment', 'population', 'populations', 'snapshot', 'snapshots', 'outstanding', 'reserves']);

export function defaultAggregation(role: ColumnRole, additivity?: Additivity): Aggregation {
  switch (role) {
    case 'measure':
      return additivity === 'non-additive' ? 'avg' : 'sum';
    case 'identifier':
      return 'count-distinct';
    case 'time':
      return 'min-max';
    case 'dimension':
    case 'ordinal':
    case 'flag':
    case 'geo':
      return 'count';
    default:
      return 'none';
  }
}

/** A unit per area: `/ha`, `ha-1`, `ha⁻¹`, `per hectare`, `/m2`, `m-2`, `/km²`, `per acre`. */
const PER_AREA = /(\/\s*(ha|hectares?|acres?|ac|(k|c)?m\s*(2|²|\^2)|sq\.?\s*(km|mi|m|ft))(?![A-Za-z0-9])|\b(ha|(k|c)?m)\s*(-1|⁻¹|-2|⁻²)(?![\d])|\bper\s+(ha|hectares?|acres?|square\s+(kilo)?met(er|re)s?|sq\.?\s*(km|mi)|km2|km²|m2|m²)\b)/i;

/**
 * The unit per area a measure is given in: the dictionary's unit or description, or the values of a unit column
 * beside it (`amount` beside `amount_unit` of `kg N ha-1`).
 */
function perAreaUnit(evidence: ColumnEvidence): { unit: string; from: 'dictionary' | 'column' } | undefined {
  const said = evidence.dictionary ? `${evidence.dictionary.unit ?? ''} | ${evidence.dictionary.description}` : '';
  const inDictionary = PER_AREA.exec(evidence.dictionary?.unit ?? '') ?? PER_AREA.exec(said);
  if (inDictionary && evidence.dictionary) return { unit: evidence.dictionary.unit && PER_AREA.test(evidence.dictionary.unit) ? evidence.dictionary.unit : inDictionary[0].trim(), from: 'dictionary' };
  const shown = unitColumnOf(evidence)?.samples.filter((v): v is string => typeof v === 'string' && v.trim() !== '') ?? [];
  if (shown.length > 0 && shown.every((v) => PER_AREA.test(v))) return { unit: shown[0].trim(), from: 'column' };
  return undefined;
}

/** The column beside a measure that gives its unit row by row (`amount_unit` beside `amount`). */
function unitColumnOf(evidence: ColumnEvidence): ColumnProfile | undefined {
  const own = normalName(evidence.column.originalName || evidence.column.name);
  // (`Estimated F` is in `F Unit`: the unit of what its last word names.)
  const tokens = nameTokens(evidence.column.originalName || evidence.column.name);
  const head = tokens.length > 1 && /^(estimated|estimate|est|reported|observed|measured|actual)$/.test(tokens[0]) ? tokens.slice(1).join('') : undefined;
  const names = [`${own}unit`, `${own}units`, ...(head ? [`${head}unit`, `${head}units`] : [])];
  return evidence.table.columns.find((c) => c !== evidence.column && c.type === 'text' && names.includes(normalName(c.originalName || c.name)));
}

/** A header written as one name over another (`F/Flimit`, `B/Bmsy`), where a column of the table bears one of them. */
function ratioOfColumns(evidence: ColumnEvidence): string | undefined {
  const m = /^\s*([A-Za-z][A-Za-z0-9 _.-]*?)\s*\/\s*([A-Za-z][A-Za-z0-9 _.-]*?)\s*$/.exec(evidence.column.originalName || '');
  if (!m || !isNumber(evidence.column)) return undefined;
  const names = new Set(evidence.table.columns.filter((c) => c !== evidence.column).map((c) => normalName(c.originalName || c.name)));
  const [a, b] = [normalName(m[1]), normalName(m[2])];
  if (a === b || a.length === 0 || b.length === 0) return undefined;
  return names.has(b) ? m[2].trim() : names.has(a) ? m[1].trim() : undefined;
}

/** The unit column beside a figure, where its rows give three or more different units. */
function mixedUnits(evidence: ColumnEvidence): { column: string; count: number; examples: string[] } | undefined {
  if (!isNumber(evidence.column)) return undefined;
  const unit = unitColumnOf(evidence);
  if (!unit) return undefined;
  const shown = [...new Set(unit.samples.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => normalName(v)))];
  if (unit.distinctCount < 3 || shown.length < 3) return undefined;
  return { column: unit.originalName || unit.name, count: unit.distinctCount, examples: unit.samples.filter((v): v is string => typeof v === 'string' && v.trim() !== '').slice(0, 3) };
}

/** A measure's unit, from the name's words, a dictionary's unit, or a symbol in the values. */
export function decideUnit(evidence: ColumnEvidence): Fact<Unit> | undefined {
  if (evidence.dictionary?.unit) {
    return { value: unitFromLabel(evidence.dictionary.unit), confidence: 0.9, source: { kind: 'dictionary', file: evidence.dictionary.file, line: evidence.dictionary.line }, why: `the dictionary gives the unit ${evidence.dictionary.unit}` };
  }
  // (`lb` beside `ub` is a range's lower bound, no pounds.)
  const ranged = boundOfRange(evidence, nameTokens(evidence.column.originalName || evidence.column.name)) !== undefined;
  const tokens = nameTokens(evidence.column.originalName || evidence.column.name).filter((t) => !(ranged && t === 'lb'));
  const named = tokens.map((t) => UNIT_WORDS[t]).find(Boolean);
  if (named) return { value: named, confidence: 0.85, source: { kind: 'rule', rule: 'unit:name' }, why: `named with "${named.label}"` };
  const f = evidence.fingerprint;
  if (f.percentSign >= 0.5) return { value: { kind: 'percent', label: '%' }, confidence: 0.85, source: { kind: 'rule', rule: 'unit:percent-values' }, why: 'values end in %' };
  if (f.currencySymbol) return { value: { kind: 'currency', label: f.currencySymbol }, confidence: 0.85, source: { kind: 'rule', rule: 'unit:currency-symbol' }, why: `values carry ${f.currencySymbol}` };
  const money = hasAny(tokens, MONEY_WORDS);
  // (An `amount` with a unit column beside it, or described as an amount of a substance, is in that unit: fertilizer
  // in kg N ha-1, water in litres.)
  const notMoney = (money === 'amount' || money === 'amt') && (unitColumnOf(evidence) !== undefined || (evidence.dictionary !== undefined && !/\b(money|cost|costs|paid|payment|price|spend|spent|funding|fund|funds|grant|budget|revenue|income|value|\$|£|€|dollars?|pounds?|euros?|currency|usd|gbp|eur)\b/i.test(evidence.dictionary.description)));
  if (money && !notMoney) return { value: { kind: 'currency', label: 'currency' }, confidence: 0.6, source: { kind: 'rule', rule: 'unit:money-name' }, why: `"${money}" is an amount of money` };
  if (hasAny(tokens, TEMPERATURE_WORDS)) return { value: { kind: 'temperature', label: 'degrees' }, confidence: 0.6, source: { kind: 'rule', rule: 'unit:temperature-name' }, why: 'a temperature' };
  if (hasAny(tokens, DURATION_WORDS)) return { value: { kind: 'duration', label: 'duration' }, confidence: 0.5, source: { kind: 'rule', rule: 'unit:duration-name' }, why: 'a duration' };
  const count = hasAny(tokens, COUNT_WORDS);
  if (count && evidence.column.type === 'integer') return { value: { kind: 'count', label: 'count' }, confidence: 0.7, source: { kind: 'rule', rule: 'unit:count-name' }, why: `"${count}" counts things` };
  return undefined;
}

function unitFromLabel(label: string): Unit {
  const lower = label.toLowerCase().trim();
  const known = UNIT_WORDS[lower];
  if (known) return { kind: known.kind, label };
  if (/°|deg|celsius|fahrenheit/.test(lower)) return { kind: 'temperature', label };
  if (/^(mm|cm|m|km|in|inch|inches|ft|feet|miles?)$/.test(lower)) return { kind: 'distance', label };
  if (/%|percent/.test(lower)) return { kind: 'percent', label };
  if (/\$|usd|eur|dollar/.test(lower)) return { kind: 'currency', label };
  if (/sec|min|hour|day/.test(lower)) return { kind: 'duration', label };
  if (/m\/s|mph|km\/h|knot/.test(lower)) return { kind: 'speed', label };
  return { kind: 'other', label };
}

/** The full semantics of one column from its evidence. */
export function columnSemantics(evidence: ColumnEvidence & { sample?: unknown[] }): ColumnSemantics {
  const decision = decideRole(evidence);
  const semantics: ColumnSemantics = {
    table: evidence.table.name,
    column: evidence.column.name,
    role: { value: decision.role, confidence: decision.confidence, source: { kind: 'rule', rule: decision.rule }, why: decision.why },
    aggregation: 'none',
  };
  if (evidence.declaredKey && decision.rule.startsWith('identifier:declared')) semantics.role.source = { kind: 'schema', detail: decision.rule.endsWith('primary-key') ? 'PRIMARY KEY' : 'FOREIGN KEY' };
  if (decision.identifier) semantics.identifier = decision.identifier;
  if (decision.geo) semantics.geo = decision.geo;
  if (decision.structured) semantics.structured = decision.structured;
  if (decision.time) semantics.time = decision.time;
  if (decision.role === 'dimension' || decision.role === 'ordinal' || decision.role === 'flag' || decision.role === 'geo') semantics.cardinality = band(evidence.column.distinctCount);
  if (decision.role === 'measure') {
    semantics.additivity = decideAdditivity(evidence);
    const unit = decideUnit(evidence);
    if (unit) semantics.unit = unit;
  }
  semantics.aggregation = defaultAggregation(decision.role, semantics.additivity?.value);
  if (evidence.dictionary) {
    semantics.description = { value: evidence.dictionary.description, confidence: 0.9, source: { kind: 'dictionary', file: evidence.dictionary.file, line: evidence.dictionary.line }, why: `described in ${evidence.dictionary.file}` };
  }
  return semantics;
}
