//! What the fuzz test (scripts/fuzz, schemathesis) found where the server and its spec
//! disagreed, each held here so it stays fixed.

use baumeister_tests::serde_json::json;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::TestServer;

#[actix_web::test]
async fn importing_without_a_token_is_401_as_for_every_operation_that_needs_one() {
    let s = TestServer::start().await;
    let r = s
        .post(
            "/v1/games/import",
            None,
            &json!({"format": "", "game": "", "kind": "", "options": null, "seat_count": 0,
                "seats": [], "status": "open", "commitment": "", "secret": "", "commands": [],
                "result": {"finished": false, "scores": [], "to_act": [], "winners": []},
                "head": {"game": "", "hash": "", "key": "", "signature": "", "version": 0}}),
        )
        .await;
    assert_refused(&r, 401, "token_missing");
    assert_eq!(r.header("www-authenticate"), Some("Bearer"));
    s.finish().await;
}

#[actix_web::test]
async fn joining_with_a_null_body_takes_the_defaults_as_the_spec_allows() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "burgbaumeister", "seats": 3}),
        )
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let r = s
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&tokens[1]),
            &json!(null),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Anything else that is not a join body is still refused.
    let r = s
        .post(&format!("/v1/games/{id}/join"), Some(&tokens[2]), &json!(7))
        .await;
    assert_refused(&r, 400, "malformed_request");
    s.finish().await;
}

#[actix_web::test]
async fn notice_settings_take_a_whole_number_written_with_a_fraction() {
    let s = TestServer::start().await;
    let ada = s.player("ada").await;
    let r = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&ada))
                .insert_header(("Content-Type", "application/json")),
            Some(br#"{"email_every_hours": 24.0}"#.to_vec()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["email_every_hours"], 24, "{}", r.body);
    let r = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&ada))
                .insert_header(("Content-Type", "application/json")),
            Some(br#"{"email_every_hours": 24.5}"#.to_vec()),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    s.finish().await;
}
