//! Drawing guild cards. The draw pile has no order: each card is drawn at random from the cards
//! left in it, at the moment it is drawn, so no order can leak before. When the last card is
//! drawn, the discard pile becomes the new draw pile; with both empty, fewer cards are drawn.

use crate::contract::{Ctx, Seat};

use super::events::*;
use super::evolve::Outcome;
use super::guild_cards::{Cards, GuildCard};

/// `seat` draws `count` cards (events pushed onto `outcome`).
pub fn draw(outcome: &mut Outcome, seat: Seat, count: u8, ctx: &mut Ctx) {
    let mut left = count;
    while left > 0 {
        let mut pile = outcome.state.draw_pile;
        let batch = left.min(pile.total());
        if batch > 0 {
            let mut cards: Vec<GuildCard> = (0..batch).map(|_| take_one(&mut pile, ctx)).collect();
            cards.sort();
            outcome.push(GuildCardsDrawn {
                seat,
                count: batch,
                cards: Some(cards),
            });
            left -= batch;
        }
        if outcome.state.draw_pile.is_empty() && !outcome.state.discard_pile.is_empty() {
            let cards = outcome.state.discard_pile.len() as u8;
            outcome.push(GuildDiscardsReshuffled { cards });
        } else if batch == 0 {
            return;
        }
    }
}

fn take_one(pile: &mut Cards, ctx: &mut Ctx) -> GuildCard {
    let n = ctx.rng.below(u64::from(pile.total())) as u8;
    let card = pile.nth(n).expect("n is below the pile's size");
    pile.remove(card);
    card
}

#[cfg(test)]
mod tests {
    use super::super::tests::test_support::*;
    use super::*;
    use crate::games::mauerbauer::Mauerbauer;
    use crate::schema::TaggedUnion;
    use crate::testing::given;

    #[test]
    fn cards_come_from_the_draw_pile_at_random() {
        let state = given::<Mauerbauer>(table(2)).state;
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            let mut outcome = Outcome::new(&state);
            draw(&mut outcome, 0, 1, &mut Ctx::new(seed, 0));
            let [MauerbauerEvent::GuildCardsDrawn(e)] = &outcome.events[..] else {
                panic!("one draw event: {:?}", outcome.events)
            };
            seen.insert(e.cards.clone().unwrap()[0]);
            assert_eq!(outcome.state.draw_pile.total(), state.draw_pile.total() - 1);
        }
        assert!(seen.len() > 20, "every kind can come: {}", seen.len());
    }

    #[test]
    fn the_discard_pile_becomes_the_draw_pile_when_the_last_card_is_drawn() {
        let mut state = given::<Mauerbauer>(table(2)).state;
        state.draw_pile = [GuildCard::BoardWalls].into_iter().collect();
        state.discard_pile = vec![GuildCard::ClosedCities, GuildCard::CityPalaces];
        let mut outcome = Outcome::new(&state);
        draw(&mut outcome, 1, 2, &mut Ctx::new(5, 0));
        let types: Vec<&str> = outcome.events.iter().map(|e| e.tag()).collect();
        assert_eq!(
            types,
            [
                "GuildCardsDrawn",
                "GuildDiscardsReshuffled",
                "GuildCardsDrawn"
            ]
        );
        assert_eq!(outcome.state.hand(1).count(GuildCard::BoardWalls), 1);
        assert_eq!(outcome.state.draw_pile.total(), 1);
        assert!(outcome.state.discard_pile.is_empty());
    }

    #[test]
    fn with_both_piles_empty_fewer_cards_are_drawn() {
        let mut state = given::<Mauerbauer>(table(2)).state;
        state.draw_pile = [GuildCard::BoardWalls].into_iter().collect();
        let mut outcome = Outcome::new(&state);
        draw(&mut outcome, 0, 2, &mut Ctx::new(5, 0));
        assert_eq!(outcome.events.len(), 1);
        assert_eq!(outcome.state.hand(0).count(GuildCard::BoardWalls), 1);
        let mut outcome = Outcome::new(&outcome.state);
        draw(&mut outcome, 0, 2, &mut Ctx::new(5, 0));
        assert!(outcome.events.is_empty());
    }
}
