/**
 * `npm run bench:webview`: the built explorer webview in headless Chromium (behind the real CSP) gets a snapshot
 * of a 5,000-node task, then 50-node patches. Prints the time to first render (message received → reduced →
 * laid out → painted) and the median time to apply a 50-node patch. Targets: ≤ 2 s and ≤ 50 ms.
 * Options: --nodes N (5000), --patches N (20), --patch-nodes N (50).
 */
import * as os from 'node:os';
import { PROTOCOL_VERSION } from '../src/shared/protocol';
import type { WireEvent } from '../src/shared/runView';
import { bigTreeStream } from '../test/support/runEvents';
import { WebviewHarness } from '../test/support/runEventsBrowser';

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

async function main(): Promise<void> {
  const nodes = option('nodes', 5000);
  const patches = option('patches', 20);
  const patchNodes = option('patch-nodes', 50);
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
    let shown = initialNodes;
    const patchMs: number[] = [];
    for (let i = 0; i < stream.patchEvents.length; i++) {
      const events = stream.patchEvents[i];
      shown += events.filter((e) => e.type === 'node/added').length;
      patchMs.push(await harness.postAndWaitForRender({ type: 'session/patch', patchSeq: i + 1, events: events as unknown as WireEvent[] }, shown, 60000));
    }
    if (harness.pageErrors.length) console.warn(`page errors: ${harness.pageErrors.join('; ')}`);
    const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`webview first render: ${initialNodes} nodes (${stream.initial.length} events) in ${firstRenderMs.toFixed(0)} ms`);
    console.log(`webview patch: median ${median(patchMs).toFixed(1)} ms over ${patchMs.length} patches of ~${patchNodes} nodes (min ${Math.min(...patchMs).toFixed(1)}, max ${Math.max(...patchMs).toFixed(1)}); tree now ${shown} nodes`);
    console.log(`(machine: ${os.cpus().length} CPUs, load average ${load})`);
  } finally {
    await harness.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
