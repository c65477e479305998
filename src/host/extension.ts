import type * as vscode from 'vscode';
import { EnvironmentTreeProvider, type EnvironmentSnapshot } from './EnvironmentTreeProvider';
import { registerEnvironmentView } from './environmentView';
import { registerLlmCommands } from './lm';
import { log, registerLog } from './log';
import { registerOpenEnvironmentCommands } from './openEnvironment';

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
    registerLlmCommands(context, { info: (m) => log().info(m), error: (m) => log().error(m) }),
  );
  return { environmentSnapshot: () => environmentTree.snapshot() };
}

export function deactivate(): void {}
