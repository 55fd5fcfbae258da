//! Setup: the 45 cards shuffled face down into the store, a starting seat drawn at random (the
//! box says "the youngest"; a server knows no ages).

use crate::contract::{check_setup, Ctx, RuleError};
use crate::games::burgbaumeister::Burgbaumeister;

use super::events::*;
use super::options::*;

pub fn setup(
    options: &BurgbaumeisterOptions,
    seats: u8,
    ctx: &mut Ctx,
) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    check_setup::<Burgbaumeister>(options, seats)?;
    let starting_seat = ctx.rng.below(u64::from(seats)) as u8;
    let mut cards: Vec<Card> = (2..=46).collect();
    ctx.rng.shuffle(&mut cards);
    Ok(vec![
        CastleGameStarted {
            players: seats,
            variant: options.variant,
            starting_seat,
        }
        .into(),
        StoreLaidOut { cards: Some(cards) }.into(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Game;

    #[test]
    fn setup_shuffles_45_cards_into_the_store_and_draws_the_starting_seat() {
        let mut starts = [0; 4];
        for seed in 0..40 {
            let events = setup(
                &BurgbaumeisterOptions { variant: true },
                4,
                &mut Ctx::new(seed, 0),
            )
            .unwrap();
            let BurgbaumeisterEvent::CastleGameStarted(started) = &events[0] else {
                panic!("first the game starts")
            };
            assert_eq!((started.players, started.variant), (4, true));
            starts[started.starting_seat as usize] += 1;
            let BurgbaumeisterEvent::StoreLaidOut(StoreLaidOut { cards: Some(cards) }) = &events[1]
            else {
                panic!("then the store is laid out")
            };
            let mut sorted = cards.clone();
            sorted.sort();
            assert_eq!(sorted, (2..=46).collect::<Vec<Card>>());
            let mut state = Burgbaumeister::initial();
            for e in &events {
                Burgbaumeister::evolve(&mut state, e);
            }
            assert_eq!(state.turn, started.starting_seat);
            assert_eq!(state.walls, vec![Vec::<Card>::new(); 4]);
        }
        assert!(
            starts.iter().all(|&n| n > 0),
            "every seat can start: {starts:?}"
        );
    }

    #[test]
    fn setup_refuses_a_seat_count_outside_2_to_4() {
        let options = BurgbaumeisterOptions::default();
        for seats in [0, 1, 5] {
            let err = setup(&options, seats, &mut Ctx::new(1, 0)).unwrap_err();
            assert_eq!(err.code, "seats_out_of_range");
        }
    }
}
