/**
 * Parent grain: a value of a parent repeated on each of its child rows (the chamber size on every party row of an
 * election, repeated.ts) is averaged over the parents, each counted once — never over the rows, which would weigh an
 * election by how many parties stood. The groups are the parent's own (an election's country), fixed within it too.
 *   1. the average over all parents  2. the group with the highest average over its parents (a clear leader)
 *   3. how far that group's average lies above the overall one, in percent
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import type { RepeatedValue } from '../../semantics/types';
import type { TaskSpec } from '../types';
import { averagePhrase, clearLeader, groupings, groupWords, columnPhrase, humanize, isCoordinate, noun, num, q, query, readsClean, runningTotal, sqlLiteral, taskTables, TaskProgram, type FamilyContext, type TaskFamily } from './kit';

const MIN_PARENTS = 5;
const COMPOSITION = 'parent-grain';

/** The parent as a noun: `election_id` → "election"; undefined for a key whose name says nothing (`id`). */
function parentWord(column: ColumnProfile): string | undefined {
  const words = humanize(column.originalName || column.name).toLowerCase().split(' ');
  if (words.length < 2 || !/^(id|key|code|no|num|number)$/.test(words[words.length - 1])) return undefined;
  const word = words.slice(0, -1).join(' ');
  return /^[a-z ]{3,}$/.test(word) ? word : undefined;
}

/** Groupings of the table that the parent fixes too (an election's country and type): each parent is in one group. */
async function parentGroupings(context: FamilyContext, table: TableProfile, parent: ColumnProfile): Promise<ColumnProfile[]> {
  const found: ColumnProfile[] = [];
  for (const g of groupings(context, table, { min: 3, max: 50 })) {
    if (g === parent) continue;
    const rows = await query(context, `SELECT COUNT(*) FROM (SELECT ${q(parent.name)} FROM ${q(table.name)} WHERE ${q(parent.name)} IS NOT NULL GROUP BY ${q(parent.name)} HAVING COUNT(DISTINCT ${q(g.name)}) > 1)`);
    if (rows && num(rows[0]?.[0]) === 0) found.push(g);
  }
  return found;
}

async function parentGrainTask(context: FamilyContext, table: TableProfile, repeated: RepeatedValue): Promise<TaskSpec | undefined> {
  const measure = table.columns.find((c) => c.name === repeated.column);
  const parent = table.columns.find((c) => c.name === repeated.parent);
  if (!measure || !parent || isCoordinate(measure) || runningTotal(context, table.name, measure.name)) return undefined;
  const one = parentWord(parent);
  if (!one) return undefined;
  const many = noun(one.replace(/ /g, '_'), 'many');
  const name = columnPhrase(context, table.name, measure);
  const t = q(table.name);
  const p = q(parent.name);
  const m = q(measure.name);
  for (const group of await parentGroupings(context, table, parent)) {
    const g = q(group.name);
    const groupName = groupWords(columnPhrase(context, table.name, group));
    // One row per parent: its group and its value.
    const parents = `(SELECT ${p}, MAX(${g}) AS grp, MAX(${m}) AS value FROM ${t} WHERE ${p} IS NOT NULL AND ${m} IS NOT NULL GROUP BY ${p})`;
    const program = new TaskProgram(context, COMPOSITION);
    const overall = await program.sql(`SELECT ROUND(AVG(value), 4) AS average, COUNT(*) AS parents FROM ${parents}`, `the average ${name} over the ${many}, each counted once`, {
      label: `the average ${name} over all ${many}`,
      reading: { kind: 'number', decimals: 4 },
    });
    if (!overall || overall.key.type !== 'number' || !(overall.key.value > 0) || num(overall.rows[0]?.[1]) < 2 * MIN_PARENTS) continue;
    const ranking = await program.sql(
      `SELECT grp AS ${g}, ROUND(AVG(value), 4) AS average, COUNT(*) AS ${q(`${one.replace(/ /g, '_')}_count`)} FROM ${parents} WHERE grp IS NOT NULL GROUP BY grp HAVING COUNT(*) >= ${MIN_PARENTS} ORDER BY AVG(value) DESC, 1`,
      `the average ${name} of each ${groupName}'s ${many}, highest first`,
      { label: `the ${groupName} whose ${many} have the highest ${averagePhrase(name)}`, reading: { kind: 'string' } },
    );
    if (!ranking || ranking.rows.length < 3 || !clearLeader(ranking.rows, 1, 0.05)) continue;
    const top = String(ranking.rows[0][0]);
    const gap = await program.sql(
      `SELECT ROUND(100.0 * (AVG(CASE WHEN grp = ${sqlLiteral(top)} THEN value END) - AVG(value)) / AVG(value), 2) AS above_pct FROM ${parents}`,
      `how far the average ${name} of the ${groupName} ${top}'s ${many} lies above the overall one, in percent`,
      { label: `how far ${top}'s average ${name} lies above the average over all ${many}, in percent`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [top] },
    );
    if (!gap || gap.key.type !== 'number' || !(gap.key.value > 0)) continue;
    const question = `In the table '${table.name}', every row of one ${one} repeats its ${name}. Counting each ${one} once, which ${groupName} has the highest ${averagePhrase(name)} (only ${noun(groupName.replace(/ /g, '_'), 'many')} with at least ${MIN_PARENTS} ${many}), and by what percentage does it exceed the average over all ${many}? Round to 2 decimals.`;
    const task = program.task({
      family: parentGrainFamily.id,
      parameters: { table: table.name, measure: measure.name, parent: parent.name, group: group.name },
      question,
      tables: [table.name],
      dependency: 'group-contrast',
      needs: parentGrainFamily.needs,
    });
    if (readsClean(context, task)) return task;
  }
  return undefined;
}

export const parentGrainFamily: TaskFamily = {
  id: 'parent-grain',
  description: "A parent's value repeated on its child rows (a chamber size on each party row of an election), averaged over the parents, each once, by a grouping the parent fixes too.",
  needs: 'a measure fixed by a parent key within its table (repeated on the child rows), and a grouping of 3–50 values the parent fixes too',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const tables = new Map(taskTables(context).map((t) => [t.name, t]));
    for (const repeated of context.semantics.repeated ?? []) {
      if (tasks.length >= context.maxPerFamily) break;
      const table = tables.get(repeated.table);
      if (!table || tasks.some((t) => t.tables.includes(table.name))) continue;
      const task = await parentGrainTask(context, table, repeated);
      if (task) tasks.push(task);
    }
    return tasks;
  },
};
