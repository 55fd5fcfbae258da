//! Taking back a command (undo), the same for every kind.
//!
//! The rule: a seated player may take back their own last command while it revealed nothing
//! and nothing has happened since. A command *revealed* something when its `decide` drew from
//! `Ctx.rng` (a chance outcome is now fixed: taking it back would let a player draw again), when
//! any event it produced is not shown as-is to every seat and to spectators (somebody learnt
//! something the others did not, or the actor learnt something nobody may forget), or when it
//! finished the game (the result is public and rated). Not the player's own choice, so never
//! taken back: the set-up, a round's deadline, the turn clock's default move. "Nothing has
//! happened since": the command is the last in the log, so no other seat (and no deadline)
//! has acted after it, also where players act at once. One step at a time: a take-back is not
//! itself taken back, and right after one nothing can be taken back until a new command.
//!
//! It is recorded: the take-back is a command of its own (`TakeBack`) whose one event,
//! [`CommandTakenBack`], names the seat and the versions taken back. The undone events stay in
//! the log. Folding the log, the take-back restores the state before the taken-back command
//! ([`Fold`]); every fold (the cache, snapshots, replays, the audit, an offline verify) goes
//! through [`Fold`], so they agree.

use std::cell::Cell;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::contract::{Seat, Viewer};
use crate::dynamic::{DomainError, DynGame, GameState};
use crate::view_tape::{same, Part, Tape};

/// The `type` of the take-back's command body, as stored and exported.
pub const COMMAND: &str = "TakeBack";
/// The `type` of the take-back's event.
pub const EVENT: &str = "CommandTakenBack";

/// A player took back their last command: the events `from_version..=to_version` (the whole
/// command) no longer count; the game is as it was before them. Public: it only names what
/// everybody has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename = "CommandTakenBack")]
pub struct CommandTakenBack {
    /// The seat that took its command back.
    pub seat: Seat,
    /// The first event of the command taken back.
    pub from_version: i64,
    /// The last event of the command taken back.
    pub to_version: i64,
}

impl CommandTakenBack {
    /// The take-back `event` is, if it is one (`Err` when it is one but does not parse).
    pub fn of(event: &Value) -> Result<Option<Self>, DomainError> {
        if event.get("type").and_then(Value::as_str) != Some(EVENT) {
            return Ok(None);
        }
        Self::deserialize(event)
            .map(Some)
            .map_err(|e| DomainError::CorruptEvent(format!("{EVENT}: {e}")))
    }

    /// The take-back a stored event of type `kind` is, if it is one.
    pub fn of_json(kind: &str, payload: &str) -> Result<Option<Self>, DomainError> {
        if kind != EVENT {
            return Ok(None);
        }
        serde_json::from_str(payload)
            .map(Some)
            .map_err(|e| DomainError::CorruptEvent(format!("{EVENT}: {e}")))
    }

    pub fn to_value(self) -> Value {
        serde_json::to_value(self).expect("a take-back serializes")
    }

    /// Whether this take-back's range covers `version`.
    pub fn covers(&self, version: i64) -> bool {
        (self.from_version..=self.to_version).contains(&version)
    }
}

/// Why a take-back is refused: each a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game was created with `"undo": false`.
    Off,
    /// Nothing of the caller's to take back: no command yet, the set-up only, or the last
    /// entry is already a take-back.
    NothingToUndo,
    /// The last command was made for the caller's seat by the turn clock, not by them.
    NotYourCommand,
    /// Another seat, or a deadline, has acted after the caller's last command.
    OthersActed,
    /// The command drew randomness, showed hidden information, or finished the game.
    Reveals,
}

