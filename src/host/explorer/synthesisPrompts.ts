/**
 * The questions "TOFFEE: Synthesize Trajectories" asks: which models (one list: the simulated models, each VS Code
 * language model, the OpenAI-compatible endpoint of the settings), how many tasks, and the budget per task with
 * the total it allows (simulated spend is not charged, and says so). Answers are remembered per workspace.
 */
import * as vscode from 'vscode';
import { isLocalEndpoint } from '../../core/llm/openaiProvider';
import { SIM_MODELS } from '../../core/sim/models';
import type { LlmProvider } from '../../core/llm/types';
import { createProviderFromSettings, createVsCodeLmProvider, getApiKey, openAiProviderFromSettings, readLlmSettings } from '../lm';
import { log } from '../log';

/** Where the agent's models come from. 'settings': whatever `toffee.llm.provider` says (automation, old presets). */
export type ModelSource = 'offline-sim' | 'vscode-lm' | 'openai-compatible' | 'settings';

export interface SynthesisChoices {
  provider: ModelSource;
  /** For 'vscode-lm': the chat model's id (default: every chat model VS Code offers). */
  model?: string;
  tasks: number;
  budgetUsd: number;
}

const CHOICES_KEY = 'toffee.synthesize.lastChoices';
export const DEFAULT_CHOICES: SynthesisChoices = { provider: 'offline-sim', tasks: 8, budgetUsd: 0.05 };

type ModelItem = vscode.QuickPickItem & { source?: ModelSource; model?: string; unavailable?: string };

async function chatModels(): Promise<vscode.LanguageModelChat[]> {
  // Hosts without the language model API (older forks) have none.
  if (typeof vscode.lm?.selectChatModels !== 'function') return [];
  try {
    return await vscode.lm.selectChatModels({});
  } catch {
    return [];
  }
}

async function modelItems(context: vscode.ExtensionContext): Promise<ModelItem[]> {
  const settings = readLlmSettings();
  const hasKey = Boolean(await getApiKey(context, settings.baseUrl));
  const local = isLocalEndpoint(settings.baseUrl);
  const models = await chatModels();
  const items: ModelItem[] = [
    {
      label: '$(beaker) Simulated models',
      description: `${SIM_MODELS.map((m) => m.spec.id).join(', ')} · free, offline, no key`,
      detail: 'Replay each task’s reference solution with realistic mistakes; marked simulated.',
      source: 'offline-sim',
    },
  ];
  if (models.length) {
    for (const model of models) {
      items.push({ label: `$(sparkle) ${model.name}`, description: `VS Code language model · ${model.vendor}`, detail: 'VS Code asks for consent once; spend counts at the API list price.', source: 'vscode-lm', model: model.id });
    }
  } else {
    items.push({
      label: '$(sparkle) VS Code language models',
      description: 'none in this window',
      detail: 'Sign in to a chat model provider (e.g. GitHub Copilot) to use its models.',
      source: 'vscode-lm',
      unavailable: 'No VS Code language model is available in this window: install and sign in to a chat model provider such as GitHub Copilot, or choose another source.',
    });
  }
  items.push(
    {
      label: '$(globe) OpenAI-compatible endpoint',
      description: `${settings.baseUrl} · ${hasKey ? 'key stored' : local ? 'local, no key needed' : 'no key yet'}`,
      detail: settings.models.length || settings.model ? `models: ${(settings.models.length ? settings.models : [settings.model]).join(', ')}` : 'models: those the endpoint lists (toffee.llm.models narrows them)',
      source: 'openai-compatible',
      unavailable: hasKey || local ? undefined : `No API key is stored for ${settings.baseUrl}. Run "TOFFEE: Set API Key" first.`,
    },
  );
  return items;
}

