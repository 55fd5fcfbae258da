// Mauerbauer: the triangle board drawn from the geometry in the view (vertices, lines, fields),
// with walls, towers, houses, closed cities and their palaces; a free line is a wall to build.

import { s, h, svgRoot, moveTarget, clickable, seatName, count, place, shapePath, swatch, lastFrame, lastMark, lastMoveKey, rove, zoomable, legend, t, t as tr } from '../common.js';

const U = 110;
const PAD = 24;
export const HOUSE = { yellow: '#e6b800', green: '#2e8b3e', blue: '#2f6fd6', pink: '#e36fb0', red: '#c8322b' };
// Each building colour has its shape too, so that the five tell apart without colour vision.
export const HOUSE_SHAPE = { yellow: 'circle', green: 'triangle', blue: 'square', pink: 'diamond', red: 'hexagon' };
const house = (c, x, y, r, attrs = {}) => s('path', { d: shapePath(HOUSE_SHAPE[c] || 'circle', x, y, r), fill: HOUSE[c] || c, stroke: '#1b1b1b', 'stroke-width': 1.2, class: 'house', 'data-colour': c, ...attrs }, s('title', {}, t('boards.m.house', { colour: t(`boards.colour.${c}`) })));
// A palace: the colour's shape, larger, with a white core.
const palace = (c, x, y) => s('g', { class: 'palace', 'data-colour': c }, s('path', { d: shapePath(HOUSE_SHAPE[c] || 'circle', x, y, 10), fill: HOUSE[c] || c, stroke: '#1b1b1b', 'stroke-width': 2.5 }), s('path', { d: shapePath(HOUSE_SHAPE[c] || 'circle', x, y, 3.5), fill: '#fff' }), s('title', {}, t('boards.m.palace', { colour: t(`boards.colour.${c}`) })));
const TOWER = { white: '#fafafa', grey: '#8c8c8c', black: '#222' };
const REGION = ['#f3ecd9', '#e6efd8', '#dfe9f2', '#f2e0e0', '#ece3f3'];

// Towers and houses are placed by tapping the board: a corner (tower) or a field (house), then
// the colour when more than one may go there. A move places one or two pieces, so the pieces
// tapped so far (`chosen`) narrow the legal moves until one is complete.
const PLACING = {
  PlaceTowers: { what: 'tower', where: 'corner', items: (c) => c.towers.map((t) => ({ colour: t.colour, at: t.vertex })) },
  PlaceHouses: { what: 'house', where: 'field', items: (c) => c.houses.map((x) => ({ colour: x.colour, at: x.field })) },
};
const pick = { key: null, chosen: [], at: null };
// The guild cards chosen in the hand to lay (one or two), as on the table before laying them.
const lay = { cards: [] };
const itemKey = (it) => `${it.colour}@${it.at}`;

