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
const ANY = INTEGER | REAL | BOOLEAN | DATE | DATETIME;

// No leading zeros (zip codes and ids like 007 stay text), at most 18 digits (fits SQLite's int64).
const INTEGER_PATTERN = /^-?(?:0|[1-9]\d{0,17})$/;
const REAL_PATTERN = /^-?(?:0|[1-9]\d*)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// ISO `YYYY-MM-DD` and the slashed `YYYY/MM/DD` many exports write (one separator throughout); slashed values are
// stored in ISO form so SQLite's date functions (strftime, julianday) read them.
const DATE_PATTERN = /^\d{4}([-/])\d{2}\1\d{2}$/;
const DATETIME_PATTERN = /^\d{4}([-/])\d{2}\1\d{2}[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Month 01–12 and day 01–31 of a value already matching `YYYY-MM-DD…` (no match arrays: this runs per cell). */
function validMonthDay(value: string): boolean {
  const month = (value.charCodeAt(5) - 48) * 10 + (value.charCodeAt(6) - 48);
  const day = (value.charCodeAt(8) - 48) * 10 + (value.charCodeAt(9) - 48);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** A date or datetime value in ISO form: `2001/01/31 06:55` → `2001-01-31 06:55`; ISO values are returned as they are. */
export function isoDateText(value: string): string {
  return value.charCodeAt(4) === 47 ? `${value.slice(0, 4)}-${value.slice(5, 7)}-${value.slice(8)}` : value;
}

/** Which types a single trimmed, non-empty text value could belong to (a bit set). */
export function candidateTypesOf(value: string): number {
  const first = value.charCodeAt(0);
  const startsNumeric = (first >= 48 && first <= 57) || first === 45 /* - */ || first === 46; /* . */
  if (startsNumeric) {
    if (INTEGER_PATTERN.test(value)) return INTEGER | REAL;
    const separator = value.charCodeAt(4);
    if (value.length >= 10 && (separator === 45 /* - */ || separator === 47) /* / */) {
      if (value.length === 10) return DATE_PATTERN.test(value) && validMonthDay(value) ? DATE | DATETIME : 0;
      return DATETIME_PATTERN.test(value) && validMonthDay(value) ? DATETIME : 0;
    }
    // A number needs a digit; long digit strings lose precision as doubles, so they stay text.
    if (REAL_PATTERN.test(value) && /\d/.test(value) && value.replace(/[^0-9]/g, '').length <= 17) return REAL;
    return 0;
  }
  const lower = value.length <= 5 ? value.toLowerCase() : '';
  return lower === 'true' || lower === 'false' ? BOOLEAN : 0;
}

/** Accumulates candidate types over the values of one column. */
export class ColumnTypeTracker {
  private candidates = ANY;
  nonEmptyCount = 0;

  /** Feeds one raw text cell; empty and whitespace-only cells are NULL and do not count. */
  addText(raw: string): void {
    if (raw === '') return;
    let value = raw;
    const last = raw.charCodeAt(raw.length - 1);
    if (raw.charCodeAt(0) <= 32 || last <= 32) {
      value = raw.trim();
      if (value === '') return;
    }
    this.nonEmptyCount++;
    if (this.candidates !== 0) this.candidates &= candidateTypesOf(value);
  }

  /** Feeds a JSON value (numbers and booleans keep their JSON type; strings are only checked for dates). */
  addJson(value: unknown): void {
    if (value === null || value === undefined) return;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed === '') return;
      this.nonEmptyCount++;
      const candidates = candidateTypesOf(trimmed);
      this.candidates &= candidates & (DATE | DATETIME);
      return;
    }
    this.nonEmptyCount++;
    if (typeof value === 'number') this.candidates &= Number.isInteger(value) && Number.isSafeInteger(value) ? INTEGER | REAL : REAL;
    else if (typeof value === 'boolean') this.candidates &= BOOLEAN;
    else this.candidates = 0;
  }

  get type(): ColumnType {
    if (this.nonEmptyCount === 0 || this.candidates === 0) return 'text';
    if (this.candidates & INTEGER) return 'integer';
    if (this.candidates & REAL) return 'real';
    if (this.candidates & BOOLEAN) return 'boolean';
    if (this.candidates & DATE) return 'date';
    return 'datetime';
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
export function textCellToSql(raw: string | undefined, type: ColumnType): string | number | null {
  if (raw === undefined || raw === '') return null;
  const last = raw.charCodeAt(raw.length - 1);
  const trimmed = raw.charCodeAt(0) <= 32 || last <= 32 ? raw.trim() : raw;
  if (trimmed === '') return null;
  switch (type) {
    case 'integer':
      // Up to 15 digits is exact as a double; longer ones go in as text and INTEGER affinity converts them exactly.
      return trimmed.length <= 15 ? Number(trimmed) : trimmed;
    case 'real':
      return Number(trimmed);
    case 'boolean':
      return trimmed.toLowerCase() === 'true' ? 1 : 0;
    case 'date':
    case 'datetime':
      return isoDateText(trimmed);
    case 'text':
      return raw;
  }
}

/** Converts a JSON value to the value stored for a column of `type`. */
export function jsonCellToSql(value: unknown, type: ColumnType): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    return type === 'date' || type === 'datetime' ? isoDateText(trimmed) : value;
  }
  if (typeof value === 'boolean') return type === 'boolean' ? (value ? 1 : 0) : String(value);
  if (typeof value === 'number') return type === 'integer' || type === 'real' ? value : String(value);
  return JSON.stringify(value);
}
