// The drawings' shared pieces: an SVG of a size, a card, an arrow. Drawn by the client, in
// plain shapes, so that they scale and need no image files.

import { s } from '../svg.js';

/** An SVG of `width` × `height` user units (scaled by the page's CSS). */
export function art(width, height, ...children) {
  return s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'rules-art' }, ...children);
}

/** A card at (x, y): face up with `label`, or face down (no label). */
export function card(x, y, label, { w = 26, hgt = 36, fill = '#fdf6e3', mark = false } = {}) {
  return s('g', { transform: `translate(${x},${y})` },
    s('rect', { width: w, height: hgt, rx: 4, fill: label === null ? '#4a6fa5' : fill, stroke: mark ? '#d9480f' : '#243b53', 'stroke-width': mark ? 3 : 1.5 }),
    label === null ? s('path', { d: `M4 4 L${w - 4} ${hgt - 4} M${w - 4} 4 L4 ${hgt - 4}`, stroke: '#9fb3c8', 'stroke-width': 1 }) : s('text', { x: w / 2, y: hgt / 2 + 5, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 'bold', fill: '#243b53' }, String(label)));
}

/** An arrow from (x1, y1) to (x2, y2). */
export function arrow(x1, y1, x2, y2) {
  const a = Math.atan2(y2 - y1, x2 - x1);
  const p = (d, da) => `${x2 - d * Math.cos(a + da)},${y2 - d * Math.sin(a + da)}`;
  return s('g', {}, s('line', { x1, y1, x2, y2, stroke: '#d9480f', 'stroke-width': 2 }),
    s('polygon', { points: `${x2},${y2} ${p(8, 0.45)} ${p(8, -0.45)}`, fill: '#d9480f' }));
}
