// game.test.mjs -- two friends play New York Slice in the browser.
//
// Starts `pizzabox serve`, opens two browser contexts in Debian's Chromium:
// Ann creates a 4-player table with two bots, Bo joins from the share link,
// and both click their way to the Guest Check. Screenshots of the table and
// of the final scores go to build/screenshots/.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { Client, startServer, tempDir } from '../server/helpers.mjs';
import { clickMove } from './slice-clicks.mjs';

let browser, server;
after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

test('two browsers create and join a table with two bots and play to the Guest Check', { timeout: 240_000 },
  async () => {
    server = await startServer(join(tempDir('pizzabox-browser-'), 'game.db'));
    const url = `http://localhost:${server.port}/`;
    browser = await launchChromium();
    const problems = [];
    const open = async (w, h) => {
      return watchedPage(browser, problems, { viewport: { width: w, height: h } });
    };
    const ann = await open(1200, 1000), bo = await open(390, 844); // a desktop and a phone

    await ann.goto(url);
    // the lobby says in a line what each game is
    assert.match(await ann.locator('#game-about').innerText(), /^I cut, you choose: /);
    await ann.selectOption('#game', 'theory');
    assert.match(await ann.locator('#game-about').innerText(), /hexagon pizza/);
    await ann.selectOption('#game', 'nyslice');
    await ann.fill('#name', 'Ann');
    await ann.selectOption('#players-count', '4');
    await ann.selectOption('select[name=seat1]', 'human');
    await ann.selectOption('select[name=seat2]', 'greedy');
    await ann.selectOption('select[name=seat3]', 'random');
    await ann.click('#create');
    await ann.waitForSelector('#table:not([hidden])');
    const share = await ann.locator('#share-link').getAttribute('href');
    assert.match(share, /#\/t\/[A-Z0-9]{4}$/);

    await bo.goto(share);
    await bo.waitForFunction(() => document.querySelector('#prompt-info').textContent.trim() !== '');
    assert.deepEqual(await bo.locator('#toasts .toast').allInnerTexts(), [],
      'a shared link opens without a "not connected" warning while the page connects');
    await bo.fill('#prompt-name', 'Bo');
    await bo.click('#prompt-join');
    await bo.waitForSelector('#table:not([hidden])');

    let shot = false;
    const deadline = Date.now() + 200_000;
    while (Date.now() < deadline) {
      const overA = await ann.locator('#game-over').isVisible();
      const overB = await bo.locator('#game-over').isVisible();
      if (overA && overB) break;
      const moved = (await clickMove(ann)) || (await clickMove(bo));
      if (!shot && await ann.locator('#table').getAttribute('data-phase') === 'take') {
        await ann.screenshot({ path: join(SHOTS, 'browser-table.png'), fullPage: true });
        shot = true;
      }
      await ann.waitForTimeout(moved ? 150 : 100);
    }
    assert.ok(await ann.locator('#game-over').isVisible(), 'Ann sees the end of the game');
    assert.ok(await bo.locator('#game-over').isVisible(), 'Bo sees the end of the game');
    const scores = await ann.locator('#game-over').innerText();
    const winner = scores.match(/(?:Winner|Shared win): (.+)/);
    assert.ok(winner, `the Guest Check names the winner: ${scores}`);
    assert.match(await ann.locator('#prompt').innerText(), /^Game over\. (Shared win: )?.+(wins)?\.$/,
      'the headline says who won');
    assert.ok((await ann.locator('#prompt').innerText()).includes(winner[1].split(' and ')[0]),
      'the headline names the Guest Check\'s winner');
    assert.match(scores, /Ann/);
    assert.match(scores, /Bo/);
    await ann.screenshot({ path: join(SHOTS, 'browser-guest-check.png'), fullPage: true });
    await bo.screenshot({ path: join(SHOTS, 'browser-phone.png'), fullPage: true });
    assert.deepEqual(problems, [], 'no errors in the pages');
  });

test('a 2-player table shows the Special sent back, no columns for removed types, and the Guest Check lines',
  { timeout: 240_000 }, async () => {
    // Table seed 2 deals Dibs! in round 1 of a 2-player game: it goes back to the box.
    const two = await startServer(join(tempDir('pizzabox-browser-'), 'two.db'), { env: { PIZZABOX_TABLE_SEED: '2' } });
    browser ??= await launchChromium();
    const problems = [];
    const page = await watchedPage(browser, problems, { viewport: { width: 1200, height: 1000 } });
    try {
      await page.goto(`http://localhost:${two.port}/`);
      await page.fill('#name', 'Ann');
      await page.selectOption('#players-count', '2');
      await page.selectOption('select[name=seat1]', 'greedy');
      await page.click('#create');
      await page.waitForSelector('#table:not([hidden])');
      const replaced = await page.locator('#special .replaced').innerText();
      assert.match(replaced, /^Dibs! was revealed first and went back to the box \(not played in a 2-player game\); .+ replaces it\.$/);
      const heads = await page.locator('#players table.types th').allInnerTexts();
      assert.deepEqual([...new Set(heads)], ['4', '5', '6', '7', '9', '11'], 'no 3, 8 or 10 in a 2-player game');
      await page.screenshot({ path: join(SHOTS, 'browser-two-players.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(SHOTS, 'browser-two-players-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1200, height: 1000 });
      const deadline = Date.now() + 200_000;
      while (Date.now() < deadline && !(await page.locator('#game-over').isVisible())) {
        const moved = await clickMove(page);
        await page.waitForTimeout(moved ? 120 : 100);
      }
      assert.ok(await page.locator('#game-over').isVisible(), 'the game ends');
      assert.match(await page.locator('#game-over table.score').innerText(), /Pepperoni − Anchovies/);
      const news = await page.locator('#log .news').allInnerTexts();
      assert.ok(news.some((n) => /^Round \d: today's Special is /.test(n)), `the log tells a round's Special: ${news}`);
      await page.screenshot({ path: join(SHOTS, 'browser-two-players-end.png'), fullPage: true });
      assert.deepEqual(problems, [], 'no errors in the page');
    } finally {
      await page.context().close();
      two.proc.kill('SIGKILL');
    }
  });

test('"Just watch" clicked on a shared link while the page still connects watches once it has', { timeout: 60_000 }, async () => {
  const slow = await startServer(join(tempDir('pizzabox-browser-'), 'slow.db'));
  const c = await Client.connect(slow.url, 'Ann');
  const browser2 = await launchChromium();
  try {
    const made = await c.request({ type: 'create', name: 'Ann', game: 'nyslice', players: 3, seats: ['human', 'greedy', 'greedy'] },
      (x) => x.type === 'joined' || x.type === 'error', 5000, 'the table');
    assert.equal(made.type, 'joined');
    const problems = [];
    const bo = await watchedPage(browser2, problems, { viewport: { width: 1200, height: 900 } });
    let connect; // the page's socket reaches the server only when the test says so
    const opened = new Promise((r) => { connect = r; });
    await bo.routeWebSocket(/\/ws$/, async (ws) => { await opened; ws.connectToServer(); });
    await bo.goto(`http://localhost:${slow.port}/#/t/${made.code}`);
    await bo.waitForSelector('#join-prompt:not([hidden])');
    await bo.click('#prompt-watch');
    assert.deepEqual(await bo.locator('#toasts .toast').allInnerTexts(), [], 'no "not connected" for a click the page keeps');
    connect();
    await bo.waitForSelector('#table:not([hidden])');
    await bo.locator('#headline .watching').waitFor();
    assert.deepEqual(problems, [], 'no errors in the page');
  } finally {
    await browser2.close();
    await c.close();
    slow.proc.kill('SIGKILL');
  }
});
