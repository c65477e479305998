import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DataEnvironment } from '../core/env/types';
import type { SemanticEnvironment } from '../core/semantics/types';
import { readEnvironmentFacts, type EnvironmentFacts } from './environmentFacts';
import { buildEnvironmentNodes, type EnvironmentAction, type EnvironmentIcon, type EnvironmentNode } from './environmentNodes';
import { log } from './log';

export const ENVIRONMENT_VIEW_ID = 'toffee.environment';
/** Context key the manifest's `when` clauses read: the welcome view and the Refresh/Clear actions. */
export const ENVIRONMENT_LOADED_CONTEXT = 'toffee.environmentLoaded';
/** workspaceState key: the folder the view showed, reopened when the window reloads. */
export const REMEMBERED_ENVIRONMENT_KEY = 'toffee.environment.root';
export const PREVIEW_TABLE_COMMAND = 'toffee.previewTable';
export const OPEN_DOCUMENT_AT_COMMAND = 'toffee.openDocumentAt';

/** What the tree shows, as plain data read back from the TreeItems (the test API). */
export interface TreeSnapshotNode {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  /** Theme colour of the icon, e.g. problemsWarningIcon.foreground. */
  iconColor?: string;
  /** What a click runs. */
  command?: { command: string; arguments?: unknown[] };
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

  /** `memory` (the workspace's state) keeps the folder shown, so a reloaded window shows it again. */
  constructor(private readonly memory?: vscode.Memento) {}

  get environment(): DataEnvironment | undefined {
    return this.current?.environment;
  }

  /** The folder the view showed when the window was last open here (undefined after Clear). */
  get rememberedRoot(): string | undefined {
    return this.memory?.get<string>(REMEMBERED_ENVIRONMENT_KEY);
  }

  async show(environment: DataEnvironment): Promise<void> {
    let facts: EnvironmentFacts | undefined;
    try {
      facts = await readEnvironmentFacts(environment.image, environment.profile);
    } catch (error) {
      // Without the facts the view still shows every table; keys fall back to names, binary columns to their type.
      log().warn(`Could not read keys and storage of ${environment.root}: ${(error as Error).message}`);
    }
    // A semantic environment (loadSemanticEnvironment) shows what its columns mean.
    const root = buildEnvironmentNodes(environment.profile, { facts, semantics: (environment as Partial<SemanticEnvironment>).semantics });
    const parents = new Map<string, EnvironmentNode>();
    const index = (node: EnvironmentNode) => node.children.forEach((child) => (parents.set(child.id, node), index(child)));
    index(root);
    this.current = { environment, root, parents };
    this.changed.fire(undefined);
    await this.memory?.update(REMEMBERED_ENVIRONMENT_KEY, environment.root);
    void vscode.commands.executeCommand('setContext', ENVIRONMENT_LOADED_CONTEXT, true);
  }

  clear(): void {
    this.current = undefined;
    this.changed.fire(undefined);
    void this.memory?.update(REMEMBERED_ENVIRONMENT_KEY, undefined);
    void vscode.commands.executeCommand('setContext', ENVIRONMENT_LOADED_CONTEXT, false);
  }

  private command(action: EnvironmentAction | undefined): vscode.Command | undefined {
    const root = this.current?.environment.root;
    if (!action || !root) return undefined;
    switch (action.kind) {
      case 'previewTable':
        return { command: PREVIEW_TABLE_COMMAND, title: 'Preview Rows', arguments: [action.table] };
      case 'openHeading':
        return { command: OPEN_DOCUMENT_AT_COMMAND, title: 'Open at Heading', arguments: [path.join(root, action.file), action.heading, action.occurrence] };
      case 'openFile': {
        const options = action.line !== undefined ? { selection: new vscode.Range(action.line - 1, 0, action.line - 1, 0), preview: true } : { preview: true };
        return { command: 'vscode.open', title: 'Open File', arguments: [vscode.Uri.file(path.join(root, action.file)), options] };
      }
    }
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
    item.contextValue = node.id.includes('/column:') ? 'column' : node.id.split(':')[0];
    item.command = this.command(node.action);
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
        command: item.command ? { command: item.command.command, arguments: item.command.arguments } : undefined,
        children: this.getChildren(node).map(read),
      };
    };
    return { root: this.current.environment.root, nodes: this.getChildren().map(read) };
  }

  dispose(): void {
    this.changed.dispose();
  }
}
