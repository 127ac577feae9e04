// multinode.test.mjs -- several servers on one PostgreSQL database
// (docs/scaling.md): any server serves any table. Runs only with a
// PostgreSQL (PIZZABOX_TEST_DB, set by tests/pg/with-postgres.sh: make
// server-test-pg).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, startServer, startHaproxy, stopServers, tempDir, removeTempDir, playToEnd, humanMove, TEST_PG, storeFor } from './helpers.mjs';

const T = { timeout: 60_000, skip: !TEST_PG && 'PostgreSQL only (PIZZABOX_TEST_DB, make server-test-pg)' };
const dir = tempDir();
const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;
const servers = [], clients = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  const reports = await stopServers(servers);
  removeTempDir(dir);
  assert.deepEqual(reports, [], 'sanitizer findings in the servers');
});

const psql = (db, sql) =>
  execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [db, '-XAtqc', sql], { encoding: 'utf8' }).trim();

/* Every client's server has taken in the last seat taken: the game has begun there. */
const begun = (people, code) => Promise.all(people.map((c) =>
  c.waitFor((m) => m.type === 'view' && m.code === code && !m.waiting, 5000, `${c.label}: the game begun`)));

/* `msg` sent by `c` to its own server, which may not have heard of the
 * table yet: sent again until answered with `want` (resolves with it). */
async function untilKnown(c, msg, want) {
  let reply;
  for (let tries = 0; tries < 50 && reply?.type !== want; tries++) {
    c.skip();
    await c.send(msg);
    reply = await c.waitFor((m) => m.type === want || m.type === 'error', 5000, `${c.label}: ${want}`);
    if (reply.type !== want) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(reply.type, want, reply.message);
  return reply;
}
const seatAt = (c, code, name) => untilKnown(c, { type: 'join', code, name }, 'joined');

/* Two servers on one new database (options for each). */
async function twoServers(name, options = [{}, {}]) {
  const db = storeFor(join(dir, name));
  const one = await startServer(db, options[0]), two = await startServer(db, options[1]);
  servers.push(one, two);
  return { db, one, two };
}

/* `c` makes a table (the `create` message's members): its `joined`. */
async function makeTable(c, create) {
  c.skip();
  await c.send({ type: 'create', ...create });
  const made = await c.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, `${c.label}: created`);
  assert.equal(made.type, 'joined', made.message);
  return made;
}

async function connect(server, label) {
  const c = await Client.connect(server.url, label);
  clients.push(c);
  return c;
}

