//! Scoring: the rulebook's worked checks and each extra's conditions.

use super::*;
use crate::games::wettstreit::score_city;

/// A city's points for its buildings, its three extras (town hall, churches, corner towers) and
/// its total.
fn bonuses_and_total(score: &CityScore) -> (i64, i64, i64, i64, i64) {
    (
        score.buildings,
        score.town_hall_centred,
        score.churches_balanced,
        score.corner_towers_matched,
        score.total,
    )
}

#[test]
fn worked_check_complete_city_with_off_centre_town_hall_scores_46() {
    let city = [LCT2, CH8, TH7, TW3, CH6, TW2, G4, TW2B, G3, RCT2].map(Some);
    let score = score_city(0, &city, &[TW1, G2]);
    assert!(score.complete);
    assert_eq!(
        (
            score.buildings,
            score.town_hall_centred,
            score.churches_balanced,
            score.corner_towers_matched,
            score.hand_penalty
        ),
        (39, 0, 5, 5, -3) // hand: TW1 (1) + G2 (2)
    );
    assert_eq!(score.total, 46);
}

#[test]
fn worked_check_town_hall_in_the_middle_scores_47() {
    let score = score_city(0, &[LCT3, CH7, TH5, CH9, RCT3].map(Some), &[]);
    assert_eq!(score.total, 27 + 10 + 5 + 5);
    assert_eq!(score.total, 47);
}

#[test]
fn worked_check_a_gap_earns_no_extras_34() {
    let city = [
        Some(LCT1),
        Some(CH9),
        Some(TW2),
        Some(G4),
        Some(CH7),
        Some(TH6),
        None,
        Some(G3),
        Some(RCT2),
    ];
    let score = score_city(0, &city, &[]);
    assert!(!score.complete);
    assert_eq!(score.total, 34);
}

#[test]
fn worked_check_a_missing_right_corner_tower_earns_no_extras_30() {
    let city = [LCT2, G3, TW1, G3B, TH7, CH8, TW2, G4, CH6, TW1B].map(Some);
    let score = score_city(0, &city, &[G5, LCT2B]);
    assert!(!score.complete);
    assert_eq!(
        (score.buildings, score.hand_penalty, score.total),
        (37, -7, 30)
    );
}

#[test]
fn only_a_complete_city_earns_extras() {
    // Town hall in the middle (of the 7 slots and of the 5 cards), a church each side, corner
    // towers of equal value: every extra, were it not for the gaps.
    let city = [
        Some(LCT2),
        None,
        Some(CH5),
        Some(TH5),
        Some(CH6),
        None,
        Some(RCT2),
    ];
    let score = score_city(0, &city, &[]);
    assert!(!score.complete);
    assert_eq!(bonuses_and_total(&score), (2 + 5 + 5 + 6 + 2, 0, 0, 0, 20));
    // The same city with its gaps filled earns them all.
    let filled = score_city(0, &[LCT2, G3, CH5, TH5, CH6, G4, RCT2].map(Some), &[]);
    assert!(filled.complete);
    assert_eq!(filled.total, 27 + 10 + 5 + 5);
}

#[test]
fn the_church_bonus_needs_at_least_one_church_a_side() {
    let score = score_city(0, &[LCT2, G3, TH5, G4, RCT2].map(Some), &[]);
    assert!(score.complete);
    assert_eq!(bonuses_and_total(&score), (16, 10, 0, 5, 31));
}

#[test]
fn corner_towers_of_different_values_earn_no_bonus() {
    let score = score_city(0, &[LCT3, CH7, TH5, CH9, RCT2].map(Some), &[]);
    assert!(score.complete);
    assert_eq!(bonuses_and_total(&score), (26, 10, 5, 0, 41));
}

#[test]
fn the_town_hall_bonus_needs_an_odd_number_of_cards() {
    // Six cards: the town hall at index 3 (len/2) and at index 2 (len/2 - 1).
    for city in [
        [LCT2, CH5, G3, TH5, CH6, RCT2],
        [LCT2, CH5, TH5, G3, CH6, RCT2],
    ] {
        let score = score_city(0, &city.map(Some), &[]);
        assert!(score.complete);
        assert_eq!(bonuses_and_total(&score), (23, 0, 5, 5, 33), "{city:?}");
    }
}

#[test]
fn a_tie_for_the_highest_total_is_a_shared_win() {
    let mut g = given::<Wettstreit>(standard());
    city(&mut g, 0, &[Some(G4)]);
    city(&mut g, 2, &[Some(CH4)]);
    let ended = super::super::scoring::game_ended(&g.state);
    assert_eq!(ended.winners, vec![0, 2]);
}
