// app.js -- the pizzabox browser client: the lobby, a table, and the one
// WebSocket they share (docs/protocol.md). Pages are hash routes: `#/` is the
// lobby, `#/t/CODE` a table. The seat token of every table joined here is
// kept in localStorage, so a reload (or a dropped connection) sends `resume`
// and comes back to the same seat. A table is drawn by its view's `game`:
// New York Slice with table.js and ring.js, Pizza Theory with theory.js,
// New York Pizza Delivery with delivery.js.
import { Connection } from './net.js';
import { seatSelects, tablesHtml, playerOptions, gameName, gameAbout, GAMES } from './lobby.js';
import * as T from './table.js';
import * as TH from './theory.js';
import * as DL from './delivery.js';
import { nextQueued, thenMoves } from './queue.js';
import { renderRing } from './ring.js';
import { loadRules, rulesAsked, rulesNow, rulesAll } from './rules.js';
import { esc, learnGlossary } from './tokens.js';
import { clockFormHtml, wireClockForm, clockFromForm, noteView, decoratePlayers, myClockHtml, startClocks } from './clock.js';
import { initNotify, askPermission, noticeView, noticeTables, tableTitle, lobbyTitle, mineHtml } from './notify.js';
import { wireTips, hideStale } from './tips.js';
import { logFromView, logFromHistory, logConnectionReset, logItemsHtml } from './log.js';
import { initChat, onChat, chatError, renderChat } from './chat.js';
import { initSocial, renderSocial } from './social.js';
import * as AN from './analysis.js';

const $ = (sel) => document.querySelector(sel);
const LIST_EVERY_MS = 4000;
const BUSY_TIMEOUT_MS = 8000;

const state = {
  route: { page: 'lobby' },
  tables: null,            // the last `tables` answer
  views: new Map(),        // code -> the last `view` message
  subscribed: new Set(),   // codes this connection receives views of
  watching: new Set(),     // codes spectated here, to watch again after a reconnect
  resuming: null,          // code of a `resume` not answered yet
  resumeFailed: null,      // code whose `resume` was refused, with the reason
  busy: false,             // an `act` is on its way: no second one until it is answered
  busyTimer: null,
  queue: null,             // moves to send after the one on its way (queue.js): {code, seat, at, moves}
  divide: null,            // the Slicer's draft: {key, cuts: Set, special: null | 'alone' | pos}
  place: null,             // slices chosen to eat: {key, eat: Set of indices}
  replay: null,            // a finished table shown after some move: {code, step, view}
  rulesKey: null,
  codeAsked: null,         // a code typed in "Join by code", not answered yet
  unknownCode: null,       // a shared link's code the server does not know
  replayAsked: null,       // code of a replay link whose first step was asked for
  logShown: null,          // the log's items as drawn, to leave them (and their scroll) alone
};

// ---- localStorage: the name, and {code, seat, token} per table ----

const SEAT_PREFIX = 'pizzabox.seat.';
const WATCH_PREFIX = 'pizzabox.watch.'; // sessionStorage: this tab watches that table

const store = {
  get(key) { try { return localStorage.getItem(key); } catch { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode: no memory */ } },
  remove(key) { try { localStorage.removeItem(key); } catch { /* nothing kept anyway */ } },
  name() { return store.get('pizzabox.name') || ''; },
  setName(name) { store.set('pizzabox.name', name); },
  seat(code) {
    try {
      const s = JSON.parse(store.get(SEAT_PREFIX + code));
      return s && Number.isInteger(s.seat) && typeof s.token === 'string' ? s : null;
    } catch { return null; }
  },
  saveSeat(code, seat, token) { store.set(SEAT_PREFIX + code, JSON.stringify({ code, seat, token })); },
  forget(code) { store.remove(SEAT_PREFIX + code); },
  codes() {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith(SEAT_PREFIX)) out.push(k.slice(SEAT_PREFIX.length));
      }
    } catch { /* none */ }
    return out.sort();
  },
};

// ---- The connection ----

const conn = new Connection({
  onMessage: handleMessage,
  onOpen: () => {
    // A new connection has no tables: ask again for what the page shows.
    state.subscribed.clear();
    state.resuming = null;
    logConnectionReset();
    AN.connectionReset(); // an analysis under way is asked for again once the table is back
    setBusy(false);
    if (state.route.page === 'lobby') requestList();
    else openTable(state.route.code);
  },
  onStatus: (status, retry) => {
    const el = $('#conn');
    el.dataset.state = status;
    el.textContent = status === 'open' ? 'online' : status === 'connecting' ? 'connecting…'
      : `offline — retrying in ${retry}s`;
  },
});

function send(obj) {
  if (conn.send(obj)) return true;
  toast('Not connected to the server: trying again…');
  return false;
}

function requestList() {
  conn.send({ type: 'list' });
}

// ---- Server messages ----

function handleMessage(msg) {
  switch (msg.type) {
    case 'joined': return onJoined(msg);
    case 'watching': return onWatching(msg);
    case 'view': return onView(msg);
    case 'tables': return onTables(msg);
    case 'replay': return onReplay(msg);
    case 'history': return onHistory(msg);
    case 'analysis': return onAnalysisMsg(msg);
    case 'chat': return onChat(msg);
    case 'table': return onPeeked(msg);
    case 'error': return onError(msg);
    default: return undefined; // newer servers may say more; ignore what we do not know
  }
}

function onJoined(msg) {
  codeAnswered();
  learnGlossary(msg.glossary);
  store.saveSeat(msg.code, msg.seat, msg.token);
  state.subscribed.add(msg.code);
  state.watching.delete(msg.code);
  try { sessionStorage.removeItem(WATCH_PREFIX + msg.code); } catch { /* memory only */ }
  if (state.resuming === msg.code) state.resuming = null;
  state.resumeFailed = null;
  goToTable(msg.code);
}

function onWatching(msg) {
  codeAnswered();
  learnGlossary(msg.glossary);
  if (msg.reason) {
    // our seat went to a bot (out of time): we watch now, and are told why
    store.forget(msg.code);
    toast(`${msg.reason} You are watching the table now.`, 'sticky');
  }
  state.watching.add(msg.code);
  try { sessionStorage.setItem(WATCH_PREFIX + msg.code, '1'); } catch { /* memory only */ }
  state.subscribed.add(msg.code);
  goToTable(msg.code);
}

