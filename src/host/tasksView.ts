import * as vscode from 'vscode';
import { openAgentSession } from '../core/agent/session';
import { taskDetailMarkdown } from '../core/taskpool/detail';
import { buildTaskPool, type RejectedTask } from '../core/taskpool/pool';
import { RunStore } from '../core/store/RunStore';
import type { TaskSpec } from '../core/taskpool/types';
import { pickRun, runDirFromArgument } from './explorer/index';
import type { EnvironmentTreeProvider, TreeSnapshotNode } from './EnvironmentTreeProvider';
import { describeError, log } from './log';
import { buildTaskNodes, type TaskNode } from './taskNodes';

export const TASKS_VIEW_ID = 'toffee.tasks';
export const BUILD_TASKS_COMMAND = 'toffee.buildTasks';
export const SHOW_TASK_COMMAND = 'toffee.showTask';
export const SHOW_RUN_TASKS_COMMAND = 'toffee.showRunTasks';
/** Task details open as read-only virtual documents of this scheme (nothing to save, nothing asked on close). */
export const TASK_SCHEME = 'toffee-task';

/**
 * The task detail as a read-only Markdown document. The URI's path is what the tab shows (the task's number and
 * the start of its question), its query the task id.
 */
class TaskDocuments implements vscode.TextDocumentContentProvider {
  private readonly tasks = new Map<string, TaskSpec>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  uriFor(task: TaskSpec, index: number): vscode.Uri {
    this.tasks.set(task.id, task);
    const words = task.question.replace(/[\\/?#%*:|"<>]/g, ' ').replace(/\s+/g, ' ').trim();
    const title = words.length > 48 ? `${words.slice(0, 47).trim()}…` : words;
    return vscode.Uri.from({ scheme: TASK_SCHEME, path: `/Task ${index + 1} — ${title}.md`, query: task.id });
  }

  /** New task contents (a rebuilt pool, a revised run): open documents of those tasks show them. */
  update(tasks: readonly TaskSpec[]): void {
    for (const task of tasks) {
      if (!this.tasks.has(task.id)) continue;
      this.tasks.set(task.id, task);
      for (const document of vscode.workspace.textDocuments) {
        if (document.uri.scheme === TASK_SCHEME && document.uri.query === task.id) this.changed.fire(document.uri);
      }
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const task = this.tasks.get(uri.query);
    if (task) return taskDetailMarkdown(task);
    return `# This task is not loaded\n\nTask \`${uri.query}\` was shown before the window reloaded. Build the tasks again (**TOFFEE: Build Tasks**) or show a run's tasks (**TOFFEE: Show Run Tasks and Revisions**), then open it from the Tasks view.\n`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The Tasks view: the task pool of the loaded environment by family, with difficulty and status. */
class TasksTreeProvider implements vscode.TreeDataProvider<TaskNode> {
  private readonly changed = new vscode.EventEmitter<TaskNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  tasks: TaskSpec[] = [];
  private nodes: TaskNode[] = [];

  show(tasks: TaskSpec[], rejected: RejectedTask[]): void {
    this.tasks = tasks;
    this.nodes = buildTaskNodes(tasks, rejected);
    this.changed.fire(undefined);
  }

  getChildren(node?: TaskNode): TaskNode[] {
    return node ? node.children : this.nodes;
  }

  getTreeItem(node: TaskNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.children.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    if (node.taskId) item.command = { command: SHOW_TASK_COMMAND, title: 'Show Task', arguments: [node.taskId] };
    return item;
  }

  /** The view's content as VS Code receives it (the tree items), with each leaf's command arguments. */
  snapshot(): TaskTreeSnapshotNode[] {
    const read = (node: TaskNode): TaskTreeSnapshotNode => {
      const item = this.getTreeItem(node);
      return {
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: typeof item.description === 'string' ? item.description : undefined,
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value,
        icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
        command: item.command ? { command: item.command.command, arguments: item.command.arguments } : undefined,
        children: this.getChildren(node).map(read),
      };
    };
    return this.getChildren().map(read);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface TaskTreeSnapshotNode extends TreeSnapshotNode {
  command?: { command: string; arguments?: unknown[] };
  children: TaskTreeSnapshotNode[];
}

export interface TasksView extends vscode.Disposable {
  /** The Tasks view's items as plain data (empty before tasks are built). */
  snapshot(): TaskTreeSnapshotNode[];
}

/** "Open a data environment first", with buttons that do it. */
export async function askForEnvironment(why: string): Promise<void> {
  const choice = await vscode.window.showInformationMessage(`TOFFEE: open a data environment first: ${why}.`, 'Open Data Environment', 'Try the Sample Data');
  if (choice === 'Open Data Environment') await vscode.commands.executeCommand('toffee.openEnvironment');
  if (choice === 'Try the Sample Data') await vscode.commands.executeCommand('toffee.openSample');
}

export function registerTasksView(environmentTree: EnvironmentTreeProvider): TasksView {
  const provider = new TasksTreeProvider();
  const documents = new TaskDocuments();
  const view = vscode.window.createTreeView(TASKS_VIEW_ID, { treeDataProvider: provider });
  const disposable = vscode.Disposable.from(
    provider,
    view,
    documents,
    vscode.workspace.registerTextDocumentContentProvider(TASK_SCHEME, documents),
    provider.onDidChangeTreeData(() => documents.update(provider.tasks)),
    vscode.commands.registerCommand(BUILD_TASKS_COMMAND, async () => {
      const root = environmentTree.environment?.root;
      if (!root) {
        void askForEnvironment('the tasks are built from its files');
        return false;
      }
      try {
        const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'TOFFEE: building tasks', cancellable: true }, async (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          const session = await openAgentSession(root);
          try {
            return await buildTaskPool(session.toolContext, { signal: controller.signal, onProgress: (message) => progress.report({ message }) });
          } finally {
            await session.dispose();
          }
        });
        provider.show(result.tasks, result.rejected);
        view.message = undefined;
        log().info(`Built ${result.tasks.length} tasks for ${root} (${result.rejected.length} rejected) in ${result.elapsedMs} ms`);
        for (const note of result.notes) log().info(`Tasks: ${note}`);
        return true;
      } catch (error) {
        log().error(`Building tasks failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        void vscode.window.showErrorMessage(`TOFFEE could not build tasks: ${describeError(error)}`);
        return false;
      }
    }),
    // A run's tasks as they stand after the revision that follows each first exploration (diff in the detail).
    vscode.commands.registerCommand(SHOW_RUN_TASKS_COMMAND, async (argument?: unknown) => {
      const runDir = runDirFromArgument(argument) ?? (await pickRun('Show the tasks and revisions of a run'));
      if (!runDir) return false;
      try {
        const store = RunStore.open(runDir);
        try {
          provider.show([...store.state.tasks.values()], []);
          const revised = [...store.state.revisions.values()].filter((r) => r.outcome !== 'kept').length;
          view.message = `Run ${store.runId}: ${store.state.tasks.size} tasks, ${revised} revised or rejected after exploration`;
        } finally {
          store.close();
        }
        await vscode.commands.executeCommand(`${TASKS_VIEW_ID}.focus`);
        return true;
      } catch (error) {
        void vscode.window.showErrorMessage(`TOFFEE could not read the run's tasks: ${describeError(error)}`);
        return false;
      }
    }),
    // Resolves to the document's URI (for tests and keybindings).
    vscode.commands.registerCommand(SHOW_TASK_COMMAND, async (taskId?: unknown): Promise<vscode.Uri | undefined> => {
      const index = provider.tasks.findIndex((t) => t.id === taskId);
      if (index < 0) {
        void vscode.window.showInformationMessage('TOFFEE: that task is not in the Tasks view; build the tasks or show a run\'s tasks first.');
        return undefined;
      }
      const uri = documents.uriFor(provider.tasks[index], index);
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: true });
      return uri;
    }),
  );
  return { dispose: () => disposable.dispose(), snapshot: () => provider.snapshot() };
}
