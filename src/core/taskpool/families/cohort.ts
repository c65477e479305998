/**
 * Cohorts and funnels, where the data has events: a table whose rows are dated (a day or a moment) and belong to a
 * recurring entity — a customer, member or user, found by a foreign key to a table of people or by its name.
 *
 * Cohort retention (4 steps): each entity's cohort is the calendar month of its first event; retention is the
 * share of a cohort with another event in the next calendar month, or within 30 days of the first.
 *   1. entities per cohort month                       → the largest cohort
 *   2. retention of all eligible cohorts pooled        → the pooled retention, in percent
 *   3. retention per cohort                            → the cohort that retains best (a clear leader)
 *   4. the best cohort's retention minus the pooled    → the answer, in percentage points
 *
 * Funnel (3–4 steps): a status whose values are stages of one process (placed → shipped → delivered, by the
 * lifecycle vocabulary below; cancellations and rejections leave it); a row reaches a stage when its status is
 * that stage or a later one.
 *   1. the share of rows that reach the last stage
 *   2. the drop-off into each stage                    → the stage that loses the largest share (a clear leader)
 *   3. that stage's drop-off, in percent               (the answer when no grouping splits it clearly)
 *   4. the drop-off at that stage per group            → the group that loses the largest share
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { lintQuestion } from '../lint';
import type { TaskSpec } from '../types';
import {
  article,
  clearLeader,
  foreignKeys,
  fullPeriods,
  groupingName,
  groupingsOf,
  humanize,
  noun,
  num,
  pluralWords,
  q,
  query,
  rowsNoun,
  tableMention,
  semanticsOf,
  sourceOf,
  sqlLiteral,
  taskTables,
  TaskProgram,
  timeColumns,
  type FamilyContext,
  type TaskFamily,
  type TimeColumn,
} from './kit';

/** The question, when it passes the lint. */
const linted = (question: string) => (lintQuestion(question).length === 0 ? question : undefined);

// ---- event tables -----------------------------------------------------------------------------------------------

/** Names of columns that identify a person or an account: the entities whose behaviour a cohort follows. */
const ACTOR = /(^|_)(customer|client|member|user|subscriber|patient|student|buyer|shopper|consumer|guest|visitor|passenger|rider|player|account|donor|borrower|renter)(_?(id|key|no|code|number))?$/i;

export interface EventTable {
  table: TableProfile;
  time: TimeColumn;
  entity: ColumnProfile;
  /** "customer". */
  entityNoun: string;
  /** "rental". */
  eventNoun: string;
}

/** A table of people: it has an e-mail column, or a person's first, last or full name. */
function peopleTable(context: FamilyContext, table: TableProfile): boolean {
  return table.columns.some((c) => {
    const s = semanticsOf(context, table.name, c.name);
    const personName = s?.role.source.kind === 'rule' && s.role.source.rule === 'text:person-name' && /(first|last|full|given|family|sur|contact)_?name/i.test(c.name);
    return s?.structured === 'email' || personName;
  });
}

/** Fewer entities make cohorts of a handful of people. */
const MIN_ENTITIES = 30;

/**
 * Event tables: a dated table (day or moment, mostly filled) with a column identifying a recurring entity — a key
 * to a table of people, or a column named for one — whose entities have 1.5 events each on average at least.
 */
export function eventTables(context: FamilyContext): EventTable[] {
  const keys = foreignKeys(context);
  const found: EventTable[] = [];
  for (const table of taskTables(context, 50)) {
    const times = timeColumns(context, table)
      .filter((t) => (t.grain === 'day' || t.grain === 'datetime') && t.column.distinctCount >= 30)
      .sort((a, b) => a.column.nullFraction - b.column.nullFraction);
    if (times.length === 0) continue;
    for (const c of table.columns) {
      if (semanticsOf(context, table.name, c.name)?.role.value !== 'identifier' || c.candidateKey || c.nullFraction >= 0.5) continue;
      if (c.distinctCount < MIN_ENTITIES || table.rowCount < 1.5 * c.distinctCount) continue;
      const key = keys.find((k) => k.child.name === table.name && k.childColumn.name === c.name);
      const named = ACTOR.test(c.name.replace(/([a-z])([A-Z])/g, '$1_$2'));
      if (!(key && peopleTable(context, key.parent)) && !named) continue;
      const entityNoun = key && peopleTable(context, key.parent) ? noun(key.parent.name, 'one') : humanize(c.name.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/_?(id|key|no|code|number)$/i, ''));
      found.push({ table, time: times[0], entity: c, entityNoun, eventNoun: noun(table.name, 'one') });
      break;
    }
  }
  return found;
}

