/**
 * Fingerprints of a column's values (Metabase calls them fingerprints): shares of values that look like e-mails,
 * URLs, JSON, numbers written as text, month names, codes… computed from a sample, for the column rules to read.
 */
import { candidateTypesOf, isMissingMarker } from '../env/typeInference';
import { COUNTRY_CODES, COUNTRY_NAMES, DIRECTION_LEVELS, MONTH_NAMES, ORDINAL_SCALES, TOTAL_LABEL, US_STATE_CODES, WEEKDAY_NAMES, YES_NO_PAIRS, negationPair } from './lexicon';

/** A stage of a knockout tournament, as results tables write it. */
const TOURNAMENT_STAGE = /^((first|second|third|final) )?(group stage|group phase|round of \d+|(quarter|quater|semi)[- ]?finals?|finals?|final round|(third|fourth)[- ]place( match| play-?off)?|champions?|runners?[- ]up|winners?|preliminary round|play-?offs?)$/;

export interface ValueFingerprint {
  /** Non-null values sampled. */
  sampled: number;
  email: number;
  url: number;
  /** Host names (`sanfrancisco.gov`, `www.example.co.uk` without a scheme). */
  hostname: number;
  json: number;
  phone: number;
  path: number;
  /** Values that are lists packed into one cell (`a,b,c`). */
  list: number;
  /** Text that reads as a number once symbols and thousands separators go (`$1,200`, `-566,000`, `12 %`). */
  numericText: number;
  /** Of those, how many carry a currency symbol or a percent sign. */
  currencySymbol?: string;
  percentSign: number;
  /** Short values of capitals/digits without spaces (`C0001`, `SFO`, `W1`). */
  codeLike: number;
  /** Values with a space between words. */
  multiWord: number;
  meanLength: number;
  monthName: number;
  /** A month named with its year (`Jan 2020`, `January, 2020`, `1973 January`). */
  monthYear: number;
  /** Of those, the share written year first (`1973 January`). */
  yearFirstMonth: number;
  weekdayName: number;
  /** `YYYY-MM` periods. */
  period: number;
  /** Four-digit years as text (`2006`). */
  yearText: number;
  /** Values that read as a date or datetime in some layout. */
  dateLike: number;
  base64: number;
  /** Long hexadecimal strings (hashes, encoded bytes). */
  hex: number;
  /** Values that are country names. */
  country: number;
  /** Values that are ISO 3166-1 country codes written in capitals (`IT`, `ITA`). */
  countryCode: number;
  /** ISO week periods (`2020-W11`). */
  week: number;
  /** BLOB values that are UTF-8 text. */
  textInBlobs: number;
  /** Cells of several comma-separated fields, some empty (`,,N,0700`): packed records. */
  packed: number;
  /** Among the distinct values, two lists of the same items in another order or spacing: their separator. */
  reorderedList?: string;
  /** The distinct values (lower-cased) form a yes/no pair. */
  yesNo: boolean;
  /** The distinct values (lower-cased) all belong to one known ordered scale. */
  ordinalScale: boolean;
  /** Real numbers within [0, 1]. */
  unitInterval: number;
  /** Text that stands for a missing value (`NA`, `N/A`, `null`, `-`), kept as text by the loader (`NA` is also Namibia). */
  missingText: number;
  /** The values are figures beside the symbols official statistics write for one not given (`z`, `x`, `c`, `low`, `:`). */
  figuresWithSymbols?: boolean;
  /** Values that are lists packed into one cell with semicolons or pipes (`Ann; Bo`). */
  semicolonList: number;
  /** Whole numbers written as text without symbols (`1`, `42`). */
  plainInteger: number;
  /** Values with letters outside ASCII (Greek initials `ΑΒΧ`; codes are written in ASCII). */
  nonAscii: number;
  /** Values holding control characters: bytes read as text (a WKB geometry). */
  controlChars: number;
  /** Quarters of a year (`Q1`, `Q03`). */
  quarter: number;
  /** Periods led by a year: `1979`, `2018-Q2`, `2019-01`. */
  yearPeriod: number;
  /** `YYYY-Qn` quarters. */
  yearQuarter: number;
  /** Months written after their year with an `m` (Stata's `2020m1`, Eurostat's `2020M01`). */
  yearMonthLetter: number;
  /** Dates written with a year of two digits (`4/23/13`, `23/4/13`), which the loader keeps as text. */
  shortYearDate: number;
  /** Values holding a year of three or four digits among other words (`Nov. 27, 1894`, `c. 1020`, `1919 - 1939`). */
  yearInText: number;
  /** Places written `Name, ST` (a US city, county or metro area with its state's code). */
  cityState: number;
  /**
   * Sequences of three tokens or more nearly all written with digits (`1. e4 e5 2. Nf3`, `3T+2T 4S 2A`): a machine
   * notation, not words for people.
   */
  notation: number;
}

