//! Random legal games to the end: 2 to 5 players, every combination of the expansions.
//!
//! At every step: the 7 followers of each player are on the board or at home, the 16 ingots
//! are in the supply, on tiles or with players, the seat to act has a legal command and the
//! turn clock's default move is one of them. In the deep games, also at every step: decide
//! accepts exactly the listed commands among many probes (other seats, every place around the
//! board and rotation, every segment, every figure move); every viewer sees the same view and
//! log; the state rebuilt from the log as a spectator receives it equals the server's (so the
//! server holds nothing a spectator lacks: the pile's order does not exist); and the features
//! tracked incrementally equal those found by walking the board. At the end of every game,
//! replay(events) == state (checked by `random_game`) and the result matches the status.
//!
//! How long a game takes (optimized domain as in `cargo test`, one core): a 72-tile base game
//! of about 150 commands, including these per-step checks, about 1 ms; the 1,600 games of
//! `many_random_games_end_and_conserve_pieces` together about 2 s.

use std::time::Instant;

use proptest::prelude::*;

use super::super::commands::*;
use super::super::events::*;
use super::super::options::*;
use super::super::state::{State, FOLLOWERS};
use super::super::tiles::{self, catalogue, facing_half, opposite, step, FeatureKind};
use super::super::Carcassonne;
use crate::contract::{Ctx, Game, Viewer};
use crate::testing::{random_game, viewers};

/// A game has at most 87 turns of at most 4 commands.
const MAX_MOVES: usize = 1000;

fn options(bits: u64) -> CarcassonneOptions {
    CarcassonneOptions {
        mage_and_witch: bits & 1 != 0,
        gold_mines: bits & 2 != 0,
    }
}

fn check_conservation(state: &State) {
    if !state.started {
        return;
    }
    for seat in 0..state.players {
        let on_board = state.followers.iter().filter(|f| f.seat == seat).count() as u8;
        assert_eq!(
            on_board + state.home[seat as usize],
            FOLLOWERS,
            "seat {seat}'s followers"
        );
    }
    let on_tiles: u32 = state.board.placed.iter().map(|p| u32::from(p.gold)).sum();
    let taken: u32 = state.ingots.iter().map(|&n| u32::from(n)).sum();
    let total = u32::from(state.gold_supply) + on_tiles + taken;
    let expected = if state.options.gold_mines { 16 } else { 0 };
    assert_eq!(total, expected, "the ingots");
    assert!(state.mage.is_none() || state.options.mage_and_witch);
    if let (Some(m), Some(w)) = (state.mage, state.witch) {
        if state.current.is_none() {
            assert!(
                !state.board.features.same(m, w),
                "the figures never share a feature between turns"
            );
        }
    }
}

fn check_clock(state: &State) {
    let status = Carcassonne::status(state);
    for seat in 0..state.players {
        let legal = Carcassonne::legal_commands(state, seat);
        let default = Carcassonne::default_command(state, seat);
        if status.to_act.contains(&seat) {
            let default = default.expect("a seat that must act has a default move");
            assert!(legal.contains(&default), "the default move is listed");
        } else {
            assert_eq!(default, None);
            assert!(legal.is_empty());
        }
    }
}

/// Commands near the listed ones and far from them: decide must accept exactly the listed.
fn probes(state: &State) -> Vec<CarcassonneCommand> {
    let mut probes: Vec<CarcassonneCommand> = vec![
        SkipFollower {}.into(),
        RemoveMageOrWitch {
            figure: MagicFigure::Mage,
        }
        .into(),
        RemoveMageOrWitch {
            figure: MagicFigure::Witch,
        }
        .into(),
    ];
    let mut places: Vec<Position> = state.board.frontier().to_vec();
    places.extend(state.board.placed.iter().map(|p| p.pos));
    places.push(Position { x: 500, y: -3 });
    places.push(Position { x: 3, y: 3 });
    for p in &places {
        for rotation in [0, 90, 180, 270, 45] {
            probes.push(
                PlaceTile {
                    x: p.x,
                    y: p.y,
                    rotation,
                }
                .into(),
            );
        }
        probes.push(PlaceGoldIngot { x: p.x, y: p.y }.into());
    }
    for segment in 0..12 {
        probes.push(PlaceFollower { segment }.into());
    }
    for placed in state.board.placed.iter() {
        for segment in 0..placed.segments() + 1 {
            for figure in [MagicFigure::Mage, MagicFigure::Witch] {
                probes.push(
                    PlaceMageOrWitch {
                        figure,
                        x: placed.pos.x,
                        y: placed.pos.y,
                        segment,
                    }
                    .into(),
                );
            }
        }
    }
    probes
}

