// delivery-audit.test.mjs -- what a player audit of the Delivery table found,
// each checked as the player saw it:
//  - a delivery's one-click Confirm pays the distance with market cards
//    first; a power card only when they cannot pay, and then it is named in
//    the preview and on the button (the page's own code, on a real view);
//  - while a delivery is being paid, "Your hand" and the player panel show
//    what is left, not the cards already given to it;
//  - Harlem Rotary Pizzeria with no copy possible: one panel that says why,
//    with one button (the page's own code, on a real view);
//  - a build's second button says what it does ("Build, pay and end turn");
//  - at 1280x800 the hand and the orders start above the fold in the
//    market, build and delivery steps (and the cards to take in the market);
//    on a phone a delivery's preview and Confirm are followed by the map.
// Two people play a dealt game by WebSocket (tests/server/helpers.mjs) until
// the situation arises, then Ann's page takes her seat over.
// Screenshots: build/screenshots/delivery-audit-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, openSeat, watchedPage } from './chromium.mjs';
import { Client, driveSeats, humanTable, startServer, stopServers, tempDir } from '../server/helpers.mjs';
import { actionsHtml, fromWord, pick } from '../../web/delivery.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let browser, server, site;
const problems = [];
const clients = [];

before(async () => {
  server = await startServer(join(tempDir('pizzabox-audit-'), 'audit.db'), { env: { PIZZABOX_TABLE_SEED: '21' } });
  site = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all(clients.map((c) => c.close()));
  await stopServers([server]);
});

async function table() {
  const pair = [await Client.connect(server.url, 'Ann'), await Client.connect(server.url, 'Bob')];
  clients.push(...pair);
  const joined = await humanTable(pair, { game: 'delivery' });
  return { pair, joined, code: joined[0].code };
}

async function takeSeat(viewport, joined) {
  const page = await watchedPage(browser, problems, { viewport });
  await openSeat(page, site, joined, '#actions h2');
  return page;
}

// Both play simply: the Instant cards let go; Bob to market; Ann builds
// early, then delivers when she can (`deliver`), else to market.
function policy({ deliver = false } = {}) {
  return (m) => {
    const v = m.view;
    if (v.phase === 'instant' && v.legal.includes('done')) return 'done';
    if (v.phase === 'start') {
      const d = v.legal.find((l) => /^deliver \d+ from \S+$/.test(l));
      if (m.seat === 0 && deliver && d) return d;
      if (m.seat === 0 && v.legal.includes('reputation') && v.players[0].pizzerias.length < 2) return 'reputation';
      if (v.legal.includes('market')) return 'market';
    }
    const build = v.legal.find((l) => /^build /.test(l));
    return build || v.legal[0];
  };
}

const countOf = (list) => (list || []).reduce((a, c) => a + c.count, 0);

// Where an element starts and ends on the screen.
const box = (page, sel) => page.evaluate((s) => {
  const e = document.querySelector(s);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
}, sel);

// A page context for the page's own code (web/delivery.js), as table.js builds it.
function ctxOf(m, v) {
  return { msg: { ...m, view: v }, v, seat: m.seat, n: v.players.length, names: ['Ann', 'Bob'], code: m.code, phase: v.phase, myTurn: v.to_move === m.seat };
}

test('the hand and the orders in sight at 1280x800 in the market, build and delivery steps; the build\'s second button says what it does',
  { timeout: 90_000 }, async () => {
    for (const [step, stop] of [
      ['market', (m) => m.seat === 0 && m.view.phase === 'market' && m.view.turn > 4],
      ['build', (m) => m.seat === 0 && m.view.phase === 'reputation' && m.view.legal.some((l) => /^build /.test(l))],
      ['deliver', (m) => m.seat === 0 && m.view.phase === 'start' && (m.view.deliveries || []).length > 0],
    ]) {
      const t = await table();
      const { end: at } = await driveSeats(t.pair, t.code, policy(), { stop });
      const page = await takeSeat(DESKTOP, t.joined[0]);
      if (step === 'deliver') {
        const d = at.view.deliveries[0];
        await page.locator(`#actions .pd-delivery-choice[data-value="${d.slot}:${d.from}"]`).first().click();
        await page.waitForSelector('#delivery-preview');
      }
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(SHOTS, `delivery-audit-${step}.png`) });
      // the cards to take: the open market, or the market's own panel beside the map
      const take = step === 'market' ? ['#delivery-market', '#actions .pd-take'] : [];
      for (const sel of ['#delivery-hand', '#delivery-orders', ...(take.length ? [take] : [])]) {
        const list = Array.isArray(sel) ? sel : [sel];
        const boxes = await Promise.all(list.map((x) => box(page, x)));
        assert.ok(boxes.some((b) => b && b.top < DESKTOP.height - 40), `${step}: ${list.join(' or ')} starts above the fold at 1280x800 (${JSON.stringify(boxes)})`);
      }
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing to scroll sideways');
      await page.screenshot({ path: join(SHOTS, `delivery-audit-${step}.png`) });
      if (step === 'build') {
        const lot = await page.locator('#delivery-svg .pd-lot.can[data-pick="lot"]').first().getAttribute('data-value');
        await page.locator(`#delivery-svg .pd-lot.can[data-pick="lot"][data-value="${lot}"]`).first().click();
        const end = page.locator('#pd-lot .pd-build-done').first();
        await end.waitFor();
        assert.match(await end.innerText(), /^Build(, pay)? and end turn$/, 'the second button says it builds (and pays) and ends the turn');
        assert.match(await end.getAttribute('data-then'), /(^|\|)done\|end$/, 'and it does: no second build, then the end of the turn');
        assert.match(await end.getAttribute('title'), /no second build or upgrade; end the turn$/);
        await page.screenshot({ path: join(SHOTS, 'delivery-audit-build-lot.png') });
      }
      await page.context().close();
    }
    assert.deepEqual(problems, [], 'no errors in the page');
  });

