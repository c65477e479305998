/**
 * Starter task families: deterministic generators that read the environment profile, run real SQL (and Python)
 * through the sandboxes to compute each answer, and emit TaskSpecs with their evidence steps.
 * Issue 4's task pool adds families to this list; each family is one object with `generate`.
 */
import { createHash } from 'node:crypto';
import type { ColumnProfile, DataDocument, EnvironmentProfile, TableProfile } from '../env/types';
import type { EvidenceGraph } from './graph';
import type { CodeRunner } from '../agent/tools';
import { DEFAULT_MAX_ROWS } from '../sandbox/limits';
import type { ToolResult } from '../sandbox/types';
import { quoteIdent, sqlLiteral } from '../text/sql';
import { singular, words } from '../text/words';
import { numberTolerance } from './answer';
import type { EvidenceStep, TaskDifficulty, TaskSpec } from './types';

export interface FamilyContext {
  profile: EnvironmentProfile;
  sql: CodeRunner;
  /** Families with a Python step are skipped without it. */
  python?: CodeRunner;
  /** Tasks per family at most. */
  maxPerFamily: number;
  signal?: AbortSignal;
  /** The task pool passes these; the starter families do not need them. */
  documents?: DataDocument[];
  graph?: EvidenceGraph;
  /** The task pool passes its inclusion dependencies (found by name or by values); without it, join keys by name. */
  joinKeys?: (context: FamilyContext) => Promise<JoinKey[]>;
}

export interface TaskFamily {
  id: string;
  description: string;
  generate(context: FamilyContext): Promise<TaskSpec[]>;
}

/** Stable id: the family and its parameters, hashed. */
export function taskId(family: string, parameters: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify([family, parameters])).digest('hex').slice(0, 12);
  return `${family}-${digest}`;
}

const EVIDENCE_PREVIEW_ROWS = 20;

/** Runs one evidence step; the step keeps the first rows of its result. */
export async function evidence(context: FamilyContext, tool: EvidenceStep['tool'], code: string, purpose: string): Promise<{ step: EvidenceStep; result: ToolResult }> {
  const runner = tool === 'run_sql' ? context.sql : context.python;
  if (!runner) throw new Error(`no ${tool} sandbox`);
  const result = await runner.run(code, { signal: context.signal });
  const step: EvidenceStep = { tool, code, purpose };
  if (result.ok && tool === 'run_sql') step.result = { columns: result.columns ?? [], rows: (result.rows ?? []).slice(0, EVIDENCE_PREVIEW_ROWS) };
  if (result.ok && tool === 'run_python') step.result = { columns: ['stdout'], rows: [[(result.stdout ?? '').trim()]] };
  return { step, result };
}

export async function query(context: FamilyContext, sql: string): Promise<unknown[][] | undefined> {
  const result = await context.sql.run(sql, { signal: context.signal });
  return result.ok ? result.rows ?? [] : undefined;
}

/** Difficulty from the evidence's shape: joins and extra steps weigh most. */
export function difficultyOf(steps: EvidenceStep[], tables: string[]): TaskDifficulty {
  const sqlText = steps.filter((s) => s.tool === 'run_sql').map((s) => s.code).join('\n');
  const joins = (sqlText.match(/\bJOIN\b/gi) ?? []).length;
  const aggregation = /\b(GROUP BY|COUNT|SUM|AVG|MIN|MAX)\b/i.test(sqlText);
  const grouped = /\bGROUP BY\b/i.test(sqlText);
  const window = /\bOVER\s*\(/i.test(sqlText);
  const python = steps.some((s) => s.tool === 'run_python');
  // Joins and Python steps are where agents slip most (wrong keys, runtime errors), so they weigh double.
  const score = (steps.length - 1) + 2 * joins + (grouped ? 1 : 0) + (window ? 1 : 0) + (python ? 2 : 0);
  const level = score <= 0 ? 'easy' : score <= 2 ? 'medium' : 'hard';
  return { steps: steps.length, tables: tables.length, joins, aggregation: aggregation || python, window, python, level };
}

// ---- column roles ---------------------------------------------------------------------------------------------

export const isIdLike = (c: ColumnProfile) => /(^id$|_id$|id$|^key$|_key$|code$)/i.test(c.name);
/** Numbers that label rather than measure: summing or averaging them means nothing. */
export const isLabelNumber = (c: ColumnProfile) => /(year|number|_no$|^no$|zip|postal|phone|latitude|longitude|^lat$|^lon$|^lng$|rank|position|index)/i.test(c.name);

export function measures(table: TableProfile): ColumnProfile[] {
  return table.columns.filter(
    (c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && !isLabelNumber(c) && !c.candidateKey && c.distinctCount > 5 && c.nullFraction < 0.5,
  );
}

export function categories(table: TableProfile): ColumnProfile[] {
  return table.columns.filter(
    (c) => (c.type === 'text' || c.type === 'boolean') && c.distinctCount >= 2 && c.distinctCount <= 12 && c.nullFraction < 0.5 && !isIdLike(c),
  );
}

export function usableTables(profile: EnvironmentProfile): TableProfile[] {
  return [...profile.tables].filter((t) => t.rowCount >= 10).sort((a, b) => a.name.localeCompare(b.name));
}

export const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v));

