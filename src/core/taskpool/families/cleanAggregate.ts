/**
 * Clean, then aggregate: the data-quality problems the profile finds — numbers stored as text with thousands
 * separators or symbols (rule `measure:numbers-as-text`), category values spelled several ways (case or surrounding
 * spaces), rows that are exact copies of others — detected (a step whose sub-answer is how many values or rows are
 * affected), cleaned in SQL (CAST(REPLACE(…)), lower(trim(…)), SELECT DISTINCT), then aggregated.
 *
 *   top group after cleaning:
 *     1–2. each problem detected                         → a count of the rows or spellings affected
 *     then the group with the highest total, cleaned    → a clear leader
 *     then its share of the cleaned total (or its total) → the answer
 *   a value spelled several ways:
 *     1. extra spellings  2. the value with the most rows among those spelled several ways  3. its rows (or total), merged
 *   answers a codebook codes as no answer (a survey's refusal -1, don't know -2, valid skip -4, non-interview -5):
 *     1. the rows holding those codes  2. the group with the highest average of the answers left  3. how far that
 *     average lies above the average of all who answered — the codebook read to know which numbers are no answers
 *
 * Only where cleaning changes the answer: the same computation on the raw values (text read as SQLite reads it,
 * each spelling its own group, every copy counted) must give another answer. The question states what counts as the
 * same value. Dates in mixed layouts (time storage `mixed`) are a problem the profile reports too; no fixture has one
 * that SQL alone can normalise, so they are left to a Python step of a later composition.
 */
import type { ColumnProfile, TableProfile } from '../../env/types';
import { words } from '../../text/words';
import { aggregateOf, clearLeader, columnPhrase, groupings, measureName, measures, noun, num, partitionOfView, q, query, rowsNoun, semanticsOf, sqlLiteral, tablePlace, taskTables, TaskProgram, type FamilyContext, type TaskFamily } from './kit';
import { partitionFiles } from '../../semantics/partitions';
import { normalName } from '../../semantics/dictionary';
import { MAX_QUESTION_WORDS } from '../lint';
import type { TaskSpec } from '../types';
import { tableLabel } from '../revise';
import { spellingKey } from '../repetition';

const COMPOSITION = 'clean-aggregate';
/** Spelling variants worth a task: at least this many rows carry a spelling other than their value's most common one. */
const MIN_VARIANT_ROWS = 1;
/** Values that are no number at all ('######', a link) are left out, when they are this few (distinct values) at most. */
const MAX_JUNK = 20;

export const cleanAggregateFamily: TaskFamily = {
  id: COMPOSITION,
  description: 'Numbers stored as text, values spelled several ways or duplicated rows detected, cleaned in SQL, then a total or a ranking computed on the cleaned data.',
  needs: 'a measure stored as text with thousands separators, a dimension whose values differ only in case or spaces, exact duplicate rows, or a measure whose codebook codes some answers as no answer — where cleaning changes the answer',
  async generate(context: FamilyContext): Promise<TaskSpec[]> {
    const tasks: TaskSpec[] = [];
    for (const table of taskTables(context)) {
      if (tasks.length >= context.maxPerFamily) break;
      const problems = await problemsOf(context, table);
      if (!problems.numbers.length && !problems.variants.length && !problems.duplicates) continue;
      let perTable = 0;
      for (const plan of plans(context, table, problems)) {
        if (tasks.length >= context.maxPerFamily || perTable >= 2) break;
        const task = await topAfterCleaning(context, table, plan);
        if (task && !tasks.some((t) => t.id === task.id)) {
          tasks.push(task);
          perTable++;
        }
      }
      for (const spelling of problems.variants) {
        if (tasks.length >= context.maxPerFamily || perTable >= 3) break;
        const task = await variantGroup(context, table, spelling);
        if (task) {
          tasks.push(task);
          perTable++;
        }
      }
    }
    for (const table of taskTables(context)) {
      let perTable = 0;
      for (const coded of codedMeasures(context, table)) {
        if (tasks.length >= context.maxPerFamily || perTable >= 3) break;
        const task = await topAnswered(context, table, coded, perTable);
        if (task && !tasks.some((t) => t.id === task.id)) {
          tasks.push(task);
          perTable++;
        }
      }
    }
    return tasks;
  },
};

