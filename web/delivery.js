// delivery.js -- New York Pizza Delivery at a table: a `view` message whose
// game view is the delivery engine's (games/delivery/view.c) turned into
// markup. The map is SVG drawn from the view's own map (delivery-map.js);
// the orders, the open market, your hand and the players sit beside it;
// every legal move is a button. Clicking an order and one of your
// pizzerias previews a delivery: the shortest street route is computed here
// over the map's roads and drawn, with what the delivery costs and pays (from
// view.deliveries), and a button that announces it; with Copy Cat another
// player's pizzerias can be picked too (by their lot). Nothing here talks to the
// server: elements carry `data-action` (a move's notation, sent by app.js) or
// `data-pick` (a selection kept here, see pick()).
import { esc } from './tokens.js';
// The map (drawing, routes, zoom) is delivery-map.js's; this file re-exports what the page uses.
import { mapOf, villageName, shortestRoute, reputationLots, HARLEM, f1 } from './delivery-map.js';
import { destinationHtml, handHtml, keepFacesHtml, marketHtml, othersHtml, powerFace, setAside } from './delivery-cards.js';
import { choosePick, choosesHere, pairHtml, payAhead, paymentHtml, reputationHtml, trimHtml } from './delivery-choose.js';

export { shortestRoute, boardHtml, recentOnMap, wireMap, villageName } from './delivery-map.js';
// Global events are announced beside the map, under the move to make.
export { bannersHtml } from './delivery-cards.js';

// ---- Names and colours ----

const MEATS = new Set(['pepperoni', 'sausage', 'ham', 'meatballs']);
const VEGGIES = new Set(['peppers', 'onions', 'tomatoes', 'pineapple']);

const PHASE_WORDS = {
  keep: 'choosing a power card', start: 'choosing an action', market: 'at the market', reputation: 'increasing reputation',
  pay: 'paying for a pizzeria', supply: 'supplying the ingredients', distance: 'paying for the distance',
  tip: 'choosing a tip (Ham)', arrange: 'putting the other tips back (Ham)', bonus: 'taking a bonus card',
  after: 'ending the turn', discard: 'discarding down to the hand limit',
  fine: 'paying the Health Inspector', block: 'reserving a lot',
  farm: 'storing a card under Farmer Brown', copy: 'deciding whether to copy a delivery to Harlem',
  orders: 'changing the orders', spot: 'putting a disk on a delivery zone', charity: 'giving two cards to charity',
  crash: 'losing a reputation level', soars: 'taking two cards (Stock Market Soars)',
  transfer: 'Transfer Goods', instant: 'answering the delivery with an Instant card', tax: 'paying Property Tax',
  trim: 'bringing a pizzeria back to its reputation limit', promotion: 'timing a promotion pizza', over: 'over',
};

// Special Sale played this turn, in a sentence (the quotes already count it).
const SALE_WORDS = 'Special Sale: this turn\'s delivery needs every ingredient twice and pays twice its money less $1, with two tips.';

// What Property Tax would take from a seat, the engine's figure
// (games/delivery/instant.c).
export function propertyTax(v, seat) {
  return (v.property_tax || (v.instant || {}).property_tax || [])[seat];
}

// What a Property Tax being paid still asks for.
function taxDue(v) {
  return (v.tax || {}).due ?? (v.instant || {}).tax_due ?? '?';
}

// Ham's arrangement, "arrange 2:$3 3:$1 4:$2", as words: which value goes
// on which order; another player's, "arrange ?", as what they may know.
function arrangeWords(ctx, w) {
  if (w[1] === '?') return 'put the other tip tokens back on the orders (unseen)';
  const put = w.slice(1).map((p) => p.split(':'))
    .map(([slot, value]) => (value === '-' ? `none on order ${slot}` : `${value} on order ${slot}`));
  return `put the tips back: ${put.join(', ')}`;
}

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

export function who(ctx, seat) {
  return seat == null ? '?' : ctx.names[seat] || `Seat ${seat + 1}`;
}

// A power card's printed name ("Pope of Greenwich Village"), from the view when
// it shows the card, else from its id: "subway-ticket-red" -> "Subway Ticket Red".
export function powerName(id, ctx = null) {
  const key = String(id || '').replace(/^power:/, '');
  const known = ctx && (ctx.v.power_cards || {})[key];
  if (known) return known.name;
  return key.split('-').filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}

// ---- Cards ----

// A card named as the view names it ("Upper East Side/Ham") or as a move
// writes it ("Upper-East-Side/Ham", "UE/Ham"): its village code and ingredient.
export function cardParts(ctx, text) {
  const m = mapOf(ctx.v);
  const t = String(text || '').replace(/^power:/, '');
  const slash = t.indexOf('/');
  if (slash < 0) return { code: null, village: t, ingredient: t };
  const village = t.slice(0, slash).replace(/-/g, ' ');
  const ingredient = t.slice(slash + 1).replace(/-/g, ' ');
  const code = m.byName.get(village.toLowerCase()) || null;
  // the notation writes the village's code (UW/Ham): the words name the village
  return { code, village: code && m.village.get(code) ? m.village.get(code).name : village, ingredient };
}

// One key for a card however it is written.
export function cardKey(ctx, text) {
  const p = cardParts(ctx, text);
  return `${p.code || p.village.toLowerCase()}/${p.ingredient.toLowerCase()}`;
}

function ingredientClass(ingredient) {
  const i = String(ingredient).toLowerCase();
  if (MEATS.has(i)) return 'meat';
  if (VEGGIES.has(i)) return 'veg';
  if (i === 'extra cheese') return 'cheese';
  return 'any';
}

// What an ingredient's card does, as the rules text gives it (the view's ingredient_texts).
function ingredientText(ctx, ingredient) {
  const texts = ctx.v.ingredient_texts || {};
  const key = Object.keys(texts).find((k) => k.toLowerCase() === String(ingredient).toLowerCase());
  return key ? texts[key] : '';
}

// A card as a chip: the village's code on its colour, then the ingredient.
export function cardChip(ctx, text, { count = 1, action = null, extra = '' } = {}) {
  const m = mapOf(ctx.v);
  const p = cardParts(ctx, text);
  const vi = p.code != null ? m.villageIndex.get(p.code) : -1;
  const rule = ingredientText(ctx, p.ingredient);
  const title = `${p.village}: ${p.ingredient}${count > 1 ? ` (${count} cards)` : ''}${rule ? ` — ${rule}` : ''}`;
  const inner = `<span class="pd-vtag pd-v${vi}">${esc(p.code || '?')}</span>` +
    `<i class="pd-ing ${ingredientClass(p.ingredient)}" aria-hidden="true"></i>${esc(p.ingredient)}` +
    `${count > 1 ? ` <b class="pd-count">×${esc(count)}</b>` : ''}`;
  const cls = `pd-card${extra ? ` ${extra}` : ''}`;
  if (action) {
    // "market|take HA/Ham": the first move, then the rest queued (app.js, queue.js)
    const [first, ...then] = action.split('|');
    const said = [first, ...then].map((m) => moveWords(ctx, m)).join(', then ');
    return `<button type="button" class="${cls} playable" data-action="${esc(first)}"${then.length ? ` data-then="${esc(then.join('|'))}"` : ''}` +
      ` data-card="${esc(cardKey(ctx, text))}" title="${esc(`${title} — ${said}`)}">${inner}</button>`;
  }
  return `<span class="${cls}" data-card="${esc(cardKey(ctx, text))}" title="${esc(title)}">${inner}</span>`;
}

// ---- Moves in words ----

const VIA = { red: 'the red subway', blue: 'the blue subway', subway: 'the subway', boat: 'the boat', park: 'the Park Path' };

function cardWords(ctx, text) {
  const p = cardParts(ctx, text);
  if (/^power:/.test(text)) return `the power card ${powerName(text, ctx)}`;
  return p.code ? `${p.ingredient} (${p.village})` : p.ingredient;
}

// A payment's or a discard's parts ("$2", cards, power cards: one move) in words.
function partsWords(ctx, parts) {
  const words = parts.map((x) => (/^\$/.test(x) ? x : cardWords(ctx, x)));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0];
}

function orderWords(ctx, slot) {
  const o = (ctx.v.orders || [])[slot - 1];
  if (!o) return `order ${slot}`;
  return `order ${slot} (${o.name}${o.village ? `, to ${villageName(ctx, o.village)}` : ''})`;
}

// The words after "deliver N from XX" or "copy from XX": a specialty
// order's zone ("to HA") and the rides ("via red"), in any order.
function routeClauses(ctx, w, from) {
  const vias = [];
  let to = null;
  for (let i = from; i + 1 < w.length; i += 2) {
    if (w[i] === 'via') vias.push(VIA[w[i + 1]] || w[i + 1]);
    if (w[i] === 'to') to = w[i + 1];
  }
  return { to, by: vias.length ? ` by ${vias.join(' and ')}` : '' };
}

// Copy Cat: the seat whose pizzeria is on a lot, or null.
function lotOwner(ctx, id) {
  const seat = (ctx.v.players || []).findIndex((pl) => (pl.pizzerias || []).some((pz) => pz.lot === id));
  return seat < 0 ? null : seat;
}

// Where a delivery comes from: a village (the mover's own pizzeria there) or
// another player's lot (Copy Cat).
function fromWords(ctx, word) {
  const owner = lotOwner(ctx, word);
  return owner == null ? villageName(ctx, word) : `${who(ctx, owner)}'s pizzeria on ${word} (Copy Cat)`;
}

// The word a quoted delivery names its pizzeria by in its move: the village
// for the viewer's own, the lot for another player's (Copy Cat).
export function fromWord(ctx, d) {
  return d.owner != null && d.owner !== ctx.seat && d.lot ? d.lot : d.from;
}

// Co-op Transfer Goods: the neighbour a card passed "left" (the next seat
// clockwise, who plays next) or "right" (the one before) goes to.
function neighbour(ctx, seat, dir) {
  const n = ctx.n || (ctx.v.players || []).length;
  if (seat == null || !n) return null;
  return dir === 'right' ? (seat + n - 1) % n : (seat + 1) % n;
}

// " on Bo" for a card played on an opponent ("... on 2": seats counted from 1).
function onWhom(ctx, w) {
  return w[2] === 'on' && /^\d+$/.test(w[3] || '') ? ` on ${who(ctx, Number(w[3]) - 1)}` : '';
}

// A legal move's notation as a short sentence for a button or the log;
// `seat` made it (the one to move unless told: a pass names its neighbour).
// `past`: a move of the log, worded without what has changed since (the
// order delivered is replaced at once: its slot holds another pizza now).
export function moveWords(ctx, text, seat = ctx.v.to_move, past = false) {
  const w = String(text || '').trim().split(/\s+/);
  const verb = (w[0] || '').toLowerCase();
  const lot = (id) => {
    const l = mapOf(ctx.v).lot.get(id);
    return l ? `${id} ($${l.cost})` : id;
  };
  switch (verb) {
    case 'keep': return w[1] === '?' ? 'keep a power card' : `keep ${powerName(w[1], ctx)}`;
    case 'market': return 'go to market: take 2 cards';
    case 'reputation': return 'increase reputation: 2 builds or upgrades';
    case 'deliver': {
      const r = routeClauses(ctx, w, 4);
      return `deliver ${past ? `order ${Number(w[1])}` : orderWords(ctx, Number(w[1]))} from ${fromWords(ctx, w[3])}${r.to ? ` to ${villageName(ctx, r.to)}` : ''}${r.by}`;
    }
    case 'copy': return `copy the delivery to ${villageName(ctx, HARLEM)} from the pizzeria in ${villageName(ctx, w[2])}${routeClauses(ctx, w, 3).by}`;
    case 'take': return w[1] === 'deck' ? 'take the top card of the deck' : `take ${cardWords(ctx, w[1])}`;
    case 'build': return `build on ${lot(w[1])} with ${cardWords(ctx, w[2])}`;
    case 'upgrade': {
      const how = w[3];
      const name = villageName(ctx, w[1]);
      // "... disk|add top INGREDIENT": another card of the pizzeria (of its village) goes on top
      const top = w[4] === 'top' ? `, ${String(w[5] || '').replace(/-/g, ' ')} on top` : '';
      if (how === 'disk') return `${name}: discard ${cardWords(ctx, w[2])} for a disk${top}`;
      if (how === 'top') return `${name}: add ${cardWords(ctx, w[2])} on top`;
      return `${name}: add ${cardWords(ctx, w[2])} underneath${top}`;
    }
    case 'remove': return w[2] === 'disk' ? `take a disk off ${villageName(ctx, w[1])} (back to the supply)`
      : `remove ${cardWords(ctx, w[2])} from the pizzeria in ${villageName(ctx, w[1])}`;
    case 'pay': return `pay ${/^\$/.test(w[1]) ? '' : 'with '}${partsWords(ctx, w.slice(1))}`;
    case 'use': return w[1] === 'stored' ? `use ${cardWords(ctx, w[2])} from Cold Storage` : `use ${cardWords(ctx, w[1])}`;
    case 'refill': return `discard ${cardWords(ctx, w[1])} to refill Cold Storage`;
    case 'extra': return `add an extra ${cardWords(ctx, w[1])} (+$1)`;
    case 'cheese': return w[1] === 'stored' ? `put ${cardWords(ctx, w[2])} from Cold Storage on the pizza`
      : `put ${cardWords(ctx, w[1])} on the pizza`;
    case 'short': return 'leave an ingredient out (no tip)';
    case 'tip': return w[1] === '?' ? 'keep a tip token (unseen)' : `keep the tip of order ${w[1]}`;
    case 'arrange': return arrangeWords(ctx, w);
    case 'discard': return `discard ${partsWords(ctx, w.slice(1))}`;
    case 'fine': return /^\$/.test(w[1]) ? `pay the fine: ${w[1]}` : `pay the fine with ${cardWords(ctx, w[1])} and ${cardWords(ctx, w[2])}`;
    case 'play': return `play ${powerName(w[1], ctx)}${onWhom(ctx, w)}`;
    case 'instant': return `play the Instant card ${powerName(w[1], ctx)}${onWhom(ctx, w)}`;
    case 'supplies': return /^\$/.test(w[1]) ? `pay ${w[1]} for Out of Supplies`
      : `pay Out of Supplies with ${cardWords(ctx, w[1])} and ${cardWords(ctx, w[2])}`;
    case 'swap': return `swap ${cardWords(ctx, w[2])} into order ${w[1]} (Bait and Switch)`;
    case 'block': return `reserve ${lot(w[1])}`;
    case 'farm': return `store ${cardWords(ctx, w[1])} under Farmer Brown`;
    // order changes name a card as ORDER.CARD (both counted from 1)
    case 'hack': return `put ${cardWords(ctx, w[2])} in place of card ${w[1].split('.')[1]} of order ${w[1].split('.')[0]}`;
    case 'screw': return `swap card ${w[1].split('.')[1]} of order ${w[1].split('.')[0]} with card ${w[2].split('.')[1]} of order ${w[2].split('.')[0]}`;
    case 'lose': return w[2] === 'disk' ? `lose a disk in ${villageName(ctx, w[1])}` : `lose card ${w[2]} of the pizzeria in ${villageName(ctx, w[1])}`;
    case 'give': return `give ${cardWords(ctx, w[1])} and ${cardWords(ctx, w[2])} to charity`;
    case 'spot': return `put a disk on the delivery zone of ${villageName(ctx, w[1])}`;
    case 'reorder': return `put card ${w[1].split('.')[1]} of order ${w[1].split('.')[0]} last`;
    case 'pass': {
      // another seat's card stays secret: "pass ? left"
      const to = neighbour(ctx, seat, w[2]);
      return `pass ${w[1] === '?' ? 'a card' : cardWords(ctx, w[1])} to ${to == null ? `the ${w[2]}` : who(ctx, to)}`;
    }
    case 'morning': return 'the back-side pizza in the morning (the start of its day\'s turn)';
    case 'evening': return 'the back-side pizza in the evening (the end of its day\'s turn)';
    case 'done': return 'done';
    case 'end': return 'end the turn';
    default: return text;
  }
}

