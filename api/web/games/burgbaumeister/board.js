// Der Wettkampf der Burgbaumeister: the store of 45 slots and every player's wall.

import { s, h, svgRoot, moveTarget, seatName, count, place, seatBadge, shapePath, lastFrame, lastMoveKey, rove, zoomable, legend, swatch, t } from '../common.js';

const COLS = 9;
const CW = 46;
const CH = 62;
const GAP = 6;
// The variant's symbols, drawn (a font may not have them): each about 18 × 14 around (0, 0).
const crown = 'M-8 5 L-8 -3 L-4 1 L0 -6 L4 1 L8 -3 L8 5 Z';
const bird = (x) => `M${x - 6} -2 Q${x - 3} -6 ${x} 0 Q${x + 3} -6 ${x + 6} -2 Q${x + 3} -1 ${x} 4 Q${x - 3} -1 ${x - 6} -2 Z`;
const SYMBOL = {
  king: () => [s('path', { d: crown })],
  queen: () => [s('path', { d: 'M-7 6 L-7 0 L-3.5 3 L0 -2 L3.5 3 L7 0 L7 6 Z' }), ...[[-7, -2], [0, -4.5], [7, -2]].map(([x, y]) => s('circle', { cx: x, cy: y, r: 2 }))],
  knight: () => [s('path', { d: 'M-6 -6 H6 V0 Q6 5 0 7 Q-6 5 -6 0 Z' })],
  maiden: () => [...[0, 72, 144, 216, 288].map((a) => s('circle', { cx: 4 * Math.cos((a * Math.PI) / 180), cy: 4 * Math.sin((a * Math.PI) / 180), r: 3 })), s('circle', { cx: 0, cy: 0, r: 2, class: 'hole' })],
  raven: () => [s('path', { d: bird(0) })],
  two_ravens: () => [s('path', { d: bird(-7) }), s('path', { d: bird(7) })],
  cannon: () => [s('path', { d: 'M-7 1 L6 -5 L7.5 -2 L-5 4 Z' }), s('circle', { cx: -2, cy: 4, r: 3.5 })],
  tower: () => [s('path', { d: 'M-6 7 V-6 H-3.6 V-3 H-1.2 V-6 H1.2 V-3 H3.6 V-6 H6 V7 Z' })],
  wizard: () => [s('path', { d: shapePath('star', 0, 0, 7) })],
};
const SYMBOL_NAMES = ['king', 'queen', 'knight', 'maiden', 'raven', 'two_ravens', 'cannon', 'tower', 'wizard'];
const symbol = (sym, x, y) => (SYMBOL[sym] ? s('g', { transform: `translate(${x},${y})`, class: 'sym', 'data-symbol': sym }, ...SYMBOL[sym](), s('title', {}, t(`boards.b.${sym}`))) : null);

function card(x, y, label, cls, sym) {
  return s('g', { transform: `translate(${x},${y})`, class: `card ${cls}` },
    s('rect', { width: CW, height: CH, rx: 5 }),
    label !== null ? s('text', { x: CW / 2, y: CH / 2 + 7, 'text-anchor': 'middle', class: 'num' }, label) : null,
    sym ? symbol(sym, CW / 2, CH - 11) : null);
}

/**
 * The store's columns: nine where the page is wide; on a narrow screen as many as fit its width
 * at the readable scale, so that every card to turn up is in the window as the turn begins.
 */
function storeColumns() {
  const w = globalThis.document ? document.documentElement.clientWidth : 0;
  return w ? Math.max(5, Math.min(COLS, Math.floor((w - 32) / (CW + GAP)))) : COLS;
}

