// table.js -- a `view` message (docs/protocol.md; the game view is built by
// games/nyslice/view.c) turned into the table's markup. Nothing here talks to
// the server: app.js owns the drafts (cuts being made, slices chosen to eat)
// and the clicks; these functions only read them.
import {
  MIN_TYPE, MAX_TYPE, SPECIALS, esc, chip, chips, specialName, leadMarks, halfText, actionWords, recentMoves,
  glossaryEntry,
} from './tokens.js';
import { ruleText } from './rules.js';

// ---- The context every piece reads ----

export function buildCtx(msg) {
  const v = msg.view || {};
  const seat = Number.isInteger(msg.seat) ? msg.seat : null;
  const n = v.player_count || (v.players || []).length;
  const names = [];
  for (let i = 0; i < n; i++) names.push((msg.names && msg.names[i]) || `Seat ${i + 1}`);
  const ctx = {
    msg, v, seat, n, names,
    code: msg.code,
    kinds: msg.players || [],
    phase: v.phase || '',
    typeNames: v.type_names || {},
    myTurn: seat != null && v.to_move === seat,
  };
  ctx.portions = namePortions((v.portions || []).map((p) => ({
    key: String(p.name), name: p.name, positions: p.positions || [], slices: p.slices || [],
    special: Boolean(p.special), takenBy: p.taken_by ?? null, letter: p.letter,
  })));
  ctx.byKey = new Map(ctx.portions.map((p) => [p.key, p]));
  return ctx;
}

export function who(ctx, seat) {
  return seat == null ? '?' : ctx.names[seat] || `Seat ${seat + 1}`;
}

// A Special's tooltip: its name and printed text (from the view, else the
// glossary the server gave with the seat; the rules text of its slug when
// neither has it, e.g. a replay opened from the lobby).
export function specialTip(sp) {
  const known = sp.text ? sp : { ...(glossaryEntry(sp.slug) || {}), ...sp };
  const scored = known.scored ?? /\*$/.test(specialName(sp.slug));
  const name = known.name || specialName(sp.slug).replace(/\*$/, '');
  if (!known.text) return ruleText('nyslice', sp.slug) || name;
  return `${name}${scored ? ' (scored at the end)' : ''}: ${known.text}`;
}

// The attributes that give an element a Special's tooltip (tips.js), focusable for keyboards.
export function specialTipAttrs(sp, focusable = true) {
  return ` data-tip="${esc(specialTip(sp))}"${focusable ? ' tabindex="0"' : ''}`;
}

// Letters A, B, C... as the engine names portions (the view's letter, fixed when
// the pizza is divided); a draft has none yet: lowest position first, the
// Special alone last, as the engine will letter them.
function namePortions(portions) {
  const low = (p) => (p.positions.length ? Math.min(...p.positions) : Infinity);
  const order = portions.map((_, i) => i).sort((a, b) => low(portions[a]) - low(portions[b]) || a - b);
  order.forEach((idx, rank) => {
    const letter = portions[idx].letter || String.fromCharCode(65 + rank);
    portions[idx].letter = letter;
    portions[idx].colour = `c-${String.fromCharCode(65 + ((letter.charCodeAt(0) - 65) % 7))}`; // style.css c-A..c-G
  });
  return portions;
}

// ---- The Slicer's division, drafted in the browser ----

// The portions a set of cuts makes (cut p = between p and the next position),
// exactly as the engine splits the ring: runs of positions holding a slice.
export function previewPortions(present, cuts) {
  if (!present.length) return [];
  const cs = [...cuts].sort((a, b) => a - b);
  if (!cs.length) return [present.slice()];
  const runs = [];
  for (let i = 0; i + 1 < cs.length; i++) runs.push(present.filter((p) => p > cs[i] && p <= cs[i + 1]));
  runs.push(present.filter((p) => p > cs[cs.length - 1] || p <= cs[0]));
  return runs.filter((r) => r.length);
}

export function cutsNeeded(n, alone) {
  if (alone) return n === 2 ? 0 : n - 1;
  return n;
}

// The notation of a drafted division (docs/records.md), and whether it is complete.
export function divideNotation(n, draft) {
  const cuts = [...draft.cuts].sort((a, b) => a - b);
  const alone = draft.special === 'alone';
  const tail = draft.special == null ? 'special ?' : alone ? 'special alone' : `special ${draft.special}`;
  const text = cuts.length ? `cut ${cuts.join(' ')} ${tail}` : tail;
  const valid = draft.special != null && cuts.length === cutsNeeded(n, alone);
  return { text, valid };
}