// ---- What the viewer selected (a lot, one of their pizzerias, an order) ----
//
// A selection belongs to one position: a new move clears it.

// `zone` is the village a specialty order goes to (null: the cheapest).
// `carry` is a lot or one of your pizzerias ({lot} or {pizzeria}) chosen at
// the start of a turn: "reputation" goes, and it is chosen in the position that follows.
const ui = { key: null, order: null, pizzeria: null, lot: null, zone: null, carry: null };
export { ui as selection }; // the map marks what is selected

function syncSelection(ctx) {
  const key = `${ctx.code}:${ctx.msg.moves}:${ctx.seat}`;
  if (ui.key === key) return;
  ui.key = key;
  ui.order = ui.zone = null;
  const carry = ctx.phase === 'reputation' && ui.carry ? ui.carry : {};
  ui.lot = carry.lot || null;
  ui.pizzeria = carry.pizzeria || null;
  ui.carry = null;
}

// ---- End my turn after my action: a preference kept in this browser ----

const AUTO_END = 'pizzabox.delivery.autoEnd';

export function autoEnd() {
  try { return globalThis.localStorage.getItem(AUTO_END) === '1'; } catch { return false; }
}

function setAutoEnd(on) {
  try { globalThis.localStorage.setItem(AUTO_END, on ? '1' : '0'); } catch { /* private mode: this page only */ }
}

// The phases of a turn's action: while one lasts, the toggle applies to its clicks.
const ACTION_PHASES = new Set(['start', 'market', 'bonus', 'reputation', 'pay', 'supply', 'distance', 'discard']);

function autoEndHtml(ctx) {
  if (!ACTION_PHASES.has(ctx.phase) || ctx.v.coop) return '';
  const on = autoEnd();
  return `<button type="button" id="pd-auto-end" class="small secondary pd-auto-end" data-pick="auto-end" aria-pressed="${on}"` +
    ' title="When your action is over, your turn ends by itself: no power card played after it. Kept for your next turns.">' +
    `${on ? '☑' : '☐'} End my turn after my action</button>`;
}

// A click on something selectable: kind order (value the slot), pizzeria
// (a village code; another player's lot for Copy Cat), lot (an id), delivery
// ("slot:code"), zone (a village code: where a specialty order goes), or clear.
// A move to send comes back for a lot clicked at the start of a turn ("reputation").
export function pick(kind, value) {
  if (choosePick(kind, value)) return null; // a payment's dollars and cards (delivery-choose.js)
  if (kind === 'auto-end') { setAutoEnd(!autoEnd()); return null; }
  if (kind === 'lot-rep') { ui.carry = { lot: value }; return 'reputation'; }
  if (kind === 'pz-rep') { ui.carry = { pizzeria: value }; return 'reputation'; }
  if (kind === 'clear') { ui.order = ui.pizzeria = ui.lot = ui.zone = null; return null; }
  if (kind === 'delivery') {
    const [slot, code, to] = String(value).split(':');
    ui.order = Number(slot);
    ui.pizzeria = code;
    ui.zone = to || null;
    ui.lot = null;
    return null;
  }
  // Not a toggle: a specialty order always goes somewhere.
  if (kind === 'zone') ui.zone = value || null;
  if (kind === 'order') { ui.order = ui.order === Number(value) ? null : Number(value); ui.zone = null; }
  if (kind === 'pizzeria') { ui.pizzeria = ui.pizzeria === value ? null : value; ui.lot = null; }
  if (kind === 'lot') { ui.lot = ui.lot === value ? null : value; ui.pizzeria = null; }
  return null;
}

function myPizzerias(ctx) {
  if (ctx.seat == null) return [];
  return ((ctx.v.players || [])[ctx.seat] || {}).pizzerias || [];
}

// The cards a quoted delivery takes from the hand, in all.
function cardsOf(d) {
  return d.distance_cards + d.ingredient_cards + d.extra_cards;
}

// Which of two quotes to show first: fewer cards, then by the streets, then shorter.
function cheaper(a, b) {
  return cardsOf(a) - cardsOf(b) || (a.via ? 1 : 0) - (b.via ? 1 : 0) || a.length - b.length;
}

// The zone a quote delivers to ("" for a regular order); read from its move
// when the view does not say.
function quoteTo(d) {
  if (typeof d.to === 'string') return d.to;
  const m = / to (\S+)/.exec(d.move || '');
  return m ? m[1] : '';
}

// Where a specialty order can go from a lot: the quoted zones (the best
// way to each), else every zone the streets reach; the cheapest first.
function zoneChoices(v, quotes, lot) {
  const best = new Map();
  for (const d of quotes) {
    const to = quoteTo(d);
    if (to && (!best.has(to) || cheaper(d, best.get(to)) < 0)) best.set(to, d);
  }
  if (best.size) {
    return [...best.entries()].map(([code, quote]) => ({ code, quote, length: quote.length }))
      .sort((a, b) => cheaper(a.quote, b.quote));
  }
  const out = [];
  for (const vl of lot ? mapOf(v).map.villages : []) {
    const r = shortestRoute(v, lot.door, vl.zone);
    if (r) out.push({ code: vl.code, quote: null, length: r.length });
  }
  return out.sort((a, b) => a.length - b.length);
}

// The delivery being looked at: the chosen order from the chosen pizzeria
// (to the chosen zone, for a specialty order), its route, and the engine's
// quote for it when it can be announced now.
export function previewOf(ctx) {
  syncSelection(ctx);
  if (ui.order == null || ui.pizzeria == null) return null;
  const v = ctx.v;
  const m = mapOf(v);
  const order = (v.orders || [])[ui.order - 1];
  // the viewer's own pizzeria by its village, or (Copy Cat) another's by its lot
  const owner = lotOwner(ctx, ui.pizzeria) ?? ctx.seat;
  const mine = owner === ctx.seat;
  const pz = mine ? myPizzerias(ctx).find((p) => p.village === ui.pizzeria)
    : ((v.players || [])[owner]?.pizzerias || []).find((p) => p.lot === ui.pizzeria);
  if (!order || !pz) return null;
  const lot = m.lot.get(pz.lot);
  let quotes = (v.deliveries || []).filter((d) => d.slot === ui.order && fromWord(ctx, d) === ui.pizzeria);
  // A specialty order goes to the zone picked, else the cheapest.
  const zones = order.village ? null : zoneChoices(v, quotes, lot);
  let to = null;
  if (zones) {
    to = zones.some((z) => z.code === ui.zone) ? ui.zone : zones.length ? zones[0].code : null;
    quotes = quotes.filter((d) => quoteTo(d) === to);
  }
  // The best way to go: the most money for the cards it takes, then fewer
  // cards, then by the streets; a ride, a boat or the Park Path may beat the
  // streets. A quoted delivery goes the engine's route (the length it is
  // paid for); the page finds one only for a delivery not on offer.
  const best = (a, b) => (b.pay - cardsOf(b)) - (a.pay - cardsOf(a)) || cheaper(a, b);
  const quote = [...quotes].sort(best)[0] || null;
  const zone = quote ? quote.zone : m.village.get(order.village || to)?.zone ?? null;
  let route = null;
  if (quote && Array.isArray(quote.route) && quote.route.length) route = quote.route;
  else if (lot && zone) route = shortestRoute(v, lot.door, zone);
  const prefix = `deliver ${ui.order} from ${ui.pizzeria}${to ? ` to ${to}` : ''}`;
  const moves = ctx.myTurn ? (v.legal || []).filter((l) => l === prefix || l.startsWith(`${prefix} via`)) : [];
  return {
    order, pizzeria: pz, owner, mine, lot, to, zones, zone, route, quote, free: quote ? quote.free : pz.disks, moves,
    plain: quote && moves.includes(quote.move) ? quote.move : moves.includes(prefix) ? prefix : null,
  };
}

// ---- Status ----

function myPrompt(ctx) {
  const v = ctx.v;
  const pe = v.pending;
  switch (ctx.phase) {
    case 'keep': return 'Keep one of your two power cards; the other goes back.';
    case 'start':
      if (v.coop && v.coop.first_round) return 'First round: increase your reputation and build your first pizzeria; the property is free.';
      return 'Your turn: go to market, increase reputation, or deliver (choose an order and one of your pizzerias' +
      `${(v.deliveries || []).some((d) => fromWord(ctx, d) !== d.from) ? ", or with Copy Cat another player's" : ''}).` +
      `${v.special_sale ? ` ${SALE_WORDS}` : ''}` +
      `${(v.legal || []).some((l) => /^refill /.test(l)) ? ' You may also refill Cold Storage first.' : ''}` +
      `${(v.legal || []).some((l) => /^swap /.test(l)) ? ` ${SWAP_WORDS}` : ''}` +
      `${owes(ctx, ctx.seat) ? ` ${OWE_WORDS(owes(ctx, ctx.seat))}` : ''}`;
    case 'market': return 'Take a card from the open market or the deck.';
    case 'bonus': return 'Take a bonus card from the open market or the deck.';
    case 'reputation': return `Build on a lot (click one on the map) or upgrade one of your pizzerias.${v.coop && v.coop.first_round ? ' First round: the property is free.' : ''}`;
    case 'pay': return pe ? `Pay for your pizzeria on ${pe.lot}: $${pe.due} due (money or cards, $1 each): choose, then confirm.` : 'Pay.';
    case 'supply': {
      const stored = (v.legal || []).some((l) => /^use stored /.test(l)) ? ' (from your hand or from Cold Storage)' : '';
      if (pe && pe.needs && pe.needs.length) return `Supply ${pe.needs[0]} for the order${stored}.`;
      if (pe && pe.extras) return `The specialty pizza takes ${plural(pe.extras, 'more card')} of any kind, power cards too.`;
      if ((v.legal || []).some((l) => /^cheese /.test(l))) {
        return 'Extra Cheese: a cheese card on the pizza earns $1 more ($2 on a specialty pizza), or leave it off' +
          `${pe && pe.cheese_left_out ? ': this order asks for cheese, and without it you get no tip' : ''}.`;
      }
      if ((v.legal || []).some((l) => /^extra /.test(l))) return 'Sausage: one more card of an ingredient the order needs earns $1 more; or done.';
      return 'Supply the ingredients.';
    }
    case 'distance': return pe ? `Pay ${plural(pe.due, 'card')} for the spaces beyond your free range: choose, then confirm.` : 'Pay for the distance.';
    case 'tip': return 'Ham: you see the tip tokens on the orders. Keep one; then you put the others back as you like.';
    case 'arrange': return arrangePrompt(ctx);
    case 'after': return `End your turn${(v.legal || []).some((l) => /^refill /.test(l)) ? ', or refill Cold Storage first' : ''}.` +
      `${(v.legal || []).some((l) => /^swap /.test(l)) ? ` ${SWAP_WORDS}` : ''}`;
    case 'copy': return copyPrompt(ctx);
    case 'discard': return 'Discard down to your hand limit: choose the cards, then confirm.';
    case 'fine': return 'A Health Inspector! Pay the fine: $2, or two cards.';
    case 'block': return 'Reserve a lot (click one on the map).';
    case 'farm': return 'Choose a card to store under Farmer Brown.';
    case 'orders': return 'Change the orders (the last card of an order names its village), or change nothing.';
    case 'spot': return "That's My Spot: choose the delivery zone for your disk.";
    case 'charity': return 'Charity Event: give two cards from your hand.';
    case 'crash': return 'Stock Market Crash: one of your pizzerias loses a disk or a card.';
    case 'trim': return `The upgrade left your pizzeria in ${pe ? villageName(ctx, pe.village) : 'that village'} ` +
      `over its reputation limit by ${pe ? pe.due : 1}: remove a card below the top (a disk if there is none), one at a time.`;
    case 'soars': return 'Stock Market Soars: take two cards from the open market or the deck.';
    case 'instant': return `${who(ctx, (v.instant || {}).deliverer)} delivered: play an Instant card on it, or let it go.`;
    case 'tax': return `Property Tax${v.instant ? '' : ` from ${who(ctx, v.whose_turn)}`}: pay $${taxDue(v)} (money, cards or power cards, $1 each): choose, then confirm.`;
    case 'promotion': return promotionPrompt(v);
    case 'transfer': return `Transfer Goods: pass ${passesLeft(ctx) === 1 ? 'one more card' : 'up to two cards'} (market or power cards) to the players beside you, or done to end your turn.`;
    default: return 'Your move.';
  }
}

