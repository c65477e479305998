import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ModelSpec } from '../../src/core/llm/types';
import {
  armId,
  buildDefaultArms,
  buildFeatures,
  costModelPath,
  createPriceCostEstimator,
  defaultOperatorsFor,
  FEATURE_DIMENSION,
  LearnedCostModel,
  loadCostModel,
  saveCostModel,
  type ArmConfig,
  type StateFeatures,
  type StateInput,
} from '../../src/core/lcm';
import { addOuterProduct, dot, invert, matVec, scaledIdentity, shermanMorrisonUpdate, solve } from '../../src/core/lcm/linalg';
import { mulberry32 } from '../support/random';

const BASE_STATE: StateInput = {
  depth: 2,
  maxDepth: 10,
  progress: 0.3,
  schemaCoverage: 0.5,
  recentErrors: 0,
  lastStepError: false,
  remainingBudgetFraction: 1,
  difficulty: 'medium',
};

function state(overrides: Partial<StateInput> = {}): StateFeatures {
  return buildFeatures({ ...BASE_STATE, ...overrides });
}

function randomFeatures(random: () => number): StateFeatures {
  return buildFeatures({
    depth: Math.floor(random() * 10),
    maxDepth: 10,
    progress: random(),
    schemaCoverage: random(),
    recentErrors: Math.floor(random() * 3),
    lastStepError: random() < 0.3,
    remainingBudgetFraction: random(),
    difficulty: random(),
  });
}

const arm = (model: string, operator: ArmConfig['operator'] = 'explore'): ArmConfig => ({
  model,
  provider: 'offline-sim',
  contextLength: 'full',
  operator,
});
const SIX_ARMS = ['a', 'b', 'c', 'd', 'e', 'f'].map((m) => arm(`sim-${m}`));

describe('lcm: linear algebra', () => {
  it('Sherman–Morrison updates match a direct inversion and a direct solve', () => {
    const random = mulberry32(5);
    const d = FEATURE_DIMENSION;
    const A = scaledIdentity(d, 1);
    const Ainv = scaledIdentity(d, 1);
    const b = new Array<number>(d).fill(0);
    for (let step = 0; step < 200; step++) {
      const x = randomFeatures(random).vector;
      addOuterProduct(A, x);
      shermanMorrisonUpdate(Ainv, x);
      const r = random();
      for (let i = 0; i < d; i++) b[i] += r * x[i];
    }
    const direct = invert(A, d);
    assert.ok(direct);
    const worst = Math.max(...Ainv.map((v, i) => Math.abs(v - direct[i])));
    assert.ok(worst < 1e-9, `max |A⁻¹(SM) − A⁻¹(direct)| = ${worst}`);
    const thetaFast = matVec(Ainv, b);
    const thetaDirect = solve(A, b);
    assert.ok(thetaDirect);
    thetaFast.forEach((v, i) => assert.ok(Math.abs(v - thetaDirect[i]) < 1e-9, `θ[${i}] ${v} vs ${thetaDirect[i]}`));
    assert.equal(invert([1, 2, 2, 4], 2), undefined, 'singular matrix detected');
  });

  it('the model keeps A⁻¹ consistent with A and θ with a direct solve', () => {
    const random = mulberry32(6);
    const model = new LearnedCostModel(SIX_ARMS);
    for (let i = 0; i < 300; i++) model.update(model.armIds[i % 6], randomFeatures(random), random(), 0.001);
    const saved = model.toJSON();
    for (const entry of saved.arms) {
      const direct = invert(entry.A, FEATURE_DIMENSION)!;
      assert.ok(entry.Ainv.every((v, i) => Math.abs(v - direct[i]) < 1e-9));
    }
    // μ from decide equals θᵀx with θ solved directly.
    const x = state();
    const decision = model.decide(x, { remainingBudgetUsd: 1, maxK: 3 });
    for (const entry of saved.arms) {
      const theta = solve(entry.A, entry.b)!;
      const scored = decision.arms.find((a) => a.armId === entry.id)!;
      assert.ok(Math.abs(scored.mu - dot(theta, x.vector)) < 1e-9);
      const sigma = 0.5 * Math.sqrt(dot(x.vector, matVec(invert(entry.A, FEATURE_DIMENSION)!, x.vector)));
      assert.ok(Math.abs(scored.sigma - sigma) < 1e-9);
    }
  });
});

