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
// A table whose game ends starts another (new connections, a new table),
// so the load stays the same for the whole run.
//
// The clients are the `ws` package's when it is installed (`make
// bench-deps`, or `npm ci` in bench/): Node's own WebSocket costs about
// twice the CPU, and on this 2-core machine the generator would be what is
// measured. Without it Node's is used, and the output says so.
//
// LOAD_SERVER_CPU=0 LOAD_CLIENT_CPU=1 pin the server (all its threads) and
// this generator to one core each (taskset), so that the server's figures
// are for one core. The server's CPU time over the measured part is
// reported with the actions it served: actions per second of server CPU.
import { startServer, stopServers, tempDir, sleep } from '../tests/server/helpers.mjs';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const WebSocket = await import('ws').then((m) => m.WebSocket, () => {
  console.log("(Node's own WebSocket: `make bench-deps` installs the lighter ws package)");
  return globalThis.WebSocket;
});
const TABLES = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 60);
const THINK_MS = Number(process.argv[4] ?? 1000);
const SEATS = 4;

const server = await startServer(join(tempDir('pizzabox-load-'), 'load.db'),
  { botThreads: 1, args: ['--max-tables', String(Math.max(2000, TABLES))] });
const url = `ws://localhost:${server.port}/ws`;
const pin = (cpu, pid, all) => execFileSync('taskset', [...(all ? ['-a'] : []), '-pc', cpu, String(pid)], { stdio: 'ignore' });
if (process.env.LOAD_SERVER_CPU) pin(process.env.LOAD_SERVER_CPU, server.proc.pid, true);
if (process.env.LOAD_CLIENT_CPU) pin(process.env.LOAD_CLIENT_CPU, process.pid, false);
/* The server's CPU seconds so far (user + system, all threads). */
const serverCpu = () => {
  const stat = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 a second on Linux)
};
let steadyCpu = 0, steadyActs = 0, steadyAt = 0, endCpu = 0, endActs = 0, endAt = 0;
const latencies = [];
let steady = false;
const seen = new Map(); // table code -> the most moves any client was shown
let acted = 0, finished = 0, errors = 0, games = 0;
const started = Date.now();
const deadline = started + SECONDS * 1000;

/* The same simple policy the protocol tests use. */
function move(view) {
  if (view.legal && view.legal.length) return view.legal[Math.floor(Math.random() * view.legal.length)];
  if (view.phase === 'place') return 'collect all';
  const present = view.ring.filter((p) => p.slice !== null).map((p) => p.pos);
  const n = view.player_count;
  return n === 2 ? 'special alone' : `cut ${present.slice(0, n - 1).join(' ')} special alone`;
}

function open() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'pizzabox');
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error('connect failed'));
  });
}

/* One seat: acts whenever its view says it is to move, and times the answer.
 * Resolves `joined` with the table code. */
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

function seat(ws, onJoined, onDone) {
  let sentAt = 0, lastMoves = -1, thinking = false;
  ws.onmessage = (e) => {
    const text = String(e.data);
    if (!text.startsWith('{"type":"view"')) {
      const m = JSON.parse(text);
      if (m.type === 'joined') onJoined(m.code);
      if (m.type === 'error') errors++;
      return;
    }
    const m = peek(text);
    if (sentAt && m.moves > lastMoves) {
      if (steady) latencies.push(performance.now() - sentAt); // after the tables are all set up
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
        sentAt = performance.now();
        acted++;
        ws.send(JSON.stringify({ type: 'act', code: m.code, action: move(view) }));
      }, Math.random() * 2 * THINK_MS);
    }
  };
}

/* One game at a new table; resolves when every seat has seen its end (or
 * the run is over), its connections closed. */
async function table() {
  let done = 0, finishedTable;
  const over = new Promise((resolve) => { finishedTable = resolve; });
  const onDone = () => { if (++done === 1) finished++; if (done === SEATS) finishedTable(); };
  const first = await open();
  const sockets = [first];
  games++;
  const code = await new Promise((resolve) => {
    seat(first, resolve, onDone);
    first.send(JSON.stringify({ type: 'create', game: 'nyslice', players: SEATS,
      seats: Array(SEATS).fill('human'), name: 'P1' }));
  });
  for (let s = 1; s < SEATS; s++) {
    const ws = await open();
    sockets.push(ws);
    seat(ws, () => {}, onDone);
    ws.send(JSON.stringify({ type: 'join', code, name: `P${s + 1}` }));
  }
  await Promise.race([over, sleep(Math.max(0, deadline - Date.now()) + 2 * THINK_MS + 5000)]);
  for (const ws of sockets) ws.close();
}

/* A place at which one game follows another until the run is over. */
async function place() {
  do await table(); while (Date.now() < deadline);
}

const tables = [];
for (let i = 0; i < TABLES; i++) {
  tables.push(place().catch(() => { errors++; }));
  if (i % 50 === 49) await sleep(50); // ramp up
}
setTimeout(() => { // the set-up burst is not the steady state
  steady = true;
  [steadyCpu, steadyActs, steadyAt] = [serverCpu(), acted, Date.now()];
}, 5000);
setTimeout(() => { [endCpu, endActs, endAt] = [serverCpu(), acted, Date.now()]; }, SECONDS * 1000);
await Promise.race([Promise.all(tables), sleep(SECONDS * 1000 + 2 * THINK_MS + 5000)]);
if (!endAt) [endCpu, endActs, endAt] = [serverCpu(), acted, Date.now()]; // every game ended first
const secs = (Date.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const q = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN;
console.log(`${TABLES} tables, ${TABLES * SEATS} connections, think ${THINK_MS} ms, ${secs.toFixed(1)} s: ${acted} actions, ` +
  `${(acted / secs).toFixed(0)} actions/s, latency p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, ` +
  `max ${q(1).toFixed(1)} ms; ${finished} of ${games} games finished; ${errors} errors`);
if (steadyAt && endAt > steadyAt) {
  const cpu = endCpu - steadyCpu, acts = endActs - steadyActs, wall = (endAt - steadyAt) / 1000;
  console.log(`steady part: ${(acts / wall).toFixed(0)} actions/s with the server at ${(100 * cpu / wall).toFixed(0)}% of a core: ` +
    `${cpu > 0 ? (acts / cpu).toFixed(0) : '?'} actions per second of server CPU`);
}
// Nothing acknowledged may be missing: the server's count of every table's
// moves is at least what its players were shown.
// Each table is asked by its code (the list holds only the newest 500),
// eight at a time: what one connection may watch.
const onServer = new Map();
const codes = [...seen.keys()];
for (let i = 0; i < codes.length; i += 8) {
  const batch = codes.slice(i, i + 8);
  const check = await open();
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
const [report] = await stopServers([server]);
if (report) console.log(`sanitizer findings in the server:\n${report}`);
process.exit(lost || report ? 1 : 0);
