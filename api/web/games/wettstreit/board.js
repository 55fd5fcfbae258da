// Wettstreit der Baumeister: the two stacks, the auction, every player's city, hand and
// saboteurs, and your own purse (the others' purses are secret and never in your view).

import { s, h, svgRoot, moveTarget, clickable, seatName, place, seatBadge, swatch, lastFrame, lastMoveKey, rove, zoomable, legend, t } from '../common.js';
import { list } from '../../words.js';
import { context } from '../../words/context.js';
import { cardName } from './words.js';

// A card by its kind and value, as printed on it: a card's id (0–39) is the server's index into
// the deck, printed nowhere.
const named = (card) => cardName(card, context({}));
// A place in a city, counted from 1 at its leftmost card; slot -1 extends the city to the left.
const buildLabel = (key, card, slot) => t(slot < 0 ? `${key}.left` : key, { card: named(card), slot: place(slot) });

const CW = 58;
const CH = 78;
const KIND = new Proxy({}, { get: (_, kind) => t(`ws.short.${String(kind)}`) });
const KIND_CLASS = { left_corner_tower: 'k-tower', right_corner_tower: 'k-tower', tower: 'k-tower', city_gate: 'k-gate', town_hall: 'k-hall', church: 'k-church' };

function face(x, y, c, extra = '') {
  if (!c) return s('g', { transform: `translate(${x},${y})`, class: 'card back' }, s('rect', { width: CW, height: CH, rx: 5 }), s('text', { x: CW / 2, y: CH / 2 + 6, 'text-anchor': 'middle', class: 'num' }, '?'));
  return s('g', { transform: `translate(${x},${y})`, class: `card ${KIND_CLASS[c.kind] || ''} ${extra}`, 'data-card': c.card },
    s('rect', { width: CW, height: CH, rx: 5 }),
    s('text', { x: CW / 2, y: 30, 'text-anchor': 'middle', class: 'num' }, c.value),
    kindLabel(KIND[c.kind] || c.kind));
}

// A card's kind under its number: on two lines where one would be wider than the card (12 px
// type, about 6.5 px a character: "Right tower", "Town hall").
function kindLabel(text) {
  const at = { x: CW / 2, 'text-anchor': 'middle', class: 'small' };
  const space = text.indexOf(' ');
  if (text.length * 6.5 <= CW - 6 || space < 0) return s('text', { ...at, y: CH - 10 }, text);
  return s('text', { ...at, y: CH - 22 }, s('tspan', { x: CW / 2 }, text.slice(0, space)), s('tspan', { x: CW / 2, dy: 13 }, text.slice(space + 1)));
}

// The income die as it lies on the table: its pips (none before the first roll).
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
function die(x, y, value) {
  return s('g', { class: 'die', 'data-die': value || '' }, s('rect', { x, y, width: 52, height: 52, rx: 9 }),
    ...(PIPS[value] || []).map(([a, b]) => s('circle', { cx: x + 26 + a * 13, cy: y + 26 + b * 13, r: 4.5 })));
}
// The card picked from the hand to build (then a place in the city is tapped), and the three
// cards chosen, left to right, to found the city with.
const pick = { card: null, found: [] };
// A saboteur: a hooded figure.
const saboteur = (x, y) => s('path', { class: 'saboteur', d: `M${x} ${y - 16} a7 7 0 1 1 0.1 0 Z M${x - 12} ${y + 14} Q${x - 12} ${y - 6} ${x} ${y - 6} Q${x + 12} ${y - 6} ${x + 12} ${y + 14} Z` });

// The last move's events, for its frame on the board.
const MARKED = ['CardBuilt', 'CityFounded', 'BuildingSabotaged', 'AuctionWon', 'IncomeRolled', 'SaboteurTaken', 'HandSabotaged', 'CardPutUpForAuction', 'CardPutUnderStack', 'BuildingRemoved', 'AuctionCardRemoved', 'AuctionOpened', 'BidRaised', 'BidPassed', 'CardKindAnnounced', 'BidderInsolvent'];