// Insane or Easier: a new token's back-side pizza waits for its time.
function promotionPrompt(v) {
  const c = v.coop || {};
  const p = (c.promotions || []).find((t) => t.choosing);
  const day = p ? `${p.day}'s ` : '';
  return (c.options || {}).insane
    ? `A ${p ? PROMO_COLOUR[p.colour] || p.colour : ''} promotion went on ${p ? p.day : 'the week'} with Insane's back-side token: its one more pizza comes in ${day}morning or evening. Choose.`
    : `A promotion went on ${p ? p.day : 'the week'} back side up (Easier): its one pizza comes in ${day}morning or evening. Choose.`;
}

// Out of Supplies: what a seat owes before its next delivery ($), or 0.
function owes(ctx, seat) {
  return ((ctx.v.players || [])[seat] || {}).supplies_due || 0;
}

const OWE_WORDS = (due) => `You owe $${due} (Out of Supplies): no delivery until you pay it, in money or with two cards; paying is not your action.`;

const SWAP_WORDS = 'Bait and Switch: once a turn, you may swap a hand card for the top card of an order with the same ingredient (it may move the delivery).';

// Ham: the token kept, and the orders the others go back on.
function arrangePrompt(ctx) {
  const ham = (ctx.v.pending || {}).ham;
  if (!ham) return 'Ham: put the other tip tokens back on the orders, as you like.';
  return `Ham: you keep order ${ham.kept_from}'s tip ($${ham.value}). Put the others back on orders ${ham.places.join(', ')} as you like;` +
    ' only you see their values.';
}

// Harlem Rotary Pizzeria: whose delivery may be copied, and how.
function copyPrompt(ctx) {
  const v = ctx.v;
  const o = v.copy;
  const what = o ? `${who(ctx, v.copy_turn_of)} delivered ${o.name} ($${o.pay}) to ${villageName(ctx, o.village || HARLEM)}` : 'A delivery went to Harlem';
  const can = (v.legal || []).some((l) => /^copy /.test(l));
  return `Harlem Rotary Pizzeria: ${what}. ` + (can
    ? 'Copy it from one of your pizzerias (you supply it and pay the distance as for your own delivery; you earn the same money, a random tip and a power card), or let it go.'
    : 'No pizzeria of yours can make it with your hand now (why: beside the map). One click lets it go.');
}

export function resultText(ctx) {
  const score = ctx.msg.score;
  const c = ctx.v.coop;
  if (c) { // one result for the whole team
    const won = score && score.coop ? score.coop.won : c.result === 'won';
    if (won) return 'The team won: both goals met.';
    return `The team lost${/^lost: /.test(c.result) ? `: ${c.result.slice(6)}` : ''}.`;
  }
  const winners = (score && score.winners) || ctx.v.winners || [];
  if (!winners.length) return 'No winner.';
  const names = winners.map((s) => who(ctx, s));
  return names.length > 1 ? `Shared win: ${names.join(' and ')}.` : `${names[0]} wins.`;
}

// The optional Top Chef once the die is rolled: the roll, its category, the
// chef (a tie shares); '' without it.
function topChefHtml(ctx) {
  const sc = ctx.msg.score && ctx.msg.score.coop;
  const chef = (sc && sc.top_chef) || (ctx.v.coop || {}).top_chef;
  if (!chef) return '';
  const names = (chef.seats || []).map((s) => who(ctx, s));
  // each player's value in the category (pizzerias and category 6 are in no table)
  const values = (chef.values || []).map((x, s) => `${who(ctx, s)} ${x}`).join(' · ');
  return `<p class="pd-top-chef" data-roll="${esc(chef.roll)}">Top Chef <span class="muted">(die ${esc(chef.roll)}: ${esc(chef.category)})</span>: ` +
    `<b>${esc(names.join(' and '))}</b>${names.length > 1 ? ' (shared)' : ''}` +
    `${values ? `<br><span class="muted pd-chef-values">each player's value: ${esc(values)}</span>` : ''}</p>`;
}

export function statusHtml(ctx) {
  const v = ctx.v;
  const bits = ['New York Pizza Delivery', `Turn ${esc((v.turn ?? 0) + 1)}`, `Inspectors ${esc(v.inspectors ?? 0)} of 3`];
  if (v.coop) bits.splice(1, 0, `Co-op · ${esc(v.coop.day)}`);
  if (ctx.phase !== 'over') bits.push(esc(PHASE_WORDS[ctx.phase] || ctx.phase));
  if (ctx.seat == null && !ctx.msg.replaying) bits.push('<span class="watching">watching</span>');
  let prompt;
  if (ctx.phase === 'over') prompt = `<b>Game over.</b> ${esc(resultText(ctx))}`;
  else if (ctx.myTurn) prompt = `<b class="your-turn">${esc(myPrompt(ctx))}</b>`;
  else if (v.to_move != null) prompt = `Waiting for ${esc(who(ctx, v.to_move))}: ${esc(PHASE_WORDS[ctx.phase] || 'to move')}.`;
  else prompt = 'Waiting.';
  return { headline: bits.join(' · '), prompt };
}

// ---- The co-op team (PD-C1) ----

const DAY_SHORT = { Saturday: 'Sat', Sunday: 'Sun', Monday: 'Mon', Tuesday: 'Tue', Wednesday: 'Wed', Thursday: 'Thu', Friday: 'Fri' };
const DAYS = Object.keys(DAY_SHORT);
const PROMO_COLOUR = { blue: 'Blue', red: 'Red', friday: "Friday's" };
const PROMO_LABEL = { morning: '2 AM', evening: '2 PM', 'morning and evening': '1+1' };
const PROMO_WORDS = {
  morning: 'two orders in the morning (the start of the turn)', evening: 'two orders in the evening (the end of the turn)',
  'morning and evening': 'one order in the morning and one in the evening',
};

// A progress bar: SVG, since the page's security policy allows no inline
// styles; `ticks` are the promotion markers on the money track.
function barSvg(value, goal, scale, what, ticks = []) {
  const W = 200, x = (n) => f1((Math.min(Math.max(n, 0), scale) / scale) * W);
  const marks = ticks.map((t) => `<rect class="pd-tick ${esc(t.colour)}${t.passed ? ' passed' : ''}" x="${x(t.at)}" y="0" width="2.4" height="12"/>`).join('');
  return `<svg class="pd-bar" viewBox="0 0 ${W} 12" preserveAspectRatio="none" role="img" aria-label="${esc(what)}">` +
    `<rect class="pd-bar-bg" x="0" y="2" width="${W}" height="8" rx="2"/>` +
    `<rect class="pd-bar-fill${value >= goal ? ' done' : ''}" x="0" y="2" width="${x(value)}" height="8" rx="2"/>` +
    `<rect class="pd-bar-goal" x="${f1(Math.min(W - 2, +x(goal)))}" y="0" width="2" height="12"/>${marks}</svg>`;
}

function nextPromotionText(np) {
  const when = np.turns === 0 ? 'at the end of this turn' : `in ${plural(np.turns, 'turn')} (${np.day})`;
  return `${when}: ${plural(np.orders, 'order')}`;
}

// The team's panel, always in sight: money and pizzas against the goals,
// the promotion markers on the money track, the week tracker with the pawn
// on today and the promotion tokens, the next promotion, the order cards.
export function teamHtml(ctx) {
  const c = ctx.v.coop;
  if (!c) return '';
  const markers = c.markers || [];
  const scale = Math.max(c.money_goal, c.money, ...markers.map((m) => m.at), 1);
  const byColour = Object.fromEntries(markers.map((m) => [m.colour, m]));
  const code = `B${byColour.blue?.at ?? '?'} · R${byColour.red?.at ?? '?'} · P${c.pizzas_goal} · M${c.money_goal}`;
  const over = ctx.phase === 'over';
  let out = `<h2>The team <span class="muted pd-team-code" title="the promotion markers and the goals">${esc(code)}</span></h2>`;
  if (over) {
    const won = c.result === 'won';
    out += `<p class="pd-team-result ${won ? 'won' : 'lost'}">${esc(resultText(ctx))}</p>${topChefHtml(ctx)}`;
  } else if (c.first_round) {
    out += '<p class="pd-first-round">First round: everyone\'s first action is to increase their reputation, with free property for the first pizzeria.</p>';
  }
  const money = `Money $${c.money} of $${c.money_goal}`;
  const pizzas = `Pizzas ${c.pizzas} of ${c.pizzas_goal}`;
  out += `<div class="pd-goal" data-goal="money"><div class="pd-goal-head"><span class="label">Money</span> <b class="pd-team-money">$${esc(c.money)}</b> of $${esc(c.money_goal)}` +
    `${c.money >= c.money_goal ? ' <span class="badge">met</span>' : ''}</div>${barSvg(c.money, c.money_goal, scale, money, markers)}</div>`;
  out += `<div class="pd-goal" data-goal="pizzas"><div class="pd-goal-head"><span class="label">Pizzas</span> <b class="pd-team-pizzas">${esc(c.pizzas)}</b> of ${esc(c.pizzas_goal)}` +
    `${c.pizzas >= c.pizzas_goal ? ' <span class="badge">met</span>' : ''}</div>${barSvg(c.pizzas, c.pizzas_goal, Math.max(c.pizzas_goal, c.pizzas, 1), pizzas)}</div>`;
  // the markers in words: reaching one puts a promotion token on the week
  const said = markers.map((m) => `<span class="pd-marker ${esc(m.colour)}${m.passed ? ' passed' : ''}" data-colour="${esc(m.colour)}" data-passed="${m.passed}">` +
    `${esc(PROMO_COLOUR[m.colour] || m.colour)} promotion at $${esc(m.at)}${m.passed ? ': reached' : ''}</span>`);
  if (said.length) out += `<p class="pd-markers">${said.join(' ')}</p>`;
  const opts = c.options || {};
  const chosen = [opts.insane && 'Insane Difficulty: each promotion token brings a back-side token, one pizza more',
    opts.easier && 'Easier Mode: promotion tokens back side up, one pizza each (Friday still two)',
    opts.top_chef && 'Top Chef by the die at the end'].filter(Boolean);
  if (chosen.length) out += `<p class="pd-coop-options">${chosen.map(esc).join(' · ')}</p>`;

  const promoAt = new Map((c.promotions || []).map((p) => [p.day, p]));
  const days = DAYS.map((day, i) => {
    const p = promoAt.get(day);
    const today = i === c.day_index;
    const cls = ['pd-day'];
    if (today) cls.push('today');
    const title = [day];
    if (today) title.push('today: the pawn is here');
    let token = '';
    if (p) {
      // Easier: back side up, one pizza; Insane: a back-side token with one more
      const back = p.orders === 1;
      const words = back ? (p.when ? `one order in the ${p.when} (back side up)` : 'one order, morning or evening: being chosen')
        : PROMO_WORDS[p.when] || p.when;
      const extra = p.extra ? ` and one more in the ${p.extra} (Insane)` : p.choosing ? ' and one more, morning or evening: being chosen' : '';
      const label = back ? (p.when ? `1 ${p.when === 'morning' ? 'AM' : 'PM'}` : '1 ?') : `${PROMO_LABEL[p.when] || '?'}${p.extra ? `+1 ${p.extra === 'morning' ? 'AM' : 'PM'}` : p.choosing ? '+1 ?' : ''}`;
      title.push(`${PROMO_COLOUR[p.colour] || p.colour} promotion: ${words}${extra}` +
        `${p.asleep ? ' (placed under the pawn: not used until it comes back)' : ''}`);
      token = `<span class="pd-promo ${esc(p.colour)}${p.asleep ? ' asleep' : ''}${back ? ' back' : ''}" data-colour="${esc(p.colour)}" data-when="${esc(p.when)}"` +
        `${p.extra ? ` data-extra="${esc(p.extra)}"` : ''} data-orders="${esc(p.orders ?? 2)}"` +
        ` data-asleep="${p.asleep}">${esc(label)}${p.asleep ? ' <span class="pd-zz">z</span>' : ''}</span>`;
    }
    return `<li class="${cls.join(' ')}" data-day="${esc(day)}"${today ? ' data-today="true"' : ''} title="${esc(title.join(' · '))}">` +
      `<span class="pd-day-name">${esc(DAY_SHORT[day])}</span>${today ? '<span class="pd-pawn" aria-label="today">♟</span>' : ''}${token}</li>`;
  });
  out += `<h3>Week <span class="muted">(the pawn moves a day after every turn)</span></h3><ol class="pd-week">${days.join('')}</ol>`;
  const facts = [];
  if (c.next_promotion) facts.push(`<li class="pd-next-promo">Next promotion ${esc(nextPromotionText(c.next_promotion))}</li>`);
  const short = !over && c.next_promotion && c.orders_left < c.next_promotion.orders;
  facts.push(`<li class="pd-orders-left${short ? ' warn' : ''}">Order cards left: <b>${esc(c.orders_left)}</b>` +
    `${short ? ' — too few for the next promotion: the team loses then' : ''} · pushed into the sewer: ${esc(c.orders_out)}</li>`);
  out += `<ul class="pd-team-facts">${facts.join('')}</ul>`;
  out += '<details class="rule"><summary>How the team wins</summary><p>Together reach both goals: the money (the team\'s, from deliveries; ' +
    'property and fines are paid from it) and the pizzas delivered. The team loses when the third Health Inspector comes, or when a ' +
    'promotion finds no order card left. Orders come only with promotions: Friday evening, and the Blue and Red tokens placed on a ' +
    'random day when the money reaches their markers; a new order enters at Order 1 and pushes the others on, past Order 4 into the sewer. ' +
    'Before ending a turn you may pass up to two cards to the players beside you (Transfer Goods).</p></details>';
  return `<div class="pd-team" data-money="${esc(c.money)}" data-money-goal="${esc(c.money_goal)}" data-pizzas="${esc(c.pizzas)}"` +
    ` data-pizzas-goal="${esc(c.pizzas_goal)}" data-day="${esc(c.day)}" data-result="${esc(c.result)}">${out}</div>`;
}

