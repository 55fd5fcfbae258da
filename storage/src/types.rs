//! What the store hands out: serializable, and named schemas in the spec.

use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::{schema::Schema, Ref, RefOr};
use utoipa::ToSchema;

use crate::audit::trust::SignedHead;

/// Where a game stands in the lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    /// Waiting for players to take the free seats.
    Open,
    /// Being played.
    Active,
    Finished,
}

impl Lifecycle {
    pub fn as_str(self) -> &'static str {
        match self {
            Lifecycle::Open => "open",
            Lifecycle::Active => "active",
            Lifecycle::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "open" => Some(Lifecycle::Open),
            "active" => Some(Lifecycle::Active),
            "finished" => Some(Lifecycle::Finished),
            _ => None,
        }
    }
}

/// Who may find, watch and join a game (see `watch.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed in the lobby; anybody watches it and takes a free seat.
    #[default]
    Open,
    /// Listed to, and readable by, only its players, the accounts invited by name and
    /// auditors (everybody else is told 404 `game_not_found`); joined only with an invitation.
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Open => "open",
            Visibility::Private => "private",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "open" => Some(Visibility::Open),
            "private" => Some(Visibility::Private),
            _ => None,
        }
    }
}

/// Who sits where.
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct SeatHolder {
    pub seat: u8,
    /// The player's account name.
    pub player: String,
    /// Present and true when a bot plays this seat (the server, at `bot_level`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The bot's level (`random`, `greedy`, `strong`); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// Present while the turn clock's bot plays this seat for its player (game option
    /// `clock_bot`): the bot's level. From the first move the clock handed to the bot until the
    /// player's own next command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_bot: Option<String>,
    /// When the turn clock makes this seat's default move (RFC 3339): present while the seat is
    /// to act in a game with `move_minutes`. Pushed back while its player is on vacation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_deadline: Option<String>,
    /// Present while the player is on vacation: when the vacation ends (RFC 3339). The seat's
    /// turn clock stands still until then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vacation_until: Option<String>,
}

/// A game as the lobby lists it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: i64,
    /// The game kind (see `GET /v1/kinds`).
    pub kind: String,
    pub status: Lifecycle,
    /// `open` (listed, anybody joins) or `private` (joined with an invitation only).
    pub visibility: Visibility,
    pub seat_count: u8,
    /// The taken seats.
    pub seats: Vec<SeatHolder>,
    /// The number of events so far; 0 until the game starts.
    pub version: i64,
    /// The seats whose command the game waits for.
    pub to_act: Vec<u8>,
    /// Scores per seat, when the game keeps score.
    pub scores: Option<Vec<i64>>,
    /// The winning seats, once finished.
    pub winners: Vec<u8>,
    pub options: Value,
    pub created_at: String,
    pub updated_at: String,
    /// The game's provably fair randomness (absent for games older than it).
    pub fairness: Option<Fairness>,
    /// Whether the game counts for the players' ratings once finished (`rated: false` at
    /// creation makes it unrated; so are imported games and one account in two seats).
    pub rated: bool,
    /// Whether players may take back their last command (`"undo": false` at creation turns it
    /// off; see docs/api.md, "Undo").
    pub undo: bool,
    /// The finished game this one is the rematch of.
    pub rematch_of: Option<i64>,
    /// This game's rematch, once all its players accepted it.
    pub rematch: Option<i64>,
    /// A rematch proposal waits for its players' answers (`GET /v1/games/{id}/rematch`).
    pub rematch_open: bool,
}

/// Commit and reveal (docs/fairness.md): every command's randomness is
/// HMAC-SHA256(secret, client seeds and the command's position), and the secret's SHA-256 is
/// published before any of it is drawn.
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct Fairness {
    /// The game's global id: its hash chain and signed heads name it, and it stays the same
    /// when the game is exported and imported elsewhere.
    pub uid: String,
    /// SHA-256 of the secret's 32 bytes, hexadecimal: shown from the moment the game is created.
    pub commitment: String,
    /// Each seat's client seed, in seat order (so far).
    pub client_seeds: Vec<String>,
    /// The secret (32 bytes, hexadecimal), revealed once the game has ended.
    pub secret: Option<String>,
    /// How its event hashes are chained (`docs/fairness.md` §4): 2, salted commitments; 1,
    /// plain hashes (games whose chain began before format 2).
    #[schema(minimum = 1, maximum = 2)]
    pub chain: u8,
    /// For an imported game, the public key of the server it came from, which signed its head
    /// (this server never signs another's history); absent for games played here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_key: Option<String>,
}

fn any_event() -> RefOr<Schema> {
    Ref::from_schema_name("AnyEvent").into()
}

fn any_view_or_null() -> RefOr<Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(Ref::from_schema_name("AnyView"))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}

/// One entry of a game's log.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LoggedEvent {
    /// 1, 2, 3… within the game.
    pub version: i64,
    /// The seat whose command caused it, or for whom the turn clock made the default move
    /// (absent for the set-up and a round's deadline).
    pub seat: Option<u8>,
    pub recorded_at: String,
    /// The event, as the reader may see it.
    #[schema(schema_with = any_event)]
    pub event: Value,
    /// Present and true when a later `CommandTakenBack` (at or before the version the response
    /// names) took this event back: it stays in the log but no longer counts.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub taken_back: bool,
}

/// The answer to an accepted command.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CommandAccepted {
    pub game_id: i64,
    /// The game's version after this command.
    pub version: i64,
    /// What happened, as the sender may see it.
    pub events: Vec<LoggedEvent>,
    pub to_act: Vec<u8>,
    pub finished: bool,
    /// The chain head after this command, signed by the server (keep it: it proves the
    /// history up to here, see `GET /v1/keys`).
    pub head: SignedHead,
}

/// A game with the board as the caller may see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameDetail {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The caller's seat, if seated.
    pub your_seat: Option<u8>,
    /// The board as the caller may see it (absent until the game starts).
    #[schema(schema_with = any_view_or_null)]
    pub view: Option<Box<serde_json::value::RawValue>>,
    /// The chain head at `version`, signed by the server.
    pub head: SignedHead,
}

/// A page of a game's log.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventPage {
    pub game_id: i64,
    /// The game's current version.
    pub version: i64,
    pub events: Vec<LoggedEvent>,
    /// Pass as `after` for the next page; absent when this page reached the end.
    pub next_after: Option<i64>,
    /// The chain head at `version` (the version this page was judged at), signed by the server.
    pub head: SignedHead,
}
