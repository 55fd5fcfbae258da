use baumeister_domain::DomainError;

/// Everything the store can refuse or fail with. `api` maps each to one HTTP status and code.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no game with id {0}")]
    GameNotFound(i64),
    #[error("the name `{0}` is taken")]
    NameTaken(String),
    #[error("the name `{name}` is too easily confused with the existing name `{existing}`")]
    NameConfusable { name: String, existing: String },
    #[error(
        "the name `{0}` belonged to a deleted account and is retired for a while: choose another"
    )]
    NameRetired(String),
    #[error("no account is named `{0}`")]
    UnknownAccountName(String),
    #[error("only the game's creator may seat bots")]
    NotCreator,
    #[error("this game has seats 0 to {}, not {seat}", seat_count - 1)]
    NoSuchSeat { seat: u8, seat_count: u8 },
    #[error("seat {0} is taken")]
    SeatTaken(u8),
    #[error("no bot of level `{0}` is free for this game")]
    NoBotAccount(&'static str),
    /// Only the random level plays the kind yet (`bots::supports`).
    #[error("the greedy and strong bots do not play {0} yet")]
    BotLevelUnavailable(String),
    #[error("you already sit at this game")]
    AlreadySeated,
    #[error("this game is not open for joining: it is {0}")]
    NotOpen(String),
    #[error("this game has not started yet: it waits for more players")]
    NotStarted,
    #[error("you do not sit at this game")]
    NotSeated,
    /// A take-back the rule refuses (`baumeister_domain::take_back`): the code says why.
    #[error("{}", .0.message())]
    Undo(baumeister_domain::take_back::Refusal),
    #[error("the account of this token no longer exists")]
    UnknownAccount,
    #[error("the game is at version {actual}, not {expected}")]
    VersionConflict { expected: i64, actual: i64 },
    #[error("this Idempotency-Key was already used for a different command")]
    IdempotencyKeyReused,
    #[error("version {0} is outside this game's log")]
    VersionOutOfRange(i64),
    #[error("a game is exported once it has ended: until then the export would carry the game's secret, from which every later draw follows (auditors see a running game whole in its view, and `/audit` checks it)")]
    ExportWhileRunning,
    #[error("this game was created before provable fairness (it has no committed secret), so it cannot be exported; its audit still checks it")]
    NotExportable,
    #[error("importing games is for auditors")]
    NotAuditor,
    #[error("the export does not verify: {0}")]
    ImportRefused(String),
    #[error("the export's head is signed by key {0}, which this server does not trust: only its own key and the keys its operator lists in TRUSTED_KEYS are imported")]
    UntrustedKey(String),
    #[error("a game with this uid is already on this server (game {0})")]
    AlreadyImported(i64),
    #[error("a vacation ends in the future: to end the current one now, use DELETE")]
    VacationNotInFuture,
    #[error("this vacation would make {asked_days} days of vacation in {year}; the allowance is {allowance_days} days per calendar year")]
    VacationAllowanceExceeded {
        year: i64,
        asked_days: f64,
        allowance_days: i64,
    },
    #[error(transparent)]
    Domain(#[from] DomainError),
    #[error("no webhook with id {0} is yours")]
    WebhookNotFound(i64),
    #[error("an account may register at most {0} webhooks; delete one first")]
    TooManyWebhooks(i64),
    #[error("no push subscription with id {0} is yours")]
    PushSubscriptionNotFound(i64),
    #[error("an account may subscribe at most {0} devices to push; unsubscribe one first")]
    TooManyPushSubscriptions(i64),
    #[error("at most {0} confirmation mails a day are sent for an account; try again tomorrow")]
    TooManyConfirmations(i64),
    #[error("this account has no email address")]
    NoEmail,
    #[error("this confirmation link is not valid (a newer one may have replaced it)")]
    ConfirmationInvalid,
    #[error("this confirmation link has expired; add the address again for a new one")]
    ConfirmationExpired,
    #[error("this unsubscribe link is not valid")]
    UnsubscribeInvalid,
    #[error("players write at the table: the spectators' channel is for accounts without a seat at this game")]
    SpectatorsOnly,
    #[error("you cannot mute yourself")]
    CannotMuteSelf,
    #[error("an account may mute at most {0} accounts; unmute one first")]
    TooManyMutes(i64),
    #[error("no chat message with id {0}")]
    ChatMessageNotFound(i64),
    #[error("chat message {0} was removed already")]
    ChatMessageAlreadyRemoved(i64),
    #[error("this game is private: it is joined with an invitation (by name, or a link's code as `invitation`)")]
    InvitationRequired,
    #[error("this is not an invitation to this game")]
    InvitationInvalid,
    #[error("this invitation has expired; ask for a new one")]
    InvitationExpired,
    #[error("this invitation was revoked")]
    InvitationRevoked,
    #[error("this link has filled as many seats as it may")]
    InvitationUsedUp,
    #[error("no invitation with id {0} is yours to see")]
    InvitationNotFound(i64),
    #[error("this invitation was already answered (it is {0})")]
    InvitationNotPending(String),
    #[error("`{0}` already has a pending invitation to this game")]
    AlreadyInvited(String),
    #[error("`{0}` already sits at this game")]
    InviteeSeated(String),
    /// A bot never answers an invitation: the game's creator seats it (`POST /v1/games/{id}/bots`).
    #[error("`{0}` is a bot: bots answer no invitations; the game's creator seats one with POST /v1/games/{{id}}/bots")]
    InviteeIsBot(String),
    /// The invitee refuses invitations from accounts it never played with.
    #[error("`{0}` accepts invitations only from players it has played with")]
    InvitationRefused(String),
    /// `retry_after_s`: when the oldest of them is a day old.
    #[error("an account may invite at most {limit} players it never played with in a day; try again in {retry_after_s} s")]
    TooManyInvitations { limit: i64, retry_after_s: u64 },
    #[error("a rematch is proposed once the game has finished")]
    GameNotFinished,
    #[error("a rematch of this game is already proposed or being played")]
    RematchExists,
    #[error("nobody has proposed a rematch of game {0}")]
    NoRematch(i64),
    #[error("the rematch proposal is {0}: propose a new one")]
    RematchNotOpen(String),
    #[error("you have already answered this rematch proposal")]
    RematchAlreadyAnswered,
    #[error("a suspension ends in the future: to end one now, lift it")]
    SuspensionNotInFuture,
    #[error("`{0}` is not suspended")]
    NotSuspended(String),
    #[error("no report with id {0}")]
    ReportNotFound(i64),
    #[error("report {0} was resolved already")]
    ReportNotOpen(i64),
    #[error("you cannot report yourself")]
    CannotReportSelf,
    #[error("the game is too busy right now; try again")]
    Contention,
    #[error("database: {0}")]
    Database(tokio_postgres::Error),
    /// The connection to the database is gone or cannot be made (it is down, restarting or
    /// out of reach): nothing a client did, and it passes.
    #[error("the database does not answer: {0}")]
    Unavailable(String),
    #[error("database pool: {0}")]
    Pool(String),
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        StoreError::Unavailable(e.to_string())
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        if lost_connection(&e) {
            crate::lost_connections::connection_lost();
            StoreError::Unavailable(e.to_string())
        } else {
            StoreError::Database(e)
        }
    }
}

