/**
 * The offline simulated models. They play the agent by following a task's reference solution (its evidence
 * steps, the script) the way an LLM agent would, and earn what they use: they describe a table before querying
 * it, read the document section before applying its rule, take a multi-step task's intermediate values (the top
 * region found in step 1) from their own earlier observations, and answer from what they saw — never from the
 * answer key. A literal they write has been shown to them (question, system prompt, a document they read, an
 * observation). Their mistakes follow the DIN-SQL error taxonomy (./taxonomy.ts); a repair's diagnosis is written
 * from the diff between the failed call and the repaired one (./callDiff.ts), and the repair changes only that.
 */
import { estimateMessagesTokens, estimateTokens } from '../llm/tokens';
import { parseRenderedTable } from '../agent/render';
import type { EvidenceStep, TaskSpec } from '../taskpool/types';
import { LlmError } from '../llm/errors';
import type { Completion, CompletionRequest, LlmProvider, ModelSpec, ReasoningEffort, ToolCallRequest } from '../llm/types';
import { diagnoseFromDiff } from './callDiff';
import { unseenLiterals, type Literal } from './grounding';
import { ReadHistory, SeenCall, callCode, codeSimilarity, readHistory } from './history';
import { ErrorCategory, MistakeKind, SchemaView, applyMistake, identifierPattern, misspell } from './taxonomy';
import { EFFORT_MISTAKE_FACTOR, EFFORT_REASONING_FACTOR, OFFLINE_SIM_PROVIDER_ID, SIM_MODELS, SimModelProfile, simModel } from './models';
import { seededRandom } from './random';

/** The simulator's script: the task it plays (with its reference solution) and the seeds. */
export interface SimulationScript {
  task: TaskSpec;
  seed: number;
  /** Distinguishes sibling branches from the same state (the explorer's K children). */
  attempt?: number;
}

export function simulationScript(task: TaskSpec, seed: number, attempt = 0): SimulationScript {
  return { task, seed, attempt };
}

/** A provider that plays a script: bound to one, it gives that episode's completions. */
export interface ScriptedProvider extends LlmProvider {
  withScript(script: SimulationScript): LlmProvider;
}

export function isScriptedProvider(provider: LlmProvider): provider is ScriptedProvider {
  return typeof (provider as Partial<ScriptedProvider>).withScript === 'function';
}

/** The provider for one episode: a scripted provider bound to the script, any other provider as it is. */
export function forScript(provider: LlmProvider, script: SimulationScript): LlmProvider {
  return isScriptedProvider(provider) ? provider.withScript(script) : provider;
}

/** offline-sim was asked something it cannot simulate (no task, unknown model, prompt too long). */
export class SimulationUnavailableError extends LlmError {
  constructor(message: string) {
    super('bad_request', message, false);
    this.name = 'SimulationUnavailableError';
  }
}

export const NO_SIMULATION_MESSAGE = 'offline-sim needs a task with a reference solution; use a real provider for free questions';

export type SimAction = 'list_tables' | 'describe_table' | 'search_documents' | 'read_document' | 'lookup_values' | 'evidence' | 'repair' | 'final_answer' | 'premature_answer';

/** What the simulated model decided at one step, for inspection (sim-stats, the explorer's tags). */
export interface SimDecision {
  taskId: string;
  model: string;
  stepIndex: number;
  action: SimAction;
  evidenceIndex?: number;
  /** The seeded mistake applied to this step's call, if any, and its category in the taxonomy. */
  mistake?: MistakeKind;
  category?: ErrorCategory | 'answer';
  /** The probability of a mistake this step had. */
  mistakeProbability: number;
  schemaForgotten: boolean;
  /** Literals of the call that nothing the model was shown holds (0 is the aim; sim-stats counts them). */
  unseenLiterals?: string[];
  /** Values taken from the model's own earlier observation in place of the reference solution's. */
  carried?: Array<{ from: string; to: string }>;
}

export interface SimulatedProviderOptions {
  /** The episode to play; without one the provider declines every request (SimulationUnavailableError). */
  script?: SimulationScript;
  /** Observes every decision. */
  onDecision?: (decision: SimDecision) => void;
}

