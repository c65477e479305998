/**
 * One series of a long table: a table whose generic value column holds several quantities, each row's quantity named
 * beside it (OECD's `MEASURE` and `SUBJECT`, a forecast hub's `target`), answers nothing across all its rows — but
 * each series alone is a panel of entities over years. The question names the series (the values of the columns
 * that say which quantity a row holds); the steps then read it as an analyst would:
 *
 *   1. per year, how many of the series' entities have a value   → the latest year most of them (≥ 80%) have
 *   2. the entities' values in that year, highest first            → the entity highest then (a clear leader)
 *   3. that entity's value then less its value ten years before    → the answer, in the series' own units
 *
 * Only yearly series (the time written as a year), with at least 5 entities and a value ten years before the latest
 * well-covered year for the leader; otherwise no task.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { COUNTRY_CODES } from '../../semantics/lexicon';
import { quantityColumn, UNIT_COLUMN_WORDS } from '../../semantics/levels';
import type { TaskSpec } from '../types';
import { clearLeader, humanize, partitionOfView, pluralWords, mixedQuantities, num, q, query, quotable, readsClean, semanticsOf, sqlLiteral, tableMention, TaskProgram, type FamilyContext, type TaskFamily } from './kit';

/** Entities a series needs: fewer make "the highest" a choice among a handful. */
const MIN_ENTITIES = 5;
/** The share of the series' entities a year needs to count as covered. */
const COVERED = 0.8;
/** How far back the change is read. */
const YEARS_BACK = 10;
/** Series tried in one table, the best covered first (those without a clear leader give no task). */
const SERIES_PER_TABLE = 8;
/** A year written alone (`1995`), as long tables of annual series write their time. */
const YEAR_GLOB = "GLOB '[12][0-9][0-9][0-9]'";

interface Series {
  table: TableProfile;
  value: ColumnProfile;
  time: ColumnProfile;
  entity: ColumnProfile;
  /** The columns that say which series a row belongs to, with the chosen series' value of each. */
  keys: Array<{ column: ColumnProfile; value: string }>;
  /** Entities left out: aggregates among countries (`EU28`, `OECD`, `G-7` beside ISO codes), which total other rows. */
  aggregates: string[];
  /** Whether the aggregates are groups of countries (beside ISO codes), or totals named so (`U.S. total`). */
  groupsOfCountries: boolean;
  /** The series' unit, where a unit column names one (`dollars per planted acre`). */
  unit?: string;
}

export const seriesFamily: TaskFamily = {
  id: 'one-series',
  description: "One series of a long table that holds several: its latest well-covered year, the entity highest that year, and that entity's change over ten years.",
  needs: 'a long table whose value column holds several quantities named per row, with an entity column and a year column',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    const members = new Set(context.semantics.partitions.flatMap((p) => (p.view ? p.tables.map((t) => t.table) : [])));
    for (const table of context.profile.tables) {
      if (tasks.length >= context.maxPerFamily) break;
      if (members.has(table.name) || table.rowCount < 50) continue;
      for (const series of await seriesOf(context, table)) {
        if (tasks.length >= context.maxPerFamily) break;
        const task = await ask(context, series);
        if (task && readsClean(context, task)) tasks.push(task);
      }
    }
    return tasks;
  },
};

