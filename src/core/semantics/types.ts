/**
 * What the data means: the semantic profile of a data environment. Every fact carries where it came from — a rule
 * (which one), a data dictionary (which file), the database schema, or the user's `toffee.semantics.json` — and a
 * confidence, so the task pool, the agent's tools and the UI can all say why they treat a column as they do.
 */
import type { DataEnvironment, FileDiagnostic } from '../env/types';

/** What a column is for. */
export type ColumnRole = 'identifier' | 'dimension' | 'ordinal' | 'measure' | 'time' | 'flag' | 'geo' | 'text' | 'structured' | 'binary';

export const COLUMN_ROLES: readonly ColumnRole[] = ['identifier', 'dimension', 'ordinal', 'measure', 'time', 'flag', 'geo', 'text', 'structured', 'binary'];

/** Kimball's classes of facts: what summing a measure means. */
export type Additivity = 'additive' | 'semi-additive' | 'non-additive';

/** The aggregation a question should use by default. */
export type Aggregation = 'sum' | 'avg' | 'count' | 'count-distinct' | 'min-max' | 'none';

export type TimeGrain = 'datetime' | 'day' | 'week' | 'month' | 'quarter' | 'year' | 'month-of-year' | 'day-of-week' | 'hour-of-day' | 'other';

/** Where a fact came from. */
export type FactSource =
  | { kind: 'rule'; rule: string }
  | { kind: 'schema'; detail: string }
  | { kind: 'dictionary'; file: string; line?: number }
  | { kind: 'user'; file: string; line?: number };

export interface Fact<T> {
  value: T;
  /** 0..1: how sure the source is. A user's correction is 1. */
  confidence: number;
  source: FactSource;
  /** One line: why (the evidence the rule saw). */
  why: string;
}

/** A kind of identifier. */
export type IdentifierKind = 'primary-key' | 'foreign-key' | 'row-index' | 'code';

/** A kind of place. */
/** `geometry`: a shape written for machines (WKT `LINESTRING(…)`, GeoJSON), a point, a track or an area. */
export type GeoKind = 'latitude' | 'longitude' | 'country' | 'state' | 'county' | 'city' | 'postal-code' | 'address' | 'region' | 'geometry';

/** A machine format. */
export type StructuredKind = 'json' | 'url' | 'email' | 'phone' | 'path' | 'list' | 'version' | 'crs' | 'colour' | 'chemical' | 'code';

/** How a dimension's number of distinct values suits grouping: ≤ 12 ideal, ≤ 50 usable, more is too many. */
export type CardinalityBand = 'ideal' | 'usable' | 'high';

export type UnitKind = 'currency' | 'percent' | 'count' | 'duration' | 'distance' | 'temperature' | 'weight' | 'area' | 'volume' | 'speed' | 'ratio' | 'other';

export interface Unit {
  kind: UnitKind;
  /** As a reader writes it: "USD", "%", "minutes", "°C", "mm". */
  label: string;
}

/** How a time column is stored and read. */
export interface TimeInfo {
  /**
   * `iso-date` / `iso-datetime`: ISO text (any date layout of the file was converted at load); `year`: a number
   * such as 1978; `epoch-s` / `epoch-ms`: Unix time; `period`: `YYYY-MM` text; `month-name` / `weekday-name`: names;
   * `month-number`: 1–12; `mixed`: dates in several layouts, kept as the file writes them (needs cleaning);
   * `epoch-days`: days since 1970-01-01; `excel-serial`: a spreadsheet's day numbers (days since 1899-12-30).
   */
  storage: 'iso-date' | 'iso-datetime' | 'year' | 'epoch-s' | 'epoch-ms' | 'epoch-days' | 'excel-serial' | 'period' | 'month-name' | 'month-number' | 'day-number' | 'weekday-name' | 'hour' | 'mixed' | 'text';
  grain: TimeGrain;
  /** The layout in the file, e.g. `M/D/YYYY`, `YYYY`, `Unix seconds`. */
  layout?: string;
  /** First and last value as ISO text (dates) or as stored (years, periods), when known. */
  min?: string;
  max?: string;
  /** An SQL expression over the column (written `{col}`) that gives an ISO date or datetime; absent when stored as one. */
  isoExpression?: string;
}

