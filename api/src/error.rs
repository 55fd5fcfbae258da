//! The one mapping from failures to HTTP: `application/problem+json` (RFC 9457) with a stable
//! `code`. Anything a client can send maps to a 4xx; a 5xx means the server or its database.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use baumeister_domain::DomainError;
use baumeister_storage::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

/// An error, as RFC 9457 describes it, with a stable machine-readable `code`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Problem {
    /// `urn:baumeister:problem:<code>`.
    #[serde(rename = "type")]
    pub type_: String,
    pub title: String,
    pub status: u16,
    /// What exactly is wrong, in words (for a broken rule: the rule).
    pub detail: String,
    /// Stable and machine-readable, e.g. `version_conflict`, `card_too_low`.
    pub code: String,
    /// The request's id, as in its `X-Request-Id` header: quote it when reporting a problem
    /// (the server's log lines of the request carry it). Absent in a live stream's messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub request_id: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("{detail}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: String,
    pub detail: String,
    /// Seconds, sent as `Retry-After` (429 and 503).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: impl Into<String>, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            code: code.into(),
            detail: detail.into(),
            retry_after: None,
        }
    }

    /// 503 `busy`: the server cannot take this now; try again after `retry_after` seconds.
    pub fn busy(detail: impl Into<String>, retry_after: u64) -> Self {
        ApiError {
            retry_after: Some(retry_after),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, "busy", detail)
        }
    }

    /// 429 `rate_limited`: `what` has used up its limit for now.
    pub fn rate_limited(what: &str, wait: std::time::Duration) -> Self {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        ApiError {
            retry_after: Some(seconds),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("Too many {what}; try again in {seconds} s."),
            )
        }
    }

    pub fn bad_request(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }

    pub fn unauthorized(code: &str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, detail)
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", detail)
    }

    /// The id of one of the caller's resources, from its path segment: a segment that is no
    /// whole number names nothing, so it is the resource's own 404 (`code`), not a 400.
    pub fn path_id(segment: &str, code: &str, what: &str) -> Result<i64, Self> {
        segment.parse().map_err(|_| {
            Self::new(
                StatusCode::NOT_FOUND,
                code,
                format!("{what} ids are whole numbers."),
            )
        })
    }

    pub fn internal(detail: impl std::fmt::Display) -> Self {
        // The cause goes to the log, not to the client.
        tracing::error!(error = %detail, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Something went wrong on the server; it has been logged.",
        )
    }
}

