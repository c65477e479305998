// Runs inside a real VS Code: run state changes are events the views react to. Stop in the panel cancels the
// synthesis; the Runs view and the panel say "cancelled" without a refresh; Resume Run finishes the run and both
// say "finished". Needs the runner to click in and read the webview.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToffeeApi } from '../../src/host/extension';
import { askRunner, hasRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';

function eventTypes(runDir: string): string[] {
  if (!fs.existsSync(path.join(runDir, 'events.jsonl'))) return [];
  return fs.readFileSync(path.join(runDir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { type: string }).type);
}

async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

describe('run state in the Runs view and the panel', function () {
  let dataFolder: string;
  let api: ToffeeApi;
  let runDir: string;

  before(async function () {
    if (!hasRunner()) this.skip();
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    api = await extension.activate();
    // In the workspace folder, so the Runs view lists the run through its workspace search.
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-state-'));
    dataFolder = path.join(base, 'retail-state');
    fs.rmSync(dataFolder, { recursive: true, force: true });
    fs.cpSync(path.join(extension.extensionPath, 'media', 'samples', 'retail'), dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.toffee');
  });

  it('Stop in the panel cancels the run: the Runs view and the panel say cancelled without a refresh', async function () {
    const running = vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), { provider: 'offline-sim', tasks: 24, budgetUsd: 0.05 });
    runDir = await waitFor('the synthesis to start', () => api.runningSyntheses()[0]);
    // Stop as soon as the first task is being explored: the simulated models are quick, and the click takes the
    // runner a moment, so most of a long run must still be ahead.
    await waitFor('the first task to start', () => eventTypes(runDir).includes('node/added'), 60_000);
    const stop = await askRunner({ name: 'state-stop', webviewClicks: ['[data-action="stop"]'], noShot: true });
    assert.deepEqual(stop.webviewClicks, { ok: true });
    assert.equal(await running, runDir);
    const types = eventTypes(runDir);
    assert.equal(types.at(-1), 'run/cancelled', 'the cancel is recorded in the run');
    assert.ok(types.filter((t) => t === 'task/finished').length < 24, 'the run stopped before its last task');
    const item = await waitFor('the Runs view to say cancelled', async () => (await api.runsSnapshot()).find((i) => i.runDir === runDir && i.description?.startsWith('cancelled')), 10_000);
    assert.equal(item.contextValue, 'toffeeRun.cancelled');
    assert.equal(api.explorerView(runDir)?.status, 'cancelled');
    const chip = await webviewShows('state-cancelled', '[data-testid="run-state"]:text-is("cancelled")');
    assert.ok(chip.found, 'the panel says cancelled');
  });

  it('Resume Run finishes the run: the Runs view and the panel say finished', async function () {
    const outcome = await vscode.commands.executeCommand<string>('toffee.resumeRun', runDir);
    assert.equal(outcome, 'finished');
    assert.equal(eventTypes(runDir).at(-1), 'run/finished');
    const item = await waitFor('the Runs view to say finished', async () => (await api.runsSnapshot()).find((i) => i.runDir === runDir && i.description?.startsWith('finished')), 10_000);
    assert.equal(item.contextValue, 'toffeeRun.finished');
    assert.equal(api.explorerView(runDir)?.status, 'finished');
    const chip = await webviewShows('state-finished', '[data-testid="run-state"]:text-is("finished")');
    assert.ok(chip.found, 'the panel says finished');
  });
});