// ---- answers a codebook codes as no answer -------------------------------------------------------------------------

/** A measure with the codes its codebook gives for no answer, and the codebook. */
interface CodedMeasure {
  column: ColumnProfile;
  codes: number[];
  document: string;
  /** The codebook's section on this variable, where the codebook has one per variable. */
  section?: string;
}

/**
 * The measures of a table whose codebook names codes for no answer that its rows hold (NLS's -1 … -5 among ratings of
 * 0 to 10): the answers are what is left once those are set aside. (The task pool's other families leave them out.)
 * Only the codes the codebook itself names: a `-9` found by its values alone is no document's rule.
 */
function codedMeasures(context: FamilyContext, table: TableProfile): CodedMeasure[] {
  const found: CodedMeasure[] = [];
  for (const column of table.columns) {
    const s = semanticsOf(context, table.name, column.name);
    if (s?.role.value !== 'measure' || !s.missingCodes || (column.type !== 'integer' && column.type !== 'real')) continue;
    const name = normalName(column.originalName || column.name);
    const entry = context.semantics.dictionary.find((e) => e.missingCodes !== undefined && normalName(e.column) === name && context.documents.some((d) => d.name === e.file || d.sourceFile === e.file));
    const codes = s.missingCodes.map((m) => m.value).filter((v) => entry?.missingCodes?.includes(v));
    if (!entry || codes.length === 0) continue;
    // (The codebook's section of this variable, where it has one per variable: `T30949.00 RISK_4 2010: …`.)
    const document = context.documents.find((d) => d.name === entry.file || d.sourceFile === entry.file);
    const section = document?.sections.find((sec) => normalName((sec.heading.split(/\s+/)[0] ?? '').replace('.', '')) === name)?.heading;
    found.push({ column, codes, document: entry.file, section });
  }
  return found;
}

/** Fewest answers a group needs for its average to count. */
const MIN_ANSWERS = 30;

/**
 * The group with the highest average of a measure once the codebook's codes for no answer are left out, and how far
 * it lies above the average of all who answered. `offset` spreads a table's tasks over its groupings.
 */
