//! The error answers several operations share, declared once for the spec. Each type is one
//! response (`utoipa::IntoResponses`), named in an operation's `responses(...)` beside its own
//! tuples: `responses((status = 200, …), NoOrBadToken, NoSuchGame)`. The types only describe;
//! the handlers answer through [`crate::error::ApiError`] as before.

use utoipa::IntoResponses;

use crate::error::Problem;

/// The 429 of commands, and of creating games and taking seats, which count as commands.
const COMMAND_LIMIT: &str = "`rate_limited`: this account sent more commands (creating games and taking seats count too) than its limit allows (`LIMIT_COMMANDS`, by default 120 per 10 s); `Retry-After` says when to send the next";

/// The 429 of replays and audits.
const EXPENSIVE_LIMIT: &str = "`rate_limited`: this address asked for more replays and audits than its limit allows (`LIMIT_EXPENSIVE_READS`, by default 60 per 10 s); `Retry-After` says when to ask again";

/// The 429 of the live streams.
const STREAM_LIMIT: &str = "`rate_limited`: this client address holds as many open streams as it may (`STREAMS_PER_ADDRESS`, by default 50, per server process); or the stream starts at the beginning of the log (no `Last-Event-ID`, or 0) or more than a batch (500 events) behind, which counts as a replay, and this address asked for more than `LIMIT_EXPENSIVE_READS` allows (by default 60 per 10 s)";

/// The 429 of registering and logging in.
const LOGIN_LIMIT: &str = "`rate_limited`: too many attempts from this address or on this name; `Retry-After` says when to try again";

/// Declares each response as a type whose body is a [`Problem`]: `Name: status, description;`,
/// or with `retry_after = "…"` the description of its `Retry-After` header (a 429).
macro_rules! problems {
    ($($(#[$doc:meta])* $name:ident: $status:tt, $description:tt $(, retry_after = $wait:tt)?;)*) => {$(
        $(#[$doc])*
        #[derive(IntoResponses)]
        #[response(status = $status, description = $description,
            content_type = "application/problem+json"
            $(, headers(("Retry-After" = u64, description = $wait)))?)]
        // The field only names the body's schema; the type is never built.
        #[allow(dead_code)]
        pub struct $name(Problem);
    )*};
}

problems! {
    // The caller's token.
    /// A route for accounts only.
    NoOrBadToken: 401, "No or bad token";
    /// A route anybody may read, where a token sent must be good.
    BadToken: 401, "Bad token";

    // What the path names.
    NoSuchGame: 404, "No such game";
    NoSuchAccount: 404, "No account of that name (`not_found`)";
    NoSuchKind: 404, "No such kind (`kind_not_found`)";
    NoSuchInvitation: 404, "No such invitation of yours (`invitation_not_found`)";
    /// A rematch's answers: the game, or its proposal.
    NoRematch: 404, "No such game, or a private game you may not watch (`game_not_found`); or no proposal (`no_rematch`)";

    // Who the caller is.
    NotSeated: 403, "The caller does not sit at this game (`not_seated`)";
    /// A finished game's players only, and not while suspended (a rematch).
    NotSeatedOrSuspended: 403, "You did not sit at this game (`not_seated`); the account is suspended (`account_suspended`, saying why and until when)";
    NotAModerator: 403, "Not a moderator (`not_a_moderator`)";

    // What the request says.
    Malformed: 400, "Malformed";
    BadQuery: 400, "Bad query (`invalid_query`)";
    BadClientSeed: 400, "Malformed body or bad client seed (`invalid_client_seed`)";
    /// A moderator's reason for an action.
    BadReason: 400, "Malformed body or a reason empty, too long or not plain (`invalid_reason`)";

    // The state of what is asked about.
    /// A command or take-back decided on another version, or before the game started.
    VersionConflict: 409, "`expected_version` is not the game's version (`version_conflict`), or the game has not started (`game_not_started`)";
    RematchNotOpen: 409, "The proposal is declined, expired or accepted already (`rematch_not_open`), or you answered it already (`rematch_already_answered`)";

    // Limits.
    CommandLimit: 429, COMMAND_LIMIT, retry_after = "Seconds until the next command may be sent";
    ExpensiveLimit: 429, EXPENSIVE_LIMIT, retry_after = "Seconds until the next replay or audit may be asked for";
    StreamLimit: 429, STREAM_LIMIT, retry_after = "Seconds until trying again";
    LoginLimit: 429, LOGIN_LIMIT, retry_after = "Seconds until a new attempt may succeed";
    /// Changing a password or deleting an account: attempts on one name.
    NameAttempts: 429, "`rate_limited`: too many attempts on this name", retry_after = "Seconds until a new attempt may succeed";
}

/// The links in mails (confirming an address, unsubscribing) answer with pages, not problems.
#[derive(IntoResponses)]
#[response(
    status = 404,
    description = "No such link (an HTML page)",
    content_type = "text/html"
)]
pub struct NoSuchLink;