function onView(msg) {
  noteView(msg);
  noticeView(msg);
  state.views.set(msg.code, msg);
  replayLinkOpened(msg);
  if (finished(msg) && AN.wantsAgain(msg.code)) send({ type: 'analyse', code: msg.code });
  state.subscribed.add(msg.code);
  if (logFromView(msg)) conn.send({ type: 'history', code: msg.code }); // the whole log, once
  if (state.resuming === msg.code) state.resuming = null;
  if (state.route.page === 'table' && state.route.code === msg.code) {
    setBusy(false);
    if (sendQueued(msg)) return;
    renderTable();
  }
}

// The next move queued behind a click, when this view allows it (queue.js);
// true when one went (the page stays busy).
function sendQueued(msg) {
  const next = nextQueued(state.queue, msg);
  if (next === 'wait') return false;
  if (!next) { state.queue = null; return false; }
  state.queue = { ...state.queue, at: msg.moves, moves: next.rest };
  if (!send({ type: 'act', code: msg.code, action: next.send })) { state.queue = null; return false; }
  setBusy(true);
  renderTable();
  return true;
}

function onTables(msg) {
  state.tables = Array.isArray(msg.tables) ? msg.tables : [];
  noticeTables(state.tables, seatOf);
  if (state.route.page === 'lobby') renderLobby();
  if (!$('#join-prompt').hidden) {
    // A shared link to a finished table: nothing to join, its replay instead.
    const t = state.tables.find((x) => x.code === state.route.code);
    if (t && t.finished && !store.seat(t.code)) location.replace(`#/t/${encodeURIComponent(t.code)}/replay`);
    else renderPromptInfo();
  } else if (state.route.page === 'table') {
    renderTable(); // a rematch offer names who made it
  }
}

function onReplay(msg) {
  if (state.route.page !== 'table' || state.route.code !== msg.code || !msg.view) return;
  state.replay = { code: msg.code, step: msg.step, view: msg.view, log: msg.log, events: msg.events };
  renderTable();
}

function onAnalysisMsg(msg) {
  AN.onAnalysis(msg);
  if (state.route.page === 'table' && state.route.code === msg.code) renderTable();
}

function onHistory(msg) {
  logFromHistory(msg);
  if (state.route.page === 'table' && state.route.code === msg.code) renderTable();
}

function onError(msg) {
  const text = msg.message || 'the server refused that';
  setBusy(false);
  state.queue = null; // a refused move drops what was queued behind it
  if (state.codeAsked && state.route.page === 'lobby') {
    // "Join by code" is answered under its form ("no table with that code")
    codeMessage(`${state.codeAsked}: ${text}.`);
    state.codeAsked = null;
    return;
  }
  if (state.resuming && /^your seat is played by a bot now/.test(text)) {
    // out of time or handed over while away: the seat is gone, the table is still there to watch
    const code = state.resuming;
    state.resuming = null;
    store.forget(code);
    toast(`${text[0].toUpperCase()}${text.slice(1)}.`, 'sticky');
    send({ type: 'spectate', code, name: store.name() || undefined });
    return;
  }
  if (state.resuming) {
    // Our seat could not be resumed: say why and offer the choices.
    state.resumeFailed = { code: state.resuming, message: text };
    state.resuming = null;
    toast(`Could not return to your seat: ${text}`);
    if (state.route.page === 'table') showJoinPrompt(state.route.code);
    return;
  }
  if (msg.request === 'analyse' && state.route.page === 'table') {
    AN.analysisRefused(state.route.code, text); // said in the Analysis card, by its button
    renderTable();
    return;
  }
  if (msg.request === 'peek') {
    // a shared link to a code nobody has: said on the prompt at once, nothing to join or watch
    state.unknownCode = state.route.code;
    renderPromptInfo();
    return;
  }
  if (!chatError(text, msg.request)) toast(text); // a refused chat line is told under the chat box
  if (state.route.page === 'table') renderTable(); // re-enable the buttons
}

// ---- Routing ----

function parseRoute() {
  const m = /^#\/t\/([^/?#]+)(\/replay)?/.exec(location.hash);
  if (!m) return { page: 'lobby' };
  try {
    return { page: 'table', code: decodeURIComponent(m[1]), replay: Boolean(m[2]) };
  } catch {
    return { page: 'lobby' }; // a broken link: back to the lobby, still connected
  }
}

function goToTable(code) {
  const hash = `#/t/${encodeURIComponent(code)}`;
  const here = state.route.page === 'table' && state.route.code === code; // #/t/CODE/replay too
  if (!here && location.hash !== hash) location.hash = hash; // onRoute follows
  else if (state.views.has(code)) renderTable();
}

function show(page) {
  for (const id of ['lobby', 'join-prompt', 'table']) $(`#${id}`).hidden = id !== page;
}

function onRoute() {
  state.route = parseRoute();
  state.replay = null;
  state.replayAsked = null;
  if (state.route.page === 'lobby') {
    document.title = LOBBY_TITLE;
    $('#subtitle').textContent = 'New York Slice · Pizza Theory · New York Pizza Delivery';
    show('lobby');
    renderLobby();
    requestList();
  } else {
    openTable(state.route.code);
  }
}

// Show a table: subscribed already, or resume our seat, or watch, or ask.
function openTable(code) {
  if (state.subscribed.has(code)) {
    if (state.views.has(code)) { replayLinkOpened(state.views.get(code)); renderTable(); }
    else showLoading(code);
    return;
  }
  const seat = store.seat(code);
  if (seat && !(state.resumeFailed && state.resumeFailed.code === code)) {
    showLoading(code);
    if (conn.send({ type: 'resume', code, seat: seat.seat, token: seat.token })) state.resuming = code;
  } else if (state.watching.has(code) || watchedInThisTab(code) || state.route.replay) {
    showLoading(code);
    conn.send(spectateMsg(code));
  } else {
    showJoinPrompt(code);
  }
}

function watchedInThisTab(code) {
  try { return sessionStorage.getItem(WATCH_PREFIX + code) === '1'; } catch { return false; }
}

function showLoading(code) {
  show('table');
  $('#headline').textContent = `Table ${code}`;
  $('#prompt').textContent = conn.open ? 'Loading…' : 'Connecting to the server…';
}

// ---- The share-link prompt: join or watch a table we have no seat at ----

function showJoinPrompt(code) {
  show('join-prompt');
  $('#prompt-code').textContent = code;
  const name = $('#prompt-name');
  if (!name.value) name.value = store.name();
  state.unknownCode = null;
  renderPromptInfo();
  // Not connected yet (a shared link just opened): the connection's opening
  // shows this prompt again and asks then, so no "not connected" here.
  requestList();
  conn.send({ type: 'peek', code }); // the list may not hold it (old, or past the newest 500)
}

