//! The one mapping from failures to HTTP: `application/problem+json` (RFC 9457) with a stable
//! `code`. Anything a client can send maps to a 4xx; a 5xx means the server or its database.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use baumeister_domain::DomainError;
use baumeister_storage::{Class, Refusal, StoreError};
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
        match e {
            StoreError::Refused(refusal) => refusal.into(),
            StoreError::Domain(d) => d.into(),
            StoreError::Contention => ApiError::busy(e.to_string(), 1),
            StoreError::Pool(_) | StoreError::Unavailable(_) => {
                static UNAVAILABLE: crate::throttle::Throttle = crate::throttle::Throttle::new();
                if let Some(left_out) = UNAVAILABLE.allow() {
                    tracing::error!(error = %e, left_out, "database unavailable");
                }
                ApiError {
                    retry_after: Some(2),
                    ..ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "database_unavailable",
                        "The database does not answer right now; try again.",
                    )
                }
            }
            StoreError::Database(e) => ApiError::internal(format!("{e}: {:?}", e.as_db_error())),
            StoreError::Corrupt(_) => ApiError::internal(e),
        }
    }
}

/// A refusal is answered with its class's status and its own code and words.
impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        let (class, code) = refusal.kind();
        let status = match class {
            Class::Malformed => StatusCode::BAD_REQUEST,
            Class::Unauthenticated => StatusCode::UNAUTHORIZED,
            Class::Forbidden => StatusCode::FORBIDDEN,
            Class::NotFound => StatusCode::NOT_FOUND,
            Class::Conflict => StatusCode::CONFLICT,
            Class::Gone => StatusCode::GONE,
            Class::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
            Class::TooMany => StatusCode::TOO_MANY_REQUESTS,
        };
        ApiError {
            retry_after: refusal.retry_after(),
            ..ApiError::new(status, code, refusal.to_string())
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