// ---- cohort retention -------------------------------------------------------------------------------------------

/** Cohorts smaller than this are left out (and the question says so). */
const MIN_COHORT = 20;
/** Windows after the first event, in days: a month and a quarter. */
const WINDOWS = [30, 90];

type Retention = { kind: 'next-month' } | { kind: 'window'; days: number };

export const cohortRetentionFamily: TaskFamily = {
  id: 'cohort-retention',
  description: 'Cohorts by the month of their first event; the cohort that retains best (another event the next month, or within 30 or 90 days), against the pooled retention.',
  needs: 'an event table: dated rows (a day or a moment) of a recurring customer, member or user, with at least two cohorts of 20 whose retention period lies inside the data, one of them clearly retaining best',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const events of eventTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      // Retention in the next calendar month, and within the shortest window after the first event that separates the cohorts.
      const month = await cohortTask(context, events, { kind: 'next-month' });
      if (month) tasks.push(month);
      for (const days of WINDOWS) {
        if (tasks.length >= context.maxPerFamily) break;
        const task = await cohortTask(context, events, { kind: 'window', days });
        if (task) {
          tasks.push(task);
          break;
        }
      }
    }
    return tasks;
  },
};

/** The SQL pieces of a cohort analysis: each entity's first event and cohort month, and whether it came back. */
function cohortSql(events: EventTable, retention: Retention) {
  const t = q(events.table.name);
  const e = q(events.entity.name);
  const at = events.time.date;
  const firsts = `SELECT ${e} AS entity, MIN(${at}) AS first_at FROM ${t} WHERE ${e} IS NOT NULL AND ${at} IS NOT NULL GROUP BY ${e}`;
  const cohorts = `SELECT entity, first_at, strftime('%Y-%m', first_at) AS cohort FROM (${firsts})`;
  // Whether each entity had another event in the retention period: the next calendar month, or the N days after its first event.
  const back =
    retention.kind === 'next-month'
      ? `EXISTS (SELECT 1 FROM ${t} AS x WHERE x.${e} = k.entity AND strftime('%Y-%m', x.${q(events.time.column.name)}) = strftime('%Y-%m', date(k.first_at, 'start of month', '+1 month')))`
      : `EXISTS (SELECT 1 FROM ${t} AS x WHERE x.${e} = k.entity AND x.${q(events.time.column.name)} > k.first_at AND julianday(x.${q(events.time.column.name)}) - julianday(k.first_at) <= ${retention.days})`;
  const retained = `SELECT k.cohort, k.entity, CASE WHEN ${back} THEN 1 ELSE 0 END AS retained FROM (${cohorts}) AS k`;
  return { firsts, cohorts, retained };
}

