//! Liveness (`/healthz`: the process answers) and readiness (`/readyz`: it may take traffic).

use actix_web::{web, HttpResponse};
use baumeister_storage::{MigrationState, Migrations};
use serde::Serialize;
use utoipa::ToSchema;

use crate::AppState;

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`: the process answers.
    pub status: String,
}

/// Is the process alive? Asks nothing of the database, so a database outage never gets a
/// healthy process restarted; whether it may take traffic is `/readyz`.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses(
        (status = 200, description = "The process answers", body = Health),
    ))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
    })
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready`, or `not_ready`.
    pub status: String,
    /// `ok` or `unreachable`.
    pub database: String,
    /// The database's migrations against this binary's; absent when the database is
    /// unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub migrations: Option<Migrations>,
    /// Whether the process is stopping (SIGTERM or SIGINT received): it takes no new work.
    pub stopping: bool,
}

/// May this process take traffic? Ready when its database answers, holds exactly the migrations
/// this binary carries (`current`: none missing, none unknown, none changed) and the process is
/// not stopping.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "Not ready: the database is unreachable, its migrations are `behind`, `ahead` or `divergent` from this binary's, or the process is stopping", body = Readiness),
    ))]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let stopping = state.shutdown.is_stopping();
    let (database, migrations) = match state.store.migrations().await {
        Ok(m) => ("ok", Some(m)),
        Err(e) => {
            tracing::warn!(error = %e, "readiness: database unreachable");
            ("unreachable", None)
        }
    };
    let ready = !stopping
        && migrations
            .as_ref()
            .is_some_and(|m: &Migrations| m.state == MigrationState::Current);
    let body = Readiness {
        status: if ready { "ready" } else { "not_ready" }.into(),
        database: database.into(),
        migrations,
        stopping,
    };
    if ready {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
