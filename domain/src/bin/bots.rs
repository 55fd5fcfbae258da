//! How strong the bots are: each level plays each other level in every kind, in process (no
//! server: the games' rules and the bots alone), and the first-place rates are printed with
//! 95 % Wilson intervals, with the think time per move of each level (mean and 99th percentile,
//! the level under test and its opponents) and the moves the level under test made per game.
//!
//! `cargo run --release -p baumeister-domain --bin bots [-- OPTIONS]`
//!
//! - `--kinds=burgbaumeister,wettstreit,…` (default: every kind)
//! - `--games=N` games per pairing (default 200)
//! - `--millis=M` the strong bot's think budget per move in milliseconds (default 1000, as
//!   the server gives it)
//! - `--iterations=I` its search iterations per move at most (default as the server: 2000)
//! - `--threads=T` games played at once (default 2)
//! - `--pairs=strong:random,strong:greedy,…` the pairings, level under test first (default
//!   every ordered pair of different levels)
//!
//! A pairing's games seat one bot of the level under test and the other level in every other
//! seat, two seats where the kind allows, else its minimum; the tested seat goes round the
//! table from game to game. A shared first place counts as a first place. A game still running
//! after 3 000 commands counts as not won (it is reported). Each game's outcome is also written
//! to stderr as it ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use baumeister_domain::bots::{choose, BotInput, Budget, Level};
use baumeister_domain::contract::{Ctx, Seat};
use baumeister_domain::registry;
use baumeister_domain::rng::GameRng;
use serde_json::Value;

/// Commands after which a game counts as never ending.
const MAX_COMMANDS: usize = 3_000;

struct Options {
    kinds: Vec<String>,
    games: usize,
    budget: Budget,
    threads: usize,
    pairs: Vec<(Level, Level)>,
}

fn options() -> Options {
    let mut o = Options {
        kinds: registry::all()
            .iter()
            .map(|g| g.kind().to_string())
            .collect(),
        games: 200,
        budget: Budget::default(),
        threads: 2,
        pairs: Level::ALL
            .into_iter()
            .flat_map(|a| Level::ALL.into_iter().map(move |b| (a, b)))
            .filter(|(a, b)| a != b)
            .collect(),
    };
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').unwrap_or((&arg, ""));
        let number = || -> usize {
            value
                .parse()
                .unwrap_or_else(|_| panic!("{key} wants a number, not `{value}`"))
        };
        match key {
            "--kinds" => o.kinds = value.split(',').map(str::to_string).collect(),
            "--games" => o.games = number(),
            "--millis" => o.budget.max_millis = Some(number() as u64),
            "--iterations" => o.budget.iterations = number() as u32,
            "--threads" => o.threads = number().max(1),
            "--pairs" => {
                o.pairs = value
                    .split(',')
                    .map(|pair| {
                        let (a, b) = pair.split_once(':').expect("a pair is LEVEL:LEVEL");
                        let level = |n: &str| Level::from_name(n).expect("a level's name");
                        (level(a), level(b))
                    })
                    .collect()
            }
            _ => panic!("unknown option {arg} (see the source's first comment)"),
        }
    }
    for kind in &o.kinds {
        assert!(registry::find(kind).is_some(), "no kind {kind}");
    }
    o
}

/// One game's outcome for the level under test.
struct Outcome {
    first: bool,
    ended: bool,
    /// Think time per move, by level.
    thinking: Vec<(Level, Duration)>,
}

fn play(
    kind: &str,
    seats: u8,
    tested: Seat,
    levels: (Level, Level),
    budget: Budget,
    seed: u64,
) -> Outcome {
    let game = registry::find(kind).expect("checked");
    let options = game
        .validate_options(&Value::Null, seats)
        .expect("default options");
    let mut ctx = Ctx::new(seed, 0);
    let mut events = game.setup(&options, seats, &mut ctx).expect("set-up");
    let mut state = game.replay(&events).expect("set-up folds");
    let mut rng = GameRng::from_seed(seed ^ 0x5eed);
    let mut thinking = Vec::new();
    for step in 0..MAX_COMMANDS {
        let status = game.status(&state);
        if status.finished {
            return Outcome {
                first: status.winners.contains(&tested),
                ended: true,
                thinking,
            };
        }
        // Several seats may act at once (Space Builder): who is heard first is a draw.
        let seat = status.to_act[rng.index(status.to_act.len())];
        let level = if seat == tested { levels.0 } else { levels.1 };
        let input = BotInput::observe(game, &state, &events, seat);
        let started = Instant::now();
        let command = choose(&input, level, budget, &mut rng).expect("a bot chooses");
        thinking.push((level, started.elapsed()));
        let decided = game
            .decide(
                &state,
                seat,
                &command,
                &mut Ctx::new(seed.wrapping_add(step as u64 + 1), 0),
            )
            .expect("a bot's command is legal");
        for event in decided {
            game.evolve(&mut state, &event).expect("events fold");
            events.push(event);
        }
    }
    Outcome {
        first: false,
        ended: false,
        thinking,
    }
}

