//! Trusting a game without trusting the server: its public signing key, whole-game exports
//! (checked offline by `baumeister verify`) and imports into another server.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::Refusal;
use baumeister_storage::{Export, GameSummary, StoreError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, IMPORT_BODY_LIMIT};
use crate::error::{ApiResult, Problem};
use crate::limits::ClientAddress;
use crate::routes::path_params::GameId;
use crate::routes::problems::{BadToken, NoOrBadToken, NoSuchGame};
use crate::AppState;

/// The keys this server signs chain heads with.
#[derive(Debug, Serialize, ToSchema)]
pub struct Keys {
    pub keys: Vec<PublicKey>,
}

/// An Ed25519 public key.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicKey {
    /// `ed25519`.
    pub algorithm: &'static str,
    /// The 32-byte public key, hexadecimal (what a signed head's `key` names).
    pub key: String,
    /// What a signature covers: `baumeister-head/1 <game uid> <version> <hash>` in UTF-8.
    pub signs: &'static str,
}

/// The public key that signs every game's chain head (see docs/fairness.md).
#[utoipa::path(get, path = "/v1/keys", tag = "trust",
    responses((status = 200, description = "The signing keys", body = Keys)))]
pub async fn keys(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(Keys {
        keys: vec![PublicKey {
            algorithm: "ed25519",
            key: state.store.public_key(),
            signs: "baumeister-head/1 <game> <version> <hash>",
        }],
    })
}

/// The whole game as one JSON document, checkable offline with `baumeister verify FILE`:
/// metadata, options, seats and client seeds, every command with its position, clock and
/// derived seed, every event with its hash, the revealed secret and the signed head.
/// Finished games, for anybody; nobody, auditors included, exports a running game (the export
/// carries the secret, from which every later draw follows).
#[utoipa::path(get, path = "/v1/games/{id}/export", tag = "trust",
    params(GameId),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The export", body = Export),
        BadToken, NoSuchGame,
        (status = 409, description = "The game is still running (`game_not_ended`: its export would carry the secret), or predates provable fairness (`not_exportable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "`rate_limited`: exports count as replays and audits (`LIMIT_EXPENSIVE_READS`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the next replay, audit or export may be asked for"))),
    ))]
pub async fn export(
    state: web::Data<AppState>,
    caller: Caller,
    client: ClientAddress,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    state.limits.expensive_read(&client)?;
    let game_id = id.into_inner();
    let export = state.store.export(game_id, caller.reader()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"baumeister-{}.json\"", export.game),
        ))
        .json(export))
}

/// Load a finished game exported by this server or one whose key the operator trusts
/// (`TRUSTED_KEYS`; auditors). The export is verified as `baumeister verify` would first; the
/// game keeps its uid (and so every hash) under a new id, and the head its own server signed
/// (`fairness.origin_key` names that key); this server's audit of it passes. Its players have
/// no accounts here: nobody sits at it.
///
/// Refused although the schema allows it (422 `import_refused`): an export that does not
/// verify (hashes, seeds, decisions or signature that do not match), and a game that has not
/// ended.
#[utoipa::path(post, path = "/v1/games/import", tag = "trust",
    request_body = Export,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Imported", body = GameSummary),
        (status = 400, description = "Not an export (`malformed_request`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "The caller is not an auditor (`not_auditor`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A game with this uid is already here (`already_imported`; `detail` names it)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The head is signed by a key this server does not trust (`untrusted_key`: only its own and those in `TRUSTED_KEYS`), or the export does not verify or the game has not ended (`import_refused`; `detail` names the first difference)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn import(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    // Who may import is settled before a byte of the (large) body is read.
    if !caller.clone().require()?.auditor {
        return Err(StoreError::Refused(Refusal::NotAuditor).into());
    }
    let export: Export = body::json(&req, body, IMPORT_BODY_LIMIT).await?;
    let summary = state.store.import(export, caller.reader()).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", summary.id)))
        .json(summary))
}
