// protocol.test.mjs -- `pizzabox serve` end to end, through the WebSocket
// protocol of docs/protocol.md.
//
//   make && node --experimental-websocket --test tests/server/
//
// Starts its own servers (port 0, a temporary database) and kills them at the
// end. With the store in PostgreSQL instead of SQLite (make server-test-pg):
//   sh tests/pg/with-postgres.sh node --experimental-websocket --test tests/server/protocol.test.mjs
// Every message any client receives goes through the view-leak check of
// helpers.mjs (a seat only ever sees its own view, spectators the public one).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import {
  Client, startServer, stopServers, tempDir, removeTempDir, playToEnd, humanMove, seeded, sleep, leakProblems, withTimeout, BIN,
  TEST_PG,
} from './helpers.mjs';

const T = { timeout: 30_000 };   // per test: nothing may hang

let dir, server;
const clients = [];              // every client of every test, for the leak check and clean-up
const servers = [];
let viewsChecked = 0;
let mysterySeen = 0;

async function connect(label, on = server) {
  const c = await Client.connect(on.url, label);
  clients.push(c);
  return c;
}

async function newServer(db) {
  const s = await startServer(db);
  servers.push(s);
  return s;
}

before(async () => {
  dir = tempDir();
  server = await newServer(pathJoin(dir, 'main.db'));
});

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  const reports = await stopServers(servers);
  if (dir) removeTempDir(dir);
  assert.deepEqual(reports, [], 'sanitizer findings in the server');
});

/* No client has seen a view it should not have (helpers.mjs, leakProblems). */
function assertNoLeaks() {
  const problems = clients.flatMap((c) => c.problems);
  assert.deepEqual(problems, [], 'view leaks');
}

/* The close of a connection, or null if it stays open for `ms`. */
const closedWithin = (c, ms = 5000) => withTimeout(c.closedPromise, ms, 'close').catch(() => null);

const bots = (n) => Array.from({ length: n }, (_, i) => (i % 2 ? 'random' : 'greedy'));

async function create(client, seats, name = 'Ann', extra = {}) {
  await client.send({ type: 'create', game: 'nyslice', players: seats.length, seats, name, ...extra });
  const msg = await client.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined after create');
  assert.equal(msg.type, 'joined', `create refused: ${msg.message}`);
  assert.match(msg.code, /^[A-HJ-NP-Z2-9]{4}$/);
  assert.match(msg.token, /^[0-9a-f]{32}$/);
  return msg;
}

async function join(client, code, name) {
  await client.send({ type: 'join', code, name });
  const msg = await client.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined after join');
  assert.equal(msg.type, 'joined', `join refused: ${msg.message}`);
  assert.equal(msg.code, code);
  return msg;
}

/* The tables of a `list`, by code. */
async function tables(client) {
  const msg = await client.sync();
  return Object.fromEntries(msg.tables.map((t) => [t.code, t]));
}

function assertFinalView(end, players) {
  assert.equal(end.type, 'view');
  assert.equal(end.view.phase, 'over');
  assert.equal(end.view.to_move, null);
  assert.ok(!('legal' in end.view), 'no legal moves once over');
  assert.ok(end.score && typeof end.score === 'object', 'a score object');
  assert.equal(end.score.players.length, players);
  for (const p of end.score.players) assert.ok(Number.isInteger(p.total), `total ${p.total}`);
  assert.ok(Array.isArray(end.score.winners) && end.score.winners.length >= 1, 'winners');
  const best = Math.max(...end.score.players.map((p) => p.total));
  for (const w of end.score.winners) {
    assert.ok(Number.isInteger(w) && w >= 0 && w < players, `winner ${w}`);
    assert.equal(end.score.players[w].total, best, 'a winner has the best total');
  }
}

function countViews(c) {
  for (const m of c.messages) {
    if (m.type !== 'view' && m.type !== 'replay') continue;
    viewsChecked++;
    if ('mystery' in m.view) mysterySeen++;
  }
}

// ---------------------------------------------------------------------------
// 5a. The leak check itself finds leaks (so its silence below means something)

test('the view-leak check catches what it should', () => {
  const players = [{ seat: 0, specials: [] }, { seat: 1, specials: [{ slug: 'mystery-slice' }] }];
  const view = (seat, extra = {}) => ({ type: 'view', code: 'AAAA', seat, moves: 3,
    view: { seat, to_move: 1, players, ...extra } });
  const seated = { AAAA: 1 }, none = new Set(), watching = new Set(['AAAA']);
  assert.deepEqual(leakProblems(view(1, { legal: ['take 1'], mystery: '9p1' }), seated, none), []);
  assert.deepEqual(leakProblems(view(null), {}, watching), []);
  assert.equal(leakProblems(view(0), seated, none).length, 1, 'a view of another seat');
  assert.equal(leakProblems({ ...view(1), view: { ...view(1).view, seat: 0 } }, seated, none).length, 1, 'view.seat differs');
  assert.equal(leakProblems(view(null, { legal: [] }), {}, watching).length, 1, 'legal for a spectator');
  assert.equal(leakProblems(view(null, { mystery: '9p1' }), {}, watching).length, 1, 'mystery for a spectator');
  assert.equal(leakProblems(view(0, { legal: [] }), { AAAA: 0 }, none).length, 1, 'legal out of turn');
  assert.equal(leakProblems(view(0, { mystery: '9p1' }), { AAAA: 0 }, none).length, 1, "another seat's mystery");
  assert.equal(leakProblems(view(1), {}, none).length, 1, 'a table not joined');
  assert.equal(leakProblems(view(null, { placing: { slices: ['?'], edible: [true] } }), {}, watching).length, 1);
  assert.equal(leakProblems({ type: 'replay', code: 'AAAA', step: 0, view: { seat: null, mystery: 'x' } }, {}, none).length, 1);
});

// ---------------------------------------------------------------------------
// 1. Whole games, one human and bots, 2 to 6 players (a spectator watches all)

let watcher;
const finished = {};             // players -> {code, end}

