/**
 * The integration suite's side of the runner's handshake (scripts/ci/runExtensionTests.mjs): only the runner sees
 * into webviews (browser frames) and takes screenshots, so a test writes a request file and waits for the answer.
 * Request names must be unique within a run (the runner answers each name once).
 */
import * as fs from 'node:fs';

export interface RunnerRequest {
  name: string;
  webviewSelector?: string;
  /** Read this attribute of the first element matching webviewSelector. */
  attribute?: string;
  /** How long to look for webviewSelector (default 15 s). */
  timeoutMs?: number;
  /** Selectors clicked in order inside the webviews before the lookup. */
  webviewClicks?: string[];
  keys?: Array<{ waitFor?: string; type?: string; press?: string; move?: [number, number] }>;
  /** No screenshot for this request, even when SHOT is set. */
  noShot?: boolean;
  /** Wait before the screenshot (default 1000 ms; less for a view that changes live). */
  delayMs?: number;
}

export interface RunnerAnswer {
  webviewSelector?: { found: boolean; count: number; value?: string | null; foundAt?: number };
  webviewClicks?: { ok: boolean; error?: string };
  keys?: { ok: boolean; error?: string };
}

/** Whether a runner is attached (the suite runs under scripts/ci/runExtensionTests.mjs). */
export function hasRunner(): boolean {
  return Boolean(process.env.SCREENSHOT_REQUEST);
}

export async function askRunner(request: RunnerRequest): Promise<RunnerAnswer> {
  const file = process.env.SCREENSHOT_REQUEST;
  if (!file) throw new Error('no runner: run the suite with scripts/ci/runExtensionTests.mjs');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(request));
  fs.renameSync(`${file}.tmp`, file);
  // The answer to the previous request goes only once this one is in place: the runner never re-reads the old one.
  fs.rmSync(`${file}.done`, { force: true });
  const deadline = Date.now() + 60_000 + (request.timeoutMs ?? 15_000);
  // (A runner that writes its answer in place could be read half-written: wait for a whole answer.)
  for (;;) {
    const text = fs.existsSync(`${file}.done`) ? fs.readFileSync(`${file}.done`, 'utf8') : '';
    if (text.trim() !== '') {
      try {
        return JSON.parse(text) as RunnerAnswer;
      } catch {
        // half-written: read it again
      }
    }
    if (Date.now() > deadline) throw new Error(`the runner did not answer ${request.name}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Asks the runner whether `selector` shows inside a webview (within `timeoutMs`). */
export async function webviewShows(name: string, selector: string, options: Omit<RunnerRequest, 'name' | 'webviewSelector'> = {}): Promise<NonNullable<RunnerAnswer['webviewSelector']>> {
  const answer = await askRunner({ name, webviewSelector: selector, ...options });
  if (!answer.webviewSelector) throw new Error(`the runner did not look for ${selector}`);
  return answer.webviewSelector;
}
