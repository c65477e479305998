import * as assert from 'node:assert/strict';
import { DemoLibrary, renderDemo, renderDemos, schemaItemsUsed, tokenize } from '../../src/core/export/demos';
import { answerTypeOf, toKramaBenchTask, toSpiderTasks } from '../../src/core/export/tasks';
import type { ExportTrajectory } from '../../src/core/export/types';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import * as fs from 'node:fs';
import { writeShopFolder } from './agentFixture';
import { openAgentSession } from '../../src/core/agent/session';
import { buildStarterTasks } from '../../src/core/taskpool/families/index';
import { EpisodeFixture, acquireRetailEpisodes } from './exportFixture';

/** Leave-one-task-out: for each task whose family has another task, is the top demo (its own task excluded) of its family? */
function sameFamilyTop1(library: DemoLibrary, tasks: EpisodeFixture['tasks']): { correct: number; total: number } {
  const labelled = tasks.filter((task) => tasks.some((other) => other.id !== task.id && other.family === task.family));
  let correct = 0;
  for (const task of labelled) {
    const [top] = library.retrieve(task.question, 1, { excludeTaskIds: [task.id] });
    if (top?.trajectory.task.family === task.family) correct++;
  }
  return { correct, total: labelled.length };
}

describe('ICL demo library and benchmark task export', function () {
  this.timeout(240_000);
  let fixture: EpisodeFixture;
  let trajectories: ExportTrajectory[];

  before(async () => {
    fixture = await acquireRetailEpisodes();
    trajectories = fixture.trajectories;
  });

  it('tokenizes questions and schema names alike', () => {
    assert.deepEqual(tokenize('Which order_items have the highest unitPrice?'), ['which', 'order_item', 'order', 'item', 'have', 'highest', 'unit', 'price']);
    const used = schemaItemsUsed(trajectories.find((t) => t.task.family === 'join-top-k')!, fixture.environment.profile);
    assert.ok(used.tables.length >= 2, 'a join reads two tables');
    assert.ok(used.columns.length >= 2);
  });

  it('indexes one demo per task (the best) and never a pruned one', () => {
    const taskCount = new Set(trajectories.map((t) => t.task.id)).size;
    const library = new DemoLibrary(trajectories, { profile: fixture.environment.profile });
    assert.equal(library.size, taskCount);
    const prunedAll = trajectories.map((t) => ({ ...t, curation: 'pruned' as const }));
    assert.equal(new DemoLibrary(prunedAll).size, 0);
    const oneAccepted = trajectories.map((t, i) => (i === 0 ? { ...t, curation: 'accepted' as const } : t));
    assert.equal(new DemoLibrary(oneAccepted, { includeUnreviewed: false }).size, 1);
  });

  it('ranks a demo of the same family first (leave-one-task-out top-1 accuracy)', () => {
    const library = new DemoLibrary(trajectories, { profile: fixture.environment.profile });
    const { correct, total } = sameFamilyTop1(library, fixture.tasks);
    console.log(`      retail: top-1 same-family accuracy ${correct}/${total} = ${((100 * correct) / total).toFixed(0)}%`);
    assert.ok(total >= 8);
    assert.ok(correct / total >= 0.8, `top-1 accuracy ${correct}/${total}`);
    // Its own task ranks first when not excluded.
    for (const task of fixture.tasks) assert.equal(library.retrieve(task.question, 1)[0]?.trajectory.task.id, task.id, task.question);
    assert.deepEqual(library.retrieve('zzz qqq', 3), []);
    assert.equal(library.retrieve(fixture.tasks[0].question, 2).length, 2);
  });

  it('holds up on questions from another environment the field weights were not chosen on', async () => {
    // The shop fixture's starter tasks, asked against the retail library: same families, other tables and wording.
    const folder = writeShopFolder();
    const shop = await openAgentSession(folder);
    try {
      const questions = await buildStarterTasks(shop.env, { sql: shop.sql, python: shop.python });
      const library = new DemoLibrary(trajectories, { profile: fixture.environment.profile });
      const correct = questions.filter((task) => library.retrieve(task.question, 1)[0]?.trajectory.task.family === task.family).length;
      console.log(`      shop questions against the retail library: top-1 same-family accuracy ${correct}/${questions.length}`);
      assert.ok(questions.length >= 4);
      assert.ok(correct / questions.length >= 0.75, `${correct}/${questions.length}`);
    } finally {
      await shop.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('renders compact, prompt-ready demos: the calls that worked, glimpses of results, the answer', () => {
    const repaired = trajectories.find((t) => t.hasRepair)!;
    const text = renderDemo(repaired);
    assert.ok(text.startsWith(`Question: ${repaired.task.question}`));
    assert.ok(text.includes(`Answer: ${repaired.finalAnswer!.answer}`));
    assert.ok(!text.includes('Error:'), 'failed calls are left out by default');
    assert.ok(renderDemo(repaired, { includeErrors: true }).includes('Error:'));
    const sql = repaired.steps.find((s) => s.observation.ok && s.toolCall?.name === 'run_sql');
    if (sql) assert.ok(text.includes((JSON.parse(sql.toolCall!.arguments) as { query: string }).query.trim().split('\n')[0]));
    const block = renderDemos(trajectories.slice(0, 3));
    assert.equal(block.match(/### Example \d/g)?.length, 3);
    assert.ok(block.length < 3 * 2500, `compact: ${block.length} characters for 3 demos`);
  });

  it('exports KramaBench-style tasks with answers, sources and subtasks from the reference solution', () => {
    for (const task of fixture.tasks) {
      const item = toKramaBenchTask(task, fixture.environment.profile);
      assert.equal(item.id, task.id);
      assert.equal(item.query, task.question);
      assert.equal(item.answer_type, answerTypeOf(task.answer));
      assert.ok(item.data_sources.length >= 1);
      for (const source of item.data_sources) assert.ok(fixture.environment.profile.files.some((f) => f.file === source), `${source} is a file of the environment`);
      assert.equal(item.subtasks.length, task.evidence.length);
      assert.ok(['numeric_exact', 'numeric_approximate', 'string_exact', 'list_exact', 'list_approximate', 'table'].includes(item.answer_type));
    }
  });

  it('exports Spider/BIRD-style items whose gold SQL, run in the sandbox, gives the task’s answer', async () => {
    const { items, skipped } = toSpiderTasks(fixture.tasks, 'retail', fixture.session.env.documents);
    assert.equal(items.length + skipped.length, fixture.tasks.length);
    assert.ok(items.length >= 6);
    assert.ok(skipped.every((s) => fixture.tasks.find((t) => t.id === s.taskId)!.evidence.some((e) => e.tool === 'run_python')));
    for (const item of items) {
      assert.equal(item.db_id, 'retail');
      assert.ok(['simple', 'moderate', 'challenging'].includes(item.difficulty));
      const task = fixture.tasks.find((t) => t.id === item.task_id)!;
      const result = await fixture.session.sql.run(item.SQL);
      assert.ok(result.ok, `${item.SQL}: ${result.error}`);
      const rows = result.rows ?? [];
      const answerText = task.answer.type === 'list' ? rows.slice(0, task.answer.values.length).map((r) => String(r[0])).join(', ') : String(rows[0]?.[0]);
      assert.ok(matchesAnswer(task.answer, answerText), `${task.id}: ${answerText} vs ${JSON.stringify(task.answer)}`);
    }
  });
});