// ---- families -------------------------------------------------------------------------------------------------

/** Easy: one filter over one table, then a total (or a count when the table has no measure). */
export const filteredAggregateFamily: TaskFamily = {
  id: 'filtered-aggregate',
  description: 'A total or count over the rows of one table that match a category value.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const category = categories(table)[0];
      if (!category) continue;
      const t = quoteIdent(table.name);
      const c = quoteIdent(category.name);
      const top = await query(context, `SELECT ${c}, COUNT(*) AS n FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY n DESC, ${c} LIMIT 1`);
      if (!top || top.length === 0) continue;
      const value = top[0][0];
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const measure = measures(table)[0];
      const where = `${c} = ${sqlLiteral(value)}`;
      const code = measure
        ? `SELECT ROUND(SUM(${quoteIdent(measure.name)}), 2) AS total_${measure.name} FROM ${t} WHERE ${where}`
        : `SELECT COUNT(*) AS row_count FROM ${t} WHERE ${where}`;
      const question = measure
        ? `What is the total ${words(measure.name)} over the ${words(table.name)} whose ${words(category.name)} is '${value}'? Round to 2 decimals.`
        : `How many ${words(table.name)} records have ${words(category.name)} equal to '${value}'?`;
      const { step, result } = await evidence(context, 'run_sql', code, measure ? `Total ${words(measure.name)} where ${words(category.name)} is '${value}'` : `Count rows where ${words(category.name)} is '${value}'`);
      const answer = result.ok ? result.rows?.[0]?.[0] : undefined;
      if (answer === null || answer === undefined || !Number.isFinite(num(answer))) continue;
      const steps = [step];
      const tables = [table.name];
      tasks.push({
        id: taskId(this.id, { table: table.name, category: category.name, value, measure: measure?.name ?? null }),
        family: this.id,
        question,
        answer: { type: 'number', value: num(answer), tolerance: measure ? 0.01 : 0.5 },
        evidence: steps,
        difficulty: difficultyOf(steps, tables),
        tables,
      });
    }
    return tasks;
  },
};

/** Medium: the mean of a measure by category; the category with the highest mean, from the pair with the largest spread. */
export const groupContrastFamily: TaskFamily = {
  id: 'group-contrast',
  description: 'Which category has the highest mean of a measure (the category/measure pair with the largest relative spread).',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const t = quoteIdent(table.name);
      let best: { category: ColumnProfile; measure: ColumnProfile; spread: number } | undefined;
      for (const category of categories(table)) {
        for (const measure of measures(table)) {
          const c = quoteIdent(category.name);
          const m = quoteIdent(measure.name);
          const rows = await query(context, `SELECT (MAX(a) - MIN(a)) / NULLIF(ABS(AVG(a)), 0) FROM (SELECT AVG(${m}) AS a FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c})`);
          const spread = rows?.[0]?.[0];
          if (typeof spread === 'number' && Number.isFinite(spread) && (!best || spread > best.spread)) best = { category, measure, spread };
        }
      }
      if (!best) continue;
      const c = quoteIdent(best.category.name);
      const m = quoteIdent(best.measure.name);
      const alias = `avg_${best.measure.name}`;
      const code = `SELECT ${c}, ROUND(AVG(${m}), 4) AS ${quoteIdent(alias)}, COUNT(*) AS n FROM ${t} WHERE ${c} IS NOT NULL GROUP BY ${c} ORDER BY AVG(${m}) DESC`;
      const { step, result } = await evidence(context, 'run_sql', code, `Average ${words(best.measure.name)} per ${words(best.category.name)}, highest first`);
      const rows = result.ok ? result.rows ?? [] : [];
      // A tie at the top has no single answer.
      if (rows.length < 2 || num(rows[0][1]) === num(rows[1][1]) || rows[0][0] === null) continue;
      const steps = [step];
      const tables = [table.name];
      tasks.push({
        id: taskId(this.id, { table: table.name, category: best.category.name, measure: best.measure.name }),
        family: this.id,
        dependency: 'group-contrast',
        question: `In ${words(table.name)}, which ${words(best.category.name)} has the highest average ${words(best.measure.name)}?`,
        answer: { type: 'string', value: String(rows[0][0]) },
        evidence: steps,
        difficulty: difficultyOf(steps, tables),
        tables,
      });
    }
    return tasks;
  },
};

