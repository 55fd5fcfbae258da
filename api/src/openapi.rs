//! The spec, generated from the code: routes and their bodies from `utoipa::path` (on the
//! handlers the route table names), and every game's options, commands, events and views from
//! the domain, with the unions that cover all games (`AnyCommand`, `AnyEvent`, `AnyView`,
//! `AnyOptions`).

use baumeister_domain::registry;
use baumeister_domain::schema::one_of;
use utoipa::openapi::schema::{AnyOfBuilder, Schema};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{Modify, OpenApi};

use crate::error::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Baumeister",
        version = "1.0.0",
        description = "Play builder board games by web, each at your own pace. Register, log in, create or join a game, then follow `GET /v1/games/{id}/moves`: every legal command is listed ready to POST to `/v1/games/{id}/commands`. Errors are `application/problem+json` with a stable `code`. Limits answer 429 `rate_limited` with `Retry-After` (seconds): by default 120 commands per 10 s per account (creating games and taking seats count too), 20 logins and 10 registrations per minute per client address, 6 attempts per minute on one account name, 10 chat messages per 10 s per account, 60 replays and audits per 10 s per address. A token is valid for 7 days unless `DELETE /v1/tokens` revokes it earlier. Commands, events and views of every game are named schemas, tagged by `type`. Whole numbers are written without a fraction (`2`, not `2.0`). Bodies are JSON of at most 64 KiB (a chat message: 8 KiB; an import: 32 MiB) and pages hold at most 100 games, 100 chat messages or 1000 events: each operation says so.",
        license(name = "MIT"),
    ),
    components(schemas(Problem, crate::live::status::StreamStatus, baumeister_storage::LoggedEvent, baumeister_storage::MyGame, baumeister_storage::ChatMessage, baumeister_storage::MyInvitation, baumeister_storage::Rematch)),
    modifiers(&RouteOperations, &GameSchemas, &BearerAuth),
    tags(
        (name = "accounts", description = "Registering, logging in, vacations; changing or resetting a password, deleting an account, downloading its data"),
        (name = "games", description = "The games offered, the lobby, seats and boards"),
        (name = "play", description = "Legal moves, commands, the log and replays"),
        (name = "players", description = "Players' profiles and the kinds' leaderboards: Glicko-2 ratings per kind, updated when a rated game finishes"),
        (name = "live", description = "Following your games: live streams (Server-Sent Events), the games waiting for you, webhooks, and notices to people by email and Web Push"),
        (name = "chat", description = "Chat at the table: each game's players' channel (`table`) and spectators' channel (`spectators`), a side channel never part of the game (not in its events, replay, export or audit); mutes"),
        (name = "moderation", description = "Reports of chat messages and players; for moderators (a role the operator grants): the queue of reports, removing messages, suspending accounts for a time, and the log of every moderator's action (docs/moderation.md)"),
        (name = "trust", description = "Provably fair randomness, signed chain heads, exports anybody can verify offline (`baumeister verify FILE`) and imports"),
        (name = "operations", description = "For operators"),
    )
)]
struct ApiDoc;

/// The operations, from the route table that registers them too ([`crate::routes::table`]),
/// with the schemas they name. Added first: a schema the modifiers after it insert replaces one
/// of the same name, as it would replace one collected from `paths(...)`.
struct RouteOperations;

impl Modify for RouteOperations {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.merge(crate::routes::table::Operations::openapi());
    }
}

struct GameSchemas;

impl Modify for GameSchemas {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut commands = Vec::new();
        let mut events = Vec::new();
        let mut views = Vec::new();
        let mut options = AnyOfBuilder::new().description(Some(
            "The options of one game kind (see `options_schema` in `GET /v1/kinds`).",
        ));
        for game in registry::all() {
            let schemas = game.schemas();
            for (name, schema) in schemas.schemas {
                components.schemas.insert(name, schema);
            }
            commands.extend(schemas.commands);
            events.extend(schemas.events);
            views.push(schemas.view);
            options = options.item(Ref::from_schema_name(schemas.options));
        }
        // Every kind's take-back (docs/api.md, "Undo").
        components.schemas.insert(
            baumeister_domain::take_back::EVENT.to_string(),
            baumeister_domain::schema::with_tag(
                <baumeister_domain::take_back::CommandTakenBack as utoipa::PartialSchema>::schema(),
                baumeister_domain::take_back::EVENT,
            ),
        );
        events.push(baumeister_domain::take_back::EVENT);
        let views: Vec<&str> = views.iter().map(String::as_str).collect();
        let unions: [(&str, RefOr<Schema>); 4] = [
            (
                "AnyCommand",
                one_of(&commands, "A command of any game, told apart by `type`."),
            ),
            (
                "AnyEvent",
                one_of(&events, "An event of any game, told apart by `type`."),
            ),
            (
                "AnyView",
                one_of(&views, "A board of any game, told apart by `type`."),
            ),
            ("AnyOptions", RefOr::T(Schema::AnyOf(options.build()))),
        ];
        for (name, schema) in unions {
            components.schemas.insert(name.to_string(), schema);
        }
    }
}

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("From `POST /v1/tokens`."))
                    .build(),
            ),
        );
    }
}

