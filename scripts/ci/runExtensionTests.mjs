// Runs the extension's integration tests inside a real VS Code: code-server 4.100.3 (VS Code 1.100.3 for the
// web, with VS Code's real Node extension host) driven by Debian's headless Chromium through playwright-core.
// The equivalent of @vscode/test-electron's runTests(), which cannot download VS Code on CI machines here.
// Exit code = the test result reported by the workbench (window.codeAutomationExit).
//
// usage: node scripts/ci/runExtensionTests.mjs <extensionDevelopmentPath> <extensionTestsPath (.js)> [workspaceFolder]
// env:
//   CODE_SERVER      code-server's out/node/entry.js (default: .tools/code-server/…, made by `npm run setup:test`)
//   CHROME_BIN       Chromium (default /usr/bin/chromium)
//   TEST_TIMEOUT_MS  whole-run limit (default 900000: the suite takes 5–8 minutes on a loaded 2-core machine)
//   TOFFEE_TEST_FILES  comma-separated test file stems to run (default: all), read by test/integration/index.ts
//   SHOT             PNG path: a screenshot of the workbench, taken when the suite asks for it (it writes the file
//                    named by SCREENSHOT_REQUEST, which this runner passes to the extension host) or at the end;
//                    named requests (see findInWebviews) go to SHOT-<name>.png
//   RUNNER_DIR       (set for the suite) this run's folder: the user data and logs of the VS Code under test
//   THEME            workbench.colorTheme for the run, e.g. "Default Dark Modern" (default: code-server's, a light theme)
//   VSIX             test this packaged extension instead: it is installed into the run's extensions folder with
//                    code-server's --install-extension, and the installed copy is what the tests load
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fail = (message, code = 2) => { console.error(`runExtensionTests: ${message}`); process.exit(code); };

const CS = path.resolve(process.env.CODE_SERVER || path.join(repoRoot, '.tools/code-server/node_modules/code-server/out/node/entry.js'));
if (!fs.existsSync(CS)) fail(`code-server not found at ${CS}: run npm run setup:test`);
const CHROME = process.env.CHROME_BIN || '/usr/bin/chromium';
if (!fs.existsSync(CHROME)) fail(`Chromium not found at ${CHROME}: run npm run setup:test`);
let chromium;
try {
  ({ chromium } = createRequire(path.join(repoRoot, '/'))('playwright-core'));
} catch {
  fail('playwright-core is not installed: run npm ci');
}
if (process.argv.length < 4) fail('usage: runExtensionTests.mjs <extensionDevelopmentPath> <extensionTestsPath> [workspaceFolder]');
let extDev = path.resolve(process.argv[2]);
const extTests = path.resolve(process.argv[3]);
if (!fs.existsSync(extTests)) fail(`test entry ${extTests} does not exist (compile the tests first)`);
const vsix = process.env.VSIX ? path.resolve(process.env.VSIX) : undefined;

