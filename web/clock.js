// clock.js -- table clocks (docs/protocol.md "Clocks"): the create form's
// choice, the time left on every player panel, the bots' "thinking…" mark.
// The server keeps the time; the browser only counts the running seat down
// between two views, from the moment the view arrived.
import { esc } from './tokens.js';

// The server's ranges (refused outside them).
const RANGE = {
  minutes: [1, 180, 'minutes per player'],
  increment: [0, 600, 'seconds per move'],
  hours: [1, 336, 'hours per move'],
};
const LOW_MS = 30_000; // a real-time clock under 30 s is shown in red

// ---- The create form ----

export function clockFormHtml() {
  const num = (id, name, value) => {
    const [min, max, what] = RANGE[name];
    return `<input id="${id}" name="clock_${name}" type="number" inputmode="numeric" min="${min}" max="${max}" ` +
      `value="${value}" aria-label="${what} (${min}–${max})">`;
  };
  return '<label for="clock-mode">Clock</label>' +
    '<select id="clock-mode" name="clock_mode">' +
    '<option value="none" selected>No clock</option>' +
    '<option value="realtime">Real-time</option>' +
    '<option value="turn">Turn-based (games over days)</option></select>' +
    `<div id="clock-realtime" class="row clock-row" hidden>${num('clock-minutes', 'minutes', 10)}` +
    ` <span>min each +</span> ${num('clock-increment', 'increment', 5)} <span>s a move</span></div>` +
    `<div id="clock-turn" class="row clock-row" hidden>${num('clock-hours', 'hours', 24)} <span>hours a move</span></div>` +
    '<p class="muted clock-note">Bots are never on a clock; a player out of time is replaced by a bot.</p>';
}

// Show the fields of the chosen mode; call once the form is in the page.
export function wireClockForm(root) {
  const mode = root.querySelector('#clock-mode');
  const show = () => {
    root.querySelector('#clock-realtime').hidden = mode.value !== 'realtime';
    root.querySelector('#clock-turn').hidden = mode.value !== 'turn';
    root.querySelector('.clock-note').hidden = mode.value === 'none';
  };
  mode.addEventListener('change', show);
  show();
}

// The `clock` of `create`: {clock} (null for none), or {error} naming the range.
export function clockFromForm(root) {
  const mode = root.querySelector('#clock-mode').value;
  if (mode === 'none') return { clock: null };
  const fields = mode === 'realtime' ? ['minutes', 'increment'] : ['hours'];
  const clock = { mode };
  for (const f of fields) {
    const input = root.querySelector(`#clock-${f}`);
    const [min, max, what] = RANGE[f];
    const n = Number(input.value);
    if (input.value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      return { error: `The clock's ${what} is a whole number from ${min} to ${max}.`, input };
    }
    clock[f] = n;
  }
  return { clock };
}

// ---- Time as shown ----

