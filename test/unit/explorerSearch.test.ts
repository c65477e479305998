import * as assert from 'node:assert/strict';
import type { AgentSession } from '../../src/core/agent/session';
import { executeToolCall, type CodeRunner, type ToolContext } from '../../src/core/agent/tools';
import type { AgentStep } from '../../src/core/agent/types';
import { runEpisodes } from '../../src/core/explorer/baselines';
import { PrefixCache, canonicalCall } from '../../src/core/explorer/prefixCache';
import { affordableWidth, answeredWrongElsewhere, costModelPolicy, fixedConfigPolicy, selectChild, settled, widenCandidate } from '../../src/core/explorer/policy';
import { runSearch, type SearchResult } from '../../src/core/explorer/search';
import { createStepRunner } from '../../src/core/explorer/stepRunner';
import { SearchTree } from '../../src/core/explorer/tree';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../../src/core/lcm/index';
import type { ArmConfig } from '../../src/core/lcm/types';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import type { ModelSpec } from '../../src/core/llm/types';
import { SqlSandbox } from '../../src/core/sandbox/index';
import type { RunEventInput } from '../../src/core/store/events';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { filteredAggregateFamily, groupContrastFamily, joinTopKFamily, buildStarterTasks } from '../../src/core/taskpool/families/index';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { explorerToolContext } from '../../src/core/run/exploreTask';
import { openShop } from './agentFixture';

function fakeStep(index: number, tool: string, args: Record<string, unknown>, ok: boolean, data: AgentStep['observation']['data'] = { kind: 'rows', columns: ['x'], rows: [[1]], truncated: false }): AgentStep {
  return {
    index,
    thought: '',
    toolCall: { id: `c${index}`, name: tool, arguments: JSON.stringify(args) },
    observation: ok ? { ok, tool, args, data, text: 'x', elapsedMs: 1 } : { ok, tool, args, data: { kind: 'error', message: 'no such column: amt' }, text: 'Error: no such column: amt', errorKind: 'sql', elapsedMs: 1 },
    usage: { prompt: 10, completion: 5 },
    costUsd: 0.001,
    latencyMs: 10,
    config: { provider: 'p', model: 'm', contextLength: { mode: 'full' }, simulated: true },
    promptTokensEstimate: 10,
    droppedSteps: 0,
  };
}

