import * as path from 'node:path';
import * as vscode from 'vscode';
import { synthesize } from '../../core/run/synthesize';
import { isRunFolder, newRunId, runsDir } from '../../core/store';
import type { LlmProvider } from '../../core/llm/types';
import { createSimulatedProvider } from '../../core/sim/index';
import { collectRun, enqueueRun } from '../../core/scale/coordinator';
import { checkRedis, connectRedis } from '../../core/scale/queue';
import { createProviderFromSettings } from '../lm';
import { describeError, log } from '../log';
import { ExplorerPanel } from './ExplorerPanel';
import { registerLiveRun } from './liveRuns';

interface SynthesisChoices {
  provider: 'offline-sim' | 'settings';
  tasks: number;
  budgetUsd: number;
}

const CHOICES_KEY = 'toffee.synthesize.lastChoices';
const DEFAULT_CHOICES: SynthesisChoices = { provider: 'offline-sim', tasks: 8, budgetUsd: 0.05 };

/** Provider, number of tasks and budget per task; the answers are remembered per workspace. */
async function askChoices(context: vscode.ExtensionContext): Promise<SynthesisChoices | undefined> {
  const last = { ...DEFAULT_CHOICES, ...context.workspaceState.get<Partial<SynthesisChoices>>(CHOICES_KEY) };
  const configured = vscode.workspace.getConfiguration('toffee.llm').get<string>('provider', 'offline-sim');
  const providerItems = [
    { label: 'Simulated models (offline)', description: 'sim-small / medium / large; no key, trajectories marked simulated', value: 'offline-sim' as const },
    { label: `Models from settings (${configured})`, description: 'toffee.llm.* settings; the key from "TOFFEE: Set API Key"', value: 'settings' as const },
  ];
  const provider = await vscode.window.showQuickPick(
    providerItems.sort((a, b) => (a.value === last.provider ? -1 : b.value === last.provider ? 1 : 0)),
    { title: 'TOFFEE: Synthesize Trajectories (1/3): models' },
  );
  if (!provider) return undefined;
  const tasksText = await vscode.window.showInputBox({
    title: 'TOFFEE: Synthesize Trajectories (2/3): number of tasks',
    value: String(last.tasks),
    validateInput: (text) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 1000 ? undefined : 'A whole number from 1 to 1000'),
  });
  if (tasksText === undefined) return undefined;
  const budgetText = await vscode.window.showInputBox({
    title: 'TOFFEE: Synthesize Trajectories (3/3): budget per task, USD',
    value: String(last.budgetUsd),
    validateInput: (text) => (Number.isFinite(Number(text)) && Number(text) > 0 ? undefined : 'A positive number of US dollars, e.g. 0.05'),
  });
  if (budgetText === undefined) return undefined;
  const choices: SynthesisChoices = { provider: provider.value, tasks: Number(tasksText), budgetUsd: Number(budgetText) };
  await context.workspaceState.update(CHOICES_KEY, choices);
  return choices;
}

async function waitForRunFolder(runDir: string, done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    if (isRunFolder(runDir)) return true;
    if (done()) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}


/**
 * Queue mode (`toffee.queue.redisUrl`): the run folder is created here and one job per task goes to Redis;
 * `toffee worker` processes explore them and this window collects the results into the run folder, which the
 * explorer panel follows exactly as it follows a local run.
 */
async function synthesizeThroughQueue(
  redisUrl: string,
  requestsPerMinute: number,
  params: SynthesisParams,
  signal: AbortSignal,
  onProgress: (line: string) => void,
): Promise<{ runId: string; cancelled: boolean; verifiedTrajectories: number; costUsd: number }> {
  const redis = connectRedis(redisUrl);
  redis.on('error', () => {});
  try {
    await checkRedis(redis, redisUrl);
    const providers = params.providers ?? [createSimulatedProvider()];
    await enqueueRun({
      folder: params.folder,
      redis,
      tasks: params.tasks,
      budgetUsd: params.budgetUsd,
      outDir: params.runDir,
      providers,
      requestsPerMinute: requestsPerMinute > 0 ? Object.fromEntries(providers.map((p) => [p.id, requestsPerMinute])) : {},
      onProgress,
    });
    onProgress(`tasks enqueued at ${redisUrl}; waiting for toffee worker processes`);
    const summary = await collectRun({ runDir: params.runDir, redis, signal, onProgress });
    if (summary.failed.length > 0) throw new Error(`${summary.failed.length} task(s) failed in the workers: ${summary.failed.join(', ')}`);
    return summary;
  } finally {
    redis.disconnect();
  }
}

let statusItem: vscode.StatusBarItem | undefined;

export interface SynthesisParams {
  folder: string;
  runDir: string;
  /** Continue the run in `runDir` instead of creating it. */
  resume?: boolean;
  tasks?: number;
  budgetUsd?: number;
  providers?: LlmProvider[];
}

/** "TOFFEE: Resume Run" on an interrupted run: the pipeline replays it from its events and continues. */
export async function resumeSynthesis(context: vscode.ExtensionContext, folder: string, runDir: string): Promise<void> {
  if (!statusItem) throw new Error('the synthesis command is not registered');
  await runSynthesis(context, statusItem, { folder, runDir, resume: true });
}

