// Runs inside a real VS Code on the PACKAGED extension: `npm run test:vsix` packages toffee.vsix, installs it into
// code-server with --install-extension (scripts/ci/runExtensionTests.mjs with VSIX=…) and loads the installed copy.
// A user who installed the .vsix, with no data of their own, opens the bundled sample from the welcome view's
// command and synthesizes on it. Without VSIX (the development path) there is no installed copy to test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { summarizeRun } from '../../src/core/store';
import type { ToffeeApi } from '../../src/host/extension';

const EXTENSION_ID = 'toffee.toffee-vscode';

describe('the installed .vsix in a real VS Code', function () {
  let extension: vscode.Extension<ToffeeApi>;
  let sampleFolder: string;

  before(function () {
    if (!process.env.VSIX) {
      console.log('    (this file tests an installed .vsix: run it with npm run test:vsix)');
      this.skip();
    }
    const found = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(found, `${EXTENSION_ID} is not installed`);
    extension = found;
  });

  it('is the copy code-server unpacked from the .vsix: bundles, icon and sample, no sources', function () {
    const root = extension.extensionPath;
    const runnerDir = process.env.RUNNER_DIR;
    assert.ok(runnerDir && root.startsWith(path.join(runnerDir, 'exts')), `loaded from the extensions folder the .vsix was installed into, not ${root}`);
    for (const absent of ['src', 'test', 'node_modules', 'webview', 'scripts', 'tsconfig.json']) {
      assert.equal(fs.existsSync(path.join(root, absent)), false, `${absent} is not in the package`);
    }
    for (const present of ['dist/extension.js', 'dist/cli.js', 'dist/webview.js', 'dist/sql-wasm.wasm', 'dist/sqlWorker.js']) {
      assert.ok(fs.existsSync(path.join(root, present)), `${present} is in the package`);
    }
    assert.deepEqual(fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.map')), [], 'no source maps');
    const icon = extension.packageJSON.icon as string;
    assert.ok(icon && fs.existsSync(path.join(root, icon)), `the icon ${icon} is in the package`);
    assert.equal(fs.readFileSync(path.join(root, icon)).subarray(1, 4).toString('latin1'), 'PNG');
    const sample = path.join(root, 'media', 'samples', 'retail');
    const files = fs.readdirSync(sample).sort();
    assert.ok(files.includes('orders.csv') && files.includes('inventory.sqlite') && files.includes('business_rules.md'), `the sample's files: ${files.join(', ')}`);
    assert.equal(fs.existsSync(path.join(sample, '.toffee')), false, 'no run folders of the repository copy');
    // The README's screenshots resolve inside the installed extension (the Extensions view shows them from there).
    // vsce stores the README as readme.md.
    const readmeName = fs.readdirSync(root).find((f) => f.toLowerCase() === 'readme.md');
    assert.ok(readmeName, 'the README is in the package');
    const readme = fs.readFileSync(path.join(root, readmeName), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 2, 'the README has screenshots');
    for (const image of images) assert.ok(fs.existsSync(path.join(root, image)), `README image ${image} is in the package`);
  });

  it('offers the sample in the Data Environment welcome view and opens it from that command', async function () {
    const welcome = extension.packageJSON.contributes.viewsWelcome as Array<{ view: string; contents: string }>;
    assert.ok(welcome.some((w) => w.view === 'toffee.environment' && w.contents.includes('(command:toffee.openSample)')), 'the welcome view links the sample');
    const opened = await vscode.commands.executeCommand<string | undefined>('toffee.openSample');
    assert.ok(opened, 'the sample opened');
    sampleFolder = opened;
    assert.ok(extension.isActive, 'the installed extension activated');
    assert.ok(!sampleFolder.startsWith(extension.extensionPath), `the sample is opened from a copy the user owns, not inside the extension (${sampleFolder})`);
    const snapshot = extension.exports.environmentSnapshot();
    assert.ok(snapshot, 'the Data Environment view shows the sample');
    assert.equal(snapshot.root, sampleFolder);
    const tables = snapshot.nodes[0].children.find((n) => n.label === 'Tables');
    const names = tables?.children.map((n) => n.label) ?? [];
    for (const table of ['orders', 'customers', 'order_items']) assert.ok(names.includes(table), `table ${table} among ${names.join(', ')}`);
  });

  it('synthesizes on the sample with the offline simulated models', async function () {
    const runDir = await vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(sampleFolder), {
      provider: 'offline-sim',
      tasks: 2,
      budgetUsd: 0.05,
    });
    assert.ok(runDir, 'a run started');
    assert.equal(path.dirname(runDir), path.join(sampleFolder, '.toffee', 'runs'), 'the run is kept in the sample copy');
    const run = summarizeRun(runDir);
    assert.equal(run.status, 'finished');
    assert.equal(run.finishedTasks, 2);
    assert.ok(run.admittedTrajectories >= 1, 'verified trajectories were admitted');
  });
});
