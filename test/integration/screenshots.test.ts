// The README's screenshots, taken in a real VS Code when the runner is given SHOT (see the README: "Screenshots"):
// the explorer panel mid-run, the Data Environment view with a table's preview, and the export step. Each is a
// runner request named after the picture (SHOT-<name>.png); the checks make sure each shows what it claims.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToffeeApi } from '../../src/host/extension';
import { askRunner } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';

function finishedTasks(runDir: string): number {
  const file = path.join(runDir, 'events.jsonl');
  if (!fs.existsSync(file)) return 0;
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"type":"task/finished"')).length;
}

describe('README screenshots', function () {
  let api: ToffeeApi;
  let dataFolder: string;
  let runDir: string;

  before(async function () {
    if (!process.env.SHOT || !process.env.SCREENSHOT_REQUEST) this.skip();
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    api = await extension.activate();
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(base, 'the runner opens a workspace folder');
    dataFolder = path.join(base, 'retail');
    fs.rmSync(dataFolder, { recursive: true, force: true });
    fs.cpSync(path.join(extension.extensionPath, 'media', 'samples', 'retail'), dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the explorer panel mid-run: tasks being explored, the live tree, the latest step', async function () {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const running = vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), { provider: 'offline-sim', tasks: 16, budgetUsd: 0.05 });
    for (let i = 0; i < 600 && !api.runningSyntheses()[0]; i++) await new Promise((r) => setTimeout(r, 100));
    runDir = api.runningSyntheses()[0];
    assert.ok(runDir, 'the synthesis started');
    for (let i = 0; i < 1200 && finishedTasks(runDir) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    await vscode.commands.executeCommand('notifications.hideToasts');
    // The simulated models are quick: the picture is taken as soon as a task is seen exploring, its latest step shown.
    const shot = await askRunner({ name: 'explorer', webviewSelector: '.task-row.state-exploring', delayMs: 120 });
    assert.ok(shot.webviewSelector?.found, 'a task was being explored when the picture was taken');
    assert.equal(await running, runDir);
  });

  it('the Data Environment view, with a table open in the read-only preview', async function () {
    assert.equal(await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', vscode.Uri.file(dataFolder)), true);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('toffee.previewTable', 'orders');
    await vscode.commands.executeCommand('toffee.environment.focus');
    await vscode.commands.executeCommand('notifications.clearAll');
    // Type-to-find the orders table in the tree, then expand it to show its typed columns and its key.
    const shot = await askRunner({ name: 'environment', keys: [{ type: 'orders' }, { press: 'ArrowRight' }], webviewSelector: '[data-testid="preview-grid"]' });
    assert.deepEqual(shot.keys, { ok: true });
    assert.ok(shot.webviewSelector?.found, 'the preview grid is open');
  });

  it('the export step: the format, the first of four questions', async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('toffee.openRun', runDir);
    await vscode.commands.executeCommand('notifications.clearAll');
    const shot = await askRunner({ name: 'export', webviewClicks: ['.trajectory-row', '[data-action="next-step"]', '[data-action="export"]'], keys: [{ waitFor: '.quick-input-widget .quick-input-title:has-text("(1/4)")', move: [640, 1000] }] });
    assert.deepEqual(shot.webviewClicks, { ok: true });
    assert.deepEqual(shot.keys, { ok: true }, 'the export step is open');
    await askRunner({ name: 'export-close', noShot: true, keys: [{ press: 'Escape' }] });
  });
});
