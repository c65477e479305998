// Runs inside a real VS Code (code-server's extension host, driven by scripts/ci/runExtensionTests.mjs).
// Loads a data folder through the same command the explorer's context menu runs, then checks what the
// Data Environment view holds, item by item, against the loader's own profile and against known files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadEnvironment } from '../../src/core/env';
import type { EnvironmentProfile } from '../../src/core/env/types';
import { escapeRegExp } from '../../src/core/text/regex';
import { mulberry32 } from '../support/random';
import type { ToffeeApi } from '../../src/host/extension';
import type { TreeSnapshotNode } from '../../src/host/EnvironmentTreeProvider';
import { askRunner, webviewShows } from '../support/runnerClient';

const EXTENSION_ID = 'toffee.toffee-vscode';

/** Seeded bytes (mulberry32's low byte) so the broken file is the same on every run. */
function seededBytes(count: number, seed: number): Buffer {
  const random = mulberry32(seed);
  return Buffer.from(Array.from({ length: count }, () => (random() * 4294967296) & 0xff));
}

/** Files whose tree content the test knows in advance, written next to the sample. */
const KNOWN_CSV = 'known_sales.csv';
const KNOWN_MD = 'known_rules.md';
const BROKEN = 'broken.csv';

function writeKnownFiles(folder: string): void {
  fs.writeFileSync(
    path.join(folder, KNOWN_CSV),
    [
      'sale_id,region,amount,sold_on,paid',
      '1,North,10.50,2024-01-03,true',
      '2,South,7.25,2024-01-04,false',
      '3,North,3.00,2024-02-11,true',
      '4,East,12.75,2024-02-12,true',
      '5,West,1.10,2024-03-01,false',
    ].join('\n') + '\n',
  );
  fs.writeFileSync(
    path.join(folder, KNOWN_MD),
    '# Sales rules\n\nAmounts are in euros.\n\n## Refunds\n\nA refund is a negative amount.\n\n## Regions\n\nNorth, South, East and West.\n',
  );
  fs.writeFileSync(path.join(folder, BROKEN), seededBytes(4096, 20261129));
}

/** Used only while the shipped sample (media/samples/retail) does not exist yet. */
function writeFallbackSample(folder: string): void {
  fs.writeFileSync(path.join(folder, 'customers.csv'), 'customer_id,name,city\n1,Ada,Lyon\n2,Ben,Oslo\n3,Cleo,Porto\n');
  fs.writeFileSync(
    path.join(folder, 'orders.csv'),
    'order_id;customer_id;total\n10;1;20.5\n11;1;3.25\n12;3;9\n13;2;14\n',
  );
  fs.writeFileSync(path.join(folder, 'policy.md'), '# Retail policy\n\n## Loyalty\n\nGold after 10 orders.\n');
}

function find(nodes: TreeSnapshotNode[], label: string): TreeSnapshotNode {
  const node = nodes.find((n) => n.label === label);
  assert.ok(node, `no tree item "${label}" among: ${nodes.map((n) => n.label).join(', ')}`);
  return node;
}

function rowsIn(description: string | undefined): number {
  const match = /^([\d,]+) rows?$/.exec(description ?? '');
  assert.ok(match, `a table's description should read "N rows", got ${JSON.stringify(description)}`);
  return Number(match[1].replace(/,/g, ''));
}

