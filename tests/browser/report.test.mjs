// report.test.mjs -- the `pizzabox sim --report` page in a real browser.
//
//   make && npm install --prefix tests/browser && node --test tests/browser/
//
// Runs a small simulation, opens its HTML report in Debian's Chromium
// (/usr/bin/chromium, headless, through playwright-core) and checks that every
// chart is drawn, that the page asks for nothing over the network and shows
// no errors, and saves a screenshot to build/screenshots/sim-report.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'build', 'pizzabox');
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(ROOT, 'build', 'screenshots', 'sim-report.png');
const CHARTS = ['win-by-bot', 'win-by-seat', 'first-mover', 'items', 'categories', 'scores'];

let tmp, report, context, page;
const requests = [];   // every URL the page asked for that is not a file: URL
const problems = [];   // console errors and uncaught exceptions (CSP violations too)

before(async () => {
  assert.ok(existsSync(BIN), `no ${BIN}: run make first`);
  assert.ok(existsSync(CHROMIUM), `no ${CHROMIUM}: apt-get install chromium`);
  tmp = mkdtempSync(join(tmpdir(), 'pizzabox-report-'));
  report = join(tmp, 'report.html');
  execFileSync(BIN, ['sim', '--game', 'nyslice', '--players', '4', '--bots', 'greedy,random,random,random',
    '--games', '40', '--seed', '3', '--report', report], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 800, height: 1000 },
  });
  page = context.pages()[0] ?? await context.newPage();
  page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
});

after(async () => {
  await context?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('the report is a file the command wrote', () => {
  assert.ok(statSync(report).size > 1000);
});

test('the page has the title of the simulation', async () => {
  assert.match(await page.title(), /New York Slice/);
  const meta = await page.locator('header .meta').innerText();
  for (const want of ['4 players', '40 games', 'seed 3']) assert.ok(meta.includes(want), `"${want}" in "${meta}"`);
});

for (const id of CHARTS) {
  test(`chart #${id} is drawn, labelled and has its numbers in a table`, async () => {
    const svg = page.locator(`svg#${id}`);
    assert.equal(await svg.count(), 1);
    assert.ok(await svg.isVisible(), 'visible');
    const box = await svg.boundingBox();
    assert.ok(box && box.width > 100 && box.height > 30, `size ${JSON.stringify(box)}`);
    const info = await svg.evaluate((el) => {
      const rects = [...el.querySelectorAll('rect')];
      const widest = Math.max(0, ...rects.map((r) => r.getBoundingClientRect().width));
      const title = el.querySelector('title')?.textContent ?? '';
      const labelled = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || '';
      let table = el.nextElementSibling;
      while (table && table.tagName !== 'TABLE') table = table.nextElementSibling;
      return { rects: rects.length, widest, title, labelled, rows: table ? table.tBodies[0].rows.length : 0 };
    });
    assert.ok(info.rects > 0, 'has bars');
    assert.ok(info.widest > 0, 'some bar has a width');
    assert.ok(info.title.length > 0 && info.labelled.length > 0, 'has a title and an accessible name');
    assert.ok(info.rows > 0, 'a table of numbers follows');
  });
}

test('win-share charts draw a dashed parity line at 25%', async () => {
  for (const id of ['win-by-bot', 'win-by-seat', 'first-mover']) {
    const ref = page.locator(`svg#${id} line.ref`);
    assert.equal(await ref.count(), 1, id);
    assert.notEqual(await ref.evaluate((l) => getComputedStyle(l).strokeDasharray), 'none', id);
    assert.match(await page.locator(`svg#${id} .ref-label`).textContent(), /25\.0%/);
  }
});

test('the page made no network requests and shows no errors', () => {
  assert.deepEqual(requests, []);
  assert.deepEqual(problems, []);
});

test('screenshot', async () => {
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(statSync(SCREENSHOT).size > 10_000);
});
