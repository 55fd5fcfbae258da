//! Space Builder's events: what happened, as the log records it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::options::*;

/// The game began: who plays, which rules, and the star cards everybody holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpaceBuilderGameStarted {
    pub players: u8,
    pub timing: Timing,
    pub deadline_minutes: Option<u32>,
    /// With the turn clock on and no `deadline_minutes`: the round's building ends this long
    /// after the reveal at the latest (three turn-clock periods; see the rules document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_limit_minutes: Option<u32>,
    /// The cards every player holds at the start (the star cards).
    pub starting_hand: Vec<Card>,
}

/// All 20 blueprints were used: they are shuffled into a new pile (the next reveal draws from it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BlueprintsReshuffled {
    /// The round about to start.
    pub round: u32,
}

/// A blueprint as it lies on the table: its own frame, plus the quarter turn it lies at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderBlueprint)]
pub struct RevealedBlueprint {
    /// The blueprint card, 1..=20.
    pub number: u8,
    /// Quarter turns clockwise the blueprint lies turned relative to the boards, 0..=3. The city
    /// to build is `cards` turned by this much: slot (row, column) goes to (column, 2 − row) per
    /// quarter turn, and every card's rotation grows by one per quarter turn.
    pub turn: u8,
    /// All 8 cards in the blueprint's own frame, by card number.
    pub cards: Vec<Placement>,
}

/// A round began: a blueprint was drawn from the pile and turned up at a random quarter turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BlueprintRevealed {
    pub round: u32,
    /// The server's clock when the round began (ms since the Unix epoch).
    pub at_ms: i64,
    /// When the round's deadline passes, if the game has one.
    pub deadline_ms: Option<i64>,
    /// The blueprint. Timing `elapsed`: absent (`null`) for a player until they look at it, and
    /// for spectators until the round's building ends; `arrival`: shown to all.
    pub blueprint: Option<RevealedBlueprint>,
}

/// Timing `elapsed`: a player looked at the round's blueprint; their time runs from `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BlueprintLookedAt {
    pub seat: Seat,
    pub round: u32,
    pub at_ms: i64,
    /// The blueprint the player now sees, so that looking costs no second request. `null` for
    /// everyone else while the round's building runs.
    pub blueprint: Option<RevealedBlueprint>,
}

/// A player put a hand card on their board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingCardPlaced {
    pub seat: Seat,
    pub round: u32,
    pub at_ms: i64,
    /// Which card where. Absent (`null`) for everyone but the builder while the round's building
    /// runs: others may only know how many cards are placed.
    pub placement: Option<Placement>,
}

/// A player moved, turned or flipped a card on their board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingCardMoved {
    pub seat: Seat,
    pub round: u32,
    pub at_ms: i64,
    /// The slot the card left. Absent for everyone but the builder while the building runs.
    pub from_slot: Option<Slot>,
    /// Where and how the card lies now. Absent for everyone but the builder while the building
    /// runs.
    pub placement: Option<Placement>,
}

/// A player took a card from their board back into their hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingCardTakenBack {
    pub seat: Seat,
    pub round: u32,
    pub at_ms: i64,
    /// The card. Absent for everyone but the builder while the building runs.
    pub card: Option<Card>,
    /// The slot it left. Absent for everyone but the builder while the building runs.
    pub slot: Option<Slot>,
}

/// A player declared their city finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CityDeclaredFinished {
    pub seat: Seat,
    pub round: u32,
    /// The server's clock when the finish command arrived.
    pub at_ms: i64,
    /// Timing `elapsed`: `at_ms` minus the moment the player looked at the blueprint.
    pub elapsed_ms: Option<i64>,
}

/// A player stopped building this round before finishing; their city is checked as it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerStoppedBuilding {
    pub seat: Seat,
    pub round: u32,
    pub at_ms: i64,
}

/// Why the building of a round stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SpaceBuilderStopReason)]
pub enum StopReason {
    /// The second-to-last player finished; the last one may not build any more.
    AllButOneFinished,
    /// The round's deadline passed; everybody still building was stopped.
    DeadlinePassed,
    /// Nobody builds any more: every player finished or stopped (the way an `elapsed` round
    /// ends before its deadline).
    NobodyBuilding,
}

/// The building of the round stopped: the players in `stopped` may not build any more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingStopped {
    pub round: u32,
    pub reason: StopReason,
    /// The players still building until now, in seat order (not those who had stopped
    /// themselves).
    pub stopped: Vec<Seat>,
    /// The clock when the building stopped.
    pub at_ms: i64,
}

/// The verdict on one hand card (one verdict per card, never added up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SpaceBuilderVerdict)]
pub enum Verdict {
    /// Right slot, face and rotation: no fault.
    Correct,
    /// Not on the board: 1 fault.
    Missing,
    /// On another slot than the blueprint's: 2 faults.
    WrongSlot,
    /// On the right slot with the wrong rotation or face: 2 faults.
    WrongRotationOrFace,
}

/// One hand card checked against the blueprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderCardCheck)]
pub struct CardCheck {
    pub card: Card,
    pub verdict: Verdict,
    pub faults: u8,
}

/// One player's city checked against the blueprint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderCityCheck)]
pub struct CityCheck {
    pub seat: Seat,
    /// The cards on the board, by slot.
    pub city: Vec<Placement>,
    /// One verdict per hand card, by card number.
    pub cards: Vec<CardCheck>,
    pub faults: u8,
    /// Did not finish (stopped by the end of the round, or stopped themselves): ranked after every
    /// finisher in the tie-break.
    pub stopped: bool,
    /// When the finish command arrived (finished players only).
    pub finished_at_ms: Option<i64>,
    /// Timing `elapsed`: the player's time (finished players only).
    pub elapsed_ms: Option<i64>,
    /// 1 = finished first. Players who did not finish come after every finished one.
    pub finishing_place: u8,
    /// 1 = the round's winner (fewest faults, ties to the earlier finisher).
    pub rank: u8,
}

/// The outcome of a round's check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderRoundResult)]
pub struct RoundResult {
    pub round: u32,
    pub blueprint: RevealedBlueprint,
    /// The city every player had to build: the blueprint turned into the boards' frame.
    pub target: Vec<Placement>,
    /// In rank order, winner first.
    pub cities: Vec<CityCheck>,
    pub winner: Seat,
}

/// Every city was checked against the blueprint, and the round has a winner. Everything is public
/// from here on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CitiesChecked {
    pub result: RoundResult,
    /// When the winner's choice of the card to release is due (with `deadline_minutes`); after
    /// it the server releases their lowest-numbered card.
    pub release_deadline_ms: Option<i64>,
}

/// The round's winner released one more card into their hand (chosen, or the lowest one when
/// the release deadline passed: the log entry of the latter has no seat).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingCardReleased {
    pub seat: Seat,
    pub card: Card,
}

/// A player won a round holding all 8 cards: they win the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpaceBuilderGameWon {
    pub seat: Seat,
    pub rounds: u32,
    /// Rounds won per seat, in seat order.
    pub rounds_won: Vec<u32>,
}

tagged_union! {
    /// An event of Space Builder.
    pub enum SpaceBuilderEvent {
        SpaceBuilderGameStarted,
        BlueprintsReshuffled,
        BlueprintRevealed,
        BlueprintLookedAt,
        BuildingCardPlaced,
        BuildingCardMoved,
        BuildingCardTakenBack,
        CityDeclaredFinished,
        PlayerStoppedBuilding,
        BuildingStopped,
        CitiesChecked,
        BuildingCardReleased,
        SpaceBuilderGameWon,
    }
}
