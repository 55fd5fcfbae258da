// Der Wettkampf der Burgbaumeister: each event as a sentence. The 45 cards are numbered; a card
// with a symbol (variant) is named by it, as the rulebook does.

const SYMBOLS = { 37: 'king', 36: 'queen', 6: 'knight', 21: 'knight', 33: 'knight', 8: 'maiden', 25: 'maiden', 42: 'maiden',
  4: 'raven', 17: 'raven', 44: 'raven', 12: 'two_ravens', 31: 'two_ravens', 14: 'cannon', 27: 'cannon', 40: 'cannon',
  9: 'tower', 19: 'tower', 29: 'tower', 39: 'tower', 23: 'wizard' };

export function cardName(card, c) {
  const sym = SYMBOLS[card];
  return sym ? c.t('bb.card_symbol', { n: card, symbol: c.t(`bb.symbol.${sym}`) }) : c.t('bb.card', { n: card });
}

export default {
  CastleGameStarted: (e, c) => c.s('CastleGameStarted', { players: e.players, first: c.name(e.starting_seat), rules: c.t(e.variant ? 'bb.variant' : 'bb.base') }),
  StoreLaidOut: (e, c) => c.s('StoreLaidOut', { n: e.cards.length }),
  CardTurnedUp: (e, c) => c.s('CardTurnedUp', { who: c.name(e.seat), card: cardName(e.card, c) }),
  CardAddedToWall: (e, c) => c.s(e.by_wizard ? 'CardAddedToWall.wizard' : 'CardAddedToWall', { who: c.name(e.seat), card: cardName(e.card, c), pos: e.position + 1 }),
  CardReturned: (e, c) => c.s('CardReturned', { who: c.name(e.seat) }),
  CardDestroyed: (e, c) => c.s('CardDestroyed', { who: c.name(e.by), card: cardName(e.card, c), whom: c.name(e.target) }),
  CannonLapsed: (e, c) => c.s('CannonLapsed', { who: c.name(e.seat) }),
  CannonDeclined: (e, c) => c.s('CannonDeclined', { who: c.name(e.seat) }),
  TurnPassed: (e, c) => c.s('TurnPassed', { who: c.name(e.seat) }),
  CastleGameEnded: (e, c) => c.s('CastleGameEnded', { why: c.t(`bb.end.${e.reason}`), winners: c.names(e.winners) }),
};