describe('lcm: features and arms', () => {
  it('builds a fixed-length vector in [0, 1] with a bias, and rejects non-finite input', () => {
    const f = buildFeatures({ ...BASE_STATE, depth: 15, recentErrors: 2, lastStepError: true, difficulty: 'hard', progress: 1.4 });
    assert.equal(f.vector.length, FEATURE_DIMENSION);
    assert.deepEqual(f.vector, [1, 1, 1, 0.5, 2 / 3, 1, 1, 1]);
    assert.equal(state({ difficulty: 'easy' }).vector[7], 0);
    assert.throws(() => buildFeatures({ ...BASE_STATE, progress: Number.NaN }), /progress must be a finite number/);
    assert.throws(() => buildFeatures({ ...BASE_STATE, difficulty: 'extreme' as never }), /difficulty/);
  });

  it('builds the default arm set deterministically from model specs', () => {
    const spec = (id: string, effort: boolean, tools = true): ModelSpec => ({
      id,
      provider: 'offline-sim',
      inputPerMTok: 1,
      outputPerMTok: 2,
      contextWindow: 128000,
      supportsTools: tools,
      supportsReasoningEffort: effort,
      simulated: true,
    });
    const models = [spec('sim-large', true), spec('sim-small', false), spec('no-tools', false, false)];
    const arms = buildDefaultArms(models);
    // small: 2 contexts × 4 operators; large: 2 contexts × 3 efforts × 4 operators; no-tools skipped.
    assert.equal(arms.length, 8 + 24);
    assert.equal(new Set(arms.map(armId)).size, arms.length);
    assert.ok(arms.every((a) => a.model !== 'no-tools'));
    assert.ok(arms.filter((a) => a.model === 'sim-small').every((a) => a.reasoningEffort === undefined));
    assert.deepEqual(buildDefaultArms([...models].reverse()).map(armId), arms.map(armId));
    assert.equal(armId(arms[0]), 'offline-sim/sim-large|full|low|explore');
    assert.ok(arms.map(armId).includes('offline-sim/sim-small|last-4|-|repair'));
    assert.throws(() => new LearnedCostModel([{ ...arm('x'), contextLength: 'last-k' }]), /lastK/);
    assert.throws(() => new LearnedCostModel([arm('x'), arm('x')]), /duplicate arm/);
  });

  it('offers operators that fit the node', () => {
    assert.deepEqual(defaultOperatorsFor({ depth: 3, lastStepError: true }), ['repair', 'explore']);
    assert.deepEqual(defaultOperatorsFor({ depth: 0, lastStepError: false }), ['explore']);
    assert.deepEqual(defaultOperatorsFor({ depth: 2, lastStepError: false }), ['explore', 'refine', 'answer']);
  });
});