async function topAnswered(context: FamilyContext, table: TableProfile, coded: CodedMeasure, offset: number): Promise<TaskSpec | undefined> {
  const m = `c.${q(coded.column.name)}`;
  const t = `${q(table.name)} AS c`;
  const codes = coded.codes.join(', ');
  const answered = `${m} IS NOT NULL AND ${m} NOT IN (${codes})`;
  const name = measureName(context, table.name, coded.column);
  const rows = rowsNoun(context, table, 'many');
  const groups = groupings(context, table, { min: 2, max: 12 });
  for (let i = 0; i < groups.length; i++) {
    const group = groups[(i + offset) % groups.length];
    const g = `c.${q(group.name)}`;
    const groupPhrase = columnPhrase(context, table.name, group);
    const program = new TaskProgram(context, COMPOSITION);
    const first = await program.sql(`SELECT COUNT(*) AS no_answer FROM ${t} WHERE ${m} IN (${codes})`, `${rows} whose ${name} is one of the codes ${coded.document} gives for no answer (${codes})`, {
      label: `the number of ${rows} with no answer for ${name}`,
      reading: { kind: 'number' },
    });
    if (!first || first.key.type !== 'number' || first.key.value === 0) return undefined;
    const second = await program.sql(
      `SELECT ${g} AS ${q(group.name)}, ROUND(AVG(${m}), 4) AS average_answer, COUNT(*) AS n FROM ${t} WHERE ${answered} AND ${g} IS NOT NULL GROUP BY ${g} HAVING COUNT(*) >= ${MIN_ANSWERS} ORDER BY AVG(${m}) DESC, 1`,
      `the average ${name} per ${groupPhrase}, the codes for no answer left out, highest first (groups of ${MIN_ANSWERS} answers or more)`,
      { label: `the ${groupPhrase} with the highest average ${name} among those who answered`, reading: { kind: 'string' }, uses: [0] },
    );
    if (!second || second.rows.length < 2 || !clearLeader(second.rows, 1, 0.02)) continue;
    const top = second.rows[0][0] as string | number;
    const third = await program.sql(
      `SELECT ROUND((SELECT AVG(${m}) FROM ${t} WHERE ${answered} AND ${g} = ${sqlLiteral(top)}) - (SELECT AVG(${m}) FROM ${t} WHERE ${answered}), 2) AS above_all_answers`,
      `the ${groupPhrase} ${top}'s average ${name} less the average of all who answered`,
      { label: `how far the ${groupPhrase} ${top}'s average lies above the average of all answers`, reading: { kind: 'number', decimals: 2 }, uses: [1], carries: [String(top)] },
    );
    if (!third || third.key.type !== 'number' || third.key.value <= 0) continue;
    // Only where leaving the codes out changes the answer: read as numbers, they would make another group the highest
    // or another distance from the average.
    const raw = await query(context, `SELECT ${g}, AVG(${m}) - (SELECT AVG(${m}) FROM ${t} WHERE ${m} IS NOT NULL) FROM ${t} WHERE ${m} IS NOT NULL AND ${g} IS NOT NULL GROUP BY ${g} HAVING COUNT(*) >= ${MIN_ANSWERS} ORDER BY AVG(${m}) DESC, 1 LIMIT 1`);
    if (raw?.[0] && String(raw[0][0]) === String(top) && Math.abs(num(raw[0][1]) - third.key.value) < 0.005) continue;
    return program.task({
      family: COMPOSITION,
      parameters: { kind: 'coded-answers', table: table.name, measure: coded.column.name, group: group.name },
      // (Of two groups, the higher: "which sex has the higher average".)
      question: `Leaving out the ${rows} that the codebook (${coded.document}) codes as giving no answer for ${name} (${codes}), which ${groupPhrase} has the ${second.rows.length === 2 ? 'higher' : 'highest'} average ${name}, and by how much does that average exceed the average of all who answered? Round to 2 decimals.`,
      tables: [table.name],
      dependency: 'document-parameter',
      documents: [{ document: coded.document, ...(coded.section ? { section: coded.section } : {}) }],
      needs: cleanAggregateFamily.needs,
    });
  }
  return undefined;
}

// ---- what is wrong with a table -----------------------------------------------------------------------------------

/** A measure written as text: the SQL that reads it as a number, and how its values are written. */
interface TextNumbers {
  column: ColumnProfile;
  /** `CAST(REPLACE(TRIM(CAST(c."x" AS TEXT)), ',', '') AS REAL)` over alias `c`. */
  clean: string;
  symbols: string[];
  example: string;
  /** Values that read as no number, left out (NULL) by `clean`. */
  junk: string[];
  /** Rows whose value is written with separators or symbols. */
  separated: number;
}

interface Problems {
  numbers: TextNumbers[];
  /** Dimensions whose values differ only in case or surrounding spaces, with 2–50 values once merged (groupings). */
  spellings: ColumnProfile[];
  /** Every dimension with such variants, however many values it has (a value's merged count is still a question). */
  variants: ColumnProfile[];
  /** Rows that copy an earlier row exactly. */
  duplicates: number;
}

const PLAIN = /^[-+]?\d+(\.\d+)?$/;
/** Thousands groups, an optional currency sign before or a percent sign after: "-566,000", "$1,200.50", "12 %". */
const SEPARATED = /^[-+]?\s*\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*%?$/;

