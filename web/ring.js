// ring.js -- the pizza as an SVG ring of 11 wedges, positions 1..11 clockwise
// from the top. Each wedge shows its slice (type number, red pepperoni dots,
// blue anchovy fish), its position and its portion's letter; the gaps between
// wedges are where the Slicer cuts; the disc in the middle is the Special.
//
// renderRing(model) returns SVG markup; app.js catches clicks on
// g.slice[data-pos], g.gap[data-after] and #special-disc by delegation.
import { esc, parseToken, tokenWords } from './tokens.js';

const N = 11;
const STEP = (2 * Math.PI) / N;
const R_OUT = 102;   // crust
const R_IN = 30;     // around the Special's disc
const R_DISC = 25;
const SEAM = 0.014;  // half the angle left between two wedges

// Where a point at radius r and angle a (clockwise from the top) lies.
function pt(r, a) {
  return [r * Math.sin(a), -r * Math.cos(a)];
}

function fmt(n) {
  return (Math.round(n * 100) / 100).toString();
}

function centre(pos) {
  return (pos - 1) * STEP;
}

// An annular sector between angles a0 < a1.
function wedgePath(a0, a1) {
  const [x0, y0] = pt(R_OUT, a0), [x1, y1] = pt(R_OUT, a1);
  const [x2, y2] = pt(R_IN, a1), [x3, y3] = pt(R_IN, a0);
  return `M${fmt(x0)} ${fmt(y0)}A${R_OUT} ${R_OUT} 0 0 1 ${fmt(x1)} ${fmt(y1)}` +
    `L${fmt(x2)} ${fmt(y2)}A${R_IN} ${R_IN} 0 0 0 ${fmt(x3)} ${fmt(y3)}Z`;
}

// n marks in a row across the wedge at radius r, `gap` apart, each drawn by draw(x, y, angle).
function row(n, r, a, gap, draw) {
  let out = '';
  const tangent = [Math.cos(a), Math.sin(a)];
  const [cx, cy] = pt(r, a);
  for (let i = 0; i < n; i++) {
    const off = (i - (n - 1) / 2) * gap;
    out += draw(cx + tangent[0] * off, cy + tangent[1] * off, a);
  }
  return out;
}

const pepperoni = (x, y) => `<circle class="pep" cx="${fmt(x)}" cy="${fmt(y)}" r="4.2"/>`;

// A little fish lying across the wedge: a body and a tail.
function fish(x, y, a) {
  const deg = fmt((a * 180) / Math.PI);
  return `<g class="fish" transform="translate(${fmt(x)} ${fmt(y)}) rotate(${deg})">` +
    '<ellipse cx="-1" cy="0" rx="3.6" ry="1.9"/><path d="M2.2 0L5 -2.2L5 2.2Z"/></g>';
}

function sliceLabel(t) {
  switch (t.kind) {
    case 'hidden': return '?';
    case 'anchovy': return 'A';
    case 'supreme': return t.attached ? `S→${t.attached}` : 'S';
    case 'combo': return `${t.low}/${t.high}`;
    default: return String(t.type);
  }
}

function text(x, y, cls, body) {
  return `<text class="${cls}" x="${fmt(x)}" y="${fmt(y)}">${esc(body)}</text>`;
}

// One wedge: its shape, its slice (or an empty plate after Dibs!), its numbers.
function wedge(slot, model) {
  const a = centre(slot.pos);
  const portion = slot.portion != null ? model.portions.get(slot.portion) : null;
  const classes = ['slice'];
  if (!slot.token) classes.push('empty');
  if (portion && portion.takenBy != null) classes.push('taken');
  if (model.slicesActive && slot.token && !(portion && portion.takenBy != null)) classes.push('active');
  if (model.selected && model.selected.has(slot.pos)) classes.push('selected');
  if (portion && portion.takenBy == null) classes.push(portion.colour);
  // What another player just did: the portion they took, the slice they moved or took.
  const recent = model.recent || { portions: new Map(), positions: new Map() };
  const just = (slot.portion != null && recent.portions.has(slot.portion)) || recent.positions.has(slot.pos);
  if (just) classes.push('recent');
  let title = slot.token ? `${slot.pos}: ${tokenWords(slot.token, model.typeNames)}` : `${slot.pos}: empty`;
  if (just) {
    const seat = recent.portions.get(slot.portion) ?? recent.positions.get(slot.pos);
    title += ` (just taken by ${model.names[seat] || `Seat ${seat + 1}`})`;
  }
  let body = `<path class="wedge" d="${wedgePath(a - STEP / 2 + SEAM, a + STEP / 2 - SEAM)}"/>`;
  const [px, py] = pt(93, a);
  body += text(px, py + 3, 'pos', slot.pos);
  if (slot.token) {
    const t = parseToken(slot.token);
    const [lx, ly] = pt(77, a);
    body += text(lx, ly + 5, `type type-${t.kind}`, sliceLabel(t));
    body += row(t.pep, 60, a, 9, pepperoni);
    body += row(t.anch, 47, a, 9.5, fish);
  } else {
    const [ex, ey] = pt(66, a); // only Dibs! empties a position
    body += text(ex, ey + 3, 'gone', 'Dibs!');
  }
  if (portion) {
    // A badge, so portion A is not read as the Anchovy slice's "A".
    const [qx, qy] = pt(38, a);
    body += `<circle class="letter-bg" cx="${fmt(qx)}" cy="${fmt(qy)}" r="6.2"/>`;
    body += text(qx, qy + 3.3, 'letter', portion.letter);
  }
  const focus = classes.includes('active') ? ' tabindex="0" role="button"' : '';
  return `<g class="${classes.join(' ')}" data-pos="${slot.pos}"${focus}` +
    `${slot.token ? ` data-token="${esc(slot.token)}"` : ''}` +
    `${portion ? ` data-portion="${esc(slot.portion)}"` : ''}><title>${esc(title)}</title>${body}</g>`;
}

