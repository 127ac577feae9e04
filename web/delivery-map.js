// delivery-map.js -- New York Pizza Delivery's map, the board of the game:
// the view's own map (spaces, roads, villages, lots) as SVG, the shortest
// street routes over it, what the others did last on it, and its zoom and pan.
//
// Manhattan is long and narrow: on a wide screen it is drawn lying down, north
// to the right (west at the top), so it fills the width; on a phone it stands,
// north up, as wide as the screen. Every point goes through a projection
// (`proj`), so text stays upright either way. The selection and the preview
// come from delivery.js; elements carry `data-pick`/`data-action` as there.
import { esc, recentMoves, numberedLog } from './tokens.js';
import { who, previewOf, selection, payText, fromWord } from './delivery.js';

const VILLAGE_FILL = ['#f4cdb8', '#cfe0f3', '#e2d5f1', '#c4e3b5', '#f6e0a8', '#f2c4cf', '#c8eadf', '#ece2bd', '#d9d9e3', '#e8d0bb'];
const SUBWAY_FILL = { red: '#d62828', blue: '#1c64d1' };

// Harlem Rotary Pizzeria copies deliveries to this village.
export const HARLEM = 'HA';

// ---- The map as data: lookups, built once per map ----

const maps = new WeakMap();

export function mapOf(v) {
  const map = v.map || { spaces: [], roads: [], villages: [], lots: [] };
  let m = maps.get(map);
  if (m) return m;
  const space = new Map(map.spaces.map((s) => [s.id, s]));
  const next = new Map(map.spaces.map((s) => [s.id, []]));
  for (const [a, b] of map.roads || []) {
    if (next.has(a) && next.has(b)) { next.get(a).push(b); next.get(b).push(a); }
  }
  const villageIndex = new Map(map.villages.map((vl, i) => [vl.code, i]));
  const byName = new Map();
  for (const vl of map.villages) {
    byName.set(vl.name.toLowerCase(), vl.code);
    byName.set(vl.code.toLowerCase(), vl.code);
  }
  const xs = map.spaces.map((s) => s.x), ys = map.spaces.map((s) => s.y);
  // a block's side: the shortest street
  const lengths = (map.roads || []).map(([a, b]) => space.get(a) && space.get(b) &&
    Math.hypot(space.get(a).x - space.get(b).x, space.get(a).y - space.get(b).y)).filter((d) => d > 0);
  m = {
    map, space, next, villageIndex, byName,
    village: new Map(map.villages.map((vl) => [vl.code, vl])),
    lot: new Map(map.lots.map((l) => [l.id, l])),
    box: { x0: Math.min(...xs, 0), x1: Math.max(...xs, 0), y0: Math.min(...ys, 0), y1: Math.max(...ys, 0) },
    step: lengths.length ? Math.min(...lengths) : 40,
    drawn: new Map(), // per orientation: where lots, labels and pins go (layoutOf)
  };
  maps.set(map, m);
  return m;
}

export function villageName(ctx, code) {
  const vl = mapOf(ctx.v).village.get(code);
  return vl ? vl.name : code;
}

// The shortest route by the streets (the Park Path only when `park`), from
// one space to another, as the list of its spaces: the door is the first,
// so the route's length is the list's length (PD-T4: the door counts 1).
export function shortestRoute(v, from, to, { park = false } = {}) {
  const m = mapOf(v);
  const usable = (id) => park || !m.space.get(id)?.park_path;
  if (!m.space.has(from) || !m.space.has(to) || !usable(from)) return null;
  const prev = new Map([[from, null]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i];
    if (u === to) break;
    for (const w of m.next.get(u) || []) {
      if (prev.has(w) || !usable(w)) continue;
      prev.set(w, u);
      queue.push(w);
    }
  }
  if (!prev.has(to)) return null;
  const route = [];
  for (let u = to; u != null; u = prev.get(u)) route.push(u);
  return route.reverse();
}

// ---- What the others did last ----
//
// A delivery's order is replaced at once, so where it went is read from the
// orders of the view before it: each table keeps its last orders, and the
// route of every delivery seen arrive (by the streets, as the board draws
// routes) is kept by its move number.

const lastOrders = new Map();   // code -> {moves, orders}
const routes = new Map();       // `${code}:${move}` -> {route, zone, village, slot}

function pizzeriaLot(v, seat, from) {
  const pz = ((v.players || [])[seat]?.pizzerias || []).find((p) => p.village === from || p.lot === from);
  return pz ? pz.lot : null;
}

function learnRoutes(ctx) {
  const v = ctx.v;
  const m = mapOf(v);
  const before = ctx.msg.replaying ? null : lastOrders.get(ctx.code);
  for (const e of numberedLog(ctx.msg)) {
    // (a Harlem Rotary Pizzeria copy goes to Harlem)
    const w = /^(?:deliver (\d+)|copy) from (\S+)(?: to (\S+))?/.exec(String(e.text || ''));
    const key = `${ctx.code}:${e.move}`;
    if (!w || routes.has(key)) continue;
    const order = w[1] && before && before.moves <= e.move ? (before.orders || [])[Number(w[1]) - 1] : null;
    const village = w[3] || (w[1] ? order && order.village : HARLEM) || null;
    const lot = m.lot.get(pizzeriaLot(v, e.seat, w[2]) || w[2]);
    const zone = village ? m.village.get(village)?.zone : null;
    const route = lot && zone ? shortestRoute(v, lot.door, zone, { park: /via park/.test(e.text) }) : null;
    routes.set(key, { route, zone, village, slot: w[1] ? Number(w[1]) : null });
  }
  if (!ctx.msg.replaying) lastOrders.set(ctx.code, { moves: ctx.msg.moves, orders: v.orders || [] });
}