// Cuts spread evenly over the slices, like the terminal's example division.
export function evenCuts(present, count) {
  const m = present.length;
  const cuts = new Set();
  if (count < 1 || m < count) return cuts;
  for (let i = 0; i < count; i++) cuts.add(present[Math.floor(((i + 1) * m) / count) - 1]);
  return cuts;
}

export function presentPositions(ctx) {
  return (ctx.v.ring || []).filter((s) => s.slice != null).map((s) => s.pos);
}

export function dividing(ctx) {
  return ctx.myTurn && ctx.phase === 'divide';
}

// The draft's portions in the shape buildCtx gives real ones, lettered likewise.
function draftPortions(ctx, draft) {
  // Before the first cut the pizza is still whole: nothing to colour yet.
  if (!draft.cuts.size && draft.special !== 'alone') return [];
  const runs = previewPortions(presentPositions(ctx), draft.cuts);
  const ring = ctx.v.ring || [];
  const withSpecial = typeof draft.special === 'number' ? draft.special : null;
  const list = runs.map((r) => ({
    key: String(Math.min(...r)), name: Math.min(...r), positions: r,
    slices: r.map((p) => ring[p - 1].slice), special: withSpecial != null && r.includes(withSpecial), takenBy: null,
  }));
  if (draft.special === 'alone') {
    list.push({ key: 'special', name: 'special', positions: [], slices: [], special: true, takenBy: null });
  }
  return namePortions(list);
}

// ---- What the others just did ----

// The portions taken (and slices moved or taken by Dibs!) since this seat's
// last move: {portions: Map key -> seat, positions: Map pos -> seat}.
export function recentOnPizza(ctx) {
  const portions = new Map(), positions = new Map();
  for (const e of recentMoves(ctx)) {
    const w = String(e.text || '').trim().split(/\s+/);
    const verb = (w[0] || '').toLowerCase();
    if (verb === 'take') {
      const arg = w[1] || '';
      const p = arg === 'special' ? ctx.byKey.get('special')
        : /^[A-Za-z]$/.test(arg) ? ctx.portions.find((x) => x.letter === arg.toUpperCase())
          : ctx.portions.find((x) => x.positions.includes(Number(arg)));
      // The letters start again each round: only the portion that seat holds now.
      if (p && p.takenBy === e.seat) portions.set(p.key, e.seat);
    } else if ((verb === 'dibs' || verb === 'sneak') && /^\d+$/.test(w[1] || '')) {
      positions.set(Number(w[1]), e.seat);
    }
  }
  return { portions, positions };
}

// ---- The ring ----

// Gaps where the portions of the view meet: after p when the next slice is in another portion.
function viewCuts(ring) {
  const cuts = new Set();
  const occupied = ring.filter((s) => s.slice != null && s.portion != null);
  for (let i = 0; i < occupied.length; i++) {
    const a = occupied[i], b = occupied[(i + 1) % occupied.length];
    if (occupied.length > 1 && String(a.portion) !== String(b.portion)) cuts.add(a.pos);
  }
  return cuts;
}

export function ringModel(ctx, draft) {
  const ring = ctx.v.ring || [];
  const drafting = dividing(ctx) && draft;
  const portions = drafting ? draftPortions(ctx, draft) : ctx.portions;
  const keyOf = new Map();
  for (const p of portions) for (const pos of p.positions) keyOf.set(pos, p.key);
  const slots = ring.map((s) => ({
    pos: s.pos, token: s.slice,
    portion: drafting ? keyOf.get(s.pos) ?? null : s.portion == null ? null : String(s.portion),
  }));
  const taking = ctx.myTurn && ctx.phase === 'take';
  return {
    slots,
    portions: new Map(portions.map((p) => [p.key, p])),
    cuts: drafting ? draft.cuts : viewCuts(ring),
    gapsActive: Boolean(drafting),
    slicesActive: Boolean(drafting) || taking,
    selected: drafting && typeof draft.special === 'number' ? new Set([draft.special]) : null,
    disc: discModel(ctx, drafting ? draft : null, portions, taking),
    recent: drafting ? { portions: new Map(), positions: new Map() } : recentOnPizza(ctx),
    names: ctx.names,
    typeNames: ctx.typeNames,
  };
}

