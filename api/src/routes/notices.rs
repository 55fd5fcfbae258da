//! Notices to people: the caller's notice settings, email address and push subscriptions; the
//! server's VAPID key; and the links in mail (confirming an address, one-click unsubscribe),
//! which need no token: their own token is the proof.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use baumeister_storage::Refusal;
use baumeister_storage::{NoticeChanges, NoticeSettings, PushSubscription, StoreError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::live::targets;
use crate::notices::{encrypt, mail};
use crate::routes::path_params::UnsubscribeToken;
use crate::routes::problems::{NoOrBadToken, NoSuchLink};
use crate::AppState;

/// An email address to receive notices at.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEmail {
    #[schema(example = "ada@example.org", max_length = 254)]
    pub address: String,
}

/// The server's VAPID public key, to subscribe a browser with (`applicationServerKey`).
#[derive(Debug, Serialize, ToSchema)]
pub struct PushKey {
    /// The uncompressed P-256 point, base64url without padding.
    pub public_key: String,
}

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPushSubscription {
    /// The push service's URL for the device (`https://`).
    #[schema(max_length = 2000)]
    pub endpoint: String,
    pub keys: PushKeys,
    /// Ignored (a browser sends it).
    #[serde(rename = "expirationTime")]
    #[schema(value_type = Option<i64>)]
    pub expiration_time: Option<serde_json::Value>,
}

/// The device's keys (base64url).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushKeys {
    /// Its P-256 public key (65 bytes).
    pub p256dh: String,
    /// Its authentication secret (16 bytes).
    pub auth: String,
}

/// The caller's push subscriptions.
#[derive(Debug, Serialize, ToSchema)]
pub struct PushSubscriptionList {
    pub subscriptions: Vec<PushSubscription>,
}

/// The caller's notice settings: language, what comes by mail and by push, how often mail may
/// come, the address (seen by nobody else) and whether it is confirmed.
#[utoipa::path(get, path = "/v1/me/notices", tag = "live",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's settings", body = NoticeSettings),
        NoOrBadToken,
    ))]
pub async fn notice_settings(
    state: web::Data<AppState>,
    caller: Caller,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    Ok(HttpResponse::Ok().json(state.store.notice_settings(account.id).await?))
}

/// Change the caller's notice settings; fields left out stay as they are. An empty list of
/// kinds turns a channel off.
#[utoipa::path(put, path = "/v1/me/notices", tag = "live",
    request_body = NoticeChanges,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The settings now", body = NoticeSettings),
        (status = 400, description = "Malformed, or `email_every_hours` not 0 to 168 (`invalid_notice_settings`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
    ))]
pub async fn change_notice_settings(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let changes: NoticeChanges = body::json(&req, body, BODY_LIMIT).await?;
    if changes
        .email_every_hours
        .is_some_and(|h| !(0..=168).contains(&h))
    {
        return Err(ApiError::bad_request(
            "invalid_notice_settings",
            "`email_every_hours` is 0 (every notice at once) to 168 (a digest once a week).",
        ));
    }
    let settings = state
        .store
        .change_notice_settings(account.id, &changes)
        .await?;
    Ok(HttpResponse::Ok().json(settings))
}

