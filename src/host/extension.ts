import type * as vscode from 'vscode';
import { EnvironmentTreeProvider, type EnvironmentSnapshot } from './EnvironmentTreeProvider';
import { registerChat } from './chat';
import { registerEnvironmentView } from './environmentView';
import { registerExplorer } from './explorer';
import { registerLlmCommands } from './lm';
import { log, registerLog } from './log';
import { registerOpenBenchmarkEnvironment } from './openBenchmarkEnvironment';
import { registerOpenEnvironmentCommands } from './openEnvironment';
import { registerTasksView } from './tasksView';

/** What activate() returns: read-only views of host state, for integration tests and other extensions. */
export interface ToffeeApi {
  /** The Data Environment view's content as plain data, read from its tree items; undefined when empty. */
  environmentSnapshot(): EnvironmentSnapshot | undefined;
}

// Wiring only: no loading or scanning here; every feature does its work when invoked.
export function activate(context: vscode.ExtensionContext): ToffeeApi {
  const environmentTree = new EnvironmentTreeProvider();
  context.subscriptions.push(
    registerLog(),
    registerEnvironmentView(environmentTree),
    registerOpenEnvironmentCommands(environmentTree),
    registerOpenBenchmarkEnvironment(),
    registerTasksView(environmentTree),
    registerLlmCommands(context, { info: (m) => log().info(m), error: (m) => log().error(m) }),
    registerExplorer(context),
    registerChat(context),
  );
  return { environmentSnapshot: () => environmentTree.snapshot() };
}

export function deactivate(): void {}
