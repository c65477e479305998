/**
 * A metric defined in a document: a rule, a rate or an aggregate definition that a Markdown section states, computed
 * per group and then compared across the groups or against a target the section also states. The question names the
 * section, never the rule's parameter, so the agent must read the document to know what to compute.
 *
 *   rule (a threshold or a comparison of columns: "an order is late when shipped more than 5 days after ordered"):
 *     1. rows meeting the rule                          → a count
 *     2. share meeting it per group                     → the group with the highest share (a clear leader)
 *     3. that group's share the section's target is on  → a percentage (or the share across all rows, without a target)
 *     4. its distance from the target (or from all rows) → percentage points: the answer
 *   rate ("cancellation rate = cancelled orders ÷ all orders"):
 *     1. the rate over all rows  2. the group with the highest rate  3. its lead over all rows, in points
 *   aggregate definition ("VIP customers have lifetime net spend above $2,000"):
 *     1. entities meeting it  2. the group with the highest share of them  3. their average aggregate in that group
 *   codes a data dictionary defines ("Born = animal was born in captivity", "H=Home Win"), the question naming the meaning:
 *     1. the share of rows with that code  2. the group with the highest share  3. its lead over all rows, in points
 */
import type { TableProfile } from '../../env/types';
import { aggregateDocumentRules, codeDefinitions, documentRules, documentTargets, rateDefinitions, ruleEntities, type CodeDefinition, type DocumentRule, type DocumentTarget, type RateDefinition } from '../documentRules';
import { escapeRegExp } from '../../text/regex';
import { addEdge, columnNode, sectionNode } from '../graph';
import type { TaskSpec } from '../types';
import { clearLeader, groupings, groupingsOf, groupNoun, humanize, keyGroupings, labelHint, noun, num, q, query, rowsNoun, sourceOf, sqlLiteral, tablePlace, TaskProgram, type FamilyContext, type Grouping, type TaskFamily } from './kit';

/** A group's share from fewer rows than this is noise, not a finding. */
const MIN_GROUP_ROWS = 20;
/** Tasks per rule, each over another grouping. */
const PER_RULE = 2;

const COMPOSITION = 'document-metric';

export const documentMetricFamily: TaskFamily = {
  id: COMPOSITION,
  description: 'A rule, rate or aggregate a document defines, computed per group, then the leading group compared with the whole or with the target the document states.',
  needs: 'a document section defining a rule, a rate or an aggregate over a table with a grouping of 2–50 values (or a key to a parent of 2–50 rows)',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    // Every definition gets its first task before any gets a second: a pool of one rule over three groupings says less.
    const plans: Array<{ groups: Grouping[]; make: (g: Grouping) => Promise<TaskSpec | undefined>; next: number; made: number }> = [];
    for (const rule of documentRules(context)) {
      const text = sectionText(context, rule.document, rule.section);
      const target = documentTargets(text).find((t) => t.percent > 0 && t.percent < 100);
      plans.push({ groups: await candidateGroupings(context, rule.table, rule.columns, text, target?.per), make: (g) => ruleTask(context, rule, g, target), next: 0, made: 0 });
    }
    for (const rate of await rateDefinitions(context)) {
      plans.push({ groups: await candidateGroupings(context, rate.table, rate.columns, sectionText(context, rate.document, rate.section)), make: (g) => rateTask(context, rate, g), next: 0, made: 0 });
    }
    for (const rule of await aggregateDocumentRules(context)) {
      const own = groupings(context, rule.table, { min: 2, max: 50 }).map((column) => ({ column, table: rule.table, ref: `c.${q(column.name)}` }));
      plans.push({ groups: own, make: (g) => entityTask(context, rule, g), next: 0, made: 0 });
    }
    const definitions = await codeDefinitions(context);
    for (const definition of definitions) {
      // A grouping that is itself a coded column ("which half-time result has the most draws") asks for a code, not a group.
      const coded = new Set([...definitions.filter((d) => d.table === definition.table).map((d) => d.column.toLowerCase()), ...context.semantics.dictionary.filter((e) => /\S\s*=\s*\S/.test(e.description)).map((e) => e.column.toLowerCase())]);
      const groups = (await candidateGroupings(context, definition.table, [definition.column], '')).filter((g) => !(g.table === definition.table && coded.has(g.column.name.toLowerCase()) || coded.has((g.column.originalName ?? '').toLowerCase())));
      plans.push({ groups, make: (g) => codeTask(context, definition, g), next: 0, made: 0 });
    }
    const tasks: TaskSpec[] = [];
    for (let round = 0; round < PER_RULE; round++) {
      for (const plan of plans) {
        // One more task from this plan: the next grouping that makes one.
        while (plan.made <= round && plan.next < plan.groups.length && tasks.length < context.maxPerFamily) {
          const task = await plan.make(plan.groups[plan.next++]);
          if (task && !tasks.some((t) => t.id === task.id)) {
            tasks.push(task);
            plan.made++;
          }
        }
      }
    }
    return tasks;
  },
};

