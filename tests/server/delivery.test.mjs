// delivery.test.mjs -- New York Pizza Delivery tables on the server, over a
// real WebSocket: a table with bots played to the end, two humans and a bot
// picking random legal moves, refused moves, replays and spectators. Every
// view and replay any client receives is checked: a seat's own hand, power
// cards, kept-card choice, tip values and delivery quotes appear only in
// that seat's view; everything else is the same for every seat and for a
// spectator at the same move. And every delivery the engine quotes is as long
// as the route the web client computes for its preview (web/delivery.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverForFile, playToEnd, seeded } from './helpers.mjs';
import { shortestRoute } from '../../web/delivery.js';

const T = { timeout: 120_000 };
const GAME_MS = 100_000;

const { clients, connect } = serverForFile('delivery.db');

async function create(client, seats, name) {
  await client.send({ type: 'create', game: 'delivery', players: seats.length, seats, name });
  const msg = await client.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
  assert.equal(msg.type, 'joined', `create refused: ${msg.message}`);
  return msg;
}

// ---- The leak check ----

// What only the seat itself may see: its hand, its power cards, the two
// power cards it keeps one of, its legal moves and delivery quotes.
const OWN = ['hand', 'powers', 'keep_from', 'legal', 'deliveries'];

/* Problems with one view or replay message of a delivery table. */
function handLeaks(msg) {
  if ((msg.type !== 'view' && msg.type !== 'replay') || !msg.view || msg.view.game !== 'delivery') return [];
  const v = msg.view;
  const seat = msg.type === 'view' ? msg.seat : null;
  const tag = `${msg.type} ${msg.code} moves ${msg.moves ?? msg.step} seat ${seat}`;
  const out = [];
  for (const k of OWN) {
    if (!(k in v)) continue;
    if (seat === null) out.push(`${tag}: a public view has ${k}`);
    else if ((k === 'legal' || k === 'deliveries') && v.to_move !== seat) out.push(`${tag}: ${k} while ${v.to_move} is to move`);
  }
  if (seat !== null && v.phase !== 'over' && !Array.isArray(v.hand)) out.push(`${tag}: no hand of its own`);
  (v.players || []).forEach((p, i) => {
    for (const k of ['hand', 'powers', 'tips']) {
      if (!Number.isInteger(p[k])) out.push(`${tag}: player ${i}'s ${k} is ${JSON.stringify(p[k])}, not a count`);
    }
    if ('tip_money' in p && i !== seat && v.phase !== 'over') out.push(`${tag}: player ${i}'s tip money shown`);
    if (i === seat && Array.isArray(v.hand)) {
      const held = v.hand.reduce((a, c) => a + c.count, 0);
      if (held !== p.hand) out.push(`${tag}: hand of ${held} cards, but the count says ${p.hand}`);
      if ((v.powers || []).length !== p.powers) out.push(`${tag}: ${(v.powers || []).length} power cards, count ${p.powers}`);
    }
  });
  for (const e of msg.log || []) {
    if (/^keep power:/.test(e.text) && e.seat !== seat) out.push(`${tag}: seat ${e.seat}'s kept power card in the log: ${e.text}`);
  }
  // card texts only for cards in play or the viewer's own
  const visible = new Set([...(v.powers || []), ...(v.keep_from || []), ...(v.global ? [v.global] : []),
    ...(v.players || []).flatMap((p) => p.tableau || [])]);
  for (const id of Object.keys(v.power_cards || {})) {
    if (!visible.has(id)) out.push(`${tag}: the text of power card ${id}, neither in play nor the viewer's`);
  }
  // a tip's value only for a seat that looked at it (Ham): never for a spectator
  for (const o of v.orders || []) {
    if (o && 'tip_value' in o && seat === null && v.phase !== 'over') out.push(`${tag}: a tip value in a public view`);
  }
  return out;
}

// A view without what belongs to its seat alone: the same for every seat.
function publicPart(v) {
  const p = structuredClone(v);
  delete p.seat;
  for (const k of OWN) delete p[k];
  delete p.power_cards; // the viewer's own cards' texts among those in play
  for (const o of p.orders || []) if (o) delete o.tip_value; // what this seat looked at (Ham)
  if (p.phase !== 'over') for (const pl of p.players || []) delete pl.tip_money;
  return p;
}

