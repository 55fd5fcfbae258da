//! Bots choose legal commands, finish games, and see only what their seat sees.

use serde_json::{json, Value};

use super::*;
use crate::contract::{Ctx, Seat, Viewer};
use crate::dynamic::{DynGame, GameState};
use crate::registry;

mod burgbaumeister;
mod space_builder;
mod typed;
mod wettstreit;

/// A small budget: the tests must be reproducible (no clock) and quick.
pub(super) const TEST_BUDGET: Budget = Budget {
    iterations: 60,
    max_millis: None,
};

/// A game of `kind` after its set-up and the commands `commands` (each with its own seed).
pub(super) struct Played {
    pub(super) game: &'static dyn DynGame,
    pub(super) state: GameState,
    pub(super) events: Vec<Value>,
}

impl Played {
    pub(super) fn set_up(kind: &str, seats: u8, options: Value, seed: u64) -> Played {
        let game = registry::find(kind).unwrap();
        let options = game.validate_options(&options, seats).unwrap();
        let events = game.setup(&options, seats, &mut Ctx::new(seed, 0)).unwrap();
        let state = game.replay(&events).unwrap();
        Played {
            game,
            state,
            events,
        }
    }

    pub(super) fn play(&mut self, seat: Seat, command: &Value, seed: u64) {
        let events = self
            .game
            .decide(&self.state, seat, command, &mut Ctx::new(seed, 0))
            .unwrap_or_else(|e| panic!("{command} refused: {e}"));
        for event in events {
            self.game.evolve(&mut self.state, &event).unwrap();
            self.events.push(event);
        }
    }

    pub(super) fn to_act(&self) -> Option<Seat> {
        self.game.status(&self.state).to_act.first().copied()
    }

    pub(super) fn input(&self, seat: Seat) -> BotInput {
        BotInput::observe(self.game, &self.state, &self.events, seat)
    }
}

/// No peeking, at one position: `a` and `b` differ only in what `seat` may not see. The seat's
/// inputs must be byte-identical, and so every level's choice (with the same `seed`) alike.
pub(super) fn assert_blind(a: &Played, b: &Played, seat: Seat, seed: u64) {
    let (input_a, input_b) = (a.input(seat), b.input(seat));
    assert_eq!(
        serde_json::to_vec(&input_a).unwrap(),
        serde_json::to_vec(&input_b).unwrap(),
        "the seat's inputs are byte-identical"
    );
    for level in Level::ALL {
        let choice = |input: &BotInput| {
            choose(input, level, TEST_BUDGET, &mut GameRng::from_seed(seed)).unwrap()
        };
        assert_eq!(choice(&input_a), choice(&input_b), "{level:?}");
    }
}

/// Plays a game of `kind` to its end: the seats in `bots` by a bot of their level, the others
/// at random. Returns the number of commands played.
pub(super) fn play_out(
    kind: &str,
    seats: u8,
    bots: &[(Seat, Level)],
    seed: u64,
    max_moves: usize,
) -> usize {
    play_out_with(kind, seats, Value::Null, bots, seed, max_moves)
}

/// [`play_out`] with the game's options.
pub(super) fn play_out_with(
    kind: &str,
    seats: u8,
    options: Value,
    bots: &[(Seat, Level)],
    seed: u64,
    max_moves: usize,
) -> usize {
    let mut game = Played::set_up(kind, seats, options, seed);
    let mut rng = GameRng::from_seed(seed ^ 0xb07);
    for moves in 0..max_moves {
        let Some(seat) = game.to_act() else {
            assert!(game.game.status(&game.state).finished, "{kind}: stuck");
            return moves;
        };
        let level = bots
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(Level::Random, |(_, l)| *l);
        let input = game.input(seat);
        let command = choose(&input, level, TEST_BUDGET, &mut rng).unwrap();
        assert!(
            input.moves.contains(&command),
            "{kind}: {command} not legal"
        );
        game.play(seat, &command, seed.wrapping_add(moves as u64));
    }
    panic!("{kind}: no end after {max_moves} commands");
}