for (const n of [2, 3, 4, 5, 6]) {
  test(`a full game with ${n} players: one human and ${n - 1} bot${n > 2 ? 's' : ''}`, T, async () => {
    watcher ??= await connect('spectator-of-all');
    const human = await connect(`human-${n}p`);
    const seats = ['human', ...bots(n - 1)];
    const j = await create(human, seats, `Ann${n}`);
    assert.equal(j.seat, 0);
    await watcher.send({ type: 'spectate', code: j.code });
    const end = await playToEnd(human, j.code, { rng: n % 2 ? seeded(n) : null });
    assertFinalView(end, n);
    assert.equal(end.seat, 0);
    assert.deepEqual(end.players, seats);
    assert.equal(end.names[0], `Ann${n}`);
    assert.equal(end.names.length, n);
    assert.ok(end.moves > 0);
    // moves only go up, one view per move at most
    const views = human.messages.filter((m) => m.type === 'view' && m.code === j.code);
    for (let i = 1; i < views.length; i++) assert.ok(views[i].moves > views[i - 1].moves, 'moves increase');
    // the log tells each new round's Special, and any Special sent back to the box first (NYS-S4)
    const news = new Set(views.flatMap((m) => (m.log || []).map((e) => e.news).filter(Boolean)));
    for (let r = 2; r <= end.view.rounds; r++) {
      // (after what the engine did alone: the Slicer's last portion, a forced collect)
      const said = new RegExp(`(^|\\. )Round ${r}( \\(the last\\))?: today's Special is `);
      assert.ok([...news].some((s) => said.test(s)), `news of round ${r}`);
    }
    for (const m of views) {
      if (m.view.round < 2 || !m.view.today) continue;
      for (const back of m.view.today.replaced) {
        assert.ok([...news].some((s) => new RegExp(`(^|\\. )Round ${m.view.round}( \\(the last\\))?: `).test(s) &&
          s.includes(`${back.name} was revealed first and went back to the box (${back.why})`)), `${back.name} sent back`);
      }
    }
    // the spectator saw the same end, publicly
    const seen = await watcher.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over',
      5000, `spectator: the end of ${j.code}`);
    assert.equal(seen.seat, null);
    assert.equal(seen.moves, end.moves);
    assert.deepEqual(seen.score, end.score);
    const listed = (await tables(human))[j.code];
    assert.ok(listed, 'the table is listed');
    assert.equal(listed.finished, true);
    assert.equal(listed.moves, end.moves);
    assert.equal(listed.players, n);
    finished[n] = { code: j.code, end, client: human };
    assertNoLeaks();
  });
}

// ---------------------------------------------------------------------------
// 2. Two humans at one table, from two connections

test('two humans on one table play to the end, each seeing only its seat', T, async () => {
  const ann = await connect('ann');
  const bo = await connect('bo');
  const j0 = await create(ann, ['human', 'greedy', 'human', 'random']);
  const j1 = await join(bo, j0.code, 'Bo');
  assert.equal(j1.seat, 2, 'the first free human seat');
  assert.notEqual(j1.token, j0.token);
  const [endA, endB] = await Promise.all([
    playToEnd(ann, j0.code, { rng: seeded(11) }),
    playToEnd(bo, j0.code, { rng: seeded(12) }),
  ]);
  assertFinalView(endA, 4);
  assertFinalView(endB, 4);
  assert.deepEqual(j1.glossary, j0.glossary, 'each seat is given the Specials\' texts');
  assert.match(j0.glossary['cut-in-line'].text, /\w{3,}/);
  const held = endA.view.players.flatMap((pl) => pl.specials);
  assert.ok(held.length > 0 && held.every((sp) => j0.glossary[sp.slug] && !('text' in sp)), 'views name held Specials by slug');
  assert.equal(endA.moves, endB.moves);
  assert.deepEqual(endA.score, endB.score);
  assert.deepEqual(endA.names, ['Ann', 'Greedy 2', 'Bo', 'Random 4']);
  for (const [c, seat] of [[ann, 0], [bo, 2]]) {
    const views = c.messages.filter((m) => m.type === 'view');
    assert.ok(views.length > 1);
    for (const v of views) {
      assert.equal(v.seat, seat);
      assert.equal(v.view.seat, seat);
    }
  }
  // each was told of every move, in order
  const movesSeen = (c) => c.messages.filter((m) => m.type === 'view').map((m) => m.moves);
  for (const [who, seen] of [['Ann', movesSeen(ann)], ['Bo', movesSeen(bo)]]) {
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `${who}: moves never go back`);
    const all = new Set(seen);
    for (let k = seen[0]; k <= endA.moves; k++) assert.ok(all.has(k), `${who} was told of move ${k}`);
  }
  assertNoLeaks();
});

test('the others at a table hear of a join (their names list changes)', T, async () => {
  const ann = await connect('join-ann');
  const spec = await connect('join-spectator');
  const j0 = await create(ann, ['human', 'human', 'greedy']);
  await ann.waitFor((m) => m.type === 'view' && m.code === j0.code, 5000, 'first view');
  await spec.send({ type: 'spectate', code: j0.code });
  await spec.waitFor((m) => m.type === 'view' && m.code === j0.code, 5000, 'first public view');
  assert.equal(ann.messages.filter((m) => m.type === 'view').at(-1).names[1], '');
  const bo = await connect('join-bo');
  await join(bo, j0.code, 'Bo');
  await bo.waitFor((m) => m.type === 'view', 5000, "Bo's view");
  // docs/protocol.md: a view goes out "after joining and after every change at the table"
  const [told, toldSpec] = await Promise.all([
    ann.waitFor((m) => m.type === 'view' && m.code === j0.code && m.names[1] === 'Bo', 2000,
      'a view naming Bo, for Ann (seated before Bo joined)').catch((e) => e),
    spec.waitFor((m) => m.type === 'view' && m.code === j0.code && m.names[1] === 'Bo', 2000,
      'a view naming Bo, for the spectator').catch((e) => e),
  ]);
  assert.ok(!(told instanceof Error), String(told.message ?? ''));
  assert.ok(!(toldSpec instanceof Error), String(toldSpec.message ?? ''));
  assertNoLeaks();
});

