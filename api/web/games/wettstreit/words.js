// Wettstreit der Baumeister: each event as a sentence. Cards are named by kind and value, from
// the printed deck (ids 0–39, as in the rules document's table).

const DECK = [
  ...[1, 1, 2, 2, 3].map((v) => ['left_corner_tower', v]), ...[1, 1, 2, 2, 3].map((v) => ['right_corner_tower', v]),
  ...[1, 1, 2, 2, 3, 3].map((v) => ['tower', v]), ...[2, 2, 3, 3, 3, 4, 4, 4, 5, 5].map((v) => ['city_gate', v]),
  ...[5, 5, 6, 6, 7, 7].map((v) => ['town_hall', v]), ...[4, 5, 5, 6, 6, 7, 8, 9].map((v) => ['church', v]),
];

export function cardName(card, c, kind) {
  if (card === null || card === undefined) return kind ? c.t('ws.hidden_kind', { kind: c.t(`ws.kind.${kind}`) }) : c.t('ws.hidden');
  const [k, v] = DECK[card] || [kind, '?'];
  return c.t('ws.card', { kind: c.t(`ws.kind.${k}`), value: v });
}
const stack = (s, c) => c.t(`ws.stack.${s}`);
const die = (d, c) => (d === 'saboteur' ? c.t('ws.die.saboteur') : c.t('ws.die.number', { n: { one: 1, two: 2, three: 3, four: 4, five: 5 }[d] }));

export default {
  WettstreitGameStarted: (e, c) => c.s('WettstreitGameStarted', { players: e.players, first: c.name(e.starting_seat) }),
  // The stacks' contents are secret until the game ends (`null` for players): then only that they were laid.
  WettstreitCardsShuffled: (e, c) => (Array.isArray(e.open) && Array.isArray(e.face_down)
    ? c.s('WettstreitCardsShuffled', { open: e.open.length, down: e.face_down.length })
    : c.s('WettstreitCardsShuffled.hidden', {})),
  OpenStackTopShown: (e, c) => (e.card === null ? c.s('OpenStackTopShown.empty', {}) : c.s('OpenStackTopShown', { card: cardName(e.card, c) })),
  WettstreitTurnBegan: (e, c) => c.s(e.final_round ? 'WettstreitTurnBegan.final' : 'WettstreitTurnBegan', { who: c.name(e.seat) }),
  IncomeRolled: (e, c) => c.s(e.taler === null || e.taler === undefined ? 'IncomeRolled.secret' : 'IncomeRolled', { who: c.name(e.seat), die: die(e.die, c), gate: e.gate_coins, taler: e.taler }),
  SaboteurTaken: (e, c) => (e.from === null || e.from === undefined ? c.s('SaboteurTaken', { who: c.name(e.seat) }) : c.s('SaboteurTaken.from', { who: c.name(e.seat), whom: c.name(e.from) })),
  CardPutUpForAuction: (e, c) => c.s('CardPutUpForAuction', { who: c.name(e.auctioneer), card: cardName(e.card, c), stack: stack(e.stack, c) }),
  AuctionOpened: (e, c) => c.s('AuctionOpened', { who: c.name(e.auctioneer), card: cardName(e.card, c), amount: e.opening_bid }),
  BidRaised: (e, c) => c.s('BidRaised', { who: c.name(e.seat), amount: e.amount }),
  BidPassed: (e, c) => c.s('BidPassed', { who: c.name(e.seat) }),
  CardKindAnnounced: (e, c) => c.s('CardKindAnnounced', { who: c.name(e.auctioneer), kind: c.t(`ws.kind.${e.kind}`) }),
  BidderInsolvent: (e, c) => c.s('BidderInsolvent', { who: c.name(e.seat), bid: e.bid }),
  AuctionWon: (e, c) => c.s('AuctionWon', { who: c.name(e.buyer), card: cardName(e.card, c, e.kind), price: e.price, seller: c.name(e.auctioneer), half: e.to_auctioneer, bank: e.to_bank }),
  AuctionCardRemoved: (e, c) => c.s('AuctionCardRemoved', { card: cardName(e.card, c, e.kind) }),
  CityFounded: (e, c) => c.s('CityFounded', { who: c.name(e.seat), cards: c.list(e.cards.map((x) => cardName(x, c))) }),
  CardBuilt: (e, c) => c.s('CardBuilt', { who: c.name(e.seat), card: cardName(e.card, c) }),
  BuildingSabotaged: (e, c) => c.s('BuildingSabotaged', { who: c.name(e.by), card: cardName(e.card, c), whom: c.name(e.target), die: die(e.die, c) }),
  BuildingRansomed: (e, c) => c.s('BuildingRansomed', { who: c.name(e.owner), card: cardName(e.card, c), amount: e.amount, whom: c.name(e.paid_to) }),
  BuildingRemoved: (e, c) => c.s('BuildingRemoved', { card: cardName(e.card, c), whom: c.name(e.owner) }),
  CardPutUnderStack: (e, c) => c.s('CardPutUnderStack', { card: cardName(e.card, c), stack: stack(e.stack, c) }),
  HandSabotaged: (e, c) => c.s('HandSabotaged', { who: c.name(e.by), card: cardName(e.card, c), whom: c.name(e.target) }),
  WettstreitGameEnded: (e, c) => c.s('WettstreitGameEnded', { winners: c.names(e.winners) }),
};