test('two servers, one database: players on different servers play a table to the end', T, async () => {
  const { db, one, two } = await twoServers('shared.db');
  const ann = await connect(one, 'ann'), bob = await connect(two, 'bob');
  const made = await makeTable(ann, { game: 'theory', players: 2, seats: ['human', 'human'], name: 'Ann' });
  // The other server hears of the new table and seats Bob at it.
  await seatAt(bob, made.code, 'Bob');
  // Ann, on the first server, sees Bob arrive from the second.
  await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.names[1] === 'Bob' && m.present[1], 5000,
    "Bob, there, at Ann's");
  // A chat line said on one server is heard on the other; two said at the
  // same moment on both are both kept, each with a number of its own.
  await ann.send({ type: 'chat', code: made.code, text: 'good luck' });
  const line = await bob.waitFor((m) => m.type === 'chat' && m.lines.some((x) => x.text === 'good luck'), 5000, 'the chat line');
  assert.equal(line.lines.find((x) => x.text === 'good luck').name, 'Ann');
  await Promise.all([ann.send({ type: 'chat', code: made.code, text: 'from Ann' }),
    bob.send({ type: 'chat', code: made.code, text: 'from Bob' })]);
  const heard = (c, text) => c.messages.some((m) => m.type === 'chat' && m.lines.some((x) => x.text === text));
  for (const c of [ann, bob]) {
    await c.waitFor(() => heard(c, 'from Ann') && heard(c, 'from Bob'), 5000, `${c.label}: both lines`);
  }
  assert.deepEqual(psql(db, `SELECT n FROM chat JOIN tables ON tables.id = table_id WHERE code = '${made.code}' ORDER BY n`)
    .split('\n'), ['0', '1', '2'], 'three lines, numbered in order');
  const [endA, endB] = await Promise.all([playToEnd(ann, made.code), playToEnd(bob, made.code)]);
  assert.equal(endA.moves, endB.moves, 'both servers show the same end');
  assert.deepEqual(endA.view.scores ?? endA.view.score, endB.view.scores ?? endB.view.score);
  const stored = Number(psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${made.code}'`));
  assert.equal(stored, endA.moves, 'each move stored once');
  assert.equal(psql(db, 'SELECT count(*) FROM nodes'), '2', 'each server is a node');
  // Both ask for a rematch at the same moment, each through their server:
  // one table, both at it.
  await Promise.all([ann.send({ type: 'rematch', code: made.code }), bob.send({ type: 'rematch', code: made.code })]);
  const again = await Promise.all([ann, bob].map((c) =>
    c.waitFor((m) => (m.type === 'joined' && m.code !== made.code) || m.type === 'error', 5000, `${c.label}: the rematch`)));
  assert.deepEqual(again.map((m) => m.type), ['joined', 'joined'], JSON.stringify(again.map((m) => m.message)));
  assert.equal(again[0].code, again[1].code, 'the same rematch table');
  assert.notEqual(again[0].seat, again[1].seat);
  // Bob leaves the second server: the first shows his seat empty.
  ann.skip();
  await bob.close();
  await ann.waitFor((m) => m.type === 'view' && m.code === made.code && !m.present[1], 5000, "Bob's seat empty at Ann's");
  for (const s of [one, two]) assert.doesNotMatch(s.stderr, /not read again|not taken in/, 'every change taken in as it came');
});

test("a server killed mid-game: its players go on through another, every move kept, its bot's move taken over", T, async (t) => {
  // The first server shows a bot's move 2 s after the move before; the
  // second at once: a bot's turn that lasts was claimed by the first.
  const { db, one, two } = await twoServers('failover.db', [{ botPace: 2000 }, {}]);
  const ann = await connect(one, 'ann2'), bob = await connect(two, 'bob2');
  // Play on until the bot's move is due and claimed by the first server
  // (the database says which), then kill it. A server that takes in several
  // moves at once shows only the last, so the clients stop by move count.
  // (A game may end with no such moment: then another table.)
  const oneId = psql(db, `SELECT id FROM nodes WHERE pid = ${one.proc.pid}`);
  let made, pending = null;
  for (let table = 0; table < 3 && !pending; table++) {
    made = await makeTable(ann, { game: 'nyslice', players: 3, seats: ['human', 'human', 'greedy'], name: 'Ann' });
    await seatAt(bob, made.code, 'Bob');
    await begun([ann, bob], made.code);
    const id = psql(db, `SELECT id FROM tables WHERE code = '${made.code}'`);
    const stored = () => Number(psql(db, `SELECT count(*) FROM actions WHERE table_id = ${id}`));
    const claimNow = () => psql(db, `SELECT node FROM bot_claims WHERE table_id = ${id} AND moves = ${stored()}`);
    for (let n = 1; !pending; n++) {
      const [at] = await Promise.all([ann, bob].map((c) => playToEnd(c, made.code, { stop: (m) => m.moves >= n })));
      if (at.view.phase === 'over') break;
      if (claimNow() === oneId) pending = { moves: stored() };
    }
  }
  assert.ok(pending, "a bot's move claimed by the first server, in one of three games");
  const killedAt = Date.now();
  one.proc.kill('SIGKILL');
  await one.exited;
  const botMoved = await bob.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > pending.moves, 15_000,
    "the bot's move, by the second server");
  const takeover = Date.now() - killedAt;
  assert.ok(takeover >= 3000, `taken over once the first server was silent long enough (${takeover} ms)`);
  t.diagnostic(`the bot's move made by the other server ${takeover} ms after the kill`);
  const ann2 = await connect(two, 'ann2 again');
  await ann2.send({ type: 'resume', code: made.code, seat: made.seat, token: made.token });
  const back = await ann2.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'resumed');
  assert.equal(back.type, 'joined', back.message);
  const [endA, endB] = await Promise.all([playToEnd(ann2, made.code, { timeout: 45_000 }),
    playToEnd(bob, made.code, { timeout: 45_000 })]);
  assert.equal(endA.moves, endB.moves);
  // (the bot's move taken over may have been the game's last)
  assert.ok(endA.moves > botMoved.moves || botMoved.view.phase === 'over', 'the game went on');
  const stored = Number(psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${made.code}'`));
  assert.equal(stored, endA.moves, 'every move acknowledged is stored, once');
  assert.doesNotMatch(two.stderr, /not read again|not taken in/, 'every change taken in as it came');
});

