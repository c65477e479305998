import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ExportInputError, exportRun, type ExportFormat, type RunExportResult } from '../core/export/runExport';
import type { SelectionMode } from '../core/export/select';
import { summarizeRun, type RunSummary } from '../core/store/runFolder';
import { ExplorerPanel, setExplorerExportHandler } from './explorer/ExplorerPanel';
import { pickRun } from './explorer/index';
import { canStopRun } from './explorer/liveRuns';
import { runDirFromArgument } from './explorer/runArguments';
import { runChanged } from './explorer/runActivity';
import { describeRun, runName } from './explorer/runNames';
import { getApiKey, readLlmSettings } from './lm';
import { describeError, log } from './log';

export const EXPORT_COMMAND = 'toffee.exportTrajectories';
export const REVEAL_RUN_COMMAND = 'toffee.revealRun';
export const DELETE_RUN_COMMAND = 'toffee.deleteRun';

/** The choices of one export, as `toffee export` takes them (`--format`, `--accepted-only`, `--select`, …). */
export interface ExportChoices {
  format: ExportFormat;
  acceptedOnly?: boolean;
  select?: SelectionMode;
  perTask?: number;
  seed?: number;
  validationFraction?: number;
  /** Default `<runDir>/export`, as the CLI's. */
  outDir?: string;
}

const LAST_CHOICES_KEY = 'toffee.export.lastChoices';

type Item<T> = vscode.QuickPickItem & { value: T };