describe('explorer: tree and pure policies', () => {
  it('keeps the tree flat and id-indexed, backpropagates and closes upward', () => {
    const tree = new SearchTree({ question: 'q' });
    const a = tree.addChild(0, fakeStep(0, 'list_tables', {}, true), undefined, undefined, 0.7);
    const b = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1' }, false), undefined, undefined, 0.3);
    const c = tree.addChild(a.index, fakeStep(1, 'run_sql', { query: 'SELECT 2' }, true), undefined, undefined, 1);
    assert.deepEqual([a.id, b.id, c.id], ['n1', 'n2', 'n3']);
    assert.equal(tree.byId('n3'), c);
    assert.deepEqual(tree.pathTo(c.index), [0, 1, 3]);
    assert.deepEqual(tree.stateAt(c.index).steps.map((s) => s.index), [0, 1]);
    tree.backpropagate(c.index, 0.5);
    assert.equal(tree.root.visits, 1);
    assert.equal(a.valueSum, 0.5);
    assert.equal(b.visits, 0);
    c.closed = true;
    tree.closeUpward(c.index);
    assert.equal(a.closed, true, 'a node whose only child is closed is closed');
    assert.equal(tree.root.closed, false, 'the root still has an open child');
  });

  it('selects by PUCT: an unvisited child with a high prior beats a visited mediocre one, closed children never', () => {
    const tree = new SearchTree({ question: 'q' });
    const visited = tree.addChild(0, fakeStep(0, 'list_tables', {}, true), undefined, undefined, 0.2);
    const fresh = tree.addChild(0, fakeStep(0, 'list_tables', {}, true), undefined, undefined, 0.8);
    tree.backpropagate(visited.index, 0.3);
    assert.equal(selectChild(tree, tree.root, 1), fresh);
    fresh.closed = true;
    assert.equal(selectChild(tree, tree.root, 1), visited);
    visited.closed = true;
    assert.equal(selectChild(tree, tree.root, 1), undefined);
  });

  it('widens the most promising non-final state once every branch has ended', () => {
    const tree = new SearchTree({ question: 'q' });
    const sql = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1' }, true), undefined, undefined, 1);
    const answer = tree.addChild(sql.index, fakeStep(1, 'final_answer', { answer: '1' }, true), undefined, undefined, 1);
    answer.quality = 0.3;
    answer.verified = false;
    Object.assign(tree.root, { visits: 3, valueSum: 0.6 });
    Object.assign(sql, { visits: 2, valueSum: 0.8 });
    assert.equal(widenCandidate(tree, 10, 3), sql, 'the sql state has the higher mean value');
    assert.equal(widenCandidate(tree, 10, 3, new Set([sql.index])), tree.root);
    assert.equal(widenCandidate(tree, 1, 3, new Set([0])), undefined, 'nothing below the max depth is left');
  });

  it('does not widen a state whose children all agree, but keeps widening one whose children differ', () => {
    const tree = new SearchTree({ question: 'q' });
    const copies = [0, 1, 2].map(() => tree.addChild(0, fakeStep(0, 'list_tables', {}, true), undefined, undefined, 1 / 3));
    assert.equal(settled(tree, tree.root), true, 'three configs made the same call and saw the same tables');
    const sql = copies[0];
    const results = ['SELECT 1', 'SELECT 2', 'SELECT 1'].map((query) => tree.addChild(sql.index, fakeStep(1, 'run_sql', { query }, true), undefined, undefined, 1 / 3));
    assert.equal(settled(tree, sql), false, 'two of three queries agree: the next step still varies by config');
    const other = new SearchTree({ question: 'q' });
    for (let i = 0; i < 3; i++) other.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 5' }, true), undefined, undefined, 1 / 3);
    assert.equal(settled(other, other.root), false, 'three configs writing the same query do not settle what a stronger one writes');
    const answers = [0, 1, 2].map(() => tree.addChild(results[1].index, fakeStep(2, 'final_answer', { answer: '7' }, true, { kind: 'final', answer: '7' } as AgentStep['observation']['data']), undefined, undefined, 1 / 3));
    assert.equal(settled(tree, results[1]), true, 'the same answer read three times off one result');
    for (const a of answers) a.quality = 0;
    Object.assign(tree.root, { visits: 9, valueSum: 4 });
    Object.assign(sql, { visits: 6, valueSum: 1 });
    Object.assign(results[1], { visits: 3, valueSum: 0 });
    assert.equal(widenCandidate(tree, 10, 3), sql, 'the root and the answered result are settled; the query state is not');
    for (let i = 0; i < 8; i++) tree.addChild(sql.index, fakeStep(1, 'run_sql', { query: `SELECT ${10 + i}` }, true), undefined, undefined, 0.1);
    assert.equal(sql.childIndices.length, 11);
    assert.equal(widenCandidate(tree, 10, 3), sql, 'a state that keeps giving new results is widened past 2·maxK children');
    tree.addChild(sql.index, fakeStep(1, 'run_sql', { query: 'SELECT 99' }, true), undefined, undefined, 0.1);
    assert.equal(widenCandidate(tree, 10, 3), undefined, 'but not past WIDEN_CAP·maxK');
  });

  it('does not read a result again after two wrong answers, here or where another path reached the same result', () => {
    const tree = new SearchTree({ question: 'q' });
    const final = (answer: string) => fakeStep(1, 'final_answer', { answer }, true, { kind: 'final', answer } as AgentStep['observation']['data']);
    const query = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1' }, true), undefined, undefined, 1);
    const wrong = tree.addChild(query.index, final('7'), undefined, undefined, 1);
    Object.assign(wrong, { quality: 0.2, verified: false });
    assert.equal(settled(tree, query), false, 'one wrong reading may be the reader\'s mistake');
    const again = tree.addChild(query.index, final('8'), undefined, undefined, 1);
    Object.assign(again, { quality: 0.2, verified: false });
    assert.equal(settled(tree, query), true, 'two wrong readings: the mistake is in the result');
    const results = new Map([[`run_sql\u0000x`, [query.index]]]);
    const elsewhere = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1 -- again' }, true), undefined, undefined, 1);
    assert.equal(answeredWrongElsewhere(tree, elsewhere, results), true, 'the same result, reached by another call');
    again.verified = true;
    assert.equal(answeredWrongElsewhere(tree, elsewhere, results), false, 'one right reading keeps it worth answering');
  });

  it('settles a state whose last three children each repeated an earlier sibling, queries included', () => {
    const tree = new SearchTree({ question: 'q' });
    const state = tree.addChild(0, fakeStep(0, 'describe_table', { table: 't' }, true), undefined, undefined, 1);
    const query = (q: string) => tree.addChild(state.index, fakeStep(1, 'run_sql', { query: q }, true, { kind: 'rows', columns: ['x'], rows: [[q]], truncated: false }), undefined, undefined, 0.2);
    query('SELECT 1');
    query('SELECT 2');
    query('SELECT 1');
    query('SELECT 2');
    assert.equal(settled(tree, state), false, 'two repeats in a row: a third config may still write something new');
    query('SELECT 1');
    assert.equal(settled(tree, state), true, 'three new configs in a row gave only copies: widening buys more copies');
    query('SELECT 3');
    assert.equal(settled(tree, state), false, 'a new result reopens it');
  });

  it('reads neither a premature answer nor a right answer rejected for its path as a wrong reading of the state', () => {
    const tree = new SearchTree({ question: 'q' });
    const final = (answer: string) => fakeStep(1, 'final_answer', { answer }, true, { kind: 'final', answer } as AgentStep['observation']['data']);
    const query = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1' }, true), undefined, undefined, 1);
    const hasty = [0, 1].map(() => Object.assign(tree.addChild(query.index, final('Newark'), undefined, undefined, 1), { quality: 0.4, verified: false, admitted: false, premature: true }));
    assert.equal(settled(tree, query), false, 'two answers given before the last step: the state is an intermediate result');
    const results = new Map([[`run_sql\u0000x`, [query.index]]]);
    const elsewhere = tree.addChild(0, fakeStep(0, 'run_sql', { query: 'SELECT 1 -- again' }, true), undefined, undefined, 1);
    assert.equal(answeredWrongElsewhere(tree, elsewhere, results), false);
    for (const h of hasty) Object.assign(h, { quality: 0.98, verified: true, premature: false });
    assert.equal(settled(tree, query), false, 'right answers rejected for a wrong intermediate earlier on their path read the result right');
    assert.equal(answeredWrongElsewhere(tree, elsewhere, results), false);
    for (const h of hasty) h.verified = false;
    assert.equal(settled(tree, query), true, 'two wrong readings of the last result settle it');
  });

  it('stops an expansion once a config repeats what a sibling did', async () => {
    const task = { id: 't', question: 'How many?', tables: [], evidence: [], answer: { type: 'number', value: 1 }, difficulty: { level: 'easy' } } as unknown as TaskSpec;
    const calls: string[] = [];
    const runner = {
      async step(input: { state: { steps: AgentStep[] }; arm: ArmConfig }): Promise<AgentStep> {
        calls.push(input.arm.model);
        return { ...fakeStep(input.state.steps.length, 'list_tables', {}, true), config: { provider: input.arm.provider, model: input.arm.model, contextLength: { mode: 'full' }, simulated: true } };
      },
    };
    const arm = (model: string): ArmConfig => ({ provider: 'p', model, contextLength: 'full', reasoningEffort: 'low', operator: 'explore' });
    const policy = {
      name: 'three',
      choose: () => ({ arms: [arm('a'), arm('b'), arm('c')], armIds: ['a', 'b', 'c'], priors: [0.5, 0.3, 0.2], expectedCosts: [0.001, 0.001, 0.001] }),
      learn: () => {},
    };
    const result = await runSearch(task, runner as never, policy, { budgetUsd: 1, maxDepth: 1, maxExpansions: 1 });
    assert.deepEqual(calls.slice(0, 2), ['a', 'b'], 'the first two configs ran');
    assert.equal(result.tree.root.childIndices.length, 2, 'the third config was not asked: the second repeated the first');
  });

  it('continues from a state after an answer given before the last step, rather than closing it', async () => {
    const rows = (column: string, value: number): AgentStep['observation']['data'] => ({ kind: 'rows', columns: [column], rows: [[value]], truncated: false });
    const task = {
      id: 't',
      family: 'drill-down',
      question: 'Two steps?',
      tables: [],
      answer: { type: 'number', value: 2, tolerance: 0 },
      difficulty: { level: 'medium' },
      evidence: [
        { tool: 'run_sql', code: 'SELECT 1 AS a', result: { columns: ['a'], rows: [[1]] }, subAnswer: { key: { type: 'number', value: 1, tolerance: 0 } } },
        { tool: 'run_sql', code: 'SELECT 2 AS b', result: { columns: ['b'], rows: [[2]] } },
      ],
    } as unknown as TaskSpec;
    let hasty = true;
    const runner = {
      async step(input: { state: { steps: AgentStep[] } }): Promise<AgentStep> {
        const depth = input.state.steps.length;
        const step = (tool: string, args: Record<string, unknown>, data: AgentStep['observation']['data']) => ({ ...fakeStep(depth, tool, args, true, data), observation: { ok: true, tool, args, data, text: JSON.stringify(data), elapsedMs: 1 } }) as AgentStep;
        if (depth === 0) return step('run_sql', { query: 'SELECT 1 AS a' }, rows('a', 1));
        if (depth === 1 && hasty) {
          hasty = false;
          return step('final_answer', { answer: '1' }, { kind: 'final', answer: '1' } as AgentStep['observation']['data']);
        }
        if (depth === 1) return step('run_sql', { query: 'SELECT 2 AS b' }, rows('b', 2));
        return step('final_answer', { answer: '2' }, { kind: 'final', answer: '2' } as AgentStep['observation']['data']);
      },
    };
    const arm: ArmConfig = { provider: 'p', model: 'm', contextLength: 'full', reasoningEffort: 'low', operator: 'explore' };
    const policy = { name: 'one', choose: () => ({ arms: [arm], armIds: ['m'], priors: [1], expectedCosts: [0.001] }), learn: () => {} };
    const early = await runSearch(task, runner as never, policy, { budgetUsd: 1, maxExpansions: 2 });
    const state = early.tree.node(1);
    const answer = early.tree.node(state.childIndices[0]);
    assert.equal(answer.premature, true, "the answer came before the path ran the program's last step");
    assert.equal(state.closed, false, 'the intermediate result stays open');
    assert.equal(early.tree.root.closed, false, 'so the search descends to it again instead of widening elsewhere');
    hasty = true;
    const whole = await runSearch(task, runner as never, policy, { budgetUsd: 1, maxExpansions: 4 });
    assert.equal(whole.admitted.length, 1);
    assert.deepEqual(whole.admitted[0].steps.map((s) => s.toolCall?.arguments), ['{"query":"SELECT 1 AS a"}', '{"query":"SELECT 2 AS b"}', '{"answer":"2"}']);
  });

  it('narrows the branch width to what the budget can carry to an answer', () => {
    assert.equal(affordableWidth([0.01, 0.01, 0.01], 1, 5), 3);
    assert.equal(affordableWidth([0.01, 0.01, 0.01], 0.1, 5), 2);
    assert.equal(affordableWidth([0.01, 0.01, 0.01], 0.001, 5), 1, 'the best child always goes');
    assert.equal(affordableWidth([], 1, 5), 0);
  });
});

