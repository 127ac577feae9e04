// soak.mjs -- `pizzabox serve` over a long run: bot tables of both games
// kept going without a pause, scripted players who connect, play, drop
// their connection at random moments and come back with `resume`, who now
// and then leave for good (another player hands their seat to a bot), and
// spectators who come and go (some of them replaying finished tables, which
// the server has to load back from its database).
//
//   node --experimental-websocket bench/soak.mjs [MINUTES=20] [TABLES=40]
//
// TABLES tables are in play at any moment: when one ends, a new one starts.
// Every 10 s the server's resident memory is read from /proc/PID/status;
// every minute's latencies (an action sent to the view that shows it, on
// the same connection; from 10 s on, after the first tables are set up) give
// p50 and p99, beside how late this process's own event loop ran (a late
// client shows as server latency). At the end the server is stopped,
// `pizzabox export` writes every finished table's record and `pizzabox
// replay` replays each: its score must be the `score` of the last view the
// players received, and its length the moves they saw. Then the server is
// started again on the same database and two of the tables left unfinished
// are resumed by their players and played to the end (and checked the same
// way). Exits non-zero if resident memory at the end is more than 10% above
// what it was after the first minute, if any game was lost, cut short or
// replays differently, if a view showed what its seat may not see, or if
// the p99 of the last minutes is more than twice that of the first (three
// minutes each, pooled, so that one minute's hiccup on a busy machine is not
// taken for a drift; fewer in a run shorter than six minutes).
//
// SOAK_SEED (default 1) seeds the players' choices; timings vary by run.
import { BIN, startServer, tempDir, sleep, humanMove, seeded, leakProblems } from '../tests/server/helpers.mjs';
import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MINUTES = Number(process.argv[2] ?? 20);
const TABLES = Number(process.argv[3] ?? 40);
const THINK_MS = 400;            // a player's mean time before a move
const DROP_PER_SECOND = 1 / 40;  // a connected player drops about every 40 s ...
const DROP_AFTER_ACT = 0.01;     // ... and sometimes right after sending a move
const LEAVE_PER_MOVE = 0.003;    // leaves for good (only with another human at the table)
const STUCK_MS = 90_000;         // a table without a move for this long is stuck
const WARMUP_MS = 10_000;        // latencies count from then on (not the burst of the first tables)
const BOTS = ['random', 'greedy', 'greedy', 'easy', 'medium'];

if (!(MINUTES > 0) || !(TABLES > 0)) {
  console.error('usage: node --experimental-websocket bench/soak.mjs [MINUTES=20] [TABLES=40]');
  process.exit(2);
}

const rng = seeded(Number(process.env.SOAK_SEED ?? 1));
const pick = (a) => a[Math.floor(rng() * a.length)];
const between = (lo, hi) => lo + rng() * (hi - lo);
const dir = tempDir('pizzabox-soak-');
const db = join(dir, 'soak.db');

let server = await startServer(db, { botThreads: 2 });
let url = server.url;
const started = performance.now();
// How late this process's own event loop ran each minute: a late loop
// delays the reading of views and would show as server latency.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const loopP99 = [];
const minuteOf = () => Math.floor((performance.now() - started) / 60_000);

/* ---- What the run counts ---- */

const tables = [];               // every table started, in order
const active = new Set();        // tables in play
const finishedCodes = [];        // for spectators and replays
const latency = [];              // latency[minute] = [ms, ...]
const rss = [];                  // {s, kb}
const problems = [];             // view leaks, two different scores of one game ...
const errors = new Map();        // error message -> count
let acts = 0, drops = 0, resumes = 0, leaves = 0, handovers = 0, spectators = 0, replays = 0, lists = 0;
let stopping = false;

const countError = (msg) => errors.set(msg, (errors.get(msg) ?? 0) + 1);

