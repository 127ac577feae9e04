// fit.test.mjs -- nothing is cut off or overlaps, at 1366x768 and on a 390x844 phone.
//
// For each game (New York Slice, Pizza Theory, New York Pizza Delivery) one
// person plays against bots (on a real-time clock, a turn-based one, none), and
// at every phase a user meets (the lobby, the table waiting for a friend, the
// join prompt of its shared link, the lobby listing that seat, the table at the
// start, mid-game, the end with the score, a replay) the page is measured at both sizes:
//  - the document does not scroll sideways, and no visible element (a card, the
//    board, a player panel, a button, the log...) reaches past the viewport;
//  - nothing spills sideways out of the panel (a box with a border or background)
//    it is drawn in;
//  - no two boxes laid out side by side in the same parent overlap (generic: every
//    visible element's in-flow children, so panels added later are measured too);
//  - no element that hides or scrolls its overflow (overflow hidden/auto) has
//    text wider than itself, i.e. nothing is cut.
// Failures name the element and the numbers. Screenshots of every phase go to
// build/screenshots/GAME-PHASE-WIDTHxHEIGHT.png.
//
// The person's moves are sent as `act` over the page's own WebSocket (a random
// legal move from the view's `legal`), so a whole game takes seconds.
// Every phase also checks that every control has an accessible name; the last
// tests check keyboard use: focus is visible round the page, and a New York
// Slice portion and a Pizza Theory space can be taken with Tab and Enter.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, startServer, tempDir } from '../server/helpers.mjs';
import { fitProblems, lastView, playUntil, spySockets } from './fit-check.mjs';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(ROOT, 'build', 'screenshots');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SIZES = [{ width: 1366, height: 768 }, { width: 390, height: 844 }];

let browser, server, url;
before(async () => {
  assert.ok(existsSync(CHROMIUM), `no ${CHROMIUM}`);
  mkdirSync(SHOTS, { recursive: true });
  // Bots at full speed (startServer's botPace 0), so whole games fit in the test.
  server = await startServer(join(tempDir('pizzabox-fit-'), 'fit.db'), { env: { PIZZABOX_TABLE_SEED: '7' } });
  url = `http://localhost:${server.port}/`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});
after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

async function newPage(size, problems) {
  const ctx = await browser.newContext({ viewport: size });
  await ctx.addInitScript(spySockets);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  return page;
}

// ---- Names (Chromium's accessibility tree, by the DevTools protocol) ----

const CONTROL_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox',
  'radio', 'switch', 'slider', 'spinbutton', 'menuitem', 'tab']);

/* The controls a screen reader would announce without a name: none may have a name without a letter or digit ("×", "▶|"). */
async function unnamedControls(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const bad = [];
    for (const n of nodes) {
      if (n.ignored || !CONTROL_ROLES.has(n.role?.value)) continue;
      const name = String(n.name?.value ?? '').trim();
      if (/[\p{L}\p{N}]/u.test(name)) continue;
      const { node } = await cdp.send('DOM.describeNode', { backendNodeId: n.backendDOMNodeId });
      const attrs = [];
      for (let i = 0; i + 1 < (node.attributes || []).length; i += 2) {
        if (['id', 'class', 'name', 'data-action', 'data-step', 'data-code', 'type'].includes(node.attributes[i])) {
          attrs.push(`${node.attributes[i]}="${node.attributes[i + 1]}"`);
        }
      }
      bad.push(`a ${n.role.value} has no accessible name${name ? ` (only "${name}")` : ''}: <${node.localName} ${attrs.join(' ')}>`);
    }
    return bad;
  } finally {
    await cdp.detach();
  }
}

/* Measure the page at both sizes and keep a screenshot of each; problems are collected, not thrown. */
async function check(page, game, phase, problems) {
  for (const p of await unnamedControls(page)) problems.push(`${game}-${phase}: ${p}`);
  const start = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const tag = `${game}-${phase}-${size.width}x${size.height}`;
    await page.screenshot({ path: join(SHOTS, `${tag}.png`), fullPage: true });
    for (const p of await page.evaluate(fitProblems)) problems.push(`${tag}: ${p}`);
  }
  await page.setViewportSize(start);
}

// ---- Driving a table ----

/* Fill the lobby's form for a table: the page's person in seat 1, bots in the others, a clock when asked. */
async function createTable(page, game, bots, clock = null) {
  await page.goto(url);
  if (clock) await page.selectOption('#clock-mode', clock);
  await page.fill('#name', 'Ann');
  await page.selectOption('#game', game);
  await page.selectOption('#players-count', String(bots.length + 1));
  for (const [i, b] of bots.entries()) await page.selectOption(`select[name=seat${i + 1}]`, b);
}

