// Carcassonne: the tile map (cities, roads, fields, cloisters) with followers, the mage and the
// witch, gold; the drawn tile and, for a chosen free place, its legal rotations.

import { s, h, svgRoot, moveTarget, clickable, seatName, count, place, seatMark, seatShapeName, shapePath, swatch, SEAT_COLOUR_NAMES, lastFrame, lastMoveKey, rove, zoomable, legend, t, t as tr } from '../common.js';

const T = 64;
const chosen = { key: null, figureTile: null };
const DIR = { north: [0.5, 0], east: [1, 0.5], south: [0.5, 1], west: [0, 0.5] };
const HALF = [[0.25, 0.08], [0.75, 0.08], [0.92, 0.25], [0.92, 0.75], [0.75, 0.92], [0.25, 0.92], [0.08, 0.75], [0.08, 0.25]];
// A city on three sides, open to the south; turned for the other sides (see `turn`).
const CITY_THREE = [[0, 0], [1, 0], [1, 1], [0.72, 0.68], [0.28, 0.68], [0, 1]];
const QUARTERS_FROM_SOUTH = { south: 0, west: 1, north: 2, east: 3 };
const turn = (q) => ([x, y]) => { let p = [x, y]; for (let i = 0; i < q; i++) p = [1 - p[1], p[0]]; return p; };
const KIND_LABEL = new Proxy({}, { get: (_, kind) => t(`cc.label.${String(kind)}`) });
const FIGURE = { mage: { colour: '#6a5acd', get text() { return t('cc.ui.mage'); } }, witch: { colour: '#222', get text() { return t('cc.ui.witch'); } } };
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

/** A gold mine: a pile of three nuggets (no player's piece looks like it). */
const goldMark = (x, y, r = 3.2) => s('g', { class: 'c-mark gold' }, ...[[-r, r * 0.9], [r, r * 0.9], [0, -r * 0.8]].map(([a, b]) => s('circle', { cx: x + a, cy: y + b, r })));

/** A tile drawn in a T × T box at the origin, as its edges and segments say. */
export function tile(t) {
  const g = s('g', { class: 'c-tile' }, s('rect', { width: T, height: T, class: 'c-field' }));
  const scale = (pts) => pts.split(' ').map((p) => p.split(',').map((v) => Number(v) * T).join(',')).join(' ');
  const big = t.segments.find((seg) => seg.kind === 'city' && seg.edges.length === 3);
  for (const seg of t.segments) {
    if (seg.kind !== 'city') continue;
    if (seg.edges.length === 4) g.append(s('rect', { x: 0, y: 0, width: T, height: T, class: 'c-city' }));
    else if (seg.edges.length === 3) {
      const open = ['north', 'east', 'south', 'west'].find((d) => !seg.edges.includes(d));
      const pts = CITY_THREE.map(turn(QUARTERS_FROM_SOUTH[open])).map(([x, y]) => `${x * T},${y * T}`).join(' ');
      g.append(s('polygon', { points: pts, class: 'c-city' }));
    }
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
      // A road into a three-sided city ends at the city's wall.
      const k = big && seg.edges.length === 1 ? 0.36 : 1;
      g.append(s('line', { x1: x * T, y1: y * T, x2: (x + (0.5 - x) * k) * T, y2: (y + (0.5 - y) * k) * T, class: 'c-road' }));
    }
    if (seg.edges.length === 1 && !big) g.append(s('circle', { cx: T / 2, cy: T / 2, r: 4, class: 'c-crossing' }));
  }
  // A chapel (body and roof), so that it is not mistaken for a player's square follower.
  if (t.cloister) g.append(s('path', { d: `M${T * 0.38} ${T * 0.68} V${T * 0.46} L${T * 0.5} ${T * 0.32} L${T * 0.62} ${T * 0.46} V${T * 0.68} Z`, class: 'c-cloister' }));
  // Drawn signs, not characters: a star for magic, a diamond for a gold mine.
  if (t.magic) g.append(s('path', { d: shapePath('star', 10, T - 10, 7), class: 'c-mark' }));
  if (t.gold) g.append(goldMark(T - 11, T - 10));
  g.append(s('rect', { width: T, height: T, class: 'c-edge' }));
  return g;
}

/** A follower: its seat's shape in its seat's colour (the key beside the map says whose). */
function follower(x, y, seat, label) {
  const el = seatMark(seat, x, y, 7, { class: 'c-follower', 'data-seat': seat, 'data-shape': seatShapeName(seat) });
  el.append(s('title', {}, label));
  return el;
}

