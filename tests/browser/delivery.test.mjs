// delivery.test.mjs -- Ann plays New York Pizza Delivery in the browser.
//
// Starts `pizzabox serve` (PIZZABOX_BIN overrides build/pizzabox), opens
// Debian's Chromium: Ann picks New York Pizza Delivery in the lobby (2 to 4
// players), creates a 3-player table with Extra Cheese, a greedy and a random bot, and
// clicks her way to the result screen: power card, market cards, lots on the
// map to build on, her pizzerias and the orders to preview deliveries (the
// route drawn on the map, its length checked against the engine's quote, the
// free and paid spaces, the cost and the pay) and the confirm button; a
// specialty order (to any zone) is previewed to each zone Ann may choose, by
// its button or by the village on the map, and delivered to one she picks;
// the legal-move buttons for the small decisions (pay, use, fine, discard...).
// While a preview is shown the page is also looked at phone size: nothing to
// scroll sideways, the map as wide as the screen. Screenshots go to
// build/screenshots/delivery*.png (delivery.png is the phone).
//
// Then the co-op game: Ann ticks "Co-op" (a table for one becomes possible),
// picks a difficulty row and plays as a team with a greedy bot: the team
// panel (goals, markers, the week, the next promotion, the order cards), the
// Transfer Goods buttons (a card passed to the bot, on a phone too), and the
// team's result with the record code (delivery-coop*.png).
//
// Last, the cards played on an opponent: a game between bots with an Instant
// card and Out of Supplies in it is dealt again (its seed) at a table of six
// humans played by WebSocket clients, and Ann's page takes a seat over where
// it is asked about a delivery (the Instant card panel: its button plays the
// card), where it is asked about one with no card to play (at a table of
// people everyone holding a power card is asked: the panel only lets it go),
// and where it owes $2 for Out of Supplies (the debt on the player panel,
// paid with a button) (delivery-instant.png, delivery-supplies.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, openSeat, watchedPage } from './chromium.mjs';
import {
  Client, driveSeats, humanTable, isFormality, opponentCardGames, startServer, stopServers, tempDir, viewAt,
} from '../server/helpers.mjs';

const GAME_MS = 150_000;   // one game, clicked through: far more than it takes
const DESKTOP = { width: 1280, height: 1000 };
const PHONE = { width: 390, height: 844 };

let browser, server, url;
const problems = [];   // uncaught errors and CSP violations in any page