async function problemsOf(context: FamilyContext, table: TableProfile): Promise<Problems> {
  const numbers: TextNumbers[] = [];
  for (const column of table.columns) {
    if (!isTextNumbers(context, table, column)) continue;
    const found = await textNumbers(context, table, column);
    if (found) numbers.push(found);
  }
  const spellings: ColumnProfile[] = [];
  const variants: ColumnProfile[] = [];
  for (const column of table.columns) {
    const semantics = semanticsOf(context, table.name, column.name);
    const role = semantics?.role.value;
    // An address line or a postcode is free text per place, no category whose rows a merge would count together.
    const freeText = semantics?.geo === 'address' || semantics?.geo === 'postal-code';
    if (column.type !== 'text' || (role !== 'dimension' && role !== 'geo') || freeText || column.nullFraction >= 0.5 || numbers.some((n) => n.column === column)) continue;
    const c = q(column.name);
    // Rows written in a spelling other than their value's most common one: what merging changes.
    const rows = await query(
      context,
      `SELECT COUNT(DISTINCT lower(trim(${c}))), COUNT(DISTINCT ${c}), SUM(CASE WHEN ${c} GLOB '*[A-Za-z]*' THEN 0 ELSE 1 END), COUNT(DISTINCT ${spellingKey(c)}), (SELECT COALESCE(SUM(total - most), 0) FROM (SELECT SUM(n) AS total, MAX(n) AS most, COUNT(*) AS spellings FROM (SELECT lower(trim(${c})) AS k, ${c} AS v, COUNT(*) AS n FROM ${q(table.name)} WHERE ${c} IS NOT NULL GROUP BY 1, 2) GROUP BY k HAVING spellings > 1)) FROM ${q(table.name)} WHERE ${c} IS NOT NULL`,
    );
    const [merged, raw, numeric, punctuated, variantRows] = (rows?.[0] ?? []).map(num);
    // Values without letters ("2013 " beside "2013") are numbers with stray spaces, not spellings of a category.
    if (merged < 2 || raw <= merged || numeric > 0 || variantRows < MIN_VARIANT_ROWS) continue;
    variants.push(column);
    // (No grouping by a merge of case and spaces that leaves spellings apart, `E/B` beside `EB`: merged so, one
    // direction is still two groups. The value spelled most ways is still asked: its question says which spellings merge.)
    if (merged <= 50 && punctuated === merged) spellings.push(column);
  }
  // The measure written most often with separators first: it is the one whose reading matters most.
  numbers.sort((a, b) => b.separated - a.separated);
  return { numbers, spellings, variants, duplicates: await copiedRows(context, table) };
}

/**
 * Rows that copy an earlier row exactly, where the copies are an artefact to clean: not the items of a record's nested
 * list (a World Bank project's sectors, two of one major sector by design), nor records whose telling detail is
 * withheld (ONRR's revenue on Indian land, its state and county left empty, so two leases' rows read alike). Copies
 * that mostly leave empty a column most rows fill are such records.
 */
async function copiedRows(context: FamilyContext, table: TableProfile): Promise<number> {
  if (table.parent) return 0;
  const all = table.columns.map((c) => q(c.name)).join(', ');
  const dup = num((await query(context, `SELECT COUNT(*) - (SELECT COUNT(*) FROM (SELECT DISTINCT ${all} FROM ${q(table.name)})) FROM ${q(table.name)}`))?.[0]?.[0] ?? 0);
  if (dup === 0) return 0;
  const filled = table.columns.filter((c) => c.nullFraction > 0 && c.nullFraction < 0.5);
  if (filled.length === 0) return dup;
  const copies = `SELECT ${all}, COUNT(*) AS copies_n FROM ${q(table.name)} GROUP BY ${all} HAVING COUNT(*) > 1`;
  const row = (await query(context, `SELECT COUNT(*), ${filled.map((c) => `SUM(${q(c.name)} IS NULL)`).join(', ')} FROM (${copies})`))?.[0];
  if (!row) return dup;
  const groups = num(row[0]);
  const withheld = row.slice(1).some((v) => num(v) >= 0.8 * groups);
  return withheld ? 0 : dup;
}

function isTextNumbers(context: FamilyContext, table: TableProfile, column: ColumnProfile): boolean {
  const source = semanticsOf(context, table.name, column.name)?.role.source;
  return source?.kind === 'rule' && source.rule === 'measure:numbers-as-text';
}

/**
 * A text measure whose non-plain values are numbers with separators or symbols (a few values that are no number at
 * all are left out), and at least one is.
 */
