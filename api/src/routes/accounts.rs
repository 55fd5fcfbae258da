//! Registering and logging in.

use actix_web::{web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{hash_password, verify_password};
use crate::error::{ApiError, ApiResult, Problem};
use crate::AppState;

/// A new account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAccount {
    /// 1–32 characters: ASCII letters and digits, `_`, `-`, `.`; unique regardless of case.
    #[schema(
        example = "anna",
        min_length = 1,
        max_length = 32,
        pattern = "^[A-Za-z0-9_.-]{1,32}$"
    )]
    pub name: String,
    /// 8–128 characters.
    #[schema(example = "correct horse battery", min_length = 8, max_length = 128)]
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccountCreated {
    pub id: i64,
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
    /// Seconds until the token expires.
    pub expires_in: u64,
    pub account_id: i64,
    pub name: String,
    /// `player`, or `auditor` (sees everything).
    pub role: String,
}

fn check_name(name: &str) -> ApiResult<()> {
    let ok = (1..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "invalid_name",
            "A name has 1 to 32 characters: letters, digits, `_`, `-` or `.`.",
        ))
    }
}

/// Register an account.
#[utoipa::path(post, path = "/v1/accounts", tag = "accounts",
    request_body = NewAccount,
    responses(
        (status = 201, description = "Registered", body = AccountCreated),
        (status = 400, description = "Malformed, or the name or password does not fit the rules", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The name is taken (`name_taken`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn register(
    state: web::Data<AppState>,
    body: web::Json<NewAccount>,
) -> ApiResult<HttpResponse> {
    let NewAccount { name, password } = body.into_inner();
    check_name(&name)?;
    if !(8..=128).contains(&password.chars().count()) {
        return Err(ApiError::bad_request(
            "invalid_password",
            "A password has 8 to 128 characters.",
        ));
    }
    let hash = web::block(move || hash_password(&password))
        .await
        .map_err(ApiError::internal)??;
    let id = state.store.create_account(&name, &hash).await?;
    tracing::info!(account = id, %name, "registered");
    Ok(HttpResponse::Created().json(AccountCreated { id, name }))
}

/// Log in: exchange name and password for a token.
#[utoipa::path(post, path = "/v1/tokens", tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "Logged in", body = TokenIssued),
        (status = 400, description = "Malformed", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong name or password (`bad_credentials`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn login(
    state: web::Data<AppState>,
    body: web::Json<Credentials>,
) -> ApiResult<HttpResponse> {
    let Credentials { name, password } = body.into_inner();
    let bad = || ApiError::unauthorized("bad_credentials", "Wrong name or password.");
    // A name that could not have been registered needs no look-up (and may hold bytes the
    // database refuses, such as NUL).
    if check_name(&name).is_err() || password.len() > 1024 {
        return Err(bad());
    }
    let account = state.store.find_account(&name).await?;
    // Verify against a stored hash even for an unknown name, so timing does not tell names.
    let (hash, account) = match account {
        Some(a) => (a.password_hash.clone(), Some(a)),
        None => (state.dummy_hash.clone(), None),
    };
    let ok = web::block(move || verify_password(&password, &hash))
        .await
        .map_err(ApiError::internal)?;
    let account = account.filter(|_| ok).ok_or_else(bad)?;
    let role = if state.auditors.contains(&account.name.to_lowercase()) {
        "auditor"
    } else {
        "player"
    };
    let token = state.keys.issue(account.id, &account.name, role);
    Ok(HttpResponse::Ok().json(TokenIssued {
        token,
        token_type: "Bearer".into(),
        expires_in: state.keys.ttl_seconds,
        account_id: account.id,
        name: account.name,
        role: role.into(),
    }))
}
