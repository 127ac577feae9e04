// server-games.mjs -- whole games through the server for the memcheck run
// (tests/valgrind/run.sh): one New York Slice and one Pizza Theory table,
// each a human seat played by a WebSocket client against bots, then a
// clean stop. PIZZABOX_BIN is the wrapper that starts the server under
// valgrind; the run's verdict is valgrind's log, read by run.sh.
//
//   PIZZABOX_BIN=WRAPPER node --experimental-websocket tests/valgrind/server-games.mjs DB
import { Client, startServer, playToEnd, seeded } from '../server/helpers.mjs';

const db = process.argv[2];
const server = await startServer(db, { timeout: 60_000, botThreads: 2 });
const tables = [
  { game: 'nyslice', players: 4, seats: ['human', 'greedy', 'greedy', 'random'] },
  { game: 'theory', players: 3, seats: ['human', 'greedy', 'random'] },
];
let failed = false;
for (const [i, t] of tables.entries()) {
  const c = await Client.connect(server.url, `player${i}`, 30_000);
  try {
    await c.send({ type: 'create', name: 'Val', ...t });
    const joined = await c.waitFor((m) => m.type === 'joined' || m.type === 'error', 30_000, 'joined');
    if (joined.type === 'error') throw new Error(joined.message);
    const end = await playToEnd(c, joined.code, { rng: seeded(7 + i), timeout: 600_000, moveTimeout: 60_000 });
    if (!end.score) throw new Error(`${t.game}: the last view has no score`);
    console.log(`${t.game}: table ${joined.code} finished after ${end.moves} moves`);
  } catch (e) {
    console.error(`${t.game}: ${e.message}`);
    failed = true;
  } finally {
    await c.close();
  }
}
const { code, signal } = await server.stop('SIGTERM', 120_000);
console.log(`server stopped (${code ?? signal})`);
process.exit(failed ? 1 : 0);
