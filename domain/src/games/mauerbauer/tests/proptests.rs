//! Random legal games, 2–4 players, played to the end by choosing uniformly among the listed
//! commands. At every step: the pieces and cards are conserved, the closed cities are what the
//! walls enclose, and no player's or spectator's view shows another seat's hand or the draw
//! pile; in the deep games also the log as each viewer sees it and replay(events) == state every
//! 20th step; in the sweeps decide accepts exactly the listed commands (probed with many that
//! are not listed) and the turn clock's default is always one of them.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::Value;

use super::super::board::{board, ids, FIELDS};
use super::super::cities::{enclosed, reach};
use super::super::commands::*;
use super::super::events::*;
use super::super::guild_cards::{GuildCard, CARDS};
use super::super::options::*;
use super::super::phase::{step, Step};
use super::super::pieces::{Colour, HouseColour, TowerColour};
use super::super::state::*;
use super::super::view::MauerbauerView;
use super::super::Mauerbauer;
use crate::contract::{Ctx, Game, Seat, Viewer};
use crate::schema::TaggedUnion;
use crate::testing::{check_judged_view, random_game, viewers};

/// Generous: random games take a few hundred commands; a game still running at this bound
/// fails the test.
const MAX_MOVES: usize = 20_000;

fn check_conservation(state: &State) {
    if !state.started {
        return;
    }
    let b = board();
    assert_eq!(
        u32::from(state.supply.walls) + state.walls.count_ones(),
        33,
        "walls"
    );
    for colour in TowerColour::ALL {
        let on_board = state.towers.iter().filter(|t| **t == Some(*colour)).count();
        assert_eq!(
            usize::from(state.supply.towers[colour.index()]) + on_board,
            10,
            "{colour:?} towers"
        );
    }
    for colour in HouseColour::ALL {
        let i = colour.index();
        let in_fields: usize = state.houses.iter().map(|h| usize::from(h[i])).sum();
        let in_cities: usize = state.cities.iter().map(|c| usize::from(c.houses[i])).sum();
        let palaces: usize = state.cities.iter().map(|c| usize::from(c.palaces[i])).sum();
        assert_eq!(
            usize::from(state.supply.houses[i]) + in_fields + in_cities,
            12,
            "{colour:?} houses"
        );
        assert_eq!(
            usize::from(state.supply.palaces[i]) + palaces,
            3,
            "{colour:?} palaces"
        );
    }
    for card in GuildCard::ALL {
        let held: u32 = state.hands.iter().map(|h| u32::from(h.count(card))).sum();
        let discarded = state.discard_pile.iter().filter(|&&c| c == card).count() as u32;
        assert_eq!(
            held + u32::from(state.draw_pile.count(card)) + discarded,
            u32::from(card.copies()),
            "{card:?}"
        );
    }
    let all_cards: u32 = state
        .hands
        .iter()
        .map(|h| u32::from(h.total()))
        .sum::<u32>()
        + u32::from(state.draw_pile.total())
        + state.discard_pile.len() as u32;
    assert_eq!(all_cards, u32::from(CARDS));
    // The cities are exactly the regions the walls enclose, with nothing left inside them.
    let mut seen = 0u64;
    for city in &state.cities {
        assert_eq!(city.fields & seen, 0, "cities are disjoint");
        seen |= city.fields;
        let first = city.fields.trailing_zeros() as u8;
        assert_eq!(reach(state.walls, first), city.fields, "city {}", city.id);
        assert!(
            enclosed(state.walls, city.fields),
            "city {} is walled",
            city.id
        );
        assert_eq!(
            b.lines_inside(city.fields) & state.walls,
            0,
            "no wall inside"
        );
        for v in ids(b.vertices_inside(city.fields)) {
            assert!(state.towers[usize::from(v)].is_none(), "no tower inside");
        }
        for f in ids(city.fields) {
            assert_eq!(
                state.houses[usize::from(f)],
                [0; 5],
                "the city holds the houses"
            );
        }
        for i in 0..5 {
            assert!(
                city.houses[i] < 2 || state.supply.palaces[i] == 0,
                "two houses of a colour become a palace while palaces last"
            );
        }
    }
    // A city closes once the towers and houses of the wall that closed it are placed.
    if !matches!(step(state), Step::PlaceTowers | Step::PlaceHouses) {
        while seen != (1 << FIELDS) - 1 {
            let region = reach(state.walls, (!seen).trailing_zeros() as u8);
            assert!(
                !enclosed(state.walls, region),
                "an enclosed region is a city"
            );
            seen |= region;
        }
    }
    assert!(state.scores.iter().all(|&s| s >= 1), "scores only grow");
}

