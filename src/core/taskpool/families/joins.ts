/**
 * Tasks across a many-to-one key of the semantic profile: matched and orphaned rows, the top parents by a child
 * total or count, and the parent group with the highest child mean.
 */
import type { TableProfile } from '../../env/types';
import type { TaskSpec } from '../types';
import { averagePhrase, things, columnPhrase, isGeneratedKey,
  aggregateOf,
  article,
  clearLeader,
  foreignKeys,
  groupings,
  humanize,
  isNumberedSide,
  labelColumn,
  measureName,
  measures,
  noun,
  num,
  q,
  query,
  sqlLiteral,
  quotable,
  TaskProgram,
  type FamilyContext,
  type ForeignKey,
  type TaskFamily,
  pluralWords,
  parentNoun,
  rowsNoun,
  ownerless,
  ownPhrase,
  groupWords,
  rowsCount,
  tablePlace,
  sharedTitle,
} from './kit';

/**
 * When a child table points at one parent's key through two columns (a flight's origin and destination airports), names
 * the column a task goes through (" as origin"), so the two tasks ask different questions; otherwise "".
 */
export function throughColumn(keys: ForeignKey[], key: ForeignKey, context?: FamilyContext): string {
  // (Keys to different columns of the parent — `team_id` to its id, `team_name` to its name — are one link written
  // twice, as a denormalised file keeps it; two roles point at the same column: an origin and a destination airport.)
  const siblings = keys.filter((k) => k.child.name === key.child.name && k.parent.name === key.parent.name && k.parentColumn.name === key.parentColumn.name);
  if (siblings.length <= 1) return '';
  // The link the loader made from a nested array's items to their record (`_parent_row_id`): those nested in it.
  if (isGeneratedKey(key.childColumn.name) || isGeneratedKey(key.parentColumn.name)) return ' (those nested in its record)';
  // The role, not the key's name: "as the away team", not "as away team id".
  const phrase = context ? columnPhrase(context, key.child.name, key.childColumn) : humanize(key.childColumn.name);
  const role = phrase.replace(/\s+(id|ids|code|key|fk|no|number)$/i, '');
  return role !== phrase && role.includes(' ') ? ` as the ${role}` : ` as ${phrase}`;
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
    const keys = foreignKeys(context);
    for (const key of keys) {
      if (tasks.length >= context.maxPerFamily) break;
      // Which side a team is listed on (`team1`, `team2`) is arbitrary: no count goes through one side.
      if (isNumberedSide(key.child, key.childColumn)) continue;
      const tables = [key.child.name, key.parent.name];
      const program = new TaskProgram(context, 'lookup');
      if (key.containment < 1) {
        const done = await program.sql(
          `SELECT COUNT(*) AS orphan_rows FROM ${q(key.child.name)} AS c LEFT JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE c.${q(key.childColumn.name)} IS NOT NULL AND p.${q(key.parentColumn.name)} IS NULL`,
          `${things(context, key.child, 'many')} whose ${columnPhrase(context, key.child.name, key.childColumn)} has no match in ${things(context, key.parent, 'many')}`,
          { label: `the number of orphaned ${things(context, key.child, 'many')}`, reading: { kind: 'number' } },
        );
        if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
        const keyPhrase = columnPhrase(context, key.child.name, key.childColumn);
        tasks.push(program.task({ family: this.id, parameters: { kind: 'orphans', child: key.child.name, column: key.childColumn.name, parent: key.parent.name }, question: `How many ${things(context, key.child, 'many')} refer to ${article(keyPhrase)} ${keyPhrase} that does not exist among the ${things(context, key.parent, 'many')}?`, tables, dependency: 'join-key', needs: this.needs }));
        continue;
      }
      const label = labelColumn(context, key.parent, key.parentColumn);
      if (label === key.parentColumn) continue;
      // One child row per parent (pub_info per publisher): the count is 1 by construction.
      if (key.childColumn.distinctCount >= key.child.rowCount * (1 - key.childColumn.nullFraction)) continue;
      // The same number of child rows for every parent (two destinations for every tram route): fixed by design, no
      // question of the data.
      const sizes = await query(context, `SELECT COUNT(DISTINCT n) FROM (SELECT COUNT(*) AS n FROM ${q(key.child.name)} WHERE ${q(key.childColumn.name)} IS NOT NULL GROUP BY ${q(key.childColumn.name)})`);
      if (num(sizes?.[0]?.[0] ?? 0) <= 1) continue;
      const through = throughColumn(keys, key, context);
      // A parent named by a label that one parent row has (five parties are called "Conservatives": naming one by it names none).
      const unique = `p.${q(label.name)} IN (SELECT ${q(label.name)} FROM ${q(key.parent.name)} GROUP BY ${q(label.name)} HAVING COUNT(*) = 1)`;
      const top = await query(context, `SELECT p.${q(label.name)}, COUNT(*) AS n FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE ${unique} GROUP BY p.${q(key.parentColumn.name)} ORDER BY n DESC, p.${q(label.name)} LIMIT 1`);
      const labelValue = top?.[0]?.[0];
      if (typeof labelValue !== 'string' || !quotable(labelValue)) continue;
      // "the country 'India'", not "the country whose country is 'India'"; "the party whose English name is …".
      const labelPhrase = ownPhrase(context, key.parent, label);
      // (A parent whose rows have no name is named by its label where it is: "the stand CN 'SkyRanch-Control' in the
      // table 'FVS_StandInit'", not "the row in the table 'FVS_StandInit' whose stand CN is …".)
      // (…nor "the team whose title is 'FC RB Salzburg'" where the label is the row's one name, title or description:
      // "the team 'FC RB Salzburg'", "the obj type 'Galaxy'".)
      const bareName = /^(name|title|label|description)$/i.test(labelPhrase) || /^(type|kind|category|class)?(desc|name|title|label)$/i.test(label.originalName || label.name);
      // (Where the place goes without saying — the records a nested list sits in, JMA's reports around their `int`
      // entries, or a table named as its label, `species` of the table 'species' — it is not said again.)
      const placeKnown = key.child.parent?.table === key.parent.name || humanize(key.parent.originalName || key.parent.name).toLowerCase() === labelPhrase.toLowerCase();
      const named = labelPhrase === things(context, key.parent, 'one') || (bareName && parentNoun(context, key.parent) !== undefined) ? `the ${things(context, key.parent, 'one')} '${labelValue}'` : parentNoun(context, key.parent) === undefined ? `the ${labelPhrase} '${labelValue}'${placeKnown ? '' : ` in ${tablePlace(context, key.parent)}`}` : `the ${things(context, key.parent, 'one')} whose ${labelPhrase} is '${labelValue}'`;
      const done = await program.sql(
        `SELECT COUNT(*) AS child_rows FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE p.${q(label.name)} = ${sqlLiteral(labelValue)}`,
        `${things(context, key.child, 'many')} whose ${columnPhrase(context, key.child.name, key.childColumn)} points at the ${things(context, key.parent, 'one')} named '${labelValue}'`,
        { label: `the number of ${things(context, key.child, 'many')} of '${labelValue}'`, reading: { kind: 'number' } },
      );
      if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
      tasks.push(
        program.task({ family: this.id, parameters: { kind: 'label-count', child: key.child.name, column: key.childColumn.name, parent: key.parent.name, label: label.name, value: labelValue }, question: through ? `How many ${things(context, key.child, 'many')} have ${named}${through}?` : `How many ${things(context, key.child, 'many')} belong to ${named}?`, tables, dependency: 'join-key', needs: this.needs }),
      );
    }
    return tasks;
  },
};

