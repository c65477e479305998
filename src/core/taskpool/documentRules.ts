/**
 * Rules that documents state about the data: a threshold ("an order is late when shipped_at is more than 5 days
 * after ordered_at"), a comparison of two columns ("`on_hand` is below `reorder_point`"), and an aggregate
 * definition per entity ("VIP customers have lifetime net spend above $2,000", with "lifetime net spend" and
 * "revenue" defined elsewhere). Each becomes SQL the task pool can execute; the task families that need a rule the
 * agent must read (document-parameter, document-metric) share this one reader.
 */
import type { TableProfile } from '../env/types';
import { escapeRegExp } from '../text/regex';
import { quoteIdent as q, sqlLiteral } from '../text/sql';
import { nameParts, singular, tokens } from '../text/words';
import { foreignKeys, groupings, query, taskTables, type FamilyContext, type ForeignKey } from './families/kit';

const isIdLike = (c: { name: string }) => /(^id$|_id$|id$|^key$|_key$|code$)/i.test(c.name);
const nameTokens = (name: string) => nameParts(name).filter((t) => t.length >= 3 && !['id', 'key', 'code', 'no', 'ref'].includes(t));


export interface DocumentRule {
  document: string;
  section: string;
  table: TableProfile;
  /** SQL condition with the document's parameter in it. */
  condition: string;
  parameter: number;
  columns: string[];
  sentence: string;
  /** The defined term, when the sentence bolds one ("late"). */
  term?: string;
  /** A complete counting query, for rules over an aggregate per entity (e.g. "VIP customers have lifetime net spend above $2,000"). */
  sql?: string;
  /** Tables the query reads, when `sql` is set. */
  tables?: string[];
}

const COMPARATORS: Array<[string, string]> = [
  ['at least|no less than', '>='],
  ['at most|no more than', '<='],
  ['more than|above|over|greater than|exceeds?|later than', '>'],
  ['less than|below|under|fewer than|within', '<'],
];

/** A threshold stated right after its comparator: "more than 5 days", "above $2,000", "below 10". */
const THRESHOLD = new RegExp(`\\b(${COMPARATORS.map(([words]) => words).join('|')})\\s+\\$?\\s?(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)\\s*(days?\\b|%)?`, 'i');

/** Tables a rule sentence is about: those it (or its heading) names, and those holding two or more of the columns it quotes in backticks. */
function tablesForSentence(context: FamilyContext, text: string, sentence: string): TableProfile[] {
  const quoted = [...sentence.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1].toLowerCase());
  return taskTables(context).filter(
    (t) =>
      new RegExp(`\\b${escapeRegExp(singular(t.name).replace(/_/g, ' '))}s?\\b`).test(text) ||
      quoted.filter((name) => t.columns.some((c) => c.name.toLowerCase() === name)).length >= 2,
  );
}

/** "`on_hand` is below `reorder_point`": a comparison between two numeric columns of one table. */
const COLUMN_COMPARISON = new RegExp(`\`([A-Za-z_][A-Za-z0-9_]*)\`\\s+(?:is\\s+|are\\s+)?(${COMPARATORS.map(([w]) => w).join('|')})\\s+(?:the\\s+)?\`([A-Za-z_][A-Za-z0-9_]*)\``, 'i');

function columnComparisonRules(context: FamilyContext, document: string, section: string, sentence: string): DocumentRule[] {
  const match = COLUMN_COMPARISON.exec(sentence);
  if (!match || section === '') return [];
  const operator = COMPARATORS.find(([w]) => new RegExp(`^(${w})$`, 'i').test(match[2]))![1];
  const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
  const numeric = (t: TableProfile, name: string) => t.columns.find((c) => c.name.toLowerCase() === name.toLowerCase() && (c.type === 'integer' || c.type === 'real'));
  return tablesForSentence(context, `${section} ${sentence}`.toLowerCase(), sentence).flatMap((table) => {
    const a = numeric(table, match[1]);
    const b = numeric(table, match[3]);
    if (!a || !b || a === b) return [];
    return [{ document, section, table, condition: `${q(a.name)} ${operator} ${q(b.name)}`, parameter: NaN, columns: [a.name, b.name], sentence: sentence.trim(), term }];
  });
}