before(async () => {
  server = await startServer(join(tempDir('pizzabox-delivery-'), 'delivery.db'));
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

const openPage = (viewport) => watchedPage(browser, problems, { viewport });

// A small seeded generator: Ann's choices are the same on every run.
function seeded(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

// What the table page shows, read from the page.
function readTable() {
  const table = document.getElementById('table');
  const board = document.getElementById('delivery-board');
  const attr = (sel, a) => [...document.querySelectorAll(sel)].map((e) => e.getAttribute(a));
  return {
    game: table.dataset.game, phase: table.dataset.phase, myTurn: table.dataset.myTurn === 'true',
    moves: Number(board.dataset.moves), over: !document.getElementById('game-over').hidden,
    // each move once, by its own button (a card or a button that queues more moves behind it left out)
    actions: [...new Set(attr('#actions button[data-action]:not([disabled]):not([data-then])', 'data-action'))],
    choices: attr('#actions .pd-delivery-choice', 'data-value'),
    buildLots: attr('#delivery-svg .pd-lot.can[data-pick="lot"]', 'data-value'),
    market: attr('#delivery-market button[data-action]', 'data-action'),
    hand: attr('#delivery-hand button[data-action]', 'data-action'),
    pizzerias: attr('#delivery-svg .pd-lot.mine', 'data-lot'),
    myVillages: attr('#delivery-svg .pd-lot.mine[data-pick="pizzeria"]', 'data-value'),
    specialties: attr('#delivery-orders .pd-order.specialty', 'data-slot').map(Number),
    // a move being sent (app.js disables the moves; a Confirm with nothing chosen has none)
    busy: document.querySelectorAll('#actions button[data-action][disabled]').length > 0,
  };
}

// The preview as drawn: the panel's figures and the route on the map.
function readPreview() {
  const p = document.getElementById('delivery-preview');
  if (!p) return null;
  const svg = document.getElementById('delivery-svg');
  const steps = [...svg.querySelectorAll('.pd-space.route-step')]
    .map((g) => ({ id: g.dataset.space, step: Number(g.dataset.step), free: g.classList.contains('free') }))
    .sort((a, b) => a.step - b.step);
  const slot = Number(p.dataset.slot);
  const from = p.dataset.from;
  const lot = svg.querySelector(`.pd-lot.mine[data-pick="pizzeria"][data-value="${from}"]`);
  const zoneOf = (code) => svg.querySelector(`.pd-zone[data-village="${code}"]`)?.dataset.space ?? null;
  return {
    slot, from, length: Number(p.dataset.length), quoted: Number(p.dataset.quoted), free: Number(p.dataset.free),
    cards: Number(p.dataset.cards), pay: Number(p.dataset.pay), text: p.innerText,
    to: p.dataset.to, toZone: p.dataset.to ? zoneOf(p.dataset.to) : null,
    specialty: Boolean(document.querySelector(`#delivery-orders .pd-order.specialty[data-slot="${slot}"]`)),
    zones: [...p.querySelectorAll('.pd-zone-choice')].map((b) => ({ code: b.dataset.value, pressed: b.getAttribute('aria-pressed') === 'true' })),
    line: Number(svg.querySelector('.pd-route')?.dataset.length), svgRoute: Number(svg.dataset.route),
    steps, door: lot ? lot.dataset.door : null,
    target: svg.querySelector('.pd-zone.target')?.dataset.space ?? null,
    confirm: document.getElementById('delivery-confirm')?.dataset.action ?? null,
    variants: [...p.querySelectorAll('.delivery-variant')].map((b) => b.dataset.action),
  };
}

// Click, then wait until the table has moved on (or the game ended).
async function play(page, locator, t) {
  await locator.click();
  await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) > m ||
    !document.getElementById('game-over').hidden, t.moves, { timeout: 10_000 });
  const errors = await page.locator('.toast.error').allInnerTexts();
  assert.deepEqual(errors, [], 'no error from the server');
}

// A specialty order's preview: the zone chooser is there, the zone picked
// is the one previewed, the route ends on its zone, and the move announces it.
function checkZone(pv, what) {
  assert.ok(pv.zones.length >= 1, `${what}: a specialty order offers its zones`);
  assert.deepEqual(pv.zones.filter((z) => z.pressed).map((z) => z.code), [pv.to], `${what}: the zone previewed is the one picked`);
  assert.equal(pv.target, pv.toZone, `${what}: the zone ${pv.to} is the target on the map`);
  assert.equal(pv.steps.at(-1)?.id, pv.toZone, `${what}: the route ends on ${pv.to}'s zone`);
  for (const a of [pv.confirm, ...pv.variants].filter(Boolean)) {
    assert.match(a, new RegExp(`^deliver ${pv.slot} from ${pv.from} to ${pv.to}( via|$)`), `${what}: the move goes to ${pv.to}`);
  }
}

// Each zone of a specialty order previewed in turn: by its button, or (every
// other one) by its village on the map. The labels lie under the streets,
// so that click is dispatched to the label itself.
async function previewZones(page, pv, st) {
  for (const [i, z] of pv.zones.entries()) {
    if (i % 2) await page.locator(`#delivery-svg .pd-vlabel[data-village="${z.code}"]`).dispatchEvent('click');
    else await page.locator(`#delivery-preview .pd-zone-choice[data-value="${z.code}"]`).click();
    const p = await page.evaluate(readPreview);
    assert.equal(p.to, z.code, `zone ${z.code} chosen`);
    checkZone(p, `order ${p.slot} from ${p.from} to ${z.code}`);
    if (p.confirm) assert.equal(p.length, p.quoted, `to ${z.code}: the route in the page is as long as the engine's`);
    st.zonesPreviewed++;
  }
}

// A specialty order Ann cannot deliver yet, looked at anyway: the zones come
// from the map alone (no quote, no move), and the route follows the zone picked.
async function lookAtSpecialty(page, t, st) {
  const slot = t.specialties[st.rng(t.specialties.length)];
  const from = t.myVillages[st.rng(t.myVillages.length)];
  await page.locator(`#delivery-orders .pd-order[data-slot="${slot}"]`).click();
  await page.locator(`#delivery-svg .pd-lot.mine[data-value="${from}"]`).click();
  await page.waitForSelector('#delivery-preview');
  const pv = await page.evaluate(readPreview);
  assert.ok(pv.specialty && pv.zones.length >= 1, `order ${slot} from ${from}: the zones to choose from`);
  checkZone(pv, `order ${slot} from ${from}, not on offer`);
  const far = pv.zones.at(-1).code;
  await page.locator(`#delivery-preview .pd-zone-choice[data-value="${far}"]`).click();
  const p = await page.evaluate(readPreview);
  assert.equal(p.to, far);
  checkZone(p, `order ${slot} from ${from} to ${far}, not on offer`);
  assert.equal(p.steps[0].id, p.door, "the route starts at the pizzeria's door");
  assert.ok(p.length >= pv.length, 'the zones are listed nearest first');
  await page.locator('#delivery-preview button[data-pick="clear"]').click();
  assert.equal(await page.locator('#delivery-preview').count(), 0, 'clear takes the preview away');
  st.specialtyLooked++;
}

// A delivery: the order and the pizzeria picked (on the map, or as one of the
// choices), the preview checked, then confirmed.
async function deliver(page, t, st) {
  // Every delivery on offer: its route, computed in the page, is as long as the engine's.
  for (const choice of t.choices) {
    await page.locator(`#actions .pd-delivery-choice[data-value="${choice}"]`).click();
    const pv = await page.evaluate(readPreview);
    assert.equal(`${pv.slot}:${pv.from}`, choice);
    assert.equal(pv.zones.length > 0, pv.specialty, `order ${choice}: a zone to choose exactly when the order is a specialty`);
    if (pv.specialty) {
      checkZone(pv, `order ${choice}`);
      st.specialtyOffered++;
      await previewZones(page, pv, st);
      continue;
    }
    if (!pv.confirm || / via /.test(pv.confirm)) {
      // best (or only) by a ride, a boat or the Park Path: the engine's route is drawn
      assert.ok(pv.confirm || pv.variants.length > 0, `order ${choice}: a way to announce it`);
      assert.equal(pv.steps[0]?.id, pv.door, `order ${choice}: the route starts at the door`);
      st.routesChecked++;
      continue;
    }
    assert.equal(pv.length, pv.quoted, `order ${choice}: the route in the page is as long as the engine's`);
    assert.equal(pv.steps.length, pv.length);
    st.routesChecked++;
  }
  await page.locator('#delivery-preview button[data-pick="clear"]').click();
  assert.equal(await page.locator('#delivery-svg .pd-route').count(), 0, 'clear takes the route away');
  // A specialty order when there is one, so that its zone is chosen and delivered to.
  const special = [];
  for (const c of t.choices) {
    if (await page.locator(`#delivery-orders .pd-order.specialty[data-slot="${c.split(':')[0]}"]`).count()) special.push(c);
  }
  const pool = special.length ? special : t.choices;
  const [slot, from] = pool[st.rng(pool.length)].split(':');
  if (st.delivered % 2 === 0) {
    // On the map: the order's pin at its zone (or the order beside the map), then the pizzeria.
    const pin = page.locator(`#delivery-svg .pd-order-pin[data-slot="${slot}"]`);
    if (await pin.count()) await pin.click();
    else await page.locator(`#delivery-orders .pd-order[data-slot="${slot}"]`).click();
    assert.equal(await page.locator('#delivery-preview').count(), 0, 'no preview before a pizzeria is chosen');
    assert.match(await page.locator('#actions').innerText(), /now click one of your pizzerias/);
    await page.locator(`#delivery-svg .pd-lot.mine[data-value="${from}"]`).click();
  } else {
    await page.locator(`#actions .pd-delivery-choice[data-value="${slot}:${from}"]`).click();
  }
  await page.waitForSelector('#delivery-preview');
  let pv = await page.evaluate(readPreview);
  if (pv.specialty) {
    // Ann picks the zone: any of those offered.
    const zone = pv.zones[st.rng(pv.zones.length)].code;
    await page.locator(`#delivery-preview .pd-zone-choice[data-value="${zone}"]`).click();
    pv = await page.evaluate(readPreview);
    assert.equal(pv.to, zone, `Ann's zone ${zone} is previewed`);
    checkZone(pv, `the delivery of order ${slot}`);
  }
  assert.equal(pv.slot, Number(slot));
  assert.equal(pv.from, from);
  assert.ok(pv.length >= 1, 'a route');
  if (pv.confirm && !/ via /.test(pv.confirm)) {
    // by the streets: the page's own route, checked space by space
    assert.equal(pv.length, pv.quoted, "the route computed in the page is as long as the engine's");
    assert.equal(pv.line, pv.length, 'the route is drawn on the map');
    assert.equal(pv.svgRoute, pv.length);
    assert.equal(pv.steps.length, pv.length, 'every space of the route is numbered');
    assert.deepEqual(pv.steps.map((s) => s.step), pv.steps.map((_, i) => i + 1));
    assert.equal(pv.steps[0].id, pv.door, "the route starts at the pizzeria's door");
    assert.equal(pv.steps[pv.steps.length - 1].id, pv.target, 'and ends at the delivery zone');
    assert.equal(pv.steps.filter((s) => s.free).length, Math.min(pv.length, pv.free), 'the free spaces are marked');
    assert.match(pv.text, new RegExp(`Route: ${pv.length} spaces?`));
    assert.match(pv.text, new RegExp(`Free range: ${pv.free}`));
    assert.match(pv.text, new RegExp(`In all: ${pv.cards} cards?; pays \\$${pv.pay}`));
  } else {
    // only by a ride, a boat or the Park Path: the engine's route is drawn
    assert.equal(pv.steps[0].id, pv.door, "the route starts at the pizzeria's door");
    assert.equal(pv.steps[pv.steps.length - 1].id, pv.target, 'and ends at the delivery zone');
  }
  const action = pv.confirm || pv.variants[0];
  assert.ok(action && action.startsWith(`deliver ${slot} from ${from}`), `a button announces the delivery (${action})`);
  if (!st.phoneShot) {
    // The same page at phone size, preview and all: it fits.
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(150);
    const fit = await page.evaluate(() => {
      const svg = document.getElementById('delivery-svg').getBoundingClientRect();
      const lots = [...document.querySelectorAll('#delivery-svg .pd-lot rect')].map((r) => r.getBoundingClientRect());
      return { width: window.innerWidth, scroll: document.documentElement.scrollWidth, svgLeft: svg.left,
        svgRight: svg.right, lot: Math.min(...lots.map((r) => r.width)),
        actionsFirst: document.getElementById('actions').getBoundingClientRect().top < svg.top };
    });
    assert.ok(fit.scroll <= fit.width, `no sideways scrolling on a phone (${fit.scroll} > ${fit.width})`);
    assert.ok(fit.svgLeft >= 0 && fit.svgRight <= fit.width, 'the map fits the phone');
    assert.ok(fit.svgRight - fit.svgLeft > fit.width * 0.8, 'the map is as wide as the phone');
    assert.ok(fit.lot >= 20, `lots are big enough to tap (${fit.lot} px)`);
    assert.ok(fit.actionsFirst, 'the move to make comes above the map');
    await shot(page, 'delivery');
    await page.setViewportSize(DESKTOP);
    await shot(page, 'delivery-preview');
    st.phoneShot = true;
  }
  if (pv.confirm) await play(page, page.locator('#delivery-confirm'), t);
  else await play(page, page.locator(`#delivery-preview button[data-action="${action}"]`), t);
  if (pv.specialty) {
    // The log says where it went.
    const said = await page.locator('#log li').allInnerTexts();
    assert.ok(said.some((l) => new RegExp(`Ann: deliver order ${slot} from .* to `).test(l)), 'the log tells the zone');
    st.specialtyDelivered++;
  }
  st.delivered++;
  st.routes.push(pv.length);
}

// Building: a lot clicked on the map narrows the moves to its builds.
async function build(page, t, st) {
  const lot = t.buildLots[st.rng(t.buildLots.length)];
  await page.locator(`#delivery-svg .pd-lot[data-value="${lot}"]`).click();
  await page.waitForSelector(`#delivery-svg .pd-lot.selected[data-value="${lot}"]`);
  // (a build's first button pays its price too; "…, end turn" and "choose how to pay" are the others)
  const builds = await page.locator('#actions .pd-group[data-group="build"] button.pd-build:not(.pd-build-done)').evaluateAll(
    (bs) => bs.map((b) => b.dataset.action));
  assert.ok(builds.length >= 1, `builds on ${lot}`);
  for (const b of builds) assert.ok(b.startsWith(`build ${lot} `), `only ${lot}'s builds are offered: ${b}`);
  await play(page, page.locator(`#actions button.pd-build:not(.pd-build-done)[data-action="${builds[st.rng(builds.length)]}"]`), t);
  st.built++;
}

// Upgrading: a pizzeria clicked on the map shows its stack and the upgrades.
async function upgrade(page, t, st, village) {
  await page.locator(`#delivery-svg .pd-lot.mine[data-value="${village}"]`).click();
  const panel = page.locator(`#pd-pizzeria[data-village="${village}"]`);
  await panel.waitFor();
  const ups = await panel.locator('button[data-action]').evaluateAll((bs) => bs.map((b) => b.dataset.action));
  assert.ok(ups.length >= 1, `upgrades of ${village}`);
  for (const u of ups) assert.ok(u.startsWith(`upgrade ${village} `), `only ${village}'s upgrades are offered: ${u}`);
  await play(page, panel.locator(`button[data-action="${ups[st.rng(ups.length)]}"]`), t);
  st.upgraded = (st.upgraded || 0) + 1;
}

async function oneMove(page, t, st) {
  const pick = (list) => list[st.rng(list.length)];
  // a move's own button (not a card or the deck that queues more moves behind it)
  const button = (action) => page.locator(`#actions button[data-action="${action}"]:not([data-then])`);
  st.phases.add(t.phase);
  if (t.actions.some((a) => /^cheese /.test(a))) st.cheeseOffered++;
  if (t.phase === 'keep') {
    // choosing which power card to keep shows each card's text as its tooltip
    for (const a of t.actions.filter((x) => /^keep power:/.test(x))) {
      const title = await button(a).getAttribute('title');
      assert.match(title, /^Keep [A-Z][^—]+ — [^:]+: .{20,}/, `the keep button's tooltip gives the card's text: ${title}`);
    }
    // and every card in the hand says what its ingredient does
    const hand = await page.locator('.pd-card').evaluateAll((cs) => cs.map((c) => c.title));
    assert.ok(hand.length > 0, 'cards on the table');
    for (const h of hand) assert.match(h, /: [A-Za-z ]+( \(\d+ cards\))? — [^(]+ \((a meat|a vegetable|an ANY card|the Extra Cheese)[^)]*\): .{10,}/, `a card's tooltip gives its rule: ${h}`);
  }
  switch (t.phase) {
    case 'start':
      if (st.specialtyLooked < 2 && t.specialties.length && t.myVillages.length) {
        const offered = new Set(t.choices.map((c) => Number(c.split(':')[0])));
        if (t.specialties.some((s) => !offered.has(s))) await lookAtSpecialty(page, { ...t, specialties: t.specialties.filter((s) => !offered.has(s)) }, st);
      }
      if (t.choices.length) return deliver(page, t, st);
      if (t.actions.includes('reputation') && (t.pizzerias.length < 2 || st.rng(3) === 0)) return play(page, button('reputation'), t);
      return play(page, button('market'), t);
    case 'reputation': {
      if (t.buildLots.length && st.rng(5) > 0) return build(page, t, st);
      if (t.actions.includes('done') && st.rng(2) === 0) return play(page, button('done'), t);
      // An upgrade: one of her pizzeria clicked on the map, then a choice in its panel.
      const villages = await page.locator('#actions .pd-pz-choice').evaluateAll((bs) => bs.map((b) => b.dataset.value));
      if (villages.length) return upgrade(page, t, st, pick(villages));
      if (t.buildLots.length) return build(page, t, st);
      return play(page, button(pick(t.actions)), t);
    }
    case 'market':
    case 'bonus':
      // The open market's cards (and the deck) beside the map.
      if (t.market.length) {
        st.marketClicks++;
        return play(page, page.locator(`#delivery-market button[data-action="${pick(t.market)}"]`), t);
      }
      return play(page, button(pick(t.actions)), t);
    default:
      // The small decisions: a card in the hand, or the move's button.
      if (t.hand.length && st.rng(2) === 0) {
        st.handClicks++;
        return play(page, page.locator(`#delivery-hand button[data-action="${pick(t.hand)}"]`), t);
      }
      assert.ok(t.actions.length > 0, `moves offered in phase ${t.phase}`);
      return play(page, button(pick(t.actions)), t);
  }
}

test('Ann plays New York Pizza Delivery against two bots by clicking, previews deliveries, reaches the scores',
  { timeout: GAME_MS + 30_000 }, async () => {
    const started = Date.now();
    const ann = await openPage(DESKTOP);
    await ann.goto(url);
    // The lobby offers the game, for 2 to 6 players (5 and 6 with the expansion's cards).
    assert.ok((await ann.locator('#game option').allInnerTexts()).includes('New York Pizza Delivery'));
    await ann.selectOption('#game', 'delivery');
    assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['2', '3', '4', '5', '6']);
    await ann.selectOption('#players-count', '6');
    assert.equal(await ann.locator('select[name=seat5]').isVisible(), true, 'a sixth seat');
    assert.equal(await ann.locator('#expansion').isVisible(), false, '6 players always play with the expansion');
    assert.equal(await ann.locator('#expansion-powers').isVisible(), false, 'and with its power cards');
    assert.equal(await ann.locator('#extra-cheese').isVisible(), true, 'Extra Cheese is a choice for 6 players');
    await ann.selectOption('#players-count', '3');
    assert.equal(await ann.locator('#expansion').isVisible(), true, 'for 3 players the expansion is a choice');
    assert.equal(await ann.locator('#expansion-powers').isVisible(), true, 'and its power cards alone, the rulebook\'s');
    assert.equal(await ann.locator('#extra-cheese').isVisible(), true, 'and so is Extra Cheese');
    await ann.check('#extra-cheese');
    await ann.fill('#name', 'Ann');
    await ann.selectOption('select[name=seat1]', 'greedy');
    await ann.selectOption('select[name=seat2]', 'random');
    await ann.click('#create');
    await ann.waitForSelector('#delivery-svg');
    assert.equal(await ann.locator('#table').getAttribute('data-game'), 'delivery');
    assert.equal(await ann.locator('#pizza').isVisible(), false, 'no New York Slice pizza');
    assert.equal(await ann.locator('#theory-board').isVisible(), false, 'no Pizza Theory board');

    // The map: streets, villages, lots with prices, zones, docks, subway, the Park Path.
    const map = await ann.evaluate(() => {
      const svg = document.getElementById('delivery-svg');
      const n = (sel) => svg.querySelectorAll(sel).length;
      return {
        spaces: n('.pd-space'), roads: n('.pd-road'), park: n('.pd-road.park'), lots: n('.pd-lot'),
        prices: [...svg.querySelectorAll('.pd-lot text')].map((t) => t.textContent),
        zones: n('.pd-zone'), docks: n('.pd-dock'), red: n('.pd-space.line-red'), blue: n('.pd-space.line-blue'),
        labels: n('.pd-vlabel'), pins: n('.pd-order-pin'),
      };
    });
    assert.ok(map.spaces > 50 && map.roads > map.spaces, `streets drawn (${map.spaces} spaces, ${map.roads} roads)`);
    assert.equal(map.lots, 24, '3 lots in each of the 8 villages with lots');
    for (const p of map.prices) assert.match(p, /^\$[2-8]$/, 'each lot shows its price');
    assert.equal(map.zones, 9, 'a delivery zone for each village');
    assert.equal(map.labels, 9, 'each village labelled');
    assert.ok(map.docks >= 5 && map.red >= 5 && map.blue >= 5 && map.park >= 2, 'docks, subway stations, the Park Path');
    assert.ok(map.pins >= 1, 'orders pinned to their zones');
    assert.equal(await ann.locator('#delivery-orders .pd-order').count(), 4, 'four orders');
    assert.equal(await ann.locator('#players .pd-player').count(), 3);
    assert.match(await ann.locator('#players').innerText(), /Greedy 2[\s\S]*Random 3/);

    const st = {
      rng: seeded(17), phases: new Set(), delivered: 0, built: 0, routes: [], marketClicks: 0, handClicks: 0,
      phoneShot: false, moves: 0, routesChecked: 0, specialtyOffered: 0, zonesPreviewed: 0, specialtyDelivered: 0, specialtyLooked: 0,
      cheeseOffered: 0,
    };
    const deadline = Date.now() + GAME_MS;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game ends within ${GAME_MS / 1000} s (Ann made ${st.moves} moves)`);
      const t = await ann.evaluate(readTable);
      if (t.over) break;
      if (!t.myTurn || t.busy) {
        await ann.waitForFunction((m) => {
          const table = document.getElementById('table');
          return !document.getElementById('game-over').hidden ||
            (table.dataset.myTurn === 'true' && Number(document.getElementById('delivery-board').dataset.moves) >= m &&
             !document.querySelector('#actions button[data-action][disabled]'));
        }, t.moves, { timeout: 20_000 });
        continue;
      }
      if (st.moves === 40) await shot(ann, 'delivery-desktop');
      await oneMove(ann, t, st);
      st.moves++;
    }

    // The result screen: everyone's score.
    const over = ann.locator('#game-over');
    assert.ok(await over.isVisible(), 'the result screen is shown');
    const text = await over.innerText();
    assert.match(text, /Game over/);
    assert.match(text, /wins\.|Shared win/);
    for (const name of ['Ann', 'Greedy 2', 'Random 3']) assert.match(text, new RegExp(name));
    const rows = await ann.locator('#game-over .pd-score-table tr[data-seat]').count();
    assert.equal(rows, 3, 'a score line for each player');
    const scores = await ann.locator('#game-over .pd-score').allInnerTexts();
    for (const s of scores) assert.match(s, /^\d+$/, 'each score is a number');
    assert.match(await ann.locator('#prompt').innerText(), /Game over/);
    assert.equal(await ann.locator('#actions').isVisible(), false, 'no moves on offer');
    assert.ok(await ann.locator('#replay').isVisible(), 'a finished table can be replayed');
    await shot(ann, 'delivery-over');

    // The replay goes back to the start: nobody has a pizzeria yet.
    await ann.click('#replay button[data-step="0"]');
    await ann.waitForFunction(() => /replay/.test(document.getElementById('headline').textContent) &&
      document.querySelectorAll('#delivery-svg .pd-lot.pizzeria').length === 0, null, { timeout: 5000 });
    await ann.click('#replay button[title="the end"]');
    await ann.waitForSelector('#game-over:not([hidden])');

    assert.ok(st.delivered >= 1, 'Ann delivered through the preview');
    assert.ok(st.built >= 1, 'Ann built on a lot clicked on the map');
    assert.ok(st.phoneShot, 'the phone-size screenshot was taken');
    assert.ok(st.marketClicks >= 1, 'Ann took cards from the open market');
    assert.deepEqual(problems, [], 'no errors in the pages');
    // A specialty delivery depends on the deal (the server picks the seed): counted, not required.
    console.log(`# specialty orders: ${st.specialtyOffered} offered, ${st.zonesPreviewed} zones previewed, ${st.specialtyDelivered} delivered, ` +
      `${st.specialtyLooked} looked at before they could be delivered; Extra Cheese offered ${st.cheeseOffered} times`);
    console.log(`# ${st.moves} moves by Ann, ${st.built} builds, ${st.delivered} deliveries (routes ${st.routes.join(', ')}; ${st.routesChecked} previews checked), ` +
      `phases ${[...st.phases].join(' ')}, ${Date.now() - started} ms; ${/Game over\s+(.*)/.exec(text)[1]}`);
  });

