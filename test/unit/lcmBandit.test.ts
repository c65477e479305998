/**
 * The learned cost model on a synthetic contextual bandit with known linear rewards: LinUCB against uniform
 * random and ε-greedy. Prints the regret figures:
 *   npx mocha --no-config --timeout 60000 '.out-lcm/test/unit/lcmBandit.test.js'
 */
import assert from 'node:assert/strict';
import { buildFeatures, FEATURE_DIMENSION, LearnedCostModel, type ArmConfig, type StateFeatures } from '../../src/core/lcm';
import { mulberry32 } from '../support/random';

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const ARMS: ArmConfig[] = ['sim-small', 'sim-medium', 'sim-large'].flatMap((model) =>
  (['explore', 'repair'] as const).map((operator) => ({ model, provider: 'offline-sim', contextLength: 'full' as const, operator })),
);

// True reward weights per arm over [bias, depth, progress, schema, recentErrors, lastError, budgetLeft, difficulty]:
// each arm is best somewhere (repairs after errors, large models on hard tasks, small ones on easy early steps).
const TRUE_THETA: number[][] = [
  [0.55, -0.1, 0.1, 0.2, -0.2, -0.4, 0.0, -0.4], // small explore: easy, error-free
  [0.25, 0.0, 0.0, 0.0, 0.1, 0.45, 0.0, -0.2], // small repair
  [0.45, 0.0, 0.15, 0.1, -0.2, -0.35, 0.0, -0.1], // medium explore
  [0.2, 0.1, 0.0, 0.0, 0.15, 0.4, 0.0, 0.15], // medium repair
  [0.3, 0.05, 0.1, 0.05, -0.2, -0.35, 0.0, 0.35], // large explore: hard tasks
  [0.1, 0.1, 0.0, 0.0, 0.2, 0.35, 0.0, 0.45], // large repair: hard tasks after errors
];
const NOISE = 0.1;
const ROUNDS = 2000;

function randomState(random: () => number): StateFeatures {
  const lastStepError = random() < 0.35;
  return buildFeatures({
    depth: Math.floor(random() * 12),
    maxDepth: 12,
    progress: random(),
    schemaCoverage: random(),
    recentErrors: (lastStepError ? 1 : 0) + Math.floor(random() * 2),
    lastStepError,
    remainingBudgetFraction: random(),
    difficulty: random(),
  });
}

function expectedRewards(x: readonly number[]): number[] {
  return TRUE_THETA.map((theta) => theta.reduce((sum, w, i) => sum + w * x[i], 0));
}

interface RunResult {
  regret: number;
  /** Share of the last 500 rounds (those with a clear best arm) where the best arm was chosen. */
  lastWindowBestRate: number;
  lastWindowMeanRegret: number;
}

/** Runs one policy for ROUNDS rounds on the same context and noise streams (seeded). */
function runPolicy(pick: (x: StateFeatures, round: number) => number, learn: (arm: number, x: StateFeatures, reward: number) => void, seed: number): RunResult {
  const contexts = mulberry32(seed);
  const noise = mulberry32(seed + 1);
  let regret = 0;
  let bestInLastWindow = 0;
  let clearInLastWindow = 0;
  let lastWindowRegret = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const features = randomState(contexts);
    const means = expectedRewards(features.vector);
    const best = Math.max(...means);
    const arm = pick(features, round);
    regret += best - means[arm];
    if (round >= ROUNDS - 500) {
      lastWindowRegret += best - means[arm];
      // Rounds where the best arm is clearly best (gap ≥ 0.05); near-ties cost almost nothing either way.
      const second = [...means].sort((a, b) => b - a)[1];
      if (best - second >= 0.05) {
        clearInLastWindow++;
        if (means[arm] === best) bestInLastWindow++;
      }
    }
    learn(arm, features, means[arm] + NOISE * gaussian(noise));
  }
  return { regret, lastWindowBestRate: bestInLastWindow / clearInLastWindow, lastWindowMeanRegret: lastWindowRegret / 500 };
}

function runLinUcb(seed: number): { result: RunResult; model: LearnedCostModel } {
  const model = new LearnedCostModel(ARMS, { costWeight: 0 });
  const ids = model.armIds;
  const result = runPolicy(
    (x) => ids.indexOf(model.decide(x, { remainingBudgetUsd: 1, maxK: 1 }).chosenArmIds[0]),
    (arm, x, reward) => model.update(ids[arm], x, reward, 0),
    seed,
  );
  return { result, model };
}

