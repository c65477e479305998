/**
 * Inference mode's pieces that need no editor: the demo library of a folder's newest run, a question with its
 * retrieved demos, steps as chat Markdown (SQL as code blocks, results as tables), and a demo in the format of
 * the document it is inserted into.
 */
import { EpisodeResult, runEpisode } from '../agent/episode';
import type { ToolContext } from '../agent/tools';
import type { AgentStep } from '../agent/types';
import { isLocalEndpoint } from '../llm/openaiProvider';
import type { LlmProvider } from '../llm/types';
import type { DemoHit } from './demos';
import { parseRenderedTable } from '../agent/render';
import type { EnvironmentProfile } from '../env/types';
import { createSimulatedProvider, simulationScript } from '../sim/simulatedProvider';
import { listRuns } from '../store/runFolder';
import type { TaskSpec } from '../taskpool/types';
import { DemoLibrary, renderDemo, renderDemos } from './demos';
import { trajectoriesFromRun } from './runAdapter';
import type { ExportTrajectory } from './types';

export interface FolderDemoLibrary {
  library: DemoLibrary;
  runDir: string;
  runId: string;
}

/** The newest run under `<root>/.toffee/runs` that has trajectories to use as demos; undefined when none. */
export function demoLibraryForFolder(root: string, profile?: EnvironmentProfile): FolderDemoLibrary | undefined {
  for (const run of listRuns(root)) {
    try {
      const { trajectories, runId } = trajectoriesFromRun(run.runDir);
      const library = new DemoLibrary(trajectories, { profile });
      if (library.size > 0) return { library, runDir: run.runDir, runId };
    } catch {
      // A damaged or foreign run folder is skipped: older runs may still serve.
    }
  }
  return undefined;
}

/**
 * The question as the agent receives it in inference mode: the question first (the prompt builder prefixes
 * "Question: "), then the demos as worked examples. Zero-shot when there are none.
 */
