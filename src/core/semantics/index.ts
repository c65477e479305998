/**
 * The semantic layer: what a data environment's data means. `loadSemanticEnvironment` loads a folder (env/) and,
 * before its image is taken, infers the semantic profile from the live image database: data dictionaries from the
 * documents, relationships, partitions (as union views in the image), column and table semantics by ordered
 * rules, then the user's corrections from `toffee.semantics.json`.
 */
import type { Database, SqlValue } from 'sql.js';
import { loadEnvironment } from '../env/index';
import { quoteIdent as q } from '../text/sql';
import type { ColumnProfile, EnvironmentDraft, FileDiagnostic, LoadOptions, TableProfile } from '../env/types';
import { columnSemantics, defaultAggregation, pipeJoined, type ColumnEvidence } from './columns';
import { checkReferences, CORRECTIONS_FILE, readCorrections, type SemanticCorrections } from './corrections';
import { normalName, readCodebookTables, readDictionaries, readPreambleLegends, tablesDescribedBy, withoutCopyNumber } from './dictionary';
import { addPartitionViews, findPartitions } from './partitions';
import { markLandAreas, markMixedUnits, markPositionsInGroups, markPositionsInTime, markRepeatedPerKey, markRunningTotals, markSharesOfAWhole, spreadLevelsThroughSums } from './levels';
import { dateShape } from './grain';
import { inferRelationships, viewLineage, type ColumnLineage } from './relationships';
import { nameTokens } from './lexicon';
import { tableSemantics } from './tables';
import { findRepeatedValues } from './repeated';
import { findTwinColumns, findTwinTables } from './duplicates';
import { findLayoutColumns } from './layout';
import { findTotalRows } from './totals';
import { markAttachmentTables, markMetadataTables } from './metadata';
import type { ColumnSemantics, DictionaryEntry, Partition, Relationship, SemanticEnvironment, SemanticProfile, TableSemantics } from './types';
import { fingerprint, isMissingText, MISSING_PLACEHOLDERS } from './values';

export * from './types';
export { CORRECTIONS_FILE } from './corrections';

const SAMPLE_ROWS = 400;

/** The texts that stand for a missing value (an empty one and the placeholders), as a list of SQL literals. */
const MISSING_SQL = ['', ...MISSING_PLACEHOLDERS].map((p) => `'${p.replace(/'/g, "''")}'`).join(', ');

function sampleValues(db: Database, table: TableProfile): Map<string, SqlValue[]> {
  const samples = new Map<string, SqlValue[]>(table.columns.map((c) => [c.name, []]));
  try {
    const result = db.exec(`SELECT * FROM ${q(table.name)} LIMIT ${SAMPLE_ROWS}`)[0];
    if (result) {
      result.columns.forEach((name, at) => {
        const values = samples.get(name);
        if (values) for (const row of result.values) if (row[at] !== null) values.push(row[at]);
      });
    }
    // A sparse column: read its own non-null values. One whose first rows are placeholders (`NA` in every row of the
    // partition's first files) reads its own values too, beside the placeholders it showed.
    for (const column of table.columns) {
      const values = samples.get(column.name)!;
      const placeholders = values.filter((v) => typeof v === 'string' && isMissingText(v));
      const present = values.length - placeholders.length;
      if (present < 20 && column.nullFraction < 1 && present < table.rowCount * (1 - column.nullFraction)) {
        const c = q(column.name);
        const notPlaceholder = placeholders.length > 0 ? ` AND lower(trim(CAST(${c} AS TEXT))) NOT IN (${MISSING_SQL})` : '';
        const own = db.exec(`SELECT ${c} FROM ${q(table.name)} WHERE ${c} IS NOT NULL${notPlaceholder} LIMIT ${SAMPLE_ROWS}`)[0];
        samples.set(column.name, [...placeholders, ...(own?.values ?? []).map((r) => r[0])]);
      }
    }
  } catch {
    // A view that fails to run has no samples; its columns get what the profile says.
  }
  return samples;
}

/** Rows whose text is empty or a placeholder for a missing value (`NA`, `N/A`, `-`), and how many distinct such texts there are. */
/**
 * The kind of record a sparse column belongs to: a column of a few kinds, set on every row (`_path` of a Zeek log:
 * `conn`, `dns`, `ssl`), whose one value marks exactly the rows where this column is set (`qtype` on the `dns` rows).
 */
function recordKindOf(db: Database, table: TableProfile, column: string): { column: string; value: string } | undefined {
  if (table.rowCount > 200_000) return undefined;
  for (const kind of table.columns) {
    if (kind.name === column || kind.type !== 'text' || kind.nullFraction > 0 || kind.distinctCount < 2 || kind.distinctCount > 20) continue;
    try {
      const c = q(column);
      const k = q(kind.name);
      const row = db.exec(`SELECT COUNT(DISTINCT ${k}), MIN(${k}) FROM ${q(table.name)} WHERE ${c} IS NOT NULL`)[0]?.values[0];
      if (!row || Number(row[0]) !== 1) continue;
      const unset = db.exec(`SELECT COUNT(*) FROM ${q(table.name)} WHERE ${k} = ? AND ${c} IS NULL`, [row[1]])[0]?.values[0]?.[0];
      if (Number(unset) === 0) return { column: kind.name, value: String(row[1]) };
    } catch {
      // A view that fails to run says nothing of its kinds.
    }
  }
  return undefined;
}

