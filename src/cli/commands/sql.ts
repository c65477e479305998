import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSemanticEnvironment } from '../../core/semantics/index';
import { DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS, SqlSandbox } from '../../core/sandbox/index';
import type { ToolResult } from '../../core/sandbox/index';
import { CliError, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee sql <folder> "<query>" [--json] [--timeout MS] [--max-rows N]

Loads the folder as a data environment and runs one read-only query in the SQL sandbox (sql.js in a worker
thread; writes are refused). Prints a table, or with --json an object {columns, rows, truncated}.
  --timeout MS    stop the query after MS milliseconds (default ${DEFAULT_TIMEOUT_MS})
  --max-rows N    return at most N rows (default ${DEFAULT_MAX_ROWS}); "truncated" says when rows were cut
Exit status: 0 on success; 1 with a one-line reason on an SQL error, a refusal, a timeout, or a folder that
cannot be loaded; 2 on bad arguments.`;

/** Cell text in the table view: long values are cut so one wide column cannot wreck the layout. */
const MAX_CELL_CHARS = 60;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : String(value);
  const oneLine = text.replace(/\r?\n/g, '⏎');
  return oneLine.length > MAX_CELL_CHARS ? `${oneLine.slice(0, MAX_CELL_CHARS - 1)}…` : oneLine;
}

/** A plain-text table: header, rule, rows (numbers right-aligned), and a line saying how many rows. */
export function formatResultTable(result: Pick<ToolResult, 'columns' | 'rows' | 'truncated'>): string {
  const columns = result.columns ?? [];
  const rows = result.rows ?? [];
  if (columns.length === 0) return '(no result columns)';
  const texts = rows.map((row) => columns.map((_, i) => cellText(row[i])));
  const numeric = columns.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || row[i] === null));
  const widths = columns.map((name, i) => Math.max(cellText(name).length, ...texts.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  const count = rows.length === 1 ? '1 row' : `${rows.length} rows`;
  const footer = result.truncated ? `(${count} shown; more were cut at the row cap, see --max-rows)` : `(${count})`;
  return [line(columns.map(cellText)), widths.map((w) => '-'.repeat(w)).join('  '), ...texts.map(line), footer].join('\n');
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive integer, not '${value}'`, 2);
  return n;
}

export const sqlCommand: CliCommand = {
  name: 'sql',
  summary: 'Run one read-only SQL query against a folder\'s data environment',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      json: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      'max-rows': { type: 'string' },
    }, USAGE);
    const { values, positionals } = parsed;
    if (positionals.length !== 2) throw new CliError(`expected a folder and one quoted query\n${USAGE}`, 2);
    const [folderArg, query] = positionals;
    const timeoutMs = positiveInteger(values.timeout, '--timeout');
    const maxRows = positiveInteger(values['max-rows'], '--max-rows');
    const folder = path.resolve(folderArg);
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CliError(`not a folder: ${folderArg}`);

    let image: Uint8Array;
    try {
      // The environment the agent and `toffee profile` see, with the views the semantic layer adds (a partition's
      // union of files, `portal_csv_all`): a query the profile suggests runs here too.
      const env = await loadSemanticEnvironment(folder);
      image = env.image;
      const failed = env.profile.diagnostics.filter((d) => d.severity === 'error').length;
      if (failed > 0) console.error(`note: ${failed} file problem(s) while loading; \`toffee profile ${folderArg}\` lists them`);
    } catch (error) {
      throw new CliError(`cannot load ${folderArg}: ${error instanceof Error ? error.message : String(error)}`);
    }

    const sandbox = new SqlSandbox(image, { timeoutMs, maxRows });
    let result: ToolResult;
    try {
      result = await sandbox.run(query);
    } finally {
      // Ends the worker thread, so the process exits as soon as the output is written.
      await sandbox.dispose();
    }
    if (!result.ok) throw new CliError(result.error ?? `the query failed (${result.errorKind ?? 'unknown'})`);
    if (values.json) {
      console.log(JSON.stringify({ columns: result.columns ?? [], rows: result.rows ?? [], truncated: result.truncated ?? false }));
    } else {
      console.log(formatResultTable(result));
    }
    return 0;
  },
};
