// delivery-cards.test.mjs -- New York Pizza Delivery's cards, read as a
// player would: the hand grouped by village (or ingredient) with counts that
// add up to the hand, each power card's name, type and text readable in the
// hand, the tableaus and the keep choice (on a phone by a tap), a banner for
// a GLOBAL card another player played that goes when dismissed and stays
// gone after the next move, and each opponent's last turn in words.
//
// A game between greedy bots in which Pandemic is played is dealt again
// (its seed) at a table of three humans played by WebSocket clients, up to
// just after Pandemic; Ann's page then takes over an opponent's seat.
// Another table of the same deal, at its start, gives the keep choice.
// Last, a co-op table watched by a page: the week's first promotion brings
// orders, and a banner says so.
// Screenshots: build/screenshots/delivery-cards-*.png (1366x768 and 390x844).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, openSeat, watchedPage } from './chromium.mjs';
import {
  Client, driveSeats, humanMove, humanTable, seeded, selfplayRecords, startServer, tempDir, viewAt,
} from '../server/helpers.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
// GLOBAL cards that ask nobody anything when played: the game goes on with the player's own turn
const QUIET_GLOBAL = /^play power:(pandemic|power-outage|coupon-days|ingredient-shortage)$/;

let browser, server, rec, played;
const problems = [];

