// delivery-choose.test.mjs -- New York Pizza Delivery: choose, then confirm.
//
// Two people play a dealt game by WebSocket (tests/server/helpers.mjs) until
// a situation arises, then Ann's page takes her seat over and decides it by
// clicks, as a person would:
//  - a lot clicked on the map shows its price and the card it needs, with
//    the builds for it; the build's price is then paid with a dollar and a
//    card chosen in the payment panel, sent by ONE click on Confirm: one
//    move, one line in the log, the money and the hand smaller by as much;
//  - two cards discarded down to the hand limit in one move;
//  - one of her pizzerias clicked: its stack bottom to top, and an upgrade
//    that puts another of its cards on top, by the button that says so;
//  - over the limit after an upgrade: a card below the top taken out.
// Screenshots at 1366x768 and 390x844 go to
// build/screenshots/delivery-choose-{pay,discard,upgrade}[-phone].png (and -lot.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, openSeat, watchedPage } from './chromium.mjs';
import { Client, driveSeats, humanTable, startServer, stopServers, tempDir } from '../server/helpers.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser, server, site;
const problems = [];
const clients = [];

before(async () => {
  server = await startServer(join(tempDir('pizzabox-choose-'), 'choose.db'), { env: { PIZZABOX_TABLE_SEED: '21' } });
  site = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all(clients.map((c) => c.close()));
  await stopServers([server]);
});

const openPage = () => watchedPage(browser, problems, { viewport: DESKTOP });

// A new table of two people, Ann at seat 0 and Bob at seat 1.
async function table() {
  const pair = [await Client.connect(server.url, 'Ann'), await Client.connect(server.url, 'Bob')];
  clients.push(...pair);
  const joined = await humanTable(pair, { game: 'delivery' });
  return { pair, joined, code: joined[0].code };
}

// Ann's page takes her seat over by the token the web client would have kept.
const takeSeat = (page, joined) => openSeat(page, site, joined, '#delivery-board [data-pick], #actions');

const lotCost = (v, id) => v.map.lots.find((l) => l.id === id).cost;
const handOf = (v, seat) => v.players[seat].hand;
const moves = (page) => page.evaluate(() => Number(document.getElementById('delivery-board').dataset.moves));

// The simple moves both play while driving to a situation: the Instant
// cards let go, a pay or discard one part at a time (the single steps are
// still listed), Bob always to the market.
function simple(v) {
  if (v.legal.includes('done') && v.phase === 'instant') return 'done';
  if (v.phase === 'start' && v.to_move === 1 && v.legal.includes('market')) return 'market';
  return v.legal[0];
}

// Bob's newest view of the table (everyone's money and hand size are public).
async function bobSees(t, after) {
  return (await t.pair[1].waitFor((m) => m.type === 'view' && m.code === t.code && m.moves > after, 5000, 'the move seen')).view;
}

async function confirmOne(page, locator) {
  const before = await moves(page);
  await locator.click();
  await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) > m, before, { timeout: 10_000 });
  assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
  return before;
}

async function shots(page, name, panel) {
  await page.locator(panel).scrollIntoViewIfNeeded();
  const box = await page.locator(panel).boundingBox();
  assert.ok(box.height <= DESKTOP.height - 40, `the ${name} panel needs no scrolling at 1366x768 (${box.height} px)`);
  await page.screenshot({ path: join(SHOTS, `delivery-choose-${name}.png`) });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(100);
  const fit = await page.evaluate(() => ({ width: window.innerWidth, scroll: document.documentElement.scrollWidth }));
  assert.ok(fit.scroll <= fit.width, `${name}: nothing to scroll sideways on a phone (${fit.scroll} > ${fit.width})`);
  await page.locator(panel).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `delivery-choose-${name}-phone.png`) });
  await page.setViewportSize(DESKTOP);
}

