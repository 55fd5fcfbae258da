//! The game's named schemas and its registration.

use super::*;

#[test]
fn schemas_are_named_and_tags_do_not_clash_with_other_games() {
    use crate::dynamic::DynGame;
    use crate::erased::Erased;
    let game = Erased::<Wettstreit>::new();
    let info = game.info();
    assert_eq!(info.kind, "wettstreit");
    let schemas = game.schemas();
    assert_eq!(schemas.view, "WettstreitView");
    assert_eq!(schemas.options, "WettstreitOptions");
    let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
    for tag in info.commands.iter().chain(&info.events) {
        assert!(names.contains(tag), "{tag} has a named schema");
    }
    for helper in [
        "WettstreitKind",
        "WettstreitCardFace",
        "WettstreitPlayerView",
        "WettstreitCityScore",
    ] {
        assert!(names.contains(&helper), "{helper}");
    }
    // Every reference resolves to a schema the game contributes.
    fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    match v {
                        serde_json::Value::String(r) if k == "$ref" => out.push(r.clone()),
                        _ => refs(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all_refs = Vec::new();
    for (_, schema) in &schemas.schemas {
        refs(&serde_json::to_value(schema).unwrap(), &mut all_refs);
    }
    for r in all_refs {
        let name = r.trim_start_matches("#/components/schemas/");
        assert!(names.contains(&name), "{r} is not among the game's schemas");
    }
    let view = game.view(&game.initial(), Viewer::Spectator);
    assert_eq!(view["type"], "WettstreitView");
    // Registered, so the registry's test keeps its tags unique across games.
    assert!(crate::registry::find("wettstreit").is_some());
    assert!(
        game.validate_options(&serde_json::json!({"x": 1}), 3)
            .is_err(),
        "unknown options are refused"
    );
    assert!(game.validate_options(&serde_json::Value::Null, 2).is_err());
    assert!(game.validate_options(&serde_json::Value::Null, 4).is_ok());
}