fn check_exactly_legal_accepted(state: &State) {
    let probes = probes(state);
    for seat in 0..state.players {
        let legal = Carcassonne::legal_commands(state, seat);
        for command in &legal {
            assert!(
                Carcassonne::decide(state, seat, command, &mut Ctx::new(3, 0)).is_ok(),
                "listed {command:?} refused"
            );
        }
        for command in &probes {
            let accepted = Carcassonne::decide(state, seat, command, &mut Ctx::new(3, 0)).is_ok();
            assert_eq!(
                accepted,
                legal.contains(command),
                "seat {seat}: {command:?}"
            );
        }
    }
}

/// No secret anywhere: every viewer gets the same view and log, and a spectator's log alone
/// rebuilds the whole state (so the pile has no order hidden in it).
fn check_nothing_hidden(state: &State, events: &[CarcassonneEvent]) {
    let everyone = serde_json::to_value(Carcassonne::view(state, Viewer::Everyone)).unwrap();
    for viewer in viewers(state.players) {
        assert_eq!(
            serde_json::to_value(Carcassonne::view(state, viewer)).unwrap(),
            everyone
        );
    }
    let mut rebuilt = Carcassonne::initial();
    for event in events {
        let seen = Carcassonne::redact(state, event, Viewer::Spectator).expect("public");
        assert_eq!(&seen, event);
        Carcassonne::evolve(&mut rebuilt, &seen);
    }
    assert_eq!(&rebuilt, state, "a spectator's log rebuilds the state");
}

/// The features found by walking the board from scratch equal those tracked tile by tile:
/// the same segments together, the same tiles, pennants and open edges.
fn check_features_against_a_walk(state: &State) {
    let board = &state.board;
    let features = &board.features;
    let n = features.len();
    let mut component = vec![usize::MAX; n];
    for start in 0..n {
        if component[start] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        component[start] = start;
        let (mut tiles, mut pennants, mut open) = (Vec::new(), 0u8, 0u16);
        while let Some(node) = stack.pop() {
            let (tile, segment) = features.place_of(node as u16);
            let placed = &board.placed[tile as usize];
            let segments = &tiles::tile(placed.kind).segments;
            let this = &segments[segment as usize];
            if !tiles.contains(&tile) {
                tiles.push(tile);
            }
            pennants += u8::from(this.pennant);
            let turned = tiles::tile(placed.kind).turned(placed.quarters);
            let mut neighbours = Vec::new();
            for edge in 0..4u8 {
                let there = super::super::board::offset(placed.pos, step(edge));
                let other = board.at(there);
                if turned.edge_segment[edge as usize] == Some(segment) {
                    match other {
                        None => open += 1,
                        Some(o) => {
                            let theirs = tiles::tile(o.kind).turned(o.quarters);
                            let s = theirs.edge_segment[opposite(edge) as usize].unwrap();
                            neighbours.push(o.node(s));
                        }
                    }
                }
                for half in [2 * edge, 2 * edge + 1] {
                    if turned.half_segment[half as usize] == Some(segment) {
                        if let Some(o) = other {
                            let theirs = tiles::tile(o.kind).turned(o.quarters);
                            let s = theirs.half_segment[facing_half(half) as usize].unwrap();
                            neighbours.push(o.node(s));
                        }
                    }
                }
            }
            for next in neighbours {
                if component[next as usize] == usize::MAX {
                    component[next as usize] = start;
                    stack.push(next as usize);
                }
            }
        }
        let tracked = features.get(start as u16);
        assert_eq!(tracked.tiles.len() as usize, tiles.len());
        assert_eq!(tracked.pennants, pennants);
        if matches!(tracked.kind, FeatureKind::Road | FeatureKind::City) {
            assert_eq!(tracked.open, open, "open edges of feature at node {start}");
        }
    }
    for a in 0..n {
        let root = features.find(a as u16) as usize;
        assert_eq!(component[a], component[root], "node {a} and its root");
    }
    let walked: std::collections::HashSet<usize> = component.iter().copied().collect();
    assert_eq!(walked.len(), features.roots().count());
}

