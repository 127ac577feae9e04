// delivery-cards.js -- New York Pizza Delivery's cards made readable, and
// what the others did: the hand grouped by village or by ingredient with
// counts, power cards as small faces (name, type, printed text), the orders
// as compact cards, the open market and the piles; each opponent's last turn
// in a sentence; a banner for a global event (a GLOBAL power card played, a
// Health Inspector drawn, a co-op promotion) that stays until dismissed.
// Markup only, like delivery.js; the few clicks that change nothing on the
// server (dismiss, hand order) are handled here (wireCards).
import { esc } from './tokens.js';
import { logEntries } from './log.js';
import { cardChip, cardKey, cardParts, moveWords, payText, powerName, villageName, who } from './delivery.js';

const TYPE_WORDS = { speed: 'Speed', money: 'Money', event: 'Event', global: 'Global', timed: 'Timed' };

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

// ---- Power cards ----

// Every power card seen in any view, by id: a card played and gone (a global
// replaced) is still named in the log and the banner.
const known = new Map();

function learnPowers(v) {
  for (const [id, pc] of Object.entries(v.power_cards || {})) known.set(id, pc);
}

// {id, name, type ("Global"), text}: what the view tells of a power card.
export function powerInfo(ctx, card) {
  const id = String(card || '').replace(/^power:/, '');
  const pc = (ctx.v.power_cards || {})[id] || known.get(id) || null;
  const type = pc ? `${TYPE_WORDS[pc.type] || pc.type}${pc.instant ? ', Instant' : ''}` : '';
  return { id, name: pc ? pc.name : powerName(id), type, text: pc ? pc.text : '' };
}

// The words a tooltip gives of a card: "Pandemic (Global): Two more orders ...".
function powerLine(p) {
  return `${p.name}${p.type ? ` (${p.type})` : ''}${p.text ? `: ${p.text}` : ''}`;
}

// A power card as a small face: its type, name and printed text. `size`:
// 'full' (the keep choice) and 'hand' print all the text, 'full' wider,
// 'mini' only the name and type; the whole text is always its tooltip
// (tips.js: hover, focus or a tap). With `action` the face is the button
// that plays it (on a phone the first tap shows the text, the second plays).
export function powerFace(ctx, card, { action = null, size = 'hand', words = '' } = {}) {
  const p = powerInfo(ctx, card);
  const type = p.type.split(',')[0].toLowerCase();
  const tip = `${powerLine(p)}${words ? ` — ${words}` : ''}`;
  const inner = `<span class="pd-pcard-type">${esc(p.type || 'Power card')}</span><b class="pd-pcard-name">${esc(p.name)}</b>` +
    (size === 'mini' || !p.text ? '' : `<span class="pd-pcard-text">${esc(p.text)}</span>`);
  const attrs = `class="pd-pcard ${size} t-${esc(type || 'unknown')}${action ? ' playable' : ''}" data-card="${esc(p.id)}" data-tip="${esc(tip)}"`;
  return action ? `<button type="button" ${attrs} data-action="${esc(action)}">${inner}</button>` : `<span ${attrs} tabindex="0">${inner}</span>`;
}

// The two power cards dealt to keep, face up with all their text.
export function keepFacesHtml(ctx) {
  const cards = ctx.v.keep_from || [];
  if (!cards.length) return '';
  return `<div class="pd-keep-faces">${cards.map((id) => powerFace(ctx, id, { size: 'full' })).join('')}</div>`;
}

// ---- The hand ----

// What a payment in progress has set aside: a build's price, a delivery's
// ingredients and distance (Ham's tip step too) stay in the engine's hand
// until the move is complete, but they are given: the page shows them with
// the payment and counts the hand without them (as the terminal does).
// {cards: [{card, count}], powers: [ids], count} for the seat paying, else null.
export function setAside(ctx, seat) {
  const v = ctx.v;
  const pe = v.pending;
  if (!pe || seat == null || !['build', 'deliver', 'copy'].includes(pe.kind)) return null;
  // a Harlem Rotary copy is paid by its holder (to move); a build or a delivery by the seat whose turn it is
  const payer = pe.kind === 'copy' ? v.to_move : v.whose_turn ?? v.to_move;
  if (payer !== seat) return null;
  const cards = (pe.cards || []).filter((c) => c.count > 0);
  // a build's village card goes into the pizzeria: set aside with what pays for the lot
  if (pe.kind === 'build' && pe.card) cards.push({ card: pe.card, count: 1 });
  const powers = (pe.powers || []).map((p) => String(p).replace(/^power:/, ''));
  const count = cards.reduce((a, c) => a + c.count, 0) + powers.length;
  return count ? { cards, powers, count } : null;
}

