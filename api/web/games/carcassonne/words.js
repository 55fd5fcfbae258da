// Carcassonne: each event as a sentence, in the rulebook's terms (followers as thief, knight,
// monk or farmer; Magier & Hexe; gold ingots).

const ROLE = { road: 'thief', city: 'knight', cloister: 'monk', field: 'farmer' };
const at = (e) => `(${e.x}, ${e.y})`;
const feature = (f, c) => c.t(`cc.feature.${f}`);
// A tile by its name, as the rulebook's tile list describes it.
const tile = (id, c) => c.t('cc.tile_ref', { name: c.t(`cc.tile.${id}`) });

export default {
  CarcassonneGameStarted: (e, c) => c.s('CarcassonneGameStarted', { players: e.players, first: c.name(e.starting_seat), followers: e.followers }),
  StartTilePlaced: (e, c) => c.s('StartTilePlaced', { at: at(e) }),
  TileDrawn: (e, c) => c.s('TileDrawn', { who: c.name(e.seat), tile: tile(e.tile, c) }),
  TileDiscarded: (e, c) => c.s('TileDiscarded', { who: c.name(e.seat), tile: tile(e.tile, c) }),
  TilePlaced: (e, c) => c.s('TilePlaced', { who: c.name(e.seat), tile: tile(e.tile, c), at: at(e), deg: e.rotation }),
  FollowerPlaced: (e, c) => c.s('FollowerPlaced', { who: c.name(e.seat), role: c.t(`cc.role.${ROLE[e.feature]}`), feature: feature(e.feature, c), at: at(e) }),
  FollowerSkipped: (e, c) => c.s('FollowerSkipped', { who: c.name(e.seat) }),
  FollowerReturned: (e, c) => c.s('FollowerReturned', { who: c.name(e.seat), at: at(e) }),
  MageOrWitchPlaced: (e, c) => c.s('MageOrWitchPlaced', { who: c.name(e.seat), figure: c.t(`cc.figure.${e.figure}`), at: at(e) }),
  MageOrWitchRemoved: (e, c) => c.s('MageOrWitchRemoved', { figure: c.t(`cc.figure.${e.figure}`), why: c.t(`cc.removal.${e.reason}`) }),
  GoldIngotPlaced: (e, c) => c.s('GoldIngotPlaced', { who: c.name(e.seat), at: at(e) }),
  GoldIngotTaken: (e, c) => c.s('GoldIngotTaken', { who: c.name(e.seat), at: at(e) }),
  FeatureScored: (e, c) => c.s(e.seats.length ? (e.completed ? 'FeatureScored' : 'FeatureScored.unfinished') : 'FeatureScored.nobody',
    { who: c.names(e.seats), feature: feature(e.feature, c), tiles: e.tiles.length, points: e.points }),
  FarmScored: (e, c) => c.s('FarmScored', { who: c.names(e.seats), cities: e.cities, points: e.points }),
  IngotsScored: (e, c) => c.s('IngotsScored', { who: c.name(e.seat), n: e.ingots, points: e.points }),
  CarcassonneGameEnded: (e, c) => c.s('CarcassonneGameEnded', { winners: c.names(e.winners) }),
};
