import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isRunFolder, RUN_FILES } from '../core/store/runFolder';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** A CLI subcommand. Each lives in its own file under commands/ and is listed in commands/index.ts. */
export interface CliCommand {
  name: string;
  /** One line for `toffee --help`. */
  summary: string;
  /** Usage line(s) for `toffee <name> --help`. */
  usage: string;
  /** Returns the process exit code. Throw CliError for a one-line failure reason. */
  run(argv: string[]): Promise<number>;
}

/** A failure the user caused or can fix: printed as one line, exit code 1 (or the given one). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/**
 * A command's flags and positionals (node:util parseArgs, strict). An unknown or malformed flag is a usage
 * error: exit code 2 with the command's usage text.
 */
export function parseCommandArgs<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\n${usage}`, 2);
  }
}

/** The one positional a folder command takes, resolved; a missing or extra argument or a non-folder is an error. */
export function folderArgument(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new CliError(`expected one folder\n${usage}`, 2);
  const folder = path.resolve(positionals[0]);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CliError(`not a folder: ${positionals[0]}`);
  return folder;
}

/** A run folder argument, resolved; a folder without the run's run.json is an error. */
export function resolveRunDir(arg: string): string {
  const runDir = path.resolve(arg);
  if (!isRunFolder(runDir)) throw new CliError(`not a run folder (no ${RUN_FILES.meta}): ${arg}`);
  return runDir;
}