#[test]
fn bots_of_every_level_finish_games_of_every_kind_against_random_players() {
    for game in registry::all() {
        let kind = game.kind();
        let seats = game.info().min_seats.max(2);
        let bots: Vec<(Seat, Level)> = [(0, Level::Greedy), (1, Level::Strong)]
            .into_iter()
            .filter(|&(_, level)| supports(kind, level))
            .collect();
        play_out(kind, seats, &bots, 7, 5_000);
    }
}

/// Games with no person at the table end, whatever levels sit at it: every pair of levels, two
/// seats and the most seats, in every kind (Burgbaumeister's variant too). Bots that each
/// judged waiting best once kept a Burgbaumeister game going for ever, every seat turning up a
/// card and returning it.
#[test]
fn games_between_bots_of_any_levels_end_within_a_bound() {
    const BOUND: usize = 3_000;
    for game in registry::all() {
        let kind = game.kind();
        let info = game.info();
        let mut tables = vec![info.min_seats.max(2), info.max_seats];
        tables.dedup();
        let mut options = vec![Value::Null];
        if kind == "burgbaumeister" {
            options.push(json!({"variant": true}));
        }
        for (i, (a, b)) in [
            (Level::Greedy, Level::Greedy),
            (Level::Greedy, Level::Strong),
            (Level::Strong, Level::Strong),
            (Level::Random, Level::Greedy),
        ]
        .into_iter()
        .enumerate()
        {
            for &seats in &tables {
                for options in &options {
                    let bots: Vec<(Seat, Level)> = (0..seats)
                        .map(|s| (s, if s % 2 == 0 { a } else { b }))
                        .collect();
                    let seed = 40 + i as u64 + u64::from(seats);
                    play_out_with(kind, seats, options.clone(), &bots, seed, BOUND);
                }
            }
        }
    }
}

/// A search's quick guesses (the log folded once) are guesses as [`BotRules::determinize`]
/// makes them: the same game for the same randomness where a kind deals the same way, and in
/// every kind a game in which the seat sees just what it sees and the hidden cards are the
/// hidden cards, differently laid out from guess to guess.
#[test]
fn quick_guesses_are_the_guesses_determinize_makes() {
    for game in registry::all() {
        let kind = game.kind();
        let info = game.info();
        let rules = registry::bot_rules(kind).unwrap();
        let mut played = Played::set_up(
            kind,
            3.clamp(info.min_seats, info.max_seats),
            Value::Null,
            11,
        );
        let mut pick = GameRng::from_seed(11);
        for step in 0..40 {
            let Some(seat) = played.to_act() else { break };
            let moves = game.legal_commands(&played.state, seat);
            played.play(seat, &moves[pick.index(moves.len())].clone(), 500 + step);
        }
        let seat = played
            .to_act()
            .expect("40 random commands do not end a game");
        let input = played.input(seat);
        let mut guesses = rules.guesser(&input).unwrap();
        let mut layouts = Vec::new();
        for i in 0..4 {
            let quick = guesses(&mut GameRng::from_seed(i)).unwrap();
            assert_eq!(game.view(&quick, Viewer::Seat(seat)), input.view, "{kind}");
            assert_eq!(game.legal_commands(&quick, seat), input.moves, "{kind}");
            if kind == "burgbaumeister" {
                let face_down = |state: &GameState| {
                    let mut cards: Vec<u64> = game.view(state, Viewer::Everyone)["store"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|s| s["state"] == "face_down")
                        .map(|s| s["card"].as_u64().unwrap())
                        .collect();
                    cards.sort();
                    cards
                };
                assert_eq!(face_down(&quick), face_down(&played.state));
                layouts.push(game.view(&quick, Viewer::Everyone)["store"].clone());
            } else {
                let slow = rules
                    .determinize(&input, &mut GameRng::from_seed(i))
                    .unwrap();
                assert!(game.same_state(&quick, &slow), "{kind}");
            }
        }
        if let Some(first) = layouts.first() {
            assert!(
                layouts.iter().any(|l| l != first),
                "the store's guesses differ"
            );
        }
    }
}

#[test]
fn every_level_plays_every_kind_and_sends_a_legal_command() {
    for game in registry::all() {
        let kind = game.kind();
        for level in Level::ALL {
            assert!(supports(kind, level), "{kind} {level:?}");
        }
        let game = Played::set_up(kind, game.info().min_seats.max(2), Value::Null, 2);
        let Some(seat) = game.to_act() else { continue };
        let input = game.input(seat);
        for level in Level::ALL {
            let chosen = choose(&input, level, TEST_BUDGET, &mut GameRng::from_seed(1)).unwrap();
            assert!(input.moves.contains(&chosen), "{kind} {level:?}");
        }
    }
    assert!(!supports("chess", Level::Random));
    assert!(!supports("chess", Level::Strong));
}

