/**
 * `npm run bench:webview`: the built explorer webview in headless Chromium (behind the real CSP) gets a snapshot
 * of a 5,000-node task, then 50-node patches. Prints the time to first render (message received → parsed →
 * reduced → React committed → tree drawn) and the median time to apply a 50-node patch, with the phases, for
 * each run in a fresh browser and the median over the runs. Targets: ≤ 2 s and ≤ 50 ms.
 * Options: --runs N (3), --nodes N (5000), --patches N (20), --patch-nodes N (50).
 */
import * as os from 'node:os';
import { PROTOCOL_VERSION } from '../src/shared/protocol';
import type { WireEvent } from '../src/shared/runView';
import { bigTreeStream } from '../test/support/runEvents';
import { WebviewHarness } from '../test/support/runEventsBrowser';

const FIRST_RENDER_TARGET_MS = 2000;
const PATCH_TARGET_MS = 50;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function load(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' ');
}

/** "parsed 120 · reduced 300 · …" from phase times (ms since the message arrived), medians when several. */
function describePhases(phases: Array<Record<string, number>>): string {
  const names = ['parsed', 'reduced', 'app-committed', 'draw-start', 'tree-drawn'];
  return names
    .map((name) => {
      const values = phases.map((p) => p[name]).filter((v): v is number => v !== undefined);
      return values.length ? `${name} ${median(values).toFixed(values.length > 1 || median(values) < 100 ? 1 : 0)}` : '';
    })
    .filter(Boolean)
    .join(' · ');
}

interface RunResult {
  firstRenderMs: number;
  patchMedianMs: number;
  patchMs: number[];
  firstPhases: Record<string, number>;
  patchPhases: Array<Record<string, number>>;
  shown: number;
}

async function runOnce(nodes: number, patches: number, patchNodes: number): Promise<RunResult> {
  const stream = bigTreeStream(nodes, patchNodes, patches);
  const initialNodes = stream.initial.filter((e) => e.type === 'node/added').length;
  const harness = await WebviewHarness.launch();
  try {
    await harness.waitForSent((m) => m.type === 'webview/ready', 30000);
    const info = { runDir: '/bench/run', runId: 'bench', canCurate: true, live: true };
    const firstRenderMs = await harness.postAndWaitForRender(
      { type: 'session/snapshot', protocolVersion: PROTOCOL_VERSION, patchSeq: 0, info, events: stream.initial as unknown as WireEvent[] },
      initialNodes,
      120000,
    );
    const firstPhases = await harness.phases();
    let shown = initialNodes;
    const patchMs: number[] = [];
    const patchPhases: Array<Record<string, number>> = [];
    for (let i = 0; i < stream.patchEvents.length; i++) {
      const events = stream.patchEvents[i];
      shown += events.filter((e) => e.type === 'node/added').length;
      patchMs.push(await harness.postAndWaitForRender({ type: 'session/patch', patchSeq: i + 1, events: events as unknown as WireEvent[] }, shown, 60000));
      patchPhases.push(await harness.phases());
    }
    if (harness.pageErrors.length) console.warn(`page errors: ${harness.pageErrors.join('; ')}`);
    return { firstRenderMs, patchMedianMs: median(patchMs), patchMs, firstPhases, patchPhases, shown };
  } finally {
    await harness.close();
  }
}

async function main(): Promise<void> {
  const runs = option('runs', 3);
  const nodes = option('nodes', 5000);
  const patches = option('patches', 20);
  const patchNodes = option('patch-nodes', 50);
  console.log(`bench:webview: ${runs} runs, each a fresh headless Chromium: a ${nodes}-node snapshot, then ${patches} patches of ~${patchNodes} nodes`);
  console.log(`(machine: ${os.cpus().length} CPUs, load average before: ${load()})`);
  const results: RunResult[] = [];
  for (let run = 1; run <= runs; run++) {
    const result = await runOnce(nodes, patches, patchNodes);
    results.push(result);
    console.log(
      `run ${run}: first render ${result.firstRenderMs.toFixed(0)} ms [${describePhases([result.firstPhases])}]; ` +
        `patch median ${result.patchMedianMs.toFixed(1)} ms (min ${Math.min(...result.patchMs).toFixed(1)}, max ${Math.max(...result.patchMs).toFixed(1)}) ` +
        `[${describePhases(result.patchPhases)}]; tree now ${result.shown} nodes; load ${load()}`,
    );
  }
  const firstRender = median(results.map((r) => r.firstRenderMs));
  const patch = median(results.map((r) => r.patchMedianMs));
  const verdict = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');
  console.log(`first render of ${nodes} nodes: median ${firstRender.toFixed(0)} ms over ${runs} runs (target ≤ ${FIRST_RENDER_TARGET_MS} ms: ${verdict(firstRender, FIRST_RENDER_TARGET_MS)})`);
  console.log(`50-node patch: median ${patch.toFixed(1)} ms (median of ${runs} per-run medians; target ≤ ${PATCH_TARGET_MS} ms: ${verdict(patch, PATCH_TARGET_MS)})`);
  console.log(`(load average after: ${load()})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