// ---- Orders, market, hand ----

function legalIndex(ctx) {
  // verb -> Map(card key -> move), for the cards a click can play;
  // "use stored CARD" and "cheese stored CARD" (a card under Cold Storage,
  // never both at once) under the verb "stored"
  const out = new Map();
  if (!ctx.myTurn) return out;
  for (const l of ctx.v.legal || []) {
    const w = l.split(' ');
    if (w.length === 3 && (w[0] === 'use' || w[0] === 'cheese') && w[1] === 'stored') w.splice(0, 2, 'stored');
    if (w.length !== 2 || !/^(take|pay|use|stored|discard|extra|cheese|play|farm|instant)$/.test(w[0]) || w[1] === 'deck' || /^\$/.test(w[1])) continue;
    if (!out.has(w[0])) out.set(w[0], new Map());
    out.get(w[0]).set(/^power:/.test(w[1]) ? w[1] : cardKey(ctx, w[1]), l);
  }
  return out;
}

// Cards named in a list, each once with how many: [{card, count}].
function countCards(ctx, list) {
  const out = new Map();
  for (const c of list || []) {
    const k = cardKey(ctx, c);
    if (out.has(k)) out.get(k).count++;
    else out.set(k, { card: c, count: 1 });
  }
  return [...out.values()];
}

// An order's pay and tip: the tip's value once the viewer has looked at it (Ham).
export function payText(o) {
  return `$${o.pay}${o.tip_value != null ? ` + tip $${o.tip_value}` : o.tip ? ' + tip' : ''}`;
}

// An order's ingredients: its cards, or a specialty pizza's needs.
function orderCardsHtml(ctx, o) {
  return o.specialty
    ? (o.needs || []).map((n) => `<span class="pd-need">${esc(n.count)} × ${esc(n.ingredient)}</span>`).join(' ') +
      (o.extra_cards ? ` <span class="pd-need">+ ${plural(o.extra_cards, 'extra card')}</span>` : '')
    : (o.cards || []).map((c) => cardChip(ctx, c)).join(' ');
}

// Orders 1-4 are the board's; 5 and 6 come with Pandemic and are not replaced.
const BOARD_SLOTS = 4;

// While a global lasts some rounds: whose turn ends it.
function untilWhom(ctx) {
  const u = ctx.v.global_until;
  return u ? `until ${who(ctx, u.seat)}'s turn` : '';
}

// An order as a compact card: its number, where it goes (the village on its
// colour), what it pays, then its ingredients as chips; the pizza's name below.
function orderHtml(ctx, o, slot, can) {
  if (!o) {
    const why = slot > BOARD_SLOTS ? " (Pandemic's orders are not replaced)" : '';
    return `<li class="pd-order empty" data-slot="${slot}"><span class="muted">Order ${slot}: none${why}</span></li>`;
  }
  const sel = ui.order === o.slot;
  const cls = ['pd-order'];
  if (o.specialty) cls.push('specialty');
  if (o.outage) cls.push('dark');
  if (sel) cls.push('selected');
  if (can) cls.push('can');
  const cards = (o.outage
    ? `<span class="pd-need pd-outage">no ingredients: Power Outage ${esc(untilWhom(ctx))}</span>` : orderCardsHtml(ctx, o)) + (o.cheese
    ? ' <span class="pd-need pd-cheese-asked" title="Extra Cheese: delivered without cheese, this order earns no tip">asks for cheese</span>' : '');
  return `<li class="${cls.join(' ')}" data-slot="${o.slot}" data-pick="order" data-value="${o.slot}" tabindex="0" role="button"` +
    ` aria-pressed="${sel}" title="${esc(`Order ${o.slot}: ${o.name}; click to choose it for a delivery`)}">` +
    `<div class="pd-order-head"><span class="pd-slot">${o.slot}</span> ${destinationHtml(ctx, o)}` +
    ` <span class="pd-pay">${esc(payText(o))}</span></div><div class="pd-order-cards">${cards}</div>` +
    `<div class="pd-order-name">${esc(o.name)}</div></li>`;
}

// Harlem Rotary Pizzeria: the delivery to Harlem its holder may copy, with
// the order's ingredients, while they decide.
function copyHtml(ctx) {
  const v = ctx.v;
  const o = v.copy;
  const mine = v.to_move === ctx.seat && ctx.seat != null;
  const can = !mine || (v.legal || []).some((l) => /^copy /.test(l));
  const holder = !mine ? `${who(ctx, v.to_move)} may copy it from one of their pizzerias`
    : can ? 'you may copy it from one of your pizzerias' : 'you cannot copy it now';
  return `<div id="delivery-copy" class="pd-copy"><b>Harlem Rotary Pizzeria:</b> ${esc(who(ctx, v.copy_turn_of))} delivered` +
    ` <b>${esc(o.name)}</b> to ${esc(villageName(ctx, o.village || HARLEM))} (${esc(payText(o))}); ${esc(holder)}.` +
    `<div class="pd-order-cards">${orderCardsHtml(ctx, o)}</div></div>`;
}

// Harlem Rotary Pizzeria when no copy can be made: one decision, one
// button, and why, from what the holder sees (the streets from each of their
// pizzerias to Harlem, its free range, the ingredients it lacks, the hand).
// The page does not answer it by itself: the question comes whatever the
// hand holds, and an answer at once would tell the other people at the
// table that this hand could not make the copy.
function copyCannotHtml(ctx) {
  const v = ctx.v;
  const o = v.copy || {};
  const ing = (c) => cardParts(ctx, c).ingredient.toLowerCase();
  const wanted = o.specialty ? (o.needs || []).flatMap((n) => Array(n.count || 1).fill(String(n.ingredient)))
    : (o.cards || []).map((c) => cardParts(ctx, c).ingredient);
  const m = mapOf(v);
  const zone = m.village.get(HARLEM)?.zone;
  const market = (v.hand || []).reduce((a, h) => a + h.count, 0);
  const powers = (v.powers || []).length;
  const rows = myPizzerias(ctx).map((pz) => {
    const lot = m.lot.get(pz.lot);
    const r = lot && zone ? shortestRoute(v, lot.door, zone) : null;
    const own = new Set((pz.cards || []).map(ing));
    const lacking = wanted.filter((w) => !own.has(String(w).toLowerCase()));
    const dist = r ? Math.max(0, r.length - pz.disks) : null;
    const bits = [r ? `${plural(r.length, 'space')} by the streets, ${pz.disks} free: ${plural(dist, 'card')} for the distance` : 'no street route'];
    bits.push(lacking.length ? `${lacking.join(', ')} from your hand` : 'every ingredient in the pizzeria');
    return `<li>${esc(villageName(ctx, pz.village))} <span class="muted">(${esc(pz.lot)})</span>: ${esc(bits.join('; '))}</li>`;
  });
  return `<div id="delivery-copy-cannot" class="pd-group pd-copy-cannot" data-group="copy">` +
    `<h3>Harlem Rotary Pizzeria: no copy possible now</h3>` +
    `<p class="pd-hint">${esc(who(ctx, v.copy_turn_of))} delivered ${esc(o.name || 'an order')} to ${esc(villageName(ctx, HARLEM))}.` +
    ` No pizzeria of yours can make it with your hand (${esc(plural(market, 'market card'))}${powers ? `, ${esc(plural(powers, 'power card'))}` : ''}):</p>` +
    `${rows.length ? `<ul class="pd-copy-why">${rows.join('')}</ul>` : ''}` +
    '<p class="muted pd-hint">You are asked whenever a delivery goes to Harlem, whatever your hand, so the question tells nobody what you hold.</p>' +
    '<div class="action-list"><button type="button" class="pd-move pd-let-go" data-action="done" title="done">OK: let it go</button></div></div>';
}

// The delivery the others may answer with an Instant card: whose it was,
// and who is asked now (or pays the Property Tax just played).
function instantNowHtml(ctx) {
  const v = ctx.v;
  const ins = v.instant;
  const mine = ctx.seat != null && v.to_move === ctx.seat;
  const asked = who(ctx, v.to_move);
  const what = `<b>${esc(who(ctx, ins.deliverer))}</b> delivered and took ${esc(plural(ins.tips, 'tip token'))}`;
  if (ctx.phase === 'tax') {
    return `<span id="delivery-instant-now" class="pd-instant-now" data-phase="tax">${what}. Property Tax: ${mine ? 'you pay' : `${esc(asked)} pays`}` +
      ` <b class="pd-tax-due">$${esc(ins.tax_due)}</b> more.</span>`;
  }
  return `<span id="delivery-instant-now" class="pd-instant-now" data-phase="instant">${what}. ` +
    `${mine ? 'You may answer it with an Instant card.' : `Waiting for ${esc(asked)} to answer the delivery with an Instant card.`}</span>`;
}

// The cards under the viewer's Cold Storage, beside the hand: a click uses
// one while supplying a delivery.
function coldStorageHtml(ctx, idx) {
  const cold = ((ctx.v.players || [])[ctx.seat] || {}).cold_storage;
  if (!Array.isArray(cold)) return '';
  const use = idx.get('stored') || new Map();
  const chips = countCards(ctx, cold).map((c) => cardChip(ctx, c.card, { count: c.count, action: use.get(cardKey(ctx, c.card)) || null }));
  return `<h3>Under Cold Storage <span class="muted">(${plural(cold.length, 'card')})</span></h3>` +
    `<div id="delivery-cold" class="pd-cards">${chips.join(' ') || '<span class="muted">empty: discard a hand card to refill it</span>'}</div>`;
}

