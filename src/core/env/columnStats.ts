/**
 * Column statistics gathered while a loader inserts rows: per column the non-null count, the exact distinct count,
 * min, max and the first distinct values — what the profile would otherwise ask SQLite for in a second pass over
 * the table (one aggregate query, a cardinality probe and a samples query per column), which on a 1M-row CSV took
 * longer than the load itself.
 *
 * The statistics are of the values as SQLite stores them, not as the loader passed them: a column's declared type
 * gives it an affinity that converts some values (an integer written as a 16-digit string into an INTEGER column
 * becomes an integer; `3` into a REAL column becomes 3.0, which compares equal to 3 anyway). Where the stored form
 * of a value cannot be predicted exactly here (a number into a TEXT column, which SQLite formats its own way; a
 * numeric-looking string into a numeric column; a string with a lone surrogate, which UTF-8 cannot hold), the
 * column's statistics are given up and the profile asks SQLite for that column as before.
 *
 * Distinct counts are counted, never estimated: a column with few distinct values keeps them in a set; past
 * SMALL_DISTINCT it logs every value (numbers as themselves, strings as a 64-bit hash) and sorts the log once at the
 * end. Numbers are exact; strings are exact unless two share a 64-bit hash (see TextDistinct for the bound and why
 * keys stay exact). Memory is bounded: when a table's logs together outgrow `DISTINCT_BUDGET_BYTES`, the largest is
 * dropped and that column's distinct count is left to SQLite. The sets and logs live only while the table loads.
 */
import type { ColumnType } from './types';

/** How many first distinct values are kept: the profile's samples (3) and the semantic layer's value lists (13). */
export const FIRST_DISTINCT_VALUES = 13;

/** Memory all distinct sets of one table may use together while it loads. */
export const DISTINCT_BUDGET_BYTES = 256 * 1024 * 1024;

/** What a column's statistics say, as SQLite would answer for the stored values. */
export interface ColumnStatistics {
  /** `count(column)`. */
  nonNull: number;
  /** `count(DISTINCT column)`; absent when its log outgrew the budget (then SQLite counts). */
  distinct?: number;
  /**
   * The distinct count of strings was taken from 64-bit hashes: exact unless two values share a hash, which could
   * only lower it (see TextDistinct).
   */
  hashed?: boolean;
  /**
   * `min(column)` / `max(column)` as sql.js returns them; absent when the column is all NULL. Text is ranged only in
   * columns of numeric affinity (dates): the profile reads min and max of integer, real, date and datetime columns.
   */
  min?: number | string;
  max?: number | string;
  /**
   * The first `FIRST_DISTINCT_VALUES` distinct non-null values in row order: what
   * `SELECT DISTINCT column FROM table WHERE column IS NOT NULL LIMIT n` returns for n up to that many.
   */
  first: Array<number | string>;
}

/** Statistics of a loaded table: its row count and, per column (in table order), statistics or undefined when given up. */
export interface TableStatistics {
  rowCount: number;
  columns: Array<{ name: string; stats: ColumnStatistics | undefined }>;
}

/** SQLite's type affinity of a declared type (https://www.sqlite.org/datatype3.html#type_affinity). */
type Affinity = 'integer' | 'real' | 'numeric' | 'text';

function affinityOf(type: ColumnType): Affinity {
  // As sqlTypeOf declares them: INTEGER, REAL, TEXT; BOOLEAN, DATE and DATETIME have NUMERIC affinity.
  if (type === 'integer') return 'integer';
  if (type === 'real') return 'real';
  if (type === 'text') return 'text';
  return 'numeric';
}

/** An integer literal SQLite's INTEGER/NUMERIC affinity stores as an integer: up to 19 digits, no leading zeros. */
const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d{0,18})$/;
/** Anything SQLite's numeric affinities might read as a number (a superset of what they convert). */
const NUMERIC_LOOKING = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// ---- hashing -----------------------------------------------------------------------------------------------------

