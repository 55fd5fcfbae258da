//! Who may act, every command each of them may send now, and the turn clock's default. All
//! players build at once, so every seat still building is asked to act and each one's commands
//! are accepted in any interleaving (the clock-dependent deadline is checked by `decide`, and
//! the server ends the round through `on_deadline` once it passes).

use super::building::may_build;
use super::commands::*;
use super::options::*;
use super::state::*;
use crate::contract::{Seat, Status};

pub fn legal_commands(state: &State, seat: Seat) -> Vec<SpaceBuilderCommand> {
    let Some(player) = state.players.get(usize::from(seat)) else {
        return Vec::new();
    };
    let mut commands = Vec::new();
    match state.phase {
        Phase::Building => {
            if player.finished() || player.stopped {
                return commands;
            }
            if state.timing == Timing::Elapsed && player.looked_at_ms.is_none() {
                commands.push(LookAtBlueprint {}.into());
                commands.push(StopBuilding {}.into());
                return commands;
            }
            if may_build(state, seat, None).is_err() {
                return commands;
            }
            let empty: Vec<Slot> = (0..SLOTS)
                .filter(|s| player.on_slot(*s).is_none())
                .collect();
            if player.all_placed() {
                commands.push(DeclareCityFinished {}.into());
            }
            for &card in &player.hand {
                match player.placed(card) {
                    None => {
                        for &slot in &empty {
                            for face in Face::BOTH {
                                for rotation in 0..ROTATIONS {
                                    commands.push(
                                        PlaceBuildingCard {
                                            card,
                                            slot,
                                            face,
                                            rotation,
                                        }
                                        .into(),
                                    );
                                }
                            }
                        }
                    }
                    Some(on) => {
                        let mut slots = empty.clone();
                        slots.push(on.slot);
                        slots.sort_unstable();
                        for slot in slots {
                            for face in Face::BOTH {
                                for rotation in 0..ROTATIONS {
                                    let to = Placement {
                                        card,
                                        slot,
                                        face,
                                        rotation,
                                    };
                                    if to != *on {
                                        commands.push(
                                            MoveBuildingCard {
                                                card,
                                                slot,
                                                face,
                                                rotation,
                                            }
                                            .into(),
                                        );
                                    }
                                }
                            }
                        }
                        commands.push(TakeBackBuildingCard { card }.into());
                    }
                }
            }
            commands.push(StopBuilding {}.into());
        }
        Phase::Releasing if state.releasing == Some(seat) => {
            for card in 1..=CARDS {
                if !player.hand.contains(&card) {
                    commands.push(ReleaseBuildingCard { card }.into());
                }
            }
        }
        _ => {}
    }
    commands
}

/// The move the turn clock makes for a seat that did not act in time, the listed command that
/// changes the least: stop building with the city as it stands (nobody else's round changes),
/// or, for the round's winner, release the lowest card not yet in hand.
pub fn default_command(state: &State, seat: Seat) -> Option<SpaceBuilderCommand> {
    let legal = legal_commands(state, seat);
    let stop = |c: &&SpaceBuilderCommand| matches!(c, SpaceBuilderCommand::StopBuilding(_));
    legal.iter().find(stop).or(legal.first()).cloned()
}

pub fn status(state: &State) -> Status {
    let to_act = match state.phase {
        Phase::Building => (0..state.players.len() as Seat)
            .filter(|&s| {
                let p = &state.players[usize::from(s)];
                !p.finished() && !p.stopped
            })
            .collect(),
        Phase::Releasing => state.releasing.into_iter().collect(),
        _ => Vec::new(),
    };
    Status {
        to_act,
        finished: state.phase == Phase::Finished,
        scores: state.started.then(|| {
            state
                .players
                .iter()
                .map(|p| i64::from(p.rounds_won))
                .collect()
        }),
        winners: state.winner.into_iter().collect(),
    }
}
