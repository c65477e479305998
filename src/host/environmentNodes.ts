/**
 * What the Data Environment tree shows, as plain data built from an environment profile. Kept free of
 * 'vscode' so the shape (labels, counts, icons, grouping) is unit-tested in plain mocha; the tree view
 * provider only turns these nodes into TreeItems.
 */
import * as path from 'node:path';
import type { ColumnProfile, EnvironmentProfile, FileDiagnostic, Severity, TableProfile } from '../core/env/types';
import { meaningOf, sourceOf } from '../core/semantics/describe';
import type { ColumnSemantics, SemanticProfile } from '../core/semantics/types';
import type { EnvironmentFacts } from './environmentFacts';

/** Codicon ids the tree uses; colour is chosen by the provider from the id. */
export type EnvironmentIcon =
  | 'root-folder'
  | 'database'
  | 'table'
  | 'eye'
  | 'key'
  | 'symbol-field'
  | 'file-binary'
  | 'book'
  | 'markdown'
  | 'list-tree'
  | 'file'
  | 'error'
  | 'warning'
  | 'info'
  | 'pass'
  | 'references'
  | 'files';

/** What clicking an item does: preview a table's rows, or open a file (at a line or a heading). */
export type EnvironmentAction =
  | { kind: 'previewTable'; table: string }
  | { kind: 'openFile'; file: string; line?: number }
  | { kind: 'openHeading'; file: string; heading: string; occurrence: number };

export interface EnvironmentNode {
  /** Unique and stable across reloads of the same folder, so expansion state survives a refresh. */
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: EnvironmentIcon;
  /** Initially expanded (only meaningful when there are children). */
  expanded?: boolean;
  action?: EnvironmentAction;
  children: EnvironmentNode[];
}

