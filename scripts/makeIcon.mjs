// Renders media/icon.svg to media/icon.png (128×128), the extension's marketplace icon: vsce accepts only PNG
// icons. Uses the same headless Chromium as the tests (CHROME_BIN, default /usr/bin/chromium).
// usage: node scripts/makeIcon.mjs
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { chromium } = createRequire(path.join(root, '/'))('playwright-core');
const svg = fs.readFileSync(path.join(root, 'media', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROME_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(root, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written');
