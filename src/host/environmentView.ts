import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { previewTable } from './environmentFacts';
import { headingLine, type EnvironmentNode } from './environmentNodes';
import { ENVIRONMENT_VIEW_ID, EnvironmentTreeProvider, OPEN_DOCUMENT_AT_COMMAND, PREVIEW_TABLE_COMMAND } from './EnvironmentTreeProvider';
import { createNonce } from './explorer/explorerHtml';
import { describeError, log } from './log';
import { buildTablePreviewHtml } from './tablePreviewHtml';

const PREVIEW_ROWS = 200;

/**
 * The Data Environment tree view in the TOFFEE activity-bar container, and what its items open: a table's first
 * rows in a read-only grid (one preview tab per table), a document at one of its headings.
 */
export function registerEnvironmentView(tree: EnvironmentTreeProvider): vscode.Disposable {
  const view = vscode.window.createTreeView(ENVIRONMENT_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const previews = new Map<string, vscode.WebviewPanel>();
  return vscode.Disposable.from(
    view,
    tree,
    // Resolves to the preview's title (for tests and keybindings).
    vscode.commands.registerCommand(PREVIEW_TABLE_COMMAND, async (table?: unknown): Promise<string | undefined> => {
      // A click passes the table's name; the item's inline action passes the item itself.
      const action = (table as EnvironmentNode | undefined)?.action;
      const name = typeof table === 'string' ? table : action?.kind === 'previewTable' ? action.table : undefined;
      const environment = tree.environment;
      const profile = environment?.profile.tables.find((t) => t.name === name);
      if (!environment || !profile) return undefined;
      const key = `${environment.root}::${profile.name}`;
      try {
        const preview = await previewTable(environment.image, profile.name, PREVIEW_ROWS);
        const snapshot = tree.snapshot();
        const tableItem = snapshot?.nodes[0]?.children.find((g) => g.label === 'Tables')?.children.find((t) => t.label === profile.name);
        const columns = profile.columns.map((c) => ({ name: c.name, type: tableItem?.children.find((i) => i.label === c.name)?.description?.split(' ')[0] ?? c.type }));
        let panel = previews.get(key);
        if (!panel) {
          panel = vscode.window.createWebviewPanel('toffee.tablePreview', `Preview: ${profile.name}`, { viewColumn: vscode.ViewColumn.Active }, { enableScripts: false, localResourceRoots: [] });
          previews.set(key, panel);
          panel.onDidDispose(() => previews.delete(key));
        } else {
          panel.reveal();
        }
        panel.webview.html = buildTablePreviewHtml(preview, columns, { nonce: createNonce(), source: profile.sourceFile });
        return panel.title;
      } catch (error) {
        log().error(`Preview of ${profile.name} failed: ${describeError(error)}`);
        void vscode.window.showErrorMessage(`TOFFEE: could not preview ${profile.name}: ${describeError(error)}`);
        return undefined;
      }
    }),
    // Resolves to the 0-based line the editor opened at.
    vscode.commands.registerCommand(OPEN_DOCUMENT_AT_COMMAND, async (file?: unknown, heading?: unknown, occurrence?: unknown): Promise<number | undefined> => {
      if (typeof file !== 'string' || typeof heading !== 'string') return undefined;
      let line: number | undefined;
      try {
        line = headingLine(fs.readFileSync(file, 'utf8'), heading, typeof occurrence === 'number' ? occurrence : 0);
      } catch (error) {
        void vscode.window.showErrorMessage(`TOFFEE: could not open ${file}: ${describeError(error)}`);
        return undefined;
      }
      const at = new vscode.Range(line ?? 0, 0, line ?? 0, 0);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: at, preview: true });
      editor.revealRange(at, vscode.TextEditorRevealType.AtTop);
      return line;
    }),
    new vscode.Disposable(() => {
      for (const panel of previews.values()) panel.dispose();
    }),
  );
}