/// One viewer's view and the whole log as JSON (taking turns step by step, so that every viewer
/// is checked all game long): no other seat's hand, no draw pile's cards.
fn check_hidden_information(state: &State, events: &[MauerbauerEvent], step: usize) {
    let all = viewers(state.players);
    let viewer = all[step % (all.len() - 1)];
    check_judged_view_leaves_out_only_what_all_see_alike(state, &all);
    let view = serde_json::to_value(Mauerbauer::view(state, viewer)).unwrap();
    check_view_hides(state, &view, viewer);
    for event in events {
        let shown =
            serde_json::to_value(Mauerbauer::redact(state, event, viewer).unwrap()).unwrap();
        check_event_hides(state, &shown, viewer);
    }
}

/// Undo's judgement compares the views without the board and the guild cards' texts: they must
/// be all it leaves out, and the same for every viewer.
fn check_judged_view_leaves_out_only_what_all_see_alike(state: &State, all: &[Viewer]) {
    check_judged_view::<Mauerbauer>(
        state,
        all,
        |judged| judged.board.vertices.is_empty() && judged.guild_cards.is_empty(),
        |judged, everyone| MauerbauerView {
            board: everyone.board.clone(),
            guild_cards: everyone.guild_cards.clone(),
            ..judged
        },
    );
}

fn sees(state: &State, viewer: Viewer, seat: u64) -> bool {
    state.ended.is_some() || viewer == Viewer::Everyone || viewer == Viewer::Seat(seat as Seat)
}

fn check_view_hides(state: &State, view: &Value, viewer: Viewer) {
    for p in view["players"].as_array().unwrap() {
        let seat = p["seat"].as_u64().unwrap();
        assert_eq!(
            p["hand"].is_array(),
            sees(state, viewer, seat),
            "{viewer:?} and the hand of {seat}: {p}"
        );
        assert_eq!(
            p["hand_count"].as_u64().unwrap(),
            u64::from(state.hand(seat as Seat).total())
        );
    }
    let everyone = state.ended.is_some() || viewer == Viewer::Everyone;
    assert_eq!(view["draw_pile_cards"].is_array(), everyone, "{viewer:?}");
}

/// The same rule as `check_view_hides` on the view itself (no JSON), cheap enough for every
/// step of thousands of games.
fn check_view_struct_hides(state: &State, viewer: Viewer) {
    let view = Mauerbauer::view(state, viewer);
    for p in &view.players {
        assert_eq!(
            p.hand.is_some(),
            sees(state, viewer, u64::from(p.seat)),
            "{viewer:?}"
        );
    }
    let everyone = state.ended.is_some() || viewer == Viewer::Everyone;
    assert_eq!(view.draw_pile_cards.is_some(), everyone, "{viewer:?}");
}

fn check_event_hides(state: &State, event: &Value, viewer: Viewer) {
    if event["type"] == "GuildCardsDrawn" {
        let seat = event["seat"].as_u64().unwrap();
        assert_eq!(
            event["cards"].is_array(),
            sees(state, viewer, seat),
            "{viewer:?}: {event}"
        );
    }
}

/// Commands to probe decide with: every listed one and many that are not.
fn probes(state: &State) -> Vec<MauerbauerCommand> {
    let b = board();
    let mut probes: Vec<MauerbauerCommand> = vec![
        KeepCitiesApart {}.into(),
        FinishCardSwap {}.into(),
        PassFinalScoring {}.into(),
        LayGuildCards { cards: vec![] }.into(),
    ];
    probes.extend((0..=78).map(|line| BuildWall { line }.into()));
    if let Some(line) = state.built {
        let l = &b.lines[usize::from(line)];
        probes.extend(placements::<TowerColour>(&l.vertices).into_iter().map(|p| {
            let towers = p
                .into_iter()
                .map(|(vertex, colour)| TowerPlacement { vertex, colour })
                .collect();
            PlaceTowers { towers }.into()
        }));
        let sides: Vec<u8> = l.fields.iter().copied().chain([44]).collect();
        probes.extend(placements::<HouseColour>(&sides).into_iter().map(|p| {
            let houses = p
                .into_iter()
                .map(|(field, colour)| HousePlacement { field, colour })
                .collect();
            PlaceHouses { houses }.into()
        }));
    }
    for city in 0..=state.next_city {
        probes.push(ChooseFinalCity { city }.into());
        for with in 0..=state.next_city {
            probes.push(JoinCities { city, with }.into());
        }
    }
    for card in GuildCard::ALL {
        probes.push(DiscardGuildCard { card }.into());
        probes.push(SwapOutGuildCard { card }.into());
        probes.push(LayGuildCards { cards: vec![card] }.into());
        probes.push(
            LayGuildCards {
                cards: vec![card, card],
            }
            .into(),
        );
    }
    for seat in 0..state.players {
        let kinds: Vec<GuildCard> = state.hand(seat).kinds().collect();
        for &x in &kinds {
            for &y in &kinds {
                probes.push(LayGuildCards { cards: vec![x, y] }.into());
                probes.push(
                    LayGuildCards {
                        cards: vec![x, y, x],
                    }
                    .into(),
                );
            }
        }
    }
    probes
}

