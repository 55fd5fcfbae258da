//! What the store refuses to do because of what was asked: the caller's to change, each with a
//! stable code and a class the API answers with its HTTP status. What goes wrong on the server's
//! side (the database, contention, damaged data) is a fault instead: see [`crate::StoreError`].

use baumeister_domain::take_back;

/// A request the store turns down; nothing was changed. `code()` is stable (clients branch on
/// it); the message says what is wrong in words.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
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
    Undo(take_back::Refusal),
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
}

/// Which kind of "no" a refusal is: the API answers each class with one HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// The request names something in a form that cannot be (400).
    Malformed,
    /// The caller is not who the request needs (401).
    Unauthenticated,
    /// The caller may not do this (403).
    Forbidden,
    /// What the request names does not exist, or not for this caller (404).
    NotFound,
    /// The state of things does not allow it now (409).
    Conflict,
    /// What the request names existed and has expired (410).
    Gone,
    /// Well formed, but against a rule (422).
    Unprocessable,
    /// A limit is used up for now (429).
    TooMany,
}

impl Refusal {
    /// The refusal's class and its stable code.
    pub fn kind(&self) -> (Class, &'static str) {
        use Class::*;
        use Refusal::*;
        match self {
            GameNotFound(_) => (NotFound, "game_not_found"),
            NameTaken(_) => (Conflict, "name_taken"),
            NameConfusable { .. } => (Conflict, "name_confusable"),
            NameRetired(_) => (Conflict, "name_retired"),
            UnknownAccountName(_) => (NotFound, "not_found"),
            NotCreator => (Forbidden, "not_creator"),
            NoSuchSeat { .. } => (Malformed, "no_such_seat"),
            SeatTaken(_) => (Conflict, "seat_taken"),
            NoBotAccount(_) => (Conflict, "no_bot_free"),
            BotLevelUnavailable(_) => (Unprocessable, "bot_level_unavailable"),
            AlreadySeated => (Conflict, "already_seated"),
            NotOpen(_) => (Conflict, "game_not_open"),
            NotStarted => (Conflict, "game_not_started"),
            NotSeated => (Forbidden, "not_seated"),
            Undo(refusal) => (Unprocessable, refusal.code()),
            UnknownAccount => (Unauthenticated, "account_unknown"),
            VersionConflict { .. } => (Conflict, "version_conflict"),
            IdempotencyKeyReused => (Unprocessable, "idempotency_key_reused"),
            VersionOutOfRange(_) => (Malformed, "version_out_of_range"),
            ExportWhileRunning => (Conflict, "game_not_ended"),
            NotExportable => (Conflict, "not_exportable"),
            NotAuditor => (Forbidden, "not_auditor"),
            ImportRefused(_) => (Unprocessable, "import_refused"),
            UntrustedKey(_) => (Unprocessable, "untrusted_key"),
            AlreadyImported(_) => (Conflict, "already_imported"),
            VacationNotInFuture => (Unprocessable, "vacation_not_in_future"),
            VacationAllowanceExceeded { .. } => (Unprocessable, "vacation_allowance_exceeded"),
            WebhookNotFound(_) => (NotFound, "webhook_not_found"),
            TooManyWebhooks(_) => (Conflict, "too_many_webhooks"),
            PushSubscriptionNotFound(_) => (NotFound, "push_subscription_not_found"),
            TooManyPushSubscriptions(_) => (Conflict, "too_many_push_subscriptions"),
            TooManyConfirmations(_) => (TooMany, "too_many_confirmations"),
            NoEmail => (NotFound, "no_email"),
            ConfirmationInvalid => (NotFound, "confirmation_invalid"),
            ConfirmationExpired => (Gone, "confirmation_expired"),
            UnsubscribeInvalid => (NotFound, "unsubscribe_invalid"),
            SpectatorsOnly => (Forbidden, "spectators_only"),
            CannotMuteSelf => (Unprocessable, "cannot_mute_self"),
            TooManyMutes(_) => (Conflict, "too_many_mutes"),
            ChatMessageNotFound(_) => (NotFound, "chat_message_not_found"),
            ChatMessageAlreadyRemoved(_) => (Conflict, "chat_message_removed"),
            InvitationRequired => (Forbidden, "invitation_required"),
            InvitationInvalid => (Forbidden, "invitation_invalid"),
            InvitationExpired => (Forbidden, "invitation_expired"),
            InvitationRevoked => (Forbidden, "invitation_revoked"),
            InvitationUsedUp => (Forbidden, "invitation_used_up"),
            InvitationNotFound(_) => (NotFound, "invitation_not_found"),
            InvitationNotPending(_) => (Conflict, "invitation_not_pending"),
            AlreadyInvited(_) => (Conflict, "already_invited"),
            InviteeSeated(_) => (Conflict, "already_seated"),
            InviteeIsBot(_) => (Unprocessable, "invitee_is_bot"),
            InvitationRefused(_) => (Forbidden, "invitation_refused"),
            TooManyInvitations { .. } => (TooMany, "too_many_invitations"),
            GameNotFinished => (Conflict, "game_not_finished"),
            RematchExists => (Conflict, "rematch_exists"),
            NoRematch(_) => (NotFound, "no_rematch"),
            RematchNotOpen(_) => (Conflict, "rematch_not_open"),
            RematchAlreadyAnswered => (Conflict, "rematch_already_answered"),
            SuspensionNotInFuture => (Unprocessable, "suspension_not_in_future"),
            NotSuspended(_) => (Conflict, "not_suspended"),
            ReportNotFound(_) => (NotFound, "report_not_found"),
            ReportNotOpen(_) => (Conflict, "report_not_open"),
            CannotReportSelf => (Unprocessable, "cannot_report_self"),
        }
    }

    /// Seconds until asking again may succeed, where the refusal knows.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Refusal::TooManyInvitations { retry_after_s, .. } => Some(*retry_after_s),
            _ => None,
        }
    }
}
