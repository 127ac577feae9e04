// social.test.mjs -- what surrounds the moves at a table (issue 20), in real
// browsers: a table that waits for players (its waiting panel, a second
// player joining, the creator starting it with bots), chat between a player
// and a spectator (text shown as text, mute, errors under the box), the
// whole log after a reload and in a replay, a rematch offered and joined,
// and undo against bots. Screenshots of the waiting panel, the chat and the
// log at 1366x768 and 390x844 go to build/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { startServer, tempDir } from '../server/helpers.mjs';
import { clickMove as play } from './slice-clicks.mjs';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser, server, url;
const problems = [];

before(async () => {
  // No wait between bot moves: the tests need no pacing.
  server = await startServer(join(tempDir('pizzabox-social-'), 'social.db'), { botPace: 0 });
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
  assert.deepEqual(problems, [], 'no errors in the pages');
});

// A page in a browser context of its own (its own localStorage: its own person).
async function person(size) {
  return watchedPage(browser, problems, { viewport: size });
}

// A New York Slice table from the lobby; returns its share link.
async function create(page, name, seats) {
  await page.goto(url);
  await page.fill('#name', name);
  await page.selectOption('#players-count', String(seats.length));
  for (let i = 1; i < seats.length; i++) await page.selectOption(`select[name=seat${i}]`, seats[i]);
  await page.click('#create');
  await page.waitForSelector('#table:not([hidden])');
  await page.waitForSelector('#share-link[href*="#/t/"]');
  return page.locator('#share-link').getAttribute('href');
}

async function joinAt(page, share, name) {
  await page.goto(share);
  await page.fill('#prompt-name', name);
  await page.click('#prompt-join');
  await page.waitForSelector('#table:not([hidden])');
}

// Everyone clicks their moves until the game is over on every page.
async function playToTheEnd(pages) {
  const deadline = Date.now() + 90_000; // a busy machine (make test runs files side by side)
  for (;;) {
    const over = await Promise.all(pages.map((p) => p.locator('#game-over').isVisible()));
    if (over.every(Boolean)) return;
    assert.ok(Date.now() < deadline, 'the game ends within 90 s');
    let moved = false;
    for (const p of pages) moved = (await play(p)) || moved;
    await pages[0].waitForTimeout(moved ? 100 : 60);
  }
}

const MOVES = '#log li[data-move]:not(.log-event)'; // the log's moves, not its events
const moveItems = (page) => page.locator(MOVES);
const shot = (page, name) => page.screenshot({ path: join(SHOTS, name), fullPage: true });

test('a table with free seats waits: the link, who joined, who is missing; the creator starts it with bots',
  { timeout: 60_000 }, async () => {
    const ann = await person(DESKTOP), bo = await person(PHONE);
    const share = await create(ann, 'Ann', ['human', 'human', 'human', 'greedy']);
    const code = share.split('/').pop();
    const waiting = ann.locator('#waiting');
    await waiting.waitFor();
    assert.match(await waiting.innerText(), /Waiting for 2 more players/);
    assert.match(await waiting.innerText(), new RegExp(`code ${code}`));
    assert.equal(await waiting.locator('a').getAttribute('href'), share);
    assert.equal(await ann.locator('#waiting li.missing').count(), 2, 'seats 2 and 3 are missing');
    assert.match(await ann.locator('#waiting li[data-seat="0"]').innerText(), /Ann.*joined/);
    assert.equal(await ann.locator('#table').getAttribute('data-my-turn'), 'false', 'nobody moves yet');
    assert.ok(await ann.locator('#start-bots').isVisible(), 'the creator may start with bots');

    await joinAt(bo, share, 'Bo');
    await bo.locator('#waiting').waitFor();
    assert.match(await bo.locator('#waiting').innerText(), /Waiting for 1 more player\b/);
    assert.equal(await bo.locator('#start-bots').count(), 0, 'only the creator starts the table');
    await ann.waitForFunction(() => /Waiting for 1 more player\b/.test(document.querySelector('#waiting').innerText));
    assert.match(await ann.locator('#waiting li[data-seat="1"]').innerText(), /Bo.*joined/);
    await shot(ann, 'social-waiting-desktop.png');
    await shot(bo, 'social-waiting-phone.png');

    // The copy button copies the link (or shows it where there is no clipboard).
    await ann.click('#waiting-copy');
    await ann.locator('.toast').first().waitFor();

    await ann.selectOption('#start-bot', 'easy');
    await ann.click('#start-bots');
    await ann.locator('#waiting').waitFor({ state: 'hidden' });
    await bo.locator('#waiting').waitFor({ state: 'hidden' });
    assert.match(await ann.locator('#players').innerText(), /bot: easy/, 'the free seat went to the chosen bot');
    // The log tells that bots took the free seats, before the first move.
    const event = ann.locator('#log li.log-event').first();
    await event.waitFor();
    assert.equal(await event.getAttribute('data-move'), '0');
    assert.match(await event.innerText(), /Ann started the game with bots in the free seats: Easy 3\./);
  });