/** Finds sentences that name columns of one table and state a numeric threshold, and turns them into SQL conditions. */
export function documentRules(context: FamilyContext): DocumentRule[] {
  const rules: DocumentRule[] = [];
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      if (section.heading === '') continue;
      for (const sentence of section.text.split(/(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+/)) {
        rules.push(...columnComparisonRules(context, document.name, section.heading, sentence));
        const match = THRESHOLD.exec(sentence);
        if (!match) continue;
        const operator = COMPARATORS.find(([words]) => new RegExp(`^(${words})$`, 'i').test(match[1]))![1];
        const parameter = Number(match[2].replace(/,/g, ''));
        if (!Number.isFinite(parameter)) continue;
        const mentioned = (table: TableProfile) => table.columns.filter((c) => c.name.length > 2 && new RegExp(`\\b${escapeRegExp(c.name)}\\b`, 'i').test(sentence));
        // The rule is about the table the sentence or its heading names ("An order is late…" → orders).
        const context_ = `${section.heading} ${sentence}`.toLowerCase();
        const named = tablesForSentence(context, context_, sentence);
        for (const table of named) {
          const columns = mentioned(table);
          const dates = columns.filter((c) => c.type === 'date' || c.type === 'datetime');
          const numbers = columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c));
          let condition: string | undefined;
          let used: string[] = [];
          if (match[3]?.toLowerCase().startsWith('day') && dates.length === 2) {
            // "b is more than N days after a": the first-mentioned date is the later one.
            const [first, second] = sentence.indexOf(dates[0].name) < sentence.indexOf(dates[1].name) ? dates : [dates[1], dates[0]];
            condition = `julianday(${q(first.name)}) - julianday(${q(second.name)}) ${operator} ${parameter}`;
            used = [first.name, second.name];
          } else if (!match[3] && numbers.length === 1) {
            condition = `${q(numbers[0].name)} ${operator} ${parameter}`;
            used = [numbers[0].name];
          }
          const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
          if (condition) rules.push({ document: document.name, section: section.heading, table, condition, parameter, columns: used, sentence: sentence.trim(), term });
        }
      }
    }
  }
  return rules;
}

// Aggregate definitions: "**VIP customers** have lifetime net spend above $2,000", where "lifetime net spend" is
// defined elsewhere in the documents ("**Lifetime net spend** = revenue from the customer's non-cancelled orders
// minus the refunds of their approved returns") and "revenue" by a formula over columns ("revenue = quantity ×
// unit_price × (1 − discount)"). Each part resolves to a table and a SQL expression, with filters from qualifiers
// ("non-cancelled", "approved") on category values of the tables on its join path, and is summed per entity key.

interface MetricPart {
  table: TableProfile;
  expr: string;
  sign: 1 | -1;
  text: string;
}