// A shared link's table, as the server knows it: into the list the prompt reads.
function onPeeked(msg) {
  const t = msg.table;
  if (!t || typeof t.code !== 'string') return;
  state.tables = [t, ...(state.tables || []).filter((x) => x.code !== t.code)];
  if (state.route.page === 'table' && state.route.code === t.code) renderPromptInfo();
}

function renderPromptInfo() {
  const code = state.route.code;
  const info = [];
  const failed = state.resumeFailed && state.resumeFailed.code === code ? state.resumeFailed : null;
  const seat = store.seat(code);
  const t = (state.tables || []).find((x) => x.code === code);
  if (failed) info.push(`Your seat here could not be resumed: ${esc(failed.message)}.`);
  if (t) {
    const free = t.seats.filter((s) => (s.player || 'human') === 'human' && !s.taken).length;
    const seated = t.seats.filter((s) => s.taken && s.name).map((s) => s.name).join(', ');
    info.push(`${esc(gameName(t.game))}, ${esc(t.players)} player${t.players === 1 ? '' : 's'}` +
      `${seated ? ` (${esc(seated)})` : ''}, ${t.finished ? 'finished' : free ? `${free} free seat${free === 1 ? '' : 's'}` : 'full: you can watch'}.`);
  }
  const unknown = state.unknownCode === code && !t;
  if (unknown) info.push(`No table has the code ${esc(code)}: check the link, or start a table in the lobby.`);
  let html = info.map((s) => `<span>${s}</span>`).join(' ');
  // a full or finished table is only to watch (the name is still the chat's): no Join that can only be refused
  const full = t && (t.finished || !t.seats.some((s) => (s.player || 'human') === 'human' && !s.taken));
  $('#prompt-join').hidden = Boolean(full) || unknown;
  $('#prompt-watch').hidden = unknown;
  if (seat) {
    html += ` <button type="button" id="prompt-resume" class="small">Return to seat ${seat.seat + 1}</button>` +
      ` <button type="button" id="prompt-forget" class="small secondary">forget that seat</button>`;
  }
  $('#prompt-info').innerHTML = html;
}

function promptJoin() {
  const name = $('#prompt-name').value.trim();
  if (!name) { toast('Type your name first.'); $('#prompt-name').focus(); return; }
  store.setName(name);
  askPermission();
  send({ type: 'join', code: state.route.code, name });
}

// Spectators' chat lines carry the name typed here, when there is one.
function spectateMsg(code) {
  const name = store.name();
  return { type: 'spectate', code, ...(name ? { name } : {}) };
}

function promptWatch() {
  const name = $('#prompt-name').value.trim();
  if (name) store.setName(name);
  const code = state.route.code;
  if (!conn.open) {
    // clicked while the page still connects: watched once it has (onOpen -> openTable)
    state.watching.add(code);
    showLoading(code);
    return;
  }
  send(spectateMsg(code));
}

function promptResume() {
  state.resumeFailed = null;
  openTable(state.route.code);
}

function promptForget() {
  store.forget(state.route.code);
  state.resumeFailed = null;
  renderPromptInfo();
}

// ---- The lobby ----

function renderLobby() {
  const name = $('#name');
  if (!name.value) name.value = store.name();
  showSeats();
  const mine = store.codes();
  $('#mine-card').hidden = !mine.length;
  $('#mine').innerHTML = mineHtml(mine, seatOf);
  document.title = lobbyTitle(mine, seatOf, LOBBY_TITLE);
  if (state.tables) renderTables();
}

const LOBBY_TITLE = 'pizzabox — New York Slice · Pizza Theory · New York Pizza Delivery';

function seatOf(code) {
  const s = store.seat(code);
  return s ? s.seat : null;
}

// A replay link (#/t/CODE/replay) opens a finished table at its end: the
// result first, the moves a click back.
function replayLinkOpened(msg) {
  const r = state.route;
  if (r.page !== 'table' || !r.replay || r.code !== msg.code || state.replayAsked === msg.code || !finished(msg)) return;
  state.replayAsked = msg.code;
  send({ type: 'replay', code: msg.code, step: msg.moves });
}

function renderTables() {
  $('#tables').innerHTML = tablesHtml(state.tables, new Set(store.codes()));
}

// New York Pizza Delivery's co-op difficulty rows (PD-C1, games/delivery/coop.c):
// Blue and Red promotion markers, the pizzas and money goals; 1 is the hardest.
const COOP_ROWS = [[8, 10, 36, 75], [9, 11, 34, 70], [10, 12, 32, 65], [11, 13, 30, 60],
  [13, 15, 25, 55], [15, 17, 22, 50], [17, 19, 20, 45], [19, 21, 18, 40]];
const COOP_DEFAULT = 4;

function difficultyOptions() {
  return COOP_ROWS.map(([blue, red, pizzas, money], i) => {
    const row = i + 1;
    const hint = row === 1 ? ' (hardest)' : row === COOP_ROWS.length ? ' (easiest)' : '';
    return `<option value="${row}"${row === COOP_DEFAULT ? ' selected' : ''}>${row} — Blue $${blue}, Red $${red}, ` +
      `${pizzas} pizzas, $${money}${hint}</option>`;
  }).join('');
}

// The markers one by one: each select offers its column's values, set to
// the chosen row's when the row changes.
const MARKERS = ['blue', 'red', 'pizzas', 'money'];

function markerOptions(k, row) {
  const values = [...new Set(COOP_ROWS.map((r) => r[k]))];
  const unit = (v) => (k === 2 ? `${v}` : `$${v}`);
  return values.map((v) => `<option value="${v}"${v === COOP_ROWS[row - 1][k] ? ' selected' : ''}>${unit(v)}</option>`).join('');
}

function setMarkers() {
  const row = Number($('#difficulty').value) || COOP_DEFAULT;
  MARKERS.forEach((m, k) => { $(`#marker-${m}`).innerHTML = markerOptions(k, row); });
}

