// delivery-choose.js -- New York Pizza Delivery: choose, then confirm.
//
// A payment (a build's price, the distance beyond the free range, Property
// Tax), a discard down to the hand limit, a fine and Out of Supplies are
// put together here from the dollars and cards the player selects, with a
// running total, and sent as ONE move ("pay $2 HA/Ham power:mob-boss",
// "discard HA/Ham MT/Onions", "fine A B"). A sensible selection is made
// first (money first for a price; the cards the orders need least), so the
// common case is one click on Confirm. Reputation goes by the map: a lot
// clicked shows its price, the card it needs and the builds; one of your
// pizzerias clicked shows its stack and what each hand card can do to it.
// Selections are kept here and changed through delivery.js's pick(); the
// buttons carry `data-action` (a move, sent by app.js) or `data-pick`.
import { esc } from './tokens.js';
import { cardChip, cardParts, powerName, moveWords, who } from './delivery.js';

// ---- Small helpers ----

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function villageName(ctx, code) {
  const vl = ((ctx.v.map || {}).villages || []).find((x) => x.code === code);
  return vl ? vl.name : code;
}

// A card as a move writes it: the village's code and the ingredient, spaces as '-'.
function cardWord(ctx, text) {
  if (/^power:/.test(text)) return text;
  const p = cardParts(ctx, text);
  return `${p.code || p.village.replace(/ /g, '-')}/${p.ingredient.replace(/ /g, '-')}`;
}

// A card in words: "Ham (Harlem)", a power card by its name.
function cardWords(ctx, text) {
  if (/^power:/.test(text)) return powerName(text, ctx);
  const p = cardParts(ctx, text);
  return p.code ? `${p.ingredient} (${p.village})` : p.ingredient;
}

const same = (ctx, a, b) => cardWord(ctx, a).toLowerCase() === cardWord(ctx, b).toLowerCase();

// ---- A compound payment in words (the log and the buttons) ----