/** "name = a × b × (1 − c)" lines whose right side uses only columns of one table: name → SQL over that table. */
function formulaDefinitions(context: FamilyContext): Map<string, { table: TableProfile; expr: string }> {
  const found = new Map<string, { table: TableProfile; expr: string }>();
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      for (const line of section.text.split('\n')) {
        const m = /^\s*([A-Za-z][A-Za-z ]{1,40}?)\s*=\s*([^=]+?)\s*$/.exec(line.replace(/`/g, ''));
        if (!m) continue;
        const expr = m[2].replace(/[×·]/g, '*').replace(/[−–]/g, '-').replace(/÷/g, '/');
        if (!/^[\w\s*+\-/().]+$/.test(expr)) continue;
        const identifiers = [...new Set(expr.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])];
        if (identifiers.length < 2) continue;
        const table = taskTables(context).find((t) => identifiers.every((id) => t.columns.some((c) => c.name === id && (c.type === 'integer' || c.type === 'real'))));
        if (table) found.set(m[1].trim().toLowerCase(), { table, expr: expr.replace(/[A-Za-z_][A-Za-z0-9_]*/g, (id) => `t0.${q(id)}`) });
      }
    }
  }
  return found;
}

/** The definition of a phrase: "**Phrase** = text" or "**Phrase** is text" in any document. */
function definitionOf(context: FamilyContext, phrase: string): string | undefined {
  const wanted = phrase.trim().toLowerCase();
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      for (const m of section.text.matchAll(/\*\*([^*]{2,60})\*\*\s*(?:=|is|means)\s+([^\n]+)/g)) if (m[1].trim().toLowerCase() === wanted) return m[2];
    }
  }
  return undefined;
}

/** One part of a definition ("revenue from the customer's non-cancelled orders") as a table and an expression. */
function resolvePart(context: FamilyContext, text: string, formulas: Map<string, { table: TableProfile; expr: string }>): Omit<MetricPart, 'sign'> | undefined {
  const ws = tokens(text);
  for (const [name, f] of formulas) if (new RegExp(`\\b${escapeRegExp(name)}\\b`, 'i').test(text)) return { table: f.table, expr: f.expr, text };
  // A numeric column whose name starts with a word of the text ("refunds" → refund_amount), preferring tables the text names.
  const stems = new Set(ws.map(singular));
  const candidates = taskTables(context).flatMap((t) =>
    t.columns.filter((c) => (c.type === 'integer' || c.type === 'real') && !isIdLike(c) && stems.has(singular(c.name.split('_')[0]))).map((c) => ({ t, c, named: stems.has(singular(t.name)) })),
  );
  const best = candidates.find((x) => x.named) ?? (candidates.length === 1 ? candidates[0] : undefined);
  return best ? { table: best.t, expr: `t0.${q(best.c.name)}`, text } : undefined;
}

/** Join path child → … → entity over inclusion dependencies (shortest, at most 3 hops). */
function pathTo(deps: ForeignKey[], from: TableProfile, entity: TableProfile): ForeignKey[] | undefined {
  const queue: Array<{ table: TableProfile; path: ForeignKey[] }> = [{ table: from, path: [] }];
  const seen = new Set([from.name]);
  while (queue.length) {
    const { table, path } = queue.shift()!;
    if (path.length > 0 && path[path.length - 1].parent.name === entity.name) return path;
    if (path.length >= 3) continue;
    for (const d of deps.filter((x) => x.child.name === table.name && !seen.has(x.parent.name))) {
      seen.add(d.parent.name);
      queue.push({ table: d.parent, path: [...path, d] });
    }
  }
  return undefined;
}

/** A part's per-entity subquery: SUM(expr) grouped by the last hop's child column, with its qualifiers as filters. */
async function partSubquery(context: FamilyContext, part: MetricPart, path: ForeignKey[]): Promise<{ sql: string; tables: string[] } | undefined> {
  const joins: string[] = [];
  const aliases = [{ alias: 't0', table: part.table }];
  path.slice(0, -1).forEach((d, i) => {
    joins.push(`JOIN ${q(d.parent.name)} AS t${i + 1} ON t${i}.${q(d.childColumn.name)} = t${i + 1}.${q(d.parentColumn.name)}`);
    aliases.push({ alias: `t${i + 1}`, table: d.parent });
  });
  const last = path[path.length - 1];
  const entityKey = `t${path.length - 1}.${q(last.childColumn.name)}`;
  // Qualifiers: "non-cancelled" / "excluding cancelled" → <> 'cancelled'; "approved" → = 'approved'.
  const filters: string[] = [];
  const text = part.text.toLowerCase();
  for (const { alias, table } of aliases) {
    for (const column of groupings(context, table, { min: 2, max: 12 })) {
      const values = await query(context, `SELECT DISTINCT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL LIMIT 12`);
      for (const [value] of values ?? []) {
        if (typeof value !== 'string' || value.length < 4) continue;
        const v = escapeRegExp(value.toLowerCase());
        if (new RegExp(`\\b(?:non-|not\\s+|excluding\\s+)${v}\\b`).test(text)) filters.push(`${alias}.${q(column.name)} <> ${sqlLiteral(value)}`);
        else if (new RegExp(`\\b${v}\\b`).test(text)) filters.push(`${alias}.${q(column.name)} = ${sqlLiteral(value)}`);
      }
    }
  }
  const where = filters.length ? ` WHERE ${filters.join(' AND ')}` : '';
  return { sql: `SELECT ${entityKey} AS entity, ${part.sign < 0 ? '-' : ''}COALESCE(SUM(${part.expr}), 0) AS amount FROM ${q(part.table.name)} AS t0 ${joins.join(' ')}${where} GROUP BY ${entityKey}`.replace(/\s+/g, ' '), tables: aliases.map((a) => a.table.name) };
}

/** Rules that count entities whose aggregate of a defined metric passes a documented threshold. */
export async function aggregateDocumentRules(context: FamilyContext): Promise<DocumentRule[]> {
  const rules: DocumentRule[] = [];
  const formulas = formulaDefinitions(context);
  // The last hop to the entity only needs the child's key column (the sum is grouped by it, the entity table is not
  // joined), so an id column named after the entity counts even where the entity's own column is not unique (a CRM
  // export holding a customer twice).
  const deps = [...foreignKeys(context)];
  for (const entity of taskTables(context)) {
    for (const child of taskTables(context)) {
      if (child === entity) continue;
      for (const column of child.columns.filter((c) => isIdLike(c) && nameTokens(c.name).some((t) => entity.name.toLowerCase().includes(t)))) {
        const parentColumn = entity.columns.find((c) => c.name === column.name);
        if (parentColumn && !deps.some((d) => d.child === child && d.childColumn === column)) deps.push({ child, childColumn: column, parent: entity, parentColumn, containment: NaN, byName: true });
      }
    }
  }
  const phraseBeforeThreshold = new RegExp(`\\b(?:have|has|with|whose)\\s+(?:an?\\s+|the\\s+)?([a-z][a-z -]{2,60}?)\\s+(?:is\\s+|are\\s+|of\\s+)?(${COMPARATORS.map(([w]) => w).join('|')})\\s+\\$?\\s?(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)`, 'i');
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      if (section.heading === '') continue;
      for (const sentence of section.text.split(/(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+/)) {
        const m = phraseBeforeThreshold.exec(sentence);
        if (!m) continue;
        const phrase = m[1].trim();
        const operator = COMPARATORS.find(([w]) => new RegExp(`^(${w})$`, 'i').test(m[2]))![1];
        const parameter = Number(m[3].replace(/,/g, ''));
        const definition = definitionOf(context, phrase) ?? phrase;
        const parts: MetricPart[] = [];
        definition.split(/\s+(?:minus|less)\s+|\s+[−–]\s+/i).forEach((text, i) => {
          const part = resolvePart(context, text, formulas);
          if (part) parts.push({ ...part, sign: i === 0 ? 1 : -1 });
        });
        if (parts.length === 0) continue;
        const term = /\*\*([^*]{2,40})\*\*/.exec(sentence)?.[1];
        const entityText = `${term ?? ''} ${sentence.slice(0, m.index)}`.toLowerCase();
        for (const entity of taskTables(context).filter((t) => new RegExp(`\\b${escapeRegExp(singular(t.name).replace(/_/g, ' '))}s?\\b`).test(entityText))) {
          const subqueries = [];
          for (const part of parts) {
            const path = pathTo(deps, part.table, entity);
            const sub = path ? await partSubquery(context, part, path) : undefined;
            if (sub) subqueries.push(sub);
          }
          if (subqueries.length !== parts.length) continue;
          const sql = `SELECT COUNT(*) AS matching FROM (SELECT entity, SUM(amount) AS total FROM (${subqueries.map((x) => x.sql).join(' UNION ALL ')}) GROUP BY entity HAVING SUM(amount) ${operator} ${parameter})`;
          const tables = [...new Set(subqueries.flatMap((x) => x.tables))];
          rules.push({ document: document.name, section: section.heading, table: entity, condition: `${phrase} ${operator} ${parameter}`, parameter, columns: [], sentence: sentence.trim(), term, sql, tables });
        }
      }
    }
  }
  return rules;
}


// ---- rates and targets a document defines (added for the document-metric composition) ---------------------------

/** "Cancellation rate = cancelled orders ÷ all orders placed": a share of one table's rows, each side a set of rows. */
export interface RateDefinition {
  document: string;
  section: string;
  /** The defined name, lower-case: "cancellation rate". */
  name: string;
  table: TableProfile;
  /** SQL condition (unqualified columns) for the numerator's rows. */
  numerator: string;
  /** SQL condition for the denominator's rows; undefined for "all <rows>". */
  denominator?: string;
  columns: string[];
  sentence: string;
}

/** Rows a phrase picks from a table: "cancelled orders" → `status = 'cancelled'`, "all orders placed" → every row. */
async function rowsOfPhrase(context: FamilyContext, table: TableProfile, phrase: string): Promise<{ condition?: string; columns: string[] } | undefined> {
  const text = phrase.toLowerCase();
  const tableWords = singular(table.name).replace(/_/g, ' ');
  if (!new RegExp(`\\b${escapeRegExp(tableWords)}s?\\b`).test(text)) return undefined;
  const qualifiers = text.replace(new RegExp(`\\b${escapeRegExp(tableWords)}s?\\b.*$`), '').trim();
  if (qualifiers === '' || /^(all|every|each|the)$/.test(qualifiers)) return { columns: [] };
  for (const column of groupings(context, table, { min: 2, max: 12 })) {
    const values = await query(context, `SELECT DISTINCT ${q(column.name)} FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL LIMIT 12`);
    for (const [value] of values ?? []) {
      if (typeof value !== 'string' || value.length < 3) continue;
      const v = escapeRegExp(value.toLowerCase());
      if (new RegExp(`^(?:non-|not\\s+)${v}$`).test(qualifiers)) return { condition: `${q(column.name)} <> ${sqlLiteral(value)}`, columns: [column.name] };
      if (new RegExp(`^${v}$`).test(qualifiers)) return { condition: `${q(column.name)} = ${sqlLiteral(value)}`, columns: [column.name] };
    }
  }
  return undefined;
}

/** Lines "<name> rate = <rows> ÷ <rows>" (or "/"), each side rows of one table the documents name. */
export async function rateDefinitions(context: FamilyContext): Promise<RateDefinition[]> {
  const found: RateDefinition[] = [];
  for (const document of context.documents ?? []) {
    for (const section of document.sections) {
      if (section.heading === '') continue;
      for (const line of section.text.split('\n')) {
        const m = /^\s*[-*]?\s*\**([A-Za-z][A-Za-z -]{1,40}?\b(?:rate|ratio|share))\**\s*=\s*([^=÷/]+?)\s*[÷/]\s*([^,.;=]+)/i.exec(line.replace(/`/g, ''));
        if (!m) continue;
        for (const table of taskTables(context)) {
          const numerator = await rowsOfPhrase(context, table, m[2]);
          const denominator = numerator && (await rowsOfPhrase(context, table, m[3]));
          if (!numerator?.condition || !denominator) continue;
          found.push({ document: document.name, section: section.heading, name: m[1].trim().toLowerCase(), table, numerator: numerator.condition, denominator: denominator.condition, columns: [...numerator.columns, ...denominator.columns], sentence: line.trim() });
        }
      }
    }
  }
  return found;
}