describe('lcm: decisions', () => {
  /** Trains every arm at one state: arm i gets reward rewards[i] and cost costs[i], n times. */
  function trained(rewards: number[], costs: number[], n = 200, arms = SIX_ARMS.slice(0, rewards.length)): LearnedCostModel {
    const model = new LearnedCostModel(arms);
    const random = mulberry32(11);
    for (let round = 0; round < n; round++) {
      model.armIds.forEach((id, i) => model.update(id, randomFeatures(random), rewards[i], costs[i]));
    }
    return model;
  }

  it('prefers a better but pricier arm when the budget is ample, the cheap arm when it is short, and excludes unaffordable arms', () => {
    const model = trained([0.7, 0.6], [0.05, 0.005]);
    const [expensive, cheap] = model.armIds;
    const ample = model.decide(state(), { remainingBudgetUsd: 10, maxK: 1 });
    assert.equal(ample.chosenArmIds[0], expensive);
    const short = model.decide(state({ remainingBudgetFraction: 0.3 }), { remainingBudgetUsd: 0.06, maxK: 1 });
    assert.equal(short.chosenArmIds[0], cheap);
    const tight = model.decide(state({ remainingBudgetFraction: 0.2 }), { remainingBudgetUsd: 0.04, maxK: 2 });
    assert.deepEqual(tight.chosenArmIds, [cheap]);
    const excluded = tight.arms.find((a) => a.armId === expensive)!;
    assert.equal(excluded.excluded, 'unaffordable');
    assert.ok(Math.abs(excluded.expectedCostUsd - 0.05) < 1e-12);
    const broke = model.decide(state({ remainingBudgetFraction: 0 }), { remainingBudgetUsd: 0.001, maxK: 2 });
    assert.equal(broke.K, 0);
    assert.deepEqual(broke.chosen, []);
    assert.match(broke.kReason, /2 unaffordable/);
  });

  it('uses a price-based prior before any cost is observed', () => {
    const models: ModelSpec[] = [
      { id: 'sim-small', provider: 'offline-sim', inputPerMTok: 0.1, outputPerMTok: 0.4, contextWindow: 1e5, supportsTools: true, supportsReasoningEffort: false, simulated: true },
      { id: 'sim-large', provider: 'offline-sim', inputPerMTok: 5, outputPerMTok: 20, contextWindow: 1e5, supportsTools: true, supportsReasoningEffort: true, simulated: true },
    ];
    const arms = buildDefaultArms(models, { operators: ['explore'] });
    const estimate = createPriceCostEstimator(models);
    const deep = state({ depth: 9 });
    const cost = (id: string) => estimate(arms.find((a) => armId(a) === id)!, deep)!;
    assert.ok(cost('offline-sim/sim-large|full|high|explore') > cost('offline-sim/sim-large|full|low|explore'));
    assert.ok(cost('offline-sim/sim-large|full|low|explore') > cost('offline-sim/sim-large|last-4|low|explore'));
    assert.ok(cost('offline-sim/sim-large|last-4|low|explore') > cost('offline-sim/sim-small|full|-|explore'));
    const model = new LearnedCostModel(arms, { estimateCostUsd: estimate });
    // With a short budget an untrained model still goes to the cheapest arm (all μ = 0, σ equal).
    const decision = model.decide(state({ depth: 9, remainingBudgetFraction: 0.2 }), { remainingBudgetUsd: 0.05, maxK: 1 });
    assert.equal(decision.chosenArmIds[0], 'offline-sim/sim-small|last-4|-|explore');
    assert.ok(decision.arms.some((a) => a.excluded === 'unaffordable'), 'large-model full-context arms exceed $0.05');
  });

  it('narrows K as the budget shrinks (K = 1 when nearly out)', () => {
    const model = new LearnedCostModel(SIX_ARMS);
    const ks = [1, 0.75, 0.5, 0.3, 0.12, 0.05].map(
      (fraction) => model.decide(state({ remainingBudgetFraction: fraction }), { remainingBudgetUsd: 5, maxK: 4 }).K,
    );
    assert.deepEqual(ks, [4, 3, 2, 2, 1, 1]);
    for (let i = 1; i < ks.length; i++) assert.ok(ks[i] <= ks[i - 1]);
    // K also shrinks so that the children's expected cost fits the remaining budget.
    const priced = trained([0.5, 0.5, 0.5, 0.5], [0.02, 0.02, 0.02, 0.02], 1);
    const fit = priced.decide(state(), { remainingBudgetUsd: 0.05, maxK: 4 });
    assert.equal(fit.K, 2);
    assert.match(fit.kReason, /trimmed/);
  });

  it('widens K with disagreement among the top arms', () => {
    const fresh = new LearnedCostModel(SIX_ARMS);
    assert.equal(fresh.decide(state(), { remainingBudgetUsd: 5, maxK: 4 }).K, 4, 'untrained arms all overlap');
    const oneClearBest = trained([0.9, 0.3, 0.2, 0.1, 0.1, 0.0], [0, 0, 0, 0, 0, 0]);
    const clear = oneClearBest.decide(state(), { remainingBudgetUsd: 5, maxK: 4 });
    assert.equal(clear.K, 1);
    assert.equal(clear.chosenArmIds[0], oneClearBest.armIds[0]);
    const twoTied = trained([0.9, 0.9, 0.2, 0.1, 0.1, 0.0], [0, 0, 0, 0, 0, 0]);
    const tied = twoTied.decide(state(), { remainingBudgetUsd: 5, maxK: 4 });
    assert.equal(tied.K, 2);
    assert.deepEqual([...tied.chosenArmIds].sort(), twoTied.armIds.slice(0, 2).sort());
    const threeClose = trained([0.9, 0.89, 0.88, 0.1, 0.1, 0.0], [0, 0, 0, 0, 0, 0]);
    assert.equal(threeClose.decide(state(), { remainingBudgetUsd: 5, maxK: 4 }).K, 3);
  });

  it('honours allowed operators and caller exclusions, and records decisions as plain JSON', () => {
    const arms = [arm('sim-a', 'explore'), arm('sim-a', 'repair'), arm('sim-a', 'answer')];
    const model = new LearnedCostModel(arms);
    const decision = model.decide(state({ lastStepError: true }), {
      remainingBudgetUsd: 1,
      maxK: 3,
      operators: ['repair', 'explore'],
      excludeArmIds: [armId(arms[0])],
    });
    assert.deepEqual(decision.chosenArmIds, [armId(arms[1])]);
    assert.equal(decision.arms.find((a) => a.arm.operator === 'answer')!.excluded, 'operator-not-allowed');
    assert.equal(decision.arms.find((a) => a.armId === armId(arms[0]))!.excluded, 'excluded-by-caller');
    assert.deepEqual(JSON.parse(JSON.stringify(decision)), decision);
    assert.equal(model.decide(state(), { remainingBudgetUsd: 1, maxK: 1 }).index, decision.index + 1);
    assert.throws(() => model.decide(state(), { remainingBudgetUsd: 1, maxK: 0 }), /maxK/);
    assert.throws(() => model.update('nope', state(), 1, 0), /unknown arm nope/);
    assert.throws(() => model.update(armId(arms[0]), state(), Number.NaN, 0), /reward/);
    assert.throws(() => model.update(armId(arms[0]), [1, 2], 1, 0), /features must be/);
  });

  it('is deterministic: the same sequence gives the same decisions', () => {
    const run = () => {
      const model = new LearnedCostModel(SIX_ARMS, { estimateCostUsd: (a) => 0.001 * (1 + SIX_ARMS.findIndex((s) => s.model === a.model)) });
      const random = mulberry32(42);
      const log: string[] = [];
      for (let i = 0; i < 200; i++) {
        const x = randomFeatures(random);
        const decision = model.decide(x, { remainingBudgetUsd: 0.5, maxK: 3 });
        log.push(JSON.stringify(decision));
        for (const id of decision.chosenArmIds) model.update(id, x, random(), random() * 0.002);
      }
      return log;
    };
    assert.deepEqual(run(), run());
  });
});