// The viewer's hand without what a payment set aside: {hand: [{card, count}], powers: [ids], aside}.
export function handLeft(ctx) {
  const v = ctx.v;
  const aside = setAside(ctx, ctx.seat);
  if (!aside) return { hand: v.hand || [], powers: v.powers || [], aside: null };
  const given = new Map();
  for (const c of aside.cards) given.set(cardKey(ctx, c.card), (given.get(cardKey(ctx, c.card)) || 0) + c.count);
  const hand = [];
  for (const c of v.hand || []) {
    const k = cardKey(ctx, c.card);
    const take = Math.min(c.count, given.get(k) || 0);
    given.set(k, (given.get(k) || 0) - take);
    if (c.count - take > 0) hand.push({ ...c, count: c.count - take });
  }
  const powers = [...(v.powers || [])];
  for (const id of aside.powers) {
    const i = powers.indexOf(id);
    if (i >= 0) powers.splice(i, 1);
  }
  return { hand, powers, aside };
}

// How the viewer's hand is grouped: 'village' or 'ingredient' (kept while the page lives).
let handBy = 'village';
let lastHand = null; // {ctx, play, powerPlay}: to redraw the hand alone when the grouping changes

function villageIndex(ctx, code) {
  return ((ctx.v.map || {}).villages || []).findIndex((vl) => vl.code === code);
}

// The hand's cards in groups: [{key, label, title, count, cards: [{card, count}]}],
// by village (in map order) or by ingredient (by name), each group's cards sorted the other way.
function handGroups(ctx, by, hand) {
  const groups = new Map();
  for (const c of hand) {
    const p = cardParts(ctx, c.card);
    const key = by === 'village' ? p.code || p.village : p.ingredient;
    if (!groups.has(key)) {
      groups.set(key, by === 'village'
        ? { key, label: p.code || p.village, title: p.village, order: villageIndex(ctx, p.code), count: 0, cards: [] }
        : { key, label: p.ingredient, title: p.ingredient, order: 0, count: 0, cards: [] });
    }
    const g = groups.get(key);
    g.count += c.count;
    g.cards.push({ ...c, p });
  }
  const list = [...groups.values()].sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
  for (const g of list) {
    g.cards.sort(by === 'village' ? (a, b) => a.p.ingredient.localeCompare(b.p.ingredient)
      : (a, b) => villageIndex(ctx, a.p.code) - villageIndex(ctx, b.p.code));
  }
  return list;
}

function handInner(ctx, play, powerPlay) {
  const left = handLeft(ctx);
  const total = left.hand.reduce((a, c) => a + c.count, 0);
  const groups = handGroups(ctx, handBy, left.hand).map((g) => {
    const tag = handBy === 'village' ? `<span class="pd-vtag pd-v${villageIndex(ctx, g.key)}">${esc(g.label)}</span>` : esc(g.label);
    return `<span class="pd-hgroup" data-group="${esc(g.key)}" data-count="${g.count}">` +
      `<span class="pd-hgroup-label" title="${esc(`${g.title}: ${plural(g.count, 'card')}`)}">${tag} <b>×${g.count}</b></span>` +
      `${g.cards.map((c) => cardChip(ctx, c.card, { count: c.count, action: play(c.card) })).join('')}</span>`;
  });
  const powers = left.powers.map((id) => {
    const a = powerPlay(id);
    return powerFace(ctx, id, { action: a, words: a ? moveWords(ctx, a) : '' });
  });
  const toggle = ['village', 'ingredient'].map((by) => `<button type="button" class="small secondary pd-hand-by" data-hand-by="${by}"` +
    ` aria-pressed="${handBy === by}">by ${by}</button>`).join('');
  // while a payment is made: what is left, and how many cards it has set aside
  const aside = left.aside ? `; ${plural(left.aside.count, 'card')} given to the ${ctx.v.pending.kind === 'build' ? 'build' : 'delivery'}` : '';
  return `<h3>Your hand <span class="muted" id="delivery-hand-count" data-cards="${total}" data-powers="${powers.length}"` +
    ` data-aside="${left.aside ? left.aside.count : 0}">` +
    `(${left.aside ? 'left: ' : ''}${plural(total, 'market card')}${powers.length ? `, ${plural(powers.length, 'power card')}` : ''}${aside})</span>` +
    ` <span class="pd-hand-toggle" role="group" aria-label="group the hand">${total ? toggle : ''}</span></h3>` +
    `<div id="delivery-hand" class="pd-cards pd-hand" data-by="${handBy}">${groups.join('') || `<span class="muted">no market cards${left.aside ? ' left' : ''}</span>`}` +
    `${powers.length ? `<div class="pd-hand-powers">${powers.join('')}</div>` : ''}</div>`;
}

