/**
 * Correlations between two measures, within a table or across a key (a child measure against its parent's), never
 * between a column and its own relative (a total and one of its factors), and only where the correlation is more
 * than noise (a t-test of r: |t| ≥ 2, about p < 0.05).
 */
import { DEFAULT_MAX_ROWS } from '../../sandbox/limits';
import type { TaskSpec } from '../types';
import { things, rowName, tableMention, tablePlace, parentNoun, derivedPair, constructedLink, NEAR_IDENTITY_R, pearsonSql, foreignKeys, measureName, measures, noun, num, q, query, taskTables, TaskProgram, type FamilyContext, type TaskFamily } from './kit';

/** Student's t of a Pearson r over n pairs: |t| ≥ 2 is about p < 0.05 for n ≥ 30. */
export function correlationIsSignal(r: number, n: number): boolean {
  // |r| ≥ 0.999 over all rows: one column is computed from the other (a total and one of its parts); 0.97, one holds
  // the other.
  if (!Number.isFinite(r) || n < 10 || Math.abs(r) >= NEAR_IDENTITY_R) return false;
  const t = (r * Math.sqrt(n - 2)) / Math.sqrt(1 - r * r);
  return Math.abs(t) >= 2 && Math.abs(r) >= 0.1;
}

interface Pair {
  from: string;
  a: string;
  b: string;
  tables: string[];
  aLabel: string;
  bLabel: string;
  over: string;
  params: Record<string, unknown>;
}

function pairs(context: FamilyContext): Pair[] {
  const found: Pair[] = [];
  for (const key of foreignKeys(context).filter((k) => k.byName)) {
    const childMeasure = measures(context, key.child)[0];
    const parentMeasure = measures(context, key.parent).find((c) => c.name.toLowerCase() !== childMeasure?.name.toLowerCase());
    if (!childMeasure || !parentMeasure) continue;
    // "the income of their country" needs a parent whose rows are things, other than the child's own rows.
    const parent = parentNoun(context, key.parent);
    if (!parent || parent === parentNoun(context, key.child)) continue;
    if (derivedPair(context, { table: key.child.name, column: childMeasure.name }, { table: key.parent.name, column: parentMeasure.name })) continue;
    found.push({
      from: `${q(key.child.name)} AS c JOIN ${q(key.parent.name)} AS p ON c.${q(key.childColumn.name)} = p.${q(key.parentColumn.name)}`,
      a: `c.${q(childMeasure.name)}`,
      b: `p.${q(parentMeasure.name)}`,
      tables: [key.child.name, key.parent.name],
      aLabel: `the ${measureName(context, key.child.name, childMeasure)} of ${things(context, key.child, 'many')}`,
      bLabel: `the ${measureName(context, key.parent.name, parentMeasure)} of their ${parent}`,
      over: things(context, key.child, 'many'),
      params: { child: key.child.name, parent: key.parent.name, a: childMeasure.name, b: parentMeasure.name },
    });
  }
  for (const table of taskTables(context)) {
    const ms = measures(context, table);
    for (let i = 0; i < ms.length; i++) {
      for (let j = i + 1; j < ms.length; j++) {
        if (derivedPair(context, { table: table.name, column: ms[i].name }, { table: table.name, column: ms[j].name })) continue;
        found.push({ from: `${q(table.name)} AS c`, a: `c.${q(ms[i].name)}`, b: `c.${q(ms[j].name)}`, tables: [table.name], aLabel: measureName(context, table.name, ms[i]), bLabel: measureName(context, table.name, ms[j]), over: things(context, table, 'many'), params: { table: table.name, a: ms[i].name, b: ms[j].name } });
      }
    }
  }
  return found;
}

/** A pair within one table whose link is its construction (see constructedLink). */
async function linkedByConstruction(context: FamilyContext, pair: Pair): Promise<boolean> {
  const table = context.profile.tables.find((t) => t.name === pair.params.table);
  const a = table?.columns.find((c) => c.name === pair.params.a);
  const b = table?.columns.find((c) => c.name === pair.params.b);
  return table !== undefined && a !== undefined && b !== undefined && (await constructedLink(context, table, a, b));
}