impl ApiError {
    /// The problem document of this error (also sent inside streams).
    pub fn problem(&self) -> Problem {
        Problem {
            type_: format!("urn:baumeister:problem:{}", self.code),
            title: self
                .status
                .canonical_reason()
                .unwrap_or("Error")
                .to_string(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.clone(),
            request_id: crate::request_id::current(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let problem = self.problem();
        let mut response = HttpResponse::build(self.status);
        if self.status == StatusCode::UNAUTHORIZED {
            response.insert_header(("WWW-Authenticate", "Bearer"));
        }
        if self.status == StatusCode::REQUEST_TIMEOUT {
            // The rest of a body that came too slowly may still be on its way: never read it
            // as the next request.
            response.force_close();
        }
        if let Some(seconds) = self.retry_after {
            response.insert_header(("Retry-After", seconds.to_string()));
        }
        response
            .content_type("application/problem+json")
            .body(serde_json::to_string(&problem).expect("problems serialize"))
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match e {
            DomainError::UnknownKind(_) => ApiError::bad_request("unknown_kind", e.to_string()),
            DomainError::InvalidOptions(d) => ApiError::bad_request("invalid_options", d),
            DomainError::UnknownCommand(d) => ApiError::bad_request("unknown_command", d),
            DomainError::InvalidCommand(d) => ApiError::bad_request("invalid_command", d),
            DomainError::Rule(rule) => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, rule.code, rule.message)
            }
            DomainError::CorruptEvent(d) => ApiError::internal(d),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        use StatusCode as S;
        let detail = e.to_string();
        match e {
            StoreError::GameNotFound(_) => ApiError::new(S::NOT_FOUND, "game_not_found", detail),
            StoreError::NameTaken(_) => ApiError::new(S::CONFLICT, "name_taken", detail),
            StoreError::NameConfusable { .. } => {
                ApiError::new(S::CONFLICT, "name_confusable", detail)
            }
            StoreError::NameRetired(_) => ApiError::new(S::CONFLICT, "name_retired", detail),
            StoreError::UnknownAccountName(_) => ApiError::not_found(detail),
            StoreError::AlreadySeated => ApiError::new(S::CONFLICT, "already_seated", detail),
            StoreError::NotCreator => ApiError::new(S::FORBIDDEN, "not_creator", detail),
            StoreError::NoSuchSeat { .. } => ApiError::bad_request("no_such_seat", detail),
            StoreError::SeatTaken(_) => ApiError::new(S::CONFLICT, "seat_taken", detail),
            StoreError::NoBotAccount(_) => ApiError::new(S::CONFLICT, "no_bot_free", detail),
            StoreError::BotLevelUnavailable(_) => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "bot_level_unavailable", detail)
            }
            StoreError::NotOpen(_) => ApiError::new(S::CONFLICT, "game_not_open", detail),
            StoreError::NotStarted => ApiError::new(S::CONFLICT, "game_not_started", detail),
            StoreError::NotSeated => ApiError::new(S::FORBIDDEN, "not_seated", detail),
            StoreError::UnknownAccount => ApiError::unauthorized("account_unknown", detail),
            StoreError::Undo(refusal) => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, refusal.code(), detail)
            }
            StoreError::VersionConflict { .. } => {
                ApiError::new(S::CONFLICT, "version_conflict", detail)
            }
            StoreError::IdempotencyKeyReused => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "idempotency_key_reused", detail)
            }
            StoreError::VersionOutOfRange(_) => {
                ApiError::bad_request("version_out_of_range", detail)
            }
            StoreError::NotExportable => ApiError::new(S::CONFLICT, "not_exportable", detail),
            StoreError::ExportWhileRunning => ApiError::new(S::CONFLICT, "game_not_ended", detail),
            StoreError::NotAuditor => ApiError::new(S::FORBIDDEN, "not_auditor", detail),
            StoreError::ImportRefused(_) => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "import_refused", detail)
            }
            StoreError::UntrustedKey(_) => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "untrusted_key", detail)
            }
            StoreError::AlreadyImported(_) => {
                ApiError::new(S::CONFLICT, "already_imported", detail)
            }
            StoreError::VacationNotInFuture => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "vacation_not_in_future", detail)
            }
            StoreError::VacationAllowanceExceeded { .. } => ApiError::new(
                S::UNPROCESSABLE_ENTITY,
                "vacation_allowance_exceeded",
                detail,
            ),
            StoreError::Domain(d) => d.into(),
            StoreError::InvitationRequired => {
                ApiError::new(S::FORBIDDEN, "invitation_required", detail)
            }
            StoreError::InvitationInvalid => {
                ApiError::new(S::FORBIDDEN, "invitation_invalid", detail)
            }
            StoreError::InvitationExpired => {
                ApiError::new(S::FORBIDDEN, "invitation_expired", detail)
            }
            StoreError::InvitationRevoked => {
                ApiError::new(S::FORBIDDEN, "invitation_revoked", detail)
            }
            StoreError::InvitationUsedUp => {
                ApiError::new(S::FORBIDDEN, "invitation_used_up", detail)
            }
            StoreError::InvitationNotFound(_) => {
                ApiError::new(S::NOT_FOUND, "invitation_not_found", detail)
            }
            StoreError::InvitationNotPending(_) => {
                ApiError::new(S::CONFLICT, "invitation_not_pending", detail)
            }
            StoreError::AlreadyInvited(_) => ApiError::new(S::CONFLICT, "already_invited", detail),
            StoreError::InviteeSeated(_) => ApiError::new(S::CONFLICT, "already_seated", detail),
            StoreError::InviteeIsBot(_) => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "invitee_is_bot", detail)
            }
            StoreError::InvitationRefused(_) => {
                ApiError::new(S::FORBIDDEN, "invitation_refused", detail)
            }
            StoreError::TooManyInvitations { retry_after_s, .. } => ApiError {
                retry_after: Some(retry_after_s),
                ..ApiError::new(S::TOO_MANY_REQUESTS, "too_many_invitations", detail)
            },
            StoreError::SuspensionNotInFuture => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "suspension_not_in_future", detail)
            }
            StoreError::NotSuspended(_) => ApiError::new(S::CONFLICT, "not_suspended", detail),
            StoreError::ReportNotFound(_) => {
                ApiError::new(S::NOT_FOUND, "report_not_found", detail)
            }
            StoreError::ReportNotOpen(_) => ApiError::new(S::CONFLICT, "report_not_open", detail),
            StoreError::CannotReportSelf => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "cannot_report_self", detail)
            }
            StoreError::Contention => ApiError::busy(detail, 1),
            StoreError::WebhookNotFound(_) => {
                ApiError::new(S::NOT_FOUND, "webhook_not_found", detail)
            }
            StoreError::TooManyWebhooks(_) => {
                ApiError::new(S::CONFLICT, "too_many_webhooks", detail)
            }
            StoreError::PushSubscriptionNotFound(_) => {
                ApiError::new(S::NOT_FOUND, "push_subscription_not_found", detail)
            }
            StoreError::TooManyPushSubscriptions(_) => {
                ApiError::new(S::CONFLICT, "too_many_push_subscriptions", detail)
            }
            StoreError::TooManyConfirmations(_) => {
                ApiError::new(S::TOO_MANY_REQUESTS, "too_many_confirmations", detail)
            }
            StoreError::NoEmail => ApiError::new(S::NOT_FOUND, "no_email", detail),
            StoreError::ConfirmationInvalid => {
                ApiError::new(S::NOT_FOUND, "confirmation_invalid", detail)
            }
            StoreError::ConfirmationExpired => {
                ApiError::new(S::GONE, "confirmation_expired", detail)
            }
            StoreError::UnsubscribeInvalid => {
                ApiError::new(S::NOT_FOUND, "unsubscribe_invalid", detail)
            }
            StoreError::SpectatorsOnly => ApiError::new(S::FORBIDDEN, "spectators_only", detail),
            StoreError::CannotMuteSelf => {
                ApiError::new(S::UNPROCESSABLE_ENTITY, "cannot_mute_self", detail)
            }
            StoreError::TooManyMutes(_) => ApiError::new(S::CONFLICT, "too_many_mutes", detail),
            StoreError::ChatMessageNotFound(_) => {
                ApiError::new(S::NOT_FOUND, "chat_message_not_found", detail)
            }
            StoreError::ChatMessageAlreadyRemoved(_) => {
                ApiError::new(S::CONFLICT, "chat_message_removed", detail)
            }
            StoreError::GameNotFinished => ApiError::new(S::CONFLICT, "game_not_finished", detail),
            StoreError::RematchExists => ApiError::new(S::CONFLICT, "rematch_exists", detail),
            StoreError::NoRematch(_) => ApiError::new(S::NOT_FOUND, "no_rematch", detail),
            StoreError::RematchNotOpen(_) => ApiError::new(S::CONFLICT, "rematch_not_open", detail),
            StoreError::RematchAlreadyAnswered => {
                ApiError::new(S::CONFLICT, "rematch_already_answered", detail)
            }
            StoreError::Pool(_) | StoreError::Unavailable(_) => {
                static UNAVAILABLE: crate::throttle::Throttle = crate::throttle::Throttle::new();
                if let Some(left_out) = UNAVAILABLE.allow() {
                    tracing::error!(error = %detail, left_out, "database unavailable");
                }
                ApiError {
                    retry_after: Some(2),
                    ..ApiError::new(
                        S::SERVICE_UNAVAILABLE,
                        "database_unavailable",
                        "The database does not answer right now; try again.",
                    )
                }
            }
            StoreError::Database(e) => ApiError::internal(format!("{e}: {:?}", e.as_db_error())),
            StoreError::Corrupt(_) => ApiError::internal(detail),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
