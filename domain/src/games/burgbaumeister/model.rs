//! Burgbaumeister's options, commands, events, views and state.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

/// A card's number, 2..=46 (the start tower is 1 and is not a card).
pub type Card = u8;

/// Number of slots in the store (5 rows × 9 columns).
pub const STORE_SLOTS: usize = 45;
/// Cards in a wall (start tower not counted) that end the game.
pub const WALL_TO_WIN: usize = 9;

/// Options of Der Wettkampf der Burgbaumeister.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BurgbaumeisterOptions {
    /// Play the variant for experienced builders: special cards and points.
    pub variant: bool,
}

/// The symbol a card shows (scored and acted on only in the variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterSymbol)]
pub enum Symbol {
    King,
    Queen,
    Knight,
    Maiden,
    Raven,
    TwoRavens,
    Cannon,
    Tower,
    Wizard,
}

// ---- commands -------------------------------------------------------------------------------

/// Turn up any face-down card of the store (first step of a turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TurnUpCard {
    /// The store slot, 0..=44 (row-major: row = slot / 9, column = slot % 9).
    #[schema(maximum = 44)]
    pub slot: u8,
}

/// Add the turned-up card to the right end of your wall (it must be higher than the last card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AddCardToWall {}

/// Variant: spend your wizard to insert the turned-up card into your wall at `position`
/// (0 = right of the start tower), where the numbers still rise left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct InsertCardWithWizard {
    pub position: u8,
}

/// Return the turned-up card face down to its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReturnCard {}

/// Variant: after adding a cannon, destroy an unprotected card in another player's wall.
/// Firing is a choice, made at once: `DeclineCannon` lets the chance go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FireCannon {
    /// The seat whose wall is hit.
    #[schema(maximum = 3)]
    pub target: Seat,
    /// The number of the card to destroy.
    #[schema(minimum = 2, maximum = 46)]
    pub card: Card,
}

/// Variant: after adding a cannon, do not fire it (the chance is gone for good).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeclineCannon {}

tagged_union! {
    /// A command of Der Wettkampf der Burgbaumeister.
    pub enum BurgbaumeisterCommand {
        TurnUpCard,
        AddCardToWall,
        InsertCardWithWizard,
        ReturnCard,
        FireCannon,
        DeclineCannon,
    }
}

// ---- events ---------------------------------------------------------------------------------

/// The game began: who plays, which rules, who starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CastleGameStarted {
    pub players: u8,
    pub variant: bool,
    /// Drawn at random.
    pub starting_seat: Seat,
}

/// The 45 cards were shuffled face down into the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StoreLaidOut {
    /// The card in each slot, 0..=44. Absent (`null`) for everyone but auditors until the game
    /// ends: nobody may know a face-down card.
    pub cards: Option<Vec<Card>>,
}

/// A player turned up a store card; everyone sees its number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardTurnedUp {
    pub seat: Seat,
    pub slot: u8,
    pub card: Card,
}

/// The turned-up card joined the player's wall at `position` (0 = right of the start tower).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardAddedToWall {
    pub seat: Seat,
    pub card: Card,
    pub position: u8,
    /// True when the wizard's once-per-game insertion placed it.
    pub by_wizard: bool,
}

/// The turned-up card went back face down to its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardReturned {
    pub seat: Seat,
    pub slot: u8,
}

/// A cannon destroyed a card; it leaves the game and the cards right of it close the gap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardDestroyed {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
}

/// A cannon was added but no other wall had an unprotected card: the action lapses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CannonLapsed {
    pub seat: Seat,
}

/// A cannon was added and could have fired, but its builder chose not to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CannonDeclined {
    pub seat: Seat,
}

/// The turn passed to the next seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TurnPassed {
    pub seat: Seat,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterEnd)]
pub enum EndReason {
    /// A player added the 9th card to their wall.
    WallComplete,
    /// No player can add any card still in the store.
    Blocked,
}

/// The game ended; scores per seat (variant: points; base game: cards in the wall) and winners.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CastleGameEnded {
    pub reason: EndReason,
    pub scores: Vec<i64>,
    pub winners: Vec<Seat>,
}

