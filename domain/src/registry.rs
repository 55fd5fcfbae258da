//! The games this server offers.

use std::sync::LazyLock;

use serde_json::Value;

use crate::bots::level::Level;
use crate::bots::rules::BotRules;
use crate::dynamic::{DomainError, DynGame};
use crate::erased::Erased;
use crate::games::{burgbaumeister, carcassonne, mauerbauer, space_builder, wettstreit};
use crate::turn_clock;

/// A game this server offers: its rules, and its bots' rules (`None` for a kind whose hidden
/// part bots cannot imagine: only the random level would play it).
struct Offered {
    game: &'static dyn DynGame,
    bots: Option<&'static dyn BotRules>,
}

/// The one table of games, in the order `GET /v1/kinds` lists them. A new kind is one line here.
static OFFERED: [Offered; 5] = [
    Offered {
        game: &Erased::<burgbaumeister::Burgbaumeister>::new(),
        bots: Some(&burgbaumeister::bot::Rules),
    },
    Offered {
        game: &Erased::<wettstreit::Wettstreit>::new(),
        bots: Some(&wettstreit::bot::Rules),
    },
    Offered {
        game: &Erased::<space_builder::SpaceBuilder>::new(),
        bots: Some(&space_builder::bot::Rules),
    },
    Offered {
        game: &Erased::<mauerbauer::Mauerbauer>::new(),
        bots: Some(&mauerbauer::bot::Rules),
    },
    Offered {
        game: &Erased::<carcassonne::Carcassonne>::new(),
        bots: Some(&carcassonne::bot::Rules),
    },
];

static ALL: LazyLock<Vec<&'static dyn DynGame>> =
    LazyLock::new(|| OFFERED.iter().map(|o| o.game).collect());

/// Every game, in the order `GET /v1/kinds` lists them.
pub fn all() -> &'static [&'static dyn DynGame] {
    &ALL
}

/// The game of that kind id.
pub fn find(kind: &str) -> Option<&'static dyn DynGame> {
    all().iter().copied().find(|g| g.kind() == kind)
}

/// The bot rules of a kind; `None` for a kind whose hidden part bots cannot imagine (see
/// [`plays`]). Every kind offered has them now.
pub fn bot_rules(kind: &str) -> Option<&'static dyn BotRules> {
    OFFERED
        .iter()
        .find(|o| o.game.kind() == kind)
        .and_then(|o| o.bots)
}

/// Whether a bot of `level` plays games of `kind`. The random level plays every kind; the
/// searching ones the kinds whose hidden part they can imagine ([`bot_rules`]), which is every
/// kind offered now. A kind added without bot rules would be refused (422
/// `bot_level_unavailable`) rather than played at random under a better name.
pub fn plays(kind: &str, level: Level) -> bool {
    match level {
        Level::Random => find(kind).is_some(),
        Level::Greedy | Level::Strong => bot_rules(kind).is_some(),
    }
}

/// What a new game must pass, exactly as game creation checks it: the kind exists, `seats` is
/// within its range, and the options parse (absent = the defaults) and pass the kind's own
/// validation for that many seats. Returns the game and the options in full, as stored (with
/// `move_minutes`). Game creation, the offline verifier and import all call this, so that what
/// one accepts the others accept and what one refuses none runs.
pub fn validate_new_game(
    kind: &str,
    seats: u8,
    options: &Value,
) -> Result<(&'static dyn DynGame, Value), DomainError> {
    let game = find(kind).ok_or_else(|| DomainError::UnknownKind(kind.to_string()))?;
    let options = game.validate_options(options, seats)?;
    if let Some(level) = turn_clock::bot(&options)? {
        if !plays(kind, level) {
            return Err(DomainError::InvalidOptions(format!(
                "`{}`: the {} bot does not play {kind} yet",
                turn_clock::BOT_OPTION,
                level.name()
            )));
        }
    }
    Ok((game, options))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    #[test]
    fn every_command_and_event_type_is_named_in_its_rules_documents() {
        // Client authors read `docs/rules/<kind>.md` and `<kind>.de.md`: each type is there by
        // name, in backticks, in every language.
        use crate::language::Language;
        for game in super::all() {
            let info = game.info();
            for language in Language::ALL {
                let rules = game.rules_in(language).unwrap_or_else(|| {
                    panic!("{}: no rules document in `{}`", info.kind, language.tag())
                });
                assert!(rules.starts_with("# "), "{}: a titled document", info.kind);
                for tag in info.commands.iter().chain(info.events.iter()) {
                    assert!(
                        rules.contains(&format!("`{tag}`")),
                        "`{tag}` is not named in the `{}` rules of {}",
                        language.tag(),
                        info.kind
                    );
                }
            }
        }
    }

    #[test]
    fn command_and_event_tags_are_unique_across_games() {
        // One request schema covers every game's commands, so a tag may name one variant only.
        let mut seen = HashSet::new();
        for game in super::all() {
            let info = game.info();
            for tag in info.commands.iter().chain(info.events.iter()) {
                assert!(seen.insert(*tag), "`{tag}` is used twice");
            }
        }
    }

    #[test]
    fn boards_and_moves_written_as_text_are_the_boards_and_moves() {
        // Responses send `view_json` and `legal_commands_json`; clients, tests, bots and the
        // spec know `view` and `legal_commands`: the same board, the same moves in the same
        // order.
        use crate::contract::{Ctx, Viewer};
        use crate::rng::GameRng;
        for game in super::all() {
            let seats = game.info().min_seats;
            for seed in 0..3u64 {
                let options = game
                    .validate_options(&serde_json::Value::Null, seats)
                    .unwrap();
                let mut state = game.initial();
                let mut ctx = Ctx::new(seed, 0);
                let mut pick = GameRng::from_seed(seed);
                let mut events = game.setup(&options, seats, &mut ctx).unwrap();
                for step in 0..400 {
                    for event in &events {
                        game.evolve(&mut state, event).unwrap();
                    }
                    if step % 7 == 0 {
                        for viewer in (0..seats)
                            .map(Viewer::Seat)
                            .chain([Viewer::Spectator, Viewer::Everyone])
                        {
                            // Compared as parsed by one parser (its last digit of a float
                            // may differ from the value it was written from, both ways alike).
                            let parse = |text: &str| -> serde_json::Value {
                                serde_json::from_str(text).unwrap()
                            };
                            let value = game.view(&state, viewer).to_string();
                            let text = game.view_json(&state, viewer);
                            assert_eq!(parse(text.get()), parse(&value), "{}", game.kind());
                        }
                    }
                    let status = game.status(&state);
                    let Some(&seat) = status.to_act.first() else {
                        break;
                    };
                    let moves = game.legal_commands(&state, seat);
                    let texts: Vec<serde_json::Value> = game
                        .legal_commands_json(&state, seat)
                        .iter()
                        .map(|text| serde_json::from_str(text.get()).unwrap())
                        .collect();
                    assert_eq!(texts, moves, "{}", game.kind());
                    if moves.is_empty() {
                        break;
                    }
                    let command = &moves[pick.below(moves.len() as u64) as usize];
                    let mut ctx = Ctx::new(seed + step, step as i64);
                    events = game.decide(&state, seat, command, &mut ctx).unwrap();
                }
            }
        }
    }
}
