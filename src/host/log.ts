import * as vscode from 'vscode';

/**
 * The one TOFFEE log output channel ("TOFFEE" in the Output view). Every host feature logs through here,
 * so users have a single place to look and tests a single channel to find.
 */
let channel: vscode.LogOutputChannel | undefined;

export const LOG_CHANNEL_NAME = 'TOFFEE';

/** The channel, created on first use (never at activation unless something logs). */
export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  return channel;
}

export const SHOW_LOG_COMMAND = 'toffee.showLog';

/** "TOFFEE: Show Log", and disposal of the channel with the extension. */
export function registerLog(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(SHOW_LOG_COMMAND, () => log().show(true)),
    new vscode.Disposable(() => {
      channel?.dispose();
      channel = undefined;
    }),
  );
}

/** An error as plain words for a message box: its message, never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
