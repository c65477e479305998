import * as fs from 'node:fs';
import * as path from 'node:path';
import { synthesize, type SynthesisSummary } from '../../core/run/synthesize';
import { OFFLINE_SIM_PROVIDER_ID } from '../../core/sim/index';
import type { RecordedProvider, RunModelsConfig } from '../../core/store/runProviders';
import { describeCostModelOrigin, parseCostModelChoice, type CostModelChoice } from '../../core/lcm/location';
import type { LlmProvider } from '../../core/llm/types';
import { formatShard, parseShard, type Shard } from '../../core/run/shard';
import { EXPANSION_SCHEDULES, type ExpansionSchedule } from '../../core/explorer/waves';
import { isRunFolder, readRunMeta } from '../../core/store/runFolder';
import { CliError, parseCommandArgs, resolveRunDir, type CliCommand } from '../command';
import { hasProviderFlags, PROVIDER_FLAG_OPTIONS, PROVIDER_FLAG_USAGE, providersFromFlags, providersFromSettings, providerSettingsFromFlags, readCliConfig } from '../providers';

const USAGE = `Usage: toffee synthesize <folder> [options]
       toffee synthesize --resume <runDir>

Builds tasks for the folder's data, explores each with MCTS over real tool execution (the learned cost model
picks the configs), verifies final answers and writes a run folder (events.jsonl, tasks.jsonl,
trajectories.jsonl). Progress goes to stderr, the summary to stdout.

Options:
  --tasks N             tasks to explore (default 8)
  --budget USD          budget per task in USD (default 0.05)
${PROVIDER_FLAG_USAGE}
  --max-calls N         stop the run after N model calls (resume with a higher N to go on); needed for a model
                        without a price
  --seed S              default 1
  --out DIR             run folder to create (default <folder>/.toffee/runs/<runId>); with a folder outside the
                        data folder, nothing is written into the data folder
  --cost-model C        the learned cost model to start from: environment (default: the data folder's own, saved
                        back only when the run folder is inside the data folder), fresh, or a file (read and saved)
  --resume DIR          continue an interrupted run from its folder, on the models it was started with (without
                        provider flags they are rebuilt from its run.json; other flags are refused)
  --shard i/N           only the tasks of shard i of N (0-based; a stable hash of the task id); with --out, a
                        re-run on the same folder skips the tasks already finished there. Combine the shards'
                        folders with toffee merge
  --concurrency C       tasks explored at once in this process (default 1); the results do not depend on it
  --expansion-schedule S  how an expansion's configs are requested: sequential (default: one after another, a
                        repeat stops the rest), waves (2, then the rest at once) or parallel (all at once): less
                        waiting on a provider with latency, a little more spend
  --expansion-waves     the same as --expansion-schedule waves
  --tokens-per-minute T  at most T model tokens a minute per provider, across all tasks in flight (a request's
                        prompt and completion allowance are taken before it starts, settled with its usage)
  --requests-per-minute R  at most R model requests a minute per provider, across all tasks in flight (a 429
                        backs every request off and sends it again)
  --min-quality Q       admission threshold, 0..1 (default 0.9)
  --judge-model M       with --provider openai: model M judges the rubric's text criteria (verification only;
                        without it they stay unjudged)
  --revise R            one-step revision after each task's first exploration: rules (default, offline),
                        off, or model:M (with --provider openai: model M reviews, the rules check its patch)
  --json                print the summary as JSON

Exit codes: 0 done; 1 an error, or every model call of a task failed (the endpoint's message on stderr); 2 bad
flags; 3 stopped at --max-calls; 130 cancelled.`;

function positiveNumber(name: string, text: string | undefined, fallback: number, integer = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new CliError(`--${name} must be a positive ${integer ? 'integer' : 'number'}, not '${text}'`, 2);
  }
  return value;
}

/** The providers a command's flags name (kept here for the queue commands). */
export { providersFromFlags };