function views(c, code) {
  return c.messages.filter((m) => m.type === 'view' && m.code === code);
}

// The last view each client got at each move count.
function byMoves(c, code) {
  const out = new Map();
  for (const m of views(c, code)) out.set(m.moves, m);
  return out;
}

function assertNoLeaks(list) {
  const found = list.flatMap((c) => c.messages.flatMap(handLeaks));
  assert.deepEqual(found, [], 'seat-only things seen by others');
  assert.deepEqual(list.flatMap((c) => c.problems), [], 'the shared leak check of every client (helpers.mjs)');
  const checked = list.reduce((k, c) => k + c.messages.filter((m) => m.type === 'view' || m.type === 'replay').length, 0);
  assert.ok(checked > 50, `only ${checked} views checked`);
}

// Every client that saw the table at some move saw the same public table.
function assertSamePublic(list, code) {
  const seen = list.map((c) => byMoves(c, code));
  let compared = 0;
  for (const [moves, first] of seen[0]) {
    for (let i = 1; i < seen.length; i++) {
      const other = seen[i].get(moves);
      if (!other) continue;
      assert.deepEqual(publicPart(other.view), publicPart(first.view),
        `move ${moves}: ${list[i].label} and ${list[0].label} see different tables`);
      compared++;
    }
  }
  assert.ok(compared > 10, `only ${compared} positions compared`);
}

function assertOver(end, players) {
  const v = end.view;
  assert.equal(v.game, 'delivery');
  assert.equal(v.phase, 'over');
  assert.equal(v.inspectors, 3, 'the third Health Inspector ended the game');
  assert.equal(end.score.players.length, players);
  end.score.players.forEach((p, i) => {
    assert.equal(p.score, v.players[i].score, `${p.name}'s score is the view's`);
    assert.equal(p.money, v.players[i].money);
    assert.equal(p.deliveries, v.players[i].deliveries);
    assert.equal(p.score, p.money + p.tableau + p.disks + p.tips, `${p.name}'s score is money + tableau + disks + tips`);
  });
  const best = Math.max(...end.score.players.map((p) => p.score));
  assert.ok(end.score.winners.length >= 1, 'a winner');
  for (const w of end.score.winners) assert.equal(end.score.players[w].score, best, 'a winner has the best score');
  assert.deepEqual(v.winners, end.score.winners);
  assert.ok(v.players.every((p) => Number.isInteger(p.tip_money)), 'tip values are shown at the end');
}

// ---- A player who builds and delivers ----

/* Random legal moves, except that deliveries are always made when possible,
 * reputation is preferred to the market, and builds to upgrades: so the
 * table sees many pizzerias and deliveries. */
function builderMove(v, rng) {
  const legal = v.legal;
  const pick = (list) => list[Math.floor(rng() * list.length)];
  const some = (re) => legal.filter((l) => re.test(l));
  if (v.phase === 'start') {
    if (some(/^deliver /).length) return pick(some(/^deliver /));
    if (legal.includes('reputation') && rng() < 0.6) return 'reputation';
    return 'market';
  }
  if (v.phase === 'reputation' && some(/^build /).length) return pick(some(/^build /));
  return pick(legal);
}

/* Play a seat with builderMove until the game is over. */
async function playBuilder(client, code, rng, timeout = GAME_MS) {
  const deadline = Date.now() + timeout;
  let after = -1;
  for (;;) {
    const msg = await client.waitFor((m) => m.type === 'error' || (m.type === 'view' && m.code === code &&
      (m.view.phase === 'over' || (m.view.to_move === m.seat && m.moves > after))),
    Math.max(1, deadline - Date.now()), `${code}: my turn or the end`);
    if (msg.type === 'error') throw new Error(`${client.label}: error while playing ${code}: ${msg.message}`);
    if (msg.view.phase === 'over') return msg;
    after = msg.moves;
    await client.send({ type: 'act', code, action: builderMove(msg.view, rng) });
  }
}

// ---- The tests ----

