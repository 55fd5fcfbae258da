//! The strong level: single-observer information-set Monte Carlo tree search. Each iteration
//! guesses the hidden cards anew (consistently with the bot's seat's view), walks the one tree
//! of moves down as far as it knows them in that guess, adds a move, plays on at random for a
//! while, evaluates, and credits each move on the way to the seat that made it. The command
//! tried most often at the root is sent.

use std::time::Instant;

use serde_json::Value;

use super::evaluate::rewards;
use super::simulate::{apply, next_actor, playout};
use super::{BotError, BotInput, BotRules, Budget};
use crate::contract::Seat;
use crate::rng::GameRng;

/// Random moves after the tree's edge before a position is evaluated: the kinds' evaluations
/// are good enough that a short playout beats a long, noisy one (and costs less).
const PLAYOUT_MOVES: usize = 12;
/// Exploration weight in UCB1 (rewards lie in 0..=1).
const EXPLORATION: f64 = 0.7;

struct Node {
    /// The seat that made the move into this node, and the move.
    seat: Seat,
    command: Value,
    key: String,
    visits: u32,
    /// The sum of the rewards of `seat` over the visits.
    reward: f64,
    /// How often this node's move was available when its parent was visited.
    available: u32,
    children: Vec<usize>,
}

pub fn choose(
    rules: &dyn BotRules,
    input: &BotInput,
    budget: Budget,
    rng: &mut GameRng,
) -> Result<Value, BotError> {
    let game = rules.game();
    let started = Instant::now();
    let mut tree = vec![Node {
        seat: input.seat,
        command: Value::Null,
        key: String::new(),
        visits: 0,
        reward: 0.0,
        available: 0,
        children: Vec::new(),
    }];
    // The root's commands: the seat's own, thinned as the kind thins them (from any guess: what
    // is worth weighing depends only on what the seat sees).
    let mut guesses = rules.guesser(input)?;
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
    let mut first = Some(first);
    for iteration in 0..budget.iterations {
        if let Some(limit) = budget.max_millis {
            // Checked every few iterations: reading the clock is not free either.
            if iteration % 8 == 0 && started.elapsed().as_millis() as u64 >= limit {
                break;
            }
        }
        let mut state = match first.take() {
            Some(state) => state,
            None => guesses(rng)?,
        };
        let mut path = vec![0usize];
        let mut node = 0usize;
        loop {
            // At the root the bot's own seat moves, among its real legal commands.
            let (seat, moves) = if node == 0 {
                (input.seat, root.clone())
            } else {
                let Some(seat) = next_actor(game, &state, rng) else {
                    break;
                };
                (seat, rules.moves(&state, seat))
            };
            if moves.is_empty() {
                break;
            }
            let keys: Vec<String> = moves.iter().map(Value::to_string).collect();
            let mut known = Vec::new();
            for &child in &tree[node].children {
                let c = &tree[child];
                if c.seat == seat && keys.contains(&c.key) {
                    known.push(child);
                }
            }
            for &child in &known {
                tree[child].available += 1;
            }
            let untried: Vec<usize> = (0..moves.len())
                .filter(|&i| !known.iter().any(|&c| tree[c].key == keys[i]))
                .collect();
            if !untried.is_empty() {
                let pick = untried[rng.index(untried.len())];
                if apply(game, &mut state, seat, &moves[pick], rng).is_err() {
                    break;
                }
                tree.push(Node {
                    seat,
                    command: moves[pick].clone(),
                    key: keys[pick].clone(),
                    visits: 0,
                    reward: 0.0,
                    available: 1,
                    children: Vec::new(),
                });
                let child = tree.len() - 1;
                tree[node].children.push(child);
                path.push(child);
                break;
            }
            let child = *known
                .iter()
                .max_by(|&&a, &&b| ucb(&tree[a]).total_cmp(&ucb(&tree[b])))
                .expect("a fully tried node has children");
            let command = tree[child].command.clone();
            if apply(game, &mut state, seat, &command, rng).is_err() {
                break;
            }
            path.push(child);
            node = child;
        }
        playout(rules, &mut state, rng, PLAYOUT_MOVES);
        let rewards = rewards(rules, &state);
        for &n in &path[1..] {
            let node = &mut tree[n];
            node.visits += 1;
            node.reward += rewards.get(node.seat as usize).copied().unwrap_or(0.0);
        }
    }
    let best = tree[0]
        .children
        .iter()
        .copied()
        .max_by(|&a, &b| {
            let (a, b) = (&tree[a], &tree[b]);
            a.visits
                .cmp(&b.visits)
                .then_with(|| mean(a).total_cmp(&mean(b)))
        })
        .map(|n| tree[n].command.clone());
    Ok(best.unwrap_or_else(|| root[0].clone()))
}

fn mean(node: &Node) -> f64 {
    if node.visits == 0 {
        0.0
    } else {
        node.reward / node.visits as f64
    }
}

fn ucb(node: &Node) -> f64 {
    if node.visits == 0 {
        return f64::INFINITY;
    }
    mean(node) + EXPLORATION * ((node.available.max(1) as f64).ln() / node.visits as f64).sqrt()
}