// Real-time (and the last hour of a turn): m:ss or h:mm:ss; turn-based: days,
// hours and minutes. Seconds are rounded up, so 0:00 means out of time.
export function formatLeft(ms, mode) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (x) => String(x).padStart(2, '0');
  if (mode === 'turn' && h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h`;
  if (mode === 'turn' && h >= 1) return `${h} h ${two(m)} min`;
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

// A clock element; `since` (performance.now() when `ms` was true) makes it
// count down, `out` marks a seat out of time.
export function clockChip(ms, mode, { since = null, out = false } = {}) {
  const label = mode === 'turn' ? 'time left for this move' : 'time left';
  const running = since != null && !out;
  const cls = ['seat-clock'];
  if (running) cls.push('running');
  if (out) cls.push('out');
  else if (mode !== 'turn' && ms < LOW_MS) cls.push('low');
  const text = out ? 'out of time' : formatLeft(ms, mode);
  return `<span class="${cls.join(' ')}" data-left="${Math.round(ms)}" data-mode="${esc(mode)}"` +
    `${running ? ` data-since="${since}"` : ''} title="${label}">` +
    `<span class="t">${text}</span></span>`;
}

// ---- The panels ----

const arrived = new WeakMap(); // view message -> performance.now() when it came

// Call for every view message as it arrives.
export function noteView(msg) {
  arrived.set(msg, performance.now());
}

function clockOf(msg) {
  const c = msg && (msg.clock || (msg.view && msg.view.clock));
  return c && typeof c === 'object' && Array.isArray(c.left) ? c : null;
}

function over(msg) {
  return Boolean(msg.view && msg.view.phase === 'over');
}

// The time a seat has, as a chip ('' for bots and tables without a clock).
// A replay or a finished table shows its times standing still.
export function seatClockHtml(msg, seat) {
  const c = clockOf(msg);
  if (!c) return '';
  const out = Boolean((c.out || [])[seat]); // its seat went to a bot, which has no time of its own
  const left = c.left[seat];
  if (typeof left !== 'number' && !out) return '';
  const running = !over(msg) && !msg.waiting && c.running === seat && arrived.has(msg);
  return clockChip(left || 0, c.mode, { since: running ? arrived.get(msg) : null, out });
}

// A bot to move is searching: "thinking…" on its panel.
export function thinking(msg, seat) {
  const v = msg.view || {};
  const kind = (msg.players || [])[seat];
  return Boolean(kind && kind !== 'human' && v.to_move === seat && !over(msg) && !msg.waiting && !msg.replaying);
}

// Adds the clocks and the thinking marks to the drawn player panels
// (every game's panel is a .player[data-seat] with a .who line). `shown` is the
// message drawn, `latest` the last view (where the clock lives); a replay's
// earlier moves show neither (the times kept are the game's last).
export function decoratePlayers(container, shown, latest) {
  if (shown.replaying) return;
  for (const panel of container.querySelectorAll('.player[data-seat]')) {
    const seat = Number(panel.dataset.seat);
    const who = panel.querySelector('.who');
    if (!who) continue;
    const chip = seatClockHtml(latest, seat);
    if (chip) who.insertAdjacentHTML('beforeend', ` ${chip}`);
    // a person not connected now: the others see that they wait for someone away
    const person = (latest.players || [])[seat] === 'human' && (latest.names || [])[seat];
    if (person && Array.isArray(latest.present) && latest.present[seat] === false && !over(latest)) {
      who.insertAdjacentHTML('beforeend', ' <span class="away" title="not connected now">away</span>');
      panel.classList.add('seat-away');
    }
    if (thinking(latest, seat)) {
      who.insertAdjacentHTML('beforeend', ' <span class="thinking">thinking…</span>');
      panel.classList.add('bot-thinking');
    }
  }
}

// My own time, for the status line (the panels may be below the fold).
export function myClockHtml(shown, latest) {
  if (shown.replaying || !Number.isInteger(latest.seat) || latest.view?.phase === 'over') return '';
  const chip = seatClockHtml(latest, latest.seat);
  return chip ? ` <span class="my-clock">your time ${chip}</span>` : '';
}

// Once a second: every running clock in the page counts down.
function tick() {
  // Cut off from the server, nobody knows how the clocks stand: they stop
  // (marked) until the next view says.
  const link = document.querySelector('#conn')?.dataset.state;
  const online = !link || link === 'open';
  for (const el of document.querySelectorAll('.seat-clock.running')) el.classList.toggle('paused', !online);
  if (!online) return;
  const now = performance.now();
  for (const el of document.querySelectorAll('.seat-clock.running')) {
    const left = Number(el.dataset.left) - (now - Number(el.dataset.since));
    const text = formatLeft(left, el.dataset.mode);
    const t = el.querySelector('.t');
    if (t.textContent !== text) t.textContent = text;
    el.classList.toggle('low', el.dataset.mode !== 'turn' && left < LOW_MS);
  }
}

export function startClocks() {
  setInterval(tick, 1000);
}
