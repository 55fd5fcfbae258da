//! Replays and audits anyone can trust, end to end: commit and reveal (the commitment shown
//! from the start, client seeds, the secret revealed at the end), signed chain heads in every
//! view, command response, list of moves, page of the log and replay, exports verified offline
//! and tampered with, imports into a second server whose audit passes, and the filtered log
//! keeping its redaction.

use baumeister_domain::fairness::{commitment, from_hex, to_hex};
use baumeister_storage::trust::verify_head;
use baumeister_storage::{verify_export, Export, SignedHead};
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Pick, TestServer};

/// A game that always ends under random legal moves (its tiles run out).
const KIND: &str = "carcassonne";

/// Creates a two-seat game: seat 0 gives a client seed, seat 1 leaves it to the server.
async fn new_game(s: &TestServer, tokens: &[String]) -> i64 {
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": KIND, "seats": 2, "client_seed": "anna-seed-1"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let fairness = &r.body["fairness"];
    assert_eq!(
        fairness["commitment"].as_str().unwrap().len(),
        64,
        "{fairness}"
    );
    assert_eq!(fairness["secret"], Value::Null);
    assert_eq!(fairness["client_seeds"], json!(["anna-seed-1"]));
    let id = r.body["id"].as_i64().unwrap();
    // The join body is optional: none at all takes a server-picked client seed.
    let r = s
        .send(
            s.request("POST", &format!("/v1/games/{id}/join"), Some(&tokens[1])),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

fn head(value: &Value) -> SignedHead {
    serde_json::from_value(value.clone()).expect("a signed head")
}

/// Plays by random legal moves until the game ends (or `commands` have been sent); checks the
/// signed head of every command response against the server's published key.
async fn play(s: &TestServer, id: i64, tokens: &[String], key: &str, commands: usize) {
    let mut pick = Pick::new(id as u64);
    for _ in 0..commands {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            return;
        }
        let to_act = game.body["to_act"].as_array().unwrap();
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        let r = s.random_move(id, &tokens[seat], &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let signed = head(&r.body["head"]);
        assert_eq!(signed.version, r.body["version"].as_i64().unwrap());
        assert_eq!(signed.key, key);
        verify_head(&signed).unwrap();
    }
}

async fn public_key(s: &TestServer) -> String {
    let keys = s.get("/v1/keys", None).await;
    assert_eq!(keys.status, 200, "{}", keys.body);
    assert_eq!(keys.body["keys"][0]["algorithm"], "ed25519");
    keys.body["keys"][0]["key"].as_str().unwrap().to_string()
}

async fn export(s: &TestServer, id: i64, token: Option<&str>) -> Export {
    let r = s.get(&format!("/v1/games/{id}/export"), token).await;
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_value(r.body).expect("an export")
}

/// From the start: the commitment, both client seeds, no secret; a signed head in the view.
/// Answers the game's fairness block.
async fn fairness_shown_from_the_start(
    a: &TestServer,
    id: i64,
    tokens: &[String],
    key: &str,
) -> Value {
    let game = a.get(&format!("/v1/games/{id}"), Some(&tokens[1])).await;
    let fairness = game.body["fairness"].clone();
    let seeds = fairness["client_seeds"].as_array().unwrap();
    assert_eq!(seeds[0], "anna-seed-1");
    assert_eq!(
        seeds[1].as_str().unwrap().len(),
        32,
        "picked by the server: {fairness}"
    );
    assert_eq!(fairness["secret"], Value::Null);
    let early = head(&game.body["head"]);
    assert_eq!(early.version, game.body["version"].as_i64().unwrap());
    assert_eq!(early.game, fairness["uid"].as_str().unwrap());
    verify_head(&early).unwrap();
    assert_eq!(early.key, key);
    let spectator = a.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(spectator.body["fairness"]["secret"], Value::Null);
    fairness
}

/// Nobody exports a running game, auditors included: the export carries the secret, from
/// which every later draw follows (an auditor could take a free seat and predict each die).
/// The auditor sees the running game whole in its view, all but the secret. Answers the head
/// it was shown.
async fn nobody_exports_a_running_game(a: &TestServer, id: i64, tokens: &[String]) -> SignedHead {
    let auditor = a.auditor("ines").await;
    for token in [Some(tokens[0].as_str()), None, Some(auditor.as_str())] {
        let r = a.get(&format!("/v1/games/{id}/export"), token).await;
        assert_refused(&r, 409, "game_not_ended");
        assert!(r.body.get("secret").is_none(), "{}", r.body);
    }
    let whole = a.get(&format!("/v1/games/{id}"), Some(&auditor)).await;
    assert_eq!(whole.status, 200, "{}", whole.body);
    assert_eq!(whole.body["fairness"]["secret"], Value::Null);
    head(&whole.body["head"])
}

/// The finished game's secret, revealed, is the one committed to at the start; its export
/// verifies offline and holds the history of the head shown while it ran. Answers the export.
async fn the_finished_games_export_verifies(
    a: &TestServer,
    id: i64,
    fairness: &Value,
    key: &str,
    running: &SignedHead,
) -> Export {
    let game = a.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished", "{}", game.body);
    let secret = game.body["fairness"]["secret"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        to_hex(&commitment(&from_hex(&secret).unwrap())),
        fairness["commitment"].as_str().unwrap()
    );
    let exported = export(a, id, None).await;
    let verified = verify_export(&exported).unwrap();
    assert_eq!(verified.version, game.body["version"].as_i64().unwrap());
    assert_eq!(exported.secret, secret);
    assert_eq!(exported.head.key, key);
    let kept_earlier = exported
        .commands
        .iter()
        .flat_map(|c| &c.events)
        .find(|e| e.version == running.version)
        .unwrap();
    assert_eq!(kept_earlier.hash, running.hash);
    assert_eq!(exported.chain, 2);
    exported
}

/// A server that does not trust the first one's key refuses its exports: anybody can sign a
/// made-up history with a key of their own.
async fn a_server_not_trusting_the_key_refuses_the_export(exported: &Export) {
    let stranger = TestServer::start().await;
    let stranger_auditor = stranger.auditor("olga").await;
    let r = stranger.import(&stranger_auditor, exported).await;
    assert_refused(&r, 422, "untrusted_key");
    stranger.finish().await;
}

/// Imported into a second server that trusts the first (auditors only), the audit passes; the
/// re-export there is the same history under the first server's head, and the board is the
/// same board. Answers the game's id there and an auditor of that server.
async fn imported_where_the_key_is_trusted(
    (a, id): (&TestServer, i64),
    b: &TestServer,
    exported: &Export,
    fairness: &Value,
    key: &str,
) -> (i64, String) {
    let player = b.player("otto").await;
    let r = b.import(&player, exported).await;
    assert_refused(&r, 403, "not_auditor");
    let b_auditor = b.auditor("vera").await;
    let r = b.import(&b_auditor, exported).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["fairness"]["uid"], fairness["uid"]);
    assert_eq!(r.body["status"], "finished");
    let imported = r.body["id"].as_i64().unwrap();
    b.audit_holds(imported).await;
    // Re-exported from there: the same history under the head its own server signed; the
    // second server never signs it as its own, and names where it came from.
    let again = export(b, imported, None).await;
    verify_export(&again).unwrap();
    assert_eq!(again.commands, exported.commands);
    assert_eq!(again.head, exported.head);
    let shown = b.get(&format!("/v1/games/{imported}"), None).await;
    assert_eq!(head(&shown.body["head"]), exported.head);
    assert_eq!(shown.body["fairness"]["origin_key"], json!(key));
    assert_ne!(public_key(b).await, key);
    let here = a.get(&format!("/v1/games/{id}"), None).await;
    let there = b.get(&format!("/v1/games/{imported}"), None).await;
    assert_eq!(here.body["view"], there.body["view"]);
    (imported, b_auditor)
}

/// Once is enough; a tampered export is refused with the first difference.
async fn a_second_or_tampered_import_is_refused(
    b: &TestServer,
    b_auditor: &str,
    exported: &Export,
) {
    let r = b.import(b_auditor, exported).await;
    assert_refused(&r, 409, "already_imported");
    let mut tampered = exported.clone();
    tampered.game = "00000000-0000-4000-8000-000000000000".into();
    let r = b.import(b_auditor, &tampered).await;
    assert_refused(&r, 422, "import_refused");
    let mut tampered = exported.clone();
    let seed = &mut tampered.commands[1].seed;
    let flipped = if seed.starts_with('0') { "1" } else { "0" };
    seed.replace_range(0..1, flipped);
    // Verified before anything is written, so the first difference is what the caller hears.
    let r = b.import(b_auditor, &tampered).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["detail"].as_str().unwrap().contains("seed:"),
        "{}",
        r.body
    );
}