/** Per-step difficulty multiplier from the code's shape: joins, grouping, windows and Python are harder. */
export function stepDifficulty(tool: 'run_sql' | 'run_python', code: string): number {
  if (tool === 'run_python') return 2 + Math.min(0.4, code.split('\n').length * 0.02);
  const joins = (code.match(/\bJOIN\b/gi) ?? []).length;
  let factor = 0.6 + 1.3 * joins;
  if (/\bGROUP BY\b/i.test(code)) factor += 0.9;
  if (/\bOVER\s*\(/i.test(code)) factor += 0.8;
  if (/\b(WITH|HAVING)\b/i.test(code) || (code.match(/\bSELECT\b/gi) ?? []).length > 1) factor += 0.4;
  return factor;
}

function matchEvidence(task: TaskSpec, call: SeenCall): number | undefined {
  const code = callCode(call);
  if (code === undefined) return undefined;
  // The agent said which step it was taking ("Next: the Spearman correlation …"): its own words decide when the
  // code alone is ambiguous (a Python step that repeats the one before it and adds a line).
  const said = call.thought?.toLowerCase();
  if (said) {
    // A value the step carries from an earlier one may read otherwise in the thought (what the model saw there).
    const fragments = (step: EvidenceStep) =>
      (step.subAnswer?.carries ?? []).reduce((parts, value) => parts.flatMap((part) => part.split(value.toLowerCase())), [step.purpose.toLowerCase()]).map((part) => part.trim()).filter((part) => part.length > 0);
    const named = task.evidence
      .map((step, index) => ({ index, parts: fragments(step), tool: step.tool }))
      .map((s) => ({ ...s, length: s.parts.reduce((n, part) => n + part.length, 0) }))
      .filter((s) => s.tool === call.tool && s.length >= 12 && s.parts.every((part) => said.includes(part)))
      .sort((a, b) => b.length - a.length)[0];
    if (named && codeSimilarity(code, task.evidence[named.index].code, call.partial) >= 0.3) return named.index;
  }
  let best: { index: number; score: number } | undefined;
  task.evidence.forEach((step, index) => {
    if (step.tool !== call.tool) return;
    const score = codeSimilarity(code, step.code, call.partial);
    if (!best || score > best.score) best = { index, score };
  });
  return best && best.score >= 0.55 ? best.index : undefined;
}

/** The answer as read from an observation's text, in the shape the question asks for. */
function readAnswer(task: TaskSpec, tool: string, text: string): string | undefined {
  if (tool === 'run_python') {
    const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    return lines.length ? lines[lines.length - 1] : undefined;
  }
  const table = parseRenderedTable(text);
  if (!table || table.rows.length === 0) return undefined;
  switch (task.answer.type) {
    case 'number':
    case 'string':
      return table.rows[0][0];
    case 'list':
    case 'table':
      return table.rows.map((r) => r[0]).join(', ');
  }
}

/** A value a hasty model might take for the answer: the first cell of the latest query result it saw. */
function hastyGuess(task: TaskSpec, calls: SeenCall[], random: () => number): string {
  const seen = [...calls].reverse().find((c) => c.ok && c.visible && c.text !== undefined && (c.tool === 'run_sql' || c.tool === 'run_python'));
  const value = seen ? readAnswer(task, seen.tool, seen.text!) : undefined;
  if (value !== undefined) return value;
  return task.answer.type === 'number' ? String(Math.round(random() * 1000)) : 'unknown';
}

/**
 * The offline simulated provider. Deterministic: the same messages, task, seed, attempt and model give the
 * same completion. Without a script it declines with a SimulationUnavailableError.
 */
export function createSimulatedProvider(options: SimulatedProviderOptions = {}): ScriptedProvider {
  return {
    id: OFFLINE_SIM_PROVIDER_ID,
    withScript: (script) => createSimulatedProvider({ ...options, script }),
    async listModels(): Promise<ModelSpec[]> {
      return SIM_MODELS.map((m) => ({ ...m.spec }));
    },
    async complete(request: CompletionRequest): Promise<Completion> {
      if (request.signal?.aborted) throw new LlmError('cancelled', 'The request was cancelled.', false);
      const profile = simModel(request.model);
      if (!profile) throw new SimulationUnavailableError(`offline-sim has no model '${request.model}'; models: ${SIM_MODELS.map((m) => m.spec.id).join(', ')}`);
      const script = options.script;
      if (!script) throw new SimulationUnavailableError(NO_SIMULATION_MESSAGE);
      const promptTokens = estimateMessagesTokens(request.messages, request.tools ?? []);
      if (promptTokens > profile.spec.contextWindow) {
        throw new SimulationUnavailableError(`The prompt (~${promptTokens} tokens) exceeds ${profile.spec.id}'s context window of ${profile.spec.contextWindow} tokens; use a shorter context length.`);
      }
      const decision = decide(script, profile, request.messages, request.reasoningEffort);
      options.onDecision?.(decision.record);
      const toolCall: ToolCallRequest = { id: decision.callId, name: decision.tool, arguments: JSON.stringify(decision.args) };
      const effort = request.reasoningEffort;
      const reasoning = effort ? Math.round(profile.reasoningTokens * EFFORT_REASONING_FACTOR[effort]) : 0;
      const completionTokens = estimateTokens(decision.thought) + estimateTokens(toolCall.arguments) + 8 + reasoning;
      const costUsd = (promptTokens * profile.spec.inputPerMTok + completionTokens * profile.spec.outputPerMTok) / 1e6;
      const jitter = 0.8 + 0.4 * decision.random();
      const latencyMs = Math.round((profile.latencyBaseMs + profile.latencyPerTokenMs * completionTokens + promptTokens * 0.02) * jitter);
      return {
        message: { content: decision.thought, toolCalls: [toolCall] },
        usage: reasoning ? { prompt: promptTokens, completion: completionTokens, reasoning } : { prompt: promptTokens, completion: completionTokens },
        costUsd,
        latencyMs,
        finishReason: 'tool_calls',
        toolProtocol: 'native',
        attempts: 1,
      };
    },
  };
}

interface Decision {
  tool: string;
  args: Record<string, unknown>;
  thought: string;
  callId: string;
  record: SimDecision;
  random: () => number;
}

const STOPWORDS = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'how', 'many', 'much', 'what', 'which', 'is', 'are', 'was', 'were', 'by', 'with', 'according', 'section', 'each', 'that', 'this', 'there', 'do', 'does', 'their', 'its', 'from', 'as', 'be', 'who', 'have', 'has']);

