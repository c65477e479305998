// Runs inside a real VS Code after environmentView.test: the right-click "TOFFEE: Synthesize Trajectories" command
// runs a small offline synthesis on a copy of the shipped sample, the explorer panel opens and holds the run's
// nodes, a trajectory is accepted through the panel's own message path, and the export sees the acceptance.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildSftExport, trajectoriesFromRun } from '../../src/core/export';
import { loadEnvironment } from '../../src/core/env';
import type { ToffeeApi } from '../../src/host/extension';
import { requireOrSkip } from '../support/requirements';

const EXTENSION_ID = 'toffee.toffee-vscode';
const TASKS = 2;

interface EventLine {
  type: string;
  seq: number;
  trajectoryId?: string;
}

function readEvents(runDir: string): EventLine[] {
  return fs
    .readFileSync(path.join(runDir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EventLine);
}

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const value = probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

describe('Synthesize Trajectories and the explorer panel in a real VS Code', function () {
  let dataFolder: string;
  let runDir: string;
  let api: ToffeeApi;
  let acceptedId: string;

  before(function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const sample = path.join(extension.extensionPath, 'media', 'samples', 'retail');
    assert.ok(fs.existsSync(sample), `the shipped sample is missing at ${sample}`);
    dataFolder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-synth-')), 'retail');
    // The sample's own .toffee/ (runs made on the repository copy) must not come along.
    fs.cpSync(sample, dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
  });

  after(() => fs.rmSync(path.dirname(dataFolder), { recursive: true, force: true }));

  it('runs a small offline synthesis from the folder command and writes a run folder', async function () {
    const started = Date.now();
    const result = await vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), {
      provider: 'offline-sim',
      tasks: TASKS,
      budgetUsd: 0.05,
    });
    assert.equal(typeof result, 'string', 'the command resolves to the run folder');
    runDir = result!;
    console.log(`  (synthesis took ${Date.now() - started} ms: ${runDir})`);
    assert.equal(path.dirname(runDir), path.join(dataFolder, '.toffee', 'runs'));
    for (const file of ['run.json', 'events.jsonl', 'tasks.jsonl', 'trajectories.jsonl']) {
      assert.ok(fs.existsSync(path.join(runDir, file)), `${file} in the run folder`);
    }
    const events = readEvents(runDir);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    assert.equal(count('run/started'), 1);
    assert.equal(count('run/finished'), 1, 'the run finished');
    assert.equal(count('task/added'), TASKS);
    assert.equal(count('task/finished'), TASKS);
    assert.ok(count('node/added') > TASKS, 'the search expanded nodes');
    assert.ok(count('trajectory/admitted') >= 1, 'at least one verified trajectory was admitted');
    const run = trajectoriesFromRun(runDir);
    assert.equal(run.trajectories.length, count('trajectory/admitted'));
    assert.ok(run.trajectories.every((t) => t.simulated), 'offline trajectories are marked simulated');
    assert.ok(run.trajectories.every((t) => t.curation === undefined || t.curation === null), 'nothing is curated yet');
  });

  it('opens the explorer panel, which holds every node and trajectory of the run', async function () {
    api = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!.exports;
    const events = readEvents(runDir);
    const nodes = events.filter((e) => e.type === 'node/added').length;
    const admitted = events.filter((e) => e.type === 'trajectory/admitted');
    const lastSeq = Math.max(...events.map((e) => e.seq));
    // The panel follows events.jsonl by polling, so it may trail the file for a moment.
    const view = await waitFor('the panel to reach the end of the run', () => {
      const v = api.explorerView(runDir);
      return v && v.lastSeq >= lastSeq ? v : undefined;
    });
    assert.equal(view.status, 'finished');
    assert.equal(view.taskOrder.length, TASKS);
    assert.equal(view.nodeCount, nodes);
    const nodesInTasks = view.taskOrder.reduce((sum, id) => sum + view.tasks[id].nodeOrder.length, 0);
    assert.equal(nodesInTasks, nodes, 'every node sits in its task tree');
    for (const id of view.taskOrder) {
      const task = view.tasks[id];
      assert.ok(task.question.length > 0, `task ${id} has a question`);
      assert.ok(task.rootIds.length >= 1, `task ${id} has a root`);
      assert.ok(task.finished, `task ${id} is finished in the panel`);
    }
    assert.deepEqual([...view.trajectoryOrder].sort(), admitted.map((e) => e.trajectoryId).sort());
    // Each trajectory's path runs through nodes the panel knows.
    for (const id of view.trajectoryOrder) {
      const trajectory = view.trajectories[id];
      for (const nodeId of trajectory.nodePath) assert.ok(view.tasks[trajectory.taskId].nodes[nodeId], `node ${nodeId} of ${id}`);
    }
    assert.ok(view.spend.totalUsd > 0, 'the panel shows the spend');
  });

  it('accepts a trajectory through the panel intent and the export sees it', async function () {
    const view = api.explorerView(runDir)!;
    // From the task the panel shows: it follows the run, so after the run that is the task explored last.
    const shownTask = (readEvents(runDir).filter((e) => e.type === 'node/added').at(-1) as EventLine & { taskId?: string }).taskId;
    acceptedId = view.trajectoryOrder.find((id) => view.trajectories[id].verified && view.trajectories[id].taskId === shownTask)
      ?? view.trajectoryOrder.find((id) => view.trajectories[id].verified)!;
    assert.ok(acceptedId, 'a verified trajectory to accept');
    // An invalid message is dropped by the same validation, and writes nothing.
    const before = readEvents(runDir).length;
    assert.equal(await api.explorerReceive(runDir, { type: 'curation/accept', trajectoryId: acceptedId }), true);
    assert.equal(readEvents(runDir).length, before, 'a message without a request id is ignored');

    assert.equal(await api.explorerReceive(runDir, { type: 'curation/accept', requestId: 'it-1', trajectoryId: acceptedId, note: 'integration test' }), true);
    const curation = readEvents(runDir).filter((e) => e.type === 'curation/accepted');
    assert.deepEqual(curation.map((e) => e.trajectoryId), [acceptedId], 'one curation/accepted event for that trajectory');
    await waitFor('the panel to show the acceptance', () => api.explorerView(runDir)?.trajectories[acceptedId].curation === 'accepted');

    const run = trajectoriesFromRun(runDir);
    assert.deepEqual(run.trajectories.filter((t) => t.curation === 'accepted').map((t) => t.trajectoryId), [acceptedId]);
    const env = await loadEnvironment(dataFolder);
    const exported = buildSftExport(run.trajectories, { profile: env.profile, documents: env.documents }, { format: 'openai', acceptedOnly: true, validationFraction: 0 });
    assert.deepEqual(exported.metadata.map((m) => m.trajectoryId), [acceptedId], 'accepted-only export holds exactly the accepted trajectory');
    assert.equal(exported.train.length, 1);
    const line = JSON.parse(exported.train[0]) as { messages: Array<{ role: string; tool_calls?: unknown[] }> };
    assert.ok(line.messages.some((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0), 'the example has tool calls');
    // Without accepted-only, every admitted trajectory is a candidate: the acceptance is what narrowed it.
    const all = buildSftExport(run.trajectories, { profile: env.profile, documents: env.documents }, { format: 'openai', validationFraction: 0 });
    assert.ok(all.metadata.length >= exported.metadata.length);
  });

  /** Asks the runner (scripts/ci/runExtensionTests.mjs) to look for a selector inside the webviews and take a screenshot. */
  async function askRunner(name: string, webviewSelector: string): Promise<{ found: boolean; count: number }> {
    const request = process.env.SCREENSHOT_REQUEST!;
    fs.writeFileSync(`${request}.tmp`, JSON.stringify({ name, webviewSelector }));
    fs.renameSync(`${request}.tmp`, request);
    // The answer to the previous request goes only once this one is in place: the runner never re-reads the old one.
    fs.rmSync(`${request}.done`, { force: true });
    for (let i = 0; i < 150 && !fs.existsSync(`${request}.done`); i++) await new Promise((r) => setTimeout(r, 200));
    const answer = JSON.parse(fs.readFileSync(`${request}.done`, 'utf8') || '{}') as { webviewSelector?: { found: boolean; count: number } };
    assert.ok(answer.webviewSelector, `the runner did not check ${webviewSelector}`);
    return answer.webviewSelector;
  }

  it('shows the run and the accepted trajectory inside the panel webview', async function () {
    // Only the runner can see into the webview (a browser frame); without it there is nothing to ask.
    requireOrSkip(this, process.env.SCREENSHOT_REQUEST ? undefined : 'the integration runner (scripts/ci/runExtensionTests.mjs) to look into the webview');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('toffee.openRun', runDir);
    const view = api.explorerView(runDir)!;
    const counts = await askRunner('panel-counts', `[data-testid="run-counts"]:has-text("${view.nodeCount} nodes · ${view.trajectoryOrder.length} trajectories")`);
    assert.ok(counts.found, `the webview's header shows ${view.nodeCount} nodes and ${view.trajectoryOrder.length} trajectories`);
    // Left in front for the screenshot: the accepted row is marked in the trajectory list.
    const accepted = await askRunner('panel-accepted', `li.trajectory-row.curated-accepted[data-trajectory-id="${acceptedId}"]`);
    assert.ok(accepted.found, 'the webview lists the trajectory as accepted');
  });
});
