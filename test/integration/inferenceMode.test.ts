// Named to run after environmentView.test.ts, which checks that nothing activated the extension before it.
// Runs inside a real VS Code without any language model (code-server: VS Code for the web, no Copilot): inference
// mode answers through the configured OpenAI-compatible endpoint, a mock server started here on 127.0.0.1, with
// the key typed into "TOFFEE: Set API Key"'s password box. Two ways in: the `@toffee` chat participant's registered
// handler (VS Code 1.100's chat refuses to call a participant when no language model exists, so the Chat view
// cannot carry the request here), and "TOFFEE: Ask About Data" run from the command palette by keyboard.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseRenderedTable } from '../../src/core/agent/render';
import { demoLibraryForFolder } from '../../src/core/export/inference';
import type { ToffeeApi } from '../../src/host/extension';
import { requireOrSkip } from '../support/requirements';
import { MockOpenAiServer, type ReceivedRequest } from '../support/mockOpenAiServer';

const EXTENSION_ID = 'toffee.toffee-vscode';
const QUESTION = 'In marketing campaigns, which channel has the highest average budget?';
const MODEL = 'mock-model';
/** A key nobody else could print by chance: any file or answer holding it leaked it. */
const PLANTED_KEY = `sk-toffee-planted-${crypto.randomBytes(12).toString('hex')}`;