/** Words that say how to answer, not what about: a search for them finds nothing a document is about. */
const ASKING_WORDS = new Set(['leaving', 'out', 'rows', 'row', 'codebook', 'codes', 'coded', 'giving', 'answer', 'answered', 'answers', 'all', 'average', 'higher', 'highest', 'lower', 'lowest', 'exceed', 'round', 'decimals', 'decimal', 'far', 'less', 'more', 'than', 'has', 'had', 'no']);

/** Keywords a model would search the documents with: the question's quoted phrases, else its content words. */
function searchQuery(question: string): string {
  const quoted = [...question.matchAll(/"([^"]+)"/g)].map((m) => m[1]).filter((q) => !/\.\w{2,4}$/.test(q));
  // (A file's name in brackets, `(NLSY79_supplement.cdb)`, says where to look, not what for.)
  const words = question.replace(/"[^"]*"/g, ' ').replace(/\([^()\s]+\.[a-z]{2,4}\)/gi, ' ').toLowerCase().match(/[a-z0-9][a-z0-9_-]+/g) ?? [];
  const content = words.filter((w) => !STOPWORDS.has(w) && !ASKING_WORDS.has(w) && !/\.(md|txt)$/.test(w) && !/^-?\d+$/.test(w) || /^(1[89]|20)\d\d$/.test(w)).slice(0, 6);
  return [...quoted, ...content].join(' ').trim() || question.slice(0, 60);
}

