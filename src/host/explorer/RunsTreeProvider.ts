import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listRuns, RUN_FILES, summarizeRun, type RunSummary } from '../../core/store';
import { isProcessAlive } from '../../core/store/writerLock';
import { onDidChangeRun } from './runActivity';
import { describeRun, runName } from './runNames';

export { describeRun } from './runNames';

export const RUNS_VIEW_ID = 'toffee.runs';
export const RUN_GLOB = '**/.toffee/runs/*/run.json';
const EVENTS_GLOB = '**/.toffee/runs/*/events.jsonl';

/** Whether the process holding the run's writer lock is alive (cheap: the lock file only). */
function writerAlive(runDir: string): boolean {
  try {
    const holder = JSON.parse(fs.readFileSync(path.join(runDir, RUN_FILES.lock), 'utf8')) as { pid?: unknown };
    return typeof holder.pid === 'number' && isProcessAlive(holder.pid);
  } catch {
    return false;
  }
}

/** A run's summary is read again only when its events file or its writer lock changed. */
const summaries = new Map<string, { key: string; summary: RunSummary }>();

function fileKey(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return '-';
  }
}

function summarize(runDir: string): RunSummary {
  const key = `${fileKey(path.join(runDir, RUN_FILES.events))}|${fileKey(path.join(runDir, RUN_FILES.lock))}`;
  const cached = summaries.get(runDir);
  // A lock file left by a writer that died changes nothing on disk: its liveness is checked on every read.
  if (cached && cached.key === key && cached.summary.status !== 'running') return cached.summary;
  const summary = summarizeRun(runDir);
  summaries.set(runDir, { key, summary });
  return summary;
}

/**
 * Run folders under the workspace (`<data folder>/.toffee/runs/<runId>/`) and under `extraRoots` (the loaded
 * environment, which may lie outside the workspace, e.g. the sample), newest first.
 */
export async function findWorkspaceRuns(extraRoots: readonly string[] = []): Promise<RunSummary[]> {
  const files = await vscode.workspace.findFiles(RUN_GLOB, '**/node_modules/**', 500);
  const runDirs = new Set(files.map((file) => path.dirname(file.fsPath)));
  for (const root of extraRoots) {
    try {
      for (const run of listRuns(root)) runDirs.add(run.runDir);
    } catch {
      // an unreadable folder has no runs to list
    }
  }
  const runs = [...runDirs].map(summarize);
  return runs.sort((a, b) => (b.createdAt ?? b.runId).localeCompare(a.createdAt ?? a.runId));
}

const STATUS_ICONS: Record<RunSummary['status'], string> = {
  running: 'sync~spin',
  finished: 'pass',
  cancelled: 'debug-pause',
  interrupted: 'warning',
  unreadable: 'error',
};

export interface RunTreeSnapshotItem {
  runDir: string;
  label: string;
  description?: string;
  contextValue?: string;
  icon?: string;
}

/**
 * The Runs view: every run in the workspace and the loaded environment; selecting one opens it in the explorer
 * panel. It follows run changes as they happen (runActivity.ts, and a watcher on workspace run folders for runs
 * written by other processes), at most a few redraws a second.
 */
export class RunsTreeProvider implements vscode.TreeDataProvider<RunSummary>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRefresh = 0;

  constructor(private readonly extraRoots: () => string[] = () => []) {
    const runs = vscode.workspace.createFileSystemWatcher(RUN_GLOB);
    const events = vscode.workspace.createFileSystemWatcher(EVENTS_GLOB, true, false, true);
    this.disposables.push(
      runs,
      events,
      runs.onDidCreate(() => this.refresh()),
      runs.onDidDelete(() => this.refresh()),
      events.onDidChange(() => this.refreshSoon()),
      onDidChangeRun(() => this.refreshSoon()),
    );
  }

  refresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.lastRefresh = Date.now();
    this.changed.fire();
  }

  /** Coalesces a burst of changes into one redraw, at most one every 300 ms. */
  private refreshSoon(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => this.refresh(), Math.max(0, this.lastRefresh + 300 - Date.now()));
  }

  getChildren(element?: RunSummary): Promise<RunSummary[]> | RunSummary[] {
    if (element) return [];
    return findWorkspaceRuns(this.extraRoots()).then((runs) => {
      this.watchRunning(runs);
      return runs;
    });
  }

  private livenessTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * A run shown as running whose writer dies without a word (a killed CLI leaves its lock) changes no file the
   * watchers see: while any run is shown running, its writer is checked every few seconds.
   */
  private watchRunning(runs: RunSummary[]): void {
    if (this.livenessTimer) clearTimeout(this.livenessTimer);
    this.livenessTimer = undefined;
    const running = runs.filter((run) => run.status === 'running').map((run) => run.runDir);
    if (running.length === 0) return;
    this.livenessTimer = setTimeout(() => {
      this.livenessTimer = undefined;
      if (running.some((runDir) => !writerAlive(runDir))) this.refresh();
      else this.watchRunning(running.map((runDir) => ({ runDir, status: 'running' }) as RunSummary));
    }, 3000);
  }

  getTreeItem(run: RunSummary): vscode.TreeItem {
    const item = new vscode.TreeItem(runName(run), vscode.TreeItemCollapsibleState.None);
    item.id = run.runDir;
    item.description = describeRun(run);
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`Run ${run.runId}\n${run.runDir}\n`);
    if (run.dataFolder) tooltip.appendText(`data: ${run.dataFolder}\n`);
    if (run.lastEventAt) tooltip.appendText(`last event: ${run.lastEventAt}\n`);
    for (const problem of run.problems) tooltip.appendText(`⚠ ${problem}\n`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[run.status]);
    item.contextValue = `toffeeRun.${run.status}`;
    item.command = { command: 'toffee.openRun', title: 'Open Run', arguments: [run.runDir] };
    item.accessibilityInformation = { label: `Run on ${runName(run)}, ${describeRun(run)}` };
    return item;
  }

  /** The view's items as VS Code receives them (for tests). */
  async snapshot(): Promise<RunTreeSnapshotItem[]> {
    const runs = await findWorkspaceRuns(this.extraRoots());
    return runs.map((run) => {
      const item = this.getTreeItem(run);
      return {
        runDir: run.runDir,
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: typeof item.description === 'string' ? item.description : undefined,
        contextValue: item.contextValue,
        icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
      };
    });
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    if (this.livenessTimer) clearTimeout(this.livenessTimer);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.changed.dispose();
  }
}
