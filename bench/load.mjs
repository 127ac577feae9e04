// load.mjs -- many concurrent tables played by scripted clients over
// loopback against `pizzabox serve`: actions per second and the latency
// from an action sent to its view received (p50, p99), and a check that no
// accepted move was lost (every finished table replays to the end).
//
//   node --experimental-websocket bench/load.mjs [TABLES=500] [SECONDS=60] [THINK_MS=1000]
// Each table has 4 human seats, so 500 tables are 2,000 connections. A
// player thinks a random 0..2*THINK_MS before each move (THINK_MS=0: as fast
// as possible, which measures queueing more than the server). Latencies are
// counted from 5 s after the tables were set up.
//
// A table whose game ends starts another (new connections, a new table).
// All tables start within seconds, so their games also end together, and
// about 40 s in every table changes at once (4 connections closed, 4 made,
// a table created and joined): a rush the server meets at 85% of a core at
// 10,000 connections. LOAD_RAMP_S=40 instead starts each table's first game
// at a random moment over that many seconds, so that games end at an even
// pace, as on a site people come to one by one; the run is then that much
// longer, and latencies are counted from 5 s after the ramp.
//
// The clients are the `ws` package's when it is installed (`make
// bench-deps`, or `npm ci` in bench/): Node's own WebSocket costs about
// twice the CPU, and on this 2-core machine the generator would be what is
// measured. Without it Node's is used, and the output says so.
//
// LOAD_NODES=2 (under tests/pg/with-postgres.sh, PG_FSYNC=on for a disk's
// real flushes) runs two servers on one PostgreSQL database with HAProxy
// in front (deploy/haproxy.cfg): docs/scaling.md.
//
// LOAD_SERVER_CPU=0 LOAD_CLIENT_CPU=1 pin the server (all its threads) and
// this generator to one core each (taskset), so that the server's figures
// are for one core. The server's CPU time over the measured part is
// reported with the actions it served: actions per second of server CPU.
//
// The players are spread over LOAD_THREADS worker threads (2): with one,
// at 10,000 connections the generator's own pauses (its event loop and its
// garbage collection) were a good part of the latency it measured. Each
// thread's own delay is reported, so a reader can tell the two apart.
import { startServer, startHaproxy, stopServers, tempDir, sleep, TEST_PG } from '../tests/server/helpers.mjs';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const WebSocket = await import('ws').then((m) => m.WebSocket, () => {
  if (isMainThread) console.log("(Node's own WebSocket: `make bench-deps` installs the lighter ws package)");
  return globalThis.WebSocket;
});
const SEATS = 4;
const WINDOW_S = 10; // latencies are also reported per window of this many seconds
const now = () => performance.timeOrigin + performance.now(); // the same clock in every thread

/* The same simple policy the protocol tests use. */
function move(view) {
  if (view.legal && view.legal.length) return view.legal[Math.floor(Math.random() * view.legal.length)];
  if (view.phase === 'place') return 'collect all';
  const present = view.ring.filter((p) => p.slice !== null).map((p) => p.pos);
  const n = view.player_count;
  return n === 2 ? 'special alone' : `cut ${present.slice(0, n - 1).join(' ')} special alone`;
}

/* A `view` message's members the generator needs, read without parsing
 * the whole message: at 10,000 connections JSON.parse of every view is
 * most of the generator's CPU, which the server shares on this machine.
 * The game's view is the message's last member, so its own members are
 * found from the end. */
function peek(text) {
  const num = (key, from) => {
    const i = from ? text.lastIndexOf(`"${key}":`) : text.indexOf(`"${key}":`);
    return i < 0 ? null : text.slice(i + key.length + 3, i + key.length + 8).match(/^(-?\d+|null|true|false)/)?.[1];
  };
  const code = /"code":"([^"]+)"/.exec(text)?.[1];
  return { seat: num('seat'), moves: Number(num('moves')), waiting: num('waiting') === 'true', code,
    toMove: num('to_move', true), over: text.lastIndexOf('"phase":"over"') > 0 };
}

function open(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'pizzabox');
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error('connect failed'));
  });
}

/* ---- A worker thread: its share of the tables, played until the deadline ---- */

