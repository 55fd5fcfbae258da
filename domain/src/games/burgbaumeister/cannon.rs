//! The cannon (variant): whoever adds a cannon (or inserts one with the wizard) may at once
//! destroy one unprotected card in another player's wall (not their own): "darfst du die
//! Sonderfunktion nutzen" makes it a choice, "musst du sofort … ausführen" makes it now or never.
//! So the builder fires (`FireCannon`) or declines (`DeclineCannon`) before anything else
//! happens. The card leaves the game and the cards right of it close the gap. With no target the
//! action lapses. A cannon laid as the 9th card may still fire before the game ends and is
//! scored.
//!
//! Towers protect: tower cards and every card between two towers (the start tower counts) are
//! safe, so the unprotected cards are those right of a wall's last tower.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::outcome::Outcome;
use super::scoring::is_tower;
use super::state::phase;
use super::state::*;
use super::turn::finish_turn;

/// The cards of `wall` a cannon may destroy: those right of the last tower.
pub fn unprotected(wall: &[Card]) -> &[Card] {
    let start = wall.iter().rposition(|&c| is_tower(c)).map_or(0, |i| i + 1);
    &wall[start..]
}

/// Every (seat, card) the cannon of `seat` could destroy.
pub fn targets(state: &State, seat: Seat) -> Vec<(Seat, Card)> {
    (0..state.players)
        .filter(|&other| other != seat)
        .flat_map(|other| {
            unprotected(&state.walls[other as usize])
                .iter()
                .map(move |&card| (other, card))
        })
        .collect()
}

fn expect_cannon(state: &State) -> Result<(), RuleError> {
    if phase(state) != Phase::Cannon {
        return Err(RuleError::new(
            "no_cannon_to_fire",
            "A cannon fires (or is declined) only right after it joined your wall.",
        ));
    }
    Ok(())
}

/// The builder lets the cannon's chance go; the turn ends.
pub fn decline(state: &State, seat: Seat) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    expect_cannon(state)?;
    let mut out = Outcome::new(state);
    out.push(CannonDeclined { seat });
    finish_turn(&mut out, seat);
    Ok(out.events)
}

pub fn fire(
    state: &State,
    seat: Seat,
    command: &FireCannon,
) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    expect_cannon(state)?;
    let FireCannon { target, card } = *command;
    if target >= state.players {
        return Err(RuleError::new(
            "no_such_seat",
            format!("There is no seat {target} at this table."),
        ));
    }
    if target == seat {
        return Err(RuleError::new(
            "cannot_fire_at_own_wall",
            "A cannon destroys a card in another player's wall, not your own.",
        ));
    }
    let wall = &state.walls[target as usize];
    if !wall.contains(&card) {
        return Err(RuleError::new(
            "card_not_in_wall",
            format!("Card {card} is not in that player's wall."),
        ));
    }
    if !unprotected(wall).contains(&card) {
        return Err(RuleError::new(
            "card_protected",
            format!("Card {card} is protected: towers guard every card up to the last tower."),
        ));
    }
    let mut out = Outcome::new(state);
    out.push(CardDestroyed {
        by: seat,
        target,
        card,
    });
    finish_turn(&mut out, seat);
    Ok(out.events)
}

#[cfg(test)]
mod tests {
    use super::super::tests::test_support::*;
    use super::*;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::given;

    fn cannon_added(walls: &[&[Card]]) -> Vec<BurgbaumeisterEvent> {
        let mut events = table(walls.len() as u8, true, walls, 0);
        events.push(turned_up(0, 14));
        events
    }

    #[test]
    fn an_added_cannon_may_fire_before_the_turn_passes() {
        let state = given::<Burgbaumeister>(cannon_added(&[&[3], &[5, 8]]))
            .when(0, AddCardToWall {})
            .then([added(0, 14, 1)]);
        assert_eq!(phase(&state), Phase::Cannon);
        let mut events = cannon_added(&[&[3], &[5, 8]]);
        events.push(added(0, 14, 1));
        let state = given::<Burgbaumeister>(events)
            .when(0, fire_at(1, 5))
            .then([destroyed(0, 1, 5), TurnPassed { seat: 1 }.into()]);
        assert_eq!(
            state.walls[1],
            vec![8],
            "the cards right of it close the gap"
        );
        assert_eq!(state.destroyed, vec![5]);
    }

    fn waiting_cannon(walls: &[&[Card]]) -> Vec<BurgbaumeisterEvent> {
        let mut events = cannon_added(walls);
        events.push(
            CardAddedToWall {
                seat: 0,
                card: 14,
                position: walls[0].len() as u8,
                by_wizard: false,
            }
            .into(),
        );
        events
    }

