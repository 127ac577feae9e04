// explain.test.mjs -- the table explains itself (issue 20, items 6 and 7).
//
// Starts `pizzabox serve` and opens Debian's Chromium: a Special's tooltip
// shows on hover and on a tap; the rules panel speaks of clicks, not typed
// commands; each game's end screen shows its full score sheet; the portion
// an opponent just took is outlined until the next move. The games are
// played to the end fast by a WebSocket client in the human seat (the page
// then returns to that seat by its token). Screenshots at 1366x768 and
// 390x844 go to build/screenshots/explain-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { startServer, tempDir, Client, playToEnd, seeded } from '../server/helpers.mjs';
import { clickMove } from './slice-clicks.mjs';

const DESK = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser, server, url;
const problems = [];
const clients = [];

before(async () => {
  server = await startServer(join(tempDir('pizzabox-explain-'), 'explain.db'));
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});

after(async () => {
  for (const c of clients) c.close();
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

async function page(size, { phone = false } = {}) {
  return watchedPage(browser, problems, { viewport: size, ...(phone ? { hasTouch: true, isMobile: true } : {}) });
}

// A table with the client in seat 0 and bots in the others; its code and seat token.
async function botTable(create, label = 'Ann') {
  const c = await Client.connect(server.url, label);
  clients.push(c);
  const m = await c.request({ type: 'create', name: label, ...create },
    (x) => x.type === 'joined' || x.type === 'error', 5000, 'the table');
  assert.equal(m.type, 'joined', `created: ${JSON.stringify(m)}`);
  return { client: c, code: m.code, seat: m.seat, token: m.token, glossary: m.glossary };
}

// Open the page at a table, in the seat the token gives (as after a reload).
async function openSeat(p, t) {
  await p.goto(url);
  await p.evaluate(({ code, seat, token }) => {
    localStorage.setItem(`pizzabox.seat.${code}`, JSON.stringify({ code, seat, token }));
    localStorage.setItem('pizzabox.name', 'Ann');
  }, t);
  await p.goto(`${url}#/t/${t.code}`);
  await p.waitForSelector('#table:not([hidden])');
}

async function shots(p, name) {
  for (const [size, tag] of [[DESK, 'desktop'], [PHONE, 'phone']]) {
    await p.setViewportSize(size);
    await p.screenshot({ path: join(SHOTS, `explain-${name}-${tag}.png`), fullPage: true });
    // The score sheet (or the board) alone, to look at closely.
    const part = p.locator(name.startsWith('end-') ? '#game-over' : name.startsWith('analysis-') ? '#analysis' : '#board');
    await part.screenshot({ path: join(SHOTS, `explain-${name}-${tag}-part.png`) });
  }
  await p.setViewportSize(DESK);
}

test('a Special\'s text shows on hover and on a tap, and the rules panel speaks of clicks', { timeout: 60_000 }, async () => {
  const t = await botTable({ game: 'nyslice', players: 2, seats: ['human', 'greedy'] });
  const desk = await page(DESK);
  await openSeat(desk, t);
  const name = desk.locator('#special-name');
  await name.waitFor();
  const special = (await name.innerText()).trim();
  const printed = (await desk.locator('#special p').first().innerText()).trim();
  assert.ok(printed.length > 10, 'the Special card prints its text');

  // Hover: the tooltip gives the name and the printed text.
  assert.equal(await desk.locator('#tip').count(), 0, 'no tooltip before pointing at anything');
  await name.hover();
  const tip = desk.locator('#tip');
  await tip.waitFor({ state: 'visible' });
  const text = await tip.innerText();
  assert.ok(text.startsWith(special), `the tooltip names ${special}: ${text}`);
  assert.ok(text.includes(printed), `the tooltip gives the printed text: ${text}`);
  // The pizza's middle (the Special disc) explains it too.
  await desk.mouse.move(0, 0);
  await tip.waitFor({ state: 'hidden' });
  await desk.locator('#special-disc').hover();
  await tip.waitFor({ state: 'visible' });
  assert.ok((await tip.innerText()).includes(printed), 'the disc\'s tooltip gives the text');
  await desk.screenshot({ path: join(SHOTS, 'explain-tooltip-desktop.png') });

  // The rules panel: what to click, never what to type.
  const rules = desk.locator('#rules');
  await desk.locator('#rules-all > summary').click();
  await desk.waitForFunction(() => document.querySelectorAll('#rules-list details').length > 10);
  const words = await rules.textContent();
  assert.match(words, /Click a portion on the pizza/, 'taking a portion is explained by a click');
  assert.match(words, /clicks the gaps between slices/i, 'dividing is explained by clicks');
  assert.equal(await rules.locator('code').count(), 0, 'no notation shown as code');
  for (const typed of [/\bType\b/, /\btake B\b/, /collect all/, /\bcut 2 5\b/, /rules [a-z-]+\b/, /terminal/i, /`/]) {
    assert.doesNotMatch(words, typed, `no typed command in the rules: ${typed}`);
  }

  // A phone: a tap shows it, a second tap takes it away.
  const phone = await page(PHONE, { phone: true });
  await openSeat(phone, t);
  await phone.locator('#special-name').tap();
  const ptip = phone.locator('#tip');
  await ptip.waitFor({ state: 'visible' });
  assert.ok((await ptip.innerText()).includes(printed), 'a tap shows the text');
  const box = await ptip.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the tooltip fits the phone's width: ${JSON.stringify(box)}`);
  await phone.screenshot({ path: join(SHOTS, 'explain-tooltip-phone.png') });
  await phone.locator('#special-name').tap();
  await ptip.waitFor({ state: 'hidden' });
  assert.deepEqual(problems, [], 'no errors in the pages');
});

test('the rules of Pizza Theory and New York Pizza Delivery speak of clicks too', { timeout: 60_000 }, async () => {
  for (const [game, click] of [['theory', /Click a highlighted space/], ['delivery', /Click Market, Reputation/]]) {
    const t = await botTable({ game, players: 2, seats: ['human', 'greedy'] });
    const p = await page(DESK);
    await openSeat(p, t);
    await p.locator('#rules-all > summary').click();
    await p.waitForFunction(() => document.querySelectorAll('#rules-list details').length > 5);
    const words = await p.locator('#rules').textContent();
    assert.match(words, click, `${game}: what to click`);
    assert.equal(await p.locator('#rules code').count(), 0, `${game}: no notation shown as code`);
    for (const typed of [/\bType\b/, /\bput d4\b/, /\bcut 4\b/, /deliver 2 from/, /take deck/, /rules [a-z-]+\b/, /terminal/i]) {
      assert.doesNotMatch(words, typed, `${game}: no typed command in the rules: ${typed}`);
    }
    await p.context().close();
  }
  assert.deepEqual(problems, [], 'no errors in the pages');
});

test('the end screens show every game\'s full score sheet', { timeout: 150_000 }, async () => {
  // New York Slice: the Guest Check, a row per type and the lines under it.
  const ny = await botTable({ game: 'nyslice', players: 3, seats: ['human', 'greedy', 'greedy'] });
  const nyEnd = await playToEnd(ny.client, ny.code, { rng: seeded(4), timeout: 60_000 }); // random moves: some are marked
  const p = await page(DESK);
  await openSeat(p, ny);
  const check = p.locator('#game-over table.guest-check');
  await check.waitFor();
  const types = nyEnd.view.types_in_play || [3, 4, 5, 6, 7, 8, 9, 10, 11];
  assert.equal(await check.locator('tr.gc-type-row').count(), types.length, 'a row per type in play');
  for (const line of ['majorities', 'specials', 'pepperoni', 'total', 'eaten']) {
    assert.equal(await check.locator(`tr[data-line="${line}"] td`).count(), 3, `the ${line} line for each player`);
  }
  const score = nyEnd.score;
  for (let i = 0; i < 3; i++) {
    const total = await check.locator(`tr[data-line="total"] td[data-seat="${i}"]`).innerText();
    assert.equal(Number(total), score.players[i].total, `seat ${i + 1}'s total`);
    for (const k of score.players[i].types_won) {
      const cellText = await check.locator(`tr[data-line="type-${k}"] td[data-seat="${i}"]`).innerText();
      assert.match(cellText, new RegExp(`\\+${k}$`), `seat ${i + 1} scored type ${k}`);
    }
  }
  assert.match(await check.innerText(), /Pepperoni − Anchovies/);
  // Every Special held is named on the sheet, with its printed text (the
  // glossary given with the seat: views name Specials by slug) as a tooltip.
  const held = nyEnd.view.players.flatMap((pl) => pl.specials);
  assert.ok(held.every((s) => !('text' in s)), 'views name held Specials by slug alone');
  assert.ok(held.length > 0, 'Specials were taken');
  const tags = check.locator('.special-tag');
  assert.equal(await tags.count(), held.length, 'each Special held is on the sheet');
  for (let i = 0; i < held.length; i++) {
    const slug = await tags.nth(i).getAttribute('data-slug');
    const tipText = await tags.nth(i).getAttribute('data-tip');
    assert.ok(tipText.includes(ny.glossary[slug].text), `${slug}'s tooltip gives its printed text: ${tipText}`);
  }
  await tags.first().hover();
  await p.locator('#tip').waitFor({ state: 'visible' });
  await shots(p, 'end-nyslice');

  // Analyse: the server's bot reviews every decision; marks in the replay's
  // log, the better move at a step, a line per seat in the graph.
  const panel = p.locator('#analysis');
  await panel.locator('#analyse').click();
  await panel.locator('.an-progress').filter({ hasText: /Analysing: \d+ of \d+ decisions/ }).waitFor();
  await panel.locator('.an-summary').waitFor({ timeout: 20_000 });
  assert.equal(await panel.locator('.an-graph g.an-line').count(), 3, 'a line per seat');
  // Each line ends at the result: the Guest Check's winners won, the others lost.
  const ends = await panel.locator('.an-graph rect.an-end').evaluateAll((rs) => rs.map((r) => r.getAttribute('aria-label')));
  assert.equal(ends.length, 3, `a line's end per seat: ${ends}`);
  score.players.forEach((_, i) => {
    const won = score.winners.includes(i);
    assert.match(ends[i], won ? /: (won|shared the win)/ : /: lost$/, `seat ${i + 1}'s line ends at its result`);
  });
  const marked = panel.locator('circle.an-inaccuracy, circle.an-mistake, circle.an-blunder');
  const markedSteps = (await marked.evaluateAll((cs) => cs.map((c) => Number(c.dataset.step)))).sort((a, b) => a - b);
  assert.ok(markedSteps.length > 0, 'some moves were marked');
  await p.locator('#replay button[data-step]').nth(1).click(); // one move back: every move but the last in the log
  await p.locator('#replay-label').filter({ hasText: `After move ${nyEnd.moves - 1} of` }).waitFor();
  const inLog = markedSteps.filter((m) => m < nyEnd.moves - 1).length;
  assert.equal(await p.locator('#log .an-mark').count(), inLog, 'each marked move has its tag in the log');
  const tag = p.locator('#log .an-mark').first();
  assert.match(await tag.getAttribute('aria-label'), /^(inaccuracy|mistake|blunder): .*points of winning chance/);
  const step = markedSteps[0];
  await panel.locator(`circle[data-step="${step}"]`).click(); // a point of the graph: the replay goes to that decision
  await p.locator('#replay-label').filter({ hasText: `After move ${step} of` }).waitFor();
  const line = panel.locator(`.an-step[data-move="${step}"]`);
  assert.match(await line.innerText(), /^Move \d+: .+: [\d.]+%.+→ best: .+, [\d.]+%$/, 'the better move in words, both chances');
  await shots(p, 'analysis-nyslice');
  // A take the search found worse than another: the better portion is outlined on the board.
  const viewer = await Client.connect(server.url, 'viewer'); // the page has Ann's seat now: a spectator asks
  clients.push(viewer);
  await viewer.request({ type: 'spectate', code: ny.code }, (m) => m.type === 'view', 5000);
  const reviews = (await viewer.request({ type: 'analyse', code: ny.code }, (m) => m.type === 'analysis', 5000)).reviews;
  assert.deepEqual(markedSteps, reviews.filter((r) => /^(inaccuracy|mistake|blunder)$/.test(r.mark)).map((r) => r.move),
    'the graph marks the moves the server marked');
  const take = reviews.find((r) => /^take [A-Z]$/.test(r.played) && /^take [A-Z]$/.test(r.best) && r.best !== r.played);
  if (take) {
    await panel.locator(`circle[data-step="${take.move}"]`).click();
    await p.locator('#replay-label').filter({ hasText: `After move ${take.move} of` }).waitFor();
    assert.equal(await p.locator('#portions li.an-better .swatch').innerText(), take.best.slice(-1), 'the better portion outlined');
    await p.screenshot({ path: join(SHOTS, 'explain-analysis-take-desktop.png'), fullPage: true });
  }

  // Pizza Theory: toppings and shortfalls, with what they mean.
  const th = await botTable({ game: 'theory', players: 2, seats: ['human', 'greedy'] });
  await playToEnd(th.client, th.code, { timeout: 60_000 });
  await openSeat(p, th);
  const tscore = p.locator('#game-over table.pt-score');
  await tscore.waitFor();
  const heads = await tscore.locator('th').allInnerTexts();
  assert.deepEqual(heads.slice(2), ['Toppings on the pizza', 'Shortfall']);
  assert.match(await p.locator('#game-over .pt-score-help').innerText(), /Shortfall.*supply ran out/);
  assert.equal(await tscore.locator('tr[data-seat]').count(), 3, 'both players and the neutral');
  await shots(p, 'end-theory');

  // New York Pizza Delivery: money, tableau, disks and tips, and how they add up.
  const pd = await botTable({ game: 'delivery', players: 2, seats: ['human', 'greedy'] });
  const pdEnd = await playToEnd(pd.client, pd.code, { timeout: 90_000 });
  await openSeat(p, pd);
  const pscore = p.locator('#game-over .pd-score-table');
  await pscore.waitFor();
  assert.deepEqual((await pscore.locator('th').allInnerTexts()).slice(1, 5), ['Money', 'Tableau', 'Disks', 'Tips']);
  assert.match(await p.locator('#game-over .pd-score-help').innerText(), /Score = money \+ tableau/);
  const row = await pscore.locator('tr[data-seat="0"] td').allInnerTexts();
  const mine = pdEnd.score.players[0];
  assert.equal(Number(row[1]), mine.money, 'the money');
  assert.equal(Number(row[2]), mine.tableau, 'the tableau');
  assert.equal(Number(row[3]), mine.disks, 'the disks');
  assert.match(row[4], new RegExp(`^\\$${mine.tips}\\b`), 'the tips');
  await shots(p, 'end-delivery');
  assert.deepEqual(problems, [], 'no errors in the pages');
});

// The number of the last move in the page's log.
const lastMove = (p) => p.evaluate(() => Number(document.querySelector('#log li:last-child')?.value || 0));

test('the portion an opponent just took is outlined until my next move; a spectator sees the last move',
  { timeout: 90_000 }, async () => {
    const t = await botTable({ game: 'nyslice', players: 3, seats: ['human', 'greedy', 'greedy'] });
    const p = await page(DESK);
    await openSeat(p, t);
    const watcher = await page(PHONE);
    await watcher.goto(`${url}#/t/${t.code}`);
    await watcher.click('#prompt-watch');
    await watcher.waitForSelector('#table:not([hidden])');

    // Play by clicks until a bot's taken portion is outlined on Ann's page.
    let seen = null;
    const deadline = Date.now() + 60_000;
    while (!seen && Date.now() < deadline) {
      const recent = p.locator('#portions .portion.recent');
      if (await recent.count()) {
        seen = {
          name: await recent.first().getAttribute('data-name'),
          by: await recent.first().locator('.taken-by').innerText(),
          moves: await lastMove(p),
        };
        break;
      }
      await p.waitForTimeout((await clickMove(p)) ? 150 : 80);
    }
    assert.ok(seen, 'an opponent\'s taken portion is outlined');
    assert.match(seen.by, /^just taken by Greedy \d$/, 'and says who took it');
    const wedges = p.locator(`#ring .slice.recent[data-portion="${seen.name}"]`);
    if (seen.name !== 'special') assert.ok(await wedges.count() > 0, 'its slices are outlined on the pizza');
    await shots(p, 'highlight-nyslice');

    // The spectator sees the last move outlined (or the one before, if it was a division).
    const lastIsTake = await watcher.evaluate(() => /took/.test(document.querySelector('#log li:last-child')?.innerText || ''));
    if (lastIsTake) assert.ok(await watcher.locator('#portions .portion.recent').count() >= 1, 'a spectator sees the last take');
    await watcher.screenshot({ path: join(SHOTS, 'explain-highlight-spectator-phone.png'), fullPage: true });

    // Ann moves: what was outlined before is not any more.
    let moved = false;
    const until = Date.now() + 20_000;
    while (!moved && Date.now() < until) {
      moved = await clickMove(p);
      if (!moved) await p.waitForTimeout(80);
    }
    assert.ok(moved, 'Ann gets a move');
    // (Ann's own move in the log: a bot may have moved in between.)
    await p.waitForFunction((n) => [...document.querySelectorAll('#log li[data-seat="0"]')].some((li) => li.value > n), seen.moves);
    // Read at once: a bot may already have taken a portion of the same name in a new round,
    // which is outlined rightly; the old take must not be.
    const after = await p.evaluate((name) => {
      const log = [...document.querySelectorAll('#log li')];
      let i = log.length;
      while (i > 0 && log[i - 1].dataset.seat !== '0') i--;
      return {
        outlined: document.querySelectorAll(`#portions .portion.recent[data-name="${name}"]`).length,
        takesSince: log.slice(i).filter((li) => /took/.test(li.innerText)).length,
      };
    }, seen.name);
    if (!after.takesSince) assert.equal(after.outlined, 0, 'after Ann\'s move the old highlight is gone');
    assert.deepEqual(problems, [], 'no errors in the pages');
  });

// Play the client's seat until `done(view message)`, with a spectator's page open from the start.
async function watchUntil(t, done, timeout = 60_000) {
  const watcher = await page(DESK);
  await watcher.goto(`${url}#/t/${t.code}`);
  await watcher.click('#prompt-watch');
  await watcher.waitForSelector('#table:not([hidden])');
  const stop = (m) => m.view.to_move === m.seat && done(m);
  const at = await playToEnd(t.client, t.code, { stop, timeout });
  assert.notEqual(at.view.phase, 'over', 'stopped before the end');
  await watcher.waitForFunction((n) => Number(document.querySelector('#log li:last-child')?.value) >= n, at.moves);
  return { watcher, at };
}

const lastRun = (log, seat) => {
  let k = log.length;
  while (k > 0 && log[k - 1].seat === seat) k--;
  return k < log.length ? log.slice(k) : [];
};

test('Pizza Theory outlines the topping just placed; Delivery the pizzeria and the route just delivered',
  { timeout: 120_000 }, async () => {
    // Pizza Theory: a spectator sees Greedy 2's last topping outlined, with its name in the space's title.
    const th = await botTable({ game: 'theory', players: 2, seats: ['human', 'greedy'] });
    const { watcher, at } = await watchUntil(th, (m) => lastRun(m.log, 1).some((e) => /^put /.test(e.text)));
    const put = lastRun(at.log, 1).filter((e) => /^put /.test(e.text)).pop().text.split(' ')[1];
    const cell = watcher.locator('#theory-svg .cell.recent');
    await cell.first().waitFor();
    assert.equal(await cell.count(), 1, 'one topping outlined');
    assert.match(await cell.locator('title').textContent(), new RegExp(`^${put}: .*just placed by Greedy 2`));
    assert.match(await watcher.locator('.pt-legend').innerText(), /just placed/);
    await shots(watcher, 'highlight-theory');
    await watcher.context().close();

    // New York Pizza Delivery: the pizzeria Greedy 2 delivered from, the route and the zone it reached.
    const pd = await botTable({ game: 'delivery', players: 2, seats: ['human', 'greedy'] });
    const seen = await watchUntil(pd, (m) => lastRun(m.log, 1).some((e) => /^deliver /.test(e.text)), 90_000);
    const w = seen.watcher;
    const from = /^deliver \d+ from (\S+)/.exec(lastRun(seen.at.log, 1).find((e) => /^deliver /.test(e.text)).text)[1];
    const lot = seen.at.view.players[1].pizzerias.find((z) => z.village === from || z.lot === from).lot;
    await w.locator(`#delivery-svg .pd-lot.recent[data-lot="${lot}"]`).waitFor();
    assert.match(await w.locator(`#delivery-svg .pd-lot[data-lot="${lot}"] title`).textContent(), /Greedy 2 just delivered from it/);
    assert.equal(await w.locator('#delivery-svg .pd-zone.recent').count(), 1, 'the zone reached is ringed');
    const route = w.locator('#delivery-svg .pd-recent-route');
    assert.equal(await route.count(), 1, 'the route is drawn');
    assert.ok(Number(await route.getAttribute('data-length')) >= 1);
    await shots(w, 'highlight-delivery');
    assert.deepEqual(problems, [], 'no errors in the pages');
  });

test('Delivery\'s power cards explain themselves on a phone: printed when dealt, a tap on one in hand', { timeout: 60_000 },
  async () => {
    const t = await botTable({ game: 'delivery', players: 2, seats: ['human', 'greedy'] });
    const first = await t.client.waitFor((m) => m.type === 'view' && m.view.phase === 'keep' && m.view.to_move === 0, 10_000, 'keep');
    const phone = await page(PHONE, { phone: true });
    await openSeat(phone, t);
    const texts = phone.locator('.pd-keep-faces .pd-pcard');
    await texts.first().waitFor();
    assert.equal(await texts.count(), 2, 'both cards dealt are printed');
    for (const id of first.view.keep_from) {
      const card = first.view.power_cards[String(id).replace(/^power:/, '')];
      assert.match(await phone.locator('.pd-keep-faces').innerText(), new RegExp(card.text.slice(0, 20).replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')));
    }
    await phone.locator('#actions button[data-action^="keep power:"]').first().tap();
    const held = phone.locator('#delivery-hand .pd-pcard');
    await held.first().waitFor();
    const tipText = await held.first().getAttribute('data-tip');
    assert.match(tipText, /^[^:]+: .{15,}/, `the card in hand carries its text: ${tipText}`);
    // A tap shows the text; a card that can be played is not played by that first tap.
    const before = await lastMove(phone);
    await held.first().tap();
    await phone.locator('#tip').waitFor({ state: 'visible' });
    assert.equal(await phone.locator('#tip').innerText(), tipText, 'a tap shows it');
    await phone.screenshot({ path: join(SHOTS, 'explain-tooltip-power-phone.png') });
    await phone.waitForTimeout(300);
    assert.equal(await lastMove(phone), before, 'the first tap only shows the text');
    assert.equal(await phone.locator('#tip').isVisible(), true, 'and it stays until the next tap');
    assert.deepEqual(problems, [], 'no errors in the pages');
  });