export function render(view, ctx) {
  const n = ctx.names;
  const last = (ctx.recent || []).find((e) => MARKED.includes(e.type)) || {};
  const builds = ctx.moves.filter((m) => m.command.type === 'BuildCard');
  builds.forEach((m) => ctx.claimed.add(m));
  const buildable = [...new Set(builds.map((m) => m.command.card))];
  if (!buildable.includes(pick.card)) pick.card = buildable.length ? buildable[0] : null;
  // Founding the city: three hand cards laid at once where the city will stand. The first legal
  // three are laid out to begin with; tapping hand cards chooses others (in order). The moves
  // stay in the list too (they are many; the list reads each one out).
  const founds = ctx.moves.filter((m) => m.command.type === 'FoundCity');
  const prefixOf = (m) => pick.found.every((c, i) => m.command.cards[i] === c);
  if (!founds.length) pick.found = [];
  else if (!pick.found.length || !founds.some(prefixOf)) pick.found = [...founds[0].command.cards];
  const founding = founds.find((m) => m.command.cards.length === pick.found.length && prefixOf(m));
  const players = view.players;
  // As narrow as the longest city or hand (and the saboteurs beside it), so that little of it
  // lies beyond a phone's width at the readable scale (less panning) and the whole board stays
  // large in the overview: the facts go under the stacks, and each player's name and numbers on
  // two lines above the city.
  const rowH = CH * 2 + 98;
  const maxCity = Math.max(6, ...players.map((p) => p.city.length + 2));
  const maxHand = Math.max(4, ...players.map((p) => p.hand_count));
  const width = Math.max(600, 100 + Math.max(maxCity + 1, maxHand) * (CW + 6));
  // The facts (auction, phase, supply) are words above the board, wrapped to the page's width.
  const top = 186;
  const svg = svgRoot(width, top + players.length * rowH, t('ws.ui.aria'));
  const wrap = h('div', { class: 'wettstreit' });
  drawMiddle(svg, view, ctx, last);
  wrap.append(h('ul', { class: 'ws-info', id: 'ws-info' }, facts(view, n).map((line) => h('li', {}, line))));
  const row = { svg, ctx, n, last, width, builds, buildable, founds, founding };
  players.forEach((p, i) => drawRow(row, p, top + i * rowH + 18, rowH));
  // A move marked nowhere else: the row of the player who made it.
  if (last.type && !svg.querySelector('.last-move')) {
    const who = [last.seat, last.buyer, last.auctioneer, last.by].find((x) => x !== undefined && x !== null);
    const i = players.findIndex((p) => p.seat === who);
    if (i >= 0) svg.append(lastFrame(0, top + i * rowH - 4, width - 100, 40, 4));
  }
  const signs = [lastMoveKey(), [swatch(saboteur(12, 14), ''), t('boards.w.saboteur_key')]];
  wrap.append(zoomable(rove(svg, 'wettstreit'), { key: 'wettstreit' }), legend(signs, t('boards.legend')));
  wrap.append(...bidBoxes(players, ctx));
  if (view.result) {
    wrap.append(h('div', { class: 'result' }, h('h3', {}, t('game.results')), h('ul', {}, view.result.scores.map((sc) => h('li', {}, `${seatName(sc.seat, n)}: ${Object.entries(sc).filter(([k]) => k !== 'seat').map(([k, v]) => t(`ws.score.${k}`, { v: typeof v === 'boolean' ? t(v ? 'words.yes' : 'words.no') : v })).join(', ')}`)))));
  }
  return wrap;
}