/// Changing the stored history on the first server: the audit there sees it, and the head a
/// player kept no longer matches what the server now signs.
async fn a_forged_history_is_seen(a: &TestServer, id: i64) {
    let db = a.db().await;
    db.execute(
        "UPDATE events SET payload = payload || '{\"forged\": 1}' WHERE game_id = $1 AND version = 2",
        &[&id],
    )
    .await
    .unwrap();
    let audit = a.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], false, "{}", audit.body);
    let d = verify_export(&export(a, id, None).await).unwrap_err();
    assert_eq!(d.part, "chain", "{d}");
}

#[actix_web::test]
async fn a_finished_game_is_exported_verified_offline_imported_elsewhere_and_audited_there() {
    let a = TestServer::start().await;
    let key = public_key(&a).await;
    let tokens = a.players(&["anna", "bert"]).await;
    let id = new_game(&a, &tokens).await;
    let fairness = fairness_shown_from_the_start(&a, id, &tokens, &key).await;
    let running = nobody_exports_a_running_game(&a, id, &tokens).await;
    play(&a, id, &tokens, &key, 2000).await;
    let exported = the_finished_games_export_verifies(&a, id, &fairness, &key, &running).await;
    a_server_not_trusting_the_key_refuses_the_export(&exported).await;
    let b = TestServer::start_with(|c| c.trusted_keys = vec![key.clone()]).await;
    let (_, b_auditor) =
        imported_where_the_key_is_trusted((&a, id), &b, &exported, &fairness, &key).await;
    a_second_or_tampered_import_is_refused(&b, &b_auditor, &exported).await;
    a_forged_history_is_seen(&a, id).await;
    a.finish().await;
    b.finish().await;
}