export interface JoinKey {
  child: TableProfile;
  childColumn: ColumnProfile;
  parent: TableProfile;
  parentColumn: ColumnProfile;
}

/** Join keys by name (same column name, or `<parent>_id` → `id`) confirmed by inclusion: ≥ 90% of child values exist in the parent. */
export async function discoverJoinKeys(context: FamilyContext): Promise<JoinKey[]> {
  const tables = usableTables(context.profile);
  const keys: JoinKey[] = [];
  for (const parent of tables) {
    for (const parentColumn of parent.columns.filter((c) => c.candidateKey && (c.type === 'integer' || c.type === 'text'))) {
      for (const child of tables) {
        if (child === parent) continue;
        const childColumn = child.columns.find(
          (c) => c.type === parentColumn.type && !c.candidateKey && (c.name.toLowerCase() === parentColumn.name.toLowerCase() || (parentColumn.name.toLowerCase() === 'id' && c.name.toLowerCase() === `${singular(parent.name)}_id`)),
        );
        if (!childColumn) continue;
        const rows = await query(
          context,
          `SELECT COUNT(*), COUNT(p.${quoteIdent(parentColumn.name)}) FROM ${quoteIdent(child.name)} AS c LEFT JOIN ${quoteIdent(parent.name)} AS p ON c.${quoteIdent(childColumn.name)} = p.${quoteIdent(parentColumn.name)} WHERE c.${quoteIdent(childColumn.name)} IS NOT NULL`,
        );
        const total = num(rows?.[0]?.[0] ?? 0);
        const matched = num(rows?.[0]?.[1] ?? 0);
        if (total >= 10 && matched / total >= 0.9) keys.push({ child, childColumn, parent, parentColumn });
      }
    }
  }
  return keys;
}

/**
 * When a child table points at one parent through two columns (a flight's origin and destination airports), names
 * the column a task goes through (" as origin"), so the two tasks ask different questions; otherwise "".
 */
export function throughColumn(keys: JoinKey[], key: JoinKey): string {
  const siblings = keys.filter((k) => k.child === key.child && k.parent === key.parent);
  return siblings.length > 1 ? ` as ${words(key.childColumn.name)}` : '';
}

/**
 * A readable label column for a parent table: text that is not an id nor the key itself (`fallback`; a code such as
 * `iata` is unique too, but a name reads better), a unique one first (names a row), else unique-ish.
 */
export function labelColumn(table: TableProfile, fallback: ColumnProfile): ColumnProfile {
  const texts = table.columns.filter((c) => c !== fallback && c.type === 'text' && !isIdLike(c) && c.nullFraction === 0);
  return texts.find((c) => c.distinctCount === table.rowCount) ?? texts.find((c) => c.distinctCount >= 0.8 * table.rowCount) ?? fallback;
}

/**
 * A ranked top-k answer is well defined only when the first k + 1 totals strictly decrease (no tie inside the list,
 * where the order would be arbitrary, nor at its edge) and each listed label names one parent row (two employees
 * called Jennifer would make "Jennifer" ambiguous).
 */
