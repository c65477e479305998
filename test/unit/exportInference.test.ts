import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentSession, openAgentSession } from '../../src/core/agent/session';
import type { AgentStep } from '../../src/core/agent/types';
import { answerMarkdown, answerTaskOffline, answerWithDemos, chooseAnswerModel, demoLibraryForFolder, nearestRunTasks, NO_ANSWER_MODEL_MESSAGE, formatDemoForLanguage, observationMarkdown, offlineAnswerNote, questionWithDemos, stepMarkdown } from '../../src/core/export/inference';
import { createOpenAiProvider } from '../../src/core/llm/openaiProvider';
import type { ExportTrajectory } from '../../src/core/export/types';
import { RunStore } from '../../src/core/store/RunStore';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { MockOpenAiServer } from '../support/mockOpenAiServer';
import { EpisodeFixture, RETAIL_SAMPLE, acquireRetailEpisodes } from './exportFixture';

describe('inference mode helpers (chat participant and Insert ICL Demo)', function () {
  this.timeout(240_000);
  let fixture: EpisodeFixture;
  let trajectories: ExportTrajectory[];
  const dirs: string[] = [];

  before(async () => {
    fixture = await acquireRetailEpisodes();
    trajectories = fixture.trajectories;
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts the question first and the demos after it; no demos → the question alone', () => {
    const text = questionWithDemos('How many returns?', trajectories.slice(0, 2));
    assert.ok(text.startsWith('How many returns?\n\nWorked examples'));
    assert.ok(text.includes(`Question: ${trajectories[1].task.question}`));
    assert.equal(questionWithDemos('How many returns?', []), 'How many returns?');
  });

  it('shows result tables as Markdown tables and SQL as code blocks', () => {
    const md = observationMarkdown('region | total\nNorth | 12.5\nSo\\|uth | 3\n(2 rows)');
    assert.equal(md, '| region | total |\n| --- | --- |\n| North | 12.5 |\n| So\\|uth | 3 |\n\n_2 rows_');
    assert.ok(observationMarkdown('Final answer: 3').startsWith('```'));
    const sqlStep = trajectories.flatMap((t) => t.steps).find((s) => s.toolCall?.name === 'run_sql' && s.observation.ok)!;
    const text = stepMarkdown(sqlStep);
    assert.ok(text.includes('```sql\n'), text);
    assert.ok(text.includes('| --- |'), text);
    const failed = trajectories.flatMap((t) => t.steps).find((s) => !s.observation.ok)!;
    assert.ok(stepMarkdown(failed).includes('⚠️ Error:'));
  });

  it('formats a demo for Markdown, Python and JSON documents', () => {
    const t = trajectories.find((x) => x.steps.some((s) => s.toolCall?.name === 'run_sql'))!;
    const json = JSON.parse(formatDemoForLanguage(t, 'json')) as { question: string; steps: Array<{ tool: string }>; answer: string };
    assert.equal(json.question, t.task.question);
    assert.equal(json.answer, t.finalAnswer!.answer);
    assert.ok(json.steps.some((s) => s.tool === 'run_sql'));
    const python = formatDemoForLanguage(t, 'python');
    assert.ok(python.startsWith('DEMO = r"""\n') && python.endsWith('"""\n'));
    assert.equal(python.slice('DEMO = r"""'.length, -4).includes('"""'), false, 'no early end of the string');
    assert.ok(formatDemoForLanguage(t, 'markdown').includes('```text\nQuestion: '));
    assert.ok(formatDemoForLanguage(t, 'plaintext').startsWith('Question: '));
  });

  it('finds the newest run with trajectories under the folder', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-inference-'));
    dirs.push(root);
    assert.equal(demoLibraryForFolder(root), undefined);
    const source = trajectories[0];
    const store = RunStore.create(root, { dataFolder: root });
    store.append({ type: 'task/added', task: source.task });
    const steps = source.steps.map((s) => ({ index: s.index, thought: s.thought, toolCall: s.toolCall ?? null, observation: { ok: s.observation.ok, tool: s.observation.tool, text: s.observation.text }, usage: s.usage, costUsd: s.costUsd, latencyMs: s.latencyMs, config: s.config }));
    store.append({ type: 'trajectory/admitted', trajectoryId: `${source.task.id}/x`, taskId: source.task.id, nodePath: [], quality: 1, verified: true, steps });
    store.close();
    // An empty, newer run does not hide the older one.
    RunStore.create(root, { dataFolder: root }).close();
    const found = demoLibraryForFolder(root);
    assert.ok(found);
    assert.equal(found.library.size, 1);
    assert.equal(found.library.retrieve(source.task.question, 1)[0].trajectory.task.id, source.task.id);
  });

  it('offline, answers the run task nearest a question with the simulated model, and says which task it answered', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-offline-'));
    dirs.push(root);
    assert.deepEqual(nearestRunTasks(root, 'anything'), [], 'no run, no task to answer');
    const store = RunStore.create(root, { dataFolder: root });
    const sources = [...new Map(trajectories.map((t) => [t.task.id, t])).values()].slice(0, 3);
    for (const source of sources) {
      store.append({ type: 'task/added', task: source.task });
      const steps = source.steps.map((s) => ({ index: s.index, thought: s.thought, toolCall: s.toolCall ?? null, observation: { ok: s.observation.ok, tool: s.observation.tool, text: s.observation.text }, usage: s.usage, costUsd: s.costUsd, latencyMs: s.latencyMs, config: s.config }));
      store.append({ type: 'trajectory/admitted', trajectoryId: `${source.task.id}/x`, taskId: source.task.id, nodePath: [], quality: 1, verified: true, steps });
    }
    store.close();
    const wanted = sources[1].task;
    const nearest = nearestRunTasks(root, wanted.question);
    assert.equal(nearest[0].task.id, wanted.id, 'its own question finds the task');
    assert.ok(nearest[0].score > 0);
    assert.match(offlineAnswerNote(wanted.question, nearest[0]), /simulated model \(sim-large, offline\) answers this task/);
    const reworded = `Tell me: ${wanted.question.toLowerCase()}`;
    const note = offlineAnswerNote(reworded, nearestRunTasks(root, reworded)[0]);
    assert.ok(note.includes(`**“${wanted.question}”**`) && note.includes('not your exact words'), note);
    const session = await openAgentSession(RETAIL_SAMPLE);
    try {
      const episode = await answerTaskOffline({ task: wanted, toolContext: session.toolContext });
      assert.equal(episode.stopReason, 'final_answer');
      assert.ok(episode.steps.some((s) => s.toolCall && s.toolCall.name !== 'final_answer'), 'it worked with the tools');
      assert.ok(matchesAnswer(wanted.answer, episode.state.finalAnswer!.answer), `answered ${episode.state.finalAnswer!.answer}`);
      assert.ok(episode.steps.every((s) => s.config.simulated), 'every step is marked simulated');
    } finally {
      await session.dispose();
    }
  });
});

