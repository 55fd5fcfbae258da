// Carcassonne: the tile map (cities, roads, fields, cloisters) with followers, the mage and the
// witch, gold; the drawn tile and, for a chosen free place, its legal rotations.

import { s, h, svgRoot, moveTarget, clickable, seatColour, seatName } from './common.js';

const T = 64;
const chosen = { key: null };
const DIR = { north: [0.5, 0], east: [1, 0.5], south: [0.5, 1], west: [0, 0.5] };
const HALF = [[0.25, 0.08], [0.75, 0.08], [0.92, 0.25], [0.92, 0.75], [0.75, 0.92], [0.25, 0.92], [0.08, 0.75], [0.08, 0.25]];
const CITY_POLY = { north: '0,0 1,0 0.7,0.32 0.3,0.32', east: '1,0 1,1 0.68,0.7 0.68,0.3', south: '0,1 1,1 0.7,0.68 0.3,0.68', west: '0,0 0,1 0.32,0.7 0.32,0.3' };

/** Where on a tile (0..1) a segment's figure stands. */
function spot(seg) {
  if (seg.kind === 'cloister') return [0.5, 0.5];
  if (seg.kind === 'field') return HALF[seg.half_edges[0] ?? 0];
  const pts = seg.edges.map((e) => DIR[e]);
  if (!pts.length) return [0.5, 0.5];
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  // Between the sides it reaches and the centre; a straight piece sits off the centre.
  const k = seg.kind === 'city' ? 0.35 : 0.5;
  let x = mx * (1 - k) + 0.5 * k;
  let y = my * (1 - k) + 0.5 * k;
  if (Math.abs(x - 0.5) < 0.02 && Math.abs(y - 0.5) < 0.02) { x = pts[0][0] * 0.4 + 0.3; y = pts[0][1] * 0.4 + 0.3; }
  return [x, y];
}

/** A tile drawn in a T × T box at the origin, as its edges and segments say. */
export function tile(t) {
  const g = s('g', { class: 'c-tile' }, s('rect', { width: T, height: T, class: 'c-field' }));
  const scale = (pts) => pts.split(' ').map((p) => p.split(',').map((v) => Number(v) * T).join(',')).join(' ');
  for (const seg of t.segments) {
    if (seg.kind !== 'city') continue;
    if (seg.edges.length >= 3) g.append(s('rect', { x: 0, y: 0, width: T, height: T, class: 'c-city' }));
    else if (seg.edges.length === 2 && !t.segments.some((o) => o !== seg && o.kind === 'city')) {
      const [a, b] = seg.edges;
      const corner = { 'north,east': '0,0 1,0 1,1', 'east,north': '0,0 1,0 1,1', 'east,south': '1,0 1,1 0,1', 'south,east': '1,0 1,1 0,1', 'south,west': '1,1 0,1 0,0', 'west,south': '1,1 0,1 0,0', 'west,north': '0,1 0,0 1,0', 'north,west': '0,1 0,0 1,0' }[`${a},${b}`];
      if (corner) g.append(s('polygon', { points: scale(corner), class: 'c-city' }));
      else for (const e of seg.edges) g.append(s('polygon', { points: scale(CITY_POLY[e]), class: 'c-city' }), s('rect', { x: T * 0.3, y: T * 0.3, width: T * 0.4, height: T * 0.4, class: 'c-city' }));
    } else for (const e of seg.edges) g.append(s('polygon', { points: scale(CITY_POLY[e]), class: 'c-city' }));
    if (seg.pennant) { const [x, y] = spot(seg); g.append(s('path', { d: `M${x * T - 5} ${y * T - 9} h10 l-5 7 z`, class: 'c-pennant' })); }
  }
  for (const seg of t.segments) {
    if (seg.kind !== 'road') continue;
    for (const e of seg.edges) {
      const [x, y] = DIR[e];
      g.append(s('line', { x1: x * T, y1: y * T, x2: T / 2, y2: T / 2, class: 'c-road' }));
    }
    if (seg.edges.length === 1) g.append(s('circle', { cx: T / 2, cy: T / 2, r: 4, class: 'c-crossing' }));
  }
  if (t.cloister) g.append(s('rect', { x: T * 0.35, y: T * 0.35, width: T * 0.3, height: T * 0.3, class: 'c-cloister' }));
  if (t.magic) g.append(s('text', { x: 4, y: T - 4, class: 'c-mark' }, '✦'));
  if (t.gold) g.append(s('text', { x: T - 14, y: T - 4, class: 'c-mark gold' }, '◆'));
  g.append(s('rect', { width: T, height: T, class: 'c-edge' }));
  return g;
}

