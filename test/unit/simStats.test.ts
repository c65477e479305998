import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { SimStatsCell } from '../../src/core/sim/stats';

const SAMPLE = path.resolve(__dirname, '../../../media/samples/retail');

async function runCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...args: unknown[]) => void out.push(args.map(String).join(' '));
  console.error = (...args: unknown[]) => void err.push(args.map(String).join(' '));
  try {
    return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('toffee sim-stats on the sample folder', function () {
  this.timeout(300_000);
  let cells: SimStatsCell[];
  let json: { cells: SimStatsCell[]; tasks: Array<{ id: string; level: string }>; seeds: number[] };

  before(async function () {
    const sample = fs.existsSync(SAMPLE) ? SAMPLE : path.resolve(process.cwd(), 'media/samples/retail');
    assert.ok(fs.existsSync(sample), `sample folder missing: ${sample}`);
    const result = await runCli(['sim-stats', sample, '--seed', '1', '--episodes', '10', '--json']);
    assert.equal(result.code, 0, result.err);
    json = JSON.parse(result.out);
    cells = json.cells;
  });

  const cell = (model: string, difficulty: string) => cells.find((c) => c.model === model && c.difficulty === difficulty)!;
  const pooled = (difficulty: string) => {
    const parts = cells.filter((c) => c.difficulty === difficulty);
    return parts.reduce((s, c) => s + c.mistakenSteps, 0) / parts.reduce((s, c) => s + c.steps, 0);
  };

  it('runs every model over tasks of every difficulty', () => {
    assert.deepEqual(json.seeds, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const levels = new Set(json.tasks.map((t) => t.level));
    assert.deepEqual([...levels].sort(), ['easy', 'hard', 'medium']);
    for (const model of ['sim-small', 'sim-medium', 'sim-large']) assert.equal(cell(model, 'all').episodes, json.tasks.length * 10);
  });

  it('mistake rate falls with model size', () => {
    const [small, medium, large] = ['sim-small', 'sim-medium', 'sim-large'].map((m) => cell(m, 'all'));
    console.log(`      mistake rate small ${small.mistakeRate.toFixed(3)}, medium ${medium.mistakeRate.toFixed(3)}, large ${large.mistakeRate.toFixed(3)}`);
    assert.ok(small.mistakeRate > medium.mistakeRate && medium.mistakeRate > large.mistakeRate);
    assert.ok(small.accuracy < large.accuracy);
    const costRatio = large.meanCostUsd / small.meanCostUsd;
    assert.ok(costRatio >= 5 && costRatio <= 25, `large/small cost per episode ${costRatio}`);
  });

  it('mistake rate rises with difficulty', () => {
    const [easy, medium, hard] = ['easy', 'medium', 'hard'].map(pooled);
    console.log(`      mistake rate easy ${easy.toFixed(3)}, medium ${medium.toFixed(3)}, hard ${hard.toFixed(3)} (all models)`);
    assert.ok(easy < medium && medium < hard);
    const small = ['easy', 'medium', 'hard'].map((d) => cell('sim-small', d).mistakeRate);
    assert.ok(small[0] < small[1] && small[1] < small[2], `sim-small ${small.join(', ')}`);
  });

  it('prints a readable table without --json', async () => {
    const result = await runCli(['sim-stats', path.resolve(process.cwd(), 'media/samples/retail'), '--episodes', '1']);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^model\s+difficulty\s+episodes\s+steps\s+mistake rate/);
    assert.match(result.out, /sim-large\s+all\s+\d+/);
    assert.match(result.out, /Mistake kinds:/);
    assert.equal((await runCli(['sim-stats', 'no/such/folder'])).code, 1);
  });
});