describe('inference mode model policy (chat participant and Ask About Data)', function () {
  const remote = 'https://api.openai.com/v1';
  const local = 'http://127.0.0.1:11434/v1';

  it('an explicit openai-compatible setting wins over a VS Code model, and needs a key unless local', () => {
    assert.deepEqual(chooseAnswerModel({ providerSetting: 'openai-compatible', baseUrl: remote, hasApiKey: true, vscodeModelAvailable: true }), { kind: 'endpoint' });
    assert.deepEqual(chooseAnswerModel({ providerSetting: 'openai-compatible', baseUrl: local, hasApiKey: false, vscodeModelAvailable: false }), { kind: 'endpoint' });
    const noKey = chooseAnswerModel({ providerSetting: 'openai-compatible', baseUrl: remote, hasApiKey: false, vscodeModelAvailable: true });
    assert.equal(noKey.kind, 'none');
    assert.match(noKey.kind === 'none' ? noKey.message : '', /No API key for https:\/\/api\.openai\.com\/v1.*TOFFEE: Set API Key/);
  });

  it('otherwise the VS Code model; without one the configured endpoint; without both a message saying what to set', () => {
    for (const providerSetting of ['offline-sim', 'vscode-lm']) {
      assert.deepEqual(chooseAnswerModel({ providerSetting, baseUrl: remote, hasApiKey: true, vscodeModelAvailable: true }), { kind: 'vscode-lm' });
      assert.deepEqual(chooseAnswerModel({ providerSetting, baseUrl: remote, hasApiKey: true, vscodeModelAvailable: false }), { kind: 'endpoint' });
      assert.deepEqual(chooseAnswerModel({ providerSetting, baseUrl: local, hasApiKey: false, vscodeModelAvailable: false }), { kind: 'endpoint' });
      assert.deepEqual(chooseAnswerModel({ providerSetting, baseUrl: remote, hasApiKey: false, vscodeModelAvailable: false }), { kind: 'none', message: NO_ANSWER_MODEL_MESSAGE });
    }
    for (const setting of ['toffee.llm.provider', 'toffee.llm.baseUrl', 'toffee.llm.model', 'TOFFEE: Set API Key']) assert.ok(NO_ANSWER_MODEL_MESSAGE.includes(setting), setting);
  });
});