/** The mage or the witch: a star, never a seat's shape. */
function magicFigure(x, y, name, r = 8) {
  return s('path', { d: shapePath('star', x, y, r), fill: FIGURE[name].colour, stroke: '#fff', 'stroke-width': 1.5, class: `c-${name}`, 'data-figure': name }, s('title', {}, t(`cc.label.${name}`)));
}

/**
 * The width of a feature's target in the picker, in tile units (a tile is 64): room for the
 * widest label in either language ("Cloister", 24 units in DejaVu Sans Bold at 5.5) with a
 * margin for wider faces, and still two columns on a tile when the targets crowd.
 */
export const PICK_WIDTH = 28;

/**
 * A choice of features on one tile, drawn large: one labelled target per feature (and figure),
 * each on its feature and apart from the others (a tap target of about 105 × 45 px on a desktop). The
 * follower step uses it on the tile just placed, the mage and the witch on the tile chosen.
 */
function segmentPicker(t, choices, intro, ctx) {
  const W = PICK_WIDTH;
  // A figure's target names the figure and the feature on two lines (on one they would not fit).
  const twoLines = choices.some((c) => Array.isArray(c.text));
  const H = twoLines ? 17 : 12;
  const picks = choices.map((c) => {
    const seg = t.segments.find((x) => x.segment === c.m.command.segment);
    const [x, y] = spot(seg);
    return { ...c, seg, x: x * T, y: y * T };
  });
  separate(picks, W + 2, H + 2);
  const svg = svgRoot(T, T, tr('cc.ui.placed_tile', { x: t.x, y: t.y }));
  svg.setAttribute('role', 'group');
  svg.append(tile(t));
  for (const p of picks) {
    const g = s('g', { class: `c-pick k-${p.seg.kind}`, 'data-kind': p.seg.kind },
      s('rect', { x: p.x - W / 2, y: p.y - H / 2, width: W, height: H, rx: 3 }),
      Array.isArray(p.text)
        ? s('text', { x: p.x, y: p.y - 1.5, 'text-anchor': 'middle' }, s('tspan', { x: p.x }, p.text[0]), s('tspan', { x: p.x, dy: 6 }, p.text[1]))
        : s('text', { x: p.x, y: p.y + 2, 'text-anchor': 'middle' }, p.text));
    svg.append(moveTarget(g, p.m, p.aria, ctx));
  }
  return h('div', { class: 'c-zoom' }, h('p', {}, intro), rove(svg, 'carcassonne-picker'));
}

function followerPicker(t, moves, ctx) {
  const role = { field: 'farmer', road: 'thief', city: 'knight' };
  const choices = moves.map((m) => {
    const seg = t.segments.find((x) => x.segment === m.command.segment);
    return { m, text: KIND_LABEL[seg.kind] || seg.kind, aria: tr('cc.ui.follower_on', { feature: tr(`cc.feature.${seg.kind}`), role: tr(`cc.role.${role[seg.kind] || 'monk'}`) }) };
  });
  return segmentPicker(t, choices, [h('strong', {}, tr('cc.ui.your_follower')), tr('cc.ui.follower_help', { skip: tr('mv.SkipFollower') })], ctx);
}

function figurePicker(t, moves, ctx) {
  const choices = moves.map((m) => {
    const seg = t.segments.find((x) => x.segment === m.command.segment);
    const fig = m.command.figure === 'mage' ? tr('boards.c.mage') : tr('boards.c.witch');
    return { m, text: [fig, KIND_LABEL[seg.kind] || seg.kind], aria: tr('boards.c.put_figure', { figure: fig, feature: KIND_LABEL[seg.kind] || seg.kind, at: `${t.x}, ${t.y}` }) };
  });
  return segmentPicker(t, choices, [h('strong', {}, tr('boards.c.figure_title')), ' ', tr('boards.c.figure_intro', { at: `${t.x}, ${t.y}` })], ctx);
}