async function textNumbers(context: FamilyContext, table: TableProfile, column: ColumnProfile): Promise<TextNumbers | undefined> {
  const c = q(column.name);
  const text = `TRIM(CAST(c.${c} AS TEXT))`;
  const rows = await query(context, `SELECT ${text}, COUNT(*) FROM ${q(table.name)} AS c WHERE c.${c} IS NOT NULL AND ${text} GLOB '*[^0-9.-]*' GROUP BY 1 LIMIT 5001`);
  if (!rows || rows.length === 0 || rows.length > 5000) return undefined;
  const values = rows.map((r) => ({ value: String(r[0]), n: num(r[1]) }));
  const separated = values.filter((v) => SEPARATED.test(v.value));
  const junk = values.filter((v) => !PLAIN.test(v.value) && !SEPARATED.test(v.value));
  const nonNull = table.rowCount * (1 - column.nullFraction);
  if (separated.length === 0 || junk.length > MAX_JUNK || junk.reduce((sum, v) => sum + v.n, 0) > 0.05 * nonNull) return undefined;
  const symbols = [',', '$', '%', ' '].filter((s) => separated.some((v) => v.value.includes(s)));
  // A comma that is not a thousands separator ("2,2") is no number here, so removing commas is safe.
  const stripped = `CAST(${symbols.reduce((sql, s) => `REPLACE(${sql}, ${sqlLiteral(s)}, '')`, text)} AS REAL)`;
  const clean = junk.length > 0 ? `(CASE WHEN ${text} IN (${junk.map((v) => sqlLiteral(v.value)).join(', ')}) THEN NULL ELSE ${stripped} END)` : stripped;
  return { column, clean, symbols, example: separated.find((v) => v.value.includes(','))?.value ?? separated[0].value, junk: junk.map((v) => v.value), separated: separated.reduce((sum, v) => sum + v.n, 0) };
}

// ---- what to compute ----------------------------------------------------------------------------------------------

interface Plan {
  /** The measure (cleaned when it is text), or none to count rows. */
  measure?: { column: ColumnProfile; clean?: TextNumbers };
  group: ColumnProfile;
  merged: boolean;
  dedupe: boolean;
}

/** Measure × grouping pairs where at least one problem lies in what the answer reads, most problems first. */
function plans(context: FamilyContext, table: TableProfile, problems: Problems): Plan[] {
  const textMeasures = problems.numbers.map((clean) => ({ column: clean.column, clean }));
  const plain = measures(context, table).map((column) => ({ column, clean: undefined }));
  // Named categories before numeric codes: "source category name" reads better than its code.
  const others = groupings(context, table, { min: 2, max: 50 }).filter((g) => !problems.spellings.includes(g)).sort((a, b) => (a.type === 'text' ? 0 : 1) - (b.type === 'text' ? 0 : 1));
  const groups = [...problems.spellings, ...others];
  const found: Plan[] = [];
  for (const measure of [...textMeasures.slice(0, 3), ...plain.slice(0, 2), undefined]) {
    for (const group of groups) {
      const merged = problems.spellings.includes(group);
      const plan: Plan = { measure, group, merged, dedupe: problems.duplicates > 0 };
      if (measure?.clean || merged || plan.dedupe) found.push(plan);
    }
  }
  const weight = (p: Plan) => (p.measure?.clean ? 1 : 0) + (p.merged ? 1 : 0) + (p.dedupe ? 1 : 0);
  return found.sort((a, b) => weight(b) - weight(a));
}

/** A measure's words: a column named by a year ("2020", as a budget's columns are) holds that year's amounts. */
function measureWords(context: FamilyContext, table: TableProfile, column: ColumnProfile): string {
  const name = measureName(context, table.name, column);
  return /^\d{4}$/.test(name) ? `amount for ${name}` : name;
}

/** The table as a question names it: in words, or quoted where its words carry a number or it is a union of files. */
function tableRef(context: FamilyContext, table: TableProfile): string {
  // A file or a sheet by the name its user knows (grants.tsv, the 'GDP' sheet, the seagrass density survey).
  const label = tableLabel(table.name, context.profile);
  if (label) return tablePlace(context, table);
  // A union of files by its files ("all 12 monthly files"), as the rest of the pool calls it.
  if (context.semantics.partitions.some((p) => p.view === table.name)) return tablePlace(context, table);
  return /\d/.test(words(table.name)) ? `the "${table.name}" table` : `the ${words(table.name)} table`;
}

