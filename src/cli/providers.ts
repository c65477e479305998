/**
 * The CLI's models: `--provider`, `--models`, `--base-url`, `--api-key-env`, `--price` and toffee.config.json
 * (`--config FILE`, else the one in the working directory): its providers (base URL, key variable, timeouts,
 * retries, limits), its `defaultProvider` and its `prices`. A run records what built its providers (never a key) in
 * run.json, and a resume without provider flags rebuilds them from that record.
 */
import { CONFIG_FILE_NAME, createProviderFromConfig, LlmConfigError, loadLlmConfig, type LlmConfig } from '../core/llm/config';
import { createOpenAiProvider, DEFAULT_OPENAI_BASE_URL } from '../core/llm/openaiProvider';
import type { PriceOverride } from '../core/llm/pricing';
import { OFFLINE_SIM_PROVIDER_ID, createSimulatedProvider } from '../core/sim/index';
import type { LlmProvider } from '../core/llm/types';
import type { RecordedProvider } from '../core/store/runProviders';
import { CliError } from './command';

export interface ProviderFlagValues {
  provider?: string;
  models?: string;
  'base-url'?: string;
  'api-key-env'?: string;
  config?: string;
  price?: string[];
}

/** parseArgs options for the provider flags. */
export const PROVIDER_FLAG_OPTIONS = {
  provider: { type: 'string' },
  models: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  config: { type: 'string' },
  price: { type: 'string', multiple: true },
} as const;

export const PROVIDER_FLAG_USAGE = `  --provider P          offline-sim (default; simulated models), openai (any OpenAI-compatible endpoint), or a
                        provider named in toffee.config.json (its defaultProvider when this flag is left out)
  --models a,b          models of the provider (default: the config's, else gpt-4o-mini)
  --base-url URL        endpoint of an openai provider
  --api-key-env NAME    environment variable with its API key (default OPENAI_API_KEY)
  --price M=IN/OUT      price of model M in USD per million input/output tokens (repeat for more models); a model
                        without a price (here, in toffee.config.json "prices" or the built-in table) needs
                        --max-calls, since its calls would count as $0
  --config FILE         toffee.config.json to read (default: the one in the working directory, if any)`;

/** Whether any provider flag was given (a resume without them rebuilds the run's recorded providers). */
export function hasProviderFlags(values: ProviderFlagValues): boolean {
  return values.provider !== undefined || values.models !== undefined || values['base-url'] !== undefined || values['api-key-env'] !== undefined || (values.price?.length ?? 0) > 0;
}

export function readCliConfig(values: Pick<ProviderFlagValues, 'config'>): LlmConfig {
  try {
    return loadLlmConfig({ explicitPath: values.config });
  } catch (error) {
    if (error instanceof LlmConfigError) throw new CliError(error.message, 2);
    throw error;
  }
}

