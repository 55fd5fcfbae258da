//! The strong level: single-observer information-set Monte Carlo tree search. Each iteration
//! guesses the hidden cards anew (consistently with the bot's seat's view), walks the one tree
//! of moves down as far as it knows them in that guess, adds a move, plays on at random for a
//! few moves, evaluates, and credits each move on the way to the seat that made it. The command
//! tried most often at the root is sent.
//!
//! The root's commands are first judged one step ahead, as the greedy level judges them (a few
//! guesses each): the search opens them best first, adds the next only as the root's visits
//! grow (progressive widening: a long list, such as Carcassonne's placements, is not spread
//! thin over every command at once), and its judgement counts in each command's score, fading
//! as the command's own visits grow (progressive bias). So the search starts from greedy's
//! choice and leaves it only for a command its look further ahead finds better.

use std::time::Instant;

use serde_json::Value;

use super::budget::Budget;
use super::error::BotError;
use super::evaluate::rewards;
use super::input::BotInput;
use super::rules::{BotRules, Guesses};
use super::simulate::{apply, next_actor, playout, typed};
use crate::contract::Seat;
use crate::dynamic::GameState;
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

/// Exploration weight in UCB1 (rewards lie in 0..=1).
const EXPLORATION: f64 = 0.7;
/// Guesses each root command is judged in, one step ahead.
const PRIOR_GUESSES: usize = 3;
/// Root commands open from the start; one more each time the root's visits pass the square of
/// the open count (2, 3, 4... children at 4, 9, 16... visits, on top of these).
const FIRST_OPEN: usize = 3;

struct Node {
    /// The seat that made the move into this node, and the move (`None` at the root).
    seat: Seat,
    command: Option<TypedCommand>,
    visits: u32,
    /// The sum of the rewards of `seat` over the visits.
    reward: f64,
    /// How often this node's move was available when its parent was visited.
    available: u32,
    /// The root's commands: their one-step judgement (0..=1) times the kind's prior weight; 0
    /// elsewhere.
    prior: f64,
    children: Vec<usize>,
}

impl Node {
    fn new(seat: Seat, command: Option<TypedCommand>, prior: f64) -> Node {
        Node {
            seat,
            command,
            visits: 0,
            reward: 0.0,
            available: 0,
            prior,
            children: Vec::new(),
        }
    }
}

/// A root command with its one-step judgement, in the order the search opens them.
type Judged = (f64, Value, TypedCommand);

pub fn choose(
    rules: &dyn BotRules,
    input: &BotInput,
    budget: Budget,
    rng: &mut GameRng,
) -> Result<Value, BotError> {
    let started = Instant::now();
    let mut guesses = rules.guesser(input)?;
    let first = guesses(rng)?;
    let root = match root_commands(rules, input, &first) {
        Root::Decided(command) => return Ok(command),
        Root::Weigh(root) => root,
    };
    let order = judge_one_step(rules, input, root, &first, &mut guesses, rng)?;
    let mut tree = vec![Node::new(input.seat, None, 0.0)];
    let mut opened = 0usize;
    let mut first = Some(first);
    for iteration in 0..budget.iterations {
        if let Some(limit) = budget.max_millis {
            // Checked every few iterations: reading the clock is not free either.
            if iteration % rules.clock_every() == 0 && started.elapsed().as_millis() as u64 >= limit
            {
                break;
            }
        }
        widen(&mut tree, &order, &mut opened, input.seat);
        tree[0].visits += 1;
        let mut state = match first.take() {
            Some(state) => state,
            None => guesses(rng)?,
        };
        let path = descend(rules, &mut tree, &mut state, input.seat, rng);
        playout(rules, &mut state, rng, rules.playout_moves());
        let rewards = rewards(rules, &state);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
            node.reward += rewards.get(node.seat as usize).copied().unwrap_or(0.0);
        }
    }
    Ok(order[most_tried(&tree)].1.clone())
}

/// What the root offers: one command needs no search.
enum Root {
    Decided(Value),
    Weigh(Vec<(Value, TypedCommand)>),
}

/// The root's commands: the seat's own, thinned as the kind thins them (from any guess: what is
/// worth weighing depends only on what the seat sees).
fn root_commands(rules: &dyn BotRules, input: &BotInput, first: &GameState) -> Root {
    let mut root: Vec<Value> = rules
        .candidates(first, input.seat, input.moves.clone())
        .into_iter()
        .filter(|m| input.moves.contains(m))
        .collect();
    if root.is_empty() {
        root = input.moves.clone();
    }
    let mut root = rules.keep_moving(input, first, root);
    if root.len() == 1 {
        return Root::Decided(root.remove(0));
    }
    let root = typed(rules.game(), root);
    if root.is_empty() {
        return Root::Decided(input.moves[0].clone());
    }
    Root::Weigh(root)
}

