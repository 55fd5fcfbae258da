//! Whole games by random play: every game ends, cards are conserved, secrets are kept.

use super::*;
use crate::rng::GameRng;
use crate::testing::random_game;
use proptest::prelude::*;

/// Events counted so far, for conservation.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Tally {
    released: usize,
    checked: usize,
}

impl Tally {
    fn add(&mut self, new: &[E]) {
        for e in new {
            match e {
                E::BuildingCardReleased(_) => self.released += 1,
                E::CitiesChecked(_) => self.checked += 1,
                _ => {}
            }
        }
    }
}

/// What must hold after every step: cards are conserved, and no viewer sees a city or a
/// blueprint the rules hide (in the view, and in the events `new` as redacted).
fn check(state: &State, tally: &Tally, new: &[E]) {
    let held: usize = state.players.iter().map(|p| p.hand.len() - 4).sum();
    assert_eq!(
        held, tally.released,
        "a released card is in exactly one hand"
    );
    let won: u32 = state.players.iter().map(|p| p.rounds_won).sum();
    assert_eq!(won as usize, tally.checked);
    for p in &state.players {
        assert!(p.hand.starts_with(&[1, 2, 3, 4]) && p.hand.windows(2).all(|w| w[0] < w[1]));
        assert!(p.hand.iter().all(|c| (1..=8).contains(c)));
        let mut cards: Vec<Card> = p.city.iter().map(|c| c.card).collect();
        let mut slots: Vec<Slot> = p.city.iter().map(|c| c.slot).collect();
        assert!(
            cards.iter().all(|c| p.hand.contains(c)),
            "only hand cards on the board"
        );
        cards.sort_unstable();
        cards.dedup();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(cards.len(), p.city.len());
        assert_eq!(slots.len(), p.city.len());
        assert!(slots.iter().all(|s| *s < 9));
    }
    let building = state.phase == Phase::Building;
    for viewer in viewers(state.players.len() as u8) {
        let view = SpaceBuilder::view(state, viewer);
        for (i, p) in view.players.iter().enumerate() {
            let own = viewer == Viewer::Seat(i as Seat) || viewer == Viewer::Everyone;
            assert_eq!(
                p.city.is_some(),
                own || !building,
                "city of {i} to {viewer:?}"
            );
            assert_eq!(usize::from(p.placed), state.players[i].city.len());
        }
        let may_see_plan = match viewer {
            _ if state.timing == Timing::Arrival || !building => true,
            Viewer::Everyone => true,
            Viewer::Seat(s) => state.players[usize::from(s)].looked_at_ms.is_some(),
            Viewer::Spectator => false,
        };
        assert_eq!(view.blueprint.is_some(), may_see_plan);
        for event in new {
            let shown = SpaceBuilder::redact(state, event, viewer).unwrap();
            let secret_of = match event {
                E::BuildingCardPlaced(e) => Some((
                    e.seat,
                    matches!(&shown, E::BuildingCardPlaced(s) if s.placement.is_none()),
                )),
                E::BuildingCardMoved(e) => Some((
                    e.seat,
                    matches!(&shown, E::BuildingCardMoved(s) if s.placement.is_none() && s.from_slot.is_none()),
                )),
                E::BuildingCardTakenBack(e) => Some((
                    e.seat,
                    matches!(&shown, E::BuildingCardTakenBack(s) if s.card.is_none() && s.slot.is_none()),
                )),
                E::BlueprintLookedAt(e) => Some((
                    e.seat,
                    matches!(&shown, E::BlueprintLookedAt(s) if s.blueprint.is_none()),
                )),
                E::BlueprintRevealed(_) => {
                    assert_eq!(
                        matches!(&shown, E::BlueprintRevealed(s) if s.blueprint.is_some()),
                        may_see_plan
                    );
                    None
                }
                _ => {
                    assert_eq!(&shown, event);
                    None
                }
            };
            if let Some((seat, hidden)) = secret_of {
                let own = viewer == Viewer::Seat(seat) || viewer == Viewer::Everyone;
                assert_eq!(hidden, building && !own, "{event:?} to {viewer:?}");
            }
        }
    }
}

/// Any command, legal or not, drawn from small ranges (to check that decide refuses exactly
/// what legal_commands does not list).
fn any_command(rng: &mut GameRng) -> SpaceBuilderCommand {
    let card = rng.below(10) as u8;
    let slot = rng.below(10) as u8;
    let face = if rng.below(2) == 0 { A } else { B };
    let rotation = rng.below(5) as u8;
    match rng.below(7) {
        0 => LookAtBlueprint {}.into(),
        6 => StopBuilding {}.into(),
        1 => PlaceBuildingCard {
            card,
            slot,
            face,
            rotation,
        }
        .into(),
        2 => MoveBuildingCard {
            card,
            slot,
            face,
            rotation,
        }
        .into(),
        3 => TakeBackBuildingCard { card }.into(),
        4 => DeclareCityFinished {}.into(),
        _ => ReleaseBuildingCard { card }.into(),
    }
}