export function infoHtml(ctx) {
  syncSelection(ctx);
  const v = ctx.v;
  const idx = legalIndex(ctx);
  const can = new Set(ctx.myTurn && ctx.phase === 'start' ? (v.deliveries || []).map((d) => d.slot) : []);
  const slots = Math.max(BOARD_SLOTS, (v.orders || []).length);
  const orders = Array.from({ length: slots }, (_, i) => orderHtml(ctx, (v.orders || [])[i], i + 1, can.has(i + 1))).join('');

  const takes = idx.get('take') || new Map();
  const deckMove = ctx.myTurn && (v.legal || []).includes('take deck');
  const deck = deckMove
    ? `<button type="button" class="pd-deck playable" data-action="take deck" title="take the top card of the deck">Deck: ${esc(v.deck)}</button>`
    : `<span class="pd-deck">Deck: ${esc(v.deck)}</span>`;

  let hand = '';
  if (ctx.seat != null && Array.isArray(v.hand)) {
    // While the payment panel chooses the cards, a card in hand is not a
    // payment of its own (that would skip the panel's choice).
    const paying = choosesHere(ctx) ? ['pay', 'discard'] : [];
    const verbOf = (verbs, key) => {
      for (const verb of verbs) if (!paying.includes(verb) && idx.get(verb)?.has(key)) return idx.get(verb).get(key);
      return null;
    };
    const play = (text) => verbOf(['use', 'cheese', 'pay', 'farm', 'discard'], cardKey(ctx, text));
    const powerPlay = (id) => verbOf(['play', 'instant', 'pay', 'discard'], `power:${id}`);
    hand = handHtml(ctx, play, powerPlay) + coldStorageHtml(ctx, idx);
  }

  let now = '';
  const pe = v.pending;
  if (ctx.phase === 'copy' && v.copy) now = copyHtml(ctx);
  else if (v.instant && v.to_move != null) now = instantNowHtml(ctx);
  else if (ctx.phase === 'tax' && v.to_move != null) {
    // Property Tax played on its player's own turn (a Timed card)
    const mine = ctx.seat != null && v.to_move === ctx.seat;
    now = `<span id="delivery-instant-now" class="pd-instant-now" data-phase="tax"><b>${esc(who(ctx, v.whose_turn))}</b> played Property Tax` +
      ` on ${mine ? 'you' : esc(who(ctx, v.to_move))}: ${mine ? 'you pay' : 'they pay'} <b class="pd-tax-due">$${esc(taxDue(v))}</b> more.</span>`;
  }
  else if (pe && v.to_move != null) {
    const name = who(ctx, v.to_move);
    if (pe.kind === 'build') {
      const given = [...(pe.cards || []).map((c) => cardChip(ctx, c.card, { count: c.count })),
        ...(pe.powers || []).map((id) => powerFace(ctx, id, { size: 'mini' }))].join(' ');
      now = `${esc(name)} is building on <b>${esc(pe.lot)}</b> with ${cardChip(ctx, pe.card)}: $${esc(pe.due)} still due` +
        `${pe.money ? `; paid: $${esc(pe.money)}` : ''}${given ? `; given: ${given}` : ''}`;
    } else if (pe.kind === 'deliver' || pe.kind === 'copy') {
      const paid = [...(pe.cards || []).map((c) => cardChip(ctx, c.card, { count: c.count })),
        ...(pe.powers || []).map((id) => powerFace(ctx, id, { size: 'mini' }))].join(' ');
      const stored = countCards(ctx, pe.stored).map((c) => cardChip(ctx, c.card, { count: c.count })).join(' ');
      const what = pe.kind === 'copy'
        ? `is copying the delivery to ${villageName(ctx, HARLEM)} (Harlem Rotary Pizzeria)` : `is delivering ${orderWords(ctx, pe.slot)}`;
      const from = pe.kind === 'deliver' && pe.owner != null && pe.owner !== v.whose_turn
        ? `${who(ctx, pe.owner)}'s pizzeria on ${pe.lot} (Copy Cat)` : villageName(ctx, pe.from);
      const sale = pe.kind === 'deliver' && v.special_sale ? ' on a Special Sale (every ingredient twice)' : '';
      now = `${esc(name)} ${esc(what)}${esc(sale)} from ${esc(from)}` +
        `${pe.needs && pe.needs.length ? `; still to supply: ${esc(pe.needs.join(', '))}` : ''}` +
        `${pe.extras ? `; ${plural(pe.extras, 'extra card')}` : ''}${pe.due ? `; ${plural(pe.due, 'card')} for the distance` : ''}` +
        `${paid ? `; given: ${paid}` : ''}${stored ? `; from Cold Storage: ${stored}` : ''}${pe.short ? ' (one ingredient left out)' : ''}` +
        `${pe.cheese ? ' (with Extra Cheese)' : pe.cheese_left_out ? ' (the order asks for Extra Cheese: no tip without)' : ''}`;
    }
  }

  // Sections a wide screen lays out side by side (style.css): the orders
  // beside the hand and the open market, so the cards are in sight while
  // choosing; the others' last turns (marked on the map too) after them.
  return `<div id="delivery-now" class="pd-now"${now ? '' : ' hidden'}>${now}</div>` +
    `<section class="pd-info-orders"><h2>Orders</h2><ol id="delivery-orders" class="pd-orders">${orders}</ol></section>` +
    `<section class="pd-info-cards">${hand}${marketHtml(ctx, takes, deck)}` +
    `${v.global ? `<p class="pd-counts">In force for everyone: ${powerFace(ctx, v.global, { size: 'mini' })}` +
      `${v.global_until ? ` ${esc(untilWhom(ctx))}` : ''}` +
      `${v.shortage ? ` (no pizza with ${esc(v.shortage.split('/')[1] || v.shortage)} may be delivered)` : ''}</p>` : ''}</section>` +
    othersHtml(ctx);
}

// ---- The moves: the delivery preview, and every legal move as a button ----

const GROUPS = [
  // a delivery first: the action that pays (its choices fit the screen beside the map)
  ['keep', 'Power card'], ['supplies', 'Out of Supplies: pay $2 before delivering'], ['deliver', 'Deliver'], ['start', 'Action'], ['play', 'Play a power card'], ['copy', 'Harlem Rotary Pizzeria'],
  ['take', 'Take'], ['build', 'Build'], ['upgrade', 'Upgrade'], ['remove', 'Over the reputation limit'], ['pay', 'Pay'], ['use', 'Supply'], ['extra', 'Extra'], ['short', 'Short'],
  ['cheese', 'Extra Cheese'],
  ['tip', 'Keep a tip'], ['arrange', 'Put the other tips back'], ['fine', 'Fine'], ['swap', 'Bait and Switch'],
  ['block', 'Reserve a lot'], ['farm', 'Farmer Brown'], ['refill', 'Cold Storage'],
  ['discard', 'Discard'], ['promo', 'When the back-side pizza comes'], ['done', 'Finish'],
];
const GROUP_OF = {
  keep: 'keep', market: 'start', reputation: 'start', deliver: 'deliver', take: 'take', build: 'build', upgrade: 'upgrade', remove: 'remove',
  pay: 'pay', use: 'use', extra: 'extra', short: 'short', cheese: 'cheese', tip: 'tip', arrange: 'arrange', fine: 'fine', discard: 'discard', done: 'done', end: 'done',
  play: 'play', swap: 'swap', block: 'block', farm: 'farm', copy: 'copy', refill: 'refill', supplies: 'supplies',
  morning: 'promo', evening: 'promo',
};

// A copy on the holder's own button: the pizzeria is theirs.
function copyWords(ctx, text) {
  return moveWords(ctx, text).replace('from the pizzeria', 'from your pizzeria');
}

// A legal move on its button: moveWords, plus what only the position now
// tells (the log words a move without it).
function buttonWords(ctx, text) {
  const w = text.split(' ');
  if (w[0] === 'done' && ctx.phase === 'copy') return 'let it go: no copy';
  if (w[0] === 'done' && ctx.phase === 'instant') return 'let it go: no Instant card';
  if (w[0] === 'done' && (ctx.v.legal || []).some((l) => /^cheese /.test(l))) {
    return `no Extra Cheese${ctx.v.pending && ctx.v.pending.cheese_left_out ? ' (and no tip)' : ''}`;
  }
  if (w[0] === 'tip') {
    const o = (ctx.v.orders || [])[Number(w[1]) - 1];
    if (o && o.tip_value != null) return `${moveWords(ctx, text)} ($${o.tip_value})`;
  }
  if (w[0] === 'copy' && !w.includes('via')) {
    // the way by the streets, from the pizzeria's door to Harlem's zone
    const m = mapOf(ctx.v);
    const pz = myPizzerias(ctx).find((p) => p.village === w[2]);
    const lot = pz && m.lot.get(pz.lot);
    const zone = m.village.get(HARLEM)?.zone;
    const r = lot && zone ? shortestRoute(ctx.v, lot.door, zone) : null;
    if (r) return `${copyWords(ctx, text)} (${plural(r.length, 'space')} by the streets)`;
  }
  if (w[0] === 'copy') return copyWords(ctx, text);
  return moveWords(ctx, text);
}

function previewHtml(ctx, pv) {
  const o = pv.order;
  const q = pv.quote;
  // the engine's count for a quoted delivery: a ride's last station is on
  // the route but the ride counts 0
  const len = q ? q.length : pv.route ? pv.route.length : null;
  const ride = q && /\bvia (red|blue|subway)\b/.test(q.move || '');
  const to = pv.to ? ` to ${villageName(ctx, pv.to)}` : '';
  const whose = pv.mine ? 'your' : `${who(ctx, pv.owner)}'s`;
  const head = `<h3>Delivery: ${esc(orderWords(ctx, o.slot))}${esc(to)} from ${esc(whose)} ${esc(villageName(ctx, pv.pizzeria.village))} pizzeria (${esc(pv.pizzeria.lot)})</h3>`;
  const facts = [];
  if (!pv.mine) facts.push('<li class="pd-copy-cat">Copy Cat: its ingredients and free range, not its top card\'s power; the rest from your hand; it pays you, not its owner</li>');
  if (ctx.v.special_sale) facts.push(`<li class="pd-sale">${esc(SALE_WORDS)}</li>`);
  if (len != null) facts.push(`<li>Route: <b class="pd-len">${len}</b> ${len === 1 ? 'space' : 'spaces'} (the door counts 1${ride ? ', the ride 0' : ''})</li>`);
  else facts.push('<li>No street route.</li>');
  let body;
  let chain = { then: [], powers: [] };
  let inAll = null; // the cards it takes from the hand, as Confirm makes it
  if (q) {
    if (len != null && len !== q.length) facts.push(`<li class="muted">By the engine's count: ${q.length} spaces.</li>`);
    facts.push(`<li>Free range: <b>${q.free}</b>${q.distance_cards ? ` → <b>${plural(q.distance_cards, 'card')}</b> for the distance` : ' → no cards for the distance'}</li>`);
    chain = deliveryChain(ctx, pv, q);
    const named = (list) => list.map((w) => (/^power:/.test(w)
      ? `<span class="pd-power pd-power-spent" title="${esc(`the power card ${powerName(w, ctx)}, spent as a card`)}"><b>★</b> ${esc(powerName(w, ctx))}</span>` : cardChip(ctx, w))).join(' ');
    // the cards Confirm uses: a card that fits is used rather than leaving the ingredient out (the quote counts the least)
    const ingredients = chain.uses ? chain.uses.length : q.ingredient_cards;
    facts.push(`<li>Ingredients from your hand: <b>${plural(ingredients, 'card')}</b>` +
      `${q.extra_cards ? `, plus <b>${plural(q.extra_cards, 'extra card')}</b>` : ''}` +
      `${chain.uses && chain.uses.length ? `: <span class="pd-chain-uses">${named(chain.uses)}</span>` : q.ingredient_cards ? ' (you choose them next)' : ''}` +
      `${chain.short ? ' (one ingredient left out: no tip)' : ''}</li>`);
    if (q.distance_cards) {
      facts.push(`<li>For the distance: ${chain.pay ? `<span class="pd-chain-pay">${named(chain.pay.split(' ').slice(1))}</span>` : 'you choose the cards next'}</li>`);
    }
    // a power card is spent only when the market cards cannot pay: said, with why
    if (chain.powers.length) {
      const market = (ctx.v.hand || []).reduce((a, h) => a + h.count, 0);
      const forUses = (chain.uses || []).length;
      facts.push(`<li class="pd-chain-power"><b>${chain.powers.length === 1 ? 'A power card is' : `${chain.powers.length} power cards are`} spent:</b>` +
        ` ${esc(chain.powers.map((w) => powerName(w, ctx)).join(' and '))} pays for ${plural(chain.powers.length, 'space')}, as a card, not played.` +
        ` ${market === 0 ? 'You have no market card' : market === 1 ? 'Your one market card goes too' : market === 2 ? 'Both your market cards go too' : `All ${market} of your market cards go too`}` +
        `${forUses ? ` (${forUses} for the ingredients)` : ''}; to keep the power card, go to market first.</li>`);
    }
    // Extra Cheese: the pizzeria's own is in the pay; a card from hand may add it
    const noCheese = q.cheese_required && !q.cheese_in_pizzeria && !q.cheese_cards;
    if (q.cheese_bonus && q.cheese_in_pizzeria) facts.push(`<li class="pd-cheese">Extra Cheese from your pizzeria: +$${q.cheese_bonus}, in the pay</li>`);
    else if (q.cheese_bonus && q.cheese_cards) {
      const which = q.cheese_cards === 1 ? 'your cheese card' : `one of your ${plural(q.cheese_cards, 'cheese card')}`;
      facts.push(`<li class="pd-cheese">Extra Cheese: +$${q.cheese_bonus} if you put ${which} on it` +
        `${q.cheese_required ? ' (the order asks for it: without it, no tip)' : ''}</li>`);
    } else if (noCheese) facts.push('<li class="pd-cheese">The order asks for Extra Cheese and you have none: no tip</li>');
    // Special Sale: the order's token and the top face-down one
    const tip = noCheese ? ', no tip' : ctx.v.special_sale ? `, two tip tokens${o.tip_value != null ? ` (one $${o.tip_value})` : ''}`
      : o.tip_value != null ? `, a tip token ($${o.tip_value})` : o.tip ? ', a tip token' : '';
    inAll = cardsOf(q) - q.ingredient_cards + ingredients;
    facts.push(`<li>In all: <b class="pd-cost">${plural(inAll, 'card')}</b>; pays <b class="pd-earn">$${q.pay}</b>${tip} and a power card</li>`);
    body = '';
  } else {
    facts.push(`<li>Free range: ${pv.free}</li>`);
    // the engine's reason, as the move would be refused with
    const why = (ctx.v.undeliverable || []).find((u) => u.slot === o.slot && u.from === pv.pizzeria.village)?.why;
    body = `<p class="pd-cannot">${ctx.myTurn && ctx.phase === 'start'
      ? `You cannot deliver this now: ${esc(why || 'the order\'s ingredients cannot be supplied, or you lack the cards')}.`
      : 'Deliveries are announced at the start of your turn.'}</p>`;
  }
  const buttons = [];
  // Confirm carries the whole delivery: the ingredients and the distance chosen
  // ahead (as shown above) go after it; a second button ends the turn too.
  const then = (extra) => (chain.then.length || extra ? ` data-then="${esc([...chain.then, ...(extra ? [extra] : [])].join('|'))}"` : '');
  if (pv.plain) {
    // a power card in the payment is named on the button that spends it
    const spends = chain.powers.length ? `, spending ${chain.powers.map((w) => powerName(w, ctx)).join(' and ')}` : '';
    buttons.push(`<button type="button" id="delivery-confirm" data-action="${esc(pv.plain)}"${then('')}${spends ? ' data-spends-power="true"' : ''}>` +
      `Deliver order ${o.slot}${esc(to)}${esc(spends)}</button>`);
    if (!autoEnd() && chain.whole) {
      buttons.push(`<button type="button" id="delivery-confirm-end" class="secondary" data-action="${esc(pv.plain)}"${then('end')}>Deliver and end turn${esc(spends)}</button>`);
    }
    if (chain.pay) {
      // the distance's cards chosen otherwise: the payment panel after the ingredients
      const steps = chain.then.filter((m) => !/^pay /.test(m));
      buttons.push(`<button type="button" id="delivery-confirm-choose" class="secondary small" data-action="${esc(pv.plain)}"` +
        `${steps.length ? ` data-then="${esc(steps.join('|'))}"` : ''}>Deliver, choose the distance's cards</button>`);
    }
  }
  // Another way to go (a ride, the boat, the Park Path), with what it costs and pays.
  for (const mv of pv.moves.filter((x) => x !== pv.plain)) {
    const vq = (ctx.v.deliveries || []).find((d) => d.move === mv);
    const what = vq ? `: ${plural(vq.length, 'space')}, ${plural(cardsOf(vq), 'card')}, $${vq.pay}` : '';
    buttons.push(`<button type="button" class="secondary delivery-variant" data-action="${esc(mv)}">${esc(moveWords(ctx, mv) + what)}</button>`);
  }
  buttons.push('<button type="button" class="secondary small" data-pick="clear">clear</button>');
  const attrs = [`data-slot="${o.slot}"`, `data-from="${esc(pv.pizzeria.village)}"`, `data-owner="${pv.owner}"`, `data-to="${esc(pv.to || '')}"`, `data-length="${len ?? ''}"`];
  if (q) attrs.push(`data-quoted="${q.length}"`, `data-free="${q.free}"`, `data-cards="${inAll}"`, `data-pay="${q.pay}"`);
  return `<div id="delivery-preview" class="pd-preview" ${attrs.join(' ')}>${head}${zoneChooserHtml(ctx, pv)}<ul>${facts.join('')}</ul>${body}` +
    `<div class="row">${buttons.join('')}</div></div>`;
}

