// Runs inside a real VS Code: a synthesis opens the explorer panel at once; the panel shows the task pool being
// built (families, candidates, valid), then follows the task being explored, and draws the first node of the tree
// within 2 s of the first task starting (the root's node/added event). Needs the runner to see into the webview.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToffeeApi } from '../../src/host/extension';
import { hasRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';
/** The spec: a live tree, not a replay of a finished one. */
const FIRST_NODE_WITHIN_MS = 2000;

interface EventLine {
  type: string;
  ts: string;
  taskId?: string;
}

function readEvents(runDir: string): EventLine[] {
  return fs.readFileSync(path.join(runDir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as EventLine);
}

describe('the explorer panel is live from the first second', function () {
  let dataFolder: string;
  let api: ToffeeApi;

  before(async function () {
    if (!hasRunner()) this.skip();
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    api = await extension.activate();
    dataFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-live-')), 'retail');
    fs.cpSync(path.join(extension.extensionPath, 'media', 'samples', 'retail'), dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(() => dataFolder && fs.rmSync(path.dirname(dataFolder), { recursive: true, force: true }));

  it('opens on the task pool being built, then draws the first node within 2 s of the first task starting', async function () {
    const running = vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), { provider: 'offline-sim', tasks: 3, budgetUsd: 0.02 });
    // Before the run has a task, the panel is open and counts the pool's build.
    const pool = await webviewShows('live-pool', '[data-testid="pool-progress"] [data-testid="pool-candidates"]', { timeoutMs: 30_000, noShot: true });
    assert.ok(pool.found, 'the panel shows the task pool being built');
    const runDir = api.runningSyntheses()[0];
    assert.ok(runDir, 'the synthesis is running');
    assert.equal(fs.existsSync(path.join(runDir, 'run.json')), false, 'the panel opened before the run folder existed');
    const drawn = await webviewShows('live-first-node', '[data-testid="tree-canvas"][data-first-node-at]', { attribute: 'data-first-node-at', timeoutMs: 60_000, noShot: true });
    assert.ok(drawn.found && drawn.value, 'the tree drew a node');
    assert.equal(await running, runDir);
    const events = readEvents(runDir);
    const firstNode = events.find((e) => e.type === 'node/added')!;
    const delay = Number(drawn.value) - Date.parse(firstNode.ts);
    console.log(`    (first node drawn ${delay} ms after the first task's root was written)`);
    assert.ok(delay < FIRST_NODE_WITHIN_MS, `the first node was drawn ${delay} ms after the first task started`);
    // After the run, the panel shows the task explored last among those that admitted a trajectory (the one explored
    // last when none did: a finished run opens on something to inspect), by its question.
    const admitted = new Set(events.filter((e) => e.type === 'trajectory/admitted').map((e) => e.taskId));
    const nodes = events.filter((e) => e.type === 'node/added');
    const lastTask = (nodes.filter((e) => admitted.has(e.taskId)).at(-1) ?? nodes.at(-1))!.taskId!;
    const shown = await webviewShows('live-followed', `.task-row.selected[data-task-id="${lastTask}"]`, { noShot: true });
    assert.ok(shown.found, `the task list follows the run to ${lastTask}`);
    const view = api.explorerView(runDir)!;
    const question = view.tasks[lastTask].question;
    assert.ok(question.length > 10, 'the task has a question');
    const header = await webviewShows('live-question', `[data-testid="task-question"]:has-text(${JSON.stringify(question.slice(0, 40))})`, { noShot: true });
    assert.ok(header.found, 'the panel names the task by its question');
  });
});
