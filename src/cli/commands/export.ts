import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataEnvironment } from '../../core/env/types';
import { EXPORT_FORMATS as FORMATS, ExportInputError, exportRun, loadRunEnvironment as loadEnvironmentOfRun, type ExportFormat } from '../../core/export/runExport';
import { formatSftReport } from '../../core/export/sftExport';
import { SELECTION_MODES, SelectionMode } from '../../core/export/select';
import { CliError, parseCommandArgs, resolveRunDir, type CliCommand } from '../command';

const USAGE = `Usage: toffee export <runDir> --format openai|hf|sharegpt|kramabench|spider [options]

SFT formats write the run's admitted trajectories (pruned ones never) as train/validation JSONL, split by task,
with a metadata sidecar and a report; every line passes the validators and renders through the bundled Qwen2.5
and Qwen3 chat templates, or is left out and listed in the report. kramabench and spider (alias bird) write the
run's task pool as benchmark files (spider also copies the environment's SQLite database).

Options:
  --out DIR               output folder (default <runDir>/export)
  --accepted-only         only trajectories a curator accepted
  --val-fraction F        share of tasks held out for validation, 0 ≤ F < 1 (default 0.1)
  --split S               the same as --val-fraction 1-S (S = train share)
  --no-weights            openai: do not put weight 0 on repaired assistant turns
  --select MODE           which of a task's admitted trajectories to keep: anchored (rubric score),
                          unanchored (verified answer + clean execution, no evidence anchors), random
                          (seeded) or all (default: all); recorded in the metadata sidecar and the report
  --per-task K            trajectories kept per task by --select (default 1)
  --seed S                seed of --select random (default 0)
  --keep-ungrounded       keep trajectories whose final answer depends on a literal (a threshold, a date, a
                          value) that nothing shown to the agent contains; by default they are left out and
                          counted in the report
  --keep-near-copies      keep every near-copy (same calls and observations, other wording); by default only
                          the best of each task's group is kept and the rest are reported as collapsed
  --keep-repeats          keep trajectories that run a call again for the same observation; by default they are
                          left out where their task has a trajectory that does not, and counted in the report
  --data DIR              the data folder, when it moved since the run (default: the run's)
  --json                  print the report as JSON`;

/** Values of environment variables that hold credentials: they must never reach an export. */
export function secretsFromEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => /API_KEY|TOKEN|SECRET|PASSWORD/i.test(name) && typeof value === 'string' && value.length >= 8)
    .map(([, value]) => value as string);
}

export async function loadRunEnvironment(dataFolder: string, override: string | undefined): Promise<DataEnvironment> {
  try {
    return await loadEnvironmentOfRun(dataFolder, override);
  } catch (error) {
    if (error instanceof ExportInputError) throw new CliError(error.message);
    throw error;
  }
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a run as SFT data (openai, hf, sharegpt) or its tasks as a benchmark (kramabench, spider)',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      format: { type: 'string' },
      out: { type: 'string' },
      'accepted-only': { type: 'boolean', default: false },
      'val-fraction': { type: 'string' },
      split: { type: 'string' },
      'no-weights': { type: 'boolean', default: false },
      select: { type: 'string' },
      'per-task': { type: 'string' },
      seed: { type: 'string' },
      data: { type: 'string' },
      'keep-ungrounded': { type: 'boolean', default: false },
      'keep-near-copies': { type: 'boolean', default: false },
      'keep-repeats': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    }, USAGE);
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new CliError(`expected one run folder\n${USAGE}`, 2);
    const format = values.format;
    if (!format || !(FORMATS as readonly string[]).includes(format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}${format ? `, not '${format}'` : ''}`, 2);
    let validationFraction = 0.1;
    if (values['val-fraction'] !== undefined && values.split !== undefined) throw new CliError('give --val-fraction or --split, not both', 2);
    if (values['val-fraction'] !== undefined) validationFraction = Number(values['val-fraction']);
    if (values.split !== undefined) validationFraction = 1 - Number(values.split);
    if (!(validationFraction >= 0 && validationFraction < 1)) throw new CliError(`the validation share must be in [0, 1) (--val-fraction F or --split S with 0 < S ≤ 1)`, 2);
    const selectMode = values.select ?? 'all';
    if (!(SELECTION_MODES as readonly string[]).includes(selectMode)) throw new CliError(`--select must be one of ${SELECTION_MODES.join(', ')}, not '${selectMode}'`, 2);
    const perTask = values['per-task'] === undefined ? 1 : Number(values['per-task']);
    if (!Number.isInteger(perTask) || perTask < 1) throw new CliError(`--per-task must be a whole number ≥ 1, not '${values['per-task']}'`, 2);
    const seed = values.seed === undefined ? 0 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, not '${values.seed}'`, 2);
    if ((values['per-task'] !== undefined || values.seed !== undefined) && selectMode === 'all') throw new CliError('--per-task and --seed need --select anchored|unanchored|random', 2);
    const runDir = resolveRunDir(positionals[0]);
    let result;
    try {
      result = await exportRun(runDir, {
        format: format as ExportFormat,
        outDir: values.out,
        acceptedOnly: values['accepted-only'],
        validationFraction,
        weightRepaired: !values['no-weights'],
        secrets: secretsFromEnvironment(),
        selection: { mode: selectMode as SelectionMode, perTask, seed },
        dropUngrounded: !values['keep-ungrounded'],
        collapseNearCopies: !values['keep-near-copies'],
        dropRepeats: !values['keep-repeats'],
        dataFolder: values.data,
        onWarning: (warning) => console.error(`warning: ${warning}`),
      });
    } catch (error) {
      if (error instanceof ExportInputError) throw new CliError(error.message);
      throw error;
    }
    if (result.kind === 'tasks') {
      if (result.format === 'kramabench') {
        console.log(values.json ? JSON.stringify({ file: result.file, tasks: result.tasks }) : `${result.tasks} tasks written to ${result.file} (data_sources are relative to ${result.dataRoot})`);
      } else if (values.json) {
        console.log(JSON.stringify({ file: result.file, items: result.tasks, skipped: result.skipped }));
      } else {
        console.log(`${result.tasks} tasks written to ${result.file}; database in ${result.databaseDir}`);
        for (const s of result.skipped) console.log(`skipped ${s.taskId}: ${s.reason}`);
      }
      return 0;
    }
    console.log(values.json ? JSON.stringify(result.report, null, 2) : formatSftReport(result.report));
    return result.report.written > 0 ? 0 : 3;
  },
};
