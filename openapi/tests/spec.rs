//! The committed spec is the one the code generates, and it is usable by generated clients.

use std::collections::BTreeSet;

use serde_json::Value;

fn committed() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json"))
        .unwrap_or_default()
}

#[test]
fn committed_spec_is_current() {
    assert!(
        committed() == baumeister_api::openapi::spec_json(),
        "openapi/openapi.json is out of date: run `cargo run -p baumeister-openapi`"
    );
}

fn spec() -> Value {
    serde_json::from_str(&baumeister_api::openapi::spec_json()).unwrap()
}

#[test]
fn every_reference_resolves() {
    let spec = spec();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    let mut refs = BTreeSet::new();
    collect_refs(&spec, &mut refs);
    for r in refs {
        let name = r
            .strip_prefix("#/components/schemas/")
            .expect("only schema refs");
        assert!(schemas.contains_key(name), "dangling reference {r}");
    }
}

fn collect_refs(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                if k == "$ref" {
                    out.insert(v.as_str().unwrap().to_string());
                } else {
                    collect_refs(v, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

#[test]
fn unions_are_named_variants_with_a_type_discriminator() {
    let spec = spec();
    let schemas = &spec["components"]["schemas"];
    for union in ["AnyCommand", "AnyEvent", "AnyView"] {
        let u = &schemas[union];
        assert_eq!(u["discriminator"]["propertyName"], "type", "{union}");
        let items = u["oneOf"].as_array().unwrap();
        assert!(!items.is_empty());
        let mut tags = BTreeSet::new();
        for item in items {
            let name = item["$ref"]
                .as_str()
                .expect("variants are references")
                .rsplit('/')
                .next()
                .unwrap();
            assert!(tags.insert(name.to_string()), "{name} twice in {union}");
            let variant = &schemas[name];
            assert_eq!(
                variant["properties"]["type"]["enum"][0], name,
                "{name} has its tag"
            );
            assert!(variant["required"]
                .as_array()
                .unwrap()
                .contains(&Value::from("type")));
        }
    }
}

#[test]
fn every_operation_has_an_id_and_documents_its_errors() {
    let spec = spec();
    let mut ids = BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(op["operationId"].is_string(), "{method} {path}");
            assert!(
                ids.insert(op["operationId"].to_string()),
                "{method} {path}: operationId {} is not unique",
                op["operationId"]
            );
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{method} {path}"
            );
        }
    }
}

#[test]
fn every_body_states_its_size_limit_and_the_answers_beyond_it() {
    let spec = spec();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(body) = op.get("requestBody") else {
                continue;
            };
            let limit = match path.as_str() {
                "/v1/games/import" => "32 MiB",
                "/v1/games/{id}/chat" => "8 KiB",
                _ => "64 KiB",
            };
            let said = body["description"].as_str().unwrap_or("");
            assert!(
                said.contains(&format!("At most {limit}")),
                "{method} {path}: {said}"
            );
            let responses = &op["responses"];
            let too_large = responses["413"]["description"].as_str().unwrap_or("");
            assert!(
                too_large.contains(limit),
                "{method} {path}: 413 {too_large}"
            );
            for status in ["408", "415"] {
                assert!(responses[status].is_object(), "{method} {path}: {status}");
            }
        }
    }
}

#[test]
fn every_page_size_states_its_bounds_and_default() {
    let spec = spec();
    let mut pages = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            for p in params.iter().filter(|p| p["name"] == "limit") {
                pages += 1;
                let schema = &p["schema"];
                let (min, max, default) = (
                    schema["minimum"]
                        .as_i64()
                        .unwrap_or_else(|| panic!("{method} {path}: minimum")),
                    schema["maximum"]
                        .as_i64()
                        .unwrap_or_else(|| panic!("{method} {path}: maximum")),
                    schema["default"]
                        .as_i64()
                        .unwrap_or_else(|| panic!("{method} {path}: default")),
                );
                assert!(min <= default && default <= max, "{method} {path}");
                let said = p["description"].as_str().unwrap_or("");
                assert!(
                    said.contains("refused"),
                    "{method} {path}: say what happens beyond {max}"
                );
                assert!(op["responses"]["400"].is_object(), "{method} {path}");
            }
        }
    }
    assert_eq!(
        pages, 7,
        "the lobby, my games, the log, the chat, the leaderboards, the reports and the moderation log are paged"
    );
}

#[test]
fn narrow_integers_state_their_bounds_in_openapis_own_formats() {
    let text = committed();
    for format in [
        "u-int8",
        "u-int16",
        "u-int32",
        "u-int64",
        "\"int8\"",
        "\"int16\"",
    ] {
        assert!(!text.contains(format), "{format} is not an OpenAPI format");
    }
    let spec = spec();
    let schemas = &spec["components"]["schemas"];
    // A u8 the server reads: 256 would be schema-valid and refused without a maximum.
    for (schema, field) in [("ExportSeat", "seat"), ("NewGame", "seats")] {
        assert_eq!(
            schemas[schema]["properties"][field]["maximum"], 255,
            "{schema}.{field}"
        );
    }
}

#[test]
fn what_the_server_checks_of_a_body_is_in_its_schema() {
    let spec = spec();
    let schemas = &spec["components"]["schemas"];
    assert_eq!(schemas["NewWebhook"]["properties"]["kinds"]["minItems"], 1);
    assert!(schemas["NewWebhook"]["properties"]["url"]["pattern"].is_string());
    assert_eq!(
        schemas["NewWebhook"]["properties"]["url"]["maxLength"],
        2000
    );
    assert_eq!(
        schemas["NewVacation"]["properties"]["until"]["format"],
        "date-time"
    );
}

#[test]
fn live_streams_describe_each_message() {
    let spec = spec();
    for path in ["/v1/games/{id}/stream", "/v1/me/stream"] {
        let schema = &spec["paths"][path]["get"]["responses"]["200"]["content"]
            ["text/event-stream"]["schema"];
        assert_eq!(
            schema["$ref"], "#/components/schemas/StreamMessage",
            "{path}: a stream is a sequence of messages, not one string"
        );
    }
    let message = &spec["components"]["schemas"]["StreamMessage"];
    for field in ["event", "data"] {
        assert!(
            message["required"]
                .as_array()
                .unwrap()
                .contains(&Value::from(field)),
            "{field}"
        );
    }
}

#[test]
fn schema_valid_requests_the_server_refuses_are_described() {
    let spec = spec();
    for (path, method) in [
        ("/v1/games", "post"),
        ("/v1/games/{id}/commands", "post"),
        ("/v1/games/{id}/replay", "get"),
        ("/v1/games/import", "post"),
        ("/v1/me/vacation", "put"),
        ("/v1/me/webhooks", "post"),
    ] {
        let description = spec["paths"][path][method]["description"]
            .as_str()
            .unwrap_or("");
        assert!(
            description.contains("Refused although the schema allows it"),
            "{method} {path}: {description}"
        );
    }
}
