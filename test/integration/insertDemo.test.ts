// Runs inside a real VS Code: "TOFFEE: Insert ICL Demo" puts a worked example from a run into the active editor,
// in that editor's format (Markdown, a Python string), at the cursor or after a selected question. The run is a
// small offline synthesis made through the folder command on a copy of the shipped sample.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoLibraryForFolder, formatDemoForLanguage } from '../../src/core/export/inference';
import { trajectoriesFromRun, type ExportTrajectory } from '../../src/core/export';
import type { ToffeeApi } from '../../src/host/extension';
import { askRunner, hasRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';

let untitledCount = 0;

/**
 * A new untitled document with its own name: `openTextDocument({ content })` may hand back a just-closed
 * "Untitled-N" whose stale text the extension host still holds.
 */
async function untitled(language: string, content = ''): Promise<vscode.TextEditor> {
  const extension = language === 'python' ? 'py' : 'md';
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `/toffee-demo-${process.pid}-${++untitledCount}.${extension}` });
  const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), language);
  const editor = await vscode.window.showTextDocument(document);
  if (content) await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), content));
  assert.equal(vscode.window.activeTextEditor?.document, document, 'the new document is the active editor');
  assert.equal(document.getText(), content);
  return editor;
}

async function closeActive(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

describe('Insert ICL Demo in a real VS Code', function () {
  let dataFolder: string;
  let question: string;
  let expected: ExportTrajectory;

  before(async function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const sample = path.join(extension.extensionPath, 'media', 'samples', 'retail');
    dataFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-demo-')), 'retail');
    fs.cpSync(sample, dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    const runDir = await vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), {
      provider: 'offline-sim',
      tasks: 2,
      budgetUsd: 0.05,
    });
    assert.ok(runDir && fs.existsSync(path.join(runDir, 'trajectories.jsonl')), 'the synthesis wrote a run');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // What the command should pick, computed independently through the core library.
    const found = demoLibraryForFolder(dataFolder);
    assert.ok(found, 'the run has demos');
    assert.equal(found.runDir, runDir);
    const candidate = trajectoriesFromRun(runDir).trajectories.find((t) => t.finalAnswer && t.steps.some((s) => s.toolCall && s.toolCall.name !== 'final_answer'));
    assert.ok(candidate, 'a trajectory with tool calls and an answer');
    question = candidate.task.question;
    const [hit] = found.library.retrieve(question, 1);
    assert.ok(hit, 'the library retrieves a demo for a question of the run');
    expected = hit.trajectory;
    assert.equal(expected.task.question, question, 'a task question finds its own task first');
  });

  after(async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.dirname(dataFolder), { recursive: true, force: true });
  });

  function assertDemoContent(text: string): void {
    assert.ok(text.includes(`Question: ${question}`), 'the demo states its question');
    const calls = expected.steps.filter((s) => s.toolCall && s.toolCall.name !== 'final_answer' && s.observation.ok);
    assert.ok(calls.length >= 1, 'the demo trajectory made tool calls');
    for (const [i, step] of calls.entries()) assert.ok(text.includes(`Step ${i + 1}: ${step.toolCall!.name}`), `step ${i + 1} (${step.toolCall!.name}) is shown`);
    if (expected.finalAnswer) assert.ok(text.includes(`Answer: ${expected.finalAnswer.answer}`), 'the answer is shown');
  }

  it('inserts a Markdown demo at the cursor of an untitled Markdown document', async function () {
    const editor = await untitled('markdown', '# Notes\n\n');
    editor.selection = new vscode.Selection(new vscode.Position(2, 0), new vscode.Position(2, 0));
    await vscode.commands.executeCommand('toffee.insertDemo', { question, folder: dataFolder });
    const text = editor.document.getText();
    assert.equal(text, `# Notes\n\n${formatDemoForLanguage(expected, 'markdown')}`);
    assert.ok(text.includes(`<!-- TOFFEE demo ${expected.trajectoryId} -->`));
    assert.match(text, /```text\nQuestion: /);
    assertDemoContent(text);
    await closeActive();
  });

  it('inserts a Python raw string in a Python document', async function () {
    const editor = await untitled('python', '');
    await vscode.commands.executeCommand('toffee.insertDemo', { question, folder: dataFolder });
    const text = editor.document.getText();
    assert.equal(text, formatDemoForLanguage(expected, 'python'));
    assert.ok(text.startsWith('DEMO = r"""\n') && text.endsWith('\n"""\n'), 'one raw triple-quoted string');
    assert.equal(text.split('"""').length, 3, 'no triple quote inside the literal');
    assertDemoContent(text);
    await closeActive();
  });

  it('uses the selected text as the question, shows the nearest demos with questions and scores, and inserts the one picked', async function () {
    if (!hasRunner()) this.skip();
    const editor = await untitled('markdown', `${question}`);
    editor.selection = new vscode.Selection(new vscode.Position(0, 0), editor.document.lineAt(0).range.end);
    const inserting = vscode.commands.executeCommand('toffee.insertDemo', { folder: dataFolder });
    const hits = demoLibraryForFolder(dataFolder)!.library.retrieve(question, 5);
    const rows = await webviewShows('demo-choices', '.quick-input-widget .monaco-list-row:has-text("similarity")', { noShot: true });
    assert.equal(rows.count, hits.length, 'every near demo is offered');
    const first = await webviewShows('demo-first', `.quick-input-widget .monaco-list-row:has-text(${JSON.stringify(`similarity ${hits[0].score.toFixed(2)}`)})`, { noShot: true });
    assert.ok(first.found, 'each demo shows its score');
    // The second nearest, when there is one, to show the pick is the user's: Down, then Enter.
    const pick = hits.length > 1 ? hits[1] : hits[0];
    const keys = await askRunner({ name: 'demo-pick', noShot: true, keys: [...(hits.length > 1 ? [{ press: 'ArrowDown' }] : []), { press: 'Enter' }] });
    assert.deepEqual(keys.keys, { ok: true });
    await inserting;
    assert.equal(editor.document.getText(), `${question}\n${formatDemoForLanguage(pick.trajectory, 'markdown')}`);
    await closeActive();
  });

  it('leaves the document alone when the folder has no run', async function () {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-norun-'));
    try {
      const editor = await untitled('markdown', 'unchanged');
      await vscode.commands.executeCommand('toffee.insertDemo', { question, folder: empty });
      assert.equal(editor.document.getText(), 'unchanged');
      await closeActive();
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
