/**
 * The ICL demo library: accepted trajectories indexed with BM25 over the question and the tables and columns
 * the trajectory used, `retrieve(question, k)`, and a compact, prompt-ready rendering of a demo.
 */
import type { EnvironmentProfile } from '../env/types';
import type { ExportTrajectory } from './types';

// Articles and prepositions only: question words ("which", "how many", "highest", "average") tell a task's shape.
const STOPWORDS = new Set('a an the of in on at to by for from and or with is are was were be its their this that these those there over into per as'.split(' '));

const SQL_WORDS = new Set(
  'select from where group by order having limit join inner left right outer full cross on as and or not null is in between like case when then else end distinct count sum avg min max round cast union all with desc asc over partition row_number rank dense_rank lag lead coalesce ifnull nullif strftime date substr lower upper abs total integer real text'.split(' '),
);

/** Lower-case word tokens; snake_case and camelCase names also give their parts; a plural `s` is dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const words = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().match(/[a-z0-9_]+/g) ?? [];
  const push = (w: string) => {
    if (w.length < 2 || STOPWORDS.has(w)) return;
    out.push(w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
  };
  for (const word of words) {
    push(word);
    if (word.includes('_')) for (const part of word.split('_')) push(part);
  }
  return out;
}

/** Tables and columns a trajectory's successful calls touched (names from the profile when given, else identifiers in the code). */
export function schemaItemsUsed(trajectory: ExportTrajectory, profile?: EnvironmentProfile): { tables: string[]; columns: string[] } {
  const tables = new Set<string>(trajectory.task.tables);
  const columns = new Set<string>();
  const code = trajectory.steps
    .filter((s) => s.observation.ok && s.toolCall && s.toolCall.name !== 'final_answer')
    .map((s) => s.toolCall!.arguments)
    .join('\n');
  const identifiers = new Set((code.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).map((w) => w.toLowerCase()));
  if (profile) {
    for (const table of profile.tables) {
      if (identifiers.has(table.name.toLowerCase())) tables.add(table.name);
      for (const column of table.columns) if (identifiers.has(column.name.toLowerCase()) && tables.has(table.name)) columns.add(column.name);
    }
  } else {
    for (const word of identifiers) if (!SQL_WORDS.has(word) && word.length > 1 && !['query', 'code', 'table', 'sql', 'print'].includes(word)) columns.add(word);
  }
  return { tables: [...tables], columns: [...columns] };
}

export interface DemoHit {
  trajectory: ExportTrajectory;
  score: number;
}

/** One BM25 field (Okapi, k1 = 1.2, b = 0.75). */
class Bm25Field {
  private readonly docs: Array<{ terms: Map<string, number>; length: number }> = [];
  private readonly documentFrequency = new Map<string, number>();
  private totalLength = 0;

  add(tokens: string[]): void {
    const terms = new Map<string, number>();
    for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
    for (const term of terms.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    this.docs.push({ terms, length: tokens.length });
    this.totalLength += tokens.length;
  }

  score(docIndex: number, queryTerms: string[]): number {
    const doc = this.docs[docIndex];
    const n = this.docs.length;
    const averageLength = this.totalLength / n || 1;
    const k1 = 1.2;
    const b = 0.75;
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.terms.get(term);
      if (!tf) continue;
      const df = this.documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / averageLength));
    }
    return score;
  }
}

/** How much the wording field counts against the schema field. */
export const DEMO_FIELD_WEIGHTS = { wording: 3, schema: 1 } as const;

/**
 * BM25 over one document per task (its best trajectory), in two fields: the question's wording with schema
 * names taken out ("which … has the highest average", "how many … whose") — the shape of the analysis — and
 * the schema names (the question's, plus the tables and columns the trajectory used). Tasks over the same tables
 * often ask different things, so the wording field weighs more; the schema field ranks within a shape.
 */
export class DemoLibrary {
  private readonly trajectories: ExportTrajectory[] = [];
  private readonly wording = new Bm25Field();
  private readonly schema = new Bm25Field();
  /** Tokens of every table and column name known (from the profile, or from what the trajectories used). */
  private readonly schemaVocabulary = new Set<string>();

