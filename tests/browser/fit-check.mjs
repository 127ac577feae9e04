// fit-check.mjs -- the layout measure of fit.test.mjs, shared with the other
// browser tests: fitProblems() runs in the page (page.evaluate) and names
// whatever is cut off, spills out of its panel or overlaps; spySockets() is an
// init script that keeps the page's WebSocket and its last view of each table,
// which lastView() reads and playUntil() plays random legal moves over.
import assert from 'node:assert/strict';

/* Every WebSocket the page opens is kept as window.__pb.ws, and the last view of each table in __pb.views. */
export function spySockets() {
  const Native = window.WebSocket;
  window.__pb = { ws: null, views: {} };
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      window.__pb.ws = this;
      this.addEventListener('message', (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (m.type === 'view') window.__pb.views[m.code] = m;
        } catch { /* not JSON: not ours to judge */ }
      });
    }
  };
}

// ---- The measures (run in the page) ----

/* What is wrong with the layout now: a list of sentences naming the element and the numbers. */
export function fitProblems() {
  const W = window.innerWidth;
  const out = [];
  const de = document.documentElement;
  if (de.scrollWidth > W) out.push(`the page scrolls sideways: document scrollWidth ${de.scrollWidth} > innerWidth ${W}`);

  const name = (el) => {
    const part = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') +
      [...e.classList].slice(0, 3).map((c) => `.${c}`).join('');
    const path = [part(el)];
    for (let e = el.parentElement; e && e !== document.body && path.length < 4; e = e.parentElement) {
      path.unshift(part(e));
      if (e.id) break;
    }
    const text = (el.textContent || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${path.join(' > ')}${text ? ` "${text}"` : ''}`;
  };
  const px = (n) => Math.round(n * 10) / 10;
  const shown = (el) => {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const clips = (cs) => cs.overflowX !== 'visible';
  const inSvg = (el) => el instanceof SVGElement && el.tagName.toLowerCase() !== 'svg';
  const formControl = (el) => ['INPUT', 'SELECT', 'TEXTAREA', 'OPTION'].includes(el.tagName);

  const els = [...document.body.querySelectorAll('*')].filter((el) =>
    !inSvg(el) && !['SCRIPT', 'STYLE', 'TITLE', 'BR', 'WBR', 'OPTION'].includes(el.tagName) && !el.closest('[hidden]') && shown(el));

  // An element inside a box that clips or scrolls its overflow is judged by that box.
  const clipped = new Map();
  const insideClip = (el) => {
    const p = el.parentElement;
    if (!p || p === document.body) return false;
    if (!clipped.has(p)) {
      const cs = getComputedStyle(p);
      clipped.set(p, (clips(cs) && p !== de) || cs.position === 'fixed' || insideClip(p));
    }
    return clipped.get(p);
  };

  // A panel: the nearest box drawn with a border or a background (a card, a player, a button...).
  const panels = new Map();
  const panelOf = (el) => {
    if (!el || el === document.body || el === de || el.tagName === 'MAIN') return null;
    if (!panels.has(el)) {
      const cs = getComputedStyle(el);
      const drawn = parseFloat(cs.borderLeftWidth) > 0 || parseFloat(cs.borderRightWidth) > 0 ||
        !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(cs.backgroundColor);
      panels.set(el, drawn && cs.display !== 'inline' ? el : panelOf(el.parentElement));
    }
    return panels.get(el);
  };

  for (const el of els) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (cs.position !== 'fixed' && !insideClip(el) && (r.right > W + 0.5 || r.left < -0.5)) {
      out.push(`${name(el)} reaches past the ${W}px viewport: left ${px(r.left)}, right ${px(r.right)}, width ${px(r.width)}`);
    }
    // Nothing spills sideways out of the panel it is drawn in (into a neighbour or the page's margin).
    const card = panelOf(el.parentElement);
    if (card && cs.position !== 'fixed' && cs.position !== 'absolute' && !insideClip(el)) {
      const c = card.getBoundingClientRect();
      if (r.right > c.right + 0.5 || r.left < c.left - 0.5) {
        out.push(`${name(el)} spills out of its panel ${name(card).split(' "')[0]}: left ${px(r.left)}, right ${px(r.right)}; ` +
          `the panel from ${px(c.left)} to ${px(c.right)}`);
      }
    }
    if (!formControl(el) && (clips(cs) || cs.overflowY === 'hidden' || cs.overflowY === 'clip')) {
      if (clips(cs) && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name(el)} cuts its content (overflow-x ${cs.overflowX}): scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
      }
      if ((cs.overflowY === 'hidden' || cs.overflowY === 'clip') && el.scrollHeight > el.clientHeight + 1) {
        out.push(`${name(el)} cuts its content (overflow-y ${cs.overflowY}): scrollHeight ${el.scrollHeight} > clientHeight ${el.clientHeight}`);
      }
    }
  }

  // Boxes laid out side by side: in-flow, non-inline children of one parent
  // (display: contents passed through), pairwise.
  const laidOut = (parent) => {
    const kids = [];
    for (const k of parent.children) {
      if (inSvg(k) || k.hasAttribute('hidden')) continue;
      const cs = getComputedStyle(k);
      if (cs.display === 'contents') { kids.push(...laidOut(k)); continue; }
      if (cs.display === 'none' || cs.display === 'inline' || cs.visibility === 'hidden') continue;
      if (cs.position === 'absolute' || cs.position === 'fixed' || cs.float !== 'none') continue;
      if (['SCRIPT', 'STYLE', 'TITLE', 'BR', 'WBR', 'OPTION'].includes(k.tagName)) continue;
      const r = k.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) kids.push([k, r]);
    }
    return kids;
  };
  for (const parent of [document.body, ...els]) {
    if (parent instanceof SVGElement || getComputedStyle(parent).display === 'contents') continue;
    const kids = laidOut(parent);
    for (let i = 0; i < kids.length; i++) {
      for (let j = i + 1; j < kids.length; j++) {
        const [a, ra] = kids[i], [b, rb] = kids[j];
        const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (w > 1 && h > 1) {
          out.push(`${name(a)} [${px(ra.left)},${px(ra.top)} ${px(ra.width)}x${px(ra.height)}] overlaps ` +
            `${name(b)} [${px(rb.left)},${px(rb.top)} ${px(rb.width)}x${px(rb.height)}] by ${px(w)}x${px(h)}`);
        }
      }
    }
  }
  return out;
}


// ---- Driving a table ----

/* The table's last view as the page received it. */
export const lastView = (page, code) => page.evaluate((c) => {
  const m = window.__pb.views[c];
  return m ? {
    moves: m.moves, phase: m.view.phase, legal: m.view.legal || [], mine: m.view.to_move === m.seat, log: m.log || [],
    pizzerias: ((m.view.players || [])[m.seat]?.pizzerias || []).length, // New York Pizza Delivery
  } : null;
}, code);

/* Play random legal moves for the page's seat over its own socket until `done(view)` (bots move by themselves);
 * `prefer`: moves it matches are played two times in three when there are some. */
export async function playUntil(page, code, done, { seed = 1, ms = 60_000, prefer = null } = {}) {
  let r = seed;
  const rand = (n) => { r = (r * 1103515245 + 12345) % 2147483648; return r % n; };
  const deadline = Date.now() + ms;
  let sent = -1, sentAt = 0;
  for (;;) {
    const v = await lastView(page, code); 
    if (v && done(v)) return v;
    assert.ok(Date.now() < deadline, `table ${code} did not get there in ${ms} ms (at ${JSON.stringify(v && { moves: v.moves, phase: v.phase, mine: v.mine })})`);
    // A move refused (an error toast) leaves the view as it was: another after a while.
    if (v && v.phase !== 'over' && v.mine && (v.moves !== sent || Date.now() - sentAt > 500)) {
      sent = v.moves;
      sentAt = Date.now();
      if (!v.legal.length && v.phase === 'divide') { // New York Slice lists no divisions: the page's tools make one
        for (const b of ['#special-alone', '#even-cuts', '#divide']) await page.click(b);
        continue;
      }
      const best = prefer ? v.legal.filter((l) => prefer.test(l)) : [];
      const action = best.length && rand(3) ? best[rand(best.length)] : v.legal[rand(v.legal.length)];
      await page.evaluate(([c, a]) => window.__pb.ws.send(JSON.stringify({ type: 'act', code: c, action: a })), [code, action]);
    }
    await page.waitForTimeout(15);
  }
}
