//! What operators and client authors rely on besides the games: health, the spec, the docs,
//! the list of kinds, and problem+json for every error.

use baumeister_tests::TestServer;

#[actix_web::test]
async fn health_reports_the_database() {
    let s = TestServer::start().await;
    let r = s.get("/healthz", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["database"], "ok");
    assert!(
        r.header("x-request-id").is_some(),
        "every response carries a request id"
    );
    s.finish().await;
}

#[actix_web::test]
async fn the_spec_served_is_the_committed_one_and_the_docs_load_offline() {
    let s = TestServer::start().await;
    let r = s.get("/openapi.json", None).await;
    assert_eq!(r.status, 200);
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../openapi/openapi.json"
        ))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(r.body, committed);
    let r = s.get("/docs/", None).await;
    assert_eq!(r.status, 200);
    assert!(
        r.body.as_str().unwrap().contains("swagger"),
        "the Swagger UI page"
    );
    let r = s.get("/docs/swagger-ui.css", None).await;
    assert_eq!(r.status, 200, "assets are vendored");
    s.finish().await;
}

#[actix_web::test]
async fn kinds_list_every_game_with_its_seats_and_options() {
    let s = TestServer::start().await;
    let r = s.get("/v1/kinds", None).await;
    assert_eq!(r.status, 200);
    let burg = r
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "burgbaumeister")
        .unwrap();
    assert_eq!(burg["min_seats"], 2);
    assert_eq!(burg["max_seats"], 4);
    assert_eq!(burg["options_schema"], "BurgbaumeisterOptions");
    assert_eq!(burg["default_options"]["variant"], false);
    s.finish().await;
}

#[actix_web::test]
async fn unknown_paths_and_methods_are_problems_not_pages() {
    let s = TestServer::start().await;
    let r = s.get("/v2/nothing", None).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = s.send(s.request("DELETE", "/v1/games", None), None).await;
    assert_eq!((r.status, r.code()), (405, "method_not_allowed"));
    assert_eq!(r.header("allow"), Some("GET, POST"));
    let r = s.get("/v1/games/abc", None).await;
    assert_eq!((r.status, r.code()), (404, "game_not_found"));
    let r = s.get("/v1/games/99999", None).await;
    assert_eq!((r.status, r.code()), (404, "game_not_found"));
    let r = s.get("/v1/games?limit=0", None).await;
    assert_eq!((r.status, r.code()), (400, "invalid_query"));
    let r = s.get("/v1/games?status=bogus", None).await;
    assert_eq!((r.status, r.code()), (400, "invalid_query"));
    // Bytes PostgreSQL refuses never reach it.
    let r = s.get("/v1/games?kind=a%00b", None).await;
    assert_eq!((r.status, r.code()), (400, "unknown_kind"));
    let r = s
        .post(
            "/v1/tokens",
            None,
            &serde_json::json!({"name": "a\u{0}b", "password": "whatever1"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "bad_credentials"));
    s.finish().await;
}
