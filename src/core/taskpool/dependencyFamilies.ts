/**
 * The task pool's dependency families beyond the starter four: inclusion dependencies (join keys), rates by group
 * and under a filter, change over time, outliers, cross-table reconciliation, document-grounded parameters and
 * data-quality facts. Each one finds candidates from the profile, confirms them with SQL, and emits tasks whose
 * answer is the first cell (number, string) or first column (list) of the last evidence step's result.
 */
import type { ColumnProfile, TableProfile } from '../env/types';
import { quoteIdent, sqlLiteral } from '../text/sql';
import { escapeRegExp } from '../text/regex';
import { nameParts, plural, singular, tokens, words } from '../text/words';
import { numberTolerance } from './answer';
import type { FamilyContext, TaskFamily } from './families';
import { categories, difficultyOf, evidence, isIdLike, isLabelNumber, labelColumn, num, query, rankingIsWellDefined, taskId, throughColumn, usableTables } from './families';
import { addEdge, columnNode, sectionNode } from './graph';
import type { AnswerKey, DependencyKind, EvidenceStep, TaskSpec } from './types';

const q = quoteIdent;

function makeTask(
  family: string,
  dependency: DependencyKind,
  parameters: Record<string, unknown>,
  question: string,
  answer: AnswerKey,
  steps: EvidenceStep[],
  tables: string[],
  documents?: TaskSpec['documents'],
): TaskSpec {
  const task: TaskSpec = { id: taskId(family, parameters), family, dependency, question, answer, evidence: steps, difficulty: difficultyOf(steps, tables), tables };
  if (documents) task.documents = documents;
  return task;
}

/** Numeric columns that measure something; unlike the starter's rule a unique measure (track length) counts. */
export function poolMeasures(table: TableProfile): ColumnProfile[] {
  return table.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && !isLabelNumber(c) && c.distinctCount > 5 && c.nullFraction < 0.5);
}

/** The parts of a key column's name that can name an entity (`customer` in `customer_id`). */
const nameTokens = (name: string) => nameParts(name).filter((t) => t.length >= 3 && !['id', 'key', 'code', 'no', 'ref'].includes(t));

// ---- inclusion dependencies -----------------------------------------------------------------------------------

export interface InclusionDependency {
  child: TableProfile;
  childColumn: ColumnProfile;
  parent: TableProfile;
  parentColumn: ColumnProfile;
  /** Share of the child's non-null values found in the parent's key. */
  containment: number;
  /** The column names agree (same name, or `<parent>_id` → `id`); otherwise found by values alone. */
  byName: boolean;
}

const cache = new WeakMap<FamilyContext, Promise<InclusionDependency[]>>();

/** Distinct text values a child column needs before full containment in a parent key counts without a name match. */
const MIN_TEXT_KEY_VALUES = 10;

/**
 * Inclusion dependencies child.column ⊆ parent.key: by name with ≥ 90% containment, or by values alone when a
 * child column whose name points at the parent, or a text column of ten or more codes, is fully contained (the tightest parent key wins, so a small `SupportRepId` maps to the
 * 8-row employee table rather than to every table whose ids happen to cover 1..8).
 */
export function discoverInclusionDependencies(context: FamilyContext): Promise<InclusionDependency[]> {
  let found = cache.get(context);
  if (!found) {
    found = discover(context);
    cache.set(context, found);
  }
  return found;
}

async function discover(context: FamilyContext): Promise<InclusionDependency[]> {
  const tables = usableTables(context.profile).filter((t) => t.kind === 'table');
  // Lookup tables (8 categories, 3 shippers) are parents too, however small.
  const parents = context.profile.tables.filter((t) => t.kind === 'table' && t.rowCount > 0);
  const result: InclusionDependency[] = [];
  for (const child of tables) {
    for (const childColumn of child.columns) {
      if (childColumn.candidateKey && !isIdLike(childColumn)) continue;
      if (childColumn.type !== 'integer' && childColumn.type !== 'text') continue;
      if (childColumn.distinctCount < 2) continue;
      const candidates: InclusionDependency[] = [];
      for (const parent of parents) {
        if (parent.name === child.name) continue;
        for (const parentColumn of parent.columns.filter((c) => c.candidateKey && c.type === childColumn.type)) {
          const childName = childColumn.name.toLowerCase();
          const parentName = parentColumn.name.toLowerCase();
          const byName = childName === parentName || (parentName === 'id' && childName.replace(/_/g, '') === `${singular(parent.name)}id`);
          // Values alone are not enough for numbers (ids 1..8 fit any table): the child column's name must point at the
          // parent ("ShipVia" → Shippers). Text codes are different: ten or more distinct codes ("origin": SFO, LAX, …)
          // all found in another table's unique column (airports.iata) is a foreign key whatever the names say.
          const affinity = nameTokens(childColumn.name).some((t) => parent.name.toLowerCase().includes(t));
          const textCodes = childColumn.type === 'text' && childColumn.distinctCount >= MIN_TEXT_KEY_VALUES;
          if (!byName && (!(affinity || textCodes) || childColumn.candidateKey)) continue;
          if (!byName && childColumn.distinctCount > parentColumn.distinctCount) continue;
          const rows = await query(
            context,
            `SELECT COUNT(*), COUNT(p.${q(parentColumn.name)}) FROM (SELECT DISTINCT ${q(childColumn.name)} AS v FROM ${q(child.name)} WHERE ${q(childColumn.name)} IS NOT NULL) AS c LEFT JOIN ${q(parent.name)} AS p ON c.v = p.${q(parentColumn.name)}`,
          );
          const total = num(rows?.[0]?.[0] ?? 0);
          const matched = num(rows?.[0]?.[1] ?? 0);
          if (total < 2) continue;
          const containment = matched / total;
          if ((byName && containment >= 0.9) || (!byName && containment === 1)) candidates.push({ child, childColumn, parent, parentColumn, containment, byName });
        }
      }
      if (candidates.length === 0) continue;
      // By-name keys all stand; a values-only key keeps only its tightest parent, and only when nothing matched by name.
      const named = candidates.filter((c) => c.byName);
      if (named.length > 0) result.push(...named);
      else if (!childColumn.candidateKey) result.push(candidates.sort((a, b) => a.parent.rowCount - b.parent.rowCount || a.parent.name.localeCompare(b.parent.name))[0]);
    }
  }
  for (const dep of result) {
    if (context.graph) {
      addEdge(context.graph, {
        from: columnNode(dep.child.name, dep.childColumn.name),
        to: columnNode(dep.parent.name, dep.parentColumn.name),
        kind: 'join_key',
        note: `${(dep.containment * 100).toFixed(1)}% of ${dep.child.name}.${dep.childColumn.name} values occur in ${dep.parent.name}.${dep.parentColumn.name}${dep.byName ? '' : ' (found by values)'}`,
      });
    }
  }
  return result;
}

// ---- (1) join keys ---------------------------------------------------------------------------------------------

