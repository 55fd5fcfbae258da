//! A restore that is proven. A server holds games of every kind in every state (waiting,
//! running, finished; Carcassonne with both expansions; a take-back; an import from another
//! server; a private game with an invitation still pending; chat with a removed message; rated
//! games and their ratings). `scripts/backup` dumps its database while it serves;
//! `scripts/restore` puts the dump into a fresh database (and refuses a database that is not
//! empty, and a dump that does not match its checksum); a new server with the same keys serves
//! the restored database. Then every game's audit passes, every signed head verifies under the
//! same key, every finished game's export verifies offline (`baumeister verify`), every read of
//! every viewer answers exactly what it answered before the backup, and play goes on: a legal
//! move on each running game, the waiting games filled, a new account and game whose ids follow
//! the old ones (the sequences were restored).

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Command, Output};
use std::time::Instant;

use baumeister_api::cli::{self, ChatAction};
use baumeister_api::config::SigningKeySource;
use baumeister_api::Config;
use baumeister_domain::registry;
use baumeister_storage::trust::verify_head;
use baumeister_storage::{SignedHead, Signer};
use baumeister_tests::random_play::random_step;
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::{all_at_once, database_url, drop_database, Pick, TestServer};

/// The signing key of the server backed up, and of the one serving the restore.
const SIGNING_KEY: [u8; 32] = [0x42; 32];
/// The other server's, whose export is imported.
const OTHER_KEY: [u8; 32] = [0x17; 32];

fn configured(c: &mut Config, key: [u8; 32]) {
    c.limits.commands = None;
    c.limits.expensive_reads = None;
    c.signing_key = SigningKeySource::Seed(key);
}

/// A game of the server backed up.
struct Game {
    id: i64,
    what: String,
    status: &'static str,
    /// Its players' tokens in seat order (none for the imported game).
    seats: Vec<String>,
    /// How many seats it has.
    seat_count: usize,
}

/// Runs one of `scripts/` on database `db`.
fn script(name: &str, db: &str, args: &[&Path]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name);
    Command::new(path)
        .args(args)
        .env("DATABASE_URL", database_url(db))
        .output()
        .unwrap_or_else(|e| panic!("scripts/{name} runs: {e}"))
}

fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn head(value: &Value) -> SignedHead {
    serde_json::from_value(value.clone()).unwrap_or_else(|_| panic!("a signed head: {value}"))
}

