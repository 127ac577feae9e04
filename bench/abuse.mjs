// abuse.mjs -- attacks on a pizzabox server, as hostile clients would make
// them, each bounded in time, on this machine only; prints what held.
//   node --experimental-websocket bench/abuse.mjs
// The server runs behind a pretend reverse proxy (--trust-proxy), so each
// attacker can be a different address (X-Forwarded-For); a small raw
// WebSocket client sends the headers browsers would not let a page set.
import http from 'node:http';
import crypto from 'node:crypto';
import { join } from 'node:path';
import { startServer, stopServers, tempDir, sleep, Client, playToEnd, seeded } from '../tests/server/helpers.mjs';

const QUOTA = 4;
const server = await startServer(join(tempDir('pizzabox-abuse-'), 'abuse.db'),
  { botThreads: 1, args: ['--trust-proxy', '--tables-per-client', String(QUOTA), '--ping-after', '1'] });
const results = [];
const held = (what, ok, detail) => { results.push({ what, ok }); console.log(`${ok ? 'held  ' : 'BROKEN'} ${what}: ${detail}`); };

/* A WebSocket by hand: resolves to {send, messages, waitFor, close, closed} or rejects when refused. */
function connect({ address = '203.0.113.1', origin, path = '/ws', pongs = true } = {}) {
  return new Promise((resolve, reject) => {
    const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': crypto.randomBytes(16).toString('base64'), 'X-Forwarded-For': address };
    if (origin) headers.Origin = origin;
    const req = http.request({ port: server.port, path, headers });
    req.on('response', (res) => { res.resume(); reject(new Error(`refused: ${res.statusCode}`)); });
    req.on('error', reject);
    req.on('upgrade', (res, socket) => {
      const c = { messages: [], closed: false, waiters: [] };
      let buf = Buffer.alloc(0);
      socket.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        for (;;) {
          if (buf.length < 2) return;
          let len = buf[1] & 127, off = 2;
          if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
          else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
          if (buf.length < off + len) return;
          const op = buf[0] & 15, payload = buf.subarray(off, off + len);
          buf = buf.subarray(off + len);
          if (op === 1) {
            const m = JSON.parse(payload.toString());
            c.messages.push(m);
            c.waiters = c.waiters.filter((w) => !(w.test(m) && (w.resolve(m), true)));
          } else if (op === 9) { if (pongs) frame(socket, 10, payload); } // ping: pong
          else if (op === 8) socket.end();
        }
      });
      socket.on('close', () => { c.closed = true; });
      socket.on('error', () => { c.closed = true; }); // a reset when the server drops it
      c.send = (obj) => frame(socket, 1, Buffer.from(typeof obj === 'string' ? obj : JSON.stringify(obj)));
      c.waitFor = (test, ms = 5000) => new Promise((res) => {
        const found = c.messages.find(test);
        if (found) { res(found); return; }
        const w = { test, resolve: res };
        c.waiters.push(w);
        setTimeout(() => res(null), ms);
      });
      c.close = () => socket.destroy();
      resolve(c);
    });
    req.end();
  });
}

/* A masked client frame. */
function frame(socket, op, payload) {
  const mask = crypto.randomBytes(4);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | op, 0x80 | n])
    : n < 65536 ? Buffer.from([0x80 | op, 0x80 | 126, n >> 8, n & 255])
      : Buffer.concat([Buffer.from([0x80 | op, 0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; })()]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  if (!socket.destroyed) socket.write(Buffer.concat([head, mask, body]));
}

const refused = (m) => m && m.type === 'error';
const create = (c, seats, extra = {}) => {
  c.messages.length = 0;
  c.send({ type: 'create', game: 'nyslice', players: seats.length, seats, name: 'X', ...extra });
  return c.waitFor((m) => m.type === 'joined' || m.type === 'error');
};

// 1. One client making tables until refused; another is still served.
{
  const made = [];
  for (let i = 0; i < 3; i++) {
    const c = await connect({ address: '198.51.100.7' }); // a connection holds 8 tables: several connections
    for (let k = 0; k < 8; k++) made.push(await create(c, ['human', 'human']));
  }
  const ok = made.filter((m) => m && m.type === 'joined').length;
  const other = await create(await connect({ address: '192.0.2.44' }), ['human', 'human']);
  held('one address filling the server with tables', ok === QUOTA && other?.type === 'joined',
    `${ok} of ${made.length} made (quota ${QUOTA}); another address still creates: ${other?.type}`);
  // The same client behind a long forged X-Forwarded-For: still counted.
  const forged = await connect({ address: `${'10.0.0.1, '.repeat(40)}198.51.100.7` });
  held('a long forged X-Forwarded-For', refused(await create(forged, ['human', 'human'])), 'the quota still applies');
}

// 2. A chat flood and hostile chat.
{
  const c = await connect({ address: '198.51.100.20' });
  const j = await create(c, ['human', 'greedy']);
  c.messages.length = 0;
  for (let i = 0; i < 50; i++) c.send({ type: 'chat', code: j.code, text: `spam ${i}` });
  await sleep(500);
  const lines = c.messages.filter((m) => m.type === 'chat' && !m.history).length;
  held('a chat flood', lines <= 6, `${lines} of 50 lines taken, the rest refused`);
  c.messages.length = 0;
  c.send({ type: 'chat', code: j.code, text: 'a\u202eb' });
  c.send({ type: 'chat', code: j.code, text: 'x'.repeat(301) });
  await sleep(1200);
  held('control and oversized chat', c.messages.filter(refused).length === 2, 'both refused with a reason');
}

