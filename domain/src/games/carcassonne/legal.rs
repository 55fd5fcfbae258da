//! Every command the seat whose turn it is may send now, from the same rule functions decide
//! uses, so that each listed command is accepted. The first listed is the turn clock's move:
//! the first placement in reading order (smallest rotation first), the first tile for the
//! ingot, the first figure move, and no follower.

use crate::contract::Seat;

use super::commands::*;
use super::state::State;
use super::tiles::degrees;
use super::turn::{phase, Phase};
use super::{followers, gold, mage_witch, placement};

pub fn legal_commands(state: &State, seat: Seat) -> Vec<CarcassonneCommand> {
    if seat != state.turn {
        return Vec::new();
    }
    match phase(state) {
        Phase::NotStarted | Phase::Finished => Vec::new(),
        Phase::PlaceTile => match state.drawn {
            Some(kind) => placement::placements(&state.board, kind)
                .into_iter()
                .map(|(pos, q)| {
                    PlaceTile {
                        x: pos.x,
                        y: pos.y,
                        rotation: degrees(q),
                    }
                    .into()
                })
                .collect(),
            None => Vec::new(),
        },
        Phase::PlaceGoldIngot => gold::choices(state),
        Phase::PlaceMageOrWitch => mage_witch::choices(state),
        Phase::PlaceFollower => {
            let mut commands = vec![SkipFollower {}.into()];
            commands.extend(
                followers::free_segments(state, seat)
                    .into_iter()
                    .map(|segment| PlaceFollower { segment }.into()),
            );
            commands
        }
    }
}
