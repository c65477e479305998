import { logIssueLines } from '../../core/store/resumeCheck';
import { RunStore } from '../../core/store/RunStore';
import { revisionLines } from '../../core/taskpool/detail';
import { CliError, parseCommandArgs, type CliCommand } from '../command';
import { resolveRunDir } from '../command';

const USAGE = `Usage: toffee revisions <runDir> [--all] [--json]

Lists the one-step revisions made after each task's first exploration: what the reviser found (executability,
unsupported quantities, wrong rubric anchors, ambiguity, verification instructions), the before/after diff,
and what followed (the new question re-explored, or the trajectories re-scored without model calls).

Options:
  --all     also list the tasks the revision kept unchanged
  --json    print the task/revised events as JSON`;

export const revisionsCommand: CliCommand = {
  name: 'revisions',
  summary: 'List the revisions made to a run’s tasks after their first exploration',
  usage: USAGE,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(argv, { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } }, USAGE);
    if (positionals.length !== 1) throw new CliError(`expected one run folder\n${USAGE}`, 2);
    const store = RunStore.open(resolveRunDir(positionals[0]));
    for (const line of logIssueLines(store.recovery.issues)) console.error(line);
    try {
      const revisions = [...store.state.revisions.values()].filter((r) => values.all || r.outcome !== 'kept');
      if (values.json) {
        console.log(JSON.stringify(revisions, null, 2));
        return 0;
      }
      const all = [...store.state.revisions.values()];
      const count = (o: string) => all.filter((r) => r.outcome === o).length;
      console.log(`${all.length} tasks reviewed: ${count('revised')} revised, ${count('rejected')} rejected, ${count('kept')} kept`);
      for (const r of revisions) {
        console.log(`\n${r.taskId}${r.revisedTaskId ? ` → ${r.revisedTaskId}` : ''}`);
        for (const line of revisionLines(r)) console.log(`  ${line}`);
        for (const t of r.rescored ?? []) console.log(`    re-scored ${t.trajectoryId}: quality ${t.qualityBefore.toFixed(3)} → ${t.quality.toFixed(3)}${t.admitted ? '' : ' (no longer admitted)'}`);
      }
      return 0;
    } finally {
      store.close();
    }
  },
};
