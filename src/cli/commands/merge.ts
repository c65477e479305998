import { mergeRuns } from '../../core/run/merge';
import { CliError, parseCommandArgs, resolveRunDir, type CliCommand } from '../command';

const USAGE = `Usage: toffee merge <out> <runDir>… [--json]

Combines run folders of one run split into shards (toffee synthesize --shard i/N) into a new run folder <out>:
tasks in pool order, events and trajectories of each finished task once, spend, and the cost model. A task
finished in more than one input is reported as a duplicate and kept once; inputs with another seed or settings
are refused.`;

export const mergeCommand: CliCommand = {
  name: 'merge',
  summary: 'Combine the run folders of a sharded run into one run folder',
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } }, USAGE);
    if (positionals.length < 2) throw new CliError(`expected an output folder and at least one run folder\n${USAGE}`, 2);
    const [out, ...inputs] = positionals;
    for (const dir of inputs) resolveRunDir(dir);
    let summary;
    try {
      summary = await mergeRuns(out, inputs);
    } catch (error) {
      throw new CliError(error instanceof Error ? error.message : String(error));
    }
    for (const w of summary.warnings) process.stderr.write(`warning: ${w}\n`);
    if (values.json) console.log(JSON.stringify(summary, null, 2));
    else {
      console.log([
        `Run ${summary.runId} (merged from ${summary.inputs} run folder(s))`,
        `  folder:                  ${summary.runDir}`,
        `  tasks:                   ${summary.tasksFinished}/${summary.tasks} finished${summary.unfinishedTasks ? ` (resume with toffee synthesize --resume ${summary.runDir})` : ''}`,
        `  duplicate tasks:         ${summary.duplicateTasks.length}${summary.duplicateTasks.length ? ` (kept once: ${summary.duplicateTasks.join(', ')})` : ''}`,
        `  cost:                    $${summary.costUsd.toFixed(4)}`,
        `  verified trajectories:   ${summary.verifiedTrajectories}`,
      ].join('\n'));
    }
    return 0;
  },
};
