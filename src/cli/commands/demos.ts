import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEnvironment } from '../../core/env/index';
import type { EnvironmentProfile } from '../../core/env/types';
import { DemoLibrary, renderDemos } from '../../core/export/demos';
import { trajectoriesFromRun } from '../../core/export/runAdapter';
import { CliError, parseCommandArgs, type CliCommand } from '../command';
import { resolveRunDir } from '../command';

const USAGE = `Usage: toffee demos <runDir> "<question>" [--k K] [--accepted-only] [--json]

Retrieves the run's trajectories most similar to the question (BM25 over questions and the tables and columns
used; one per task, pruned ones never) and prints them as prompt-ready demos.`;

export const demosCommand: CliCommand = {
  name: 'demos',
  summary: 'Retrieve prompt-ready ICL demos from a run for a question',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, { k: { type: 'string', short: 'k', default: '3' }, 'accepted-only': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } }, USAGE);
    const { values, positionals } = parsed;
    if (positionals.length !== 2) throw new CliError(`expected a run folder and a question\n${USAGE}`, 2);
    const k = Number(values.k);
    if (!Number.isInteger(k) || k < 1) throw new CliError(`--k must be a positive integer, not '${values.k}'`, 2);
    const question = positionals[1];
    if (question.trim() === '') throw new CliError('the question is empty');
    const run = trajectoriesFromRun(resolveRunDir(positionals[0]));
    for (const warning of run.warnings) console.error(`warning: ${warning}`);
    // The profile lets the index name real tables and columns; without the data folder, identifiers in the code do.
    let profile: EnvironmentProfile | undefined;
    if (fs.existsSync(run.dataFolder)) profile = (await loadEnvironment(path.resolve(run.dataFolder))).profile;
    const library = new DemoLibrary(run.trajectories, { profile, includeUnreviewed: !values['accepted-only'] });
    if (library.size === 0) throw new CliError('the run has no trajectories to use as demos');
    const hits = library.retrieve(question, k);
    if (values.json) {
      console.log(JSON.stringify(hits.map((h) => ({ trajectoryId: h.trajectory.trajectoryId, taskId: h.trajectory.task.id, family: h.trajectory.task.family, score: Number(h.score.toFixed(4)), question: h.trajectory.task.question })), null, 2));
      return 0;
    }
    if (hits.length === 0) {
      console.log(`No demo shares a word with the question (${library.size} indexed).`);
      return 0;
    }
    console.error(hits.map((h) => `${h.score.toFixed(2)}  ${h.trajectory.task.family}  ${h.trajectory.trajectoryId}`).join('\n') + '\n');
    console.log(renderDemos(hits.map((h) => h.trajectory)));
    return 0;
  },
};