/** The facts above the board, a line each: the auction, the phase and the die, the supply, a ransom. */
function facts(view, n) {
  const info = [];
  const a = view.auction;
  if (a) {
    info.push(t('ws.ui.auction_of', { stack: t(`ws.stack.${a.stack}`), who: seatName(a.auctioneer, n) }));
    info.push(t('ws.ui.high_bid', { amount: a.high_bid, who: seatName(a.high_bidder, n), next: seatName(a.next_bidder, n) }));
    if (a.announced_kind) info.push(t('ws.ui.announced', { kind: KIND[a.announced_kind] }));
    info.push(`${t('ws.ui.bids', { list: a.bids.map((b, i) => `${n[i] || i + 1}: ${b === null ? '-' : b}`).join(', ') })}${a.passed.length ? `; ${t('ws.ui.passed', { list: a.passed.map((p) => n[p] || p + 1).join(', ') })}` : ''}`);
  }
  info.push(`${t('ui.phase', { phase: t(`ws.phase.${view.phase}`) })}${view.last_die ? `, ${t('ws.ui.last_die', { die: t(`ws.face.${view.last_die}`) })}` : ''}${view.final_round ? `, ${t('ws.ui.final_round')}` : ''}`);
  info.push(t('ws.ui.saboteur_supply', { n: view.saboteur_supply }));
  if (view.ransom) info.push(t('ws.ui.ransom', { who: seatName(view.ransom.owner, n), price: view.ransom.price, kind: KIND[view.ransom.building.kind], value: view.ransom.building.value }));
  return info;
}

/**
 * The top of the board: the two stacks (tap one to put its top card up for auction, or the band
 * below it to put a card under it), the income die (tap it to roll) and the card up for auction,
 * side by side within a phone's width (360).
 */
function drawMiddle(svg, view, ctx, last) {
  const stacks = [['open', view.open_stack, t('ws.ui.open_stack')], ['face_down', view.face_down_stack, t('ws.ui.face_down_stack')]];
  stacks.forEach(([name, st, label], i) => {
    const x = i * 110;
    const g = s('g', { 'data-stack': name }, face(x, 20, name === 'open' ? st.top : st.top || null),
      s('text', { x, y: 14, class: 'label' }, `${label} (${st.count})`));
    const auction = ctx.moves.find((mv) => mv.command.type === 'AuctionTopCard' && mv.command.stack === name);
    if (auction) { ctx.claimed.add(auction); svg.append(moveTarget(s('rect', { x, y: 20, width: CW, height: CH, rx: 5, class: 'outline' }), auction, t('mv.AuctionTopCard', { stack: t(`ws.stack.${name}`) }), ctx)); }
    const under = ctx.moves.find((mv) => mv.command.type === 'PutCardUnderStack' && mv.command.stack === name);
    if (under) {
      ctx.claimed.add(under);
      svg.append(moveTarget(s('g', { class: 'under-target' }, s('rect', { x: x - 6, y: CH + 26, width: CW + 12, height: 44, rx: 6 }), s('text', { x: x + CW / 2, y: CH + 53, 'text-anchor': 'middle', class: 'small' }, t('boards.w.under'))), under, t('mv.PutCardUnderStack', { stack: t(`ws.stack.${name}`) }), ctx));
    }
    if (['CardPutUpForAuction', 'CardPutUnderStack', 'AuctionCardRemoved'].includes(last.type) && last.stack === name) svg.append(lastFrame(x, 20, CW, CH));
    svg.prepend(g);
  });
  const dieEl = die(300, 26, view.last_die);
  const roll = ctx.moves.find((m) => m.command.type === 'RollIncomeDie');
  if (roll) { ctx.claimed.add(roll); moveTarget(dieEl, roll, t('boards.w.roll'), ctx); }
  svg.append(s('text', { x: 326, y: 96, 'text-anchor': 'middle', class: 'small' }, t('boards.w.die')), dieEl);
  if (last.type === 'IncomeRolled') svg.append(lastFrame(300, 26, 52, 52));
  const a = view.auction;
  if (a) {
    svg.append(s('text', { x: 220, y: 14, class: 'label' }, t('ws.ui.up_for_auction')), face(220, 20, a.top || null, 'auction'));
    if (['CardPutUpForAuction', 'AuctionOpened', 'BidRaised', 'BidPassed', 'CardKindAnnounced'].includes(last.type)) svg.append(lastFrame(220, 20, CW, CH));
  }
}

