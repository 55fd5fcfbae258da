//! A person's pace for bots in a race. Space Builder's rounds are won by building the plan
//! first; a program that lays a card the moment it may would win every round against any
//! person before they saw the blueprint. So while a round is built, a bot's every act (laying,
//! moving or taking back a card, finishing) comes a modelled person's time after its previous
//! act, or after the round began (or, with `elapsed` timing, after it looked at the blueprint:
//! looking itself is not delayed, it is where a player's own time starts). The time per act
//! depends on the level: the random bot is a slow beginner, the greedy bot a practised player
//! and the strong one an expert. The rest of the game (the winner's choice of a card to
//! release) and every turn-based kind are not timed: there only the choice counts.
//!
//! Times are judged by the store's clock against the times the events carry (`at_ms`), so a
//! bot's pace is what the log shows, and a test may move the clock instead of waiting.
//!
//! A beginner also gives up: the random bot picks any of the few hundred listed ways to lay a
//! card and seldom happens to finish, which at a person's pace would hold a round with `elapsed`
//! timing (it ends when nobody builds) for the better part of an hour. So after
//! [`GIVE_UP_ACTS_PER_CARD`] acts per card it holds (and two more) in a round, it stops
//! building ([`gives_up`]), its city checked as it stands.

use serde_json::Value;

use super::{BotInput, Level};
use crate::rng::GameRng;

/// The modelled person's time per act while building, in milliseconds: each act takes a time
/// drawn evenly from this range.
pub fn act_millis(level: Level) -> (i64, i64) {
    match level {
        Level::Random => (4_000, 8_000),
        Level::Greedy => (2_000, 3_500),
        Level::Strong => (1_500, 2_500),
    }
}

/// The acts of a builder in Space Builder's log that its next act must wait after.
const ACTS: [&str; 4] = [
    "BuildingCardPlaced",
    "BuildingCardMoved",
    "BuildingCardTakenBack",
    "BlueprintLookedAt",
];

/// When a bot of `level` holding the seat of `input` may act next, by the store's clock; `None`
/// when it may act now whatever the time (not a race, or nothing to wait for). `salt` (the
/// game's id) makes the drawn times differ between games; within a game the draw depends only
/// on how many acts the seat made, so asking again gives the same answer.
pub fn due_ms(input: &BotInput, level: Level, salt: u64) -> Option<i64> {
    if input.kind != "space-builder" {
        return None;
    }
    let view = &input.view;
    if view["phase"] != "building" {
        return None;
    }
    let me = view["players"]
        .as_array()?
        .iter()
        .find(|p| p["seat"] == u64::from(input.seat))?;
    if me["finished"] == true || me["stopped"] == true {
        return None;
    }
    if view["timing"] == "elapsed" && me["looked_at_blueprint"] != true {
        return None;
    }
    let started = view["round_started_ms"].as_i64()?;
    let mine: Vec<i64> = input
        .log
        .iter()
        .filter(|e| is_act_of(e, input.seat))
        .filter_map(|e| e["at_ms"].as_i64())
        .filter(|&at| at >= started)
        .collect();
    let last = mine.iter().copied().max().unwrap_or(started);
    let (low, high) = act_millis(level);
    // Drawn from the game, the round and how many acts the seat made in it, never from the
    // others' acts, so that asking again before the seat acts gives the same time.
    let round = view["round"].as_u64().unwrap_or(0);
    let mut rng = GameRng::from_seed(
        salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ round.wrapping_mul(0xA24B_AED4_963E_E407)
            ^ mine.len() as u64,
    );
    let pause = low + rng.below((high - low) as u64 + 1) as i64;
    Some(last + pause)
}

/// The random bot's acts per card it holds (and two more) in a round before it gives up.
pub const GIVE_UP_ACTS_PER_CARD: usize = 2;

/// The command with which a bot of `level` gives up building this round, if it does now:
/// `StopBuilding`, for the random bot in Space Builder after its acts ran out.
pub fn gives_up(input: &BotInput, level: Level) -> Option<Value> {
    if level != Level::Random || input.kind != "space-builder" || input.view["phase"] != "building"
    {
        return None;
    }
    let me = input.view["players"]
        .as_array()?
        .iter()
        .find(|p| p["seat"] == u64::from(input.seat))?;
    let held = me["hand"].as_array().map_or(0, Vec::len);
    let started = input.view["round_started_ms"].as_i64()?;
    let acts = input
        .log
        .iter()
        .filter(|e| is_act_of(e, input.seat) && e["type"] != "BlueprintLookedAt")
        .filter(|e| e["at_ms"].as_i64().is_some_and(|at| at >= started))
        .count();
    if acts < GIVE_UP_ACTS_PER_CARD * held + 2 {
        return None;
    }
    input
        .moves
        .iter()
        .find(|m| m["type"] == "StopBuilding")
        .cloned()
}

fn is_act_of(event: &Value, seat: u8) -> bool {
    event["seat"] == u64::from(seat) && event["type"].as_str().is_some_and(|t| ACTS.contains(&t))
}
