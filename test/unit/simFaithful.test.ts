/**
 * The simulated agent earns its answers, on the sample and two public fixtures: every repaired step's diagnosis
 * names exactly the diff between the failed and the repaired call; a document task reads the document before it
 * queries; a multi-step task's later step takes the earlier result from its own observation; typos stay rare;
 * string literals it writes were shown to it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { runEpisode } from '../../src/core/agent/episode';
import { buildPrompt } from '../../src/core/agent/prompt';
import { AgentSession, openAgentSession } from '../../src/core/agent/session';
import type { AgentStep } from '../../src/core/agent/types';
import { literalsOf } from '../../src/core/sim/grounding';
import { SimDecision, createSimulatedProvider, simulationScript } from '../../src/core/sim/simulatedProvider';
import { repairAgreement, stepCode } from '../../src/core/sim/stats';
import { CATEGORY_OF } from '../../src/core/sim/taxonomy';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';

const ROOT = path.resolve(__dirname, '../../..');
const FOLDERS = ['media/samples/retail', 'test/fixtures/public/sakila', 'test/fixtures/public/oracle-hr'];

/** Everything an episode's agent had been shown before step i: question, system prompt, earlier observations. */
function shownBefore(session: AgentSession, task: TaskSpec, steps: AgentStep[], i: number): string {
  const prompt = buildPrompt({ question: task.question, profile: session.env.profile, documents: session.toolContext.documents, history: steps.slice(0, i), contextLength: { mode: 'full' } });
  return prompt.messages.filter((m) => m.role !== 'assistant').map((m) => m.content ?? '').join('\n');
}

