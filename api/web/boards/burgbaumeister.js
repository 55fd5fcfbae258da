// Der Wettkampf der Burgbaumeister: the store of 45 slots and every player's wall.

import { s, h, svgRoot, moveTarget, seatColour, seatName, count, t } from './common.js';

const COLS = 9;
const CW = 46;
const CH = 62;
const GAP = 6;
const SYMBOL = { king: '♔', queen: '♕', knight: '♘', maiden: '✿', raven: '🐦', two_ravens: '🐦🐦', cannon: '💣', tower: '♜', wizard: '✦' };

function card(x, y, label, cls, sym) {
  return s('g', { transform: `translate(${x},${y})`, class: `card ${cls}` },
    s('rect', { width: CW, height: CH, rx: 5 }),
    label !== null ? s('text', { x: CW / 2, y: CH / 2 + 7, 'text-anchor': 'middle', class: 'num' }, label) : null,
    sym ? s('text', { x: CW / 2, y: CH - 6, 'text-anchor': 'middle', class: 'sym' }, SYMBOL[sym] || sym) : null);
}

export function render(view, ctx) {
  const by = (type) => ctx.moves.filter((m) => m.command.type === type);
  const rows = Math.ceil(view.store.length / COLS);
  const storeH = rows * (CH + GAP);
  const wallLen = Math.max(12, ...view.walls.map((w) => w.cards.length + 2));
  const width = Math.max(COLS * (CW + GAP), 110 + wallLen * (CW + 4)) + 10;
  const wallTop = storeH + 110;
  const height = wallTop + view.walls.length * (CH + 30) + 10;
  const svg = svgRoot(width, height, t('bb.ui.aria'));
  svg.append(s('text', { x: 0, y: 14, class: 'label' }, t('bb.ui.store')));
  const turn = new Map(by('TurnUpCard').map((m) => [m.command.slot, m]));
  for (const slot of view.store) {
    const x = (slot.slot % COLS) * (CW + GAP);
    const y = 22 + Math.floor(slot.slot / COLS) * (CH + GAP);
    const label = slot.state === 'turned_up' || slot.card !== null ? slot.card : null;
    const el = card(x, y, slot.state === 'empty' ? null : label, slot.state.replace('_', '-'), slot.symbol);
    el.setAttribute('data-slot', slot.slot);
    const m = turn.get(slot.slot);
    if (m) { ctx.claimed.add(m); moveTarget(el, m, t('bb.ui.turn_up', { slot: slot.slot }), ctx); }
    svg.append(el);
  }
  const ty = storeH + 40;
  svg.append(s('text', { x: 0, y: ty - 6, class: 'label' }, view.turned_up ? t('bb.ui.turned_up', { card: view.turned_up.card, slot: view.turned_up.slot }) : t('ui.phase', { phase: t(`bb.phase.${view.phase}`) })));
  view.walls.forEach((w, i) => {
    const y = wallTop + i * (CH + 30);
    const me = w.seat === ctx.seat;
    svg.append(s('text', { x: 0, y: y - 6, class: 'label', fill: seatColour(w.seat), 'data-wall': w.seat, 'data-last': w.cards.length ? w.cards[w.cards.length - 1].card : 1, 'data-length': w.cards.length },
      `${seatName(w.seat, ctx.names)}${me ? t('ui.you') : ''}: ${count(w.points, 'point')}${w.wizard_ready ? t('bb.ui.wizard_ready') : ''}`));
    const step = CW + 4;
    svg.append(card(0, y, '1', 'tower start', 'tower'));
    w.cards.forEach((c, j) => {
      const el = card(60 + j * step, y, c.card, c.protected ? 'wall protected' : 'wall', view.variant ? c.symbol : null);
      const fire = ctx.moves.find((m) => m.command.type === 'FireCannon' && m.command.target === w.seat && m.command.card === c.card);
      if (fire) { ctx.claimed.add(fire); moveTarget(el, fire, t('mv.FireCannon', { card: c.card, target: seatName(w.seat, ctx.names) }), ctx); }
      svg.append(el);
    });
    if (me) {
      const endX = 60 + w.cards.length * step;
      for (const m of by('AddCardToWall')) {
        ctx.claimed.add(m);
        svg.append(moveTarget(s('g', { class: 'slot-target' }, s('rect', { x: endX, y, width: CW, height: CH, rx: 5 }), s('text', { x: endX + CW / 2, y: y + CH / 2 + 5, 'text-anchor': 'middle' }, '+')), m, t('bb.ui.add_end'), ctx));
      }
      for (const m of by('InsertCardWithWizard')) {
        ctx.claimed.add(m);
        const x = 56 + m.command.position * step;
        svg.append(moveTarget(s('rect', { x: x - 4, y: y - 4, width: 8, height: CH + 8, class: 'gap-target' }), m, t('mv.InsertCardWithWizard', { position: m.command.position }), ctx));
      }
    }
  });
  return svg;
}

export function describe(c) {
  switch (c.type) {
    case 'AddCardToWall': return t('mv.AddCardToWall');
    case 'ReturnCard': return t('mv.ReturnCard');
    case 'DeclineCannon': return t('mv.DeclineCannon');
    case 'TurnUpCard': return t('mv.TurnUpCard', { slot: c.slot });
    default: return null;
  }
}
void h;
