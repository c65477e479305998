/**
 * Tasks across a many-to-one key of the semantic profile: matched and orphaned rows, the top parents by a child
 * total or count, and the parent group with the highest child mean.
 */
import type { TableProfile } from '../../env/types';
import type { TaskSpec } from '../types';
import {
  aggregateOf,
  clearLeader,
  foreignKeys,
  groupings,
  humanize,
  labelColumn,
  measureName,
  measures,
  noun,
  num,
  q,
  query,
  sqlLiteral,
  TaskProgram,
  type FamilyContext,
  type ForeignKey,
  type TaskFamily,
} from './kit';

/**
 * When a child table points at one parent through two columns (a flight's origin and destination airports), names
 * the column a task goes through (" as origin"), so the two tasks ask different questions; otherwise "".
 */
export function throughColumn(keys: ForeignKey[], key: ForeignKey): string {
  const siblings = keys.filter((k) => k.child.name === key.child.name && k.parent.name === key.parent.name);
  return siblings.length > 1 ? ` as ${humanize(key.childColumn.name)}` : '';
}

/**
 * A ranked top-k answer is well defined only when the first k + 1 values strictly decrease (no tie inside the list,
 * where the order would be arbitrary, nor at its edge) and each listed label names one parent row (two employees
 * called Jennifer would make "Jennifer" ambiguous).
 */
export async function rankingIsWellDefined(context: FamilyContext, ranked: unknown[][] | undefined, k: number, parent: string, label: string): Promise<boolean> {
  if (!ranked || ranked.length < k + 1) return false;
  for (let i = 0; i < k; i++) if (!(num(ranked[i][1]) > num(ranked[i + 1][1]))) return false;
  const labels = ranked.slice(0, k).map((r) => r[0]);
  if (labels.some((v) => v === null)) return false;
  const rows = await query(context, `SELECT COUNT(*) FROM ${q(parent)} WHERE ${q(label)} IN (${labels.map((v) => sqlLiteral(v as string | number)).join(', ')})`);
  return num(rows?.[0]?.[0]) === k;
}

const on = (key: ForeignKey) => `c.${q(key.childColumn.name)} = p.${q(key.parentColumn.name)}`;

export const joinKeyFamily: TaskFamily = {
  id: 'join-key',
  description: 'How many parent records have matching child rows across a key, how many child rows are orphans, or how many child rows belong to one named parent.',
  needs: 'two tables linked by a many-to-one key',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const key of foreignKeys(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const tables = [key.child.name, key.parent.name];
      const program = new TaskProgram(context, 'lookup');
      if (key.containment < 1) {
        const done = await program.sql(
          `SELECT COUNT(*) AS orphan_rows FROM ${q(key.child.name)} AS c LEFT JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE c.${q(key.childColumn.name)} IS NOT NULL AND p.${q(key.parentColumn.name)} IS NULL`,
          `${noun(key.child.name, 'many')} whose ${humanize(key.childColumn.name)} has no match in ${noun(key.parent.name, 'many')}`,
          { label: `the number of orphaned ${noun(key.child.name, 'many')}`, reading: { kind: 'number' } },
        );
        if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
        tasks.push(program.task({ family: this.id, parameters: { kind: 'orphans', child: key.child.name, column: key.childColumn.name, parent: key.parent.name }, question: `How many ${noun(key.child.name, 'many')} refer to a ${humanize(key.childColumn.name)} that does not exist among the ${noun(key.parent.name, 'many')}?`, tables, dependency: 'join-key', needs: this.needs }));
        continue;
      }
      const label = labelColumn(context, key.parent, key.parentColumn);
      if (label === key.parentColumn) continue;
      const top = await query(context, `SELECT p.${q(label.name)}, COUNT(*) AS n FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} GROUP BY p.${q(key.parentColumn.name)} ORDER BY n DESC, p.${q(label.name)} LIMIT 1`);
      const labelValue = top?.[0]?.[0];
      if (typeof labelValue !== 'string') continue;
      const done = await program.sql(
        `SELECT COUNT(*) AS child_rows FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE p.${q(label.name)} = ${sqlLiteral(labelValue)}`,
        `${noun(key.child.name, 'many')} whose ${humanize(key.childColumn.name)} points at the ${noun(key.parent.name, 'one')} named '${labelValue}'`,
        { label: `the number of ${noun(key.child.name, 'many')} of '${labelValue}'`, reading: { kind: 'number' } },
      );
      if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
      tasks.push(
        program.task({ family: this.id, parameters: { kind: 'label-count', child: key.child.name, column: key.childColumn.name, parent: key.parent.name, label: label.name, value: labelValue }, question: `How many ${noun(key.child.name, 'many')} belong to the ${noun(key.parent.name, 'one')} whose ${humanize(label.name)} is '${labelValue}'?`, tables, dependency: 'join-key', needs: this.needs }),
      );
    }
    return tasks;
  },
};