test('the leak check catches a hand or quote shown to the wrong seat', () => {
  const view = (seat, extra = {}) => ({ type: 'view', code: 'AAAA', seat, moves: 4, log: [],
    view: { game: 'delivery', seat, phase: 'start', to_move: 0,
      players: [{ hand: 2, powers: 0, tips: 0 }, { hand: 1, powers: 1, tips: 0 }], ...extra } });
  const mine = [{ card: 'Harlem/Ham', count: 2 }];
  assert.deepEqual(handLeaks(view(0, { hand: mine, powers: [], legal: ['market'], deliveries: [] })), []);
  assert.equal(handLeaks(view(null, { hand: mine })).length, 1, "a spectator sees a hand");
  assert.equal(handLeaks(view(1, { hand: [{ card: 'Harlem/Ham', count: 1 }], powers: ['x'], deliveries: [] })).length, 1,
    'quotes for a seat not to move');
  assert.equal(handLeaks(view(0, { hand: [{ card: 'Harlem/Ham', count: 3 }], powers: [] })).length, 1, 'a hand too big');
  const tip = view(1, { hand: [{ card: 'Harlem/Ham', count: 1 }], powers: ['x'] });
  tip.view.players[0].tip_money = 4;
  assert.equal(handLeaks(tip).length, 1, "another seat's tip money");
  const log = view(1, { hand: [{ card: 'Harlem/Ham', count: 1 }], powers: ['x'] });
  log.log = [{ seat: 0, text: 'keep power:mob-boss' }];
  assert.equal(handLeaks(log).length, 1, "another seat's kept power card");
  assert.deepEqual(publicPart(view(0, { hand: mine, powers: [] }).view), publicPart(view(1, { hand: [], powers: ['y'] }).view));
});

test('a 4-player table: one human and three bots play to the end; a spectator watches', T, async () => {
  const ann = await connect('ann');
  const watcher = await connect('watcher');
  const j = await create(ann, ['human', 'greedy', 'random', 'greedy'], 'Ann');
  await watcher.send({ type: 'spectate', code: j.code });
  const first = await watcher.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'the spectator sees the table');
  assert.equal(first.seat, null);
  const v0 = first.view;
  assert.equal(v0.player_count, 4);
  assert.ok(v0.map && v0.map.spaces.length > 0 && v0.map.roads.length > 0 && v0.map.lots.length > 0, 'the map comes with the view');
  for (const k of OWN) assert.ok(!(k in v0), `no ${k} for a spectator`);
  const end = await playBuilder(ann, j.code, seeded(3));
  assertOver(end, 4);
  assert.ok(end.view.players[0].pizzerias.length >= 1, 'Ann built');
  assert.ok(Array.isArray(end.view.hand), 'Ann still sees her own hand at the end');
  const seen = await watcher.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over',
    5000, 'the spectator sees the end');
  assert.deepEqual(seen.score, end.score);
  assert.ok(!('hand' in seen.view) && !('legal' in seen.view), 'the spectator never sees a hand');
  // Every phase of a turn was seen on the way, by the human seat.
  const phases = new Set(views(ann, j.code).map((m) => m.view.phase));
  for (const p of ['keep', 'start', 'market', 'fine', 'over']) assert.ok(phases.has(p), `phase ${p} seen (${[...phases]})`);
  assertNoLeaks([ann, watcher]);
  assertSamePublic([ann, watcher], j.code);
});

