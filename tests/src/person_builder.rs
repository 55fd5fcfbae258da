//! A Space Builder player who builds the plan exactly, one card at a time: what a person does
//! who reads the blueprint right. Used by the test of the bots' pace and by the program that
//! measures how often such a person beats each level of bot (`src/bin/bots-pace.rs`).

use serde_json::{json, Value};

use crate::TestServer;

/// The city the blueprint asks for, as `PlaceBuildingCard` commands, in the boards' frame (as
/// the rules document describes it: a card on (row, column) moves to (column, 2 − row) per
/// quarter turn, and its rotation grows by one per quarter turn).
pub fn plan(blueprint: &Value) -> Vec<Value> {
    let turn = blueprint["turn"].as_u64().unwrap_or(0);
    blueprint["cards"]
        .as_array()
        .map(|cards| cards.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|card| {
            let slot = card["slot"].as_u64().unwrap();
            let (mut row, mut col) = (slot / 3, slot % 3);
            for _ in 0..turn {
                (row, col) = (col, 2 - row);
            }
            json!({
                "type": "PlaceBuildingCard",
                "card": card["card"],
                "slot": row * 3 + col,
                "face": card["face"],
                "rotation": (card["rotation"].as_u64().unwrap() + turn) % 4,
            })
        })
        .collect()
}

/// The next command of a person who builds the plan exactly from `seat`'s view of the game,
/// and whether it is a card (which takes the person their time per card); `None` when the
/// seat has nothing to do now.
pub fn next_command(view: &Value, seat: u64) -> Option<(Value, bool)> {
    let me = view["players"]
        .as_array()?
        .iter()
        .find(|p| p["seat"] == seat)?;
    match view["phase"].as_str()? {
        "releasing" if view["releasing"] == seat => {
            let hand = me["hand"].as_array()?;
            let card = (1..=8u64).find(|c| !hand.contains(&json!(c)))?;
            Some((json!({"type": "ReleaseBuildingCard", "card": card}), false))
        }
        "building" if me["finished"] != true && me["stopped"] != true => {
            if view["blueprint"].is_null() {
                return Some((json!({"type": "LookAtBlueprint"}), false));
            }
            let hand = me["hand"].as_array()?;
            let city = me["city"].as_array().cloned().unwrap_or_default();
            let card = plan(&view["blueprint"]).into_iter().find(|p| {
                hand.contains(&p["card"]) && !city.iter().any(|c| c["card"] == p["card"])
            });
            Some(match card {
                Some(card) => (card, true),
                None => (json!({"type": "DeclareCityFinished"}), false),
            })
        }
        _ => None,
    }
}

/// Sends `command` for the game `id`; the answer's status.
pub async fn send(s: &TestServer, id: i64, token: &str, command: &Value) -> u16 {
    s.post(
        &format!("/v1/games/{id}/commands"),
        Some(token),
        &json!({ "command": command }),
    )
    .await
    .status
}