// The domain ends in letters (`.org`): `proj#123:6.1@166.38(M.4)` is no e-mail address.
const EMAIL = /^[^\s@()<>,;:"]+@[^\s@()<>,;:"]+\.[A-Za-z]{2,}$/;
const URL_PATTERN = /^(https?|ftp):\/\/\S+$|^www\.\S+\.\S+$/i;
/** A host name: labels of letters, digits and hyphens, ending in a common top-level domain or a country's two letters. */
const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|gov|edu|mil|int|info|biz|io|app|dev|ai|[a-z]{2})$/i;
const PHONE = /^\+?[\d\s().-]{7,20}$/;
const PATH = /^(\/|[a-z]:\\|\.{1,2}\/)?([\w.-]+[/\\])+[\w.-]+\.\w{1,5}$/i;
/** A file's name alone, with the extension of a document or data file (`tsla-20221027.htm`, `photo_12.jpg`). */
const FILE_NAME = /^[\w.-]+\.(xml|html?|pdf|txt|csv|tsv|json|xlsx?|docx?|pptx?|png|jpe?g|gif|svg|tiff?|zip|gz|parquet|md)$/i;
const NUMERIC_TEXT = /^\(?[-+]?\s?[$€£¥]?\s?\d{1,3}(?:[,\s]\d{3})+(?:\.\d+)?\)?\s?%?$|^\(?[-+]?\s?[$€£¥]\s?\d+(?:\.\d+)?\)?$|^[-+]?\d+(?:\.\d+)?\s?%$|^[$€£¥]\s?-$/;
const CODE = /^(?=.*[A-Z0-9])[A-Z0-9][A-Z0-9_\-./#]{0,14}$/;
const PERIOD = /^(1[5-9]\d\d|20\d\d|21\d\d)-(0[1-9]|1[0-2])$/;
/** A month's name and its year, either way round (`jan 2020`, `january, 2020`, `sep-2021`, `1973 january`), lower-cased. */
const MONTH_YEAR = /^(?:([a-z]{3,9}\.?)[\s,-]+((?:1[5-9]|20|21)\d\d)|((?:1[5-9]|20|21)\d\d)[\s-]+([a-z]{3,9}\.?))$/;
/** US state and territory codes (a place written `Name, ST`); `Smith, JA` is a person. */
const US_STATES = US_STATE_CODES.join('|');
const YEAR = /^(1[5-9]\d\d|20\d\d|21\d\d)$/;
const YEAR_PERIOD = /^(1[5-9]\d\d|20\d\d|21\d\d)(-?Q[1-4]|-(0[1-9]|1[0-2]))?$/i;
/** `Boston-Cambridge-Newton, MA`, `Cook County, IL`, `Kansas City, MO-KS`, `Bethesda-Rockville-Frederick, MD Met Div`. */
const CITY_STATE = new RegExp(`^[A-Z][^,]*,\\s*${'(STATE)(-(STATE))*'.replace(/STATE/g, US_STATES)}(\\s+[A-Z][A-Za-z]*)*$`);
const BASE64 = /^[A-Za-z0-9+/]{60,}={0,2}$/;
const HEX = /^(0x)?[0-9a-f]{32,}$/i;
/**
 * Words that grade how well something is or was done, from best to worst (an inspection's Outstanding / Good /
 * Requires improvement / Inadequate, a survey's Excellent … Poor), or how it went since the last grading.
 */
const JUDGEMENTS = /^(outstanding|exceptional|excellent|very good|good|satisfactory|adequate|acceptable|fair|average|requires improvement|needs improvement|weak|poor|very poor|inadequate|unsatisfactory|unacceptable|failing|improved|sustained|declined|improving|declining)\b/;
/** Values that say no grade was given (`Not judged`, `Not applicable`). */
const NOT_GRADED = /^not\b/;
const LETTER_GRADES = ['a+', 'a', 'a-', 'b+', 'b', 'b-', 'c+', 'c', 'c-', 'd+', 'd', 'd-', 'e', 'f'];

/** A day and a month, either way round, and a year of two digits (`4/23/13`, `23.4.13`). */
function shortYearDate(text: string): boolean {
  const [a, b] = text.split(/[/.-]/).map(Number);
  return a >= 1 && b >= 1 && ((a <= 12 && b <= 31) || (b <= 12 && a <= 31));
}

/** Placeholders for a missing value, lower-case. */
// (Statistics offices mark a figure withheld or not available with `*`, `#`, `..`, `:` or a letter in brackets:
// BLS's wage tables write `*` for "not available" and `#` for a wage above the top code; Eurostat `:`; Census `(D)`, `(X)`.)
export const MISSING_PLACEHOLDERS = ['na', 'n/a', 'nan', 'null', 'nil', '-', '--', '?', '#n/a', 'missing', 'unknown', '*', '#', '..', ':', '(x)', '(d)', '(na)', '(s)', '(z)'];
const MISSING_TEXT = new RegExp(`^(${MISSING_PLACEHOLDERS.map((p) => p.replace(/[/?#*.:()-]/g, (c) => `\\${c}`)).join('|')})$`, 'i');
/** A text is a placeholder for a missing value, or empty. */
export const isMissingText = (text: string): boolean => text.trim() === '' || MISSING_TEXT.test(text.trim());
/** A plain number written as text (`"0"`, `"-12.5"`); no leading zeros, which codes have (`"007"`). */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/**
 * A figure below or above a detection limit (`< 0.05`, `>20`, `<=3`, `<0.03 (below detection)`), or the mark a lab
 * writes for one (`BD`, `BDL`, `<LOD`, `below detection`): a number, censored.
 */
const CENSORED_NUMBER = /^[<>≤≥]=?\s?(?:\d+(?:\.\d+)?|\.\d+)(?:\s*\((?:below|above|under|over|less than) (?:the )?(?:detection|quantification|reporting)(?: limit)?\))?$|^(?:bdl?|<\s?(?:lod|loq|dl|mdl|rl)|below (?:the )?(?:detection|quantification)(?: limit)?)$/i;
/** A decimal written with leading zeros to a fixed width (`088.53065`, `-05.25`). */
const PADDED_DECIMAL = /^-?0\d+\.\d+$/;
/** A number written with its sign, however padded (`+0.07`, `-006`, `+.014`): the sign says it is no code. */
const SIGNED_NUMBER = /^[-+](?:\d+(?:\.\d*)?|\.\d+)$/;

/** A number written as text, plainly (`-12.5`) or with separators and symbols (`$1,200`, `12 %`). */
export const isNumericText = (text: string): boolean => PLAIN_NUMBER.test(text.trim()) || NUMERIC_TEXT.test(text.trim());

function utf8(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

function isJson(text: string): boolean {
  const first = text[0];
  if (first !== '{' && first !== '[') return false;
  try {
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    // Keyed values in braces that a program wrote almost as JSON (a camera's EXIF groups, `{"ISO": 640, …}, "File":
    // {…}}`, one brace too few): structured all the same, for machines, not for people.
    return first === '{' && text.trimEnd().endsWith('}') && (text.match(/"[^"]{1,60}":\s/g)?.length ?? 0) >= 3;
  }
}

/** Fingerprints sampled values (numbers as stored; text as stored). `distinct` are the column's distinct values when few. */
/**
 * Sentences of three or more words, each naming one direction of change (fall, hold, rise) and each a different one:
 * an outlook written out ("projected to rise by 2020" / "to fall" / "to remain steady"), ordered by its direction.
 */
function directionSentences(values: readonly string[]): boolean {
  if (values.length < 2 || values.length > 3) return false;
  const levels = values.map((v) => {
    const words = v.split(/[^a-z]+/).filter(Boolean);
    if (words.length < 3) return undefined;
    const found = new Set(DIRECTION_LEVELS.flatMap((level, at) => (words.some((w) => level.includes(w)) ? [at] : [])));
    return found.size === 1 ? [...found][0] : undefined;
  });
  return levels.every((l) => l !== undefined) && new Set(levels).size === levels.length;
}

/**
 * A statistics office's two-letter mark for a figure not given (the Federal Reserve's `ND`, no data; `NR` not
 * reported; `NC` not calculated), the only text among at least three different numbers written as text: a placeholder
 * there, though elsewhere a state's code (`ND`, North Dakota) among other codes.
 */
export function soleNoDataMark(values: readonly unknown[]): string | undefined {
  let mark: string | undefined;
  const numbers = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (text === '') continue;
    if (PLAIN_NUMBER.test(text) || SIGNED_NUMBER.test(text) || NUMERIC_TEXT.test(text)) numbers.add(text);
    else if (/^N[A-Z]$/.test(text) && (mark === undefined || mark === text)) mark = text;
    else return undefined;
  }
  return mark !== undefined && numbers.size >= 3 ? mark : undefined;
}

export function fingerprint(values: readonly unknown[], distinct?: readonly unknown[]): ValueFingerprint {
  const noData = soleNoDataMark(values);
  const f: ValueFingerprint = {
    sampled: 0,
    email: 0,
    url: 0,
    hostname: 0,
    json: 0,
    phone: 0,
    path: 0,
    list: 0,
    numericText: 0,
    percentSign: 0,
    codeLike: 0,
    multiWord: 0,
    meanLength: 0,
    monthName: 0,
    monthYear: 0,
    yearFirstMonth: 0,
    weekdayName: 0,
    period: 0,
    yearText: 0,
    dateLike: 0,
    base64: 0,
    hex: 0,
    textInBlobs: 0,
    packed: 0,
    country: 0,
    countryCode: 0,
    week: 0,
    yesNo: false,
    ordinalScale: false,
    unitInterval: 0,
    missingText: 0,
    semicolonList: 0,
    notation: 0,
    plainInteger: 0,
    nonAscii: 0,
    controlChars: 0,
    quarter: 0,
    yearPeriod: 0,
    yearQuarter: 0,
    yearMonthLetter: 0,
    shortYearDate: 0,
    yearInText: 0,
    cityState: 0,
  };
  let numbers = 0;
  let totalLength = 0;
  const currencies = new Map<string, number>();
  for (const value of values) {
    if (value === null || value === undefined) continue;
    f.sampled++;
    if (typeof value === 'number') {
      numbers++;
      if (value >= 0 && value <= 1) f.unitInterval++;
      // A whole year among text (a union of files, some with years as numbers, some with `2018-Q2`) is a year too.
      if (Number.isInteger(value) && value >= 1500 && value <= 2199) {
        f.yearText++;
        f.yearPeriod++;
      }
      totalLength += String(value).length;
      continue;
    }
    // Bytes that decode as UTF-8 text (a JSON document in a BLOB) are read as that text.
    const decoded = value instanceof Uint8Array ? utf8(value) : undefined;
    if (value instanceof Uint8Array && decoded === undefined) continue;
    if (decoded !== undefined) f.textInBlobs++;
    const raw = decoded ?? String(value);
    // (ANSI colour codes in a log line start with ESC: they are text. So is a C string's closing NUL that a program
    // stored with it, `Culex Culex tritaeniorhynchus\0`.)
    if (/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(raw.replace(/\u0000+$/, ''))) f.controlChars++;
    // (A file that quotes its text with apostrophes, `'36.336222'`, `'Davis'`: the value is inside them.)
    const text = raw.trim().replace(/^'([^']*)'$/, '$1');
    // (An empty text, as a database writes a value not given, `''` on 13,865 of a catalogue's 13,974 rows, is one too.)
    if (isMissingText(text) || text === noData) {
      f.missingText++;
      continue;
    }
    totalLength += text.length;
    // Long texts (documents, JSON) are only checked for JSON.
    if (text.length > 400) {
      if (isJson(text)) f.json++;
      if (/\S\s+\S/.test(text)) f.multiWord++;
      continue;
    }
    if (EMAIL.test(text)) f.email++;
    else if (URL_PATTERN.test(text)) f.url++;
    else if (HOSTNAME.test(text)) f.hostname++;
    else if (isJson(text)) f.json++;
    // (A decimal padded with zeros to a fixed width, a longitude `088.53065`, is a number: the padding keeps columns aligned.)
    if (PLAIN_NUMBER.test(text) || SIGNED_NUMBER.test(text) || CENSORED_NUMBER.test(text) || PADDED_DECIMAL.test(text)) f.numericText++;
    else if (NUMERIC_TEXT.test(text)) {
      f.numericText++;
      const symbol = /[$€£¥]/.exec(text)?.[0];
      if (symbol) currencies.set(symbol, (currencies.get(symbol) ?? 0) + 1);
      if (text.endsWith('%')) f.percentSign++;
    } else if (PHONE.test(text) && /\d{3}/.test(text) && /[\s().-]/.test(text) && !/^\d{4}-\d{1,2}(-\d{1,2})?/.test(text) && (text.match(/\d/g)?.length ?? 0) >= 7 && (text.match(/\d/g)?.length ?? 0) <= 15) f.phone++;
    if ((PATH.test(text) && /[/\\]/.test(text)) || FILE_NAME.test(text)) f.path++;
    // Lists and packed records by splitting, not by a backtracking pattern (a long JSON text would take forever).
    // (Commas inside brackets qualify one value: `18 Years and older (Adult, Older Adult)`.)
    const outside = text.includes('(') ? text.replace(/\([^()]*\)/g, '()') : text;
    if (text.length <= 400 && outside.includes(',')) {
      const parts = outside.split(',');
      if (parts.every((p) => p.length <= 41 && p.trim() !== '') && !/\d,\d{3}/.test(text) && !/\s\w+\s\w+,/.test(text)) f.list++;
      if (parts.length >= 3 && parts.every((p) => p.length <= 40) && parts.some((p) => p === '')) f.packed++;
    }
    // (An HTML entity, `&amp;` in "Smith &amp; Sons", is no separator.)
    const unescaped = text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, " ");
    if (/\S\s*[;|]\s*\S/.test(unescaped) && unescaped.split(/[;|]/).every((p) => p.trim() !== "" && p.length <= 60)) f.semicolonList++;
    const tokens = text.split(/\s+/);
    if (tokens.length >= 3 && tokens.filter((t) => /\d/.test(t)).length >= 0.75 * tokens.length && tokens.some((t) => /[A-Za-z]/.test(t))) f.notation++;
    if (CODE.test(text)) f.codeLike++;
    if (/\S\s+\S/.test(text)) f.multiWord++;
    const lower = text.toLowerCase();
    // (A month marked for a footnote, `Dec†`, `Jan*`, is that month: a statistics office's provisional figures.)
    const month = lower.replace(/[\s*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+$/u, '');
    if (MONTH_NAMES.includes(month) || (month.length === 3 && MONTH_NAMES.some((m) => m.startsWith(month))) || month === 'sept') f.monthName++;
    const monthYear = MONTH_YEAR.exec(lower);
    if (monthYear) {
      const name = (monthYear[1] ?? monthYear[4]).replace(/\.$/, '');
      if (MONTH_NAMES.includes(name) || (name.length === 3 && MONTH_NAMES.some((m) => m.startsWith(name))) || name === 'sept') {
        f.monthYear++;
        if (monthYear[3] !== undefined) f.yearFirstMonth++;
      }
    }
    if (WEEKDAY_NAMES.includes(lower) || (lower.length === 3 && WEEKDAY_NAMES.some((d) => d.startsWith(lower)))) f.weekdayName++;
    if (PERIOD.test(text)) f.period++;
    if (/^\d+$/.test(text)) f.plainInteger++;
    if (/[^\x00-\x7f]/.test(text)) f.nonAscii++;
    if (/^Q0?[1-4]$/i.test(text)) f.quarter++;
    if (YEAR_PERIOD.test(text)) f.yearPeriod++;
    if (/^\d{4}-?Q[1-4]$/i.test(text)) f.yearQuarter++;
    if (/^(1[5-9]\d\d|20\d\d|21\d\d)m(0?[1-9]|1[0-2])$/i.test(text)) f.yearMonthLetter++;
    if (/^(\d{1,2})[/.-](\d{1,2})[/.-]\d{2}$/.test(text) && shortYearDate(text)) f.shortYearDate++;
    // A year stands alone among words (`c. 1020`, `Nov. 27, 1894`), not inside a code (`C349`).
    const year = Number(/(?<![A-Za-z0-9])(\d{3,4})(?![A-Za-z0-9])/.exec(text)?.[1] ?? NaN);
    if (year >= 100 && year <= 2100) f.yearInText++;
    if (CITY_STATE.test(text)) f.cityState++;
    if (/^\d{4}-?W\d{2}$/.test(text)) f.week++;
    // (The World Bank's databank writes a year with its code: `1960 [YR1960]`.)
    if (YEAR.test(text) || /^(1[5-9]\d\d|20\d\d)\.0$/.test(text) || /^(1[5-9]\d\d|20\d\d) \[YR\1\]$/.test(text)) f.yearText++;
    if (COUNTRY_NAMES.has(lower)) f.country++;
    if (COUNTRY_CODES.has(text)) f.countryCode++;
    if (candidateTypesOf(text) & 24 /* DATE | DATETIME */) f.dateLike++;
    if (BASE64.test(text)) f.base64++;
    if (HEX.test(text)) f.hex++;
  }
  // Numbers stored as numbers in a text column, beside placeholders or alone in the sample (a union of files, some
  // typed, some holding only `NA`): numbers written down, with gaps.
  if (f.missingText > 0 || (numbers > 0 && numbers === f.sampled)) f.numericText += numbers;
  // Shapes are shares of the values present: a placeholder for a missing value is none of them.
  const n = Math.max(1, f.sampled - f.missingText);
  f.meanLength = totalLength / n;
  f.missingText = f.missingText / Math.max(1, f.sampled);
  for (const key of ['plainInteger', 'nonAscii', 'controlChars', 'quarter', 'yearPeriod', 'yearQuarter', 'yearMonthLetter', 'shortYearDate', 'yearInText', 'cityState', 'notation', 'semicolonList', 'email', 'url', 'hostname', 'json', 'phone', 'path', 'list', 'numericText', 'percentSign', 'codeLike', 'multiWord', 'monthName', 'monthYear', 'yearFirstMonth', 'weekdayName', 'period', 'yearText', 'dateLike', 'base64', 'hex', 'textInBlobs', 'packed', 'country', 'countryCode', 'week'] as const) {
    f[key] = f[key] / n;
  }
  f.unitInterval = numbers > 0 ? f.unitInterval / numbers : 0;
  const topCurrency = [...currencies.entries()].sort((a, b) => b[1] - a[1])[0];
  if (topCurrency) f.currencySymbol = topCurrency[0];
  if (distinct && distinct.length > 0) {
    const lowered = new Set(distinct.filter((v) => v !== null && v !== undefined).map((v) => String(v).trim().toLowerCase()).filter((v) => !MISSING_TEXT.test(v)));
    // An answer of "unknown" (`U`, `DK`) beside Y and N leaves a yes/no question one.
    // A yes or a no followed by what it was judged on (`Yes (faeces in the pit, a worn path …)`, `No, (pit empty …)`) answers yes or no.
    const answered = [...new Set([...lowered].filter((v) => !UNKNOWN_ANSWERS.has(v)).map((v) => /^(yes|no)\s*[,(:;–-]\s*\S/.exec(v)?.[1] ?? v))];
    const reordered = reorderedListSeparator(distinct.filter((v): v is string => typeof v === 'string'));
    if (reordered) f.reorderedList = reordered;
    // (A thing or `none`, written in either case: a coded-wire tag `CWT` / `None`, is whether it is there.)
    f.yesNo = answered.length === 2 && (YES_NO_PAIRS.some(([a, b]) => answered.includes(a) && answered.includes(b)) || negationPair(answered[0], answered[1]) || (answered.includes('none') && distinct.length >= 2 && !/^\d/.test(answered.find((v) => v !== 'none') ?? '')));
    // (A survey's "Other (please specify)" beside the scale's answers is no step of it.)
    // (The bottom of a scale said as the lack of what it grades, "no depression", is its `none`.)
    const scaled = [...lowered].filter((v) => !/^other\b/.test(v)).map((v) => (/^no [a-z]+$/.test(v) ? 'none' : v));
    f.ordinalScale = scaled.length >= 2 && ORDINAL_SCALES.some((scale) => scaled.every((v) => scale.includes(v)));
    // Graded judgements (`Good`, `Requires improvement to be good`, `Inadequate`), beside `Not judged`.
    const graded = [...lowered].filter((v) => !NOT_GRADED.test(v));
    if (!f.ordinalScale && graded.length >= 2 && graded.every((v) => JUDGEMENTS.test(v))) f.ordinalScale = true;
    // How far a team went in a tournament (`group stage`, `round of 16`, `quarter-finals`, `final`): stages in order.
    if (!f.ordinalScale && lowered.size >= 3 && [...lowered].every((v) => TOURNAMENT_STAGE.test(v))) f.ordinalScale = true;
    // Letter grades (`A+`, `A`, `A-`): a plain `A`/`B` is as often a section or a group, so a `+` or `-` must be there.
    if (!f.ordinalScale && lowered.size >= 2 && [...lowered].every((v) => LETTER_GRADES.includes(v)) && [...lowered].some((v) => /[+-]$/.test(v))) f.ordinalScale = true;
    // Bands of a number (`Age 0–14`, `15-24`, `65+`, `under 5`): ordered by their bounds.
    if (!f.ordinalScale && numberBands([...lowered])) f.ordinalScale = true;
    // Answer options numbered in their order (`1. Yes`, `2. Probably yes`, … `5. No information`), as survey and
    // appraisal tools export them: each a different number.
    const numbered = [...lowered].map((v) => /^(\d{1,2})[.)]\s+\S/.exec(v)?.[1]);
    // (A workbook's contents, `2. Table 2 - Purpose of overseas residents' visits to the UK by month.`, numbers its
    // tables, not the steps of a scale.)
    const contents = [...lowered].some((v) => /^\d{1,2}[.)]\s+(table|figure|chart|sheet|section|annex|appendix)\b/.test(v) || v.length > 80);
    if (!f.ordinalScale && lowered.size >= 2 && !contents && numbered.every((d) => d !== undefined) && new Set(numbered).size === numbered.length) f.ordinalScale = true;
    if (!f.ordinalScale && directionSentences([...lowered])) f.ordinalScale = true;
  }
  // Figures beside the marks official statistics write for a figure not given (`z`, `x`, `c`, `low`, `:`, `..`: the
  // loader's missing-value marks), kept as text by a database that stored them so. The distinct values when few, else
  // the sample.
  const pool = (distinct && distinct.length > 0 ? distinct : values).filter((v) => v !== null && v !== undefined).map((v) => String(v).trim()).filter((v) => v !== '');
  const symbols = pool.filter((v) => v.length <= 5 && isMissingMarker(v)).length;
  const figures = new Set(pool.filter((v) => PLAIN_NUMBER.test(v.replace(/,(?=\d{3}\b)/g, ''))));
  if (symbols > 0 && figures.size >= 2 && symbols + pool.filter((v) => figures.has(v)).length === pool.length) f.figuresWithSymbols = true;
  return f;
}