/** Murmur3's finaliser: spreads every input bit over the 32 output bits. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const scratchFloat = new Float64Array(1);
const scratchWords = new Uint32Array(scratchFloat.buffer);

function hashNumber(value: number): number {
  if ((value | 0) === value) return mix32(value);
  scratchFloat[0] = value;
  return mix32(scratchWords[0] ^ mix32(scratchWords[1] + 0x9e3779b9));
}

// ---- distinct counting ---------------------------------------------------------------------------------------
//
// Each column counts its distinct values in one of two ways. While it has few (up to SMALL_DISTINCT), in a set:
// the set says at once whether a value is new, which keeps the first distinct values and min/max cheap (they can
// only change on a new value). Past that, every value is logged into flat typed arrays, appended in order (no
// random memory access per row, which on a 1M-row table cost more than everything else the statistics do), and
// the log is sorted once at the end to count the distinct values exactly.

/** Distinct values a column holds in a set before it switches to a log sorted at the end. */
const SMALL_DISTINCT = 2048;

/** Open-addressing set of doubles (NaN marks an empty slot; NaN is never stored, SQLite stores it as NULL). */
class NumberSet {
  slots = new Float64Array(64).fill(NaN);
  private mask = 63;
  size = 0;

  /** Adds `value` (never NaN, never -0); true when it was not in the set. */
  add(value: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let at = hashNumber(value) & mask;
    for (;;) {
      const slot = slots[at];
      if (slot === value) return false;
      if (slot !== slot) break;
      at = (at + 1) & mask;
    }
    slots[at] = value;
    if (++this.size * 2 > slots.length) this.grow();
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Float64Array(old.length * 2).fill(NaN);
    const mask = slots.length - 1;
    for (let i = 0; i < old.length; i++) {
      const value = old[i];
      if (value !== value) continue;
      let at = hashNumber(value) & mask;
      while (slots[at] === slots[at]) at = (at + 1) & mask;
      slots[at] = value;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/**
 * The distinct numbers of a column: a set while they are few, then a log of every value sorted at the end — unless
 * every new value of the set and every logged value was above all before it (an id counting up, a sorted time
 * column): then the logged values are all distinct and there is nothing to sort.
 */
class NumberDistinct {
  private set: NumberSet | undefined = new NumberSet();
  private log: Float64Array | undefined;
  private length = 0;
  private counted: number | undefined;
  /** The greatest value so far, while each new distinct value (set mode) or each logged value was above all before. */
  private top = -Infinity;
  private rising = true;

  /** True when the set holds few values (`add` then says whether a value is new). */
  get small(): boolean {
    return this.set !== undefined;
  }

  get bytes(): number {
    return this.log ? this.log.byteLength : 0;
  }

  /** In set mode: adds a value (never NaN, never -0); true when it is new. May switch to log mode. */
  addSmall(value: number): boolean {
    const set = this.set!;
    if (!set.add(value)) return false;
    if (this.rising) {
      if (value > this.top) this.top = value;
      else this.rising = false;
    }
    if (set.size > SMALL_DISTINCT) this.toLog(set);
    return true;
  }

  /** In log mode: logs a value (never NaN, never -0). */
  append(value: number): void {
    if (this.rising) {
      if (value > this.top) this.top = value;
      else this.rising = false;
    }
    if (this.length === this.log!.length) this.grow();
    this.log![this.length++] = value;
  }

  private toLog(set: NumberSet): void {
    this.set = undefined;
    this.log = new Float64Array(SMALL_DISTINCT * 8);
    for (const value of set.slots) if (value === value) this.log[this.length++] = value;
  }

  private grow(): void {
    const log = new Float64Array(this.log!.length * 2);
    log.set(this.log!);
    this.log = log;
  }

  /** The exact number of distinct values (call once, at the end: it sorts the log in place). */
  count(): number {
    if (this.counted !== undefined) return this.counted;
    if (this.set) return (this.counted = this.set.size);
    if (this.rising) {
      // The set's values were distinct, and each logged one was above every value before it.
      this.log = undefined;
      return (this.counted = this.length);
    }
    // Equal doubles have equal bits (no NaN, no -0 here): sorting the bit patterns natively groups equal values.
    const bits = new BigUint64Array(this.log!.buffer, 0, this.length);
    bits.sort();
    const words = new Uint32Array(this.log!.buffer, 0, this.length * 2);
    let distinct = this.length > 0 ? 1 : 0;
    for (let i = 1; i < this.length; i++) if (words[2 * i] !== words[2 * i - 2] || words[2 * i + 1] !== words[2 * i - 1]) distinct++;
    this.log = undefined;
    return (this.counted = distinct);
  }
}

/**
 * The distinct strings of a column: a set while they are few (of copies, so no parser chunk is kept alive: a CSV
 * field is a slice of its 64 KiB chunk), then a log of a 64-bit hash of every value (two independent 32-bit hashes),
 * sorted natively at the end and counted. The log holds no strings — 8 bytes a value — and is read in order.
 *
 * Two different strings with the same 64-bit hash would be counted once. For d distinct values the chance that any
 * two share a hash is at most d²/2^65 (2.7·10⁻⁸ for a million, 2.7·10⁻⁶ for ten million); a collision can only
 * lower the count, never raise it. So a count equal to the number of values is exact, and the profile asks SQLite
 * for a column whose count comes out just below its row count (`hashed`), where a collision could hide a key.
 */
class TextDistinct {
  private set: Set<string> | undefined = new Set();
  /** Per value: [second hash, first hash], so that as 64-bit words they sort by (first, second). */
  private log: Uint32Array | undefined;
  private length = 0;
  private counted: number | undefined;
  /**
   * The greatest string so far (in UTF-16 order: any strict order will do), while each new string of the set and
   * each logged one was above all before it; then the logged strings are all distinct and need no sorting.
   */
  private top: string | undefined;
  private rising = true;

  get small(): boolean {
    return this.set !== undefined;
  }

  get bytes(): number {
    return this.log ? this.log.byteLength : 0;
  }

  private rise(text: string): void {
    if (this.top === undefined || text > this.top) this.top = text;
    else {
      this.rising = false;
      this.top = undefined;
    }
  }

  /** In set mode: whether the string was seen. */
  has(text: string): boolean {
    return this.set!.has(text);
  }

  /** In set mode: adds a string not seen before. May switch to log mode. */
  insert(text: string): void {
    const set = this.set!;
    set.add(detached(text));
    if (this.rising) this.rise(text);
    if (set.size > SMALL_DISTINCT) this.toLog(set);
  }

  private toLog(set: Set<string>): void {
    this.set = undefined;
    this.log = new Uint32Array(SMALL_DISTINCT * 16);
    for (const text of set) {
      hashText(text);
      this.logHashes(hashedFirst, hashedSecond);
    }
  }

  /** In log mode: logs a string by its two hashes (`hashText` of it). */
  append(text: string, first: number, second: number): void {
    if (this.rising) this.rise(text);
    this.logHashes(first, second);
  }

  private logHashes(first: number, second: number): void {
    let log = this.log!;
    const at = this.length * 2;
    if (at === log.length) {
      const grown = new Uint32Array(log.length * 2);
      grown.set(log);
      log = this.log = grown;
    }
    log[at] = second;
    log[at + 1] = first;
    this.length++;
  }

  /** Whether the count may be low by a hash collision (it was counted from the log). */
  get hashed(): boolean {
    return this.set === undefined && !this.rising;
  }

  /** The number of distinct strings (call at the end: it sorts the log in place). */
  count(): number {
    if (this.counted !== undefined) return this.counted;
    if (this.set) return (this.counted = this.set.size);
    if (this.rising) {
      this.log = undefined;
      this.top = undefined;
      return (this.counted = this.length);
    }
    const n = this.length;
    new BigUint64Array(this.log!.buffer, 0, n).sort();
    const log = this.log!;
    let distinct = n > 0 ? 1 : 0;
    for (let i = 1; i < n; i++) if (log[2 * i] !== log[2 * i - 2] || log[2 * i + 1] !== log[2 * i - 1]) distinct++;
    this.log = undefined;
    return (this.counted = distinct);
  }
}

/** Set by `hashText`: the two 32-bit hashes of the string, and whether it has a code unit at or above U+D800 (then
 * JavaScript's `<` is not code point order). */
let hashedFirst = 0;
let hashedSecond = 0;
let hashedHigh = false;

/**
 * Hashes a string's UTF-16 code units twice — FNV-1a, and a multiply-rotate hash with another multiplier and seed —
 * each finalised with Murmur3's mixer, into `hashedFirst` / `hashedSecond`. False when the string holds a lone
 * surrogate (UTF-8 cannot store it as it is) or a NUL (sql.js returns the text before it).
 */
function hashText(text: string): boolean {
  let h = 0x811c9dc5;
  let g = 0x9747b28c;
  let high = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    high |= c;
    if ((c & 0xf800) === 0xd800 || c === 0) {
      // sql.js reads text only up to a NUL: what it returns would not be what was stored.
      if (c === 0) return false;
      // A high surrogate must be followed by a low one; a low one must follow a high one (checked at the high one).
      const next = text.charCodeAt(i + 1);
      if (c >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      h = Math.imul(h ^ c, 0x01000193);
      g = Math.imul(g + c, 0x5bd1e995);
      g = (g << 13) | (g >>> 19);
      i++;
      h = Math.imul(h ^ next, 0x01000193);
      g = Math.imul(g + next, 0x5bd1e995);
      g = (g << 13) | (g >>> 19);
      continue;
    }
    h = Math.imul(h ^ c, 0x01000193);
    g = Math.imul(g + c, 0x5bd1e995);
    g = (g << 13) | (g >>> 19);
  }
  hashedFirst = mix32(h ^ length);
  hashedSecond = mix32(g ^ Math.imul(length, 0x27d4eb2d));
  hashedHigh = high >= 0xd800;
  return true;
}

/**
 * Compares two strings in Unicode code point order, which is the byte order of their UTF-8 encodings (SQLite's
 * BINARY collation). JavaScript's `<` compares UTF-16 code units, which differs only where a surrogate pair meets
 * a character from U+E000 to U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (U+D800–DFFF) stand for code points above U+FFFF: move them above U+E000–FFFF.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** A copy of a string that shares no memory with the one it came from (a parser's slice keeps its whole chunk). */
function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf16le').toString('utf16le');
}

// ---- one column --------------------------------------------------------------------------------------------------

const KIND_NUMBER = 0;
const KIND_TEXT = 1;
const KIND_BIG = 2;

/** What `numericForm` says of a string in a column of numeric affinity. */
const NOT_NUMERIC = 0;
const CANONICAL = 1;
const OTHER_NUMERIC = 2;

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether SQLite's numeric affinities could convert a string: a canonical integer literal (stored as that integer),
 * something else that may read as a number (`+5`, `1e3`, ` 7`: left to SQLite), or not a number (kept as text).
 * Scans only as far as it must: `2020-01-01` is settled at its fifth character.
 */
function numericForm(text: string): number {
  const first = text.charCodeAt(0);
  let i = first === 45 ? 1 : 0; // '-'
  const digitsStart = i;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  const digits = i - digitsStart;
  if (i === text.length) {
    if (digits === 0) return NOT_NUMERIC;
    return (digits === 1 || text.charCodeAt(digitsStart) !== 48) && digits <= 19 ? CANONICAL : OTHER_NUMERIC;
  }
  const c = text.charCodeAt(i);
  // A sign, a decimal point, an exponent or whitespace may still make a number: the full pattern decides.
  if (c === 43 || c === 46 || c === 101 || c === 69 || c <= 32) return NUMERIC_LOOKING.test(text) ? OTHER_NUMERIC : NOT_NUMERIC;
  return NOT_NUMERIC;
}

class ColumnAccumulator {
  nonNull = 0;
  /** Set when a value's stored form cannot be predicted: the column's statistics are given up. */
  unknown = false;
  numbers: NumberDistinct | undefined = new NumberDistinct();
  texts: TextDistinct | undefined = new TextDistinct();
  /** Integers beyond 2^53 (from digit strings), by their canonical decimal text; rare. */
  bigs: Set<string> | undefined;
  /** Numbers beyond 2^53 seen (they could equal a big integer held as text). */
  unsafeNumbers = false;
  /** Set when the distinct logs were dropped for memory. */
  uncounted = false;
  minNumber = Infinity;
  maxNumber = -Infinity;
  numberCount = 0;
  minText: string | undefined;
  maxText: string | undefined;
  /** Whether minText / maxText hold a code unit at or above U+D800. */
  private minHigh = false;
  private maxHigh = false;
  readonly first: Array<number | string> = [];
  readonly firstKinds: number[] = [];
  private readonly ranged: boolean;

  constructor(readonly affinity: Affinity) {
    // Text is ranged only where the profile reads it: columns of numeric affinity (dates).
    this.ranged = affinity !== 'text';
  }

  add(value: string | number | null | undefined): void {
    if (this.unknown || value === null || value === undefined) return;
    if (typeof value === 'number') {
      if (value !== value) return; // SQLite stores NaN as NULL
      if (this.affinity === 'text') return this.giveUp(); // stored as SQLite formats the number
      this.addNumber(value === 0 ? 0 : value); // -0 binds as the integer 0
      return;
    }
    if (typeof value !== 'string') return this.giveUp();
    if (this.affinity !== 'text') {
      const form = numericForm(value);
      if (form === CANONICAL && this.affinity !== 'real') return this.addIntegerText(value);
      if (form !== NOT_NUMERIC) return this.giveUp();
    }
    this.addText(value);
  }

  private addNumber(value: number): void {
    this.nonNull++;
    this.numberCount++;
    const distinct = this.numbers;
    if (distinct && distinct.small) {
      // A value seen before changes nothing but the count.
      if (!distinct.addSmall(value)) return;
    } else if (distinct) distinct.append(value);
    if (value < this.minNumber) this.minNumber = value;
    if (value > this.maxNumber) this.maxNumber = value;
    if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) {
      this.unsafeNumbers = true;
      if (this.bigs) return this.giveUp();
    }
    this.noteFirst(value, KIND_NUMBER);
  }

  /** A canonical integer literal into an INTEGER or NUMERIC column: SQLite stores the integer. */
  private addIntegerText(text: string): void {
    const number = Number(text);
    if (Number.isSafeInteger(number)) return this.addNumber(number === 0 ? 0 : number);
    if (text.length >= 19) {
      const big = BigInt(text);
      if (big < INT64_MIN || big > INT64_MAX) return this.giveUp(); // stored as REAL
    }
    if (this.unsafeNumbers) return this.giveUp();
    this.nonNull++;
    this.numberCount++;
    // Ordering by the nearest double is monotone, and sql.js returns integers as doubles: min/max come out the same.
    if (number < this.minNumber) this.minNumber = number;
    if (number > this.maxNumber) this.maxNumber = number;
    if (!this.uncounted) {
      const bigs = (this.bigs ??= new Set());
      if (bigs.has(text)) return;
      bigs.add(text);
    }
    this.noteFirst(text, KIND_BIG);
  }

  private addText(text: string): void {
    const distinct = this.texts;
    let high: boolean;
    if (distinct && distinct.small) {
      if (distinct.has(text)) {
        this.nonNull++;
        return;
      }
      if (!hashText(text)) return this.giveUp();
      high = hashedHigh;
      distinct.insert(text);
    } else {
      if (!hashText(text)) return this.giveUp();
      high = hashedHigh;
      if (distinct) distinct.append(text, hashedFirst, hashedSecond);
    }
    this.nonNull++;
    if (this.ranged) this.range(text, high);
    this.noteFirst(text, KIND_TEXT);
  }

  /** min/max in code point order (JavaScript's own `<` where no string has a code unit from U+D800 up). */
  private range(text: string, high: boolean): void {
    // Kept as they are (detached at the end: the greatest of sorted dates changes on every row).
    if (this.minText === undefined || ((high || this.minHigh) ? compareCodePoints(text, this.minText) < 0 : text < this.minText)) {
      this.minText = text;
      this.minHigh = high;
    }
    if (this.maxText === undefined || ((high || this.maxHigh) ? compareCodePoints(text, this.maxText) > 0 : text > this.maxText)) {
      this.maxText = text;
      this.maxHigh = high;
    }
  }

  /**
   * Keeps a value among the first distinct ones. Set mode calls it with new values only; past it the first values
   * are long complete (a column switches to its log after SMALL_DISTINCT values), unless the counting was dropped
   * — then the first values themselves say what is new.
   */
  private noteFirst(value: number | string, kind: number): void {
    if (this.first.length >= FIRST_DISTINCT_VALUES) return;
    if (this.uncounted) {
      for (let i = 0; i < this.first.length; i++) if (this.first[i] === value && this.firstKinds[i] === kind) return;
    }
    this.first.push(typeof value === 'string' ? detached(value) : value);
    this.firstKinds.push(kind);
  }

  private giveUp(): void {
    this.unknown = true;
    this.numbers = undefined;
    this.texts = undefined;
    this.bigs = undefined;
  }

  get bytes(): number {
    return (this.numbers?.bytes ?? 0) + (this.texts?.bytes ?? 0) + (this.bigs?.size ?? 0) * 64;
  }

  /** Drops the distinct logs (memory); the column's distinct count is then left to SQLite. */
  dropCounting(): void {
    this.uncounted = true;
    this.numbers = undefined;
    this.texts = undefined;
    this.bigs = undefined;
  }

  result(): ColumnStatistics | undefined {
    if (this.unknown) return undefined;
    const stats: ColumnStatistics = {
      nonNull: this.nonNull,
      // As sql.js returns them: big integers as (nearest) doubles.
      first: this.first.map((value, i) => (this.firstKinds[i] === KIND_BIG ? Number(value) : value)),
    };
    if (!this.uncounted) {
      stats.distinct = (this.numbers?.count() ?? 0) + (this.texts?.count() ?? 0) + (this.bigs?.size ?? 0);
      if (this.texts?.hashed) stats.hashed = true;
    }
    // SQLite orders NULL < numbers < text: the least value is a number if there is one, the greatest a text.
    if (this.numberCount > 0) stats.min = this.minNumber;
    else if (this.minText !== undefined) stats.min = detached(this.minText);
    if (this.maxText !== undefined) stats.max = detached(this.maxText);
    else if (this.numberCount > 0) stats.max = this.maxNumber;
    return stats;
  }
}

/** Accumulates the statistics of one table's rows as they are inserted. */
export class TableStatisticsAccumulator {
  private readonly columns: ColumnAccumulator[];
  private rows = 0;
  private checkAt = 4096;

