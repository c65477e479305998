/**
 * The offline simulated models. They play the agent by following a task's reference solution (its evidence
 * steps) the way an LLM agent would: schema discovery, then the steps, then an answer read from the actual
 * observations — with seeded mistakes applied to the real code, and repairs after error observations.
 */
import { estimateMessagesTokens, estimateTokens } from '../llm/tokens';
import { parseRenderedTable } from '../agent/render';
import type { TaskSpec } from '../taskpool/types';
import { LlmError } from '../llm/errors';
import type { Completion, CompletionRequest, LlmProvider, ModelSpec, ReasoningEffort, ToolCallRequest } from '../llm/types';
import { SeenCall, callCode, codeSimilarity, readHistory } from './history';
import { MistakeKind, SchemaView, applyMistake, misspell } from './mistakes';
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

export type SimAction = 'list_tables' | 'describe_table' | 'evidence' | 'repair' | 'final_answer' | 'premature_answer';

/** What the simulated model decided at one step, for inspection (sim-stats, the explorer's tags). */
export interface SimDecision {
  taskId: string;
  model: string;
  stepIndex: number;
  action: SimAction;
  evidenceIndex?: number;
  /** The seeded mistake applied to this step's call, if any. */
  mistake?: MistakeKind;
  /** The probability of a mistake this step had. */
  mistakeProbability: number;
  schemaForgotten: boolean;
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

/** Mistakes a model just told about by an error will not repeat in its repair. */
function mistakesNamedBy(error: string): MistakeKind[] {
  if (/no such column/i.test(error)) return ['misspelled_column', 'wrong_column'];
  if (/no such table/i.test(error)) return ['wrong_table'];
  if (/NameError/.test(error)) return ['python_name_error'];
  if (/TypeError/.test(error)) return ['python_type_error'];
  return [];
}

/** Levenshtein distance, for "you meant X" in diagnoses. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const c of candidates) {
    if (c === name) continue;
    const distance = editDistance(name.toLowerCase(), c.toLowerCase());
    if (!best || distance < best.distance) best = { name: c, distance };
  }
  return best?.name;
}

/** A short diagnosis of an error, from its message and the difference between the failed and the fixed code. */
export function diagnose(error: string, failed: string | undefined, fixed: string | undefined): string {
  const tokens = (s: string | undefined) => new Set(s?.match(/[A-Za-z_][A-Za-z0-9_]*|'\d+(?:\.\d+)?'|\d+(?:\.\d+)?/g) ?? []);
  const before = tokens(failed);
  const after = tokens(fixed);
  const removed = [...before].filter((t) => !after.has(t));
  const added = [...after].filter((t) => !before.has(t));
  const missingColumn = /no such column:\s*"?([\w.]+)"?/i.exec(error);
  if (missingColumn) {
    const bad = missingColumn[1].split('.').pop()!;
    const good = closest(bad, after);
    return `The column '${bad}' does not exist; the schema shows '${good ?? 'a different name'}'. I'll fix the name and run it again.`;
  }
  const missingTable = /no such table:\s*"?([\w.]+)"?/i.exec(error);
  if (missingTable) {
    const good = closest(missingTable[1], after);
    return `There is no table '${missingTable[1]}'; ${good ? `the right one is '${good}'` : 'I will check the table list'}. Fixing the query.`;
  }
  const nameError = /NameError: name '(\w+)' is not defined/.exec(error);
  if (nameError) return `NameError: '${nameError[1]}' is not defined — I meant '${closest(nameError[1], after) ?? 'the variable defined above'}'. Fixing the variable name.`;
  if (/TypeError/.test(error)) return `TypeError: I passed a string where a number was expected (${removed[0] ?? 'a quoted literal'}). Using the number instead.`;
  if (/timeout|timed out/i.test(error)) return 'The query timed out; I will run a simpler, correct version.';
  const noTable = /no table named '([^']+)'/.exec(error);
  if (noTable) return `There is no table '${noTable[1]}'; the table list shows '${fixed ?? closest(noTable[1], added) ?? 'another name'}'. Using that name.`;
  return `The call failed (${error.replace(/^Error:\s*/, '').slice(0, 120)}). Let me correct it.`;
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

