//! Final places from a game's status, for every kind alike: the winners share first place;
//! below them the other seats are ordered by score when the game keeps score (equal scores
//! share a place), and share the place after the winners when it does not.

use baumeister_domain::Status;

/// Each seat's place (1 is best), in seat order: 1 + the number of seats that beat it.
pub fn places(status: &Status, seats: usize) -> Vec<u32> {
    let won = |s: usize| status.winners.iter().any(|w| usize::from(*w) == s);
    let score = |s: usize| status.scores.as_ref().and_then(|sc| sc.get(s).copied());
    let beats = |a: usize, b: usize| match (won(a), won(b)) {
        (true, false) => true,
        (false, false) => matches!((score(a), score(b)), (Some(x), Some(y)) if x > y),
        _ => false,
    };
    (0..seats)
        .map(|b| 1 + (0..seats).filter(|&a| beats(a, b)).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::places;
    use baumeister_domain::Status;

    fn status(winners: &[u8], scores: Option<Vec<i64>>) -> Status {
        Status {
            finished: true,
            winners: winners.to_vec(),
            scores,
            ..Status::default()
        }
    }

    #[test]
    fn winners_first_then_by_score_with_ties_sharing_a_place() {
        assert_eq!(
            places(&status(&[1], Some(vec![10, 20, 10, 5])), 4),
            [2, 1, 2, 4]
        );
        // A tie-break made seat 0 the winner although seat 2 scored as much.
        assert_eq!(places(&status(&[0], Some(vec![20, 3, 20])), 3), [1, 3, 2]);
        assert_eq!(places(&status(&[0, 2], Some(vec![9, 9, 9])), 3), [1, 3, 1]);
        assert_eq!(places(&status(&[2], None), 3), [2, 2, 1]);
        assert_eq!(places(&status(&[], None), 2), [1, 1]);
    }
}
