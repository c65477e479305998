import * as vscode from 'vscode';
import { endpointKey } from '../../core/llm/endpointLimiter';
import { redactSecrets } from '../../core/llm/errors';
import { createOpenAiProvider, DEFAULT_OPENAI_BASE_URL } from '../../core/llm/openaiProvider';
import type { PriceOverride } from '../../core/llm/pricing';
import type { LlmProvider } from '../../core/llm/types';
import { createVsCodeLmProvider } from './VsCodeLmProvider';

/** Anything with info/error, e.g. a LogOutputChannel. Lines reaching it never contain a key. */
export interface LlmLog {
  info(message: string): void;
  error(message: string): void;
}

/** One secret per endpoint, so an OpenRouter key is never sent to another gateway. */
export function apiKeySecretName(baseUrl: string): string {
  return `toffee.apiKey:${endpointKey(baseUrl)}`;
}

/** The stored key for a base URL (from "TOFFEE: Set API Key"), or undefined. */
export async function getApiKey(context: vscode.ExtensionContext, baseUrl: string): Promise<string | undefined> {
  return (await context.secrets.get(apiKeySecretName(baseUrl))) || undefined;
}

export type LlmProviderSetting = 'offline-sim' | 'openai-compatible' | 'vscode-lm';

/** The `toffee.llm.*` settings (the key itself is never a setting). */
export interface LlmSettings {
  provider: LlmProviderSetting;
  baseUrl: string;
  model: string;
  models: string[];
  extraHeaders: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  requestsPerMinute: number;
  prices: Record<string, PriceOverride>;
}

export function readLlmSettings(): LlmSettings {
  const config = vscode.workspace.getConfiguration('toffee.llm');
  return {
    provider: config.get<LlmProviderSetting>('provider', 'offline-sim'),
    baseUrl: config.get<string>('baseUrl', DEFAULT_OPENAI_BASE_URL) || DEFAULT_OPENAI_BASE_URL,
    model: config.get<string>('model', ''),
    models: config.get<string[]>('models', []),
    extraHeaders: config.get<Record<string, string>>('extraHeaders', {}),
    timeoutMs: config.get<number>('timeoutMs', 120_000),
    maxRetries: config.get<number>('maxRetries', 4),
    concurrency: config.get<number>('concurrency', 4),
    requestsPerMinute: config.get<number>('requestsPerMinute', 0),
    prices: config.get<Record<string, PriceOverride>>('prices', {}),
  };
}

/**
 * The real provider the settings select, with its key from SecretStorage; undefined for 'offline-sim'
 * (the caller uses the simulated provider from core/sim).
 */
export async function createProviderFromSettings(context: vscode.ExtensionContext, log: LlmLog): Promise<LlmProvider | undefined> {
  const settings = readLlmSettings();
  if (settings.provider === 'vscode-lm') {
    return createVsCodeLmProvider({ priceOverrides: settings.prices, timeoutMs: settings.timeoutMs }, (line) => log.info(line));
  }
  if (settings.provider !== 'openai-compatible') return undefined;
  return openAiProviderFromSettings(settings, await getApiKey(context, settings.baseUrl), log);
}

/** The OpenAI-compatible provider the `toffee.llm.*` settings describe, with the key from SecretStorage. */
export function openAiProviderFromSettings(settings: LlmSettings, apiKey: string | undefined, log: LlmLog): LlmProvider {
  return createOpenAiProvider({
    id: 'openai-compatible',
    baseUrl: settings.baseUrl,
    apiKey,
    // No environment fallback in the extension: keys come from SecretStorage only.
    env: {},
    headers: settings.extraHeaders,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    concurrency: settings.concurrency,
    requestsPerMinute: settings.requestsPerMinute,
    models: settings.models.length > 0 ? settings.models : settings.model ? [settings.model] : undefined,
    priceOverrides: settings.prices,
    log: (line) => log.info(line),
  });
}

/**
 * Registers "TOFFEE: Set API Key" (toffee.setApiKey). The key goes to context.secrets only and is never logged.
 * Returns the registration, to dispose with the extension.
 */
export function registerLlmCommands(context: vscode.ExtensionContext, log: LlmLog): vscode.Disposable {
  return vscode.commands.registerCommand('toffee.setApiKey', async (baseUrlArgument?: unknown) => {
      const configured = readLlmSettings().baseUrl;
      const baseUrl =
        typeof baseUrlArgument === 'string' && baseUrlArgument
          ? baseUrlArgument
          : await vscode.window.showInputBox({
              title: 'TOFFEE: Set API Key (1/2)',
              prompt: 'Base URL of the OpenAI-compatible endpoint this key is for',
              value: configured,
              ignoreFocusOut: true,
              validateInput: (value) => (isHttpUrl(value) ? undefined : 'Enter an http(s) URL such as https://api.openai.com/v1'),
            });
      if (!baseUrl) return;
      const key = await vscode.window.showInputBox({
        title: 'TOFFEE: Set API Key (2/2)',
        prompt: `API key for ${baseUrl} — stored in VS Code's secret storage, never in settings. Leave empty to remove the stored key.`,
        password: true,
        ignoreFocusOut: true,
        placeHolder: 'sk-…',
      });
      if (key === undefined) return;
      const name = apiKeySecretName(baseUrl);
      try {
        if (key.trim() === '') {
          await context.secrets.delete(name);
          log.info(`API key removed for ${endpointKey(baseUrl)}`);
          void vscode.window.showInformationMessage(`TOFFEE: API key removed for ${baseUrl}.`);
          return;
        }
        await context.secrets.store(name, key.trim());
        log.info(`API key stored for ${endpointKey(baseUrl)}`);
        void vscode.window.showInformationMessage(`TOFFEE: API key saved for ${baseUrl}.`);
      } catch (error) {
        const message = redactSecrets(error instanceof Error ? error.message : String(error), [key]);
        log.error(`Could not store the API key for ${endpointKey(baseUrl)}: ${message}`);
        void vscode.window.showErrorMessage(`TOFFEE: could not store the API key: ${message}`);
      }
    });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
