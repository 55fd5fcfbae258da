//! Magier & Hexe. After a tile with the magic symbol (or a tile that joins the mage's and the
//! witch's features), before the follower step, the player places or moves the mage or the
//! witch onto a segment of an unfinished road or city that neither figure stands on. With no
//! such segment: both on the board, the player takes one off; one on the board, it goes; none,
//! nothing happens. The mage adds 1 point per tile to its feature's score, the witch halves it
//! (rounded up); a figure whose feature is completed goes back to the supply.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::features::Node;
use super::followers;
use super::options::*;
use super::state::State;
use super::tiles::{self, FeatureKind};

const FIGURES: [MagicFigure; 2] = [MagicFigure::Mage, MagicFigure::Witch];

/// The figure on `node`'s feature (the mage first, should both ever stand on one).
pub fn figures_on(state: &State, node: Node) -> Vec<MagicFigure> {
    let features = &state.board.features;
    FIGURES
        .into_iter()
        .filter(|&f| state.figure(f).is_some_and(|n| features.same(n, node)))
        .collect()
}

/// A road's or city's points with the figures on it: the mage adds 1 per tile, then the witch
/// halves the total, rounded up.
pub fn apply(points: u32, figures: &[MagicFigure], tiles: u32) -> u32 {
    let mut points = points;
    if figures.contains(&MagicFigure::Mage) {
        points += tiles;
    }
    if figures.contains(&MagicFigure::Witch) {
        points -= points / 2;
    }
    points
}

/// Whether this turn's tile calls for the figure step: it bears the symbol, or it joined the
/// mage's and the witch's features.
fn called(state: &State) -> bool {
    let Some(current) = state.current else {
        return false;
    };
    if !state.options.mage_and_witch || current.figure_done {
        return false;
    }
    let tile = &state.board.placed[current.tile as usize];
    let joined = match (state.mage, state.witch) {
        (Some(m), Some(w)) => state.board.features.same(m, w),
        _ => false,
    };
    tiles::tile(tile.kind).magic || joined
}

/// Whether `node` may receive a figure: a segment of an unfinished road or city on which
/// neither figure stands.
fn is_target(state: &State, node: Node) -> bool {
    let feature = state.board.features.get(node);
    matches!(feature.kind, FeatureKind::Road | FeatureKind::City)
        && !feature.closed()
        && figures_on(state, node).is_empty()
}

/// Every segment a figure may go to, in placement order.
pub fn targets(state: &State) -> Vec<Node> {
    (0..state.board.features.len() as Node)
        .filter(|&n| is_target(state, n))
        .collect()
}

fn has_target(state: &State) -> bool {
    (0..state.board.features.len() as Node).any(|n| is_target(state, n))
}

fn both_on_board(state: &State) -> bool {
    state.mage.is_some() && state.witch.is_some()
}

/// The player must choose: where a figure goes, or (no target) which of the two leaves.
pub fn choice_pending(state: &State) -> bool {
    called(state) && (has_target(state) || both_on_board(state))
}

/// What happens by itself: with no target and one figure on the board, that figure goes.
pub fn automatic(state: &State) -> Option<MageOrWitchRemoved> {
    if !called(state) || has_target(state) || both_on_board(state) {
        return None;
    }
    let figure = FIGURES.into_iter().find(|&f| state.figure(f).is_some())?;
    Some(MageOrWitchRemoved {
        figure,
        reason: RemovalReason::NoTarget,
    })
}

pub fn place(
    state: &State,
    seat: Seat,
    command: &PlaceMageOrWitch,
) -> Result<MageOrWitchPlaced, RuleError> {
    let pos = Position::new(command.x, command.y);
    let Some(node) = state.board.node_at(pos, command.segment) else {
        return Err(RuleError::new(
            "no_such_segment",
            format!(
                "There is no segment {} on a tile at ({}, {}).",
                command.segment, pos.x, pos.y
            ),
        ));
    };
    let feature = state.board.features.get(node);
    if !matches!(feature.kind, FeatureKind::Road | FeatureKind::City) {
        return Err(RuleError::new(
            "not_road_or_city",
            "The mage and the witch stand on roads and cities only.",
        ));
    }
    if feature.closed() {
        return Err(RuleError::new(
            "feature_completed",
            "The mage and the witch go onto unfinished roads and cities only.",
        ));
    }
    if !figures_on(state, node).is_empty() {
        return Err(RuleError::new(
            "figure_feature",
            "That feature holds the mage or the witch: a figure must leave its feature, and the \
             two never share one.",
        ));
    }
    Ok(MageOrWitchPlaced {
        seat,
        figure: command.figure,
        x: pos.x,
        y: pos.y,
        segment: command.segment,
    })
}

