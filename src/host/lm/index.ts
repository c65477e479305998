export { createVsCodeLmProvider, VsCodeLmProvider, type VsCodeLmProviderOptions } from './VsCodeLmProvider';
export {
  apiKeySecretName,
  createProviderFromSettings,
  getApiKey,
  openAiProviderFromSettings,
  readLlmSettings,
  registerLlmCommands,
  type LlmLog,
  type LlmProviderSetting,
  type LlmSettings,
} from './llmCommands';