/** One player's row, its top 18 above `y`: the name and purse, then the numbers, the city at y + 20, the saboteurs beside it, the hand below. */
function drawRow(row, p, y, rowH) {
  const { svg, ctx, n, last, width } = row;
  const me = p.seat === ctx.seat;
  // The player's own row (name, city, hand): what the board opens on with the moves (zoom.js).
  if (me) svg.append(s('rect', { x: 0, y: y - 20, width: width - 100, height: rowH - 24, class: 'own-area' }));
  const purse = p.money === null || p.money === undefined ? t('ws.ui.purse_secret') : t('ws.ui.purse', { n: p.money });
  svg.append(seatBadge(p.seat, 0, y - 6), s('text', { x: 18, y: y - 6, class: 'label' },
    `${seatName(p.seat, n)}${me ? t('ui.you') : ''} — `,
    s('tspan', { 'data-purse': p.seat, class: p.money === null || p.money === undefined ? 'secret' : 'mine' }, purse)),
  s('text', { x: 18, y: y + 12, class: 'label' }, t('ws.ui.player', { value: p.city_value, shields: p.shields, gate: p.gate_coins, saboteurs: p.saboteurs })));
  if (last.type === 'BidderInsolvent' && last.seat === p.seat) svg.append(lastFrame(0, y - 22, width - 100, 40, 4));
  drawCity(row, p, y, me);
  // The saboteurs beside the city: tap another player's to take one.
  const sx = width - 80;
  const pile = s('g', { class: 'saboteurs', 'data-saboteurs': p.seat }, s('rect', { x: sx, y: y + 20, width: CW, height: CH, rx: 6, class: 'pile' }), saboteur(sx + CW / 2, y + 50), s('text', { x: sx + CW / 2, y: y + CH + 12, 'text-anchor': 'middle', class: 'small' }, `x ${p.saboteurs}`));
  const takeFrom = ctx.moves.find((m) => m.command.type === 'TakeSaboteurFrom' && m.command.from === p.seat);
  if (takeFrom) { ctx.claimed.add(takeFrom); moveTarget(pile, takeFrom, t('mv.TakeSaboteurFrom', { from: seatName(p.seat, n) }), ctx); }
  svg.append(pile);
  if (last.type === 'SaboteurTaken' && last.from === p.seat) svg.append(lastFrame(sx, y + 20, CW, CH));
  drawHand(row, p, y + CH + 44, me);
}

/**
 * A city, left to right (a card's place: slot -1 is left of it; gaps left by saboteurs dashed),
 * with, in one's own, the cards chosen to found it or the places the card picked from the hand
 * may go.
 */
function drawCity(row, p, y, me) {
  const { svg, ctx, n, last, builds, founds, founding } = row;
  const slotX = (slot) => (slot + 1) * (CW + 6);
  p.city.forEach((c, j) => {
    const el = c ? face(slotX(j), y + 20, c, 'built') : s('rect', { x: slotX(j), y: y + 20, width: CW, height: CH, class: 'gap', rx: 5 });
    const sab = c && ctx.moves.find((m) => m.command.type === 'SabotageBuilding' && m.command.target === p.seat && m.command.card === c.card);
    if (sab) { ctx.claimed.add(sab); moveTarget(el, sab, t('ws.ui.sabotage', { kind: KIND[c.kind], value: c.value, whom: seatName(p.seat, n) }), ctx); }
    svg.append(el);
    if (c && ((last.type === 'CardBuilt' && last.seat === p.seat && last.card === c.card) || (last.type === 'CityFounded' && last.seat === p.seat && (last.cards || []).includes(c.card)))) svg.append(lastFrame(slotX(j), y + 20, CW, CH));
    if (!c && last.type === 'BuildingSabotaged' && last.target === p.seat) svg.append(lastFrame(slotX(j), y + 20, CW, CH));
  });
  if (!p.city.length && !(me && founds.length)) svg.append(s('text', { x: slotX(0), y: y + 60, class: 'muted' }, t('ws.ui.no_city')));
  // Founding: the chosen cards lie where the city will stand; tap them to found it.
  if (me && founds.length) {
    const cards = pick.found.map((id) => p.hand.find((c) => c.card === id)).filter(Boolean);
    const laid = s('g', { class: 'found-target' }, s('rect', { x: slotX(0) - 4, y: y + 16, width: 3 * (CW + 6) + 2, height: CH + 8, rx: 7, class: 'outline' }),
      ...cards.map((c, j) => face(slotX(j), y + 20, c, 'planned')));
    if (founding) {
      const words = list(cards.map((c) => `${KIND[c.kind] || c.kind} ${c.value}`));
      svg.append(moveTarget(laid, founding, t('boards.w.found', { cards: words }), ctx));
    } else {
      svg.append(laid, s('text', { x: slotX(cards.length), y: y + 60, class: 'muted' }, t('boards.w.found_more')));
    }
  }
  // Building: the places in the city where the card picked from the hand may go.
  if (me) {
    for (const m of builds.filter((mv) => mv.command.card === pick.card)) {
      const x = slotX(m.command.slot);
      svg.append(moveTarget(s('g', { class: 'slot-target' }, s('rect', { x, y: y + 20, width: CW, height: CH, rx: 5 }), s('text', { x: x + CW / 2, y: y + 64, 'text-anchor': 'middle', class: 'plus' }, '+')), m, buildLabel('boards.w.build', pick.card, m.command.slot), ctx));
    }
  }
}