// The markers moved off the chosen row, and the co-op options ticked.
function coopConfig() {
  const difficulty = Number($('#difficulty').value) || COOP_DEFAULT;
  const out = { coop: true, difficulty };
  MARKERS.forEach((m, k) => {
    const v = Number($(`#marker-${m}`).value);
    if (v && v !== COOP_ROWS[difficulty - 1][k]) out[m] = v;
  });
  if ($('#coop-insane').checked) out.coop_insane = true;
  if ($('#coop-easier').checked) out.coop_easier = true;
  if ($('#top-chef').checked) out.top_chef = true;
  return out;
}

function coopChosen() {
  return $('#game').value === 'delivery' && $('#coop').checked;
}

// The player counts of the chosen game (Pizza Theory: 2 or 3; a co-op
// delivery table may be played alone).
function chooseGame() {
  $('#game-about').textContent = gameAbout($('#game').value);
  const count = $('#players-count');
  const current = Number(count.value);
  if (coopChosen()) {
    const counts = [1, ...GAMES.delivery.players];
    const pick = counts.includes(current) ? current : GAMES.delivery.dflt;
    count.innerHTML = counts.map((n) => `<option value="${n}"${n === pick ? ' selected' : ''}>${n}</option>`).join('');
  } else {
    count.innerHTML = playerOptions($('#game').value, current);
  }
  showSeats();
}

// Only as many seat selects as players; New York Pizza Delivery's expansion
// is a choice for 2 to 4 players (5 and 6 always play with it), its co-op
// game and difficulty and Extra Cheese a choice for any count.
function showSeats() {
  const n = Number($('#players-count').value);
  const delivery = $('#game').value === 'delivery';
  for (const li of document.querySelectorAll('#seat-list li')) li.hidden = Number(li.dataset.seat) >= n;
  $('#expansion-row').hidden = !(delivery && n <= 4);
  $('#expansion-powers-row').hidden = !(delivery && n <= 4);
  $('#coop-row').hidden = !delivery;
  $('#difficulty-row').hidden = !coopChosen();
  $('#extra-cheese-row').hidden = !delivery; // any number of players
}

// The lobby's name, or a toast and false when there is none.
function lobbyName() {
  const name = $('#name').value.trim();
  if (!name) { toast('Type your name first.'); $('#name').focus(); return null; }
  store.setName(name);
  return name;
}

function createTable(ev) {
  ev.preventDefault();
  const name = lobbyName();
  if (!name) return;
  const game = ['theory', 'delivery'].includes($('#game').value) ? $('#game').value : 'nyslice';
  const players = Number($('#players-count').value);
  const seats = [];
  for (let i = 0; i < players; i++) seats.push($(`select[name=seat${i}]`).value);
  const expansion = game === 'delivery' && players <= 4 && $('#expansion').checked;
  const powers = game === 'delivery' && players <= 4 && !expansion && $('#expansion-powers').checked;
  const coop = game === 'delivery' && $('#coop').checked;
  const cheese = game === 'delivery' && $('#extra-cheese').checked;
  const clock = clockFromForm($('#create-form'));
  if (clock.error) { toast(clock.error); clock.input.focus(); return; }
  askPermission();
  send({
    type: 'create', game, players, seats, name, ...(expansion ? { expansion: true } : {}),
    ...(powers ? { expansion_powers: true } : {}),
    ...(coop ? coopConfig() : {}),
    ...(cheese ? { extra_cheese: true } : {}),
    ...(clock.clock ? { clock: clock.clock } : {}),
  });
}

// The typed code, or '' with the reason said under the form. Codes are
// four letters and digits; anything else is answered here, without asking.
function typedCode() {
  const code = $('#join-code').value.trim().toUpperCase();
  codeMessage('');
  if (!code) codeMessage('Type a table code.');
  else if (!/^[A-Z0-9]{4,12}$/.test(code)) codeMessage(`${code}: a table code is 4 or more letters and digits, like K7QX.`);
  else return code;
  $('#join-code').focus();
  return '';
}

function codeMessage(text) {
  const el = $('#join-msg');
  el.textContent = text;
  el.hidden = !text;
}

function codeAnswered() {
  state.codeAsked = null;
  codeMessage('');
}

function joinByCode(ev) {
  ev.preventDefault();
  const code = typedCode();
  if (!code) return;
  if (store.seat(code)) { goToTable(code); return; } // we sit there already: resume
  const name = lobbyName();
  if (!name) return;
  askPermission();
  if (send({ type: 'join', code, name })) state.codeAsked = code;
}

function watchByCode() {
  const code = typedCode();
  if (code && send(spectateMsg(code))) state.codeAsked = code;
}

function onTablesClick(ev) {
  const b = ev.target.closest('button[data-code]');
  if (!b) return;
  const code = b.dataset.code;
  if (b.classList.contains('open-table')) goToTable(code);
  else if (b.classList.contains('watch-table')) send(spectateMsg(code));
  else if (b.classList.contains('join-table')) {
    const name = lobbyName();
    if (name) { askPermission(); send({ type: 'join', code, name }); }
  }
}

function onMineClick(ev) {
  const b = ev.target.closest('button.forget');
  if (!b) return;
  store.forget(b.dataset.code);
  renderLobby();
}

// ---- The table ----

function finished(msg) {
  return Boolean(msg && msg.view && msg.view.phase === 'over');
}

// The table as shown: the last view, or a finished table replayed to some move.
function currentCtx() {
  if (state.route.page !== 'table') return null;
  const msg = state.views.get(state.route.code);
  if (!msg) return null;
  const r = state.replay;
  if (r && r.code === msg.code && finished(msg)) return T.buildCtx(T.replayMsg(msg, r));
  const ctx = T.buildCtx(msg);
  if (msg.waiting) ctx.myTurn = false; // nobody moves before the table starts
  return ctx;
}

// Drafts belong to one decision: a new move (or phase) starts them afresh.
function syncDrafts(ctx) {
  const key = `${ctx.code}:${ctx.msg.moves}:${ctx.phase}:${ctx.v.to_move}`;
  if (!state.divide || state.divide.key !== key) state.divide = { key, cuts: new Set(), special: null };
  if (!state.place || state.place.key !== key) state.place = { key, eat: new Set() };
}

// A selector for the focused control, to focus its new copy after a redraw.
function focusedSelector() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const box = el.parentElement && el.parentElement.closest('[id]');
  for (const a of ['after', 'pos', 'name', 'index', 'action', 'seat']) {
    const v = el.getAttribute(`data-${a}`);
    if (v != null && box) return `#${CSS.escape(box.id)} ${el.tagName.toLowerCase()}[data-${a}="${CSS.escape(v)}"]`;
  }
  return null;
}