/* The page's table, once it shows one: its code, from the address. */
async function tableCode(page) {
  await page.waitForSelector('#table:not([hidden])');
  await page.waitForFunction(() => /^#\/t\/[^/]+$/.test(location.hash) && window.__pb.views[decodeURIComponent(location.hash.slice(4))]);
  return page.evaluate(() => decodeURIComponent(location.hash.slice(4)));
}

async function fitsThroughAGame(game, bots, { mid, clock = null }) {
  const problems = [];
  const page = await newPage(SIZES[0], problems);
  await createTable(page, game, bots, clock);
  await check(page, game, 'lobby', problems);

  // A table with a seat for a friend waits for them; the friend opens the share link: the join prompt.
  await page.selectOption('select[name=seat1]', 'human');
  await page.click('#create');
  const waiting = await tableCode(page);
  await check(page, game, 'waiting', problems);
  const other = await newPage(SIZES[1], problems);
  await other.goto(`${url}#/t/${waiting}`);
  await other.waitForSelector('#join-prompt:not([hidden])');
  await other.waitForFunction(() => document.querySelector('#prompt-info').textContent.trim() !== '');
  await check(other, game, 'join-prompt', problems);
  await other.context().close();

  // Back in the lobby, which lists the seat at the waiting table; then the table played here: the page's person and bots.
  await createTable(page, game, bots, clock);
  await page.waitForSelector(`#tables [data-code="${waiting}"]`);
  await check(page, game, 'lobby-seats', problems);
  await page.click('#create');
  const code = await tableCode(page);
  await check(page, game, 'start', problems);

  const start = await lastView(page, code);
  await playUntil(page, code, (v) => v.moves >= start.moves + mid && v.mine);
  await page.waitForTimeout(100); // the page draws the view before it is measured
  await check(page, game, 'mid', problems);
  const end = await playUntil(page, code, (v) => v.phase === 'over');
  await page.waitForSelector('#game-over:not([hidden])');
  await check(page, game, 'end', problems);

  // The replay half-way through, by the replay panel's own slider.
  await page.locator('#replay-step').fill(String(Math.floor(end.moves / 2)));
  await page.waitForSelector('#replay-label:has-text("After move")');
  await check(page, game, 'replay', problems);
  await page.context().close();
  assert.deepEqual(problems, [], `${problems.length} layout problems:\n${problems.join('\n')}`);
}

test('New York Slice fits at 1366x768 and 390x844: lobby, waiting, join prompt, lobby with a seat, start, mid-game, end, replay', { timeout: 60_000 },
  () => fitsThroughAGame('nyslice', ['greedy', 'random'], { mid: 8, clock: 'realtime' }));

test('Pizza Theory fits at 1366x768 and 390x844: lobby, waiting, join prompt, lobby with a seat, start, mid-game, end, replay', { timeout: 60_000 },
  () => fitsThroughAGame('theory', ['greedy', 'random'], { mid: 12, clock: 'turn' }));

test('New York Pizza Delivery fits at 1366x768 and 390x844: lobby, waiting, join prompt, lobby with a seat, start, mid-game, end, replay', { timeout: 90_000 },
  () => fitsThroughAGame('delivery', ['random'], { mid: 40 }));

test('keyboard: focus is visible on every control, and a New York Slice portion is taken with Tab and Enter', { timeout: 60_000 }, async () => {
  const problems = [];
  const page = await newPage(SIZES[0], problems);
  await createTable(page, 'nyslice', ['greedy', 'random']);
  await page.click('#create');
  const code = await tableCode(page);
  const taking = await playUntil(page, code, (v) => v.phase === 'take' && v.mine);
  await page.waitForSelector('.portion.active');

  // Tab round the whole page once: every control reached shows its focus; then on to a portion to take.
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  let portion = null, first = null, round = false;
  for (let i = 0; i < 150 && !(round && portion); i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const cs = getComputedStyle(el);
      const html = !(el instanceof SVGElement);
      const path = [];
      for (let e = el; e && e !== document.body; e = e.parentElement) path.unshift([...e.parentElement.children].indexOf(e));
      return {
        key: path.join('/'),
        what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} "${(el.textContent || '').trim().slice(0, 30)}"`,
        html, visible: !html || (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2),
        outline: `${cs.outlineStyle} ${cs.outlineWidth}`,
        // the notation names a portion by its letter (the list's swatch), the Special alone by `special`
        portion: !el.matches('.portion.active') ? null
          : el.dataset.name === 'special' ? 'special' : el.querySelector('.swatch').textContent.trim(),
      };
    });
    if (!f) continue;
    if (first === null) first = f.key;
    else if (f.key === first) round = true;
    if (!round && !f.visible) problems.push(`${f.what} has no visible focus (outline ${f.outline})`);
    portion = f.portion;
  }
  assert.ok(portion, 'Tab reaches a portion to take');
  await page.keyboard.press('Enter');
  // Nobody else moves while it is our turn: the next move is the one Enter sent.
  await page.waitForFunction(([c, n]) => window.__pb.views[c].moves > n, [code, taking.moves], { timeout: 5000 });
  const mine = await page.evaluate((c) => {
    const m = window.__pb.views[c];
    return m.log.filter((e) => e.seat === m.seat && /^take /.test(e.text)).at(-1);
  }, code);
  assert.equal(mine?.text, `take ${portion}`, 'the move taken is the focused portion');
  await page.context().close();
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('keyboard: a Pizza Theory topping is put on a space with Tab and Enter', { timeout: 30_000 }, async () => {
  const problems = [];
  const page = await newPage(SIZES[1], problems);
  await createTable(page, 'theory', ['greedy', 'random']);
  await page.click('#create');
  const code = await tableCode(page);
  const placing = await playUntil(page, code, (v) => v.phase === 'place' && v.mine);
  await page.waitForSelector('#theory-svg .cell.legal');
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  let space = null;
  for (let i = 0; i < 60 && !space; i++) {
    await page.keyboard.press('Tab');
    space = await page.evaluate(() => document.activeElement?.closest?.('#theory-svg .cell.legal')?.dataset.action ?? null);
  }
  assert.ok(space, 'Tab reaches a space to put a topping on');
  await page.keyboard.press('Enter');
  await page.waitForFunction(([c, n]) => window.__pb.views[c].moves > n, [code, placing.moves], { timeout: 5000 });
  const mine = await page.evaluate((c) => {
    const m = window.__pb.views[c];
    return m.log.filter((e) => e.seat === m.seat).at(-1);
  }, code);
  assert.equal(mine?.text, space, 'the topping went on the focused space');
  await page.context().close();
  assert.deepEqual(problems, []);
});