/** A hand at `hy`: known cards face up, the rest as backs (with any announced kinds); one's own cards picked by a tap. */
function drawHand(row, p, hy, me) {
  const { svg, ctx, n, last, buildable, founds } = row;
  svg.append(s('text', { x: 0, y: hy - 4, class: 'small' }, `${t('ws.ui.hand', { n: p.hand_count })}${p.announced_kinds.length ? `, ${t('ws.ui.announced', { kind: p.announced_kinds.map((k) => KIND[k]).join(', ') })}` : ''}`));
  const hidden = Math.max(0, p.hand_count - p.hand.length);
  p.hand.forEach((c, j) => {
    const el = face(j * (CW + 6), hy, c, pick.card === c.card ? 'hand picked' : 'hand');
    // Your hand: tap a card to build it, then a place in your city.
    if (me && buildable.includes(c.card)) {
      clickable(el, t('boards.w.pick', { card: `${KIND[c.kind] || c.kind} ${c.value}` }), () => { pick.card = c.card; ctx.rerender(); }, { 'data-pick-hand': c.card, 'aria-pressed': String(pick.card === c.card) });
    } else if (me && founds.some((m) => m.command.cards.includes(c.card))) {
      // Founding: a tap adds the card to the three (or takes it back out); a fourth starts anew.
      const chosen = pick.found.includes(c.card);
      if (chosen) el.setAttribute('class', `${el.getAttribute('class')} picked`);
      clickable(el, t(chosen ? 'boards.w.unchoose' : 'boards.w.choose', { card: `${KIND[c.kind] || c.kind} ${c.value}` }), () => {
        pick.found = chosen ? pick.found.filter((x) => x !== c.card) : pick.found.length >= 3 ? [c.card] : [...pick.found, c.card];
        if (!pick.found.length) pick.found = [c.card];
        ctx.rerender();
      }, { 'data-pick-hand': c.card, 'aria-pressed': String(chosen) });
    }
    svg.append(el);
    if (last.type === 'AuctionWon' && last.buyer === p.seat && last.card === c.card) svg.append(lastFrame(j * (CW + 6), hy, CW, CH));
  });
  for (let j = 0; j < hidden; j++) svg.append(s('g', { 'data-hidden-card': p.seat }, face((p.hand.length + j) * (CW + 6), hy, null)));
  // Sabotaging a hand: tap the player's hand.
  const handHit = ctx.moves.find((m) => m.command.type === 'SabotageHand' && m.command.target === p.seat);
  if (handHit) {
    ctx.claimed.add(handHit);
    svg.append(moveTarget(s('rect', { x: -4, y: hy - 4, width: Math.max(1, p.hand_count) * (CW + 6) + 2, height: CH + 8, rx: 6, class: 'outline' }), handHit, t('mv.SabotageHand', { target: seatName(p.seat, n) }), ctx));
  }
  if ((last.type === 'HandSabotaged' && last.target === p.seat) || (last.type === 'AuctionWon' && last.buyer === p.seat && !p.hand.some((c) => c.card === last.card))) svg.append(lastFrame(0, hy, Math.max(1, p.hand_count) * (CW + 6) - 6, CH));
}

