/**
 * The evidence graph: what the environment provides (files, tables, columns, documents, sections and their facts)
 * and how the pieces relate (join keys, derivations, reconciliations, document→column references).
 * Rubric criteria anchor to its node ids; it is plain JSON so it can be written next to the tasks.
 */
import type { DataDocument, EnvironmentProfile } from '../env/types';

export type GraphNodeKind = 'file' | 'table' | 'column' | 'document' | 'section';

export interface GraphNode {
  /** `file:<path>`, `table:<name>`, `column:<table>.<column>`, `document:<name>`, `section:<document>#<heading>`. */
  id: string;
  kind: GraphNodeKind;
  label: string;
  /** What the node provides, e.g. row count, type, distinct count, numbers a section states. */
  facts: Record<string, string | number | boolean | null>;
}

export type GraphEdgeKind = 'contains' | 'join_key' | 'derivation' | 'reconciliation' | 'references';

export interface GraphEdge {
  from: string;
  to: string;
  kind: GraphEdgeKind;
  /** One line: the evidence for the edge (containment ratio, formula, the sentence that mentions the column). */
  note: string;
}

export interface EvidenceGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const fileNode = (file: string) => `file:${file}`;
export const tableNode = (table: string) => `table:${table}`;
export const columnNode = (table: string, column: string) => `column:${table}.${column}`;
export const documentNode = (document: string) => `document:${document}`;
export const sectionNode = (document: string, heading: string) => `section:${document}#${heading}`;

/** The structural graph of an environment; families add join, derivation, reconciliation and reference edges. */
export function buildStructuralGraph(profile: EnvironmentProfile, documents: DataDocument[]): EvidenceGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const file of profile.files) {
    nodes.push({ id: fileNode(file.file), kind: 'file', label: file.file, facts: { kind: file.kind, sizeBytes: file.sizeBytes, sha256: file.sha256 } });
  }
  for (const table of profile.tables) {
    nodes.push({ id: tableNode(table.name), kind: 'table', label: table.name, facts: { rows: table.rowCount, columns: table.columns.length, kind: table.kind } });
    edges.push({ from: fileNode(table.sourceFile), to: tableNode(table.name), kind: 'contains', note: `${table.sourceFile} provides ${table.name}` });
    for (const column of table.columns) {
      nodes.push({
        id: columnNode(table.name, column.name),
        kind: 'column',
        label: `${table.name}.${column.name}`,
        facts: {
          type: column.type,
          distinct: column.distinctCount,
          nullFraction: column.nullFraction,
          candidateKey: column.candidateKey,
          min: column.min === undefined ? null : column.min,
          max: column.max === undefined ? null : column.max,
        },
      });
      edges.push({ from: tableNode(table.name), to: columnNode(table.name, column.name), kind: 'contains', note: `${table.name} has ${column.name}` });
    }
    if (table.parent) {
      edges.push({ from: tableNode(table.name), to: tableNode(table.parent.table), kind: 'join_key', note: `nested under ${table.parent.table} via ${table.parent.column}` });
    }
  }
  for (const document of documents) {
    nodes.push({ id: documentNode(document.name), kind: 'document', label: document.title || document.name, facts: { sections: document.sections.length, sizeBytes: document.sizeBytes } });
    edges.push({ from: fileNode(document.sourceFile), to: documentNode(document.name), kind: 'contains', note: `${document.sourceFile} provides ${document.name}` });
    for (const section of document.sections) {
      if (section.heading === '') continue;
      const numbers = section.text.match(/\d+(?:[.,]\d+)*/g) ?? [];
      nodes.push({ id: sectionNode(document.name, section.heading), kind: 'section', label: section.heading, facts: { level: section.level, numbers: numbers.slice(0, 12).join(' ') } });
      edges.push({ from: documentNode(document.name), to: sectionNode(document.name, section.heading), kind: 'contains', note: `${document.name} § ${section.heading}` });
    }
  }
  return { nodes, edges };
}

/** Adds an edge once (same endpoints and kind). */
export function addEdge(graph: EvidenceGraph, edge: GraphEdge): void {
  if (graph.edges.some((e) => e.from === edge.from && e.to === edge.to && e.kind === edge.kind)) return;
  graph.edges.push(edge);
}

export function hasNode(graph: EvidenceGraph, id: string): boolean {
  return graph.nodes.some((n) => n.id === id);
}
