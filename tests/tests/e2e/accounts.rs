//! Registering, logging in, and what a token proves.

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::TestServer;

#[actix_web::test]
async fn a_player_registers_logs_in_and_creates_a_game() {
    let s = TestServer::start().await;
    let token = s.player("anna").await;
    let r = s
        .post(
            "/v1/games",
            Some(&token),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["status"], "open");
    assert_eq!(r.body["seats"][0]["player"], "anna");
    assert_eq!(
        r.body["options"],
        json!({"variant": false, "move_minutes": null})
    );
    for (options, code) in [
        (json!([]), "invalid_options"),
        (json!({"variant": "yes"}), "invalid_options"),
        (json!({"timing": "elapsed"}), "invalid_options"),
    ] {
        let r = s
            .post(
                "/v1/games",
                Some(&token),
                &json!({"kind": "burgbaumeister", "seats": 2, "options": options}),
            )
            .await;
        assert_eq!((r.status, r.code()), (400, code), "{options}");
    }
    s.finish().await;
}

#[actix_web::test]
async fn names_are_unique_regardless_of_case() {
    let s = TestServer::start().await;
    s.player("Anna").await;
    let r = s
        .post(
            "/v1/accounts",
            None,
            &json!({"name": "anna", "password": "12345678"}),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "name_taken"));
    s.finish().await;
}

#[actix_web::test]
async fn bad_names_and_passwords_are_refused() {
    let s = TestServer::start().await;
    for (body, code) in [
        (json!({"name": "", "password": "12345678"}), "invalid_name"),
        (
            json!({"name": "a b", "password": "12345678"}),
            "invalid_name",
        ),
        (
            json!({"name": "x".repeat(33), "password": "12345678"}),
            "invalid_name",
        ),
        (
            json!({"name": "bob", "password": "short"}),
            "invalid_password",
        ),
        (json!({"name": "bob"}), "malformed_request"),
        (
            json!({"name": "bob", "password": "12345678", "admin": true}),
            "malformed_request",
        ),
    ] {
        let r = s.post("/v1/accounts", None, &body).await;
        assert_eq!((r.status, r.code()), (400, code), "{body}");
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
    }
    s.finish().await;
}

#[actix_web::test]
async fn wrong_passwords_and_unknown_names_get_the_same_answer() {
    let s = TestServer::start().await;
    s.player("anna").await;
    let wrong = s
        .post(
            "/v1/tokens",
            None,
            &json!({"name": "anna", "password": "not-her-password"}),
        )
        .await;
    let unknown = s
        .post(
            "/v1/tokens",
            None,
            &json!({"name": "nobody", "password": "whatever1"}),
        )
        .await;
    assert_eq!((wrong.status, wrong.code()), (401, "bad_credentials"));
    // The same answer but for each request's own id.
    let without_id = |body: &Value| {
        let mut body = body.clone();
        body.as_object_mut().unwrap().remove("request_id");
        body
    };
    assert_eq!(without_id(&wrong.body), without_id(&unknown.body));
    s.finish().await;
}

#[actix_web::test]
async fn bad_expired_and_forged_tokens_are_refused() {
    use jsonwebtoken::{encode, EncodingKey, Header};
    let s = TestServer::start().await;
    let good = s.player("anna").await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = |exp: u64| json!({"sub": "1", "name": "anna", "key": "k", "iat": now, "exp": exp});
    let forged = encode(
        &Header::default(),
        &claims(now + 3600),
        &EncodingKey::from_secret(b"guess"),
    )
    .unwrap();
    let expired = encode(
        &Header::default(),
        &claims(now - 3600),
        &EncodingKey::from_secret(baumeister_tests::SECRET.as_bytes()),
    )
    .unwrap();
    let mut tampered = good.clone();
    tampered.insert(good.len() / 2, 'x');
    for (token, code) in [
        ("garbage", "invalid_token"),
        (forged.as_str(), "invalid_token"),
        (tampered.as_str(), "invalid_token"),
        (expired.as_str(), "token_expired"),
    ] {
        let r = s
            .post(
                "/v1/games",
                Some(token),
                &json!({"kind": "burgbaumeister", "seats": 2}),
            )
            .await;
        assert_eq!((r.status, r.code()), (401, code), "{token}");
        let r = s.get("/v1/games", Some(token)).await;
        assert_eq!((r.status, r.code()), (401, code), "reads too: {token}");
    }
    let r = s
        .post(
            "/v1/games",
            None,
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "token_missing"));
    let r = s.get("/v1/games", None).await;
    assert_eq!(r.body["games"], json!([]));
    s.finish().await;
}

