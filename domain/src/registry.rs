//! The games this server offers.

use crate::dynamic::{DynGame, Erased};
use crate::games::burgbaumeister::Burgbaumeister;
use crate::games::carcassonne::Carcassonne;
use crate::games::mauerbauer::Mauerbauer;
use crate::games::space_builder::SpaceBuilder;
use crate::games::wettstreit::Wettstreit;

static BURGBAUMEISTER: Erased<Burgbaumeister> = Erased::new();
static CARCASSONNE: Erased<Carcassonne> = Erased::new();
static MAUERBAUER: Erased<Mauerbauer> = Erased::new();
static SPACE_BUILDER: Erased<SpaceBuilder> = Erased::new();
static WETTSTREIT: Erased<Wettstreit> = Erased::new();

static ALL: [&dyn DynGame; 5] = [
    &BURGBAUMEISTER,
    &WETTSTREIT,
    &SPACE_BUILDER,
    &MAUERBAUER,
    &CARCASSONNE,
];

/// Every game, in the order `GET /v1/kinds` lists them.
pub fn all() -> &'static [&'static dyn DynGame] {
    &ALL
}

/// The game of that kind id.
pub fn find(kind: &str) -> Option<&'static dyn DynGame> {
    all().iter().copied().find(|g| g.kind() == kind)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    #[test]
    fn every_command_and_event_type_is_named_in_its_rules_document() {
        // Client authors read `docs/rules/<kind>.md`: each type is there by name, in backticks.
        for game in super::all() {
            let rules = game.rules();
            let info = game.info();
            assert!(rules.starts_with("# "), "{}: a titled document", info.kind);
            for tag in info.commands.iter().chain(info.events.iter()) {
                assert!(
                    rules.contains(&format!("`{tag}`")),
                    "`{tag}` is not named in docs/rules/{}.md",
                    info.kind
                );
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
}
