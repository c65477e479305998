/**
 * A task program's intermediate results as the trajectory's own steps report them. A step reports sub-answer k
 * when it is the path's attempt at program step k (its code is the evidence step's, by the coverage threshold) and
 * its result holds the sub-answer: the row naming the sub-answer's value (a text key: the city with the highest
 * share), or for a number key (the count of VIP customers) the one row of a one-row result, or the row of the group
 * the reference's first row names. The figures of that row are then checked
 * against the reference row, column by column where the step names a column as the reference does: a step whose
 * row reads "Nashville | 100 | 44" where the reference reads "Nashville | 20.45 | 44" has found the right name
 * with the wrong figures, and an answer reached from it is right by luck.
 *
 * Figures agree when they are the same number at the precision the less precise one shows (20.45 and 20.4545);
 * columns the step names differently are not compared (a share as a fraction under another name is not judged),
 * and a step that names no reference column reports nothing to check.
 */
import { stepCode } from '../agent/steps';
import type { AgentStep } from '../agent/types';
import { codeSimilarity } from '../sim/history';
import { normalizeText } from '../taskpool/answer';
import type { AnswerKey, EvidenceStep } from '../taskpool/types';

/** The code similarity at which a step counts as the attempt at an evidence step (as evidence coverage counts it). */
export const ATTEMPT_SIMILARITY = 0.55;

/** One step's report of a sub-answer, with the figures that disagree (none: it agrees). */
export interface SubAnswerReport {
  /** The agent step's index in the path. */
  step: number;
  disagreements: Array<{ column: string; expected: unknown; got: unknown }>;
}

/** What a path's steps report of program step `evidenceIndex`'s sub-answer. */
export interface IntermediateCheck {
  evidenceStep: number;
  reports: SubAnswerReport[];
  /** Some step reports the sub-answer with the reference's figures. */
  agrees: boolean;
  /** Steps report it, and every report has figures that disagree. */
  contradicted: boolean;
}

const norm = (name: string) => normalizeText(name).replace(/[^a-z0-9]+/g, '_');

function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot < 0 || /e/i.test(text) ? 0 : text.length - dot - 1;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** The same figure: equal numbers at the shown precision of the less precise one, or the same text. */
export function sameFigure(expected: unknown, got: unknown): boolean {
  const a = asNumber(expected);
  const b = asNumber(got);
  if (a !== undefined && b !== undefined) {
    const decimals = Math.min(decimalsOf(a), decimalsOf(b));
    return Math.abs(a - b) <= 0.5 * 10 ** -decimals + 1e-9 * Math.max(1, Math.abs(a));
  }
  if (expected === null || expected === undefined || got === null || got === undefined) return expected == got;
  return normalizeText(String(expected)) === normalizeText(String(got));
}

/** The row of a result naming a text value. */
function rowNaming(rows: readonly unknown[][], value: string): number {
  return rows.findIndex((row) => row.some((cell) => typeof cell === 'string' && asNumber(cell) === undefined && normalizeText(cell) === normalizeText(value)));
}

/** The reference row that holds a key: the row naming a text key's value; for a number, the first row when it holds it. */
function keyRow(rows: readonly unknown[][], key: AnswerKey): number {
  if (key.type === 'string') return rowNaming(rows, key.value);
  if (key.type === 'number') return rows.length > 0 && rows[0].some((cell) => asNumber(cell) !== undefined && Math.abs(asNumber(cell)! - key.value) <= key.tolerance) ? 0 : -1;
  return -1;
}

/**
 * The step's row to compare with the reference row: the row naming a text key's value; for a number key, the only
 * row of a one-row reference, else the row naming the reference row's first text cell (the group it is about) —
 * never a row by position alone, since the step may order its groups otherwise.
 */
function stepRow(rows: readonly unknown[][], key: AnswerKey, reference: readonly unknown[][], at: number): unknown[] | undefined {
  if (key.type === 'string') return rows[rowNaming(rows, key.value)];
  if (reference.length === 1) return rows.length === 1 ? rows[0] : undefined;
  const label = reference[at].find((cell) => typeof cell === 'string' && asNumber(cell) === undefined);
  return typeof label === 'string' ? rows[rowNaming(rows, label)] : undefined;
}

/** The report of one step, or undefined when the step does not report the sub-answer. */
function reportOf(step: AgentStep, index: number, evidence: EvidenceStep, key: AnswerKey): SubAnswerReport | undefined {
  const expected = evidence.result;
  const data = step.observation.data;
  if (!step.observation.ok || data.kind !== 'rows' || !expected || step.toolCall?.name !== evidence.tool) return undefined;
  const code = stepCode(step);
  if (code === undefined || codeSimilarity(code, evidence.code) < ATTEMPT_SIMILARITY) return undefined;
  const reference = keyRow(expected.rows, key);
  if (reference < 0) return undefined;
  const refRow = expected.rows[reference];
  const row = stepRow(data.rows, key, expected.rows, reference);
  if (!row) return undefined;
  const shared = expected.columns
    .map((column, c) => ({ column, c, at: data.columns.findIndex((d) => norm(d) === norm(column)) }))
    .filter((x) => x.at >= 0);
  if (shared.length === 0) return undefined;
  const disagreements = shared
    .filter((x) => !sameFigure(refRow[x.c], row[x.at]))
    .map((x) => ({ column: x.column, expected: refRow[x.c], got: row[x.at] }));
  return { step: index, disagreements };
}

/** What the path's steps report of one program step's sub-answer, held to `key` (the rubric criterion's key). */
export function checkIntermediate(evidence: EvidenceStep, evidenceStep: number, key: AnswerKey, steps: readonly AgentStep[]): IntermediateCheck {
  const reports = steps.flatMap((s, i) => reportOf(s, i, evidence, key) ?? []);
  const agrees = reports.some((r) => r.disagreements.length === 0);
  return { evidenceStep, reports, agrees, contradicted: reports.length > 0 && !agrees };
}

/** What the path's steps report of each program step's sub-answer (the last step's is the answer, not checked here). */
export function checkIntermediates(evidence: readonly EvidenceStep[], steps: readonly AgentStep[]): IntermediateCheck[] {
  return evidence.slice(0, -1).flatMap((ev, i) => (ev.subAnswer ? [checkIntermediate(ev, i, ev.subAnswer.key, steps)] : []));
}

/** A contradicted check in words: "step 9 reports Nashville with share_pct 100 (the reference: 20.45)". */
export function describeContradiction(check: IntermediateCheck, key: AnswerKey): string {
  const r = check.reports[check.reports.length - 1];
  const what = key.type === 'string' ? key.value : key.type === 'number' ? String(key.value) : 'the sub-answer';
  return `step ${r.step + 1} reports ${what} with ${r.disagreements.map((d) => `${d.column} ${String(d.got)} (the reference: ${String(d.expected)})`).join(', ')}`;
}