/// Whether a statement failed because the database went away rather than because of the
/// statement: the connection closed or broke, the server is shutting down, starting or
/// refusing connections, or the node no longer takes writes (a primary demoted, or a standby
/// not yet done with its promotion: docs/failover.md).
fn lost_connection(e: &tokio_postgres::Error) -> bool {
    use tokio_postgres::error::SqlState;
    match e.code() {
        Some(code) => {
            code.code().starts_with("08")
                || [
                    SqlState::ADMIN_SHUTDOWN,
                    SqlState::CRASH_SHUTDOWN,
                    SqlState::CANNOT_CONNECT_NOW,
                    SqlState::READ_ONLY_SQL_TRANSACTION,
                ]
                .contains(code)
        }
        None => {
            e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The name of the unique constraint a statement violated, if that is why it failed.
pub(crate) fn violated_constraint(e: &tokio_postgres::Error) -> Option<&str> {
    let db = e.as_db_error()?;
    if *db.code() == tokio_postgres::error::SqlState::UNIQUE_VIOLATION {
        db.constraint()
    } else {
        None
    }
}

/// Maps a foreign-key violation (an account id from a token that no longer exists, after the
/// database was reset under the same JWT secret) to `UnknownAccount`.
pub(crate) fn account_must_exist(e: tokio_postgres::Error) -> StoreError {
    match e.code() {
        Some(c) if *c == tokio_postgres::error::SqlState::FOREIGN_KEY_VIOLATION => {
            StoreError::UnknownAccount
        }
        _ => e.into(),
    }
}

/// A transaction that lost a race the database noticed (serialization failure, deadlock).
/// A commit refused by a serialization failure or a deadlock is a lost race (`Contention`,
/// decided again by the caller); any other failure is what it is.
pub(crate) fn lost_race(e: tokio_postgres::Error) -> StoreError {
    if is_retryable(&e) {
        StoreError::Contention
    } else {
        e.into()
    }
}

pub(crate) fn is_retryable(e: &tokio_postgres::Error) -> bool {
    use tokio_postgres::error::SqlState;
    matches!(
        e.code(),
        Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    )
}
