//! Setup: the start tile face up at (0, 0), the other tiles (with each expansion's 8) into the
//! pile, 7 followers each, the 16 ingots with Die Goldminen, a starting seat drawn at random
//! (the box says the youngest; a server knows no ages), and the first tile drawn.

use crate::contract::{check_setup, Ctx, RuleError};
use crate::games::carcassonne::Carcassonne;

use super::end;
use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::pile;
use super::state::{State, FOLLOWERS};
use super::tiles::catalogue;

pub fn setup(
    options: &CarcassonneOptions,
    seats: u8,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    check_setup::<Carcassonne>(options, seats)?;
    let catalogue = catalogue();
    let starting_seat = ctx.rng.below(u64::from(seats)) as u8;
    let mut outcome = Outcome::new(&State::default());
    outcome.push(CarcassonneGameStarted {
        players: seats,
        mage_and_witch: options.mage_and_witch,
        gold_mines: options.gold_mines,
        starting_seat,
        followers: FOLLOWERS,
        gold_ingots: if options.gold_mines {
            catalogue.gold_ingots
        } else {
            0
        },
        tile_counts: pile::contents(options),
    });
    outcome.push(StartTilePlaced {
        tile: catalogue.get(catalogue.start_tile).id.clone(),
        x: 0,
        y: 0,
        rotation: 0,
    });
    if !pile::draw(&mut outcome, ctx, starting_seat) {
        end::finish(&mut outcome);
    }
    Ok(outcome.events)
}