#[actix_web::test]
async fn a_valid_token_of_an_account_that_is_gone_is_refused() {
    use jsonwebtoken::{encode, EncodingKey, Header};
    // As after a database reset under the same JWT secret.
    let s = TestServer::start().await;
    let owner = s.player("anna").await;
    let r = s
        .post(
            "/v1/games",
            Some(&owner),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let ghost = encode(
        &Header::default(),
        &json!({"sub": "424242", "name": "ghost", "key": "00000000-0000-0000-0000-000000000000", "iat": now, "exp": now + 600}),
        &EncodingKey::from_secret(baumeister_tests::SECRET.as_bytes()),
    )
    .unwrap();
    let r = s
        .post(
            "/v1/games",
            Some(&ghost),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "account_unknown"));
    let r = s.join(id, &ghost).await;
    assert_eq!((r.status, r.code()), (401, "account_unknown"));
    let r = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(
        r.body["seats"].as_array().unwrap().len(),
        1,
        "nothing changed"
    );
    s.finish().await;
}

#[actix_web::test]
async fn names_are_trimmed_normalised_and_need_a_letter() {
    let s = TestServer::start().await;
    let r = s.register(" ａｎｎａ\t", "12345678").await;
    assert_eq!(
        (r.status, &r.body["name"]),
        (201, &json!("anna")),
        "{}",
        r.body
    );
    let r = s.login("ANNA ", "12345678").await;
    assert_eq!(
        (r.status, &r.body["name"]),
        (200, &json!("anna")),
        "{}",
        r.body
    );
    for name in ["1234", "_-.", "jürgen", "аnna"] {
        let r = s.register(name, "12345678").await;
        assert_eq!((r.status, r.code()), (400, "invalid_name"), "{name}");
    }
    s.finish().await;
}

#[actix_web::test]
async fn names_a_reader_could_confuse_with_an_existing_one_are_refused() {
    let s = TestServer::start().await;
    s.player("bill_o").await;
    for name in [
        "BILL_O", "bi11_o", "biIl-0", "bill.o.", "-bill__o", "bi1l.O",
    ] {
        let r = s.register(name, "12345678").await;
        let code = if name == "BILL_O" {
            "name_taken"
        } else {
            "name_confusable"
        };
        assert_eq!((r.status, r.code()), (409, code), "{name}: {}", r.body);
    }
    s.player("billy").await;
    s.finish().await;
}

#[actix_web::test]
async fn a_registration_race_for_confusable_names_creates_one_account() {
    let s = TestServer::start().await;
    let names = [
        "auditor", "Auditor", "audit0r", "aud1tor", "AUDITOR.", "auditor_",
    ];
    let attempts = names.map(|name| s.register(name, "12345678"));
    let replies = futures_join_all(attempts).await;
    let created = replies.iter().filter(|r| r.status == 201).count();
    assert_eq!(
        created,
        1,
        "{:?}",
        replies.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    for r in replies.iter().filter(|r| r.status != 201) {
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(["name_taken", "name_confusable"].contains(&r.code()));
    }
    // The bots' own accounts (made by the migrations) are not players.
    let count: i64 = s
        .db()
        .await
        .query_one("SELECT count(*) FROM accounts WHERE NOT bot", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 1);
    // Whatever the server checks first, the database holds the last word.
    let direct = s
        .db()
        .await
        .execute(
            "INSERT INTO accounts (name, skeleton, password_hash) VALUES ('AUD1T0R', account_skeleton('AUD1T0R'), 'x')",
            &[],
        )
        .await;
    assert!(direct.is_err(), "a confusable name cannot be stored");
    s.finish().await;
}

/// Runs the futures at once and returns their outputs in order.
async fn futures_join_all<F: std::future::Future>(futures: [F; 6]) -> Vec<F::Output> {
    let [a, b, c, d, e, f] = futures;
    let (a, b, c, d, e, f) = tokio::join!(a, b, c, d, e, f);
    vec![a, b, c, d, e, f]
}
