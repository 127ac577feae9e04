// notify.test.mjs -- clocks and "your turn" in the browser (issue 20, items
// 2, 3, 6 and 10): Ann (a desktop) and Bo (a phone) play New York Slice with
// a bot on a real-time clock; the clocks show and count down, the tab title,
// the sound and a desktop notification tell each whose turn it is, the mute
// toggle outlives a reload, the lobby's "Your seats" says whose turn it is,
// an unknown code is answered at once, and a finished table's links open its
// replay. Screenshots go to build/screenshots/notify-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchErrors } from './chromium.mjs';
import { startServer, tempDir, Client, humanTable, driveSeats, humanMove } from '../server/helpers.mjs';
import { formatLeft } from '../../web/clock.js';
import { clickMove as move } from './slice-clicks.mjs';

const TURN_TITLE = '▶ Your turn — pizzabox';

let browser, server, url;
const problems = [];
const clients = [];

before(async () => {
  // bots paced as people see them, so a bot's turn (and its "thinking…") lasts a moment
  server = await startServer(join(tempDir('pizzabox-notify-'), 'notify.db'), { botPace: 500 });
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  for (const c of clients) await c.close();
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

// A page that counts the sounds it makes (each chime starts two oscillators),
// the desktop notifications it shows, and can pretend its tab is hidden.
async function open(w, h, { notifications = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  if (notifications) await ctx.grantPermissions(['notifications'], { origin: url.replace(/\/$/, '') });
  await ctx.addInitScript(() => {
    window.__oscillators = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...a) { window.__oscillators++; return start.apply(this, a); };
    window.__hidden = false;
    Object.defineProperty(Document.prototype, 'hidden', { get: () => window.__hidden, configurable: true });
    window.__notes = [];
    if (typeof window.Notification === 'function') {
      const N = window.Notification;
      window.Notification = class extends N {
        constructor(title, opts) {
          window.__notes.push(`${title} | ${opts && opts.body}`);
          super(title, opts);
        }
      };
    }
  });
  const page = await ctx.newPage();
  watchErrors(page, problems);
  return page;
}

const myTurn = async (page) => (await page.locator('#table').getAttribute('data-my-turn')) === 'true';

/* Play the other pages' turns until `done()`; bots play their own. */
async function playUntil(pages, done, what, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) {
      const seen = await Promise.all([ann, bo].map((p) => p.locator('#status').innerText().catch(() => '?')));
      assert.fail(`not within ${ms} ms: ${what}; Ann sees: ${seen[0]}; Bo sees: ${seen[1]}`);
    }
    let moved = false;
    for (const p of pages) if (!moved) moved = await move(p);
    await pages[0].waitForTimeout(moved ? 250 : 100);
  }
}

// "m:ss" or "h:mm:ss" in seconds.
function seconds(text) {
  return text.trim().split(':').map(Number).reduce((a, x) => a * 60 + x, 0);
}

const clockOf = (page, seat) => page.locator(`#players .player[data-seat="${seat}"] .seat-clock`);

let ann, bo, code;

