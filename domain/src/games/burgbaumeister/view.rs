//! What each viewer may see. A face-down card's number is known to nobody until it is turned
//! up: views show face-down slots without a card to players and spectators (a returned card is
//! shown face down again; players keep their own notes). Walls and the turned-up card are
//! public. `Viewer::Everyone` (auditors, and everybody once the game has ended) sees every card.

use crate::contract::Viewer;

use super::cannon::unprotected;
use super::events::*;
use super::options::*;
use super::scoring::{score, symbol};
use super::state::phase;
use super::state::*;
use super::wizard::wizard_ready;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;

/// One store slot as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterSlot)]
pub struct SlotView {
    pub slot: u8,
    /// `face_down`, `turned_up` or `empty` (its card is in a wall or out of the game).
    pub state: SlotState,
    /// The number, when the viewer may see it (turned up, or the game has ended).
    pub card: Option<Card>,
    pub symbol: Option<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterSlotState)]
pub enum SlotState {
    FaceDown,
    TurnedUp,
    Empty,
}

/// A card in a wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterWallCard)]
pub struct WallCard {
    pub card: Card,
    /// The symbol it shows (variant; always shown, meaningful only in the variant).
    pub symbol: Option<Symbol>,
    /// A cannon cannot destroy it: a tower, or left of the wall's last tower (the start tower
    /// counts). Variant only; always false in the base game, which has no cannons.
    pub protected: bool,
}

/// One player's wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterWall)]
pub struct WallView {
    pub seat: Seat,
    /// Left to right, right of the start tower (value 1).
    pub cards: Vec<WallCard>,
    /// Variant: a wizard in this wall whose power is not yet spent (usable from the turn after
    /// it joined; a wizard destroyed by a cannon takes its power with it).
    pub wizard_ready: bool,
    /// Score so far: points in the variant, the cards in the wall in the base game (the same
    /// numbers as the game status's scores).
    pub points: i64,
}

/// The board of Der Wettkampf der Burgbaumeister as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BurgbaumeisterView {
    pub variant: bool,
    /// The seat whose turn it is (absent once the game has ended).
    pub turn: Option<Seat>,
    /// What the player whose turn it is must do now.
    pub phase: Phase,
    /// The card turned up this turn, if any.
    pub turned_up: Option<TurnedUp>,
    /// All 45 slots.
    pub store: Vec<SlotView>,
    pub walls: Vec<WallView>,
}

pub fn view(state: &State, viewer: Viewer) -> BurgbaumeisterView {
    BurgbaumeisterView {
        walls: walls(state),
        ..judged_view(state, viewer)
    }
}

/// The view without the walls, which every viewer sees alike in every state (their cards are
/// public, and so are protection, points and a ready wizard). Undo's judgement looks only where
/// views differ between viewers, so it judges this one alike and need not write the walls
/// four times per command, nor score them (see `Game::judged_view`).
pub fn judged_view(state: &State, viewer: Viewer) -> BurgbaumeisterView {
    let sees_all = viewer == Viewer::Everyone;
    let turned_slot = state.turned_up.as_ref().map(|t| t.slot as usize);
    let store = (0..STORE_SLOTS)
        .map(|slot| {
            let card = state.store.get(slot).copied().flatten();
            let (slot_state, shown) = match card {
                None => (SlotState::Empty, None),
                Some(card) if turned_slot == Some(slot) => (SlotState::TurnedUp, Some(card)),
                Some(card) => (SlotState::FaceDown, sees_all.then_some(card)),
            };
            SlotView {
                slot: slot as u8,
                state: slot_state,
                card: shown,
                symbol: shown.and_then(symbol),
            }
        })
        .collect();
    BurgbaumeisterView {
        variant: state.variant,
        turn: (state.started && state.ended.is_none()).then_some(state.turn),
        phase: phase(state),
        turned_up: state.turned_up.clone(),
        store,
        walls: Vec::new(),
    }
}

