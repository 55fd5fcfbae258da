//! The turn clock's option, `move_minutes`, which every kind accepts next to its own options.
//! The games' options never hold it: it is taken out before a game parses its options, and put
//! back into the options the server stores (and shows in the lobby), so the set-up command
//! records it and an audit runs the set-up again with the same options. The set-up is told it
//! (`Game::setup_with_turn_clock`): a kind whose players act at once bounds its rounds by it.
//!
//! Its companion, `clock_bot` (a bot level, absent or null: off), asks the clock to hand a seat
//! whose deadline passed to a bot of that level instead of making the default move (the server
//! side is `storage/src/command/clock_bot.rs`). It is stored only when set, so the options of games made
//! before it stay exactly as they were recorded.

use serde_json::{Map, Value};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

use crate::bots::level::Level;
use crate::dynamic::DomainError;

/// The option's name in every kind's options.
pub const OPTION: &str = "move_minutes";
/// The option naming the bot that plays a seat whose turn deadline passed.
pub const BOT_OPTION: &str = "clock_bot";
/// The longest a turn may be given: four weeks.
pub const MAX_MOVE_MINUTES: u64 = 40_320;

/// Splits the turn clock's option off `options`: the game's own options (as given, `Null` when
/// absent) and the minutes, if set.
pub fn split(options: &Value) -> Result<(Value, Option<u64>), DomainError> {
    let Value::Object(map) = options else {
        return Ok((options.clone(), None));
    };
    let mut own = map.clone();
    own.remove(BOT_OPTION);
    let minutes = match own.remove(OPTION) {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(m) if (1..=MAX_MOVE_MINUTES).contains(&m) => Some(m),
            _ => return Err(out_of_range(&n.to_string())),
        },
        Some(other) => return Err(out_of_range(&other.to_string())),
    };
    Ok((Value::Object(own), minutes))
}

fn out_of_range(given: &str) -> DomainError {
    DomainError::InvalidOptions(format!(
        "`{OPTION}` is a whole number of minutes from 1 to {MAX_MOVE_MINUTES} (or null for no turn clock), not {given}"
    ))
}

/// The level of the clock's bot in `options` (`None`: the clock makes the default move). The
/// game must have a turn clock (`move_minutes`), and the level must play the kind (which
/// [`crate::registry::validate_new_game`] checks), else the option would promise a bot that
/// never comes.
pub fn bot(options: &Value) -> Result<Option<Level>, DomainError> {
    let given = match options {
        Value::Object(map) => map.get(BOT_OPTION),
        _ => None,
    };
    let level = match given {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(name)) => Level::from_name(name),
        Some(_) => None,
    };
    let Some(level) = level else {
        return Err(DomainError::InvalidOptions(format!(
            "`{BOT_OPTION}` is a bot level (`random`, `greedy` or `strong`), or null for none"
        )));
    };
    if split(options)?.1.is_none() {
        return Err(DomainError::InvalidOptions(format!(
            "`{BOT_OPTION}` needs the turn clock: set `{OPTION}` too"
        )));
    }
    Ok(Some(level))
}

/// `options` (as stored) with the clock's bot added when there is one.
pub fn join_bot(options: Value, bot: Option<Level>) -> Value {
    match (options, bot) {
        (Value::Object(mut map), Some(level)) => {
            map.insert(BOT_OPTION.into(), Value::from(level.name()));
            Value::Object(map)
        }
        (options, _) => options,
    }
}

/// The game's parsed options with the turn clock's option added (`null` when off), as stored.
pub fn join(own: Value, minutes: Option<u64>) -> Value {
    let mut map = match own {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    map.insert(OPTION.into(), minutes.map_or(Value::Null, Value::from));
    Value::Object(map)
}

/// Adds the option to a kind's options schema, so the spec shows it for every kind.
pub fn with_option(schema: RefOr<Schema>) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut object)) => {
            object.properties.insert(
                OPTION.to_string(),
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                        Type::Integer,
                        Type::Null,
                    ]))
                    .minimum(Some(1))
                    .maximum(Some(MAX_MOVE_MINUTES as f64))
                    .description(Some(
                        "The turn clock, for every kind: when a seat to act has not acted within \
                         this many minutes (vacation time not counted) since its clock started, \
                         the server makes the game's default move for it (see the kind's rules \
                         document). Absent or null: no turn clock.",
                    ))
                    .into(),
            );
            object.properties.insert(
                BOT_OPTION.to_string(),
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                        Type::String,
                        Type::Null,
                    ]))
                    .enum_values(Some(
                        Level::ALL
                            .iter()
                            .map(|l| Value::from(l.name()))
                            .chain([Value::Null]),
                    ))
                    .description(Some(
                        "With the turn clock (`move_minutes`), for every kind: when a seat's \
                         deadline passes, a bot of this level makes that move for its player \
                         instead of the default move (the seat shows `clock_bot` until its \
                         player acts again; docs/api.md, \"Options every game has\"). Every \
                         level plays every kind. Absent or null: the default move.",
                    ))
                    .into(),
            );
            RefOr::T(Schema::Object(object))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn splits_and_joins() {
        let (own, minutes) = split(&json!({"timing": "arrival", "move_minutes": 30})).unwrap();
        assert_eq!(own, json!({"timing": "arrival"}));
        assert_eq!(minutes, Some(30));
        assert_eq!(
            join(own, minutes),
            json!({"timing": "arrival", "move_minutes": 30})
        );
        assert_eq!(split(&Value::Null).unwrap(), (Value::Null, None));
        assert_eq!(
            split(&json!({"move_minutes": null})).unwrap(),
            (json!({}), None)
        );
        for bad in [json!(0), json!(-5), json!(1.5), json!("10"), json!(40_321)] {
            assert!(split(&json!({ "move_minutes": bad })).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_bot_is_a_level_and_needs_the_clock() {
        let options = json!({"move_minutes": 5, "clock_bot": "random"});
        assert_eq!(split(&options).unwrap(), (json!({}), Some(5)));
        assert_eq!(bot(&options).unwrap(), Some(Level::Random));
        assert_eq!(bot(&json!({"move_minutes": 5})).unwrap(), None);
        assert_eq!(
            bot(&json!({"move_minutes": 5, "clock_bot": null})).unwrap(),
            None
        );
        for bad in [
            json!({"clock_bot": "random"}),
            json!({"move_minutes": 5, "clock_bot": "genius"}),
            json!({"move_minutes": 5, "clock_bot": true}),
        ] {
            assert!(bot(&bad).is_err(), "{bad}");
        }
        assert_eq!(
            join_bot(json!({"move_minutes": 5}), Some(Level::Greedy)),
            json!({"move_minutes": 5, "clock_bot": "greedy"})
        );
        assert_eq!(
            join_bot(json!({"move_minutes": 5}), None),
            json!({"move_minutes": 5})
        );
    }
}
