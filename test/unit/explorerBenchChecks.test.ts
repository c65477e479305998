import * as assert from 'node:assert/strict';
import type { BenchCell, BenchMethod, BenchResult } from '../../src/core/explorer/bench';
import { benchChecks, middleBudget, QUALITY_EPSILON } from '../../src/core/explorer/bench';

function result(quality: Record<BenchMethod, number[]>, ci = 0): BenchResult {
  const budgetsUsd = [0.01, 0.02];
  const methods = Object.keys(quality) as BenchMethod[];
  const cells: BenchCell[] = methods.flatMap((method) =>
    budgetsUsd.map((budgetUsd, i) => ({ method, budgetUsd, qualityBySeed: [], meanQuality: quality[method][i], qualityCi95: ci, verifiedRate: 1, verifiedRateCi95: 0, meanSpentUsd: budgetUsd / 2, repairShare: 0, admittedPerTask: 1, ungroundedSteps: 0, repairedErrors: 0, subAnswersReached: 1, wrongIntermediatePerTask: 0, expansions: 0, searchMs: 0 })),
  );
  return { cells, tasks: 10, seeds: [1, 2, 3], budgetsUsd, methods, baselineArm: 'x', toffeeExpansionsPerSecond: 0, toolCalls: 0, toolExecutionsSaved: 0 };
}

const met = (r: BenchResult, prefix: string) => benchChecks(r).find((c) => c.check.startsWith(prefix))!;

describe('bench checks', () => {
  it('reads a tie at the quality ceiling as met, and a real loss as not met', () => {
    const tie = result({ toffee: [0.9997, 1], 'toffee-no-lcm': [1, 1], 'best-of-5': [1, 1], 'single-shot': [0.9, 0.95] });
    assert.equal(met(tie, 'toffee ≥ best-of-5').met, true);
    assert.match(met(tie, 'toffee ≥ best-of-5').detail, /tied within ε at \$0\.01/);
    assert.equal(met(tie, 'toffee > toffee-no-lcm').met, true, 'both at the ceiling: nothing left to beat');
    assert.match(met(tie, 'toffee ≥').check, new RegExp(`ε=${QUALITY_EPSILON}`));
    const loss = result({ toffee: [0.9, 0.95], 'toffee-no-lcm': [0.9, 0.9], 'best-of-5': [0.92, 0.95], 'single-shot': [0.8, 0.8] });
    assert.equal(met(loss, 'toffee ≥ best-of-5').met, false);
    assert.match(met(loss, 'toffee ≥ best-of-5').detail, /\$0\.01 \(0\.9000 vs 0\.9200/);
    assert.equal(met(loss, 'toffee > toffee-no-lcm').met, false, 'a tie below the ceiling is not "greater"');
  });

  it('keeps ε fixed and reports differences that lie within the seeds\' spread', () => {
    const noisy = result({ toffee: [0.9, 0.9], 'toffee-no-lcm': [0.85, 0.85], 'best-of-5': [0.92, 0.92], 'single-shot': [0.5, 0.5] }, 0.02);
    // CI95 of the difference is √2·0.02 ≈ 0.028: 0.02 below best-of-5 is a loss beyond ε, but within the spread.
    const vsBest = met(noisy, 'toffee ≥ best-of-5');
    assert.equal(vsBest.met, false);
    assert.match(vsBest.detail, /difference within the seeds' CI95 at \$0\.01, \$0\.02/);
    assert.equal(met(noisy, 'toffee > toffee-no-lcm').met, true);
    assert.doesNotMatch(met(noisy, 'toffee > toffee-no-lcm').detail, /CI95/);
    assert.equal(met(noisy, "toffee reaches best-of-5's best").met, false);
  });

  it('asks both baselines to stay below the admission bar at the middle budget (the lower middle of an even count)', () => {
    assert.equal(middleBudget({ budgetsUsd: [0.08, 0.005, 0.02, 0.01, 0.05] }), 0.02);
    assert.equal(middleBudget({ budgetsUsd: [0.01, 0.02] }), 0.01);
    const easy = result({ toffee: [1, 1], 'toffee-no-lcm': [0.9, 1], 'best-of-5': [0.85, 1], 'single-shot': [0.92, 0.95] });
    const check = met(easy, 'single-shot and best-of-5 below');
    assert.equal(check.met, false, 'single-shot at 0.92 at $0.01: the budgets or tasks are too easy');
    assert.match(check.check, /middle budget \(\$0\.01\)/);
    assert.match(check.detail, /single-shot 0\.9200, best-of-5 0\.8500/);
    const hard = result({ toffee: [0.9, 1], 'toffee-no-lcm': [0.7, 0.9], 'best-of-5': [0.6, 0.95], 'single-shot': [0.5, 0.6] });
    assert.equal(met(hard, 'single-shot and best-of-5 below').met, true);
  });
});