/** A target a section states: "The on-time target is 95 % of shipped orders per store". */
export interface DocumentTarget {
  /** What the target is for, lower-case: "on-time". */
  term: string;
  /** In percent. */
  percent: number;
  /** The group the target holds per ("store"), when the sentence says. */
  per?: string;
  sentence: string;
}

export function documentTargets(text: string): DocumentTarget[] {
  const found: DocumentTarget[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+/)) {
    const m = /\b([A-Za-z][A-Za-z-]{1,30})\s+target\s+(?:is|of)\s+(\d+(?:\.\d+)?)\s*%/i.exec(sentence);
    if (!m) continue;
    const per = /\bper\s+([a-z][a-z ]{1,30}?)\s*(?:[.,;]|$)/i.exec(sentence.slice(m.index + m[0].length))?.[1];
    found.push({ term: m[1].toLowerCase(), percent: Number(m[2]), ...(per ? { per: per.toLowerCase() } : {}), sentence: sentence.trim() });
  }
  return found;
}

/**
 * An aggregate rule's entities, one row each with the aggregate (`SELECT entity, total FROM …`), and the column the
 * entity is keyed by (`customer_id`): the counting query `aggregateDocumentRules` builds, opened up.
 */
export function ruleEntities(rule: DocumentRule): { sql: string; keyColumn: string } | undefined {
  const m = /^SELECT COUNT\(\*\) AS matching FROM \((SELECT entity, SUM\(amount\) AS total FROM .*)\)$/.exec(rule.sql ?? '');
  const key = /SELECT t\d+\."((?:[^"]|"")+)" AS entity/.exec(rule.sql ?? '');
  return m && key ? { sql: m[1], keyColumn: key[1].replace(/""/g, '"') } : undefined;
}