function runUniform(seed: number): RunResult {
  const choice = mulberry32(seed + 7);
  return runPolicy(() => Math.floor(choice() * ARMS.length), () => undefined, seed);
}

/** Context-free ε-greedy (ε = 0.1) on running mean rewards, each arm tried once first. */
function runEpsilonGreedy(seed: number): RunResult {
  const choice = mulberry32(seed + 13);
  const sums = new Array<number>(ARMS.length).fill(0);
  const counts = new Array<number>(ARMS.length).fill(0);
  return runPolicy(
    (_x, round) => {
      if (round < ARMS.length) return round;
      if (choice() < 0.1) return Math.floor(choice() * ARMS.length);
      let best = 0;
      for (let a = 1; a < ARMS.length; a++) if (sums[a] / counts[a] > sums[best] / counts[best]) best = a;
      return best;
    },
    (arm, _x, reward) => {
      sums[arm] += reward;
      counts[arm]++;
    },
    seed,
  );
}

describe('lcm: LinUCB on a synthetic contextual bandit', () => {
  it('the synthetic problem is contextual: the best arm differs across states', () => {
    const random = mulberry32(99);
    const bestArms = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const means = expectedRewards(randomState(random).vector);
      bestArms.add(means.indexOf(Math.max(...means)));
    }
    assert.ok(bestArms.size >= 4, `only ${bestArms.size} distinct best arms`);
    assert.equal(TRUE_THETA[0].length, FEATURE_DIMENSION);
  });

  it(`has clearly lower cumulative regret than uniform random and ε-greedy over ${ROUNDS} rounds (3 seeds)`, () => {
    for (const seed of [1, 2, 3]) {
      const linUcb = runLinUcb(seed).result;
      const uniform = runUniform(seed);
      const epsilon = runEpsilonGreedy(seed);
      console.log(
        `      seed ${seed}: cumulative regret LinUCB ${linUcb.regret.toFixed(1)}, ε-greedy(0.1) ${epsilon.regret.toFixed(1)}, ` +
          `uniform ${uniform.regret.toFixed(1)}; LinUCB in the last 500 rounds: best arm ${(linUcb.lastWindowBestRate * 100).toFixed(1)}% of clear rounds, ` +
          `mean regret/round ${linUcb.lastWindowMeanRegret.toFixed(4)} (uniform ${uniform.lastWindowMeanRegret.toFixed(4)})`,
      );
      assert.ok(linUcb.regret < 0.5 * epsilon.regret, `seed ${seed}: LinUCB ${linUcb.regret} vs ε-greedy ${epsilon.regret}`);
      assert.ok(linUcb.regret < 0.25 * uniform.regret, `seed ${seed}: LinUCB ${linUcb.regret} vs uniform ${uniform.regret}`);
    }
  });

  it('converges to the best arm per context', () => {
    const { result, model } = runLinUcb(4);
    assert.ok(result.lastWindowBestRate >= 0.9, `best-arm rate ${result.lastWindowBestRate}`);
    assert.ok(result.lastWindowMeanRegret < 0.01, `late mean regret ${result.lastWindowMeanRegret}`);
    // On fresh contexts, the arm with the highest learned μ is the truly best one (allowing near-ties).
    const probes = mulberry32(2024);
    let agree = 0;
    let total = 0;
    for (let i = 0; i < 300; i++) {
      const features = randomState(probes);
      const means = expectedRewards(features.vector);
      const sorted = [...means].sort((a, b) => b - a);
      if (sorted[0] - sorted[1] < 0.03) continue; // a near-tie is not a fair probe
      total++;
      const decision = model.decide(features, { remainingBudgetUsd: 1, maxK: 1 });
      const byMu = [...decision.arms].sort((a, b) => b.mu - a.mu)[0];
      if (model.armIds.indexOf(byMu.armId) === means.indexOf(sorted[0])) agree++;
    }
    console.log(`      greedy-by-μ agrees with the true best arm on ${agree}/${total} probe contexts`);
    assert.ok(agree / total >= 0.9, `agreement ${agree}/${total}`);
  });
});