before(async () => {
  // the same games on every run: the first whose GLOBAL card comes earliest
  const games = selfplayRecords(['--game', 'delivery', '--players', '3', '--games', '60', '--seed', '3', '--bots', 'greedy', '--expansion'])
    .map((r) => ({ r, at: r.actions.findIndex((a) => QUIET_GLOBAL.test(a)) })).filter((g) => g.at > 0).sort((a, b) => a.at - b.at);
  assert.ok(games.length, 'selfplay has a game with a GLOBAL card played');
  ({ r: rec, at: played } = games[0]);
  server = await startServer(join(tempDir('pizzabox-dcards-'), 'cards.db'), { env: { PIZZABOX_TABLE_SEED: String(rec.seed) } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

const openPage = (options) => watchedPage(browser, problems, options);

// The page takes a seat over from the client that held it, by its token.
const takeSeat = (page, joined) => openSeat(page, `http://localhost:${server.port}/`, joined, '#delivery-info .pd-orders');

const shot = async (page, name, sel) => {
  await page.locator(sel).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `delivery-cards-${name}.png`) });
};

// The hand as shown: its groups' counts, the cards' counts, and the power card faces.
function readHand() {
  const hand = document.getElementById('delivery-hand');
  const groups = [...hand.querySelectorAll('.pd-hgroup')];
  return {
    by: hand.dataset.by,
    groups: groups.map((g) => ({ key: g.dataset.group, count: Number(g.dataset.count), label: g.querySelector('.pd-hgroup-label').innerText })),
    cards: groups.map((g) => [...g.querySelectorAll('.pd-card')].reduce((a, c) => a + Number((/×(\d+)/.exec(c.innerText) || [0, 1])[1]), 0)),
    powers: [...hand.querySelectorAll('.pd-pcard')].map((f) => ({ id: f.dataset.card, text: f.innerText, tip: f.dataset.tip })),
    said: document.getElementById('delivery-hand-count').innerText,
  };
}

function checkHand(h, size, what) {
  assert.equal(h.groups.reduce((a, g) => a + g.count, 0), size, `${what}: the groups add up to the hand (${size})`);
  h.groups.forEach((g, i) => {
    assert.equal(h.cards[i], g.count, `${what}: group ${g.key} counts its cards`);
    assert.match(g.label, new RegExp(`×${g.count}$`), `${what}: group ${g.key} shows its count`);
  });
  assert.match(h.said, new RegExp(`\\(${size} market cards?`), `${what}: the hand's size is said`);
}

// A power card's face: its name and type shown, its whole text in its tooltip.
function checkFace(face, pc, what) {
  assert.ok(face, `${what}: ${pc.name} is shown`);
  assert.match(face.text, new RegExp(pc.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), `${what}: its name`);
  assert.match(face.text.toLowerCase(), new RegExp(pc.type), `${what}: its type`);
  assert.ok(face.tip.includes(pc.text), `${what}: its text in the tooltip (${face.tip})`);
}

test('the hand, power cards, the keep choice, last turns and a global event banner are readable', { timeout: 90_000 }, async () => {
  const clients = [];
  for (let i = 0; i < 3; i++) clients.push(await Client.connect(server.url, ['Ann', 'Bo', 'Cy'][i]));

  // ---- The keep choice, at a table of the same deal's start ----
  const start = await humanTable(clients, { game: 'delivery', expansion: true });
  const first = await viewAt(clients[0], start[0].code, 0);
  const keeper = first.view.to_move;
  const kv = (await viewAt(clients[keeper], start[0].code, 0)).view;
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await openPage({ viewport, hasTouch: size === 'phone', isMobile: size === 'phone' });
    await takeSeat(page, start[keeper]);
    await page.waitForSelector('#actions .pd-keep-faces');
    const faces = await page.locator('#actions .pd-keep-faces .pd-pcard').evaluateAll((fs) => fs.map((f) => ({
      id: f.dataset.card, text: f.innerText, tip: f.dataset.tip, shown: f.getBoundingClientRect().width > 0 })));
    assert.deepEqual(faces.map((f) => f.id), kv.keep_from, 'the two cards dealt are shown');
    for (const f of faces) {
      const pc = kv.power_cards[f.id];
      checkFace(f, pc, 'keep');
      assert.ok(f.text.includes(pc.text), `keep: ${pc.name}'s whole text is printed on its face`);
    }
    checkHand(await page.evaluate(readHand), kv.players[keeper].hand, `${size} keep`);
    await shot(page, `keep-${size}`, '#actions');
    if (size === 'phone') {
      // kept, the card is in the hand, its text printed; a tap (a phone has no hover) shows it whole
      const kept = kv.keep_from[1];
      await page.locator(`#actions button[data-action="keep power:${kept}"]`).click();
      await page.waitForFunction(() => Number(document.getElementById('delivery-board').dataset.moves) > 0);
      const h = await page.evaluate(readHand);
      assert.deepEqual(h.powers.map((p) => p.id), [kept], 'the kept card is in the hand');
      checkFace(h.powers[0], kv.power_cards[kept], 'hand');
      assert.ok(h.powers[0].text.includes(kv.power_cards[kept].text), 'a power card in hand has its text printed');
      await shot(page, 'hand-powers-phone', '#delivery-hand-box');
      const face = page.locator(`#delivery-hand .pd-pcard[data-card="${kept}"]`);
      await face.tap();
      await page.waitForSelector('#tip:not([hidden])');
      assert.equal(await page.locator('#tip').innerText(), h.powers[0].tip, 'the tap shows the card\'s text');
    }
    await page.context().close();
  }

  // ---- The dealt game up to the GLOBAL card, then Ann's page at an opponent's seat ----
  const table = await humanTable(clients, { game: 'delivery', expansion: true });
  const code = table[0].code;
  const record = (m) => rec.actions[m.moves];
  const { end: before } = await driveSeats(clients, code, record, { stop: (m) => m.moves === played });
  const global = before.view.to_move; // who plays it
  // (driveSeats starts from the first client's newest view: it must have seen the last move)
  await viewAt(clients[0], code, played);
  const { end: after } = await driveSeats(clients, code, record, { stop: (m) => m.moves === played + 1 });
  await viewAt(clients[0], code, played + 1);
  // Ann: an opponent of the card's player who does not move next (the clients play on)
  const ann = [1, 2, 0].find((s) => s !== global && s !== after.view.to_move);
  const mine = (await viewAt(clients[ann], code, played + 1)).view;
  const card = rec.actions[played].split(':')[1];
  const pc = mine.power_cards[card];
  assert.equal(pc.type, 'global');

  const page = await openPage({ viewport: DESKTOP });
  await takeSeat(page, table[ann]);
  await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) === m, played + 1);

  // the banner names who played what, its type and its text
  const banner = page.locator(`.pd-banner[data-event="${card}"]`);
  await banner.waitFor();
  const said = await banner.innerText();
  assert.match(said, new RegExp(`${clients[global].label} played ${pc.name}`));
  assert.match(said, /Global/i);
  assert.ok(said.includes(pc.text), `the banner says what ${pc.name} does`);
  await shot(page, 'banner-desktop', '.pd-banner');

  // the hand: groups by village, then by ingredient, always adding up; power cards readable
  const size = mine.players[ann].hand;
  let h = await page.evaluate(readHand);
  assert.equal(h.by, 'village');
  checkHand(h, size, 'by village');
  assert.deepEqual(h.powers.map((p) => p.id).toSorted(), (mine.powers || []).toSorted(), 'every power card in hand is shown');
  for (const id of mine.powers || []) {
    const face = h.powers.find((p) => p.id === id);
    checkFace(face, mine.power_cards[id], 'hand');
    assert.ok(face.text.includes(mine.power_cards[id].text), 'a power card in hand has its text printed');
  }
  await page.click('button[data-hand-by="ingredient"]');
  h = await page.evaluate(readHand);
  assert.equal(h.by, 'ingredient');
  checkHand(h, size, 'by ingredient');
  const ingredients = new Set(mine.hand.map((c) => c.card.split('/')[1].toLowerCase()));
  assert.deepEqual(new Set(h.groups.map((g) => g.key.toLowerCase())), ingredients, 'a group per ingredient');
  await shot(page, 'hand-desktop', '#delivery-hand-box');

  // every tableau's power cards: name and type on the face, the text in its tooltip
  let tableaus = 0;
  for (const [seat, pl] of mine.players.entries()) {
    for (const id of pl.tableau || []) {
      const face = await page.locator(`#players .pd-player[data-seat="${seat}"] .pd-pcard[data-card="${id}"]`)
        .evaluate((f) => ({ text: f.innerText, tip: f.dataset.tip }));
      checkFace(face, mine.power_cards[id], `tableau of seat ${seat}`);
      tableaus++;
    }
  }
  assert.ok(tableaus > 0, 'some power cards in play by now');
  await shot(page, 'players-desktop', '#players');

  // each opponent's last turn in words, from the log the clients saw
  const entries = new Map();
  for (const m of clients[global].messages) for (const e of (m.code === code && m.log) || []) entries.set(e.move, e);
  const log = [...entries.values()].filter((e) => e.move <= played).sort((a, b) => a.move - b.move);
  const WORDS = { market: /went to market/, reputation: /built on [A-Z]{2}-\d|upgraded /, deliver: /delivered order \d/, keep: /kept a power card/ };
  for (const seat of [0, 1, 2].filter((s) => s !== ann)) {
    const action = log.findLast((e) => e.seat === seat && /^(market|reputation|deliver|keep)\b/.test(e.text));
    const line = await page.locator(`#delivery-others li[data-seat="${seat}"]`).innerText();
    assert.match(line, new RegExp(`^${clients[seat].label}`), 'the line names the player');
    assert.match(line, WORDS[action.text.split(' ')[0]], `${clients[seat].label}'s last action: ${action.text} -> ${line}`);
    if (seat === global) assert.match(line, new RegExp(`played ${pc.name}`), 'and the GLOBAL card');
  }
  const logText = (await page.locator('#log li').allInnerTexts()).join('\n');
  assert.match(logText, new RegExp(`${clients[global].label}: play ${pc.name}`), 'the log tells the card played');
  await shot(page, 'log-desktop', '#log');

  // on a phone: the banner and the hand fit, a tap shows a power card's text
  await page.setViewportSize(PHONE);
  await shot(page, 'banner-phone', '.pd-banner');
  await shot(page, 'hand-phone', '#delivery-hand-box');
  const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
  assert.ok(width.page <= width.view, `nothing to scroll sideways on a phone (${width.page} > ${width.view})`);
  await page.setViewportSize(DESKTOP);

  // dismissed, the banner goes, and stays gone after the next move
  await banner.locator('button', { hasText: 'Dismiss' }).click();
  assert.equal(await banner.count(), 0, 'the banner is gone');
  await driveSeats(clients, code, record, { stop: (m) => m.moves === played + 2 });
  await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) >= m, played + 2);
  assert.equal(await page.locator(`.pd-banner[data-event="${card}"]`).count(), 0, 'still gone after the next move');

  assert.deepEqual(problems, [], 'no errors in the pages');
  for (const c of clients) c.ws.close();
});