/** What is left of `items` once `chosen` is taken out of it, or null when `chosen` does not fit. */
function without(items, chosen) {
  const left = items.map(itemKey);
  for (const c of chosen) {
    const i = left.indexOf(itemKey(c));
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return items.filter((it) => { const i = left.indexOf(itemKey(it)); if (i < 0) return false; left.splice(i, 1); return true; });
}

/** The placing moves still open after the pieces chosen so far, with what each still needs. */
function placing(ctx) {
  const moves = ctx.moves.filter((m) => PLACING[m.command.type]);
  const key = JSON.stringify(moves.map((m) => m.command));
  if (pick.key !== key) { pick.key = key; pick.chosen = []; pick.at = null; }
  const open = [];
  for (const m of moves) {
    const left = without(PLACING[m.command.type].items(m.command), pick.chosen);
    if (left) open.push({ m, left });
  }
  return { moves, open };
}

function choose(item, open, ctx) {
  pick.chosen.push(item);
  pick.at = null;
  const fits = open.map((o) => ({ m: o.m, left: without(o.left, [item]) })).filter((o) => o.left);
  const complete = fits.filter((o) => o.left.length === 0);
  // Complete and nothing larger still possible: send it.
  if (complete.length && fits.every((o) => o.left.length === 0)) {
    const m = complete[0].m;
    pick.chosen = [];
    ctx.play(m);
    return;
  }
  ctx.rerender();
}

export function render(view, ctx) {
  const geo = geometry(view.board);
  const svg = svgRoot(geo.W, geo.H, t('mb.ui.aria'));
  drawFields(svg, geo);
  drawCities(svg, geo, view, ctx);
  drawLines(svg, geo, ctx);
  for (const v of geo.b.vertices) {
    if (!v.tower) continue;
    const [x, y] = geo.P(v);
    svg.append(s('circle', { cx: x, cy: y, r: 8, fill: TOWER[v.tower] || v.tower, stroke: '#000', 'stroke-width': 1.5, class: 'tower', 'data-tower': v.id }, s('title', {}, t('mb.ui.tower', { colour: t(`mb.colour.${v.tower}`) }))));
  }
  const bar = placingBar(svg, geo, ctx);
  markLast(svg, geo, view, ctx);
  const signs = Object.keys(HOUSE).map((c) => [swatch(house(c, 12, 12, 8), ''), t('boards.m.colour', { colour: t(`boards.colour.${c}`), shape: t(`boards.shape.${HOUSE_SHAPE[c]}`) })]);
  signs.push([swatch(palace('blue', 12, 12), ''), t('boards.m.palace_key')]);
  signs.push(lastMoveKey());

  const n = ctx.names;
  const wrap = h('div', { class: 'mauerbauer' }, bar, zoomable(rove(svg, 'mauerbauer'), { key: 'mauerbauer', minScale: 0.8, focus: focusOf(svg, geo) }), legend(signs, t('boards.legend')));
  const facts = [t('ui.phase', { phase: t(`mb.phase.${view.phase}`) })];
  if (view.dice) facts.push(t(view.dice.tower ? 'mb.ui.dice_tower' : 'mb.ui.dice', { houses: view.dice.houses.map((c) => t(`mb.colour.${c}`)).join(', '), tower: t(`mb.colour.${view.dice.tower}`) }));
  if (view.built !== null && view.built !== undefined) facts.push(t('mb.ui.built', { line: place(view.built) }));
  if (view.draw_pile !== null && view.draw_pile !== undefined) facts.push(t('mb.ui.draw_pile', { n: view.draw_pile }));
  wrap.append(h('p', {}, `${facts.join('; ')}.`));
  const laying = layState(ctx);
  wrap.append(h('ul', { class: 'players' }, view.players.map((p) => h('li', { 'data-player': p.seat },
    `${seatName(p.seat, n)}${p.seat === ctx.seat ? t('ui.you') : ''}: ${count(p.score, 'point')}, ${count(p.hand_count, 'guild card')}`,
    p.hand ? h('ul', { 'data-guild-hand': p.seat }, p.hand.map((c) => h('li', {}, cardText(view, c), handMoves(c, ctx, p.seat === ctx.seat ? laying : null)))) : '',
    p.seat === ctx.seat ? layBox(laying, ctx) : ''))));
  return wrap;
}

/** Where the board's corners and fields are drawn: `P(vertex)` and `centre(field)` in SVG units, the size `W` × `H`. */
function geometry(b) {
  const xs = b.vertices.map((v) => v.x);
  const ys = b.vertices.map((v) => v.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const P = (v) => [(v.x - minX) * U + PAD, (v.y - minY) * U + PAD];
  const vert = new Map(b.vertices.map((v) => [v.id, v]));
  return {
    b,
    P,
    vert,
    W: (Math.max(...xs) - minX) * U + 2 * PAD,
    H: (Math.max(...ys) - minY) * U + 2 * PAD,
    centre: (f) => [(f.x - minX) * U + PAD, (f.y - minY) * U + PAD],
    outline: (f) => f.vertices.map((id) => P(vert.get(id)).join(',')).join(' '),
  };
}

/** The fields, coloured by region (a city's in sand), with their houses. */
function drawFields(svg, geo) {
  const { b } = geo;
  const regions = [...new Set(b.fields.map((f) => f.region))].sort();
  for (const f of b.fields) {
    const cls = f.city !== null && f.city !== undefined ? 'mb-field city' : 'mb-field';
    svg.append(s('polygon', { points: geo.outline(f), class: cls, fill: f.city !== null && f.city !== undefined ? '#d9c79e' : REGION[regions.indexOf(f.region) % REGION.length], 'data-field': f.id }, s('title', {}, t('mb.ui.field', { id: place(f.id), region: f.region }))));
    const [cx, cy] = geo.centre(f);
    const houses = Object.entries(f.houses).flatMap(([c, k]) => Array(k).fill(c));
    houses.forEach((c, i) => svg.append(house(c, cx - 15 + (i % 3) * 15, cy - 4 + Math.floor(i / 3) * 15, 6.5)));
  }
}

/** Closed cities: their palaces at the first field's centre, and their names (tap one to choose it in the final scoring). */
function drawCities(svg, geo, view, ctx) {
  for (const c of view.cities) {
    const f = geo.b.fields.find((x) => x.id === c.fields[0]);
    if (!f) continue;
    const [cx, cy] = geo.centre(f);
    const palaces = Object.entries(c.palaces || {}).flatMap(([col, k]) => Array(k).fill(col));
    palaces.forEach((col, i) => svg.append(palace(col, cx - 14 + i * 24, cy + 22)));
    const label = s('g', { class: 'city-label', 'data-city': c.id }, s('text', { x: cx, y: cy - 12, 'text-anchor': 'middle', class: 'mb-text' }, t('mb.ui.city', { id: place(c.id) })));
    const chosen = ctx.moves.find((m) => m.command.type === 'ChooseFinalCity' && m.command.city === c.id);
    if (chosen) {
      ctx.claimed.add(chosen);
      label.prepend(s('rect', { x: cx - 40, y: cy - 36, width: 80, height: 44, rx: 8, class: 'city-target' }));
      moveTarget(label, chosen, t('mv.ChooseFinalCity', { city: place(c.id) }), ctx);
    }
    svg.append(label);
  }
}

/** The lines: walls, the rim, open lines; where a wall may be built, a band to tap along it. */
function drawLines(svg, geo, ctx) {
  const walls = new Map(ctx.moves.filter((m) => m.command.type === 'BuildWall').map((m) => [m.command.line, m]));
  for (const l of geo.b.lines) {
    const [a, c] = l.vertices.map((id) => geo.P(geo.vert.get(id)));
    svg.append(s('line', { x1: a[0], y1: a[1], x2: c[0], y2: c[1], class: l.wall ? 'mb-wall' : l.rim ? 'mb-rim' : 'mb-line', 'data-line': l.id }));
    const m = walls.get(l.id);
    if (!m) continue;
    ctx.claimed.add(m);
    // A band along the line, as wide as a finger in the middle and narrow at the corners,
    // so that the bands of neighbouring lines never overlap.
    const [dx, dy] = [c[0] - a[0], c[1] - a[1]];
    const len = Math.hypot(dx, dy) || 1;
    const [ux, uy] = [dx / len, dy / len];
    const [nx, ny] = [-uy * 28, ux * 28];
    const tip = 16;
    const band = [[a[0] + ux * tip, a[1] + uy * tip], [(a[0] + c[0]) / 2 + nx, (a[1] + c[1]) / 2 + ny], [c[0] - ux * tip, c[1] - uy * tip], [(a[0] + c[0]) / 2 - nx, (a[1] + c[1]) / 2 - ny]];
    svg.append(moveTarget(s('g', { class: 'line-target' }, s('polygon', { points: band.map((p) => p.join(',')).join(' '), class: 'hit' }), s('line', { x1: a[0], y1: a[1], x2: c[0], y2: c[1], class: 'stroke' })), m, t('mv.BuildWall', { line: place(l.id) }), ctx));
  }
}

/**
 * Placing towers or houses piece by piece: the corners or fields where the next piece may go (a
 * tap places it, or asks its colour where several may), the pieces tapped so far, and a bar with
 * the colours, "place these" and "start over". Null when nothing is to be placed.
 */
function placingBar(svg, geo, ctx) {
  const { moves: placeMoves, open } = placing(ctx);
  placeMoves.forEach((m) => ctx.claimed.add(m));
  if (!open.length) return null;
  const spec = PLACING[open[0].m.command.type];
  // Where the next piece may go, and in which colours.
  const spots = new Map();
  for (const o of open) for (const it of o.left) {
    if (!spots.has(it.at)) spots.set(it.at, new Set());
    spots.get(it.at).add(it.colour);
  }
  const tap = (at) => {
    const colours = [...spots.get(at)];
    if (colours.length === 1) choose({ colour: colours[0], at }, open, ctx);
    else { pick.at = at; ctx.rerender(); }
  };
  for (const [at, colours] of spots) {
    const label = t(`mb.ui.place_${spec.what}_here`, { colours: [...colours].map((c) => t(`mb.colour.${c}`)).join(` ${t('or')} `) });
    if (spec.where === 'corner') {
      const [x, y] = geo.P(geo.vert.get(at));
      svg.append(clickable(s('g', { class: pick.at === at ? 'spot-target chosen' : 'spot-target' },
        // The ring shows the corner; the clear disc around it is what a finger hits (corners
        // are 110 apart, so a radius of 40 stays apart and is 44 px across on a phone).
        s('circle', { cx: x, cy: y, r: 40, class: 'hit' }), s('circle', { cx: x, cy: y, r: 22, class: 'ring' }), s('circle', { cx: x, cy: y, r: 6, class: 'dot' })), label, () => tap(at), { 'data-spot': `corner-${at}` }));
    } else {
      const f = geo.b.fields.find((x) => x.id === at);
      if (!f) continue;
      const [cx, cy] = geo.centre(f);
      svg.append(clickable(s('g', { class: pick.at === at ? 'spot-target field chosen' : 'spot-target field' },
        s('polygon', { points: geo.outline(f) }), s('text', { x: cx, y: cy + 20, 'text-anchor': 'middle', class: 'plus' }, '+')), label, () => tap(at), { 'data-spot': `field-${at}` }));
    }
  }
  // The pieces tapped so far, drawn where they go.
  for (const it of pick.chosen) {
    if (spec.where === 'corner') {
      const [x, y] = geo.P(geo.vert.get(it.at));
      svg.append(s('circle', { cx: x, cy: y, r: 8, fill: TOWER[it.colour], stroke: '#ff9f1c', 'stroke-width': 3, class: 'tower pending' }));
    } else {
      const f = geo.b.fields.find((x) => x.id === it.at);
      if (f) { const [cx, cy] = geo.centre(f); svg.append(house(it.colour, cx, cy + 14, 8, { stroke: '#b36200', 'stroke-width': 3, class: 'house pending' })); }
    }
  }
  const complete = open.filter((o) => o.left.length === 0);
  return h('div', { class: 'placing', id: 'placing' },
    h('p', {}, pick.chosen.length
      ? `${t('mb.ui.placed_so_far', { pieces: pick.chosen.map((c) => t(`mb.ui.${spec.what}`, { colour: t(`mb.colour.${c.colour}`) })).join(', ') })} `
      : '', t(`mb.ui.tap_${spec.what}`)),
    pick.at !== null && spots.has(pick.at) ? h('div', { class: 'row' }, h('span', {}, t('mb.ui.colour')), [...spots.get(pick.at)].map((c) => h('button', { type: 'button', class: `colour c-${c}`, 'data-pick-colour': c,
      onclick: () => choose({ colour: c, at: pick.at }, open, ctx) }, swatch(spec.what === 'house' ? house(c, 12, 12, 8) : s('circle', { cx: 12, cy: 12, r: 8, fill: TOWER[c] || c, stroke: '#000', 'stroke-width': 1.5 }), ''), ' ', t(`mb.colour.${c}`)))) : '',
    h('div', { class: 'row' },
      complete.length ? h('button', { type: 'button', id: 'place-done', onclick: () => { pick.chosen = []; ctx.play(complete[0].m); } }, t(pick.chosen.length === 1 ? 'mb.ui.place_one' : 'mb.ui.place_these')) : '',
      pick.chosen.length || pick.at !== null ? h('button', { type: 'button', class: 'link', onclick: () => { pick.chosen = []; pick.at = null; ctx.rerender(); } }, t('mb.ui.start_over')) : ''));
}

/**
 * The last move: the wall built, the towers or houses placed, the city closed or chosen. The
 * newest event that can be drawn: a guild card laid for no city (or for a city since joined into
 * another) names nothing on the board, so the mark goes to the move before it.
 */
function markLast(svg, geo, view, ctx) {
  const { b, P, vert } = geo;
  const cities = new Map(view.cities.map((c) => [c.id, c]));
  const frameField = (id) => {
    const f = b.fields.find((x) => x.id === id);
    if (f) svg.append(lastMark(s('polygon', { points: geo.outline(f) })));
    return !!f;
  };
  const marked = (e) => {
    if (e.type === 'WallBuilt') {
      const l = b.lines.find((x) => x.id === e.line);
      if (l) { const [a, c] = l.vertices.map((id) => P(vert.get(id))); svg.append(lastMark(s('line', { x1: a[0], y1: a[1], x2: c[0], y2: c[1] }))); }
      return !!l;
    }
    if (e.type === 'TowersPlaced') {
      const at = (e.towers || []).map((tw) => vert.get(tw.vertex)).filter(Boolean);
      for (const v of at) { const [x, y] = P(v); svg.append(lastFrame(x - 12, y - 12, 24, 24, 14)); }
      return at.length > 0;
    }
    if (e.type === 'HousesPlaced') return (e.houses || []).map((x) => frameField(x.field)).some(Boolean);
    if (['CityWalledIn', 'PalacesBuilt', 'WalledCitiesJoined', 'FinalCityChosen', 'GuildCardsLaid'].includes(e.type) && e.city !== null && e.city !== undefined && cities.has(e.city)) {
      return cities.get(e.city).fields.map(frameField).some(Boolean);
    }
    return false;
  };
  for (const e of ctx.recent || []) if (marked(e)) break;
}

/** Where the board opens: around the places where the player may act, else the board's middle. */
function focusOf(svg, geo) {
  const spots = [...svg.querySelectorAll('.target')].map((el) => {
    if (el.dataset.spot) {
      const [what, id] = el.dataset.spot.split('-');
      if (what === 'corner') return geo.P(geo.vert.get(Number(id)));
      const f = geo.b.fields.find((x) => String(x.id) === id);
      return f ? geo.centre(f) : null;
    }
    const line = el.querySelector('line');
    return line ? [(Number(line.getAttribute('x1')) + Number(line.getAttribute('x2'))) / 2, (Number(line.getAttribute('y1')) + Number(line.getAttribute('y2'))) / 2] : null;
  }).filter(Boolean);
  return spots.length ? [spots.reduce((a, p) => a + p[0], 0) / spots.length, spots.reduce((a, p) => a + p[1], 0) / spots.length] : [geo.W / 2, geo.H / 2];
}

/**
 * Laying guild cards, where they lie: each card of the hand that may be laid has a toggle to
 * choose it (one or two; the first legal choice is made to begin with), and one button under
 * the hand lays the chosen cards. The moves stay in the list too.
 */
function layState(ctx) {
  const lays = ctx.moves.filter((m) => m.command.type === 'LayGuildCards');
  if (!lays.length) { lay.cards = []; return null; }
  if (!lay.cards.length || !lays.some((m) => lay.cards.every((c) => m.command.cards.includes(c)))) lay.cards = [...lays[0].command.cards];
  const chosen = lays.find((m) => m.command.cards.length === lay.cards.length && m.command.cards.every((c) => lay.cards.includes(c)));
  return { layable: new Set(lays.flatMap((m) => m.command.cards)), chosen };
}

function layBox(state, ctx) {
  if (!state) return '';
  const names = (cards) => cards.map((c) => t(`mb.guild.${c}`)).join(` ${t('and')} `);
  return h('div', { class: 'lay', id: 'lay' }, state.chosen
    ? h('button', { type: 'button', class: 'lay-move', 'data-move': JSON.stringify(state.chosen.command), onclick: () => ctx.play(state.chosen) }, t('mv.LayGuildCards', { cards: names(state.chosen.command.cards) }))
    : h('p', { class: 'muted' }, t('boards.m.lay_not_these', { cards: names(lay.cards) })));
}

/** A guild card in the hand is discarded or swapped out by its own button, and chosen to lay. */
function handMoves(card, ctx, state) {
  const out = [];
  for (const [type, key] of [['DiscardGuildCard', 'boards.m.discard'], ['SwapOutGuildCard', 'boards.m.swap_out']]) {
    const m = ctx.moves.find((mv) => mv.command.type === type && mv.command.card === card);
    if (!m) continue;
    ctx.claimed.add(m);
    out.push(' ', h('button', { type: 'button', class: 'hand-move', 'data-move': JSON.stringify(m.command), onclick: () => ctx.play(m) }, t(key)));
  }
  if (state && state.layable.has(card)) {
    const on = lay.cards.includes(card);
    out.push(' ', h('button', { type: 'button', class: on ? 'hand-move picked' : 'hand-move', 'aria-pressed': String(on), 'data-pick-card': card,
      onclick: () => { lay.cards = on ? lay.cards.filter((x) => x !== card) : lay.cards.length >= 2 ? [card] : [...lay.cards, card]; ctx.rerender(); } }, t('boards.m.lay_pick')));
  }
  return out;
}

function cardText(view, card) {
  const info = (view.guild_cards || []).find((g) => g.card === card);
  return t('mb.guild_card', { name: t(`mb.guild.${card}`), text: info ? info.text : '' });
}

export function describe(c) {
  switch (c.type) {
    case 'BuildWall': return t('mv.BuildWall', { line: place(c.line) });
    case 'PlaceTowers': return t('mv.PlaceTowers', { towers: c.towers.map((x) => tr('mb.ui.tower_at', { colour: tr(`mb.colour.${x.colour}`), at: place(x.vertex) })).join(` ${t('and')} `) });
    case 'PlaceHouses': return t('mv.PlaceHouses', { houses: c.houses.map((x) => t('mb.ui.house_in', { colour: t(`mb.colour.${x.colour}`), at: place(x.field) })).join(` ${t('and')} `) });
    case 'JoinCities': return t('mv.JoinCities', { city: place(c.city), with: place(c.with) });
    case 'KeepCitiesApart': return t('mv.KeepCitiesApart');
    case 'ChooseFinalCity': return t('mv.ChooseFinalCity', { city: place(c.city) });
    case 'PassFinalScoring': return t('mv.PassFinalScoring');
    case 'LayGuildCards': return t('mv.LayGuildCards', { cards: c.cards.map((x) => t(`mb.guild.${x}`)).join(` ${t('and')} `) });
    default: return null;
  }
}