impl Refusal {
    pub fn code(self) -> &'static str {
        match self {
            Refusal::Off => "undo_off",
            Refusal::NothingToUndo => "nothing_to_undo",
            Refusal::NotYourCommand => "not_your_command",
            Refusal::OthersActed => "others_acted",
            Refusal::Reveals => "undo_reveals",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Refusal::Off => "Taking back commands is turned off for this game.",
            Refusal::NothingToUndo => {
                "There is no command of yours to take back (one take-back at a time: make a new move first)."
            }
            Refusal::NotYourCommand => {
                "The last command was the turn clock's default move, not yours: it cannot be taken back."
            }
            Refusal::OthersActed => {
                "Somebody else (or a deadline) has acted since your last command: it cannot be taken back."
            }
            Refusal::Reveals => {
                "Your last command drew randomness, showed hidden information or ended the game: it cannot be taken back."
            }
        }
    }
}

/// Who made the last command in a game's log, as the rule needs to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastCommand {
    /// The set-up (or nothing at all).
    SetUp,
    /// A round's deadline.
    Deadline,
    /// A take-back.
    TakeBack,
    /// The turn clock's default move for `seat`.
    Clock { seat: Seat },
    /// A player's own command; `reveals` as judged by [`reveals`].
    Player { seat: Seat, reveals: bool },
}

/// The rule: whether `caller` may take back the game's last command. `caller_acted` says
/// whether the caller has made any command of their own in this game (to tell "others acted
/// since" from "nothing to undo"); `enabled` is the game's `undo` option.
pub fn judge(
    enabled: bool,
    caller: Seat,
    last: LastCommand,
    caller_acted: bool,
) -> Result<(), Refusal> {
    if !enabled {
        return Err(Refusal::Off);
    }
    let someone_else = if caller_acted {
        Refusal::OthersActed
    } else {
        Refusal::NothingToUndo
    };
    match last {
        LastCommand::SetUp | LastCommand::TakeBack => Err(Refusal::NothingToUndo),
        LastCommand::Clock { seat } if seat == caller => Err(Refusal::NotYourCommand),
        LastCommand::Clock { .. } | LastCommand::Deadline => Err(someone_else),
        LastCommand::Player { seat, .. } if seat != caller => Err(someone_else),
        LastCommand::Player { reveals: true, .. } => Err(Refusal::Reveals),
        LastCommand::Player { reveals: false, .. } => Ok(()),
    }
}

/// Whether a command revealed anything, judged right after it was decided: `draws` is how many
/// numbers its `decide` took from `Ctx.rng`, `events` what it produced, `before` and `after` the
/// states around it. It revealed something when it drew, ended the game, produced an event not
/// shown as-is to every seat (`0..seats`) and to spectators, or showed a viewer something of
/// what was hidden from them: an event may be public and still carry a secret (the top card of
/// a deck shuffled at the set-up, a card from a hidden hand). That is judged on the views: the
/// parts of the board a viewer does not see (where their view differs from the all-seeing one)
/// changed, or the viewer now sees something where it was hidden, and what the viewer sees
/// changed.
///
/// The views are compared as [`Tape`]s, which mean what their `serde_json` values mean and cost
/// a fraction of building them (the test holds every verdict of random play to the rule as
/// stated on the values).
pub fn reveals(
    game: &dyn DynGame,
    before: &GameState,
    after: &GameState,
    events: &[Value],
    draws: u64,
    seats: u8,
) -> bool {
    judge_keeping(
        game,
        before,
        after,
        events,
        draws,
        seats,
        ViewTapes::default(),
    )
    .reveals
}

/// The views of one state written as tapes: the all-seeing one and each judged viewer's (the
/// seats in order, then spectators; see [`judged_viewers`]), as far as a judgement wrote them.
/// The views after one command are the views before the next: a caller that keeps them for the
/// game's next command (keyed by the version they were written at) halves the tapes that
/// judgement writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewTapes {
    everyone: Option<Tape>,
    seen: Vec<Option<Tape>>,
}

impl ViewTapes {
    /// The bytes these tapes hold (about what they take in memory), for a cache's bound.
    pub fn size(&self) -> usize {
        self.everyone
            .iter()
            .chain(self.seen.iter().flatten())
            .map(Tape::size)
            .sum()
    }
}