#[test]
fn a_bot_sends_only_legal_commands_and_refuses_when_it_has_none() {
    let game = Played::set_up("burgbaumeister", 2, Value::Null, 3);
    let seat = game.to_act().unwrap();
    let idle = 1 - seat;
    for level in Level::ALL {
        let input = game.input(idle);
        assert!(input.moves.is_empty());
        assert_eq!(
            choose(&input, level, TEST_BUDGET, &mut GameRng::from_seed(1)),
            Err(BotError::NothingToDo)
        );
    }
}

#[test]
fn levels_are_named_as_the_api_names_them() {
    for level in Level::ALL {
        assert_eq!(Level::from_name(level.name()), Some(level));
        assert_eq!(serde_json::to_value(level).unwrap(), json!(level.name()));
    }
    assert_eq!(Level::from_name("grandmaster"), None);
}

// ---- Burgbaumeister --------------------------------------------------------------------------

/// A game of Burgbaumeister after `moves` random commands, and the same game with the store's
/// face-down cards that nobody has seen yet laid out differently: the two differ only in what no
/// seat may see.
fn burgbaumeister_twins(seed: u64, moves: usize) -> (Played, Played) {
    burgbaumeister_twins_with(json!({"variant": true}), seed, moves)
}

/// [`burgbaumeister_twins`] with the game's `options`.
pub(super) fn burgbaumeister_twins_with(
    options: Value,
    seed: u64,
    moves: usize,
) -> (Played, Played) {
    let mut a = Played::set_up("burgbaumeister", 3, options, seed);
    let mut pick = GameRng::from_seed(seed);
    let mut commands = Vec::new();
    for step in 0..moves {
        let Some(seat) = a.to_act() else { break };
        let moves = a.game.legal_commands(&a.state, seat);
        let command = moves[pick.index(moves.len())].clone();
        a.play(seat, &command, step as u64);
        commands.push((seat, command));
    }
    let seen: Vec<u64> = a
        .events
        .iter()
        .filter(|e| e["type"] == "CardTurnedUp")
        .map(|e| e["slot"].as_u64().unwrap())
        .collect();
    let mut events = a.events[..2].to_vec();
    let laid_out = events[1]["cards"].as_array().unwrap().clone();
    let hidden: Vec<usize> = (0..laid_out.len())
        .filter(|s| !seen.contains(&(*s as u64)))
        .collect();
    assert!(hidden.len() > 2, "the test needs unseen cards");
    let mut cards = laid_out.clone();
    // Rotate the unseen cards by one slot: every one of them moves.
    for (i, &slot) in hidden.iter().enumerate() {
        cards[slot] = laid_out[hidden[(i + 1) % hidden.len()]].clone();
    }
    events[1]["cards"] = Value::Array(cards);
    let mut b = Played {
        game: a.game,
        state: a.game.replay(&events).unwrap(),
        events,
    };
    for (step, (seat, command)) in commands.iter().enumerate() {
        b.play(*seat, command, step as u64);
    }
    assert_ne!(
        a.game.view(&a.state, Viewer::Everyone),
        b.game.view(&b.state, Viewer::Everyone),
        "the twins differ in their hidden cards"
    );
    (a, b)
}

#[test]
fn burgbaumeister_bots_cannot_peek_at_face_down_cards() {
    for seed in 0..4 {
        let (a, b) = burgbaumeister_twins(seed, 20);
        let Some(seat) = a.to_act() else { continue };
        assert_blind(&a, &b, seat, seed);
    }
}

