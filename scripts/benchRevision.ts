/**
 * `npm run bench:revision`: the offline reviser on real task pools. For the retail sample, Oracle's HR sample schema
 * (public data, test/fixtures/public/oracle-hr) and the Chinook- and Northwind-shaped fixture databases it builds the task pool, adds an `<table>_archive` look-alike (two thirds of
 * the rows) for the tables of single-table tasks, then reviews every sound task and every fault planted into one
 * (wrong anchor, wrong expected value, wrong answer key, unsupported quantity, unknown field, ambiguous question).
 * Prints, per environment and fault kind, how many were revised, rejected or (wrongly) kept, and how many sound
 * tasks were left untouched. The reviews here see no explored paths (the static and execution checks only).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession } from '../src/core/agent/session';
import { loadEnvironment } from '../src/core/env/index';
import { buildTaskPool } from '../src/core/taskpool/pool';
import { reviewTaskByRules } from '../src/core/taskpool/revise';
import type { TaskSpec } from '../src/core/taskpool/types';
import {
  archiveCopySql,
  plantAmbiguous,
  plantUnknownField,
  plantUnsupportedQuantity,
  plantWrongAnchor,
  plantWrongAnswerKey,
  plantWrongExpectedValue,
  type PlantKind,
} from '../test/unit/revisionPlants';

const root = path.resolve(__dirname, '..', '..');

function prepare(name: string, work: string): string {
  const dir = path.join(work, name);
  if (name === 'retail') fs.cpSync(path.join(root, 'media', 'samples', 'retail'), dir, { recursive: true, filter: (src) => !src.includes('.toffee') });
  else if (name === 'oracle-hr') {
    // Public data: Oracle's HR sample schema with its real rows, converted to SQLite as its README says.
    const base = path.join(root, 'test', 'fixtures', 'public', 'oracle-hr');
    const script = execFileSync('node', [path.join(root, 'scripts', 'fixtures', 'oracleToSqlite.mjs'), path.join(base, 'schema.sql'), path.join(base, 'hr_populate.sql')], { encoding: 'utf8' });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sqlite3', [path.join(dir, 'hr.sqlite')], { input: script });
  } else {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sqlite3', [path.join(dir, `${name}.sqlite`)], { input: fs.readFileSync(path.join(root, 'test', 'fixtures', `${name}.sql`)) });
  }
  return dir;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-revision-'));
  const max = Number(process.env.TOFFEE_BENCH_TASKS ?? 24);
  const totals = { sound: 0, untouched: 0, planted: 0, caught: 0 };
  try {
    const names = (process.env.TOFFEE_BENCH_ENVS ?? 'retail,oracle-hr,chinook,northwind').split(',').filter(Boolean);
    for (const name of names) {
      const dir = prepare(name, work);
      // The look-alike tables: one archive per table of a single-table task of the plain pool.
      const first = await openAgentSession(dir);
      let archived: string[];
      try {
        const pool = await buildTaskPool(first.toolContext, { max, seed: 1 });
        archived = [...new Set(pool.tasks.filter((t) => t.tables.length === 1 && plantAmbiguous(t)).map((t) => t.tables[0]))].slice(0, 4);
      } finally {
        await first.dispose();
      }
      const image = path.join(work, `${name}-image.sqlite`);
      fs.writeFileSync(image, (await loadEnvironment(dir)).image);
      const attach = `ATTACH '${path.join(dir, 'archive.sqlite')}' AS a; ${archived.map((t) => archiveCopySql(t).replace('CREATE TABLE "', 'CREATE TABLE a."')).join(' ')}`;
      if (archived.length > 0) execFileSync('sqlite3', [image], { input: attach });

      const session = await openAgentSession(dir);
      try {
        const pool = await buildTaskPool(session.toolContext, { max, seed: 1 });
        const review = (task: TaskSpec) => reviewTaskByRules({ task, profile: session.env.profile, graph: pool.graph, context: session.toolContext, paths: [] });
        let untouched = 0;
        const falsePositives: string[] = [];
        for (const task of pool.tasks) {
          const r = await review(task);
          if (r.decision === 'keep') untouched++;
          else falsePositives.push(`${task.id} "${task.question}": ${r.decision} — ${r.findings.map((f) => f.detail).join('; ')}`);
        }
        const counts = new Map<PlantKind, { revised: number; rejected: number; kept: number }>();
        const missed: string[] = [];
        for (const task of pool.tasks) {
          const plants: Array<[PlantKind, TaskSpec | undefined]> = [
            ['wrong-anchor', plantWrongAnchor(task, session.env.profile)],
            ['wrong-expected-value', plantWrongExpectedValue(task)],
            ['wrong-answer-key', plantWrongAnswerKey(task)],
            ['unsupported-quantity', plantUnsupportedQuantity(task)],
            ['unknown-field', plantUnknownField(task)],
            ['ambiguous', archived.includes(task.tables[0]) ? plantAmbiguous(task) : undefined],
          ];
          for (const [kind, planted] of plants) {
            if (!planted) continue;
            const r = await review(planted);
            const c = counts.get(kind) ?? { revised: 0, rejected: 0, kept: 0 };
            counts.set(kind, c);
            if (r.decision === 'revise') c.revised++;
            else if (r.decision === 'reject') c.rejected++;
            else {
              c.kept++;
              missed.push(`${kind} ${task.id}: ${planted.question}`);
            }
          }
        }
        const planted = [...counts.values()].reduce((s, c) => s + c.revised + c.rejected + c.kept, 0);
        const caught = [...counts.values()].reduce((s, c) => s + c.revised + c.rejected, 0);
        totals.sound += pool.tasks.length;
        totals.untouched += untouched;
        totals.planted += planted;
        totals.caught += caught;
        console.log(`\n${name}: ${session.env.profile.tables.length} tables (look-alikes added: ${archived.map((t) => `${t}_archive`).join(', ') || 'none'}), ${pool.tasks.length} sound tasks`);
        console.log(`  sound tasks untouched: ${untouched}/${pool.tasks.length}`);
        for (const line of falsePositives) console.log(`    touched: ${line}`);
        console.log(`  planted faults revised or rejected: ${caught}/${planted}`);
        for (const [kind, c] of counts) console.log(`    ${kind.padEnd(21)} revised ${c.revised}, rejected ${c.rejected}, kept ${c.kept}`);
        for (const line of missed) console.log(`    missed: ${line}`);
      } finally {
        await session.dispose();
      }
    }
    console.log(`\nall: sound untouched ${totals.untouched}/${totals.sound}; planted faults revised or rejected ${totals.caught}/${totals.planted}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
