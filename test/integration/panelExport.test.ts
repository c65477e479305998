// Runs inside a real VS Code on a small offline run of the shipped sample: export from the UI writes the same files
// as `toffee export` for the same choices (format, accepted-only, selection), from the command and from the panel's
// Export button through its four quick picks; in the panel, switching task resets the step-through player and the
// budget chart draws a best-quality line of several points.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunExportResult } from '../../src/core/export/runExport';
import type { ToffeeApi } from '../../src/host/extension';
import { askRunner, hasRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';

/** Every file of an export folder, the report with what differs between two writes of it (time, paths) taken out. */
function exportFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (!name.startsWith('report.')) {
      files[name] = text;
      continue;
    }
    const report = JSON.parse(text) as { createdAt?: string; files?: Record<string, string> };
    delete report.createdAt;
    report.files = Object.fromEntries(Object.entries(report.files ?? {}).map(([key, file]) => [key, path.relative(dir, file)]));
    files[name] = JSON.stringify(report, null, 2);
  }
  return files;
}

function cliExport(extensionPath: string, runDir: string, outDir: string, args: string[]): void {
  execFileSync(process.execPath, [path.join(extensionPath, 'dist', 'cli.js'), 'export', runDir, '--out', outDir, ...args], { stdio: 'pipe', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
}

describe('export from the UI and the panel in a real VS Code', function () {
  let extensionPath: string;
  let api: ToffeeApi;
  let dataFolder: string;
  let scratch: string;
  let runDir: string;

  before(async function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    extensionPath = extension.extensionPath;
    api = await extension.activate();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-export-'));
    dataFolder = path.join(scratch, 'retail');
    fs.cpSync(path.join(extensionPath, 'media', 'samples', 'retail'), dataFolder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(dataFolder), { provider: 'offline-sim', tasks: 3, budgetUsd: 0.05 });
    assert.ok(result, 'the run was written');
    runDir = result;
    const view = api.explorerView(runDir);
    assert.ok(view, 'the panel shows the run');
    // Accept the first trajectory of each task, through the panel's own message path.
    const firsts = view.taskOrder.map((taskId) => view.trajectoryOrder.find((id) => view.trajectories[id].taskId === taskId)).filter((id): id is string => id !== undefined);
    assert.ok(firsts.length >= 2, 'trajectories in at least two tasks');
    for (const [i, trajectoryId] of firsts.entries()) await api.explorerReceive(runDir, { type: 'curation/accept', requestId: `export-${i}`, trajectoryId });
  });

  after(() => scratch && fs.rmSync(scratch, { recursive: true, force: true }));

  for (const [format, acceptedOnly, select] of [['openai', true, 'anchored'], ['sharegpt', false, 'all'], ['hf', false, 'random']] as const) {
    it(`writes the files toffee export writes: ${format}, ${acceptedOnly ? 'accepted only' : 'all admitted'}, select ${select}`, async function () {
      const uiDir = path.join(scratch, `ui-${format}`);
      const result = await vscode.commands.executeCommand<RunExportResult | undefined>('toffee.exportTrajectories', runDir, { format, acceptedOnly, select, outDir: uiDir });
      assert.ok(result && result.kind === 'sft', 'the export ran');
      assert.ok(result.report.written > 0, 'examples were written');
      if (acceptedOnly) assert.equal(result.report.selection.acceptedOnly, true);
      const cliDir = path.join(scratch, `cli-${format}`);
      cliExport(extensionPath, runDir, cliDir, ['--format', format, ...(acceptedOnly ? ['--accepted-only'] : []), ...(select === 'all' ? [] : ['--select', select])]);
      assert.deepEqual(exportFiles(uiDir), exportFiles(cliDir));
    });
  }

  it('exports from the panel: the Export button, four quick picks, the files in the run folder', async function () {
    if (!hasRunner()) this.skip();
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('toffee.openRun', runDir);
    // The first step, left on screen for the README's screenshot of the export step.
    const first = await askRunner({ name: 'export-step', webviewClicks: ['[data-action="export"]'], keys: [{ waitFor: '.quick-input-widget .quick-input-title:has-text("(1/4)")' }] });
    assert.deepEqual(first.webviewClicks, { ok: true });
    assert.deepEqual(first.keys, { ok: true }, 'the format step opened');
    // Enter on each step takes its first choice: OpenAI, accepted only (some are), every one, the run folder.
    const steps = await askRunner({
      name: 'export-steps',
      noShot: true,
      keys: [
        { press: 'Enter' },
        { waitFor: '.quick-input-widget .quick-input-title:has-text("(2/4)")', press: 'Enter' },
        { waitFor: '.quick-input-widget .quick-input-title:has-text("(3/4)")', press: 'Enter' },
        { waitFor: '.quick-input-widget .quick-input-title:has-text("(4/4)")', press: 'Enter' },
      ],
    });
    assert.deepEqual(steps.keys, { ok: true });
    const exportDir = path.join(runDir, 'export');
    const report = path.join(exportDir, 'report.openai.json');
    for (let i = 0; i < 300 && !fs.existsSync(report); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(fs.existsSync(report), 'the export wrote its report into the run folder');
    const cliDir = path.join(scratch, 'cli-panel');
    cliExport(extensionPath, runDir, cliDir, ['--format', 'openai', '--accepted-only']);
    assert.deepEqual(exportFiles(exportDir), exportFiles(cliDir));
    const said = await webviewShows('export-outcome', '[data-testid="request-outcome"]:has-text("Exported: ")', { noShot: true });
    assert.ok(said.found, 'the panel says what was exported');
  });

  it('resets the step-through player on a task switch, and draws a best-quality line of several points', async function () {
    if (!hasRunner()) this.skip();
    const view = api.explorerView(runDir)!;
    // Two tasks with trajectories to step through (a task the search admitted nothing for lists none).
    const [taskA, taskB] = view.taskOrder.filter((taskId) => view.trajectoryOrder.some((id) => view.trajectories[id].taskId === taskId));
    const stepped = await askRunner({
      name: 'player-stepped',
      noShot: true,
      webviewClicks: [`.task-row[data-task-id="${taskA}"]`, '.trajectory-row', '[data-action="next-step"]', '[data-action="next-step"]'],
      webviewSelector: '[data-testid="player-step"]:text-matches("^Step 2 / \\\\d+$")',
    });
    assert.deepEqual(stepped.webviewClicks, { ok: true });
    assert.ok(stepped.webviewSelector?.found, 'the player is at step 2');
    const switched = await askRunner({ name: 'player-switched', noShot: true, webviewClicks: [`.task-row[data-task-id="${taskB}"]`], webviewSelector: `.task-row.selected[data-task-id="${taskB}"]` });
    assert.ok(switched.webviewSelector?.found, 'the other task is shown');
    const gone = await webviewShows('player-reset', `.side-pane:not(:has([data-testid="player"]))`, { noShot: true });
    assert.ok(gone.found, 'no player carried over to the other task');
    const again = await askRunner({ name: 'player-again', noShot: true, webviewClicks: ['.trajectory-row'], webviewSelector: '[data-testid="player-step"]:text-matches("^Start / \\\\d+$")' });
    assert.ok(again.webviewSelector?.found, 'a trajectory of the other task starts at its start');
    const chart = await webviewShows('budget-line', '[data-testid="budget-chart"] polyline.line-quality[data-points]', { attribute: 'data-points', noShot: true });
    assert.ok(Number(chart.value) > 1, `the best-quality line has ${chart.value} points`);
    const limit = await webviewShows('budget-limit', '[data-testid="budget-chart"] [data-testid="budget-limit"]', { noShot: true });
    assert.ok(limit.found, 'the budget limit is drawn');
  });
});
