import assert from 'node:assert/strict';
import { FEATURE_DIMENSION, LearnedCostModel, armId, type ArmConfig } from '../../src/core/lcm/index';
import { inverseResidual } from '../../src/core/lcm/linalg';
import { inShard, parseShard, shardOfTask } from '../../src/core/run/shard';
import { mulberry32 } from '../support/random';

const arm = (model: string): ArmConfig => ({ model, provider: 'offline-sim', contextLength: 'full', operator: 'explore' });
const ARMS = ['a', 'b', 'c'].map((m) => arm(`sim-${m}`));

function learn(model: LearnedCostModel, seed: number, n: number): Array<[string, number[], number, number]> {
  const random = mulberry32(seed);
  const steps: Array<[string, number[], number, number]> = [];
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: FEATURE_DIMENSION }, (_, j) => (j === FEATURE_DIMENSION - 1 ? 1 : random()));
    const step: [string, number[], number, number] = [armId(ARMS[Math.floor(random() * ARMS.length)]), x, random(), random() * 0.01];
    model.update(...step);
    steps.push(step);
  }
  return steps;
}

describe('scale-out: shards and cost model deltas', () => {
  it('parses i/N and refuses anything else', () => {
    assert.deepEqual(parseShard('2/5'), { index: 2, count: 5 });
    assert.deepEqual(parseShard(' 0 / 1 '), { index: 0, count: 1 });
    for (const bad of ['5/5', '1/0', '-1/3', '1', 'a/b', '1/3/4']) assert.throws(() => parseShard(bad), RangeError, bad);
  });

  it('puts every task id in exactly one shard, stably, and spreads them', () => {
    const ids = Array.from({ length: 600 }, (_, i) => `family-${i % 7}-${(i * 2654435761) >>> 0}`);
    const sizes = [0, 0, 0];
    for (const id of ids) {
      const owners = [0, 1, 2].filter((index) => inShard(id, { index, count: 3 }));
      assert.equal(owners.length, 1);
      assert.equal(shardOfTask(id, 3), owners[0]);
      sizes[owners[0]]++;
    }
    for (const size of sizes) assert.ok(size > 150 && size < 250, `shard sizes ${sizes}`);
    assert.equal(inShard('anything', undefined), true);
  });

  it('deltas from one snapshot merge into what learning them one after another gives', () => {
    const base = new LearnedCostModel(ARMS);
    learn(base, 1, 20);
    const first = base.clone();
    const second = base.clone();
    const stepsA = learn(first, 2, 30);
    const stepsB = learn(second, 3, 25);
    assert.equal(base.updates, 20, 'clones do not touch the snapshot');

    const merged = base.clone();
    assert.deepEqual(merged.applyDelta(first.deltaFrom(base)), []);
    assert.deepEqual(merged.applyDelta(second.deltaFrom(base)), []);
    const sequential = base.clone();
    for (const step of [...stepsA, ...stepsB]) sequential.update(...step);

    const m = merged.toJSON();
    const s = sequential.toJSON();
    assert.equal(m.updates, s.updates);
    for (const [i, a] of m.arms.entries()) {
      assert.equal(a.pulls, s.arms[i].pulls);
      for (const [j, v] of a.A.entries()) assert.ok(Math.abs(v - s.arms[i].A[j]) < 1e-9);
      for (const [j, v] of a.b.entries()) assert.ok(Math.abs(v - s.arms[i].b[j]) < 1e-9);
      assert.ok(inverseResidual(a.A, a.Ainv, FEATURE_DIMENSION) < 1e-9);
    }
    // The same deltas in the same order give the same bits: the run's model does not depend on who ran what.
    const again = base.clone();
    again.applyDelta(first.deltaFrom(base));
    again.applyDelta(second.deltaFrom(base));
    assert.deepEqual(again.toJSON(), m);
  });

  it('skips a malformed or foreign delta entry with a warning and merges the rest', () => {
    const base = new LearnedCostModel(ARMS);
    const child = base.clone();
    learn(child, 4, 10);
    const delta = child.deltaFrom(base);
    const broken = { ...delta, arms: [...delta.arms, { ...delta.arms[0], id: 'nope' }, { ...delta.arms[0], b: [1] }] };
    const merged = base.clone();
    const warnings = merged.applyDelta(broken);
    assert.equal(warnings.length, 2);
    assert.match(warnings.join('\n'), /does not offer/);
    assert.match(warnings.join('\n'), /malformed/);
  });
});
