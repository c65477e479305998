/**
 * Question phrasing: with a configured model, a selected task's template question is rewritten as a natural
 * analyst question, grounded in the task's evidence (tables, columns, the SQL with its filters, document
 * parameters) but never shown the answer or the evidence results, so the model cannot leak what it never saw.
 * The reply is still validated (length, required literals kept, no answer value stated); on any failure the
 * deterministic template question stays and the task records why.
 */
import { isLlmError } from '../llm/errors';
import { OFFLINE_SIM_PROVIDER_ID, type LlmProvider } from '../llm/types';
import { containsWord } from '../text/regex';
import { normalizeText, numbersIn } from './answer';
import type { AnswerKey, PhrasingRecord, TaskSpec } from './types';

export interface PhrasingModel {
  provider: LlmProvider;
  model: string;
}

/** Rewrites shorter than this say too little to be a question; longer ones are commentary, not a question. */
const MIN_CHARS = 12;
const MAX_CHARS = 400;

/** Literals the rewrite must keep: quoted values and every number of the template (thresholds, k, years). */
export function requiredLiterals(template: string): { quoted: string[]; numbers: number[] } {
  const quoted = [...template.matchAll(/'([^']+)'|"([^"]+)"|`([^`]+)`/g)].map((m) => m[1] ?? m[2] ?? m[3]).filter((q) => q.trim() !== '');
  return { quoted, numbers: numbersIn(template) };
}

const sameNumber = (a: number, b: number, tolerance = 0) => Math.abs(a - b) <= Math.max(tolerance, 1e-9 * Math.max(1, Math.abs(b)));

/** Whether a text states a value as a whole word, both read as the answer checker reads them. */
function statesWord(text: string, word: string): boolean {
  return containsWord(normalizeText(text), normalizeText(word));
}

/**
 * Why the rewrite states the answer, or undefined. A value the template itself states (a threshold equal to the
 * answer) is not a leak. Numbers match within the key's tolerance, also as percentages (0.853 ~ "85.3%").
 */
export function answerLeak(answer: AnswerKey, rewrite: string, template: string): string | undefined {
  if (answer.type === 'number') {
    // One comparison for both texts: a number the template already holds ("Round to 2 decimals") is no leak,
    // even where it also reads as the answer in percent (2 → 0.02 against an answer of 0 ± 0.05).
    const statesAnswer = (n: number) => sameNumber(n, answer.value, answer.tolerance) || sameNumber(n / 100, answer.value, answer.tolerance);
    if (numbersIn(template).some(statesAnswer)) return undefined;
    const leaked = numbersIn(rewrite).find(statesAnswer);
    return leaked === undefined ? undefined : `states the answer value ${leaked}`;
  }
  const values =
    answer.type === 'string' ? [answer.value] : answer.type === 'list' ? answer.values : answer.rows.map((r) => String(r[0] ?? ''));
  for (const value of values) {
    // Very short values ("a", "1") would match ordinary words; numbers in them are still compared as numbers.
    const numeric = Number(value);
    if (value.trim() !== '' && Number.isFinite(numeric)) {
      if (!numbersIn(template).some((n) => sameNumber(n, numeric)) && numbersIn(rewrite).some((n) => sameNumber(n, numeric))) return `states the answer value ${value}`;
      continue;
    }
    if (normalizeText(value).length < 2 || statesWord(template, value)) continue;
    if (statesWord(rewrite, value)) return `states the answer '${value}'`;
  }
  return undefined;
}

