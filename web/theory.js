// theory.js -- Pizza Theory at a table: a `view` message whose game view is
// Pizza Theory's (docs/theory-view.md, built by games/theory/view.c) turned
// into markup. The hexagonal board is SVG placed from the spaces' cube
// coordinates; legal spaces and the cut lines of the side you face carry a
// `data-action` (the move's notation), which app.js sends when clicked.
// Nothing here talks to the server.
import { esc, recentMoves } from './tokens.js';

// ---- Names ----

export const COLOUR_NAMES = ['Red', 'Green', 'White'];   // colour c is seat c's toppings
const SIDE_NAMES = ['1st', '2nd', '3rd'];
export const REVEAL_MS = 1200;                          // the replacements' animation (style.css agrees)

// Who a colour belongs to: the seat's name, or "neutral" (colour 2 in a 2-player game).
export function owner(ctx, c) {
  if (c == null || c < 0) return '?';
  if (ctx.v.neutral === c) return 'neutral';
  return ctx.names[c] || `Seat ${c + 1}`;
}

function ownerHtml(ctx, c) {
  const you = c === ctx.seat ? ' <span class="you">(you)</span>' : '';
  return `<span class="pt-owner t-col-${c}">${esc(owner(ctx, c))}</span>${you}`;
}

function colourHtml(c) {
  return `<span class="pt-swatch col-${c}" aria-hidden="true"></span>${esc(COLOUR_NAMES[c] || '?')}`;
}

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

// The side a colour faces this round, or -1.
function sideOf(v, c) {
  return (v.sides || []).findIndex((s) => s.colour === c);
}

// ---- Geometry ----
//
// Pointy hexagons; the 1st side's edge (x = -3) at the bottom, the 2nd and 3rd
// clockwise from it. Works for fractional coordinates too (the cut lines).

const S = 20;                   // a space's radius, in SVG units
const SQ3 = Math.sqrt(3);
const LINE_REACH = 3.62;        // how far (in cube units) the cut lines run
const LABEL_REACH = 4.65;       // where the side labels sit

function point(cube) {
  const [x, y] = cube;
  return [S * SQ3 * (y + x / 2), -1.5 * S * x];
}

const f1 = (n) => (Math.round(n * 10) / 10).toString();

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    pts.push(`${f1(cx + r * Math.cos(a))},${f1(cy + r * Math.sin(a))}`);
  }
  return pts.join(' ');
}

// Line k of a side with axis a: between the rows a = value and a = value + 1.
// Returns both ends on the screen, the "hi" end last (where the number goes).
function lineEnds(axis, value) {
  const c = value + 0.5;
  const b = (axis + 1) % 3, e = (axis + 2) % 3;
  const lo = Math.max(-LINE_REACH, -c - LINE_REACH), hi = Math.min(LINE_REACH, -c + LINE_REACH);
  const end = (t) => {
    const cube = [0, 0, 0];
    cube[axis] = c; cube[b] = t; cube[e] = -c - t;
    return point(cube);
  };
  return [end(lo), end(hi)];
}

const AXIS = { x: 0, y: 1, z: 2 };

function sideAxis(side, d) {
  return side && side.axis in AXIS ? AXIS[side.axis] : d;
}