function sampleRss(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/* ---- A table and its scripted players ---- */

class Table {
  constructor(game, seats) {
    this.game = game;
    this.seats = seats;
    this.code = null;
    this.players = [];
    this.score = null;          // the `score` of the final view
    this.finalMoves = null;
    this.seen = 0;              // the most moves any of its players was shown
    this.lastMoveAt = performance.now();
    this.done = false;
    this.stuck = false;
  }

  saw(m) {
    if (m.moves > this.seen) {
      this.seen = m.moves;
      this.lastMoveAt = performance.now();
    }
  }

  over(player, m) {
    const score = JSON.stringify(m.score);
    if (this.score === null) {
      this.score = score;
      this.finalMoves = m.moves;
    } else if (this.score !== score || this.finalMoves !== m.moves) {
      problems.push(`${this.code}: two players saw different ends (${this.finalMoves} and ${m.moves} moves)`);
    }
    if (this.players.every((p) => p.over || p.gone) && !this.done) this.end();
  }

  end() {
    this.done = true;
    active.delete(this);
    if (this.score !== null) {
      finishedCodes.push(this.code);
      // Only what the final check needs stays: a long run keeps the
      // client's heap small, so its collector does not pause the timing.
      for (const p of this.players) { p.lastView = null; p.ws = null; }
      this.players = [];
    }
    if (!stopping) startTable();
  }

  /* A seat whose player left for good goes to a bot, asked by another
   * player at the table once the server allows it (5 s). */
  handOver(seat, tries = 0) {
    setTimeout(() => {
      if (stopping || this.done || this.score !== null) return;
      const other = this.players.find((p) => !p.gone && !p.over && p.connected);
      if (!other || tries > 20) {
        if (tries <= 20) this.handOver(seat, tries + 1);
        return;
      }
      other.pendingHandover = { seat, tries };
      other.send({ type: 'bot', code: this.code, seat });
    }, tries === 0 ? 5500 : 2000);
  }
}

class Player {
  constructor(table, name) {
    this.table = table;
    this.name = name;
    this.seat = null;
    this.token = null;
    this.gen = 0;               // connection number: older connections' events are ignored
    this.connected = false;
    this.pending = null;        // {moves, at, gen}: a move sent, its view not yet seen
    this.lastActed = -1;
    this.think = 0;             // think timer number
    this.thinking = false;
    this.lastView = null;
    this.over = false;
    this.gone = false;
    this.pendingHandover = null;
    this.noDrops = false;
  }

  connect(first = null) {
    const gen = ++this.gen;
    const ws = new WebSocket(url, 'pizzabox');
    this.ws = ws;
    this.connected = false;
    this.pending = null;
    this.lastActed = -1;        // a move sent just before a drop may not have arrived
    ws.onopen = () => {
      if (gen !== this.gen) return;
      this.connected = true;
      if (!first) resumes++;
      this.send(first ?? (this.token ? { type: 'resume', code: this.table.code, seat: this.seat, token: this.token }
        : { type: 'join', code: this.table.code, name: this.name }));
    };
    ws.onmessage = (e) => {
      if (gen === this.gen) this.onMessage(JSON.parse(e.data), gen);
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (gen !== this.gen) return;
      this.connected = false;
      if (!this.over && !this.gone && !stopping) { // closed by the server or the network: back later
        countError('connection closed by the server');
        this.gen++;
        setTimeout(() => this.connect(), between(500, 2000));
      }
    };
  }

  send(obj) {
    try {
      this.ws.send(JSON.stringify(obj));
    } catch { /* closing: the resume after it sets things right */ }
  }

  onMessage(m, gen) {
    const held = this.seat !== null && this.table.code ? { [this.table.code]: this.seat } : {};
    if (m.type !== 'joined') for (const p of leakProblems(m, held, new Set())) problems.push(`${this.name}: ${p}`);
    if (m.type === 'joined') {
      const first = this.table.code === null;
      this.table.code = m.code;
      this.seat = m.seat;
      this.token = m.token;
      if (first) this.table.joinOthers();
    } else if (m.type === 'error') {
      if (this.pendingHandover) {
        const { seat, tries } = this.pendingHandover;
        this.pendingHandover = null;
        this.table.handOver(seat, tries + 1);
        return;
      }
      countError(m.message);
      this.pending = null;
      if (this.lastView) setTimeout(() => gen === this.gen && this.maybeAct(this.lastView), 200);
    } else if (m.type === 'view' && m.code === this.table.code) {
      if (this.pendingHandover && m.players[this.pendingHandover.seat] !== 'human') {
        this.pendingHandover = null;
        handovers++;
      }
      this.table.saw(m);
      if (this.pending && m.moves > this.pending.moves) {
        if (this.pending.gen === gen && !stopping && performance.now() - started >= WARMUP_MS)
          (latency[minuteOf()] ??= []).push(performance.now() - this.pending.at);
        this.pending = null;
      }
      this.lastView = m;
      if (m.view.phase === 'over') {
        this.over = true;
        this.close();
        this.table.over(this, m);
        return;
      }
      this.maybeAct(m);
    }
  }

  maybeAct(m) {
    if (stopping || this.over || this.gone || m.waiting || m.view.to_move !== m.seat || m.moves <= this.lastActed ||
        this.thinking || this.pending) return;
    this.thinking = true;
    const think = ++this.think, gen = this.gen;
    setTimeout(() => {
      if (think !== this.think) return;
      this.thinking = false;
      if (gen !== this.gen || stopping || this.over || this.gone) return;
      const v = this.lastView; // the newest view of this connection
      if (v.waiting || v.view.phase === 'over' || v.view.to_move !== v.seat || v.moves <= this.lastActed || this.pending) return;
      if (!this.noDrops && rng() < LEAVE_PER_MOVE && this.table.players.filter((p) => !p.gone).length > 1) {
        this.leave();
        return;
      }
      this.lastActed = v.moves;
      this.pending = { moves: v.moves, at: performance.now(), gen };
      acts++;
      this.send({ type: 'act', code: this.table.code, action: humanMove(v.view, rng) });
      if (!this.noDrops && rng() < DROP_AFTER_ACT) this.drop();
    }, between(0.25, 1.75) * THINK_MS);
  }

  close() {
    this.gen++;
    this.think++;
    this.thinking = false;
    this.connected = false;
    try { this.ws.close(); } catch { /* gone */ }
  }

  /* The connection goes without a word; the player comes back soon. */
  drop() {
    drops++;
    this.close();
    setTimeout(() => { if (!stopping) this.connect(); }, between(100, 3000));
  }

  leave() {
    leaves++;
    this.gone = true;
    this.close();
    this.table.handOver(this.seat);
  }
}

Table.prototype.joinOthers = function joinOthers() {
  for (const p of this.players.slice(1)) p.connect({ type: 'join', code: this.code, name: p.name });
};

function startTable() {
  const game = rng() < 0.5 ? 'nyslice' : 'theory';
  const n = game === 'nyslice' ? pick([2, 3, 3, 4, 4, 5]) : pick([2, 3, 3]);
  const humans = Math.min(n, pick([1, 1, 2, 2, 3]));
  const seats = Array.from({ length: n }, (_, i) => (i < humans ? 'human' : pick(BOTS)));
  for (let i = seats.length - 1; i > 0; i--) { // humans anywhere at the table
    const j = Math.floor(rng() * (i + 1));
    [seats[i], seats[j]] = [seats[j], seats[i]];
  }
  const t = new Table(game, seats);
  tables.push(t);
  active.add(t);
  for (let h = 0; h < humans; h++) t.players.push(new Player(t, `P${tables.length}.${h + 1}`));
  t.players[0].connect({ type: 'create', game, players: n, seats, name: t.players[0].name });
}

/* ---- Spectators: a table in play, or a finished one and its replay ---- */

function spectate() {
  const finished = finishedCodes.length && rng() < 0.3;
  const inPlay = [...active].filter((t) => t.code);
  const code = finished ? pick(finishedCodes) : inPlay.length ? pick(inPlay).code : null;
  if (!code) return;
  spectators++;
  const ws = new WebSocket(url, 'pizzabox');
  const watching = new Set();
  let moves = null;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: 'spectate', code }));
    if (rng() < 0.2) { lists++; ws.send(JSON.stringify({ type: 'list' })); }
  };
  ws.onerror = () => {};
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === 'watching') watching.add(m.code);
    for (const p of leakProblems(m, {}, watching)) problems.push(`spectator: ${p}`);
    if (m.type === 'error') countError(`spectator: ${m.message}`);
    if (m.type === 'view' && finished && moves === null) {
      moves = m.moves;
      replays++;
      ws.send(JSON.stringify({ type: 'replay', code, step: Math.floor(rng() * (moves + 1)) }));
    }
  };
  setTimeout(() => { try { ws.close(); } catch { /* gone */ } }, between(2000, 20_000));
}

