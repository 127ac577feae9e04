// chat.js -- a table's chat (docs/protocol.md, "Chat"): the lines of players
// and spectators (marked), a box to write one, the server's refusals under
// it, and a per-player mute kept in this browser. Chat text is always put in
// the page as text (textContent), never as markup. In a replay only the lines
// written up to the step shown are visible.
const $ = (sel) => document.querySelector(sel);
const MUTE_KEY = 'pizzabox.mute';
const PENDING_MS = 10000; // an error before the line came back (this soon) is about that line

const lines = new Map(); // code -> Map(n -> line)
let pending = null;      // {code, text, at}: a line sent, not yet seen back
let shown = '';          // what the list shows now, to leave it alone when nothing changed
let send = () => false;
let typedName = () => '';  // the name this browser goes by (a spectator's own lines)
let current = null;      // {code, me, others, replayStep}

function muted() {
  try {
    const a = JSON.parse(localStorage.getItem(MUTE_KEY));
    return new Set(Array.isArray(a) ? a.filter((x) => typeof x === 'string') : []);
  } catch { return new Set(); }
}

function setMuted(set) {
  try { localStorage.setItem(MUTE_KEY, JSON.stringify([...set])); } catch { /* private mode: this page only */ }
}

const bySpectator = (l) => l.spectator === true || l.seat == null;

function lineName(l) {
  return typeof l.name === 'string' && l.name ? l.name : bySpectator(l) ? 'a spectator' : `Seat ${l.seat + 1}`;
}

// `sendMsg(obj)` sends to the server (false when offline); `myName()` the name typed in this browser.
export function initChat(sendMsg, myName) {
  send = sendMsg;
  typedName = myName;
  $('#chat-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    sendLine();
  });
  $('#chat-mute').addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-name]');
    if (!b) return;
    const set = muted();
    if (set.has(b.dataset.name)) set.delete(b.dataset.name); else set.add(b.dataset.name);
    setMuted(set);
    draw();
  });
}

function sendLine() {
  const input = $('#chat-text');
  const text = input.value.trim();
  if (!current || !text) return;
  showError('');
  if (!send({ type: 'chat', code: current.code, text })) return;
  pending = { code: current.code, text, at: Date.now() };
  input.value = '';
}

function showError(text) {
  const el = $('#chat-error');
  el.textContent = text;
  el.hidden = !text;
}

// A `chat` message: history on arrival, then each new line.
export function onChat(msg) {
  if (!msg || typeof msg.code !== 'string' || !Array.isArray(msg.lines)) return;
  let m = lines.get(msg.code);
  if (!m) lines.set(msg.code, (m = new Map()));
  for (const l of msg.lines) {
    if (!l || typeof l.text !== 'string' || !Number.isInteger(l.n)) continue;
    m.set(l.n, l);
    if (pending && pending.code === msg.code && pending.text === l.text && !msg.history) pending = null;
  }
  if (current && current.code === msg.code) draw();
}

// An `error`: when it answers a chat line (the server names the request it
// refuses), it is shown under the chat box (and the text given back to
// mend); true then.
export function chatError(message, request) {
  if (request !== undefined ? request !== 'chat' : !pending || Date.now() - pending.at > PENDING_MS) return false;
  if (!pending) pending = { text: '' };
  const input = $('#chat-text');
  if (!input.value) input.value = pending.text;
  pending = null;
  showError(message);
  return true;
}

// The chat of the table shown. `replayStep`: a replay's step, or null.
export function renderChat(ctx, replayStep) {
  const names = ctx.msg.names || [];
  const kinds = ctx.msg.players || [];
  const others = names.filter((n, i) => n && i !== ctx.seat && (kinds[i] || 'human') === 'human');
  const me = ctx.seat != null ? names[ctx.seat] : typedName();
  if (!current || current.code !== ctx.code) showError('');
  current = { code: ctx.code, me, others, replayStep: replayStep ?? null };
  draw();
}

function draw() {
  if (!current) return;
  const all = [...(lines.get(current.code) || new Map()).values()].sort((a, b) => a.n - b.n);
  const step = current.replayStep;
  const visible = step == null ? all : all.filter((l) => !Number.isInteger(l.move) || l.move <= step);
  const mute = muted();
  const heard = visible.filter((l) => !mute.has(lineName(l)));
  const key = JSON.stringify([current.code, step, heard.map((l) => l.n), [...mute].sort(), current.others]);
  if (key === shown) return;
  shown = key;

  const list = $('#chat-lines');
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren(...heard.map(lineItem));
  if (!heard.length) list.append(item('li', 'chat-empty muted', visible.length ? 'Only muted lines so far.' : 'No messages yet.'));
  if (atEnd) list.scrollTop = list.scrollHeight;

  // Mute buttons: the other players, and whoever else has written here.
  const people = new Set(current.others);
  for (const l of all) if (lineName(l) !== current.me) people.add(lineName(l));
  const box = $('#chat-mute');
  box.replaceChildren();
  if (people.size) box.append(item('span', 'muted', 'Mute:'));
  for (const name of people) {
    const b = item('button', 'small secondary', name);
    b.type = 'button';
    b.dataset.name = name;
    b.setAttribute('aria-pressed', String(mute.has(name)));
    b.setAttribute('aria-label', `mute ${name}`);
    b.title = mute.has(name) ? `show ${name}'s lines again` : `hide ${name}'s lines`;
    box.append(b);
  }
  box.hidden = !people.size;
}

function item(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = text;
  return el;
}

function lineItem(l) {
  const li = item('li', bySpectator(l) ? 'chat-line spectator' : 'chat-line');
  li.dataset.n = String(l.n);
  if (Number.isInteger(l.seat)) li.dataset.seat = String(l.seat);
  if (Number.isFinite(l.at)) {
    const t = item('time', 'chat-time muted', new Date(l.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
    t.dateTime = new Date(l.at).toISOString();
    li.append(t, ' ');
  }
  li.append(item('b', 'chat-name', lineName(l)));
  if (bySpectator(l)) li.append(' ', item('span', 'chat-spectator', '(spectator)'));
  li.append(': ', item('span', 'chat-text', l.text));
  return li;
}
