//! The wizard (variant): once per game, on a turn after it joined the wall, the player may
//! insert the turned-up card anywhere in the wall where the numbers still rise left to right.
//!
//! Walls rise strictly and cards are distinct, so a card lower than the last fits exactly one
//! gap; a card higher than the last goes to the right end, which is an ordinary addition and does
//! not spend the wizard. A wizard destroyed by a cannon is gone, and its power with it.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::outcome::Outcome;
use super::scoring::WIZARD;
use super::state::*;
use super::turn::{after_placing, turned_up_card, START_TOWER};

/// The seat has a wizard in its wall whose power is not spent (variant).
pub fn wizard_ready(state: &State, seat: Seat) -> bool {
    state.variant
        && state.walls[seat as usize].contains(&WIZARD)
        && !state.wizard_spent[seat as usize]
}

/// Where the wizard would put `card` in `wall`: the one gap, left of the last card, where the
/// numbers keep rising; `None` when the card belongs at the right end.
pub fn insert_position(wall: &[Card], card: Card) -> Option<usize> {
    let position = wall.partition_point(|&c| c < card);
    (position < wall.len() && wall[position] != card && card > START_TOWER).then_some(position)
}

/// The position the wizard may insert the turned-up card at now, if any.
pub fn legal_insert(state: &State, seat: Seat) -> Option<usize> {
    let turned = state.turned_up.as_ref()?;
    if state.cannon_pending || !wizard_ready(state, seat) || state.wizard_joined_this_turn {
        return None;
    }
    insert_position(&state.walls[seat as usize], turned.card)
}

pub fn insert(
    state: &State,
    seat: Seat,
    command: &InsertCardWithWizard,
) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    let TurnedUp { card, .. } = turned_up_card(state)?;
    if !state.variant {
        return Err(RuleError::new(
            "wizard_variant_only",
            "The wizard's power belongs to the variant; this game plays the base rules.",
        ));
    }
    let wall = &state.walls[seat as usize];
    if !wall.contains(&WIZARD) {
        return Err(RuleError::new(
            "no_wizard",
            "Only a player with the wizard in their wall may insert a card.",
        ));
    }
    if state.wizard_spent[seat as usize] {
        return Err(RuleError::new(
            "wizard_spent",
            "The wizard's power works only once per game, and yours is spent.",
        ));
    }
    if state.wizard_joined_this_turn {
        return Err(RuleError::new(
            "wizard_not_ready_yet",
            "The wizard's power can be used from the turn after it joined your wall.",
        ));
    }
    let position = command.position as usize;
    if position > wall.len() {
        return Err(RuleError::new(
            "position_out_of_range",
            format!("Your wall has positions 0 to {}.", wall.len()),
        ));
    }
    if position == wall.len() {
        return Err(RuleError::new(
            "insert_at_end_is_add",
            "Putting the card at the right end is an ordinary addition: send AddCardToWall.",
        ));
    }
    let before = if position == 0 {
        START_TOWER
    } else {
        wall[position - 1]
    };
    if !(before < card && card < wall[position]) {
        return Err(RuleError::new(
            "numbers_must_rise",
            format!(
                "The numbers must still rise left to right: {card} does not fit between {before} and {}.",
                wall[position]
            ),
        ));
    }
    let mut out = Outcome::new(state);
    out.push(CardAddedToWall {
        seat,
        card,
        position: command.position,
        by_wizard: true,
    });
    Ok(after_placing(out, seat, card))
}

#[cfg(test)]
mod tests {
    use super::super::tests::test_support::*;
    use super::*;
    use crate::contract::Game;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::given;

    fn with_wizard(card: Card) -> Vec<BurgbaumeisterEvent> {
        let mut events = table(2, true, &[&[4, 23, 30], &[10]], 0);
        events.push(turned_up(0, card));
        events
    }

