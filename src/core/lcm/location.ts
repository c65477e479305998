/**
 * Where a run's learned cost model comes from and where its learning goes (`--cost-model`):
 * - `environment` (the default): the environment's model, `<data folder>/.toffee/lcm/<hash>.json`, read when it
 *   exists and written back only when the run folder is inside the data folder and the folder is writable. A run
 *   whose output the user sent elsewhere (`--out`) never writes into the data folder;
 * - a file: read when it exists, written back after every task;
 * - `fresh`: a new model, saved nowhere but in the run folder.
 * The run folder always keeps its own snapshots. The summary says what the run started from ("a cost model
 * trained by N earlier runs"), since that changes what the same seed explores.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LearnedCostModel } from './LearnedCostModel';
import { costModelPath, saveCostModel } from './persistence';

export type CostModelChoice = 'environment' | 'fresh' | { file: string };

export interface CostModelLocation {
  source: 'environment' | 'fresh' | 'file';
  /** Read at the start (when it exists). */
  readFrom?: string;
  /** Written after every finished task; undefined: the learning stays in the run folder. */
  writeTo?: string;
  /** Why an environment model is read but not written. */
  notWrittenBecause?: string;
}

/** `fresh`, `environment` or a file path (relative to `cwd`). */
export function parseCostModelChoice(text: string, cwd = process.cwd()): CostModelChoice {
  if (text === 'fresh' || text === 'environment') return text;
  if (text.trim() === '') throw new Error('--cost-model needs fresh, environment or a file');
  return { file: path.resolve(cwd, text) };
}

/** synthesize's `costModelFile` option: undefined = environment, null = fresh, a string = that file. */
export function choiceFromOption(costModelFile: string | null | undefined): CostModelChoice {
  return costModelFile === undefined ? 'environment' : costModelFile === null ? 'fresh' : { file: costModelFile };
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), path.resolve(child));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function resolveCostModelLocation(choice: CostModelChoice, run: { dataFolder: string; envHash: string; runDir: string }): CostModelLocation {
  if (choice === 'fresh') return { source: 'fresh' };
  if (choice !== 'environment') return { source: 'file', readFrom: choice.file, writeTo: choice.file };
  const file = costModelPath(run.dataFolder, run.envHash);
  if (!inside(run.runDir, run.dataFolder)) {
    return { source: 'environment', readFrom: file, notWrittenBecause: 'the run folder is outside the data folder, and nothing is written into the data folder then (--cost-model FILE keeps learning across runs)' };
  }
  if (!writable(run.dataFolder)) return { source: 'environment', readFrom: file, notWrittenBecause: 'the data folder is read-only' };
  return { source: 'environment', readFrom: file, writeTo: file };
}

/** What a run started from, for run.json and the summary. */
export interface CostModelOrigin {
  source: CostModelLocation['source'];
  file?: string;
  /** Earlier runs whose learning the starting model holds. */
  trainedByRuns: number;
  /** Updates in the starting model (a file from an older version records updates but no run ids). */
  updates: number;
  /** Where this run's learning is written, or why it is not. */
  writtenTo?: string;
  notWrittenBecause?: string;
}

export function costModelOrigin(location: CostModelLocation, loaded: { trainedByRuns: readonly string[]; updates: number }, runId?: string): CostModelOrigin {
  return {
    source: location.source,
    ...(location.readFrom ? { file: location.readFrom } : {}),
    trainedByRuns: loaded.trainedByRuns.filter((id) => id !== runId).length,
    updates: loaded.updates,
    ...(location.writeTo ? { writtenTo: location.writeTo } : {}),
    ...(location.notWrittenBecause ? { notWrittenBecause: location.notWrittenBecause } : {}),
  };
}

/** "started from a cost model trained by 3 earlier runs (…/e3.json); its learning is saved there". */
export function describeCostModelOrigin(origin: CostModelOrigin): string {
  if (origin.source === 'fresh') return 'started from a fresh cost model (--cost-model fresh); its learning stays in the run folder';
  const from = origin.updates === 0
    ? `started from a fresh cost model (there is none at ${origin.file} yet)`
    : origin.trainedByRuns > 0
      ? `started from a cost model trained by ${origin.trainedByRuns} earlier run${origin.trainedByRuns === 1 ? '' : 's'} (${origin.file})`
      : `started from a cost model with ${origin.updates} updates from earlier runs (${origin.file})`;
  const to = origin.writtenTo ? (origin.writtenTo === origin.file ? 'its learning is saved there' : `its learning is saved to ${origin.writtenTo}`) : `its learning stays in the run folder: ${origin.notWrittenBecause ?? 'no file to save it to'}`;
  return `${from}; ${to}`;
}

/**
 * Saves the run's model to the location (with this run among the runs it was trained by). A write that fails (a
 * read-only file system, a removed folder) is reported once and not tried again; the run goes on.
 */
export class CostModelWriter {
  private failed = false;

  constructor(
    private readonly location: CostModelLocation,
    private readonly trainedByRuns: readonly string[],
    private readonly runId: string,
    private readonly warn: (line: string) => void,
  ) {}

  async save(model: LearnedCostModel): Promise<void> {
    if (!this.location.writeTo || this.failed) return;
    try {
      await saveCostModel(this.location.writeTo, model, { trainedByRuns: [...new Set([...this.trainedByRuns, this.runId])] });
    } catch (error) {
      this.failed = true;
      this.warn(`learned cost model: cannot write ${this.location.writeTo} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the run's learning stays in its folder`);
    }
  }
}