// ---- Co-op (PD-C1) ----

// The team panel as drawn.
function readTeam() {
  const team = document.getElementById('delivery-team');
  const panel = team.querySelector('.pd-team');
  if (team.hidden || !panel) return null;
  const days = [...panel.querySelectorAll('.pd-week .pd-day')];
  return {
    money: Number(panel.dataset.money), moneyGoal: Number(panel.dataset.moneyGoal),
    pizzas: Number(panel.dataset.pizzas), pizzasGoal: Number(panel.dataset.pizzasGoal),
    day: panel.dataset.day, result: panel.dataset.result,
    days: days.map((d) => d.dataset.day), today: days.filter((d) => d.dataset.today === 'true').map((d) => d.dataset.day),
    pawns: panel.querySelectorAll('.pd-pawn').length,
    promos: [...panel.querySelectorAll('.pd-promo')].map((p) => ({
      day: p.closest('.pd-day').dataset.day, colour: p.dataset.colour, when: p.dataset.when, asleep: p.dataset.asleep === 'true' })),
    markers: [...panel.querySelectorAll('.pd-marker')].map((m) => m.textContent),
    bars: panel.querySelectorAll('svg.pd-bar').length,
    next: panel.querySelector('.pd-next-promo')?.textContent ?? null,
    ordersLeft: panel.querySelector('.pd-orders-left')?.textContent ?? null,
    firstRound: Boolean(panel.querySelector('.pd-first-round')),
    text: panel.innerText,
  };
}