async function cohortTask(context: FamilyContext, events: EventTable, retention: Retention): Promise<TaskSpec | undefined> {
  // The time column's own values must be ISO text for the retention SQL to compare them (the date expression is the column).
  if (events.time.date !== q(events.time.column.name)) return undefined;
  const { cohorts, retained } = cohortSql(events, retention);
  const t = q(events.table.name);
  const at = events.time.date;
  // Cohort months whose retention period lies wholly inside the data: the next month complete, or the last
  // possible 30-day window (from the month's last day) ending by the last event.
  let eligible: string[];
  if (retention.kind === 'next-month') {
    const full = new Set(await fullPeriods(context, events.table, events.time, 'month'));
    const months = await query(context, `SELECT DISTINCT strftime('%Y-%m', ${at}) FROM ${t} WHERE ${at} IS NOT NULL ORDER BY 1`);
    eligible = (months ?? []).map((r) => String(r[0])).filter((m) => full.has(nextMonth(m)));
  } else {
    const rows = await query(context, `SELECT DISTINCT strftime('%Y-%m', ${at}) FROM ${t} WHERE ${at} IS NOT NULL AND julianday(date(${at}, 'start of month', '+1 month', '-1 day')) + ${retention.days} <= (SELECT julianday(MAX(${at})) FROM ${t}) ORDER BY 1`);
    eligible = (rows ?? []).map((r) => String(r[0]));
  }
  // A consecutive run of months, so "from A to B" states it.
  if (eligible.length < 2 || eligible.some((m, i) => i > 0 && nextMonth(eligible[i - 1]) !== m)) return undefined;
  const [from, to] = [eligible[0], eligible[eligible.length - 1]];
  const inRange = `cohort BETWEEN ${sqlLiteral(from)} AND ${sqlLiteral(to)}`;
  const big = `cohort IN (SELECT cohort FROM (${cohorts}) GROUP BY cohort HAVING COUNT(*) >= ${MIN_COHORT})`;
  const entities = pluralWords(events.entityNoun);
  const program = new TaskProgram(context, 'cohort');

  const sizes = await program.sql(
    `SELECT cohort, COUNT(*) AS ${q(entities.replace(/\W+/g, '_'))} FROM (${cohorts}) WHERE ${inRange} GROUP BY cohort ORDER BY COUNT(*) DESC, cohort`,
    `${entities} per cohort (the month of their first ${events.eventNoun}), from ${from} to ${to}, largest first`,
    { label: `the largest cohort from ${from} to ${to}`, reading: { kind: 'string' } },
  );
  if (!sizes || !clearLeader(sizes.rows, 1, 0) || sizes.rows.filter((r) => num(r[1]) >= MIN_COHORT).length < 2) return undefined;

  const within = retention.kind === 'next-month' ? 'in the next calendar month' : `within ${retention.days} days after their first`;
  const pooled = await program.sql(
    `SELECT ROUND(100.0 * SUM(retained) / COUNT(*), 2) AS retention_pct, COUNT(*) AS ${q(entities.replace(/\W+/g, '_'))} FROM (${retained}) WHERE ${inRange} AND ${big}`,
    `the share of the ${entities} of every cohort of at least ${MIN_COHORT} with another ${events.eventNoun} ${within}, pooled`,
    { label: `the pooled retention of the cohorts of at least ${MIN_COHORT} ${entities}, in percent`, reading: { kind: 'number', decimals: 2 }, uses: [0] },
  );
  if (!pooled || pooled.key.type !== 'number' || pooled.key.value <= 0 || pooled.key.value >= 100) return undefined;

  const perCohort = await program.sql(
    `SELECT cohort, COUNT(*) AS ${q(entities.replace(/\W+/g, '_'))}, SUM(retained) AS retained, ROUND(100.0 * SUM(retained) / COUNT(*), 2) AS retention_pct FROM (${retained}) WHERE ${inRange} AND ${big} GROUP BY cohort ORDER BY 100.0 * SUM(retained) / COUNT(*) DESC, cohort`,
    `retention per cohort of at least ${MIN_COHORT} ${entities}, best first`,
    { label: `the cohort with the highest retention`, reading: { kind: 'string' }, uses: [0] },
  );
  if (!perCohort || perCohort.rows.length < 2 || !clearLeader(perCohort.rows, 3, 0.05)) return undefined;
  const best = String(perCohort.rows[0][0]);

  const gap = await program.sql(
    `SELECT ROUND(100.0 * SUM(CASE WHEN cohort = ${sqlLiteral(best)} THEN retained ELSE 0 END) / SUM(CASE WHEN cohort = ${sqlLiteral(best)} THEN 1 ELSE 0 END) - 100.0 * SUM(retained) / COUNT(*), 2) AS points_above_pooled FROM (${retained}) WHERE ${inRange} AND ${big}`,
    `the retention of the cohort ${best} minus the pooled retention, in percentage points`,
    { label: `how many percentage points the cohort ${best} retains above the pooled retention`, reading: { kind: 'number', decimals: 2 }, uses: [1, 2], carries: [best] },
  );
  if (!gap || gap.key.type !== 'number' || gap.key.value <= 0) return undefined;

  const eventWord = events.eventNoun;
  const definition = retention.kind === 'next-month' ? `another ${eventWord} in the next calendar month` : `another ${eventWord} within ${retention.days} days after their first`;
  const question = `Put each ${events.entityNoun} in the cohort of the calendar month of their first ${eventWord}. For the cohorts of at least ${MIN_COHORT} ${entities} from ${from} to ${to}, retention is the share with ${definition}. By how many percentage points does the best-retaining cohort exceed the pooled retention of those cohorts? Round to 2 decimals.`;
  if (!linted(question)) return undefined;
  return program.task({
    family: cohortRetentionFamily.id,
    parameters: { table: events.table.name, entity: events.entity.name, time: events.time.column.name, retention: retention.kind === 'next-month' ? 'next-month' : `${retention.days}-days` },
    question,
    tables: [events.table.name],
    dependency: 'change-over-time',
    needs: cohortRetentionFamily.needs,
  });
}

