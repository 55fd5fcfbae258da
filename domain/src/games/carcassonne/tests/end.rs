//! The end of the game: unfinished roads 1 per tile, cities 1 per tile and pennant, cloisters
//! 1 and 1 per neighbour (the mage and the witch included), then the fields, then the ingots
//! by bands; the most points win.

use crate::contract::Game;
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

/// What a `FeatureScored` says: kind, base points, points, figure, seats.
type Scored = (FeatureKind, u32, u32, Option<MagicFigure>, Vec<u8>);

#[test]
fn unfinished_features_fields_and_ingots_score_at_the_end() {
    // City D+M (one pennant, seat 0's knight, the mage), road U–D–U (seat 1's thief, the
    // witch), cloister south of D with 3 neighbours (seat 1's monk); 4 and 10 ingots.
    let table = Table::with(
        2,
        CarcassonneOptions {
            mage_and_witch: true,
            gold_mines: true,
        },
        &[],
    )
    .lay(0, "M", 0, -1, 180)
    .follower(0, 0, -1, 0)
    .lay(1, "U", -1, 0, 0)
    .follower(1, -1, 0, 0)
    .lay(0, "B", 0, 1, 0)
    .follower(1, 0, 1, 1)
    .figure(MagicFigure::Mage, 0, 0, 0)
    .figure(MagicFigure::Witch, 0, 0, 1)
    .ingots(0, 4, at(0, 0))
    .ingots(1, 10, at(0, 0))
    .gold(0, 1, 2)
    .lay(1, "U", 1, 0, 0);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    let mut scored: Vec<Scored> = events
        .iter()
        .filter_map(|e| match e {
            CarcassonneEvent::FeatureScored(s) => {
                assert!(!s.completed);
                Some((
                    s.feature,
                    s.base_points,
                    s.points,
                    s.figure,
                    s.seats.clone(),
                ))
            }
            _ => None,
        })
        .collect();
    scored.sort_by_key(|s| format!("{:?}", s.0));
    assert_eq!(
        scored,
        vec![
            (FeatureKind::City, 3, 5, Some(MagicFigure::Mage), vec![0]),
            (FeatureKind::Cloister, 4, 4, None, vec![1]),
            (FeatureKind::Road, 3, 2, Some(MagicFigure::Witch), vec![1]),
        ]
    );
    let tail: Vec<CarcassonneEvent> = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                CarcassonneEvent::IngotsScored(_) | CarcassonneEvent::CarcassonneGameEnded(_)
            )
        })
        .cloned()
        .collect();
    assert_eq!(
        tail,
        vec![
            IngotsScored {
                seat: 0,
                ingots: 4,
                points: 8
            }
            .into(),
            IngotsScored {
                seat: 1,
                ingots: 10,
                points: 40
            }
            .into(),
            CarcassonneGameEnded {
                scores: vec![13, 46],
                winners: vec![1],
            }
            .into(),
        ],
        "the 2 ingots still on the board score nothing"
    );
    assert_eq!(events.last(), tail.last());
    let status = Carcassonne::status(&state);
    assert!(status.finished);
    assert_eq!(status.scores, Some(vec![13, 46]));
    assert_eq!(status.winners, vec![1]);
    assert!(state.mage.is_some(), "nothing returns at the end");
}

#[test]
fn a_tie_on_points_is_a_shared_victory() {
    // Seat 0's thief on the open road D–U–U (3), seat 2's knight in the open city D+M with a
    // pennant (3); seat 1 has nothing.
    let table = Table::with(3, CarcassonneOptions::default(), &[])
        .follower(0, 0, 0, 1)
        .follower(2, 0, 0, 0)
        .lay(1, "M", 0, -1, 180)
        .lay(1, "U", 1, 0, 0)
        .lay(0, "U", 2, 0, 0);
    let (events, _) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    assert_eq!(
        events.last(),
        Some(
            &CarcassonneGameEnded {
                scores: vec![3, 0, 3],
                winners: vec![0, 2],
            }
            .into()
        )
    );
}