test('two humans and a bot pick random legal moves to the end; neither sees the other\'s hand', T, async () => {
  const cy = await connect('cy');
  const di = await connect('di');
  const eye = await connect('eye');
  const j = await create(cy, ['human', 'human', 'greedy'], 'Cy');
  await di.send({ type: 'join', code: j.code, name: 'Di' });
  await di.waitFor((m) => m.type === 'joined', 5000, 'di joined');
  await eye.send({ type: 'spectate', code: j.code });
  await eye.waitFor((m) => m.type === 'watching', 5000, 'watching');
  const [a, b] = await Promise.all([
    playToEnd(cy, j.code, { rng: seeded(7), timeout: GAME_MS }),
    playToEnd(di, j.code, { rng: seeded(8), timeout: GAME_MS }),
  ]);
  assertOver(a, 3);
  assert.deepEqual(a.score, b.score);
  assert.deepEqual(a.names.slice(0, 2), ['Cy', 'Di']);
  // Both really played: each seat acted, and saw its own hand change.
  const acted = (c, seat) => views(c, j.code).filter((m) => m.view.to_move === seat && Array.isArray(m.view.legal)).length;
  assert.ok(acted(cy, 0) > 10 && acted(di, 1) > 10, 'both humans had many decisions');
  const hands = (c) => new Set(views(c, j.code).map((m) => JSON.stringify(m.view.hand))).size;
  assert.ok(hands(cy) > 3 && hands(di) > 3, 'both hands changed during the game');
  // The log names kept power cards only to their owner.
  const keeps = (c) => (views(c, j.code).at(-1).log || []).concat(...views(c, j.code).map((m) => m.log || []))
    .filter((e) => /^keep /.test(e.text));
  assert.ok(keeps(cy).some((e) => e.seat === 0 && /^keep power:/.test(e.text)), 'Cy sees her own kept card');
  assert.ok(keeps(cy).some((e) => e.seat === 1 && e.text === 'keep ?'), "but not Di's");
  await eye.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over', 5000, 'the end, watched');
  assertNoLeaks([cy, di, eye]);
  assertSamePublic([cy, di, eye], j.code);
});

test('the 5-6 player box: asked for at 2 players, always at 6; a bad value or another game refuses it', T, async () => {
  const gil = await connect('gil');
  const noTips = async (msg) => (await gil.waitFor((m) => m.type === 'view' && m.code === msg.code, 5000, 'a view')).view.no_tips;
  const two = async (extra) => {
    await gil.send({ type: 'create', game: 'delivery', players: 2, seats: ['human', 'random'], name: 'Gil', ...extra });
    return gil.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined or refused');
  };
  assert.equal(await noTips(await two({ expansion: true })), 12, 'the expansion adds 3 NO TIP tokens');
  assert.equal(await noTips(await two({})), 9, 'without it, the base 9');
  const six = await create(gil, ['human', 'random', 'random', 'random', 'random', 'random'], 'Gil');
  assert.equal(await noTips(six), 12, '6 players play with the expansion');
  const bad = await two({ expansion: 'yes' });
  assert.equal(bad.type, 'error');
  assert.match(bad.message, /expansion is true or false/);
  await gil.send({ type: 'create', game: 'nyslice', players: 2, seats: ['human', 'random'], name: 'Gil', expansion: true });
  const other = await gil.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'refused');
  assert.equal(other.type, 'error');
  assert.match(other.message, /expansion/);
});

test('Extra Cheese: asked for, its cards are in the game; a bad value or another game refuses it', T, async () => {
  const hal = await connect('hal');
  const create2 = async (game, extra) => {
    await hal.send({ type: 'create', game, players: 2, seats: ['human', 'random'], name: 'Hal', ...extra });
    return hal.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined or refused');
  };
  // 144 base cards, 18 more with Extra Cheese: wherever they are at the start
  const cards = (v) => v.deck + v.open.reduce((n, c) => n + c.count, 0) + v.hand.reduce((n, c) => n + c.count, 0) +
    5 + v.orders.reduce((n, o) => n + (o ? o.cards.length : 0), 0) - 3;
  const viewOf = async (msg) => (await hal.waitFor((m) => m.type === 'view' && m.code === msg.code, 5000, 'a view')).view;
  assert.equal(cards(await viewOf(await create2('delivery', { extra_cheese: true }))), 144 + 18, 'the 18 cheese cards are in');
  assert.equal(cards(await viewOf(await create2('delivery', {}))), 144, 'without it, none');
  const bad = await create2('delivery', { extra_cheese: 1 });
  assert.equal(bad.type, 'error');
  assert.match(bad.message, /extra_cheese is true or false/);
  const other = await create2('theory', { extra_cheese: true });
  assert.equal(other.type, 'error');
  assert.match(other.message, /extra_cheese/);
});

