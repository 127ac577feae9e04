// delivery-clicks.test.mjs -- how many clicks a whole game of New York Pizza
// Delivery takes in the browser (issue 21, point 6: "at most half the clicks").
//
// Ann plays a 3-player game at 1366x768 against two opponents that play by
// the same fixed policy, sent by WebSocket from this test (Ben and Cleo at
// the other two seats of her table). Every table is dealt from one seed
// (PIZZABOX_TABLE_SEED), and no choice is left to chance, so the game is the
// same on every run and with any page: the server's bots would not do, for
// their choices are seeded by the table's move count, which changes when a
// payment goes as one move instead of a dollar or a card at a time. Her
// decisions come from the policy, reading her view only (part a, no markup
// in it); a driver turns each decision into clicks on the page (part b), the
// only part that knows the markup. Every click of hers is counted, and every
// move her page sends; before each click the page is put back at its top
// and the control looked for on the 1366x768 screen: a decision with a
// control below the fold (or covered) needed a scroll. The counts go to
// build/delivery-clicks.json (with every decision of the game) and the
// test's output; the screen the first time a control of a phase was off it
// to build/screenshots/delivery-clicks-PHASE.png; the start of a turn, a
// delivery's preview and the market, at 1366x768 and on a phone, to
// build/screenshots/delivery-turn-{start,preview,market}[-phone].png.
//
// When the Delivery page changes, rewrite the driver (part b) and keep the
// policy: the game, and the decisions in it, stay the same (the game's
// fingerprint, a hash of everyone's decisions, says so), so the counts
// compare one game before and after. One click may carry several moves now
// (web/queue.js: the moves queued behind it are sent as the views allow):
// the decisions those moves make are each checked against the policy on
// the view the page sent them from, and counted as decisions (with no click);
// a delivery's ingredients joined in one move ("use A B") count as the
// decisions Ann would make one at a time, so the fingerprint is the
// baseline's: the same 106 decisions in the same order.
//
// Baseline: the Delivery page before issue 21's rework (main at 84b1e03,
// 27 Nov 2026; the same figures on every run), game 84b2e1d7b5662709:
//   clicks: 134, moves: 123, decisions: 106; 50 decisions needed a scroll at
//   1366x768: the panel of moves starts below the orders, the market and the
//   hand, so its buttons are under the fold ("end the turn" 21 times, the
//   market 10 times and the reputation action 3, every delivery's confirm,
//   4 upgrades, 2 "done", 3 fines, 3 ingredient steps).
//   Ann's decisions by kind: keep 1, build 3, reputation 3 (then 4 upgrades
//   and 2 "done"), pay 9 (3 builds in 11 moves, 3 distances in 7, 3 discards
//   in 6: a dollar or a card a click), market 16, take 32, deliver 4, fine 3,
//   ingredients 8 (use 6, short 2), end 21. Moves beyond decisions: the
//   payments' 15, and "reputation" before 2 builds. Clicks beyond moves: 2 a
//   delivery (the order, the pizzeria), 1 a build (the lot). Cleo wins (Ann
//   16, Ben 14, Cleo 21). The run takes 30-60 s.
//
// After (issue 21's rework, this page; the same game, 84b2e1d7b5662709):
//   clicks: 65, moves: 107, decisions: 106, none needing a scroll; 59
//   decisions went by moves queued behind a click. What one click carries:
//   a market card at the start of a turn ("market", then "take" it; "Deck
//   ×2": both takes from the deck): 16 market turns in 16 clicks, plus 4
//   for a second card from the open market; "End my turn after my action"
//   clicked once: no "end" clicked after an action again; a lot clicked at
//   the start ("reputation") and its build button with the price ("pay $2
//   UE/Peppers CP/Tomatoes"): 2 clicks a build; one of her pizzerias chosen
//   at the start ("reputation"), then its upgrade: 1 click each; a
//   delivery's Confirm with its ingredients when the hand leaves no choice
//   ("use A B", "short") and its distance ("pay A B C"): 2 clicks a delivery
//   (the choice, Confirm). Clicks by kind: keep 1, the toggle 1, builds 6,
//   market 16, second takes 4, deliveries 8, reputation 3, upgrades 5 (a
//   second pizzeria chosen once), the ingredients of the delivery where the
//   hand had a choice 4, fines 3, "done" 2, discards 12 (4 each: the page
//   suggests other cards than Ann keeps, so she clears its choice, picks two
//   and confirms).
//
// The policy (part a), from the view: keep the first power card offered;
// deliver the order that pays most (fewest cards, then by the streets, then
// the lowest order); else build on the cheapest free lot of a village where
// Ann holds a card and has no pizzeria, while she has fewer than 3; else
// raise her pizzerias' reputation with 5 or more cards in hand, one of them
// for a pizzeria below its limit (its village's or Central Park's: a disk on
// the pizzeria with the fewest); else go to market and take the open cards
// on the orders (else the deck); pay money first, then the least useful
// cards, then power cards (a fine in money, else the two least useful
// cards); discard the least useful; never play a power card ("end" the
// turn); otherwise the move giving up the least useful card.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { Client, ROOT, startServer, stopServers, tempDir, viewAt } from '../server/helpers.mjs';