/** Cleans a model reply to one question: trims quotes and a "Question:" label; undefined when it is not one line. */
export function cleanRewrite(reply: string | null | undefined): string | undefined {
  if (!reply) return undefined;
  let text = reply.trim().replace(/^(?:rewritten\s+)?question\s*:\s*/i, '').trim();
  text = text.replace(/^["'`“”]+|["'`“”]+$/g, '').trim();
  if (text === '' || /\n/.test(text)) return undefined;
  return text;
}

/** Why a cleaned rewrite is unusable, or undefined when it may replace the template. */
export function rewriteProblem(task: TaskSpec, template: string, rewrite: string | undefined): string | undefined {
  if (rewrite === undefined) return 'the reply was empty or not a single line';
  if (rewrite.length < MIN_CHARS) return `the reply is too short (${rewrite.length} characters)`;
  const max = Math.min(MAX_CHARS, template.length * 3 + 100);
  if (rewrite.length > max) return `the reply is too long (${rewrite.length} > ${max} characters)`;
  const leak = answerLeak(task.answer, rewrite, template);
  if (leak) return `answer leakage: the reply ${leak}`;
  const { quoted, numbers } = requiredLiterals(template);
  const missingQuoted = quoted.find((q) => !normalizeText(rewrite).includes(normalizeText(q)));
  if (missingQuoted !== undefined) return `the reply dropped the literal '${missingQuoted}'`;
  const rewriteNumbers = numbersIn(rewrite);
  const missingNumber = numbers.find((n) => !rewriteNumbers.some((m) => sameNumber(m, n) || sameNumber(m / 100, n) || sameNumber(m, n / 100)));
  if (missingNumber !== undefined) return `the reply dropped the number ${missingNumber}`;
  return undefined;
}

/** What the model is shown: the template and the evidence's code and sources, never results or the answer. */
export function phrasingPrompt(task: TaskSpec): string {
  const columns = (task.anchors ?? []).filter((a) => a.startsWith('column:')).map((a) => a.slice('column:'.length));
  const lines = [
    `Template question: ${task.question}`,
    `Tables: ${task.tables.join(', ') || '(none)'}`,
  ];
  if (columns.length > 0) lines.push(`Columns: ${columns.join(', ')}`);
  for (const doc of task.documents ?? []) lines.push(`Document: ${doc.document}${doc.section ? ` § ${doc.section}` : ''}`);
  lines.push('Reference computation, step by step (its filters and thresholds define the question):');
  task.evidence.forEach((step, i) => {
    // A later step's code holds what earlier steps found (the top region as a filter): those values are results, so
    // they are shown as "<the result of step N>", never as themselves.
    let code = step.code;
    let purpose = step.purpose;
    for (const used of step.uses ?? []) {
      for (const value of task.evidence[used]?.subAnswer?.carries ?? step.subAnswer?.carries ?? []) {
        const mask = `<the result of step ${used + 1}>`;
        code = code.split(`'${value.replace(/'/g, "''")}'`).join(mask).split(value).join(mask);
        purpose = purpose.split(value).join(mask);
      }
    }
    for (const value of step.subAnswer?.carries ?? []) {
      code = code.split(`'${value.replace(/'/g, "''")}'`).join('<an earlier result>').split(value).join('<an earlier result>');
      purpose = purpose.split(value).join('<an earlier result>');
    }
    const finds = step.subAnswer ? ` — finds ${maskedLabel(step.subAnswer.label, task)}` : '';
    lines.push(`${i + 1}. ${purpose}${finds}\n   ${step.tool === 'run_sql' ? 'SQL' : 'Python'}: ${code.replace(/\s+/g, ' ').slice(0, 600)}`);
  });
  return lines.join('\n');
}

/** A step's label with every value an earlier step found masked ("the share of the region <an earlier result>'s revenue…"). */
function maskedLabel(label: string, task: TaskSpec): string {
  let text = label;
  for (const step of task.evidence) for (const value of step.subAnswer?.carries ?? []) text = text.split(value).join('<an earlier result>');
  return text;
}

const SYSTEM = [
  'You rewrite template questions about a dataset as the natural question a data analyst would ask.',
  'Keep the meaning exactly: the same quantity, grouping, filters, thresholds, time periods, ordering and number of items.',
  'Keep every quoted value and every number of the template question verbatim.',
  'Do not answer the question, do not guess or mention any result, and do not add requirements. A multi-step question asks for the last step\'s result; earlier results appear as placeholders and must stay unnamed (say "the region with the highest revenue", never a value).',
  'Reply with the rewritten question only, on one line.',
].join(' ');

/** Rewrites one task's question; the task's question and `validation.phrasing` are updated in place. */
export async function phraseTask(task: TaskSpec, model: PhrasingModel | undefined, signal?: AbortSignal): Promise<PhrasingRecord> {
  const template = task.question;
  const record = await phrase(task, template, model, signal);
  if (record.source === 'llm') task.question = record.question;
  const { question: _question, ...kept } = record;
  if (task.validation) task.validation.phrasing = kept;
  return kept;
}

async function phrase(task: TaskSpec, template: string, model: PhrasingModel | undefined, signal?: AbortSignal): Promise<PhrasingRecord & { question: string }> {
  const fallback = (reason: string, extra: Partial<PhrasingRecord> = {}) => ({ source: 'template' as const, reason, question: template, ...extra });
  if (!model) return fallback('no model configured: deterministic template');
  // The offline simulated models follow reference solutions; they do not write prose worth keeping.
  if (model.provider.id === OFFLINE_SIM_PROVIDER_ID) return fallback('offline simulated model: deterministic template');
  let reply: string | null;
  try {
    const completion = await model.provider.complete({
      model: model.model,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: phrasingPrompt(task) },
      ],
      maxTokens: 200,
      signal,
    });
    reply = completion.message.content;
  } catch (error) {
    if (signal?.aborted) throw error;
    const what = isLlmError(error) ? `${error.kind}: ${error.message}` : error instanceof Error ? error.message : String(error);
    return fallback(`the model call failed (${what})`, { model: model.model });
  }
  const rewrite = cleanRewrite(reply);
  const problem = rewriteProblem(task, template, rewrite);
  if (problem) return fallback(problem, { model: model.model, rejectedRewrite: rewrite ?? (reply ?? '').slice(0, MAX_CHARS) });
  return { source: 'llm', reason: 'rewritten by the model and validated', model: model.model, templateQuestion: template, question: rewrite! };
}