/** The codes a data dictionary defines for a column's values: "Born = animal was born in captivity", "H=Home Win". */
export interface CodeDefinition {
  document: string;
  /** The section holding the definition, when the document has one that does. */
  section?: string;
  table: TableProfile;
  column: string;
  codes: Array<{ code: string; meaning: string }>;
}

/** "`X` = meaning" items of a description, one per line, bullet or comma-separated code. */
export function codesOf(description: string): Array<{ code: string; meaning: string }> {
  const items = description
    .split(/<br\s*\/?>|&bull;|•|;|\n|\(/i)
    .flatMap((part) => part.split(/,\s*(?=\(?`?[A-Za-z0-9]{1,12}`?\s*=)/))
    .map((item) => item.trim());
  const found: Array<{ code: string; meaning: string }> = [];
  for (const item of items) {
    const m = /^\(?`?([A-Za-z0-9][A-Za-z0-9 ]{0,11}?)`?\s*=\s*(.+)$/.exec(item);
    if (!m) continue;
    const meaning = m[2]
      .replace(/\([^)]*\)?/g, '')
      .replace(/[\s.)]+$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (meaning.length >= 3 && meaning.length <= 60 && !/["'`=]/.test(meaning)) found.push({ code: m[1].trim(), meaning });
  }
  return found;
}

/**
 * Codes a dictionary entry defines for a column of a task table (scoped to its file, or every table with the column),
 * kept where the codes are values of the column: the agent must read the dictionary to know which code a meaning has.
 */
export async function codeDefinitions(context: FamilyContext): Promise<CodeDefinition[]> {
  const found: CodeDefinition[] = [];
  for (const entry of context.semantics.dictionary) {
    const codes = codesOf(entry.description);
    if (codes.length < 2) continue;
    const scope = entry.scope?.split('/').pop();
    for (const table of taskTables(context)) {
      const fileName = table.sourceFile.split('/').pop();
      if (scope && fileName !== scope && table.originalName !== scope && table.name !== scope) continue;
      const column = groupings(context, table, { min: 2, max: 12 }).find((c) => c.name.toLowerCase() === entry.column.toLowerCase() || (c.originalName ?? "").toLowerCase() === entry.column.toLowerCase());
      if (!column) continue;
      const values = new Set((await query(context, `SELECT DISTINCT CAST(${q(column.name)} AS TEXT) FROM ${q(table.name)} WHERE ${q(column.name)} IS NOT NULL`))?.map((r) => String(r[0])) ?? []);
      const present = codes.filter((c) => values.has(c.code));
      if (present.length < 2) continue;
      const document = context.documents.find((d) => d.name === entry.file);
      const section = document?.sections.find((s) => s.heading !== '' && present.every((c) => s.text.includes(c.meaning.split(' ')[0])) && s.text.includes(entry.column))?.heading;
      found.push({ document: entry.file, ...(section ? { section } : {}), table, column: column.name, codes: present });
    }
  }
  return found;
}
