/**
 * One host-wide signal that a run changed in a way the views show (state, tasks finished, trajectories, curation,
 * deletion), whoever noticed: a synthesis in this window, an explorer panel following a run written elsewhere,
 * the file watcher on workspace runs. The Runs view and the status bar listen; nobody polls or waits for Refresh.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface RunChange {
  runDir: string;
  /** The event type or lifecycle step that changed it (for the log and for listeners that care). */
  reason: string;
}

const changed = new vscode.EventEmitter<RunChange>();

export const onDidChangeRun: vscode.Event<RunChange> = changed.event;

export function runChanged(runDir: string, reason: string): void {
  changed.fire({ runDir: path.resolve(runDir), reason });
}
