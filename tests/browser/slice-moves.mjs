// slice-moves.mjs -- one New York Slice decision by clicks, for the browser tests.

/* One move for whoever's page says it is their turn; false if not their turn. */
export async function move(page) {
  const table = page.locator('#table');
  if (await table.getAttribute('data-my-turn') !== 'true') return false;
  const phase = await table.getAttribute('data-phase');
  if (phase === 'divide') {
    await page.click('#special-alone');
    await page.click('#even-cuts');
    await page.click('#divide');
  } else if (phase === 'take') {
    await page.locator('.portion.active').first().click();
  } else if (phase === 'place' && await page.locator('#confirm-place').isVisible()) {
    await page.click('#confirm-place');
  } else {
    const b = page.locator('#actions button[data-action]:not([disabled])').first();
    if (!(await b.count())) return false;
    await b.click();
  }
  return true;
}
