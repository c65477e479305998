import type * as vscode from 'vscode';
import type { RunView } from '../shared/runView';
import { EnvironmentTreeProvider, type EnvironmentSnapshot } from './EnvironmentTreeProvider';
import { createChatHandler, registerChat } from './chat';
import { registerEnvironmentView } from './environmentView';
import { registerExportCommands } from './exportCommand';
import { ExplorerPanel, registerExplorer, type RunTreeSnapshotItem } from './explorer';
import { runningRuns } from './explorer/liveRuns';
import { registerLlmCommands } from './lm';
import { log, registerLog } from './log';
import { registerOpenBenchmarkEnvironment } from './openBenchmarkEnvironment';
import { registerOpenEnvironmentCommands } from './openEnvironment';
import { registerOpenSample } from './openSample';
import { registerTasksView, type TaskTreeSnapshotNode } from './tasksView';

/** What activate() returns: read-only views of host state, for integration tests and other extensions. */
export interface ToffeeApi {
  /** The Data Environment view's content as plain data, read from its tree items; undefined when empty. */
  environmentSnapshot(): EnvironmentSnapshot | undefined;
  /** The run as an open explorer panel has reduced it from its events; undefined when no panel shows that run. */
  explorerView(runDir: string): RunView | undefined;
  /**
   * Delivers a message to an open explorer panel's host side as if its webview had posted it (the same
   * validation and curation path as a click in the panel); false when no panel shows that run.
   */
  explorerReceive(runDir: string, message: unknown): Promise<boolean>;
  /**
   * The `@toffee` chat participant's request handler, the one registered with VS Code's chat, for hosts and tests
   * that drive it without the Chat view.
   */
  chatRequestHandler: vscode.ChatRequestHandler;
  /** The Tasks view's items (families → tasks, with each task's Show Task command) as plain data. */
  tasksSnapshot(): TaskTreeSnapshotNode[];
  /** The Runs view's items (label, description, context value) as plain data, as the view shows them now. */
  runsSnapshot(): Promise<RunTreeSnapshotItem[]>;
  /** Run folders a synthesis in this window is writing now (from before the folder exists). */
  runningSyntheses(): string[];
}

// Wiring only: no loading or scanning here; every feature does its work when invoked.
export function activate(context: vscode.ExtensionContext): ToffeeApi {
  const environmentTree = new EnvironmentTreeProvider(context.workspaceState);
  const chatRequestHandler = createChatHandler(context);
  const tasksView = registerTasksView(environmentTree);
  const explorer = registerExplorer(context, () => environmentTree.environment?.root);
  context.subscriptions.push(
    registerLog(),
    registerEnvironmentView(environmentTree),
    registerOpenEnvironmentCommands(environmentTree),
    registerOpenBenchmarkEnvironment(),
    registerOpenSample(context),
    tasksView,
    registerLlmCommands(context, { info: (m) => log().info(m), error: (m) => log().error(m) }),
    explorer,
    registerExportCommands(context),
    registerChat(context, chatRequestHandler),
  );
  return {
    chatRequestHandler,
    environmentSnapshot: () => environmentTree.snapshot(),
    tasksSnapshot: () => tasksView.snapshot(),
    runsSnapshot: () => explorer.runsSnapshot(),
    runningSyntheses: () => runningRuns(),
    explorerView: (runDir) => ExplorerPanel.find(runDir)?.view,
    explorerReceive: async (runDir, message) => {
      const panel = ExplorerPanel.find(runDir);
      if (!panel) return false;
      await panel.receive(message);
      return true;
    },
  };
}

export function deactivate(): void {}