/**
 * The separator (`;` or `|`) of lists two of whose distinct values hold the same items in another order or spacing
 * (`emcsg.com;  ema.gov.sg` and ` ema.gov.sg; emcsg.com`); undefined if none do.
 */
export function reorderedListSeparator(values: readonly string[]): string | undefined {
  for (const separator of [';', '|', ',']) {
    // (A comma between digits is a thousands separator: a list's items are words.)
    const sets = [...new Set(values.filter((v) => v.includes(separator) && (separator !== ',' || /[A-Za-z]/.test(v))))]
      .map((v) => [...new Set(v.split(separator).map((p) => p.trim().toLowerCase()).filter((p) => p !== ''))].sort().join('\u0000'))
      .filter((key) => key.includes('\u0000'));
    const counts = new Map<string, number>();
    for (const key of sets) counts.set(key, (counts.get(key) ?? 0) + 1);
    const reordered = [...counts.values()].filter((n) => n > 1).length;
    // (Commas also sit inside names and sentences: two answer sets written in more than one order, at least, make
    // them a list of a multi-select question's answers, `Promote good health, Reduce risk of disease` and back.)
    if (reordered >= (separator === ',' ? 2 : 1)) return separator;
  }
  return undefined;
}

/** Answers that say the yes/no is not known. */
// (…and so do the survey's "Not sure" and an enumerator's "Couldn't observe".)
export const UNKNOWN_ANSWERS = new Set(['u', 'unk', 'dk', 'not known', "don't know", 'dont know', 'not stated', 'not sure', 'unsure', "couldn't observe", 'could not observe', 'not observed', "can't say", 'cannot say']);

