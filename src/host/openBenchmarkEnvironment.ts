import * as vscode from 'vscode';
import { findEntry, prepareBenchmarkEnvironment, scanBenchmark, type BenchmarkEntry } from '../core/benchenv/index';
import { describeError, log } from './log';

export const OPEN_BENCHMARK_COMMAND = 'toffee.openBenchmarkEnvironment';

function entryItem(entry: BenchmarkEntry): vscode.QuickPickItem & { entry: BenchmarkEntry } {
  const schema = entry.tables !== undefined ? `${entry.tables} tables` : `${Math.round(entry.sizeBytes / 1024)} KiB`;
  return {
    label: entry.id,
    description: `${entry.kind} · ${entry.domain} · ${schema}`,
    detail: `${entry.questions.length} benchmark questions recorded as the contamination reference`,
    entry,
  };
}

/**
 * "TOFFEE: Open Benchmark Environment": a Spider / BIRD / LiveSQLBench / SpreadsheetBench folder → pick one
 * environment → prepared as an ordinary folder (with its contamination reference) and opened in the
 * Data Environment view through the same command a right-click uses.
 */
export function registerOpenBenchmarkEnvironment(): vscode.Disposable {
  // `entryId` skips the pick (for keybindings, other extensions and tests).
  return vscode.commands.registerCommand(OPEN_BENCHMARK_COMMAND, async (uri?: vscode.Uri, entryId?: string) => {
    const folder =
      uri ??
      (
        await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          canSelectMany: false,
          openLabel: 'Open Benchmark',
          title: 'TOFFEE: choose a Spider, BIRD, LiveSQLBench or SpreadsheetBench folder',
        })
      )?.[0];
    if (!folder) return false;
    try {
      const catalog = scanBenchmark(folder.fsPath);
      for (const note of catalog.notes) log().warn(`${folder.fsPath}: ${note}`);
      if (catalog.entries.length === 0) {
        void vscode.window.showErrorMessage(`TOFFEE: no benchmark environments found in ${folder.fsPath}.`);
        return false;
      }
      const entry =
        typeof entryId === 'string'
          ? findEntry(catalog, entryId)
          : (
              await vscode.window.showQuickPick(catalog.entries.map(entryItem), {
                title: `TOFFEE: ${catalog.entries.length} ${catalog.kind} environments`,
                placeHolder: 'Environment to open',
                matchOnDescription: true,
              })
            )?.entry;
      if (!entry) return false;
      const prepared = await prepareBenchmarkEnvironment(catalog, entry);
      for (const note of prepared.notes) log().info(`${entry.id}: ${note}`);
      log().info(`Prepared benchmark environment ${entry.id} in ${prepared.folder}`);
      return await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', vscode.Uri.file(prepared.folder));
    } catch (error) {
      log().error(`Could not open a benchmark environment from ${folder.fsPath}: ${describeError(error)}`);
      void vscode.window.showErrorMessage(`TOFFEE: could not open the benchmark environment: ${describeError(error)}`);
      return false;
    }
  });
}