#[derive(Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
enum Checks {
    /// Conservation and the turn clock at every step.
    Cheap,
    /// Also everything in the module's description, at every step.
    Deep,
}

fn play(seed: u64, seats: u8, options: CarcassonneOptions, checks: Checks) -> (usize, State) {
    let game = random_game::<Carcassonne>(&options, seats, seed, MAX_MOVES, |state, events| {
        check_conservation(state);
        check_clock(state);
        if checks == Checks::Deep {
            check_exactly_legal_accepted(state);
            check_nothing_hidden(state, events);
            check_features_against_a_walk(state);
        }
    });
    assert!(game.status.finished, "seed {seed}: the game ends");
    let ended = game.state.ended.clone().unwrap();
    assert_eq!(Some(ended.scores.clone()), game.status.scores);
    assert_eq!(ended.winners, game.status.winners);
    assert_eq!(game.state.tiles_left(), 0, "the pile is used up");
    let placed = game.state.board.placed.len() + game.state.discarded.len();
    let expected =
        72 + 8 * usize::from(options.mage_and_witch) + 8 * usize::from(options.gold_mines);
    assert_eq!(placed, expected, "every tile was placed or discarded");
    if checks == Checks::Cheap && seed.is_multiple_of(50) {
        check_features_against_a_walk(&game.state);
    }
    (game.moves, game.state)
}

#[test]
fn many_random_games_end_and_conserve_pieces() {
    let started = Instant::now();
    let mut longest = 0;
    for seed in 0..1600u64 {
        let seats = 2 + (seed % 4) as u8;
        let (moves, _) = play(seed, seats, options(seed / 4), Checks::Cheap);
        longest = longest.max(moves);
    }
    assert!(longest < MAX_MOVES);
    eprintln!("1600 random games in {:?}", started.elapsed());
}

#[test]
fn a_base_game_places_all_72_tiles_quickly() {
    let started = Instant::now();
    let games = 100;
    for seed in 0..games {
        let (_, state) = play(seed, 2 + (seed % 4) as u8, options(0), Checks::Cheap);
        assert_eq!(state.board.placed.len() + state.discarded.len(), 72);
    }
    let each = started.elapsed() / games as u32;
    eprintln!("a 72-tile base game takes {each:?}");
}

#[test]
fn random_games_accept_exactly_the_listed_commands_and_hide_nothing() {
    for seed in 0..4u64 {
        play(
            30_000 + seed,
            2 + (seed % 4) as u8,
            options(seed),
            Checks::Deep,
        );
    }
}

#[test]
fn every_tile_of_the_expansions_is_placed_or_discarded() {
    let c = catalogue();
    let (_, state) = play(77, 3, options(3), Checks::Cheap);
    let mut seen = vec![0u8; c.tiles.len()];
    for p in &state.board.placed {
        seen[p.kind as usize] += 1;
    }
    for &k in &state.discarded {
        seen[k as usize] += 1;
    }
    for (kind, t) in c.tiles.iter().enumerate() {
        assert_eq!(seen[kind], t.count, "{}", t.id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn any_seed_plays_a_whole_game(seed in any::<u64>(), seats in 2u8..=5, bits in 0u64..4) {
        play(seed, seats, options(bits), Checks::Cheap);
    }
}

#[test]
fn random_play_reaches_every_event() {
    use crate::schema::TaggedUnion;
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..300u64 {
        let game = random_game::<Carcassonne>(
            &options(3),
            2 + (seed % 4) as u8,
            seed,
            MAX_MOVES,
            |_, _| {},
        );
        seen.extend(game.events.iter().map(|e| e.tag()));
    }
    for tag in CarcassonneEvent::TAGS {
        assert!(seen.contains(tag), "no random game had {tag}");
    }
}
