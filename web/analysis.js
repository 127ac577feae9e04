// analysis.js -- a finished game reviewed move by move (`analyse`,
// docs/protocol.md "Analysis"): the server's bot searches each decision
// again from the deciding seat's own information. Here: the Analyse button
// and its progress, each reviewed move's mark in the log, the better move at
// a replay step, and a graph of each seat's chance of winning over the game.
import { esc } from './tokens.js';

const runs = new Map(); // code -> {reviews: Map(move -> review), done, total, asked}

export const MARKS = {
  inaccuracy: { tag: '?!', words: 'inaccuracy: 5 to 10 points of winning chance lost' },
  mistake: { tag: '?', words: 'mistake: 10 to 20 points of winning chance lost' },
  blunder: { tag: '??', words: 'blunder: 20 points of winning chance or more lost' },
};

export function analysisOf(code) {
  return runs.get(code) || null;
}

// An `analysis` message: its reviews merged by move.
export function onAnalysis(msg) {
  if (!msg || typeof msg.code !== 'string' || !Array.isArray(msg.reviews)) return;
  let r = runs.get(msg.code);
  if (!r) runs.set(msg.code, (r = { reviews: new Map(), done: 0, total: 0, asked: true }));
  for (const v of msg.reviews) if (v && Number.isInteger(v.move)) r.reviews.set(v.move, v);
  r.done = Number.isInteger(msg.done) ? msg.done : r.reviews.size;
  r.total = Number.isInteger(msg.total) ? msg.total : r.total;
  r.error = null;
}

// Asked for (the button pressed): shown as started until the first answer.
export function analysisAsked(code) {
  const r = runs.get(code);
  if (r) { r.asked = true; r.error = null; } else runs.set(code, { reviews: new Map(), done: 0, total: 0, asked: true });
}

// Refused (an `error` answering `analyse`): the button comes back with the reason.
export function analysisRefused(code, message) {
  const r = runs.get(code);
  if (r && !r.reviews.size) { r.asked = false; r.error = message; }
}

// A chance in per cent, to the tenth of a point the review gives: the marks go by the difference of two.
const pct = (x) => `${Math.round(1000 * x) / 10}%`;

// The small coloured tag of a marked move, words in its tooltip and label.
export function markTagHtml(review) {
  const m = review && MARKS[review.mark];
  if (!m) return '';
  const words = `${m.words} (${pct(review.played_chance)}; the best found ${pct(review.best_chance)})`;
  return ` <span class="an-mark an-${review.mark}" title="${esc(words)}" aria-label="${esc(words)}">${m.tag}</span>`;
}

// A move in the game's log words, without its mover's name ("took portion C"):
// the mover's name is swapped for a marker and cut off with what follows it.
function moveWords(ctx, gameLog, seat, text, named) {
  const MARK = '\u01c2\u01c2';
  const names = named ? ctx.names : ctx.names.map((n, i) => (i === seat ? MARK : n));
  const li = gameLog({ ...ctx, names, msg: { ...ctx.msg, log: [{ seat, text }], moves: 1 } });
  const html = li.replace(/^<li[^>]*>/, '').replace(/<\/li>\s*$/, '');
  return named ? html : html.replace(/^[\s\S]*?\u01c2\u01c2(<\/b>)?:?\s*(<\/b>)?\s*/, '');
}

// The review of the decision made at replay step `step` (the move played from
// the position shown), as a line: the move played, its chance, and the best found.
export function stepReviewHtml(ctx, gameLog, step) {
  const r = analysisOf(ctx.code);
  const v = r && r.reviews.get(step);
  if (!v) return '';
  const head = `<span class="muted">Move ${step + 1}:</span> ${moveWords(ctx, gameLog, v.seat, v.played, true)}`;
  if (v.played_chance == null) {
    return `<p class="an-step" data-move="${step}">${head} — ${v.mark === 'forced' ? 'the only legal move' : 'not weighed (a payment)'}.</p>`;
  }
  const played = `${head}: ${pct(v.played_chance)}`;
  if (v.played === v.best) return `<p class="an-step" data-move="${step}">${played} — the best move found.</p>`;
  const best = moveWords(ctx, gameLog, v.seat, v.best, false);
  return `<p class="an-step" data-move="${step}" data-mark="${esc(v.mark)}">${played}${markTagHtml(v)} → ` +
    `best: <span class="an-best-words">${best}</span>, ${pct(v.best_chance)}</p>`;
}

// The portion of a better `take` at this step (New York Slice), or null:
// the board shows it where the line under the graph names it.
export function betterTake(code, step) {
  const r = analysisOf(code);
  const v = r && r.reviews.get(step);
  if (!v || v.played_chance == null || v.played === v.best) return null;
  const m = /^take\s+(\S+)$/i.exec(v.best || '');
  return m ? m[1] : null;
}

