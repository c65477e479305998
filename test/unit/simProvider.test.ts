import * as assert from 'node:assert/strict';
import { runEpisode } from '../../src/core/agent/episode';
import { buildPrompt } from '../../src/core/agent/prompt';
import { estimateMessagesTokens } from '../../src/core/llm/tokens';
import type { AgentSession } from '../../src/core/agent/session';
import { tools } from '../../src/core/agent/tools';
import type { AgentStep, ContextLength } from '../../src/core/agent/types';
import type { ReasoningEffort } from '../../src/core/llm/types';
import { applyMistake } from '../../src/core/sim/taxonomy';
import { diagnoseFromDiff, diagnosisHunks, diffCode } from '../../src/core/sim/callDiff';
import { seededRandom } from '../../src/core/sim/random';
import { parseSchemaSummary } from '../../src/core/sim/history';
import {
  NO_SIMULATION_MESSAGE,
  SimDecision,
  SimulationUnavailableError,
  createSimulatedProvider,
  simulationScript,
} from '../../src/core/sim/simulatedProvider';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { buildStarterTasks } from '../../src/core/taskpool/families/index';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { openShop } from './agentFixture';

describe('offline-sim provider', function () {
  this.timeout(180_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let session: AgentSession;
  let tasks: TaskSpec[];
  const byFamily = (family: string) => tasks.find((t) => t.family === family)!;

  const episode = (task: TaskSpec, model: string, seed: number, options: { contextLength?: ContextLength; effort?: ReasoningEffort; onDecision?: (d: SimDecision) => void } = {}) =>
    runEpisode({
      task: { question: task.question, taskId: task.id },
      config: { provider: createSimulatedProvider({ script: simulationScript(task, seed), onDecision: options.onDecision }), model, contextLength: options.contextLength, reasoningEffort: options.effort },
      toolContext: session.toolContext,
      maxSteps: 14,
    });
  const fingerprint = (steps: AgentStep[]) => steps.map((s) => ({ thought: s.thought, call: s.toolCall, text: s.observation.text, usage: s.usage, cost: s.costUsd, latency: s.latencyMs }));

  before(async () => {
    shop = await openShop();
    session = shop.session;
    tasks = await buildStarterTasks(session.env, { sql: session.sql, python: session.python });
  });
  after(async () => shop?.close());

  it('offers three simulated models, large costing 10–20× small', async () => {
    const models = await createSimulatedProvider().listModels();
    assert.deepEqual(models.map((m) => m.id), ['sim-small', 'sim-medium', 'sim-large']);
    assert.ok(models.every((m) => m.simulated && m.provider === 'offline-sim' && m.supportsTools));
    const [small, medium, large] = models;
    const ratio = large.inputPerMTok / small.inputPerMTok;
    assert.ok(ratio >= 10 && ratio <= 20, String(ratio));
    assert.ok(small.contextWindow < medium.contextWindow && medium.contextWindow < large.contextWindow);
  });

  it('declines without a task to simulate, with a typed error', async () => {
    const provider = createSimulatedProvider();
    const messages = buildPrompt({ question: 'How many orders?', profile: session.env.profile, history: [], contextLength: { mode: 'full' } }).messages;
    await assert.rejects(provider.complete({ model: 'sim-small', messages }), (e: unknown) => e instanceof SimulationUnavailableError && e.kind === 'bad_request' && e.message === NO_SIMULATION_MESSAGE);
    await assert.rejects(provider.withScript(simulationScript(tasks[0], 1)).complete({ model: 'sim-huge', messages }), /no model 'sim-huge'/);
    // A prompt beyond the model's context window is refused, not silently cut.
    const huge = [...messages, { role: 'user' as const, content: 'x'.repeat(4 * 20_000) }];
    await assert.rejects(provider.withScript(simulationScript(tasks[0], 1)).complete({ model: 'sim-small', messages: huge }), /exceeds sim-small's context window of 16000 tokens/);
    const episodeResult = await runEpisode({ task: { question: 'q' }, config: { provider, model: 'sim-small' }, toolContext: session.toolContext });
    assert.equal(episodeResult.stopReason, 'provider_error');
    assert.equal(episodeResult.error, NO_SIMULATION_MESSAGE);
  });

  it('gives the same episode for the same seed, and different episodes across seeds', async () => {
    for (const task of tasks) {
      const a = await episode(task, 'sim-small', 7);
      const b = await episode(task, 'sim-small', 7);
      assert.deepEqual(fingerprint(a.steps), fingerprint(b.steps), task.id);
    }
    const distinct = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) distinct.add(JSON.stringify(fingerprint((await episode(byFamily('join-top-k'), 'sim-small', seed)).steps).map((s) => [s.call, s.text])));
    assert.ok(distinct.size >= 2, 'seeds change the episode');
  });

  it('counts tokens from text length and prices them', async () => {
    const task = byFamily('group-contrast');
    const provider = createSimulatedProvider({ script: simulationScript(task, 3) });
    const messages = buildPrompt({ question: task.question, profile: session.env.profile, history: [], contextLength: { mode: 'full' } }).messages;
    const completion = await provider.complete({ model: 'sim-medium', messages, tools });
    assert.equal(completion.usage.prompt, estimateMessagesTokens(messages, tools));
    const expected = (completion.usage.prompt * 0.6 + completion.usage.completion * 2.4) / 1e6;
    assert.ok(Math.abs(completion.costUsd - expected) < 1e-12);
    assert.ok(completion.latencyMs > 0);
    const reasoned = await provider.complete({ model: 'sim-medium', messages, tools, reasoningEffort: 'high' });
    assert.ok((reasoned.usage.reasoning ?? 0) > 0 && reasoned.costUsd > completion.costUsd);
  });

  it('applies mistakes from the taxonomy to the real code, so they fail in the sandbox or silently change the result', async () => {
    const join = byFamily('join-top-k').evidence[0].code;
    const schema = parseSchemaSummary(buildPrompt({ question: 'q', profile: session.env.profile, history: [], contextLength: { mode: 'full' } }).messages[0].content as string);
    const only = (kind: string) => ({ avoid: (['wrong_column', 'wrong_table', 'wrong_join_key', 'missing_join_condition', 'missing_group_by', 'wrong_group_by', 'where_instead_of_having', 'nested_query', 'ambiguous_column', 'wrong_aggregate', 'date_format', 'null_handling', 'integer_division', 'comparison_boundary', 'misspelled_name'] as const).filter((k) => k !== kind) });
    const typo = applyMistake('run_sql', join, schema, seededRandom('x'), only('misspelled_name'))!;
    assert.equal(typo.kind, 'misspelled_name');
    assert.equal(typo.category, 'typo');
    const failed = await session.sql.run(typo.code);
    assert.equal(failed.ok, false);
    assert.match(failed.error!, /no such column/);
    const crossJoin = applyMistake('run_sql', join, schema, seededRandom('y'), only('missing_join_condition'))!;
    assert.equal(crossJoin.category, 'join');
    assert.doesNotMatch(crossJoin.code, /\bON\b/);
    const [right, wrong] = [await session.sql.run(join), await session.sql.run(crossJoin.code)];
    assert.ok(right.ok && wrong.ok);
    assert.notDeepEqual(wrong.rows, right.rows);
    // Schema linking takes a name the schema really has (in another table), not a mangled one.
    const linked = applyMistake('run_sql', join, schema, seededRandom('z'), only('wrong_column'));
    if (linked) {
      const names = new Set(schema.tables.flatMap((t) => t.columns.map((c) => c.name)));
      const changed = diffCode(join, linked.code).map((h) => h.after.replace(/^\w+\./, '').replace(/"/g, ''));
      assert.ok(changed.every((n) => names.has(n)), changed.join(', '));
    }
    const python = byFamily('python-correlation').evidence[1].code;
    for (const [kind, error] of [['python_name_error', /NameError/], ['python_type_error', /TypeError/]] as const) {
      const mutated = applyMistake('run_python', python, schema, seededRandom(kind), { avoid: kind === 'python_name_error' ? ['python_type_error'] : ['python_name_error'] })!;
      assert.equal(mutated.kind, kind);
      const result = await session.python.run(mutated.code);
      assert.equal(result.ok, false, mutated.code);
      assert.match(result.error!, error);
    }
  });

  it('repairs after an error observation with a diagnosis that names exactly the change', async () => {
    let repairs = 0;
    for (const task of tasks) {
      for (let seed = 1; seed <= 12; seed++) {
        const result = await episode(task, 'sim-small', seed);
        result.steps.forEach((step, i) => {
          const next = result.steps[i + 1];
          if (step.observation.ok || !next || step.observation.errorKind === 'malformed_arguments') return;
          assert.equal(next.toolCall?.name, step.toolCall?.name);
          assert.match(next.thought, /Fix: /);
          repairs++;
        });
      }
    }
    assert.ok(repairs >= 3, `repairs seen: ${repairs}`);
    const diagnosis = diagnoseFromDiff('Error: no such column: totl', 'SELECT totl FROM t', 'SELECT total FROM t');
    assert.equal(diagnosis, "The error says there is no column 'totl' in the tables I queried; the schema I read names it differently. Fix: replace `totl` with `total`.");
    assert.deepEqual(diagnosisHunks(diagnosis), [{ before: 'totl', after: 'total' }]);
    assert.deepEqual(diffCode('SELECT a FROM t WHERE x > 5', 'SELECT a FROM t WHERE x >= 5 GROUP BY a'), [{ before: '>', after: '>=' }, { before: '', after: 'GROUP BY a' }]);
  });

  it('says what a table list showed without claiming to have named every table', async () => {
    const task = byFamily('filtered-aggregate');
    const names = Array.from({ length: 13 }, (_, i) => `table_${i + 1}`);
    const text = ['table | rows | columns | source', ...names.map((n) => `${n} | 10 | 3 | ${n}.csv`), '(13 rows)'].join('\n');
    const history: AgentStep[] = [
      {
        index: 0,
        thought: 'Let me see which tables the environment has.',
        toolCall: { id: 'c0', name: 'list_tables', arguments: '{}' },
        observation: { ok: true, tool: 'list_tables', data: { kind: 'rows', columns: ['table', 'rows', 'columns', 'source'], rows: names.map((n) => [n, 10, 3, `${n}.csv`]), truncated: false }, text, elapsedMs: 1 },
        usage: { prompt: 1, completion: 1 },
        costUsd: 0,
        latencyMs: 0,
        config: { provider: 'offline-sim', model: 'sim-large', contextLength: { mode: 'full' }, simulated: true },
        promptTokensEstimate: 1,
        droppedSteps: 0,
      },
    ];
    const messages = buildPrompt({ question: task.question, profile: session.env.profile, history, contextLength: { mode: 'full' } }).messages;
    const completion = await createSimulatedProvider({ script: simulationScript(task, 1) }).complete({ model: 'sim-large', messages });
    const thought = completion.message.content ?? '';
    assert.match(thought, /There are 13 tables: table_1, .*table_8 and 5 more\./);
    assert.doesNotMatch(thought, /table_9/);
  });

  it('answers from the observations it saw, not from the answer key', async () => {
    const task = byFamily('filtered-aggregate');
    // A corrupted key: a model that peeked at it would answer 123456789.
    const tampered: TaskSpec = { ...task, answer: { type: 'number', value: 123456789, tolerance: 0.01 } };
    const result = await episode(tampered, 'sim-large', 1);
    assert.equal(result.stopReason, 'final_answer');
    assert.ok(matchesAnswer(task.answer, result.state.finalAnswer!.answer), `${result.state.finalAnswer!.answer} vs ${JSON.stringify(task.answer)}`);
    // A wrong observation for the last evidence step yields that wrong value.
    const step = task.evidence[0];
    const history: AgentStep[] = [
      {
        index: 0,
        thought: 'Next.',
        toolCall: { id: 'c0', name: 'run_sql', arguments: JSON.stringify({ query: step.code }) },
        observation: { ok: true, tool: 'run_sql', data: { kind: 'rows', columns: ['total'], rows: [[4242.5]], truncated: false }, text: 'total\n4242.5\n(1 row)', elapsedMs: 1 },
        usage: { prompt: 1, completion: 1 },
        costUsd: 0,
        latencyMs: 0,
        config: { provider: 'offline-sim', model: 'sim-large', contextLength: { mode: 'full' }, simulated: true },
        promptTokensEstimate: 1,
        droppedSteps: 0,
      },
    ];
    const messages = buildPrompt({ question: task.question, profile: session.env.profile, history, contextLength: { mode: 'full' } }).messages;
    const completion = await createSimulatedProvider({ script: simulationScript(task, 1) }).complete({ model: 'sim-large', messages });
    assert.equal(completion.message.toolCalls[0].name, 'final_answer');
    assert.equal(JSON.parse(completion.message.toolCalls[0].arguments).answer, '4242.5');
  });

  it('makes more mistakes with a truncated history and at low effort', async () => {
    const meanSqlMistakeProbability = async (contextLength: ContextLength, effort?: ReasoningEffort) => {
      const ps: number[] = [];
      for (const task of tasks) {
        for (let seed = 1; seed <= 3; seed++) {
          await episode(task, 'sim-medium', seed, {
            contextLength,
            effort,
            onDecision: (d) => {
              if ((d.action === 'evidence' || d.action === 'repair') && task.evidence[d.evidenceIndex!].tool === 'run_sql') ps.push(d.mistakeProbability);
            },
          });
        }
      }
      return ps.reduce((a, b) => a + b, 0) / ps.length;
    };
    const full = await meanSqlMistakeProbability({ mode: 'full' });
    const short = await meanSqlMistakeProbability({ mode: 'last-k', k: 1 });
    const careful = await meanSqlMistakeProbability({ mode: 'full' }, 'high');
    const hasty = await meanSqlMistakeProbability({ mode: 'full' }, 'low');
    assert.ok(short > full * 1.1, `last-1 ${short} vs full ${full}`);
    assert.ok(hasty > full && full > careful, `low ${hasty}, medium ${full}, high ${careful}`);
  });
});
