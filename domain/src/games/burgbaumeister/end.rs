//! The end: the 9th card in a wall (start tower not counted) ends the game at once; a blocked
//! game ends after the turn that blocked it. Base game: the 9th card's builder wins; a blocked
//! game goes to the most cards, then the highest last card. Variant: always the most points,
//! then the highest last card. A tie on both is a shared win.

use crate::contract::Seat;

use super::events::*;
use super::options::*;
use super::scoring::score;
use super::state::*;
use super::turn::{can_add, last_card};
use super::wizard::{insert_position, wizard_ready};

/// Could `seat` place `card` on some later turn: add it, or insert it with a ready wizard?
pub fn could_place(state: &State, seat: Seat, card: Card) -> bool {
    let wall = &state.walls[seat as usize];
    can_add(wall, card) || (wizard_ready(state, seat) && insert_position(wall, card).is_some())
}

/// No player can place any card still in the store (or the store is empty). A ready wizard
/// keeps the game going while it could insert a store card (rules page **Decision**).
pub fn blocked(state: &State) -> bool {
    !state
        .store
        .iter()
        .flatten()
        .any(|&card| (0..state.players).any(|seat| could_place(state, seat, card)))
}

/// The winners: the best score, then the highest last card; everybody tied on both shares.
pub fn ranked_winners(state: &State) -> Vec<Seat> {
    let key = |seat: Seat| {
        (
            score(state, seat as usize),
            last_card(&state.walls[seat as usize]),
        )
    };
    let best = (0..state.players).map(key).max();
    (0..state.players)
        .filter(|&seat| Some(key(seat)) == best)
        .collect()
}

/// The event ending the game; `completer` is who added the 9th card, if that ended it.
pub fn game_ended(state: &State, reason: EndReason, completer: Option<Seat>) -> CastleGameEnded {
    let scores = (0..state.players as usize)
        .map(|seat| score(state, seat))
        .collect();
    let winners = match (state.variant, reason, completer) {
        (false, EndReason::WallComplete, Some(seat)) => vec![seat],
        _ => ranked_winners(state),
    };
    CastleGameEnded {
        reason,
        scores,
        winners,
    }
}

#[cfg(test)]
mod tests {
    use super::super::commands::*;

    use super::super::options::*;

    use super::super::tests::test_support::*;
    use super::*;
    use crate::contract::Game;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::given;

    const EIGHT: &[Card] = &[2, 3, 5, 7, 10, 11, 13, 15];

    #[test]
    fn the_ninth_card_ends_the_game_and_its_builder_wins() {
        let mut events = table(2, false, &[EIGHT, &[20, 30, 40, 41, 42, 43, 44, 45]], 0);
        events.push(turned_up(0, 16));
        let state = given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([
                added(0, 16, 8),
                castle_ended(EndReason::WallComplete, &[9, 8], &[0]),
            ]);
        let status = Burgbaumeister::status(&state);
        assert!(status.finished);
        assert!(status.to_act.is_empty());
        assert_eq!(status.winners, vec![0]);
        assert!(Burgbaumeister::legal_commands(&state, 0).is_empty());
        let view = Burgbaumeister::view(&state, crate::contract::Viewer::Everyone);
        assert_eq!((view.turn, view.phase), (None, Phase::Finished));
        assert_eq!(view.walls[0].cards.len(), WALL_TO_WIN);
    }

    #[test]
    fn after_the_end_no_command_is_accepted() {
        let mut events = table(2, false, &[EIGHT, &[]], 0);
        events.push(turned_up(0, 16));
        events.push(added(0, 16, 8));
        events.push(castle_ended(EndReason::WallComplete, &[9, 0], &[0]));
        given::<Burgbaumeister>(events)
            .when(1, TurnUpCard { slot: 30 })
            .then_error("game_over");
    }

