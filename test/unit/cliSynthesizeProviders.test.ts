import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliError } from '../../src/cli/command';
import { synthesizeCommand } from '../../src/cli/commands/synthesize';
import { readRun } from '../../src/core/store/RunStore';
import { MockOpenAiServer } from '../support/mockOpenAiServer';
import { writeShopFolder } from './agentFixture';

const KEY = 'sk-test-key-that-must-never-be-written-1234';

/** Runs `toffee synthesize` with stdout and stderr captured; the code, or the CliError it threw. */
async function synthesizeCli(argv: string[], cwd?: string): Promise<{ code?: number; error?: CliError; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const write = process.stderr.write;
  const dir = process.cwd();
  console.log = (...args: unknown[]) => out.push(args.join(' '));
  process.stderr.write = ((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  if (cwd) process.chdir(cwd);
  try {
    const code = await synthesizeCommand.run(argv);
    return { code, stdout: out.join('\n'), stderr: err.join('') };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { error, stdout: out.join('\n'), stderr: err.join('') };
  } finally {
    console.log = log;
    process.stderr.write = write;
    if (cwd) process.chdir(dir);
  }
}

/** Every file of a folder as text, to look for the key. */
function folderText(dir: string): string {
  return fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name), 'utf8')).join('\n');
}