/** What the question says of each problem; `brief` leaves the examples out (a question has 60 words at most). */
function problemWords(context: FamilyContext, table: TableProfile, plan: Plan, brief = false): string[] {
  const said: string[] = [];
  if (plan.measure?.clean) {
    const { symbols, example, junk } = plan.measure.clean;
    const name = measureWords(context, table, plan.measure.column);
    const subject = /^\d{4}$/.test(name) ? `The amounts for ${name} are` : `The ${name} values are`;
    const leaving = junk.length > 0 ? `, leaving out non-numbers${brief ? '' : ` such as '${junk[0]}'`}` : '';
    said.push(`${subject} text with ${symbols.includes(',') ? 'thousands separators' : 'symbols'}${brief ? '' : ` (e.g. '${example}')`}; read them as numbers${leaving}.`);
  }
  if (plan.merged) said.push(`Treat ${columnPhrase(context, table.name, plan.group)} values differing only in letter case or surrounding spaces as one.`);
  // (Over a partition's files a row is a duplicate within its own file: the same figures in July and August are two months.)
  const partition = partitionOfView(context, table);
  if (plan.dedupe) said.push(partition ? `Count a row repeated exactly within one ${partitionFiles(partition.key).replace(/s$/, '').replace(/ files?$/, ' file')} once.` : 'Count exact duplicate rows once.');
  return said;
}

async function topAfterCleaning(context: FamilyContext, table: TableProfile, plan: Plan): Promise<TaskSpec | undefined> {
  const t = q(table.name);
  const g = q(plan.group.name);
  const source = plan.dedupe ? `(SELECT DISTINCT * FROM ${t}) AS c` : `${t} AS c`;
  const group = plan.merged ? `lower(trim(c.${g}))` : `c.${g}`;
  const value = plan.measure ? plan.measure.clean?.clean ?? `c.${q(plan.measure.column.name)}` : '1';
  const agg = plan.measure ? aggregateOf(context, table.name, plan.measure.column) : undefined;
  const total = agg ? agg.of(value) : 'COUNT(*)';
  const rows = rowsNoun(context, table);
  const what = agg ? (agg.fn === 'SUM' ? `total ${measureWords(context, table, plan.measure!.column)}` : `average ${measureWords(context, table, plan.measure!.column)}`) : `number of ${rows}`;
  const groupWords = columnPhrase(context, table.name, plan.group);
  const program = new TaskProgram(context, COMPOSITION);

  const detected = await detectSteps(context, program, table, plan, rows);
  if (detected === undefined) return undefined;
  const uses = detected.map((_, i) => i);
  const measured = plan.measure ? ` AND ${value} IS NOT NULL` : '';
  const ranking = await program.sql(
    `SELECT ${group} AS ${g}, ROUND(${total}, 2) AS total, COUNT(*) AS n FROM ${source} WHERE c.${g} IS NOT NULL${measured} GROUP BY 1 ORDER BY ${total} DESC, 1`,
    `${what} per ${groupWords} after cleaning, highest first`,
    { label: `the ${groupWords} with the highest ${what} after cleaning`, reading: { kind: 'string' }, uses },
  );
  if (!ranking || ranking.rows.length < 2 || !clearLeader(ranking.rows)) return undefined;
  const top = ranking.rows[0][0] as string | number;
  const additive = agg === undefined || agg.fn === 'SUM';
  const lowest = plan.measure ? (await query(context, `SELECT MIN(${value}) FROM ${source}`))?.[0]?.[0] : 0;
  // A share of a total needs parts of one sign.
  const nonNegative = lowest !== null && lowest !== undefined && num(lowest) >= 0;
  const share = additive && nonNegative;
  const inTop = `${group} = ${sqlLiteral(top)}`;
  const finalSql = share
    ? `SELECT ROUND(100.0 * SUM(CASE WHEN ${inTop} THEN ${value} ELSE 0 END) / SUM(${value}), 2) AS share_pct FROM ${source} WHERE c.${g} IS NOT NULL${measured}`
    : `SELECT ROUND(${total}, 2) AS total FROM ${source} WHERE ${inTop}${measured}`;
  const last = await program.sql(finalSql, share ? `the ${groupWords} ${top}'s share of the ${what}, in percent` : `the ${what} of the ${groupWords} ${top}`, {
    label: share ? `the share of the ${what} that the ${groupWords} ${top} holds, after cleaning` : `the ${what} of the ${groupWords} ${top}, after cleaning`,
    reading: { kind: 'number', decimals: 2 },
    uses: [uses.length],
    carries: [String(top)],
  });
  if (!last || last.key.type !== 'number' || (share && !(last.key.value > 0 && last.key.value < 100))) return undefined;
  // Cleaning must matter: the same steps over the raw values give another answer.
  if (!(await cleaningMatters(context, table, plan, String(top), last.key.value, share))) return undefined;
  const asked = share
    ? `which ${groupWords} has the highest ${what}, and what share of the overall ${what} does it hold, in percent? Round to 2 decimals.`
    : `which ${groupWords} has the highest ${what}, and what is its ${what}? Round to 2 decimals.`;
  // "In the tree inventory table, treat species values … as one." (not "In the … table: Treat …").
  const lead = (said: string[]) => [said[0].charAt(0).toLowerCase() + said[0].slice(1), ...said.slice(1)].join(' ');
  const question = [false, true].map((brief) => `In ${tableRef(context, table)}, ${lead(problemWords(context, table, plan, brief))} After cleaning, ${asked}`).find((text) => text.split(/\s+/).length <= MAX_QUESTION_WORDS);
  if (!question) return undefined;
  return program.task({
    family: COMPOSITION,
    parameters: { kind: 'top', table: table.name, measure: plan.measure?.column.name ?? null, group: plan.group.name, merged: plan.merged, dedupe: plan.dedupe },
    question,
    tables: [table.name],
    dependency: 'data-quality',
    needs: cleanAggregateFamily.needs,
  });
}