function writableFolder(folder: string): boolean {
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function positiveFlag(name: string, text: string | undefined, fallback: number, integer = false): number {
  return positiveNumber(name, text, fallback, integer);
}

export function formatSummary(s: SynthesisSummary): string {
  const rejections = Object.entries(s.rejectionsByReason).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  const savedShare = s.toolCalls > 0 ? ` (${((100 * s.toolExecutionsSaved) / s.toolCalls).toFixed(0)}%)` : '';
  return [
    `Run ${s.runId}${s.cancelled ? ' (cancelled; resume with --resume)' : ''}`,
    `  folder:                  ${s.runDir}`,
    `  tasks:                   ${s.tasksFinished}/${s.tasks} finished`,
    `  cost:                    $${s.costUsd.toFixed(4)}`,
    `  verified trajectories:   ${s.verifiedTrajectories} (mean quality ${s.meanQuality.toFixed(3)})`,
    `  with a repaired error:   ${s.trajectoriesWithRepair}`,
    `  rejected:                ${rejections}`,
    `  prefix reuse:            ${s.toolExecutionsSaved} of ${s.toolCalls} tool calls served without executing${savedShare}, ${s.sandboxMsSaved} ms of sandbox time saved`,
    `  cost model:              ${describeCostModelOrigin(s.costModelOrigin)}`,
    `  revision:                ${s.revisions.revised} revised (${s.revisions.reExplored} re-explored, ${s.revisions.reScored} trajectories re-scored), ${s.revisions.rejected} rejected, ${s.revisions.kept} kept; ${s.revisions.modelCalls} reviser model calls — toffee revisions <runDir> lists them`,
    `  search:                  ${s.expansions} expansions, ${s.modelCalls} model calls, ${s.expansionsPerSecond.toFixed(1)} expansions/s (excluding ${(s.providerLatencyMs / 1000).toFixed(1)} s of simulated provider latency)`,
    ...(s.modelCallFailures.failed > 0 ? [`  failed model calls:      ${s.modelCallFailures.failed} of ${s.modelCallFailures.calls}; the last: ${s.modelCallFailures.lastMessage ?? ''}`] : []),
    ...(s.stopped ? [`  stopped:                 ${s.stopped.message}`] : []),
  ].join('\n');
}

export const synthesizeCommand: CliCommand = {
  name: 'synthesize',
  summary: 'Explore tasks over a folder with MCTS and write verified trajectories to a run folder',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      tasks: { type: 'string' },
      budget: { type: 'string' },
      ...PROVIDER_FLAG_OPTIONS,
      'max-calls': { type: 'string' },
      'cost-model': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'string' },
      shard: { type: 'string' },
      concurrency: { type: 'string' },
      'requests-per-minute': { type: 'string' },
      'tokens-per-minute': { type: 'string' },
      'expansion-schedule': { type: 'string' },
      'expansion-waves': { type: 'boolean', default: false },
      'min-quality': { type: 'string' },
      'judge-model': { type: 'string' },
      revise: { type: 'string', default: 'rules' },
      json: { type: 'boolean', default: false },
    }, USAGE);
    const { values, positionals } = parsed;
    let shard: Shard | undefined;
    if (values.shard !== undefined) {
      try {
        shard = parseShard(values.shard);
      } catch (error) {
        throw new CliError(`--shard: ${(error as Error).message}`, 2);
      }
      if (values.resume) throw new CliError('--shard and --resume do not go together (a resumed run keeps its own tasks)', 2);
    }
    // A shard re-run on its --out folder continues it: the tasks already finished there are skipped.
    if (shard && values.out && isRunFolder(values.out)) {
      const config = readRunMeta(values.out).config as { shard?: string } | undefined;
      if (config?.shard !== formatShard(shard)) throw new CliError(`--out ${values.out} holds ${config?.shard ? `shard ${config.shard}` : 'an unsharded run'}, not shard ${formatShard(shard)}`);
      values.resume = values.out;
      values.out = undefined;
    }
    let folder: string;
    let recordedProviders: RecordedProvider[] | undefined;
    if (values.resume) {
      const meta = readRunMeta(resolveRunDir(values.resume));
      folder = positionals[0] ? path.resolve(positionals[0]) : meta.dataFolder;
      // Without provider flags, the run goes on with the providers it recorded (a run that recorded none, on the
      // simulated models; the pipeline refuses if the run was started on others and names the flags).
      if (!hasProviderFlags(values)) recordedProviders = (meta.config as RunModelsConfig | undefined)?.providerSettings;
    } else {
      if (positionals.length !== 1) throw new CliError(`expected one folder\n${USAGE}`, 2);
      folder = path.resolve(positionals[0]);
    }
    if (!folder || !fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CliError(`not a folder: ${folder || '(none recorded in the run)'}`);
    if (values.out && fs.existsSync(values.out) && fs.readdirSync(values.out).length > 0) throw new CliError(`--out ${values.out} exists and is not empty`);
    if (!values.out && !values.resume && !writableFolder(folder)) throw new CliError(`the data folder ${folder} is read-only, so the run folder cannot go in it: pass --out DIR`);
    let costModelChoice: CostModelChoice = 'environment';
    try {
      if (values['cost-model'] !== undefined) costModelChoice = parseCostModelChoice(values['cost-model']);
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    const tasks = positiveNumber('tasks', values.tasks, 8, true);
    const budgetUsd = positiveNumber('budget', values.budget, 0.05);
    const concurrency = positiveNumber('concurrency', values.concurrency, 1, true);
    const expansionSchedule = parseExpansionSchedule(values['expansion-schedule'], values['expansion-waves']);
    const rpm = values['requests-per-minute'] === undefined ? undefined : positiveNumber('requests-per-minute', values['requests-per-minute'], 0);
    const tpm = values['tokens-per-minute'] === undefined ? undefined : positiveNumber('tokens-per-minute', values['tokens-per-minute'], 0);
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, not '${values.seed}'`, 2);
    const minQuality = values['min-quality'] === undefined ? undefined : Number(values['min-quality']);
    if (minQuality !== undefined && !(minQuality >= 0 && minQuality <= 1)) throw new CliError(`--min-quality must be between 0 and 1, not '${values['min-quality']}'`, 2);

    const maxCalls = values['max-calls'] === undefined ? undefined : positiveNumber('max-calls', values['max-calls'], 0, true);
    const config = readCliConfig(values);
    const providerSettings = recordedProviders ?? providerSettingsFromFlags(values, config);
    const providers = providersFromSettings(providerSettings, config);
    const realSetting = providerSettings.find((p) => p.id !== OFFLINE_SIM_PROVIDER_ID);
    /** A provider like the run's real one, offering only `model` (the judge, the reviser). */
    const helper = (model: string, flag: string): { provider: LlmProvider; model: string } => {
      if (!realSetting) throw new CliError(`${flag} needs --provider openai or a provider of toffee.config.json (the offline simulated models never judge or revise)`, 2);
      return { provider: providersFromSettings([realSetting], config, [model])[0], model };
    };
    let judge: { provider: LlmProvider; model: string } | undefined;
    if (values['judge-model'] !== undefined) judge = helper(values['judge-model'], '--judge-model');

    let revise: 'rules' | 'off' | { provider: LlmProvider; model: string };
    if (values.revise === 'rules' || values.revise === 'off') revise = values.revise;
    else if (values.revise?.startsWith('model:') && values.revise.length > 6) revise = helper(values.revise.slice(6), '--revise model:M');
    else throw new CliError(`--revise must be rules, off or model:M, not '${values.revise}'`, 2);

    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const started = Date.now();
      const summary = await synthesize({
        folder,
        tasks,
        budgetUsd,
        providers,
        providerSettings,
        maxCalls,
        costModelFile: costModelChoice === 'environment' ? undefined : costModelChoice === 'fresh' ? null : costModelChoice.file,
        seed,
        outDir: values.out,
        resumeDir: values.resume,
        shard,
        concurrency,
        ...(expansionSchedule ? { expansionSchedule } : {}),
        ...(rpm ? { requestsPerMinute: Object.fromEntries(providers.map((p) => [p.id, rpm])) } : {}),
        ...(tpm ? { tokensPerMinute: Object.fromEntries(providers.map((p) => [p.id, tpm])) } : {}),
        minQuality,
        judge,
        revise,
        signal: controller.signal,
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      console.log(values.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
      if (summary.stopped?.reason === 'model-failure') {
        process.stderr.write(`toffee synthesize: every model call failed; the endpoint said: ${summary.stopped.providerMessage ?? 'nothing'}\n`);
        return 1;
      }
      return summary.cancelled ? 130 : summary.stopped?.reason === 'max-calls' ? 3 : 0;
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(error instanceof Error ? error.message : String(error));
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};

/** `--expansion-schedule S` (or `--expansion-waves`); undefined: the default (one after another, or a resumed run's). */
function parseExpansionSchedule(value: string | undefined, waves: boolean): ExpansionSchedule | undefined {
  if (value === undefined) return waves ? 'waves' : undefined;
  if (!(EXPANSION_SCHEDULES as readonly string[]).includes(value)) throw new CliError(`--expansion-schedule: expected one of ${EXPANSION_SCHEDULES.join(', ')}, got '${value}'`, 2);
  if (waves && value !== 'waves') throw new CliError(`--expansion-waves contradicts --expansion-schedule ${value}`, 2);
  return value as ExpansionSchedule;
}