test('a lot clicked shows its price and card; its price paid with a dollar and a card in one move', { timeout: 60_000 }, async () => {
  const t = await table();
  // Ann increases her reputation at once; stop where she may build on a lot of $2 or more.
  const { end } = await driveSeats(t.pair, t.code, (m) => (m.seat === 0 && m.view.phase === 'start' && m.view.legal.includes('reputation')
    ? 'reputation' : simple(m.view)), {
    stop: (m) => m.seat === 0 && m.view.phase === 'reputation' && m.view.legal.some((l) => /^build /.test(l) && lotCost(m.view, l.split(' ')[1]) >= 2),
  });
  const v = end.view;
  const build = v.legal.find((l) => /^build /.test(l) && lotCost(v, l.split(' ')[1]) >= 2);
  const lot = build.split(' ')[1];
  const cost = lotCost(v, lot);
  const village = v.map.villages.find((x) => x.code === v.map.lots.find((l) => l.id === lot).village).name;
  const page = await openPage();
  await takeSeat(page, t.joined[0]);

  // No wall of buttons: what to click, and Done once a step is made.
  await page.waitForSelector('#actions .pd-rep-choose, #pd-lot');
  await page.locator(`#delivery-board [data-pick="lot"][data-value="${lot}"]`).first().click();
  const panel = page.locator('#pd-lot');
  await panel.waitFor();
  const text = (await panel.innerText()).replace(/\s+/g, ' ');
  assert.match(text, new RegExp(`Lot ${lot} in ${village.replace(/'/g, '.')}: \\$${cost}`), 'the lot\'s price');
  assert.match(text, new RegExp(`needs a card of ${village.replace(/'/g, '.')}`), 'the card it needs');
  // a build paid as the panel would suggest (and ending the turn, or the price chosen next) in one click
  const builds = await panel.locator('button.pd-build:not(.pd-build-done)').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  assert.deepEqual(builds.toSorted(), v.legal.filter((l) => l.startsWith(`build ${lot} `)).toSorted(), 'a button for each card that can build there');
  assert.match(await panel.locator(`button.pd-build:not(.pd-build-done)[data-action="${build}"]`).getAttribute('data-then'), /^pay \$/,
    'its price paid with it, money first');

  await page.screenshot({ path: join(SHOTS, 'delivery-choose-lot.png') });
  const handBefore = handOf(v, 0);
  const moneyBefore = v.players[0].money;
  await confirmOne(page, panel.locator(`button.pd-build-choose[data-action="${build}"]`));
  const pay = page.locator('#pd-pay');
  await pay.waitFor();
  assert.match(await pay.locator('.pd-pay-head').innerText(), new RegExp(`Lot ${lot} costs \\$${cost}`));
  assert.equal(Number(await pay.getAttribute('data-due')), cost);
  // Money first: the whole price is chosen already, one click would do.
  const suggested = await page.locator('#pd-pay-confirm').getAttribute('data-action');
  assert.match(suggested, new RegExp(`^pay \\$${Math.min(cost, moneyBefore)}( |$)`), 'money first');
  await shots(page, 'pay', '#pd-pay');

  // Ann wants to keep her money: Clear, one dollar, then cards up to the price.
  await pay.locator('button[data-pick="pay-clear"]').click();
  assert.equal(await page.locator('#pd-pay-confirm').isDisabled(), true, 'nothing chosen: nothing to confirm');
  await page.locator('#pd-pay .pd-money-more').click();
  for (let i = 0; i < 20 && Number(await page.locator('#pd-pay').getAttribute('data-total')) < cost; i++) {
    await page.locator('#pd-pay button.pd-pick[data-pick="pay-card"][aria-pressed="false"]').first().click();
  }
  assert.equal(Number(await pay.getAttribute('data-total')), cost, 'the selection covers the price');
  assert.match(await pay.locator('.pd-pay-total').innerText(), new RegExp(`^\\$1 \\+ ${cost - 1} cards? = ${cost} of ${cost}$`), 'the running total');
  const confirm = page.locator('#pd-pay-confirm');
  const action = await confirm.getAttribute('data-action');
  assert.match(action, /^pay \$1 \S+/);
  assert.match(await confirm.innerText(), /^Pay \$1 and /);
  const at = await confirmOne(page, confirm);
  const after = await bobSees(t, at);
  assert.equal(after.phase === 'pay', false, 'the price is paid');
  const log = await page.locator('#log li').allInnerTexts();
  assert.equal(log.filter((l) => /^Ann: pay /.test(l)).length, 1, `one line in the log for the payment (${log.slice(-3)})`);
  assert.match(log.find((l) => /^Ann: pay /.test(l)), /^Ann: pay \$1 and /);
  assert.equal(after.players[0].money, moneyBefore - 1, 'one dollar less');
  assert.equal(handOf(after, 0), handBefore - cost, `the build card and ${cost - 1} cards fewer in the hand`);
  assert.ok(after.players[0].pizzerias.some((p) => p.lot === lot), 'the pizzeria stands');
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.context().close();
});