#[actix_web::test]
async fn client_seeds_are_checked_and_join_bodies_are_strict() {
    let s = TestServer::start().await;
    let tokens = s.players(&["carl", "dora"]).await;
    for bad in ["", "has space", "new\nline", &"x".repeat(65)] {
        let r = s
            .post(
                "/v1/games",
                Some(&tokens[0]),
                &json!({"kind": KIND, "seats": 2, "client_seed": bad}),
            )
            .await;
        assert_eq!(
            (r.status, r.code()),
            (400, "invalid_client_seed"),
            "{bad:?}: {}",
            r.body
        );
    }
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": KIND, "seats": 2}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let join = format!("/v1/games/{id}/join");
    let r = s
        .post(&join, Some(&tokens[1]), &json!({"client_seed": "a b"}))
        .await;
    assert_refused(&r, 400, "invalid_client_seed");
    let r = s.post(&join, Some(&tokens[1]), &json!({"seed": "x"})).await;
    assert_refused(&r, 400, "malformed_request");
    let r = s
        .post(&join, Some(&tokens[1]), &json!({"client_seed": "dora.2"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["fairness"]["client_seeds"][1], "dora.2");
    assert_eq!(
        r.body["fairness"]["client_seeds"][0]
            .as_str()
            .unwrap()
            .len(),
        32
    );
    s.finish().await;
}

#[actix_web::test]
async fn the_log_filtered_by_type_and_seat_is_the_log_as_seen_filtered() {
    // Filtered pages count as expensive reads, and this test asks for well over a burst of them.
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.expensive_reads = None;
    })
    .await;
    let key = public_key(&s).await;
    let tokens = s.players(&["emil", "frida"]).await;
    let id = new_game(&s, &tokens).await;
    play(&s, id, &tokens, &key, 30).await;
    for token in [None, Some(tokens[0].as_str()), Some(tokens[1].as_str())] {
        let all = s.events(id, token).await;
        let mut types: Vec<&str> = all
            .iter()
            .filter_map(|e| e["event"]["type"].as_str())
            .collect();
        types.sort();
        types.dedup();
        for chosen in [vec![types[0]], types.iter().take(2).copied().collect()] {
            let expected: Vec<&Value> = all
                .iter()
                .filter(|e| chosen.contains(&e["event"]["type"].as_str().unwrap()))
                .collect();
            let mut got = Vec::new();
            let mut after = 0;
            loop {
                let page = s
                    .get(
                        &format!(
                            "/v1/games/{id}/events?type={}&limit=3&after={after}",
                            chosen.join(",")
                        ),
                        token,
                    )
                    .await;
                assert_eq!(page.status, 200, "{}", page.body);
                got.extend(page.body["events"].as_array().unwrap().iter().cloned());
                match page.body["next_after"].as_i64() {
                    Some(next) => after = next,
                    None => break,
                }
            }
            assert_eq!(got.iter().collect::<Vec<_>>(), expected, "{chosen:?}");
        }
        for seat in 0..2 {
            let page = s
                .get(
                    &format!("/v1/games/{id}/events?seat={seat}&limit=1000"),
                    token,
                )
                .await;
            let expected: Vec<&Value> = all.iter().filter(|e| e["seat"] == seat).collect();
            assert!(!expected.is_empty());
            assert_eq!(
                page.body["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .collect::<Vec<_>>(),
                expected
            );
        }
    }
    s.finish().await;
}

#[actix_web::test]
async fn moves_logs_and_replays_carry_the_signed_head_they_were_judged_at() {
    let s = TestServer::start().await;
    let key = public_key(&s).await;
    let tokens = s.players(&["hanna", "ivo"]).await;
    let id = new_game(&s, &tokens).await;
    play(&s, id, &tokens, &key, 12).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let version = game.body["version"].as_i64().unwrap();
    let current = head(&game.body["head"]);
    // Each answer names the version it was judged at, and its head is that version's, signed
    // with the server's published key: the same head as the game's own.
    let answers = [
        s.moves(id, &tokens[0]).await,
        s.get(&format!("/v1/games/{id}/moves"), None).await,
        s.get(&format!("/v1/games/{id}/events?limit=3"), Some(&tokens[1]))
            .await,
        s.get(&format!("/v1/games/{id}/replay?at=2"), None).await,
    ];
    for answer in answers {
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.body["version"], version, "{}", answer.body);
        let signed = head(&answer.body["head"]);
        assert_eq!(signed.key, key);
        assert_eq!(signed, current, "the head of version {version}");
        verify_head(&signed).unwrap();
    }
    // A replay of an early version still names the head of the game it was judged in.
    let replay = s.get(&format!("/v1/games/{id}/replay?at=1"), None).await;
    assert_eq!(head(&replay.body["head"]).version, version);
    s.finish().await;
}