// The viewer's hand: `play(card)` and `powerPlay(id)` give the move a click makes, or null.
export function handHtml(ctx, play, powerPlay) {
  lastHand = { ctx, play, powerPlay };
  return `<div id="delivery-hand-box">${handInner(ctx, play, powerPlay)}</div>`;
}

// ---- Orders, market, piles ----

// Where an order goes, as a village tag on its colour.
export function destinationHtml(ctx, o) {
  if (!o.village) return `<span class="pd-dest any">${o.outage ? 'no zone yet' : 'any zone'}</span>`;
  return `<span class="pd-dest" title="${esc(`delivered to ${villageName(ctx, o.village)}`)}">→ <span class="pd-vtag pd-v${villageIndex(ctx, o.village)}">` +
    `${esc(o.village)}</span> <b>${esc(villageName(ctx, o.village))}</b></span>`;
}

// The open market sorted so that a village's cards sit together, and the piles.
export function marketHtml(ctx, takes, deck) {
  const v = ctx.v;
  const open = [...(v.open || [])].map((c) => ({ ...c, p: cardParts(ctx, c.card) }))
    .sort((a, b) => villageIndex(ctx, a.p.code) - villageIndex(ctx, b.p.code) || a.p.ingredient.localeCompare(b.p.ingredient));
  const total = open.reduce((a, c) => a + c.count, 0);
  const chips = open.map((c) => cardChip(ctx, c.card, { count: c.count, action: takes.get(cardKey(ctx, c.card)) || null }));
  const sewer = (v.sewer || []).reduce((a, c) => a + c.count, 0);
  const pile = (what, n, title) => `<span class="pd-pile" data-pile="${what}" title="${esc(title)}">${esc(what)} <b>${esc(n)}</b></span>`;
  return `<h3>Open market <span class="muted">(${plural(total, 'card')})</span></h3>` +
    `<div id="delivery-market" class="pd-cards">${chips.join(' ') || '<span class="muted">empty</span>'} ${deck}</div>` +
    `<div class="pd-piles">${pile('Sewer', sewer, 'discarded market cards')}${pile('Power deck', v.power_deck, 'power cards left to draw')}` +
    `${pile('Tips left', v.tips_left, 'face-down tip tokens left')}</div>`;
}

// ---- The log: every entry the page knows, and turns ----

// The entries of the log before the view's move count, by move: the whole
// history once it came (log.js), else the view's last moves.
function entriesOf(ctx) {
  const out = new Map();
  for (const e of logEntries(ctx.code)) out.set(e.move, e);
  const log = ctx.msg.log || [];
  const first = Math.max(0, (ctx.msg.moves ?? log.length) - log.length);
  log.forEach((e, i) => out.set(Number.isInteger(e.move) ? e.move : first + i, { ...e, move: Number.isInteger(e.move) ? e.move : first + i }));
  const end = Number.isInteger(ctx.msg.moves) ? ctx.msg.moves : Infinity;
  return [...out.values()].filter((e) => e.move < end).sort((a, b) => a.move - b.move);
}

