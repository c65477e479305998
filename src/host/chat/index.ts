/**
 * Inference mode in the editor: the `@toffee` chat participant (retrieved demos + the agent loop with tools
 * against the workspace's data, streamed step by step; a "compare with zero-shot" follow-up), the same answer
 * without Chat ("TOFFEE: Ask About Data", answer.ts) and "TOFFEE: Insert ICL Demo". The work is core's (demo
 * library, agent episode, Markdown); this file is wiring.
 */
import * as vscode from 'vscode';
import type { DemoHit } from '../../core/export/demos';
import { demoLibraryForFolder, formatDemoForLanguage } from '../../core/export/inference';
import { log } from '../log';
import { askAboutData, chatFollowups, workspaceRoot } from './answer';

export { answerQuestion, createChatHandler, type AnswerSink } from './answer';

export const CHAT_PARTICIPANT_ID = 'toffee.chat';

/** Automation arguments (integration tests, keybindings): the question and the data folder whose runs supply demos. */
interface InsertDemoArguments {
  question?: string;
  folder?: string;
}

/** Demos offered to choose from. */
const DEMO_CHOICES = 5;

/** The nearest demos with their questions and scores; the user picks the one to insert. */
async function pickDemo(question: string, hits: DemoHit[], runId: string): Promise<DemoHit | undefined> {
  const best = hits[0].score;
  const picked = await vscode.window.showQuickPick(
    hits.map((hit) => {
      const t = hit.trajectory;
      const steps = t.steps.filter((s) => s.toolCall).length;
      return {
        label: t.task.question,
        description: `similarity ${hit.score.toFixed(2)}${hit.score < best / 2 ? ' (weak)' : ''}`,
        detail: `${steps} steps · answer ${t.finalAnswer?.answer ?? '—'} · quality ${t.quality.toFixed(2)}${t.curation === 'accepted' ? ' · accepted' : ''}${t.simulated ? ' · simulated' : ''}`,
        hit,
      };
    }),
    { title: `TOFFEE: Insert ICL Demo: the demos of run ${runId} nearest to “${question.length > 60 ? `${question.slice(0, 59)}…` : question}”`, placeHolder: 'The worked example to insert', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.hit;
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
  // Automation names the question and takes the best demo; a person sees the nearest demos and picks one.
  const automated = typeof args?.question === 'string' && args.question.trim() !== '';
  const question = selected || (automated ? args!.question!.trim() : '') || (await vscode.window.showInputBox({ title: 'TOFFEE: Insert ICL Demo', prompt: 'A question to find a similar worked example for', ignoreFocusOut: true }))?.trim();
  if (!question) return;
  const found = demoLibraryForFolder(root);
  if (!found) {
    void vscode.window.showWarningMessage('TOFFEE: no run with trajectories in this folder yet; synthesize one first.', 'Synthesize Trajectories').then((choice) => choice && vscode.commands.executeCommand('toffee.synthesizeTrajectories', vscode.Uri.file(root)));
    return;
  }
  const hits = found.library.retrieve(question, automated ? 1 : DEMO_CHOICES);
  if (hits.length === 0) {
    void vscode.window.showInformationMessage(`TOFFEE: no demo of run ${found.runId} shares a word or a table with that question.`);
    return;
  }
  const hit = automated ? hits[0] : await pickDemo(question, hits, found.runId);
  if (!hit) return;
  const text = formatDemoForLanguage(hit.trajectory, editor.document.languageId);
  // With a selection (the question), the demo goes after it; otherwise at the cursor.
  const at = selected ? editor.selection.end : editor.selection.active;
  await editor.edit((edit) => edit.insert(at, selected ? `\n${text}` : text));
  log().info(`Inserted demo ${hit.trajectory.trajectoryId} (score ${hit.score.toFixed(2)}) from run ${found.runId}`);
}

/**
 * "TOFFEE: Insert ICL Demo", "TOFFEE: Ask About Data" and, where the host has the chat API, the `@toffee`
 * participant with the given handler.
 */
export function registerChat(context: vscode.ExtensionContext, handler: vscode.ChatRequestHandler): vscode.Disposable {
  const commands = vscode.Disposable.from(
    vscode.commands.registerCommand('toffee.insertDemo', insertDemo),
    vscode.commands.registerCommand('toffee.askAboutData', (args?: { question?: string; folder?: string }) => askAboutData(context, args)),
  );
  // Hosts without the chat API (older VS Code forks) still get both commands.
  if (typeof vscode.chat?.createChatParticipant !== 'function') return commands;
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'toffee.svg');
  participant.followupProvider = chatFollowups();
  return vscode.Disposable.from(participant, commands);
}