pub fn remove(state: &State, command: &RemoveMageOrWitch) -> Result<MageOrWitchRemoved, RuleError> {
    if has_target(state) {
        return Err(RuleError::new(
            "figure_has_target",
            "An unfinished road or city is free for a figure: place or move one there.",
        ));
    }
    if !both_on_board(state) {
        return Err(RuleError::new(
            "figure_not_on_board",
            "A player takes a figure off only when both stand on the board.",
        ));
    }
    Ok(MageOrWitchRemoved {
        figure: command.figure,
        reason: RemovalReason::NoTarget,
    })
}

/// The commands of the figure step, mage before witch, targets in placement order.
pub fn choices(state: &State) -> Vec<CarcassonneCommand> {
    let targets = targets(state);
    if targets.is_empty() {
        return if both_on_board(state) {
            FIGURES
                .into_iter()
                .map(|figure| RemoveMageOrWitch { figure }.into())
                .collect()
        } else {
            Vec::new()
        };
    }
    FIGURES
        .into_iter()
        .flat_map(|figure| {
            targets.iter().map(move |&node| {
                let (pos, segment) = state.board.segment_of(node);
                PlaceMageOrWitch {
                    figure,
                    x: pos.x,
                    y: pos.y,
                    segment,
                }
                .into()
            })
        })
        .collect()
}

/// The turn clock's move for this step: of the listed moves, the first that changes the fewest
/// scores. A figure counts against a move when it leaves a feature with followers (taking its
/// +1 per tile or its halving from them) and when it lands on one.
pub fn least_changing(state: &State) -> Option<CarcassonneCommand> {
    let touches_followers =
        |node: Option<Node>| node.is_some_and(|n| followers::occupied(state, n));
    choices(state)
        .into_iter()
        .min_by_key(|command| match command {
            CarcassonneCommand::PlaceMageOrWitch(m) => {
                let onto = state.board.node_at(Position { x: m.x, y: m.y }, m.segment);
                u8::from(touches_followers(onto))
                    + u8::from(touches_followers(state.figure(m.figure)))
            }
            _ => 0,
        })
}

/// The figures that go back to the supply because their features were completed.
pub fn leaving(state: &State, completed: &[Node]) -> Vec<MageOrWitchRemoved> {
    FIGURES
        .into_iter()
        .filter(|&f| {
            state
                .figure(f)
                .is_some_and(|n| completed.iter().any(|&c| state.board.features.same(n, c)))
        })
        .map(|figure| MageOrWitchRemoved {
            figure,
            reason: RemovalReason::FeatureCompleted,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mage_adds_a_point_per_tile() {
        // The rulebook's example: a completed road of 5 tiles, 5 points more.
        assert_eq!(apply(5, &[MagicFigure::Mage], 5), 10);
        // A city of 3 tiles with a pennant: 8, and 3 for the tiles (not the pennant).
        assert_eq!(apply(8, &[MagicFigure::Mage], 3), 11);
    }

    #[test]
    fn the_witch_halves_rounding_up() {
        assert_eq!(apply(7, &[MagicFigure::Witch], 7), 4);
        assert_eq!(apply(8, &[MagicFigure::Witch], 3), 4);
        assert_eq!(apply(1, &[MagicFigure::Witch], 1), 1);
    }

    #[test]
    fn both_figures_add_then_halve() {
        assert_eq!(apply(5, &[MagicFigure::Mage, MagicFigure::Witch], 5), 5);
        assert_eq!(apply(7, &[], 7), 7);
    }
}
