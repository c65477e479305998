import * as path from 'node:path';
import * as vscode from 'vscode';
import { synthesize, type SynthesisSummary } from '../../core/run/synthesize';
import { EXPANSION_SCHEDULES, type ExpansionSchedule } from '../../core/explorer/waves';
import { isRunFolder, newRunId, runsDir } from '../../core/store';
import type { LlmProvider } from '../../core/llm/types';
import { createSimulatedProvider } from '../../core/sim/index';
import { collectRun, enqueueRun } from '../../core/scale/coordinator';
import { checkRedis, connectRedis } from '../../core/scale/queue';
import { describeError, log } from '../log';
import { ExplorerPanel } from './ExplorerPanel';
import { registerLiveRun, registerRunStopper, runningRuns, stopRun } from './liveRuns';
import { runDirFromArgument } from './runArguments';
import { runChanged } from './runActivity';
import { askSynthesisChoices, DEFAULT_CHOICES, providersFor, type SynthesisChoices } from './synthesisPrompts';
import type { PoolProgressView } from '../../shared/protocol';
import type { StoredRunEvent } from '../../core/store/events';
import type { TaskCounts } from '../../core/run/inFlight';

/**
 * Queue mode (`toffee.queue.redisUrl`): the run folder is created here and one job per task goes to Redis;
 * `toffee worker` processes explore them and this window collects the results into the run folder, which the
 * explorer panel follows exactly as it follows a local run.
 */