test('two players join a waiting table and the game starts by itself', { timeout: 60_000 }, async () => {
  const ann = await person(DESKTOP), bo = await person(DESKTOP);
  const share = await create(ann, 'Ann', ['human', 'human', 'greedy']);
  await ann.locator('#waiting').waitFor();
  assert.match(await ann.locator('#prompt').innerText(), /Waiting for players/);
  await joinAt(bo, share, 'Bo');
  await ann.locator('#waiting').waitFor({ state: 'hidden' });
  await bo.locator('#waiting').waitFor({ state: 'hidden' });
  assert.doesNotMatch(await ann.locator('#prompt').innerText(), /Waiting for players/);
  assert.equal(await ann.locator('#table').getAttribute('data-phase'), 'divide');
  // Someone is to move: one of the two, or the bot.
  const turns = [await ann.locator('#table').getAttribute('data-my-turn'), await bo.locator('#table').getAttribute('data-my-turn')];
  assert.ok(turns.includes('true') || /Greedy/.test(await ann.locator('#prompt').innerText()), `turns ${turns}`);
});

test('a player and a spectator chat: text stays text, spectators are marked, mute hides, errors show under the box',
  { timeout: 60_000 }, async () => {
    const ann = await person(DESKTOP), cy = await person(PHONE);
    const share = await create(ann, 'Ann', ['human', 'greedy']);
    await cy.goto(share);
    await cy.fill('#prompt-name', 'Cy');
    await cy.click('#prompt-watch');
    await cy.waitForSelector('#table:not([hidden])');

    const markup = '<b>bold</b> & <img src=x onerror=alert(1)>';
    await ann.fill('#chat-text', markup);
    await ann.press('#chat-text', 'Enter');
    const cyLine = cy.locator('#chat-lines li.chat-line').first();
    await cyLine.waitFor();
    assert.equal(await cyLine.locator('.chat-text').innerText(), markup, 'shown literally');
    assert.equal(await cy.locator('#chat-lines .chat-text b, #chat-lines img').count(), 0, 'no markup made of it');
    assert.equal(await cyLine.locator('.chat-name').innerText(), 'Ann');
    assert.equal(await ann.locator('#chat-text').inputValue(), '', 'the box is emptied');

    await cy.fill('#chat-text', 'hello from the stands');
    await cy.click('#chat-send');
    const spectatorLine = ann.locator('#chat-lines li.spectator');
    await spectatorLine.waitFor();
    assert.match(await spectatorLine.innerText(), /Cy \(spectator\): hello from the stands/);
    assert.equal(await cy.locator('#chat-mute button[data-name="Ann"]').count(), 1, 'Cy may mute Ann');
    assert.equal(await cy.locator('#chat-mute button[data-name="Cy"]').count(), 0, 'but not himself');
    await shot(ann, 'social-chat-desktop.png');
    await shot(cy, 'social-chat-phone.png');

    // The box takes at most the 300 characters the server accepts.
    await ann.fill('#chat-text', 'x'.repeat(301));
    assert.equal((await ann.locator('#chat-text').inputValue()).length, 300);
    await ann.fill('#chat-text', '');

    // Ann mutes Cy: Cy's lines go, and stay gone after a reload (kept in the browser).
    await ann.click('#chat-mute button[data-name="Cy"]');
    await spectatorLine.waitFor({ state: 'detached' });
    assert.equal(await ann.locator('#chat-mute button[data-name="Cy"]').getAttribute('aria-pressed'), 'true');
    await ann.reload();
    await ann.locator('#chat-lines li.chat-line').first().waitFor();
    assert.equal(await ann.locator('#chat-lines li.chat-line').count(), 1, 'only Ann\'s own line');
    assert.equal(await ann.locator('#chat-lines li.spectator').count(), 0);
    await ann.click('#chat-mute button[data-name="Cy"]');
    await spectatorLine.waitFor();

    // Too many lines at once (sent as fast as Enter is pressed, even on a busy machine):
    // the server's limit is told under the box too.
    await ann.evaluate(() => {
      for (let i = 0; i < 10; i++) {
        document.querySelector('#chat-text').value = `line ${i}`;
        document.querySelector('#chat-form').requestSubmit();
      }
    });
    await ann.waitForFunction(() => /too many/i.test(document.querySelector('#chat-error').textContent));
  });

