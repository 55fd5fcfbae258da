//! Vacations: the caller's turn clocks stand still until a time they choose, within a yearly
//! allowance (see `baumeister_storage::VACATION_DAYS_PER_YEAR` and docs/api.md, "Vacations").

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{parse_rfc3339, VacationStatus};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::problems::NoOrBadToken;
use crate::AppState;

/// When the vacation ends.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewVacation {
    /// The end of the vacation (RFC 3339, in the future). The vacation starts now; on a
    /// vacation already running, this moves its end.
    #[schema(example = "2026-12-24T18:00:00Z", format = DateTime)]
    pub until: String,
}

/// The caller's vacation and this year's allowance.
#[utoipa::path(get, path = "/v1/me/vacation", tag = "accounts", operation_id = "vacation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The vacation (if any) and the allowance", body = VacationStatus),
        NoOrBadToken,
    ))]
pub async fn show(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    Ok(HttpResponse::Ok().json(state.store.vacation(account.id).await?))
}

/// Go on vacation until `until` (or move the end of the current vacation). The turn clock of
/// every seat the caller holds stands still meanwhile: deadlines running now are pushed back by
/// the vacation's length, and a turn that starts during the vacation gets its full time from
/// its end. Counted against the yearly allowance.
///
/// Refused although the schema allows it (422): a time not in the future, and a vacation
/// beyond the allowance of a calendar year.
#[utoipa::path(put, path = "/v1/me/vacation", tag = "accounts", operation_id = "set_vacation",
    request_body = NewVacation,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "On vacation until then", body = VacationStatus),
        (status = 400, description = "Malformed, or `until` is not an RFC 3339 time (`invalid_time`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 422, description = "`until` is not in the future (`vacation_not_in_future`), or the vacation would exceed the allowance of a calendar year (`vacation_allowance_exceeded`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn set(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let body: NewVacation = body::json(&req, body, BODY_LIMIT).await?;
    let until = parse_rfc3339(body.until.trim()).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_time",
            format!(
                "`until` is an RFC 3339 time such as 2026-12-24T18:00:00Z, not `{}`",
                body.until
            ),
        )
    })?;
    Ok(HttpResponse::Ok().json(state.store.set_vacation(account.id, until).await?))
}

/// End the current vacation now (nothing happens when not on vacation). The turn deadlines come
/// forward by the unused rest; only the time used counts against the allowance.
#[utoipa::path(delete, path = "/v1/me/vacation", tag = "accounts", operation_id = "end_vacation",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Not on vacation (any longer)", body = VacationStatus),
        NoOrBadToken,
    ))]
pub async fn end(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    Ok(HttpResponse::Ok().json(state.store.end_vacation(account.id).await?))
}