// Each other player's last turn in the log (their last run of moves; the
// answers of others in between, an Instant card, do not end it): the lots
// they built or upgraded (lot -> seat), their deliveries, and whether the
// turn came since this seat's own last move (`fresh`). A spectator sees
// every player's.
export function recentOnMap(ctx) {
  learnRoutes(ctx);
  const v = ctx.v;
  const log = numberedLog(ctx.msg).filter((e) => Number.isInteger(e.seat) && e.seat >= 0);
  const fresh = new Set(recentMoves(ctx).map((e) => e.move));
  // Back from the end: a seat's moves until the action that began its turn.
  const turns = new Map(); // seat -> its last turn's moves
  const closed = new Set();
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.seat === ctx.seat || closed.has(e.seat)) continue;
    if (!turns.has(e.seat)) turns.set(e.seat, []);
    turns.get(e.seat).unshift(e);
    if (/^(?:market|reputation|deliver) /.test(`${e.text} `)) closed.add(e.seat);
  }
  const lots = new Map();
  const deliveries = [];
  const seats = [];
  for (const [seat, moves] of turns) {
    const did = { seat, fresh: moves.some((e) => fresh.has(e.move)), built: [], delivered: [] };
    for (const e of moves) {
      const text = String(e.text || '');
      let w = /^(build|block) (\S+)/.exec(text);
      if (w) { lots.set(w[2], seat); did.built.push({ lot: w[2], how: w[1] }); continue; }
      w = /^(?:upgrade|remove) (\S+)/.exec(text);
      if (w) {
        const lot = pizzeriaLot(v, seat, w[1]);
        if (lot) { lots.set(lot, seat); if (!did.built.some((b) => b.lot === lot)) did.built.push({ lot, how: 'upgrade' }); }
        continue;
      }
      w = /^(?:deliver \d+|copy) from (\S+)/.exec(text);
      if (w) {
        const lot = pizzeriaLot(v, seat, w[1]) || w[1];
        lots.set(lot, seat);
        const d = { seat, lot, fresh: did.fresh, ...(routes.get(`${ctx.code}:${e.move}`) || {}) };
        deliveries.push(d);
        did.delivered.push(d);
      }
    }
    if (did.built.length || did.delivered.length) seats.push(did);
  }
  seats.sort((a, b) => a.seat - b.seat);
  return { lots, deliveries, seats };
}

// ---- Drawing: the projection ----

const R = 6;             // a space's radius, in map units
const ACROSS = 1.3;      // east-west is drawn wider than north-south: room for two lots in a block
const LOT = 21;          // a lot's side, drawn
const BAND = 30;         // the water along each shore: docks and village names

export function f1(n) {
  return (Math.round(n * 10) / 10).toString();
}

// Map coordinates to drawn ones. `wide`: north to the right, west at the top.
function projection(m, wide) {
  const { x0, x1, y0, y1 } = m.box;
  const across = (x1 - x0) * ACROSS, along = y1 - y0;
  if (wide) {
    return {
      wide, w: along, h: across,
      at: (x, y) => [y1 - y, (x - x0) * ACROSS],
      dir: ([dx, dy]) => [-dy, dx], // map direction to drawn
      vb: [-26, -BAND, along + 26 + 14, across + 2 * BAND],
    };
  }
  return {
    wide, w: across, h: along,
    at: (x, y) => [(x - x0) * ACROSS, y - y0],
    dir: (d) => d,
    vb: [-BAND, -14, across + 2 * BAND, along + 14 + 26],
  };
}

function dockDir(m, s) {
  const { x0, x1, y1 } = m.box;
  if (s.x <= x0) return [-1, 0];
  if (s.x >= x1) return [1, 0];
  if (s.y >= y1) return [0, 1];
  return [0, -1];
}

