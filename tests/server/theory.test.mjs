// theory.test.mjs -- Pizza Theory tables on the server, over a real
// WebSocket: whole games with bots, two humans at one table, a spectator,
// refused moves and replays. Every view any client receives is checked: no
// view shows a cut line of another seat before the reveal (only its own, and
// the 2-player neutral's die, which is public).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverForFile, playToEnd, seeded } from './helpers.mjs';


const T = { timeout: 60_000 };

const { clients, connect } = serverForFile('theory.db');

/* Cut lines a view shows that its seat may not know. */
function cutLeaks(msg) {
  const v = msg.view;
  if (!v || v.game !== 'theory' || v.phase === 'over') return [];
  const seat = msg.type === 'view' ? msg.seat : null;
  return (v.sides || []).flatMap((s, d) => (s.cut !== null && s.colour !== seat && s.colour !== v.neutral
    ? [`${msg.type} ${msg.code} moves ${msg.moves ?? msg.step} seat ${seat}: side ${d + 1}'s line ${s.cut}`] : []));
}

test('the cut-leak check catches a line shown to the wrong seat', () => {
  const side = (colour, cut) => ({ colour, cut, chosen: cut !== null });
  const msg = (seat, sides, neutral = null) => ({ type: 'view', code: 'AAAA', seat, moves: 9,
    view: { game: 'theory', phase: 'cut', neutral, sides } });
  assert.deepEqual(cutLeaks(msg(1, [side(0, null), side(1, 4), side(2, null)])), [], 'its own line');
  assert.deepEqual(cutLeaks(msg(0, [side(0, null), side(1, null), side(2, 3)], 2)), [], 'the neutral die');
  assert.equal(cutLeaks(msg(0, [side(0, 2), side(1, 5), side(2, null)])).length, 1, "another seat's line");
  assert.equal(cutLeaks(msg(null, [side(0, 2), side(1, null), side(2, null)])).length, 1, 'a spectator');
});

function views(c) {
  return c.messages.filter((m) => m.type === 'view' || m.type === 'replay');
}

function assertNoCutLeaks() {
  const all = clients.flatMap((c) => views(c).flatMap(cutLeaks));
  assert.deepEqual(all, [], 'cut lines shown before the reveal');
  const total = clients.reduce((k, c) => k + views(c).length, 0);
  assert.ok(total > 20, `only ${total} views checked`);
}

async function create(client, players, seats, name) {
  await client.send({ type: 'create', game: 'theory', players, seats, name });
  const msg = await client.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
  assert.equal(msg.type, 'joined', `create refused: ${msg.message}`);
  return msg;
}

function assertOver(end, players) {
  assert.equal(end.view.game, 'theory');
  assert.equal(end.view.phase, 'over');
  assert.equal(end.view.cells.length, 37, 'the default board');
  assert.ok(['full', 'neutral', 'draw'].includes(end.view.result.end), `end ${end.view.result.end}`);
  assert.equal(end.score.players.length, players);
  const full = end.score.players.filter((p) => p.on_board === 16).map((p) => p.seat);
  if (end.view.result.end === 'full') {
    assert.ok(end.score.winners.length >= 1, 'a winner');
    for (const w of end.score.winners) assert.ok(full.includes(w), `winner ${w} has all 16 on the pizza`);
  } else {
    assert.deepEqual(end.score.winners, [], 'nobody wins');
  }
}

test('a 3-player table: one human and two bots play to the end; a spectator watches', T, async () => {
  const ann = await connect('ann');
  const watcher = await connect('watcher');
  const j = await create(ann, 3, ['human', 'greedy', 'random'], 'Ann');
  await watcher.send({ type: 'spectate', code: j.code });
  const end = await playToEnd(ann, j.code, { rng: seeded(3), timeout: 50_000 });
  assertOver(end, 3);
  const seen = await watcher.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over',
    5000, 'the spectator sees the end');
  assert.equal(seen.seat, null);
  assert.ok(!('legal' in seen.view));
  // the reveal of every round reached the table
  const rounds = new Set(views(ann).filter((m) => m.view.last).map((m) => m.view.last.round));
  assert.ok(rounds.size >= 2, `reveals seen: ${[...rounds]}`);
});