function renderTable() {
  const ctx = currentCtx();
  if (!ctx) return;
  const focused = focusedSelector();
  drawTable(ctx);
  hideStale();
  const again = focused && document.querySelector(focused);
  if (again && again !== document.activeElement && typeof again.focus === 'function') again.focus();
}

function drawTable(ctx) {
  const theory = ctx.v.game === 'theory';
  const delivery = ctx.v.game === 'delivery';
  if (!theory && !delivery) syncDrafts(ctx);
  show('table');
  const status = theory ? TH.statusHtml(ctx) : delivery ? DL.statusHtml(ctx) : T.statusHtml(ctx);
  const replaying = state.replay && state.replay.code === ctx.code && ctx.phase !== 'over';
  $('#headline').innerHTML = `<span class="code">${esc(ctx.code)}</span> ${replaying ? '<span class="watching">replay</span> ' : ''}${status.headline}`;
  $('#prompt').innerHTML = status.prompt;
  $('#table').dataset.phase = ctx.phase;
  $('#table').dataset.myTurn = String(ctx.myTurn);
  $('#table').dataset.moves = String(ctx.msg.moves); // how far the game is (tests; a reconnection resumes there)
  $('#table').dataset.busy = String(state.busy); // a move (or the moves queued behind it) on its way
  $('#table').dataset.game = theory ? 'theory' : delivery ? 'delivery' : 'nyslice';
  $('#subtitle').textContent = gameName(ctx.v.game);
  document.title = tableTitle(ctx.code, ctx.myTurn && !ctx.msg.replaying);
  $('#theory-board').hidden = !theory;
  $('#theory-info').hidden = !theory;
  $('#delivery-board').hidden = !delivery;
  $('#delivery-info').hidden = !delivery;
  if (!delivery) $('#delivery-banners').hidden = true;
  $('#delivery-team').hidden = !(delivery && ctx.v.coop);
  if (theory) {
    drawTheory(ctx);
  } else if (delivery) {
    drawDelivery(ctx);
  } else {
    renderBoard(ctx);
    renderSide(ctx);
    $('#players').innerHTML = T.playersHtml(ctx);
  }
  decoratePlayers($('#players'), ctx.msg, state.views.get(ctx.code));
  $('#headline').insertAdjacentHTML('beforeend', myClockHtml(ctx.msg, state.views.get(ctx.code)));
  renderLog(ctx);
  renderAnalysis(ctx);
  renderRules(ctx);
  renderShare(ctx.code);
  const replay = replayShown(ctx);
  renderSocial(T.buildCtx(state.views.get(ctx.code)), $('#share-link').href); // the table, not the replay
  renderChat(ctx, replay ? replay.step : null);
  const latest = state.views.get(ctx.code);
  const freeSeat = latest && (latest.players || []).some((p, i) => p === 'human' && !(latest.names || [])[i]);
  $('#join-this').hidden = ctx.seat != null || finished(latest) || !freeSeat;
}

// Pizza Theory: its board and panel in place of the pizza and the Special;
// the cut buttons, the end, the players and the replay in the usual places.
function drawTheory(ctx) {
  for (const id of ['pizza', 'special', 'placing']) $(`#${id}`).hidden = true;
  const board = $('#theory-board');
  board.dataset.round = String(ctx.v.round);
  board.dataset.lastRound = String(ctx.v.last ? ctx.v.last.round : 0);
  board.dataset.seat = ctx.seat == null ? '' : String(ctx.seat);
  board.dataset.neutral = ctx.v.neutral == null ? '' : String(ctx.v.neutral);
  board.innerHTML = TH.boardHtml(ctx, { busy: state.busy });
  TH.startAnimations(board);
  $('#theory-info').innerHTML = TH.infoHtml(ctx);
  const cuts = TH.actionsHtml(ctx);
  $('#actions').hidden = !cuts;
  $('#actions').innerHTML = cuts;
  const over = $('#game-over');
  over.hidden = ctx.phase !== 'over';
  over.innerHTML = ctx.phase === 'over' ? TH.gameOverHtml(ctx) : '';
  $('#players').innerHTML = TH.playersHtml(ctx);
  renderReplay();
  if (state.busy) for (const b of document.querySelectorAll('#actions button')) b.disabled = true;
}

// New York Pizza Delivery: the map and the orders, market and hand in place
// of the pizza and the Special; the moves, the end, the players and the
// replay in the usual places.
function drawDelivery(ctx) {
  for (const id of ['pizza', 'special', 'placing']) $(`#${id}`).hidden = true;
  const board = $('#delivery-board');
  board.dataset.moves = String(ctx.msg.moves);
  board.dataset.seat = ctx.seat == null ? '' : String(ctx.seat);
  board.innerHTML = DL.boardHtml(ctx, { busy: state.busy });
  $('#delivery-info').innerHTML = DL.infoHtml(ctx);
  const banners = $('#delivery-banners');
  banners.innerHTML = DL.bannersHtml(ctx);
  banners.hidden = !banners.innerHTML;
  $('#delivery-team').innerHTML = DL.teamHtml(ctx);
  const moves = DL.actionsHtml(ctx);
  $('#actions').hidden = !moves;
  $('#actions').innerHTML = moves;
  const over = $('#game-over');
  over.hidden = ctx.phase !== 'over';
  over.innerHTML = ctx.phase === 'over' ? DL.gameOverHtml(ctx) : '';
  $('#players').innerHTML = DL.playersHtml(ctx);
  renderReplay();
  if (state.busy) {
    for (const b of document.querySelectorAll('#actions button[data-action], #delivery-info button[data-action]')) b.disabled = true;
  }
}

function renderBoard(ctx) {
  const hasRing = (ctx.v.ring || []).length > 0;
  $('#ring-box').innerHTML = hasRing ? renderRing(T.ringModel(ctx, state.divide)) : '';
  $('#pizza').hidden = !hasRing;
  $('#portions').innerHTML = T.portionsHtml(ctx, state.divide);
  const dividing = T.dividing(ctx);
  $('#divide-tools').hidden = !dividing;
  if (dividing) {
    const d = T.divideNotation(ctx.n, state.divide);
    $('#divide-info').innerHTML = T.divideInfoHtml(ctx, state.divide);
    $('#divide-notation').textContent = d.text;
    $('#divide').disabled = !d.valid || state.busy;
    $('#special-alone').setAttribute('aria-pressed', String(state.divide.special === 'alone'));
  }
}

