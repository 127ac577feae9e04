// theory.test.mjs -- Ann plays Pizza Theory in the browser.
//
// Starts `pizzabox serve` (PIZZABOX_BIN overrides build/pizzabox), opens
// Debian's Chromium: Ann creates a 3-player table with a greedy and a random
// bot and clicks spaces and cut lines until the game ends, while a phone
// (390 px wide, reduced motion) watches from the lobby's table list; then a
// 2-player game against a random bot, where Ann also places the neutral
// topping. Checked as a player would: 37 spaces, her toppings where she
// clicked, illegal spaces that do nothing, the cut buttons 1..6, no other
// seat's cut ever drawn before the reveal, the revealed cuts, slices and
// (animated) changes after each round, the result screen, a board that fits
// the phone. Screenshots go to build/screenshots/theory-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { startServer, tempDir } from '../server/helpers.mjs';

const GAME_MS = 40_000;   // one game, clicked through: far more than it takes

let browser, server, url;
const problems = [];   // uncaught errors and CSP violations in any page

before(async () => {
  server = await startServer(join(tempDir('pizzabox-theory-'), 'theory.db'));
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

// In every page: record each cut line drawn as chosen that belongs to neither
// the viewer's colour nor the neutral (whose line is the public die), on every
// redraw -- so a cut shown for even one view before the reveal is caught.
function watchForLeaks() {
  window.ptLeaks = [];
  window.ptChosenShown = 0;
  const check = () => {
    const board = document.getElementById('theory-board');
    if (!board || board.hidden) return;
    for (const el of board.querySelectorAll('.cut-line.chosen')) {
      const m = /line-col-(\d)/.exec(el.getAttribute('class'));
      const colour = m ? m[1] : '?';
      window.ptChosenShown++;
      if (colour !== board.dataset.seat && colour !== board.dataset.neutral) {
        window.ptLeaks.push(`round ${board.dataset.round}: line ${el.dataset.line} of side ${el.dataset.side} ` +
          `(colour ${colour}) shown to ${board.dataset.seat === '' ? 'a spectator' : `seat ${board.dataset.seat}`}`);
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

const openPage = (width, height, options = {}) =>
  watchedPage(browser, problems, { viewport: { width, height }, ...options }, watchForLeaks);

// A small seeded generator: Ann's choices are the same on every run.
function seeded(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

// What the table page shows, read from the page.
function readTable() {
  const table = document.getElementById('table');
  const board = document.getElementById('theory-board');
  const cells = [...document.querySelectorAll('#theory-svg .cell')].map((g) => ({
    i: Number(g.dataset.cell), xyz: g.dataset.xyz, colour: Number(g.dataset.colour),
    label: g.querySelector('.cell-label')?.textContent ?? null,
    legal: g.classList.contains('legal'), action: g.getAttribute('data-action'), role: g.getAttribute('role'),
  }));
  return {
    phase: table.dataset.phase, myTurn: table.dataset.myTurn === 'true',
    round: Number(board.dataset.round), lastRound: Number(board.dataset.lastRound),
    over: !document.getElementById('game-over').hidden,
    cells, log: document.querySelectorAll('#log li').length,
    sides: [...document.querySelectorAll('#theory-info .pt-side')].map((li) => ({
      side: Number(li.dataset.side), colour: Number(li.dataset.colour),
      status: li.querySelector('.pt-side-status')?.textContent ?? '',
    })),
    die: document.querySelector('#theory-info .pt-die')?.textContent ?? null,
    chosen: [...document.querySelectorAll('#theory-svg .cut-line.chosen')].map((g) => ({
      side: Number(g.dataset.side), line: Number(g.dataset.line),
    })),
  };
}

// The reveal as drawn: the revealed cuts, the summary, the changed spaces and their animation.
function readReveal() {
  const svg = document.getElementById('theory-svg');
  const box = document.getElementById('theory-reveal');
  const swaps = [...svg.querySelectorAll('.swap')];
  const anims = swaps.flatMap((el) => el.getAnimations());
  return {
    cuts: [...svg.querySelectorAll('.revealed-cut')].map((l) => ({ side: Number(l.dataset.side), line: Number(l.dataset.line) })),
    round: Number(box.dataset.round), changes: Number(box.dataset.changes), text: box.innerText,
    slices: box.querySelectorAll('.pt-change').length,
    changed: [...svg.querySelectorAll('.cell.changed')].map((g) => ({
      colour: Number(g.dataset.colour), from: Number(g.dataset.from), to: Number(g.dataset.to),
    })),
    shaded: svg.querySelectorAll('.cell[class*="region-"]').length,
    swapsOut: svg.querySelectorAll('.swap-out').length,
    running: anims.filter((a) => a.playState === 'running').length,
    longest: Math.max(0, ...anims.map((a) => a.effect.getComputedTiming().endTime)),
  };
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `theory-${name}.png`), fullPage: true });

// Ann adds a topping (or the neutral one) by clicking a highlighted space.
async function placeTurn(page, t, st) {
  const legal = t.cells.filter((c) => c.legal);
  assert.ok(legal.length > 0, `round ${t.round}: highlighted spaces to ${t.phase}`);
  for (const c of legal) {
    assert.equal(c.colour, -1, 'only empty spaces are highlighted');
    assert.match(c.label ?? '', /^[a-g][1-7]$/, 'an empty space shows its label');
    assert.equal(c.action, `put ${c.label}`, 'a highlighted space sends put and its label, as the log says');
  }
  if (t.phase === 'neutral') {
    assert.match(t.die ?? '', /Die roll: [1-6]/, 'the die is shown');
    const die = Number(/Die roll: ([1-6])/.exec(t.die)[1]);
    const n = t.sides.find((s) => s.colour === st.neutral);
    assert.ok(t.chosen.some((c) => c.side === n.side && c.line === die), "the die's line is drawn on the neutral's side");
  }
  if (!st.illegalTried) {
    // A space that is not highlighted (one of hers, or too close to one) does nothing.
    const illegal = t.cells.find((c) => !c.legal && c.colour === st.seat) || t.cells.find((c) => !c.legal);
    assert.equal(illegal.action, null, 'an illegal space carries no move');
    assert.equal(illegal.role, null, 'an illegal space is not a button');
    await page.locator(`#theory-svg .cell[data-cell="${illegal.i}"]`).click();
    await page.waitForTimeout(400);
    const again = await page.evaluate(readTable);
    assert.ok(again.myTurn && again.phase === t.phase && again.log === t.log, 'clicking an illegal space sent nothing');
    assert.deepEqual(again.cells.map((c) => c.colour), t.cells.map((c) => c.colour), 'the board did not change');
    assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
    st.illegalTried = true;
  }
  if (!st.shots.has(t.phase)) {
    await shot(page, `${st.prefix}${t.phase}`);
    st.shots.add(t.phase);
  }
  const cell = legal[st.rng(legal.length)];
  const colour = t.phase === 'neutral' ? st.neutral : st.seat;
  await page.locator(`#theory-svg .cell[data-cell="${cell.i}"]`).click();
  await page.waitForSelector(`#theory-svg .cell[data-cell="${cell.i}"][data-colour="${colour}"]`, { timeout: 5000 });
  if (t.phase === 'neutral') st.neutrals++; else st.places++;
}

// Ann cuts: a button or the line on the board, then the reveal is checked.
async function cutTurn(page, t, st, spectator) {
  const buttons = await page.locator('#actions button.pt-cut').allInnerTexts();
  assert.deepEqual(buttons.map((b) => b.trim()), ['1', '2', '3', '4', '5', '6'], 'the cut buttons are 1..6');
  const mine = t.sides.find((s) => s.colour === st.seat);
  assert.ok(mine, 'Ann faces a side');
  for (const c of t.chosen) {
    const s = t.sides.find((x) => x.side === c.side);
    assert.ok(s.colour === st.neutral, `before the reveal only the die's line may be drawn, not side ${c.side}'s`);
  }
  for (const s of t.sides) {
    if (s.colour !== st.seat && s.colour !== st.neutral) assert.doesNotMatch(s.status, /line \d/, `no line told for side ${s.side}`);
    if (s.colour !== st.seat && s.status.includes('has chosen')) st.othersChosen++;
  }
  const k = 1 + st.rng(6);
  if (st.cuts === 0) {
    await page.locator(`#actions button.pt-cut[data-line="${k}"]`).hover();
    assert.equal(await page.locator(`#theory-svg .cut-line.mine.hover[data-line="${k}"]`).count(), 1,
      'pointing at a cut button lights its line');
    await shot(page, `${st.prefix}cut`);
  }
  if (st.cuts % 2 === 0) await page.locator(`#actions button.pt-cut[data-line="${k}"]`).click();
  else {
    // The middle of the line on the board (a level line has no height: Playwright calls it invisible).
    const box = await page.locator(`#theory-svg .cut-line.active[data-line="${k}"] .hit`).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }
  st.cuts++;
  // Her own line shows as chosen until the reveal (which may come at once if she cut last).
  await page.waitForFunction(({ r, d, k: line }) => {
    const b = document.getElementById('theory-board');
    return Number(b.dataset.lastRound) >= r ||
      Boolean(document.querySelector(`#theory-svg .cut-line.chosen.mine[data-side="${d}"][data-line="${line}"]`));
  }, { r: t.round, d: mine.side, k }, { timeout: 5000 });
  await page.waitForFunction((r) => Number(document.getElementById('theory-board').dataset.lastRound) >= r,
    t.round, { timeout: 10_000 });
  const rv = await page.evaluate(readReveal);
  assert.equal(rv.round, t.round, 'the reveal is of the round just cut');
  assert.equal(rv.cuts.length, 3, 'three revealed cuts are drawn');
  assert.equal(rv.cuts.find((c) => c.side === mine.side)?.line, k, "Ann's revealed cut is the line she chose");
  assert.equal(rv.shaded, 37, 'every space is shaded by its slice');
  assert.match(rv.text, new RegExp(`Round ${t.round} revealed`));
  assert.match(rv.text, /\d slices?\./);
  assert.equal(rv.changed.length, rv.changes, 'every change is ringed on the board');
  for (const c of rv.changed) if (c.to >= 0) assert.equal(c.colour, c.to, 'a replaced space shows its new colour');
  if (rv.changes) {
    assert.match(rv.text, /Slice [A-G]: .*(took \d+ spaces? from|removed)/, 'the summary says what changed, slice by slice');
    assert.ok(rv.slices >= 1 && rv.slices <= 7);
    assert.ok(rv.swapsOut >= rv.changes, 'the old toppings are drawn to fade out');
    assert.ok(rv.longest <= 1500, `the animation is short (${rv.longest} ms)`);
    st.changes += rv.changes;
    if (rv.running) st.animated++;
    if (!st.shots.has('reveal')) {
      await shot(page, `${st.prefix}reveal`);
      st.shots.add('reveal');
    }
    if (spectator) {
      // The phone prefers reduced motion: the same reveal, without the animation.
      await spectator.waitForFunction((r) => Number(document.getElementById('theory-board')?.dataset.lastRound) >= r,
        t.round, { timeout: 5000 });
      const pv = await spectator.evaluate(readReveal);
      if (pv.round === rv.round) {
        assert.equal(pv.running, 0, 'no animation with prefers-reduced-motion');
        st.stillReveals++;
      }
    }
  } else {
    assert.match(rv.text, /No topping changed/);
  }
  st.reveals++;
}

async function playToEnd(page, st, spectator = null) {
  const deadline = Date.now() + GAME_MS;
  for (;;) {
    assert.ok(Date.now() < deadline, `the game ends within ${GAME_MS / 1000} s`);
    const t = await page.evaluate(readTable);
    if (t.over) return t;
    if (!t.myTurn) {
      await page.waitForFunction(() => document.getElementById('table').dataset.myTurn === 'true' ||
        !document.getElementById('game-over').hidden, null, { timeout: 10_000 });
      continue;
    }
    if (t.phase === 'place' || t.phase === 'neutral') await placeTurn(page, t, st);
    else if (t.phase === 'cut') await cutTurn(page, t, st, spectator);
    else assert.fail(`unexpected phase ${t.phase}`);
  }
}

function newStats(seat, neutral, seed) {
  return {
    seat, neutral, prefix: neutral == null ? '' : '2p-', rng: seeded(seed), shots: new Set(), illegalTried: false,
    places: 0, neutrals: 0, cuts: 0, reveals: 0, changes: 0, animated: 0, othersChosen: 0, stillReveals: 0,
  };
}

async function checkOver(page, names) {
  const over = page.locator('#game-over');
  assert.ok(await over.isVisible(), 'the result screen is shown');
  const text = await over.innerText();
  assert.match(text, /Game over/);
  assert.match(text, /wins\.|Shared win|The neutral filled up: both lose|A draw/, 'the result is said');
  for (const n of names) assert.match(text, new RegExp(n));
  assert.match(await page.locator('#prompt').innerText(), /Game over/);
  assert.ok(await page.locator('#replay').isVisible(), 'a finished table can be replayed');
  assert.equal(await page.locator('#actions').isVisible(), false, 'no moves on offer');
  return text;
}

async function create(page, players, seats) {
  await page.goto(url);
  await page.fill('#name', 'Ann');
  await page.selectOption('#game', 'theory');
  await page.selectOption('#players-count', String(players));
  for (let i = 1; i < players; i++) await page.selectOption(`select[name=seat${i}]`, seats[i - 1]);
  await page.click('#create');
  await page.waitForSelector('#theory-svg');
  assert.equal(await page.locator('#table').getAttribute('data-game'), 'theory');
  return (await page.locator('#share-link').getAttribute('href')).split('/').pop();
}

test('Ann plays a 3-player Pizza Theory game with two bots by clicking; a phone watches', { timeout: 90_000 }, async () => {
  const started = Date.now();
  const ann = await openPage(1200, 1000);
  await ann.goto(url);
  // The lobby offers the games; Pizza Theory is for 2 or 3 players.
  assert.deepEqual(await ann.locator('#game option').allInnerTexts(),
    ['New York Slice', 'Pizza Theory', 'New York Pizza Delivery']);
  assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['2', '3', '4', '5', '6']);
  await ann.selectOption('#game', 'theory');
  assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['2', '3']);
  assert.equal(await ann.locator('select[name=seat3]').isVisible(), false, 'no fourth seat');
  await ann.selectOption('#game', 'nyslice');
  assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['2', '3', '4', '5', '6']);

  const code = await create(ann, 3, ['greedy', 'random']);
  assert.equal(await ann.locator('#theory-svg .cell').count(), 37, 'the board has 37 spaces');
  assert.equal(await ann.locator('#theory-svg .cut-line').count(), 18, 'six lines for each of the three sides');
  assert.equal(await ann.locator('#theory-svg .side-label').count(), 3);
  const labels = await ann.locator('#theory-svg .side-label').allTextContents();
  assert.ok(labels.some((l) => /^1st /.test(l)) && labels.some((l) => /^2nd /.test(l)) && labels.some((l) => /^3rd /.test(l)));
  assert.ok(labels.some((l) => /Ann/.test(l)) && labels.some((l) => /Greedy 2/.test(l)) && labels.some((l) => /Random 3/.test(l)),
    'each side is labelled with the seat facing it');
  assert.equal(await ann.locator('#pizza').isVisible(), false, 'no New York Slice pizza');
  const players = await ann.locator('#players .pt-player').allInnerTexts();
  assert.equal(players.length, 3);
  for (const p of players) assert.match(p, /On the pizza\s+[23]\s+of 16\s+Supply\s+1[34]\b/, 'start spaces taken, supply shown');
  const bars = await ann.locator('#players .pt-player progress').evaluateAll((ps) => ps.map((b) => getComputedStyle(b).accentColor));
  assert.equal(new Set(bars).size, 3, `each colour's bar is drawn in its own colour: ${bars}`);

  // The phone finds the table in the lobby's list, marked Pizza Theory, and watches.
  const phone = await openPage(390, 844, { reducedMotion: 'reduce', isMobile: true, hasTouch: true });
  await phone.goto(url);
  const row = phone.locator(`.table-row[data-code="${code}"]`);
  await row.waitFor({ timeout: 10_000 });
  assert.match(await row.locator('.game').innerText(), /Pizza Theory/);
  await row.locator('.watch-table').click();
  await phone.waitForSelector('#theory-svg');

  const st = newStats(0, null, 7);
  await playToEnd(ann, st, phone);
  const text = await checkOver(ann, ['Ann', 'Greedy 2', 'Random 3']);
  assert.ok(st.places >= 1 && st.cuts >= 1 && st.reveals >= 1, `Ann played (${st.places} toppings, ${st.cuts} cuts)`);
  assert.ok(st.changes >= 1, 'some reveal changed toppings');
  assert.ok(st.animated >= 1, 'a reveal animated its changes');
  assert.ok(st.stillReveals >= 1, 'the phone saw a reveal without animation');
  assert.ok(st.othersChosen >= 1, 'Ann saw that another seat had chosen (and not which line)');
  await shot(ann, 'over');

  // The last round's cut can be hidden and shown again.
  await ann.click('#theory-last');
  assert.equal(await ann.locator('#theory-svg .revealed-cut').count(), 0, 'the last cut hidden');
  assert.equal(await ann.locator('#theory-svg .cell[class*="region-"]').count(), 0, 'no slices shaded');
  await ann.click('#theory-last');
  assert.equal(await ann.locator('#theory-svg .revealed-cut').count(), 3, 'the last cut shown again');
  // The finished table replays from the start: two toppings of each colour on their start spaces.
  await ann.click('#replay button[data-step="0"]');
  await ann.waitForFunction(() => document.querySelectorAll('#theory-svg .cell:not([data-colour="-1"])').length === 6 &&
    /replay/.test(document.getElementById('headline').textContent), null, { timeout: 5000 });
  assert.equal(await ann.locator('#theory-board').getAttribute('data-round'), '1');
  await ann.click('#replay button[title="the end"]');
  await ann.waitForSelector('#game-over:not([hidden])');

  // The phone: the same end, a board that fits the screen, nothing to scroll sideways.
  await phone.waitForSelector('#game-over:not([hidden])');
  assert.match(await phone.locator('#game-over').innerText(), /Game over/);
  const fit = await phone.evaluate(() => {
    const svg = document.getElementById('theory-svg').getBoundingClientRect();
    const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect());
    const cells = boxes('#theory-svg .cell');
    const texts = boxes('#theory-svg .side-label, #theory-svg .line-no');
    const all = [...cells, ...texts];
    return {
      width: window.innerWidth, scroll: document.documentElement.scrollWidth, svgWidth: svg.width,
      left: Math.min(...all.map((r) => r.left)), right: Math.max(...all.map((r) => r.right)),
      smallest: Math.min(...cells.map((r) => r.width)),
    };
  });
  assert.ok(fit.scroll <= fit.width, `no sideways scrolling on a phone (${fit.scroll} > ${fit.width})`);
  assert.ok(fit.left >= 0 && fit.right <= fit.width, `the board and its labels fit the phone (${fit.left}..${fit.right})`);
  assert.ok(fit.smallest >= 28, `spaces are big enough to tap (${fit.smallest} px)`);
  await shot(phone, 'phone');

  for (const [who, page] of [['Ann', ann], ['the phone', phone]]) {
    assert.deepEqual(await page.evaluate(() => window.ptLeaks), [], `${who} never saw another seat's cut before the reveal`);
  }
  assert.ok(await ann.evaluate(() => window.ptChosenShown) > 0, "Ann's own chosen line was drawn");
  assert.deepEqual(problems, [], 'no errors in the pages');
  console.log(`# 3 players: ${st.reveals} rounds cut, ${st.places} toppings, ${st.cuts} cuts, ${st.changes} changes, ` +
    `${Date.now() - started} ms; ${/Game over\s+(.*)/.exec(text)[1]}`);
});

test('Ann plays a 2-player Pizza Theory game against a random bot, placing the neutral topping', { timeout: 90_000 }, async () => {
  const started = Date.now();
  const ann = await openPage(1000, 900);
  await create(ann, 2, ['random']);
  assert.equal(await ann.locator('#theory-svg .cell').count(), 37);
  const labels = await ann.locator('#theory-svg .side-label').allTextContents();
  assert.ok(labels.some((l) => /neutral/.test(l)), 'a side is labelled neutral');
  assert.equal(await ann.locator('#players .pt-player').count(), 3, 'two players and the neutral');
  assert.match(await ann.locator('#players').innerText(), /neutral/);

  const st = newStats(0, 2, 11);
  await playToEnd(ann, st);
  await checkOver(ann, ['Ann', 'Random 2', 'neutral']);
  assert.ok(st.neutrals >= 1, 'Ann placed the neutral topping');
  assert.ok(st.cuts >= 1 && st.reveals >= 1);
  assert.deepEqual(await ann.evaluate(() => window.ptLeaks), [], "Ann never saw the bot's cut before the reveal");
  await shot(ann, '2p-over');
  assert.deepEqual(problems, [], 'no errors in the pages');
  console.log(`# 2 players: ${st.reveals} rounds cut, ${st.places} toppings, ${st.neutrals} neutral, ${st.cuts} cuts, ` +
    `${st.changes} changes, ${Date.now() - started} ms`);
});