test('the whole log after a reload and in a replay; a rematch offered and joined', { timeout: 150_000 }, async () => {
  const ann = await person(DESKTOP), bo = await person(PHONE);
  const share = await create(ann, 'Ann', ['human', 'human', 'greedy']);
  await joinAt(bo, share, 'Bo');
  await ann.locator('#waiting').waitFor({ state: 'hidden' });
  await ann.fill('#chat-text', 'good luck');
  await ann.press('#chat-text', 'Enter');
  await bo.locator('#chat-lines li.chat-line').first().waitFor();
  await playToTheEnd([ann, bo]);
  await ann.fill('#chat-text', 'well played');
  await ann.press('#chat-text', 'Enter');
  await bo.waitForFunction(() => document.querySelectorAll('#chat-lines li.chat-line').length === 2);

  // Every move is in the log, from the first, also after a reload (more than a view's last 12).
  const total = Number(await ann.locator('#replay-step').getAttribute('max'));
  assert.ok(total > 12, `${total} moves: more than a view's last 12`);
  assert.equal(await moveItems(ann).count(), total, 'every move is in the log');
  await bo.reload();
  await bo.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [MOVES, total]);
  const first = moveItems(bo).first();
  assert.equal(await first.getAttribute('data-move'), '0');
  assert.match(await first.innerText(), /^(Ann|Bo) (divided|cut)/);
  await shot(ann, 'social-log-desktop.png');
  await shot(bo, 'social-log-phone.png');
  // The rematch comes before the replay's steps on a phone as on a desktop.
  for (const p of [ann, bo]) {
    const [tools, replay] = [await p.locator('#table-tools').boundingBox(), await p.locator('#replay').boundingBox()];
    assert.ok(tools && replay && tools.y < replay.y, `the rematch above the replay (${tools?.y} < ${replay?.y})`);
  }

  // A replay shows the log and the chat up to the step shown.
  await bo.click('#replay button[data-step="0"]');
  await bo.waitForFunction(() => /After move 0 of/.test(document.querySelector('#replay-label').textContent));
  await bo.click('#replay button[title="one move on"]');
  await bo.waitForFunction(() => /After move 1 of/.test(document.querySelector('#replay-label').textContent));
  assert.equal(await moveItems(bo).count(), 1);
  assert.deepEqual(await bo.locator('#chat-lines .chat-text').allInnerTexts(), ['good luck']);
  await bo.click('#replay button[title="the end"]');
  await bo.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [MOVES, total]);

  // Ann offers a rematch: a new table, where she sits; Bo sees the offer and joins it at his seat.
  const oldCode = share.split('/').pop();
  await ann.click('#rematch');
  await ann.waitForFunction((c) => /#\/t\/[A-Z0-9]+$/.test(location.hash) && !location.hash.endsWith(c), oldCode);
  await bo.locator('#table-tools').getByText('Ann offers a rematch —').waitFor();
  await bo.click('#table-tools button[data-do="join-rematch"]');
  await bo.waitForFunction((c) => !location.hash.endsWith(c), oldCode);
  assert.equal(await bo.evaluate(() => location.hash), await ann.evaluate(() => location.hash), 'the same new table');
  const newCode = (await bo.evaluate(() => location.hash)).split('/').pop();
  // The rematch has begun on both pages (its view, not the old table's, is shown).
  for (const p of [ann, bo]) {
    await p.waitForFunction((c) => document.querySelector('#headline .code')?.textContent === c &&
      document.querySelector('#table').dataset.phase === 'divide', newCode);
    assert.equal(await p.locator('#waiting').isVisible(), false);
  }
  const seatOf = (p) => p.evaluate((c) => JSON.parse(localStorage.getItem(`pizzabox.seat.${c}`)).seat, oldCode);
  const newSeat = await bo.evaluate((c) => JSON.parse(localStorage.getItem(`pizzabox.seat.${c}`)).seat, newCode);
  assert.equal(newSeat, await seatOf(bo), 'Bo has his old seat');
  // Back at the old table, Ann is pointed to the rematch she sits at.
  await ann.goBack();
  await ann.locator('#table-tools button[data-do="open-rematch"]').click();
  await ann.waitForFunction((c) => location.hash.endsWith(c), newCode);
});

test('undo against bots takes the last decision back, from the keyboard too', { timeout: 60_000 }, async () => {
  const ann = await person(DESKTOP);
  await create(ann, 'Ann', ['human', 'greedy']);
  // Play until the Undo button is offered.
  const deadline = Date.now() + 30_000;
  while (!(await ann.locator('#undo').isVisible())) {
    assert.ok(Date.now() < deadline, 'undo is offered after a move');
    await play(ann);
    await ann.waitForTimeout(80);
  }
  const before = await moveItems(ann).count();
  assert.ok(before >= 1);
  await ann.focus('#undo');
  await ann.keyboard.press('Enter');
  await ann.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length < n, [MOVES, before]);
  assert.equal(await ann.locator('#table').getAttribute('data-my-turn'), 'true', 'Ann decides again');
  // The log tells that a decision was taken back, at the move it went back to.
  const event = ann.locator('#log li.log-event').last();
  await event.waitFor();
  assert.match(await event.innerText(), /^Ann took a decision back\.$/);
  assert.equal(Number(await event.getAttribute('data-move')), await moveItems(ann).count());
});
