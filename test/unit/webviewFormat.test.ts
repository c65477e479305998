import * as assert from 'node:assert/strict';
import { runName, runIdTime } from '../../src/shared/runNames';
import { applyRunEvents, createRunView, type NodeView, type WireEvent } from '../../src/shared/runView';
import { niceTicks, qualitySteps } from '../../webview/src/chartData';
import { armLabel, armShortLabel, exploredTaskId, MODEL_SHAPES, modelShape, stepLabel, taskState } from '../../webview/src/format';
import { generateRunEventInputs, stampEvents, TaskStreamGenerator } from '../support/runEvents';

describe('webview: names and chart data', () => {
  it('names cost-model arms and steps in words', () => {
    assert.equal(armLabel('offline-sim/sim-medium|full|medium|explore'), 'sim-medium · full context · medium effort · explore');
    assert.equal(armLabel('openai-compatible/gpt-4o-mini|last-4|-|repair'), 'gpt-4o-mini · last 4 steps · repair');
    assert.equal(armLabel('not an arm id'), 'not an arm id');
    assert.equal(armShortLabel('offline-sim/sim-large|last-4|high|repair'), 'sim-large · last 4 · high · repair');
    const node = (name: string, code: string, language: 'json' | 'sql' = 'json'): NodeView => ({ id: 'n1', taskId: 't', parentId: 'n0', children: [], status: 'open', depth: 1, visits: 0, trajectoryIds: [], addedSeq: 1, updatedSeq: 1, toolCall: { name, language, code } });
    assert.equal(stepLabel(node('describe_table', '{\n  "table": "orders"\n}')), 'describe_table(orders)');
    assert.equal(stepLabel(node('final_answer', '{"answer": "North", "explanation": "…"}')), 'final_answer: North');
    assert.equal(stepLabel(node('run_sql', 'SELECT region,\n  SUM(total)\nFROM orders', 'sql')), 'run_sql: SELECT region, SUM(total) FROM orders');
  });

  it('gives each model the same shape in every run; the simulated models one each', () => {
    assert.deepEqual(['sim-small', 'sim-medium', 'sim-large'].map(modelShape), ['ellipse', 'diamond', 'round-rectangle']);
    assert.equal(modelShape('gpt-4o-mini'), modelShape('gpt-4o-mini'));
    assert.ok(MODEL_SHAPES.includes(modelShape('some-new-model')));
  });

  it('names a run by its folder and start time', () => {
    assert.equal(runIdTime('20261201T114633869Z-abc123')?.toISOString(), '2026-12-01T11:46:33.869Z');
    assert.match(runName({ runId: '20261201T114633869Z-abc123', dataFolder: '/data/retail' }), /^retail · Dec 1, \d\d:\d\d$/);
    assert.equal(runName({ runId: 'custom-run' }), 'custom-run');
  });

  it('follows the unfinished task that received the last node; states say where each task stands', () => {
    const first = new TaskStreamGenerator(0, 20, 3).drain();
    const second = new TaskStreamGenerator(1, 20, 3);
    const view = createRunView();
    applyRunEvents(view, stampEvents([...first, ...second.next(), ...second.next()]) as unknown as WireEvent[]);
    assert.equal(exploredTaskId(view), 'task-001');
    assert.equal(taskState(view.tasks['task-000'], true), 'finished');
    assert.equal(taskState(view.tasks['task-001'], true), 'exploring');
    assert.equal(taskState(view.tasks['task-001'], false), 'stopped');
  });

  it('opens a finished run on the last explored task that has a trajectory, not on one that found nothing', () => {
    const first = new TaskStreamGenerator(0, 20, 3).drain();
    const second = new TaskStreamGenerator(1, 20, 3).drain().filter((e) => e.type !== 'trajectory/admitted');
    assert.ok(first.some((e) => e.type === 'trajectory/admitted') && first.some((e) => e.type === 'task/finished') && second.some((e) => e.type === 'task/finished'));
    const view = createRunView();
    applyRunEvents(view, stampEvents([...first, ...second]) as unknown as WireEvent[]);
    assert.equal(exploredTaskId(view), 'task-000', 'task-001 was explored last but admitted nothing');
    const nothing = createRunView();
    applyRunEvents(nothing, stampEvents([...first.filter((e) => e.type !== 'trajectory/admitted'), ...second]) as unknown as WireEvent[]);
    assert.equal(exploredTaskId(nothing), 'task-001', 'with no trajectory anywhere, the last task explored');
  });

  it('draws best quality as a step line from $0 to the task spend, rising at the expansion that admitted it', () => {
    const view = createRunView();
    applyRunEvents(view, stampEvents(generateRunEventInputs({ tasks: 1, nodesPerTask: 60, seed: 2 })) as unknown as WireEvent[]);
    const task = view.tasks[view.taskOrder[0]];
    const steps = qualitySteps(view, task);
    assert.ok(steps.length > 2, `${steps.length} points`);
    assert.deepEqual(steps[0], { usd: 0, quality: 0 });
    assert.ok(Math.abs(steps.at(-1)!.usd - task.spentUsd) < 1e-12, 'ends at what the task spent');
    assert.equal(steps.at(-1)!.quality, task.bestQuality);
    for (let i = 1; i < steps.length; i++) {
      assert.ok(steps[i].usd >= steps[i - 1].usd, 'spend only grows');
      assert.ok(steps[i].quality >= steps[i - 1].quality, 'best quality only grows');
    }
    assert.deepEqual(niceTicks(0.05, 4), [0, 0.02, 0.04]);
    assert.deepEqual(niceTicks(1, 4), [0, 0.5, 1]);
  });
});
