/**
 * Inference mode's answer, shared by the `@toffee` chat participant and "TOFFEE: Ask About Data" (for VS Code
 * builds without Chat or without a chat model: code-server, VSCodium). Picks the model (core's
 * chooseAnswerModel), runs core's answerWithDemos, and streams Markdown into a sink: a ChatResponseStream or a
 * Markdown document. Every line that reaches a sink or the log is redacted of the API key.
 */
import * as vscode from 'vscode';
import { AgentSession, openAgentSession } from '../../core/agent/session';
import { answerMarkdown, answerTaskOffline, answerWithDemos, chooseAnswerModel, nearestRunTasks, offlineAnswerNote, OFFLINE_ANSWER_MODEL, stepMarkdown, type NearestTask } from '../../core/export/inference';
import { redactSecrets } from '../../core/llm/errors';
import type { LlmProvider } from '../../core/llm/types';
import { createVsCodeLmProvider, getApiKey, openAiProviderFromSettings, readLlmSettings } from '../lm';
import { describeError, log } from '../log';

const DEMOS_PER_QUESTION = 3;

/** Where an answer is written as it is produced. */
export interface AnswerSink {
  markdown(text: string): void | Promise<void>;
  progress(text: string): void;
}

export interface AnswerRequest {
  /** The data folder: its data environment answers, its newest run supplies demos. */
  root: string;
  question: string;
  zeroShot?: boolean;
  /** The chat request's own model, when the question came through Chat. */
  chatModel?: vscode.LanguageModelChat;
  /**
   * With no model to answer with, the offline path answers one of the run's tasks: this chooses it among the
   * nearest (default: the nearest).
   */
  pickTask?: (nearest: NearestTask[]) => Promise<NearestTask | undefined>;
}

export interface AnswerOutcome {
  /** Which model answered, as shown to the user; undefined when none could. */
  answeredBy?: string;
  finalAnswer?: string;
  demos: number;
  error?: string;
  /** Offline: the id of the run task the simulated model answered instead of the question. */
  offlineTask?: string;
}

interface ChosenModel {
  provider: LlmProvider;
  model: string;
  /** Shown to the user: the model and where it runs. */
  label: string;
}

/** The model to answer with (see chooseAnswerModel), or a message saying what to configure. */
async function resolveAnswerModel(context: vscode.ExtensionContext, chatModel: vscode.LanguageModelChat | undefined, apiKey: string | undefined): Promise<ChosenModel | { message: string }> {
  const settings = readLlmSettings();
  let vscodeModel = chatModel;
  if (!vscodeModel && settings.provider !== 'openai-compatible') {
    const preferred = settings.provider === 'vscode-lm' && settings.model ? await selectModels(settings.model) : [];
    vscodeModel = preferred[0] ?? (await selectModels())[0];
  }
  const source = chooseAnswerModel({ providerSetting: settings.provider, baseUrl: settings.baseUrl, hasApiKey: Boolean(apiKey), vscodeModelAvailable: Boolean(vscodeModel) });
  if (source.kind === 'none') return { message: source.message };
  if (source.kind === 'vscode-lm' && vscodeModel) {
    return {
      provider: createVsCodeLmProvider({ priceOverrides: settings.prices, timeoutMs: settings.timeoutMs }),
      model: vscodeModel.id,
      label: `**${vscodeModel.name}** (VS Code language model, ${vscodeModel.vendor})`,
    };
  }
  const provider = openAiProviderFromSettings(settings, apiKey, { info: (line) => log().info(line), error: (line) => log().error(line) });
  let model = settings.model || settings.models[0];
  if (!model) {
    try {
      model = (await provider.listModels())[0]?.id;
    } catch (error) {
      return { message: `**No model configured.** Set \`toffee.llm.model\`: listing the models of ${settings.baseUrl} failed (${describeError(error)}).` };
    }
    if (!model) return { message: `**No model configured.** Set \`toffee.llm.model\`: ${settings.baseUrl} lists no models.` };
  }
  return { provider, model, label: `**${model}** (OpenAI-compatible endpoint ${settings.baseUrl})` };
}

