export { VsCodeLmProvider, type VsCodeLmProviderOptions } from './VsCodeLmProvider';
export {
  apiKeySecretName,
  createProviderFromSettings,
  getApiKey,
  readLlmSettings,
  registerLlmCommands,
  type LlmLog,
  type LlmProviderSetting,
  type LlmSettings,
} from './llmCommands';
