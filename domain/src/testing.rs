//! Helpers for rule tests, shared by every game.
//!
//! Rule tests read *given / when / then*:
//! ```ignore
//! given::<Burgbaumeister>(events).when(0, command).then(expected_events);
//! ```
//! and [`random_game`] plays a whole game by random legal moves for property tests.

use crate::contract::{Ctx, Game, Seat, Status, Viewer};
use crate::rng::GameRng;
use crate::schema::TaggedUnion;

/// The state after `events`, ready for a command.
pub struct Given<G: Game> {
    pub state: G::State,
    seed: u64,
}

pub fn given<G: Game>(events: impl IntoIterator<Item = G::Event>) -> Given<G> {
    let mut state = G::initial();
    for event in events {
        G::evolve(&mut state, &event);
    }
    Given { state, seed: 0 }
}

impl<G: Game> Given<G> {
    /// The seed the command's randomness is drawn from (0 unless set).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    pub fn when(self, seat: Seat, command: impl Into<G::Command>) -> Then<G> {
        let mut ctx = Ctx::new(self.seed, 0);
        let result = G::decide(&self.state, seat, &command.into(), &mut ctx);
        Then {
            state: self.state,
            result,
        }
    }
}

pub struct Then<G: Game> {
    pub state: G::State,
    pub result: Result<Vec<G::Event>, crate::contract::RuleError>,
}

impl<G: Game> Then<G> {
    /// The command is accepted with exactly these events.
    #[track_caller]
    pub fn then(self, expected: impl IntoIterator<Item = G::Event>) -> G::State {
        let expected: Vec<G::Event> = expected.into_iter().collect();
        match self.result {
            Ok(events) => {
                assert_eq!(events, expected, "events differ");
                let mut state = self.state;
                for event in &events {
                    G::evolve(&mut state, event);
                }
                state
            }
            Err(e) => panic!("expected events {expected:?}, got rule error {e:?}"),
        }
    }

    /// The command is refused with this rule's code.
    #[track_caller]
    pub fn then_error(self, code: &str) {
        match self.result {
            Ok(events) => panic!("expected rule error `{code}`, got events {events:?}"),
            Err(e) => assert_eq!(e.code, code, "wrong rule error: {}", e.message),
        }
    }

    /// The command is accepted; the events it produced and the state after them.
    #[track_caller]
    pub fn accepted(self) -> (Vec<G::Event>, G::State) {
        let events = self.result.unwrap_or_else(|e| panic!("refused: {e:?}"));
        let mut state = self.state;
        for event in &events {
            G::evolve(&mut state, event);
        }
        (events, state)
    }
}

/// A whole game played by random legal moves.
pub struct RandomGame<G: Game> {
    pub events: Vec<G::Event>,
    pub state: G::State,
    pub status: Status,
    /// How many commands were played.
    pub moves: usize,
}

/// Plays `seats` players choosing uniformly among their legal commands until the game ends or
/// `max_moves` commands were played. Checks along the way what holds for every game: every
/// listed command is accepted, events survive JSON, evolve never panics, every seat asked to
/// act has a legal command and a turn-clock default among them, and a finished game lists none. `on_step` sees each state after a move
/// (for game-specific invariants such as conservation and hidden information).
pub fn random_game<G: Game>(
    options: &G::Options,
    seats: u8,
    seed: u64,
    max_moves: usize,
    mut on_step: impl FnMut(&G::State, &[G::Event]),
) -> RandomGame<G> {
    let mut picker = GameRng::from_seed(seed ^ 0x5eed);
    let mut ctx = Ctx::new(seed, 0);
    let mut state = G::initial();
    let mut events = G::setup(options, seats, &mut ctx).expect("setup accepts valid options");
    for event in &events {
        G::evolve(&mut state, event);
    }
    on_step(&state, &events);
    let mut moves = 0;
    loop {
        let status = G::status(&state);
        if status.finished {
            assert!(status.to_act.is_empty(), "a finished game waits for nobody");
            for seat in 0..seats {
                assert!(G::legal_commands(&state, seat).is_empty());
            }
            break;
        }
        if moves >= max_moves {
            break;
        }
        assert!(
            !status.to_act.is_empty(),
            "a running game waits for somebody"
        );
        for &waiting in &status.to_act {
            check_default_command::<G>(&state, waiting);
        }
        let seat = status.to_act[picker.index(status.to_act.len())];
        let legal = G::legal_commands(&state, seat);
        assert!(
            !legal.is_empty(),
            "seat {seat} must act but has no legal command"
        );
        let command = legal[picker.index(legal.len())].clone();
        let json = serde_json::to_value(&command).unwrap();
        assert_eq!(json["type"], command.tag());
        let mut ctx = Ctx::new(picker.next_u64(), moves as i64 * 1000);
        let new_events = G::decide(&state, seat, &command, &mut ctx)
            .unwrap_or_else(|e| panic!("listed command {command:?} refused: {e:?}"));
        for event in &new_events {
            let round_trip: G::Event =
                serde_json::from_value(serde_json::to_value(event).unwrap()).unwrap();
            assert_eq!(&round_trip, event, "event changes through JSON");
            G::evolve(&mut state, event);
        }
        events.extend(new_events);
        moves += 1;
        on_step(&state, &events);
    }
    let mut replayed = G::initial();
    for event in &events {
        G::evolve(&mut replayed, event);
    }
    assert_eq!(replayed, state, "replay(events) != state");
    let status = G::status(&state);
    RandomGame {
        events,
        state,
        status,
        moves,
    }
}

/// The turn clock's move for a seat the game waits for is one of the seat's listed commands.
#[track_caller]
pub fn check_default_command<G: Game>(state: &G::State, seat: Seat) {
    let legal = G::legal_commands(state, seat);
    match G::default_command(state, seat) {
        Some(default) => assert!(
            legal.contains(&default),
            "seat {seat}'s default {default:?} is not among its listed commands"
        ),
        None => panic!("seat {seat} must act but has no default command for the turn clock"),
    }
}

/// Every viewer of a game with `seats` seats, the all-seeing one last.
pub fn viewers(seats: u8) -> Vec<Viewer> {
    let mut all: Vec<Viewer> = (0..seats).map(Viewer::Seat).collect();
    all.push(Viewer::Spectator);
    all.push(Viewer::Everyone);
    all
}

/// [`Game::judged_view`]'s contract, checked on one state for every viewer in `all`: the
/// judged view leaves parts out (`left_out` says they are empty in it), and putting back the
/// all-seeing view's parts (`restore`) gives the viewer's view exactly, so what is left out is
/// all that differs and every viewer sees it as everyone does.
pub fn check_judged_view<G: Game>(
    state: &G::State,
    all: &[Viewer],
    left_out: impl Fn(&G::View) -> bool,
    restore: impl Fn(G::View, &G::View) -> G::View,
) where
    G::View: PartialEq + std::fmt::Debug,
{
    let everyone = G::view(state, Viewer::Everyone);
    for viewer in all {
        let judged = G::judged_view(state, *viewer).expect("a judged view");
        assert!(
            left_out(&judged),
            "{viewer:?}: the judged view leaves nothing out"
        );
        assert_eq!(
            restore(judged, &everyone),
            G::view(state, *viewer),
            "{viewer:?}: the judged view with everyone's parts put back is not the view"
        );
    }
}