async function selectModels(model?: string): Promise<vscode.LanguageModelChat[]> {
  // Hosts without the language model API (older forks) have none.
  if (typeof vscode.lm?.selectChatModels !== 'function') return [];
  if (!model) return vscode.lm.selectChatModels({});
  for (const selector of [{ id: model }, { family: model }]) {
    const found = await vscode.lm.selectChatModels(selector);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * Answers one question about the data folder into the sink: the demos retrieved, each agent step (SQL as code
 * blocks, results as tables), the answer and which model gave it.
 */
export async function answerQuestion(context: vscode.ExtensionContext, request: AnswerRequest, sink: AnswerSink, token: vscode.CancellationToken): Promise<AnswerOutcome> {
  const settings = readLlmSettings();
  const apiKey = await getApiKey(context, settings.baseUrl);
  const clean = (text: string) => redactSecrets(text, [apiKey]);
  const write = async (text: string) => sink.markdown(clean(text));
  const chosen = await resolveAnswerModel(context, request.chatModel, apiKey);
  if ('message' in chosen) {
    await write(chosen.message);
    log().warn(`Ask: no model to answer with (provider setting ${settings.provider}); trying the offline answer`);
    return answerOffline(request, sink, token);
  }
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  sink.progress('Loading the data environment…');
  let session: AgentSession | undefined;
  try {
    session = await openAgentSession(request.root);
    let pending: Promise<void> = Promise.resolve();
    // Steps arrive from a callback; their writes stay in order.
    const enqueue = (text: string) => (pending = pending.then(() => write(text)));
    const { episode, demos, runId } = await answerWithDemos({
      root: request.root,
      question: request.question,
      toolContext: session.toolContext,
      provider: chosen.provider,
      model: chosen.model,
      zeroShot: request.zeroShot,
      k: DEMOS_PER_QUESTION,
      signal: controller.signal,
      onDemos: (hits, demoRunId) => {
        if (request.zeroShot) void enqueue('_Zero-shot: no demos in the prompt._\n\n');
        else if (!demoRunId) void enqueue('_No TOFFEE run with trajectories in this folder yet (synthesize one for demos); answering zero-shot._\n\n');
        else void enqueue(`_Demos from run ${demoRunId}: ${hits.map((h) => `“${h.trajectory.task.question}”`).join(', ') || 'none similar'}_\n\n`);
        sink.progress(`Running the agent with ${chosen.model}…`);
      },
      onStep: (step) => void enqueue(`${stepMarkdown(step)}\n\n`),
    });
    await pending;
    await write(`${answerMarkdown(episode, chosen.label)}\n`);
    log().info(`Ask: ${episode.stopReason} after ${episode.totals.steps} steps with ${chosen.model} (${chosen.provider.id}); ${demos.length} demos${runId ? ` from run ${runId}` : ''}`);
    return { answeredBy: chosen.label, finalAnswer: episode.state.finalAnswer?.answer, demos: demos.length, error: episode.stopReason === 'provider_error' ? clean(episode.error ?? 'provider error') : undefined };
  } catch (error) {
    throw new Error(clean(describeError(error)));
  } finally {
    cancel.dispose();
    await session?.dispose();
  }
}

/**
 * The offline answer: a simulated model on the run task nearest the question, clearly labelled as such. Without a
 * run there is no task to answer, and it says how to get one.
 */
async function answerOffline(request: AnswerRequest, sink: AnswerSink, token: vscode.CancellationToken): Promise<AnswerOutcome> {
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  let session: AgentSession | undefined;
  try {
    sink.progress('Looking for the nearest task of the newest run…');
    session = await openAgentSession(request.root);
    const nearest = nearestRunTasks(request.root, request.question, session.toolContext.profile);
    if (nearest.length === 0) {
      await sink.markdown('\n\n_Offline, TOFFEE can only answer questions near one of its own tasks, and this folder has no run with trajectories yet: run **TOFFEE: Synthesize Trajectories** with the simulated models first._\n');
      return { demos: 0, error: 'no model' };
    }
    const hit = request.pickTask ? await request.pickTask(nearest) : nearest[0];
    if (!hit) return { demos: 0, error: 'no task chosen' };
    await sink.markdown(`\n\n${offlineAnswerNote(request.question, hit)}\n\n`);
    sink.progress(`Running the simulated model ${OFFLINE_ANSWER_MODEL} on the nearest task…`);
    let pending: Promise<void> = Promise.resolve();
    const episode = await answerTaskOffline({
      task: hit.task,
      toolContext: session.toolContext,
      signal: controller.signal,
      onStep: (step) => void (pending = pending.then(() => sink.markdown(`${stepMarkdown(step)}\n\n`))),
    });
    await pending;
    const label = `**${OFFLINE_ANSWER_MODEL}** (simulated, offline) on the nearest task of run ${hit.runId}`;
    await sink.markdown(`${answerMarkdown(episode, label)}\n`);
    log().info(`Ask (offline): ${episode.stopReason} after ${episode.totals.steps} steps on task ${hit.task.id} (score ${hit.score.toFixed(2)})`);
    return { answeredBy: label, finalAnswer: episode.state.finalAnswer?.answer, demos: 0, offlineTask: hit.task.id };
  } finally {
    cancel.dispose();
    await session?.dispose();
  }
}

interface ToffeeChatResultMetadata {
  question: string;
  demos: number;
}

export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The `@toffee` participant's request handler. */
export function createChatHandler(context: vscode.ExtensionContext): vscode.ChatRequestHandler {
  return async (request, _chatContext, stream, token) => {
    const root = workspaceRoot();
    if (!root) {
      stream.markdown('Open a folder of data files first: `@toffee` answers questions about the workspace folder’s data.');
      return {};
    }
    const question = request.prompt.trim();
    if (!question) {
      stream.markdown('Ask a question about the data, e.g. `@toffee which region has the highest average order total?`');
      return {};
    }
    try {
      // `request.model` is always set by VS Code's chat; a host driving the handler itself may leave it out.
      const outcome = await answerQuestion(context, { root, question, zeroShot: request.command === 'zeroshot', chatModel: request.model as vscode.LanguageModelChat | undefined }, { markdown: (text) => void stream.markdown(text), progress: (text) => stream.progress(text) }, token);
      const metadata: ToffeeChatResultMetadata = { question, demos: outcome.demos };
      return { metadata };
    } catch (error) {
      const message = describeError(error);
      log().error(`@toffee: ${message}`);
      return { errorDetails: { message } };
    }
  };
}

export function chatFollowups(): vscode.ChatFollowupProvider {
  return {
    provideFollowups(result) {
      const metadata = result.metadata as ToffeeChatResultMetadata | undefined;
      if (!metadata || metadata.demos === 0) return [];
      return [{ prompt: metadata.question, command: 'zeroshot', label: 'Compare with zero-shot' }];
    },
  };
}

/** Offline, the user chooses which of the run's nearest tasks the simulated model answers. */
async function pickNearestTask(nearest: NearestTask[]): Promise<NearestTask | undefined> {
  const picked = await vscode.window.showQuickPick(
    nearest.map((hit) => ({ label: hit.task.question, description: `similarity ${hit.score.toFixed(2)}`, detail: `${hit.task.family} · ${hit.task.difficulty.level} · a task of run ${hit.runId}`, hit })),
    { title: 'TOFFEE: Ask About Data offline: the simulated models answer one of the run’s tasks — pick the nearest to your question', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.hit;
}

/** Automation arguments (integration tests, keybindings): the question and the data folder. */
interface AskArguments {
  question?: string;
  folder?: string;
}

let answerCount = 0;

/** A new untitled Markdown document that grows as the answer streams in. */
async function answerDocument(question: string): Promise<AnswerSink & { uri: vscode.Uri }> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `TOFFEE Answer ${++answerCount}.md` });
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  let pending: Promise<unknown> = Promise.resolve();
  const append = (text: string) => {
    pending = pending.then(async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, document.positionAt(document.getText().length), text);
      await vscode.workspace.applyEdit(edit);
    });
    return pending.then(() => undefined);
  };
  await append(`# ${question}\n\n`);
  return { uri, markdown: append, progress: () => undefined };
}

