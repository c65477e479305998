/**
 * What a table is (Kimball's vocabulary): an entity (customers), a lookup of categories (genres), a fact table
 * (payments: measures by foreign keys), an event table (rentals: who and when), a snapshot (stock levels at a
 * date), a bridge between two entities (film_actor), or derived from other tables (a view).
 */
import type { TableProfile } from '../env/types';
import type { ColumnSemantics, Fact, Relationship, TableKind, TableSemantics } from './types';

const LOOKUP_ROWS = 60;

/** A time column that dates the rows (a date per row, or daily/monthly/yearly periods), not a load stamp (one or two values). */
function eventTime(table: TableProfile, columns: ColumnSemantics[]): ColumnSemantics | undefined {
  return columns.find((c) => {
    if (c.role.value !== 'time') return false;
    const profile = table.columns.find((p) => p.name === c.column);
    if (!profile || profile.distinctCount < 3) return false;
    const dated = c.time?.storage === 'iso-date' || c.time?.storage === 'iso-datetime' || c.time?.storage === 'year' || c.time?.storage === 'period';
    return dated || profile.distinctCount > 0.05 * table.rowCount;
  });
}

export function tableKind(table: TableProfile, columns: ColumnSemantics[], relationships: readonly Relationship[]): Fact<TableKind> {
  const rule = (value: TableKind, name: string, why: string, confidence = 0.75): Fact<TableKind> => ({ value, confidence, source: { kind: 'rule', rule: `table:${name}` }, why });
  const derived = relationships.find((r) => r.kind === 'derived-table' && r.table === table.name);
  if (derived && derived.kind === 'derived-table') return { value: 'derived', confidence: 0.95, source: derived.source, why: derived.why };
  const keysOut = relationships.filter((r) => r.kind === 'foreign-key' && r.child.table === table.name);
  const keysIn = relationships.filter((r) => r.kind === 'foreign-key' && r.parent.table === table.name);
  const measures = columns.filter((c) => c.role.value === 'measure');
  const semi = measures.filter((c) => c.additivity?.value === 'semi-additive');
  const descriptive = columns.filter((c) => !['identifier', 'time'].includes(c.role.value));
  const when = eventTime(table, columns);
  // (Rows other tables refer to, or dated rows, are things or events of their own: an order, not a link.)
  if (keysOut.length >= 2 && descriptive.length <= 1 && measures.length === 0 && keysIn.length === 0 && !when) return rule('bridge', 'bridge', `links ${keysOut.map((k) => (k.kind === 'foreign-key' ? k.parent.table : '')).join(' and ')}`, 0.8);
  // Other names or codes of another table's rows (mySociety's `lookup_name_to_registry`: 1,774 spellings of 470
  // councils' names, each beside its council's code): a crosswalk, whose rows are names, not things to count.
  const names = columns.filter((c) => !(keysOut.length === 1 && keysOut[0].kind === 'foreign-key' && keysOut[0].child.column === c.column));
  if (keysOut.length === 1 && keysIn.length === 0 && measures.length === 0 && !when && table.columns.length <= 3 && names.length >= 1 && names.every((c) => ['identifier', 'geo', 'text'].includes(c.role.value))) {
    return rule('bridge', 'crosswalk', `other names or codes of ${keysOut[0].kind === 'foreign-key' ? keysOut[0].parent.table : ''} rows, beside their key`, 0.7);
  }
  if (semi.length > 0 && semi.length >= measures.length / 2 && keysOut.length > 0) return rule('snapshot', 'snapshot', `levels (${semi.map((c) => c.column).join(', ')}) by ${keysOut.length > 0 ? 'entity' : 'date'}`);
  if (when && keysOut.length > 0 && measures.filter((c) => c.additivity?.value === 'additive').length > 0) return rule('fact', 'fact', `additive measures by ${keysOut.length} foreign key(s) and ${when.column}`);
  if (when && keysOut.length > 0) return rule('event', 'event', `who (${keysOut.map((k) => (k.kind === 'foreign-key' ? k.child.column : '')).join(', ')}) and when (${when.column})`);
  if (keysIn.length > 0 && table.rowCount <= LOOKUP_ROWS && descriptive.length <= 3) return rule('lookup', 'lookup', `a list of ${table.rowCount} that ${keysIn.length} key(s) refer to`);
  // Referenced by other tables and not dated: a thing (a film), however many measures it has.
  if (keysIn.length > 0 && !when) return rule('entity', 'entity-referenced', `${keysIn.length} key(s) refer to it`, 0.7);
  if (measures.length > 0 && keysOut.length > 0) return rule('fact', 'fact-no-time', `measures by ${keysOut.length} foreign key(s)`, 0.6);
  if (when && measures.length > 0) return rule('fact', 'fact-by-time', `measures over ${when.column}`, 0.6);
  return rule('entity', 'entity', keysIn.length > 0 ? `${keysIn.length} key(s) refer to it` : 'one row per thing it describes', 0.55);
}

export function tableSemantics(table: TableProfile, columns: ColumnSemantics[], relationships: readonly Relationship[]): TableSemantics {
  const semantics: TableSemantics = { table: table.name, kind: tableKind(table, columns, relationships) };
  const derived = relationships.find((r) => r.kind === 'derived-table' && r.table === table.name);
  if (derived && derived.kind === 'derived-table') semantics.derivedFrom = derived.from;
  return semantics;
}