const verbOf = (e) => String(e.text || '').split(/\s+/)[0];
// The moves that begin a turn's action (keep: the first round's choice).
const ACTION = new Set(['keep', 'market', 'reputation', 'deliver']);

// The orders as each view showed them, by move count: what a delivery made
// later in the log paid and where it went.
const ordersAt = new Map(); // code -> Map(moves -> orders)

function learnOrders(ctx) {
  if (!ctx.code || !Number.isInteger(ctx.msg.moves)) return;
  if (!ordersAt.has(ctx.code)) ordersAt.set(ctx.code, new Map());
  const m = ordersAt.get(ctx.code);
  m.set(ctx.msg.moves, ctx.v.orders || []);
  for (const k of m.keys()) if (k < ctx.msg.moves - 60) m.delete(k);
}

// A payment's dollars: "pay $2 HA/Ham power:mob-boss" is $2 and a dollar a card.
function paid(text) {
  return text.split(/\s+/).slice(1).reduce((a, w) => a + (/^\$\d+$/.test(w) ? Number(w.slice(1)) : 1), 0);
}

// A seat's last turn: its entries from the last action it began (and the
// power cards played just before it) to the next seat's action.
function lastTurn(entries, seat) {
  let start = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].seat === seat && ACTION.has(verbOf(entries[i]))) { start = i; break; }
  }
  if (start < 0) return [];
  while (start > 0 && entries[start - 1].seat === seat && !ACTION.has(verbOf(entries[start - 1]))) start--;
  const out = [];
  for (let i = start; i < entries.length; i++) {
    const e = entries[i];
    if (i > start && e.seat !== seat && ACTION.has(verbOf(e))) break;
    if (e.seat === seat) out.push(e);
  }
  return out;
}

// A turn in one sentence: "went to market: took Ham (Harlem) and the top
// card of the deck", "built on HK-2 (Hell's Kitchen) for $3", "delivered
// order 2 (Two toppings) from Midtown to Harlem: $4 + tip", "played Pandemic".
function turnWords(ctx, turn) {
  const parts = [];
  let build = null;
  let takes = null;
  for (const e of turn) {
    const w = e.text.split(/\s+/);
    const verb = w[0];
    if (verb !== 'pay') build = verb === 'build' ? build : null;
    if (verb !== 'take') takes = null;
    if (verb === 'keep') parts.push('kept a power card');
    else if (verb === 'market') parts.push(takes = { market: true, took: [] });
    else if (verb === 'take' && takes) takes.took.push(w[1] === 'deck' ? 'the top card of the deck' : moveWords(ctx, e.text, e.seat, true).replace(/^take /, ''));
    else if (verb === 'build') parts.push(build = { lot: w[1], cost: 0 });
    else if (verb === 'pay' && build) build.cost += paid(e.text);
    else if (verb === 'upgrade') parts.push(`upgraded ${villageName(ctx, w[1])}`);
    else if (verb === 'deliver') {
      const o = ((ordersAt.get(ctx.code) || new Map()).get(e.move) || [])[Number(w[1]) - 1];
      const to = o && o.village ? ` to ${villageName(ctx, o.village)}` : '';
      parts.push(`delivered order ${w[1]}${o ? ` (${o.name})` : ''} from ${villageName(ctx, w[3])}${to}${o ? `: ${payText(o)}` : ''}`);
    } else if (verb === 'play' || verb === 'swap') parts.push(moveWords(ctx, e.text, e.seat, true).replace(/^play /, 'played ').replace(/^swap /, 'swapped '));
  }
  const said = parts.map((p) => {
    if (p.market) return `went to market${p.took.length ? `: took ${tally(p.took, 'the top card of the deck', 'cards from the deck').join(' and ')}` : ''}`;
    if (p.lot) {
      const vl = (((ctx.v.map || {}).lots) || []).find((l) => l.id === p.lot);
      return `built on ${p.lot}${vl ? ` (${villageName(ctx, vl.village)})` : ''}${p.cost ? ` for $${p.cost}` : ''}`;
    }
    return p;
  });
  return tally(said).join(', then ');
}

