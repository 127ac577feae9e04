// log.js -- the whole log of a table: every move in words, from the first.
// A `view` carries only the last moves (docs/protocol.md); the `history`
// answer carries them all. Both are merged here by each entry's `move`
// index, with the table's `events` (a seat handed to a bot, out of time, the
// bots that filled free seats, a decision taken back) shown at their move.
// Each game's own logHtml puts a move in words; this module orders them.
import { esc } from './tokens.js';

const tables = new Map(); // code -> {entries: Map(move -> entry), events: Map(key -> event)}
const asked = new Set();  // codes whose history this connection has asked for

function table(code) {
  let t = tables.get(code);
  if (!t) {
    t = { entries: new Map(), events: new Map(), words: new Map() }; // words: move -> {key, html}
    tables.set(code, t);
  }
  return t;
}

// Entries without a `move` (an older server) count back from `moves`.
function mergeEntries(t, log, moves) {
  if (!Array.isArray(log)) return;
  const first = Math.max(0, (moves ?? log.length) - log.length);
  log.forEach((e, i) => {
    if (!e || typeof e !== 'object') return;
    const move = Number.isInteger(e.move) ? e.move : first + i;
    t.entries.set(move, { ...e, move }); // the newest telling wins (a secret revealed later)
  });
}

const eventKey = (e) => `${e.move}\u0001${e.seat}\u0001${e.text}`;

function mergeEvents(t, events) {
  if (!Array.isArray(events)) return;
  for (const e of events) {
    if (e && Number.isInteger(e.move) && typeof e.text === 'string') t.events.set(eventKey(e), e);
  }
}

// Moves taken back (undo) leave the record: so do their entries and what came after.
function forgetAfter(t, moves) {
  for (const m of t.entries.keys()) if (m >= moves) t.entries.delete(m);
  for (const [k, e] of t.events) if (e.move > moves) t.events.delete(k);
}

// A `view`: its recent log and events. True when the table's history
// should be asked for (once per connection and table).
export function logFromView(msg) {
  const t = table(msg.code);
  if (Number.isInteger(msg.moves)) forgetAfter(t, msg.moves);
  mergeEntries(t, msg.log, msg.moves);
  mergeEvents(t, msg.events);
  if (asked.has(msg.code)) return false;
  asked.add(msg.code);
  return true;
}

// The `history` answer: every entry from move 0.
export function logFromHistory(msg) {
  const t = table(msg.code);
  mergeEntries(t, msg.log, Array.isArray(msg.log) ? msg.log.length : 0);
  mergeEvents(t, msg.events);
}

// The entries known of a table's log (all of them once its history came), in no order.
export function logEntries(code) {
  const t = tables.get(code);
  return t ? [...t.entries.values()] : [];
}

// A new connection: ask again (moves may have come while we were away).
export function logConnectionReset() {
  asked.clear();
}

// The <li> items of the log. `gameLog(ctx)` is the game's logHtml, which
// words the entries of ctx.msg.log; `replay` ({step, log, events}) limits
// the log to the moves before the step shown. `tagOf(move)`: HTML put after
// an entry's words (analysis.js: a reviewed move's mark), or ''.
// newsHtml(ctx, text): a game's news as HTML (its slices as chips), or null: the text as it is.
export function logItemsHtml(ctx, gameLog, replay, tagOf = null, newsHtml = null) {
  const t = table(ctx.code);
  let entries = [...t.entries.values()];
  let events = [...t.events.values()];
  let end = Number.isInteger(ctx.msg.moves) ? ctx.msg.moves : Infinity;
  if (replay) {
    end = replay.step;
    if (Array.isArray(replay.log)) {
      const r = { entries: new Map(), events: new Map() };
      mergeEntries(r, replay.log, replay.step);
      mergeEvents(r, replay.events);
      entries = [...r.entries.values()];
      if (Array.isArray(replay.events)) events = [...r.events.values()];
    }
  }
  entries = entries.filter((e) => e.move < end).sort((a, b) => a.move - b.move);
  events = events.filter((e) => e.move <= end).sort((a, b) => a.move - b.move);
  const out = [];
  let k = 0;
  const eventsUpTo = (move) => {
    for (; k < events.length && events[k].move <= move; k++) {
      out.push(`<li class="log-event" data-move="${events[k].move}">${esc(events[k].text)}</li>`);
    }
  };
  // A long game's log is worded once: each entry again only when it (or a name) changed.
  const names = (ctx.msg.names || []).join('\u0001');
  for (const e of entries) {
    eventsUpTo(e.move); // an event at move m happened after m moves: before entry m
    const key = `${e.seat}\u0001${e.text}\u0001${e.news || ''}\u0001${names}`;
    let w = t.words.get(e.move);
    if (!w || w.key !== key) t.words.set(e.move, (w = { key, html: entryHtml(ctx, gameLog, e, newsHtml) }));
    const tag = tagOf ? tagOf(e.move) : '';
    out.push(tag ? w.html.replace(/(<div class="news">[\s\S]*)?<\/li>$/, (rest) => tag + rest) : w.html);
  }
  eventsUpTo(Infinity);
  return out.length ? out.join('') : '<li class="log-empty muted">No moves yet.</li>';
}

// One move in the game's words, then its news (told alike for every game).
function entryHtml(ctx, gameLog, e, newsHtml) {
  const one = { ...e };
  delete one.news;
  const li = gameLog({ ...ctx, msg: { ...ctx.msg, log: [one], moves: e.move + 1 } });
  const news = e.news ? `<div class="news">${newsHtml ? newsHtml(ctx, e.news) : esc(e.news)}</div>` : '';
  return li.replace(/<\/li>\s*$/, `${news}</li>`).replace(/^<li /, `<li data-move="${e.move}" `);
}
