/**
 * How tables relate: foreign keys (declared by a database, made by the JSON loader, or found by inclusion of
 * values), one-to-one parallel tables that share a key set, tables and views derived from others, and columns
 * computed from other columns of their table. The one place inclusion dependencies are discovered; the task pool
 * and the agent read them from the semantic profile.
 */
import type { Database, SqlValue } from 'sql.js';
import { quoteIdent as q } from '../text/sql';
import type { ColumnProfile, EnvironmentProfile, TableProfile } from '../env/types';
import { ADDITIVE_WORDS, CODE_WORDS, IDENTIFIER_WORDS, NON_ADDITIVE_WORDS, SEMI_ADDITIVE_WORDS, TIME_WORDS, nameTokens } from './lexicon';
import { isRunningTotal, MAX_SERIES_ROWS } from './levels';
import type { Partition, Relationship } from './types';

type ForeignKey = Extract<Relationship, { kind: 'foreign-key' }>;

function rows(db: Database, sql: string, params?: SqlValue[]): SqlValue[][] {
  try {
    return db.exec(sql, params)[0]?.values ?? [];
  } catch {
    return [];
  }
}

const singular = (name: string) => name.toLowerCase().replace(/ies$/, 'y').replace(/([^s])s$/, '$1');
const keyTokens = (name: string) => nameTokens(name).filter((t) => t.length >= 3 && !['id', 'key', 'code', 'no', 'ref'].includes(t));
const isIdLike = (c: ColumnProfile) => /(^id$|_id$|id$|^key$|_key$|code$)/i.test(c.name);

const GEO_NAME = /(city|state|country|region|province|county|zip|postal|address|town)$/i;
const QUANTITY_OR_TIME = new Set([...ADDITIVE_WORDS, ...SEMI_ADDITIVE_WORDS, ...NON_ADDITIVE_WORDS, ...TIME_WORDS]);
const quantityOrTime = (name: string) => nameTokens(name).some((t) => QUANTITY_OR_TIME.has(t));
/** A number of things (`no_plots`, `num_rooms`, `n_members`), not the number of one: `memb_no` identifies a member. */
const countName = (name: string) => {
  const tokens = nameTokens(name);
  return tokens.some((t, i) => /^(no|num|nb|nr|n)$/.test(t) && i < tokens.length - 1);
};

/** Distinct text values a child column needs before full containment in a parent key counts without a name match. */
const MIN_TEXT_KEY_VALUES = 10;
/** Distinct numbers a child column needs before full containment in a parent's scattered ids counts without a name match. */
const MIN_SCATTERED_KEY_VALUES = 5;

const num = (value: unknown) => (typeof value === 'number' ? value : Number(value));

/** Foreign keys the database declares and the links the JSON loader made between a record and its nested arrays. */
function declaredForeignKeys(profile: EnvironmentProfile): ForeignKey[] {
  const found: ForeignKey[] = [];
  for (const table of profile.tables) {
    for (const key of table.foreignKeys ?? []) {
      if (key.columns.length !== 1 || !key.references[0]) continue;
      found.push({ kind: 'foreign-key', child: { table: table.name, column: key.columns[0] }, parent: { table: key.table, column: key.references[0] }, containment: 1, byName: true, source: { kind: 'schema', detail: 'FOREIGN KEY' }, why: `declared: ${table.name}.${key.columns[0]} REFERENCES ${key.table}(${key.references[0]})` });
    }
    if (table.parent) {
      found.push({ kind: 'foreign-key', child: { table: table.name, column: table.parent.column }, parent: { table: table.parent.table, column: '_row_id' }, containment: 1, byName: true, source: { kind: 'schema', detail: 'nested JSON array' }, why: `each ${table.name} row is an item of a ${table.parent.table} record's array` });
    }
  }
  return found;
}

/**
 * Inclusion dependencies child.column ⊆ parent.key: by name with ≥ 90% containment, or by values alone when a
 * child column whose name points at the parent, or a text column of ten or more codes, is fully contained (the
 * tightest parent key wins, so a small `SupportRepId` maps to the 8-row employee table rather than to every table
 * whose ids happen to cover 1..8).
 */
function inclusionDependencies(db: Database, profile: EnvironmentProfile, declared: ForeignKey[], partitionViews: ReadonlySet<string>): ForeignKey[] {
  const known = new Set(declared.map((d) => `${d.child.table}.${d.child.column}`));
  // A child of a few rows (8 visits to 3 sites) counts only when its column's name points at the parent. A
  // partition's view is a child too: a station code constant in each station's file points at the station list
  // across all the files.
  const tables = profile.tables.filter((t) => (t.kind === 'table' || partitionViews.has(t.name)) && t.rowCount >= 2);
  // Lookup tables (8 categories, 3 shippers) are parents too, however small.
  const parents = profile.tables.filter((t) => t.kind === 'table' && t.rowCount > 0);
  const result: ForeignKey[] = [];
  for (const child of tables) {
    for (const childColumn of child.columns) {
      if (known.has(`${child.name}.${childColumn.name}`)) continue;
      // (The row numbers the loader gives a file's records, `_row_id` 1…n, refer to nothing: a partition's view repeats
      // them file by file, which makes them look like a child's key into any table numbered as far.)
      if (childColumn.name === '_row_id') continue;
      if (childColumn.candidateKey && !isIdLike(childColumn)) continue;
      // A table's own key (`id`, `<table>_id`, unique) is not a pointer to another table's.
      if (childColumn.candidateKey && (childColumn.name.toLowerCase() === 'id' || childColumn.name.toLowerCase().replace(/_/g, '') === `${singular(child.name)}id`)) continue;
      if (childColumn.type !== 'integer' && childColumn.type !== 'text') continue;
      if (childColumn.distinctCount < 2) continue;
      const candidates: ForeignKey[] = [];
      for (const parent of parents) {
        if (parent.name === child.name) continue;
        for (const parentColumn of parent.columns.filter((c) => c.candidateKey && c.type === childColumn.type)) {
          const childName = childColumn.name.toLowerCase();
          const parentName = parentColumn.name.toLowerCase();
          // (…or the parent's name before its key's, `projection_acronym` → `tbl_projection.acronym`, a prefix such as
          // `tbl_` aside.)
          const parentStem = singular(parent.name.toLowerCase().replace(/^(tbl|tb|t|dim|lkp|lu|ref)_/, ''));
          const qualified = parentName !== 'id' && childName === `${parentStem}_${parentName}`;
          const byName = childName === parentName || qualified || (parentName === 'id' && childName.replace(/_/g, '') === `${singular(parent.name)}id`);
          // Values alone are not enough for numbers (ids 1..8 fit any table): the child column's name must point at
          // the parent ("ShipVia" → Shippers). Ten or more distinct text codes ("origin": SFO, LAX, …) all found in
          // another table's unique column (airports.iata) is a foreign key whatever the names say.
          const affinity = keyTokens(childColumn.name).some((t) => parent.name.toLowerCase().includes(t));
          // Codes, not words: short values without spaces in the parent (IATA codes, SKUs), and not two columns that
          // name the same kind of place (a customer's city is found among the stores' cities without pointing at a store).
          const codes = parentColumn.samples.every((v) => typeof v === 'string' && v.length <= 8 && !/\s/.test(v));
          const samePlace = GEO_NAME.test(childColumn.name) && GEO_NAME.test(parentColumn.name);
          const textCodes = childColumn.type === 'text' && childColumn.distinctCount >= MIN_TEXT_KEY_VALUES && codes && !samePlace;
          // Numbers that are not a run 1..n (visit ids 619, 622, 734, …): five or more of them, all found among a
          // parent's scattered unique ids (a column named as a key), point at its rows whatever the name (`Survey.taken` → `Visited.id`).
          const scatteredIds = childColumn.type === 'integer' && childColumn.distinctCount >= MIN_SCATTERED_KEY_VALUES && isIdLike(parentColumn) && num(parentColumn.max) - num(parentColumn.min) + 1 >= 4 * parentColumn.distinctCount;
          if (!byName && (!(affinity || textCodes || scatteredIds) || childColumn.candidateKey)) continue;
          if (!byName && !affinity && child.rowCount < 10) continue;
          // A quantity or a time that happens to name a table (`rental_duration` in a database with `rental`) is not a key.
          if (!byName && (quantityOrTime(childColumn.name) || countName(childColumn.name))) continue;
          if (!byName && childColumn.distinctCount > parentColumn.distinctCount) continue;
          const counted = rows(
            db,
            `SELECT COUNT(*), COUNT(p.${q(parentColumn.name)}) FROM (SELECT DISTINCT ${q(childColumn.name)} AS v FROM ${q(child.name)} WHERE ${q(childColumn.name)} IS NOT NULL${childColumn.type === 'text' ? ` AND ${q(childColumn.name)} <> ''` : ''}) AS c LEFT JOIN ${q(parent.name)} AS p ON c.v = p.${q(parentColumn.name)}`,
          );
          const total = Number(counted[0]?.[0] ?? 0);
          const matched = Number(counted[0]?.[1] ?? 0);
          if (total < 2) continue;
          const containment = matched / total;
          // (A name that spells out the parent and its key says more than a shared name: four in five values found do.)
          if ((byName && containment >= (qualified ? 0.8 : 0.9)) || (!byName && containment === 1)) {
            const share = `${(containment * 100).toFixed(1)}% of ${child.name}.${childColumn.name} values occur in ${parent.name}.${parentColumn.name}`;
            candidates.push({ kind: 'foreign-key', child: { table: child.name, column: childColumn.name }, parent: { table: parent.name, column: parentColumn.name }, containment, byName, source: { kind: 'rule', rule: byName ? 'foreign-key:name-and-values' : 'foreign-key:values' }, why: byName ? share : `${share} (found by values)` });
          }
        }
      }
      if (candidates.length === 0) continue;
      // By-name keys all stand; a values-only key keeps only its tightest parent, and only when nothing matched by name.
      const named = candidates.filter((c) => c.byName);
      if (named.length > 0) result.push(...named);
      else if (!childColumn.candidateKey) {
        const size = (name: string) => profile.tables.find((t) => t.name === name)?.rowCount ?? 0;
        result.push(candidates.sort((a, b) => size(a.parent.table) - size(b.parent.table) || a.parent.table.localeCompare(b.parent.table))[0]);
      }
    }
  }
  return result;
}

