//! What an account does to itself (docs/accounts.md): change its password, reset a forgotten
//! one by mail, delete itself, download everything stored about it.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{ResetRefusal, ResetTarget};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::limits::ClientAddress;
use crate::notices::mail::Mailer;
use crate::routes::accounts::TokenIssued;
use crate::routes::problems::{Malformed, NameAttempts, NoOrBadToken};
use crate::AppState;

/// A new password, with the current one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub old_password: String,
    /// 8–128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub new_password: String,
}

/// Asks for a password reset mail.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    /// The account's name, or its email address (with `@`: every account with that confirmed
    /// address gets a mail).
    #[schema(example = "anna", max_length = 254)]
    pub name_or_email: String,
}

/// The answer to every reset request, whether or not the account or address exists.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResetAccepted {
    /// Always the same text.
    pub detail: String,
}

/// A reset token from the mail's link, and the new password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetUse {
    pub token: String,
    /// 8–128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub new_password: String,
}

/// The password, to confirm a deletion.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeletionConfirmed {
    pub password: String,
}

/// Everything stored about the caller's account (GDPR art. 15 and 20; docs/accounts.md): nothing
/// another account wrote, and of other accounts only the public names of the players at the
/// caller's games.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountData {
    /// `id`, `name`, `created_at`, `auditor`.
    #[schema(value_type = Object)]
    pub account: Value,
    /// Language, email address and whether it is confirmed, what comes by mail and push.
    #[schema(value_type = Object)]
    pub notice_settings: Value,
    /// Every game the account sits at: kind, status, its seat, the players' names, and scores
    /// and winners once finished.
    #[schema(value_type = Vec<Object>)]
    pub games: Vec<Value>,
    /// How many commands the account sent (each is in its game's log).
    pub commands_sent: i64,
    /// The chat messages it wrote (removed ones marked, text included: it is the author's).
    #[schema(value_type = Vec<Object>)]
    pub chat_messages: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub invitations_sent: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub invitations_received: Vec<Value>,
    /// Ratings per kind, and what each rated game did to them.
    #[schema(value_type = Vec<Object>)]
    pub ratings: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub rating_changes: Vec<Value>,
    #[schema(value_type = Vec<Object>)]
    pub vacations: Vec<Value>,
    /// The accounts it muted.
    #[schema(value_type = Vec<Object>)]
    pub mutes: Vec<Value>,
    /// Its webhooks, without their secrets.
    #[schema(value_type = Vec<Object>)]
    pub webhooks: Vec<Value>,
    /// Its devices subscribed to push: the endpoints, without their keys.
    #[schema(value_type = Vec<Object>)]
    pub push_subscriptions: Vec<Value>,
    /// Reset links mailed and not yet used or expired.
    pub password_resets_pending: i64,
}

/// The longest `name_or_email` (characters, as the schema's `max_length` says): an email
/// address's longest.
const NAME_OR_EMAIL_MAX: usize = 254;

/// The same answer to every reset request (no account enumeration).
const RESET_ACCEPTED: &str = "If an account of that name or address has a confirmed email address, a mail with a link to choose a new password is on its way.";

fn check_password(password: &str) -> ApiResult<()> {
    if (8..=128).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "invalid_password",
            "A password has 8 to 128 characters.",
        ))
    }
}

fn token_issued(state: &AppState, id: i64, name: String, key: &str, auditor: bool) -> HttpResponse {
    HttpResponse::Ok().json(TokenIssued {
        token: state.keys.issue(id, &name, key),
        token_type: "Bearer".into(),
        expires_in: state.keys.ttl_seconds,
        account_id: id,
        name,
        role: if auditor { "auditor" } else { "player" }.into(),
    })
}

/// Checks the caller's password (bounded like logins on its name: a stolen token does not
/// give unlimited guesses).
async fn password_holds(
    state: &AppState,
    account: &crate::auth::Account,
    password: String,
) -> ApiResult<()> {
    state
        .limits
        .name_attempts
        .take(&account.name.to_lowercase(), "attempts on this name")?;
    let stored = state
        .store
        .account_by_id(account.id)
        .await?
        .ok_or_else(|| {
            ApiError::unauthorized(
                "account_unknown",
                "The account of this token no longer exists.",
            )
        })?;
    let password = if password.len() > 1024 {
        String::new()
    } else {
        password
    };
    if state.hashing.verify(password, stored.password_hash).await? {
        Ok(())
    } else {
        Err(ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            "wrong_password",
            "The password is not this account's.",
        ))
    }
}