// The cut line after a position, with a wide invisible stroke to click on.
function gap(pos, model, slots) {
  const a = centre(pos) + STEP / 2;
  const [x0, y0] = pt(R_IN - 3, a), [x1, y1] = pt(R_OUT + 7, a);
  const classes = ['gap'];
  if (model.cuts.has(pos)) classes.push('cut');
  // A cut names the position before it, which must hold a slice.
  const usable = Boolean(slots[pos - 1] && slots[pos - 1].token);
  if (model.gapsActive && usable) classes.push('active');
  const line = `x1="${fmt(x0)}" y1="${fmt(y0)}" x2="${fmt(x1)}" y2="${fmt(y1)}"`;
  const label = `cut between ${pos} and ${pos % N + 1}`;
  const focus = model.gapsActive && usable ? ' tabindex="0" role="button"' : '';
  return `<g class="${classes.join(' ')}" data-after="${pos}"${focus}><title>${label}</title>` +
    `<line class="hit" ${line}/><line class="knife" ${line}/></g>`;
}

// Who took a portion, written outside the crust at the portion's middle.
function takerLabels(model, slots) {
  let out = '';
  for (const [key, portion] of model.portions) {
    if (portion.takenBy == null) continue;
    const poss = slots.filter((s) => s.portion === key).map((s) => s.pos);
    if (!poss.length) continue;
    const a = middleAngle(poss);
    const [x, y] = pt(R_OUT + 12, a);
    const name = model.names[portion.takenBy] || `Seat ${portion.takenBy + 1}`;
    const short = name.length > 9 ? `${name.slice(0, 8)}…` : name;
    // Written away from the crust: leftwards on the left side, rightwards on the right.
    const side = x > 15 ? ' r' : x < -15 ? ' l' : '';
    const just = model.recent && model.recent.portions.has(key) ? ' recent' : '';
    out += text(x, y + 3.5, `taker${side}${just}`, short);
  }
  return out;
}

// The mean angle of a run of positions that may wrap past 11.
function middleAngle(poss) {
  let sx = 0, sy = 0;
  for (const p of poss) { sx += Math.sin(centre(p)); sy += Math.cos(centre(p)); }
  return Math.atan2(sx, sy);
}

function disc(d) {
  if (!d) return '';
  const classes = ['special-disc'];
  if (d.active) classes.push('active');
  if (d.taken) classes.push('taken');
  if (d.selected) classes.push('selected');
  if (d.colour && !d.taken) classes.push(d.colour);
  if (d.recent) classes.push('recent');
  const focus = d.active ? ' tabindex="0" role="button"' : '';
  // Its text as a tooltip (tips.js) that a tap shows too, not a <title>.
  const tip = d.active ? '' : ' tabindex="0"';
  return `<g id="special-disc" class="${classes.join(' ')}"${d.key != null ? ` data-portion="${esc(d.key)}"` : ''}${focus}${tip}` +
    ` data-tip="${esc(d.title || 'the Special')}" aria-label="${esc(d.title || 'the Special')}">` +
    `<circle r="${R_DISC}"/>` +
    text(0, -4, 'star', '★') + text(0, 11, 'disc-label', d.label || '') + '</g>';
}

export function renderRing(model) {
  const slots = model.slots;
  let out = '<svg id="ring" viewBox="-152 -134 304 268" role="img" aria-label="the pizza">';
  out += `<circle class="crust" r="${R_OUT + 3}"/>`;
  out += slots.map((s) => wedge(s, model)).join('');
  for (let p = 1; p <= N; p++) out += gap(p, model, slots);
  out += takerLabels(model, slots);
  out += disc(model.disc && { ...model.disc, recent: Boolean(model.recent && model.recent.portions.has(model.disc.key)) });
  return `${out}</svg>`;
}