/** Columns of one table that point, by their values alone, at one parent column: enough to read their siblings alike. */
const MIN_SIBLING_KEYS = 3;

/**
 * Columns beside three or more found keys into one parent column (a workbook's sheet of sources, one reference code
 * per cell of the values sheet, each a key of the lookup sheet): a sibling text column whose every value is a key of
 * that parent points at it too, however few values it has (`MI0114` alone) and whatever its name says (`… sum …`).
 */
function siblingKeys(db: Database, profile: EnvironmentProfile, found: readonly ForeignKey[]): ForeignKey[] {
  const result: ForeignKey[] = [];
  const byTable = new Map<string, ForeignKey[]>();
  for (const key of found) if (!key.byName) byTable.set(key.child.table, [...(byTable.get(key.child.table) ?? []), key]);
  for (const [tableName, keys] of byTable) {
    const parents = new Map<string, ForeignKey[]>();
    for (const key of keys) parents.set(`${key.parent.table}\u0000${key.parent.column}`, [...(parents.get(`${key.parent.table}\u0000${key.parent.column}`) ?? []), key]);
    const table = profile.tables.find((t) => t.name === tableName);
    if (!table) continue;
    const taken = new Set(keys.map((k) => k.child.column));
    for (const [, group] of parents) {
      if (group.length < MIN_SIBLING_KEYS) continue;
      const parent = group[0].parent;
      for (const column of table.columns) {
        if (taken.has(column.name) || column.type !== 'text' || column.candidateKey || column.distinctCount < 1) continue;
        const counted = rows(
          db,
          `SELECT COUNT(*), COUNT(p.${q(parent.column)}) FROM (SELECT DISTINCT ${q(column.name)} AS v FROM ${q(tableName)} WHERE ${q(column.name)} IS NOT NULL AND TRIM(${q(column.name)}) <> '') AS c LEFT JOIN ${q(parent.table)} AS p ON c.v = p.${q(parent.column)}`,
        );
        const total = Number(counted[0]?.[0] ?? 0);
        const matched = Number(counted[0]?.[1] ?? 0);
        if (total === 0 || matched < total) continue;
        taken.add(column.name);
        const share = `all ${total} distinct value(s) of ${tableName}.${column.name} occur in ${parent.table}.${parent.column}, as those of ${group.length} other columns of its table do`;
        result.push({ kind: 'foreign-key', child: { table: tableName, column: column.name }, parent, containment: 1, byName: false, source: { kind: 'rule', rule: 'foreign-key:siblings' }, why: share });
      }
    }
  }
  return result;
}

/**
 * Parallel tables: two tables, each with a unique column over the same set of values (by name, or one a foreign
 * key of the other) and about as many rows — one row per key in both, so neither is the other's parent. Such a
 * pair is kept as one-to-one and its foreign keys (in either direction) are dropped.
 */
function oneToOne(db: Database, profile: EnvironmentProfile, keys: ForeignKey[]): Array<Extract<Relationship, { kind: 'one-to-one' }>> {
  const found: Array<Extract<Relationship, { kind: 'one-to-one' }>> = [];
  const tables = profile.tables.filter((t) => t.rowCount >= 2);
  for (let i = 0; i < tables.length; i++) {
    for (let j = i + 1; j < tables.length; j++) {
      const a = tables[i];
      const b = tables[j];
      if (Math.abs(a.rowCount - b.rowCount) > 0.01 * Math.max(a.rowCount, b.rowCount)) continue;
      // (A rank or a row number, 1 … n in each table, is unique in both by counting: it pairs the first rows, not the
      // same things. A key named as one, `id` 1 … n, still does.)
      const counting = (t: TableProfile, c: ColumnProfile) => c.type === 'integer' && (Number(c.min) === 0 || Number(c.min) === 1) && Number(c.max) - Number(c.min) + 1 === t.rowCount && !nameTokens(c.name).some((w) => IDENTIFIER_WORDS.has(w) || CODE_WORDS.has(w));
      for (const left of a.columns.filter((c) => c.candidateKey && (c.type === 'integer' || c.type === 'text') && !counting(a, c))) {
        const named = b.columns.find((c) => c.candidateKey && c.type === left.type && c.name.toLowerCase() === left.name.toLowerCase());
        const linked = keys.find((k) => (k.child.table === a.name && k.child.column === left.name && k.parent.table === b.name) || (k.parent.table === a.name && k.parent.column === left.name && k.child.table === b.name));
        const right = named ?? (linked ? b.columns.find((c) => c.name === (linked.child.table === b.name ? linked.child.column : linked.parent.column) && c.candidateKey) : undefined);
        if (!right) continue;
        const counted = rows(db, `SELECT (SELECT COUNT(*) FROM ${q(a.name)} AS x JOIN ${q(b.name)} AS y ON x.${q(left.name)} = y.${q(right.name)})`);
        const matched = Number(counted[0]?.[0] ?? 0);
        if (matched < 0.99 * Math.max(a.rowCount, b.rowCount)) continue;
        found.push({ kind: 'one-to-one', left: { table: a.name, column: left.name }, right: { table: b.name, column: right.name }, source: { kind: 'rule', rule: 'one-to-one:same-key-set' }, why: `${a.name}.${left.name} and ${b.name}.${right.name} hold the same ${matched} unique keys: parallel tables, one row per key in each` });
        break;
      }
    }
  }
  return found;
}

/**
 * Parallel tables over a composite key: two or three same-named columns (an economy, a year, a quarter) unique
 * together in both tables, with nearly every key in both — one row per key in each (GitHub's developers and
 * repositories per economy and quarter), so neither is the other's parent.
 */
function compositeOneToOne(db: Database, profile: EnvironmentProfile): Array<Extract<Relationship, { kind: 'one-to-one' }>> {
  const found: Array<Extract<Relationship, { kind: 'one-to-one' }>> = [];
  const tables = profile.tables.filter((t) => t.kind === 'table' && t.rowCount >= 10);
  const keyable = (c: ColumnProfile) => (c.type === 'text' || c.type === 'integer' || c.type === 'date') && !c.candidateKey && c.nullFraction === 0;
  for (let i = 0; i < tables.length; i++) {
    for (let j = i + 1; j < tables.length; j++) {
      const [a, b] = [tables[i], tables[j]];
      if (Math.abs(a.rowCount - b.rowCount) > 0.05 * Math.max(a.rowCount, b.rowCount)) continue;
      const shared = a.columns.filter((c) => keyable(c) && b.columns.some((d) => keyable(d) && d.type === c.type && d.name === c.name)).map((c) => c.name);
      if (shared.length < 2 || shared.length > 3 || shared.length === a.columns.length || shared.length === b.columns.length) continue;
      const cols = shared.map(q).join(', ');
      const duplicates = (t: TableProfile) => Number(rows(db, `SELECT COUNT(*) FROM (SELECT ${cols} FROM ${q(t.name)} GROUP BY ${cols} HAVING COUNT(*) > 1)`)[0]?.[0] ?? 1);
      if (duplicates(a) !== 0 || duplicates(b) !== 0) continue;
      const matched = Number(rows(db, `SELECT COUNT(*) FROM ${q(a.name)} AS x JOIN ${q(b.name)} AS y ON ${shared.map((c) => `x.${q(c)} = y.${q(c)}`).join(' AND ')}`)[0]?.[0] ?? 0);
      if (matched < 0.95 * Math.max(a.rowCount, b.rowCount)) continue;
      found.push({ kind: 'one-to-one', left: { table: a.name, column: shared.join(', ') }, right: { table: b.name, column: shared.join(', ') }, source: { kind: 'rule', rule: 'one-to-one:same-composite-key' }, why: `${a.name} and ${b.name} both hold one row per (${shared.join(', ')}), ${matched} keys in common: parallel tables` });
    }
  }
  return found;
}