// The Special in the middle: coloured like the portion it goes with.
function discModel(ctx, draft, portions, taking) {
  const today = ctx.v.today;
  if (!today || !(ctx.v.ring || []).length) return null;
  const title = specialTip(today);
  const special = portions.find((p) => p.special);
  if (draft) {
    return {
      title: `${title} (click: the Special alone)`, active: true, selected: draft.special === 'alone',
      colour: special ? special.colour : null, label: special ? special.letter : 'Special',
    };
  }
  if (!special) return { title, label: 'Special' };
  const taken = special.takenBy != null;
  return {
    title, key: special.key, colour: special.colour, taken,
    label: special.key === 'special' ? special.letter : `+${special.letter}`,
    active: taking && !taken,
  };
}

// ---- The list of portions under the ring ----

export function portionsHtml(ctx, draft) {
  const drafting = dividing(ctx) && draft;
  const portions = drafting ? draftPortions(ctx, draft) : ctx.portions;
  if (!portions.length) return '';
  const taking = ctx.myTurn && ctx.phase === 'take';
  const recent = recentOnPizza(ctx);
  const items = [...portions].sort((a, b) => a.letter.localeCompare(b.letter)).map((p) => {
    const taken = p.takenBy != null;
    const classes = ['portion'];
    if (taken) classes.push('taken');
    if ((taking && !taken) || (drafting && p.key !== 'special')) classes.push('active');
    if (drafting && p.special) classes.push('selected');
    const what = p.key === 'special' ? '<span class="muted">the Special alone</span>' : chips(p.slices, ctx.typeNames);
    const extra = p.special && p.key !== 'special' ? ' <span class="star" title="with the Special">+★</span>' : '';
    const just = !drafting && recent.portions.has(p.key);
    if (just) classes.push('recent');
    const by = taken ? ` <span class="taken-by">${just ? 'just ' : ''}taken by ${esc(who(ctx, p.takenBy))}</span>` : '';
    const focus = classes.includes('active') ? ' tabindex="0" role="button"' : '';
    return `<li class="${classes.join(' ')}" data-name="${esc(p.key)}"${focus}>` +
      `<span class="swatch ${taken ? 'grey' : p.colour}">${p.letter}</span> ${what}${extra}${by}</li>`;
  });
  return `<ul class="portion-list">${items.join('')}</ul>`;
}

// ---- Divide tools ----

export function divideInfoHtml(ctx, draft) {
  const n = ctx.n, k = draft.cuts.size;
  const alone = draft.special === 'alone';
  const ring = k === 0 ? 1 : k;
  // A portion is named by its lowest position, as the notation and the log name it.
  const run = typeof draft.special === 'number'
    ? previewPortions(presentPositions(ctx), draft.cuts).find((r) => r.includes(draft.special)) : null;
  const holding = run ? Math.min(...run) : draft.special;
  const where = draft.special == null ? 'Click a slice to put the Special with its portion, or the middle for the Special alone.'
    : alone ? 'The Special is a portion of its own.' : `The Special goes with the portion holding ${holding}.`;
  const need = draft.special == null
    ? `${n} portions: ${cutsNeeded(n, false)} cuts with the Special on slices, ${cutsNeeded(n, true)} with it alone.`
    : `${k} cut${k === 1 ? '' : 's'} made, ${cutsNeeded(n, alone)} needed (${ring + (alone ? 1 : 0)} of ${n} portions).`;
  return `<p>${esc(need)}</p><p>${esc(where)}</p>`;
}

// ---- The Special of the round ----

export function specialHtml(ctx) {
  const t = ctx.v.today;
  if (!t) return `<h2>Special</h2><p class="muted">${ctx.phase === 'over' ? 'The game is over.' : 'No Special on the table.'}</p>`;
  let where = 'Not placed yet: the Slicer decides.';
  const p = ctx.portions.find((x) => x.special);
  if (p && p.key === 'special') where = `On its own: portion ${p.letter}.`;
  else if (p) where = `Goes with portion ${p.letter}.`;
  if (t.taken_by != null) where += ` Taken by ${esc(who(ctx, t.taken_by))}.`;
  // NYS-S4: a Special revealed and sent back to the box is shown to everyone.
  const replaced = (t.replaced || []).map((r) =>
    `<p class="replaced"><span class="special-ref" data-slug="${esc(r.slug)}"${specialTipAttrs(r)}>${esc(r.name)}</span> was revealed first and went back to the box (${esc(r.why)}); ${esc(t.name)} replaces it.</p>`).join('');
  return `<h2>Special: <span id="special-name" class="special-ref" data-slug="${esc(t.slug)}"${specialTipAttrs(t)}>${esc(t.name)}</span>` +
    `${t.scored ? ' <span class="muted" title="scored at the end">*</span>' : ''}</h2>` +
    `<p>${esc(t.text)}</p><p class="where">${where}</p>${replaced}`;
}

