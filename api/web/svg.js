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

// Each seat has a shape as well as a colour, so that pieces tell apart without colour vision.
export const SEAT_SHAPES = ['circle', 'square', 'triangle', 'diamond', 'hexagon'];
export const seatShapeName = (seat) => SEAT_SHAPES[seat % SEAT_SHAPES.length];

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
  return s('path', { d: shapePath(seatShapeName(seat), x, y, r), fill: seatColour(seat), stroke: '#fff', 'stroke-width': Math.max(1, r / 5), ...attrs });
}

/** A small picture for a key in HTML: `el` drawn in a 24 × 24 box. */
export function swatch(el, label) {
  const svg = s('svg', { viewBox: '0 0 24 24', width: 24, height: 24, class: 'swatch', role: 'img', 'aria-label': label });
  svg.append(el);
  return svg;
}

export function svgRoot(w, h, label) {
  return s('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': label, class: 'board-svg' });
}
