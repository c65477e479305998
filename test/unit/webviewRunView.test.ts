import * as assert from 'node:assert/strict';
import { applyRunEvents, createRunView, describeObservation, describeToolCall, diffTrajectories, displayStatus, filterTrajectories, pathToNode, type WireEvent } from '../../src/shared/runView';
import { renderTable } from '../../src/core/agent/render';
import { RunStore } from '../../src/core/store';
import { auditGrounding } from '../../src/core/agent/grounding';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateRunEventInputs, stampEvents, XSS_CELL } from '../support/runEvents';

const wire = (events: unknown[]) => events as WireEvent[];

describe('webview: run view reducer', () => {
  it('builds tasks, nodes, decisions, trajectories and spend from a generated run and agrees with the store', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-runview-'));
    try {
      const store = RunStore.createInDir(path.join(dir, 'run'), { dataFolder: dir, seed: 3 });
      store.appendMany(generateRunEventInputs({ tasks: 3, nodesPerTask: 80, seed: 3 }));
      const state = store.state;
      const events = store.read().events;
      store.close();
      const view = createRunView();
      const delta = applyRunEvents(view, wire(events));
      assert.equal(view.nodeCount, state.nodeCount);
      assert.equal(view.taskOrder.length, 3);
      assert.equal(view.trajectoryOrder.length, state.trajectories.size);
      assert.ok(view.trajectoryOrder.length > 0, 'the generator admits trajectories');
      assert.ok(Math.abs(view.spend.totalUsd - state.spend.totalUsd) < 1e-9);
      assert.equal(delta.addedNodes.length, state.nodeCount);
      const task = view.tasks[view.taskOrder[0]];
      assert.equal(task.rootIds.length, 1);
      const root = task.nodes[task.rootIds[0]];
      assert.ok(root.visits > 1 && root.decision && root.decision.k >= 1 && root.decision.arms.length === 3);
      assert.equal(root.decision.mu.length, 3);
      // every node's children point back at it; a trajectory's path is a root-to-leaf chain
      for (const id of task.nodeOrder) for (const child of task.nodes[id].children) assert.equal(task.nodes[child].parentId, id);
      const trajectory = view.trajectories[view.trajectoryOrder[0]];
      const tTask = view.tasks[trajectory.taskId];
      assert.deepEqual(pathToNode(tTask, trajectory.nodePath[trajectory.nodePath.length - 1]), trajectory.nodePath);
      assert.ok(trajectory.models.length >= 1);
      assert.equal(view.budget.length, events.filter((e) => e.type === 'budget/spent').length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('extracts SQL, Python, malformed arguments and the observation table; keeps hostile text as data', () => {
    assert.deepEqual(describeToolCall({ id: 'c1', name: 'run_sql', arguments: '{"query":"SELECT 1"}' }), { name: 'run_sql', language: 'sql', code: 'SELECT 1' });
    assert.deepEqual(describeToolCall({ id: 'c2', name: 'run_python', arguments: '{"code":"print(1)"}' }), { name: 'run_python', language: 'python', code: 'print(1)' });
    assert.deepEqual(describeToolCall({ id: 'c3', name: 'run_sql', arguments: '{"query": SELECT' }), { name: 'run_sql', language: 'text', code: '{"query": SELECT' });
    assert.equal(describeToolCall({ id: 'c4', name: 'describe_table', arguments: '{"table":"orders"}' })?.language, 'json');
    // The explorer records the renderer's text; the renderer's own parser reads a result table back (cells with a
    // pipe included, a cut result marked truncated), and prose and errors stay text.
    const rendered = renderTable(['table', 'note'], [['customers', 'a | b'], ['orders', 3000], ['returns', null]], { limits: { maxRows: 2 } });
    assert.deepEqual(describeObservation(rendered, false), { kind: 'table', columns: ['table', 'note'], rows: [['customers', 'a | b'], ['orders', '3000']], truncated: true, isError: false });
    assert.deepEqual(describeObservation('Error: no such column: x | y', true), { kind: 'text', text: 'Error: no such column: x | y', isError: true });
    assert.equal(describeObservation('North', false)?.kind, 'text');
    const view = createRunView();
    applyRunEvents(view, wire(stampEvents(generateRunEventInputs({ tasks: 1, nodesPerTask: 6, seed: 1 }))));
    const task = view.tasks[view.taskOrder[0]];
    const withTable = task.nodeOrder.map((id) => task.nodes[id]).find((n) => n.observation?.kind === 'table' && n.observation.rows.some((r) => r.includes(XSS_CELL)));
    assert.ok(withTable, 'the XSS cell survives as a plain string in the table');
  });

  it('ignores replays and duplicate ids, counts unknown and dangling events, and shows curation on the path', () => {
    const events = stampEvents(generateRunEventInputs({ tasks: 1, nodesPerTask: 60, seed: 2 })) as unknown as WireEvent[];
    const view = createRunView();
    applyRunEvents(view, events);
    const nodes = view.nodeCount;
    applyRunEvents(view, events); // same seqs again: skipped
    assert.equal(view.nodeCount, nodes);
    let seq = view.lastSeq;
    const firstNode = events.find((e) => e.type === 'node/added')!;
    const trajectoryId = view.trajectoryOrder[0];
    assert.ok(trajectoryId);
    const delta = applyRunEvents(view, [
      { ...firstNode, seq: ++seq }, // a resumed task re-emits a node: ignored
      { v: 1, seq: ++seq, ts: 't', type: 'future/event' },
      { v: 2, seq: ++seq, ts: 't', type: 'node/added' },
      { v: 1, seq: ++seq, ts: 't', type: 'node/updated', taskId: 'nope', nodeId: 'n1', visits: 3 },
      { v: 1, seq: ++seq, ts: 't', type: 'node/added', taskId: view.taskOrder[0], nodeId: 'orphan', parentId: 'missing', status: 'open', thought: 42 },
      { v: 1, seq: ++seq, ts: 't', type: 'curation/pruned', trajectoryId },
    ]);
    assert.equal(view.duplicatesIgnored, 1);
    assert.equal(view.unknownEvents, 2);
    assert.equal(view.danglingReferences, 2);
    const orphan = view.tasks[view.taskOrder[0]].nodes.orphan;
    assert.equal(orphan.parentId, null, 'a child before its parent is shown as a root');
    assert.equal(orphan.thought, undefined, 'a mistyped field is dropped');
    const trajectory = view.trajectories[trajectoryId];
    const task = view.tasks[trajectory.taskId];
    const leaf = task.nodes[trajectory.nodePath[trajectory.nodePath.length - 1]];
    assert.equal(displayStatus(leaf), 'pruned');
    assert.ok(delta.updatedNodes.some((ref) => ref.nodeId === leaf.id));
    applyRunEvents(view, [{ v: 1, seq: ++seq, ts: 't', type: 'curation/accepted', trajectoryId }]);
    assert.equal(displayStatus(leaf), 'accepted');
    // the shared root lies on other trajectories too; accepted wins over pruned
    assert.equal(displayStatus(task.nodes[trajectory.nodePath[0]]), 'accepted');
  });

  it('filters trajectories (task, repair, model, curation) best first and diffs two siblings', () => {
    const view = createRunView();
    applyRunEvents(view, stampEvents(generateRunEventInputs({ tasks: 2, nodesPerTask: 150, seed: 9 })) as unknown as WireEvent[]);
    const all = filterTrajectories(view, {});
    assert.equal(all.length, view.trajectoryOrder.length);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].quality >= all[i].quality);
    const taskId = view.taskOrder[1];
    assert.ok(filterTrajectories(view, { taskId }).every((t) => t.taskId === taskId));
    const repaired = filterTrajectories(view, { hasRepair: true });
    const clean = filterTrajectories(view, { hasRepair: false });
    assert.equal(repaired.length + clean.length, all.length);
    assert.ok(filterTrajectories(view, { model: 'sim-large' }).every((t) => t.models.includes('sim-large')));
    assert.equal(filterTrajectories(view, { curation: 'accepted' }).length, 0);
    const sameTask = filterTrajectories(view, { taskId: view.taskOrder[0] });
    assert.ok(sameTask.length >= 2);
    const rows = diffTrajectories(view, sameTask[0].id, sameTask[1].id);
    assert.equal(rows[0].shared, true, 'both start at the shared root');
    const firstDivergent = rows.findIndex((r) => !r.shared);
    assert.ok(firstDivergent > 0);
    assert.ok(rows.slice(firstDivergent).every((r) => !r.shared));
  });
  it("shows a node's ungrounded names and values from its step record's grounding audit", () => {
    const call = { id: 'c1', name: 'run_sql', arguments: JSON.stringify({ query: 'SELECT COUNT(*) FROM orders GROUP BY customer_id HAVING SUM(amount) > 2000' }) };
    const grounding = auditGrounding(
      [{ index: 0, thought: '', toolCall: call, observation: { ok: true, tool: 'run_sql', data: { kind: 'stdout', stdout: '6' }, text: 'COUNT(*)\n6\n(1 row)', elapsedMs: 0 }, usage: { prompt: 0, completion: 0 }, costUsd: 0, latencyMs: 0, config: { provider: 'p', model: 'm', contextLength: { mode: 'full' }, simulated: true }, promptTokensEstimate: 0, droppedSteps: 0 }],
      { question: 'How many customers are VIP?', systemPrompt: '- orders (9 rows): customer_id int, amount real' },
    )[0];
    const view = createRunView();
    applyRunEvents(view, wire([
      { v: 1, seq: 1, ts: '2026-01-01T00:00:00.000Z', type: 'task/added', task: { id: 't', family: 'f', question: 'q', answer: { type: 'number' }, evidence: [], difficulty: {}, tables: [] } },
      { v: 1, seq: 2, ts: '2026-01-01T00:00:00.000Z', type: 'node/added', taskId: 't', nodeId: 'n0', parentId: null, status: 'open' },
      { v: 1, seq: 3, ts: '2026-01-01T00:00:00.000Z', type: 'node/added', taskId: 't', nodeId: 'n1', parentId: 'n0', status: 'verified', toolCall: call, step: { index: 0, toolCall: call, grounding } },
    ]));
    assert.deepEqual(view.tasks.t.nodes.n1.ungrounded, [{ kind: 'literal', text: '2000', why: 'a literal no observation, question or document read shows' }]);
    assert.equal(view.tasks.t.nodes.n0.ungrounded, undefined);
  });
});