export async function rankingIsWellDefined(context: FamilyContext, ranked: unknown[][] | undefined, k: number, parent: string, label: string): Promise<boolean> {
  if (!ranked || ranked.length < k + 1) return false;
  for (let i = 0; i < k; i++) if (!(num(ranked[i][1]) > num(ranked[i + 1][1]))) return false;
  const labels = ranked.slice(0, k).map((r) => r[0]);
  if (labels.some((v) => v === null)) return false;
  const rows = await query(context, `SELECT COUNT(*) FROM ${quoteIdent(parent)} WHERE ${quoteIdent(label)} IN (${labels.map((v) => sqlLiteral(v as string | number)).join(', ')})`);
  return num(rows?.[0]?.[0]) === k;
}

/** Hard: join a child table to its parent over a shared key and rank the parents by a total. */
export const joinTopKFamily: TaskFamily = {
  id: 'join-top-k',
  description: 'The top 3 parent records by a total over a child table, across a join on a shared key.',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const k = 3;
    const keys = await (context.joinKeys ?? discoverJoinKeys)(context);
    for (const key of keys) {
      if (tasks.length >= context.maxPerFamily) break;
      const label = labelColumn(key.parent, key.parentColumn);
      const through = throughColumn(keys, key);
      const measure = measures(key.child)[0];
      const p = quoteIdent(key.parent.name);
      const ch = quoteIdent(key.child.name);
      const on = `c.${quoteIdent(key.childColumn.name)} = p.${quoteIdent(key.parentColumn.name)}`;
      const totalExpr = measure ? `ROUND(SUM(c.${quoteIdent(measure.name)}), 2)` : 'COUNT(*)';
      const alias = measure ? `total_${measure.name}` : `${key.child.name}_count`;
      const ranked = `SELECT p.${quoteIdent(label.name)}, ${totalExpr} AS ${quoteIdent(alias)} FROM ${ch} AS c JOIN ${p} AS p ON ${on} GROUP BY p.${quoteIdent(key.parentColumn.name)} ORDER BY ${quoteIdent(alias)} DESC`;
      if (!(await rankingIsWellDefined(context, await query(context, `${ranked} LIMIT ${k + 1}`), k, key.parent.name, label.name))) continue;
      const code = `${ranked} LIMIT ${k}`;
      const { step, result } = await evidence(context, 'run_sql', code, `Join ${words(key.child.name)} to ${words(key.parent.name)} on ${key.childColumn.name} and rank by ${measure ? `total ${words(measure.name)}` : 'row count'}`);
      if (!result.ok || (result.rows ?? []).length !== k || result.rows!.some((r) => r[0] === null)) continue;
      const steps = [step];
      const tables = [key.child.name, key.parent.name];
      const what = measure ? `the highest total ${words(measure.name)} in ${words(key.child.name)}${through}` : `the most ${words(key.child.name)} records${through}`;
      tasks.push({
        id: taskId(this.id, { child: key.child.name, column: key.childColumn.name, parent: key.parent.name, label: label.name, measure: measure?.name ?? null, k }),
        family: this.id,
        dependency: 'top-k',
        question: `Which ${k} ${words(key.parent.name)} (by ${words(label.name)}) have ${what}? List them from highest to lowest.`,
        answer: { type: 'list', values: result.rows!.map((r) => String(r[0])), ordered: true },
        evidence: steps,
        difficulty: difficultyOf(steps, tables),
        tables,
      });
    }
    return tasks;
  },
};