async function synthesizeThroughQueue(
  redisUrl: string,
  limits: { requestsPerMinute: number; tokensPerMinute: number },
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
      requestsPerMinute: perProvider(providers, limits.requestsPerMinute),
      tokensPerMinute: perProvider(providers, limits.tokensPerMinute),
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

/** The status bar's task figures: done / in flight / queued. */
export function formatTaskCounts(counts: TaskCounts): string {
  return `tasks ${counts.done} done / ${counts.inFlight} in flight / ${counts.queued} queued`;
}

export interface SynthesisParams {
  folder: string;
  runDir: string;
  /** Continue the run in `runDir` instead of creating it. */
  resume?: boolean;
  tasks?: number;
  budgetUsd?: number;
  providers?: LlmProvider[];
}

/** What ended a synthesis started from this window. */
export type SynthesisOutcome = 'finished' | 'cancelled' | 'failed';

/** "TOFFEE: Resume Run" on an interrupted or cancelled run: the pipeline replays it from its events and continues. */
export async function resumeSynthesis(context: vscode.ExtensionContext, folder: string, runDir: string): Promise<SynthesisOutcome> {
  if (!statusItem) throw new Error('the synthesis command is not registered');
  return runSynthesis(context, statusItem, { folder, runDir, resume: true });
}

/** Counts for the status bar, kept from the run's own events as the pipeline appends them. */
interface RunTally {
  tasks: number;
  finishedTasks: number;
  verified: number;
  spentUsd: number;
}

function tallyEvent(tally: RunTally, event: StoredRunEvent): void {
  if (event.type === 'task/added') tally.tasks++;
  else if (event.type === 'task/finished') tally.finishedTasks++;
  else if (event.type === 'trajectory/admitted' && (event as { verified?: boolean }).verified) tally.verified++;
  else if (event.type === 'budget/spent') tally.spentUsd += (event as { costUsd: number }).costUsd;
}

function poolLine(pool: PoolProgressView): string {
  if (pool.phase === 'loading') return 'loading the data';
  if (pool.phase === 'families') return `task families ${pool.familiesDone}/${pool.familiesTotal} · ${pool.candidates} candidates`;
  if (pool.phase === 'validating') return `checking candidates ${pool.checked}/${pool.candidates} · ${pool.valid} valid`;
  return `${pool.selected ?? 0} tasks selected from ${pool.valid} valid`;
}

/**
 * One synthesis from this window: the explorer panel opens at once (on a run not created yet, it shows the task
 * pool being built), a status-bar item follows the run, the progress notification and the panel's Stop button both
 * cancel it, and every change of the run's state reaches the views as a run change (runActivity.ts).
 */
async function runSynthesis(context: vscode.ExtensionContext, status: vscode.StatusBarItem, params: SynthesisParams): Promise<SynthesisOutcome> {
  const runDir = path.resolve(params.runDir);
  const abort = new AbortController();
  const unregisterStopper = registerRunStopper(runDir, () => abort.abort());
  const tally: RunTally = { tasks: 0, finishedTasks: 0, verified: 0, spentUsd: 0 };
  let unregisterLiveRun: (() => void) | undefined;
  let listening: { dispose(): void } | undefined;
  const panel = (): ExplorerPanel | undefined => ExplorerPanel.find(runDir);
  const show = (text: string, tooltip: string, command: vscode.Command) => {
    status.text = text;
    status.tooltip = tooltip;
    status.command = command;
    status.show();
  };
  const openCommand = { command: 'toffee.openRun', title: 'Open the run', arguments: [runDir] };
  const folderName = path.basename(params.folder);
  try {
    if (params.resume) ExplorerPanel.show(context.extensionUri, runDir);
    else ExplorerPanel.showPending(context.extensionUri, runDir, params.folder);
  } catch (error) {
    log().warn(`Could not open the explorer panel: ${describeError(error)}`);
  }
  let pool: PoolProgressView = { phase: 'loading', familiesDone: 0, familiesTotal: 0, candidates: 0, checked: 0, valid: 0, rejected: 0, folder: params.folder };
  let poolPosted = 0;
  const postPool = (next: PoolProgressView, force = false) => {
    pool = next;
    // At most ten updates a second reach the panel; the last one always does.
    if (!force && Date.now() - poolPosted < 100) return;
    poolPosted = Date.now();
    panel()?.setPool(pool);
    show(`$(sync~spin) TOFFEE: ${poolLine(pool)}`, `Building the task pool for ${params.folder}`, openCommand);
  };
  // Tasks done / in flight / queued, from the pipeline as tasks start and end (several explore at once).
  let tasks: TaskCounts | undefined;
  const showRunning = () =>
    show(
      `$(beaker) TOFFEE ${tasks ? formatTaskCounts(tasks) : `${tally.finishedTasks}/${tally.tasks} tasks`} · ${tally.verified} verified · $${tally.spentUsd.toFixed(4)}`,
      `Synthesizing on ${folderName}: ${tally.finishedTasks} of ${tally.tasks} tasks explored${tasks ? ` (${tasks.inFlight} exploring now, ${tasks.queued} waiting)` : ''}, ${tally.verified} verified trajectories, $${tally.spentUsd.toFixed(4)} spent. Click to open the run.`,
      openCommand,
    );
  if (!params.resume) postPool(pool, true);
  runChanged(runDir, params.resume ? 'resuming' : 'preparing');
  try {
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: params.resume ? `TOFFEE: resuming the run on ${folderName}` : `TOFFEE: synthesizing trajectories on ${folderName}`, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        const onProgress = (line: string) => {
          progress.report({ message: line });
          log().info(line);
        };
        const redisUrl = vscode.workspace.getConfiguration('toffee.queue').get<string>('redisUrl', '').trim();
        if (redisUrl && !params.resume) {
          return synthesizeThroughQueue(redisUrl, queueLimits(), params, abort.signal, onProgress);
        }
        const synthesis = vscode.workspace.getConfiguration('toffee.synthesis');
        const limits = queueLimits();
        const providers = params.providers ?? [createSimulatedProvider()];
        return synthesize({
          folder: params.folder,
          tasks: params.tasks,
          budgetUsd: params.budgetUsd,
          providers,
          concurrency: Math.max(1, Math.floor(synthesis.get<number>('concurrency', 4))),
          ...expansionScheduleSetting(synthesis.get<string>('expansionSchedule', 'sequential')),
          requestsPerMinute: perProvider(providers, limits.requestsPerMinute),
          tokensPerMinute: perProvider(providers, limits.tokensPerMinute),
          onTasks: (counts) => {
            tasks = counts;
            showRunning();
          },
          ...(params.resume ? { resumeDir: runDir } : { outDir: runDir }),
          signal: abort.signal,
          onPoolProgress: (counts) => postPool({ ...pool, ...counts }, counts.phase === 'selected'),
          // Curation from the panel goes through the pipeline's own store while the run goes on (one writer).
          onStore: (store) => {
            unregisterLiveRun = registerLiveRun(store);
            tally.tasks = store.state.tasks.size;
            tally.finishedTasks = store.state.finishedTasks.size;
            tally.verified = [...store.state.trajectories.values()].filter((t) => t.verified).length;
            tally.spentUsd = store.state.spend.totalUsd;
            listening = store.onEvent((event) => {
              tallyEvent(tally, event);
              if (STATUS_EVENTS.has(event.type)) {
                showRunning();
                runChanged(runDir, event.type);
              }
            });
            panel()?.runStarted();
            showRunning();
            runChanged(runDir, 'started');
          },
          onProgress,
        });
      },
    );
    const stopped = (summary as Partial<SynthesisSummary>).stopped;
    if (stopped) {
      // Every model call failing (or the call cap) must not look like a finished run.
      const message = `Run ${summary.runId} stopped: ${stopped.message}`;
      log().error(message);
      panel()?.notice('error', message);
      show('$(error) TOFFEE: run stopped', message, { command: 'toffee.showLog', title: 'Show the log' });
      void vscode.window.showErrorMessage(`TOFFEE: ${message}`);
      return 'failed';
    }
    const outcome: SynthesisOutcome = summary.cancelled ? 'cancelled' : 'finished';
    const line = `${summary.verifiedTrajectories} verified trajectories, $${summary.costUsd.toFixed(4)}`;
    if (outcome === 'cancelled') {
      // No toast: a notification would outlive a resume. The status bar and the views say it, and offer the resume.
      show(`$(debug-pause) TOFFEE: cancelled (${tally.finishedTasks}/${tally.tasks} tasks)`, `Run ${summary.runId} on ${folderName} was cancelled: ${line}. Click to resume it.`, {
        command: 'toffee.resumeRun',
        title: 'Resume the run',
        arguments: [runDir],
      });
    } else {
      show(`$(pass) TOFFEE: ${summary.verifiedTrajectories} verified · $${summary.costUsd.toFixed(4)}`, `Run ${summary.runId} on ${folderName} finished: ${line}. Click to open it.`, openCommand);
      void vscode.window.showInformationMessage(`TOFFEE: the run on ${folderName} finished: ${line}.`, 'Open Run', 'Export Trajectories…').then((choice) => {
        if (choice === 'Open Run') void vscode.commands.executeCommand('toffee.openRun', runDir);
        if (choice === 'Export Trajectories…') void vscode.commands.executeCommand('toffee.exportTrajectories', runDir);
      });
    }
    return outcome;
  } catch (error) {
    if (abort.signal.aborted) {
      // Cancelled while the task pool was built: the run folder was never created.
      postPool({ ...pool, outcome: 'cancelled', message: 'Cancelled while the task pool was built; nothing was written.' }, true);
      show('$(debug-pause) TOFFEE: cancelled', `The synthesis on ${folderName} was cancelled before its run started.`, openCommand);
      log().info(`Synthesis on ${params.folder} cancelled before the run started`);
      return 'cancelled';
    }
    log().error(`Synthesis failed: ${describeError(error)}`);
    const message = `The synthesis failed: ${describeError(error)}`;
    if (isRunFolder(runDir)) panel()?.notice('error', message);
    else postPool({ ...pool, outcome: 'failed', message }, true);
    show('$(error) TOFFEE: synthesis failed', message, { command: 'toffee.showLog', title: 'Show the log' });
    void vscode.window.showErrorMessage(`TOFFEE: ${message}`, 'Show Log').then((choice) => choice && vscode.commands.executeCommand('toffee.showLog'));
    return 'failed';
  } finally {
    listening?.dispose();
    unregisterLiveRun?.();
    unregisterStopper();
    runChanged(runDir, 'ended');
  }
}