export function questionWithDemos(question: string, demos: ExportTrajectory[]): string {
  if (demos.length === 0) return question;
  return `${question}\n\n${renderDemos(demos)}\n\nThe examples show how similar questions were answered here; answer the question above with the tools.`;
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

export interface AnswerInput {
  /** The data folder; its newest run with trajectories supplies the demos. */
  root: string;
  question: string;
  toolContext: ToolContext;
  provider: LlmProvider;
  model: string;
  /** No demos in the prompt (the chat's "compare with zero-shot"). */
  zeroShot?: boolean;
  /** Demos retrieved (default 3). */
  k?: number;
  maxSteps?: number;
  signal?: AbortSignal;
  /** Called once the demos are chosen, before the first model call. */
  onDemos?: (hits: DemoHit[], runId: string | undefined) => void;
  onStep?: (step: AgentStep) => void;
}

export interface AnswerResult {
  demos: DemoHit[];
  /** The run the demos came from; undefined when there was none (or zero-shot). */
  runId?: string;
  episode: EpisodeResult;
}

/** Inference mode: retrieve demos for the question, put them in the prompt, and run the agent loop with tools. */
export async function answerWithDemos(input: AnswerInput): Promise<AnswerResult> {
  const found = input.zeroShot ? undefined : demoLibraryForFolder(input.root, input.toolContext.profile);
  const demos = found ? found.library.retrieve(input.question, input.k ?? 3) : [];
  input.onDemos?.(demos, found?.runId);
  const episode = await runEpisode({
    task: { question: questionWithDemos(input.question, demos.map((d) => d.trajectory)) },
    config: { provider: input.provider, model: input.model },
    toolContext: input.toolContext,
    maxSteps: input.maxSteps ?? 12,
    signal: input.signal,
    onStep: input.onStep,
  });
  return { demos, runId: found?.runId, episode };
}

/** A task of a run, as near as the demo retrieval ranks it to a question. */
export interface NearestTask {
  task: TaskSpec;
  /** The retrieval score (BM25 over wording and schema names; higher is nearer, not a probability). */
  score: number;
  runId: string;
}

/**
 * The tasks of the folder's newest run with trajectories, nearest first: what the offline simulated models can
 * answer. They replay a task's own reference solution, so they cannot answer a free question; the nearest task is
 * the honest stand-in, labelled as such (offlineAnswerNote).
 */
export function nearestRunTasks(root: string, question: string, profile?: EnvironmentProfile, k = 5): NearestTask[] {
  const found = demoLibraryForFolder(root, profile);
  if (!found) return [];
  return found.library.retrieve(question, k).map((hit) => ({ task: hit.trajectory.task, score: hit.score, runId: found.runId }));
}

/** The simulated model that answers offline: the largest, the one that errs least. */
export const OFFLINE_ANSWER_MODEL = 'sim-large';

/** Runs the simulated model on a run's task (its reference solution is what it replays), step by step. */
export async function answerTaskOffline(input: { task: TaskSpec; toolContext: ToolContext; seed?: number; maxSteps?: number; signal?: AbortSignal; onStep?: (step: AgentStep) => void }): Promise<EpisodeResult> {
  return runEpisode({
    task: { question: input.task.question },
    config: { provider: createSimulatedProvider({ script: simulationScript(input.task, input.seed ?? 1) }), model: OFFLINE_ANSWER_MODEL },
    toolContext: input.toolContext,
    maxSteps: input.maxSteps ?? 12,
    signal: input.signal,
    onStep: input.onStep,
  });
}

/** What an offline answer answers, said before it: the nearest task's question, not the user's. */
export function offlineAnswerNote(question: string, nearest: NearestTask): string {
  const same = nearest.task.question.trim().toLowerCase() === question.trim().toLowerCase();
  return same
    ? `### Offline answer\n\n_A simulated model (${OFFLINE_ANSWER_MODEL}, offline) answers this task of run ${nearest.runId}: it replays the task's reference solution, which TOFFEE computed from the data._`
    : `### Offline answer to the nearest task\n\n_The simulated models can only replay a task whose answer TOFFEE computed itself, so ${OFFLINE_ANSWER_MODEL} (offline) answers the task of run ${nearest.runId} nearest to your question — **“${nearest.task.question}”** (similarity ${nearest.score.toFixed(2)}) — not your exact words. Set up a model (above) for free questions._`;
}

/** Where inference mode's model comes from. */
export type AnswerModelSource =
  | { kind: 'vscode-lm' }
  | { kind: 'endpoint' }
  | { kind: 'none'; message: string };

export interface AnswerModelInput {
  /** `toffee.llm.provider`. */
  providerSetting: string;
  /** `toffee.llm.baseUrl`. */
  baseUrl: string;
  /** A key is stored for baseUrl ("TOFFEE: Set API Key"). */
  hasApiKey: boolean;
  /** A VS Code language model is at hand: the chat request's own, or one `vscode.lm.selectChatModels` returned. */
  vscodeModelAvailable: boolean;
}

/** What to tell a user who has no model to answer with: the settings and the command that fix it. */
export const NO_ANSWER_MODEL_MESSAGE =
  '**No language model to answer with.** VS Code offers no chat model here (`vscode.lm` has none, e.g. no GitHub Copilot), ' +
  'and no OpenAI-compatible endpoint is configured. To use one, set `toffee.llm.provider` to `openai-compatible`, ' +
  '`toffee.llm.baseUrl` to its URL (e.g. `https://api.openai.com/v1`, or `http://localhost:11434/v1` for Ollama) and ' +
  '`toffee.llm.model` to a model id, then run **TOFFEE: Set API Key**.';

/**
 * The model policy of inference mode. An explicit `openai-compatible` provider setting wins; otherwise the user's
 * VS Code language model; when VS Code has none (VS Code for the web, VSCodium, no Copilot), the configured
 * endpoint if it has a key (or is local and needs none); else a message saying what to configure. The offline
 * simulated models never answer: they only replay tasks whose solution is known.
 */
export function chooseAnswerModel(input: AnswerModelInput): AnswerModelSource {
  const endpointReady = input.hasApiKey || isLocalEndpoint(input.baseUrl);
  if (input.providerSetting === 'openai-compatible') {
    return endpointReady
      ? { kind: 'endpoint' }
      : { kind: 'none', message: `**No API key for ${input.baseUrl}.** \`toffee.llm.provider\` is \`openai-compatible\`: run **TOFFEE: Set API Key** for that base URL (the key goes to VS Code's secret storage), or point \`toffee.llm.baseUrl\` at a local endpoint.` };
  }
  if (input.vscodeModelAvailable) return { kind: 'vscode-lm' };
  if (endpointReady) return { kind: 'endpoint' };
  return { kind: 'none', message: NO_ANSWER_MODEL_MESSAGE };
}

/** The end of an answer: the final answer (or why there is none) and which model answered, with its cost. */
export function answerMarkdown(episode: EpisodeResult, answeredBy: string): string {
  const parts: string[] = [];
  if (episode.stopReason === 'final_answer' && episode.state.finalAnswer) {
    parts.push(`### Answer\n\n**${episode.state.finalAnswer.answer}**`);
    if (episode.state.finalAnswer.explanation) parts.push(episode.state.finalAnswer.explanation);
  } else if (episode.stopReason === 'provider_error') {
    parts.push(`The model failed: ${episode.error ?? 'unknown error'}`);
  } else {
    parts.push(`Stopped (${episode.stopReason}) without a final answer.`);
  }
  const t = episode.totals;
  parts.push(`_Answered by ${answeredBy} · ${t.steps} steps · ${t.usage.prompt}+${t.usage.completion} tokens · $${t.costUsd.toFixed(4)}_`);
  return parts.join('\n\n');
}

/** A rendered observation for a chat: result tables as Markdown tables, anything else as a text block. */
export function observationMarkdown(text: string): string {
  const table = parseRenderedTable(text);
  if (!table || table.columns.length === 0) return fence(text);
  const cell = (value: string) => value.replace(/\|/g, '\\|');
  const lines = [`| ${table.columns.map(cell).join(' | ')} |`, `|${table.columns.map(() => ' --- ').join('|')}|`];
  for (const row of table.rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  const countLine = text.split('\n').find((l) => /^\((at least )?\d+ rows?/.test(l));
  if (countLine) lines.push('', `_${countLine.replace(/^\(|\)$/g, '')}_`);
  return lines.join('\n');
}

/** One agent step for a chat response. */
export function stepMarkdown(step: AgentStep): string {
  const parts = [`**Step ${step.index + 1}** · ${step.config.model}`];
  if (step.thought.trim()) parts.push(step.thought.trim());
  const call = step.toolCall;
  if (call && call.name !== 'final_answer') {
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(call.arguments || '{}') as Record<string, unknown>;
    } catch {
      args = {};
    }
    if (call.name === 'run_sql' && typeof args.query === 'string') parts.push(fence(args.query, 'sql'));
    else if (call.name === 'run_python' && typeof args.code === 'string') parts.push(fence(args.code, 'python'));
    else parts.push(`\`${call.name}\` ${fence(call.arguments || '{}', 'json')}`);
    parts.push(step.observation.ok ? observationMarkdown(step.observation.text) : `⚠️ ${step.observation.text}`);
  } else if (!call) {
    parts.push(`⚠️ ${step.observation.text}`);
  }
  return parts.join('\n\n');
}

/** A demo as text for the active document: Markdown, a Python string, JSON, or plain text for anything else. */
export function formatDemoForLanguage(trajectory: ExportTrajectory, languageId: string): string {
  const plain = renderDemo(trajectory);
  switch (languageId) {
    case 'markdown':
      return `<!-- TOFFEE demo ${trajectory.trajectoryId} -->\n${fence(plain, 'text')}\n`;
    case 'python': {
      // A raw triple-quoted string; triple quotes inside are split so the literal stays valid.
      const safe = plain.replace(/"""/g, '""\\"').replace(/\\$/gm, '\\ ');
      return `DEMO = r"""\n${safe}\n"""\n`;
    }
    case 'json':
    case 'jsonc': {
      const steps = trajectory.steps
        .filter((s) => s.toolCall && s.toolCall.name !== 'final_answer' && s.observation.ok)
        .map((s) => ({ tool: s.toolCall!.name, arguments: safeJson(s.toolCall!.arguments), observation: s.observation.text }));
      return JSON.stringify({ question: trajectory.task.question, steps, answer: trajectory.finalAnswer?.answer ?? null, explanation: trajectory.finalAnswer?.explanation ?? null, source: trajectory.trajectoryId }, null, 2);
    }
    default:
      return `${plain}\n`;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text || '{}') as unknown;
  } catch {
    return text;
  }
}
