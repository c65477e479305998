/**
 * The built explorer webview in headless Chromium (behind the real CSP): a 5,000-node tree renders, patches
 * apply in order and a gap asks for a resync, accept / prune post the right intents, and hostile data renders as
 * text. Needs `npm run build` (dist/webview.js) and Debian's chromium: skipped with a message when absent, failed
 * in CI (CI=true). With TOFFEE_SCREENSHOT_DIR set, the step-through test leaves a screenshot of the panel there.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROTOCOL_VERSION, type HostMessage, type SessionInfo } from '../../src/shared/protocol';
import type { WireEvent } from '../../src/shared/runView';
import { STATUS_COLOURS } from '../../src/shared/statusColours';
import { bigTreeStream, stampEvents, XSS_CELL, XSS_THOUGHT, generateRunEventInputs } from '../support/runEvents';
import { requireOrSkip } from '../support/requirements';
import { chromiumPath, WebviewHarness, webviewBundlePath } from '../support/runEventsBrowser';

// Page-side code in evaluate() runs in the browser; the host tsconfig has no DOM types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const INFO: SessionInfo = { runDir: '/runs/r1', runId: 'run-test', canCurate: true, live: true };

function snapshot(events: WireEvent[], patchSeq = 0, info: SessionInfo = INFO): HostMessage {
  return { type: 'session/snapshot', protocolVersion: PROTOCOL_VERSION, patchSeq, info, events };
}

describe('webview in headless Chromium', function () {
  this.timeout(120000);
  let harness: WebviewHarness | undefined;

  before(function () {
    requireOrSkip(this, !chromiumPath() ? 'chromium (Debian\'s, or CHROMIUM_PATH)' : !fs.existsSync(webviewBundlePath()) ? `${webviewBundlePath()} (npm run build)` : undefined);
  });

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('sends ready, renders a 5,000-node tree and applies sequenced patches; a gap asks for a resync', async () => {
    harness = await WebviewHarness.launch();
    const ready = await harness.waitForSent((m) => m.type === 'webview/ready');
    assert.deepEqual(ready, { type: 'webview/ready', protocolVersion: PROTOCOL_VERSION });
    const stream = bigTreeStream(5000, 50, 3);
    // Timing is the benchmark's business (npm run bench:webview); here the tree must simply render.
    await harness.postAndWaitForRender(snapshot(stream.initial as unknown as WireEvent[]), 5000, 60000);
    const counts = await harness.page.textContent('[data-testid="run-counts"]');
    assert.match(counts ?? '', /^5000 nodes/);
    const afterPatch = 5000 + stream.patchEvents[0].filter((e) => e.type === 'node/added').length;
    await harness.postAndWaitForRender({ type: 'session/patch', patchSeq: 1, events: stream.patchEvents[0] as unknown as WireEvent[] }, afterPatch);
    assert.match((await harness.page.textContent('[data-testid="run-counts"]')) ?? '', new RegExp(`^${afterPatch} nodes`));
    // patch 3 skips patch 2: the webview must not apply it and must ask for a snapshot.
    await harness.post({ type: 'session/patch', patchSeq: 3, events: stream.patchEvents[2] as unknown as WireEvent[] });
    const resync = await harness.waitForSent((m) => m.type === 'session/resync');
    assert.deepEqual(resync, { type: 'session/resync', lastPatchSeq: 1 });
    assert.match((await harness.page.textContent('[data-testid="run-counts"]')) ?? '', new RegExp(`^${afterPatch} nodes`));
    assert.deepEqual(await harness.cspViolations(), []);
    assert.deepEqual(harness.pageErrors, []);
  });

  it('accept and prune post curation intents with distinct request ids, and results clear them', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const events = stampEvents(generateRunEventInputs({ tasks: 2, nodesPerTask: 60, seed: 3 })) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 10);
    const rows = harness.page.locator('.trajectory-row');
    assert.ok((await rows.count()) >= 2, 'the generated run has at least two trajectories in the first task');
    const firstId = await rows.nth(0).getAttribute('data-trajectory-id');
    const secondId = await rows.nth(1).getAttribute('data-trajectory-id');
    await rows.nth(0).locator('[data-action="accept"]').click();
    await rows.nth(1).locator('[data-action="prune"]').click();
    const accept = await harness.waitForSent((m) => m.type === 'curation/accept');
    const prune = await harness.waitForSent((m) => m.type === 'curation/prune');
    assert.equal((accept as { trajectoryId: string }).trajectoryId, firstId);
    assert.equal((prune as { trajectoryId: string }).trajectoryId, secondId);
    const acceptId = (accept as { requestId: string }).requestId;
    assert.notEqual(acceptId, (prune as { requestId: string }).requestId);
    // The host answers and the curation event arrives as a patch: the row shows the decision.
    await harness.post({ type: 'request/result', requestId: acceptId, ok: true, message: 'Accepted.' });
    const lastSeq = events[events.length - 1].seq;
    await harness.post({ type: 'session/patch', patchSeq: 1, events: [{ v: 1, seq: lastSeq + 1, ts: new Date().toISOString(), type: 'curation/accepted', trajectoryId: firstId! }] });
    await harness.page.waitForSelector(`.trajectory-row[data-trajectory-id="${firstId}"].curated-accepted`);
    assert.equal(await harness.page.textContent('[data-testid="request-outcome"]'), 'Accepted.');
    // A read-only session (CLI holds the run) disables the buttons and says why.
    await harness.post({ type: 'session/info', info: { ...INFO, canCurate: false, readOnlyReason: 'This run is being written by another TOFFEE process (pid 42).' } });
    await harness.page.waitForSelector('[data-testid="read-only-reason"]');
    assert.equal(await rows.nth(1).locator('[data-action="accept"]').getAttribute('disabled'), '');
  });

  it('renders hostile data values as text: the XSS cell and a <script> thought show as characters', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const events = stampEvents(generateRunEventInputs({ tasks: 1, nodesPerTask: 12, seed: 1 })) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 12);
    // Select node n2 (its observation holds the XSS cell) through the search box.
    await harness.page.fill('vscode-textfield >> input', 'onerror');
    await harness.page.press('vscode-textfield >> input', 'Enter');
    const table = harness.page.locator('[data-testid="observation-table"]');
    await table.waitFor();
    const cellTexts = await table.locator('td').allTextContents();
    assert.ok(cellTexts.includes(XSS_CELL), `cells: ${cellTexts.join(' | ')}`);
    assert.equal(await table.locator('img').count(), 0);
    await harness.page.fill('vscode-textfield >> input', '__pwned');
    await harness.page.press('vscode-textfield >> input', 'Enter');
    await harness.page.waitForSelector('[data-testid="thought"]');
    assert.equal(await harness.page.textContent('[data-testid="thought"]'), XSS_THOUGHT);
    assert.equal(await harness.page.evaluate('window.__pwned === true'), false);
    assert.equal(await harness.page.locator('#root script, #root img').count(), 0);
    assert.equal(await harness.alerts(), 0);
    assert.deepEqual(await harness.cspViolations(), []);
  });

  it('draws nodes in their status colours on the canvas, and clicking a drawn node opens it in the inspector', async () => {
    harness = await WebviewHarness.launch();
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const events = stampEvents(generateRunEventInputs({ tasks: 1, nodesPerTask: 40, seed: 2 })) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 40);
    assert.equal(await harness.page.locator('[data-testid="inspector"]').count(), 0);
    // Find a pixel painted in a status colour of the dark palette (the harness's theme), then click it.
    const colours = Object.values(STATUS_COLOURS.dark);
    const hit = await harness.page.evaluate((hexes: string[]) => {
      const canvas = document.querySelector('canvas.tree-canvas');
      const rgb = hexes.map((hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
      const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const counts = new Map<string, number>();
      let found: { x: number; y: number } | undefined;
      for (let y = 0; y < height; y += 2) {
        for (let x = 0; x < width; x += 2) {
          const at = (y * width + x) * 4;
          const index = rgb.findIndex(([r, g, b]: number[]) => data[at] === r && data[at + 1] === g && data[at + 2] === b);
          if (index < 0) continue;
          counts.set(hexes[index], (counts.get(hexes[index]) ?? 0) + 1);
          found ??= { x, y };
        }
      }
      const rect = canvas.getBoundingClientRect();
      const scale = rect.width / canvas.width;
      return found && { x: rect.left + found.x * scale + 1, y: rect.top + found.y * scale + 1, colours: counts.size };
    }, colours);
    assert.ok(hit, 'some node is painted in a status colour');
    assert.ok(hit.colours >= 2, `nodes of several statuses show in their own colours (${hit.colours})`);
    await harness.page.mouse.click(hit.x, hit.y);
    await harness.page.waitForSelector('[data-testid="inspector"]');
    assert.deepEqual(harness.pageErrors, []);
  });

  it('steps through a trajectory with previous / next', async () => {
    harness = await WebviewHarness.launch({ width: 1500, height: 950 });
    await harness.waitForSent((m) => m.type === 'webview/ready');
    const events = stampEvents(generateRunEventInputs({ tasks: 2, nodesPerTask: 150, seed: 7 })) as unknown as WireEvent[];
    await harness.postAndWaitForRender(snapshot(events), 100);
    const row = harness.page.locator('.trajectory-row').first();
    await row.click();
    // The player starts at the question (the root); its steps are the tool calls, the edges of the node path.
    assert.match((await harness.page.textContent('[data-testid="player-step"]')) ?? '', /^Start \/ \d+$/);
    await harness.page.locator('[data-action="next-step"]').click();
    assert.match((await harness.page.textContent('[data-testid="player-step"]')) ?? '', /^Step 1 \//);
    await harness.page.locator('[data-action="next-step"]').click();
    assert.match((await harness.page.textContent('[data-testid="player-step"]')) ?? '', /^Step 2 \//);
    await harness.page.locator('[data-action="previous-step"]').click();
    assert.match((await harness.page.textContent('[data-testid="player-step"]')) ?? '', /^Step 1 \//);
    await harness.page.locator('[data-action="next-step"]').click();
    assert.match((await harness.page.textContent('[data-testid="player-step"]')) ?? '', /Step 2 \//);
    assert.deepEqual(harness.pageErrors, []);
    // A picture for people, not an assertion: only when asked for.
    const shotDir = process.env.TOFFEE_SCREENSHOT_DIR;
    if (shotDir) {
      fs.mkdirSync(shotDir, { recursive: true });
      await harness.page.screenshot({ path: path.join(shotDir, 'explorer-dark.png') });
    }
  });
});