// Market and power cards in a seat's hand, as its panel's Hand line says ("3 cards + 1 power card").
const cardsOf = (page, seat) => page.locator(`#players .pd-player[data-seat="${seat}"] .pd-hand-size`).locator('xpath=..')
  .innerText().then((t) => { const m = /Hand\s+(\d+) cards?(?:\s*\+\s*(\d+) power cards?)?/.exec(t); return Number(m[1]) + Number(m[2] || 0); });

test('Ann and a bot play New York Pizza Delivery as a team: the team panel, Transfer Goods, the team\'s result',
  { timeout: GAME_MS + 30_000 }, async () => {
    const started = Date.now();
    const ann = await openPage(DESKTOP);
    await ann.goto(url);
    // The co-op choice is New York Pizza Delivery's; with it, a table for one and a difficulty row.
    assert.equal(await ann.locator('#coop').isVisible(), false, 'no co-op for New York Slice');
    await ann.selectOption('#game', 'delivery');
    assert.equal(await ann.locator('#coop').isVisible(), true, 'co-op is a choice for New York Pizza Delivery');
    assert.equal(await ann.locator('#difficulty').isVisible(), false, 'the difficulty only for co-op');
    await ann.check('#coop');
    assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['1', '2', '3', '4', '5', '6']);
    const rows = await ann.locator('#difficulty option').allInnerTexts();
    assert.equal(rows.length, 8, 'eight difficulty rows');
    assert.equal(rows[3], '4 — Blue $11, Red $13, 30 pizzas, $60');
    assert.match(rows[0], /hardest/);
    assert.match(rows[7], /easiest/);
    assert.equal(await ann.locator('#difficulty').inputValue(), '4', 'row 4 by default');
    await ann.selectOption('#players-count', '1');
    assert.equal(await ann.locator('select[name=seat1]').isVisible(), false, 'a table for one');
    await ann.uncheck('#coop');
    assert.deepEqual(await ann.locator('#players-count option').allInnerTexts(), ['2', '3', '4', '5', '6'], 'alone only in co-op');
    await ann.check('#coop');
    await ann.selectOption('#players-count', '2');
    await ann.selectOption('#difficulty', '7');
    // single markers: each select offers its column's values, set to the row's
    assert.equal(await ann.locator('#marker-red').inputValue(), '19', "row 7's Red marker");
    assert.deepEqual(await ann.locator('#marker-red option').allInnerTexts(),
      ['$10', '$11', '$12', '$13', '$15', '$17', '$19', '$21']);
    await ann.selectOption('#marker-red', '21');
    // Insane and Easier exclude each other; Top Chef goes with either
    await ann.check('#coop-easier');
    await ann.check('#coop-insane');
    assert.equal(await ann.locator('#coop-easier').isChecked(), false, 'Insane clears Easier');
    await ann.check('#top-chef');
    await ann.fill('#name', 'Ann');
    await ann.selectOption('select[name=seat1]', 'greedy');
    await ann.click('#create');
    await ann.waitForSelector('#delivery-team .pd-team');

    // The team panel: row 7's goals and markers, the week from Saturday, Friday's promotion.
    const t0 = await ann.evaluate(readTeam);
    assert.deepEqual([t0.money, t0.moneyGoal, t0.pizzas, t0.pizzasGoal], [0, 45, 0, 20], "row 7's goals");
    assert.equal(t0.bars, 2, 'a bar for the money and one for the pizzas');
    assert.deepEqual(t0.markers, ['Blue promotion at $17', 'Red promotion at $21'], 'the Red marker moved alone');
    assert.match(t0.text, /Insane Difficulty: .* · Top Chef by the die at the end/);
    assert.deepEqual(t0.days, ['Saturday', 'Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    assert.deepEqual(t0.today, ['Saturday']);
    assert.equal(t0.pawns, 1, 'one pawn on the week');
    assert.deepEqual(t0.promos, [{ day: 'Friday', colour: 'friday', when: 'evening', asleep: false }]);
    assert.equal(t0.next, 'Next promotion in 6 turns (Friday): 2 orders');
    assert.match(t0.ordersLeft, /Order cards left: 14 · pushed into the sewer: 0/);
    assert.ok(t0.firstRound, 'the first round is free property');
    assert.match(await ann.locator('#headline').innerText(), /Co-op · Saturday/);
    assert.equal(await ann.locator('#players .pd-money').count(), 0, "no money of one's own in co-op");
    assert.equal(await ann.locator('#delivery-orders .pd-order.empty').count(), 4, 'no order yet');

    const st = {
      rng: seeded(29), phases: new Set(), delivered: 0, built: 0, routes: [], marketClicks: 0, handClicks: 0,
      phoneShot: true, moves: 0, routesChecked: 0, specialtyOffered: 0, zonesPreviewed: 0, specialtyDelivered: 0, specialtyLooked: 2,
      passes: 0, transfers: 0, days: new Set(), ordersSeen: 0, transferPhone: false, timed: 0,
    };
    const deadline = Date.now() + GAME_MS;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game ends within ${GAME_MS / 1000} s (Ann made ${st.moves} moves)`);
      const t = await ann.evaluate(readTable);
      if (t.over) break;
      if (!t.myTurn || t.busy) {
        await ann.waitForFunction((m) => {
          const table = document.getElementById('table');
          return !document.getElementById('game-over').hidden ||
            (table.dataset.myTurn === 'true' && Number(document.getElementById('delivery-board').dataset.moves) >= m &&
             !document.querySelector('#actions button[data-action][disabled]'));
        }, t.moves, { timeout: 20_000 });
        continue;
      }
      const team = await ann.evaluate(readTeam);
      st.days.add(team.day);
      st.ordersSeen = Math.max(st.ordersSeen, await ann.locator('#delivery-orders .pd-order:not(.empty)').count());
      if (t.phase === 'promotion') {
        // Insane: the marker Ann's move reached; she times the back-side token's pizza
        assert.deepEqual([...t.actions].sort(), ['evening', 'morning'], 'morning or evening, nothing else');
        assert.match(await ann.locator('#actions').innerText(), /back-side pizza in the (morning|evening)/i);
        assert.match(await ann.locator('#prompt').innerText(), /with Insane's back-side token: its one more pizza comes in \w+'s morning or evening/);
        st.timed++;
      }
      if (t.phase !== 'transfer') {
        await oneMove(ann, t, st);
        st.moves++;
        continue;
      }
      // Transfer Goods: each card with a button to the neighbour (with two players, one), and done.
      st.transfers++;
      const passes = await ann.locator('#actions .pd-transfer button.pd-pass').evaluateAll(
        (bs) => bs.map((b) => ({ action: b.dataset.action, text: b.textContent, label: b.getAttribute('aria-label') })));
      assert.ok(passes.length >= 1, 'cards to pass');
      for (const p of passes) {
        assert.match(p.action, /^pass \S+ left$/, 'two players: only the one neighbour');
        assert.match(p.text, /to Greedy 2/);
        assert.match(p.label, /^Pass .+ to Greedy 2$/);
      }
      assert.equal(await ann.locator('#actions button[data-action="end"]').innerText(), 'Done: end the turn');
      if (!st.transferPhone) {
        // The phone: the passes come first, nothing scrolls sideways, the team panel is there.
        await ann.setViewportSize(PHONE);
        await ann.waitForTimeout(150);
        const fit = await ann.evaluate(() => {
          const box = (id) => document.getElementById(id).getBoundingClientRect();
          return { width: window.innerWidth, scroll: document.documentElement.scrollWidth, actions: box('actions'),
            team: box('delivery-team'), map: box('delivery-svg') };
        });
        assert.ok(fit.scroll <= fit.width, `no sideways scrolling on a phone (${fit.scroll} > ${fit.width})`);
        assert.ok(fit.actions.top < fit.team.top && fit.team.top < fit.map.top, 'the passes, then the team, then the map');
        assert.ok(fit.team.width > fit.width * 0.8 && fit.team.right <= fit.width, 'the team panel fits the phone');
        await shot(ann, 'delivery-coop-phone');
        await ann.setViewportSize(DESKTOP);
        st.transferPhone = true;
      }
      if (st.passes === 0 || st.rng(3) === 0) {
        const before = await cardsOf(ann, 1);
        const p = passes[st.rng(passes.length)];
        await play(ann, ann.locator(`#actions button[data-action="${p.action}"]`), t);
        // (a pass of Ann's last card ends her turn at once, and the bot plays on)
        const still = await ann.evaluate((m) => Number(document.getElementById('delivery-board').dataset.moves) === m + 1, t.moves);
        if (still) assert.equal(await cardsOf(ann, 1), before + 1, 'the card went to Greedy 2');
        const said = await ann.locator('#log li').allInnerTexts();
        assert.ok(said.some((l) => /^Ann: pass .+ to Greedy 2$/.test(l)), `the log tells the pass (${said.slice(-3)})`);
        if (st.passes === 0) await shot(ann, 'delivery-coop');
        st.passes++;
        st.moves++;
        continue;
      }
      await play(ann, ann.locator('#actions button[data-action="end"]'), t);
      st.moves++;
    }

    // The result: the team's, with the record code; the panel says it too.
    const over = ann.locator('#game-over');
    assert.ok(await over.isVisible(), 'the result screen is shown');
    const text = await over.innerText();
    assert.match(text, /Game over/);
    assert.match(text, /The team (won: both goals met|lost: .+)\./);
    const code = await ann.locator('#pd-record-code').innerText();
    const won = /^Win/.test(code);
    assert.match(code, /^(Win|Loss) 2PL - B17 - R21 - P20 - M45 - Insane$/, 'the rulebook\'s record code');
    assert.match(await ann.locator('#game-over .pd-top-chef').innerText(),
      /^Top Chef \(die [1-6]: [a-z -]+\): (Ann|Greedy 2|Ann and Greedy 2)( \(shared\))?\neach player's value: Ann \d+ · Greedy 2 \d+$/,
      'the Top Chef by the die, with each player\'s value');
    assert.equal(/The team won/.test(text), won);
    assert.equal(await ann.locator('#game-over .pd-team-table tr[data-seat]').count(), 2, 'each player\'s deliveries');
    const end = await ann.evaluate(readTeam);
    assert.equal(end.result === 'won', won);
    assert.match(end.text, won ? /The team won/ : /The team lost/);
    assert.equal(await ann.locator('#players .badge.turn', { hasText: 'winner' }).count(), won ? 2 : 0, 'both win or neither');
    assert.equal(await ann.locator('#players .pd-money').count(), 0);
    await shot(ann, 'delivery-coop-over');

    assert.ok(st.passes >= 1, 'Ann passed a card');
    assert.ok(st.built >= 1, 'Ann built');
    assert.ok(st.days.size >= 3, `the pawn moved on (${[...st.days]})`);
    assert.ok(st.ordersSeen >= 1, 'a promotion brought orders');
    assert.deepEqual(problems, [], 'no errors in the pages');
    console.log(`# co-op: ${st.moves} moves by Ann, ${st.transfers} Transfer Goods phases, ${st.passes} cards passed, ` +
      `${st.built} builds, ${st.delivered} deliveries, ${st.timed} promotion pizzas timed, ${Date.now() - started} ms; ${code}`);
  });