test('a real-time clock chosen at creation shows on the players\' panels, none on the bot, and counts down', { timeout: 60_000 }, async () => {
  ann = await open(1366, 768);
  bo = await open(390, 844, { notifications: true });

  // The phone's create form, with the clock's fields.
  await bo.goto(url);
  await bo.selectOption('#clock-mode', 'turn');
  assert.ok(await bo.locator('#clock-hours').isVisible(), 'turn-based asks for hours');
  assert.equal(await bo.locator('#clock-minutes').isVisible(), false);
  await bo.selectOption('#clock-mode', 'realtime');
  await bo.locator('#clock-form').screenshot({ path: join(SHOTS, 'notify-create-form-phone.png') });

  await ann.goto(url);
  // the creator's seat is a human's: a bot is not offered there
  assert.deepEqual(await ann.locator('select[name=seat0] option').allInnerTexts(), ['Human']);
  await ann.fill('#name', 'Ann');
  await ann.selectOption('#players-count', '3');
  await ann.selectOption('select[name=seat1]', 'human');
  await ann.selectOption('select[name=seat2]', 'greedy');
  await ann.selectOption('#clock-mode', 'realtime');
  // out of range: the browser says so at once, nothing is sent
  await ann.fill('#clock-minutes', '500');
  await ann.click('#create');
  assert.match(await ann.locator('#clock-minutes').evaluate((e) => e.validationMessage), /180/);
  await ann.waitForTimeout(300);
  assert.ok(await ann.locator('#lobby').isVisible(), 'still in the lobby');
  await ann.fill('#clock-minutes', '3');
  await ann.fill('#clock-increment', '2');
  await ann.screenshot({ path: join(SHOTS, 'notify-create-form.png'), fullPage: true });
  await ann.click('#create');
  await ann.waitForSelector('#table:not([hidden])');
  code = new URL(await ann.locator('#share-link').getAttribute('href')).hash.split('/')[2];

  await bo.goto(`${url}#/t/${code}`);
  await bo.fill('#prompt-name', 'Bo');
  await bo.click('#prompt-join');
  await bo.waitForSelector('#table:not([hidden])');

  for (const page of [ann, bo]) {
    await clockOf(page, 0).waitFor({ timeout: 5000 });
    await clockOf(page, 1).waitFor({ timeout: 5000 });
    assert.equal(await clockOf(page, 2).count(), 0, 'no clock on the bot');
    for (const seat of [0, 1]) {
      const s = seconds(await clockOf(page, seat).locator('.t').innerText());
      assert.ok(s > 150 && s <= 180, `seat ${seat + 1} has about 3 minutes: ${s} s`);
    }
  }
  // The first human to move (after the bot, if it starts): their clock runs, once, on their panel.
  await playUntil([ann], async () => (await myTurn(ann)) || (await myTurn(bo)), 'a human to move', 10_000);
  const mover = (await myTurn(ann)) ? ann : bo;
  const seat = mover === ann ? 0 : 1;
  assert.equal(await mover.locator('#players .seat-clock.running').count(), 1, 'one clock runs');
  assert.equal(await clockOf(mover, seat).getAttribute('class'), 'seat-clock running');
  const t1 = seconds(await clockOf(mover, seat).locator('.t').innerText());
  await mover.waitForTimeout(2300);
  const t2 = seconds(await clockOf(mover, seat).locator('.t').innerText());
  assert.ok(t2 < t1 && t2 >= t1 - 4, `the clock counts down: ${t1} then ${t2}`);
  assert.equal(await mover.locator('#headline .my-clock .seat-clock.running').count(), 1, 'my time in the status line too');
  const still = seconds(await clockOf(mover, 1 - seat).locator('.t').innerText());
  await mover.waitForTimeout(1100);
  assert.equal(seconds(await clockOf(mover, 1 - seat).locator('.t').innerText()), still, 'the other clock stands');
  await ann.screenshot({ path: join(SHOTS, 'notify-table.png') });
  await ann.locator('#players').screenshot({ path: join(SHOTS, 'notify-table-players.png') });
  await bo.locator('#players').screenshot({ path: join(SHOTS, 'notify-table-phone.png') });
});