describe('Data Environment view in a real VS Code', function () {
  let dataFolder: string;
  let usedShippedSample = false;
  let api: ToffeeApi;
  let groups: { tables: TreeSnapshotNode; documents: TreeSnapshotNode; diagnostics: TreeSnapshotNode };
  let expected: EnvironmentProfile;

  before(function () {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-'));
    dataFolder = path.join(base, 'retail');
    fs.rmSync(dataFolder, { recursive: true, force: true });
    // The sample ships in the repository, not in the .vsix: look next to the extension, then in the
    // repository this compiled test lives in (out/test/integration → three levels up).
    const sample = [extension.extensionPath, path.resolve(__dirname, '../../..')]
      .map((dir) => path.join(dir, 'media', 'samples', 'retail'))
      .find((dir) => fs.existsSync(dir));
    if (sample) {
      fs.cpSync(sample, dataFolder, { recursive: true });
      usedShippedSample = true;
    } else {
      fs.mkdirSync(dataFolder, { recursive: true });
      writeFallbackSample(dataFolder);
    }
    writeKnownFiles(dataFolder);
  });

  it('is not active before its command runs (activation is lazy)', function () {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(extension.isActive, false);
    // A folder's context menu has one TOFFEE submenu (its label names the extension) holding the folder commands.
    const menus = extension.packageJSON.contributes.menus as Record<string, Array<{ command?: string; submenu?: string; when?: string }>>;
    assert.deepEqual(menus['explorer/context'].map((m) => [m.submenu, m.when]), [['toffee.explorerContext', 'explorerResourceIsFolder']]);
    assert.deepEqual(menus['toffee.explorerContext'].map((m) => m.command), ['toffee.openEnvironment', 'toffee.synthesizeTrajectories']);
    const submenus = extension.packageJSON.contributes.submenus as Array<{ id: string; label: string }>;
    assert.equal(submenus.find((s) => s.id === 'toffee.explorerContext')?.label, 'TOFFEE');
    // Every command shows under the TOFFEE category in the Command Palette.
    const commands = extension.packageJSON.contributes.commands as Array<{ command: string; category?: string }>;
    assert.deepEqual(commands.filter((c) => c.category !== 'TOFFEE').map((c) => c.command), []);
    // Contributions generate the rest; the only explicit event restores an explorer panel after a reload.
    assert.deepEqual(extension.packageJSON.activationEvents, ['onWebviewPanel:toffee.explorer']);
  });

  it('reports a folder that cannot be read without throwing', async function () {
    const missing = vscode.Uri.file(path.join(os.tmpdir(), `toffee-missing-${process.pid}-${Date.now()}`));
    const loaded = await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', missing);
    assert.equal(typeof loaded, 'boolean');
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    assert.equal(extension.isActive, true);
    if (!loaded) assert.equal(extension.exports.environmentSnapshot(), undefined, 'a failed load must not fill the view');
  });

  it('stops a slow load when it is cleared, leaving the view empty', async function () {
    // ~25 MB of CSV keeps the loader busy for seconds, so the clear lands while it runs.
    const bigFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-big-'));
    try {
      const rows = Array.from({ length: 400_000 }, (_, i) => `${i},customer_${i % 997},${(i * 7.31) % 1000},2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
      fs.writeFileSync(path.join(bigFolder, 'big.csv'), `id,customer,amount,day\n${rows.join('\n')}\n`);
      const loading = vscode.commands.executeCommand<boolean>('toffee.openEnvironment', vscode.Uri.file(bigFolder));
      await new Promise((r) => setTimeout(r, 500));
      const clearedAt = Date.now();
      await vscode.commands.executeCommand('toffee.clearEnvironment');
      assert.equal(await loading, false, 'a cleared load must report that it did not load');
      console.log(`  (load stopped ${Date.now() - clearedAt} ms after the clear)`);
      assert.equal(vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!.exports.environmentSnapshot(), undefined);
    } finally {
      fs.rmSync(bigFolder, { recursive: true, force: true });
    }
  });

  it('loads the folder through the explorer command and shows it in the view', async function () {
    // The Uri the explorer's context menu passes: the workspace folder's own scheme (vscode-remote in code-server).
    const workspace = vscode.workspace.workspaceFolders?.[0];
    const folderUri = workspace && dataFolder.startsWith(workspace.uri.fsPath)
      ? vscode.Uri.joinPath(workspace.uri, path.relative(workspace.uri.fsPath, dataFolder))
      : vscode.Uri.file(dataFolder);
    console.log(`  (opening ${folderUri.toString()})`);
    const loaded = await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', folderUri);
    assert.equal(loaded, true);
    api = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!.exports;
    const snapshot = api.environmentSnapshot();
    assert.ok(snapshot, 'the view is empty after loading');
    assert.equal(snapshot.root, dataFolder);
    assert.equal(snapshot.nodes.length, 1);
    const [root] = snapshot.nodes;
    assert.equal(root.label, 'retail');
    assert.equal(root.icon, 'root-folder');
    groups = { tables: find(root.children, 'Tables'), documents: find(root.children, 'Documents'), diagnostics: find(root.children, 'Diagnostics') };
    // The loader's own view of the same folder, for comparison item by item.
    expected = (await loadEnvironment(dataFolder)).profile;
    console.log(
      `  (${usedShippedSample ? 'shipped sample' : 'fallback sample'}: ${expected.tables.length} tables, ` +
        `${expected.documents.length} documents, ${expected.diagnostics.length} diagnostics)`,
    );
  });

  it('shows every table the loader produced, with its row count and its columns with types', function () {
    assert.ok(expected.tables.length >= 3, 'the sample should give several tables');
    assert.equal(groups.tables.description, String(expected.tables.length));
    assert.deepEqual(groups.tables.children.map((t) => t.label).sort(), expected.tables.map((t) => t.name).sort());
    for (const table of expected.tables) {
      const item = find(groups.tables.children, table.name);
      assert.equal(rowsIn(item.description), table.rowCount, `row count of ${table.name}`);
      assert.match(item.tooltip ?? '', new RegExp(`source: ${escapeRegExp(table.sourceFile)}`));
      assert.equal(item.icon, table.kind === 'view' ? 'eye' : 'table');
      assert.deepEqual(item.children.map((c) => c.label), table.columns.map((c) => c.name), `columns of ${table.name}`);
      for (const column of table.columns) {
        const columnItem = find(item.children, column.name);
        const shownType = columnItem.description?.split(' ')[0];
        assert.ok(shownType === column.type || (shownType === 'binary' && columnItem.icon === 'file-binary'), `type of ${table.name}.${column.name}: ${shownType}`);
        // A key is unique and non-null (or part of a primary key its source declared), but not every unique column is one.
        if (columnItem.icon === 'key' && !/primary key/.test(columnItem.description ?? '')) assert.ok(column.candidateKey, `${table.name}.${column.name} is badged a key but is not unique`);
      }
      const keys = item.children.filter((c) => c.icon === 'key');
      assert.ok(keys.length <= 1 || keys.every((c) => /primary key/.test(c.description ?? '')), `${table.name} has one key, or a declared composite one`);
      assert.deepEqual(item.command, { command: 'toffee.previewTable', arguments: [table.name] }, 'a table opens its preview');
    }
    const unique = expected.tables.flatMap((t) => t.columns.filter((c) => c.candidateKey));
    const badged = groups.tables.children.flatMap((t) => t.children.filter((c) => c.icon === 'key'));
    assert.ok(badged.length < unique.length, `not every unique column is a key (${badged.length} keys, ${unique.length} unique columns)`);
  });

  it('previews a table as a read-only grid of its first rows, and opens a document at a heading', async function () {
    const orders = find(groups.tables.children, 'orders');
    const title = await vscode.commands.executeCommand<string>(orders.command!.command, ...orders.command!.arguments!);
    assert.equal(title, 'Preview: orders');
    if (process.env.SCREENSHOT_REQUEST) {
      const rows = await webviewShows('preview-rows', '[data-testid="preview-grid"] tbody tr:nth-child(200)', { noShot: true });
      assert.ok(rows.found, 'the grid shows 200 rows of orders');
      const summary = await webviewShows('preview-summary', '[data-testid="preview-summary"]:has-text("the first 200 of 3,000 rows")', { noShot: true });
      assert.ok(summary.found);
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const known = groups.documents.children.find((d) => d.description === KNOWN_MD)!;
    const refunds = find(known.children, 'Refunds');
    assert.equal(refunds.command?.command, 'toffee.openDocumentAt');
    const line = await vscode.commands.executeCommand<number>(refunds.command!.command, ...refunds.command!.arguments!);
    assert.equal(line, 4);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document.uri.fsPath === path.join(dataFolder, KNOWN_MD), 'the document is open');
    assert.equal(editor.selection.active.line, 4, 'at its "Refunds" heading');
    assert.equal(editor.document.lineAt(4).text, '## Refunds');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows the known CSV with its exact rows, types and key', function () {
    const item = groups.tables.children.find((t) => (t.tooltip ?? '').includes(`source: ${KNOWN_CSV}`));
    assert.ok(item, `no table from ${KNOWN_CSV}`);
    assert.equal(rowsIn(item.description), 5);
    const types = Object.fromEntries(item.children.map((c) => [c.label, c.description?.split(' ')[0]]));
    assert.deepEqual(types, { sale_id: 'integer', region: 'text', amount: 'real', sold_on: 'date', paid: 'boolean' });
    assert.equal(find(item.children, 'sale_id').icon, 'key');
    assert.match(find(item.children, 'sale_id').description ?? '', /^integer · (key|identifier · primary key)$/);
    // What the columns mean, from the semantic profile.
    assert.match(find(item.children, 'amount').description ?? '', /^real · measure/);
    assert.match(find(item.children, 'sold_on').description ?? '', /^date · time/);
    assert.match(find(item.children, 'amount').tooltip ?? '', /\nwhy: /);
    assert.equal(find(item.children, 'region').icon, 'symbol-field');
    // amount and sold_on are unique in five rows, which makes neither a key.
    assert.equal(find(item.children, 'amount').icon, 'symbol-field');
    assert.equal(find(item.children, 'sold_on').icon, 'symbol-field');
  });

  it('shows documents with their headings', function () {
    assert.equal(groups.documents.children.length, expected.documents.length);
    for (const doc of expected.documents) {
      const item = groups.documents.children.find((d) => d.description === doc.sourceFile);
      assert.ok(item, `no document item for ${doc.sourceFile}`);
      assert.deepEqual(item.children.map((h) => h.label), doc.headings);
    }
    const known = groups.documents.children.find((d) => d.description === KNOWN_MD);
    assert.ok(known, `no document item for ${KNOWN_MD}`);
    assert.equal(known.label, 'Sales rules');
    assert.deepEqual(known.children.map((h) => h.label), ['Sales rules', 'Refunds', 'Regions']);
  });

  it('shows the broken file under Diagnostics with a warning or error icon', function () {
    const broken = find(groups.diagnostics.children, BROKEN);
    assert.ok(broken.icon === 'warning' || broken.icon === 'error', `icon of ${BROKEN}: ${broken.icon}`);
    assert.match(broken.iconColor ?? '', /^problems(Warning|Error)Icon\.foreground$/);
    assert.ok(broken.children.length >= 1);
    for (const d of broken.children) assert.ok(d.icon === 'warning' || d.icon === 'error' || d.icon === 'info');
    assert.ok(broken.children.some((d) => d.icon === broken.icon));
    // Every diagnostic the loader reported is in the view, under its file; notes are not counted as problems.
    const problems = expected.diagnostics.filter((d) => d.severity !== 'info').length;
    const notes = expected.diagnostics.length - problems;
    assert.equal(groups.diagnostics.description, [problems ? `${problems} problem${problems === 1 ? '' : 's'}` : '', notes ? `${notes} note${notes === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ') || 'none');
    for (const d of expected.diagnostics) {
      const fileItem = find(groups.diagnostics.children, d.file);
      const item = fileItem.children.find((c) => c.label === d.message);
      assert.ok(item, `diagnostic "${d.message}" for ${d.file} is missing`);
      assert.equal(item.icon, d.severity);
      if (d.line !== undefined) assert.ok(fileItem.children.some((c) => c.label === d.message && c.description === `line ${d.line}`));
    }
  });

  it('writes to its TOFFEE log output channel', async function () {
    await vscode.commands.executeCommand('toffee.showLog');
    let text = '';
    for (let i = 0; i < 50 && !text.includes('Loaded'); i++) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'output' && /TOFFEE/.test(d.uri.toString()));
      text = doc?.getText() ?? '';
      if (!text.includes('Loaded')) await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(text, /Loaded .*retail/, 'the TOFFEE output channel should log the load');
    assert.match(text, /broken\.csv/);
  });

  after(async function () {
    // Leave the view open and visible for the runner's screenshot (SCREENSHOT_REQUEST set by the runner).
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('toffee.environment.focus');
    // Expand the first table (root > Tables > first table) so its columns and key icons are in the picture.
    for (const command of ['list.focusFirst', 'list.focusDown', 'list.focusDown', 'list.expand']) {
      await vscode.commands.executeCommand(command).then(undefined, () => undefined);
    }
    if (process.env.SCREENSHOT_REQUEST) await askRunner({ name: 'environment-view' });
  });
});
