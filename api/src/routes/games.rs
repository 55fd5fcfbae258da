//! The lobby: creating, listing, joining and looking at games.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::Refusal;
use baumeister_storage::{GameDetail, GameSummary, Lifecycle, LobbyFilter, StoreError, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::openapi::{schema::Schema, Ref, RefOr};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::paging;
use crate::routes::path_params::GameId;
use crate::routes::problems::{BadToken, CommandLimit, NoOrBadToken, NoSuchGame};
use crate::routes::seating::{check_client_seed, seat_request, SeatBody};
use crate::AppState;

fn any_options_or_null() -> RefOr<Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(Ref::from_schema_name("AnyOptions"))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .into()
}

/// A game to create; the creator takes seat 0.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A kind from `GET /v1/kinds`.
    #[schema(example = "burgbaumeister")]
    pub kind: String,
    /// How many players (within the kind's seat range).
    #[schema(example = 2, minimum = 1, maximum = 255)]
    pub seats: u8,
    /// The kind's options (its `options_schema`); absent means the defaults.
    #[serde(default)]
    #[schema(schema_with = any_options_or_null)]
    pub options: Option<Value>,
    /// Your own entropy for the game's randomness (docs/fairness.md): 1–64 of `A–Z a–z 0–9 _ . -`.
    /// Absent: the server picks one. Everybody sees it.
    #[schema(pattern = "^[A-Za-z0-9_.-]{1,64}$", example = "my-lucky-seed-42")]
    pub client_seed: Option<String>,
    /// `open` (the default: listed in the lobby, anybody joins) or `private` (listed to and
    /// readable by its players, the accounts invited by name and auditors only; joined with an
    /// invitation: see `POST /v1/games/{id}/invitations`).
    #[serde(default)]
    pub visibility: Visibility,
    /// Whether the game counts for its players' ratings once finished. Default: `true`, but
    /// `false` when `bots` seats any bot (a game against bots is practice unless chosen
    /// otherwise) and for a private game, which is never rated (`true` is refused with
    /// `invalid_options`). Beside the kind's options: every kind takes it.
    #[serde(default)]
    pub rated: Option<bool>,
    /// Whether players may take back their last command (default `true`; see docs/api.md, "Undo"
    /// and `POST /v1/games/{id}/undo`). Beside the kind's options: every kind takes it.
    #[serde(default)]
    #[schema(default = true)]
    pub undo: Option<bool>,
    /// Bots to seat at once, each at its own free seat (1 or more; seat 0 is the creator's).
    /// When they fill the game, it starts.
    #[serde(default)]
    pub bots: Vec<crate::routes::bots::NewBot>,
}

/// Whether the new game is rated: by default unless it is private. A private game is never
/// rated, because a rating is public and its change would tell strangers that the game was
/// played and how it went.
fn rated(body: &NewGame) -> ApiResult<bool> {
    let private = body.visibility == Visibility::Private;
    match body.rated {
        Some(true) if private => Err(ApiError::bad_request(
            "invalid_options",
            "A private game is not rated: leave `rated` out, or set it to false.",
        )),
        Some(rated) => Ok(rated),
        // Against bots, practice unless chosen otherwise.
        None => Ok(!private && body.bots.is_empty()),
    }
}

/// Refuses bots at seat 0, at seats the game does not have, two at one seat, or of a level that
/// does not play the kind: checked before the game is created, so a refusal creates nothing. (An
/// unknown kind is left to the creation, which names it.)
fn check_bots(body: &NewGame) -> ApiResult<()> {
    let mut seen = Vec::new();
    for bot in &body.bots {
        if baumeister_domain::registry::find(&body.kind).is_some()
            && !baumeister_domain::bots::supports(&body.kind, bot.level)
        {
            return Err(
                StoreError::Refused(Refusal::BotLevelUnavailable(body.kind.clone())).into(),
            );
        }
        if bot.seat == 0 || bot.seat >= body.seats || seen.contains(&bot.seat) {
            return Err(ApiError::bad_request(
                "invalid_bots",
                format!(
                    "Bots sit at distinct seats from 1 to {} (seat 0 is yours); seat {} is not one.",
                    body.seats.saturating_sub(1),
                    bot.seat
                ),
            ));
        }
        seen.push(bot.seat);
    }
    Ok(())
}