/** Moves boxes of w × h centred on (x, y) apart and inside the tile; a grid if that fails. */
function separate(items, w, hgt) {
  const clamp = (v, half) => Math.min(T - half, Math.max(half, v));
  // Inside the tile first: a field's spot near a corner would put half its label off the tile.
  for (const it of items) { it.x = clamp(it.x, w / 2); it.y = clamp(it.y, hgt / 2); }
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i];
        const b = items[j];
        const ox = w - Math.abs(a.x - b.x);
        const oy = hgt - Math.abs(a.y - b.y);
        if (ox <= 0 || oy <= 0) continue;
        moved = true;
        // Apart along the axis that needs the smaller push; side by side when they coincide.
        if (ox < oy) {
          const d = (a.x < b.x || (a.x === b.x && i < j) ? -1 : 1) * (ox / 2 + 0.1);
          a.x = clamp(a.x + d, w / 2); b.x = clamp(b.x - d, w / 2);
        } else {
          const d = (a.y < b.y || (a.y === b.y && i < j) ? -1 : 1) * (oy / 2 + 0.1);
          a.y = clamp(a.y + d, hgt / 2); b.y = clamp(b.y - d, hgt / 2);
        }
      }
    }
    if (!moved) return;
  }
  // Still crowded: two columns, top to bottom in the order given.
  items.forEach((it, i) => { it.x = T / 2 + (i % 2 ? w / 2 : -w / 2); it.y = hgt / 2 + Math.floor(i / 2) * hgt; });
}

/** Moves by the place they name (`x,y`). */
function byCell(moves) {
  const cells = new Map();
  for (const m of moves) {
    const k = `${m.command.x},${m.command.y}`;
    if (!cells.has(k)) cells.set(k, []);
    cells.get(k).push(m);
  }
  return cells;
}

export function render(view, ctx) {
  const placeMoves = ctx.moves.filter((m) => m.command.type === 'PlaceTile');
  placeMoves.forEach((m) => ctx.claimed.add(m));
  const byPlace = byCell(placeMoves);
  if (chosen.key && !byPlace.has(chosen.key)) chosen.key = null;
  const cells = [...view.tiles.map((t) => [t.x, t.y]), ...[...byPlace.keys()].map((k) => k.split(',').map(Number))];
  const minX = Math.min(0, ...cells.map((c) => c[0])) - 1;
  const minY = Math.min(0, ...cells.map((c) => c[1])) - 1;
  const maxX = Math.max(0, ...cells.map((c) => c[0])) + 1;
  const maxY = Math.max(0, ...cells.map((c) => c[1])) + 1;
  const svg = svgRoot((maxX - minX + 1) * T, (maxY - minY + 1) * T, t('cc.ui.map'));
  const map = { svg, at: (x, y) => [(x - minX) * T, (y - minY) * T], tiles: new Map(view.tiles.map((t) => [`${t.x},${t.y}`, t])) };
  drawPieces(map, view, ctx);
  // The mage or the witch onto a road or city: choose a tile on the map, then the feature on the
  // tile drawn large beside it (the first tile offered is shown at once).
  const figureMoves = ctx.moves.filter((m) => m.command.type === 'PlaceMageOrWitch');
  figureMoves.forEach((m) => ctx.claimed.add(m));
  const byFigureTile = byCell(figureMoves);
  if (!byFigureTile.has(chosen.figureTile)) chosen.figureTile = byFigureTile.size ? [...byFigureTile.keys()][0] : null;
  drawTargets(map, ctx, byFigureTile, byPlace);
  // The last move: the tile it was made on, framed.
  const lastAt = (ctx.recent || []).find((e) => ['TilePlaced', 'StartTilePlaced', 'FollowerPlaced', 'MageOrWitchPlaced', 'GoldIngotPlaced'].includes(e.type));
  const framed = view.placed_this_turn || lastAt;
  if (framed && map.tiles.has(`${framed.x},${framed.y}`)) {
    const [px, py] = map.at(framed.x, framed.y);
    svg.append(lastFrame(px + 4, py + 4, T - 8, T - 8));
  }
  // What to do now (above the map on a phone, beside it on a wide screen), then the key.
  const act = actPanel(view, ctx, map.tiles, byFigureTile, byPlace, placeMoves.length > 0);
  // The map zooms and pans; it opens at full size around the newest tile.
  const focusAt = framed ? map.at(framed.x, framed.y) : map.at(0, 0);
  const zoomed = zoomable(rove(svg, 'carcassonne'), { key: 'carcassonne', open: 'fill', origin: [minX * T, minY * T], focus: [focusAt[0] + T / 2, focusAt[1] + T / 2] });
  return h('div', { class: 'carcassonne' }, act, h('div', { class: 'c-map' }, zoomed), infoPanel(view, ctx));
}

