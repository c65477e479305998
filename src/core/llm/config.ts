import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { createOpenAiProvider, type OpenAiProvider, type OpenAiProviderOptions } from './openaiProvider';
import type { PriceOverride } from './pricing';

/**
 * The CLI's model configuration, `toffee.config.json` in the working directory (or `--config FILE`).
 * Keys never live here: a provider names the environment variable that holds its key (`apiKeyEnv`).
 *
 * {
 *   "defaultProvider": "openrouter",
 *   "providers": {
 *     "openrouter": { "baseUrl": "https://openrouter.ai/api/v1", "apiKeyEnv": "OPENROUTER_API_KEY",
 *                     "headers": { "HTTP-Referer": "https://example.org", "X-Title": "TOFFEE" },
 *                     "models": ["openai/gpt-4.1-mini"], "concurrency": 4, "requestsPerMinute": 60 }
 *   },
 *   "prices": { "my-local-model": { "inputPerMTok": 0, "outputPerMTok": 0, "contextWindow": 32768 } }
 * }
 */

export const CONFIG_FILE_NAME = 'toffee.config.json';

const positiveInt = z.number().int().positive();

const priceOverrideSchema = z.strictObject({
  inputPerMTok: z.number().nonnegative().optional(),
  outputPerMTok: z.number().nonnegative().optional(),
  cachedInputPerMTok: z.number().nonnegative().optional(),
  contextWindow: positiveInt.optional(),
  supportsTools: z.boolean().optional(),
  supportsReasoningEffort: z.boolean().optional(),
});

const httpUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { message: 'expected an http(s) URL such as "https://api.openai.com/v1"' },
);

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name such as "OPENAI_API_KEY" (the key itself never goes in this file)');

export const providerConfigSchema = z.strictObject({
  baseUrl: httpUrl,
  apiKeyEnv: envVarName.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  models: z.array(z.string().min(1)).optional(),
  timeoutMs: positiveInt.optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  concurrency: positiveInt.optional(),
  requestsPerMinute: z.number().positive().optional(),
  stream: z.boolean().optional(),
  toolProtocol: z.enum(['auto', 'native', 'json-text']).optional(),
});

/** Other top-level sections (owned by other features) are allowed; the LLM sections are checked strictly. */
export const llmConfigSchema = z.looseObject({
  defaultProvider: z.string().min(1).optional(),
  defaultModel: z.string().min(1).optional(),
  providers: z.record(z.string().min(1), providerConfigSchema).optional(),
  prices: z.record(z.string().min(1), priceOverrideSchema).optional(),
});

export type ProviderConfig = z.infer<typeof providerConfigSchema>;
export type LlmConfig = z.infer<typeof llmConfigSchema>;

export class LlmConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(message);
    this.name = 'LlmConfigError';
  }
}

/** "providers.openrouter.baseUrl", "providers.x.models[2]" — the JSON path a person can find in the file. */
function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const name = String(segment);
      out += /^[A-Za-z_$][\w$-]*$/.test(name) ? `${out ? '.' : ''}${name}` : `[${JSON.stringify(name)}]`;
    }
  }
  return out || '(top level)';
}

/** Validate parsed JSON; throws LlmConfigError listing every problem as "path: what is wrong". */
export function parseLlmConfig(value: unknown, file = CONFIG_FILE_NAME): LlmConfig {
  const result = llmConfigSchema.safeParse(value);
  if (result.success) {
    const config = result.data;
    if (config.defaultProvider && !(config.providers ?? {})[config.defaultProvider]) {
      throw new LlmConfigError(
        `${file}: defaultProvider: "${config.defaultProvider}" is not one of the providers defined under "providers".`,
        file,
        [`defaultProvider: "${config.defaultProvider}" is not defined under "providers"`],
      );
    }
    return config;
  }
  const problems = result.error.issues.map((issue) => {
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    return `${formatPath(issue.path)}: ${message}`;
  });
  throw new LlmConfigError(`${file} is not a valid TOFFEE config:\n  ${problems.join('\n  ')}`, file, problems);
}

/**
 * Read the config: `explicitPath` if given (must exist), else `toffee.config.json` in `cwd` if present,
 * else an empty config. JSON syntax errors are reported with line and column.
 */
export function loadLlmConfig(options: { explicitPath?: string; cwd?: string } = {}): LlmConfig {
  const file = options.explicitPath
    ? path.resolve(options.cwd ?? process.cwd(), options.explicitPath)
    : path.join(options.cwd ?? process.cwd(), CONFIG_FILE_NAME);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (!options.explicitPath && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new LlmConfigError(`Cannot read the config file ${file}: ${(error as Error).message}`, file, []);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1]);
    let where = '';
    if (Number.isFinite(position)) {
      const before = text.slice(0, position);
      const line = before.split('\n').length;
      const column = position - before.lastIndexOf('\n');
      where = ` at line ${line}, column ${column}`;
    }
    throw new LlmConfigError(`${file} is not valid JSON${where}: ${message}`, file, [message]);
  }
  return parseLlmConfig(json, file);
}

/** Provider options for a named provider of the config, with the config's price overrides attached. */
export function providerOptionsFromConfig(config: LlmConfig, name: string): OpenAiProviderOptions {
  const entry = config.providers?.[name];
  if (!entry) {
    const known = Object.keys(config.providers ?? {});
    throw new LlmConfigError(
      `No provider named "${name}" in the config${known.length ? ` (defined: ${known.join(', ')})` : ' (none defined)'}.`,
      CONFIG_FILE_NAME,
      [],
    );
  }
  return {
    id: name,
    baseUrl: entry.baseUrl,
    apiKeyEnv: entry.apiKeyEnv,
    headers: entry.headers,
    models: entry.models,
    timeoutMs: entry.timeoutMs,
    maxRetries: entry.maxRetries,
    concurrency: entry.concurrency,
    requestsPerMinute: entry.requestsPerMinute,
    stream: entry.stream,
    toolProtocol: entry.toolProtocol,
    priceOverrides: config.prices as Record<string, PriceOverride> | undefined,
  };
}

/** Convenience for the CLI: an OpenAI-compatible provider from a config entry, with overrides on top. */
export function createProviderFromConfig(config: LlmConfig, name: string, overrides: Partial<OpenAiProviderOptions> = {}): OpenAiProvider {
  const base = providerOptionsFromConfig(config, name);
  const merged: OpenAiProviderOptions = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return createOpenAiProvider(merged);
}