describe('cli: synthesize with real providers — failures name themselves, spend is bounded, resume keeps the models', function () {
  this.timeout(180_000);
  let folder: string;
  let scratch: string;
  let server: MockOpenAiServer;
  const savedKey = process.env.OPENAI_API_KEY;

  before(async () => {
    folder = writeShopFolder();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-cli-providers-'));
    process.env.OPENAI_API_KEY = KEY;
  });
  beforeEach(async () => {
    // A model that always answers 17: wrong, so every task runs until a limit; enough to count calls and spend.
    server = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'toolCalls', calls: [{ name: 'final_answer', arguments: '{"answer": "17"}' }], usage: { prompt: 1000, completion: 50 } } });
  });
  afterEach(async () => server.close());
  after(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
  });

  it('exits 1 with the endpoint\'s message on stderr when every model call fails, and leaves the task unfinished', async () => {
    const message = 'The model `gpt-4o-mini` does not exist or you do not have access to it.';
    await server.close();
    server = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'error', status: 400, message, code: 'model_not_found' } });
    const out = path.join(scratch, 'all-fail');
    const result = await synthesizeCli([folder, '--provider', 'openai', '--base-url', server.baseUrl, '--models', 'gpt-4o-mini', '--tasks', '2', '--out', out]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /every model call failed; the endpoint said: .*HTTP 400.*does not exist or you do not have access/);
    assert.match(result.stdout, /stopped: +every model call of task .* failed \(\d+ of \d+\); the run stops here/);
    const events = readRun(out).events;
    assert.equal(events.filter((e) => e.type === 'task/finished').length, 0, 'the task is left for a resume');
    assert.equal(events.filter((e) => e.type === 'run/finished').length, 0);
    assert.ok(server.chatRequests.length > 0 && server.chatRequests.length <= 12, `${server.chatRequests.length} requests: the run stopped after the first task`);
  });

  it('refuses to start on a model without a price, and writes nothing', async () => {
    const out = path.join(scratch, 'unpriced');
    const result = await synthesizeCli([folder, '--provider', 'openai', '--base-url', server.baseUrl, '--models', 'house-model-7b', '--tasks', '1', '--out', out]);
    assert.ok(result.error, `exit ${result.code}`);
    assert.match(result.error.message, /No price is known for model openai\/house-model-7b.*--price house-model-7b=INPUT\/OUTPUT.*--max-calls N/s);
    assert.equal(fs.existsSync(out), false);
    assert.equal(server.chatRequests.length, 0);
  });

  it('an unpriced model runs under --max-calls, stops at the cap with exit 3, and a resume on its own models goes on', async () => {
    const out = path.join(scratch, 'capped');
    const first = await synthesizeCli([folder, '--provider', 'openai', '--base-url', server.baseUrl, '--models', 'house-model-7b', '--tasks', '2', '--max-calls', '6', '--out', out]);
    assert.equal(first.code, 3, first.stderr + first.stdout);
    assert.match(first.stdout, /stopped: +the cap of 6 model calls \(--max-calls\) is reached/);
    assert.equal(server.chatRequests.length, 6, 'exactly the cap');
    const config = JSON.parse(fs.readFileSync(path.join(out, 'run.json'), 'utf8')).config;
    assert.deepEqual(config.providers, ['openai']);
    assert.deepEqual(config.models, ['openai/house-model-7b']);
    assert.equal(config.providerSettings[0].apiKeyEnv, 'OPENAI_API_KEY');
    assert.equal(config.maxCalls, 6);
    assert.ok(!folderText(out).includes(KEY), 'the key is in no file of the run');

    // Resumed on the simulated models: refused, with the flags that resume it properly.
    const wrong = await synthesizeCli(['--resume', out, '--provider', 'offline-sim']);
    assert.ok(wrong.error);
    assert.match(wrong.error.message, /started on openai \(openai\/house-model-7b\), and this resume would continue on offline-sim/);
    assert.ok(wrong.error.message.includes(`--provider openai --base-url ${server.baseUrl} --models house-model-7b --api-key-env OPENAI_API_KEY`), wrong.error.message);
    assert.equal(server.chatRequests.length, 6);

    // Without provider flags the recorded provider is rebuilt; a higher cap lets it go on.
    const resumed = await synthesizeCli(['--resume', out, '--max-calls', '10']);
    assert.equal(resumed.code, 3, resumed.stderr + resumed.stdout);
    assert.equal(server.chatRequests.length, 10, 'the resume called the run\'s endpoint, up to the new cap');
    const spent = readRun(out).events.filter((e) => e.type === 'budget/spent').reduce((n, e) => n + ((e as { calls?: number }).calls ?? 0), 0);
    assert.ok(spent <= 10, `${spent} calls on the ledger`);
  });

  it('a --price bounds an unpriced model by the budget', async () => {
    const out = path.join(scratch, 'priced');
    // 1000 prompt + 50 completion tokens at $20/$40 per million: $0.022 a call, so $0.05 per task buys three.
    const result = await synthesizeCli([folder, '--provider', 'openai', '--base-url', server.baseUrl, '--models', 'house-model-7b', '--price', 'house-model-7b=20/40', '--tasks', '1', '--budget', '0.05', '--out', out]);
    assert.equal(result.code, 0, result.stderr);
    const spend = readRun(out).events.filter((e) => e.type === 'budget/spent').reduce((n, e) => n + (e as { costUsd: number }).costUsd, 0);
    assert.ok(spend > 0 && spend < 0.05 + 0.022 * 3, `spend ${spend}`);
    assert.ok(server.chatRequests.length <= 5, `${server.chatRequests.length} calls`);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'run.json'), 'utf8')).config.providerSettings[0].prices, { 'house-model-7b': { inputPerMTok: 20, outputPerMTok: 40 } });
  });

  it('reads toffee.config.json: its provider, timeout, retries and prices', async () => {
    await server.close();
    server = await MockOpenAiServer.start({ defaultBehaviour: { kind: 'hang' } });
    const cwd = fs.mkdtempSync(path.join(scratch, 'config-'));
    fs.writeFileSync(path.join(cwd, 'toffee.config.json'), JSON.stringify({
      defaultProvider: 'local',
      providers: { local: { baseUrl: server.baseUrl, apiKeyEnv: 'OPENAI_API_KEY', models: ['house-model-7b'], timeoutMs: 300, maxRetries: 1 } },
      prices: { 'house-model-7b': { inputPerMTok: 1, outputPerMTok: 2 } },
    }));
    const out = path.join(scratch, 'config-run');
    const started = Date.now();
    const result = await synthesizeCli([folder, '--tasks', '1', '--out', out], cwd);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.match(result.stderr, /did not answer within 300 ms\. Gave up after 2 attempts/);
    assert.ok(Date.now() - started < 60_000, 'the config\'s timeout, not 120 s × 5');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'run.json'), 'utf8')).config.providers, ['local']);
  });
});
