/**
 * Grounding wired in: `runStep` records each step's audit, the verifier's quality pays for ungrounded items, and on a
 * real offline run of the bundled sample the export's audit flags only what nothing shown contains, drops the
 * trajectories whose answer depends on an ungrounded literal, and collapses near-copies into the best of each group.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemPromptFor } from '../../src/core/agent/prompt';
import { runEpisode } from '../../src/core/agent/episode';
import type { AgentSession } from '../../src/core/agent/session';
import { loadEnvironment } from '../../src/core/env/index';
import type { DataEnvironment } from '../../src/core/env/types';
import { GROUNDING_PENALTY, verifyTrajectory } from '../../src/core/explorer/verifier';
import { filterUngrounded } from '../../src/core/export/grounding';
import { collapseNearCopies, trajectorySignature } from '../../src/core/export/nearCopies';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { buildSftExport } from '../../src/core/export/sftExport';
import type { ExportTrajectory } from '../../src/core/export/types';
import type { Completion, LlmProvider } from '../../src/core/llm/types';
import { synthesize } from '../../src/core/run/synthesize';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { openShop } from './agentFixture';
import { RETAIL_SAMPLE } from './exportFixture';

function scripted(calls: Array<{ name: string; args: Record<string, unknown> }>): LlmProvider {
  let i = 0;
  return {
    id: 'scripted',
    async listModels() {
      return [{ id: 'script-1', provider: 'scripted', inputPerMTok: 1, outputPerMTok: 2, contextWindow: 100_000, supportsTools: true, supportsReasoningEffort: false, simulated: false }];
    },
    async complete(): Promise<Completion> {
      const next = calls[i++];
      return { message: { content: 'Next step.', toolCalls: next ? [{ id: `c${i}`, name: next.name, arguments: JSON.stringify(next.args) }] : [] }, usage: { prompt: 10, completion: 5 }, costUsd: 0, latencyMs: 1 };
    },
  };
}

/** Whether `text` occurs in `shown` as a whole token (0.8 is not in 0.85). */
function occursAsToken(shown: string, text: string): boolean {
  const escaped = text.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![a-z0-9_.])${escaped}(?![a-z0-9_]|\\.\\d)`).test(shown.toLowerCase());
}

describe('explorer: grounding in the verifier and the export', function () {
  this.timeout(600_000);

  describe('on a scripted episode in the shop fixture', () => {
    let shop: Awaited<ReturnType<typeof openShop>>;
    let session: AgentSession;
    before(async () => {
      shop = await openShop();
      session = shop.session;
    });
    after(async () => shop?.close());

    async function episode(readFirst: boolean) {
      const orders = session.env.profile.tables.find((t) => t.sourceFile === 'orders.csv')!.name;
      const query = `SELECT COUNT(*) AS large_orders FROM ${orders} WHERE amount > 200`;
      const count = await session.toolContext.sql.run(query);
      const answer = String(count.rows?.[0]?.[0]);
      const calls = [
        ...(readFirst ? [{ name: 'read_document', args: { name: 'rules.md', section: 'Large orders' } }] : []),
        { name: 'run_sql', args: { query } },
        { name: 'final_answer', args: { answer, explanation: 'Counted orders above the large-order threshold.' } },
      ];
      const result = await runEpisode({ task: { question: 'How many orders are large, as the rules document defines them?' }, config: { provider: scripted(calls), model: 'script-1' }, toolContext: session.toolContext });
      const task: TaskSpec = {
        id: 'large-orders',
        family: 'document-parameter',
        question: 'How many orders are large, as the rules document defines them?',
        answer: { type: 'number', value: Number(answer), tolerance: 0 },
        evidence: [{ tool: 'run_sql', code: query, purpose: 'count large orders' }],
        difficulty: { steps: 1, tables: 1, joins: 0, aggregation: true, window: false, python: false, level: 'easy' },
        tables: [orders],
      };
      return { steps: result.steps, task };
    }

    it('records the audit on each step and lowers the quality of the path that invented the threshold', async () => {
      const blind = await episode(false);
      const read = await episode(true);
      const blindSql = blind.steps.find((s) => s.toolCall?.name === 'run_sql')!;
      assert.deepEqual(blindSql.grounding?.ungrounded.map((u) => [u.kind, u.text]), [['literal', '200']]);
      assert.match(blindSql.grounding!.ungrounded[0].why, /rules\.md/);
      assert.deepEqual(read.steps.find((s) => s.toolCall?.name === 'run_sql')!.grounding?.ungrounded, []);

      const vBlind = verifyTrajectory(blind.task, blind.steps);
      const vRead = verifyTrajectory(read.task, read.steps);
      assert.equal(vBlind.verified, true);
      assert.equal(vRead.verified, true);
      assert.equal(vBlind.grounding?.penalised, 1);
      assert.deepEqual(vBlind.grounding?.answerDependsOn.map((u) => u.text), ['200']);
      assert.equal(vRead.grounding?.penalised, 0);
      assert.ok(Math.abs(vRead.quality - vBlind.quality - GROUNDING_PENALTY.perItem) < 1e-9, `${vRead.quality} vs ${vBlind.quality}: the penalty is the only difference`);
      // Re-audited from sources (as export does for steps read back from a run), the verdict is the same.
      const sources = { question: blind.task.question, systemPrompt: systemPromptFor(session.env.profile, session.toolContext.documents) };
      const stripped = blind.steps.map((s) => ({ ...s, grounding: undefined }));
      assert.equal(verifyTrajectory(blind.task, stripped).grounding, undefined, 'no audit recorded, no sources: not audited');
      assert.deepEqual(verifyTrajectory(blind.task, stripped, { grounding: sources }).grounding?.answerDependsOn.map((u) => u.text), ['200']);
    });
  });

  describe('on a real offline run of the bundled retail sample', () => {
    let work: string;
    let env: DataEnvironment;
    let trajectories: ExportTrajectory[];
    before(async () => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-grounding-'));
      const data = path.join(work, 'retail');
      fs.cpSync(RETAIL_SAMPLE, data, { recursive: true });
      const runDir = path.join(work, 'run');
      const summary = await synthesize({ folder: data, outDir: runDir, costModelFile: null, seed: 1 });
      assert.ok(summary.verifiedTrajectories > 0);
      trajectories = trajectoriesFromRun(runDir).trajectories;
      env = await loadEnvironment(data);
    });
    after(() => fs.rmSync(work, { recursive: true, force: true }));

    it('flags only literals nothing shown before their step contains, and drops the answers that depend on one', () => {
      const environment = { profile: env.profile, documents: env.documents };
      const result = filterUngrounded(trajectories, environment, true);
      const report = result.report;
      console.log(`      admitted ${report.audited}; with ungrounded literals ${report.withUngroundedLiterals}: ${[...new Set(report.literals.map((l) => l.text))].join(', ') || '(none)'}; answer depends on one: ${report.answerDependsOnUngrounded}`);
      assert.equal(report.audited, trajectories.length);
      for (const literal of report.literals) {
        const t = trajectories.find((x) => x.trajectoryId === literal.trajectoryId)!;
        const at = t.steps.findIndex((s) => s.index === literal.step);
        const shown = [systemPromptFor(env.profile, env.documents), t.task.question, ...t.steps.slice(0, at).map((s) => s.observation.text)].join('\n');
        assert.ok(!occursAsToken(shown, literal.text), `${literal.trajectoryId} step ${literal.step}: '${literal.text}' was shown`);
        assert.ok(occursAsToken(t.steps[at].toolCall!.arguments, literal.text), `'${literal.text}' is in the call it is reported for`);
      }
      // Dropped exactly when the answer depends on an ungrounded literal; kept otherwise.
      assert.equal(result.kept.length + report.dropped.length, trajectories.length);
      for (const id of report.dropped) assert.ok(result.audits.get(id)!.answerDependsOn.length > 0);
      for (const t of result.kept) assert.deepEqual(result.audits.get(t.trajectoryId)!.answerDependsOn, []);
      // The recorded quality paid for the ungrounded items the explorer's steps carried.
      for (const t of trajectories) {
        const penalised = result.audits.get(t.trajectoryId)!.penalised;
        if (penalised > 0) assert.ok(t.quality <= 1 - Math.min(GROUNDING_PENALTY.max, GROUNDING_PENALTY.perItem * penalised) + 1e-9, `${t.trajectoryId}: quality ${t.quality} with ${penalised} ungrounded`);
      }
      const kept = filterUngrounded(trajectories, environment, false);
      assert.equal(kept.kept.length, trajectories.length, '--keep-ungrounded keeps them all');
    });

    it('collapses near-copies into the best of each group, keeps every task, and --select still works after it', () => {
      const { kept, report } = collapseNearCopies(trajectories, true);
      console.log(`      near-copies: ${report.collapsed.length} collapsed in ${report.groups} groups; ${kept.length} of ${trajectories.length} kept`);
      assert.equal(kept.length + report.collapsed.length, trajectories.length);
      assert.deepEqual(new Set(kept.map((t) => t.task.id)), new Set(trajectories.map((t) => t.task.id)), 'every task keeps a trajectory');
      const byId = new Map(trajectories.map((t) => [t.trajectoryId, t]));
      for (const c of report.collapsed) {
        const copy = byId.get(c.trajectoryId)!;
        const best = byId.get(c.keptTrajectoryId)!;
        assert.equal(trajectorySignature(copy), trajectorySignature(best));
        assert.ok(best.quality >= copy.quality);
        assert.ok(kept.includes(best) && !kept.includes(copy));
      }
      // Kept trajectories are pairwise distinct within a task.
      const signatures = kept.map((t) => `${t.task.id}\u0002${trajectorySignature(t)}`);
      assert.equal(new Set(signatures).size, signatures.length);

      const environment = { profile: env.profile, documents: env.documents };
      const exported = buildSftExport(trajectories, environment, { format: 'openai', selection: { mode: 'anchored', perTask: 2 }, dropRepeats: false });
      const rs = exported.report.selection.rubricSelection;
      assert.equal(exported.report.nearCopies.collapsed.length, report.collapsed.filter((c) => !exported.report.grounding.dropped.includes(c.trajectoryId) && !exported.report.grounding.dropped.includes(c.keptTrajectoryId)).length);
      assert.equal(rs.candidates, trajectories.length - exported.report.grounding.dropped.length - exported.report.nearCopies.collapsed.length);
      assert.ok(rs.kept <= 2 * rs.tasks);
      assert.equal(exported.report.written + exported.report.excluded.length, rs.kept);
      const all = buildSftExport(trajectories, environment, { format: 'openai', dropUngrounded: false, collapseNearCopies: false, dropRepeats: false });
      assert.equal(all.report.selection.rubricSelection.candidates, trajectories.length, 'every filter can be turned off');
      // With repeated calls left out too (the default), each filter takes its own: none counts a trajectory twice.
      const lean = buildSftExport(trajectories, environment, { format: 'openai' });
      const r = lean.report;
      assert.equal(r.selection.rubricSelection.candidates, trajectories.length - r.grounding.dropped.length - (r.repeats?.dropped.length ?? 0) - r.nearCopies.collapsed.length);
    });
  });
});