function decide(sim: SimulationScript, profile: SimModelProfile, messages: CompletionRequest['messages'], effort: ReasoningEffort | undefined): Decision {
  const { task } = sim;
  const model = profile.spec.id;
  const attempt = sim.attempt ?? 0;
  const history = readHistory(messages);
  const random = seededRandom(`${sim.seed}|${task.id}|${history.stepIndex}|${model}|${attempt}`);
  // Plan choices (which discovery to skip) are per episode, so they stay consistent from step to step.
  const plan = seededRandom(`${sim.seed}|${task.id}|plan|${model}|${attempt}`);
  const listFirst = plan() >= profile.skipListTables;
  const skipDescribe = new Set(task.tables.filter(() => plan() < profile.skipDescribe));
  const effortFactor = EFFORT_MISTAKE_FACTOR[effort ?? 'medium'];
  const schemaForgotten = task.tables.some((t) => history.schemaEverSeen.has(t.toLowerCase()) && !history.schemaVisible.has(t.toLowerCase()));
  const schemaUnseen = task.tables.some((t) => !history.schemaEverSeen.has(t.toLowerCase()));
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
  const make = (tool: string, args: Record<string, unknown>, thought: string, rec: SimDecision): Decision => ({ tool, args, thought, callId, record: rec, random });

  // Progress: which evidence steps succeeded (in order), and which step the last call attempted.
  const done = new Set<number>();
  for (const call of history.calls) {
    const index = matchEvidence(task, call);
    if (index !== undefined && call.ok) done.add(index);
  }
  const last = history.calls[history.calls.length - 1];
  const nextIndex = task.evidence.findIndex((_, i) => !done.has(i));

  // The schema the model can rely on: the summary always; forgetting makes name slips likelier.
  const schema: SchemaView = history.schema;
  const nameWeight = schemaForgotten ? 2.5 : schemaUnseen ? 1.5 : 1;
  const contextFactor = schemaForgotten ? 1.6 : schemaUnseen ? 1.15 : 1;

  const evidenceCall = (index: number, repairOf?: SeenCall): Decision => {
    const step = task.evidence[index];
    // Forgotten schema hurts SQL (table and column names); Python's names are its own.
    const context = step.tool === 'run_sql' ? contextFactor : 1;
    const p = Math.min(0.9, profile.baseMistakeRate * stepDifficulty(step.tool, step.code) * effortFactor * context * (repairOf ? 0.4 : 1));
    let code = step.code;
    let mistake: MistakeKind | undefined;
    if (random() < p) {
      const avoid = repairOf ? mistakesNamedBy(repairOf.text ?? '') : [];
      const applied = applyMistake(step.tool, step.code, schema, random, { names: step.tool === 'run_sql' ? nameWeight : 1, avoid });
      if (applied) {
        code = applied.code;
        mistake = applied.kind;
      }
    }
    const args = step.tool === 'run_sql' ? { query: code } : { code };
    const purpose = `${step.purpose}.`;
    const thought = repairOf ? `${diagnose(repairOf.text ?? '', callCode(repairOf), step.code)} ${purpose}` : `Next: ${purpose.charAt(0).toLowerCase()}${purpose.slice(1)}`;
    return make(step.tool, args, thought, record(repairOf ? 'repair' : 'evidence', { evidenceIndex: index, mistake, mistakeProbability: p }));
  };

  // 1. Repair after a visible error.
  if (last && last.visible && !last.ok) {
    const index = matchEvidence(task, last);
    if (index !== undefined) return evidenceCall(index, last);
    if (last.tool === 'describe_table' && typeof last.args.table === 'string') {
      const wanted = task.tables.find((t) => !history.schemaEverSeen.has(t.toLowerCase())) ?? task.tables[0];
      return make('describe_table', { table: wanted }, `${diagnose(last.text ?? '', last.args.table, wanted)}`, record('repair'));
    }
  }

  // 2. Schema discovery.
  if (listFirst && !history.calls.some((c) => c.tool === 'list_tables' && c.ok)) {
    return make('list_tables', {}, 'Let me see which tables the environment has.', record('list_tables'));
  }
  const toDescribe = task.tables.find((t) => !skipDescribe.has(t) && !history.schemaEverSeen.has(t.toLowerCase()));
  if (toDescribe && nextIndex === 0) {
    // Small models sometimes misspell the table they mean to inspect.
    const p = Math.min(0.5, profile.baseMistakeRate * 0.2 * effortFactor);
    const tried = history.calls.some((c) => c.tool === 'describe_table' && c.args.table !== toDescribe);
    if (!tried && random() < p) {
      const typo = misspell(toDescribe, random);
      return make('describe_table', { table: typo }, `Let me look at the columns of ${typo}.`, record('describe_table', { mistake: 'misspelled_table', mistakeProbability: p }));
    }
    return make('describe_table', { table: toDescribe }, `Let me look at the columns of ${toDescribe}.`, record('describe_table', { mistakeProbability: p }));
  }

  // 3. The evidence steps, with an occasional premature answer.
  if (nextIndex >= 0) {
    // Haste grows with the work still ahead; a model answers early only once it has seen something.
    const p = history.calls.length === 0 ? 0 : Math.min(0.5, profile.prematureAnswerRate * effortFactor * (1 + nextIndex));
    if (p > 0 && random() < p) {
      const guess = hastyGuess(task, history.calls, random);
      return make('final_answer', { answer: guess, explanation: 'Based on what I have seen so far.' }, `I think I already have enough to answer: ${guess}.`, record('premature_answer', { mistake: 'premature_answer', mistakeProbability: p }));
    }
    return evidenceCall(nextIndex);
  }

  // 4. The final answer, read from the last evidence step's observation as it appears in the conversation.
  const lastIndex = task.evidence.length - 1;
  const result = [...history.calls].reverse().find((c) => c.ok && matchEvidence(task, c) === lastIndex);
  if (!result?.visible || result.text === undefined) {
    // The result scrolled out of the context: run the step again to see it.
    const again = evidenceCall(lastIndex);
    again.thought = `I no longer see the result of the last step; running it again. ${again.thought}`;
    return again;
  }
  const answer = readAnswer(task, result.tool, result.text) ?? 'unknown';
  const explanation = task.evidence.map((s) => s.purpose).join('; then ') + '.';
  return make('final_answer', { answer, explanation }, `The result gives the answer: ${answer}.`, record('final_answer'));
}
