import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { executeToolCall } from '../../src/core/agent/tools';
import type { AgentStep } from '../../src/core/agent/types';
import { PrefixCache } from '../../src/core/explorer/prefixCache';
import { reviseExploredTask } from '../../src/core/run/revision';
import { costModelPolicy } from '../../src/core/explorer/policy';
import { runSearch, type SearchResult } from '../../src/core/explorer/search';
import { createStepRunner } from '../../src/core/explorer/stepRunner';
import { DEFAULT_CLEANING } from '../../src/core/explorer/verifier';
import { buildDefaultArms, createPriceCostEstimator, LearnedCostModel } from '../../src/core/lcm/index';
import { createSimulatedProvider } from '../../src/core/sim/simulatedProvider';
import type { LlmProvider } from '../../src/core/llm/types';
import { explorerToolContext } from '../../src/core/run/exploreTask';
import { synthesize } from '../../src/core/run/synthesize';
import { revisionsCommand } from '../../src/cli/commands/revisions';
import { RunStore } from '../../src/core/store/RunStore';
import type { EvidenceGraph } from '../../src/core/taskpool/graph';
import { buildTaskPool, namingLookAlikes, taskPoolFamilies } from '../../src/core/taskpool/pool';
import { buildRubric, fileRoles, taskAnchors } from '../../src/core/taskpool/rubric';
import { applyTaskPatch, citedText, namesTable, parseReview, questionHash, reviewTask, reviewTaskByRules, tableLabel, tablesNamingPhrase, unnamedLookAlikes } from '../../src/core/taskpool/revise';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { buildTaskNodes } from '../../src/host/taskNodes';
import { taskDetailMarkdown } from '../../src/core/taskpool/detail';
import { RETAIL_SAMPLE } from './exportFixture';
import { addOrdersArchive, ordersMeanTask as plantedOrdersMean, plantAmbiguous, plantUnknownField, plantUnsupportedQuantity, plantWrongAnchor, plantWrongAnswerKey, plantWrongExpectedValue } from './revisionPlants';

/** A provider that counts every completion it serves (the offline simulated models underneath). */
function countingProvider(): LlmProvider & { calls: number } {
  const inner = createSimulatedProvider();
  const counting = {
    id: inner.id,
    calls: 0,
    listModels: () => inner.listModels(),
    complete: (request: Parameters<LlmProvider['complete']>[0]) => {
      counting.calls++;
      return inner.complete(request);
    },
    // Bound to an episode's task, the simulation counts into the same tally.
    withScript: (script: Parameters<typeof inner.withScript>[0]) => {
      const bound = inner.withScript(script);
      return { ...bound, id: bound.id, listModels: () => bound.listModels(), complete: (request: Parameters<LlmProvider['complete']>[0]) => {
        counting.calls++;
        return bound.complete(request);
      } };
    },
  };
  return counting;
}