    /// Seat 0 holds eight plain cards and turns up the cannon 27; seat 1's wall (knight 33,
    /// queen 36, king 37) is worth 10 points, one more than seat 0's nine cards.
    fn ninth_card_cannon() -> Vec<BurgbaumeisterEvent> {
        let mut events = table(2, true, &[EIGHT, &[33, 36, 37]], 0);
        events.push(turned_up(0, 27));
        events
    }

    #[test]
    fn a_ninth_card_cannon_may_still_fire_before_the_game_is_scored() {
        let state = given::<Burgbaumeister>(ninth_card_cannon())
            .when(0, AddCardToWall {})
            .then([added(0, 27, 8)]);
        assert!(!Burgbaumeister::status(&state).finished, "the cannon waits");
        assert!(Burgbaumeister::legal_commands(&state, 0).contains(&DeclineCannon {}.into()));
        // Shooting the king away wins the game on points...
        let mut fired = ninth_card_cannon();
        fired.push(added(0, 27, 8));
        given::<Burgbaumeister>(fired.clone())
            .when(0, fire_at(1, 37))
            .then([
                destroyed(0, 1, 37),
                castle_ended(EndReason::WallComplete, &[9, 6], &[0]),
            ]);
        // ...declining it leaves seat 1 ahead.
        given::<Burgbaumeister>(fired)
            .when(0, DeclineCannon {})
            .then([
                CannonDeclined { seat: 0 }.into(),
                castle_ended(EndReason::WallComplete, &[9, 10], &[1]),
            ]);
    }

    #[test]
    fn a_ninth_card_cannon_without_a_target_lapses_and_the_game_ends() {
        let mut events = table(2, true, &[EIGHT, &[9]], 0);
        events.push(turned_up(0, 27));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([
                added(0, 27, 8),
                CannonLapsed { seat: 0 }.into(),
                castle_ended(EndReason::WallComplete, &[9, 1], &[0]),
            ]);
    }

    #[test]
    fn a_wizard_insert_that_makes_the_ninth_card_ends_the_game() {
        // Seat 0: eight cards with the wizard; the 4 slips in between the start tower and 5.
        let wall: &[Card] = &[5, 7, 10, 11, 13, 15, 23, 30];
        let mut events = table(2, true, &[wall, &[20]], 0);
        events.push(turned_up(0, 4));
        given::<Burgbaumeister>(events)
            .when(0, InsertCardWithWizard { position: 0 })
            .then([
                CardAddedToWall {
                    seat: 0,
                    card: 4,
                    position: 0,
                    by_wizard: true,
                }
                .into(),
                castle_ended(EndReason::WallComplete, &[10, 1], &[0]),
            ]);
    }

    #[test]
    fn in_the_variant_points_win_not_the_ninth_card() {
        // Seat 1: King, Queen, two knights and a maiden, two-raven card: 6 + 3 + 3 + 4 + 2 = 18.
        let mut events = table(2, true, &[EIGHT, &[6, 8, 12, 21, 36, 37]], 0);
        events.push(turned_up(0, 16));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([
                added(0, 16, 8),
                castle_ended(EndReason::WallComplete, &[9, 18], &[1]),
            ]);
    }

    #[test]
    fn a_blocked_game_ends_and_the_most_cards_win() {
        // Only 4 and 30 are left; after 30 joins seat 0's wall, nobody can add the 4.
        let mut events = nearly_empty_store(false, &[&[10, 20], &[40, 41, 42]], &[4, 30]);
        let state = given::<Burgbaumeister>(events.clone()).state;
        // The fixture put the other cards out of the store and out of the walls.
        let mut kept: Vec<Card> = state.store.iter().flatten().copied().collect();
        kept.sort();
        assert_eq!(kept, vec![4, 30]);
        assert_eq!(state.walls, vec![vec![10, 20], vec![40, 41, 42]]);
        events.push(turned_up(0, 30));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([
                added(0, 30, 2),
                castle_ended(EndReason::Blocked, &[3, 3], &[1]),
            ]);
    }

