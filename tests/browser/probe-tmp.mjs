// temporary probe (not committed): screenshots of a delivery table's first turns
import { chromium } from 'playwright-core';
import { join } from 'node:path';
import { startServer, stopServers, tempDir } from '../server/helpers.mjs';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const server = await startServer(join(tempDir('probe-'), 'p.db'), { env: { PIZZABOX_TABLE_SEED: '20261127' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
page.on('pageerror', (e) => console.log('ERR', String(e)));
await page.goto(`http://localhost:${server.port}/`);
await page.selectOption('#game', 'delivery');
await page.selectOption('#players-count', '3');
await page.fill('#name', 'Ann');
await page.click('#create');
await page.waitForSelector('#delivery-svg');
const steps = (process.env.STEPS || '').split(',').filter(Boolean);
let i = 0;
await page.waitForTimeout(800);
await page.screenshot({ path: `/tmp/dturn/p${i++}.png` });
for (const s of steps) {
  await page.click(s);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `/tmp/dturn/p${i++}.png` });
}
await browser.close();
await stopServers([server]);
