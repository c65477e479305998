import type { ColumnType } from './types';

/**
 * Per-column type inference, applied consistently: a column gets a type only if every non-empty value fits it
 * (integer ⊂ real, date ⊂ datetime); anything else is text. Empty and whitespace-only values are NULL.
 */

const INTEGER = 1;
const REAL = 2;
const BOOLEAN = 4;
const DATE = 8;
const DATETIME = 16;
/** A number written with a percent sign (`90.6%`): a real column whose unit is %, if every value is one. */
const PERCENT = 32;
const ANY = INTEGER | REAL | BOOLEAN | DATE | DATETIME | PERCENT;

// At most 18 digits (fits SQLite's int64). Leading zeros (`04`, `01001`) are read as digits too, and the column decides
// (see ColumnTypeTracker.paddingIsNumeric): a fixed-width code (zip, FIPS, `007`) stays text.
const INTEGER_PATTERN = /^-?(?:0|[1-9]\d{0,17})$/;
const PADDED_INTEGER_PATTERN = /^0\d{1,17}$/;
const REAL_PATTERN = /^-?(?:0|[1-9]\d*)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// ---- dates -----------------------------------------------------------------------------------------------------
//
// What files write for dates: ISO `2014-07-01`, non-padded `2014-7-1`, slashed `2014/07/01`, `7/1/2014` (month first)
// or `1/7/2014` (day first), `Jul 1, 2014`, `1 Jul 2014` / `01-Jul-2014`, each optionally followed by a time
// (`06:55`, `6:55:12 PM`, `T06:55:12.5Z`). A cell yields the set of formats it can be read in; a column is a date
// column when one format reads every value (month/day order is decided by the values: a first part above 12 is a
// day). Values are stored in ISO form (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`) so SQLite's date functions read them.

/** Date layouts, as bits: a cell may fit several (`3/4/2020` is month-first or day-first). */
const YMD = 1;
const MDY = 2;
const DMY = 4;
const MON_D_Y = 8;
const D_MON_Y = 16;
/** Statistical offices' periods: a month `1995M01` (Eurostat, SDMX), a quarter `1995Q1`; stored as their first day. */
const YM_PERIOD = 32;
const YQ_PERIOD = 64;
/** E-mail's and HTTP's dates (RFC 2822): `Wed, 21 Jun 2017 14:58:51 +0200`, a weekday, the day, the month, the year, the time and its zone. */
const RFC_2822 = 128;
const ALL_FORMATS = YMD | MDY | DMY | MON_D_Y | D_MON_Y | YM_PERIOD | YQ_PERIOD | RFC_2822;

const TIME = String.raw`(?:[T ]|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([AaPp][Mm])?(Z|[+-]\d{2}(?::?\d{2})?)?`;
const YMD_PATTERN = new RegExp(String.raw`^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:${TIME})?$`);
const XY_PATTERN = new RegExp(String.raw`^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?:${TIME})?$`);
const D_MON_Y_PATTERN = new RegExp(String.raw`^(\d{1,2})(?:st|nd|rd|th)?[ -]([A-Za-z]{3,9})\.?[ -](\d{4})(?:${TIME})?$`);
// SAS's DATE9 and DATETIME: the day, the month and the year run together, a colon before the time (`09MAR2021:10:42:00`).
const SAS_D_MON_Y_PATTERN = new RegExp(String.raw`^(\d{2})([A-Za-z]{3})(\d{4})(?:${TIME.replace(String.raw`(?:[T ]|\s+)`, ':')})?$`);
/** A day-month-year match (day, month name, year, then the time's groups), written with separators or SAS's way. */
const dMonY = (value: string): RegExpExecArray | null => D_MON_Y_PATTERN.exec(value) ?? SAS_D_MON_Y_PATTERN.exec(value);
const RFC_2822_PATTERN = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) ([A-Za-z]{3}) (\d{4}) ([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))? ([+-]\d{4}|GMT|UTC?|Z)$/;
const MON_D_Y_PATTERN = new RegExp(String.raw`^([A-Za-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})(?:${TIME})?$`);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** 1–12 for an English month name or its three-letter abbreviation (`Sept` too); 0 otherwise. */
export function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  const index = MONTHS.indexOf(lower.slice(0, 3));
  if (index < 0) return 0;
  if (lower.length === 3 || MONTH_NAMES[index] === lower || (index === 8 && lower === 'sept')) return index + 1;
  return 0;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const validDay = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1];

