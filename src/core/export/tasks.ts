/**
 * The task pool as benchmark files, so users can evaluate any agent on their own environment:
 * KramaBench-style (`id`, `query`, `answer`, `answer_type`, `data_sources`, `subtasks`) and Spider/BIRD-style
 * (`db_id`, `question`, `SQL`, `evidence`). Answers come from the task's answer key; SQL and subtasks from its
 * executed reference solution.
 */
import type { DataDocument, EnvironmentProfile } from '../env/types';
import type { AnswerKey, TaskSpec } from '../taskpool/types';

export interface KramaBenchSubtask {
  id: string;
  query: string;
  data_sources: string[];
  answer: unknown;
  /** The reference code that produced the subtask's answer (SQL or Python). */
  code: string;
  tool: string;
}

export interface KramaBenchTask {
  id: string;
  query: string;
  answer: unknown;
  answer_type: string;
  data_sources: string[];
  subtasks: KramaBenchSubtask[];
  family: string;
  difficulty: string;
  /** Numeric tolerance of the answer key (numeric_approximate only). */
  tolerance?: number;
}

export interface SpiderTask {
  question_id: number;
  db_id: string;
  question: string;
  /** BIRD's key for the gold query; `query` is Spider's. */
  SQL: string;
  query: string;
  evidence: string;
  difficulty: 'simple' | 'moderate' | 'challenging';
  /** The gold answer from the task's answer key, for evaluators that compare results. */
  answer: unknown;
  task_id: string;
}

export function answerTypeOf(key: AnswerKey): string {
  switch (key.type) {
    case 'number':
      return key.tolerance > 0 ? 'numeric_approximate' : 'numeric_exact';
    case 'string':
      return 'string_exact';
    case 'list':
      return key.ordered ? 'list_exact' : 'list_approximate';
    case 'table':
      return 'table';
  }
}

export function answerValueOf(key: AnswerKey): unknown {
  switch (key.type) {
    case 'number':
    case 'string':
      return key.value;
    case 'list':
      return key.values;
    case 'table':
      return { columns: key.columns, rows: key.rows };
  }
}

/** Files the task's tables come from (relative to the environment root); table names when no profile is known. */
export function dataSourcesOf(task: TaskSpec, profile?: EnvironmentProfile): string[] {
  const files = new Set<string>();
  for (const table of task.tables) {
    const found = profile?.tables.find((t) => t.name === table);
    files.add(found ? found.sourceFile : table);
  }
  for (const doc of task.documents ?? []) {
    const found = profile?.documents.find((d) => d.name === doc.document);
    files.add(found ? found.sourceFile : doc.document);
  }
  return [...files];
}

/** The value a subtask's result table holds: one cell as a scalar, else the rows. */
function resultAnswer(result: { columns: string[]; rows: unknown[][] } | undefined): unknown {
  if (!result) return null;
  if (result.rows.length === 1 && result.rows[0].length === 1) return result.rows[0][0];
  return { columns: result.columns, rows: result.rows };
}

export function toKramaBenchTask(task: TaskSpec, profile?: EnvironmentProfile): KramaBenchTask {
  const sources = dataSourcesOf(task, profile);
  const out: KramaBenchTask = {
    id: task.id,
    query: task.question,
    answer: answerValueOf(task.answer),
    answer_type: answerTypeOf(task.answer),
    data_sources: sources,
    subtasks: task.evidence.map((step, i) => ({
      id: `${task.id}-${i + 1}`,
      query: step.purpose,
      data_sources: sources,
      answer: resultAnswer(step.result),
      code: step.code,
      tool: step.tool,
    })),
    family: task.family,
    difficulty: task.difficulty.level,
  };
  if (task.answer.type === 'number' && task.answer.tolerance > 0) out.tolerance = task.answer.tolerance;
  return out;
}

/** BIRD-style external knowledge: the document sections the reference solution read. */
export function evidenceText(task: TaskSpec, documents: DataDocument[] = []): string {
  const parts: string[] = [];
  for (const ref of task.documents ?? []) {
    const doc = documents.find((d) => d.name === ref.document);
    const sections = doc?.sections.filter((s) => !ref.section || s.heading === ref.section) ?? [];
    const text = sections.map((s) => s.text.trim()).filter(Boolean).join(' ');
    parts.push(text ? text.replace(/\s+/g, ' ') : `See ${ref.document}${ref.section ? ` § ${ref.section}` : ''}.`);
  }
  return parts.join(' ');
}

const SPIDER_DIFFICULTY = { easy: 'simple', medium: 'moderate', hard: 'challenging' } as const;

/**
 * Spider/BIRD items need one gold SQL query: the last SQL step of the reference solution, when the solution is
 * pure SQL. Tasks whose solution needs Python have no gold SQL and are returned in `skipped` with the reason.
 */
export function toSpiderTasks(tasks: TaskSpec[], dbId: string, documents: DataDocument[] = []): { items: SpiderTask[]; skipped: Array<{ taskId: string; reason: string }> } {
  const items: SpiderTask[] = [];
  const skipped: Array<{ taskId: string; reason: string }> = [];
  for (const task of tasks) {
    const sqlSteps = task.evidence.filter((s) => s.tool === 'run_sql');
    if (task.evidence.some((s) => s.tool === 'run_python')) {
      skipped.push({ taskId: task.id, reason: 'the reference solution uses Python, so there is no single gold SQL query' });
      continue;
    }
    if (sqlSteps.length === 0) {
      skipped.push({ taskId: task.id, reason: 'the reference solution has no SQL step' });
      continue;
    }
    const sql = sqlSteps[sqlSteps.length - 1].code.trim().replace(/;\s*$/, '');
    items.push({
      question_id: items.length,
      db_id: dbId,
      question: task.question,
      SQL: sql,
      query: sql,
      evidence: evidenceText(task, documents),
      difficulty: SPIDER_DIFFICULTY[task.difficulty.level],
      answer: answerValueOf(task.answer),
      task_id: task.id,
    });
  }
  return { items, skipped };
}
