// mystery.test.mjs -- the Mystery slice while a portion is placed (New York
// Slice's Mystery Slice special), as the client draws it and writes its move.
//
// Starts `pizzabox serve` (PIZZABOX_BIN overrides build/pizzabox) for the
// client's own files, opens Debian's Chromium and imports the served
// table.js in the page: from a made-up `view` of a placing ("3", "9p3",
// "11" and the Mystery slice, a second 9p3, at index 3) it checks
// placeNotation names the Mystery `mystery` (never its token, which would
// name the visible 9p3) and placingHtml labels that one button "Mystery",
// for the placing player and for another seat, who sees "?" there. Then the
// placing is drawn in the table's own #placing card (the real stylesheet) at
// a desktop and a phone size: build/screenshots/mystery-placing-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { ROOT, startServer, tempDir } from '../server/helpers.mjs';

const DESKTOP = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844 };

// The types' names as the server sends them (the default deck).
const TYPE_NAMES = Object.fromEntries(JSON.parse(readFileSync(join(ROOT, 'data', 'nyslice', 'default-deck.json'), 'utf8'))
  .types.map((t) => [String(t.type), t.name]));

// The placing as the server shows it: to the placing player (seat 0) every
// slice, to any other seat "?" for the Mystery and nothing said of its edibility.
const MINE = { seat: 0, why: 'take', slices: ['3', '9p3', '11', '9p3'], edible: [false, true, false, true], mystery: 3, offered: null };
const THEIRS = { ...MINE, slices: ['3', '9p3', '11', '?'], edible: [false, true, false, null] };

// A `view` message of a 3-player table in the place phase, Ann (seat 0) to move.
function viewMsg(seat, placing) {
  return {
    type: 'view', code: 'MYST', seat, moves: 12, names: ['Ann', 'Bo', 'Cy'], players: ['human', 'human', 'human'],
    view: {
      game: 'nyslice', seat, player_count: 3, round: 2, rounds: 6, slicer: 2, stacks_left: 4,
      phase: 'place', to_move: 0, type_names: TYPE_NAMES, placing, portions: [], ring: [],
    },
  };
}

let browser, server, url;
const problems = [];   // uncaught errors and CSP violations in any page