/** A time suffix's groups (hour, minute, second, fraction, am/pm, zone) are valid. */
function validTime(match: RegExpExecArray, at: number): boolean {
  if (match[at] === undefined) return true;
  const hour = Number(match[at]);
  const minute = Number(match[at + 1]);
  const second = match[at + 2] === undefined ? 0 : Number(match[at + 2]);
  const meridiem = match[at + 4];
  if (minute > 59 || second > 59) return false;
  return meridiem ? hour >= 1 && hour <= 12 : hour <= 23;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

const twoDigits = (value: string, at: number) => (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;

/**
 * The shape most files write, checked by character: `YYYY-MM-DD` (ISO_DATE), or that with `T` or a space and
 * `HH:MM:SS` (ISO_DATETIME), every part in range (a valid day of its month, 24-hour time); NOT_ISO for anything
 * else, which the patterns then read. Whatever it accepts YMD_PATTERN and ISO_PREFIX accept too.
 */
const NOT_ISO = 0;
const ISO_DATE = 1;
const ISO_DATETIME = 2;
function isoShapeOf(value: string): number {
  const length = value.length;
  if (length !== 10 && length !== 19) return NOT_ISO;
  for (let i = 0; i < 10; i++) {
    const c = value.charCodeAt(i);
    if (i === 4 || i === 7 ? c !== 45 : c < 48 || c > 57) return NOT_ISO;
  }
  if (!validDay(twoDigits(value, 5), twoDigits(value, 8))) return NOT_ISO;
  if (length === 10) return ISO_DATE;
  const t = value.charCodeAt(10);
  if ((t !== 84 && t !== 32) || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return NOT_ISO;
  // (Unrolled: an array of the three offsets, made per value, cost a tenth of the load of a 1M-row file.)
  if (!isDigit(value.charCodeAt(11)) || !isDigit(value.charCodeAt(12)) || !isDigit(value.charCodeAt(14)) || !isDigit(value.charCodeAt(15)) || !isDigit(value.charCodeAt(17)) || !isDigit(value.charCodeAt(18))) return NOT_ISO;
  return twoDigits(value, 11) <= 23 && twoDigits(value, 14) <= 59 && twoDigits(value, 17) <= 59 ? ISO_DATETIME : NOT_ISO;
}

const YMD_DATE: { formats: number; time: boolean } = Object.freeze({ formats: YMD, time: false });
const YMD_DATETIME: { formats: number; time: boolean } = Object.freeze({ formats: YMD, time: true });

/** The formats one trimmed value can be read in (bits), and whether it has a time. */
function dateFormatsOf(value: string): { formats: number; time: boolean } | undefined {
  const first = value.charCodeAt(0);
  if (first >= 48 && first <= 57) {
    const iso = isoShapeOf(value);
    if (iso !== NOT_ISO) return iso === ISO_DATE ? YMD_DATE : YMD_DATETIME;
    const separatorAt = value.charCodeAt(4);
    const yearFirst = (separatorAt === 45 || separatorAt === 47 || separatorAt === 46) && isDigit(value.charCodeAt(1)) && isDigit(value.charCodeAt(2)) && isDigit(value.charCodeAt(3));
    if (yearFirst) {
      const m = YMD_PATTERN.exec(value);
      if (!m || !validDay(Number(m[3]), Number(m[4])) || !validTime(m, 5)) return undefined;
      return { formats: YMD, time: m[5] !== undefined };
    }
    let m = XY_PATTERN.exec(value);
    if (m) {
      if (!validTime(m, 5)) return undefined;
      const a = Number(m[1]);
      const b = Number(m[3]);
      const formats = (validDay(a, b) ? MDY : 0) | (validDay(b, a) ? DMY : 0);
      return formats === 0 ? undefined : { formats, time: m[5] !== undefined };
    }
    m = dMonY(value);
    if (m && validDay(monthNumber(m[2]), Number(m[1])) && validTime(m, 4)) return { formats: D_MON_Y, time: m[4] !== undefined };
    return periodFormatOf(value);
  }
  if (value.length >= 20 && value.charCodeAt(3) === 44 /* , */) {
    const m = RFC_2822_PATTERN.exec(value);
    if (m && validDay(monthNumber(m[2]), Number(m[1]))) return { formats: RFC_2822, time: true };
  }
  if (value.length >= 8 && monthNumber(value.slice(0, 3)) > 0) {
    const m = MON_D_Y_PATTERN.exec(value);
    if (m && validDay(monthNumber(m[1]), Number(m[2])) && validTime(m, 4)) return { formats: MON_D_Y, time: m[4] !== undefined };
  }
  return undefined;
}

const YM_DATE: { formats: number; time: boolean } = Object.freeze({ formats: YM_PERIOD, time: false });
const YQ_DATE: { formats: number; time: boolean } = Object.freeze({ formats: YQ_PERIOD, time: false });
const YM_PERIOD_PATTERN = /^(\d{4})M(0[1-9]|1[0-2])$/;
const YQ_PERIOD_PATTERN = /^(\d{4})Q([1-4])$/;

/** `1995M01` (a month) or `1995Q1` (a quarter), as statistical offices write periods; undefined otherwise. */
function periodFormatOf(value: string): { formats: number; time: boolean } | undefined {
  if (value.length === 7 && value.charCodeAt(4) === 77 /* M */ && YM_PERIOD_PATTERN.test(value)) return YM_DATE;
  if (value.length === 6 && value.charCodeAt(4) === 81 /* Q */ && YQ_PERIOD_PATTERN.test(value)) return YQ_DATE;
  return undefined;
}

/** The layout a column's values are read in; `ymd` covers ISO, non-padded and slashed year-first dates; `ym` and `yq` are periods. */
export type DateLayout = 'ymd' | 'mdy' | 'dmy' | 'mon-d-y' | 'd-mon-y' | 'ym' | 'yq' | 'rfc-2822';

const LAYOUT_OF_BIT: Array<[number, DateLayout]> = [
  [YMD, 'ymd'],
  [MDY, 'mdy'],
  [DMY, 'dmy'],
  [MON_D_Y, 'mon-d-y'],
  [D_MON_Y, 'd-mon-y'],
  [YM_PERIOD, 'ym'],
  [YQ_PERIOD, 'yq'],
  [RFC_2822, 'rfc-2822'],
];

const LAYOUT_NAME: Record<DateLayout, string> = { ymd: 'YYYY-MM-DD', mdy: 'M/D/YYYY', dmy: 'D/M/YYYY', 'mon-d-y': 'MMM D, YYYY', 'd-mon-y': 'D MMM YYYY', ym: "YYYY'M'MM", yq: "YYYY'Q'Q", 'rfc-2822': 'ddd, D MMM YYYY' };

/** A readable name of a layout, as a diagnostic or the profile shows it (`M/D/YYYY`, `YYYY-MM-DD HH:MM`). */
export function dateLayoutName(layout: DateLayout, time: boolean): string {
  return time ? `${LAYOUT_NAME[layout]} HH:MM` : LAYOUT_NAME[layout];
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The time suffix of a match in 24-hour ISO form (` HH:MM[:SS[.f]][zone]`), or '' without one. */
function isoTime(match: RegExpExecArray, at: number, separator: string): string {
  if (match[at] === undefined) return '';
  let hour = Number(match[at]);
  const meridiem = match[at + 4]?.toLowerCase();
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  const seconds = match[at + 2] === undefined ? '' : `:${match[at + 2]}${match[at + 3] ?? ''}`;
  return `${separator}${pad2(hour)}:${match[at + 1]}${seconds}${match[at + 5] ?? ''}`;
}

/** Already ISO (`YYYY-MM-DD`, then nothing or a `T`/space time in 24-hour form): stored as written. */
const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}(?:$|[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$)/;

/**
 * A date or datetime value in ISO form, read in `layout`: `2001/01/31 06:55` → `2001-01-31 06:55`, `7/1/2014` (mdy)
 * → `2014-07-01`, `Jul 1, 2014 6:05 PM` → `2014-07-01 18:05`, a period `1995M02` → `1995-02-01`, `1995Q2` → `1995-04-01`. ISO values are returned as they are; a value the
 * layout does not read is returned unchanged.
 */
export function isoDateText(value: string, layout: DateLayout = 'ymd'): string {
  if (layout === 'ymd') {
    // (An offset of whole hours, `+00` as PostgreSQL writes it, gets its minutes, which SQLite's date functions need.)
    if (isoShapeOf(value) !== NOT_ISO || ISO_PREFIX.test(value)) return /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?[+-]\d{2}$/.test(value) ? `${value}:00` : value;
    const m = YMD_PATTERN.exec(value);
    return m ? `${m[1]}-${pad2(Number(m[3]))}-${pad2(Number(m[4]))}${isoTime(m, 5, value.includes('T') ? 'T' : ' ')}` : value;
  }
  if (layout === 'mdy' || layout === 'dmy') {
    const m = XY_PATTERN.exec(value);
    if (!m) return value;
    const [month, day] = layout === 'mdy' ? [Number(m[1]), Number(m[3])] : [Number(m[3]), Number(m[1])];
    return `${m[4]}-${pad2(month)}-${pad2(day)}${isoTime(m, 5, ' ')}`;
  }
  if (layout === 'ym' || layout === 'yq') {
    const m = (layout === 'ym' ? YM_PERIOD_PATTERN : YQ_PERIOD_PATTERN).exec(value);
    return m ? `${m[1]}-${layout === 'ym' ? m[2] : pad2(3 * Number(m[2]) - 2)}-01` : value;
  }
  if (layout === 'rfc-2822') {
    // (The zone is kept, as ISO writes it: `+0200` → `+02:00`; GMT and UT are `Z`.)
    const m = RFC_2822_PATTERN.exec(value);
    const zone = m && /^[+-]/.test(m[7]) ? `${m[7].slice(0, 3)}:${m[7].slice(3)}` : 'Z';
    return m ? `${m[3]}-${pad2(monthNumber(m[2]))}-${pad2(Number(m[1]))} ${m[4]}:${m[5]}:${m[6] ?? '00'}${zone}` : value;
  }
  if (layout === 'd-mon-y') {
    const m = dMonY(value);
    return m ? `${m[3]}-${pad2(monthNumber(m[2]))}-${pad2(Number(m[1]))}${isoTime(m, 4, ' ')}` : value;
  }
  const m = MON_D_Y_PATTERN.exec(value);
  return m ? `${m[3]}-${pad2(monthNumber(m[1]))}-${pad2(Number(m[2]))}${isoTime(m, 4, ' ')}` : value;
}

const MISSING_MARKERS = new Set(['na', 'n/a', '#n/a', 'null', 'nan', 'none', '<na>', 'nil', ':', '.', '..']);
/**
 * The symbols the UK's official statistics write for a figure not given (the GSS standard): `z` not applicable, `x` not
 * available, `c` confidential, `u` low reliability, `low` rounds to zero, bracketed in newer releases (`[c]`). Lower
 * case only: an `X` is as often a mark set on a row.
 */
const STATISTICAL_SYMBOLS = new Set(['z', 'x', 'c', 'u', 'low', '[z]', '[x]', '[c]', '[u]', '[low]', '[w]']);

/**
 * A cell that writes a missing value out: `NA`, `N/A`, `#N/A`, `NULL`, `NaN`, `None`, `<NA>` (pandas' and R's
 * markers), the statistical offices' `:` (Eurostat), `.` (CBS, SAS, Stata) and `..` (OECD, the World Bank, ABS), and
 * the GSS symbols (`z`, `x`, `c`, `[c]`).
 */
export function isMissingMarker(value: string): boolean {
  // Every marker starts with n, #, <, :, ., [ or a symbol's letter: most cells are settled by their first character.
  const code = value.charCodeAt(0);
  if (code === 91 /* [ */ || ((code === 122 /* z */ || code === 120 /* x */ || code === 99 /* c */ || code === 117 /* u */ || code === 108 /* l */) && value.length <= 3)) return STATISTICAL_SYMBOLS.has(value);
  const first = code | 0x20;
  if (first !== 110 /* n */ && first !== 35 /* # */ && first !== 60 /* < */ && first !== 58 /* : */ && first !== 46 /* . */) return false;
  return MISSING_MARKERS.has(value.toLowerCase());
}

/**
 * Significant digits of a value REAL_PATTERN matched: its digits before any exponent, leading zeros (0.0044…) not
 * counted.
 */
function significantDigits(value: string): number {
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 101 || c === 69) break; // e, E: the exponent
    if (c >= 48 && c <= 57 && (digits > 0 || c !== 48)) digits++;
  }
  return digits;
}

/** The number a percentage written as text (`90.6%`, `-3 %`) holds (90.6, -3); undefined for anything else. */
export function percentNumber(value: string): number | undefined {
  if (value.charCodeAt(value.length - 1) !== 37 /* % */) return undefined;
  const body = value.slice(0, -1).trimEnd();
  if (body === '' || !(INTEGER_PATTERN.test(body) || (REAL_PATTERN.test(body) && /\d/.test(body) && significantDigits(body) <= 17))) return undefined;
  return Number(body);
}

/** Which types a single trimmed, non-empty text value could belong to (a bit set). */
export function candidateTypesOf(value: string): number {
  return candidateTypesAmong(value, ANY);
}

/** The date formats `candidateTypesAmong` read its last value in (when it tested for dates). */
let lastDate: { formats: number; time: boolean } | undefined;

/**
 * `candidateTypesOf(value) & wanted`, testing only for the types in `wanted` (the types, number, date and boolean,
 * exclude one another, so a test left out could only have found a type that is not wanted). Sets `lastDate`.
 */
function candidateTypesAmong(value: string, wanted: number): number {
  lastDate = undefined;
  const first = value.charCodeAt(0);
  const startsNumeric = (first >= 48 && first <= 57) || first === 45 /* - */ || first === 46; /* . */
  if (startsNumeric && wanted & (INTEGER | REAL)) {
    if (INTEGER_PATTERN.test(value)) return (INTEGER | REAL) & wanted;
    // `04`, `01001`: digits with leading zeros; the column decides whether they are numbers or a code.
    if (first === 48 && PADDED_INTEGER_PATTERN.test(value)) return (INTEGER | REAL) & wanted;
    // A number needs a digit; long digit strings lose precision as doubles, so they stay text.
    // Significant digits: leading zeros (0.0044…) do not count toward a double's 17.
    if (REAL_PATTERN.test(value) && /\d/.test(value) && significantDigits(value) <= 17) return REAL & wanted;
  }
  if (startsNumeric && wanted & PERCENT && value.charCodeAt(value.length - 1) === 37 /* % */) {
    if (percentNumber(value) !== undefined) return PERCENT;
  }
  if (wanted & (DATE | DATETIME)) {
    const date = (lastDate = dateFormatsOf(value));
    if (date) return (date.time ? DATETIME : DATE | DATETIME) & wanted;
  }
  if (!(wanted & BOOLEAN)) return 0;
  const lower = value.length <= 5 ? value.toLowerCase() : '';
  return lower === 'true' || lower === 'false' ? BOOLEAN : 0;
}

/** A column whose values are all dates, but in layouts no single one reads (`2014-07-01` beside `7/1/2014`). */
export interface MixedDateLayouts {
  /** Rows per layout, most first (a cell that fits two layouts counts for the first it fits). */
  counts: Array<{ layout: string; rows: number }>;
}

/** Accumulates candidate types over the values of one column. */
export class ColumnTypeTracker {
  private candidates = ANY;
  private layouts = ALL_FORMATS;
  private layoutCounts: number[] | undefined;
  private timed = false;
  nonEmptyCount = 0;
  /** Cells that write a missing value out (`NA`, `N/A`, `NULL`, `NaN`). */
  missingMarkers = 0;
  /** The markers those cells write (`NA`, `:`), the first few. */
  readonly markersSeen = new Set<string>();
  /** Sheet cells that hold a number as text (`'68'`, `'10.8'`: Excel's "number stored as text"). */
  numbersAsText = 0;

  /** Feeds one raw text cell; empty and whitespace-only cells are NULL and do not count. */
  addText(raw: string): void {
    if (raw === '') return;
    let value = raw;
    const last = raw.charCodeAt(raw.length - 1);
    if (raw.charCodeAt(0) <= 32 || last <= 32) {
      value = raw.trim();
      if (value === '') return;
    }
    // `NA`, `N/A`, `NULL`: written-out missing values do not decide a column's type (they are stored as NULL in a typed column).
    if (value.length <= 5 && isMissingMarker(value)) {
      this.missingMarkers++;
      if (this.markersSeen.size < 4) this.markersSeen.add(value);
      return;
    }
    this.nonEmptyCount++;
    if (this.candidates === 0) return;
    this.candidates &= candidateTypesAmong(value, this.candidates);
    if (this.candidates & (DATE | DATETIME)) this.addDate(value, lastDate);
    if (this.candidates & INTEGER) this.addDigits(value);
  }

  /** Widths of the integers seen (digits, sign left out): how a column writes leading zeros decides what they are. */
  private paddedCount = 0;
  private paddedWidth = 0;
  private plainWidthMin = Infinity;
  /** Every integer seen is two digits, 01–12 (a month number written zero-padded). */
  private twoDigitMonths = true;

  private addDigits(value: string): void {
    const negative = value.charCodeAt(0) === 45;
    const width = negative ? value.length - 1 : value.length;
    if (width > 1 && value.charCodeAt(negative ? 1 : 0) === 48) {
      this.paddedCount++;
      if (width > this.paddedWidth) this.paddedWidth = width;
    } else if (width < this.plainWidthMin) this.plainWidthMin = width;
    if (this.twoDigitMonths && (width !== 2 || negative || !(Number(value) >= 1 && Number(value) <= 12))) this.twoDigitMonths = false;
  }

  /**
   * Whether this column's leading zeros are numbers written loosely, not a code: the column also writes integers
   * shorter than its padded ones without zeros (`4` beside `04`, a count typed by hand), or every value is a month
   * number 01–12. A column of one width throughout (FIPS `01001`, zip codes, ids `007`, region codes `01`–`22`) is a
   * code and stays text, as its leading zeros are part of it.
   */
  private get paddingIsNumeric(): boolean {
    return this.paddedCount === 0 || this.plainWidthMin < this.paddedWidth || this.twoDigitMonths;
  }

  /** Feeds a JSON value (numbers and booleans keep their JSON type; strings are only checked for dates). */
  addJson(value: unknown): void {
    if (value === null || value === undefined) return;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed === '') return;
      // A string cell that writes a missing value out among numbers (EIA's `.`, `NA` in a workbook or a JSON file)
      // does not decide the type, as in a CSV file.
      if (trimmed.length <= 5 && isMissingMarker(trimmed)) {
        this.missingMarkers++;
        if (this.markersSeen.size < 4) this.markersSeen.add(trimmed);
        return;
      }
      this.nonEmptyCount++;
      if (this.candidates === 0) return;
      this.candidates &= candidateTypesAmong(trimmed, this.candidates & (DATE | DATETIME));
      if (this.candidates !== 0) this.addDate(trimmed, lastDate);
      return;
    }
    this.nonEmptyCount++;
    if (typeof value === 'number') this.candidates &= Number.isInteger(value) && Number.isSafeInteger(value) ? INTEGER | REAL : REAL;
    else if (typeof value === 'boolean') this.candidates &= BOOLEAN;
    else this.candidates = 0;
  }

  /**
   * Feeds one spreadsheet cell. A text cell that writes a plain number (`68`, `10.8`, `-3`; no leading zero, so a
   * code such as `01.063` or a zip `02134` stays text) counts as that number: workbooks exported from other systems
   * often store every figure as text, and a food table of 60 nutrients would otherwise have nothing to add or compare.
   */
  addSheetCell(value: unknown): void {
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (PLAIN_NUMBER.test(trimmed)) {
        this.numbersAsText++;
        this.addJson(Number(trimmed));
        return;
      }
    }
    this.addJson(value);
  }

  /** Feeds a value that may be a date, with what `dateFormatsOf` said of it (when already asked). */
  private addDate(value: string, known?: { formats: number; time: boolean }): void {
    const date = known ?? dateFormatsOf(value);
    if (!date) return;
    if (date.time) this.timed = true;
    this.layouts &= date.formats;
    const counts = (this.layoutCounts ??= LAYOUT_OF_BIT.map(() => 0));
    for (let i = 0; i < LAYOUT_OF_BIT.length; i++) {
      if (date.formats & LAYOUT_OF_BIT[i][0]) {
        counts[i]++;
        break;
      }
    }
  }

  /** Every value is a date, in one layout. */
  private get datesInOneLayout(): boolean {
    return (this.candidates & (DATE | DATETIME)) !== 0 && this.layouts !== 0;
  }

  get type(): ColumnType {
    if (this.nonEmptyCount === 0 || this.candidates === 0) return 'text';
    if (this.candidates & (INTEGER | REAL) && !this.paddingIsNumeric) return 'text';
    if (this.candidates & INTEGER) return 'integer';
    if (this.candidates & REAL) return 'real';
    if (this.candidates & PERCENT) return 'real';
    if (this.candidates & BOOLEAN) return 'boolean';
    if (!this.datesInOneLayout) return 'text';
    if (this.candidates & DATE) return 'date';
    return 'datetime';
  }

  /** `%` for a column of percentages written as text (`90.6%`, stored as 90.6); undefined otherwise. */
  get unit(): string | undefined {
    return this.nonEmptyCount > 0 && this.candidates === PERCENT ? '%' : undefined;
  }

  /** Cells with leading zeros read as numbers (`04` → 4) in a numeric column. */
  get paddedNumbers(): number {
    const type = this.type;
    return type === 'integer' || type === 'real' ? this.paddedCount : 0;
  }

  /** For date and datetime columns: the layout the values are read in (month first when the values allow both). */
  get layout(): DateLayout | undefined {
    const type = this.type;
    if (type !== 'date' && type !== 'datetime') return undefined;
    return LAYOUT_OF_BIT.find(([bit]) => this.layouts & bit)?.[1];
  }

  /** Month-first and day-first both read every value (no part above 12): the layout is a choice, not a finding. */
  get layoutAmbiguous(): boolean {
    return this.layout === 'mdy' && (this.layouts & DMY) !== 0;
  }

  /** The layout in words, with ` HH:MM` for datetimes (`M/D/YYYY`). */
  get layoutName(): string | undefined {
    const layout = this.layout;
    return layout ? dateLayoutName(layout, this.timed) : undefined;
  }

  /** Every value is a date but no one layout reads them all: kept as text, with the layouts found. */
  get mixedDateLayouts(): MixedDateLayouts | undefined {
    if (this.nonEmptyCount === 0 || (this.candidates & (DATE | DATETIME)) === 0 || this.layouts !== 0 || !this.layoutCounts) return undefined;
    const counts = LAYOUT_OF_BIT.map(([, layout], i) => ({ layout: LAYOUT_NAME[layout], rows: this.layoutCounts![i] }))
      .filter((c) => c.rows > 0)
      .sort((a, b) => b.rows - a.rows);
    return { counts };
  }
}

