/**
 * The semantic profile in words, as the agent's describe_table, `toffee profile` and the Data Environment view
 * show it: one short phrase per column ("measure · sum · USD", "identifier → customers.customer_id",
 * "time · day · M/D/YYYY"), and a table's kind, partition and links.
 */
import type { ColumnSemantics, Relationship, SemanticProfile, TableSemantics } from './types';

/** "-1 on 7 rows, -4 on 12 rows, codes for no answer". */
function missingCodesPhrase(codes: NonNullable<ColumnSemantics['missingCodes']>, what: string): string {
  const held = codes.map((m) => `${m.value} on ${m.rows} row${m.rows === 1 ? '' : 's'}`).join(', ');
  return `${held}, ${codes.length === 1 ? 'a code' : 'codes'} for ${what}`;
}

/** "measure · sum · USD", "time · month", "dimension · 5 values". */
export function meaningOf(column: ColumnSemantics, semantics?: SemanticProfile, distinct?: number): string {
  const parts: string[] = [column.role.value];
  const fk = semantics?.relationships.find((r) => r.kind === 'foreign-key' && r.child.table === column.table && r.child.column === column.column);
  switch (column.role.value) {
    case 'measure':
      parts.push(column.additivity?.value === 'non-additive' ? 'avg (not summed)' : column.additivity?.value === 'semi-additive' ? 'sum across entities, not over time' : 'sum');
      if (column.unit) parts.push(column.unit.value.label);
      // (A code for a value not known, `-9` below values never negative: said, so a mean or a total leaves it out.)
      if (column.missingCodes) parts.push(missingCodesPhrase(column.missingCodes, 'not known'));
      break;
    case 'time':
      if (column.time) {
        parts.push(column.time.grain);
        if (column.time.layout && column.time.storage !== 'iso-date' && column.time.storage !== 'iso-datetime') parts.push(column.time.layout);
        if (column.time.storage === 'mixed') parts.push('mixed layouts, kept as text');
      }
      break;
    case 'identifier':
      if (fk && fk.kind === 'foreign-key') return `identifier → ${fk.parent.table}.${fk.parent.column}`;
      if (column.identifier) parts.push(column.identifier.replace('-', ' '));
      break;
    case 'dimension':
    case 'ordinal':
    case 'flag':
      if (distinct !== undefined) parts.push(`${distinct} value${distinct === 1 ? '' : 's'}`);
      // (…and a codebook's codes for no answer among them, NLS's -4 valid skip: said, so no one counts them as answers.)
      if (column.missingCodes) parts.push(missingCodesPhrase(column.missingCodes, 'no answer'));
      break;
    case 'geo':
      if (column.geo) parts.push(column.geo.replace('-', ' '));
      break;
    case 'structured':
      if (column.structured) parts.push(column.structured);
      break;
  }
  if (column.derivedFrom) parts.push(`= ${column.derivedFrom.relation}`);
  return parts.join(' · ');
}

/** Where the fact came from, in a few words ("rule time:year-number", "dictionary README.md:14", "toffee.semantics.json"). */
export function sourceOf(fact: { source: ColumnSemantics['role']['source'] }): string {
  const s = fact.source;
  switch (s.kind) {
    case 'rule':
      return `rule ${s.rule}`;
    case 'schema':
      return `schema (${s.detail})`;
    case 'dictionary':
      return `dictionary ${s.file}${s.line ? `:${s.line}` : ''}`;
    case 'user':
      return `${s.file}${s.line ? `:${s.line}` : ''}`;
  }
}

/** One line per relationship, in words. */
export function relationshipText(r: Relationship): string {
  switch (r.kind) {
    case 'foreign-key':
      return `${r.child.table}.${r.child.column} → ${r.parent.table}.${r.parent.column} (many-to-one; ${r.why})`;
    case 'one-to-one':
      return `${r.left.table}.${r.left.column} ↔ ${r.right.table}.${r.right.column} (one-to-one parallel tables; ${r.why})`;
    case 'derived-table':
      return `${r.table} is derived from ${r.from.join(', ')} (${r.why})`;
    case 'derived-column':
      return `${r.table}.${r.column} = ${r.relation} (${r.why})`;
  }
}

/** The lines describe_table adds under a table's header: its kind, partition and links. */
export function tableNotes(table: string, semantics: SemanticProfile): string[] {
  const notes: string[] = [];
  const t: TableSemantics | undefined = semantics.tables.find((x) => x.table === table);
  if (t) notes.push(`Kind: ${t.kind.value}${t.derivedFrom ? ` (from ${t.derivedFrom.join(', ')})` : ''}${t.description ? ` — ${t.description.value}` : ''}`);
  const partition = semantics.partitions.find((p) => p.view === table || p.tables.some((m) => m.table === table));
  if (partition) {
    const member = partition.tables.find((m) => m.table === table);
    notes.push(
      member
        ? `One of ${partition.tables.length} files of one dataset (${partition.key} = ${member.value}); all of them together: ${partition.view ?? 'no union view'}`
        : `The ${partition.tables.length} files ${partition.tables[0].table} … ${partition.tables[partition.tables.length - 1].table} as one table, with a ${partition.key} column from each file's name`,
    );
  }
  const links = semantics.relationships.filter((r) => (r.kind === 'foreign-key' && r.child.table === table) || (r.kind === 'one-to-one' && (r.left.table === table || r.right.table === table)));
  for (const r of links) {
    if (r.kind === 'foreign-key') notes.push(`Joins: ${r.child.column} → ${r.parent.table}.${r.parent.column}`);
    else if (r.kind === 'one-to-one') {
      const [self, other] = r.left.table === table ? [r.left, r.right] : [r.right, r.left];
      notes.push(`Parallel to ${other.table} (one row per ${self.column} in both; not a parent and child)`);
    }
  }
  return notes;
}