test('names are cut at 32 characters, never in the middle of one', T, async () => {
  const c = await connect('names');
  const long = 'a'.repeat(31) + 'é' + 'bc';               // 34 characters, 'é' is the 32nd
  const j = await create(c, ['human', 'greedy'], long);
  const v = await c.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'first view');
  assert.equal(v.names.length, 2, `one name per seat: ${JSON.stringify(v.names)}`);
  assert.equal(v.names[0], long.slice(0, 32));
  assert.equal(v.names[1], 'Greedy 2');
  const listed = (await tables(c))[j.code];
  assert.ok(listed, 'the table is listed');
  assert.equal(listed.seats.length, 2);
  assert.equal(listed.seats[0].name, long.slice(0, 32));
  const d = await connect('names2');
  const wide = 'é'.repeat(20);                             // 20 characters (40 bytes): kept whole
  const k = await create(d, ['human', 'random'], wide);
  const w = await d.waitFor((m) => m.type === 'view' && m.code === k.code, 5000, 'first view');
  assert.equal(w.names[0], wide);
  const ctl = await connect('names3');
  const l = await create(ctl, ['human', 'random'], 'A\u0001B\nC');
  const x = await ctl.waitFor((m) => m.type === 'view' && m.code === l.code, 5000, 'first view');
  assert.equal(x.names[0], 'A?B?C', 'control characters are replaced');
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 3. Reconnecting

test('reconnect: resume with the token after a dropped connection', T, async () => {
  const ann = await connect('ann-drops');
  const j = await create(ann, ['human', 'greedy', 'random']);
  // play until it is Ann's turn again with some moves made, then drop
  const at = await playToEnd(ann, j.code, { stop: (m) => m.view.to_move === 0 && m.moves >= 5 && m.view.phase !== 'over' });
  assert.notEqual(at.view.phase, 'over', 'the game is still on');
  const M = at.moves;
  ann.drop();
  await ann.closedPromise;

  const back = await connect('ann-back');
  await back.send({ type: 'resume', code: j.code, seat: j.seat, token: j.token });
  const joined = await back.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined after resume');
  assert.equal(joined.type, 'joined', joined.message);
  assert.deepEqual([joined.code, joined.seat, joined.token], [j.code, j.seat, j.token]);
  const v = await back.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'view after resume');
  assert.equal(v.moves, M);
  assert.equal(v.seat, 0);
  assert.deepEqual(v.view, at.view, 'the same position, as the same seat sees it');
  assert.deepEqual(v.log, at.log);

  // wrong tokens: an error and no view
  const thief = await connect('thief');
  const wrong = [
    { seat: 0, token: '0'.repeat(32) },
    { seat: 0, token: j.token.toUpperCase() === j.token ? j.token.toLowerCase() : j.token.toUpperCase() },
    { seat: 0, token: j.token.slice(0, -1) },
    { seat: 0, token: j.token + '0' },
    { seat: 0, token: '' },
    { seat: 0 },
    { seat: 1, token: j.token },          // a bot's seat with a human's token
    { seat: 3, token: j.token },
    { seat: -1, token: j.token },
    { seat: '0', token: j.token },
  ];
  for (const w of wrong) {
    const from = thief.messages.length;
    await thief.send({ type: 'resume', code: j.code, ...w });
    const reply = await thief.waitFor(() => true, 5000, `reply to resume ${JSON.stringify(w)}`);
    assert.equal(reply.type, 'error', `resume ${JSON.stringify(w)}: ${JSON.stringify(reply)}`);
    await thief.sync();
    assert.ok(!thief.since(from).some((m) => m.type === 'view' || m.type === 'joined'), 'no view for a wrong token');
  }
  assert.ok(thief.isOpen);

  // the game goes on with the new connection
  const end = await playToEnd(back, j.code);
  assertFinalView(end, 3);
  assertNoLeaks();
});

