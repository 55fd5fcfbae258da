//! Private games and invitations. Invitations stand beside a game (table `invitations`, V14):
//! they never enter its event stream, chain, replay, audit or export.
//!
//! Who may watch a game is judged by one gate (`watch.rs`): a private game is there for its
//! seated players, the accounts with a pending invitation by name that has not expired, and
//! auditors; to everybody else it does not exist.
//!
//! Who invites: any seated player, while the game is open (the creator is one). An invitation
//! names an account, or is a link: a code of 192 bits from the operating system's generator,
//! shown once and stored as its SHA-256 only. A link is found by the hash of the code presented
//! (an index lookup): no code is ever compared in the server's memory, and an attacker who
//! controls the code controls nothing of the hash being looked up, so timing tells nothing.

use baumeister_domain::fairness::to_hex;
use deadpool_postgres::GenericClient;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio_postgres::Row;
use utoipa::ToSchema;

use crate::audit::trust::random_bytes;
use crate::error::{account_must_exist, violated_constraint, Result, StoreError};
use crate::live::channels::CHANNEL;
use crate::people::invitation_bounds::{
    announce_from_stranger, judge_stranger, strangers, InvitationBounds,
};
use crate::people::lobby::{summary_from_row, SUMMARY_COLUMNS, SUMMARY_WIDTH};
use crate::people::watch::Watching;
use crate::reader::Reader;
use crate::types::GameSummary;
use crate::Refusal;
use crate::{rfc3339, Store};

/// How long an invitation lasts when the inviter does not say: a week.
pub const DEFAULT_EXPIRY_HOURS: i64 = 7 * 24;
/// The longest an invitation may last: 30 days.
pub const MAX_EXPIRY_HOURS: i64 = 30 * 24;
/// The bytes of a link's code (192 bits, written as 48 hexadecimal digits).
const CODE_BYTES: usize = 24;

/// Where an invitation stands. `expired` is a pending invitation whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationState {
    Pending,
    Accepted,
    Declined,
    Revoked,
    Expired,
}

/// An invitation as the game's players see it (never with a link's code).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Invitation {
    pub id: i64,
    pub game_id: i64,
    /// The account invited; absent for a link.
    pub player: Option<String>,
    /// Whether this is a link, used with its code (`POST /v1/games/{id}/join {"invitation": code}`).
    pub link: bool,
    /// The player who invited.
    pub invited_by: String,
    pub state: InvitationState,
    pub created_at: String,
    pub expires_at: String,
    /// Seats taken with it (a link may fill several).
    pub uses: i32,
    /// A link's cap on the seats it fills (absent: until the game is full).
    pub max_uses: Option<i32>,
}

/// An invitation as the account invited sees it: the game with it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MyInvitation {
    pub id: i64,
    /// The player who invited.
    pub invited_by: String,
    pub created_at: String,
    pub expires_at: String,
    /// The game (kind, seats, options, turn clock), as the lobby lists it.
    pub game: GameSummary,
}

/// Whom, or what, an invitation invites.
#[derive(Clone, Debug)]
pub enum Invitee {
    /// The account of this name.
    Player(String),
    /// Whoever holds the link's code, at most `max_uses` of them.
    Link { max_uses: Option<i32> },
}

/// SHA-256 of a link's code: what is stored and looked up.
fn code_hash(code: &str) -> Vec<u8> {
    Sha256::digest(code.as_bytes()).to_vec()
}

const INVITATION_COLUMNS: &str =
    "i.id, i.game_id, p.name, i.code_hash IS NOT NULL, b.name, i.state,
    (extract(epoch FROM i.created_at) * 1000)::bigint, i.expires_ms, i.uses, i.max_uses";

const INVITATION_FROM: &str = "invitations i JOIN accounts b ON b.id = i.invited_by
    LEFT JOIN accounts p ON p.id = i.account_id";

