// Mauerbauer: the triangle board drawn from the geometry in the view (vertices, lines, fields),
// with walls, towers, houses, closed cities and their palaces; a free line is a wall to build.

import { s, h, svgRoot, moveTarget, seatName } from './common.js';

const U = 110;
const PAD = 24;
const HOUSE = { yellow: '#e6b800', green: '#2e8b3e', blue: '#2f6fd6', pink: '#e36fb0', red: '#c8322b' };
const TOWER = { white: '#fafafa', grey: '#8c8c8c', black: '#222' };
const REGION = ['#f3ecd9', '#e6efd8', '#dfe9f2', '#f2e0e0', '#ece3f3'];

export function render(view, ctx) {
  const b = view.board;
  const xs = b.vertices.map((v) => v.x);
  const ys = b.vertices.map((v) => v.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const W = (Math.max(...xs) - minX) * U + 2 * PAD;
  const H = (Math.max(...ys) - minY) * U + 2 * PAD;
  const P = (v) => [(v.x - minX) * U + PAD, (v.y - minY) * U + PAD];
  const vert = new Map(b.vertices.map((v) => [v.id, v]));
  const svg = svgRoot(W, H, 'The triangle board');
  const regions = [...new Set(b.fields.map((f) => f.region))].sort();
  const cities = new Map(view.cities.map((c) => [c.id, c]));

  for (const f of b.fields) {
    const pts = f.vertices.map((id) => P(vert.get(id)).join(',')).join(' ');
    const cls = f.city !== null && f.city !== undefined ? 'mb-field city' : 'mb-field';
    svg.append(s('polygon', { points: pts, class: cls, fill: f.city !== null && f.city !== undefined ? '#d9c79e' : REGION[regions.indexOf(f.region) % REGION.length], 'data-field': f.id }, s('title', {}, `Field ${f.id}, region ${f.region}`)));
    const [cx, cy] = [(f.x - minX) * U + PAD, (f.y - minY) * U + PAD];
    const houses = Object.entries(f.houses).flatMap(([c, k]) => Array(k).fill(c));
    houses.forEach((c, i) => svg.append(s('rect', { x: cx - 12 + (i % 3) * 9, y: cy - 6 + Math.floor(i / 3) * 9, width: 8, height: 8, fill: HOUSE[c], stroke: '#222', 'stroke-width': 0.8, class: 'house' }, s('title', {}, `${c} house`))));
  }
  // Closed cities: their palaces at the first field's centre.
  for (const c of view.cities) {
    const f = b.fields.find((x) => x.id === c.fields[0]);
    if (!f) continue;
    const [cx, cy] = [(f.x - minX) * U + PAD, (f.y - minY) * U + PAD];
    const palaces = Object.entries(c.palaces || {}).flatMap(([col, k]) => Array(k).fill(col));
    palaces.forEach((col, i) => svg.append(s('path', { d: `M${cx - 10 + i * 14} ${cy + 14} h12 v-8 l-6 -7 l-6 7 z`, fill: HOUSE[col], stroke: '#111', class: 'palace' }, s('title', {}, `${col} palace of city ${c.id}`))));
    svg.append(s('text', { x: cx, y: cy - 10, 'text-anchor': 'middle', class: 'small' }, `city ${c.id}`));
  }
  const walls = new Map(ctx.moves.filter((m) => m.command.type === 'BuildWall').map((m) => [m.command.line, m]));
  for (const l of b.lines) {
    const [a, c] = l.vertices.map((id) => P(vert.get(id)));
    const line = s('line', { x1: a[0], y1: a[1], x2: c[0], y2: c[1], class: l.wall ? 'mb-wall' : l.rim ? 'mb-rim' : 'mb-line', 'data-line': l.id });
    svg.append(line);
    const m = walls.get(l.id);
    if (m) {
      ctx.claimed.add(m);
      svg.append(moveTarget(s('line', { x1: a[0], y1: a[1], x2: c[0], y2: c[1], class: 'line-target' }), m, `Build a wall on line ${l.id}`, ctx));
    }
  }
  for (const v of b.vertices) {
    if (!v.tower) continue;
    const [x, y] = P(v);
    svg.append(s('circle', { cx: x, cy: y, r: 8, fill: TOWER[v.tower] || v.tower, stroke: '#000', 'stroke-width': 1.5, class: 'tower', 'data-tower': v.id }, s('title', {}, `${v.tower} tower`)));
  }

  const n = ctx.names;
  const wrap = h('div', { class: 'mauerbauer' }, svg);
  const facts = [`Phase: ${view.phase.replace(/_/g, ' ')}`];
  if (view.dice) facts.push(`dice: houses ${view.dice.houses.join(', ')}${view.dice.tower ? `, tower ${view.dice.tower}` : ''}`);
  if (view.built !== null && view.built !== undefined) facts.push(`wall built this turn: line ${view.built}`);
  if (view.draw_pile !== null && view.draw_pile !== undefined) facts.push(`guild cards in the draw pile: ${view.draw_pile}`);
  wrap.append(h('p', {}, `${facts.join('; ')}.`));
  wrap.append(h('ul', { class: 'players' }, view.players.map((p) => h('li', { 'data-player': p.seat },
    `${seatName(p.seat, n)}${p.seat === ctx.seat ? ' (you)' : ''}: ${p.score} points, ${p.hand_count} guild cards`,
    p.hand ? h('ul', { 'data-guild-hand': p.seat }, p.hand.map((c) => h('li', {}, cardText(view, c)))) : ''))));
  return wrap;
}

function cardText(view, card) {
  const info = (view.guild_cards || []).find((g) => g.card === card);
  return info ? `${card.replace(/_/g, ' ')}: ${info.text}` : String(card).replace(/_/g, ' ');
}

export function describe(c) {
  switch (c.type) {
    case 'BuildWall': return `Build a wall on line ${c.line}`;
    case 'PlaceTowers': return `Place ${c.towers.map((t) => `a ${t.colour} tower at corner ${t.vertex}`).join(' and ')}`;
    case 'PlaceHouses': return `Place ${c.houses.map((x) => `a ${x.colour} house in field ${x.field}`).join(' and ')}`;
    case 'JoinCities': return `Join city ${c.city} with city ${c.with}`;
    case 'KeepCitiesApart': return 'Keep the cities apart';
    case 'ChooseFinalCity': return `Choose city ${c.city} for the final scoring`;
    case 'PassFinalScoring': return 'Pass the final scoring';
    case 'LayGuildCards': return `Lay ${c.cards.map((x) => x.replace(/_/g, ' ')).join(' and ')}`;
    default: return null;
  }
}
