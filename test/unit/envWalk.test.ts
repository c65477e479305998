import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEnvironment } from '../../src/core/env/index';
import { makeFolder } from '../support/envFixtures';

const ENV_MODULE = path.resolve(__dirname, '../../src/core/env/index.js');
const CLI_MODULE = path.resolve(__dirname, '../../src/cli/main.js');

/**
 * Runs `script` in a node child that cannot read a folder with mode 000: as this user, or as `nobody` when the
 * tests run as root (root reads everything).
 */
function runUnprivileged(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const asRoot = process.getuid?.() === 0;
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}), timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('env: the folder walk', function () {
  this.timeout(60_000);

  it('reports an unreadable sub-folder as a diagnostic and loads the other files', () => {
    const folder = makeFolder({ 'good.csv': 'id,v\n1,2\n', 'locked/secret.csv': 'a\n1\n', 'open/more.csv': 'x\n3\n' });
    try {
      fs.chmodSync(folder.root, 0o755);
      for (const dir of ['open']) fs.chmodSync(path.join(folder.root, dir), 0o755);
      for (const file of ['good.csv', 'open/more.csv']) fs.chmodSync(path.join(folder.root, file), 0o644);
      fs.chmodSync(path.join(folder.root, 'locked'), 0o000);
      const script = `require(${JSON.stringify(ENV_MODULE)}).loadEnvironment(${JSON.stringify(folder.root)}).then((env) => console.log(JSON.stringify({ tables: env.profile.tables.map((t) => t.name), diagnostics: env.profile.diagnostics })))`;
      const result = runUnprivileged(['-e', script]);
      assert.equal(result.status, 0, result.stderr);
      const out = JSON.parse(result.stdout) as { tables: string[]; diagnostics: Array<{ file: string; severity: string; message: string }> };
      assert.deepEqual(out.tables, ['good', 'more']);
      assert.deepEqual(out.diagnostics, [{ file: 'locked/', severity: 'warning', message: 'Cannot read this folder (permission denied); the files in it were not loaded.' }]);

      // The CLI: exit 0, no stack trace, the diagnostic printed.
      const cli = runUnprivileged([CLI_MODULE, 'profile', folder.root]);
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stdout, /warning locked\/ {2}Cannot read this folder \(permission denied\)/);
      assert.doesNotMatch(cli.stdout + cli.stderr, /internal error|at .*\.js:\d+/);
    } finally {
      fs.chmodSync(path.join(folder.root, 'locked'), 0o755);
      folder.cleanup();
    }
  });

  it('an unreadable data folder itself is a clear error', () => {
    const folder = makeFolder({ 'a.csv': 'x\n1\n' });
    try {
      fs.chmodSync(folder.root, 0o000);
      const cli = runUnprivileged([CLI_MODULE, 'profile', folder.root]);
      assert.notEqual(cli.status, 0);
      assert.match(cli.stderr, /Cannot read the folder .*: permission denied/);
      assert.doesNotMatch(cli.stderr, /internal error/);
    } finally {
      fs.chmodSync(folder.root, 0o700);
      folder.cleanup();
    }
  });

  it('names symbolic link loops, broken links and linked folders, and loads everything else', async () => {
    const folder = makeFolder({ 'orders.csv': 'id\n1\n2\n', 'sub/items.csv': 'sku\nA\n', 'elsewhere/extra.csv': 'e\n1\n' });
    try {
      const at = (p: string) => path.join(folder.root, p);
      fs.symlinkSync('self', at('self'));
      fs.symlinkSync('pong', at('ping'));
      fs.symlinkSync('ping', at('pong'));
      fs.symlinkSync('..', at('sub/up'));
      fs.symlinkSync('missing.csv', at('gone.csv'));
      fs.symlinkSync(at('elsewhere'), at('linked'));
      fs.symlinkSync('orders.csv', at('orders-link.csv'));
      const env = await loadEnvironment(folder.root);
      assert.deepEqual(env.profile.tables.map((t) => t.name).sort(), ['extra', 'items', 'orders', 'orders_link']);
      const byFile = Object.fromEntries(env.profile.diagnostics.map((d) => [d.file, `${d.severity}: ${d.message}`]));
      assert.match(byFile['self'], /^warning: Symbolic link that cannot be followed \(a loop of symbolic links, via self\); skipped\.$/);
      assert.match(byFile['ping'], /^warning: .*a loop of symbolic links, via pong/);
      assert.match(byFile['pong'], /^warning: .*a loop of symbolic links, via ping/);
      assert.match(byFile['sub/up'], /^warning: Symbolic link to a folder above it .*: a loop; not followed\.$/);
      assert.match(byFile['gone.csv'], /^warning: Broken symbolic link \(to missing\.csv, which does not exist\); skipped\.$/);
      assert.match(byFile['linked'], /^info: Linked folder; not followed/);
    } finally {
      folder.cleanup();
    }
  });
});