test('refused moves change nothing; a finished table replays', T, async () => {
  const ed = await connect('ed');
  const fay = await connect('fay');
  const look = await connect('look');
  const j = await create(ed, ['human', 'human', 'random'], 'Ed');
  await fay.send({ type: 'join', code: j.code, name: 'Fay' });
  await fay.waitFor((m) => m.type === 'joined', 5000, 'fay joined');
  await look.send({ type: 'spectate', code: j.code });
  const human = { 0: ed, 1: fay };
  const isTable = (m) => m.type === 'view' && m.code === j.code;
  const humanToMove = (m) => isTable(m) && (m.view.to_move === 0 || m.view.to_move === 1);
  // The first human to move keeps a power card; anything else is refused.
  const seen = await look.waitFor(humanToMove, 10_000, 'a human to move');
  const mover = human[seen.view.to_move], idle = human[1 - seen.view.to_move];
  const first = await mover.waitFor((m) => isTable(m) && m.moves === seen.moves, 5000, 'my turn');
  assert.equal(first.view.phase, 'keep');
  assert.deepEqual(first.view.legal, first.view.keep_from.map((id) => `keep power:${id}`), 'one of two power cards to keep');
  // Not the other's turn: their moves are refused too.
  for (const action of ['market', first.view.legal[0]]) {
    await idle.send({ type: 'act', code: j.code, action });
    const msg = await idle.waitFor((m) => m.type === 'error', 5000, `error for ${idle.label}'s ${action}`);
    assert.match(msg.message, /turn/);
  }
  const bad = ['market', 'deliver 1 from MT', 'build MT-1 Midtown/Ham', 'take deck', 'pay $1', 'keep power:no-such-card',
    'end', 'done', 'tip 1', 'fine $2', '', 'market market'];
  for (const action of bad) {
    await mover.send({ type: 'act', code: j.code, action });
    const msg = await mover.waitFor((m) => m.type === 'error' || (isTable(m) && m.moves > first.moves),
      5000, `error for ${JSON.stringify(action)}`);
    assert.equal(msg.type, 'error', `${JSON.stringify(action)} was refused`);
    assert.ok(msg.message.length > 5, msg.message);
  }
  const peek = await connect('peek');
  await peek.send({ type: 'spectate', code: j.code });
  const now = await peek.waitFor(isTable, 5000, 'the table now');
  assert.equal(now.moves, first.moves, 'no move was recorded');
  assert.deepEqual(publicPart(now.view), publicPart(first.view), 'the table did not change');

  // Both humans play on (playToEnd starts from each one's newest view: one
  // after their refused moves) until a human starts a turn.
  await mover.send({ type: 'act', code: j.code, action: first.view.legal[0] });
  for (const c of [ed, fay]) await c.waitFor((m) => isTable(m) && m.moves > first.moves, 5000, 'the card kept');
  const humanStarts = (m) => m.view.phase === 'start' && (m.view.to_move === 0 || m.view.to_move === 1);
  const stops = await Promise.all([
    playToEnd(ed, j.code, { rng: seeded(4), stop: humanStarts, timeout: 20_000 }),
    playToEnd(fay, j.code, { rng: seeded(5), stop: humanStarts, timeout: 20_000 }),
  ]);
  const starter = human[stops[0].view.to_move];
  const start = stops[stops[0].view.to_move];
  assert.equal(start.view.to_move, start.seat);
  // At the start of a turn: a delivery without a pizzeria, a build before "reputation", a take before "market".
  assert.ok(Array.isArray(start.view.deliveries) && start.view.deliveries.length === 0, 'no delivery without a pizzeria');
  assert.ok(start.view.legal.includes('market') && start.view.legal.includes('reputation'));
  const lot = start.view.map.lots[0];
  const villageName = start.view.map.villages.find((v) => v.code === lot.village).name.replace(/ /g, '-');
  for (const action of ['deliver 1 from HA', `build ${lot.id} ${villageName}/Ham`, 'take deck', 'upgrade HA Harlem/Ham disk', 'pay $1']) {
    await starter.send({ type: 'act', code: j.code, action });
    const msg = await starter.waitFor((m) => m.type === 'error' || (isTable(m) && m.moves > start.moves),
      5000, `error for ${action}`);
    assert.equal(msg.type, 'error', `${action} was refused`);
  }
  const other = await look.waitFor((m) => isTable(m) && m.moves === start.moves, 5000, 'watched');
  assert.deepEqual(publicPart(other.view), publicPart(start.view), 'the spectator saw the same table, unchanged');
  // A good move after the refused ones is taken.
  await starter.send({ type: 'act', code: j.code, action: 'market' });
  const market = await starter.waitFor((m) => isTable(m) && m.moves > start.moves, 5000, 'to market');
  assert.equal(market.view.phase, 'market');
  assert.ok(market.view.legal.every((l) => /^take /.test(l)), 'then cards to take');

  const [end] = await Promise.all([
    playToEnd(ed, j.code, { rng: seeded(9), timeout: GAME_MS }),
    playToEnd(fay, j.code, { rng: seeded(10), timeout: GAME_MS }),
  ]);
  assertOver(end, 3);
  const watched = await look.waitFor((m) => m.type === 'view' && m.code === j.code && m.view.phase === 'over', 5000, 'the end');
  await ed.send({ type: 'act', code: j.code, action: 'market' });
  const late = await ed.waitFor((m) => m.type === 'error', 5000, 'no move after the end');
  assert.match(late.message, /over/);

  // The replay: from the deal, through the middle, to the final table.
  const replay = async (step) => {
    await ed.send({ type: 'replay', code: j.code, step });
    return ed.waitFor((m) => m.type === 'replay' && m.code === j.code && m.step === step, 5000, `replay ${step}`);
  };
  const r0 = await replay(0);
  assert.equal(r0.view.seat, null);
  assert.equal(r0.view.phase, 'keep');
  for (const p of r0.view.players) {
    assert.equal(p.money, 5, 'everyone starts with $5');
    assert.equal(p.hand, 5, 'and 5 cards');
    assert.deepEqual(p.pizzerias, []);
  }
  const half = Math.floor(end.moves / 2);
  const rh = await replay(half);
  assert.ok(rh.view.phase !== 'over');
  assert.ok(!('hand' in rh.view), 'a replay shows no hand');
  const rEnd = await replay(end.moves);
  assert.deepEqual(rEnd.view, watched.view, 'the replay ends where the game did');
  assertNoLeaks([ed, fay, look, peek]);
  assertSamePublic([ed, fay, look], j.code);
});

