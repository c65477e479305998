import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError, log } from './log';
import { OPEN_ENVIRONMENT_COMMAND } from './openEnvironment';

export const OPEN_SAMPLE_COMMAND = 'toffee.openSample';
/** The sample the extension ships in media/samples/ (see its README there). */
export const SAMPLE_NAME = 'retail';

/**
 * Copies the bundled sample's files into `target` (created if missing). A synthesis writes its runs into the data
 * folder (`.toffee/runs/`), and an installed extension's own folder is replaced on every update, so the sample is
 * opened from a copy the user owns; the copy's `.toffee/` (earlier runs) is never touched, the data files are
 * refreshed from the extension (they change only with a new version of the extension).
 */
export function copySample(source: string, target: string): string[] {
  if (!fs.existsSync(source)) throw new Error(`the bundled sample is missing from the extension (${source})`);
  fs.mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    fs.copyFileSync(path.join(source, entry.name), path.join(target, entry.name));
    copied.push(entry.name);
  }
  return copied.sort();
}

/**
 * "TOFFEE: Open Sample Data Environment": the bundled retail sample (ten files in seven formats), so a user can try
 * TOFFEE without data of their own. Resolves to the folder opened, or undefined when it could not be.
 */
export function registerOpenSample(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_SAMPLE_COMMAND, async (): Promise<string | undefined> => {
    const source = path.join(context.extensionPath, 'media', 'samples', SAMPLE_NAME);
    const target = path.join(context.globalStorageUri.fsPath, 'samples', SAMPLE_NAME);
    try {
      const files = copySample(source, target);
      log().info(`Sample data environment: ${files.length} files copied to ${target}`);
    } catch (error) {
      log().error(`Could not copy the sample: ${describeError(error)}`);
      void vscode.window.showErrorMessage(`TOFFEE: could not open the sample: ${describeError(error)}`);
      return undefined;
    }
    const opened = await vscode.commands.executeCommand<boolean>(OPEN_ENVIRONMENT_COMMAND, vscode.Uri.file(target));
    if (!opened) return undefined;
    void vscode.window
      .showInformationMessage(`TOFFEE: the sample "${SAMPLE_NAME}" is open (a copy in ${target}; its runs are kept there).`, 'Synthesize Trajectories')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('toffee.synthesizeTrajectories', vscode.Uri.file(target));
      });
    return target;
  });
}