async function pick<T>(title: string, items: Array<Item<T> | vscode.QuickPickItem>, last: T | undefined, placeHolder?: string): Promise<T | undefined> {
  const selectable = items.filter((i): i is Item<T> => 'value' in i);
  const quickPick = vscode.window.createQuickPick<Item<T> | vscode.QuickPickItem>();
  quickPick.title = title;
  quickPick.placeholder = placeHolder;
  quickPick.items = items;
  const active = selectable.find((i) => i.value === last);
  if (active) quickPick.activeItems = [active];
  return new Promise<T | undefined>((resolve) => {
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0] as Item<T> | undefined;
      resolve(chosen && 'value' in chosen ? chosen.value : undefined);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
}

/** Format, which trajectories, which of a task's to keep, and where: four short steps, the last answers remembered. */
async function askExportChoices(context: vscode.ExtensionContext, run: RunSummary): Promise<ExportChoices | undefined> {
  const last = context.workspaceState.get<Partial<ExportChoices>>(LAST_CHOICES_KEY) ?? {};
  const name = runName(run);
  const format = await pick<ExportFormat>(
    `TOFFEE: Export Trajectories (1/4): format — ${name}`,
    [
      { label: 'SFT data', kind: vscode.QuickPickItemKind.Separator },
      { label: 'OpenAI chat + tools', description: 'train / validation .openai.jsonl', detail: 'OpenAI fine-tuning format with tool calls; repaired mistakes carry weight 0', value: 'openai' },
      { label: 'Hugging Face messages', description: 'train / validation .hf.jsonl', detail: 'messages + tools, for TRL and chat templates', value: 'hf' },
      { label: 'ShareGPT', description: 'train / validation .sharegpt.jsonl + dataset_info.json', detail: 'LLaMA-Factory format', value: 'sharegpt' },
      { label: 'The task pool as a benchmark', kind: vscode.QuickPickItemKind.Separator },
      { label: 'KramaBench tasks', description: 'kramabench.json', detail: "the run's tasks with their answers and data sources", value: 'kramabench' },
      { label: 'Spider / BIRD', description: 'dev.json + the SQLite database', detail: "the run's SQL tasks with gold queries", value: 'spider' },
    ],
    last.format,
  );
  if (!format) return undefined;
  if (format === 'kramabench' || format === 'spider' || format === 'bird') {
    const outDir = await askOutDir(run.runDir, 2);
    return outDir ? { format, outDir } : undefined;
  }
  const acceptedOnly = await pick<boolean>(
    'TOFFEE: Export Trajectories (2/4): which trajectories',
    [
      { label: 'Accepted only', description: run.acceptedTrajectories ? `${run.acceptedTrajectories} accepted` : 'none accepted yet: accept some in the explorer panel first', value: true },
      { label: 'All admitted, except pruned', description: `${run.admittedTrajectories - run.prunedTrajectories} of ${run.admittedTrajectories} (${run.prunedTrajectories} pruned)`, value: false },
    ],
    last.acceptedOnly ?? run.acceptedTrajectories > 0,
  );
  if (acceptedOnly === undefined) return undefined;
  const select = await pick<SelectionMode>(
    "TOFFEE: Export Trajectories (3/4): which of a task's trajectories",
    [
      { label: 'Every one', description: 'all that passed the step above', value: 'all' },
      { label: 'The best anchored one per task', description: 'highest rubric score (evidence anchors met)', value: 'anchored' },
      { label: 'The best unanchored one per task', description: 'verified answer and clean execution, no rubric', value: 'unanchored' },
      { label: 'One at random per task', description: 'seeded (seed 0), for an unbiased sample', value: 'random' },
    ],
    last.select ?? 'all',
  );
  if (!select) return undefined;
  const outDir = await askOutDir(run.runDir, 4);
  if (!outDir) return undefined;
  return { format, acceptedOnly, select, outDir };
}

async function askOutDir(runDir: string, step: number): Promise<string | undefined> {
  const standard = path.join(runDir, 'export');
  const where = await pick<'default' | 'choose'>(
    `TOFFEE: Export Trajectories (${step}/${step}): where`,
    [
      { label: 'The run folder', description: path.join(path.basename(runDir), 'export'), detail: standard, value: 'default' },
      { label: 'Choose a folder…', value: 'choose' },
    ],
    'default',
  );
  if (where === 'default') return standard;
  if (where !== 'choose') return undefined;
  const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Export Here', title: 'TOFFEE: Export Trajectories: output folder' });
  return chosen?.[0]?.fsPath;
}

/** One line for the user: what was written where. */
export function describeExport(result: RunExportResult): string {
  if (result.kind === 'tasks') return `${result.tasks} tasks written as ${result.format} to ${result.outDir}`;
  const r = result.report;
  const cleaned = [
    r.grounding?.dropped.length ? `${r.grounding.dropped.length} answering from an ungrounded literal left out` : '',
    r.repeats?.dropped.length ? `${r.repeats.dropped.length} running a call again left out` : '',
    r.nearCopies?.collapseNearCopies && r.nearCopies.collapsed.length ? `${r.nearCopies.collapsed.length} near-copies collapsed` : '',
  ].filter((p) => p !== '');
  return `${r.written} ${r.format} examples written (${r.split.trainExamples} train / ${r.split.validationExamples} validation${r.excluded.length ? `; ${r.excluded.length} left out by the checks` : ''}${cleaned.map((p) => `; ${p}`).join('')}) to ${result.outDir}`;
}

/** Shows a folder: in the Explorer when it is in the workspace, else the system's file manager, else its path. */
export async function revealFolder(folder: string): Promise<void> {
  const uri = vscode.Uri.file(folder);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
    await vscode.commands.executeCommand('revealFileInOS', uri);
    return;
  }
  // A browser (code-server) or a remote window cannot open the machine's file manager.
  const choice = await vscode.window.showInformationMessage(`TOFFEE: ${folder}`, 'Copy Path', 'Open Folder in New Window');
  if (choice === 'Copy Path') await vscode.env.clipboard.writeText(folder);
  if (choice === 'Open Folder in New Window') await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: true });
}

async function runExport(context: vscode.ExtensionContext, runDir: string, choices: ExportChoices): Promise<RunExportResult> {
  const settings = readLlmSettings();
  const apiKey = await getApiKey(context, settings.baseUrl);
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `TOFFEE: exporting ${choices.format}` }, () =>
    exportRun(runDir, {
      format: choices.format,
      outDir: choices.outDir,
      acceptedOnly: choices.acceptedOnly,
      validationFraction: choices.validationFraction,
      selection: { mode: choices.select ?? 'all', perTask: choices.perTask ?? 1, seed: choices.seed ?? 0 },
      dropUngrounded: vscode.workspace.getConfiguration('toffee.export').get<boolean>('dropUngrounded', true),
      collapseNearCopies: vscode.workspace.getConfiguration('toffee.export').get<boolean>('collapseNearCopies', true),
      dropRepeats: vscode.workspace.getConfiguration('toffee.export').get<boolean>('dropRepeats', true),
      // The stored key must never reach an export line, as the CLI keeps its environment's keys out.
      secrets: apiKey ? [apiKey] : [],
      onWarning: (warning) => log().warn(`export ${runDir}: ${warning}`),
    }),
  );
}

