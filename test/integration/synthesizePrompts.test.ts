// Runs inside a real VS Code: "TOFFEE: Synthesize Trajectories" asked as a user meets it, through its quick picks
// at the keyboard. One list of model sources (the simulated models once, VS Code language models, the endpoint of
// the settings), then tasks, then the budget per task with the total it allows — for the simulated models said to
// be simulated spend that is never charged. Needs the runner (it types into the workbench).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { summarizeRun } from '../../src/core/store';
import type { ToffeeApi } from '../../src/host/extension';
import { askRunner, hasRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';
const QUICK_INPUT = '.quick-input-widget';
const row = (text: string) => `${QUICK_INPUT} .monaco-list-row:has-text(${JSON.stringify(text)})`;

describe('the Synthesize Trajectories questions in a real VS Code', function () {
  let dataFolder: string;

  before(async function () {
    if (!hasRunner()) this.skip();
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    await extension.activate();
    dataFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-prompts-')), 'retail');
    fs.cpSync(path.join(extension.extensionPath, 'media', 'samples', 'retail'), dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(() => dataFolder && fs.rmSync(path.dirname(dataFolder), { recursive: true, force: true }));

  it('offers one list of model sources, then tasks and a budget with its total; simulated spend is not charged', async function () {
    const running = vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder));
    const models = await webviewShows('prompt-models', `${QUICK_INPUT} .quick-input-title:has-text("(1/3): which models play the agent")`);
    assert.ok(models.found, 'the model step opened');
    assert.equal((await webviewShows('prompt-sim', row('Simulated models'), { noShot: true })).count, 1, 'the simulated models are one choice');
    assert.equal((await webviewShows('prompt-settings', row('Models from settings'), { timeoutMs: 500, noShot: true })).found, false, 'no second name for the same models');
    assert.ok((await webviewShows('prompt-vscode-lm', row('VS Code language model'), { noShot: true })).found, 'VS Code language models are a choice');
    assert.ok((await webviewShows('prompt-endpoint', row('OpenAI-compatible endpoint'), { noShot: true })).found, 'the endpoint is a choice');
    const toTasks = await askRunner({ name: 'prompt-to-tasks', noShot: true, keys: [{ press: 'Enter' }, { waitFor: `${QUICK_INPUT} .quick-input-title:has-text("(2/3): number of tasks")`, press: 'Control+A' }, { type: '2' }, { press: 'Enter' }] });
    assert.deepEqual(toTasks.keys, { ok: true });
    const budgetTitle = await webviewShows('prompt-budget', `${QUICK_INPUT} .quick-input-title:has-text("(3/3): budget per task (simulated prices: nothing is charged)")`, { noShot: true });
    assert.ok(budgetTitle.found, 'the budget step says the simulated prices are not charged');
    const typed = await askRunner({ name: 'prompt-budget-typed', noShot: true, keys: [{ press: 'Control+A' }, { type: '0.02' }] });
    assert.deepEqual(typed.keys, { ok: true });
    const total = await webviewShows('prompt-total', `${QUICK_INPUT} :text("At most $0.040 of simulated spend for 2 tasks; nothing is charged.")`);
    assert.ok(total.found, 'the total the budget allows is shown as it is typed');
    const go = await askRunner({ name: 'prompt-go', noShot: true, keys: [{ press: 'Enter' }] });
    assert.deepEqual(go.keys, { ok: true });
    const runDir = await running;
    assert.ok(runDir, 'the run started');
    const run = summarizeRun(runDir);
    assert.equal(run.status, 'finished');
    assert.equal(run.tasks, 2, 'the number of tasks typed');
    const meta = JSON.parse(fs.readFileSync(path.join(runDir, 'run.json'), 'utf8')) as { config?: { budgetUsd?: number } };
    assert.equal(meta.config?.budgetUsd, 0.02, 'the budget typed');
  });
});