test('through HAProxy (deploy/haproxy.cfg): a server killed mid-game, its player comes back through HAProxy to another',
  { ...T, skip: T.skip || (!hasHaproxy && 'haproxy is not installed (sh scripts/ensure-deps.sh test)') }, async (t) => {
    const db = storeFor(join(dir, 'balanced.db'));
    const nodes = [];
    for (let i = 0; i < 3; i++) nodes.push(await startServer(db, { args: ['--trust-proxy'] }));
    servers.push(...nodes);
    const lb = await startHaproxy(nodes, dir);
    after(lb.stop);
    // Three people, one on each server (leastconn), and a bot.
    const people = [];
    for (const name of ['Ann', 'Bob', 'Cy']) people.push(await Client.connect(lb.url, name));
    clients.push(...people);
    const seats = [await makeTable(people[0], { game: 'nyslice', players: 4, seats: ['human', 'human', 'human', 'greedy'],
      name: 'Ann' })];
    for (const c of people.slice(1)) seats.push(await seatAt(c, seats[0].code, c.label));
    const code = seats[0].code;
    await begun(people, code);
    const far = (m) => m.moves >= 10;
    await Promise.all(people.map((c) => playToEnd(c, code, { stop: far })));
    const killedAt = Date.now();
    nodes[0].proc.kill('SIGKILL');
    await nodes[0].exited;
    await new Promise((r) => setTimeout(r, 300));
    const lost = people.filter((c) => c.closed);
    assert.equal(lost.length, 1, 'one person was on the server killed');
    // Back through HAProxy, to another server, with the seat's token.
    const i = people.indexOf(lost[0]);
    const back = await Client.connect(lb.url, `${lost[0].label} again`);
    clients.push(back);
    await back.send({ type: 'resume', code, seat: seats[i].seat, token: seats[i].token });
    const again = await back.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'resumed');
    assert.equal(again.type, 'joined', again.message);
    t.diagnostic(`back at the table through HAProxy ${Date.now() - killedAt} ms after the kill (300 of them waited)`);
    people[i] = back;
    const ends = await Promise.all(people.map((c) => playToEnd(c, code, { timeout: 50_000 })));
    assert.ok(ends.every((e) => e.moves === ends[0].moves), 'the same end everywhere');
    const stored = Number(psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${code}'`));
    assert.equal(stored, ends[0].moves, 'every move acknowledged is stored, once');
  });

test('a decision taken back on one server is taken back on the other (a spectator there sees it)', T, async () => {
  const { one, two } = await twoServers('undo.db');
  const ann = await connect(one, 'ann3'), cy = await connect(two, 'cy3');
  const made = await makeTable(ann, { game: 'theory', players: 2, seats: ['human', 'greedy'], name: 'Ann' });
  const at = await playToEnd(ann, made.code, { stop: (m) => m.moves >= 4 && m.view.to_move === 0 && m.undo });
  await untilKnown(cy, { type: 'spectate', code: made.code }, 'watching');
  await cy.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves === at.moves, 5000, 'the game so far');
  cy.skip();
  await ann.send({ type: 'undo', code: made.code });
  const back = await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves < at.moves, 5000, 'taken back');
  await cy.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves === back.moves, 5000,
    'taken back at the spectator, on the other server');
  assert.doesNotMatch(two.stderr, /not read again|not taken in/);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/* The newest view of the table `c` has received. */