// ---- Placing what was taken ----

const WHY = { take: 'places', dibs: 'places (Dibs!)', seconds: 'eats Seconds' };

export function placingMine(ctx) {
  const pl = ctx.v.placing;
  return Boolean(pl && ctx.myTurn && ctx.phase === 'place' && pl.seat === ctx.seat);
}

// eat: the set of indices chosen to eat.
export function placingHtml(ctx, eat) {
  const pl = ctx.v.placing;
  if (!pl) return '';
  const mine = placingMine(ctx);
  const items = (pl.slices || []).map((tok, i) => {
    const edible = pl.edible && pl.edible[i] === true;
    const eaten = mine && eat.has(i);
    const state = eaten ? 'eat' : 'collect';
    const choice = !mine ? (edible ? 'may be eaten' : '') : eaten ? 'eat' : edible ? 'collect' : 'collect (not edible)';
    const label = i === pl.mystery ? `Mystery${choice ? `: ${choice}` : ''}` : choice;
    return `<button type="button" class="place-slice ${state}${edible ? ' edible' : ''}${i === pl.mystery ? ' mystery' : ''}" data-index="${i}"` +
      ` data-token="${esc(tok)}" data-choice="${state}" aria-pressed="${eaten}"${mine && edible ? '' : ' disabled'}>` +
      `${chip(tok, ctx.typeNames)}<span class="choice">${label}</span></button>`;
  });
  let out = `<h2>${esc(who(ctx, pl.seat))} ${WHY[pl.why] || 'places'}</h2><div class="place-list">${items.join('')}</div>`;
  if (pl.offered) out += `<p class="offered">Offered: ${chip(pl.offered, ctx.typeNames)} — eat it or keep it collected?</p>`;
  if (mine) out += `<button type="button" id="confirm-place">${esc(placeButtonText(pl, eat))}</button>`;
  return out;
}

// "eat 9p2 7p1" for the chosen slices, or "collect all".
export function placeNotation(ctx, eat) {
  const pl = ctx.v.placing;
  // The Mystery slice by its own name: its token would name a visible twin.
  const toks = [...eat].sort((a, b) => a - b).filter((i) => pl.edible[i] === true)
    .map((i) => (i === pl.mystery ? 'mystery' : pl.slices[i]));
  return toks.length ? `eat ${toks.join(' ')}` : 'collect all';
}

function placeButtonText(pl, eat) {
  const k = [...eat].filter((i) => pl.edible[i] === true).length;
  if (!k) return 'Collect all';
  const rest = pl.slices.length - k;
  return `Eat ${k}${rest ? `, collect ${rest}` : ''}`;
}

// ---- The moves on offer ----

// The legal moves of the view, or for a few phases the ones the notation implies.
export function offeredMoves(ctx) {
  if (!ctx.myTurn || ctx.phase === 'divide' || ctx.phase === 'over') return [];
  if (Array.isArray(ctx.v.legal)) {
    // Placing has its own panel (a toggle for each slice, then one button):
    // a list of every combination beside it would say the same twice.
    if (ctx.phase === 'place' && ctx.v.placing && placingMine(ctx)) return [];
    // Portions in letter order, as the pizza shows them.
    if (ctx.phase === 'take') return [...ctx.v.legal].sort((a, b) => takeLetter(ctx, a).localeCompare(takeLetter(ctx, b)));
    return ctx.v.legal;
  }
  switch (ctx.phase) {
    case 'eat-or-keep': return ['eat', 'keep'];
    case 'cut-in-line': return ['cut-in-line', 'pass'];
    case 'dibs': return ['pass', ...presentPositions(ctx).map((p) => `dibs ${p}`)];
    case 'take': return ctx.portions.filter((p) => p.takenBy == null).map((p) => `take ${p.key}`);
    case 'place': return ctx.v.placing && placingMine(ctx) ? [] : ['collect all'];
    default: return [];
  }
}

function takeLetter(ctx, move) {
  return String(portionLetter(ctx, move.split(/\s+/)[1]));
}

const PASS_LABEL = {
  dibs: 'No Dibs! now', 'cut-in-line': 'Wait your turn', sneak: 'No sneaking', seconds: 'No Seconds',
};

function portionLetter(ctx, pos) {
  if (pos === 'special') return (ctx.byKey.get('special') || {}).letter || '?';
  const p = ctx.portions.find((x) => x.positions.includes(Number(pos)));
  return p ? p.letter : pos;
}

