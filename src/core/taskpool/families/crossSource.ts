/**
 * Cross-source reconciliation: the same entities recorded twice — a stated total and the lines it sums (an order's
 * total and its order items; a stock level and its stock movements), or the same rows in two files (the same days,
 * the same countries and years) — matched, their mismatches found, then quantified.
 *
 *   stated totals (a parent column its child rows add up to, over one key or a composite key):
 *     1. entities whose stated value differs from their rows     → a count
 *     2. the total absolute difference                           → a number
 *     3. the group (a parent's row, a dimension) with the most   → a clear leader
 *     4. the entity inside it that differs most                  → a clear leader: the answer
 *   two sources of the same entities (a shared key, a measure of the same name, most values equal):
 *     1. entities found in both                                  → a count
 *     2. those whose measure differs                             → a count
 *     3. the total absolute difference                           → a number
 *     4. the key value (or year) with the largest difference     → a clear leader: the answer (else step 3 is)
 *
 * The pairs come from the semantic profile: its foreign keys (stated totals), keys two tables share by name with a
 * measure of the same name, and never a partition's member files (their union view stands for them).
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { words } from '../../text/words';
import { addEdge, columnNode } from '../graph';
import type { TaskSpec } from '../types';
import { compositeKeys, statedTotals, type StatedTotal } from './quality';
import { clearLeader, groupingsOf, inLocalCurrency, groupNoun, humanize, keyGroupings, labelHint, noun, num, q, query, rowName, semanticsOf, sourceOf, sqlLiteral, taskTables, TaskProgram, type FamilyContext, type Grouping, type TaskFamily } from './kit';

const COMPOSITION = 'reconciliation';
const FAMILY = 'cross-source';
/** Fewer matched entities than this make no reconciliation worth quantifying. */
const MIN_MATCHED = 10;
/** Two sources hold the same entities when at least this share of the matched values agree. */
const MIN_AGREEMENT = 0.5;

export const crossSourceFamily: TaskFamily = {
  id: FAMILY,
  description: 'The same entities in two places (a stated total and its lines, or the same rows in two files): the mismatches found, counted, summed, and the entity or group with the largest discrepancy.',
  needs: 'a parent total its child rows add up to for most parents, or two tables sharing a key and a measure whose values mostly agree',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    const add = (task: TaskSpec | undefined) => {
      if (task && tasks.length < context.maxPerFamily && !tasks.some((t) => t.id === task.id)) tasks.push(task);
    };
    for (const stated of await statedTotals(context)) add(await statedTotalTask(context, stated));
    for (const stated of await compositeTotals(context)) add(await compositeTotalTask(context, stated));
    // One task per pair of tables before a second: five pairs of one release's files say more than one pair five times.
    // The same mismatches found again through another pair (every copy of a file disagrees with the source in the
    // same two rows) are one finding.
    const findings = new Set<string>();
    const pairs = await sourcePairs(context);
    for (const pair of roundRobin(pairs.disagreeing, (p) => [p.a.name, p.b.name].sort().join('|'))) {
      if (tasks.length >= context.maxPerFamily) break;
      const task = await sourcePairTask(context, pair);
      const finding = task && `${pair.measure.a.name}:${JSON.stringify(task.evidence[1]?.subAnswer?.key)}:${JSON.stringify(task.evidence[2]?.subAnswer?.key)}`;
      if (!task || !finding || findings.has(finding)) continue;
      findings.add(finding);
      add(task);
    }
    for (const pair of pairs.same) {
      if (tasks.length >= context.maxPerFamily) break;
      add(await coverageTask(context, pair));
    }
    return tasks;
  },
};

/** Items in turns by group: each group's first, then each group's second, … (groups in order of first appearance). */
function roundRobin<T>(items: T[], groupOf: (item: T) => string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(groupOf(item), [...(groups.get(groupOf(item)) ?? []), item]);
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i++) for (const list of groups.values()) if (i < list.length) out.push(list[i]);
  return out;
}

// ---- words ------------------------------------------------------------------------------------------------------

/**
 * How a question names a table: in words, as the look-alike naming rule reads names ("the big mac source data
 * table"), or quoted where the words carry a number or repeat one (`worldcup_standings_2_standings`).
 */
export function sourceName(table: TableProfile): string {
  const named = words(table.name);
  return /\d/.test(named) || /\b(\w+) \1\b/.test(named) ? `the "${table.name}" table` : `the ${named} table`;
}

/** A parent's own column named with its table where the name alone is generic: "status" → "order status". */
function qualifiedName(name: string, table: TableProfile, context: FamilyContext): string {
  // A table named after its dataset gives no noun to qualify with.
  if (!rowName(context, table)) return name;
  const one = noun(table.name, 'one');
  return name.includes(one) ? name : `${one} ${name}`;
}

/** A key part in words: an identifier named without "id" or "code" reads as a code ("iso a3 code"). */
function keyPartWords(context: FamilyContext, table: TableProfile, column: ColumnProfile): string {
  const name = humanize(column.originalName || column.name);
  return semanticsOf(context, table.name, column.name)?.role.value === 'identifier' && !/\b(id|code|key|number)$/i.test(name) ? `${name} code` : name;
}