fn state(stored: &str, expires_ms: i64, now: i64) -> Result<InvitationState> {
    Ok(match stored {
        "pending" if expires_ms <= now => InvitationState::Expired,
        "pending" => InvitationState::Pending,
        "accepted" => InvitationState::Accepted,
        "declined" => InvitationState::Declined,
        "revoked" => InvitationState::Revoked,
        other => return Err(StoreError::Corrupt(format!("invitation state {other}"))),
    })
}

fn invitation_from_row(row: &Row, now: i64) -> Result<Invitation> {
    let expires_ms: i64 = row.get(7);
    Ok(Invitation {
        id: row.get(0),
        game_id: row.get(1),
        player: row.get(2),
        link: row.get(3),
        invited_by: row.get(4),
        state: state(row.get(5), expires_ms, now)?,
        created_at: rfc3339(row.get(6)),
        expires_at: rfc3339(expires_ms),
        uses: row.get(8),
        max_uses: row.get(9),
    })
}

/// How a seat is taken (see [`Store::admit`]).
pub(crate) enum Admission {
    /// An open game, or the account's own invitation by name.
    Plain,
    /// With this link.
    Link(i64),
}

impl Store {
    /// Judges a request to take a seat, inside the join's transaction (the game's row locked).
    /// A link's code is checked whenever one is given; a private game needs one, or the
    /// account's own invitation by name. Whoever may not watch a private game is told it does
    /// not exist, whatever they sent.
    pub(crate) async fn admit(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
        private: bool,
        seated: bool,
        code: Option<&str>,
    ) -> Result<Admission> {
        let now = self.now_ms();
        let seat = seated.then_some(0);
        if let Some(code) = code {
            let row = client
                .query_opt(
                    "SELECT id, state, expires_ms, uses, max_uses FROM invitations
                     WHERE game_id = $1 AND code_hash = $2 FOR UPDATE",
                    &[&game_id, &code_hash(code)],
                )
                .await?;
            let Some(row) = row else {
                return Err(
                    if self
                        .may_watch(client, game_id, Watching { private, seat }, reader)
                        .await?
                    {
                        StoreError::Refused(Refusal::InvitationInvalid)
                    } else {
                        StoreError::Refused(Refusal::GameNotFound(game_id))
                    },
                );
            };
            let stored: &str = row.get(1);
            let uses: i32 = row.get(3);
            let max_uses: Option<i32> = row.get(4);
            return match state(stored, row.get(2), now)? {
                InvitationState::Revoked => Err(StoreError::Refused(Refusal::InvitationRevoked)),
                InvitationState::Expired => Err(StoreError::Refused(Refusal::InvitationExpired)),
                _ if max_uses.is_some_and(|m| uses >= m) => {
                    Err(StoreError::Refused(Refusal::InvitationUsedUp))
                }
                _ => Ok(Admission::Link(row.get(0))),
            };
        }
        if !private || seated {
            return Ok(Admission::Plain);
        }
        if self
            .may_watch(
                client,
                game_id,
                Watching {
                    private,
                    seat: None,
                },
                reader,
            )
            .await?
        {
            let named = client
                .query_opt(
                    "SELECT 1 FROM invitations WHERE game_id = $1 AND account_id = $2
                       AND state = 'pending' AND expires_ms > $3",
                    &[&game_id, &reader.account(), &now],
                )
                .await?;
            match named {
                Some(_) => Ok(Admission::Plain),
                None => Err(StoreError::Refused(Refusal::InvitationRequired)),
            }
        } else {
            Err(StoreError::Refused(Refusal::GameNotFound(game_id)))
        }
    }

    /// After a seat is taken: the account's invitation by name is accepted, and a link counts
    /// one use more.
    pub(crate) async fn admitted(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: i64,
        admission: Admission,
    ) -> Result<()> {
        client
            .execute(
                "UPDATE invitations SET state = 'accepted', uses = 1, answered_at = now()
                 WHERE game_id = $1 AND account_id = $2 AND state = 'pending'",
                &[&game_id, &account],
            )
            .await?;
        if let Admission::Link(id) = admission {
            client
                .execute(
                    "UPDATE invitations SET uses = uses + 1 WHERE game_id = $1 AND id = $2",
                    &[&game_id, &id],
                )
                .await?;
        }
        Ok(())
    }

