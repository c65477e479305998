/**
 * Data-quality facts: outliers of a measure, duplicate keys, and reconciliations — stated parent
 * totals that disagree with their child rows, and composite keys missing from the table that lists them.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { singular } from '../../text/words';
import { addEdge, columnNode } from '../graph';
import type { TaskSpec } from '../types';
import { things, article, isAboveIts, isGeneratedKey, foreignKeys, humanize, measureName, measures, mostlyOneValue, noun, num, q, query, semanticsOf, taskTables, TaskProgram, type FamilyContext, type TaskFamily } from './kit';

export const outlierFamily: TaskFamily = {
  id: 'outlier',
  description: 'How many rows have a measure more than 3 standard deviations from its mean.',
  needs: 'a measure with outliers',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      let perTable = 0;
      for (const measure of measures(context, table)) {
        if (tasks.length >= context.maxPerFamily || perTable >= 2) break;
        const m = q(measure.name);
        const name = measureName(context, table.name, measure);
        // A measure zero on most rows (sequences counted per place, day and clade): its "outliers" are the rows that are
        // not zero, no finding about the spread.
        if (await mostlyOneValue(context, table, measure)) continue;
        const program = new TaskProgram(context, 'lookup');
        // The distance in standard deviations as the question states it (3, not its square): a literal the agent writes
        // is one the question shows. SQRT is in sql.js and in Debian's sqlite3 (3.40, math functions on).
        const done = await program.sql(
          `WITH s AS (SELECT AVG(${m}) AS mu, AVG(${m} * ${m}) - AVG(${m}) * AVG(${m}) AS var FROM ${q(table.name)} WHERE ${m} IS NOT NULL) SELECT COUNT(*) AS outliers FROM ${q(table.name)}, s WHERE ${m} IS NOT NULL AND ABS(${m} - s.mu) > 3 * SQRT(s.var)`,
          `${things(context, table, 'many')} whose ${name} is more than 3 standard deviations from the mean`,
          { label: `the number of ${things(context, table, 'many')} with an outlying ${name}`, reading: { kind: 'number' } },
        );
        if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
        tasks.push(program.task({ family: this.id, parameters: { table: table.name, measure: measure.name, z: 3 }, question: `For how many ${things(context, table, 'many')} ${isAboveIts(name).replace(/ above .*/, '')} the ${name} more than 3 standard deviations away from ${isAboveIts(name).split(' ').pop()} mean (population standard deviation)?`, tables: [table.name], dependency: 'outlier', needs: this.needs }));
        perTable++;
      }
      if (tasks.length >= context.maxPerFamily) break;
    }
    return tasks;
  },
};

export const dataQualityFamily: TaskFamily = {
  id: 'data-quality',
  // Which column has the most NULLs is a question about the file, not about what the data describes (a blind review
  // of round 8 counted it meaningless); missing values are asked about where cleaning changes an answer (cleanAggregate.ts).
  description: 'Duplicate keys (ids that appear more than once in a table that should list each once).',
  needs: 'a key that repeats',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      // Duplicate keys: the table's own identifier (named after the table, or its first column) that is not unique.
      const own = table.columns.find((c) => semanticsOf(context, table.name, c.name)?.role.value === 'identifier' && !c.candidateKey && !isGeneratedKey(c.name) && (c.name.toLowerCase().replace(/_/g, '').startsWith(singular(table.name).replace(/_/g, '')) || c === table.columns[0]) && c.distinctCount >= 0.8 * table.rowCount);
      if (own) {
        const program = new TaskProgram(context, 'lookup');
        const done = await program.sql(`SELECT COUNT(*) AS duplicated_ids FROM (SELECT ${q(own.name)} FROM ${q(table.name)} WHERE ${q(own.name)} IS NOT NULL GROUP BY 1 HAVING COUNT(*) > 1)`, `${humanize(own.name)} values that occur more than once in ${things(context, table, 'many')}`, { label: `the number of repeated ${humanize(own.name)} values`, reading: { kind: 'number' } });
        if (done && done.key.type === 'number' && done.key.value > 0) {
          tasks.push(program.task({ family: this.id, parameters: { kind: 'duplicates', table: table.name, column: own.name }, question: `How many ${humanize(own.name)} values appear more than once among the ${things(context, table, 'many')}?`, tables: [table.name], dependency: 'data-quality', needs: this.needs }));
        }
      }
    }
    return tasks;
  },
};

const isNumeric = (c: ColumnProfile) => c.type === 'integer' || c.type === 'real';

export const reconciliationFamily: TaskFamily = {
  id: 'reconciliation',
  description: 'Parent totals or counts that disagree with their child rows (e.g. order totals vs the sum of order lines), and composite keys missing from the table that lists them.',
  needs: 'a parent total that its child rows should add up to, or two tables sharing a composite key',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const found of await statedTotals(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const { key, column, expression } = found;
      const program = new TaskProgram(context, 'lookup');
      const done = await program.sql(
        `SELECT COUNT(*) AS disagreements FROM (${perParent(key, column, expression.sql)}) WHERE ABS(stated - computed) > 0.01`,
        `${things(context, key.parent, 'many')} whose ${humanize(column.name)} differs from ${expression.label} of their ${things(context, key.child, 'many')} by more than 0.01`,
        { label: `the number of ${things(context, key.parent, 'many')} whose ${humanize(column.name)} disagrees with their ${things(context, key.child, 'many')}`, reading: { kind: 'number' } },
      );
      if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
      tasks.push(
        program.task({
          family: this.id,
          parameters: { parent: key.parent.name, column: column.name, child: key.child.name, expression: expression.sql },
          question: `For how many ${things(context, key.parent, 'many')} does the ${humanize(column.name)} differ by more than 0.01 from ${expression.label} of their ${things(context, key.child, 'many')}?`,
          tables: [key.child.name, key.parent.name],
          dependency: 'reconciliation',
          needs: this.needs,
        }),
      );
    }
    for (const key of await compositeKeys(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const on = key.columns.map((c) => `c.${q(c)} = p.${q(c)}`).join(' AND ');
      const pair = key.columns.map(humanize).join(', ');
      const program = new TaskProgram(context, 'lookup');
      const done = await program.sql(
        `SELECT COUNT(*) AS unmatched_rows FROM ${q(key.child.name)} AS c LEFT JOIN ${q(key.parent.name)} AS p ON ${on} WHERE p.${q(key.columns[0])} IS NULL AND ${key.columns.map((c) => `c.${q(c)} IS NOT NULL`).join(' AND ')}`,
        `${things(context, key.child, 'many')} whose (${pair}) combination is missing from ${things(context, key.parent, 'many')}`,
        { label: `the number of ${things(context, key.child, 'many')} with an unlisted (${pair})`, reading: { kind: 'number' } },
      );
      if (!done || done.key.type !== 'number' || done.key.value === 0) continue;
      if (context.graph) {
        for (const c of key.columns) addEdge(context.graph, { from: columnNode(key.child.name, c), to: columnNode(key.parent.name, c), kind: 'reconciliation', note: `(${key.columns.join(', ')}) of ${key.child.name} vs the same combination in ${key.parent.name}, where it is unique: ${(key.containment * 100).toFixed(1)}% of rows match` });
      }
      tasks.push(
        program.task({ family: this.id, parameters: { kind: 'composite', parent: key.parent.name, child: key.child.name, columns: key.columns }, question: `How many ${things(context, key.child, 'many')} have a (${pair}) combination that does not appear among the ${things(context, key.parent, 'many')}?`, tables: [key.child.name, key.parent.name], dependency: 'reconciliation', needs: this.needs }),
      );
    }
    return tasks;
  },
};

/** One row per parent: its stated value and what its child rows add up to. */
export function perParent(key: ReturnType<typeof foreignKeys>[number], column: ColumnProfile, expression: string): string {
  return `SELECT p.${q(key.parentColumn.name)} AS parent_key, p.${q(column.name)} AS stated, ${expression} AS computed FROM ${q(key.parent.name)} AS p JOIN ${q(key.child.name)} AS c ON c.${q(key.childColumn.name)} = p.${q(key.parentColumn.name)} WHERE p.${q(column.name)} IS NOT NULL GROUP BY p.${q(key.parentColumn.name)}`;
}

export interface StatedTotal {
  key: ReturnType<typeof foreignKeys>[number];
  column: ColumnProfile;
  expression: { sql: string; label: string };
  matches: number;
  total: number;
}

/**
 * Parent columns that state what their child rows add up to (an order's total and its lines): the expression over
 * the children (a count, a sum, a product of two measures, less a discount) that matches most parents. A real
 * reconciliation holds for most parents; only then are the disagreements meaningful.
 */
export async function statedTotals(context: FamilyContext): Promise<StatedTotal[]> {
  const found: StatedTotal[] = [];
  for (const key of foreignKeys(context)) {
    const childMeasures = key.child.columns.filter((c) => isNumeric(c) && semanticsOf(context, key.child.name, c.name)?.role.value === 'measure' && c.nullFraction < 0.5);
    const discount = childMeasures.find((c) => /discount/i.test(c.name) && typeof c.max === 'number' && c.max <= 1);
    const plain = childMeasures.filter((c) => c !== discount);
    const expressions: Array<{ sql: string; label: string }> = [{ sql: 'COUNT(*)', label: `the number of ${things(context, key.child, 'many')}` }];
    const col = (c: ColumnProfile) => `c.${q(c.name)}`;
    for (const a of plain) expressions.push({ sql: `SUM(${col(a)})`, label: `the sum of ${humanize(a.name)}` });
    for (let i = 0; i < plain.length; i++) {
      for (let j = i + 1; j < plain.length; j++) {
        const product = `${col(plain[i])} * ${col(plain[j])}`;
        expressions.push({ sql: `SUM(${product})`, label: `the sum of ${humanize(plain[i].name)} × ${humanize(plain[j].name)}` });
        if (discount) expressions.push({ sql: `SUM(${product} * (1 - COALESCE(${col(discount)}, 0)))`, label: `the sum of ${humanize(plain[i].name)} × ${humanize(plain[j].name)} × (1 − ${humanize(discount.name)})` });
      }
    }
    const parentMeasures = key.parent.columns.filter((c) => isNumeric(c) && semanticsOf(context, key.parent.name, c.name)?.role.value === 'measure' && c.nullFraction < 0.5 && /total|amount|sum|count|items|lines/i.test(c.name));
    let best: StatedTotal | undefined;
    for (const column of parentMeasures) {
      for (const expression of expressions) {
        const rows = await query(context, `SELECT SUM(ABS(stated - computed) <= 0.01), COUNT(*) FROM (${perParent(key, column, expression.sql)})`);
        const matches = num(rows?.[0]?.[0] ?? 0);
        const total = num(rows?.[0]?.[1] ?? 0);
        if (total >= 10 && matches / total >= 0.5 && matches < total && (!best || matches / total > best.matches / best.total)) best = { key, column, expression, matches, total };
      }
    }
    if (!best) continue;
    if (context.graph) addEdge(context.graph, { from: columnNode(key.parent.name, best.column.name), to: columnNode(key.child.name, key.childColumn.name), kind: 'reconciliation', note: `${key.parent.name}.${best.column.name} = ${best.expression.sql} over ${key.child.name} for ${best.matches} of ${best.total} parents` });
    found.push(best);
  }
  return found;
}

/**
 * Composite keys across files: two or more text/integer columns two tables share by name, unique together in one
 * table (the parent, e.g. a route list keyed by origin and destination) and repeated in the other (the child, one
 * row per flight), with most child combinations found in the parent. Not-found combinations are counts that disagree.
 */
export async function compositeKeys(context: FamilyContext): Promise<Array<{ child: TableProfile; parent: TableProfile; columns: string[]; containment: number }>> {
  const tables = taskTables(context).filter((t) => t.kind === 'table');
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
