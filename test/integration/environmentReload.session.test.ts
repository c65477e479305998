// Runs inside a real VS Code in a session of its own (TOFFEE_TEST_FILES=environmentReload.session): the Data
// Environment view shows the same folder after a window reload. The suite runs twice: before the reload it opens a
// folder and reloads the window (Developer: Reload Window); the reloaded window starts the suite again, which finds
// the note it left in the runner's folder and checks, without running any TOFFEE command, that the extension came
// back with that folder in the view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToffeeApi } from '../../src/host/extension';

const EXTENSION_ID = 'toffee.toffee-vscode';

describe('the Data Environment view across a window reload', function () {
  const note = path.join(process.env.RUNNER_DIR ?? os.tmpdir(), 'environment-reload.json');

  it('reopens the folder the view showed before the window reloaded', async function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!;
    if (!fs.existsSync(note)) {
      // Before the reload: open a copy of the sample, with the TOFFEE views showing, then reload.
      const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-reload-'));
      const folder = path.join(base, 'retail-reload');
      fs.rmSync(folder, { recursive: true, force: true });
      fs.cpSync(path.join(extension.extensionPath, 'media', 'samples', 'retail'), folder, { recursive: true, filter: (src) => !src.split(path.sep).includes('.toffee') });
      assert.equal(await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', vscode.Uri.file(folder)), true);
      const before = extension.exports.environmentSnapshot();
      assert.equal(before?.root, folder);
      await vscode.commands.executeCommand('workbench.view.extension.toffee');
      console.log(`    (before the reload: ${folder} is open; reloading the window)`);
      fs.writeFileSync(note, JSON.stringify({ folder, tables: before!.nodes[0].children.find((n) => n.label === 'Tables')!.children.map((t) => t.label) }));
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      // The window goes away with this extension host; the reloaded one runs this test again.
      await new Promise(() => undefined);
    }
    const { folder, tables } = JSON.parse(fs.readFileSync(note, 'utf8')) as { folder: string; tables: string[] };
    // After the reload: the view's becoming visible activates the extension, which reopens the folder by itself.
    let snapshot: ReturnType<ToffeeApi['environmentSnapshot']>;
    for (const started = Date.now(); Date.now() - started < 60_000; await new Promise((r) => setTimeout(r, 200))) {
      snapshot = extension.isActive ? extension.exports.environmentSnapshot() : undefined;
      if (snapshot) break;
    }
    console.log(`    (after the reload: the view shows ${snapshot?.root ?? 'nothing'})`);
    assert.ok(extension.isActive, 'the extension activated with the TOFFEE view');
    assert.ok(snapshot!, 'the Data Environment view shows a folder after the reload');
    assert.equal(snapshot!.root, folder);
    assert.deepEqual(snapshot!.nodes[0].children.find((n) => n.label === 'Tables')!.children.map((t) => t.label), tables);
  });
});
