//! Tokens do not outlive what they claim: the account must exist, its tokens can be revoked,
//! a recreated database refuses old tokens, and the auditor role is the operator's current
//! grant, never a claim of the token.

use std::time::Duration;

use baumeister_api::auth::STANDING_TTL;
use baumeister_api::cli::{self, Cli};
use baumeister_domain::Viewer;
use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::json;
use baumeister_tests::TestServer;
use clap::Parser;

/// Whether `token` may still create a game and read the lobby (`Ok`), or the 401's code.
async fn token_works(s: &TestServer, token: &str) -> Result<(), String> {
    let lobby = s.get("/v1/games?mine=true", Some(token)).await;
    let create = s
        .post(
            "/v1/games",
            Some(token),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    match (lobby.status, create.status) {
        (200, 201) => Ok(()),
        (401, 401) => {
            assert_eq!(lobby.code(), create.code());
            Err(lobby.code().to_string())
        }
        other => panic!("{other:?}: {} {}", lobby.body, create.body),
    }
}

/// Lets every server process's cached standing of accounts expire.
async fn after_standing_ttl() {
    actix_web::rt::time::sleep(STANDING_TTL + Duration::from_millis(100)).await;
}

#[actix_web::test]
async fn logging_out_everywhere_refuses_every_earlier_token() {
    let s = TestServer::start().await;
    let first = s.player("anna").await;
    let second = s.player_login("anna").await;
    let bob = s.player("bob").await;
    let r = s
        .send(s.request("DELETE", "/v1/tokens", Some(&first)), None)
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    for token in [&first, &second] {
        assert_eq!(token_works(&s, token).await, Err("token_revoked".into()));
    }
    assert_eq!(
        token_works(&s, &bob).await,
        Ok(()),
        "other accounts keep theirs"
    );
    let again = s.player_login("anna").await;
    assert_eq!(token_works(&s, &again).await, Ok(()));
    let r = s.send(s.request("DELETE", "/v1/tokens", None), None).await;
    assert_eq!((r.status, r.code()), (401, "token_missing"));
    s.finish().await;
}

#[actix_web::test]
async fn the_token_of_a_deleted_account_is_refused() {
    let s = TestServer::start().await;
    let token = s.player("anna").await;
    s.get("/v1/games", Some(&token)).await;
    s.db()
        .await
        .execute("DELETE FROM accounts WHERE name = 'anna'", &[])
        .await
        .unwrap();
    after_standing_ttl().await;
    let r = s.get("/v1/games", Some(&token)).await;
    assert_eq!((r.status, r.code()), (401, "account_unknown"));
    s.finish().await;
}

#[actix_web::test]
async fn a_database_recreated_under_the_same_secret_refuses_old_tokens() {
    let old = TestServer::start().await;
    let anna = old.player("anna").await;
    let new = TestServer::start().await;
    let bob = new.player("bob").await;
    assert_eq!(
        account_id(&old, "anna").await,
        account_id(&new, "bob").await,
        "the same id"
    );
    assert_eq!(token_works(&new, &anna).await, Err("token_revoked".into()));
    assert_eq!(token_works(&new, &bob).await, Ok(()));
    old.finish().await;
    new.finish().await;
}

async fn account_id(s: &TestServer, name: &str) -> i64 {
    s.db()
        .await
        .query_one("SELECT id FROM accounts WHERE name = $1", &[&name])
        .await
        .unwrap()
        .get(0)
}

/// Runs `baumeister <args>` against the test server's database.
async fn operator(s: &TestServer, args: &[&str]) -> Result<(), String> {
    let cli = Cli::try_parse_from(std::iter::once("baumeister").chain(args.iter().copied()))
        .map_err(|e| e.to_string())?;
    cli::run(cli, s.config.clone()).await
}

#[actix_web::test]
async fn auditors_are_granted_by_the_operator_and_judged_on_every_request() {
    let (s, _, id) = ada_and_bea_playing("space-builder", json!({"timing": "elapsed"})).await;
    // Nobody can claim the role by a name: there is no list of names to claim.
    let claimer = s.player("auditor").await;
    let carla = s.player("carla").await;
    let truth = s.truth(id).await;
    let version = truth.events.len() as i64;
    let spectator = truth.view(version, Viewer::Spectator);
    let everything = truth.view(version, Viewer::Everyone);
    assert_ne!(
        spectator, everything,
        "the blueprint is hidden while it is built"
    );
    let board = |token: String| {
        let s = &s;
        async move { s.get(&format!("/v1/games/{id}"), Some(&token)).await.body["view"].clone() }
    };
    assert_eq!(board(claimer.clone()).await, spectator);
    assert_eq!(board(carla.clone()).await, spectator);

    assert_eq!(
        operator(&s, &["auditor", "grant", "nobody"]).await,
        Err("no account is named `nobody`".into()),
        "only existing accounts"
    );
    operator(&s, &["auditor", "grant", "CARLA"]).await.unwrap();
    after_standing_ttl().await;
    assert_eq!(
        board(carla.clone()).await,
        everything,
        "the same token, now an auditor"
    );
    let login = s.login("carla", "password-of-carla").await;
    assert_eq!(login.body["role"], "auditor");
    let listed = s.store.auditors().await.unwrap();
    assert_eq!(listed, vec!["carla".to_string()]);

    operator(&s, &["auditor", "revoke", "carla"]).await.unwrap();
    after_standing_ttl().await;
    assert_eq!(
        board(carla).await,
        spectator,
        "withdrawn: the token sees no more"
    );
    let fresh = login.body["token"].as_str().unwrap().to_string();
    assert_eq!(
        board(fresh).await,
        spectator,
        "nor one issued while it was granted"
    );
    s.finish().await;
}
