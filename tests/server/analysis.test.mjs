// analysis.test.mjs -- `analyse`: a finished game's every decision reviewed
// by the server's bot workers (docs/protocol.md, "Analysis").
//
//   node --experimental-websocket --test tests/server/analysis.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverForFile, playToEnd, seeded } from './helpers.mjs';

const T = { timeout: 60_000 };
const file = serverForFile('analysis.db');

async function create(client, seats, name) {
  await client.send({ type: 'create', game: 'nyslice', players: seats.length, seats, name });
  const msg = await client.waitFor((m) => m.type === 'joined' || m.type === 'error', 5000, 'joined');
  assert.equal(msg.type, 'joined', msg.message);
  return msg;
}

const errorFor = (c, what) => c.waitFor((m) => m.type === 'error' && m.request === 'analyse', 5000, what);

/* Every `analysis` message of a table from message index `from` on, once
 * one says done == total; the reviews in the order they came. */
async function analysisOf(c, code, from, timeout = 40_000) {
  const isIt = (m) => m.type === 'analysis' && m.code === code;
  c.read = from;
  await c.waitFor((m) => isIt(m) && m.done === m.total, timeout, `the analysis of ${code} done`);
  const all = c.messages.slice(from).filter(isIt);
  return { reviews: all.flatMap((m) => m.reviews), total: all[0].total };
}

const MARKS = [[0.05, 'good'], [0.10, 'inaccuracy'], [0.20, 'mistake'], [Infinity, 'blunder']];

test('a finished game is analysed: each decision once, from the bot workers, live bots not held up', T, async () => {
  const ann = await file.connect('ann');
  const j = await create(ann, ['human', 'random', 'greedy'], 'Ann');
  await ann.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'first view');

  // Refused: an unfinished table, an unknown code, a code that is not a string, a stranger.
  const watcher = await file.connect('watcher');
  await watcher.send({ type: 'spectate', code: j.code });
  await watcher.waitFor((m) => m.type === 'view' && m.code === j.code, 5000, 'public view');
  await watcher.send({ type: 'analyse', code: j.code });
  assert.match((await errorFor(watcher, 'unfinished')).message, /finished/);
  await watcher.send({ type: 'analyse', code: 'ZZZZ' });
  assert.match((await errorFor(watcher, 'unknown')).message, /no table/);
  await watcher.send({ type: 'analyse', code: 42 });
  assert.match((await errorFor(watcher, 'bad code')).message, /code \(a string\)/);
  const stranger = await file.connect('stranger');
  await stranger.send({ type: 'analyse', code: j.code });
  assert.match((await errorFor(stranger, 'not at the table')).message, /sit at the table or watch/);

  const end = await playToEnd(ann, j.code, { rng: seeded(5) });
  assert.equal(end.view.phase, 'over');

  // Bob's live table, his turn first: its bots must keep moving while the analysis runs.
  const bob = await file.connect('bob');
  const b = await create(bob, ['human', 'greedy', 'greedy'], 'Bob');
  await bob.waitFor((m) => m.type === 'view' && m.code === b.code && m.view.to_move === 0, 5000, "Bob's turn");

  ann.skip();
  watcher.skip();
  const annFrom = ann.messages.length, watcherFrom = watcher.messages.length;
  // Bob plays on from now: a short game's analysis may take less time than
  // his first few moves.
  const bobStart = bob.messages.length;
  const bobGame = playToEnd(bob, b.code, { rng: seeded(2), timeout: 40_000 });
  // Both at once (not paced by the client): the second finds the first running.
  const analyse = JSON.stringify({ type: 'analyse', code: j.code });
  ann.sendRaw(analyse);
  ann.sendRaw(analyse);
  const first = await ann.waitFor((m) => m.type === 'analysis', 5000, 'the first answer');
  assert.equal(first.total, end.moves);
  assert.ok(first.done < first.total, 'answered at once, reviews to come');
  assert.match((await errorFor(ann, 'a second request')).message, /one analysis at a time/);
  await watcher.send({ type: 'analyse', code: j.code }); // another client shares the run

  const [mine, theirs] = await Promise.all([analysisOf(ann, j.code, annFrom), analysisOf(watcher, j.code, watcherFrom)]);
  const doneAt = performance.now();
  // Bots of Bob's table moved while the analysis ran.
  const botMovesMeanwhile = bob.messages.slice(bobStart).filter((m, i) => m.type === 'view' && m.code === b.code &&
    bob.arrived[bobStart + i] < doneAt && m.log?.length && m.log[m.log.length - 1].seat !== 0).length;
  assert.ok(botMovesMeanwhile >= 3, `Bob's bots moved ${botMovesMeanwhile} times during the analysis`);
  await bobGame;

  // Each decision once, by the seat that made it, as the public log tells it.
  await watcher.send({ type: 'replay', code: j.code, step: end.moves });
  const log = (await watcher.waitFor((m) => m.type === 'replay', 5000, 'the log')).log;
  assert.equal(mine.total, end.moves);
  const byMove = [...mine.reviews].sort((x, y) => x.move - y.move);
  assert.deepEqual(byMove.map((r) => r.move), [...Array(end.moves).keys()], 'every decision reviewed exactly once');
  let weighed = 0;
  for (const r of byMove) {
    assert.equal(r.seat, log[r.move].seat, `move ${r.move}: its seat`);
    assert.equal(r.played, log[r.move].text, `move ${r.move}: the move played as the log tells it`);
    if (r.mark === 'forced' || r.mark === 'parts') {
      assert.equal(r.played_chance, null);
      continue;
    }
    weighed++;
    for (const k of ['played_chance', 'best_chance', 'loss'])
      assert.ok(r[k] >= 0 && r[k] <= 1, `move ${r.move}: ${k} ${r[k]}`);
    assert.ok(Math.abs(Math.max(0, r.best_chance - r.played_chance) - r.loss) < 1e-5, `move ${r.move}: the loss is the difference`);
    if (MARKS.some(([at]) => Math.abs(r.loss - at) < 1e-5)) continue; // rounded onto a threshold
    assert.equal(r.mark, MARKS.find(([at]) => r.loss < at)[1], `move ${r.move}: mark for a loss of ${r.loss}`);
    if (r.mark === 'good' && r.played === r.best) assert.equal(r.loss, 0);
  }
  assert.ok(weighed > end.moves / 3, `${weighed} of ${end.moves} decisions weighed`);
  assert.deepEqual([...theirs.reviews].sort((x, y) => x.move - y.move), byMove, 'one run, told to both');

  // Asked again: answered from what was kept, at once and the same.
  const again = await ann.request({ type: 'analyse', code: j.code }, (m) => m.type === 'analysis' || m.type === 'error');
  assert.equal(again.type, 'analysis', again.message);
  assert.equal(again.done, again.total);
  assert.deepEqual(again.reviews, byMove);
  assert.deepEqual(file.clients.flatMap((c) => c.problems), [], 'view leaks');
});