const TMPROOT = process.env.RUNNER_TMP || path.join(os.tmpdir(), 'toffee-vscode-runner');
fs.mkdirSync(TMPROOT, { recursive: true });
const tmp = fs.mkdtempSync(path.join(TMPROOT, 'run-'));
const folder = process.argv[4] ? path.resolve(process.argv[4]) : path.join(tmp, 'workspace');
fs.mkdirSync(folder, { recursive: true });
const TIMEOUT_MS = +(process.env.TEST_TIMEOUT_MS || 900000);
const t0 = Date.now();
const log = (...a) => console.log(`[runner ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

// A fresh profile: no welcome page, no telemetry, no marketplace checks, no workspace-trust prompt.
fs.mkdirSync(path.join(tmp, 'data/User'), { recursive: true });
fs.writeFileSync(path.join(tmp, 'data/User/settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off', 'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false, 'security.workspace.trust.enabled': false, 'workbench.tips.enabled': false,
  ...(process.env.THEME ? { 'workbench.colorTheme': process.env.THEME } : {}),
}));
const extensionsDir = path.join(tmp, 'exts');
fs.mkdirSync(extensionsDir, { recursive: true });
const env = { ...process.env, PASSWORD: undefined, XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_DATA_HOME: path.join(tmp, 'xdg-data') };
delete env.PASSWORD;

if (vsix) {
  const installed = spawnSync(process.execPath, [CS, '--user-data-dir', path.join(tmp, 'data'), '--extensions-dir', extensionsDir, '--install-extension', vsix], { env, encoding: 'utf8' });
  process.stdout.write(installed.stdout); process.stderr.write(installed.stderr);
  if (installed.status !== 0) fail(`installing ${vsix} failed (exit ${installed.status})`);
  const listed = spawnSync(process.execPath, [CS, '--extensions-dir', extensionsDir, '--list-extensions', '--show-versions'], { env, encoding: 'utf8' });
  log(`installed extensions: ${listed.stdout.trim().split('\n').join(', ')}`);
  // The web workbench runs tests only in an extension development host, so the installed copy (the .vsix's
  // files exactly as unpacked, without node_modules) is loaded as the development path.
  const unpacked = fs.readdirSync(extensionsDir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.'));
  if (unpacked.length !== 1) fail(`expected one installed extension folder in ${extensionsDir}, found ${unpacked.map((e) => e.name).join(', ') || 'none'}`);
  extDev = path.join(extensionsDir, unpacked[0].name);
  log(`testing the installed extension in ${extDev}`);
}

// Screenshot handshake: the suite writes this file when the workbench shows what it wants captured,
// then waits for "<file>.done".
const screenshotRequest = path.join(tmp, 'screenshot-request');
env.SCREENSHOT_REQUEST = screenshotRequest;
env.RUNNER_DIR = tmp;

const freePort = () => new Promise((r) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
const port = await freePort();
const csLogPath = path.join(tmp, 'code-server.log');
const csLog = fs.openSync(csLogPath, 'w');
const cs = spawn(process.execPath, [CS, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
  '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
  '--user-data-dir', path.join(tmp, 'data'), '--extensions-dir', extensionsDir, '--log', 'info', folder],
{ detached: true, stdio: ['ignore', csLog, csLog], env });
let csExited = false;
cs.on('exit', (c) => { csExited = true; log('code-server exited', c); });
const stopCodeServer = async () => {
  try { process.kill(-cs.pid, 'SIGTERM'); } catch {}
  for (let i = 0; i < 50 && !csExited; i++) await new Promise((r) => setTimeout(r, 100));
  try { process.kill(-cs.pid, 'SIGKILL'); } catch {}
};
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try { const r = await fetch(`${base}/healthz`); if (r.ok) break; } catch {}
  if (csExited || i > 600) { console.error(fs.readFileSync(csLogPath, 'utf8')); await stopCodeServer(); fail('code-server did not start'); }
  await new Promise((r) => setTimeout(r, 100));
}
log(`code-server up on ${base}`);

// The web workbench reads extensionDevelopmentPath / extensionTestsPath from the `payload` query parameter, the
// mechanism VS Code uses for a web "Extension Development Host"; code-server's remote authority is the Host header.
const authority = `127.0.0.1:${port}`;
const payload = [['extensionDevelopmentPath', `vscode-remote://${authority}${extDev}`],
  ['extensionTestsPath', `vscode-remote://${authority}${extTests}`]];