const nextMonth = (m: string) => {
  const [y, mo] = m.split('-').map(Number);
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
};

// ---- funnel -----------------------------------------------------------------------------------------------------

/**
 * The stages of a lifecycle, in order, as status values name them. A status column is a funnel when every value
 * is one of these or an exit, and its stages have distinct positions.
 */
const LIFECYCLE: Array<[RegExp, number]> = [
  [/^(created|new|placed|pending|requested|submitted|opened|open|initiated|booked)$/, 0],
  [/^(accepted|approved|confirmed|authori[sz]ed|paid|assigned)$/, 1],
  [/^(processing|in progress|preparing|packed|picked|ready)$/, 2],
  [/^(shipped|dispatched|sent)$/, 3],
  [/^(in transit|out for delivery)$/, 4],
  [/^(delivered|completed|complete|fulfilled|closed|done|resolved)$/, 5],
];
const EXIT = /^(cancell?ed|rejected|refunded|returned|failed|declined|denied|voided|void|lost|expired|abandoned|withdrawn)$/;

const normalStatus = (v: string) => v.trim().toLowerCase().replace(/[_-]+/g, ' ');

export interface Funnel {
  table: TableProfile;
  column: ColumnProfile;
  /** Stage values in order (as written); the first is where every row enters when `entry` is true. */
  stages: string[];
  /** Whether the first stage is a status every row passed (created, placed) rather than the rows themselves. */
  entry: boolean;
  exits: string[];
}

/** A status column as a funnel, when its values are lifecycle stages (at least two after the entry) and exits. */
export async function funnelOf(context: FamilyContext, table: TableProfile, column: ColumnProfile): Promise<Funnel | undefined> {
  const rows = await query(context, `SELECT DISTINCT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL`);
  if (!rows || rows.some((r) => typeof r[0] !== 'string')) return undefined;
  const values = rows.map((r) => String(r[0]));
  const staged: Array<{ value: string; rank: number }> = [];
  const exits: string[] = [];
  for (const value of values) {
    const n = normalStatus(value);
    const rank = LIFECYCLE.find(([re]) => re.test(n))?.[1];
    if (rank !== undefined) staged.push({ value, rank });
    else if (EXIT.test(n)) exits.push(value);
    else return undefined;
  }
  if (new Set(staged.map((s) => s.rank)).size !== staged.length) return undefined;
  staged.sort((a, b) => a.rank - b.rank);
  const entry = staged[0]?.rank === 0;
  // Two transitions at least: entry → A → B.
  if (staged.length + (entry ? 0 : 1) < 3) return undefined;
  return { table, column, stages: staged.map((s) => s.value), entry, exits: exits.sort() };
}

/** The columns that may hold a status: dimensions and ordinals of 3–12 values. */
function statusColumns(context: FamilyContext, table: TableProfile): ColumnProfile[] {
  return table.columns.filter((c) => {
    const role = semanticsOf(context, table.name, c.name)?.role.value;
    return (role === 'dimension' || role === 'ordinal') && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 12 && c.nullFraction < 0.5;
  });
}

const MIN_STAGE_ROWS = 30;