#[test]
fn burgbaumeister_guesses_agree_with_the_seat_and_keep_the_cards() {
    let rules = registry::bot_rules("burgbaumeister").unwrap();
    for seed in 0..4 {
        let (a, _) = burgbaumeister_twins(seed, 25);
        for seat in 0..3 {
            let input = a.input(seat);
            let mut rng = GameRng::from_seed(seed);
            let guesses: Vec<GameState> = (0..5)
                .map(|_| rules.determinize(&input, &mut rng).unwrap())
                .collect();
            for guess in &guesses {
                // Everything the seat sees is as it sees it...
                assert_eq!(a.game.view(guess, Viewer::Seat(seat)), input.view);
                assert_eq!(a.game.legal_commands(guess, seat), input.moves);
                // ...and the store holds the same number of face-down cards, every card once.
                let all = a.game.view(guess, Viewer::Everyone);
                let truth = a.game.view(&a.state, Viewer::Everyone);
                let face_down = |v: &Value| {
                    let mut cards: Vec<u64> = v["store"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|s| s["state"] == "face_down")
                        .map(|s| s["card"].as_u64().unwrap())
                        .collect();
                    cards.sort();
                    cards
                };
                assert_eq!(face_down(&all), face_down(&truth));
            }
            // The guesses are guesses: they do not all lay the store out alike.
            let layouts: Vec<Value> = guesses
                .iter()
                .map(|g| a.game.view(g, Viewer::Everyone)["store"].clone())
                .collect();
            assert!(layouts.iter().any(|l| *l != layouts[0]));
        }
    }
}

#[test]
fn burgbaumeister_values_a_longer_wall_and_room_to_grow() {
    use crate::games::burgbaumeister::{BurgbaumeisterEvent, CardAddedToWall};
    let rules = registry::bot_rules("burgbaumeister").unwrap();
    let game = Played::set_up("burgbaumeister", 2, Value::Null, 1);
    let with_wall = |cards: &[u8]| {
        let mut state = game.state.clone();
        for (position, &card) in cards.iter().enumerate() {
            let event = serde_json::to_value(BurgbaumeisterEvent::from(CardAddedToWall {
                seat: 0,
                card,
                position: position as u8,
                by_wizard: false,
            }))
            .unwrap();
            game.game.evolve(&mut state, &event).unwrap();
        }
        rules.evaluate(&state, 0)
    };
    assert!(with_wall(&[3, 5]) > with_wall(&[3]), "one card more");
    assert!(with_wall(&[3, 5]) > with_wall(&[40, 45]), "room to grow");
}

#[test]
fn burgbaumeister_counts_the_cards_above_a_wall_that_are_still_in_the_store() {
    use crate::games::burgbaumeister::{BurgbaumeisterEvent, CardAddedToWall};
    let rules = registry::bot_rules("burgbaumeister").unwrap();
    let game = Played::set_up("burgbaumeister", 2, Value::Null, 1);
    let walls = |mine: &[u8], theirs: &[u8]| {
        let mut state = game.state.clone();
        for (seat, cards) in [(0, mine), (1, theirs)] {
            for (position, &card) in cards.iter().enumerate() {
                let event = serde_json::to_value(BurgbaumeisterEvent::from(CardAddedToWall {
                    seat,
                    card,
                    position: position as u8,
                    by_wizard: false,
                }))
                .unwrap();
                game.game.evolve(&mut state, &event).unwrap();
            }
        }
        rules.evaluate(&state, 0)
    };
    // The same wall of 30, 31: with the cards above it in the store, or most of them in the
    // other wall (out of its reach).
    assert!(
        walls(&[30, 31], &[2, 3]) > walls(&[30, 31], &[32, 34, 36, 38, 40, 42, 44, 46]),
        "the cards the wall could take are gone"
    );
    // A card just above the last costs nothing; one far above costs the cards it jumps.
    assert!(walls(&[5, 6], &[]) > walls(&[5], &[]));
    assert!(walls(&[5, 40], &[]) < walls(&[5], &[]));
}

// ---- Carcassonne -----------------------------------------------------------------------------

#[test]
fn carcassonne_has_no_secret_so_a_guess_is_the_game() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 5);
    let mut pick = GameRng::from_seed(5);
    for step in 0..30 {
        let seat = game.to_act().unwrap();
        let moves = game.game.legal_commands(&game.state, seat);
        game.play(seat, &moves[pick.index(moves.len())].clone(), step);
    }
    let seat = game.to_act().unwrap();
    let guess = rules
        .determinize(&game.input(seat), &mut GameRng::from_seed(0))
        .unwrap();
    assert!(game.game.same_state(&guess, &game.state));
}

