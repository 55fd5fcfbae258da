// Wettstreit der Baumeister: the two stacks, the auction, every player's city, hand and
// saboteurs, and your own purse (the others' purses are secret and never in your view).

import { s, h, svgRoot, moveTarget, seatColour, seatName, t, t as tr } from './common.js';

const CW = 58;
const CH = 78;
const KIND = new Proxy({}, { get: (_, kind) => t(`ws.short.${String(kind)}`) });
const KIND_CLASS = { left_corner_tower: 'k-tower', right_corner_tower: 'k-tower', tower: 'k-tower', city_gate: 'k-gate', town_hall: 'k-hall', church: 'k-church' };

function face(x, y, c, extra = '') {
  if (!c) return s('g', { transform: `translate(${x},${y})`, class: 'card back' }, s('rect', { width: CW, height: CH, rx: 5 }), s('text', { x: CW / 2, y: CH / 2 + 5, 'text-anchor': 'middle' }, '?'));
  return s('g', { transform: `translate(${x},${y})`, class: `card ${KIND_CLASS[c.kind] || ''} ${extra}`, 'data-card': c.card },
    s('rect', { width: CW, height: CH, rx: 5 }),
    s('text', { x: CW / 2, y: 30, 'text-anchor': 'middle', class: 'num' }, c.value),
    s('text', { x: CW / 2, y: CH - 10, 'text-anchor': 'middle', class: 'small' }, KIND[c.kind] || c.kind));
}