/// Change the password. Every other token of the account is revoked; the answer carries a new
/// token, so the session that asked goes on.
#[utoipa::path(put, path = "/v1/me/password", tag = "accounts",
    security(("bearer" = [])),
    request_body = PasswordChange,
    responses(
        (status = 200, description = "Changed: a new token (every earlier one is revoked)", body = TokenIssued),
        (status = 400, description = "Malformed, or the new password does not fit the rules (`invalid_password`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "The old password is wrong (`wrong_password`)", body = Problem, content_type = "application/problem+json"),
        NameAttempts,
    ))]
pub async fn change_password(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let PasswordChange {
        old_password,
        new_password,
    } = body::json(&req, body, BODY_LIMIT).await?;
    check_password(&new_password)?;
    password_holds(&state, &account, old_password).await?;
    let hash = state.hashing.hash(new_password).await?;
    let key = state.store.change_password(account.id, &hash).await?;
    state.standings.forget(account.id);
    tracing::info!(account = account.id, "password changed");
    Ok(token_issued(
        &state,
        account.id,
        account.name,
        &key,
        account.auditor,
    ))
}

/// Ask for a mail to reset a forgotten password. The answer is the same whether or not the name
/// or address exists, has a confirmed address, or has had its share of mails this hour: the
/// work happens after the answer. Only a confirmed address gets a mail; its link opens the web
/// client's reset page (`/#/reset/<token>`) and works once, within `PASSWORD_RESET_MINUTES`.
#[utoipa::path(post, path = "/v1/password-resets", tag = "accounts",
    request_body = ResetRequest,
    responses(
        (status = 202, description = "Accepted (the same for every name and address)", body = ResetAccepted),
        (status = 400, description = "Malformed, or `name_or_email` longer than any name or address (`invalid_name_or_email`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many requests from this address (they count as logins)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until a new attempt may succeed"))),
    ))]
pub async fn request_reset(
    state: web::Data<AppState>,
    client: ClientAddress,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let ResetRequest { name_or_email } = body::json(&req, body, BODY_LIMIT).await?;
    // Longer than any name or address can be: refused for its form alone, which says nothing
    // of any account.
    if name_or_email.chars().count() > NAME_OR_EMAIL_MAX {
        return Err(ApiError::bad_request(
            "invalid_name_or_email",
            format!("`name_or_email` has at most {NAME_OR_EMAIL_MAX} characters."),
        ));
    }
    state
        .limits
        .logins
        .take(&client.0, "logins and password resets from this address")?;
    let who = name_or_email.trim().to_string();
    // Text no name or address can be costs no look-up (and may hold bytes the database refuses).
    if (1..=254).contains(&who.len()) && !who.chars().any(|c| c.is_control()) {
        let state = state.clone();
        actix_web::rt::spawn(async move {
            if let Err(e) = send_resets(&state, &who).await {
                tracing::warn!(error = %e.detail, "a password reset mail was not sent");
            }
        });
    }
    Ok(HttpResponse::Accepted().json(ResetAccepted {
        detail: RESET_ACCEPTED.into(),
    }))
}

/// Mails a reset link to each account `who` names that has a confirmed address and is within
/// its bound (after the answer went).
async fn send_resets(state: &AppState, who: &str) -> ApiResult<()> {
    let targets = state.store.reset_targets(who).await?;
    if targets.is_empty() {
        return Ok(());
    }
    let Some(url) = &state.notices.smtp_url else {
        tracing::warn!("a password reset was asked for, but no SMTP_URL is set");
        return Ok(());
    };
    let mailer = Mailer::new(url, &state.notices.mail_from, &state.notices.public_url)
        .map_err(ApiError::internal)?;
    let care = state.accounts;
    // Each account alone: one refused address does not keep the others' mail back.
    for target in targets {
        if let Err(e) = send_reset(state, &mailer, &target, care).await {
            tracing::warn!(account = target.account_id, error = %e.detail, "a password reset mail was not sent");
        }
    }
    Ok(())
}

