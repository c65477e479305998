/**
 * Tables about the data rather than of it: a codebook whose rows describe the columns of other tables (one row per
 * variable, with its table, type and description). How many variables a table has, or which type is most common,
 * is fixed by the schema the codebook documents; no task asks it as a finding about the world.
 */
import type { TableProfile } from '../env/types';
import { nameTokens } from './lexicon';
import type { DictionaryEntry, TableSemantics } from './types';

/** Marks each table the dictionary was read from (`DictionaryEntry.codebook`) as metadata, with the tables it describes. */
export function markMetadataTables(tables: readonly TableSemantics[], dictionary: readonly DictionaryEntry[]): void {
  const described = new Map<string, Set<string>>();
  for (const entry of dictionary) {
    if (!entry.codebook) continue;
    const set = described.get(entry.codebook) ?? new Set<string>();
    if (entry.scope && entry.scope !== entry.codebook) set.add(entry.scope);
    described.set(entry.codebook, set);
  }
  for (const table of tables) {
    const set = described.get(table.table);
    if (!set) continue;
    const describes = [...set].sort();
    table.metadata = { describes, why: `a codebook: its rows name and describe the columns of ${describes.length > 0 ? describes.join(', ') : 'other tables'}` };
  }
}

/**
 * Marks the tables of file attachments as metadata: rows that are files a record holds (an Airtable base's pictures,
 * a form's uploads), each with its URL, file name and size or type, and often its thumbnails' URLs, widths and heights.
 * Their sizes and pixel widths say how the files were saved, not what the records are about.
 */
export function markAttachmentTables(tables: readonly TableSemantics[], profiles: readonly TableProfile[]): void {
  for (const table of tables) {
    if (table.metadata) continue;
    const profile = profiles.find((p) => p.name === table.table);
    if (!profile) continue;
    const names = profile.columns.map((c) => nameTokens(c.originalName || c.name));
    const has = (test: (tokens: string[]) => boolean) => names.some(test);
    const url = has((t) => t[t.length - 1] === 'url');
    const file = has((t) => t.join('_') === 'filename' || t.join('_') === 'file_name' || (t.length === 1 && /^(filename|fname)$/.test(t[0])));
    const saved = has((t) => t.length === 1 && /^(size|type|mimetype|mime|filesize|bytes)$/.test(t[0]));
    const thumbnails = has((t) => t.includes('thumbnails') || t.includes('thumbnail') || t.includes('width') || t.includes('height'));
    if (url && file && saved && thumbnails) table.metadata = { describes: [], why: 'file attachments: each row a file a record holds (its URL, name, size and thumbnails), not a finding about the world' };
  }
}