/** The tiles with their ingots, the followers, and the mage and the witch (tap one to take it off, where that is a move). */
function drawPieces({ svg, at, tiles }, view, ctx) {
  const n = ctx.names;
  for (const t of view.tiles) {
    const [px, py] = at(t.x, t.y);
    const g = tile(t);
    g.setAttribute('transform', `translate(${px},${py})`);
    g.setAttribute('data-tile', `${t.x},${t.y}`);
    g.append(s('title', {}, tr('cc.ui.tile_at', { name: tr(`cc.tile.${t.tile}`), x: t.x, y: t.y })));
    svg.append(g);
    for (let i = 0; i < t.ingots; i++) svg.append(s('rect', { x: px + 4 + i * 8, y: py + 4, width: 7, height: 5, class: 'c-ingot' }, s('title', {}, tr('cc.ui.ingot'))));
  }
  for (const f of view.followers) {
    const t = tiles.get(`${f.x},${f.y}`);
    const seg = t && t.segments.find((x) => x.segment === f.segment);
    if (!seg) continue;
    const [sx, sy] = spot(seg);
    const [px, py] = at(f.x, f.y);
    svg.append(follower(px + sx * T, py + sy * T, f.seat, tr('cc.ui.follower_of', { who: seatName(f.seat, n), feature: tr(`cc.feature.${f.kind}`) })));
  }
  for (const [name, spotOf] of [['mage', view.mage], ['witch', view.witch]]) {
    if (!spotOf) continue;
    const t = tiles.get(`${spotOf.x},${spotOf.y}`);
    const seg = t && t.segments.find((x) => x.segment === spotOf.segment);
    const [sx, sy] = seg ? spot(seg) : [0.5, 0.5];
    const [px, py] = at(spotOf.x, spotOf.y);
    const fig = magicFigure(px + sx * T + 6, py + sy * T + 6, name);
    const off = ctx.moves.find((m) => m.command.type === 'RemoveMageOrWitch' && m.command.figure === name);
    if (off) {
      // Taking a figure off: tap the figure (a disc around it is what a finger hits).
      ctx.claimed.add(off);
      svg.append(moveTarget(s('g', { class: 'figure-target' }, s('circle', { cx: px + sx * T + 6, cy: py + sy * T + 6, r: 23, class: 'ring' }), fig), off, tr('boards.c.remove_figure', { figure: tr(`boards.c.${name}`) }), ctx));
    } else svg.append(fig);
  }
}

/** The map's targets: the tiles a figure may go to, the free places for the tile (then a rotation beside), the places for a gold ingot. */
function drawTargets({ svg, at }, ctx, byFigureTile, byPlace) {
  for (const [k, ms] of byFigureTile) {
    const [x, y] = k.split(',').map(Number);
    const [px, py] = at(x, y);
    const el = s('rect', { x: px + 3, y: py + 3, width: T - 6, height: T - 6, rx: 6, class: k === chosen.figureTile ? 'place-target chosen' : 'place-target' });
    svg.append(clickable(el, tr('boards.c.figure_tile', { at: `${x}, ${y}`, n: ms.length }), () => { chosen.figureTile = k; ctx.rerender(); }, { 'data-figure-tile': k }));
  }
  for (const [k, ms] of byPlace) {
    const [x, y] = k.split(',').map(Number);
    const [px, py] = at(x, y);
    const el = s('rect', { x: px + 3, y: py + 3, width: T - 6, height: T - 6, rx: 6, class: k === chosen.key ? 'place-target chosen' : 'place-target' });
    svg.append(clickable(el, t('cc.ui.place_at', { x, y, n: ms.length }), () => { chosen.key = k; ctx.rerender(); }, { 'data-place': k }));
  }
  for (const m of ctx.moves.filter((mv) => mv.command.type === 'PlaceGoldIngot')) {
    ctx.claimed.add(m);
    const [px, py] = at(m.command.x, m.command.y);
    svg.append(moveTarget(s('rect', { x: px + 8, y: py + 8, width: T - 16, height: T - 16, class: 'gold-target' }), m, t('mv.PlaceGoldIngot', { x: m.command.x, y: m.command.y }), ctx));
  }
}

