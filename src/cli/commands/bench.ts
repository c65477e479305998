import { openAgentSession } from '../../core/agent/session';
import { BENCH_METHODS, BenchMethod, BenchResult, benchChecks, budgetToReach, runBenchmark } from '../../core/explorer/bench';
import { createSimulatedProvider } from '../../core/sim/index';
import { readContaminationReferences } from '../../core/benchenv/contamination';
import { explorerToolContext } from '../../core/run/exploreTask';
import { buildTaskPool } from '../../core/taskpool/pool';
import { CliError, folderArgument, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee bench <folder> [options]

The quality-vs-budget table: mean quality (best admitted trajectory per task, 0 when none) and verified rate
per method per budget, with 95% confidence intervals over seeds, on the folder's tasks, offline-sim models.

Options:
  --budgets a,b,c     USD per task (default 0.005,0.01,0.02,0.03,0.05,0.08)
  --methods m,…       of ${BENCH_METHODS.join(', ')} (default all)
  --seeds K           seeds 1..K (default 3)
  --tasks N           tasks (default 12), round-robin across families
  --json              print the result as JSON`;

function formatTable(result: BenchResult): string {
  const lines: string[] = [];
  lines.push(`${result.tasks} tasks × ${result.seeds.length} seeds; baselines and the no-LCM ablation use ${result.baselineArm}`);
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

    const session = await openAgentSession(folder);
    try {
      process.stderr.write('building the task pool…\n');
      const { tasks, notes } = await buildTaskPool(session.toolContext, { max: taskCount, contamination: readContaminationReferences(folder) });
      if (tasks.length === 0) throw new CliError(`no tasks could be built for ${folder}${notes.length ? `: ${notes.join('; ')}` : ''}`);
      const result = await runBenchmark({
        tasks,
        toolContext: explorerToolContext(session),
        providers: [createSimulatedProvider()],
        budgetsUsd: budgets,
        methods,
        seeds: Array.from({ length: seedCount }, (_, i) => i + 1),
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      console.log(values.json ? JSON.stringify({ ...result, checks: benchChecks(result) }, null, 2) : formatTable(result));
      return 0;
    } finally {
      await session.dispose();
    }
  },
};
