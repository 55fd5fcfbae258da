//! Space Builder's state: what the events fold into.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;

use super::events::*;
use super::options::*;

/// One player's truth.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayerState {
    /// Released cards, ascending.
    pub hand: Vec<Card>,
    /// Cards on the board, in the order they were placed.
    pub city: Vec<Placement>,
    pub looked_at_ms: Option<i64>,
    pub finished_at_ms: Option<i64>,
    pub elapsed_ms: Option<i64>,
    pub stopped: bool,
    /// When the player last changed their city this round (tie-break among stopped players).
    pub last_change_ms: Option<i64>,
    pub rounds_won: u32,
}

impl PlayerState {
    pub fn on_slot(&self, slot: Slot) -> Option<&Placement> {
        self.city.iter().find(|p| p.slot == slot)
    }

    pub fn placed(&self, card: Card) -> Option<&Placement> {
        self.city.iter().find(|p| p.card == card)
    }

    pub fn all_placed(&self) -> bool {
        self.hand.iter().all(|c| self.placed(*c).is_some())
    }

    pub fn finished(&self) -> bool {
        self.finished_at_ms.is_some()
    }

    /// The board by slot, as shown to others once the building ended.
    pub fn city_by_slot(&self) -> Vec<Placement> {
        let mut city = self.city.clone();
        city.sort_by_key(|p| p.slot);
        city
    }
}

/// The whole truth (the server's; views show what a viewer may see of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub started: bool,
    pub timing: Timing,
    pub deadline_minutes: Option<u32>,
    /// The bound on a round's building when the turn clock is on and there is no
    /// `deadline_minutes` (from `SpaceBuilderGameStarted`).
    #[serde(default)]
    pub round_limit_minutes: Option<u32>,
    pub players: Vec<PlayerState>,
    pub phase: Phase,
    pub round: u32,
    pub round_started_ms: i64,
    /// The round's building deadline.
    pub deadline_ms: Option<i64>,
    /// The winner's release deadline, while they choose.
    pub release_deadline_ms: Option<i64>,
    /// This round's blueprint (number and quarter turn).
    pub blueprint: Option<RevealedBlueprint>,
    /// Blueprint numbers still in the pile, ascending (the next reveal draws one at random).
    pub pile: Vec<u8>,
    /// Seats in the order their finish commands arrived this round.
    pub finish_order: Vec<Seat>,
    pub last_round: Option<RoundResult>,
    /// The round's winner while they choose a card to release.
    pub releasing: Option<Seat>,
    pub winner: Option<Seat>,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SpaceBuilderPhase)]
pub enum Phase {
    /// Waiting for the game to be set up.
    #[default]
    NotStarted,
    /// Everybody builds at once.
    Building,
    /// Building stopped; the cities are being checked (never seen between commands).
    Checking,
    /// The round's winner chooses a card to release.
    Releasing,
    Finished,
}
