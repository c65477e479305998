import * as vscode from 'vscode';
import { ENVIRONMENT_VIEW_ID, EnvironmentTreeProvider } from './EnvironmentTreeProvider';

/** The Data Environment tree view in the TOFFEE activity-bar container. */
export function registerEnvironmentView(tree: EnvironmentTreeProvider): vscode.Disposable {
  const view = vscode.window.createTreeView(ENVIRONMENT_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  return vscode.Disposable.from(view, tree);
}
