import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { synthesize, type SynthesisSummary } from '../../src/core/run/synthesize';
import { exploredFromRun } from '../../src/core/run/revision';
import { readRun, RunStore } from '../../src/core/store/RunStore';
import { rebuildState } from '../../src/core/store/runState';
import { renderSnapshots } from '../../src/core/store/snapshots';
import { saveCostModel } from '../../src/core/lcm/persistence';
import { foldTaskDeltas, readRunStartModel } from '../../src/core/run/runCostModel';
import { summarizeRun } from '../../src/core/store/runFolder';
import type { PoolProgress } from '../../src/core/taskpool/pool';
import { writeShopFolder } from './agentFixture';

function trajectoryIds(runDir: string): string[] {
  return fs.readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).trajectoryId as string).sort();
}

describe('pipeline: synthesize', function () {
  this.timeout(240_000);
  let folder: string;
  let scratch: string;

  before(() => {
    folder = writeShopFolder();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-synth-'));
  });
  after(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  let full: SynthesisSummary;
  it('writes a run folder with tasks, events and admitted trajectories, and a summary that matches it', async () => {
    const outDir = path.join(scratch, 'full');
    const lines: string[] = [];
    full = await synthesize({ folder, tasks: 4, budgetUsd: 0.04, seed: 3, outDir, costModelFile: null, onProgress: (l) => lines.push(l) });
    assert.equal(full.tasksFinished, 4);
    assert.ok(full.verifiedTrajectories >= 4, `${full.verifiedTrajectories} admitted`);
    assert.ok(full.meanQuality >= 0.9);
    for (const file of ['run.json', 'events.jsonl', 'tasks.jsonl', 'trajectories.jsonl', 'costModel.json']) assert.ok(fs.existsSync(path.join(outDir, file)), file);
    const run = readRun(outDir);
    assert.equal(run.issues.length, 0);
    const types = new Set(run.events.map((e) => e.type));
    for (const type of ['run/started', 'task/added', 'node/added', 'node/updated', 'lcm/decision', 'budget/spent', 'trajectory/admitted', 'task/finished', 'run/finished']) assert.ok(types.has(type as never), type);
    const spent = run.events.filter((e) => e.type === 'budget/spent').reduce((s, e) => s + (e as { costUsd: number }).costUsd, 0);
    assert.ok(Math.abs(spent - full.costUsd) < 1e-9);
    assert.equal(trajectoryIds(outDir).length, full.verifiedTrajectories);
    const trajectory = JSON.parse(fs.readFileSync(path.join(outDir, 'trajectories.jsonl'), 'utf8').split('\n')[0]);
    assert.ok(Array.isArray(trajectory.steps) && trajectory.steps.length === trajectory.nodePath.length - 1, 'one step per edge of the node path');
    assert.equal(lines.filter((l) => /^\[\d\/4\]/.test(l)).length, 4);
    assert.ok(full.toolExecutionsSaved > 0 && full.toolExecutionsSaved <= full.toolCalls);
  });

  it('survives kill -9 mid-run: the resumed run ends with the same trajectories and spend', async () => {
    const outDir = path.join(scratch, 'killed');
    const pipeline = path.resolve(__dirname, '../../src/core/run/synthesize');
    const script = `require(${JSON.stringify(pipeline)}).synthesize({ folder: ${JSON.stringify(folder)}, tasks: 4, budgetUsd: 0.04, seed: 3, outDir: ${JSON.stringify(outDir)}, costModelFile: null, onProgress: (l) => process.stderr.write(l + '\\n') })`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Kill after the second task has started writing: mid-task, events on disk, no task/finished for it.
        if (/\[1\/4\]/.test(stderr) && !child.killed) setTimeout(() => child.kill('SIGKILL'), 30);
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    const before = readRun(outDir);
    const finishedBefore = before.events.filter((e) => e.type === 'task/finished').length;
    assert.ok(finishedBefore < 4, `the kill landed before the end (${finishedBefore} tasks finished)`);
    const admittedBefore = before.events.filter((e) => e.type === 'trajectory/admitted').map((e) => (e as { trajectoryId: string }).trajectoryId);
    const resumed = await synthesize({ folder, resumeDir: outDir, costModelFile: null });
    assert.equal(resumed.tasksFinished, 4);
    const after = trajectoryIds(outDir);
    for (const id of admittedBefore) assert.ok(after.includes(id), `${id} kept`);
    assert.deepEqual(after, trajectoryIds(path.join(scratch, 'full')), 'same trajectories as the uninterrupted run');
    assert.ok(Math.abs(resumed.costUsd - full.costUsd) < 1e-9, `spend ${resumed.costUsd} vs ${full.costUsd}`);
    const costModel = (dir: string) => fs.readFileSync(path.join(dir, 'costModel.json'), 'utf8');
    assert.equal(costModel(outDir), costModel(path.join(scratch, 'full')), 'the cost model the uninterrupted run ends with, byte for byte');
    const events = readRun(outDir).events;
    assert.ok(events.some((e) => e.type === 'run/resumed'));
    assert.equal(events.filter((e) => e.type === 'task/finished').length, 4, 'each task finished once');
  });

  it('revises on resume a task that finished but crashed before its revision, exactly once', async () => {
    const outDir = path.join(scratch, 'unrevised');
    fs.cpSync(path.join(scratch, 'full'), outDir, { recursive: true });
    // The log as a crash right after the first task/finished leaves it: that task's task/revised never written.
    const log = path.join(outDir, 'events.jsonl');
    const lines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const cut = lines.findIndex((l) => JSON.parse(l).type === 'task/finished');
    const taskId = JSON.parse(lines[cut]).taskId as string;
    const uninterrupted = readRun(path.join(scratch, 'full')).events.filter((e) => e.type === 'task/revised' && (e as { taskId: string }).taskId === taskId);
    assert.equal(uninterrupted.length, 1, 'the uninterrupted run revised the task once');
    fs.writeFileSync(log, lines.slice(0, cut + 1).join('\n') + '\n');
    // …and the rest of the folder as that crash leaves it: derived files and the run's cost model as of that event.
    const cutState = rebuildState(readRun(outDir).events);
    const snapshots = renderSnapshots(cutState);
    fs.writeFileSync(path.join(outDir, 'tasks.jsonl'), snapshots.tasks);
    fs.writeFileSync(path.join(outDir, 'trajectories.jsonl'), snapshots.trajectories);
    const atCut = foldTaskDeltas(readRunStartModel(outDir), cutState, [taskId]).model;
    await saveCostModel(path.join(outDir, 'costModel.json'), atCut);
    assert.equal(readRun(outDir).events.filter((e) => e.type === 'task/revised').length, 0);
    // What the revision reads back from the log: the task's paths to a final answer and its admitted trajectories.
    const store = RunStore.open(outDir);
    try {
      const explored = exploredFromRun(store.state, taskId);
      const admittedIds = [...store.state.trajectories.values()].filter((t) => t.taskId === taskId).map((t) => t.trajectoryId);
      assert.ok(admittedIds.length > 0);
      assert.deepEqual(explored.admitted.map((t) => t.trajectoryId), admittedIds);
      assert.ok(explored.admitted.every((t) => t.steps.length > 0 && t.steps[t.steps.length - 1].toolCall?.name === 'final_answer'));
      for (const id of admittedIds) assert.ok(explored.paths.some((p) => p.trajectoryId === id && p.admitted && p.answer !== undefined && p.steps.length > 0), id);
    } finally {
      store.close();
    }

    const resumed = await synthesize({ folder, resumeDir: outDir, costModelFile: null });
    assert.equal(resumed.tasksFinished, 4);
    assert.deepEqual(resumed.costModelWarnings, [], 'the run\'s cost model is folded from its start and the finished tasks\' deltas');
    assert.equal(fs.readFileSync(path.join(outDir, 'costModel.json'), 'utf8'), fs.readFileSync(path.join(scratch, 'full', 'costModel.json'), 'utf8'));
    const events = readRun(outDir).events;
    const revised = events.filter((e) => e.type === 'task/revised' && (e as { taskId: string }).taskId === taskId) as unknown as Array<{ seq: number; outcome: string; findings: unknown[] }>;
    assert.equal(revised.length, 1, 'revised once, after the resume');
    assert.ok(revised[0].seq > events.find((e) => e.type === 'run/resumed')!.seq);
    // Revised from the log, the task gets the review the uninterrupted run gave it from memory.
    const before = uninterrupted[0] as unknown as { outcome: string; findings: unknown[] };
    assert.equal(revised[0].outcome, before.outcome);
    assert.deepEqual(revised[0].findings, before.findings);
    assert.equal(events.filter((e) => e.type === 'task/revised').length, uninterruptedRevisions(), 'every task revised once');

    // A second resume finds nothing left to revise.
    await synthesize({ folder, resumeDir: outDir, costModelFile: null });
    assert.equal(readRun(outDir).events.filter((e) => e.type === 'task/revised' && (e as { taskId: string }).taskId === taskId).length, 1);
  });

  function uninterruptedRevisions(): number {
    return readRun(path.join(scratch, 'full')).events.filter((e) => e.type === 'task/revised').length;
  }

  it('records a cancel as run/cancelled (resumable, listed as cancelled), and a resume finishes it', async () => {
    const outDir = path.join(scratch, 'cancelled');
    const abort = new AbortController();
    const pool: PoolProgress[] = [];
    const cancelled = await synthesize({
      folder, tasks: 4, budgetUsd: 0.04, seed: 3, outDir, costModelFile: null, signal: abort.signal,
      onPoolProgress: (p) => pool.push(p),
      // Stop once the first task has finished, as a user pressing Cancel would.
      onProgress: (line) => /^\[1\/4\]/.test(line) && abort.abort(),
    });
    assert.equal(cancelled.cancelled, true);
    const events = readRun(outDir).events;
    assert.equal(events[events.length - 1].type, 'run/cancelled', 'the last word is run/cancelled');
    assert.equal((events[events.length - 1] as { tasksFinished?: number }).tasksFinished, cancelled.tasksFinished);
    assert.equal(events.filter((e) => e.type === 'run/finished').length, 0);
    assert.equal(summarizeRun(outDir).status, 'cancelled');
    // The pool's build was reported as counts: every family, then every candidate checked, then the selection.
    const last = pool[pool.length - 1];
    assert.equal(last.phase, 'selected');
    assert.equal(last.familiesDone, last.familiesTotal);
    assert.equal(last.checked, last.candidates);
    assert.equal(last.valid + last.rejected, last.checked);
    assert.equal(last.selected, 4);
    assert.ok(pool.some((p) => p.phase === 'families' && p.familiesDone < p.familiesTotal), 'progress arrived during the build');
    const resumed = await synthesize({ folder, resumeDir: outDir, costModelFile: null });
    assert.equal(resumed.cancelled, false);
    assert.equal(resumed.tasksFinished, 4);
    assert.equal(summarizeRun(outDir).status, 'finished');
    assert.deepEqual(trajectoryIds(outDir), trajectoryIds(path.join(scratch, 'full')), 'same trajectories as the uninterrupted run');
  });

  it('fails clearly on a folder without data', async () => {
    const empty = fs.mkdtempSync(path.join(scratch, 'empty-'));
    await assert.rejects(synthesize({ folder: empty, tasks: 2, outDir: path.join(scratch, 'none'), costModelFile: null }), /no tasks could be built/);
  });
});
