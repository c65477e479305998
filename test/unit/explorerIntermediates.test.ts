/**
 * The verifier checks a task program's intermediate results by the figures of the step that reports them, on the
 * sample's real pool: the reference path of every multi-step task agrees with itself; the VIP task's share step
 * executed with the share's numerator replaced by COUNT(*) (a wrong aggregation: 100% for every city, the cities in
 * the reference order) names the right city with the wrong figures, and the trajectory, though its answer matches,
 * is rejected as 'wrong-intermediate'.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { executeToolCall } from '../../src/core/agent/tools';
import type { AgentStep } from '../../src/core/agent/types';
import { checkIntermediates, sameFigure } from '../../src/core/explorer/intermediates';
import { codeSimilarity } from '../../src/core/sim/history';
import { analyticProgress, attemptedLastStep, cleaningRejection, coveredEvidence, verifyTrajectory } from '../../src/core/explorer/verifier';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';

const ROOT = path.resolve(__dirname, '../../..');

async function stepOf(session: AgentSession, index: number, name: string, args: Record<string, unknown>): Promise<AgentStep> {
  const observation = await executeToolCall(session.toolContext, { name, arguments: JSON.stringify(args) });
  return {
    index,
    thought: '',
    toolCall: { id: `c${index}`, name, arguments: JSON.stringify(args) },
    observation,
    usage: { prompt: 1, completion: 1 },
    costUsd: 0.001,
    latencyMs: 1,
    config: { provider: 'p', model: 'm', contextLength: { mode: 'full' }, simulated: true },
    promptTokensEstimate: 1,
    droppedSteps: 0,
  };
}

/** The task's reference solution as a trajectory: each evidence step executed (with `code` replaced where given), then the answer. */
async function referencePath(session: AgentSession, task: TaskSpec, replace: Record<number, string> = {}): Promise<AgentStep[]> {
  const steps: AgentStep[] = [];
  for (const [i, ev] of task.evidence.entries()) {
    const code = replace[i] ?? ev.code;
    steps.push(await stepOf(session, steps.length, ev.tool, ev.tool === 'run_sql' ? { query: code } : { code }));
  }
  const answer = task.answer.type === 'number' ? String(task.answer.value) : task.answer.type === 'string' ? task.answer.value : task.answer.type === 'list' ? task.answer.values.join(', ') : task.answer.rows.map((r) => String(r[0])).join(', ');
  const sub = task.evidence.flatMap((e) => (e.subAnswer?.key.type === 'string' ? [e.subAnswer.key.value] : e.subAnswer?.key.type === 'number' ? [String(e.subAnswer.key.value)] : []));
  steps.push(await stepOf(session, steps.length, 'final_answer', { answer, explanation: `found ${sub.join(', then ')}` }));
  return steps;
}

