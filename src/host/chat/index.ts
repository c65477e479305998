/**
 * Inference mode in the editor: the `@toffee` chat participant (retrieved demos + the agent loop with tools
 * against the workspace's data, streamed step by step; a "compare with zero-shot" follow-up) and
 * "TOFFEE: Insert ICL Demo". The work is core's (demo library, agent episode, Markdown); this file is wiring.
 */
import * as vscode from 'vscode';
import { AgentSession, openAgentSession } from '../../core/agent/session';
import { answerWithDemos, demoLibraryForFolder, formatDemoForLanguage, stepMarkdown } from '../../core/export/inference';
import type { LlmProvider } from '../../core/llm/types';
import { createProviderFromSettings, readLlmSettings, VsCodeLmProvider } from '../lm';
import { log } from '../log';

export const CHAT_PARTICIPANT_ID = 'toffee.chat';
const DEMOS_PER_QUESTION = 3;

function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The configured provider when it is a real endpoint; else the chat's own model through VS Code LM. */
async function chooseModel(context: vscode.ExtensionContext, request: vscode.ChatRequest): Promise<{ provider: LlmProvider; model: string; label: string }> {
  const settings = readLlmSettings();
  if (settings.provider === 'openai-compatible') {
    const provider = await createProviderFromSettings(context, { info: (m) => log().info(m), error: (m) => log().error(m) });
    const model = settings.model || settings.models[0] || 'gpt-4o-mini';
    if (provider) return { provider, model, label: `${model} (${settings.baseUrl})` };
  }
  return { provider: new VsCodeLmProvider({ priceOverrides: settings.prices, timeoutMs: settings.timeoutMs }), model: request.model.id, label: request.model.name };
}

interface ToffeeChatResultMetadata {
  question: string;
  demos: number;
}

async function handleChat(context: vscode.ExtensionContext, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
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
  const zeroShot = request.command === 'zeroshot';
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  stream.progress('Loading the data environment…');
  let session: AgentSession | undefined;
  try {
    session = await openAgentSession(root);
    const { provider, model, label } = await chooseModel(context, request);
    const { episode: result, demos } = await answerWithDemos({
      root,
      question,
      toolContext: session.toolContext,
      provider,
      model,
      zeroShot,
      k: DEMOS_PER_QUESTION,
      signal: controller.signal,
      onDemos: (hits, runId) => {
        if (zeroShot) stream.markdown('_Zero-shot: no demos in the prompt._\n\n');
        else if (!runId) stream.markdown('_No TOFFEE run with trajectories in this folder yet (synthesize one for demos); answering zero-shot._\n\n');
        else stream.markdown(`_Demos from run ${runId}: ${hits.map((h) => `“${h.trajectory.task.question}”`).join(', ') || 'none similar'}_\n\n`);
        stream.progress(`Running the agent with ${label}…`);
      },
      onStep: (step) => stream.markdown(`${stepMarkdown(step)}\n\n`),
    });
    const t = result.totals;
    if (result.stopReason === 'final_answer' && result.state.finalAnswer) {
      stream.markdown(`### Answer\n\n**${result.state.finalAnswer.answer}**\n\n${result.state.finalAnswer.explanation}\n\n`);
    } else if (result.stopReason === 'provider_error') {
      stream.markdown(`The model failed: ${result.error ?? 'unknown error'}\n\n`);
    } else {
      stream.markdown(`Stopped (${result.stopReason}) without a final answer.\n\n`);
    }
    stream.markdown(`_${t.steps} steps · ${t.usage.prompt}+${t.usage.completion} tokens · $${t.costUsd.toFixed(4)}_`);
    const metadata: ToffeeChatResultMetadata = { question, demos: demos.length };
    return { metadata };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log().error(`@toffee: ${message}`);
    return { errorDetails: { message } };
  } finally {
    cancel.dispose();
    await session?.dispose();
  }
}

/** Automation arguments (integration tests, keybindings): the question and the data folder whose runs supply demos. */
interface InsertDemoArguments {
  question?: string;
  folder?: string;
}

async function insertDemo(args?: InsertDemoArguments): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showWarningMessage('TOFFEE: open a document to insert a demo into.');
    return;
  }
  // A menu may pass a Uri here; only plain strings count as arguments.
  const root = (typeof args?.folder === 'string' ? args.folder : undefined) ?? workspaceRoot();
  if (!root) {
    void vscode.window.showWarningMessage('TOFFEE: open the data folder as the workspace first.');
    return;
  }
  const selected = editor.document.getText(editor.selection).trim();
  const question = selected || (typeof args?.question === 'string' ? args.question.trim() : '') || (await vscode.window.showInputBox({ title: 'TOFFEE: Insert ICL Demo', prompt: 'A question to find a similar worked example for', ignoreFocusOut: true }))?.trim();
  if (!question) return;
  const found = demoLibraryForFolder(root);
  if (!found) {
    void vscode.window.showWarningMessage('TOFFEE: no run with trajectories in this folder yet; synthesize one first.');
    return;
  }
  const [hit] = found.library.retrieve(question, 1);
  if (!hit) {
    void vscode.window.showInformationMessage('TOFFEE: no demo is similar to that question.');
    return;
  }
  const text = formatDemoForLanguage(hit.trajectory, editor.document.languageId);
  // With a selection (the question), the demo goes after it; otherwise at the cursor.
  const at = selected ? editor.selection.end : editor.selection.active;
  await editor.edit((edit) => edit.insert(at, selected ? `\n${text}` : text));
  log().info(`Inserted demo ${hit.trajectory.trajectoryId} (score ${hit.score.toFixed(2)}) from run ${found.runId}`);
}

export function registerChat(context: vscode.ExtensionContext): vscode.Disposable {
  const insert = vscode.commands.registerCommand('toffee.insertDemo', insertDemo);
  // Hosts without the chat API (older VS Code forks) still get the insert command.
  if (typeof vscode.chat?.createChatParticipant !== 'function') return insert;
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, _chatContext, stream, token) => handleChat(context, request, stream, token));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'toffee.svg');
  participant.followupProvider = {
    provideFollowups(result) {
      const metadata = result.metadata as ToffeeChatResultMetadata | undefined;
      if (!metadata || metadata.demos === 0) return [];
      return [{ prompt: metadata.question, command: 'zeroshot', label: 'Compare with zero-shot' }];
    },
  };
  return vscode.Disposable.from(participant, insert);
}