/** The largest yearly series of a long table (up to SERIES_PER_TABLE), with its entity and time columns. */
async function seriesOf(context: FamilyContext, table: TableProfile): Promise<Series[]> {
  // (Or a generic value beside a unit column naming several kinds of figure: ERS's dollars per acre, bushels per acre,
  // dollars per bushel and percent of acres in one `Value`.)
  const mixedMeasures = (c: ColumnProfile) => {
    const rule = semanticsOf(context, table.name, c.name)?.additivity?.source;
    return rule?.kind === 'rule' && rule.rule === 'additivity:mixed-measures';
  };
  const value = table.columns.find((c) => (c.type === 'integer' || c.type === 'real') && (mixedQuantities(table, c, context) || mixedMeasures(c)));
  if (!value) return [];
  const role = (c: ColumnProfile) => semanticsOf(context, table.name, c.name)?.role.value;
  const time = table.columns.find((c) => role(c) === 'time');
  if (!time) return [];
  // The entity: the category with the most values (countries, locations, states), not a column naming the series.
  const categories = table.columns.filter((c) => c !== value && c !== time && c.nullFraction < 0.5 && (c.type === 'text' || c.type === 'integer') && ['geo', 'dimension', 'identifier'].includes(role(c) ?? ''));
  // (A place is the entity where one is among them: ERS's regions beside the 27 line items of each, which name the series.)
  const sized = categories.filter((c) => c.distinctCount >= MIN_ENTITIES && c.distinctCount <= 300);
  const entity = sized.filter((c) => role(c) === 'geo').sort((a, b) => b.distinctCount - a.distinctCount)[0] ?? sized.sort((a, b) => b.distinctCount - a.distinctCount)[0];
  if (!entity) return [];
  const t = q(table.name);
  // (A column the year decides, ERS's survey base — "Base survey of 2010" for 2010–2015 — splits no series: it dates
  // the rows again.)
  const byYear = async (c: ColumnProfile) => num((await query(context, `SELECT MAX(n) FROM (SELECT COUNT(DISTINCT ${q(c.name)}) AS n FROM ${t} GROUP BY ${q(time.name)})`))?.[0]?.[0]) === 1;
  const keyColumns: ColumnProfile[] = [];
  for (const c of categories) if (c !== entity && c.type === 'text' && c.distinctCount >= 2 && c.distinctCount <= 50 && !(await byYear(c))) keyColumns.push(c);
  if (keyColumns.length === 0) return [];
  const grouped = keyColumns.map((c) => q(c.name)).join(', ');
  const rows = await query(context, `SELECT ${grouped}, COUNT(DISTINCT ${q(entity.name)}) AS entities FROM ${t} WHERE ${q(value.name)} IS NOT NULL AND CAST(${q(time.name)} AS TEXT) ${YEAR_GLOB} GROUP BY ${grouped} ORDER BY entities DESC, COUNT(*) DESC LIMIT ${SERIES_PER_TABLE}`);
  const found: Series[] = [];
  // Countries written as ISO codes beside a few groups of them (OECD's `EU28`, `OECDE`, `G-7`): the groups sum or
  // average the countries, so "the highest" compares parts with wholes; they are left out, and the question says so.
  const values = (await query(context, `SELECT DISTINCT ${q(entity.name)} FROM ${t} WHERE ${q(entity.name)} IS NOT NULL`))?.map((r) => String(r[0])) ?? [];
  const codes = values.filter((v) => /^[A-Z]{3}$/.test(v) && COUNTRY_CODES.has(v));
  // (So is a total among places, ERS's `U.S. total` beside its six farm regions: the whole the others make up.)
  const totals = values.filter((v) => /\btotal\b|^all\b|^world$/i.test(v));
  const aggregates = codes.length >= 0.7 * values.length && codes.length < values.length ? values.filter((v) => !codes.includes(v)) : totals.length > 0 && totals.length < values.length - MIN_ENTITIES + 1 ? totals : [];
  const groupsOfCountries = codes.length >= 0.7 * values.length;
  // The unit a series is in, where a unit column says it (ERS's `Units` 'dollars per planted acre'): one per series.
  const unitColumn = quantityColumn(table, UNIT_COLUMN_WORDS);
  const unitOf = async (chosen: Series['keys']): Promise<string | undefined> => {
    if (!unitColumn) return undefined;
    const found = (await query(context, `SELECT DISTINCT ${q(unitColumn.name)} FROM ${t} WHERE ${chosen.map((k) => `${q(k.column.name)} = ${sqlLiteral(k.value)}`).join(' AND ') || '1'} AND ${q(unitColumn.name)} IS NOT NULL LIMIT 2`))?.map((r) => r[0]) ?? [];
    return found.length === 1 && quotable(found[0]) && typeof found[0] === 'string' ? String(found[0]) : undefined;
  };
  const rowsOf = async (chosen: Series['keys']) => num((await query(context, `SELECT COUNT(*) FROM ${t} WHERE ${chosen.map((k) => `${q(k.column.name)} = ${sqlLiteral(k.value)}`).join(' AND ') || '1'}`))?.[0]?.[0]);
  for (const best of rows ?? []) {
    if (num(best[keyColumns.length]) < MIN_ENTITIES || best.slice(0, keyColumns.length).some((v) => !quotable(v) || v === null)) continue;
    // A column the others already decide within the series (a file's `part` beside its `INDICATOR`) is not stated.
    const keys = keyColumns.map((column, at) => ({ column, value: String(best[at]) }));
    const all = await rowsOf(keys);
    // The files' own column naming what they hold (`indicator` = `UNEMP`) is kept: `subject 'MEN'` alone says less.
    const partitionKey = context.semantics.partitions.find((p) => p.view === table.name)?.key;
    // (A numbered copy of another column, `Item2` beside `Item`, goes first.)
    for (const k of [...keys].sort((a, b) => Number(/\d$/.test(b.column.name)) - Number(/\d$/.test(a.column.name)))) {
      if (k.column.name === partitionKey) continue;
      const without = keys.filter((o) => o !== k);
      if (without.length > 0 && (await rowsOf(without)) === all) keys.splice(keys.indexOf(k), 1);
    }
    found.push({ table, value, time, entity, keys, aggregates, groupsOfCountries, unit: await unitOf(keys) });
  }
  return found;
}

