//! Random legal games, base and variant, 2–4 players, played to the end (about 3,000 games in
//! all, a few seconds). At every step: the 45 cards are conserved, walls rise and no player's or
//! spectator's view shows a face-down card; in the deep games also the views as JSON and the log
//! and replay(events) == state every 25th step; at the end of every game replay(events) == state
//! (checked by `random_game`), the game has finished and its result matches the status.

use proptest::prelude::*;

use super::super::commands::*;
use super::super::events::*;
use super::super::options::*;
use super::super::state::*;
use super::super::view::*;
use super::super::Burgbaumeister;
use crate::contract::{Ctx, Game, Viewer};
use crate::testing::{check_judged_view, random_game, viewers};

/// Generous: random games take about 500 commands (half of them turn-ups, many returns), the
/// longest of thousands a few thousand; a game still running at this bound fails the test.
const MAX_MOVES: usize = 20_000;

fn check_conservation(state: &State) {
    if !state.started || state.store.is_empty() {
        return;
    }
    let mut all: Vec<Card> = state.store.iter().flatten().copied().collect();
    for wall in &state.walls {
        assert!(wall.windows(2).all(|w| w[0] < w[1]), "walls rise: {wall:?}");
        assert!(
            wall.iter().all(|&c| c > 1),
            "no card at or below the start tower"
        );
        assert!(wall.len() <= WALL_TO_WIN);
        all.extend(wall);
    }
    all.extend(&state.destroyed);
    all.sort();
    assert_eq!(
        all,
        (2..=46).collect::<Vec<Card>>(),
        "45 distinct cards, 2..=46"
    );
    if let Some(t) = &state.turned_up {
        assert_eq!(
            state.store[t.slot as usize],
            Some(t.card),
            "turned up in its slot"
        );
    }
}

/// The view of one viewer (taking turns step by step, so every viewer is checked all game long
/// at a fifth of the cost), as JSON: face-down slots carry no card and no symbol.
fn check_hidden_information(state: &State, events: &[BurgbaumeisterEvent], step: usize) {
    let all = viewers(state.players);
    let viewer = all[step % all.len()];
    check_judged_view_leaves_out_only_what_all_see_alike(state, &all);
    let json = serde_json::to_value(Burgbaumeister::view(state, viewer)).unwrap();
    for slot in json["store"].as_array().unwrap() {
        let index = slot["slot"].as_u64().unwrap() as usize;
        match slot["state"].as_str().unwrap() {
            "face_down" if viewer != Viewer::Everyone => {
                assert!(slot["card"].is_null(), "{viewer:?} sees a face-down card");
                assert!(
                    slot["symbol"].is_null(),
                    "{viewer:?} sees a face-down symbol"
                );
            }
            "face_down" | "turned_up" => {
                assert_eq!(slot["card"].as_u64(), state.store[index].map(u64::from));
            }
            _ => assert!(slot["card"].is_null()),
        }
    }
    let laid_out = &events[1];
    for viewer in viewers(state.players) {
        let redacted = Burgbaumeister::redact(state, laid_out, viewer).unwrap();
        let BurgbaumeisterEvent::StoreLaidOut(StoreLaidOut { cards }) = redacted else {
            panic!("redaction keeps the event's kind")
        };
        assert_eq!(cards.is_some(), viewer == Viewer::Everyone);
    }
}

/// Undo's judgement compares the views without the walls: they must be all it leaves out, and
/// the same for every viewer.
fn check_judged_view_leaves_out_only_what_all_see_alike(state: &State, all: &[Viewer]) {
    check_judged_view::<Burgbaumeister>(
        state,
        all,
        |judged| judged.walls.is_empty(),
        |judged, everyone| BurgbaumeisterView {
            walls: everyone.walls.clone(),
            ..judged
        },
    );
}

/// The same rule as `check_hidden_information` on the view itself (no JSON), cheap enough for
/// every step of thousands of games: a player's or spectator's face-down slots carry nothing.
fn check_view_hides_face_down_cards(state: &State, step: usize) {
    let all = viewers(state.players);
    let viewer = all[step % (all.len() - 1)]; // every seat and the spectators
    for slot in Burgbaumeister::view(state, viewer).store {
        if slot.state == SlotState::FaceDown {
            assert!(
                slot.card.is_none() && slot.symbol.is_none(),
                "{viewer:?} sees {slot:?}"
            );
        }
    }
}

