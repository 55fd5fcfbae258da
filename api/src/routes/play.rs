//! Playing: legal moves, commands and taking one back. Reading the past (the log, replays,
//! audits) is in [`super::history`].

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{CommandAccepted, CommandRequest, Executed, Representation, SignedHead};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::openapi::{schema::Schema, Ref, RefOr};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::prefer::wants_representation;
use crate::routes::path_params::GameId;
use crate::routes::problems::{
    BadQuery, BadToken, CommandLimit, NoOrBadToken, NoSuchGame, NotSeated, VersionConflict,
};
use crate::AppState;

fn any_command() -> RefOr<Schema> {
    Ref::from_schema_name("AnyCommand").into()
}

pub(crate) fn any_view() -> RefOr<Schema> {
    Ref::from_schema_name("AnyView").into()
}

/// A command for `POST /v1/games/{id}/commands`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandBody {
    /// The game's command, tagged by `type`.
    #[schema(schema_with = any_command)]
    pub command: Value,
    /// Refuse with 409 `version_conflict` unless the game is still at this version. Without it,
    /// a command that loses a race is decided again on the new state.
    pub expected_version: Option<i64>,
}

/// The caller's legal commands now.
#[derive(Debug, Serialize, ToSchema)]
pub struct Moves {
    pub game_id: i64,
    pub version: i64,
    /// The caller's seat (absent for spectators, who have no moves).
    pub seat: Option<u8>,
    /// Every command the caller may send now, each a body ready for `POST …/commands`, pinned
    /// to the version it was listed at (`expected_version`). Where players act at once, drop
    /// `expected_version` to have the server decide the command on the newest state instead of
    /// answering 409 when somebody else acted first.
    #[schema(value_type = Vec<CommandBody>)]
    pub moves: Vec<ListedMove>,
    /// Whether the caller may take back their last command now (`POST …/undo`; docs/api.md
    /// "Undo"): false for spectators.
    pub can_undo: bool,
    /// The chain head at `version`, signed by the server.
    pub head: SignedHead,
}

/// The optional body of `POST …/undo`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoBody {
    /// Refuse with 409 `version_conflict` unless the game is still at this version.
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    pub expected_version: Option<i64>,
}

/// The caller's board and legal moves, in the answer to a command sent with
/// `Prefer: return=representation`: what `GET /v1/games/{id}` (`view`) and `GET …/moves` would
/// answer the caller at `version`, judged by the same rules of hidden information.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardAndMoves {
    /// The version the board and the moves are at: the command's `version`. In a replayed
    /// answer (`Idempotent-Replayed: true`, which repeats the first answer) the game's version
    /// when the replay was answered, later than `version` when the game has moved on since.
    pub version: i64,
    /// The caller's seat.
    pub your_seat: u8,
    /// The board as the caller may see it at `version`.
    #[schema(schema_with = any_view)]
    pub view: Box<serde_json::value::RawValue>,
    /// Every command the caller may send at `version`, each a body ready for
    /// `POST …/commands`, pinned to `version` (`expected_version`), as `GET …/moves` lists
    /// them: empty when the game waits for somebody else.
    #[schema(value_type = Vec<CommandBody>)]
    pub moves: Vec<ListedMove>,
    /// The chain head at `version`, signed by the server.
    pub head: SignedHead,
    /// Whether you may take back your last command at `version` (`POST …/undo`), as `GET
    /// …/moves`' `can_undo` says.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub can_undo: Option<bool>,
}

impl From<Representation> for BoardAndMoves {
    fn from(r: Representation) -> Self {
        BoardAndMoves {
            version: r.version,
            your_seat: r.seat,
            view: r.view,
            moves: ready_to_send(r.commands, r.version),
            head: r.head,
            can_undo: r.can_undo,
        }
    }
}

/// Legal commands as bodies ready to POST, pinned to the version they were listed at.
pub(crate) fn ready_to_send(commands: Vec<Box<RawValue>>, version: i64) -> Vec<ListedMove> {
    commands
        .into_iter()
        .map(|command| ListedMove {
            command,
            expected_version: version,
        })
        .collect()
}

/// A legal command as the lists of moves send it: a [`CommandBody`] (its schema), written with
/// the command's JSON as the game wrote it, not parsed into a `Value` and written again.
#[derive(Debug, Serialize)]
pub struct ListedMove {
    pub command: Box<RawValue>,
    pub expected_version: i64,
}

/// The answer to an accepted command: what happened and, with `Prefer:
/// return=representation`, the caller's board and legal moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct CommandAnswer {
    #[serde(flatten)]
    #[schema(inline = false, value_type = CommandAccepted)]
    pub accepted: Value,
    /// Present only when asked for with `Prefer: return=representation` (and then
    /// `Preference-Applied: return=representation` says so): one request per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub board: Option<BoardAndMoves>,
}

