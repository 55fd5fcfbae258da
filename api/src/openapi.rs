//! The spec, generated from the code: routes and their bodies from `utoipa::path`, and every
//! game's options, commands, events and views from the domain, with the unions that cover all
//! games (`AnyCommand`, `AnyEvent`, `AnyView`, `AnyOptions`).

use baumeister_domain::registry;
use baumeister_domain::schema::one_of;
use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{Modify, OpenApi};

use crate::error::Problem;
use crate::routes::{accounts, games, health, kinds, play};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Baumeister",
        version = "1.0.0",
        description = "Play builder board games by web, each at your own pace. Register, log in, create or join a game, then follow `GET /v1/games/{id}/moves`: every legal command is listed ready to POST to `/v1/games/{id}/commands`. Errors are `application/problem+json` with a stable `code`. Commands, events and views of every game are named schemas, tagged by `type`.",
        license(name = "MIT"),
    ),
    paths(
        accounts::register, accounts::login,
        kinds::kinds,
        games::create, games::lobby, games::join, games::show,
        play::moves, play::command, play::events, play::replay,
        health::healthz,
    ),
    components(schemas(Problem)),
    modifiers(&GameSchemas, &BearerAuth),
    tags(
        (name = "accounts", description = "Registering and logging in"),
        (name = "games", description = "The games offered, the lobby, seats and boards"),
        (name = "play", description = "Legal moves, commands, the log and replays"),
        (name = "operations", description = "For operators"),
    )
)]
struct ApiDoc;

struct GameSchemas;

impl Modify for GameSchemas {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut commands = Vec::new();
        let mut events = Vec::new();
        let mut views = Vec::new();
        let mut options = OneOfBuilder::new()
            .description(Some("The options of one game kind (see `options_schema` in `GET /v1/kinds`)."));
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
        let views: Vec<&str> = views.iter().map(String::as_str).collect();
        let unions: [(&str, RefOr<Schema>); 4] = [
            ("AnyCommand", one_of(&commands, "A command of any game, told apart by `type`.")),
            ("AnyEvent", one_of(&events, "An event of any game, told apart by `type`.")),
            ("AnyView", one_of(&views, "A board of any game, told apart by `type`.")),
            ("AnyOptions", RefOr::T(Schema::OneOf(options.build()))),
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

/// The whole spec.
pub fn spec() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The spec as committed in `openapi/openapi.json`.
pub fn spec_json() -> String {
    let mut json = spec().to_pretty_json().expect("the spec serializes");
    json.push('\n');
    json
}
