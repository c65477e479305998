import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LlmConfigError, createProviderFromConfig, loadLlmConfig, parseLlmConfig, providerOptionsFromConfig } from '../../src/core/llm/config';
import { forgetEndpointLimiter } from '../../src/core/llm/endpointLimiter';
import { DEFAULT_PRICES, costUsd, normalizeModelId, resolveModelSpec } from '../../src/core/llm/pricing';

describe('llm: pricing', () => {
  it('resolves table models through vendor prefixes, dates and aliases', () => {
    assert.equal(normalizeModelId('openai/gpt-4o-2024-08-06'), 'gpt-4o');
    assert.equal(normalizeModelId('anthropic/claude-3-5-haiku-20241022'), 'claude-3.5-haiku');
    assert.equal(normalizeModelId('meta-llama/llama-3.3-70b-instruct:free'), 'llama-3.3-70b-instruct');
    const spec = resolveModelSpec('openai/gpt-4.1-mini', 'openrouter');
    assert.deepEqual(
      [spec.id, spec.provider, spec.inputPerMTok, spec.outputPerMTok, spec.cachedInputPerMTok, spec.priceSource, spec.simulated],
      ['openai/gpt-4.1-mini', 'openrouter', 0.4, 1.6, 0.1, 'table', false],
    );
    assert.equal(resolveModelSpec('o3', 'openai').supportsReasoningEffort, true);
    assert.equal(resolveModelSpec('gpt-4o', 'openai').supportsReasoningEffort, false);
    for (const family of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'o4-mini', 'gpt-4.1-nano', 'claude-sonnet-4', 'deepseek-chat', 'qwen-max', 'llama-3.1-8b-instruct']) {
      assert.ok(DEFAULT_PRICES[family], family);
    }
  });

  it('falls back to zero price with a warning for unknown models; overrides win, by exact or normalized id', () => {
    const unknown = resolveModelSpec('my-finetune', 'local');
    assert.equal(unknown.inputPerMTok, 0);
    assert.equal(unknown.priceSource, 'unknown');
    assert.match(unknown.warning ?? '', /my-finetune/);
    const overridden = resolveModelSpec('my-finetune', 'local', { 'my-finetune': { inputPerMTok: 1, outputPerMTok: 2, contextWindow: 8192 } });
    assert.deepEqual([overridden.inputPerMTok, overridden.outputPerMTok, overridden.contextWindow, overridden.priceSource, overridden.warning], [1, 2, 8192, 'override', undefined]);
    const partial = resolveModelSpec('openai/gpt-4o', 'x', { 'gpt-4o': { outputPerMTok: 9 } });
    assert.deepEqual([partial.inputPerMTok, partial.outputPerMTok, partial.priceSource], [2.5, 9, 'override']);
  });

  it('computes cost with cached tokens at the cached price, reasoning not double-counted', () => {
    const spec = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
    assert.equal(costUsd({ prompt: 1_000_000, completion: 0 }, spec), 2);
    assert.equal(costUsd({ prompt: 1_000_000, completion: 500_000, cached: 600_000, reasoning: 400_000 }, spec), 0.8 + 0.3 + 4);
    assert.equal(costUsd({ prompt: 100, completion: 0, cached: 100 }, { inputPerMTok: 3, outputPerMTok: 15 }), 300 / 1e6);
  });
});

describe('llm: CLI config file', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-llm-config-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const valid = {
    defaultProvider: 'router',
    providers: {
      router: {
        baseUrl: 'https://openrouter.ai/api/v1',
        apiKeyEnv: 'OPENROUTER_API_KEY',
        headers: { 'HTTP-Referer': 'https://example.org', 'X-Title': 'TOFFEE' },
        models: ['openai/gpt-4.1-mini'],
        concurrency: 2,
        requestsPerMinute: 30,
      },
    },
    prices: { 'my-model': { inputPerMTok: 0.1, outputPerMTok: 0.2 } },
    explorer: { anything: 'owned by another feature' },
  };

  it('loads toffee.config.json from the cwd, or nothing when absent', () => {
    assert.deepEqual(loadLlmConfig({ cwd: dir }), {});
    fs.writeFileSync(path.join(dir, 'toffee.config.json'), JSON.stringify(valid));
    const config = loadLlmConfig({ cwd: dir });
    assert.equal(config.providers?.router.concurrency, 2);
    const options = providerOptionsFromConfig(config, 'router');
    assert.equal(options.apiKeyEnv, 'OPENROUTER_API_KEY');
    assert.deepEqual(options.priceOverrides, valid.prices);
    const provider = createProviderFromConfig(config, 'router', { env: {}, timeoutMs: undefined });
    assert.equal(provider.id, 'router');
    assert.equal(provider.modelSpec('my-model').inputPerMTok, 0.1);
    forgetEndpointLimiter('https://openrouter.ai/api/v1');
  });

  it('reports every schema problem with its JSON path in plain words', () => {
    const bad = {
      defaultProvider: 'router',
      providers: {
        router: { baseUrl: 'openrouter.ai', apiKeyEnv: 'sk-live-key-pasted-here', concurrency: 0, colour: 'red' },
      },
      prices: { m: { inputPerMTok: -1 } },
    };
    assert.throws(
      () => parseLlmConfig(bad, 'toffee.config.json'),
      (error: unknown) => {
        assert.ok(error instanceof LlmConfigError);
        const joined = error.problems.join('\n');
        assert.match(joined, /providers\.router\.baseUrl: expected an http\(s\) URL/);
        assert.match(joined, /providers\.router\.apiKeyEnv: expected an environment variable name/);
        assert.match(joined, /providers\.router\.concurrency: /);
        assert.match(joined, /providers\.router: unknown setting "colour"/);
        assert.match(joined, /prices\.m\.inputPerMTok: /);
        assert.match(error.message, /^toffee\.config\.json is not a valid TOFFEE config/);
        return true;
      },
    );
  });

  it('reports JSON syntax errors with line and column, a missing explicit file, and an undefined default provider', () => {
    const file = path.join(dir, 'custom.json');
    fs.writeFileSync(file, '{\n  "providers": {\n    "x": { "baseUrl": "http://a" },,\n  }\n}');
    assert.throws(() => loadLlmConfig({ explicitPath: file }), /not valid JSON at line 3, column \d+/);
    assert.throws(() => loadLlmConfig({ explicitPath: path.join(dir, 'missing.json') }), /Cannot read the config file/);
    assert.throws(() => parseLlmConfig({ defaultProvider: 'nope', providers: {} }), /defaultProvider: "nope" is not one of the providers/);
    assert.throws(() => providerOptionsFromConfig({ providers: { a: { baseUrl: 'http://a' } } }, 'b'), /No provider named "b".*defined: a/);
  });
});
