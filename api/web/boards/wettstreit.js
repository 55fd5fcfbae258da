// Wettstreit der Baumeister: the two stacks, the auction, every player's city, hand and
// saboteurs, and your own purse (the others' purses are secret and never in your view).

import { s, h, svgRoot, moveTarget, seatColour, seatName } from './common.js';

const CW = 58;
const CH = 78;
const KIND = { left_corner_tower: 'Left tower', right_corner_tower: 'Right tower', tower: 'Tower', city_gate: 'Gate', town_hall: 'Town hall', church: 'Church' };
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
  const svg = svgRoot(width, top + players.length * rowH, 'Stacks, auction and cities');
  const wrap = h('div', { class: 'wettstreit' });

  // The stacks: click one to put its top card up for auction, or a card under it.
  const stacks = [['open', view.open_stack, 'Open stack'], ['face_down', view.face_down_stack, 'Face-down stack']];
  stacks.forEach(([name, st, label], i) => {
    const x = i * 170;
    const g = s('g', { 'data-stack': name }, face(x, 20, name === 'open' ? st.top : st.top || null),
      s('text', { x, y: 14, class: 'label' }, `${label} (${st.count})`));
    for (const type of ['AuctionTopCard', 'PutCardUnderStack']) {
      const m = ctx.moves.find((mv) => mv.command.type === type && mv.command.stack === name);
      if (m) {
        ctx.claimed.add(m);
        const t = s('rect', { x, y: 20, width: CW, height: CH, rx: 5, class: 'outline' });
        svg.append(moveTarget(t, m, type === 'AuctionTopCard' ? `Auction the top card of the ${label.toLowerCase()}` : `Put the card under the ${label.toLowerCase()}`, ctx));
      }
    }
    svg.prepend(g);
  });
  const a = view.auction;
  const info = [];
  if (a) {
    info.push(`Auction of the ${a.stack.replace('_', '-')} stack by ${seatName(a.auctioneer, n)}`);
    info.push(`High bid ${a.high_bid} by ${seatName(a.high_bidder, n)}; ${seatName(a.next_bidder, n)} to bid`);
    if (a.announced_kind) info.push(`Announced: ${KIND[a.announced_kind] || a.announced_kind}`);
    info.push(`Bids: ${a.bids.map((b, i) => `${n[i] || i}: ${b === null ? '—' : b}`).join(', ')}${a.passed.length ? `; passed: ${a.passed.map((p) => n[p] || p).join(', ')}` : ''}`);
    svg.append(s('text', { x: 340, y: 14, class: 'label' }, 'Up for auction'), face(340, 20, a.top || null, 'auction'));
  }
  info.push(`Phase: ${view.phase.replace(/_/g, ' ')}${view.last_die ? `, last die: ${view.last_die}` : ''}${view.final_round ? ', final round' : ''}; saboteurs in supply: ${view.saboteur_supply}`);
  if (view.ransom) info.push(`Ransom: ${seatName(view.ransom.owner, n)} may pay ${view.ransom.price} to keep ${KIND[view.ransom.building.kind]} ${view.ransom.building.value}`);
  info.forEach((t, i) => svg.append(s('text', { x: 420, y: 34 + i * 18, class: 'label' }, t)));

  players.forEach((p, i) => {
    const y = top + i * rowH;
    const me = p.seat === ctx.seat;
    const purse = p.money === null || p.money === undefined ? 'purse secret' : `purse ${p.money}`;
    svg.append(s('text', { x: 0, y: y + 12, class: 'label', fill: seatColour(p.seat) },
      `${seatName(p.seat, n)}${me ? ' (you)' : ''} — city value ${p.city_value}, shields ${p.shields}, gate coins ${p.gate_coins}, saboteurs ${p.saboteurs}, `,
      s('tspan', { 'data-purse': p.seat, class: p.money === null || p.money === undefined ? 'secret' : 'mine' }, purse)));
    // City, left to right; gaps left by saboteurs are dashed.
    p.city.forEach((c, j) => {
      const el = c ? face(j * (CW + 6), y + 20, c, 'built') : s('rect', { x: j * (CW + 6), y: y + 20, width: CW, height: CH, class: 'gap', rx: 5 });
      const sab = c && ctx.moves.find((m) => m.command.type === 'SabotageBuilding' && m.command.target === p.seat && m.command.card === c.card);
      if (sab) { ctx.claimed.add(sab); moveTarget(el, sab, `Sabotage ${KIND[c.kind]} ${c.value} of ${seatName(p.seat, n)}`, ctx); }
      svg.append(el);
    });
    if (!p.city.length) svg.append(s('text', { x: 0, y: y + 60, class: 'muted' }, 'no city yet'));
    // Hand: known cards face up, the rest as backs (with any announced kinds).
    const hy = y + CH + 44;
    svg.append(s('text', { x: 0, y: hy - 4, class: 'small' }, `hand ${p.hand_count}${p.announced_kinds.length ? `, announced: ${p.announced_kinds.map((k) => KIND[k] || k).join(', ')}` : ''}`));
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
    const button = h('button', { type: 'button', class: 'bid', 'data-move': JSON.stringify(bids[0].command) }, type === 'MakeOpeningBid' ? 'Open the bidding' : 'Raise');
    const pick = () => bids.find((m) => m.command.amount === Number(input.value));
    input.addEventListener('input', () => { const m = pick(); if (m) button.setAttribute('data-move', JSON.stringify(m.command)); });
    button.addEventListener('click', () => { const m = pick(); if (m) ctx.play(m); else input.setCustomValidity(`Bid between ${min} and ${max}.`), input.reportValidity(); });
    wrap.append(h('div', { class: 'bidbox' }, h('label', { for: input.id }, `Bid (${min}–${max}):`), ' ', input, ' ', button));
  }
  if (view.result) {
    wrap.append(h('div', { class: 'result' }, h('h3', {}, 'Result'), h('ul', {}, view.result.scores.map((sc) => h('li', {}, JSON.stringify(sc).replace(/[{}"]/g, '').replace(/,/g, ', '))))));
  }
  return wrap;
}

export function describe(c, n) {
  switch (c.type) {
    case 'RollIncomeDie': return 'Roll the income die';
    case 'PassBid': return 'Pass';
    case 'TakeSaboteurFrom': return `Take a saboteur from ${seatName(c.from, n)}`;
    case 'SabotageHand': return `Sabotage the hand of ${seatName(c.target, n)}`;
    case 'BuildCard': return `Build card ${c.card} at city slot ${c.slot}`;
    case 'FoundCity': return `Found a city with cards ${c.cards.join(', ')}`;
    case 'FinishBuildStep': return 'Finish building';
    case 'PayToKeepBuilding': return 'Pay the ransom and keep the building';
    case 'LetBuildingFall': return 'Let the building fall';
    default: return null;
  }
}
