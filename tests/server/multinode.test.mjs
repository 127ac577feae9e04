// multinode.test.mjs -- several servers on one PostgreSQL database
// (docs/scaling.md): any server serves any table. Runs only with a
// PostgreSQL (PIZZABOX_TEST_DB, set by tests/pg/with-postgres.sh: make
// server-test-pg).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client, startServer, stopServers, tempDir, removeTempDir, playToEnd, TEST_PG, storeFor } from './helpers.mjs';

const T = { timeout: 60_000, skip: !TEST_PG && 'PostgreSQL only (PIZZABOX_TEST_DB, make server-test-pg)' };
const dir = tempDir();
const servers = [], clients = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  const reports = await stopServers(servers);
  removeTempDir(dir);
  assert.deepEqual(reports, [], 'sanitizer findings in the servers');
});

const psql = (db, sql) =>
  execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [db, '-XAtqc', sql], { encoding: 'utf8' }).trim();

async function connect(server, label) {
  const c = await Client.connect(server.url, label);
  clients.push(c);
  return c;
}

test('two servers, one database: players on different servers play a table to the end', T, async () => {
  const db = storeFor(join(dir, 'shared.db'));
  const one = await startServer(db), two = await startServer(db);
  servers.push(one, two);
  const ann = await connect(one, 'ann'), bob = await connect(two, 'bob');
  await ann.send({ type: 'create', game: 'theory', players: 2, seats: ['human', 'human'], name: 'Ann' });
  const made = await ann.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'created');
  assert.equal(made.type, 'joined', made.message);
  // The other server hears of the new table and seats Bob at it.
  let joined;
  for (let tries = 0; tries < 50 && joined?.type !== 'joined'; tries++) {
    bob.skip();
    await bob.send({ type: 'join', code: made.code, name: 'Bob' });
    joined = await bob.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
    if (joined.type !== 'joined') await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(joined.type, 'joined', joined.message);
  // Ann, on the first server, sees Bob arrive from the second.
  await ann.waitFor((m) => m.type === 'view' && m.code === made.code && m.names[1] === 'Bob' && m.present[1], 5000,
    "Bob, there, at Ann's");
  const [endA, endB] = await Promise.all([playToEnd(ann, made.code), playToEnd(bob, made.code)]);
  assert.equal(endA.moves, endB.moves, 'both servers show the same end');
  assert.deepEqual(endA.view.scores ?? endA.view.score, endB.view.scores ?? endB.view.score);
  const stored = Number(psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${made.code}'`));
  assert.equal(stored, endA.moves, 'each move stored once');
  assert.equal(psql(db, 'SELECT count(*) FROM nodes'), '2', 'each server is a node');
  // Bob leaves the second server: the first shows his seat empty.
  ann.skip();
  await bob.close();
  await ann.waitFor((m) => m.type === 'view' && m.code === made.code && !m.present[1], 5000, "Bob's seat empty at Ann's");
  for (const s of [one, two]) assert.doesNotMatch(s.stderr, /not read again|not taken in/, 'every change taken in as it came');
});

test("a server killed mid-game: its players go on through another, every move kept, its bot's move taken over", T, async () => {
  const db = storeFor(join(dir, 'failover.db'));
  // The first server shows a bot's move 2 s after the move before; the
  // second at once: a bot's turn that lasts was claimed by the first.
  const one = await startServer(db, { botPace: 2000 }), two = await startServer(db);
  servers.push(one, two);
  const ann = await connect(one, 'ann2'), bob = await connect(two, 'bob2');
  await ann.send({ type: 'create', game: 'nyslice', players: 3, seats: ['human', 'human', 'greedy'], name: 'Ann' });
  const made = await ann.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'created');
  assert.equal(made.type, 'joined', made.message);
  let joined;
  for (let tries = 0; tries < 50 && joined?.type !== 'joined'; tries++) {
    bob.skip();
    await bob.send({ type: 'join', code: made.code, name: 'Bob' });
    joined = await bob.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
    if (joined.type !== 'joined') await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(joined.type, 'joined', joined.message);
  // Play on until the bot's turn is held by the first server, then kill it.
  let pending = null;
  for (let from = 0; !pending;) {
    const botTurn = (m) => m.moves >= from && m.view.to_move === 2;
    const [at] = await Promise.all([playToEnd(ann, made.code, { stop: botTurn }), playToEnd(bob, made.code, { stop: botTurn })]);
    assert.notEqual(at.view.phase, 'over', 'the bot had a turn the first server held');
    await new Promise((r) => setTimeout(r, 400));
    const latest = bob.messages.findLast((m) => m.type === 'view' && m.code === made.code);
    if (latest.moves === at.moves) pending = at;
    else from = latest.moves + 1;
  }
  const killedAt = Date.now();
  one.proc.kill('SIGKILL');
  await one.exited;
  const botMoved = await bob.waitFor((m) => m.type === 'view' && m.code === made.code && m.moves > pending.moves, 15_000,
    "the bot's move, by the second server");
  const takeover = Date.now() - killedAt;
  assert.ok(takeover >= 3000, `taken over once the first server was silent long enough (${takeover} ms)`);
  const ann2 = await connect(two, 'ann2 again');
  await ann2.send({ type: 'resume', code: made.code, seat: made.seat, token: made.token });
  const back = await ann2.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'resumed');
  assert.equal(back.type, 'joined', back.message);
  const [endA, endB] = await Promise.all([playToEnd(ann2, made.code, { timeout: 45_000 }),
    playToEnd(bob, made.code, { timeout: 45_000 })]);
  assert.equal(endA.moves, endB.moves);
  assert.ok(endA.moves > botMoved.moves, 'the game went on');
  const stored = Number(psql(db, `SELECT count(*) FROM actions JOIN tables ON tables.id = table_id WHERE code = '${made.code}'`));
  assert.equal(stored, endA.moves, 'every move acknowledged is stored, once');
  assert.doesNotMatch(two.stderr, /not read again|not taken in/, 'every change taken in as it came');
});
