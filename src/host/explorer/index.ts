import * as vscode from 'vscode';
import { summarizeRun, type RunSummary } from '../../core/store';
import { describeError, log } from '../log';
import { EXPLORER_VIEW_TYPE, ExplorerPanel } from './ExplorerPanel';
import { describeRun, findWorkspaceRuns, RUNS_VIEW_ID, RunsTreeProvider } from './RunsTreeProvider';
import { registerSynthesizeCommand, resumeSynthesis } from './synthesizeCommand';

export { ExplorerPanel } from './ExplorerPanel';

/** A run folder from a command argument: a path (Runs view), a Uri (explorer/context), or a RunSummary. */
export function runDirFromArgument(argument: unknown): string | undefined {
  if (typeof argument === 'string') return argument;
  if (argument instanceof vscode.Uri) return argument.fsPath;
  if (argument && typeof argument === 'object' && typeof (argument as RunSummary).runDir === 'string') return (argument as RunSummary).runDir;
  return undefined;
}

export async function pickRun(title: string, filter: (run: RunSummary) => boolean = () => true): Promise<string | undefined> {
  const runs = (await findWorkspaceRuns()).filter(filter);
  const browse = { label: '$(folder-opened) Browse for a run folder…', runDir: undefined as string | undefined };
  const picked = await vscode.window.showQuickPick(
    [...runs.map((run) => ({ label: run.runId, description: describeRun(run), detail: run.dataFolder, runDir: run.runDir as string | undefined })), browse],
    { title, placeHolder: runs.length ? 'Choose a run' : 'No runs found in this workspace' },
  );
  if (!picked) return undefined;
  if (picked.runDir) return picked.runDir;
  const folder = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Open Run', title: 'A run folder (.toffee/runs/<run id>)' });
  return folder?.[0]?.fsPath;
}

/** "TOFFEE: Open Run", "TOFFEE: Resume Run", the Runs view, and panel restore after a window reload. */
export function registerExplorer(context: vscode.ExtensionContext): vscode.Disposable {
  const runs = new RunsTreeProvider();
  const open = (runDir: string) => {
    try {
      ExplorerPanel.show(context.extensionUri, runDir);
    } catch (error) {
      void vscode.window.showErrorMessage(`TOFFEE: cannot open the run: ${describeError(error)}`);
    }
  };
  return vscode.Disposable.from(
    registerSynthesizeCommand(context),
    runs,
    vscode.window.createTreeView(RUNS_VIEW_ID, { treeDataProvider: runs }),
    vscode.commands.registerCommand('toffee.refreshRuns', () => runs.refresh()),
    vscode.commands.registerCommand('toffee.openRun', async (argument?: unknown) => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Open Run'));
      if (runDir) open(runDir);
    }),
    vscode.commands.registerCommand('toffee.resumeRun', async (argument?: unknown) => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('TOFFEE: Resume Run', (run) => run.status !== 'finished'));
      if (!runDir) return;
      const run = summarizeRun(runDir);
      if (run.status === 'running') {
        open(runDir);
        void vscode.window.showInformationMessage(`TOFFEE: run ${run.runId} is still being written by another process; the panel follows it live.`);
        return;
      }
      if (run.status === 'finished' || !run.dataFolder) {
        open(runDir);
        void vscode.window.showInformationMessage(`TOFFEE: run ${run.runId} is ${run.status}; nothing to resume, the panel shows it.`);
        return;
      }
      log().info(`Resuming run ${runDir} (${run.finishedTasks}/${run.tasks} tasks finished)`);
      await resumeSynthesis(context, run.dataFolder, runDir);
    }),
    vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => ExplorerPanel.revive(context.extensionUri, panel, state),
    }),
    new vscode.Disposable(() => ExplorerPanel.disposeAll()),
  );
}
