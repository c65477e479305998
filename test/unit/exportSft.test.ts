import * as assert from 'node:assert/strict';
import { tokenCounterFor } from '../../src/core/export/tokenCount';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildPrompt } from '../../src/core/agent/prompt';
import { FULL_CONTEXT } from '../../src/core/agent/types';
import { checkRender, renderChatTemplate } from '../../src/core/export/renderCheck';
import { CHAT_TEMPLATE_NAMES } from '../../src/core/export/templates/index';
import { shareGptDatasetInfo, splitTasks, toHfExample, toOpenAiExample, toShareGptExample } from '../../src/core/export/sft';
import { buildSftExport, writeSftExport } from '../../src/core/export/sftExport';
import type { ExportTrajectory } from '../../src/core/export/types';
import { validateHfExample, validateOpenAiExample, validateShareGptExample } from '../../src/core/export/validate';
import { EpisodeFixture, acquireRetailEpisodes } from './exportFixture';

describe('SFT export of real simulated episodes', function () {
  this.timeout(240_000);
  let fixture: EpisodeFixture;
  let trajectories: ExportTrajectory[];
  const tmpDirs: string[] = [];
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-export-'));
    tmpDirs.push(dir);
    return dir;
  };

  before(async () => {
    fixture = await acquireRetailEpisodes();
    trajectories = fixture.trajectories;
  });
  after(() => {
    for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has real material: several families, repairs and simulated steps', () => {
    assert.ok(trajectories.length >= 20, String(trajectories.length));
    assert.ok(new Set(trajectories.map((t) => t.task.family)).size >= 3);
    assert.ok(trajectories.some((t) => t.hasRepair), 'at least one episode repaired a mistake');
    assert.ok(trajectories.every((t) => t.simulated));
  });

  it('openai: the conversation is the prompt builder’s, ends with the final_answer call, and every example validates', () => {
    for (const t of trajectories) {
      const example = toOpenAiExample(t, fixture.environment, { weightRepaired: true });
      assert.deepEqual(validateOpenAiExample(example), [], t.trajectoryId);
      const built = buildPrompt({ question: t.task.question, profile: fixture.environment.profile, documents: fixture.environment.documents, history: t.steps, contextLength: FULL_CONTEXT }).messages;
      assert.equal(example.messages[0].content, built[0].content, 'system prompt from the one builder');
      assert.equal(example.messages.length, built.length - 1, 'only the final acknowledgement is dropped');
      const toolTexts = example.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      assert.deepEqual(toolTexts, t.steps.slice(0, -1).filter((s) => s.toolCall).map((s) => s.observation.text), 'observations are the renderer’s text, unchanged');
      const last = example.messages[example.messages.length - 1];
      assert.equal(last.role, 'assistant');
      assert.equal(last.role === 'assistant' && last.tool_calls?.[0].function.name, 'final_answer');
      const weighted = example.messages.map((m, i) => (m.role === 'assistant' && m.weight === 0 ? i : -1)).filter((i) => i >= 0);
      assert.equal(weighted.length, t.repairedStepIndexes.length, 'weight 0 exactly on the repaired turns');
      for (const i of weighted) {
        const answer = example.messages[i + 1];
        assert.ok(answer.role === 'tool' && answer.content.startsWith('Error:'), 'a weighted-0 turn is one whose call failed');
      }
      assert.ok(!('weight' in JSON.parse(JSON.stringify(toOpenAiExample(t, fixture.environment))).messages[2]), 'no weights unless asked');
    }
  });

  it('hf and sharegpt: derived from the openai example, and every one validates', () => {
    for (const t of trajectories) {
      const openai = toOpenAiExample(t, fixture.environment);
      const hf = toHfExample(openai);
      assert.deepEqual(validateHfExample(hf), [], t.trajectoryId);
      assert.ok(hf.messages.every((m) => typeof m.content === 'string'));
      const sharegpt = toShareGptExample(openai);
      assert.deepEqual(validateShareGptExample(sharegpt), [], t.trajectoryId);
      assert.equal(sharegpt.system, openai.messages[0].content);
      assert.equal(sharegpt.conversations.filter((c) => c.from === 'function_call').length, t.steps.filter((s) => s.toolCall).length);
    }
    const info = shareGptDatasetInfo('toffee', { train: 'train.sharegpt.jsonl', validation: 'validation.sharegpt.jsonl' }) as Record<string, any>;
    assert.equal(info.toffee.formatting, 'sharegpt');
    assert.deepEqual(info.toffee.columns, { messages: 'conversations', system: 'system', tools: 'tools' });
    assert.equal(info.toffee.tags.function_tag, 'function_call');
    assert.equal(info.toffee_validation.file_name, 'validation.sharegpt.jsonl');
  });

  it('every example renders through the bundled Qwen2.5 and Qwen3 templates, tool calls read back exactly', () => {
    const tokens: Record<string, number[]> = {};
    for (const t of trajectories) {
      const hf = toHfExample(toOpenAiExample(t, fixture.environment));
      for (const name of CHAT_TEMPLATE_NAMES) {
        const result = checkRender(name, hf);
        assert.deepEqual(result.problems, [], `${name} ${t.trajectoryId}`);
        assert.ok(result.tokens > result.assistantTokens && result.assistantTokens > 0);
        (tokens[name] ??= []).push(result.tokens);
      }
    }
    const rendered = renderChatTemplate('qwen3', toHfExample(toOpenAiExample(trajectories[0], fixture.environment)));
    assert.ok(rendered.includes('<think>\n\n</think>'), 'Qwen3 adds an empty think block to the last assistant turn');
    for (const [name, list] of Object.entries(tokens)) {
      console.log(`      ${name}: ${list.length} examples, ~${Math.round(list.reduce((s, v) => s + v, 0) / list.length)} tokens per example (min ${Math.min(...list)}, max ${Math.max(...list)})`);
    }
  });

  it('the render check fails on what it exists to catch: string arguments in Qwen2.5, a dropped turn', () => {
    const hf = toHfExample(toOpenAiExample(trajectories[0], fixture.environment));
    const stringArgs = JSON.parse(JSON.stringify(hf));
    for (const m of stringArgs.messages) for (const c of m.tool_calls ?? []) c.function.arguments = JSON.stringify(c.function.arguments);
    const qwen25 = checkRender('qwen2.5', stringArgs);
    assert.equal(qwen25.ok, false);
    assert.ok(qwen25.problems.some((p) => p.includes('double-encoded')), qwen25.problems.join('; '));
    // Qwen3 passes string arguments through as they are, so the same example reads back fine there.
    assert.deepEqual(checkRender('qwen3', stringArgs).problems, []);
    const userless = JSON.parse(JSON.stringify(hf));
    userless.messages[1].role = 'narrator';
    assert.equal(checkRender('qwen2.5', userless).ok, false);
  });

  it('splits by task: no task on both sides, deterministic, at least one validation task', () => {
    const ids = [...new Set(trajectories.map((t) => t.task.id))];
    const a = splitTasks(ids, 0.25);
    const b = splitTasks([...ids].reverse(), 0.25);
    assert.deepEqual([...a.validation].sort(), [...b.validation].sort());
    assert.ok(a.validation.size >= 1 && a.train.size >= 1);
    assert.equal(a.train.size + a.validation.size, ids.length);
    for (const id of a.validation) assert.ok(!a.train.has(id));
    assert.equal(splitTasks(ids, 0).validation.size, 0);
    assert.throws(() => splitTasks(ids, 1), /\[0, 1\)/);
  });

  for (const format of ['openai', 'hf', 'sharegpt'] as const) {
    it(`writes a ${format} export whose every line on disk validates, with metadata, split and report`, () => {
      const out = tmp();
      const planted = 'sk-planted-0123456789abcdefghijkl';
      // Every line of every trajectory, so the cleaning filters (tested in explorerGrounding) are off here.
      const result = buildSftExport(trajectories, fixture.environment, { format, validationFraction: 0.25, secrets: [planted], dropUngrounded: false, collapseNearCopies: false });
      const report = writeSftExport(out, result);
      assert.equal(report.excluded.length, 0, JSON.stringify(report.excluded));
      assert.equal(report.written, trajectories.length);
      const read = (file: string | undefined) => (file ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown) : []);
      const train = read(report.files.train);
      const validation = read(report.files.validation);
      const metadata = read(report.files.metadata) as Array<{ taskId: string; split: string; steps: Array<{ model: string; provider: string }>; simulated: boolean; runId: string; family: string; tokens: Record<string, { total: number; assistant: number }> }>;
      assert.equal(train.length + validation.length, trajectories.length);
      assert.equal(metadata.length, trajectories.length);
      const validator = format === 'openai' ? validateOpenAiExample : format === 'hf' ? validateHfExample : validateShareGptExample;
      for (const line of [...train, ...validation]) assert.deepEqual(validator(line, { secrets: [planted] }), []);
      const trainTasks = new Set(metadata.filter((m) => m.split === 'train').map((m) => m.taskId));
      const validationTasks = new Set(metadata.filter((m) => m.split === 'validation').map((m) => m.taskId));
      assert.ok(validationTasks.size >= 1);
      for (const id of validationTasks) assert.ok(!trainTasks.has(id), `task ${id} on both sides`);
      assert.deepEqual(report.split.overlap, []);
      for (const m of metadata) {
        for (const name of CHAT_TEMPLATE_NAMES) assert.ok(m.tokens[name].total > m.tokens[name].assistant && m.tokens[name].assistant > 0, JSON.stringify(m.tokens));
      }
      assert.ok(metadata.every((m) => m.simulated && m.runId === 'episodes' && m.family && m.steps.every((s) => s.provider === 'offline-sim' && s.model.startsWith('sim-'))));
      for (const name of CHAT_TEMPLATE_NAMES) {
        assert.equal(report.render[name].passed, trajectories.length);
        assert.ok(report.render[name].tokens.mean > 500, JSON.stringify(report.render[name]));
        assert.equal(report.render[name].tokenizer, tokenCounterFor(name).tokenizer);
        assert.ok(tokenCounterFor(name).exact, `${name} counted by its tokenizer, not the estimate`);
      }
      if (format === 'openai') assert.equal(report.weightedZeroTurns, trajectories.reduce((s, t) => s + t.repairedStepIndexes.length, 0));
      if (format === 'sharegpt') assert.ok(fs.existsSync(path.join(out, 'dataset_info.json')));
      const onDisk = JSON.parse(fs.readFileSync(report.files.report, 'utf8')) as { written: number };
      assert.equal(onDisk.written, report.written);
      for (const file of fs.readdirSync(out)) assert.ok(!fs.readFileSync(path.join(out, file), 'utf8').includes(planted), file);
    });
  }

  it('leaves out (and reports) a trajectory that carries a secret, and honours curation', () => {
    const planted = 'sk-live-ZZZZ0123456789abcdefghij';
    const leaky: ExportTrajectory = { ...trajectories[0], trajectoryId: 'leaky', steps: trajectories[0].steps.map((s, i) => (i === 0 ? { ...s, thought: `my key is ${planted}` } : s)) };
    const pruned: ExportTrajectory = { ...trajectories[1], trajectoryId: 'pruned', curation: 'pruned' };
    const accepted: ExportTrajectory = { ...trajectories[2], trajectoryId: 'accepted', curation: 'accepted' };
    const keep = { dropUngrounded: false, collapseNearCopies: false };
    const all = buildSftExport([leaky, pruned, accepted, trajectories[3]], fixture.environment, { format: 'openai', validationFraction: 0, ...keep });
    assert.deepEqual(all.report.excluded.map((e) => e.trajectoryId), ['leaky']);
    assert.ok(all.report.excluded[0].reasons.some((r) => r.includes('no-secret')));
    assert.equal(all.report.selection.skippedPruned, 1);
    assert.equal(all.report.written, 2);
    assert.ok(!all.train.some((l) => l.includes(planted)));
    const acceptedOnly = buildSftExport([leaky, pruned, accepted, trajectories[3]], fixture.environment, { format: 'hf', acceptedOnly: true, validationFraction: 0, ...keep });
    assert.equal(acceptedOnly.report.written, 1);
    assert.equal(acceptedOnly.metadata[0].trajectoryId, 'accepted');
  });
});
