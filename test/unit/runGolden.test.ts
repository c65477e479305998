/**
 * The same seed gives the same run: the README run (`toffee synthesize media/samples/retail --out DIR`) and one
 * shard of it are held against digests recorded from an earlier build (test/golden/runDigests.json). Everything a
 * run writes is compared except what the wall clock or the folder's name decides: event timestamps, sandbox
 * milliseconds saved, expansions per second, the run id and the folders. costModel.json is compared byte for byte.
 *
 * A change that is meant to change what a run explores (a new task family, another simulated mistake) records new
 * digests with `TOFFEE_UPDATE_GOLDEN=1 npx mocha out/test/unit/runGolden.test.js`, and says so in its commit.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAMPLE = path.join(ROOT, 'media', 'samples', 'retail');
const GOLDEN = path.join(ROOT, 'test', 'golden', 'runDigests.json');

/** Fields whose value is the wall clock's or the run folder's, at any depth of an event or trajectory. */
const UNSTABLE = new Set(['ts', 'admittedAt', 'savedElapsedMs', 'sandboxMsSaved', 'expansionsPerSecond', 'runId', 'runDir', 'dataFolder']);

interface FileDigest {
  sha256: string;
  lines: number;
  /** A short digest per line, so a mismatch names the first line that differs. */
  lineDigests?: string[];
}

interface RunDigest {
  events: FileDigest;
  trajectories: FileDigest;
  costModel: FileDigest;
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([key]) => !UNSTABLE.has(key)).map(([key, v]) => [key, stable(v)]));
  }
  // A path under the scratch folder (the environment's cost model file) names a temporary folder.
  if (typeof value === 'string' && value.startsWith(os.tmpdir())) return value.replace(/^.*?toffee-golden-[^/]+/, '<scratch>');
  return value;
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function jsonlDigest(file: string): FileDigest {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.stringify(stable(JSON.parse(line))));
  return { sha256: sha(lines.join('\n')), lines: lines.length, lineDigests: lines.map((line) => sha(line).slice(0, 12)) };
}

function runDigest(runDir: string): RunDigest {
  const costModel = fs.readFileSync(path.join(runDir, 'costModel.json'), 'utf8');
  return {
    events: jsonlDigest(path.join(runDir, 'events.jsonl')),
    trajectories: jsonlDigest(path.join(runDir, 'trajectories.jsonl')),
    costModel: { sha256: sha(costModel), lines: costModel.split('\n').length },
  };
}

/** The first line that differs, with its content in this run, for the failure message. */
function firstDifference(name: string, runDir: string, file: string, actual: FileDigest, expected: FileDigest): string {
  const want = expected.lineDigests ?? [];
  const got = actual.lineDigests ?? [];
  const index = got.findIndex((digest, i) => digest !== want[i]);
  if (index < 0) return `${name}: ${got.length} lines, ${want.length} expected`;
  const line = fs.readFileSync(path.join(runDir, file), 'utf8').split('\n').filter(Boolean)[index];
  return `${name}: line ${index + 1} differs (${got.length} lines, ${want.length} expected): ${line.slice(0, 600)}`;
}

function assertDigest(label: string, runDir: string, actual: RunDigest, expected: RunDigest): void {
  for (const [key, file] of [['events', 'events.jsonl'], ['trajectories', 'trajectories.jsonl']] as const) {
    if (actual[key].sha256 !== expected[key].sha256) assert.fail(`${label} ${firstDifference(key, runDir, file, actual[key], expected[key])}`);
  }
  assert.equal(actual.costModel.sha256, expected.costModel.sha256, `${label}: costModel.json differs`);
}

/** A private copy of the sample: a run learns into the environment's cost model under its data folder. */
function sampleCopy(scratch: string, name: string): string {
  const dir = path.join(scratch, name);
  fs.cpSync(SAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.toffee`) });
  return dir;
}

describe('the same seed gives the same run as the recorded one', function () {
  this.timeout(300_000);
  let scratch: string;
  const digests: Record<string, RunDigest> = {};
  const expected: Record<string, RunDigest> = fs.existsSync(GOLDEN) ? (JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as Record<string, RunDigest>) : {};
  const update = process.env.TOFFEE_UPDATE_GOLDEN === '1';

  before(() => {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-golden-'));
  });
  after(() => {
    if (update && Object.keys(digests).length > 0) {
      fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
      fs.writeFileSync(GOLDEN, `${JSON.stringify({ ...expected, ...digests }, null, 1)}\n`);
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; args: string[] }> = [
    // The README's run: 8 tasks, seed 1, the offline simulated models.
    { name: 'readme', args: [] },
    { name: 'shard-1-of-2', args: ['--shard', '1/2'] },
  ];
  for (const { name, args } of cases) {
    it(`${name}: the same events, trajectories and cost model`, async () => {
      const out = path.join(scratch, name);
      await run(process.execPath, [CLI, 'synthesize', sampleCopy(scratch, `data-${name}`), ...args, '--out', out], { maxBuffer: 16 << 20 });
      const digest = runDigest(out);
      assert.ok(digest.trajectories.lines > 0, 'the run admitted trajectories');
      digests[name] = digest;
      if (update) return;
      assert.ok(expected[name], `no recorded digest for ${name} in ${GOLDEN}: record one with TOFFEE_UPDATE_GOLDEN=1`);
      assertDigest(name, out, digest, expected[name]);
    });
  }
});
