// notify.js -- "your turn", noticed: a short generated sound (muted by a
// toggle kept in localStorage), a desktop notification while the tab is
// hidden (Notification API, asked for on a click), the tab title; and the
// lobby's "Your seats": each table's game, whose turn it is and its clock.
import { esc } from './tokens.js';
import { gameName } from './lobby.js';
import { clockChip } from './clock.js';

const MUTE_KEY = 'pizzabox.mute';     // '1': no sound
const NOTIFY_KEY = 'pizzabox.notify'; // 'off': no desktop notifications from this browser
const TITLE = '▶ Your turn — pizzabox';

const keep = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* private mode: not kept */ } },
};

export const muted = () => keep.get(MUTE_KEY) === '1';

// ---- The sound: two short sine notes, made on the spot ----

let audio = null;

// Browsers start audio only after a gesture: the first click or key opens it.
function unlockAudio() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!audio && AC) {
    try { audio = new AC(); } catch { audio = null; }
  }
  if (audio && audio.state === 'suspended') audio.resume().catch(() => {});
}

function chime() {
  if (!audio || muted()) return;
  const t0 = audio.currentTime + 0.01;
  for (const [freq, at] of [[660, 0], [880, 0.14]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.25, t0 + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.28);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + 0.3);
  }
}

// ---- Desktop notifications ----

const canNotify = () => typeof window.Notification === 'function';
const notifyOn = () => canNotify() && Notification.permission === 'granted' && keep.get(NOTIFY_KEY) !== 'off';

// On a click (create, join, the header's toggle): ask once, if never asked.
export function askPermission() {
  if (!canNotify() || Notification.permission !== 'default') return;
  try {
    const p = Notification.requestPermission(drawTools); // older browsers take a callback
    if (p && p.then) p.then(drawTools, drawTools);
  } catch { /* not allowed here */ }
}

function desktop(code, game) {
  if (!notifyOn() || !document.hidden) return;
  try {
    const n = new Notification('Your turn — pizzabox', {
      body: `${gameName(game)}, table ${code}`, tag: `pizzabox-${code}`,
    });
    n.onclick = () => { window.focus(); location.hash = `#/t/${encodeURIComponent(code)}`; n.close(); };
  } catch { /* phones only notify from a service worker: the sound and title still tell */ }
}

// ---- Whose turn: alerts on the change to "mine" ----

const mine = new Map(); // code -> it was my turn at the last news of that table

function noticeTurn(code, now, game) {
  const before = mine.get(code);
  mine.set(code, now);
  // The first news of a table (a reload, the lobby's first list) only sets the title.
  if (now && before === false) {
    chime();
    desktop(code, game);
  }
}

export function myTurn(msg) {
  const v = msg.view || {};
  return Number.isInteger(msg.seat) && v.to_move === msg.seat && v.phase !== 'over' && !msg.waiting;
}

// Every view message, of any table this page receives.
export function noticeView(msg) {
  noticeTurn(msg.code, myTurn(msg), msg.view && msg.view.game);
}

export function tableTitle(code, myMove) {
  return myMove ? TITLE : `${code} — pizzabox`;
}

// ---- The lobby's "Your seats" ----

let listed = new Map(); // code -> its entry in the last `tables` answer
let listedAt = 0;       // performance.now() when it came

const turnOf = (t, seat) => Boolean(t && !t.finished && !t.waiting && seat != null && t.to_move === seat);

// A `tables` answer; `seatOf(code)` is our seat there, or null.
export function noticeTables(tables, seatOf) {
  listed = new Map((tables || []).map((t) => [t.code, t]));
  listedAt = performance.now();
  for (const t of listed.values()) {
    const seat = seatOf(t.code);
    if (seat != null) noticeTurn(t.code, turnOf(t, seat), t.game);
  }
}

export function lobbyTitle(codes, seatOf, plain) {
  return codes.some((c) => turnOf(listed.get(c), seatOf(c))) ? TITLE : plain;
}

// A finished table's link opens its replay.
export const tableHref = (code, finished) => `#/t/${encodeURIComponent(code)}${finished ? '/replay' : ''}`;

function whoseTurn(t, seat) {
  if (t.finished) return 'finished: replay';
  if (t.waiting) return 'waiting for players';
  if (t.to_move == null) return t.moves ? `${t.moves} moves` : 'not started';
  if (t.to_move === seat) return '<b class="your-turn">your turn</b>';
  const s = (t.seats || [])[t.to_move] || {};
  const name = s.name || (s.player && s.player !== 'human' ? `${s.player} bot` : `Seat ${t.to_move + 1}`);
  return `${esc(name)} to move`;
}

export function mineHtml(codes, seatOf) {
  return codes.map((c) => {
    const t = listed.get(c);
    const seat = seatOf(c);
    let about = '';
    if (t) {
      const clock = typeof t.clock_left === 'number' && !t.finished && !t.waiting
        ? ` ${clockChip(t.clock_left, t.clock_mode || (t.clock_left >= 86_400_000 ? 'turn' : 'realtime'), { since: listedAt })}` : '';
      about = ` <span class="mine-game">${esc(gameName(t.game))}</span>` +
        ` <span class="mine-turn">${whoseTurn(t, seat)}</span>${clock}`;
    }
    const cls = turnOf(t, seat) ? ' class="my-turn"' : '';
    return `<li${cls} data-code="${esc(c)}"><a href="${tableHref(c, t && t.finished)}" data-code="${esc(c)}">Table ${esc(c)}</a>` +
      `${about} <button type="button" class="forget small secondary" data-code="${esc(c)}" title="forget this seat" ` +
      `aria-label="forget your seat at table ${esc(c)}">×</button></li>`;
  }).join('');
}

// ---- The header's toggles ----

let tools = null;

function drawTools() {
  if (!tools) return;
  const off = muted();
  tools.innerHTML =
    `<button type="button" id="sound-toggle" class="small hdr-toggle" aria-pressed="${!off}" ` +
    `title="a short sound when it becomes your turn">${off ? '♪ muted' : '♪ sound on'}</button>` +
    (canNotify() ? notifyButton() : '');
}

function notifyButton() {
  const perm = Notification.permission;
  if (perm === 'denied') {
    return '<button type="button" id="notify-toggle" class="small hdr-toggle" disabled ' +
      'title="notifications are blocked in this browser\'s site settings">notify: blocked</button>';
  }
  const on = notifyOn();
  const text = perm === 'default' ? 'notify me' : on ? 'notify: on' : 'notify: off';
  return `<button type="button" id="notify-toggle" class="small hdr-toggle" aria-pressed="${on}" ` +
    `title="a desktop notification when it becomes your turn while this tab is hidden">${text}</button>`;
}

function onToolsClick(ev) {
  const b = ev.target.closest('button');
  if (!b) return;
  if (b.id === 'sound-toggle') {
    keep.set(MUTE_KEY, muted() ? '0' : '1');
    unlockAudio();
    chime(); // unmuted: what it sounds like
  } else if (b.id === 'notify-toggle') {
    if (Notification.permission === 'default') askPermission();
    else keep.set(NOTIFY_KEY, notifyOn() ? 'off' : 'on');
  }
  drawTools();
}

// `box`: the header's place for the toggles.
export function initNotify(box) {
  tools = box;
  drawTools();
  box.addEventListener('click', onToolsClick);
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, unlockAudio, { capture: true });
}