test('a co-op promotion is announced in a banner to a watcher', { timeout: 60_000 }, async () => {
  const clients = [];
  for (let i = 0; i < 2; i++) clients.push(await Client.connect(server.url, ['Di', 'Ed'][i]));
  const table = await humanTable(clients, { game: 'delivery', coop: true });
  const code = table[0].code;
  const page = await openPage({ viewport: DESKTOP });
  await page.goto(`http://localhost:${server.port}/`);
  await page.waitForSelector('#conn[data-state="open"]');
  await page.goto(`http://localhost:${server.port}/#/t/${code}`);
  await page.click('#prompt-watch');
  await page.waitForSelector('#delivery-info .pd-orders');
  assert.equal(await page.locator('.pd-banner').count(), 0, 'no banner before anything happened');
  const rng = seeded(7);
  const orders = (m) => (m.view.orders || []).filter(Boolean).length;
  const { end } = await driveSeats(clients, code, (m) => humanMove(m.view, rng), { stop: (m) => orders(m) > 0 });
  assert.ok(end.moves > 1, 'the week went by first');
  await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) === m, end.moves);
  const banner = page.locator('.pd-banner[data-event="promotion"]');
  assert.match(await banner.innerText(), /Pizza Promotion \(Friday evening\)[\s\S]*2 new orders came in at Order 1/,
    'the first orders: Friday evening\'s promotion');
  assert.equal(end.view.coop.day, 'Saturday', 'the week has moved on');
  await shot(page, 'promotion-desktop', '.pd-banner');
  await banner.locator('button', { hasText: 'Dismiss' }).click();
  assert.equal(await page.locator('.pd-banner[data-event="promotion"]').count(), 0, 'dismissed');
  assert.deepEqual(problems, [], 'no errors in the pages');
  for (const c of clients) c.ws.close();
});

