//! Registering and logging in.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::limits::ClientAddress;
use crate::routes::problems::{LoginLimit, Malformed, NoOrBadToken};
use crate::{names, AppState};

/// A new account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAccount {
    /// Up to 32 characters; surrounding whitespace is removed and compatibility forms (such as
    /// full-width letters) become plain ones (NFKC). Then: ASCII letters, digits, `_`, `-`, `.`,
    /// with at least one letter. Refused when taken regardless of case (`name_taken`), or when a
    /// reader could confuse it with an existing name (`name_confusable`: `l`/`I`/`1`, `O`/`0`,
    /// `rn`/`m`, `vv`/`w`, the separators, separators at either end).
    #[schema(
        example = "anna",
        min_length = 1,
        max_length = 32,
        pattern = "^\\s*[0-9_.-]*[A-Za-z][A-Za-z0-9_.-]*\\s*$"
    )]
    pub name: String,
    /// 8–128 characters.
    #[schema(example = "correct horse battery", min_length = 8, max_length = 128)]
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccountCreated {
    pub id: i64,
    /// The name as stored (trimmed and normalised).
    pub name: String,
}

/// Name and password, to log in.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// A bearer token for `Authorization: Bearer <token>`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenIssued {
    pub token: String,
    /// Always `Bearer`.
    pub token_type: String,
    /// Seconds until the token expires (unless revoked earlier with `DELETE /v1/tokens`).
    pub expires_in: u64,
    pub account_id: i64,
    pub name: String,
    /// `player`, or `auditor` (sees everything) as the operator has granted it now. The role
    /// is not part of the token: every request is judged by the current grant.
    pub role: String,
}

fn invalid_name() -> ApiError {
    ApiError::bad_request(
        "invalid_name",
        "A name has 1 to 32 characters: letters, digits, `_`, `-` or `.`, with at least one letter.",
    )
}

/// Register an account. The name is checked (format, taken, confusable) before the password is
/// hashed.
#[utoipa::path(post, path = "/v1/accounts", tag = "accounts",
    request_body = NewAccount,
    responses(
        (status = 201, description = "Registered", body = AccountCreated),
        (status = 400, description = "Malformed, or the name (`invalid_name`) or password (`invalid_password`) does not fit the rules", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The name is taken (`name_taken`) or too close to an existing one (`name_confusable`)", body = Problem, content_type = "application/problem+json"),
        LoginLimit,
    ))]
pub async fn register(
    state: web::Data<AppState>,
    client: ClientAddress,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let NewAccount { name, password } = body::json(&req, body, BODY_LIMIT).await?;
    state
        .limits
        .registrations
        .take(&client.0, "registrations from this address")?;
    let name = names::normalize(&name).ok_or_else(invalid_name)?;
    if !(8..=128).contains(&password.chars().count()) {
        return Err(ApiError::bad_request(
            "invalid_password",
            "A password has 8 to 128 characters.",
        ));
    }
    state
        .limits
        .name_attempts
        .take(&name.to_lowercase(), "attempts on this name")?;
    // Cheap checks first: a name that cannot be had costs no hash.
    state.store.check_name_free(&name).await?;
    let hash = state.hashing.hash(password).await?;
    let id = state.store.create_account(&name, &hash).await?;
    tracing::info!(account = id, %name, "registered");
    Ok(HttpResponse::Created().json(AccountCreated { id, name }))
}

/// Log in: exchange name and password for a token.
#[utoipa::path(post, path = "/v1/tokens", tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "Logged in", body = TokenIssued),
        Malformed,
        (status = 401, description = "Wrong name or password (`bad_credentials`)", body = Problem, content_type = "application/problem+json"),
        LoginLimit,
    ))]
pub async fn login(
    state: web::Data<AppState>,
    client: ClientAddress,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let Credentials { name, password } = body::json(&req, body, BODY_LIMIT).await?;
    let bad = || ApiError::unauthorized("bad_credentials", "Wrong name or password.");
    state
        .limits
        .logins
        .take(&client.0, "logins from this address")?;
    // A name that could not have been registered needs no look-up (and may hold bytes the
    // database refuses, such as NUL).
    let Some(name) = names::normalize(&name).filter(|_| password.len() <= 1024) else {
        return Err(bad());
    };
    state
        .limits
        .name_attempts
        .take(&name.to_lowercase(), "attempts on this name")?;
    let account = state.store.find_account(&name).await?;
    // Verify against a stored hash even for an unknown name, so timing does not tell names.
    let hash = match &account {
        Some(a) => a.password_hash.clone(),
        None => state.dummy_hash.clone(),
    };
    let ok = state.hashing.verify(password, hash).await?;
    let account = account.filter(|_| ok).ok_or_else(bad)?;
    let token = state
        .keys
        .issue(account.id, &account.name, &account.token_key);
    Ok(HttpResponse::Ok().json(TokenIssued {
        token,
        token_type: "Bearer".into(),
        expires_in: state.keys.ttl_seconds,
        account_id: account.id,
        name: account.name,
        role: if account.auditor { "auditor" } else { "player" }.into(),
    }))
}

/// Log out everywhere: every token of the caller's account issued until now is refused from
/// now on (this one too). Log in again for a new one.
#[utoipa::path(delete, path = "/v1/tokens", tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Every earlier token of the account is revoked"),
        NoOrBadToken,
    ))]
pub async fn revoke(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.store.revoke_tokens(account.id).await?;
    state.standings.forget(account.id);
    tracing::info!(account = account.id, "tokens revoked");
    Ok(HttpResponse::NoContent().finish())
}
