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
  /** What this step finds, as an answer of its own: a multi-step task's intermediate result (the last step's is the task's answer). */
  subAnswer?: SubAnswer;
  /** Earlier steps (0-based) whose results this step's code uses (the top region found in step 1 is the filter of step 2). */
  uses?: number[];
}

/** An intermediate result of a task program, with its own key; a rubric criterion anchors to it. */
export interface SubAnswer {
  /** What the step finds, in words: "the region with the highest total revenue". */
  label: string;
  key: AnswerKey;
  /** The literal values later steps take from this result (as the code writes them), so a reader can trace them. */
  carries?: string[];
}

/** A task built as a program of executed steps: which composition, over which semantic roles. */
export interface TaskProgramInfo {
  /** The composition: drill-down, attribution, document-metric, reconciliation, clean-aggregate, partition-compare, distribution-subset, sql-python-statistics, cohort, funnel, or a single-step family. */
  composition: string;
  /** Executed reference steps. */
  steps: number;
  /** What the composition needed from the data, in words ("an additive measure, a dimension with 2–50 values, a time column"). */
  needs?: string;
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
  /** Which of the ten dependency kinds the task exercises (families of the task pool set it). */
  dependency?: DependencyKind;
  /** For task programs: the composition and its steps (each step's sub-answer is on its evidence step). */
  program?: TaskProgramInfo;
  /** Evidence-graph node ids the task rests on (tables, columns, sections it needs). */
  anchors?: string[];
  /** Anchored grading criteria; the agent never sees them. */
  rubric?: RubricCriterion[];
  /** What each environment file is to this task; the agent never sees them. */
  roles?: FileRole[];
  /** Documents (and sections) the reference solution reads. */
  documents?: Array<{ document: string; section?: string }>;
  /** Set by the task pool's validation. */
  validation?: TaskValidation;
  /** Set when the one-step revision after exploration changed or rejected the task. */
  revision?: TaskRevisionRecord;
}

/** One changed field, before and after (`rubric.<criterion id>` for rubric changes; null = added / removed). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What a revised (or rejected) task records about its revision; the Tasks view and `toffee revisions` show it. */
export interface TaskRevisionRecord {
  /** The task id the revision started from (a question change gives the task a new id). */
  of: string;
  outcome: 'revised' | 'rejected';
  /** 'rules' (offline), or 'llm:<model>'. */
  reviser: string;
  findings: Array<{ check: 'executable' | 'supported' | 'anchors' | 'ambiguity' | 'verification'; detail: string }>;
  diff: FieldChange[];
  /** What followed: a changed question is explored again; a rubric-only change re-scores the trajectories. */
  action: 're-explored' | 're-scored' | 'none';
  reason?: string;
}

/** The ten dependency kinds the task pool discovers (issue 4). */
export type DependencyKind =
  | 'join-key'
  | 'group-contrast'
  | 'correlation'
  | 'change-over-time'
  | 'top-k'
  | 'conditional-rate'
  | 'outlier'
  | 'reconciliation'
  | 'document-parameter'
  | 'data-quality';

/** How a criterion is checked: mechanically from the trajectory, or by an LLM judge (`text`). */
export type RubricCheck =
  | { kind: 'uses_table'; table: string }
  | { kind: 'uses_column'; table: string; column: string }
  | { kind: 'joins_on'; left: { table: string; column: string }; right: { table: string; column: string } }
  | { kind: 'final_value'; answer: AnswerKey }
  | { kind: 'reports_values'; values: string[] }
  | { kind: 'uses_document'; document: string; section?: string }
  | { kind: 'uses_parameter'; value: number }
  /** A task program's intermediate result, reached when an observation (or the final answer) states it. */
  | { kind: 'sub_answer'; step: number; answer: AnswerKey }
  | { kind: 'text'; instruction: string };

export interface RubricCriterion {
  /** Stable within the task: `c1`, `c2`, … */
  id: string;
  /** Positive criteria earn their weight; negative ones (weight < 0) cost it when they hold. */
  polarity: 'positive' | 'negative';
  weight: number;
  description: string;
  /** Evidence-graph node ids the criterion rests on. */
  anchors: string[];
  check: RubricCheck;
}

export type FileRoleKind = 'core' | 'supporting' | 'confuser' | 'ambient';

export interface FileRole {
  /** Path relative to the environment root. */
  file: string;
  role: FileRoleKind;
  /** Tables (or the document) from the file that gave it the role. */
  items: string[];
  why: string;
}

export interface TaskValidation {
  status: 'valid' | 'rejected';
  /** Why it was rejected (one line per failed check); empty when valid. */
  reasons: string[];
  evidenceStable: boolean;
  replayed: boolean;
  /** Offline there is no model to ask, so the no-data check is skipped, never assumed to pass. */
  noDataCheck: 'passed' | 'failed' | 'skipped';
  /** Who phrased the question (set for selected tasks): the configured model, or the deterministic template. */
  phrasing?: PhrasingRecord;
}

/** How a selected task's question was phrased, and why (a fallback to the template always says why). */
export interface PhrasingRecord {
  source: 'llm' | 'template';
  reason: string;
  model?: string;
  /** The template question the model rewrote (when the rewrite was used). */
  templateQuestion?: string;
  /** A rewrite that failed validation, kept for inspection. */
  rejectedRewrite?: string;
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