const SCREEN = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const SEED = 20261127;        // the deal, and the bots' choices
const OPPONENTS = ['Ben', 'Cleo'];   // played by the policy too, by messages (see the header)
const GAME_MS = 150_000;    // a deadline against a hang: the game takes 30-45 s (more on a busy machine)
// Issue 21 wants no decision to need a scroll at 1366x768: a scroll fails the test.
const NO_SCROLL = true;
// The old page's counts (see the header), and the game they were counted on:
// the fingerprint of the game's decisions, which no page changes. Issue 21
// wants at most half the clicks on that game: fewer fail the test.
const BASELINE = { clicks: 134, moves: 123, decisions: 106, scrolls: 50, game: '84b2e1d7b5662709' };
const HALVED = true;

// ---- (a) The policy: what Ann does, from her view alone ----
//
// A decision is one intention: {kind, ...}. Payments are one intention for
// the whole price (the driver may need several clicks and moves for it).
//   keep {card}                 keep this power card
//   deliver {slot, from, to, move}  deliver an order from a pizzeria (to a zone)
//   build {lot, card}           increase reputation: build on a lot with a card
//   upgrade {move}              upgrade a pizzeria (a reputation step)
//   market {}                   go to the market
//   reputation {}               increase reputation (to upgrade: the upgrades follow)
//   take {card}                 take a card from the open market ("deck": the deck)
//   pay {verb, items}           pay a price: items ('$1', cards, power cards) in order
//   move {move}                 any other decision, by its notation

const villageOf = (card) => String(card).split('/')[0];
const ingredientOf = (card) => String(card).split('/')[1] || '';
const HAND_LIMIT = 10;      // PD-T5
const UPGRADE_HAND = 5;     // Ann upgrades with this many cards in hand, or more
const words = (l) => l.split(' ');

function mine(v) {
  return v.players[v.seat];
}

// A power card as the moves name it.
const powerCard = (id) => (/^power:/.test(id) ? id : `power:${id}`);
const powersOf = (v) => (v.powers || []).map(powerCard);

// A market card as the moves name it: the view says "Central Park/Ham", a move "CP/Ham".
function cardCode(v, name) {
  const [village, ingredient] = String(name).split('/');
  const vl = v.map.villages.find((x) => x.name === village);
  return vl && ingredient ? `${vl.code}/${ingredient}` : name;
}

// The cards of the hand, one entry per card.
function handCards(v) {
  return (v.hand || []).flatMap((h) => Array(h.count).fill(cardCode(v, h.card)));
}

// How much a card is worth keeping: it is on an order (twice as much for
// the order's own village), or it lets Ann build where she has no pizzeria.
function worth(v, card) {
  if (/^power:/.test(card)) return 3;
  let n = 0;
  for (const o of v.orders || []) {
    if (!o) continue;
    if ((o.cards || []).some((c) => cardCode(v, c) === card)) n += 2;
    if ((o.needs || []).some((x) => x.ingredient === ingredientOf(card).toLowerCase())) n += 1;
  }
  const have = new Set(mine(v).pizzerias.map((p) => p.village));
  if (mine(v).pizzerias.length < 3 && !have.has(villageOf(card))) n += 1;
  return n;
}

// Least worth first, then by name: what goes first when Ann pays or discards.
function byWorth(v, cards) {
  return [...cards].sort((a, b) => worth(v, a) - worth(v, b) || a.localeCompare(b));
}

// The build Ann would make now: the cheapest free lot in a village where she
// has no pizzeria and holds a card of, that money and the other cards pay.
function bestBuild(v) {
  const me = mine(v);
  if (me.pizzerias.length >= 3 || me.disks === 0) return null;
  const taken = new Set(v.players.flatMap((p, s) => [...p.pizzerias.map((z) => z.lot), ...(s === v.seat ? [] : p.reserved_lots || [])]));
  const have = new Set(me.pizzerias.map((p) => p.village));
  const hand = handCards(v);
  const budget = me.money + hand.length + powersOf(v).length - 1;
  const lots = v.map.lots.filter((l) => !taken.has(l.id) && !have.has(l.village) && l.cost <= budget &&
    hand.some((c) => villageOf(c) === l.village))
    .sort((a, b) => a.cost - b.cost || a.id.localeCompare(b.id));
  if (!lots.length) return null;
  const lot = lots[0];
  const card = byWorth(v, hand.filter((c) => villageOf(c) === lot.village))[0];
  return { kind: 'build', lot: lot.id, card, move: `build ${lot.id} ${card}` };
}

