import { openAgentSession } from '../../core/agent/session';
import { BENCH_METHODS, BenchMethod, BenchResult, UNADMITTED_CREDIT_MAX, benchChecks, budgetToReach, runBenchmark } from '../../core/explorer/bench';
import { createSimulatedProvider } from '../../core/sim/index';
import { readContaminationReferences } from '../../core/benchenv/contamination';
import { explorerToolContext } from '../../core/run/exploreTask';
import { buildTaskPool } from '../../core/taskpool/pool';
import { CliError, folderArgument, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee bench <folder> [options]

The quality-vs-budget table, per method per budget over seeds (95% confidence intervals), offline-sim models:
mean quality (the best admitted trajectory per task; without one, the verifier's quality of the best path the
method ended, at most ${UNADMITTED_CREDIT_MAX}: evidence steps reproduced, the task program's sub-answers reached,
the grounding penalty) and verified rate; then per admitted trajectory the ungrounded steps and repaired errors,
the share of sub-answers the scored paths reach, and the answers rejected for a wrong intermediate.

Options:
  --budgets a,b,c     USD per task (default 0.005,0.01,0.02,0.03,0.05,0.08)
  --methods m,…       of ${BENCH_METHODS.join(', ')} (default all)
  --seeds K           seeds 1..K (default 3)
  --tasks N           tasks (default 12), in the pool's order (round-robin across families)
  --min-steps K       only tasks whose program has at least K steps (default 2: the multi-step programs,
                      where methods differ; 1: every task)
  --json              print the result as JSON`;

function formatTable(result: BenchResult, taskLine?: string): string {
  const lines: string[] = [];
  lines.push(`${result.tasks} tasks × ${result.seeds.length} seeds; baselines and the no-LCM ablation use ${result.baselineArm}`);
  if (taskLine) lines.push(taskLine);
  const header = ['budget $', ...result.methods];
  const rows = result.budgetsUsd.map((b) => [
    String(b),
    ...result.methods.map((m) => {
      const c = result.cells.find((x) => x.method === m && x.budgetUsd === b)!;
      return `${c.meanQuality.toFixed(3)}±${c.qualityCi95.toFixed(3)} (${(100 * c.verifiedRate).toFixed(0)}% v, $${c.meanSpentUsd.toFixed(4)})`;
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  lines.push(header.map((h, i) => h.padEnd(widths[i])).join('  '));
  for (const r of rows) lines.push(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  lines.push('cells: mean quality ± 95% CI over seeds (verified rate, mean spend per task)');
  lines.push('');
  const detailHeader = ['budget $', ...result.methods];
  const detailRows = result.budgetsUsd.map((b) => [
    String(b),
    ...result.methods.map((m) => {
      const c = result.cells.find((x) => x.method === m && x.budgetUsd === b)!;
      return `${c.admittedPerTask.toFixed(1)} adm, ${c.ungroundedSteps.toFixed(2)} ungr, ${c.repairedErrors.toFixed(2)} rep, ${(100 * c.subAnswersReached).toFixed(0)}% sub, ${c.wrongIntermediatePerTask.toFixed(2)} wi`;
    }),
  ]);
  const detailWidths = detailHeader.map((h, i) => Math.max(h.length, ...detailRows.map((r) => r[i].length)));
  lines.push(detailHeader.map((h, i) => h.padEnd(detailWidths[i])).join('  '));
  for (const r of detailRows) lines.push(r.map((c, i) => c.padEnd(detailWidths[i])).join('  '));
  lines.push('cells: admitted trajectories per task; per admitted trajectory, steps with an ungrounded item and repaired errors; sub-answers reached by the scored path of each multi-step task; answers rejected for a wrong intermediate per task');
  lines.push('');
  for (const q of [0.8, 0.9, 0.95]) {
    lines.push(`budget to reach quality ${q}: ${result.methods.map((m) => `${m} ${budgetToReach(result, m, q, 0) ?? '—'}`).join(', ')}`);
  }
  for (const c of benchChecks(result)) lines.push(`${c.met ? 'MET    ' : 'NOT MET'} ${c.check}: ${c.detail}`);
  const repair = result.cells.filter((c) => c.method === 'toffee').map((c) => `$${c.budgetUsd} ${(100 * c.repairShare).toFixed(0)}%`).join(', ');
  if (repair) lines.push(`toffee admitted trajectories with a repaired error: ${repair}`);
  if (result.toolCalls) lines.push(`toffee prefix reuse: ${result.toolExecutionsSaved} of ${result.toolCalls} tool calls served without executing (${((100 * result.toolExecutionsSaved) / result.toolCalls).toFixed(0)}%)`);
  lines.push(`toffee search speed: ${result.toffeeExpansionsPerSecond.toFixed(1)} node expansions/s (excluding provider latency)`);
  return lines.join('\n');
}

export const benchCommand: CliCommand = {
  name: 'bench',
  summary: 'Quality-vs-budget table: TOFFEE vs no-LCM MCTS, best-of-5 and single-shot (offline-sim)',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      budgets: { type: 'string', default: '0.005,0.01,0.02,0.03,0.05,0.08' },
      methods: { type: 'string' },
      seeds: { type: 'string', default: '3' },
      tasks: { type: 'string', default: '12' },
      'min-steps': { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
    }, USAGE);
    const { values, positionals } = parsed;
    const folder = folderArgument(positionals, USAGE);
    const budgets = values.budgets.split(',').map((b) => Number(b.trim()));
    if (budgets.length === 0 || budgets.some((b) => !(b > 0))) throw new CliError(`--budgets must be positive USD amounts, not '${values.budgets}'`, 2);
    const methods = (values.methods ? values.methods.split(',').map((m) => m.trim()) : [...BENCH_METHODS]) as BenchMethod[];
    const unknown = methods.filter((m) => !BENCH_METHODS.includes(m));
    if (unknown.length) throw new CliError(`unknown method(s) ${unknown.join(', ')}; use ${BENCH_METHODS.join(', ')}`, 2);
    const seedCount = Number(values.seeds);
    if (!Number.isInteger(seedCount) || seedCount < 1) throw new CliError(`--seeds must be a positive integer, not '${values.seeds}'`, 2);
    const taskCount = Number(values.tasks);
    if (!Number.isInteger(taskCount) || taskCount < 1) throw new CliError(`--tasks must be a positive integer, not '${values.tasks}'`, 2);

    const minSteps = Number(values['min-steps']);
    if (!Number.isInteger(minSteps) || minSteps < 1) throw new CliError(`--min-steps must be a positive integer, not '${values['min-steps']}'`, 2);

    const session = await openAgentSession(folder);
    try {
      process.stderr.write('building the task pool…\n');
      // The pool is built as large as selection allows, so that enough tasks of the program length are left.
      const pool = await buildTaskPool(session.toolContext, { max: minSteps > 1 ? Math.max(3 * taskCount, 36) : taskCount, contamination: readContaminationReferences(folder) });
      if (pool.tasks.length === 0) throw new CliError(`no tasks could be built for ${folder}${pool.notes.length ? `: ${pool.notes.join('; ')}` : ''}`);
      const tasks = pool.tasks.filter((t) => t.evidence.length >= minSteps).slice(0, taskCount);
      if (tasks.length === 0) throw new CliError(`none of the ${pool.tasks.length} tasks of ${folder} has a program of ${minSteps} or more steps; try --min-steps 1`, 2);
      const taskLine = `tasks: ${tasks.length} of the pool's ${pool.tasks.length} with ≥ ${minSteps} program steps (${tasks.map((t) => `${t.family} ${t.evidence.length}`).join(', ')})`;
      process.stderr.write(`${taskLine}\n`);
      const result = await runBenchmark({
        tasks,
        toolContext: explorerToolContext(session),
        providers: [createSimulatedProvider()],
        budgetsUsd: budgets,
        methods,
        seeds: Array.from({ length: seedCount }, (_, i) => i + 1),
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      console.log(values.json ? JSON.stringify({ ...result, taskSelection: taskLine, checks: benchChecks(result) }, null, 2) : formatTable(result, taskLine));
      return 0;
    } finally {
      await session.dispose();
    }
  },
};