test('two cards discarded down to the hand limit in one move', { timeout: 60_000 }, async () => {
  const t = await table();
  const over = (v) => v.hand.reduce((a, c) => a + c.count, 0) + v.powers.length - 10;
  const { end } = await driveSeats(t.pair, t.code, (m) => (m.view.phase === 'start' && m.view.legal.includes('market') ? 'market' : simple(m.view)), {
    stop: (m) => m.seat === 0 && m.view.phase === 'discard' && over(m.view) === 2,
  });
  const handBefore = handOf(end.view, 0);
  const page = await openPage();
  await takeSeat(page, t.joined[0]);
  const panel = page.locator('#pd-pay[data-group="discard"]');
  await panel.waitFor();
  assert.match(await panel.locator('.pd-pay-head').innerText(), /^Discard 2 cards down to 10$/);
  await shots(page, 'discard', '#pd-pay');
  // Ann's own choice: two other cards than the suggested ones.
  const chosen = await panel.locator('button.pd-pick[aria-pressed="true"]').evaluateAll((bs) => bs.map((b) => b.dataset.card));
  await panel.locator('button[data-pick="pay-clear"]').click();
  const others = panel.locator('button.pd-pick[data-pick="pay-card"]');
  const cards = await others.evaluateAll((bs) => bs.map((b) => b.dataset.card));
  const mine = cards.filter((c) => !chosen.includes(c)).slice(0, 2);
  while (mine.length < 2) mine.push(cards.find((c) => !mine.includes(c)));
  for (const c of mine) await panel.locator(`button.pd-pick[data-card="${c}"]`).click();
  assert.equal(Number(await panel.getAttribute('data-total')), 2);
  const confirm = page.locator('#pd-pay-confirm');
  assert.equal(await confirm.getAttribute('data-action'), `discard ${mine.join(' ')}`);
  const at = await confirmOne(page, confirm);
  const after = await bobSees(t, at);
  assert.equal(after.moves ?? at + 1, at + 1);
  assert.equal(handOf(after, 0), handBefore - 2, 'two cards fewer');
  const log = await page.locator('#log li').allInnerTexts();
  assert.match(log.at(-1), /^Ann: discard .+ and .+$/, 'one line for both');
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.context().close();
});

// Ann builds and upgrades, cards added under the top (on a pizzeria at its
// limit first): its stack grows until a card can be put on top by an
// upgrade, and later until an upgrade leaves it over its limit.
function builder(v) {
  if (v.phase === 'start') return v.legal.includes('reputation') ? 'reputation' : v.legal.includes('market') ? 'market' : simple(v);
  if (v.phase !== 'reputation') return simple(v);
  const full = v.players[0].pizzerias.filter((p) => p.reputation >= p.limit).map((p) => p.village);
  const add = (l) => /^upgrade \S+ \S+ add$/.test(l);
  return v.legal.find((l) => add(l) && full.includes(l.split(' ')[1])) || v.legal.find(add) ||
    v.legal.filter((l) => /^build /.test(l)).sort((a, b) => lotCost(v, a.split(' ')[1]) - lotCost(v, b.split(' ')[1]))[0] || simple(v);
}

