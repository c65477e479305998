import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadSemanticEnvironment } from '../core/semantics/index';
import { ENVIRONMENT_VIEW_ID, type EnvironmentTreeProvider } from './EnvironmentTreeProvider';
import { describeError, log } from './log';

export const OPEN_ENVIRONMENT_COMMAND = 'toffee.openEnvironment';
export const REFRESH_ENVIRONMENT_COMMAND = 'toffee.refreshEnvironment';
export const CLEAR_ENVIRONMENT_COMMAND = 'toffee.clearEnvironment';

/**
 * "TOFFEE: Open Data Environment": from a folder's explorer context menu (the folder's Uri is the argument)
 * or the palette (asks for a folder). Loads it under a cancellable progress notification and fills the
 * Data Environment view. Also registers Refresh (reload the same folder) and Clear.
 */
export function registerOpenEnvironmentCommands(tree: EnvironmentTreeProvider): vscode.Disposable {
  // Starting a new load cancels the one still running, so the view ends up showing the last folder asked for.
  let running: AbortController | undefined;

  /** `restoring`: the folder the view showed before the window reloaded, loaded quietly with progress in the view. */
  async function open(folder: vscode.Uri, restoring = false): Promise<boolean> {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const root = folder.fsPath;
    const started = Date.now();
    log().info(`Loading data environment ${root}`);
    try {
      const environment = await vscode.window.withProgress(
        restoring
          ? { location: { viewId: ENVIRONMENT_VIEW_ID }, title: `TOFFEE: reopening ${path.basename(root)}` }
          : { location: vscode.ProgressLocation.Notification, title: `TOFFEE: loading ${path.basename(root)}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          let reported = 0;
          // With its semantic profile: the view shows what each column means.
          return loadSemanticEnvironment(root, {
            signal: controller.signal,
            onProgress: ({ file, done, total }) => {
              const percent = total > 0 ? (done / total) * 100 : 0;
              progress.report({ message: `${file} (${done}/${total})`, increment: Math.max(0, percent - reported) });
              reported = Math.max(reported, percent);
            },
          });
        },
      );
      if (controller.signal.aborted) throw controller.signal.reason ?? new Error('cancelled');
      const { tables, documents, diagnostics } = environment.profile;
      log().info(
        `Loaded ${root} in ${Date.now() - started} ms: ${tables.length} tables, ${documents.length} documents, ${diagnostics.length} diagnostics`,
      );
      for (const d of diagnostics) {
        const where = `${d.file}${d.line !== undefined ? `:${d.line}` : ''}`;
        (d.severity === 'error' ? log().error : d.severity === 'warning' ? log().warn : log().info).call(log(), `${where}: ${d.message}`);
      }
      await tree.show(environment);
      if (!restoring) await vscode.commands.executeCommand(`${ENVIRONMENT_VIEW_ID}.focus`);
      return true;
    } catch (error) {
      if (controller.signal.aborted) {
        log().info(`Loading ${root} was cancelled`);
        return false;
      }
      log().error(`Loading ${root} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (restoring) tree.clear();
      void vscode.window.showErrorMessage(`TOFFEE could not ${restoring ? 'reopen' : 'load'} ${root}: ${describeError(error)}`);
      return false;
    } finally {
      if (running === controller) running = undefined;
    }
  }

  async function askForFolder(): Promise<vscode.Uri | undefined> {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: 'Open Data Environment',
      title: 'TOFFEE: choose a folder of data files',
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    return picked?.[0];
  }

  // The folder the view showed before the window reloaded comes back (if it is still there).
  const remembered = tree.rememberedRoot;
  if (remembered) {
    if (fs.existsSync(remembered)) {
      log().info(`Reopening the data environment ${remembered} shown before the window reloaded`);
      void open(vscode.Uri.file(remembered), true);
    } else {
      log().info(`The data environment ${remembered} shown before is gone; not reopened`);
      tree.clear();
    }
  }

  return vscode.Disposable.from(
    // The explorer passes (clickedUri, selectedUris); the palette passes nothing.
    vscode.commands.registerCommand(OPEN_ENVIRONMENT_COMMAND, async (folder?: unknown) => {
      const uri = folder instanceof vscode.Uri ? folder : await askForFolder();
      if (!uri) return false;
      // 'vscode-remote' is the extension host's own disk when it runs remotely (code-server, SSH, containers).
      if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote') {
        void vscode.window.showErrorMessage(`TOFFEE can only load folders on disk, not ${uri.toString()}.`);
        return false;
      }
      return open(uri);
    }),
    vscode.commands.registerCommand(REFRESH_ENVIRONMENT_COMMAND, async () => {
      const root = tree.environment?.root;
      return root ? open(vscode.Uri.file(root)) : vscode.commands.executeCommand(OPEN_ENVIRONMENT_COMMAND);
    }),
    vscode.commands.registerCommand(CLEAR_ENVIRONMENT_COMMAND, () => {
      running?.abort();
      tree.clear();
      log().info('Cleared the Data Environment view');
    }),
    new vscode.Disposable(() => running?.abort()),
  );
}