/// Pieces on `spots` to probe with: none, one of any colour on any spot, and two of any
/// colours on the first two spots in either order.
fn placements<C: Colour>(spots: &[u8]) -> Vec<Vec<(u8, C)>> {
    let mut found = vec![vec![]];
    for &x in C::ALL {
        found.extend(spots.iter().map(|&spot| vec![(spot, x)]));
        for &y in C::ALL {
            found.push(vec![(spots[0], x), (spots[1], y)]);
            found.push(vec![(spots[1], y), (spots[0], x)]);
        }
    }
    found
}

/// decide accepts a command exactly when legal_commands lists it; the default is listed.
fn check_exactly_legal_accepted(state: &State) {
    let probes = probes(state);
    for seat in 0..state.players {
        let legal = Mauerbauer::legal_commands(state, seat);
        for command in legal.iter().chain(&probes) {
            let accepted = Mauerbauer::decide(state, seat, command, &mut Ctx::new(1, 0)).is_ok();
            assert_eq!(
                accepted,
                legal.contains(command),
                "seat {seat}: {command:?}"
            );
        }
    }
}

fn check_default_command(state: &State) {
    let acting = Mauerbauer::status(state).to_act;
    for seat in 0..state.players {
        let default = Mauerbauer::default_command(state, seat);
        if acting.contains(&seat) {
            let default = default.expect("a seat that must act has a default");
            assert!(Mauerbauer::legal_commands(state, seat).contains(&default));
        } else {
            assert_eq!(default, None, "seat {seat} has nothing to do");
        }
    }
}

#[derive(Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
enum Checks {
    /// Conservation and the views' secrets at every step, the default command.
    Views,
    /// Also the whole log at every step, replay every 20th step.
    Deep,
    /// Also: decide accepts exactly the listed commands, at every step.
    Sweep,
}

/// Plays one game; the number of commands and the kinds of event that happened.
fn play(seed: u64, seats: u8, checks: Checks) -> (usize, BTreeSet<&'static str>) {
    let mut n = 0;
    let game = random_game::<Mauerbauer>(
        &MauerbauerOptions {},
        seats,
        seed,
        MAX_MOVES,
        |state, events| {
            check_conservation(state);
            check_default_command(state);
            let all = viewers(state.players);
            let viewer = all[n % (all.len() - 1)];
            if checks == Checks::Views {
                check_view_struct_hides(state, viewer);
                if n % 25 == 0 {
                    let view = serde_json::to_value(Mauerbauer::view(state, viewer)).unwrap();
                    check_view_hides(state, &view, viewer);
                }
            } else {
                check_hidden_information(state, events, n);
                if n % 20 == 0 {
                    let mut replayed = Mauerbauer::initial();
                    for event in events {
                        Mauerbauer::evolve(&mut replayed, event);
                    }
                    assert_eq!(&replayed, state, "replay(events) == state");
                }
            }
            if checks == Checks::Sweep {
                check_exactly_legal_accepted(state);
            }
            n += 1;
        },
    );
    assert!(game.status.finished, "seed {seed}: the game ends");
    let ended = game.state.ended.as_ref().unwrap();
    assert_eq!(Some(ended.scores.clone()), game.status.scores);
    assert!(!ended.winners.is_empty());
    assert_eq!(step(&game.state), Step::Finished);
    match ended.reason {
        EndReason::LastWall => assert!(game.state.end == Some(EndReason::LastWall)),
        EndReason::NoFreeLine => assert_eq!(game.state.city_fields(), (1 << FIELDS) - 1),
        _ => {}
    }
    // Once the game has ended, every viewer sees everything.
    for viewer in viewers(seats) {
        let view = Mauerbauer::view(&game.state, viewer);
        assert!(view.players.iter().all(|p| p.hand.is_some()));
    }
    (game.moves, game.events.iter().map(|e| e.tag()).collect())
}

#[test]
fn many_random_games_end_and_conserve_pieces_and_cards() {
    let mut longest = 0;
    let mut happened = BTreeSet::new();
    for seed in 0..2000u64 {
        let (moves, tags) = play(seed, 2 + (seed % 3) as u8, Checks::Views);
        longest = longest.max(moves);
        happened.extend(tags);
    }
    assert!(longest < MAX_MOVES);
    // Random play reaches every rule: each event happens in some game.
    let never: Vec<&str> = MauerbauerEvent::TAGS
        .iter()
        .filter(|tag| !happened.contains(*tag))
        .copied()
        .collect();
    assert!(never.is_empty(), "never happened: {never:?}");
}

#[test]
fn random_games_hide_hands_and_the_draw_pile_in_views_logs_and_replays() {
    for seed in 0..30u64 {
        play(10_000 + seed, 2 + (seed % 3) as u8, Checks::Deep);
    }
}

#[test]
fn random_games_accept_exactly_the_listed_commands() {
    for seed in 0..6u64 {
        play(20_000 + seed, 2 + (seed % 3) as u8, Checks::Sweep);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn any_seed_plays_a_whole_game(seed in any::<u64>(), seats in 2u8..=4) {
        play(seed, seats, Checks::Deep);
    }
}