/// Plays a whole game: players act in random interleaving, mostly placing and finishing (as
/// players do) but sometimes any legal command; time runs on by random steps so that
/// deadlines pass. Returns the number of rounds.
pub fn play(seed: u64, players: u8, options: &SpaceBuilderOptions) -> u32 {
    let mut rng = GameRng::from_seed(seed);
    let mut now: i64 = 1_700_000_000_000;
    let mut events = SpaceBuilder::setup(options, players, &mut Ctx::new(seed, now)).unwrap();
    let mut state = state_of(&events);
    let mut tally = Tally::default();
    check(&state, &tally, &events);
    for step in 0..100_000 {
        let status = SpaceBuilder::status(&state);
        if status.finished {
            assert_eq!(status.winners.len(), 1);
            assert!((0..players).all(|s| SpaceBuilder::legal_commands(&state, s).is_empty()));
            let winner = usize::from(status.winners[0]);
            assert_eq!(state.players[winner].hand.len(), 8);
            assert_eq!(state_of(&events), state, "replay(events) == state");
            return state.round;
        }
        let new = if SpaceBuilder::deadline(&state).is_some_and(|d| now >= d) {
            let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(rng.next_u64(), now));
            assert!(!out.is_empty(), "a passed deadline ends the round");
            out
        } else {
            assert!(!status.to_act.is_empty());
            let seat = status.to_act[rng.index(status.to_act.len())];
            let legal = SpaceBuilder::legal_commands(&state, seat);
            assert!(!legal.is_empty(), "seat {seat} must act but has no command");
            if step % 7 == 0 {
                // Decide accepts exactly what is listed: probe the acting seat, and any seat
                // (finished, stopped, not the round's winner...) now and then.
                let probe_seat = if step % 3 == 0 {
                    rng.below(u64::from(players)) as Seat
                } else {
                    seat
                };
                let listed = if probe_seat == seat {
                    legal.clone()
                } else {
                    SpaceBuilder::legal_commands(&state, probe_seat)
                };
                let probe = if rng.below(2) == 0 && !listed.is_empty() {
                    listed[rng.index(listed.len())].clone()
                } else {
                    any_command(&mut rng)
                };
                let outcome =
                    SpaceBuilder::decide(&state, probe_seat, &probe, &mut Ctx::new(0, now));
                assert_eq!(
                    outcome.is_ok(),
                    listed.contains(&probe),
                    "{probe:?} by {probe_seat}: {outcome:?}"
                );
            }
            let finish = SpaceBuilderCommand::from(DeclareCityFinished {});
            let places: Vec<&SpaceBuilderCommand> = legal
                .iter()
                .filter(|c| matches!(c, SpaceBuilderCommand::PlaceBuildingCard(_)))
                .collect();
            let command = if legal.contains(&finish) && rng.below(4) != 0 {
                finish
            } else if !places.is_empty() && rng.below(5) != 0 {
                places[rng.index(places.len())].clone()
            } else {
                legal[rng.index(legal.len())].clone()
            };
            SpaceBuilder::decide(&state, seat, &command, &mut Ctx::new(rng.next_u64(), now))
                .unwrap_or_else(|e| panic!("listed {command:?} refused: {e:?}"))
        };
        for e in &new {
            let json = serde_json::to_value(e).unwrap();
            assert_eq!(&serde_json::from_value::<E>(json).unwrap(), e);
            apply(&mut state, e);
        }
        tally.add(&new);
        check(&state, &tally, &new);
        events.extend(new);
        now += rng.below(20_000) as i64;
    }
    panic!("the game did not end");
}

fn options(elapsed: bool, deadline: Option<u32>) -> SpaceBuilderOptions {
    SpaceBuilderOptions {
        timing: if elapsed {
            Timing::Elapsed
        } else {
            Timing::Arrival
        },
        deadline_minutes: deadline,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_legal_games_end_conserve_cards_and_keep_secrets(
        seed in any::<u64>(),
        players in 2u8..=4,
        elapsed in any::<bool>(),
        deadline in proptest::option::of(1u32..=3),
    ) {
        play(seed, players, &options(elapsed, deadline));
    }
}

/// Plays the games of `seeds` to the end: 2, 3 and 4 players, both timings, some with a
/// one-minute deadline (which passes often: the driver's clock runs up to 20 s a move).
fn play_seeds(seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let players = 2 + (seed % 3) as u8;
        let deadline = (seed % 5 == 0).then_some(1);
        let rounds = play(seed, players, &options(seed % 2 == 1, deadline));
        assert!(
            rounds >= 5,
            "a game lasts at least 5 rounds: 4 releases, then a win with 8"
        );
    }
}

// Two halves, so that the test harness runs them on both cores.
#[test]
fn random_games_end_first_half() {
    play_seeds(0..1000);
}

#[test]
fn random_games_end_second_half() {
    play_seeds(1000..2000);
}

#[test]
fn the_shared_random_player_finds_every_listed_command_accepted() {
    // Uniform choice among hundreds of moves rarely finishes a city, so these games are
    // bounded; the full games are played above.
    for seed in 0..6 {
        let opts = options(seed % 2 == 0, None);
        let (mut seen, mut tally) = (0, Tally::default());
        let game =
            random_game::<SpaceBuilder>(&opts, 2 + (seed % 3) as u8, seed, 300, |state, events| {
                let new = &events[seen..];
                tally.add(new);
                check(state, &tally, new);
                seen = events.len();
            });
        assert!(game.moves > 0);
    }
}

/// The bound on a whole game's commands when every player picks uniformly among their listed
/// commands (about 290 while building, so a city is rarely finished: rounds mostly end because
/// players stop building). Measured over 1,000 games per timing, 2–4 players: the longest took
/// 10,301 commands in `arrival` timing and 5,716 in `elapsed` (means 4,374 and 2,253).
const UNIFORM_BOUND: usize = 25_000;

#[test]
fn uniformly_random_play_ends_every_game_within_the_bound() {
    for elapsed in [false, true] {
        for seed in 0..40u64 {
            let game = random_game::<SpaceBuilder>(
                &options(elapsed, None),
                2 + (seed % 3) as u8,
                seed,
                UNIFORM_BOUND,
                |_, _| {},
            );
            assert!(
                game.status.finished,
                "seed {seed} (elapsed: {elapsed}) did not end in {UNIFORM_BOUND} commands"
            );
        }
    }
}
