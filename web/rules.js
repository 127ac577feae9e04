// rules.js -- the rules text of each game (docs/nyslice-rules.md,
// docs/theory-rules.md and docs/delivery-rules.md, served under /docs), split
// into its "## topic" sections, told for clicks rather than typing, and the
// ones that matter right now.
import { esc, specialName } from './tokens.js';

const games = new Map();   // game -> {sections: Map topic -> text, or null while loading; loading}

// Which section explains each phase of each game.
const PHASE_TOPIC = {
  nyslice: {
    dibs: 'dibs', divide: 'divide', 'cut-in-line': 'cut-in-line', sneak: 'sneak-a-slice',
    take: 'take', place: 'place', 'eat-or-keep': 'place', attach: 'supreme',
    seconds: 'seconds', over: 'scoring',
  },
  theory: { place: 'add', neutral: 'two-players', cut: 'cut', over: 'end' },
  delivery: {
    keep: 'setup', start: 'turn', market: 'market', reputation: 'reputation', pay: 'reputation',
    supply: 'deliver', distance: 'distance', tip: 'powers', arrange: 'powers', bonus: 'powers', after: 'turn',
    discard: 'turn', fine: 'inspector', block: 'powers', farm: 'powers', copy: 'powers', over: 'end',
    transfer: 'turn', instant: 'instant', tax: 'instant', promotion: 'turn',
  },
};

export function parseRules(md) {
  const map = new Map();
  let topic = null, lines = [];
  const flush = () => { if (topic) map.set(topic, lines.join('\n').trim()); };
  for (const line of md.split('\n')) {
    const m = /^##\s+(.+?)\s*$/.exec(line);
    if (m) { flush(); topic = m[1].toLowerCase(); lines = []; } else if (topic) lines.push(line);
  }
  flush();
  return map;
}

// Where the server may keep the text: its docs directory (pizzabox serve
// mounts docs/ at /docs), else (New York Slice) /rules.md.
const PLACES = {
  nyslice: ['docs/nyslice-rules.md', 'rules.md'],
  theory: ['docs/theory-rules.md'],
  delivery: ['docs/delivery-rules.md'],
};

async function fetchFirst(urls) {
  for (const url of urls) {
    try {
      const r = await fetch(url, { cache: 'no-cache' });
      if (r.ok) return await r.text();
    } catch { /* try the next place */ }
  }
  return '';
}

function sectionsOf(game) {
  const g = games.get(game);
  return g ? g.sections : null;
}

// Fetch a game's rules once; onReady runs when the text is here (or could not be had).
export function loadRules(onReady, game = 'nyslice') {
  let g = games.get(game);
  if (!g) {
    g = { sections: null, loading: null };
    games.set(game, g);
    g.loading = fetchFirst(PLACES[game] || []).then((md) => { g.sections = parseRules(md); });
  }
  g.loading.then(onReady);
}

// Whether a game's rules have been asked for.
export function rulesAsked(game) {
  return games.has(game);
}