#[derive(Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
enum Checks {
    /// Conservation and rising walls at every step, and that views hide face-down cards.
    Views,
    /// Also hidden information (view and log) at every step, replay every 25th step.
    Deep,
    /// Also: decide accepts exactly the listed commands, at every step.
    Sweep,
}

fn play(seed: u64, seats: u8, variant: bool, checks: Checks) -> usize {
    let options = BurgbaumeisterOptions { variant };
    let mut step = 0;
    let game = random_game::<Burgbaumeister>(&options, seats, seed, MAX_MOVES, |state, events| {
        check_conservation(state);
        if checks == Checks::Views {
            check_view_hides_face_down_cards(state, step);
        } else {
            check_hidden_information(state, events, step);
        }
        // Replaying from scratch costs the whole log: every 25th step (and at the end, in
        // random_game) is enough to catch an evolve that depends on more than the events.
        step += 1;
        if checks != Checks::Views && step % 25 == 0 {
            let mut replayed = Burgbaumeister::initial();
            for event in events {
                Burgbaumeister::evolve(&mut replayed, event);
            }
            assert_eq!(&replayed, state, "replay(events) == state");
        }
        if checks == Checks::Sweep {
            check_exactly_legal_accepted(state);
        }
    });
    assert!(game.status.finished, "seed {seed}: the game ends");
    let ended = game.state.ended.as_ref().unwrap();
    assert_eq!(Some(ended.scores.clone()), game.status.scores);
    assert!(!ended.winners.is_empty());
    if !variant {
        // Cards are unique and no wall is empty when a base game blocks: never a shared win.
        assert_eq!(ended.winners.len(), 1, "seed {seed}: {ended:?}");
    }
    if ended.reason == EndReason::WallComplete {
        assert!(game.state.walls.iter().any(|w| w.len() == WALL_TO_WIN));
    }
    game.moves
}

/// decide accepts a command exactly when legal_commands lists it (over a wide sweep).
fn check_exactly_legal_accepted(state: &State) {
    let mut candidates: Vec<BurgbaumeisterCommand> = vec![
        AddCardToWall {}.into(),
        ReturnCard {}.into(),
        DeclineCannon {}.into(),
    ];
    candidates.extend((0..47).map(|slot| TurnUpCard { slot }.into()));
    candidates.extend((0..11).map(|position| InsertCardWithWizard { position }.into()));
    for target in 0..5 {
        candidates.extend((0..48).map(|card| FireCannon { target, card }.into()));
    }
    for seat in 0..state.players {
        let legal = Burgbaumeister::legal_commands(state, seat);
        for command in &candidates {
            let accepted =
                Burgbaumeister::decide(state, seat, command, &mut Ctx::new(0, 0)).is_ok();
            assert_eq!(
                accepted,
                legal.contains(command),
                "seat {seat}: {command:?}"
            );
        }
    }
}

fn many_games(variant: bool) {
    let mut longest = 0;
    for seed in 0..1500u64 {
        longest = longest.max(play(seed, 2 + (seed % 3) as u8, variant, Checks::Views));
    }
    assert!(longest < MAX_MOVES);
}

#[test]
fn many_random_base_games_end_and_conserve_the_cards() {
    many_games(false);
}

#[test]
fn many_random_variant_games_end_and_conserve_the_cards() {
    many_games(true);
}

#[test]
fn random_games_hide_face_down_cards_at_every_step() {
    for seed in 0..40u64 {
        play(
            10_000 + seed,
            2 + (seed % 3) as u8,
            seed % 2 == 0,
            Checks::Deep,
        );
    }
}

#[test]
fn random_games_accept_exactly_the_listed_commands() {
    for seed in 0..4u64 {
        play(
            20_000 + seed,
            2 + (seed % 3) as u8,
            seed % 2 == 0,
            Checks::Sweep,
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn any_seed_plays_a_whole_game(seed in any::<u64>(), seats in 2u8..=4, variant in any::<bool>()) {
        play(seed, seats, variant, Checks::Deep);
    }
}