// What a delivery's Confirm carries after the announcement: the ingredients
// from the hand when the hand leaves no choice ("use A B"), then the distance
// paid as the payment panel would suggest it. {uses, pay, then, whole}: whole
// when nothing is left to choose (the turn may end with it).
function deliveryChain(ctx, pv, q) {
  const steps = forcedUses(ctx, pv, q);
  if (!steps) return { uses: null, pay: null, then: [], whole: false, powers: [] };
  const uses = steps.flatMap((m) => m.split(' ').slice(1));
  // market cards first (the least needed), power cards only for what they cannot pay
  const pay = q.distance_cards ? payAhead(ctx, q.distance_cards, { money: false, used: uses }) : '';
  const powers = pay ? pay.split(' ').filter((w) => /^power:/.test(w)) : [];
  return { uses, short: steps.includes('short'), pay, powers, then: [...steps, ...(pay ? [pay] : [])], whole: pay !== null };
}

// The moves a delivery's ingredients take when there is one way only: the
// ingredients the engine leaves to the hand (the quote's needs: what the
// pizzeria and Farmer Brown do not supply, in the order's order), each with
// the one kind of card in hand that fits, or with none ("short": the quote's
// count of cards, its least, says when one may be left out; a card that fits
// is used rather than losing the tip): ["use A B", "short", ...] ([] for
// nothing); null when there is a choice (the supply panel asks then), and for
// a specialty pizza, a Special Sale, Copy Cat, a need any card of a kind
// supplies, or cards in Cold Storage (the engine may want a stored card used
// first: the hand is not all there is).
function forcedUses(ctx, pv, q) {
  if (pv.order.specialty || q.extra_cards || !pv.mine || ctx.v.special_sale || !Array.isArray(q.needs)) return null;
  if ((ctx.v.players?.[ctx.seat]?.cold_storage || []).length) return null;
  const ing = (c) => cardParts(ctx, c).ingredient.toLowerCase();
  const needs = q.needs.map((n) => String(n).toLowerCase());
  if (needs.some((n) => /^any /.test(n))) return null;
  if (new Set(needs).size !== needs.length || needs.length - q.ingredient_cards > 1) return null;
  const hand = ctx.v.hand || [];
  const steps = [];
  for (const n of needs) {
    const fit = hand.filter((h) => ing(h.card) === n || /^any /.test(ing(h.card)));
    if (fit.length > 1 || (fit.length && /^any /.test(ing(fit[0].card)))) return null; // a choice, or a wildcard
    steps.push(fit.length ? cardWordOf(ctx, fit[0].card) : null);
  }
  if (steps.filter((x) => !x).length > needs.length - q.ingredient_cards) return null;
  // the engine's count of the hand's ingredient cards decides: another count
  // means the page's reading of the order is not the engine's (let it ask)
  if (steps.filter(Boolean).length !== q.ingredient_cards) return null;
  // the cards in a row go as one move
  const moves = [];
  for (const x of steps) {
    if (!x) moves.push('short');
    else if (/^use /.test(moves.at(-1) || '')) moves[moves.length - 1] += ` ${x}`;
    else moves.push(`use ${x}`);
  }
  return moves;
}

// A specialty order's zones, each with what going there costs: a click
// previews that one (so does a click on the village on the map).
function zoneChooserHtml(ctx, pv) {
  if (!pv.zones) return '';
  if (!pv.zones.length) return '<p class="muted">No delivery zone can be reached from this pizzeria.</p>';
  const items = pv.zones.map((z) => {
    const q = z.quote;
    const what = q ? `${plural(q.length, 'space')}, ${plural(cardsOf(q), 'card')}, $${q.pay}` : plural(z.length, 'space');
    const name = villageName(ctx, z.code);
    return `<button type="button" class="secondary small pd-zone-choice" data-pick="zone" data-value="${esc(z.code)}"` +
      ` aria-pressed="${z.code === pv.to}" title="${esc(`Deliver to ${name}: ${what}`)}">${esc(name)}: ${esc(what)}</button>`;
  });
  return '<p class="pd-hint">A specialty pizza goes to the zone you choose (here, or click a village on the map):</p>' +
    `<div class="action-list pd-zones">${items.join('')}</div>`;
}

// What to pick next for a delivery, and the deliveries possible now.
function deliveryChoicesHtml(ctx) {
  const v = ctx.v;
  const list = v.deliveries || [];
  const sale = v.special_sale ? `<p class="pd-sale">${esc(SALE_WORDS)}</p>` : '';
  if (!list.length) {
    const any = myPizzerias(ctx).length;
    return `${sale}<p class="muted">${any ? 'No delivery is possible now.' : 'To deliver you need a pizzeria: increase your reputation first.'}</p>`;
  }
  // One choice per order and pizzeria: the cheapest way, and for a
  // specialty order the cheapest zone (the preview offers the others).
  const best = new Map(), zones = new Map();
  for (const d of list) {
    const key = `${d.slot}:${fromWord(ctx, d)}`;
    if (!best.has(key) || cheaper(d, best.get(key)) < 0) best.set(key, d);
    if (!zones.has(key)) zones.set(key, new Set());
    zones.get(key).add(quoteTo(d));
  }
  const items = [...best.values()].map((d) => {
    const from = fromWord(ctx, d);
    const sel = ui.order === d.slot && ui.pizzeria === from;
    const to = quoteTo(d);
    const more = zones.get(`${d.slot}:${from}`).size > 1 ? ' or another zone' : '';
    const whose = from === d.from ? '' : ` (${who(ctx, d.owner)}'s, Copy Cat)`;
    return `<button type="button" class="secondary pd-delivery-choice" data-pick="delivery" data-value="${d.slot}:${esc(from)}"` +
      ` aria-pressed="${sel}">Order ${d.slot} from ${esc(from)}${esc(whose)}${to ? ` to ${esc(to)}${more}` : ''}:` +
      ` ${plural(d.length, 'space')}, ${plural(cardsOf(d), 'card')}, $${d.pay}</button>`;
  });
  return `${sale}<p class="muted">Choose an order and one of your pizzerias (on the map or here) to see the route:</p>` +
    `<div class="action-list">${items.join('')}</div>`;
}

export function actionsHtml(ctx) {
  syncSelection(ctx);
  if (!ctx.myTurn || ctx.phase === 'over') return '';
  const v = ctx.v;
  const legal = v.legal || [];
  let out = `<h2>Your move: ${esc(PHASE_WORDS[ctx.phase] || ctx.phase)}</h2>${autoEndHtml(ctx)}`;
  if (ctx.phase === 'transfer') return out + transferHtml(ctx);
  if (ctx.phase === 'instant') return out + instantHtml(ctx);
  if (ctx.phase === 'copy' && !legal.some((l) => /^copy /.test(l)) && legal.length === 1 && legal[0] === 'done') return out + copyCannotHtml(ctx);
  if (ctx.phase === 'start' && owes(ctx, ctx.seat)) out += `<p class="pd-owe">${esc(OWE_WORDS(owes(ctx, ctx.seat)))}</p>`;
  if (ctx.phase === 'start') {
    const pv = previewOf(ctx);
    if (pv) out += previewHtml(ctx, pv);
    else if (ui.order != null || ui.pizzeria != null) {
      out += `<p class="pd-hint">${ui.order != null ? `Order ${ui.order} chosen: now click one of your pizzerias.` : 'Pizzeria chosen: now click an order.'}` +
        ' <button type="button" class="secondary small" data-pick="clear">clear</button></p>';
    }
  }
  // The lot or pizzeria picked on the map narrows the builds and upgrades.
  const focus = ui.lot ? (l) => !/^(build|block) /.test(l) || l.split(' ')[1] === ui.lot
    : ui.pizzeria && ctx.phase === 'reputation' ? (l) => !/^upgrade /.test(l) || l.split(' ')[1] === ui.pizzeria : () => true;
  const groups = new Map();
  for (const l of legal) {
    const verb = l.split(' ')[0];
    const g = GROUP_OF[verb] || 'done';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(l);
  }
  // Choose, then confirm (delivery-choose.js): payments and discards as one
  // move, a fine or Out of Supplies by two cards, reputation by the map.
  const reputation = ctx.phase === 'reputation' && (groups.has('build') || groups.has('upgrade'));
  let chose = false;
  // after the action, ending the turn first: where the action's last click was
  const order = ctx.phase === 'after' ? [...GROUPS.filter(([g]) => g === 'done'), ...GROUPS.filter(([g]) => g !== 'done')] : GROUPS;
  for (const [g, title] of order) {
    const moves = groups.get(g);
    if (!moves) continue;
    if ((g === 'pay' || g === 'discard') && choosesHere(ctx)) {
      if (!chose) out += paymentHtml(ctx);
      chose = true;
      continue;
    }
    if (g === 'fine' || g === 'supplies') { out += pairHtml(ctx, g, moves); continue; }
    if (g === 'remove') { out += trimHtml(ctx, moves); continue; }
    if (reputation && (g === 'build' || g === 'upgrade' || g === 'done')) {
      if (!chose) out += reputationHtml(ctx, ui, legal);
      chose = true;
      continue;
    }
    if (g === 'deliver') {
      out += `<div class="pd-group" data-group="deliver"><h3>${title}</h3>${deliveryChoicesHtml(ctx)}</div>`;
      continue;
    }
    if (g === 'take') { out += takeHtml(ctx, moves.map((l) => l.slice(5))); continue; }
    if (g === 'start' && moves.includes('market')) out += takeHtml(ctx, [...(v.open || []).map((c) => c.card), 'deck'], 'market');
    if (g === 'start' && moves.includes('reputation')) out += upgradeStartHtml(ctx);
    const shown = moves.filter(focus);
    const hidden = moves.length - shown.length;
    // a card played on an opponent: a row of players to choose from
    const targeted = shown.filter((l) => ON_SEAT.test(l));
    const buttons = shown.filter((l) => !ON_SEAT.test(l)).map((l) => `<button type="button" class="${g === 'done' || g === 'start' ? '' : 'secondary '}pd-move"` +
      ` data-action="${esc(l)}" title="${esc(moveTitle(ctx, l))}">${esc(cap(buttonWords(ctx, l)))}</button>`);
    const more = hidden ? ` <button type="button" class="small secondary" data-pick="clear">show all ${moves.length}</button>` : '';
    out += `<div class="pd-group" data-group="${g}"><h3>${title}${ui.lot && (g === 'build' || g === 'block') ? ` on ${esc(ui.lot)}` : ''}${more}</h3>` +
      `<div class="action-list">${buttons.join('')}</div>${g === 'keep' ? keepTexts(ctx) : ''}` +
      `${targetRowsHtml(ctx, targeted, (seat) => targetWords(ctx, seat))}</div>`;
  }
  if (ctx.phase === 'start' && v.special_sale && !groups.has('deliver')) {
    out += `<p class="pd-sale">${esc(SALE_WORDS)} No delivery can be made with every ingredient twice.</p>`;
  }
  return out;
}