async function play({ url, tables, thinkMs, deadline, steadyAt, rampMs, counters, slot }) {
  const latencies = [], windowOf = [];
  const seen = new Map(); // table code -> the most moves any client was shown
  let finished = 0, errors = 0, games = 0;
  const said = new Set(); // the errors' messages (the first few)
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const lagP99 = [];
  setTimeout(() => {
    lag.enable();
    setInterval(() => { lagP99.push(lag.percentile(99) / 1e6); lag.reset(); }, WINDOW_S * 1000).unref();
  }, Math.max(0, steadyAt - now())).unref();

  /* One seat: acts whenever its view says it is to move, and times the answer. */
  function seat(ws, onJoined, onDone) {
    let sentAt = 0, lastMoves = -1, thinking = false;
    ws.onmessage = (e) => {
      const text = String(e.data);
      if (!text.startsWith('{"type":"view"')) {
        const m = JSON.parse(text);
        if (m.type === 'joined') onJoined(m.code);
        if (m.type === 'error') { errors++; if (said.size < 5) said.add(m.message); }
        return;
      }
      const m = peek(text);
      if (sentAt && m.moves > lastMoves) {
        const at = now();
        if (at >= steadyAt) { // after the tables are all set up
          latencies.push(at - sentAt);
          windowOf.push(Math.floor((at - steadyAt) / (WINDOW_S * 1000)));
        }
        sentAt = 0;
      }
      lastMoves = m.moves;
      seen.set(m.code, Math.max(seen.get(m.code) ?? 0, m.moves));
      if (m.over) { onDone(); return; }
      if (m.waiting) return; // not everyone has joined yet
      if (m.toMove === m.seat && Date.now() < deadline && !sentAt && !thinking) {
        thinking = true;
        const view = JSON.parse(text).view; // this seat's to move: the whole view
        setTimeout(() => {
          thinking = false;
          if (Date.now() >= deadline) return;
          sentAt = now();
          Atomics.add(counters, slot, 1);
          ws.send(JSON.stringify({ type: 'act', code: m.code, action: move(view) }));
        }, Math.random() * 2 * thinkMs);
      }
    };
  }

  /* One game at a new table; resolves when every seat has seen its end (or
   * the run is over), its connections closed. */
  async function table() {
    let done = 0, finishedTable;
    const over = new Promise((resolve) => { finishedTable = resolve; });
    const onDone = () => { if (++done === 1) finished++; if (done === SEATS) finishedTable(); };
    const first = await open(url);
    const sockets = [first];
    games++;
    const code = await new Promise((resolve) => {
      seat(first, resolve, onDone);
      first.send(JSON.stringify({ type: 'create', game: 'nyslice', players: SEATS,
        seats: Array(SEATS).fill('human'), name: 'P1' }));
    });
    for (let s = 1; s < SEATS; s++) {
      const ws = await open(url);
      sockets.push(ws);
      seat(ws, () => {}, onDone);
      ws.send(JSON.stringify({ type: 'join', code, name: `P${s + 1}` }));
    }
    await Promise.race([over, sleep(Math.max(0, deadline - Date.now()) + 2 * thinkMs + 5000)]);
    for (const ws of sockets) ws.close();
  }

  /* A place at which one game follows another until the run is over. */
  async function place() {
    do await table(); while (Date.now() < deadline);
  }

  const places = [];
  for (let i = 0; i < tables; i++) {
    places.push((rampMs ? sleep(Math.random() * rampMs).then(place) : place()).catch(() => { errors++; }));
    if (!rampMs && i % 25 === 24) await sleep(50); // ramp up
  }
  await Promise.race([Promise.all(places), sleep(Math.max(0, deadline - Date.now()) + 2 * thinkMs + 5000)]);
  return { latencies, windowOf, seen: [...seen], finished, errors, games, lagP99, said: [...said] };
}

if (!isMainThread) {
  parentPort.postMessage(await play(workerData));
  process.exit(0);
}

/* ---- The main thread: the server, the threads, the figures ---- */

const TABLES = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 60);
const THINK_MS = Number(process.argv[4] ?? 1000);
const THREADS = Math.max(1, Math.min(TABLES, Number(process.env.LOAD_THREADS ?? 2)));
const RAMP_MS = 1000 * Number(process.env.LOAD_RAMP_S ?? 0);

const NODES = Number(process.env.LOAD_NODES ?? 1);
if (NODES > 1 && !TEST_PG) {
  console.log('LOAD_NODES: several servers share a PostgreSQL database: run under tests/pg/with-postgres.sh');
  process.exit(2);
}
const dir = tempDir('pizzabox-load-');
const servers = [];
for (let i = 0; i < NODES; i++) {
  servers.push(await startServer(join(dir, 'load.db'), { botThreads: 1, args: ['--max-tables', String(Math.max(2000, TABLES))] }));
}
/* Several servers: HAProxy in front (deploy/haproxy.cfg), the servers not
 * told to trust it, so that the generator's 10,000 connections from this
 * machine count for no one's limits. */