/** Run events after which the status bar and the Runs view show new figures. */
const STATUS_EVENTS = new Set(['task/finished', 'trajectory/admitted', 'run/finished', 'run/cancelled', 'run/resumed', 'curation/accepted', 'curation/pruned']);

/** "TOFFEE: Cancel Synthesis": stops a synthesis running in this window (the one on `runDir`, or picks one). */
export function cancelSynthesisCommand(): vscode.Disposable {
  return vscode.commands.registerCommand('toffee.cancelSynthesis', async (argument?: unknown) => {
    const runDir = runDirFromArgument(argument);
    if (runDir) return stopRun(runDir);
    const running = runningRuns();
    if (running.length === 0) {
      void vscode.window.showInformationMessage('TOFFEE: no synthesis is running in this window.');
      return false;
    }
    const picked = running.length === 1 ? running[0] : (await vscode.window.showQuickPick(running.map((dir) => ({ label: path.basename(path.dirname(path.dirname(path.dirname(dir)))), description: path.basename(dir), dir })), { title: 'TOFFEE: Cancel Synthesis' }))?.dir;
    return picked ? stopRun(picked) : false;
  });
}

/** The data folder to synthesize from: the loaded environment (offered first) or one the user picks. */
async function pickDataFolder(environmentRoot: string | undefined): Promise<string | undefined> {
  const browse = async () =>
    (
      await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Synthesize',
        title: 'TOFFEE: Synthesize Trajectories: choose a folder of data files',
        defaultUri: environmentRoot ? vscode.Uri.file(environmentRoot) : vscode.workspace.workspaceFolders?.[0]?.uri,
      })
    )?.[0]?.fsPath;
  if (!environmentRoot) return browse();
  const picked = await vscode.window.showQuickPick(
    [
      { label: `$(database) ${path.basename(environmentRoot)}`, description: 'the loaded data environment', detail: environmentRoot, folder: environmentRoot as string | undefined },
      { label: '$(folder-opened) Choose another folder…', description: '', detail: undefined, folder: undefined },
    ],
    { title: 'TOFFEE: Synthesize Trajectories: data folder' },
  );
  if (!picked) return undefined;
  return picked.folder ?? browse();
}