function slotToken(ctx, pos) {
  const s = (ctx.v.ring || [])[Number(pos) - 1];
  return s && s.slice ? chip(s.slice, ctx.typeNames) : '';
}

// A slice named in a placing move; `mystery` (the Mystery slice, named apart
// from an identical slice of the portion) as its owner sees it.
function placedChip(ctx, tok) {
  const pl = ctx.v.placing;
  if (tok !== 'mystery') return chip(tok, ctx.typeNames);
  const seen = pl && pl.mystery != null ? pl.slices[pl.mystery] : null;
  return seen && seen !== '?' ? `${chip(seen, ctx.typeNames)} (Mystery)` : chip(tok, ctx.typeNames);
}

// A move in words for its button.
export function moveLabel(ctx, text) {
  const w = text.split(/\s+/);
  const type = (k) => esc(ctx.typeNames[k] ? `${k} ${ctx.typeNames[k]}` : k);
  switch (w[0]) {
    case 'pass': return PASS_LABEL[ctx.phase] || 'Pass';
    case 'dibs': return `Dibs! on ${esc(w[1])} ${slotToken(ctx, w[1])}`;
    case 'cut-in-line': return 'Cut in Line: choose first';
    case 'sneak': return `Move ${esc(w[1])} ${slotToken(ctx, w[1])} into portion ${esc(portionLetter(ctx, w[3]))}`;
    case 'take': return w[1] === 'special' ? `Take portion ${esc(portionLetter(ctx, 'special'))} (the Special alone)`
      : `Take portion ${esc(portionLetter(ctx, w[1]))}`;
    case 'collect': return 'Collect all';
    case 'eat':
      if (ctx.phase === 'place') return `Eat ${w.slice(1).map((t) => placedChip(ctx, t)).join(' ')}, collect the rest`;
      return `Eat ${w[1] ? chip(w[1], ctx.typeNames) : 'it'}`;
    case 'keep': return `Keep ${w[1] ? chip(w[1], ctx.typeNames) : 'it'}`;
    case 'attach': return `Attach the Supreme to ${type(w[1])}`;
    case 'seconds': return `Seconds on ${type(w[1])}`;
    default: return esc(text);
  }
}

export function actionsHtml(ctx, moves) {
  const buttons = moves.map((m) =>
    `<button type="button" data-action="${esc(m)}"${m === 'pass' ? ' class="secondary"' : ''}>${moveLabel(ctx, m)}</button>`);
  return `<h2>Your move</h2><div class="action-list">${buttons.join('')}</div>`;
}

// ---- Status line ----

const WAITING = {
  dibs: 'decide on Dibs!', divide: 'divide the pizza', 'cut-in-line': 'decide on Cut in Line',
  sneak: 'decide on Sneak-a-Slice', take: 'take a portion', place: 'place their slices',
  'eat-or-keep': 'eat or keep a slice', attach: 'attach the Supreme', seconds: 'decide on Seconds',
};

function myPrompt(ctx) {
  const n = ctx.n;
  switch (ctx.phase) {
    case 'dibs': return 'Dibs!: take one slice out of the pizza now and place it, or pass.';
    case 'divide': return `You are the Slicer. Click the gaps between slices to cut, click a slice to put the ` +
      `Special with its portion (or the middle for the Special alone), then Divide. ${n} portions: ` +
      `${cutsNeeded(n, false)} cuts with the Special on slices, ${cutsNeeded(n, true) || 'no'} cut${cutsNeeded(n, true) === 1 ? '' : 's'} with it alone.`;
    case 'cut-in-line': return 'Cut in Line: choose your portion first now, or pass.';
    case 'sneak': return 'Sneak-a-Slice: move an end slice into the neighbouring portion, or pass.';
    case 'take': return 'Your turn: take a portion (click it on the pizza or in the list).';
    case 'place': return 'Choose the slices to eat (only the edible ones can be); the others are collected.';
    case 'eat-or-keep': return 'Eat the slice offered, or keep it collected?';
    case 'attach': return 'Attach your Supreme to a type you have collected.';
    case 'seconds': return 'Seconds: choose a type to eat collected slices of, or pass.';
    default: return 'Your move.';
  }
}

