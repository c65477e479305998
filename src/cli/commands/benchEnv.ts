import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  defaultEnvironmentsDir,
  findEntry,
  prepareBenchmarkEnvironment,
  sampleEntries,
  scanBenchmark,
  type BenchmarkCatalog,
  type BenchmarkEntry,
} from '../../core/benchenv/index';
import { loadEnvironment } from '../../core/env/index';
import { CliError, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee bench-env <benchmark-folder> [--list] [--pick ID] [--sample K --seed S] [--out DIR] [--json]

Opens a benchmark folder (Spider, BIRD, LiveSQLBench-style SQLite + knowledge base, SpreadsheetBench) as data
environments. Each picked environment becomes an ordinary folder — the data file linked (or copied), the
benchmark's column descriptions / knowledge entries as Markdown documents, and the benchmark's own questions in
<folder>/.toffee/contamination.json so generated tasks never overlap them — then is loaded to check it.
  --list          list the environments the folder offers (the default without --pick or --sample)
  --pick ID       prepare and load one environment (a db_id, database name, or instruction id)
  --sample K      prepare K environments spread over schema size and domain (each its own run)
  --seed S        seed for --sample (default 1)
  --out DIR       where environment folders go (default <benchmark-folder>/.toffee/environments)
  --json          print JSON instead of text
Exit status: 0 on success; 1 with a one-line reason when the folder has no environments or one fails to
load; 2 on bad arguments.`;

function integer(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`${flag} must be an integer ≥ ${min}, not '${value}'`, 2);
  return n;
}

function textTable(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()).join('\n');
}

function listing(catalog: BenchmarkCatalog): string {
  const layout = catalog.entries.length > 0 ? `${catalog.kind} layout, ` : '';
  const out = [`Benchmark folder: ${catalog.root} (${layout}${catalog.entries.length} environment(s))`, ''];
  if (catalog.entries.length > 0) {
    out.push(
      textTable([
        ['id', 'kind', 'domain', 'tables', 'columns', 'questions', 'bytes'],
        ...catalog.entries.map((e) => [
          e.id,
          e.kind,
          e.domain,
          e.tables === undefined ? '' : String(e.tables),
          e.columns === undefined ? '' : String(e.columns),
          String(e.questions.length),
          String(e.sizeBytes),
        ]),
      ]),
    );
  }
  if (catalog.notes.length > 0) out.push('', `Notes (${catalog.notes.length})`, ...catalog.notes.map((n) => `  ${n}`));
  return out.join('\n');
}

interface PreparedSummary {
  id: string;
  kind: string;
  folder: string;
  tables: number;
  documents: number;
  rows: number;
  problems: number;
  contaminationFile: string;
  benchmarkQuestions: number;
  notes: string[];
}

async function prepareAndLoad(catalog: BenchmarkCatalog, entry: BenchmarkEntry, out: string): Promise<PreparedSummary> {
  const prepared = await prepareBenchmarkEnvironment(catalog, entry, out);
  const environment = await loadEnvironment(prepared.folder);
  const profile = environment.profile;
  return {
    id: entry.id,
    kind: entry.kind,
    folder: prepared.folder,
    tables: profile.tables.length,
    documents: profile.documents.length,
    rows: profile.tables.reduce((sum, t) => sum + t.rowCount, 0),
    problems: profile.diagnostics.filter((d) => d.severity !== 'info').length,
    contaminationFile: path.join(prepared.folder, '.toffee', 'contamination.json'),
    benchmarkQuestions: prepared.contamination.reduce((sum, r) => sum + r.questions.length, 0),
    notes: prepared.notes,
  };
}

function summaryText(summary: PreparedSummary): string {
  return [
    `${summary.kind}:${summary.id} → ${summary.folder}`,
    `  ${summary.tables} table(s), ${summary.rows} row(s), ${summary.documents} document(s), ${summary.problems} problem(s)`,
    `  ${summary.benchmarkQuestions} benchmark question(s) recorded in ${summary.contaminationFile}`,
    ...summary.notes.map((n) => `  note: ${n}`),
  ].join('\n');
}

export const benchEnvCommand: CliCommand = {
  name: 'bench-env',
  summary: 'Open a benchmark folder (Spider, BIRD, LiveSQLBench, SpreadsheetBench) as data environments',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(
      argv,
      {
        list: { type: 'boolean' },
        pick: { type: 'string' },
        sample: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
      },
      USAGE,
    );
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new CliError('expected exactly one benchmark folder (see toffee bench-env --help)', 2);
    if (values.pick !== undefined && values.sample !== undefined) throw new CliError('use either --pick or --sample, not both', 2);
    const sample = integer(values.sample, '--sample', 1);
    const seed = integer(values.seed, '--seed', 0) ?? 1;
    if (values.seed !== undefined && sample === undefined) throw new CliError('--seed only applies with --sample', 2);
    const folder = path.resolve(positionals[0]);
    const stat = fs.statSync(folder, { throwIfNoEntry: false });
    if (!stat) throw new CliError(`folder not found: ${folder}`);
    if (!stat.isDirectory()) throw new CliError(`not a folder: ${folder}`);

    const catalog = scanBenchmark(folder);
    if (catalog.entries.length === 0) {
      if (!values.json) console.log(listing(catalog));
      throw new CliError(`no benchmark environments found in ${folder} (expected Spider/BIRD, LiveSQLBench or SpreadsheetBench layout)`);
    }
    const out = values.out ? path.resolve(values.out) : defaultEnvironmentsDir(catalog);

    let chosen: BenchmarkEntry[];
    if (values.pick !== undefined) {
      try {
        chosen = [findEntry(catalog, values.pick)];
      } catch (e) {
        throw new CliError((e as Error).message);
      }
    } else if (sample !== undefined) {
      chosen = sampleEntries(catalog.entries, sample, seed);
    } else {
      if (values.json) {
        const entries = catalog.entries.map(({ sources: _sources, questions, ...rest }) => ({ ...rest, questions: questions.length }));
        console.log(JSON.stringify({ root: catalog.root, kind: catalog.kind, entries, notes: catalog.notes }, null, 2));
      } else {
        console.log(listing(catalog));
      }
      return 0;
    }

    const summaries: PreparedSummary[] = [];
    for (const entry of chosen) {
      let summary: PreparedSummary;
      try {
        summary = await prepareAndLoad(catalog, entry, out);
      } catch (e) {
        throw new CliError(`${entry.kind}:${entry.id} could not be prepared: ${(e as Error).message}`);
      }
      summaries.push(summary);
      if (!values.json) console.log(summaryText(summary));
    }
    if (values.json) console.log(JSON.stringify({ root: catalog.root, kind: catalog.kind, seed: sample === undefined ? undefined : seed, environments: summaries }, null, 2));
    else if (summaries.length > 1) console.log(`\n${summaries.length} environments prepared; synthesize each as its own run.`);
    const empty = summaries.filter((s) => s.tables === 0 && s.documents === 0);
    if (empty.length > 0) throw new CliError(`nothing loadable in ${empty.map((s) => s.folder).join(', ')}`);
    return 0;
  },
};