/// Judges each root command one step ahead in a few guesses, and orders them best first. Each
/// keeps its JSON: the command sent is the one the input listed.
fn judge_one_step(
    rules: &dyn BotRules,
    input: &BotInput,
    root: Vec<(Value, TypedCommand)>,
    first: &GameState,
    guesses: &mut Guesses<'_>,
    rng: &mut GameRng,
) -> Result<Vec<Judged>, BotError> {
    let game = rules.game();
    let mut judged = vec![(0.0, 0u32); root.len()];
    let seat = usize::from(input.seat);
    for g in 0..PRIOR_GUESSES {
        let guess = if g == 0 { first.clone() } else { guesses(rng)? };
        for (i, (_, command)) in root.iter().enumerate() {
            let mut state = guess.clone();
            if apply(game, &mut state, input.seat, command, rng).is_ok() {
                judged[i].0 += rewards(rules, &state)[seat];
                judged[i].1 += 1;
            }
        }
    }
    let mut order: Vec<Judged> = judged
        .iter()
        .zip(root)
        .map(|(&(total, n), (json, command))| {
            let judged = if n == 0 { 0.0 } else { total / f64::from(n) };
            (rules.prior_weight() * judged, json, command)
        })
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(order)
}

/// Progressive widening at the root: opens the next commands of `order` as the root's visits
/// grow.
fn widen(tree: &mut Vec<Node>, order: &[Judged], opened: &mut usize, seat: Seat) {
    let want = (FIRST_OPEN + (f64::from(tree[0].visits)).sqrt() as usize).min(order.len());
    while *opened < want {
        let (prior, _, command) = &order[*opened];
        tree.push(Node::new(seat, Some(command.clone()), *prior));
        let child = tree.len() - 1;
        tree[0].children.push(child);
        *opened += 1;
    }
}

/// One walk down the tree in one guess: the root's child by biased UCB1, then every seat's
/// moves as the guess has them, adding the first untried move met. Returns the path walked.
fn descend(
    rules: &dyn BotRules,
    tree: &mut Vec<Node>,
    state: &mut GameState,
    seat: Seat,
    rng: &mut GameRng,
) -> Vec<usize> {
    let game = rules.game();
    // The root: the seat's own real commands, all of them legal in every guess.
    let children = tree[0].children.clone();
    for &child in &children {
        tree[child].available += 1;
    }
    let child = best(tree, &children, true);
    let mut path = vec![child];
    let command = tree[child].command.clone().expect("below the root");
    let mut node = child;
    if apply(game, state, seat, &command, rng).is_err() {
        return path;
    }
    while tree[node].visits > 0 {
        let Some(seat) = next_actor(game, state, rng) else {
            break;
        };
        let moves = rules.moves(state, seat);
        if moves.is_empty() {
            break;
        }
        let child = step(tree, node, seat, &moves, rng);
        let command = tree[child].command.clone().expect("below the root");
        if apply(game, state, seat, &command, rng).is_err() {
            break;
        }
        path.push(child);
        node = child;
    }
    path
}

/// Below the root, the child of `node` for `seat` among `moves`: an untried move (added to the
/// tree) while there is one, else the best known by UCB1.
fn step(
    tree: &mut Vec<Node>,
    node: usize,
    seat: Seat,
    moves: &[TypedCommand],
    rng: &mut GameRng,
) -> usize {
    let mut known = Vec::new();
    for &child in &tree[node].children {
        let c = &tree[child];
        if c.seat == seat && c.command.as_ref().is_some_and(|m| moves.contains(m)) {
            known.push(child);
        }
    }
    for &child in &known {
        tree[child].available += 1;
    }
    let untried: Vec<usize> = (0..moves.len())
        .filter(|&i| {
            !known
                .iter()
                .any(|&c| tree[c].command.as_ref() == Some(&moves[i]))
        })
        .collect();
    if untried.is_empty() {
        return best(tree, &known, false);
    }
    let pick = untried[rng.index(untried.len())];
    tree.push(Node::new(seat, Some(moves[pick].clone()), 0.0));
    let child = tree.len() - 1;
    tree[node].children.push(child);
    child
}

/// The root child tried most often (ties by score). The root's children were opened in
/// `order`'s order: the k-th is `order[k]`.
fn most_tried(tree: &[Node]) -> usize {
    tree[0]
        .children
        .iter()
        .enumerate()
        .max_by(|&(_, &a), &(_, &b)| {
            let (a, b) = (&tree[a], &tree[b]);
            a.visits
                .cmp(&b.visits)
                .then_with(|| score(a).total_cmp(&score(b)))
        })
        .map_or(0, |(k, _)| k)
}

/// The child to descend into: the best by UCB1, with the one-step judgement's bias when
/// `biased` (at the root).
fn best(tree: &[Node], children: &[usize], biased: bool) -> usize {
    // Of equals the first (`max_by` keeps the last): the root's children open best first.
    *children
        .iter()
        .rev()
        .max_by(|&&a, &&b| ucb(&tree[a], biased).total_cmp(&ucb(&tree[b], biased)))
        .expect("a visited node has children")
}

fn mean(node: &Node) -> f64 {
    if node.visits == 0 {
        0.0
    } else {
        node.reward / f64::from(node.visits)
    }
}

/// The mean reward with the fading bias of the one-step judgement (already weighted).
fn score(node: &Node) -> f64 {
    mean(node) + node.prior / f64::from(node.visits + 1)
}

fn ucb(node: &Node, biased: bool) -> f64 {
    if node.visits == 0 && !biased {
        return f64::INFINITY;
    }
    let explore = EXPLORATION
        * ((f64::from(node.available.max(1))).ln() / f64::from(node.visits.max(1))).sqrt();
    if biased {
        score(node) + explore
    } else {
        mean(node) + explore
    }
}