#[actix_web::test]
async fn a_game_the_turn_clock_played_in_is_verified_offline_and_audited_elsewhere() {
    // Carcassonne with a one-minute clock: the players make some moves, the clock makes the
    // others (recorded with no account, with their seed and clock); the export verifies
    // offline and the audit passes where it is imported.
    let a = TestServer::start().await;
    let key = public_key(&a).await;
    let tokens = a.players(&["jana", "kurt"]).await;
    let id = a.game(KIND, json!({"move_minutes": 1}), &tokens).await;
    let mut pick = Pick::new(11);
    for turn in 0..400 {
        let game = a.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            break;
        }
        if turn % 3 == 0 {
            // Nobody acts in time.
            a.store.advance_clock(61_000);
            a.store.sweep_once().await.unwrap();
            continue;
        }
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let r = a.random_move(id, &tokens[seat], &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let game = a.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished", "{}", game.body);
    let by_clock: i64 = a
        .db()
        .await
        .query_one(
            "SELECT count(*) FROM commands WHERE game_id = $1 AND account_id IS NULL AND seat IS NOT NULL",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert!(by_clock > 10, "the clock moved: {by_clock}");

    let exported = export(&a, id, None).await;
    assert_eq!(exported.head.key, key);
    let verified = verify_export(&exported).unwrap();
    assert_eq!(verified.commands, exported.commands.len());

    let b = TestServer::start_with(|c| c.trusted_keys = vec![key.clone()]).await;
    let r = b.import_as_auditor("lena", &exported).await;
    b.audit_holds(r.body["id"].as_i64().unwrap()).await;
    a.finish().await;
    b.finish().await;
}