const newestView = (c, code) => c.messages.findLast((m) => m.type === 'view' && m.code === code);
/* A spectator's view of the table through `server`: who is present there. */
async function presentSeen(server, code, label) {
  const c = await connect(server, label);
  const seen = await untilKnown(c, { type: 'spectate', code }, 'watching');
  const view = seen.view ? seen : await c.waitFor((m) => m.type === 'view' && m.code === code, 5000, `${label}: a view`);
  await c.close();
  return view.present;
}

/* Two people on two servers at a new 2-player table: [first, second, its `joined`]. */
async function tableAcross(one, two, labels, create = {}) {
  const a = await connect(one, labels[0]), b = await connect(two, labels[1]);
  const made = await makeTable(a, { game: 'theory', players: 2, seats: ['human', 'human'], name: 'Ann', ...create });
  await seatAt(b, made.code, 'Bob');
  await begun([a, b], made.code);
  return [a, b, made];
}

test("a server whose machine's clock is 10 s ahead: still counted alive, each turn timed alike on both servers", T,
  async () => {
    const ahead = { PIZZABOX_CLOCK_AHEAD_MS: '10000' }; // the server's one reading of the time of day, 10 s on
    const { one, two } = await twoServers('skew.db', [{}, { env: ahead }]);
    const [ann, bob, made] = await tableAcross(one, two, ['ann5', 'bob5'],
      { game: 'nyslice', clock: { mode: 'realtime', minutes: 5 } });
    // Three turns of about 1.5 s, on whichever server the mover is: both
    // servers show the time each took, to within half a second.
    const taken = [0, 0];
    for (let turn = 0; turn < 3; turn++) {
      const view = newestView(ann, made.code);
      const seat = view.view.to_move, mover = seat === made.seat ? ann : bob;
      await sleep(1500);
      const before = Date.now();
      await mover.send({ type: 'act', code: made.code, action: humanMove(newestView(mover, made.code).view) });
      for (const c of [ann, bob]) {
        const next = await c.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > view.moves, 5000,
          `${c.label}: turn ${turn} seen`);
        if (c === ann) taken[seat] += 1500 + (Date.now() - before) / 2;
        const left = next.clock.left[seat];
        assert.ok(Math.abs(300_000 - taken[seat] - left) < 500,
          `${c.label}: seat ${seat} has ${left} ms left after about ${Math.round(taken[seat])} ms taken`);
      }
    }
    // Longer than a silent server is waited for: each still sees the other's player.
    await sleep(2000);
    assert.equal((await presentSeen(two, made.code, 'cy5'))[made.seat], true, 'Ann, on the server behind, present on the one ahead');
    assert.equal((await presentSeen(one, made.code, 'di5'))[1 - made.seat], true, 'Bob present on the other');
  });

test('the servers\' listening connections cut: they listen again and read what they missed', T, async () => {
  const { db, one, two } = await twoServers('listener.db');
  const [ann, bob, made] = await tableAcross(one, two, ['ann6', 'bob6']);
  const cpu = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13)
    .reduce((a, b) => a + Number(b), 0);
  const cpuBefore = cpu(two.proc.pid);
  const listeners = "FROM pg_stat_activity WHERE application_name = 'pizzabox listener' AND datname = current_database()";
  assert.equal(psql(db, `SELECT count(pg_terminate_backend(pid)) ${listeners}`), '2');
  await sleep(1500);
  // A connection lost is not watched in a loop while it is opened again.
  assert.ok(cpu(two.proc.pid) - cpuBefore < 50, `the server idled while its listener was away (${cpu(two.proc.pid) - cpuBefore} ticks)`);
  const [endA, endB] = await Promise.all([playToEnd(ann, made.code), playToEnd(bob, made.code)]);
  assert.equal(endA.moves, endB.moves, 'both servers show the same end');
  assert.equal(psql(db, `SELECT count(*) ${listeners}`), '2', 'both listening again');
});