const isInteger = (c: ColumnProfile) => c.type === 'integer';
/** Differences below this are rounding: 0.01 for amounts, a millionth for small ratios; none for integers. */
function toleranceFor(...columns: ColumnProfile[]): number {
  if (columns.every(isInteger)) return 0;
  const magnitude = Math.max(...columns.map((c) => Math.max(Math.abs(num(c.min ?? 0)), Math.abs(num(c.max ?? 0)))));
  return magnitude >= 1 ? 0.01 : 0.000001;
}
const differs = (a: string, b: string, tolerance: number) => (tolerance === 0 ? `${a} <> ${b}` : `ABS(${a} - ${b}) > ${tolerance}`);
const byMore = (tolerance: number) => (tolerance === 0 ? 'differ' : `differ by more than ${tolerance}`);

function reconciliationEdge(context: FamilyContext, from: { table: string; column: string }, to: { table: string; column: string }, note: string): void {
  if (context.graph) addEdge(context.graph, { from: columnNode(from.table, from.column), to: columnNode(to.table, to.column), kind: 'reconciliation', note });
}

// ---- stated totals over one key ---------------------------------------------------------------------------------

/** Groupings of a parent's rows: a grandparent's rows across a key (each store), then its dimensions and its parents'. */
function parentGroupings(context: FamilyContext, parent: TableProfile): Grouping[] {
  const byKey = keyGroupings(context, parent, { min: 2, max: 50 });
  const renames = (g: Grouping) => g.via !== undefined && byKey.some((k) => k.via.parent.name === g.via!.parent.name) && g.column.distinctCount >= g.via.parent.rowCount;
  return [...byKey, ...groupingsOf(context, parent, { min: 2, max: 50 }).filter((g) => !renames(g))];
}

async function statedTotalTask(context: FamilyContext, stated: StatedTotal): Promise<TaskSpec | undefined> {
  const { key, column, expression } = stated;
  const parent = key.parent;
  const pk = q(key.parentColumn.name);
  const tolerance = 0.01;
  // One row per parent: what it states and what its child rows add up to.
  // `o` for the parent inside the CTE: the outer query's `p` is the grouping's parent (a store), another table.
  const per = `WITH per AS (SELECT o.${pk} AS entity, o.${q(column.name)} AS stated, ${expression.sql} AS computed FROM ${q(parent.name)} AS o JOIN ${q(key.child.name)} AS c ON c.${q(key.childColumn.name)} = o.${pk} WHERE o.${q(column.name)} IS NOT NULL GROUP BY o.${pk})`;
  const mismatch = differs('per.stated', 'per.computed', tolerance);
  // Tables whose rows have no noun (`dpc_covid19_dati_pagamenti_…`) are named as tables, not turned into nouns.
  const parentNamed = rowName(context, parent) !== undefined;
  const parentOne = parentNamed ? noun(parent.name, 'one') : 'row';
  const parents = parentNamed ? noun(parent.name, 'many') : `rows of the table '${parent.name}'`;
  const children = rowName(context, key.child) ? noun(key.child.name, 'many') : `rows in the table '${key.child.name}'`;
  const stating = humanize(column.originalName || column.name);
  for (const group of parentGroupings(context, parent)) {
    let source: { from: string; tables: string[] };
    try {
      source = sourceOf(parent, group);
    } catch {
      continue;
    }
    const program = new TaskProgram(context, COMPOSITION);
    const first = await program.sql(`${per} SELECT COUNT(*) AS mismatched FROM per WHERE ${mismatch}`, `${parents} whose ${stating} differs from ${expression.label} of their ${children} by more than ${tolerance}`, {
      label: `the number of ${parents} whose ${stating} disagrees with their ${children}`,
      reading: { kind: 'number' },
    });
    if (!first || first.key.type !== 'number' || first.key.value < 2 || first.key.value >= stated.total) return undefined;
    const second = await program.sql(`${per} SELECT ROUND(SUM(ABS(per.stated - per.computed)), 2) AS total_difference FROM per WHERE ${mismatch}`, `the total absolute difference over those ${parents}`, {
      label: `the total absolute difference between the ${stating} and the ${children} over the ${parents} that disagree`,
      reading: { kind: 'number', decimals: 2 },
      uses: [0],
    });
    if (!second || second.key.type !== 'number' || second.key.value <= 0) return undefined;
    const groupWord = group.via ? groupNoun(group, context) : qualifiedName(groupNoun(group, context), parent, context);
    const joined = `${per} SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(SUM(ABS(per.stated - per.computed)), 2) AS total_difference, COUNT(*) AS n FROM ${source.from} JOIN per ON per.entity = c.${pk} WHERE ${mismatch} AND ${group.ref} IS NOT NULL`;
    const third = await program.sql(`${joined} GROUP BY ${group.ref} ORDER BY SUM(ABS(per.stated - per.computed)) DESC, 1`, `the total absolute difference per ${groupWord}, largest first`, {
      label: `the ${groupWord} with the largest total absolute difference`,
      reading: { kind: 'string' },
      uses: [1],
    });
    if (!third || !clearLeader(third.rows)) continue;
    const top = third.rows[0][0] as string | number;
    const fourth = await program.sql(
      `${per} SELECT per.entity AS ${pk}, ROUND(ABS(per.stated - per.computed), 2) AS difference FROM ${source.from} JOIN per ON per.entity = c.${pk} WHERE ${mismatch} AND ${group.ref} = ${sqlLiteral(top)} ORDER BY ABS(per.stated - per.computed) DESC, 1`,
      `the ${parents} of the ${groupWord} ${top} that disagree, largest difference first`,
      { label: `the ${parentOne} of the ${groupWord} ${top} whose ${stating} differs most from its ${children}`, reading: { kind: 'string' }, uses: [2], carries: [String(top)] },
    );
    if (!fourth || !(fourth.rows.length === 1 || clearLeader(fourth.rows))) continue;
    reconciliationEdge(context, { table: parent.name, column: column.name }, { table: key.child.name, column: key.childColumn.name }, `${parent.name}.${column.name} = ${expression.sql} over ${key.child.name}`);
    return program.task({
      family: FAMILY,
      parameters: { kind: 'stated-total', parent: parent.name, column: column.name, child: key.child.name, expression: expression.sql, group: `${group.table.name}.${group.column.name}` },
      question: parentNamed
        ? `Compare each ${parentOne}'s ${stating} with ${expression.label} over its ${children}, counting only ${parents} where the two differ by more than ${tolerance}. In the ${groupWord}${labelHint(group)} with the largest total absolute difference, which ${parentOne} differs most? Give its ${humanize(key.parentColumn.originalName || key.parentColumn.name)}.`
        : `Compare the ${stating} of each row of the table '${parent.name}' with ${expression.label} over its ${children}, counting only rows where the two differ by more than ${tolerance}. In the ${groupWord}${labelHint(group)} with the largest total absolute difference, which row differs most? Give its ${humanize(key.parentColumn.originalName || key.parentColumn.name)}.`,
      tables: [...new Set([parent.name, key.child.name, ...source.tables])],
      dependency: 'reconciliation',
      needs: crossSourceFamily.needs,
    });
  }
  return undefined;
}

