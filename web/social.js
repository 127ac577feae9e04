// social.js -- what surrounds the moves at a table (docs/protocol.md): the
// waiting panel of a table that waits for players (its link and code, who
// has joined, who is missing, and for its creator "Start with bots"), the
// Undo button against bots, and the rematch: offered at the end, and joined
// by the others with one click.
import { esc } from './tokens.js';

const $ = (sel) => document.querySelector(sel);
const BOTS = ['random', 'greedy', 'easy', 'medium', 'hard', 'expert'];
let startBot = 'greedy'; // the creator's bot choice, kept while views come in
let hooks = null;

// hooks: send(obj), copy(url), join(code, seat, name), watch(code), open(code),
// seatAt(code) (our seat there), seated(code) (the names at a table, or null).
export function initSocial(h) {
  hooks = h;
  $('#waiting').addEventListener('change', (ev) => {
    if (ev.target.id === 'start-bot') startBot = ev.target.value;
  });
  $('#waiting').addEventListener('click', (ev) => {
    const code = ev.currentTarget.dataset.code;
    if (ev.target.closest('#waiting-copy')) hooks.copy(ev.currentTarget.dataset.url);
    else if (ev.target.closest('#start-bots')) hooks.send({ type: 'start', code, bot: startBot });
  });
  $('#table-tools').addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-do]');
    if (!b || b.disabled) return;
    const box = ev.currentTarget.dataset;
    const what = b.dataset.do;
    if (what === 'undo') hooks.send({ type: 'undo', code: box.code });
    else if (what === 'rematch') {
      b.disabled = true; // one click is one table; the answer is a `joined` (or an error)
      setTimeout(() => { b.disabled = false; }, 3000);
      hooks.send({ type: 'rematch', code: box.code });
    } else if (what === 'join-rematch') hooks.join(b.dataset.code, Number(box.seat), box.name);
    else if (what === 'watch-rematch') hooks.watch(b.dataset.code);
    else if (what === 'open-rematch') hooks.open(b.dataset.code);
  });
}

// Human seats nobody has taken yet (a free seat has no name).
function freeSeats(msg) {
  const kinds = msg.players || [];
  const names = msg.names || [];
  const out = [];
  kinds.forEach((k, i) => {
    const taken = Array.isArray(msg.taken) ? msg.taken[i] : Boolean(names[i]);
    if (k === 'human' && !taken) out.push(i);
  });
  return out;
}

const plural = (n, word) => `${n} more ${word}${n === 1 ? '' : 's'}`;

function waitingHtml(ctx, url) {
  const msg = ctx.msg;
  const free = freeSeats(msg);
  const present = msg.present || [];
  const seats = (msg.players || []).map((k, i) => {
    const name = (msg.names || [])[i];
    const you = i === ctx.seat ? ' <span class="badge">you</span>' : '';
    let state;
    if (k !== 'human') state = `<span class="bot">${esc(name || k)}</span> <span class="muted">(bot: ${esc(k)})</span>`;
    else if (free.includes(i)) state = '<span class="free">missing</span>';
    else state = `${esc(name)}${you} <span class="muted">${present[i] === false ? '(joined, away now)' : '(joined)'}</span>`;
    return `<li data-seat="${i}" class="${free.includes(i) ? 'missing' : 'joined'}">Seat ${i + 1}: ${state}</li>`;
  }).join('');
  const n = free.length;
  let start = '';
  if (ctx.seat != null && ctx.seat === msg.creator) {
    const options = BOTS.map((b) => `<option value="${b}"${b === startBot ? ' selected' : ''}>${b}</option>`).join('');
    start = '<div class="row"><label for="start-bot">Bots for the empty seats</label>' +
      `<select id="start-bot">${options}</select>` +
      '<button type="button" id="start-bots">Start with bots</button></div>';
  }
  return `<h2>Waiting for ${plural(n, 'player')}</h2>` +
    '<p>The game starts when every seat is taken. Send this link or the code to the players you invite:</p>' +
    `<p class="waiting-link"><a href="${esc(url)}">${esc(url)}</a> · code <span class="code">${esc(ctx.code)}</span> ` +
    '<button type="button" id="waiting-copy" class="small secondary">copy link</button></p>' +
    `<ul class="waiting-seats">${seats}</ul>${start}` +
    (ctx.seat != null && ctx.seat === msg.creator ? '' : `<p class="muted">Waiting for ${plural(n, 'player')}.</p>`);
}