const lb = NODES > 1 ? await startHaproxy(servers, dir) : null;
const url = lb ? lb.url : `ws://localhost:${servers[0].port}/ws`;
const pin = (cpu, pid, all) => execFileSync('taskset', [...(all ? ['-a'] : []), '-pc', cpu, String(pid)], { stdio: 'ignore' });
for (const server of servers) if (process.env.LOAD_SERVER_CPU) pin(process.env.LOAD_SERVER_CPU, server.proc.pid, true);
if (process.env.LOAD_CLIENT_CPU) pin(process.env.LOAD_CLIENT_CPU, process.pid, false); // the threads made after inherit it
/* The servers' CPU seconds so far (user + system, all threads). */
const serverCpu = () => servers.reduce((sum, server) => {
  const stat = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return sum + (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 a second on Linux)
}, 0);
const started = Date.now();
const deadline = started + RAMP_MS + SECONDS * 1000;
const steadyAt = now() + RAMP_MS + 5000; // the set-up is not the steady state
const counters = new Int32Array(new SharedArrayBuffer(4 * THREADS)); // actions sent, per thread
const acted = () => counters.reduce((a, b) => a + b, 0);
const results = [];
for (let i = 0; i < THREADS; i++) {
  const share = Math.floor(TABLES / THREADS) + (i < TABLES % THREADS ? 1 : 0);
  const w = new Worker(new URL(import.meta.url), { workerData: { url, tables: share, thinkMs: THINK_MS, deadline, steadyAt,
    rampMs: RAMP_MS, counters, slot: i } });
  results.push(new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); }));
}
let steadyCpu = 0, steadyActs = 0, steadyWall = 0, steadyGenCpu = null, endCpu = 0, endActs = 0, endWall = 0, genCpu = null;
setTimeout(() => {
  [steadyCpu, steadyActs, steadyWall, steadyGenCpu] = [serverCpu(), acted(), Date.now(), process.cpuUsage()];
}, Math.max(0, steadyAt - now()));
const measureEnd = () => {
  [endCpu, endActs, endWall] = [serverCpu(), acted(), Date.now()];
  if (steadyGenCpu) genCpu = process.cpuUsage(steadyGenCpu); // every thread of this process
};
const ended = setTimeout(measureEnd, RAMP_MS + SECONDS * 1000);
const parts = await Promise.all(results);
if (!endWall) { clearTimeout(ended); measureEnd(); } // every game ended first
const secs = (Date.now() - started) / 1000;
const latencies = parts.flatMap((p) => p.latencies);
const windows = [];
for (const p of parts) p.latencies.forEach((ms, i) => { (windows[p.windowOf[i]] ??= []).push(ms); });
const seen = new Map(parts.flatMap((p) => p.seen));
const sum = (key) => parts.reduce((a, p) => a + p[key], 0);
const [finished, errors, games] = [sum('finished'), sum('errors'), sum('games')];
const p99Of = (list) => list.sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(0.99 * list.length))];
latencies.sort((a, b) => a - b);
const q = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN;
console.log(`${TABLES} tables, ${TABLES * SEATS} connections, think ${THINK_MS} ms, ` +
  `${RAMP_MS ? `first games started over ${RAMP_MS / 1000} s, ` : ''}${secs.toFixed(1)} s: ${acted()} actions, ` +
  `${(acted() / secs).toFixed(0)} actions/s, latency p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, ` +
  `max ${q(1).toFixed(1)} ms; ${finished} of ${games} games finished; ${errors} errors`);
if (errors) console.log(`errors: ${[...new Set(parts.flatMap((p) => p.said))].join(' | ')}`);
if (steadyWall && endWall > steadyWall) {
  const cpu = endCpu - steadyCpu, acts = endActs - steadyActs, wall = (endWall - steadyWall) / 1000;
  console.log(`steady part: ${(acts / wall).toFixed(0)} actions/s with the server${NODES > 1 ? `s (${NODES}, behind HAProxy)` : ''} ` +
    `at ${(100 * cpu / wall).toFixed(0)}% of a core: ${cpu > 0 ? (acts / cpu).toFixed(0) : '?'} actions per second of server CPU; ` +
    `this generator (${THREADS} thread${THREADS > 1 ? 's' : ''}) at ${(100 * (genCpu.user + genCpu.system) / 1e6 / wall).toFixed(0)}% of a core`);
  console.log(`p99 in each ${WINDOW_S}-second window: ` +
    windows.filter(Boolean).map((w) => `${p99Of(w).toFixed(0)}`).join(' ') + ' ms; ' +
    `the generator's own delay (event loop p99, each thread): ` +
    parts.map((p) => p.lagP99.map((ms) => ms.toFixed(0)).join(' ')).join(' | ') + ' ms');
}
// Nothing acknowledged may be missing: the server's count of every table's
// moves is at least what its players were shown.
// Each table is asked by its code (the list holds only the newest 500),
// eight at a time: what one connection may watch.
const onServer = new Map();
const codes = [...seen.keys()];
for (let i = 0; i < codes.length; i += 8) {
  const batch = codes.slice(i, i + 8);
  const check = await open(url);
  await new Promise((resolve) => {
    check.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'view' && !onServer.has(m.code)) onServer.set(m.code, m.moves);
      if (batch.every((c) => onServer.has(c))) resolve();
    };
    for (const code of batch) check.send(JSON.stringify({ type: 'spectate', code }));
    setTimeout(resolve, 5000);
  });
  check.close();
}
const lost = [...seen].filter(([code, moves]) => !(onServer.get(code) >= moves)).length;
console.log(lost ? `${lost} tables lost moves` : `nothing lost: every table has all ${[...seen.values()].reduce((a, b) => a + b, 0)} moves its players saw`);
// A sanitizer build (make tsan-test runs this against a TSan server) fails
// the run on any finding, as does a lost move.
lb?.stop();
const [report] = await stopServers(servers);
if (report) console.log(`sanitizer findings in the server:\n${report}`);
process.exit(lost || report ? 1 : 0);
