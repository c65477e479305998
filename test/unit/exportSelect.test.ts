import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliCommand } from '../../src/cli/command';
import { CliError } from '../../src/cli/command';
import { exportCommand } from '../../src/cli/commands/export';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { anchoredScore, selectTrajectories, unanchoredScore } from '../../src/core/export/select';
import type { ExportTrajectory } from '../../src/core/export/types';
import { synthesize } from '../../src/core/run/synthesize';
import { RETAIL_SAMPLE } from './exportFixture';

async function runCli(command: CliCommand, argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...args: unknown[]) => out.push(args.join(' '));
  console.error = () => undefined;
  try {
    return { code: await command.run(argv), out: out.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

function byTask(trajectories: readonly ExportTrajectory[]): Map<string, ExportTrajectory[]> {
  const map = new Map<string, ExportTrajectory[]>();
  for (const t of trajectories) map.set(t.task.id, [...(map.get(t.task.id) ?? []), t]);
  return map;
}

describe('rubric-based selection for export (anchored / unanchored / random)', function () {
  this.timeout(300_000);
  let work: string;
  let runDir: string;
  let trajectories: ExportTrajectory[];

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-export-select-'));
    const dataFolder = path.join(work, 'retail');
    fs.cpSync(RETAIL_SAMPLE, dataFolder, { recursive: true });
    runDir = path.join(work, 'run');
    await synthesize({ folder: dataFolder, tasks: 4, outDir: runDir, costModelFile: null, seed: 3 });
    trajectories = trajectoriesFromRun(runDir).trajectories;
    assert.ok([...byTask(trajectories).values()].some((list) => list.length >= 2), 'some task has several admitted trajectories');
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('anchored and unanchored keep the best-scored trajectory of each task (ties: fewer steps)', () => {
    for (const [mode, score] of [['anchored', anchoredScore], ['unanchored', unanchoredScore]] as const) {
      const { kept, records, summary } = selectTrajectories(trajectories, { mode, perTask: 1 });
      const groups = byTask(trajectories);
      assert.equal(kept.length, groups.size);
      assert.deepEqual(summary, { mode, perTask: 1, seed: null, tasks: groups.size, candidates: trajectories.length, kept: groups.size });
      for (const t of kept) {
        const best = Math.max(...groups.get(t.task.id)!.map(score));
        assert.equal(score(t), best);
        const tied = groups.get(t.task.id)!.filter((c) => score(c) === best);
        assert.equal(t.steps.length, Math.min(...tied.map((c) => c.steps.length)));
        assert.deepEqual(records.get(t.trajectoryId), { mode, score: best, rank: 1, candidates: groups.get(t.task.id)!.length });
      }
    }
  });

  it('anchored reads the rubric score; unanchored ignores it and reads the verified answer and clean steps', () => {
    const [taskId, list] = [...byTask(trajectories)].find(([, l]) => l.length >= 2)!;
    // The same real trajectories, with the rubric saying the last one is the only fully anchored path.
    const reranked = list.map((t, i) => ({ ...t, rubric: { score: i === list.length - 1 ? 1 : 0.25, criteria: [] } }));
    const anchored = selectTrajectories(reranked, { mode: 'anchored' });
    assert.equal(anchored.kept[0].trajectoryId, list[list.length - 1].trajectoryId);
    assert.equal(anchored.records.get(anchored.kept[0].trajectoryId)?.score, 1);
    const unanchored = selectTrajectories(reranked, { mode: 'unanchored' });
    assert.deepEqual(unanchored.kept.map((t) => t.trajectoryId), selectTrajectories(list, { mode: 'unanchored' }).kept.map((t) => t.trajectoryId), 'unanchored does not look at the rubric');
    for (const t of list) {
      const repaired = new Set(t.repairedStepIndexes);
      const counted = t.steps.filter((s) => !repaired.has(s.index));
      assert.equal(unanchoredScore(t), Math.round((0.5 + 0.5 * (counted.filter((s) => s.observation.ok).length / counted.length)) * 1e4) / 1e4, taskId);
    }
    const unverified = { ...list[0], verified: false };
    assert.equal(unanchoredScore(unverified), Math.round((unanchoredScore(list[0]) - 0.5) * 1e4) / 1e4);
  });

  it('random is reproducible for a seed and varies with it; --per-task K keeps up to K', () => {
    const ids = (seed: number) => selectTrajectories(trajectories, { mode: 'random', seed }).kept.map((t) => t.trajectoryId);
    assert.deepEqual(ids(7), ids(7));
    const distinct = new Set(Array.from({ length: 12 }, (_, seed) => ids(seed).join(',')));
    assert.ok(distinct.size > 1, 'different seeds choose differently');
    const two = selectTrajectories(trajectories, { mode: 'anchored', perTask: 2 });
    for (const [taskId, list] of byTask(trajectories)) assert.equal(two.kept.filter((t) => t.task.id === taskId).length, Math.min(2, list.length));
    assert.equal(selectTrajectories(trajectories, { mode: 'all' }).kept.length, trajectories.length);
    assert.throws(() => selectTrajectories(trajectories, { mode: 'anchored', perTask: 0 }), RangeError);
  });

  it('toffee export --select records the choice in the metadata sidecar and the report; the default keeps all', async () => {
    const out = path.join(work, 'anchored');
    const { code } = await runCli(exportCommand, [runDir, '--format', 'openai', '--select', 'anchored', '--per-task', '1', '--out', out, '--val-fraction', '0', '--keep-ungrounded', '--keep-near-copies']);
    assert.equal(code, 0);
    const metadata = fs.readFileSync(path.join(out, 'metadata.openai.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { taskId: string; trajectoryId: string; selection: { mode: string; rank: number; score: number } });
    const groups = byTask(trajectories);
    assert.equal(metadata.length, groups.size);
    assert.equal(new Set(metadata.map((m) => m.taskId)).size, groups.size);
    assert.ok(metadata.every((m) => m.selection.mode === 'anchored' && m.selection.rank === 1 && typeof m.selection.score === 'number'));
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.openai.json'), 'utf8')) as { selection: { considered: number; rubricSelection: { mode: string; kept: number; candidates: number } } };
    assert.deepEqual([report.selection.rubricSelection.mode, report.selection.rubricSelection.kept, report.selection.rubricSelection.candidates], ['anchored', groups.size, trajectories.length]);

    const allOut = path.join(work, 'all');
    assert.equal((await runCli(exportCommand, [runDir, '--format', 'openai', '--out', allOut])).code, 0);
    const all = JSON.parse(fs.readFileSync(path.join(allOut, 'report.openai.json'), 'utf8')) as { written: number; selection: { rubricSelection: { mode: string } }; grounding: { dropped: string[] }; nearCopies: { collapsed: unknown[] } };
    assert.equal(all.selection.rubricSelection.mode, 'all');
    assert.equal(all.written, trajectories.length - all.grounding.dropped.length - all.nearCopies.collapsed.length, 'all but what the cleaning filters report');
    // After the cleaning filters, --select still keeps one per task among what is left.
    const cleanOut = path.join(work, 'anchored-clean');
    assert.equal((await runCli(exportCommand, [runDir, '--format', 'openai', '--select', 'anchored', '--out', cleanOut, '--val-fraction', '0'])).code, 0);
    const clean = JSON.parse(fs.readFileSync(path.join(cleanOut, 'report.openai.json'), 'utf8')) as { written: number; selection: { rubricSelection: { kept: number; tasks: number; candidates: number } } };
    assert.equal(clean.selection.rubricSelection.candidates, all.written);
    assert.equal(clean.selection.rubricSelection.kept, clean.selection.rubricSelection.tasks);
  });

  it('rejects a bad --select, --per-task or --seed with a usage error', async () => {
    for (const argv of [['--select', 'best'], ['--select', 'anchored', '--per-task', '0'], ['--select', 'random', '--seed', 'x'], ['--per-task', '2']]) {
      await assert.rejects(runCli(exportCommand, [runDir, '--format', 'openai', '--out', path.join(work, 'bad'), ...argv]), (e: unknown) => e instanceof CliError && e.exitCode === 2);
    }
  });
});
