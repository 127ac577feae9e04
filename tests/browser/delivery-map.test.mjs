// delivery-map.test.mjs -- New York Pizza Delivery's map is the board.
//
// Ann plays against two bots (her moves random legal ones over the page's own
// WebSocket, so the game moves fast). At 1366x768 the map takes most of the
// width and reads without zoom: every lot a target of 24 px or more, its price
// 11 px or more, no village name under a street, and the move to make visible
// beside it without scrolling (and the same at 1280x1000). The zoom buttons and the wheel zoom in; a click
// on a lot still selects it, a drag pans without selecting, the zoom stays when
// the board is drawn again, Reset shows the whole map. Once the bots have
// played, each one's last turn is on the map in their colour (a ring round
// the pizzeria, a delivery's route, their name at the zone) and named under
// it. At 390x844 the map stands as wide as the phone with nothing wider than
// the screen, and a pinch zooms it. The layout check of fit.test.mjs holds at both sizes.
// Screenshots: build/screenshots/delivery-map-{start,preview,opponents}-{1366x768,390x844}.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SHOTS, launchChromium, watchedPage } from './chromium.mjs';
import { startServer, tempDir } from '../server/helpers.mjs';
import { fitProblems, lastView, playUntil, spySockets } from './fit-check.mjs';

const DESKTOP = { width: 1366, height: 768 };
// Ann's random moves: deliveries and building first, so the map fills up.
const PLAY = { seed: 5, ms: 30_000, prefer: /^(deliver|build|reputation)\b/ };
const PHONE = { width: 390, height: 844 };

let browser, server, url;
before(async () => {
  server = await startServer(join(tempDir('pizzabox-dmap-'), 'dmap.db'), { env: { PIZZABOX_TABLE_SEED: '11' } });
  url = `http://localhost:${server.port}/`;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  server?.proc.kill('SIGKILL');
});

const problems = [];

async function newPage(size) {
  return watchedPage(browser, problems, { viewport: size }, spySockets);
}

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function shots(page, what) {
  const start = page.viewportSize();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    await page.screenshot({ path: join(SHOTS, `delivery-map-${what}-${size.width}x${size.height}.png`) });
    for (const p of await page.evaluate(fitProblems)) problems.push(`${what} ${size.width}x${size.height}: ${p}`);
  }
  await page.setViewportSize(start);
  await settle(page);
}

