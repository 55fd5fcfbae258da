//! Space Builder's options, and the pieces its commands, events and state name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A building card's number, 1..=8 (cards 1–4 carry the star and are in every hand from the start).
pub type Card = u8;
/// A board slot, 0..=8, row by row from the top left (row = slot / 3, column = slot % 3).
pub type Slot = u8;

/// Slots on a board (3 × 3).
pub const SLOTS: u8 = 9;
/// Building cards per player.
pub const CARDS: u8 = 8;
/// The star cards every player starts with.
pub const STAR_CARDS: [Card; 4] = [1, 2, 3, 4];
/// Blueprint cards in the box, numbered 1..=20.
pub const BLUEPRINTS: u8 = 20;
/// Quarter turns a card (or a blueprint) can lie at: 0, 90, 180 or 270 degrees.
pub const ROTATIONS: u8 = 4;
/// The longest per-round deadline accepted: one week.
pub const MAX_DEADLINE_MINUTES: u32 = 7 * 24 * 60;

/// How "finished first" is measured (see the rules page, "Playing it by web").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SpaceBuilderTiming)]
pub enum Timing {
    /// Players finish in the order the server receives their finish commands; the blueprint is
    /// shown to everybody when the round starts.
    #[default]
    Arrival,
    /// Each player's time runs from their own `LookAtBlueprint` to their finish command, so
    /// players in different time zones compete fairly; the blueprint stays hidden from a player
    /// until they look at it. Nobody is stopped by the others: the round ends when every player
    /// has finished (or stopped), or at the deadline.
    Elapsed,
}

/// Options of Space Builder.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SpaceBuilderOptions {
    /// How the finishing order is measured.
    pub timing: Timing,
    /// A per-round deadline in minutes (1..=10080) counted from the blueprint's reveal; when it
    /// passes, every player still building is stopped as if last. The round winner's choice of
    /// the card to release gets as long; when it passes, the server releases their lowest card.
    /// Absent: no deadline.
    #[schema(minimum = 1, maximum = 10080)]
    pub deadline_minutes: Option<u32>,
}

/// The two faces of a building card (they differ only in small details).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[schema(as = SpaceBuilderFace)]
pub enum Face {
    A,
    B,
}

impl Face {
    pub const BOTH: [Face; 2] = [Face::A, Face::B];
}

/// A building card lying on a slot, with a face up and a rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderPlacement)]
pub struct Placement {
    pub card: Card,
    pub slot: Slot,
    pub face: Face,
    /// Quarter turns clockwise, 0..=3 (0, 90, 180, 270 degrees).
    pub rotation: u8,
}