/** The top 3 parents by a child total (or count), across a key. */
export const joinTopKFamily: TaskFamily = {
  id: 'join-top-k',
  description: 'The top 3 parent records by a total over a child table (or by their number of child rows), across a key.',
  needs: 'two tables linked by a key, the parent with a label',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const k = 3;
    const keys = foreignKeys(context);
    for (const key of keys) {
      if (tasks.length >= context.maxPerFamily) break;
      const label = labelColumn(context, key.parent, key.parentColumn);
      if (key.parent.rowCount <= k + 1) continue;
      const through = throughColumn(keys, key);
      const measure = measures(context, key.child, { additiveOnly: true })[0];
      const agg = measure ? aggregateOf(context, key.child.name, measure) : undefined;
      const value = measure && agg ? `ROUND(${agg.of(`c.${q(measure.name)}`)}, 2)` : 'COUNT(*)';
      const alias = measure ? `total_${measure.name}` : `${key.child.name}_count`;
      const ranked = `SELECT p.${q(label.name)}, ${value} AS ${q(alias)} FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} GROUP BY p.${q(key.parentColumn.name)} ORDER BY ${q(alias)} DESC`;
      if (!(await rankingIsWellDefined(context, await query(context, `${ranked} LIMIT ${k + 1}`), k, key.parent.name, label.name))) continue;
      const program = new TaskProgram(context, 'lookup');
      const what = agg ? agg.phrase : `number of ${noun(key.child.name, 'many')}`;
      const done = await program.sql(`${ranked} LIMIT ${k}`, `${what} per ${noun(key.parent.name, 'one')}${through}, highest first`, { label: `the ${k} ${noun(key.parent.name, 'many')} with the highest ${what}`, reading: { kind: 'list', ordered: true } });
      if (!done || done.rows.length !== k) continue;
      tasks.push(
        program.task({
          family: this.id,
          parameters: { child: key.child.name, column: key.childColumn.name, parent: key.parent.name, label: label.name, measure: measure?.name ?? null, k },
          question: `Which ${k} ${noun(key.parent.name, 'many')}${label === key.parentColumn ? '' : ` (by ${humanize(label.name)})`} have the highest ${what}${through}? List them from highest to lowest.`,
          tables: [key.child.name, key.parent.name],
          dependency: 'top-k',
          needs: this.needs,
        }),
      );
    }
    return tasks;
  },
};

/** Groups of a parent that group its child rows (a country, a genre), fewest values first. */
function parentGroups(context: FamilyContext, parent: TableProfile) {
  return groupings(context, parent, { min: 3, max: 50 }).sort((a, b) => a.distinctCount - b.distinctCount);
}

export const joinGroupContrastFamily: TaskFamily = {
  id: 'join-group-contrast',
  description: "Which group of a parent table (a genre, a customer's country) has the highest mean of a child measure, across a key.",
  needs: 'a child measure and a parent grouping of 3–50 values, linked by a key',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const keys = foreignKeys(context);
    for (const key of keys.filter((d) => d.containment >= 0.99)) {
      if (tasks.length >= context.maxPerFamily) break;
      const measure = measures(context, key.child)[0];
      if (!measure) continue;
      const through = throughColumn(keys, key);
      const name = measureName(context, key.child.name, measure);
      for (const group of parentGroups(context, key.parent)) {
        const m = `c.${q(measure.name)}`;
        const program = new TaskProgram(context, 'lookup');
        const done = await program.sql(
          `SELECT p.${q(group.name)} AS ${q(group.name)}, ROUND(AVG(${m}), 4) AS ${q(`avg_${measure.name}`)}, COUNT(*) AS n FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE ${m} IS NOT NULL GROUP BY p.${q(group.name)} HAVING COUNT(*) >= 5 ORDER BY AVG(${m}) DESC`,
          `Average ${name} of ${noun(key.child.name, 'many')} per ${noun(key.parent.name, 'one')} ${humanize(group.name)}${through}, highest first`,
          { label: `the ${noun(key.parent.name, 'one')} ${humanize(group.name)} with the highest average ${name}`, reading: { kind: 'string' } },
        );
        if (!done || done.rows.length < 3 || !clearLeader(done.rows, 1, 0.02)) continue;
        tasks.push(
          program.task({
            family: this.id,
            parameters: { child: key.child.name, column: key.childColumn.name, parent: key.parent.name, group: group.name, measure: measure.name },
            question: `Which ${noun(key.parent.name, 'one')} ${humanize(group.name)} has the highest average ${name} across its ${noun(key.child.name, 'many')}${through}, counting only ${humanize(group.name)} values with at least 5 ${noun(key.child.name, 'many')}?`,
            tables: [key.child.name, key.parent.name],
            dependency: 'group-contrast',
            needs: this.needs,
          }),
        );
        break;
      }
    }
    return tasks;
  },
};