/** The top k parents by a child total (`count: false`) or by their number of child rows (`count: true`), across a key. */
async function topParents(context: FamilyContext, family: TaskFamily, count: boolean): Promise<TaskSpec[]> {
  const tasks: TaskSpec[] = [];
  const k = 3;
  const keys = foreignKeys(context);
  for (const key of keys) {
    if (tasks.length >= context.maxPerFamily) break;
    if (isNumberedSide(key.child, key.childColumn)) continue;
    const label = labelColumn(context, key.parent, key.parentColumn);
    if (key.parent.rowCount <= k + 1) continue;
    const through = throughColumn(keys, key, context);
    const measure = count ? undefined : measures(context, key.child, { additiveOnly: true })[0];
    if (!count && !measure) continue;
    // A grid's cells per parent are its coverage (how many years a station reported), not a count of things.
    if (count && !rowsCount(context, key.child)) continue;
    const agg = measure ? aggregateOf(context, key.child.name, measure) : undefined;
    const value = measure && agg ? `ROUND(${agg.of(`c.${q(measure.name)}`)}, 2)` : 'COUNT(*)';
    const alias = measure ? `total_${measure.name}` : `${key.child.name}_count`;
    const ranked = `SELECT p.${q(label.name)}, ${value} AS ${q(alias)} FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} GROUP BY p.${q(key.parentColumn.name)} ORDER BY ${q(alias)} DESC`;
    if (!(await rankingIsWellDefined(context, await query(context, `${ranked} LIMIT ${k + 1}`), k, key.parent.name, label.name))) continue;
    const program = new TaskProgram(context, 'lookup');
    // Counting the rows of a bridge (film_actor) counts what it links to: an actor's films.
    const bridged = context.semantics.tables.find((t) => t.table === key.child.name)?.kind.value === 'bridge' ? keys.find((k2) => k2.child.name === key.child.name && k2.parent.name !== key.parent.name) : undefined;
    const counted = bridged ? things(context, bridged.parent, 'many') : things(context, key.child, 'many');
    const what = agg ? agg.phrase : `number of ${counted}`;
    // Parents named by their label where nothing says what a parent row is: "which 3 species", not "which 3 rows".
    const parentRows = parentNoun(context, key.parent) ? things(context, key.parent, 'many') : label !== key.parentColumn ? pluralWords(columnPhrase(context, key.parent.name, label)) : undefined;
    if (!parentRows) continue;
    const done = await program.sql(`${ranked} LIMIT ${k}`, `${what} per ${things(context, key.parent, 'one')}${through}, highest first`, { label: `the ${k} ${things(context, key.parent, 'many')} with the highest ${what}`, reading: { kind: 'list', ordered: true } });
    if (!done || done.rows.length !== k) continue;
    // Parents named by nothing but their key (their names repeat: six documents called "Response to … Request") are
    // listed by the key, and the question says so.
    const byKey = label === key.parentColumn && parentNoun(context, key.parent) !== undefined;
    // A key the loader made (a JSON record's `_row_id`) names nothing the user can see: no list of them.
    if (byKey && isGeneratedKey(key.parentColumn.name)) continue;
    // …by their key, asked for in words: "Give their ids, from most to fewest."
    const keyWords = pluralWords(humanize(key.parentColumn.originalName || key.parentColumn.name));
    const by = byKey ? '' : !parentNoun(context, key.parent) || label === key.parentColumn || columnPhrase(context, key.parent.name, label) === things(context, key.parent, 'one') ? '' : ` (by ${columnPhrase(context, key.parent.name, label)})`;
    tasks.push(
      program.task({
        family: family.id,
        parameters: { child: key.child.name, column: key.childColumn.name, parent: key.parent.name, label: label.name, measure: measure?.name ?? null, k },
        question: count
          ? `Which ${k} ${parentRows}${by} have the most ${counted}${through}? ${byKey ? `Give their ${keyWords}, from most to fewest.` : 'List them from most to fewest.'}`
          : `Which ${k} ${parentRows}${by} have the highest ${what}${through}? ${byKey ? `Give their ${keyWords}, from highest to lowest.` : 'List them from highest to lowest.'}`,
        tables: [key.child.name, key.parent.name],
        dependency: 'top-k',
        needs: family.needs,
      }),
    );
  }
  return tasks;
}