/// The strong level starts from greedy's judgement: given a single iteration, it sends a
/// command greedy judges as good as its own choice (Carcassonne has no secret, so the two judge
/// the same positions; several placements often score alike), and with more it may leave that
/// choice only for one its search finds better.
#[test]
fn a_guided_search_starts_from_the_greedy_choice() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 8);
    let judge = |game: &Played, seat: Seat, command: &Value| {
        let mut state = game.state.clone();
        simulate::apply(
            game.game,
            &mut state,
            seat,
            &game.game.read_typed(command).unwrap(),
            &mut GameRng::from_seed(0),
        )
        .unwrap();
        evaluate::rewards(rules, &state)[usize::from(seat)]
    };
    let mut pick = GameRng::from_seed(8);
    let one = Budget {
        iterations: 1,
        max_millis: None,
    };
    let mut compared = 0;
    for step in 0..24 {
        let seat = game.to_act().unwrap();
        let input = game.input(seat);
        if step % 3 == 0 && input.moves.len() > 3 {
            let greedy = choose(&input, Level::Greedy, one, &mut GameRng::from_seed(step)).unwrap();
            let strong = choose(&input, Level::Strong, one, &mut GameRng::from_seed(step)).unwrap();
            let (strong, greedy) = (judge(&game, seat, &strong), judge(&game, seat, &greedy));
            assert!(
                (strong - greedy).abs() < 1e-9,
                "step {step}: {strong} < {greedy}"
            );
            compared += 1;
        }
        let moves = game.game.legal_commands(&game.state, seat);
        game.play(seat, &moves[pick.index(moves.len())].clone(), step);
    }
    assert!(compared >= 4, "compared only {compared}");
}

/// A playout's greedy move is the one whose next position the evaluation likes best for the
/// seat (Carcassonne: no secret, and a placement's value does not hang on the next tile).
#[test]
fn a_greedy_playout_move_is_the_best_judged_one() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 3);
    let mut pick = GameRng::from_seed(3);
    let mut compared = 0;
    for step in 0..30 {
        let seat = game.to_act().unwrap();
        let moves = rules.moves(&game.state, seat);
        if moves.len() > 2 {
            let judged: Vec<f64> = moves
                .iter()
                .map(|m| {
                    let mut state = game.state.clone();
                    simulate::apply(game.game, &mut state, seat, m, &mut GameRng::from_seed(0))
                        .unwrap();
                    evaluate::rewards(rules, &state)[usize::from(seat)]
                })
                .collect();
            let best = simulate::best_next(
                rules,
                &game.state,
                seat,
                &moves,
                &mut GameRng::from_seed(step),
            );
            let top = judged.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(judged[best], top, "step {step}: {:?}", moves[best]);
            compared += 1;
        }
        let moves = game.game.legal_commands(&game.state, seat);
        game.play(seat, &moves[pick.index(moves.len())].clone(), step);
    }
    assert!(compared > 10, "only {compared} positions compared");
}

#[test]
fn carcassonne_counts_unfinished_features_and_followers_at_home() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let game = Played::set_up("carcassonne", 2, Value::Null, 5);
    let start = rules.evaluate(&game.state, 0);
    assert_eq!(
        start,
        7.0 * 1.5,
        "nothing scored yet; seven followers at home"
    );
}

// ---- Mauerbauer ------------------------------------------------------------------------------