export const joinKeyFamily: TaskFamily = {
  id: 'join-key',
  description: 'How many parent records have matching child rows across an inclusion dependency, or how many child rows are orphans.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const dep of await discoverInclusionDependencies(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const on = `c.${q(dep.childColumn.name)} = p.${q(dep.parentColumn.name)}`;
      const tables = [dep.child.name, dep.parent.name];
      if (dep.containment < 1) {
        const code = `SELECT COUNT(*) AS orphan_rows FROM ${q(dep.child.name)} AS c LEFT JOIN ${q(dep.parent.name)} AS p ON ${on} WHERE c.${q(dep.childColumn.name)} IS NOT NULL AND p.${q(dep.parentColumn.name)} IS NULL`;
        const { step, result } = await evidence(context, 'run_sql', code, `Child rows of ${words(dep.child.name)} whose ${dep.childColumn.name} has no match in ${words(dep.parent.name)}`);
        const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
        if (!Number.isFinite(value) || value === 0) continue;
        tasks.push(
          makeTask(this.id, 'join-key', { kind: 'orphans', child: dep.child.name, column: dep.childColumn.name, parent: dep.parent.name }, `How many ${words(dep.child.name)} rows refer to a ${words(dep.childColumn.name)} that does not exist in ${words(dep.parent.name)}?`, { type: 'number', value, tolerance: 0.5 }, [step], tables),
        );
        continue;
      }
      const code = `SELECT COUNT(DISTINCT p.${q(dep.parentColumn.name)}) AS matched FROM ${q(dep.parent.name)} AS p JOIN ${q(dep.child.name)} AS c ON ${on}`;
      const { step, result } = await evidence(context, 'run_sql', code, `Distinct ${words(dep.parent.name)} that appear in ${words(dep.child.name)} through ${dep.childColumn.name}`);
      const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
      // Every parent matched is the row count, which the schema listing already shows: ask through a parent's label instead.
      if (Number.isFinite(value) && value !== dep.parent.rowCount && value !== 0) {
        tasks.push(
          makeTask(this.id, 'join-key', { kind: 'matched', child: dep.child.name, column: dep.childColumn.name, parent: dep.parent.name }, `How many ${plural(dep.parent.name)} have at least one matching ${words(dep.child.name)} record (by ${words(dep.childColumn.name)})?`, { type: 'number', value, tolerance: 0.5 }, [step], tables),
        );
        continue;
      }
      const label = labelColumn(dep.parent, dep.parentColumn);
      if (label === dep.parentColumn) continue;
      const top = await query(context, `SELECT p.${q(label.name)}, COUNT(*) AS n FROM ${q(dep.child.name)} AS c JOIN ${q(dep.parent.name)} AS p ON ${on} GROUP BY p.${q(dep.parentColumn.name)} ORDER BY n DESC, p.${q(label.name)} LIMIT 1`);
      const labelValue = top?.[0]?.[0];
      if (typeof labelValue !== 'string') continue;
      const countCode = `SELECT COUNT(*) AS child_rows FROM ${q(dep.child.name)} AS c JOIN ${q(dep.parent.name)} AS p ON ${on} WHERE p.${q(label.name)} = ${sqlLiteral(labelValue)}`;
      const counted = await evidence(context, 'run_sql', countCode, `${words(dep.child.name)} rows whose ${dep.childColumn.name} points at the ${words(dep.parent.name)} named '${labelValue}'`);
      const count = counted.result.ok ? num(counted.result.rows?.[0]?.[0]) : NaN;
      if (!Number.isFinite(count) || count === 0) continue;
      tasks.push(
        makeTask(this.id, 'join-key', { kind: 'label-count', child: dep.child.name, column: dep.childColumn.name, parent: dep.parent.name, label: label.name, value: labelValue }, `How many ${words(dep.child.name)} rows belong to the ${words(singular(dep.parent.name))} whose ${words(label.name)} is '${labelValue}'?`, { type: 'number', value: count, tolerance: 0.5 }, [counted.step], tables),
      );
    }
    return tasks;
  },
};

// ---- (2) group rates ---------------------------------------------------------------------------------------------

/** An outcome whose rate a task asks for: a category value (`status = 'cancelled'`) or a signed measure above zero (`delay > 0`). */
interface RateTarget {
  column: ColumnProfile;
  value: string;
  above?: boolean;
}

const targetSql = (target: RateTarget, prefix: string) => (target.above ? `${prefix}${q(target.column.name)} > ${target.value}` : `${prefix}${q(target.column.name)} = ${sqlLiteral(target.value)}`);
const targetWords = (target: RateTarget) => (target.above ? `${words(target.column.name)} above ${target.value}` : `${words(target.column.name)} '${target.value}'`);

/**
 * Outcomes to take a rate of: the rarest common value of a status-like column (the "cancelled" of a status), and,
 * for a measure that takes both signs (a delay, a profit), the share above zero (late, profitable).
 */
async function rateTargets(context: FamilyContext, table: TableProfile): Promise<RateTarget[]> {
  const targets: RateTarget[] = [];
  // Outcome columns are status-like: a handful of values.
  for (const column of categories(table).filter((c) => c.distinctCount <= 6)) {
    const rows = await query(context, `SELECT ${q(column.name)}, COUNT(*) AS n FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL GROUP BY 1 ORDER BY n ASC, 1 LIMIT 1`);
    const value = rows?.[0]?.[0];
    const n = num(rows?.[0]?.[1] ?? 0);
    // The rarest value that is still common enough to be a rate (≥ 3% of rows).
    if ((typeof value === 'string' || typeof value === 'number') && n >= Math.max(3, 0.03 * table.rowCount)) targets.push({ column, value: String(value) });
  }
  for (const column of poolMeasures(table)) {
    if (typeof column.min !== 'number' || typeof column.max !== 'number' || column.min >= 0 || column.max <= 0) continue;
    const rows = await query(context, `SELECT AVG(CASE WHEN ${q(column.name)} > 0 THEN 1.0 ELSE 0.0 END) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL`);
    const share = num(rows?.[0]?.[0] ?? 0);
    // Both outcomes common (≥ 3% of rows), so the rate is not a near-certainty.
    if (share >= 0.03 && share <= 0.97) targets.push({ column, value: '0', above: true });
  }
  return targets;
}

export const groupRateFamily: TaskFamily = {
  id: 'group-rate',
  description: 'Which group has the highest rate of an outcome (e.g. cancellation rate by region), over one table or across a join.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const all = await discoverInclusionDependencies(context);
    const deps = all.filter((d) => d.byName);
    const valueDeps = all.filter((d) => !d.byName && d.containment >= 0.99);
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const targets = await rateTargets(context, table);
      // Groups: the table's own categories, then a parent's categories across a join key.
      // Two-valued flags make poor groups ("which is_discontinued…"); groups need three or more values.
      const groupable = (t: TableProfile) => categories(t).filter((c) => c.type === 'text' && c.distinctCount >= 3);
      const groupings: Array<{ group: ColumnProfile; parent?: (typeof deps)[number] }> = groupable(table).map((group) => ({ group }));
      for (const dep of deps.filter((d) => d.child === table)) for (const group of groupable(dep.parent)) groupings.push({ group, parent: dep });
      // A parent found by values (a flight's origin airport) groups by its regions (state) when nothing else does.
      if (groupings.length === 0) for (const dep of valueDeps.filter((d) => d.child === table)) for (const group of parentGroups(dep.parent).reverse()) groupings.push({ group, parent: dep });
      let added = false;
      for (const target of targets) {
        if (added) break;
        for (const { group, parent } of [...groupings].reverse()) {
          if (group === target.column || group.name.toLowerCase() === target.column.name.toLowerCase()) continue;
          const from = parent ? `${q(table.name)} AS c JOIN ${q(parent.parent.name)} AS p ON c.${q(parent.childColumn.name)} = p.${q(parent.parentColumn.name)}` : `${q(table.name)} AS c`;
          const g = `${parent ? 'p' : 'c'}.${q(group.name)}`;
          // Groups found by values can be many and small: a rate needs at least 10 rows behind it.
          const having = parent && !parent.byName ? ' HAVING COUNT(*) >= 10' : '';
          const code = `SELECT ${g} AS ${q(group.name)}, ROUND(AVG(CASE WHEN ${targetSql(target, 'c.')} THEN 1.0 ELSE 0.0 END), 4) AS rate, COUNT(*) AS n FROM ${from} WHERE ${g} IS NOT NULL GROUP BY ${g}${having} ORDER BY rate DESC, n DESC`;
          const { step, result } = await evidence(context, 'run_sql', code, `Share of ${words(table.name)} with ${targetWords(target)} per ${words(group.name)}`);
          const rows = result.ok ? result.rows ?? [] : [];
          if (rows.length < 2 || num(rows[0][1]) === num(rows[1][1]) || rows[0][0] === null) continue;
          const tables = parent ? [table.name, parent.parent.name] : [table.name];
          const whose = target.above ? `whose ${words(target.column.name)} is above ${target.value}` : `whose ${words(target.column.name)} is '${target.value}'`;
          const of = parent ? ` (of ${words(parent.parent.name)}${parent.byName ? '' : `, by ${words(parent.childColumn.name)}`})` : '';
          tasks.push(
            makeTask(this.id, 'group-contrast', { table: table.name, target: target.column.name, value: target.value, group: group.name, parent: parent?.parent.name ?? null, through: parent?.childColumn.name ?? null }, `Which ${words(group.name)}${of} has the highest share of ${words(table.name)} ${whose}${having ? ' (among those with at least 10 rows)' : ''}?`, { type: 'string', value: String(rows[0][0]) }, [step], tables),
          );
          added = true;
          break;
        }
      }
    }
    return tasks;
  },
};