/* ---- The run ---- */

const q = (a, p) => (a.length ? a[Math.min(a.length - 1, Math.floor(p * a.length))] : NaN);
const sorted = (a) => [...(a ?? [])].sort((x, y) => x - y);
const mb = (kb) => (kb / 1024).toFixed(1);

for (let i = 0; i < TABLES; i++) {
  startTable();
  await sleep(50);
}
const timers = [
  setInterval(() => rss.push({ s: (performance.now() - started) / 1000, kb: sampleRss(server.proc.pid) }), 10_000),
  setInterval(() => {
    for (const t of active) for (const p of t.players)
      if (p.connected && p.token && !p.over && !p.gone && rng() < DROP_PER_SECOND) p.drop();
  }, 1000),
  setInterval(() => { if (rng() < 0.6) spectate(); }, 1000),
  setInterval(() => {
    for (const t of active) if (!t.done && performance.now() - t.lastMoveAt > STUCK_MS) {
      t.stuck = true;
      problems.push(`${t.code ?? '(not created)'}: no move for ${STUCK_MS / 1000} s at ${t.seen} moves`);
      for (const p of t.players) p.close();
      t.end();
    }
  }, 5000),
];
console.log(`soak: ${MINUTES} min, ${TABLES} tables in play, server pid ${server.proc.pid}, ${BIN}`);
console.log('minute  games   acts  RSS MB  samples  p50 ms  p99 ms  client late p99 ms');
for (let minute = 0; minute < MINUTES; minute++) {
  await sleep(started + (minute + 1) * 60_000 - performance.now());
  const l = sorted(latency[minute]);
  const kb = sampleRss(server.proc.pid);
  rss.push({ s: (performance.now() - started) / 1000, kb });
  const games = tables.filter((t) => t.score !== null).length;
  loopP99[minute] = loop.percentile(99) / 1e6 - 10; // beyond the 10 ms sampling period
  loop.reset();
  console.log(`${String(minute + 1).padStart(6)}  ${String(games).padStart(5)}  ${String(acts).padStart(5)}  ` +
    `${mb(kb).padStart(6)}  ${String(l.length).padStart(7)}  ${q(l, 0.5).toFixed(1).padStart(6)}  ${q(l, 0.99).toFixed(1).padStart(6)}  ` +
    `${loopP99[minute].toFixed(1).padStart(18)}`);
}
const rssEnd = sampleRss(server.proc.pid);
stopping = true;
for (const t of timers) clearInterval(t);
for (const t of tables) for (const p of t.players) p.close();
await sleep(1000);
const stop1 = await server.stop();
if (stop1.code !== 0) problems.push(`the server's clean stop exited ${stop1.code ?? stop1.signal}`);
if (server.stderr.trim()) problems.push(`server stderr: ${server.stderr.trim().split('\n')[0]}`);