// The same words said once, with how many times: "upgraded Harlem twice";
// `one`, said N times, becomes "N `many`" ("2 cards from the deck").
function tally(list, one = null, many = '') {
  const out = [];
  for (const w of list) {
    const last = out[out.length - 1];
    if (last && last.w === w) last.n++;
    else out.push({ w, n: 1 });
  }
  return out.map(({ w, n }) => (n === 1 ? w : w === one ? `${n} ${many}` : `${w} ${n === 2 ? 'twice' : `${n} times`}`));
}

// Each opponent's last turn, a line each, the one playing now first.
export function othersHtml(ctx) {
  learnOrders(ctx);
  const n = (ctx.v.players || []).length;
  if (!n || ctx.phase === 'over') return '';
  const entries = entriesOf(ctx);
  const lines = [];
  for (let k = 0; k < n; k++) {
    const seat = ((ctx.v.to_move ?? 0) + n - k) % n; // the one to move, then backwards: the latest turns first
    if (seat === ctx.seat) continue;
    const turn = lastTurn(entries, seat);
    const words = turn.length ? turnWords(ctx, turn) : '';
    if (!words) continue;
    const now = seat === ctx.v.whose_turn && turn[turn.length - 1].move >= (ctx.msg.moves ?? 0) - 1 && ctx.v.to_move === seat;
    lines.push(`<li data-seat="${seat}"><span class="pd-swatch pd-p${seat}" aria-hidden="true"></span><b>${esc(who(ctx, seat))}</b>` +
      ` ${now ? '<span class="muted">(now)</span> ' : ''}${esc(words)}</li>`);
  }
  if (!lines.length) return '';
  return `<div id="delivery-others" class="pd-others"><h3>Last turns</h3><ul>${lines.join('')}</ul></div>`;
}

// ---- Banners: global events ----

const dismissed = new Set(); // `${code}:${move}:${kind}`
const coopSeen = new Map();  // code -> {moves, day, orders, passed}: the last co-op view, to see what changed
const coopNews = new Map();  // code -> [{move, kind, title, text}]
const RECENT = 12;           // a banner is shown for an event this many moves back at most (a view's log)

const orderCount = (v) => (v.orders || []).filter(Boolean).length;

// Co-op: a promotion that brought orders, a marker reached (from one view to the next).
function learnCoop(ctx) {
  const c = ctx.v.coop;
  if (!c || !ctx.code || !Number.isInteger(ctx.msg.moves)) return;
  const was = coopSeen.get(ctx.code);
  const now = { moves: ctx.msg.moves, day: c.day, orders: orderCount(ctx.v), pizzas: c.pizzas, out: c.orders_out,
    passed: (c.markers || []).filter((m) => m.passed).map((m) => m.colour) };
  coopSeen.set(ctx.code, now);
  if (!was || now.moves <= was.moves) return;
  const news = coopNews.get(ctx.code) || [];
  const move = now.moves - 1;
  // orders come in; some went (delivered, or pushed past Order 4); Pandemic's have their own banner
  const came = now.orders - was.orders + (now.pizzas - was.pizzas) + (now.out - was.out);
  const pandemic = entriesOf(ctx).some((e) => e.move >= was.moves && /^play power:pandemic$/.test(e.text));
  if (came > 0 && !pandemic) {
    // the evening's promotion comes as the day ends (the pawn moves on), the morning's as it begins
    const evening = now.day !== was.day && (c.promotions || []).some((x) => x.day === was.day && /evening/.test(`${x.when} ${x.extra || ''}`));
    const out = now.out - was.out;
    news.push({ move, kind: 'promotion', title: `Pizza Promotion (${evening ? `${was.day} evening` : `${c.day} morning`})`,
      text: `${plural(came, 'new order')} came in at Order 1 and pushed the others on` +
        `${out > 0 ? `; ${plural(out, 'order')} went past Order 4 into the sewer` : ''}.` });
  }
  for (const colour of now.passed.filter((x) => !was.passed.includes(x))) {
    const p = (c.promotions || []).find((x) => x.colour === colour);
    // Easier: one order (back side up); Insane: one more with the back-side token; its time chosen after
    const orders = !p ? 2 : (p.orders ?? 2) + (p.extra || p.choosing ? 1 : 0);
    const when = p && p.when ? `, ${p.when}${p.extra ? ` + ${p.extra}` : ''}` : '';
    news.push({ move, kind: `marker-${colour}`, title: `The ${colour[0].toUpperCase()}${colour.slice(1)} promotion marker is reached`,
      text: `A promotion token goes on the week${p ? ` (${p.day}${when})` : ''}: it brings ${plural(orders, 'order')} every week from now on.` });
  }
  if (now.day !== was.day && !news.some((x) => x.move === move)) {
    const promo = (c.promotions || []).find((x) => x.day === c.day && !x.asleep);
    if (promo) news.push({ move, kind: 'day', day: c.day, title: `It is ${c.day}`, text: `Today's promotion brings orders (${promo.when}).` });
  }
  coopNews.set(ctx.code, news.filter((x) => x.move >= now.moves - RECENT));
}