tagged_union! {
    /// An event of Der Wettkampf der Burgbaumeister.
    pub enum BurgbaumeisterEvent {
        CastleGameStarted,
        StoreLaidOut,
        CardTurnedUp,
        CardAddedToWall,
        CardReturned,
        CardDestroyed,
        CannonLapsed,
        CannonDeclined,
        TurnPassed,
        CastleGameEnded,
    }
}

// ---- view -----------------------------------------------------------------------------------

/// One store slot as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterSlot)]
pub struct SlotView {
    pub slot: u8,
    /// `face_down`, `turned_up` or `empty` (its card is in a wall or out of the game).
    pub state: SlotState,
    /// The number, when the viewer may see it (turned up, or the game has ended).
    pub card: Option<Card>,
    pub symbol: Option<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterSlotState)]
pub enum SlotState {
    FaceDown,
    TurnedUp,
    Empty,
}

/// A card in a wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterWallCard)]
pub struct WallCard {
    pub card: Card,
    /// The symbol it shows (variant; always shown, meaningful only in the variant).
    pub symbol: Option<Symbol>,
    /// A cannon cannot destroy it: a tower, or left of the wall's last tower (the start tower
    /// counts). Variant only; always false in the base game, which has no cannons.
    pub protected: bool,
}

/// One player's wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterWall)]
pub struct WallView {
    pub seat: Seat,
    /// Left to right, right of the start tower (value 1).
    pub cards: Vec<WallCard>,
    /// Variant: a wizard in this wall whose power is not yet spent (usable from the turn after
    /// it joined; a wizard destroyed by a cannon takes its power with it).
    pub wizard_ready: bool,
    /// Score so far: points in the variant, the cards in the wall in the base game (the same
    /// numbers as the game status's scores).
    pub points: i64,
}

/// The board of Der Wettkampf der Burgbaumeister as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BurgbaumeisterView {
    pub variant: bool,
    /// The seat whose turn it is (absent once the game has ended).
    pub turn: Option<Seat>,
    /// What the player whose turn it is must do now.
    pub phase: Phase,
    /// The card turned up this turn, if any.
    pub turned_up: Option<TurnedUp>,
    /// All 45 slots.
    pub store: Vec<SlotView>,
    pub walls: Vec<WallView>,
}

/// The card turned up this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterTurnedUp)]
pub struct TurnedUp {
    pub slot: u8,
    pub card: Card,
}

/// The step of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterPhase)]
pub enum Phase {
    /// Waiting for the game to be set up.
    NotStarted,
    /// Turn up a store card.
    TurnUp,
    /// Add the turned-up card to the wall (or insert it with the wizard) or return it.
    Place,
    /// Variant: fire the cannon just added at a card, or decline.
    Cannon,
    Finished,
}

// ---- state ----------------------------------------------------------------------------------

/// The whole truth (the server's; views show what a viewer may see of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub started: bool,
    pub variant: bool,
    pub players: u8,
    /// The card in each slot; `None` once it left the store. The card turned up this turn stays
    /// in its slot until it joins a wall.
    pub store: Vec<Option<Card>>,
    /// Each seat's wall, left to right, without the start tower.
    pub walls: Vec<Vec<Card>>,
    /// Seats whose wizard power is spent.
    pub wizard_spent: Vec<bool>,
    pub turn: Seat,
    pub turned_up: Option<TurnedUp>,
    /// After a cannon joined the wall of the seat whose turn it is (variant): waiting for its
    /// builder to fire or decline. Cleared when it fires, is declined or lapses, or the turn or
    /// game ends.
    pub cannon_pending: bool,
    /// The wizard card joined the wall of the seat whose turn it is during this turn: its power
    /// is usable only from a later turn on.
    pub wizard_joined_this_turn: bool,
    /// Cards a cannon destroyed: out of the game, in the order they fell.
    pub destroyed: Vec<Card>,
    pub ended: Option<CastleGameEnded>,
}
