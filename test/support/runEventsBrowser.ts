/**
 * Runs the built explorer webview (dist/webview.js + dist/webview.css) in headless Chromium behind the real
 * HTML/CSP builder, with a mocked `acquireVsCodeApi` that records what the webview posts. Used by the browser
 * tests and `npm run bench:webview`. Needs `npm run build` first and Debian's chromium (or CHROMIUM_PATH).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildExplorerHtml, createNonce } from '../../src/host/explorer/explorerHtml';
import type { HostMessage, WebviewMessage } from '../../src/shared/protocol';

// Page-side code below runs in the browser; the host tsconfig has no DOM types, so these are declared loosely.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
declare const document: any;
declare const performance: { now(): number };
interface CustomEvent<T> { detail: T }

const ORIGIN = 'https://toffee-webview.test';
/** The repository root, from test/support in the sources or in a tsc output folder (out/, .out-NAME/). */
function findRepoRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'esbuild.js')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error(`repository root not found above ${__dirname}`);
}
const REPO_ROOT = findRepoRoot();

export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  return candidates.find((p) => fs.existsSync(p));
}

export function webviewBundlePath(): string {
  return path.join(REPO_ROOT, 'dist', 'webview.js');
}

export class WebviewHarness {
  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    readonly pageErrors: string[],
  ) {}

  static async launch(options: { width?: number; height?: number; bodyClass?: string } = {}): Promise<WebviewHarness> {
    const executablePath = chromiumPath();
    if (!executablePath) throw new Error('chromium not found (install Debian chromium or set CHROMIUM_PATH)');
    const bundle = webviewBundlePath();
    if (!fs.existsSync(bundle)) throw new Error(`${bundle} missing: run npm run build first`);
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-extensions', '--mute-audio', '--no-first-run'],
    });
    const page = await browser.newPage({ viewport: { width: options.width ?? 1400, height: options.height ?? 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    const html = buildExplorerHtml({
      cspSource: ORIGIN,
      scriptUri: `${ORIGIN}/dist/webview.js`,
      styleUri: `${ORIGIN}/dist/webview.css`,
      nonce: createNonce(),
    }).replace('<body>', `<body class="${options.bodyClass ?? 'vscode-dark'}">`);
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/index.html') return route.fulfill({ contentType: 'text/html', body: html });
      const file = path.join(REPO_ROOT, url.pathname);
      if (!file.startsWith(path.join(REPO_ROOT, 'dist')) || !fs.existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({ contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript', body: fs.readFileSync(file) });
    });
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      w.__sent = [];
      w.__cspViolations = [];
      w.__alerts = 0;
      window.alert = () => {
        w.__alerts = (w.__alerts as number) + 1;
      };
      document.addEventListener('securitypolicyviolation', (e: { violatedDirective: string; blockedURI: string }) => (w.__cspViolations as string[]).push(`${e.violatedDirective} ${e.blockedURI}`));
      w.acquireVsCodeApi = () => ({
        postMessage: (message: unknown) => (w.__sent as unknown[]).push(JSON.parse(JSON.stringify(message))),
        getState: () => w.__state,
        setState: (state: unknown) => {
          w.__state = state;
        },
      });
    });
    await page.goto(`${ORIGIN}/index.html`);
    return new WebviewHarness(browser, page, pageErrors);
  }

  /** What the webview has posted to the host so far. */
  sent(): Promise<WebviewMessage[]> {
    return this.page.evaluate(() => (window as unknown as { __sent: WebviewMessage[] }).__sent);
  }

  async waitForSent(predicate: (message: WebviewMessage) => boolean, timeoutMs = 5000): Promise<WebviewMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.sent()).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a webview message');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * Delivers a host message and resolves with the milliseconds until the tree canvas has painted at least
   * `minNodes` nodes (measured in the page: JSON decoding of the message, as VS Code's postMessage would, then
   * parsing, reducer, React, layout and the canvas drawn in the next animation frame). The message travels to
   * the page as a string first, untimed: Playwright's own argument transfer of a 33,000-event snapshot takes
   * far longer than the webview and leaves garbage that would be collected inside the timed window.
   */
  async postAndWaitForRender(message: HostMessage, minNodes: number, timeoutMs = 20000): Promise<number> {
    await this.page.evaluate((json) => {
      window.__pendingMessage = json;
    }, JSON.stringify(message));
    return this.page.evaluate(
      ({ minNodes, timeoutMs }) =>
        new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no render with ${minNodes} nodes within ${timeoutMs} ms`)), timeoutMs);
          const start = performance.now();
          const onRendered = (event: unknown) => {
            const detail = (event as CustomEvent<{ nodes: number }>).detail;
            if (detail.nodes < minNodes) return;
            window.removeEventListener('toffee:rendered', onRendered);
            clearTimeout(timer);
            resolve(performance.now() - start);
          };
          window.addEventListener('toffee:rendered', onRendered);
          const data = JSON.parse(window.__pendingMessage);
          window.__pendingMessage = undefined;
          window.dispatchEvent(new MessageEvent('message', { data }));
        }),
      { minNodes, timeoutMs },
    );
  }

  /**
   * Milliseconds from the last message received to each phase mark the webview sets (parsed, reduced,
   * app-committed, draw-start, tree-drawn); clears the marks for the next message.
   */
  phases(): Promise<Record<string, number>> {
    return this.page.evaluate(() => {
      const perf = performance as unknown as { getEntriesByName(name: string): Array<{ startTime: number }>; clearMarks(): void };
      const last = (name: string) => perf.getEntriesByName(`toffee:${name}`).at(-1)?.startTime;
      const start = last('received');
      const result: Record<string, number> = {};
      if (start === undefined) return result;
      for (const name of ['parsed', 'reduced', 'app-committed', 'draw-start', 'tree-drawn']) {
        const at = last(name);
        if (at !== undefined && at >= start) result[name] = at - start;
      }
      perf.clearMarks();
      return result;
    });
  }

  /** Delivers a host message without waiting for a render. */
  async post(message: HostMessage): Promise<void> {
    await this.page.evaluate((data) => window.dispatchEvent(new MessageEvent('message', { data })), message);
  }

  cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  }

  alerts(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __alerts: number }).__alerts);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