// The events of the last moves: a GLOBAL card played by someone else, a Health Inspector drawn.
function logEvents(ctx) {
  const out = [];
  const from = (ctx.msg.moves ?? 0) - RECENT;
  for (const e of entriesOf(ctx).filter((x) => x.move >= from)) {
    const w = String(e.text).split(/\s+/);
    const inspector = /A Health Inspector is drawn[^.]*\./.exec(e.news || '');
    if (w[0] === 'play' && /^power:/.test(w[1] || '')) {
      const p = powerInfo(ctx, w[1]);
      if (!/^Global/.test(p.type) || e.seat === ctx.seat) continue;
      out.push({ move: e.move, kind: p.id, title: `${who(ctx, e.seat)} played ${p.name}`, type: p.type, text: p.text, news: e.news || '' });
    } else if (inspector) {
      out.push({ move: e.move, kind: 'inspector', title: 'Health Inspector', type: '', text: inspector[0], news: e.news.replace(inspector[0], '').trim() });
    }
  }
  return out;
}

// The banners not dismissed yet, newest first.
export function bannersHtml(ctx) {
  learnPowers(ctx.v);
  learnCoop(ctx);
  const from = (ctx.msg.moves ?? 0) - RECENT;
  // a day's announcement lasts the day
  const coop = (coopNews.get(ctx.code) || []).filter((x) => x.move >= from && (!x.day || x.day === (ctx.v.coop || {}).day));
  const events = [...logEvents(ctx), ...coop]
    .filter((x) => !dismissed.has(`${ctx.code}:${x.move}:${x.kind}`)).sort((a, b) => b.move - a.move);
  return events.map((x) => {
    const key = `${ctx.code}:${x.move}:${x.kind}`;
    return `<div class="pd-banner" role="status" data-event="${esc(x.kind)}" data-move="${x.move}">` +
      `<div class="pd-banner-text"><b>${esc(x.title)}</b>${x.type ? ` <span class="pd-pcard-type">${esc(x.type)}</span>` : ''}` +
      `${x.text ? ` ${esc(x.text)}` : ''}${x.news ? ` <span class="muted">${esc(x.news)}</span>` : ''}</div>` +
      `<button type="button" class="small secondary pd-banner-close" data-dismiss="${esc(key)}">Dismiss</button></div>`;
  }).join('');
}

// ---- Clicks handled here ----

let wired = false;

// A dismissed banner goes at once and stays gone; the hand's grouping
// redraws the hand alone. Both are the page's own business, not a move.
export function wireCards(doc = globalThis.document) {
  if (wired || !doc) return;
  wired = true;
  doc.addEventListener('click', (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    const close = t && t.closest('[data-dismiss]');
    if (close) {
      dismissed.add(close.dataset.dismiss);
      close.closest('.pd-banner')?.remove();
      return;
    }
    const by = t && t.closest('[data-hand-by]');
    if (by && lastHand) {
      handBy = by.dataset.handBy === 'ingredient' ? 'ingredient' : 'village';
      const box = doc.getElementById('delivery-hand-box');
      if (box) box.innerHTML = handInner(lastHand.ctx, lastHand.play, lastHand.powerPlay);
    }
  });
}

if (typeof document !== 'undefined') wireCards(document);