export const sqlCorrelationFamily: TaskFamily = {
  id: 'correlation',
  description: 'The Pearson correlation between two measures, within one table or across a key (a child measure against its parent measure), where it is more than noise.',
  needs: 'two measures that are not computed one from the other, with a correlation that passes a t-test',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    const perTable = new Map<string, number>();
    for (const pair of pairs(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      if ((perTable.get(pair.tables.join()) ?? 0) >= 1) continue;
      if (pair.tables.length === 1 && (await linkedByConstruction(context, pair))) continue;
      const program = new TaskProgram(context, 'lookup');
      const done = await program.sql(
        `SELECT ROUND(${pearsonSql(pair.a, pair.b)}, 4) AS pearson_r, COUNT(*) AS pairs FROM ${pair.from} WHERE ${pair.a} IS NOT NULL AND ${pair.b} IS NOT NULL`,
        `Pearson correlation of ${pair.aLabel} and ${pair.bLabel}`,
        { label: `the Pearson correlation of ${pair.aLabel} and ${pair.bLabel}`, reading: { kind: 'number', decimals: 4 } },
      );
      if (!done || done.key.type !== 'number' || !correlationIsSignal(done.key.value, num(done.rows[0]?.[1] ?? 0))) continue;
      perTable.set(pair.tables.join(), (perTable.get(pair.tables.join()) ?? 0) + 1);
      tasks.push(program.task({ family: this.id, parameters: pair.params, question: `What is the Pearson correlation between ${pair.aLabel} and ${pair.bLabel}, over all ${pair.over} where both are known? Round to 4 decimals.`, tables: pair.tables, dependency: 'correlation', needs: this.needs }));
    }
    return tasks;
  },
};

/** SQL reads the pairs, Python computes r: two steps, the count of pairs first. */
export const pythonCorrelationFamily: TaskFamily = {
  id: 'python-correlation',
  description: 'The Pearson correlation between two measures of one table, computed in Python from the rows SQL returns.',
  needs: 'two measures of one table that are not computed one from the other, and Python',
  async generate(context) {
    if (!context.python) return [];
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const ms = measures(context, table);
      const t = q(table.name);
      let best: { a: (typeof ms)[number]; b: (typeof ms)[number]; r: number; n: number } | undefined;
      for (let i = 0; i < ms.length; i++) {
        for (let j = i + 1; j < ms.length; j++) {
          if (derivedPair(context, { table: table.name, column: ms[i].name }, { table: table.name, column: ms[j].name })) continue;
          const a = q(ms[i].name);
          const b = q(ms[j].name);
          const rows = await query(context, `SELECT ${pearsonSql(a, b)}, COUNT(*) FROM ${t} WHERE ${a} IS NOT NULL AND ${b} IS NOT NULL`);
          const r = num(rows?.[0]?.[0]);
          const n = num(rows?.[0]?.[1] ?? 0);
          // (The construction checked last, on a pair that would be chosen: it reads the table again.)
          if (correlationIsSignal(r, n) && (!best || Math.abs(r) > Math.abs(best.r)) && !(await constructedLink(context, table, ms[i], ms[j]))) best = { a: ms[i], b: ms[j], r, n };
        }
      }
      if (!best) continue;
      const a = q(best.a.name);
      const b = q(best.b.name);
      const aName = measureName(context, table.name, best.a);
      const bName = measureName(context, table.name, best.b);
      const program = new TaskProgram(context, 'sql-python-statistics');
      const counted = await program.sql(`SELECT COUNT(*) AS pairs FROM ${t} WHERE ${a} IS NOT NULL AND ${b} IS NOT NULL`, `Count the ${things(context, table, 'many')} where both ${aName} and ${bName} are known`, { label: `the number of ${things(context, table, 'many')} with both values`, reading: { kind: 'number' } });
      if (!counted) continue;
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
        'print(round(cov / (sx * sy), 4))',
      ].join('\n');
      const computed = await program.python(code, `Compute the Pearson correlation of ${aName} and ${bName} in Python`, { label: `the Pearson correlation of ${aName} and ${bName}`, reading: { kind: 'printed-number', decimals: 4 }, uses: [0] });
      // The Python result must agree with SQL's own computation, or the step is not trustworthy evidence.
      if (!computed || computed.key.type !== 'number' || Math.abs(computed.key.value - best.r) > 0.001) continue;
      tasks.push(program.task({ family: this.id, parameters: { table: table.name, a: best.a.name, b: best.b.name }, question: `${rowName(context, table) !== undefined && tableMention(context, table) !== '' ? `In ${tablePlace(context, table)}, what` : 'What'} is the Pearson correlation between ${aName} and ${bName} across the ${things(context, table, 'many')} where both are known? Round to 4 decimals.`, tables: [table.name], dependency: 'correlation', needs: this.needs }));
    }
    return tasks;
  },
};
