//! The game's named schemas and its registration.

use super::*;

#[test]
fn the_game_registers_with_named_schemas_and_unique_tags() {
    use crate::dynamic::DynGame;
    use crate::erased::Erased;
    let game = Erased::<SpaceBuilder>::new();
    let info = game.info();
    assert_eq!(info.kind, "space-builder");
    assert_eq!(info.options_schema, "SpaceBuilderOptions");
    let schemas = game.schemas();
    assert_eq!(schemas.view, "SpaceBuilderView");
    let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "SpaceBuilderPlacement",
        "SpaceBuilderFace",
        "SpaceBuilderRoundResult",
        "PlaceBuildingCard",
        "CitiesChecked",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // Helper types are named after the game, so that no schema name clashes with another game's.
    for name in &names {
        assert!(
            name.starts_with("SpaceBuilder")
                // utoipa names the aliases `Card`, `Slot` and `Seat` after their type, as it does
                // for every game.
                || *name == "u8"
                || schemas.commands.contains(name)
                || schemas.events.contains(name),
            "schema `{name}` is not named after the game"
        );
    }
    // Registered, so the registry's test keeps its tags unique across games.
    assert!(crate::registry::find(SpaceBuilder::KIND).is_some());
    let state = game
        .replay(
            &game
                .setup(&serde_json::Value::Null, 2, &mut Ctx::new(1, 0))
                .unwrap(),
        )
        .unwrap();
    let view = game.view(&state, Viewer::Seat(0));
    assert_eq!(view["type"], "SpaceBuilderView");
    let moves = game.legal_commands(&state, 0);
    let (last, places) = moves.split_last().unwrap();
    assert!(places.iter().all(|m| m["type"] == "PlaceBuildingCard"));
    assert_eq!(places.len(), 4 * 9 * 8);
    assert_eq!(last["type"], "StopBuilding");
}
