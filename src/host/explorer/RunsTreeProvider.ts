import * as path from 'node:path';
import * as vscode from 'vscode';
import { summarizeRun, type RunSummary } from '../../core/store';

export const RUNS_VIEW_ID = 'toffee.runs';
export const RUN_GLOB = '**/.toffee/runs/*/run.json';

/** Run folders under the workspace (`<data folder>/.toffee/runs/<runId>/`), newest first. */
export async function findWorkspaceRuns(): Promise<RunSummary[]> {
  const files = await vscode.workspace.findFiles(RUN_GLOB, '**/node_modules/**', 500);
  const runs = files.map((file) => summarizeRun(path.dirname(file.fsPath)));
  return runs.sort((a, b) => (b.createdAt ?? b.runId).localeCompare(a.createdAt ?? a.runId));
}

export function describeRun(run: RunSummary): string {
  const spent = run.spentUsd ? ` · $${run.spentUsd.toFixed(4)}` : '';
  return `${run.status} · ${run.nodes} nodes · ${run.admittedTrajectories} trajectories (${run.acceptedTrajectories} accepted)${spent}`;
}

const STATUS_ICONS: Record<RunSummary['status'], string> = {
  running: 'sync~spin',
  finished: 'pass',
  interrupted: 'debug-pause',
  unreadable: 'warning',
};

/** The Runs view: every run in the workspace; selecting one opens it in the explorer panel. */
export class RunsTreeProvider implements vscode.TreeDataProvider<RunSummary>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watcher = vscode.workspace.createFileSystemWatcher(RUN_GLOB);

  constructor() {
    this.watcher.onDidCreate(() => this.refresh());
    this.watcher.onDidDelete(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire();
  }

  getChildren(element?: RunSummary): Promise<RunSummary[]> | RunSummary[] {
    return element ? [] : findWorkspaceRuns();
  }

  getTreeItem(run: RunSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(run.runId, vscode.TreeItemCollapsibleState.None);
    item.description = describeRun(run);
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${run.runDir}\n`);
    if (run.dataFolder) tooltip.appendText(`data: ${run.dataFolder}\n`);
    if (run.lastEventAt) tooltip.appendText(`last event: ${run.lastEventAt}\n`);
    for (const problem of run.problems) tooltip.appendText(`⚠ ${problem}\n`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[run.status]);
    item.contextValue = `toffeeRun.${run.status}`;
    item.command = { command: 'toffee.openRun', title: 'Open Run', arguments: [run.runDir] };
    item.accessibilityInformation = { label: `Run ${run.runId}, ${describeRun(run)}` };
    return item;
  }

  dispose(): void {
    this.watcher.dispose();
    this.changed.dispose();
  }
}