/// The whole spec, as JSON.
pub fn spec() -> serde_json::Value {
    let mut json = serde_json::to_value(ApiDoc::openapi()).expect("the spec serializes");
    bound_integers(&mut json);
    inline_primitive_aliases(&mut json);
    plain_optional_bodies(&mut json);
    add_common_responses(&mut json);
    enumerate_kinds(&mut json);
    json
}

/// Where a client names a game kind, the spec lists the kinds this server offers.
fn enumerate_kinds(spec: &mut serde_json::Value) {
    let kinds: Vec<serde_json::Value> = registry::all().iter().map(|g| g.kind().into()).collect();
    if let Some(kind) = spec.pointer_mut("/components/schemas/NewGame/properties/kind") {
        kind["enum"] = kinds.clone().into();
    }
    for path in [
        "/paths/~1v1~1games/get/parameters",
        "/paths/~1v1~1kinds~1{kind}/get/parameters",
        "/paths/~1v1~1kinds~1{kind}~1rules/get/parameters",
    ] {
        if let Some(params) = spec
            .pointer_mut(path)
            .and_then(serde_json::Value::as_array_mut)
        {
            for param in params.iter_mut().filter(|p| p["name"] == "kind") {
                param["schema"]["enum"] = kinds.clone().into();
            }
        }
    }
}

/// utoipa writes an optional body (`Option<T>`) as `oneOf [null, T]`, and a client generated
/// from that (openapi-python-client, for one) fails when called without a body. An optional body
/// is the plain object instead, in a request body that is not required: every field of such a
/// type is optional, and the server takes no body, an empty one, `null` and `{}` alike
/// (`crate::body::optional_json`).
fn plain_optional_bodies(spec: &mut serde_json::Value) {
    use serde_json::Value;
    let Some(paths) = spec.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for op in paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|i| i.values_mut())
    {
        let Some(body) = op.get_mut("requestBody") else {
            continue;
        };
        let Some(schema) = body.pointer_mut("/content/application~1json/schema") else {
            continue;
        };
        let plain = schema
            .get("oneOf")
            .and_then(Value::as_array)
            .and_then(|items| {
                let [a, b] = items.as_slice() else {
                    return None;
                };
                match (
                    a.get("type").and_then(Value::as_str),
                    b.get("type").and_then(Value::as_str),
                ) {
                    (Some("null"), _) => Some(b.clone()),
                    (_, Some("null")) => Some(a.clone()),
                    _ => None,
                }
            });
        if let Some(plain) = plain {
            *schema = plain;
            body["required"] = false.into();
        }
    }
}

/// Answers every operation can give, added once here rather than on every route: 503 when the
/// database does not answer; and for requests with a body, its size limit (in the body's
/// description), 413 beyond it, 408 when it arrives too slowly and 415 when it is not
/// `application/json`.
fn add_common_responses(spec: &mut serde_json::Value) {
    use serde_json::{json, Value};
    let problem = |description: &str| {
        json!({
            "description": description,
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
        })
    };
    let Some(paths) = spec.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let limit = match path.as_str() {
            "/v1/games/import" => crate::IMPORT_BODY_LIMIT,
            "/v1/games/{id}/chat" => crate::routes::chat::CHAT_BODY_LIMIT,
            _ => crate::BODY_LIMIT,
        };
        let limit = if limit >= 1024 * 1024 {
            format!("{} MiB", limit / (1024 * 1024))
        } else {
            format!("{} KiB", limit / 1024)
        };
        for op in item.values_mut() {
            if let Some(body) = op.get_mut("requestBody").and_then(Value::as_object_mut) {
                let said = body
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let description = format!(
                    "{said}{}At most {limit} of JSON, on the wire and once inflated (`Content-Encoding: gzip` or `deflate` may be used), nested at most {} deep, sent whole within `CLIENT_BODY_TIMEOUT_SECONDS` (10 s by default) of the headers.",
                    if said.is_empty() { "" } else { " " },
                    crate::body::MAX_DEPTH,
                );
                body.insert("description".into(), description.into());
            }
            let has_body = op.get("requestBody").is_some();
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            if has_body {
                if let Some(Value::String(said)) = responses
                    .get_mut("400")
                    .and_then(|r| r.get_mut("description"))
                {
                    said.push_str(&format!(
                        "; JSON nested deeper than {} (`too_deeply_nested`)",
                        crate::body::MAX_DEPTH
                    ));
                }
            }
            responses.entry("503").or_insert_with(|| {
                let mut unavailable = problem("The database does not answer right now (`database_unavailable`), or the server or the game is too busy (`busy`); try again after `Retry-After`");
                unavailable["headers"] = json!({"Retry-After": {
                    "description": "Seconds to wait before trying again",
                    "schema": {"type": "integer", "format": "int64", "minimum": 0}
                }});
                unavailable
            });
            if has_body {
                responses.insert(
                    "413".into(),
                    problem(&format!(
                        "The body is larger than {limit}, on the wire or inflated (`payload_too_large`)"
                    )),
                );
                responses.entry("408").or_insert_with(|| {
                    problem("The body did not arrive whole within `CLIENT_BODY_TIMEOUT_SECONDS` of the headers (`request_timeout`); the connection is closed")
                });
                responses.entry("415").or_insert_with(|| {
                    problem("The body is not `application/json` (`unsupported_media_type`), or is encoded otherwise than with gzip or deflate (`unsupported_content_encoding`)")
                });
            }
        }
    }
}

