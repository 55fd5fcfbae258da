//! Moderation (docs/moderation.md): players report chat messages and players; moderators (a
//! role the operator grants, `baumeister moderator grant NAME`) work the queue of reports,
//! remove messages, suspend accounts for a time and lift suspensions; every action of theirs is
//! in the moderation log, which they read here.
//!
//! A suspended account may still play its running games (its turn clock runs as usual); it may
//! not chat, create or join games, seat bots, answer invitations or rematches by taking a seat,
//! or invite: those answer 403 `account_suspended` ([`not_suspended`]). Everybody else is
//! refused the moderators' routes with 403 `not_a_moderator`: the routes are public in the spec,
//! so hiding them behind a 404 would hide nothing.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{
    FiledReport, ModerationEntry, Report, ReportCategory, ReportState, ReportTarget, Suspension,
    MODERATION_REASON_MAX_CHARS, REPORT_MAX_CHARS,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Account, Caller};
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::paging;
use crate::routes::path_params::AccountName;
use crate::routes::problems::{BadQuery, BadReason, NoOrBadToken, NoSuchAccount, NotAModerator};
use crate::AppState;

/// The 429 of reports.
const REPORT_LIMIT: &str = "`rate_limited`: this account filed more reports than `LIMIT_REPORTS` allows (by default 10 per hour)";

/// Refuses a suspended account's social actions and new games: 403 `account_suspended`, the
/// detail saying until when and why. A suspension whose time has passed is over.
pub(crate) fn not_suspended(state: &AppState, account: &Account) -> ApiResult<()> {
    match &account.suspension {
        Some(s) if s.in_force(state.store.now_ms()) => Err(ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            "account_suspended",
            format!(
                "This account is suspended until {}, because: {}. Until then it may not chat, create or join games, seat bots or invite; its running games go on (moves are accepted and the turn clock runs as usual).",
                s.until, s.reason
            ),
        )),
        _ => Ok(()),
    }
}

/// The caller, if a moderator: else 401 (no token) or 403 `not_a_moderator`.
fn moderator(caller: Caller) -> ApiResult<Account> {
    let account = caller.require()?;
    if account.moderator {
        Ok(account)
    } else {
        Err(ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            "not_a_moderator",
            "This is for moderators; the operator grants the role (`baumeister moderator grant NAME`).",
        ))
    }
}

/// Trims `text` and checks it is plain text (newlines allowed) of `min` to `max` characters;
/// else 400 `code`.
fn words<'a>(text: &'a str, what: &str, min: usize, max: usize, code: &str) -> ApiResult<&'a str> {
    let text = text.trim();
    let chars = text.chars().count();
    if !(min..=max).contains(&chars) {
        return Err(ApiError::bad_request(
            code,
            format!("{what} has {min} to {max} characters once trimmed; this one has {chars}."),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::bad_request(
            code,
            format!(
                "{what} is plain text: newlines are allowed, other control characters are not."
            ),
        ));
    }
    Ok(text)
}

fn reason(text: &str) -> ApiResult<&str> {
    words(
        text,
        "A reason",
        1,
        MODERATION_REASON_MAX_CHARS,
        "invalid_reason",
    )
}

/// A report to file: of a chat message (`message_id`) or of a player (`player`), one of them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    /// The chat message reported (`id` in `GET /v1/games/{id}/chat`).
    #[schema(example = 17)]
    pub message_id: Option<i64>,
    /// The player reported, by name.
    #[schema(max_length = 64)]
    pub player: Option<String>,
    pub category: ReportCategory,
    /// What happened, in the reporter's words: 0 to 1000 characters of plain text (newlines
    /// allowed). Default empty.
    #[schema(max_length = 1000, example = "Insults after every move.")]
    pub text: Option<String>,
}

