/**
 * `npm run bench:pool`: the task pool's mix on the bundled sample and every public environment — selected tasks,
 * the share with ≥ 3 and ≥ 4 executed reference steps, the compositions that appear (multi-step programs; the
 * single-step families count as `lookup` / `document-rule` and are not compositions), and the time to build it.
 * Targets (issue "Multi-step analytic tasks"): ≥ 50% with ≥ 3 steps, ≥ 25% with ≥ 4, six compositions where the
 * data allows. `--questions FILE` writes every selected question as JSONL (environment, id, composition, steps,
 * question) for a reviewer who labels them without the code.
 *
 *   node out/scripts/benchPool.js [--env NAME[,NAME]] [--questions FILE] [--json]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAgentSession } from '../src/core/agent/session';
import { buildTaskPool } from '../src/core/taskpool/pool';
import { poolMix, type PoolMix } from '../src/core/taskpool/report';
import { materialize, PUBLIC_ENVIRONMENTS } from '../test/support/publicFixtures';

const SINGLE_STEP = new Set(['lookup', 'document-rule']);

interface Row {
  environment: string;
  mix: PoolMix;
  compositions: string[];
  seconds: number;
}

async function poolOf(name: string, root: string, questions?: fs.WriteStream): Promise<Row> {
  const started = Date.now();
  const session = await openAgentSession(root);
  try {
    const result = await buildTaskPool(session.toolContext);
    const mix = poolMix(result, session.env.profile);
    for (const task of result.tasks) {
      questions?.write(`${JSON.stringify({ environment: name, id: task.id, composition: task.program?.composition ?? task.family, steps: task.evidence.length, question: task.question })}\n`);
    }
    return { environment: name, mix, compositions: Object.keys(mix.compositions).filter((c) => !SINGLE_STEP.has(c)), seconds: (Date.now() - started) / 1000 };
  } finally {
    await session.dispose();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const only = flag('--env')?.split(',');
  const questionsFile = flag('--questions');
  const questions = questionsFile ? fs.createWriteStream(questionsFile) : undefined;
  const rows: Row[] = [];
  if (!only || only.includes('sample')) rows.push(await poolOf('sample', path.join(__dirname, '..', '..', 'media', 'samples', 'retail'), questions));
  for (const fixture of PUBLIC_ENVIRONMENTS.filter((f) => !only || only.includes(f.name))) {
    const m = await materialize(fixture);
    try {
      rows.push(await poolOf(fixture.name, m.root, questions));
    } finally {
      m.cleanup();
    }
  }
  questions?.end();
  if (args.includes('--json')) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : '—').padStart(5);
  console.log(`${'environment'.padEnd(28)} tasks  ≥3 st  ≥4 st  comp  seconds  compositions`);
  for (const r of rows) {
    console.log(`${r.environment.padEnd(28)} ${String(r.mix.selected).padStart(5)}  ${pct(r.mix.atLeast3Steps)}  ${pct(r.mix.atLeast4Steps)}  ${String(r.compositions.length).padStart(4)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.compositions.join(', ')}`);
  }
  const tasks = rows.reduce((n, r) => n + r.mix.selected, 0);
  const three = rows.reduce((n, r) => n + r.mix.atLeast3Steps * r.mix.selected, 0);
  const four = rows.reduce((n, r) => n + r.mix.atLeast4Steps * r.mix.selected, 0);
  console.log(`${'all'.padEnd(28)} ${String(tasks).padStart(5)}  ${pct(three / tasks)}  ${pct(four / tasks)}`);
  console.log(`environments meeting ≥ 50% / ≥ 25%: ${rows.filter((r) => r.mix.atLeast3Steps >= 0.5 && r.mix.atLeast4Steps >= 0.25).length} of ${rows.length}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
