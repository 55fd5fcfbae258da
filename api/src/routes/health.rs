//! Liveness and database reachability.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` when the database does not answer.
    pub status: String,
    /// `ok` or `unreachable`.
    pub database: String,
}

/// Is the server up, and does its database answer?
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses(
        (status = 200, description = "Up, database reachable", body = Health),
        (status = 503, description = "Up, database unreachable", body = Health),
    ))]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    match state.store.health().await {
        Ok(()) => HttpResponse::Ok().json(Health {
            status: "ok".into(),
            database: "ok".into(),
        }),
        Err(e) => {
            tracing::warn!(error = %e, "health check: database unreachable");
            HttpResponse::ServiceUnavailable().json(Health {
                status: "degraded".into(),
                database: "unreachable".into(),
            })
        }
    }
}