/// Taking a seat (the body is optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    /// Your own entropy for the game's randomness (docs/fairness.md): 1–64 of `A–Z a–z 0–9 _ . -`.
    /// Absent: the server picks one. Everybody sees it.
    #[schema(pattern = "^[A-Za-z0-9_.-]{1,64}$", example = "my-lucky-seed-42")]
    pub client_seed: Option<String>,
    /// An invitation link's code (as `POST /v1/games/{id}/invitations` gave it): needed for a
    /// private game unless you were invited by name.
    #[schema(min_length = 1, max_length = 200)]
    pub invitation: Option<String>,
}

impl SeatBody for JoinGame {
    fn client_seed(&self) -> &Option<String> {
        &self.client_seed
    }

    fn check(&self) -> ApiResult<()> {
        check_invitation_code(&self.invitation)
    }
}

/// Refuses an invitation code that cannot be one (the length alone: any other code is
/// simply not found).
pub(crate) fn check_invitation_code(code: &Option<String>) -> ApiResult<()> {
    match code {
        Some(c) if c.is_empty() || c.len() > 200 => Err(ApiError::bad_request(
            "invalid_invitation",
            "An invitation code is 1 to 200 characters, as it was given.",
        )),
        _ => Ok(()),
    }
}

/// Lobby filters.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LobbyQuery {
    /// Only this kind.
    pub kind: Option<String>,
    /// Only games in this state.
    pub status: Option<Lifecycle>,
    /// Only games the caller sits at (needs a token).
    pub mine: Option<bool>,
    /// Only games waiting for the caller's command (needs a token).
    pub my_turn: Option<bool>,
    /// Only games with at least this many free seats.
    #[param(minimum = 1, maximum = 255)]
    pub free_seats_min: Option<i64>,
    /// Only games whose turn clock gives at most this many minutes per move (games without a
    /// turn clock are not listed).
    #[param(minimum = 1)]
    pub move_minutes_max: Option<i64>,
    /// Only games whose turn clock gives at least this many minutes per move, or that have no
    /// turn clock (no limit at all).
    #[param(minimum = 1)]
    pub move_minutes_min: Option<i64>,
    /// Page size, 1–100 (default 20); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 20)]
    pub limit: Option<i64>,
    /// How many games to skip (default 0).
    #[param(minimum = 0, default = 0)]
    pub offset: Option<i64>,
}

/// The lobby's filter on options (read from the query string by hand: it repeats).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct OptionFilter {
    /// Only games whose options hold this value: `name:value`, repeated for several (all must
    /// hold). The value is read as JSON when it is JSON (`points:10`, `fast:true`,
    /// `variant:"x"`), else as a string (`variant:classic`). At most 10, each name once.
    #[param(style = Form, explode, schema_with = option_filters, example = json!(["move_minutes:60"]))]
    pub option: Option<Vec<String>>,
}

/// The `option` parameter's schema: up to [`OPTION_FILTERS`] of `name:value` (a name of 1 to
/// 64 characters without `:`, a value of at most 200; no NUL), as `option_filter` reads them.
fn option_filters() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^[^:\\u0000]{1,64}:[^\\u0000]{0,200}$")),
        )
        .max_items(Some(OPTION_FILTERS))
        .build()
}

/// At most this many `option` filters.
const OPTION_FILTERS: usize = 10;