// The cards to take (the open market's and the deck), as chips: a click takes
// one. With `first` ("market", at the start of a turn) the click goes to the
// market and takes that card: one click for the two moves.
function takeHtml(ctx, cards, first = null) {
  const move = (c) => `${first ? `${first}|` : ''}take ${c}`;
  const open = cards.filter((c) => c !== 'deck');
  const counted = countCards(ctx, open).map((c) => cardChip(ctx, c.card, { count: c.count, action: move(/^power:/.test(c.card) ? c.card : cardWordOf(ctx, c.card)) }));
  // at the start, the deck once or twice (the action's two cards, unseen both)
  const deckButton = (n) => `<button type="button" class="pd-deck playable${n > 1 ? ' pd-deck-two' : ''}" data-action="${first || 'take deck'}"` +
    `${first ? ` data-then="${Array(n).fill('take deck').join('|')}"` : ''}` +
    ` title="${esc(`${first ? 'go to market and take ' : 'take '}the top ${n > 1 ? 'two cards' : 'card'} of the deck`)}">` +
    `${n > 1 ? 'Deck ×2' : `Deck: ${esc(ctx.v.deck)}`}</button>`;
  const deck = cards.includes('deck') ? `${deckButton(1)}${first && ctx.v.deck > 1 ? ` ${deckButton(2)}` : ''}` : '';
  const head = first ? 'Market: click a card to go to market and take it' : 'Take a card';
  return `<div class="pd-group pd-take" data-group="${first ? 'market' : 'take'}"><h3>${head}</h3>` +
    `<div class="pd-cards pd-take-cards">${counted.join(' ')} ${deck}</div></div>`;
}

// At the start of a turn, your pizzerias a card in hand could upgrade (of
// its village or Central Park's): a click increases reputation and opens its panel.
// The lots a build could go on are outlined on the map (a click does the same for a build).
function upgradeStartHtml(ctx) {
  const hand = new Set((ctx.v.hand || []).map((h) => cardParts(ctx, h.card).code));
  const can = myPizzerias(ctx).filter((p) => hand.has(p.village) || hand.has('CP'));
  const lots = reputationLots(ctx).size;
  const build = lots ? `<p class="pd-hint pd-build-hint">Build: click one of the ${plural(lots, 'lot')} outlined on the map.</p>` : '';
  if (!can.length) return build;
  const buttons = can.map((p) => `<button type="button" class="secondary small pd-pz-start" data-pick="pz-rep" data-value="${esc(p.village)}"` +
    ` title="${esc(`Increase reputation: upgrade your pizzeria in ${villageName(ctx, p.village)} (reputation ${p.reputation} of ${p.limit})`)}">` +
    `${esc(villageName(ctx, p.village))} <span class="muted">${esc(p.reputation)}/${esc(p.limit)}</span></button>`);
  return `${build}<div class="action-list pd-pz-starts"><span class="label">Upgrade</span> ${buttons.join('')}</div>`;
}

// A card as a move writes it: "UE/Ham".
function cardWordOf(ctx, text) {
  const p = cardParts(ctx, text);
  return `${p.code || p.village.replace(/ /g, '-')}/${p.ingredient.replace(/ /g, '-')}`;
}

// A card played on an opponent: "play power:out-of-supplies on 2",
// "instant power:property-tax on 3" (seats counted from 1).
const ON_SEAT = / on \d+$/;

// Cards played on an opponent: a row for each card, with a button for each
// player it may go to, by name, and what it does to them (`what`, or none).
function targetRowsHtml(ctx, moves, what) {
  const byCard = new Map();
  for (const l of moves) {
    const w = l.split(' ');
    if (!byCard.has(w[1])) byCard.set(w[1], []);
    byCard.get(w[1]).push({ move: l, seat: Number(w[3]) - 1 });
  }
  return [...byCard].map(([card, list]) => {
    const buttons = list.map(({ move, seat }) => {
      const words = cap(moveWords(ctx, move));
      const said = what ? what(seat) : '';
      return `<button type="button" class="secondary pd-move pd-target-seat" data-action="${esc(move)}" data-seat="${seat}"` +
        ` title="${esc(words)}" aria-label="${esc(`${words}${said ? ` (${said})` : ''}`)}"><span class="pd-swatch pd-p${seat}" aria-hidden="true"></span>` +
        ` ${esc(who(ctx, seat))}${said ? ` <span class="pd-target-what">${esc(said)}</span>` : ''}</button>`;
    });
    return `<div class="pd-target" data-card="${esc(card.replace(/^power:/, ''))}"><span class="pd-power"${powerTip(ctx, card)}>` +
      `<b>★</b> ${esc(powerName(card, ctx))}</span> on <span class="pd-target-seats">${buttons.join(' ')}</span></div>`;
  }).join('');
}

// What a card played on an opponent would meet: their money, and a debt.
function targetWords(ctx, seat) {
  const pl = (ctx.v.players || [])[seat] || {};
  return `$${pl.money ?? '?'}${pl.supplies_due ? `, owes $${pl.supplies_due}` : ''}`;
}

// A move button's tooltip: what is typed, and the text of the power card it names.
function moveTitle(ctx, l) {
  const pw = String(l).match(/power:[a-z0-9-]+/);
  const words = cap(moveWords(ctx, l));
  return pw ? `${words} — ${cardText(ctx, pw[0])}` : words;
}

// A power card's text, when the view has it.
function cardText(ctx, card) {
  const pc = (ctx.v.power_cards || {})[String(card).replace(/^power:/, '')];
  return pc ? `${pc.name}: ${pc.text}` : powerName(card, ctx);
}

// A power card's text as a tooltip (tips.js: hover, focus or a tap).
function powerTip(ctx, card) {
  return ` data-tip="${esc(cardText(ctx, card))}" tabindex="0"`;
}

// The two power cards dealt to keep, face up with their text: a phone has no hover to read a button's tooltip.
function keepTexts(ctx) {
  return keepFacesHtml(ctx);
}

// The Instant cards' question: the delivery being answered, a button for
// each card the viewer may play on it (Property Tax on each opponent it
// would cost something, with the tax), and "let it go".
function instantHtml(ctx) {
  const v = ctx.v;
  const ins = v.instant || {};
  const legal = v.legal || [];
  const name = who(ctx, ins.deliverer);
  const back = ins.tips === 1 ? 'tip token goes' : `${ins.tips} tip tokens go`;
  const cards = legal.filter((l) => /^instant \S+$/.test(l)).map((l) => {
    const card = l.split(' ')[1];
    return `<button type="button" class="pd-move pd-instant-card" data-action="${esc(l)}" data-tip="${esc(cardText(ctx, card))}">` +
      `${esc(`${powerName(card, ctx)}: ${name}'s ${back} back face down`)}</button>`;
  });
  const taxed = legal.filter((l) => /^instant \S+ on \d+$/.test(l));
  const done = legal.includes('done')
    ? '<button type="button" class="secondary pd-move pd-let-go" data-action="done" title="done">Let it go: no Instant card</button>' : '';
  return `<div id="delivery-instant" class="pd-group pd-instant" data-group="instant" data-deliverer="${esc(ins.deliverer)}" data-tips="${esc(ins.tips)}">` +
    `<h3>${esc(name)} delivered: play an Instant card?</h3>` +
    `<p>${esc(name)} completed a delivery and took ${esc(plural(ins.tips, 'tip token'))}. Everyone else holding a power card is asked` +
    ' in turn, clockwise, so being asked tells nobody which cards you hold.</p>' +
    `${cards.length ? `<div class="action-list">${cards.join('')}</div>` : ''}` +
    `${targetRowsHtml(ctx, taxed, (seat) => `pays $${propertyTax(v, seat)}`)}<div class="action-list">${done}</div></div>`;
}

// Co-op Transfer Goods: the cards passed so far this turn (at most two), from
// the log's tail: nothing else happens between them.
function passesLeft(ctx) {
  let passed = 0;
  for (let i = (ctx.msg.log || []).length - 1; i >= 0; i--) {
    const e = ctx.msg.log[i];
    if (e.seat !== ctx.v.to_move || !/^pass /.test(e.text)) break;
    passed++;
  }
  return Math.max(0, 2 - passed);
}

