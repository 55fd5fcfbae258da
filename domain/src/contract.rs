//! The contract every game implements. The rest of the system is generic over it, through the
//! object-safe [`crate::dynamic::DynGame`].

use std::fmt::Debug;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use utoipa::ToSchema;

use crate::rng::GameRng;
use crate::schema::TaggedUnion;

/// A seat at the table, 0-based, in turn order.
pub type Seat = u8;

/// Who is looking. Hidden information is decided per viewer, in views and in the event log alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player: sees the public board and what the rules show that seat.
    Seat(Seat),
    /// Anybody not seated: the public board only.
    Spectator,
    /// Sees everything: auditors, and everybody once the game has ended.
    Everyone,
}

/// What the server supplies to `setup` and `decide`: randomness and the clock. Both are stored
/// with the command, so an audit can run `decide` again and get byte-identical events.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub rng: GameRng,
    /// Milliseconds since the Unix epoch, as the server saw them when the command arrived.
    pub now_ms: i64,
}

impl Ctx {
    pub fn new(seed: u64, now_ms: i64) -> Self {
        Ctx {
            rng: GameRng::from_seed(seed),
            now_ms,
        }
    }

    /// The context of a command whose randomness is derived from the game's committed secret
    /// (see [`crate::fairness`]).
    pub fn from_key(key: &[u8; 32], now_ms: i64) -> Self {
        Ctx {
            rng: GameRng::from_key(key),
            now_ms,
        }
    }
}

/// Who must act, and when the game is over, the result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = GameStatus)]
pub struct Status {
    /// The seats whose command the game waits for (one in turn-based games; several when
    /// players act at once). Empty once the game has finished.
    pub to_act: Vec<Seat>,
    pub finished: bool,
    /// One score per seat, in seat order, when the game keeps score.
    pub scores: Option<Vec<i64>>,
    /// The winning seats (more than one on a shared win). Empty while the game runs.
    pub winners: Vec<Seat>,
}

/// A command broke a rule of the game. `code` is stable and machine-readable; `message` says in
/// words which rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    pub code: &'static str,
    pub message: String,
}

impl RuleError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        RuleError {
            code,
            message: message.into(),
        }
    }

    pub fn not_your_turn() -> Self {
        Self::new("not_your_turn", "It is not your turn.")
    }

    pub fn not_started() -> Self {
        Self::new("game_not_started", "The game has not been set up yet.")
    }

    pub fn game_over() -> Self {
        Self::new(
            "game_over",
            "The game has ended; no more commands are accepted.",
        )
    }
}

/// The guard that opens every command of a game played in turns, in this order: the game has
/// not ended, it has been set up, and it is `seat`'s turn. Every kind that has one refuses with
/// these same codes and words.
pub fn check_turn(ended: bool, started: bool, turn: Seat, seat: Seat) -> Result<(), RuleError> {
    if ended {
        return Err(RuleError::game_over());
    }
    if !started {
        return Err(RuleError::not_started());
    }
    if seat != turn {
        return Err(RuleError::not_your_turn());
    }
    Ok(())
}