// ---- (6) conditional rates ------------------------------------------------------------------------------------------

export const conditionalRateFamily: TaskFamily = {
  id: 'conditional-rate',
  description: 'The rate of an outcome among the rows that match a filter on another column.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const targets = await rateTargets(context, table);
      const filters = categories(table);
      let added = false;
      for (const target of targets) {
        for (const filter of filters) {
          if (added || filter === target.column) continue;
          const top = await query(context, `SELECT ${q(filter.name)}, COUNT(*) AS n FROM ${q(table.name)} WHERE ${q(filter.name)} IS NOT NULL GROUP BY 1 ORDER BY n DESC, 1 LIMIT 1`);
          const value = top?.[0]?.[0];
          if (typeof value !== 'string' && typeof value !== 'number') continue;
          const code = `SELECT ROUND(AVG(CASE WHEN ${targetSql(target, '')} THEN 1.0 ELSE 0.0 END), 4) AS rate FROM ${q(table.name)} WHERE ${q(filter.name)} = ${sqlLiteral(value)}`;
          const { step, result } = await evidence(context, 'run_sql', code, `Among ${words(table.name)} with ${words(filter.name)} '${value}', the share with ${targetWords(target)}`);
          const rate = result.ok ? result.rows?.[0]?.[0] : undefined;
          if (typeof rate !== 'number' || rate <= 0 || rate >= 1) continue;
          tasks.push(
            makeTask(this.id, 'conditional-rate', { table: table.name, target: target.column.name, value: target.value, filter: filter.name, filterValue: value }, `Among ${words(table.name)} whose ${words(filter.name)} is '${value}', what fraction have ${targetWords(target)}? Answer as a fraction between 0 and 1, rounded to 4 decimals.`, { type: 'number', value: rate, tolerance: numberTolerance(rate, 3) }, [step], [table.name]),
          );
          added = true;
        }
      }
    }
    return tasks;
  },
};

// ---- (4) change over time -------------------------------------------------------------------------------------------

const dateColumns = (table: TableProfile) => table.columns.filter((c) => (c.type === 'date' || c.type === 'datetime') && c.nullFraction < 0.5 && c.distinctCount >= 3);

export const changeOverTimeFamily: TaskFamily = {
  id: 'change-over-time',
  description: 'The month with the largest month-over-month increase in a total (or count), or the change between two years.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const date = dateColumns(table)[0];
      if (!date) continue;
      // The first measure's total and the row count (flights per month) change differently, so both are asked.
      const first = poolMeasures(table)[0];
      for (const measure of first ? [first, undefined] : [undefined]) {
        if (tasks.length >= context.maxPerFamily) break;
        const d = q(date.name);
        const value = measure ? `SUM(${q(measure.name)})` : 'COUNT(*)';
        const what = measure ? `total ${words(measure.name)}` : `number of ${words(table.name)} rows`;
        const monthly = `SELECT strftime('%Y-%m', ${d}) AS month, ${value} AS total FROM ${q(table.name)} WHERE ${d} IS NOT NULL GROUP BY 1`;
        const code = `SELECT month, ROUND(total - LAG(total) OVER (ORDER BY month), 2) AS increase FROM (${monthly}) ORDER BY increase DESC LIMIT 2`;
        const { step, result } = await evidence(context, 'run_sql', code, `Month-over-month change of the ${what} by ${words(date.name)}, largest increase first`);
        const rows = result.ok ? result.rows ?? [] : [];
        if (rows.length === 2 && rows[0][1] !== null && num(rows[0][1]) > 0 && num(rows[0][1]) !== num(rows[1][1])) {
          tasks.push(
            makeTask(this.id, 'change-over-time', { kind: 'mom', table: table.name, date: date.name, measure: measure?.name ?? null }, `Which month (YYYY-MM, by ${words(date.name)}) had the largest increase in the ${what} over the previous month?`, { type: 'string', value: String(rows[0][0]) }, [step], [table.name]),
          );
        }
        if (tasks.length >= context.maxPerFamily) break;
        const years = await query(context, `SELECT strftime('%Y', ${d}) AS y, COUNT(*) FROM ${q(table.name)} WHERE ${d} IS NOT NULL GROUP BY 1 ORDER BY 1`);
        if (!years || years.length < 2) continue;
        // The last two years that are mostly complete (a year with a handful of rows is a partial year).
        const busiest = Math.max(...years.map((y) => num(y[1])));
        const full = years.filter((y) => num(y[1]) >= 0.5 * busiest);
        if (full.length < 2) continue;
        const [y1, y2] = [String(full[full.length - 2][0]), String(full[full.length - 1][0])];
        const yearly = `SELECT ROUND(100.0 * (SUM(CASE WHEN strftime('%Y', ${d}) = '${y2}' THEN ${measure ? q(measure.name) : 1} END) - SUM(CASE WHEN strftime('%Y', ${d}) = '${y1}' THEN ${measure ? q(measure.name) : 1} END)) / SUM(CASE WHEN strftime('%Y', ${d}) = '${y1}' THEN ${measure ? q(measure.name) : 1} END), 2) AS pct_change FROM ${q(table.name)}`;
        const second = await evidence(context, 'run_sql', yearly, `Percent change of the ${what} from ${y1} to ${y2}`);
        const pct = second.result.ok ? second.result.rows?.[0]?.[0] : undefined;
        if (typeof pct !== 'number' || !Number.isFinite(pct)) continue;
        tasks.push(
          makeTask(this.id, 'change-over-time', { kind: 'yoy', table: table.name, date: date.name, measure: measure?.name ?? null, y1, y2 }, `By what percentage did the ${what} change from ${y1} to ${y2} (by ${words(date.name)})? Round to 2 decimals.`, { type: 'number', value: pct, tolerance: numberTolerance(pct, 1) }, [second.step], [table.name]),
        );
      }
    }
    return tasks;
  },
};

