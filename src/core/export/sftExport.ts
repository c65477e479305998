/**
 * An SFT export: choose trajectories, split by task, write one format's train/validation JSONL with a metadata
 * sidecar, validate every line (OpenAI rules on the canonical example, the format's own rules on the written
 * one), render every example through the bundled chat templates, and write a report. A line that fails any
 * check is left out and listed in the report with its reasons — never written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkRender } from './renderCheck';
import { CHAT_TEMPLATE_NAMES, type ChatTemplateName } from './templates/index';
import { tokenCounterFor } from './tokenCount';
import {
  ExampleMetadata,
  UnexportableError,
  exampleMetadata,
  shareGptDatasetInfo,
  splitTasks,
  toHfExample,
  toOpenAiExample,
  toShareGptExample,
} from './sft';
import { filterUngrounded, type GroundingReport } from './grounding';
import { collapseNearCopies, type NearCopyReport } from './nearCopies';
import { dropRepeats, type RepeatReport } from './repeats';
import { SelectionOptions, SelectionSummary, selectTrajectories } from './select';
import type { ExportTrajectory, PromptEnvironment, SftFormat, ValidationIssue } from './types';
import { validateHfExample, validateOpenAiExample, validateShareGptExample } from './validate';

export interface SftExportOptions {
  format: SftFormat;
  /** Only trajectories a curator accepted (default: every admitted one not pruned). */
  acceptedOnly?: boolean;
  /** Share of tasks held out for validation, in [0, 1). Default 0.1. */
  validationFraction?: number;
  /** `weight: 0` on repaired assistant turns (openai only). Default true. */
  weightRepaired?: boolean;
  /** Literal secrets (e.g. the configured API key) that must not appear in any line. */
  secrets?: readonly string[];
  /** Name of the dataset in dataset_info.json (sharegpt). */
  datasetName?: string;
  /** Which of a task's trajectories to keep (after pruning / accepted-only). Default: all. */
  selection?: SelectionOptions;
  /** Leave out trajectories whose final answer depends on an ungrounded literal (grounding.ts). Default true. */
  dropUngrounded?: boolean;
  /** Keep only the best of each task's near-copies (nearCopies.ts). Default true. */
  collapseNearCopies?: boolean;
  /** Leave out trajectories that run a call again for the same observation, where their task has one that does not (repeats.ts). Default true. */
  dropRepeats?: boolean;
}

export interface ExcludedExample {
  trajectoryId: string;
  taskId: string;
  reasons: string[];
}

export interface TokenStats {
  examples: number;
  total: number;
  mean: number;
  min: number;
  max: number;
}

export interface SftExportReport {
  format: SftFormat;
  createdAt: string;
  runIds: string[];
  selection: { admitted: number; considered: number; acceptedOnly: boolean; skippedPruned: number; skippedUnaccepted: number; rubricSelection: SelectionSummary };
  /** The grounding audit of the eligible trajectories, and those left out because their answer depends on an ungrounded literal. */
  grounding: GroundingReport;
  /** Near-copies per task, collapsed into the best of each group. */
  nearCopies: NearCopyReport;
  /** Trajectories that ran a call again for the same observation, and those left out for it. */
  repeats?: RepeatReport;
  split: { validationFraction: number; trainTasks: number; validationTasks: number; trainExamples: number; validationExamples: number; overlap: string[] };
  written: number;
  excluded: ExcludedExample[];
  /** Failures per validator rule over the considered examples. */
  ruleFailures: Record<string, number>;
  /** Per chat template: the render check, and tokens per example counted by `tokenizer`. */
  render: Record<ChatTemplateName, { passed: number; failed: number; tokenizer: string; tokens: TokenStats; assistantTokens: TokenStats }>;
  /** Assistant turns written with weight 0 (repaired mistakes). */
  weightedZeroTurns: number;
  simulatedExamples: number;
  files: Record<string, string>;
}

export interface SftExportResult {
  report: SftExportReport;
  train: string[];
  validation: string[];
  metadata: ExampleMetadata[];
}

function tokenStats(values: number[]): TokenStats {
  if (values.length === 0) return { examples: 0, total: 0, mean: 0, min: 0, max: 0 };
  const total = values.reduce((s, v) => s + v, 0);
  return { examples: values.length, total, mean: Math.round(total / values.length), min: Math.min(...values), max: Math.max(...values) };
}

const describe = (issues: ValidationIssue[], prefix: string) => issues.map((i) => `${prefix}${i.rule}: ${i.message}`);