/// One game's rules. Implemented by a zero-sized marker type per game.
///
/// `decide` validates and never mutates; `evolve` folds an event into the state, never fails on
/// an event `decide` (or `setup`) produced, and never draws randomness.
///
/// Undo (see [`crate::take_back`]) asks nothing more of a game: whether a command may be taken
/// back is read from what the contract already says. It revealed something, and stays, when
/// `decide` drew from `Ctx.rng`, when `redact` changes one of its events for a seat or a
/// spectator, when `status` says it ended the game, or when `view` shows a viewer a change in
/// what was hidden from them (the parts where their view differs from `Viewer::Everyone`'s).
/// So a game must put every secret through `Ctx.rng`, `redact` and `view`, as it already must
/// for hidden information; a take-back restores the state before the command exactly.
pub trait Game: 'static + Send + Sync {
    /// The game's id in URLs and the lobby (`burgbaumeister`).
    const KIND: &'static str;
    /// The game's name as printed on the box.
    const TITLE: &'static str;
    const MIN_SEATS: u8;
    const MAX_SEATS: u8;
    /// The rules as this server plays them, in Markdown: `include_str!` of the game's
    /// `docs/rules/<kind>.md`. It names every decision, the turn clock's default move, and every
    /// command and event type (the registry's test checks the names).
    const RULES: &'static str;
    /// The same rules in German: `include_str!` of `docs/rules/<kind>.de.md`, with the same
    /// headings in the same order and every command and event type by the same name (the
    /// registry's tests compare the two). `None` serves the English document instead.
    const RULES_DE: Option<&'static str> = None;

    /// Options chosen when the game is created. Unknown fields should be rejected.
    type Options: Serialize + DeserializeOwned + Default + Clone + Debug + ToSchema;
    /// Serializable so that snapshots of it can be stored every few events (replays and cold
    /// starts fold from the nearest one instead of from event 1).
    type State: Clone + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// A tagged union whose tags are unique across all games.
    type Command: Serialize + DeserializeOwned + Clone + Debug + PartialEq + TaggedUnion;
    /// A tagged union whose tags are unique across all games; named after what happened.
    type Event: Serialize + DeserializeOwned + Clone + Debug + PartialEq + TaggedUnion;
    type View: Serialize + ToSchema;

    /// Rejects options that cannot make a game with this many seats (the seat count itself is
    /// already within `MIN_SEATS..=MAX_SEATS`).
    fn validate_options(_options: &Self::Options, _seats: u8) -> Result<(), RuleError> {
        Ok(())
    }

    /// The state before any event.
    fn initial() -> Self::State;

    /// Deals and shuffles: the outcomes are in the events.
    fn setup(
        options: &Self::Options,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// The set-up of a game played with the turn clock (`move_minutes`, taken out of the
    /// options before the game parses them; see [`crate::turn_clock`]). Most kinds' rules do not
    /// depend on it. A kind whose players act at once overrides this to bound its rounds: each
    /// act restarts a seat's clock, so the clock alone cannot end a round one seat keeps
    /// acting in.
    fn setup_with_turn_clock(
        options: &Self::Options,
        seats: u8,
        _move_minutes: Option<u64>,
        ctx: &mut Ctx,
    ) -> Result<Vec<Self::Event>, RuleError> {
        Self::setup(options, seats, ctx)
    }

    fn decide(
        state: &Self::State,
        seat: Seat,
        command: &Self::Command,
        ctx: &mut Ctx,
    ) -> Result<Vec<Self::Event>, RuleError>;

    fn evolve(state: &mut Self::State, event: &Self::Event);

    /// What `viewer` may see of the board now.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The view as undo's judgement compares it (`take_back::reveals`): by default the whole
    /// view. The judgement looks only where one viewer's view differs from another's, so a
    /// kind may leave out (empty) parts that every viewer sees alike in every state, where
    /// writing them would be most of the judgement's work, or answer `None` when every viewer
    /// sees everything; the verdict is the same.
    fn judged_view(state: &Self::State, viewer: Viewer) -> Option<Self::View> {
        Some(Self::view(state, viewer))
    }

    /// Whether every seat and the spectators see the same view in every state (nobody holds
    /// anything of their own; only `Viewer::Everyone` sees more). Undo's judgement then
    /// compares the spectators' views alone, whose verdict is every seat's: it writes one
    /// viewer's views per command instead of one per seat and the spectators'. Random play
    /// holds a kind that says so to it (`take_back`'s tests).
    const VIEWERS_SEE_ALIKE: bool = false;

    /// The same rule applied to the event log: the event as `viewer` may see it (secrets removed),
    /// or `None` when the viewer may not even know it happened. `state` is the game's state now.
    fn redact(state: &Self::State, event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;

    /// Every command `seat` may send now, each ready to send as it is.
    fn legal_commands(state: &Self::State, seat: Seat) -> Vec<Self::Command>;

    fn status(state: &Self::State) -> Status;

    /// The move the turn clock makes for `seat` when it has not acted in time: one of the
    /// commands `legal_commands` lists for it, the one that changes the least (pass, return the
    /// card, let it go, finish). `None` only when the seat has nothing to do. Each game names its
    /// default in its rules document.
    fn default_command(state: &Self::State, seat: Seat) -> Option<Self::Command>;

    /// When the game stops waiting for the players by itself (a round's deadline), in
    /// milliseconds since the Unix epoch. The server then calls [`Game::on_deadline`] with a
    /// clock at or past it.
    fn deadline(_state: &Self::State) -> Option<i64> {
        None
    }

    /// What happens when the deadline has passed (the events, decided like a command's).
    fn on_deadline(_state: &Self::State, _ctx: &mut Ctx) -> Vec<Self::Event> {
        Vec::new()
    }
}

/// The checks every kind's set-up makes before it deals anything: the seat count is within the
/// kind's range and the options pass the kind's own validation. Game creation checks the same
/// (see [`crate::registry::validate_new_game`]), but a set-up is also run on what an export or
/// an import claims, which nobody checked: there a seat count of 0 must be a refusal, never a
/// division by zero.
pub fn check_setup<G: Game>(options: &G::Options, seats: u8) -> Result<(), RuleError> {
    if !(G::MIN_SEATS..=G::MAX_SEATS).contains(&seats) {
        return Err(RuleError::new(
            "seats_out_of_range",
            format!(
                "{} is played by {} to {} players, not {seats}.",
                G::TITLE,
                G::MIN_SEATS,
                G::MAX_SEATS
            ),
        ));
    }
    G::validate_options(options, seats)
}

#[cfg(test)]
mod tests {
    use super::check_turn;

    #[test]
    fn the_turn_guard_refuses_in_order_game_over_not_started_not_your_turn() {
        let code = |ended, started, turn, seat| check_turn(ended, started, turn, seat).err();
        assert_eq!(code(true, false, 0, 1).unwrap().code, "game_over");
        assert_eq!(code(false, false, 0, 1).unwrap().code, "game_not_started");
        assert_eq!(code(false, true, 0, 1).unwrap().code, "not_your_turn");
        assert_eq!(code(false, true, 1, 1), None);
    }
}
