// Runs inside a real VS Code (code-server's extension host, driven by scripts/ci/runExtensionTests.mjs).
// Builds the task pool of a copy of the shipped sample through the Tasks view's command, then checks the view's
// items (families → tasks, difficulty, status) against a task pool built independently in this process, and opens
// task details through the items' own command.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openAgentSession } from '../../src/core/agent/session';
import { buildTaskPool, type TaskPoolResult } from '../../src/core/taskpool/pool';
import { escapeRegExp } from '../../src/core/text/regex';
import type { ToffeeApi } from '../../src/host/extension';
import type { TaskTreeSnapshotNode } from '../../src/host/tasksView';

const EXTENSION_ID = 'toffee.toffee-vscode';

describe('Tasks view in a real VS Code', function () {
  this.timeout(600_000);
  let dataFolder: string;
  let api: ToffeeApi;
  let expected: TaskPoolResult;
  let families: TaskTreeSnapshotNode[];

  before(async function () {
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const sample = [extension.extensionPath, path.resolve(__dirname, '../../..')].map((dir) => path.join(dir, 'media', 'samples', 'retail')).find((dir) => fs.existsSync(dir));
    assert.ok(sample, 'the shipped sample (media/samples/retail) is missing');
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-it-'));
    dataFolder = path.join(base, 'retail-tasks');
    fs.rmSync(dataFolder, { recursive: true, force: true });
    fs.cpSync(sample, dataFolder, { recursive: true });
    const session = await openAgentSession(dataFolder);
    try {
      expected = await buildTaskPool(session.toolContext, {});
    } finally {
      await session.dispose();
    }
  });

  after(() => {
    if (dataFolder) fs.rmSync(dataFolder, { recursive: true, force: true });
  });

  it('asks for an environment first, then builds the pool of the opened folder', async function () {
    await vscode.commands.executeCommand('toffee.clearEnvironment');
    assert.equal(await vscode.commands.executeCommand<boolean>('toffee.buildTasks'), false, 'no environment is open');
    // The Uri the explorer's context menu passes: the workspace folder's own scheme (vscode-remote in code-server).
    const workspace = vscode.workspace.workspaceFolders?.[0];
    const folderUri = workspace && dataFolder.startsWith(workspace.uri.fsPath) ? vscode.Uri.joinPath(workspace.uri, path.relative(workspace.uri.fsPath, dataFolder)) : vscode.Uri.file(dataFolder);
    assert.equal(await vscode.commands.executeCommand<boolean>('toffee.openEnvironment', folderUri), true);
    assert.equal(await vscode.commands.executeCommand<boolean>('toffee.buildTasks'), true);
    api = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID)!.exports;
    families = api.tasksSnapshot();
    console.log(`  (${expected.tasks.length} tasks in ${families.length} families, ${expected.rejected.length} rejected)`);
  });

  it('shows one item per family with its valid and rejected counts, and every task with difficulty and status', function () {
    const expectedFamilies = [...new Set([...expected.tasks.map((t) => t.family), ...expected.rejected.map((r) => r.family)])].sort();
    assert.ok(expectedFamilies.length >= 6, `only ${expectedFamilies.length} families on the sample`);
    assert.deepEqual(families.map((f) => f.label), expectedFamilies);
    for (const family of families) {
      const valid = expected.tasks.filter((t) => t.family === family.label);
      const rejected = expected.rejected.filter((r) => r.family === family.label);
      assert.equal(family.description, `${valid.length} valid${rejected.length ? `, ${rejected.length} rejected` : ''}`);
      assert.equal(family.icon, 'symbol-class');
      assert.equal(family.children.length, valid.length + rejected.length);
      for (const [i, task] of valid.entries()) {
        const item = family.children[i];
        assert.ok(task.question.startsWith(item.label.replace(/…$/, '')), `${item.label} is not the start of ${task.question}`);
        assert.equal(item.description, `${task.difficulty.level} · valid`);
        assert.equal(item.icon, 'pass');
        assert.deepEqual(item.command, { command: 'toffee.showTask', arguments: [task.id] });
        assert.match(item.tooltip ?? '', new RegExp(escapeRegExp(task.tables.join(', '))));
      }
      for (const [i, r] of rejected.entries()) {
        const item = family.children[valid.length + i];
        assert.equal(item.icon, 'error');
        assert.match(item.description ?? '', /^rejected · /);
        assert.equal(item.tooltip, r.reasons.join('\n'));
        assert.equal(item.command, undefined, 'a rejected task has no detail command');
      }
    }
  });

  it("opens a task's detail from its item: question, evidence with results, rubric with anchors, file roles", async function () {
    // The document-grounded task: its detail must also name the document section it needs.
    const family = families.find((f) => f.label === 'document-parameter');
    assert.ok(family && family.children.length > 0, 'no document-parameter task on the sample');
    const item = family.children[0];
    const task = expected.tasks.find((t) => t.id === item.command!.arguments![0])!;
    const uri = await vscode.commands.executeCommand<vscode.Uri>(item.command!.command, ...item.command!.arguments!);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no editor opened');
    // A read-only virtual document: not an untitled buffer that asks to be saved on close.
    assert.equal(editor.document.uri.toString(), uri.toString());
    assert.equal(editor.document.uri.scheme, 'toffee-task');
    assert.equal(editor.document.isUntitled, false);
    assert.equal(editor.document.isDirty, false);
    assert.match(editor.document.uri.path, /^\/Task \d+ — .+\.md$/, 'the tab names the task by its question');
    assert.equal(editor.document.languageId, 'markdown');
    const text = editor.document.getText();
    assert.ok(text.startsWith(`# ${task.question}\n`));
    assert.match(text, new RegExp(`\\*\\*Family:\\*\\* ${task.family}`));
    assert.match(text, /## Evidence[\s\S]*```sql\n[\s\S]*SELECT[\s\S]*```/);
    assert.ok(text.includes(task.evidence[0].code), 'the evidence SQL is not shown');
    assert.ok(text.includes(`| ${task.evidence[0].result!.columns.join(' | ')} |`), 'the evidence result is not shown');
    for (const d of task.documents ?? []) assert.ok(text.includes(`${d.document} § ${d.section}`), `document ${d.document} § ${d.section} missing`);
    assert.match(text, /## Rubric/);
    for (const criterion of task.rubric!) for (const anchor of criterion.anchors) assert.ok(text.includes(`\`${anchor}\``), `anchor ${anchor} missing`);
    assert.match(text, /## File roles/);
    for (const role of task.roles!) assert.ok(text.includes(`| ${role.file} | ${role.role} |`), `role of ${role.file} missing`);
    for (const criterion of task.rubric!) assert.ok(text.includes(criterion.description.replace(/\|/g, '\\|')), `criterion cut: ${criterion.description}`);
    // Typing into it changes nothing: the editor is read-only, so nothing becomes dirty.
    await vscode.commands.executeCommand('type', { text: 'typed into the task' });
    assert.equal(editor.document.isDirty, false);
    assert.equal(editor.document.getText(), text);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === uri.toString()), 'it closed without asking to save');
  });
});
