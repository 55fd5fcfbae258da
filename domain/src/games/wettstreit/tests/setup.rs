//! Setting up: two stacks of 20, secret purses of 10, the bank, the saboteurs, the first turn.

use super::*;

#[test]
fn the_forty_cards_are_shuffled_into_two_stacks_of_twenty() {
    for seats in [3u8, 4] {
        let events = Wettstreit::setup(
            &WettstreitOptions::default(),
            seats,
            &mut crate::contract::Ctx::new(u64::from(seats), 0),
        )
        .unwrap();
        let E::WettstreitCardsShuffled(WettstreitCardsShuffled {
            open: Some(open),
            face_down: Some(face_down),
        }) = &events[1]
        else {
            panic!("the cards are shuffled second: {events:?}")
        };
        assert_eq!((open.len(), face_down.len()), (20, 20));
        let mut all: Vec<Card> = open.iter().chain(face_down).copied().collect();
        all.sort();
        assert_eq!(all, (0..CARD_COUNT as Card).collect::<Vec<_>>());
        assert_eq!(
            events[2],
            OpenStackTopShown {
                card: open.last().copied()
            }
            .into(),
            "the open stack's top card is turned up"
        );
        let mut state = Wettstreit::initial();
        for e in &events {
            Wettstreit::evolve(&mut state, e);
        }
        assert_eq!(state.purses, vec![STARTING_PURSE; seats as usize]);
        assert_eq!(state.bank, TOTAL_TALER - 10 * u32::from(seats));
        assert_eq!(state.supply, SABOTEURS);
        assert_eq!(state.phase, Phase::Income);
        assert_eq!(Wettstreit::status(&state).to_act, vec![state.turn]);
    }
}

#[test]
fn the_game_is_for_three_or_four() {
    for seats in [2u8, 5] {
        let refused = Wettstreit::setup(
            &WettstreitOptions::default(),
            seats,
            &mut crate::contract::Ctx::new(0, 0),
        );
        assert_eq!(refused.unwrap_err().code, "seats_out_of_range");
    }
}
