import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { synthesize } from '../../src/core/run/synthesize';
import { describeCostModelOrigin } from '../../src/core/lcm/location';
import { hashFolder } from '../support/folderHash';
import { writeShopFolder } from './agentFixture';

const CLI_MODULE = path.resolve(__dirname, '../../src/cli/main.js');

describe('cli: where the learned cost model lives; --out elsewhere writes nothing into the data folder', function () {
  this.timeout(240_000);
  let folder: string;
  let scratch: string;

  before(() => {
    folder = writeShopFolder();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-cost-model-'));
  });
  after(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('leaves the data folder byte-identical when the run folder is elsewhere', async () => {
    const before = hashFolder(folder);
    const summary = await synthesize({ folder, tasks: 2, budgetUsd: 0.02, outDir: path.join(scratch, 'elsewhere') });
    assert.deepEqual(hashFolder(folder), before, 'not one byte written into the data folder');
    assert.equal(summary.costModelOrigin.source, 'environment');
    assert.match(describeCostModelOrigin(summary.costModelOrigin), /its learning stays in the run folder: the run folder is outside the data folder/);
    assert.ok(fs.existsSync(path.join(scratch, 'elsewhere', 'costModel.json')), 'the run folder keeps its own');
  });

  it('runs inside the data folder share its cost model and say how many runs trained it', async () => {
    const data = writeShopFolder();
    try {
      const first = await synthesize({ folder: data, tasks: 1, budgetUsd: 0.02 });
      assert.match(describeCostModelOrigin(first.costModelOrigin), /^started from a fresh cost model \(there is none at .*\.toffee\/lcm\/[0-9a-f]{16}\.json yet\); its learning is saved there$/);
      const second = await synthesize({ folder: data, tasks: 1, budgetUsd: 0.02 });
      assert.equal(second.costModelOrigin.trainedByRuns, 1);
      assert.match(describeCostModelOrigin(second.costModelOrigin), /^started from a cost model trained by 1 earlier run \(/);
      const file = second.costModelOrigin.file!;
      assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')).trainedByRuns, [first.runId, second.runId]);
      // What a run started from is in its run.json, so a resume reports the same.
      assert.equal(JSON.parse(fs.readFileSync(path.join(second.runDir, 'run.json'), 'utf8')).config.costModel.trainedByRuns, 1);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  });

  it('--cost-model fresh saves nowhere else; --cost-model FILE reads and writes that file', async () => {
    const before = hashFolder(folder);
    const fresh = await synthesize({ folder, tasks: 1, budgetUsd: 0.02, outDir: path.join(scratch, 'fresh'), costModelFile: null });
    assert.equal(fresh.costModelOrigin.source, 'fresh');
    const file = path.join(scratch, 'models', 'shop.json');
    const a = await synthesize({ folder, tasks: 1, budgetUsd: 0.02, outDir: path.join(scratch, 'file-a'), costModelFile: file });
    const b = await synthesize({ folder, tasks: 1, budgetUsd: 0.02, outDir: path.join(scratch, 'file-b'), costModelFile: file });
    assert.equal(a.costModelOrigin.trainedByRuns, 0);
    assert.equal(b.costModelOrigin.trainedByRuns, 1);
    assert.ok(b.costModelOrigin.updates > 0);
    assert.deepEqual(hashFolder(folder), before);
  });

  it('a read-only data folder: without --out the CLI refuses, with --out it runs and writes nothing there', () => {
    // Root writes through any mode bits, so the CLI runs as nobody (or as this user when not root).
    const asRoot = process.getuid?.() === 0;
    const data = writeShopFolder();
    const outParent = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-ro-out-'));
    try {
      fs.chmodSync(data, 0o555);
      for (const name of fs.readdirSync(data)) fs.chmodSync(path.join(data, name), 0o444);
      fs.chmodSync(outParent, 0o777);
      const run = (args: string[]) => spawnSync(process.execPath, [CLI_MODULE, 'synthesize', data, '--tasks', '1', '--budget', '0.02', ...args], { encoding: 'utf8', timeout: 180_000, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
      const before = hashFolder(data);
      const refused = run([]);
      assert.equal(refused.status, 1, refused.stderr);
      assert.match(refused.stderr, /the data folder .* is read-only, so the run folder cannot go in it: pass --out DIR/);
      const ok = run(['--out', path.join(outParent, 'run')]);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /cost model: +started from a fresh cost model .*its learning stays in the run folder/);
      assert.deepEqual(hashFolder(data), before);
    } finally {
      fs.chmodSync(data, 0o755);
      fs.rmSync(data, { recursive: true, force: true });
      fs.rmSync(outParent, { recursive: true, force: true });
    }
  });
});
