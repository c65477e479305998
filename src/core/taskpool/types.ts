/** A task: a question about a data environment with an answer TOFFEE computed itself, and how it got it. */

export type AnswerKey =
  | { type: 'number'; value: number; tolerance: number }
  | { type: 'string'; value: string }
  | { type: 'list'; values: string[]; ordered: boolean }
  | { type: 'table'; columns: string[]; rows: unknown[][] };

/** One step of the reference solution, executed against the environment when the task was built. */
export interface EvidenceStep {
  tool: 'run_sql' | 'run_python';
  code: string;
  /** Why this step is there, in plain words (also what a simulated model "thinks"). */
  purpose: string;
  /** Columns and first rows of the result, as executed. */
  result?: { columns: string[]; rows: unknown[][] };
}

export interface TaskDifficulty {
  steps: number;
  tables: number;
  joins: number;
  /** Uses aggregation, window functions, or Python. */
  aggregation: boolean;
  window: boolean;
  python: boolean;
  level: 'easy' | 'medium' | 'hard';
}

export interface TaskSpec {
  /** Stable: the same environment and family parameters give the same id. */
  id: string;
  family: string;
  question: string;
  answer: AnswerKey;
  evidence: EvidenceStep[];
  difficulty: TaskDifficulty;
  /** SQL tables the reference solution reads. */
  tables: string[];
}

/**
 * What generated tasks must not overlap: a benchmark's evaluation items for an environment.
 * Written by the benchmark importers; read by the task pool's contamination audit.
 */
export interface ContaminationReference {
  /** Where it came from, e.g. "spider:concert_singer" or a folder path. */
  source: string;
  /** The benchmark's questions (natural language) for this environment. */
  questions: string[];
  /** SHA-256 (hex) of the benchmark's data files. */
  fileHashes: string[];
}
