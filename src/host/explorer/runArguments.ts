import * as vscode from 'vscode';
import type { RunSummary } from '../../core/store';

/** A run folder from a command argument: a path (Runs view, panel), a Uri (explorer/context), or a RunSummary. */
export function runDirFromArgument(argument: unknown): string | undefined {
  if (typeof argument === 'string') return argument;
  if (argument instanceof vscode.Uri) return argument.fsPath;
  if (argument && typeof argument === 'object' && typeof (argument as RunSummary).runDir === 'string') return (argument as RunSummary).runDir;
  return undefined;
}
