// helpers.mjs -- a `pizzabox serve` process and WebSocket clients for the
// protocol tests (protocol.test.mjs). Node built-ins only; run with
// `node --experimental-websocket --test tests/server/`.
//
// Every server started here is killed when the test process exits, and every
// wait has a deadline, so a broken server fails the tests instead of hanging them.
import { execFileSync, spawn } from 'node:child_process';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.PIZZABOX_BIN || join(ROOT, 'build', 'pizzabox');

const live = new Set();          // server processes not yet known to be gone
const tmpDirs = new Set();

function killAll() {
  for (const p of live) {
    try { p.kill('SIGKILL'); } catch { /* already gone */ }
  }
  for (const d of tmpDirs) {
    try { rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ }
  }
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => { killAll(); process.exit(130); });
}

export function tempDir(prefix = 'pizzabox-serve-') {
  const d = mkdtempSync(join(tmpdir(), prefix));
  tmpDirs.add(d);
  return d;
}

export function removeTempDir(d) {
  tmpDirs.delete(d);
  rmSync(d, { recursive: true, force: true });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* Race a promise against a deadline. */
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

const SANITIZER_FINDING = /(AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error:)/;

/* PIZZABOX_TEST_DB (a postgresql:// URL, set by tests/pg/with-postgres.sh):
 * servers store in PostgreSQL instead, each database file named by a test
 * becoming a database of its own in that cluster (the same file, the same
 * database: a restarted server finds its tables). */
export const TEST_PG = /^postgres(ql)?:\/\//.test(process.env.PIZZABOX_TEST_DB || '') ? process.env.PIZZABOX_TEST_DB : null;
const pgDatabases = new Map();   // file -> URL

export function storeFor(db) {
  if (!TEST_PG || /^postgres(ql)?:\/\//.test(db)) return db;
  if (!pgDatabases.has(db)) {
    const base = db.replace(/^.*\//, '').replace(/[^a-z0-9]+/gi, '_').toLowerCase();
    const name = `pb_${base}_${process.pid}_${pgDatabases.size}`;
    execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [TEST_PG, '-qc', `CREATE DATABASE ${name}`]);
    pgDatabases.set(db, TEST_PG.replace(/\/postgres(\?|$)/, `/${name}$1`));
  }
  return pgDatabases.get(db);
}

/* Start `pizzabox serve --port 0 --db DB`; resolves once it prints its port. */
/* `env`: more environment variables (PIZZABOX_TABLE_SEED: every table dealt from that seed). */
/* `botPace`: milliseconds between a bot's move and the one before (0: at once, what most tests want). */
/* `args`: more options for `pizzabox serve`. */
export async function startServer(db, { timeout = 10_000, botThreads = 2, botPace = 0, env = {}, args = [] } = {}) {
  if (!existsSync(BIN)) throw new Error(`no ${BIN}: run make first`);
  db = storeFor(db);
  const proc = spawn(BIN, ['serve', '--port', '0', '--db', db, '--web', join(ROOT, 'web'),
    '--bot-threads', String(botThreads), '--bot-pace', String(botPace), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  live.add(proc);
  let stdout = '', stderr = '';
  const exited = new Promise((res) => proc.on('exit', (code, signal) => { live.delete(proc); res({ code, signal }); }));
  proc.stderr.on('data', (d) => { stderr += d; });
  const port = await withTimeout(new Promise((res, rej) => {
    proc.stdout.on('data', (d) => {
      stdout += d;
      const m = /listening on http:\/\/localhost:(\d+)\//.exec(stdout);
      if (m) res(Number(m[1]));
    });
    proc.on('error', rej);
    exited.then(({ code, signal }) => rej(new Error(`server exited (${code ?? signal}) before listening: ${stderr}`)));
  }), timeout, 'server start').catch((e) => { proc.kill('SIGKILL'); throw e; });
  const server = {
    proc, port, db,
    url: `ws://localhost:${port}/ws`,
    exited,
    get stderr() { return stderr; },
    /* What a sanitizer build (ASan, UBSan, LSan, TSan) reported, or ''. */
    get sanitizerReport() {
      const at = stderr.search(SANITIZER_FINDING);
      return at < 0 ? '' : stderr.slice(Math.max(0, stderr.lastIndexOf('\n', at) + 1));
    },
    alive: () => proc.exitCode === null && proc.signalCode === null,
    /* SIGTERM (a clean stop), SIGKILL if it does not go within the time. */
    async stop(signal = 'SIGTERM', ms = 5000) {
      if (!server.alive()) return exited;
      proc.kill(signal);
      try {
        return await withTimeout(exited, ms, `server ${signal}`);
      } catch {
        proc.kill('SIGKILL');
        return withTimeout(exited, 5000, 'server SIGKILL');
      }
    },
  };
  return server;
}

/* Stop every server (SIGTERM, a clean exit) and return what sanitizers
 * reported in any of them, so a test run of a sanitizer build fails on a
 * finding even when it only shows at exit (a leak). */
export async function stopServers(servers) {
  await Promise.all(servers.map((s) => s.stop('SIGTERM', 10_000).catch(() => s.proc.kill('SIGKILL'))));
  return servers.map((s) => s.sanitizerReport).filter((r) => r !== '');
}

/* ---- The view-leak check (run on every message every client receives) ---- */

/* Problems with one message as received by a client that holds `seats`
 * (code -> seat, from `joined`) and watches `watching` (codes). */
export function leakProblems(msg, seats, watching) {
  const out = [];
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.type !== 'string') {
    out.push(`not an object with a type: ${JSON.stringify(msg)}`);
    return out;
  }
  const isView = msg.type === 'view';
  const isReplay = msg.type === 'replay';
  if (!isView && !isReplay) return out;
  const v = msg.view;
  if (!v || typeof v !== 'object') {
    out.push(`${msg.type} without a view object`);
    return out;
  }
  const seat = isView ? msg.seat : null; // a replay is the public view
  const tag = `${msg.type} ${msg.code} moves ${msg.moves ?? msg.step} seat ${seat}`;
  if (isView) {
    if (!(seat === null || Number.isInteger(seat))) out.push(`${tag}: seat is ${JSON.stringify(seat)}`);
    if (v.seat !== seat) out.push(`${tag}: view.seat ${JSON.stringify(v.seat)} differs from seat`);
    if (Object.hasOwn(seats, msg.code)) {
      if (seat !== seats[msg.code]) out.push(`${tag}: this connection holds seat ${seats[msg.code]}`);
    } else if (watching.has(msg.code)) {
      if (seat !== null) out.push(`${tag}: a spectator got a seat's view`);
    } else {
      out.push(`${tag}: a view of a table this connection neither sits at nor watches`);
    }
  } else if (v.seat !== null) {
    out.push(`${tag}: a replay view has seat ${JSON.stringify(v.seat)}`);
  }
  if (Object.hasOwn(v, 'legal')) {
    if (seat === null) out.push(`${tag}: a public view has a legal list`);
    else if (v.to_move !== seat) out.push(`${tag}: legal list but to_move is ${v.to_move}`);
  }
  if (Object.hasOwn(v, 'mystery')) {
    if (seat === null) out.push(`${tag}: a public view has the mystery slice ${v.mystery}`);
    else {
      const mine = v.players?.[seat]?.specials ?? [];
      if (!mine.some((s) => s.slug === 'mystery-slice'))
        out.push(`${tag}: mystery ${v.mystery} for a seat that does not hold the Mystery Slice`);
    }
  }
  if (seat === null && v.placing && Array.isArray(v.placing.edible) && Array.isArray(v.placing.slices)) {
    // a face-down slice shows as "?" and says nothing about being edible
    v.placing.slices.forEach((s, i) => {
      if (s === '?' && v.placing.edible[i] !== null) out.push(`${tag}: edibility of a hidden slice shown`);
    });
  }
  return out;
}

/* ---- A client ---- */

let clientNo = 0;

// A timer that runs whenever this process's loop is free: how stale it is
// when a message is handled says how long the loop was busy before (the
// clients' `late`). It keeps nothing alive.
let loopFree = performance.now();
setInterval(() => { loopFree = performance.now(); }, 5).unref();

export class Client {
  constructor(url, label) {
    this.url = url;
    this.label = label ?? `client${++clientNo}`;
    this.messages = [];      // every message received, parsed
    this.arrived = [];       // when each was handled (performance.now(), ms)
    this.late = [];          // how long before that this client's loop was last free (ms): a
                             // message may have waited as long to be handled
    this.read = 0;           // waitFor() looks from here on
    this.seats = {};         // code -> seat (from `joined`)
    this.watching = new Set();
    this.problems = [];      // view-leak findings
    this.closed = null;      // {code, reason} once closed
    this.waiters = new Set();
    this.sent = [];          // send times, for pacing
  }

  /* `forwardedFor`: the address a trusted proxy would name (X-Forwarded-For). */
  static async connect(url, label, timeout = 5000, { forwardedFor = null } = {}) {
    const c = new Client(url, label);
    c.headers = forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {};
    await c.open(timeout);
    return c;
  }

  open(timeout) {
    const ws = new WebSocket(this.url, { protocols: 'pizzabox', headers: this.headers ?? {} });
    this.ws = ws;
    ws.addEventListener('message', (ev) => this.onMessage(ev.data));
    this.closedPromise = new Promise((res) => ws.addEventListener('close', (ev) => {
      this.closed = { code: ev.code, reason: ev.reason };
      this.wake();
      res(this.closed);
    }));
    return withTimeout(new Promise((res, rej) => {
      ws.addEventListener('open', () => {
        if (ws.protocol !== 'pizzabox') rej(new Error(`subprotocol ${JSON.stringify(ws.protocol)}`));
        else res();
      });
      ws.addEventListener('error', () => rej(new Error(`${this.label}: cannot connect to ${this.url}`)));
    }), timeout, `${this.label} connect`);
  }

  onMessage(data) {
    let msg;
    try {
      msg = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
    } catch {
      this.problems.push(`not JSON: ${String(data).slice(0, 200)}`);
      return;
    }
    if (msg && msg.type === 'joined') this.seats[msg.code] = msg.seat;
    if (msg && msg.type === 'watching') this.watching.add(msg.code);
    for (const p of leakProblems(msg, this.seats, this.watching)) this.problems.push(`${this.label}: ${p}`);
    this.messages.push(msg);
    const now = performance.now();
    this.arrived.push(now);
    this.late.push(now - loopFree);
    this.wake();
  }

  wake() {
    for (const w of [...this.waiters]) w();
  }

  get isOpen() {
    return this.ws.readyState === WebSocket.OPEN;
  }

  sendRaw(text) {
    this.sent.push(Date.now());
    this.ws.send(text);
  }

  /* Send one message, paced to stay well inside the server's 20 a second
   * (bursts of 40): at most 15 in any one second. */
  async send(obj) {
    for (;;) {
      const now = Date.now();
      while (this.sent.length && now - this.sent[0] >= 1000) this.sent.shift();
      if (this.sent.length < 15) break;
      await sleep(1000 - (now - this.sent[0]) + 5);
    }
    this.sendRaw(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }

  /* The first message from the read position on that matches; the read
   * position moves past it. Rejects on timeout or when the connection closes. */
  waitFor(pred, timeout = 5000, what = 'a message') {
    return new Promise((resolve, reject) => {
      let timer;
      const check = () => {
        for (let i = this.read; i < this.messages.length; i++) {
          if (pred(this.messages[i])) {
            this.read = i + 1;
            done();
            resolve(this.messages[i]);
            return;
          }
        }
        if (this.closed) {
          done();
          reject(new Error(`${this.label}: connection closed (${this.closed.code} ${this.closed.reason}) while waiting for ${what}`));
        }
      };
      const done = () => { clearTimeout(timer); this.waiters.delete(check); };
      timer = setTimeout(() => {
        done();
        const recent = this.messages.slice(-3).map((m) => JSON.stringify(m).slice(0, 300));
        reject(new Error(`${this.label}: timed out after ${timeout} ms waiting for ${what}; last: ${recent.join(' | ')}`));
      }, timeout);
      this.waiters.add(check);
      check();
    });
  }

  /* Send and wait for the first reply that matches. */
  async request(obj, pred, timeout = 5000, what) {
    this.skip();
    await this.send(obj);
    return this.waitFor(pred, timeout, what ?? `a reply to ${JSON.stringify(obj).slice(0, 100)}`);
  }

  /* Forget what is unread. */
  skip() {
    this.read = this.messages.length;
  }

  /* Messages received since index `from`. */
  since(from) {
    return this.messages.slice(from);
  }

  /* A round trip: everything the server sent before the answer to this
   * `list` has arrived. Returns the `tables` answer. */
  async sync(timeout = 5000) {
    this.skip();
    await this.send({ type: 'list' });
    return this.waitFor((m) => m.type === 'tables', timeout, 'tables (sync)');
  }

  close() {
    try { this.ws.close(); } catch { /* gone */ }
    return withTimeout(this.closedPromise, 3000, `${this.label} close`).catch(() => {});
  }

  /* The connection as a broken network would leave it: no close handshake
   * from this side is waited for. */
  drop() {
    try { this.ws.close(); } catch { /* gone */ }
  }
}

/* ---- Playing ---- */

/* The move a simple human plays from a view (docs/protocol.md, docs/records.md). */
export function humanMove(view, rng = null) {
  if (Array.isArray(view.legal)) {
    if (view.legal.length === 0) throw new Error(`empty legal list in phase ${view.phase}`);
    return rng ? view.legal[Math.floor(rng() * view.legal.length)] : view.legal[0];
  }
  if (view.phase === 'divide') {
    const present = view.ring.filter((r) => r.slice !== null).map((r) => r.pos);
    const n = view.player_count;
    const cuts = present.slice(0, n - 1);
    return n === 2 ? 'special alone' : `cut ${cuts.join(' ')} special alone`;
  }
  // Too many moves to list (a large portion to place): eating nothing is
  // always a legal choice there.
  if (view.phase === 'place') return 'collect all';
  throw new Error(`no legal list in phase ${view.phase}`);
}

/* A small seeded random number generator (mulberry32), so runs repeat. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isTableView = (code) => (m) => m.type === 'view' && m.code === code;

/* Play this client's seat at table `code` until the game is over, or until
 * `stop(viewMessage)` is true for a view of the table; every move goes through
 * `act`, and the move number it was sent at is added to `sent` (a Set) if
 * given. Resolves with the view message it stopped at. */
export async function playToEnd(client, code, { rng = null, stop = null, sent = null, timeout = 30_000, moveTimeout = 10_000 } = {}) {
  const deadline = Date.now() + timeout;
  let after = -1;   // the move count when this seat last acted
  let acted = 0;
  // Start from the newest view of the table already received (older ones are
  // stale), even if an earlier wait read past it.
  for (let i = client.messages.length - 1; i >= 0; i--) {
    if (isTableView(code)(client.messages[i])) {
      client.read = i;
      break;
    }
  }
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`${client.label}: game ${code} not over within ${timeout} ms (acted ${acted} times)`);
    const msg = await client.waitFor((m) => (m.type === 'error') ||
      (isTableView(code)(m) && (m.view.phase === 'over' || (stop && stop(m)) ||
        (m.view.to_move === m.seat && m.moves > after))),
    Math.min(left, moveTimeout), `${code}: my turn or the end`);
    if (msg.type === 'error') throw new Error(`${client.label}: error while playing ${code}: ${msg.message}`);
    if (msg.view.phase === 'over') return msg;
    if (stop && stop(msg)) return msg;
    const action = humanMove(msg.view, rng);
    after = msg.moves;
    acted++;
    sent?.add(msg.moves);
    await client.send({ type: 'act', code, action });
  }
}

// One server for a whole test file: started before its tests, stopped after
// them with its sanitizer findings checked; connect() opens a client that is
// closed at the end, and `clients` lists every one opened.
export function serverForFile(dbName) {
  const file = { clients: [] };
  let dir, server;
  before(async () => {
    dir = tempDir();
    server = await startServer(join(dir, dbName));
  });
  after(async () => {
    await Promise.all(file.clients.map((c) => c.close()));
    const reports = await stopServers([server]);
    if (dir) removeTempDir(dir);
    assert.deepEqual(reports, [], 'sanitizer findings in the server');
  });
  file.connect = async (label) => {
    const c = await Client.connect(server.url, label);
    file.clients.push(c);
    return c;
  };
  return file;
}

/* A table whose every seat is a human played by one of `clients` (client i
 * at seat i): each move is chosen by `choose(viewMessage, client)` from the
 * view of the seat to move and sent through `act`. `before(viewMessage,
 * client)` may send other requests first (refused moves). Stops when the
 * game is over or `stop(viewMessage)` is true for the view of the seat to
 * move, before it chooses; resolves with that view and `sent`: the move
 * numbers the clients made (any other was the server's). */
export async function driveSeats(clients, code, choose, { stop = null, before = null, timeout = 60_000 } = {}) {
  const deadline = Date.now() + timeout;
  const sent = new Set();
  let now = clients[0].messages.findLast(isTableView(code)) ??
    await clients[0].waitFor(isTableView(code), 5000, `${code}: the table`);
  for (;;) {
    if (Date.now() > deadline) throw new Error(`${code}: not done within ${timeout} ms (${sent.size} moves made)`);
    if (now.view.phase === 'over') return { end: now, sent };
    const mover = clients[now.view.to_move];
    const mine = await viewAt(mover, code, now.moves);
    if (stop && stop(mine)) return { end: mine, sent };
    if (before) await before(mine, mover);
    const action = choose(mine, mover);
    sent.add(now.moves);
    mover.skip();
    await mover.send({ type: 'act', code, action });
    const reply = await mover.waitFor((m) => m.type === 'error' || (isTableView(code)(m) && m.moves > now.moves),
      5000, `${code}: ${action} taken`);
    if (reply.type === 'error') throw new Error(`${mover.label}: ${JSON.stringify(action)} refused: ${reply.message}`);
    now = reply;
    shareMaps(clients);
  }
}

/* The newest view of a table at a move count a client has, or the next. */
export function viewAt(c, code, moves, ms = 5000) {
  const at = (m) => isTableView(code)(m) && m.moves === moves;
  const had = c.messages.findLast(at);
  if (had) return had;
  c.skip();
  return c.waitFor(at, ms, `${code}: ${c.label}'s view at move ${moves}`);
}

/* A long game told to many clients is many copies of the same map: the
 * views received keep one (New York Pizza Delivery's view carries it). */
function shareMaps(clients) {
  for (const c of clients) {
    c.mapsShared ??= 0;
    for (; c.mapsShared < c.messages.length; c.mapsShared++) {
      const v = c.messages[c.mapsShared].view;
      if (!v || !v.map) continue;
      c.sharedMap ??= v.map;
      if (JSON.stringify(v.map) === JSON.stringify(c.sharedMap)) v.map = c.sharedMap;
    }
  }
}


/* Games between bots as their records (docs/records.md): `pizzabox selfplay`
 * plays the same games for the same arguments, so a test can look for one
 * that reaches a position, then deal its seed again (PIZZABOX_TABLE_SEED). */
export function selfplayRecords(args) {
  const dir = tempDir('pizzabox-records-');
  try {
    execFileSync(BIN, ['selfplay', ...args, '--record-dir', dir], { stdio: 'ignore' });
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  } finally {
    removeTempDir(dir);
  }
}

/* A table of human seats only, client i at seat i; resolves with each
 * client's `joined` (its seat and token). */
export async function humanTable(clients, create) {
  const seats = clients.map(() => 'human');
  const joined = [];
  for (const [i, c] of clients.entries()) {
    c.skip();
    if (i === 0) await c.send({ type: 'create', ...create, players: seats.length, seats, name: c.label });
    else await c.send({ type: 'join', code: joined[0].code, name: c.label });
    const m = await c.waitFor((x) => x.type === 'joined' || x.type === 'error', 5000, `${c.label} seated`);
    if (m.type === 'error' || m.seat !== i) throw new Error(`${c.label} not at seat ${i}: ${JSON.stringify(m)}`);
    joined.push(m);
  }
  return joined;
}

/* Is this a view of New York Pizza Delivery in which the client's own seat
 * is asked only to let a delivery go (an Instant card question whose one
 * answer is "done")? */
export const isFormality = (m) => m.view.to_move === m.seat && m.view.phase === 'instant' && m.view.legal.length === 1;

/* New York Pizza Delivery games between greedy bots at 6 players (the 5-6
 * player box) in which an Instant card was played, and Out of Supplies on an
 * opponent: the same games on every run. */
export function opponentCardGames() {
  return selfplayRecords(['--game', 'delivery', '--players', '6', '--games', '20', '--seed', '1', '--bots', 'greedy'])
    .filter((r) => r.actions.some((a) => /^instant /.test(a)) && r.actions.some((a) => /^play power:out-of-supplies on \d$/.test(a)));
}

/* deploy/haproxy.cfg itself, its ports changed, in front of `servers`
 * (started with --trust-proxy); resolves once it serves the web client
 * and has found every server healthy. Killed at `stop()` (or with the
 * process). */
export async function startHaproxy(servers, dir) {
  const free = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
  });
  const cfg = readFileSync(join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8')
    .replace(/bind :8080/, `bind 127.0.0.1:${free}`)
    .replace(/^ *server .*\n/gm, '') + servers.map((s, i) => `    server node${i} 127.0.0.1:${s.port}\n`).join('');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  const proc = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(proc);
  proc.on('exit', () => live.delete(proc));
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const lb = { proc, port: free, url: `ws://127.0.0.1:${free}/ws`, stop: () => proc.kill('SIGKILL') };
  for (let tries = 0; tries < 100; tries++) {
    if (await fetch(`http://127.0.0.1:${free}/`).then((r) => r.ok, () => false)) {
      await sleep(2500); // every server checked healthy (rise 2, a check a second)
      return lb;
    }
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`haproxy did not start: ${stderr}`);
}