// ---- stated values over a composite key ---------------------------------------------------------------------------

interface CompositeTotal {
  parent: TableProfile;
  child: TableProfile;
  columns: string[];
  stated: ColumnProfile;
  summed: ColumnProfile;
  matches: number;
  total: number;
}

/**
 * A parent keyed by two or three columns (a stock level per warehouse and product) whose measure equals, for most of
 * its rows, the sum of a child measure over the rows with the same key (the stock movements): the value is stated
 * in one place and recorded line by line in another. Keys without child rows sum to 0.
 */
async function compositeTotals(context: FamilyContext): Promise<CompositeTotal[]> {
  const found: CompositeTotal[] = [];
  for (const key of await compositeKeys(context)) {
    const isMeasure = (t: TableProfile, c: ColumnProfile) => (c.type === 'integer' || c.type === 'real') && semanticsOf(context, t.name, c.name)?.role.value === 'measure' && c.nullFraction < 0.5 && !key.columns.includes(c.name);
    let best: CompositeTotal | undefined;
    for (const stated of key.parent.columns.filter((c) => isMeasure(key.parent, c))) {
      for (const summed of key.child.columns.filter((c) => isMeasure(key.child, c) && semanticsOf(context, key.child.name, c.name)?.additivity?.value === 'additive')) {
        const rows = await query(context, `SELECT SUM(${differs('l.' + q(stated.name), 'COALESCE(m.total, 0)', toleranceFor(stated, summed))} = 0), COUNT(*) FROM ${perKey(key.parent, key.child, key.columns, summed)} WHERE l.${q(stated.name)} IS NOT NULL`);
        const matches = num(rows?.[0]?.[0] ?? 0);
        const total = num(rows?.[0]?.[1] ?? 0);
        if (total >= MIN_MATCHED && matches / total >= MIN_AGREEMENT && matches < total && (!best || matches / total > best.matches / best.total)) best = { parent: key.parent, child: key.child, columns: key.columns, stated, summed, matches, total };
      }
    }
    if (best) found.push(best);
  }
  return found;
}

/** The parent's rows (alias `l`) beside the sum of the child measure over the same key (alias `m`, column `total`). */
function perKey(parent: TableProfile, child: TableProfile, columns: string[], summed: ColumnProfile): string {
  const cols = columns.map(q).join(', ');
  return `${q(parent.name)} AS l LEFT JOIN (SELECT ${cols}, SUM(${q(summed.name)}) AS total FROM ${q(child.name)} GROUP BY ${cols}) AS m ON ${columns.map((c) => `m.${q(c)} = l.${q(c)}`).join(' AND ')}`;
}

