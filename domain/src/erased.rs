//! [`Erased`]: the [`DynGame`] of any [`Game`], the one place where JSON meets a kind's types.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::{PartialSchema, ToSchema};

use crate::contract::{check_setup, Ctx, Game, Seat, Status, Viewer};
use crate::dynamic::{DomainError, DynGame, GameSchemas, GameState, KindInfo};
use crate::language::Language;
use crate::schema::{with_tag, TaggedUnion};
use crate::take_back::{self, replay};
use crate::turn_clock;
use crate::typed_command::TypedCommand;
use crate::view_tape::Tape;

/// The `DynGame` of a `Game`.
pub struct Erased<G: Game>(PhantomData<G>);

impl<G: Game> Erased<G> {
    pub const fn new() -> Self {
        Erased(PhantomData)
    }
}

impl<G: Game> Default for Erased<G> {
    fn default() -> Self {
        Self::new()
    }
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("game types always serialize")
}

/// Parses the game's own options: the turn clock's option (any kind's) is not the game's.
fn parse_options<G: Game>(options: &Value) -> Result<G::Options, DomainError> {
    let (options, _) = turn_clock::split(options)?;
    match &options {
        Value::Null => return Ok(G::Options::default()),
        Value::Object(map) if map.is_empty() => return Ok(G::Options::default()),
        Value::Object(_) => {}
        // serde would read a struct from an array too; options are named, so refuse it.
        _ => {
            return Err(DomainError::InvalidOptions(
                "options are a JSON object (or absent for the defaults)".into(),
            ))
        }
    }
    serde_json::from_value(options).map_err(|e| DomainError::InvalidOptions(e.to_string()))
}