test('the title, a sound and a desktop notification (tab hidden) tell a player it is their turn; a bot to move is thinking', { timeout: 60_000 }, async () => {
  await playUntil([ann], () => myTurn(ann), 'Ann to move');
  assert.equal(await ann.title(), TURN_TITLE);
  assert.notEqual(await bo.title(), TURN_TITLE);
  assert.match(await bo.title(), new RegExp(`^${code} — pizzabox$`));

  // Bo's tab goes to the background; Ann plays until it is Bo's turn.
  await bo.evaluate(() => { window.__oscillators = 0; window.__hidden = true; });
  let thinking = false;
  await playUntil([ann], async () => {
    thinking ||= await ann.locator('#players .player[data-seat="2"] .thinking').count() > 0;
    return myTurn(bo);
  }, 'Bo to move');
  await bo.waitForFunction(() => document.title === '▶ Your turn — pizzabox', null, { timeout: 2000 });
  assert.notEqual(await ann.title(), TURN_TITLE);
  assert.equal(await bo.evaluate(() => window.__oscillators), 2, 'one chime (two notes)');
  assert.deepEqual(await bo.evaluate(() => window.__notes), [`Your turn — pizzabox | New York Slice, table ${code}`]);
  await bo.evaluate(() => { window.__hidden = false; });
  // Bo's clock runs now.
  assert.match(await clockOf(bo, 1).getAttribute('class'), /running/);

  // The bot's turns show "thinking…" on its panel while it is to move, and never on a human's.
  await playUntil([bo, ann], async () => {
    if (await ann.locator('#players .player[data-seat="2"] .thinking').count() > 0) {
      thinking = true;
      await ann.locator('#players').screenshot({ path: join(SHOTS, 'notify-thinking.png') });
    }
    return thinking;
  }, 'the bot seen thinking');
  assert.equal(await ann.locator('#players .player[data-seat="0"] .thinking, #players .player[data-seat="1"] .thinking').count(), 0);
});

test('the mute toggle is kept across a reload and silences the next turn', { timeout: 60_000 }, async () => {
  const toggle = bo.locator('#sound-toggle');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.match(await toggle.innerText(), /muted/);
  await bo.reload();
  await bo.waitForSelector('#table:not([hidden]) #players .player');
  assert.equal(await bo.locator('#sound-toggle').getAttribute('aria-pressed'), 'false', 'still muted after a reload');
  assert.match(await bo.locator('#sound-toggle').innerText(), /muted/);
  const back = seconds(await clockOf(bo, 1).locator('.t').innerText());
  assert.ok(back > 100 && back < 200, `Bo's time is back after the reload: ${back} s`);
  await bo.click('#headline'); // a gesture: the page may make sounds now

  await playUntil([bo, ann], async () => !(await myTurn(bo)), 'Bo done');
  await playUntil([ann], () => myTurn(bo), 'Bo to move again');
  assert.equal(await bo.evaluate(() => window.__oscillators), 0, 'no sound while muted');
  await bo.locator('#sound-toggle').click(); // on again (it plays once, to hear it)
  assert.equal(await bo.locator('#sound-toggle').getAttribute('aria-pressed'), 'true');
});

test('the lobby\'s Your seats shows the game, whose turn it is and the clock', { timeout: 60_000 }, async () => {
  await playUntil([bo], () => myTurn(ann), 'Ann to move');
  await ann.goto(`${url}#/`);
  const mine = ann.locator(`#mine li[data-code="${code}"]`);
  await mine.locator('.mine-turn', { hasText: 'your turn' }).waitFor({ timeout: 6000 });
  assert.match(await mine.innerText(), /New York Slice/);
  assert.equal(await mine.locator('.seat-clock.running').count(), 1, 'Ann\'s clock, running');
  assert.equal(await ann.title(), TURN_TITLE, 'the lobby\'s title says it too');
  await ann.screenshot({ path: join(SHOTS, 'notify-lobby.png'), fullPage: true });

  await bo.goto(`${url}#/`);
  const hers = bo.locator(`#mine li[data-code="${code}"]`);
  await hers.locator('.mine-turn', { hasText: 'Ann to move' }).waitFor({ timeout: 6000 });
  assert.equal(await hers.locator('.seat-clock').count(), 1);
  assert.notEqual(await bo.title(), TURN_TITLE);
  await bo.screenshot({ path: join(SHOTS, 'notify-lobby-phone.png'), fullPage: true });
});