// Boxes, drawn coordinates: {x0, y0, x1, y1}.
function box(cx, cy, w, h) {
  return { x0: cx - w / 2, y0: cy - h / 2, x1: cx + w / 2, y1: cy + h / 2 };
}
function overlaps(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// The k-th order pin of a zone at (x, y) whose first pin is at `first`: more
// orders to one zone go one after another along the island, away from it.
function pinSpot(wide, [x, y], first, k) {
  const [px, py] = first;
  return wide ? [px + k * 17 * Math.sign(px - x || 1), py] : [px, py + k * 17 * Math.sign(py - y || 1)];
}

// Where things go, per map and orientation: each lot in the block its door
// faces (two lots in a block side by side across it), the delivery zones'
// order pins in a free corner beside them, and each village's name in free
// space (a shore's water along it, an empty block, the park), clear of every
// street, space, lot, dock and pin.
function layoutOf(m, wide) {
  if (m.drawn.has(wide)) return m.drawn.get(wide);
  const P = projection(m, wide);
  const map = m.map;
  const at = (s) => P.at(s.x, s.y);
  // Lots: by block (the door's corner toward the printed place).
  const blocks = new Map();
  for (const l of map.lots) {
    const d = m.space.get(l.door) || l;
    const sx = Math.sign(l.x - d.x) || 1, sy = Math.sign(l.y - d.y) || 1;
    const cx = d.x + (sx * m.step) / 2, cy = d.y + (sy * m.step) / 2;
    const key = `${cx},${cy}`;
    if (!blocks.has(key)) blocks.set(key, { cx, cy, lots: [] });
    blocks.get(key).lots.push(l);
  }
  const lotAt = new Map();
  for (const b of blocks.values()) {
    const [cx, cy] = P.at(b.cx, b.cy);
    const n = b.lots.length;
    // side by side across the island (drawn wider that way), west first
    b.lots.sort((a, c) => a.x - c.x || a.y - c.y);
    b.lots.forEach((l, i) => {
      const off = (i - (n - 1) / 2) * (LOT + 4);
      lotAt.set(l.id, wide ? [cx, cy + off] : [cx + off, cy]);
    });
  }
  // What a name or a pin must not cover.
  const hard = [];
  for (const [a, b] of map.roads || []) {
    const A = m.space.get(a), B = m.space.get(b);
    if (!A || !B) continue;
    const [ax, ay] = at(A), [bx, by] = at(B);
    hard.push({ x0: Math.min(ax, bx) - 2, y0: Math.min(ay, by) - 2, x1: Math.max(ax, bx) + 2, y1: Math.max(ay, by) + 2 });
  }
  for (const s of map.spaces) {
    const [x, y] = at(s);
    hard.push(box(x, y, 2 * R + 2, 2 * R + 2));
    if (s.dock) {
      const [dx, dy] = P.dir(dockDir(m, s));
      hard.push(box(x + dx * 15, y + dy * 15, 14 + Math.abs(dx) * 18, 14 + Math.abs(dy) * 18));
    }
  }
  for (const [x, y] of lotAt.values()) hard.push(box(x, y, LOT + 2, LOT + 2));
  // Order pins: beside each zone, in the first free diagonal corner.
  const pinAt = new Map();
  for (const vl of map.villages) {
    const s = m.space.get(vl.zone);
    if (!s) continue;
    const [x, y] = at(s);
    const spots = [[1, -1], [-1, -1], [1, 1], [-1, 1]].map(([a, b]) => [x + a * 15, y + b * 15]);
    const clear = (spot, n) => [...Array(n).keys()].every((k) => {
      const [px, py] = pinSpot(wide, [x, y], spot, k);
      return !hard.some((h) => overlaps(h, box(px, py, 16, 16)));
    });
    // room for two orders there, else for one
    const free = spots.find((p) => clear(p, 2)) || spots.find((p) => clear(p, 1)) || spots[0];
    pinAt.set(vl.zone, free);
    for (let k = 0; k < 2; k++) { const [px, py] = pinSpot(wide, [x, y], free, k); hard.push(box(px, py, 18, 18)); }
  }
  // Names: the nearest free place to the village's middle, on its tiles or in the water by it.
  const labelAt = new Map();
  const spacesOf = new Map(map.villages.map((vl) => [vl.code, []]));
  for (const s of map.spaces) if (spacesOf.has(s.village)) spacesOf.get(s.village).push(s);
  const { x0, y0 } = { x0: P.vb[0], y0: P.vb[1] };
  const x1 = P.vb[0] + P.vb[2], y1 = P.vb[1] + P.vb[3];
  for (const vl of map.villages) {
    const list = spacesOf.get(vl.code);
    if (!list.length) continue;
    const pts = list.map(at);
    const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length, my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    const near = (x, y) => pts.some(([px, py]) => Math.abs(px - x) <= m.step && Math.abs(py - y) <= m.step);
    let found = null;
    for (const text of [vl.name, vl.code]) {
      const w = text.length * 6.3 + 6, h = 13;
      let best = null, bestD = Infinity;
      for (let cx = x0 + w / 2; cx <= x1 - w / 2; cx += 4) {
        for (let cy = y0 + h / 2; cy <= y1 - h / 2; cy += 3) {
          if (!near(cx, cy)) continue;
          const d = Math.hypot(cx - mx, cy - my);
          if (d >= bestD) continue;
          const bx = box(cx, cy, w, h);
          if (hard.some((o) => overlaps(o, bx))) continue;
          best = [cx, cy]; bestD = d;
        }
      }
      if (best) { found = { x: best[0], y: best[1], text }; hard.push(box(best[0], best[1], w, h)); break; }
    }
    labelAt.set(vl.code, found || { x: mx, y: my, text: vl.code });
  }
  const out = { P, lotAt, pinAt, labelAt };
  m.drawn.set(wide, out);
  return out;
}

// ---- Zoom and pan: kept per table and orientation across re-renders ----

const views = new Map(); // `${code}:${wide}` -> {k, cx, cy}
const MAX_ZOOM = 6;
let shown = { key: null, vb: null }; // the map on the page now

// The view box at zoom `z` of the whole map `vb`, kept inside it.
function zoomedBox(vb, z) {
  const w = vb[2] / z.k, h = vb[3] / z.k;
  const cx = Math.min(Math.max(z.cx, vb[0] + w / 2), vb[0] + vb[2] - w / 2);
  const cy = Math.min(Math.max(z.cy, vb[1] + h / 2), vb[1] + vb[3] - h / 2);
  z.cx = cx; z.cy = cy;
  return [cx - w / 2, cy - h / 2, w, h];
}

function zoomOf(key, vb) {
  if (!views.has(key)) views.set(key, { k: 1, cx: vb[0] + vb[2] / 2, cy: vb[1] + vb[3] / 2 });
  return views.get(key);
}

// Wide screens lie the map down (the phone layout below 761 px stands it up).
const WIDE = '(min-width: 761px)';
function isWide() {
  return typeof window !== 'undefined' && Boolean(window.matchMedia) && window.matchMedia(WIDE).matches;
}

// ---- Drawing ----

// Clickable things on the map this seat may use now.
function mapActions(ctx) {
  const v = ctx.v;
  const legal = ctx.myTurn ? v.legal || [] : [];
  const buildLots = new Set();
  const upgradeVillages = new Set();
  for (const l of legal) {
    const w = l.split(' ');
    if (w[0] === 'build' || w[0] === 'block') buildLots.add(w[1]);
    if (w[0] === 'upgrade') upgradeVillages.add(w[1]);
  }
  const deliverFrom = new Set();
  const deliverOrders = new Set();
  for (const d of (ctx.myTurn && ctx.phase === 'start' ? v.deliveries || [] : [])) {
    deliverFrom.add(fromWord(ctx, d)); // a village, or another player's lot (Copy Cat)
    deliverOrders.add(d.slot);
  }
  return { buildLots, upgradeVillages, deliverFrom, deliverOrders, repLots: reputationLots(ctx, legal) };
}

// At the start of a turn, the free lots a build could go on (a village with
// none of your pizzerias, a card of it in hand, the price within your money
// and other cards): a click increases reputation and shows the lot's panel.
export function reputationLots(ctx, legal = ctx.myTurn ? ctx.v.legal || [] : []) {
  const out = new Set();
  const v = ctx.v;
  const me = (v.players || [])[ctx.seat];
  if (ctx.phase !== 'start' || !legal.includes('reputation') || !me || me.disks === 0) return out;
  const taken = new Set((v.players || []).flatMap((p, s) => [...(p.pizzerias || []).map((z) => z.lot), ...(s === ctx.seat ? [] : p.reserved_lots || [])]));
  const have = new Set((me.pizzerias || []).map((p) => p.village));
  const code = (name) => (v.map.villages.find((x) => x.name === String(name).split('/')[0]) || {}).code;
  const hand = (v.hand || []).flatMap((h) => Array(h.count).fill(code(h.card)));
  const free = v.coop && v.coop.first_round;
  const purse = (v.coop ? v.coop.money ?? 0 : me.money ?? 0) + hand.length + (v.powers || []).length - 1;
  for (const l of v.map.lots) {
    if (!taken.has(l.id) && !have.has(l.village) && l.village !== 'CP' && hand.includes(l.village) && (free || l.cost <= purse)) out.add(l.id);
  }
  return out;
}

function points(m, P, route) {
  return route.map((id) => P.at(m.space.get(id).x, m.space.get(id).y).map(f1).join(',')).join(' ');
}

// A pizzeria's reputation disks: a row of dots under its level.
function disksSvg(x, y, n) {
  let out = '';
  const k = Math.min(n, 5);
  for (let i = 0; i < k; i++) out += `<circle class="pd-disk" cx="${f1(x + (i - (k - 1) / 2) * 4.4)}" cy="${f1(y + 6.3)}" r="1.9"/>`;
  return out;
}

// The others' last turns, as words under the map, each in its player's colour.
function recentWordsHtml(ctx, recent) {
  if (!recent.seats.length) return '';
  const items = recent.seats.map((t) => {
    const what = [];
    for (const b of t.built) what.push(`${b.how === 'build' ? 'built on' : b.how === 'block' ? 'reserved' : 'upgraded'} ${esc(b.lot)}`);
    for (const d of t.delivered) what.push(`delivered${d.slot ? ` order ${d.slot}` : ''}${d.village ? ` to ${esc(villageName(ctx, d.village))}` : ''}`);
    return `<li class="pd-recent-turn pd-p${t.seat}${t.fresh ? ' fresh' : ''}" data-seat="${t.seat}"><span class="pd-swatch"></span>` +
      `<b>${esc(who(ctx, t.seat))}</b> ${what.join(', ')}</li>`;
  });
  return `<ul class="pd-recent-list" aria-label="The others' last turns on the map">${items.join('')}</ul>`;
}

export function boardHtml(ctx, { busy = false } = {}) {
  const v = ctx.v;
  const m = mapOf(v);
  const map = m.map;
  const wide = isWide();
  const { P, lotAt, pinAt, labelAt } = layoutOf(m, wide);
  const ui = selection;
  const acts = mapActions(ctx);
  const pv = previewOf(ctx);
  const starting = ctx.myTurn && ctx.phase === 'start';
  const at = (s) => P.at(s.x, s.y);
  const TA = (m.step / 2) * ACROSS, TL = m.step / 2; // half a block, across and along: the tiles that shade the villages
  const [tw, th] = wide ? [TL, TA] : [TA, TL];
  const key = `${ctx.code}:${wide}`;
  const vb = zoomedBox(P.vb, zoomOf(key, P.vb));
  shown = { key, vb: P.vb };

  // Villages: a tile around each of their spaces, and their name in free space.
  // While a specialty order is previewed, a click on a village sends it there.
  const choosable = new Set(pv && pv.zones ? pv.zones.map((z) => z.code) : []);
  const zonePick = (code) => (choosable.has(code) ? ` data-pick="zone" data-value="${esc(code)}"` : '');
  let tiles = '', labels = '';
  map.villages.forEach((vl, i) => {
    const fill = VILLAGE_FILL[i % VILLAGE_FILL.length];
    for (const s of map.spaces.filter((x) => x.village === vl.code)) {
      const [x, y] = at(s);
      tiles += `<rect class="pd-tile" x="${f1(x - tw)}" y="${f1(y - th)}" width="${f1(2 * tw)}" height="${f1(2 * th)}" fill="${fill}" data-village="${esc(vl.code)}"${zonePick(vl.code)}/>`;
    }
    const lb = labelAt.get(vl.code);
    if (lb) {
      const hint = choosable.has(vl.code) ? ': click to deliver the specialty pizza here' : '';
      labels += `<text class="pd-vlabel" x="${f1(lb.x)}" y="${f1(lb.y + 3.6)}" data-village="${esc(vl.code)}"${zonePick(vl.code)}>${esc(lb.text)}` +
        `<title>${esc(vl.name + hint)}</title></text>`;
    }
  });

  // Streets, and the Park Path dashed.
  let roads = '';
  for (const [a, b] of map.roads || []) {
    const A = m.space.get(a), B = m.space.get(b);
    if (!A || !B) continue;
    const park = A.park_path || B.park_path;
    const [ax, ay] = at(A), [bx, by] = at(B);
    roads += `<line class="pd-road${park ? ' park' : ''}" x1="${f1(ax)}" y1="${f1(ay)}" x2="${f1(bx)}" y2="${f1(by)}"/>`;
  }

  // The subway lines: their stations joined north to south, beside the streets (red west, blue east).
  let subway = '';
  for (const line of ['red', 'blue']) {
    const st = map.spaces.filter((s) => s.subway === line || s.subway === 'both').sort((a, b) => a.y - b.y || a.x - b.x);
    if (st.length > 1) {
      const [ox, oy] = P.dir([line === 'red' ? -9 : 9, 0]);
      subway += `<polyline class="pd-subway-line ${line}" stroke="${SUBWAY_FILL[line]}" points="${st.map((s) => { const [x, y] = at(s); return `${f1(x + ox)},${f1(y + oy)}`; }).join(' ')}"/>`;
    }
  }

  // Docks: a pier into the water.
  let docks = '';
  for (const s of map.spaces.filter((x) => x.dock)) {
    const [dx, dy] = P.dir(dockDir(m, s));
    const [x, y] = at(s);
    const [ex, ey] = [x + dx * 17, y + dy * 17];
    docks += `<g class="pd-dock" data-space="${esc(s.id)}"><title>${esc(`${s.id}: dock (boat)`)}</title>` +
      `<line x1="${f1(x)}" y1="${f1(y)}" x2="${f1(ex)}" y2="${f1(ey)}"/>` +
      `<path class="pd-boat" d="M${f1(ex - 5)} ${f1(ey - 2)} h10 l-2.5 4 h-5 z"/></g>`;
  }

  // The route being previewed.
  const onRoute = new Map();
  let routeSvg = '';
  if (pv && pv.route) {
    pv.route.forEach((id, i) => onRoute.set(id, i + 1));
    routeSvg = `<polyline class="pd-route" data-length="${pv.route.length}" points="${points(m, P, pv.route)}"/>`;
  }

  // Each other player's last turn: their deliveries' routes fading, the
  // zones reached marked with their colour and name.
  const recent = recentOnMap(ctx);
  const recentZones = new Map();
  let recentTags = '';
  for (const d of recent.deliveries) {
    if (d.zone) recentZones.set(d.zone, d.seat);
    if (d.zone && m.space.get(d.zone)) {
      const [x, y] = at(m.space.get(d.zone));
      const name = who(ctx, d.seat);
      const w = name.length * 5.2 + 8;
      // above the zone or below it, away from its order pins; beside it
      // where that would cover a pizzeria or a lot
      const above = y - R - 15, below = y + R + 4, pinBelow = pinAt.get(d.zone)[1] > y;
      const spots = [[x - w / 2, pinBelow ? above : below], [x - w / 2, pinBelow ? below : above],
        [x + R + 3, y - 5.5], [x - R - 3 - w, y - 5.5]];
      const onLot = ([left, top]) => map.lots.some((l) => {
        const [lx, ly] = lotAt.get(l.id);
        return Math.abs(lx - (left + w / 2)) < (LOT + w) / 2 && Math.abs(ly - (top + 5.5)) < (LOT + 11) / 2;
      });
      const [left, top] = spots.find((spot) => !onLot(spot)) || spots[0];
      recentTags += `<g class="pd-recent-tag pd-p${d.seat}${d.fresh ? ' fresh' : ''}" data-seat="${d.seat}">` +
        `<rect x="${f1(left)}" y="${f1(top)}" width="${f1(w)}" height="11" rx="3"/>` +
        `<text x="${f1(left + w / 2)}" y="${f1(top + 8.5)}">${esc(name)}</text></g>`;
    }
    if (!d.route || d.route.length < 2) continue;
    // fading from the zone reached back to the pizzeria: the way it went
    const pts = d.route.map((id) => at(m.space.get(id)));
    let segs = '';
    for (let i = 1; i < pts.length; i++) {
      const op = 0.2 + 0.7 * (i / (pts.length - 1));
      segs += `<line x1="${f1(pts[i - 1][0])}" y1="${f1(pts[i - 1][1])}" x2="${f1(pts[i][0])}" y2="${f1(pts[i][1])}" stroke-opacity="${op.toFixed(2)}"/>`;
    }
    routeSvg += `<g class="pd-recent-route pd-p${d.seat}${d.fresh ? ' fresh' : ''}" data-seat="${d.seat}" data-length="${d.route.length}">` +
      `<title>${esc(`${who(ctx, d.seat)}${d.fresh ? ' just delivered' : "'s last turn: delivered"} to ${villageName(ctx, d.village)}`)}</title>${segs}</g>`;
  }

  // Spaces: stations filled with their line's colour, the Park Path green.
  let spaces = '';
  for (const s of map.spaces) {
    const [x, y] = at(s);
    const cls = ['pd-space'];
    if (s.park_path) cls.push('park');
    if (s.subway) cls.push('station');
    if (s.subway) cls.push(`line-${s.subway}`);
    const step = onRoute.get(s.id);
    if (step) cls.push('route-step', step <= (pv.free ?? 0) ? 'free' : 'paid');
    const what = [s.id];
    if (s.village) what.push(villageName(ctx, s.village));
    if (s.subway) what.push(`${s.subway === 'both' ? 'red and blue' : s.subway} subway station`);
    if (s.dock) what.push('dock');
    if (s.park_path) what.push('Park Path: a single space road across the park (open while someone has the Park Path card)');
    if (step) what.push(`route space ${step}${step <= (pv.free ?? 0) ? ' (free)' : ' (costs a card)'}`);
    spaces += `<g class="${cls.join(' ')}" data-space="${esc(s.id)}"${step ? ` data-step="${step}"` : ''}><title>${esc(what.join(' · '))}</title>`;
    spaces += `<circle class="dot" cx="${f1(x)}" cy="${f1(y)}" r="${R}"/>`;
    if (s.subway === 'both') spaces += `<path class="half" d="M${f1(x)} ${f1(y - R)} a${R} ${R} 0 0 0 0 ${2 * R} z" fill="${SUBWAY_FILL.red}"/>`;
    if (s.subway) spaces += `<text class="pd-station-letter" x="${f1(x)}" y="${f1(y + 2.6)}">S</text>`;
    if (step) spaces += `<text class="pd-step" x="${f1(x)}" y="${f1(y + 2.8)}">${step}</text>`;
    spaces += '</g>';
  }

  // Delivery zones: a ring, and the orders waiting there as numbered pins beside it.
  let zones = '', pins = '', stalks = '';
  const ordersAt = new Map();
  for (const o of v.orders || []) {
    if (!o || !o.village) continue;
    const z = m.village.get(o.village)?.zone;
    if (!z) continue;
    if (!ordersAt.has(z)) ordersAt.set(z, []);
    ordersAt.get(z).push(o);
  }
  for (const vl of map.villages) {
    const s = m.space.get(vl.zone);
    if (!s) continue;
    const [x, y] = at(s);
    const target = pv && pv.zone === vl.zone;
    const by = recentZones.get(vl.zone);
    zones += `<g class="pd-zone${target ? ' target' : ''}${by != null ? ` recent pd-p${by}` : ''}" data-village="${esc(vl.code)}" data-space="${esc(s.id)}"${zonePick(vl.code)}>` +
      `<title>${esc(`${vl.name}: delivery zone (${s.id})`)}</title><circle cx="${f1(x)}" cy="${f1(y)}" r="${R + 4.5}"/></g>`;
    const [px0, py0] = pinAt.get(vl.zone);
    (ordersAt.get(vl.zone) || []).forEach((o, k) => {
      const [px, py] = pinSpot(wide, [x, y], [px0, py0], k);
      // (its stalk apart: the pin alone is the thing to click)
      stalks += `<line x1="${f1(x)}" y1="${f1(y)}" x2="${f1(px)}" y2="${f1(py)}"/>`;
      const cls = ['pd-order-pin'];
      if (ui.order === o.slot) cls.push('selected');
      if (acts.deliverOrders.has(o.slot)) cls.push('can');
      const words = `Order ${o.slot}: ${o.name} to ${vl.name}, pays ${payText(o)}`;
      pins += `<g class="${cls.join(' ')}" data-pick="order" data-value="${o.slot}" data-slot="${o.slot}" tabindex="0" role="button"` +
        ` aria-label="${esc(words)}"><title>${esc(words)}</title>` +
        `<circle cx="${f1(px)}" cy="${f1(py)}" r="8"/><text x="${f1(px)}" y="${f1(py + 3.4)}">${o.slot}</text></g>`;
    });
  }

  // Lots: their price; a pizzeria in its owner's colour with its reputation level and disks.
  const owners = new Map();
  const reserved = new Map();
  (v.players || []).forEach((pl, seat) => {
    for (const pz of pl.pizzerias || []) owners.set(pz.lot, { seat, pz });
    for (const id of pl.reserved_lots || []) reserved.set(id, seat);
  });
  let lots = '', doors = '';
  for (const l of map.lots) {
    const [lx, ly] = lotAt.get(l.id);
    const door = m.space.get(l.door);
    const own = owners.get(l.id);
    if (door) {
      const [dx, dy] = at(door);
      doors += `<line class="pd-door" data-lot="${esc(l.id)}" x1="${f1(lx)}" y1="${f1(ly)}" x2="${f1(dx)}" y2="${f1(dy)}"/>`;
    }
    const cls = ['pd-lot'];
    let act = '';
    let inner;
    const title = [`${l.id} in ${villageName(ctx, l.village)}`, `door ${l.door}`];
    if (own) {
      const mine = own.seat === ctx.seat;
      cls.push('pizzeria', `pd-p${own.seat}`);
      if (recent.lots.has(l.id)) {
        cls.push('recent');
        const fresh = recent.seats.some((t) => t.seat === own.seat && t.fresh);
        title.push(`${who(ctx, own.seat)}${fresh ? ' just' : "'s last turn:"} ${recent.deliveries.some((d) => d.lot === l.id) ? 'delivered from it' : 'built or upgraded it'}`);
      }
      if (mine) cls.push('mine');
      const { pz } = own;
      title.push(`${who(ctx, own.seat)}'s pizzeria, reputation ${pz.reputation} of ${pz.limit} (${pz.disks} disk${pz.disks === 1 ? '' : 's'}, ` +
        `${pz.cards.length} card${pz.cards.length === 1 ? '' : 's'})`);
      if (pz.cards.length) title.push(`top: ${pz.cards[pz.cards.length - 1]}`);
      inner = `<text x="${f1(lx)}" y="${f1(ly + (pz.disks ? 1.2 : 3.6))}">${esc(pz.reputation)}</text>${disksSvg(lx, ly, pz.disks)}`;
      const pickable = mine && (starting || acts.upgradeVillages.has(pz.village));
      const copyCat = !mine && starting && acts.deliverFrom.has(l.id); // another's, with Copy Cat
      if (pv && pv.lot && pv.lot.id === l.id) cls.push('selected');
      else if (ui.pizzeria === pz.village && mine) cls.push('selected');
      if (pickable) {
        cls.push('active');
        if (acts.deliverFrom.has(pz.village) || acts.upgradeVillages.has(pz.village)) cls.push('can');
        act = ` data-pick="pizzeria" data-value="${esc(pz.village)}" tabindex="0" role="button" aria-label="${esc(title.join(' · '))}"`;
      } else if (copyCat) {
        cls.push('active', 'can', 'copy-cat');
        title.push('Copy Cat: click to deliver from it');
        act = ` data-pick="pizzeria" data-value="${esc(l.id)}" tabindex="0" role="button" aria-label="${esc(title.join(' · '))}"`;
      }
    } else {
      title.push(`costs $${l.cost}`);
      inner = `<text x="${f1(lx)}" y="${f1(ly + 3.2)}">${esc(`$${l.cost}`)}</text>`;
      if (reserved.has(l.id)) {
        cls.push('reserved', `pd-p${reserved.get(l.id)}`);
        title.push(`reserved by ${who(ctx, reserved.get(l.id))}`);
      }
      if (acts.buildLots.has(l.id)) {
        cls.push('active', 'can');
        if (ui.lot === l.id) cls.push('selected');
        title.push(ctx.phase === 'block' ? 'click to reserve it' : 'click to build here');
        act = ` data-pick="lot" data-value="${esc(l.id)}" tabindex="0" role="button" aria-label="${esc(title.join(' · '))}"`;
      } else if (acts.repLots.has(l.id)) {
        cls.push('active', 'can');
        title.push('click to build here (increase reputation)');
        act = ` data-pick="lot-rep" data-value="${esc(l.id)}" tabindex="0" role="button" aria-label="${esc(title.join(' · '))}"`;
      }
    }
    const ring = own && recent.lots.has(l.id) ? `<rect class="pd-ring${recent.seats.some((t) => t.seat === own.seat && t.fresh) ? ' fresh' : ''}" x="${f1(lx - LOT / 2 - 4)}" y="${f1(ly - LOT / 2 - 4)}" width="${LOT + 8}" height="${LOT + 8}" rx="5"/>` : '';
    lots += `<g class="${cls.join(' ')}" data-lot="${esc(l.id)}" data-door="${esc(l.door)}"${own ? ` data-owner="${own.seat}"` : ''}${act}>` +
      `<title>${esc(title.join(' · '))}</title>${ring}` +
      `<rect x="${f1(lx - LOT / 2)}" y="${f1(ly - LOT / 2)}" width="${LOT}" height="${LOT}" rx="3"/>${inner}</g>`;
  }

  const svgCls = ['pd-svg', wide ? 'wide' : 'tall'];
  if (busy) svgCls.push('busy');
  if (pv) svgCls.push('previewing');
  if (views.get(key).k > 1) svgCls.push('zoomed');
  const full = P.vb;
  const svg = `<svg id="delivery-svg" class="${svgCls.join(' ')}" viewBox="${vb.map(f1).join(' ')}" role="group"` +
    ` aria-label="${esc(map.name || 'the map')}" data-route="${pv && pv.route ? pv.route.length : ''}" data-zoom="${f1(views.get(key).k)}"` +
    '>' +
    `<rect class="pd-water" x="${full[0]}" y="${full[1]}" width="${full[2]}" height="${full[3]}"/>` +
    `<g class="pd-tiles">${tiles}</g><g class="pd-roads">${roads}</g>` +
    `<g class="pd-subway">${subway}</g><g class="pd-docks">${docks}</g><g class="pd-route-line">${routeSvg}</g>` +
    `<g class="pd-doors">${doors}</g><g class="pd-zones-rings">${zones}</g><g class="pd-spaces">${spaces}</g>` +
    `<g class="pd-lots">${lots}</g><g class="pd-pin-stalks">${stalks}</g><g class="pd-pins">${pins}</g><g class="pd-recent-tags">${recentTags}</g>` +
    `<g class="pd-vlabels">${labels}</g></svg>`;
  const zoom = '<span class="pd-zoom" role="group" aria-label="Zoom the map">' +
    '<button type="button" class="secondary" data-zoom="in" aria-label="Zoom in" title="Zoom in (or the mouse wheel, or pinch)">+</button>' +
    '<button type="button" class="secondary" data-zoom="out" aria-label="Zoom out" title="Zoom out">−</button>' +
    '<button type="button" class="secondary" data-zoom="reset" title="The whole map">Reset</button></span>';
  // the cards name villages by their code
  const villages = map.villages.map((vl, i) => `<span class="pd-vkey"><span class="pd-vtag pd-v${i}">${esc(vl.code)}</span> ${esc(vl.name)}</span>`).join(' ');
  const legend = `<p class="pd-villages">${villages}</p>` + '<p class="pd-legend muted"><span class="pd-key lot">$</span> lot and its price · ' +
    '<span class="pd-key pz">2</span> pizzeria: reputation, disks · ' +
    '<span class="pd-key zone"></span> delivery zone · <span class="pd-key pin">1</span> order · ' +
    '<span class="pd-key red">S</span><span class="pd-key blue">S</span> subway · <span class="pd-key park"></span> Park Path · ' +
    '<span class="pd-key dock"></span> dock · drag to pan</p>';
  return `<div class="pd-head"><h2>${esc(map.name || 'Manhattan')}</h2>${zoom}</div>` +
    `<div class="pd-map">${svg}</div>${recentWordsHtml(ctx, recent)}${legend}`;
}

// ---- Zoom and pan: the events ----

const ZOOM_STEP = 1.5;

function setZoom(svg, z) {
  const vb = zoomedBox(shown.vb, z);
  svg.setAttribute('viewBox', vb.map(f1).join(' '));
  svg.dataset.zoom = f1(z.k);
  svg.classList.toggle('zoomed', z.k > 1);
}

// Zoom by `f` keeping the map point under (clientX, clientY) where it is.
function zoomAt(svg, f, clientX, clientY) {
  const z = views.get(shown.key);
  if (!z) return;
  const r = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const px = vb.x + ((clientX - r.left) / r.width) * vb.width;
  const py = vb.y + ((clientY - r.top) / r.height) * vb.height;
  const k = Math.min(MAX_ZOOM, Math.max(1, z.k * f));
  const g = z.k / k; // how much of the old distance to the point stays
  z.cx = px + (z.cx - px) * g;
  z.cy = py + (z.cy - py) * g;
  z.k = k;
  setZoom(svg, z);
}

function panBy(svg, dx, dy) {
  const z = views.get(shown.key);
  if (!z) return;
  const r = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  z.cx -= (dx / r.width) * vb.width;
  z.cy -= (dy / r.height) * vb.height;
  setZoom(svg, z);
}

// The board's events, once (its content is redrawn on every view): the
// buttons, the wheel, a drag to pan, two fingers to pinch. A drag is not a
// click: the click that ends it does not reach the lots. `redraw` draws the
// table again (when the screen turns between wide and narrow).
export function wireMap(board, redraw) {
  const svgOf = () => board.querySelector('#delivery-svg');
  const down = new Map(); // pointer id -> {x, y}
  let drag = null;        // {x, y, moved}
  let pinch = null;       // distance between the two fingers
  let swallow = false;    // the next click ends a drag
  board.addEventListener('click', (ev) => {
    if (swallow) { swallow = false; ev.stopPropagation(); ev.preventDefault(); return; }
    const b = ev.target.closest('[data-zoom]');
    const svg = svgOf();
    if (!b || !svg || b === svg) return;
    const z = views.get(shown.key);
    if (!z) return;
    if (b.dataset.zoom === 'reset') Object.assign(z, { k: 1 });
    const r = svg.getBoundingClientRect();
    if (b.dataset.zoom === 'reset') setZoom(svg, z);
    else zoomAt(svg, b.dataset.zoom === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP, r.left + r.width / 2, r.top + r.height / 2);
  }, true);
  board.addEventListener('wheel', (ev) => {
    const svg = svgOf();
    if (!svg || !svg.contains(ev.target)) return;
    // scrolling down over the whole map scrolls the page
    if (ev.deltaY > 0 && (views.get(shown.key)?.k ?? 1) <= 1) return;
    ev.preventDefault();
    zoomAt(svg, Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.002)), ev.clientX, ev.clientY);
  }, { passive: false });
  board.addEventListener('pointerdown', (ev) => {
    const svg = svgOf();
    if (!svg || !svg.contains(ev.target) || (ev.pointerType === 'mouse' && ev.button !== 0)) return;
    down.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (down.size === 1) drag = { x: ev.clientX, y: ev.clientY, moved: false };
    if (down.size === 2) {
      const [a, b] = [...down.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  board.addEventListener('pointermove', (ev) => {
    const svg = svgOf();
    const p = down.get(ev.pointerId);
    if (!svg || !p) return;
    if (down.size === 2 && pinch) {
      p.x = ev.clientX; p.y = ev.clientY;
      const [a, b] = [...down.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (d > 0) zoomAt(svg, d / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch = d;
      if (drag) drag.moved = true;
      return;
    }
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      // the board keeps the pointer while it drags, even if the map is redrawn under it
      try { board.setPointerCapture(ev.pointerId); } catch { /* the pointer is gone */ }
    }
    panBy(svg, dx, dy);
    drag.x = ev.clientX; drag.y = ev.clientY;
  });
  const up = (ev) => {
    if (!down.delete(ev.pointerId)) return;
    if (down.size < 2) pinch = null;
    if (down.size === 0) {
      if (drag && drag.moved && ev.type === 'pointerup') {
        swallow = true;
        setTimeout(() => { swallow = false; }, 0); // no click came (released off the board)
      }
      drag = null;
    }
  };
  board.addEventListener('pointerup', up);
  board.addEventListener('pointercancel', up);
  if (typeof window !== 'undefined' && window.matchMedia) window.matchMedia(WIDE).addEventListener('change', redraw);
}