/** One step per problem the plan cleans: how many values or rows it affects. */
async function detectSteps(context: FamilyContext, program: TaskProgram, table: TableProfile, plan: Plan, rows: string): Promise<number[] | undefined> {
  const t = q(table.name);
  const found: number[] = [];
  if (plan.measure?.clean) {
    const c = q(plan.measure.column.name);
    const words_ = measureWords(context, table, plan.measure.column);
    const step = await program.sql(`SELECT COUNT(*) AS written_as_text FROM ${t} WHERE ${c} IS NOT NULL AND TRIM(CAST(${c} AS TEXT)) GLOB '*[^0-9.-]*'`, `${rows} whose ${words_} is written with separators or symbols (or is no number)`, {
      label: `the number of ${rows} whose ${words_} is not written as a plain number`,
      reading: { kind: 'number' },
    });
    if (!step || step.key.type !== 'number' || step.key.value === 0) return undefined;
    found.push(step.key.value);
  }
  if (plan.merged) {
    const g = q(plan.group.name);
    const step = await program.sql(`SELECT COUNT(DISTINCT ${g}) - COUNT(DISTINCT lower(trim(${g}))) AS extra_spellings FROM ${t}`, `spellings of ${columnPhrase(context, table.name, plan.group)} beyond one per value, ignoring case and surrounding spaces`, {
      label: `the number of extra spellings of ${columnPhrase(context, table.name, plan.group)} values`,
      reading: { kind: 'number' },
    });
    if (!step || step.key.type !== 'number' || step.key.value === 0) return undefined;
    found.push(step.key.value);
  }
  if (plan.dedupe && found.length < 2) {
    const all = table.columns.map((c) => q(c.name)).join(', ');
    const step = await program.sql(`SELECT COUNT(*) - (SELECT COUNT(*) FROM (SELECT DISTINCT ${all} FROM ${t})) AS duplicate_rows FROM ${t}`, `${rows} that copy an earlier row exactly`, {
      label: `the number of ${rows} that are exact duplicates`,
      reading: { kind: 'number' },
    });
    if (!step || step.key.type !== 'number' || step.key.value === 0) return undefined;
    found.push(step.key.value);
  } else if (plan.dedupe) {
    // Two problems are detected already; a third detection step would only lengthen the program.
    return undefined;
  }
  return found;
}

