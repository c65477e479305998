import * as assert from 'node:assert/strict';
import { exploreInFlight, type TaskCounts } from '../../src/core/run/inFlight';
import { explorationLengthEstimate } from '../../src/core/run/taskLength';
import type { TaskSpec } from '../../src/core/taskpool/types';

/** A task exploration the test ends by hand. */
interface Pending {
  index: number;
  finish: () => void;
}

/**
 * Runs exploreInFlight over tasks whose explorations end only when the test says so, recording the order tasks
 * started and were committed in, and what each commit received.
 */
function harness(options: { concurrency: number; estimates: number[]; appendOnCommit?: { after: number; estimate: number } }) {
  const estimates = [...options.estimates];
  const started: number[] = [];
  const committed: Array<[number, string]> = [];
  const pending: Pending[] = [];
  const counts: TaskCounts[] = [];
  let wake: () => void = () => {};
  const run = exploreInFlight<string>({
    concurrency: options.concurrency,
    count: () => estimates.length,
    estimate: (i) => estimates[i],
    stopped: () => false,
    onCounts: (n) => counts.push(n),
    explore: (i) => {
      started.push(i);
      return new Promise<string>((resolve) => {
        pending.push({ index: i, finish: () => resolve(`result of ${i}`) });
        wake();
      });
    },
    commit: async (i, result) => {
      committed.push([i, result]);
      if (options.appendOnCommit && i === options.appendOnCommit.after) estimates.push(options.appendOnCommit.estimate);
      return true;
    },
  });
  /** Lets the loop start what it can, then ends task `index`'s exploration. */
  const finish = async (index: number) => {
    await settle();
    const at = pending.findIndex((p) => p.index === index);
    assert.ok(at >= 0, `task ${index} is exploring (started: ${started.join(', ')})`);
    pending.splice(at, 1)[0].finish();
    await settle();
  };
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { run, started, committed, counts, finish, exploring: () => pending.map((p) => p.index).sort((a, b) => a - b) };
}

describe('run: tasks in flight start the longest first and commit in run order', () => {
  it('starts the longest tasks not yet started first (ties in run order), commits in run order', async () => {
    const h = harness({ concurrency: 3, estimates: [1, 5, 2, 5, 9, 1] });
    await h.finish(4);
    // 9, then the two 5s in run order; when the 9 ends, the 2 takes its slot.
    assert.deepEqual(h.started.slice(0, 4), [4, 1, 3, 2]);
    // Task 4 is done exploring but waits for 0..3: nothing is committed, and its slot went to task 2.
    assert.deepEqual(h.committed, []);
    assert.deepEqual(h.exploring(), [1, 2, 3]);
    await h.finish(2);
    await h.finish(1);
    await h.finish(3);
    // The 1s last, in run order.
    assert.deepEqual(h.started, [4, 1, 3, 2, 0, 5]);
    assert.deepEqual(h.committed, []);
    await h.finish(5);
    assert.deepEqual(h.committed, [], 'nothing commits before task 0');
    await h.finish(0);
    await h.run;
    assert.deepEqual(
      h.committed,
      [0, 1, 2, 3, 4, 5].map((i) => [i, `result of ${i}`]),
      'every result committed once, in run order, with its own task',
    );
    assert.deepEqual(h.counts.at(-1), { done: 6, inFlight: 0, queued: 0 });
    assert.ok(Math.max(...h.counts.map((c) => c.inFlight)) <= 3);
  });

  it('one at a time, tasks start in run order whatever the estimate', async () => {
    const h = harness({ concurrency: 1, estimates: [1, 5, 9] });
    for (const i of [0, 1, 2]) await h.finish(i);
    await h.run;
    assert.deepEqual(h.started, [0, 1, 2]);
    assert.deepEqual(
      h.committed.map(([i]) => i),
      [0, 1, 2],
    );
  });

  it('a task a commit appends competes with those not yet started', async () => {
    // Task 0's commit appends task 4 (estimate 7): it starts before 2 and 3, which were there before it.
    const h = harness({ concurrency: 2, estimates: [3, 3, 1, 1], appendOnCommit: { after: 0, estimate: 7 } });
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(h.exploring(), [0, 1]);
    await h.finish(0);
    await h.finish(1);
    await h.finish(4);
    await h.finish(2);
    await h.finish(3);
    await h.run;
    assert.deepEqual(h.started, [0, 1, 4, 2, 3]);
    assert.deepEqual(
      h.committed.map(([i]) => i),
      [0, 1, 2, 3, 4],
    );
  });

  it('estimates a task program by its steps: each further step a query and its discovery', () => {
    const task = (steps: number, program: boolean): TaskSpec =>
      ({
        evidence: Array.from({ length: steps }, (_, i) => ({ tool: 'run_sql', code: `select ${i}`, purpose: 'a step' })),
        ...(program ? { program: { composition: 'drill-down', steps } } : {}),
      }) as unknown as TaskSpec;
    assert.equal(explorationLengthEstimate(task(1, false)), 1);
    assert.equal(explorationLengthEstimate(task(3, true)), 5);
    assert.ok(explorationLengthEstimate(task(4, true)) > explorationLengthEstimate(task(3, true)));
  });
});
