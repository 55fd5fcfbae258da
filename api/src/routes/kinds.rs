//! The games this server offers.

use actix_web::web;
use baumeister_domain::{registry, KindInfo};

/// The games offered, their seat counts and options.
#[utoipa::path(get, path = "/v1/kinds", tag = "games",
    responses((status = 200, description = "Every game kind", body = Vec<KindInfo>)))]
pub async fn kinds() -> web::Json<Vec<KindInfo>> {
    web::Json(registry::all().iter().map(|g| g.info()).collect())
}