describe('explorer: prefix cache', () => {
  function countingContext(): { context: ToolContext; runs: string[] } {
    const runs: string[] = [];
    const sql: CodeRunner = {
      async run(code: string) {
        runs.push(code);
        if (code.includes('slow')) return { ok: false, error: 'the query timed out', errorKind: 'timeout', elapsedMs: 5 };
        if (code.includes('broken')) return { ok: false, error: 'the sandbox worker died', errorKind: 'internal', elapsedMs: 1 };
        return { ok: true, columns: ['n'], rows: [[runs.length]], elapsedMs: 7 };
      },
    };
    return { runs, context: { profile: { tables: [] } as unknown as ToolContext['profile'], documents: [], sql } };
  }

  it('canonicalises calls: key order, SQL whitespace and trailing semicolons do not matter', () => {
    assert.equal(canonicalCall({ name: 'run_sql', arguments: '{"query":"SELECT  1\\n FROM t;"}' }), canonicalCall({ name: 'run_sql', arguments: '{"query": "SELECT 1 FROM t"}' }));
    assert.notEqual(canonicalCall({ name: 'run_sql', arguments: '{"query":"SELECT 1"}' }), canonicalCall({ name: 'run_sql', arguments: '{"query":"SELECT 2"}' }));
    assert.equal(canonicalCall({ name: 'describe_table', arguments: '{"table":"Orders"}' }), canonicalCall({ name: 'describe_table', arguments: '{"table":"orders"}' }));
  });

  it('executes a call once and serves it again by prefix and by call, a timeout too; never a sandbox failure', async () => {
    const { context, runs } = countingContext();
    const cache = new PrefixCache(context);
    const call = { name: 'run_sql', arguments: '{"query":"SELECT 1"}' };
    const first = await cache.execute('t1', [], call);
    const again = await cache.execute('t2', [], { name: 'run_sql', arguments: '{"query":"SELECT 1;"}' });
    const elsewhere = await cache.execute('t2', ['list_tables\u0000{}'], call);
    assert.equal(first.reused, null);
    assert.equal(again.reused, 'prefix');
    assert.equal(elsewhere.reused, 'call');
    assert.deepEqual(again.observation.data, first.observation.data);
    assert.equal(runs.length, 1);
    await cache.execute('t1', [], { name: 'run_sql', arguments: '{"query":"SELECT slow"}' });
    const slowAgain = await cache.execute('t2', [], { name: 'run_sql', arguments: '{"query":"SELECT slow"}' });
    assert.equal(runs.length, 2, 'a timed-out query is not run again in this run');
    assert.equal(slowAgain.observation.errorKind, 'timeout');
    await cache.execute('t1', [], { name: 'run_sql', arguments: '{"query":"SELECT broken"}' });
    await cache.execute('t1', [], { name: 'run_sql', arguments: '{"query":"SELECT broken"}' });
    assert.equal(runs.length, 4, 'a sandbox failure says nothing about the call: it runs again');
    const stats = cache.stats();
    assert.equal(stats.requests, 7);
    assert.equal(stats.executions, 4);
    assert.equal(stats.prefixHits + stats.callHits, 3);
    assert.ok(stats.sharedNodes >= 1, 'the first call is shared by two tasks');
  });
});