export function render(view, ctx) {
  const n = ctx.names;
  const players = view.players;
  const rowH = CH * 2 + 80;
  const top = 130;
  const maxCity = Math.max(6, ...players.map((p) => p.city.length + 2));
  const maxHand = Math.max(4, ...players.map((p) => p.hand_count));
  const width = Math.max(1000, 20 + Math.max(maxCity, maxHand) * (CW + 6));
  const svg = svgRoot(width, top + players.length * rowH, t('ws.ui.aria'));
  const wrap = h('div', { class: 'wettstreit' });

  // The stacks: click one to put its top card up for auction, or a card under it.
  const stacks = [['open', view.open_stack, t('ws.ui.open_stack')], ['face_down', view.face_down_stack, t('ws.ui.face_down_stack')]];
  stacks.forEach(([name, st, label], i) => {
    const x = i * 170;
    const g = s('g', { 'data-stack': name }, face(x, 20, name === 'open' ? st.top : st.top || null),
      s('text', { x, y: 14, class: 'label' }, `${label} (${st.count})`));
    for (const type of ['AuctionTopCard', 'PutCardUnderStack']) {
      const m = ctx.moves.find((mv) => mv.command.type === type && mv.command.stack === name);
      if (m) {
        ctx.claimed.add(m);
        const t = s('rect', { x, y: 20, width: CW, height: CH, rx: 5, class: 'outline' });
        svg.append(moveTarget(t, m, tr(`mv.${type}`, { stack: tr(`ws.stack.${name}`) }), ctx));
      }
    }
    svg.prepend(g);
  });
  const a = view.auction;
  const info = [];
  if (a) {
    info.push(t('ws.ui.auction_of', { stack: t(`ws.stack.${a.stack}`), who: seatName(a.auctioneer, n) }));
    info.push(t('ws.ui.high_bid', { amount: a.high_bid, who: seatName(a.high_bidder, n), next: seatName(a.next_bidder, n) }));
    if (a.announced_kind) info.push(t('ws.ui.announced', { kind: KIND[a.announced_kind] }));
    info.push(`${t('ws.ui.bids', { list: a.bids.map((b, i) => `${n[i] || i}: ${b === null ? '—' : b}`).join(', ') })}${a.passed.length ? `; ${t('ws.ui.passed', { list: a.passed.map((p) => n[p] || p).join(', ') })}` : ''}`);
    svg.append(s('text', { x: 340, y: 14, class: 'label' }, t('ws.ui.up_for_auction')), face(340, 20, a.top || null, 'auction'));
  }
  info.push(`${t('ui.phase', { phase: t(`ws.phase.${view.phase}`) })}${view.last_die ? `, ${t('ws.ui.last_die', { die: t(`ws.face.${view.last_die}`) })}` : ''}${view.final_round ? `, ${t('ws.ui.final_round')}` : ''}; ${t('ws.ui.saboteur_supply', { n: view.saboteur_supply })}`);
  if (view.ransom) info.push(t('ws.ui.ransom', { who: seatName(view.ransom.owner, n), price: view.ransom.price, kind: KIND[view.ransom.building.kind], value: view.ransom.building.value }));
  info.forEach((t, i) => svg.append(s('text', { x: 420, y: 34 + i * 18, class: 'label' }, t)));

  players.forEach((p, i) => {
    const y = top + i * rowH;
    const me = p.seat === ctx.seat;
    const purse = p.money === null || p.money === undefined ? t('ws.ui.purse_secret') : t('ws.ui.purse', { n: p.money });
    svg.append(s('text', { x: 0, y: y + 12, class: 'label', fill: seatColour(p.seat) },
      `${seatName(p.seat, n)}${me ? t('ui.you') : ''} — ${t('ws.ui.player', { value: p.city_value, shields: p.shields, gate: p.gate_coins, saboteurs: p.saboteurs })}, `,
      s('tspan', { 'data-purse': p.seat, class: p.money === null || p.money === undefined ? 'secret' : 'mine' }, purse)));
    // City, left to right; gaps left by saboteurs are dashed.
    p.city.forEach((c, j) => {
      const el = c ? face(j * (CW + 6), y + 20, c, 'built') : s('rect', { x: j * (CW + 6), y: y + 20, width: CW, height: CH, class: 'gap', rx: 5 });
      const sab = c && ctx.moves.find((m) => m.command.type === 'SabotageBuilding' && m.command.target === p.seat && m.command.card === c.card);
      if (sab) { ctx.claimed.add(sab); moveTarget(el, sab, t('ws.ui.sabotage', { kind: KIND[c.kind], value: c.value, whom: seatName(p.seat, n) }), ctx); }
      svg.append(el);
    });
    if (!p.city.length) svg.append(s('text', { x: 0, y: y + 60, class: 'muted' }, t('ws.ui.no_city')));
    // Hand: known cards face up, the rest as backs (with any announced kinds).
    const hy = y + CH + 44;
    svg.append(s('text', { x: 0, y: hy - 4, class: 'small' }, `${t('ws.ui.hand', { n: p.hand_count })}${p.announced_kinds.length ? `, ${t('ws.ui.announced', { kind: p.announced_kinds.map((k) => KIND[k]).join(', ') })}` : ''}`));
    const hidden = Math.max(0, p.hand_count - p.hand.length);
    p.hand.forEach((c, j) => svg.append(face(j * (CW + 6), hy, c, 'hand')));
    for (let j = 0; j < hidden; j++) svg.append(s('g', { 'data-hidden-card': p.seat }, face((p.hand.length + j) * (CW + 6), hy, null)));
  });
  wrap.append(svg);

  // Bids: a number within the legal amounts, not ninety buttons.
  for (const type of ['MakeOpeningBid', 'RaiseBid']) {
    const bids = ctx.moves.filter((m) => m.command.type === type);
    if (!bids.length) continue;
    bids.forEach((m) => ctx.claimed.add(m));
    const amounts = bids.map((m) => m.command.amount);
    const min = Math.min(...amounts);
    const max = Math.max(...amounts);
    const input = h('input', { type: 'number', id: `bid-${type}`, min, max, value: min, inputmode: 'numeric' });
    const button = h('button', { type: 'button', class: 'bid', 'data-move': JSON.stringify(bids[0].command) }, type === 'MakeOpeningBid' ? t('ws.ui.open_bidding') : t('ws.ui.raise'));
    const pick = () => bids.find((m) => m.command.amount === Number(input.value));
    input.addEventListener('input', () => { const m = pick(); if (m) button.setAttribute('data-move', JSON.stringify(m.command)); });
    button.addEventListener('click', () => { const m = pick(); if (m) ctx.play(m); else input.setCustomValidity(t('ws.ui.bid_between', { min, max })), input.reportValidity(); });
    wrap.append(h('div', { class: 'bidbox' }, h('label', { for: input.id }, t('ws.ui.bid', { min, max })), ' ', input, ' ', button));
  }
  if (view.result) {
    wrap.append(h('div', { class: 'result' }, h('h3', {}, t('game.results')), h('ul', {}, view.result.scores.map((sc) => h('li', {}, `${seatName(sc.seat, n)}: ${Object.entries(sc).filter(([k]) => k !== 'seat').map(([k, v]) => t(`ws.score.${k}`, { v: typeof v === 'boolean' ? t(v ? 'words.yes' : 'words.no') : v })).join(', ')}`)))));
  }
  return wrap;
}

export function describe(c, n) {
  switch (c.type) {
    case 'RollIncomeDie': return t('mv.RollIncomeDie');
    case 'PassBid': return t('mv.PassBid');
    case 'TakeSaboteurFrom': return t('mv.TakeSaboteurFrom', { from: seatName(c.from, n) });
    case 'SabotageHand': return t('mv.SabotageHand', { target: seatName(c.target, n) });
    case 'BuildCard': return t('mv.BuildCard', { card: c.card, slot: c.slot });
    case 'FoundCity': return t('mv.FoundCity', { cards: c.cards.join(', ') });
    case 'FinishBuildStep': return t('mv.FinishBuildStep');
    case 'PayToKeepBuilding': return t('mv.PayToKeepBuilding');
    case 'LetBuildingFall': return t('mv.LetBuildingFall');
    default: return null;
  }
}