/** The tables a view's SELECT reads (names after FROM and JOIN that are tables of the environment). */
export function tablesReadBy(select: string, profile: EnvironmentProfile, byOriginalName = true): string[] {
  const names = new Map<string, string>();
  for (const t of profile.tables) {
    names.set(t.name.toLowerCase(), t.name);
    if (byOriginalName && t.kind !== 'view') names.set(t.originalName.toLowerCase(), t.name);
  }
  const found = new Set<string>();
  const pattern = /\b(?:FROM|JOIN)\s+(?:"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w$]*)(?:\.([A-Za-z_][\w$]*))?)/gi;
  for (let m = pattern.exec(select); m; m = pattern.exec(select)) {
    const raw = (m[1]?.replace(/""/g, '"') ?? m[2] ?? m[3] ?? m[5] ?? m[4] ?? '').toLowerCase();
    const table = names.get(raw);
    if (table) found.add(table);
  }
  return [...found];
}

/** Views (and views the loader had to materialise) are derived from the tables they read. */
function derivedTables(profile: EnvironmentProfile): Array<Extract<Relationship, { kind: 'derived-table' }>> {
  const found: Array<Extract<Relationship, { kind: 'derived-table' }>> = [];
  for (const table of profile.tables) {
    if (!table.viewSql) continue;
    const from = tablesReadBy(table.viewSql, profile).filter((t) => t !== table.name);
    if (from.length === 0) continue;
    found.push({ kind: 'derived-table', table: table.name, from, source: { kind: 'schema', detail: 'CREATE VIEW' }, why: `a view over ${from.join(', ')}` });
  }
  return found;
}

/**
 * A table that copies columns of another, row for row (sakila's `film_text` holds `film`'s titles): a one-to-one
 * pair where every column of the smaller table holds the same values as the same-named column of the other.
 */
function copiedTables(db: Database, profile: EnvironmentProfile, pairs: Array<Extract<Relationship, { kind: 'one-to-one' }>>): Array<Extract<Relationship, { kind: 'derived-table' }>> {
  const found: Array<Extract<Relationship, { kind: 'derived-table' }>> = [];
  const byName = (name: string) => profile.tables.find((t) => t.name === name)!;
  for (const pair of pairs) {
    for (const [copy, source, copyKey, sourceKey] of [
      [byName(pair.left.table), byName(pair.right.table), pair.left.column, pair.right.column],
      [byName(pair.right.table), byName(pair.left.table), pair.right.column, pair.left.column],
    ] as Array<[TableProfile, TableProfile, string, string]>) {
      if (copy.columns.length >= source.columns.length) continue;
      const shared = copy.columns.filter((c) => c.name !== copyKey && source.columns.some((s) => s.name === c.name));
      if (shared.length === 0 || shared.length < copy.columns.length - 1) continue;
      const differences = rows(db, `SELECT COUNT(*) FROM ${q(copy.name)} AS c JOIN ${q(source.name)} AS s ON c.${q(copyKey)} = s.${q(sourceKey)} WHERE ${shared.map((c) => `c.${q(c.name)} IS NOT s.${q(c.name)}`).join(' OR ')}`);
      if (Number(differences[0]?.[0] ?? 1) !== 0) continue;
      found.push({ kind: 'derived-table', table: copy.name, from: [source.name], source: { kind: 'rule', rule: 'derived-table:copied-columns' }, why: `every column of ${copy.name} repeats ${source.name}'s, row for row` });
    }
  }
  return found;
}

/** The words that say a series is seasonally adjusted, or not, as a name's last tokens. */
const ADJUSTMENT = /(_|^)(nsa|sa|not_seasonally_adjusted|seasonally_adjusted|unadjusted|adjusted)$/;

/**
 * A series and its seasonally adjusted twin (`all_visits_nsa` and `all_visits_sa`, "… not seasonally adjusted" and
 * "… seasonally adjusted"): the adjusted one is computed from the other, so no task correlates or compares the two.
 */
function seasonallyAdjusted(table: TableProfile): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  const numeric = table.columns.filter((c) => c.type === 'integer' || c.type === 'real');
  const stem = (name: string) => name.replace(ADJUSTMENT, '');
  for (const adjusted of numeric) {
    const m = ADJUSTMENT.exec(adjusted.name);
    if (!m || !/^(sa|seasonally_adjusted|adjusted)$/.test(m[2]) || stem(adjusted.name) === '') continue;
    const raw = numeric.find((c) => c !== adjusted && ADJUSTMENT.test(c.name) && /^(nsa|not_seasonally_adjusted|unadjusted)$/.test(ADJUSTMENT.exec(c.name)![2]) && stem(c.name) === stem(adjusted.name));
    if (raw) found.push({ kind: 'derived-column', table: table.name, column: adjusted.name, from: [raw.name], relation: `${raw.name} seasonally adjusted`, source: { kind: 'rule', rule: 'derived-column:seasonally-adjusted' }, why: `the seasonally adjusted series of ${raw.name}` });
  }
  return found;
}

/**
 * A statistics office's "of which" columns (`Europe` then `of which European Union`, `of which EU15`): each a part of the
 * nearest column to its left that is no "of which" itself. The part is derived from its whole.
 */
function ofWhichParts(table: TableProfile): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  const ofWhich = (c: TableProfile['columns'][number]) => /\bof which\b/i.test(c.originalName || '');
  table.columns.forEach((column, at) => {
    if (!ofWhich(column) || (column.type !== 'integer' && column.type !== 'real')) return;
    const whole = table.columns.slice(0, at).reverse().find((c) => !ofWhich(c) && (c.type === 'integer' || c.type === 'real'));
    if (whole) found.push({ kind: 'derived-column', table: table.name, column: column.name, from: [whole.name], relation: `part of ${whole.name}`, source: { kind: 'rule', rule: 'derived-column:of-which' }, why: `headed "of which": a part of ${whole.originalName || whole.name}` });
  });
  return found;
}

const SAMPLE_ROWS = 2000;
const MAX_NUMERIC_COLUMNS = 12;