/// [`reveals`]'s verdict, and the views after the command as far as it wrote them.
pub struct Judgement {
    pub reveals: bool,
    pub after: ViewTapes,
}

/// [`reveals`], given the views of `before` as an earlier judgement left them (`Default` when
/// there are none): what they hold is not written again. They must be the views of exactly
/// this `before` state (the caller keys them by game and version).
pub fn judge_keeping(
    game: &dyn DynGame,
    before: &GameState,
    after: &GameState,
    events: &[Value],
    draws: u64,
    seats: u8,
    mut kept: ViewTapes,
) -> Judgement {
    let verdict = |reveals: bool, after: ViewTapes| Judgement { reveals, after };
    if draws > 0 || game.status(after).finished {
        return verdict(true, ViewTapes::default());
    }
    let hidden_event = every_viewer(seats).any(|v| {
        events
            .iter()
            .any(|e| game.redact(after, e, v).as_ref() != Some(e))
    });
    if hidden_event {
        return verdict(true, ViewTapes::default());
    }
    let viewers = judged_viewers(game, seats);
    kept.seen.resize(viewers.len(), None);
    // A tape is written into the buffers of one no longer needed where there is one (a view
    // before, once compared), else into buffers as large as the view before, so that they
    // are not grown step by step.
    let write = |state: &GameState, viewer: Viewer, mut tape: Tape| {
        game.judged_tape(state, viewer, &mut tape);
        tape
    };
    let all_before = match kept.everyone.take() {
        Some(tape) => tape,
        None => write(before, Viewer::Everyone, Tape::default()),
    };
    let all_after = write(after, Viewer::Everyone, Tape::with_capacity_of(&all_before));
    let unchanged = Unchanged::new(&all_before);
    let mut spare: Option<Tape> = None;
    // The view before of the viewer judged last (who was shown nothing), kept to compare.
    let mut previous: Option<Tape> = None;
    let mut seen_after: Vec<Option<Tape>> = Vec::with_capacity(viewers.len());
    let reveals = viewers.iter().enumerate().any(|(i, viewer)| {
        let seen_before = match kept.seen[i].take() {
            Some(tape) => tape,
            None => write(before, *viewer, spare.take().unwrap_or_default()),
        };
        let buffers = spare
            .take()
            .unwrap_or_else(|| Tape::with_capacity_of(&seen_before));
        seen_after.push(Some(write(after, *viewer, buffers)));
        let now = seen_after[i].as_ref().expect("just written").root();
        // Where viewers see alike (in Burgbaumeister every seat and the spectators: nobody
        // holds a hand), a viewer whose views before and after were written alike with the
        // last one's gets that one's verdict, "nothing shown", without walking them again:
        // the verdict depends on nothing else.
        let as_last = i > 0
            && previous
                .as_ref()
                .is_some_and(|p| p.root().written_alike(seen_before.root()))
            && seen_after[i - 1]
                .as_ref()
                .is_some_and(|last| last.root().written_alike(now));
        let revealed = !as_last
            && revealed_to(
                all_before.root(),
                all_after.root(),
                seen_before.root(),
                now,
                &unchanged,
            );
        spare = previous.replace(seen_before);
        revealed
    });
    // A verdict found before the last viewer leaves the others' views unwritten: the next
    // judgement writes them.
    seen_after.resize(viewers.len(), None);
    verdict(
        reveals,
        ViewTapes {
            everyone: Some(all_after),
            seen: seen_after,
        },
    )
}

/// Every seat in order, then the spectators.
fn every_viewer(seats: u8) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
}