fn walls(state: &State) -> Vec<WallView> {
    state
        .walls
        .iter()
        .enumerate()
        .map(|(seat, wall)| {
            // Protection only matters where cannons fire: in the variant.
            let safe = if state.variant {
                wall.len() - unprotected(wall).len()
            } else {
                0
            };
            WallView {
                seat: seat as u8,
                cards: wall
                    .iter()
                    .enumerate()
                    .map(|(i, &card)| WallCard {
                        card,
                        symbol: symbol(card),
                        protected: i < safe,
                    })
                    .collect(),
                wizard_ready: wizard_ready(state, seat as u8),
                points: score(state, seat),
            }
        })
        .collect()
}

/// Only the store's layout is secret; every other event is public.
pub fn redact(
    _state: &State,
    event: &BurgbaumeisterEvent,
    viewer: Viewer,
) -> Option<BurgbaumeisterEvent> {
    match event {
        BurgbaumeisterEvent::StoreLaidOut(_) if viewer != Viewer::Everyone => {
            Some(StoreLaidOut { cards: None }.into())
        }
        other => Some(other.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::test_support::*;
    use super::*;
    use crate::contract::Game;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::{given, viewers};

    #[test]
    fn face_down_cards_are_hidden_from_players_and_spectators() {
        let mut events = table(2, true, &[&[3], &[]], 0);
        events.push(turned_up(0, 20));
        let state = given::<Burgbaumeister>(events).state;
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let view = view(&state, viewer);
            assert_eq!(view.store.len(), STORE_SLOTS);
            for slot in &view.store {
                match slot.state {
                    SlotState::FaceDown => assert_eq!((slot.card, slot.symbol), (None, None)),
                    SlotState::TurnedUp => assert_eq!(slot.card, Some(20)),
                    SlotState::Empty => assert_eq!(slot.slot, slot_of(3)),
                }
            }
            assert_eq!(
                view.turned_up,
                Some(TurnedUp {
                    slot: slot_of(20),
                    card: 20
                })
            );
            assert_eq!(view.phase, Phase::Place);
            assert_eq!(view.turn, Some(0));
        }
        let all = view(&state, Viewer::Everyone);
        assert_eq!(all.store[slot_of(9) as usize].card, Some(9));
        assert_eq!(all.store[slot_of(9) as usize].symbol, Some(Symbol::Tower));
        assert_eq!(all.store[slot_of(9) as usize].state, SlotState::FaceDown);
    }

    #[test]
    fn walls_are_public_with_their_protection() {
        let state = given::<Burgbaumeister>(table(2, true, &[&[5, 9, 12, 19, 20], &[23]], 1)).state;
        let view = view(&state, Viewer::Spectator);
        let wall = &view.walls[0];
        let protected: Vec<bool> = wall.cards.iter().map(|c| c.protected).collect();
        assert_eq!(protected, vec![true, true, true, true, false]);
        assert_eq!(wall.cards[1].symbol, Some(Symbol::Tower));
        assert_eq!(wall.points, 7, "five cards and a two-raven card");
        assert!(view.walls[1].wizard_ready);
        assert!(!wall.wizard_ready);
        assert_eq!(view.turn, Some(1));
        assert_eq!(view.phase, Phase::TurnUp);
    }

    #[test]
    fn the_base_game_shows_no_protection_and_scores_cards() {
        let state = given::<Burgbaumeister>(table(2, false, &[&[5, 9, 12], &[23]], 1)).state;
        let view = view(&state, Viewer::Seat(0));
        assert!(view.walls[0].cards.iter().all(|c| !c.protected));
        assert_eq!(view.walls[0].points, 3);
        assert!(!view.walls[1].wizard_ready);
    }

    #[test]
    fn the_store_layout_is_redacted_for_all_but_everyone() {
        let state = given::<Burgbaumeister>(table(2, false, &[&[], &[]], 0)).state;
        let laid_out: BurgbaumeisterEvent = StoreLaidOut {
            cards: Some((2..=46).collect()),
        }
        .into();
        for viewer in viewers(2) {
            let redacted = Burgbaumeister::redact(&state, &laid_out, viewer).unwrap();
            if viewer == Viewer::Everyone {
                assert_eq!(redacted, laid_out);
            } else {
                assert_eq!(redacted, StoreLaidOut { cards: None }.into());
            }
        }
        let turned = turned_up(0, 7);
        assert_eq!(
            Burgbaumeister::redact(&state, &turned, Viewer::Spectator),
            Some(turned)
        );
    }
}