test('every delivery quoted is as long as the route the web client draws', () => {
  let checked = 0;
  for (const c of clients) {
    for (const m of c.messages) {
      if (m.type !== 'view' || !m.view || m.view.game !== 'delivery' || !Array.isArray(m.view.deliveries)) continue;
      const v = m.view;
      for (const d of v.deliveries) {
        const pz = v.players[m.seat].pizzerias.find((p) => p.village === d.from);
        const lot = v.map.lots.find((l) => l.id === pz.lot);
        const route = shortestRoute(v, lot.door, d.zone);
        assert.ok(route, `a route from ${lot.door} to ${d.zone}`);
        assert.equal(d.route[0], lot.door, 'the quoted route starts at the door');
        assert.equal(d.route.at(-1), d.zone, 'and ends on the zone');
        if (d.via) {
          // a ride, a boat or the Park Path: offered only when it is shorter
          assert.ok(d.length < route.length, `${d.move} is shorter than the streets`);
          checked++;
          continue;
        }
        assert.equal(d.route.length, d.length, `${d.move}: the quoted route has its length`);
        assert.equal(route.length, d.length, `order ${d.slot} from ${d.from} (${lot.door} to ${d.zone})`);
        assert.equal(route[0], lot.door);
        assert.equal(route.at(-1), d.zone);
        for (let i = 1; i < route.length; i++) {
          assert.ok(v.map.roads.some(([a, b]) => (a === route[i - 1] && b === route[i]) || (b === route[i - 1] && a === route[i])),
            `${route[i - 1]}-${route[i]} is a road`);
        }
        checked++;
      }
    }
  }
  assert.ok(checked >= 5, `only ${checked} quotes checked`);
  console.log(`# ${checked} delivery quotes checked against the client's routes`);
});
