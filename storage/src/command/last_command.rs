//! A game's last command as the rule of taking back sees it (`take_back::LastCommand`), from
//! what is stored of it: read from `commands` by `/moves` and `/undo` (`undo.rs`), or known
//! by the process that has just appended it (`commands.rs`), which must agree.

use baumeister_domain::take_back::{self, LastCommand};

/// What the rule needs of a game's last command, from what is stored of it: its type, seat,
/// whether it had an account, its `reveals` and `position` (the version it was decided on).
pub(crate) fn last_command(
    kind: Option<&str>,
    by_seat: Option<u8>,
    by_person: Option<bool>,
    reveals: Option<bool>,
    position: Option<i64>,
) -> LastCommand {
    match (kind, by_seat, by_person) {
        (None, _, _) | (Some("Setup"), _, _) => LastCommand::SetUp,
        (Some(take_back::COMMAND), _, _) => LastCommand::TakeBack,
        (_, None, _) => LastCommand::Deadline,
        (_, Some(seat), Some(false) | None) => LastCommand::Clock { seat },
        (_, Some(seat), Some(true)) => LastCommand::Player {
            seat,
            // Not judged (a command older than undo): never taken back.
            reveals: reveals.unwrap_or(true) || position.is_none(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each stored shape of a command is the rule's: the set-up (or no command), a take-back,
    /// the clock's default move (no seat), the clock's bot (a seat, no account), a person's,
    /// which may be taken back only when it was judged to reveal nothing.
    #[test]
    fn each_stored_command_is_what_the_rule_reads() {
        let person =
            |reveals, position| last_command(Some("Build"), Some(1), Some(true), reveals, position);
        assert_eq!(
            last_command(None, None, None, None, None),
            LastCommand::SetUp
        );
        assert_eq!(
            last_command(Some("Setup"), None, Some(true), None, Some(0)),
            LastCommand::SetUp
        );
        assert_eq!(
            last_command(Some(take_back::COMMAND), Some(0), Some(true), None, Some(4)),
            LastCommand::TakeBack
        );
        assert_eq!(
            last_command(Some("Build"), None, Some(false), None, Some(4)),
            LastCommand::Deadline
        );
        assert_eq!(
            last_command(Some("Build"), Some(1), Some(false), None, Some(4)),
            LastCommand::Clock { seat: 1 }
        );
        assert_eq!(
            person(Some(false), Some(4)),
            LastCommand::Player {
                seat: 1,
                reveals: false
            }
        );
        assert_eq!(
            person(Some(true), Some(4)),
            LastCommand::Player {
                seat: 1,
                reveals: true
            }
        );
        // Not judged, or older than undo (no position): never taken back.
        assert_eq!(
            person(None, Some(4)),
            LastCommand::Player {
                seat: 1,
                reveals: true
            }
        );
        assert_eq!(
            person(Some(false), None),
            LastCommand::Player {
                seat: 1,
                reveals: true
            }
        );
    }
}