/// Retrying safely.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Header)]
pub struct CommandHeaders {
    /// 1–200 visible ASCII characters, chosen by the client per command: a request repeating a
    /// key with the same command gets the first response again and changes nothing.
    #[serde(rename = "Idempotency-Key")]
    #[param(
        required = false,
        min_length = 1,
        max_length = 200,
        pattern = "^[!-~]{1,200}$"
    )]
    pub idempotency_key: String,
    /// `return=representation` (RFC 7240): answer with the caller's board and legal moves at
    /// the version the command wrote too (`board`), so that choosing the next command needs no
    /// other request. Other preferences are ignored.
    #[serde(rename = "Prefer")]
    #[param(required = false, example = "return=representation")]
    pub prefer: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MovesQuery {
    /// Answer at this version or a later one (the newest version the client knows of); without
    /// it, at the game's newest version. A version the game has not reached yet gets its newest.
    #[param(minimum = 0)]
    pub min_version: Option<i64>,
}

/// Whether any string (or key) in `value` holds a NUL character, which PostgreSQL's `jsonb`
/// cannot store: such a command is refused before it reaches the database.
fn has_nul(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().any(has_nul),
        Value::Object(map) => map.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
        _ => false,
    }
}

/// The caller's legal commands, each ready to POST as it is.
///
/// At the game's newest version; with `min_version`, at that version or a later one, which the
/// server can answer from memory: a client that follows the stream names the version of the
/// notice it acts on (or of its own command's answer) and is never shown an older game than it
/// has seen. The answer's `version` says which it is; a command decided on an older one than
/// the game's is refused as usual (409 with `expected_version`, else 422 when no longer legal).
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "play",
    params(GameId, MovesQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The legal commands (empty when it is not the caller's turn)", body = Moves),
        BadQuery, BadToken, NoSuchGame,
    ))]
pub async fn moves(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    query: web::Query<MovesQuery>,
) -> ApiResult<HttpResponse> {
    if query.min_version.is_some_and(|v| v < 0) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`min_version` is 0 or more.",
        ));
    }
    let game_id = id.into_inner();
    let legal = state
        .store
        .moves(game_id, caller.reader(), query.min_version)
        .await?;
    Ok(HttpResponse::Ok().json(Moves {
        game_id,
        version: legal.version,
        seat: legal.seat,
        moves: ready_to_send(legal.commands, legal.version),
        can_undo: legal.can_undo,
        head: legal.head,
    }))
}

/// Take back the caller's last command (docs/api.md, "Undo"): allowed while it revealed nothing (it
/// drew no randomness, every event it produced is shown as-is to everybody, it did not end the
/// game) and nothing happened since. Recorded as a command of its own whose one event,
/// `CommandTakenBack`, names the versions taken back; they stay in the log, marked
/// `taken_back`. Answers like `POST …/commands` (also `Prefer: return=representation`), and
/// as there a request repeating an `Idempotency-Key` gets the first answer again
/// (`Idempotent-Replayed: true`) and changes nothing; without a key, a repeated take-back is
/// refused (`nothing_to_undo`: nothing is taken back right after a take-back).
#[utoipa::path(post, path = "/v1/games/{id}/undo", tag = "play",
    params(GameId, CommandHeaders),
    request_body(content = Option<UndoBody>, description = "Optional: `expected_version`"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Taken back: the new version and the `CommandTakenBack` event; with `Prefer: return=representation`, the caller's board and legal moves too", body = CommandAnswer,
            headers(
                ("Preference-Applied" = String, description = "`return=representation` when `board` is present"),
                ("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`"),
            )),
        (status = 400, description = "Malformed body, or a malformed `Idempotency-Key` (`invalid_idempotency_key`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken, NotSeated, NoSuchGame, VersionConflict,
        (status = 422, description = "Refused: `undo_off` (the game's option), `nothing_to_undo`, `not_your_command` (the turn clock's move), `others_acted`, `undo_reveals` (it drew randomness, showed hidden information or ended the game); `idempotency_key_reused` (the key was sent with a command)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn undo(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let body: UndoBody = body::optional_json(&req, body, BODY_LIMIT).await?;
    let key = idempotency_key(&req)?;
    let request = baumeister_storage::UndoRequest {
        game_id: id.into_inner(),
        account_id: account.id,
        idempotency_key: key,
        expected_version: body.expected_version,
        representation: wants_representation(&req),
    };
    Ok(answer(state.store.undo(&request).await?))
}

/// Send a command. With an `Idempotency-Key`, a repeated request returns the first response
/// and changes nothing.
///
/// With `Prefer: return=representation` the answer holds the caller's board and legal moves at
/// the version the command wrote too (`board`), taken from the game's state the server already
/// has in memory: one request per move. A replayed answer repeats the first one, with the
/// board and moves as the game is when the replay is answered (`board.version` says which).
///
/// Refused although the schema allows it: a command of another game (the schema lists every
/// game's commands; 400 `unknown_command`), values out of this game's ranges (400
/// `invalid_command`), and a command the rules forbid now, such as when it is not the caller's
/// turn (422, `code` names the rule). `GET …/moves` lists exactly the commands accepted now.
#[utoipa::path(post, path = "/v1/games/{id}/commands", tag = "play",
    params(GameId, CommandHeaders),
    request_body = CommandBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Accepted: the new version and what happened, as the caller may see it; with `Prefer: return=representation`, the caller's board and legal moves too", body = CommandAnswer,
            headers(
                ("Preference-Applied" = String, description = "`return=representation` when `board` is present"),
                ("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`"),
            )),
        (status = 400, description = "Malformed body, unknown command (`unknown_command`) or bad fields (`invalid_command`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken, NotSeated, NoSuchGame, VersionConflict,
        (status = 422, description = "A rule forbids it; `code` names the rule, `detail` says it in words", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn command(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let key = idempotency_key(&req)?;
    let body: CommandBody = body::json(&req, body, BODY_LIMIT).await?;
    if has_nul(&body.command) {
        return Err(ApiError::bad_request(
            "invalid_command",
            "Text in a command may not contain NUL characters.",
        ));
    }
    if !body.command.is_object() {
        return Err(ApiError::bad_request(
            "invalid_command",
            "`command` is a JSON object with a string field `type`; GET …/moves lists them.",
        ));
    }
    let request = CommandRequest {
        game_id: id.into_inner(),
        account_id: account.id,
        command: &body.command,
        expected_version: body.expected_version,
        idempotency_key: key,
        representation: wants_representation(&req),
    };
    let executed = state.store.execute(&request).await.map_err(ApiError::from);
    if crate::telemetry::recording() {
        // Counted after the command's own work: the kind from this process's cache (no
        // statement).
        let kind = state.store.cached_kind(request.game_id);
        match &executed {
            Ok(_) => crate::telemetry::command(kind, "accepted"),
            Err(e) => crate::telemetry::command(kind, &e.code),
        }
    }
    Ok(answer(executed?))
}

/// The request's `Idempotency-Key`, if it sent one: 1 to 200 visible ASCII characters.
fn idempotency_key(req: &HttpRequest) -> ApiResult<Option<&str>> {
    let Some(value) = req.headers().get("Idempotency-Key") else {
        return Ok(None);
    };
    let visible =
        |k: &&str| (1..=200).contains(&k.len()) && k.bytes().all(|b| (b'!'..=b'~').contains(&b));
    let key = value.to_str().ok().filter(visible);
    key.map(Some).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_idempotency_key",
            "An Idempotency-Key is 1 to 200 visible ASCII characters (no spaces).",
        )
    })
}