test('time left reads as minutes and seconds, or days and hours on a turn-based clock', () => {
  assert.equal(formatLeft(180_000, 'realtime'), '3:00');
  assert.equal(formatLeft(59_001, 'realtime'), '1:00', 'seconds rounded up: 0:00 only when out');
  assert.equal(formatLeft(400, 'realtime'), '0:01');
  assert.equal(formatLeft(-5, 'realtime'), '0:00');
  assert.equal(formatLeft(3 * 3600_000 + 65_000, 'realtime'), '3:01:05');
  assert.equal(formatLeft(24 * 3600_000, 'turn'), '1 d 0 h');
  assert.equal(formatLeft(5 * 3600_000 + 7 * 60_000, 'turn'), '5 h 07 min');
  assert.equal(formatLeft(90_000, 'turn'), '1:30', 'the last hour of a turn by the second');
});

test('Pizza Theory and New York Pizza Delivery panels show the clock too, turn-based in days and hours', { timeout: 30_000 }, async () => {
  const page = await open(1366, 768);
  await page.goto(url);
  await page.fill('#name', 'Ann');
  for (const [game, mode, field, value, shown] of [['theory', 'turn', '#clock-hours', '48', /^(2 d 0 h|1 d 23 h)$/],
    ['delivery', 'realtime', '#clock-minutes', '7', /^(7:00|6:5\d)$/]]) {
    await page.goto(`${url}#/`);
    await page.selectOption('#game', game);
    await page.selectOption('#players-count', '2');
    await page.selectOption('select[name=seat1]', 'greedy');
    await page.selectOption('#clock-mode', mode);
    await page.fill(field, value);
    await page.click('#create');
    await page.waitForSelector('#table:not([hidden])');
    const mine = page.locator('#players .player[data-seat="0"] .seat-clock .t');
    await mine.waitFor({ timeout: 5000 });
    assert.match(await mine.innerText(), shown, `${game}: ${mode} clock`);
    assert.equal(await page.locator('#players .player[data-seat="1"] .seat-clock').count(), 0, `${game}: none on the bot`);
  }
  await page.context().close();
});

test('the create form offers the player counts and seats the server accepts for each game', { timeout: 40_000 }, async () => {
  const page = await open(1366, 768);
  const offers = { nyslice: ['2', '3', '4', '5', '6'], theory: ['2', '3'], delivery: ['2', '3', '4', '5', '6'],
    coop: ['1', '2', '3', '4', '5', '6'] };
  for (const [kind, counts] of Object.entries(offers)) {
    const game = kind === 'coop' ? 'delivery' : kind;
    for (const n of [counts[0], counts[counts.length - 1]]) {
      await page.goto(`${url}#/`); // eight tables: as many as one connection may sit at
      await page.fill('#name', 'Ann');
      await page.selectOption('#game', game);
      if (kind === 'coop') await page.check('#coop');
      assert.deepEqual(await page.locator('#players-count option').allInnerTexts(), counts, `${kind}: the player counts`);
      await page.selectOption('#players-count', n);
      assert.equal(await page.locator('#seat-list li:not([hidden])').count(), Number(n), `${kind}: a seat box per player`);
      assert.deepEqual(await page.locator('select[name=seat0] option').allInnerTexts(), ['Human'], 'the creator\'s seat is a human\'s');
      assert.ok((await page.locator('select[name=seat1] option').allInnerTexts()).length === 7, 'a human or any of the six bots');
      for (let i = 1; i < Number(n); i++) await page.selectOption(`select[name=seat${i}]`, 'random');
      await page.click('#create');
      await page.waitForSelector('#table:not([hidden]), .toast.error', { timeout: 5000 });
      assert.equal(await page.locator('.toast.error').count(), 0,
        `${kind} with ${n}: ${await page.locator('.toast.error').allInnerTexts()}`);
    }
  }
  await page.context().close();
});

test('"hand to a bot" is offered only once a player has been gone a while', { timeout: 30_000 }, async () => {
  await ann.goto(`${url}#/t/${code}`);
  await ann.waitForSelector('#table:not([hidden]) #players .player');
  await ann.waitForTimeout(300);
  assert.equal(await ann.locator('.hand-to-bot').count(), 0, 'not while Bo is here');
  await bo.context().close();
  await ann.waitForTimeout(1000);
  assert.equal(await ann.locator('.hand-to-bot').count(), 0, 'not at once when Bo goes');
  await ann.locator('#players .player[data-seat="1"] .hand-to-bot').waitFor({ timeout: 9000 });
  assert.equal(await ann.locator('.hand-to-bot').count(), 1, 'only for Bo, never for the bot');
});