/**
 * "TOFFEE: Ask About Data": the chat participant's answer without Chat, streamed into a Markdown document.
 * Returns the document's URI (undefined when nothing was asked).
 */
export async function askAboutData(context: vscode.ExtensionContext, args?: AskArguments): Promise<vscode.Uri | undefined> {
  const root = (typeof args?.folder === 'string' ? args.folder : undefined) ?? workspaceRoot();
  if (!root) {
    void vscode.window.showWarningMessage('TOFFEE: open a folder of data files first; Ask About Data answers questions about it.');
    return undefined;
  }
  const question = (typeof args?.question === 'string' ? args.question.trim() : '') || (await vscode.window.showInputBox({ title: 'TOFFEE: Ask About Data', prompt: `A question about the data in ${root}`, placeHolder: 'Which region has the highest average order total?', ignoreFocusOut: true }))?.trim();
  if (!question) return undefined;
  const interactive = typeof args?.question !== 'string';
  const document = await answerDocument(question);
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'TOFFEE', cancellable: true }, async (progress, token) => {
    try {
      await answerQuestion(context, { root, question, pickTask: interactive ? pickNearestTask : undefined }, { markdown: document.markdown, progress: (message) => progress.report({ message }) }, token);
    } catch (error) {
      const message = describeError(error);
      log().error(`Ask About Data: ${message}`);
      await document.markdown(`\n\n**Failed:** ${message}\n`);
      void vscode.window.showErrorMessage(`TOFFEE: ${message}`);
    }
  });
  return document.uri;
}