// Each seat's chance of winning after each of its reviewed decisions, as a
// line per seat over the game's moves; a point goes to its replay step. The
// line ends at the game's result (`final`: each seat's share of the win, or
// null), so a chance that did not come true shows where it fell.
export function graphHtml(ctx, seats, final = null) {
  const r = analysisOf(ctx.code);
  if (!r || !r.total) return '';
  const W = 320, H = 130, L = 30, R = 8, T = 8, B = 20;
  const x = (move) => L + (move / r.total) * (W - L - R); // move r.total: the end
  const y = (p) => T + (1 - p) * (H - T - B);
  const grid = [0, 0.5, 1].map((p) => `<line class="an-grid" x1="${L}" x2="${W - R}" y1="${y(p)}" y2="${y(p)}"/>` +
    `<text class="an-axis" x="${L - 4}" y="${y(p) + 3}" text-anchor="end">${Math.round(100 * p)}%</text>`).join('');
  const axis = `<text class="an-axis" x="${L}" y="${H - 5}">move 1</text>` +
    `<text class="an-axis" x="${W - R}" y="${H - 5}" text-anchor="end">the end</text>`;
  const reviewed = [...r.reviews.values()].filter((v) => v.played_chance != null).sort((a, b) => a.move - b.move);
  const lines = [];
  const legend = [];
  for (let s = 0; s < seats; s++) {
    const mine = reviewed.filter((v) => v.seat === s);
    legend.push(`<span class="an-key an-seat-${s}"><span class="an-swatch" aria-hidden="true"></span>${esc(ctx.names[s] || `Seat ${s + 1}`)}</span>`);
    if (!mine.length) continue;
    const share = final && Number.isFinite(final[s]) ? final[s] : null;
    // seats with the same result end side by side, not on top of each other
    const before = share == null ? 0 : final.slice(0, s).filter((f) => f === share).length;
    const endX = x(r.total) - 6.5 * before;
    const ends = share == null ? [] : [`${endX.toFixed(1)},${y(share).toFixed(1)}`];
    const pts = mine.map((v) => `${x(v.move).toFixed(1)},${y(v.played_chance).toFixed(1)}`).concat(ends).join(' ');
    const endLabel = `The end, ${ctx.names[s] || `Seat ${s + 1}`}: ${share === 1 ? 'won' : share > 0 ? `shared the win (${pct(share)})` : 'lost'}`;
    const end = share == null ? '' : `<rect class="an-end" x="${(endX - 2.6).toFixed(1)}" y="${(y(share) - 2.6).toFixed(1)}" ` +
      `width="5.2" height="5.2" role="img" aria-label="${esc(endLabel)}"><title>${esc(endLabel)}</title></rect>`;
    const dots = mine.map((v) => {
      const label = `Move ${v.move + 1}, ${ctx.names[s] || `Seat ${s + 1}`}: ${pct(v.played_chance)}${MARKS[v.mark] ? `, ${v.mark}` : ''}`;
      return `<circle class="an-point${MARKS[v.mark] ? ` an-${v.mark}` : ''}" data-step="${v.move}" cx="${x(v.move).toFixed(1)}" ` +
        `cy="${y(v.played_chance).toFixed(1)}" r="${MARKS[v.mark] ? 3.6 : 2.4}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title></circle>`;
    }).join('');
    lines.push(`<g class="an-line an-seat-${s}" data-seat="${s}"><polyline points="${pts}"/>${dots}${end}</g>`);
  }
  return `<svg class="an-graph" viewBox="0 0 ${W} ${H}" role="group" aria-label="Each seat's chance of winning after its moves">` +
    `${grid}${axis}${lines.join('')}</svg><div class="an-legend">${legend.join('')}</div>`;
}

// The Analysis card of a finished table: the button, the progress, then the
// graph and the line of the replay step shown.
export function panelHtml(ctx, gameLog, step, seats, final = null) {
  const r = analysisOf(ctx.code);
  const intro = '<h2>Analysis</h2>';
  if (!r || (!r.asked && !r.reviews.size)) {
    const why = r && r.error ? `<p class="an-error">${esc(r.error)}</p>` : '';
    return `${intro}<p class="muted">A bot reviews every decision from the deciding seat's own information, ` +
      `and marks moves that lost chances of winning.</p>${why}<button type="button" id="analyse" class="secondary">Analyse</button>`;
  }
  const running = !r.total || r.done < r.total;
  const progress = running
    ? `<p class="an-progress" role="status">Analysing: ${r.done} of ${r.total || '…'} decisions</p>`
    : '';
  const counts = Object.keys(MARKS).map((m) => [m, [...r.reviews.values()].filter((v) => v.mark === m).length]);
  const summary = running ? '' : `<p class="an-summary">${counts.map(([m, n]) =>
    `<span class="an-mark an-${m}" aria-hidden="true">${MARKS[m].tag}</span> ${n} ${m === 'inaccuracy' && n !== 1 ? 'inaccuracies' : `${m}${n === 1 ? '' : 's'}`}`).join(' · ')}</p>`;
  const here = step == null ? '<p class="muted an-step">Step through the replay, or click a point, to see each move against the best found.</p>'
    : stepReviewHtml(ctx, gameLog, step) || '<p class="muted an-step">No review of the next move yet.</p>';
  return `${intro}${progress}${summary}${graphHtml(ctx, seats, final)}${here}`;
}

// A new connection: the server forgot who waited for a run under way.
export function connectionReset() {
  for (const r of runs.values()) if (r.asked && (!r.total || r.done < r.total)) r.again = true;
}

// Ask again for this table's run (once the table is back after a reconnection)?
export function wantsAgain(code) {
  const r = runs.get(code);
  if (!r || !r.again) return false;
  r.again = false;
  return true;
}
