/**
 * The task pool on public data nobody on the team wrote, checked by what does not share its code:
 * - every selected task's evidence SQL, parsed by a real SQL parser, against the reviewer's column labels (no SUM
 *   or AVG of a time or an identifier, no SUM of a measure that does not add up, no GROUP BY over text or over more
 *   than 50 values, no correlation of a column with one it is computed from — r ≥ 0.999 on the data);
 * - every question passes the lint;
 * - every step's sub-answer, and the answer key, equal an independent re-execution of the step.
 */
import * as assert from 'node:assert/strict';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { SqlSandbox } from '../../src/core/sandbox/index';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { lintQuestion } from '../../src/core/taskpool/lint';
import { buildTaskPool, type TaskPoolResult } from '../../src/core/taskpool/pool';
import { statedAnswer } from '../../src/core/taskpool/validate';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { labelledColumns } from '../../scripts/benchSemantics';
import { meaningViolations, pythonQueries, type ColumnMeaning } from '../support/meaningCheck';
import { columnLabels, materialize, publicFixture } from '../support/publicFixtures';

/** Environments of every kind and of every label set (rules, the three sets measured blind), kept to a test's time. */
const ENVIRONMENTS = ['sakila', 'oracle-hr', 'vega-flights', 'football-premier-league', 'portal-weather', 'datahub-country-indicators', 'mssql-pubs', 'economist-big-mac', 'pudding-cetaceans', 'lahman-baseball', 'github-innovation-graph'];


describe('task pool on public data, checked independently', function () {
  this.timeout(900_000);
  const pools: Array<{ name: string; session: AgentSession; result: TaskPoolResult; meaning: (table: string, column: string) => ColumnMeaning | undefined; cleanup: () => void }> = [];

  before(async () => {
    for (const name of ENVIRONMENTS) {
      const fixture = publicFixture(name);
      const folder = await materialize(fixture);
      const session = await openAgentSession(folder.root);
      const result = await buildTaskPool(session.toolContext, { max: 40 });
      // Reviewer labels by (table, column); a partition's union view reads its files' labels.
      const labels = new Map<string, ColumnMeaning>();
      for (const m of labelledColumns(session.env, columnLabels(fixture)).matched) labels.set(`${m.table}.${m.column}`, { role: m.label.role, additivity: m.label.additivity || undefined });
      for (const p of session.env.semantics.partitions) {
        if (!p.view) continue;
        for (const column of p.columns) {
          const member = p.tables.map((t) => labels.get(`${t.table}.${column}`)).find(Boolean);
          if (member) labels.set(`${p.view}.${column}`, member);
        }
      }
      pools.push({ name, session, result, meaning: (table, column) => labels.get(`${table}.${column}`), cleanup: folder.cleanup });
    }
  });
  after(async () => {
    for (const p of pools) {
      await p.session.dispose();
      p.cleanup();
    }
  });

  it('no selected task aggregates, groups or correlates against what the columns mean (the reviewer labels)', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const { name, session, result, meaning } of pools) {
      const distinct = (table: string, column: string) => session.env.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column)?.distinctCount;
      for (const task of result.tasks) {
        for (const step of task.evidence) {
          const queries = step.tool === 'run_sql' ? [step.code] : pythonQueries(step.code).map((q) => q.replace(/ LIMIT \{.*$/, ''));
          for (const sql of queries) {
            checked++;
            let violations: ReturnType<typeof meaningViolations>;
            try {
              violations = meaningViolations(sql, meaning, distinct);
            } catch (error) {
              problems.push(`${name} ${task.id}: the parser cannot read ${sql}: ${(error as Error).message.slice(0, 120)}`);
              continue;
            }
            for (const v of violations) problems.push(`${name} ${task.id} (${task.question}): ${v.kind} ${v.table}.${v.column}: ${v.detail}`);
          }
        }
        // A correlation of a column with one computed from it: r on the data itself, not the profile's word.
        const pair = /\(AVG\((\w+)\."([^"]+)" \* (\w+)\."([^"]+)"\)/.exec(task.evidence.map((s) => s.code).join('\n'));
        if (task.dependency === 'correlation' && pair) {
          const from = /FROM (.*?) WHERE/.exec(task.evidence[0].code)?.[1];
          // Two-pass over every pair in SQL (the sandbox caps rows returned, and the first rows of a series can agree exactly).
          const [a, b] = [`${pair[1]}."${pair[2]}"`, `${pair[3]}."${pair[4]}"`];
          const known = `${a} IS NOT NULL AND ${b} IS NOT NULL`;
          const rows = from ? (await session.sql.run(`SELECT SUM((${a} - m.ma) * (${b} - m.mb)) / SQRT(SUM((${a} - m.ma) * (${a} - m.ma)) * SUM((${b} - m.mb) * (${b} - m.mb))) FROM ${from} CROSS JOIN (SELECT AVG(${a}) AS ma, AVG(${b}) AS mb FROM ${from} WHERE ${known}) AS m WHERE ${known}`)).rows ?? [] : [];
          const r = Number(rows[0]?.[0]);
          if (Math.abs(r) >= 0.999) problems.push(`${name} ${task.id}: correlates ${pair[2]} with ${pair[4]}, r = ${r.toFixed(4)} (one is computed from the other)`);
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} statements checked`);
    assert.deepEqual(problems, []);
  });

  it('every question passes the lint (repeated words, articles and counts, raw identifiers, length)', () => {
    const problems = pools.flatMap(({ name, result }) => [...result.tasks, ...result.unselected].flatMap((t) => lintQuestion(t.question).map((f) => `${name}: ${t.question} — ${f.rule}: ${f.detail}`)));
    assert.deepEqual(problems, []);
  });

  it("every step's sub-answer and every answer key equal an independent re-execution", async () => {
    let steps = 0;
    for (const { name, session, result } of pools) {
      const independent = new SqlSandbox(session.env.image);
      try {
        for (const task of result.tasks) {
          for (const [i, step] of task.evidence.entries()) {
            if (step.tool !== 'run_sql' || !step.subAnswer) continue;
            const rerun = await independent.run(step.code);
            assert.ok(rerun.ok, `${name} ${task.id} step ${i + 1}: ${rerun.error}`);
            const stated = statedAnswer(step.subAnswer.key, rerun.columns ?? [], rerun.rows ?? []);
            assert.ok(matchesAnswer(step.subAnswer.key, stated), `${name} ${task.id} step ${i + 1}: '${stated}' vs ${JSON.stringify(step.subAnswer.key)}`);
            steps++;
          }
          const last = task.evidence[task.evidence.length - 1];
          assert.deepEqual(last.subAnswer?.key, task.answer, `${name} ${task.id}: the answer key is the last step's`);
        }
      } finally {
        await independent.dispose();
      }
    }
    assert.ok(steps > 50, `only ${steps} steps re-executed`);
  });

  it('tells why a family found nothing, in what the data lacks', () => {
    for (const { result } of pools) {
      for (const f of result.families.filter((x) => x.candidates === 0)) assert.match(f.note ?? '', /^the data has none of what it needs: /);
    }
  });
});

export type { TaskSpec };