// Where a side's label goes (the middle of its edge, outside) and its angle, kept readable.
function sideLabelPlace(axis) {
  const cube = [LABEL_REACH / 2, LABEL_REACH / 2, LABEL_REACH / 2];
  cube[axis] = -LABEL_REACH;
  const [x, y] = point(cube);
  const [a, b] = lineEnds(axis, 0);
  let angle = (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
  if (angle > 90) angle -= 180;
  if (angle <= -90) angle += 180;
  return { x, y, angle };
}

// ---- The context ----

function cellKey(cube) {
  return cube.join(',');
}

// A space's label as the log and the terminal print it ("d4"), from the view.
function labelOf(v, i) {
  return (v.labels || [])[i] || cellKey((v.cells || [])[i] || []);
}

// The space a move puts a topping on ("put d4"), as its key "x,y,z".
function moveCell(v, move) {
  const m = /^put\s+(\S+)$/.exec(move);
  const i = m ? (v.labels || []).indexOf(m[1]) : -1;
  return i >= 0 && v.cells[i] ? cellKey(v.cells[i]) : null;
}

// The legal spaces for this seat now (keys "x,y,z" -> the move), when placing.
function legalSpaces(ctx) {
  const out = new Map();
  if (!ctx.myTurn || (ctx.phase !== 'place' && ctx.phase !== 'neutral')) return out;
  for (const m of ctx.v.legal || []) {
    const k = moveCell(ctx.v, m);
    if (k) out.set(k, m);
  }
  return out;
}

// The legal cut lines (numbers) for this seat now ("cut 4").
export function legalLines(ctx) {
  if (!ctx.myTurn || ctx.phase !== 'cut') return [];
  return (ctx.v.legal || []).map((m) => /^cut ([1-6])$/.exec(m)).filter(Boolean).map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

// ---- What the others just did ----

// Since this seat's last move: the spaces others put a topping on (label ->
// seat and whether it was the neutral), and whether a cut was revealed.
export function recentOnBoard(ctx) {
  const puts = new Map();
  let cut = false;
  for (const e of recentMoves(ctx)) {
    const m = /^put\s+(\S+)(\s+\(neutral\))?$/.exec(String(e.text || ''));
    if (m) puts.set(m[1], { seat: e.seat, neutral: Boolean(m[2]) });
    else if (/^(?:cut\s+)?([1-6?])$/.test(String(e.text || '').replace(/^cut\s+/, ''))) cut = true;
  }
  return { puts, cut };
}

// ---- The reveal's animation ----
//
// A reveal seen arrive (view.last with a new round) animates its replacements
// for REVEAL_MS; the first view of a table only records it. The board is
// redrawn on every view, so the animation is resumed where it was (app.js
// calls startAnimations after drawing).

const reveals = new Map();   // table code (or code:replay) -> {round, at}

function revealElapsed(ctx, now) {
  const key = ctx.msg.replaying ? `${ctx.code}:replay` : ctx.code;
  const round = ctx.v.last ? ctx.v.last.round : 0;
  const seen = reveals.get(key);
  if (!seen) {
    reveals.set(key, { round, at: -Infinity });
    return null;
  }
  if (seen.round !== round) {
    seen.round = round;
    seen.at = round ? now : -Infinity;
  }
  const elapsed = now - seen.at;
  return elapsed >= 0 && elapsed < REVEAL_MS ? elapsed : null;
}

// Resume the running animations of a freshly drawn board where they were.
export function startAnimations(root) {
  const svg = root && root.querySelector('#theory-svg');
  if (!svg || svg.dataset.elapsed == null) return;
  const delay = `${-Number(svg.dataset.elapsed)}ms`;
  for (const el of svg.querySelectorAll('.swap')) el.style.animationDelay = delay;
}

// Light up one of your lines on the board while its button is pointed at (k null: none).
export function highlightLine(k) {
  for (const el of document.querySelectorAll('#theory-svg .cut-line.hover')) el.classList.remove('hover');
  if (k == null) return;
  const el = document.querySelector(`#theory-svg .cut-line.mine[data-line="${Number(k)}"]`);
  if (el) el.classList.add('hover');
}

// ---- The board ----

const ui = { showLast: true };

export function toggleLast() {
  ui.showLast = !ui.showLast;
}

// ui: {busy}; now: a clock in ms.
export function boardHtml(ctx, { busy = false, now = performance.now() } = {}) {
  const v = ctx.v;
  const cells = v.cells || [];
  const board = v.board || [];
  const sides = v.sides || [];
  const last = v.last || null;
  const showLast = Boolean(last && ui.showLast);
  const elapsed = revealElapsed(ctx, now);
  const animating = elapsed != null && last;
  const legal = legalSpaces(ctx);
  const lines = legalLines(ctx);
  const mySide = ctx.seat == null ? -1 : sideOf(v, ctx.seat);
  const changed = new Map((last ? last.changed || [] : []).map((ch) => [ch.cell, ch]));
  const recent = recentOnBoard(ctx);

  let cellsSvg = '';
  cells.forEach((cube, i) => {
    const [cx, cy] = point(cube);
    const c = board[i] ?? -1;
    const key = cellKey(cube);
    const move = legal.get(key);
    const ch = showLast || animating ? changed.get(i) : null;
    const classes = ['cell'];
    if (move) classes.push('legal');
    if (showLast) classes.push(`region-${last.regions[i]}`);
    if (ch) classes.push('changed', ch.to == null ? 'removed' : 'replaced');
    const put = recent.puts.get(labelOf(v, i));
    if (put) classes.push('recent');
    const what = c >= 0 ? `${COLOUR_NAMES[c]} (${owner(ctx, c)})` : 'empty';
    const change = ch ? `; round ${last.round}: ${COLOUR_NAMES[ch.from]} ${ch.to == null ? 'removed' : `replaced by ${COLOUR_NAMES[ch.to]}`}` : '';
    const name = labelOf(v, i);
    const just = put ? `; just placed by ${owner(ctx, put.seat)}${put.neutral ? ' (the neutral topping)' : ''}` : '';
    const label = `${name}: ${what}${change}${just}${move ? ' — click to put your topping here' : ''}`;
    const act = move ? ` data-action="${esc(move)}" tabindex="0" role="button" aria-label="${esc(label)}"` : '';
    const was = ch ? ` data-from="${ch.from}" data-to="${ch.to ?? -1}"` : '';
    let g = `<g class="${classes.join(' ')}" data-cell="${i}" data-xyz="${esc(key)}" data-colour="${c}"${was}${act}>` +
      `<title>${esc(label)}</title><polygon class="hex" points="${hexPoints(cx, cy, S * 0.95)}"/>`;
    // The dot and the label stay near the centre: cut lines run 15 units from it (between rows).
    if (move) g += `<circle class="legal-dot" cx="${f1(cx)}" cy="${f1(cy - 5)}" r="2.6"/>`;
    // The label the log names the space by, small, on an empty space.
    if (c < 0) g += `<text class="cell-label" x="${f1(cx)}" y="${f1(cy + 7)}" font-size="7" text-anchor="middle" fill-opacity="0.55">${esc(name)}</text>`;
    // A topping: a disc with its colour's initial. During a reveal's animation
    // the old one (from `before`) fades out over the new one growing in.
    const topping = (col, extra) => `<g class="topping${extra}" data-colour="${col}">` +
      `<circle class="disc col-${col}" cx="${f1(cx)}" cy="${f1(cy)}" r="${S * 0.58}"/>` +
      `<text class="disc-letter t-on-${col}" x="${f1(cx)}" y="${f1(cy + 4)}">${COLOUR_NAMES[col][0]}</text></g>`;
    if (c >= 0) g += topping(c, ch && animating ? ' swap swap-in' : '');
    if (ch && animating) g += topping(ch.from, ' swap swap-out');
    if (ch) g += `<circle class="change-ring" cx="${f1(cx)}" cy="${f1(cy)}" r="${S * 0.8}"/>`;
    if (put) g += `<polygon class="recent-mark" points="${hexPoints(cx, cy, S * 0.86)}"/>`;
    cellsSvg += `${g}</g>`;
  });

  // Every side's six lines, dashed, in the colour facing it; yours clickable when you cut.
  let linesSvg = '';
  sides.forEach((side, d) => {
    const axis = sideAxis(side, d);
    (side.lines || []).forEach((value, idx) => {
      const k = idx + 1;
      const [a, b] = lineEnds(axis, value);
      const classes = ['cut-line', `side-${d}`, `line-col-${side.colour}`];
      if (d === mySide) classes.push('mine');
      const active = d === mySide && lines.includes(k);
      if (active) classes.push('active');
      if (side.cut === k) classes.push('chosen');
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const lx = b[0] + ((b[0] - a[0]) / len) * 9, ly = b[1] + ((b[1] - a[1]) / len) * 9;
      const title = `${SIDE_NAMES[d]} side, line ${k}${side.cut === k ? (side.colour === ctx.seat ? ' (your cut)' : ' (the die)') : ''}`;
      const act = active ? ` data-action="cut ${k}" tabindex="0" role="button" aria-label="${esc(`Cut line ${k}`)}"` : '';
      linesSvg += `<g class="${classes.join(' ')}" data-side="${d}" data-line="${k}"${act}><title>${esc(title)}</title>` +
        `<line class="hit" x1="${f1(a[0])}" y1="${f1(a[1])}" x2="${f1(b[0])}" y2="${f1(b[1])}"/>` +
        `<line class="stroke" x1="${f1(a[0])}" y1="${f1(a[1])}" x2="${f1(b[0])}" y2="${f1(b[1])}"/>` +
        `<text class="line-no" x="${f1(lx)}" y="${f1(ly + 3.5)}">${k}</text></g>`;
    });
  });

  // The last round's three cuts, revealed.
  let revealedSvg = '';
  if (showLast) {
    (last.cuts || []).forEach((k, d) => {
      const side = sides[d];
      if (!side || !k) return;
      const [a, b] = lineEnds(sideAxis(side, d), side.lines[k - 1]);
      revealedSvg += `<line class="revealed-cut line-col-${last.side_colours[d]}${recent.cut ? ' recent' : ''}" data-side="${d}" data-line="${k}"` +
        ` x1="${f1(a[0])}" y1="${f1(a[1])}" x2="${f1(b[0])}" y2="${f1(b[1])}"><title>${esc(`Round ${last.round}: ${SIDE_NAMES[d]} side cut line ${k}`)}</title></line>`;
    });
  }

  // The sides' labels: 1st/2nd/3rd and who faces each this round.
  let labelsSvg = '';
  sides.forEach((side, d) => {
    const { x, y, angle } = sideLabelPlace(sideAxis(side, d));
    let name = owner(ctx, side.colour);
    if (name.length > 12) name = `${name.slice(0, 11)}…`;
    const mark = side.chosen ? ' ✓' : side.cut != null && side.colour === ctx.v.neutral ? ` · die ${side.cut}` : '';
    labelsSvg += `<text class="side-label${d === mySide ? ' mine' : ''}" data-side="${d}" x="${f1(x)}" y="${f1(y + 4)}"` +
      ` transform="rotate(${f1(angle)} ${f1(x)} ${f1(y)})"><tspan class="side-no">${SIDE_NAMES[d]}</tspan> ` +
      `<tspan class="t-col-${side.colour}">${esc(name)}${d === mySide ? ' (you)' : ''}</tspan>${esc(mark)}</text>`;
  });

  const svgClasses = ['pt-svg'];
  if (busy) svgClasses.push('busy');
  if (lines.length) svgClasses.push('cutting');
  const attrs = [`id="theory-svg"`, `class="${svgClasses.join(' ')}"`, 'viewBox="-150 -134 300 282"', 'role="group"',
    `aria-label="${esc(`Pizza Theory board, round ${v.round}`)}"`];
  if (animating) attrs.push(`data-elapsed="${Math.round(elapsed)}"`);
  const svg = `<svg ${attrs.join(' ')}><g class="cells">${cellsSvg}</g><g class="lines">${linesSvg}</g>` +
    `<g class="revealed">${revealedSvg}</g><g class="labels">${labelsSvg}</g></svg>`;

  const toggle = last
    ? `<button type="button" id="theory-last" class="small secondary" aria-pressed="${ui.showLast}">` +
      `${ui.showLast ? 'Hide' : 'Show'} round ${last.round}'s cut</button>` : '';
  const legendBits = [];
  if (showLast) legendBits.push(`Shaded: the slices of round ${last.round}'s cut; ringed: the toppings it changed.`);
  if (legal.size) legendBits.push('A gold edge and dot: a space you may place on.');
  if (recent.puts.size) legendBits.push('A dashed dark ring: a topping just placed.');
  const legend = legendBits.length ? `<p class="muted pt-legend">${legendBits.join(' ')}</p>` : '';
  return `<div class="pt-head"><h2>${esc(v.board_name || 'Pizza Theory')}</h2>${toggle}</div>${svg}${legend}`;
}

// ---- Status ----

const WAITING = { place: 'add a topping', neutral: 'place the neutral topping', cut: 'choose a cut' };
const PHASE_WORDS = { place: 'adding toppings', neutral: 'the neutral topping', cut: 'cutting', over: 'over' };

function myPrompt(ctx) {
  const v = ctx.v;
  const d = sideOf(v, ctx.seat);
  switch (ctx.phase) {
    case 'place': return 'Your turn: put a topping on a highlighted space (not next to one of your own).';
    case 'neutral': {
      const n = sideOf(v, v.neutral);
      return `The die says ${v.die}: put the neutral topping on a highlighted space next to line ${v.die} of the ${SIDE_NAMES[n] || '?'} side.`;
    }
    case 'cut': return `Choose your cut, in secret: one of the six lines of the ${SIDE_NAMES[d] || '?'} side, which you face this round.`;
    default: return 'Your move.';
  }
}

export function resultText(ctx) {
  const r = ctx.v.result;
  if (!r) return '';
  if (r.end === 'neutral') return 'The neutral filled up: both lose.';
  if (r.end === 'draw') return `A draw: no winner after ${ctx.v.max_rounds || 200} rounds.`;
  const w = (r.winners || []).map((s) => `${owner(ctx, s)} (${COLOUR_NAMES[s]})`);
  if (!w.length) return 'No winner.';
  return w.length > 1 ? `Shared win: ${w.join(' and ')}.` : `${w[0]} wins.`;
}

export function statusHtml(ctx) {
  const v = ctx.v;
  const bits = ['Pizza Theory', `Round ${esc(v.round)}`];
  if (ctx.phase !== 'over') bits.push(esc(PHASE_WORDS[ctx.phase] || ctx.phase));
  if (ctx.seat == null && !ctx.msg.replaying) bits.push('<span class="watching">watching</span>');
  let prompt;
  if (ctx.phase === 'over') prompt = `<b>Game over.</b> ${esc(resultText(ctx))}`;
  else if (ctx.myTurn) prompt = `<b class="your-turn">${esc(myPrompt(ctx))}</b>`;
  else if (v.to_move != null) prompt = `Waiting for ${esc(owner(ctx, v.to_move))} to ${WAITING[ctx.phase] || 'move'}.`;
  else prompt = 'Waiting.';
  return { headline: bits.join(' · '), prompt };
}

// ---- The panel beside the board: the sides this round, the die, the last reveal ----

function sideStatus(ctx, side, d) {
  const v = ctx.v;
  const neutral = side.colour === v.neutral;
  if (ctx.phase === 'over') return '';
  if (neutral) return side.cut != null ? `cuts line ${side.cut} (the die)` : 'cuts by the die';
  if (ctx.phase === 'cut') {
    if (side.cut != null && side.colour === ctx.seat) return `your cut: line ${side.cut}`;
    if (side.chosen) return `${owner(ctx, side.colour)} has chosen`;
    return v.to_move === side.colour ? 'choosing…' : 'to choose';
  }
  if (v.first === side.colour && d >= 0) return v.to_move === side.colour ? 'adds first · to move' : 'adds first';
  return v.to_move === side.colour ? 'to move' : '';
}

// What changed, slice by slice (slices lettered in board order, with their shading).
function changesList(ctx, last) {
  const regions = last.regions || [];
  const letters = new Map();
  for (const r of regions) if (!letters.has(r)) letters.set(r, String.fromCharCode(65 + letters.size));
  const bySlice = new Map();   // region -> Map "from:to" -> count
  for (const ch of last.changed || []) {
    const r = regions[ch.cell];
    if (!bySlice.has(r)) bySlice.set(r, new Map());
    const k = `${ch.from}:${ch.to}`;
    bySlice.get(r).set(k, (bySlice.get(r).get(k) || 0) + 1);
  }
  if (!bySlice.size) return '<li class="pt-nochange">No topping changed.</li>';
  return [...bySlice].sort((a, b) => letters.get(a[0]).localeCompare(letters.get(b[0]))).map(([r, groups]) => {
    const what = [...groups].map(([k, n]) => {
      const [from, to] = k.split(':');
      const f = Number(from);
      if (to === 'null') return `${esc(COLOUR_NAMES[f])} (${esc(owner(ctx, f))}) lost ${plural(n, 'topping')}, removed`;
      const t = Number(to);
      return `${esc(COLOUR_NAMES[t])} took ${plural(n, 'space')} from ${esc(COLOUR_NAMES[f])} (${esc(owner(ctx, f))})`;
    });
    return `<li class="pt-change" data-region="${r}"><span class="pt-slice region-${r}" aria-hidden="true"></span>` +
      `Slice ${letters.get(r)}: ${what.join('; ')}</li>`;
  }).join('');
}

function revealHtml(ctx) {
  const last = ctx.v.last;
  if (!last) return '<div id="theory-reveal" class="pt-reveal"><p class="muted">No cut revealed yet.</p></div>';
  const cuts = (last.cuts || []).map((k, d) => {
    const c = last.side_colours[d];
    const die = c === ctx.v.neutral ? ', the die' : '';
    return `${SIDE_NAMES[d]} line <b>${esc(k)}</b> (${ownerHtml(ctx, c)}${die})`;
  });
  const slices = new Set(last.regions || []).size;
  const before = last.before || [];
  const safe = (last.safe || []).filter((c) => before.includes(c))
    .map((c) => `${colourHtml(c)} (${esc(owner(ctx, c))})`);
  const short = (last.short || []).map((n, c) => [n, c]).filter(([n]) => n > 0)
    .map(([n, c]) => `${colourHtml(c)} (${esc(owner(ctx, c))}) was ${plural(n, 'topping')} short`);
  return `<div id="theory-reveal" class="pt-reveal" data-round="${esc(last.round)}" data-changes="${(last.changed || []).length}">` +
    `<h3>Round ${esc(last.round)} revealed</h3><p class="pt-cuts">Cuts: ${cuts.join(', ')}.</p>` +
    `<p>${plural(slices, 'slice')}.</p><ul class="pt-changes">${changesList(ctx, last)}</ul>` +
    (safe.length ? `<p class="pt-safe">Safe: ${safe.join(', ')}.</p>` : '') +
    (short.length ? `<p class="pt-short">${short.join('; ')}.</p>` : '') + '</div>';
}

export function infoHtml(ctx) {
  const v = ctx.v;
  const rows = (v.sides || []).map((side, d) => {
    const status = sideStatus(ctx, side, d);
    return `<li class="pt-side${side.colour === ctx.seat ? ' mine' : ''}" data-side="${d}" data-colour="${side.colour}">` +
      `<b>${SIDE_NAMES[d]}</b> ${colourHtml(side.colour)} · ${ownerHtml(ctx, side.colour)}` +
      `${status ? ` <span class="pt-side-status">${esc(status)}</span>` : ''}</li>`;
  });
  const die = v.die != null
    ? `<p class="pt-die">Die roll: <b>${esc(v.die)}</b> — the neutral cuts line ${esc(v.die)} of the ${SIDE_NAMES[sideOf(v, v.neutral)] || '?'} side.</p>` : '';
  const round = ctx.phase === 'over' ? `Last round: ${esc(v.round)}` : `Round ${esc(v.round)}`;
  // The book has no limit; pizzabox calls a game without a winner after max_rounds a draw.
  const limit = ctx.phase === 'over' ? '' : ` <span class="muted">(a draw after ${esc(v.max_rounds)} rounds)</span>`;
  return `<h2>${round}${limit}</h2>` +
    `<ul class="pt-sides">${rows.join('')}</ul>${die}${revealHtml(ctx)}`;
}

// ---- Cutting: the six lines of your side as buttons ----

export function actionsHtml(ctx) {
  const lines = legalLines(ctx);
  if (!lines.length) return '';
  const d = sideOf(ctx.v, ctx.seat);
  const buttons = lines.map((k) => `<button type="button" class="pt-cut" data-action="cut ${k}" data-line="${k}"` +
    ` title="cut along line ${k} of the ${SIDE_NAMES[d] || '?'} side">${k}</button>`);
  return `<h2>Your cut: a line of the ${SIDE_NAMES[d] || '?'} side</h2>` +
    `<p class="muted">Line 1 is nearest your edge. Nobody sees your choice until all three cuts are revealed.</p>` +
    `<div class="action-list pt-cuts-list">${buttons.join('')}</div>`;
}

// ---- The players (and the neutral) ----

export function playersHtml(ctx) {
  const v = ctx.v;
  const canBot = ctx.seat != null && ctx.phase !== 'over';
  const colours = v.neutral != null ? [0, 1, 2] : [...Array(ctx.n).keys()];
  const all = v.toppings || 16;
  return colours.map((c) => {
    const me = c === ctx.seat;
    const neutral = c === v.neutral;
    const classes = ['player', 'pt-player'];
    if (me) classes.push('me');
    if (v.to_move === c) classes.push('to-move');
    const kind = !neutral && ctx.kinds[c] && ctx.kinds[c] !== 'human' ? `<span class="kind">bot: ${esc(ctx.kinds[c])}</span>` : '';
    const badges = [];
    if (v.to_move === c) badges.push('<span class="badge turn">to move</span>');
    if (ctx.phase === 'over' && v.result && (v.result.winners || []).includes(c)) badges.push('<span class="badge turn">winner</span>');
    const d = sideOf(v, c);
    const onBoard = (v.on_board || [])[c] ?? 0;
    const supply = (v.supply || [])[c] ?? 0;
    const toBot = canBot && !me && !neutral && (ctx.kinds[c] || 'human') === 'human' &&
      (ctx.msg.botable || [])[c] === true // its player gone long enough (the server says)
      ? `<button type="button" class="hand-to-bot small secondary" data-seat="${c}" title="only when this player has gone">hand to a bot</button>` : '';
    return `<div class="${classes.join(' ')}" data-seat="${c}" data-colour="${c}">` +
      `<div class="who"><span class="pt-swatch col-${c}" aria-hidden="true"></span> <b class="name">${esc(owner(ctx, c))}</b>` +
      `${me ? ' <span class="you">(you)</span>' : ''} ${kind} ${badges.join(' ')}</div>` +
      `<div class="line"><span class="label">Colour</span> ${esc(COLOUR_NAMES[c])}` +
      `${d >= 0 && ctx.phase !== 'over' ? ` · <span class="label">faces</span> ${SIDE_NAMES[d]} side` : ''}</div>` +
      `<div class="line"><span class="label">On the pizza</span> <b class="on-board">${esc(onBoard)}</b> of ${esc(all)}` +
      `<progress class="col-${c}" max="${esc(all)}" value="${esc(onBoard)}"></progress></div>` +
      `<div class="line"><span class="label">Supply</span> <b class="supply">${esc(supply)}</b></div>${toBot}</div>`;
  }).join('');
}

// ---- The log ----

function logWords(ctx, e) {
  const name = esc(owner(ctx, e.seat));
  const text = String(e.text || '');
  let m = /^put\s+(\S+)(\s+\(neutral\))?$/.exec(text);
  if (m) return m[2] ? `${name} puts the neutral topping on ${esc(m[1])}` : `${name} puts a topping on ${esc(m[1])}`;
  if (/^cut\s+\?$/.test(text)) return `${name} chooses a cut (secret)`;
  m = /^(?:cut\s+)?([1-6])$/.exec(text);
  if (m) return `${name} cuts line ${m[1]}`;
  return `${name}: ${esc(text)}`;
}

export function logHtml(ctx) {
  const log = ctx.msg.log || [];
  const first = Math.max(0, (ctx.msg.moves || log.length) - log.length);
  const words = (e) => (Number.isInteger(e.seat) && e.seat >= 0 ? logWords(ctx, e) : esc(e.text));
  // What the move brought beyond itself (the reveal, a player who skips) is told under it by log.js.
  return log.map((e, i) => `<li value="${first + i + 1}" data-seat="${esc(e.seat)}">${words(e)}</li>`).join('');
}

// ---- The end ----

export function gameOverHtml(ctx) {
  const v = ctx.v;
  const r = v.result || {};
  const score = ctx.msg.score;
  let out = `<h2>Game over</h2><p class="winners pt-result" data-end="${esc(r.end)}">${esc(resultText(ctx))}</p>` +
    `<p class="muted">After ${plural(v.round, 'round')}.</p>`;
  const players = score && Array.isArray(score.players) ? score.players
    : (v.on_board || []).slice(0, ctx.n).map((n, seat) => ({ seat, on_board: n, winner: (r.winners || []).includes(seat) }));
  const rows = players.map((p) => {
    const c = p.seat;
    return `<tr class="${p.winner ? 'winner' : ''}" data-seat="${esc(c)}"><td>${esc(owner(ctx, c))}${p.winner ? ' ★' : ''}</td>` +
      `<td>${colourHtml(c)}</td><td>${esc(p.on_board)}</td><td>${esc(p.short ?? '–')}</td></tr>`;
  });
  if (v.neutral != null) {
    const n = score && score.neutral_on_board != null ? score.neutral_on_board : (v.on_board || [])[v.neutral];
    rows.push(`<tr data-seat="neutral"><td>neutral</td><td>${colourHtml(v.neutral)}</td><td>${esc(n)}</td><td>–</td></tr>`);
  }
  // The two numbers the end turns on, said in words above them.
  out += `<p class="muted pt-score-help"><b>Toppings</b>: how many of a colour's ${esc(v.toppings || 16)} are on the pizza at the end; ` +
    `all ${esc(v.toppings || 16)} wins. <b>Shortfall</b>: replacements a colour won but could not make because its supply ` +
    'ran out; when two fill the pizza in the same round, the toppings plus the shortfall decide.</p>' +
    '<table class="score pt-score"><tr><th scope="col">Player</th><th scope="col">Colour</th>' +
    `<th scope="col">Toppings on the pizza</th><th scope="col">Shortfall</th></tr>${rows.join('')}</table>`;
  return `${out}<p><a href="#/" class="button secondary">Back to the lobby</a></p>`;
}