// ---- (7) outliers ---------------------------------------------------------------------------------------------------

export const outlierFamily: TaskFamily = {
  id: 'outlier',
  description: 'How many rows have a measure more than 3 standard deviations from its mean.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      let perTable = 0;
      for (const measure of poolMeasures(table)) {
        if (tasks.length >= context.maxPerFamily || perTable >= 2) break;
        const m = q(measure.name);
        // Squared distances avoid SQRT, which not every SQLite build has.
        const code = `WITH s AS (SELECT AVG(${m}) AS mu, AVG(${m} * ${m}) - AVG(${m}) * AVG(${m}) AS var FROM ${q(table.name)} WHERE ${m} IS NOT NULL) SELECT COUNT(*) AS outliers FROM ${q(table.name)}, s WHERE ${m} IS NOT NULL AND (${m} - s.mu) * (${m} - s.mu) > 9 * s.var`;
        const { step, result } = await evidence(context, 'run_sql', code, `Rows of ${words(table.name)} whose ${words(measure.name)} is more than 3 standard deviations from the mean`);
        const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
        if (!Number.isFinite(value) || value === 0) continue;
        tasks.push(
          makeTask(this.id, 'outlier', { table: table.name, measure: measure.name, z: 3 }, `How many ${words(table.name)} rows have a ${words(measure.name)} more than 3 standard deviations away from the mean (population standard deviation)?`, { type: 'number', value, tolerance: 0.5 }, [step], [table.name]),
        );
        perTable++;
      }
      if (tasks.length >= context.maxPerFamily) break;
    }
    return tasks;
  },
};

// ---- (8) reconciliation --------------------------------------------------------------------------------------------

export const reconciliationFamily: TaskFamily = {
  id: 'reconciliation',
  description: 'Parent totals or counts that disagree with their child rows (e.g. order totals vs the sum of order lines).',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const dep of (await discoverInclusionDependencies(context)).filter((d) => d.parentColumn.candidateKey)) {
      if (tasks.length >= context.maxPerFamily) break;
      const childMeasures = dep.child.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && c.nullFraction < 0.5);
      const discount = childMeasures.find((c) => /discount/i.test(c.name) && typeof c.max === 'number' && c.max <= 1);
      const plain = childMeasures.filter((c) => c !== discount);
      const expressions: Array<{ sql: string; label: string }> = [{ sql: 'COUNT(*)', label: `the number of ${words(dep.child.name)} rows` }];
      const col = (c: ColumnProfile) => `c.${q(c.name)}`;
      for (const a of plain) expressions.push({ sql: `SUM(${col(a)})`, label: `the sum of ${words(a.name)}` });
      for (let i = 0; i < plain.length; i++) {
        for (let j = i + 1; j < plain.length; j++) {
          const product = `${col(plain[i])} * ${col(plain[j])}`;
          expressions.push({ sql: `SUM(${product})`, label: `the sum of ${words(plain[i].name)} × ${words(plain[j].name)}` });
          if (discount) expressions.push({ sql: `SUM(${product} * (1 - COALESCE(${col(discount)}, 0)))`, label: `the sum of ${words(plain[i].name)} × ${words(plain[j].name)} × (1 − ${words(discount.name)})` });
        }
      }
      const parentMeasures = dep.parent.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && c.nullFraction < 0.5 && /total|amount|sum|count|items|lines/i.test(c.name));
      let best: { column: ColumnProfile; expression: (typeof expressions)[number]; matches: number; total: number } | undefined;
      // One row per parent: its stated value and what its child rows add up to.
      const perParent = (column: ColumnProfile, expression: string) =>
        `SELECT p.${q(dep.parentColumn.name)} AS parent_key, p.${q(column.name)} AS stated, ${expression} AS computed FROM ${q(dep.parent.name)} AS p JOIN ${q(dep.child.name)} AS c ON c.${q(dep.childColumn.name)} = p.${q(dep.parentColumn.name)} WHERE p.${q(column.name)} IS NOT NULL GROUP BY p.${q(dep.parentColumn.name)}`;
      for (const column of parentMeasures) {
        for (const expression of expressions) {
          const rows = await query(context, `SELECT SUM(ABS(stated - computed) <= 0.01), COUNT(*) FROM (${perParent(column, expression.sql)})`);
          const matches = num(rows?.[0]?.[0] ?? 0);
          const total = num(rows?.[0]?.[1] ?? 0);
          // A real reconciliation holds for most parents; only then are the disagreements meaningful.
          if (total >= 10 && matches / total >= 0.5 && matches < total && (!best || matches / total > best.matches / best.total)) best = { column, expression, matches, total };
        }
      }
      if (!best) continue;
      const code = `SELECT COUNT(*) AS disagreements FROM (${perParent(best.column, best.expression.sql)}) WHERE ABS(stated - computed) > 0.01`;
      const { step, result } = await evidence(context, 'run_sql', code, `${words(dep.parent.name)} whose ${words(best.column.name)} differs from ${best.expression.label} of their ${words(dep.child.name)} by more than 0.01`);
      const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
      if (!Number.isFinite(value) || value === 0) continue;
      if (context.graph) {
        addEdge(context.graph, {
          from: columnNode(dep.parent.name, best.column.name),
          to: columnNode(dep.child.name, dep.childColumn.name),
          kind: 'reconciliation',
          note: `${dep.parent.name}.${best.column.name} = ${best.expression.sql} over ${dep.child.name} for ${best.matches} of ${best.total} parents`,
        });
      }
      tasks.push(
        makeTask(this.id, 'reconciliation', { parent: dep.parent.name, column: best.column.name, child: dep.child.name, expression: best.expression.sql }, `For how many ${words(dep.parent.name)} does the ${words(best.column.name)} differ by more than 0.01 from ${best.expression.label} of their ${words(dep.child.name)} rows?`, { type: 'number', value, tolerance: 0.5 }, [step], [dep.child.name, dep.parent.name]),
      );
    }
    for (const key of await compositeKeys(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const on = key.columns.map((c) => `c.${q(c)} = p.${q(c)}`).join(' AND ');
      const code = `SELECT COUNT(*) AS unmatched_rows FROM ${q(key.child.name)} AS c LEFT JOIN ${q(key.parent.name)} AS p ON ${on} WHERE p.${q(key.columns[0])} IS NULL AND ${key.columns.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ')}`;
      const pair = key.columns.map(words).join(', ');
      const { step, result } = await evidence(context, 'run_sql', code, `${words(key.child.name)} rows whose (${pair}) combination is missing from ${words(key.parent.name)}`);
      const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
      if (!Number.isFinite(value) || value === 0) continue;
      if (context.graph) {
        for (const c of key.columns) {
          addEdge(context.graph, { from: columnNode(key.child.name, c), to: columnNode(key.parent.name, c), kind: 'reconciliation', note: `(${key.columns.join(', ')}) of ${key.child.name} vs the same combination in ${key.parent.name}, where it is unique: ${(key.containment * 100).toFixed(1)}% of rows match` });
        }
      }
      tasks.push(
        makeTask(this.id, 'reconciliation', { kind: 'composite', parent: key.parent.name, child: key.child.name, columns: key.columns }, `How many ${words(key.child.name)} rows have a (${pair}) combination that does not appear in ${words(key.parent.name)}?`, { type: 'number', value, tolerance: 0.5 }, [step], [key.child.name, key.parent.name]),
      );
    }
    return tasks;
  },
};

