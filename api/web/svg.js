// Small helpers to build SVG and HTML without a framework.

import { t } from './i18n/index.js';

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

// The players' colours: five that stay apart under protanopia, deuteranopia and tritanopia (the
// colours of the physical pieces: blue, red, green, yellow, black); tests/web/colours.test.mjs
// measures them. Each seat has a shape as well, so that pieces tell apart without colour.
export const SEAT_COLOURS = ['#1d5fb8', '#d55e00', '#2e9e5b', '#f2c400', '#1b1b1b'];
export const SEAT_COLOUR_NAMES = ['blue', 'red', 'green', 'yellow', 'black'];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const SEAT_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'hexagon'];
export const seatShapeName = (seat) => SEAT_SHAPES[seat % SEAT_SHAPES.length];
/** The outline a piece of this colour needs to stand out on light and dark ground alike. */
export const outlineFor = (colour) => (colour === '#1b1b1b' ? '#ffffff' : '#1b1b1b');

/** The path of shape `name` centred on (x, y), about 2r across. */
export function shapePath(name, x, y, r) {
  const poly = (pts) => `M${pts.map(([a, b]) => `${(x + a * r).toFixed(2)} ${(y + b * r).toFixed(2)}`).join(' L')} Z`;
  const around = (n, start, k = 1) => Array.from({ length: n }, (_, i) => {
    const t = start + (i * 2 * Math.PI) / n;
    return [Math.cos(t) * k, Math.sin(t) * k];
  });
  switch (name) {
    case 'square': return poly([[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]]);
    case 'triangle': return poly([[0, -1.05], [1, 0.8], [-1, 0.8]]);
    case 'diamond': return poly([[0, -1.1], [1.1, 0], [0, 1.1], [-1.1, 0]]);
    case 'hexagon': return poly(around(6, 0));
    case 'star': return poly(around(10, -Math.PI / 2).map(([a, b], i) => (i % 2 ? [a * 0.45, b * 0.45] : [a * 1.1, b * 1.1])));
    default: return `M${x - r} ${y} a${r} ${r} 0 1 0 ${2 * r} 0 a${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
  }
}

/** A seat's piece: its shape in its colour. */
export function seatMark(seat, x, y, r, attrs = {}) {
  return s('path', { d: shapePath(seatShapeName(seat), x, y, r), fill: seatColour(seat), stroke: outlineFor(seatColour(seat)), 'stroke-width': Math.max(1.5, r / 4), ...attrs });
}

/** A seat's mark for a line of text in a board: its shape in its colour, `size` across. */
export function seatBadge(seat, x, y, size = 14) {
  return seatMark(seat, x + size / 2, y - size / 2 + 2, size / 2 - 1, { class: 'seat-badge', 'data-seat-mark': seat });
}

/**
 * The last move on a board: a dashed frame around the box (x, y, w, h), drawn over the board and
 * letting taps through. The legend beside the board says what the frame means.
 */
export function lastFrame(x, y, w, hgt, rx = 6) {
  return lastMark(s('rect', { x: x - 4, y: y - 4, width: w + 8, height: hgt + 8, rx }));
}

/** Any shape as the last move's mark: dashed orange over a white halo (seen on any ground). */
export function lastMark(el) {
  const halo = el.cloneNode(true);
  halo.setAttribute('class', 'last-move-halo');
  el.setAttribute('class', 'last-move');
  return s('g', { class: 'last-move-mark' }, halo, el);
}

/** A small picture for a key in HTML: `el` drawn in a 24 × 24 box. */
export function swatch(el, label) {
  // Without a label it only pictures the text beside it: hidden from screen readers.
  const svg = s('svg', { viewBox: '0 0 24 24', width: 24, height: 24, class: 'swatch', ...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' }) });
  svg.append(el);
  return svg;
}

/**
 * Board targets as one tab stop: the arrow keys move between them (to the nearest one that way),
 * Home and End to the first and last; the one last focused keeps the tab stop across redraws.
 */
const roving = new Map();
export function rove(root, key) {
  const all = () => [...root.querySelectorAll('.target')];
  const idOf = (el) => ['data-move', 'data-place', 'data-spot'].map((a) => el.getAttribute(a)).find((v) => v !== null) || '';
  const items = all();
  if (!items.length) return root;
  const current = items.find((el) => idOf(el) === roving.get(key)) || items[0];
  for (const el of items) el.setAttribute('tabindex', el === current ? '0' : '-1');
  root.addEventListener('focusin', (e) => {
    const el = e.target.closest && e.target.closest('.target');
    if (!el) return;
    for (const o of all()) o.setAttribute('tabindex', o === el ? '0' : '-1');
    roving.set(key, idOf(el));
  });
  const DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  root.addEventListener('keydown', (e) => {
    const from = e.target.closest && e.target.closest('.target');
    if (!from || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    const list = all();
    let next = null;
    if (e.key === 'Home') next = list[0];
    else if (e.key === 'End') next = list[list.length - 1];
    else if (DIRS[e.key]) {
      const [dx, dy] = DIRS[e.key];
      const mid = (el) => { const r = el.getBoundingClientRect(); return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
      const [fx, fy] = mid(from);
      let best = Infinity;
      for (const el of list) {
        if (el === from) continue;
        const [x, y] = mid(el);
        const along = (x - fx) * dx + (y - fy) * dy;
        if (along <= 1) continue;
        const across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
        const score = along + 2 * across;
        if (score < best) { best = score; next = el; }
      }
      // Nothing that way: on to the next (or previous) in reading order.
      if (!next) next = list[(list.indexOf(from) + (dx + dy > 0 ? 1 : list.length - 1)) % list.length];
    } else return;
    e.preventDefault();
    if (next) next.focus();
  });
  return root;
}

/** The key's line for the last move's frame. */
export const lastMoveKey = () => [swatch(lastMark(s('rect', { x: 4, y: 4, width: 16, height: 16, rx: 3 })), ''), t('boards.last_move')];

/** A key to the board in HTML: one line per sign, its picture and what it means. */
export function legend(items, label) {
  return h('ul', { class: 'legend', 'aria-label': label }, items.map(([pic, text]) => h('li', {}, pic, h('span', {}, text))));
}

export function svgRoot(w, h, label) {
  return s('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label, class: 'board-svg' });
}