/**
 * Right-click a folder → "TOFFEE: Synthesize Trajectories": a short quick-pick flow, then the run goes on in the
 * background under a cancellable progress notification; the explorer panel opens at once and shows the task pool
 * being built, then the tree; a status-bar item follows the run.
 */
export function registerSynthesizeCommand(context: vscode.ExtensionContext, environmentRoot: () => string | undefined = () => undefined): vscode.Disposable {
  const status = vscode.window.createStatusBarItem('toffee.synthesis', vscode.StatusBarAlignment.Left, 50);
  status.name = 'TOFFEE synthesis';
  // `preset` (automation, e.g. the integration tests) skips the quick picks; resolves to the run folder when a run
  // ended (finished, cancelled or failed), undefined when none started.
  const command = vscode.commands.registerCommand('toffee.synthesizeTrajectories', async (uri?: vscode.Uri, preset?: Partial<SynthesisChoices>): Promise<string | undefined> => {
    const folder = uri instanceof vscode.Uri ? uri.fsPath : await pickDataFolder(environmentRoot());
    if (!folder) return undefined;
    // The explorer's context menu passes the selected Uris as the second argument: not a preset.
    const isPreset = !!preset && typeof preset === 'object' && !Array.isArray(preset) && !(preset instanceof vscode.Uri);
    const choices = isPreset ? { ...DEFAULT_CHOICES, ...preset } : await askSynthesisChoices(context);
    if (!choices) return undefined;
    let providers;
    try {
      providers = await providersFor(context, choices);
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

/** The `toffee.synthesis.expansionSchedule` setting; a value VS Code's schema check let through but no schedule has is the default. */
function expansionScheduleSetting(value: string): { expansionSchedule?: ExpansionSchedule } {
  return (EXPANSION_SCHEDULES as readonly string[]).includes(value) && value !== 'sequential' ? { expansionSchedule: value as ExpansionSchedule } : {};
}

/** The request and token limits per minute (`toffee.queue.*`; 0 = none), for this window's tasks in flight or the queue. */
function queueLimits(): { requestsPerMinute: number; tokensPerMinute: number } {
  const queue = vscode.workspace.getConfiguration('toffee.queue');
  return { requestsPerMinute: queue.get<number>('requestsPerMinute', 0), tokensPerMinute: queue.get<number>('tokensPerMinute', 0) };
}

/** One limit for every provider of the run; none (an empty record) for 0 or a value that is not a positive number. */
function perProvider(providers: readonly LlmProvider[], limit: number): Record<string, number> {
  return typeof limit === 'number' && limit > 0 ? Object.fromEntries(providers.map((p) => [p.id, limit])) : {};
}