/** What to do now: the followers on the placed tile, the figure's feature, the drawn tile, and its rotations at the chosen place. */
function actPanel(view, ctx, tiles, byFigureTile, byPlace, placing) {
  const act = h('div', { class: 'c-side c-act' });
  // Followers on the placed tile: chosen on the tile drawn large beside the map.
  const p = view.placed_this_turn;
  if (p) {
    const placed = tiles.get(`${p.x},${p.y}`);
    const ms = ctx.moves.filter((mv) => mv.command.type === 'PlaceFollower' && placed && placed.segments.some((x) => x.segment === mv.command.segment));
    if (ms.length) {
      ms.forEach((m) => ctx.claimed.add(m));
      act.append(followerPicker(placed, ms, ctx));
    }
  }
  if (chosen.figureTile) {
    const ft = tiles.get(chosen.figureTile);
    if (ft) act.append(figurePicker(ft, byFigureTile.get(chosen.figureTile), ctx));
  }
  if (view.drawn_tile) {
    const preview = svgRoot(T + 8, T + 8, `${t('cc.ui.drawn')} ${t(`cc.tile.${view.drawn_tile.tile}`)}`);
    const g = tile(view.drawn_tile);
    g.setAttribute('transform', 'translate(4,4)');
    preview.append(g);
    act.append(h('div', { class: 'drawn', 'data-drawn': view.drawn_tile.tile }, h('strong', {}, `${t('cc.ui.drawn')} `), t(`cc.tile.${view.drawn_tile.tile}`), preview));
  }
  if (chosen.key && byPlace.has(chosen.key)) {
    const ms = byPlace.get(chosen.key);
    act.append(h('div', { class: 'rotations' }, h('p', {}, t('cc.ui.rotations', { at: chosen.key })), ms.map((m) => {
      const pv = svgRoot(T + 8, T + 8, t('cc.ui.turned', { deg: m.command.rotation }));
      const g = tile(view.drawn_tile);
      g.setAttribute('transform', `translate(4,4) rotate(${m.command.rotation} ${T / 2} ${T / 2})`);
      pv.append(g);
      return h('button', { type: 'button', class: 'rotation', 'data-move': JSON.stringify(m.command), onclick: () => { chosen.key = null; ctx.play(m); } }, pv, `${m.command.rotation}°`);
    })));
  } else if (placing) act.append(h('p', { class: 'muted' }, t('cc.ui.choose_place')));
  return act;
}

/** The facts (tiles left, phase, gold), the key (whose pieces are whose, by colour and shape; the figures) and the legend. */
function infoPanel(view, ctx) {
  const n = ctx.names;
  const side = h('div', { class: 'c-side c-info' });
  side.append(h('p', {}, `${t('cc.ui.tiles_left', { n: view.tiles_left })} ${t('ui.phase', { phase: t(`cc.phase.${view.phase}`) })}.${view.gold_mines ? ` ${t('cc.ui.gold_supply', { n: view.gold_supply })}` : ''}`));
  const key = view.players.map((pl) => {
    const look = t('cc.ui.look', { colour: t(`colour.${SEAT_COLOUR_NAMES[pl.seat % SEAT_COLOUR_NAMES.length]}`), shape: t(`shape.${seatShapeName(pl.seat)}`) });
    return h('li', { 'data-key-seat': pl.seat },
      swatch(seatMark(pl.seat, 12, 12, 9, { 'data-shape': seatShapeName(pl.seat) }), look),
      h('span', {}, h('strong', {}, seatName(pl.seat, n)), pl.seat === ctx.seat ? t('ui.you') : '', ` — ${look}: ${count(pl.score, 'point')}, ${t('cc.ui.at_home', { followers: count(pl.followers_at_home, 'follower') })}${view.gold_mines ? `, ${count(pl.ingots, 'ingot')}` : ''}`));
  });
  if (view.mage_and_witch) {
    for (const name of ['mage', 'witch']) key.push(h('li', { 'data-key-figure': name }, swatch(magicFigure(12, 12, name, 10), t('cc.ui.figure_star', { figure: t(`cc.label.${name}`) })), h('span', {}, FIGURE[name].text)));
  }
  side.append(h('h3', { class: 'key-h' }, t('cc.ui.key')), h('ul', { class: 'players c-key', id: 'key' }, key));
  const signs = [lastMoveKey()];
  if (view.tiles.some((x) => x.magic)) signs.push([swatch(s('path', { d: shapePath('star', 12, 12, 9), class: 'c-mark' }), ''), tr('boards.c.magic')]);
  if (view.gold_mines) signs.push([swatch(goldMark(12, 12, 4.5), ''), tr('boards.c.gold')]);
  side.append(legend(signs, tr('boards.legend')));
  return side;
}

export function describe(c) {
  switch (c.type) {
    case 'SkipFollower': return t('mv.SkipFollower');
    case 'PlaceFollower': return t('mv.PlaceFollower', { segment: place(c.segment) });
    default: return null;
  }
}