    #[test]
    fn a_blocked_game_is_won_by_more_cards_before_higher_last_card() {
        let mut events = nearly_empty_store(false, &[&[10, 20, 25, 26], &[40, 41, 42]], &[4, 30]);
        events.push(turned_up(0, 30));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([
                added(0, 30, 4),
                castle_ended(EndReason::Blocked, &[5, 3], &[0]),
            ]);
    }

    #[test]
    fn in_the_variant_a_blocked_game_is_won_on_points_not_cards() {
        // Seat 0 ends with three plain cards (3 points); seat 1 with two, the queen and the king
        // (2 + 6 = 8 points). The base game would give it to seat 0.
        let mut events = nearly_empty_store(true, &[&[10, 20], &[36, 37]], &[4, 30]);
        events.push(turned_up(0, 30));
        given::<Burgbaumeister>(events.clone())
            .when(0, AddCardToWall {})
            .then([
                added(0, 30, 2),
                castle_ended(EndReason::Blocked, &[3, 8], &[1]),
            ]);
        let mut base = nearly_empty_store(false, &[&[10, 20], &[36, 37]], &[4, 30]);
        base.push(turned_up(0, 30));
        let (out, _) = given::<Burgbaumeister>(base)
            .when(0, AddCardToWall {})
            .accepted();
        assert!(matches!(&out[1], BurgbaumeisterEvent::CastleGameEnded(e) if e.winners == vec![0]));
    }

    #[test]
    fn the_base_game_never_ends_in_a_shared_win() {
        // Equal walls go to the higher last card, and last cards differ: every card is unique,
        // and a wall is never empty when the base game blocks (an empty wall takes any card).
        let mut events = nearly_empty_store(false, &[&[10, 20], &[15, 25]], &[4, 5]);
        events.push(turned_up(0, 5));
        given::<Burgbaumeister>(events)
            .when(0, ReturnCard {})
            .then([
                returned(0, 5),
                castle_ended(EndReason::Blocked, &[2, 2], &[1]),
            ]);
    }

    #[test]
    fn returning_the_last_playable_card_does_not_block_the_game() {
        let mut events = nearly_empty_store(false, &[&[10, 20], &[40, 41, 42]], &[4, 30]);
        events.push(turned_up(0, 30));
        given::<Burgbaumeister>(events)
            .when(0, ReturnCard {})
            .then([returned(0, 30), TurnPassed { seat: 1 }.into()]);
    }

    #[test]
    fn a_ready_wizard_keeps_the_game_from_being_blocked() {
        let mut state =
            given::<Burgbaumeister>(nearly_empty_store(false, &[&[10, 23], &[40]], &[4])).state;
        assert!(blocked(&state), "base game: nobody can add the 4");
        state.variant = true;
        assert!(!blocked(&state), "the wizard could still insert the 4");
        state.wizard_spent[0] = true;
        assert!(blocked(&state));
    }

    #[test]
    fn an_empty_store_blocks_the_game() {
        let state = given::<Burgbaumeister>(nearly_empty_store(false, &[&[10], &[40]], &[])).state;
        assert!(blocked(&state));
    }

    #[test]
    fn a_tie_on_everything_is_a_shared_win() {
        // Walls emptied by cannons: both at 0 points with the start tower as last card.
        let state = given::<Burgbaumeister>(table(3, true, &[&[], &[4], &[]], 0)).state;
        assert_eq!(ranked_winners(&state), vec![1]);
        let state = given::<Burgbaumeister>(table(3, true, &[&[], &[], &[]], 0)).state;
        assert_eq!(ranked_winners(&state), vec![0, 1, 2]);
        let state = given::<Burgbaumeister>(table(2, true, &[&[3, 36], &[5, 37]], 0)).state;
        assert_eq!(
            ranked_winners(&state),
            vec![1],
            "equal points: higher last card"
        );
    }
}
