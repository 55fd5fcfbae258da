//! Ratings per kind (Glicko-2), beside the games: never an event, never in a chain. A rated
//! game's ratings are updated by the very statement that finishes it (see `append.rs`), so a
//! finished rated game and its rating changes are committed together or not at all.

pub mod glicko2;
mod places;
mod profile;

pub use glicko2::{Outcome, Rating};
pub use places::places;
pub use profile::{
    KindRecord, LeaderboardEntry, PlayerProfile, RatingShown, RecentGame, RecentSeat,
};

use baumeister_domain::Status;
use deadpool_postgres::GenericClient;
use serde_json::{json, Value};

use crate::error::Result;

/// The fewest rated games an account needs to be listed on a kind's leaderboard.
pub const LEADERBOARD_MIN_GAMES: i32 = 1;

/// The new ratings of the players of one finished game, in seat order. Every pair of seats is a
/// game of the rating period (the higher place wins, equal places draw), weighted
/// `1 / (players − 1)`: a game counts as one game's worth of evidence for each player, whatever
/// the number of opponents, so a five-player game moves a rating about as much as a two-player
/// game against an opponent of the field's strength. Each player is rated on everybody's
/// ratings before the game.
pub fn rate_game(before: &[Rating], places: &[u32]) -> Vec<Rating> {
    let n = before.len();
    let weight = 1.0 / (n.max(2) - 1) as f64;
    (0..n)
        .map(|i| {
            let outcomes: Vec<Outcome> = (0..n)
                .filter(|&j| j != i)
                .map(|j| Outcome {
                    opponent: before[j],
                    score: match places[i].cmp(&places[j]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    },
                    weight,
                })
                .collect();
            glicko2::rate(before[i], &outcomes, glicko2::TAU)
        })
        .collect()
}

/// The players of a game about to be finished, with their ratings now, as one statement reads
/// them (the `ratings` rows' `games` count is the guard: `rate_game` in the database refuses the
/// append when a rating moved meanwhile, and the command is decided again).
const PLAYERS: &str = "SELECT g.rated AND f.imported IS NULL AS rated, s.seat, s.account_id,
       r.rating, r.deviation, r.volatility, coalesce(r.games, 0)
FROM games g JOIN seats s ON s.game_id = g.id
LEFT JOIN game_fairness f ON f.game_id = g.id
LEFT JOIN ratings r ON r.kind = g.kind AND r.account_id = s.account_id
WHERE g.id = $1 ORDER BY s.seat";

/// Whether a game is rated, given its flag and who sits where: rated unless created with
/// `rated: false`, imported, with fewer than two seats, or with one account in two seats.
pub fn is_rated(flag: bool, accounts: &[i64]) -> bool {
    let mut distinct = accounts.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    flag && accounts.len() >= 2 && distinct.len() == accounts.len()
}

/// The rating changes a finishing append writes (the argument of the database's `rate_game`),
/// or `None` when the game is unrated. One read, on finishing appends only.
pub(crate) async fn changes(
    client: &impl GenericClient,
    game_id: i64,
    status: &Status,
) -> Result<Option<Value>> {
    let statement = client.prepare_cached(PLAYERS).await?;
    let rows = client.query(&statement, &[&game_id]).await?;
    let flag = rows
        .first()
        .is_some_and(|r| r.get::<_, Option<bool>>(0) == Some(true));
    let accounts: Vec<i64> = rows.iter().map(|r| r.get(2)).collect();
    if !is_rated(flag, &accounts) {
        return Ok(None);
    }
    let before: Vec<Rating> = rows
        .iter()
        .map(|r| match r.get::<_, Option<f64>>(3) {
            Some(rating) => Rating {
                rating,
                deviation: r.get(4),
                volatility: r.get(5),
            },
            None => Rating::NEW,
        })
        .collect();
    let places = places(status, rows.len());
    let after = rate_game(&before, &places);
    let changes: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            json!({
                "account_id": accounts[i],
                "seat": row.get::<_, i16>(1),
                "place": places[i],
                "games": row.get::<_, i32>(6),
                "rating_before": before[i].rating,
                "deviation_before": before[i].deviation,
                "volatility_before": before[i].volatility,
                "rating": after[i].rating,
                "deviation": after[i].deviation,
                "volatility": after[i].volatility,
            })
        })
        .collect();
    Ok(Some(Value::Array(changes)))
}

#[cfg(test)]
mod tests {
    use super::{is_rated, rate_game, Rating};

    #[test]
    fn a_five_player_game_moves_a_rating_about_as_much_as_a_two_player_game() {
        let two = rate_game(&[Rating::NEW; 2], &[1, 2]);
        let five = rate_game(&[Rating::NEW; 5], &[1, 2, 3, 4, 5]);
        let gain = |r: &Rating| r.rating - 1500.0;
        assert!(gain(&two[0]) > 100.0, "{two:?}");
        assert!((gain(&five[0]) - gain(&two[0])).abs() < 1e-6, "{five:?}");
        assert!((gain(&five[4]) - gain(&two[1])).abs() < 1e-6);
        assert!(
            gain(&five[2]).abs() < 1e-6,
            "the middle place drew on balance"
        );
        let draw = rate_game(&[Rating::NEW; 2], &[1, 1]);
        assert!((draw[0].rating - 1500.0).abs() < 1e-9);
        assert!(draw[0].deviation < 350.0, "a draw is evidence too");
    }

    #[test]
    fn unrated_are_flagged_games_one_seat_and_one_account_in_two_seats() {
        assert!(is_rated(true, &[1, 2]));
        assert!(!is_rated(false, &[1, 2]));
        assert!(!is_rated(true, &[1]));
        assert!(!is_rated(true, &[]), "an imported game has nobody seated");
        assert!(!is_rated(true, &[1, 2, 1]));
    }
}