/** Whether the raw computation (text as SQLite reads it, spellings apart, copies counted) answers differently. */
async function cleaningMatters(context: FamilyContext, table: TableProfile, plan: Plan, top: string, answer: number, share: boolean): Promise<boolean> {
  const g = q(plan.group.name);
  const value = plan.measure ? `c.${q(plan.measure.column.name)}` : '1';
  const agg = plan.measure ? aggregateOf(context, table.name, plan.measure.column).of(value) : 'COUNT(*)';
  const raw = await query(context, `SELECT c.${g}, ${agg} AS total FROM ${q(table.name)} AS c WHERE c.${g} IS NOT NULL GROUP BY 1 ORDER BY total DESC, 1 LIMIT 1`);
  const rawTop = raw?.[0]?.[0];
  if (rawTop === undefined || rawTop === null) return true;
  if (String(rawTop).toLowerCase().trim() !== top.toLowerCase().trim()) return true;
  const inTop = `c.${g} = ${sqlLiteral(rawTop as string | number)}`;
  const rawAnswer = share
    ? await query(context, `SELECT ROUND(100.0 * SUM(CASE WHEN ${inTop} THEN ${value} ELSE 0 END) / SUM(${value}), 2) FROM ${q(table.name)} AS c WHERE c.${g} IS NOT NULL`)
    : await query(context, `SELECT ROUND(${agg}, 2) FROM ${q(table.name)} AS c WHERE ${inTop}`);
  return Math.abs(num(rawAnswer?.[0]?.[0] ?? NaN) - answer) > 0.005 || !Number.isFinite(num(rawAnswer?.[0]?.[0] ?? NaN));
}

/**
 * The value spelled most ways: which value of a dimension is written several ways (the one with the most rows among
 * them, a clear leader), and its rows (or its total) once the spellings are merged — a number no single spelling gives.
 */
async function variantGroup(context: FamilyContext, table: TableProfile, column: ColumnProfile): Promise<TaskSpec | undefined> {
  const t = q(table.name);
  const g = q(column.name);
  const rows = rowsNoun(context, table);
  const groupWords = columnPhrase(context, table.name, column);
  const program = new TaskProgram(context, COMPOSITION);
  const first = await program.sql(`SELECT COUNT(DISTINCT ${g}) - COUNT(DISTINCT lower(trim(${g}))) AS extra_spellings FROM ${t}`, `spellings of ${groupWords} beyond one per value, ignoring case and surrounding spaces`, {
    label: `the number of extra spellings of ${groupWords} values`,
    reading: { kind: 'number' },
  });
  if (!first || first.key.type !== 'number' || first.key.value === 0) return undefined;
  const second = await program.sql(
    `SELECT lower(trim(${g})) AS ${g}, COUNT(*) AS n, COUNT(DISTINCT ${g}) AS spellings FROM ${t} WHERE ${g} IS NOT NULL GROUP BY 1 HAVING COUNT(DISTINCT ${g}) > 1 ORDER BY n DESC, 1`,
    `${groupWords} values written more than one way, most ${rows} first`,
    { label: `the ${groupWords} value with the most ${rows} among those written more than one way`, reading: { kind: 'string' }, uses: [0] },
  );
  if (!second || !(second.rows.length === 1 || clearLeader(second.rows))) return undefined;
  const top = second.rows[0][0] as string;
  const third = await program.sql(`SELECT COUNT(*) AS merged_rows FROM ${t} WHERE lower(trim(${g})) = ${sqlLiteral(top)}`, `${rows} whose ${groupWords} is ${top} in any spelling`, {
    label: `the number of ${rows} whose ${groupWords} is ${top}, all spellings together`,
    reading: { kind: 'number' },
    uses: [1],
    carries: [top],
  });
  if (!third || third.key.type !== 'number' || third.key.value <= 0) return undefined;
  return program.task({
    family: COMPOSITION,
    parameters: { kind: 'variant', table: table.name, group: column.name },
    // (One value alone written several ways has no rival to have "the most" rows: the question asks which it is.)
    question: second.rows.length === 1
      ? `One ${groupWords} value of ${tableRef(context, table)} is written in more than one way, differing only in letter case or surrounding spaces. Which value is it, and how many ${rows} does it have with all its spellings counted together?`
      : `Some ${groupWords} values of ${tableRef(context, table)} are written in more than one way, differing only in letter case or surrounding spaces. Of the values written more than one way, which has the most ${rows}, and how many ${rows} does it have with all its spellings counted together?`,
    tables: [table.name],
    dependency: 'data-quality',
    needs: cleanAggregateFamily.needs,
  });
}