export interface EnvironmentNodeOptions {
  /** Declared keys and binary columns, read from the image (environmentFacts.ts). */
  facts?: EnvironmentFacts;
  /**
   * What the columns mean (src/core/semantics/): each column shows its role in words (meaningOf, as describe_table
   * and `toffee profile` say it), its unit, its dictionary description and why; a key is what the semantics call a
   * primary key. Without it, the columns show their type, and a key by the declared-or-named rule of tableKey.
   */
  semantics?: SemanticProfile;
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? singular : plural}`;
}

/** Name endings that mark an identifier column: `id`, `customer_id`, `CustomerId`, `sku_code`, `uuid`. */
const IDENTIFIER_NAME = /(^|[_\s-])(id|key|code|uuid)$|[a-z0-9](Id|ID|Key|Code)$/;

/** "order_items" → "orderitem": a table or column name's letters, singular, for comparing the two. */
function stem(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '').replace(/(ies)$/, 'y').replace(/s$/, '');
}

/**
 * The column that keys the table: the primary key its source declared, or else the first non-null, unique column
 * named like an identifier. Unique values alone do not make a key (a name, a birth date or a timestamp can be
 * unique in a small table), so a unique column without an identifier's name is not one.
 */
export function tableKey(table: TableProfile, facts: EnvironmentFacts | undefined, semantics?: SemanticProfile): { columns: string[]; declared: boolean } | undefined {
  const declared = facts?.primaryKeys.get(table.name);
  if (declared?.length) return { columns: declared, declared: true };
  if (semantics) {
    // The semantic layer has weighed names, values and relationships: its primary keys are the table's key.
    const keys = semantics.columns.filter((c) => c.table === table.name && c.role.value === 'identifier' && c.identifier === 'primary-key').map((c) => c.column);
    return keys.length ? { columns: keys, declared: false } : undefined;
  }
  const identifiers = table.columns.filter((c) => c.candidateKey && (c.type === 'integer' || c.type === 'text') && IDENTIFIER_NAME.test(c.originalName));
  // `id` or one named after the table (`order_item_id` in order_items) first, then the first in column order.
  const own = identifiers.find((c) => {
    const name = stem(c.originalName.replace(/(_?id|_?key|_?code|_?uuid)$/i, ''));
    return name === '' || name === stem(table.originalName) || name === stem(table.name);
  });
  const named = own ?? identifiers[0];
  return named ? { columns: [named.name], declared: false } : undefined;
}

function columnTooltip(column: ColumnProfile, type: string, key: { declared: boolean; of: number } | undefined, meaning: ColumnSemantics | undefined, semantics: SemanticProfile | undefined): string {
  const lines = [`${column.originalName} (${type})`];
  if (meaning?.description) lines.push(meaning.description.value);
  if (meaning) {
    lines.push(`meaning: ${meaningOf(meaning, semantics, column.distinctCount)}${meaning.aggregation !== 'none' ? ` (aggregate with ${meaning.aggregation})` : ''}`);
    lines.push(`why: ${meaning.role.why} — ${sourceOf(meaning.role)}`);
    if (meaning.unit) lines.push(`unit: ${meaning.unit.value.label}`);
  }
  if (column.name !== column.originalName) lines.push(`SQL name: ${column.name}`);
  lines.push(`nulls: ${(column.nullFraction * 100).toFixed(1)}%`, `distinct: ${column.distinctCount.toLocaleString('en-US')}`);
  if (column.min !== undefined || column.max !== undefined) lines.push(`range: ${column.min ?? '?'} … ${column.max ?? '?'}`);
  if (column.samples.length && type !== 'binary') lines.push(`samples: ${column.samples.map((s) => JSON.stringify(s)).join(', ')}`);
  if (type === 'binary') lines.push('stored as binary (BLOB)');
  if (key?.declared) lines.push(key.of > 1 ? `part of the primary key (${key.of} columns), declared by the source` : 'primary key, declared by the source');
  else if (key) lines.push(semantics ? 'key: the primary key the semantic profile found' : 'key: non-null, unique and named like an identifier');
  else if (column.candidateKey) lines.push('unique and non-null here (not a key)');
  return lines.join('\n');
}

function columnNode(table: TableProfile, column: ColumnProfile, key: ReturnType<typeof tableKey>, options: EnvironmentNodeOptions): EnvironmentNode {
  const meaning = options.semantics?.columns.find((c) => c.table === table.name && c.column === column.name);
  const binary = (options.facts?.binaryColumns.has(`${table.name}.${column.name}`) ?? false) || meaning?.role.value === 'binary';
  const type = binary ? 'binary' : column.type;
  const keyPart = key?.columns.includes(column.name) ? { declared: key.declared, of: key.columns.length } : undefined;
  // With the semantic profile the role says it all ("identifier · primary key", "measure · sum · USD").
  const role = meaning && meaning.role.value !== 'binary' ? ` · ${meaningOf(meaning, options.semantics, column.distinctCount)}` : '';
  const keyLabel = keyPart && !(meaning?.identifier === 'primary-key') ? (keyPart.declared ? ' · primary key' : ' · key') : '';
  return {
    id: `table:${table.name}/column:${column.name}`,
    label: column.name,
    description: `${type}${keyLabel}${role}`,
    tooltip: columnTooltip(column, type, keyPart, meaning, options.semantics),
    icon: keyPart ? 'key' : binary ? 'file-binary' : 'symbol-field',
    action: { kind: 'previewTable', table: table.name },
    children: [],
  };
}

function tableNode(table: TableProfile, options: EnvironmentNodeOptions): EnvironmentNode {
  const id = `table:${table.name}`;
  const key = tableKey(table, options.facts, options.semantics);
  const kind = options.semantics?.tables.find((t) => t.table === table.name);
  const tooltip = [
    `${table.name}${table.kind === 'view' ? ' (view)' : ''}`,
    `source: ${table.sourceFile}`,
    table.originalName !== table.name ? `original name: ${table.originalName}` : undefined,
    table.parent ? `child of ${table.parent.table} via ${table.parent.column}` : undefined,
    `${formatCount(table.rowCount, 'row')}, ${formatCount(table.columns.length, 'column')}`,
    kind ? `kind: ${kind.kind.value}${kind.partition ? ` (${kind.partition.name} ${kind.partition.value})` : ''} — ${kind.kind.why}` : undefined,
    kind?.description ? kind.description.value : undefined,
    key ? `key: ${key.columns.join(', ')}${key.declared ? ' (declared)' : ''}` : undefined,
    'Click to preview its rows.',
  ].filter((line): line is string => line !== undefined);
  return {
    id,
    label: table.name,
    description: formatCount(table.rowCount, 'row'),
    tooltip: tooltip.join('\n'),
    icon: table.kind === 'view' ? 'eye' : 'table',
    action: { kind: 'previewTable', table: table.name },
    children: table.columns.map((column) => columnNode(table, column, key, options)),
  };
}

/** "2 problems · 9 notes": errors and warnings are problems; informational diagnostics are notes. */
export function describeDiagnostics(diagnostics: FileDiagnostic[]): string {
  const problems = diagnostics.filter((d) => d.severity !== 'info').length;
  const notes = diagnostics.length - problems;
  const parts = [problems ? formatCount(problems, 'problem') : '', notes ? formatCount(notes, 'note') : ''].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'none';
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
      description: describeDiagnostics(fileDiagnostics),
      tooltip: file,
      icon: worstSeverity(fileDiagnostics),
      action: { kind: 'openFile' as const, file },
      expanded: true,
      children: [...fileDiagnostics]
        .sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || (a.line ?? 0) - (b.line ?? 0))
        .map((d, index) => ({
          id: `diagnostics:${file}#${index}`,
          label: d.message,
          description: d.line !== undefined ? `line ${d.line}` : undefined,
          tooltip: `${d.severity}: ${d.message}\n${d.file}${d.line !== undefined ? `:${d.line}` : ''}`,
          icon: d.severity,
          action: { kind: 'openFile' as const, file: d.file, line: d.line },
          children: [],
        })),
    }));
}