/// The `option` filters as a JSON array of objects, each of which the game's options must
/// contain.
fn option_filter(raw: &[(String, String)]) -> ApiResult<Option<Value>> {
    if raw.is_empty() {
        return Ok(None);
    }
    let refuse = |detail: String| ApiError::bad_request("invalid_query", detail);
    if raw.len() > OPTION_FILTERS {
        return Err(refuse(format!(
            "At most {OPTION_FILTERS} `option` filters."
        )));
    }
    let mut wanted = Vec::with_capacity(raw.len());
    for (_, filter) in raw {
        let Some((name, value)) = filter.split_once(':') else {
            return Err(refuse(format!(
                "`option` is `name:value`, not `{}`.",
                filter.escape_debug()
            )));
        };
        if name.is_empty() || name.len() > 64 || value.len() > 200 || filter.contains('\0') {
            return Err(refuse(
                "An `option` filter's name is 1 to 64 characters, its value at most 200.".into(),
            ));
        }
        let value: Value = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
        // PostgreSQL's jsonb holds no NUL character: refused here, not failed there.
        if value.to_string().contains("\\u0000") {
            return Err(refuse(
                "An `option` filter may not hold NUL characters.".into(),
            ));
        }
        // Each filter must hold: one naming an option twice with two values matches nothing.
        wanted.push(json!({ name: value }));
    }
    Ok(Some(Value::Array(wanted)))
}

/// Poll cheaply: send the `ETag` of the last answer.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Header)]
pub struct ConditionalGet {
    /// The `ETag` of a previous answer (or `*`): 304 while the game is unchanged.
    #[serde(rename = "If-None-Match")]
    #[param(required = false)]
    pub if_none_match: String,
}

/// A page of the lobby.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// Pass as `offset` for the next page; absent on the last page.
    pub next_offset: Option<i64>,
}

/// Create a game.
///
/// Refused although the schema allows it (400 `invalid_options`): a seat count outside the
/// kind's `min_seats`–`max_seats` (`GET /v1/kinds`), and options of another kind (the schema
/// lists every kind's options).
#[utoipa::path(post, path = "/v1/games", tag = "games",
    request_body = NewGame,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created; the creator sits at seat 0", body = GameSummary),
        (status = 400, description = "Malformed, unknown kind (`unknown_kind`), seat count or options not allowed, or a private game asked to be rated (`invalid_options`), bad client seed (`invalid_client_seed`), bots at seat 0, at a seat the game does not have or two at one seat (`invalid_bots`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "The account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn create(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let body: NewGame = body::json(&req, body, BODY_LIMIT).await?;
    check_client_seed(&body.client_seed)?;
    check_bots(&body)?;
    let rated = rated(&body)?;
    state.limits.write(account.id)?;
    let options = body.options.clone().unwrap_or(Value::Null);
    let summary = state
        .store
        .create_game(
            &body.kind,
            body.seats,
            &options,
            baumeister_storage::Table {
                rated,
                visibility: body.visibility,
                undo: body.undo.unwrap_or(true),
            },
            account.id,
            body.client_seed.as_deref(),
        )
        .await?;
    tracing::info!(game = summary.id, kind = %summary.kind, "created");
    let summary = crate::routes::bots::seat_bots(&state, summary.id, account.id, &body.bots)
        .await?
        .unwrap_or(summary);
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", summary.id)))
        .json(summary))
}

