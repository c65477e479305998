/**
 * Exporting one run folder: what `toffee export` and the extension's "TOFFEE: Export Trajectories" both do, so the
 * same choices write the same files. SFT formats write the run's admitted trajectories (validated, rendered through
 * the chat templates, with a metadata sidecar and a report); kramabench and spider write its task pool as
 * benchmark files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEnvironment } from '../env/index';
import type { DataEnvironment } from '../env/types';
import { trajectoriesFromRun } from './runAdapter';
import type { SelectionOptions } from './select';
import { buildSftExport, writeSftExport, type SftExportReport } from './sftExport';
import { toKramaBenchTask, toSpiderTasks } from './tasks';
import { SFT_FORMATS, type SftFormat } from './types';

export const EXPORT_FORMATS = [...SFT_FORMATS, 'kramabench', 'spider', 'bird'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A run that cannot be exported as asked (no trajectories, the data folder gone): a plain-words message. */
export class ExportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportInputError';
  }
}

export interface RunExportOptions {
  format: ExportFormat;
  /** Output folder (default `<runDir>/export`). */
  outDir?: string;
  /** Only trajectories a curator accepted. */
  acceptedOnly?: boolean;
  /** Share of tasks held out for validation, in [0, 1) (default 0.1). */
  validationFraction?: number;
  /** openai: weight 0 on repaired assistant turns (default true). */
  weightRepaired?: boolean;
  /** Which of a task's trajectories to keep (default all). */
  selection?: SelectionOptions;
  /** Leave out trajectories whose answer depends on an ungrounded literal (default true). */
  dropUngrounded?: boolean;
  /** Keep only the best of each task's near-copies (default true). */
  collapseNearCopies?: boolean;
  /** Leave out trajectories that run a call again for the same observation, where their task has one that does not (default true). */
  dropRepeats?: boolean;
  /** The data folder, when it moved since the run (default: the run's). */
  dataFolder?: string;
  /** Literal secrets that must not appear in any line. */
  secrets?: readonly string[];
  /** Reading the run found something odd (a damaged line): said, not fatal. */
  onWarning?: (warning: string) => void;
}

export type RunExportResult =
  | { kind: 'sft'; outDir: string; report: SftExportReport }
  | { kind: 'tasks'; outDir: string; format: 'kramabench' | 'spider' | 'bird'; file: string; tasks: number; databaseDir?: string; skipped: Array<{ taskId: string; reason: string }>; dataRoot: string };

/** The run's data environment, loaded from `override` or the folder the run recorded. */
export async function loadRunEnvironment(dataFolder: string, override?: string): Promise<DataEnvironment> {
  const folder = path.resolve(override ?? dataFolder);
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new ExportInputError(`the run's data folder ${folder} is not there; pass --data DIR`);
  return loadEnvironment(folder);
}

export async function exportRun(runDir: string, options: RunExportOptions): Promise<RunExportResult> {
  const outDir = path.resolve(options.outDir ?? path.join(runDir, 'export'));
  const run = trajectoriesFromRun(runDir);
  for (const warning of run.warnings) options.onWarning?.(warning);
  const env = await loadRunEnvironment(run.dataFolder, options.dataFolder);
  const format = options.format;
  if (format === 'kramabench') {
    const tasks = [...run.state.tasks.values()].map((t) => toKramaBenchTask(t, env.profile));
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, 'kramabench.json');
    fs.writeFileSync(file, JSON.stringify(tasks, null, 2) + '\n');
    return { kind: 'tasks', outDir, format, file, tasks: tasks.length, skipped: [], dataRoot: env.root };
  }
  if (format === 'spider' || format === 'bird') {
    const dbId = path.basename(env.root).replace(/[^A-Za-z0-9_]/g, '_') || 'toffee';
    const { items, skipped } = toSpiderTasks([...run.state.tasks.values()], dbId, env.documents);
    const databaseDir = path.join(outDir, 'database', dbId);
    fs.mkdirSync(databaseDir, { recursive: true });
    fs.writeFileSync(path.join(databaseDir, `${dbId}.sqlite`), env.image);
    const file = path.join(outDir, 'dev.json');
    fs.writeFileSync(file, JSON.stringify(items, null, 2) + '\n');
    return { kind: 'tasks', outDir, format, file, tasks: items.length, databaseDir, skipped, dataRoot: env.root };
  }
  if (run.trajectories.length === 0) throw new ExportInputError(`the run has no admitted trajectories to export (${runDir})`);
  const result = buildSftExport(run.trajectories, { profile: env.profile, documents: env.documents }, {
    format: format as SftFormat,
    acceptedOnly: options.acceptedOnly,
    validationFraction: options.validationFraction ?? 0.1,
    weightRepaired: options.weightRepaired ?? true,
    secrets: options.secrets,
    selection: options.selection,
    dropUngrounded: options.dropUngrounded,
    collapseNearCopies: options.collapseNearCopies,
    dropRepeats: options.dropRepeats,
  });
  return { kind: 'sft', outDir, report: writeSftExport(outDir, result) };
}
