//! Invitations to a game: by account name or as a link, listed, revoked; and the caller's own,
//! accepted or declined. They stand beside the game (see `baumeister_storage`'s
//! `invitations.rs`): nothing of them enters its log, chain, replay, audit or export.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{
    GameSummary, Invitation, Invitee, MyInvitation, DEFAULT_EXPIRY_HOURS, MAX_EXPIRY_HOURS,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::path_params::{GameId, InvitationId};
use crate::routes::problems::{
    BadClientSeed, CommandLimit, NoOrBadToken, NoSuchGame, NoSuchInvitation, NotSeated,
};
use crate::routes::seating::{seat_request, SeatBody};
use crate::AppState;

/// An invitation to create: a player by name, or a link (the spec shows the two shapes:
/// `NewInvitationShape`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewInvitation {
    /// The account to invite, by name (not with `link`).
    pub player: Option<String>,
    /// `true`: a link instead, whose code anybody you give it to joins with (not with `player`).
    pub link: Option<bool>,
    /// How long the invitation holds: 1 to 720 hours (30 days); default 168 (a week).
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    pub expires_in_hours: Option<i64>,
    /// A link only: how many seats it may fill, 1 to 254; absent: until the game is full.
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    pub max_uses: Option<i32>,
}

// The spec's shape of `NewInvitation`, which reads both: one of the two, each with only its own
// fields, so that a generated client cannot send a mixture the server refuses.
/// An invitation to create: a player by name, or a link.
#[derive(Deserialize, ToSchema)]
#[schema(as = NewInvitation)]
#[allow(dead_code)]
#[serde(untagged)]
enum NewInvitationShape {
    ByName(InviteByName),
    ByLink(InviteByLink),
}

/// An invitation of an account, by name.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct InviteByName {
    /// The account to invite, by name.
    #[schema(example = "bea", min_length = 1, max_length = 64)]
    player: String,
    /// How long the invitation holds: 1 to 720 hours (30 days); default 168 (a week).
    #[schema(minimum = 1, maximum = 720, default = 168)]
    expires_in_hours: Option<i64>,
}

/// A link whose code anybody you give it to joins with.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct InviteByLink {
    /// `true`.
    #[schema(schema_with = only_true)]
    link: bool,
    /// How long the link holds: 1 to 720 hours (30 days); default 168 (a week).
    #[schema(minimum = 1, maximum = 720, default = 168)]
    expires_in_hours: Option<i64>,
    /// How many seats it may fill, 1 to 254; absent: until the game is full.
    #[schema(minimum = 1, maximum = 254)]
    max_uses: Option<i32>,
}

fn only_true() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Boolean)
        .enum_values(Some([true]))
        .build()
}

/// A new invitation; a link's code is shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedInvitation {
    pub invitation: Invitation,
    /// A link's code (48 hexadecimal digits): join with `POST /v1/games/{id}/join
    /// {"invitation": code}`. The server keeps only its SHA-256; it is never shown again.
    pub code: Option<String>,
}

/// A game's invitations, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationList {
    pub invitations: Vec<Invitation>,
}

/// The caller's pending invitations to open games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyInvitationList {
    pub invitations: Vec<MyInvitation>,
}

/// Accepting an invitation (the body is optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptInvitation {
    /// Your own entropy for the game's randomness (docs/fairness.md): 1–64 of `A–Z a–z 0–9 _ . -`.
    /// Absent: the server picks one. Everybody sees it.
    #[schema(pattern = "^[A-Za-z0-9_.-]{1,64}$", example = "my-lucky-seed-42")]
    pub client_seed: Option<String>,
}

impl SeatBody for AcceptInvitation {
    fn client_seed(&self) -> &Option<String> {
        &self.client_seed
    }
}

/// The 429 of `create_invitation`.
const INVITATION_LIMIT: &str = "The command limit (`rate_limited`), or as many players never played with invited in the last 24 hours as `INVITATION_STRANGERS_PER_DAY` allows (`too_many_invitations`)";

fn invalid(detail: &str) -> ApiError {
    ApiError::bad_request("invalid_invitation", detail)
}