  constructor(trajectories: ExportTrajectory[], options: { profile?: EnvironmentProfile; includeUnreviewed?: boolean } = {}) {
    // One demo per task: curated-accepted first, then verified, then quality. Pruned ones never become demos.
    const best = new Map<string, ExportTrajectory>();
    const rank = (t: ExportTrajectory) => (t.curation === 'accepted' ? 4 : 0) + (t.verified ? 2 : 0) + t.quality;
    for (const t of trajectories) {
      if (t.curation === 'pruned' || !t.finalAnswer) continue;
      if (options.includeUnreviewed === false && t.curation !== 'accepted') continue;
      const current = best.get(t.task.id);
      if (!current || rank(t) > rank(current)) best.set(t.task.id, t);
    }
    const used = new Map([...best.values()].map((t) => [t.task.id, schemaItemsUsed(t, options.profile)]));
    for (const table of options.profile?.tables ?? []) {
      for (const name of [table.name, ...table.columns.map((c) => c.name)]) for (const token of tokenize(name)) this.schemaVocabulary.add(token);
    }
    for (const items of used.values()) for (const name of [...items.tables, ...items.columns]) for (const token of tokenize(name)) this.schemaVocabulary.add(token);
    for (const trajectory of best.values()) {
      const items = used.get(trajectory.task.id)!;
      const { wording, schema } = this.fields(trajectory.task.question);
      this.trajectories.push(trajectory);
      this.wording.add(wording);
      this.schema.add([...schema, ...items.tables.flatMap(tokenize), ...items.columns.flatMap(tokenize)]);
    }
  }

  private fields(question: string): { wording: string[]; schema: string[] } {
    const tokens = tokenize(question);
    return { wording: tokens.filter((t) => !this.schemaVocabulary.has(t)), schema: tokens.filter((t) => this.schemaVocabulary.has(t)) };
  }

  get size(): number {
    return this.trajectories.length;
  }

  /** The k best demos for a question, best first; ties keep index order. Excludes `excludeTaskIds` (e.g. the task being asked). */
  retrieve(question: string, k = 3, options: { excludeTaskIds?: Iterable<string> } = {}): DemoHit[] {
    const exclude = new Set(options.excludeTaskIds ?? []);
    const query = this.fields(question);
    const wordingTerms = [...new Set(query.wording)];
    const schemaTerms = [...new Set(query.schema)];
    const hits: DemoHit[] = [];
    this.trajectories.forEach((trajectory, i) => {
      if (exclude.has(trajectory.task.id)) return;
      const score = DEMO_FIELD_WEIGHTS.wording * this.wording.score(i, wordingTerms) + DEMO_FIELD_WEIGHTS.schema * this.schema.score(i, schemaTerms);
      if (score > 0) hits.push({ trajectory, score });
    });
    return hits.sort((x, y) => y.score - x.score).slice(0, Math.max(0, k));
  }
}

export interface DemoRenderOptions {
  /** Lines of each observation kept (the table header and first rows). */
  observationLines?: number;
  /** Include steps that failed (and the repair that followed). */
  includeErrors?: boolean;
}

const SCHEMA_TOOLS = new Set(['list_tables', 'describe_table']);

function callText(name: string, args: string): string {
  try {
    const parsed = JSON.parse(args) as Record<string, unknown>;
    if (name === 'run_sql' && typeof parsed.query === 'string') return parsed.query.trim();
    if (name === 'run_python' && typeof parsed.code === 'string') return parsed.code.trim();
    return JSON.stringify(parsed);
  } catch {
    return args;
  }
}

/** One demo as plain text for a prompt: the question, each useful call with a glimpse of its result, the answer. */
export function renderDemo(trajectory: ExportTrajectory, options: DemoRenderOptions = {}): string {
  const keep = options.observationLines ?? 4;
  const lines = [`Question: ${trajectory.task.question}`];
  let n = 0;
  for (const step of trajectory.steps) {
    if (!step.toolCall || step.toolCall.name === 'final_answer') continue;
    if (!step.observation.ok && !options.includeErrors) continue;
    n++;
    lines.push(`Step ${n}: ${step.toolCall.name}`);
    lines.push(...callText(step.toolCall.name, step.toolCall.arguments).split('\n').map((l) => `  ${l}`));
    // Schema lookups are shown as calls only: the demo's point is which tables it read, not their profiles.
    if (SCHEMA_TOOLS.has(step.toolCall.name) && step.observation.ok) continue;
    const observation = step.observation.text.split('\n');
    const shown = observation.slice(0, keep);
    if (observation.length > keep) shown.push(`… (${observation.length - keep} more lines)`);
    lines.push(`  → ${shown.join('\n    ')}`);
  }
  if (trajectory.finalAnswer) {
    lines.push(`Answer: ${trajectory.finalAnswer.answer}`);
    if (trajectory.finalAnswer.explanation) lines.push(`Why: ${trajectory.finalAnswer.explanation}`);
  }
  return lines.join('\n');
}

/** Several demos as one prompt block. */
export function renderDemos(trajectories: ExportTrajectory[], options: DemoRenderOptions = {}): string {
  if (trajectories.length === 0) return '';
  const blocks = trajectories.map((t, i) => `### Example ${i + 1}\n${renderDemo(t, options)}`);
  return `Worked examples from this data environment (same tools, verified answers):\n\n${blocks.join('\n\n')}`;
}