/// Plays random legal moves until the mover may take its command back, and takes it back.
async fn take_one_back(s: &TestServer, id: i64, tokens: &[String]) {
    let mut pick = Pick::new(5);
    for _ in 0..300 {
        let (seat, chosen, r) = random_step(s, id, tokens, &mut pick)
            .await
            .expect("the game runs");
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        let moves = s.moves(id, &tokens[seat]).await;
        if moves.body["can_undo"] == true {
            let r = s
                .post(
                    &format!("/v1/games/{id}/undo"),
                    Some(&tokens[seat]),
                    &json!({}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            return;
        }
    }
    panic!("no command of game {id} could be taken back");
}

/// Every read a viewer makes, keyed by what and who: status and body. What is the same for
/// everybody who may see it (keys, profiles, replays, exports) is read by nobody and by the
/// auditor (who sees the private games) only.
async fn reads(
    s: &TestServer,
    games: &[Game],
    viewers: &[(&str, Option<&str>)],
    kinds: &[&str],
) -> BTreeMap<String, (u16, Value)> {
    let mut seen = BTreeMap::new();
    for (who, token) in viewers {
        let alike = ["nobody", "ines"].contains(who);
        let mut paths = vec!["/v1/games?limit=100".to_string()];
        if token.is_some() {
            paths.push("/v1/me/games".into());
            paths.push("/v1/me/invitations".into());
        }
        if alike {
            paths.extend(
                [
                    "/v1/keys",
                    "/v1/push/key",
                    "/v1/players/anna",
                    "/v1/players/bert",
                ]
                .map(String::from),
            );
            for kind in kinds {
                paths.push(format!("/v1/kinds/{kind}/leaderboard"));
            }
        }
        for game in games {
            let id = game.id;
            paths.extend([
                format!("/v1/games/{id}"),
                format!("/v1/games/{id}/events?limit=1000"),
                format!("/v1/games/{id}/moves"),
                format!("/v1/games/{id}/chat"),
            ]);
            if token.is_some() {
                paths.push(format!("/v1/games/{id}/chat?channel=spectators"));
                paths.push(format!("/v1/games/{id}/invitations"));
            }
            if alike {
                paths.push(format!("/v1/games/{id}/replay?at=1"));
                paths.push(format!("/v1/games/{id}/rematch"));
                if game.status == "finished" {
                    paths.push(format!("/v1/games/{id}/export"));
                }
            }
        }
        // A few at a time: the answers do not depend on the order, and the time does.
        for chunk in paths.chunks(16) {
            let answers = all_at_once(chunk.iter().map(|path| s.get(path, *token))).await;
            for (path, r) in chunk.iter().zip(answers) {
                let mut body = r.body;
                // A refusal names the request it answers: that differs from one read to the next.
                if let Some(problem) = body.as_object_mut() {
                    problem.remove("request_id");
                }
                seen.insert(format!("{who} GET {path}"), (r.status, body));
            }
        }
    }
    seen
}

/// Plays game `id` to its end by random legal moves of the seats it waits for (`seated` in
/// seat order). Each command asks for the mover's next moves in its answer (`Prefer:
/// return=representation`), so a seat reads its moves only when others have moved since.
async fn play_out(s: &TestServer, id: i64, seated: &[String], seed: u64) {
    let mut pick = Pick::new(seed);
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let mut version = game.version();
    let mut to_act = game.body["to_act"].as_array().unwrap().clone();
    let mut known: Vec<Option<(i64, Vec<Value>)>> = vec![None; seated.len()];
    for _ in 0..5000 {
        if to_act.is_empty() {
            let game = s.get(&format!("/v1/games/{id}"), None).await;
            assert_eq!(game.body["status"], "finished", "{}", game.body);
            return;
        }
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        let moves = match &known[seat] {
            Some((at, moves)) if *at == version => moves.clone(),
            _ => {
                let r = s.moves(id, &seated[seat]).await;
                r.body["moves"].as_array().unwrap().clone()
            }
        };
        let chosen = &moves[pick.below(moves.len())];
        let request = s
            .request(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&seated[seat]),
            )
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Prefer", "return=representation"));
        let r = s
            .send(request, Some(serde_json::to_vec(chosen).unwrap()))
            .await;
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        version = r.version();
        to_act = r.body["to_act"].as_array().unwrap().clone();
        let next = r.body["board"]["moves"].as_array().unwrap().clone();
        known[seat] = Some((version, next));
    }
    panic!("game {id} did not end");
}

/// A running game of `kind` for `seated`, its first `steps` random commands played.
async fn run(s: &TestServer, id: i64, seated: &[String], steps: usize, seed: u64) {
    let mut pick = Pick::new(seed);
    for _ in 0..steps {
        let (_, chosen, r) = random_step(s, id, seated, &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
    }
}

/// Ends a Space Builder game with `deadline_minutes: 1` by its deadlines alone: each minute
/// the server stops the round's builders, or releases the winner's lowest card.
async fn end_by_deadlines(s: &TestServer, id: i64) {
    for _ in 0..100 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            return;
        }
        s.store.advance_clock(61_000);
        s.store.sweep_once().await.unwrap();
    }
    panic!("Space Builder game {id} did not end by its deadlines");
}

