//! The object-safe face of [`Game`]: commands, events, options and views as JSON values, the
//! state boxed. The server holds a `&'static dyn DynGame` per kind and is generic over nothing;
//! [`crate::erased::Erased`] makes one of any [`Game`].

use std::any::Any;
use std::fmt::Debug;

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::ToSchema;

use crate::contract::{Ctx, Game, RuleError, Seat, Status, Viewer};
use crate::language::Language;
use crate::typed_command::TypedCommand;
use crate::view_tape::Tape;

/// Why the domain refused something, before or while applying the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// No game of this kind is offered here.
    #[error("no game kind `{0}`")]
    UnknownKind(String),
    /// The options do not parse or cannot make a game.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// The command's `type` is not a command of this game.
    #[error("unknown command: {0}")]
    UnknownCommand(String),
    /// The command names a known type but its fields do not parse.
    #[error("invalid command: {0}")]
    InvalidCommand(String),
    /// The command is well-formed but the rules forbid it now.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A stored event does not parse: the store is damaged or the code lost an event type.
    #[error("stored event does not parse: {0}")]
    CorruptEvent(String),
}

/// A game's state, boxed. Cloning is cheap for these games (a few hundred bytes).
pub struct GameState {
    inner: Box<dyn StateObject>,
}

trait StateObject: Send + Sync + Debug {
    fn clone_box(&self) -> Box<dyn StateObject>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Clone + Send + Sync + Debug + 'static> StateObject for T {
    fn clone_box(&self) -> Box<dyn StateObject> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState {
            inner: self.inner.clone_box(),
        }
    }
}

impl Debug for GameState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}

impl GameState {
    pub(crate) fn new<T: Clone + Send + Sync + Debug + 'static>(state: T) -> Self {
        GameState {
            inner: Box::new(state),
        }
    }

    /// The concrete state, for tests and tools that know the game.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.inner.as_any().downcast_ref()
    }

    /// The concrete state, to change: bots fill in the hidden part of an imagined game.
    pub fn downcast_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.inner.as_any_mut().downcast_mut()
    }

    pub(crate) fn get<G: Game>(&self) -> &G::State {
        self.downcast::<G::State>()
            .expect("a state is only ever handed to the game that made it")
    }

    pub(crate) fn get_mut<G: Game>(&mut self) -> &mut G::State {
        self.inner
            .as_any_mut()
            .downcast_mut()
            .expect("a state is only ever handed to the game that made it")
    }
}

/// What `GET /v1/kinds` tells about a game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct KindInfo {
    /// The id used in `POST /v1/games` (`burgbaumeister`).
    pub kind: &'static str,
    pub title: &'static str,
    pub min_seats: u8,
    pub max_seats: u8,
    /// The name of the options' schema in this spec.
    pub options_schema: String,
    /// The options used when none are given, with `move_minutes` (the turn clock, which every
    /// kind offers; `null`: off).
    pub default_options: Value,
    /// Every command `type` of this game.
    pub commands: Vec<&'static str>,
    /// Every event `type` of this game.
    pub events: Vec<&'static str>,
}

/// The named schemas a game contributes to the spec.
pub struct GameSchemas {
    pub options: String,
    pub view: String,
    pub commands: Vec<&'static str>,
    pub events: Vec<&'static str>,
    /// Every schema above and all they depend on, named.
    pub schemas: Vec<(String, RefOr<Schema>)>,
}

