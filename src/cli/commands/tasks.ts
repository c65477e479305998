import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAgentSession } from '../../core/agent/session';
import { createOpenAiProvider } from '../../core/llm/openaiProvider';
import { OFFLINE_SIM_PROVIDER_ID } from '../../core/sim/index';
import { readBenchmarkFolder } from '../../core/taskpool/contamination';
import { TaskPoolOptions, TaskPoolResult, buildTaskPool, rejectionsByReason } from '../../core/taskpool/pool';
import type { ContaminationReference } from '../../core/taskpool/types';
import { formatPoolMix, poolMix } from '../../core/taskpool/report';
import type { EnvironmentProfile } from '../../core/env/types';
import { CliError, folderArgument, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee tasks <folder> [--max N] [--out tasks.jsonl] [--graph graph.json] [--benchmark DIR] [--provider openai|offline-sim] [--model M] [--base-url URL] [--api-key-env VAR] [--seed S] [--json]

Builds the task pool for the folder from what its data means (the semantic profile): multi-step task programs
(drill-down, lists kept in a cell, attribution of change, document metrics, cross-source reconciliation, clean-then-aggregate,
partitions, one series of a long table, distribution-then-subset, SQL-then-Python statistics, cohorts and funnels) and single-step families
(lookups, joins, rates, change over time, correlation, outliers, reconciliation, document rules, data quality).
Every candidate is validated (each step re-run and its sub-answer checked, replay through the agent's tools,
triviality, near-duplicates, contamination against --benchmark), and up to N diverse tasks are selected. Writes
one TaskSpec per line to --out and prints per-family counts, the pool's mix (compositions, steps per task,
coverage, what is absent and why) and rejections by reason.

  --provider openai   asks each question without data and rejects the ones the model answers correctly, and
                      has the model rephrase each selected question naturally (validated: meaning kept, no
                      answer leakage; the template question otherwise, with the reason recorded);
                      without it (or with offline-sim) the no-data check is recorded as skipped and the
                      deterministic template questions are used.
  --base-url URL      endpoint of the openai provider, e.g. http://localhost:11434/v1
  --api-key-env VAR   environment variable holding its key (default OPENAI_API_KEY)`;

export function formatTaskPool(result: TaskPoolResult, profile?: EnvironmentProfile): string {
  const lines: string[] = [];
  const width = Math.max(6, ...result.families.map((f) => f.id.length));
  lines.push(`${'family'.padEnd(width)}  candidates  valid  selected  note`);
  for (const f of result.families) {
    lines.push(`${f.id.padEnd(width)}  ${String(f.candidates).padStart(10)}  ${String(f.valid).padStart(5)}  ${String(f.selected).padStart(8)}  ${f.note ?? ''}`.trimEnd());
  }
  const levels = ['easy', 'medium', 'hard'].map((level) => `${level} ${result.tasks.filter((t) => t.difficulty.level === level).length}`).join(', ');
  lines.push('', `${result.tasks.length} tasks selected (${levels}) from ${result.tasks.length + result.unselected.length} valid; ${result.rejected.length} rejected; ${(result.elapsedMs / 1000).toFixed(1)} s`);
  const reasons = Object.entries(rejectionsByReason(result.rejected)).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0) lines.push(`Rejections by reason: ${reasons.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  const noData = result.tasks.filter((t) => t.validation?.noDataCheck === 'skipped').length;
  if (noData > 0) lines.push(`No-data check skipped for ${noData} tasks (no provider configured).`);
  const phrased = result.tasks.filter((t) => t.validation?.phrasing?.source === 'llm').length;
  lines.push(`Questions: ${phrased} phrased by the model, ${result.tasks.length - phrased} deterministic templates.`);
  if (profile) lines.push('', formatPoolMix(poolMix(result, profile)));
  for (const note of result.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

export const tasksCommand: CliCommand = {
  name: 'tasks',
  summary: 'Build, validate and select the task pool for a folder',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      max: { type: 'string', default: '40' },
      out: { type: 'string' },
      graph: { type: 'string' },
      benchmark: { type: 'string' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key-env': { type: 'string' },
      seed: { type: 'string', default: '0' },
      json: { type: 'boolean', default: false },
    }, USAGE);
    const { values, positionals } = parsed;
    const folder = folderArgument(positionals, USAGE);
    const max = Number(values.max);
    const seed = Number(values.seed);
    if (!Number.isInteger(max) || max < 1) throw new CliError(`--max must be a positive integer, not '${values.max}'`, 2);
    if (!Number.isInteger(seed)) throw new CliError(`--seed must be an integer, not '${values.seed}'`, 2);

    const contamination: ContaminationReference[] = [];
    if (values.benchmark !== undefined) {
      const dir = path.resolve(values.benchmark);
      if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new CliError(`--benchmark is not a folder: ${values.benchmark}`);
      const { reference, notes } = readBenchmarkFolder(dir);
      for (const note of notes) console.error(`benchmark: ${note}`);
      contamination.push(reference);
    }
    let noDataModel: TaskPoolOptions['noDataModel'];
    if (values.provider === 'openai') {
      const model = values.model ?? 'gpt-4o-mini';
      noDataModel = { provider: createOpenAiProvider({ baseUrl: values['base-url'], apiKeyEnv: values['api-key-env'], models: [model] }), model };
    } else if (values.provider !== undefined && values.provider !== OFFLINE_SIM_PROVIDER_ID) {
      throw new CliError(`unknown provider '${values.provider}'; use openai or offline-sim`, 2);
    }

    const session = await openAgentSession(folder);
    try {
      const result = await buildTaskPool(session.toolContext, {
        max,
        seed,
        contamination,
        noDataModel,
        // The same provider phrases the selected questions.
        phrasing: noDataModel,
        onProgress: values.json ? undefined : (message) => console.error(message),
      });
      if (values.out) fs.writeFileSync(path.resolve(values.out), result.tasks.map((t) => JSON.stringify(t)).join('\n') + (result.tasks.length ? '\n' : ''));
      if (values.graph) fs.writeFileSync(path.resolve(values.graph), JSON.stringify(result.graph, null, 1));
      if (values.json) {
        console.log(JSON.stringify({ families: result.families, rejected: result.rejected, byReason: rejectionsByReason(result.rejected), mix: poolMix(result, session.env.profile), notes: result.notes, elapsedMs: result.elapsedMs, tasks: result.tasks }, null, 1));
      } else {
        console.log(formatTaskPool(result, session.env.profile));
        if (values.out) console.log(`Wrote ${result.tasks.length} tasks to ${values.out}`);
      }
      return 0;
    } finally {
      await session.dispose();
    }
  },
};