test('a pizzeria clicked shows its stack; an upgrade puts another of its cards on top', { timeout: 60_000 }, async () => {
  const t = await table();
  const reorder = (l) => /^upgrade \S+ \S+ (disk|add) top \S+$/.test(l);
  const { end } = await driveSeats(t.pair, t.code, (m) => (m.seat === 0 ? builder(m.view) : simple(m.view)), {
    stop: (m) => m.seat === 0 && m.view.phase === 'reputation' && m.view.legal.some(reorder), timeout: 40_000,
  });
  const v = end.view;
  const move = v.legal.find(reorder);
  const [, village, card, how, , top] = move.split(' ');
  const pz = v.players[0].pizzerias.find((p) => p.village === village);
  const page = await openPage();
  await takeSeat(page, t.joined[0]);
  await page.locator(`#delivery-board [data-pick="pizzeria"][data-value="${village}"]`).first().click();
  const panel = page.locator('#pd-pizzeria');
  await panel.waitFor();
  // The stack, bottom to top, the top card's power named.
  const stack = await panel.locator('.pd-stack-cards li').count();
  assert.equal(stack, pz.cards.length, 'each of its cards');
  // (by name: "double-topping" is "Double Topping")
  if (pz.power) assert.match(await panel.locator('.pd-stack-cards li.top').innerText(), new RegExp(pz.power.replace(/-/g, ' '), 'i'));
  const offered = await panel.locator('button[data-action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  assert.deepEqual(offered.toSorted(), v.legal.filter((l) => l.startsWith(`upgrade ${village} `)).toSorted(), 'each upgrade of this pizzeria');
  const button = panel.locator(`button[data-action="${move}"]`);
  const words = await button.innerText();
  assert.match(words, new RegExp(`^${how === 'disk' ? 'Discard it: \\+1 disk' : 'Add it under the top card'}, and your ${top.replace(/-/g, ' ')} card goes on top$`));
  assert.match(await page.locator('#actions').innerText(), /Done: no second build or upgrade|Your pizzeria/);
  await shots(page, 'upgrade', '#pd-pizzeria');
  const at = await confirmOne(page, button);
  const after = await bobSees(t, at);
  const now = after.players[0].pizzerias.find((p) => p.village === village);
  assert.match(now.cards.at(-1), new RegExp(`/${top.replace(/-/g, ' ')}$`, 'i'), `${top} is the top card now`);
  const log = await page.locator('#log li').allInnerTexts();
  assert.ok(log.some((l) => new RegExp(`^Ann: .+, ${top.replace(/-/g, ' ')} on top$`).test(l)), `the log says it (${log.slice(-2)})`);
  assert.ok(card, 'the card of the upgrade');
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.context().close();
});

test('over the limit after an upgrade: the stack, and a button for each thing that may go', { timeout: 60_000 }, async () => {
  const t = await table();
  const { end } = await driveSeats(t.pair, t.code, (m) => (m.seat === 0 ? builder(m.view) : simple(m.view)), {
    stop: (m) => m.seat === 0 && m.view.phase === 'trim', timeout: 40_000,
  });
  const v = end.view;
  const village = v.pending.village;
  const pz = v.players[0].pizzerias.find((p) => p.village === village);
  const page = await openPage();
  await takeSeat(page, t.joined[0]);
  const panel = page.locator(`#pd-pizzeria[data-group="remove"][data-village="${village}"]`);
  await panel.waitFor();
  assert.match(await panel.locator('h3').innerText(), /over its limit by 1/);
  assert.equal(await panel.locator('.pd-stack-cards li').count(), pz.cards.length, 'its cards, bottom to top');
  const offered = await panel.locator('button[data-action]').evaluateAll((bs) => bs.map((b) => ({ action: b.dataset.action, text: b.textContent })));
  assert.deepEqual(offered.map((o) => o.action).toSorted(), v.legal.toSorted(), 'a button for each way');
  for (const o of offered) assert.match(o.text, /^(Take a disk off \(back to your supply\)|Take .+ \(.+\) out \(to the sewer\))$/);
  const card = offered.find((o) => !/ disk$/.test(o.action));
  const at = await confirmOne(page, panel.locator(`button[data-action="${card.action}"]`));
  const after = await bobSees(t, at);
  const now = after.players[0].pizzerias.find((p) => p.village === village);
  assert.equal(now.cards.length, pz.cards.length - 1, 'one card fewer');
  assert.ok(now.reputation <= now.limit, 'back to its limit');
  assert.deepEqual(problems, [], 'no errors in the page');
  await page.context().close();
});