/// Invite a player by name, or create a link. Any seated player may, while the game is open;
/// it may be open or private (an open game's invitation is a notice: anybody joins it anyway).
/// The player invited is told on `/v1/me/stream` (`event: invitation`) and by their
/// `invitation` webhooks; a private game is then theirs to watch until they answer. Invitations
/// of players the caller never sat with at a game that started are bounded: such a player may
/// refuse them (`invitation_refused`), one account invites at most `INVITATION_STRANGERS_PER_DAY`
/// of them a day (`too_many_invitations`), and each is told by mail and push of at most
/// `INVITATION_NOTICES_FROM_STRANGERS_PER_DAY` of them a day (the rest are listed only).
#[utoipa::path(post, operation_id = "create_invitation", path = "/v1/games/{id}/invitations", tag = "games",
    params(GameId),
    request_body = NewInvitationShape,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Invited; a link's code is in `code`, shown this once", body = CreatedInvitation),
        (status = 400, description = "Malformed, neither or both of `player` and `link`, or an expiry or cap out of range (`invalid_invitation`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "The caller does not sit at this game (`not_seated`), or the player named refuses invitations from accounts it never played with (`invitation_refused`); the account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (`game_not_found`) or no account of that name (`not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is not open (`game_not_open`), the player already sits at it (`already_seated`) or holds a pending invitation to it (`already_invited`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The player named is a bot (`invitee_is_bot`): bots answer no invitations; the game's creator seats one with `POST /v1/games/{id}/bots`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = INVITATION_LIMIT, body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the next command, or the next invitation of a stranger, may be sent"))),
    ))]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let body: NewInvitation = body::json(&req, body, BODY_LIMIT).await?;
    let invitee = match (body.player, body.link) {
        (Some(player), None | Some(false)) => {
            if body.max_uses.is_some() {
                return Err(invalid("`max_uses` is for links."));
            }
            if player.is_empty() || player.len() > 64 {
                return Err(invalid("`player` is an account's name."));
            }
            Invitee::Player(player)
        }
        (None, Some(true)) => {
            if body.max_uses.is_some_and(|m| !(1..=254).contains(&m)) {
                return Err(invalid("`max_uses` is 1 to 254."));
            }
            Invitee::Link {
                max_uses: body.max_uses,
            }
        }
        _ => {
            return Err(invalid(
                "Name a `player` to invite, or ask for a `link` (`\"link\": true`), not both.",
            ))
        }
    };
    let hours = body.expires_in_hours.unwrap_or(DEFAULT_EXPIRY_HOURS);
    if !(1..=MAX_EXPIRY_HOURS).contains(&hours) {
        return Err(invalid(&format!(
            "`expires_in_hours` is 1 to {MAX_EXPIRY_HOURS}."
        )));
    }
    state.limits.write(account.id)?;
    let (invitation, code) = state
        .store
        .invite(
            id.into_inner(),
            account.id,
            &invitee,
            hours,
            state.notices.invitations,
        )
        .await?;
    Ok(HttpResponse::Created().json(CreatedInvitation { invitation, code }))
}

/// The game's invitations, newest first (never a link's code): for its seated players.
#[utoipa::path(get, operation_id = "list_invitations", path = "/v1/games/{id}/invitations", tag = "games",
    params(GameId),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The invitations", body = InvitationList),
        NoOrBadToken, NotSeated, NoSuchGame,
    ))]
pub async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let reader = Caller(Some(caller.require()?)).reader();
    let invitations = state
        .store
        .game_invitations(id.into_inner(), reader)
        .await?;
    Ok(HttpResponse::Ok().json(InvitationList { invitations }))
}

/// Revoke a pending invitation or a link (any seated player): it stops working at once.
#[utoipa::path(delete, operation_id = "revoke_invitation", path = "/v1/games/{id}/invitations/{invitation_id}", tag = "games",
    params(GameId,
           ("invitation_id" = i64, Path, description = "The invitation")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Revoked"),
        NoOrBadToken, NotSeated,
        (status = 404, description = "No such game (`game_not_found`) or invitation (`invitation_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already accepted, declined or revoked (`invitation_not_pending`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn revoke(
    state: web::Data<AppState>,
    caller: Caller,
    path: web::Path<(i64, i64)>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let (game_id, invitation_id) = path.into_inner();
    let reader = Caller(Some(account)).reader();
    state
        .store
        .revoke_invitation(game_id, reader, invitation_id)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The caller's pending invitations by name to games still open, newest first, each with its
/// game. Subscribe to `/v1/me/stream` to hear of new ones.
#[utoipa::path(get, operation_id = "my_invitations", path = "/v1/me/invitations", tag = "live",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's invitations", body = MyInvitationList),
        NoOrBadToken,
    ))]
pub async fn mine(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let invitations = state.store.my_invitations(account.id).await?;
    Ok(HttpResponse::Ok().json(MyInvitationList { invitations }))
}

/// Accept an invitation: take a free seat exactly as `POST /v1/games/{id}/join` does (the game
/// starts when the last seat is taken).
#[utoipa::path(post, operation_id = "accept_invitation", path = "/v1/me/invitations/{id}/accept", tag = "live",
    params(InvitationId),
    request_body(content = Option<AcceptInvitation>, description = "Optional: your client seed."),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seated", body = GameSummary),
        BadClientSeed, NoOrBadToken,
        (status = 403, description = "The invitation has expired (`invitation_expired`); the account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        NoSuchInvitation,
        (status = 409, description = "Already answered or revoked (`invitation_not_pending`), already seated (`already_seated`) or the game is no longer open (`game_not_open`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn accept(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let (account, body): (_, AcceptInvitation) = seat_request(&state, caller, &req, body).await?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let reader = Caller(Some(account)).reader();
    let summary = state
        .store
        .accept_invitation(reader, id.into_inner(), body.client_seed.as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(summary))
}

/// Decline an invitation: a private game is no longer yours to see.
#[utoipa::path(post, operation_id = "decline_invitation", path = "/v1/me/invitations/{id}/decline", tag = "live",
    params(InvitationId),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Declined"),
        NoOrBadToken,
        (status = 403, description = "The invitation has expired (`invitation_expired`)", body = Problem, content_type = "application/problem+json"),
        NoSuchInvitation,
        (status = 409, description = "Already answered or revoked (`invitation_not_pending`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn decline(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    state
        .store
        .decline_invitation(account.id, id.into_inner())
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