/// The viewers whose views a judgement compares, in the order [`ViewTapes`] keeps them: every
/// seat and the spectators, or the spectators alone where every one of them sees what the
/// spectators see ([`DynGame::viewers_see_alike`]): a verdict depends on nothing but the
/// viewer's views and the all-seeing ones, so theirs is every seat's.
pub(crate) fn judged_viewers(game: &dyn DynGame, seats: u8) -> Vec<Viewer> {
    if game.viewers_see_alike() {
        vec![Viewer::Spectator]
    } else {
        every_viewer(seats).collect()
    }
}

/// Whether a command showed one viewer something of what was hidden from them, judged on the
/// views around it (the all-seeing ones and the viewer's): what was hidden changed, or the
/// viewer now sees something where it was hidden (a face-down card turned up: its number did
/// not change, only who sees it). Where it was hidden before, both; where it is hidden after,
/// the first.
///
/// Neither walk enters a part that the command left as it was (in the all-seeing view and, for
/// the first, in the viewer's): no difference below it can be a hit. A command changes little
/// of a board, so the walks follow what it changed instead of visiting everything hidden (in
/// Burgbaumeister, every face-down slot).
///
/// Whether a part of the all-seeing view is unchanged is the same for every viewer's walks, so
/// `all_unchanged` (made for `all_before`'s tape) answers it once per part.
fn revealed_to(
    all_before: Part<'_>,
    all_after: Part<'_>,
    seen_before: Part<'_>,
    seen_after: Part<'_>,
    all_unchanged: &Unchanged,
) -> bool {
    let mut path = Vec::new();
    let unchanged =
        |now: Part<'_>, then: Option<Part<'_>>| then.is_some_and(|t| t.written_alike(now));
    !seen_before.same(seen_after)
        && (all_before.any_difference(
            seen_before,
            [Some(all_after), Some(seen_after)],
            &mut path,
            &|all, seen, along| {
                along[0].is_some_and(|after| all_unchanged.judge(all, after))
                    && unchanged(seen, along[1])
            },
            &mut |at| !same(at.mine, at.along[0]) || !same(at.theirs, at.along[1]),
        ) || all_after.any_difference(
            seen_after,
            [Some(all_before)],
            &mut path,
            &|all, _, along| along[0].is_some_and(|before| all_unchanged.judge(before, all)),
            &mut |at| !same(at.along[0], at.mine),
        ))
}

/// Which parts of the all-seeing view before a command were written alike after it (each
/// compared with the part at the same path after it), by their index in the tape before, as
/// far as a walk asked: every viewer's two walks ask it of the same parts.
struct Unchanged {
    /// `None`: not asked yet.
    known: Vec<Cell<Option<bool>>>,
}

impl Unchanged {
    fn new(all_before: &Tape) -> Self {
        Unchanged {
            known: vec![Cell::new(None); all_before.nodes()],
        }
    }

    /// Whether `before` (a part of the tape this was made for) and `after` (the part at the
    /// same path after the command) were written alike.
    fn judge(&self, before: Part<'_>, after: Part<'_>) -> bool {
        let known = &self.known[before.index()];
        known.get().unwrap_or_else(|| {
            let alike = before.written_alike(after);
            known.set(Some(alike));
            alike
        })
    }
}

/// A fold of stored events that knows take-backs: at a [`CommandTakenBack`] the state goes
/// back to what it was before the command taken back. Which states to keep for that is known
/// beforehand from the take-backs among the events to fold (cheap: they are few, and only
/// their payloads are read); a take-back that reaches back before where the fold starts needs
/// an earlier start ([`Fold::new`] says which).
pub struct Fold<'g> {
    game: &'g dyn DynGame,
    pub state: GameState,
    pub version: i64,
    /// The versions whose states a take-back will return to, once passed.
    keep: Vec<(i64, Option<GameState>)>,
}

