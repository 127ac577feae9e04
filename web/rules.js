// rules.js -- the rules text (docs/nyslice-rules.md, served as /rules.md),
// split into its "## topic" sections, and the ones that matter right now.
import { esc, specialName } from './tokens.js';

let sections = null;   // Map topic -> text, once loaded
let loading = null;

// Which section explains each phase of the game.
const PHASE_TOPIC = {
  dibs: 'dibs', divide: 'divide', 'cut-in-line': 'cut-in-line', sneak: 'sneak-a-slice',
  take: 'take', place: 'place', 'eat-or-keep': 'place', attach: 'supreme',
  seconds: 'seconds', over: 'scoring',
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
// mounts docs/ at /docs), else /rules.md.
const PLACES = ['docs/nyslice-rules.md', 'rules.md'];

async function fetchFirst(urls) {
  for (const url of urls) {
    try {
      const r = await fetch(url, { cache: 'no-cache' });
      if (r.ok) return await r.text();
    } catch { /* try the next place */ }
  }
  return '';
}

// Fetch once; onReady runs when the text is here (or could not be had).
export function loadRules(onReady) {
  if (!loading) loading = fetchFirst(PLACES).then((md) => { sections = parseRules(md); });
  loading.then(onReady);
}

// Paragraphs, with `code` kept as code.
function toHtml(text) {
  return text.split(/\n\s*\n/).map((para) => {
    const html = esc(para.replace(/\s*\n\s*/g, ' ')).replace(/`([^`]+)`/g, '<code>$1</code>');
    return `<p>${html}</p>`;
  }).join('');
}

function title(topic) {
  if (topic in PHASE_NAMES) return PHASE_NAMES[topic];
  return specialName(topic).replace(/\*$/, '');
}

const PHASE_NAMES = {
  overview: 'Overview', setup: 'Setup', divide: 'Dividing the pizza', take: 'Taking a portion',
  place: 'Eating or collecting', scoring: 'Scoring', supreme: 'The Supreme', combo: 'Combo slices',
  anchovy: 'The Anchovy slice',
};

function section(topic, open) {
  const text = sections && sections.get(topic);
  if (!text) return '';
  return `<details class="rule" data-topic="${esc(topic)}"${open ? ' open' : ''}>` +
    `<summary>${esc(title(topic))}</summary>${toHtml(text)}</details>`;
}

// The sections for now: the phase's, the Special of the round's.
export function rulesNow(phase, todaySlug) {
  if (!sections) return '<p class="muted">Loading the rules…</p>';
  if (!sections.size) return '<p class="muted">The rules text is not available.</p>';
  const topics = [PHASE_TOPIC[phase] || 'overview'];
  if (todaySlug && !topics.includes(todaySlug)) topics.push(todaySlug);
  return topics.map((t) => section(t, true)).join('');
}

export function rulesAll() {
  if (!sections || !sections.size) return '';
  return [...sections.keys()].map((t) => section(t, false)).join('');
}
