/**
 * The explorer panel as a user follows a run, in headless Chromium on the built webview: the task pool's build
 * before any task, the task list that follows the task being explored until the user picks one, the player that
 * sits with the inspector and starts over on another task, the budget chart, and the cost-model table in words.
 * Needs `npm run build` and Debian's chromium; skipped with a message when absent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { PROTOCOL_VERSION, type HostMessage, type PoolProgressView, type SessionInfo } from '../../src/shared/protocol';
import type { WireEvent } from '../../src/shared/runView';
import { generateRunEventInputs, stampEvents, TaskStreamGenerator } from '../support/runEvents';
import { requireOrSkip } from '../support/requirements';
import { chromiumPath, WebviewHarness, webviewBundlePath } from '../support/runEventsBrowser';

// Page-side code in waitForFunction() runs in the browser; the host tsconfig has no DOM types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const INFO: SessionInfo = { runDir: '/data/retail/.toffee/runs/r1', runId: 'run-test', canCurate: true, live: true };

function snapshot(events: WireEvent[], extra: Partial<Extract<HostMessage, { type: 'session/snapshot' }>> = {}): HostMessage {
  return { type: 'session/snapshot', protocolVersion: PROTOCOL_VERSION, patchSeq: 0, info: INFO, events, ...extra };
}

const text = async (harness: WebviewHarness, selector: string) => (await harness.page.textContent(selector))?.trim() ?? '';

describe('webview: following a run in headless Chromium', function () {
  this.timeout(120000);
  let harness: WebviewHarness | undefined;

  before(function () {
    requireOrSkip(this, !chromiumPath() ? 'chromium (Debian\'s, or CHROMIUM_PATH)' : !fs.existsSync(webviewBundlePath()) ? `${webviewBundlePath()} (npm run build)` : undefined);
  });

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('shows the task pool being built before the run has tasks, then the tasks', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const pool: PoolProgressView = { phase: 'families', familiesDone: 3, familiesTotal: 10, candidates: 17, checked: 0, valid: 0, rejected: 0, folder: '/data/retail' };
    await harness.post(snapshot([], { info: { ...INFO, canCurate: false, canStop: true }, pool }));
    await harness.page.waitForSelector('[data-testid="pool-progress"][data-phase="families"]');
    assert.equal(await text(harness, '[data-testid="pool-candidates"]'), '17');
    assert.equal(await text(harness, '[data-testid="run-state"]'), 'building tasks');
    assert.equal(await harness.page.locator('[data-action="stop"]').count(), 1, 'a synthesis in this window can be stopped from the panel');
    await harness.post({ type: 'session/pool', pool: { ...pool, phase: 'validating', familiesDone: 10, candidates: 40, checked: 12, valid: 9, rejected: 3 } });
    await harness.page.waitForSelector('[data-testid="pool-progress"][data-phase="validating"]');
    assert.equal(await text(harness, '[data-testid="pool-valid"]'), '9 (3 rejected)');
    // The run starts: its tasks replace the pool's progress, and the first task's root is drawn.
    const events = stampEvents(new TaskStreamGenerator(0, 3, 1).next()) as unknown as WireEvent[];
    await harness.postAndWaitForRender({ type: 'session/patch', patchSeq: 1, events }, 1);
    await harness.page.waitForSelector('[data-testid="task-list"] .task-row');
    assert.equal(await harness.page.locator('[data-testid="pool-progress"]').count(), 0);
    assert.equal(await text(harness, '[data-testid="run-state"]'), 'running');
    const firstDrawn = await harness.page.getAttribute('[data-testid="tree-canvas"]', 'data-first-node-at');
    assert.ok(firstDrawn && Number(firstDrawn) > 0, 'the canvas records when it drew its first node');
  });

  it('follows the task being explored until the user picks one; Follow the run returns to it', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    // Task 0 finished, task 1 being explored: the panel shows task 1.
    const first = new TaskStreamGenerator(0, 30, 4).drain();
    const second = new TaskStreamGenerator(1, 60, 4);
    const secondStart: typeof first = [];
    while (second.nodeCount < 10) secondStart.push(...second.next());
    const events = stampEvents([...first, ...secondStart]) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 10);
    const selectedTask = () => harness!.page.getAttribute('.task-row.selected', 'data-task-id');
    assert.equal(await selectedTask(), 'task-001', 'the task being explored is shown');
    assert.match(await text(harness, '[data-testid="task-question"]'), /\(task 1\)$/, 'the question is shown, not the id');
    assert.match(await text(harness, '.task-row[data-task-id="task-000"] .task-meta'), /^finished/);
    assert.match(await text(harness, '.task-row[data-task-id="task-001"] .task-meta'), /^exploring/);
    // The user picks task 0: new nodes of task 1 do not take the view away.
    await harness.page.locator('.task-row[data-task-id="task-000"]').click();
    assert.equal(await selectedTask(), 'task-000');
    let seq = events.length + 1;
    const more = stampEvents(second.next(), 'run-test', seq) as unknown as WireEvent[];
    seq += more.length;
    await harness.post({ type: 'session/patch', patchSeq: 1, events: more });
    await harness.page.waitForTimeout(300);
    assert.equal(await selectedTask(), 'task-000', 'the picked task stays');
    await harness.page.locator('[data-action="follow"]').click();
    assert.equal(await selectedTask(), 'task-001', 'following again shows the task being explored');
    assert.equal(await text(harness, '[data-testid="following"]'), 'Following the run');
  });

  it('plays a trajectory in the inspector; another task starts with no player and no stale outcome', async () => {
    harness = await WebviewHarness.launch({ width: 1400, height: 900 });
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const events = stampEvents(generateRunEventInputs({ tasks: 2, nodesPerTask: 80, seed: 7 })) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 20);
    await harness.page.locator('.task-row[data-task-id="task-000"]').click();
    const row = harness.page.locator('.trajectory-row').first();
    await row.click();
    // The player is inside the inspector, above the node it plays.
    assert.equal(await harness.page.locator('[data-testid="inspector"] [data-testid="player"], .inspector [data-testid="player"]').count(), 1);
    await harness.page.locator('[data-action="next-step"]').click();
    await harness.page.locator('[data-action="next-step"]').click();
    assert.match(await text(harness, '[data-testid="player-step"]'), /^Step 2 \//);
    const label = await text(harness, '[data-testid="player-label"]');
    assert.ok(label.length > 12 && !label.endsWith('{'), `the step reads as a call, not cut JSON: ${label}`);
    // A prune answered by the host shows its outcome…
    await row.locator('[data-action="prune"]').click();
    const prune = await harness.waitForSent((m) => m.type === 'curation/prune');
    await harness.post({ type: 'request/result', requestId: (prune as { requestId: string }).requestId, ok: true, message: 'Pruned.' });
    await harness.page.waitForFunction(() => document.querySelector('[data-testid="request-outcome"]')?.textContent === 'Pruned.');
    // …and switching task resets the player and clears it.
    await harness.page.locator('.task-row[data-task-id="task-001"]').click();
    assert.equal(await harness.page.locator('[data-testid="player"]').count(), 0, 'no player carried over');
    assert.equal(await text(harness, '[data-testid="request-outcome"]'), '', 'no outcome from the other task');
    await harness.page.locator('.trajectory-row').first().click();
    assert.match(await text(harness, '[data-testid="player-step"]'), /^Start \/ \d+$/, 'a new trajectory starts at its start');
  });

  it('draws the best-quality line with several points, the budget limit and ticks; names cost-model arms in words', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const inputs = generateRunEventInputs({ tasks: 1, nodesPerTask: 60, seed: 2 });
    const events = stampEvents(inputs) as unknown as WireEvent[];
    (events[0] as Record<string, unknown>).config = { budgetUsd: 0.05 };
    // A decision as the explorer writes it: arm ids, the chosen arms' μ and σ, and the ranked candidates.
    // The root's last decision is the one its inspector shows (the root is the node the search box finds below).
    const decisionAt = events.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'lcm/decision' && (e as { nodeId?: string }).nodeId === 'n0').at(-1)!.i;
    const arm = (model: string, effort: string) => `offline-sim/${model}|full|${effort}|explore`;
    Object.assign(events[decisionAt], {
      arms: [arm('sim-medium', 'high')],
      mu: [0.412],
      sigma: [0.2],
      candidates: [
        { armId: arm('sim-medium', 'high'), mu: 0.412, sigma: 0.2, cost: 0.003, score: 0.55, excluded: null },
        { armId: arm('sim-small', 'low'), mu: 0, sigma: 0.866, cost: 0.0004, score: 0.85, excluded: 'unaffordable' },
      ],
    });
    await harness.postAndWaitForRender(snapshot(events), 20);
    const points = Number(await harness.page.getAttribute('[data-testid="budget-chart"] polyline.line-quality', 'data-points'));
    assert.ok(points > 1, `the best-quality line has ${points} points`);
    assert.equal(await harness.page.locator('[data-testid="budget-limit"]').count(), 1, 'the budget limit is drawn');
    assert.ok((await harness.page.locator('[data-testid="budget-chart"] text.chart-label').count()) >= 8, 'both axes have tick labels');
    // Open the root through the search box (its thought is the only one about the schema).
    await harness.page.fill('vscode-textfield >> input', 'discover the schema');
    await harness.page.press('vscode-textfield >> input', 'Enter');
    await harness.page.waitForSelector('[data-testid="decision-table"]');
    const cells = await harness.page.locator('[data-testid="decision-table"] tbody tr').allTextContents();
    assert.ok(cells[0].startsWith('✓ sim-medium · full · high · explore'), `the chosen arm is marked and readable: ${cells[0]}`);
    assert.ok(cells[0].includes('0.412'), 'its μ is the recorded one');
    assert.ok(cells[1].includes('sim-small · full · low · explore (unaffordable)') && cells[1].includes('untried'), `an untried arm says so: ${cells[1]}`);
    assert.equal(await harness.page.getAttribute('[data-testid="decision-table"] tbody tr:first-child', 'title'), arm('sim-medium', 'high'), 'the arm id is in the tooltip');
  });
});
