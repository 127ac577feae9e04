// chromium.mjs -- Debian's Chromium for the browser tests: where it is, how
// it starts (headless, nothing that reaches for the network), where
// screenshots go, and a page's uncaught errors and Content Security Policy
// reports collected for the test to assert none.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from '../server/helpers.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(ROOT, 'build', 'screenshots');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/* A headless Chromium, with the screenshot folder ready. */
export async function launchChromium() {
  assert.ok(existsSync(CHROMIUM), `no ${CHROMIUM}: apt-get install chromium`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/* The page's uncaught errors and CSP reports go to `problems`; the page back. */
export function watchErrors(page, problems) {
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) problems.push(m.text()); });
  return page;
}

/* A page in a browser context of its own (contextOptions: viewport, touch,
 * ...), with initScript (if any) run before each document's own scripts and
 * its errors going to `problems`. */
export async function watchedPage(browser, problems, contextOptions = {}, initScript = null) {
  const ctx = await browser.newContext(contextOptions);
  if (initScript) await ctx.addInitScript(initScript);
  return watchErrors(await ctx.newPage(), problems);
}

/* The page takes a seat over from the client that held it (a newer
 * connection does), by the token the web client would have kept, as after a
 * reload: `site` is the server's address, ending in '/'; then waits for
 * `ready` (a selector) on the table. */
export async function openSeat(page, site, { code, seat, token }, ready = '#table:not([hidden])') {
  await page.goto(site);
  await page.evaluate((j) => localStorage.setItem(`pizzabox.seat.${j.code}`, JSON.stringify(j)), { code, seat, token });
  await page.goto(`${site}#/t/${code}`);
  await page.waitForSelector(ready);
}
