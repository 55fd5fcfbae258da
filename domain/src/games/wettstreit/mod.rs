//! Wettstreit der Baumeister (Kosmos, Jean du Poel), for 3 or 4 players.
//! Rules as this server plays them, with every decision: `docs/rules/wettstreit.md`.
//!
//! A turn: roll for income (`RollIncomeDie`), auction the top card of a stack
//! (`AuctionTopCard`, then the auctioneer's `MakeOpeningBid`, then `RaiseBid` / `PassBid` by
//! each bidder in turn), then build (`FoundCity`, `BuildCard`) or sabotage (`SabotageBuilding`,
//! `SabotageHand`) or neither (`FinishBuildStep`). Decisions that wait on another player are
//! that player's commands: the bidder's bid, the owner's `PayToKeepBuilding` /
//! `LetBuildingFall`, and `PutCardUnderStack` when both stacks are equally low.
//!
//! One file per rule area: [`income`], [`auction`], [`payment`], [`building`], [`sabotage`],
//! [`turn`] (the course of a turn, the final round, the end), [`scoring`], [`evolve`], [`view`]
//! (views and redaction) and [`legal`] (the listed commands and the turn clock's default).

mod auction;
pub(crate) mod bot;
mod building;
mod evolve;
mod income;
mod legal;
mod model;
mod payment;
mod sabotage;
mod scoring;
mod turn;
mod view;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use model::*;
pub use scoring::score_city;

use crate::contract::{check_setup, Ctx, Game, RuleError, Seat, Status, Viewer};

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
        status(state)
    }

    fn default_command(state: &State, seat: Seat) -> Option<WettstreitCommand> {
        legal::default_command(state, seat)
    }
}

/// Who must act, and the result once the game has ended.
pub(crate) fn status(state: &State) -> Status {
    if let Some(ended) = &state.ended {
        return Status {
            to_act: Vec::new(),
            finished: true,
            scores: Some(ended.scores.iter().map(|s| s.total).collect()),
            winners: ended.winners.clone(),
        };
    }
    let to_act = match state.phase {
        Phase::NotStarted | Phase::Ended | Phase::AuctionClosing | Phase::TurnOver => Vec::new(),
        Phase::Income | Phase::TakeSaboteur | Phase::Auction | Phase::OpeningBid | Phase::Build => {
            vec![state.turn]
        }
        Phase::Bidding => state.auction.iter().map(|a| a.next).collect(),
        Phase::OwnerChoice => state.ransom.iter().map(|r| r.owner).collect(),
        Phase::CardUnder => state.card_under.iter().map(|u| u.chooser).collect(),
    };
    Status {
        to_act,
        finished: false,
        scores: None,
        winners: Vec::new(),
    }
}
