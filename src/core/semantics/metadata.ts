/**
 * Tables about the data rather than of it: a codebook whose rows describe the columns of other tables (one row per
 * variable, with its table, type and description). How many variables a table has, or which type is most common,
 * is fixed by the schema the codebook documents; no task asks it as a finding about the world.
 */
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
