//! The [`Game`] implementation: each command to its rule's file.

use crate::contract::{check_setup, Ctx, Game, RuleError, Seat, Status, Viewer};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;
use super::view::*;
use super::{auction, building, evolve, income, legal, sabotage, turn, view};

/// Wettstreit der Baumeister.
pub struct Wettstreit;

impl Game for Wettstreit {
    const KIND: &'static str = "wettstreit";
    const TITLE: &'static str = "Wettstreit der Baumeister";
    const MIN_SEATS: u8 = 3;
    const MAX_SEATS: u8 = 4;
    const RULES: &'static str = include_str!("../../../../docs/rules/wettstreit.md");
    const RULES_DE: Option<&'static str> =
        Some(include_str!("../../../../docs/rules/wettstreit.de.md"));
    type Options = WettstreitOptions;
    type State = State;
    type Command = WettstreitCommand;
    type Event = WettstreitEvent;
    type View = WettstreitView;

    fn initial() -> State {
        State::default()
    }

    fn setup(
        options: &WettstreitOptions,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<WettstreitEvent>, RuleError> {
        check_setup::<Self>(options, seats)?;
        let mut cards: Vec<Card> = (0..CARD_COUNT as u8).collect();
        ctx.rng.shuffle(&mut cards);
        let face_down = cards.split_off(CARD_COUNT / 2);
        let starting_seat = ctx.rng.below(u64::from(seats)) as Seat;
        let events = vec![
            WettstreitGameStarted {
                players: seats,
                starting_seat,
            }
            .into(),
            WettstreitCardsShuffled {
                open: Some(cards),
                face_down: Some(face_down),
            }
            .into(),
        ];
        Ok(turn::settle(&State::default(), events))
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &WettstreitCommand,
        ctx: &mut Ctx,
    ) -> Result<Vec<WettstreitEvent>, RuleError> {
        use WettstreitCommand as C;
        match state.phase {
            Phase::Ended => return Err(RuleError::game_over()),
            Phase::NotStarted => {
                return Err(RuleError::new(
                    "not_started",
                    "The game has not started yet.",
                ))
            }
            _ => {}
        }
        if seat >= state.players {
            return Err(RuleError::new(
                "no_such_seat",
                "There is no player in that seat.",
            ));
        }
        let events = match command {
            C::RollIncomeDie(_) => income::roll_income_die(state, seat, ctx)?,
            C::TakeSaboteurFrom(c) => income::take_saboteur_from(state, seat, c)?,
            C::AuctionTopCard(c) => auction::auction_top_card(state, seat, c)?,
            C::MakeOpeningBid(c) => auction::make_opening_bid(state, seat, c)?,
            C::RaiseBid(c) => auction::raise_bid(state, seat, c)?,
            C::PassBid(_) => auction::pass_bid(state, seat)?,
            C::FoundCity(c) => building::found_city(state, seat, c)?,
            C::BuildCard(c) => building::build_card(state, seat, c)?,
            C::SabotageBuilding(c) => sabotage::sabotage_building(state, seat, c, ctx)?,
            C::SabotageHand(c) => sabotage::sabotage_hand(state, seat, c, ctx)?,
            C::PayToKeepBuilding(_) => sabotage::pay_to_keep_building(state, seat)?,
            C::LetBuildingFall(_) => sabotage::let_building_fall(state, seat)?,
            C::PutCardUnderStack(c) => turn::put_card_under_stack(state, seat, c)?,
            C::FinishBuildStep(_) => turn::finish_build_step(state, seat)?,
        };
        Ok(turn::settle(state, events))
    }

    fn evolve(state: &mut State, event: &WettstreitEvent) {
        evolve::evolve(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> WettstreitView {
        view::view(state, viewer)
    }

    fn judged_view(state: &State, viewer: Viewer) -> Option<WettstreitView> {
        Some(view::judged_view(state, viewer))
    }

    fn redact(state: &State, event: &WettstreitEvent, viewer: Viewer) -> Option<WettstreitEvent> {
        Some(view::redact(state, event, viewer))
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<WettstreitCommand> {
        legal::legal_commands(state, seat)
    }

    fn status(state: &State) -> Status {
        turn::status(state)
    }

    fn default_command(state: &State, seat: Seat) -> Option<WettstreitCommand> {
        legal::default_command(state, seat)
    }
}
