// tokens.js -- slice tokens (docs/records.md) read and drawn as HTML, the
// Specials' names, the action notation turned into words for the log, and
// the moves that just happened (for every game's highlights).

export const MIN_TYPE = 3;
export const MAX_TYPE = 11;

// The Specials by slug (games/nyslice/deck.c); `scored` ones carry a star.
export const SPECIALS = {
  'buffet': 'Buffet*',
  'combo-craving': 'Combo Craving*',
  'cut-in-line': 'Cut in Line',
  'day-old-pizza': 'Day-Old Pizza*',
  'dibs': 'Dibs!',
  'everyone-else-diet': 'The Everyone-Else Diet*',
  'mystery-slice': 'Mystery Slice',
  'seconds': 'Seconds',
  'sneak-a-slice': 'Sneak-a-Slice',
  'stuffed-crust': 'Stuffed Crust*',
  'supersize-combos': 'Supersize Combos',
  'tiebreaker': 'Tiebreaker',
  'you-like-anchovies': 'You Like Anchovies!',
  'you-love-veggies': 'You Love Veggies*',
};

export function specialName(slug) {
  return SPECIALS[slug] || slug;
}

// The printed texts the server gives once per table (`glossary` of `joined`
// and `watching`): slug -> {name, text, scored}. Views name Specials by slug.
const glossary = new Map();

export function learnGlossary(entries) {
  for (const [slug, entry] of Object.entries(entries || {})) glossary.set(slug, entry);
}