#[actix_web::test]
async fn a_backup_restored_into_a_fresh_database_is_served_whole_and_play_goes_on() {
    let started = Instant::now();
    // The other server, whose finished game is imported; trusted by the one backed up.
    let other = TestServer::start_with(|c| configured(c, OTHER_KEY)).await;
    let other_key = Signer::from_seed(&OTHER_KEY).public_key();
    let trusted = vec![other_key.clone()];
    let s = TestServer::start_with(|c| {
        configured(c, SIGNING_KEY);
        c.trusted_keys = trusted.clone();
    })
    .await;
    let pair = other.players(&["olga", "otto"]).await;
    let elsewhere = other.game("carcassonne", json!({}), &pair).await;

    let tokens = s.players(&["anna", "bert", "carl", "clara"]).await;
    let (anna, bert, clara) = (&tokens[0], &tokens[1], &tokens[3]);
    let ines = s.auditor("ines").await;
    let both = vec![anna.clone(), bert.clone()];
    let mut games = Vec::new();

    // Every kind waiting for a player, running, and finished (rated by default); the games are
    // played all at once below.
    let mut kinds = Vec::new();
    let mut to_play: Vec<(i64, Vec<String>, u64)> = Vec::new();
    let mut to_run: Vec<(i64, Vec<String>, u64)> = Vec::new();
    let mut by_deadlines = None;
    for (k, game) in registry::all().iter().enumerate() {
        let kind = game.kind();
        kinds.push(kind);
        let seat_count = game.info().min_seats as usize;
        let seated = tokens[..seat_count].to_vec();
        let options = match kind {
            "carcassonne" => json!({"mage_and_witch": true, "gold_mines": true}),
            _ => json!({}),
        };
        let waiting = s
            .create_game(
                anna,
                &json!({"kind": kind, "seats": seat_count, "options": options}),
            )
            .await;
        games.push(Game {
            id: waiting,
            what: format!("{kind} waiting"),
            status: "open",
            seats: vec![anna.clone()],
            seat_count,
        });
        let running = s.game(kind, options.clone(), &seated).await;
        to_run.push((running, seated.clone(), k as u64));
        games.push(Game {
            id: running,
            what: format!("{kind} running"),
            status: "active",
            seats: seated.clone(),
            seat_count,
        });
        let finished = if kind == "space-builder" {
            // Ended by its deadlines (below): random building takes a minute to end a game.
            let id = s.game(kind, json!({"deadline_minutes": 1}), &seated).await;
            by_deadlines = Some(id);
            id
        } else {
            let id = s.game(kind, options, &seated).await;
            to_play.push((id, seated.clone(), 100 + k as u64));
            id
        };
        games.push(Game {
            id: finished,
            what: format!("{kind} finished"),
            status: "finished",
            seats: seated,
            seat_count,
        });
    }

    // A take-back.
    let undone = s.game("carcassonne", json!({}), &both).await;
    games.push(Game {
        id: undone,
        what: "carcassonne with a take-back".into(),
        status: "active",
        seats: both.clone(),
        seat_count: 2,
    });

    // A private game, running.
    let private = s
        .create_game(
            anna,
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    let r = s
        .post(
            &format!("/v1/games/{private}/invitations"),
            Some(anna),
            &json!({"player": "bert"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let invitation = r.body["invitation"]["id"].as_i64().unwrap();
    let r = s
        .answer_invitation(invitation, "accept", bert, &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    to_run.push((private, both.clone(), 9));
    games.push(Game {
        id: private,
        what: "private burgbaumeister".into(),
        status: "active",
        seats: both.clone(),
        seat_count: 2,
    });

    let t = Instant::now();
    let mut plays: Vec<Pin<Box<dyn Future<Output = ()> + '_>>> = vec![
        Box::pin(async {
            play_out(&other, elsewhere, &pair, 3).await;
        }),
        Box::pin(take_one_back(&s, undone, &both)),
    ];
    let server = &s;
    for (id, seated, seed) in &to_play {
        plays.push(Box::pin(async move {
            play_out(server, *id, seated, *seed).await;
        }));
    }
    for (id, seated, seed) in &to_run {
        plays.push(Box::pin(run(&s, *id, seated, 6, *seed)));
    }
    all_at_once(plays.into_iter()).await;
    // The clock moves on for every game: only now that nothing else is played.
    end_by_deadlines(&s, by_deadlines.unwrap()).await;
    eprintln!("the games played in {:?}", t.elapsed());

    // Chat on both channels, on the private game too, and a message the operator removed.
    let chat_at = games[1].id;
    let mut messages = Vec::new();
    for (game, token, channel, text) in [
        (private, anna, "table", "only we read this"),
        (chat_at, anna, "table", "good luck"),
        (chat_at, bert, "table", "you too"),
        (chat_at, clara, "spectators", "nice opening"),
        (chat_at, clara, "spectators", "something rude"),
    ] {
        let r = s
            .post(
                &format!("/v1/games/{game}/chat"),
                Some(token),
                &json!({"channel": channel, "text": text}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        messages.push(r.body["id"].as_i64().unwrap());
    }
    let remove = ChatAction::Remove {
        id: *messages.last().unwrap(),
        reason: "rude".into(),
        by: Some("operator".into()),
    };
    cli::chat(&s.store, remove).await.unwrap();

    // A private game waiting, with an invitation clara has not answered yet.
    let invited = s
        .create_game(
            anna,
            &json!({"kind": "mauerbauer", "seats": 2, "visibility": "private"}),
        )
        .await;
    let r = s
        .post(
            &format!("/v1/games/{invited}/invitations"),
            Some(anna),
            &json!({"player": "clara"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let pending = r.body["invitation"]["id"].as_i64().unwrap();
    games.push(Game {
        id: invited,
        what: "private mauerbauer waiting".into(),
        status: "open",
        seats: vec![anna.clone()],
        seat_count: 2,
    });

    // The other server's game, imported.
    let exported = other
        .get(&format!("/v1/games/{elsewhere}/export"), None)
        .await;
    assert_eq!(exported.status, 200, "{}", exported.body);
    other.finish().await;
    let r = s
        .post("/v1/games/import", Some(&ines), &exported.body)
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    games.push(Game {
        id: r.body["id"].as_i64().unwrap(),
        what: "imported carcassonne".into(),
        status: "finished",
        seats: Vec::new(),
        seat_count: 2,
    });
    eprintln!("{} games made in {:?}", games.len(), started.elapsed());

    let viewers = [
        ("nobody", None),
        ("anna", Some(anna.as_str())),
        ("bert", Some(bert.as_str())),
        ("clara", Some(clara.as_str())),
        ("ines", Some(ines.as_str())),
    ];
    let before = reads(&s, &games, &viewers, &kinds).await;
    // What is backed up is really there: each game in its state, ratings of every kind, the
    // take-back, the removed message, the import's origin.
    for game in &games {
        let read = format!("ines GET /v1/games/{}", game.id);
        assert_eq!(before[&read].1["status"], game.status, "{}", game.what);
    }
    let rated = before["nobody GET /v1/players/anna"].1["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| !k["rating"].is_null())
        .count();
    assert_eq!(
        rated,
        kinds.len(),
        "{}",
        before["nobody GET /v1/players/anna"].1
    );
    let log = &before[&format!("anna GET /v1/games/{undone}/events?limit=1000")].1;
    assert!(
        log["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["taken_back"] == true),
        "{log}"
    );
    let chat = &before[&format!("clara GET /v1/games/{chat_at}/chat?channel=spectators")].1;
    assert!(
        chat["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["removed"] == true),
        "{chat}"
    );
    let imported = games.last().unwrap().id;
    let shown = &before[&format!("nobody GET /v1/games/{imported}")].1;
    assert_eq!(shown["fairness"]["origin_key"], json!(other_key), "{shown}");

    let public_key = Signer::from_seed(&SIGNING_KEY).public_key();
    assert_eq!(
        before["nobody GET /v1/keys"].1["keys"][0]["key"],
        json!(public_key)
    );
    let last_ids = s
        .db()
        .await
        .query_one(
            "SELECT (SELECT max(id) FROM games), (SELECT max(id) FROM accounts),
                    (SELECT max(id) FROM chat_messages), (SELECT max(position) FROM events)",
            &[],
        )
        .await
        .unwrap();
    let (last_game, last_account, last_message, last_position): (i64, i64, i64, i64) = (
        last_ids.get(0),
        last_ids.get(1),
        last_ids.get(2),
        last_ids.get(3),
    );

    // The backup, taken while the server serves.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "restore-{}-{}",
        std::process::id(),
        s.db
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = dir.join("games.dump");
    let t = Instant::now();
    let backup = script("backup", &s.db, &[&dump]);
    assert!(backup.status.success(), "{}", said(&backup));
    eprintln!("backup: {:?}", t.elapsed());
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("games.dump.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["format"], "baumeister-backup/1");
    assert_eq!(manifest["rows"]["games"], json!(last_game_count(&s).await));
    assert!(manifest["migration_version"].as_i64().unwrap() > 0);

    // Refused: a target that is not empty (the live database itself), a damaged dump.
    let refused = script("restore", &s.db, &[&dump]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains("is not empty"),
        "{}",
        said(&refused)
    );
    let damaged = dir.join("damaged.dump");
    let mut bytes = std::fs::read(&dump).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    let sum = std::fs::read_to_string(dir.join("games.dump.sha256")).unwrap();
    std::fs::write(
        dir.join("damaged.dump.sha256"),
        sum.replace("games.dump", "damaged.dump"),
    )
    .unwrap();
    std::fs::copy(
        dir.join("games.dump.manifest.json"),
        dir.join("damaged.dump.manifest.json"),
    )
    .unwrap();
    let never = format!("{}_never", s.db);
    let refused = script("restore", &never, &[&damaged]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains("does not match its checksum"),
        "{}",
        said(&refused)
    );

    // The restore, into a fresh database; then the original is gone.
    let restored_db = format!("{}_restored", s.db);
    drop_database(&restored_db).await;
    let t = Instant::now();
    let restore = script("restore", &restored_db, &[&dump]);
    assert!(restore.status.success(), "{}", said(&restore));
    assert!(said(&restore).contains("verified"), "{}", said(&restore));
    eprintln!("restore: {:?}", t.elapsed());
    let vapid = s.config.notices.vapid.clone();
    // The deadlines moved the first server's clock on; the new one's starts no earlier.
    let clock = s.store.now_ms();
    s.finish().await;

    // Served with the same keys: signing key, JWT secret (the test servers share it: the old
    // tokens still work), VAPID key, trusted keys.
    let r = TestServer::on_database(&restored_db, |c| {
        configured(c, SIGNING_KEY);
        c.trusted_keys = trusted.clone();
        c.notices.vapid = vapid;
    })
    .await;
    r.store.advance_clock((clock - r.store.now_ms()).max(0));
    let t = Instant::now();
    let after = reads(&r, &games, &viewers, &kinds).await;
    eprintln!("{} reads again in {:?}", after.len(), t.elapsed());
    assert_eq!(before.len(), after.len());
    for (read, was) in &before {
        assert_eq!(Some(was), after.get(read), "{read} after the restore");
    }
    // The projections derived from the events again are the ones restored.
    r.store.rebuild_all_projections().await.unwrap();
    for (who, token) in &viewers {
        for path in ["/v1/games?limit=100", "/v1/me/games"] {
            let read = format!("{who} GET {path}");
            if let Some(was) = before.get(&read) {
                let now = r.get(path, *token).await;
                assert_eq!((now.status, &now.body), (was.0, &was.1), "{read} rebuilt");
            }
        }
    }

    // Every game's audit passes.
    let audits = all_at_once(
        games
            .iter()
            .map(|game| r.get(&format!("/v1/games/{}/audit", game.id), Some(&ines))),
    )
    .await;
    for (game, audit) in games.iter().zip(audits) {
        assert_eq!(audit.status, 200, "{}: {}", game.what, audit.body);
        for check in [
            "chain_intact",
            "decisions_reproduced",
            "randomness_committed",
            "snapshots_match",
        ] {
            assert_eq!(audit.body[check], true, "{}: {}", game.what, audit.body);
        }
        assert_eq!(audit.body["problems"], json!([]), "{}", game.what);
    }

    eprintln!("audited at {:?}", started.elapsed());
    // Every head any viewer was shown verifies, signed with the same key as before (the
    // imported game's with the other server's); private games are still hidden from outsiders.
    for game in &games {
        let id = game.id;
        let key = if game.what.starts_with("imported") {
            &other_key
        } else {
            &public_key
        };
        let mut shown = Vec::new();
        for (who, _) in &viewers {
            for path in [
                format!("/v1/games/{id}"),
                format!("/v1/games/{id}/moves"),
                format!("/v1/games/{id}/events?limit=1000"),
            ] {
                let (status, body) = &after[&format!("{who} GET {path}")];
                if game.what.starts_with("private") && *who == "nobody" {
                    assert_eq!(*status, 404, "{} for {who}", game.what);
                }
                if *status == 404 {
                    continue;
                }
                assert_eq!(*status, 200, "{path} for {who}: {body}");
                shown.push(head(&body["head"]));
            }
        }
        // Every read of a game names the head of its version: one to verify (a signature
        // check is slow in a debug build).
        shown.dedup();
        assert_eq!(shown.len(), 1, "{}: {shown:?}", game.what);
        verify_head(&shown[0]).unwrap_or_else(|e| panic!("{}: {e:?}", game.what));
        assert_eq!(&shown[0].key, key, "{}", game.what);
    }

    // Every finished game's export verifies offline, as `baumeister verify FILE` checks it.
    for game in games.iter().filter(|g| g.status == "finished") {
        let id = game.id;
        let (status, body) = &after[&format!("nobody GET /v1/games/{id}/export")];
        assert_eq!(*status, 200, "{}: {body}", game.what);
        let file = dir.join(format!("export-{id}.json"));
        std::fs::write(&file, serde_json::to_vec(body).unwrap()).unwrap();
        cli::verify(&file).unwrap_or_else(|e| panic!("{}: {e}", game.what));
    }
    eprintln!("audited and verified at {:?}", started.elapsed());

    // Play goes on: a legal move on every running game, every waiting game filled.
    for game in games.iter().filter(|g| g.status == "active") {
        let id = game.id;
        let shown = r
            .get(&format!("/v1/games/{id}"), Some(&game.seats[0]))
            .await;
        let version = shown.body["version"].as_i64().unwrap();
        let seat = shown.body["to_act"][0].as_u64().unwrap() as usize;
        let moved = r.first_move(id, &game.seats[seat]).await;
        assert!(moved.version() > version, "{}", game.what);
        verify_head(&head(&moved.body["head"])).unwrap();
        let audit = r.get(&format!("/v1/games/{id}/audit"), Some(&ines)).await;
        assert_eq!(
            audit.body["chain_intact"], true,
            "{}: {}",
            game.what, audit.body
        );
        assert_eq!(audit.body["decisions_reproduced"], true, "{}", game.what);
    }
    for game in games.iter().filter(|g| g.status == "open") {
        let id = game.id;
        let joined = if id == invited {
            r.answer_invitation(pending, "accept", clara, &json!({}))
                .await
        } else {
            let mut joined = None;
            for token in &tokens[1..game.seat_count] {
                joined = Some(r.join(id, token).await);
            }
            joined.unwrap()
        };
        assert_eq!(joined.status, 200, "{}: {}", game.what, joined.body);
        assert_eq!(joined.body["status"], "active", "{}", game.what);
    }

    // New rows take ids after the restored ones: the sequences came along.
    let dora = r.player("dora").await;
    let new_game = r.open_game(&dora, "mauerbauer", 2).await;
    assert!(new_game > last_game, "{new_game} after {last_game}");
    let said_again = r
        .post(
            &format!("/v1/games/{chat_at}/chat"),
            Some(anna),
            &json!({"channel": "table", "text": "still here"}),
        )
        .await;
    assert_eq!(said_again.status, 201, "{}", said_again.body);
    assert!(said_again.body["id"].as_i64().unwrap() > last_message);
    let db = r.db().await;
    let row = db
        .query_one(
            "SELECT (SELECT id FROM accounts WHERE name = 'dora'),
                    (SELECT min(position) FROM events WHERE position > $1)",
            &[&last_position],
        )
        .await
        .unwrap();
    assert!(row.get::<_, i64>(0) > last_account);
    assert!(
        row.get::<_, Option<i64>>(1).is_some(),
        "new events after the old ones"
    );
    r.finish().await;
    drop_database(&never).await;
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!("the whole drill took {:?}", started.elapsed());
}

async fn last_game_count(s: &TestServer) -> i64 {
    s.db()
        .await
        .query_one("SELECT count(*) FROM games", &[])
        .await
        .unwrap()
        .get(0)
}

#[actix_web::test]
async fn a_backup_taken_while_commands_are_written_restores_one_moment_of_them() {
    let s = TestServer::start_with(|c| configured(c, SIGNING_KEY)).await;
    let tokens = s.players(&["anna", "bert"]).await;
    let id = s.game("carcassonne", json!({}), &tokens).await;
    let first = s.get(&format!("/v1/games/{id}"), None).await.version();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("busy-{}", s.db));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = dir.join("busy.dump");

    // The backup runs while the players keep moving.
    let backup = {
        let (db, dump) = (s.db.clone(), dump.clone());
        std::thread::spawn(move || script("backup", &db, &[&dump]))
    };
    let mut pick = Pick::new(21);
    let mut during = 0;
    while !backup.is_finished() {
        let Some((_, chosen, r)) = random_step(&s, id, &tokens, &mut pick).await else {
            break;
        };
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        during += 1;
    }
    let backup = backup.join().unwrap();
    assert!(backup.status.success(), "{}", said(&backup));
    let last = s.get(&format!("/v1/games/{id}"), None).await.version();
    assert!(during > 0, "no command was written during the backup");

    // The restore's own checks hold the dump to the manifest read from the same snapshot: row
    // counts, whole logs, sequences.
    let restored_db = format!("{}_busy", s.db);
    drop_database(&restored_db).await;
    let restore = script("restore", &restored_db, &[&dump]);
    assert!(restore.status.success(), "{}", said(&restore));
    s.finish().await;
    let r = TestServer::on_database(&restored_db, |c| configured(c, SIGNING_KEY)).await;
    let game = r.get(&format!("/v1/games/{id}"), None).await;
    let version = game.version();
    assert!(
        (first..=last).contains(&version),
        "version {version}, between {first} and {last}"
    );
    let audit = r.get(&format!("/v1/games/{id}/audit"), None).await;
    for check in [
        "chain_intact",
        "decisions_reproduced",
        "randomness_committed",
    ] {
        assert_eq!(audit.body[check], true, "{}", audit.body);
    }
    let stored: i64 = r
        .db()
        .await
        .query_one("SELECT count(*) FROM commands WHERE game_id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("busy.dump.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(
        manifest["rows"]["commands"],
        json!(stored),
        "one game, one snapshot"
    );
    if game.body["status"] == "active" {
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        r.first_move(id, &tokens[seat]).await;
    }
    eprintln!(
        "{during} commands during the backup; restored at version {version} of {first}..={last}"
    );
    r.finish().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