// The rules files are the terminal's too (`rules TOPIC`), where moves are
// typed. In the browser they are clicked: what to type goes, and a line on
// what to click comes first.
const TYPED_SENTENCE = /^Type\b|\btype\b[^.]*`|\bAt the terminal\b|\bthe terminal\b|What you can type/i;

function forTheBrowser(para) {
  const flat = para.replace(/(\w-)\s*\n\s*(?=\w)/g, '$1').replace(/\s*\n\s*/g, ' ');
  // Asides that only give the notation: "(`dibs 4` or `pass`)", "(see `rules distance`)".
  const noAsides = flat.replace(/\s*\((?:[^()]|\([^()]*\))*`(?:[^()]|\([^()]*\))*\)/g, '');
  // Sentences, and the clause after a colon that starts with a command.
  const parts = noAsides.split(/(?<=[.!?])\s+(?=[A-Z(`])|(?<=:)\s+(?=`)/);
  // A command with its arguments (`play power:x on 2`) is typing too.
  const typed = (x) => TYPED_SENTENCE.test(x) || (x.match(/`[^`]+`/g) || []).some((c) => /\s/.test(c));
  const kept = [];
  for (const x of parts) {
    if (!typed(x)) kept.push(x);
    else if (kept.length && kept[kept.length - 1].endsWith(':')) kept.push(kept.pop().replace(/:$/, '.'));
  }
  // One-word names of choices stay, as words: "disk discards it for ...".
  return kept.join(' ').replace(/`([^`]+)`/g, '“$1”').replace(/\s+([,.;])/g, '$1').trim();
}

function toHtml(text, how) {
  const paras = text.split(/\n\s*\n/).map(forTheBrowser).filter(Boolean);
  const lead = how ? `<p class="rule-how">${esc(how)}</p>` : '';
  return lead + paras.map((p) => `<p>${esc(p)}</p>`).join('');
}

// What to click, per game and topic (the browser's side of the rules).
const HOW = {
  nyslice: {
    divide: 'The Slicer clicks the gaps between slices to cut, clicks a slice to put the Special with its portion (or the ' +
      'middle for the Special alone), then presses Divide. Even cuts spreads the cuts.',
    take: 'Click a portion on the pizza, or in the list under it, to take it.',
    place: 'Click the slices you want to eat (only the edible ones can be chosen), then press the button under them: ' +
      'the others are collected.',
    supreme: 'When there is a choice, click the type to attach the Supreme to.',
    'combo-craving': 'Each slice is offered in turn: click Eat or Keep.',
    'you-love-veggies': 'Each slice is offered in turn: click Eat or Keep.',
    'cut-in-line': 'When it is offered, click Cut in Line to choose first, or Wait your turn.',
    dibs: 'When it is offered, click the slice to take (Dibs! on …), or No Dibs! now.',
    seconds: 'Click the type to eat, then Eat or Keep for each slice; or No Seconds.',
    'sneak-a-slice': 'When it is offered, click the slice to move and where, or No sneaking.',
  },
  theory: {
    add: 'Click a highlighted space to put your topping there.',
    cut: 'Click one of the lines of your side on the board, or its number under Your cut.',
    'two-players': 'The first player places the neutral topping: click a highlighted space next to the die’s line.',
  },
  delivery: {
    turn: 'Click Market, Reputation, or an order and one of your pizzerias to deliver.',
    market: 'Click a card of the open market, or the deck.',
    reputation: 'Click a lot on the map to build there, or one of your pizzerias to upgrade it, then the cards to use.',
    deliver: 'Click an order (its pin on the map, or in the list), then one of your pizzerias: the route is drawn on the ' +
      'map; then click the delivery button.',
    powers: 'Point at a power card (or tap it) to read it; click a playable one to play it.',
  },
};

// Sections that are nothing but what to type.
const TYPED_ONLY = { delivery: new Set(['notation']) };

function title(game, topic) {
  const names = TOPIC_NAMES[game] || {};
  if (topic in names) return names[topic];
  return game === 'nyslice' ? specialName(topic).replace(/\*$/, '') : topic.replace(/-/g, ' ');
}

const TOPIC_NAMES = {
  nyslice: {
    overview: 'Overview', setup: 'Setup', divide: 'Dividing the pizza', take: 'Taking a portion',
    place: 'Eating or collecting', scoring: 'Scoring', supreme: 'The Supreme', combo: 'Combo slices',
    anchovy: 'The Anchovy slice',
  },
  theory: {
    overview: 'Overview', setup: 'Setup', add: 'Adding toppings', cut: 'Cutting', slices: 'Slices',
    safety: 'Safety', end: 'The end', 'two-players': 'Two players',
  },
};

function section(game, topic, open) {
  const sections = sectionsOf(game);
  const text = sections && sections.get(topic);
  if (!text || (TYPED_ONLY[game] && TYPED_ONLY[game].has(topic))) return '';
  return `<details class="rule" data-topic="${esc(topic)}"${open ? ' open' : ''}>` +
    `<summary>${esc(title(game, topic))}</summary>${toHtml(text, (HOW[game] || {})[topic])}</details>`;
}

// The sections for now: the phase's, the Special of the round's (New York
// Slice), how the slices are settled while cutting (Pizza Theory).
export function rulesNow(phase, todaySlug, game = 'nyslice') {
  const sections = sectionsOf(game);
  if (!sections) return '<p class="muted">Loading the rules…</p>';
  if (!sections.size) return '<p class="muted">The rules text is not available.</p>';
  const topics = [(PHASE_TOPIC[game] || {})[phase] || 'overview'];
  if (todaySlug && !topics.includes(todaySlug)) topics.push(todaySlug);
  if (game === 'theory' && phase === 'cut') topics.push('slices');
  return topics.map((t) => section(game, t, true)).join('');
}

export function rulesAll(game = 'nyslice') {
  const sections = sectionsOf(game);
  if (!sections || !sections.size) return '';
  return [...sections.keys()].map((t) => section(game, t, false)).join('');
}

// The plain text of one topic (a Special's, by its slug), or '' before the rules are here.
export function ruleText(game, topic) {
  const sections = sectionsOf(game);
  const text = sections && sections.get(topic);
  return text ? text.replace(/\s*\n\s*/g, ' ').replace(/`([^`]+)`/g, '$1') : '';
}
