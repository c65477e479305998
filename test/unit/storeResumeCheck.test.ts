import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliError } from '../../src/cli/command';
import { synthesizeCommand } from '../../src/cli/commands/synthesize';
import { synthesize } from '../../src/core/run/synthesize';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { checkResumable, ResumeRefusedError } from '../../src/core/store/resumeCheck';
import { readRun, RunStore } from '../../src/core/store/RunStore';
import { listRuns } from '../../src/core/store/runFolder';
import { hashFolder } from '../support/folderHash';
import { writeShopFolder } from './agentFixture';

/** Lines of a run's events.jsonl. */
function logLines(runDir: string): string[] {
  return fs.readFileSync(path.join(runDir, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
}

describe('store: resume never trusts a damaged log', function () {
  this.timeout(240_000);
  let folder: string;
  let scratch: string;
  let finished: string;

  before(async () => {
    folder = writeShopFolder();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-resume-check-'));
    finished = path.join(scratch, 'finished');
    const summary = await synthesize({ folder, tasks: 3, budgetUsd: 0.03, seed: 5, outDir: finished, costModelFile: null });
    assert.ok(summary.verifiedTrajectories >= 3, `${summary.verifiedTrajectories} admitted`);
  });
  after(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A copy of the finished run, damaged by `damage`. */
  function damaged(name: string, damage: (runDir: string) => void): string {
    const runDir = path.join(scratch, name);
    fs.cpSync(finished, runDir, { recursive: true });
    damage(runDir);
    return runDir;
  }

  const cases: Array<[string, (runDir: string) => void, RegExp]> = [
    ['emptied', (dir) => fs.writeFileSync(path.join(dir, 'events.jsonl'), ''), /events\.jsonl is empty/],
    ['deleted', (dir) => fs.rmSync(path.join(dir, 'events.jsonl')), /events\.jsonl is missing/],
    [
      'lines cut from the middle',
      (dir) => {
        const lines = logLines(dir);
        fs.writeFileSync(path.join(dir, 'events.jsonl'), [...lines.slice(0, 40), ...lines.slice(90)].join('\n') + '\n');
      },
      /seq jumps from 40 to 91: events in between are missing/,
    ],
    [
      'the last half cut at a line end',
      (dir) => {
        const lines = logLines(dir);
        fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n');
      },
      /trajectories\.jsonl holds \d+ admitted trajectorie\(s\) the log does not/,
    ],
    [
      'the first lines cut',
      (dir) => {
        const lines = logLines(dir);
        fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.slice(5).join('\n') + '\n');
      },
      /the log starts at event 6 \(.+\), not at event 1 \(run\/started\)/,
    ],
    [
      'the last task/finished taken out (and the sequence renumbered)',
      (dir) => {
        const lines = logLines(dir);
        const at = lines.map((l) => JSON.parse(l).type).lastIndexOf('task/finished');
        lines.splice(at, 1);
        const renumbered = lines.map((l, i) => (i >= at ? l.replace(/"seq":(\d+)/, (_m, n) => `"seq":${Number(n) - 1}`) : l));
        fs.writeFileSync(path.join(dir, 'events.jsonl'), renumbered.join('\n') + '\n');
      },
      /were revised, which happens after a task finishes, but the log has no task\/finished for them|says the run finished, but has no task\/finished/,
    ],
    [
      'a corrupt line',
      (dir) => {
        const lines = logLines(dir);
        lines[30] = lines[30].slice(0, 20) + '#' + lines[30].slice(21);
        fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.join('\n') + '\n');
      },
      /events\.jsonl line 31: corrupt event skipped .*: that event is lost/,
    ],
  ];

  for (const [name, damage, problem] of cases) {
    it(`refuses to resume a log with ${name}, naming what is missing, and changes no file`, async () => {
      const runDir = damaged(name.replace(/\W+/g, '-'), damage);
      const before = hashFolder(runDir);
      const check = checkResumable(runDir);
      assert.ok(check.problems.some((p) => problem.test(p)), check.problems.join('\n'));
      await assert.rejects(synthesize({ folder, resumeDir: runDir, costModelFile: null }), (error: unknown) => {
        assert.ok(error instanceof ResumeRefusedError);
        assert.match(error.message, problem);
        assert.match(error.message, /Nothing was changed/);
        assert.match(error.message, /put back events\.jsonl from a backup/);
        return true;
      });
      assert.deepEqual(hashFolder(runDir), before, 'every file as it was');
    });
  }

  it('refuses through the CLI with exit code 1 and the reason, and the folder stays as it was', async () => {
    const runDir = damaged('cli-emptied', (dir) => fs.writeFileSync(path.join(dir, 'events.jsonl'), ''));
    const before = hashFolder(runDir);
    const stderr = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      await assert.rejects(synthesizeCommand.run(['--resume', runDir]), (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 1);
        assert.match(error.message, /cannot resume .*events\.jsonl is empty/s);
        return true;
      });
    } finally {
      process.stderr.write = stderr;
    }
    assert.deepEqual(hashFolder(runDir), before);
  });

  it('resumes after a torn last line (what a crash leaves) and prints the warning', async () => {
    const runDir = damaged('torn', (dir) => {
      const lines = logLines(dir);
      // The crash tore run/finished: everything before it is whole.
      fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.slice(0, -1).join('\n') + '\n' + lines[lines.length - 1].slice(0, 25));
    });
    assert.deepEqual(checkResumable(runDir).problems, []);
    const progress: string[] = [];
    const trajectoriesBefore = readRun(finished).events.filter((e) => e.type === 'trajectory/admitted').length;
    const summary = await synthesize({ folder, resumeDir: runDir, costModelFile: null, onProgress: (l) => progress.push(l) });
    assert.ok(progress.some((l) => /^warning: events\.jsonl line \d+: torn last line/.test(l)), progress.join('\n'));
    assert.equal(summary.verifiedTrajectories, trajectoriesBefore);
    assert.equal(fs.readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8').split('\n').filter(Boolean).length, trajectoriesBefore);
  });

  it('writes no second trajectory/admitted or node/added for what a resumed task already wrote', async () => {
    const runDir = damaged('unfinished-task', (dir) => {
      // A crash after the last task's trajectories but before its task/finished, with the derived files of that moment.
      const lines = logLines(dir);
      const lastFinished = lines.map((l) => JSON.parse(l).type).lastIndexOf('task/finished');
      fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.slice(0, lastFinished).join('\n') + '\n');
      fs.rmSync(path.join(dir, 'costModel.json'));
      fs.rmSync(path.join(dir, 'tasks.jsonl'));
      fs.rmSync(path.join(dir, 'trajectories.jsonl'));
      const store = RunStore.open(dir, { writable: true });
      store.close(); // renders tasks.jsonl and trajectories.jsonl from this log, as the crashed writer had
    });
    const admittedBefore = readRun(runDir).events.filter((e) => e.type === 'trajectory/admitted').length;
    assert.ok(admittedBefore > 0);
    await synthesize({ folder, resumeDir: runDir, costModelFile: null });
    const events = readRun(runDir).events;
    const admitted = events.filter((e) => e.type === 'trajectory/admitted').map((e) => (e as { trajectoryId: string }).trajectoryId);
    assert.equal(new Set(admitted).size, admitted.length, 'each trajectory admitted once in the log');
    const nodes = events.filter((e) => e.type === 'node/added').map((e) => `${(e as { taskId: string }).taskId}/${(e as { nodeId: string }).nodeId}`);
    assert.equal(new Set(nodes).size, nodes.length, 'each node added once in the log');
    assert.equal(events.filter((e) => e.type === 'task/finished').length, readRun(finished).events.filter((e) => e.type === 'task/finished').length);
    assert.equal(admitted.length, readRun(finished).events.filter((e) => e.type === 'trajectory/admitted').length);
  });

  it('no writer replaces the derived files with less: a curation on a damaged log keeps them, and export says what is lost', () => {
    const runDir = damaged('curated-damaged', (dir) => {
      const lines = logLines(dir);
      // Cut just after the first admission: the log keeps one admitted trajectory, trajectories.jsonl has more.
      const first = lines.findIndex((l) => l.includes('"trajectory/admitted"'));
      assert.ok(first > 0, 'the run admitted a trajectory');
      fs.writeFileSync(path.join(dir, 'events.jsonl'), lines.slice(0, first + 1).join('\n') + '\n');
    });
    const trajectoriesBefore = fs.readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8');
    // What the extension does to accept a trajectory of a run no process is writing.
    const store = RunStore.open(runDir, { writable: true });
    assert.match(store.recovery.derivedFilesAhead?.join('\n') ?? '', /trajectories\.jsonl holds \d+ admitted trajectorie\(s\) the log does not/);
    const kept = [...store.state.trajectories.keys()][0];
    store.append({ type: 'curation/accepted', trajectoryId: kept });
    store.close();
    assert.equal(fs.readFileSync(path.join(runDir, 'trajectories.jsonl'), 'utf8'), trajectoriesBefore, 'trajectories.jsonl as it was');
    const exported = trajectoriesFromRun(runDir);
    assert.ok(exported.warnings.some((w) => /^events\.jsonl has lost events: trajectories\.jsonl holds/.test(w)), exported.warnings.join('\n'));
  });

  it('creates a run folder whole or not at all: the log holds the task pool when the folder appears', () => {
    const root = fs.mkdtempSync(path.join(scratch, 'atomic-'));
    const runDir = path.join(root, 'run');
    const task = { id: 't1', family: 'f', question: 'q', answer: { type: 'number', value: 1, tolerance: 0 }, evidence: [], difficulty: {}, tables: [] };
    const store = RunStore.createInDir(runDir, { dataFolder: root, seed: 1, config: { tasks: 1 } }, {}, { events: [{ type: 'task/added', task: task as never }], files: { 'costModel.start.json': '{}\n' } });
    store.close();
    assert.deepEqual(readRun(runDir).events.map((e) => e.type), ['run/started', 'task/added']);
    assert.equal(fs.readFileSync(path.join(runDir, 'costModel.start.json'), 'utf8'), '{}\n');
    assert.deepEqual(fs.readdirSync(root), ['run'], 'no staging folder left');
    // A failure while the folder is made leaves nothing behind.
    assert.throws(() => RunStore.createInDir(path.join(root, 'other'), { dataFolder: root }, {}, { files: { 'events.jsonl': 'x' } }), /not a file name a run may start with/);
    assert.deepEqual(fs.readdirSync(root), ['run']);
    assert.throws(() => RunStore.createInDir(runDir, { dataFolder: root }), /run folder already exists/);
  });

  it('refuses a run that recorded no tasks with a message saying to start again, and lists no half-made run', () => {
    const root = fs.mkdtempSync(path.join(scratch, 'no-tasks-'));
    RunStore.create(root, { dataFolder: root, runId: 'r1', config: { tasks: 4 } }).close();
    fs.mkdirSync(path.join(root, '.toffee', 'runs', '.r2.creating-1-abcdef'));
    const check = checkResumable(path.join(root, '.toffee', 'runs', 'r1'));
    assert.equal(check.reason, 'no-tasks');
    assert.match(check.problems[0], /recorded no tasks: it was stopped before its task pool was written .*start it again/);
    assert.deepEqual(listRuns(root).map((r) => r.runId), ['r1']);
  });
});