function placeholderRows(db: Database, table: string, column: string): { rows: number; distinct: number } | undefined {
  try {
    const row = db.exec(`SELECT COUNT(*), COUNT(DISTINCT ${q(column)}) FROM ${q(table)} WHERE lower(trim(${q(column)})) IN (${MISSING_SQL})`)[0]?.values[0];
    return row ? { rows: Number(row[0]), distinct: Number(row[1]) } : undefined;
  } catch {
    return undefined;
  }
}

function distinctValues(db: Database, draft: EnvironmentDraft, table: TableProfile, column: string, limit: number): SqlValue[] {
  // The loader kept a table's first distinct values as it inserted the rows: the same answer without a scan.
  const first = draft.firstDistinct?.(table.name, column, limit);
  if (first) return first;
  try {
    return (db.exec(`SELECT DISTINCT ${q(column)} FROM ${q(table.name)} WHERE ${q(column)} IS NOT NULL LIMIT ${limit}`)[0]?.values ?? []).map((r) => r[0]);
  } catch {
    return [];
  }
}

/** A column whose values are (mostly) dates: its grain is read from all of them. */
function mayHoldDates(column: TableProfile['columns'][number], f: ReturnType<typeof fingerprint>): boolean {
  return column.type === 'date' || column.type === 'datetime' || (column.type === 'text' && f.dateLike >= 0.5);
}

/** A short list other tables refer to, of a key, a name and little else (a genre, a department). */
function isLookup(table: TableProfile, referenced: ReadonlySet<string>): boolean {
  if (!referenced.has(table.name) || table.rowCount > 60) return false;
  const descriptive = table.columns.filter((c) => !/(^id$|_id$|id$|^key$|_key$|code$)/i.test(c.name) && c.type !== 'date' && c.type !== 'datetime' && !/update|created|modified/i.test(c.name));
  return descriptive.length <= 3;
}

/**
 * The dictionary entry for a column: the one scoped to its own table or file first, then one scoped to a file not
 * here (read as the folder's), then one for its folder.
 */
