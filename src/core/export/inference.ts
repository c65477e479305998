/**
 * Inference mode's pieces that need no editor: the demo library of a folder's newest run, a question with its
 * retrieved demos, steps as chat Markdown (SQL as code blocks, results as tables), and a demo in the format of
 * the document it is inserted into.
 */
import { EpisodeResult, runEpisode } from '../agent/episode';
import type { ToolContext } from '../agent/tools';
import type { AgentStep } from '../agent/types';
import type { LlmProvider } from '../llm/types';
import type { DemoHit } from './demos';
import { parseRenderedTable } from '../agent/render';
import type { EnvironmentProfile } from '../env/types';
import { listRuns } from '../store/runFolder';
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