export function statusHtml(ctx) {
  const v = ctx.v;
  const bits = [`Round ${Math.min(v.round, v.rounds)} of ${v.rounds}`];
  if (v.slicer != null && ctx.phase !== 'over') bits.push(`Slicer: ${esc(who(ctx, v.slicer))}`);
  if (ctx.phase !== 'over') bits.push(`${v.stacks_left} stack${v.stacks_left === 1 ? '' : 's'} left`);
  if (ctx.seat == null && !ctx.msg.replaying) bits.push('<span class="watching">watching</span>');
  let prompt;
  if (ctx.phase === 'over') prompt = `<b>Game over.</b> ${esc(resultText(ctx))}`;
  else if (ctx.myTurn) prompt = `<b class="your-turn">${esc(myPrompt(ctx))}</b>`;
  else if (v.to_move != null) prompt = `Waiting for ${esc(who(ctx, v.to_move))} to ${WAITING[ctx.phase] || 'move'}.`;
  else prompt = 'Waiting.';
  const order = (v.order || []).length
    ? `<div class="order">Choosing order: ${v.order.map((s) => esc(who(ctx, s))).join(' → ')}</div>` : '';
  return { headline: bits.join(' · '), prompt: prompt + order };
}

// ---- The players ----

function typeGrid(ctx, tally, marks) {
  let head = '', body = '';
  // NYS-S1: no column for a type removed at this player count.
  const inPlay = ctx.v.types_in_play;
  for (let k = MIN_TYPE; k <= MAX_TYPE; k++) {
    if (Array.isArray(inPlay) && !inPlay.includes(k)) continue;
    const name = ctx.typeNames[k] || '';
    const mark = marks[k] === '*' ? '<sup title="leads this type">★</sup>' : marks[k] === '=' ? '<sup title="tied for the lead">=</sup>' : '';
    head += `<th title="${esc(`${k} ${name}`)}">${k}</th>`;
    body += `<td class="${tally.count2[k] ? 'has' : ''}${marks[k] === '*' ? ' lead' : ''}">${halfText(tally.count2[k])}${mark}</td>`;
  }
  return `<table class="types"><tr>${head}</tr><tr>${body}</tr></table>`;
}

function specialsLine(pl) {
  if (!(pl.specials || []).length) return '';
  const tags = pl.specials.map((s) => `<span class="special-tag${s.used ? ' used' : ''}" data-slug="${esc(s.slug)}"` +
    `${specialTipAttrs(s)} aria-label="${esc(`${specialName(s.slug)}, taken in round ${s.round}${s.used ? ', used' : ''}`)}">` +
    `${esc(specialName(s.slug))}${s.used ? ' (used)' : ''}</span>`);
  return `<div class="line"><span class="label">Specials</span> ${tags.join(' ')}</div>`;
}

function kindLabel(kind) {
  return kind && kind !== 'human' ? `<span class="kind">bot: ${esc(kind)}</span>` : '';
}

function playerCard(ctx, pl, i, tally, marks, canBot) {
  const v = ctx.v;
  const me = i === ctx.seat;
  const classes = ['player'];
  if (me) classes.push('me');
  if (v.to_move === i) classes.push('to-move');
  const badges = [];
  if (v.slicer === i && ctx.phase !== 'over') badges.push('<span class="badge">Slicer</span>');
  if (v.to_move === i) badges.push('<span class="badge turn">to move</span>');
  const waiting = pl.supreme_waiting ? '<div class="line muted">The Supreme waits for a type to join.</div>'
    : pl.supreme_on_anchovy ? '<div class="line muted">The Supreme is next to the Anchovy slice: it counts for no type.</div>' : '';
  const mystery = me && v.mystery ? `<div class="line"><span class="label">Your Mystery slice</span> ${chip(v.mystery, ctx.typeNames)}</div>` : '';
  const toBot = canBot && !me && (ctx.kinds[i] || 'human') === 'human' &&
      (ctx.msg.botable || [])[i] === true // its player gone long enough (the server says)
    ? `<button type="button" class="hand-to-bot small secondary" data-seat="${i}" title="only when this player has gone">hand to a bot</button>` : '';
  return `<div class="${classes.join(' ')}" data-seat="${i}">` +
    `<div class="who"><b class="name">${esc(who(ctx, i))}</b>${me ? ' <span class="you">(you)</span>' : ''} ` +
    `${kindLabel(ctx.kinds[i])} ${badges.join(' ')}</div>` +
    typeGrid(ctx, tally, marks) +
    `<div class="line"><span class="label">Kept</span> ${chips(pl.collected, ctx.typeNames) || '–'}</div>` +
    `<div class="line"><span class="label">Ate <span class="eaten-count">${pl.eaten_count}</span></span> ` +
    `${chips(pl.eaten, ctx.typeNames) || '–'}</div>` +
    (tally.anch ? `<div class="line"><span class="label">Anchovies kept</span> ${tally.anch}</div>` : '') +
    specialsLine(pl) + waiting + mystery + toBot + '</div>';
}

