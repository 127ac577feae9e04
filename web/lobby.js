// lobby.js -- the lobby's markup: the game and seat choices of a new table,
// the list of tables the server sent, and the seats this browser holds.
import { esc } from './tokens.js';

// The games a table may play (the `game` of `create`), with their player counts.
export const GAMES = {
  nyslice: {
    name: 'New York Slice', players: [2, 3, 4, 5, 6], dflt: 4,
    about: 'I cut, you choose: each round the Slicer divides the pizza and the others pick their portions; lead the slice types you collect, or eat slices for points.',
  },
  theory: {
    name: 'Pizza Theory', players: [2, 3], dflt: 3,
    about: 'Add toppings to a hexagon pizza, then everyone picks a cut line at once, in secret: the cuts decide whose toppings stay.',
  },
  delivery: {
    name: 'New York Pizza Delivery', players: [2, 3, 4, 5, 6], dflt: 4,
    about: 'Build pizzerias across Manhattan, gather ingredients and deliver orders by street, subway and boat; or play co-op, as one team against the goals.',
  },
};

// A line on what a game is, for the lobby.
export function gameAbout(id) {
  return (GAMES[id] && GAMES[id].about) || '';
}

export function gameName(id) {
  return (GAMES[id] && GAMES[id].name) || id || 'New York Slice';
}

// The player counts a game offers, keeping `current` when the game has it.
export function playerOptions(game, current) {
  const g = GAMES[game] || GAMES.nyslice;
  const pick = g.players.includes(current) ? current : g.dflt;
  return g.players.map((n) => `<option value="${n}"${n === pick ? ' selected' : ''}>${n}</option>`).join('');
}

export const SEAT_KINDS = ['human', 'random', 'greedy', 'easy', 'medium', 'hard', 'expert'];
const KIND_LABEL = {
  human: 'Human', random: 'Bot: random', greedy: 'Bot: greedy', easy: 'Bot: easy',
  medium: 'Bot: medium', hard: 'Bot: hard', expert: 'Bot: expert',
};

// Six seat selects (seat0..seat5); the first is the creator's, so only a
// human (the server seats the creator at the first human seat; a table needs one).
export function seatSelects() {
  let out = '';
  for (let i = 0; i < 6; i++) {
    const dflt = i === 0 ? 'human' : 'greedy';
    const options = (i === 0 ? ['human'] : SEAT_KINDS).map((k) =>
      `<option value="${k}"${k === dflt ? ' selected' : ''}>${KIND_LABEL[k]}</option>`).join('');
    out += `<li data-seat="${i}"><label for="seat${i}">Seat ${i + 1}${i === 0 ? ' (you)' : ''}</label>` +
      `<select id="seat${i}" name="seat${i}">${options}</select></li>`;
  }
  return out;
}

// Who sits in a listed seat, in a few words.
function seatText(s, i) {
  if (s.player && s.player !== 'human') return `<span class="bot">${esc(s.name || `${s.player} bot`)}</span>`;
  if (s.taken) return esc(s.name || `Seat ${i + 1}`);
  return '<span class="free">free</span>';
}

function freeSeat(t) {
  return (t.seats || []).some((s) => (s.player || 'human') === 'human' && !s.taken);
}

// The tables as a list; `mine` is the set of codes where we hold a seat.
export function tablesHtml(tables, mine) {
  if (!tables || !tables.length) return '<p class="muted">No tables yet: create one.</p>';
  const rows = tables.map((t) => {
    const code = esc(t.code);
    const status = t.finished ? 'finished' : t.waiting ? 'waiting for players'
      : t.moves ? `${t.moves} move${t.moves === 1 ? '' : 's'}` : 'under way, no move yet';
    const buttons = [];
    if (mine.has(t.code) && !t.finished) buttons.push(`<button type="button" class="open-table" data-code="${code}">Return</button>`);
    else if (!t.finished && freeSeat(t)) buttons.push(`<button type="button" class="join-table" data-code="${code}">Join</button>`);
    // a finished table opens on its replay, by a plain link
    if (t.finished) buttons.push(`<a class="button secondary replay-link" href="#/t/${encodeURIComponent(t.code)}/replay">Replay</a>`);
    else buttons.push(`<button type="button" class="watch-table secondary" data-code="${code}">Watch</button>`);
    return `<li class="table-row${t.finished ? ' finished' : ''}" data-code="${code}">` +
      `<span class="code">${code}</span> <span class="game" data-game="${esc(t.game)}">${esc(gameName(t.game))}</span> ` +
      `<span class="muted">${esc(t.players)} players · ${esc(status)}</span>` +
      `<div class="seats">${(t.seats || []).map(seatText).join(', ')}</div>` +
      `<div class="row">${buttons.join('')}</div></li>`;
  });
  return `<ul class="table-list">${rows.join('')}</ul>`;
}