/// A game of Mauerbauer for three after `moves` random commands (observed by the seat `seat`
/// to act next), and the same game in which another seat holds one card less of a kind it drew
/// at the start and kept, and one more of a kind still in the draw pile (the draw pile the
/// other way round): the two differ only in what `seat` may not see.
fn mauerbauer_twins(seed: u64, moves: usize) -> Option<(Played, Played, Seat)> {
    use crate::games::mauerbauer::State;
    let mut a = Played::set_up("mauerbauer", 3, Value::Null, seed);
    let mut pick = GameRng::from_seed(seed);
    for step in 0..moves {
        let Some(seat) = a.to_act() else { break };
        let moves = a.game.legal_commands(&a.state, seat);
        let command = moves[pick.index(moves.len())].clone();
        a.play(seat, &command, 1_000 + step as u64);
    }
    let seat = a.to_act()?;
    let other = (seat + 1) % 3;
    let truth = a.state.downcast::<State>().unwrap();
    let held = truth.hand(other).to_vec();
    let pile = truth.draw_pile.to_vec();
    let mut events = a.events.clone();
    let first_draw = events
        .iter_mut()
        .find(|e| e["type"] == "GuildCardsDrawn" && e["seat"] == other)
        .unwrap();
    let drawn = first_draw["cards"].as_array_mut().unwrap();
    let kept = held
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| drawn.contains(c))?;
    let fresh = pile
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| *c != kept)?;
    let at = drawn.iter().position(|c| *c == kept).unwrap();
    drawn[at] = fresh;
    let b = Played {
        game: a.game,
        state: a.game.replay(&events).unwrap(),
        events,
    };
    assert_ne!(
        a.game.view(&a.state, Viewer::Everyone),
        b.game.view(&b.state, Viewer::Everyone),
        "the twins differ in a hand"
    );
    Some((a, b, seat))
}

#[test]
fn mauerbauer_bots_cannot_peek_at_other_hands_or_the_draw_pile() {
    let mut compared = 0;
    for seed in 0..6 {
        for moves in [3, 40] {
            let Some((a, b, seat)) = mauerbauer_twins(seed, moves) else {
                continue;
            };
            assert_blind(&a, &b, seat, seed);
            compared += 1;
        }
    }
    assert!(compared >= 6, "the test compared only {compared} pairs");
}

#[test]
fn mauerbauer_guesses_show_the_seat_its_view_and_deal_the_unseen_cards() {
    use crate::games::mauerbauer::State;
    let rules = registry::bot_rules("mauerbauer").unwrap();
    for seed in 0..4 {
        let mut game = Played::set_up("mauerbauer", 3, Value::Null, seed);
        let mut pick = GameRng::from_seed(seed);
        for step in 0..60 {
            let Some(seat) = game.to_act() else { break };
            let moves = game.game.legal_commands(&game.state, seat);
            game.play(seat, &moves[pick.index(moves.len())].clone(), step);
        }
        let truth = game.state.downcast::<State>().unwrap();
        for seat in 0..3 {
            let input = game.input(seat);
            let mut rng = GameRng::from_seed(seed);
            let guesses: Vec<GameState> = (0..5)
                .map(|_| rules.determinize(&input, &mut rng).unwrap())
                .collect();
            for guess in &guesses {
                assert_eq!(game.game.view(guess, Viewer::Seat(seat)), input.view);
                assert_eq!(game.game.legal_commands(guess, seat), input.moves);
                // Every card is somewhere, once: the hands and the pile hold the deck less the
                // discards, as in the game.
                let g = guess.downcast::<State>().unwrap();
                let unseen = |s: &State| {
                    let mut cards: Vec<_> = (0..3)
                        .filter(|&o| o != seat)
                        .flat_map(|o| s.hand(o).to_vec())
                        .chain(s.draw_pile.to_vec())
                        .collect();
                    cards.sort();
                    cards
                };
                assert_eq!(unseen(g), unseen(truth));
                assert_eq!(g.discard_pile, truth.discard_pile);
            }
            let hands: Vec<_> = guesses
                .iter()
                .map(|g| g.downcast::<State>().unwrap().hands.clone())
                .collect();
            assert!(hands.iter().any(|h| *h != hands[0]), "guesses are guesses");
        }
    }
}

#[test]
fn mauerbauer_values_points_and_cards_in_hand() {
    let rules = registry::bot_rules("mauerbauer").unwrap();
    let game = Played::set_up("mauerbauer", 2, Value::Null, 1);
    let state = game
        .state
        .downcast::<crate::games::mauerbauer::State>()
        .unwrap();
    let expected = state.scores[0] as f64 + 2.0 * f64::from(state.hand(0).total());
    assert_eq!(rules.evaluate(&game.state, 0), expected);
    assert!(state.hand(0).total() > 0, "hands are dealt at the start");
}

#[test]
fn mauerbauer_greedy_and_strong_bots_finish_games_against_random_players() {
    for seed in [11, 12] {
        play_out(
            "mauerbauer",
            3,
            &[(0, Level::Greedy), (1, Level::Strong)],
            seed,
            5_000,
        );
    }
}