/** The text of a document section. */
function sectionText(context: FamilyContext, document: string, section: string): string {
  return context.documents.find((d) => d.name === document)?.sections.find((s) => s.heading === section)?.text ?? '';
}

/**
 * Groupings for a rule's table: the groups a target is stated per first ("per store"), then a parent's rows across a
 * key (each store), then the table's own dimensions and its parents'. Never a column the rule reads or whose values
 * the section names (the section's "cancelled or still processing" orders are outside its rule), and never a
 * parent's column that only renames the parent's rows (a warehouse's city, one per warehouse).
 */
async function candidateGroupings(context: FamilyContext, table: TableProfile, ruleColumns: string[], text: string, per?: string): Promise<Grouping[]> {
  const reads = new Set(ruleColumns.map((c) => c.toLowerCase()));
  const byKey = keyGroupings(context, table, { min: 2, max: 50 });
  const renames = (g: Grouping) => g.via !== undefined && byKey.some((k) => k.via.parent.name === g.via!.parent.name) && g.column.distinctCount >= g.via.parent.rowCount;
  const kept: Grouping[] = [];
  for (const g of [...byKey, ...groupingsOf(context, table, { min: 2, max: 50 }).filter((g) => !renames(g))]) {
    if (g.table === table && reads.has(g.column.name.toLowerCase())) continue;
    if (g.table === table && (await namesValues(context, table, g.column.name, text))) continue;
    kept.push(g);
  }
  const named = (g: Grouping) => per !== undefined && groupNoun(g, context).toLowerCase() === per.replace(/s$/, '');
  return [...kept.filter(named), ...kept.filter((g) => !named(g))];
}

/** Whether a text names a value of a column as a word ("cancelled", "processing"). */
async function namesValues(context: FamilyContext, table: TableProfile, column: string, text: string): Promise<boolean> {
  const values = await query(context, `SELECT DISTINCT ${q(column)} FROM ${q(table.name)} WHERE ${q(column)} IS NOT NULL LIMIT 50`);
  const lower = text.toLowerCase();
  return (values ?? []).some(([v]) => typeof v === 'string' && v.length >= 4 && new RegExp(`\\b${escapeRegExp(v.toLowerCase())}\\b`).test(lower));
}

/** A rule's condition over alias `c`: its quoted columns qualified (`"shipped_at"` → `c."shipped_at"`). */
function qualified(condition: string, columns: string[]): string {
  return columns.reduce((sql, column) => sql.split(q(column)).map((part, i, parts) => (i < parts.length - 1 && !part.endsWith('.') ? `${part}c.` : part)).join(q(column)), condition);
}

const normalTerm = (term: string) => term.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** "that have a shipped at value" for the rule's columns with gaps; empty when every row has them. */
function populationWords(table: TableProfile, columns: string[]): string {
  const gaps = columns.filter((name) => (table.columns.find((c) => c.name === name)?.nullFraction ?? 0) > 0).map(humanize);
  if (gaps.length === 0) return '';
  return gaps.length === 1 ? ` that have a ${gaps[0]} value` : ` that have both ${gaps.join(' and ')} values`;
}

/** Groups of the population (before the minimum size): more than kept means the question states the minimum. */
async function groupCount(context: FamilyContext, from: string, where: string, ref: string): Promise<number> {
  const rows = await query(context, `SELECT COUNT(DISTINCT ${ref}) FROM ${from} WHERE ${where} AND ${ref} IS NOT NULL`);
  return num(rows?.[0]?.[0] ?? 0);
}

function minimumWords(kept: number, all: number, groupWord: string, rows: string): string {
  return kept < all ? ` Only count ${noun(groupWord.replace(/ /g, '_'), 'many')} with at least ${MIN_GROUP_ROWS} of those ${rows}.` : '';
}

function recordEdges(context: FamilyContext, document: string, section: string, table: string, columns: string[], note: string): void {
  if (!context.graph) return;
  for (const column of columns) addEdge(context.graph, { from: sectionNode(document, section), to: columnNode(table, column), kind: 'references', note: note.slice(0, 200) });
}