export function glossaryEntry(slug) {
  return glossary.get(slug) || null;
}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Everything a person or the server wrote goes through this before innerHTML.
export function esc(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

// What a token says: kind 'num' | 'combo' | 'anchovy' | 'supreme' | 'hidden'.
export function parseToken(tok) {
  if (tok == null || tok === '?') return { kind: 'hidden', pep: 0, anch: 0 };
  if (tok === 'mystery') return { kind: 'mystery', pep: 0, anch: 0 }; // the notation's name for it: `eat mystery`
  if (tok === 'A') return { kind: 'anchovy', pep: 0, anch: 3 };
  let m = /^S(?:@(\d+))?$/.exec(tok);
  if (m) return { kind: 'supreme', pep: 2, anch: 0, attached: m[1] ? Number(m[1]) : null };
  m = /^c(\d+)\/(\d+)$/.exec(tok);
  if (m) return { kind: 'combo', low: Number(m[1]), high: Number(m[2]), pep: 0, anch: 0 };
  m = /^(\d+)(?:p(\d+))?(?:a(\d+))?$/.exec(tok);
  if (m) return { kind: 'num', type: Number(m[1]), pep: Number(m[2] || 0), anch: Number(m[3] || 0) };
  return { kind: 'hidden', pep: 0, anch: 0 };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// A token in words, for tooltips: "9 Pepperoni, 2 pepperonis, 1 anchovy".
export function tokenWords(tok, typeNames = {}) {
  const t = parseToken(tok);
  const name = (k) => (typeNames[k] ? `${k} ${typeNames[k]}` : `${k}`);
  switch (t.kind) {
    case 'hidden': return 'a hidden slice';
    case 'mystery': return 'the Mystery slice';
    case 'anchovy': return 'the Anchovy slice (3 anchovies)';
    case 'supreme': return t.attached ? `the Supreme, attached to ${name(t.attached)}` : 'the Supreme (2 pepperonis)';
    case 'combo': return `a Combo of ${name(t.low)} and ${name(t.high)}`;
    default: {
      const bits = [name(t.type)];
      if (t.pep) bits.push(plural(t.pep, 'pepperoni'));
      if (t.anch) bits.push(t.anch === 1 ? '1 anchovy' : `${t.anch} anchovies`);
      return bits.join(', ');
    }
  }
}

// A token as a small chip: type number, red dots for pepperonis, blue fish for anchovies.
export function chip(tok, typeNames) {
  const t = parseToken(tok);
  const title = esc(tokenWords(tok, typeNames));
  const dots = '<i class="pep"></i>'.repeat(t.pep) + '<i class="fish"></i>'.repeat(t.anch);
  let label;
  switch (t.kind) {
    case 'hidden': label = '?'; break;
    case 'mystery': label = 'Mystery'; break;
    case 'anchovy': label = 'A'; break;
    case 'supreme': label = t.attached ? `S→${t.attached}` : 'S'; break;
    case 'combo': label = `${t.low}/${t.high}`; break;
    default: label = String(t.type);
  }
  return `<span class="tok tok-${t.kind}" data-token="${esc(tok)}" title="${title}">` +
    `<b>${esc(label)}</b>${dots}</span>`;
}

export function chips(list, typeNames) {
  return (list || []).map((tok) => chip(tok, typeNames)).join(' ');
}

// ---- Collections: counts per type in half slices (a Combo is half of each) ----

export function holds(player, slug) {
  return (player.specials || []).some((s) => s.slug === slug);
}

// count2[type] in half slices and the anchovies kept, as the Guest Check counts them.
export function tally(player) {
  const count2 = {};
  let anch = 0;
  const supersize = holds(player, 'supersize-combos');
  const add = (type, halves) => {
    if (type >= MIN_TYPE && type <= MAX_TYPE) count2[type] = (count2[type] || 0) + halves;
  };
  for (const tok of player.collected || []) {
    const t = parseToken(tok);
    if (t.kind === 'num') add(t.type, 2);
    else if (t.kind === 'supreme' && t.attached) add(t.attached, 2);
    else if (t.kind === 'combo') { add(t.low, supersize ? 4 : 1); add(t.high, supersize ? 4 : 1); }
    anch += t.anch;
  }
  return { count2, anch };
}

// For each player and type: '*' scores the type (alone on top, or tied holding
// Tiebreaker), '=' tied on top without it, '' otherwise.
export function leadMarks(players) {
  const tallies = players.map(tally);
  const marks = players.map(() => ({}));
  for (let k = MIN_TYPE; k <= MAX_TYPE; k++) {
    const best = Math.max(0, ...tallies.map((t) => t.count2[k] || 0));
    if (!best) continue;
    const top = players.map((_, p) => (tallies[p].count2[k] || 0) === best);
    const nTop = top.filter(Boolean).length;
    const breaker = players.findIndex((pl, p) => top[p] && holds(pl, 'tiebreaker'));
    players.forEach((_, p) => {
      if (!top[p]) return;
      if (nTop === 1 || breaker === p) marks[p][k] = '*';
      else if (breaker < 0) marks[p][k] = '=';
    });
  }
  return { tallies, marks };
}

// A count in half slices as people write it: "1", ".5", "1.5".
export function halfText(count2) {
  if (!count2) return '–';
  if (count2 % 2 === 0) return String(count2 / 2);
  return count2 === 1 ? '½' : `${Math.floor(count2 / 2)}½`;
}

// ---- The log: notation (as this seat may see it) in words ----

function list(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// One logged action as HTML, e.g. "Ann cut after 2, 5 and 9; the Special goes with 3".
export function actionWords(text, who, typeNames) {
  const w = String(text || '').trim().split(/\s+/);
  const verb = (w[0] || '').toLowerCase();
  const name = `<b>${esc(who)}</b>`;
  const type = (k) => esc(typeNames && typeNames[k] ? `${k} ${typeNames[k]}` : k);
  const chipList = (toks) => list(toks.map((t) => chip(t, typeNames)));
  if (verb === 'pass') return `${name} passed`;
  if (verb === 'dibs') return `${name} called Dibs! on the slice at ${esc(w[1])}`;
  if (verb === 'cut-in-line') return `${name} cut in line`;
  if (verb === 'sneak') return `${name} sneaked the slice at ${esc(w[1])} into ${portionWords(w[3])}`;
  if (verb === 'cut' || verb === 'special') return divideWords(w, name);
  if (verb === 'take') {
    return w[1] === 'special' ? `${name} took the Special alone` : `${name} took ${portionWords(w[1])}`;
  }
  if (verb === 'collect' || (verb === 'eat' && w[1] === 'none')) return `${name} collected everything`;
  if (verb === 'eat' && w.length === 1) return `${name} ate the slice offered`;
  if (verb === 'keep') return `${name} kept ${w[1] ? chip(w[1], typeNames) : 'the slice offered'}`;
  if (verb === 'eat') return `${name} ate ${chipList(w.slice(1))}`;
  if (verb === 'attach') return `${name} attached the Supreme to ${type(w[1])}`;
  if (verb === 'seconds') return `${name} chose Seconds on ${type(w[1])}`;
  return `${name}: ${esc(text)}`;
}

// A portion as the log names it: by its letter ("take B"); records written
// before letters name it by a position it holds ("take 6").
function portionWords(p) {
  return /^[A-Za-z]$/.test(p || '') ? `portion ${esc(p.toUpperCase())}` : `the portion holding ${esc(p)}`;
}

function divideWords(w, name) {
  const at = w.findIndex((x) => x.toLowerCase() === 'special');
  const cuts = w.slice(1, at < 0 ? w.length : at);
  const where = at >= 0 ? w[at + 1] : '';
  const spec = where === 'alone' ? 'the Special is a portion of its own'
    : `the Special goes with the portion holding ${esc(where)}`;
  if (w[0].toLowerCase() === 'special') return `${name} divided: the whole pizza, and ${spec}`;
  return `${name} cut after ${esc(list(cuts))}; ${spec}`;
}

// ---- What just happened ----

// The log with each entry's move number (from 0), as newer servers send it.
export function numberedLog(msg) {
  const log = msg.log || [];
  const first = Math.max(0, (msg.moves || log.length) - log.length);
  return log.map((e, i) => (Number.isInteger(e.move) ? e : { ...e, move: first + i }));
}

// The log entries a seat has not answered yet: the others' moves since its
// own last one (all of the log's when it has none there). A spectator, or a
// replay, sees the last player's last moves (a Delivery turn is several).
// Each game's board marks what they did.
export function recentMoves(ctx) {
  const log = numberedLog(ctx.msg);
  const byPlayer = (e) => Number.isInteger(e.seat) && e.seat >= 0;
  if (ctx.seat == null) {
    const players = log.filter(byPlayer);
    const last = players.length ? players[players.length - 1].seat : null;
    let k = players.length;
    while (k > 0 && players[k - 1].seat === last) k--;
    return players.slice(k);
  }
  let i = log.length;
  while (i > 0 && log[i - 1].seat !== ctx.seat) i--;
  return log.slice(i).filter((e) => byPlayer(e) && e.seat !== ctx.seat);
}