/** Columns of a view that its SELECT computes with arithmetic (`quantity * unit_price AS total`). */
function viewComputedColumns(table: TableProfile): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  if (!table.viewSql) return found;
  const select = /^\s*SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(table.viewSql)?.[1];
  if (!select) return found;
  // Split the select list at top-level commas.
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < select.length; i++) {
    const ch = select[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      items.push(select.slice(start, i));
      start = i + 1;
    }
  }
  items.push(select.slice(start));
  for (const item of items) {
    const m = /^([\s\S]+?)\s+AS\s+"?([\w ]+?)"?\s*$/i.exec(item.trim());
    if (!m || !/[*/+-]/.test(m[1].replace(/\b\d+(\.\d+)?\b/g, ''))) continue;
    const alias = table.columns.find((c) => c.name.toLowerCase() === m[2].toLowerCase());
    if (!alias) continue;
    const inputs = table.columns.filter((c) => c !== alias && new RegExp(`\\b${c.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(m[1])).map((c) => c.name);
    const mentioned = [...new Set((m[1].match(/[A-Za-z_]\w*/g) ?? []).filter((w) => !/^(CAST|AS|REAL|INTEGER|ROUND|SUM|COALESCE|IFNULL|NULLIF|AVG|COUNT|MIN|MAX|ABS)$/i.test(w)))];
    found.push({ kind: 'derived-column', table: table.name, column: alias.name, from: inputs.length > 0 ? inputs : mentioned, relation: m[1].trim().replace(/\s+/g, ' '), source: { kind: 'schema', detail: 'CREATE VIEW' }, why: `the view computes it as ${m[1].trim().replace(/\s+/g, ' ')}` });
  }
  return found;
}

/**
 * The share of the smaller table's columns (by name, case aside, `except` left out) that the other holds too; 0 where
 * fewer than three are shared. Editions of one table (a workbook's sheet per year) share most.
 */
export function columnsInCommon(a: TableProfile, b: TableProfile, except: readonly string[] = []): number {
  const names = (t: TableProfile) => new Set(t.columns.filter((c) => !except.includes(c.name)).map((c) => c.name.toLowerCase()));
  const [x, y] = [names(a), names(b)];
  const shared = [...x].filter((n) => y.has(n)).length;
  return shared >= 3 ? shared / Math.min(x.size, y.size) : 0;
}

/** Equal up to rounding: half a cent, or 0.1% (values stored rounded, a product of rounded factors). */
const close = (a: number, b: number) => Math.abs(a - b) <= 0.005 + 1e-3 * Math.abs(b);

/**
 * Columns that are exact functions of two or three others of the same table, checked on a sample of rows:
 * c = a × b, c = a × b × (1 − d) for a fraction d, c = a + b, c = a − b; and pairs with |r| ≥ 0.999 (linear).
 */
function computedColumns(db: Database, table: TableProfile): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount > 2 && c.nullFraction < 0.5 && !/(^id$|_id$|id$)/i.test(c.name)).slice(0, MAX_NUMERIC_COLUMNS);
  if (numeric.length < 2 || table.rowCount < 10) return [];
  const sampled = rows(db, `SELECT ${numeric.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} LIMIT ${SAMPLE_ROWS}`);
  const sample = sampled.filter((r) => r.every((v) => typeof v === 'number')).map((r) => r as number[]);
  // Columns filled on some rows only (a potato's yields on the potato rows of a crop table) are checked apart, each
  // relation on the rows where its own columns are filled.
  const sparse = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount > 2 && c.nullFraction < 0.95 && !/(^id$|_id$|id$)/i.test(c.name));
  const sparsely = (already: ReadonlyArray<{ column: string }>) => {
    if (sample.length >= 10 && !sparse.some((c) => c.nullFraction >= 0.5)) return [];
    const columns = sparse.filter((c) => c.nullFraction >= 0.5).concat(sparse.filter((c) => c.nullFraction < 0.5)).slice(0, MAX_NUMERIC_COLUMNS + 4);
    const taken = new Set(already.map((r) => r.column));
    return sparseComputedColumns(table, columns, rows(db, `SELECT ${columns.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} LIMIT ${SAMPLE_ROWS}`)).filter((r) => !taken.has(r.column));
  };
  if (sample.length < 10) return sparsely([]);
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  const seen = new Set<string>();
  const holds = (f: (r: number[]) => boolean) => sample.every(f);
  const add = (target: number, from: number[], relation: string, why: string) => {
    const column = numeric[target].name;
    if (seen.has(column)) return;
    seen.add(column);
    found.push({ kind: 'derived-column', table: table.name, column, from: from.map((i) => numeric[i].name), relation, source: { kind: 'rule', rule: 'derived-column:exact' }, why });
  };
  const n = numeric.length;
  const fractions = numeric.map((_, i) => sample.every((r) => r[i] >= 0 && r[i] < 1) && sample.some((r) => r[i] > 0));
  const varies = numeric.map((_, i) => sample.some((r) => r[i] !== sample[0][i]));
  // A ratio stored rounded to its column's decimals (33.1 for 100 × 1307 ÷ 3949.2 = 33.096), computed from inputs
  // that are rounded too: within half a unit of its last decimal, plus what the inputs' rounding moves the ratio (for
  // columns written with decimals; a whole number is no rounded ratio).
  const decimals = numeric.map((_, i) => Math.min(6, Math.max(...sample.map((r) => (String(r[i]).split('.')[1] ?? '').length))));
  const half = (i: number) => 0.5 * 10 ** -decimals[i];
  // Only the coarsest of the three is the rounded ratio: GDP to one decimal is not 100 × debt ÷ its percentage of GDP.
  const ratioClose = (c: number, stored: number, exact: number, a: number, b: number, ra: number, rb: number) => {
    if (close(stored, exact)) return true;
    if (decimals[c] < 1 || ra === 0) return false;
    const inputs = half(a) / Math.abs(ra) + half(b) / Math.abs(rb);
    return (stored === 0 || half(c) / Math.abs(stored) >= inputs) && Math.abs(stored - exact) <= half(c) + Math.abs(exact) * inputs + 1e-9;
  };
  // A percentage written as a whole number (`reg_excess_per` -10 for 100 × -41 ÷ 375 = -10.9: rounded or cut short):
  // within one of the exact ratio, on a column whose whole numbers spread over ten or more.
  const ranges = numeric.map((_, i) => Math.max(...sample.map((r) => r[i])) - Math.min(...sample.map((r) => r[i])));
  const percentClose = (c: number, stored: number, exact: number, a: number, b: number, ra: number, rb: number) =>
    ratioClose(c, stored, exact, a, b, ra, rb) || (decimals[c] === 0 && ranges[c] >= 10 && Math.abs(stored - exact) < 1);
  // A figure an office rounds to tens or more (a balance of £ millions written -1670 for -1673.9): its values all
  // multiples of 10, 100 or 1000, the unit it is rounded to (1 otherwise: no rounding allowed beyond `close`).
  const roundedTo = numeric.map((_, i) => [1000, 100, 10].find((g) => sample.every((r) => r[i] % g === 0) && sample.some((r) => r[i] !== 0)) ?? 1);
  const within = (c: number, stored: number, exact: number) => close(stored, exact) || (roundedTo[c] > 1 && Math.abs(stored - exact) <= roundedTo[c] / 2 + 1e-6 * Math.abs(exact));
  for (let c = 0; c < n; c++) {
    if (!varies[c]) continue;
    for (let a = 0; a < n; a++) {
      if (a === c) continue;
      for (let b = a + 1; b < n; b++) {
        if (b === c) continue;
        const names = `${numeric[a].name}, ${numeric[b].name}`;
        if (holds((r) => close(r[c], r[a] * r[b]))) add(c, [a, b], `${numeric[a].name} * ${numeric[b].name}`, `equals ${numeric[a].name} × ${numeric[b].name} on ${sample.length} sampled rows`);
        else if (holds((r) => within(c, r[c], r[a] + r[b]))) add(c, [a, b], `${numeric[a].name} + ${numeric[b].name}`, `equals ${numeric[a].name} + ${numeric[b].name}${roundedTo[c] > 1 ? `, rounded to ${roundedTo[c]}s,` : ''} on ${sample.length} sampled rows`);
        else if (holds((r) => within(c, r[c], r[a] - r[b]))) add(c, [a, b], `${numeric[a].name} - ${numeric[b].name}`, `equals ${numeric[a].name} − ${numeric[b].name}${roundedTo[c] > 1 ? `, rounded to ${roundedTo[c]}s,` : ''} on ${sample.length} sampled rows`);
        else if (holds((r) => within(c, r[c], r[b] - r[a]))) add(c, [a, b], `${numeric[b].name} - ${numeric[a].name}`, `equals ${numeric[b].name} − ${numeric[a].name}${roundedTo[c] > 1 ? `, rounded to ${roundedTo[c]}s,` : ''} on ${sample.length} sampled rows`);
        else if (holds((r) => r[b] !== 0 && ratioClose(c, r[c], r[a] / r[b], a, b, r[a], r[b]))) add(c, [a, b], `${numeric[a].name} / ${numeric[b].name}`, `equals ${numeric[a].name} ÷ ${numeric[b].name} on ${sample.length} sampled rows`);
        else if (holds((r) => r[a] !== 0 && ratioClose(c, r[c], r[b] / r[a], a, b, r[a], r[b]))) add(c, [a, b], `${numeric[b].name} / ${numeric[a].name}`, `equals ${numeric[b].name} ÷ ${numeric[a].name} on ${sample.length} sampled rows`);
        // A percentage of another column (a change in percent of GDP): the ratio times 100.
        else if (holds((r) => r[b] !== 0 && percentClose(c, r[c], (100 * r[a]) / r[b], a, b, r[a], r[b]))) add(c, [a, b], `100 * ${numeric[a].name} / ${numeric[b].name}`, `equals 100 × ${numeric[a].name} ÷ ${numeric[b].name} on ${sample.length} sampled rows`);
        else if (holds((r) => r[a] !== 0 && percentClose(c, r[c], (100 * r[b]) / r[a], a, b, r[a], r[b]))) add(c, [a, b], `100 * ${numeric[b].name} / ${numeric[a].name}`, `equals 100 × ${numeric[b].name} ÷ ${numeric[a].name} on ${sample.length} sampled rows`);
        else {
          for (let d = 0; d < n; d++) {
            if (!fractions[d] || d === a || d === b || d === c) continue;
            if (holds((r) => close(r[c], r[a] * r[b] * (1 - r[d])))) {
              add(c, [a, b, d], `${numeric[a].name} * ${numeric[b].name} * (1 - ${numeric[d].name})`, `equals ${names} × (1 − ${numeric[d].name}) on ${sample.length} sampled rows`);
              break;
            }
          }
        }
      }
    }
  }
  // Sums of three: total = born + capture + rescue.
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name)) continue;
    search3: for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        for (let d = b + 1; d < n; d++) {
          if (a === c || b === c || d === c) continue;
          if (holds((r) => close(r[c], r[a] + r[b] + r[d]))) {
            add(c, [a, b, d], `${numeric[a].name} + ${numeric[b].name} + ${numeric[d].name}`, `equals ${numeric[a].name} + ${numeric[b].name} + ${numeric[d].name} on ${sample.length} sampled rows`);
            break search3;
          }
        }
      }
    }
  }
  // Sums of four parts or more, each no larger than the total: EPA's days with an AQI = good + moderate + unhealthy
  // for sensitive groups + unhealthy + very unhealthy + hazardous days (and = the days each pollutant led).
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name) || !sample.every((r) => r[c] >= 0)) continue;
    const parts = numeric.map((_, i) => i).filter((i) => i !== c && sample.every((r) => r[i] >= 0 && r[i] <= r[c]) && sample.some((r) => r[i] > 0));
    if (parts.length < 4 || parts.length > MAX_SUM_PARTS) continue;
    const subset = smallestSum(parts, (chosen) => holds((r) => close(r[c], chosen.reduce((t, i) => t + r[i], 0))));
    if (subset) add(c, subset, subset.map((i) => numeric[i].name).join(' + '), `equals the sum of ${subset.length} columns (${subset.map((i) => numeric[i].name).join(', ')}) on ${sample.length} sampled rows`);
  }
  // A mean of three columns or more (the Global Carbon Budget's ocean sink, the mean of its seven models' estimates):
  // each part is an input of it, no second variable to correlate it with.
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name)) continue;
    const parts = numeric.map((_, i) => i).filter((i) => i !== c && varies[i]);
    if (parts.length < 3) continue;
    // (At most MAX_NUMERIC_COLUMNS - 1 parts: 2^11 subsets.)
    const subset = smallestSum(parts, (chosen) => holds((r) => Math.abs(r[c] - chosen.reduce((t, i) => t + r[i], 0) / chosen.length) <= half(c) + 1e-6 + 1e-4 * Math.abs(r[c])), 3);
    if (subset) add(c, subset, `(${subset.map((i) => numeric[i].name).join(' + ')}) / ${subset.length}`, `equals the mean of ${subset.length} columns (${subset.map((i) => numeric[i].name).join(', ')}) on ${sample.length} sampled rows`);
  }
  // A mean of two as its column rounds it (NOAA's TAVG, (TMAX + TMIN) / 2 to a tenth), on nearly every row: a few
  // months' averages come from daily values the extremes do not give.
  const share = (f: (r: number[]) => boolean) => sample.filter(f).length / sample.length;
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name)) continue;
    meanOfTwo: for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        if (a === c || b === c || !varies[a] || !varies[b]) continue;
        if (share((r) => Math.abs(r[c] - (r[a] + r[b]) / 2) <= half(c) + 1e-9) >= 0.98) {
          add(c, [a, b], `(${numeric[a].name} + ${numeric[b].name}) / 2`, `equals the mean of ${numeric[a].name} and ${numeric[b].name}, as rounded, on ${Math.round(100 * share((r) => Math.abs(r[c] - (r[a] + r[b]) / 2) <= half(c) + 1e-9))}% of ${sample.length} sampled rows`);
          break meanOfTwo;
        }
      }
    }
  }
  // One column a constant multiple of another, or its reciprocal (XrayDB's `sigma_mu` = molar mass ÷ 0.6022, `mue_f2`
  // ∝ 1 ÷ molar mass): the same quantity in other units. Both must vary (by 5% or more): two near-constant columns
  // (latitudes of one town) have a near-constant ratio by accident.
  const spread = (xs: number[]) => {
    const mean = xs.reduce((t, x) => t + x, 0) / xs.length;
    return mean === 0 ? Infinity : (Math.max(...xs) - Math.min(...xs)) / Math.abs(mean);
  };
  const wide = numeric.map((_, i) => spread(sample.map((r) => r[i])) >= 0.05);
  for (let c = 0; c < n; c++) {
    if (!wide[c] || seen.has(numeric[c].name)) continue;
    for (let a = 0; a < n; a++) {
      if (a === c || !wide[a]) continue;
      const pairs = sample.filter((r) => r[a] !== 0 && r[c] !== 0);
      if (pairs.length < 10) continue;
      const ratio = pairs.map((r) => r[c] / r[a]);
      const product = pairs.map((r) => r[c] * r[a]);
      const k = ratio.reduce((t, x) => t + x, 0) / ratio.length;
      const p = product.reduce((t, x) => t + x, 0) / product.length;
      if (spread(ratio) <= 0.002 && Math.abs(k - 1) > 1e-9) {
        add(c, [a], `${Number(k.toPrecision(6))} * ${numeric[a].name}`, `equals ${Number(k.toPrecision(6))} × ${numeric[a].name} on ${pairs.length} sampled rows: the same quantity in other units`);
        break;
      }
      if (spread(product) <= 0.002) {
        add(c, [a], `${Number(p.toPrecision(6))} / ${numeric[a].name}`, `equals ${Number(p.toPrecision(6))} ÷ ${numeric[a].name} on ${pairs.length} sampled rows: its reciprocal, in other units`);
        break;
      }
    }
  }
  // A part beside its whole, named so (`mettede_fettsyrer_g`, saturated fatty acids, beside `fett_g`, fat;
  // `saturated_fat` beside `total_fat`): hardly ever above it, below it somewhere, and a word of the part begins with the
  // whole's name. Related by construction, they correlate whatever the foods.
  const UNIT_WORDS = /^(g|mg|ug|µg|mcg|kg|kj|kcal|ml|l|pct|percent|total|sum|all)$/;
  const nameWordsOf = (i: number) => (numeric[i].originalName || numeric[i].name).toLowerCase().split(/[^a-z0-9µ]+/).filter((w) => w !== '' && !UNIT_WORDS.test(w));
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name)) continue;
    const partWords = nameWordsOf(c);
    for (let a = 0; a < n; a++) {
      if (a === c || !varies[a]) continue;
      const whole = nameWordsOf(a);
      if (whole.length !== 1 || whole[0].length < 3 || partWords.length < 2 || !partWords.some((w) => w !== whole[0] && w.startsWith(whole[0])) && !(partWords.includes(whole[0]) && partWords.length > 1)) continue;
      // (A few rows where the part rounds above a whole written as 0: 0.1 g of saturated fat in 0 g of fat.)
      if (share((r) => r[c] <= r[a] + 1e-9) >= 0.99 && sample.some((r) => r[c] < r[a])) {
        add(c, [a], `part of ${numeric[a].name}`, `not above ${numeric[a].name} on ${Math.round(100 * share((r) => r[c] <= r[a] + 1e-9))}% of ${sample.length} sampled rows, and named as a part of it`);
        break;
      }
    }
  }
  // Counts: whole numbers on every sampled row, however the column is typed.
  const integral = numeric.map((_, i) => sample.every((r) => Number.isInteger(r[i])));
  // Weighted sums of counts: points = 3 × won + drawn.
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name) || !integral[c]) continue;
    search: for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (a === c || b === c || a === b || !integral[a] || !integral[b]) continue;
        for (const k of [2, 3]) {
          if (holds((r) => r[c] === k * r[a] + r[b])) {
            add(c, [a, b], `${k} * ${numeric[a].name} + ${numeric[b].name}`, `equals ${k} × ${numeric[a].name} + ${numeric[b].name} on ${sample.length} sampled rows`);
            break search;
          }
        }
      }
    }
  }
  // A count and a part of it, named alike (half-time goals of full-time goals, deaths of all deaths): never larger.
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name) || !(integral[c] || TOTAL_NAME.test(numeric[c].originalName || numeric[c].name))) continue;
    const parts: number[] = [];
    for (let a = 0; a < n; a++) {
      if (a === c || !varies[a]) continue;
      const alike = integral[a] && integral[c] && namedAlike(numeric[a].originalName || numeric[a].name, numeric[c].originalName || numeric[c].name);
      // Under a column named a total, a part moves with it (a year or a rate below it is no part).
      const underTotal = TOTAL_NAME.test(numeric[c].originalName || numeric[c].name) && !TOTAL_NAME.test(numeric[a].originalName || numeric[a].name) && pearson(sample.map((r) => r[a]), sample.map((r) => r[c])) > 0.5;
      // Counts, one never above the other and moving with it (wins within games managed, votes within ballots cast).
      const within = integral[a] && integral[c] && pearson(sample.map((r) => r[a]), sample.map((r) => r[c])) >= 0.7;
      if (!alike && !underTotal && !within) continue;
      if (holds((r) => r[a] >= 0 && r[a] <= r[c]) && sample.some((r) => r[a] < r[c])) parts.push(a);
    }
    if (parts.length > 0) {
      const names = parts.map((a) => numeric[a].name).join(', ');
      add(c, parts, `${parts.map((a) => numeric[a].name).join(' + ')} + other parts`, `${names} never larger on ${sample.length} sampled rows, and the names say a part of it: a total of parts`);
    }
  }
  // Linear relatives: |r| ≥ 0.999 (a price in two currencies, a temperature in °C and °F).
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (!varies[a] || !varies[b] || seen.has(numeric[b].name) || seen.has(numeric[a].name)) continue;
      const r = pearson(sample.map((row) => row[a]), sample.map((row) => row[b]));
      if (Math.abs(r) >= 0.999) add(b, [a], `linear in ${numeric[a].name}`, `Pearson r = ${r.toFixed(4)} with ${numeric[a].name} on ${sample.length} sampled rows`);
    }
  }
  // A weighted sum of two, as its columns round it (deuterium excess = δ2H − 8 × δ18O): fitted by least squares, it
  // misses no sampled row by more than the rounding of the three allows.
  for (let c = 0; c < n; c++) {
    if (!varies[c] || seen.has(numeric[c].name)) continue;
    combination: for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        if (a === c || b === c || !varies[a] || !varies[b]) continue;
        const fit = planeFit(sample.map((r) => [r[a], r[b], r[c]]));
        if (!fit || Math.abs(fit.x) < 1e-6 || Math.abs(fit.y) < 1e-6) continue;
        // (Whole numbers are exact: a count is no rounded figure, and small counts would fit a plane within a unit.)
        const rounding = (i: number) => (integral[i] ? 0 : half(i));
        const slack = (r: number[]) => rounding(c) + Math.abs(fit.x) * rounding(a) + Math.abs(fit.y) * rounding(b) + 1e-9 * (1 + Math.abs(r[c]));
        if (!holds((r) => Math.abs(r[c] - (fit.x * r[a] + fit.y * r[b] + fit.k)) <= slack(r))) continue;
        const term = (k: number, name: string) => (Math.abs(k - 1) < 1e-6 ? name : `${Number(k.toPrecision(4))} * ${name}`);
        const relation = `${term(fit.x, numeric[a].name)} ${fit.y < 0 ? '-' : '+'} ${term(Math.abs(fit.y), numeric[b].name)}${Math.abs(fit.k) > half(c) ? ` ${fit.k < 0 ? '-' : '+'} ${Number(Math.abs(fit.k).toPrecision(4))}` : ''}`;
        add(c, [a, b], relation, `equals ${relation} on ${sample.length} sampled rows, as its columns round it`);
        break combination;
      }
    }
  }
  // A count of flags (`n_fields` = `Biological` + `Chemical` + … of 0/1 answers): how many of them each row sets.
  const flags = table.columns.filter((col) => col.type === 'integer' && col.distinctCount === 2 && Number(col.min) === 0 && Number(col.max) === 1 && col.nullFraction === 0).slice(0, MAX_SUM_PARTS);
  const counts = numeric.map((_, i) => i).filter((i) => varies[i] && !seen.has(numeric[i].name) && integral[i] && sample.every((r) => r[i] >= 0 && r[i] <= flags.length));
  if (flags.length >= 4 && counts.length > 0) {
    const flagged = rows(db, `SELECT ${[...numeric, ...flags].map((col) => q(col.name)).join(', ')} FROM ${q(table.name)} LIMIT ${SAMPLE_ROWS}`)
      .filter((r) => r.every((v) => typeof v === 'number'))
      .map((r) => r as number[]);
    for (const c of counts) {
      if (flagged.length < 10) break;
      const subset = smallestSum(flags.map((_, k) => n + k), (chosen) => flagged.every((r) => r[c] === chosen.reduce((t, i) => t + r[i], 0)));
      if (!subset) continue;
      const names = subset.map((i) => flags[i - n].name);
      found.push({ kind: 'derived-column', table: table.name, column: numeric[c].name, from: names, relation: names.join(' + '), source: { kind: 'rule', rule: 'derived-column:exact' }, why: `equals the number of ${names.length} yes/no columns set (${names.join(', ')}) on ${flagged.length} sampled rows` });
      seen.add(numeric[c].name);
    }
  }
  const wider = widePairs(db, table, found);
  return [...found, ...wider, ...sparsely([...found, ...wider])];
}

/** Columns a wide table's pairs are checked over: past the first dozen the full search reads, up to this many. */
const MAX_WIDE_COLUMNS = 48;
/** Scales a rate is written per (per cent, per thousand, per 100,000 people …). */
const RATE_SCALES = [1, 100, 1000, 10_000, 100_000, 1_000_000];

/**
 * Products and scaled ratios of two columns in a table too wide for the full search (a panel of 40 figures:
 * `CVD_costs_sum` = `CVD_avg_cost_case` × `CVD_N`; `CVD_mort_100k` = 100,000 × `CVD_deaths` ÷ `population`, as rounded
 * to a tenth), each checked on the sampled rows where its three columns are set, 10 of them at least. Only a column the
 * full search did not read is explained here; pairs only, so the cost stays that of a few reads of the sample.
 */
function widePairs(db: Database, table: TableProfile, already: ReadonlyArray<{ column: string }>): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount > 2 && c.nullFraction < 0.5 && !/(^id$|_id$|id$)/i.test(c.name));
  if (numeric.length <= MAX_NUMERIC_COLUMNS || table.rowCount < 10) return [];
  const columns = numeric.slice(0, MAX_WIDE_COLUMNS);
  const sample = rows(db, `SELECT ${columns.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} LIMIT ${SAMPLE_ROWS}`);
  const decimals = columns.map((_, i) => Math.min(6, Math.max(0, ...sample.map((r) => (typeof r[i] === 'number' ? (String(r[i]).split('.')[1] ?? '').length : 0)))));
  const read = new Set(numeric.slice(0, MAX_NUMERIC_COLUMNS).map((c) => c.name));
  const taken = new Set(already.map((r) => r.column));
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  // Every row where the three are set agrees, and there are 10 such rows; the target varies among them.
  const holds = (c: number, a: number, b: number, f: (x: number, y: number) => number, tolerance: (exact: number) => number) => {
    let checked = 0;
    let first: number | undefined;
    let varies = false;
    for (const r of sample) {
      const [z, x, y] = [r[c], r[a], r[b]];
      if (typeof z !== 'number' || typeof x !== 'number' || typeof y !== 'number') continue;
      const exact = f(x, y);
      if (!Number.isFinite(exact) || Math.abs(z - exact) > tolerance(exact)) return false;
      checked++;
      if (first === undefined) first = z;
      else if (z !== first) varies = true;
    }
    return checked >= 10 && varies;
  };
  // A figure stored rounded to its decimals is within half its last place of the exact ratio; one with no decimals exactly so.
  // (…and within a thousandth of it beside: an office's rates per 100,000 are computed from populations it revised since.)
  const rounded = (c: number) => (exact: number) => (decimals[c] >= 1 ? 0.5 * 10 ** -decimals[c] : 0.005) + 1e-3 * Math.abs(exact);
  // Products first (a sum of costs is the average cost times the cases), then ratios of what no product explains
  // already (the cases are not the sum over the average: that is the product read backwards).
  const explained = (c: number, a: number, b: number) => found.some((r) => (r.column === columns[a].name || r.column === columns[b].name) && r.from.includes(columns[c].name));
  for (let c = 0; c < columns.length; c++) {
    if (read.has(columns[c].name) || taken.has(columns[c].name)) continue;
    search: for (let a = 0; a < columns.length; a++) {
      for (let b = a + 1; b < columns.length; b++) {
        if (a === c || b === c) continue;
        if (holds(c, a, b, (x, y) => x * y, (exact) => 0.005 + 1e-3 * Math.abs(exact))) {
          const [na, nb] = [columns[a].name, columns[b].name];
          found.push({ kind: 'derived-column', table: table.name, column: columns[c].name, from: [na, nb], relation: `${na} * ${nb}`, source: { kind: 'rule', rule: 'derived-column:exact' }, why: `equals ${na} × ${nb} on the sampled rows where the three are set` });
          break search;
        }
      }
    }
  }
  // (A rate per 100,000 is looked for among the first dozen too: the full search tries per cent only.)
  for (let c = 0; c < columns.length; c++) {
    if (taken.has(columns[c].name) || found.some((r) => r.column === columns[c].name)) continue;
    search: for (let a = 0; a < columns.length; a++) {
      for (let b = 0; b < columns.length; b++) {
        if (a === c || b === c || a === b || explained(c, a, b)) continue;
        const [na, nb] = [columns[a].name, columns[b].name];
        // (A rate per thousand or more is written with decimals: a whole number, a population, is what it is divided by.)
        const scale = RATE_SCALES.filter((k) => (!read.has(columns[c].name) || k >= 1000) && (k < 1000 || decimals[c] >= 1)).find((k) => holds(c, a, b, (x, y) => (y === 0 ? NaN : (k * x) / y), rounded(c)));
        if (scale !== undefined) {
          const relation = scale === 1 ? `${na} / ${nb}` : `${scale} * ${na} / ${nb}`;
          found.push({ kind: 'derived-column', table: table.name, column: columns[c].name, from: [na, nb], relation, source: { kind: 'rule', rule: 'derived-column:exact' }, why: `equals ${scale === 1 ? '' : `${scale.toLocaleString('en-US')} × `}${na} ÷ ${nb}${decimals[c] >= 1 ? `, as rounded to ${decimals[c]} decimal${decimals[c] === 1 ? '' : 's'},` : ''} on the sampled rows where the three are set` });
          break search;
        }
      }
    }
  }
  return found;
}

/**
 * A wide table whose columns are filled for some rows only (a potato's yields on the potato rows, a wheat's on the
 * wheat rows) has too few rows with every column: each sum, product or ratio is checked on the rows where its own
 * columns are all filled, 10 of them at least.
 */
function sparseComputedColumns(table: TableProfile, numeric: readonly ColumnProfile[], sampled: SqlValue[][]): Array<Extract<Relationship, { kind: 'derived-column' }>> {
  const n = numeric.length;
  const found: Array<Extract<Relationship, { kind: 'derived-column' }>> = [];
  const seen = new Set<string>();
  const rowsFilled = new Map<string, number[][]>();
  const holds = (columns: number[], f: (r: number[]) => boolean) => {
    const key = columns.join(',');
    const filled = rowsFilled.get(key) ?? (sampled.filter((r) => columns.every((i) => typeof r[i] === 'number')) as number[][]);
    rowsFilled.set(key, filled);
    return filled.length >= 10 && columns.every((i) => filled.some((r) => r[i] !== filled[0][i])) && filled.every(f);
  };
  // (Whole numbers spread over ten or more: a percentage written without decimals, not a small count or a flag.)
  const wholePercent = (c: number) => {
    const values = sampled.map((r) => r[c]).filter((v): v is number => typeof v === 'number');
    return values.length > 0 && values.every((v) => Number.isInteger(v)) && Math.max(...values) - Math.min(...values) >= 10;
  };
  const add = (target: number, from: number[], relation: string) => {
    if (seen.has(numeric[target].name)) return;
    seen.add(numeric[target].name);
    found.push({ kind: 'derived-column', table: table.name, column: numeric[target].name, from: from.map((i) => numeric[i].name), relation, source: { kind: 'rule', rule: 'derived-column:exact' }, why: `equals ${relation} on every sampled row where they are all filled` });
  };
  for (let c = 0; c < n; c++) {
    for (let a = 0; a < n && !seen.has(numeric[c].name); a++) {
      for (let b = a + 1; b < n && !seen.has(numeric[c].name); b++) {
        if (a === c || b === c) continue;
        const [na, nb] = [numeric[a].name, numeric[b].name];
        if (holds([c, a, b], (r) => close(r[c], r[a] + r[b]))) add(c, [a, b], `${na} + ${nb}`);
        else if (holds([c, a, b], (r) => close(r[c], r[a] * r[b]))) add(c, [a, b], `${na} * ${nb}`);
        // A quantity times its percentage (a yield × its % of dry matter).
        else if (holds([c, a, b], (r) => close(r[c], (r[a] * r[b]) / 100))) add(c, [a, b], `${na} * ${nb} / 100`);
        else if (holds([c, a, b], (r) => r[b] !== 0 && close(r[c], r[a] / r[b]))) add(c, [a, b], `${na} / ${nb}`);
        else if (holds([c, a, b], (r) => r[a] !== 0 && close(r[c], r[b] / r[a]))) add(c, [a, b], `${nb} / ${na}`);
        // A percentage of another column written as a whole number (-10 for 100 × -41 ÷ 375), rounded or cut short.
        else if (wholePercent(c) && holds([c, a, b], (r) => r[b] !== 0 && Math.abs(r[c] - (100 * r[a]) / r[b]) < 1)) add(c, [a, b], `100 * ${na} / ${nb}`);
        else if (wholePercent(c) && holds([c, a, b], (r) => r[a] !== 0 && Math.abs(r[c] - (100 * r[b]) / r[a]) < 1)) add(c, [a, b], `100 * ${nb} / ${na}`);
        else {
          for (let d = b + 1; d < n; d++) {
            if (d === c) continue;
            if (holds([c, a, b, d], (r) => close(r[c], r[a] + r[b] + r[d]))) {
              add(c, [a, b, d], `${na} + ${nb} + ${numeric[d].name}`);
              break;
            }
          }
        }
      }
    }
  }
  return found;
}

/** The plane z = x·a + y·b + k through points [a, b, z] by least squares; undefined where a and b are (nearly) collinear. */
function planeFit(points: ReadonlyArray<readonly [number, number, number]>): { x: number; y: number; k: number } | undefined {
  const m = points.length;
  const mean = (i: 0 | 1 | 2) => points.reduce((t, p) => t + p[i], 0) / m;
  const [ma, mb, mz] = [mean(0), mean(1), mean(2)];
  let saa = 0, sbb = 0, sab = 0, saz = 0, sbz = 0;
  for (const [a, b, z] of points) {
    saa += (a - ma) ** 2;
    sbb += (b - mb) ** 2;
    sab += (a - ma) * (b - mb);
    saz += (a - ma) * (z - mz);
    sbz += (b - mb) * (z - mz);
  }
  const det = saa * sbb - sab * sab;
  if (!(det > 1e-9 * saa * sbb) || saa === 0 || sbb === 0) return undefined;
  const x = (saz * sbb - sbz * sab) / det;
  const y = (sbz * saa - saz * sab) / det;
  return { x, y, k: mz - x * ma - y * mb };
}

type DerivedColumn = Extract<Relationship, { kind: 'derived-column' }>;

/** Columns that can hold a table's groups: dated or written values repeated over 5 rows or more on average. */
function groupColumns(table: TableProfile): ColumnProfile[] {
  const rank = (c: ColumnProfile) => (c.type === 'date' || c.type === 'datetime' ? 0 : 1);
  return table.columns
    .filter((c) => (c.type === 'text' || c.type === 'date' || c.type === 'datetime') && c.nullFraction < 0.1 && c.distinctCount >= 3 && c.distinctCount <= table.rowCount / 5)
    .sort((a, b) => rank(a) - rank(b) || a.distinctCount - b.distinctCount)
    .slice(0, 3);
}

/**
 * Columns computed from another by a factor that changes from group to group: an index against a base price of the
 * day (`USD_raw` = `dollar_price` / the US price of that date − 1), a value in another currency at each date's rate.
 * Within every group of 5 rows or more (at least 3 such groups) the two are linear (|r| ≥ 0.999), though not across
 * groups: one is the other rescaled, so relating them says nothing.
 */
function groupwiseLinearColumns(db: Database, table: TableProfile, already: readonly DerivedColumn[]): DerivedColumn[] {
  const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount > 5 && c.nullFraction < 0.5 && !/(^id$|_id$|id$)/i.test(c.name)).slice(0, MAX_NUMERIC_COLUMNS);
  if (numeric.length < 2 || table.rowCount < 30) return [];
  const linked = new Set(already.flatMap((r) => r.from.map((f) => [f, r.column].sort().join('\u0000'))));
  const found: DerivedColumn[] = [];
  for (const group of groupColumns(table)) {
    const sample = rows(db, `SELECT ${q(group.name)}, ${numeric.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} WHERE ${q(group.name)} IS NOT NULL LIMIT ${SAMPLE_ROWS}`);
    const groups = new Map<string, SqlValue[][]>();
    for (const r of sample) groups.set(String(r[0]), [...(groups.get(String(r[0])) ?? []), r.slice(1)]);
    for (let a = 0; a < numeric.length; a++) {
      for (let b = a + 1; b < numeric.length; b++) {
        const key = [numeric[a].name, numeric[b].name].sort().join('\u0000');
        if (linked.has(key)) continue;
        let tested = 0;
        let linear = true;
        const xs: number[] = [];
        const ys: number[] = [];
        for (const members of groups.values()) {
          const pairs = members.filter((r) => typeof r[a] === 'number' && typeof r[b] === 'number') as number[][];
          for (const p of pairs) {
            xs.push(p[a]);
            ys.push(p[b]);
          }
          if (pairs.length < 5 || new Set(pairs.map((p) => p[a])).size < 3) continue;
          tested++;
          if (Math.abs(pearson(pairs.map((p) => p[a]), pairs.map((p) => p[b]))) < 0.999) {
            linear = false;
            break;
          }
        }
        if (!linear || tested < 3 || Math.abs(pearson(xs, ys)) >= 0.999) continue;
        linked.add(key);
        found.push({ kind: 'derived-column', table: table.name, column: numeric[b].name, from: [numeric[a].name], relation: `linear in ${numeric[a].name} within each ${group.name}`, source: { kind: 'rule', rule: 'derived-column:groupwise-linear' }, why: `|r| ≥ 0.999 with ${numeric[a].name} within each of ${tested} ${group.name} groups: the other rescaled by a factor of its ${group.name}` });
      }
    }
  }
  return found;
}

/**
 * Running totals: a count that never falls from one date to the next within each entity (cumulative deaths per
 * country, cases to date) and rises on a good share of them. It moves with time, so it correlates with every other
 * running total, and its increments (a column equal to its day-on-day difference) are parts of it. Recorded as
 * derived from the date (and from the increments found).
 */
function runningTotals(db: Database, table: TableProfile): DerivedColumn[] {
  // Like levels.ts's test of the same tables, every series is sorted: tables over MAX_SERIES_ROWS are not scanned.
  // Dates, or text that sorts as time (`2020-W11`, `2021-03`).
  const sortsAsTime = (c: ColumnProfile) => c.type === 'date' || c.type === 'datetime' || (c.type === 'text' && c.samples.length > 0 && c.samples.every((v) => /^\d{4}-(W?\d{2})(-\d{2})?$/.test(String(v))));
  const times = table.columns.filter((c) => sortsAsTime(c) && c.nullFraction === 0 && c.distinctCount >= 10);
  // A year or a period number rises with the date by nature, not as a total.
  const numeric = table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && c.distinctCount >= 10 && c.nullFraction < 0.2 && !/(^id$|_id$|id$)/i.test(c.name) && !nameTokens(c.originalName || c.name).some((t) => TIME_WORDS.has(t))).slice(0, MAX_NUMERIC_COLUMNS);
  if (times.length === 0 || numeric.length === 0 || table.rowCount > MAX_SERIES_ROWS) return [];
  const found: DerivedColumn[] = [];
  for (const time of times.slice(0, 1)) {
    // The entity each series runs over: none when dates are unique, else the written columns that make (entity, date) unique.
    const candidates = table.columns.filter((c) => c !== time && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= table.rowCount / 5);
    const unique = (cols: ColumnProfile[]) => {
      const key = [...cols.map((c) => q(c.name)), q(time.name)].join(', ');
      return Number(rows(db, `SELECT COUNT(*) FROM (SELECT DISTINCT ${key} FROM ${q(table.name)})`)[0]?.[0] ?? -1) === table.rowCount;
    };
    const entity = unique([]) ? [] : candidates.length > 0 && candidates.length <= 4 && unique(candidates) ? candidates : undefined;
    if (!entity) continue;
    const partition = entity.length > 0 ? `PARTITION BY ${entity.map((c) => q(c.name)).join(', ')} ` : '';
    for (const c of numeric) {
      const steps = rows(db, `SELECT COUNT(*), SUM(CASE WHEN v < p THEN 1 ELSE 0 END), SUM(CASE WHEN v > p THEN 1 ELSE 0 END) FROM (SELECT ${q(c.name)} AS v, LAG(${q(c.name)}) OVER (${partition}ORDER BY ${q(time.name)}) AS p FROM ${q(table.name)}) WHERE v IS NOT NULL AND p IS NOT NULL`)[0];
      const [n, falls, rises] = (steps ?? []).map((v) => Number(v ?? 0));
      // The one test of a running total (levels.ts, which also makes it semi-additive): a few falls are corrections.
      if (!isRunningTotal({ steps: n, increases: rises, decreases: falls, entities: [], time: [] })) continue;
      const increments = numeric.filter((a) => {
        if (a === c) return false;
        const r = rows(db, `SELECT COUNT(*), SUM(CASE WHEN ABS((v - p) - d) <= 0.5 THEN 1 ELSE 0 END) FROM (SELECT ${q(c.name)} AS v, LAG(${q(c.name)}) OVER (${partition}ORDER BY ${q(time.name)}) AS p, ${q(a.name)} AS d FROM ${q(table.name)}) WHERE v IS NOT NULL AND p IS NOT NULL AND d IS NOT NULL`)[0];
        return Number(r?.[0] ?? 0) >= 10 && Number(r?.[1] ?? 0) >= 0.9 * Number(r?.[0] ?? 0);
      });
      const over = entity.length > 0 ? ` within each ${entity.map((e) => e.name).join(', ')}` : '';
      found.push({ kind: 'derived-column', table: table.name, column: c.name, from: [time.name, ...increments.map((a) => a.name)], relation: `running total over ${time.name}${over}${increments.length > 0 ? ` of ${increments.map((a) => a.name).join(', ')}` : ''}`, source: { kind: 'rule', rule: 'derived-column:running-total' }, why: `never falls (${falls} corrections aside) from one ${time.name} to the next${over} and rises on ${rises} of ${n} steps${increments.length > 0 ? `; ${increments.map((a) => a.name).join(', ')} is its step-to-step difference` : ''}` });
    }
  }
  return found;
}

/** A name that says it is a total (`Total`, `totale_ospedalizzati`, `todesfaelle_gesamt`, `total_receipts`). */
const TOTAL_NAME = /(^|[^a-z])(total[e]?|gesamt|overall|sum)([^a-z]|$)/i;

/** The most columns a sum of parts is searched among: 2^16 subsets, each dropped at the first sampled row it misses. */
const MAX_SUM_PARTS = 16;

/** The first subset of 4 or more of `parts`, fewest first, for which `sums` holds; undefined if none does. */
function smallestSum(parts: readonly number[], sums: (chosen: number[]) => boolean, fewest = 4): number[] | undefined {
  const ones = (mask: number) => {
    let n = 0;
    for (let m = mask; m > 0; m &= m - 1) n++;
    return n;
  };
  for (let size = fewest; size <= parts.length; size++) {
    for (let mask = 1; mask < 1 << parts.length; mask++) {
      if (ones(mask) !== size) continue;
      const chosen = parts.filter((_, k) => mask & (1 << k));
      if (sums(chosen)) return chosen;
    }
  }
  return undefined;
}

/**
 * A part's name and its whole's: the whole's name is the part's and more (`todesfaelle`, `todesfaelle_gesamt`), or
 * codes of one length that differ only in their first letter (`HTHG`, `FTHG`: half- and full-time home goals).
 */
function namedAlike(part: string, whole: string): boolean {
  const code = /^[A-Za-z]{3,6}$/;
  if (code.test(part) && code.test(whole) && part.length === whole.length && part.slice(1).toLowerCase() === whole.slice(1).toLowerCase() && part[0].toLowerCase() !== whole[0].toLowerCase()) return true;
  const words = (s: string) => s.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter((w) => w !== '');
  const wp = words(part);
  const ww = new Set(words(whole));
  // The whole is the part's name and more (`todesfaelle`, `todesfaelle_gesamt`); a code is no quantity.
  return wp.length > 0 && wp.length < ww.size && wp.every((w) => ww.has(w)) && !/(^|_)(code|id|key|no|nr|num)$/i.test(whole);
}

/** Pearson's r of two lists of numbers (0 where either is constant). */
export function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** Every relationship of the environment. */
export function inferRelationships(db: Database, profile: EnvironmentProfile, partitions: readonly Partition[] = []): Relationship[] {
  const declared = declaredForeignKeys(profile);
  const partitionViews = new Set(partitions.map((p) => p.view).filter((v): v is string => Boolean(v)));
  const found = inclusionDependencies(db, profile, declared, partitionViews);
  const keys = [...declared, ...found, ...siblingKeys(db, profile, found)];
  const parallel = [...oneToOne(db, profile, keys), ...compositeOneToOne(db, profile)];
  const pairKey = (a: string, b: string) => [a, b].sort().join('\u0000');
  const parallelPairs = new Set(parallel.map((p) => pairKey(p.left.table, p.right.table)));
  const derived = [...derivedTables(profile), ...copiedTables(db, profile, parallel)];
  const computed = profile.tables.flatMap((t) => (t.viewSql ? viewComputedColumns(t) : computedColumns(db, t)));
  // Found by looser tests, listed before the exact ones: a column's description keeps its exact relation.
  const trends = profile.tables.filter((t) => !t.viewSql).flatMap((t) => [...groupwiseLinearColumns(db, t, computed.filter((r) => r.table === t.name)), ...runningTotals(db, t), ...seasonallyAdjusted(t), ...ofWhichParts(t)]);
  // A key between parallel tables is not a parent and a child, nor one between two files of a partition, which are
  // one dataset. A number that runs with a time column within each group (the 1st to 11th year of each projection)
  // is a position in time, which no table is keyed by: nor is the column of that name elsewhere.
  const samePartition = (a: string, b: string) => partitions.some((p) => p.tables.some((t) => t.table === a) && p.tables.some((t) => t.table === b));
  // (The partition's union view holds its files' rows: a quantity of one file, `seattle_population` repeated in every
  // file, is found there without pointing anywhere.)
  const viewOfItsFile = (k: (typeof keys)[number]) => quantityOrTime(k.child.column) && partitions.some((p) => p.view === k.child.table && p.tables.some((t) => t.table === k.parent.table));
  const positions = new Set(trends.filter((r) => r.kind === 'derived-column' && r.source.kind === 'rule' && r.source.rule === 'derived-column:groupwise-linear' && r.from.some((f) => nameTokens(f).some((t) => TIME_WORDS.has(t)))).map((r) => (r.kind === 'derived-column' ? r.column : '')));
  // Two tables that number their rows (`key_id` 1…40 in one, 1…900 in another) hold one sequence inside the other by
  // counting, not by reference: row numbers of tables of different lengths join nothing.
  const rowSequence = (table: string, column: string) => {
    const t = profile.tables.find((x) => x.name === table);
    const c = t?.columns.find((x) => x.name === column);
    return t !== undefined && c !== undefined && c.candidateKey && c.type === 'integer' && (Number(c.min) === 0 || Number(c.min) === 1) && Number(c.max) - Number(c.min) + 1 === t.rowCount;
  };
  const rowNumbers = (k: (typeof keys)[number]) => rowSequence(k.child.table, k.child.column) && rowSequence(k.parent.table, k.parent.column) && profile.tables.find((t) => t.name === k.child.table)?.rowCount !== profile.tables.find((t) => t.name === k.parent.table)?.rowCount;
  // A label the child repeats from its parent (`last_name_label` of each judge, beside the judge's `iuropa_judge_id`)
  // holds the parent's values but is no key: where a key named as one links the same two tables, it is the link.
  const keyNamed = (column: string) => nameTokens(column).some((t) => IDENTIFIER_WORDS.has(t) || CODE_WORDS.has(t));
  const copiedLabel = (k: (typeof keys)[number]) => k.source.kind !== 'schema' && !keyNamed(k.child.column) && profile.tables.find((t) => t.name === k.child.table)?.columns.find((c) => c.name === k.child.column)?.type === 'text' && keys.some((o) => o !== k && o.child.table === k.child.table && o.parent.table === k.parent.table && keyNamed(o.child.column));
  // Two editions of one table (a workbook's sheet per survey year: `2018` and `2012`, one row per country's `code` in
  // each, most other columns named alike) hold the same kind of record: a key of both is the same key, no reference
  // from one edition to the other, whichever countries each year happened to cover.
  const editions = (k: (typeof keys)[number]) => {
    const child = profile.tables.find((t) => t.name === k.child.table);
    const parent = profile.tables.find((t) => t.name === k.parent.table);
    if (!child || !parent || k.child.column.toLowerCase() !== k.parent.column.toLowerCase()) return false;
    if (!child.columns.find((c) => c.name === k.child.column)?.candidateKey || !parent.columns.find((c) => c.name === k.parent.column)?.candidateKey) return false;
    return columnsInCommon(child, parent, [k.child.column, k.parent.column]) >= 0.3;
  };
  const foreignKeys = keys.filter((k) => k.source.kind === 'schema' || (!parallelPairs.has(pairKey(k.child.table, k.parent.table)) && !samePartition(k.child.table, k.parent.table) && !viewOfItsFile(k) && !(positions.has(k.child.column) && k.child.column === k.parent.column) && !rowNumbers(k) && !copiedLabel(k) && !editions(k)));
  return [...foreignKeys, ...parallel, ...derived, ...trends, ...computed];
}

/** Where a view column comes from: a base column copied (`cu.store_id AS SID`) or aggregated (`SUM(p.amount) AS total`). */
export interface ColumnLineage {
  table: string;
  column: string;
  aggregate?: 'sum' | 'avg' | 'min' | 'max' | 'count';
}

/** The select-list items of a view's top-level SELECT, split at top-level commas. */
function selectItems(select: string): string[] | undefined {
  const body = /^\s*SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(select)?.[1];
  if (!body) return undefined;
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      items.push(body.slice(start, i));
      start = i + 1;
    }
  }
  items.push(body.slice(start));
  return items.map((item) => item.trim());
}

/** Table aliases of a SELECT: `FROM customer AS cu JOIN address a` → cu → customer, a → address. */
function aliasesOf(select: string, profile: EnvironmentProfile): Map<string, string> {
  const aliases = new Map<string, string>();
  const pattern = /\b(?:FROM|JOIN)\s+("?)([A-Za-z_][\w$]*)\1(?:\s+(?:AS\s+)?([A-Za-z_][\w$]*))?/gi;
  for (let m = pattern.exec(select); m; m = pattern.exec(select)) {
    const table = profile.tables.find((t) => t.name.toLowerCase() === m![2].toLowerCase() || t.originalName.toLowerCase() === m![2].toLowerCase());
    if (!table) continue;
    aliases.set(table.name.toLowerCase(), table.name);
    const alias = m[3];
    if (alias && !/^(ON|USING|WHERE|JOIN|LEFT|RIGHT|INNER|OUTER|CROSS|GROUP|ORDER|LIMIT|NATURAL)$/i.test(alias)) aliases.set(alias.toLowerCase(), table.name);
  }
  return aliases;
}

/** The lineage of each column of a view whose SELECT copies or aggregates one base column per item. */
export function viewLineage(view: TableProfile, profile: EnvironmentProfile): Map<string, ColumnLineage> {
  const lineage = new Map<string, ColumnLineage>();
  if (!view.viewSql) return lineage;
  const items = selectItems(view.viewSql);
  if (!items) return lineage;
  const aliases = aliasesOf(view.viewSql, profile);
  const single = aliases.size > 0 ? [...new Set(aliases.values())] : [];
  items.forEach((item, index) => {
    const m = /^(?:(SUM|AVG|MIN|MAX|COUNT)\s*\(\s*(?:DISTINCT\s+)?)?(?:("?)([A-Za-z_][\w$]*)\2\s*\.\s*)?("?)([A-Za-z_][\w$]*)\4\s*\)?\s*(?:AS\s+)?(?:"([^"]+)"|([A-Za-z_][\w$]*))?$/i.exec(item);
    if (!m) return;
    const aggregate = m[1]?.toLowerCase() as ColumnLineage['aggregate'];
    const qualifier = m[3]?.toLowerCase();
    const column = m[5];
    const name = m[6] ?? m[7] ?? column;
    const viewColumn = view.columns.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? view.columns[index];
    if (!viewColumn) return;
    const candidates = qualifier ? [aliases.get(qualifier)].filter((t): t is string => t !== undefined) : single;
    const table = candidates.map((t) => profile.tables.find((x) => x.name === t)!).find((t) => t.columns.some((c) => c.name.toLowerCase() === column.toLowerCase()));
    if (!table) return;
    const base = table.columns.find((c) => c.name.toLowerCase() === column.toLowerCase())!;
    lineage.set(viewColumn.name, aggregate ? { table: table.name, column: base.name, aggregate } : { table: table.name, column: base.name });
  });
  return lineage;
}
