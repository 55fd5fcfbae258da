//! Every command the seat whose turn it is may send now, and the turn clock's default among
//! them. Derived from the same rule functions decide uses, so that each listed command is
//! accepted.

use crate::contract::Seat;

use super::cannon::targets;
use super::commands::*;
use super::state::phase;
use super::state::*;
use super::turn::can_add;
use super::wizard::legal_insert;

pub fn legal_commands(state: &State, seat: Seat) -> Vec<BurgbaumeisterCommand> {
    if seat != state.turn {
        return Vec::new();
    }
    match phase(state) {
        Phase::NotStarted | Phase::Finished => Vec::new(),
        Phase::TurnUp => state
            .store
            .iter()
            .enumerate()
            .filter(|(_, card)| card.is_some())
            .map(|(slot, _)| TurnUpCard { slot: slot as u8 }.into())
            .collect(),
        Phase::Place => {
            let mut commands = vec![ReturnCard {}.into()];
            if let Some(turned) = &state.turned_up {
                if can_add(&state.walls[seat as usize], turned.card) {
                    commands.push(AddCardToWall {}.into());
                }
            }
            if let Some(position) = legal_insert(state, seat) {
                commands.push(
                    InsertCardWithWizard {
                        position: position as u8,
                    }
                    .into(),
                );
            }
            commands
        }
        Phase::Cannon => targets(state, seat)
            .into_iter()
            .map(|(target, card)| FireCannon { target, card }.into())
            .chain([DeclineCannon {}.into()])
            .collect(),
    }
}

/// The move the turn clock makes for a seat that did not act in time, the listed command that
/// changes the least: turn up the face-down card in the lowest slot, return it, decline the
/// cannon.
pub fn default_command(state: &State, seat: Seat) -> Option<BurgbaumeisterCommand> {
    let legal = legal_commands(state, seat);
    let least = |c: &&BurgbaumeisterCommand| {
        matches!(
            c,
            BurgbaumeisterCommand::ReturnCard(_) | BurgbaumeisterCommand::DeclineCannon(_)
        )
    };
    legal.iter().find(least).or(legal.first()).cloned()
}

#[cfg(test)]
mod tests {

    use super::super::tests::test_support::*;
    use super::*;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::given;

    #[test]
    fn a_turn_may_begin_at_every_face_down_card() {
        let state = given::<Burgbaumeister>(table(2, false, &[&[3, 4], &[]], 0)).state;
        let commands = legal_commands(&state, 0);
        assert_eq!(commands.len(), 43);
        assert!(!commands.contains(&TurnUpCard { slot: slot_of(3) }.into()));
        assert!(
            legal_commands(&state, 1).is_empty(),
            "only the seat whose turn it is"
        );
    }

    #[test]
    fn a_turned_up_card_may_be_returned_added_or_inserted() {
        let mut events = table(2, true, &[&[4, 23, 30], &[]], 0);
        events.push(turned_up(0, 6));
        let state = given::<Burgbaumeister>(events).state;
        assert_eq!(
            legal_commands(&state, 0),
            vec![
                ReturnCard {}.into(),
                InsertCardWithWizard { position: 1 }.into()
            ]
        );
        let mut events = table(2, true, &[&[4, 23, 30], &[]], 0);
        events.push(turned_up(0, 31));
        let state = given::<Burgbaumeister>(events).state;
        assert_eq!(
            legal_commands(&state, 0),
            vec![ReturnCard {}.into(), AddCardToWall {}.into()]
        );
    }

    #[test]
    fn a_waiting_cannon_lists_every_target() {
        let mut events = table(3, true, &[&[3], &[5, 9, 10], &[7, 8]], 0);
        events.push(turned_up(0, 14));
        events.push(added(0, 14, 1));
        let state = given::<Burgbaumeister>(events).state;
        assert_eq!(
            legal_commands(&state, 0),
            vec![
                fire_at(1, 10).into(),
                fire_at(2, 7).into(),
                fire_at(2, 8).into(),
                DeclineCannon {}.into(),
            ]
        );
    }

    #[test]
    fn the_clock_turns_up_the_lowest_slot_returns_the_card_and_declines_the_cannon() {
        let state = given::<Burgbaumeister>(table(2, true, &[&[2, 3], &[]], 0)).state;
        assert_eq!(
            default_command(&state, 0),
            Some(TurnUpCard { slot: slot_of(4) }.into()),
            "slots 0 and 1 are empty"
        );
        assert_eq!(default_command(&state, 1), None, "not seat 1's turn");
        let mut events = table(2, true, &[&[4, 23, 30], &[]], 0);
        events.push(turned_up(0, 31));
        let state = given::<Burgbaumeister>(events).state;
        assert_eq!(default_command(&state, 0), Some(ReturnCard {}.into()));
        let mut events = table(2, true, &[&[3], &[5]], 0);
        events.push(turned_up(0, 14));
        let (_, state) = given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .accepted();
        assert_eq!(default_command(&state, 0), Some(DeclineCannon {}.into()));
    }
}
