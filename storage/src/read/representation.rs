//! The caller's board and legal moves as of the version its command wrote, for a command sent
//! with `Prefer: return=representation` (RFC 7240): one request per move instead of three. They
//! come from the aggregate the append just produced, which is in memory anyway, so answering
//! with them costs no round trip, only the CPU of writing the view and listing the moves. They
//! are judged exactly as `GET /v1/games/{id}` and `/moves` judge them (`reads.rs`): the same
//! effective viewer (a seat, or everyone once the game has ended), the same redaction and the
//! head at the same version.

use baumeister_domain::Viewer;
use serde_json::value::RawValue;

use crate::audit::trust::SignedHead;
use crate::error::Result;
use crate::read::cache::Aggregate;
use crate::reader::Reader;
use crate::Refusal;
use crate::Store;

/// A seat's board and legal commands at one version, with the signed head there.
#[derive(Debug)]
pub struct Representation {
    /// The version the board and the commands are at.
    pub version: i64,
    pub seat: u8,
    /// The board as the seat may see it (`GET /v1/games/{id}`'s `view`).
    pub view: Box<RawValue>,
    /// Every command the seat may send now (`/moves`), as JSON.
    pub commands: Vec<Box<RawValue>>,
    /// The chain head at `version`, signed by the server.
    pub head: SignedHead,
    /// Whether the seat may take back its last command at `version` (`/moves`' `can_undo`):
    /// known without another read on the command path, read on the rare replay path.
    pub can_undo: Option<bool>,
}

impl Representation {
    pub(crate) fn with_can_undo(mut self, can_undo: bool) -> Self {
        self.can_undo = Some(can_undo);
        self
    }

    /// `seat`'s board and moves in `aggregate`, whose signed head is `head`.
    pub(crate) fn of(aggregate: &Aggregate, seat: u8, head: SignedHead) -> Self {
        let game = aggregate.game;
        let state = &aggregate.state;
        let viewer = game.effective_viewer(state, Viewer::Seat(seat));
        Representation {
            version: aggregate.version,
            seat,
            view: game.view_json(state, viewer),
            commands: game.legal_commands_json(state, seat),
            head,
            can_undo: None,
        }
    }
}

impl Store {
    /// The caller's board and moves as the game is now, from one snapshot as every read: for an
    /// idempotent replay, whose stored response names an earlier version (its own board at
    /// that version would take a replay of the log; the board now is what the client needs to
    /// go on playing). Costs the reads of `GET /v1/games/{id}`, only on this rare path.
    pub(crate) async fn representation_now(
        &self,
        game_id: i64,
        account_id: i64,
    ) -> Result<Representation> {
        let client = self.pool.get().await?;
        let reader = Reader::player(account_id);
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let seat = snapshot.head.seat.ok_or(Refusal::NotSeated)?;
        let head = snapshot.head(self, &client).await?;
        let can_undo = self
            .can_undo(&client, game_id, account_id, snapshot.version())
            .await?;
        Ok(Representation::of(&snapshot.aggregate, seat, head).with_can_undo(can_undo))
    }
}
