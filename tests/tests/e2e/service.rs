//! What operators and client authors rely on besides the games: health, the spec, the docs,
//! the list of kinds and their rules, and problem+json for every error.

use baumeister_tests::TestServer;

#[actix_web::test]
async fn health_answers_while_the_process_does() {
    let s = TestServer::start().await;
    let r = s.get("/healthz", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["status"], "ok");
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
async fn each_kind_links_its_rules_served_as_markdown() {
    let s = TestServer::start().await;
    let kinds = s.get("/v1/kinds", None).await;
    let kinds = kinds.body.as_array().unwrap().clone();
    assert!(kinds.len() >= 3);
    for kind in &kinds {
        let id = kind["kind"].as_str().unwrap();
        let link = kind["rules"].as_str().unwrap();
        assert_eq!(link, format!("/v1/kinds/{id}/rules"));
        let one = s.get(&format!("/v1/kinds/{id}"), None).await;
        assert_eq!(one.status, 200);
        assert_eq!(&one.body, kind, "one kind is told as the list tells it");
        let rules = s.get(link, None).await;
        assert_eq!(rules.status, 200);
        assert_eq!(
            rules.header("content-type"),
            Some("text/markdown; charset=utf-8")
        );
        let text = rules.body.as_str().expect("Markdown, not JSON");
        assert!(text.starts_with("# "), "{id}: a titled document");
        for name in kind["commands"]
            .as_array()
            .unwrap()
            .iter()
            .chain(kind["events"].as_array().unwrap())
        {
            let name = name.as_str().unwrap();
            assert!(text.contains(&format!("`{name}`")), "{id} names {name}");
        }
    }
    for path in ["/v1/kinds/chess", "/v1/kinds/chess/rules"] {
        let r = s.get(path, None).await;
        assert_eq!((r.status, r.code()), (404, "kind_not_found"), "{path}");
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
    }
    let r = s
        .send(
            s.request("DELETE", "/v1/kinds/wettstreit/rules", None),
            None,
        )
        .await;
    assert_eq!((r.status, r.code()), (405, "method_not_allowed"));
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