    /// The caller must sit at the game (others who may watch it: `NotSeated`; the rest:
    /// `GameNotFound`), and with `open_only` it must still be open.
    async fn inviter_sits(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
        open_only: bool,
    ) -> Result<()> {
        let row = client
            .query_opt(
                "SELECT g.status, g.visibility = 'private',
                        EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.account_id = $2)
                 FROM games g WHERE g.id = $1",
                &[&game_id, &reader.account()],
            )
            .await?
            .ok_or(Refusal::GameNotFound(game_id))?;
        let status: String = row.get(0);
        if !row.get::<_, bool>(2) {
            let seen = Watching {
                private: row.get(1),
                seat: None,
            };
            self.must_watch(client, game_id, seen, reader).await?;
            return Err(StoreError::Refused(Refusal::NotSeated));
        }
        if open_only && status != "open" {
            return Err(StoreError::Refused(Refusal::NotOpen(status)));
        }
        Ok(())
    }

    /// Invites a player by name or creates a link; returns the invitation and, for a link, its
    /// code (shown this once). The account invited is told on `/v1/me/stream` and by its
    /// `invitation` webhooks, mail and pushes, queued in the same transaction; an invitation of
    /// a stranger is judged and announced within `bounds` (`invitation_bounds.rs`).
    pub async fn invite(
        &self,
        game_id: i64,
        inviter: i64,
        invitee: &Invitee,
        expires_in_hours: i64,
        bounds: InvitationBounds,
    ) -> Result<(Invitation, Option<String>)> {
        let now = self.now_ms();
        let expires_ms = now + expires_in_hours * 3_600_000;
        let reader = Reader::player(inviter);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        self.inviter_sits(&tx, game_id, reader, true).await?;
        let (id, code, account, from_stranger) = match invitee {
            Invitee::Player(name) => {
                let row = tx
                    .query_opt(
                        "SELECT a.id, a.name, EXISTS (SELECT 1 FROM seats s WHERE s.game_id = $2 AND s.account_id = a.id),
                                a.bot
                         FROM accounts a WHERE lower(a.name) = lower($1) AND a.deleted_at IS NULL",
                        &[name, &game_id],
                    )
                    .await?
                    .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.clone())))?;
                let (account, name): (i64, String) = (row.get(0), row.get(1));
                if row.get::<_, bool>(2) {
                    return Err(StoreError::Refused(Refusal::InviteeSeated(name)));
                }
                // It would wait for an answer that never comes.
                if row.get::<_, bool>(3) {
                    return Err(StoreError::Refused(Refusal::InviteeIsBot(name)));
                }
                let from_stranger = strangers(&tx, inviter, account).await?;
                if from_stranger {
                    judge_stranger(&tx, inviter, account, &name, bounds).await?;
                }
                // An invitation whose time ran out makes way for a new one.
                tx.execute(
                    "UPDATE invitations SET state = 'revoked', answered_at = now()
                     WHERE game_id = $1 AND account_id = $2 AND state = 'pending' AND expires_ms <= $3",
                    &[&game_id, &account, &now],
                )
                .await?;
                let row = tx
                    .query_one(
                        "INSERT INTO invitations (game_id, invited_by, account_id, expires_ms, from_stranger)
                         VALUES ($1, $2, $3, $4, $5) RETURNING id",
                        &[&game_id, &inviter, &account, &expires_ms, &from_stranger],
                    )
                    .await
                    .map_err(|e| match violated_constraint(&e) {
                        Some("invitations_pending") => StoreError::Refused(Refusal::AlreadyInvited(name.clone())),
                        _ => account_must_exist(e),
                    })?;
                (row.get::<_, i64>(0), None, Some(account), from_stranger)
            }
            Invitee::Link { max_uses } => {
                let code = to_hex(&random_bytes()[..CODE_BYTES]);
                let row = tx
                    .query_one(
                        "INSERT INTO invitations (game_id, invited_by, code_hash, max_uses, expires_ms)
                         VALUES ($1, $2, $3, $4, $5) RETURNING id",
                        &[&game_id, &inviter, &code_hash(&code), max_uses, &expires_ms],
                    )
                    .await
                    .map_err(account_must_exist)?;
                (row.get::<_, i64>(0), Some(code), None, false)
            }
        };
        if let Some(account) = account {
            let announce =
                !from_stranger || announce_from_stranger(&tx, account, id, bounds).await?;
            self.tell_invited(&tx, account, id, announce).await?;
        }
        let invitation = self
            .game_invitations_in(&tx, game_id, Some(id))
            .await?
            .pop()
            .ok_or(Refusal::InvitationNotFound(id))?;
        tx.commit().await?;
        Ok((invitation, code))
    }

    /// Queues the `invitation` webhooks of the account invited, and its mail and pushes when
    /// `announce`, and wakes its streams (in every process, on commit).
    async fn tell_invited(
        &self,
        client: &impl GenericClient,
        account: i64,
        invitation: i64,
        announce: bool,
    ) -> Result<()> {
        let Some(mine) = self.my_invitation_in(client, account, invitation).await? else {
            return Ok(());
        };
        let now = self.now_ms();
        let body = serde_json::json!({
            "kind": "invitation",
            "created_at": rfc3339(now),
            "invitation": mine,
        });
        let mut queued = client
            .execute(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, kind, body, next_attempt_ms)
                 SELECT gen_random_uuid(), w.id, 'invitation', $2::jsonb, $3
                 FROM webhooks w WHERE w.account_id = $1 AND 'invitation' = ANY (w.kinds)",
                &[&account, &body, &now],
            )
            .await?;
        if announce {
            queued +=
                crate::notices::queue_for_account(client, account, "invitation", None, &body, now)
                    .await?;
        }
        client
            .query_one(
                &format!("SELECT pg_notify('{CHANNEL}', $1::text)"),
                &[&crate::live::hub::invitation_payload(
                    account,
                    invitation,
                    queued as i64,
                )],
            )
            .await?;
        Ok(())
    }

    /// The game's invitations, newest first: for its seated players only.
    pub async fn game_invitations(&self, game_id: i64, reader: Reader) -> Result<Vec<Invitation>> {
        let client = self.pool.get().await?;
        self.inviter_sits(&client, game_id, reader, false).await?;
        self.game_invitations_in(&client, game_id, None).await
    }

    async fn game_invitations_in(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        only: Option<i64>,
    ) -> Result<Vec<Invitation>> {
        let rows = client
            .query(
                &format!(
                    "SELECT {INVITATION_COLUMNS} FROM {INVITATION_FROM}
                     WHERE i.game_id = $1 AND ($2::bigint IS NULL OR i.id = $2) ORDER BY i.id DESC"
                ),
                &[&game_id, &only],
            )
            .await?;
        let now = self.now_ms();
        rows.iter().map(|r| invitation_from_row(r, now)).collect()
    }

    /// Revokes a pending invitation or a link (any seated player may, while the game is open
    /// or later: a link stops working at once).
    pub async fn revoke_invitation(&self, game_id: i64, reader: Reader, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        self.inviter_sits(&client, game_id, reader, false).await?;
        let row = client
            .query_opt(
                "WITH old AS (SELECT state FROM invitations WHERE game_id = $1 AND id = $2),
                      upd AS (UPDATE invitations SET state = 'revoked', answered_at = now()
                              WHERE game_id = $1 AND id = $2 AND state = 'pending' RETURNING 1)
                 SELECT old.state, EXISTS (SELECT 1 FROM upd) FROM old",
                &[&game_id, &id],
            )
            .await?
            .ok_or(Refusal::InvitationNotFound(id))?;
        if !row.get::<_, bool>(1) {
            return Err(StoreError::Refused(Refusal::InvitationNotPending(
                row.get(0),
            )));
        }
        Ok(())
    }

    /// The account's pending invitations to games still open, newest first.
    pub async fn my_invitations(&self, account: i64) -> Result<Vec<MyInvitation>> {
        let client = self.pool.get().await?;
        self.my_invitations_in(&client, account, None).await
    }

    /// One of them (`None` once answered, expired, revoked, or its game is no longer open).
    pub async fn my_invitation(&self, account: i64, id: i64) -> Result<Option<MyInvitation>> {
        let client = self.pool.get().await?;
        self.my_invitation_in(&client, account, id).await
    }

    async fn my_invitation_in(
        &self,
        client: &impl GenericClient,
        account: i64,
        id: i64,
    ) -> Result<Option<MyInvitation>> {
        Ok(self
            .my_invitations_in(client, account, Some(id))
            .await?
            .pop())
    }

    async fn my_invitations_in(
        &self,
        client: &impl GenericClient,
        account: i64,
        only: Option<i64>,
    ) -> Result<Vec<MyInvitation>> {
        let w = SUMMARY_WIDTH;
        let rows = client
            .query(
                &format!(
                    "SELECT {SUMMARY_COLUMNS}, i.id, b.name,
                            (extract(epoch FROM i.created_at) * 1000)::bigint, i.expires_ms
                     FROM invitations i JOIN games g ON g.id = i.game_id
                          JOIN accounts b ON b.id = i.invited_by
                     WHERE i.account_id = $1 AND i.state = 'pending' AND i.expires_ms > $2
                       AND g.status = 'open' AND ($3::bigint IS NULL OR i.id = $3)
                     ORDER BY i.id DESC"
                ),
                &[&account, &self.now_ms(), &only],
            )
            .await?;
        let now = self.now_ms();
        rows.iter()
            .map(|row| {
                Ok(MyInvitation {
                    id: row.get(w),
                    invited_by: row.get(w + 1),
                    created_at: rfc3339(row.get(w + 2)),
                    expires_at: rfc3339(row.get(w + 3)),
                    game: summary_from_row(row, now)?,
                })
            })
            .collect()
    }

    /// The account's pending invitation by name (`InvitationNotFound` if it is not theirs;
    /// `InvitationExpired`, `InvitationNotPending` once it cannot be answered). Returns its game.
    async fn pending_of(&self, account: i64, id: i64) -> Result<i64> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT game_id, state, expires_ms FROM invitations WHERE id = $1 AND account_id = $2",
                &[&id, &account],
            )
            .await?
            .ok_or(Refusal::InvitationNotFound(id))?;
        let stored: String = row.get(1);
        match state(&stored, row.get(2), self.now_ms())? {
            InvitationState::Pending => Ok(row.get(0)),
            InvitationState::Expired => Err(StoreError::Refused(Refusal::InvitationExpired)),
            _ => Err(StoreError::Refused(Refusal::InvitationNotPending(stored))),
        }
    }

    /// Accepts an invitation by name: takes a free seat exactly as joining does.
    pub async fn accept_invitation(
        &self,
        reader: Reader,
        id: i64,
        client_seed: Option<&str>,
    ) -> Result<GameSummary> {
        let account = reader.account().ok_or(Refusal::UnknownAccount)?;
        let game_id = self.pending_of(account, id).await?;
        self.join_with(game_id, reader, client_seed, None).await
    }

    /// Declines an invitation by name: the game is no longer the account's to see.
    pub async fn decline_invitation(&self, account: i64, id: i64) -> Result<()> {
        let game_id = self.pending_of(account, id).await?;
        let client = self.pool.get().await?;
        let declined = client
            .execute(
                "UPDATE invitations SET state = 'declined', answered_at = now()
                 WHERE game_id = $1 AND id = $2 AND state = 'pending'",
                &[&game_id, &id],
            )
            .await?;
        if declined == 0 {
            return Err(StoreError::Refused(Refusal::InvitationNotPending(
                "answered".into(),
            )));
        }
        Ok(())
    }
}
