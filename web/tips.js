// tips.js -- tooltips for anything carrying `data-tip` (a Special, a power
// card): shown while the mouse is over it or it has the focus, and on a
// phone by a tap (a second tap, or a tap elsewhere, hides it). A native
// `title` does neither on a touch screen, so these elements carry none.
// A button with a tooltip (a power card to play) is read before it is
// played on a phone: the first tap shows its text, the second plays it.
//
// One box, #tip, placed under (or above) the element and kept inside the
// window. The table is redrawn on every view: an element that is gone takes
// its tip with it (hideStale, called after each redraw).

let box = null;
let anchor = null;   // the element whose tip is shown
let pinned = false;  // opened by a tap: stays until tapped again or elsewhere
let touching = false;

function tipBox() {
  if (!box) {
    box = document.createElement('div');
    box.id = 'tip';
    box.setAttribute('role', 'tooltip');
    box.hidden = true;
    document.body.append(box);
  }
  return box;
}

function place(el) {
  const b = tipBox();
  const r = el.getBoundingClientRect();
  const margin = 6;
  b.style.left = '0px';
  b.style.top = '0px';
  const w = b.offsetWidth, h = b.offsetHeight;
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  let left = r.left + r.width / 2 - w / 2;
  left = Math.max(margin, Math.min(left, vw - w - margin));
  let top = r.bottom + margin;
  if (top + h > vh - margin && r.top - h - margin >= margin) top = r.top - h - margin;
  b.style.left = `${Math.round(left + window.scrollX)}px`;
  b.style.top = `${Math.round(top + window.scrollY)}px`;
}

export function showTip(el, pin = false) {
  const b = tipBox();
  anchor = el;
  pinned = pin;
  b.textContent = el.dataset.tip;
  b.hidden = false;
  if (el.id) el.setAttribute('aria-describedby', 'tip');
  place(el);
}

export function hideTip() {
  if (box) box.hidden = true;
  if (anchor && anchor.getAttribute('aria-describedby') === 'tip') anchor.removeAttribute('aria-describedby');
  anchor = null;
  pinned = false;
}

// After a redraw: the element shown may have been replaced by its new copy.
export function hideStale() {
  if (anchor && !anchor.isConnected) hideTip();
}

const tipOf = (target) => (target instanceof Element ? target.closest('[data-tip]') : null);

export function wireTips() {
  document.addEventListener('pointerdown', (ev) => { touching = ev.pointerType !== 'mouse'; }, true);
  document.addEventListener('pointerover', (ev) => {
    if (ev.pointerType !== 'mouse') return;
    const el = tipOf(ev.target);
    if (el && el !== anchor) showTip(el);
  });
  document.addEventListener('pointerout', (ev) => {
    if (ev.pointerType !== 'mouse' || pinned || !anchor) return;
    const to = tipOf(ev.relatedTarget);
    if (to !== anchor) hideTip();
  });
  document.addEventListener('focusin', (ev) => {
    const el = tipOf(ev.target);
    if (el && !touching) showTip(el);
  });
  document.addEventListener('focusout', () => { if (!pinned) hideTip(); });
  // A tap on a button with a tooltip: the first shows it, the second goes through.
  document.addEventListener('click', (ev) => {
    const el = tipOf(ev.target);
    if (!touching || !el || !el.matches('button')) return;
    if (anchor === el && pinned) { hideTip(); return; }
    ev.preventDefault();
    ev.stopPropagation();
    showTip(el, true);
  }, true);
  // A tap (or a click on something that does nothing else) pins the tip;
  // tapping it again, or anywhere else, takes it away.
  document.addEventListener('click', (ev) => {
    const el = tipOf(ev.target);
    if (!el) { if (anchor) hideTip(); return; }
    if (el.matches('button') || (!touching && el.closest('[role=button], [data-action], [data-pick]'))) return; // it acts
    if (anchor === el && pinned) hideTip();
    else showTip(el, true);
  });
  document.addEventListener('keydown', (ev) => {
    touching = false; // Enter on a focused button plays it at once
    if (ev.key === 'Escape') hideTip();
  });
  window.addEventListener('scroll', () => { if (anchor) place(anchor); }, { passive: true });
  window.addEventListener('resize', () => { if (anchor) place(anchor); });
}