/// A field the command's type does not have is refused rather than ignored: a client that
/// misspells a field should hear so, not have a default played for it.
fn refuse_unknown_fields<C: Serialize>(parsed: &C, raw: &Value) -> Result<(), DomainError> {
    let known = to_value(parsed);
    if let (Value::Object(raw), Value::Object(known)) = (raw, &known) {
        if let Some(field) = raw.keys().find(|k| !known.contains_key(*k)) {
            return Err(DomainError::InvalidCommand(format!(
                "unknown field `{field}`; the fields of `{}` are: {}",
                known["type"].as_str().unwrap_or_default(),
                known
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

fn view_schema_name<G: Game>() -> String {
    <G::View as ToSchema>::name().into_owned()
}

impl<G: Game> DynGame for Erased<G> {
    fn kind(&self) -> &'static str {
        G::KIND
    }

    fn rules(&self) -> &'static str {
        G::RULES
    }

    fn rules_in(&self, language: Language) -> Option<&'static str> {
        match language {
            Language::En => Some(G::RULES),
            Language::De => G::RULES_DE,
        }
    }

    fn info(&self) -> KindInfo {
        KindInfo {
            kind: G::KIND,
            title: G::TITLE,
            min_seats: G::MIN_SEATS,
            max_seats: G::MAX_SEATS,
            options_schema: <G::Options as ToSchema>::name().into_owned(),
            default_options: turn_clock::join(to_value(&G::Options::default()), None),
            commands: G::Command::TAGS.to_vec(),
            events: G::Event::TAGS.to_vec(),
        }
    }

    fn schemas(&self) -> GameSchemas {
        let mut schemas = Vec::new();
        G::Command::variant_schemas(&mut schemas);
        G::Event::variant_schemas(&mut schemas);
        <G::Options as ToSchema>::schemas(&mut schemas);
        let options = <G::Options as ToSchema>::name().into_owned();
        schemas.push((
            options.clone(),
            turn_clock::with_option(<G::Options as PartialSchema>::schema()),
        ));
        <G::View as ToSchema>::schemas(&mut schemas);
        let view = view_schema_name::<G>();
        schemas.push((
            view.clone(),
            with_tag(<G::View as PartialSchema>::schema(), &view),
        ));
        GameSchemas {
            options,
            view,
            commands: G::Command::TAGS.to_vec(),
            events: G::Event::TAGS.to_vec(),
            schemas,
        }
    }

    fn validate_options(&self, options: &Value, seats: u8) -> Result<Value, DomainError> {
        if !(G::MIN_SEATS..=G::MAX_SEATS).contains(&seats) {
            return Err(DomainError::InvalidOptions(format!(
                "{} is played by {} to {} players, not {seats}",
                G::TITLE,
                G::MIN_SEATS,
                G::MAX_SEATS
            )));
        }
        let parsed = parse_options::<G>(options)?;
        G::validate_options(&parsed, seats).map_err(|e| DomainError::InvalidOptions(e.message))?;
        let (_, minutes) = turn_clock::split(options)?;
        let bot = turn_clock::bot(options)?;
        Ok(turn_clock::join_bot(
            turn_clock::join(to_value(&parsed), minutes),
            bot,
        ))
    }

    fn initial(&self) -> GameState {
        GameState::new(G::initial())
    }

    fn setup(&self, options: &Value, seats: u8, ctx: &mut Ctx) -> Result<Vec<Value>, DomainError> {
        let (_, move_minutes) = turn_clock::split(options)?;
        let options = parse_options::<G>(options)?;
        // Every kind's `setup` starts with `check_setup`; checked here as well so that a kind
        // that forgets cannot be handed a seat count it would divide by.
        check_setup::<G>(&options, seats)?;
        let events = G::setup_with_turn_clock(&options, seats, move_minutes, ctx)?;
        Ok(events.iter().map(to_value).collect())
    }

    fn decide(
        &self,
        state: &GameState,
        seat: Seat,
        command: &Value,
        ctx: &mut Ctx,
    ) -> Result<Vec<Value>, DomainError> {
        let raw = command;
        let tag = command.get("type").and_then(Value::as_str);
        match tag {
            None => {
                return Err(DomainError::InvalidCommand(
                    "a command is a JSON object with a string field `type`".into(),
                ))
            }
            Some(tag) if !G::Command::TAGS.contains(&tag) => {
                return Err(DomainError::UnknownCommand(format!(
                    "`{tag}` is not a command of {}; its commands are: {}",
                    G::KIND,
                    G::Command::TAGS.join(", ")
                )))
            }
            Some(_) => {}
        }
        let command: G::Command = serde_json::from_value(command.clone())
            .map_err(|e| DomainError::InvalidCommand(e.to_string()))?;
        refuse_unknown_fields(&command, raw)?;
        let events = G::decide(state.get::<G>(), seat, &command, ctx)?;
        Ok(events.iter().map(to_value).collect())
    }

    fn evolve(&self, state: &mut GameState, event: &Value) -> Result<(), DomainError> {
        // Deserialized from the borrowed value: cloning the JSON first cost as much as folding.
        let event =
            G::Event::deserialize(event).map_err(|e| DomainError::CorruptEvent(e.to_string()))?;
        G::evolve(state.get_mut::<G>(), &event);
        Ok(())
    }

    fn typed_commands(&self, state: &GameState, seat: Seat) -> Vec<TypedCommand> {
        G::legal_commands(state.get::<G>(), seat)
            .into_iter()
            .map(TypedCommand::new)
            .collect()
    }

    fn read_typed(&self, command: &Value) -> Result<TypedCommand, DomainError> {
        // Read from the borrowed value: no clone of the command's JSON.
        G::Command::deserialize(command)
            .map(TypedCommand::new)
            .map_err(|e| DomainError::InvalidCommand(e.to_string()))
    }

    fn play_typed(
        &self,
        state: &mut GameState,
        seat: Seat,
        command: &TypedCommand,
        ctx: &mut Ctx,
    ) -> Result<(), DomainError> {
        let command = command
            .downcast::<G::Command>()
            .ok_or_else(|| DomainError::InvalidCommand(format!("not a command of {}", G::KIND)))?;
        let events = G::decide(state.get::<G>(), seat, command, ctx)?;
        let state = state.get_mut::<G>();
        for event in &events {
            G::evolve(state, event);
        }
        Ok(())
    }

    fn replay(&self, events: &[Value]) -> Result<GameState, DomainError> {
        replay(self, events)
    }

    fn evolve_json(&self, state: &mut GameState, event: &str) -> Result<(), DomainError> {
        let event: G::Event =
            serde_json::from_str(event).map_err(|e| DomainError::CorruptEvent(e.to_string()))?;
        G::evolve(state.get_mut::<G>(), &event);
        Ok(())
    }

    fn save_state(&self, state: &GameState) -> Vec<u8> {
        serde_json::to_vec(state.get::<G>()).expect("states serialize")
    }

    fn load_state(&self, saved: &[u8]) -> Result<GameState, DomainError> {
        serde_json::from_slice::<G::State>(saved)
            .map(GameState::new)
            .map_err(|e| DomainError::CorruptEvent(format!("snapshot: {e}")))
    }

    fn same_state(&self, a: &GameState, b: &GameState) -> bool {
        a.get::<G>() == b.get::<G>()
    }

    fn view(&self, state: &GameState, viewer: Viewer) -> Value {
        let mut view = to_value(&G::view(state.get::<G>(), viewer));
        if let Value::Object(map) = &mut view {
            map.insert("type".into(), Value::String(view_schema_name::<G>()));
        }
        view
    }

    fn view_json(&self, state: &GameState, viewer: Viewer) -> Box<RawValue> {
        #[derive(Serialize)]
        struct Typed<'a, V> {
            #[serde(rename = "type")]
            tag: &'a str,
            #[serde(flatten)]
            view: &'a V,
        }
        let view = G::view(state.get::<G>(), viewer);
        // Not `RawValue::from_string`, which parses the text again to check it (7 % of the
        // server's instructions per Mauerbauer command with `Prefer: return=representation`):
        // what serde_json wrote is JSON.
        serde_json::value::to_raw_value(&Typed {
            tag: &view_schema_name::<G>(),
            view: &view,
        })
        .expect("views serialize")
    }

    fn view_tape(&self, state: &GameState, viewer: Viewer, tape: &mut Tape) {
        tape.write(&G::view(state.get::<G>(), viewer))
            .expect("views serialize");
    }

    fn judged_tape(&self, state: &GameState, viewer: Viewer, tape: &mut Tape) {
        tape.write(&G::judged_view(state.get::<G>(), viewer))
            .expect("views serialize");
    }

    fn viewers_see_alike(&self) -> bool {
        G::VIEWERS_SEE_ALIKE
    }

    fn redact(&self, state: &GameState, event: &Value, viewer: Viewer) -> Option<Value> {
        // A take-back is every kind's and public: it names versions everybody has seen.
        if event.get("type").and_then(Value::as_str) == Some(take_back::EVENT) {
            return Some(event.clone());
        }
        let event = G::Event::deserialize(event).ok()?;
        G::redact(state.get::<G>(), &event, viewer).map(|e| to_value(&e))
    }

    fn legal_commands(&self, state: &GameState, seat: Seat) -> Vec<Value> {
        G::legal_commands(state.get::<G>(), seat)
            .iter()
            .map(to_value)
            .collect()
    }

    fn legal_commands_json(&self, state: &GameState, seat: Seat) -> Vec<Box<RawValue>> {
        G::legal_commands(state.get::<G>(), seat)
            .iter()
            .map(|command| serde_json::value::to_raw_value(command).expect("commands serialize"))
            .collect()
    }

    fn status(&self, state: &GameState) -> Status {
        G::status(state.get::<G>())
    }

    fn default_command(&self, state: &GameState, seat: Seat) -> Option<Value> {
        G::default_command(state.get::<G>(), seat).map(|c| to_value(&c))
    }

    fn deadline(&self, state: &GameState) -> Option<i64> {
        G::deadline(state.get::<G>())
    }

    fn on_deadline(&self, state: &GameState, ctx: &mut Ctx) -> Vec<Value> {
        G::on_deadline(state.get::<G>(), ctx)
            .iter()
            .map(to_value)
            .collect()
    }
}