/** Builds (in memory) the lines of an SFT export; `writeSftExport` puts them on disk. */
export function buildSftExport(trajectories: ExportTrajectory[], environment: PromptEnvironment, options: SftExportOptions): SftExportResult {
  const validationFraction = options.validationFraction ?? 0.1;
  const weightRepaired = options.weightRepaired ?? true;
  const skippedPruned = trajectories.filter((t) => t.curation === 'pruned').length;
  const notPruned = trajectories.filter((t) => t.curation !== 'pruned');
  const eligible = options.acceptedOnly ? notPruned.filter((t) => t.curation === 'accepted') : notPruned;
  const grounded = filterUngrounded(eligible, environment, options.dropUngrounded ?? true);
  const lean = dropRepeats(grounded.kept, options.dropRepeats ?? true);
  const distinct = collapseNearCopies(lean.kept, options.collapseNearCopies ?? true);
  const selected = selectTrajectories(distinct.kept, options.selection ?? { mode: 'all' });
  const chosen = selected.kept;
  const { train: trainTasks, validation: validationTasks } = splitTasks(chosen.map((t) => t.task.id), validationFraction);

  const ruleFailures: Record<string, number> = {};
  const count = (issues: ValidationIssue[]) => issues.forEach((i) => (ruleFailures[i.rule] = (ruleFailures[i.rule] ?? 0) + 1));
  const renderTokens = Object.fromEntries(CHAT_TEMPLATE_NAMES.map((n) => [n, { passed: 0, failed: 0, tokens: [] as number[], assistant: [] as number[] }])) as Record<ChatTemplateName, { passed: number; failed: number; tokens: number[]; assistant: number[] }>;
  const train: string[] = [];
  const validation: string[] = [];
  const metadata: ExampleMetadata[] = [];
  const excluded: ExcludedExample[] = [];
  let weightedZeroTurns = 0;

  for (const trajectory of chosen) {
    const reasons: string[] = [];
    const exampleTokens: NonNullable<ExampleMetadata['tokens']> = {};
    const openai = toOpenAiExample(trajectory, environment, { weightRepaired: weightRepaired && options.format === 'openai' });
    const openaiIssues = validateOpenAiExample(openai, { secrets: options.secrets });
    count(openaiIssues);
    reasons.push(...describe(openaiIssues, 'openai '));
    let line: unknown;
    try {
      const hf = toHfExample(openai);
      for (const name of CHAT_TEMPLATE_NAMES) {
        const check = checkRender(name, hf);
        const cell = renderTokens[name];
        if (check.ok) {
          cell.passed++;
          cell.tokens.push(check.tokens);
          exampleTokens[name] = { total: check.tokens, assistant: check.assistantTokens };
          cell.assistant.push(check.assistantTokens);
        } else {
          cell.failed++;
          ruleFailures[`render-${name}`] = (ruleFailures[`render-${name}`] ?? 0) + 1;
          reasons.push(...check.problems.map((p) => `render ${name}: ${p}`));
        }
      }
      if (options.format === 'openai') line = openai;
      else if (options.format === 'hf') {
        line = hf;
        const issues = validateHfExample(hf, { secrets: options.secrets });
        count(issues);
        reasons.push(...describe(issues, 'hf '));
      } else {
        const sharegpt = toShareGptExample(openai);
        line = sharegpt;
        const issues = validateShareGptExample(sharegpt, { secrets: options.secrets });
        count(issues);
        reasons.push(...describe(issues, 'sharegpt '));
      }
    } catch (error) {
      if (!(error instanceof UnexportableError)) throw error;
      reasons.push(error.message);
    }
    if (reasons.length) {
      excluded.push({ trajectoryId: trajectory.trajectoryId, taskId: trajectory.task.id, reasons });
      continue;
    }
    const split = validationTasks.has(trajectory.task.id) ? 'validation' : 'train';
    (split === 'train' ? train : validation).push(JSON.stringify(line));
    const ungrounded = (grounded.audits.get(trajectory.trajectoryId)?.steps ?? []).flatMap((g) => g.ungrounded.map((u) => ({ step: g.step, ...u })));
    metadata.push({ ...exampleMetadata(trajectory, split), tokens: exampleTokens, selection: selected.records.get(trajectory.trajectoryId), ...(ungrounded.length ? { ungrounded } : {}) });
    weightedZeroTurns += openai.messages.filter((m) => m.role === 'assistant' && m.weight === 0).length;
  }

  const trainTaskSet = new Set(metadata.filter((m) => m.split === 'train').map((m) => m.taskId));
  const overlap = [...new Set(metadata.filter((m) => m.split === 'validation' && trainTaskSet.has(m.taskId)).map((m) => m.taskId))];
  const report: SftExportReport = {
    format: options.format,
    createdAt: new Date().toISOString(),
    runIds: [...new Set(trajectories.map((t) => t.runId))],
    selection: {
      admitted: trajectories.length,
      considered: chosen.length,
      acceptedOnly: options.acceptedOnly ?? false,
      skippedPruned,
      skippedUnaccepted: notPruned.length - eligible.length,
      rubricSelection: selected.summary,
    },
    grounding: grounded.report,
    nearCopies: distinct.report,
    repeats: lean.report,
    split: {
      validationFraction,
      trainTasks: trainTasks.size,
      validationTasks: validationTasks.size,
      trainExamples: train.length,
      validationExamples: validation.length,
      overlap,
    },
    written: train.length + validation.length,
    excluded,
    ruleFailures,
    render: Object.fromEntries(
      CHAT_TEMPLATE_NAMES.map((n) => [n, { passed: renderTokens[n].passed, failed: renderTokens[n].failed, tokenizer: tokenCounterFor(n).tokenizer, tokens: tokenStats(renderTokens[n].tokens), assistantTokens: tokenStats(renderTokens[n].assistant) }]),
    ) as SftExportReport['render'],
    weightedZeroTurns,
    simulatedExamples: metadata.filter((m) => m.simulated).length,
    files: {},
  };
  return { report, train, validation, metadata };
}