// The cards of the hand that can upgrade one of Ann's pizzerias below its
// limit: its village's, or Central Park's.
function upgradeCards(v) {
  const open = new Set(mine(v).pizzerias.filter((p) => p.reputation < p.limit).map((p) => p.village));
  return open.size ? handCards(v).filter((c) => open.has(villageOf(c)) || villageOf(c) === 'CP') : [];
}

// A price: money first (a dollar a move today), then the least useful cards,
// then power cards; `due` items in all.
function payment(v, verb, due) {
  const money = Array((v.legal || []).includes(`${verb} $1`) ? Math.min(due, mine(v).money) : 0).fill('$1');
  // not the cards already set aside: the one built with, those supplied or paid
  const pe = v.pending || {};
  const hand = handCards(v);
  for (const c of [pe.card, ...(pe.cards || []).flatMap((x) => Array(x.count).fill(x.card))].filter(Boolean)) {
    hand.splice(hand.indexOf(cardCode(v, c)), 1);
  }
  const powers = powersOf(v).filter((p) => !(pe.powers || []).map(powerCard).includes(p));
  const rest = [...byWorth(v, hand), ...powers].slice(0, due - money.length);
  return { kind: 'pay', verb, items: [...money, ...rest] };
}

// The delivery that pays most; then the one taking fewest cards, by the streets, the lowest order.
function bestDelivery(v) {
  const cards = (d) => d.distance_cards + d.ingredient_cards + d.extra_cards;
  const d = [...(v.deliveries || [])].sort((a, b) => b.pay - a.pay || cards(a) - cards(b) ||
    (a.via ? 1 : 0) - (b.via ? 1 : 0) || a.slot - b.slot || a.move.localeCompare(b.move))[0];
  return d && { kind: 'deliver', slot: d.slot, from: d.lot && d.owner !== v.seat ? d.lot : d.from, to: d.to || null, move: d.move };
}