async function runSynthesis(context: vscode.ExtensionContext, status: vscode.StatusBarItem, params: SynthesisParams): Promise<void> {
  const runDir = params.runDir;
  let finished = false;
  let panel: ExplorerPanel | undefined;
  let unregisterLiveRun: (() => void) | undefined;
  const tick = setInterval(() => {
    const view = panel?.view;
    if (!view) return;
    const verified = view.trajectoryOrder.filter((id) => view.trajectories[id].verified).length;
    status.text = `$(beaker) TOFFEE $${view.spend.totalUsd.toFixed(4)} · ${verified} verified`;
    status.tooltip = `Run ${view.runId ?? ''}: ${view.nodeCount} nodes, ${view.taskOrder.length} tasks`;
  }, 1000);
  status.text = '$(sync~spin) TOFFEE starting…';
  status.command = 'toffee.openRun';
  status.show();
  void waitForRunFolder(runDir, () => finished).then((exists) => {
    if (!exists) return;
    try {
      panel = ExplorerPanel.show(context.extensionUri, runDir);
    } catch (error) {
      log().warn(`Could not open the explorer panel: ${describeError(error)}`);
    }
  });
  try {
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'TOFFEE: synthesizing trajectories', cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const redisUrl = vscode.workspace.getConfiguration('toffee.queue').get<string>('redisUrl', '').trim();
        if (redisUrl && !params.resume) {
          const rpm = vscode.workspace.getConfiguration('toffee.queue').get<number>('requestsPerMinute', 0);
          return synthesizeThroughQueue(redisUrl, rpm, params, abort.signal, (line) => {
            progress.report({ message: line });
            log().info(line);
          });
        }
        return synthesize({
          folder: params.folder,
          tasks: params.tasks,
          budgetUsd: params.budgetUsd,
          providers: params.providers,
          ...(params.resume ? { resumeDir: runDir } : { outDir: runDir }),
          signal: abort.signal,
          // Curation from the panel goes through the pipeline's own store while the run goes on (one writer).
          onStore: (store) => {
            unregisterLiveRun = registerLiveRun(store);
          },
          onProgress: (line) => {
            progress.report({ message: line });
            log().info(line);
          },
        });
      },
    );
    void vscode.window.showInformationMessage(
      `TOFFEE: run ${summary.runId} ${summary.cancelled ? 'cancelled' : 'finished'}: ${summary.verifiedTrajectories} verified trajectories, $${summary.costUsd.toFixed(4)}.`,
    );
  } catch (error) {
    log().error(`Synthesis failed: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`TOFFEE: synthesis failed: ${describeError(error)}`);
  } finally {
    finished = true;
    unregisterLiveRun?.();
    clearInterval(tick);
    const view = panel?.view;
    const verified = view ? view.trajectoryOrder.filter((id) => view.trajectories[id].verified).length : 0;
    status.text = view ? `$(beaker) TOFFEE $${view.spend.totalUsd.toFixed(4)} · ${verified} verified (done)` : '$(beaker) TOFFEE';
  }
}

/**
 * Right-click a folder → "TOFFEE: Synthesize Trajectories": a short quick-pick flow, then the run goes on in the
 * background under a cancellable progress notification, a status-bar item shows spend and verified count, and
 * the explorer panel opens on the run as soon as its folder exists.
 */
export function registerSynthesizeCommand(context: vscode.ExtensionContext): vscode.Disposable {
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.name = 'TOFFEE synthesis';
  // `preset` (automation, e.g. the integration tests) skips the quick picks; resolves to the run folder when a run started.
  const command = vscode.commands.registerCommand('toffee.synthesizeTrajectories', async (uri?: vscode.Uri, preset?: Partial<SynthesisChoices>): Promise<string | undefined> => {
    const folder = uri?.fsPath ?? (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Synthesize' }))?.[0]?.fsPath;
    if (!folder) return undefined;
    // The explorer's context menu passes the selected Uris as the second argument: not a preset.
    const isPreset = !!preset && typeof preset === 'object' && !Array.isArray(preset) && !(preset instanceof vscode.Uri);
    const choices = isPreset ? { ...DEFAULT_CHOICES, ...preset } : await askChoices(context);
    if (!choices) return undefined;
    let providers;
    try {
      const provider = choices.provider === 'settings' ? await createProviderFromSettings(context, { info: (m) => log().info(m), error: (m) => log().error(m) }) : undefined;
      providers = provider ? [provider] : undefined;
    } catch (error) {
      void vscode.window.showErrorMessage(`TOFFEE: cannot set up the models: ${describeError(error)}`);
      return undefined;
    }
    const runDir = path.join(runsDir(folder), newRunId());
    await runSynthesis(context, status, { folder, tasks: choices.tasks, budgetUsd: choices.budgetUsd, providers, runDir });
    return runDir;
  });
  statusItem = status;
  return vscode.Disposable.from(command, status);
}