/// Set the caller's email address: it is unconfirmed until the link in the mail sent to it is
/// opened (within 48 hours); only then does mail go to it. The address already confirmed
/// changes nothing. At most 5 confirmation mails per account a day.
#[utoipa::path(put, path = "/v1/me/email", tag = "live",
    request_body = NewEmail,
    security(("bearer" = [])),
    responses(
        (status = 202, description = "A confirmation mail is on its way (or the address was confirmed already)", body = NoticeSettings),
        (status = 400, description = "Not a mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 409, description = "This server sends no mail (`email_unavailable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "5 confirmation mails today already (`too_many_confirmations`), or the write limit", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn set_email(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let body: NewEmail = body::json(&req, body, BODY_LIMIT).await?;
    if state.notices.smtp_url.is_none() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "email_unavailable",
            "This server sends no mail (its operator set no SMTP_URL); use push or webhooks.",
        ));
    }
    let address = body.address.trim();
    if !mail::valid_address(address) {
        return Err(ApiError::bad_request(
            "invalid_email",
            "That is not a mail address (`name@example.org`, at most 254 characters).",
        ));
    }
    let settings = state.store.set_email(account.id, address).await?;
    Ok(HttpResponse::Accepted().json(settings))
}

/// Remove the caller's address; mail not yet sent is dropped.
#[utoipa::path(delete, path = "/v1/me/email", tag = "live",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed"),
        NoOrBadToken,
        (status = 404, description = "The caller has no address (`no_email`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn remove_email(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.store.remove_email(account.id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A page for a person who followed a link from a mail (both languages: the link names no
/// account's). Plain HTML: no script, no style.
fn page(status: StatusCode, en: &str, de: &str, form: Option<&str>) -> HttpResponse {
    let form = form
        .map(|action| {
            format!(
                "<form method=\"post\" action=\"{action}\"><input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\
                 <button type=\"submit\">Unsubscribe · Abbestellen</button></form>\n"
            )
        })
        .unwrap_or_default();
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((
            "Content-Security-Policy",
            "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
        ))
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .body(format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Baumeister</title></head><body>\n\
             <p lang=\"en\">{en}</p>\n<p lang=\"de\">{de}</p>\n{form}<p><a href=\"/\">Baumeister</a></p>\n</body></html>\n"
        ))
}

/// The page for a store error on a link (an unknown or expired token); any other is the API's.
fn link_page(e: StoreError) -> Result<HttpResponse, ApiError> {
    Ok(match e {
        StoreError::Refused(Refusal::ConfirmationInvalid) => page(
            StatusCode::NOT_FOUND,
            "This confirmation link is not valid (a newer one may have replaced it).",
            "Dieser Bestätigungslink gilt nicht (vielleicht hat ihn ein neuerer ersetzt).",
            None,
        ),
        StoreError::Refused(Refusal::ConfirmationExpired) => page(
            StatusCode::GONE,
            "This confirmation link has expired: add the address again for a new one.",
            "Dieser Bestätigungslink ist abgelaufen: gib die Adresse erneut an, um einen neuen zu bekommen.",
            None,
        ),
        StoreError::Refused(Refusal::UnsubscribeInvalid) => page(
            StatusCode::NOT_FOUND,
            "This unsubscribe link is not valid.",
            "Dieser Abmeldelink gilt nicht.",
            None,
        ),
        e => return Err(e.into()),
    })
}

/// Confirm an address: the link in the confirmation mail. Answers an HTML page for the person
/// who opened it (200 confirmed, 404 unknown link, 410 expired).
#[utoipa::path(get, path = "/v1/email/confirm/{token}", tag = "live",
    params(("token" = String, Path, description = "The token from the confirmation mail")),
    responses(
        (status = 200, description = "Confirmed (an HTML page)", content_type = "text/html"),
        NoSuchLink,
        (status = 410, description = "The link expired (an HTML page)", content_type = "text/html"),
    ))]
pub async fn confirm_email(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> ApiResult<HttpResponse> {
    match state.store.confirm_email(&token).await {
        Ok(()) => Ok(page(
            StatusCode::OK,
            "Your address is confirmed: notices about your games will come by mail as you chose.",
            "Deine Adresse ist bestätigt: Nachrichten zu deinen Partien kommen per Mail, wie du es gewählt hast.",
            None,
        )),
        Err(e) => link_page(e),
    }
}

/// The unsubscribe link in every mail, opened in a browser: a page that asks before it
/// unsubscribes (a mail scanner that opens links unsubscribes nobody).
#[utoipa::path(get, path = "/v1/unsubscribe/{token}", tag = "live",
    params(UnsubscribeToken),
    responses(
        (status = 200, description = "A page with the button that unsubscribes (HTML)", content_type = "text/html"),
        NoSuchLink,
    ))]
pub async fn unsubscribe_page(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> ApiResult<HttpResponse> {
    if !state.store.unsubscribe_token_known(&token).await? {
        return link_page(StoreError::Refused(Refusal::UnsubscribeInvalid));
    }
    Ok(page(
        StatusCode::OK,
        "Get no more mail about your games from Baumeister?",
        "Keine Mails mehr zu deinen Partien von Baumeister bekommen?",
        Some(&format!("/v1/unsubscribe/{token}")),
    ))
}

/// One-click unsubscribe (RFC 8058: what a mail program POSTs, with the body
/// `List-Unsubscribe=One-Click`, and what the page's button sends): no more mail of any kind;
/// the account can choose kinds again in its settings.
#[utoipa::path(post, path = "/v1/unsubscribe/{token}", tag = "live",
    params(UnsubscribeToken),
    responses(
        (status = 200, description = "Unsubscribed (an HTML page)", content_type = "text/html"),
        NoSuchLink,
    ))]
pub async fn unsubscribe(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> ApiResult<HttpResponse> {
    match state.store.unsubscribe(&token).await {
        Ok(()) => Ok(page(
            StatusCode::OK,
            "Unsubscribed: no more mail comes from Baumeister. Choose again in your notice settings.",
            "Abbestellt: es kommen keine Mails mehr von Baumeister. In deinen Einstellungen kannst du neu wählen.",
            None,
        )),
        Err(e) => link_page(e),
    }
}

/// The server's VAPID public key: pass it as `applicationServerKey` to
/// `PushManager.subscribe`, then register the subscription with
/// `POST /v1/me/push-subscriptions`.
#[utoipa::path(get, path = "/v1/push/key", tag = "live",
    responses((status = 200, description = "The key", body = PushKey)))]
pub async fn push_key(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(PushKey {
        public_key: state.notices.vapid.public_key.clone(),
    })
}

/// base64url, with or without padding (browsers differ).
fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .or_else(|_| URL_SAFE.decode(text))
        .ok()
}

/// Subscribe a device to push: the notices the caller chose for push (`push_kinds`) go to it.
/// The same endpoint again replaces its keys.
#[utoipa::path(post, path = "/v1/me/push-subscriptions", tag = "live",
    request_body = NewPushSubscription,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Subscribed", body = PushSubscription),
        (status = 200, description = "Subscribed already: the keys were replaced", body = PushSubscription),
        (status = 400, description = "Malformed, bad keys, or an endpoint that is not an https:// URL (`invalid_push_subscription`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 409, description = "The account has 10 devices subscribed already (`too_many_push_subscriptions`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The endpoint's address is not public (`push_endpoint_not_allowed`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn subscribe_push(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let body: NewPushSubscription = body::json(&req, body, BODY_LIMIT).await?;
    let invalid = |detail: &str| ApiError::bad_request("invalid_push_subscription", detail);
    let endpoint = body.endpoint.trim();
    targets::parse(endpoint).map_err(|e| invalid(&e))?;
    if !endpoint.starts_with("https://") && !state.live.allow_private {
        return Err(invalid("A push endpoint is an https:// URL."));
    }
    let p256dh =
        base64url(&body.keys.p256dh).ok_or_else(|| invalid("`keys.p256dh` is not base64url."))?;
    let auth =
        base64url(&body.keys.auth).ok_or_else(|| invalid("`keys.auth` is not base64url."))?;
    encrypt::check_keys(&p256dh, &auth).map_err(|e| {
        invalid(match e {
            encrypt::EncryptError::BadAuthSecret => "`keys.auth` is not 16 bytes.",
            _ => "`keys.p256dh` is not a P-256 public key (65 bytes, uncompressed).",
        })
    })?;
    targets::check_registration(endpoint, state.live.allow_private, &state.live.resolver)
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "push_endpoint_not_allowed",
                e,
            )
        })?;
    let (subscription, new) = state
        .store
        .subscribe_push(account.id, endpoint, &p256dh, &auth)
        .await?;
    let mut response = if new {
        HttpResponse::Created()
    } else {
        HttpResponse::Ok()
    };
    Ok(response
        .insert_header((
            "Location",
            format!("/v1/me/push-subscriptions/{}", subscription.id),
        ))
        .json(subscription))
}

/// The caller's subscribed devices.
#[utoipa::path(get, path = "/v1/me/push-subscriptions", tag = "live",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's devices", body = PushSubscriptionList),
        NoOrBadToken,
    ))]
pub async fn push_subscriptions(
    state: web::Data<AppState>,
    caller: Caller,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let subscriptions = state.store.push_subscriptions(account.id).await?;
    Ok(HttpResponse::Ok().json(PushSubscriptionList { subscriptions }))
}

/// Unsubscribe a device; its pushes not yet sent are dropped.
#[utoipa::path(delete, path = "/v1/me/push-subscriptions/{id}", tag = "live",
    params(("id" = i64, Path, description = "The subscription")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Unsubscribed"),
        NoOrBadToken,
        (status = 404, description = "No such subscription of the caller's (`push_subscription_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn unsubscribe_device(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let id = ApiError::path_id(&id, "push_subscription_not_found", "Push subscription")?;
    state.store.delete_push_subscription(account.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}