describe('lcm: persistence', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'toffee-lcm-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  function drive(model: LearnedCostModel, random: () => number, rounds: number): string[] {
    const log: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const x = randomFeatures(random);
      const decision = model.decide(x, { remainingBudgetUsd: 0.3, maxK: 3 });
      log.push(JSON.stringify(decision));
      for (const id of decision.chosenArmIds) model.update(id, x, random(), random() * 0.003);
    }
    return log;
  }

  it('round-trips through a file and continues learning identically', async () => {
    const file = costModelPath(dir, 'env:abc/123');
    assert.equal(path.basename(file), 'env_abc_123.json');
    const original = new LearnedCostModel(SIX_ARMS);
    drive(original, mulberry32(1), 150);
    await saveCostModel(file, original);
    assert.deepEqual((await fs.readdir(path.dirname(file))).filter((f) => f.endsWith('.tmp')), [], 'no temp file left');
    const loaded = await loadCostModel(file, SIX_ARMS);
    assert.deepEqual(loaded.warnings, []);
    assert.equal(loaded.restored, true);
    assert.deepEqual(loaded.model.toJSON(), original.toJSON());
    assert.deepEqual(drive(loaded.model, mulberry32(2), 150), drive(original, mulberry32(2), 150));
    assert.deepEqual(loaded.model.toJSON(), original.toJSON());
  });

  it('keeps arms that still exist when the arm set changes', async () => {
    const file = path.join(dir, 'm.json');
    const original = new LearnedCostModel(SIX_ARMS);
    drive(original, mulberry32(3), 100);
    await saveCostModel(file, original);
    const newArms = [...SIX_ARMS.slice(1), arm('sim-new')];
    const loaded = await loadCostModel(file, newArms);
    assert.equal(loaded.restored, true);
    assert.ok(loaded.warnings.some((w) => /1 saved arm\(s\) are no longer offered/.test(w)));
    assert.ok(loaded.warnings.some((w) => /1 arm\(s\) are new/.test(w)));
    const before = new Map(original.stats().map((s) => [s.armId, s]));
    for (const s of loaded.model.stats()) {
      if (s.arm.model === 'sim-new') assert.equal(s.pulls, 0);
      else assert.deepEqual(s, before.get(s.armId));
    }
  });

  it('a missing file gives a fresh model silently; a corrupt or mismatched one a fresh model and a warning', async () => {
    const missing = await loadCostModel(path.join(dir, 'none.json'), SIX_ARMS);
    assert.deepEqual(missing.warnings, []);
    assert.equal(missing.restored, false);

    const file = path.join(dir, 'bad.json');
    await fs.writeFile(file, '{"schema": "toffee-lcm", "version": 1, "arms": [');
    const corrupt = await loadCostModel(file, SIX_ARMS);
    assert.equal(corrupt.restored, false);
    assert.equal(corrupt.model.updates, 0);
    assert.match(corrupt.warnings.join('\n'), /not valid JSON/);

    const trainedModel = new LearnedCostModel(SIX_ARMS);
    drive(trainedModel, mulberry32(4), 50);
    const good = trainedModel.toJSON();
    const variants: Array<[unknown, RegExp]> = [
      [{ ...good, version: 2 }, /version 2/],
      [{ ...good, schema: 'other' }, /schema "other"/],
      [{ ...good, featureNames: [...good.featureNames].reverse() }, /feature layout/],
      [{ ...good, lambda: -1 }, /lambda/],
      [[1, 2, 3], /not a JSON object/],
      [null, /not a JSON object/],
    ];
    for (const [data, pattern] of variants) {
      const { model, warnings } = LearnedCostModel.fromJSON(data, SIX_ARMS);
      assert.equal(model.updates, 0);
      assert.match(warnings.join('\n'), pattern);
    }

    // One arm's state broken: only that arm starts fresh; a tampered inverse is recomputed from A.
    const damaged = JSON.parse(JSON.stringify(good));
    damaged.arms[0].b = ['x'];
    damaged.arms[1].Ainv = damaged.arms[1].Ainv.map((v: number) => v * 2);
    const partial = LearnedCostModel.fromJSON(damaged, SIX_ARMS);
    assert.match(partial.warnings.join('\n'), /arm offline-sim\/sim-a\|full\|-\|explore is corrupt/);
    assert.match(partial.warnings.join('\n'), /inverse of arm offline-sim\/sim-b.* recomputed/);
    const stats = partial.model.stats();
    assert.equal(stats[0].pulls, 0);
    assert.equal(stats[1].pulls, trainedModel.stats()[1].pulls);
    const restoredInverse = partial.model.toJSON().arms[1].Ainv;
    assert.ok(restoredInverse.every((v, i) => Math.abs(v - good.arms[1].Ainv[i]) < 1e-9));
  });
});