const BAND = /^([a-z][a-z ]*?\s)?(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)(\s[a-z ]+)?$/;
const OPEN_BAND = /^([a-z][a-z ]*?\s)?(?:(\d+(?:\.\d+)?)\s*\+|(?:under|over|below|above|less than|more than|<|>|≥|≤|<=|>=)\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:and|or)\s*(?:over|older|above|more|under|younger|below|less))(\s[a-z ]+)?$/;

/**
 * Values that are bands of one number (`age 0–14` … `age 65+`, `1-4 employees`, `24 & under`): at least two closed
 * bands, each with its lower bound below its upper one, none overlapping another, beside a total row's label
 * (`Total`) if the table has one. Spans of years (`2011-12`, `1984-2025`) and scores (`2-1`, `0-2`) are not bands.
 */
export function numberBands(values: readonly string[]): boolean {
  const banded = values.filter((v) => !TOTAL_LABEL.test(v)).map((v) => v.replace(/\s*&\s*/g, ' and '));
  if (banded.length < 3) return false;
  const closed: Array<[number, number]> = [];
  for (const value of banded) {
    const band = BAND.exec(value);
    if (band) {
      const low = Number(band[2]);
      const high = Number(band[3]);
      if (!(low < high) || (/^\d{4}$/.test(band[2]) && low >= 1500 && low <= 2100)) return false;
      closed.push([low, high]);
    } else if (!OPEN_BAND.test(value)) return false;
  }
  if (closed.length < 2) return false;
  closed.sort((a, b) => a[0] - b[0]);
  return closed.every(([low], at) => at === 0 || low >= closed[at - 1][1]);
}

/** Fourteen digits that make a real moment, `YYYYMMDDHHMMSS` (JMA's report time `20240103182109`). */
export function isCompactDateTime(v: string): boolean {
  const m = /^(\d{8})([01]\d|2[0-3])([0-5]\d)([0-5]\d)$/.exec(v);
  return m !== null && isCompactDay(m[1]);
}

/** A point written as ISO 6709 says (`+37.1+136.7-10000/`: latitude, longitude, height, then the slash). */
export const ISO_6709_POINT = /^[+-]\d{2}(\d{2}(\d{2})?)?(\.\d+)?[+-]\d{3}(\d{2}(\d{2})?)?(\.\d+)?([+-]\d+(\.\d+)?)?(CRS[\w:]+)?\/$/;

/** Eight digits that make a real calendar day, `YYYYMMDD`, from 1800 to 2199 (`20250901`, never `20250231`). */
export function isCompactDay(v: string): boolean {
  const m = /^(1[89]|2[01])(\d\d)(\d\d)(\d\d)$/.exec(v);
  if (!m) return false;
  const year = Number(m[1] + m[2]);
  const month = Number(m[3]);
  const day = Number(m[4]);
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