export function playersHtml(ctx) {
  const players = ctx.v.players || [];
  const { tallies, marks } = leadMarks(players);
  const canBot = ctx.seat != null && ctx.phase !== 'over';
  // What the marks mean, once under the cards (a first game's question).
  const key = '<p class="players-key muted">Under each type: the slices of it collected (a Combo counts ½ of each of ' +
    'its types). <b>★</b> most of that type: it scores the type\'s number at the end if it stays so; <b>=</b> tied ' +
    'for the most: nobody scores it. S→6: the Supreme, counted as a slice of type 6.</p>';
  return players.map((pl, i) => playerCard(ctx, pl, i, tallies[i], marks[i], canBot)).join('') + key;
}

// ---- The log ----

export function logHtml(ctx) {
  const log = ctx.msg.log || [];
  const first = Math.max(0, (ctx.msg.moves || log.length) - log.length);
  // An entry without a seat is the table's own news: shown as written.
  const words = (e) => (Number.isInteger(e.seat) && e.seat >= 0 ? actionWords(e.text, who(ctx, e.seat), ctx.typeNames) : esc(e.text));
  // What everyone learned beyond the move is told under it by log.js, with newsHtml.
  return log.map((e, i) => `<li value="${first + i + 1}" data-seat="${esc(e.seat)}">${words(e)}</li>`).join('');
}