/// The answer to an accepted command or take-back, as [`CommandAnswer`] describes it: the
/// response as the store wrote it (once: it is not parsed or written again), and with the
/// preference the board and moves as one more field of the same object.
fn answer(executed: Executed) -> HttpResponse {
    let mut http = HttpResponse::Ok();
    http.content_type(actix_web::mime::APPLICATION_JSON);
    if executed.replayed {
        http.insert_header(("Idempotent-Replayed", "true"));
    }
    let response = String::from(Box::<str>::from(executed.response));
    match executed.representation {
        // Without the preference, the answer is exactly the stored response.
        None => http.body(response),
        Some(representation) => {
            http.insert_header(("Preference-Applied", "return=representation"));
            http.body(with_board(response, &BoardAndMoves::from(representation)))
        }
    }
}

/// The JSON object `accepted` with the field `board` added at its end.
fn with_board(accepted: String, board: &BoardAndMoves) -> Vec<u8> {
    let mut out = accepted.into_bytes();
    debug_assert_eq!(out.last(), Some(&b'}'), "a response is an object");
    out.pop();
    if out.len() > 1 {
        out.push(b',');
    }
    // Room for all of it at once: the board and the moves are written already, the head and
    // each move's envelope are short. Grown from the response's size, a Carcassonne answer was
    // reallocated and copied about eight times.
    let moves: usize = board.moves.iter().map(|m| m.command.get().len() + 40).sum();
    out.reserve(board.view.get().len() + moves + 512);
    out.extend_from_slice(b"\"board\":");
    serde_json::to_writer(&mut out, board).expect("boards serialize");
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The answer written by hand is the object [`CommandAnswer`] describes, byte for byte as
    /// serde would write it with the response flattened into it.
    #[test]
    fn the_answer_with_the_board_is_the_response_with_one_field_more() {
        let accepted =
            json!({"game_id": 7, "version": 12, "events": [{"type": "X"}], "to_act": [1]});
        let board = || BoardAndMoves {
            version: 12,
            your_seat: 0,
            view: serde_json::value::to_raw_value(&json!({"board": [1, 2]})).unwrap(),
            moves: (0..3)
                .map(|i| ListedMove {
                    command: serde_json::value::to_raw_value(&json!({"type": "Take", "n": i}))
                        .unwrap(),
                    expected_version: 12,
                })
                .collect(),
            head: SignedHead {
                game: "g\"".into(),
                version: 12,
                hash: "ab".into(),
                signature: "cd".into(),
                key: "ef".into(),
            },
            can_undo: Some(true),
        };
        let written = with_board(accepted.to_string(), &board());
        let by_serde = serde_json::to_vec(&CommandAnswer {
            accepted,
            board: Some(board()),
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            String::from_utf8(by_serde).unwrap()
        );
        let empty = with_board("{}".into(), &board());
        let parsed: Value = serde_json::from_slice(&empty).unwrap();
        assert_eq!(parsed.as_object().unwrap().len(), 1);
    }
}