async function ask(context: FamilyContext, s: Series): Promise<TaskSpec | undefined> {
  const t = q(s.table.name);
  const v = q(s.value.name);
  const year = `CAST(${q(s.time.name)} AS TEXT)`;
  const e = q(s.entity.name);
  const countriesOnly = s.aggregates.length > 0 ? [`${e} NOT IN (${s.aggregates.map(sqlLiteral).join(', ')})`] : [];
  const inSeries = [...s.keys.map((k) => `${q(k.column.name)} = ${sqlLiteral(k.value)}`), `${v} IS NOT NULL`, `${year} ${YEAR_GLOB}`, ...countriesOnly].join(' AND ');
  // (A header written as a capitalised word, `Value`, `Region`, reads in lower case mid-sentence; `MEASURE`, `LOCATION` as written.)
  const header = (c: ColumnProfile) => {
    const h = (c.originalName || c.name).trim();
    return /^[A-Z][a-z]+( [a-z]+)*$/.test(h) ? h.toLowerCase() : h;
  };
  const entityName = humanize(header(s.entity)).toLowerCase();
  const program = new TaskProgram(context, 'one-series');

  const first = await program.sql(
    `SELECT ${year} AS year, COUNT(DISTINCT ${e}) AS entities FROM ${t} WHERE ${inSeries} GROUP BY 1 HAVING COUNT(DISTINCT ${e}) >= ${COVERED} * (SELECT COUNT(DISTINCT ${e}) FROM ${t} WHERE ${inSeries}) ORDER BY 1 DESC`,
    `years of the series with a value for at least ${COVERED * 100}% of its ${entityName} values, latest first`,
    { label: `the latest year in which at least ${COVERED * 100}% of the series' ${entityName} values have a value`, reading: { kind: 'string' } },
  );
  if (!first || first.rows.length === 0) return undefined;
  const latest = String(first.rows[0][0]);
  const earlier = String(Number(latest) - YEARS_BACK);

  const second = await program.sql(
    `SELECT ${e} AS ${q(s.entity.name)}, ${v} AS value FROM ${t} WHERE ${inSeries} AND ${year} = ${sqlLiteral(latest)} ORDER BY ${v} DESC`,
    `the series' values in ${latest}, highest first`,
    { label: `the ${entityName} with the highest value in ${latest}`, reading: { kind: 'string' }, uses: [0], carries: [latest] },
  );
  // One value per entity and year: two rows of one entity in a year would make "its value" a choice.
  if (!second || !clearLeader(second.rows) || new Set(second.rows.map((r) => String(r[0]))).size !== second.rows.length) return undefined;
  const leader = second.rows[0][0];
  if (!quotable(leader)) return undefined;

  const at = (y: string) => `(SELECT ${v} FROM ${t} WHERE ${inSeries} AND ${e} = ${sqlLiteral(leader)} AND ${year} = ${sqlLiteral(y)})`;
  const third = await program.sql(
    `SELECT ROUND(${at(latest)} - ${at(earlier)}, 2) AS change`,
    `the value of ${leader} in ${latest} less its value in ${earlier}`,
    { label: `the change of ${leader}'s value from ${earlier} to ${latest}`, reading: { kind: 'number', decimals: 2 }, uses: [0, 1], carries: [latest, String(leader)] },
  );
  if (!third || third.key.type !== 'number' || third.key.value === 0) return undefined;

  // A series every entity has in every year (ERS's regions): the latest year is its last, and the coverage rule says nothing.
  const shape = (await query(context, `SELECT COUNT(DISTINCT ${year}), COUNT(DISTINCT ${e}), COUNT(*) FROM ${t} WHERE ${inSeries}`))?.[0]?.map((x) => num(x));
  const complete = shape !== undefined && shape[0] * shape[1] === shape[2];
  const keyList = s.keys.map((k) => `${header(k.column)} '${k.value}'`);
  const keysText = keyList.length > 1 ? `${keyList.slice(0, -1).join(', ')} and ${keyList[keyList.length - 1]}` : keyList[0];
  const entity = header(s.entity);
  const valueName = header(s.value);
  const dropped = s.aggregates.length === 0 ? '' : s.groupsOfCountries ? `, leaving out the ${s.aggregates.length} groups of countries ('${s.aggregates[0]}', …)` : `, leaving out ${s.aggregates.map((a) => `'${a}'`).join(' and ')}`;
  const entities = pluralWords(entity);
  const question =
    // (A partition's view by its name alone: the series' keys already fill the sentence.)
    `In${partitionOfView(context, s.table) ? ` the view '${s.table.name}'` : tableMention(context, s.table).replace(/^ in/, '') || ` the ${s.table.name} rows`}, keep the series with ${keysText}${s.unit ? ` (in ${s.unit})` : ''}${dropped}. ` +
    (complete
      ? `For the ${entity} with the highest ${valueName} in the series' latest year, by how much did its ${valueName} change over the previous ${YEARS_BACK} years? Round to 2 decimals.`
      : `Find the latest year${/^years?$/i.test(header(s.time)) ? '' : ` (${header(s.time)})`} in which ${COVERED * 100}% of the ${entities} have a ${valueName}; for the ${entity} with the highest ${valueName} that year, ` +
        `by how much did it change over the previous ${YEARS_BACK} years? Round to 2 decimals.`);
  return program.task({
    family: 'one-series',
    parameters: { table: s.table.name, value: s.value.name, entity: s.entity.name, series: Object.fromEntries(s.keys.map((k) => [k.column.name, k.value])) },
    question,
    tables: [s.table.name],
    dependency: 'change-over-time',
    needs: seriesFamily.needs,
  });
}