before(async () => {
  server = await startServer(join(tempDir('pizzabox-mystery-'), 'mystery.db'));
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

async function openPage(viewport, options = {}) {
  const page = await watchedPage(browser, problems, { viewport, ...options });
  await page.goto(url);
  await page.waitForSelector('#lobby:not([hidden])');
  return page;
}

// In the page: the client's table.js as served, and what its placing shows.
async function placingInPage(page, msg, eat) {
  return page.evaluate(async ({ msg, eat }) => {
    const T = await import('/table.js');
    const ctx = T.buildCtx(msg);
    const box = document.createElement('div');
    box.innerHTML = T.placingHtml(ctx, new Set(eat));
    return {
      mine: T.placingMine(ctx),
      buttons: [...box.querySelectorAll('.place-slice')].map((b) => ({
        index: Number(b.dataset.index), token: b.dataset.token, choice: b.querySelector('.choice').textContent,
        chip: b.querySelector('.tok b').textContent, pressed: b.getAttribute('aria-pressed'), disabled: b.disabled,
        mystery: b.classList.contains('mystery'),
      })),
      heading: box.querySelector('h2')?.textContent ?? null,
      confirm: box.querySelector('#confirm-place')?.textContent ?? null,
    };
  }, { msg, eat });
}

const notation = (page, msg, eat) => page.evaluate(async ({ msg, eat }) => {
  const T = await import('/table.js');
  return T.placeNotation(T.buildCtx(msg), new Set(eat));
}, { msg, eat });

test('the Mystery slice is eaten as `mystery` and labelled as the Mystery, for its player and the others', { timeout: 30_000 }, async () => {
  const page = await openPage(DESKTOP);
  const ann = viewMsg(0, MINE);

  // ---- The placing player: the notation ----
  assert.equal(await notation(page, ann, [3]), 'eat mystery', 'the Mystery alone');
  assert.equal(await notation(page, ann, [1]), 'eat 9p3', 'the visible 9p3 alone');
  assert.equal(await notation(page, ann, [1, 3]), 'eat 9p3 mystery', 'both 9p3s: the visible one, then the Mystery');
  assert.equal(await notation(page, ann, [3, 1]), 'eat 9p3 mystery', 'in slice order, whatever the order chosen');
  assert.equal(await notation(page, ann, []), 'collect all');
  assert.equal(await notation(page, ann, [0, 2]), 'collect all', 'slices that are not edible are never eaten');

  // ---- The placing player: the buttons ----
  const mine = await placingInPage(page, ann, [3]);
  assert.equal(mine.mine, true, 'Ann places');
  assert.equal(mine.heading, 'Ann places');
  assert.deepEqual(mine.buttons.map((b) => [b.index, b.token, b.chip, b.choice, b.pressed, b.disabled]), [
    [0, '3', '3', 'collect (not edible)', 'false', true],
    [1, '9p3', '9', 'collect', 'false', false],
    [2, '11', '11', 'collect (not edible)', 'false', true],
    [3, '9p3', '9', 'Mystery: eat', 'true', false],
  ]);
  assert.equal(mine.confirm, 'Eat 1, collect 3');
  assert.deepEqual(mine.buttons.map((b) => b.mystery), [false, false, false, true], 'the Mystery button is marked apart');

  // ---- The move buttons and the log name the Mystery slice, not a hidden "?" ----
  const words = await page.evaluate(async (msg) => {
    const T = await import('/table.js');
    const K = await import('/tokens.js');
    const box = document.createElement('div');
    const text = (html) => { box.innerHTML = html; return box.textContent.replace(/\s+/g, ' ').trim(); };
    const ctx = T.buildCtx(msg);
    return { button: text(T.moveLabel(ctx, 'eat 9p3 mystery')), log: text(K.actionWords('eat mystery', 'Ann', {})) };
  }, ann);
  assert.equal(words.button, 'Eat 9 9 (Mystery), collect the rest', 'the owner sees which slice the Mystery is');
  assert.equal(words.log, 'Ann ate Mystery', 'the log names the Mystery slice');

  // ---- The news under a move draws the slices it lists as chips, not notation ----
  const news = await page.evaluate(async (msg) => {
    const T = await import('/table.js');
    const box = document.createElement('div');
    box.innerHTML = T.newsHtml(T.buildCtx(msg), 'Nothing in portion A may be eaten: 3 11 c4/11 collected. 9p3 collected: it may not be eaten.');
    return { text: box.textContent.replace(/\s+/g, ' ').trim(), tokens: [...box.querySelectorAll('.tok')].map((t) => t.dataset.token) };
  }, ann);
  assert.deepEqual(news.tokens, ['3', '11', 'c4/11', '9p3'], 'each slice listed is a chip');
  assert.equal(news.text, 'Nothing in portion A may be eaten: 3 11 4/11 collected. 9 collected: it may not be eaten.');
  const visible = await placingInPage(page, ann, [1]);
  assert.deepEqual(visible.buttons.map((b) => b.choice), ['collect (not edible)', 'eat', 'collect (not edible)', 'Mystery: collect'],
    'the visible 9p3 eaten, the Mystery collected');
  const both = await placingInPage(page, ann, [1, 3]);
  assert.deepEqual(both.buttons.map((b) => b.choice), ['collect (not edible)', 'eat', 'collect (not edible)', 'Mystery: eat']);
  assert.equal(both.confirm, 'Eat 2, collect 2');

  // ---- Another seat, and a watcher: "?" at the Mystery, labelled as such ----
  for (const seat of [1, null]) {
    const other = await placingInPage(page, viewMsg(seat, THEIRS), []);
    assert.equal(other.mine, false, `seat ${seat} does not place`);
    assert.equal(other.heading, 'Ann places');
    assert.deepEqual(other.buttons.map((b) => [b.index, b.token, b.chip, b.choice, b.disabled]), [
      [0, '3', '3', '', true],
      [1, '9p3', '9', 'may be eaten', true],
      [2, '11', '11', '', true],
      [3, '?', '?', 'Mystery', true],
    ], `seat ${seat}: the Mystery's slice hidden and named`);
    assert.equal(other.confirm, null, `seat ${seat}: nothing to confirm`);
  }

  // ---- No Mystery: no button says Mystery ----
  const plain = await placingInPage(page, viewMsg(0, { ...MINE, mystery: null }), [1, 3]);
  assert.ok(plain.buttons.every((b) => !/Mystery/.test(b.choice)), 'no Mystery slice, no Mystery label');
  assert.equal(await notation(page, viewMsg(0, { ...MINE, mystery: null }), [1, 3]), 'eat 9p3 9p3');

  await page.context().close();
  assert.deepEqual(problems, [], 'no errors in the page');
});

test('the placing with the Mystery drawn in the table at a desktop and a phone size', { timeout: 30_000 }, async () => {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const phone = size === 'phone';
    const page = await openPage(viewport, phone ? { isMobile: true, hasTouch: true } : {});
    // Ann's table as app.js draws it in the place phase: the status, then the
    // placing card (the pizza's ring has no slices left to draw); the Mystery chosen to eat.
    const layout = await page.evaluate(async (msg) => {
      const T = await import('/table.js');
      const ctx = T.buildCtx(msg);
      const $ = (sel) => document.querySelector(sel);
      $('#lobby').hidden = true;
      $('#table').hidden = false;
      Object.assign($('#table').dataset, { phase: ctx.phase, myTurn: String(ctx.myTurn), game: 'nyslice', moves: '12' });
      const status = T.statusHtml(ctx);
      $('#headline').innerHTML = `<span class="code">${ctx.code}</span> ${status.headline}`;
      $('#prompt').innerHTML = status.prompt;
      $('#pizza').hidden = true;
      $('#special').hidden = true;
      $('#placing').hidden = false;
      $('#placing').innerHTML = T.placingHtml(ctx, new Set([3]));
      // where each part is: inside the card, inside the page, overlapping nothing
      const card = $('#placing').getBoundingClientRect();
      const rect = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
      return {
        card: rect($('#placing')), page: document.documentElement.scrollWidth, viewport: innerWidth,
        buttons: [...document.querySelectorAll('#placing .place-slice')].map((b) => ({
          ...rect(b), choice: b.querySelector('.choice').textContent, label: rect(b.querySelector('.choice')),
          fits: b.scrollWidth <= b.clientWidth && b.querySelector('.choice').scrollWidth <= b.querySelector('.choice').clientWidth + 1,
        })),
        confirm: rect($('#confirm-place')),
        inside: card.width > 0,
      };
    }, viewMsg(0, MINE));
    await page.screenshot({ path: join(SHOTS, `mystery-placing-${size}.png`), fullPage: true });

    assert.ok(layout.inside, `${size}: the placing card is shown`);
    assert.ok(layout.page <= layout.viewport, `${size}: nothing wider than the screen (${layout.page} > ${layout.viewport})`);
    assert.equal(layout.buttons[3].choice, 'Mystery: eat', `${size}: the Mystery named on its button`);
    const within = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const [i, b] of layout.buttons.entries()) {
      assert.ok(within(b, layout.card), `${size}: slice ${i}'s button inside the card`);
      assert.ok(within(b.label, b), `${size}: slice ${i}'s label "${b.choice}" inside its button`);
      assert.ok(b.fits, `${size}: slice ${i}'s label "${b.choice}" not cut off`);
      for (const c of layout.buttons.slice(i + 1)) assert.ok(!overlap(b, c), `${size}: slice ${i}'s button overlaps another`);
      assert.ok(!overlap(b, layout.confirm), `${size}: slice ${i}'s button overlaps the confirm button`);
    }
    assert.ok(within(layout.confirm, layout.card), `${size}: the confirm button inside the card`);
    await page.context().close();
  }
  assert.deepEqual(problems, [], 'no errors in the pages');
});