/// The lobby, newest first. Private games are listed only to those who may watch them (their
/// players, the accounts invited by name, auditors). With `status=open`, the filters find a
/// game to join: `kind`, `free_seats_min`, `option=name:value` and the turn clock's
/// `move_minutes_min`/`move_minutes_max`.
#[utoipa::path(get, path = "/v1/games", tag = "games",
    params(LobbyQuery, OptionFilter),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of games", body = GamePage),
        (status = 400, description = "Bad filter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Bad token, or `mine`/`my_turn` without one", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn lobby(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    // `option` repeats, which the query's struct cannot hold: it is read apart.
    let (options, rest): (Vec<&str>, Vec<&str>) = req
        .query_string()
        .split('&')
        .filter(|p| !p.is_empty())
        .partition(|p| p.split('=').next() == Some("option"));
    let bad = |e: actix_web::error::QueryPayloadError| {
        ApiError::bad_request("invalid_query", e.to_string())
    };
    let q = web::Query::<LobbyQuery>::from_query(&rest.join("&"))
        .map_err(bad)?
        .into_inner();
    let options = web::Query::<Vec<(String, String)>>::from_query(&options.join("&"))
        .map_err(bad)?
        .into_inner();
    let options = option_filter(&options)?;
    if q.free_seats_min.is_some_and(|n| !(1..=255).contains(&n))
        || q.move_minutes_max.is_some_and(|n| n < 1)
        || q.move_minutes_min.is_some_and(|n| n < 1)
    {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`free_seats_min` is 1 to 255; `move_minutes_min` and `move_minutes_max` are 1 or more.",
        ));
    }
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`limit` is 1 to 100.",
        ));
    }
    let offset = q.offset.unwrap_or(0);
    if offset < 0 {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`offset` is 0 or more.",
        ));
    }
    if let Some(kind) = &q.kind {
        if baumeister_domain::registry::find(kind).is_none() {
            return Err(ApiError::bad_request(
                "unknown_kind",
                format!("No game kind `{}`; see GET /v1/kinds.", kind.escape_debug()),
            ));
        }
    }
    let me = || caller.clone().require().map(|a| a.id);
    let filter = LobbyFilter {
        kind: q.kind,
        status: q.status,
        seated: if q.mine == Some(true) {
            Some(me()?)
        } else {
            None
        },
        to_act: if q.my_turn == Some(true) {
            Some(me()?)
        } else {
            None
        },
        reader: Some(caller.reader()),
        free_seats_min: q.free_seats_min,
        options,
        move_minutes_max: q.move_minutes_max,
        move_minutes_min: q.move_minutes_min,
        limit: limit + 1,
        offset,
    };
    let mut games = state.store.lobby(&filter).await?;
    let next_offset = paging::next_offset(&mut games, limit, offset);
    Ok(HttpResponse::Ok().json(GamePage { games, next_offset }))
}

/// Take a free seat. The game starts when the last seat is taken. A private game is joined
/// with an invitation: a link's code as `invitation`, or your own invitation by name (this
/// accepts it, as `POST /v1/me/invitations/{id}/accept` does).
#[utoipa::path(post, path = "/v1/games/{id}/join", tag = "games",
    params(GameId),
    request_body(content = Option<JoinGame>, description = "Optional: your client seed, an invitation link's code."),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seated", body = GameSummary),
        (status = 400, description = "Malformed body, bad client seed (`invalid_client_seed`) or invitation code (`invalid_invitation`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "A private game you may see but hold no invitation to (`invitation_required`), a code that is not one of its links (`invitation_invalid`), an expired (`invitation_expired`), revoked (`invitation_revoked`) or used-up (`invitation_used_up`) link; the account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game (a private game you may not see, with no valid code, is not there for you)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already seated (`already_seated`) or the game is not open (`game_not_open`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn join(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let (account, body): (_, JoinGame) = seat_request(&state, caller, &req, body).await?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let reader = Caller(Some(account)).reader();
    let summary = state
        .store
        .join_with(
            id.into_inner(),
            reader,
            body.client_seed.as_deref(),
            body.invitation.as_deref(),
        )
        .await?;
    Ok(HttpResponse::Ok().json(summary))
}

/// The game: status, seats, who must act, and the board as the caller may see it.
/// `ETag` changes with every event, seat taken, turn deadline and vacation; send it in
/// `If-None-Match` to poll cheaply.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games",
    params(GameId, ConditionalGet),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game as the caller may see it", body = GameDetail,
            headers(("ETag" = String, description = "Changes with every event, seat taken, turn deadline and vacation"))),
        (status = 304, description = "Unchanged since the `If-None-Match` ETag",
            headers(("ETag" = String, description = "The same ETag (RFC 9110: a 304 carries it)"))),
        BadToken, NoSuchGame,
    ))]
pub async fn show(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    let detail = state.store.game(id.into_inner(), caller.reader()).await?;
    // Turn deadlines and vacations change without an event (a vacation pushes them back).
    let clocks = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for seat in &detail.summary.seats {
            (&seat.turn_deadline, &seat.vacation_until).hash(&mut hasher);
        }
        hasher.finish()
    };
    let etag = format!(
        "\"{}.{}.{}.{clocks:x}\"",
        detail.summary.version,
        detail.summary.seats.len(),
        detail.your_seat.map(i32::from).unwrap_or(-1)
    );
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag))
        .insert_header((header::VARY, "Authorization"))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"));
    Ok(if unchanged {
        response.finish()
    } else {
        response.json(detail)
    })
}
