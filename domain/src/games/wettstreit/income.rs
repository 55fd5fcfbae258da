//! Step 1 of a turn: income. The die pays its pips, the built gates their coins; the saboteur
//! face pays only the gates and brings a saboteur (from the supply, or from another player of
//! the roller's choice when the supply is empty).

use crate::contract::{Ctx, RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;

pub fn roll_income_die(
    state: &State,
    seat: Seat,
    ctx: &mut Ctx,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::Income)?;
    let die = DieFace::from_index(ctx.rng.below(6));
    let gate_coins = state.gate_coins(seat);
    let owed = u32::from(die.pips()) + u32::from(gate_coins);
    // Decision: a bank that cannot pay in full pays what it has.
    let taler = owed.min(state.bank);
    let mut events = vec![WettstreitEvent::from(IncomeRolled {
        seat,
        die,
        gate_coins,
        taler: Some(taler),
    })];
    if die == DieFace::Saboteur && state.supply > 0 {
        events.push(SaboteurTaken { seat, from: None }.into());
    }
    // With the supply empty the roller chooses whom to take one from (`TakeSaboteurFrom`);
    // when only the roller holds saboteurs, there is nothing to take.
    Ok(events)
}

pub fn take_saboteur_from(
    state: &State,
    seat: Seat,
    cmd: &TakeSaboteurFrom,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::TakeSaboteur)?;
    if cmd.from == seat || cmd.from >= state.players {
        return Err(RuleError::new(
            "saboteur_from_other_player",
            "Take the saboteur from another player.",
        ));
    }
    if state.saboteurs[cmd.from as usize] == 0 {
        return Err(RuleError::new(
            "player_has_no_saboteur",
            "That player has no saboteur to take.",
        ));
    }
    Ok(vec![SaboteurTaken {
        seat,
        from: Some(cmd.from),
    }
    .into()])
}

/// Seats the roller may take a saboteur from.
pub fn saboteur_holders(state: &State, seat: Seat) -> Vec<Seat> {
    (0..state.players)
        .filter(|&s| s != seat && state.saboteurs[s as usize] > 0)
        .collect()
}
