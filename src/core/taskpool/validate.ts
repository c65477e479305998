/**
 * Task validation: the evidence re-runs to the same results, the reference solution replays through the agent's
 * own tool layer (executeToolCall, the path an agent takes) to the answer key, the task is not trivial, and it
 * is not a near-duplicate of a task already kept.
 */
import { executeToolCall } from '../agent/tools';
import type { ToolContext } from '../agent/tools';
import type { EnvironmentProfile } from '../env/types';
import { matchesAnswer, normalizeText } from './answer';
import type { AnswerKey, TaskSpec } from './types';

/** The answer the rows of the last evidence step state: first cell, or first column for lists and tables. */
export function statedAnswer(answer: AnswerKey, columns: string[], rows: unknown[][]): string {
  if (answer.type === 'list' || answer.type === 'table') return rows.map((r) => String(r[0])).join(', ');
  return rows.length > 0 ? String(rows[0][0]) : '';
}

function sameRows(a: unknown[][], b: unknown[][]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface EvidenceCheck {
  stable: boolean;
  replayed: boolean;
  reasons: string[];
}

/** Re-runs every step through executeToolCall and compares with the recorded results and the answer key. */
export async function checkEvidence(task: TaskSpec, context: ToolContext): Promise<EvidenceCheck> {
  const reasons: string[] = [];
  let stable = true;
  let lastText = '';
  for (const [index, step] of task.evidence.entries()) {
    const args = step.tool === 'run_sql' ? { query: step.code } : { code: step.code };
    const observation = await executeToolCall(context, { name: step.tool, arguments: JSON.stringify(args) });
    if (!observation.ok) {
      reasons.push(`replay failed at step ${index + 1}: ${observation.data.kind === 'error' ? observation.data.message : observation.text}`);
      return { stable: false, replayed: false, reasons };
    }
    if (observation.data.kind === 'rows') {
      const recorded = step.result?.rows ?? [];
      if (!sameRows(observation.data.rows.slice(0, recorded.length), recorded)) {
        stable = false;
        reasons.push(`unstable evidence: step ${index + 1} returned different rows on re-run`);
      }
      lastText = statedAnswer(task.answer, observation.data.columns, observation.data.rows);
      if (step.subAnswer && !matchesAnswer(step.subAnswer.key, statedAnswer(step.subAnswer.key, observation.data.columns, observation.data.rows))) {
        reasons.push(`sub-answer mismatch: step ${index + 1} re-runs to '${statedAnswer(step.subAnswer.key, observation.data.columns, observation.data.rows).slice(0, 60)}', not its key ${JSON.stringify(step.subAnswer.key).slice(0, 100)}`);
      }
    } else if (observation.data.kind === 'stdout') {
      const recorded = String(step.result?.rows?.[0]?.[0] ?? '');
      if (observation.data.stdout.trim() !== recorded) {
        stable = false;
        reasons.push(`unstable evidence: step ${index + 1} printed different output on re-run`);
      }
      lastText = observation.data.stdout.trim().split('\n').pop() ?? '';
      if (step.subAnswer && !matchesAnswer(step.subAnswer.key, lastText)) reasons.push(`sub-answer mismatch: step ${index + 1} prints '${lastText.slice(0, 60)}', not its key`);
    }
  }
  const final = await executeToolCall(context, { name: 'final_answer', arguments: JSON.stringify({ answer: lastText, explanation: 'reference solution replay' }) });
  const replayed = final.ok && matchesAnswer(task.answer, lastText);
  if (!replayed) reasons.push(`replay mismatch: the reference solution states '${lastText.slice(0, 80)}' but the key is ${JSON.stringify(task.answer).slice(0, 120)}`);
  return { stable, replayed, reasons };
}

/** Why a task is trivial (answerable from the schema listing, or giving its answer away), or undefined. */
export function trivialReason(task: TaskSpec, profile: EnvironmentProfile): string | undefined {
  const answer = task.answer;
  if (answer.type === 'number' && task.difficulty.joins === 0 && task.evidence.length === 1) {
    const table = profile.tables.find((t) => t.name === task.tables[0]);
    const visible = table ? [table.rowCount, ...table.columns.map((c) => c.distinctCount)] : [];
    const code = task.evidence[0].code;
    // A bare COUNT(*) or COUNT(DISTINCT) of a whole table is what describe_table prints.
    if (!/\bWHERE\b|\bGROUP BY\b|\bHAVING\b/i.test(code) && visible.includes(answer.value)) return 'trivial: the answer is shown by the schema listing';
  }
  const text = answer.type === 'number' ? String(answer.value) : answer.type === 'string' ? answer.value : '';
  if (text.length >= 3 && normalizeText(task.question).includes(normalizeText(text))) return 'trivial: the question contains its answer';
  if (answer.type === 'string' && normalizeText(answer.value) === '') return 'trivial: empty answer';
  return undefined;
}

const questionTokens = (q: string) => new Set(normalizeText(q).match(/[a-z0-9']+/g) ?? []);

function jaccard(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const t of a) if (b.has(t)) both++;
  return both / (a.size + b.size - both || 1);
}

/**
 * The id of an earlier task this one nearly duplicates: the same kind of dependency with the same answer over the same
 * tables and columns (also across families: a count ranking found by two families, a correlation in SQL and in
 * Python), or ≥ 0.9 word overlap. Columns count when both tasks have anchors: the same hubs ranked by a flight's
 * origin and by its destination, or two measures with equally many outliers, are different tasks that agree.
 */
export function nearDuplicateOf(task: TaskSpec, kept: TaskSpec[]): string | undefined {
  const tokens = questionTokens(task.question);
  const tables = [...task.tables].sort().join(',');
  const columns = (t: TaskSpec) => (t.anchors ?? []).filter((a) => a.startsWith('column:')).sort().join(',');
  const asked = task.question.trim().toLowerCase();
  for (const other of kept) {
    if (other.id === task.id) return other.id;
    // The same words are the same question to whoever reads it, whatever columns the two evidence paths join on.
    if (other.question.trim().toLowerCase() === asked) return other.id;
    const sameColumns = !task.anchors || !other.anchors || columns(task) === columns(other);
    const sameSource = sameColumns && [...other.tables].sort().join(',') === tables && JSON.stringify(other.answer) === JSON.stringify(task.answer) && (other.dependency ?? other.family) === (task.dependency ?? task.family);
    // Near-identical wording is a duplicate unless the two read different columns (the same hubs by origin and by destination).
    if (sameSource || (sameColumns && jaccard(tokens, questionTokens(other.question)) >= 0.9)) return other.id;
  }
  return undefined;
}