// "pay $1 HA/Ham power:mob-boss" -> "pay $1 and Ham (Harlem) and the power card Mob Boss"
function partsWords(ctx, words) {
  const parts = words.map((w) => (/^\$/.test(w) ? w : /^power:/.test(w) ? `the power card ${powerName(w, ctx)}` : cardWords(ctx, w)));
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

// ---- What is due, and what may pay it ----

const PAY_PHASES = new Set(['pay', 'distance', 'tax', 'discard']);

export function choosesHere(ctx) {
  return PAY_PHASES.has(ctx.phase);
}

function me(ctx) {
  return (ctx.v.players || [])[ctx.seat] || {};
}

function money(ctx) {
  return ctx.v.coop ? ctx.v.coop.money ?? 0 : me(ctx).money ?? 0;
}

// The dollars a payment may take: none for cards only, else the money not
// already given to it.
function purseOf(ctx, d) {
  if (!d.money) return 0;
  return Math.max(0, money(ctx) - (ctx.phase === 'pay' ? (ctx.v.pending || {}).money || 0 : 0));
}

// Market and power cards in hand.
function handTotal(ctx) {
  return (ctx.v.hand || []).reduce((a, c) => a + c.count, 0) + (ctx.v.powers || []).length;
}

// What the phase asks for: how much, in what, and the sentence that says it.
function dueOf(ctx) {
  const v = ctx.v;
  const pe = v.pending || {};
  switch (ctx.phase) {
    case 'pay': {
      const lot = ((v.map || {}).lots || []).find((l) => l.id === pe.lot);
      const paid = (pe.money || 0) + (pe.cards || []).reduce((a, c) => a + c.count, 0) + (pe.powers || []).length;
      const head = `Lot ${pe.lot} costs $${paid + (pe.due ?? 0)}`;
      return { due: pe.due ?? 0, money: true, keep: pe.card, head, sub: `Your pizzeria's card: ${cardWords(ctx, pe.card || '')}` +
        `${paid ? `; $${paid} paid, $${pe.due} still due` : ''}. Money or cards, $1 each.`, lot: lot ? lot.id : pe.lot };
    }
    case 'distance':
      return { due: pe.due ?? 0, money: false, head: `${plural(pe.due ?? 0, 'space')} beyond your free range: ${plural(pe.due ?? 0, 'card')}`,
        sub: 'Any cards from your hand, power cards too; chosen first: the cards the orders need least.' };
    case 'tax': {
      const due = (v.tax || {}).due ?? (v.instant || {}).tax_due ?? 0;
      const from = v.instant ? '' : ` from ${who(ctx, v.whose_turn)}`;
      return { due, money: true, head: `Property Tax${from}: $${due}`, sub: 'Money, cards or power cards, $1 each.' };
    }
    case 'discard': {
      const due = v.discard_due || 0; // the engine's count (the hand limit: 10, or 12 with Liberty Storage)
      return { due, money: false, discard: true, head: `Discard ${plural(due, 'card')} down to ${handTotal(ctx) - due}`,
        sub: `Chosen first: the cards the orders need least${(ctx.v.powers || []).length ? '; power cards count too' : ''}.` };
    }
    default:
      return null;
  }
}

// Counts of the cards a pending payment holds already (they are still in the hand).
function heldBack(ctx) {
  const pe = ctx.v.pending || {};
  const held = new Map();
  if (ctx.phase !== 'pay' && ctx.phase !== 'distance') return { cards: held, powers: new Set() };
  for (const c of pe.cards || []) held.set(cardWord(ctx, c.card).toLowerCase(), c.count);
  return { cards: held, powers: new Set((pe.powers || []).map((p) => `power:${p}`)) };
}

// The cards that may go: [{word, card, free}] and the power cards' words.
function poolOf(ctx, keep = null) {
  const held = heldBack(ctx);
  const cards = [];
  for (const c of ctx.v.hand || []) {
    const word = cardWord(ctx, c.card);
    const free = c.count - (held.cards.get(word.toLowerCase()) || 0) - (keep && same(ctx, c.card, keep) ? 1 : 0);
    if (free > 0) cards.push({ word, card: c.card, free });
  }
  const powers = (ctx.v.powers || []).map((id) => `power:${id}`).filter((p) => !held.powers.has(p));
  return { cards, powers };
}

// How much a card is worth keeping: its ingredient on an order, its village
// one of your pizzerias' or the one being built (an upgrade; Central Park's
// upgrade any); the least first goes first.
function worth(ctx, card) {
  const p = cardParts(ctx, card);
  const ing = p.ingredient.toLowerCase();
  let w = 0;
  for (const o of ctx.v.orders || []) {
    if (!o) continue;
    if ((o.cards || []).some((c) => cardParts(ctx, c).ingredient.toLowerCase() === ing)) w += 2;
    if ((o.needs || []).some((n) => String(n.ingredient).toLowerCase() === ing)) w += 2;
  }
  const building = ctx.phase === 'pay' ? String((ctx.v.pending || {}).lot || '').split('-')[0] : '';
  if (p.code === building || p.code === 'CP' || (me(ctx).pizzerias || []).some((pz) => pz.village === p.code)) w += 1;
  if (/^any /.test(ing) || ing === 'extra cheese') w += 2;
  return w;
}

function byWorth(ctx, cards) {
  return [...cards].sort((a, b) => worth(ctx, a.card) - worth(ctx, b.card) || b.free - a.free || a.word.localeCompare(b.word));
}

// ---- The selection ----
//
// One per position: a new move starts again from the suggested selection.
const sel = { key: null, money: 0, cards: new Map(), powers: new Set() };

// What to pay `due` with: money first (up to `purse`), then the cards worth
// least, then power cards. {money, cards: Map(word -> n), powers: Set}
function suggestion(ctx, due, purse, pool) {
  let left = due;
  const out = { money: Math.min(purse, left), cards: new Map(), powers: new Set() };
  left -= out.money;
  for (const c of byWorth(ctx, pool.cards)) {
    if (left <= 0) break;
    const n = Math.min(c.free, left);
    out.cards.set(c.word, n);
    left -= n;
  }
  for (const p of pool.powers) {
    if (left <= 0) break;
    out.powers.add(p);
    left--;
  }
  return out;
}

function suggest(ctx, d, pool) {
  Object.assign(sel, suggestion(ctx, d.due, purseOf(ctx, d), pool));
}

// A choice as the words of its move after the verb: "$2 HA/Ham power:mob-boss".
function choiceWords(c, withMoney = true) {
  const words = withMoney && c.money ? [`$${c.money}`] : [];
  for (const [w, n] of c.cards) for (let i = 0; i < n; i++) words.push(w);
  return [...words, ...c.powers];
}

// The payment the panel would suggest, chosen ahead (a build's price, a
// delivery's distance) so that one click can carry it: the move, or '' when
// nothing is due. `keep` and `used` are cards not to pay with (the build's
// card, a delivery's ingredients: card words); null when the hand cannot pay.
export function payAhead(ctx, due, { money: withMoney = true, keep = null, used = [] } = {}) {
  if (!due) return '';
  const pool = poolOf(ctx, keep);
  for (const u of used) {
    const c = pool.cards.find((x) => same(ctx, x.word, u));
    if (c) c.free--;
  }
  pool.cards = pool.cards.filter((c) => c.free > 0);
  const c = suggestion(ctx, due, withMoney ? money(ctx) : 0, pool);
  const words = choiceWords(c, withMoney);
  const total = c.money + [...c.cards.values()].reduce((a, n) => a + n, 0) + c.powers.size;
  return total === due ? `pay ${words.join(' ')}` : null;
}

// A pair to pay a fine or Out of Supplies with: the two cards worth least.
function suggestPair(ctx, pool) {
  sel.money = 0;
  sel.cards = new Map();
  sel.powers = new Set();
  let left = 2;
  for (const c of byWorth(ctx, pool.cards)) {
    if (left <= 0) break;
    const n = Math.min(c.free, left);
    sel.cards.set(c.word, n);
    left -= n;
  }
}

function syncSel(ctx, fill) {
  const key = `${ctx.code}:${ctx.msg.moves}:${ctx.seat}:${ctx.phase}`;
  if (sel.key === key) return;
  sel.key = key;
  fill();
}

// A click on a choice: pay-money (+1/-1), pay-card (a card's word: one more,
// back to none after all of them), pay-power (an id), pay-clear. False when
// the kind is not one of these.
export function choosePick(kind, value) {
  switch (kind) {
    case 'pay-money': sel.money = Math.max(0, sel.money + Number(value || 0)); return true;
    case 'pay-card': {
      const [word, most] = String(value).split('|');
      const n = (sel.cards.get(word) || 0) + 1;
      if (n > Number(most || 1)) sel.cards.delete(word); else sel.cards.set(word, n);
      return true;
    }
    case 'pay-less': {
      const n = (sel.cards.get(value) || 0) - 1;
      if (n <= 0) sel.cards.delete(value); else sel.cards.set(value, n);
      return true;
    }
    case 'pay-power':
      if (sel.powers.has(value)) sel.powers.delete(value); else sel.powers.add(value);
      return true;
    case 'pay-clear': sel.money = 0; sel.cards = new Map(); sel.powers = new Set(); return true;
    default: return false;
  }
}

function chosenCards() {
  return [...sel.cards.values()].reduce((a, n) => a + n, 0) + sel.powers.size;
}

// The chips to choose from: each card once with how many are chosen, each power card.
function togglesHtml(ctx, pool, max) {
  const cards = pool.cards.map((c) => {
    const n = Math.min(sel.cards.get(c.word) || 0, c.free);
    const count = c.free > 1 ? ` <span class="pd-pick-count">${n ? `${n} of ${c.free}` : `×${c.free}`}</span>` : '';
    const less = n && c.free > 1 ? `<button type="button" class="pd-pick-less small secondary" data-pick="pay-less" data-value="${esc(c.word)}"` +
      ` aria-label="${esc(`one ${cardWords(ctx, c.card)} fewer`)}">−</button>` : '';
    return `<span class="pd-pick-item"><button type="button" class="pd-pick${n ? ' chosen' : ''}" data-pick="pay-card" data-value="${esc(`${c.word}|${Math.min(c.free, max)}`)}"` +
      ` data-card="${esc(c.word)}" aria-pressed="${n > 0}" title="${esc(`${cardWords(ctx, c.card)}: click to ${n >= Math.min(c.free, max) ? 'put back' : 'choose'}`)}">` +
      `${cardChip(ctx, c.card)}${count}</button>${less}</span>`;
  });
  const powers = pool.powers.map((p) => {
    const on = sel.powers.has(p);
    const text = ((ctx.v.power_cards || {})[p.slice(6)] || {}).text || '';
    return `<button type="button" class="pd-pick pd-pick-power${on ? ' chosen' : ''}" data-pick="pay-power" data-value="${esc(p)}" data-card="${esc(p)}"` +
      ` aria-pressed="${on}" title="${esc(`${powerName(p, ctx)}${text ? `: ${text}` : ''}`)}"><span class="pd-power"><b>★</b> ${esc(powerName(p, ctx))}</span></button>`;
  });
  return `<div class="pd-pick-list">${[...cards, ...powers].join('') || '<span class="muted">no cards in your hand</span>'}</div>`;
}

// The selection as the move's words after the verb: dollars, cards, power cards.
function selectionWords(withMoney) {
  return choiceWords(sel, withMoney);
}

// ---- The payment and discard panel ----

export function paymentHtml(ctx) {
  const d = dueOf(ctx);
  if (!d) return '';
  const pool = poolOf(ctx, d.keep);
  const purse = purseOf(ctx, d);
  syncSel(ctx, () => suggest(ctx, d, pool));
  sel.money = Math.min(sel.money, purse);
  const cards = chosenCards();
  const total = sel.money + cards;
  const verb = d.discard ? 'discard' : 'pay';
  const words = selectionWords(d.money);
  const move = words.length ? `${verb} ${words.join(' ')}` : '';
  const over = total > d.due;
  const part = total > 0 && total < d.due;
  const ok = total > 0 && !over && !(d.discard && part);
  const sum = d.discard
    ? `${plural(total, 'card')} chosen of ${d.due}`
    : `${[d.money ? `$${sel.money}` : '', pool.cards.length || pool.powers.length || !d.money ? plural(cards, 'card') : ''].filter(Boolean).join(' + ')} = ${total} of ${d.due}`;
  let label;
  if (!total) label = d.discard ? `Choose ${plural(d.due, 'card')}` : 'Choose what to pay';
  else if (over) label = `Too much: ${total} of ${d.due}`;
  else if (d.discard) label = part ? `Choose ${d.due - total} more` : `Discard ${partsWords(ctx, words)}`;
  else label = `${part ? `Pay part (${total} of ${d.due}): ` : 'Pay '}${partsWords(ctx, words)}`;
  const stepper = d.money ? '<div class="pd-pay-money"><span class="label">Money</span>' +
    `<button type="button" class="small secondary pd-money-less" data-pick="pay-money" data-value="-1" aria-label="one dollar less"${sel.money ? '' : ' disabled'}>−</button>` +
    `<b class="pd-pay-dollars">$${sel.money}</b>` +
    `<button type="button" class="small secondary pd-money-more" data-pick="pay-money" data-value="1" aria-label="one dollar more"${sel.money < Math.min(purse, d.due) ? '' : ' disabled'}>+</button>` +
    ` <span class="muted">of your $${purse}</span></div>` : '';
  return `<div id="pd-pay" class="pd-group pd-choose" data-group="${verb}" data-phase="${esc(ctx.phase)}" data-due="${d.due}" data-total="${total}">` +
    `<h3 class="pd-pay-head">${esc(d.head)}</h3><p class="muted pd-hint">${esc(d.sub)}</p>${stepper}` +
    `${togglesHtml(ctx, pool, d.due)}` +
    `<p class="pd-pay-total${ok && !part ? ' covered' : ''}${over ? ' over' : ''}">${esc(sum)}</p>` +
    '<div class="row pd-pay-buttons">' +
    `<button type="button" id="pd-pay-confirm" class="pd-move"${ok ? ` data-action="${esc(move)}"` : ' disabled'} title="${esc(move)}">${esc(cap(label))}</button>` +
    '<button type="button" class="secondary small" data-pick="pay-clear">Clear</button></div></div>';
}

// ---- A fine, Out of Supplies: $2 at once, or two cards ----

// verb 'fine' or 'supplies'; `moves` the legal ones of that verb.
export function pairHtml(ctx, verb, moves) {
  const pool = { cards: (ctx.v.hand || []).map((c) => ({ word: cardWord(ctx, c.card), card: c.card, free: c.count })),
    powers: (ctx.v.powers || []).map((id) => `power:${id}`) };
  syncSel(ctx, () => suggestPair(ctx, pool));
  const words = selectionWords(false);
  const key = (l) => l.split(' ').slice(1).map((w) => w.toLowerCase()).sort().join(' ');
  const want = words.map((w) => w.toLowerCase()).sort().join(' ');
  const move = words.length === 2 ? moves.find((l) => !/\$/.test(l) && key(l) === want) : null;
  const cash = moves.find((l) => /^\S+ \$/.test(l));
  const what = verb === 'fine' ? 'the fine' : 'Out of Supplies';
  const head = verb === 'fine' ? 'Health Inspector: a fine of $2' : 'Out of Supplies: $2 before you deliver';
  const label = move ? `Pay ${what} with ${partsWords(ctx, words)}` : words.length > 2 ? 'Two cards, no more' : `Choose ${2 - words.length} more`;
  return `<div id="pd-pay" class="pd-group pd-choose" data-group="${verb}" data-due="2" data-total="${words.length}">` +
    `<h3 class="pd-pay-head">${esc(head)}</h3>` +
    `${cash ? `<div class="row"><button type="button" class="pd-move" data-action="${esc(cash)}">${esc(cap(moveWords(ctx, cash)))}</button></div>` +
      '<p class="muted pd-hint">or two cards:</p>' : '<p class="muted pd-hint">Two cards (power cards too):</p>'}` +
    `${togglesHtml(ctx, pool, 2)}<div class="row pd-pay-buttons">` +
    `<button type="button" id="pd-pay-confirm" class="${cash ? 'secondary ' : ''}pd-move"${move ? ` data-action="${esc(move)}"` : ' disabled'}>${esc(label)}</button>` +
    '<button type="button" class="secondary small" data-pick="pay-clear">Clear</button></div></div>';
}

// ---- Reputation by pizzeria ----

// The pizzeria's cards bottom to top, the top one's power named, its disks.
function stackHtml(ctx, pz) {
  const cards = (pz.cards || []).map((c, i, all) => `<li class="${i === all.length - 1 ? 'top' : ''}">${cardChip(ctx, c, { extra: i === all.length - 1 ? 'top' : '' })}` +
    `${i === all.length - 1 && pz.power ? ` <span class="pd-top-power" title="the top card's delivery power">★ ${esc(powerName(pz.power))}</span>` : ''}</li>`);
  return `<div class="pd-stack"><span class="label">Bottom to top</span><ol class="pd-stack-cards">${cards.join('') || '<li class="muted">no cards</li>'}</ol>` +
    `<span class="pd-stack-disks">${plural(pz.disks, 'disk')} · reputation <b>${esc(pz.reputation)}</b> of ${esc(pz.limit)}</span></div>`;
}

function possessive(word) {
  return /s$/.test(word) ? `${word}'` : `${word}'s`;
}

// What an ingredient's card does on top of a pizzeria, from the view's texts.
function topPower(ctx, ingredient) {
  const texts = ctx.v.ingredient_texts || {};
  const key = Object.keys(texts).find((k) => k.toLowerCase() === String(ingredient).toLowerCase());
  const m = key ? /on top of a pizzeria: (.+)$/.exec(texts[key]) : null;
  return m ? m[1] : '';
}

// An upgrade's button: what happens, in words.
function upgradeWords(ctx, w) {
  const how = w[3];
  const top = w[4] === 'top' ? `, and your ${String(w[5] || '').replace(/-/g, ' ')} card goes on top` : '';
  const p = cardParts(ctx, w[2]);
  if (how === 'disk') return `Discard it: +1 disk${top}`;
  if (how === 'top') return `Put it on top (${possessive(p.ingredient)} power)`;
  return `Add it under the top card${top}`;
}

function pizzeriaPanel(ctx, village, moves, back) {
  const pz = (me(ctx).pizzerias || []).find((p) => p.village === village);
  if (!pz) return '';
  const byCard = new Map();
  for (const l of moves) {
    const w = l.split(' ');
    if (w[0] !== 'upgrade' || w[1] !== village) continue;
    if (!byCard.has(w[2])) byCard.set(w[2], []);
    byCard.get(w[2]).push({ l, w });
  }
  const texts = ctx.v.ingredient_texts || {};
  const rows = [...byCard].map(([card, list]) => {
    const p = cardParts(ctx, card);
    const buttons = list.map(({ l, w }) => `<button type="button" class="secondary pd-move pd-upgrade" data-action="${esc(l)}"` +
      ` title="${esc(`${cap(moveWords(ctx, l))}${w[3] === 'top' && texts[p.ingredient] ? ` — ${texts[p.ingredient]}` : ''}`)}">${esc(upgradeWords(ctx, w))}</button>`);
    const power = list.some(({ w }) => w[3] === 'top') && topPower(ctx, p.ingredient);
    return `<li class="pd-upgrade-card" data-card="${esc(card)}">${cardChip(ctx, card)} <span class="action-list">${buttons.join('')}</span>` +
      `${power ? `<span class="muted pd-power-text">${esc(p.ingredient)} on top: ${esc(power)}</span>` : ''}</li>`;
  });
  const full = pz.reputation >= pz.limit
    ? '<p class="muted pd-hint">At its limit: after this upgrade you take a card below the top off (a disk if there is none).</p>' : '';
  return `<div id="pd-pizzeria" class="pd-group pd-pizzeria-panel" data-group="upgrade" data-village="${esc(village)}">` +
    `<h3>Your pizzeria in ${esc(villageName(ctx, village))} <span class="muted">(${esc(pz.lot)})</span> ${back}</h3>${stackHtml(ctx, pz)}${full}` +
    `${rows.length ? `<p class="pd-hint">Upgrade it with a card from your hand:</p><ul class="pd-upgrade-list">${rows.join('')}</ul>`
      : '<p class="muted">No card in your hand can upgrade it.</p>'}</div>`;
}

function lotPanel(ctx, lot, moves, back) {
  const l = ((ctx.v.map || {}).lots || []).find((x) => x.id === lot);
  if (!l) return '';
  const free = ctx.v.coop && ctx.v.coop.first_round;
  // The price paid as the payment panel would suggest it, in the same click;
  // a second button also ends the reputation step ("done": no second build or
  // upgrade) and the turn.
  const builds = moves.filter((m) => m.split(' ')[0] === 'build' && m.split(' ')[1] === lot).map((m) => {
    const card = m.split(' ')[2];
    const pay = free ? '' : payAhead(ctx, l.cost, { keep: card });
    const paid = pay ? `, pay ${partsWords(ctx, pay.split(' ').slice(1))}` : '';
    const title = `${cap(moveWords(ctx, m))}${paid}`;
    const then = pay ? [pay] : [];
    const attrs = (more) => `data-action="${esc(m)}"${[...then, ...more].length ? ` data-then="${esc([...then, ...more].join('|'))}"` : ''}`;
    const main = `<button type="button" class="pd-move pd-build" ${attrs([])} title="${esc(title)}">Build with ${cardChip(ctx, card)}${esc(paid)}</button>`;
    // the same, then no second build or upgrade, and the turn ends
    const endWords = `${title}; no second build or upgrade; end the turn`;
    const end = `<button type="button" class="secondary small pd-move pd-build pd-build-done" ${attrs(['done', 'end'])}` +
      ` title="${esc(endWords)}">${pay ? 'Build, pay' : 'Build'} and end turn</button>`;
    // the price chosen otherwise: the payment panel after the build
    const choose = pay ? `<button type="button" class="secondary small pd-move pd-build-choose" data-action="${esc(m)}"` +
      ` title="${esc(`${cap(moveWords(ctx, m))}, then choose how to pay`)}">choose how to pay</button>` : '';
    return `<div class="row pd-build-row">${main}${end}${choose}</div>`;
  });
  return `<div id="pd-lot" class="pd-group pd-lot-panel" data-group="build" data-lot="${esc(lot)}" data-cost="${l.cost}">` +
    `<h3>Lot ${esc(lot)} in ${esc(villageName(ctx, l.village))}: <span class="pd-lot-cost">${free ? 'free (first round)' : `$${l.cost}`}</span> ${back}</h3>` +
    `<p class="pd-hint">It needs a card of ${esc(villageName(ctx, l.village))}: the card becomes the pizzeria's top card; ` +
    `${free ? 'nothing to pay' : `then you pay $${l.cost} in money or cards`}.</p>` +
    `<div class="action-list">${builds.join('') || '<span class="muted">None of your cards can build here.</span>'}</div></div>`;
}

// The reputation step: the lot or pizzeria picked on the map, else what to click.
export function reputationHtml(ctx, ui, moves) {
  const back = '<button type="button" class="secondary small" data-pick="clear">back</button>';
  const done = moves.includes('done')
    ? '<div class="action-list pd-rep-done"><button type="button" class="secondary pd-move" data-action="done">Done: no second build or upgrade</button></div>' : '';
  if (ui.lot && moves.some((m) => m.startsWith(`build ${ui.lot} `))) return lotPanel(ctx, ui.lot, moves, back) + done;
  if (ui.pizzeria && moves.some((m) => m.startsWith(`upgrade ${ui.pizzeria} `))) return pizzeriaPanel(ctx, ui.pizzeria, moves, back) + done;
  const lots = [...new Set(moves.filter((m) => /^build /.test(m)).map((m) => m.split(' ')[1]))];
  const cost = (id) => (((ctx.v.map || {}).lots || []).find((x) => x.id === id) || {}).cost;
  const villages = [...new Set(moves.filter((m) => /^upgrade /.test(m)).map((m) => m.split(' ')[1]))];
  // one place only: its panel at once, a click saved
  if (lots.length + villages.length === 1) {
    return (lots.length ? lotPanel(ctx, lots[0], moves, '') : pizzeriaPanel(ctx, villages[0], moves, '')) + done;
  }
  const lotButtons = lots.map((id) => `<button type="button" class="secondary small pd-lot-choice" data-pick="lot" data-value="${esc(id)}">${esc(id)} $${esc(cost(id))}</button>`);
  const pzButtons = villages.map((c) => `<button type="button" class="secondary small pd-pz-choice" data-pick="pizzeria" data-value="${esc(c)}">${esc(villageName(ctx, c))}</button>`);
  return '<div class="pd-group pd-rep-choose" data-group="reputation">' +
    `<p class="pd-hint">${lots.length ? 'Click a lot outlined on the map to build' : ''}${lots.length && villages.length ? ', or ' : ''}` +
    `${villages.length ? `${lots.length ? 'one' : 'Click one'} of your pizzerias to upgrade it` : ''}${lots.length || villages.length ? '.' : 'No build or upgrade is possible.'}</p>` +
    `${lotButtons.length ? `<div class="action-list pd-lot-choices"><span class="label">Lots</span> ${lotButtons.join('')}</div>` : ''}` +
    `${pzButtons.length ? `<div class="action-list pd-pz-choices"><span class="label">Your pizzerias</span> ${pzButtons.join('')}</div>` : ''}</div>${done}`;
}

// Over the reputation limit after an upgrade: the stack, and what may go.
export function trimHtml(ctx, moves) {
  const village = (ctx.v.pending || {}).village || (moves[0] || '').split(' ')[1];
  const pz = (me(ctx).pizzerias || []).find((p) => p.village === village);
  const buttons = moves.map((l) => {
    const w = l.split(' ');
    const words = w[2] === 'disk' ? 'Take a disk off (back to your supply)' : `Take ${cardWords(ctx, w[2])} out (to the sewer)`;
    return `<button type="button" class="secondary pd-move pd-trim" data-action="${esc(l)}" title="${esc(cap(moveWords(ctx, l)))}">${esc(words)}</button>`;
  });
  return `<div id="pd-pizzeria" class="pd-group pd-pizzeria-panel" data-group="remove" data-village="${esc(village)}">` +
    `<h3>Your pizzeria in ${esc(villageName(ctx, village))}: over its limit by ${esc((ctx.v.pending || {}).due ?? 1)}</h3>` +
    `${pz ? stackHtml(ctx, pz) : ''}<div class="action-list">${buttons.join('')}</div></div>`;
}

// For the hand beside the map (infoHtml): while a payment or a discard is
// being chosen, a click on a hand card could toggle it here rather than pay
// it alone: the data-pick kind and value for a card ("Harlem/Ham" or
// "power:mob-boss"), or null when the card is not among those that may go.
export function handPick(ctx, text) {
  if (!ctx.myTurn || !choosesHere(ctx)) return null;
  const d = dueOf(ctx);
  if (/^power:/.test(text)) return poolOf(ctx, d.keep).powers.includes(text) ? { kind: 'pay-power', value: text } : null;
  const c = poolOf(ctx, d.keep).cards.find((x) => same(ctx, x.card, text));
  return c ? { kind: 'pay-card', value: `${c.word}|${Math.min(c.free, d.due)}` } : null;
}