async function ruleTask(context: FamilyContext, rule: DocumentRule, group: Grouping, target: DocumentTarget | undefined): Promise<TaskSpec | undefined> {
  const table = rule.table;
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, group);
  } catch {
    return undefined;
  }
  const condition = qualified(rule.condition, rule.columns);
  const population = rule.columns.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ') || '1 = 1';
  const rows = noun(table.name, 'many');
  const term = rule.term ?? 'meeting the rule';
  const groupWord = groupNoun(group, context);
  const at = `${rule.document} § ${rule.section}`;
  const program = new TaskProgram(context, COMPOSITION);

  const first = await program.sql(`SELECT COUNT(*) AS matching FROM ${q(table.name)} AS c WHERE ${condition}`, `${rows} that are ${term} under the rule of ${at}: ${rule.condition}`, {
    label: `the number of ${rows} that are ${term} under the rule of ${at}`,
    reading: { kind: 'number' },
  });
  if (!first || first.key.type !== 'number' || first.key.value <= 0) return undefined;

  const share = (positive: boolean) => `100.0 * SUM(CASE WHEN ${condition} THEN ${positive ? 1 : 0} ELSE ${positive ? 0 : 1} END) / COUNT(*)`;
  const where = `${population} AND ${group.ref} IS NOT NULL`;
  const second = await program.sql(
    `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(${share(true)}, 2) AS share_pct, COUNT(*) AS n FROM ${source.from} WHERE ${where} GROUP BY ${group.ref} HAVING COUNT(*) >= ${MIN_GROUP_ROWS} ORDER BY ${share(true)} DESC, 1`,
    `share of ${rows} that are ${term} per ${groupWord}, highest first (${groupWord}s with at least ${MIN_GROUP_ROWS} ${rows})`,
    { label: `the ${groupWord} with the highest share of ${rows} that are ${term}`, reading: { kind: 'string' }, uses: [0] },
  );
  if (!second || second.rows.length < 2 || !clearLeader(second.rows) || num(second.rows[0][1]) >= 100) return undefined;
  const top = second.rows[0][0] as string | number;
  const kept = second.rows.length;
  const all = await groupCount(context, source.from, where, group.ref);
  const inTop = `${group.ref} = ${sqlLiteral(top)}`;
  const among = populationWords(table, rule.columns);
  const intro = `Under the rule in the "${rule.section}" section of ${rule.document}, which ${groupWord}${labelHint(group)} has the highest share of ${rows} that are ${term} among its ${rows}${among}`;

  let question: string;
  if (target) {
    const complement = normalTerm(target.term) !== normalTerm(rule.term ?? '');
    const third = await program.sql(
      `SELECT ROUND(${share(!complement)}, 2) AS target_share_pct FROM ${source.from} WHERE ${population} AND ${inTop}`,
      `the ${target.term} share of the ${groupWord} ${top}'s ${rows}, in percent`,
      { label: `the ${target.term} share of the ${groupWord} ${top}`, reading: { kind: 'number', decimals: 2 }, uses: [1], carries: [String(top)] },
    );
    if (!third || third.key.type !== 'number') return undefined;
    const fourth = await program.sql(`SELECT ROUND(${third.key.value} - ${target.percent}, 2) AS points_from_target`, `the ${groupWord} ${top}'s ${target.term} share less the ${target.term} target of ${at} (${target.percent}%)`, {
      label: `how far the ${groupWord} ${top}'s ${target.term} share is from the ${target.term} target, in percentage points`,
      reading: { kind: 'number', decimals: 2 },
      uses: [2],
      carries: [String(third.key.value)],
    });
    if (!fourth || fourth.key.type !== 'number' || fourth.key.value === 0) return undefined;
    question = `${intro}, and by how many percentage points is its ${target.term} share above (positive) or below (negative) the ${target.term} target stated there?${minimumWords(kept, all, groupWord, rows)} Round to 2 decimals.`;
  } else {
    const third = await program.sql(`SELECT ROUND(${share(true)}, 2) AS overall_share_pct FROM ${q(table.name)} AS c WHERE ${population}`, `share of all ${rows} that are ${term}, in percent`, {
      label: `the share of all ${rows} that are ${term}`,
      reading: { kind: 'number', decimals: 2 },
      uses: [0],
    });
    if (!third || third.key.type !== 'number') return undefined;
    // The difference of the unrounded shares: rounding each first could miss the rounded difference by 0.01.
    const fourth = await program.sql(
      `SELECT ROUND((SELECT ${share(true)} FROM ${source.from} WHERE ${population} AND ${inTop}) - (SELECT ${share(true)} FROM ${q(table.name)} AS c WHERE ${population}), 2) AS points_above_overall`,
      `the ${groupWord} ${top}'s share less the share across all ${rows}, in percentage points`,
      { label: `how many percentage points the ${groupWord} ${top}'s share is above the share across all ${rows}`, reading: { kind: 'number', decimals: 2 }, uses: [1, 2], carries: [String(top)] },
    );
    if (!fourth || fourth.key.type !== 'number' || fourth.key.value <= 0) return undefined;
    question = `${intro}, and by how many percentage points does that share exceed the share across all ${rows}${among}?${minimumWords(kept, all, groupWord, rows)} Round to 2 decimals.`;
  }
  recordEdges(context, rule.document, rule.section, table.name, rule.columns, rule.sentence);
  return program.task({
    family: COMPOSITION,
    parameters: { kind: 'rule', document: rule.document, section: rule.section, table: table.name, condition: rule.condition, group: `${group.table.name}.${group.column.name}`, target: target?.percent ?? null },
    question,
    tables: source.tables,
    dependency: 'document-parameter',
    documents: [{ document: rule.document, section: rule.section }],
    needs: documentMetricFamily.needs,
  });
}

