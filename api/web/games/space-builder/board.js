// Space Builder: every player's 3 × 3 board, the hand, and the blueprint drawn in its own frame
// and turned by its quarter turns as it lies on the table (the players turn it in their heads).

import { s, h, svgRoot, moveTarget, seatName, place, lastFrame, lastMoveKey, rove, zoomable, legend, t } from '../common.js';

const C = 60;
const pick = { card: null, face: 'A', rotation: 0 };

function cardShape(x, y, p, size = C, cls = '') {
  // An arrow shows the card's rotation; the face letter its side. The arrow keeps to the outer
  // half of the card and the number to its middle, so that turned any way the arrow never lies
  // under the number (dark on dark, unreadable, when the card was turned 180°).
  const r = size / 2;
  return s('g', { transform: `translate(${x + r},${y + r})`, class: `sb-card face-${p.face} ${cls}`, 'data-card': p.card },
    s('rect', { x: -r + 2, y: -r + 2, width: size - 4, height: size - 4, rx: 6 }),
    s('g', { transform: `rotate(${p.rotation * 90})` },
      s('path', { d: `M0 ${-r + 4} L${r / 4} ${-r / 2 + 1} L${-r / 4} ${-r / 2 + 1} Z`, class: 'arrow' })),
    s('text', { x: 0, y: 0, 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'num' }, `${p.card}${p.face}`));
}

function grid(x, y, size, label) {
  const g = s('g', { transform: `translate(${x},${y})` }, s('text', { x: 0, y: -8, class: 'label' }, label));
  for (let i = 0; i < 9; i++) g.append(s('rect', { x: (i % 3) * size, y: Math.floor(i / 3) * size, width: size, height: size, class: 'sb-slot', 'data-slot': i }));
  return g;
}

