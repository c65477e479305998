import { openAgentSession } from '../../core/agent/session';
import { parseContextLength } from '../../core/agent/types';
import { SIM_MODELS } from '../../core/sim/models';
import { SimStatsReport, runSimStats } from '../../core/sim/stats';
import type { ReasoningEffort } from '../../core/llm/types';
import { buildTaskPool } from '../../core/taskpool/pool';
import { ERROR_CATEGORIES, TAXONOMY_SOURCE, type ErrorCategory } from '../../core/sim/taxonomy';
import { CliError, folderArgument, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee sim-stats <folder> [--seed S] [--episodes N] [--max T] [--context full|last-K] [--effort low|medium|high] [--json]

Builds the folder's task pool (at most T tasks, default 40), runs every simulated model (offline-sim) over
them N times (seeds S, S+1, …), and prints per model × difficulty: the mistake rate (mistaken steps / steps),
repair success, final-answer accuracy against the answer key, and mean cost per episode; then the error mix by
the taxonomy the simulator follows (DIN-SQL's error analysis), the typo share, how many repaired steps' diagnoses
name exactly the diff between the failed and the repaired call, calls with a literal nothing had shown, and how
many document-task episodes read the document before their first query.`;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function formatSimStats(report: SimStatsReport): string {
  const header = ['model', 'difficulty', 'episodes', 'steps', 'mistake rate', 'error steps', 'repair success', 'accuracy', 'mean cost', 'mean steps'];
  const rows = report.cells.map((c) => [
    c.model,
    c.difficulty,
    String(c.episodes),
    String(c.steps),
    `${pct(c.mistakeRate)} (${c.mistakenSteps})`,
    String(c.errorSteps),
    c.repairs ? `${pct(c.repairSuccess)} of ${c.repairs}` : '-',
    `${pct(c.accuracy)} (${c.correctAnswers})`,
    `$${c.meanCostUsd.toFixed(6)}`,
    c.meanSteps.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  const kinds = report.cells
    .filter((c) => c.difficulty === 'all')
    .map((c) => `${c.model}: ${Object.entries(c.mistakeKinds).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  const all = report.cells.filter((c) => c.difficulty === 'all');
  const mix: Partial<Record<ErrorCategory, number>> = {};
  for (const c of all) for (const [k, n] of Object.entries(c.mistakeCategories)) mix[k as ErrorCategory] = (mix[k as ErrorCategory] ?? 0) + (n ?? 0);
  const errors = Object.values(mix).reduce((a, b) => a + (b ?? 0), 0);
  const sum = (f: (c: (typeof all)[number]) => number) => all.reduce((a, c) => a + f(c), 0);
  const share = (n: number, d: number) => (d ? `${pct(n / d)} (${n} of ${d})` : '-');
  const mixLines = (Object.keys(ERROR_CATEGORIES) as ErrorCategory[]).map((k) => `  ${k.padEnd(15)} ${share(mix[k] ?? 0, errors).padEnd(18)} ${ERROR_CATEGORIES[k]}`);
  return [
    line(header),
    ...rows.map(line),
    '',
    'Mistake kinds:',
    ...kinds.map((k) => `  ${k}`),
    '',
    `Error mix (taxonomy: ${TAXONOMY_SOURCE}):`,
    ...mixLines,
    `Typo share of errors: ${share(mix.typo ?? 0, errors)}`,
    `Diagnosis/repair agreement: ${share(sum((c) => c.agreeingDiagnoses), sum((c) => c.repairedSteps))} repaired steps`,
    `Calls with a literal nothing had shown: ${sum((c) => c.unseenLiteralCalls)}${all.flatMap((c) => c.unseenExamples).slice(0, 3).map((e) => `\n  ${e}`).join('')}`,
    `Document tasks that read the document before querying: ${share(sum((c) => c.documentReadFirst), sum((c) => c.documentEpisodes))} episodes`,
  ].join('\n');
}

export const simStatsCommand: CliCommand = {
  name: 'sim-stats',
  summary: 'Show how the offline simulated models behave on the folder\'s task pool',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      seed: { type: 'string', default: '1' },
      episodes: { type: 'string', default: '5' },
      max: { type: 'string', default: '40' },
      context: { type: 'string', default: 'full' },
      effort: { type: 'string' },
      json: { type: 'boolean', default: false },
    }, USAGE);
    const { values, positionals } = parsed;
    const folder = folderArgument(positionals, USAGE);
    const seed = Number(values.seed);
    const episodes = Number(values.episodes);
    if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, not '${values.seed}'`, 2);
    if (!Number.isInteger(episodes) || episodes < 1) throw new CliError(`--episodes must be a positive integer, not '${values.episodes}'`, 2);
    const max = Number(values.max);
    if (!Number.isInteger(max) || max < 1) throw new CliError(`--max must be a positive integer, not '${values.max}'`, 2);
    const contextLength = parseContextLength(values.context ?? 'full');
    if (!contextLength) throw new CliError(`--context must be 'full' or 'last-K', not '${values.context}'`, 2);
    const effort = values.effort;
    if (effort !== undefined && !['low', 'medium', 'high'].includes(effort)) throw new CliError(`--effort must be low, medium or high, not '${effort}'`, 2);

    const session = await openAgentSession(folder);
    try {
      const { tasks } = await buildTaskPool(session.toolContext, { max, seed });
      if (tasks.length === 0) throw new CliError('no tasks could be built for this folder (it needs tables with categories and numeric columns)');
      const seeds = Array.from({ length: episodes }, (_, i) => seed + i);
      if (!values.json) {
        const byLevel = (level: string) => tasks.filter((t) => t.difficulty.level === level).length;
        console.error(`${tasks.length} tasks in the pool (easy ${byLevel('easy')}, medium ${byLevel('medium')}, hard ${byLevel('hard')}); ${SIM_MODELS.length} models × ${episodes} seeds`);
      }
      const report = await runSimStats({
        tasks,
        toolContext: session.toolContext,
        seeds,
        contextLength,
        reasoningEffort: effort as ReasoningEffort | undefined,
      });
      if (values.json) {
        console.log(JSON.stringify({ ...report, tasks: tasks.map((t) => ({ id: t.id, family: t.family, level: t.difficulty.level, question: t.question })) }, null, 2));
      } else {
        console.log(formatSimStats(report));
      }
      return 0;
    } finally {
      await session.dispose();
    }
  },
};