// ---- Instant cards and Out of Supplies ----

const takeSeat = (page, base, joined) => openSeat(page, base, joined, '#delivery-svg');

const boardMoves = (page) => page.evaluate(() => Number(document.getElementById('delivery-board').dataset.moves));

test('the Instant card panel plays its card, or with none to play only lets the delivery go; an Out of Supplies debt shows and is paid by a click', { timeout: 120_000 }, async () => {
  const rec = opponentCardGames()[0];
  assert.ok(rec, 'selfplay has a game with an Instant card and Out of Supplies');
  const seeded = await startServer(join(tempDir('pizzabox-delivery-'), 'seeded.db'), { env: { PIZZABOX_TABLE_SEED: String(rec.seed) } });
  const site = `http://localhost:${seeded.port}/`;
  const clients = [];
  try {
    for (let i = 0; i < 6; i++) clients.push(await Client.connect(seeded.url, `P${i + 1}`));
    const record = (msg) => rec.actions[msg.moves];

    // An Instant card: the bots' game up to the question, then Ann's page answers it.
    const inst = rec.actions.findIndex((a) => /^instant /.test(a));
    const one = await humanTable(clients, { game: 'delivery' });
    const { end: asked } = await driveSeats(clients, one[0].code, record, { stop: (m) => m.moves === inst });
    const seat = asked.view.to_move;
    const question = await viewAt(clients[seat], one[0].code, inst);
    const ins = question.view.instant;
    const page = await openPage(DESKTOP);
    await takeSeat(page, site, one[seat]);
    await page.waitForSelector('#delivery-instant');
    const panel = await page.evaluate(() => {
      const p = document.getElementById('delivery-instant');
      return { text: p.innerText, deliverer: Number(p.dataset.deliverer), tips: Number(p.dataset.tips),
        actions: [...p.querySelectorAll('button[data-action]')].map((b) => b.dataset.action) };
    });
    assert.equal(panel.deliverer, ins.deliverer);
    assert.equal(panel.tips, ins.tips);
    assert.match(panel.text, new RegExp(`P${ins.deliverer + 1} delivered: play an Instant card\\?`));
    assert.match(panel.text, new RegExp(`took ${ins.tips} tip tokens?`));
    assert.deepEqual(panel.actions.toSorted(), question.view.legal.toSorted(), 'a button for each answer');
    assert.match(await page.locator('#delivery-instant button[data-action="done"]').innerText(), /^Let it go/);
    assert.match(await page.locator('#delivery-now').innerText(), /You may answer it with an Instant card/);
    await shot(page, 'delivery-instant');
    const action = rec.actions[inst];
    await page.locator(`#delivery-instant button[data-action="${action}"]`).click();
    await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) > m, inst, { timeout: 10_000 });
    assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
    const told = await clients[(seat + 1) % 6].waitFor((m) => m.type === 'view' && m.code === one[0].code && m.moves > inst, 5000, 'the card played');
    const entry = told.log.find((e, i) => told.moves - told.log.length + i === inst);
    assert.deepEqual({ seat: entry.seat, text: entry.text }, { seat, text: action });
    if (/traffic-jam|rough-delivery/.test(action)) assert.match(entry.news || '', /tip token goes back face down/, 'the log says what the card did');
    assert.match((await page.locator('#log li').allInnerTexts()).join('\n'), new RegExp(`P${seat + 1}: play the Instant card`));

    // No card to play: at a table of people the seat is asked all the same
    // (the server answers for it only among bots), and its panel lets it go.
    const three = await humanTable(clients, { game: 'delivery' });
    const { end: idle } = await driveSeats(clients, three[0].code, record, { stop: isFormality });
    assert.deepEqual(idle.view.legal, ['done'], 'a seat with no card to play is asked');
    await takeSeat(page, site, three[idle.seat]);
    await page.waitForSelector('#delivery-instant');
    assert.deepEqual(await page.locator('#delivery-instant button[data-action]').evaluateAll((bs) => bs.map((b) => b.dataset.action)),
      ['done'], 'only a button to let it go');
    assert.match(await page.locator('#delivery-now').innerText(), /You may answer it with an Instant card/, 'asked like anyone');
    await page.locator('#delivery-instant button[data-action="done"]').click();
    await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) > m, idle.moves, { timeout: 10_000 });
    assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
    const heard = await clients[(idle.seat + 1) % 6].waitFor((m) => m.type === 'view' && m.code === three[0].code && m.moves > idle.moves,
      5000, 'the delivery let go');
    assert.deepEqual(heard.log.find((e) => e.move === idle.moves), { move: idle.moves, seat: idle.seat, text: 'done' });

    // Out of Supplies: the bots' game up to its victim's turn, then Ann's page pays.
    const oos = rec.actions.findIndex((a) => /^play power:out-of-supplies on \d$/.test(a));
    const victim = Number(rec.actions[oos].split(' on ')[1]) - 1;
    const two = await humanTable(clients, { game: 'delivery' });
    await driveSeats(clients, two[0].code, record,
      { stop: (m) => m.moves > oos && m.view.to_move === victim && m.view.phase === 'start' });
    await takeSeat(page, site, two[victim]);
    const debt = page.locator(`#players .pd-player[data-seat="${victim}"] .pd-supplies-due`);
    await debt.waitFor();
    assert.equal(await debt.innerText(), '$2', 'the debt on the player panel');
    assert.match(await page.locator('#prompt').innerText(), /You owe \$2 \(Out of Supplies\)/);
    const pay = await page.locator('#actions .pd-group[data-group="supplies"] button[data-action]').evaluateAll(
      (bs) => bs.map((b) => ({ action: b.dataset.action, text: b.textContent })));
    assert.ok(pay.length >= 1, 'buttons to pay it');
    for (const p of pay) assert.match(p.text, /^Pay (\$2 for Out of Supplies|Out of Supplies with .+ and .+)$/);
    assert.equal(await page.locator('#actions button[data-action^="deliver "], #actions .pd-delivery-choice').count(), 0, 'no delivery yet');
    await shot(page, 'delivery-supplies');
    const chosen = pay.find((p) => p.action === 'supplies $2') || pay[0];
    const before = await boardMoves(page);
    await page.locator(`#actions button[data-action="${chosen.action}"]`).click();
    await page.waitForFunction((m) => Number(document.getElementById('delivery-board').dataset.moves) > m, before, { timeout: 10_000 });
    assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
    assert.equal(await debt.count(), 0, 'nothing owed now');
    assert.equal(await page.locator('#table').getAttribute('data-phase'), 'start', 'and the turn goes on');
    assert.deepEqual(problems, [], 'no errors in the pages');
    console.log(`# ${action} clicked at move ${inst}; let go at move ${idle.moves}; Out of Supplies paid with ${chosen.action} at move ${before}`);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await stopServers([seeded]);
  }
});