export function render(view, ctx) {
  const n = ctx.names;
  const me = view.players.find((p) => p.seat === ctx.seat);
  const wrap = h('div', { class: 'space-builder' });
  const others = view.players.filter((p) => p.seat !== ctx.seat);
  // Each other player's city with its label above it ("Anna: 1 card, finished"): as wide as the
  // label needs (14 px bold, about 9 px a character), so no label runs past the board's edge.
  const otherLabel = (p) => `${n[p.seat] || t('seat', { n: p.seat + 1 })}: ${t(p.finished ? 'sb.ui.placed_finished' : p.stopped ? 'sb.ui.placed_stopped' : 'sb.ui.placed', { n: p.placed })}`;
  const otherWidth = (p) => Math.max(200, Math.ceil(otherLabel(p).length * 9) + 20);
  const width = 3 * C + 70 + 3 * C + 60 + others.reduce((a, p) => a + otherWidth(p), 0);
  const svg = svgRoot(Math.max(width, 520), 3 * C + 70, t('sb.ui.aria'));
  let x = 10;

  // The blueprint, if the viewer may see it: in its own frame, turned as it lies.
  if (view.blueprint) {
    const b = view.blueprint;
    const g = s('g', { 'data-blueprint': b.number, transform: `translate(${x + 1.5 * C},${30 + 1.5 * C}) rotate(${b.turn * 90}) translate(${-1.5 * C},${-1.5 * C})` });
    g.append(s('rect', { x: -4, y: -4, width: 3 * C + 8, height: 3 * C + 8, class: 'blueprint-frame', rx: 8 }));
    for (const p of b.cards) g.append(cardShape((p.slot % 3) * C, Math.floor(p.slot / 3) * C, p, C, 'plan'));
    g.append(s('path', { d: 'M4 16 L10 4 L16 16 Z', class: 'plan-mark' }), s('text', { x: 20, y: 16, class: 'small' }, t('sb.ui.plan', { n: b.number })));
    svg.append(s('text', { x, y: 16, class: 'label' }, t('sb.ui.blueprint', { n: b.number, deg: b.turn * 90 })), g);
  } else {
    const hidden = s('g', { 'data-no-blueprint': '' }, s('rect', { x, y: 30, width: 3 * C, height: 3 * C, class: 'blueprint-hidden', rx: 8 }),
      s('text', { x: x + 1.5 * C, y: 30 + 1.5 * C, 'text-anchor': 'middle', class: 'on-dark' }, view.phase === 'building' ? t('sb.ui.blueprint_hidden') : t('sb.ui.no_blueprint')));
    // Looking at the blueprint: tap it (your time starts).
    const look = ctx.moves.find((m) => m.command.type === 'LookAtBlueprint');
    if (look) {
      ctx.claimed.add(look);
      hidden.setAttribute('class', 'sb-look');
      hidden.append(s('text', { x: x + 1.5 * C, y: 30 + 1.5 * C + 26, 'text-anchor': 'middle' }, t('boards.sb.look_short')));
      moveTarget(hidden, look, t('mv.LookAtBlueprint'), ctx);
    }
    svg.append(hidden);
  }
  x += 3 * C + 70;

  // My board: a slot is a target for the selected card with its face and rotation.
  const placing = ctx.moves.filter((m) => m.command.type === 'PlaceBuildingCard' || m.command.type === 'MoveBuildingCard');
  placing.forEach((m) => ctx.claimed.add(m));
  const held = new Set(placing.map((m) => m.command.card));
  if (pick.card !== null && !held.has(pick.card)) pick.card = null;
  if (pick.card === null && held.size) {
    const onBoard = new Set(((me && me.city) || []).map((p) => p.card));
    pick.card = [...held].find((c) => !onBoard.has(c)) ?? [...held][0];
  }
  const myX = x;
  if (me) {
    const g = grid(x, 30, C, t(me.finished ? 'sb.ui.your_city_finished' : me.stopped ? 'sb.ui.your_city_stopped' : 'sb.ui.your_city'));
    for (const p of me.city || []) {
      const el = cardShape((p.slot % 3) * C, Math.floor(p.slot / 3) * C, p);
      // A card on your city goes back to your hand: tap it.
      const back = ctx.moves.find((m) => m.command.type === 'TakeBackBuildingCard' && m.command.card === p.card);
      if (back) { ctx.claimed.add(back); moveTarget(el, back, t('mv.TakeBackBuildingCard', { card: p.card }), ctx); }
      g.append(el);
    }
    for (let slot = 0; slot < 9; slot++) {
      const m = placing.find((mv) => mv.command.card === pick.card && mv.command.slot === slot && mv.command.face === pick.face && mv.command.rotation === pick.rotation);
      if (m) g.append(moveTarget(s('rect', { x: (slot % 3) * C + 3, y: Math.floor(slot / 3) * C + 3, width: C - 6, height: C - 6, class: 'slot-target', rx: 6 }), m, t('mv.PlaceBuildingCard', { card: pick.card, face: pick.face, deg: pick.rotation * 90, slot: place(slot) }), ctx));
    }
    svg.append(g);
    x += 3 * C + 60;
  }
  // The others: their own cities only when the rules show them.
  // The last move: the slot a card was placed on, moved to or taken from, in whose city.
  // A player's other moves (looking, finishing, stopping, releasing a card): their whole city.
  const last = (ctx.recent || []).find((e) => ['BuildingCardPlaced', 'BuildingCardMoved', 'BuildingCardTakenBack', 'BlueprintLookedAt', 'CityDeclaredFinished', 'PlayerStoppedBuilding', 'BuildingCardReleased'].includes(e.type)) || {};
  const lastSlot = last.placement ? last.placement.slot : last.slot;
  if (me && last.seat === me.seat) {
    if (lastSlot !== undefined) svg.append(lastFrame(myX + (lastSlot % 3) * C, 30 + Math.floor(lastSlot / 3) * C, C, C));
    else if (last.type === 'BlueprintLookedAt') svg.append(lastFrame(10, 30, 3 * C, 3 * C));
    else svg.append(lastFrame(myX, 30, 3 * C, 3 * C));
  }
  const small = 36;
  for (const p of others) {
    const g = grid(x, 30, small, otherLabel(p));
    g.setAttribute('data-city', p.seat);
    for (const c of p.city || []) g.append(cardShape((c.slot % 3) * small, Math.floor(c.slot / 3) * small, c, small));
    svg.append(g);
    if (last.seat === p.seat) svg.append(lastSlot !== undefined ? lastFrame(x + (lastSlot % 3) * small, 30 + Math.floor(lastSlot / 3) * small, small, small, 4) : lastFrame(x, 30, 3 * small, 3 * small, 4));
    x += otherWidth(p);
  }
  const signs = [lastMoveKey()];
  // A phone shows part of the board: it opens on your own city, where the round is played,
  // unless the blueprint is still to be looked at (then on the targets: the blueprint).
  const looking = ctx.moves.some((m) => m.command.type === 'LookAtBlueprint');
  const focus = me && !looking ? [myX + 1.5 * C, 30 + 1.5 * C] : null;
  wrap.append(zoomable(rove(svg, 'space-builder'), { key: 'space-builder', focus }), legend(signs, t('boards.legend')));

  const info = h('p', {}, `${t('sb.ui.round', { round: view.round, phase: t(`sb.phase.${view.phase}`), timing: t(`sb.timing.${view.timing}`) })} ${t('sb.ui.rounds_won', { list: view.players.map((p) => `${seatName(p.seat, n)} ${p.rounds_won}`).join(', ') })}${view.winner !== null && view.winner !== undefined ? ` ${t('sb.ui.winner', { who: seatName(view.winner, n) })}` : ''}`);
  wrap.append(info);
  if (me) {
    wrap.append(h('div', { class: 'hand' }, h('span', {}, `${t('sb.ui.your_cards')} `), me.hand.map((c) => h('button', {
      type: 'button', 'aria-pressed': String(pick.card === c), class: pick.card === c ? 'picked' : '', disabled: !held.has(c), 'data-pick-card': c,
      onclick: () => { pick.card = c; ctx.rerender(); } }, t('sb.card', { n: c }))),
    // The round's winner takes one more card into the hand: the cards not yet in it lie beside
    // it, each a button (the moves stay in the list too).
    ctx.moves.filter((m) => m.command.type === 'ReleaseBuildingCard').map((m) => h('button', {
      type: 'button', class: 'release', 'data-move': JSON.stringify(m.command), onclick: () => ctx.play(m) }, t('boards.sb.release', { n: m.command.card })))));
    if (held.size) {
      wrap.append(h('div', { class: 'row' },
        h('button', { type: 'button', onclick: () => { pick.face = pick.face === 'A' ? 'B' : 'A'; ctx.rerender(); } }, t('sb.ui.flip', { face: pick.face })),
        h('button', { type: 'button', onclick: () => { pick.rotation = (pick.rotation + 1) % 4; ctx.rerender(); } }, t('sb.ui.rotate', { deg: pick.rotation * 90 })),
        h('span', { class: 'muted' }, t('sb.ui.then_click'))));
    }
  }
  if (view.last_round) {
    const lr = view.last_round;
    wrap.append(h('details', {}, h('summary', {}, t('sb.ui.last_round', { who: seatName(lr.winner, n) })),
      h('ul', {}, lr.cities.map((c) => h('li', {}, t('sb.ui.rank', { who: seatName(c.seat, n), rank: c.rank, faults: c.faults }))))));
  }
  return wrap;
}

export function describe(c) {
  switch (c.type) {
    case 'LookAtBlueprint': return t('mv.LookAtBlueprint');
    case 'DeclareCityFinished': return t('mv.DeclareCityFinished');
    case 'StopBuilding': return t('mv.StopBuilding');
    case 'TakeBackBuildingCard': return t('mv.TakeBackBuildingCard', { card: c.card });
    case 'ReleaseBuildingCard': return t('mv.ReleaseBuildingCard', { card: c.card });
    default: return null;
  }
}
