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
use super::rules::BotRules;
use super::simulate::{apply, next_actor, playout, typed};
use crate::contract::Seat;
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

pub fn choose(
    rules: &dyn BotRules,
    input: &BotInput,
    budget: Budget,
    rng: &mut GameRng,
) -> Result<Value, BotError> {
    let game = rules.game();
    let started = Instant::now();
    let mut guesses = rules.guesser(input)?;
    // The root's commands: the seat's own, thinned as the kind thins them (from any guess: what
    // is worth weighing depends only on what the seat sees).
    let first = guesses(rng)?;
    let mut root: Vec<Value> = rules
        .candidates(&first, input.seat, input.moves.clone())
        .into_iter()
        .filter(|m| input.moves.contains(m))
        .collect();
    if root.is_empty() {
        root = input.moves.clone();
    }
    let mut root = rules.keep_moving(input, &first, root);
    if root.len() == 1 {
        return Ok(root.remove(0));
    }
    let root = typed(game, root);
    if root.is_empty() {
        return Ok(input.moves[0].clone());
    }
    // One step ahead, best first.
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
    // Each with its JSON: the command sent is the one the input listed.
    let mut order: Vec<(f64, Value, TypedCommand)> = judged
        .iter()
        .zip(root)
        .map(|(&(total, n), (json, command))| {
            let judged = if n == 0 { 0.0 } else { total / f64::from(n) };
            (rules.prior_weight() * judged, json, command)
        })
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
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
        // Progressive widening at the root.
        let want = (FIRST_OPEN + (f64::from(tree[0].visits)).sqrt() as usize).min(order.len());
        while opened < want {
            let (prior, _, command) = &order[opened];
            tree.push(Node::new(input.seat, Some(command.clone()), *prior));
            let child = tree.len() - 1;
            tree[0].children.push(child);
            opened += 1;
        }
        tree[0].visits += 1;
        let mut state = match first.take() {
            Some(state) => state,
            None => guesses(rng)?,
        };
        // The root: the seat's own real commands, all of them legal in every guess.
        let children = tree[0].children.clone();
        for &child in &children {
            tree[child].available += 1;
        }
        let child = best(&tree, &children, true);
        let mut path = vec![child];
        let command = tree[child].command.clone().expect("below the root");
        let mut node = child;
        if apply(game, &mut state, input.seat, &command, rng).is_ok() {
            // Below the root: every seat's moves as the guess has them.
            while tree[node].visits > 0 {
                let Some(seat) = next_actor(game, &state, rng) else {
                    break;
                };
                let moves = rules.moves(&state, seat);
                if moves.is_empty() {
                    break;
                }
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
                let child = if untried.is_empty() {
                    best(&tree, &known, false)
                } else {
                    let pick = untried[rng.index(untried.len())];
                    tree.push(Node::new(seat, Some(moves[pick].clone()), 0.0));
                    let child = tree.len() - 1;
                    tree[node].children.push(child);
                    child
                };
                let command = tree[child].command.clone().expect("below the root");
                if apply(game, &mut state, seat, &command, rng).is_err() {
                    break;
                }
                path.push(child);
                node = child;
            }
        }
        playout(rules, &mut state, rng, rules.playout_moves());
        let rewards = rewards(rules, &state);
        for &n in &path {
            let node = &mut tree[n];
            node.visits += 1;
            node.reward += rewards.get(node.seat as usize).copied().unwrap_or(0.0);
        }
    }
    // The root's children were opened in `order`'s order: the k-th is `order[k]`.
    let chosen = tree[0]
        .children
        .iter()
        .enumerate()
        .max_by(|&(_, &a), &(_, &b)| {
            let (a, b) = (&tree[a], &tree[b]);
            a.visits
                .cmp(&b.visits)
                .then_with(|| score(a).total_cmp(&score(b)))
        })
        .map_or(0, |(k, _)| k);
    Ok(order[chosen].1.clone())
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