/** Declared SQL type for an inferred column type (DATE/DATETIME/BOOLEAN keep their meaning visible in the schema). */
export function sqlTypeOf(type: ColumnType): string {
  switch (type) {
    case 'integer':
      return 'INTEGER';
    case 'real':
      return 'REAL';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'datetime':
      return 'DATETIME';
    case 'text':
      return 'TEXT';
  }
}

/** Converts a raw text cell to the value stored for a column of `type`. */
export function textCellToSql(raw: string | undefined, type: ColumnType, layout?: DateLayout): string | number | null {
  if (raw === undefined || raw === '') return null;
  const last = raw.charCodeAt(raw.length - 1);
  const trimmed = raw.charCodeAt(0) <= 32 || last <= 32 ? raw.trim() : raw;
  if (trimmed === '') return null;
  if (type !== 'text' && trimmed.length <= 5 && isMissingMarker(trimmed)) return null;
  switch (type) {
    case 'integer':
      // Up to 15 digits is exact as a double; longer ones go in as text and INTEGER affinity converts them exactly.
      return trimmed.length <= 15 ? Number(trimmed) : trimmed;
    case 'real': {
      const number = Number(trimmed);
      // A percentage (`90.6%`) is stored as its number; the column's unit says %.
      return number === number ? number : percentNumber(trimmed) ?? number;
    }
    case 'boolean':
      return trimmed.toLowerCase() === 'true' ? 1 : 0;
    case 'date':
    case 'datetime':
      return isoDateText(trimmed, layout);
    case 'text':
      return raw;
  }
}

/** Converts a JSON value to the value stored for a column of `type`. */
/** A number written plainly: an optional minus, no leading zero (but `0.5`), digits, an optional fraction. */
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

export function jsonCellToSql(value: unknown, type: ColumnType, layout?: DateLayout): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    if ((type === 'integer' || type === 'real') && PLAIN_NUMBER.test(trimmed)) return Number(trimmed);
    if (type !== 'text' && trimmed.length <= 5 && isMissingMarker(trimmed)) return null;
    return type === 'date' || type === 'datetime' ? isoDateText(trimmed, layout) : value;
  }
  if (typeof value === 'boolean') return type === 'boolean' ? (value ? 1 : 0) : String(value);
  if (typeof value === 'number') return type === 'integer' || type === 'real' ? value : String(value);
  return JSON.stringify(value);
}
