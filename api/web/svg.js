// Small helpers to build SVG and HTML without a framework.

const NS = 'http://www.w3.org/2000/svg';

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c.nodeType ? c : document.createTextNode(String(c)));
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c.nodeType ? c : document.createTextNode(String(c)));
  return el;
}

export const title = (text) => s('title', {}, text);

/** Makes an SVG element a keyboard-reachable button that runs `act`. */
export function clickable(el, label, act, attrs = {}) {
  el.setAttribute('tabindex', '0');
  el.setAttribute('role', 'button');
  el.setAttribute('aria-label', label);
  el.classList.add('target');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(title(label));
  el.addEventListener('click', act);
  el.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(); } });
  return el;
}

/** A move on the board: clicking it sends it; the test and the list find it by `data-move`. */
export function moveTarget(el, move, label, ctx) {
  return clickable(el, label, () => ctx.play(move), { 'data-move': JSON.stringify(move.command) });
}

export const SEAT_COLOURS = ['#1f6fd1', '#c0392b', '#1e8449', '#8e44ad', '#b9770e'];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

export function svgRoot(w, h, label) {
  return s('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label, class: 'board-svg' });
}