/** One line on what the last observation showed, so a thought says what the model learned from it. */
function learned(call: SeenCall | undefined): string {
  if (!call || !call.visible || !call.ok || call.text === undefined) return '';
  const table = parseRenderedTable(call.text);
  switch (call.tool) {
    case 'list_tables':
      // Eight names at most, and how many more where more were listed: the thought never says it named them all when it did not.
      return table ? `There are ${table.rows.length} tables: ${table.rows.map((r) => r[0]).slice(0, 8).join(', ')}${table.rows.length > 8 ? ` and ${table.rows.length - 8} more` : ''}.` : '';
    case 'describe_table': {
      // The columns are the rows of the table under the `column | type | …` header; the lines above it say what
      // kind of table it is and what it joins.
      const lines = call.text.split('\n');
      const header = lines.findIndex((l) => /^column \| /.test(l));
      const columns = header >= 0 ? parseRenderedTable(lines.slice(header).join('\n')) : table;
      const joins = lines.flatMap((l) => /^Joins: (.+)$/.exec(l)?.[1] ?? []).slice(0, 2);
      const name = String(call.args.table);
      if (!columns) return `I have the columns of ${name}.`;
      const listed = `${columns.rows.map((r) => r[0]).slice(0, 8).join(', ')}${columns.rows.length > 8 ? ', …' : ''}`;
      return `${name} has ${listed}${joins.length > 0 ? `; it joins ${joins.join(' and ')}` : ''}.`;
    }
    case 'search_documents': {
      const hit = /^(.+?) § (.+?) \(score/m.exec(call.text);
      return hit ? `The best match is ${hit[1]} § ${hit[2]}.` : 'The search found no matching section.';
    }
    case 'read_document': {
      const sentence = call.text.split('\n').find((l) => /\d/.test(l) && !l.startsWith('#')) ?? call.text.split('\n')[1] ?? '';
      return sentence ? `The section says: "${sentence.trim().slice(0, 160)}".` : '';
    }
    case 'run_sql':
    case 'run_python': {
      if (!table) return call.tool === 'run_python' ? `It printed ${call.text.trim().split('\n').pop()?.slice(0, 80)}.` : '';
      if (table.rows.length === 0) return 'The query returned no rows.';
      return `The query returned ${table.rows.length} row${table.rows.length === 1 ? '' : 's'}; the first is ${table.columns.map((c, i) => `${c} = ${table.rows[0][i]}`).slice(0, 3).join(', ')}.`;
    }
    default:
      return '';
  }
}

/** The cell of a step's stored result that holds a carried value (row, column). */
function cellOf(rows: unknown[][] | undefined, value: string): [number, number] | undefined {
  for (let r = 0; r < (rows?.length ?? 0); r++) {
    const c = rows![r].findIndex((cell) => String(cell) === value);
    if (c >= 0) return [r, c];
  }
  return undefined;
}

/** A number as code writes it, not as part of a longer one (`45.68`, not within `145.68` or `45.681`). */
const numberPattern = (value: string) => new RegExp(`(?<![\\w.])${value.replace(/[.\-]/g, (c) => `\\${c}`)}(?![\\w]|\\.\\d)`);

const sqlLiteralOf = (value: string) => (/^-?\d+(?:\.\d+)?$/.test(value) ? value : `'${value.replace(/'/g, "''")}'`);

/**
 * The code the model means to run for an evidence step: the reference code with each value a later step takes
 * from an earlier one (TaskSpec's sub-answer `carries`) replaced by what the model's own observation of that
 * earlier step shows at the same place. A wrong earlier result is carried as it was seen.
 */
function intendedCode(task: TaskSpec, index: number, history: ReadHistory): { code: string; purpose: string; carried: Array<{ from: string; to: string }> } {
  const step = task.evidence[index];
  let code = step.code;
  // The step's purpose names the carried value too ("the stock levels of the warehouse Newark …"): the model says what it saw.
  let purpose = step.purpose;
  const carried: Array<{ from: string; to: string }> = [];
  /** What the model's own observation of step `used` shows where the reference result holds `value`. */
  const seenFor = (used: number, value: string): string | undefined => {
    const cell = cellOf(task.evidence[used]?.result?.rows, value);
    if (!cell) return undefined;
    const own = [...history.calls].reverse().find((c) => c.ok && c.visible && c.text !== undefined && matchEvidence(task, c) === used);
    return own ? parseRenderedTable(own.text!)?.rows[cell[0]]?.[cell[1]] : undefined;
  };
  const values = [...(step.subAnswer?.carries ?? [])];
  // A Python step writes the numbers earlier steps printed (`share_overall = 45.68`): the model writes the ones it saw,
  // never the reference's.
  if (step.tool === 'run_python') {
    for (const used of step.uses ?? []) {
      for (const row of task.evidence[used]?.result?.rows ?? []) {
        for (const cell of row) if (typeof cell === 'number' && !values.includes(String(cell)) && numberPattern(String(cell)).test(code)) values.push(String(cell));
      }
    }
  }
  for (const value of values) {
    for (const used of step.uses ?? []) {
      if (!cellOf(task.evidence[used]?.result?.rows, value)) continue;
      const seen = seenFor(used, value);
      if (seen === undefined || seen === value) break;
      const numeric = /^-?\d+(?:\.\d+)?$/.test(value);
      const from = sqlLiteralOf(value);
      const to = numeric && /^-?\d+(?:\.\d+)?$/.test(seen) ? seen : `'${seen.replace(/'/g, "''")}'`;
      const at = numeric ? numberPattern(value) : undefined;
      if (at ? at.test(code) : code.includes(from)) {
        code = at ? code.replace(new RegExp(at.source, 'g'), to) : code.split(from).join(to);
        carried.push({ from, to });
        purpose = purpose.split(value).join(seen);
      }
      break;
    }
  }
  // An earlier step's finding the purpose names though the code computes it afresh ("the z-score of the series
  // Wholesale and Retail Trade" after a step that showed every series tied): the model names what it saw there.
  for (let used = 0; used < index; used++) {
    const key = task.evidence[used].subAnswer?.key;
    if (key?.type !== 'string' || !purpose.includes(key.value)) continue;
    const seen = seenFor(used, key.value);
    if (seen !== undefined && seen !== key.value) purpose = purpose.split(key.value).join(seen);
  }
  return { code, purpose, carried };
}

/** A lookup that would show a string literal's column values: `col = 'x'` → SELECT DISTINCT col FROM its table. */
function lookupFor(literal: Literal, code: string, schema: SchemaView): string | undefined {
  if (literal.kind !== 'string') return undefined;
  const escaped = literal.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:(\\w+)\\.)?("[^"]+"|\\w+)\\s*(?:=|<>|!=|IN\\s*\\([^)]*?)\\s*${escaped}`, 'i').exec(code);
  if (!m) return undefined;
  const column = m[2].replace(/^"|"$/g, '');
  const table = schema.tables.find((t) => identifierPattern(t.name).test(code) && t.columns.some((c) => c.name === column));
  if (!table) return undefined;
  return `SELECT DISTINCT ${m[2]} FROM ${/^\w+$/.test(table.name) ? table.name : `"${table.name}"`} ORDER BY 1 LIMIT 100`;
}

