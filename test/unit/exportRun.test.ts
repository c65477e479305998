import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliCommand } from '../../src/cli/command';
import { CliError } from '../../src/cli/command';
import { demosCommand } from '../../src/cli/commands/demos';
import { exportCommand, secretsFromEnvironment } from '../../src/cli/commands/export';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { validateHfExample, validateOpenAiExample, validateShareGptExample } from '../../src/core/export/validate';
import { synthesize } from '../../src/core/run/synthesize';
import { RunStore } from '../../src/core/store/RunStore';
import { RETAIL_SAMPLE, playRetailEpisodes } from './exportFixture';

/** Runs a command in-process, collecting what it prints. */
async function runCli(command: CliCommand, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...args: unknown[]) => out.push(args.join(' '));
  console.error = (...args: unknown[]) => err.push(args.join(' '));
  try {
    const code = await command.run(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

function allText(dir: string): string {
  let text = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    text += entry.isDirectory() ? allText(full) : fs.readFileSync(full).toString('latin1');
  }
  return text;
}

describe('export from a run folder (explorer run → adapter → CLI)', function () {
  this.timeout(300_000);
  const planted = 'sk-planted-export-test-0123456789abcdef';
  let work: string;
  let dataFolder: string;
  let runDir: string;
  let savedKey: string | undefined;

  before(async () => {
    savedKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = planted;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-export-run-'));
    dataFolder = path.join(work, 'retail');
    fs.cpSync(RETAIL_SAMPLE, dataFolder, { recursive: true });
    runDir = path.join(work, 'run');
    const summary = await synthesize({ folder: dataFolder, tasks: 4, outDir: runDir, costModelFile: null, seed: 3 });
    assert.ok(summary.verifiedTrajectories > 0, 'the explorer admitted trajectories');
  });
  after(() => {
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('reads the run’s admitted trajectories with full steps and curation', () => {
    const run = trajectoriesFromRun(runDir);
    assert.deepEqual(run.warnings, []);
    assert.equal(run.trajectories.length, run.state.trajectories.size);
    for (const t of run.trajectories) {
      assert.ok(t.steps.length >= 2);
      assert.equal(t.steps[t.steps.length - 1].toolCall?.name, 'final_answer');
      assert.ok(t.finalAnswer && t.verified);
      assert.ok(t.steps.every((s) => s.config.provider === 'offline-sim' && s.observation.text.length > 0));
      assert.ok(t.simulated);
    }
    assert.ok(secretsFromEnvironment().includes(planted));
  });

  for (const format of ['openai', 'hf', 'sharegpt'] as const) {
    it(`toffee export --format ${format}: every line validates; the planted API key is nowhere`, async () => {
      const out = path.join(work, `out-${format}`);
      const { code, out: printed } = await runCli(exportCommand, [runDir, '--format', format, '--out', out, '--val-fraction', '0.3']);
      assert.equal(code, 0, printed);
      assert.match(printed, /examples written/);
      const report = JSON.parse(fs.readFileSync(path.join(out, `report.${format}.json`), 'utf8')) as { written: number; excluded: unknown[]; split: { overlap: string[] }; render: Record<string, { passed: number; failed: number }> };
      assert.ok(report.written > 0);
      assert.deepEqual(report.excluded, []);
      assert.deepEqual(report.split.overlap, []);
      for (const r of Object.values(report.render)) assert.equal(r.failed, 0);
      const validator = format === 'openai' ? validateOpenAiExample : format === 'hf' ? validateHfExample : validateShareGptExample;
      let lines = 0;
      for (const file of [`train.${format}.jsonl`, `validation.${format}.jsonl`]) {
        if (!fs.existsSync(path.join(out, file))) continue;
        for (const line of fs.readFileSync(path.join(out, file), 'utf8').split('\n').filter(Boolean)) {
          assert.deepEqual(validator(JSON.parse(line), { secrets: [planted] }), []);
          lines++;
        }
      }
      assert.equal(lines, report.written);
      assert.ok(!allText(out).includes(planted), 'not in the export');
      assert.ok(!allText(runDir).includes(planted), 'not in the run folder');
    });
  }

  it('honours curation: pruned never, --accepted-only only accepted', async () => {
    const ids = [...trajectoriesFromRun(runDir).trajectories.map((t) => t.trajectoryId)];
    assert.ok(ids.length >= 2);
    const store = RunStore.open(runDir, { writable: true });
    store.append({ type: 'curation/pruned', trajectoryId: ids[0] });
    store.append({ type: 'curation/accepted', trajectoryId: ids[1] });
    store.close();
    const out = path.join(work, 'out-curated');
    await runCli(exportCommand, [runDir, '--format', 'openai', '--out', out, '--accepted-only', '--val-fraction', '0']);
    const metadata = fs.readFileSync(path.join(out, 'metadata.openai.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { trajectoryId: string; curation: string });
    assert.deepEqual(metadata.map((m) => [m.trajectoryId, m.curation]), [[ids[1], 'accepted']]);
    const all = path.join(work, 'out-all');
    await runCli(exportCommand, [runDir, '--format', 'hf', '--out', all, '--val-fraction', '0', '--keep-ungrounded', '--keep-near-copies']);
    const allIds = fs.readFileSync(path.join(all, 'metadata.hf.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { trajectoryId: string }).trajectoryId);
    assert.ok(!allIds.includes(ids[0]) && allIds.length === ids.length - 1);
    // By default the cleaning filters leave out what they report, and nothing else.
    const cleaned = path.join(work, 'out-cleaned');
    await runCli(exportCommand, [runDir, '--format', 'hf', '--out', cleaned, '--val-fraction', '0']);
    const report = JSON.parse(fs.readFileSync(path.join(cleaned, 'report.hf.json'), 'utf8')) as { written: number; grounding: { dropped: string[] }; nearCopies: { collapsed: Array<{ trajectoryId: string }> } };
    const left = new Set([...report.grounding.dropped, ...report.nearCopies.collapsed.map((c) => c.trajectoryId)]);
    assert.equal(report.written, allIds.filter((id) => !left.has(id)).length);
  });

  it('toffee export --format kramabench|spider writes the task pool and the database', async () => {
    const out = path.join(work, 'out-tasks');
    assert.equal((await runCli(exportCommand, [runDir, '--format', 'kramabench', '--out', out])).code, 0);
    const krama = JSON.parse(fs.readFileSync(path.join(out, 'kramabench.json'), 'utf8')) as Array<{ id: string; data_sources: string[] }>;
    assert.equal(krama.length, trajectoriesFromRun(runDir).state.tasks.size);
    for (const item of krama) for (const source of item.data_sources) assert.ok(fs.existsSync(path.join(dataFolder, source)), source);
    assert.equal((await runCli(exportCommand, [runDir, '--format', 'bird', '--out', out])).code, 0);
    const dev = JSON.parse(fs.readFileSync(path.join(out, 'dev.json'), 'utf8')) as Array<{ db_id: string; SQL: string }>;
    assert.ok(dev.length > 0 && dev.every((d) => d.db_id === 'retail' && d.SQL.length > 0));
    const db = fs.readFileSync(path.join(out, 'database', 'retail', 'retail.sqlite'));
    assert.equal(db.subarray(0, 15).toString(), 'SQLite format 3');
  });

  it('toffee demos prints prompt-ready demos, most similar first', async () => {
    // A task with a trajectory the library holds (the curation test above pruned the first one).
    const task = trajectoriesFromRun(runDir).trajectories.find((t) => t.curation !== 'pruned')!.task;
    const { code, out } = await runCli(demosCommand, [runDir, task.question, '-k', '2']);
    assert.equal(code, 0);
    assert.ok(out.startsWith('Worked examples'), out);
    assert.ok(out.includes(`### Example 1\nQuestion: ${task.question}`), out);
    const json = await runCli(demosCommand, [runDir, task.question, '--json']);
    assert.equal((JSON.parse(json.out) as Array<{ taskId: string }>)[0].taskId, task.id);
  });

  it('reports bad input as CLI errors', async () => {
    const expectError = async (command: CliCommand, argv: string[], pattern: RegExp) =>
      assert.rejects(runCli(command, argv), (e: unknown) => e instanceof CliError && pattern.test(e.message));
    await expectError(exportCommand, [runDir], /--format must be one of/);
    await expectError(exportCommand, [runDir, '--format', 'csv'], /not 'csv'/);
    await expectError(exportCommand, [work, '--format', 'openai'], /not a run folder/);
    await expectError(exportCommand, [runDir, '--format', 'openai', '--val-fraction', '1'], /\[0, 1\)/);
    await expectError(exportCommand, [runDir, '--format', 'openai', '--data', path.join(work, 'gone')], /--data DIR/);
    await expectError(demosCommand, [runDir, 'q', '-k', '0'], /positive integer/);
  });

  it('walks nodePath when an admitted event carries no steps (older or other writers)', async () => {
    // Real steps from an episode, recorded as node/added events the way the explorer writes them.
    const episodes = await playRetailEpisodes({ models: ['sim-large'], seeds: [1] });
    try {
      const source = episodes.trajectories[0];
      const dir = path.join(work, 'manual-run');
      const store = RunStore.createInDir(dir, { dataFolder, runId: 'manual-run' });
      store.append({ type: 'task/added', task: source.task });
      store.append({ type: 'node/added', taskId: source.task.id, nodeId: 'n0', parentId: null, status: 'open', depth: 0 });
      source.steps.forEach((step, i) => {
        const record = { index: step.index, thought: step.thought, toolCall: step.toolCall ?? null, observation: { ok: step.observation.ok, tool: step.observation.tool, text: step.observation.text, errorKind: step.observation.errorKind }, usage: step.usage, costUsd: step.costUsd, latencyMs: step.latencyMs, config: step.config };
        store.append({ type: 'node/added', taskId: source.task.id, nodeId: `n${i + 1}`, parentId: `n${i}`, status: step.observation.ok ? 'open' : 'error', depth: i + 1, thought: step.thought, toolCall: step.toolCall, step: record });
      });
      store.append({ type: 'trajectory/admitted', trajectoryId: `${source.task.id}/n${source.steps.length}`, taskId: source.task.id, nodePath: ['n0', ...source.steps.map((_, i) => `n${i + 1}`)], quality: 0.95, verified: true });
      store.close();
      const run = trajectoriesFromRun(dir);
      assert.deepEqual(run.warnings, []);
      assert.equal(run.trajectories.length, 1);
      const [t] = run.trajectories;
      assert.deepEqual(t.steps.map((s) => [s.thought, s.toolCall, s.observation.text, s.observation.ok]), source.steps.map((s) => [s.thought, s.toolCall, s.observation.text, s.observation.ok]));
      assert.deepEqual(t.finalAnswer, source.finalAnswer);
      assert.deepEqual(t.repairedStepIndexes, source.repairedStepIndexes);
    } finally {
      await episodes.close();
    }
  });
});