/** The whole tree for one loaded environment: one root node named after the folder. */
const refText = (r: { table: string; column: string }) => `${r.table}.${r.column}`;

/** One relationship of the semantic profile as a line: "order_items.order_id → orders.order_id". */
function relationshipNode(relationship: SemanticProfile['relationships'][number], index: number): EnvironmentNode {
  const source = sourceOf(relationship);
  const line = (() => {
    switch (relationship.kind) {
      case 'foreign-key':
        return { label: `${refText(relationship.child)} → ${refText(relationship.parent)}`, description: `many-to-one · ${(relationship.containment * 100).toFixed(0)}% found`, table: relationship.child.table };
      case 'one-to-one':
        return { label: `${refText(relationship.left)} ↔ ${refText(relationship.right)}`, description: 'one-to-one (parallel tables)', table: relationship.left.table };
      case 'derived-table':
        return { label: relationship.table, description: `derived from ${relationship.from.join(', ')}`, table: relationship.table };
      case 'derived-column':
        return { label: `${relationship.table}.${relationship.column}`, description: `computed from ${relationship.from.join(', ')}`, table: relationship.table };
    }
  })();
  return { id: `relationship:${index}`, label: line.label, description: line.description, tooltip: `${relationship.why}\n${source}`, icon: 'references', action: { kind: 'previewTable', table: line.table }, children: [] };
}

/** Relationships and partitions, when the semantic profile is known and has any. */
function semanticNodes(semantics: SemanticProfile | undefined): EnvironmentNode[] {
  if (!semantics) return [];
  const nodes: EnvironmentNode[] = [];
  if (semantics.relationships.length) {
    nodes.push({ id: 'relationships', label: 'Relationships', description: String(semantics.relationships.length), icon: 'references', children: semantics.relationships.map(relationshipNode) });
  }
  if (semantics.partitions.length) {
    nodes.push({
      id: 'partitions',
      label: 'Partitions',
      description: String(semantics.partitions.length),
      icon: 'files',
      children: semantics.partitions.map((p) => ({
        id: `partition:${p.name}`,
        label: p.name,
        description: `${formatCount(p.tables.length, 'file')} by ${p.key}${p.view ? ` · view ${p.view}` : ''}`,
        tooltip: `${p.why}\n${p.tables.map((t) => `${p.key} ${t.value}: ${t.file}`).slice(0, 12).join('\n')}${p.tables.length > 12 ? `\n… and ${p.tables.length - 12} more` : ''}`,
        icon: 'files',
        ...(p.view ? { action: { kind: 'previewTable' as const, table: p.view } } : {}),
        children: [],
      })),
    });
  }
  return nodes;
}

export function buildEnvironmentNodes(profile: EnvironmentProfile, options: EnvironmentNodeOptions = {}): EnvironmentNode {
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
        children: tables.map((table) => tableNode(table, options)),
      },
      ...semanticNodes(options.semantics),
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
          action: { kind: 'openFile', file: doc.sourceFile },
          children: doc.headings.map((heading, index) => ({
            id: `document:${doc.name}#${index}`,
            label: heading,
            icon: 'list-tree',
            // The same heading text may repeat; the click opens this one.
            action: { kind: 'openHeading', file: doc.sourceFile, heading, occurrence: doc.headings.slice(0, index).filter((h) => h === heading).length },
            children: [],
          })),
        })),
      },
      {
        id: 'diagnostics',
        label: 'Diagnostics',
        description: describeDiagnostics(profile.diagnostics),
        icon: profile.diagnostics.length ? worstSeverity(profile.diagnostics) : 'pass',
        expanded: true,
        children: diagnosticsNodes(profile.diagnostics),
      },
    ],
  };
}

/** The line of the `occurrence`-th Markdown heading with this text (0-based line), if any. */
export function headingLine(text: string, heading: string, occurrence = 0): number | undefined {
  const wanted = heading.trim();
  let seen = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[i]);
    // A setext heading: text underlined with === or ---.
    const setext = i + 1 < lines.length && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1]) && lines[i].trim() !== '' ? lines[i].trim() : undefined;
    if ((match && match[1] === wanted) || setext === wanted) {
      if (seen === occurrence) return i;
      seen++;
    }
  }
  return undefined;
}