test('a code the server does not know is answered at once, under the form', { timeout: 30_000 }, async () => {
  const page = await open(390, 844);
  await page.goto(`${url}#/`);
  await page.fill('#name', 'Bo');
  await page.fill('#join-code', 'K7');
  await page.click('#join');
  assert.match(await page.locator('#join-msg').innerText(), /K7: a table code is 4 or more letters and digits/);
  // O is never in a code the server makes
  await page.fill('#join-code', 'oooo');
  const asked = Date.now();
  await page.click('#join');
  await page.locator('#join-msg', { hasText: 'OOOO: no table with that code' }).waitFor({ timeout: 2000 });
  assert.ok(Date.now() - asked < 2000);
  assert.ok(await page.locator('#lobby').isVisible(), 'still in the lobby');
  await page.click('#watch');
  await page.locator('#join-msg', { hasText: 'no table with that code' }).waitFor({ timeout: 2000 });
  // A shared link to such a code says so on its page at once: nothing to join or watch.
  await page.goto(`${url}#/t/QQQQ`);
  await page.locator('#prompt-info', { hasText: 'No table has the code QQQQ' }).waitFor({ timeout: 2000 });
  assert.equal(await page.locator('#prompt-join').isVisible(), false);
  assert.equal(await page.locator('#prompt-watch').isVisible(), false);
});

test('a finished table\'s links, in the tables list, in Your seats and shared, open its replay', { timeout: 60_000 }, async () => {
  // Two players at a table of their own play it to the end over the protocol.
  const cs = [];
  for (const name of ['Cy', 'Di']) cs.push(await Client.connect(server.url, name));
  clients.push(...cs);
  const joined = await humanTable(cs, { game: 'nyslice' });
  const done = joined[0].code;
  const { end } = await driveSeats(cs, done, (m) => humanMove(m.view));
  assert.equal(end.view.phase, 'over');

  // Anyone: the tables list's link.
  const page = await open(1366, 768);
  await page.goto(`${url}#/`);
  const link = page.locator(`.table-row[data-code="${done}"] a.replay-link`);
  await link.waitFor({ timeout: 6000 });
  await link.click();
  await page.locator('#replay-label', { hasText: `After move ${end.moves} of ${end.moves}.` }).waitFor({ timeout: 5000 });
  assert.ok(page.url().endsWith(`#/t/${done}/replay`));
  assert.equal(await page.locator('#join-prompt').isVisible(), false, 'no join prompt for a finished table');

  // A shared link to it opens the replay too, not an offer to join.
  const other = await open(390, 844);
  await other.goto(`${url}#/t/${done}`);
  await other.locator('#replay-label', { hasText: `After move ${end.moves} of ${end.moves}.` }).waitFor({ timeout: 5000 });
  await other.context().close();

  // Cy's browser: Your seats links the replay too.
  await page.evaluate(([c, s, t]) => localStorage.setItem(`pizzabox.seat.${c}`, JSON.stringify({ code: c, seat: s, token: t })),
    [done, joined[0].seat, joined[0].token]);
  await page.goto(`${url}#/`);
  const row = page.locator(`#mine li[data-code="${done}"]`);
  await row.locator('.mine-turn', { hasText: 'finished' }).waitFor({ timeout: 6000 });
  await row.locator('a').click();
  await page.locator('#replay-label', { hasText: `After move ${end.moves} of ${end.moves}.` }).waitFor({ timeout: 5000 });
  await page.click('#replay button[title="one move back"]');
  await page.locator('#replay-label', { hasText: `After move ${end.moves - 1} of ${end.moves}.` }).waitFor({ timeout: 5000 });
  assert.deepEqual(problems, [], 'no errors in the pages');
});