/** Writes the export into `outDir` (created) and returns the report with the file paths filled in. */
export function writeSftExport(outDir: string, result: SftExportResult): SftExportReport {
  fs.mkdirSync(outDir, { recursive: true });
  const { report } = result;
  const format = report.format;
  const files: Record<string, string> = {};
  const write = (key: string, name: string, text: string) => {
    const file = path.join(outDir, name);
    fs.writeFileSync(file, text);
    files[key] = file;
  };
  const jsonl = (lines: string[]) => (lines.length ? lines.join('\n') + '\n' : '');
  write('train', `train.${format}.jsonl`, jsonl(result.train));
  if (result.validation.length) write('validation', `validation.${format}.jsonl`, jsonl(result.validation));
  write('metadata', `metadata.${format}.jsonl`, jsonl(result.metadata.map((m) => JSON.stringify(m))));
  if (format === 'sharegpt') {
    const info = shareGptDatasetInfo('toffee', { train: `train.${format}.jsonl`, validation: result.validation.length ? `validation.${format}.jsonl` : undefined });
    write('datasetInfo', 'dataset_info.json', JSON.stringify(info, null, 2) + '\n');
  }
  const withFiles: SftExportReport = { ...report, files: { ...files, report: path.join(outDir, `report.${format}.json`) } };
  fs.writeFileSync(withFiles.files.report, JSON.stringify(withFiles, null, 2) + '\n');
  return withFiles;
}

/** A few lines for a terminal. */
export function formatSftReport(report: SftExportReport): string {
  const lines = [
    `${report.written} ${report.format} examples written (${report.split.trainExamples} train / ${report.split.validationExamples} validation; tasks ${report.split.trainTasks} / ${report.split.validationTasks}, overlap ${report.split.overlap.length})`,
    `selected ${report.selection.considered} of ${report.selection.admitted} admitted trajectories${report.selection.acceptedOnly ? ' (accepted only)' : ''}; ${report.selection.skippedPruned} pruned skipped; ${report.excluded.length} excluded by checks`,
  ];
  const g = report.grounding;
  if (g) {
    const counts = new Map<string, number>();
    for (const l of g.literals) counts.set(l.text, (counts.get(l.text) ?? 0) + 1);
    const named = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([text, n]) => `${text} in ${n} step${n === 1 ? '' : 's'}`).join(', ');
    lines.push(
      `grounding: ${g.withUngroundedLiterals} of ${g.audited} trajectories use ungrounded literals${named ? ` (${named})` : ''}; ${g.answerDependsOnUngrounded} answer from one, ${g.dropUngrounded ? `${g.dropped.length} dropped (--keep-ungrounded keeps them)` : 'kept (--keep-ungrounded)'}`,
    );
  }
  const nc = report.nearCopies;
  const r = report.repeats;
  if (r) lines.push(`repeated calls: ${r.withRepeats} trajectories run a call again for the same observation; ${r.dropRepeats ? `${r.dropped.length} left out where their task has one that does not (--keep-repeats keeps them)` : 'kept (--keep-repeats)'}`);
  if (nc) lines.push(`near-copies: ${nc.collapsed.length} in ${nc.groups} groups ${nc.collapseNearCopies ? 'collapsed into the best of each (--keep-near-copies keeps them)' : 'kept (--keep-near-copies)'}`);
  const rs = report.selection.rubricSelection;
  if (rs.mode !== 'all') lines.push(`selection ${rs.mode}: kept ${rs.kept} of ${rs.candidates} over ${rs.tasks} tasks (≤ ${rs.perTask} per task${rs.seed !== null ? `, seed ${rs.seed}` : ''})`);
  for (const [name, r] of Object.entries(report.render)) {
    lines.push(`render ${name}: ${r.passed} passed, ${r.failed} failed; tokens per example mean ${r.tokens.mean} (min ${r.tokens.min}, max ${r.tokens.max}), assistant ${r.assistantTokens.mean}; counted by ${r.tokenizer}`);
  }
  if (report.weightedZeroTurns) lines.push(`${report.weightedZeroTurns} repaired assistant turns weighted 0`);
  for (const e of report.excluded.slice(0, 5)) lines.push(`excluded ${e.trajectoryId}: ${e.reasons.slice(0, 2).join('; ')}`);
  if (report.files.report) lines.push(`report: ${report.files.report}`);
  return lines.join('\n');
}