async function rateTask(context: FamilyContext, rate: RateDefinition, group: Grouping): Promise<TaskSpec | undefined> {
  const table = rate.table;
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, group);
  } catch {
    return undefined;
  }
  const numerator = qualified(rate.numerator, rate.columns);
  const denominator = rate.denominator ? qualified(rate.denominator, rate.columns) : undefined;
  const rows = noun(table.name, 'many');
  const groupWord = groupNoun(group, context);
  const at = `${rate.document} § ${rate.section}`;
  const value = `100.0 * SUM(CASE WHEN ${numerator} THEN 1 ELSE 0 END) / COUNT(*)`;
  const program = new TaskProgram(context, COMPOSITION);

  const first = await program.sql(`SELECT ROUND(${value}, 2) AS rate_pct FROM ${q(table.name)} AS c${denominator ? ` WHERE ${denominator}` : ''}`, `the ${rate.name} of ${at} over all ${rows}, in percent: ${rate.sentence}`, {
    label: `the ${rate.name} across all ${rows}`,
    reading: { kind: 'number', decimals: 2 },
  });
  if (!first || first.key.type !== 'number' || first.key.value <= 0 || first.key.value >= 100) return undefined;

  const where = `${denominator ? `${denominator} AND ` : ''}${group.ref} IS NOT NULL`;
  const second = await program.sql(
    `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(${value}, 2) AS rate_pct, COUNT(*) AS n FROM ${source.from} WHERE ${where} GROUP BY ${group.ref} HAVING COUNT(*) >= ${MIN_GROUP_ROWS} ORDER BY ${value} DESC, 1`,
    `the ${rate.name} per ${groupWord}, highest first (${groupWord}s with at least ${MIN_GROUP_ROWS} ${rows})`,
    { label: `the ${groupWord} with the highest ${rate.name}`, reading: { kind: 'string' } },
  );
  if (!second || second.rows.length < 2 || !clearLeader(second.rows)) return undefined;
  const top = second.rows[0][0] as string | number;
  const kept = second.rows.length;
  const all = await groupCount(context, source.from, where, group.ref);

  const third = await program.sql(
    `SELECT ROUND((SELECT ${value} FROM ${source.from} WHERE ${where} AND ${group.ref} = ${sqlLiteral(top)}) - (SELECT ${value} FROM ${q(table.name)} AS c${denominator ? ` WHERE ${denominator}` : ''}), 2) AS points_above_overall`,
    `the ${groupWord} ${top}'s ${rate.name} less the ${rate.name} across all ${rows}, in percentage points`,
    { label: `how many percentage points the ${groupWord} ${top}'s ${rate.name} is above the ${rate.name} across all ${rows}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [String(top)] },
  );
  if (!third || third.key.type !== 'number' || third.key.value <= 0) return undefined;
  recordEdges(context, rate.document, rate.section, table.name, rate.columns, rate.sentence);
  return program.task({
    family: COMPOSITION,
    parameters: { kind: 'rate', document: rate.document, section: rate.section, table: table.name, numerator: rate.numerator, group: `${group.table.name}.${group.column.name}` },
    question: `Using the definition in the "${rate.section}" section of ${rate.document}, which ${groupWord}${labelHint(group)} has the highest ${rate.name}, and by how many percentage points does it exceed the ${rate.name} across all ${rows}?${minimumWords(kept, all, groupWord, rows)} Round to 2 decimals.`,
    tables: source.tables,
    dependency: 'document-parameter',
    documents: [{ document: rate.document, section: rate.section }],
    needs: documentMetricFamily.needs,
  });
}

async function entityTask(context: FamilyContext, rule: DocumentRule, group: Grouping): Promise<TaskSpec | undefined> {
  const entities = ruleEntities(rule);
  const table = rule.table;
  if (!entities || !table.columns.some((c) => c.name === entities.keyColumn)) return undefined;
  const key = q(entities.keyColumn);
  const g = q(group.column.name);
  // Each entity in one group: an entity listed twice with two regions has no region to count it in.
  const split = await query(context, `SELECT COUNT(*) FROM (SELECT ${key} FROM ${q(table.name)} WHERE ${g} IS NOT NULL GROUP BY ${key} HAVING COUNT(DISTINCT ${g}) > 1)`);
  if (!split || num(split[0]?.[0] ?? 1) !== 0) return undefined;
  const metric = rule.condition.replace(/\s*[<>=]+\s*-?[\d.]+$/, '');
  const term = rule.term ?? `${noun(table.name, 'many')} meeting the rule`;
  const entityRows = noun(table.name, 'many');
  const groupWord = groupNoun(group, context);
  const at = `${rule.document} § ${rule.section}`;
  const program = new TaskProgram(context, COMPOSITION);

  const first = await program.sql(rule.sql!, `${term} under ${at}: ${rule.condition}`, { label: `the number of ${term} under ${at}`, reading: { kind: 'number' } });
  if (!first || first.key.type !== 'number' || first.key.value <= 0) return undefined;

  const members = `WITH matching AS (${entities.sql}), e AS (SELECT DISTINCT ${key} AS entity, ${g} AS grp FROM ${q(table.name)} WHERE ${g} IS NOT NULL)`;
  const share = '100.0 * COUNT(matching.entity) / COUNT(*)';
  const second = await program.sql(
    `${members} SELECT e.grp AS ${g}, ROUND(${share}, 2) AS share_pct, COUNT(*) AS n FROM e LEFT JOIN matching ON matching.entity = e.entity GROUP BY e.grp HAVING COUNT(*) >= ${MIN_GROUP_ROWS} ORDER BY ${share} DESC, 1`,
    `share of ${entityRows} that are ${term} per ${groupWord}, highest first (each ${humanize(entities.keyColumn)} once)`,
    { label: `the ${groupWord} with the highest share of ${term}`, reading: { kind: 'string' }, uses: [0] },
  );
  if (!second || second.rows.length < 2 || !clearLeader(second.rows) || num(second.rows[0][1]) >= 100) return undefined;
  const top = second.rows[0][0] as string | number;
  const kept = second.rows.length;
  const all = await groupCount(context, q(table.name), '1 = 1', g);

  const third = await program.sql(
    `${members} SELECT ROUND(AVG(matching.total), 2) AS average_total FROM matching JOIN e ON e.entity = matching.entity WHERE e.grp = ${sqlLiteral(top)}`,
    `the average ${metric} of the ${term} in the ${groupWord} ${top}`,
    { label: `the average ${metric} of the ${term} in the ${groupWord} ${top}`, reading: { kind: 'number', decimals: 2 }, uses: [1], carries: [String(top)] },
  );
  if (!third || third.key.type !== 'number') return undefined;
  return program.task({
    family: COMPOSITION,
    parameters: { kind: 'aggregate', document: rule.document, section: rule.section, table: table.name, condition: rule.condition, group: group.column.name },
    question: `Using the definitions in the "${rule.section}" section of ${rule.document}, which ${groupWord} has the highest share of ${term} among its ${entityRows} (each ${humanize(entities.keyColumn)} counted once), and what is the average ${metric} of the ${term} in it?${minimumWords(kept, all, groupWord, entityRows)} Round to 2 decimals.`,
    tables: [...new Set([table.name, ...(rule.tables ?? [])])],
    dependency: 'document-parameter',
    documents: [{ document: rule.document, section: rule.section }],
    needs: documentMetricFamily.needs,
  });
}

/** "In the "season_all" table, ": a table whose name a question cannot write in words (a union of files, a number in it). */
function inTable(context: FamilyContext, table: TableProfile): string {
  // A union of files by its files ("In all 12 monthly files, "), as the rest of the pool calls it.
  if (context.semantics.partitions.some((p) => p.view === table.name)) return `In ${tablePlace(context, table)}, `;
  return /\d/.test(table.name) ? `In the "${table.name}" table, ` : '';
}

async function codeTask(context: FamilyContext, definition: CodeDefinition, group: Grouping): Promise<TaskSpec | undefined> {
  const table = definition.table;
  let source: { from: string; tables: string[] };
  try {
    source = sourceOf(table, group);
  } catch {
    return undefined;
  }
  const column = table.columns.find((c) => c.name === definition.column)!;
  const c = `c.${q(column.name)}`;
  const rows = rowsNoun(context, table);
  const columnWords = humanize(column.originalName || column.name);
  const groupWord = groupNoun(group, context);
  const program = new TaskProgram(context, COMPOSITION);
  // The first code (in the dictionary's order) that a real share of the rows carries.
  for (const { code, meaning } of definition.codes) {
    const value = `100.0 * SUM(CASE WHEN CAST(${c} AS TEXT) = ${sqlLiteral(code)} THEN 1 ELSE 0 END) / COUNT(*)`;
    const overall = await query(context, `SELECT ${value} FROM ${q(table.name)} AS c WHERE ${c} IS NOT NULL`);
    const share = num(overall?.[0]?.[0] ?? NaN);
    if (!(share >= 3 && share <= 97)) continue;
    const first = await program.sql(`SELECT ROUND(${value}, 2) AS share_pct FROM ${q(table.name)} AS c WHERE ${c} IS NOT NULL`, `share of ${rows} whose ${columnWords} is ${code} (${meaning}, by ${definition.document}), in percent`, {
      label: `the share of ${rows} whose ${columnWords} is the code for "${meaning}"`,
      reading: { kind: 'number', decimals: 2 },
    });
    if (!first) return undefined;
    const where = `${c} IS NOT NULL AND ${group.ref} IS NOT NULL`;
    const second = await program.sql(
      `SELECT ${group.ref} AS ${q(group.column.name)}, ROUND(${value}, 2) AS share_pct, COUNT(*) AS n FROM ${source.from} WHERE ${where} GROUP BY ${group.ref} HAVING COUNT(*) >= ${MIN_GROUP_ROWS} ORDER BY ${value} DESC, 1`,
      `the share of ${rows} whose ${columnWords} is ${code} per ${groupWord}, highest first (${groupWord}s with at least ${MIN_GROUP_ROWS} ${rows})`,
      { label: `the ${groupWord} with the highest share of ${rows} whose ${columnWords} is the code for "${meaning}"`, reading: { kind: 'string' }, uses: [0] },
    );
    if (!second || second.rows.length < 2 || !clearLeader(second.rows) || num(second.rows[0][1]) >= 100) return undefined;
    const top = second.rows[0][0] as string | number;
    const kept = second.rows.length;
    const all = await groupCount(context, source.from, where, group.ref);
    const third = await program.sql(
      `SELECT ROUND((SELECT ${value} FROM ${source.from} WHERE ${where} AND ${group.ref} = ${sqlLiteral(top)}) - (SELECT ${value} FROM ${q(table.name)} AS c WHERE ${c} IS NOT NULL), 2) AS points_above_overall`,
      `the ${groupWord} ${top}'s share less the share across all ${rows}, in percentage points`,
      { label: `how many percentage points the ${groupWord} ${top}'s share is above the share across all ${rows}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [String(top)] },
    );
    if (!third || third.key.type !== 'number' || third.key.value <= 0) return undefined;
    return program.task({
      family: COMPOSITION,
      parameters: { kind: 'code', document: definition.document, table: table.name, column: column.name, code, group: `${group.table.name}.${group.column.name}` },
      question: `${inTable(context, table)}${inTable(context, table) ? 'using' : 'Using'} the ${columnWords} codes that ${definition.document} defines, which ${groupWord}${labelHint(group)} has the highest share of ${rows} whose ${columnWords} is the code for "${meaning}", and by how many percentage points does that share exceed the share across all ${rows}?${minimumWords(kept, all, groupWord, rows)} Round to 2 decimals.`,
      tables: source.tables,
      dependency: 'document-parameter',
      documents: [{ document: definition.document, ...(definition.section ? { section: definition.section } : {}) }],
      needs: documentMetricFamily.needs,
    });
  }
  return undefined;
}
