import * as assert from 'node:assert/strict';
import type { AgentSession } from '../../src/core/agent/session';
import type { AgentStep } from '../../src/core/agent/types';
import { PrefixCache } from '../../src/core/explorer/prefixCache';
import { costModelPolicy } from '../../src/core/explorer/policy';
import { runSearch, type SearchResult } from '../../src/core/explorer/search';
import { createStepRunner, type StepRunner } from '../../src/core/explorer/stepRunner';
import { waveSizes, type ExpansionSchedule } from '../../src/core/explorer/waves';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../../src/core/lcm/index';
import type { ArmConfig } from '../../src/core/lcm/types';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import type { ModelSpec } from '../../src/core/llm/types';
import { explorerToolContext } from '../../src/core/run/exploreTask';
import { filteredAggregateFamily, groupContrastFamily, joinTopKFamily, buildStarterTasks } from '../../src/core/taskpool/families';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { mulberry32 } from '../support/random';
import { openShop } from './agentFixture';

function listTablesStep(index: number, arm: ArmConfig): AgentStep {
  return {
    index,
    thought: '',
    toolCall: { id: `c${index}`, name: 'list_tables', arguments: '{}' },
    observation: { ok: true, tool: 'list_tables', args: {}, data: { kind: 'rows', columns: ['x'], rows: [[1]], truncated: false }, text: 'x', elapsedMs: 1 },
    usage: { prompt: 10, completion: 5 },
    costUsd: 0.001,
    latencyMs: 10,
    config: { provider: arm.provider, model: arm.model, contextLength: { mode: 'full' }, simulated: true },
    promptTokensEstimate: 10,
    droppedSteps: 0,
  } as AgentStep;
}

describe('explorer: parallel expansion in waves', function () {
  this.timeout(180_000);

  it('plans K configs one after another, or a first wave of two and then the rest', () => {
    assert.deepEqual(waveSizes(3), [1, 1, 1]);
    assert.deepEqual(waveSizes(4, 'waves'), [2, 2]);
    assert.deepEqual(waveSizes(3, 'waves'), [2, 1]);
    assert.deepEqual(waveSizes(2, 'waves'), [2]);
    assert.deepEqual(waveSizes(1, 'waves'), [1]);
    assert.deepEqual(waveSizes(0, 'waves'), []);
    assert.deepEqual(waveSizes(3, 'parallel'), [3]);
    assert.deepEqual(waveSizes(1, 'parallel'), [1]);
    assert.deepEqual(waveSizes(0, 'parallel'), []);
  });

  it('keeps the early stop: a repeat in the first wave stops the rest; the wave that ran is kept', async () => {
    const task = { id: 't', question: 'How many?', tables: [], evidence: [], answer: { type: 'number', value: 1 }, difficulty: { level: 'easy' } } as unknown as TaskSpec;
    const arm = (model: string): ArmConfig => ({ provider: 'p', model, contextLength: 'full', reasoningEffort: 'low', operator: 'explore' });
    const policy = {
      name: 'four',
      choose: () => ({ arms: ['a', 'b', 'c', 'd'].map(arm), armIds: ['a', 'b', 'c', 'd'], priors: [0.4, 0.3, 0.2, 0.1], expectedCosts: [0.001, 0.001, 0.001, 0.001] }),
      learn: () => {},
    };
    const expand = async (schedule: ExpansionSchedule) => {
      const calls: string[] = [];
      let inFlight = 0;
      let most = 0;
      const runner = {
        async step(input: { state: { steps: AgentStep[] }; arm: ArmConfig }): Promise<AgentStep> {
          calls.push(input.arm.model);
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight--;
          return listTablesStep(input.state.steps.length, input.arm);
        },
      };
      const result = await runSearch(task, runner as never, policy, { budgetUsd: 1, maxDepth: 1, maxExpansions: 1, expansionSchedule: schedule });
      return { calls, most, children: result.tree.root.childIndices.length };
    };
    const sequential = await expand('sequential');
    assert.deepEqual(sequential, { calls: ['a', 'b'], most: 1, children: 2 }, 'one after another: b repeats a, c and d are not asked');
    const waves = await expand('waves');
    assert.deepEqual(waves, { calls: ['a', 'b'], most: 2, children: 2 }, 'in waves: a and b at once, b repeats a, the second wave is not asked');
    const parallel = await expand('parallel');
    assert.deepEqual(parallel, { calls: ['a', 'b', 'c', 'd'], most: 4, children: 4 }, 'all at once: every config is asked, and every child kept');
  });

  describe('over real execution (offline-sim)', () => {
    let shop: Awaited<ReturnType<typeof openShop>>;
    let session: AgentSession;
    let tasks: TaskSpec[];
    let models: ModelSpec[];
    let arms: ArmConfig[];
    const provider = createSimulatedProvider();

    before(async () => {
      shop = await openShop();
      session = shop.session;
      tasks = await buildStarterTasks(session.env, { sql: session.sql }, { families: [filteredAggregateFamily, groupContrastFamily, joinTopKFamily], maxPerFamily: 1 });
      models = await provider.listModels();
      arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
    });
    after(async () => shop?.close());

    /** A search whose steps come back after a seeded random delay, so the requests of a wave finish in any order. */
    async function search(task: TaskSpec, schedule: ExpansionSchedule, jitterSeed?: number): Promise<{ result: SearchResult; most: number }> {
      const toolContext = explorerToolContext(session);
      const inner = createStepRunner({ task, providers: [provider], models, toolContext, prefixCache: new PrefixCache(toolContext), seed: 7 });
      const random = jitterSeed === undefined ? undefined : mulberry32(jitterSeed);
      let inFlight = 0;
      let most = 0;
      const runner: StepRunner = {
        async step(input) {
          most = Math.max(most, ++inFlight);
          try {
            if (random) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 20)));
            return await inner.step(input);
          } finally {
            inFlight--;
          }
        },
      };
      const model = new LearnedCostModel(arms, { estimateCostUsd: createPriceCostEstimator(models) });
      return { result: await runSearch(task, runner, costModelPolicy(model), { budgetUsd: 0.05, expansionSchedule: schedule }), most };
    }

    const shape = (r: SearchResult) => ({
      nodes: r.tree.nodes.map((n) => [n.id, n.armId ?? null, n.step?.toolCall?.arguments ?? null]),
      admitted: r.admitted.map((t) => [t.trajectoryId, t.verification.quality]),
      spent: r.spentUsd.toFixed(12),
    });

    for (const schedule of ['waves', 'parallel'] as const) {
      it(`requests ${schedule === 'waves' ? 'a wave' : 'an expansion'} at once, and gives the same tree whatever order its requests come back in`, async () => {
        for (const task of tasks) {
          const plain = await search(task, schedule);
          const jittered = await search(task, schedule, 3);
          assert.deepEqual(shape(jittered.result), shape(plain.result), `${task.id}: the same search`);
          assert.ok(jittered.most >= 2, `${task.id}: ${jittered.most} requests at once`);
          assert.ok(plain.result.admitted.length > 0, `${task.id}: admitted a trajectory`);
        }
      });
    }

    it('one after another never has two requests at once, and its jitter changes nothing either', async () => {
      const task = tasks[0];
      const plain = await search(task, 'sequential');
      const jittered = await search(task, 'sequential', 5);
      assert.equal(jittered.most, 1);
      assert.deepEqual(shape(jittered.result), shape(plain.result));
    });
  });
});
