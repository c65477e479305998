// Runs inside a real VS Code after environmentView.test: opens one database of a Spider-layout benchmark folder
// through "TOFFEE: Open Benchmark Environment" and checks the Data Environment view and the contamination reference.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToffeeApi } from '../../src/host/extension';

const EXTENSION_ID = 'toffee.toffee-vscode';
const QUESTION = 'Which warehouse has the largest capacity in units?';

function findFile(dir: string, name: string): string | undefined {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found) return found;
    }
  }
  return undefined;
}

describe('Open Benchmark Environment in a real VS Code', function () {
  let benchmark: string;

  before(function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(extension, 'the extension is installed');
    const sqlite = path.join(extension.extensionPath, 'media', 'samples', 'retail', 'inventory.sqlite');
    benchmark = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-spider-'));
    fs.mkdirSync(path.join(benchmark, 'database', 'inventory'), { recursive: true });
    fs.copyFileSync(sqlite, path.join(benchmark, 'database', 'inventory', 'inventory.sqlite'));
    fs.writeFileSync(
      path.join(benchmark, 'dev.json'),
      JSON.stringify([{ db_id: 'inventory', question: QUESTION, query: 'SELECT name FROM warehouses ORDER BY capacity_units DESC LIMIT 1' }]),
    );
  });

  after(() => fs.rmSync(benchmark, { recursive: true, force: true }));

  it('prepares the picked database as an environment, shows it, and records its benchmark questions', async function () {
    const opened = await vscode.commands.executeCommand<boolean>('toffee.openBenchmarkEnvironment', vscode.Uri.file(benchmark), 'inventory');
    assert.equal(opened, true);
    const snapshot = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!.exports.environmentSnapshot();
    assert.ok(snapshot, 'the Data Environment view is filled');
    assert.ok(snapshot.root.startsWith(benchmark), `the environment folder ${snapshot.root} lies in the benchmark's .toffee/`);
    const tables = snapshot.nodes[0].children.find((n) => n.label === 'Tables');
    assert.ok(tables, 'a Tables group');
    assert.ok(tables.children.some((t) => t.label === 'warehouses'), 'the benchmark database tables are listed');

    const reference = findFile(snapshot.root, 'contamination.json');
    assert.ok(reference, 'a contamination reference is written next to the environment');
    const parsed = JSON.parse(fs.readFileSync(reference, 'utf8')) as Array<{ questions: string[] }>;
    assert.ok(parsed.some((r) => r.questions.includes(QUESTION)), 'the benchmark question is recorded');
  });

  it('says plainly when a folder holds no benchmark', async function () {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-empty-bench-'));
    try {
      const opened = await vscode.commands.executeCommand<boolean>('toffee.openBenchmarkEnvironment', vscode.Uri.file(empty), 'anything');
      assert.equal(opened, false);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