test('a 2-player table: the neutral die is public, the opponent cut is not', T, async () => {
  const bo = await connect('bo');
  const j = await create(bo, 2, ['human', 'greedy'], 'Bo');
  const end = await playToEnd(bo, j.code, { rng: seeded(5), timeout: 50_000 });
  assertOver(end, 2);
  assert.equal(end.view.neutral, 2);
  const rolled = views(bo).filter((m) => m.view.phase === 'cut' && Number.isInteger(m.view.die));
  assert.ok(rolled.length > 0, 'the die roll is shown while cutting');
});

test('two humans and a bot: each sees its own cut and never the other', T, async () => {
  const cy = await connect('cy');
  const di = await connect('di');
  const j = await create(cy, 3, ['human', 'human', 'random'], 'Cy');
  await di.send({ type: 'join', code: j.code, name: 'Di' });
  await di.waitFor((m) => m.type === 'joined', 5000, 'di joined');
  const [a, b] = await Promise.all([
    playToEnd(cy, j.code, { rng: seeded(7), timeout: 50_000 }),
    playToEnd(di, j.code, { rng: seeded(8), timeout: 50_000 }),
  ]);
  assertOver(a, 3);
  assert.deepEqual(a.score, b.score);
  // Someone chose before the other at least once: a view with "chosen" and no line.
  const secret = [...views(cy), ...views(di)].filter((m) => m.view.phase === 'cut' &&
    m.view.sides.some((s) => s.chosen && s.cut === null));
  assert.ok(secret.length > 0, 'a chosen but hidden cut was seen');
});

test('refused moves change nothing; a finished table replays from the start', T, async () => {
  const ed = await connect('ed');
  const j = await create(ed, 3, ['human', 'random', 'random'], 'Ed');
  const first = await ed.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.to_move === 0, 5000, 'my turn');
  const occupied = first.view.board.findIndex((c) => c >= 0);
  const label = first.view.labels[occupied];
  // Each refusal says why, naming the space by the label the log uses.
  const bad = [
    ['put 9,9,9', '9,9,9 is not a space on the board'],
    [`put ${first.view.cells[occupied].join(',')}`, `${label} already has a topping`],
    [`put ${label}`, `${label} already has a topping`],
    ['z9', "no space is labelled 'z9'"],
    ['7', "'7' names no space: a space is a row letter and a number, e.g. put "],
    ['cut 3', 'no cutting yet; now add a topping: type a label, e.g. put '],
    ['take 2', "'take 2' is not a move"],
    ['', 'nothing typed'],
  ];
  for (const [action, why] of bad) {
    await ed.send({ type: 'act', code: j.code, action });
    const msg = await ed.waitFor((m) => m.type === 'error', 5000, `error for ${JSON.stringify(action)}`);
    assert.ok(msg.message.includes(why), `${JSON.stringify(action)}: ${msg.message}`);
  }
  const look = await connect('look');
  await look.send({ type: 'spectate', code: j.code });
  const now = await look.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'the table now');
  assert.equal(now.moves, first.moves, 'no move was recorded');
  assert.deepEqual(now.view.board, first.view.board, 'the board did not change');
  // A good move after the refused ones is taken (playToEnd then starts from
  // the views it brings, after the errors).
  await ed.send({ type: 'act', code: j.code, action: first.view.legal[0] });
  await ed.waitFor((m) => m.type === 'view' && m.code === j.code && m.moves > first.moves, 5000, 'moved');
  const end = await playToEnd(ed, j.code, { rng: seeded(9), timeout: 50_000 });
  assertOver(end, 3);
  // The log speaks the players' notation and tells each reveal.
  const log = views(ed).filter((m) => m.code === j.code).flatMap((m) => m.log || []);
  assert.ok(log.some((e) => /^put [a-g]\d$/.test(e.text)), 'puts logged by label');
  assert.ok(!log.some((e) => /-?\d+,-?\d+,-?\d+/.test(`${e.text} ${e.news || ''}`)), 'no cube coordinates in the log');
  assert.ok(log.some((e) => /^Round \d+'s cuts revealed: Red line [1-6], Green line [1-6], White line [1-6]\./.test(e.news || '')),
    'a reveal in the log');
  await ed.send({ type: 'replay', code: j.code, step: 0 });
  const r = await ed.waitFor((m) => m.type === 'replay' && m.code === j.code, 5000, 'replay');
  assert.equal(r.view.phase, 'place');
  assert.equal(r.view.seat, null);
  assert.equal(r.view.on_board.reduce((x, y) => x + y, 0), 6, 'two start toppings a colour');
});

test('no view anywhere showed a cut line before its reveal', () => {
  assertNoCutLeaks();
});