// The legal move giving up the least useful cards (a move naming none last).
function leastUseful(v, legal) {
  const cost = (l) => {
    const cards = words(l).filter((w) => /\//.test(w) || /^power:/.test(w));
    return cards.length ? cards.reduce((n, c) => n + worth(v, c), 0) : 99;
  };
  return [...legal].sort((a, b) => cost(a) - cost(b) || a.localeCompare(b))[0];
}

// The decision of the seat to move, from its view: an intention (above).
function decide(v) {
  const legal = v.legal || [];
  const has = (re) => legal.filter((l) => re.test(l));
  switch (v.phase) {
    case 'keep':
      return { kind: 'keep', card: powerCard(v.keep_from[0]) };
    case 'start': {
      // Out of Supplies, owed before any delivery: $2, else the two least useful cards
      const owed = has(/^supplies /);
      if (owed.length) return { kind: 'move', move: owed.find((l) => /^supplies \$\d+$/.test(l)) || leastUseful(v, owed) };
      const d = bestDelivery(v);
      if (d) return d;
      const b = legal.includes('reputation') ? bestBuild(v) : null;
      if (b) return b;
      // a full hand with cards for her pizzerias: raise their reputation (the upgrades come next)
      if (legal.includes('reputation') && handCards(v).length >= UPGRADE_HAND && upgradeCards(v).length) return { kind: 'reputation' };
      if (legal.includes('market')) return { kind: 'market' };
      break;
    }
    case 'reputation': {
      const b = bestBuild(v);
      if (b && legal.includes(b.move)) return b;
      // else a disk on the pizzeria with the fewest (below its limit), with the least useful card
      const below = new Set(mine(v).pizzerias.filter((p) => p.reputation < p.limit).map((p) => p.village));
      const ups = has(/^upgrade \S+ \S+ disk$/).filter((l) => below.has(words(l)[1]));
      if (ups.length) {
        const disks = (l) => mine(v).pizzerias.find((p) => p.village === words(l)[1])?.disks ?? 9;
        const fewest = Math.min(...ups.map(disks));
        return { kind: 'upgrade', move: leastUseful(v, ups.filter((l) => disks(l) === fewest)) };
      }
      if (legal.includes('done')) return { kind: 'move', move: 'done' };
      break;
    }
    case 'market':
    case 'bonus': {
      const open = has(/^take [^d]/).map((l) => words(l)[1]);
      const best = [...open].sort((a, b) => worth(v, b) - worth(v, a) || a.localeCompare(b))[0];
      if (best && worth(v, best) > 0) return { kind: 'take', card: best };
      if (legal.includes('take deck')) return { kind: 'take', card: 'deck' };
      if (best) return { kind: 'take', card: best };
      break;
    }
    case 'pay':        // a build's price
    case 'distance':   // the cards for the spaces beyond the free range
      return payment(v, 'pay', v.pending.due);
    case 'discard': {
      // down to the hand limit (10, 12 with Liberty Storage): the least useful cards
      const limit = HAND_LIMIT + ((mine(v).tableau || []).map(powerCard).includes('power:liberty-storage') ? 2 : 0);
      const cards = [...byWorth(v, handCards(v)), ...powersOf(v)];
      return { kind: 'pay', verb: 'discard', items: cards.slice(0, cards.length - limit) };
    }
    case 'fine':       // a Health Inspector: the fine in money, else the two least useful cards
      return { kind: 'move', move: legal.find((l) => /^fine \$\d+$/.test(l)) || leastUseful(v, has(/^fine /)) };
    case 'after':
      if (legal.includes('end')) return { kind: 'move', move: 'end' };
      break;
    case 'copy':
    case 'instant':
      if (legal.includes('done')) return { kind: 'move', move: 'done' };
      break;
    default:
      break;
  }
  // Every other decision: "done" when it may (not while a delivery is supplied),
  // else the move giving up the least useful cards.
  if (legal.includes('done') && v.phase !== 'supply' && v.phase !== 'distance') return { kind: 'move', move: 'done' };
  return { kind: 'move', move: leastUseful(v, legal) };
}

// A payment made a part at a time: the move for the next of the parts `left`
// (the first the engine offers), taken off the list.
function nextPart(v, verb, left) {
  const at = left.map((x) => v.legal.indexOf(`${verb} ${x}`));
  const i = at.reduce((best, a, k) => (a >= 0 && (best < 0 || a < at[best]) ? k : best), -1);
  assert.ok(i >= 0, `one of ${left.join(', ')} can be paid (${v.legal.join(', ')})`);
  return `${verb} ${left.splice(i, 1)[0]}`;
}

// The opponents play the same policy by messages, a move at a time: the
// moves one decision takes, each chosen from the view it is made in.
async function playByMoves(send, view, it) {
  switch (it.kind) {
    case 'keep': return send(`keep ${it.card}`);
    case 'market': case 'reputation': return send(it.kind);
    case 'take': return send(`take ${it.card}`);
    case 'build':
      if (view().phase === 'start') await send('reputation');
      return send(it.move);
    case 'pay': {
      const left = [...it.items];
      const { phase, to_move: seat } = view();
      while (left.length && view().phase === phase && view().to_move === seat) await send(nextPart(view(), it.verb, left));
      return undefined;
    }
    default: return send(it.move);
  }
}

// ---- (b) The driver: a decision as clicks on the Delivery page ----
//
// The page lets one click carry several moves (web/queue.js): a market card
// at the start of a turn goes to market and takes it; a lot clicked at the
// start increases reputation; a build's button pays its price; a delivery's
// Confirm supplies its ingredients and pays its distance; "End my turn after
// my action" (clicked once) ends each turn. The driver clicks such a control
// only when what it carries is what Ann would decide (the policy, asked on
// the position it foresees), and the test checks every move the page sent
// on its own against the policy on the view it was sent from (see `queued`).

// A payment's words as one list of parts: "$3" as three "$1".
const partsOf = (words) => words.flatMap((w) => (/^\$\d+$/.test(w) ? Array(Number(w.slice(1))).fill('$1') : [w]));
const sameParts = (a, b) => JSON.stringify([...partsOf(a)].sort()) === JSON.stringify([...partsOf(b)].sort());

// The open market's cards as moves name them, and the take Ann would make at market.
function foreseenTake(v) {
  const open = (v.open || []).map((c) => `take ${cardCode(v, c.card)}`);
  return decide({ ...v, phase: 'market', legal: [...open, 'take deck'] });
}

// The distance Ann would pay after a delivery's ingredients (`uses`, set aside).
function foreseenDistance(v, due, uses) {
  return payment({ ...v, phase: 'distance', legal: [], pending: { due, cards: uses.map((c) => ({ card: c, count: 1 })) } }, 'pay', due);
}

// The build's price Ann would pay: money first, the build's card set aside.
function foreseenPrice(v, card, due) {
  return payment({ ...v, phase: 'pay', legal: ['pay $1'], pending: { due, card } }, 'pay', due);
}

// The upgrade Ann would make first in the reputation step: a disk on one of
// her pizzerias, from the cards in hand (of its village or Central Park's).
function foreseenUpgrade(v) {
  const below = mine(v).pizzerias.filter((p) => p.reputation < p.limit);
  const cards = [...new Set(handCards(v))];
  const legal = below.flatMap((p) => cards.filter((c) => villageOf(c) === p.village || villageOf(c) === 'CP')
    .map((c) => `upgrade ${p.village} ${c} disk`));
  const it = decide({ ...v, phase: 'reputation', legal: [...legal, 'done'] });
  return it.kind === 'upgrade' ? it : null;
}

// A control's queued moves (data-then), or [] when it has none.
async function thenOf(ui, selector) {
  const t = await ui.page.locator(selector).first().getAttribute('data-then');
  return t ? t.split('|') : [];
}

// The chain a control queues matches what Ann foresees: a payment part by part.
function chainFits(then, want) {
  if (then.length !== want.length) return false;
  return then.every((m, i) => (/^pay /.test(m) && /^pay /.test(want[i]) ? sameParts(words(m).slice(1), words(want[i]).slice(1)) : m === want[i]));
}

// The payment panel (its selection made first by the page) made to hold
// `items` as a person would: the parts not wanted taken off, the others
// added (or Clear, then the wanted ones, when that is fewer clicks); then confirmed.
async function choose(ui, items) {
  const action = await ui.page.locator('#pd-pay-confirm').getAttribute('data-action');
  const now = action ? partsOf(words(action).slice(1)) : [];
  const want = partsOf(items);
  const extra = [...now], missing = [];
  for (const x of want) {
    const i = extra.indexOf(x);
    if (i >= 0) extra.splice(i, 1); else missing.push(x);
  }
  if (!extra.length && !missing.length) return;
  if (1 + want.length < extra.length + missing.length) {
    await ui.click(['#pd-pay [data-pick="pay-clear"]']);
    extra.length = 0;
    missing.splice(0, missing.length, ...want);
  }
  for (const x of extra) {
    // a card chosen once of one goes back with a click on it; of several, by its "−"
    await ui.click(x === '$1' ? ['#pd-pay .pd-money-less'] : [`#pd-pay .pd-pick-less[data-value="${x}"]`, `#pd-pay .pd-pick[data-card="${x}"]`]);
  }
  for (const x of missing) await ui.click(x === '$1' ? ['#pd-pay .pd-money-more'] : [`#pd-pay .pd-pick[data-card="${x}"]`]);
}

async function payByPanel(ui, it) {
  await choose(ui, it.items);
  return ui.send(['#pd-pay-confirm']);
}

async function enact(ui, it) {
  const v = ui.view();
  if (v.phase === 'start' && (v.deliveries || []).length) await ui.shoot('start');
  if (v.phase === 'market') await ui.shoot('market');
  // once, at her first action: the turn ends by itself after each action
  if (['market', 'deliver', 'build', 'reputation'].includes(it.kind) && !ui.autoEnd) {
    await ui.click(['#pd-auto-end']);
    ui.autoEnd = true;
  }
  switch (it.kind) {
    case 'keep':
      return ui.send([`#actions button[data-action="keep ${it.card}"]`]);
    case 'market': {
      // the card she will take, a click that goes to market too
      // (the deck twice when she would take it twice: the open market stays as it is)
      const take = foreseenTake(v);
      if (take.card !== 'deck') return ui.send([`#actions [data-action="market"][data-then="take ${take.card}"]`]);
      return ui.send([`#actions .pd-deck${foreseenTake(v).card === 'deck' ? '.pd-deck-two' : ':not(.pd-deck-two)'}[data-action="market"]`]);
    }
    case 'reputation': {
      // the pizzeria she will upgrade first, a click that increases reputation too
      const up = foreseenUpgrade(v);
      return ui.send(up ? [`#actions .pd-pz-start[data-value="${words(up.move)[1]}"]`] : ['#actions button[data-action="reputation"]']);
    }
    case 'take':
      return ui.send(it.card === 'deck' ? ['#actions .pd-deck[data-action="take deck"]'] : [`#actions [data-action="take ${it.card}"]`]);
    case 'upgrade': {
      const button = `#actions button[data-action="${it.move}"]`;
      if (!(await ui.page.locator(button).count())) await ui.click([`#actions .pd-pz-choice[data-value="${words(it.move)[1]}"]`]);
      return ui.send([button]);
    }
    case 'build': {
      // a lot clicked at the start increases reputation; then its build, with its price
      if (v.phase === 'start') await ui.send([`#delivery-svg .pd-lot[data-pick="lot-rep"][data-value="${it.lot}"]`]);
      const button = `#pd-lot .pd-build:not(.pd-build-done)[data-action="${it.move}"]`;
      if (!(await ui.page.locator(button).count())) await ui.click([`#delivery-svg .pd-lot[data-value="${it.lot}"]`, `#actions .pd-lot-choice[data-value="${it.lot}"]`]);
      const lot = ui.view().map.lots.find((l) => l.id === it.lot);
      const price = foreseenPrice(ui.view(), it.card, lot.cost);
      const then = await thenOf(ui, button);
      return ui.send([button]);
    }
    case 'deliver': {
      // the delivery (order and pizzeria) in the panel, its zone, then Confirm: ingredients and distance with it
      await ui.click([`#actions .pd-delivery-choice[data-value="${it.slot}:${it.from}"]`]);
      if (it.to && (await ui.page.getAttribute('#delivery-preview', 'data-to')) !== it.to) {
        await ui.click([`#delivery-preview .pd-zone-choice[data-value="${it.to}"]`]);
      }
      await ui.shoot('preview');
      const confirm = ui.page.locator('#delivery-preview #delivery-confirm');
      const plain = (await confirm.count()) ? await confirm.getAttribute('data-action') : null;
      if (plain !== it.move) return ui.send([`#delivery-preview button[data-action="${it.move}"]`]);
      // what Confirm carries: the ingredients (the hand left no choice), then the distance as the page chose it;
      // when Ann would pay the distance otherwise, the button that leaves it to the payment panel
      const then = await thenOf(ui, '#delivery-confirm');
      const steps = then.filter((m) => /^(use|short)\b/.test(m));
      const uses = steps.flatMap((m) => words(m).slice(1));
      const quote = v.deliveries.find((d) => d.move === it.move);
      const want = [...steps, ...(quote.distance_cards ? [`pay ${foreseenDistance(v, quote.distance_cards, uses).items.join(' ')}`] : [])];
      if (then.length && !chainFits(then, want)) return ui.send(['#delivery-confirm-choose']);
      return ui.send(['#delivery-confirm']);
    }
    case 'pay':
      return payByPanel(ui, it);
    case 'move': {
      if (/^(fine|supplies) /.test(it.move) && !/\$/.test(it.move)) {
        // two cards in the pair panel
        await choose(ui, words(it.move).slice(1));
        return ui.send(['#pd-pay-confirm']);
      }
      return ui.send([`#actions button[data-action="${it.move}"]`, `#delivery-hand button[data-action="${it.move}"]`]);
    }
    default:
      throw new Error(`no driver for ${it.kind}`);
  }
}

// A move the page sent by itself (queued behind a click), from the view it
// was sent from: the decision Ann makes there, which it must be. A delivery's
// ingredients joined in one move ("use A B") are the decisions she would make
// one at a time, in her order (each from the same cards: the hand leaves no choice).
function queued(v, move) {
  const it = decide(v);
  const w = words(move);
  if (it.kind === 'pay') {
    assert.ok(w[0] === it.verb && sameParts(w.slice(1), it.items), `queued ${move}: Ann pays ${it.items.join(' ')}`);
    return [it];
  }
  if (w[0] === 'use' && w.length > 2) {
    const left = w.slice(1).map((c) => `use ${c}`);
    const out = [];
    while (left.length) {
      const next = out.length ? { kind: 'move', move: leastUseful(v, left) } : it;
      assert.ok(next.kind === 'move' && left.includes(next.move), `queued ${move}: Ann would ${JSON.stringify(next)}`);
      left.splice(left.indexOf(next.move), 1);
      out.push(next);
    }
    return out;
  }
  const as = it.kind === 'take' ? `take ${it.card}` : it.move;
  assert.equal(move, as, `queued ${move}: Ann would ${JSON.stringify(it)}`);
  return [it];
}

// ---- Counting: clicks, moves sent, decisions, and controls off the screen ----

let browser, server;

before(async () => {
  server = await startServer(join(tempDir('pizzabox-clicks-'), 'clicks.db'), { env: { PIZZABOX_TABLE_SEED: String(SEED) } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await stopServers([server].filter(Boolean));
});

// In the page, put back at its top: the first of the selectors whose element
// is on the screen and not covered (seen), else the first there is.
function findOnScreen(selectors) {
  window.scrollTo(0, 0);
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
    const at = document.elementFromPoint(x, y);
    return Boolean(at && (el === at || el.contains(at) || at.contains(el)));
  };
  const els = selectors.map((sel) => document.querySelector(sel));
  const shown = els.findIndex((el) => el && onScreen(el));
  return { found: shown >= 0 ? shown : els.findIndex(Boolean), seen: shown >= 0 };
}

test('a whole New York Pizza Delivery game at 3 players, Ann clicking as a person would: clicks, moves, decisions and scrolls counted',
  { timeout: GAME_MS + 30_000 }, async () => {
    const started = Date.now();
    const problems = [];
    const page = await watchedPage(browser, problems, { viewport: SCREEN });
    // What the page hears and says: the views, and the moves it sends.
    // Each move of hers with the view it was sent from, and whether a click
    // sent it (else the page did, queued behind one).
    let last = null, sent = 0, armed = false;
    const annSent = [];
    page.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        const m = JSON.parse(payload);
        if (m.type === 'view' && m.view?.game === 'delivery') last = m;
      });
      ws.on('framesent', ({ payload }) => {
        const m = JSON.parse(payload);
        if (m.type !== 'act') return;
        sent++;
        annSent.push({ move: m.action, view: last.view, moves: last.moves, clicked: armed });
        armed = false;
      });
    });

    // The table made in the lobby (not counted: the game's clicks are), the
    // other two seats for people: the opponents join it by its code.
    await page.goto(`http://localhost:${server.port}/`);
    await page.selectOption('#game', 'delivery');
    await page.selectOption('#players-count', '3');
    await page.fill('#name', 'Ann');
    await page.selectOption('select[name=seat1]', 'human');
    await page.selectOption('select[name=seat2]', 'human');
    await page.click('#create');
    await page.waitForFunction(() => /^#\/t\/\w+/.test(location.hash));
    const code = /^#\/t\/(\w+)/.exec(await page.evaluate(() => location.hash))[1];
    const others = [];
    for (const name of OPPONENTS) {
      const c = await Client.connect(server.url, name);
      await c.send({ type: 'join', code, name });
      const j = await c.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, `${name} seated`);
      assert.equal(j.type, 'joined', `${name} joins: ${JSON.stringify(j)}`);
      others[j.seat] = c;
    }
    await page.waitForSelector('#delivery-svg');

    const count = { clicks: 0, moves: 0, decisions: 0, queued: 0, scrolls: 0, offscreen: 0, clicksByKind: {}, multi: [], byKind: {}, scrollsByKind: {} };
    let scrolled = false;   // this decision had a control off the screen
    const shotPhases = new Set();
    const ui = {
      page,
      seat: 0,
      view: () => last.view,
      // One click on the first of the selectors the screen shows (else the first there is).
      async click(selectors) {
        const { found, seen } = await page.evaluate(findOnScreen, selectors);
        assert.ok(found >= 0, `something to click: ${selectors.join(' or ')} (${last.view.phase}: ${last.view.legal.join(', ')})`);
        const what = selectors[found], target = page.locator(what).first();
        if (!seen) {
          // the screen as Ann sees it, the first time a control of this phase is off it
          const phase = last.view.phase;
          if (!shotPhases.has(phase)) {
            shotPhases.add(phase);
            await page.screenshot({ path: join(SHOTS, `delivery-clicks-${phase}.png`) });
          }
          count.offscreen++;
          scrolled = true;
          if (NO_SCROLL) assert.fail(`${what} is off the 1366x768 screen (${phase})`);
        }
        armed = true;
        await target.click();
        count.clicks++;
      },
      // The screen the first time at this point (start: a turn with a delivery
      // possible; preview: a delivery's, with Confirm; market: the second take),
      // at 1366x768 and on a phone: build/screenshots/delivery-turn-WHAT[-phone].png.
      async shoot(what) {
        if (shotPhases.has(what)) return;
        shotPhases.add(what);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(SHOTS, `delivery-turn-${what}.png`) });
        await page.setViewportSize(PHONE);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(SHOTS, `delivery-turn-${what}-phone.png`) });
        await page.setViewportSize(SCREEN);
      },
      // A click that sends a move: then the page's next view.
      async send(selectors) {
        const moves = last.moves;
        await ui.click(selectors);
        await waitFor(() => last.moves > moves);
        await idle();
        assert.equal(await page.locator('.toast.error').count(), 0, 'no error from the server');
      },
    };
    // The page shows the last position, and no move of its (queued ones too) is on its way.
    async function idle() {
      const end = Date.now() + 10_000;
      for (;;) {
        const st = await page.evaluate(() => ({ over: !document.getElementById('game-over').hidden,
          moves: Number(document.getElementById('delivery-board').dataset.moves), busy: document.getElementById('table').dataset.busy }));
        if (st.over || (st.busy === 'false' && st.moves === last.moves)) return;
        assert.ok(Date.now() < end, `the page settles (${JSON.stringify(st)}, the table at ${last.moves})`);
        await new Promise((r) => setTimeout(r, 30));
      }
    }
    // Poll the views heard (the bots move on the server meanwhile).
    async function waitFor(ok, ms = 20_000) {
      const end = Date.now() + ms;
      while (!ok()) {
        assert.ok(Date.now() < end, 'waited too long for the table');
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    // An opponent's move, and its next view.
    const tableView = (c) => c.messages.findLast((m) => m.type === 'view' && m.code === code);
    const moveBy = (c) => async (action) => {
      const moves = tableView(c).moves;
      c.skip();
      await c.send({ type: 'act', code, action });
      const reply = await c.waitFor((m) => m.type === 'error' || (m.type === 'view' && m.code === code && m.moves > moves),
        5000, `${c.label}: ${action}`);
      assert.notEqual(reply.type, 'error', `${c.label}: ${action} refused: ${reply.message}`);
    };

    await waitFor(() => last && !last.view.waiting && last.view.phase);
    ui.seat = last.seat;
    assert.equal(ui.seat, 0, 'Ann sits first');
    ui.autoEnd = false;
    const deadline = Date.now() + GAME_MS;
    const decided = [];    // every decision of the game, by seat: "move seat phase {intention}"
    for (;;) {
      assert.ok(Date.now() < deadline, `the game ends within ${GAME_MS / 1000} s (${count.decisions} decisions)`);
      const v = last.view;
      if (v.phase === 'over') break;
      if (v.to_move === ui.seat && !(v.legal || []).length) {
        await waitFor(() => last.view !== v);   // a view before Ann's moves came
        continue;
      }
      if (v.to_move !== ui.seat) {
        // an opponent decides by the same policy, from its own view
        const c = others[v.to_move];
        assert.ok(c, `seat ${v.to_move} is played`);
        const at = last.moves;
        const mine = await viewAt(c, code, at);
        const it = decide(mine.view);
        decided.push(`${at} ${v.to_move} ${mine.view.phase} ${JSON.stringify(it)}`);
        await playByMoves(moveBy(c), () => tableView(c).view, it);
        await waitFor(() => last.moves >= tableView(c).moves);
        continue;
      }
      // the page shows this position, and nothing of hers is on its way
      await idle();
      if (last.view !== v) continue;
      const it = decide(v);
      count.decisions++;
      count.byKind[it.kind] = (count.byKind[it.kind] || 0) + 1;
      scrolled = false;
      const at = last.moves;
      const from = annSent.length, clicksBefore = count.clicks;
      await enact(ui, it).catch((e) => {
        // what was played so far, to compare with the baseline's game
        writeFileSync(join(ROOT, 'build', 'delivery-clicks-partial.txt'), `${[...decided, `${at} ${ui.seat} ${v.phase} ${JSON.stringify(it)} (failed)`].join('\n')}\n`);
        throw e;
      });
      decided.push(`${at} ${ui.seat} ${v.phase} ${JSON.stringify(it)}${scrolled ? ' (a scroll)' : ''}`);
      const clicks = count.clicks - clicksBefore;
      count.clicksByKind[it.kind] = (count.clicksByKind[it.kind] || 0) + clicks;
      if (clicks > 1) count.multi.push(`${at} ${v.phase} ${it.kind}${it.move ? ` ${it.move}` : ''}: ${clicks} clicks`);
      if (scrolled) {
        count.scrolls++;
        count.scrollsByKind[it.kind] = (count.scrollsByKind[it.kind] || 0) + 1;
      }
      // the moves the page sent by itself: her next decisions, no click
      for (const s of annSent.slice(from).filter((x) => !x.clicked)) {
        for (const q of queued(s.view, s.move)) {
          count.decisions++;
          count.byKind[q.kind] = (count.byKind[q.kind] || 0) + 1;
          count.queued++;
          decided.push(`${s.moves} ${ui.seat} ${s.view.phase} ${JSON.stringify(q)}`);
        }
      }
    }
    count.moves = sent;
    await Promise.all(others.map((c) => c.close()));
    // the game played: everyone's decisions in order, whatever the page
    const game = createHash('sha256').update(decided.map((d) => d.replace(/^\d+ /, '').replace(/ \(a scroll\)$/, '')).join('\n'))
      .digest('hex').slice(0, 16);

    await page.waitForSelector('#game-over:not([hidden])');
    const result = (await page.locator('#game-over').innerText()).split('\n').find((l) => /wins|Shared win/.test(l)) || '';
    const scores = last.view.players.map((p) => p.score);
    assert.deepEqual(problems, [], 'no errors in the page');
    assert.ok(count.byKind.deliver >= 1, 'Ann delivered');
    assert.ok(count.byKind.build >= 1, 'Ann built');
    assert.ok(count.queued > 0, 'some decisions went by moves queued behind a click');
    const same = game === BASELINE.game;
    if (HALVED) {
      assert.ok(same, `the game is the baseline's (${game}, not ${BASELINE.game}): the counts compare`);
      assert.ok(count.clicks * 2 <= BASELINE.clicks, `at most half of today's ${BASELINE.clicks} clicks: ${count.clicks}`);
    }
    const out = { game, same_game_as_baseline: same, seed: SEED, opponents: OPPONENTS, screen: SCREEN, clicks: count.clicks, moves: count.moves, decisions: count.decisions, queued: count.queued,
      scrolls: count.scrolls, offscreen_clicks: count.offscreen, by_kind: count.byKind, clicks_by_kind: count.clicksByKind, decisions_of_more_clicks: count.multi, scrolls_by_kind: count.scrollsByKind, result, scores, ms: Date.now() - started };
    writeFileSync(join(ROOT, 'build', 'delivery-clicks.json'), `${JSON.stringify({ ...out, decided }, null, 1)}\n`);
    console.log(`clicks: ${count.clicks}, moves: ${count.moves}, decisions: ${count.decisions} (${count.queued} by moves queued behind a click)`);
    console.log(same ? `the baseline's game (${game}): today ${BASELINE.clicks} clicks, ${BASELINE.moves} moves, ` +
      `${BASELINE.decisions} decisions, ${BASELINE.scrolls} needing a scroll`
      : `not the baseline's game (${game}, baseline ${BASELINE.game}): the counts do not compare`);
    console.log(`decisions needing a scroll at 1366x768: ${count.scrolls} (${JSON.stringify(count.scrollsByKind)}; ` +
      `${count.offscreen} clicks off the screen); decisions by kind ${JSON.stringify(count.byKind)}; ${result} (scores ${scores.join(', ')}); ${out.ms} ms`);
    await page.context().close();
  });