test("reconnect: another seat's token is refused; a newer connection takes its own seat over", T, async () => {
  const ann = await connect('ann-2h');
  const bo = await connect('bo-2h');
  const j0 = await create(ann, ['human', 'human']);
  const j1 = await join(bo, j0.code, 'Bo');
  const x = await connect('x-2h');
  for (const w of [{ seat: 0, token: j1.token }, { seat: 1, token: j0.token }]) {
    const from = x.messages.length;
    await x.send({ type: 'resume', code: j0.code, ...w });
    const reply = await x.waitFor(() => true, 5000, 'reply to a stolen token');
    assert.equal(reply.type, 'error', JSON.stringify(reply));
    await x.sync();
    assert.ok(!x.since(from).some((m) => m.type === 'view' || m.type === 'joined'), 'no view for a stolen token');
  }
  // Bo's own token from a new connection: it takes seat 1 over
  const bo2 = await connect('bo-2h-again');
  await bo2.send({ type: 'resume', code: j0.code, seat: 1, token: j1.token });
  const r = await bo2.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
  assert.equal(r.type, 'joined', r.message);
  await bo2.waitFor((m) => m.type === 'view' && m.code === j0.code, 5000, 'view');
  const boViews = bo.messages.filter((m) => m.type === 'view').length;
  const [endA, endB] = await Promise.all([playToEnd(ann, j0.code), playToEnd(bo2, j0.code)]);
  assertFinalView(endA, 2);
  assertFinalView(endB, 2);
  await bo.sync();
  assert.equal(bo.messages.filter((m) => m.type === 'view').length, boViews, 'the old connection hears no more');
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 4. Spectators

test('a spectator gets the public view only, and may not act', T, async () => {
  const host = await connect('host-6');
  const j = await create(host, ['human', ...bots(5)]);
  const spec = await connect('spectator');
  await spec.send({ type: 'spectate', code: j.code });
  const w = await spec.waitFor((m) => m.type !== 'view', 5000, 'watching');
  const { glossary, ...watching } = w;
  assert.deepEqual(watching, { type: 'watching', code: j.code });
  // The Specials' printed texts come once, here: views name them by slug.
  assert.equal(Object.keys(glossary).length, 14, 'each of the 14 Specials in the glossary');
  assert.equal(glossary.buffet.name, 'Buffet');
  assert.match(glossary.buffet.text, /\+1 point for each pizza type/);
  assert.equal(glossary.buffet.scored, true);
  const first = await spec.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'first public view');
  assert.equal(first.seat, null);

  const from = spec.messages.length;
  await spec.send({ type: 'act', code: j.code, action: 'take 1' });
  const refused = await spec.waitFor((m) => m.type === 'error', 5000, 'error for a spectator act');
  assert.match(refused.message, /no seat/);
  await spec.send({ type: 'bot', code: j.code, seat: 0 });
  await spec.waitFor((m) => m.type === 'error', 5000, 'error for a spectator bot');

  const end = await playToEnd(host, j.code, { rng: seeded(4) });
  assertFinalView(end, 6);
  const last = await spec.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over', 5000, 'the end');
  assert.deepEqual(last.score, end.score);
  const views = spec.messages.filter((m) => m.type === 'view');
  assert.ok(views.length >= 2);
  for (const v of views) {
    assert.equal(v.seat, null);
    assert.equal(v.view.seat, null);
    assert.ok(!('legal' in v.view), 'no legal list for a spectator');
    assert.ok(!('mystery' in v.view), 'no mystery slice for a spectator');
  }
  assert.ok(spec.since(from).every((m) => m.type !== 'joined'));
  const unknown = await connect('spectator-2');
  await unknown.send({ type: 'spectate', code: 'ZZZZ' });
  assert.equal((await unknown.waitFor(() => true, 5000, 'reply')).type, 'error');
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 6. Hostile input

test('hostile input is answered with an error and changes nothing', T, async () => {
  const ann = await connect('h-ann');
  const bo = await connect('h-bo');
  const h = await connect('h-stranger');
  const fred = await connect('h-fred');
  const j0 = await create(ann, ['human', 'human']);
  const j1 = await join(bo, j0.code, 'Bo');
  const T0 = j0.code;
  const full = await create(fred, ['human', 'greedy']);
  const first = await ann.waitFor((m) => m.type === 'view' && m.code === T0, 5000, 'first view');
  const toMove = first.view.to_move;
  assert.ok(toMove === 0 || toMove === 1);
  const mover = toMove === 0 ? ann : bo;
  const other = toMove === 0 ? bo : ann;
  await bo.waitFor((m) => m.type === 'view' && m.code === T0, 5000, "Bo's first view");
  const moverView = mover.messages.filter((m) => m.type === 'view' && m.code === T0).at(-1);
  const legalMove = humanMove(moverView.view);

  const snapshot = async () => {
    const all = await tables(h);
    return { count: Object.keys(all).length, mine: all[T0], full: all[full.code] };
  };
  // let the bot at the full table finish its first moves, then it waits for Fred
  await fred.waitFor((m) => m.type === 'view' && m.view.to_move === 0, 5000, "Fred's turn");
  const before0 = await snapshot();
  assert.equal(before0.mine.moves, 0);
  const annMark = ann.messages.length, boMark = bo.messages.length;

  const refuse = async (client, payload, pattern) => {
    const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
    client.skip();
    client.sendRaw(raw);
    const reply = await client.waitFor(() => true, 5000, `reply to ${raw.slice(0, 80)}`);
    assert.equal(reply.type, 'error', `${raw.slice(0, 120)} -> ${JSON.stringify(reply).slice(0, 200)}`);
    assert.equal(typeof reply.message, 'string');
    assert.deepEqual(Object.keys(reply).filter((k) => k !== 'request').sort(), ['message', 'type']);
    if ('request' in reply) assert.equal(reply.request, JSON.parse(raw).type, 'an error names the request it refuses');
    if (pattern) assert.match(reply.message, pattern, raw);
    assert.ok(client.isOpen, `still open after ${raw.slice(0, 80)}`);
    await sleep(60);   // stay well inside the message rate
  };

  // not JSON, not an object, no type, unknown type
  for (const raw of ['{"type":', 'hello', '', '{"type":"list"} trailing', '[1,2,3]', '"list"', '42', 'null', 'true',
    '{}', '{"type":7}', '{"type":null}', '{"type":["list"]}', '{"code":"X"}', '{"type":"frobnicate"}', '{"type":"LIST"}'])
    await refuse(h, raw);
  // missing or wrong fields
  await refuse(h, { type: 'act', action: 'take 1' }, /table/);
  await refuse(h, { type: 'act', code: 'ZZZZ', action: 'take 1' }, /table/);
  await refuse(h, { type: 'join' }, /table/);
  await refuse(h, { type: 'join', code: 'ZZZZ', name: 'X' }, /table/);
  await refuse(h, { type: 'resume', code: T0 });
  await refuse(h, { type: 'resume', code: T0, seat: 0 });
  await refuse(h, { type: 'resume', code: T0, seat: 0, token: j1.token });
  await refuse(h, { type: 'resume', code: T0, seat: 1, token: j0.token });
  await refuse(h, { type: 'resume', code: T0, seat: 0, token: 42 });
  await refuse(h, { type: 'spectate' }, /table/);
  await refuse(h, { type: 'replay', code: T0 });
  await refuse(h, { type: 'replay' });
  await refuse(h, { type: 'bot', code: T0 });
  // act at a table where you have no seat
  await refuse(h, { type: 'act', code: T0, action: legalMove }, /no seat/);
  // bot without a seat at the table, or for a connected seat
  await refuse(h, { type: 'bot', code: T0, seat: 1 });
  await refuse(ann, { type: 'bot', code: T0, seat: 1 });
  await refuse(ann, { type: 'bot', code: T0, seat: 0 });
  await refuse(ann, { type: 'bot', code: T0, seat: 5 });
  await refuse(ann, { type: 'bot', code: T0, seat: '1' });
  // out of turn, and illegal moves
  await refuse(other, { type: 'act', code: T0, action: legalMove }, /not your turn/);
  await refuse(mover, { type: 'act', code: T0 }, /action/);
  await refuse(mover, { type: 'act', code: T0, action: 5 });
  for (const bad of ['', 'take 3', 'take special', 'cut 2 5 special alone', 'cut 99 special alone', 'dibs 4',
    'collect all', 'eat 9p2', 'pass', 'seconds 9', 'special', 'x'.repeat(300), 'special alone special alone'])
    await refuse(mover, { type: 'act', code: T0, action: bad });
  // seats: a second seat at the same table, a full table
  await refuse(mover, { type: 'join', code: T0, name: 'Again' });
  await refuse(h, { type: 'join', code: full.code, name: 'Late' }, /full/);
  // create: bad bots, player counts, seats
  const hs = (n) => Array(n).fill('human');
  for (const bad of [
    { players: 2, seats: ['human', 'grumpy'] },
    { players: 2, seats: ['human', 'Greedy'] },
    { players: 2, seats: ['human', 7] },
    { players: 7, seats: hs(7) },
    { players: 7, seats: ['human', ...bots(6)] },
    { players: 1, seats: hs(1) },
    { players: 0, seats: [] },
    { players: -2, seats: hs(2) },
    { players: 3, seats: hs(2) },
    { players: '2', seats: hs(2) },
    { players: 2.5, seats: hs(2) },
    { players: 2, seats: 'human,human' },
    { players: 2, seats: ['greedy', 'random'] },
    { players: 2 },
  ])
    await refuse(h, { type: 'create', game: 'nyslice', name: 'Bad', ...bad });
  await refuse(h, { type: 'create', game: 'chess', players: 2, seats: hs(2) });
  await refuse(h, { type: 'create', players: 2, seats: hs(2) });
  // replay: an unfinished table, bad steps
  await refuse(h, { type: 'replay', code: T0, step: 0 }, /finished/);
  await refuse(ann, { type: 'replay', code: T0, step: 0 }, /finished/);

  // nothing changed anywhere
  assert.deepEqual(await snapshot(), before0, 'no table changed and none was made');
  await ann.sync();
  await bo.sync();
  for (const [c, mark] of [[ann, annMark], [bo, boMark]])
    assert.ok(!c.since(mark).some((m) => m.type === 'view'), `${c.label} heard of no change`);
  assert.deepEqual(h.problems, []);

  // and every connection is still usable: the real move goes through
  await mover.send({ type: 'act', code: T0, action: legalMove });
  const moved = await other.waitFor((m) => m.type === 'view' && m.code === T0 && m.moves === 1, 5000, 'the move');
  assert.equal(moved.log.at(-1).seat, toMove);
  assert.equal((await snapshot()).mine.moves, 1);
  // a finished table: act is refused
  const fin = finished[2];
  if (fin) await refuse(fin.client, { type: 'act', code: fin.code, action: 'take 1' }, /over/);
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 6b. Transport limits, on a server of their own

let edge;

test('a message over 4 KiB closes the connection; 4 KiB exactly is served; others go on', T, async () => {
  edge ??= await newServer(pathJoin(dir, 'edge.db'));
  const bystander = await connect('bystander', edge);
  const j = await create(bystander, ['human', 'greedy']);
  const exact = await connect('exact', edge);
  const pad = 4096 - JSON.stringify({ type: 'list', pad: '' }).length;
  const msg4096 = JSON.stringify({ type: 'list', pad: 'x'.repeat(pad) });
  assert.equal(Buffer.byteLength(msg4096), 4096);
  exact.sendRaw(msg4096);
  const answer = await exact.waitFor(() => true, 5000, 'answer to 4096 bytes');
  assert.equal(answer.type, 'tables');
  assert.ok(exact.isOpen);

  const big = await connect('too-big', edge);
  big.sendRaw(JSON.stringify({ type: 'list', pad: 'x'.repeat(pad + 1) }));
  const closed = await closedWithin(big);
  assert.ok(closed, 'the connection is closed');
  assert.equal(closed.code, 1009);
  assert.ok(!big.messages.some((m) => m.type === 'tables'), 'the big message was not served');

  const huge = await connect('huge', edge);
  huge.sendRaw(JSON.stringify({ type: 'create', game: 'nyslice', players: 2, seats: ['human', 'greedy'], name: 'x'.repeat(70_000) }));
  const closed2 = await closedWithin(huge);
  assert.ok(closed2, 'a 70 KB message closes the connection too');
  assert.ok(!huge.messages.some((m) => m.type === 'joined'));

  // the others are served
  const list = await tables(exact);
  assert.ok(list[j.code]);
  assert.equal(Object.keys(list).length, 1, 'the closed connections made no table');
  const end = await playToEnd(bystander, j.code);
  assertFinalView(end, 2);
  assert.ok(edge.alive());
  assertNoLeaks();
});

test('a burst over the rate gets "too many messages" errors and the connection stays', T, async () => {
  edge ??= await newServer(pathJoin(dir, 'edge.db'));
  const c = await connect('burst-50', edge);
  for (let i = 0; i < 50; i++) c.sendRaw('{"type":"list"}');
  await c.waitFor(() => c.messages.length >= 50, 5000, '50 replies');
  const errors = c.messages.filter((m) => m.type === 'error');
  const lists = c.messages.filter((m) => m.type === 'tables');
  assert.ok(lists.length >= 40, `the burst of 40 is served (${lists.length})`);
  assert.ok(errors.length >= 1 && errors.every((e) => /too many messages/.test(e.message)), JSON.stringify(errors));
  await sleep(1200);     // the bucket fills again
  assert.ok(c.isOpen, 'still open');
  assert.equal((await c.sync()).type, 'tables');
});

test('flooding gets "too many messages" errors, the rest is ignored; others go on', T, async () => {
  edge ??= await newServer(pathJoin(dir, 'edge.db'));
  const other = await connect('calm', edge);
  const j = await create(other, ['human', 'random']);
  const c = await connect('flood-200', edge);
  for (let i = 0; i < 200; i++) c.sendRaw('{"type":"list"}');
  await c.waitFor((m) => m.type === 'error' && /too many messages/.test(m.message), 5000, 'a rate error');
  await new Promise((r) => setTimeout(r, 500));
  const answers = c.messages.filter((m) => m.type === 'tables').length;
  const errors = c.messages.filter((m) => m.type === 'error').length;
  assert.ok(answers <= 45, `at most a burst is served (${answers} answers)`);
  assert.ok(errors >= 1 && errors <= 10, `a few errors, then silence (${errors})`);
  assert.ok(other.isOpen);
  assert.ok((await tables(other))[j.code], 'the server still serves others');
  const end = await playToEnd(other, j.code);
  assertFinalView(end, 2);
  // calm again: the flooder is served once more
  await new Promise((r) => setTimeout(r, 2200));
  assert.ok((await tables(c))[j.code], 'the calmed connection is served again');
});

test('a connection holds at most 8 tables', T, async () => {
  edge ??= await newServer(pathJoin(dir, 'edge.db'));
  const c = await connect('eight', edge);
  const before0 = Object.keys(await tables(c)).length;
  for (let i = 0; i < 8; i++) await create(c, ['human', 'human']);
  await c.send({ type: 'create', game: 'nyslice', players: 2, seats: ['human', 'human'], name: 'Ninth' });
  const r = await c.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'the ninth');
  assert.equal(r.type, 'error');
  assert.match(r.message, /too many/);
  const codes = Object.keys(c.seats);
  await c.send({ type: 'spectate', code: codes[0] });
  assert.equal((await c.waitFor((m) => m.type === 'watching' || m.type === 'error', 5000, 'spectate')).type, 'error');
  assert.equal(Object.keys(await tables(c)).length, before0 + 8);
  // a ninth seat by `resume` counts too ("8 (seats and spectating)")
  const owner = await connect('ninth-owner', edge);
  const ninth = await create(owner, ['human', 'human']);
  await c.send({ type: 'resume', code: ninth.code, seat: ninth.seat, token: ninth.token });
  const r9 = await c.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'resume of a ninth seat');
  assert.equal(r9.type, 'error', 'a ninth table by resume is refused');
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 7. Crash recovery

test('after SIGKILL a new server on the same database continues every table', T, async () => {
  const db = pathJoin(dir, 'crash.db');
  let s1 = await newServer(db);
  const ann = await connect('crash-ann', s1);
  // a finished table and a running one
  const done = await create(ann, ['human', 'greedy'], 'Done');
  const doneEnd = await playToEnd(ann, done.code);
  assertFinalView(doneEnd, 2);
  const j = await create(ann, ['human', 'greedy', 'random'], 'Crash');
  const open = await create(ann, ['human', 'human', 'random'], 'Waiting');   // seat 1 never joined
  const at = await playToEnd(ann, j.code, { stop: (m) => m.view.to_move === 0 && m.moves >= 6 && m.view.phase !== 'over' });
  const M = at.moves;
  const before0 = await tables(ann);
  assert.equal(before0[j.code].moves, M);

  s1.proc.kill('SIGKILL');
  const gone = await s1.exited;
  assert.equal(gone.signal, 'SIGKILL');
  await ann.closedPromise;

  const s2 = await newServer(db);
  const back = await connect('crash-back', s2);
  const after0 = await tables(back);
  for (const code of [done.code, j.code, open.code]) {
    assert.ok(after0[code], `${code} is listed after the restart`);
    assert.deepEqual(after0[code], before0[code], `${code} is as it was`);
  }
  await back.send({ type: 'resume', code: j.code, seat: 0, token: j.token });
  const r = await back.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined after restart');
  assert.equal(r.type, 'joined', r.message);
  const v = await back.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'view after restart');
  assert.equal(v.moves, M);
  assert.deepEqual(v.view.ring, at.view.ring, 'the same ring');
  assert.deepEqual(v.view.players, at.view.players, 'the same players');
  assert.deepEqual(v.view, at.view, 'the same view');
  assert.deepEqual(v.names, at.names);
  assert.deepEqual(v.players, at.players);
  assert.deepEqual(v.log, at.log, 'the same log');

  // a move acknowledged by a view is on disk: crash right after hearing of it
  await back.send({ type: 'act', code: j.code, action: humanMove(v.view) });
  const heard = await back.waitFor((m) => m.type === 'view' && m.code === j.code && m.moves > M, 5000, 'the move');
  s2.proc.kill('SIGKILL');
  await s2.exited;
  const s3 = await newServer(db);
  const again = await connect('crash-again', s3);
  await again.send({ type: 'resume', code: j.code, seat: 0, token: j.token });
  const v3 = await again.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'view after the second restart');
  assert.ok(v3.moves >= heard.moves, `moves ${v3.moves} >= ${heard.moves}`);
  const end = await playToEnd(again, j.code);
  assertFinalView(end, 3);
  const listed = await tables(again);
  assert.equal(listed[j.code].finished, true);
  assert.equal(listed[j.code].moves, end.moves);
  // the waiting table still has its free seat, the finished one replays
  const bo = await connect('crash-bo', s3);
  const jb = await join(bo, open.code, 'Bo');
  assert.equal(jb.seat, 1);
  await again.send({ type: 'replay', code: done.code, step: doneEnd.moves });
  const rp = await again.waitFor((m) => m.type === 'replay' || m.type === 'error', 5000, 'replay after restart');
  assert.equal(rp.type, 'replay', rp.message);
  assert.equal(rp.view.phase, 'over');
  assertNoLeaks();
});

test('a database that cannot be used is refused at start with what is wrong, its password never shown', T, () => {
  const cases = [
    // nothing listens on port 1
    ['postgresql://ann:hunter2@127.0.0.1:1/pizzabox', /cannot connect to PostgreSQL at postgresql:\/\/ann:\*\*\*@127\.0\.0\.1:1\/pizzabox: .*refused/],
    ['postgres://localhost:notaport/pizzabox', /invalid integer value "notaport"/],
    ['postgresql://pizzabox@/pizzabox?host=/nonexistent-dir', /cannot connect to PostgreSQL.*nonexistent-dir/],
    ['mysql://localhost/pizzabox', /only postgresql:\/\/ \(or postgres:\/\/\) URLs/],
  ];
  for (const [db, why] of cases) {
    // serve fails (1); export was given bad input (2, its convention)
    for (const [args, code] of [[['serve', '--port', '0', '--db', db], 1], [['export', '--db', db], 2]]) {
      const r = spawnSync(BIN, args, { encoding: 'utf8', timeout: 15_000 });
      assert.equal(r.status, code, `${args[0]} --db ${db}: exit ${code} (${r.signal ?? ''} ${r.stderr})`);
      assert.match(r.stderr, new RegExp(`^pizzabox ${args[0]}: .*`), `${args[0]}: one line naming the command`);
      assert.match(r.stderr, why, `${args[0]} --db ${db}`);
      assert.doesNotMatch(r.stderr, /hunter2/);
    }
  }
});

/* Run SQL on the PostgreSQL database of a server; its rows, as text. */
function psql(db, sql) {
  return execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [db, '-XAtqc', sql], { encoding: 'utf8' }).trim();
}

test('in PostgreSQL: a move is a row of the move log, one per position; a lost connection loses nothing acknowledged',
  { ...T, skip: !TEST_PG && 'PostgreSQL only (PIZZABOX_TEST_DB, make server-test-pg)' }, async () => {
    const ann = await connect('pg-ann');
    const j = await create(ann, ['human', 'greedy'], 'Ann');
    const at = await playToEnd(ann, j.code, { stop: (m) => m.view.to_move === 0 && m.moves >= 4 && m.view.phase !== 'over' });
    const stored = () => Number(psql(server.db,
      `SELECT count(*) FROM actions JOIN tables ON tables.id = actions.table_id WHERE code = '${j.code}'`));
    assert.equal(stored(), at.moves, 'every move acknowledged is a row');
    // The key of the move log refuses a second move for a position already played.
    const id = psql(server.db, `SELECT id FROM tables WHERE code = '${j.code}'`);
    assert.throws(() => execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [server.db, '-Xqc',
      `INSERT INTO actions (table_id, idx, seat, text) VALUES (${id}, ${at.moves - 1}, 0, 'take 1')`], { stdio: 'pipe' }),
    /duplicate key value violates unique constraint "actions_pkey"/);
    assert.equal(psql(server.db, "SELECT max(version) FROM schema_version"), '5');

    // PostgreSQL drops the server's connection (a restart of PostgreSQL, a
    // network cut): a move meeting the loss is refused, not confirmed; the
    // server connects again and the game goes on.
    assert.equal(psql(server.db, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity ' +
      "WHERE application_name = 'pizzabox' AND datname = current_database()"), 't', "the server's connection ended");
    let view = at, refused = 0;
    while (view.moves === at.moves) {
      await ann.send({ type: 'act', code: j.code, action: humanMove(view.view) });
      const m = await ann.waitFor((x) => x.type === 'error' || (x.type === 'view' && x.code === j.code && x.moves > at.moves),
        5000, 'the move, or its refusal');
      if (m.type === 'error') {
        assert.match(m.message, /store/, 'refused because it could not be stored');
        assert.ok(++refused <= 1, 'refused once at most: the server connects again');
      } else view = m;
    }
    assert.ok(server.alive(), 'the server is still up');
    const end = await playToEnd(ann, j.code);
    assertFinalView(end, 2);
    assert.equal(stored(), end.moves, 'every move of the game is a row, none twice');
    assertNoLeaks();
  });

// ---------------------------------------------------------------------------
// 8. Replays

test('a finished game replays from step 0 to its last move', T, async () => {
  const ann = await connect('replay-ann');
  const j = await create(ann, ['human', 'random', 'greedy']);
  const end = await playToEnd(ann, j.code, { rng: seeded(8) });
  assertFinalView(end, 3);
  const viewer = await connect('replay-viewer');
  await viewer.send({ type: 'spectate', code: j.code });
  const pub = await viewer.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'public final view');
  assert.equal(pub.view.phase, 'over');

  const replay = async (step) => {
    await viewer.send({ type: 'replay', code: j.code, step });
    return viewer.waitFor((m) => m.type === 'replay' || m.type === 'error', 5000, `replay ${step}`);
  };
  const r0 = await replay(0);
  assert.equal(r0.type, 'replay', r0.message);
  assert.equal(r0.code, j.code);
  assert.equal(r0.step, 0);
  assert.equal(r0.view.seat, null);
  assert.equal(r0.view.round, 1);
  assert.notEqual(r0.view.phase, 'over');
  assert.ok(!('legal' in r0.view) && !('mystery' in r0.view));
  for (const p of r0.view.players) {
    assert.deepEqual(p.collected, []);
    assert.deepEqual(p.eaten, []);
    assert.deepEqual(p.specials, []);
  }
  assert.ok(r0.view.ring.every((r) => r.taken_by === null));
  const rN = await replay(end.moves);
  assert.equal(rN.type, 'replay', rN.message);
  assert.equal(rN.step, end.moves);
  assert.deepEqual(rN.view, pub.view, 'the last step is the public final view');
  let round = 1;
  for (let k = 1; k < Math.min(end.moves, 12); k++) {
    const r = await replay(k);
    assert.equal(r.type, 'replay');
    assert.ok(r.view.round >= round, 'rounds go on');
    round = r.view.round;
  }
  for (const bad of [-1, end.moves + 1, '3', 1.5, null])
    assert.equal((await replay(bad)).type, 'error', `step ${bad}`);
  await viewer.send({ type: 'replay', code: 'ZZZZ', step: 0 });
  assert.equal((await viewer.waitFor(() => true, 5000, 'reply')).type, 'error');
  assertNoLeaks();
});

