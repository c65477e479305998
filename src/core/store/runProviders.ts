/**
 * The models a run explores with, as run.json and run/started record them (never a key: a provider names the
 * environment variable that holds it), and the check that a resume continues on the same models. A run started on
 * real models and resumed without its provider flags would otherwise go on with the simulated ones.
 */
import type { RecordedProvider } from './vocabulary';

/** One provider as a run records it (its fields are the event vocabulary's, since run/started carries it). */
export type { RecordedProvider };

/** What a run's config says about its models. */
export interface RunModelsConfig {
  providers?: string[];
  /** `provider/model` of every arm model. */
  models?: string[];
  providerSettings?: RecordedProvider[];
}

export class ResumeProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResumeProviderError';
  }
}

/** The config fields a new run records about its models. */
export function modelsConfig(providers: readonly { id: string }[], models: readonly { provider: string; id: string }[], settings?: readonly RecordedProvider[]): Required<Pick<RunModelsConfig, 'providers' | 'models'>> & RunModelsConfig {
  return {
    providers: providers.map((p) => p.id),
    models: models.map((m) => `${m.provider}/${m.id}`),
    ...(settings && settings.length > 0 ? { providerSettings: settings.map((s) => ({ ...s })) } : {}),
  };
}

/** The flags a resume needs to continue on the run's models. */
export function resumeFlags(config: RunModelsConfig): string {
  const recorded = config.providerSettings?.map((s) => s.flags).filter((f): f is string => !!f);
  if (recorded && recorded.length > 0) return recorded.join(' ');
  return (config.providers ?? []).map((id) => `--provider ${id}`).join(' ');
}

/**
 * Throws ResumeProviderError when the resume's providers or models differ from the run's. Runs recorded before
 * models were recorded are checked by provider id only.
 */
export function checkResumeProviders(config: RunModelsConfig | undefined, providers: readonly { id: string }[], models: readonly { provider: string; id: string }[]): void {
  if (!config?.providers) return;
  const now = modelsConfig(providers, models);
  const sameProviders = JSON.stringify([...config.providers].sort()) === JSON.stringify([...now.providers].sort());
  const sameModels = !config.models || JSON.stringify([...config.models].sort()) === JSON.stringify([...now.models].sort());
  if (sameProviders && sameModels) return;
  const describe = (c: RunModelsConfig) => `${(c.providers ?? []).join(', ')}${c.models ? ` (${c.models.join(', ')})` : ''}`;
  throw new ResumeProviderError(
    `this run was started on ${describe(config)}, and this resume would continue on ${describe(now)}. ` +
      `Resume it on the run's own models: toffee synthesize --resume <runDir> ${resumeFlags(config)}` +
      `${config.providerSettings?.some((s) => s.apiKeyEnv) ? ` (with the key in ${config.providerSettings.filter((s) => s.apiKeyEnv).map((s) => s.apiKeyEnv).join(', ')})` : ''}, ` +
      'or with no provider flags at all (the CLI then rebuilds the recorded providers).',
  );
}