function renderSide(ctx) {
  $('#special').innerHTML = T.specialHtml(ctx);
  $('#special').hidden = ctx.phase === 'over' && !ctx.v.today;
  const placing = $('#placing');
  placing.hidden = !ctx.v.placing;
  placing.innerHTML = T.placingHtml(ctx, state.place.eat);
  const moves = T.offeredMoves(ctx);
  const actions = $('#actions');
  actions.hidden = !moves.length;
  actions.innerHTML = moves.length ? T.actionsHtml(ctx, moves) : '';
  const over = $('#game-over');
  over.hidden = ctx.phase !== 'over';
  over.innerHTML = ctx.phase === 'over' ? T.gameOverHtml(ctx) : '';
  renderReplay();
  if (state.busy) for (const b of document.querySelectorAll('#actions button, #confirm-place')) b.disabled = true;
}

// Finished tables can be stepped through move by move (`replay` requests).
function renderReplay() {
  const msg = state.views.get(state.route.code);
  const box = $('#replay');
  box.hidden = !finished(msg);
  if (box.hidden) return;
  const r = state.replay && state.replay.code === msg.code ? state.replay : null;
  box.innerHTML = T.replayHtml(msg.moves, r ? r.step : null);
}

// Each seat's share of the win in a finished table's view (1/k for each of k
// winners), as each game tells its winners; null when it does not.
function winShares(msg) {
  const v = msg.view || {};
  const winners = v.game === 'theory' ? (v.result || {}).winners
    : v.game === 'delivery' ? v.winners : (msg.score || v.score || {}).winners;
  if (!Array.isArray(winners)) return null;
  const n = (msg.players || []).length;
  return Array.from({ length: n }, (_, s) => (winners.includes(s) ? 1 / winners.length : 0));
}

// The Analysis card of a finished table (analysis.js), and on a New York
// Slice replay step the portion a better `take` would have taken.
function renderAnalysis(ctx) {
  const latest = state.views.get(ctx.code);
  const box = $('#analysis');
  box.hidden = !finished(latest);
  if (box.hidden) return;
  const words = ctx.v.game === 'theory' ? TH.logHtml : ctx.v.game === 'delivery' ? DL.logHtml : T.logHtml;
  const replay = replayShown(ctx);
  const step = replay ? replay.step : null;
  const html = AN.panelHtml(ctx, words, step, (latest.players || []).length, winShares(latest));
  if (box.innerHTML !== html) box.innerHTML = html;
  if (step == null || ctx.v.game === 'theory' || ctx.v.game === 'delivery') return;
  const letter = AN.betterTake(ctx.code, step);
  const p = letter && (ctx.portions || []).find((x) => x.letter === letter.toUpperCase() || (letter === 'special' && x.key === 'special'));
  if (!p) return;
  for (const el of document.querySelectorAll(`#portions li[data-name="${CSS.escape(p.key)}"], #ring-box [data-portion="${CSS.escape(p.key)}"]`)) {
    el.classList.add('an-better');
  }
}

function onAnalysisClick(ev) {
  const code = state.route.code;
  if (ev.target.closest('#analyse')) {
    AN.analysisAsked(code);
    send({ type: 'analyse', code });
    renderTable();
    return;
  }
  const point = ev.target.closest('[data-step]');
  if (point) askReplay(Number(point.dataset.step));
}

function askReplay(step) {
  const msg = state.views.get(state.route.code);
  if (!finished(msg)) return;
  if (step >= msg.moves) { state.replay = null; renderTable(); return; } // the end is the last view
  send({ type: 'replay', code: msg.code, step });
}

function onReplayClick(ev) {
  const b = ev.target.closest('button[data-step]');
  if (b) askReplay(Number(b.dataset.step));
}

// The replay shown of this finished table, or null.
function replayShown(ctx) {
  const r = state.replay;
  return r && r.code === ctx.code && finished(state.views.get(ctx.code)) ? r : null;
}

