import * as assert from 'node:assert/strict';
import { taskDetailMarkdown } from '../../src/core/taskpool/detail';
import { singleStepFamilies as dependencyFamilies } from '../../src/core/taskpool/families/index';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import type { TaskPoolResult } from '../../src/core/taskpool/pool';
import { buildTaskNodes } from '../../src/host/taskNodes';
import type { LlmProvider } from '../../src/core/llm/types';
import { trivialReason } from '../../src/core/taskpool/validate';
import { difficultyOf } from '../../src/core/taskpool/families/kit';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { openShop } from './agentFixture';

describe('task detail and the Tasks view tree', function () {
  this.timeout(120_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let result: TaskPoolResult;
  before(async () => {
    shop = await openShop();
    result = await buildTaskPool(shop.session.toolContext, { families: dependencyFamilies });
  });
  after(async () => shop?.close());

  it('renders question, answer key, evidence with results, rubric anchors and file roles', () => {
    const task = result.tasks.find((t) => t.difficulty.joins > 0)!;
    assert.ok(task, 'the shop has a join task');
    const md = taskDetailMarkdown(task);
    assert.ok(md.startsWith(`# ${task.question}\n`));
    assert.match(md, /\*\*Status:\*\* valid; no-data check skipped/);
    assert.ok(md.includes(task.evidence[0].code));
    assert.match(md, /## Rubric[\s\S]*joins_on[\s\S]*`column:orders\.customer_id`/);
    assert.match(md, /## File roles[\s\S]*\| customers\.csv \| core \|/);
    assert.match(md, /\| rules\.md \| (ambient|supporting|core) \|/);
  });

  it('keeps every rubric criterion and role reason whole; only long data values are cut, at a word', () => {
    const task = structuredClone(result.tasks.find((t) => t.rubric?.length && t.evidence.some((e) => e.result?.rows.length))!);
    const criterion = 'The answer names the region whose delivered orders have the highest total after refunds are subtracted, as the business rules define it';
    task.rubric![0].description = criterion;
    const step = task.evidence.find((e) => e.result?.rows.length)!;
    step.result!.rows[0][0] = 'a long value that runs on and on past the sixty characters a table cell shows';
    const md = taskDetailMarkdown(task);
    assert.ok(md.includes(`| ${criterion} |`), 'the criterion is there in full');
    assert.ok(md.includes('| a long value that runs on and on past the sixty characters… |'), 'a data value is cut after a word');
    for (const role of task.roles ?? []) assert.ok(md.includes(role.why.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')), `the reason for ${role.file} is whole`);
  });

  it('groups tasks by family with difficulty and status, rejected ones included with their reason', () => {
    const rejected = [{ id: 'x-1', family: result.tasks[0].family, question: 'A rejected question?', reasons: ['near-duplicate of y'] }];
    const nodes = buildTaskNodes(result.tasks, rejected);
    assert.deepEqual(nodes.map((n) => n.label), [...new Set(result.tasks.map((t) => t.family))].sort());
    const total = nodes.reduce((s, n) => s + n.children.filter((c) => c.taskId).length, 0);
    assert.equal(total, result.tasks.length);
    const withRejection = nodes.find((n) => n.label === rejected[0].family)!;
    assert.match(withRejection.description!, /1 rejected/);
    const leaf = withRejection.children.find((c) => c.id === 'rejected:x-1')!;
    assert.equal(leaf.icon, 'error');
    assert.match(leaf.description!, /rejected · near-duplicate of y/);
    for (const n of nodes) for (const c of n.children.filter((c) => c.taskId)) assert.match(c.description!, /^(easy|medium|hard) · valid$/);
  });

  it('rejects trivial tasks, and with a provider the ones a model answers without data', async () => {
    const profile = shop.session.env.profile;
    const steps = [{ tool: 'run_sql' as const, code: 'SELECT COUNT(*) FROM "orders"', purpose: 'count' }];
    const bare: TaskSpec = { id: 't1', family: 'x', question: 'How many orders are there?', answer: { type: 'number', value: 240, tolerance: 0.5 }, evidence: steps, difficulty: difficultyOf(steps, ['orders']), tables: ['orders'] };
    assert.match(trivialReason(bare, profile) ?? '', /shown by the schema listing/);
    assert.match(trivialReason({ ...bare, question: 'Is it 240 orders?', answer: { type: 'number', value: 240, tolerance: 0.5 }, evidence: [{ ...steps[0], code: 'SELECT COUNT(*) FROM "orders" WHERE 1' }] }, profile) ?? '', /contains its answer/);
    assert.equal(trivialReason(result.tasks[0], profile), undefined);

    // A provider that knows every answer: each valid task is rejected as answerable without data, and the check says so.
    const keys = new Map(result.tasks.map((t) => [t.question, t.answer]));
    let calls = 0;
    const oracle: LlmProvider = {
      id: 'oracle',
      async listModels() {
        return [];
      },
      async complete(request) {
        calls++;
        const question = String(request.messages[request.messages.length - 1].content);
        const key = keys.get(question)!;
        const text = key.type === 'number' ? String(key.value) : key.type === 'string' ? key.value : key.type === 'list' ? key.values.join(', ') : '';
        return { message: { content: text, toolCalls: [] }, usage: { prompt: 1, completion: 1 }, costUsd: 0, latencyMs: 0 };
      },
    };
    const checked = await buildTaskPool(shop.session.toolContext, { families: dependencyFamilies, noDataModel: { provider: oracle, model: 'm' } });
    assert.equal(checked.tasks.length, 0);
    assert.equal(calls, result.tasks.length);
    assert.ok(checked.rejected.filter((r) => r.reasons.some((x) => x.startsWith('answerable without data'))).length === result.tasks.length);
    // The no-data check only removes tasks: what was rejected without it (near-duplicates included) stays rejected.
    const before = new Set(result.rejected.map((r) => r.id));
    assert.ok(checked.rejected.filter((r) => before.has(r.id)).length === before.size);
  });
});