/* ---- Every finished game from the database, replayed ---- */

async function exportAndReplay(list, out) {
  const bad = [];
  try {
    await run(BIN, ['export', '--db', db, '--out', out]);
  } catch (e) {
    bad.push(`export: ${(e.stderr || e.message).trim().split('\n')[0]}`);
  }
  let next = 0;
  async function worker() {
    while (next < list.length) {
      const t = list[next++];
      const file = join(out, `${t.code}.json`);
      if (!existsSync(file)) { bad.push(`${t.code}: lost (not in the export)`); continue; }
      const record = JSON.parse(readFileSync(file, 'utf8'));
      if (record.actions.length !== t.finalMoves)
        bad.push(`${t.code}: ${record.actions.length} actions stored, the players saw ${t.finalMoves}`);
      try {
        const { stdout } = await run(BIN, ['replay', file]);
        if (JSON.stringify(JSON.parse(stdout)) !== t.score) bad.push(`${t.code}: replays to a different score`);
      } catch (e) {
        bad.push(`${t.code}: does not replay: ${(e.stderr || e.message).trim()}`);
      }
    }
  }
  await Promise.all([worker(), worker(), worker()]);
  return bad;
}

const finished = tables.filter((t) => t.score !== null);
const lost = await exportAndReplay(finished, join(dir, 'records'));

/* ---- Unfinished tables after a restart: nothing acknowledged is missing,
 * and two of them are resumed by their players and played to the end ---- */

