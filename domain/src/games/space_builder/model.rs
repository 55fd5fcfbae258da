//! Space Builder's options, commands, events, views and state.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

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

// ---- commands -------------------------------------------------------------------------------

/// Timing `elapsed` only: turn up this round's blueprint for yourself. Your time starts now; you
/// cannot build before. The response's `BlueprintLookedAt` carries the blueprint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LookAtBlueprint {}

/// Put a hand card that is not yet on your board onto an empty slot, with a face up and a
/// rotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceBuildingCard {
    pub card: Card,
    pub slot: Slot,
    pub face: Face,
    /// Quarter turns clockwise, 0..=3.
    pub rotation: u8,
}

/// Move a card on your board to an empty slot, or leave it on its slot; either way it ends with
/// this face up and this rotation (turning or flipping a card in place is a move to its own slot).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveBuildingCard {
    pub card: Card,
    pub slot: Slot,
    pub face: Face,
    /// Quarter turns clockwise, 0..=3.
    pub rotation: u8,
}

/// Take a card from your board back into your hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TakeBackBuildingCard {
    pub card: Card,
}

/// Declare your city finished (tap the blueprint pile). Only when every hand card is on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeclareCityFinished {}

/// Stop building this round: your city is checked as it stands (a hand card not on the board is
/// missing), ranked after every player who finished. Others still build; in `arrival` timing
/// your stop does not count towards the end of the round (only finishes do).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StopBuilding {}

/// The round's winner releases one more of their cards into their hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReleaseBuildingCard {
    pub card: Card,
}

tagged_union! {
    /// A command of Space Builder.
    pub enum SpaceBuilderCommand {
        LookAtBlueprint,
        PlaceBuildingCard,
        MoveBuildingCard,
        TakeBackBuildingCard,
        DeclareCityFinished,
        StopBuilding,
        ReleaseBuildingCard,
    }
}

// ---- events ---------------------------------------------------------------------------------

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

// ---- view -----------------------------------------------------------------------------------

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

/// One player as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderPlayer)]
pub struct PlayerView {
    pub seat: Seat,
    /// The released cards (public: everyone sees which cards a player builds with).
    pub hand: Vec<Card>,
    /// How many hand cards are on the board.
    pub placed: u8,
    /// The board, by slot. Absent (`null`) for other players while the round's building runs.
    pub city: Option<Vec<Placement>>,
    /// Timing `elapsed`: the player has looked at this round's blueprint.
    pub looked_at_blueprint: bool,
    pub finished: bool,
    pub finished_at_ms: Option<i64>,
    pub elapsed_ms: Option<i64>,
    /// Stopped building before finishing: by the end of the round, or by their own
    /// `StopBuilding`.
    pub stopped: bool,
    pub rounds_won: u32,
}

/// The table of Space Builder as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpaceBuilderView {
    pub timing: Timing,
    pub deadline_minutes: Option<u32>,
    pub phase: Phase,
    /// The current round, 1-based (0 before the game is set up).
    pub round: u32,
    pub round_started_ms: i64,
    /// When the step the game waits for ends by itself: the round's building, or the winner's
    /// release (with `deadline_minutes`).
    pub deadline_ms: Option<i64>,
    /// This round's blueprint. Timing `elapsed`: absent until the viewer looked at it
    /// (spectators: until the building ends).
    pub blueprint: Option<RevealedBlueprint>,
    /// Blueprints left in the pile before it is reshuffled.
    pub blueprints_left: u8,
    pub players: Vec<PlayerView>,
    /// The round's winner, while they choose a card to release.
    pub releasing: Option<Seat>,
    /// The latest checked round, in full.
    pub last_round: Option<RoundResult>,
    /// The game's winner, once it has ended.
    pub winner: Option<Seat>,
}

// ---- state ----------------------------------------------------------------------------------

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