export interface ColumnSemantics {
  table: string;
  column: string;
  role: Fact<ColumnRole>;
  identifier?: IdentifierKind;
  geo?: GeoKind;
  structured?: StructuredKind;
  /** Dimensions, ordinals and flags: how well the distinct values suit a GROUP BY. */
  cardinality?: CardinalityBand;
  /** Measures only. */
  additivity?: Fact<Additivity>;
  /** The default aggregation: SUM for additive measures, AVG for the others, COUNT for identifiers, none for text. */
  aggregation: Aggregation;
  unit?: Fact<Unit>;
  time?: TimeInfo;
  /** From a data dictionary or the user. */
  description?: Fact<string>;
  /** Set when the column is computed from others of its table (`total = quantity × price`). */
  derivedFrom?: { columns: string[]; relation: string };
  /**
   * The codes a file writes for a value not known (`-9` among distances of 0 to 10 km, `-999`, the
   * only value below zero, on a measure; or those its codebook names, NLS's refusal -1 and valid skip -4, on any
   * column), each with the rows that hold it: a total, mean or outlier would count them as numbers, a grouping as answers.
   */
  missingCodes?: Array<{ value: number; rows: number }>;
}

export type TableKind = 'entity' | 'lookup' | 'fact' | 'event' | 'snapshot' | 'bridge' | 'derived';

export interface TableSemantics {
  table: string;
  kind: Fact<TableKind>;
  /** Derived tables and views: the base tables they read. */
  derivedFrom?: string[];
  /** Set on a table that is one file of a partitioned dataset. */
  partition?: { name: string; value: string };
  description?: Fact<string>;
  /**
   * Set on a table whose rows describe other tables (a codebook: one row per column of the data, with its type and
   * description): its counts are fixed by the schema, so no task asks about it as data.
   */
  metadata?: { describes: string[]; why: string };
  /**
   * Columns that name other rows of the same table by its key (a district's `county_la`, a council's `replaced_by`):
   * the table holds things at several levels, or before and after, so its amounts summed over all rows count some
   * of them twice.
   */
  nested?: { columns: string[]; key: string; why: string };
}

export interface ColumnRef {
  table: string;
  column: string;
}

export type Relationship =
  /** Many-to-one: every (or nearly every) child value is a key of the parent. */
  | { kind: 'foreign-key'; child: ColumnRef; parent: ColumnRef; containment: number; byName: boolean; source: FactSource; why: string }
  /** Two tables with the same key set, one row each per key (parallel tables: not parent and child). */
  | { kind: 'one-to-one'; left: ColumnRef; right: ColumnRef; source: FactSource; why: string }
  /** A view or table computed from base tables. */
  | { kind: 'derived-table'; table: string; from: string[]; source: FactSource; why: string }
  /** A column computed from other columns of its table (exactly, or |r| ≥ 0.999). */
  | { kind: 'derived-column'; table: string; column: string; from: string[]; relation: string; source: FactSource; why: string };

/** Several tables with the same columns, one per file (per station, year, region): one logical dataset. */
export interface Partition {
  name: string;
  tables: Array<{ table: string; value: string; file: string }>;
  /** What the file names vary by, in words ("season", "year", "station"). */
  key: string;
  columns: string[];
  /** The union view in the image (`SELECT '<value>' AS <key>, * FROM …`), when one was made. */
  view?: string;
  why: string;
}

/** One column described by a document. */
export interface DictionaryEntry {
  /** The document (environment-relative) and the line the description is on. */
  file: string;
  line?: number;
  /** The data file (or table) the entry is scoped to, when the document says (a heading, a link, a descriptor's resource). */
  scope?: string;
  column: string;
  description: string;
  /** The description with the acronyms its document spells out written out ("API (Academic Performance Index) in 2000"). */
  spelledOut?: string;
  unit?: string;
  /** A type the dictionary states (`integer`, `date`, `character`). */
  declaredType?: string;
  /** Set when the entry is a row of a codebook table of the environment (`view_variable`): that table's name. */
  codebook?: string;
  /** The heading of the section the entry is under (`countries`), which may name its table without naming a file. */
  heading?: string;
  /** How many codes the entry lists for the column's values (`1: Sun`, `2: Moon`): a coded category when two or more. */
  codes?: number;
  /** Codes the document says stand for an answer not had (NLS's refusal -1, don't know -2, valid skip -4). */
  missingCodes?: number[];
}

/**
 * A measure whose value is fixed by a parent key within its table (every row of one election has the same chamber
 * size): a fact of the parent copied onto each child row. Summed or averaged over the rows it counts each parent once
 * per child; it is aggregated over the parents (`SELECT DISTINCT parent, column`) or asked in the parent's own table.
 */
