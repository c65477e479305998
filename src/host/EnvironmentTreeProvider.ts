import * as vscode from 'vscode';
import type { DataEnvironment } from '../core/env/types';
import { buildEnvironmentNodes, type EnvironmentIcon, type EnvironmentNode } from './environmentNodes';

export const ENVIRONMENT_VIEW_ID = 'toffee.environment';
/** Context key the manifest's `when` clauses read: the welcome view and the Refresh/Clear actions. */
export const ENVIRONMENT_LOADED_CONTEXT = 'toffee.environmentLoaded';

/** What the tree shows, as plain data read back from the TreeItems (the test API). */
export interface TreeSnapshotNode {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  /** Theme colour of the icon, e.g. problemsWarningIcon.foreground. */
  iconColor?: string;
  children: TreeSnapshotNode[];
}

export interface EnvironmentSnapshot {
  root: string;
  nodes: TreeSnapshotNode[];
}

const iconColors: Partial<Record<EnvironmentIcon, string>> = {
  error: 'problemsErrorIcon.foreground',
  warning: 'problemsWarningIcon.foreground',
  info: 'problemsInfoIcon.foreground',
  key: 'symbolIcon.keyForeground',
  pass: 'testing.iconPassed',
};

/** The Data Environment view's data: one loaded environment, or nothing (then the welcome view shows). */
export class EnvironmentTreeProvider implements vscode.TreeDataProvider<EnvironmentNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EnvironmentNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private current: { environment: DataEnvironment; root: EnvironmentNode; parents: Map<string, EnvironmentNode> } | undefined;

  get environment(): DataEnvironment | undefined {
    return this.current?.environment;
  }

  show(environment: DataEnvironment): void {
    const root = buildEnvironmentNodes(environment.profile);
    const parents = new Map<string, EnvironmentNode>();
    const index = (node: EnvironmentNode) => node.children.forEach((child) => (parents.set(child.id, node), index(child)));
    index(root);
    this.current = { environment, root, parents };
    this.changed.fire(undefined);
    void vscode.commands.executeCommand('setContext', ENVIRONMENT_LOADED_CONTEXT, true);
  }

  clear(): void {
    this.current = undefined;
    this.changed.fire(undefined);
    void vscode.commands.executeCommand('setContext', ENVIRONMENT_LOADED_CONTEXT, false);
  }

  getChildren(node?: EnvironmentNode): EnvironmentNode[] {
    if (!this.current) return [];
    return node ? node.children : [this.current.root];
  }

  getParent(node: EnvironmentNode): EnvironmentNode | undefined {
    return this.current?.parents.get(node.id);
  }

  getTreeItem(node: EnvironmentNode): vscode.TreeItem {
    const state = node.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    // Ids carry the root so two different folders never share expansion state.
    item.id = `${this.current?.environment.root ?? ''}::${node.id}`;
    item.description = node.description;
    item.tooltip = node.tooltip;
    const color = iconColors[node.icon];
    item.iconPath = new vscode.ThemeIcon(node.icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = node.id.split(':')[0];
    return item;
  }

  /** Reads the tree back through getChildren/getTreeItem, exactly what the view renders. */
  snapshot(): EnvironmentSnapshot | undefined {
    if (!this.current) return undefined;
    const read = (node: EnvironmentNode): TreeSnapshotNode => {
      const item = this.getTreeItem(node);
      const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
      return {
        label: typeof item.label === 'string' ? item.label : (item.label?.label ?? ''),
        description: typeof item.description === 'string' ? item.description : undefined,
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value,
        icon: icon?.id,
        iconColor: icon?.color?.id,
        children: this.getChildren(node).map(read),
      };
    };
    return { root: this.current.environment.root, nodes: this.getChildren().map(read) };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