/**
 * Composite keys across files: two or more text/integer columns two tables share by name, unique together in one
 * table (the parent, e.g. a route list keyed by origin and destination) and repeated in the other (the child, one
 * row per flight), with most child combinations found in the parent. Not-found combinations are counts that disagree.
 */
export async function compositeKeys(context: FamilyContext): Promise<Array<{ child: TableProfile; parent: TableProfile; columns: string[]; containment: number }>> {
  const tables = usableTables(context.profile).filter((t) => t.kind === 'table');
  const found: Array<{ child: TableProfile; parent: TableProfile; columns: string[]; containment: number }> = [];
  const keyable = (c: ColumnProfile) => (c.type === 'text' || c.type === 'integer') && !c.candidateKey && c.nullFraction < 0.5;
  for (const parent of tables) {
    for (const child of tables) {
      if (child === parent) continue;
      const shared = parent.columns.filter((pc) => keyable(pc) && child.columns.some((cc) => keyable(cc) && cc.type === pc.type && cc.name.toLowerCase() === pc.name.toLowerCase())).map((c) => c.name);
      if (shared.length < 2 || shared.length > 3) continue;
      const cols = shared.map(q).join(', ');
      const unique = await query(context, `SELECT COUNT(*) FROM (SELECT ${cols} FROM ${q(parent.name)} GROUP BY ${cols} HAVING COUNT(*) > 1)`);
      if (num(unique?.[0]?.[0] ?? 1) !== 0) continue;
      const repeated = await query(context, `SELECT COUNT(*) FROM (SELECT ${cols} FROM ${q(child.name)} GROUP BY ${cols} HAVING COUNT(*) > 1)`);
      if (num(repeated?.[0]?.[0] ?? 0) === 0) continue;
      const on = shared.map((c) => `c.${q(c)} = p.${q(c)}`).join(' AND ');
      const rows = await query(context, `SELECT COUNT(*), COUNT(p.${q(shared[0])}) FROM ${q(child.name)} AS c LEFT JOIN ${q(parent.name)} AS p ON ${on}`);
      const total = num(rows?.[0]?.[0] ?? 0);
      const containment = total > 0 ? num(rows?.[0]?.[1] ?? 0) / total : 0;
      if (total >= 10 && containment >= 0.5) found.push({ child, parent, columns: shared, containment });
    }
  }
  return found;
}

// ---- (9) document-grounded parameters -------------------------------------------------------------------------------

interface DocumentRule {
  document: string;
  section: string;
  table: TableProfile;
  /** SQL condition with the document's parameter in it. */
  condition: string;
  parameter: number;
  columns: string[];
  sentence: string;
  /** The defined term, when the sentence bolds one ("late"). */
  term?: string;
  /** A complete counting query, for rules over an aggregate per entity (e.g. "VIP customers have lifetime net spend above $2,000"). */
  sql?: string;
  /** Tables the query reads, when `sql` is set. */
  tables?: string[];
}

const COMPARATORS: Array<[string, string]> = [
  ['at least|no less than', '>='],
  ['at most|no more than', '<='],
  ['more than|above|over|greater than|exceeds?|later than', '>'],
  ['less than|below|under|fewer than|within', '<'],
];

/** A threshold stated right after its comparator: "more than 5 days", "above $2,000", "below 10". */
const THRESHOLD = new RegExp(`\\b(${COMPARATORS.map(([words]) => words).join('|')})\\s+\\$?\\s?(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)\\s*(days?\\b|%)?`, 'i');

/** Tables a rule sentence is about: those it (or its heading) names, and those holding two or more of the columns it quotes in backticks. */
function tablesForSentence(context: FamilyContext, text: string, sentence: string): TableProfile[] {
  const quoted = [...sentence.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1].toLowerCase());
  return usableTables(context.profile).filter(
    (t) =>
      new RegExp(`\\b${escapeRegExp(singular(t.name).replace(/_/g, ' '))}s?\\b`).test(text) ||
      quoted.filter((name) => t.columns.some((c) => c.name.toLowerCase() === name)).length >= 2,
  );
}

/** "`on_hand` is below `reorder_point`": a comparison between two numeric columns of one table. */
const COLUMN_COMPARISON = new RegExp(`\`([A-Za-z_][A-Za-z0-9_]*)\`\\s+(?:is\\s+|are\\s+)?(${COMPARATORS.map(([w]) => w).join('|')})\\s+(?:the\\s+)?\`([A-Za-z_][A-Za-z0-9_]*)\``, 'i');

function columnComparisonRules(context: FamilyContext, document: string, section: string, sentence: string): DocumentRule[] {
  const match = COLUMN_COMPARISON.exec(sentence);
  if (!match || section === '') return [];
  const operator = COMPARATORS.find(([w]) => new RegExp(`^(${w})$`, 'i').test(match[2]))![1];
  const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
  const numeric = (t: TableProfile, name: string) => t.columns.find((c) => c.name.toLowerCase() === name.toLowerCase() && (c.type === 'integer' || c.type === 'real'));
  return tablesForSentence(context, `${section} ${sentence}`.toLowerCase(), sentence).flatMap((table) => {
    const a = numeric(table, match[1]);
    const b = numeric(table, match[3]);
    if (!a || !b || a === b) return [];
    return [{ document, section, table, condition: `${q(a.name)} ${operator} ${q(b.name)}`, parameter: NaN, columns: [a.name, b.name], sentence: sentence.trim(), term }];
  });
}

/** Finds sentences that name columns of one table and state a numeric threshold, and turns them into SQL conditions. */
export function documentRules(context: FamilyContext): DocumentRule[] {
  const rules: DocumentRule[] = [];
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      if (section.heading === '') continue;
      for (const sentence of section.text.split(/(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+/)) {
        rules.push(...columnComparisonRules(context, document.name, section.heading, sentence));
        const match = THRESHOLD.exec(sentence);
        if (!match) continue;
        const operator = COMPARATORS.find(([words]) => new RegExp(`^(${words})$`, 'i').test(match[1]))![1];
        const parameter = Number(match[2].replace(/,/g, ''));
        if (!Number.isFinite(parameter)) continue;
        const mentioned = (table: TableProfile) => table.columns.filter((c) => c.name.length > 2 && new RegExp(`\\b${escapeRegExp(c.name)}\\b`, 'i').test(sentence));
        // The rule is about the table the sentence or its heading names ("An order is late…" → orders).
        const context_ = `${section.heading} ${sentence}`.toLowerCase();
        const named = tablesForSentence(context, context_, sentence);
        for (const table of named) {
          const columns = mentioned(table);
          const dates = columns.filter((c) => c.type === 'date' || c.type === 'datetime');
          const numbers = columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c));
          let condition: string | undefined;
          let used: string[] = [];
          if (match[3]?.toLowerCase().startsWith('day') && dates.length === 2) {
            // "b is more than N days after a": the first-mentioned date is the later one.
            const [first, second] = sentence.indexOf(dates[0].name) < sentence.indexOf(dates[1].name) ? dates : [dates[1], dates[0]];
            condition = `julianday(${q(first.name)}) - julianday(${q(second.name)}) ${operator} ${parameter}`;
            used = [first.name, second.name];
          } else if (!match[3] && numbers.length === 1) {
            condition = `${q(numbers[0].name)} ${operator} ${parameter}`;
            used = [numbers[0].name];
          }
          const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
          if (condition) rules.push({ document: document.name, section: section.heading, table, condition, parameter, columns: used, sentence: sentence.trim(), term });
        }
      }
    }
  }
  return rules;
}

