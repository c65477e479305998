import * as path from 'node:path';
import * as vscode from 'vscode';
import { isRunFolder, RUN_FILES, type RunStore } from '../../core/store';
import type { PoolProgressView } from '../../shared/protocol';
import type { RunView } from '../../shared/runView';
import { describeError, log } from '../log';
import { buildExplorerHtml, createNonce } from './explorerHtml';
import { ExplorerSession } from './ExplorerSession';
import { runChanged } from './runActivity';
import { runName } from '../../shared/runNames';

/** Runs "TOFFEE: Export Trajectories" on a run folder and says what it did (set by the export feature). */
let exportHandler: ((runDir: string) => Promise<{ ok: boolean; message: string }>) | undefined;

export function setExplorerExportHandler(handler: typeof exportHandler): void {
  exportHandler = handler;
}

export const EXPLORER_VIEW_TYPE = 'toffee.explorer';

/**
 * The explorer webview panel for one run folder: HTML with a strict CSP, the message router (ExplorerSession),
 * and lifecycle (hidden without retained context → the webview reloads and asks for a snapshot when shown).
 * One panel per run; opening the same run again reveals it.
 */
export class ExplorerPanel {
  private static readonly panels = new Map<string, ExplorerPanel>();
  private readonly session: ExplorerSession;
  private readonly disposables: vscode.Disposable[] = [];

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    readonly runDir: string,
    liveStore?: RunStore,
    /** Set for a run not created yet (see showPending): the panel's title until it is. */
    pendingTitle?: string,
  ) {
    const distUri = vscode.Uri.joinPath(extensionUri, 'dist');
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [distUri] };
    this.session = new ExplorerSession({
      runDir,
      liveStore,
      post: (message) => panel.webview.postMessage(message),
      log: (message) => log().warn(message),
      pending: pendingTitle !== undefined,
      exportRun: () => (exportHandler ? exportHandler(runDir) : Promise.resolve({ ok: false, message: 'Export is not available.' })),
      onRunEvents: (types) => {
        // A run followed from before it existed (queue mode, or a synthesis here) is named once it starts.
        if (types.includes('run/started')) this.runStarted();
        runChanged(runDir, types.join(','));
      },
    });
    panel.title = pendingTitle ?? `TOFFEE: ${runName({ runId: this.session.runId, dataFolder: this.session.view.dataFolder })}`;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'toffee.svg');
    panel.webview.html = buildExplorerHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'webview.css')).toString(),
      nonce: createNonce(),
      title: `TOFFEE run ${this.session.runId}`,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message) => this.session.handleMessage(message)),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        // A hidden webview without retained context is torn down; when shown it reloads and sends ready.
        if (!webviewPanel.visible) this.session.webviewGone();
        else this.session.sendSnapshot();
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Opens (or reveals) the panel for a run folder. */
  static show(extensionUri: vscode.Uri, runDir: string, liveStore?: RunStore): ExplorerPanel {
    const key = path.resolve(runDir);
    const existing = ExplorerPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    assertRunFolder(key);
    const panel = vscode.window.createWebviewPanel(EXPLORER_VIEW_TYPE, 'TOFFEE Explorer', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
    });
    const explorer = new ExplorerPanel(panel, extensionUri, key, liveStore);
    ExplorerPanel.panels.set(key, explorer);
    return explorer;
  }

  /**
   * Opens the panel on a run that a synthesis in this window is about to create (its folder does not exist while the
   * task pool is built): it shows the pool's progress, then follows the run from its first event.
   */
  static showPending(extensionUri: vscode.Uri, runDir: string, folder: string): ExplorerPanel {
    const key = path.resolve(runDir);
    const existing = ExplorerPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(EXPLORER_VIEW_TYPE, 'TOFFEE Explorer', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
    });
    const explorer = new ExplorerPanel(panel, extensionUri, key, undefined, `TOFFEE: building tasks for ${path.basename(folder)}`);
    ExplorerPanel.panels.set(key, explorer);
    return explorer;
  }

  /** The task pool's progress, shown until the run's tasks arrive. */
  setPool(pool: PoolProgressView): void {
    this.session.setPool(pool);
  }

  /** A banner in the panel. */
  notice(level: 'info' | 'warning' | 'error', message: string): void {
    this.session.notice(level, message);
  }

  /** The run has its id and folder now: the title names it. */
  runStarted(): void {
    this.panel.title = `TOFFEE: ${runName({ runId: this.session.runId, dataFolder: this.session.view.dataFolder })}`;
    this.session.postInfo();
  }

  /** After a window reload VS Code hands back the panel with the webview's saved state (which names the run). */
  static revive(extensionUri: vscode.Uri, panel: vscode.WebviewPanel, state: unknown): void {
    const runDir = state && typeof state === 'object' && typeof (state as { runDir?: unknown }).runDir === 'string' ? (state as { runDir: string }).runDir : undefined;
    try {
      if (!runDir) throw new Error('the panel did not record which run it showed');
      assertRunFolder(runDir);
      const explorer = new ExplorerPanel(panel, extensionUri, path.resolve(runDir), undefined);
      ExplorerPanel.panels.set(explorer.runDir, explorer);
    } catch (error) {
      log().warn(`Could not restore a TOFFEE explorer panel: ${describeError(error)}`);
      panel.dispose();
    }
  }

  /** The open panel for a run folder, if any. */
  static find(runDir: string): ExplorerPanel | undefined {
    return ExplorerPanel.panels.get(path.resolve(runDir));
  }

  /** Handles a message exactly as if the panel's webview had posted it; resolves once curation requests are answered. */
  async receive(message: unknown): Promise<void> {
    this.session.handleMessage(message);
    await this.session.idle();
  }

  /** The run as the panel's session has reduced it (for the status bar). */
  get view(): RunView {
    return this.session.view;
  }

  static disposeAll(): void {
    for (const explorer of [...ExplorerPanel.panels.values()]) explorer.panel.dispose();
  }

  private dispose(): void {
    ExplorerPanel.panels.delete(this.runDir);
    this.session.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

function assertRunFolder(runDir: string): void {
  if (!isRunFolder(runDir)) throw new Error(`${runDir} is not a TOFFEE run folder (no ${RUN_FILES.meta})`);
}
