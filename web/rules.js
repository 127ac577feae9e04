// rules.js -- the rules text of each game (docs/nyslice-rules.md and
// docs/theory-rules.md, served under /docs), split into its "## topic"
// sections, and the ones that matter right now.
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
    transfer: 'turn', instant: 'instant', tax: 'instant',
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

// Paragraphs, with `code` kept as code.
function toHtml(text) {
  return text.split(/\n\s*\n/).map((para) => {
    // Typing hints for the terminal ("At the terminal type ...") are not for the browser.
    const words = para.replace(/(\w-)\s*\n\s*(?=\w)/g, '$1').replace(/\s*\n\s*/g, ' ')
      .replace(/\s*At the terminal[^.]*\.(?=\s|$)/g, '');
    const html = esc(words).replace(/`([^`]+)`/g, '<code>$1</code>');
    return `<p>${html}</p>`;
  }).join('');
}

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
  if (!text) return '';
  return `<details class="rule" data-topic="${esc(topic)}"${open ? ' open' : ''}>` +
    `<summary>${esc(title(game, topic))}</summary>${toHtml(text)}</details>`;
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