test('a deal anyone can verify: its commitment shown from the start, seed and salt at the end, pizzabox verify', T, async () => {
  const ann = await connect('deal-ann');
  const j = await create(ann, ['human', 'greedy']);
  const first = await ann.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'first view');
  assert.match(first.deal.sha256, /^[0-9a-f]{64}$/);
  assert.ok(!('seed' in first.deal) && !('salt' in first.deal), 'nothing of the deal before the end');
  const end = await playToEnd(ann, j.code, { rng: seeded(12) });
  assert.equal(end.deal.sha256, first.deal.sha256, 'the same commitment throughout');
  const { seed, salt } = end.deal;
  assert.equal(createHash('sha256').update(`pizzabox-deal:${seed}:${salt}`).digest('hex'), first.deal.sha256);
  // The exported record carries it; pizzabox verify proves it, and refuses a record changed after the fact.
  const rec = JSON.parse(execFileSync(BIN, ['export', '--db', server.db, '--code', j.code], { encoding: 'utf8' }));
  assert.deepEqual(rec.deal, { sha256: first.deal.sha256, salt });
  assert.equal(rec.seed, seed);
  const file = pathJoin(dir, 'deal.json');
  writeFileSync(file, JSON.stringify(rec));
  assert.match(execFileSync(BIN, ['verify', file], { encoding: 'utf8' }), /^verified: the deal \(seed \d+\) was fixed/);
  const refused = (r) => {
    writeFileSync(file, JSON.stringify(r));
    try { execFileSync(BIN, ['verify', file], { stdio: 'pipe' }); } catch (e) { return { code: e.status, text: String(e.stderr) }; }
    return { code: 0, text: '' };
  };
  const other = refused({ ...rec, seed: (seed + 1) % 1000, actions: [] });
  assert.equal(other.code, 2);
  assert.match(other.text, /does not match its commitment|does not replay|before the game is over/);
  const salted = refused({ ...rec, deal: { ...rec.deal, salt: '00' + salt.slice(2) } });
  assert.equal(salted.code, 2);
  assert.match(salted.text, /the deal does not match its commitment/);
  const none = refused({ ...rec, deal: undefined });
  assert.match(none.text, /no deal commitment/);
});