/// File a report of a chat message or of a player; moderators find it in their queue. A
/// message is reported only by those who may read it: a private game's message is, to others,
/// as absent as an id never used (404 `chat_message_not_found`). Reporting the same thing again
/// while the first report is open files nothing new: the open report is returned (200).
#[utoipa::path(post, path = "/v1/reports", tag = "moderation",
    request_body = NewReport,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Filed", body = FiledReport),
        (status = 200, description = "This reporter's open report of the same thing, filed before: nothing new", body = FiledReport),
        (status = 400, description = "Malformed body, neither or both of `message_id` and `player`, or a text too long or not plain (`invalid_report`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 404, description = "No such message (`chat_message_not_found`; also a private game's message the caller may not read) or account (`not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "That is the caller, or the caller's message (`cannot_report_self`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = REPORT_LIMIT, body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the next report may be filed"))),
    ))]
pub async fn report(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let reader = caller.reader();
    let account = caller.require()?;
    let new: NewReport = body::json(&req, payload, BODY_LIMIT).await?;
    let invalid = |detail: &str| ApiError::bad_request("invalid_report", detail);
    let target = match (new.message_id, new.player) {
        (Some(id), None) => ReportTarget::Message(id),
        (None, Some(name)) if !name.trim().is_empty() && name.len() <= 64 => {
            ReportTarget::Player(name.trim().to_string())
        }
        (None, Some(_)) => return Err(invalid("`player` is an account's name.")),
        _ => {
            return Err(invalid(
                "Report a chat message (`message_id`) or a player (`player`): one of them.",
            ))
        }
    };
    let text = words(
        new.text.as_deref().unwrap_or(""),
        "A report's text",
        0,
        REPORT_MAX_CHARS,
        "invalid_report",
    )?;
    state.limits.report(account.id)?;
    let (filed, new) = state
        .store
        .report(reader, &target, new.category, text)
        .await?;
    Ok(if new {
        HttpResponse::Created().json(filed)
    } else {
        HttpResponse::Ok().json(filed)
    })
}

/// The caller's standing: its roles and its suspension.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyStanding {
    pub name: String,
    /// Sees every game whole (granted by the operator).
    pub auditor: bool,
    /// Works the reports' queue (granted by the operator).
    pub moderator: bool,
    /// The suspension in force, if any: until it ends the account may not chat, create or join
    /// games, seat bots or invite (its running games go on).
    pub suspension: Option<Suspension>,
}

/// The caller's standing: roles and a suspension in force, with its reason and end.
#[utoipa::path(get, path = "/v1/me/standing", tag = "moderation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's standing", body = MyStanding),
        NoOrBadToken,
    ))]
pub async fn standing(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let now = state.store.now_ms();
    Ok(HttpResponse::Ok().json(MyStanding {
        name: account.name,
        auditor: account.auditor,
        moderator: account.moderator,
        suspension: account.suspension.filter(|s| s.in_force(now)),
    }))
}

/// Which reports of the queue.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReportsQuery {
    /// Only reports in this state (default: all, the open ones first).
    pub state: Option<ReportState>,
    /// Page size, 1–100 (default 50); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<i64>,
    /// How many reports to skip (default 0).
    #[param(minimum = 0, default = 0)]
    pub offset: Option<i64>,
}

/// A page of the reports' queue.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportPage {
    pub reports: Vec<Report>,
    /// Pass as `offset` for the next page; absent on the last page.
    pub next_offset: Option<i64>,
}

/// The queue of reports, for moderators: the open ones first (oldest first), then the
/// resolved ones (newest first). A reported message shows with its text even when removed.
#[utoipa::path(get, path = "/v1/moderation/reports", tag = "moderation",
    params(ReportsQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of reports", body = ReportPage),
        BadQuery, NoOrBadToken, NotAModerator,
    ))]
pub async fn reports(
    state: web::Data<AppState>,
    caller: Caller,
    q: web::Query<ReportsQuery>,
) -> ApiResult<HttpResponse> {
    moderator(caller)?;
    let limit = q.limit.unwrap_or(50);
    let offset = q.offset.unwrap_or(0);
    paging::check_offset_page(limit, offset)?;
    let mut reports = state.store.reports(q.state, limit + 1, offset).await?;
    let next_offset = paging::next_offset(&mut reports, limit, offset);
    Ok(HttpResponse::Ok().json(ReportPage {
        reports,
        next_offset,
    }))
}