/**
 * Bids: a number within the legal amounts, not ninety buttons; passing beside it. A bid beyond
 * the player's Taler is allowed (the rules let a bidder go insolvent) but said so first.
 */
function bidBoxes(players, ctx) {
  const mine = players.find((p) => p.seat === ctx.seat);
  const money = mine && Number.isInteger(mine.money) ? mine.money : null;
  const pass = ctx.moves.find((m) => m.command.type === 'PassBid');
  const boxes = [];
  for (const type of ['MakeOpeningBid', 'RaiseBid']) {
    const bids = ctx.moves.filter((m) => m.command.type === type);
    if (!bids.length) continue;
    bids.forEach((m) => ctx.claimed.add(m));
    const amounts = bids.map((m) => m.command.amount);
    const min = Math.min(...amounts);
    const max = Math.max(...amounts);
    const input = h('input', { type: 'number', id: `bid-${type}`, min, max, value: min, inputmode: 'numeric', 'aria-describedby': `bid-${type}-note` });
    const note = h('p', { class: 'bid-note', id: `bid-${type}-note`, role: 'status' });
    const warn = () => {
      const over = money !== null && Number(input.value) > money;
      note.textContent = over ? t('ws.ui.bid_over', { n: money }) : money !== null ? t('ws.ui.bid_purse', { n: money }) : '';
      note.classList.toggle('warn', over);
    };
    input.addEventListener('input', warn);
    warn();
    const button = h('button', { type: 'button', class: 'bid', 'data-move': JSON.stringify(bids[0].command) }, type === 'MakeOpeningBid' ? t('ws.ui.open_bidding') : t('ws.ui.raise'));
    const chosen = () => bids.find((m) => m.command.amount === Number(input.value));
    input.addEventListener('input', () => { const m = chosen(); if (m) button.setAttribute('data-move', JSON.stringify(m.command)); });
    button.addEventListener('click', () => { const m = chosen(); if (m) ctx.play(m); else input.setCustomValidity(t('ws.ui.bid_between', { min, max })), input.reportValidity(); });
    const passing = pass ? (ctx.claimed.add(pass), h('button', { type: 'button', class: 'secondary', 'data-move': JSON.stringify(pass.command), onclick: () => ctx.play(pass) }, t('mv.PassBid'))) : '';
    boxes.push(h('div', { class: 'bidbox' }, h('label', { for: input.id }, t('ws.ui.bid', { min, max })), ' ', input, ' ', button, ' ', passing, note));
  }
  return boxes;
}

/** A seat's standing for the seat line while the game keeps no score: its city's value and, where seen, its Taler. */
export function seatFacts(view, seat) {
  const p = (view.players || []).find((x) => x.seat === seat);
  if (!p) return '';
  return Number.isInteger(p.money) ? t('ws.ui.seat_facts_taler', { value: p.city_value, n: p.money }) : t('ws.ui.seat_facts', { value: p.city_value });
}

export function describe(c, n) {
  switch (c.type) {
    case 'RollIncomeDie': return t('mv.RollIncomeDie');
    case 'PassBid': return t('mv.PassBid');
    case 'TakeSaboteurFrom': return t('mv.TakeSaboteurFrom', { from: seatName(c.from, n) });
    case 'SabotageHand': return t('mv.SabotageHand', { target: seatName(c.target, n) });
    case 'BuildCard': return buildLabel('mv.BuildCard', c.card, c.slot);
    case 'FoundCity': return t('mv.FoundCity', { cards: list(c.cards.map(named)) });
    case 'SabotageBuilding': return t('mv.SabotageBuilding', { card: named(c.card), target: seatName(c.target, n) });
    case 'FinishBuildStep': return t('mv.FinishBuildStep');
    case 'PayToKeepBuilding': return t('mv.PayToKeepBuilding');
    case 'LetBuildingFall': return t('mv.LetBuildingFall');
    default: return null;
  }
}