// 3. Hostile messages: a huge number, a 5 KiB message, a foreign page, the upgrade elsewhere.
{
  const c = await connect({ address: '198.51.100.30' });
  const m = await create(c, ['human', 'greedy'], { players: 4294967298 });
  held('players: 4294967298', refused(m), m?.message);
  c.send('{"type":"list","pad":"' + 'x'.repeat(5000) + '"}');
  await sleep(300);
  held('a message over 4 KiB', c.closed, 'the connection is closed');
  const foreign = await connect({ address: '198.51.100.31', origin: 'http://evil.example' }).then(() => 'open', () => 'refused');
  held('a page of another site', foreign === 'refused', foreign);
  const elsewhere = await connect({ address: '198.51.100.32', path: '/' }).then(() => 'open', () => 'refused');
  held('the upgrade on another path', elsewhere === 'refused', elsewhere);
}

// 4. A replay, history and spectator flood from a few clients: another table's moves stay quick.
{
  // A finished six-player game to replay, and a live one to watch.
  const host = await Client.connect(server.url, 'host');
  const seats = ['human', 'random', 'random', 'random', 'random', 'random'];
  const done = await host.request({ type: 'create', game: 'nyslice', players: 6, seats, name: 'Host' },
    (m) => m.type === 'joined' || m.type === 'error', 5000, 'a table to finish');
  const finished = await playToEnd(host, done.code, { rng: seeded(9) });
  const live = await host.request({ type: 'create', game: 'nyslice', players: 6, seats, name: 'Host' },
    (m) => m.type === 'joined' || m.type === 'error', 5000, 'a table to watch');
  const watchers = [];
  for (let i = 0; i < 8; i++) {
    const w = await connect({ address: `198.51.100.${50 + i}` });
    w.send({ type: 'spectate', code: i % 2 ? live.code : done.code });
    watchers.push(w);
  }
  // Two people at another table, a new game each time one ends.
  const probe = await connect({ address: '198.51.100.90' });
  const bo = await connect({ address: '198.51.100.91' });
  let j;
  const newGame = async () => {
    j = await create(probe, ['human', 'human']);
    if (j.type !== 'joined') return;
    bo.send({ type: 'join', code: j.code, name: 'Bo' });
    await bo.waitFor((m) => m.type === 'joined' && m.code === j.code);
  };
  await newGame();
  const stop = Date.now() + 8000;
  let asked = 0;
  const flood = (async () => {
    while (Date.now() < stop) {
      for (const [i, w] of watchers.entries()) {
        // replays of any step of the finished game; whole logs of both
        w.send(i % 2 ? { type: 'history', code: i % 4 === 1 ? live.code : done.code }
          : { type: 'replay', code: done.code, step: Math.floor(Math.random() * (finished.moves + 1)) });
        asked++;
      }
      await sleep(60); // each client just under its 20 messages a second
    }
  })();
  const times = [];
  let turn = 0;
  while (Date.now() < stop) {
    const c = [probe, bo][turn % 2];
    const v = c.messages.filter((m) => m.type === 'view' && m.code === j.code).at(-1);
    if (!v) { await sleep(5); continue; }
    if (v.view.phase === 'over') {
      if (times.length > 200 || (await newGame(), j.type !== 'joined')) break; // a connection holds 8 tables
      continue;
    }
    if (v.view.to_move !== v.seat) { turn++; await sleep(5); continue; }
    const legal = v.view.legal?.[0] ?? (v.view.phase === 'divide' ? 'special alone' : 'collect all');
    const at = performance.now(), before = v.moves;
    c.send({ type: 'act', code: j.code, action: legal });
    const r = await c.waitFor((m) => m.type === 'error' || (m.type === 'view' && m.code === j.code && m.moves > before), 3000);
    if (!r || r.type === 'error') break;
    times.push(performance.now() - at);
    await sleep(20);
  }
  await flood;
  times.sort((a, b) => a - b);
  const p99 = times[Math.min(times.length - 1, Math.floor(0.99 * times.length))];
  const replays = watchers.filter((w, i) => i % 2 === 0).flatMap((w) => w.messages).filter((m) => m.type === 'replay').length;
  held('a replay, history and spectator flood', times.length > 5 && p99 < 50 && replays > 100,
    `${asked} requests (${replays} replays answered); another table's moves: ${times.length}, p99 ${p99?.toFixed(1)} ms`);
  host.close();
}

// 5. Connections that hold a slot and say nothing (the server pings after 1 s here).
{
  const deaf = await connect({ address: '198.51.100.50', pongs: false });
  const quiet = await connect({ address: '198.51.100.51' });
  await sleep(4000);
  held('a connection that never answers', deaf.closed && !quiet.closed,
    `${deaf.closed ? 'closed' : 'still open'} after 4 s; a quiet one answering pings ${quiet.closed ? 'closed' : 'kept'}`);
  quiet.close();
}

// 6. One address opening connections until refused (256 at once); its slots
// come back as it closes some; another address is still let in.
{
  const opened = [];
  for (let i = 0; i < 270; i++) opened.push(await connect({ address: '198.51.100.60' }).catch(() => null));
  const open = opened.filter(Boolean);
  const other = await connect({ address: '198.51.100.61' }).catch(() => null);
  for (const c of open.slice(0, 10)) c.close();
  await sleep(300);
  const again = await connect({ address: '198.51.100.60' }).catch(() => null);
  held('one address holding many connections', open.length === 256 && other && again,
    `${open.length} of 270 let in (256 at most); another address ${other ? 'let in' : 'refused'}; ` +
    `after 10 closed, the same address ${again ? 'let in' : 'refused'}`);
  for (const c of [...open, other, again]) c?.close();
}

const [report] = await stopServers([server]);
if (report) held('no sanitizer finding', false, report);
const broken = results.filter((r) => !r.ok).length;
console.log(broken ? `${broken} of ${results.length} attacks broke through` : `all ${results.length} attacks held`);
process.exit(broken ? 1 : 0);