async function compositeTotalTask(context: FamilyContext, found: CompositeTotal): Promise<TaskSpec | undefined> {
  const { parent, child, columns, stated, summed } = found;
  const tolerance = toleranceFor(stated, summed);
  const computed = 'COALESCE(m.total, 0)';
  const mismatch = differs(`l.${q(stated.name)}`, computed, tolerance);
  const from = perKey(parent, child, columns, summed);
  const parents = noun(parent.name, 'many');
  const children = noun(child.name, 'many');
  const statedWords = humanize(stated.originalName || stated.name);
  const summedWords = humanize(summed.originalName || summed.name);
  const keyWords = columns.map(humanize).join(' and ');
  // The groups are a key column's parent rows (each warehouse); the entity inside one is the other key column's value.
  const groups = keyGroupings(context, parent, { min: 2, max: 50 }).filter((g) => columns.includes(g.via.childColumn.name));
  for (const group of groups) {
    const other = columns.filter((c) => c !== group.via!.childColumn.name);
    if (other.length !== 1) continue;
    const groupWord = groupNoun(group, context);
    const program = new TaskProgram(context, COMPOSITION);
    const first = await program.sql(`SELECT COUNT(*) AS mismatched FROM ${from} WHERE ${mismatch}`, `${parents} whose ${statedWords} ${byMore(tolerance)} from the sum of ${summedWords} over the ${children} with the same ${keyWords}`, {
      label: `the number of ${parents} whose ${statedWords} disagrees with their ${children}`,
      reading: { kind: 'number' },
    });
    if (!first || first.key.type !== 'number' || first.key.value < 2) return undefined;
    const second = await program.sql(`SELECT ROUND(SUM(ABS(l.${q(stated.name)} - ${computed})), 2) AS total_difference FROM ${from} WHERE ${mismatch}`, `the total absolute difference over those ${parents}`, {
      label: `the total absolute difference between ${statedWords} and the ${children} over the ${parents} that disagree`,
      reading: { kind: 'number', decimals: 2 },
      uses: [0],
    });
    if (!second || second.key.type !== 'number' || second.key.value <= 0) return undefined;
    const grouped = `${from} JOIN ${q(group.via!.parent.name)} AS p ON p.${q(group.via!.parentColumn.name)} = l.${q(group.via!.childColumn.name)}`;
    const third = await program.sql(
      `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(SUM(ABS(l.${q(stated.name)} - ${computed})), 2) AS total_difference, COUNT(*) AS n FROM ${grouped} WHERE ${mismatch} GROUP BY ${group.ref} ORDER BY SUM(ABS(l.${q(stated.name)} - ${computed})) DESC, 1`,
      `the total absolute difference per ${groupWord}, largest first`,
      { label: `the ${groupWord} with the largest total absolute difference`, reading: { kind: 'string' }, uses: [1] },
    );
    if (!third || !clearLeader(third.rows)) continue;
    const top = third.rows[0][0] as string | number;
    const entity = q(other[0]);
    const fourth = await program.sql(
      `SELECT l.${entity} AS ${entity}, ABS(l.${q(stated.name)} - ${computed}) AS difference FROM ${grouped} WHERE ${mismatch} AND ${group.ref} = ${sqlLiteral(top)} ORDER BY ABS(l.${q(stated.name)} - ${computed}) DESC, 1`,
      `the ${parents} of the ${groupWord} ${top} that disagree, largest difference first`,
      { label: `the ${humanize(other[0])} of the ${groupWord} ${top} whose ${statedWords} differs most from its ${children}`, reading: { kind: 'string' }, uses: [2], carries: [String(top)] },
    );
    if (!fourth || !(fourth.rows.length === 1 || clearLeader(fourth.rows))) continue;
    reconciliationEdge(context, { table: parent.name, column: stated.name }, { table: child.name, column: summed.name }, `${parent.name}.${stated.name} = SUM(${child.name}.${summed.name}) per (${columns.join(', ')}) for ${found.matches} of ${found.total} rows`);
    return program.task({
      family: FAMILY,
      parameters: { kind: 'composite-total', parent: parent.name, stated: stated.name, child: child.name, summed: summed.name, columns, group: group.via!.childColumn.name },
      question: `For each row of ${sourceName(parent)}, compare ${statedWords} with the sum of ${summedWords} over the ${children} with the same ${keyWords} (0 where there are none). In the ${groupWord}${labelHint(group)} with the largest total absolute difference, which ${humanize(other[0])} differs most?`,
      tables: [...new Set([parent.name, child.name, group.via!.parent.name])],
      dependency: 'reconciliation',
      needs: crossSourceFamily.needs,
    });
  }
  return undefined;
}

// ---- the same entities in two sources ---------------------------------------------------------------------------

interface SourcePair {
  a: TableProfile;
  b: TableProfile;
  /** Key columns, as named in a and in b. */
  keys: Array<{ a: ColumnProfile; b: ColumnProfile }>;
  /** b's rows narrowed to a's entities (`location = 'Seattle'`), when b holds more than a. */
  filter?: { column: ColumnProfile; value: string | number };
  measure: { a: ColumnProfile; b: ColumnProfile };
  matched: number;
  agreement: number;
}

const KEY_ROLES = new Set(['identifier', 'geo', 'time', 'dimension']);

/** Tables of a partition share their columns by construction: comparing two of them, or one with its view, is not two sources. */
function partitionOf(context: FamilyContext, table: string): string | undefined {
  return context.semantics.partitions.find((p) => p.view === table || p.tables.some((t) => t.table === table))?.name;
}

/** Whether one table is computed from the other (a view, a derived copy). */
function derivedFrom(context: FamilyContext, a: string, b: string): boolean {
  return context.semantics.relationships.some((r) => r.kind === 'derived-table' && ((r.table === a && r.from.includes(b)) || (r.table === b && r.from.includes(a))));
}

/** Two tables' measures that mean the same: the same name (`n_life_expect` beside `life_expect` is another value). */
const sameName = (a: ColumnProfile, b: ColumnProfile) => a.name.toLowerCase() === b.name.toLowerCase();

/** Whether a column is the child side of a foreign key: rows keyed by their parents (an order item, a return) are entities of their own. */
const referencing = (context: FamilyContext, table: string, column: string) => context.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.table === table && r.child.column === column);

const time = (context: FamilyContext, t: TableProfile, c: ColumnProfile) => semanticsOf(context, t.name, c.name)?.role.value === 'time';