impl<'g> Fold<'g> {
    /// A fold starting from `state` at `version`, about to apply events among which are
    /// `take_backs`. `Err(v)`: a take-back returns to version `v`, before `version`; start
    /// from a state at or before `v`.
    pub fn new(
        game: &'g dyn DynGame,
        state: GameState,
        version: i64,
        take_backs: impl IntoIterator<Item = CommandTakenBack>,
    ) -> Result<Self, i64> {
        let mut keep = Vec::new();
        for t in take_backs {
            let back_to = t.from_version - 1;
            if back_to < version {
                return Err(back_to);
            }
            keep.push((back_to, None));
        }
        let mut fold = Fold {
            game,
            state,
            version,
            keep,
        };
        fold.stash();
        Ok(fold)
    }

    /// A fold from the initial state over a whole log (`events[i]` is version `i + 1`).
    pub fn from_start(game: &'g dyn DynGame, events: &[Value]) -> Result<Self, DomainError> {
        let mut take_backs = Vec::new();
        for event in events {
            take_backs.extend(CommandTakenBack::of(event)?);
        }
        Fold::new(game, game.initial(), 0, take_backs).map_err(|_| {
            DomainError::CorruptEvent(format!("a {EVENT} reaches back before the first event"))
        })
    }

    fn stash(&mut self) {
        for (at, kept) in &mut self.keep {
            if *at == self.version && kept.is_none() {
                *kept = Some(self.state.clone());
            }
        }
    }

    /// Applies the event of `version` (the next one).
    pub fn apply(&mut self, version: i64, event: &Value) -> Result<(), DomainError> {
        match CommandTakenBack::of(event)? {
            Some(t) => self.take_back(version, t)?,
            None => self.game.evolve(&mut self.state, event)?,
        }
        self.version = version;
        self.stash();
        Ok(())
    }

    /// [`Fold::apply`] with the event as stored: its type and JSON text.
    pub fn apply_json(
        &mut self,
        version: i64,
        kind: &str,
        payload: &str,
    ) -> Result<(), DomainError> {
        match CommandTakenBack::of_json(kind, payload)? {
            Some(t) => self.take_back(version, t)?,
            None => self.game.evolve_json(&mut self.state, payload)?,
        }
        self.version = version;
        self.stash();
        Ok(())
    }

    fn take_back(&mut self, version: i64, t: CommandTakenBack) -> Result<(), DomainError> {
        if !(t.from_version <= t.to_version && t.to_version < version) {
            return Err(DomainError::CorruptEvent(format!(
                "the {EVENT} at version {version} names versions {}..={}",
                t.from_version, t.to_version
            )));
        }
        let back_to = t.from_version - 1;
        let kept = self
            .keep
            .iter()
            .find(|(at, _)| *at == back_to)
            .and_then(|(_, kept)| kept.clone())
            .ok_or_else(|| {
                DomainError::CorruptEvent(format!(
                    "the {EVENT} at version {version} was not announced to the fold"
                ))
            })?;
        self.state = kept;
        Ok(())
    }
}

/// The events of a whole log (`events[i]` is version `i + 1`) that still count as of its last
/// version: neither taken back nor a take-back. Folding them is folding the log.
pub fn standing(events: &[Value]) -> Result<Vec<&Value>, DomainError> {
    let mut take_backs = Vec::new();
    for event in events {
        take_backs.extend(CommandTakenBack::of(event)?);
    }
    Ok(events
        .iter()
        .enumerate()
        .filter(|(i, event)| {
            let version = *i as i64 + 1;
            !take_backs.iter().any(|t| t.covers(version))
                && event.get("type").and_then(Value::as_str) != Some(EVENT)
        })
        .map(|(_, event)| event)
        .collect())
}

/// Folds a whole stored log (`events[i]` is version `i + 1`) from the initial state,
/// take-backs included (see the module).
pub fn replay(game: &dyn DynGame, events: &[Value]) -> Result<GameState, DomainError> {
    let mut fold = Fold::from_start(game, events)?;
    for (i, event) in events.iter().enumerate() {
        fold.apply(i as i64 + 1, event)?;
    }
    Ok(fold.state)
}

#[cfg(test)]
#[path = "take_back_tests.rs"]
mod tests;