server = await startServer(db, { botThreads: 2 });
url = server.url;
stopping = false;
const unfinished = tables.filter((t) => t.score === null && t.code && !t.stuck);
const check = new WebSocket(url, 'pizzabox');
const listed = await new Promise((resolve, reject) => {
  check.onopen = () => check.send(JSON.stringify({ type: 'list' }));
  check.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'tables') resolve(m.tables); };
  check.onerror = () => reject(new Error('cannot list after the restart'));
});
check.close();
const onServer = new Map(listed.map((t) => [t.code, t.moves]));
for (const t of unfinished) {
  if (onServer.has(t.code) && onServer.get(t.code) < t.seen)
    lost.push(`${t.code}: ${onServer.get(t.code)} moves after the restart, the players saw ${t.seen}`);
}
const resumed = unfinished.filter((t) => t.players.every((p) => !p.gone && p.token)).slice(0, 2);
const resumedEnds = resumed.map((t) => new Promise((resolve) => {
  t.done = false;
  t.end = () => { t.done = true; resolve(); };
  t.lastMoveAt = performance.now();
  for (const p of t.players) {
    p.over = false;
    p.noDrops = true;
    p.connect();
  }
}));
const resumeOk = await Promise.race([Promise.all(resumedEnds).then(() => true), sleep(180_000).then(() => false)]);
if (!resumeOk) lost.push(`resumed tables not finished within 180 s: ${resumed.filter((t) => !t.done).map((t) => t.code)}`);
for (const t of resumed) for (const p of t.players) p.close();
stopping = true;
await server.stop();
const resumedFinished = resumed.filter((t) => t.score !== null);
lost.push(...await exportAndReplay(resumedFinished, join(dir, 'records-2')));

/* ---- Summary ---- */

const W = Math.max(1, Math.min(3, Math.floor(MINUTES / 2)));
const pool = (from) => sorted(latency.slice(from, from + W).flat());
const first = pool(0), last = pool(MINUTES - W);
const rss1 = rss.find((r) => r.s >= 59)?.kb ?? NaN;
const ratio = rssEnd / rss1;
const drift = q(last, 0.99) / q(first, 0.99);
const moves = tables.reduce((k, t) => k + t.seen, 0);
console.log(`\n${MINUTES} min: ${finished.length} games finished (${finished.filter((t) => t.game === 'nyslice').length} New York Slice, ` +
  `${finished.filter((t) => t.game === 'theory').length} Pizza Theory), ${moves} moves (${acts} by scripted players), ` +
  `${tables.length} tables started`);
console.log(`players: ${drops} drops, ${resumes} resumes, ${leaves} left for good, ${handovers} seats handed to a bot; ` +
  `${spectators} spectators, ${replays} replays of finished tables, ${lists} lists`);
console.log(`RSS after minute 1 ${mb(rss1)} MB, at the end ${mb(rssEnd)} MB (ratio ${ratio.toFixed(3)}); ` +
  `min ${mb(Math.min(...rss.map((r) => r.kb)))} MB, max ${mb(Math.max(...rss.map((r) => r.kb)))} MB`);
const span = W === 1 ? 'minute' : `${W} minutes`;
console.log(`latency p99 first ${span} ${q(first, 0.99).toFixed(1)} ms, last ${span} ${q(last, 0.99).toFixed(1)} ms ` +
  `(ratio ${drift.toFixed(2)}); p50 ${q(first, 0.5).toFixed(1)} / ${q(last, 0.5).toFixed(1)} ms; ` +
  `worst minute's p99 ${Math.max(...latency.map((l) => q(sorted(l), 0.99)).filter((x) => x === x)).toFixed(1)} ms`);
console.log(`after a restart: ${unfinished.length} unfinished tables, none missing a move; ${resumedFinished.length} of ` +
  `${resumed.length} resumed and played to the end`);
console.log(`lost or corrupted games: ${lost.length}; view problems: ${problems.length}`);
for (const p of [...lost, ...problems].slice(0, 20)) console.log(`  ${p}`);
if (errors.size) console.log(`errors answered: ${[...errors].map(([m, k]) => `${k}x ${m}`).join('; ')}`);

const failures = [];
if (!(ratio <= 1.10)) failures.push(`resident memory grew ${((ratio - 1) * 100).toFixed(1)}% (limit 10%)`);
if (lost.length) failures.push(`${lost.length} games lost or corrupted`);
if (problems.length) failures.push(`${problems.length} problems`);
if (!(drift <= 2)) failures.push(`p99 drifted x${drift.toFixed(2)} (limit 2)`);
if (resumed.length && resumedFinished.length !== resumed.length) failures.push('a resumed table did not finish');
console.log(failures.length ? `FAIL: ${failures.join('; ')}` : 'PASS');
process.exit(failures.length ? 1 : 0);