/** Python step: Pearson correlation between two measures of one table, computed in Python from the rows SQL returns. */
export const pythonCorrelationFamily: TaskFamily = {
  id: 'python-correlation',
  description: 'The Pearson correlation between two numeric columns, computed in Python from SQL results.',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    for (const table of usableTables(context.profile)) {
      if (tasks.length >= context.maxPerFamily) break;
      const ms = measures(table);
      const t = quoteIdent(table.name);
      let best: { a: ColumnProfile; b: ColumnProfile; r: number } | undefined;
      for (let i = 0; i < ms.length; i++) {
        for (let j = i + 1; j < ms.length; j++) {
          const a = quoteIdent(ms[i].name);
          const b = quoteIdent(ms[j].name);
          // Pearson r in SQL, to choose the pair; the task's answer comes from the Python step.
          const rows = await query(
            context,
            `SELECT (AVG(${a} * ${b}) - AVG(${a}) * AVG(${b})) / (SQRT(AVG(${a} * ${a}) - AVG(${a}) * AVG(${a})) * SQRT(AVG(${b} * ${b}) - AVG(${b}) * AVG(${b}))), COUNT(*) FROM ${t} WHERE ${a} IS NOT NULL AND ${b} IS NOT NULL`,
          );
          const r = rows?.[0]?.[0];
          const n = num(rows?.[0]?.[1] ?? 0);
          if (typeof r === 'number' && Number.isFinite(r) && n >= 10 && (!best || Math.abs(r) > Math.abs(best.r))) best = { a: ms[i], b: ms[j], r };
        }
      }
      if (!best) continue;
      const a = quoteIdent(best.a.name);
      const b = quoteIdent(best.b.name);
      const countSql = `SELECT COUNT(*) AS pairs, ROUND(AVG(${a}), 4) AS mean_${best.a.name}, ROUND(AVG(${b}), 4) AS mean_${best.b.name} FROM ${t} WHERE ${a} IS NOT NULL AND ${b} IS NOT NULL`;
      const first = await evidence(context, 'run_sql', countSql, `Count the rows where both ${words(best.a.name)} and ${words(best.b.name)} are present`);
      if (!first.result.ok) continue;
      // sql() returns at most the sandbox's row cap, so the pairs are read in pages (a stable order makes OFFSET exact).
      const pairsSql = `SELECT ${a}, ${b} FROM ${t} WHERE ${a} IS NOT NULL AND ${b} IS NOT NULL ORDER BY ${a}, ${b}`;
      const code = [
        `query = ${JSON.stringify(pairsSql)}`,
        `page = ${DEFAULT_MAX_ROWS}`,
        'rows = []',
        'while True:',
        '    batch = sql(query + f" LIMIT {page} OFFSET {len(rows)}")',
        '    rows += batch',
        '    if len(batch) < page:',
        '        break',
        'pairs = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in rows]',
        'xs = [float(p[0]) for p in pairs]',
        'ys = [float(p[1]) for p in pairs]',
        'n = len(xs)',
        'mx = sum(xs) / n',
        'my = sum(ys) / n',
        'cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))',
        'sx = sum((x - mx) ** 2 for x in xs) ** 0.5',
        'sy = sum((y - my) ** 2 for y in ys) ** 0.5',
        'r = cov / (sx * sy)',
        'print(round(r, 4))',
      ].join('\n');
      const second = await evidence(context, 'run_python', code, `Compute the Pearson correlation of ${words(best.a.name)} and ${words(best.b.name)} in Python`);
      const printed = second.result.ok ? Number((second.result.stdout ?? '').trim().split('\n').pop()) : NaN;
      // The Python result must agree with SQL's own computation, or the step is not trustworthy evidence.
      if (!Number.isFinite(printed) || Math.abs(printed - best.r) > 0.001) continue;
      const steps = [first.step, second.step];
      const tables = [table.name];
      tasks.push({
        id: taskId(this.id, { table: table.name, a: best.a.name, b: best.b.name }),
        family: this.id,
        dependency: 'correlation',
        question: `What is the Pearson correlation between ${words(best.a.name)} and ${words(best.b.name)} across ${words(table.name)}? Round to 4 decimals.`,
        answer: { type: 'number', value: printed, tolerance: numberTolerance(printed, 3) },
        evidence: steps,
        difficulty: difficultyOf(steps, tables),
        tables,
      });
    }
    return tasks;
  },
};

export const starterFamilies: TaskFamily[] = [filteredAggregateFamily, groupContrastFamily, joinTopKFamily, pythonCorrelationFamily];

export interface StarterTaskOptions {
  maxPerFamily?: number;
  families?: TaskFamily[];
  signal?: AbortSignal;
}

/** Builds the starter tasks for an environment: every family in order, deduplicated by id. */
export async function buildStarterTasks(
  profile: EnvironmentProfile,
  sandboxes: { sql: CodeRunner; python?: CodeRunner },
  options: StarterTaskOptions = {},
): Promise<TaskSpec[]> {
  const context: FamilyContext = { profile, sql: sandboxes.sql, python: sandboxes.python, maxPerFamily: options.maxPerFamily ?? 3, signal: options.signal };
  const seen = new Set<string>();
  const tasks: TaskSpec[] = [];
  for (const family of options.families ?? starterFamilies) {
    for (const task of await family.generate(context)) {
      if (seen.has(task.id)) continue;
      seen.add(task.id);
      tasks.push(task);
    }
  }
  return tasks;
}

