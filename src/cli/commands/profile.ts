import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEnvironment } from '../../core/env/index';
import type { EnvironmentProfile } from '../../core/env/types';
import { CliError, type CliCommand } from '../command';

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}

/** The profile as text a person reads in a terminal. */
export function formatProfile(profile: EnvironmentProfile): string {
  const out: string[] = [`Data environment: ${profile.root}`, ''];
  out.push(`Tables (${profile.tables.length})`);
  if (profile.tables.length > 0) {
    out.push(
      table([
        ['name', 'kind', 'rows', 'columns', 'source'],
        ...profile.tables.map((t) => [t.name, t.kind, String(t.rowCount), String(t.columns.length), t.sourceFile]),
      ]),
    );
    for (const t of profile.tables) {
      out.push('', `${t.name}${t.parent ? ` (child of ${t.parent.table} via ${t.parent.column})` : ''}`);
      out.push(
        table([
          ['column', 'type', 'nulls', 'distinct', 'min', 'max', 'key', 'samples'],
          ...t.columns.map((c) => [
            c.name,
            c.type,
            `${(c.nullFraction * 100).toFixed(1)}%`,
            String(c.distinctCount),
            c.min === undefined ? '' : String(c.min),
            c.max === undefined ? '' : String(c.max),
            c.candidateKey ? 'yes' : '',
            c.samples.map((s) => JSON.stringify(s).slice(0, 30)).join(', '),
          ]),
        ]).replace(/^/gm, '  '),
      );
    }
  }
  out.push('', `Documents (${profile.documents.length})`);
  if (profile.documents.length > 0) {
    out.push(
      table([
        ['name', 'title', 'bytes', 'headings'],
        ...profile.documents.map((d) => [d.name, d.title, String(d.sizeBytes), String(d.headings.length)]),
      ]),
    );
  }
  out.push('', `Diagnostics (${profile.diagnostics.length})`);
  for (const d of profile.diagnostics) out.push(`  ${d.severity.padEnd(7)} ${d.file}${d.line ? `:${d.line}` : ''}  ${d.message}`);
  return out.join('\n');
}

export const profileCommand: CliCommand = {
  name: 'profile',
  summary: 'Load a folder of data files and print its profile (tables, columns, documents, diagnostics)',
  usage: [
    'Usage: toffee profile <folder> [--json]',
    '',
    '  <folder>  folder of CSV, TSV, JSON, JSONL, SQLite, Markdown and TXT files (read recursively)',
    '  --json    print { tables, documents, diagnostics, files } as JSON instead of a readable table',
    '',
    'Exit code 0 when anything loaded; 1 with a one-line reason otherwise.',
  ].join('\n'),
  async run(argv) {
    const json = argv.includes('--json');
    const unknown = argv.filter((a) => a.startsWith('-') && a !== '--json');
    if (unknown.length > 0) throw new CliError(`unknown option ${unknown[0]}`, 2);
    const positional = argv.filter((a) => !a.startsWith('-'));
    if (positional.length !== 1) throw new CliError('expected exactly one folder (usage: toffee profile <folder> [--json])', 2);
    const folder = path.resolve(positional[0]);
    const stat = fs.statSync(folder, { throwIfNoEntry: false });
    if (!stat) throw new CliError(`folder not found: ${folder}`);
    if (!stat.isDirectory()) throw new CliError(`not a folder: ${folder}`);

    const environment = await loadEnvironment(folder);
    const profile = environment.profile;
    if (json) {
      const { tables, documents, diagnostics, files } = profile;
      console.log(JSON.stringify({ root: profile.root, tables, documents, diagnostics, files }, null, 2));
    } else {
      console.log(formatProfile(profile));
    }
    if (profile.tables.length === 0 && profile.documents.length === 0) {
      const problems = profile.diagnostics.filter((d) => d.severity !== 'info').length;
      throw new CliError(`nothing loadable in ${folder} (${profile.files.length} file(s), ${problems} problem(s))`);
    }
    return 0;
  },
};