describe('inference mode against an OpenAI-compatible endpoint (mock server)', function () {
  this.timeout(240_000);
  let server: MockOpenAiServer;
  let root: string;
  let session: AgentSession;

  before(async () => {
    const fixture = await acquireRetailEpisodes();
    server = await MockOpenAiServer.start({ models: ['mock-model'] });
    // A data folder with one run whose trajectories become the demos.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-answer-'));
    fs.cpSync(RETAIL_SAMPLE, root, { recursive: true });
    const store = RunStore.create(root, { dataFolder: root });
    for (const t of fixture.trajectories.filter((x) => x.trajectoryId.endsWith('sim-large-1'))) {
      store.append({ type: 'task/added', task: t.task });
      const steps = t.steps.map((s) => ({ index: s.index, thought: s.thought, toolCall: s.toolCall ?? null, observation: { ok: s.observation.ok, tool: s.observation.tool, text: s.observation.text }, usage: s.usage, costUsd: s.costUsd, latencyMs: s.latencyMs, config: s.config }));
      store.append({ type: 'trajectory/admitted', trajectoryId: t.trajectoryId, taskId: t.task.id, nodePath: [], quality: t.quality, verified: t.verified, steps });
    }
    store.close();
    session = await openAgentSession(root);
  });
  after(async () => {
    await session?.dispose();
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const script = () =>
    server.enqueue(
      { kind: 'toolCalls', content: 'Average budget per channel.', calls: [{ id: 'c1', name: 'run_sql', arguments: JSON.stringify({ query: 'SELECT channel, AVG(budget_usd) AS avg_budget FROM marketing_campaigns GROUP BY channel ORDER BY avg_budget DESC' }) }], usage: { prompt: 900, completion: 40 } },
      { kind: 'toolCalls', calls: [{ id: 'c2', name: 'final_answer', arguments: JSON.stringify({ answer: 'search', explanation: 'Highest average budget.' }) }], usage: { prompt: 1200, completion: 20 } },
    );

  it('retrieves demos into the prompt, runs the tools, and returns the answer', async () => {
    script();
    const provider = createOpenAiProvider({ baseUrl: server.baseUrl, apiKey: 'test-key-not-secret', models: ['mock-model'], maxRetries: 0 });
    const question = 'In marketing campaigns, which channel has the highest average budget?';
    const steps: AgentStep[] = [];
    const result = await answerWithDemos({ root, question, toolContext: session.toolContext, provider, model: 'mock-model', onStep: (s) => steps.push(s) });
    assert.equal(result.episode.stopReason, 'final_answer');
    assert.equal(result.episode.state.finalAnswer?.answer, 'search');
    assert.ok(result.demos.length > 0 && result.runId);
    assert.equal(result.demos[0].trajectory.task.family, 'group-contrast');
    const firstPrompt = JSON.stringify(server.chatRequests[server.chatRequests.length - 2].body);
    assert.ok(firstPrompt.includes('Worked examples from this data environment'), 'demos are in the prompt');
    assert.ok(firstPrompt.includes(JSON.stringify(result.demos[0].trajectory.task.question).slice(1, -1)));
    assert.ok(steps[0].observation.ok, steps[0].observation.text);
    assert.ok(stepMarkdown(steps[0]).includes('| channel | avg_budget |'));
    const end = answerMarkdown(result.episode, '**mock-model** (OpenAI-compatible endpoint)');
    assert.ok(end.startsWith('### Answer\n\n**search**\n\nHighest average budget.'), end);
    assert.match(end, /_Answered by \*\*mock-model\*\* \(OpenAI-compatible endpoint\) · 2 steps · 2100\+60 tokens · \$\d+\.\d{4}_$/);
  });

  it('zero-shot sends no demos', async () => {
    script();
    const provider = createOpenAiProvider({ baseUrl: server.baseUrl, apiKey: 'test-key-not-secret', models: ['mock-model'], maxRetries: 0 });
    const result = await answerWithDemos({ root, question: 'Which channel has the highest average budget?', toolContext: session.toolContext, provider, model: 'mock-model', zeroShot: true });
    assert.deepEqual(result.demos, []);
    assert.equal(result.runId, undefined);
    const firstPrompt = JSON.stringify(server.chatRequests[server.chatRequests.length - 2].body);
    assert.ok(!firstPrompt.includes('Worked examples'));
    assert.equal(result.episode.state.finalAnswer?.answer, 'search');
  });
});
