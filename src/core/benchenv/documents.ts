import * as fs from 'node:fs';
import * as path from 'node:path';
import Papa from 'papaparse';
import type { SpiderSchema } from './types';

/**
 * Markdown documents generated from a benchmark's metadata, so the agent can read what the benchmark tells a
 * human about the data (column descriptions, value meanings, domain knowledge). One heading per table/column or
 * knowledge entry keeps every fact addressable as a document section for the evidence graph.
 */

export interface GeneratedDocument {
  /** Path inside the environment folder, forward slashes. */
  file: string;
  text: string;
}

/** Text of a metadata file: UTF-8, or Windows-1252/Latin-1 when it is not valid UTF-8 (BIRD ships both). */
export function readTextLenient(file: string): string {
  const bytes = fs.readFileSync(file);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('latin1').decode(bytes);
  }
  return text.replace(/^\uFEFF/, '');
}

/** A file-name-safe slug. */
export function slug(text: string, fallback: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return cleaned || fallback;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Spider/BIRD tables.json → one document: tables with their natural-language names, columns, keys. */
export function schemaNotesDocument(schema: SpiderSchema): GeneratedDocument {
  const lines = [`# Schema notes: ${schema.db_id}`, '', 'Table and column names as the benchmark describes them in words, with keys.', ''];
  const columns = schema.column_names_original;
  const naturalColumns = schema.column_names ?? [];
  const columnLabel = (index: number) => {
    const [table, name] = columns[index] ?? [-1, '?'];
    return `${schema.table_names_original[table] ?? '?'}.${name}`;
  };
  const primary = new Set<number>();
  for (const key of schema.primary_keys ?? []) for (const index of Array.isArray(key) ? key : [key]) primary.add(index);
  schema.table_names_original.forEach((table, t) => {
    const natural = schema.table_names?.[t];
    lines.push(`## ${table}`, '');
    if (natural && natural !== table) lines.push(`In words: ${natural}.`, '');
    columns.forEach(([owner, name], index) => {
      if (owner !== t) return;
      const words = naturalColumns[index]?.[1];
      const type = schema.column_types?.[index];
      const parts = [`- \`${name}\``];
      if (type) parts.push(`(${type})`);
      if (words && words.toLowerCase() !== name.toLowerCase()) parts.push(`— ${words}`);
      if (primary.has(index)) parts.push('— primary key');
      lines.push(parts.join(' '));
    });
    const foreign = (schema.foreign_keys ?? []).filter(([from]) => columns[from]?.[0] === t);
    for (const [from, to] of foreign) lines.push(`- foreign key: \`${columnLabel(from)}\` → \`${columnLabel(to)}\``);
    lines.push('');
  });
  return { file: 'schema_notes.md', text: lines.join('\n') };
}

/**
 * BIRD `database_description/<table>.csv` (original_column_name, column_name, column_description, data_format,
 * value_description) → one document per table, one section per column.
 */
export function columnDescriptionDocuments(descriptionDir: string, notes: string[]): GeneratedDocument[] {
  const documents: GeneratedDocument[] = [];
  const files = fs
    .readdirSync(descriptionDir)
    .filter((name) => name.toLowerCase().endsWith('.csv'))
    .sort();
  for (const name of files) {
    const table = name.slice(0, -4);
    const parsed = Papa.parse<Record<string, string>>(readTextLenient(path.join(descriptionDir, name)), {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: (header) => header.trim().toLowerCase(),
    });
    const rows = parsed.data.filter((row) => (row.original_column_name ?? '').trim() !== '');
    if (rows.length === 0) {
      notes.push(`database_description/${name}: no column descriptions recognized; skipped.`);
      continue;
    }
    const lines = [`# Column descriptions: ${table}`, '', `What each column of table \`${table}\` means, from the benchmark's description file.`, ''];
    for (const row of rows) {
      lines.push(`## ${row.original_column_name.trim()}`, '');
      const field = (label: string, value: string | undefined) => {
        if (value && oneLine(value) !== '') lines.push(`- ${label}: ${oneLine(value)}`);
      };
      field('Name in words', row.column_name);
      field('Description', row.column_description);
      field('Data format', row.data_format);
      field('Values', row.value_description);
      lines.push('');
    }
    documents.push({ file: `descriptions/${slug(table, 'table')}.md`, text: lines.join('\n') });
  }
  return documents;
}

/** LiveSQLBench `<db>_kb.jsonl` → one document per knowledge entry (name, description, definition, type, children). */
export function knowledgeDocuments(knowledgeBase: string, notes: string[]): GeneratedDocument[] {
  const documents: GeneratedDocument[] = [];
  const lines = readTextLenient(knowledgeBase).split('\n');
  const usedNames = new Set<string>();
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      notes.push(`${path.basename(knowledgeBase)}:${index + 1}: not valid JSON; skipped.`);
      return;
    }
    const id = entry.id ?? index;
    const title = typeof entry.knowledge === 'string' && entry.knowledge.trim() !== '' ? entry.knowledge.trim() : `Knowledge ${String(id)}`;
    const text = [`# ${title}`, ''];
    const section = (heading: string, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      text.push(`## ${heading}`, '', typeof value === 'string' ? value.trim() : JSON.stringify(value, null, 2), '');
    };
    text.push(`Knowledge id: ${String(id)}${typeof entry.type === 'string' ? ` · type: ${entry.type}` : ''}`, '');
    section('Description', entry.description);
    section('Definition', entry.definition);
    const children = Array.isArray(entry.children_knowledge) ? entry.children_knowledge.filter((c) => c !== -1) : [];
    if (children.length > 0) section('Builds on', `Knowledge ids ${children.join(', ')}.`);
    let name = `knowledge/${String(id).padStart(3, '0')}_${slug(title, 'entry')}.md`;
    for (let n = 2; usedNames.has(name); n++) name = `knowledge/${String(id).padStart(3, '0')}_${slug(title, 'entry')}_${n}.md`;
    usedNames.add(name);
    documents.push({ file: name, text: text.join('\n') });
  });
  return documents;
}

/** LiveSQLBench `<db>_column_meaning_base.json` (`"db|table|column": meaning`) → one document, a section per table. */
export function columnMeaningDocument(columnMeanings: string, notes: string[]): GeneratedDocument | undefined {
  let meanings: Record<string, unknown>;
  try {
    meanings = JSON.parse(readTextLenient(columnMeanings)) as Record<string, unknown>;
  } catch (e) {
    notes.push(`${path.basename(columnMeanings)}: not valid JSON (${(e as Error).message}); skipped.`);
    return undefined;
  }
  const byTable = new Map<string, Array<[string, unknown]>>();
  for (const [key, meaning] of Object.entries(meanings)) {
    const parts = key.split('|');
    const column = parts[parts.length - 1];
    const table = parts.length >= 2 ? parts[parts.length - 2] : '(other)';
    if (!byTable.has(table)) byTable.set(table, []);
    byTable.get(table)!.push([column, meaning]);
  }
  const lines = ['# Column meanings', '', 'What each column means, from the benchmark.', ''];
  for (const [table, columns] of [...byTable.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    lines.push(`## ${table}`, '');
    for (const [column, meaning] of columns) {
      const text = typeof meaning === 'string' ? oneLine(meaning) : JSON.stringify(meaning);
      lines.push(`- \`${column}\`: ${text}`);
    }
    lines.push('');
  }
  return { file: 'column_meanings.md', text: lines.join('\n') };
}