  constructor(
    private readonly specs: ReadonlyArray<{ name: string; type: ColumnType }>,
    private readonly budgetBytes = DISTINCT_BUDGET_BYTES,
  ) {
    this.columns = specs.map((spec) => new ColumnAccumulator(affinityOf(spec.type)));
  }

  /** Feeds one row (values in table column order, as bound to the INSERT). */
  add(values: ReadonlyArray<string | number | null>): void {
    const columns = this.columns;
    for (let c = 0; c < columns.length; c++) columns[c].add(values[c]);
    if (++this.rows === this.checkAt) this.keepInBudget();
  }

  /** Every few thousand rows: while the sets together use more than the budget, drop the largest one. */
  private keepInBudget(): void {
    this.checkAt = this.rows + 4096;
    for (;;) {
      let total = 0;
      let largest: ColumnAccumulator | undefined;
      for (const column of this.columns) {
        const bytes = column.bytes;
        total += bytes;
        if (!largest || bytes > largest.bytes) largest = column;
      }
      if (total <= this.budgetBytes || !largest || largest.bytes === 0) return;
      largest.dropCounting();
    }
  }

  result(): TableStatistics {
    return { rowCount: this.rows, columns: this.columns.map((column, i) => ({ name: this.specs[i].name, stats: column.result() })) };
  }
}
