/** Benchmarks whose folders TOFFEE can open as data environments. */

import type { DataEnvironment } from '../env/types';
import type { ContaminationReference } from '../taskpool/types';

export type BenchmarkKind = 'spider' | 'bird' | 'livesqlbench' | 'spreadsheetbench';

/** One environment a benchmark folder offers: a database (Spider, BIRD, LiveSQLBench) or an instruction's workbook. */
export interface BenchmarkEntry {
  kind: BenchmarkKind;
  /** `db_id`, database name, or instruction id. */
  id: string;
  /** For spreading a sample: the db id without its numeric suffix (`car_1` → `car`), or the instruction type. */
  domain: string;
  /** Data files (absolute paths) the environment is built from: a SQLite database or an input workbook. */
  dataFiles: string[];
  /** Schema size when the benchmark's metadata says (tables.json, column meanings). */
  tables?: number;
  columns?: number;
  /** Bytes of the data files. */
  sizeBytes: number;
  /** The benchmark's questions for this environment (its evaluation items): never to be generated again. */
  questions: string[];
  /** Benchmark files that hold its evaluation items (question files, answer workbooks), absolute paths. */
  evaluationFiles: string[];
  /** Kind-specific metadata files, absolute paths. */
  sources: {
    /** BIRD: `database_description/` folder of per-table column description CSVs. */
    descriptionDir?: string;
    /** Spider/BIRD: this database's item of tables.json. */
    schema?: SpiderSchema;
    /** LiveSQLBench: knowledge base (JSONL), column meanings (JSON), schema text. */
    knowledgeBase?: string;
    columnMeanings?: string;
    schemaText?: string;
    /** SpreadsheetBench: what the instruction asks for, for the record. */
    instructionType?: string;
    answerPosition?: string;
  };
}

/** One item of Spider/BIRD `tables.json`. */
export interface SpiderSchema {
  db_id: string;
  table_names_original: string[];
  table_names?: string[];
  /** [table index (-1 for `*`), column name] */
  column_names_original: Array<[number, string]>;
  column_names?: Array<[number, string]>;
  column_types?: string[];
  primary_keys?: Array<number | number[]>;
  foreign_keys?: Array<[number, number]>;
}

export interface BenchmarkCatalog {
  /** Absolute path of the benchmark folder. */
  root: string;
  /** The layout found (the most common kind among entries when a folder mixes them). */
  kind: BenchmarkKind;
  entries: BenchmarkEntry[];
  /** Things skipped or odd in the folder, one line each. */
  notes: string[];
}

/** What `.toffee/benchmark.json` in a prepared environment folder records about where it came from. */
export interface BenchmarkProvenance {
  kind: BenchmarkKind;
  id: string;
  benchmarkRoot: string;
  dataFiles: Array<{ source: string; file: string; sha256: string; linked: boolean }>;
  generatedDocuments: string[];
  preparedAt: string;
}

export interface PreparedBenchmarkEnvironment {
  entry: BenchmarkEntry;
  /** The environment folder: data files (linked or copied), generated documents, `.toffee/contamination.json`. */
  folder: string;
  contamination: ContaminationReference[];
  provenance: BenchmarkProvenance;
}

export interface OpenedBenchmarkEnvironment extends PreparedBenchmarkEnvironment {
  environment: DataEnvironment;
}