export interface RepeatedValue {
  table: string;
  column: string;
  /** The column whose value fixes it (`election_id`). */
  parent: string;
  /** How many parents, and how many of them have more than one row. */
  parents: number;
  why: string;
}

/**
 * The same data twice: two tables with the same columns and the same rows (a CSV and a workbook sheet of one view),
 * or two columns of one table that determine each other (`country_name_short` ↔ `country_name`).
 */
export interface TwinTables {
  /** The one tasks are asked over. */
  kept: string;
  /** The copies, asked over no more. */
  copies: string[];
  why: string;
}

export interface TwinColumns {
  table: string;
  /** The column that reads as words (`country_name`), which tasks group by. */
  kept: string;
  /** Its code (`country_name_short`), the same grouping spelt otherwise. */
  copy: string;
  why: string;
}

/**
 * A column whose rows per value the layout fixes, not the world: a seat within a parent (judge `J1`…`J9` of each
 * panel, one row each), a partition's file key that names no attribute (`part` a…e) — counting rows by it counts
 * parents or file lengths — or the kind of record a row is, where each kind fills columns of its own (an element or
 * a component of a skating score): a measure means something else in each kind.
 */
export interface LayoutColumn {
  table: string;
  column: string;
  kind: 'slot' | 'file-part' | 'row-kind';
  why: string;
}

/**
 * Rows of a table whose dimension value is a total of the other rows ('Total Domestic' beside the airlines, 'World'
 * beside the countries): summed with their parts they count twice, so aggregates and groupings leave them out.
 */
export interface TotalRows {
  table: string;
  /** The dimension column holding the labels (`airline`). */
  column: string;
  /** The labels of the total rows (`Total Domestic`, `Total International`). */
  values: string[];
  /** How many rows carry them. */
  rows: number;
  /**
   * What the data showed: `sum-of-rest` — a label's measures equal the sum of the other rows of its group;
   * `sum-of-parts` — the labels' rows together equal it (each totals a part); `largest` — at least every other row and
   * at most their sum (a total of some of them); `word` — no measure to check, the bare word in a short dimension;
   * `group-of-places` — among country names, the name of a group of countries (a continent, `World`, `EU-27`,
   * `OECD`, an income group, `Asia (excl. China & India)`); `unallocated` — rows of what no entity of the column holds
   * (BEIS's local authority 'Unallocated': gas no authority's meters took), no total, but no entity either. The
   * strongest of its labels' evidence; `confidence` is the weakest's.
   */
  evidence: 'sum-of-rest' | 'sum-of-parts' | 'largest' | 'word' | 'group-of-places' | 'other-levels' | 'unallocated';
  /**
   * `other-levels`: the one level of a stacked geography the rows are kept at (`LEPplus` of `geography_type`), the
   * others (`Country`, `Nation`, `Region`) being the excluded `values`: areas of different levels overlap.
   */
  keep?: string;
  /** `other-levels`: what the levels are of — areas of a geography (which overlap) or classes of a classification (which nest). */
  levels?: 'areas' | 'classes';
  confidence: number;
  /** The other keys the total rows total within (`year`, `month`); empty for the whole table. */
  grouping: string[];
  why: string;
}

export interface SemanticProfile {
  columns: ColumnSemantics[];
  tables: TableSemantics[];
  relationships: Relationship[];
  partitions: Partition[];
  dictionary: DictionaryEntry[];
  /** Measures fixed by a parent key within their table (repeated.ts). */
  repeated?: RepeatedValue[];
  /** Tables that are copies of another, and columns that are another's code (duplicates.ts). */
  twinTables?: TwinTables[];
  twinColumns?: TwinColumns[];
  /** Columns whose rows per value the layout fixes (layout.ts). */
  layout?: LayoutColumn[];
  /** Rows that total the other rows of their table (totals.ts). */
  totalRows?: TotalRows[];
  /** The user's corrections file, when there is one: how many entries applied. */
  corrections?: { file: string; applied: number };
  /** Problems found while inferring (a bad corrections file, a mixed-layout date column). */
  diagnostics: FileDiagnostic[];
  elapsedMs: number;
}

/** A data environment with what its data means. */
export interface SemanticEnvironment extends DataEnvironment {
  semantics: SemanticProfile;
}