// The rematch and undo buttons (or an offer to join the rematch).
function toolsHtml(ctx) {
  const msg = ctx.msg;
  const over = ctx.phase === 'over';
  const out = [], notes = [];
  if (msg.undo && !over && ctx.seat != null) {
    out.push('<button type="button" data-do="undo" id="undo" title="take back your last decision (every other seat is a bot)">Undo</button>');
  }
  if (over) {
    // the result keeps who left or ran out of time, and from when a bot played for them
    for (const e of msg.events || []) {
      if (e.kind === 'time' || e.kind === 'bot') notes.push(`<p class="muted result-note">After move ${esc(e.move)}: ${esc(e.text)}</p>`);
    }
    const r = typeof msg.rematch === 'string' && msg.rematch ? msg.rematch : null;
    if (r && hooks.seatAt(r)) {
      out.push(`<span>The rematch is table <span class="code">${esc(r)}</span>.</span> ` +
        `<button type="button" data-do="open-rematch" data-code="${esc(r)}">Go to the rematch</button>`);
    } else if (r) {
      // who offered it: the event the server logged, else who sits there now
      const offer = (msg.events || []).find((e) => e.kind === 'rematch');
      const by = offer && msg.names?.[offer.seat] ? [msg.names[offer.seat]] : (hooks.seated(r) || []).filter(Boolean);
      const who = by.length ? esc(by.join(', ')) : 'A player';
      out.push(ctx.seat != null
        ? `<span>${who} ${by.length > 1 ? 'offer' : 'offers'} a rematch —</span> <button type="button" data-do="join-rematch" data-code="${esc(r)}">Join</button>`
        : `<span>${who} started a rematch —</span> <button type="button" data-do="watch-rematch" data-code="${esc(r)}" class="secondary">Watch</button>`);
    } else if (ctx.seat != null) {
      out.push('<button type="button" data-do="rematch" id="rematch">Rematch</button>' +
        ' <span class="muted">a new table: the same game, seats and options, a new deal</span>');
    }
  }
  return notes.join('') + (out.length ? `<div class="row">${out.join(' ')}</div>` : '');
}

// Markup put in only when it changed: a select stays open, a screen reader is not told again.
const drawn = new Map(); // element id -> the markup last put in
function put(el, html) {
  if (drawn.get(el.id) === html) return;
  drawn.set(el.id, html);
  el.innerHTML = html;
}

// The waiting panel and the tools of the table shown (never a replay's); `url` its share link.
export function renderSocial(ctx, url) {
  const msg = ctx.msg;
  const waiting = $('#waiting');
  waiting.hidden = !msg.waiting;
  $('#table').dataset.waiting = String(Boolean(msg.waiting)); // the style hides turn marks then
  waiting.dataset.code = ctx.code;
  waiting.dataset.url = url;
  put(waiting, msg.waiting ? waitingHtml(ctx, url) : '');
  if (msg.waiting) {
    // Nobody moves while the table waits, whatever the game's view says.
    $('#prompt').textContent = 'Waiting for players: nobody moves until the table starts.';
  }
  const tools = $('#table-tools');
  const html = msg.waiting ? '' : toolsHtml(ctx);
  tools.hidden = !html;
  tools.classList.toggle('undo', Boolean(html) && !msg.waiting && ctx.phase !== 'over');
  put(tools, html);
  tools.dataset.code = ctx.code;
  tools.dataset.seat = ctx.seat == null ? '' : String(ctx.seat);
  tools.dataset.name = ctx.seat == null ? '' : (msg.names || [])[ctx.seat] || '';
}