export const funnelFamily: TaskFamily = {
  id: 'funnel',
  description: 'A status read as a funnel of ordered stages: the stage with the largest drop-off, then the group that loses most there.',
  needs: 'a status column whose values are ordered process stages (placed, shipped, delivered, …) with at least two transitions, and a clear largest drop-off',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context, 50)) {
      if (tasks.length >= context.maxPerFamily) break;
      for (const column of statusColumns(context, table)) {
        const funnel = await funnelOf(context, table, column);
        if (!funnel) continue;
        const task = await funnelTask(context, funnel);
        if (task) {
          tasks.push(task);
          break;
        }
      }
    }
    return tasks;
  },
};

const quoteAll = (values: string[]) => values.map((v) => `'${v}'`);

async function funnelTask(context: FamilyContext, funnel: Funnel): Promise<TaskSpec | undefined> {
  const { table, column } = funnel;
  const s = `c.${q(column.name)}`;
  const rowsWord = `${rowsNoun(context, table)}${tableMention(context, table)}`;
  const one = rowsWord.startsWith('rows of') ? 'row' : noun(table.name, 'one');
  // Stage k is reached by the rows whose status is stage k or a later one; without an entry status, every row enters.
  const stages = funnel.entry ? funnel.stages : [undefined, ...funnel.stages];
  const reachedAt = (k: number) => {
    const later = funnel.stages.slice(funnel.entry ? k : k - 1);
    return k === 0 ? '1' : `${s} IN (${later.map((v) => sqlLiteral(v)).join(', ')})`;
  };
  const source = sourceOf(table);
  const known = `${s} IS NOT NULL`;
  const last = stages.length - 1;
  const lastName = stages[last]!;
  const program = new TaskProgram(context, 'funnel');

  const conversion = await program.sql(
    `SELECT ROUND(100.0 * SUM(CASE WHEN ${reachedAt(last)} THEN 1 ELSE 0 END) / COUNT(*), 2) AS reached_last_pct, COUNT(*) AS ${q(rowsWord.replace(/\W+/g, '_'))} FROM ${source.from} WHERE ${known}`,
    `the share of ${rowsWord} whose ${humanize(column.name)} reached '${lastName}'`,
    { label: `the share of ${rowsWord} that reach '${lastName}', in percent`, reading: { kind: 'number', decimals: 2 } },
  );
  if (!conversion || conversion.key.type !== 'number' || conversion.key.value <= 0 || conversion.key.value >= 100) return undefined;

  const stageLabel = (k: number) => stages[k] ?? `all ${rowsWord}`;
  const funnelRows = stages.map((_, k) => `SELECT ${k} AS position, ${sqlLiteral(stageLabel(k))} AS stage, SUM(CASE WHEN ${reachedAt(k)} THEN 1 ELSE 0 END) AS reached FROM ${source.from} WHERE ${known}`).join(' UNION ALL ');
  const dropOffs = await program.sql(
    `SELECT stage, previous AS reached_stage_before, reached, ROUND(100.0 * (previous - reached) / previous, 2) AS drop_off_pct FROM (SELECT position, stage, reached, LAG(reached) OVER (ORDER BY position) AS previous FROM (${funnelRows})) WHERE previous IS NOT NULL ORDER BY 100.0 * (previous - reached) / previous DESC, position`,
    `the drop-off into each stage of ${humanize(column.name)}, largest first`,
    { label: `the stage that loses the largest share of the ${rowsWord} that reached the stage before`, reading: { kind: 'string' }, uses: [0] },
  );
  if (!dropOffs || dropOffs.rows.length < 2 || !clearLeader(dropOffs.rows, 3, 0.05) || num(dropOffs.rows[0][3]) <= 0 || num(dropOffs.rows[0][2]) < MIN_STAGE_ROWS) return undefined;
  const worst = String(dropOffs.rows[0][0]);
  const k = stages.indexOf(worst);
  if (k < 1) return undefined;
  const before = stageLabel(k - 1);

  const dropOffSql = () => `ROUND(100.0 * (SUM(CASE WHEN ${reachedAt(k - 1)} THEN 1 ELSE 0 END) - SUM(CASE WHEN ${reachedAt(k)} THEN 1 ELSE 0 END)) / SUM(CASE WHEN ${reachedAt(k - 1)} THEN 1 ELSE 0 END), 2)`;
  const rate = await program.sql(`SELECT ${dropOffSql()} AS drop_off_pct FROM ${source.from} WHERE ${known}`, `the share of the ${rowsWord} that reached ${before === stageLabel(0) && !funnel.entry ? 'the funnel' : `'${before}'`} but not '${worst}'`, {
    label: `the drop-off into '${worst}', in percent`,
    reading: { kind: 'number', decimals: 2 },
    uses: [1],
    carries: [worst],
  });
  if (!rate || rate.key.type !== 'number') return undefined;

  const statusName = humanize(column.name);
  // "(all orders, then 'processing', 'shipped', 'delivered')" or "('CREATED', then 'SHIPPED', …)": the stages in order.
  const [head, ...rest] = quoteAll(funnel.stages);
  const order = funnel.entry ? `${head}, then ${rest.join(', ')}` : `all ${rowsWord}, then ${quoteAll(funnel.stages).join(', ')}`;
  const leaves = funnel.exits.length > 0 ? ` (${quoteAll(funnel.exits).join(', ')}: none)` : '';
  const setup = `Read ${statusName} as a funnel (${order}), ${article(one)} ${one} reaching every stage up to its ${statusName}${leaves}.`;
  const parameters = { table: table.name, status: column.name };

  // Step 4: which group loses the largest share at that stage (groups with enough rows reaching the stage before).
  for (const g of groupingsOf(context, table, { min: 2, max: 12 })) {
    if (g.column.name === column.name && g.table.name === table.name) continue;
    let gSource: { from: string; tables: string[] };
    try {
      gSource = sourceOf(table, g);
    } catch {
      continue;
    }
    const probe = await query(context, `SELECT ${g.ref}, ${dropOffSql()} AS drop_off_pct FROM ${gSource.from} WHERE ${known} AND ${g.ref} IS NOT NULL GROUP BY ${g.ref} HAVING SUM(CASE WHEN ${reachedAt(k - 1)} THEN 1 ELSE 0 END) >= ${MIN_STAGE_ROWS} ORDER BY 2 DESC`);
    if (!probe || probe.length < 2 || !clearLeader(probe, 1, 0.1)) continue;
    const gName = groupingName(g, context);
    const byGroup = await program.sql(
      `SELECT ${g.ref} AS ${q(g.column.name)}, SUM(CASE WHEN ${reachedAt(k - 1)} THEN 1 ELSE 0 END) AS reached_stage_before, ${dropOffSql()} AS drop_off_pct FROM ${gSource.from} WHERE ${known} AND ${g.ref} IS NOT NULL GROUP BY ${g.ref} HAVING SUM(CASE WHEN ${reachedAt(k - 1)} THEN 1 ELSE 0 END) >= ${MIN_STAGE_ROWS} ORDER BY drop_off_pct DESC, ${g.ref}`,
      `the drop-off into '${worst}' per ${gName}, largest first`,
      { label: `the ${gName} that loses the largest share at '${worst}'`, reading: { kind: 'string' }, uses: [1, 2], carries: [worst] },
    );
    if (!byGroup || !clearLeader(byGroup.rows, 2, 0.1)) return undefined;
    const question = `${setup} At the stage that loses the largest share of the ${rowsWord} reaching the stage before it, which ${gName} loses the largest share (${pluralWords(gName)} with ${MIN_STAGE_ROWS} or more ${rowsWord} reaching the stage before)?`;
    if (!linted(question)) return undefined;
    return program.task({ family: funnelFamily.id, parameters: { ...parameters, group: `${g.table.name}.${g.column.name}` }, question, tables: gSource.tables, dependency: 'conditional-rate', needs: funnelFamily.needs });
  }
  const question = `${setup} Take the stage that loses the largest share of the ${rowsWord} reaching the stage before it: what share does it lose, in percent? Round to 2 decimals.`;
  if (!linted(question)) return undefined;
  return program.task({ family: funnelFamily.id, parameters, question, tables: source.tables, dependency: 'conditional-rate', needs: funnelFamily.needs });
}

/** The cohort and funnel compositions, in the order the pool runs them. */
export const cohortFamilies: TaskFamily[] = [cohortRetentionFamily, funnelFamily];