export const joinTopKFamily: TaskFamily = {
  id: 'join-top-k',
  description: 'The top 3 parent records by a total over a child table, across a key.',
  needs: 'two tables linked by a key, the child with an additive measure',
  generate(context) {
    return topParents(context, this, false);
  },
};

export const joinCountTopKFamily: TaskFamily = {
  id: 'join-count-top-k',
  description: 'The 3 parent records (a genre, a category, a customer) with the most child rows, across a key.',
  needs: 'two tables linked by a key',
  generate(context) {
    return topParents(context, this, true);
  },
};

/** "department name" (not "department department name"), "city" (not "warehouse city"): the parent's noun only before a generic word. */
function parentGroupName(context: FamilyContext, key: ForeignKey, group: TableProfile['columns'][number]): string {
  const phrase = groupWords(columnPhrase(context, key.parent.name, group));
  const parent = parentNoun(context, key.parent);
  return !parent || phrase.split(' ').includes(parent) || !ownerless(phrase) ? phrase : `${parent} ${phrase}`;
}

/**
 * Groups of a parent that group its child rows (a country, a genre), fewest values first; not one the child has
 * itself (a cabinet's own country beside its party's): that needs no join.
 */
function parentGroups(context: FamilyContext, key: ForeignKey) {
  const own = new Set(key.child.columns.map((c) => c.name.toLowerCase()));
  return groupings(context, key.parent, { min: 3, max: 50 })
    .filter((g) => !own.has(g.name.toLowerCase()) && !sharedTitle(key.parent, g))
    .sort((a, b) => a.distinctCount - b.distinctCount);
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
      const through = throughColumn(keys, key, context);
      const name = measureName(context, key.child.name, measure);
      for (const group of parentGroups(context, key)) {
        const m = `c.${q(measure.name)}`;
        const program = new TaskProgram(context, 'lookup');
        const done = await program.sql(
          `SELECT p.${q(group.name)} AS ${q(group.name)}, ROUND(AVG(${m}), 4) AS ${q(`avg_${measure.name}`)}, COUNT(*) AS n FROM ${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON ${on(key)} WHERE ${m} IS NOT NULL GROUP BY p.${q(group.name)} HAVING COUNT(*) >= 5 ORDER BY AVG(${m}) DESC`,
          `Average ${name} of ${things(context, key.child, 'many')} per ${things(context, key.parent, 'one')} ${columnPhrase(context, key.parent.name, group)}${through}, highest first`,
          { label: `the ${things(context, key.parent, 'one')} ${columnPhrase(context, key.parent.name, group)} with the highest ${averagePhrase(name)}`, reading: { kind: 'string' } },
        );
        if (!done || done.rows.length < 3 || !clearLeader(done.rows, 1, 0.02)) continue;
        tasks.push(
          program.task({
            family: this.id,
            parameters: { child: key.child.name, column: key.childColumn.name, parent: key.parent.name, group: group.name, measure: measure.name },
            question: `Which ${parentGroupName(context, key, group)} has the highest ${averagePhrase(name)} across its ${things(context, key.child, 'many')}${through}, counting only ${pluralWords(groupWords(columnPhrase(context, key.parent.name, group)))} with at least 5 ${rowsNoun(context, key.child, 'many')}?`,
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

