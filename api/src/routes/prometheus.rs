//! `GET /metrics`: the process's metrics in Prometheus's text format, for the bearer of
//! `METRICS_TOKEN` only; without one configured the route answers as an unknown route does.

use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult, Problem};
use crate::AppState;

/// The metrics of this process (each process of a service is scraped on its own).
#[utoipa::path(get, path = "/metrics", tag = "operations",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Metrics in Prometheus's text format (version 0.0.4); see docs/operations.md, \"Metrics\"", content_type = "text/plain", body = String),
        (status = 401, description = "`METRICS_TOKEN` is configured and the request does not carry it as `Authorization: Bearer …` (`invalid_metrics_token`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`METRICS_TOKEN` is not configured: answered as an unknown route (`not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn metrics(state: web::Data<AppState>, req: HttpRequest) -> ApiResult<HttpResponse> {
    let Some(expected) = &state.operations.metrics_token else {
        return Err(ApiError::not_found(format!(
            "Nothing at {} {}; see /openapi.json.",
            req.method(),
            req.path()
        )));
    };
    let given = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared as digests: the time taken says nothing of how much of the token was right.
    if Sha256::digest(given.as_bytes()) != Sha256::digest(expected.as_bytes()) {
        return Err(ApiError::unauthorized(
            "invalid_metrics_token",
            "`/metrics` wants `Authorization: Bearer <METRICS_TOKEN>`.",
        ));
    }
    // The outboxes are counted now, with one statement; should the database not answer, the
    // rest is still served (the pool's wait shows why).
    match state.store.backlogs().await {
        Ok(backlogs) => crate::telemetry::backlogs(&backlogs),
        Err(e) => tracing::warn!(error = %e, "metrics: the outboxes could not be counted"),
    }
    let handle = crate::telemetry::handle();
    handle.run_upkeep();
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(handle.render()))
}