// The news as written, each Special it names with its text as a tooltip.
const SPECIAL_BY_NAME = new Map(Object.entries(SPECIALS).map(([slug, name]) => [name.replace(/\*$/, ''), slug]));
const SPECIAL_NAMES = new RegExp([...SPECIAL_BY_NAME.keys()].sort((a, b) => b.length - a.length)
  .map((n) => esc(n).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');

// The slices a sentence lists in notation ("…may be eaten: 3 11 c4/11 collected.",
// "9p3 collected: it may not be eaten."), drawn as the chips the table shows.
const SLICE_LISTS = [/(may be eaten[:,] )([^.:<]+?)( collected)/g, /(^|\. )([^.:<]+?)( collected: it may not be eaten)/g];

export function newsHtml(ctx, text) {
  const html = esc(text).replace(SPECIAL_NAMES, (name) => {
    const slug = SPECIAL_BY_NAME.get(name.replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
    return `<span class="special-ref" data-slug="${esc(slug)}"${specialTipAttrs({ slug }, false)}>${name}</span>`;
  });
  return SLICE_LISTS.reduce((h, re) => h.replace(re, (_, before, toks, after) =>
    `${before}${chips(toks.split(' '), ctx.typeNames)}${after}`), html);
}

// ---- Replaying a finished table ----

// The final message with the public view after `step` moves in place of the last one.
export function replayMsg(msg, replay) {
  const log = msg.log || [];
  const first = (msg.moves || log.length) - log.length;
  return {
    ...msg, seat: null, view: replay.view, moves: replay.step, replaying: true,
    log: log.filter((_, i) => first + i < replay.step),
    score: replay.step === msg.moves ? msg.score : null,
  };
}

export function replayHtml(total, step) {
  const at = step == null ? total : step;
  return '<h2>Replay</h2><div class="row replay-row">' +
    '<button type="button" class="small secondary" data-step="0" title="the start" aria-label="Replay: the start">|◀</button>' +
    `<button type="button" class="small secondary" data-step="${Math.max(0, at - 1)}" title="one move back" aria-label="Replay: one move back">◀</button>` +
    `<input type="range" id="replay-step" min="0" max="${total}" value="${at}" aria-label="move">` +
    `<button type="button" class="small secondary" data-step="${Math.min(total, at + 1)}" title="one move on" aria-label="Replay: one move on">▶</button>` +
    `<button type="button" class="small secondary" data-step="${total}" title="the end" aria-label="Replay: the end">▶|</button></div>` +
    `<p id="replay-label" class="muted">${step == null ? 'The final position.' : `After move ${step} of ${total}.`}</p>`;
}

// ---- The end ----

// The Guest Check as the score pad lays it out: a column per player, a row
// per pizza type (the slices collected, and the type's points for the one
// who scored it), then the Types, Special* and Pepperoni lines, the total
// and the slices eaten that break a tie. The score report (games/nyslice/
// score.c) gives the lines; the counts per type come from the collections.
function guestCheck(ctx, score) {
  const lines = score.players || [];
  const players = ctx.v.players || [];
  const { tallies } = leadMarks(players);
  const winners = score.winners || [];
  const cols = lines.map((_, i) => i);
  const cell = (i, body, cls = '') => `<td data-seat="${i}"${cls ? ` class="${cls}"` : ''}>${body}</td>`;
  const row = (key, head, cells, cls = '') =>
    `<tr data-line="${key}"${cls ? ` class="${cls}"` : ''}><th scope="row">${head}</th>${cells.join('')}</tr>`;
  const head = cols.map((i) => {
    const won = winners.includes(i);
    return `<th scope="col" data-seat="${i}"${won ? ' class="winner"' : ''}>${esc(who(ctx, i))}${won ? ' ★' : ''}</th>`;
  });
  const rows = [];
  const inPlay = ctx.v.types_in_play;
  for (let k = MIN_TYPE; k <= MAX_TYPE; k++) {
    if (Array.isArray(inPlay) && !inPlay.includes(k)) continue;
    const name = ctx.typeNames[k] ? ` ${esc(ctx.typeNames[k])}` : '';
    rows.push(row(`type-${k}`, `<span class="gc-type">${k}</span>${name}`, cols.map((i) => {
      const won = (lines[i].types_won || []).includes(k);
      const count = tallies[i] ? tallies[i].count2[k] : 0;
      return cell(i, `${halfText(count)}${won ? ` <b class="gc-points">+${k}</b>` : ''}`, won ? 'won' : '');
    }), 'gc-type-row'));
  }
  rows.push(row('majorities', 'Types', cols.map((i) => cell(i, `<b>${esc(lines[i].majorities)}</b>`)), 'gc-line'));
  rows.push(row('specials', 'Special*', cols.map((i) => {
    const held = ((players[i] || {}).specials || []).map((sp) =>
      `<span class="special-tag${sp.used ? ' used' : ''}" data-slug="${esc(sp.slug)}"${specialTipAttrs(sp)}>${esc(specialName(sp.slug))}</span>`);
    return cell(i, `<b>${esc(lines[i].specials)}</b>${held.length ? `<div class="gc-specials">${held.join(' ')}</div>` : ''}`);
  }), 'gc-line'));
  // NYS-E5: the You Like Anchovies! holder's line reads Pepperoni + Anchovies.
  rows.push(row('pepperoni', 'Pepperoni − Anchovies', cols.map((i) => {
    const plus = lines[i].pepperoni_line === 'Pepperoni + Anchovies';
    return cell(i, `<b>${esc(lines[i].pepperoni)}</b>${plus ? ' <span class="muted">(+ Anchovies)</span>' : ''}`);
  }), 'gc-line'));
  rows.push(row('total', 'Total', cols.map((i) => cell(i, `<b class="gc-total">${esc(lines[i].total)}</b>`)), 'gc-total-row'));
  rows.push(row('eaten', 'Slices eaten <span class="muted">(breaks a tie)</span>', cols.map((i) => cell(i, esc(lines[i].eaten)))));
  return '<p class="muted gc-help">Each type scores its number for the player with the most collected slices of it ' +
    '(a Combo counts half of each of its types); Special* adds the blue Specials; each pepperoni eaten is +1 and each ' +
    'anchovy collected −1.</p>' +
    `<div class="gc-wrap"><table class="score guest-check"><tr><th scope="col">Guest Check</th>${head.join('')}</tr>${rows.join('')}</table></div>`;
}

// Who won, in words ('' before the Guest Check is known).
export function resultText(ctx) {
  const score = ctx.msg.score || ctx.v.score;
  const winners = (score && score.winners || []).map((s) => who(ctx, s));
  if (!winners.length) return '';
  return winners.length > 1 ? `Shared win: ${winners.join(' and ')}.` : `${winners[0]} wins.`;
}

export function gameOverHtml(ctx) {
  const score = ctx.msg.score || ctx.v.score;
  let out = '<h2>Game over</h2>';
  if (score && Array.isArray(score.players)) {
    const winners = (score.winners || []).map((s) => esc(who(ctx, s)));
    if (winners.length) out += `<p class="winners">${winners.length > 1 ? 'Shared win' : 'Winner'}: ${winners.join(' and ')}</p>`;
    out += guestCheck(ctx, score);
  } else {
    out += '<p>The final collections are below.</p>';
  }
  return `${out}<p><a href="#/" class="button secondary">Back to the lobby</a></p>`;
}