// Each card and power card of the hand once, with a button for each
// neighbour it may go to, and "done".
function transferHtml(ctx) {
  const left = neighbour(ctx, ctx.seat, 'left'), right = neighbour(ctx, ctx.seat, 'right');
  const items = new Map(); // the card as the move names it -> {left, right}
  for (const l of ctx.v.legal || []) {
    const w = l.split(' ');
    if (w[0] !== 'pass' || w.length !== 3) continue;
    if (!items.has(w[1])) items.set(w[1], {});
    items.get(w[1])[w[2]] = l;
  }
  const rows = [...items].map(([item, moves]) => {
    const chip = /^power:/.test(item) ? `<span class="pd-power"${powerTip(ctx, item)}><b>★</b> ${esc(powerName(item, ctx))}</span>` : cardChip(ctx, item);
    const buttons = ['left', 'right'].filter((d) => moves[d]).map((d) => {
      const to = who(ctx, d === 'left' ? left : right);
      const words = moveWords(ctx, moves[d], ctx.seat);
      return `<button type="button" class="secondary small pd-pass" data-action="${esc(moves[d])}" data-to="${d === 'left' ? left : right}"` +
        ` title="${esc(cap(words))}" aria-label="${esc(cap(words))}">${d === 'left' ? '' : '← '}to ${esc(to)}${d === 'left' ? ' →' : ''}</button>`;
    });
    return `<li data-item="${esc(item)}">${chip} <span class="pd-pass-to">${buttons.join(' ')}</span></li>`;
  });
  const more = passesLeft(ctx);
  const beside = ctx.n > 2
    ? `${esc(who(ctx, left))} plays after you; ${esc(who(ctx, right))} played before you.`
    : `${esc(who(ctx, left))} is your only neighbour.`;
  return '<div class="pd-group pd-transfer" data-group="pass">' +
    `<h3>Pass ${more === 1 ? 'one more card' : 'up to two cards'} to your neighbours</h3>` +
    `<p class="muted pd-hint">${beside} Only they see the card.</p>` +
    `<ul class="pd-pass-list">${rows.join('')}</ul>` +
    `${(ctx.v.legal || []).includes('end') ? '<div class="action-list"><button type="button" class="pd-move" data-action="end" title="end">Done: end the turn</button></div>' : ''}</div>`;
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// ---- The players ----

export function playersHtml(ctx) {
  const v = ctx.v;
  const canBot = ctx.seat != null && ctx.phase !== 'over';
  return (v.players || []).map((pl, seat) => {
    const me = seat === ctx.seat;
    const cls = ['player', 'pd-player', `pd-p${seat}`];
    if (me) cls.push('me');
    if (v.to_move === seat) cls.push('to-move');
    const kind = ctx.kinds[seat] && ctx.kinds[seat] !== 'human' ? `<span class="kind">bot: ${esc(ctx.kinds[seat])}</span>` : '';
    const badges = [];
    if (v.to_move === seat) badges.push('<span class="badge turn">to move</span>');
    if (v.first === seat) badges.push('<span class="badge">first player</span>');
    if (ctx.phase === 'over' && (v.winners || []).includes(seat)) badges.push('<span class="badge turn">winner</span>');
    const tips = pl.tip_money != null ? `${plural(pl.tips, 'token')} ($${esc(pl.tip_money)})` : plural(pl.tips, 'token');
    const pizzerias = (pl.pizzerias || []).map((pz) => {
      return `<li class="pd-pz" data-village="${esc(pz.village)}" data-lot="${esc(pz.lot)}"><b>${esc(villageName(ctx, pz.village))}</b>` +
        ` <span class="muted">${esc(pz.lot)}</span> · level <b class="pd-level">${esc(pz.reputation)}</b>/${esc(pz.limit)}` +
        ` <span class="muted">(${plural(pz.disks, 'disk')})</span>` +
        `${pz.cards.length ? `<div class="pd-cards">${pz.cards.map((c, i) => cardChip(ctx, c, { extra: i === pz.cards.length - 1 ? 'top' : '' })).join(' ')}` +
          `${pz.power ? ` <span class="pd-top-power" title="the top card's delivery power">${esc(powerName(pz.power))}</span>` : ''}</div>` : ''}</li>`;
    }).join('');
    const tableau = (pl.tableau || []).map((id) => powerFace(ctx, id, { size: 'mini' })).join(' ');
    // a payment in progress: its cards are given (shown with it), the hand is what is left
    const aside = setAside(ctx, seat);
    const asideCards = aside ? aside.cards.reduce((a, c) => a + c.count, 0) : 0;
    const handCards = Math.max(0, (pl.hand ?? 0) - asideCards);
    const handPowers = Math.max(0, (pl.powers ?? 0) - (aside ? aside.powers.length : 0));
    const extras = [];
    if (pl.farmer_brown) extras.push(`<span class="label">Under Farmer Brown</span> ${cardChip(ctx, pl.farmer_brown)}`);
    if (Array.isArray(pl.cold_storage)) {
      const cold = countCards(ctx, pl.cold_storage).map((c) => cardChip(ctx, c.card, { count: c.count })).join(' ');
      extras.push(`<span class="label">Under Cold Storage</span> <span class="pd-cold">${cold || '<span class="muted">empty</span>'}</span>`);
    }
    if (pl.supplies_due) {
      extras.push(`<span class="label">Owes</span> <b class="pd-supplies-due">$${esc(pl.supplies_due)}</b>` +
        ` <span class="muted">Out of Supplies: paid before ${me ? 'your' : 'their'} next delivery</span>`);
    }
    if (pl.subway_tokens) extras.push(`<span class="label">Subway tokens</span> ${esc(pl.subway_tokens)}`);
    if (pl.spot) extras.push(`<span class="label">Disk on the zone of</span> ${esc(villageName(ctx, pl.spot))}`);
    if ((pl.reserved_lots || []).length) extras.push(`<span class="label">Reserved</span> ${esc(pl.reserved_lots.join(', '))}`);
    const toBot = canBot && !me && (ctx.kinds[seat] || 'human') === 'human' &&
      (ctx.msg.botable || [])[seat] === true // its player gone long enough (the server says)
      ? `<button type="button" class="hand-to-bot small secondary" data-seat="${seat}" title="only when this player has gone">hand to a bot</button>` : '';
    return `<div class="${cls.join(' ')}" data-seat="${seat}"${pl.supplies_due ? ` data-supplies-due="${esc(pl.supplies_due)}"` : ''}>` +
      `<div class="who"><span class="pd-swatch pd-p${seat}" aria-hidden="true"></span> <b class="name">${esc(who(ctx, seat))}</b>` +
      `${me ? ' <span class="you">(you)</span>' : ''} ${kind} ${badges.join(' ')}</div>` +
      // in co-op the money is the team's (the team panel), not the player's
      `<div class="line">${v.coop ? '' : `<span class="label">Money</span> <b class="pd-money">$${esc(pl.money)}</b> `}` +
      `<span class="label">Deliveries</span> <b class="pd-deliveries">${esc(pl.deliveries)}</b>` +
      ` <span class="label">Tips</span> ${tips}</div>` +
      `<div class="line"><span class="label">Hand</span> <span class="pd-hand-size">${plural(handCards, 'card')}</span>` +
      `${handPowers ? ` + ${plural(handPowers, 'power card')}` : ''}${aside ? ` <span class="muted pd-aside">(${plural(aside.count, 'card')} given)</span>` : ''}` +
      ` <span class="label">Disks left</span> ${esc(pl.disks)}` +
      `${pl.score != null && !v.coop ? ` <span class="label">Score</span> <b>${esc(pl.score)}</b>` : ''}</div>` +
      `<div class="line"><span class="label">Pizzerias</span>${pizzerias ? '' : ' <span class="muted">none yet</span>'}</div>` +
      (pizzerias ? `<ul class="pd-pizzerias">${pizzerias}</ul>` : '') +
      (tableau ? `<div class="line pd-tableau"><span class="label">Tableau</span> ${tableau}</div>` : '') +
      extras.map((x) => `<div class="line">${x}</div>`).join('') + `${toBot}</div>`;
  }).join('');
}

// ---- The log ----

// Each move in words, its player named first. The page groups a player's
// moves into turns (style.css): a move by the player of the line before
// shows their name only to screen readers, and is indented under it.
export function logHtml(ctx) {
  const log = ctx.msg.log || [];
  const first = Math.max(0, (ctx.msg.moves || log.length) - log.length);
  const words = (e) => (Number.isInteger(e.seat) && e.seat >= 0
    ? `<b class="pd-log-who">${esc(who(ctx, e.seat))}: </b>${esc(moveWords(ctx, e.text, e.seat, true))}` : esc(e.text));
  const cls = (e) => (/^(keep|market|reputation|deliver) /.test(`${e.text} `) ? ' class="pd-log-action"' : '');
  return log.map((e, i) => `<li value="${first + i + 1}" data-seat="${esc(e.seat)}"${cls(e)}>${words(e)}</li>`).join('');
}

// ---- The rules in short, by phase ----

const HELP = {
  turn: 'On your turn take one action: go to market (take 2 cards from the open market or the deck), increase reputation (two steps, each building a pizzeria or upgrading one), or deliver an order.',
  build: 'To build, pick a free lot and a card of its village: the card becomes your pizzeria\'s top card, you pay the lot\'s price in money or cards ($1 each) and the pizzeria gets a disk. One pizzeria per village each. To upgrade, spend a card of the pizzeria\'s village or of Central Park: discard it for a disk, or add it to the pizzeria as a permanent ingredient (on top, its power becomes the pizzeria\'s); either way you may put another of its cards on top. A pizzeria\'s reputation is its disks and cards, at most 5 (7 while an Any Ingredient card is its only card). An upgrade at the limit still may come: then you remove a card below the top (a disk only if there is none). Any Ingredient added sends every other card to the sewer, Any Meat (Any Vegetable) the other meats (vegetables); any card added later replaces an Any Ingredient card, a meat (vegetable) an Any Meat (Any Vegetable) card.',
  cheese: 'With Extra Cheese, a cheese card put on a pizza after its ingredients earns $1 more ($2 on a specialty pizza), once a pizza; a cheese card anywhere in a pizzeria is on every pizza from there. An order with a cheese card asks for cheese: delivered without, it earns no tip. Farmer Brown never takes cheese; Cold Storage may hold it.',
  deliver: 'To deliver, choose an order and one of your pizzerias. Each ingredient comes from the pizzeria\'s cards or a card from your hand. A specialty pizza goes to the delivery zone you choose. The route counts the door space as 1; the first spaces up to the pizzeria\'s disks are free, each space beyond costs a card. You earn the order\'s pay, its tip token and a power card; the top card of the pizzeria gives its power.',
  end: 'Hand limit 10: discard at the end of your turn. A Health Inspector drawn from the deck fines everyone $2 (money or two cards); the third ends the game. Score: money, tableau cards (pizzerias, power cards in play and the cards under them), disks on the board and tips. Ties: most deliveries, then most tip money.',
  instant: 'Instant cards (Property Tax, Rough Delivery, Traffic Jam) are played on another player\'s turn, when their delivery is complete: everyone else holding a power card is asked in turn, clockwise from the deliverer, so being asked tells nothing. Rough Delivery and Traffic Jam send the delivery\'s tip token back face down; Property Tax makes an opponent pay half of each of their pizzerias\' reputation, rounded down, $5 at most, in dollars and cards ($1 each). Property Tax is Timed too: you may also play it on your own turn, before or after your action, as your power card. Out of Supplies is played on your own turn on an opponent: they pay $2, in money or with two cards, before their next delivery.',
  coop: 'Co-op: the team shares one money track and wins together when both goals are met (money and pizzas delivered); it loses at the third Health Inspector or when a Pizza Promotion finds no order card. Everyone\'s first action is a build on free property. Orders come only with promotions (Friday evening, and the Blue and Red tokens placed when the money reaches their markers). Before ending a turn you may pass up to two cards to the players beside you. Options: Insane adds a back-side token (one pizza more) to each promotion token placed, Easier puts the tokens back side up (one pizza instead of two; Friday still two); the player whose move reached the marker times that pizza, morning or evening. Top Chef: at the end the die picks a category (1 deliveries, 2 tip value, 3 pizzerias, 4 tableau cards, 5 disks on the board, 6 lowest in the most others) and names the best (a tie shares).',
};
const HELP_OF = {
  keep: ['turn'], start: ['turn', 'deliver'], market: ['turn'], bonus: ['turn'], reputation: ['build'], pay: ['build'], trim: ['build'],
  supply: ['deliver'], distance: ['deliver'], tip: ['deliver'], arrange: ['deliver'], after: ['end'], discard: ['end'], fine: ['end'], over: ['end'],
  copy: ['deliver'], transfer: ['coop'], promotion: ['coop'], instant: ['instant'], tax: ['instant'],
};
const HELP_TITLE = {
  turn: 'A turn', build: 'Building and upgrading', cheese: 'Extra Cheese', deliver: 'Delivering',
  end: 'Hand limit, inspectors, the end', coop: 'The co-op game', instant: 'Instant cards and Out of Supplies',
};

function helpSection(topic, open) {
  return `<details class="rule" data-topic="${topic}"${open ? ' open' : ''}><summary>${esc(HELP_TITLE[topic])}</summary><p>${esc(HELP[topic])}</p></details>`;
}

// The topic for a decision the phase alone does not tell ('' for none).
export function rulesExtraTopic(ctx) {
  const legal = ctx.v.legal || [];
  if (legal.some((l) => /^cheese /.test(l))) return 'cheese';
  const opponents = ctx.v.instant || owes(ctx, ctx.seat) || legal.some((l) => ON_SEAT.test(l));
  return opponents ? 'instant' : '';
}

export function rulesNowHtml(ctx) {
  const extra = rulesExtraTopic(ctx);
  const topics = [...(HELP_OF[ctx.phase] || ['turn']), ...(extra ? [extra] : [])];
  if (ctx.v.coop && !topics.includes('coop')) topics.unshift('coop');
  return topics.map((t) => helpSection(t, true)).join('');
}

export function rulesAllHtml() {
  return Object.keys(HELP).map((t) => helpSection(t, false)).join('');
}

// ---- The end ----

// Co-op: the team's result, its figures and the rulebook's record code;
// who delivered what; the Top Chef when the table chose the die for it.
function teamOverHtml(ctx) {
  const score = ctx.msg.score;
  const c = ctx.v.coop;
  const sc = (score && score.coop) || null;
  const won = sc ? sc.won : c.result === 'won';
  const colour = (k) => (c.markers || []).find((m) => m.colour === k)?.at ?? '?';
  const mode = (c.options || {}).insane ? ' - Insane' : (c.options || {}).easier ? ' - Easier' : '';
  const code = sc ? sc.code : `${won ? 'Win' : 'Loss'} ${ctx.n}PL - B${colour('blue')} - R${colour('red')} - P${c.pizzas_goal} - M${c.money_goal}${mode}`;
  let out = `<h2>Game over</h2><p class="winners pd-result pd-team-result ${won ? 'won' : 'lost'}">${esc(resultText(ctx))}</p>` +
    `<ul class="pd-team-final"><li>Money: <b>$${esc(sc ? sc.money : c.money)}</b> of $${esc(c.money_goal)}</li>` +
    `<li>Pizzas delivered: <b>${esc(sc ? sc.pizzas : c.pizzas)}</b> of ${esc(c.pizzas_goal)}</li>` +
    `${sc ? `<li>Turns: ${esc(sc.turns)}</li>` : ''}</ul>` +
    `<p>Record: <code id="pd-record-code" class="pd-record">${esc(code)}</code></p>${topChefHtml(ctx)}`;
  const players = score && Array.isArray(score.players) ? score.players
    : (ctx.v.players || []).map((p, seat) => ({ seat, deliveries: p.deliveries, tips: p.tip_money, disks: null, tableau: null }));
  const rows = players.map((p, i) => {
    const seat = p.seat ?? i;
    return `<tr data-seat="${esc(seat)}"><td><span class="pd-swatch pd-p${seat}" aria-hidden="true"></span>${esc(who(ctx, seat))}</td>` +
      `<td><b>${esc(p.deliveries ?? '–')}</b></td><td>${esc(p.tips ?? '–')}</td><td>${esc(p.disks ?? '–')}</td><td>${esc(p.tableau ?? '–')}</td></tr>`;
  });
  out += '<table class="score pd-score-table pd-team-table"><tr><th>Player</th><th>Deliveries</th><th>Tips</th>' +
    `<th title="disks on the board">Disks</th><th title="pizzeria cards, power cards in play and the cards under them">Tableau</th></tr>${rows.join('')}</table>`;
  return `${out}<p><a href="#/" class="button secondary">Back to the lobby</a></p>`;
}

export function gameOverHtml(ctx) {
  if (ctx.v.coop) return teamOverHtml(ctx);
  const score = ctx.msg.score;
  let out = `<h2>Game over</h2><p class="winners pd-result">${esc(resultText(ctx))}</p>`;
  const winners = (score && score.winners) || ctx.v.winners || [];
  const players = score && Array.isArray(score.players) ? score.players
    : (ctx.v.players || []).map((p, seat) => ({ seat, money: p.money, score: p.score, deliveries: p.deliveries }));
  const rows = players.map((p, i) => {
    const seat = p.seat ?? i;
    const won = winners.includes(seat);
    return `<tr class="${won ? 'winner' : ''}" data-seat="${esc(seat)}"><td><span class="pd-swatch pd-p${seat}" aria-hidden="true"></span>` +
      `${esc(who(ctx, seat))}${won ? ' ★' : ''}</td><td>${esc(p.money ?? '–')}</td><td>${esc(p.tableau ?? '–')}</td>` +
      `<td>${esc(p.disks ?? '–')}</td><td>${p.tips != null ? `$${esc(p.tips)}` : '–'}` +
      `${p.tip_tokens != null ? ` <span class="muted pd-tip-tokens">(${esc(plural(p.tip_tokens, 'token'))})</span>` : ''}</td><td><b class="pd-score">${esc(p.score ?? '–')}</b></td>` +
      `<td>${esc(p.deliveries ?? '–')}</td></tr>`;
  });
  // PD-E1 in words: what each column is and how the score adds up.
  out += '<p class="muted pd-score-help"><b>Score</b> = money + <b>tableau</b> (pizzeria cards, power cards in play ' +
    'and the cards under them) + level <b>disks</b> on the board + the value of the <b>tip</b> tokens. A tie goes to ' +
    'the most deliveries, then the most tip money.</p>' +
    '<table class="score pd-score-table"><tr><th scope="col">Player</th><th scope="col">Money</th><th scope="col">Tableau</th>' +
    `<th scope="col">Disks</th><th scope="col">Tips</th><th scope="col">Score</th><th scope="col">Deliv&shy;eries</th></tr>${rows.join('')}</table>`;
  return `${out}<p><a href="#/" class="button secondary">Back to the lobby</a></p>`;
}