// ---- The words, from made-up positions (no browser) ----

test('last turns and banners in words: a compound payment, a delivery, a Health Inspector drawn, a GLOBAL card', async () => {
  const { bannersHtml, othersHtml } = await import('../../web/delivery-cards.js');
  const { moveWords } = await import('../../web/delivery.js');
  const map = { spaces: [], roads: [], lots: [{ id: 'HK-2', village: 'HK', cost: 4, door: 'a1', x: 0, y: 0 }],
    villages: [{ code: 'HK', name: "Hell's Kitchen", zone: 'a1', lots: ['HK-2'] }, { code: 'MT', name: 'Midtown', zone: 'a2', lots: [] }] };
  const crash = { name: 'Stock Market Crash', type: 'global', text: 'Everyone takes one disk or one card off one of their pizzerias.' };
  const players = [0, 1, 2].map((seat) => ({ seat, money: 5, hand: 3, powers: 0, tableau: [], pizzerias: [] }));
  const order = { slot: 1, name: 'Two Toppings', village: 'MT', pay: 4, tip: true, cards: ['MT/Ham', 'MT/Onions'] };
  const view = (extra) => ({ game: 'delivery', map, players, orders: [order], open: [], sewer: [], power_cards: { 'stock-market-crash': crash },
    phase: 'start', ...extra });
  const ctx = (seat, moves, log, extra = {}) => ({ code: 'WORDS', seat, n: 3, names: ['Ann', 'Bo', 'Cy'], kinds: ['human', 'human', 'human'],
    phase: 'start', myTurn: false, v: view(extra), msg: { moves, log: log.slice(0, moves).map((e, move) => ({ ...e, move })) } });
  const log = [
    { seat: 2, text: 'deliver 1 from HK' }, { seat: 2, text: 'use MT/Ham' }, { seat: 2, text: 'end' },
    { seat: 1, text: 'reputation' }, { seat: 1, text: 'build HK-2 HK/Ham' }, { seat: 1, text: 'pay $2 MT/Ham power:mob-boss' }, { seat: 1, text: 'done' },
    { seat: 2, text: 'market' },
    { seat: 2, text: 'take deck', news: 'A Health Inspector is drawn (1 of 3): everyone owes a $2 fine. Bo pays the fine at once: $2.' },
    { seat: 2, text: 'take MT/Onions' },
    { seat: 0, text: 'play power:stock-market-crash' },
  ];
  // a payment or a discard in one move, one line of the log
  assert.equal(moveWords(ctx(0, 0, []), 'pay $2 MT/Ham power:mob-boss', 1), 'pay $2, Ham (Midtown) and the power card Mob Boss');
  assert.equal(moveWords(ctx(0, 0, []), 'discard HK/Ham MT/Onions', 1), "discard Ham (Hell's Kitchen) and Onions (Midtown)");
  othersHtml(ctx(0, 0, log, { to_move: 2, whose_turn: 2 })); // the view before Cy's delivery: its order is remembered
  const ann = ctx(0, 11, log, { to_move: 0, whose_turn: 0, phase: 'crash' });
  const others = othersHtml(ann).replace(/<[^>]+>/g, '').replace(/&#39;/g, "'");
  assert.match(others, /Cy went to market: took the top card of the deck and Onions \(Midtown\)/);
  assert.match(others, /Bo built on HK-2 \(Hell's Kitchen\) for \$4/, 'a payment in one move: $2 and two cards');
  assert.ok(others.indexOf('Cy') < others.indexOf('Bo'), 'the latest turn first');
  const cyBefore = othersHtml(ctx(0, 3, log, { to_move: 1, whose_turn: 1 })).replace(/<[^>]+>/g, '').replace(/&#39;/g, "'");
  assert.match(cyBefore, /Cy delivered order 1 \(Two Toppings\) from Hell's Kitchen to Midtown: \$4 \+ tip/);

  // Ann played the crash: her banner is the Health Inspector's only; Bo is told of both, the newest first
  const annBanners = bannersHtml(ann);
  assert.deepEqual([...annBanners.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1]), ['inspector']);
  assert.match(annBanners, /A Health Inspector is drawn \(1 of 3\): everyone owes a \$2 fine\./);
  const bo = bannersHtml(ctx(1, 11, log, { to_move: 0, whose_turn: 0, phase: 'crash' }));
  assert.deepEqual([...bo.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1]), ['stock-market-crash', 'inspector']);
  assert.match(bo, /Ann played Stock Market Crash<\/b> <span class="pd-pcard-type">Global<\/span> Everyone takes one disk/);
  assert.match(bo, /data-dismiss="WORDS:10:stock-market-crash"/, 'dismissed by table and move');
  // twelve moves on, an event is no news
  assert.equal(bannersHtml(ctx(1, 11, log, {})).length > 0, true);
  assert.equal(bannersHtml({ ...ctx(1, 11, log, {}), msg: { moves: 30, log: [] } }), '');
});