// The whole log (log.js), each move in its game's words; redrawn only when it changed.
function renderLog(ctx) {
  const log = $('#log');
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  const words = ctx.v.game === 'theory' ? TH.logHtml : ctx.v.game === 'delivery' ? DL.logHtml : T.logHtml;
  const run = AN.analysisOf(ctx.code);
  const news = ctx.v.game === 'theory' || ctx.v.game === 'delivery' ? null : T.newsHtml;
  const html = logItemsHtml(ctx, words, replayShown(ctx), run ? (move) => AN.markTagHtml(run.reviews.get(move)) : null, news);
  if (html !== state.logShown) {
    log.innerHTML = html;
    state.logShown = html;
  }
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// The rules of the table's game for this phase (and Special); redrawn only when they change.
function renderRules(ctx) {
  if (ctx.v.game === 'delivery') {
    // The rules text when rules.js knows where it is, else the rules in short from delivery.js.
    if (!rulesAsked('delivery')) loadRules(rulesLoaded, 'delivery');
    const text = rulesAll('delivery');
    const extra = DL.rulesExtraTopic(ctx); // Extra Cheese's decision has a topic of its own
    const key = `delivery:${ctx.phase}:${extra}:${text ? 'text' : 'short'}`;
    if (key === state.rulesKey) return;
    state.rulesKey = key;
    $('#rules-now').innerHTML = text ? rulesNow(ctx.phase, extra, 'delivery') : DL.rulesNowHtml(ctx);
    $('#rules-list').innerHTML = text || DL.rulesAllHtml();
    return;
  }
  const game = ctx.v.game === 'theory' ? 'theory' : 'nyslice';
  if (!rulesAsked(game)) loadRules(rulesLoaded, game);
  const slug = ctx.v.today ? ctx.v.today.slug : '';
  const key = `${game}:${ctx.phase}:${slug}`;
  if (key === state.rulesKey) return;
  const otherGame = !state.rulesKey || !state.rulesKey.startsWith(`${game}:`);
  state.rulesKey = key;
  $('#rules-now').innerHTML = rulesNow(ctx.phase, slug, game);
  if (otherGame || !$('#rules-list').innerHTML) $('#rules-list').innerHTML = rulesAll(game);
}

function rulesLoaded() {
  state.rulesKey = null;
  $('#rules-list').innerHTML = '';
  renderTable();
}

function renderShare(code) {
  const url = `${location.origin}${location.pathname}#/t/${encodeURIComponent(code)}`;
  const a = $('#share-link');
  a.href = url;
  a.textContent = url;
}

// ---- Moves ----

function setBusy(on) {
  state.busy = on;
  clearTimeout(state.busyTimer);
  // Never stay stuck if an answer is lost.
  if (on) state.busyTimer = setTimeout(() => { state.busy = false; renderTable(); }, BUSY_TIMEOUT_MS);
}

// A move, and (`then`) the moves queued behind it.
function act(action, then = []) {
  if (state.busy || state.route.page !== 'table') return;
  if (send({ type: 'act', code: state.route.code, action })) {
    const msg = state.views.get(state.route.code);
    state.queue = then.length && msg ? { code: msg.code, seat: msg.seat, at: msg.moves, moves: then } : null;
    setBusy(true);
    renderTable();
  }
}

function onRingClick(ev) {
  const ctx = currentCtx();
  if (!ctx) return;
  const gap = ev.target.closest('.gap');
  const slice = ev.target.closest('.slice');
  const disc = ev.target.closest('#special-disc');
  if (gap && T.dividing(ctx)) toggleCut(ctx, Number(gap.dataset.after));
  else if (disc) discClick(ctx);
  else if (slice) sliceClick(ctx, Number(slice.dataset.pos));
}

function toggleCut(ctx, pos) {
  const slot = (ctx.v.ring || [])[pos - 1];
  if (!slot || slot.slice == null) return; // a cut is named by the slice before it
  const cuts = state.divide.cuts;
  if (cuts.has(pos)) cuts.delete(pos); else cuts.add(pos);
  renderTable();
}

function sliceClick(ctx, pos) {
  const slot = (ctx.v.ring || [])[pos - 1];
  if (!slot || slot.slice == null) return;
  if (T.dividing(ctx)) {
    state.divide.special = pos;
    renderTable();
  } else if (ctx.myTurn && ctx.phase === 'take' && slot.portion != null) {
    takePortion(ctx, String(slot.portion));
  }
}

function discClick(ctx) {
  if (T.dividing(ctx)) {
    state.divide.special = 'alone';
    renderTable();
    return;
  }
  const p = ctx.portions.find((x) => x.special);
  if (ctx.myTurn && ctx.phase === 'take' && p) takePortion(ctx, p.key);
}

function takePortion(ctx, key) {
  const p = ctx.byKey.get(key);
  if (!p || p.takenBy != null) return;
  act(key === 'special' ? 'take special' : `take ${key}`);
}

function onPortionsClick(ev) {
  const li = ev.target.closest('.portion');
  const ctx = currentCtx();
  if (!li || !ctx) return;
  const name = li.dataset.name;
  if (T.dividing(ctx)) {
    if (name !== 'special') { state.divide.special = Number(name); renderTable(); }
  } else if (ctx.myTurn && ctx.phase === 'take') {
    takePortion(ctx, name);
  }
}

function specialAlone() {
  state.divide.special = 'alone';
  renderTable();
}

function evenCuts() {
  const ctx = currentCtx();
  if (!ctx) return;
  const alone = state.divide.special === 'alone';
  state.divide.cuts = T.evenCuts(T.presentPositions(ctx), T.cutsNeeded(ctx.n, alone));
  renderTable();
}

function clearCuts() {
  state.divide.cuts = new Set();
  state.divide.special = null;
  renderTable();
}

function divide() {
  const ctx = currentCtx();
  if (!ctx || !T.dividing(ctx)) return;
  const d = T.divideNotation(ctx.n, state.divide);
  if (d.valid) act(d.text);
}

function onPlacingClick(ev) {
  const ctx = currentCtx();
  if (!ctx || !T.placingMine(ctx)) return;
  if (ev.target.closest('#confirm-place')) { act(T.placeNotation(ctx, state.place.eat)); return; }
  const b = ev.target.closest('.place-slice');
  if (!b || b.disabled) return;
  const i = Number(b.dataset.index);
  if (state.place.eat.has(i)) state.place.eat.delete(i); else state.place.eat.add(i);
  renderTable();
}

// Pizza Theory: a legal space or one of your cut lines; the button that shows the last cut.
function onTheoryClick(ev) {
  if (ev.target.closest('#theory-last')) {
    TH.toggleLast();
    renderTable();
    return;
  }
  const el = ev.target.closest('#theory-svg [data-action]');
  const ctx = currentCtx();
  if (el && ctx && ctx.myTurn) act(el.dataset.action);
}

// Pointing at a cut button lights its line on the board.
function onActionsHover(ev) {
  const b = ev.type === 'mouseover' || ev.type === 'focusin' ? ev.target.closest('button.pt-cut') : null;
  TH.highlightLine(b ? b.dataset.line : null);
}

function onActionsClick(ev) {
  if (deliveryPick(ev)) return;
  const b = ev.target.closest('button[data-action]');
  if (b && !b.disabled) act(b.dataset.action, thenOf(b));
}

// New York Pizza Delivery: a selection (an order, a pizzeria, a lot) is
// drawn at once; true when the click was one.
function deliveryPick(ev) {
  const el = ev.target.closest('[data-pick]');
  if (!el) return false;
  const move = DL.pick(el.dataset.pick, el.dataset.value); // a lot at the start of a turn: "reputation"
  const ctx = currentCtx();
  if (move && ctx && ctx.myTurn) act(move);
  else renderTable();
  // On a phone the panel is above the map: a preview made by taps on the map
  // is brought into sight, or the tap would seem to do nothing.
  const preview = $('#delivery-preview');
  if (preview && el.closest('#delivery-svg') && preview.getBoundingClientRect().top < 0) {
    preview.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }
  return true;
}

// The map and the panel beside it: selections, and the cards a click plays.
function onDeliveryClick(ev) {
  if (deliveryPick(ev)) return;
  const el = ev.target.closest('[data-action]');
  const ctx = currentCtx();
  if (el && !el.disabled && ctx && ctx.myTurn) act(el.dataset.action, thenOf(el));
}

// The moves an element queues behind its own: its data-then, and with
// "end my turn after my action" ticked (Delivery) the end of the turn.
function thenOf(el) {
  const then = thenMoves(el.dataset.then);
  const ctx = currentCtx();
  const auto = ctx && ctx.v.game === 'delivery' && !ctx.v.coop && ctx.phase !== 'after' && DL.autoEnd();
  return auto && !then.includes('end') && el.dataset.action !== 'end' ? [...then, 'end'] : then;
}

// Handing a seat to a bot takes two clicks: the first asks "sure?".
function onPlayersClick(ev) {
  const b = ev.target.closest('.hand-to-bot');
  if (!b) return;
  if (b.dataset.sure !== 'yes') {
    b.dataset.sure = 'yes';
    b.textContent = 'sure? click again';
    return;
  }
  send({ type: 'bot', code: state.route.code, seat: Number(b.dataset.seat) });
}

function copyLink() {
  copyText($('#share-link').href);
}

function copyText(url) {
  const done = () => toast('Link copied.', 'info');
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, () => toast(url, 'info'));
  } else {
    toast(url, 'info'); // no clipboard over plain http: show it to copy by hand
  }
}