test('while a delivery is paid, the hand and the player panel count only what is left; the preview sits above the route on a phone',
  { timeout: 90_000 }, async () => {
    const t = await table();
    const given = (v) => countOf((v.pending || {}).cards) + ((v.pending || {}).powers || []).length;
    const { end } = await driveSeats(t.pair, t.code, policy({ deliver: true }), {
      stop: (m) => m.seat === 0 && ['supply', 'distance', 'tip', 'arrange'].includes(m.view.phase) && given(m.view) > 0,
    });
    const v = end.view;
    const left = countOf(v.hand) - countOf(v.pending.cards);
    const page = await takeSeat(DESKTOP, t.joined[0]);
    const count = page.locator('#delivery-hand-count');
    assert.equal(Number(await count.getAttribute('data-cards')), left, 'the hand counts what is left');
    assert.equal(Number(await count.getAttribute('data-aside')), given(v), 'and says how many are given');
    assert.match(await count.innerText(), new RegExp(`^\\(left: ${left} market cards?.*; ${given(v)} cards? given to the delivery\\)$`));
    const chips = await page.locator('#delivery-hand .pd-hgroup').evaluateAll((gs) => gs.reduce((a, g) => a + Number(g.dataset.count), 0));
    assert.equal(chips, left, 'the hand shows only the cards left');
    assert.match(await page.locator('#players .pd-player[data-seat="0"] .pd-hand-size').innerText(), new RegExp(`^${left} cards?$`),
      'the player panel counts what is left');
    assert.match(await page.locator('#delivery-now').innerText(), /given: /, 'the cards given are shown with the delivery');
    await page.screenshot({ path: join(SHOTS, 'delivery-audit-given.png') });
    await page.context().close();

    // On a phone, a preview's Confirm is followed at once by the map: the other moves step aside.
    const t2 = await table();
    const { end: start } = await driveSeats(t2.pair, t2.code, policy(), {
      stop: (m) => m.seat === 0 && m.view.phase === 'start' && (m.view.deliveries || []).length > 0,
    });
    const d = start.view.deliveries[0];
    const phone = await takeSeat(PHONE, t2.joined[0]);
    await phone.locator(`#actions .pd-delivery-choice[data-value="${d.slot}:${d.from}"]`).first().click();
    await phone.waitForSelector('#delivery-preview');
    const preview = await box(phone, '#delivery-preview');
    const map = await box(phone, '#delivery-board');
    assert.ok(map.top - preview.bottom < 150, `the map follows the preview (${preview.bottom} -> ${map.top})`);
    await phone.screenshot({ path: join(SHOTS, 'delivery-audit-preview-phone.png') });
    await phone.locator('#delivery-preview [data-pick="clear"]').click();
    await phone.waitForSelector('#actions .pd-delivery-choice');
    assert.ok(await phone.locator('#actions .pd-delivery-choice').first().isVisible(), 'clear brings the other moves back');
    await phone.context().close();
    assert.deepEqual(problems, [], 'no errors in the page');
  });

