// Mauerbauer: each event as a sentence, guild cards by their names and pieces by colour.

export const guildCard = (id, c) => c.t(`mb.guild.${id}`);
const colour = (x, c) => c.t(`mb.colour.${x}`);

export default {
  MauerbauerGameStarted: (e, c) => c.s('MauerbauerGameStarted', { players: e.players, first: c.name(e.starting_seat) }),
  WallBuilt: (e, c) => c.s('WallBuilt', { who: c.name(e.seat) }),
  MauerbauerDiceRolled: (e, c) => c.s('MauerbauerDiceRolled', { who: c.name(e.seat), houses: c.list(e.houses.map((x) => colour(x, c))), tower: e.tower ? colour(e.tower, c) : c.t('mb.no_tower') }),
  TowersPlaced: (e, c) => c.s('TowersPlaced', { who: c.name(e.seat), towers: c.list(e.towers.map((x) => colour(x.colour, c))) || '—' }),
  HousesPlaced: (e, c) => c.s('HousesPlaced', { who: c.name(e.seat), houses: c.list(e.houses.map((x) => colour(x.colour, c))) || '—' }),
  CityWalledIn: (e, c) => c.s('CityWalledIn', { n: e.fields.length }),
  PalacesBuilt: (e, c) => c.s('PalacesBuilt', { palaces: c.list(e.palaces.map((x) => colour(x, c))) }),
  WalledCitiesJoined: (e, c) => c.s('WalledCitiesJoined', { who: c.name(e.seat) }),
  CitiesKeptApart: (e, c) => c.s('CitiesKeptApart', { who: c.name(e.seat) }),
  GuildScoringStarted: (e, c) => c.s('GuildScoringStarted', { order: c.names(e.order) }),
  GuildCardsLaid: (e, c) => c.s('GuildCardsLaid', { who: c.name(e.seat), cards: c.list(e.cards.map((x) => c.t('mb.scored', { card: guildCard(x.card, c), points: x.points }))), points: e.points }),
  GuildCardDiscarded: (e, c) => c.s('GuildCardDiscarded', { who: c.name(e.seat), card: guildCard(e.card, c) }),
  GuildCardsDrawn: (e, c) => c.s('GuildCardsDrawn', { who: c.name(e.seat), n: e.count }),
  GuildScoringEnded: (e, c) => (e.last_place.length ? c.s('GuildScoringEnded.swap', { who: c.names(e.last_place) }) : c.s('GuildScoringEnded', {})),
  GuildCardSwappedOut: (e, c) => c.s('GuildCardSwappedOut', { who: c.name(e.seat), card: guildCard(e.card, c) }),
  CardSwapFinished: (e, c) => c.s('CardSwapFinished', { who: c.name(e.seat) }),
  GuildDiscardsReshuffled: (e, c) => c.s('GuildDiscardsReshuffled', { n: e.cards }),
  DiceHandedOn: (e, c) => c.s('DiceHandedOn', { who: c.name(e.seat) }),
  FinalScoringStarted: (e, c) => c.s('FinalScoringStarted', { order: c.names(e.order) }),
  FinalCityChosen: (e, c) => c.s('FinalCityChosen', { who: c.name(e.seat) }),
  FinalScoringPassed: (e, c) => c.s('FinalScoringPassed', { who: c.name(e.seat) }),
  MauerbauerGameEnded: (e, c) => c.s('MauerbauerGameEnded', { why: c.t(`mb.end.${e.reason}`), winners: c.names(e.winners) }),
};