const url = `${base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

const browser = await chromium.launch({ executablePath: CHROME, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
const page = await context.newPage();
let finish;
const done = new Promise((r) => (finish = r));
// The hooks @vscode/test-web uses: the workbench calls window.codeAutomationExit(code) when the test ext host exits.
await page.exposeFunction('codeAutomationLog', (type, args) => console.log(...(args || [])));
await page.exposeFunction('codeAutomationExit', (code) => { log('codeAutomationExit', code); finish(code); });
page.on('console', (m) => {
  const t = m.text();
  if (/Extension Host/.test(t) || m.type() === 'error') console.log(t.replace(/%c/g, '').replace(/color: [^ ]+/g, '').trim());
});
const timer = setTimeout(() => { log(`TIMEOUT after ${TIMEOUT_MS} ms`); finish(124); }, TIMEOUT_MS);
let shotTaken = false;
let watching = true;
// A request is plain text (the first one is taken as SHOT) or JSON {name, webviewSelector, attribute, webviewClicks,
// keys, timeoutMs, noShot, delayMs}: a named request is saved as SHOT-<name>.png (unless noShot) delayMs (default
// 1000) after the rest was done; webviewClicks (selectors)
// are clicked in order inside the webviews, as a user would; webviewSelector is looked up in every frame (webviews
// are nested iframes) for up to timeoutMs (15 s), and with `attribute` the first match's value of it is read; keys
// is a list of {waitFor?: selector, type?: text, press?: key, move?: [x, y]} done in order on the workbench page, as a
// user at the keyboard (the command palette, an input box) and the mouse (moved out of the way of a screenshot); the answer ({webviewSelector: {found, count, value?, foundAt}},
// {webviewClicks: {ok, error?}}, {keys: {ok, error?}}) is written into "<file>.done" for the suite to assert.
async function findInWebviews(selector, attribute, timeoutMs = 15000) {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
    for (const frame of page.frames()) {
      const count = await frame.locator(selector).count().catch(() => 0);
      if (count > 0) {
        const value = attribute ? await frame.locator(selector).first().getAttribute(attribute).catch(() => null) : undefined;
        return { found: true, count, foundAt: Date.now(), ...(attribute ? { value } : {}) };
      }
    }
  }
  return { found: false, count: 0, frames: page.frames().length };
}
async function clickInWebviews(selectors) {
  try {
    for (const selector of selectors) {
      let clicked = false;
      for (const started = Date.now(); !clicked && Date.now() - started < 15000; ) {
        for (const frame of page.frames()) {
          if ((await frame.locator(selector).count().catch(() => 0)) === 0) continue;
          const target = frame.locator(selector).first();
          // A webview iframe can sit under another editor's overlay for Playwright's hit test (several panels
          // open): then the click event goes to the element directly, which is what the user's click delivers.
          await target.click({ timeout: 3000 }).catch(() => target.dispatchEvent('click'));
          clicked = true;
          break;
        }
        if (!clicked) await new Promise((r) => setTimeout(r, 100));
      }
      if (!clicked) return { ok: false, error: `no ${selector} in any webview` };
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}
async function pressKeys(keys) {
  try {
    for (const key of keys) {
      if (typeof key.waitFor === 'string') await page.waitForSelector(key.waitFor, { state: 'visible', timeout: 15000 });
      if (typeof key.type === 'string') await page.keyboard.type(key.type, { delay: 5 });
      if (typeof key.press === 'string') await page.keyboard.press(key.press);
      if (Array.isArray(key.move)) await page.mouse.move(Number(key.move[0]), Number(key.move[1]));
    }
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}
const handled = new Set();
const screenshots = (async () => {
  while (watching) {
    if (fs.existsSync(screenshotRequest) && !fs.existsSync(`${screenshotRequest}.done`)) {
      const raw = fs.readFileSync(screenshotRequest, 'utf8').trim();
      let request = {};
      try { request = JSON.parse(raw); } catch {}
      const name = typeof request.name === 'string' && /^[a-z0-9-]{1,40}$/.test(request.name) ? request.name : undefined;
      const key = name ?? '';
      const result = {};
      if (!handled.has(key)) {
        handled.add(key);
        if (Array.isArray(request.webviewClicks)) {
          result.webviewClicks = await clickInWebviews(request.webviewClicks);
          log(`webview clicks ${name ?? ''}: ${JSON.stringify(result.webviewClicks)}`);
        }
        if (typeof request.webviewSelector === 'string') {
          result.webviewSelector = await findInWebviews(request.webviewSelector, typeof request.attribute === 'string' ? request.attribute : undefined, typeof request.timeoutMs === 'number' ? request.timeoutMs : undefined);
          log(`webview selector ${request.webviewSelector}: ${JSON.stringify(result.webviewSelector)}`);
        }
        if (Array.isArray(request.keys)) {
          result.keys = await pressKeys(request.keys);
          log(`keys ${name ?? ''}: ${JSON.stringify(result.keys)}`);
        }
        const target = process.env.SHOT && !request.noShot && (name ? process.env.SHOT.replace(/(\.png)?$/i, `-${name}.png`) : shotTaken ? undefined : process.env.SHOT);
        if (target) {
          // Let the view finish rendering (a live view asks for less, so the picture shows what was found).
          await new Promise((r) => setTimeout(r, typeof request.delayMs === 'number' ? request.delayMs : 1000));
          await page.screenshot({ path: target }).then(() => { if (!name) shotTaken = true; log(`screenshot ${target}`); }, (e) => log(`screenshot failed: ${e}`));
        }
      }
      // Written whole, then renamed: the suite polls for the file and must never read it half-written (an empty
      // answer read as `{}` failed an assertion once in a full run).
      fs.writeFileSync(`${screenshotRequest}.done.tmp`, JSON.stringify(result));
      fs.renameSync(`${screenshotRequest}.done.tmp`, `${screenshotRequest}.done`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
})();
await page.goto(url);
const code = await done;
clearTimeout(timer);
watching = false;
await screenshots;
if (process.env.SHOT && !shotTaken) await page.screenshot({ path: process.env.SHOT }).then(() => log(`screenshot ${process.env.SHOT} (at exit)`), () => {});
await browser.close().catch(() => {});
await stopCodeServer();
log(`exit code ${code}; code-server log: ${csLogPath}`);
process.exit(code);