/** The channel with the highest average budget_usd, read straight from the sample's TSV (not through TOFFEE). */
function expectedChannel(folder: string): string {
  const [header, ...rows] = fs.readFileSync(path.join(folder, 'marketing_campaigns.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const channel = header.indexOf('channel');
  const budget = header.indexOf('budget_usd');
  const sums = new Map<string, { total: number; n: number }>();
  for (const row of rows) {
    const value = Number(row[budget]);
    if (!row[channel] || !Number.isFinite(value) || row[budget].trim() === '') continue;
    const cell = sums.get(row[channel]) ?? { total: 0, n: 0 };
    cell.total += value;
    cell.n += 1;
    sums.set(row[channel], cell);
  }
  return [...sums].sort((a, b) => b[1].total / b[1].n - a[1].total / a[1].n)[0][0];
}

/** The last tool result a request carries (what the extension's sandbox returned for the previous call). */
function lastToolResult(request: ReceivedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const tool = [...messages].reverse().find((m) => m.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : '';
}

/**
 * The model's side of one answer: a SQL call, then a final answer whose value is read from the tool result the
 * extension sent back, so the answer is right only if the tool really ran against the workspace's data.
 */
function scriptAnswer(server: MockOpenAiServer): void {
  server.enqueue(
    {
      kind: 'toolCalls',
      content: 'Average budget per channel, highest first.',
      calls: [{ name: 'run_sql', arguments: JSON.stringify({ query: 'SELECT channel, AVG(budget_usd) AS avg_budget FROM marketing_campaigns GROUP BY channel ORDER BY avg_budget DESC' }) }],
      usage: { prompt: 900, completion: 40 },
    },
    {
      kind: 'fromRequest',
      respond: (request) => {
        const table = parseRenderedTable(lastToolResult(request));
        const top = table?.rows[0]?.[0] ?? 'no table in the tool result';
        return { kind: 'toolCalls', calls: [{ name: 'final_answer', arguments: JSON.stringify({ answer: top, explanation: 'Highest average budget_usd.' }) }], usage: { prompt: 1200, completion: 20 } };
      },
    },
  );
}

/** Asks the runner (scripts/ci/runExtensionTests.mjs) to press keys in the workbench, as a user would. */
async function pressKeys(name: string, keys: Array<{ waitFor?: string; type?: string; press?: string }>): Promise<void> {
  const request = process.env.SCREENSHOT_REQUEST!;
  fs.writeFileSync(`${request}.tmp`, JSON.stringify({ name, keys }));
  fs.renameSync(`${request}.tmp`, request);
  // The answer to the previous request goes only once this one is in place: the runner never re-reads the old one.
  fs.rmSync(`${request}.done`, { force: true });
  for (let i = 0; i < 300 && !fs.existsSync(`${request}.done`); i++) await new Promise((r) => setTimeout(r, 200));
  const answer = JSON.parse(fs.readFileSync(`${request}.done`, 'utf8') || '{}') as { keys?: { ok: boolean; error?: string } };
  assert.ok(answer.keys?.ok, `the runner could not press the keys for ${name}: ${answer.keys?.error ?? 'no answer'}`);
}

/** A ChatResponseStream that records what the participant streams. */
function recordingStream(): { stream: vscode.ChatResponseStream; text: () => string; progress: string[] } {
  const parts: string[] = [];
  const progress: string[] = [];
  const record = (value: unknown) => parts.push(typeof value === 'string' ? value : value instanceof vscode.MarkdownString ? value.value : JSON.stringify(value));
  const stream = {
    markdown: record,
    progress: (value: string) => progress.push(value),
    anchor: record,
    button: record,
    filetree: record,
    reference: record,
    push: record,
  };
  return { stream: stream as unknown as vscode.ChatResponseStream, text: () => parts.join(''), progress };
}

function chatRequest(prompt: string): vscode.ChatRequest {
  // What VS Code's chat passes, except `model`: this VS Code has none (the point of the test).
  return { prompt, command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, model: undefined } as unknown as vscode.ChatRequest;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((r) => setTimeout(r, 250))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Inference mode in a real VS Code without a language model (mock OpenAI-compatible endpoint)', function () {
  let api: ToffeeApi;
  let server: MockOpenAiServer;
  let workspace: string;
  let added: string[] = [];
  let expected: string;
  let demoQuestion: string;

  before(async function () {
    // The keyboard and the run's log folder belong to the runner; without it there is nothing to drive.
    requireOrSkip(this, process.env.SCREENSHOT_REQUEST && process.env.RUNNER_DIR ? undefined : 'the integration runner (scripts/ci/runExtensionTests.mjs) to press keys');
    const extension = vscode.extensions.getExtension<ToffeeApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    api = await extension.activate();
    assert.deepEqual(await vscode.lm.selectChatModels({}), [], 'this VS Code has no language model');

    // The workspace folder (the runner's, empty) becomes the data folder: @toffee answers about the workspace.
    workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const sample = path.join(extension.extensionPath, 'media', 'samples', 'retail');
    added = fs.readdirSync(sample).filter((name) => name !== '.toffee');
    for (const name of added) fs.cpSync(path.join(sample, name), path.join(workspace, name), { recursive: true });
    added.push('.toffee');
    expected = expectedChannel(workspace);
    const runDir = await vscode.commands.executeCommand<string | undefined>('toffee.synthesizeTrajectories', vscode.Uri.file(workspace), { provider: 'offline-sim', tasks: 3, budgetUsd: 0.05 });
    assert.ok(runDir && fs.existsSync(path.join(runDir, 'trajectories.jsonl')), 'the synthesis wrote a run for demos');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const [hit] = demoLibraryForFolder(workspace)?.library.retrieve(QUESTION, 1) ?? [];
    assert.ok(hit, 'the run has a demo for the question');
    demoQuestion = hit.trajectory.task.question;

    server = await MockOpenAiServer.start({ models: [MODEL] });
    const settings = vscode.workspace.getConfiguration('toffee.llm');
    await settings.update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await settings.update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await settings.update('model', MODEL, vscode.ConfigurationTarget.Global);
    await settings.update('maxRetries', 0, vscode.ConfigurationTarget.Global);
    // The key goes in the way a user puts it: typed into the command's password box.
    const stored = vscode.commands.executeCommand('toffee.setApiKey', server.baseUrl);
    await pressKeys('api-key', [{ waitFor: '.quick-input-widget input[type="password"]', type: PLANTED_KEY, press: 'Enter' }]);
    await stored;
  });

  after(async function () {
    const settings = vscode.workspace.getConfiguration('toffee.llm');
    for (const key of ['provider', 'baseUrl', 'model', 'maxRetries']) await settings.update(key, undefined, vscode.ConfigurationTarget.Global);
    // The answer documents are unsaved untitled ones: revert each, so no "save?" prompt is left behind.
    for (let i = 0; i < 10 && vscode.window.activeTextEditor; i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await server?.close();
    for (const name of added) fs.rmSync(path.join(workspace, name), { recursive: true, force: true });
  });

  function assertAnswer(text: string, firstRequest: number): void {
    const requests = server.chatRequests.slice(firstRequest);
    assert.equal(requests.length, 2, 'one SQL step and the final answer');
    for (const request of requests) assert.equal(request.headers.authorization, `Bearer ${PLANTED_KEY}`, 'the key from secret storage is sent to the endpoint');
    const prompt = JSON.stringify(requests[0].body?.messages);
    assert.ok(prompt.includes('Worked examples from this data environment'), 'demos are in the prompt');
    assert.ok(prompt.includes(JSON.stringify(demoQuestion).slice(1, -1)), 'the retrieved demo is in the prompt');
    const toolResult = lastToolResult(requests[1]);
    assert.equal(parseRenderedTable(toolResult)?.rows[0]?.[0], expected, `the SQL ran against the workspace's data: ${toolResult.slice(0, 200)}`);
    assert.ok(text.includes(`Demos from run `) && text.includes(demoQuestion), 'the answer says which demos it used');
    assert.ok(text.includes('```sql\nSELECT channel, AVG(budget_usd)'), 'the SQL step is shown as a code block');
    assert.ok(text.includes('| channel | avg_budget |'), 'the result is shown as a table');
    assert.ok(text.includes(`### Answer\n\n**${expected}**`), `the answer is ${expected}`);
    assert.ok(text.includes(`_Answered by **${MODEL}** (OpenAI-compatible endpoint ${server.baseUrl}) · 2 steps`), 'the answer names the model that gave it');
    assert.ok(!text.includes(PLANTED_KEY), 'the key is not in the answer');
  }

  it('@toffee answers with demos, tools and the configured endpoint, and names the model', async function () {
    const before = server.chatRequests.length;
    scriptAnswer(server);
    const { stream, text, progress } = recordingStream();
    const tokens = new vscode.CancellationTokenSource();
    const result = await api.chatRequestHandler(chatRequest(QUESTION), { history: [] } as unknown as vscode.ChatContext, stream, tokens.token);
    tokens.dispose();
    assert.equal(result?.errorDetails, undefined, JSON.stringify(result?.errorDetails));
    assert.ok(((result?.metadata as { demos?: number } | undefined)?.demos ?? 0) > 0, 'demos were retrieved');
    assert.ok(progress.some((p) => p.includes(MODEL)), 'progress names the model');
    assertAnswer(text(), before);
  });

  it('TOFFEE: Ask About Data, run from the command palette, streams the same answer into a Markdown document', async function () {
    const before = server.chatRequests.length;
    scriptAnswer(server);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.showCommands');
    await pressKeys('ask-palette', [
      { waitFor: '.quick-input-widget .quick-input-box input', type: 'TOFFEE: Ask About Data' },
      { waitFor: '.quick-input-list .monaco-list-row[aria-label*="Ask About Data"]', press: 'Enter' },
      { waitFor: '.quick-input-widget input[placeholder*="Which region"]', type: QUESTION, press: 'Enter' },
    ]);
    const document = await waitFor('the answer document', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'untitled' && d.uri.path.includes('TOFFEE Answer') && d.getText().includes('_Answered by')));
    assert.equal(document.languageId, 'markdown');
    const text = document.getText();
    assert.ok(text.startsWith(`# ${QUESTION}\n\n`), 'the document opens with the question');
    assertAnswer(text, before);
  });

  it('with neither a VS Code model nor a configured endpoint, both say what to configure and call nothing', async function () {
    const before = server.requests.length;
    const settings = vscode.workspace.getConfiguration('toffee.llm');
    await settings.update('provider', undefined, vscode.ConfigurationTarget.Global);
    await settings.update('baseUrl', 'https://api.example.invalid/v1', vscode.ConfigurationTarget.Global);
    try {
      const { stream, text } = recordingStream();
      const tokens = new vscode.CancellationTokenSource();
      await api.chatRequestHandler(chatRequest(QUESTION), { history: [] } as unknown as vscode.ChatContext, stream, tokens.token);
      tokens.dispose();
      for (const words of ['No language model to answer with', '`toffee.llm.provider`', '`openai-compatible`', '`toffee.llm.baseUrl`', '`toffee.llm.model`', 'TOFFEE: Set API Key']) {
        assert.ok(text().includes(words), `the chat message names ${words}: ${text()}`);
      }
      const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('toffee.askAboutData', { question: QUESTION });
      assert.ok(uri, 'the command opened a document');
      const document = await vscode.workspace.openTextDocument(uri);
      const answer = document.getText();
      assert.ok(answer.includes('No language model to answer with'), answer);
      // Then the offline answer: the simulated model on the run's task nearest the question, labelled as such.
      assert.match(answer, /### Offline answer( to the nearest task)?\n/, answer);
      assert.ok(answer.includes('_Answered by **sim-large** (simulated, offline) on the nearest task of run '), answer);
      assert.ok(/### Answer\n\n\*\*.+\*\*/.test(answer), 'the simulated model gave a final answer');
      assert.ok(text().includes('### Offline answer'), 'the chat answers offline too');
      assert.equal(server.requests.length, before, 'no request reached any endpoint');
    } finally {
      await settings.update('provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
      await settings.update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    }
  });

  it('the key is in no log, no run folder and no settings file', async function () {
    const logs = path.join(process.env.RUNNER_DIR!, 'data', 'logs');
    // The TOFFEE channel's file, written by the extension host: it logged both answers.
    const toffeeLog = await waitFor('the TOFFEE log with both answers', () => {
      const file = filesUnder(logs).find((f) => path.basename(f) === 'TOFFEE.log' && f.includes(EXTENSION_ID));
      return file && (fs.readFileSync(file, 'utf8').match(/Ask: final_answer after 2 steps with mock-model/g) ?? []).length >= 2 ? file : undefined;
    }, 15_000);
    assert.ok(fs.readFileSync(toffeeLog, 'utf8').includes('API key stored for'), 'Set API Key logged that it stored a key');
    const scanned = [...filesUnder(logs), ...filesUnder(path.join(workspace, '.toffee')), path.join(process.env.RUNNER_DIR!, 'data', 'User', 'settings.json')];
    assert.ok(scanned.some((f) => f.endsWith('events.jsonl')), 'the run folder was scanned');
    for (const file of scanned) assert.ok(!fs.readFileSync(file, 'latin1').includes(PLANTED_KEY), `the key leaked into ${file}`);
  });
});