function decide(sim: SimulationScript, profile: SimModelProfile, messages: CompletionRequest['messages'], effort: ReasoningEffort | undefined): Decision {
  const { task } = sim;
  const model = profile.spec.id;
  const attempt = sim.attempt ?? 0;
  const history = readHistory(messages);
  const random = seededRandom(`${sim.seed}|${task.id}|${history.stepIndex}|${model}|${attempt}`);
  // Plan choices are per episode, so they stay consistent from step to step.
  const plan = seededRandom(`${sim.seed}|${task.id}|plan|${model}|${attempt}`);
  const listFirst = plan() >= profile.skipListTables;
  const effortFactor = EFFORT_MISTAKE_FACTOR[effort ?? 'medium'];
  const schemaForgotten = task.tables.some((t) => history.schemaEverSeen.has(t.toLowerCase()) && !history.schemaVisible.has(t.toLowerCase()));
  const record = (action: SimAction, extra: Partial<SimDecision> = {}): SimDecision => ({
    taskId: task.id,
    model,
    stepIndex: history.stepIndex,
    action,
    mistakeProbability: 0,
    schemaForgotten,
    ...extra,
  });
  const callId = `call_sim_${history.stepIndex}_${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}`;
  const last = history.calls[history.calls.length - 1];
  const lesson = learned(last);
  const think = (intent: string) => (lesson ? `${lesson} ${intent}` : intent);
  const make = (tool: string, args: Record<string, unknown>, thought: string, rec: SimDecision): Decision => ({ tool, args, thought, callId, record: rec, random });

  // Progress: which evidence steps succeeded with a result, and which step comes next.
  // (A result of NULLs only, a join on the wrong key, is as empty: an analyst who reads `share_pct NULL` looks again.)
  const emptyResult = (c: SeenCall) => {
    if (c.tool !== 'run_sql' || !c.visible || c.text === undefined) return false;
    const rows = parseRenderedTable(c.text)?.rows;
    return rows !== undefined && (rows.length === 0 || rows.every((row) => row.every((cell) => cell === 'NULL' || cell === '')));
  };
  const done = new Set<number>();
  for (const call of history.calls) {
    const index = matchEvidence(task, call);
    if (index !== undefined && call.ok && !emptyResult(call)) done.add(index);
  }
  const nextIndex = task.evidence.findIndex((_, i) => !done.has(i));
  const schema: SchemaView = history.schema;
  // A forgotten schema makes schema-linking slips likelier and every slip a little likelier.
  const contextFactor = schemaForgotten ? 1.6 : 1;
  const lean = (sql: boolean) => ({ ...profile.categoryLean, schema_linking: (profile.categoryLean.schema_linking ?? 1) * (sql && schemaForgotten ? 2.5 : 1) });

  // 1. Repair: after an error, or an empty result where the step should have rows, run the intended code again.
  //    The diagnosis is the diff between the failed call and this one, so it names exactly what changes.
  if (last && last.visible && (!last.ok || emptyResult(last))) {
    const index = matchEvidence(task, last);
    const failed = callCode(last);
    if (index !== undefined && failed !== undefined) {
      const step = task.evidence[index];
      const { code, purpose } = intendedCode(task, index, history);
      const error = last.ok ? (parseRenderedTable(last.text ?? '')?.rows.length ? 'only NULL' : 'no rows') : last.text ?? '';
      const args = step.tool === 'run_sql' ? { query: code } : { code };
      return make(step.tool, args, `${diagnoseFromDiff(error, failed, code)} Then: ${inSentence(purpose)}.`, record('repair', { evidenceIndex: index }));
    }
    if (last.tool === 'describe_table' && !last.ok && typeof last.args.table === 'string') {
      const next = nextIndex >= 0 ? task.evidence[nextIndex] : task.evidence[0];
      const wanted = task.tables.find((t) => (identifierPattern(t).test(next.code) || next.tool === 'run_python') && !history.schemaEverSeen.has(t.toLowerCase())) ?? task.tables[0];
      return make('describe_table', { table: wanted }, `${diagnoseFromDiff(last.text ?? '', String(last.args.table), wanted)} Describing ${wanted}.`, record('repair'));
    }
  }

  // 2. Schema discovery: the table list (unless the summary is enough for this model), then each table the next
  //    step queries, described before its first query.
  //    Nothing left to run (the answer is already in an observation): no discovery, it answers.
  if (listFirst && nextIndex >= 0 && !history.calls.some((c) => c.tool === 'list_tables' && c.ok)) {
    return make('list_tables', {}, think('Let me see which tables the environment has.'), record('list_tables'));
  }
  if (nextIndex >= 0) {
    const step = task.evidence[nextIndex];
    // A task that rests on a document reads it before anything else (search, then the section): the rule says what
    // to look at.
    const wanted = task.documents?.find((d) => !history.calls.some((c) => c.tool === 'read_document' && c.ok && String(c.args.name).toLowerCase() === d.document.toLowerCase()));
    if (wanted) {
      if (!history.calls.some((c) => c.tool === 'search_documents' && c.ok)) {
        const query = searchQuery(task.question);
        return make('search_documents', { query }, think(`The question rests on a rule in the documents; searching them for "${query}".`), record('search_documents'));
      }
      // (A section is read by a heading an observation showed: a search's hit or a listing of the sections. Unseen, the
      // whole document is read, as a model would, however long.)
      const shown = wanted.section !== undefined && history.calls.some((c) => c.ok && c.text !== undefined && c.text.includes(wanted.section!));
      const args: Record<string, unknown> = wanted.section && shown ? { name: wanted.document, section: wanted.section } : { name: wanted.document };
      return make('read_document', args, think(`Reading ${wanted.document}${args.section ? ` § ${wanted.section}` : ''} for the exact rule.`), record('read_document'));
    }
    // Only the tables the step reads are described: a Python step over the results of earlier ones reads none.
    const needed = task.tables.filter((t) => identifierPattern(t).test(step.code));
    const toDescribe = needed.find((t) => !history.schemaEverSeen.has(t.toLowerCase()));
    if (toDescribe) {
      // A rare typo in the table name to inspect (the taxonomy's typo class).
      const p = Math.min(0.3, profile.baseMistakeRate * 0.05 * effortFactor * (profile.categoryLean.typo ?? 1));
      const tried = history.calls.some((c) => c.tool === 'describe_table' && !c.ok);
      if (!tried && random() < p) {
        const typo = misspell(toDescribe, random);
        return make('describe_table', { table: typo }, think(`Next I need the columns of ${typo}.`), record('describe_table', { mistake: 'misspelled_name', category: 'typo', mistakeProbability: p }));
      }
      return make('describe_table', { table: toDescribe }, think(`Before querying ${toDescribe} I need its columns.`), record('describe_table', { mistakeProbability: p }));
    }

    // 3. Grounding: every literal the step writes must have been shown, so a filter value is looked up among its
    //    column's values.
    const { code: intended, purpose, carried } = intendedCode(task, nextIndex, history);
    const unseen = step.tool === 'run_sql' ? unseenLiterals(intended, history.seen) : [];
    for (const literal of unseen) {
      const lookup = lookupFor(literal, intended, schema);
      if (lookup && !history.calls.some((c) => callCode(c) === lookup)) {
        return make('run_sql', { query: lookup }, think('Let me see which values that column holds before filtering on it.'), record('lookup_values'));
      }
    }

    // 4. The evidence step, with an occasional premature answer.
    const hasty = history.calls.length === 0 ? 0 : Math.min(0.5, profile.prematureAnswerRate * effortFactor * (1 + nextIndex));
    if (hasty > 0 && random() < hasty) {
      const guess = hastyGuess(task, history.calls, random);
      return make('final_answer', { answer: guess, explanation: 'Based on what I have seen so far.' }, think(`I think I already have enough to answer: ${guess}.`), record('premature_answer', { mistake: 'premature_answer', category: 'answer', mistakeProbability: hasty }));
    }
    const context = step.tool === 'run_sql' ? contextFactor : 1;
    const p = Math.min(0.9, profile.baseMistakeRate * stepDifficulty(step.tool, step.code) * effortFactor * context);
    let code = intended;
    let mistake: { kind: MistakeKind; category: ErrorCategory } | undefined;
    if (random() < p) {
      const applied = applyMistake(step.tool, intended, schema, random, { categories: lean(step.tool === 'run_sql') });
      if (applied) {
        code = applied.code;
        mistake = { kind: applied.kind, category: applied.category };
      }
    }
    const args = step.tool === 'run_sql' ? { query: code } : { code };
    const carriedNote = carried.length ? ` Using ${carried.map((c) => c.to).join(' and ')} from the earlier result.` : '';
    const thought = think(`Next: ${inSentence(purpose)}.${carriedNote}`);
    const stillUnseen = step.tool === 'run_sql' ? unseenLiterals(code, history.seen).map((l) => l.text) : [];
    return make(step.tool, args, thought, record('evidence', { evidenceIndex: nextIndex, mistake: mistake?.kind, category: mistake?.category, mistakeProbability: p, unseenLiterals: stillUnseen.length ? stillUnseen : undefined, carried: carried.length ? carried : undefined }));
  }

  // 5. The final answer, read from the last evidence step's observation as it appears in the conversation.
  const lastIndex = task.evidence.length - 1;
  const result = [...history.calls].reverse().find((c) => c.ok && matchEvidence(task, c) === lastIndex);
  if (!result?.visible || result.text === undefined) {
    // The result scrolled out of the context: run the step again to see it.
    const { code, purpose } = intendedCode(task, lastIndex, history);
    const step = task.evidence[lastIndex];
    return make(step.tool, step.tool === 'run_sql' ? { query: code } : { code }, `I no longer see the result of the last step; running it again. ${purpose}.`, record('evidence', { evidenceIndex: lastIndex }));
  }
  const answer = readAnswer(task, result.tool, result.text) ?? 'unknown';
  const purposes = task.evidence.map((_, i) => intendedCode(task, i, history).purpose);
  const explanation = purposes.map((p, i) => (i === 0 ? p : inSentence(p))).join('; then ') + '.';
  return make('final_answer', { answer, explanation }, think(`That gives the answer: ${answer}.`), record('final_answer', { category: undefined }));
}

/** A step's purpose inside a sentence: "share of …" after "then", but an acronym keeps its capitals ("VIP customers …"). */
function inSentence(purpose: string): string {
  return /^[A-Z][A-Z]/.test(purpose) ? purpose : `${purpose.charAt(0).toLowerCase()}${purpose.slice(1)}`;
}