test('a server stalled past the wait is taken for dead, then says again who is connected to it', T, async () => {
  const { one, two } = await twoServers('stall.db');
  const [ann, bob, made] = await tableAcross(one, two, ['ann7', 'bob7']);
  one.proc.kill('SIGSTOP');
  await bob.waitFor((m) => m.type === 'view' && m.code === made.code && !m.present[made.seat], 9000,
    "Ann taken for gone at Bob's while her server is stalled");
  one.proc.kill('SIGCONT');
  await bob.waitFor((m) => m.type === 'view' && m.code === made.code && m.present[made.seat], 5000,
    "Ann present again at Bob's once her server is back");
  const [endA, endB] = await Promise.all([playToEnd(ann, made.code), playToEnd(bob, made.code)]);
  assert.equal(endA.moves, endB.moves);
});

test('the quota of unfinished tables per address counts the tables made through every server', T, async () => {
  const behindProxy = { args: ['--trust-proxy', '--tables-per-client', '1'] };
  const { one, two } = await twoServers('quota.db', [behindProxy, behindProxy]);
  const from = { forwardedFor: '198.51.100.8' };
  const ann = await Client.connect(one.url, 'ann8', 5000, from), again = await Client.connect(two.url, 'ann8 again', 5000, from);
  clients.push(ann, again);
  const made = await makeTable(ann, { game: 'theory', players: 2, seats: ['human', 'human'], name: 'Ann' });
  await untilKnown(again, { type: 'spectate', code: made.code }, 'watching'); // the other server has it
  again.skip();
  await again.send({ type: 'create', game: 'theory', players: 2, seats: ['human', 'human'], name: 'Ann' });
  const refused = await again.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'created?');
  assert.equal(refused.type, 'error', 'a second table from the same address, through the other server');
  assert.match(refused.message, /too many tables/);
});

test('a server of an earlier version still serving the database: a new one will not start beside it', T, async () => {
  const db = storeFor(join(dir, 'older.db'));
  servers.push(await startServer(db)); // the schema made
  // A version-1 server held this advisory lock while it served.
  const holder = spawn(process.env.PIZZABOX_TEST_PSQL || 'psql', [db, '-XAtq'], { stdio: ['pipe', 'ignore', 'inherit'] });
  holder.stdin.write('SELECT pg_advisory_lock(2425);\n');
  for (let i = 0; i < 50 && psql(db, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 2425") !== '1'; i++) await sleep(100);
  await assert.rejects(startServer(db), /earlier version .*serving this database: stop it/);
  holder.stdin.end();
  await new Promise((r) => holder.on('exit', r));
  servers.push(await startServer(db));
});

test('a clock run out while its player and the other are on different servers: the seat goes to a bot, once',
  { ...T, timeout: 120_000 }, async () => {
    const { db, one, two } = await twoServers('flag.db');
    const [ann, bob, made] = await tableAcross(one, two, ['ann9', 'bob9'],
      { game: 'nyslice', clock: { mode: 'realtime', minutes: 1 } });
    const start = newestView(ann, made.code), seat = start.view.to_move; // who lets the flag fall
    const outOfTime = (m) => m.type === 'view' && m.code === made.code &&
      (m.events ?? []).some((e) => e.kind === 'time' && e.seat === seat);
    const seen = await Promise.all([ann, bob].map((c) => c.waitFor(outOfTime, 75_000, `${c.label}: the flag fallen`)));
    for (const m of seen) {
      assert.equal(m.clock.left[seat], null, "a bot's seat now, without a clock");
      assert.equal(m.clock.out[seat], true, 'shown out of time on both servers');
    }
    // The bot in that seat plays on, seen on both servers (maybe in the same view).
    await Promise.all([ann, bob].map((c) => newestView(c, made.code).moves > start.moves ||
      c.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > start.moves, 10_000, `${c.label}: the bot's move`)));
    assert.equal(psql(db, `SELECT count(*) FROM events JOIN tables ON tables.id = table_id WHERE code = '${made.code}' AND kind = 'time'`),
      '1', 'handed over by one server');
    for (const s of [one, two]) assert.doesNotMatch(s.stderr, /not read again|not taken in/);
  });

test('a server started in the middle of a turn times that turn as the server serving it does', T, async () => {
  const db = storeFor(join(dir, 'midturn.db'));
  const one = await startServer(db);
  servers.push(one);
  const ann = await connect(one, 'ann10'), bob = await connect(one, 'bob10');
  const made = await makeTable(ann, { game: 'nyslice', players: 2, seats: ['human', 'human'], name: 'Ann',
    clock: { mode: 'realtime', minutes: 5 } });
  const joined = [made, await seatAt(bob, made.code, 'Bob')];
  await begun([ann, bob], made.code);
  const view = newestView(ann, made.code);
  const seat = view.view.to_move, mine = joined.find((j) => j.seat === seat);
  await sleep(3000);
  const two = await startServer(db); // reads the table in 3 s into the turn
  servers.push(two);
  const cy = await connect(two, 'cy10');
  await untilKnown(cy, { type: 'spectate', code: made.code }, 'watching');
  // The mover goes on through the new server: the turn it stores is the whole turn.
  const mover = await connect(two, 'mover10');
  await mover.send({ type: 'resume', code: made.code, seat, token: mine.token });
  const resumed = await mover.waitFor((m) => m.type === 'view' && m.code === made.code, 5000, 'resumed on the new server');
  await sleep(1000);
  await mover.send({ type: 'act', code: made.code, action: humanMove(resumed.view) });
  const [a, c] = await Promise.all([ann, cy].map((x) =>
    x.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > view.moves, 5000, `${x.label}: the move`)));
  assert.ok(Math.abs(a.clock.left[seat] - c.clock.left[seat]) < 300,
    `the time left after the turn: ${a.clock.left[seat]} ms on the first server, ${c.clock.left[seat]} on the second`);
  assert.ok(a.clock.left[seat] < 300_000 - 3500, 'the whole turn charged');
});