describe('explorer: intermediate results checked by their figures', function () {
  this.timeout(300_000);
  let session: AgentSession;
  let tasks: TaskSpec[];

  before(async () => {
    session = await openAgentSession(path.join(ROOT, 'media/samples/retail'));
    ({ tasks } = await buildTaskPool(session.toolContext, { max: 14, seed: 1 }));
  });
  after(async () => session.dispose());

  it('compares figures at the precision the less precise one shows', () => {
    assert.ok(sameFigure(20.45, 20.4545));
    assert.ok(sameFigure(44, '44'));
    assert.ok(!sameFigure(20.45, 100));
    assert.ok(sameFigure(20.45, 20.5), '20.5 is 20.45 at one decimal');
    assert.ok(!sameFigure(20.45, 20.6));
    assert.ok(sameFigure('Nashville', 'nashville'));
  });

  it("finds every multi-step reference path's sub-answers with the reference's figures", async () => {
    const multi = tasks.filter((t) => t.evidence.length > 1 && t.evidence.some((e) => e.subAnswer));
    assert.ok(multi.length >= 3, `the sample's pool has multi-step programs (${multi.length})`);
    let reported = 0;
    for (const task of multi) {
      const steps = await referencePath(session, task);
      const checks = checkIntermediates(task.evidence, steps);
      assert.ok(checks.every((c) => !c.contradicted), `${task.id}: ${JSON.stringify(checks.filter((c) => c.contradicted))}`);
      reported += checks.filter((c) => c.agrees).length;
      const v = verifyTrajectory(task, steps);
      assert.deepEqual(v.wrongIntermediates, [], task.id);
      assert.notEqual(cleaningRejection(steps, v), 'wrong-intermediate', task.id);
    }
    assert.ok(reported >= multi.length, `reference steps report their sub-answers (${reported} over ${multi.length} tasks)`);
  });

  it("scores a path's analytic progress by the results it reached, not by how its queries look", async () => {
    const task = tasks.find((t) => t.family === 'document-metric' && t.evidence.length === 3)!;
    const right = await referencePath(session, task);
    const beforeAnswer = right.slice(0, -1);
    assert.equal(analyticProgress(task, beforeAnswer), 1, 'the reference path reaches every step');
    assert.equal(analyticProgress(task, right.slice(0, 1)), 1 / 3, 'after its first query, one step of three');
    assert.equal(attemptedLastStep(task, right.slice(0, 2)), false, 'the share step is not the last step, however alike their code');
    assert.equal(attemptedLastStep(task, beforeAnswer), true);

    // A Python step that repeats the one before it and adds a line is as like one as the other by its code: its
    // result says which it was.
    const repeating = tasks.filter((t) => t.evidence.length >= 3 && t.evidence.slice(-2).every((e) => e.tool === 'run_python') && codeSimilarity(t.evidence.at(-2)!.code, t.evidence.at(-1)!.code) > 0.95);
    assert.ok(repeating.length >= 2, `the sample has Python programs whose last step repeats the one before (${repeating.map((t) => t.family)})`);
    for (const program of repeating) {
      const n = program.evidence.length;
      const whole = await referencePath(session, program);
      assert.equal(attemptedLastStep(program, whole.slice(0, n - 1)), false, `${program.family}: one step is still to come`);
      // The last step's code, run so that it printed only the step before's figure (its new line left out of the
      // output): by its code it is the last step, by its result the one before.
      const mixed = { ...whole[n - 1], observation: { ...whole[n - 2].observation, args: whole[n - 1].observation.args } } as AgentStep;
      assert.equal(attemptedLastStep(program, [...whole.slice(0, n - 1), mixed]), false, `${program.family}: a result the step before already had`);
      assert.equal(attemptedLastStep(program, whole.slice(0, n)), true, program.family);
    }

    const wrong = task.evidence[1].code.replace(/ROUND\(100\.0 \* COUNT\(matching\.entity\)/, 'ROUND(100.0 * COUNT(*)');
    const off = (await referencePath(session, task, { 1: wrong })).slice(0, 2);
    assert.equal(coveredEvidence(task, off).size, 3, 'coverage by code similarity counts the wrong share step, and the last step besides');
    assert.equal(analyticProgress(task, off), 0, 'the share reported with wrong figures costs what the count step earned');
  });

  it("rejects the VIP task's trajectory whose share step has 100% for every city, though its answer matches", async () => {
    const task = tasks.find((t) => t.family === 'document-metric' && t.evidence.length === 3);
    assert.ok(task, 'the sample has the VIP document-metric task');
    const share = task.evidence[1];
    assert.equal(share.subAnswer?.key.type, 'string');
    const wrong = share.code.replace(/ROUND\(100\.0 \* COUNT\(matching\.entity\)/, 'ROUND(100.0 * COUNT(*)');
    assert.notEqual(wrong, share.code, 'the share step computes its share from COUNT(matching.entity)');

    const right = await referencePath(session, task);
    const good = verifyTrajectory(task, right);
    assert.equal(cleaningRejection(right, good), undefined, 'the reference path is admitted');

    const steps = await referencePath(session, task, { 1: wrong });
    const data = steps[1].observation.data;
    assert.ok(data.kind === 'rows' && data.rows.length > 2 && data.rows.every((r) => Number(r[1]) === 100), 'every city has a share of 100');
    const subKey = share.subAnswer!.key;
    assert.ok(subKey.type === 'string' && data.rows[0][0] === subKey.value, 'the city is still named first');
    const v = verifyTrajectory(task, steps);
    assert.equal(v.verified, true, 'the final answer matches the key');
    assert.equal(v.wrongIntermediates?.length, 1);
    assert.equal(v.wrongIntermediates![0].evidenceStep, 1);
    assert.ok(v.wrongIntermediates![0].reports[0].disagreements.some((d) => d.column === 'share_pct' && Number(d.got) === 100));
    const criterion = v.rubric!.criteria.find((c) => c.kind === 'sub_answer' && task.rubric!.find((r) => r.id === c.id)!.check.kind === 'sub_answer' && (task.rubric!.find((r) => r.id === c.id)!.check as { step: number }).step === 1);
    assert.equal(criterion?.holds, false, 'the sub-answer criterion of the share step does not hold');
    assert.match(criterion?.note ?? '', /share_pct 100 \(the reference: /);
    assert.ok(v.quality < good.quality);
    assert.equal(cleaningRejection(steps, v), 'wrong-intermediate');
  });
});
