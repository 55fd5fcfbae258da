//! Every problem names its request's id (`request_id`), the one its `X-Request-Id` header
//! carries: the client's own when it sent a sane one, else one made up per request.

use baumeister_tests::serde_json::json;
use baumeister_tests::TestServer;

#[actix_web::test]
async fn a_problem_names_the_request_id_of_its_header() {
    let s = TestServer::start().await;
    let ada = s.player("ada").await;
    // The client's own id comes back in the header and in the problem.
    let request = s
        .request("POST", "/v1/games", Some(&ada))
        .insert_header(("X-Request-Id", "client-chosen-42"))
        .insert_header(("Content-Type", "application/json"));
    let r = s
        .send(
            request,
            Some(json!({"kind": "no-such-kind"}).to_string().into_bytes()),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.header("x-request-id"), Some("client-chosen-42"));
    assert_eq!(r.body["request_id"], "client-chosen-42");
    // Made up otherwise: a different one per request, the same in header and body.
    let first = s.get("/v1/games/999999", None).await;
    let second = s.get("/v1/games/999999", None).await;
    for r in [&first, &second] {
        assert_eq!(r.status, 404);
        let id = r.body["request_id"].as_str().expect("a request id");
        assert_eq!(r.header("x-request-id"), Some(id));
    }
    assert_ne!(first.body["request_id"], second.body["request_id"]);
    // An id that is not sane (too long) is replaced.
    let long = "x".repeat(65);
    let r = s
        .send(
            s.request("GET", "/v1/games/999999", None)
                .insert_header(("X-Request-Id", long.as_str())),
            None,
        )
        .await;
    assert_ne!(r.body["request_id"], long.as_str());
    assert_eq!(r.header("x-request-id"), r.body["request_id"].as_str());
    // A success has the header and no problem.
    let ok = s.get("/v1/kinds", None).await;
    assert_eq!(ok.status, 200);
    assert!(ok.header("x-request-id").is_some());
    s.finish().await;
}