test('a decision taken back gives its time back alike on every server', T, async () => {
  const { one, two } = await twoServers('undotime.db');
  const ann = await connect(one, 'ann11'), cy = await connect(two, 'cy11');
  const made = await makeTable(ann, { game: 'nyslice', players: 2, seats: ['human', 'greedy'], name: 'Ann',
    clock: { mode: 'realtime', minutes: 5 } });
  await untilKnown(cy, { type: 'spectate', code: made.code }, 'watching');
  let v = await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.view.to_move === made.seat, 10_000, 'Ann to move');
  await sleep(1500);
  await ann.send({ type: 'act', code: made.code, action: humanMove(v.view) });
  v = await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > v.moves &&
    m.view.to_move === made.seat && m.undo, 10_000, 'Ann to move again');
  await sleep(2000);
  cy.skip();
  await ann.send({ type: 'undo', code: made.code });
  const back = await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves < v.moves, 5000, 'taken back');
  const seen = await cy.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves === back.moves, 5000,
    'taken back on the other server');
  assert.ok(Math.abs(back.clock.left[made.seat] - seen.clock.left[made.seat]) < 300,
    `after the undo: ${back.clock.left[made.seat]} ms left on the first server, ${seen.clock.left[made.seat]} on the second`);
});

test('a table closed in the database leaves every server: whoever is at it is told, and it takes no more moves', T, async () => {
  const { db, one, two } = await twoServers('closed.db');
  const [ann, bob, made] = await tableAcross(one, two, ['ann12', 'bob12']);
  const moves = () => psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${made.code}'`);
  const before = moves();
  // What a server closing an abandoned table writes (its own notice tells the others).
  psql(db, `UPDATE tables SET finished = 2 WHERE code = '${made.code}'`);
  const closed = (m) => m.type === 'error' && /that table was closed/.test(m.message);
  await Promise.all([ann, bob].map((c) => c.waitFor(closed, 5000, `${c.label}: told the table was closed`)));
  for (const c of [ann, bob]) {
    c.skip();
    await c.send({ type: 'act', code: made.code, action: 'pass' });
    await c.waitFor(closed, 5000, `${c.label}: a move refused`);
  }
  assert.equal(moves(), before, 'no move stored after the close');
});