    #[test]
    fn while_the_cannon_waits_nothing_else_is_allowed() {
        for command in [
            BurgbaumeisterCommand::from(TurnUpCard { slot: 0 }),
            AddCardToWall {}.into(),
            ReturnCard {}.into(),
            InsertCardWithWizard { position: 0 }.into(),
        ] {
            given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 8]]))
                .when(0, command)
                .then_error("fire_or_decline_cannon");
        }
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 8]]))
            .when(1, fire_at(0, 3))
            .then_error("not_your_turn");
    }

    #[test]
    fn a_cannon_fires_only_right_after_it_joined() {
        given::<Burgbaumeister>(table(2, true, &[&[3, 14], &[5]], 0))
            .when(0, fire_at(1, 5))
            .then_error("no_cannon_to_fire");
        given::<Burgbaumeister>(table(2, true, &[&[3, 14], &[5]], 0))
            .when(0, DeclineCannon {})
            .then_error("no_cannon_to_fire");
    }

    #[test]
    fn firing_is_a_choice_the_builder_may_decline() {
        let state = given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 8]])).state;
        assert_eq!(
            <Burgbaumeister as crate::contract::Game>::legal_commands(&state, 0),
            vec![
                fire_at(1, 5).into(),
                fire_at(1, 8).into(),
                DeclineCannon {}.into(),
            ]
        );
        let state = given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 8]]))
            .when(0, DeclineCannon {})
            .then([
                CannonDeclined { seat: 0 }.into(),
                TurnPassed { seat: 1 }.into(),
            ]);
        assert_eq!(state.walls[1], vec![5, 8], "nothing destroyed");
        assert_eq!(phase(&state), Phase::TurnUp);
        // Now or never: the chance does not come back.
        given::<Burgbaumeister>(
            [
                waiting_cannon(&[&[3], &[5, 8]]),
                vec![CannonDeclined { seat: 0 }.into()],
            ]
            .concat(),
        )
        .when(0, fire_at(1, 5))
        .then_error("no_cannon_to_fire");
    }

    /// Seat 0 (wall 10, 20) has just added the cannon 40; seat 1's wall is 30, 41; the store
    /// holds only 4 and `more`.
    fn last_cannon(more: &[Card]) -> Vec<BurgbaumeisterEvent> {
        let mut left = vec![4, 40];
        left.extend(more);
        let mut events = nearly_empty_store(true, &[&[10, 20], &[30, 41]], &left);
        events.push(turned_up(0, 40));
        events.push(added(0, 40, 2));
        events
    }

    #[test]
    fn a_game_blocked_right_after_a_cannon_shot_ends_on_points() {
        given::<Burgbaumeister>(last_cannon(&[]))
            .when(0, fire_at(1, 41))
            .then([
                destroyed(0, 1, 41),
                castle_ended(EndReason::Blocked, &[3, 1], &[0]),
            ]);
    }

    #[test]
    fn a_shot_can_unblock_the_game_and_a_declined_cannon_leaves_it_blocked() {
        // The 35 fits no wall (40 and 41 end them) until the 41 is shot away.
        given::<Burgbaumeister>(last_cannon(&[35]))
            .when(0, fire_at(1, 41))
            .then([destroyed(0, 1, 41), TurnPassed { seat: 1 }.into()]);
        given::<Burgbaumeister>(last_cannon(&[35]))
            .when(0, DeclineCannon {})
            .then([
                CannonDeclined { seat: 0 }.into(),
                castle_ended(EndReason::Blocked, &[3, 2], &[0]),
            ]);
    }

    #[test]
    fn the_cannon_lapses_when_no_other_wall_has_an_unprotected_card() {
        given::<Burgbaumeister>(cannon_added(&[&[3], &[5, 9], &[]]))
            .when(0, AddCardToWall {})
            .then([
                added(0, 14, 1),
                CannonLapsed { seat: 0 }.into(),
                TurnPassed { seat: 1 }.into(),
            ]);
    }

    #[test]
    fn a_cannon_does_not_hit_its_own_wall() {
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5]]))
            .when(0, fire_at(0, 3))
            .then_error("cannot_fire_at_own_wall");
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5]]))
            .when(0, fire_at(2, 5))
            .then_error("no_such_seat");
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5]]))
            .when(0, fire_at(1, 6))
            .then_error("card_not_in_wall");
    }

    #[test]
    fn towers_protect_every_card_up_to_the_last_tower() {
        for card in [5, 9, 10] {
            given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 9, 10, 19, 20]]))
                .when(0, FireCannon { target: 1, card })
                .then_error("card_protected");
        }
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 9, 10, 19, 20]]))
            .when(0, fire_at(1, 19))
            .then_error("card_protected");
        given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 9, 10, 19, 20]]))
            .when(0, fire_at(1, 20))
            .accepted();
    }

    #[test]
    fn the_cannon_is_a_plain_card_in_the_base_game() {
        let mut events = table(2, false, &[&[3], &[5, 8]], 0);
        events.push(turned_up(0, 14));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([added(0, 14, 1), TurnPassed { seat: 1 }.into()]);
    }

    #[test]
    fn a_destroyed_wizard_takes_its_power_with_it() {
        let state = given::<Burgbaumeister>(waiting_cannon(&[&[3], &[5, 23]]))
            .when(0, fire_at(1, 23))
            .then([destroyed(0, 1, 23), TurnPassed { seat: 1 }.into()]);
        assert!(!super::super::wizard::wizard_ready(&state, 1));
        let mut events = waiting_cannon(&[&[3], &[5, 23]]);
        events.push(destroyed(0, 1, 23));
        events.push(TurnPassed { seat: 1 }.into());
        events.push(turned_up(1, 4));
        given::<Burgbaumeister>(events)
            .when(1, InsertCardWithWizard { position: 0 })
            .then_error("no_wizard");
    }
}