/// How a moderator resolves a report.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportOutcome {
    /// Nothing to do.
    Dismiss,
    /// Acted on (the message removed, the account suspended, a word with the player, …).
    Act,
}

/// A report's resolution.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportResolution {
    pub outcome: ReportOutcome,
    /// Why, or what was done: 1 to 500 characters of plain text.
    #[schema(
        min_length = 1,
        max_length = 500,
        example = "Message removed; suspended a week."
    )]
    pub reason: String,
}

/// Resolve an open report: dismiss it, or mark it acted on. Recorded in the moderation log.
#[utoipa::path(post, path = "/v1/moderation/reports/{report_id}/resolve", tag = "moderation",
    params(("report_id" = i64, Path, description = "The report")),
    request_body = ReportResolution,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Resolved", body = Report),
        BadReason, NoOrBadToken, NotAModerator,
        (status = 404, description = "No such report (`report_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Resolved already (`report_not_open`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn resolve(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = moderator(caller)?;
    let id = ApiError::path_id(&id, "report_not_found", "Report")?;
    let body: ReportResolution = body::json(&req, payload, BODY_LIMIT).await?;
    let reason = reason(&body.reason)?;
    let outcome = match body.outcome {
        ReportOutcome::Dismiss => ReportState::Dismissed,
        ReportOutcome::Act => ReportState::Actioned,
    };
    let report = state
        .store
        .resolve_report(id, outcome, reason, &account.name)
        .await?;
    Ok(HttpResponse::Ok().json(report))
}

/// Why a moderator acts.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModerationReason {
    /// 1 to 500 characters of plain text.
    #[schema(min_length = 1, max_length = 500, example = "Insults.")]
    pub reason: String,
}

/// Remove a chat message, as the operator's `baumeister chat remove` does: its text is
/// withheld from every read from now on (it shows as removed, also to live streams), kept for
/// the record, and the removal is in the moderation log.
#[utoipa::path(post, path = "/v1/moderation/messages/{message_id}/remove", tag = "moderation",
    params(("message_id" = i64, Path, description = "The chat message")),
    request_body = ModerationReason,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Removed; the message as chat reads now show it", body = baumeister_storage::ChatMessage),
        BadReason, NoOrBadToken, NotAModerator,
        (status = 404, description = "No such message (`chat_message_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Removed already (`chat_message_removed`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn remove_message(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = moderator(caller)?;
    let id = ApiError::path_id(&id, "chat_message_not_found", "Chat message")?;
    let body: ModerationReason = body::json(&req, payload, BODY_LIMIT).await?;
    let reason = reason(&body.reason)?;
    let removed = state.store.remove_chat(id, &account.name, reason).await?;
    Ok(HttpResponse::Ok().json(removed))
}

/// A suspension to impose.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSuspension {
    /// When it ends (RFC 3339), in the future.
    #[schema(example = "2026-12-24T18:00:00Z")]
    pub until: String,
    /// Why: 1 to 500 characters of plain text, shown to the account.
    #[schema(min_length = 1, max_length = 500, example = "Insults in chat.")]
    pub reason: String,
}

/// A suspension in force, and whose.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountSuspension {
    pub account: String,
    pub suspension: Suspension,
}

/// The accounts suspended now.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuspensionList {
    /// The soonest to end first.
    pub suspensions: Vec<AccountSuspension>,
}