/**
 * Pairs of tables holding the same entities: a key of one to three columns both share by name (unique in a; unique in
 * b, or unique within one value of a dimension of b), a measure of the same name in both, and most of the matched
 * values equal — the same days in two weather files, the same countries and years in two releases.
 */
export async function sourcePairs(context: FamilyContext): Promise<{ disagreeing: SourcePair[]; same: SourcePair[] }> {
  const tables = taskTables(context, MIN_MATCHED).filter((t) => context.semantics.tables.find((s) => s.table === t.name)?.kind.value !== 'derived' || partitionOf(context, t.name));
  const pairs: SourcePair[] = [];
  const same: SourcePair[] = [];
  for (const a of tables) {
    for (const b of tables) {
      if (a === b || derivedFrom(context, a.name, b.name) || (partitionOf(context, a.name) && partitionOf(context, a.name) === partitionOf(context, b.name))) continue;
      // Sister sheets of one workbook (a sheet per year, the same columns) are one dataset split by period: their
      // differences are changes over time, not two sources to reconcile.
      const sisters = a.sourceFile === b.sourceFile && /\.(xlsx|xlsm|ods)$/i.test(a.sourceFile) && a.columns.length === b.columns.length && a.columns.every((c) => b.columns.some((d) => d.name === c.name));
      if (sisters) continue;
      // Two sheets of one workbook under different titles ("Overseas residents' visits to the UK by month", "UK residents'
      // visits abroad by month") count different things, whatever their columns share: no two sources of one figure.
      const titled = a.sourceFile === b.sourceFile && a.preamble?.[0] !== undefined && b.preamble?.[0] !== undefined && a.preamble[0] !== b.preamble[0];
      if (titled) continue;
      const shared = a.columns
        .filter((ca) => KEY_ROLES.has(semanticsOf(context, a.name, ca.name)?.role.value ?? '') && ca.nullFraction === 0 && !ca.name.startsWith('_'))
        .flatMap((ca) => b.columns.filter((cb) => cb.name.toLowerCase() === ca.name.toLowerCase() && cb.nullFraction === 0).map((cb) => ({ a: ca, b: cb })));
      // Each table's own declared primary key (`id` in two tables of one database) numbers its own rows: equal numbers
      // are not the same entity unless a foreign key says so.
      const own = (t: TableProfile, c: ColumnProfile) => t.primaryKey?.length === 1 && t.primaryKey[0] === c.name;
      const linked = (x: { a: ColumnProfile; b: ColumnProfile }) => context.semantics.relationships.some((r) => r.kind === 'foreign-key' && ((r.child.table === a.name && r.child.column === x.a.name && r.parent.table === b.name) || (r.child.table === b.name && r.child.column === x.b.name && r.parent.table === a.name)));
      const keys = await sharedKey(context, a, b, shared.filter((x) => !(own(a, x.a) && own(b, x.b)) || linked(x)));
      // Two children of the same parents (order items and returns, both keyed by order and product) are two kinds of rows, not one twice.
      if (!keys || keys.keys.every((k) => referencing(context, a.name, k.a.name) || referencing(context, b.name, k.b.name))) continue;
      const measurePairs = a.columns.flatMap((ma) =>
        b.columns.filter((mb) => [ma, mb].every((m) => m.type === 'integer' || m.type === 'real') && semanticsOf(context, a.name, ma.name)?.role.value === 'measure' && semanticsOf(context, b.name, mb.name)?.role.value === 'measure' && sameName(ma, mb)).map((mb) => ({ a: ma, b: mb })),
      );
      // Several values of b's dimension may cover a's keys (every city has every date): the one whose values agree most is a's.
      let best: SourcePair[] = [];
      for (const filter of keys.filters) {
        const scored: SourcePair[] = [];
        for (const measure of measurePairs) {
          const pair = await scorePair(context, a, b, keys.keys, filter, measure);
          if (pair) scored.push(pair);
        }
        const top = (list: SourcePair[]) => Math.max(0, ...list.map((p) => p.agreement));
        if (top(scored) > top(best)) best = scored;
      }
      // The entities are the same when some measure mostly agrees; the measures that disagree somewhere are the tasks.
      // Agreement on a measure of a few values (3 games played by every team of two tournaments) is chance, not sameness.
      if (!best.some((p) => p.agreement >= MIN_AGREEMENT && p.measure.a.distinctCount >= MIN_MATCHED && p.measure.b.distinctCount >= MIN_MATCHED)) continue;
      same.push(memberOf(context, [...best].sort((x, y) => y.agreement - x.agreement)[0]));
      // A measure of the same name that disagrees on most rows is another quantity (a GDP-adjusted index beside the raw
      // one), not a second source of it; amounts in each row's own currency do not add up across rows.
      pairs.push(...best.filter((p) => p.agreement < 1 && p.agreement >= MIN_AGREEMENT && !inLocalCurrency(p.a, p.measure.a) && !inLocalCurrency(p.b, p.measure.b)).sort((x, y) => y.agreement - x.agreement).map((p) => memberOf(context, p)));
    }
  }
  // a–b and b–a are one pair: keep the first, the one with a filter on the larger table if any.
  const seen = new Set<string>();
  const disagreeing = pairs.filter((p) => {
    const id = [[p.a.name, p.b.name].sort().join('|'), p.measure.a.name].join('#');
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return { disagreeing, same };
}

/** A partition view narrowed to one value of its partition key is that value's file: the pair reads the member table. */
function memberOf(context: FamilyContext, pair: SourcePair): SourcePair {
  const partition = pair.filter && context.semantics.partitions.find((p) => p.view === pair.b.name && p.key === pair.filter!.column.name);
  const member = partition?.tables.find((t) => t.value === String(pair.filter!.value));
  const table = member && context.profile.tables.find((t) => t.name === member.table);
  if (!table) return pair;
  const column = (c: ColumnProfile) => table.columns.find((x) => x.name === c.name);
  const keys = pair.keys.map((k) => ({ a: k.a, b: column(k.b) }));
  const measure = column(pair.measure.b);
  if (keys.some((k) => !k.b) || !measure) return pair;
  return { ...pair, b: table, keys: keys as SourcePair['keys'], measure: { a: pair.measure.a, b: measure }, filter: undefined };
}

/**
 * The smallest key (identifiers before places before times) unique in a and in b, or in b within one value of a
 * dimension (a location); then every value of that dimension covering enough of a's keys is a candidate filter.
 */
async function sharedKey(context: FamilyContext, a: TableProfile, b: TableProfile, shared: Array<{ a: ColumnProfile; b: ColumnProfile }>): Promise<{ keys: SourcePair['keys']; filters: Array<SourcePair['filter']> } | undefined> {
  const rank = (c: ColumnProfile) => ['identifier', 'geo', 'dimension', 'time'].indexOf(semanticsOf(context, a.name, c.name)?.role.value ?? '');
  const sorted = [...shared].sort((x, y) => rank(x.a) - rank(y.a));
  const candidates: SourcePair['keys'][] = [...sorted.map((s) => [s]), ...sorted.flatMap((s, i) => sorted.slice(i + 1).map((t) => [s, t]))];
  for (const keys of candidates) {
    if (!(await unique(context, a, keys.map((k) => k.a.name)))) continue;
    if (await unique(context, b, keys.map((k) => k.b.name))) return { keys, filters: [undefined] };
    for (const column of b.columns) {
      const role = semanticsOf(context, b.name, column.name)?.role.value;
      if ((role !== 'dimension' && role !== 'geo') || column.distinctCount < 2 || column.distinctCount > 50 || column.nullFraction > 0 || keys.some((k) => k.b === column) || a.columns.some((c) => c.name.toLowerCase() === column.name.toLowerCase())) continue;
      if (!(await unique(context, b, [column.name, ...keys.map((k) => k.b.name)]))) continue;
      const on = keys.map((k) => `b.${q(k.b.name)} = a.${q(k.a.name)}`).join(' AND ');
      const rows = await query(context, `SELECT b.${q(column.name)}, COUNT(*) AS n FROM ${q(a.name)} AS a JOIN ${q(b.name)} AS b ON ${on} GROUP BY 1 ORDER BY n DESC, 1`);
      const filters = (rows ?? []).filter((r) => num(r[1]) >= MIN_MATCHED && (typeof r[0] === 'string' || typeof r[0] === 'number')).map((r) => ({ column, value: r[0] as string | number }));
      if (filters.length > 0) return { keys, filters };
    }
  }
  return undefined;
}

async function unique(context: FamilyContext, table: TableProfile, columns: string[]): Promise<boolean> {
  const cols = columns.map(q).join(', ');
  const rows = await query(context, `SELECT COUNT(*) FROM (SELECT ${cols} FROM ${q(table.name)} GROUP BY ${cols} HAVING COUNT(*) > 1)`);
  return rows !== undefined && num(rows[0]?.[0] ?? 1) === 0;
}

/** The join of a pair's two tables (aliases `a`, `b`) on its key and filter. */
function pairJoin(pair: Pick<SourcePair, 'a' | 'b' | 'keys' | 'filter'>): string {
  const on = pair.keys.map((k) => `b.${q(k.b.name)} = a.${q(k.a.name)}`);
  if (pair.filter) on.push(`b.${q(pair.filter.column.name)} = ${sqlLiteral(pair.filter.value)}`);
  return `${q(pair.a.name)} AS a JOIN ${q(pair.b.name)} AS b ON ${on.join(' AND ')}`;
}

async function scorePair(context: FamilyContext, a: TableProfile, b: TableProfile, keys: SourcePair['keys'], filter: SourcePair['filter'], measure: SourcePair['measure']): Promise<SourcePair | undefined> {
  const tolerance = toleranceFor(measure.a, measure.b);
  const ma = `a.${q(measure.a.name)}`;
  const mb = `b.${q(measure.b.name)}`;
  const rows = await query(context, `SELECT COUNT(*), SUM(CASE WHEN ${differs(ma, mb, tolerance)} THEN 0 ELSE 1 END) FROM ${pairJoin({ a, b, keys, filter })} WHERE ${ma} IS NOT NULL AND ${mb} IS NOT NULL`);
  const matched = num(rows?.[0]?.[0] ?? 0);
  if (matched < MIN_MATCHED) return undefined;
  return { a, b, keys, filter, measure, matched, agreement: num(rows?.[0]?.[1] ?? 0) / matched };
}

async function sourcePairTask(context: FamilyContext, pair: SourcePair): Promise<TaskSpec | undefined> {
  const { a, b, keys, filter, measure } = pair;
  const tolerance = toleranceFor(measure.a, measure.b);
  const ma = `a.${q(measure.a.name)}`;
  const mb = `b.${q(measure.b.name)}`;
  const join = pairJoin(pair);
  const filled = `${ma} IS NOT NULL AND ${mb} IS NOT NULL`;
  const mismatch = `${filled} AND ${differs(ma, mb, tolerance)}`;
  const keyWords = keys.map((k) => humanize(k.a.originalName || k.a.name)).join(' and ');
  const measureWords = humanize(measure.a.originalName || measure.a.name);
  const entities = 'rows';
  const program = new TaskProgram(context, COMPOSITION);

  const first = await program.sql(`SELECT COUNT(*) AS matched FROM ${join} WHERE ${filled}`, `${entities} found in both sources by ${keyWords}, with a ${measureWords} in each`, {
    label: `the number of ${entities} matched by ${keyWords} in both sources`,
    reading: { kind: 'number' },
  });
  if (!first || first.key.type !== 'number' || first.key.value < MIN_MATCHED) return undefined;
  const second = await program.sql(`SELECT COUNT(*) AS mismatched FROM ${join} WHERE ${mismatch}`, `matched ${entities} whose ${measureWords} values ${byMore(tolerance)}`, {
    label: `the number of matched ${entities} whose ${measureWords} values ${byMore(tolerance)} between the sources`,
    reading: { kind: 'number' },
    uses: [0],
  });
  if (!second || second.key.type !== 'number' || second.key.value <= 0 || second.key.value >= first.key.value) return undefined;
  const third = await program.sql(`SELECT ROUND(SUM(ABS(${ma} - ${mb})), 2) AS total_difference FROM ${join} WHERE ${mismatch}`, `the total absolute difference of ${measureWords} over the mismatched ${entities}`, {
    label: `the total absolute difference of ${measureWords} between the sources`,
    reading: { kind: 'number', decimals: 2 },
    uses: [1],
  });
  if (!third || third.key.type !== 'number' || third.key.value <= 0) return undefined;

  const matchWords = `Match the rows of ${sourceName(a)} with those of ${sourceName(b)}${filter ? ` whose ${humanize(filter.column.originalName || filter.column.name)} is '${filter.value}'` : ''} on ${keyWords}`;
  const counting = `counting only ${entities} whose ${measureWords} values ${byMore(tolerance)}`;
  // Step 4: the part of the key (a country, a year) where the sources disagree most.
  const part = keys.find((k) => !time(context, a, k.a)) ?? keys[0];
  const partTime = time(context, a, part.a);
  const byYear = partTime && semanticsOf(context, a.name, part.a.name)?.time?.grain !== 'year';
  const iso = byYear ? isoOf(context, a, part.a) : undefined;
  const partRef = byYear ? (iso ? `strftime('%Y', ${iso})` : undefined) : `a.${q(part.a.name)}`;
  const partWord = byYear ? 'year' : keyPartWords(context, a, part.a);
  const ranking = partRef && (keys.length > 1 || byYear) ? `SELECT ${partRef} AS ${q(byYear ? 'year' : part.a.name)}, ROUND(SUM(ABS(${ma} - ${mb})), 2) AS total_difference, COUNT(*) AS n FROM ${join} WHERE ${mismatch} GROUP BY 1 ORDER BY SUM(ABS(${ma} - ${mb})) DESC, 1` : undefined;
  // Without a clear leader the task ends at the total, a program of three steps.
  const ranked = ranking ? await query(context, ranking) : undefined;
  if (ranking && ranked && clearLeader(ranked)) {
    const fourth = await program.sql(ranking, `the total absolute difference of ${measureWords} per ${partWord}, largest first`, {
      label: `the ${partWord} with the largest total absolute difference of ${measureWords} between the sources`,
      reading: { kind: 'string' },
      uses: [2],
    });
    if (!fourth) return undefined;
    reconciliationEdge(context, { table: a.name, column: measure.a.name }, { table: b.name, column: measure.b.name }, `the same ${keyWords} in ${a.name} and ${b.name}: ${(pair.agreement * 100).toFixed(1)}% of ${pair.matched} matched values agree`);
    return program.task({
      family: FAMILY,
      parameters: { kind: 'two-sources', a: a.name, b: b.name, keys: keys.map((k) => k.a.name), filter: filter ? `${filter.column.name}=${filter.value}` : null, measure: measure.a.name },
      question: `${matchWords}, ${counting}. Which ${partWord} has the largest total absolute difference in ${measureWords} between the two sources?`,
      tables: [a.name, b.name],
      dependency: 'reconciliation',
      needs: crossSourceFamily.needs,
    });
  }
  reconciliationEdge(context, { table: a.name, column: measure.a.name }, { table: b.name, column: measure.b.name }, `the same ${keyWords} in ${a.name} and ${b.name}: ${(pair.agreement * 100).toFixed(1)}% of ${pair.matched} matched values agree`);
  return program.task({
    family: FAMILY,
    parameters: { kind: 'two-sources', a: a.name, b: b.name, keys: keys.map((k) => k.a.name), filter: filter ? `${filter.column.name}=${filter.value}` : null, measure: measure.a.name, total: true },
    question: `${matchWords}, ${counting}. What is the total absolute difference in ${measureWords} between the two sources? Round to 2 decimals.`,
    tables: [a.name, b.name],
    dependency: 'reconciliation',
    needs: crossSourceFamily.needs,
  });
}

/** An ISO date expression for a time column of alias `a`, when the profile gives one. */
function isoOf(context: FamilyContext, table: TableProfile, column: ColumnProfile): string | undefined {
  const s = semanticsOf(context, table.name, column.name)?.time;
  const ref = `a.${q(column.name)}`;
  if (!s) return undefined;
  if (s.storage === 'iso-date' || s.storage === 'iso-datetime') return ref;
  return s.isoExpression ? s.isoExpression.replace(/\{col\}/g, ref) : undefined;
}

/** A key part as a group: its values, or the year of a time key finer than years. */
function keyPart(context: FamilyContext, table: TableProfile, column: ColumnProfile): { ref: string; word: string; alias: string } | undefined {
  if (!time(context, table, column)) return { ref: `a.${q(column.name)}`, word: keyPartWords(context, table, column), alias: column.name };
  if (semanticsOf(context, table.name, column.name)?.time?.grain === 'year') return { ref: `a.${q(column.name)}`, word: 'year', alias: column.name };
  const iso = isoOf(context, table, column);
  return iso ? { ref: `strftime('%Y', ${iso})`, word: 'year', alias: 'year' } : undefined;
}

/**
 * Coverage: two sources of the same entities whose values agree, but not whose rows — a's rows without a match in b
 * (a year one file lacks), counted, and the key part (a year, a country) that holds most of them.
 *   1. rows matched in both  2. a's rows without a match  3. the key part with the most of them (a clear leader)
 */
async function coverageTask(context: FamilyContext, pair: SourcePair): Promise<TaskSpec | undefined> {
  const { a, b, keys, filter } = pair;
  const on = [...keys.map((k) => `b.${q(k.b.name)} = a.${q(k.a.name)}`), ...(filter ? [`b.${q(filter.column.name)} = ${sqlLiteral(filter.value)}`] : [])].join(' AND ');
  const left = `${q(a.name)} AS a LEFT JOIN ${q(b.name)} AS b ON ${on}`;
  const missing = `b.${q(keys[0].b.name)} IS NULL`;
  const keyWords = keys.map((k) => humanize(k.a.originalName || k.a.name)).join(' and ');
  const aRows = `rows of ${sourceName(a)}`;
  const bName = `${sourceName(b)}${filter ? ` (its rows whose ${humanize(filter.column.originalName || filter.column.name)} is '${filter.value}')` : ''}`;
  const program = new TaskProgram(context, COMPOSITION);
  const first = await program.sql(`SELECT COUNT(*) AS matched FROM ${q(a.name)} AS a JOIN ${q(b.name)} AS b ON ${on}`, `rows found in both sources by ${keyWords}`, { label: `the number of rows matched by ${keyWords} in both sources`, reading: { kind: 'number' } });
  if (!first || first.key.type !== 'number' || first.key.value < MIN_MATCHED) return undefined;
  const second = await program.sql(`SELECT COUNT(*) AS unmatched FROM ${left} WHERE ${missing}`, `${aRows} with no row of the same ${keyWords} in ${sourceName(b)}`, {
    label: `the number of ${aRows} without a match in ${sourceName(b)}`,
    reading: { kind: 'number' },
    uses: [0],
  });
  // A few missing rows are a gap; more missing than matched is two different sets of rows.
  if (!second || second.key.type !== 'number' || second.key.value < 3 || second.key.value > first.key.value) return undefined;
  for (const k of keys) {
    // A group is a year or a category (a country); an identifier part (a provider's URN) groups each entity alone.
    const category = time(context, a, k.a) || (semanticsOf(context, a.name, k.a.name)?.role.value !== 'identifier' && k.a.distinctCount <= 50);
    const part = category && (keys.length > 1 || time(context, a, k.a)) ? keyPart(context, a, k.a) : undefined;
    if (!part) continue;
    const ranking = `SELECT ${part.ref} AS ${q(part.alias)}, SUM(CASE WHEN ${missing} THEN 1 ELSE 0 END) AS unmatched, COUNT(*) AS n FROM ${left} GROUP BY 1 ORDER BY unmatched DESC, 1`;
    const ranked = await query(context, ranking);
    if (!ranked || !clearLeader(ranked)) continue;
    const third = await program.sql(ranking, `${aRows} without a match per ${part.word}, most first`, { label: `the ${part.word} with the most ${aRows} without a match in ${sourceName(b)}`, reading: { kind: 'string' }, uses: [1] });
    if (!third) return undefined;
    reconciliationEdge(context, { table: a.name, column: keys[0].a.name }, { table: b.name, column: keys[0].b.name }, `the same ${keyWords} in ${a.name} and ${b.name}; ${second.key.value} rows of ${a.name} have no match`);
    return program.task({
      family: FAMILY,
      parameters: { kind: 'coverage', a: a.name, b: b.name, keys: keys.map((x) => x.a.name), filter: filter ? `${filter.column.name}=${filter.value}` : null, part: k.a.name },
      question: `Match the ${aRows} with those of ${bName} on ${keyWords}. Which ${part.word} has the most ${aRows} with no matching row?`,
      tables: [a.name, b.name],
      dependency: 'reconciliation',
      needs: crossSourceFamily.needs,
    });
  }
  return undefined;
}
