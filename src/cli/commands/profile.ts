import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvironmentProfile } from '../../core/env/types';
import { meaningOf, relationshipText, sourceOf } from '../../core/semantics/describe';
import { loadSemanticEnvironment } from '../../core/semantics/index';
import type { ColumnSemantics, SemanticProfile } from '../../core/semantics/types';
import { CliError, type CliCommand } from '../command';

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n');
}

/** The profile as text a person reads in a terminal; with the semantic profile, what each column means and why. */
/** The least value where it is a code for not known: "-9 (not known, 9 rows)". */
function leastCode(min: unknown, semantics: ColumnSemantics | undefined): string | undefined {
  const code = semantics?.missingCodes?.find((x) => x.value === min);
  return code ? `${min} (not known, ${code.rows} rows)` : undefined;
}

export function formatProfile(profile: EnvironmentProfile, semantics?: SemanticProfile): string {
  const about = (table: string, column: string) => semantics?.columns.find((c) => c.table === table && c.column === column);
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
      const kind = semantics?.tables.find((x) => x.table === t.name);
      out.push('', `${t.name}${t.parent ? ` (child of ${t.parent.table} via ${t.parent.column})` : ''}${kind ? ` — ${kind.kind.value}${kind.partition ? `, ${kind.partition.name} ${kind.partition.value}` : ''}` : ''}`);
      out.push(
        table([
          ['column', 'type', 'role', 'aggregation', 'unit', 'nulls', 'distinct', 'min', 'max', 'samples', 'why', 'description'],
          ...t.columns.map((c) => {
            const m = about(t.name, c.name);
            return [
              c.name,
              c.type,
              m ? meaningOf(m, semantics, c.distinctCount).split(' · ').slice(0, 2).join(' · ') : '',
              m?.aggregation ?? '',
              m?.unit?.value.label ?? '',
              `${(c.nullFraction * 100).toFixed(1)}%`,
              String(c.distinctCount),
              // (A code for a value not known, `-9`, said where it shows as the least value.)
              c.min === undefined ? '' : leastCode(c.min, m) ?? String(c.min),
              c.max === undefined ? '' : String(c.max),
              c.samples.map((s) => JSON.stringify(s).slice(0, 30)).join(', '),
              m ? sourceOf(m.role) : '',
              (m?.description?.value ?? '').slice(0, 80),
            ];
          }),
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
  if (semantics) {
    out.push('', `Relationships (${semantics.relationships.length})`);
    for (const r of semantics.relationships) out.push(`  ${relationshipText(r)}`);
    out.push('', `Partitions (${semantics.partitions.length})`);
    for (const p of semantics.partitions) out.push(`  ${p.name}: ${p.tables.length} files by ${p.key}${p.view ? `, as one view ${p.view}` : ''} (${p.why})`);
    const facts = [
      ...semantics.tables.filter((t) => t.metadata).map((t) => `metadata ${t.table}: ${t.metadata!.why}`),
      ...(semantics.twinTables ?? []).map((t) => `twin tables: ${t.why} (asked over ${t.kept})`),
      ...(semantics.twinColumns ?? []).map((t) => `twin columns ${t.table}.${t.kept} ↔ ${t.copy}: ${t.why}`),
      ...(semantics.repeated ?? []).map((r) => `repeated ${r.table}.${r.column}: ${r.why}`),
      ...(semantics.layout ?? []).map((l) => `layout ${l.table}.${l.column} (${l.kind}): ${l.why}`),
      ...(semantics.totalRows ?? []).map((t) => `total rows ${t.table}.${t.column} ${t.values.map((v) => `'${v}'`).join(', ')} (${t.rows} rows, ${t.evidence}, confidence ${t.confidence}): ${t.why}`),
    ];
    if (facts.length > 0) out.push('', `Data layout (${facts.length})`, ...facts.map((f) => `  ${f}`));
    const described = new Set(semantics.columns.filter((c) => c.description?.source.kind === 'dictionary').map((c) => `${c.table}.${c.column}`)).size;
    out.push('', `Data dictionary: ${semantics.dictionary.length} entr${semantics.dictionary.length === 1 ? 'y' : 'ies'} from ${new Set(semantics.dictionary.map((d) => d.file)).size} document(s), ${described} column(s) described`);
    if (semantics.corrections) out.push(`Corrections: ${semantics.corrections.applied} from ${semantics.corrections.file}`);
  }
  out.push('', `Diagnostics (${profile.diagnostics.length})`);
  for (const d of profile.diagnostics) out.push(`  ${d.severity.padEnd(7)} ${d.file}${d.line ? `:${d.line}` : ''}  ${d.message}`);
  return out.join('\n');
}

export const profileCommand: CliCommand = {
  name: 'profile',
  summary: 'Load a folder of data files and print its profile: tables, what each column means (role, aggregation, unit, description, and why), relationships, partitions, documents, diagnostics',
  usage: [
    'Usage: toffee profile <folder> [--json]',
    '',
    '  <folder>  folder of CSV, TSV, JSON, JSONL, SQLite, Markdown and TXT files (read recursively)',
    '  --json    print { tables, documents, diagnostics, files, semantics } as JSON instead of a readable table',
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

    const environment = await loadSemanticEnvironment(folder);
    const profile = environment.profile;
    if (json) {
      const { tables, documents, diagnostics, files } = profile;
      console.log(JSON.stringify({ root: profile.root, tables, documents, diagnostics, files, semantics: environment.semantics }, null, 2));
    } else {
      console.log(formatProfile(profile, environment.semantics));
    }
    if (profile.tables.length === 0 && profile.documents.length === 0) {
      const problems = profile.diagnostics.filter((d) => d.severity !== 'info').length;
      throw new CliError(`nothing loadable in ${folder} (${profile.files.length} file(s), ${problems} problem(s))`);
    }
    return 0;
  },
};