async function askModels(context: vscode.ExtensionContext, last: SynthesisChoices): Promise<Pick<SynthesisChoices, 'provider' | 'model'> | undefined> {
  const items = await modelItems(context);
  const configured = readLlmSettings().provider;
  const preferred = last.provider === 'settings' ? configured : last.provider;
  const picked = await new Promise<ModelItem | undefined>((resolve) => {
    const quickPick = vscode.window.createQuickPick<ModelItem>();
    quickPick.title = 'TOFFEE: Synthesize Trajectories (1/3): which models play the agent';
    quickPick.placeholder = 'The cost model chooses among the models of the source you pick, per step';
    quickPick.items = items;
    quickPick.matchOnDescription = true;
    const active = items.find((i) => i.source === preferred && (preferred !== 'vscode-lm' || !last.model || i.model === last.model));
    if (active) quickPick.activeItems = [active];
    quickPick.onDidAccept(() => {
      resolve(quickPick.selectedItems[0]);
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
  if (!picked?.source) return undefined;
  if (picked.unavailable) {
    const setKey = picked.source === 'openai-compatible' ? 'Set API Key' : undefined;
    void vscode.window.showWarningMessage(`TOFFEE: ${picked.unavailable}`, ...(setKey ? [setKey] : [])).then((choice) => choice && vscode.commands.executeCommand('toffee.setApiKey'));
    return undefined;
  }
  return { provider: picked.source, model: picked.model };
}

/** The total a budget allows, in words: simulated spend is counted like a real model's but never charged. */
export function budgetTotal(tasks: number, budgetUsd: number, simulated: boolean): string {
  const total = `$${(tasks * budgetUsd).toFixed(tasks * budgetUsd < 1 ? 3 : 2)}`;
  return simulated
    ? `At most ${total} of simulated spend for ${tasks} task${tasks === 1 ? '' : 's'}; nothing is charged.`
    : `At most ${total} in total for ${tasks} task${tasks === 1 ? '' : 's'}, charged by your provider at its prices.`;
}

/** Models, number of tasks and budget per task; the answers are remembered per workspace. */
export async function askSynthesisChoices(context: vscode.ExtensionContext): Promise<SynthesisChoices | undefined> {
  const last = { ...DEFAULT_CHOICES, ...context.workspaceState.get<Partial<SynthesisChoices>>(CHOICES_KEY) };
  const models = await askModels(context, last);
  if (!models) return undefined;
  const simulated = models.provider === 'offline-sim' || (models.provider === 'settings' && readLlmSettings().provider === 'offline-sim');
  const tasksText = await vscode.window.showInputBox({
    title: 'TOFFEE: Synthesize Trajectories (2/3): number of tasks',
    prompt: 'Tasks to explore, picked across the task families of the pool (built first from the data)',
    value: String(last.tasks),
    validateInput: (text) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 1000 ? undefined : 'A whole number from 1 to 1000'),
  });
  if (tasksText === undefined) return undefined;
  const tasks = Number(tasksText);
  const budgetText = await vscode.window.showInputBox({
    title: simulated ? 'TOFFEE: Synthesize Trajectories (3/3): budget per task (simulated prices: nothing is charged)' : 'TOFFEE: Synthesize Trajectories (3/3): budget per task, USD',
    prompt: simulated
      ? 'The search on a task stops when its simulated spend reaches this: more budget, more trajectories per task (0.05 gives about 3).'
      : 'The search on a task stops when its spend reaches this, in US dollars at your provider’s prices.',
    value: String(last.budgetUsd),
    validateInput: (text) => {
      const value = Number(text);
      if (!(Number.isFinite(value) && value > 0)) return 'A positive number of US dollars, e.g. 0.05';
      return { message: budgetTotal(tasks, value, simulated), severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  if (budgetText === undefined) return undefined;
  const choices: SynthesisChoices = { ...models, tasks, budgetUsd: Number(budgetText) };
  await context.workspaceState.update(CHOICES_KEY, choices);
  return choices;
}

/** The providers the choices name; undefined for the simulated models (the pipeline's default). */
export async function providersFor(context: vscode.ExtensionContext, choices: SynthesisChoices): Promise<LlmProvider[] | undefined> {
  const settings = readLlmSettings();
  const llmLog = { info: (m: string) => log().info(m), error: (m: string) => log().error(m) };
  if (choices.provider === 'settings') {
    const provider = await createProviderFromSettings(context, llmLog);
    return provider ? [provider] : undefined;
  }
  if (choices.provider === 'offline-sim') return undefined;
  if (choices.provider === 'vscode-lm') {
    // Wrapped in the retry with backoff every provider gets (llm/retry.ts).
    return [createVsCodeLmProvider({ priceOverrides: settings.prices, timeoutMs: settings.timeoutMs, ...(choices.model ? { selector: { id: choices.model } } : {}) }, llmLog.info)];
  }
  return [openAiProviderFromSettings(settings, await getApiKey(context, settings.baseUrl), llmLog)];
}