test('while a build is paid, its village card is out of the hand as what pays for the lot is', { timeout: 90_000 }, async () => {
  const t = await table();
  const { end } = await driveSeats(t.pair, t.code, policy(), {
    stop: (m) => m.seat === 0 && (m.view.pending || {}).kind === 'build',
  });
  const v = end.view;
  const left = countOf(v.hand) - countOf(v.pending.cards) - 1; // the village card goes into the pizzeria
  const page = await takeSeat(DESKTOP, t.joined[0]);
  const count = page.locator('#delivery-hand-count');
  assert.equal(Number(await count.getAttribute('data-cards')), left, `the hand counts what is left, not ${v.pending.card}`);
  const chips = await page.locator('#delivery-hand .pd-hgroup').evaluateAll((gs) => gs.reduce((a, g) => a + Number(g.dataset.count), 0));
  assert.equal(chips, left, 'the hand shows only the cards left');
  assert.match(await page.locator('#players .pd-player[data-seat="0"] .pd-hand-size').innerText(), new RegExp(`^${left} cards?$`),
    'the player panel counts what is left');
  await page.context().close();
  assert.deepEqual(problems, [], 'no errors in the page');
});

test('a one-click delivery pays the distance with market cards first, and names a power card when it must spend one; Harlem Rotary with no copy: one button and why',
  { timeout: 60_000 }, async () => {
    const t = await table();
    const { end } = await driveSeats(t.pair, t.code, policy(), {
      stop: (m) => m.seat === 0 && m.view.phase === 'start' && (m.view.deliveries || []).some((q) => !m.view.orders[q.slot - 1].specialty),
    });
    const base = end.view;
    const q0 = base.deliveries.find((q) => !base.orders[q.slot - 1].specialty);
    // A delivery of 3 cards for the distance, no ingredient from the hand.
    const view = (hand, powers) => {
      const v = structuredClone(base);
      v.hand = hand;
      v.powers = powers;
      v.power_cards = { ...v.power_cards, 'park-commissioner': { name: 'Park Commissioner', type: 'money', text: 'Opponents delivering to Central Park pay you $1.' } };
      v.players[0].cold_storage = undefined;
      v.special_sale = false;
      v.deliveries = [{ ...q0, distance_cards: 3, ingredient_cards: 0, extra_cards: 0, needs: [] }];
      return v;
    };
    const preview = (v, n) => {
      const ctx = ctxOf({ ...end, moves: end.moves + n }, v);
      actionsHtml(ctx); // a new position: the selection starts again
      pick('delivery', `${q0.slot}:${fromWord(ctx, q0)}`);
      return actionsHtml(ctx);
    };
    const confirmOf = (html) => /<button type="button" id="delivery-confirm"[^>]*>[^<]*<\/button>/.exec(html)?.[0] || '';
    const cards = base.map.villages.slice(0, 4).map((vl, i) => ({ card: `${vl.name}/${['Ham', 'Onions', 'Peppers', 'Sausage'][i]}`, count: 1 }));

    // Four market cards and a power card: three market cards pay, the power card stays.
    let html = preview(view(cards, ['park-commissioner']), 1000);
    let then = /data-then="([^"]*)"/.exec(confirmOf(html))?.[1] || '';
    assert.match(then, /^pay \S+ \S+ \S+$/, `three cards for the distance (${then})`);
    assert.doesNotMatch(then, /power:/, 'no power card while market cards can pay');
    assert.doesNotMatch(html, /pd-chain-power/);

    // Two market cards: the power card must pay the third space; the preview and the button say so.
    html = preview(view(cards.slice(0, 2), ['park-commissioner']), 1001);
    const confirm = confirmOf(html);
    then = /data-then="([^"]*)"/.exec(confirm)?.[1] || '';
    assert.match(then, /^pay \S+\/\S+ \S+\/\S+ power:park-commissioner$/, `the market cards first, the power card last (${then})`);
    assert.match(confirm, /data-spends-power="true"/);
    assert.match(confirm, />Deliver order \d+.*, spending Park Commissioner<\/button>$/, `the button names the power card (${confirm})`);
    assert.match(html, /class="pd-chain-power"><b>A power card is spent:<\/b> Park Commissioner pays for 1 space/, 'the preview says it, and why');
    assert.match(html, /class="pd-power pd-power-spent"/, 'the power card stands out among the cards paid');

    // Harlem Rotary Pizzeria, no copy possible: "done" only.
    const v = structuredClone(base);
    Object.assign(v, { phase: 'copy', legal: ['done'], copy: { ...v.orders.find(Boolean), village: 'HA' }, copy_turn_of: 1, to_move: 0, whose_turn: 1 });
    const copy = actionsHtml(ctxOf({ ...end, moves: end.moves + 2000 }, v));
    assert.match(copy, /id="delivery-copy-cannot"/, 'a panel of its own');
    assert.equal((copy.match(/data-action=/g) || []).length, 1, 'one button');
    assert.match(copy, /data-action="done"[^>]*>OK: let it go<\/button>/);
    assert.match(copy, /No pizzeria of yours can make it with your hand/, 'it says why');
    assert.match(copy, /whatever your hand, so the question tells nobody what you hold/, 'and why it is asked at all');
  });
