/**
 * What the Data Environment tree shows, as plain data built from an environment profile. Kept free of
 * 'vscode' so the shape (labels, counts, icons, grouping) is unit-tested in plain mocha; the tree view
 * provider only turns these nodes into TreeItems.
 */
import * as path from 'node:path';
import type { ColumnProfile, EnvironmentProfile, FileDiagnostic, Severity, TableProfile } from '../core/env/types';

/** Codicon ids the tree uses; colour is chosen by the provider from the id. */
export type EnvironmentIcon =
  | 'root-folder'
  | 'database'
  | 'table'
  | 'eye'
  | 'key'
  | 'symbol-field'
  | 'book'
  | 'markdown'
  | 'list-tree'
  | 'file'
  | 'error'
  | 'warning'
  | 'info'
  | 'pass';

export interface EnvironmentNode {
  /** Unique and stable across reloads of the same folder, so expansion state survives a refresh. */
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: EnvironmentIcon;
  /** Initially expanded (only meaningful when there are children). */
  expanded?: boolean;
  children: EnvironmentNode[];
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

function columnTooltip(column: ColumnProfile): string {
  const lines = [`${column.originalName} (${column.type})`];
  if (column.name !== column.originalName) lines.push(`SQL name: ${column.name}`);
  lines.push(`nulls: ${(column.nullFraction * 100).toFixed(1)}%`, `distinct: ${column.distinctCount.toLocaleString('en-US')}`);
  if (column.min !== undefined || column.max !== undefined) lines.push(`range: ${column.min ?? '?'} … ${column.max ?? '?'}`);
  if (column.samples.length) lines.push(`samples: ${column.samples.map((s) => JSON.stringify(s)).join(', ')}`);
  if (column.candidateKey) lines.push('candidate key: non-null and unique');
  return lines.join('\n');
}

function tableNode(table: TableProfile): EnvironmentNode {
  const id = `table:${table.name}`;
  const tooltip = [
    `${table.name}${table.kind === 'view' ? ' (view)' : ''}`,
    `source: ${table.sourceFile}`,
    table.originalName !== table.name ? `original name: ${table.originalName}` : undefined,
    table.parent ? `child of ${table.parent.table} via ${table.parent.column}` : undefined,
    `${formatCount(table.rowCount, 'row')}, ${formatCount(table.columns.length, 'column')}`,
  ].filter((line): line is string => line !== undefined);
  return {
    id,
    label: table.name,
    description: formatCount(table.rowCount, 'row'),
    tooltip: tooltip.join('\n'),
    icon: table.kind === 'view' ? 'eye' : 'table',
    children: table.columns.map((column) => ({
      id: `${id}/column:${column.name}`,
      label: column.name,
      description: column.candidateKey ? `${column.type} · key` : column.type,
      tooltip: columnTooltip(column),
      icon: column.candidateKey ? 'key' : 'symbol-field',
      children: [],
    })),
  };
}

function worstSeverity(diagnostics: FileDiagnostic[]): Severity {
  return diagnostics.reduce<Severity>((worst, d) => (severityRank[d.severity] < severityRank[worst] ? d.severity : worst), 'info');
}

function diagnosticsNodes(diagnostics: FileDiagnostic[]): EnvironmentNode[] {
  const byFile = new Map<string, FileDiagnostic[]>();
  for (const d of diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  return [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, fileDiagnostics]) => ({
      id: `diagnostics:${file}`,
      label: file,
      description: formatCount(fileDiagnostics.length, 'problem'),
      tooltip: file,
      icon: worstSeverity(fileDiagnostics),
      expanded: true,
      children: [...fileDiagnostics]
        .sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || (a.line ?? 0) - (b.line ?? 0))
        .map((d, index) => ({
          id: `diagnostics:${file}#${index}`,
          label: d.message,
          description: d.line !== undefined ? `line ${d.line}` : undefined,
          tooltip: `${d.severity}: ${d.message}\n${d.file}${d.line !== undefined ? `:${d.line}` : ''}`,
          icon: d.severity,
          children: [],
        })),
    }));
}

/** The whole tree for one loaded environment: one root node named after the folder. */
export function buildEnvironmentNodes(profile: EnvironmentProfile): EnvironmentNode {
  const tables = [...profile.tables].sort((a, b) => a.name.localeCompare(b.name));
  const documents = [...profile.documents].sort((a, b) => a.name.localeCompare(b.name));
  return {
    id: 'root',
    label: path.basename(profile.root) || profile.root,
    description: profile.root,
    tooltip: `${profile.root}\n${formatCount(profile.files.length, 'file')} read`,
    icon: 'root-folder',
    expanded: true,
    children: [
      {
        id: 'tables',
        label: 'Tables',
        description: String(tables.length),
        icon: 'database',
        expanded: true,
        children: tables.map(tableNode),
      },
      {
        id: 'documents',
        label: 'Documents',
        description: String(documents.length),
        icon: 'book',
        expanded: true,
        children: documents.map((doc) => ({
          id: `document:${doc.name}`,
          label: doc.title || doc.name,
          description: doc.sourceFile,
          tooltip: `${doc.title}\nsource: ${doc.sourceFile}\n${formatCount(doc.sizeBytes, 'byte')}, ${formatCount(doc.headings.length, 'heading')}`,
          icon: 'markdown',
          children: doc.headings.map((heading, index) => ({
            id: `document:${doc.name}#${index}`,
            label: heading,
            icon: 'list-tree',
            children: [],
          })),
        })),
      },
      {
        id: 'diagnostics',
        label: 'Diagnostics',
        description: String(profile.diagnostics.length),
        icon: profile.diagnostics.length ? worstSeverity(profile.diagnostics) : 'pass',
        expanded: true,
        children: diagnosticsNodes(profile.diagnostics),
      },
    ],
  };
}