function pressed(ev) {
  if (ev.key !== 'Enter' && ev.key !== ' ') return false;
  ev.preventDefault();
  return true;
}

// ---- Toasts ----

// kind 'sticky': news a player must not miss (their seat went to a bot),
// kept until clicked away.
function toast(text, kind = 'error') {
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.setAttribute('role', kind === 'info' ? 'status' : 'alert');
  el.textContent = kind === 'sticky' ? `${text} (click to close)` : text;
  el.addEventListener('click', () => el.remove());
  $('#toasts').append(el);
  if (kind !== 'sticky') setTimeout(() => el.remove(), kind === 'error' ? 6000 : 3000);
}

// ---- Start ----

function wire() {
  wireTips();
  $('#seat-list').innerHTML = seatSelects();
  $('#clock-form').innerHTML = clockFormHtml();
  wireClockForm($('#clock-form'));
  initNotify($('#notify-tools'));
  startClocks();
  $('#game').addEventListener('change', chooseGame);
  $('#game-about').textContent = gameAbout($('#game').value);
  $('#players-count').addEventListener('change', showSeats);
  $('#difficulty').innerHTML = difficultyOptions();
  setMarkers();
  $('#difficulty').addEventListener('change', setMarkers);
  // Insane and Easier do not go together: ticking one clears the other
  $('#coop-insane').addEventListener('change', () => { if ($('#coop-insane').checked) $('#coop-easier').checked = false; });
  $('#coop-easier').addEventListener('change', () => { if ($('#coop-easier').checked) $('#coop-insane').checked = false; });
  $('#coop').addEventListener('change', chooseGame);
  $('#create-form').addEventListener('submit', createTable);
  $('#join-form').addEventListener('submit', joinByCode);
  $('#watch').addEventListener('click', watchByCode);
  $('#refresh').addEventListener('click', requestList);
  $('#tables').addEventListener('click', onTablesClick);
  $('#mine').addEventListener('click', onMineClick);
  $('#name').addEventListener('change', () => store.setName($('#name').value.trim()));
  $('#prompt-join').addEventListener('click', promptJoin);
  $('#prompt-watch').addEventListener('click', promptWatch);
  $('#prompt-info').addEventListener('click', (ev) => {
    if (ev.target.closest('#prompt-resume')) promptResume();
    else if (ev.target.closest('#prompt-forget')) promptForget();
  });
  $('#prompt-name').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') promptJoin(); });
  $('#ring-box').addEventListener('click', onRingClick);
  $('#portions').addEventListener('click', onPortionsClick);
  // Wedges, gaps and portions take Enter and Space like buttons.
  $('#ring-box').addEventListener('keydown', (ev) => pressed(ev) && onRingClick(ev));
  $('#portions').addEventListener('keydown', (ev) => pressed(ev) && onPortionsClick(ev));
  $('#special-alone').addEventListener('click', specialAlone);
  $('#even-cuts').addEventListener('click', evenCuts);
  $('#clear-cuts').addEventListener('click', clearCuts);
  $('#divide').addEventListener('click', divide);
  $('#placing').addEventListener('click', onPlacingClick);
  $('#actions').addEventListener('click', onActionsClick);
  for (const type of ['mouseover', 'mouseleave', 'focusin', 'focusout']) $('#actions').addEventListener(type, onActionsHover);
  $('#theory-board').addEventListener('click', onTheoryClick);
  $('#theory-board').addEventListener('keydown', (ev) => pressed(ev) && onTheoryClick(ev));
  DL.wireMap($('#delivery-board'), renderTable); // zoom and pan, before the clicks (a drag is not one)
  for (const id of ['#delivery-board', '#delivery-info']) {
    $(id).addEventListener('click', onDeliveryClick);
    // Orders, lots and pizzerias take Enter and Space like buttons (real buttons do already).
    $(id).addEventListener('keydown', (ev) => !ev.target.closest('button') && pressed(ev) && onDeliveryClick(ev));
  }
  $('#players').addEventListener('click', onPlayersClick);
  $('#replay').addEventListener('click', onReplayClick);
  $('#replay').addEventListener('change', (ev) => {
    if (ev.target.id === 'replay-step') askReplay(Number(ev.target.value));
  });
  $('#analysis').addEventListener('click', onAnalysisClick);
  $('#analysis').addEventListener('keydown', (ev) => pressed(ev) && ev.target.closest('circle[data-step]') && onAnalysisClick(ev));
  $('#copy-link').addEventListener('click', copyLink);
  $('#join-this').addEventListener('click', () => showJoinPrompt(state.route.code));
  $('#conn').addEventListener('click', () => conn.reconnectNow());
  window.addEventListener('hashchange', onRoute);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) conn.reconnectNow(); });
  setInterval(() => {
    if (state.route.page === 'lobby' && !document.hidden) requestList();
  }, LIST_EVERY_MS);
}

// Who sits at a table (the lobby's list says), to name who offers a rematch;
// null until the list has come (asked for once per table).
const listAskedFor = new Set();
function rematchPeople(code) {
  const t = (state.tables || []).find((x) => x.code === code);
  if (!t) {
    if (!listAskedFor.has(code)) { listAskedFor.add(code); requestList(); }
    return null;
  }
  return (t.seats || []).filter((s) => s.taken && (s.player || 'human') === 'human').map((s) => s.name);
}

// The waiting panel, undo and rematch (social.js), and the chat (chat.js).
function wireSocial() {
  initChat(send, () => store.name());
  initSocial({
    send,
    copy: copyText,
    seatAt: (code) => store.seat(code),
    seated: rematchPeople,
    open: goToTable,
    watch: (code) => send(spectateMsg(code)),
    // A rematch: the same seat as at the old table (the server prefers it).
    join: (code, seat, name) => send({ type: 'join', code, name: name || store.name() || 'Player', seat }),
  });
}

wire();
wireSocial();
loadRules(rulesLoaded);
onRoute();
conn.connect();
