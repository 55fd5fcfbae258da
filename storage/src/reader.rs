//! Who is reading: every read, and every writer that judges what its caller may see, takes a
//! `Reader`. It stands apart from the reads themselves so that the modules below them (chat,
//! the gate, snapshots, the command path) can name their caller without importing the reads.

use baumeister_domain::Viewer;

/// Who is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// No token: the public view.
    Anonymous,
    Account {
        id: i64,
        auditor: bool,
    },
}

impl Reader {
    /// The account as a player, not as an auditor: what acts at a table (commands, seats,
    /// rematches), where an auditor's right to read a private game does not reach.
    pub fn player(id: i64) -> Reader {
        Reader::Account { id, auditor: false }
    }

    pub(crate) fn account(self) -> Option<i64> {
        match self {
            Reader::Anonymous => None,
            Reader::Account { id, .. } => Some(id),
        }
    }

    /// An auditor who sits at the game sees it as that seat: playing with an auditor's
    /// token must not show the player the others' secrets.
    pub(crate) fn viewer(self, seat: Option<u8>) -> Viewer {
        match (self, seat) {
            (_, Some(seat)) => Viewer::Seat(seat),
            (Reader::Account { auditor: true, .. }, None) => Viewer::Everyone,
            _ => Viewer::Spectator,
        }
    }
}