// Aggregate definitions: "**VIP customers** have lifetime net spend above $2,000", where "lifetime net spend" is
// defined elsewhere in the documents ("**Lifetime net spend** = revenue from the customer's non-cancelled orders
// minus the refunds of their approved returns") and "revenue" by a formula over columns ("revenue = quantity ×
// unit_price × (1 − discount)"). Each part resolves to a table and a SQL expression, with filters from qualifiers
// ("non-cancelled", "approved") on category values of the tables on its join path, and is summed per entity key.

interface MetricPart {
  table: TableProfile;
  expr: string;
  sign: 1 | -1;
  text: string;
}


/** "name = a × b × (1 − c)" lines whose right side uses only columns of one table: name → SQL over that table. */
function formulaDefinitions(context: FamilyContext): Map<string, { table: TableProfile; expr: string }> {
  const found = new Map<string, { table: TableProfile; expr: string }>();
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      for (const line of section.text.split('\n')) {
        const m = /^\s*([A-Za-z][A-Za-z ]{1,40}?)\s*=\s*([^=]+?)\s*$/.exec(line.replace(/`/g, ''));
        if (!m) continue;
        const expr = m[2].replace(/[×·]/g, '*').replace(/[−–]/g, '-').replace(/÷/g, '/');
        if (!/^[\w\s*+\-/().]+$/.test(expr)) continue;
        const identifiers = [...new Set(expr.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])];
        if (identifiers.length < 2) continue;
        const table = usableTables(context.profile).find((t) => identifiers.every((id) => t.columns.some((c) => c.name === id && (c.type === 'integer' || c.type === 'real'))));
        if (table) found.set(m[1].trim().toLowerCase(), { table, expr: expr.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (id) => `t0.${q(id)}`) });
      }
    }
  }
  return found;
}

/** The definition of a phrase: "**Phrase** = text" or "**Phrase** is text" in any document. */
function definitionOf(context: FamilyContext, phrase: string): string | undefined {
  const wanted = phrase.trim().toLowerCase();
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      for (const m of section.text.matchAll(/\*\*([^*]{2,60})\*\*\s*(?:=|is|means)\s+([^\n]+)/g)) if (m[1].trim().toLowerCase() === wanted) return m[2];
    }
  }
  return undefined;
}

/** One part of a definition ("revenue from the customer's non-cancelled orders") as a table and an expression. */
function resolvePart(context: FamilyContext, text: string, formulas: Map<string, { table: TableProfile; expr: string }>): Omit<MetricPart, 'sign'> | undefined {
  const ws = tokens(text);
  for (const [name, f] of formulas) if (new RegExp(`\\b${escapeRegExp(name)}\\b`, 'i').test(text)) return { table: f.table, expr: f.expr, text };
  // A numeric column whose name starts with a word of the text ("refunds" → refund_amount), preferring tables the text names.
  const stems = new Set(ws.map(singular));
  const candidates = usableTables(context.profile).flatMap((t) =>
    t.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && stems.has(singular(c.name.split('_')[0]))).map((c) => ({ t, c, named: stems.has(singular(t.name)) })),
  );
  const best = candidates.find((x) => x.named) ?? (candidates.length === 1 ? candidates[0] : undefined);
  return best ? { table: best.t, expr: `t0.${q(best.c.name)}`, text } : undefined;
}

/** Join path child → … → entity over inclusion dependencies (shortest, at most 3 hops). */
function pathTo(deps: InclusionDependency[], from: TableProfile, entity: TableProfile): InclusionDependency[] | undefined {
  const queue: Array<{ table: TableProfile; path: InclusionDependency[] }> = [{ table: from, path: [] }];
  const seen = new Set([from.name]);
  while (queue.length) {
    const { table, path } = queue.shift()!;
    if (path.length > 0 && path[path.length - 1].parent.name === entity.name) return path;
    if (path.length >= 3) continue;
    for (const d of deps.filter((x) => x.child.name === table.name && !seen.has(x.parent.name))) {
      seen.add(d.parent.name);
      queue.push({ table: d.parent, path: [...path, d] });
    }
  }
  return undefined;
}

/** A part's per-entity subquery: SUM(expr) grouped by the last hop's child column, with its qualifiers as filters. */
async function partSubquery(context: FamilyContext, part: MetricPart, path: InclusionDependency[]): Promise<{ sql: string; tables: string[] } | undefined> {
  const joins: string[] = [];
  const aliases = [{ alias: 't0', table: part.table }];
  path.slice(0, -1).forEach((d, i) => {
    joins.push(`JOIN ${q(d.parent.name)} AS t${i + 1} ON t${i}.${q(d.childColumn.name)} = t${i + 1}.${q(d.parentColumn.name)}`);
    aliases.push({ alias: `t${i + 1}`, table: d.parent });
  });
  const last = path[path.length - 1];
  const entityKey = `t${path.length - 1}.${q(last.childColumn.name)}`;
  // Qualifiers: "non-cancelled" / "excluding cancelled" → <> 'cancelled'; "approved" → = 'approved'.
  const filters: string[] = [];
  const text = part.text.toLowerCase();
  for (const { alias, table } of aliases) {
    for (const column of categories(table)) {
      const values = await query(context, `SELECT DISTINCT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL LIMIT 12`);
      for (const [value] of values ?? []) {
        if (typeof value !== 'string' || value.length < 4) continue;
        const v = escapeRegExp(value.toLowerCase());
        if (new RegExp(`\\b(?:non-|not\\s+|excluding\\s+)${v}\\b`).test(text)) filters.push(`${alias}.${q(column.name)} <> ${sqlLiteral(value)}`);
        else if (new RegExp(`\\b${v}\\b`).test(text)) filters.push(`${alias}.${q(column.name)} = ${sqlLiteral(value)}`);
      }
    }
  }
  const where = filters.length ? ` WHERE ${filters.join(' AND ')}` : '';
  return { sql: `SELECT ${entityKey} AS entity, ${part.sign < 0 ? '-' : ''}COALESCE(SUM(${part.expr}), 0) AS amount FROM ${q(part.table.name)} AS t0 ${joins.join(' ')}${where} GROUP BY ${entityKey}`.replace(/\s+/g, ' '), tables: aliases.map((a) => a.table.name) };
}

/** Rules that count entities whose aggregate of a defined metric passes a documented threshold. */
export async function aggregateDocumentRules(context: FamilyContext): Promise<DocumentRule[]> {
  const rules: DocumentRule[] = [];
  const formulas = formulaDefinitions(context);
  // The last hop to the entity only needs the child's key column (the sum is grouped by it, the entity table is not
  // joined), so an id column named after the entity counts even where the entity's own column is not unique (a CRM
  // export holding a customer twice).
  const deps = [...(await discoverInclusionDependencies(context))];
  for (const entity of usableTables(context.profile)) {
    for (const child of usableTables(context.profile)) {
      if (child === entity) continue;
      for (const column of child.columns.filter((c) => isIdLike(c) && nameTokens(c.name).some((t) => entity.name.toLowerCase().includes(t)))) {
        const parentColumn = entity.columns.find((c) => c.name === column.name);
        if (parentColumn && !deps.some((d) => d.child === child && d.childColumn === column)) deps.push({ child, childColumn: column, parent: entity, parentColumn, containment: NaN, byName: true });
      }
    }
  }
  const phraseBeforeThreshold = new RegExp(`\\b(?:have|has|with|whose)\\s+(?:an?\\s+|the\\s+)?([a-z][a-z -]{2,60}?)\\s+(?:is\\s+|are\\s+|of\\s+)?(${COMPARATORS.map(([w]) => w).join('|')})\\s+\\$?\\s?(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)`, 'i');
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      if (section.heading === '') continue;
      for (const sentence of section.text.split(/(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+/)) {
        const m = phraseBeforeThreshold.exec(sentence);
        if (!m) continue;
        const phrase = m[1].trim();
        const operator = COMPARATORS.find(([w]) => new RegExp(`^(${w})$`, 'i').test(m[2]))![1];
        const parameter = Number(m[3].replace(/,/g, ''));
        const definition = definitionOf(context, phrase) ?? phrase;
        const parts: MetricPart[] = [];
        definition.split(/\s+(?:minus|less)\s+|\s+[−–]\s+/i).forEach((text, i) => {
          const part = resolvePart(context, text, formulas);
          if (part) parts.push({ ...part, sign: i === 0 ? 1 : -1 });
        });
        if (parts.length === 0) continue;
        const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
        const entityText = `${term ?? ''} ${sentence.slice(0, m.index)}`.toLowerCase();
        for (const entity of usableTables(context.profile).filter((t) => new RegExp(`\\b${escapeRegExp(singular(t.name).replace(/_/g, ' '))}s?\\b`).test(entityText))) {
          const subqueries = [];
          for (const part of parts) {
            const path = pathTo(deps, part.table, entity);
            const sub = path ? await partSubquery(context, part, path) : undefined;
            if (sub) subqueries.push(sub);
          }
          if (subqueries.length !== parts.length) continue;
          const sql = `SELECT COUNT(*) AS matching FROM (SELECT entity, SUM(amount) AS total FROM (${subqueries.map((x) => x.sql).join(' UNION ALL ')}) GROUP BY entity HAVING SUM(amount) ${operator} ${parameter})`;
          const tables = [...new Set(subqueries.flatMap((x) => x.tables))];
          rules.push({ document: document.name, section: section.heading, table: entity, condition: `${phrase} ${operator} ${parameter}`, parameter, columns: [], sentence: sentence.trim(), term, sql, tables });
        }
      }
    }
  }
  return rules;
}

export const documentParameterFamily: TaskFamily = {
  id: 'document-parameter',
  description: 'A count that needs a threshold or definition stated in a Markdown document (e.g. "late = shipped more than 5 days after ordered").',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const rule of [...documentRules(context), ...(await aggregateDocumentRules(context))]) {
      if (tasks.length >= context.maxPerFamily) break;
      const code = rule.sql ?? `SELECT COUNT(*) AS matching FROM ${q(rule.table.name)} WHERE ${rule.condition}`;
      const { step, result } = await evidence(context, 'run_sql', code, `Apply the rule from ${rule.document} § ${rule.section}: ${rule.condition}`);
      const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
      if (!Number.isFinite(value) || value === 0 || value === rule.table.rowCount) continue;
      if (context.graph) {
        for (const column of rule.columns) {
          addEdge(context.graph, { from: sectionNode(rule.document, rule.section), to: columnNode(rule.table.name, column), kind: 'references', note: rule.sentence.slice(0, 200) });
        }
      }
      tasks.push(
        makeTask(
          this.id,
          'document-parameter',
          { document: rule.document, section: rule.section, table: rule.table.name, condition: rule.condition },
          rule.term
            ? `How many ${words(rule.table.name)} are ${rule.term} according to the "${rule.section}" section of ${rule.document}?`
            : `Following the rule in the "${rule.section}" section of ${rule.document}, how many ${words(rule.table.name)} rows meet it?`,
          { type: 'number', value, tolerance: 0.5 },
          [step],
          rule.tables ?? [rule.table.name],
          [{ document: rule.document, section: rule.section }],
        ),
      );
    }
    return tasks;
  },
};

// ---- (10) data quality -------------------------------------------------------------------------------------------------

export const dataQualityFamily: TaskFamily = {
  id: 'data-quality',
  description: 'Missingness (the column with the most NULLs) and duplicate keys (ids that appear more than once).',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      // Duplicate keys: the table's own id column (named after the table, or its first column) that is not unique.
      const own = table.columns.find((c) => isIdLike(c) && !c.candidateKey && (c.name.toLowerCase().replace(/_/g, '').startsWith(singular(table.name).replace(/_/g, '')) || c === table.columns[0]) && c.distinctCount >= 0.8 * table.rowCount);
      if (own) {
        const code = `SELECT COUNT(*) AS duplicated_ids FROM (SELECT ${q(own.name)} FROM ${q(table.name)} WHERE ${q(own.name)} IS NOT NULL GROUP BY 1 HAVING COUNT(*) > 1)`;
        const { step, result } = await evidence(context, 'run_sql', code, `${own.name} values that occur more than once in ${words(table.name)}`);
        const value = result.ok ? num(result.rows?.[0]?.[0]) : NaN;
        if (Number.isFinite(value) && value > 0) {
          tasks.push(makeTask(this.id, 'data-quality', { kind: 'duplicates', table: table.name, column: own.name }, `How many ${words(own.name)} values appear more than once in ${words(table.name)}?`, { type: 'number', value, tolerance: 0.5 }, [step], [table.name]));
        }
      }
      if (tasks.length >= context.maxPerFamily) break;
      const withNulls = table.columns.filter((c) => c.nullFraction > 0);
      if (withNulls.length < 2) continue;
      const code = `SELECT column_name, ROUND(missing_share, 4) AS missing_share FROM (${withNulls.map((c) => `SELECT '${c.name.replace(/'/g, "''")}' AS column_name, AVG(CASE WHEN ${q(c.name)} IS NULL THEN 1.0 ELSE 0.0 END) AS missing_share FROM ${q(table.name)}`).join(' UNION ALL ')}) ORDER BY missing_share DESC, column_name`;
      const { step, result } = await evidence(context, 'run_sql', code, `Share of missing values per column of ${words(table.name)}, highest first`);
      const rows = result.ok ? result.rows ?? [] : [];
      if (rows.length < 2 || num(rows[0][1]) === num(rows[1][1])) continue;
      tasks.push(makeTask(this.id, 'data-quality', { kind: 'missingness', table: table.name }, `Which column of ${words(table.name)} has the largest share of missing values?`, { type: 'string', value: String(rows[0][0]) }, [step], [table.name]));
    }
    return tasks;
  },
};

/**
 * Text columns of a parent that group its child rows (a country, a state, a genre), fewest values first: that reads
 * most naturally ("country" over "state").
 */
function parentGroups(parent: TableProfile): ColumnProfile[] {
  return parent.columns.filter((c) => c.type === 'text' && !isIdLike(c) && c.distinctCount >= 3 && c.distinctCount <= 60 && c.nullFraction < 0.5).sort((a, b) => a.distinctCount - b.distinctCount);
}

// ---- (2) group contrasts across a join ----------------------------------------------------------------------------

export const joinGroupContrastFamily: TaskFamily = {
  id: 'join-group-contrast',
  description: "Which group of a parent table (a genre, a customer's country) has the highest mean of a child measure, across a join.",
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const deps = await discoverInclusionDependencies(context);
    for (const dep of deps.filter((d) => d.containment >= 0.99)) {
      if (tasks.length >= context.maxPerFamily) break;
      const groups = parentGroups(dep.parent);
      const measure = poolMeasures(dep.child)[0];
      if (!measure || groups.length === 0) continue;
      const through = throughColumn(deps, dep);
      // A group that the joined rows leave with fewer than three values (every flight's airport is in one country)
      // says nothing, so the next one is tried.
      for (const group of groups) {
        const m = `c.${q(measure.name)}`;
        const code = `SELECT p.${q(group.name)} AS ${q(group.name)}, ROUND(AVG(${m}), 4) AS ${q(`avg_${measure.name}`)}, COUNT(*) AS n FROM ${q(dep.child.name)} AS c JOIN ${q(dep.parent.name)} AS p ON c.${q(dep.childColumn.name)} = p.${q(dep.parentColumn.name)} WHERE ${m} IS NOT NULL GROUP BY p.${q(group.name)} HAVING COUNT(*) >= 3 ORDER BY AVG(${m}) DESC`;
        const { step, result } = await evidence(context, 'run_sql', code, `Average ${words(measure.name)} of ${words(dep.child.name)} per ${words(dep.parent.name)} ${words(group.name)}${through}, highest first`);
        const rows = result.ok ? result.rows ?? [] : [];
        if (rows.length < 3 || rows[0][0] === null || num(rows[0][1]) === num(rows[1][1])) continue;
        tasks.push(
          makeTask(this.id, 'group-contrast', { child: dep.child.name, column: dep.childColumn.name, parent: dep.parent.name, group: group.name, measure: measure.name }, `Which ${words(singular(dep.parent.name))} ${words(group.name)} has the highest average ${words(measure.name)} of its ${plural(dep.child.name)}${through}?`, { type: 'string', value: String(rows[0][0]) }, [step], [dep.child.name, dep.parent.name]),
        );
        break;
      }
    }
    return tasks;
  },
};

// ---- (3) correlation in SQL, within a table or across a join -----------------------------------------------------------

const pearsonSql = (a: string, b: string) => `(AVG(${a} * ${b}) - AVG(${a}) * AVG(${b})) / (SQRT(AVG(${a} * ${a}) - AVG(${a}) * AVG(${a})) * SQRT(AVG(${b} * ${b}) - AVG(${b}) * AVG(${b})))`;

export const sqlCorrelationFamily: TaskFamily = {
  id: 'correlation',
  description: 'The Pearson correlation between two numeric columns, within one table or across a join (child measure vs parent measure).',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const pairs: Array<{ from: string; a: string; b: string; tables: string[]; aLabel: string; bLabel: string; over: string; params: Record<string, unknown> }> = [];
    for (const dep of (await discoverInclusionDependencies(context)).filter((d) => d.byName)) {
      const childMeasure = poolMeasures(dep.child)[0];
      const parentMeasure = poolMeasures(dep.parent).find((c) => c.name.toLowerCase() !== childMeasure?.name.toLowerCase());
      if (!childMeasure || !parentMeasure) continue;
      pairs.push({
        from: `${q(dep.child.name)} AS c JOIN ${q(dep.parent.name)} AS p ON c.${q(dep.childColumn.name)} = p.${q(dep.parentColumn.name)}`,
        a: `c.${q(childMeasure.name)}`,
        b: `p.${q(parentMeasure.name)}`,
        tables: [dep.child.name, dep.parent.name],
        aLabel: `${words(childMeasure.name)} (${words(dep.child.name)})`,
        bLabel: `the ${words(parentMeasure.name)} of the matching ${words(dep.parent.name)}`,
        over: plural(dep.child.name),
        params: { child: dep.child.name, parent: dep.parent.name, a: childMeasure.name, b: parentMeasure.name },
      });
    }
    for (const table of usableTables(context.profile)) {
      const ms = poolMeasures(table);
      if (ms.length >= 2) {
        pairs.push({ from: `${q(table.name)} AS c`, a: `c.${q(ms[0].name)}`, b: `c.${q(ms[1].name)}`, tables: [table.name], aLabel: words(ms[0].name), bLabel: words(ms[1].name), over: plural(table.name), params: { table: table.name, a: ms[0].name, b: ms[1].name } });
      }
    }
    for (const pair of pairs) {
      if (tasks.length >= context.maxPerFamily) break;
      const code = `SELECT ROUND(${pearsonSql(pair.a, pair.b)}, 4) AS pearson_r, COUNT(*) AS pairs FROM ${pair.from} WHERE ${pair.a} IS NOT NULL AND ${pair.b} IS NOT NULL`;
      const { step, result } = await evidence(context, 'run_sql', code, `Pearson correlation of ${pair.aLabel} and ${pair.bLabel}`);
      const r = result.ok ? result.rows?.[0]?.[0] : undefined;
      const n = result.ok ? num(result.rows?.[0]?.[1] ?? 0) : 0;
      if (typeof r !== 'number' || !Number.isFinite(r) || n < 10) continue;
      tasks.push(
        makeTask(this.id, 'correlation', pair.params, `What is the Pearson correlation between ${pair.aLabel} and ${pair.bLabel}, over all ${pair.over} where both are present? Round to 4 decimals.`, { type: 'number', value: r, tolerance: numberTolerance(r, 3) }, [step], pair.tables),
      );
    }
    return tasks;
  },
};

// ---- (5) top-k by count across a join ------------------------------------------------------------------------------------

export const joinCountTopKFamily: TaskFamily = {
  id: 'join-count-top-k',
  description: 'The 3 parent records (a genre, a category, a customer) with the most child rows, across an inclusion dependency.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const k = 3;
    const deps = await discoverInclusionDependencies(context);
    for (const dep of deps) {
      if (tasks.length >= context.maxPerFamily) break;
      const label = labelColumn(dep.parent, dep.parentColumn);
      if (label === dep.parentColumn || dep.parent.rowCount <= k) continue;
      const through = throughColumn(deps, dep);
      const ranked = `SELECT p.${q(label.name)}, COUNT(*) AS ${q(`${dep.child.name}_rows`)} FROM ${q(dep.child.name)} AS c JOIN ${q(dep.parent.name)} AS p ON c.${q(dep.childColumn.name)} = p.${q(dep.parentColumn.name)} GROUP BY p.${q(dep.parentColumn.name)} ORDER BY 2 DESC, p.${q(label.name)}`;
      if (!(await rankingIsWellDefined(context, await query(context, `${ranked} LIMIT ${k + 1}`), k, dep.parent.name, label.name))) continue;
      const { step, result } = await evidence(context, 'run_sql', `${ranked} LIMIT ${k}`, `Count ${words(dep.child.name)} rows per ${words(singular(dep.parent.name))} through ${dep.childColumn.name}, most first`);
      if (!result.ok || (result.rows ?? []).length !== k || result.rows!.some((r) => r[0] === null)) continue;
      tasks.push(
        makeTask(this.id, 'top-k', { child: dep.child.name, column: dep.childColumn.name, parent: dep.parent.name, label: label.name, k }, `Which ${k} ${plural(dep.parent.name)} (by ${words(label.name)}) have the most ${words(dep.child.name)} rows${through}? List them from most to fewest.`, { type: 'list', values: result.rows!.map((r) => String(r[0])), ordered: true }, [step], [dep.child.name, dep.parent.name]),
      );
    }
    return tasks;
  },
};

export const dependencyFamilies: TaskFamily[] = [joinKeyFamily, groupRateFamily, joinGroupContrastFamily, sqlCorrelationFamily, joinCountTopKFamily, conditionalRateFamily, changeOverTimeFamily, outlierFamily, reconciliationFamily, documentParameterFamily, dataQualityFamily];