/// The 95 % Wilson score interval of `wins` in `n`.
fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, p) = (1.96_f64, n as f64, wins as f64 / n as f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let o = options();
    print_header(&o);
    for kind in &o.kinds {
        let info = registry::find(kind).expect("checked").info();
        let seats = info.min_seats.max(2).min(info.max_seats);
        for &levels in &o.pairs {
            let results = play_pairing(&o, kind, seats, levels);
            print_pairing(kind, seats, levels, &results);
        }
    }
}

/// The run's settings, with the machine's load when it began (think times on a shared machine
/// mean little without it), and the table's head.
fn print_header(o: &Options) {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into());
    println!(
        "bots: {} games per pairing, strong budget {} iterations / {} ms a move, {} threads, load average {load} at the start",
        o.games,
        o.budget.iterations,
        o.budget
            .max_millis
            .map_or("no limit".into(), |m| m.to_string()),
        o.threads
    );
    println!(
        "{:<15} {:>5} {:>8} {:>8} {:>6} {:>6} {:>17} {:>5} {:>10} {:>10} {:>10} {:>10} {:>6}",
        "kind",
        "seats",
        "level",
        "against",
        "games",
        "first",
        "rate [95 % CI]",
        "fair",
        "mean ms",
        "p99 ms",
        "opp mean",
        "opp p99",
        "moves"
    );
}

/// A pairing's games of `kind`, played on the option's threads; each game's outcome is written
/// to stderr as it ends.
fn play_pairing(o: &Options, kind: &str, seats: u8, levels: (Level, Level)) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..o.threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= o.games {
                    return;
                }
                let tested = (g % usize::from(seats)) as Seat;
                let outcome = play(kind, seats, tested, levels, o.budget, 1_000 + g as u64);
                report_game(kind, levels, g, &outcome);
                results.lock().expect("no thread panics").push(outcome);
            });
        }
    });
    results.into_inner().expect("no thread panicked")
}

/// One line a game on stderr: a long run can be read (or cut short) before its pairing's
/// summary.
fn report_game(kind: &str, levels: (Level, Level), g: usize, outcome: &Outcome) {
    let own: Vec<f64> = outcome
        .thinking
        .iter()
        .filter(|(l, _)| *l == levels.0)
        .map(|(_, d)| millis(*d))
        .collect();
    eprintln!(
        "{kind} {}:{} game {g}: {}, {} moves, think ms mean {:.1} max {:.1}",
        levels.0.name(),
        levels.1.name(),
        if outcome.first { "first" } else { "not first" },
        own.len(),
        own.iter().sum::<f64>() / own.len().max(1) as f64,
        own.iter().copied().fold(0.0, f64::max)
    );
}

/// The mean and 99th percentile think time per move of `level` in `results`, in milliseconds.
fn think_times(results: &[Outcome], level: Level) -> (f64, f64) {
    let mut t: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.thinking.iter())
        .filter(|(l, _)| *l == level)
        .map(|(_, d)| *d)
        .collect();
    if t.is_empty() {
        return (0.0, 0.0);
    }
    t.sort();
    let mean = t.iter().map(|d| millis(*d)).sum::<f64>() / t.len() as f64;
    let p99 = millis(t[(t.len() * 99 / 100).min(t.len() - 1)]);
    (mean, p99)
}

/// A pairing's line of the table.
fn print_pairing(kind: &str, seats: u8, levels: (Level, Level), results: &[Outcome]) {
    let firsts = results.iter().filter(|r| r.first).count();
    let unended = results.iter().filter(|r| !r.ended).count();
    let (low, high) = wilson(firsts, results.len());
    let (mean, p99) = think_times(results, levels.0);
    let (opp_mean, opp_p99) = think_times(results, levels.1);
    // Moves the level under test made per game: what a time budget multiplies.
    let moves = results
        .iter()
        .flat_map(|r| r.thinking.iter())
        .filter(|(l, _)| *l == levels.0)
        .count() as f64
        / results.len().max(1) as f64;
    println!(
        "{:<15} {:>5} {:>8} {:>8} {:>6} {:>6} {:>5.1}% [{:>4.1}, {:>5.1}] {:>4.0}% {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>6.1}{}",
        kind,
        seats,
        levels.0.name(),
        levels.1.name(),
        results.len(),
        firsts,
        100.0 * firsts as f64 / results.len().max(1) as f64,
        100.0 * low,
        100.0 * high,
        100.0 / f64::from(seats),
        mean,
        p99,
        opp_mean,
        opp_p99,
        moves,
        if unended > 0 {
            format!("  ({unended} never ended)")
        } else {
            String::new()
        }
    );
}