function offerResult(result: RunExportResult): void {
  const line = describeExport(result);
  const report = result.kind === 'sft' ? result.report.files.report : result.file;
  const empty = result.kind === 'sft' && result.report.written === 0;
  const show = empty ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(`TOFFEE: ${line}.`, result.kind === 'sft' ? 'Open Report' : 'Open File', 'Reveal Folder').then(async (choice) => {
    if (choice === 'Reveal Folder') await revealFolder(result.outDir);
    else if (choice && report) await vscode.window.showTextDocument(vscode.Uri.file(report), { preview: true });
  });
}

/**
 * "TOFFEE: Export Trajectories" (palette, a run's context menu in the Runs view, the panel's Export button): the
 * same export as `toffee export`, asked as four steps; says what it wrote and where, and offers the report. Also
 * "Reveal Run Folder" and "Delete Run" for the Runs view.
 */
export function registerExportCommands(context: vscode.ExtensionContext): vscode.Disposable {
  // `preset` (automation, tests) skips the questions; resolves to what was written, undefined when nothing was.
  const exportTrajectories = async (argument?: unknown, preset?: ExportChoices): Promise<RunExportResult | undefined> => {
    const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Export Trajectories: which run', (run) => run.admittedTrajectories > 0 || run.tasks > 0));
    if (!runDir) return undefined;
    const run = summarizeRun(runDir);
    const choices = preset && typeof preset === 'object' && typeof preset.format === 'string' ? preset : await askExportChoices(context, run);
    if (!choices) return undefined;
    if (choices.acceptedOnly && run.acceptedTrajectories === 0 && !preset) {
      void vscode.window.showWarningMessage(`TOFFEE: no trajectory of the run on ${runName(run)} is accepted yet: accept some in the explorer panel, or export all admitted ones.`, 'Open Run').then((choice) => choice && vscode.commands.executeCommand('toffee.openRun', runDir));
      return undefined;
    }
    if (!preset) await context.workspaceState.update(LAST_CHOICES_KEY, { ...choices, outDir: undefined });
    try {
      const result = await runExport(context, runDir, choices);
      log().info(`Export of ${runDir}: ${describeExport(result)}`);
      offerResult(result);
      return result;
    } catch (error) {
      const message = error instanceof ExportInputError ? error.message : describeError(error);
      log().error(`Export of ${runDir} failed: ${message}`);
      void vscode.window.showErrorMessage(`TOFFEE: the export failed: ${message}`);
      return undefined;
    }
  };
  setExplorerExportHandler(async (runDir) => {
    const result = await vscode.commands.executeCommand<RunExportResult | undefined>(EXPORT_COMMAND, runDir);
    return result ? { ok: true, message: `Exported: ${describeExport(result)}.` } : { ok: false, message: 'Export cancelled.' };
  });
  return vscode.Disposable.from(
    vscode.commands.registerCommand(EXPORT_COMMAND, exportTrajectories),
    vscode.commands.registerCommand(REVEAL_RUN_COMMAND, async (argument?: unknown) => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Reveal Run Folder'));
      if (runDir) await revealFolder(runDir);
    }),
    vscode.commands.registerCommand(DELETE_RUN_COMMAND, async (argument?: unknown, options?: { confirmed?: boolean }): Promise<boolean> => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Delete Run'));
      if (!runDir) return false;
      const run = summarizeRun(runDir);
      if (canStopRun(runDir) || run.status === 'running') {
        void vscode.window.showWarningMessage(`TOFFEE: the run on ${runName(run)} is still being written; cancel it first.`);
        return false;
      }
      if (!options?.confirmed) {
        const answer = await vscode.window.showWarningMessage(
          `Delete the run on ${runName(run)}?`,
          { modal: true, detail: `${describeRun(run)}\n\nIts folder goes, with its events, trajectories and exports:\n${runDir}` },
          'Delete Run',
        );
        if (answer !== 'Delete Run') return false;
      }
      ExplorerPanel.find(runDir)?.panel.dispose();
      const uri = vscode.Uri.file(runDir);
      try {
        await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: true });
      } catch {
        // No trash on this machine (a server, a container): the user confirmed, so delete outright.
        await vscode.workspace.fs.delete(uri, { recursive: true, useTrash: false });
      }
      log().info(`Deleted run ${runDir}`);
      runChanged(runDir, 'deleted');
      return !fs.existsSync(runDir);
    }),
  );
}
