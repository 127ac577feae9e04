// queue.js -- moves queued behind a click (a game site's "then"): an element
// may carry data-then="MOVE|MOVE" beside data-action; once the first move is
// accepted and the next view has the same seat to move, the next queued move
// goes if that view allows it, else the queue is dropped silently (so is it
// when a move is refused). Pure: app.js keeps the queue and sends.

// The moves a data-then attribute names, in order.
export function thenMoves(attr) {
  return String(attr || '').split('|').map((m) => m.trim()).filter(Boolean);
}

// Whether the view allows a move: listed in its legal moves, or a move of
// several parts (a payment, a discard, a delivery's ingredients: "pay $2 A B",
// "use A B") while the view takes that verb: the legal list names one part at
// a time (the engine's choice of which), so the server judges the whole
// (refused, it drops the queue).
export function allowed(legal, move) {
  const list = legal || [];
  if (list.includes(move)) return true;
  const verb = move.split(' ')[0];
  return /^(pay|discard|use)$/.test(verb) && move.includes(' ') && list.some((l) => l.startsWith(`${verb} `));
}

// What to do with a queue ({code, seat, at, moves}: `at` the table's move
// count when its last move went) when a view message comes: {send: the move
// to send now, rest: what stays queued}, 'wait' (a view from before that move
// was played), or null (drop it).
export function nextQueued(queue, msg) {
  if (!queue || !queue.moves.length || !msg || msg.code !== queue.code) return null;
  if (typeof msg.moves === 'number' && msg.moves <= queue.at) return 'wait';
  const v = msg.view || {};
  if (msg.seat !== queue.seat || v.to_move !== queue.seat) return null;
  const [move, ...rest] = queue.moves;
  return allowed(v.legal, move) ? { send: move, rest } : null;
}