// ---------------------------------------------------------------------------
// 9. Handing a seat to a bot

test('a seat whose player left goes to a bot, which plays it to the end', T, async () => {
  const ann = await connect('bot-ann');
  const bo = await connect('bot-bo');
  const j0 = await create(ann, ['human', 'human', 'random']);
  const j1 = await join(bo, j0.code, 'Bo');
  assert.equal(j1.seat, 1);
  const boTurn = (m) => m.view.to_move === 1 && m.moves >= 4 && m.view.phase !== 'over';
  const [atA, atB] = await Promise.all([
    playToEnd(ann, j0.code, { stop: boTurn }),
    playToEnd(bo, j0.code, { stop: boTurn }),
  ]);
  assert.equal(atA.moves, atB.moves);
  const M = atA.moves;
  // Bo is still here: refused
  await ann.send({ type: 'bot', code: j0.code, seat: 1 });
  assert.equal((await ann.waitFor((m) => m.type === 'error' || m.type === 'view', 5000, 'refusal')).type, 'error');
  bo.drop();
  await bo.closedPromise;
  // the seat stays Bo's for a few seconds (a reload must not lose it): ask until it goes
  let handed = null;
  for (let i = 0; i < 40 && !handed; i++) {
    await ann.send({ type: 'bot', code: j0.code, seat: 1 });
    // (views come meanwhile too: Bo's seat shown empty, then free to hand over)
    const r = await ann.waitFor((m) => m.type === 'error' || (m.type === 'view' && m.code === j0.code && m.players[1] === 'greedy'), 5000, 'bot');
    if (r.type === 'view') handed = r;
    else await sleep(250);
  }
  assert.ok(handed, 'the seat went to a bot');
  assert.equal(handed.players[1], 'greedy');
  assert.equal(handed.names[1], 'Bo', 'the name stays');
  assert.ok(handed.moves >= M);
  const end = await playToEnd(ann, j0.code, { rng: seeded(9) });
  assertFinalView(end, 3);
  const views = ann.messages.filter((m) => m.type === 'view' && m.code === j0.code && m.moves > M);
  assert.ok(views.some((m) => m.log.some((e) => e.seat === 1)), 'the bot moved for seat 1');
  const listed = (await tables(ann))[j0.code];
  assert.equal(listed.seats[1].player, 'greedy');
  assert.equal(listed.finished, true);
  assertNoLeaks();
});