/// Suspend an account until a time, with a reason (replacing a suspension it has). Until then
/// it may not chat, create or join games, seat bots, invite, or take a seat by an invitation or
/// a rematch (403 `account_suspended`, which says why and until when); its running games go on.
/// Takes effect within a second in every server process.
#[utoipa::path(post, path = "/v1/moderation/accounts/{name}/suspend", tag = "moderation",
    params(AccountName),
    request_body = NewSuspension,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Suspended", body = AccountSuspension),
        (status = 400, description = "Malformed body, `until` not an RFC 3339 time (`invalid_until`), or a reason empty, too long or not plain (`invalid_reason`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken, NotAModerator, NoSuchAccount,
        (status = 422, description = "`until` is not in the future (`suspension_not_in_future`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn suspend(
    state: web::Data<AppState>,
    caller: Caller,
    name: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = moderator(caller)?;
    let body: NewSuspension = body::json(&req, payload, BODY_LIMIT).await?;
    let until = baumeister_storage::parse_rfc3339(body.until.trim()).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_until",
            "`until` is an RFC 3339 time, e.g. 2026-12-24T18:00:00Z.",
        )
    })?;
    let reason = reason(&body.reason)?;
    let suspended = state
        .store
        .suspend(&name, until, reason, &account.name)
        .await?;
    state.standings.forget(suspended.account_id);
    Ok(HttpResponse::Ok().json(AccountSuspension {
        account: suspended.account,
        suspension: suspended.suspension,
    }))
}

/// Lift an account's suspension now, with a reason.
#[utoipa::path(post, path = "/v1/moderation/accounts/{name}/lift", tag = "moderation",
    params(AccountName),
    request_body = ModerationReason,
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Lifted"),
        BadReason, NoOrBadToken, NotAModerator, NoSuchAccount,
        (status = 409, description = "The account is not suspended (`not_suspended`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn lift(
    state: web::Data<AppState>,
    caller: Caller,
    name: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = moderator(caller)?;
    let body: ModerationReason = body::json(&req, payload, BODY_LIMIT).await?;
    let reason = reason(&body.reason)?;
    let (id, _) = state
        .store
        .lift_suspension(&name, reason, &account.name)
        .await?;
    state.standings.forget(id);
    Ok(HttpResponse::NoContent().finish())
}

/// The accounts suspended now, for moderators.
#[utoipa::path(get, path = "/v1/moderation/suspensions", tag = "moderation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The suspensions in force", body = SuspensionList),
        NoOrBadToken, NotAModerator,
    ))]
pub async fn suspensions(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    moderator(caller)?;
    let suspensions = state
        .store
        .suspensions()
        .await?
        .into_iter()
        .map(|(account, suspension)| AccountSuspension {
            account,
            suspension,
        })
        .collect();
    Ok(HttpResponse::Ok().json(SuspensionList { suspensions }))
}

/// Which entries of the log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// Only entries with a smaller id: the `next_before` of the previous page.
    #[param(minimum = 0)]
    pub before: Option<i64>,
    /// Page size, 1–100 (default 50); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<i64>,
}

/// A page of the moderation log, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModerationLogPage {
    pub entries: Vec<ModerationEntry>,
    /// More (older) entries: pass as `before` for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

/// The moderation log, for moderators: every removal, suspension, lift, report resolution and
/// grant of the role, with who, when and why; newest first.
#[utoipa::path(get, path = "/v1/moderation/log", tag = "moderation",
    params(LogQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the log", body = ModerationLogPage),
        BadQuery, NoOrBadToken, NotAModerator,
    ))]
pub async fn log(
    state: web::Data<AppState>,
    caller: Caller,
    q: web::Query<LogQuery>,
) -> ApiResult<HttpResponse> {
    moderator(caller)?;
    let limit = q.limit.unwrap_or(50);
    if !(1..=100).contains(&limit) || q.before.is_some_and(|b| b < 0) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`limit` is 1 to 100; `before` is an entry's id, 0 or more.",
        ));
    }
    let mut entries = state.store.moderation_log(q.before, limit + 1).await?;
    let next_before = paging::next_before(&mut entries, limit, |e| e.id);
    Ok(HttpResponse::Ok().json(ModerationLogPage {
        entries,
        next_before,
    }))
}