    /// `seat` may not insert its turned-up card with the wizard at `position` after `events`:
    /// refused with `code`.
    fn refused_insert(events: Vec<BurgbaumeisterEvent>, seat: u8, position: u8, code: &str) {
        given::<Burgbaumeister>(events)
            .when(seat, InsertCardWithWizard { position })
            .then_error(code);
    }

    #[test]
    fn the_wizard_inserts_where_the_numbers_still_rise() {
        let state = given::<Burgbaumeister>(with_wizard(6))
            .when(0, InsertCardWithWizard { position: 1 })
            .then([
                CardAddedToWall {
                    seat: 0,
                    card: 6,
                    position: 1,
                    by_wizard: true,
                }
                .into(),
                TurnPassed { seat: 1 }.into(),
            ]);
        assert_eq!(state.walls[0], vec![4, 6, 23, 30]);
        assert!(!wizard_ready(&state, 0));
    }

    #[test]
    fn the_wizard_insert_must_keep_the_numbers_rising() {
        for position in [0, 2] {
            given::<Burgbaumeister>(with_wizard(6))
                .when(0, InsertCardWithWizard { position })
                .then_error("numbers_must_rise");
        }
        refused_insert(with_wizard(6), 0, 4, "position_out_of_range");
    }

    #[test]
    fn the_wizard_can_insert_before_the_first_card() {
        given::<Burgbaumeister>(with_wizard(3))
            .when(0, InsertCardWithWizard { position: 0 })
            .accepted();
    }

    #[test]
    fn inserting_at_the_right_end_is_an_ordinary_add() {
        refused_insert(with_wizard(35), 0, 3, "insert_at_end_is_add");
        let (_, state) = given::<Burgbaumeister>(with_wizard(35))
            .when(0, AddCardToWall {})
            .accepted();
        assert!(wizard_ready(&state, 0), "an ordinary add keeps the wizard");
    }

    #[test]
    fn the_wizard_works_only_once_per_game() {
        let mut events = with_wizard(6);
        events.push(
            CardAddedToWall {
                seat: 0,
                card: 6,
                position: 1,
                by_wizard: true,
            }
            .into(),
        );
        events.push(TurnPassed { seat: 0 }.into());
        events.push(turned_up(0, 5));
        refused_insert(events, 0, 0, "wizard_spent");
    }

    #[test]
    fn only_the_wizard_s_owner_may_insert() {
        let mut events = table(2, true, &[&[4, 23, 30], &[10, 20]], 1);
        events.push(turned_up(1, 15));
        refused_insert(events, 1, 1, "no_wizard");
    }

    #[test]
    fn the_wizard_is_a_variant_card() {
        let mut events = table(2, false, &[&[4, 23, 30], &[10]], 0);
        events.push(turned_up(0, 6));
        refused_insert(events, 0, 1, "wizard_variant_only");
    }

    #[test]
    fn the_wizard_works_from_the_turn_after_it_joined() {
        // A board laid out directly: the wizard joined this very turn.
        let mut events = table(2, true, &[&[4, 30], &[10]], 0);
        events.push(turned_up(0, 23));
        events.push(added(0, 23, 1));
        events.push(turned_up(0, 6));
        let state = given::<Burgbaumeister>(events.clone()).state;
        assert!(Burgbaumeister::legal_commands(&state, 0)
            .iter()
            .all(|c| !matches!(c, BurgbaumeisterCommand::InsertCardWithWizard(_))));
        refused_insert(events, 0, 1, "wizard_not_ready_yet");
    }

    #[test]
    fn a_cannon_inserted_by_the_wizard_fires() {
        let mut events = table(2, true, &[&[4, 23, 30], &[10]], 0);
        events.push(turned_up(0, 14));
        let state = given::<Burgbaumeister>(events)
            .when(0, InsertCardWithWizard { position: 1 })
            .then([CardAddedToWall {
                seat: 0,
                card: 14,
                position: 1,
                by_wizard: true,
            }
            .into()]);
        assert!(state.cannon_pending);
    }
}