describe('task revision after the first exploration', function () {
  this.timeout(300_000);
  let work: string;
  let folder: string;
  let session: AgentSession;
  let tasks: TaskSpec[];
  let graph: EvidenceGraph;

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-revise-'));
    folder = path.join(work, 'retail');
    fs.cpSync(RETAIL_SAMPLE, folder, { recursive: true, filter: (src) => !src.includes('.toffee') });
    // A second table that answers order questions differently: two thirds of the orders, as an archive.
    await addOrdersArchive(folder, work);
    session = await openAgentSession(folder);
    const pool = await buildTaskPool(session.toolContext, { max: 8, seed: 1 });
    tasks = pool.tasks;
    graph = pool.graph;
    assert.ok(session.env.profile.tables.some((t) => t.name === 'orders_archive'), 'the archive table is part of the environment');
  });
  after(async () => {
    await session?.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const review = (task: TaskSpec, paths: Parameters<typeof reviewTaskByRules>[0]['paths'] = []) => reviewTaskByRules({ task, profile: session.env.profile, graph, context: session.toolContext, paths });

  async function explore(task: TaskSpec, provider: LlmProvider): Promise<SearchResult> {
    const models = await provider.listModels();
    const arms = buildDefaultArms(models, { operators: ['explore', 'repair'] });
    const toolContext = explorerToolContext(session);
    const runner = createStepRunner({ task, providers: [provider], models, toolContext, prefixCache: new PrefixCache(toolContext), seed: 2 });
    return runSearch(task, runner, costModelPolicy(new LearnedCostModel(arms, { estimateCostUsd: createPriceCostEstimator(models) })), { budgetUsd: 0.05 });
  }

  /** A task with its anchors, file roles and rubric compiled as the pool compiles them. */
  function compiled(task: TaskSpec): TaskSpec {
    task.anchors = taskAnchors(task, session.env.profile);
    task.roles = fileRoles(task, session.env.profile, graph, session.toolContext.documents);
    task.rubric = buildRubric(task, session.env.profile, task.roles);
    return task;
  }

  /** A sound single-table task on orders (its question names the table), compiled as the pool compiles one. */
  const ordersMeanTask = () => plantedOrdersMean(session.toolContext, graph, tasks[0]);

  it('leaves sound tasks untouched', async () => {
    assert.ok(tasks.length >= 6);
    for (const task of tasks) {
      const r = await review(task);
      assert.equal(r.decision, 'keep', `${task.id}: ${JSON.stringify(r.findings)}`);
      assert.deepEqual(r.findings, []);
    }
  });

  it('reads the document section a question cites as naming its tables; without the citation a look-alike is a second reading', async () => {
    // The pool's document-grounded task over orders (e.g. the VIP count from business_rules.md § Customers): its
    // question names the rule, not the table, and the rule's text names orders.
    const grounded = tasks.find((t) => t.documents?.some((d) => d.section) && t.tables.includes('orders') && !namesTable(t.question, 'orders'));
    assert.ok(grounded, 'the pool has a document-grounded task over orders whose question does not name orders');
    assert.ok(namesTable(citedText(grounded, session.toolContext.documents), 'orders'), 'the cited section names orders');
    const kept = await review(grounded);
    assert.equal(kept.decision, 'keep', JSON.stringify(kept.findings));
    // The same evidence asked without the citation: the archive (substituted into the multi-table query) answers it differently.
    const uncited: TaskSpec = { ...grounded, question: 'How many customers have a lifetime net spend above 2000?', documents: undefined };
    const r = await review(uncited);
    assert.equal(r.decision, 'revise', JSON.stringify(r));
    assert.ok(r.findings.some((f) => f.check === 'ambiguity' && /orders→orders_archive gives/.test(f.detail)), JSON.stringify(r.findings));
    assert.ok(namesTable(r.patch.question!, 'orders'), r.patch.question);
  });

  it('names a table by its words, plural or singular ("job" for jobs), but not by a column of its own ("order total")', () => {
    const columns = (table: string) => session.env.profile.tables.find((t) => t.name === table)!.columns.map((c) => c.name);
    assert.ok(namesTable('How many orders were placed on the web?', 'orders', columns('orders')));
    assert.ok(namesTable('Which order channel has the highest average quantity of its order items?', 'orders', columns('orders')));
    assert.ok(namesTable('Which job job title has the highest average salary?', 'jobs', ['job_id', 'job_title', 'min_salary']));
    assert.ok(!namesTable('What is the average order total?', 'orders', columns('orders')), 'order total is the column, which the look-alike has too');
    assert.ok(namesTable('In stores staff, who works full time?', 'stores_staff', columns('stores_staff')));
  });

  it('revises a question that does not name its table when a look-alike exists, even if both give the same answer today', async () => {
    // Which channel has the most orders: the archive (two thirds of the rows) happens to agree.
    const code = 'SELECT "channel", COUNT(*) AS n FROM "orders" GROUP BY "channel" ORDER BY n DESC, "channel" LIMIT 1';
    const top = async (sql: string) => {
      const observation = await executeToolCall(session.toolContext, { name: 'run_sql', arguments: JSON.stringify({ query: sql }) });
      assert.ok(observation.ok && observation.data.kind === 'rows');
      return String(observation.data.kind === 'rows' ? observation.data.rows[0][0] : '');
    };
    const value = await top(code);
    assert.equal(await top(code.replace('"orders"', '"orders_archive"')), value, 'precondition: the look-alike gives the same answer on this data');
    const task = compiled({ ...tasks[0], id: 'unnamed-channel', family: 'planted', question: 'Which channel has the most records?', answer: { type: 'string', value }, evidence: [{ tool: 'run_sql', code, purpose: 'orders per channel', result: { columns: ['channel', 'n'], rows: [[value]] } }], tables: ['orders'], documents: undefined });
    const r = await review(task);
    assert.equal(r.decision, 'revise', JSON.stringify(r));
    assert.ok(r.findings.some((f) => f.check === 'ambiguity' && /orders→orders_archive gives the same answer today/.test(f.detail)), JSON.stringify(r.findings));
    // orders is a whole CSV file: named by its file, as its user knows it.
    assert.equal(r.patch.question, 'In orders.csv, which channel has the most records?');
    // The pool phrases the same question the same way up front, and the named question is sound.
    assert.equal(namingLookAlikes(task, session.env.profile, session.toolContext.documents), r.patch.question);
    assert.equal((await review(applyTaskPatch(task, r.patch).task)).decision, 'keep');
    // Every pool task reads only tables that its question (or cited section) names, or that have no look-alike.
    for (const t of tasks) assert.deepEqual([...unnamedLookAlikes(t, session.env.profile, session.toolContext.documents).keys()], [], t.question);
  });

  it('the pool names a table that has a look-alike (whatever the family), and keeps the name through a model rewrite', async () => {
    const family = taskPoolFamilies.find((f) => f.id === 'change-over-time')!;
    const template = await buildTaskPool(session.toolContext, { max: 6, seed: 1, families: [family] });
    const onOrders = template.tasks.filter((t) => t.tables.includes('orders'));
    assert.ok(onOrders.length > 0);
    const columns = session.env.profile.tables.find((t) => t.name === 'orders')!.columns.map((c) => c.name);
    // Every question on orders names the table, in its own words ("the number of orders") or with the naming phrase.
    for (const t of onOrders) assert.ok(namesTable(t.question, 'orders', columns, tableLabel('orders', session.env.profile)), t.question);
    assert.ok(onOrders.some((t) => t.question.includes(tablesNamingPhrase(['orders'], session.env.profile))), 'a question that reads orders only through its columns gets the phrase');
    // A model that rewrites each question without the table's name: the template stays, with the reason.
    const dropsName: LlmProvider = {
      id: 'fake',
      listModels: async () => [],
      complete: async (request) => {
        const question = /^Template question: (.*)$/m.exec(String(request.messages[1].content))![1];
        return { message: { content: question.replace(tablesNamingPhrase(['orders']), ''), toolCalls: [] }, usage: { prompt: 1, completion: 1 }, costUsd: 0, latencyMs: 1 };
      },
    };
    const phrased = await buildTaskPool(session.toolContext, { max: 6, seed: 1, families: [family], phrasing: { provider: dropsName, model: 'm' } });
    for (const t of phrased.tasks.filter((x) => x.tables.includes('orders') && x.question.includes(tablesNamingPhrase(['orders'])))) {
      assert.ok(t.question.includes(tablesNamingPhrase(['orders'])), t.question);
      assert.equal(t.validation?.phrasing?.source, 'template');
      assert.match(t.validation?.phrasing?.reason ?? '', /does not name orders, which has a look-alike table/);
    }
  });

  it('fixes a wrong rubric anchor and re-scores the explored trajectories without a model call', async () => {
    // The shortest task (the pool opens with multi-step programs, which one search may not carry to admission).
    const sound = [...tasks].sort((a, b) => a.evidence.length - b.evidence.length).find((t) => plantWrongAnchor(t, session.env.profile) !== undefined)!;
    const planted = plantWrongAnchor(sound, session.env.profile)!;
    const wrong = planted.rubric!.find((c, i) => JSON.stringify(c) !== JSON.stringify(sound.rubric![i]))!;
    const provider = countingProvider();
    const result = await explore(planted, provider);
    assert.ok(result.admitted.length > 0, 'the planted task is explored to admitted trajectories');
    // Under the wrong anchor the criterion fails on every admitted trajectory (the evidence never reads that column).
    for (const t of result.admitted) assert.equal(t.verification.rubric!.criteria.find((c) => c.id === wrong.id)!.holds, false);
    const callsAfterExploration = provider.calls;
    assert.ok(callsAfterExploration > 0);

    const revision = await reviseExploredTask({ task: planted, result, context: session.toolContext, graph, cleaning: DEFAULT_CLEANING });
    assert.equal(revision.outcome, 'revised');
    assert.equal(revision.reexplore, undefined, 'a rubric-only change is not re-explored');
    assert.deepEqual(revision.diff.map((d) => d.field), [`rubric.${wrong.id}`]);
    assert.equal(provider.calls, callsAfterExploration, 'zero provider calls after exploration');
    assert.equal(revision.modelCalls, 0);
    assert.equal(revision.rescored.length, result.admitted.length);
    for (const r of revision.rescored) {
      assert.equal((r.rubric!.criteria.find((c) => c.id === wrong.id) as { holds: boolean | null }).holds, true, 'the fixed criterion holds on the same steps');
      assert.ok(r.quality >= r.qualityBefore);
    }

    // The event carries the diff; the store's state follows it.
    const store = RunStore.createInDir(path.join(work, 'run-anchor'), { dataFolder: folder, seed: 1 });
    try {
      store.append({ type: 'task/added', task: planted });
      store.appendMany(revision.events);
      const state = store.state;
      const revised = state.tasks.get(planted.id)!;
      assert.equal(revised.revision?.action, 're-scored');
      assert.deepEqual(revised.rubric!.find((c) => c.id === wrong.id)!.check, sound.rubric!.find((c) => c.id === wrong.id)!.check);
      assert.equal(state.revisions.get(planted.id)?.outcome, 'revised');
      // The Tasks view and the task detail show the revision and its diff.
      assert.match(buildTaskNodes([revised], [])[0].children[0].description ?? '', /revised \(re-scored\)/);
      assert.match(taskDetailMarkdown(revised), new RegExp(`## Revision after exploration[\\s\\S]*rubric\\.${wrong.id}:`));
    } finally {
      store.close();
    }
  });

  it('revises a planted ambiguous task (two tables answer it) into a new question that is explored again', async () => {
    const base = await ordersMeanTask();
    assert.equal((await review(base)).decision, 'keep', 'the sound version names its table');
    const planted = plantAmbiguous(base)!;
    // "order total" names the column (which orders_archive has too), not the table.
    const ordersColumns = session.env.profile.tables.find((t) => t.name === 'orders')!.columns.map((c) => c.name);
    assert.ok(planted && !namesTable(planted.question, 'orders', ordersColumns), planted?.question);
    const r = await review(planted);
    assert.equal(r.decision, 'revise', JSON.stringify(r));
    assert.ok(r.findings.some((f) => f.check === 'ambiguity' && /orders_archive/.test(f.detail)));
    assert.ok(namesTable(r.patch.question!, 'orders'), r.patch.question);

    // A path that read the look-alike table and answered what its own query returned is a second defensible answer.
    const query = 'SELECT ROUND(AVG("order_total"), 2) FROM "orders_archive"';
    const observation = await executeToolCall(session.toolContext, { name: 'run_sql', arguments: JSON.stringify({ query }) });
    const archived = String(observation.data.kind === 'rows' ? observation.data.rows[0][0] : '');
    const step = (index: number, name: string, args: unknown, data: unknown) =>
      ({ index, thought: '', toolCall: { id: `c${index}`, name, arguments: JSON.stringify(args) }, observation: { ok: true, tool: name, data, text: '', elapsedMs: 0 }, usage: { prompt: 0, completion: 0 }, costUsd: 0, latencyMs: 0 }) as unknown as AgentStep;
    const path0 = { trajectoryId: `${planted.id}/n9`, verified: false, admitted: false, answer: archived, steps: [step(0, 'run_sql', { query }, observation.data), step(1, 'final_answer', { answer: archived }, { kind: 'final', answer: archived, explanation: '' })] };
    const byPath = await review(planted, [path0]);
    assert.ok(byPath.findings.some((f) => f.check === 'ambiguity' && f.detail.includes(`${planted.id}/n9 reads orders_archive and answers ${archived}`)), JSON.stringify(byPath.findings));

    const revision = await reviseExploredTask({ task: planted, result: { tree: (await explore(planted, createSimulatedProvider())).tree, admitted: [], rejected: [] }, context: session.toolContext, graph, cleaning: DEFAULT_CLEANING });
    assert.equal(revision.outcome, 'revised');
    assert.ok(revision.reexplore, 'a changed question is explored again');
    assert.notEqual(questionHash(revision.reexplore.question), questionHash(planted.question));
    assert.equal(revision.reexplore.id, `${planted.id}-r1`);
    assert.deepEqual(revision.events.map((e) => e.type), ['task/revised', 'task/added']);
    // The revised question is sound: a second review keeps it.
    assert.equal((await review(revision.reexplore)).decision, 'keep');
  });

  it('re-derives a wrong expected value or answer key by re-running the evidence', async () => {
    let checked = 0;
    for (const task of tasks) {
      for (const planted of [plantWrongExpectedValue(task), plantWrongAnswerKey(task)]) {
        if (!planted) continue;
        const r = await review(planted);
        assert.equal(r.decision, 'revise', `${task.id}: ${JSON.stringify(r.findings)}`);
        const fixed = applyTaskPatch(planted, r.patch).task;
        assert.deepEqual(fixed.answer, task.answer);
        assert.deepEqual(fixed.rubric!.find((c) => c.check.kind === 'final_value')!.check, task.rubric!.find((c) => c.check.kind === 'final_value')!.check);
        checked++;
      }
    }
    assert.ok(checked >= 6);
  });

  it('rejects a question with a quantity or field the data does not support, or revises the quantity to the evidence', async () => {
    for (const task of tasks) {
      const unknown = await review(plantUnknownField(task));
      assert.equal(unknown.decision, 'reject');
      assert.ok(unknown.findings.some((f) => f.check === 'supported' && /loyalty_tier_code/.test(f.detail)));
      const quantity = await review(plantUnsupportedQuantity(task));
      assert.notEqual(quantity.decision, 'keep');
      if (quantity.decision === 'revise') assert.ok(!/7919/.test(quantity.patch.question ?? ''));
    }
  });

  it('takes a validated LLM review, holds its patch to the data, and falls back to the rules on a bad reply', async () => {
    const task = tasks[0];
    const replies: string[] = [];
    const requests: Array<Parameters<LlmProvider['complete']>[0]> = [];
    const fake: LlmProvider = {
      id: 'fake',
      listModels: async () => [],
      complete: async (request) => {
        requests.push(request);
        return { message: { content: replies.shift() ?? '', toolCalls: [] }, usage: { prompt: 10, completion: 10 }, costUsd: 0.001, latencyMs: 1 };
      },
    };
    const input = { task, profile: session.env.profile, graph, context: session.toolContext, paths: [] };
    replies.push('```json\n' + JSON.stringify({ decision: 'revise', findings: [{ check: 'verification', detail: 'say which tables' }], patch: { question: `${task.question} Name the tables you used.`, answer: { type: 'number', value: -1, tolerance: 0 } } }) + '\n```');
    const llm = await reviewTask(input, { provider: fake, model: 'm' });
    assert.equal(llm.reviser, 'llm:m');
    assert.equal(llm.modelCalls, 1);
    assert.equal(llm.review.decision, 'revise');
    assert.match(llm.review.patch.question!, /Name the tables/);
    assert.equal(llm.review.patch.answer, undefined, 'an answer key the evidence does not return is dropped');
    replies.push('{"decision": "maybe"}');
    const fallback = await reviewTask(input, { provider: fake, model: 'm' });
    assert.equal(fallback.reviser, 'rules');
    assert.match(fallback.notes[0], /not a valid review/);
    assert.equal(parseReview('not json').problem, 'not JSON');

    // A document-grounded task: the model is shown the text of the section the question cites.
    const grounded = tasks.find((t) => t.documents?.some((d) => d.section))!;
    const ref = grounded.documents!.find((d) => d.section)!;
    const section = session.toolContext.documents.find((d) => d.name === ref.document)!.sections.find((x) => x.heading === ref.section)!;
    assert.ok(section.text.trim().length > 20, 'the cited section has a rule to read');
    replies.push(JSON.stringify({ decision: 'keep', findings: [] }));
    requests.length = 0;
    const keptByModel = await reviewTask({ ...input, task: grounded }, { provider: fake, model: 'm' });
    assert.equal(keptByModel.review.decision, 'keep');
    const body = JSON.parse(String(requests[0].messages[1].content)) as { citedSections: string };
    assert.ok(body.citedSections.includes(section.text.trim()), body.citedSections);
    assert.ok(body.citedSections.includes(section.heading));
  });
  it('runs inside synthesize: planted tasks are explored, revised once, re-explored or re-scored, and listed', async () => {
    // The shortest task with an anchor to plant: it is admitted at $0.05, so its rubric-only revision has trajectories to re-score.
    const anchorTask = plantWrongAnchor([...tasks].sort((a, b) => a.evidence.length - b.evidence.length).find((t) => plantWrongAnchor(t, session.env.profile))!, session.env.profile)!;
    const ambiguous = plantAmbiguous(await ordersMeanTask())!;
    const runDir = path.join(work, 'run-pipeline');
    const store = RunStore.createInDir(runDir, { dataFolder: folder, seed: 1, config: { budgetUsd: 0.05, maxK: 3, maxDepth: 10, targetAdmitted: 2, minQuality: 0.9 } });
    store.appendMany([
      { type: 'task/added', task: anchorTask },
      { type: 'task/added', task: ambiguous },
    ]);
    store.close();
    const summary = await synthesize({ folder, resumeDir: runDir, costModelFile: null, session });
    assert.equal(summary.revisions.revised, 2, JSON.stringify(summary.revisions));
    assert.equal(summary.revisions.reExplored, 1);
    assert.ok(summary.revisions.reScored > 0);
    assert.equal(summary.revisions.modelCalls, 0);
    const reopened = RunStore.open(runDir);
    try {
      const state = reopened.state;
      assert.ok(state.finishedTasks.has(`${ambiguous.id}-r1`), 'the revised question was explored');
      assert.equal(state.revisions.has(`${ambiguous.id}-r1`), false, 'a revised task is not revised again');
      assert.equal(state.tasks.get(ambiguous.id)!.validation!.status, 'rejected', 'the original is superseded');
      assert.ok(![...state.trajectories.values()].some((t) => t.taskId === ambiguous.id), 'its trajectories leave the admitted set');
      assert.ok([...state.revokedTrajectories].some((id) => id.startsWith(`${ambiguous.id}/`)));
      assert.ok([...state.trajectories.values()].some((t) => t.taskId === `${ambiguous.id}-r1`), 'the revised question has its own trajectories');
    } finally {
      reopened.close();
    }
    const out: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => out.push(args.join(' '));
    try {
      assert.equal(await revisionsCommand.run([runDir]), 0);
    } finally {
      console.log = log;
    }
    assert.match(out.join('\n'), /2 tasks reviewed: 2 revised, 0 rejected/);
    assert.match(out.join('\n'), /\[ambiguity\].*orders_archive/);
  });
});