describe('offline-sim: an agent that earns its answers', function () {
  this.timeout(900_000);
  const runs: Array<{ folder: string; task: TaskSpec; session: AgentSession; steps: AgentStep[]; decisions: SimDecision[] }> = [];
  const sessions: AgentSession[] = [];

  before(async () => {
    for (const folder of FOLDERS) {
      const session = await openAgentSession(path.join(ROOT, folder));
      sessions.push(session);
      const { tasks } = await buildTaskPool(session.toolContext, { max: 14, seed: 1 });
      for (const task of tasks) {
        for (const model of ['sim-small', 'sim-medium', 'sim-large']) {
          for (const seed of [1, 2]) {
            const decisions: SimDecision[] = [];
            const provider = createSimulatedProvider({ script: simulationScript(task, seed), onDecision: (d) => decisions.push(d) });
            const result = await runEpisode({ task: { question: task.question, taskId: task.id }, config: { provider, model }, toolContext: session.toolContext, maxSteps: 16 });
            runs.push({ folder, task, session, steps: result.steps, decisions });
          }
        }
      }
    }
  });
  after(async () => {
    for (const s of sessions) await s.dispose();
  });

  it('diagnoses every repaired step by exactly the diff between the failed and the repaired call', () => {
    let repaired = 0;
    for (const run of runs) {
      for (const r of repairAgreement(run.steps)) {
        repaired++;
        assert.ok(r.agrees, `${run.folder} ${run.task.id} step ${r.index}: diagnosis names ${r.named}, the calls differ by ${r.diff}`);
      }
    }
    assert.ok(repaired >= 10, `repaired steps: ${repaired}`);
  });

  it('reads the document section before the query of a document task, and takes the rule from it', () => {
    const documentRuns = runs.filter((r) => (r.task.documents ?? []).length > 0);
    assert.ok(documentRuns.length > 0, 'the sample has document tasks');
    for (const run of documentRuns) {
      const firstQuery = run.steps.findIndex((s) => s.toolCall?.name === 'run_sql' || s.toolCall?.name === 'run_python');
      if (firstQuery < 0) continue;
      const read = run.steps.findIndex((s) => s.toolCall?.name === 'read_document' && s.observation.ok);
      assert.ok(read >= 0 && read < firstQuery, `${run.task.id}: read_document at ${read}, first query at ${firstQuery}`);
    }
    // The VIP rule of the sample's business_rules.md: its threshold is written only after the section showing it was read.
    const vip = documentRuns.filter((r) => /VIP/.test(r.task.question));
    assert.ok(vip.length > 0, 'the sample has the VIP task');
    for (const run of vip) {
      const use = run.steps.findIndex((s) => /2000/.test(stepCode(s) ?? ''));
      if (use < 0) continue;
      const read = run.steps.findIndex((s) => s.toolCall?.name === 'read_document' && /\$2,000/.test(s.observation.text));
      assert.ok(read >= 0 && read < use, `${run.task.id}: the $2,000 rule read at ${read}, used at ${use}`);
    }
  });

  it('describes only the tables its steps read, and reads a document task\'s rule before describing any', () => {
    let described = 0;
    for (const run of runs) {
      const codes = run.task.evidence.map((e) => e.code.toLowerCase()).join('\n');
      const tables = run.steps.filter((s) => s.toolCall?.name === 'describe_table' && s.observation.ok).map((s) => String((JSON.parse(s.toolCall!.arguments) as { table?: unknown }).table));
      for (const table of tables) {
        described++;
        assert.ok(codes.includes(table.toLowerCase()), `${run.folder} ${run.task.id}: described ${table}, which no step of the task reads`);
      }
      if ((run.task.documents ?? []).length === 0) continue;
      const read = run.steps.findIndex((s) => s.toolCall?.name === 'read_document' && s.observation.ok);
      const describe = run.steps.findIndex((s) => s.toolCall?.name === 'describe_table');
      if (read >= 0 && describe >= 0) assert.ok(read < describe, `${run.task.id}: read_document at ${read}, describe_table at ${describe}`);
    }
    assert.ok(described > 0, 'tables were described');
  });

  it('writes no string literal it was not shown, and only shown numbers apart from a structural few', () => {
    let checked = 0;
    for (const run of runs) {
      run.steps.forEach((step, i) => {
        if (step.toolCall?.name !== 'run_sql') return;
        const shown = shownBefore(run.session, run.task, run.steps, i);
        for (const literal of literalsOf(stepCode(step) ?? '')) {
          if (literal.kind !== 'string' || literal.value === '' || literal.value.startsWith('%')) continue;
          checked++;
          assert.ok(shown.includes(literal.value), `${run.task.id} step ${i}: ${literal.text} was never shown`);
        }
      });
    }
    assert.ok(checked > 0, 'string literals were checked');
  });

  it('writes into its Python only the numbers its own observations printed, and looks again at a result of only NULL', () => {
    let assigned = 0;
    let nulls = 0;
    for (const run of runs) {
      run.steps.forEach((step, i) => {
        if (step.toolCall?.name === 'run_sql' && step.observation.ok && /\n(NULL\n)+\(\d+ rows?\)/.test(`\n${step.observation.text}`.replace(/^[^\n]*\n/, '\n')) && i + 1 < run.steps.length) {
          // A result of NULLs only (a join on the wrong key) is looked at again: the next call reruns the query, mended.
          nulls++;
          assert.equal(run.steps[i + 1].toolCall?.name, 'run_sql', `${run.task.id} step ${i + 1} after only NULL`);
          assert.match(run.steps[i + 1].thought ?? '', /only NULL/);
        }
        if (step.toolCall?.name !== 'run_python') return;
        const shown = shownBefore(run.session, run.task, run.steps, i).replace(/(\d),(?=\d{3}\b)/g, '$1');
        // (Only numbers the reference's own results hold: `page = 1000` is a page size, no finding.)
        const found = new Set(run.task.evidence.flatMap((e) => (e.result?.rows ?? []).flat()).filter((v) => typeof v === 'number').map(String));
        for (const m of (stepCode(step) ?? '').matchAll(/^\s*\w+\s*=\s*(-?\d+(?:\.\d+)?)\s*$/gm)) {
          if (!found.has(String(Number(m[1])))) continue;
          assigned++;
          assert.ok(new RegExp(`(?<![\\d.])${m[1].replace('.', '\\.').replace('-', '-?')}(?![\\d])`).test(shown), `${run.task.id} step ${i}: ${m[1]} written before any observation showed it`);
        }
      });
    }
    assert.ok(assigned > 0, 'Python steps assign earlier results');
    void nulls;
  });

  it('takes a multi-step task\'s carried value from its own earlier observation', () => {
    let carried = 0;
    for (const run of runs) {
      for (const d of run.decisions) {
        for (const c of d.carried ?? []) {
          carried++;
          // What it carried is in an earlier observation of the episode.
          const stepIndex = d.stepIndex;
          const before = run.steps.slice(0, stepIndex).map((s) => s.observation.text).join('\n');
          assert.ok(before.includes(c.to.replace(/^'|'$/g, '')), `${run.task.id}: carried ${c.to} was not observed`);
        }
      }
      // Every carried literal of the reference that the episode's step writes was observed before it.
      run.task.evidence.forEach((step) => {
        for (const value of step.subAnswer?.carries ?? []) {
          // A text value is written as an SQL string ('employees'), not as a name that happens to equal it (FROM "employees").
          const written = /^-?\d/.test(value) ? value : `'${value.replace(/'/g, "''")}'`;
          const at = run.steps.findIndex((s) => (stepCode(s) ?? '').includes(written) && s.toolCall?.name === step.tool);
          if (at < 0) continue;
          const seen = run.steps.slice(0, at).map((s) => s.observation.text).join('\n') + shownBefore(run.session, run.task, [], 0);
          assert.ok(seen.includes(value), `${run.task.id}: ${value} written at step ${at} before any observation showed it`);
        }
      });
    }
    assert.ok(runs.some((r) => r.task.evidence.some((e) => e.subAnswer?.carries?.length)), 'the pools have multi-step tasks');
    void carried;
  });

  it('names in its thoughts and explanation only the earlier findings it was shown', () => {
    let named = 0;
    for (const run of runs) {
      const findings = run.task.evidence.slice(0, -1).flatMap((e) => (e.subAnswer?.key.type === 'string' ? [e.subAnswer.key.value] : []));
      run.steps.forEach((step, i) => {
        const said = `${step.thought} ${step.toolCall?.name === 'final_answer' ? step.toolCall.arguments : ''}`;
        for (const value of findings) {
          if (!said.includes(value)) continue;
          named++;
          const seen = run.steps.slice(0, i).map((s) => s.observation.text).join('\n') + shownBefore(run.session, run.task, [], 0);
          assert.ok(seen.includes(value), `${run.task.id} step ${i}: names ${value} before any observation showed it: ${said.slice(0, 200)}`);
        }
      });
    }
    assert.ok(named > 0, 'episodes name earlier findings');
  });

  it('errs mostly as real agents do: typos are at most 10% of the mistakes', () => {
    const categories = runs.flatMap((r) => r.decisions).filter((d) => d.mistake && CATEGORY_OF[d.mistake] !== 'answer').map((d) => CATEGORY_OF[d.mistake!]);
    assert.ok(categories.length >= 20, `mistakes: ${categories.length}`);
    const typos = categories.filter((c) => c === 'typo').length;
    assert.ok(typos / categories.length <= 0.1, `typos ${typos} of ${categories.length}`);
    assert.ok(new Set(categories).size >= 4, `categories seen: ${[...new Set(categories)].join(', ')}`);
  });
});