// ---------------------------------------------------------------------------
// 5. The view-leak check, over everything every client received

/* A WebSocket handshake by hand: 'upgraded' or 'refused'. */
function handshake(path, headers = {}) {
  return new Promise((resolve) => {
    const req = http.request({ port: server.port, path, headers: {
      Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers } });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve('upgraded'); });
    req.on('response', (res) => { res.resume(); resolve('refused'); });
    req.on('error', () => resolve('refused'));
    req.setTimeout(3000, () => { req.destroy(); resolve('refused'); });
    req.end();
  });
}

test('the WebSocket is at /ws for pages of this server only; pages may not be framed', T, async () => {
  const host = `localhost:${server.port}`;
  assert.equal(await handshake('/ws'), 'upgraded', 'a client that is not a browser (no Origin)');
  assert.equal(await handshake('/ws', { Origin: `http://${host}` }), 'upgraded', 'the server\'s own page');
  assert.equal(await handshake('/ws', { Origin: 'http://evil.example' }), 'refused', 'another site\'s page');
  assert.equal(await handshake('/ws', { Origin: `http://${host}.evil.example` }), 'refused', 'a look-alike host');
  assert.equal(await handshake('/'), 'refused', 'the upgrade anywhere else');
  assert.equal(await handshake('/ws/../x'), 'refused');
  const page = await fetch(`http://${host}/`);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.equal(page.headers.get('content-security-policy'), "frame-ancestors 'none'");
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
});

test('no message to any client leaked another seat\'s view', T, (t) => {
  assertNoLeaks();
  for (const c of clients) countViews(c);
  assert.ok(viewsChecked > 200, `views checked: ${viewsChecked}`);
  t.diagnostic(`views checked: ${viewsChecked}, with a mystery slice: ${mysterySeen}`);
  for (const s of servers) if (s.stderr) t.diagnostic(`server ${s.port} stderr: ${s.stderr.slice(0, 2000)}`);
});