describe('explorer: MCTS over real execution (offline-sim)', function () {
  this.timeout(180_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let session: AgentSession;
  let tasks: TaskSpec[];
  let models: ModelSpec[];
  let arms: ArmConfig[];
  const provider = createSimulatedProvider();

  before(async () => {
    shop = await openShop();
    session = shop.session;
    tasks = await buildStarterTasks(session.env, { sql: session.sql }, { families: [filteredAggregateFamily, groupContrastFamily, joinTopKFamily], maxPerFamily: 2 });
    assert.ok(tasks.length >= 4, `the fixture should give several tasks, got ${tasks.length}`);
    models = await provider.listModels();
    arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
  });
  after(async () => shop?.close());

  async function search(task: TaskSpec, seed: number, budgetUsd: number, model = new LearnedCostModel(arms, { estimateCostUsd: createPriceCostEstimator(models) }), events?: RunEventInput[][], signal?: AbortSignal): Promise<SearchResult> {
    const toolContext = explorerToolContext(session);
    const runner = createStepRunner({ task, providers: [provider], models, toolContext, prefixCache: new PrefixCache(toolContext), seed });
    return runSearch(task, runner, costModelPolicy(model), { budgetUsd, signal, onEvents: events ? (batch) => events.push(batch) : undefined });
  }

  it('is deterministic for a seed and stays within the budget (give or take the last expansion)', async () => {
    const task = tasks[0];
    const a = await search(task, 7, 0.05);
    const b = await search(task, 7, 0.05);
    assert.equal(a.tree.size, b.tree.size);
    assert.deepEqual(a.admitted.map((t) => t.trajectoryId), b.admitted.map((t) => t.trajectoryId));
    assert.deepEqual(a.tree.nodes.map((n) => n.step?.toolCall?.arguments ?? ''), b.tree.nodes.map((n) => n.step?.toolCall?.arguments ?? ''));
    assert.ok(a.admitted.length > 0, 'a $0.05 search on an easy task admits a trajectory');
    const lastExpansion = Math.max(...a.tree.nodes.filter((n) => n.childIndices.length).map((n) => n.childIndices.reduce((s, c) => s + (a.tree.node(c).step?.costUsd ?? 0), 0)));
    assert.ok(a.spentUsd <= 0.05 + lastExpansion, `spent ${a.spentUsd}`);
    // Another seed explores differently: on an easy task one seed's models may make the same calls as another's, so
    // the seed must change the tree for some of a few other seeds (never for none).
    const calls = (r: SearchResult) => r.tree.nodes.map((n) => n.step?.toolCall?.arguments ?? '');
    const differs = async (t: TaskSpec) => {
      const base = calls(await search(t, 7, 0.05));
      for (const seed of [8, 9, 10, 11]) if (JSON.stringify(calls(await search(t, seed, 0.05))) !== JSON.stringify(base)) return true;
      return false;
    };
    let some = false;
    for (const t of tasks) if ((some = await differs(t))) break;
    assert.ok(some, 'another seed explores differently');
  });

  it('re-checks every admitted answer by an independent execution on a fresh sandbox', async () => {
    const fresh = new SqlSandbox(session.env.image);
    try {
      let checked = 0;
      for (const task of tasks) {
        const result = await search(task, 3, 0.05);
        for (const trajectory of result.admitted) {
          assert.ok(trajectory.verification.verified);
          const final = trajectory.steps[trajectory.steps.length - 1];
          assert.equal(final.observation.data.kind, 'final');
          const answer = (final.observation.data as { answer: string }).answer;
          assert.ok(matchesAnswer(task.answer, answer), `${trajectory.trajectoryId}: ${answer}`);
          // Every successful SQL step of the trajectory gives the same rows when run again elsewhere.
          for (const step of trajectory.steps.filter((s) => s.toolCall?.name === 'run_sql' && s.observation.ok)) {
            const rerun = await executeToolCall({ ...session.toolContext, sql: fresh }, step.toolCall!);
            assert.deepEqual(rerun.data, step.observation.data, `${trajectory.trajectoryId} step ${step.index}`);
          }
          // And the reference solution, executed independently, yields the same key value.
          const last = task.evidence[task.evidence.length - 1];
          if (last.tool === 'run_sql') {
            const reference = await fresh.run(last.code);
            assert.ok(reference.ok && reference.rows && reference.rows.length > 0);
            const value = String(reference.rows![0][0]);
            if (task.answer.type === 'number' || task.answer.type === 'string') assert.ok(matchesAnswer(task.answer, value), `${task.id}: reference ${value}`);
          }
          checked++;
        }
      }
      assert.ok(checked >= tasks.length, `checked ${checked} trajectories`);
    } finally {
      await fresh.dispose();
    }
  });

  it('expands one copy of a state: siblings with the same call and observation close at once', async () => {
    let duplicates = 0;
    for (const task of tasks) {
      const result = await search(task, 1, 0.02);
      for (const node of result.tree.nodes) {
        const seen = new Map<string, number>();
        for (const index of node.childIndices) {
          const child = result.tree.node(index);
          const step = child.step!;
          if (!step.toolCall || (step.observation.ok && step.observation.data.kind === 'final')) continue;
          const key = `${canonicalCall(step.toolCall)} ${step.observation.text}`;
          const first = seen.get(key);
          if (first === undefined) {
            seen.set(key, index);
            continue;
          }
          duplicates++;
          assert.equal(child.status, 'pruned', `${child.id} repeats ${result.tree.node(first).id}`);
          assert.ok(child.closed);
          assert.deepEqual(child.childIndices, [], `${child.id} repeats ${result.tree.node(first).id} but was expanded`);
        }
      }
    }
    // A fresh cost model branches at the root, where every config lists the tables: copies do occur.
    assert.ok(duplicates > 0, 'no sibling repeated another: the check above never ran');
  });

  it('keeps error → repair branches and tags their trajectories', async () => {
    let repaired = 0;
    let repairTrajectories = 0;
    for (const task of tasks) {
      // A small model errs often: its repairs must show up as repaired nodes and tagged trajectories.
      const small: ArmConfig = { provider: 'offline-sim', model: 'sim-small', contextLength: 'full', reasoningEffort: 'low', operator: 'explore' };
      const toolContext = explorerToolContext(session);
      const runner = createStepRunner({ task, providers: [provider], models, toolContext, prefixCache: new PrefixCache(toolContext), seed: 5 });
      const result = await runSearch(task, runner, fixedConfigPolicy(small, 2), { budgetUsd: 0.02 });
      repaired += result.tree.nodes.filter((n) => n.status === 'repaired').length;
      for (const t of result.admitted.filter((x) => x.hasRepair)) {
        repairTrajectories++;
        const errorIndex = t.steps.findIndex((s) => !s.observation.ok);
        assert.ok(errorIndex >= 0 && t.steps[errorIndex + 1].observation.ok, 'an error followed by its repair');
        assert.ok(t.verification.repairedErrors >= 1);
      }
    }
    assert.ok(repaired > 0, 'some error node was repaired');
    assert.ok(repairTrajectories > 0, 'some admitted trajectory holds a repaired error');
  });

  it('emits each expansion as one batch: decision, children, statuses, spend', async () => {
    const batches: RunEventInput[][] = [];
    const result = await search(tasks[1], 2, 0.03, undefined, batches);
    const expansionBatches = batches.filter((b) => b.some((e) => e.type === 'lcm/decision'));
    assert.equal(expansionBatches.length, result.expansions);
    for (const batch of expansionBatches) {
      const decision = batch.find((e) => e.type === 'lcm/decision') as { k: number; arms: string[] };
      const children = batch.filter((e) => e.type === 'node/added');
      assert.equal(children.length, decision.k);
      assert.equal(decision.arms.length, decision.k);
      assert.equal(batch.filter((e) => e.type === 'budget/spent').length, 1);
    }
    const spent = batches.flat().filter((e) => e.type === 'budget/spent').reduce((s, e) => s + (e as { costUsd: number }).costUsd, 0);
    assert.ok(Math.abs(spent - result.spentUsd) < 1e-12);
    const admittedIds = batches.flat().filter((e) => e.type === 'trajectory/admitted').map((e) => (e as { trajectoryId: string }).trajectoryId);
    assert.deepEqual(admittedIds, result.admitted.map((t) => t.trajectoryId));
    assert.ok(admittedIds.every((id) => id.startsWith(`${tasks[1].id}/n`)), 'trajectory ids are taskId/terminalNodeId');
  });

  it('stops when cancelled, between steps', async () => {
    const controller = new AbortController();
    let batches = 0;
    const toolContext = explorerToolContext(session);
    const runner = createStepRunner({ task: tasks[0], providers: [provider], models, toolContext, seed: 1 });
    const result = await runSearch(tasks[0], runner, costModelPolicy(new LearnedCostModel(arms)), {
      budgetUsd: 1,
      signal: controller.signal,
      onEvents: () => {
        if (++batches === 2) controller.abort();
      },
    });
    assert.equal(result.stopReason, 'cancelled');
    assert.equal(result.expansions, 1);
  });

  it('learns: the cost model receives one update per child', async () => {
    const model = new LearnedCostModel(arms, { estimateCostUsd: createPriceCostEstimator(models) });
    const result = await search(tasks[2], 4, 0.03, model);
    assert.equal(model.updates, result.calls);
  });

  it('runs the single-shot and best-of-N baselines through the same verifier', async () => {
    const arm: ArmConfig = { provider: 'offline-sim', model: 'sim-medium', contextLength: 'full', reasoningEffort: 'medium', operator: 'explore' };
    const runner = createStepRunner({ task: tasks[0], providers: [provider], models, toolContext: explorerToolContext(session), seed: 1 });
    const one = await runEpisodes(tasks[0], runner, arm, { episodes: 1, budgetUsd: 0.05 });
    const five = await runEpisodes(tasks[0], runner, arm, { episodes: 5, budgetUsd: 0.05 });
    assert.equal(one.episodesRun, 1);
    assert.ok(five.episodesRun >= 1 && five.episodesRun <= 5);
    assert.ok(five.bestQuality >= one.bestQuality, 'best-of-5 includes the single shot (same first attempt seed)');
    const tiny = await runEpisodes(tasks[0], runner, arm, { episodes: 5, budgetUsd: 0.0005 });
    assert.equal(tiny.admitted.length, 0, 'an unaffordable budget admits nothing');
  });
});