function entryFor(entries: readonly DictionaryEntry[], table: TableProfile, column: string, profile: EnvironmentDraft['profile']): DictionaryEntry | undefined {
  const wanted = normalName(column);
  const original = normalName(table.columns.find((c) => c.name === column)?.originalName ?? column);
  // A name the writer made unique with a number (`full__1`, pandas' `full.1`) where the table has no `full`: that column's entry.
  const base = withoutCopyNumber(column) !== column && !table.columns.some((c) => c.name === withoutCopyNumber(column)) ? normalName(withoutCopyNumber(column)) : undefined;
  // (A union view's columns are written as its files write them: its first file's.)
  const written = table.viewSql ? profile.tables.find((t) => !t.viewSql && t.columns.some((c) => c.name === column)) : undefined;
  const exact = (written ?? table).columns.find((c) => c.name === column)?.originalName ?? column;
  // (Where a format tells `d` from `DD` and `c` from `C`, the entry written as the column is written comes first; then
  // one that lists the column's codes.)
  const rank = (e: DictionaryEntry) => (e.column === exact ? 0 : 2) + (e.codes ? 0 : 1);
  const matching = entries
    .filter((e) => (normalName(e.column) === wanted || normalName(e.column) === original || normalName(e.column) === base) && tablesDescribedBy(e, profile).includes(table))
    .map((e, at) => ({ e, at }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.at - b.at)
    .map(({ e }) => e);
  // (A section headed `nuclear_power_plants` describes `raw/4-nuclear_power_plants.json`: the file's name less its
  // number and extension.)
  const bare = (name: string) => name.replace(/^.*[\\/]/, '').replace(/\.[a-z0-9]+$/i, '').replace(/^\d+[-_ .]+/, '').toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const own = (e: DictionaryEntry) => e.scope !== undefined && (e.scope === table.name || table.sourceFile.toLowerCase().endsWith(`/${e.scope.split('/').pop()!.toLowerCase()}`) || table.sourceFile.toLowerCase() === e.scope.toLowerCase() || bare(e.scope) === bare(table.sourceFile) || (table.originalName !== '' && bare(e.scope) === bare(table.originalName)));
  // Under a heading that is the table's bare name (`### countries` above `- \`name\` - country name`): that table's.
  const heads = (e: DictionaryEntry, t: TableProfile) => e.heading !== undefined && (bare(e.heading) === bare(t.sourceFile) || (t.originalName !== '' && bare(e.heading) === bare(t.originalName)));
  // …and not another table's: the `name` under `### countries` is no power plant's name.
  const headsAnother = (e: DictionaryEntry) => !heads(e, table) && profile.tables.some((t) => t !== table && heads(e, t));
  const chosen = matching.find(own) ?? matching.find((e) => e.scope) ?? matching.find((e) => heads(e, table)) ?? matching.find((e) => !headsAnother(e));
  // A unit another entry for the column gives (a workbook's field sheet beside a descriptor that has none) is the column's too.
  const unit = chosen && !chosen.unit ? matching.find((e) => e.unit && !headsAnother(e))?.unit : undefined;
  return unit ? { ...chosen!, unit } : chosen;
}

/** The codes files write for a number not known, below every real value of a measure that is never negative. */
const MISSING_CODES = new Set([-9, -99, -999, -9999, -99999]);

/**
 * A measure's missing-value codes: those its dictionary names (NLS's -1 … -5) that its rows hold; else one of
 * MISSING_CODES as its least value, with no other value below zero.
 */
function missingCodes(db: Database, table: TableProfile, column: ColumnProfile, entry: DictionaryEntry | undefined): ColumnSemantics['missingCodes'] {
  if ((column.type !== 'integer' && column.type !== 'real') || typeof column.min !== 'number') return undefined;
  const c = q(column.name);
  try {
    if (entry?.missingCodes && entry.missingCodes.length > 0) {
      const counts = db.exec(`SELECT ${c}, COUNT(*) FROM ${q(table.name)} WHERE ${c} IN (${entry.missingCodes.join(', ')}) GROUP BY ${c} ORDER BY ${c} DESC`)[0]?.values ?? [];
      const held = counts.map(([value, rows]) => ({ value: Number(value), rows: Number(rows) })).filter((x) => x.rows > 0);
      return held.length > 0 ? held : undefined;
    }
    if (!MISSING_CODES.has(column.min)) return undefined;
    const row = db.exec(`SELECT COUNT(CASE WHEN ${c} = ${column.min} THEN 1 END), MIN(CASE WHEN ${c} > ${column.min} THEN ${c} END) FROM ${q(table.name)}`)[0]?.values[0];
    const rows = Number(row?.[0] ?? 0);
    const next = row?.[1];
    return rows > 0 && typeof next === 'number' && next >= 0 ? [{ value: column.min, rows }] : undefined;
  } catch {
    return undefined;
  }
}

/** Infers the semantic profile from the image database of an environment being loaded. */
export function inferSemantics(db: Database, draft: EnvironmentDraft): SemanticProfile {
  const started = Date.now();
  const { profile } = draft;
  const diagnostics: FileDiagnostic[] = [];
  const dictionary = [...readDictionaries(draft.documents, profile), ...readCodebookTables(db, profile), ...readPreambleLegends(profile)];
  const found = readCorrections(profile.root);
  let corrections: SemanticCorrections | undefined = found.corrections;
  if (found.diagnostic) diagnostics.push(found.diagnostic);

  const partitions: Partition[] = addPartitionViews(draft, correctedPartitions(findPartitions(profile.tables), corrections, profile.tables));
  const relationships = correctedRelationships(inferRelationships(db, profile, partitions), corrections);

  // Check the corrections' names against the environment (views included) before using any of them.
  if (corrections && found.text) {
    const has = (table: string, column?: string) => {
      const t = profile.tables.find((x) => x.name === table);
      return t !== undefined && (column === undefined || t.columns.some((c) => c.name === column));
    };
    const problem = checkReferences(corrections, found.text, has);
    if (problem) {
      diagnostics.push(problem);
      corrections = undefined;
    }
  }

  const keyChildren = new Set(relationships.filter((r) => r.kind === 'foreign-key').map((r) => (r.kind === 'foreign-key' ? `${r.child.table}.${r.child.column}` : '')));
  const keyParents = new Set(relationships.filter((r) => r.kind === 'foreign-key').map((r) => (r.kind === 'foreign-key' ? `${r.parent.table}.${r.parent.column}` : '')));
  const referencedTables = new Set(relationships.filter((r) => r.kind === 'foreign-key').map((r) => (r.kind === 'foreign-key' ? r.parent.table : '')));
  const derivedColumns = new Map(relationships.filter((r) => r.kind === 'derived-column').map((r) => [r.kind === 'derived-column' ? `${r.table}.${r.column}` : '', r]));

  const byKey = new Map<string, ColumnSemantics>();
  const partitionViews = new Set(partitions.map((p) => p.view).filter(Boolean));
  // Base tables first, then views in the order they were made, so a view column can take its base column's meaning.
  const ordered = [...profile.tables.filter((t) => !t.viewSql), ...profile.tables.filter((t) => t.viewSql)];
  const tableColumns = new Map<string, ColumnSemantics[]>();
  // View columns that copy a base column, with it: they mean what it finally means.
  const copies: Array<[ColumnSemantics, ColumnSemantics]> = [];
  // The names of every table's columns, for the codebooks that list them (an `owid-co2-codebook.csv` naming `co2`).
  // Each name counted once per base table that has it: a name is another table's when more tables have it than this one.
  const namesOf = (t: TableProfile) => new Set(t.columns.flatMap((c) => [c.name.toLowerCase(), (c.originalName || c.name).toLowerCase()]));
  const tablesNaming = new Map<string, number>();
  for (const t of profile.tables) if (!t.viewSql) for (const name of namesOf(t)) tablesNaming.set(name, (tablesNaming.get(name) ?? 0) + 1);
  const otherColumnOf = (table: TableProfile): ((name: string) => boolean) => {
    const own = table.viewSql ? new Set<string>() : namesOf(table);
    return (name) => (tablesNaming.get(name) ?? 0) > (own.has(name) ? 1 : 0);
  };
  // A partition's union view reads its columns' descriptions from its files' (an R help page per file).
  const memberEntry = (view: TableProfile, column: string): DictionaryEntry | undefined => {
    const partition = partitions.find((p) => p.view === view.name);
    if (!partition) return undefined;
    for (const member of partition.tables) {
      const table = profile.tables.find((t) => t.name === member.table);
      const entry = table ? entryFor(dictionary, table, column, profile) : undefined;
      if (entry) return entry;
    }
    return undefined;
  };
  // Columns that name other rows of their own table (by its text key): read before the columns, which they key.
  // The files a partition's view unites: a column of the view is what it is in them.
  const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const memberTables = (view: string): string[] => partitions.find((p) => p.view === view)?.tables.map((m) => m.table) ?? [];
  const nestedByTable = new Map(profile.tables.map((t) => [t.name, nestedLevels(db, t)]));
  for (const table of ordered) {
    const samples = sampleValues(db, table);
    const pipeListColumns = [...samples.values()].filter(pipeJoined).length;
    const otherColumn = otherColumnOf(table);
    const nested = nestedByTable.get(table.name);
    const lineage = table.viewSql && !partitionViews.has(table.name) ? viewLineage(table, profile) : new Map();
    const list: ColumnSemantics[] = [];
    for (const column of table.columns) {
      const from = lineage.get(column.name);
      const base = from ? byKey.get(`${from.table}.${from.column}`) : undefined;
      let semantics: ColumnSemantics;
      if (base && from) {
        semantics = inherited(base, table.name, column.name, from);
        if (!from.aggregate) copies.push([semantics, base]);
      } else {
        const sample = samples.get(column.name) ?? [];
        const distinct = column.distinctCount <= 12 ? distinctValues(db, draft, table, column.name, 13) : undefined;
        const print = fingerprint(sample, distinct);
        // Percentages the loader stored as numbers (`90.6%` → 90.6) keep their sign here, where the values no longer show it.
        if (column.unit === '%') print.percentSign = 1;
        const evidence: ColumnEvidence & { sample: unknown[] } = {
          table,
          column,
          fingerprint: print,
          declaredKey: table.primaryKey?.includes(column.name) ?? false,
          foreignKey: keyChildren.has(`${table.name}.${column.name}`),
          referenced: keyParents.has(`${table.name}.${column.name}`),
          lookupTable: isLookup(table, referencedTables),
          dictionary: entryFor(dictionary, table, column.name, profile) ?? memberEntry(table, column.name) ?? shownHeaderEntry(table, column),
          otherColumn,
          selfReference: nested?.columns.includes(column.name) ? nested.key : undefined,
          pipeListColumns,
          arrayTable: profile.tables.find((t) => t.parent !== undefined && (t.parent.table === table.name || memberTables(table.name).includes(t.parent.table)) && bare(t.originalName) === bare(column.originalName || column.name))?.name,
          sample,
        };
        if (column.type === 'text') {
          const namesakes = profile.tables.filter((t) => t !== table && !t.viewSql).flatMap((t) => t.columns.filter((c) => c.name === column.name && c.type === 'text').map((c) => ({ table: t.name, rows: t.rowCount * (1 - c.nullFraction), distinct: c.distinctCount, samples: c.samples })));
          if (namesakes.length > 0) evidence.namesakes = namesakes;
        }
        const partition = partitions.find((p) => p.view === table.name && p.key === column.name);
        if (partition) evidence.partitionKey = { key: partition.key, files: partition.tables.length };
        if (column.type === 'text' && column.distinctCount <= 30) evidence.allValues = column.distinctCount <= 12 && distinct ? distinct : distinctValues(db, draft, table, column.name, 31);
        if (mayHoldDates(column, evidence.fingerprint)) evidence.dateShape = dateShape(db, table.name, column.name);
        if (evidence.fingerprint.missingText > 0 && column.type === 'text') evidence.missingRows = placeholderRows(db, table.name, column.name);
        if (column.nullFraction >= 0.3 && column.nullFraction < 1) evidence.recordKind = recordKindOf(db, table, column.name);
        semantics = columnSemantics(evidence);
        // (A measure's codes for a value not known; and those a codebook names for any answer, NLS's valid skip -4 of
        // a yes/no question, which no grouping should count as an answer.)
        if (semantics.role.value === 'measure' || (evidence.dictionary?.missingCodes?.length ?? 0) > 0) {
          const codes = missingCodes(db, table, column, evidence.dictionary);
          if (codes) semantics.missingCodes = codes;
        }
      }
      const derived = derivedColumns.get(`${table.name}.${column.name}`);
      if (derived && derived.kind === 'derived-column') semantics.derivedFrom = { columns: derived.from, relation: derived.relation };
      list.push(semantics);
      byKey.set(`${table.name}.${column.name}`, semantics);
    }
    tableColumns.set(table.name, list);
  }
  // Running totals are told by their data, over the whole of each table (a partition's view holds all its files).
  for (const table of ordered) markRunningTotals(db, table, tableColumns.get(table.name) ?? []);
  // Quantities of an entity repeated on each of its rows are told by their data too.
  for (const table of ordered) markRepeatedPerKey(db, table, tableColumns.get(table.name) ?? []);
  // A value column beside a unit column holding ratios and amounts is not summed as stored.
  for (const table of ordered) markMixedUnits(db, table, tableColumns.get(table.name) ?? []);
  // Per cents of a parent's whole, a row per part, are shares.
  for (const table of ordered) markSharesOfAWhole(db, table, tableColumns.get(table.name) ?? []);
  // An area of land over time is a stock.
  for (const table of ordered) markLandAreas(table, tableColumns.get(table.name) ?? []);
  // And numberings that run 1…n within each group are positions.
  for (const table of ordered) markPositionsInGroups(db, table, tableColumns.get(table.name) ?? []);
  markPositionsInTime(tableColumns, relationships);
  // The files of a partition are one dataset: each file's columns mean what the union of all files says (a column
  // empty in the early files, or 0/1 in a quiet season, reads as it does across all of them).
  for (const partition of partitions) {
    if (!partition.view) continue;
    for (const member of partition.tables) {
      const list = tableColumns.get(member.table) ?? [];
      list.forEach((semantics, i) => {
        const whole = byKey.get(`${partition.view}.${semantics.column}`);
        if (whole) list[i] = { ...whole, table: member.table, column: semantics.column, role: { ...whole.role, why: `${whole.role.why} (over all ${partition.tables.length} files of the partition)` }, ...(semantics.derivedFrom ? { derivedFrom: semantics.derivedFrom } : {}), ...(semantics.description ? { description: semantics.description } : {}) };
      });
    }
  }
  spreadLevels(tableColumns, partitions);
  sameSheetsOfAWorkbook(profile.tables, tableColumns);
  // A property of each thing in an entity table (a film's length) is one in the views that copy it (film_list).
  for (const table of profile.tables) {
    if (table.viewSql || !referencedTables.has(table.name)) continue;
    const list = tableColumns.get(table.name) ?? [];
    const kind = tableSemantics(table, list, relationships).kind.value;
    if (kind === 'entity' || kind === 'lookup') for (const c of list) entityProperty(c, table);
  }
  for (const [copy, base] of copies) {
    if (!base.additivity || copy.additivity?.value === base.additivity.value || copy.additivity?.source.kind === 'user' || copy.role.source.kind === 'user' || copy.role.value !== base.role.value) continue;
    copy.additivity = { ...base.additivity, why: `${base.additivity.why} (as in ${base.table}.${base.column})` };
    copy.aggregation = base.aggregation;
  }
  const columns: ColumnSemantics[] = [];
  const tables: TableSemantics[] = [];
  for (const table of profile.tables) {
    const list = tableColumns.get(table.name) ?? [];
    const semantics = tableSemantics(table, list, relationships);
    if ((semantics.kind.value === 'entity' || semantics.kind.value === 'lookup') && referencedTables.has(table.name)) for (const c of list) entityProperty(c, table);
    columns.push(...list);
    tables.push(semantics);
  }
  for (const partition of partitions) {
    for (const member of partition.tables) {
      const t = tables.find((x) => x.table === member.table);
      if (t) t.partition = { name: partition.name, value: member.value };
    }
  }

  for (const t of tables) {
    const nested = nestedByTable.get(t.table);
    if (nested) t.nested = nested;
  }
  markMetadataTables(tables, dictionary);
  markAttachmentTables(tables, profile.tables);
  // Facts read from the data across rows: parents' values repeated on children, the same data twice, counts the layout fixes.
  const partitionMembers = new Set(partitions.flatMap((p) => (p.view ? p.tables.map((t) => t.table) : [])));
  const ownTables = profile.tables.filter((t) => !partitionMembers.has(t.name));
  const listOf = (table: string) => tableColumns.get(table) ?? [];
  const repeated = findRepeatedValues(db, ownTables, listOf);
  const twinTables = findTwinTables(db, ownTables);
  const twinColumns = findTwinColumns(db, ownTables, listOf);
  const layout = findLayoutColumns(db, ownTables, listOf, partitions);
  const totalRows = findTotalRows(db, ownTables, listOf, draft.firstDistinct?.bind(draft));

  const semantic: SemanticProfile = { columns, tables, relationships, partitions, dictionary, repeated, twinTables, twinColumns, layout, totalRows, diagnostics, elapsedMs: 0 };
  if (corrections) semantic.corrections = { file: CORRECTIONS_FILE, applied: applyCorrections(semantic, corrections) };
  semantic.elapsedMs = Date.now() - started;
  return semantic;
}

/**
 * Levels spread through sums within each table, and across a partition's files, which are one dataset: a column
 * that is a level in one file is a level in all of them.
 */
function spreadLevels(tableColumns: Map<string, ColumnSemantics[]>, partitions: readonly Partition[]): void {
  for (let round = 0; round < 3; round++) {
    let changed = 0;
    for (const list of tableColumns.values()) changed += spreadLevelsThroughSums(list);
    for (const partition of partitions) {
      const members = partition.tables.map((t) => tableColumns.get(t.table) ?? []);
      const levels = new Map<string, ColumnSemantics>();
      for (const list of members) for (const c of list) if (c.additivity?.value === 'semi-additive' && c.additivity.source.kind === 'rule' && c.additivity.source.rule === 'additivity:sum-of-levels') levels.set(c.column, c);
      for (const list of members) {
        for (const c of list) {
          const level = levels.get(c.column);
          if (!level || c.additivity?.value !== 'additive' || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') continue;
          c.additivity = { ...level.additivity!, why: `${level.additivity!.why} (in ${level.table}, a file of the same dataset)` };
          c.aggregation = level.aggregation;
          changed++;
        }
      }
    }
    if (changed === 0) break;
  }
}

/** A view column that copies (or aggregates) a base column means what the base column means. */
function inherited(base: ColumnSemantics, table: string, column: string, from: ColumnLineage): ColumnSemantics {
  const copy: ColumnSemantics = { ...base, table, column, role: { ...base.role, source: { kind: 'rule', rule: from.aggregate ? `lineage:${from.aggregate}` : 'lineage:copy' }, why: from.aggregate ? `${from.aggregate.toUpperCase()} of ${from.table}.${from.column}` : `copies ${from.table}.${from.column}` } };
  delete copy.derivedFrom;
  if (!from.aggregate) return copy;
  if (from.aggregate === 'count') {
    return { table, column, role: { value: 'measure', confidence: 0.9, source: { kind: 'rule', rule: 'lineage:count' }, why: `a count of ${from.table} rows` }, additivity: { value: 'additive', confidence: 0.9, source: { kind: 'rule', rule: 'lineage:count' }, why: 'counts add up' }, aggregation: 'sum', unit: { value: { kind: 'count', label: 'count' }, confidence: 0.9, source: { kind: 'rule', rule: 'lineage:count' }, why: 'a count' } };
  }
  if (base.role.value === 'measure' && from.aggregate !== 'sum') {
    copy.additivity = { value: 'non-additive', confidence: 0.9, source: { kind: 'rule', rule: `lineage:${from.aggregate}` }, why: `${from.aggregate.toUpperCase()} values do not add up` };
    copy.aggregation = 'avg';
  }
  return copy;
}

/** Words of quantities that flow (paid, sold, earned), which add up even as attributes of an entity (a salary). */
/** Properties of a thing that are averaged across things, not summed: a film's length, a product's replacement cost. */
const PROPERTY_WORDS = new Set('length duration cost price rate size weight height width depth age runtime'.split(' '));

/**
 * A measure of an entity that is a property of each thing (a film's length, a product's replacement cost) is
 * averaged, not summed. Amounts that add up across things (a country's area or GDP, an employee's salary) stay additive.
 */
function entityProperty(c: ColumnSemantics, table: TableProfile): void {
  if (c.role.value !== 'measure' || c.additivity?.value !== 'additive' || c.additivity.source.kind === 'user' || c.role.source.kind === 'user') return;
  if (!nameTokens(c.column).some((t) => PROPERTY_WORDS.has(t))) return;
  // (A size in whole numbers into the millions, a dataset's bytes, is data held: the sizes add up to a volume.)
  const profile = table.columns.find((p) => p.name === c.column);
  if (nameTokens(c.column).includes('size') && profile?.type === 'integer' && Number(profile.max) >= 1e6) return;
  c.additivity = { value: 'non-additive', confidence: 0.65, source: { kind: 'rule', rule: 'additivity:entity-property' }, why: `a property of each ${table.name} row (one row per thing): averaged, not summed` };
  c.aggregation = 'avg';
}

function correctedPartitions(found: Array<Omit<Partition, 'view'>>, corrections: SemanticCorrections | undefined, tables: readonly TableProfile[]): Array<Omit<Partition, 'view'>> {
  if (!corrections?.partitions) return found;
  const named = new Set(corrections.partitions.flatMap((p) => p.tables));
  const kept = found.filter((p) => !p.tables.some((t) => named.has(t.table)));
  for (const p of corrections.partitions) {
    const members = p.tables.map((name) => tables.find((t) => t.name === name)).filter((t): t is TableProfile => t !== undefined);
    if (members.length < 2) continue;
    const columns: string[] = [];
    for (const m of members) for (const c of m.columns) if (!columns.includes(c.name)) columns.push(c.name);
    kept.push({ name: p.name, key: p.key ?? 'part', columns, tables: members.map((m) => ({ table: m.name, value: m.name, file: m.sourceFile })), why: `set in ${CORRECTIONS_FILE}` });
  }
  return kept;
}

function correctedRelationships(found: Relationship[], corrections: SemanticCorrections | undefined): Relationship[] {
  if (!corrections?.relationships) return found;
  const ref = (r: string) => ({ table: r.slice(0, r.indexOf('.')), column: r.slice(r.indexOf('.') + 1) });
  let result = [...found];
  for (const c of corrections.relationships) {
    const user = { kind: 'user' as const, file: CORRECTIONS_FILE };
    if (c.kind === 'none') {
      const [a, b] = c.tables;
      const between = (x: string, y: string) => (x === a && y === b) || (x === b && y === a);
      result = result.filter((r) => !(r.kind === 'foreign-key' && between(r.child.table, r.parent.table)) && !(r.kind === 'one-to-one' && between(r.left.table, r.right.table)));
    } else if (c.kind === 'foreign-key') {
      result.push({ kind: 'foreign-key', child: ref(c.child), parent: ref(c.parent), containment: 1, byName: false, source: user, why: `set in ${CORRECTIONS_FILE}` });
    } else {
      result.push({ kind: 'one-to-one', left: ref(c.left), right: ref(c.right), source: user, why: `set in ${CORRECTIONS_FILE}` });
    }
  }
  return result;
}

/** Applies column and table corrections over the inferred profile; returns how many entries applied. */
function applyCorrections(semantic: SemanticProfile, corrections: SemanticCorrections): number {
  let applied = (corrections.relationships?.length ?? 0) + (corrections.partitions?.length ?? 0);
  const user = { kind: 'user' as const, file: CORRECTIONS_FILE };
  const why = `set in ${CORRECTIONS_FILE}`;
  for (const [ref, fix] of Object.entries(corrections.columns ?? {})) {
    const table = ref.slice(0, ref.indexOf('.'));
    const column = ref.slice(ref.indexOf('.') + 1);
    const target = semantic.columns.find((c) => c.table === table && c.column === column);
    if (!target) continue;
    applied++;
    if (fix.role) {
      target.role = { value: fix.role as ColumnSemantics['role']['value'], confidence: 1, source: user, why };
      if (fix.role !== 'measure') delete target.additivity;
    }
    if (fix.additivity) target.additivity = { value: fix.additivity, confidence: 1, source: user, why };
    if (target.role.value === 'measure' && !target.additivity) target.additivity = { value: 'additive', confidence: 0.5, source: user, why: `${why} (a measure; additivity not given)` };
    target.aggregation = fix.aggregation ?? defaultAggregation(target.role.value, target.additivity?.value);
    if (fix.unit) target.unit = { value: { kind: 'other', label: fix.unit }, confidence: 1, source: user, why };
    if (fix.description) target.description = { value: fix.description, confidence: 1, source: user, why };
    if (fix.grain) target.time = { ...(target.time ?? { storage: 'text' }), grain: fix.grain };
  }
  for (const [name, fix] of Object.entries(corrections.tables ?? {})) {
    const target = semantic.tables.find((t) => t.table === name);
    if (!target) continue;
    applied++;
    if (fix.kind) target.kind = { value: fix.kind, confidence: 1, source: user, why };
    if (fix.description) target.description = { value: fix.description, confidence: 1, source: user, why };
  }
  return applied;
}

/** Loads a folder as a data environment with its semantic profile. */
export async function loadSemanticEnvironment(root: string, options: LoadOptions = {}): Promise<SemanticEnvironment> {
  let semantics: SemanticProfile | undefined;
  const env = await loadEnvironment(root, {
    ...options,
    beforeImage(db, draft) {
      options.beforeImage?.(db, draft);
      semantics = inferSemantics(db, draft);
      draft.profile.diagnostics.push(...semantics.diagnostics);
    },
  });
  return { ...env, semantics: semantics! };
}

/** The semantics of one column, if the profile has it. */
export function columnOf(semantics: SemanticProfile | undefined, table: string, column: string): ColumnSemantics | undefined {
  return semantics?.columns.find((c) => c.table === table && c.column === column);
}

/** Share of columns two sheets of a workbook must share (by name) to be read as one dataset. */
const MIN_SHARED_SHEET_COLUMNS = 0.8;

/**
 * Sheets of one workbook with the same columns are one dataset split by sheet (EIA-861's `States` and
 * `Territories`): a column that holds one value in a sheet (every territory's "From Transmission" is `.`) is the
 * measure the same column is in the sheet where it varies, not "a category of one value".
 */
function sameSheetsOfAWorkbook(tables: readonly TableProfile[], tableColumns: Map<string, ColumnSemantics[]>): void {
  const sheets = tables.filter((t) => t.kind === 'table' && !t.parent && /\.(xlsx|xlsm)$/i.test(t.sourceFile));
  for (const table of sheets) {
    const names = new Set(table.columns.map((c) => c.name));
    const siblings = sheets.filter((o) => {
      if (o === table || o.sourceFile !== table.sourceFile || o.rowCount <= table.rowCount) return false;
      const shared = o.columns.filter((c) => names.has(c.name)).length;
      return shared >= MIN_SHARED_SHEET_COLUMNS * Math.max(names.size, o.columns.length);
    });
    if (siblings.length === 0) continue;
    const list = tableColumns.get(table.name) ?? [];
    list.forEach((semantics, i) => {
      const column = table.columns.find((c) => c.name === semantics.column);
      if (!column || column.distinctCount > 1 || semantics.role.source.kind === 'user') return;
      for (const sibling of siblings) {
        const other = sibling.columns.find((c) => c.name === semantics.column);
        const decided = (tableColumns.get(sibling.name) ?? []).find((c) => c.column === semantics.column);
        if (!other || !decided || other.distinctCount < 2 || decided.role.value !== 'measure' || semantics.role.value === 'measure') continue;
        list[i] = { ...decided, table: table.name, column: semantics.column, role: { ...decided.role, why: `${decided.role.why} (as in sheet ${JSON.stringify(sibling.originalName)} of the same workbook, with the same columns; one value here)` }, ...(semantics.description ? { description: semantics.description } : {}) };
        return;
      }
    });
  }
}

/** The header a workbook shows above an Excel table, read as the column's description (`cil`: "… 95% C.I. lower"). */
function shownHeaderEntry(table: TableProfile, column: ColumnProfile): DictionaryEntry | undefined {
  const shown = column.origin?.shownHeader;
  return shown ? { file: column.origin!.file, scope: table.name, column: column.name, description: shown } : undefined;
}

/**
 * Columns of a table whose values are nearly all the table's own key, pointing at other rows (a district's county,
 * a council's successor): at least two distinct values, 95% of them keys of the table, and not the key itself.
 * Only text codes (`E10000002`, `ABC`): small numbers fit any integer key by chance.
 */
function nestedLevels(db: Database, table: TableProfile): TableSemantics['nested'] {
  if (table.kind !== 'table' || table.rowCount < 10) return undefined;
  const key = table.columns.find((c) => c.candidateKey && c.type === 'text' && c.nullFraction === 0 && c.samples.every((v) => typeof v === 'string' && v.length <= 12 && !/\s/.test(v)));
  if (!key) return undefined;
  const found: string[] = [];
  let keys: Set<string> | undefined;
  for (const c of table.columns) {
    if (c === key || c.type !== 'text' || c.distinctCount < 2 || c.distinctCount > table.rowCount / 2) continue;
    try {
      keys ??= new Set((db.exec(`SELECT ${q(key.name)} FROM ${q(table.name)}`)[0]?.values ?? []).map(([v]) => String(v)));
      const values = (db.exec(`SELECT DISTINCT ${q(c.name)} FROM ${q(table.name)} WHERE ${q(c.name)} IS NOT NULL AND TRIM(${q(c.name)}) <> ''`)[0]?.values ?? []).map(([v]) => String(v));
      // (A cell may name two rows, `CBD,WAF`: each of its items is a key.)
      // (Numbers written as text, `rot_vel` 123 beside a key `hr` of 1–9110, meet the key by chance, whatever else a few cells hold.)
      if (values.filter((v) => /^[-+]?\d+(\.\d+)?$/.test(v.trim())).length >= 0.8 * values.length) continue;
      const inKey = values.filter((v) => v.split(/\s*[,;]\s*/).every((item) => keys!.has(item))).length;
      if (values.length >= 2 && inKey >= 0.95 * values.length) found.push(c.name);
    } catch {
      // A column the query cannot read is no evidence either way.
    }
  }
  return found.length > 0 ? { columns: found, key: key.name, why: `${found.join(', ')} name${found.length === 1 ? 's' : ''} other rows of this table by ${key.name}: its rows are at several levels` } : undefined;
}