export function render(view, ctx) {
  const by = (type) => ctx.moves.filter((m) => m.command.type === type);
  const cols = storeColumns();
  const rows = Math.ceil(view.store.length / cols);
  const storeH = rows * (CH + GAP);
  const wallLen = Math.max(12, ...view.walls.map((w) => w.cards.length + 2));
  const width = Math.max(cols * (CW + GAP), 110 + wallLen * (CW + 4)) + 10;
  const wallTop = storeH + 110;
  const height = wallTop + view.walls.length * (CH + 30) + 10;
  const svg = svgRoot(width, height, t('bb.ui.aria'));
  svg.append(s('text', { x: 0, y: 14, class: 'label' }, t('bb.ui.store')));
  const turn = new Map(by('TurnUpCard').map((m) => [m.command.slot, m]));
  // The last move: a card turned up or returned (its slot), added (in its wall) or destroyed.
  const last = (ctx.recent || []).find((e) => ['CardTurnedUp', 'CardReturned', 'CardAddedToWall', 'CardDestroyed'].includes(e.type)) || {};
  const lastSlot = last.type === 'CardTurnedUp' || last.type === 'CardReturned' ? last.slot : null;
  for (const slot of view.store) {
    const x = (slot.slot % cols) * (CW + GAP);
    const y = 22 + Math.floor(slot.slot / cols) * (CH + GAP);
    const label = slot.state === 'turned_up' || slot.card !== null ? slot.card : null;
    const el = card(x, y, slot.state === 'empty' ? null : label, slot.state.replace('_', '-'), slot.symbol);
    el.setAttribute('data-slot', slot.slot);
    const m = turn.get(slot.slot);
    if (m) { ctx.claimed.add(m); moveTarget(el, m, t('bb.ui.turn_up', { slot: place(slot.slot) }), ctx); }
    // The card turned up goes back face down where it lay: tap it.
    const back = slot.state === 'turned_up' && ctx.moves.find((mv) => mv.command.type === 'ReturnCard');
    if (back) { ctx.claimed.add(back); moveTarget(el, back, t('boards.b.return', { slot: place(slot.slot) }), ctx); }
    svg.append(el);
    if (lastSlot === slot.slot) svg.append(lastFrame(x, y, CW, CH));
  }
  const ty = storeH + 40;
  svg.append(s('text', { x: 0, y: ty - 6, class: 'label' }, view.turned_up ? t('bb.ui.turned_up', { card: view.turned_up.card, slot: place(view.turned_up.slot) }) : t('ui.phase', { phase: t(`bb.phase.${view.phase}`) })));
  view.walls.forEach((w, i) => {
    const y = wallTop + i * (CH + 30);
    const me = w.seat === ctx.seat;
    svg.append(seatBadge(w.seat, 0, y - 6), s('text', { x: 18, y: y - 6, class: 'label', 'data-wall': w.seat, 'data-last': w.cards.length ? w.cards[w.cards.length - 1].card : 1, 'data-length': w.cards.length },
      `${seatName(w.seat, ctx.names)}${me ? t('ui.you') : ''}: ${count(w.points, 'point')}${w.wizard_ready ? t('bb.ui.wizard_ready') : ''}`));
    const step = CW + 4;
    svg.append(card(0, y, '1', 'tower start', 'tower'));
    w.cards.forEach((c, j) => {
      const el = card(60 + j * step, y, c.card, c.protected ? 'wall protected' : 'wall', view.variant ? c.symbol : null);
      if (last.type === 'CardAddedToWall' && last.seat === w.seat && last.card === c.card) svg.append(lastFrame(60 + j * step, y, CW, CH));
      const fire = ctx.moves.find((m) => m.command.type === 'FireCannon' && m.command.target === w.seat && m.command.card === c.card);
      if (fire) { ctx.claimed.add(fire); moveTarget(el, fire, t('mv.FireCannon', { card: c.card, target: seatName(w.seat, ctx.names) }), ctx); }
      svg.append(el);
    });
    if (me) {
      const endX = 60 + w.cards.length * step;
      // The player's own wall and its free end: what the board opens on (zoom.js).
      svg.append(s('rect', { x: 0, y: y - 20, width: endX + CW, height: CH + 20, class: 'own-area' }));
      for (const m of by('AddCardToWall')) {
        ctx.claimed.add(m);
        svg.append(moveTarget(s('g', { class: 'slot-target' }, s('rect', { x: endX, y, width: CW, height: CH, rx: 5 }), s('text', { x: endX + CW / 2, y: y + CH / 2 + 5, 'text-anchor': 'middle' }, '+')), m, t('bb.ui.add_end'), ctx));
      }
      for (const m of by('InsertCardWithWizard')) {
        ctx.claimed.add(m);
        // A gap between two cards: a bar to see, a band as wide as a finger to tap.
        const x = 57 + m.command.position * step;
        svg.append(moveTarget(s('g', { class: 'gap-target' }, s('rect', { x: x - 22, y: y - 4, width: 44, height: CH + 8, class: 'hit' }), s('rect', { x: x - 3, y: y - 4, width: 6, height: CH + 8, class: 'bar' })), m, t('mv.InsertCardWithWizard', { position: place(m.command.position) }), ctx));
      }
    }
    if (last.type === 'CardDestroyed' && last.target === w.seat) svg.append(lastFrame(0, y, 60 + Math.max(1, w.cards.length) * step, CH));
  });
  const signs = [lastMoveKey()];
  if (view.variant) for (const sym of SYMBOL_NAMES) signs.push([swatch(s('g', { class: 'card' }, symbol(sym, 12, 12)), ''), t(`boards.b.${sym}`)]);
  // Adding to the wall: the board opens on the wall's free end (the store's card is above).
  const mine = view.walls.findIndex((w) => w.seat === ctx.seat);
  const adding = mine >= 0 && (by('AddCardToWall').length || by('InsertCardWithWizard').length);
  const focus = adding ? [Math.max(0, 60 + view.walls[mine].cards.length * (CW + 4) - 120), wallTop + mine * (CH + 30) - 40] : null;
  return h('div', { class: 'burgbaumeister' }, zoomable(rove(svg, 'burgbaumeister'), { key: 'burgbaumeister', focus }), legend(signs, t('boards.legend')));
}

export function describe(c) {
  switch (c.type) {
    case 'AddCardToWall': return t('mv.AddCardToWall');
    case 'ReturnCard': return t('mv.ReturnCard');
    case 'DeclineCannon': return t('mv.DeclineCannon');
    case 'TurnUpCard': return t('mv.TurnUpCard', { slot: place(c.slot) });
    case 'InsertCardWithWizard': return t('mv.InsertCardWithWizard', { position: place(c.position) });
    default: return null;
  }
}
