// failover.test.mjs -- a player in the browser whose server dies mid-game.
//
// Two `pizzabox serve` on one PostgreSQL database behind HAProxy
// (deploy/haproxy.cfg, its ports changed), as docs/scaling.md runs them.
// Ann plays New York Slice against two bots in Chromium, through HAProxy;
// a few moves in, the server her page is connected to is killed (`kill -9`).
// Her page says it is offline, connects again by itself through HAProxy (to
// the other server), is back at her seat with every move made so far, and
// she plays on. Runs only with a PostgreSQL and HAProxy
// (make server-test-pg). Screenshots: build/screenshots/failover-*.png.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { clickMove } from './slice-clicks.mjs';
import { TEST_PG, startServer, startHaproxy, stopServers, storeFor, tempDir, removeTempDir } from '../server/helpers.mjs';

const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;
const skip = !TEST_PG ? 'PostgreSQL only (PIZZABOX_TEST_DB, make server-test-pg)'
  : !hasHaproxy && 'haproxy is not installed (sh scripts/ensure-deps.sh test)';
const dir = tempDir('pizzabox-failover-');
const servers = [];
let browser, lb;
after(async () => {
  await browser?.close();
  lb?.stop();
  const reports = await stopServers(servers);
  removeTempDir(dir);
  assert.deepEqual(reports, [], 'sanitizer findings in the servers');
});

const psql = (db, sql) =>
  execFileSync(process.env.PIZZABOX_TEST_PSQL || 'psql', [db, '-XAtqc', sql], { encoding: 'utf8' }).trim();

test("Ann's server dies mid-game: her page connects again through HAProxy, to her seat, and she plays on",
  { skip, timeout: 60_000 }, async () => {
    const db = storeFor(join(dir, 'failover.db'));
    for (let i = 0; i < 2; i++) servers.push(await startServer(db, { args: ['--trust-proxy'] }));
    lb = await startHaproxy(servers, dir);
    browser = await launchChromium();
    const problems = [];
    const page = await watchedPage(browser, problems, { viewport: { width: 1200, height: 1000 } });
    await page.goto(`http://127.0.0.1:${lb.port}/`);
    await page.fill('#name', 'Ann');
    await page.selectOption('#players-count', '3');
    await page.selectOption('select[name=seat1]', 'greedy');
    await page.selectOption('select[name=seat2]', 'greedy');
    await page.click('#create');
    await page.waitForSelector('#table:not([hidden])');
    const code = (await page.locator('#share-link').getAttribute('href')).slice(-4);
    const stored = () => Number(psql(db, `SELECT moves FROM tables WHERE code = '${code}'`));
    for (let moves = 0; moves < 4;) { // a few of Ann's moves, by clicks
      if (await clickMove(page)) moves++;
      await page.waitForTimeout(150);
    }
    // The server her page is connected to: the one her seat is present on.
    const pid = Number(psql(db, 'SELECT pid FROM presence JOIN nodes ON nodes.id = presence.node ' +
      `JOIN tables ON tables.id = presence.table_id WHERE code = '${code}'`));
    const hers = servers.find((s) => s.proc.pid === pid);
    assert.ok(hers, `her server found (pid ${pid})`);
    const before = stored();
    hers.proc.kill('SIGKILL');
    await hers.exited;
    await page.waitForSelector('#conn[data-state=closed]', { timeout: 5000 });
    assert.match(await page.locator('#conn').innerText(), /^offline — retrying in \d+s$/);
    await page.screenshot({ path: join(SHOTS, 'failover-offline.png') });
    // Back by itself (its first retry is half a second later), at her seat.
    await page.waitForSelector('#conn[data-state=open]', { timeout: 10_000 });
    await page.waitForFunction((n) => Number(document.querySelector('#table')?.dataset.moves) >= n, before,
      { timeout: 10_000 });
    assert.ok(await page.locator('#table:not([hidden])').isVisible(), 'the table again, not the lobby');
    await page.screenshot({ path: join(SHOTS, 'failover-back.png') });
    // She plays on: three of her moves, stored through the other server.
    for (let moves = 0; moves < 3;) {
      if (await clickMove(page)) moves++;
      await page.waitForTimeout(150);
    }
    await page.waitForFunction((n) => Number(document.querySelector('#table')?.dataset.moves) >= n, before + 3,
      { timeout: 10_000 });
    assert.ok(stored() >= before + 3, 'played on after the kill, on the other server');
    await page.screenshot({ path: join(SHOTS, 'failover-on.png') });
    assert.deepEqual(problems, [], 'no errors in the page');
  });