async fn send_reset(
    state: &AppState,
    mailer: &Mailer,
    target: &ResetTarget,
    care: crate::config::AccountCare,
) -> ApiResult<()> {
    let token = baumeister_domain::fairness::to_hex(&baumeister_storage::trust::random_bytes());
    let valid = care.reset_valid.as_millis() as i64;
    let expires = state.store.now_ms() + valid;
    if !state
        .store
        .record_reset(target, &token, expires, care.resets_per_hour)
        .await?
    {
        tracing::info!(
            account = target.account_id,
            "password reset not mailed: this hour's bound is used up"
        );
        return Ok(());
    }
    let message = mailer
        .password_reset(
            &target.address,
            &target.name,
            &token,
            care.reset_valid.as_secs() / 60,
            target.language,
        )
        .map_err(ApiError::internal)?;
    mailer.send(message).await.map_err(ApiError::internal)?;
    tracing::info!(account = target.account_id, "password reset mailed");
    Ok(())
}

/// Choose a new password with the token from a reset mail. The token works once; every token
/// of the account is revoked, and the answer is a new one (signed in).
#[utoipa::path(post, path = "/v1/password-resets/use", tag = "accounts",
    request_body = ResetUse,
    responses(
        (status = 200, description = "The password is changed: a new token (every earlier one is revoked)", body = TokenIssued),
        (status = 400, description = "Malformed, the new password does not fit the rules (`invalid_password`), the token is unknown or used (`reset_token_invalid`) or expired (`reset_token_expired`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: too many attempts from this address (they count as logins)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until a new attempt may succeed"))),
    ))]
pub async fn use_reset(
    state: web::Data<AppState>,
    client: ClientAddress,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let ResetUse {
        token,
        new_password,
    } = body::json(&req, body, BODY_LIMIT).await?;
    state
        .limits
        .logins
        .take(&client.0, "logins and password resets from this address")?;
    check_password(&new_password)?;
    let invalid = || {
        ApiError::bad_request(
            "reset_token_invalid",
            "This reset link is not valid: it was used already, or a newer password replaced it. Ask for a new one.",
        )
    };
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(invalid());
    }
    let hash = state.hashing.hash(new_password).await?;
    let done = match state.store.use_reset(&token, &hash).await? {
        Ok(done) => done,
        Err(ResetRefusal::Invalid) => return Err(invalid()),
        Err(ResetRefusal::Expired) => {
            return Err(ApiError::bad_request(
                "reset_token_expired",
                "This reset link has expired. Ask for a new one.",
            ))
        }
    };
    state.standings.forget(done.account_id);
    tracing::info!(account = done.account_id, "password reset");
    Ok(token_issued(
        &state,
        done.account_id,
        done.name,
        &done.token_key,
        done.auditor,
    ))
}

/// Delete the caller's account (the password confirms it). What identifies the person goes:
/// the name becomes a pseudonym (`deleted~…`), the old name cannot be registered for
/// `RETIRED_NAME_DAYS`; password, email, settings, push subscriptions, webhooks, mutes,
/// invitations and vacations are erased; every token stops working. Every game played stays
/// whole under the pseudonym; in running games the turn clock makes the account's moves at
/// once. See docs/accounts.md.
#[utoipa::path(delete, path = "/v1/me", tag = "accounts",
    security(("bearer" = [])),
    request_body = DeletionConfirmed,
    responses(
        (status = 204, description = "Deleted"),
        Malformed, NoOrBadToken,
        (status = 403, description = "The password is wrong (`wrong_password`)", body = Problem, content_type = "application/problem+json"),
        NameAttempts,
    ))]
pub async fn delete_account(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let DeletionConfirmed { password } = body::json(&req, body, BODY_LIMIT).await?;
    password_holds(&state, &account, password).await?;
    let (pseudonym, running) = state
        .store
        .delete_account(account.id, state.accounts.retired_name_days)
        .await?;
    state.standings.forget(account.id);
    tracing::info!(account = account.id, %pseudonym, games = running.len(), "account deleted");
    if !running.is_empty() {
        // The games go on without waiting for the deadline sweep.
        let store = state.store.clone();
        actix_web::rt::spawn(async move {
            if let Err(e) = store.settle_departed().await {
                tracing::warn!(error = %e, "a deleted account's turns wait for the sweep");
            }
        });
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Download everything stored about the caller's account, as one JSON document.
#[utoipa::path(get, path = "/v1/me/data", tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The account's data", body = AccountData,
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"baumeister-<name>.json\"`"))),
        NoOrBadToken,
    ))]
pub async fn download(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let data = state.store.account_data(account.id).await?;
    let data: AccountData = serde_json::from_value(data).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"baumeister-{}.json\"", account.name),
        ))
        .json(data))
}