function figure(x, y, colour, label, shape = 'follower') {
  const el = shape === 'follower'
    ? s('path', { d: `M${x} ${y - 9} a4 4 0 1 1 0.1 0 M${x - 7} ${y + 8} q7 -16 14 0 z`, fill: colour, stroke: '#fff', 'stroke-width': 1.5, class: 'c-follower' })
    : s('circle', { cx: x, cy: y, r: 7, fill: colour, stroke: '#fff', 'stroke-width': 2, class: `c-${shape}` });
  el.append(s('title', {}, label));
  return el;
}

export function render(view, ctx) {
  const n = ctx.names;
  const placeMoves = ctx.moves.filter((m) => m.command.type === 'PlaceTile');
  placeMoves.forEach((m) => ctx.claimed.add(m));
  const byPlace = new Map();
  for (const m of placeMoves) {
    const k = `${m.command.x},${m.command.y}`;
    if (!byPlace.has(k)) byPlace.set(k, []);
    byPlace.get(k).push(m);
  }
  if (chosen.key && !byPlace.has(chosen.key)) chosen.key = null;
  const cells = [...view.tiles.map((t) => [t.x, t.y]), ...[...byPlace.keys()].map((k) => k.split(',').map(Number))];
  const minX = Math.min(0, ...cells.map((c) => c[0])) - 1;
  const minY = Math.min(0, ...cells.map((c) => c[1])) - 1;
  const maxX = Math.max(0, ...cells.map((c) => c[0])) + 1;
  const maxY = Math.max(0, ...cells.map((c) => c[1])) + 1;
  const svg = svgRoot((maxX - minX + 1) * T, (maxY - minY + 1) * T, 'The tile map');
  const at = (x, y) => [(x - minX) * T, (y - minY) * T];
  const tiles = new Map(view.tiles.map((t) => [`${t.x},${t.y}`, t]));

  for (const t of view.tiles) {
    const [px, py] = at(t.x, t.y);
    const g = tile(t);
    g.setAttribute('transform', `translate(${px},${py})`);
    g.setAttribute('data-tile', `${t.x},${t.y}`);
    g.append(s('title', {}, `${t.name} at ${t.x}, ${t.y}`));
    svg.append(g);
    for (let i = 0; i < t.ingots; i++) svg.append(s('rect', { x: px + 4 + i * 8, y: py + 4, width: 7, height: 5, class: 'c-ingot' }, s('title', {}, 'gold ingot')));
  }
  if (view.placed_this_turn) {
    const [px, py] = at(view.placed_this_turn.x, view.placed_this_turn.y);
    svg.append(s('rect', { x: px, y: py, width: T, height: T, class: 'c-last' }));
  }
  for (const f of view.followers) {
    const t = tiles.get(`${f.x},${f.y}`);
    const seg = t && t.segments.find((x) => x.segment === f.segment);
    if (!seg) continue;
    const [sx, sy] = spot(seg);
    const [px, py] = at(f.x, f.y);
    svg.append(figure(px + sx * T, py + sy * T, seatColour(f.seat), `${f.kind} of ${seatName(f.seat, n)}`));
  }
  for (const [name, spotOf] of [['mage', view.mage], ['witch', view.witch]]) {
    if (!spotOf) continue;
    const t = tiles.get(`${spotOf.x},${spotOf.y}`);
    const seg = t && t.segments.find((x) => x.segment === spotOf.segment);
    const [sx, sy] = seg ? spot(seg) : [0.5, 0.5];
    const [px, py] = at(spotOf.x, spotOf.y);
    svg.append(figure(px + sx * T + 6, py + sy * T + 6, name === 'mage' ? '#6a5acd' : '#222', name, name));
  }
  // Free places: choose one, then a rotation below.
  for (const [k, ms] of byPlace) {
    const [x, y] = k.split(',').map(Number);
    const [px, py] = at(x, y);
    const el = s('rect', { x: px + 3, y: py + 3, width: T - 6, height: T - 6, rx: 6, class: k === chosen.key ? 'place-target chosen' : 'place-target' });
    svg.append(clickable(el, `Place the tile at ${x}, ${y} (${ms.length} rotation${ms.length > 1 ? 's' : ''})`, () => { chosen.key = k; ctx.rerender(); }, { 'data-place': k }));
  }
  // Followers (and figures, gold) on the placed tile.
  const p = view.placed_this_turn;
  if (p) {
    const t = tiles.get(`${p.x},${p.y}`);
    const [px, py] = at(p.x, p.y);
    for (const m of ctx.moves.filter((mv) => mv.command.type === 'PlaceFollower')) {
      const seg = t && t.segments.find((x) => x.segment === m.command.segment);
      if (!seg) continue;
      ctx.claimed.add(m);
      const [sx, sy] = spot(seg);
      svg.append(moveTarget(s('circle', { cx: px + sx * T, cy: py + sy * T, r: 9, class: 'seg-target' }), m, `Put a follower on the ${seg.kind} (segment ${seg.segment})`, ctx));
    }
  }
  for (const m of ctx.moves.filter((mv) => mv.command.type === 'PlaceGoldIngot')) {
    ctx.claimed.add(m);
    const [px, py] = at(m.command.x, m.command.y);
    svg.append(moveTarget(s('rect', { x: px + 8, y: py + 8, width: T - 16, height: T - 16, class: 'gold-target' }), m, `Put the gold ingot on the tile at ${m.command.x}, ${m.command.y}`, ctx));
  }

  const wrap = h('div', { class: 'carcassonne' });
  const side = h('div', { class: 'c-side' });
  if (view.drawn_tile) {
    const preview = svgRoot(T + 8, T + 8, `Drawn tile: ${view.drawn_tile.name}`);
    const g = tile(view.drawn_tile);
    g.setAttribute('transform', 'translate(4,4)');
    preview.append(g);
    side.append(h('div', { class: 'drawn', 'data-drawn': view.drawn_tile.tile }, h('strong', {}, 'Drawn tile: '), view.drawn_tile.name, preview));
  }
  if (chosen.key && byPlace.has(chosen.key)) {
    const ms = byPlace.get(chosen.key);
    side.append(h('div', { class: 'rotations' }, h('p', {}, `Rotations at ${chosen.key}:`), ms.map((m) => {
      const pv = svgRoot(T + 8, T + 8, `turned ${m.command.rotation}°`);
      const g = tile(view.drawn_tile);
      g.setAttribute('transform', `translate(4,4) rotate(${m.command.rotation} ${T / 2} ${T / 2})`);
      pv.append(g);
      return h('button', { type: 'button', class: 'rotation', 'data-move': JSON.stringify(m.command), onclick: () => { chosen.key = null; ctx.play(m); } }, pv, `${m.command.rotation}°`);
    })));
  } else if (placeMoves.length) side.append(h('p', { class: 'muted' }, 'Choose a highlighted place on the map for the drawn tile.'));
  side.append(h('p', {}, `Tiles left: ${view.tiles_left}. Phase: ${view.phase.replace(/_/g, ' ')}.${view.gold_mines ? ` Gold in supply: ${view.gold_supply}.` : ''}`));
  side.append(h('ul', { class: 'players' }, view.players.map((pl) => h('li', { style: `border-left: 6px solid ${seatColour(pl.seat)}` },
    `${seatName(pl.seat, n)}: ${pl.score} points, ${pl.followers_at_home} followers at home${view.gold_mines ? `, ${pl.ingots} ingots` : ''}`))));
  wrap.append(h('div', { class: 'c-map' }, svg), side);
  return wrap;
}

export function describe(c) {
  switch (c.type) {
    case 'SkipFollower': return 'Place no follower';
    case 'PlaceFollower': return `Put a follower on segment ${c.segment}`;
    default: return null;
  }
}