/// The object-safe game. Implemented for every [`Game`] by [`Erased`].
pub trait DynGame: Send + Sync {
    fn kind(&self) -> &'static str;
    fn info(&self) -> KindInfo;
    /// The rules as this server plays them (Markdown; see [`Game::RULES`]).
    fn rules(&self) -> &'static str;
    /// The rules in that language, if this kind's document exists in it (English always does).
    fn rules_in(&self, language: Language) -> Option<&'static str>;
    fn schemas(&self) -> GameSchemas;
    /// Parses the options (absent = defaults), checks them for `seats` and returns them in full.
    /// Refuses, as `InvalidOptions`, a seat count outside the kind's range. (Callers outside
    /// this crate use [`crate::registry::validate_new_game`], which also finds the kind.)
    fn validate_options(&self, options: &Value, seats: u8) -> Result<Value, DomainError>;
    fn initial(&self) -> GameState;
    /// Deals and shuffles. A seat count outside the kind's range, or options the kind refuses,
    /// is refused (`Rule` / `InvalidOptions`), never a panic, whatever the caller checked.
    fn setup(&self, options: &Value, seats: u8, ctx: &mut Ctx) -> Result<Vec<Value>, DomainError>;
    fn decide(
        &self,
        state: &GameState,
        seat: Seat,
        command: &Value,
        ctx: &mut Ctx,
    ) -> Result<Vec<Value>, DomainError>;
    fn evolve(&self, state: &mut GameState, event: &Value) -> Result<(), DomainError>;
    /// The seat's legal commands as [`DynGame::legal_commands`] lists them, typed: for imagined
    /// games (the bots' searches), which need not write every listed command as JSON.
    fn typed_commands(&self, state: &GameState, seat: Seat) -> Vec<TypedCommand>;
    /// A command as JSON read into its typed form (`InvalidCommand` when it is none of this
    /// kind's), without [`DynGame::decide`]'s checks of the JSON's shape: a bot's commands come
    /// from `legal_commands`.
    fn read_typed(&self, command: &Value) -> Result<TypedCommand, DomainError>;
    /// [`DynGame::decide`] and [`DynGame::evolve`] of its events in one, typed: the command is
    /// not read from JSON and the events never become JSON. For imagined games only (their
    /// events are stored nowhere); a command of another kind is `InvalidCommand`.
    fn play_typed(
        &self,
        state: &mut GameState,
        seat: Seat,
        command: &TypedCommand,
        ctx: &mut Ctx,
    ) -> Result<(), DomainError>;
    /// [`DynGame::evolve`] with the event as stored, JSON text: read straight into the game's
    /// event, without a `Value` in between (folding a log read from the database).
    fn evolve_json(&self, state: &mut GameState, event: &str) -> Result<(), DomainError>;
    /// The state as JSON text, for a stored snapshot (the bytes its signature covers).
    fn save_state(&self, state: &GameState) -> Vec<u8>;
    /// A stored snapshot back as a state; `CorruptEvent` when it does not parse.
    fn load_state(&self, saved: &[u8]) -> Result<GameState, DomainError>;
    /// Whether two states are the same (the audit compares snapshots with its own fold).
    fn same_state(&self, a: &GameState, b: &GameState) -> bool;
    /// The board as `viewer` may see it now, with a `type` naming the view's schema.
    fn view(&self, state: &GameState, viewer: Viewer) -> Value;
    /// The same board as JSON text, written straight from the game's view: what a response
    /// sends, without building a `Value` first (boards run to tens of kilobytes).
    fn view_json(&self, state: &GameState, viewer: Viewer) -> Box<RawValue>;
    /// The view as [`view`](DynGame::view) holds it, written flat for comparing into `tape` (its
    /// buffers used again): far cheaper to build than the value.
    fn view_tape(&self, state: &GameState, viewer: Viewer, tape: &mut Tape);
    /// The view as undo's judgement compares it ([`Game::judged_view`]: the view, the view
    /// without what every viewer sees alike, or nothing where all see everything), written as
    /// [`view_tape`](DynGame::view_tape) writes the view.
    fn judged_tape(&self, state: &GameState, viewer: Viewer, tape: &mut Tape);
    /// [`Game::VIEWERS_SEE_ALIKE`].
    fn viewers_see_alike(&self) -> bool;
    fn redact(&self, state: &GameState, event: &Value, viewer: Viewer) -> Option<Value>;
    fn legal_commands(&self, state: &GameState, seat: Seat) -> Vec<Value>;
    /// The same commands, each written as JSON straight from the game's command (what an
    /// answer sends): no `Value` built and dropped for each, which in Space Builder's long
    /// lists of moves was half of a command's work on the server.
    fn legal_commands_json(&self, state: &GameState, seat: Seat) -> Vec<Box<RawValue>>;
    fn status(&self, state: &GameState) -> Status;
    /// The turn clock's move for `seat` (see [`Game::default_command`]).
    fn default_command(&self, state: &GameState, seat: Seat) -> Option<Value>;
    /// When the game stops waiting by itself (ms since the epoch), if it will.
    fn deadline(&self, state: &GameState) -> Option<i64>;
    /// The events that happen when the deadline has passed (`ctx.now_ms` at or after it).
    fn on_deadline(&self, state: &GameState, ctx: &mut Ctx) -> Vec<Value>;

    /// The viewer the rules of hidden information apply to: once the game has ended, everything
    /// is public.
    fn effective_viewer(&self, state: &GameState, viewer: Viewer) -> Viewer {
        if self.status(state).finished {
            Viewer::Everyone
        } else {
            viewer
        }
    }

    /// Folds a whole stored log (`events[i]` is version `i + 1`) from the initial state,
    /// take-backs included (see [`crate::take_back`]).
    fn replay(&self, events: &[Value]) -> Result<GameState, DomainError>;
}
