import * as vscode from 'vscode';
import { summarizeRun, type RunSummary } from '../../core/store';
import { describeError, log } from '../log';
import { EXPLORER_VIEW_TYPE, ExplorerPanel } from './ExplorerPanel';
import { canStopRun } from './liveRuns';
import { runDirFromArgument } from './runArguments';
import { describeRun, runName } from './runNames';
import { findWorkspaceRuns, RUNS_VIEW_ID, RunsTreeProvider, type RunTreeSnapshotItem } from './RunsTreeProvider';
import { cancelSynthesisCommand, registerSynthesizeCommand, resumeSynthesis, type SynthesisOutcome } from './synthesizeCommand';

export { ExplorerPanel } from './ExplorerPanel';
export { runDirFromArgument } from './runArguments';
export type { RunTreeSnapshotItem } from './RunsTreeProvider';

/** Folders outside the workspace whose runs the views list too (the loaded data environment). */
let extraRunRoots: () => string[] = () => [];

export async function pickRun(title: string, filter: (run: RunSummary) => boolean = () => true): Promise<string | undefined> {
  const runs = (await findWorkspaceRuns(extraRunRoots())).filter(filter);
  const browse = { label: '$(folder-opened) Browse for a run folder…', runDir: undefined as string | undefined };
  const picked = await vscode.window.showQuickPick(
    [...runs.map((run) => ({ label: runName(run), description: describeRun(run), detail: run.runDir, runDir: run.runDir as string | undefined })), browse],
    { title, placeHolder: runs.length ? 'Choose a run' : 'No runs found in this workspace', matchOnDescription: true },
  );
  if (!picked) return undefined;
  if (picked.runDir) return picked.runDir;
  const folder = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Open Run', title: 'TOFFEE: a run folder (<data folder>/.toffee/runs/<run id>)' });
  return folder?.[0]?.fsPath;
}

export interface ExplorerFeature extends vscode.Disposable {
  /** The Runs view's items as plain data. */
  runsSnapshot(): Promise<RunTreeSnapshotItem[]>;
}

/**
 * "TOFFEE: Open Run", "TOFFEE: Resume Run", "TOFFEE: Cancel Synthesis", the Runs view, and panel restore after a
 * window reload. `environmentRoot` is the loaded data environment's folder, whose runs the Runs view lists too.
 */
export function registerExplorer(context: vscode.ExtensionContext, environmentRoot: () => string | undefined = () => undefined): ExplorerFeature {
  extraRunRoots = () => [environmentRoot()].filter((root): root is string => root !== undefined);
  const runs = new RunsTreeProvider(extraRunRoots);
  const open = (runDir: string) => {
    try {
      ExplorerPanel.show(context.extensionUri, runDir);
    } catch (error) {
      void vscode.window.showErrorMessage(`TOFFEE: cannot open the run: ${describeError(error)}`);
    }
  };
  const disposable = vscode.Disposable.from(
    registerSynthesizeCommand(context, environmentRoot),
    cancelSynthesisCommand(),
    runs,
    vscode.window.createTreeView(RUNS_VIEW_ID, { treeDataProvider: runs }),
    vscode.commands.registerCommand('toffee.refreshRuns', () => runs.refresh()),
    vscode.commands.registerCommand('toffee.openRun', async (argument?: unknown) => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Open Run'));
      if (runDir) open(runDir);
    }),
    vscode.commands.registerCommand('toffee.resumeRun', async (argument?: unknown): Promise<SynthesisOutcome | undefined> => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Resume Run', (run) => run.status === 'cancelled' || run.status === 'interrupted'));
      if (!runDir) return undefined;
      const run = summarizeRun(runDir);
      if (run.status === 'running') {
        open(runDir);
        if (!canStopRun(runDir)) void vscode.window.showInformationMessage(`TOFFEE: the run on ${runName(run)} is still being written by another process; the panel follows it live.`);
        return undefined;
      }
      if (run.status === 'finished' || !run.dataFolder) {
        open(runDir);
        void vscode.window.showInformationMessage(`TOFFEE: the run on ${runName(run)} is ${run.status}; nothing to resume, the panel shows it.`);
        return undefined;
      }
      log().info(`Resuming run ${runDir} (${run.status}; ${run.finishedTasks}/${run.tasks} tasks finished)`);
      return resumeSynthesis(context, run.dataFolder, runDir);
    }),
    vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => ExplorerPanel.revive(context.extensionUri, panel, state),
    }),
    new vscode.Disposable(() => ExplorerPanel.disposeAll()),
  );
  return { dispose: () => disposable.dispose(), runsSnapshot: () => runs.snapshot() };
}
