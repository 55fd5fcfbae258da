// Space Builder: each event as a sentence. Times are said as the time of day to the second, as
// the page's language writes it, never as raw timestamps.

const card = (p, c) => (p && p.card !== undefined ? c.t('sb.card', { n: p.card }) : c.t('sb.a_card'));

export default {
  SpaceBuilderGameStarted: (e, c) => c.s('SpaceBuilderGameStarted', { players: e.players, cards: e.starting_hand.length, timing: c.t(`sb.timing.${e.timing}`) }),
  BlueprintRevealed: (e, c) => (e.blueprint ? c.s('BlueprintRevealed', { round: e.round, n: e.blueprint.number }) : c.s('BlueprintRevealed.hidden', { round: e.round })),
  BlueprintLookedAt: (e, c) => c.s('BlueprintLookedAt', { who: c.name(e.seat), round: e.round }),
  BlueprintsReshuffled: (e, c) => c.s('BlueprintsReshuffled', { round: e.round }),
  BuildingCardPlaced: (e, c) => c.s('BuildingCardPlaced', { who: c.name(e.seat), card: card(e.placement, c), t: c.time(e.at_ms) }),
  BuildingCardMoved: (e, c) => c.s('BuildingCardMoved', { who: c.name(e.seat), card: card(e.placement, c), t: c.time(e.at_ms) }),
  BuildingCardTakenBack: (e, c) => c.s('BuildingCardTakenBack', { who: c.name(e.seat), card: e.card === null || e.card === undefined ? c.t('sb.a_card') : c.t('sb.card', { n: e.card }), t: c.time(e.at_ms) }),
  CityDeclaredFinished: (e, c) => c.s('CityDeclaredFinished', { who: c.name(e.seat), round: e.round }),
  PlayerStoppedBuilding: (e, c) => c.s('PlayerStoppedBuilding', { who: c.name(e.seat), round: e.round }),
  BuildingStopped: (e, c) => c.s('BuildingStopped', { round: e.round, why: c.t(`sb.stop.${e.reason}`) }),
  CitiesChecked: (e, c) => c.s('CitiesChecked', { round: e.result.round, who: c.name(e.result.winner) }),
  BuildingCardReleased: (e, c) => c.s('BuildingCardReleased', { who: c.name(e.seat), card: c.t('sb.card', { n: e.card }) }),
  SpaceBuilderGameWon: (e, c) => c.s('SpaceBuilderGameWon', { who: c.name(e.seat), rounds: e.rounds }),
};