/** `--price a=0.5/1.5 --price b=0/0` → overrides. */
export function parsePrices(list: readonly string[] | undefined): Record<string, { inputPerMTok: number; outputPerMTok: number }> {
  const prices: Record<string, { inputPerMTok: number; outputPerMTok: number }> = {};
  for (const text of list ?? []) {
    const match = /^(.+?)=([0-9]*\.?[0-9]+(?:e-?\d+)?)\/([0-9]*\.?[0-9]+(?:e-?\d+)?)$/i.exec(text.trim());
    if (!match) throw new CliError(`--price must be MODEL=INPUT/OUTPUT in USD per million tokens (e.g. my-model=0.5/1.5), not '${text}'`, 2);
    prices[match[1]] = { inputPerMTok: Number(match[2]), outputPerMTok: Number(match[3]) };
  }
  return prices;
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function flagsOf(setting: RecordedProvider, configFile: string | undefined): string {
  const parts = [`--provider ${shellWord(setting.provider ?? setting.id)}`];
  if (setting.id === OFFLINE_SIM_PROVIDER_ID) return parts.join(' ');
  if (configFile) parts.push(`--config ${shellWord(configFile)}`);
  if (setting.baseUrl) parts.push(`--base-url ${shellWord(setting.baseUrl)}`);
  if (setting.models?.length) parts.push(`--models ${shellWord(setting.models.join(','))}`);
  if (setting.apiKeyEnv) parts.push(`--api-key-env ${shellWord(setting.apiKeyEnv)}`);
  for (const [model, price] of Object.entries(setting.prices ?? {})) parts.push(`--price ${shellWord(`${model}=${price.inputPerMTok}/${price.outputPerMTok}`)}`);
  return parts.join(' ');
}

/** What the flags and the config set up, as a run records it. */
export function providerSettingsFromFlags(values: ProviderFlagValues, config: LlmConfig): RecordedProvider[] {
  const name = values.provider ?? config.defaultProvider ?? OFFLINE_SIM_PROVIDER_ID;
  const flagPrices = parsePrices(values.price);
  if (name === OFFLINE_SIM_PROVIDER_ID) {
    if (values.models || values['base-url'] || values['api-key-env']) throw new CliError('--models, --base-url and --api-key-env go with --provider openai or a provider of toffee.config.json, not offline-sim', 2);
    return [{ id: OFFLINE_SIM_PROVIDER_ID, provider: OFFLINE_SIM_PROVIDER_ID, flags: '--provider offline-sim' }];
  }
  const entry = config.providers?.[name];
  if (!entry && name !== 'openai') {
    const known = Object.keys(config.providers ?? {});
    throw new CliError(`unknown provider '${name}'; use offline-sim, openai${known.length ? `, or one of toffee.config.json's: ${known.join(', ')}` : ` or a provider defined in ${CONFIG_FILE_NAME}`}`, 2);
  }
  const models = values.models !== undefined ? values.models.split(',').map((m) => m.trim()).filter(Boolean) : entry?.models ?? (config.defaultModel ? [config.defaultModel] : ['gpt-4o-mini']);
  if (models.length === 0) throw new CliError('--models names no model', 2);
  // Every price the run uses, recorded so a resume elsewhere (without the config) prices the same.
  const configPrices = (config.prices ?? {}) as Record<string, PriceOverride>;
  const prices: NonNullable<RecordedProvider['prices']> = {};
  for (const model of models) {
    const override = flagPrices[model] ?? configPrices[model];
    if (override?.inputPerMTok !== undefined && override.outputPerMTok !== undefined) prices[model] = { inputPerMTok: override.inputPerMTok, outputPerMTok: override.outputPerMTok };
  }
  for (const [model, price] of Object.entries(flagPrices)) if (!models.includes(model)) prices[model] = price;
  const setting: RecordedProvider = {
    id: name,
    provider: name,
    baseUrl: (values['base-url'] ?? entry?.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, ''),
    models,
    apiKeyEnv: values['api-key-env'] ?? entry?.apiKeyEnv ?? 'OPENAI_API_KEY',
    ...(entry?.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
    ...(entry?.maxRetries !== undefined ? { maxRetries: entry.maxRetries } : {}),
    ...(Object.keys(prices).length ? { prices } : {}),
  };
  setting.flags = flagsOf({ ...setting, prices: Object.fromEntries(Object.entries(prices).filter(([m]) => flagPrices[m])) }, entry ? values.config : undefined);
  return [setting];
}

/** The providers a recorded (or freshly parsed) setting describes; `models` replaces its models (judge, reviser). */
export function providersFromSettings(settings: readonly RecordedProvider[], config: LlmConfig, models?: string[]): LlmProvider[] {
  return settings.map((setting) => {
    if (setting.id === OFFLINE_SIM_PROVIDER_ID) return createSimulatedProvider();
    const overrides = {
      baseUrl: setting.baseUrl,
      apiKeyEnv: setting.apiKeyEnv,
      models: models ?? setting.models,
      timeoutMs: setting.timeoutMs,
      maxRetries: setting.maxRetries,
      priceOverrides: { ...((config.prices ?? {}) as Record<string, PriceOverride>), ...(setting.prices ?? {}) },
    };
    const name = setting.provider ?? setting.id;
    if (config.providers?.[name]) return createProviderFromConfig(config, name, overrides);
    return createOpenAiProvider({ id: setting.id, ...overrides });
  });
}

/** The providers a command's flags (and toffee.config.json) name. */
export function providersFromFlags(values: ProviderFlagValues): LlmProvider[] {
  const config = readCliConfig(values);
  return providersFromSettings(providerSettingsFromFlags(values, config), config);
}