/// utoipa writes a `u8` as `format: uint8` without a maximum: a client (or a fuzzer) would
/// send 300 where the server can only take 255. Each narrow integer gets its type's bounds
/// and one of OpenAPI's own formats (`int32`, `int64`).
fn bound_integers(spec: &mut serde_json::Value) {
    use serde_json::Value;
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                let bounds = match map.get("format").and_then(Value::as_str) {
                    Some("int8") => Some((Some(i8::MIN as i64), Some(i8::MAX as i64), "int32")),
                    Some("int16") => Some((Some(i16::MIN as i64), Some(i16::MAX as i64), "int32")),
                    Some("uint8" | "u-int8") => Some((Some(0), Some(u8::MAX as i64), "int32")),
                    Some("uint16" | "u-int16") => Some((Some(0), Some(u16::MAX as i64), "int32")),
                    Some("uint32" | "u-int32") => Some((Some(0), Some(u32::MAX as i64), "int64")),
                    Some("uint64" | "u-int64") => Some((Some(0), None, "int64")),
                    _ => None,
                };
                if let Some((low, high, format)) = bounds {
                    map.insert("format".into(), format.into());
                    if let Some(low) = low {
                        let min = map
                            .get("minimum")
                            .and_then(Value::as_i64)
                            .map_or(low, |m| m.max(low));
                        map.insert("minimum".into(), min.into());
                    }
                    if let Some(high) = high {
                        let max = map
                            .get("maximum")
                            .and_then(Value::as_i64)
                            .map_or(high, |m| m.min(high));
                        map.insert("maximum".into(), max.into());
                    }
                }
                map.values_mut().for_each(walk);
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(spec);
}

/// utoipa turns a field typed by an alias of a number (`Seat`, `Card`: `u8`) into a reference to
/// a component named `u8`; generated clients would then get a model called `U8`. Put the
/// primitive schema inline instead and drop such components.
fn inline_primitive_aliases(spec: &mut serde_json::Value) {
    use serde_json::Value;
    let Some(schemas) = spec
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let primitive: std::collections::BTreeMap<String, Value> = schemas
        .iter()
        .filter(|(_, s)| {
            matches!(
                s.get("type").and_then(Value::as_str),
                Some("integer" | "number" | "boolean")
            )
        })
        .map(|(name, s)| (format!("#/components/schemas/{name}"), s.clone()))
        .collect();
    for name in primitive.keys() {
        schemas.remove(name.trim_start_matches("#/components/schemas/"));
    }
    fn walk(v: &mut Value, primitive: &std::collections::BTreeMap<String, Value>) {
        match v {
            Value::Object(map) => {
                if let Some(target) = map.get("$ref").and_then(Value::as_str) {
                    if let Some(inline) = primitive.get(target) {
                        map.remove("$ref");
                        if let Value::Object(inline) = inline {
                            for (k, val) in inline {
                                map.entry(k.clone()).or_insert_with(|| val.clone());
                            }
                        }
                        return;
                    }
                }
                map.values_mut().for_each(|v| walk(v, primitive));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, primitive)),
            _ => {}
        }
    }
    walk(spec, &primitive);
}

/// The spec as committed in `openapi/openapi.json`.
pub fn spec_json() -> String {
    let mut json = serde_json::to_string_pretty(&spec()).expect("the spec serializes");
    json.push('\n');
    json
}
