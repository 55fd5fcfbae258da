//! The prologue of every request that seats the caller at a game: joining, accepting an
//! invitation, proposing and answering a rematch. The caller must be signed in; the optional
//! body (none, empty, `null` or `{}` all mean the defaults) is read and checked, its client seed
//! first; only then is a write token of the caller's command budget taken, so a malformed
//! request costs none. (Seating a bot reads a required body with no seed: `bots::add`.)

use actix_web::{web, HttpRequest};
use serde::de::DeserializeOwned;

use crate::auth::{Account, Caller};
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// A body that may carry the caller's client seed.
pub(crate) trait SeatBody: DeserializeOwned + Default {
    fn client_seed(&self) -> &Option<String>;

    /// The body's own checks beyond the client seed (none unless a body says so).
    fn check(&self) -> ApiResult<()> {
        Ok(())
    }
}

/// The signed-in caller and the checked body, with a write token taken.
pub(crate) async fn seat_request<T: SeatBody>(
    state: &AppState,
    caller: Caller,
    req: &HttpRequest,
    body: web::Payload,
) -> ApiResult<(Account, T)> {
    let account = caller.require()?;
    let body: T = body::optional_json(req, body, BODY_LIMIT).await?;
    check_client_seed(body.client_seed())?;
    body.check()?;
    state.limits.write(account.id)?;
    Ok((account, body))
}

/// Refuses a client seed that is not 1–64 of `A–Z a–z 0–9 _ . -`.
pub(crate) fn check_client_seed(seed: &Option<String>) -> ApiResult<()> {
    match seed {
        Some(s) if !baumeister_domain::fairness::valid_client_seed(s) => {
            Err(ApiError::bad_request(
                "invalid_client_seed",
                "A client seed is 1 to 64 of A–Z a–z 0–9 _ . - (or absent: the server picks one).",
            ))
        }
        _ => Ok(()),
    }
}