// The map as measured on the screen.
function measureMap() {
  const svg = document.getElementById('delivery-svg');
  const s = svg.getBoundingClientRect();
  const scale = svg.getScreenCTM().a;
  const rect = (el) => { const r = el.getBoundingClientRect(); return { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom }; };
  const lots = [...svg.querySelectorAll('.pd-lot > rect:not(.pd-ring)')].map((r) => Math.min(r.getBoundingClientRect().width, r.getBoundingClientRect().height));
  const prices = [...svg.querySelectorAll('.pd-lot text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  // a street's box widened by half its stroke: a name under a street meets it
  const roads = [...svg.querySelectorAll('.pd-road')].map((l) => {
    const r = rect(l), h = (parseFloat(getComputedStyle(l).strokeWidth) * scale) / 2;
    return { x0: r.x0 - h, y0: r.y0 - h, x1: r.x1 + h, y1: r.y1 + h };
  });
  const under = [];
  for (const t of svg.querySelectorAll('.pd-vlabel')) {
    const a = rect(t);
    if (roads.some((b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5)) under.push(t.textContent);
  }
  const actions = document.getElementById('actions').getBoundingClientRect();
  return {
    width: s.width, left: s.left, right: s.right, top: s.top, bottom: s.bottom, vw: window.innerWidth, vh: window.innerHeight,
    scroll: document.documentElement.scrollWidth, lots, prices, under, labels: svg.querySelectorAll('.pd-vlabel').length,
    actionsTop: actions.top, actionsBottom: actions.bottom, actionsLeft: actions.left, wide: svg.classList.contains('wide'),
    zoom: Number(svg.dataset.zoom), viewBox: svg.getAttribute('viewBox').split(' ').map(Number),
  };
}

test('the Delivery map is the board: readable at 1366x768, zoom and pan, the others\' last turns, a phone, a pinch', { timeout: 90_000 }, async () => {
  const page = await newPage(DESKTOP);
  await page.goto(url);
  await page.fill('#name', 'Ann');
  await page.selectOption('#game', 'delivery');
  await page.selectOption('#players-count', '3');
  await page.selectOption('select[name=seat1]', 'greedy');
  await page.selectOption('select[name=seat2]', 'random');
  await page.click('#create');
  await page.waitForSelector('#delivery-svg');
  await page.waitForFunction(() => /^#\/t\/[^/]+$/.test(location.hash) && window.__pb.views[decodeURIComponent(location.hash.slice(4))]);
  const code = await page.evaluate(() => decodeURIComponent(location.hash.slice(4)));

  // Ann chooses an action, with a pizzeria of her own to click.
  await playUntil(page, code, (v) => v.mine && v.phase === 'start' && v.pizzerias > 0, PLAY);
  await settle(page);
  let m = await page.evaluate(measureMap);
  assert.ok(m.wide, 'the map lies down on a wide screen');
  assert.ok(m.width >= 0.6 * m.vw, `the map takes most of the width (${m.width} of ${m.vw})`);
  assert.equal(m.lots.length, 24);
  assert.ok(Math.min(...m.lots) >= 24, `every lot is a target of 24 px or more (the smallest ${Math.min(...m.lots)})`);
  assert.ok(Math.min(...m.prices) >= 11, `lot prices of 11 px or more (${Math.min(...m.prices)})`);
  assert.equal(m.labels, 9, 'each village named');
  assert.deepEqual(m.under, [], 'no village name under a street');
  assert.ok(m.top >= 0 && m.bottom <= m.vh, 'the whole map on screen');
  assert.ok(m.actionsTop < m.vh - 100 && m.actionsLeft >= m.right, 'the move to make beside the map, on screen without scrolling');
  await shots(page, 'start');
  // A taller desktop, narrower: the same.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await settle(page);
  const tall = await page.evaluate(measureMap);
  assert.ok(tall.wide && tall.width >= 0.6 * tall.vw, `1280x1000: the map takes most of the width (${tall.width})`);
  assert.ok(Math.min(...tall.lots) >= 24 && Math.min(...tall.prices) >= 11, `1280x1000: lots of 24 px, prices of 11 px (${Math.min(...tall.lots)}, ${Math.min(...tall.prices)})`);
  assert.deepEqual(tall.under, [], '1280x1000: no village name under a street');
  await page.setViewportSize(DESKTOP);
  await settle(page);

  // Zoom: the button, then the wheel over Ann's pizzeria; the view box shrinks.
  const full = m.viewBox;
  await page.click('#delivery-board [data-zoom="in"]');
  m = await page.evaluate(measureMap);
  assert.ok(m.zoom > 1 && m.viewBox[2] < full[2], `the + button zooms in (zoom ${m.zoom})`);
  const mine = page.locator('#delivery-svg .pd-lot.mine[data-pick="pizzeria"]').first();
  const village = await mine.getAttribute('data-value');
  let box = await mine.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  const wheeled = await page.evaluate(measureMap);
  assert.ok(wheeled.zoom > m.zoom, `the wheel zooms in further (${m.zoom} -> ${wheeled.zoom})`);
  assert.ok(Math.min(...wheeled.lots) > Math.min(...m.lots), 'the lots grow');
  // A click on the pizzeria, zoomed, selects it (and the board drawn again keeps the zoom).
  box = await mine.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const selected = page.locator(`#delivery-svg .pd-lot.mine.selected[data-value="${village}"]`);
  await selected.waitFor({ timeout: 3000 });
  m = await page.evaluate(measureMap);
  assert.equal(m.zoom, wheeled.zoom, 'the zoom stays when the board is drawn again');
  // A drag from the pizzeria pans the map and does not click it: still selected.
  box = await selected.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 10, { steps: 6 });
  await page.mouse.up();
  const panned = await page.evaluate(measureMap);
  assert.ok(panned.viewBox[0] < m.viewBox[0], `a drag right pans the map (view box x ${m.viewBox[0]} -> ${panned.viewBox[0]})`);
  assert.equal(await selected.count(), 1, 'a drag is not a click: the pizzeria stays selected');
  // With an order picked too, the route is drawn; a screenshot of the preview, zoomed back out.
  await page.click('#delivery-board [data-zoom="reset"]');
  m = await page.evaluate(measureMap);
  assert.equal(m.zoom, 1);
  assert.deepEqual(m.viewBox, full, 'Reset shows the whole map');
  const pins = page.locator('#delivery-svg .pd-order-pin');
  assert.ok(await pins.count() >= 1, 'orders pinned at their zones');
  await pins.first().click();
  await page.waitForSelector('#delivery-svg .pd-route');
  await shots(page, 'preview');

  // The bots play; Ann answers with random moves until both bots have had a turn since hers, one a delivery.
  const first = await lastView(page, code);
  await playUntil(page, code, (v) => {
    if (!v.mine || v.phase !== 'start' || v.moves < first.moves + 6) return false;
    let i = v.log.length;
    while (i > 0 && v.log[i - 1].seat !== 0) i--;
    const since = v.log.slice(i);
    return [1, 2].every((s) => since.some((e) => e.seat === s && /^(build|deliver|upgrade) /.test(e.text))) &&
      since.some((e) => /^deliver /.test(e.text));
  }, { ...PLAY, ms: 50_000 });
  await settle(page);
  const recent = await page.evaluate(() => ({
    rings: [...document.querySelectorAll('#delivery-svg .pd-lot.recent')].map((g) => Number(g.dataset.owner)),
    pulsing: document.querySelectorAll('#delivery-svg .pd-ring.fresh').length,
    turns: [...document.querySelectorAll('#delivery-board .pd-recent-turn')].map((li) => ({ seat: Number(li.dataset.seat), text: li.textContent })),
    routes: document.querySelectorAll('#delivery-svg .pd-recent-route').length,
    tags: [...document.querySelectorAll('#delivery-svg .pd-recent-tag')].map((t) => t.textContent),
    // a name tag over a lot or a pizzeria hides it
    tagsOnLots: [...document.querySelectorAll('#delivery-svg .pd-recent-tag rect')].flatMap((t) => {
      const a = t.getBoundingClientRect();
      return [...document.querySelectorAll('#delivery-svg .pd-lot > rect:not(.pd-ring)')].filter((r) => {
        const b = r.getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      }).map((r) => r.parentElement.dataset.lot);
    }),
  }));
  assert.deepEqual(recent.turns.map((t) => t.seat), [1, 2], `each bot's last turn named under the map (${JSON.stringify(recent.turns)})`);
  assert.match(recent.turns[0].text, /^Greedy 2 /);
  assert.match(recent.turns[1].text, /^Random 3 /);
  assert.ok(recent.pulsing >= 1, 'a pizzeria built, upgraded or delivered from in a bot\'s last turn has a pulsing ring');
  const delivered = recent.turns.filter((t) => /delivered/.test(t.text)).length;
  assert.ok(delivered >= 1, 'a bot delivered in its last turn');
  assert.equal(recent.tags.length, delivered, 'a name at each zone delivered to');
  assert.deepEqual(recent.tagsOnLots, [], 'no name tag covers a lot');
  assert.equal(recent.routes, delivered, 'each delivery\'s route drawn');
  await shots(page, 'opponents');

  // The phone: the map stands, as wide as the screen, nothing wider.
  await page.setViewportSize(PHONE);
  await settle(page);
  m = await page.evaluate(measureMap);
  assert.ok(!m.wide, 'the map stands on a phone');
  assert.ok(m.scroll <= m.vw, `no sideways scrolling (${m.scroll} > ${m.vw})`);
  assert.ok(m.left >= 0 && m.right <= m.vw && m.width >= 0.85 * m.vw, `the map as wide as the phone (${m.left}..${m.right})`);
  assert.ok(Math.min(...m.lots) >= 24, `lots of 24 px or more on the phone too (${Math.min(...m.lots)})`);
  assert.deepEqual(m.under, [], 'no village name under a street on the phone');
  assert.ok(m.actionsTop < m.top, 'the move to make above the map');
  // Two fingers apart on the map zoom in (touch by the DevTools protocol).
  await page.locator('#delivery-svg').scrollIntoViewIfNeeded();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
  box = await page.locator('#delivery-svg').boundingBox();
  const [cx, cy] = [box.x + box.width / 2, Math.max(box.y, 0) + 200];
  const fingers = (d) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(30) });
  for (let d = 40; d <= 90; d += 10) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(d) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  m = await page.evaluate(measureMap);
  assert.ok(m.zoom >= 2, `a pinch zooms in (zoom ${m.zoom})`);
  await page.context().close();
  assert.deepEqual(problems, [], `${problems.length} problems:\n${problems.join('\n')}`);
});
